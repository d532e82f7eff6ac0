/* SPDX-License-Identifier: Apache-2.0
** yaml_tree.c: libyaml events -> positioned arena nodes.
** One pass over the events with an explicit stack (no recursion, so nesting depth is bounded
** by SL_MAX_DEPTH, not by the C stack). Children of an open collection wait on a shared stack
** and are copied into the arena when it closes; duplicate keys are found then, with a hash
** set for large mappings. A syntax error ends the current segment: the documents completed
** before it are kept, and parsing starts again at the next line that begins with "---". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "yaml/yaml_tree.h"
#include "util/strmap.h"

/* --- the builder --------------------------------------------------------------------------- */

struct frame { sl_node *node; size_t base; };

struct builder {
	const sl_source *src;
	sl_arena *a;
	sl_tree *out;
	sl_tree_issue_fn issue;
	sl_tree_fix_fn fix;
	void *payload;
	size_t seg_line;            /* line of the segment's first byte */
	size_t seg_base;            /* where libyaml's index 0 is: the segment's first byte, or
				** past the BOM it skips */
	bool ascii;                 /* the text is ASCII: a mark's index is its byte offset */
	struct frame *frames;
	size_t n_frames, cap_frames;
	sl_node **kids;
	size_t n_kids, cap_kids;
	sl_strmap anchors;            /* an anchor's name -> the newest node that defines it */
	unsigned n_aliases;
	size_t n_merged;            /* entries merge keys made in the open document */
	sl_doc *cur;                /* the open document */
	int broken;                 /* the open document hit a limit or an undefined alias */
	size_t cap_docs;
	unsigned next_index;
	size_t broken_doc_start;    /* start of the document a stopped segment was in */
	int cut_index;              /* document the cut of a truncated segment fell in, or -1 */
	sl_err err;
};

/* A mark's byte offset. libyaml's index counts characters from the segment's start (a line
** break of two bytes, CRLF, counts two): in ASCII text that is the offset itself. */
static size_t mark_off(struct builder *b, yaml_mark_t m)
{
	if (b->ascii)
		return b->seg_base + m.index < b->src->len ? b->seg_base + m.index : b->src->len;
	return sl_source_mark_offset(b->src, m.line + b->seg_line, m.column);
}

static void report(struct builder *b, const char *rule, unsigned doc, size_t start, size_t end,
		   const char *msg)
{
	if (b->issue)
		b->issue(b->payload, rule, doc, start, end, msg);
}

/* One character past off (for a visible range), or off at the end of the text. */
static size_t next_char(const sl_source *src, size_t off)
{
	if (off >= src->len)
		return off;
	unsigned char c = (unsigned char)src->data[off];
	/* an invalid lead byte (a continuation byte, C0/C1, F5..FF) is one character */
	size_t n = c < 0x80 || c < 0xC2 || c > 0xF4 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
	if (c == '\n' || c == '\r')
		return off;
	return off + n > src->len ? src->len : off + n;
}

/* Marks the open document broken with a finding at [start,end). */
static void break_doc(struct builder *b, size_t start, size_t end, const char *msg)
{
	if (b->broken)
		return;
	b->broken = 1;
	report(b, "yaml-syntax", b->cur ? b->cur->index : b->next_index, start, end, msg);
}

static int push_kid(struct builder *b, sl_node *n)
{
	if (b->n_kids == b->cap_kids) {
		size_t ncap = b->cap_kids ? b->cap_kids * 2 : 256;
		sl_node **nk = sl_xrealloc(b->kids, ncap * sizeof *nk);
		if (!nk)
			return -1;
		b->kids = nk;
		b->cap_kids = ncap;
	}
	b->kids[b->n_kids++] = n;
	return 0;
}

/* Skips "&anchor" and "!tag" properties (and the space after them) from off. */
static size_t skip_properties(const sl_source *src, size_t off, size_t end)
{
	const char *d = src->data;
	while (off < end && (d[off] == '&' || d[off] == '!')) {
		while (off < end && d[off] != ' ' && d[off] != '\t' && d[off] != '\n' && d[off] != '\r')
			off++;
		while (off < end && (d[off] == ' ' || d[off] == '\t' || d[off] == '\n' || d[off] == '\r'))
			off++;
	}
	return off;
}

/* Gives node n, made from s to e, its anchor and explicit tag (the properties, which few nodes
** have: apart from new_node, so that the common case saves no registers). NULL when out of
** memory. */
__attribute__((noinline)) static sl_node *add_properties(struct builder *b, sl_node *n, size_t s,
							 size_t e, const yaml_char_t *anchor,
							 const yaml_char_t *tag)
{
	n->start = (uint32_t)skip_properties(b->src, s, e);
	sl_node_props *pr = sl_arena_zalloc(b->a, sizeof *pr);
	if (!pr)
		return NULL;
	n->props = pr;
	if (tag && !(pr->tag = sl_arena_strndup(b->a, (const char *)tag, strlen((const char *)tag))))
		return NULL;
	if (anchor) {
		pr->anchor = sl_arena_strndup(b->a, (const char *)anchor, strlen((const char *)anchor));
		if (!pr->anchor)
			return NULL;
		bool found;
		sl_strmap_slot *slot = sl_strmap_put(&b->anchors, pr->anchor, strlen(pr->anchor), &found);
		if (!slot)
			return NULL;
		slot->val = n;   /* a redefined anchor: later aliases mean the newest */
		slot->key = pr->anchor;
	}
	return n;
}

/* A node from byte offset s (its start mark's) to end mark em, with room for `text` bytes right
** after it (a scalar's value: one allocation). Inlined into on_event with the arena's bump:
** nodes are most of what a parse makes. */
static inline __attribute__((always_inline)) sl_node *new_node(struct builder *b, sl_node_type type, size_t s, yaml_mark_t em,
			 const yaml_char_t *anchor, const yaml_char_t *tag, int implicit_tag,
			 size_t text)
{
	sl_node *n = sl_arena_alloc_inline(b->a, sizeof *n + text);
	if (!n)
		return NULL;
	size_t e = mark_off(b, em);
	/* stores, not a memset call: nodes are many */
	*n = (sl_node){.type = (uint8_t)type, .start = (uint32_t)s, .end = (uint32_t)e};
	if (anchor || (tag && !implicit_tag))
		return add_properties(b, n, s, e, anchor, implicit_tag ? NULL : tag);
	return n;
}

/* Records doc in root's properties (which sl_node_doc finds from any node of the document). */
static int set_root_doc(sl_arena *a, sl_node *root, const sl_doc *doc)
{
	sl_node_props *pr = (sl_node_props *)root->props;
	if (!pr && !(pr = sl_arena_zalloc(a, sizeof *pr)))
		return -1;
	pr->doc = doc;
	root->props = pr;
	return 0;
}

const sl_doc *sl_node_doc(const sl_node *n)
{
	if (!n)
		return NULL;
	while (n->parent)
		n = n->parent;
	return n->props ? n->props->doc : NULL;
}

static int same_key(const sl_node *x, const sl_node *y)
{
	return x->type == SL_NODE_SCALAR && y->type == SL_NODE_SCALAR &&
	       x->u.scalar.len == y->u.scalar.len &&
	       memcmp(x->u.scalar.s, y->u.scalar.s, x->u.scalar.len) == 0;
}

/* A "<<" key go-yaml merges: plain and untagged, or tagged !!merge (decode.go `isMerge`). */
static int is_merge_key(const sl_node *k)
{
	const char *tag = sl_node_tag(k);
	return k->type == SL_NODE_SCALAR && k->u.scalar.len == 2 &&
	       memcmp(k->u.scalar.s, "<<", 2) == 0 &&
	       (tag ? strcmp(tag, "tag:yaml.org,2002:merge") == 0 : k->style == SL_STYLE_PLAIN);
}

