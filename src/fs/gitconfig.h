/* SPDX-License-Identifier: Apache-2.0
** gitconfig.h: the few keys of git's config files that decide a work tree's ignore rules, read
** without libgit2 (whose initialisation alone costs a pre-commit run as much as its lint: repo.c).
** The reader is exact or says so: whatever it does not follow as git and libgit2 do (an include,
** a key it cannot parse, a syntax error, a file it cannot read) makes it answer "unsure", and the
** caller asks libgit2 instead. */
#ifndef SL_GITCONFIG_H
#define SL_GITCONFIG_H

#include <stdbool.h>

/* What the files read so far set, the later file's and line's values overriding the earlier. */
typedef struct {
	char *excludes_file;   /* core.excludesFile's value as written; NULL: unset or valueless */
	bool excludes_set;     /* core.excludesFile appears (a valueless one: no file, no default) */
	bool ignore_case;      /* core.ignoreCase */
	bool bare;             /* core.bare */
	bool worktree;         /* core.worktree appears */
	bool extensions;       /* a key of [extensions] appears */
	long format_version;   /* core.repositoryFormatVersion (0 when unset) */
} sl_gitconfig;

/* Reads the config file at path into *c. True when it is absent (ENOENT, ENOTDIR) or read;
** false when this reader cannot say exactly what git would make of it: not a regular file or
** unreadable, an [include] or [includeIf] section, a syntax error, a core key of those above
** whose value it cannot parse. */
bool sl_gitconfig_read(const char *path, sl_gitconfig *c);
void sl_gitconfig_free(sl_gitconfig *c);

/* The paths of the config files libgit2 reads for a repository, lowest precedence first: the
** system's (/etc/gitconfig), the XDG one ($XDG_CONFIG_HOME/git/config, else
** ~/.config/git/config), the global (~/.gitconfig), then the repository's (common_dir/config,
** not named here). home is $HOME. Each malloc'd into out[0..3); false when out of memory. */
bool sl_gitconfig_user_files(const char *home, char *out[3]);

#endif
