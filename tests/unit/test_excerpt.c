/* SPDX-License-Identifier: Apache-2.0
** test_excerpt.c: a text parsed as an excerpt (src/yaml/excerpt.c: some documents left out
** but their line breaks, the tree moved back onto the text) gives the tree, node by node, that
** a parse of the text with those documents blanked gives (spaces for every byte but "\r" and
** "\n"): what the passes parsed before excerpts (a context file's unread documents blanked).
** Several documents, CRLF and lone CR, comments and text after "---", UTF-8, anchors, aliases
** and merge keys in a read document, a syntax error in a document left out and in one read. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yaml/excerpt.h"
#include "yaml/yaml_tree.h"
#include "support.h"

struct issue {
	char rule[32];
	unsigned doc;
	size_t start, end;
	char msg[256];
};

struct parse {
	sl_source *src;      /* the text parsed (the blanked text, or the excerpt's) */
	sl_arena *a;
	sl_tree t;
	struct issue is[16];
	size_t n_is;
};

static void on_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	struct parse *p = payload;
	cr_assert_lt(p->n_is, 16);
	struct issue *i = &p->is[p->n_is++];
	snprintf(i->rule, sizeof i->rule, "%s", rule);
	snprintf(i->msg, sizeof i->msg, "%s", message);
	i->doc = doc;
	i->start = start;
	i->end = end;
}

static void parse(struct parse *p, const sl_source *src)
{
	p->a = sl_arena_new();
	cr_assert_not_null(p->a);
	cr_assert_eq(sl_tree_parse(src, p->a, &p->t, on_issue, p), SL_OK);
}

/* The documents of t[0..n) as the passes split them (passes.c, leave_unread): document i is
** [at[2i], at[2i+1]), from after a "---" marker (or the start) to the next "---" line. */
static size_t documents(const char *t, size_t n, size_t *at, size_t cap)
{
	size_t k = 0, doc = 0;
	for (size_t i = 0; i <= n; ) {
		bool marker = i < n && n - i >= 3 && memcmp(t + i, "---", 3) == 0 &&
			      (n - i == 3 || strchr(" \t\r\n", t[i + 3]));
		if (i == n || marker) {
			cr_assert_lt(k, cap);
			at[2 * k] = doc;
			at[2 * k + 1] = i;
			k++;
			doc = i + 3;
		}
		if (i == n)
			break;
		const char *nl = memchr(t + i, '\n', n - i);
		i = nl ? (size_t)(nl - t) + 1 : n;
	}
	return k;
}