/* The entries of a mapping being resolved: one per key, in first-written order. */
struct entries {
	sl_pair *v;
	size_t n, cap;
	sl_strmap keys;     /* scalar key text -> index in v (+1) */
};

/* Applies pair p: it replaces the entry with its key, or is appended. */
static int entries_set(struct entries *e, const sl_pair *p)
{
	const sl_node *k = sl_node_deref(p->key);
	if (k && k->type == SL_NODE_SCALAR) {
		bool found;
		sl_strmap_slot *slot = sl_strmap_put(&e->keys, k->u.scalar.s, k->u.scalar.len, &found);
		if (!slot)
			return -1;
		if (found) {
			e->v[(uintptr_t)slot->val - 1] = *p;
			return 0;
		}
		slot->val = (void *)(uintptr_t)(e->n + 1);
	}
	if (e->n == e->cap) {
		size_t ncap = e->cap ? e->cap * 2 : 16;
		sl_pair *nv = sl_xrealloc(e->v, ncap * sizeof *nv);
		if (!nv)
			return -1;
		e->v = nv;
		e->cap = ncap;
	}
	e->v[e->n++] = *p;
	return 0;
}

/* Applies the entries of mapping m (already resolved: its children closed before it). */
static int entries_merge(struct entries *e, const sl_node *m)
{
	size_t n;
	const sl_pair *p = sl_map_entries(m, &n);
	for (size_t i = 0; i < n; i++)
		if (entries_set(e, &p[i]) < 0)
			return -1;
	return 0;
}

/* Resolves the "<<" merge keys of map (sl_map_entries) into its properties. 0, or -1 when out
** of memory; a merge the decoder refuses breaks the document. */
static int resolve_merges(struct builder *b, sl_node *map)
{
	size_t np = map->u.map.n;
	const sl_pair *pairs = map->u.map.pairs;
	size_t i = 0;
	while (i < np && !is_merge_key(pairs[i].key))
		i++;
	if (i == np)
		return 0;
	struct entries e = {0};
	int rc = 0;
	for (i = 0; i < np && rc == 0; i++) {
		if (!is_merge_key(pairs[i].key)) {
			rc = entries_set(&e, &pairs[i]);
			continue;
		}
		const sl_node *v = sl_node_deref(pairs[i].value);
		bool ok = v->type == SL_NODE_MAP;
		if (v->type == SL_NODE_SEQ) {
			ok = true;
			for (size_t j = 0; j < v->u.seq.n; j++)
				ok = ok && sl_node_deref(v->u.seq.items[j])->type == SL_NODE_MAP;
		}
		if (!ok) {
			const sl_node *at = pairs[i].value;
			break_doc(b, at->start, next_char(b->src, at->start),
				  "map merge requires map or sequence of maps as the value (the API server "
				  "rejects the document)");
			rc = 1;
		} else if (v->type == SL_NODE_MAP) {
			rc = entries_merge(&e, v);
		} else {
			for (size_t j = v->u.seq.n; j-- > 0 && rc == 0;)
				rc = entries_merge(&e, sl_node_deref(v->u.seq.items[j]));
		}
	}
	if (rc == 0) {
		b->n_merged += e.n;
		if (b->n_merged > SL_MAX_MERGED) {
			break_doc(b, map->start, next_char(b->src, map->start),
				  "more than 1000000 entries made by \"<<\" merge keys in one document; "
				  "schedlint does not read this document");
			rc = 1;
		}
	}
	if (rc == 0) {
		sl_node_props *pr = (sl_node_props *)map->props;
		sl_pair *v = sl_arena_alloc(b->a, (e.n ? e.n : 1) * sizeof *v);
		if (!pr && (pr = sl_arena_zalloc(b->a, sizeof *pr)))
			map->props = pr;
		if (!pr || !v) {
			rc = -1;
		} else {
			if (e.n)
				memcpy(v, e.v, e.n * sizeof *v);
			pr->merged = v;
			pr->n_merged = e.n;
		}
	}
	free(e.v);
	sl_strmap_free(&e.keys);
	return rc < 0 ? -1 : 0;
}

static void report_duplicate(struct builder *b, const sl_node *first, const sl_node *dup)
{
	uint32_t line, col;
	sl_source_position(b->src, first->start, &line, &col);
	char *msg = sl_arena_printf(b->a, "duplicate key \"%s\" (first defined at line %u, column %u); "
				    "the API server rejects it", dup->u.scalar.s, line, col);
	report(b, "duplicate-key", b->cur ? b->cur->index : 0, dup->start, dup->end,
	       msg ? msg : "duplicate key");
}

/* Where a "---" line goes before the manifest whose first key is k: the start of k's line, moved
** up over the comment lines right above it (they describe the manifest below them) that are no
** deeper than k. */
static size_t separator_at(const sl_source *src, const sl_node *k)
{
	size_t line = sl_source_line_of(src, k->start);
	size_t col = k->start - src->line_start[line];
	while (line > 0) {
		size_t s = src->line_start[line - 1], e = src->line_start[line], i = s;
		while (i < e && src->data[i] == ' ')
			i++;
		if (i >= e || src->data[i] != '#' || i - s > col)
			break;
		line--;
	}
	return src->line_start[line];
}

static int key_is(const sl_node *k, const char *s)
{
	return k->type == SL_NODE_SCALAR && k->u.scalar.len == strlen(s) &&
	       memcmp(k->u.scalar.s, s, k->u.scalar.len) == 0;
}

/* True when n's subtree holds an alias of an anchor that stands before byte at. */
static bool alias_before(const sl_node *n, size_t at)
{
	if (!n)
		return false;
	switch (n->type) {
	case SL_NODE_ALIAS:
		return n->u.alias.target && n->u.alias.target->start < at;
	case SL_NODE_MAP:
		for (size_t i = 0; i < n->u.map.n; i++)
			if (alias_before(n->u.map.pairs[i].key, at) ||
			    alias_before(n->u.map.pairs[i].value, at))
				return true;
		return false;
	case SL_NODE_SEQ:
		for (size_t i = 0; i < n->u.seq.n; i++)
			if (alias_before(n->u.seq.items[i], at))
				return true;
		return false;
	default:
		return false;
	}
}

/* True when a manifest after the first of map's (pairs from starts[1] on) names an anchor an
** earlier one defines: a "---" between them would leave the alias undefined. */
static bool aliases_cross(const sl_node *map, const size_t *starts, size_t k)
{
	const sl_pair *p = map->u.map.pairs;
	for (size_t j = 1; j < k; j++) {
		size_t end = j + 1 < k ? starts[j + 1] : map->u.map.n;
		for (size_t i = starts[j]; i < end; i++)
			if (alias_before(p[i].key, p[starts[j]].key->start) ||
			    alias_before(p[i].value, p[starts[j]].key->start))
				return true;
	}
	return false;
}

