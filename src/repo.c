/* SPDX-License-Identifier: Apache-2.0
** repo.c: the git repository a path is in (repo.h), through libgit2. libgit2 is loaded with
** dlopen on first use, not linked: it and the libraries it needs (TLS, SSH, HTTP) would cost
** every run, a pre-commit hook's included, milliseconds of dynamic loading before main, and a
** run that names no file never needs it. The soname is the one the build found
** (SL_GIT2_SONAME, meson.build). */
#include <dlfcn.h>
#include <errno.h>
#include <git2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "arena.h"
#include "repo.h"

static struct {
	int (*init)(void);
	int (*shutdown)(void);
	int (*open_ext)(git_repository **, const char *, unsigned int, const char *);
	const char *(*workdir)(const git_repository *);
	void (*free)(git_repository *);
	int (*ignored)(int *, git_repository *, const char *);
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
	*(void **)&git.shutdown = dlsym(h, "git_libgit2_shutdown");
	*(void **)&git.open_ext = dlsym(h, "git_repository_open_ext");
	*(void **)&git.workdir = dlsym(h, "git_repository_workdir");
	*(void **)&git.free = dlsym(h, "git_repository_free");
	*(void **)&git.ignored = dlsym(h, "git_ignore_path_is_ignored");
	git.ok = git.init && git.shutdown && git.open_ext && git.workdir && git.free && git.ignored;
}

sl_err sl_repo_root(const char *start_dir, char **out)
{
	if (!maybe_in_repo(start_dir))
		return SL_ENOTFOUND;
	pthread_once(&git_once, load_git);
	if (!git.ok || git.init() < 0)
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
	git.shutdown();
	return err;
}

struct sl_repo {
	git_repository *repo;
	char *workdir;       /* real, with its trailing '/' */
	size_t n;
	char *last_named, *last_real;   /* the last directory asked about: a walk asks by directory */
};

/* True when start_dir or a directory above it holds .git: a directory in no repository does not
** load libgit2 (its loading and initialisation cost a run about 15 ms). */
static bool maybe_in_repo(const char *start_dir)
{
	char *dir = realpath(start_dir, NULL);
	bool found = false;
	while (dir && !found) {
		char *git_path = sl_xprintf("%s%s.git", dir, strcmp(dir, "/") ? "/" : "");
		struct stat st;
		found = git_path && lstat(git_path, &st) == 0;
		free(git_path);
		char *slash = strrchr(dir, '/');
		if (!slash || strcmp(dir, "/") == 0)
			break;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(dir);
	return found;
}

sl_repo *sl_repo_open(const char *start_dir)
{
	if (!maybe_in_repo(start_dir))
		return NULL;
	pthread_once(&git_once, load_git);
	if (!git.ok || git.init() < 0)
		return NULL;
	sl_repo *r = sl_xcalloc(1, sizeof *r);
	if (!r) {
		git.shutdown();
		return NULL;
	}
	if (git.open_ext(&r->repo, start_dir, 0, NULL) == 0 && git.workdir(r->repo)) {
		r->workdir = sl_xstrdup(git.workdir(r->repo));
		if (r->workdir) {
			r->n = strlen(r->workdir);
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
	if (!r->last_named || strcmp(r->last_named, named) != 0) {
		free(r->last_named);
		free(r->last_real);
		r->last_named = sl_xstrdup(named);
		r->last_real = real_beyond(named);
	}
	const char *dir = r->last_named ? r->last_real : NULL;
	char *full = dir ? sl_xprintf("%s%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name,
				      is_dir ? "/" : "") : NULL;
	int ignored = 0;
	if (full && strncmp(full, r->workdir, r->n) == 0 &&
	    git.ignored(&ignored, r->repo, full + r->n) != 0)
		ignored = 0;
	free(full);
	free(dup);
	return ignored == 1;
}

void sl_repo_free(sl_repo *r)
{
	if (!r)
		return;
	if (r->repo)
		git.free(r->repo);
	free(r->workdir);
	free(r->last_named);
	free(r->last_real);
	free(r);
	git.shutdown();
}