static void same_node(const sl_node *b, const sl_node *x, const char *where)
{
	cr_assert_eq(b == NULL, x == NULL, "%s: a node on one side only", where);
	if (!b)
		return;
	cr_assert_eq(x->type, b->type, "%s: type", where);
	cr_assert_eq(x->style, b->style, "%s: style", where);
	cr_assert_eq(x->is_key, b->is_key, "%s: is_key", where);
	cr_assert_eq(x->start, b->start, "%s: start %u, blanked %u", where, x->start, b->start);
	cr_assert_eq(x->end, b->end, "%s: end %u, blanked %u", where, x->end, b->end);
	cr_assert_eq(x->pos, b->pos, "%s: pos", where);
	cr_assert_eq(x->parent == NULL, b->parent == NULL, "%s: parent", where);
	cr_assert_eq(x->props == NULL, b->props == NULL, "%s: props", where);
	if (b->props) {
		cr_assert_eq(sl_node_tag(x) == NULL, sl_node_tag(b) == NULL);
		if (sl_node_tag(b))
			cr_assert_str_eq(sl_node_tag(x), sl_node_tag(b));
		cr_assert_eq(sl_node_anchor(x) == NULL, sl_node_anchor(b) == NULL);
		if (sl_node_anchor(b))
			cr_assert_str_eq(sl_node_anchor(x), sl_node_anchor(b));
		cr_assert_eq(x->props->n_merged, b->props->n_merged, "%s: merged", where);
		for (size_t i = 0; i < b->props->n_merged; i++) {
			cr_assert_eq(x->props->merged[i].key->start, b->props->merged[i].key->start);
			cr_assert_eq(x->props->merged[i].value->end, b->props->merged[i].value->end);
		}
	}
	switch (b->type) {
	case SL_NODE_SCALAR:
		cr_assert_eq(x->u.scalar.len, b->u.scalar.len, "%s: scalar length", where);
		cr_assert_eq(memcmp(x->u.scalar.s, b->u.scalar.s, b->u.scalar.len), 0, "%s", where);
		break;
	case SL_NODE_ALIAS:   /* its target is a node of the tree: where it is tells */
		cr_assert_eq(x->u.alias.target->start, b->u.alias.target->start, "%s: alias", where);
		break;
	case SL_NODE_MAP:
		cr_assert_eq(x->u.map.n, b->u.map.n, "%s: pairs", where);
		for (size_t i = 0; i < b->u.map.n; i++) {
			same_node(b->u.map.pairs[i].key, x->u.map.pairs[i].key, where);
			same_node(b->u.map.pairs[i].value, x->u.map.pairs[i].value, where);
		}
		break;
	case SL_NODE_SEQ:
		cr_assert_eq(x->u.seq.n, b->u.seq.n, "%s: items", where);
		for (size_t i = 0; i < b->u.seq.n; i++)
			same_node(b->u.seq.items[i], x->u.seq.items[i], where);
		break;
	}
}

/* t parsed with the documents whose bit is set in leave (bit i: document i) blanked, and as an
** excerpt without them: the same tree and issues, but for the documents' indices, which are the
** whole text's (a first document left out, before any "---", counts there). */
static void check(const char *name, const char *t, unsigned leave)
{
	size_t n = strlen(t), at[64];
	size_t docs = documents(t, n, at, 32);
	char *blanked = strdup(t);
	size_t drop[64], n_drops = 0;
	for (size_t d = 0; d < docs; d++) {
		if (!(leave & (1u << d)))
			continue;
		for (size_t i = at[2 * d]; i < at[2 * d + 1]; i++)
			if (blanked[i] != '\r' && blanked[i] != '\n')
				blanked[i] = ' ';
		drop[2 * n_drops] = at[2 * d];
		drop[2 * n_drops + 1] = at[2 * d + 1];
		n_drops++;
	}
	sl_source *text, *blank;
	cr_assert_eq(sl_source_from_buffer("t.yaml", t, n, &text), SL_OK);
	cr_assert_eq(sl_source_from_buffer("t.yaml", blanked, n, &blank), SL_OK);
	sl_excerpt *x;
	cr_assert_eq(sl_excerpt_make("t.yaml", t, n, drop, n_drops, &x), SL_OK);
	cr_assert_not_null(x, "%s: nothing left out", name);
	cr_assert_lt(sl_excerpt_text(x)->len, n, "%s: the excerpt is shorter", name);
	cr_assert_eq(sl_excerpt_text(x)->n_lines, text->n_lines, "%s: the same lines", name);
	struct parse b = {0}, e = {0}, w = {0};
	parse(&b, blank);
	parse(&e, sl_excerpt_text(x));
	parse(&w, text);
	sl_excerpt_shift(x, &e.t, text);
	/* the whole text's parse sees one document more only when its first is blanked */
	unsigned first = w.t.n_indices - b.t.n_indices;
	cr_assert(first == 0 || (first == 1 && (leave & 1)), "%s: %u documents more", name, first);
	cr_assert_eq(e.t.n_indices, w.t.n_indices, "%s: documents seen", name);
	cr_assert_eq(e.t.n_docs, b.t.n_docs, "%s: documents", name);
	for (size_t d = 0; d < b.t.n_docs; d++) {
		const sl_doc *bd = b.t.docs[d], *xd = e.t.docs[d];
		char where[64];
		snprintf(where, sizeof where, "%s, document %u", name, bd->index);
		cr_assert_eq(xd->index, bd->index + first, "%s: index", where);
		cr_assert_eq(xd->start, bd->start, "%s: start %u, blanked %u", where, xd->start,
			     bd->start);
		cr_assert_eq(xd->end, bd->end, "%s: end %u, blanked %u", where, xd->end, bd->end);
		cr_assert_eq(xd->src, text, "%s: the text's", where);
		same_node(bd->root, xd->root, where);
	}
	cr_assert_eq(e.n_is, b.n_is, "%s: issues", name);
	for (size_t i = 0; i < b.n_is; i++) {
		cr_assert_str_eq(e.is[i].rule, b.is[i].rule);
		cr_assert_eq(e.is[i].doc, b.is[i].doc);
		cr_assert_eq(sl_excerpt_offset(x, e.is[i].start), b.is[i].start, "%s: issue %s", name,
			     b.is[i].msg);
		cr_assert_eq(sl_excerpt_offset(x, e.is[i].end), b.is[i].end, "%s: issue end", name);
		cr_assert_str_eq(e.is[i].msg, b.is[i].msg);   /* its lines and columns */
	}
	sl_arena_free(b.a);
	sl_arena_free(e.a);
	sl_arena_free(w.a);
	sl_excerpt_free(x);
	sl_source_free(text);
	sl_source_free(blank);
	free(blanked);
}

