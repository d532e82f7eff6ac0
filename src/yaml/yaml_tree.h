/* SPDX-License-Identifier: Apache-2.0
** yaml_tree.h: the positioned YAML tree. libyaml's events become arena nodes that keep the
** byte range of their text, their parent and their place in it (so any node has a JSON
** pointer and a position). Aliases are nodes of their own that point at the anchored node:
** never expanded, so an alias bomb costs one node per alias. Generic walks must not descend
** through SL_NODE_ALIAS; the accessors below follow aliases where a value is wanted. */
#ifndef SL_YAML_TREE_H
#define SL_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "util/arena.h"
#include "schedlint/export.h"   /* SL_API: what schedlint/rule.h exports to plugins */
#include "schedlint/rule.h"     /* before the sl_map_get macro below */
#include "k8s/k8s.h"
#include "yaml/source.h"

/* Limits: crossing one ends that document with a yaml-syntax finding, never a crash. */
#define SL_MAX_DEPTH 1000                       /* nesting levels */
#define SL_MAX_ALIASES 10000                    /* alias nodes per document */
#define SL_MAX_SCALAR (16u * 1024u * 1024u)     /* bytes in one scalar */
#define SL_MAX_DOCUMENT (256u * 1024u * 1024u)  /* bytes in one document */
#define SL_MAX_MERGED 1000000u                  /* entries "<<" merge keys make, per document */

typedef enum sl_node_type { SL_NODE_SCALAR, SL_NODE_MAP, SL_NODE_SEQ, SL_NODE_ALIAS } sl_node_type;
typedef enum sl_scalar_style {
	SL_STYLE_PLAIN, SL_STYLE_SINGLE, SL_STYLE_DOUBLE, SL_STYLE_LITERAL, SL_STYLE_FOLDED
} sl_scalar_style;
/* The YAML 1.1 type a scalar resolves to, as Kubernetes' decoder (go-yaml v2) sees it. */
typedef enum sl_yaml_type { SL_Y_NULL, SL_Y_BOOL, SL_Y_INT, SL_Y_FLOAT, SL_Y_STR } sl_yaml_type;

typedef struct sl_node sl_node;
/* A node's properties, which few nodes have. */
typedef struct sl_node_props {
	const char *tag;       /* explicit tag ("tag:yaml.org,2002:str"), NULL when implicit */
	const char *anchor;    /* NULL when none */
	const struct sl_doc *doc;   /* a document root's document (sl_node_doc) */
	/* A mapping with "<<" merge keys: its entries as Kubernetes' decoder sees them
	** (sl_map_entries), NULL otherwise. */
	const struct sl_pair *merged;
	size_t n_merged;
} sl_node_props;
typedef struct sl_pair { sl_node *key, *value; } sl_pair;
struct sl_doc;

struct sl_node {
	uint8_t type;          /* sl_node_type */
	uint8_t style;         /* sl_scalar_style for scalars; 1 = flow style for collections */
	uint8_t is_key;        /* a mapping key */
	uint32_t start, end;   /* byte range of the node's own text (properties excluded) */
	uint32_t pos;          /* index in the parent: pair index or item index */
	sl_node *parent;       /* the map or sequence holding it; NULL for a document root */
	const struct sl_node_props *props;   /* tag, anchor; a root's document; NULL when none */
	union {
		struct { const char *s; size_t len; } scalar;
		struct { sl_pair *pairs; size_t n; } map;
		struct { sl_node **items; size_t n; } seq;
		struct { sl_node *target; } alias;
	} u;
};

/* n's explicit tag, or NULL. */
static inline const char *sl_node_tag(const sl_node *n)
{
	return n->props ? n->props->tag : NULL;
}
/* n's anchor, or NULL. */
static inline const char *sl_node_anchor(const sl_node *n)
{
	return n->props ? n->props->anchor : NULL;
}

/* The document n belongs to (found at its root), or NULL. */
const struct sl_doc *sl_node_doc(const sl_node *n);

typedef struct sl_doc {
	sl_node *root;           /* NULL for an empty document */
	unsigned index;          /* 0-based in its file */
	uint32_t start, end;     /* byte range */
	const sl_source *src;
} sl_doc;