/* A document's root mapping that repeats apiVersion and kind holds two (or more) manifests run
** together: their boundaries (the first of each later apiVersion/kind pair), reported once each
** at the later apiVersion with a fix inserting "---"; *n_out is the number of manifests. Keys are
** then compared within their own manifest only, as they will be once the separators are in. */
static size_t manifest_starts(struct builder *b, const sl_node *map, size_t *starts, size_t cap)
{
	const sl_pair *p = map->u.map.pairs;
	size_t n = map->u.map.n, na = 0, nk = 0, api[64], kind[64];
	for (size_t i = 0; i < n; i++) {
		if (key_is(p[i].key, "apiVersion") && na < 64)
			api[na++] = i;
		else if (key_is(p[i].key, "kind") && nk < 64)
			kind[nk++] = i;
	}
	size_t m = na < nk ? na : nk, k = 0;
	starts[k++] = 0;
	if (map->style)
		return 1;   /* a flow mapping: "---" cannot go inside it */
	for (size_t j = 1; j < m && k < cap; j++) {
		size_t at = api[j] < kind[j] ? api[j] : kind[j];
		if (at <= starts[k - 1] || (api[j - 1] >= at || kind[j - 1] >= at))
			break;   /* not one pair per manifest: leave it to the key-by-key report */
		starts[k++] = at;
	}
	if (k < 2)
		return 1;
	bool fixable = b->fix && !aliases_cross(map, starts, k);
	for (size_t j = 1; j < k; j++) {
		const sl_node *second = p[api[j]].key;
		uint32_t line, col, bl, bc;
		sl_source_position(b->src, p[api[j - 1]].key->start, &line, &col);
		size_t at = separator_at(b->src, p[starts[j]].key);
		sl_source_position(b->src, at, &bl, &bc);
		char *msg = sl_arena_printf(b->a, "apiVersion and kind again (first at line %u): two "
					    "manifests run together; a `---` separator is probably "
					    "missing before line %u", line, bl);
		report(b, "duplicate-key", b->cur ? b->cur->index : 0, second->start, second->end,
		       msg ? msg : "a `---` separator is probably missing");
		if (fixable) {
			b->fix(b->payload, at, b->src->crlf ? "---\r\n" : "---\n",
			       "insert a `---` line before the second manifest");
		}
	}
	return k;
}

static int check_duplicates(struct builder *b, sl_node *map)
{
	size_t n = map->u.map.n;
	sl_pair *p = map->u.map.pairs;
	if (n < 2)
		return 0;
	size_t starts[64], n_starts = 1;   /* manifest_starts sets the n_starts it returns */
	starts[0] = 0;
	if (b->n_frames == 0)   /* a document's root */
		n_starts = manifest_starts(b, map, starts, 64);
	if (n <= 16 || n_starts > 1) {
		for (size_t i = 1, s = 0; i < n; i++) {
			while (s + 1 < n_starts && starts[s + 1] <= i)
				s++;
			if (p[i].key->type != SL_NODE_SCALAR || is_merge_key(p[i].key))
				continue;
			for (size_t j = starts[s]; j < i; j++) {
				if (same_key(p[j].key, p[i].key)) {
					report_duplicate(b, p[j].key, p[i].key);
					break;
				}
			}
		}
		return 0;
	}
	sl_strmap h = {0};
	for (size_t i = 0; i < n; i++) {
		const sl_node *k = p[i].key;
		if (k->type != SL_NODE_SCALAR || is_merge_key(k))
			continue;
		bool found;
		sl_strmap_slot *slot = sl_strmap_put(&h, k->u.scalar.s, k->u.scalar.len, &found);
		if (!slot) {
			sl_strmap_free(&h);
			return -1;
		}
		if (found)
			report_duplicate(b, slot->val, k);
		else
			slot->val = (void *)k;
	}
	sl_strmap_free(&h);
	return 0;
}

bool sl_tree_adopt(sl_arena *a, sl_node *n, sl_node **kids, size_t count)
{
	if (n->type == SL_NODE_MAP) {
		size_t np = count / 2;
		sl_pair *pairs = np ? sl_arena_alloc(a, np * sizeof *pairs) : NULL;
		if (np && !pairs)
			return false;
		for (size_t i = 0; i < np; i++) {
			pairs[i].key = kids[2 * i];
			pairs[i].value = kids[2 * i + 1];
			pairs[i].key->is_key = 1;
			pairs[i].key->parent = pairs[i].value->parent = n;
			pairs[i].key->pos = pairs[i].value->pos = (uint32_t)i;
		}
		n->u.map.pairs = pairs;
		n->u.map.n = np;
	} else {
		sl_node **items = count ? sl_arena_alloc(a, count * sizeof *items) : NULL;
		if (count && !items)
			return false;
		for (size_t i = 0; i < count; i++) {
			items[i] = kids[i];
			items[i]->parent = n;
			items[i]->pos = (uint32_t)i;
		}
		n->u.seq.items = items;
		n->u.seq.n = count;
	}
	return true;
}

/* Closes the innermost collection: its children move from the stack into the arena. */
static int close_collection(struct builder *b, yaml_mark_t end_mark)
{
	struct frame f = b->frames[--b->n_frames];
	sl_node *n = f.node;
	size_t count = b->n_kids - f.base;
	sl_node **kids = count ? b->kids + f.base : NULL;   /* no arithmetic on a NULL stack */
	if (!sl_tree_adopt(b->a, n, kids, count))
		return -1;
	if (n->type == SL_NODE_MAP) {
		const sl_pair *pairs = n->u.map.pairs;
		size_t np = n->u.map.n;
		for (size_t i = 0; i < np; i++) {
			const sl_node *k = sl_node_deref(pairs[i].key);
			if (k->type != SL_NODE_MAP && k->type != SL_NODE_SEQ)
				continue;
			/* Valid YAML, but no JSON object (so no Kubernetes object) has such a key:
			** PyYAML and go-yaml refuse it. Most often an unrendered "{{ template }}". */
			int tmpl = k->start > 0 && b->src->data[k->start - 1] == '{';
			break_doc(b, k->start, next_char(b->src, k->start), tmpl
				  ? "found a mapping used as a mapping key: is this an unrendered template "
				    "(\"{{ ... }}\")? Kubernetes keys must be strings"
				  : "found a collection used as a mapping key; Kubernetes keys must be strings");
			break;
		}
		if (check_duplicates(b, n) < 0 || resolve_merges(b, n) < 0)
			return -1;
	}
	if (n->style) {
		n->end = (uint32_t)mark_off(b, end_mark);
	} else if (count) {
		/* A block collection ends where its last child ends, not at the next token. */
		n->end = kids[count - 1]->end;
	}
	b->n_kids = f.base;
	return push_kid(b, n);
}

static int open_collection(struct builder *b, sl_node *n)
{
	if (b->n_frames == b->cap_frames) {
		size_t ncap = b->cap_frames ? b->cap_frames * 2 : 32;
		struct frame *nf = sl_xrealloc(b->frames, ncap * sizeof *nf);
		if (!nf)
			return -1;
		b->frames = nf;
		b->cap_frames = ncap;
	}
	b->frames[b->n_frames].node = n;
	b->frames[b->n_frames].base = b->n_kids;
	b->n_frames++;
	return 0;
}

static int push_doc(struct builder *b, sl_doc *d)
{
	if (b->out->n_docs == b->cap_docs) {
		size_t ncap = b->cap_docs ? b->cap_docs * 2 : 8;
		sl_doc **nd = sl_arena_alloc(b->a, ncap * sizeof *nd);
		if (!nd)
			return -1;
		if (b->out->n_docs)
			memcpy(nd, b->out->docs, b->out->n_docs * sizeof *nd);
		b->out->docs = nd;
		b->cap_docs = ncap;
	}
	b->out->docs[b->out->n_docs++] = d;
	return 0;
}

