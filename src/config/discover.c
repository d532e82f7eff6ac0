/* SPDX-License-Identifier: Apache-2.0
** discover.c: which config applies: the nearest .schedlint.yaml from a directory up
** (util/path.h's walk up), the config a file or directory is linted under, and the
** project's root (spec/cli.md, "The project"). */
#include "config/load.h"

static bool holds_config(void *ctx, const char *dir)
{
	(void)ctx;
	return sl_path_holds(dir, CONFIG_NAME, false);
}

/* Walks up from the real path of start_dir (util/path.h: to the repository's root): the first
** directory holding .schedlint.yaml wins. *path_out is malloc'd (relative to the working
** directory when under it). SL_ENOTFOUND when none or start_dir does not exist. */
sl_err sl_config_discover(const char *start_dir, char **path_out)
{
	if (start_dir == NULL || path_out == NULL)
		return SL_EUSAGE;
	char *real = realpath(start_dir, NULL);
	if (real == NULL)
		return errno == ENOMEM ? SL_ENOMEM :
		       errno == ENOENT || errno == ENOTDIR ? SL_ENOTFOUND : SL_EIO;
	bool oom = false;
	char *dir = sl_path_find_upward(real, holds_config, NULL, NULL, &oom);
	free(real);
	if (!dir)
		return oom ? SL_ENOMEM : SL_ENOTFOUND;
	char *p = sl_xprintf("%s%s" CONFIG_NAME, dir, strcmp(dir, "/") == 0 ? "" : "/");
	free(dir);
	*path_out = p ? sl_walk_relative(p) : NULL;
	free(p);
	return *path_out ? SL_OK : SL_ENOMEM;
}

sl_err sl_config_find(const char *config_path, const char *path, sl_config **out,
		      char **error_out)
{
	char *found = NULL, *dir = NULL;
	if (!config_path && path) {
		/* a directory stands for the files in it; a file (which need not exist) for itself */
		struct stat st;
		bool is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		char *tmp = sl_xstrdup(path);
		dir = !tmp || is_dir ? tmp : sl_xstrdup(dirname(tmp));
		if (dir != tmp)
			free(tmp);
		if (!dir)
			return SL_ENOMEM;
	}
	if (!config_path && sl_config_discover(dir && access(dir, F_OK) == 0 ? dir : ".", &found) == SL_OK)
		config_path = found;
	free(dir);
	sl_err err = config_path ? sl_config_load(config_path, out, error_out)
				 : sl_config_new_default(out);
	free(found);
	return err;
}

/* A walk up's visit for the project's root: remembers each directory holding a config, the
** outermost last, and goes on. */
static bool note_config(void *ctx, const char *dir)
{
	char **outer = ctx;
	if (sl_path_holds(dir, CONFIG_NAME, false)) {
		free(*outer);
		*outer = sl_xstrdup(dir);
	}
	return false;
}

sl_err sl_config_project_root(const char *start, char **out)
{
	*out = NULL;
	sl_err err = sl_repo_root(start, out);
	if (err != SL_ENOTFOUND)
		return err;
	bool oom = false;
	sl_path_find_upward(start, note_config, NULL, out, &oom);
	return oom ? SL_ENOMEM : *out ? SL_OK : SL_ENOTFOUND;
}

/* True when dir holds an entry name of any kind (a dangling symlink too), or when unsure; a
** directory a walk listed is answered from its listing (seen; NULL: none). */
static bool holds_any(const sl_walk_seen *seen, const char *dir, const char *name)
{
	sl_walk_seen_kind w = sl_walk_seen_at(seen, dir, strlen(dir), name);
	if (w != SL_SEEN_UNLISTED)
		return w != SL_SEEN_ABSENT;
	char *p = sl_path_join(dir, name);
	struct stat st;
	bool held = !p || lstat(p, &st) == 0 || errno != ENOENT;
	free(p);
	return held;
}

/* The device of directory dir (the one a walk listed it on, else stat's); false when it cannot
** be had. */
static bool device_of(const sl_walk_seen *seen, const char *dir, dev_t *dev)
{
	struct stat st;
	if (sl_walk_seen_dev(seen, dir, strlen(dir), dev))
		return true;
	if (stat(dir, &st) != 0)
		return false;
	*dev = st.st_dev;
	return true;
}

sl_err sl_config_project_root_memo(const char *dir, sl_strmap *memo, const sl_walk_seen *seen,
				   char **out)
{
	*out = NULL;
	sl_strmap_slot *sl = sl_strmap_get(memo, dir, strlen(dir));
	if (sl) {
		if (!sl->val)
			return SL_ENOTFOUND;
		return (*out = sl_xstrdup(sl->val)) ? SL_OK : SL_ENOMEM;
	}
	/* both walks up (the repository's, then the outermost config's) go on from dir to its
	** parent unchanged when dir holds none of what they look for and the parent is on the same
	** file system (the repository's walk stops at a boundary); a directory the run's walk
	** listed is answered from its listing: only what it holds is looked at */
	char *parent = sl_path_dir(dir);
	if (!parent)
		return SL_ENOMEM;
	dev_t dd, dp;
	sl_err err;
	if (dir[0] == '/' && strcmp(parent, dir) != 0 && !holds_any(seen, dir, ".git") &&
	    !holds_any(seen, dir, "HEAD") && !holds_any(seen, dir, CONFIG_NAME) &&
	    device_of(seen, dir, &dd) && device_of(seen, parent, &dp) && dd == dp)
		err = sl_config_project_root_memo(parent, memo, seen, out);
	else
		err = sl_config_project_root(dir, out);
	free(parent);
	if (err != SL_OK && err != SL_ENOTFOUND)
		return err;
	bool found;
	char *val = *out ? sl_xstrdup(*out) : NULL;
	if ((*out && !val) || !(sl = sl_strmap_put_copy(memo, dir, strlen(dir), &found))) {
		free(val);
		free(*out);
		*out = NULL;
		return SL_ENOMEM;
	}
	sl->val = val;
	return err;
}
