/* SPDX-License-Identifier: Apache-2.0
** repo.c: the git repository a path is in (repo.h), through libgit2. libgit2 is loaded with
** dlopen on first use, not linked: it and the libraries it needs (TLS, SSH, HTTP) would cost
** every run, a pre-commit hook's included, milliseconds of dynamic loading before main, and a
** run that names no file never needs it. The soname is the one the build found
** (SL_GIT2_SONAME, meson.build). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "util/arena.h"
#include "fs/gitignore.h"
#include "fs/repo.h"
#include "util/path.h"
#include "util/strmap.h"
#include <unistd.h>

static struct {
	int (*init)(void);
	int (*open_ext)(git_repository **, const char *, unsigned int, const char *);
	const char *(*workdir)(const git_repository *);
	void (*free)(git_repository *);
	int (*ignored)(int *, git_repository *, const char *);
	const char *(*path)(const git_repository *);
	int (*config_snapshot)(git_config **, git_repository *);
	int (*config_get_path)(git_buf *, const git_config *, const char *);
	void (*config_free)(git_config *);
	void (*buf_dispose)(git_buf *);
	bool ok;
} git;
static pthread_once_t git_once = PTHREAD_ONCE_INIT;
static bool maybe_in_repo(const char *start_dir);

static void load_git(void)
{
	void *h = dlopen(SL_GIT2_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return;   /* no libgit2 at run time: no repository is found, the fallbacks apply */
	*(void **)&git.init = dlsym(h, "git_libgit2_init");
	*(void **)&git.open_ext = dlsym(h, "git_repository_open_ext");
	*(void **)&git.workdir = dlsym(h, "git_repository_workdir");
	*(void **)&git.free = dlsym(h, "git_repository_free");
	*(void **)&git.ignored = dlsym(h, "git_ignore_path_is_ignored");
	*(void **)&git.path = dlsym(h, "git_repository_path");
	*(void **)&git.config_snapshot = dlsym(h, "git_repository_config_snapshot");
	*(void **)&git.config_get_path = dlsym(h, "git_config_get_path");
	*(void **)&git.config_free = dlsym(h, "git_config_free");
	*(void **)&git.buf_dispose = dlsym(h, "git_buf_dispose");
	git.ok = git.init && git.open_ext && git.workdir && git.free && git.ignored &&
		 git.path && git.config_snapshot && git.config_get_path && git.config_free &&
		 git.buf_dispose;
	/* Initialised once, for the rest of the process: each git_libgit2_init after a shutdown
	** runs libgit2's global set-up again, and Debian's (mbedTLS) parses the system's whole CA
	** bundle there (streams/mbedtls.c: GIT_DEFAULT_CERT_LOCATION, unconditionally; no option
	** of git_libgit2_opts skips it), for a tool that never opens a connection: about 55 M
	** instructions, as much as the rest of a staged file's run. */
	git.ok = git.ok && git.init() >= 0;
}

sl_err sl_repo_root(const char *start_dir, char **out)
{
	if (!maybe_in_repo(start_dir))
		return SL_ENOTFOUND;
	pthread_once(&git_once, load_git);
	if (!git.ok)
		return SL_ENOTFOUND;
	git_repository *repo = NULL;
	sl_err err = SL_ENOTFOUND;
	if (git.open_ext(&repo, start_dir, 0, NULL) == 0) {
		const char *wd = git.workdir(repo);   /* NULL when bare */
		if (wd) {
			size_t n = strlen(wd);
			while (n > 1 && wd[n - 1] == '/')
				n--;
			*out = sl_xmalloc(n + 1);
			if (*out) {
				memcpy(*out, wd, n);
				(*out)[n] = '\0';
				err = SL_OK;
			} else {
				err = SL_ENOMEM;
			}
		}
		git.free(repo);
	}
	return err;
}

/* A directory paths were asked about: its real path (NULL: none) and whether git ignores it. */
struct dir {
	char *named, *real;
	int ignored;         /* -1: not asked yet */
};