_Static_assert(YAML_SINGLE_QUOTED_SCALAR_STYLE - YAML_PLAIN_SCALAR_STYLE == SL_STYLE_SINGLE &&
	       YAML_DOUBLE_QUOTED_SCALAR_STYLE - YAML_PLAIN_SCALAR_STYLE == SL_STYLE_DOUBLE &&
	       YAML_LITERAL_SCALAR_STYLE - YAML_PLAIN_SCALAR_STYLE == SL_STYLE_LITERAL &&
	       YAML_FOLDED_SCALAR_STYLE - YAML_PLAIN_SCALAR_STYLE == SL_STYLE_FOLDED,
	       "libyaml's scalar styles are ours one up");

/* A scalar event of the open document, whose start mark is at byte offset at (most events). */
static inline __attribute__((always_inline)) int on_scalar(struct builder *b, yaml_event_t *e,
							   size_t at)
{
	if (e->data.scalar.length > SL_MAX_SCALAR) {
		break_doc(b, at, next_char(b->src, at), "scalar is larger than 16 MiB; schedlint "
			  "does not read this document");
		return 0;
	}
	size_t len = e->data.scalar.length;
	sl_node *n = new_node(b, SL_NODE_SCALAR, at, e->end_mark, e->data.scalar.anchor,
			      e->data.scalar.tag,
			      e->data.scalar.plain_implicit || e->data.scalar.quoted_implicit, len + 1);
	if (!n)
		return -1;
	/* libyaml's styles are ours one up (plain, single, double, literal, folded), after "any" */
	unsigned style = e->data.scalar.style;
	n->style = (uint8_t)(style > YAML_PLAIN_SCALAR_STYLE && style <= YAML_FOLDED_SCALAR_STYLE
			     ? style - YAML_PLAIN_SCALAR_STYLE : SL_STYLE_PLAIN);
	/* the value straight after the node, copied once */
	char *text = (char *)(n + 1);
	if (len)
		memcpy(text, e->data.scalar.value, len);
	text[len] = '\0';
	n->u.scalar.s = text;
	n->u.scalar.len = len;
	return push_kid(b, n);
}

/* Handles one event, whose start mark is at byte offset at; returns -1 on allocation
** failure. */
static int on_event(struct builder *b, yaml_event_t *e, size_t at)
{
	switch (e->type) {
	case YAML_DOCUMENT_START_EVENT: {
		sl_doc *d = sl_arena_zalloc(b->a, sizeof *d);
		if (!d)
			return -1;
		d->index = b->next_index++;
		d->start = (uint32_t)at;
		d->src = b->src;
		b->cur = d;
		b->broken = 0;
		b->n_aliases = 0;
		b->n_merged = 0;
		b->n_kids = b->n_frames = 0;
		sl_strmap_free(&b->anchors);
		return 0;
	}
	case YAML_DOCUMENT_END_EVENT: {
		sl_doc *d = b->cur;
		b->cur = NULL;
		if (!d || b->broken)
			return 0;
		d->end = (uint32_t)mark_off(b, e->end_mark);
		sl_node *root = b->n_kids ? b->kids[b->n_kids - 1] : NULL;
		if (root && root->type == SL_NODE_SCALAR && root->style == SL_STYLE_PLAIN &&
		    root->u.scalar.len == 0 && !root->props)
			root = NULL;
		if (root && set_root_doc(b->a, root, d) != 0)
			return -1;
		d->root = root;
		b->n_kids = 0;
		return push_doc(b, d);
	}
	default:
		break;
	}
	if (b->broken || !b->cur)
		return 0;
	if (at - b->cur->start > SL_MAX_DOCUMENT) {
		break_doc(b, at, next_char(b->src, at), "document is larger than 256 MiB; schedlint "
			  "does not read further into it");
		return 0;
	}
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return on_scalar(b, e, at);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int map = e->type == YAML_MAPPING_START_EVENT;
		if (b->n_frames >= SL_MAX_DEPTH) {
			break_doc(b, at, next_char(b->src, at), "nesting is deeper than 1000 levels; "
				  "schedlint does not read this document");
			return 0;
		}
		sl_node *n = map ? new_node(b, SL_NODE_MAP, at, e->end_mark,
					    e->data.mapping_start.anchor, e->data.mapping_start.tag,
					    e->data.mapping_start.implicit, 0)
				 : new_node(b, SL_NODE_SEQ, at, e->end_mark,
					    e->data.sequence_start.anchor, e->data.sequence_start.tag,
					    e->data.sequence_start.implicit, 0);
		if (!n)
			return -1;
		n->style = map ? e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
			       : e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
		return open_collection(b, n);
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->n_frames == 0)
			return 0;
		return close_collection(b, e->end_mark);
	case YAML_ALIAS_EVENT: {
		size_t s = at, en = mark_off(b, e->end_mark);
		const char *name = (const char *)e->data.alias.anchor;
		const sl_strmap_slot *slot = sl_strmap_get(&b->anchors, name, strlen(name));
		if (!slot) {
			char *msg = sl_arena_printf(b->a, "found undefined alias \"%s\"", name);
			break_doc(b, s, en, msg ? msg : "found undefined alias");
			return 0;
		}
		if (++b->n_aliases > SL_MAX_ALIASES) {
			break_doc(b, s, en, "more than 10000 aliases in one document; schedlint does "
				  "not read this document");
			return 0;
		}
		sl_node *n = sl_arena_zalloc(b->a, sizeof *n);
		if (!n)
			return -1;
		n->type = SL_NODE_ALIAS;
		n->start = (uint32_t)s;
		n->end = (uint32_t)en;
		n->u.alias.target = slot->val;
		return push_kid(b, n);
	}
	default:
		return 0;
	}
}

/* libyaml's allocator, which yaml_event_delete frees an event's strings with: exported by
** libyaml (its yaml_private.h declares it), and replaced in the program (cli/libyaml_heap.c). */
void yaml_free(void *ptr);

/* A scalar event's strings freed. */
static inline void scalar_delete(yaml_event_t *e)
{
	yaml_free(e->data.scalar.value);
	if (e->data.scalar.anchor)
		yaml_free(e->data.scalar.anchor);
	if (e->data.scalar.tag)
		yaml_free(e->data.scalar.tag);
}

/* yaml_event_delete without its calls for absent strings and its clearing of the event, which
** is not read again: for the events that hold at most an anchor, a tag and a value (nearly all).
** A document start (directives) and an alias go to libyaml's own. */
static void event_delete(yaml_event_t *e)
{
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		scalar_delete(e);
		return;
	case YAML_SEQUENCE_START_EVENT:
		if (e->data.sequence_start.anchor)
			yaml_free(e->data.sequence_start.anchor);
		if (e->data.sequence_start.tag)
			yaml_free(e->data.sequence_start.tag);
		return;
	case YAML_MAPPING_START_EVENT:
		if (e->data.mapping_start.anchor)
			yaml_free(e->data.mapping_start.anchor);
		if (e->data.mapping_start.tag)
			yaml_free(e->data.mapping_start.tag);
		return;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
		return;   /* nothing allocated */
	default:
		yaml_event_delete(e);
	}
}

/* The first line from `line` on that starts a document ("---" then a blank or the end). */
static int next_document_line(const sl_source *src, size_t line, size_t *out)
{
	for (size_t l = line; l < src->n_lines; l++) {
		const char *p = src->data + src->line_start[l];
		size_t rest = src->len - src->line_start[l];
		if (rest >= 3 && p[0] == '-' && p[1] == '-' && p[2] == '-' &&
		    (rest == 3 || p[3] == ' ' || p[3] == '\t' || p[3] == '\n' || p[3] == '\r')) {
			*out = l;
			return 1;
		}
	}
	return 0;
}

