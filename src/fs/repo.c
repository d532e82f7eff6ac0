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
#include "fs/gitconfig.h"
#include "fs/gitignore.h"
#include "fs/repo.h"
#include "fs/walk.h"
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
	int (*config_get_bool)(int *, const git_config *, const char *);
	void (*config_free)(git_config *);
	void (*buf_dispose)(git_buf *);
	bool ok;
} git;
static pthread_once_t git_once = PTHREAD_ONCE_INIT;

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
	*(void **)&git.config_get_bool = dlsym(h, "git_config_get_bool");
	*(void **)&git.buf_dispose = dlsym(h, "git_buf_dispose");
	git.ok = git.init && git.open_ext && git.workdir && git.free && git.ignored &&
		 git.path && git.config_snapshot && git.config_get_path && git.config_free &&
		 git.config_get_bool && git.buf_dispose;
	/* Initialised once, for the rest of the process: each git_libgit2_init after a shutdown
	** runs libgit2's global set-up again, and Debian's (mbedTLS) parses the system's whole CA
	** bundle there (streams/mbedtls.c: GIT_DEFAULT_CERT_LOCATION, unconditionally; no option
	** of git_libgit2_opts skips it), for a tool that never opens a connection: about 55 M
	** instructions, as much as the rest of a staged file's run. */
	git.ok = git.ok && git.init() >= 0;
}

/* --- the repository found without libgit2 ---------------------------------------------------
** A pre-commit run names one file: initialising libgit2 to find its work tree and read one config
** key costs more than the lint (its global set-up parses the CA bundle). The common layouts are
** found here instead, as libgit2's git_repository_open_ext (flags 0: no GIT_DIR, no ceiling
** directories) finds them: from the start directory's real path up, the first directory D whose
** D/.git is a directory, or a file "gitdir: PATH", that is a valid git directory (HEAD a file,
** objects/ and refs/ directories in its common directory); its work tree is D. Whatever this does
** not follow exactly is left to libgit2 ("unsure"): a file system boundary on the way up, a
** directory that is itself a git directory (a bare repository, or the start inside .git), a .git
** that is not valid, a repository or work tree another user owns (libgit2's safe.directory),
** core.bare, core.worktree, core.ignoreCase, a repository format other than 0 or any extension,
** config includes or a config this reader cannot parse (fs/gitconfig.h), no $HOME or a set-uid
** run. */
enum found { FOUND_NONE, FOUND, FOUND_UNSURE };

struct place {
	char *workdir;      /* real, with its trailing '/' */
	char *excludes[2];  /* core.excludesFile (or git's default) and info/exclude; NULL: none */
};

static bool is_kind(const char *dir, const char *name, mode_t kind)
{
	char *p = sl_xprintf("%s/%s", dir, name);
	struct stat st;
	bool is = p && stat(p, &st) == 0 && (st.st_mode & S_IFMT) == kind;
	free(p);
	return is;
}

static bool owned(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && st.st_uid == geteuid();
}

/* The text of small regular file path with trailing blanks dropped (malloc'd), or NULL. */
static char *small_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *text = NULL;
	ssize_t got = -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < 4096 &&
	    (text = sl_xmalloc((size_t)st.st_size + 1)))
		got = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (got < 0 || memchr(text, '\0', (size_t)got)) {
		free(text);
		return NULL;
	}
	while (got > 0 && strchr(" \t\r\n", text[got - 1]))
		got--;
	text[got] = '\0';
	return text;
}

/* The git directory a .git file at dir/.git names ("gitdir: PATH", relative to dir), as a real
** path; NULL when it names none. */
static char *gitfile_target(const char *dir)
{
	char *p = sl_xprintf("%s/.git", dir);
	char *text = p ? small_file(p) : NULL;
	free(p);
	char *real = NULL;
	if (text && strncmp(text, "gitdir:", 7) == 0) {
		const char *t = text + 7;
		while (*t == ' ' || *t == '\t')
			t++;
		char *joined = *t == '/' ? sl_xstrdup(t) : sl_xprintf("%s/%s", dir, t);
		real = joined && *t ? realpath(joined, NULL) : NULL;
		free(joined);
	}
	free(text);
	return real;
}