static const char many[] =
	"# a file of CRDs around one ConfigMap\n"
	"apiVersion: apiextensions.k8s.io/v1\n"
	"kind: CustomResourceDefinition\n"
	"metadata: {name: a.example.com}\n"
	"spec:\n"
	"  names: [a, b]\n"
	"--- # the ConfigMap\n"
	"apiVersion: v1\n"
	"kind: ConfigMap\n"
	"metadata:\n"
	"  name: config-features\n"
	"data:\n"
	"  flag: \"enabled\"\n"
	"  text: |\n"
	"    two\n"
	"    lines\n"
	"---\n"
	"kind: CustomResourceDefinition\n"
	"spec: {x: 1}\n"
	"--- text after the marker\n"
	"---\n"
	"kind: Last\n";

Test(excerpt, documents_left_out_in_any_combination)
{
	for (unsigned leave = 1; leave < 32; leave++)   /* five documents, not all left out */
		if (leave != 31)
			check("many", many, leave);
}

Test(excerpt, crlf_and_lone_cr)
{
	const char *t = "a: 1\r\nb: [1, 2]\r\n---\r\nkind: X\r\nc: 'q'\r\n---\r\nd:\r  - e\r\n"
			"---\r\nlast: 2\r\n";
	for (unsigned leave = 1; leave < 15; leave++)
		check("crlf", t, leave);
}

Test(excerpt, utf8)
{
	const char *t = "name: \"é\u00e9\"\nnote: 日本語\n---\nkind: Ünïcode\nv: ☃ snow\n"
			"list: [ä, ö]\n---\nz: 1\n";
	for (unsigned leave = 1; leave < 7; leave++)
		check("utf8", t, leave);
}

Test(excerpt, anchors_aliases_and_merge_keys_in_a_read_document)
{
	const char *t = "kind: Big\nx: [1, 2, 3]\n---\n"
			"base: &b {cpu: 1, mem: 2}\n"
			"other: &o\n  gpu: 1\n"
			"use:\n  <<: [*b, *o]\n  cpu: 3\n"
			"list: [*b, *o]\n"
			"tagged: !!str 12\n"
			"---\nkind: After\ny: &z 1\nw: *z\n";
	check("anchors", t, 1);
	check("anchors", t, 4);
	check("anchors", t, 5);
}