struct sl_repo {
	git_repository *repo;
	char *workdir;       /* real, with its trailing '/' */
	size_t n;
	sl_strmap dirs;      /* a directory as named -> its struct dir (a walk asks by directory) */
	struct dir *last;    /* the last one asked about */
	sl_strmap asked;     /* a directory relative to the work tree ("a/b/") -> libgit2's answer */
	sl_strmap vetted;    /* the work tree's directories whose .gitignore was vetted */
	char *excludes[2];   /* core.excludesFile (or git's default), info/exclude; NULL: none */
	bool unsafe;         /* an ignore file libgit2 would read is unsafe: it is asked no more */
	sl_gitignore_tree *own;   /* the same rules as gitignore.c matches them (made on first use) */
};

/* --- the ignore files, vetted before libgit2 reads them --------------------------------------
** libgit2 opens an ignore file blocking (a FIFO hangs the run) and its wildmatch backtracks on
** patterns of many stars (a committed "*a*a*a*a*a*a*a*a*a*a*b" costs minutes). Each file it
** would read (info/exclude, core.excludesFile, the .gitignore of every directory down to the
** one asked about) is first opened here non-blocking: one that is not a regular file, or holds
** a pattern of more than SL_IGNORE_MAX_STARS stars, makes the repository unsafe, and libgit2 is
** asked nothing more: the same files are then matched by gitignore.c (non-blocking, regular
** files only, no backtracking search), so the answer stays git's. This reads each file's
** patterns only to count stars: not a second parser. */
#define SL_IGNORE_MAX_STARS 6
#define SL_IGNORE_MAX_BYTES (1u << 20)

/* True when the ignore file at path is absent, or a regular file (opened non-blocking) whose
** patterns libgit2 matches in reasonable time. */
static bool ignore_file_safe(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR;
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
		return true;   /* dangling: nothing to read */
	if (!S_ISREG(st.st_mode))
		return false;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return false;
	bool safe = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (size_t)st.st_size <= SL_IGNORE_MAX_BYTES;
	char *text = safe ? sl_xmalloc((size_t)st.st_size + 1) : NULL;
	ssize_t got = text ? read(fd, text, (size_t)st.st_size) : -1;
	close(fd);
	safe = safe && got >= 0;
	unsigned stars = 0;
	for (ssize_t i = 0; safe && i < got; i++) {
		if (text[i] == '\n') {
			stars = 0;
		} else if (text[i] == '*' && (i == 0 || text[i - 1] != '*')) {
			safe = ++stars <= SL_IGNORE_MAX_STARS;   /* "**" is one */
		}
	}
	free(text);
	return safe;
}

/* The repository's own ignore files, kept in r->excludes: core.excludesFile (else git's
** default, $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore) and info/exclude; true when
** both are safe. */
static bool own_ignore_files_safe(sl_repo *r)
{
	git_config *cfg = NULL;
	git_buf buf = {0};
	if (git.config_snapshot(&cfg, r->repo) == 0 &&
	    git.config_get_path(&buf, cfg, "core.excludesFile") == 0 && buf.ptr)
		r->excludes[0] = sl_xstrdup(buf.ptr);
	else if (getenv("XDG_CONFIG_HOME") && *getenv("XDG_CONFIG_HOME"))
		r->excludes[0] = sl_xprintf("%s/git/ignore", getenv("XDG_CONFIG_HOME"));
	else if (getenv("HOME"))
		r->excludes[0] = sl_xprintf("%s/.config/git/ignore", getenv("HOME"));
	git.buf_dispose(&buf);
	if (cfg)
		git.config_free(cfg);
	r->excludes[1] = sl_xprintf("%sinfo/exclude", git.path(r->repo));
	return r->excludes[1] && ignore_file_safe(r->excludes[1]) &&
	       (!r->excludes[0] || ignore_file_safe(r->excludes[0]));
}

