/* SPDX-License-Identifier: Apache-2.0
** kustomize.c: Kustomize kustomizations, read for what they use as patches. A strategic-merge
** or JSON 6902 patch is a partial object (a predictor without a model, a container without an
** image): linted alone it would give findings about what the patch leaves out. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "kustomize.h"
#include "source.h"
#include "yaml_tree.h"

bool sl_kustomize_is_file(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "kustomization.yaml") == 0 || strcmp(base, "kustomization.yml") == 0 ||
	       strcmp(base, "Kustomization") == 0;
}

static void ignore_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			 const char *message)
{
	(void)payload, (void)rule, (void)doc, (void)start, (void)end, (void)message;
}

/* Appends the real path of dir/rel (when it exists) to *v. */
static sl_err add(const char *dir, size_t dlen, const sl_node *rel, char ***v, size_t *n,
		  size_t *cap)
{
	const char *r = sl_scalar(rel);
	if (!r || !*r || strchr(r, '\n'))
		return SL_OK;   /* not a path: an inline patch */
	char *joined = r[0] == '/' ? sl_xstrdup(r) : sl_xprintf("%.*s%s", (int)dlen, dir, r);
	if (!joined)
		return SL_ENOMEM;
	char *real = realpath(joined, NULL);
	free(joined);
	if (!real)
		return SL_OK;
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		char **nv = sl_xrealloc(*v, nc * sizeof *nv);
		if (!nv) {
			free(real);
			return SL_ENOMEM;
		}
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = real;
	return SL_OK;
}

sl_err sl_kustomize_patch_files(const char *path, char ***v, size_t *n, size_t *cap)
{
	sl_source *src = NULL;
	if (sl_source_read_file(path, path, &src) != SL_OK) {
		sl_source_free(src);
		return SL_OK;   /* unreadable: the walk reports it when it is an input */
	}
	sl_arena *a = sl_arena_new_sized(src->len * 8);
	sl_tree t = {0};
	sl_err err = a ? sl_tree_parse(src, a, &t, ignore_issue, NULL) : SL_ENOMEM;
	const sl_node *root = !err && t.n_docs ? t.docs[0]->root : NULL;
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	/* patches: [{path: ...}], patchesJson6902: [{path: ...}] */
	static const char *const with_path[] = {"patches", "patchesJson6902"};
	for (size_t k = 0; root && !err && k < 2; k++) {
		const sl_node *seq = sl_map_get(root, with_path[k]);
		for (size_t i = 0; !err && i < sl_seq_n(seq); i++)
			err = add(path, dlen, sl_map_get(sl_seq_item(seq, i), "path"), v, n, cap);
	}
	/* patchesStrategicMerge: [file, ...] (or inline patches, which are not paths) */
	const sl_node *psm = root ? sl_map_get(root, "patchesStrategicMerge") : NULL;
	for (size_t i = 0; !err && i < sl_seq_n(psm); i++)
		err = add(path, dlen, sl_seq_item(psm, i), v, n, cap);
	sl_arena_free(a);
	sl_source_free(src);
	return err;
}