Test(excerpt, syntax_errors)
{
	/* one in a document left out: no issue; one in a read document after one left out: at
	** the same place, with the same lines in its message */
	const char *t = "a: 1\n---\nbad: [1, 2\nnext: {\n---\nok: 1\n---\n"
			"dup: 1\ndup: 2\nbroken: \"x\n";
	check("errors", t, 2);
	check("errors", t, 1);
	check("errors", t, 3);
	check("errors", t, 5);
	const char *end = "a: 1\n---\nkey: [\n  1,\n";
	check("end", end, 1);
	check("end", end, 2);
}

Test(excerpt, empty_documents_and_text_ending_in_one_left_out)
{
	check("tail", "a: 1\n---\nb: 2\n   ", 2);
	check("tail", "a: 1\n---\nb: 2", 2);
	check("head", "\xef\xbb\xbf" "a: 1\n---\nb: 2\n", 1);
	check("head", "\xef\xbb\xbf" "# a comment\n\n---\nb: 2\n", 1);   /* no document */
	check("head", "  # a comment\n\t\n---\nb: 2\n---\nc: 3\n", 5);   /* a tab: broken */
	check("head", "  # a comment\n  \n---\nb: 2\n---\nc: 3\n", 5);
	check("empty", "---\n---\nb: 2\n---\n", 6);
}

/* An excerpt far shorter than its text: its buffer grows with the line breaks kept (it starts
** at the bytes kept, not at the text's size). */
Test(excerpt, a_short_excerpt_of_a_long_text)
{
	char t[16384] = "a: 1\n---\n";
	for (int i = 0; i < 1000; i++)
		snprintf(t + strlen(t), sizeof t - strlen(t), "k%d: v\n", i);
	strcat(t, "---\nb: [2,\n  3]\n");
	check("long", t, 2);
	check("long", t, 3);
}

Test(excerpt, nothing_left_out)
{
	sl_excerpt *x = (sl_excerpt *)1;
	size_t drop[4] = {3, 3, 4, 5};   /* nothing, and a line break */
	cr_assert_eq(sl_excerpt_make("t", "a: 1\n", 5, drop, 2, &x), SL_OK);
	cr_assert_null(x);
}

/* Every byte of an excerpt maps back to the same byte of the text, in order: a range left out
** keeps its line breaks as one run (excerpt.c), each of which is looked up as the range's
** k-th break; the offset past the last maps to the text's end. */
static void maps_back(const char *t, const size_t *drop, size_t n_drops)
{
	size_t n = strlen(t);
	sl_excerpt *x = NULL;
	cr_assert_eq(sl_excerpt_make("t", t, n, drop, n_drops, &x), SL_OK);
	cr_assert_not_null(x);
	const sl_source *e = sl_excerpt_text(x);
	size_t last = 0;
	for (size_t i = 0; i < e->len; i++) {
		size_t at = sl_excerpt_offset(x, i);
		cr_assert(at < n && t[at] == e->data[i], "byte %zu of %.*s maps to %zu", i,
			  (int)e->len, e->data, at);
		cr_assert(i == 0 || at > last, "byte %zu maps before byte %zu's", i, i - 1);
		last = at;
	}
	cr_assert_eq(sl_excerpt_offset(x, e->len), n);
	sl_excerpt_free(x);
}

Test(excerpt, every_byte_maps_back_through_the_line_breaks_left_out)
{
	const char *lf = "a: 1\n---\nb: 2\n\nc: 3\n# x\n---\nd: 4\n---\ne: 5\nf: 6\n";
	size_t d1[] = {8, 24, 27, 33};   /* the second and third documents */
	maps_back(lf, d1, 2);
	size_t d2[] = {0, 5, 8, 24, 36, 47};   /* the first one too, and the last to its end */
	maps_back(lf, d2, 3);
	const char *crlf = "a: 1\r\n---\r\nb: 2\r\r\nc: 3\r\n---\r\nd: 4\r\n";
	size_t d3[] = {9, 24, 27, 35};
	maps_back(crlf, d3, 2);
}
