/* SPDX-License-Identifier: Apache-2.0
** tree.c: the tree a build's text is read into without libyaml (sl_knode_read, the one the
** passes lint) against the tree sl_tree_parse makes of that text, node by node: the same
** documents, and in each the same nodes (type, style, key flag, byte range, place, parent,
** tag, anchor, document, value). Usage: kustomize_tree [--least-read N] DIR...: every
** kustomization under the DIRs planned at once (as a run plans a tree), each root's build
** compared. Prints each build the reader declines (its text parsed instead) and a summary;
** exits 1 on any difference, or when fewer than N builds (0 unless told) were read. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "render/knode.h"
#include "render/kustomize/kustomize.h"
#include "util/arena.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"

static char **paths;
static size_t n_paths, cap_paths;

static int found(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag != FTW_F || !sl_kustomize_is_file(path))
		return 0;
	if (n_paths == cap_paths) {
		cap_paths = cap_paths ? 2 * cap_paths : 64;
		paths = realloc(paths, cap_paths * sizeof *paths);
		if (!paths)
			return 1;
	}
	return !(paths[n_paths++] = strdup(path));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *why;   /* the first difference met */
static size_t at_off;

static bool differ(const char *what, size_t off)
{
	if (!why) {
		why = what;
		at_off = off;
	}
	return false;
}

static bool same_str(const char *x, const char *y)
{
	return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

/* True when x (the parse's) and y (the reader's) are the same node, with parents px and py. */
static bool same(const sl_node *x, const sl_node *y, const sl_node *px, const sl_node *py,
		 const sl_doc *dx, const sl_doc *dy)
{
	if (!x || !y)
		return x == y || differ("a node is missing", x ? x->start : y->start);
	if (x->type != y->type || x->style != y->style || x->is_key != y->is_key)
		return differ("type, style or key flag", x->start);
	if (x->start != y->start || x->end != y->end || x->pos != y->pos)
		return differ("byte range or place", x->start);
	if (x->parent != px || y->parent != py)
		return differ("parent", x->start);
	if (!same_str(sl_node_tag(x), sl_node_tag(y)) || !same_str(sl_node_anchor(x), sl_node_anchor(y)))
		return differ("tag or anchor", x->start);
	if ((x->props && x->props->doc) != (y->props && y->props->doc) ||
	    (x->props && x->props->doc && (x->props->doc != dx || y->props->doc != dy)))
		return differ("document", x->start);
	if ((x->props && x->props->merged) || (y->props && y->props->merged))
		return differ("merged entries", x->start);
	switch (x->type) {
	case SL_NODE_SCALAR:
		if (x->u.scalar.len != y->u.scalar.len ||
		    memcmp(x->u.scalar.s, y->u.scalar.s, x->u.scalar.len) != 0 ||
		    y->u.scalar.s[y->u.scalar.len] != '\0')
			return differ("scalar value", x->start);
		return true;
	case SL_NODE_MAP:
		if (x->u.map.n != y->u.map.n)
			return differ("mapping size", x->start);
		for (size_t i = 0; i < x->u.map.n; i++)
			if (!same(x->u.map.pairs[i].key, y->u.map.pairs[i].key, x, y, dx, dy) ||
			    !same(x->u.map.pairs[i].value, y->u.map.pairs[i].value, x, y, dx, dy))
				return false;
		return true;
	case SL_NODE_SEQ:
		if (x->u.seq.n != y->u.seq.n)
			return differ("sequence size", x->start);
		for (size_t i = 0; i < x->u.seq.n; i++)
			if (!same(x->u.seq.items[i], y->u.seq.items[i], x, y, dx, dy))
				return false;
		return true;
	default:
		return differ("an alias", x->start);
	}
}

static size_t issues;

static void on_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	(void)payload, (void)rule, (void)doc, (void)start, (void)end, (void)message;
	issues++;
}

int main(int argc, char **argv)
{
	size_t least = 0;
	int first = 1;
	if (argc > 2 && strcmp(argv[1], "--least-read") == 0) {
		least = strtoul(argv[2], NULL, 10);
		first = 3;
	}
	if (first >= argc) {
		fputs("usage: kustomize_tree [--least-read N] DIR...\n", stderr);
		return 2;
	}
	for (int i = first; i < argc; i++)
		if (nftw(argv[i], found, 32, FTW_PHYS) != 0) {
			fprintf(stderr, "kustomize_tree: cannot walk %s\n", argv[i]);
			return 2;
		}
	qsort(paths, n_paths, sizeof *paths, cmp_str);
	sl_kustomize *k = NULL;
	if (sl_kustomize_plan((const char *const *)paths, n_paths, 2, &k) != SL_OK)
		return 3;
	size_t builds = 0, read = 0, bytes = 0, nodes_differ = 0;
	for (size_t i = 0; i < sl_kustomize_n_builds(k); i++) {
		const char *name, *text;
		size_t len;
		sl_kustomize_build_at(k, i, &name, &text, &len);
		sl_source *src = NULL;
		if (sl_source_from_buffer(name, text, len, &src) != SL_OK || sl_source_index(src))
			return 3;
		sl_arena *ax = sl_arena_new(), *ay = sl_arena_new();
		sl_tree tx, ty;
		bool was_read;
		issues = 0;
		if (!ax || !ay || sl_tree_parse(src, ax, &tx, on_issue, NULL) != SL_OK ||
		    sl_knode_read(src, ay, &ty, &was_read) != SL_OK)
			return 3;
		builds++;
		if (!was_read) {
			printf("declined %s (%zu bytes; the parse reported %zu issues)\n", name, len,
			       issues);
		} else {
			read++;
			bytes += len;
			why = NULL;
			bool ok = tx.n_docs == ty.n_docs && tx.n_indices == ty.n_indices;
			if (!ok)
				differ("the number of documents", 0);
			if (issues)
				ok = differ("the parse reported an issue the reader did not", 0);
			for (size_t d = 0; ok && d < tx.n_docs; d++) {
				const sl_doc *x = tx.docs[d], *y = ty.docs[d];
				ok = x->index == y->index && x->start == y->start && x->end == y->end &&
				     x->src == y->src ? same(x->root, y->root, NULL, NULL, x, y)
						      : differ("a document's index or range", x->start);
			}
			if (!ok) {
				uint32_t line, col;
				sl_source_position(src, at_off, &line, &col);
				printf("DIFFERS  %s: %s at line %u, column %u\n", name, why, line, col);
				nodes_differ++;
			}
		}
		sl_arena_free(ax);
		sl_arena_free(ay);
		sl_source_free(src);
	}
	printf("%zu builds of %zu kustomizations: %zu read (%zu bytes), %zu parsed; %zu differ\n",
	       builds, n_paths, read, bytes, builds - read, nodes_differ);
	sl_kustomize_free(k);
	for (size_t i = 0; i < n_paths; i++)
		free(paths[i]);
	free(paths);
	if (read < least)
		printf("fewer than %zu builds read\n", least);
	return nodes_differ || read < least;
}
