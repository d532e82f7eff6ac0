/* SPDX-License-Identifier: Apache-2.0
** repo.c: the git repository a path is in (repo.h), through libgit2. libgit2 is loaded with
** dlopen on first use, not linked: it and the libraries it needs (TLS, SSH, HTTP) would cost
** every run, a pre-commit hook's included, milliseconds of dynamic loading before main, and a
** run that names no file never needs it. The soname is the one the build found
** (SL_GIT2_SONAME, meson.build). */
#include <dlfcn.h>
#include <git2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "repo.h"

static struct {
	int (*init)(void);
	int (*shutdown)(void);
	int (*open_ext)(git_repository **, const char *, unsigned int, const char *);
	const char *(*workdir)(const git_repository *);
	void (*free)(git_repository *);
	bool ok;
} git;
static pthread_once_t git_once = PTHREAD_ONCE_INIT;

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
	git.ok = git.init && git.shutdown && git.open_ext && git.workdir && git.free;
}

sl_err sl_repo_root(const char *start_dir, char **out)
{
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
