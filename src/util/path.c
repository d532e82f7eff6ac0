/* SPDX-License-Identifier: Apache-2.0
** path.c: the walk up from a directory (path.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/arena.h"
#include "util/path.h"

bool sl_path_holds(const char *dir, const char *name, bool any_type)
{
	char *p = sl_xprintf("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name);
	struct stat st;
	int rc = p ? lstat(p, &st) : -1;
	if (rc == 0 && !any_type && S_ISLNK(st.st_mode))
		rc = stat(p, &st);
	free(p);
	return rc == 0 && (any_type || !S_ISDIR(st.st_mode));
}

char *sl_path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return sl_xstrdup(".");
	while (slash > path && slash[-1] == '/')
		slash--;
	return sl_xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
}

char *sl_path_join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	bool slash = dl && dir[dl - 1] != '/';
	char *p = sl_xmalloc(dl + slash + nl + 1);
	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (slash)
		p[dl] = '/';
	memcpy(p + dl + slash, name, nl + 1);
	return p;
}

char *sl_path_find_upward(const char *start, bool (*visit)(void *ctx, const char *dir),
			  sl_path_holds_fn holds, void *ctx, bool *oom)
{
	char *dir = sl_xstrdup(start);
	if (!dir) {
		*oom = true;
		return NULL;
	}
	for (;;) {
		if (visit && visit(ctx, dir))
			return dir;
		if (holds ? holds(ctx, dir, ".git", true) : sl_path_holds(dir, ".git", true))
			break;   /* the repository root: never passed */
		char *slash = strrchr(dir, '/');
		if (!slash || strcmp(dir, "/") == 0) {
			free(dir);
			return NULL;
		}
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	if (!visit)
		return dir;
	free(dir);
	return NULL;
}

char *sl_path_reenter(const char *path, const char *cwd)
{
	size_t ups = 0;
	const char *rest = path;
	while (strncmp(rest, "../", 3) == 0 || strcmp(rest, "..") == 0) {
		ups++;
		rest += rest[2] ? 3 : 2;
	}
	/* the last ups segments of cwd, the directories the climb left */
	const char *left = cwd + strlen(cwd);
	for (size_t i = 0; i < ups && left > cwd; i++)
		while (--left > cwd && *left != '/')
			;
	if (!ups || *left != '/')
		return sl_xstrdup(path);   /* no climb, or one above / */
	/* as long as rest goes back down the way the climb came up */
	size_t back = 0;
	for (const char *seg = left + 1; back < ups && *rest; back++) {
		size_t n = strcspn(seg, "/"), r = strcspn(rest, "/");
		if (n != r || memcmp(seg, rest, n) != 0)
			break;
		seg += n + (seg[n] == '/');
		rest += r + (rest[r] == '/');
	}
	ups -= back;
	size_t len = ups * 3 + strlen(rest) + 2;
	char *out = sl_xmalloc(len), *w = out;
	if (!out)
		return NULL;
	for (size_t i = 0; i < ups; i++, w += 3)
		memcpy(w, "../", 3);
	if (*rest)
		strcpy(w, rest);
	else if (ups)
		w[-1] = '\0';   /* "../.." */
	else
		strcpy(w, ".");
	return out;
}