/* The common directory of git directory gitdir (its commondir file's, for a linked worktree),
** as a real path; NULL when gitdir is not a valid git directory. */
static char *common_dir(const char *gitdir)
{
	char *p = sl_xprintf("%s/commondir", gitdir);
	char *link = p ? small_file(p) : NULL;
	struct stat st;
	bool has_link = p && stat(p, &st) == 0;
	free(p);
	char *common = NULL;
	if (link && *link) {
		char *joined = link[0] == '/' ? sl_xstrdup(link) : sl_xprintf("%s/%s", gitdir, link);
		common = joined ? realpath(joined, NULL) : NULL;
		free(joined);
	} else if (!has_link) {
		common = sl_xstrdup(gitdir);
	}
	free(link);
	if (common && (!is_kind(gitdir, "HEAD", S_IFREG) || !is_kind(common, "objects", S_IFDIR) ||
		       !is_kind(common, "refs", S_IFDIR))) {
		free(common);
		common = NULL;
	}
	return common;
}

/* core.excludesFile as libgit2's attribute cache reads it (a leading "~/" is $HOME's; a
** valueless one: none), else git's default, $XDG_CONFIG_HOME/git/ignore or
** ~/.config/git/ignore; *oom set when out of memory. */
static char *excludes_file(const sl_gitconfig *cfg, const char *home, bool *oom)
{
	const char *v = cfg->excludes_file, *xdg = getenv("XDG_CONFIG_HOME");
	char *path = cfg->excludes_set ? (!v ? NULL : v[0] == '~' && v[1] == '/'
					  ? sl_xprintf("%s/%s", home, v + 2) : sl_xstrdup(v))
		     : xdg && *xdg ? sl_xprintf("%s/git/ignore", xdg)
		     : sl_xprintf("%s/.config/git/ignore", home);
	*oom = !path && (!cfg->excludes_set || v);
	return path;
}

/* The git directory gitdir (*common its common one), whose work tree is dir: its config read,
** the work tree's place filled in. */
static enum found settle(const char *dir, const char *gitdir, const char *common,
			 const char *gitlink, struct place *pl)
{
	const char *home = getenv("HOME");
	if (!home || !*home || getuid() != geteuid() || !owned(dir) || !owned(gitdir) ||
	    (gitlink && !owned(gitlink)))
		return FOUND_UNSURE;
	sl_gitconfig cfg = {0};
	char *files[4] = {0};
	bool ok = sl_gitconfig_user_files(home, files) &&
		  (files[3] = sl_xprintf("%s/config", common)) != NULL;
	for (size_t i = 0; ok && i < 4; i++)
		ok = sl_gitconfig_read(files[i], &cfg);
	for (size_t i = 0; i < 4; i++)
		free(files[i]);
	ok = ok && !cfg.bare && !cfg.worktree && !cfg.ignore_case && !cfg.extensions &&
	     cfg.format_version == 0;
	bool oom = false;
	if (ok) {
		pl->excludes[0] = excludes_file(&cfg, home, &oom);
		pl->excludes[1] = sl_xprintf("%s/info/exclude", common);
		pl->workdir = sl_xprintf("%s/", strcmp(dir, "/") ? dir : "");
		oom = oom || !pl->excludes[1] || !pl->workdir;
	}
	sl_gitconfig_free(&cfg);
	if (!ok || oom) {
		free(pl->excludes[0]);
		free(pl->excludes[1]);
		free(pl->workdir);
		*pl = (struct place){0};
		return FOUND_UNSURE;
	}
	return FOUND;
}