/* The first invalid byte at or after from: its offset, or src->len when there is none. */
static size_t find_bad(const sl_source *src, size_t from, const char **what)
{
	if (!src->bad_what)
		return src->len;
	if (src->bad_offset >= from) {
		*what = src->bad_what;
		return src->bad_offset;
	}
	sl_source *tmp = NULL;
	/* Rare: several bad bytes. Re-index the rest of the text to find the next one. */
	if (sl_source_from_buffer("", src->data + from, src->len - from, &tmp) != SL_OK)
		return src->len;
	size_t r = src->len;
	if (tmp->bad_what) {
		*what = tmp->bad_what;
		r = from + tmp->bad_offset;
	}
	sl_source_free(tmp);
	return r;
}

/* True when line l starts a document ("---" then a blank or the end). */
static int is_document_line(const sl_source *src, size_t l)
{
	if (l >= src->n_lines)
		return 0;
	const char *p = src->data + src->line_start[l];
	size_t rest = src->len - src->line_start[l];
	return rest >= 3 && p[0] == '-' && p[1] == '-' && p[2] == '-' &&
	       (rest == 3 || p[3] == ' ' || p[3] == '\t' || p[3] == '\n' || p[3] == '\r');
}

/* True when the lines before the text's first "---" line hold more than blanks and comments:
** a document of their own, as leave_unread's excerpts count them. */
static bool leading_content(const sl_source *src)
{
	size_t l = 0;
	while (l < src->n_lines && !is_document_line(src, l))
		l++;
	return sl_source_text_holds_content(src->data, l < src->n_lines ? src->line_start[l]
							     : src->len);
}

/* The index of what a syntax error at off, outside any open document, broke: the document
** before it when no "---" line came between (text after a document's root without a marker is
** that document's, as a reader that splits a stream at its "---" lines counts them, and as
** leave_unread's excerpts do), else a new one. docs_before: this segment's first document. */
static unsigned broken_index(struct builder *b, size_t docs_before, size_t off)
{
	if (b->out->n_docs > docs_before) {
		const sl_doc *d = b->out->docs[b->out->n_docs - 1];
		size_t l = sl_source_line_of(b->src, d->end), last = sl_source_line_of(b->src, off);
		while (l <= last && !is_document_line(b->src, l))
			l++;
		if (l > last)
			return d->index;
	}
	return b->next_index++;
}

/* Parses the segment starting at line `line` up to byte `limit`. Returns -1 on allocation
** failure, 0 at the end of the segment; *err_off is set when a syntax error, or a limit that
** broke the open document, stopped it (the rest of that document is not worth parsing: deep
** flow nesting makes every further token cost more). When truncated (limit is where a bad byte's
** line starts) an error at the cut is not reported: the bad byte is, by the caller. */
static int parse_segment(struct builder *b, size_t line, size_t limit, int truncated,
			 size_t *err_off)
{
	size_t base = line == 0 ? 0 : b->src->line_start[line];
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return -1;
	yaml_parser_set_input_string(&p, (const unsigned char *)b->src->data + base, limit - base);
	/* Encoding left to libyaml: it then skips a UTF-8 BOM without counting it as a column. */
	b->seg_line = line;
	b->seg_base = line == 0 ? b->src->bom : base;
	b->ascii = b->src->ascii;
	b->cur = NULL;
	b->n_kids = b->n_frames = 0;
	size_t docs_before = b->out->n_docs;
	int rc = 0;
	*err_off = (size_t)-1;
	b->cut_index = -1;
	for (;;) {
		yaml_event_t e;
		if (!yaml_parser_parse(&p, &e)) {
			size_t off;
			if (p.error == YAML_MEMORY_ERROR) {
				rc = -1;
				break;
			}
			if (p.error == YAML_READER_ERROR)
				off = base + p.problem_offset;
			else
				off = mark_off(b, p.problem_mark);
			b->broken_doc_start = b->cur ? b->cur->start : off;
			if (truncated && off >= limit) {
				/* the parser ran into the cut: the bad byte is the real problem */
				b->cut_index = (int)(b->cur ? b->cur->index : b->next_index++);
				b->cur = NULL;
				*err_off = off;
				break;
			}
			char ctx[160] = "";
			if (p.context) {
				uint32_t cl, cc;
				sl_source_position(b->src, mark_off(b, p.context_mark), &cl, &cc);
				snprintf(ctx, sizeof ctx, " %s that started at line %u, column %u",
					 p.context, cl, cc);
			}
			char *msg = sl_arena_printf(b->a, "%s%s", p.problem ? p.problem : "syntax error",
						    ctx);
			unsigned idx = b->cur ? b->cur->index : broken_index(b, docs_before, off);
			report(b, "yaml-syntax", idx, off, next_char(b->src, off),
			       msg ? msg : "syntax error");
			b->cur = NULL;
			*err_off = off;
			break;
		}
		int type = e.type;
		size_t at = mark_off(b, e.start_mark);
		int r;
		if (type == YAML_SCALAR_EVENT && b->cur && !b->broken &&
		    at - b->cur->start <= SL_MAX_DOCUMENT) {
			/* most events: a scalar of the open document, its strings freed here */
			r = on_scalar(b, &e, at);
			scalar_delete(&e);
		} else {
			r = on_event(b, &e, at);
			event_delete(&e);
		}
		if (r < 0) {
			rc = -1;
			break;
		}
		if (b->broken && b->cur) {
			/* A limit or an undefined alias broke this document: stop here. */
			b->broken_doc_start = b->cur->start;
			b->cur = NULL;
			*err_off = at;
			break;
		}
		if (type == YAML_STREAM_END_EVENT)
			break;
	}
	yaml_parser_delete(&p);
	if (rc == 0 && truncated && *err_off == (size_t)-1 && b->out->n_docs > docs_before &&
	    !is_document_line(b->src, sl_source_line_of(b->src, limit))) {
		/* The last document ran into the bad byte: it is not whole. (When the bad byte's
		** line starts a new document, the one before it ended properly.) */
		b->out->n_docs--;
		b->cut_index = (int)(b->next_index - 1);   /* the broken document keeps its index */
	}
	return rc;
}

sl_err sl_tree_parse(const sl_source *src, sl_arena *a, sl_tree *out, sl_tree_issue_fn issue,
		     void *payload)
{
	return sl_tree_parse_fixing(src, a, out, issue, NULL, payload);
}

sl_err sl_tree_parse_fixing(const sl_source *src, sl_arena *a, sl_tree *out,
			    sl_tree_issue_fn issue, sl_tree_fix_fn fix, void *payload)
{
	struct builder b = {.src = src, .a = a, .out = out, .issue = issue, .fix = fix,
			    .payload = payload};
	out->docs = NULL;
	out->n_docs = 0;
	if (src->utf16) {
		report(&b, "yaml-syntax", 0, 0, 0, "the file is UTF-16; Kubernetes manifests "
		       "are read as UTF-8");
		out->n_indices = 1;
		return SL_OK;
	}
	size_t line = 0;
	sl_err err = SL_OK;
	for (;;) {
		size_t start = line == 0 ? 0 : src->line_start[line];
		const char *what = NULL;
		size_t bad = find_bad(src, start, &what);
		size_t limit = src->len;
		if (bad < src->len)
			limit = src->line_start[sl_source_line_of(src, bad)];
		size_t err_off;
		if (parse_segment(&b, line, limit, bad < src->len, &err_off) < 0) {
			err = SL_ENOMEM;
			break;
		}
		size_t stop;
		size_t from;
		if (err_off != (size_t)-1 && b.cut_index < 0) {
			stop = err_off;
			/* Resume at a "---" line at or after the problem; when the broken document
			** began on the problem's line, after that line. */
			from = sl_source_line_of(src, stop);
			if (sl_source_line_of(src, b.broken_doc_start) == from)
				from++;
		} else if (bad < src->len) {
			unsigned idx = b.cut_index >= 0 ? (unsigned)b.cut_index
				: b.next_index > 0 || leading_content(src) ? b.next_index++
				: 0;   /* in comments before the first "---": no document of its own */
			report(&b, "yaml-syntax", idx, bad, next_char(src, bad), what);
			stop = bad;
			from = sl_source_line_of(src, stop) + 1;
		} else {
			break;
		}
		/* never the segment's own first line again: an error there would repeat for ever */
		if (from <= line)
			from = line + 1;
		if (!next_document_line(src, from, &line))
			break;
	}
	out->n_indices = b.next_index;
	free(b.frames);
	free(b.kids);
	sl_strmap_free(&b.anchors);
	return err;
}

