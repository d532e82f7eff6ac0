/* SPDX-License-Identifier: Apache-2.0
** knode.h (private): the tree Kustomize builds in: YAML nodes that remember where they came
** from (the file, and the byte range of the node there: a base's resource, a patch, a
** kustomization's own value), and the YAML text of a built tree with a table from its bytes back
** to those places. */
#ifndef SL_KNODE_H
#define SL_KNODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "util/arena.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"
#include "util/strbuf.h"

typedef struct sl_knode sl_knode;
struct sl_knode {
	uint8_t type;              /* SL_NODE_SCALAR, SL_NODE_MAP or SL_NODE_SEQ */
	bool quoted;               /* a scalar that was not plain: a string whatever its text */
	const char *s;             /* a scalar's value (NUL-terminated) */
	size_t len;
	sl_knode **k, **v;         /* a map's keys and values; a sequence's items in v */
	size_t n, cap;
	const sl_source *src;      /* where it came from (NULL: nowhere) */
	uint32_t start, end;
};

/* One emitted node: bytes [start, end) of the built text came from bytes [from, to) of src (the
** node's origin, copied: the knodes can be freed once the text is emitted). */
typedef struct sl_knode_span {
	uint32_t start, end;
	const sl_source *src;      /* NULL: nowhere */
	uint32_t from, to;
} sl_knode_span;

/* A copy of n (aliases followed, merge keys resolved) in a, with src as every node's origin.
** What aliases make is bounded as the plain parser bounds a document (yaml/yaml_tree.h): at most
** SL_MAX_ALIASES aliases followed, SL_MAX_MERGED nodes made through aliases and merge keys, and
** SL_MAX_DEPTH levels. NULL with *why (in a: "the document's aliases expand to ...") when the copy would
** cross one, NULL with *why NULL when out of memory. */
sl_knode *sl_knode_load(sl_arena *a, const sl_node *n, const sl_source *src, const char **why);
/* The nesting of n: the collections on its deepest path (a scalar: 0), counted no further than
** most + 1 (so the walk's own recursion is bounded); *nodes (when not NULL) its nodes, keys
** included, counted no further than nodes_most + 1 (0: not counted). */
size_t sl_knode_depth(const sl_knode *n, size_t most, size_t *nodes, size_t nodes_most);
/* A deep copy of n in a (origins kept). */
sl_knode *sl_knode_copy(sl_arena *a, const sl_knode *n);
/* New nodes: a scalar (its text copied), an empty map or sequence; origin given. */
sl_knode *sl_knode_scalar(sl_arena *a, const char *s, const sl_source *src, uint32_t start,
			  uint32_t end);
sl_knode *sl_knode_new(sl_arena *a, uint8_t type, const sl_source *src, uint32_t start,
		       uint32_t end);
/* A map's value for key, NULL when none (or n is not a map); *at its index. */
sl_knode *sl_knode_get(const sl_knode *n, const char *key, size_t *at);
/* The scalar text of map n's key, NULL when absent or not a scalar. */
const char *sl_knode_str(const sl_knode *n, const char *key);
/* Sets map n's key to v (replacing or appending; a new key gets v's origin); false when out of
** memory. */
bool sl_knode_set(sl_arena *a, sl_knode *n, const char *key, sl_knode *v);
/* Removes entry i of a map or sequence. */
void sl_knode_remove(sl_knode *n, size_t i);
/* Appends v to sequence n (at index at when at < n->n); false when out of memory. */
bool sl_knode_insert(sl_arena *a, sl_knode *n, size_t at, sl_knode *v);
/* The map or sequence at path ("spec", "template", ...), made where missing when make (origin:
** src, start, end); NULL when a step is not a map. */
sl_knode *sl_knode_path(sl_arena *a, sl_knode *n, const char *const *path, bool make,
			const sl_source *src, uint32_t start, uint32_t end);
/* True when n is a null scalar (null, ~, or nothing). */
bool sl_knode_is_null(const sl_knode *n);
/* Appends n, a document, as YAML text to text with its spans (*spans, *n_spans, *spans_cap);
** false when out of memory. */
bool sl_knode_emit(const sl_knode *n, sl_strbuf *text, sl_knode_span **spans, size_t *n_spans,
		   size_t *spans_cap);

/* What sl_tree_parse makes of text sl_knode_emit wrote (src: a build's whole text), made
** without libyaml into a: the same documents and nodes, with the same types, styles, values,
** byte ranges, parents and places. *read false (and *out empty; what it allocated stays in a)
** when src holds anything the reader is not sure a parse reads so: text the emitter does not
** write, a plain scalar a parse would read otherwise, a duplicate key or anything else a parse
** reports, a parser's limit. SL_ENOMEM. */
sl_err sl_knode_read(const sl_source *src, sl_arena *a, sl_tree *out, bool *read);
/* sl_knode_read, else sl_tree_parse_fixing (its issues and fixes told as that tells them). */
sl_err sl_knode_parse(const sl_source *src, sl_arena *a, sl_tree *out, sl_tree_issue_fn issue,
		      sl_tree_fix_fn fix, void *payload);

#endif