/* The repository start_dir is in, found as libgit2 would find it (above), or FOUND_UNSURE. */
static enum found discover(const char *start_dir, struct place *pl)
{
	*pl = (struct place){0};
	char *dir = realpath(start_dir, NULL);
	struct stat st0, st;
	if (!dir || stat(dir, &st0) != 0) {
		free(dir);
		return FOUND_NONE;   /* as maybe_in_repo: nothing to start from */
	}
	enum found found = FOUND_NONE;
	for (;;) {
		char *git = sl_xprintf("%s%s.git", dir, strcmp(dir, "/") ? "/" : "");
		int rc = git ? stat(git, &st) : -1;
		int err = errno;
		if (!git) {
			found = FOUND_UNSURE;
		} else if (rc != 0) {
			if (err != ENOENT && err != ENOTDIR)
				found = FOUND_UNSURE;
			else if (is_kind(dir, "HEAD", S_IFREG))
				found = FOUND_UNSURE;   /* dir may be a git directory itself */
		} else if (S_ISDIR(st.st_mode)) {
			char *common = common_dir(git);
			found = common ? settle(dir, git, common, NULL, pl) : FOUND_UNSURE;
			free(common);
		} else if (S_ISREG(st.st_mode)) {
			char *target = gitfile_target(dir);
			char *common = target ? common_dir(target) : NULL;
			found = common ? settle(dir, target, common, git, pl) : FOUND_UNSURE;
			free(common);
			free(target);
		} else {
			found = FOUND_UNSURE;
		}
		free(git);
		if (found != FOUND_NONE || strcmp(dir, "/") == 0)
			break;
		char *slash = strrchr(dir, '/');
		slash[slash == dir ? 1 : 0] = '\0';
		if (stat(dir, &st) != 0 || st.st_dev != st0.st_dev) {
			found = FOUND_UNSURE;   /* libgit2 stops at a file system's boundary */
			break;
		}
	}
	free(dir);
	return found;
}