/* Vets the .gitignore of real directory dir (in the work tree) and of each directory above it
** up to the work tree's root, each once; false when one is unsafe. */
static bool gitignores_safe(sl_repo *r, const char *dir)
{
	size_t n = strlen(dir);
	if (n + 1 < r->n || strncmp(dir, r->workdir, r->n - 1) != 0 ||
	    (dir[r->n - 1] != '/' && dir[r->n - 1] != '\0'))
		return true;   /* outside the work tree: libgit2 is not asked */
	char *d = sl_xstrdup(dir);
	bool safe = d != NULL;
	while (safe && strlen(d) + 1 >= r->n) {
		if (sl_strmap_get(&r->vetted, d, strlen(d)))
			break;   /* this one and those above it: vetted */
		char *gi = sl_xprintf("%s/.gitignore", d);
		safe = gi && ignore_file_safe(gi);
		free(gi);
		bool found;   /* the map's keys: freed with it, as its values */
		sl_strmap_slot *slot = safe ? sl_strmap_put_copy(&r->vetted, d, strlen(d), &found)
					    : NULL;
		if (slot)
			slot->val = (void *)slot->key;
		safe = safe && slot;
		char *slash = strrchr(d, '/');
		if (!slash || strlen(d) + 1 == r->n)
			break;
		*slash = '\0';
	}
	free(d);
	return safe;
}

/* True when start_dir or a directory above it holds .git: a directory in no repository does not
** load libgit2 (its loading and initialisation cost a run about 15 ms). */
static bool maybe_in_repo(const char *start_dir)
{
	char *dir = realpath(start_dir, NULL);
	bool oom = false;
	char *root = dir ? sl_path_find_upward(dir, NULL, NULL, NULL, &oom) : NULL;
	bool found = root != NULL;
	free(dir);
	free(root);
	return found;
}

sl_repo *sl_repo_open(const char *start_dir)
{
	if (!maybe_in_repo(start_dir))
		return NULL;
	pthread_once(&git_once, load_git);
	if (!git.ok)
		return NULL;
	sl_repo *r = sl_xcalloc(1, sizeof *r);
	if (!r)
		return NULL;
	if (git.open_ext(&r->repo, start_dir, 0, NULL) == 0 && git.workdir(r->repo)) {
		r->workdir = sl_xstrdup(git.workdir(r->repo));
		if (r->workdir) {
			r->n = strlen(r->workdir);
			r->unsafe = !own_ignore_files_safe(r);
			return r;
		}
	}
	sl_repo_free(r);
	return NULL;
}

/* The real path of directory path; when it does not exist, its nearest existing ancestor's with
** the rest of path appended (a generated directory not made yet). NULL: nothing resolves. */
static char *real_beyond(const char *path)
{
	char *real = realpath(path, NULL);
	if (real || errno != ENOENT)
		return real;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return NULL;
	char *parent = !slash ? sl_xstrdup(".") : slash == path ? sl_xstrdup("/")
			      : sl_xprintf("%.*s", (int)(slash - path), path);
	char *pr = parent ? real_beyond(parent) : NULL;
	real = pr ? sl_xprintf("%s%s%s", pr, strcmp(pr, "/") ? "/" : "", base) : NULL;
	free(parent);
	free(pr);
	return real;
}

const char *sl_repo_workdir(const sl_repo *r)
{
	return r->workdir;
}

/* Whether libgit2 says git ignores rel, a directory of the work tree ("a/b/"), asked once. */
static bool git_says(sl_repo *r, const char *rel)
{
	static char yes, no;
	size_t n = strlen(rel);
	sl_strmap_slot *s = sl_strmap_get(&r->asked, rel, n);
	if (s)
		return s->val == &yes;
	int ignored = 0;
	bool says = git.ignored(&ignored, r->repo, rel) == 0 && ignored == 1;
	bool found;
	s = sl_strmap_put_copy(&r->asked, rel, n, &found);   /* the map's keys: freed with it */
	if (s)
		s->val = says ? &yes : &no;
	return says;
}