/* --- accessors ----------------------------------------------------------------------------- */

const sl_node *sl_node_deref(const sl_node *n)
{
	return n && n->type == SL_NODE_ALIAS ? n->u.alias.target : n;
}

const sl_pair *sl_map_entries(const sl_node *map, size_t *n)
{
	map = sl_node_deref(map);
	if (!map || map->type != SL_NODE_MAP) {
		*n = 0;
		return NULL;
	}
	if (map->props && map->props->merged) {
		*n = map->props->n_merged;
		return map->props->merged;
	}
	*n = map->u.map.n;
	return map->u.map.pairs;
}

/* The entry of key (klen bytes) in map. Keys are short and most differ in length from the one
** looked for: the length is compared first (a node of another type has a length there too:
** its fields share the place, zero or a count), memcmp only for a likely match. */
static const sl_pair *map_find(const sl_node *map, const char *key, size_t klen)
{
	size_t n;
	const sl_pair *p = sl_map_entries(map, &n);
	for (size_t i = 0; i < n; i++) {
		const sl_node *k = p[i].key;
		if (k->u.scalar.len == klen && k->type == SL_NODE_SCALAR &&
		    memcmp(k->u.scalar.s, key, klen) == 0)
			return &p[i];
	}
	return NULL;
}

const sl_node *sl_map_get_len(const sl_node *map, const char *key, size_t klen)
{
	const sl_pair *p = map_find(map, key, klen);
	return p ? sl_node_deref(p->value) : NULL;
}

const sl_node *(sl_map_get)(const sl_node *map, const char *key)
{
	return sl_map_get_len(map, key, strlen(key));
}

const sl_node *sl_map_get_key(const sl_node *map, const char *key)
{
	const sl_pair *p = map_find(map, key, strlen(key));
	return p ? p->key : NULL;
}

const char *sl_scalar(const sl_node *n)
{
	n = sl_node_deref(n);
	return n && n->type == SL_NODE_SCALAR ? n->u.scalar.s : NULL;
}

bool sl_scalar_is(const sl_node *n, const char *s)
{
	const char *v = sl_scalar(n);
	return v && strcmp(v, s) == 0;
}

static int in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if ((*list)[0] == s[0] && strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static const char *const null_words[] = {"", "~", "null", "Null", "NULL", NULL};
static const char *const bool_words[] = {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
	"true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF", NULL};
static const char *const float_words[] = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
	"-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN", NULL};

/* Parses s as a Go ParseInt(base 0) integer after removing '_' (go-yaml v2's int rule). */
static bool parse_yaml_int(const char *s, long long *out)
{
	char buf[72];
	size_t n = 0;
	for (const char *p = s; *p; p++) {
		if (*p == '_')
			continue;
		if (n + 1 >= sizeof buf)
			return false;
		buf[n++] = *p;
	}
	buf[n] = '\0';
	const char *p = buf;
	int neg = 0;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16; p += 2;
	} else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O')) {
		base = 8; p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2; p += 2;
	} else if (p[0] == '0' && p[1]) {
		base = 8; p += 1;
	}
	if (!*p)
		return false;
	unsigned long long v = 0;
	for (; *p; p++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return false;
		if (d >= base)
			return false;
		if (v > (~0ull - (unsigned)d) / (unsigned)base)
			return false;
		v = v * (unsigned)base + (unsigned)d;
	}
	if (v > (unsigned long long)9223372036854775807ll + (unsigned long long)neg) {
		/* go-yaml v2 reads 2^63..2^64-1 as an unsigned integer: still an integer */
		if (neg)
			return false;
		*out = 9223372036854775807ll;
		return true;
	}
	*out = neg ? (long long)(0 - v) : (long long)v;
	return true;
}

/* go-yaml v2's float rule: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool is_yaml_float(const char *raw)
{
	if (in_list(raw, float_words))
		return true;
	/* go-yaml v2 removes '_' before matching */
	char s[72];
	size_t n = 0;
	for (const char *q = raw; *q; q++) {
		if (*q == '_')
			continue;
		if (n + 1 >= sizeof s)
			return false;
		s[n++] = *q;
	}
	s[n] = '\0';
	const char *p = s;
	if (*p == '+' || *p == '-')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9')
				p++;
		}
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

sl_yaml_type sl_scalar_type(const sl_node *n)
{
	n = sl_node_deref(n);
	if (!n || n->type != SL_NODE_SCALAR)
		return SL_Y_STR;
	if (sl_node_tag(n)) {
		const char *t = sl_node_tag(n);
		if (strcmp(t, "tag:yaml.org,2002:str") == 0)
			return SL_Y_STR;
		if (strcmp(t, "tag:yaml.org,2002:int") == 0)
			return SL_Y_INT;
		if (strcmp(t, "tag:yaml.org,2002:bool") == 0)
			return SL_Y_BOOL;
		if (strcmp(t, "tag:yaml.org,2002:float") == 0)
			return SL_Y_FLOAT;
		if (strcmp(t, "tag:yaml.org,2002:null") == 0)
			return SL_Y_NULL;
	}
	if (n->style != SL_STYLE_PLAIN)
		return SL_Y_STR;
	return sl_scalar_text_type(n->u.scalar.s, n->u.scalar.len);
}

sl_yaml_type sl_scalar_text_type(const char *s, size_t len)
{
	/* Most plain scalars are names and words: only these first characters can begin a null,
	** a boolean or a number, so everything else is a string without a single strcmp. */
	switch (s[0]) {
	case '\0': case '~': case 'n': case 'N': case 'y': case 'Y': case 't': case 'T': case 'f':
	case 'F': case 'o': case 'O': case '+': case '-': case '.':
	case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8':
	case '9':
		break;
	default:
		return SL_Y_STR;
	}
	if (len > 5 && s[0] != '+' && s[0] != '-' && s[0] != '.' &&
	    (s[0] < '0' || s[0] > '9'))
		return SL_Y_STR;   /* longer than any null or boolean word, and not a number */
	char c = s[0];
	if (c >= '0' && c <= '9') {
		/* Most that starts with a digit is a decimal (a port, a count) or a quantity ("4Gi",
		** "100m"): a decimal of up to 18 digits, without the leading 0 of an octal, is an int
		** (it cannot overflow), and a byte after the leading digits that no int or float
		** holds makes a string; the rest is read by the rules below. */
		size_t i = 1;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			i++;
		if (i == len && (c != '0' || len == 1) && len <= 18)
			return SL_Y_INT;
		char d = i < len ? s[i] : '\0';
		if (d && !((d >= 'a' && d <= 'f') || (d >= 'A' && d <= 'F') || d == 'x' || d == 'X' ||
			   d == 'o' || d == 'O' || d == '.' || d == '_' || d == '+' || d == '-'))
			return SL_Y_STR;
	}
	bool numeric = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.';
	if (!numeric && in_list(s, null_words))   /* no null or boolean word starts like a number */
		return SL_Y_NULL;
	if (!numeric && in_list(s, bool_words))
		return SL_Y_BOOL;
	if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') {
		long long v;
		if (parse_yaml_int(s, &v))
			return SL_Y_INT;
		if (is_yaml_float(s))
			return SL_Y_FLOAT;
	}
	return SL_Y_STR;
}