/* Called for every problem found while parsing: rule is "yaml-syntax" or "duplicate-key";
** [start,end) a byte range; doc the 0-based document index it belongs to. */
typedef void (*sl_tree_issue_fn)(void *payload, const char *rule, unsigned doc,
				 size_t start, size_t end, const char *message);

/* Called right after the issue it belongs to when the parser knows a safe edit for it: insert
** text at byte offset at (for a missing "---" separator). */
typedef void (*sl_tree_fix_fn)(void *payload, size_t at, const char *text, const char *message);

typedef struct sl_tree {
	sl_doc **docs;           /* the documents that parsed, in order (arena) */
	size_t n_docs;
	unsigned n_indices;      /* documents seen, the broken ones included */
} sl_tree;

/* Makes kids[0..count) the children of collection n, as a parse does: a map's pairs (keys and
** values alternating, keys marked), a sequence's items, each with its parent and its index in
** it. False when out of memory. */
bool sl_tree_adopt(sl_arena *a, sl_node *n, sl_node **kids, size_t count);

/* Parses every document of src into arena a. Broken documents are reported through issue and
** left out; documents after a syntax error are parsed again from the next line that starts
** with "---". Returns SL_ENOMEM only; YAML problems are issues, not errors. */
sl_err sl_tree_parse(const sl_source *src, sl_arena *a, sl_tree *out,
		     sl_tree_issue_fn issue, void *payload);
/* sl_tree_parse, with fix (may be NULL) told the edits that fix some issues. */
sl_err sl_tree_parse_fixing(const sl_source *src, sl_arena *a, sl_tree *out,
			    sl_tree_issue_fn issue, sl_tree_fix_fn fix, void *payload);