/* libgit2 builds its ignore stack afresh for every path it is asked about (every .gitignore from
** the root down stat'ed again: ~20 000 system calls for a 2 000-file project), so it is asked
** about directories only, each once: a file is ignored when its directory is, or when
** gitignore.c's matcher finds a pattern that matches its name (from the same files, each read
** once). When an ignore file is unsafe for libgit2, the matcher answers for directories too. */
bool sl_repo_ignored(sl_repo *r, const char *path, bool is_dir)
{
	/* the path relative to the work tree: its directory's real path, then its name */
	char *dup = sl_xstrdup(path);
	if (!dup)
		return false;
	char *slash = strrchr(dup, '/');
	const char *name = slash ? slash + 1 : dup;
	if (slash)
		*slash = '\0';
	const char *named = slash ? (dup[0] ? dup : "/") : ".";
	if (!r->last || strcmp(r->last->named, named) != 0) {
		sl_strmap_slot *s = sl_strmap_get(&r->dirs, named, strlen(named));
		struct dir *d = s ? s->val : sl_xcalloc(1, sizeof *d);
		bool found;
		if (!s && d && (d->named = sl_xstrdup(named)) &&
		    (s = sl_strmap_put(&r->dirs, d->named, strlen(named), &found))) {
			d->real = real_beyond(named);
			d->ignored = -1;
			s->val = d;
		} else if (!s && d) {
			free(d->named);
			free(d);
			d = NULL;
		}
		r->last = d;
	}
	const char *dir = r->last ? r->last->real : NULL;
	if (dir && !r->unsafe && !gitignores_safe(r, dir))
		r->unsafe = true;
	/* dir relative to the work tree ("" the root), when it is in it */
	size_t dn = dir ? strlen(dir) : 0;
	const char *drel = !dir || dn + 1 < r->n || strncmp(dir, r->workdir, r->n - 1) != 0 ? NULL
			   : dn + 1 == r->n ? "" : dir[r->n - 1] == '/' ? dir + r->n : NULL;
	char *rel = drel ? sl_xprintf("%s%s%s%s", drel, *drel ? "/" : "", name,
				      is_dir && !r->unsafe ? "/" : "") : NULL;
	if (rel && !r->own)
		r->own = sl_gitignore_tree_new(r->workdir, (const char *const *)r->excludes, 2);
	bool ignored = false;
	if (!rel || !r->own) {
		ignored = false;   /* outside the work tree (or out of memory) */
	} else if (r->unsafe) {
		/* libgit2 would hang or backtrack on an ignore file: the matcher answers */
		ignored = sl_gitignore_tree_ignored(r->own, rel, is_dir);
	} else if (is_dir) {
		ignored = git_says(r, rel);   /* a walk asks about each directory once */
	} else {
		if (r->last->ignored < 0) {
			char *d = *drel ? sl_xprintf("%s/", drel) : NULL;
			r->last->ignored = d && git_says(r, d);
			free(d);
		}
		ignored = r->last->ignored || sl_gitignore_tree_matches(r->own, rel, false);
	}
	free(rel);
	free(dup);
	return ignored;
}

void sl_repo_free(sl_repo *r)
{
	if (!r)
		return;
	if (r->repo)
		git.free(r->repo);
	free(r->workdir);
	for (size_t i = 0; i < r->dirs.cap; i++) {
		struct dir *d = r->dirs.v[i].val;
		if (r->dirs.v[i].key) {
			free(d->named);
			free(d->real);
			free(d);
		}
	}
	sl_strmap_free(&r->dirs);
	for (size_t i = 0; i < r->asked.cap; i++)
		free((void *)r->asked.v[i].key);
	sl_strmap_free(&r->asked);
	free(r->excludes[0]);
	free(r->excludes[1]);
	sl_gitignore_tree_free(r->own);
	for (size_t i = 0; i < r->vetted.cap; i++)
		free(r->vetted.v[i].val);
	sl_strmap_free(&r->vetted);
	free(r);
}