bool sl_scalar_int(const sl_node *n, long long *out)
{
	n = sl_node_deref(n);
	if (!n || n->type != SL_NODE_SCALAR || sl_scalar_type(n) != SL_Y_INT)
		return false;
	return parse_yaml_int(n->u.scalar.s, out);
}

const char *sl_node_kind_name(const sl_node *n)
{
	n = sl_node_deref(n);
	if (!n)
		return "null";
	switch (n->type) {
	case SL_NODE_MAP: return "mapping";
	case SL_NODE_SEQ: return "sequence";
	default: break;
	}
	switch (sl_scalar_type(n)) {
	case SL_Y_NULL: return "null";
	case SL_Y_BOOL: return "boolean";
	case SL_Y_INT: return "integer";
	case SL_Y_FLOAT: return "number";
	default: return "string";
	}
}

const sl_node *sl_node_key(const sl_node *n)
{
	if (!n || !n->parent || n->parent->type != SL_NODE_MAP)
		return NULL;
	return n->parent->u.map.pairs[n->pos].key;
}

char *sl_node_pointer(const sl_node *n, sl_arena *a)
{
	/* Collect the path from n up to the root, then write it forwards. */
	size_t depth = 0, len = 0;
	for (const sl_node *p = n; p && p->parent; p = p->parent) {
		depth++;
		if (p->parent->type == SL_NODE_MAP) {
			const sl_node *k = p->parent->u.map.pairs[p->pos].key;
			const char *s = k->type == SL_NODE_SCALAR ? k->u.scalar.s : "";
			len += 1;
			for (; *s; s++)
				len += (*s == '~' || *s == '/') ? 2 : 1;
		} else {
			len += 12;
		}
	}
	char *out = sl_arena_alloc(a, len + 1);
	if (!out)
		return NULL;
	const sl_node **chain = sl_xmalloc((depth ? depth : 1) * sizeof *chain);
	if (!chain)
		return NULL;
	size_t i = depth;
	for (const sl_node *p = n; p && p->parent; p = p->parent)
		chain[--i] = p;
	char *w = out;
	for (i = 0; i < depth; i++) {
		const sl_node *p = chain[i];
		*w++ = '/';
		if (p->parent->type == SL_NODE_MAP) {
			const sl_node *k = p->parent->u.map.pairs[p->pos].key;
			const char *s = k->type == SL_NODE_SCALAR ? k->u.scalar.s : "";
			for (; *s; s++) {
				if (*s == '~') {
					*w++ = '~'; *w++ = '0';
				} else if (*s == '/') {
					*w++ = '~'; *w++ = '1';
				} else {
					*w++ = *s;
				}
			}
		} else {
			w += sprintf(w, "%u", p->pos);
		}
	}
	*w = '\0';
	free(chain);
	return out;
}

static const char *const true_words[] = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
	"on", "On", "ON", NULL};

/* A YAML 1.1 true: a scalar of boolean type spelled as one of true_words. */
bool sl_yaml_true(const sl_node *n)
{
	const char *s = sl_scalar(n);
	return s && sl_scalar_type(n) == SL_Y_BOOL && in_list(s, true_words);
}