sl_err sl_repo_root(const char *start_dir, char **out)
{
	struct place pl;
	enum found f = discover(start_dir, &pl);
	if (f == FOUND) {
		size_t n = strlen(pl.workdir);
		pl.workdir[n > 1 ? n - 1 : n] = '\0';
		*out = pl.workdir;
		free(pl.excludes[0]);
		free(pl.excludes[1]);
		return SL_OK;
	}
	if (f == FOUND_NONE)
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
	bool icase;          /* libgit2's core.ignoreCase: it is asked about files too */
	sl_gitignore_tree *own;   /* the same rules as gitignore.c matches them (made on first use) */
	const sl_walk_seen *seen; /* the walks' listings: which directories hold no .gitignore */
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
	int icase = 0;
	r->icase = cfg && git.config_get_bool(&icase, cfg, "core.ignoreCase") == 0 && icase;
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

sl_repo *sl_repo_open(const char *start_dir)
{
	struct place pl;
	enum found f = discover(start_dir, &pl);
	if (f == FOUND_NONE)
		return NULL;
	sl_repo *r = sl_xcalloc(1, sizeof *r);
	if (r && f == FOUND) {   /* answered without libgit2 */
		r->workdir = pl.workdir;
		r->n = strlen(r->workdir);
		r->excludes[0] = pl.excludes[0];
		r->excludes[1] = pl.excludes[1];
		return r;
	}
	if (!r)
		return NULL;
	pthread_once(&git_once, load_git);
	if (!git.ok) {
		free(r);
		return NULL;
	}
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

bool sl_repo_by_libgit2(const sl_repo *r)
{
	return r->repo != NULL;
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

/* True when a segment of rel is ".git" (libgit2's built-in rule, which no pattern overrides). */
static bool in_git_dir(const char *rel)
{
	for (const char *s = rel; (s = strstr(s, ".git")) != NULL; s += 4)
		if ((s == rel || s[-1] == '/') && (s[4] == '\0' || s[4] == '/'))
			return true;
	return false;
}

/* libgit2 builds its ignore stack afresh for every path it is asked about (every .gitignore from
** the root down stat'ed again: ~20 000 system calls for a 2 000-file project), so it is asked
** about directories only, each once: a file is ignored when its directory is, or when
** gitignore.c's matcher finds a pattern that matches its name (from the same files, each read
** once). When an ignore file is unsafe for libgit2, the matcher answers for directories too. */
/* The real directory named [named, named + n) ("." for none), memoised: its struct dir. */
static struct dir *dir_named(sl_repo *r, const char *named, size_t n)
{
	if (r->last && strlen(r->last->named) == n && memcmp(r->last->named, named, n) == 0)
		return r->last;
	sl_strmap_slot *s = sl_strmap_get(&r->dirs, named, n);
	struct dir *d = s ? s->val : sl_xcalloc(1, sizeof *d);
	bool found;
	if (!s && d && (d->named = sl_xstrndup(named, n)) &&
	    (s = sl_strmap_put(&r->dirs, d->named, n, &found))) {
		d->real = real_beyond(d->named);
		d->ignored = -1;
		s->val = d;
	} else if (!s && d) {
		free(d->named);
		free(d);
		d = NULL;
	}
	return r->last = d;
}

/* Whether the walk's listing of real directory [dir, dir + dlen) says it holds no name. */
static bool listed_absent(void *ctx, const char *dir, size_t dlen, const char *name)
{
	return sl_walk_seen_at(ctx, dir, dlen, name) == SL_SEEN_ABSENT;
}

void sl_repo_use_seen(sl_repo *r, const sl_walk_seen *seen)
{
	r->seen = seen;
	if (r->own)
		sl_gitignore_tree_probe(r->own, listed_absent, (void *)seen);
}

bool sl_repo_ignored(sl_repo *r, const char *path, bool is_dir)
{
	return sl_repo_ignored_in(r, path, NULL, is_dir);
}

bool sl_repo_ignored_in(sl_repo *r, const char *path, const char *real_dir, bool is_dir)
{
	/* the path relative to the work tree: its directory's real path, then its name */
	const char *slash = strrchr(path, '/');
	const char *name = slash ? slash + 1 : path;
	struct dir *last = NULL;
	if (!real_dir || r->repo) {
		last = slash == path ? dir_named(r, "/", 1)
		       : slash ? dir_named(r, path, (size_t)(slash - path)) : dir_named(r, ".", 1);
		real_dir = last ? last->real : NULL;
	}
	const char *dir = real_dir;
	if (dir && r->repo && !r->unsafe && !gitignores_safe(r, dir))
		r->unsafe = true;
	/* dir relative to the work tree ("" the root), when it is in it */
	size_t dn = dir ? strlen(dir) : 0;
	const char *drel = !dir || dn + 1 < r->n || strncmp(dir, r->workdir, r->n - 1) != 0 ? NULL
			   : dn + 1 == r->n ? "" : dir[r->n - 1] == '/' ? dir + r->n : NULL;
	size_t an = drel ? strlen(drel) : 0, nn = strlen(name);
	char small[512], *rel = !drel ? NULL : an + nn + 3 <= sizeof small ? small
			      : sl_xmalloc(an + nn + 3);
	if (rel) {
		memcpy(rel, drel, an);
		if (an)
			rel[an++] = '/';
		memcpy(rel + an, name, nn);
		an += nn;
		if (is_dir && r->repo && !r->unsafe)
			rel[an++] = '/';
		rel[an] = '\0';
	}
	if (rel && !r->own && (r->own = sl_gitignore_tree_new(r->workdir,
							      (const char *const *)r->excludes, 2)) &&
	    r->seen)
		sl_gitignore_tree_probe(r->own, listed_absent, (void *)r->seen);
	bool ignored = false;
	if (!rel || !r->own) {
		ignored = false;   /* outside the work tree (or out of memory) */
	} else if (in_git_dir(rel)) {
		ignored = true;    /* libgit2's built-in rule ".git" */
	} else if (!r->repo || r->unsafe) {
		/* found without libgit2, or libgit2 would hang or backtrack on an ignore file: the
		** matcher answers */
		ignored = sl_gitignore_tree_ignored(r->own, rel, is_dir);
	} else if (is_dir || r->icase) {
		/* a walk asks about each directory once; with core.ignoreCase, about each file too
		** (the matcher compares bytes) */
		ignored = git_says(r, rel);
	} else {
		if (last->ignored < 0) {
			char *d = *drel ? sl_xprintf("%s/", drel) : NULL;
			last->ignored = d && git_says(r, d);
			free(d);
		}
		ignored = last->ignored || sl_gitignore_tree_matches(r->own, rel, false);
	}
	if (rel != small)
		free(rel);
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