/* Follows an alias to its target; other nodes (and NULL) are returned as they are. */
const sl_node *sl_node_deref(const sl_node *n);
/* The entries of a mapping as Kubernetes' decoder sees them, *n of them; NULL (and *n 0) when
** map (aliases followed) is not a mapping. Without "<<" merge keys they are its own pairs. With
** them, as sigs.k8s.io/yaml decodes (go-yaml v2, sigs.k8s.io/yaml/goyaml.v2 decode.go
** `mapping` and `merge`): the pairs are applied in document order and a later one replaces an
** earlier one with the same key; a "<<" pair applies the entries of its mapping, or of each
** mapping of its sequence from the last to the first (so earlier mappings win); the "<<" pairs
** themselves are not entries. So `<<: *base` followed by explicit keys lets the explicit keys
** win, as YAML's merge type says. Each entry is the pair where its key and value are written
** (positions point at the real nodes: a merged entry's key->parent is the mapping it came
** from, never map, which is how sl_node_owns refuses an edit through a merge). A merge of
** anything but a mapping or a sequence of mappings fails the document (a yaml-syntax finding),
** as it fails the decoder. */
const sl_pair *sl_map_entries(const sl_node *map, size_t *n);
/* Iterates the entries of a mapping (aliases followed, "<<" merge keys resolved as the decoder
** does: sl_map_entries): for (i...) over sl_map_n / sl_map_pair. */
SL_API size_t sl_map_n(const sl_node *map);
const sl_pair *sl_map_pair(const sl_node *map, size_t i);
/* Entry i's key and value (schedlint/rule.h's way to iterate, without sl_pair). */
SL_API const sl_node *sl_map_key_at(const sl_node *map, size_t i);
SL_API const sl_node *sl_map_value_at(const sl_node *map, size_t i);
/* Items of a sequence (aliases followed). */
SL_API size_t sl_seq_n(const sl_node *seq);
SL_API const sl_node *sl_seq_item(const sl_node *seq, size_t i);
/* True when sequence seq (aliases followed) holds a scalar equal to s; false for a NULL s. */
bool sl_seq_has(const sl_node *seq, const char *s);
/* True when v is mapping map's own value for its key, reached without an alias or a merge key,
** and without an anchor of its own: an edit to it changes this place only. */
bool sl_node_owns(const sl_node *map, const sl_node *v);
/* The value of key in map (aliases followed, "<<" merge keys resolved as sl_map_entries says);
** NULL when absent or when map is not a mapping. */
SL_API const sl_node *sl_map_get(const sl_node *map, const char *key);
/* sl_map_get of a key klen bytes long. */
const sl_node *sl_map_get_len(const sl_node *map, const char *key, size_t klen);
/* Within schedlint, sl_map_get is sl_map_get_len with the key's length, which the compiler
** knows for a literal key (most are): no strlen per lookup. Plugins call the function. (The
** public header, whose prototype the macro would spoil, is included above.) */
#define sl_map_get(map, key) sl_map_get_len((map), (key), strlen(key))
/* Like sl_map_get but returns the key node. */
const sl_node *sl_map_get_key(const sl_node *map, const char *key);
/* The node as a scalar string (NULL when it is not a scalar). */
SL_API const char *sl_scalar(const sl_node *n);
/* A scalar's text as the core's string view, as Go decodes it: absent, null or not a scalar
** is the empty view. */
sl_k8s_str sl_node_str(const sl_node *n);
/* True when n is a scalar equal to s. */
bool sl_scalar_is(const sl_node *n, const char *s);
/* The YAML 1.1 type of a scalar (explicit tags honoured); SL_Y_STR for non-scalars. */
sl_yaml_type sl_scalar_type(const sl_node *n);
/* The YAML 1.1 type of a plain scalar's text s (len bytes, NUL-terminated). */
sl_yaml_type sl_scalar_text_type(const char *s, size_t len);
/* Parses an integer scalar (YAML 1.1 forms); false when n is not one. */
bool sl_scalar_int(const sl_node *n, long long *out);
/* "mapping", "sequence", "string", "integer", "boolean", "null", "number". */
SL_API const char *sl_node_kind_name(const sl_node *n);
/* The RFC 6901 pointer of n in its document, written into arena a. A key node has its
** value's pointer. */
char *sl_node_pointer(const sl_node *n, sl_arena *a);
/* The key node under which n is a value (NULL for roots and sequence items). */
const sl_node *sl_node_key(const sl_node *n);
/* True when n is a scalar that resolves to YAML 1.1 true as go-yaml v2 reads it (y, yes, true,
** on in their three cases; explicit tags honoured). False for anything else, NULL included. */
bool sl_yaml_true(const sl_node *n);
/* Whether Knative sees the field whose value is v (aliases followed; NULL when absent) as set.
** Knative compares the request with the masked copy (go-cmp, knative/pkg
** `kmp.CompareSetFields`), so a pointer field (pointer_field) is set whenever it is present and
** not null, even as `false`, `0` or `{}`; a plain field is set unless it has its zero value
** (false, "", 0). An empty mapping or sequence is taken as unset: KServe's rendering drops it
** (`omitempty`), and for a Knative Service the linter gives it the benefit of the doubt. */
bool sl_node_is_set(const sl_node *v, bool pointer_field);
/* The byte range [*start,*end) in src of scalar n's content when that text is exactly its
** value: a plain scalar, or a single- or double-quoted one without escapes or folded lines
** (the range is then inside the quotes). False, outputs untouched, for anything else: a
** block scalar, an anchored or tagged node, an alias, a non-scalar, or a NULL src or n. */
bool sl_scalar_content_range(const sl_source *src, const sl_node *n, size_t *start, size_t *end);

/* A copy of doc in arena a, its text and positions as they were but with no source (doc->src
** is NULL): every scalar is copied. from: the node of doc to copy (the copy's root, the paths
** relative to it), NULL for the document's root. keep lists the paths to keep, as JSON pointers in which a
** segment `*` matches any key or item ("/spec/tolerations") and a segment `=` the mapping keys
** filter(payload, key) accepts; a kept path
** keeps its whole subtree, and the mappings and sequences on the way to it, with only the
** children something is kept in (positions and pointers inside them change). keep NULL copies everything. At most 32 paths (else SL_EUSAGE). *out is NULL
** when the copy would meet an alias or a merge key: the copy is then not made (what was
** allocated stays in a). SL_ENOMEM. */
typedef bool (*sl_copy_filter)(void *payload, const sl_node *key);
sl_err sl_tree_copy(sl_arena *a, const sl_doc *doc, const sl_node *from, const char *const *keep,
		    size_t n_keep, sl_copy_filter filter, void *payload, sl_doc **out);

#endif