static bool ieq(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* Knative's notion of a set field; see the header for the rules. */
bool sl_node_is_set(const sl_node *v, bool pointer_field)
{
	v = sl_node_deref(v);
	if (!v)
		return false;
	if (v->type == SL_NODE_MAP)
		return pointer_field || v->u.map.n > 0;
	if (v->type == SL_NODE_SEQ)
		return v->u.seq.n > 0;
	if (v->type != SL_NODE_SCALAR)
		return false;
	sl_yaml_type t = sl_scalar_type(v);
	const char *s = sl_scalar(v);
	if (t == SL_Y_NULL || !s)
		return false;
	if (pointer_field)
		return true;
	if (!*s)
		return false;
	if (t == SL_Y_BOOL)
		return !(ieq(s, "false") || ieq(s, "no") || ieq(s, "off") || ieq(s, "n"));
	long long i;
	if (t == SL_Y_INT && sl_scalar_int(v, &i))
		return i != 0;
	return true;
}

/* The content range of a scalar whose source text is exactly its value (quotes stripped). */
bool sl_scalar_content_range(const sl_source *src, const sl_node *n, size_t *start, size_t *end)
{
	if (!src || !n || n->type != SL_NODE_SCALAR || sl_node_tag(n) || sl_node_anchor(n))
		return false;
	size_t a = n->start, b = n->end;
	if (n->style == SL_STYLE_SINGLE || n->style == SL_STYLE_DOUBLE) {
		if (b - a < 2)
			return false;
		a++;
		b--;
	} else if (n->style != SL_STYLE_PLAIN) {
		return false;
	}
	if (b > src->len || a > b || b - a != n->u.scalar.len ||
	    memcmp(src->data + a, n->u.scalar.s, b - a) != 0)
		return false;
	*start = a;
	*end = b;
	return true;
}

/* --- pruned copies ---------------------------------------------------------------------- */

struct copier {
	sl_arena *a;
	sl_doc *doc;
	const char *const *keep;
	size_t n_keep;
	sl_copy_filter filter;
	void *payload;
	bool alias;   /* the copy met an alias or a merge key */
};

/* Where pattern p continues after the segment that starts at p[at] when that segment matches
** the step (a key, or for a sequence item key == NULL and `*`): the offset of the next segment,
** strlen(p) when the pattern ends there, or -1 when it does not match. */
static long follow(const struct copier *c, const char *p, long at, const sl_node *key)
{
	if (p[at] != '/')
		return -1;
	const char *seg = p + at + 1;
	/* most keys differ from the segment in their first byte (a digest's ~30 patterns meet
	** every key on their way) */
	char f = seg[0];
	if (f != '*' && f != '=' && f != '/' && f != '\0' &&
	    !(key && key->u.scalar.len && key->u.scalar.s[0] == f))
		return -1;
	size_t slen = 0;
	while (seg[slen] && seg[slen] != '/')
		slen++;
	long next = (long)(seg - p) + (long)slen;
	if (slen == 1 && seg[0] == '*')
		return next;
	if (slen == 1 && seg[0] == '=')
		return key && c->filter && c->filter(c->payload, key) ? next : -1;
	if (!(key && slen == key->u.scalar.len && memcmp(seg, key->u.scalar.s, slen) == 0))
		return -1;
	return next;
}

/* How far each pattern gets past the step to a child (key for a mapping value, NULL for a
** sequence item) from at (in sub); true when one gets somewhere. all: n is kept whole. */
static bool step(const struct copier *c, const long *at, bool all, const sl_node *key, long *sub)
{
	bool wanted = all;
	for (size_t i = 0; i < c->n_keep; i++) {
		sub[i] = -1;
		if (all)
			sub[i] = (long)strlen(c->keep[i]);   /* everything below is kept */
		else if (at[i] >= 0 && !(key && key->type != SL_NODE_SCALAR))
			sub[i] = follow(c, c->keep[i], at[i], key);
		wanted |= sub[i] >= 0;
	}
	return wanted;
}

static bool whole(const struct copier *c, const long *at)
{
	for (size_t i = 0; i < c->n_keep; i++)
		if (at[i] >= 0 && c->keep[i][at[i]] == '\0')
			return true;
	return false;
}

/* True when copying n from at keeps something: a pattern ends at or below it. An alias or a
** merge key counts (the copy then stops there). */
static bool keeps_any(const struct copier *c, const sl_node *n, const long *at)
{
	if (whole(c, at) || n->type == SL_NODE_ALIAS)
		return true;
	if (n->type == SL_NODE_SCALAR)
		return false;
	long sub[32];
	size_t count = n->type == SL_NODE_MAP ? n->u.map.n : n->u.seq.n;
	for (size_t k = 0; k < count; k++) {
		const sl_node *key = n->type == SL_NODE_MAP ? n->u.map.pairs[k].key : NULL;
		const sl_node *val = n->type == SL_NODE_MAP ? n->u.map.pairs[k].value : n->u.seq.items[k];
		if (key && is_merge_key(key))
			return true;
		if (step(c, at, false, key, sub) && keeps_any(c, val, sub))
			return true;
	}
	return false;
}

/* Copies n (and what the active patterns keep below it) under parent. at[i] is how far
** pattern i has matched; -1 inactive. A pattern matched to its end keeps the whole subtree;
** a mapping or sequence on the way keeps only the children something is kept in.
** An alias, or a merge key (which would bring in keys the patterns cannot see), stops the
** copy: c->alias is set. SL_ENOMEM. */
static sl_err copy_node(struct copier *c, const sl_node *n, sl_node *parent, const long *at,
			sl_node **out)
{
	*out = NULL;
	if (n->type == SL_NODE_ALIAS) {
		c->alias = true;
		return SL_OK;
	}
	bool all = whole(c, at);
	sl_node *m = sl_arena_alloc(c->a, sizeof *m);
	if (!m)
		return SL_ENOMEM;
	*m = *n;
	m->parent = parent;
	m->props = NULL;   /* its anchor: nothing in a copy refers to it */
	const char *tag = sl_node_tag(n);
	if (tag || !parent) {   /* a tag, or the copy's root (which names its document) */
		sl_node_props *pr = sl_arena_zalloc(c->a, sizeof *pr);
		if (!pr || (tag && !(pr->tag = sl_arena_strndup(c->a, tag, strlen(tag)))))
			return SL_ENOMEM;
		pr->doc = parent ? NULL : c->doc;
		m->props = pr;
	}
	*out = m;
	if (n->type == SL_NODE_SCALAR) {
		char *s = sl_arena_strndup(c->a, n->u.scalar.s, n->u.scalar.len);
		if (!s)
			return SL_ENOMEM;
		m->u.scalar.s = s;
		return SL_OK;
	}
	long sub[32];
	bool is_map = n->type == SL_NODE_MAP;
	size_t count = is_map ? n->u.map.n : n->u.seq.n, n_kept = 0, kept = 0;
	/* the children to keep: counted first, so the array is no bigger than they need */
	for (size_t k = 0; k < count; k++) {
		const sl_node *key = is_map ? n->u.map.pairs[k].key : NULL;
		const sl_node *val = is_map ? n->u.map.pairs[k].value : n->u.seq.items[k];
		if (key && is_merge_key(key)) {
			c->alias = true;
			return SL_OK;
		}
		n_kept += all || (step(c, at, all, key, sub) && keeps_any(c, val, sub));
	}
	void *arr = n_kept ? sl_arena_alloc(c->a, n_kept * (is_map ? sizeof(sl_pair)
								   : sizeof(sl_node *)))
			   : NULL;
	if (n_kept && !arr)
		return SL_ENOMEM;
	for (size_t k = 0; k < count && kept < n_kept; k++) {
		const sl_node *key = is_map ? n->u.map.pairs[k].key : NULL;
		const sl_node *val = is_map ? n->u.map.pairs[k].value : n->u.seq.items[k];
		if (!step(c, at, all, key, sub) || !(all || keeps_any(c, val, sub)))
			continue;
		sl_node *v;
		sl_err err = copy_node(c, val, m, sub, &v);
		if (err || c->alias)
			return err;
		v->pos = (uint32_t)kept;
		if (is_map) {
			sl_node *kc;
			if ((err = copy_node(c, key, m, sub, &kc)) || c->alias)
				return err;
			kc->pos = (uint32_t)kept;
			((sl_pair *)arr)[kept] = (sl_pair){kc, v};
		} else {
			((sl_node **)arr)[kept] = v;
		}
		kept++;
	}
	if (is_map) {
		m->u.map.pairs = arr;
		m->u.map.n = kept;
	} else {
		m->u.seq.items = arr;
		m->u.seq.n = kept;
	}
	return SL_OK;
}

sl_err sl_tree_copy(sl_arena *a, const sl_doc *doc, const sl_node *from, const char *const *keep,
		    size_t n_keep, sl_copy_filter filter, void *payload, sl_doc **out)
{
	*out = NULL;
	if (n_keep > 32)
		return SL_EUSAGE;
	sl_doc *d = sl_arena_alloc(a, sizeof *d);
	if (!d)
		return SL_ENOMEM;
	*d = *doc;
	d->src = NULL;
	d->root = NULL;
	long at[32] = {0};   /* every pattern starts at the root */
	struct copier c = {a, d, keep, keep ? n_keep : 0, filter, payload, false};
	if (!keep) {   /* the whole document: one pattern matched to its end */
		static const char *const whole[] = {""};
		c.keep = whole;
		c.n_keep = 1;
	}
	if (!from)
		from = doc->root;
	if (from) {
		sl_err err = copy_node(&c, from, NULL, at, &d->root);
		if (err || c.alias)
			return err;
	}
	*out = d;
	return SL_OK;
}

/* --- shorthands: a mapping's entries and a sequence's items by index, a scalar as a view --- */

sl_k8s_str sl_node_str(const sl_node *n)
{
	n = sl_node_deref(n);
	if (!n || n->type != SL_NODE_SCALAR || sl_scalar_type(n) == SL_Y_NULL)
		return (sl_k8s_str){NULL, 0};
	return (sl_k8s_str){n->u.scalar.s, n->u.scalar.len};
}

size_t sl_map_n(const sl_node *map)
{
	size_t n;
	sl_map_entries(map, &n);
	return n;
}

const sl_pair *sl_map_pair(const sl_node *map, size_t i)
{
	size_t n;
	return &sl_map_entries(map, &n)[i];
}

size_t sl_seq_n(const sl_node *seq)
{
	seq = sl_node_deref(seq);
	return seq && seq->type == SL_NODE_SEQ ? seq->u.seq.n : 0;
}

const sl_node *sl_map_key_at(const sl_node *map, size_t i)
{
	const sl_pair *p = sl_map_pair(map, i);
	return p ? p->key : NULL;
}

const sl_node *sl_map_value_at(const sl_node *map, size_t i)
{
	const sl_pair *p = sl_map_pair(map, i);
	return p ? p->value : NULL;
}

const sl_node *sl_seq_item(const sl_node *seq, size_t i)
{
	return sl_node_deref(sl_node_deref(seq)->u.seq.items[i]);
}

bool sl_seq_has(const sl_node *seq, const char *s)
{
	for (size_t i = 0; s && i < sl_seq_n(seq); i++)
		if (sl_scalar_is(sl_seq_item(seq, i), s))
			return true;
	return false;
}

bool sl_node_owns(const sl_node *map, const sl_node *v)
{
	return map && v && map->type == SL_NODE_MAP && v->parent == map && !sl_node_anchor(v) &&
	       v->pos < map->u.map.n && map->u.map.pairs[v->pos].value == v;
}
