/* SPDX-License-Identifier: Apache-2.0
** test_yaml_tree.c: the positioned YAML tree (src/yaml/yaml_tree.c): byte ranges of every node
** style, parents, positions and JSON pointers, alias and merge-key lookups, go-yaml v2 scalar
** typing, duplicate keys, and recovery from broken input (syntax errors per document, bad
** bytes, undefined aliases, template keys, nesting and alias limits) without a crash and in
** bounded time. Issues are recorded with their rule, document, byte range and message. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "yaml/yaml_tree.h"
#include "support.h"

/* --- harness ------------------------------------------------------------------------------ */

struct issue {
	char rule[32];
	unsigned doc;
	size_t start, end;
	char msg[512];
};

typedef struct parsed {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	struct issue is[64];
	size_t n_is;
	double secs;
} parsed;

static void on_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	parsed *p = payload;
	if (p->n_is == sizeof p->is / sizeof p->is[0])
		return;
	struct issue *i = &p->is[p->n_is++];
	snprintf(i->rule, sizeof i->rule, "%s", rule);
	snprintf(i->msg, sizeof i->msg, "%s", message ? message : "(null)");
	i->doc = doc;
	i->start = start;
	i->end = end;
}

static parsed *parse_n(const char *text, size_t len)
{
	parsed *p = calloc(1, sizeof *p);
	cr_assert_not_null(p);
	cr_assert_eq(sl_source_from_buffer("t.yaml", text, len, &p->src), SL_OK);
	p->a = sl_arena_new();
	cr_assert_not_null(p->a);
	struct timespec t0, t1;
	/* CPU time, which a loaded machine does not stretch as it does the wall clock */
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	sl_err err = sl_tree_parse(p->src, p->a, &p->t, on_issue, p);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	p->secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_assert_eq(err, SL_OK, "sl_tree_parse: %s", sl_strerror(err));
	return p;
}

/* Parses a string literal (sizeof keeps embedded NULs). */
#define PARSE(s) parse_n((s), sizeof(s) - 1)

static void done(parsed *p)
{
	sl_arena_free(p->a);
	sl_source_free(p->src);
	free(p);
}

static void dump_issues(const parsed *p)
{
	for (size_t i = 0; i < p->n_is; i++)
		cr_log_info("issue %zu: %s doc=%u [%zu,%zu) %s", i, p->is[i].rule, p->is[i].doc,
			    p->is[i].start, p->is[i].end, p->is[i].msg);
}

static void expect_no_issues(const parsed *p)
{
	dump_issues(p);
	cr_expect_eq(p->n_is, 0, "%zu unexpected issue(s), first: %s", p->n_is,
		     p->n_is ? p->is[0].msg : "");
}

/* Exactly one issue, of rule, in document doc, starting at start, whose message holds part. */
static const struct issue *expect_one_issue(const parsed *p, const char *rule, unsigned doc,
					    size_t start, const char *part)
{
	dump_issues(p);
	cr_assert_eq(p->n_is, 1, "want exactly one issue, got %zu (first: %s)", p->n_is,
		     p->n_is ? p->is[0].msg : "");
	const struct issue *i = &p->is[0];
	cr_expect_str_eq(i->rule, rule);
	cr_expect_eq(i->doc, doc, "issue in document %u, want %u (%s)", i->doc, doc, i->msg);
	cr_expect_eq(i->start, start, "issue at %zu, want %zu (%s)", i->start, start, i->msg);
	cr_expect_geq(i->end, i->start);
	if (part)
		cr_expect(strstr(i->msg, part) != NULL, "message \"%s\" lacks \"%s\"", i->msg, part);
	return i;
}

static const sl_node *root(const parsed *p, size_t doc)
{
	cr_assert_lt(doc, p->t.n_docs, "document %zu of %zu", doc, p->t.n_docs);
	return p->t.docs[doc]->root;
}

/* The raw (alias not followed) value of key in map. */
static const sl_node *raw(const sl_node *map, const char *key)
{
	cr_assert_not_null(map);
	cr_assert_eq(map->type, SL_NODE_MAP);
	for (size_t i = 0; i < map->u.map.n; i++)
		if (sl_scalar_is(map->u.map.pairs[i].key, key))
			return map->u.map.pairs[i].value;
	cr_assert_fail("no key \"%s\"", key);
	return NULL;
}

static const sl_node *item(const sl_node *seq, size_t i)
{
	cr_assert_not_null(seq);
	cr_assert_eq(seq->type, SL_NODE_SEQ);
	cr_assert_lt(i, seq->u.seq.n);
	return seq->u.seq.items[i];
}

/* The node's byte range is exactly the text want. */
static void expect_text(const parsed *p, const sl_node *n, const char *want)
{
	cr_assert_not_null(n);
	cr_assert_leq(n->start, n->end);
	cr_assert_leq(n->end, p->src->len);
	size_t len = n->end - n->start;
	cr_expect(len == strlen(want) && memcmp(p->src->data + n->start, want, len) == 0,
		  "range [%u,%u) is \"%.*s\", want \"%s\"", n->start, n->end, (int)len,
		  p->src->data + n->start, want);
}

static void expect_pointer(const parsed *p, const sl_node *n, const char *want)
{
	char *ptr = sl_node_pointer(n, p->a);
	cr_assert_not_null(ptr);
	cr_expect_str_eq(ptr, want);
}

/* --- node ranges ------------------------------------------------------------------------- */

Test(tree_range, scalars_of_every_style)
{
	parsed *p = PARSE("a: plain text  # comment\n"
			  "b: 'it''s'\n"
			  "c: \"x\\ny\"\n"
			  "d: one\n"
			  "  two\n"
			  "e: |\n"
			  "  l1\n"
			  "  l2\n"
			  "f: >-\n"
			  "  folded\n"
			  "  text\n"
			  "g: 1\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_text(p, raw(r, "a"), "plain text");
	expect_text(p, sl_map_get_key(r, "a"), "a");
	expect_text(p, raw(r, "b"), "'it''s'");
	cr_expect_str_eq(sl_scalar(raw(r, "b")), "it's");
	cr_expect_eq(raw(r, "b")->style, SL_STYLE_SINGLE);
	expect_text(p, raw(r, "c"), "\"x\\ny\"");
	cr_expect_str_eq(sl_scalar(raw(r, "c")), "x\ny");
	cr_expect_eq(raw(r, "c")->style, SL_STYLE_DOUBLE);
	expect_text(p, raw(r, "d"), "one\n  two");
	cr_expect_str_eq(sl_scalar(raw(r, "d")), "one two");
	const sl_node *e = raw(r, "e"), *f = raw(r, "f");
	cr_expect_eq(e->style, SL_STYLE_LITERAL);
	cr_expect_str_eq(sl_scalar(e), "l1\nl2\n");
	cr_expect_eq(f->style, SL_STYLE_FOLDED);
	cr_expect_str_eq(sl_scalar(f), "folded text");
	/* A block scalar starts at its indicator and covers its lines, not the next key. */
	cr_expect_eq(p->src->data[e->start], '|');
	cr_expect_geq(e->end, (uint32_t)(strstr(p->src->data, "  l2") - p->src->data) + 4);
	cr_expect_leq(e->end, sl_map_get_key(r, "f")->start);
	cr_expect_eq(p->src->data[f->start], '>');
	cr_expect_geq(f->end, (uint32_t)(strstr(p->src->data, "  text") - p->src->data) + 6);
	cr_expect_leq(f->end, sl_map_get_key(r, "g")->start);
	expect_text(p, raw(r, "g"), "1");
	done(p);
}

Test(tree_range, flow_and_block_collections)
{
	parsed *p = PARSE("s:\n"
			  "  - x\n"
			  "  - [1, {k: v}]\n"
			  "t:\n"
			  "- y\n"
			  "- z\n"
			  "u: {a: [1, 2], b: c}\n"
			  "v:\n"
			  "  m: 1\n"
			  "  n: 2\n"
			  "\n"
			  "# trailing comment\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_text(p, raw(r, "s"), "- x\n  - [1, {k: v}]");
	cr_expect_eq(raw(r, "s")->style, 0, "block style");
	expect_text(p, item(raw(r, "s"), 1), "[1, {k: v}]");
	cr_expect_eq(item(raw(r, "s"), 1)->style, 1, "flow style");
	expect_text(p, item(item(raw(r, "s"), 1), 1), "{k: v}");
	expect_text(p, raw(r, "t"), "- y\n- z");   /* an indentless sequence */
	expect_text(p, raw(r, "u"), "{a: [1, 2], b: c}");
	expect_text(p, raw(raw(r, "u"), "a"), "[1, 2]");
	/* A block mapping ends with its last value, not at the blank line or comment after. */
	expect_text(p, raw(r, "v"), "m: 1\n  n: 2");
	cr_expect_eq(r->start, 0);
	cr_expect_eq(r->end, raw(raw(r, "v"), "n")->end);
	done(p);
}

Test(tree_range, anchors_and_tags_are_excluded)
{
	parsed *p = PARSE("a: &x value\n"
			  "b: !!str 5\n"
			  "c: &y !t [1]\n"
			  "d: &m\n"
			  "  k: v\n"
			  "e: !tag\n"
			  "  - 1\n"
			  "f: *x\n"
			  "g: [&q 1, !t 2, *q]\n"
			  "h: !!str &z {p: q}\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_text(p, raw(r, "a"), "value");
	cr_expect_str_eq(sl_node_anchor(raw(r, "a")), "x");
	expect_text(p, raw(r, "b"), "5");
	cr_expect_str_eq(sl_node_tag(raw(r, "b")), "tag:yaml.org,2002:str");
	expect_text(p, raw(r, "c"), "[1]");
	cr_expect_str_eq(sl_node_tag(raw(r, "c")), "!t");
	cr_expect_str_eq(sl_node_anchor(raw(r, "c")), "y");
	expect_text(p, raw(r, "d"), "k: v");
	expect_text(p, raw(r, "e"), "- 1");
	const sl_node *f = raw(r, "f");
	cr_expect_eq(f->type, SL_NODE_ALIAS);
	expect_text(p, f, "*x");
	cr_expect_eq(f->u.alias.target, raw(r, "a"));
	const sl_node *g = raw(r, "g");
	expect_text(p, g, "[&q 1, !t 2, *q]");
	expect_text(p, item(g, 0), "1");
	expect_text(p, item(g, 1), "2");
	expect_text(p, item(g, 2), "*q");
	expect_text(p, raw(r, "h"), "{p: q}");
	cr_expect_null(sl_node_tag(raw(r, "a")), "implicit tags are not recorded");
	done(p);
}

/* Every kind of event gives back what libyaml allocated for it (the builder frees most events
** itself: a leak shows in the sanitizer build), and what it holds is kept: directives, a
** collection's anchor and tag, an alias. */
Test(tree_props, every_event_kind)
{
	parsed *p = PARSE("%YAML 1.1\n"
			  "%TAG !e! tag:example.com,2000:\n"
			  "---\n"
			  "m: &m !e!map {k: v}\n"
			  "s: &s !e!seq [1, 2]\n"
			  "a: *m\n"
			  "...\n"
			  "---\n"
			  "b: &t !loc text\n");
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 2);
	const sl_node *r = root(p, 0);
	cr_expect_str_eq(sl_node_tag(raw(r, "m")), "tag:example.com,2000:map");
	cr_expect_str_eq(sl_node_anchor(raw(r, "m")), "m");
	cr_expect_str_eq(sl_node_tag(raw(r, "s")), "tag:example.com,2000:seq");
	cr_expect_str_eq(sl_node_anchor(raw(r, "s")), "s");
	cr_expect_eq(raw(r, "a")->u.alias.target, raw(r, "m"));
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 1), "b")), "text");
	cr_expect_str_eq(sl_node_tag(raw(root(p, 1), "b")), "!loc");
	done(p);
}

Test(tree_range, multibyte_text_and_crlf)
{
	/* Ranges are byte offsets although libyaml counts characters. */
	parsed *p = PARSE("\xC3\xA9t\xC3\xA9: \"\xE2\x82\xAC\xE2\x82\xAC\"\r\n"
			  "k: [\xF0\x9F\x9A\x80, x]\r\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_text(p, sl_map_get_key(r, "\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");
	expect_text(p, raw(r, "\xC3\xA9t\xC3\xA9"), "\"\xE2\x82\xAC\xE2\x82\xAC\"");
	expect_text(p, raw(r, "k"), "[\xF0\x9F\x9A\x80, x]");
	expect_text(p, item(raw(r, "k"), 1), "x");
	done(p);
}

Test(tree_range, utf8_bom)
{
	parsed *p = PARSE("\xEF\xBB\xBF" "ab: 1\ncd: \xC3\xA9\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_text(p, sl_map_get_key(r, "ab"), "ab");
	expect_text(p, raw(r, "ab"), "1");
	expect_text(p, raw(r, "cd"), "\xC3\xA9");
	cr_expect_eq(r->start, 3);
	done(p);
}

Test(tree_range, ascii_text_with_a_bom_and_every_break)
{
	/* In ASCII text a mark's offset is libyaml's index (source.h's ascii), shifted by the BOM
	** it skips without counting, and by the start of the segment parsed after an error. */
	parsed *p = PARSE("\xEF\xBB\xBF" "ab: 1\r\ncd: [x, y]\rz: 'q'\n---\nk: [1\n---\nm: \"n\"\r\n");
	cr_expect(p->src->ascii);
	const sl_node *r = root(p, 0);
	cr_expect_eq(r->start, 3);
	expect_text(p, sl_map_get_key(r, "ab"), "ab");
	expect_text(p, raw(r, "ab"), "1");
	expect_text(p, item(raw(r, "cd"), 1), "y");
	expect_text(p, raw(r, "z"), "'q'");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 1, 38, NULL);
	(void)i;
	const sl_node *m = root(p, p->t.n_docs - 1);
	expect_text(p, raw(m, "m"), "\"n\"");
	done(p);
	parsed *u = PARSE("a: \xC3\xA9\n");
	cr_expect(!u->src->ascii);
	done(u);
}

Test(tree_range, documents)
{
	parsed *p = PARSE("a: 1\n---\nb: 2\n--- c\n...\n");
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_eq(p->t.n_indices, 3);
	for (unsigned i = 0; i < 3; i++) {
		cr_expect_eq(p->t.docs[i]->index, i);
		cr_expect_eq(p->t.docs[i]->src, p->src);
		cr_expect_eq(sl_node_doc(root(p, i)), p->t.docs[i]);
		cr_expect_null(root(p, i)->parent);
	}
	cr_expect_eq(p->t.docs[0]->start, 0);
	cr_expect_eq(p->t.docs[1]->start, 5);
	cr_expect_eq(p->t.docs[2]->start, 14);
	expect_text(p, root(p, 2), "c");
	expect_text(p, sl_map_get_key(root(p, 1), "b"), "b");
	done(p);
}

/* --- structure: parents, positions, pointers --------------------------------------------- */

Test(tree_structure, parents_and_positions)
{
	parsed *p = PARSE("spec:\n"
			  "  containers:\n"
			  "  - name: a\n"
			  "  - name: b\n"
			  "    image: x\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	const sl_node *spec = raw(r, "spec");
	const sl_node *cs = raw(spec, "containers");
	const sl_node *c1 = item(cs, 1);
	const sl_node *img = raw(c1, "image");
	cr_expect_eq(spec->parent, r);
	cr_expect_eq(cs->parent, spec);
	cr_expect_eq(c1->parent, cs);
	cr_expect_eq(c1->pos, 1);
	cr_expect_eq(item(cs, 0)->pos, 0);
	cr_expect_eq(img->parent, c1);
	cr_expect_eq(img->pos, 1);
	const sl_node *k = sl_map_get_key(c1, "image");
	cr_expect(k->is_key);
	cr_expect_not(img->is_key);
	cr_expect_eq(k->parent, c1);
	cr_expect_eq(k->pos, 1);
	cr_expect_eq(sl_node_key(img), k);
	cr_expect_null(sl_node_key(c1), "a sequence item has no key");
	cr_expect_null(sl_node_key(r));
	cr_expect_null(sl_node_key(NULL));
	cr_expect_eq(sl_node_doc(img), p->t.docs[0]);
	done(p);
}

Test(tree_structure, pointers)
{
	parsed *p = PARSE("spec:\n"
			  "  containers:\n"
			  "  - name: a\n"
			  "  - name: b\n"
			  "    resources: {limits: {nvidia.com/gpu: 1}}\n"
			  "\"~x/y~\": [[0, 1, [2]]]\n"
			  "\"\": empty\n"
			  "m: {? \"a/b\" : 1}\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	expect_pointer(p, r, "");
	const sl_node *c1 = item(raw(raw(r, "spec"), "containers"), 1);
	expect_pointer(p, c1, "/spec/containers/1");
	expect_pointer(p, raw(c1, "name"), "/spec/containers/1/name");
	expect_pointer(p, sl_map_get_key(c1, "name"), "/spec/containers/1/name");
	const sl_node *gpu = raw(raw(raw(c1, "resources"), "limits"), "nvidia.com/gpu");
	expect_pointer(p, gpu, "/spec/containers/1/resources/limits/nvidia.com~1gpu");
	const sl_node *t = raw(r, "~x/y~");
	expect_pointer(p, t, "/~0x~1y~0");
	expect_pointer(p, item(item(item(t, 0), 2), 0), "/~0x~1y~0/0/2/0");
	expect_pointer(p, raw(r, ""), "/");
	expect_pointer(p, raw(raw(r, "m"), "a/b"), "/m/a~1b");
	done(p);
}

Test(tree_structure, pointer_of_a_large_sequence_index)
{
	char *text = malloc(12345 * 8 + 16);
	size_t n = 0;
	n += (size_t)sprintf(text + n, "items:\n");
	for (int i = 0; i < 12345; i++)
		n += (size_t)sprintf(text + n, "- %d\n", i);
	parsed *p = parse_n(text, n);
	expect_no_issues(p);
	const sl_node *it = item(raw(root(p, 0), "items"), 12344);
	cr_expect_str_eq(sl_scalar(it), "12344");
	expect_pointer(p, it, "/items/12344");
	done(p);
	free(text);
}

/* --- lookups: aliases and merge keys ------------------------------------------------------ */

Test(tree_lookup, aliases_are_followed)
{
	parsed *p = PARSE("base: &b {x: 1, y: [a]}\n"
			  "ref: *b\n"
			  "s: &s hello\n"
			  "t: *s\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	const sl_node *ref = sl_map_get(r, "ref");
	cr_assert_not_null(ref);
	cr_expect_eq(ref->type, SL_NODE_MAP, "sl_map_get returns the alias target");
	cr_expect_eq(ref, raw(r, "base"));
	cr_expect_eq(raw(r, "ref")->type, SL_NODE_ALIAS);
	cr_expect_str_eq(sl_scalar(sl_map_get(ref, "x")), "1");
	/* A map given as an alias node is followed too. */
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "ref"), "x")), "1");
	cr_expect_str_eq(sl_scalar(raw(r, "t")), "hello");
	cr_expect(sl_scalar_is(raw(r, "t"), "hello"));
	cr_expect_not(sl_scalar_is(raw(r, "t"), "hell"));
	cr_expect_eq(sl_node_deref(raw(r, "t")), raw(r, "s"));
	cr_expect_null(sl_node_deref(NULL));
	cr_expect_null(sl_map_get(r, "missing"));
	cr_expect_null(sl_map_get(raw(r, "s"), "x"), "a scalar is not a map");
	cr_expect_null(sl_map_get(sl_map_get(ref, "y"), "a"), "a sequence is not a map");
	cr_expect_null(sl_map_get(NULL, "x"));
	cr_expect_null(sl_scalar(ref));
	done(p);
}

/* Lookups compare a key's length before its text, reading the length where every node type
** keeps a word (an alias key's is zero): only a scalar key of the same bytes matches, a key
** through an alias never does (as before), and a literal key finds what the same key in a
** variable finds. */
Test(tree_lookup, keys_of_each_length_and_type)
{
	parsed *p = PARSE("e: &e \"\"\n"
			  "k: &k ab\n"
			  "*e : via-alias-empty\n"
			  "*k : via-alias-ab\n"
			  "\"a\\0b\": nul\n"
			  "ab: two\n"
			  "ac: other\n"
			  "\"\": empty\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	cr_expect_str_eq(sl_scalar(sl_map_get(r, "ab")), "two", "the alias key is not it");
	cr_expect_str_eq(sl_scalar(sl_map_get(r, "")), "empty", "nor for the empty key");
	cr_expect_str_eq(sl_scalar(sl_map_get(r, "ac")), "other");
	cr_expect_null(sl_map_get(r, "a"));
	cr_expect_null(sl_map_get(r, "abc"));
	cr_expect_str_eq(sl_scalar(sl_map_get_len(r, "a\0b", 3)), "nul", "bytes past a NUL count");
	cr_expect_null(sl_map_get_len(r, "a\0c", 3));
	const char *keys[] = {"e", "k", "ab", "ac", "", "zz"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		const char *key = keys[i];   /* not a literal: the length from strlen */
		cr_expect_eq(sl_map_get(r, key), (sl_map_get)(r, key), "key \"%s\"", key);
		cr_expect_eq(sl_map_get(r, key), sl_map_get_len(r, key, strlen(key)));
	}
	cr_expect_str_eq(sl_scalar(sl_map_get_key(r, "ab")), "ab");
	done(p);
}

Test(tree_lookup, a_sequence_holds_a_scalar)
{
	parsed *p = PARSE("v: &v [a, 'b', {c: 1}, [d]]\n"
			  "w: *v\n"
			  "s: a\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	cr_expect(sl_seq_has(sl_map_get(r, "v"), "a"));
	cr_expect(sl_seq_has(sl_map_get(r, "v"), "b"), "quoted or not, the value counts");
	cr_expect(sl_seq_has(raw(r, "w"), "b"), "an alias of the sequence is followed");
	cr_expect_not(sl_seq_has(sl_map_get(r, "v"), "c"), "a mapping item is not a scalar");
	cr_expect_not(sl_seq_has(sl_map_get(r, "v"), "d"));
	cr_expect_not(sl_seq_has(sl_map_get(r, "v"), NULL));
	cr_expect_not(sl_seq_has(sl_map_get(r, "s"), "a"), "a scalar is not a sequence");
	cr_expect_not(sl_seq_has(NULL, "a"));
	done(p);
}

Test(tree_lookup, merge_keys)
{
	parsed *	p = PARSE("base: &base {a: 1, b: 2}\n"
		  "over: &over {c: 3, b: 30}\n"
		  "m:\n"
		  "  <<: *base\n"
		  "  b: 20\n"
		  "m2:\n"
		  "  a: 10\n"
		  "  <<: [*over, *base]\n"
		  "m3:\n"
		  "  \"<<\": *base\n"
		  "m4: &m4 {<<: *base, e: 5}\n"
		  "m5: {<<: *m4, f: 6}\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	const sl_node *m = sl_map_get(r, "m");
	cr_expect_str_eq(sl_scalar(sl_map_get(m, "a")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(m, "b")), "20", "an explicit key beats the merge");
	cr_expect_null(sl_map_get(m, "c"));
	cr_expect_eq(sl_map_get_key(m, "a"), sl_map_get_key(raw(r, "base"), "a"),
		     "the key node is the merged map's");
	const sl_node *m2 = sl_map_get(r, "m2");
	/* go-yaml v2 (sigs.k8s.io/yaml/goyaml.v2, what the API server decodes with) applies the
	** pairs in document order: a "<<" after an explicit key overrides it */
	cr_expect_str_eq(sl_scalar(sl_map_get(m2, "a")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(m2, "b")), "30", "earlier maps in the list win");
	cr_expect_str_eq(sl_scalar(sl_map_get(m2, "c")), "3");
	cr_expect_null(sl_map_get(sl_map_get(r, "m3"), "a"), "a quoted \"<<\" is an ordinary key");
	cr_expect_not_null(sl_map_get(sl_map_get(r, "m3"), "<<"));
	const sl_node *m5 = sl_map_get(r, "m5");
	cr_expect_str_eq(sl_scalar(sl_map_get(m5, "f")), "6");
	cr_expect_str_eq(sl_scalar(sl_map_get(m5, "e")), "5");
	cr_expect_str_eq(sl_scalar(sl_map_get(m5, "a")), "1", "merges chain");
	done(p);
}

/* --- scalar typing (go-yaml v2, YAML 1.1) ------------------------------------------------- */

struct tcase { const char *text; sl_yaml_type want; };

static const char *tname(sl_yaml_type t)
{
	static const char *const n[] = {"null", "bool", "int", "float", "str"};
	return t <= SL_Y_STR ? n[t] : "?";
}

static void expect_types(const struct tcase *cases, size_t n)
{
	/* One flow-free sequence item per case, so each text is read as a plain scalar. */
	size_t cap = 64;
	for (size_t i = 0; i < n; i++)
		cap += strlen(cases[i].text) + 4;
	char *text = malloc(cap);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "- %s\n", cases[i].text);
	parsed *p = parse_n(text, len);
	expect_no_issues(p);
	const sl_node *seq = root(p, 0);
	cr_assert_eq(seq->u.seq.n, n);
	for (size_t i = 0; i < n; i++) {
		sl_yaml_type got = sl_scalar_type(seq->u.seq.items[i]);
		cr_expect_eq(got, cases[i].want, "`%s` is %s, want %s", cases[i].text, tname(got),
			     tname(cases[i].want));
	}
	done(p);
	free(text);
}

#define TYPES(...) do { \
	static const struct tcase c_[] = { __VA_ARGS__ }; \
	expect_types(c_, sizeof c_ / sizeof c_[0]); \
} while (0)

Test(tree_types, nulls)
{
	TYPES({"", SL_Y_NULL}, {"~", SL_Y_NULL}, {"null", SL_Y_NULL}, {"Null", SL_Y_NULL},
	      {"NULL", SL_Y_NULL}, {"nULL", SL_Y_STR}, {"nil", SL_Y_STR}, {"'null'", SL_Y_STR},
	      {"\"~\"", SL_Y_STR}, {"None", SL_Y_STR});
}

Test(tree_types, bools)
{
	TYPES({"true", SL_Y_BOOL}, {"True", SL_Y_BOOL}, {"TRUE", SL_Y_BOOL}, {"false", SL_Y_BOOL},
	      {"False", SL_Y_BOOL}, {"FALSE", SL_Y_BOOL}, {"y", SL_Y_BOOL}, {"Y", SL_Y_BOOL},
	      {"n", SL_Y_BOOL}, {"N", SL_Y_BOOL}, {"yes", SL_Y_BOOL}, {"Yes", SL_Y_BOOL},
	      {"YES", SL_Y_BOOL}, {"no", SL_Y_BOOL}, {"No", SL_Y_BOOL}, {"NO", SL_Y_BOOL},
	      {"on", SL_Y_BOOL}, {"On", SL_Y_BOOL}, {"ON", SL_Y_BOOL}, {"off", SL_Y_BOOL},
	      {"Off", SL_Y_BOOL}, {"OFF", SL_Y_BOOL}, {"tRUE", SL_Y_STR}, {"yES", SL_Y_STR},
	      {"oN", SL_Y_STR}, {"t", SL_Y_STR}, {"f", SL_Y_STR}, {"'yes'", SL_Y_STR},
	      {"\"true\"", SL_Y_STR}, {"yess", SL_Y_STR});
}

Test(tree_types, ints)
{
	TYPES({"0", SL_Y_INT}, {"-0", SL_Y_INT}, {"42", SL_Y_INT}, {"+12", SL_Y_INT},
	      {"-17", SL_Y_INT}, {"1_000", SL_Y_INT}, {"1__0", SL_Y_INT}, {"0x1F", SL_Y_INT},
	      {"0X1f", SL_Y_INT}, {"-0x1F", SL_Y_INT}, {"0o17", SL_Y_INT}, {"0b101", SL_Y_INT},
	      {"-0b101", SL_Y_INT}, {"017", SL_Y_INT}, {"-017", SL_Y_INT}, {"0_17", SL_Y_INT},
	      {"9223372036854775807", SL_Y_INT}, {"-9223372036854775808", SL_Y_INT},
	      {"0x7fffffffffffffff", SL_Y_INT});
}

Test(tree_types, not_ints)
{
	TYPES({"99999999999999999999", SL_Y_FLOAT},     /* overflow: a float, not an int */
	      {"-99999999999999999999", SL_Y_FLOAT},
	      {"0x10000000000000000", SL_Y_STR},         /* overflow, and no float syntax */
	      {"0x", SL_Y_STR}, {"0o", SL_Y_STR}, {"0b", SL_Y_STR}, {"0b102", SL_Y_STR},
	      {"0o8", SL_Y_STR}, {"0xG", SL_Y_STR}, {"12abc", SL_Y_STR}, {"_1", SL_Y_STR},
	      {"1-2", SL_Y_STR}, {"+", SL_Y_STR}, {"--1", SL_Y_STR}, {"1 2", SL_Y_STR},
	      {"190:20:30", SL_Y_STR}, {"2024-01-02", SL_Y_STR}, {"'12'", SL_Y_STR},
	      {"\"12\"", SL_Y_STR}, {"!!str 12", SL_Y_STR}, {"|\n    12", SL_Y_STR});
}

/* Decimals and what starts like one (quantities, percentages), around the fast answer for a
** plain decimal: the same types as go-yaml v2's rules give. */
Test(tree_types, decimals_and_quantities)
{
	TYPES({"7", SL_Y_INT}, {"80", SL_Y_INT}, {"8080", SL_Y_INT},
	      {"123456789012345678", SL_Y_INT}, {"1234567890123456789", SL_Y_INT},
	      {"9999999999999999999", SL_Y_INT}, {"18446744073709551615", SL_Y_INT},
	      {"18446744073709551616", SL_Y_FLOAT}, {"0000", SL_Y_INT}, {"0009", SL_Y_FLOAT},
	      {"4Gi", SL_Y_STR}, {"100m", SL_Y_STR}, {"512Mi", SL_Y_STR}, {"1%", SL_Y_STR},
	      {"5d", SL_Y_STR}, {"5e", SL_Y_STR}, {"5e1", SL_Y_FLOAT}, {"5_0", SL_Y_INT},
	      {"5.0Gi", SL_Y_STR}, {"10x", SL_Y_STR}, {"0x", SL_Y_STR}, {"0o7", SL_Y_INT},
	      {"1O", SL_Y_STR}, {"3-", SL_Y_STR}, {"3+", SL_Y_STR}, {"2b", SL_Y_STR},
	      {"7:30", SL_Y_STR}, {"1/2", SL_Y_STR}, {"9}", SL_Y_STR});
	/* called with a length: bytes past a NUL are not read as the number's */
	cr_expect_eq(sl_scalar_text_type("12\0x", 4), SL_Y_INT);
	cr_expect_eq(sl_scalar_text_type("12", 2), SL_Y_INT);
	cr_expect_eq(sl_scalar_text_type("12G", 3), SL_Y_STR);
}

Test(tree_types, floats)
{
	TYPES({"1.5", SL_Y_FLOAT}, {"-1.5", SL_Y_FLOAT}, {"+1.5", SL_Y_FLOAT}, {"1e3", SL_Y_FLOAT},
	      {"1E3", SL_Y_FLOAT}, {"1e+3", SL_Y_FLOAT}, {"-2.5e-3", SL_Y_FLOAT}, {"1.", SL_Y_FLOAT},
	      {".5", SL_Y_FLOAT}, {"+.5", SL_Y_FLOAT}, {"-.5e2", SL_Y_FLOAT}, {"08", SL_Y_FLOAT},
	      {"09.5", SL_Y_FLOAT}, {"0.0", SL_Y_FLOAT}, {".inf", SL_Y_FLOAT}, {".Inf", SL_Y_FLOAT},
	      {".INF", SL_Y_FLOAT}, {"+.inf", SL_Y_FLOAT}, {"-.inf", SL_Y_FLOAT},
	      {"-.INF", SL_Y_FLOAT}, {".nan", SL_Y_FLOAT}, {".NaN", SL_Y_FLOAT}, {".NAN", SL_Y_FLOAT},
	      {".", SL_Y_STR}, {"1e", SL_Y_STR}, {"e3", SL_Y_STR}, {"1.2.3", SL_Y_STR},
	      {".iNf", SL_Y_STR}, {"inf", SL_Y_STR}, {"nan", SL_Y_STR}, {"1.5x", SL_Y_STR},
	      {"'1.5'", SL_Y_STR});
}

Test(tree_types, explicit_tags)
{
	TYPES({"!!str 12", SL_Y_STR}, {"!!str true", SL_Y_STR}, {"!!str ~", SL_Y_STR},
	      {"!!int \"12\"", SL_Y_INT}, {"!!bool \"yes\"", SL_Y_BOOL},
	      {"!!float '1'", SL_Y_FLOAT}, {"!!null ''", SL_Y_NULL},
	      {"!<tag:yaml.org,2002:str> 5", SL_Y_STR});
}

Test(tree_types, int_values_and_kind_names)
{
	parsed *p = PARSE("- 0x1F\n- 0o17\n- 0b101\n- 017\n- 1_000\n- -9223372036854775808\n"
			  "- +7\n- '5'\n- 1.5\n- !!int \"12\"\n- &a 3\n- *a\n- [x]\n- {k: v}\n- ~\n"
			  "- yes\n- text\n");
	expect_no_issues(p);
	const sl_node *s = root(p, 0);
	static const long long want[] = {31, 15, 5, 15, 1000, (-9223372036854775807LL - 1), 7};
	for (size_t i = 0; i < 7; i++) {
		long long v = -1;
		cr_expect(sl_scalar_int(item(s, i), &v), "item %zu is an int", i);
		cr_expect_eq(v, want[i], "item %zu is %lld, want %lld", i, v, want[i]);
	}
	long long v = 99;
	cr_expect_not(sl_scalar_int(item(s, 7), &v), "a quoted number is not an int");
	cr_expect_not(sl_scalar_int(item(s, 8), &v));
	cr_expect(sl_scalar_int(item(s, 9), &v));
	cr_expect_eq(v, 12);
	cr_expect(sl_scalar_int(item(s, 11), &v), "an alias to an int");
	cr_expect_eq(v, 3);
	cr_expect_not(sl_scalar_int(item(s, 12), &v));
	cr_expect_eq(sl_scalar_type(item(s, 11)), SL_Y_INT);
	cr_expect_eq(sl_scalar_type(item(s, 12)), SL_Y_STR, "non-scalars are SL_Y_STR");
	cr_expect_str_eq(sl_node_kind_name(item(s, 0)), "integer");
	cr_expect_str_eq(sl_node_kind_name(item(s, 7)), "string");
	cr_expect_str_eq(sl_node_kind_name(item(s, 8)), "number");
	cr_expect_str_eq(sl_node_kind_name(item(s, 12)), "sequence");
	cr_expect_str_eq(sl_node_kind_name(item(s, 13)), "mapping");
	cr_expect_str_eq(sl_node_kind_name(item(s, 14)), "null");
	cr_expect_str_eq(sl_node_kind_name(item(s, 15)), "boolean");
	cr_expect_str_eq(sl_node_kind_name(item(s, 16)), "string");
	cr_expect_str_eq(sl_node_kind_name(NULL), "null");
	done(p);
}

/* --- duplicate keys ---------------------------------------------------------------------- */

Test(tree_dup, small_mapping)
{
	parsed *p = PARSE("a: 1\n"
			  "b: 2\n"
			  "a: 3\n");
	const struct issue *i = expect_one_issue(p, "duplicate-key", 0, 10, "\"a\"");
	cr_expect_eq(i->end, 11);
	cr_expect(strstr(i->msg, "line 1, column 1") != NULL, "%s", i->msg);
	cr_expect_eq(p->t.n_docs, 1, "a duplicate key does not drop the document");
	done(p);
}

Test(tree_dup, nested_flow_and_later_document)
{
	parsed *p = PARSE("x: 1\n"
			  "---\n"
			  "spec:\n"
			  "  sel: {zone: a, \"zone\": b}\n");
	const struct issue *i = expect_one_issue(p, "duplicate-key", 1, 32, "\"zone\"");
	cr_expect(strstr(i->msg, "line 4, column 9") != NULL, "%s", i->msg);
	cr_expect_eq(p->t.n_docs, 2);
	done(p);
}

Test(tree_dup, large_mapping_uses_first_position)
{
	char text[2048];
	size_t n = 0;
	for (int i = 0; i < 20; i++)
		n += (size_t)sprintf(text + n, "k%02d: %d\n", i, i);   /* 8 bytes a line */
	size_t dup1 = n;
	n += (size_t)sprintf(text + n, "k05: again\n");
	size_t dup2 = n;
	n += (size_t)sprintf(text + n, "k05: thrice\n");
	n += (size_t)sprintf(text + n, "<<: {z: 1}\n<<: {y: 2}\n");   /* merge keys may repeat */
	parsed *p = parse_n(text, n);
	dump_issues(p);
	cr_assert_eq(p->n_is, 2);
	for (int k = 0; k < 2; k++) {
		cr_expect_str_eq(p->is[k].rule, "duplicate-key");
		cr_expect(strstr(p->is[k].msg, "\"k05\"") != NULL, "%s", p->is[k].msg);
		cr_expect(strstr(p->is[k].msg, "line 6, column 1") != NULL, "names the first: %s",
			  p->is[k].msg);
	}
	cr_expect_eq(p->is[0].start, dup1);
	cr_expect_eq(p->is[1].start, dup2);
	done(p);
}

Test(tree_dup, no_false_positives)
{
	parsed *p = PARSE("a: 1\n"
			  "b: {a: 1}\n"
			  "c: [{a: 1}, {a: 2}]\n"
			  "ab: 1\n"
			  "A: 1\n"
			  "<<: {q: 1}\n"
			  "<<: {r: 1}\n");
	expect_no_issues(p);
	done(p);
}

/* Merge keys as sigs.k8s.io/yaml decodes them (goyaml.v2 decode.go `mapping`, `merge`). */
Test(tree_lookup, merge_keys_as_the_decoder_sees_them)
{
	parsed *p = PARSE("base: &base {a: 1, b: 2}\n"
			  "over: &over {b: 30, c: 3}\n"
			  "after: {<<: *base, a: 10}\n"              /* explicit after: it wins */
			  "before: {a: 10, <<: *base}\n"             /* explicit before: the merge wins */
			  "list: {<<: [*over, *base]}\n"             /* earlier maps win */
			  "two: {<<: *base, <<: *over}\n"            /* several merge keys, in order */
			  "inline: {<<: {x: 1}, y: 2}\n"
			  "tagged: {!!merge <<: *base}\n"
			  "str: {!!str <<: *base}\n"                 /* not a merge key */
			  "chain: &chain {<<: *base, c: 3}\n"
			  "chained: {<<: *chain, d: 4}\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	const sl_node *base = raw(r, "base");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "after"), "a")), "10");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "before"), "a")), "1");
	const sl_node *list = raw(r, "list");
	cr_expect_str_eq(sl_scalar(sl_map_get(list, "b")), "30");
	cr_expect_str_eq(sl_scalar(sl_map_get(list, "a")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "two"), "b")), "30");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "inline"), "x")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "tagged"), "a")), "1");
	cr_expect_null(sl_map_get(raw(r, "str"), "a"));
	cr_expect_not_null(sl_map_get(raw(r, "str"), "<<"));
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "chained"), "a")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(raw(r, "chained"), "c")), "3");
	/* iteration: one entry per key, no "<<" entry, nodes where they are written */
	size_t n;
	const sl_pair *e = sl_map_entries(list, &n);
	cr_assert_eq(n, 3);
	bool seen_a = false, seen_b = false, seen_c = false;
	for (size_t i = 0; i < n; i++) {
		const char *k = sl_scalar(e[i].key);
		cr_assert_not_null(k);
		cr_expect_str_neq(k, "<<");
		seen_a |= strcmp(k, "a") == 0;
		seen_b |= strcmp(k, "b") == 0;
		seen_c |= strcmp(k, "c") == 0;
		if (strcmp(k, "a") == 0)
			cr_expect_eq(e[i].key->parent, base, "positions point at the real node");
	}
	cr_expect(seen_a && seen_b && seen_c);
	const sl_node *before = raw(r, "before");
	e = sl_map_entries(before, &n);
	cr_expect_eq(n, 2);
	/* no merge key: the map's own pairs */
	e = sl_map_entries(base, &n);
	cr_expect_eq(e, base->u.map.pairs);
	cr_expect_eq(n, 2);
	done(p);
}

Test(tree_lookup, merge_of_a_non_map_fails_the_document)
{
	static const char *const bad[] = {"m:\n  <<: 1\n", "m:\n  <<: [{a: 1}, x]\n",
					   "s: &s [1]\nm:\n  <<: *s\n", NULL};
	for (size_t i = 0; bad[i]; i++) {
		parsed *p = parse_n(bad[i], strlen(bad[i]));
		cr_assert_eq(p->n_is, 1, "%s", bad[i]);
		cr_expect_str_eq(p->is[0].rule, "yaml-syntax");
		cr_expect(strstr(p->is[0].msg, "map merge requires map or sequence of maps"), "%s",
			  p->is[0].msg);
		cr_expect_eq(p->t.n_docs, 0, "the document is not read: %s", bad[i]);
		done(p);
	}
}

/* A chain of mappings each merging the one before it makes quadratically many entries: past
** SL_MAX_MERGED the document stops with a finding, in bounded time and memory. */
Test(tree_lookup, merge_chain_is_bounded)
{
	double t0 = sl_test_cpu_seconds();   /* CPU time: load does not stretch it */
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap);
	cr_assert_not_null(text);
	n += (size_t)sprintf(text + n, "m0: &m0 {k0: 0}\n");
	for (int i = 1; i < 1500; i++)
		n += (size_t)sprintf(text + n, "m%d: &m%d {<<: *m%d, k%d: %d}\n", i, i, i - 1, i, i);
	parsed *p = parse_n(text, n);
	cr_assert_eq(p->n_is, 1);
	cr_expect_str_eq(p->is[0].rule, "yaml-syntax");
	cr_expect(strstr(p->is[0].msg, "merge keys") != NULL, "%s", p->is[0].msg);
	cr_expect_eq(p->t.n_docs, 0);
	done(p);
	/* below the bound the whole chain resolves */
	n = 0;
	n += (size_t)sprintf(text + n, "m0: &m0 {k0: 0}\n");
	for (int i = 1; i < 300; i++)
		n += (size_t)sprintf(text + n, "m%d: &m%d {<<: *m%d, k%d: %d}\n", i, i, i - 1, i, i);
	p = parse_n(text, n);
	expect_no_issues(p);
	const sl_node *last = sl_map_get(root(p, 0), "m299");
	size_t ne;
	sl_map_entries(last, &ne);
	cr_expect_eq(ne, 300);
	cr_expect_str_eq(sl_scalar(sl_map_get(last, "k0")), "0");
	done(p);
	free(text);
	cr_expect_lt(sl_test_cpu_seconds() - t0, 10.0, "the merge chain is not bounded");
}

/* --- multi-document recovery ------------------------------------------------------------ */

Test(tree_docs, syntax_error_in_document_2_of_4)
{
	parsed *p = PARSE("a: 1\n"            /* 0 */
			  "---\n"             /* 5 */
			  "b: \"unclosed\n"   /* 9 */
			  "---\n"             /* 22 */
			  "c: 3\n"            /* 26 */
			  "---\n"
			  "d: 4\n");
	expect_one_issue(p, "yaml-syntax", 1, 22,
			 "while scanning a quoted scalar that started at line 3, column 4");
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_eq(p->t.n_indices, 4, "the broken document is counted");
	cr_expect_eq(p->t.docs[0]->index, 0);
	cr_expect_eq(p->t.docs[1]->index, 2);
	cr_expect_eq(p->t.docs[2]->index, 3);
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 1), "c")), "3");
	expect_text(p, sl_map_get_key(root(p, 1), "c"), "c");
	expect_text(p, sl_map_get_key(root(p, 2), "d"), "d");
	cr_expect_eq(p->t.docs[1]->start, 22);
	done(p);
}

Test(tree_docs, syntax_error_inside_a_line)
{
	parsed *p = PARSE("a: 1\n---\nb: c: d\n---\n\xC3\xA9: x\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 1, 13, "mapping values");
	cr_expect_eq(i->end, 14);
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.docs[1]->index, 2);
	cr_expect_eq(p->t.n_indices, 3);
	expect_text(p, sl_map_get_key(root(p, 1), "\xC3\xA9"), "\xC3\xA9");
	expect_text(p, raw(root(p, 1), "\xC3\xA9"), "x");
	done(p);
}

Test(tree_docs, unclosed_flow_runs_into_the_next_document)
{
	parsed *p = PARSE("a: 1\n---\nb: [1,\n---\nc: 3\n---\nd: 4\n");
	expect_one_issue(p, "yaml-syntax", 1, 16, NULL);
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_eq(p->t.n_indices, 4);
	cr_expect_eq(p->t.docs[1]->index, 2);
	cr_expect_eq(p->t.docs[2]->index, 3);
	done(p);
}

Test(tree_docs, syntax_error_on_a_document_start_line)
{
	/* The error is in the document that "---" line opens: it is reported once, and
	** parsing resumes at the next "---". */
	parsed *p = PARSE("a: 1\n"
			  "--- a: b: c\n"
			  "x: 1\n"
			  "---\n"
			  "c: 3\n");
	expect_one_issue(p, "yaml-syntax", 1, 10, NULL);
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.n_indices, 3);
	cr_expect_eq(p->t.docs[1]->index, 2);
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 1), "c")), "3");
	done(p);
}

Test(tree_docs, error_in_first_document_keeps_later_ones)
{
	parsed *p = PARSE("a:\n\tb: 1\n---\nc: 3\n");
	expect_one_issue(p, "yaml-syntax", 0, 3, "cannot start any token");
	cr_assert_eq(p->t.n_docs, 1);
	cr_expect_eq(p->t.docs[0]->index, 1);
	cr_expect_eq(p->t.n_indices, 2);
	done(p);
}

Test(tree_docs, error_with_no_later_document)
{
	parsed *p = PARSE("a: 1\n---\nb: [\n");
	expect_one_issue(p, "yaml-syntax", 1, 14, NULL);   /* at the end of the input */
	cr_expect_eq(p->t.n_docs, 1);
	cr_expect_eq(p->t.n_indices, 2);
	done(p);
}

Test(tree_docs, undefined_alias)
{
	parsed *p = PARSE("a: &x 1\n"
			  "---\n"
			  "b: *x\n"      /* anchors do not cross documents */
			  "---\n"
			  "c: 2\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 1, 15, "undefined alias \"x\"");
	cr_expect_eq(i->end, 17);
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.docs[1]->index, 2);
	cr_expect_eq(p->t.n_indices, 3);
	done(p);
}

Test(tree_docs, redefined_anchor_means_the_newest)
{
	parsed *p = PARSE("a: &x 1\nb: *x\nc: &x 2\nd: *x\n");
	expect_no_issues(p);
	const sl_node *r = root(p, 0);
	cr_expect_str_eq(sl_scalar(raw(r, "b")), "1");
	cr_expect_str_eq(sl_scalar(raw(r, "d")), "2");
	done(p);
}

Test(tree_docs, mapping_as_key_is_an_unrendered_template)
{
	parsed *p = PARSE("a: 1\n---\nname: {{ .Values.name }}\n---\nc: 2\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 1, 16, "unrendered template");
	cr_expect(strstr(i->msg, "{{") != NULL, "%s", i->msg);
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.docs[1]->index, 2);
	done(p);
}

Test(tree_docs, collection_as_key)
{
	parsed *p = PARSE("? [a, b]\n: 1\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 0, 2, "mapping key");
	cr_expect(strstr(i->msg, "template") == NULL, "not a template: %s", i->msg);
	cr_expect_eq(p->t.n_docs, 0);
	done(p);
}

Test(tree_docs, empty_inputs)
{
	parsed *p = PARSE("");
	expect_no_issues(p);
	cr_expect_eq(p->t.n_docs, 0);
	cr_expect_eq(p->t.n_indices, 0);
	done(p);

	p = PARSE("# only\n# comments\n\n");
	expect_no_issues(p);
	cr_expect_eq(p->t.n_docs, 0);
	cr_expect_eq(p->t.n_indices, 0);
	done(p);

	p = PARSE("---\n---\n# c\n---\n");
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_eq(p->t.n_indices, 3);
	for (size_t i = 0; i < 3; i++) {
		cr_expect_null(p->t.docs[i]->root, "document %zu is empty", i);
		cr_expect_eq(p->t.docs[i]->index, i);
	}
	done(p);

	p = PARSE("--- ''\n--- !!null\n--- &a\n");
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_not_null(p->t.docs[0]->root, "a quoted empty string is a value");
	done(p);
}

Test(tree_docs, invalid_utf8_in_document_3)
{
	parsed *p = PARSE("a: 1\n"       /* 0 */
			  "---\n"        /* 5 */
			  "b: 2\n"       /* 9 */
			  "---\n"        /* 14 */
			  "c: x\xFFy\n"  /* 18: the bad byte at 22 */
			  "---\n"
			  "d: 4\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 2, 22, "UTF-8");
	cr_expect_eq(i->end, 23, "the range is the one bad byte, not [%zu,%zu)", i->start, i->end);
	cr_assert_eq(p->t.n_docs, 3);
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 0), "a")), "1");
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 1), "b")), "2");
	cr_expect_eq(p->t.docs[1]->index, 1);
	cr_expect_eq(p->t.docs[2]->index, 3);
	cr_expect_eq(p->t.n_indices, 4);
	done(p);
}

Test(tree_docs, invalid_utf8_on_a_document_start_line)
{
	parsed *p = PARSE("a: 1\n"          /* 0 */
			  "---\n"           /* 5 */
			  "b: 2\n"          /* 9 */
			  "--- \xFF\n"      /* 14: the bad byte at 18 */
			  "---\n"
			  "d: 4\n");
	expect_one_issue(p, "yaml-syntax", 2, 18, "UTF-8");
	cr_assert_eq(p->t.n_docs, 3, "documents 0 and 1 are whole and kept");
	cr_expect_str_eq(sl_scalar(sl_map_get(root(p, 1), "b")), "2");
	cr_expect_eq(p->t.docs[2]->index, 3);
	cr_expect_eq(p->t.n_indices, 4);
	done(p);
}

Test(tree_docs, invalid_utf8_inside_a_multiline_flow)
{
	/* Whatever construct the bad byte interrupts, the finding is the bad byte itself. */
	parsed *p = PARSE("a: 1\n---\nc: [1,\n 2\xFF]\n---\nd: 4\n");
	expect_one_issue(p, "yaml-syntax", 1, 18, "UTF-8");
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.docs[1]->index, 2);
	done(p);
}

Test(tree_docs, nul_byte)
{
	parsed *p = PARSE("a: 1\n---\nb: x\0y\n---\nc: 3\n");
	const struct issue *i = expect_one_issue(p, "yaml-syntax", 1, 13, "NUL");
	cr_expect_eq(i->end, 14);
	cr_assert_eq(p->t.n_docs, 2);
	cr_expect_eq(p->t.docs[1]->index, 2);
	done(p);
}

Test(tree_docs, utf16_file)
{
	parsed *p = PARSE("\xFF\xFE" "a\0:\0 \0" "1\0\n\0");
	expect_one_issue(p, "yaml-syntax", 0, 0, "UTF-16");
	cr_expect_eq(p->t.n_docs, 0);
	cr_expect_eq(p->t.n_indices, 1);
	done(p);
}

/* --- limits: depth, aliases -------------------------------------------------------------- */

static char *repeat2(const char *open, size_t n, const char *close, const char *tail, size_t *len)
{
	size_t lo = strlen(open), lc = strlen(close), lt = strlen(tail);
	char *s = malloc(n * (lo + lc) + lt + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i++, k += lo)
		memcpy(s + k, open, lo);
	for (size_t i = 0; i < n; i++, k += lc)
		memcpy(s + k, close, lc);
	memcpy(s + k, tail, lt);
	k += lt;
	s[k] = '\0';
	*len = k;
	return s;
}

Test(tree_limits, flow_nesting_at_the_limit_is_fine)
{
	size_t len;
	char *s = repeat2("[", SL_MAX_DEPTH, "]", "\n", &len);
	parsed *p = parse_n(s, len);
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 1);
	const sl_node *n = root(p, 0);
	size_t depth = 1;
	while (n->u.seq.n) {
		n = item(n, 0);
		depth++;
	}
	cr_expect_eq(depth, SL_MAX_DEPTH);
	done(p);
	free(s);
}

Test(tree_limits, flow_nesting_one_past_the_limit)
{
	size_t len;
	char *s = repeat2("[", SL_MAX_DEPTH + 1, "]", "\n---\na: 1\n", &len);
	parsed *p = parse_n(s, len);
	expect_one_issue(p, "yaml-syntax", 0, SL_MAX_DEPTH, "deeper than 1000");
	cr_assert_eq(p->t.n_docs, 1, "the next document is still read");
	cr_expect_eq(p->t.docs[0]->index, 1);
	done(p);
	free(s);
}

Test(tree_limits, block_nesting_100000)
{
	size_t len;
	char *s = repeat2("- ", 100000, "", "x\n---\na: 1\n", &len);
	parsed *p = parse_n(s, len);
	expect_one_issue(p, "yaml-syntax", 0, 2 * SL_MAX_DEPTH, "deeper than 1000");
	cr_expect_lt(p->secs, 1.0, "took %.2fs", p->secs);
	cr_assert_eq(p->t.n_docs, 1);
	cr_expect_eq(p->t.docs[0]->index, 1);
	done(p);
	free(s);
}

Test(tree_limits, block_mapping_nesting)
{
	/* Indented mappings: k:\n  k:\n    k:... (the text grows quadratically: 1500 levels). */
	size_t n = 1500, k = 0;
	char *s = malloc(n * (n + 8));
	for (size_t i = 0; i < n; i++) {
		memset(s + k, ' ', i);
		k += i;
		memcpy(s + k, "k:\n", 3);
		k += 3;
	}
	parsed *p = parse_n(s, k);
	/* The 1001st mapping starts on line 1000 (0-based), at column 1000. */
	size_t want = (size_t)SL_MAX_DEPTH * (SL_MAX_DEPTH - 1) / 2 + 3 * SL_MAX_DEPTH + SL_MAX_DEPTH;
	expect_one_issue(p, "yaml-syntax", 0, want, "deeper than 1000");
	cr_expect_eq(p->t.n_docs, 0);
	done(p);
	free(s);
}

Test(tree_limits, flow_nesting_100000)
{
	size_t len;
	char *s = repeat2("[", 100000, "]", "\n", &len);
	parsed *p = parse_n(s, len);
	expect_one_issue(p, "yaml-syntax", 0, SL_MAX_DEPTH, "deeper than 1000");
	cr_expect_lt(p->secs, 1.0, "100000 flow levels took %.2fs", p->secs);
	cr_expect_eq(p->t.n_docs, 0);
	cr_expect_eq(p->t.n_indices, 1);
	done(p);
	free(s);
}

Test(tree_limits, flow_mapping_nesting_100000)
{
	size_t len;
	char *s = repeat2("{a: ", 100000, "}", "\n", &len);
	parsed *p = parse_n(s, len);
	expect_one_issue(p, "yaml-syntax", 0, 4 * SL_MAX_DEPTH, "deeper than 1000");
	cr_expect_lt(p->secs, 1.0, "100000 flow mapping levels took %.2fs", p->secs);
	done(p);
	free(s);
}

Test(tree_limits, billion_laughs_is_not_expanded)
{
	parsed *p = PARSE("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
			  "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
			  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
			  "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
			  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
			  "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
			  "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
			  "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
			  "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n");
	expect_no_issues(p);
	cr_expect_lt(p->secs, 0.5);
	cr_expect_lt(sl_arena_used(p->a), 256u * 1024u, "arena used %zu bytes", sl_arena_used(p->a));
	const sl_node *r = root(p, 0);
	const sl_node *i = raw(r, "i");
	cr_assert_eq(i->u.seq.n, 9);
	for (size_t k = 0; k < 9; k++) {
		cr_expect_eq(item(i, k)->type, SL_NODE_ALIAS);
		cr_expect_eq(item(i, k)->u.alias.target, raw(r, "h"));
		cr_expect_eq(item(i, k)->parent, i);
	}
	cr_expect_eq(sl_node_deref(item(i, 0))->type, SL_NODE_SEQ);
	done(p);
}

static char *alias_doc(size_t n_aliases, size_t *len)
{
	char *s = malloc(32 + n_aliases * 4);
	cr_assert(s);
	size_t k = (size_t)sprintf(s, "a: &a x\nb: [");
	for (size_t i = 0; i < n_aliases; i++) {
		memcpy(s + k, i ? ",*a" : "*a", i ? 3 : 2);
		k += i ? 3 : 2;
	}
	k += (size_t)sprintf(s + k, "]\n");
	*len = k;
	return s;
}

Test(tree_limits, aliases_at_the_limit)
{
	size_t len;
	char *s = alias_doc(SL_MAX_ALIASES, &len);
	parsed *p = parse_n(s, len);
	expect_no_issues(p);
	cr_assert_eq(p->t.n_docs, 1);
	cr_expect_eq(raw(root(p, 0), "b")->u.seq.n, SL_MAX_ALIASES);
	done(p);
	free(s);
}

Test(tree_limits, more_than_10000_aliases)
{
	size_t len;
	char *s = alias_doc(SL_MAX_ALIASES + 1, &len);
	parsed *p = parse_n(s, len);
	/* The 10001st alias: after "a: &a x\nb: [" (12 bytes) and 10000 aliases. */
	expect_one_issue(p, "yaml-syntax", 0, 12 + 2 + 3 * (SL_MAX_ALIASES - 1) + 1,
			 "more than 10000 aliases");
	cr_expect_eq(p->t.n_docs, 0);
	cr_expect_eq(p->t.n_indices, 1);
	done(p);
	free(s);
}

Test(tree_limits, alias_limit_is_per_document)
{
	size_t len;
	char *one = alias_doc(SL_MAX_ALIASES - 10, &len);
	size_t total = 2 * len + 8;
	char *s = malloc(total);
	memcpy(s, one, len);
	memcpy(s + len, "---\n", 4);
	memcpy(s + len + 4, one, len);
	parsed *p = parse_n(s, 2 * len + 4);
	expect_no_issues(p);
	cr_expect_eq(p->t.n_docs, 2);
	done(p);
	free(s);
	free(one);
}

/* --- allocation failure ------------------------------------------------------------------ */

Test(tree_oom, every_failure_is_enomem_or_ok)
{
	static const char text[] = "a: &x {b: [1, 2, {c: d}], e: \"f\"}\n"
				   "g: *x\n"
				   "h: {<<: *x, i: j}\n"
				   "---\n"
				   "k: [\n"
				   "---\n"
				   "l: m\n";
	sl_source *src = NULL;
	cr_assert_eq(sl_source_from_buffer("t", text, sizeof text - 1, &src), SL_OK);
	int saw_enomem = 0, saw_ok = 0;
	for (unsigned long n = 1; n <= 60; n++) {
		sl_arena *a = sl_arena_new();
		cr_assert_not_null(a);
		parsed sink = {0};
		sl_tree t;
		sl_arena_fail_after(n);
		sl_err err = sl_tree_parse(src, a, &t, on_issue, &sink);
		sl_arena_fail_after(0);
		cr_expect(err == SL_OK || err == SL_ENOMEM, "failure %lu: %s", n, sl_strerror(err));
		if (err == SL_ENOMEM)
			saw_enomem = 1;
		else
			saw_ok = 1;
		sl_arena_free(a);
	}
	cr_expect(saw_enomem);
	cr_expect(saw_ok, "60 allocations are enough to finish");
	sl_source_free(src);
}

/* --- pruned copies (sl_tree_copy, what the index keeps of a runtime) --- */

Test(tree_copy, keeps_the_named_paths_and_the_way_to_them)
{
	parsed *p = PARSE("kind: ServingRuntime\n"
			  "metadata: {name: rt, labels: {a: b}}\n"
			  "spec:\n"
			  "  containers:\n"
			  "    - name: c0\n"
			  "      image: x\n"
			  "      resources: {limits: {nvidia.com/gpu: 1}}\n"
			  "    - name: c1\n"
			  "      ports: [{containerPort: 80}]\n"
			  "  tolerations: [{key: gpu, effect: NoSchedule}]\n"
			  "  supportedModelFormats: [{name: sklearn}]\n");
	static const char *const keep[] = {"/kind", "/metadata/name", "/spec/tolerations",
					   "/spec/containers/*/resources"};
	sl_arena *a = sl_arena_new();
	sl_doc *d = NULL;
	cr_assert_eq(sl_tree_copy(a, p->t.docs[0], NULL, keep, 4, NULL, NULL, &d), SL_OK);
	cr_assert_not_null(d);
	cr_expect_null(d->src);
	cr_expect_eq(d->index, 0);
	const sl_node *r = d->root;
	cr_expect_eq(r->u.map.n, 3, "kind, metadata and spec");
	cr_expect_str_eq(sl_scalar(sl_map_get(r, "kind")), "ServingRuntime");
	const sl_node *md = sl_map_get(r, "metadata");
	cr_expect_str_eq(sl_scalar(sl_map_get(md, "name")), "rt");
	cr_expect_null(sl_map_get(md, "labels"));
	const sl_node *spec = sl_map_get(r, "spec");
	cr_expect_null(sl_map_get(spec, "supportedModelFormats"));
	const sl_node *tol = sl_seq_item(sl_map_get(spec, "tolerations"), 0);
	cr_expect_str_eq(sl_scalar(sl_map_get(tol, "effect")), "NoSchedule");
	const sl_node *cs = sl_map_get(spec, "containers");
	cr_assert_eq(sl_seq_n(cs), 1, "c1 has no resources: nothing of it is kept");
	const sl_node *c0 = sl_seq_item(cs, 0);
	cr_expect_null(sl_map_get(c0, "image"));
	cr_expect_null(sl_map_get(c0, "name"));
	const sl_node *gpu = sl_map_get(sl_map_get(sl_map_get(c0, "resources"), "limits"),
					"nvidia.com/gpu");
	cr_assert_not_null(gpu);
	cr_expect_eq(sl_scalar_type(gpu), SL_Y_INT);
	/* positions, parents and pointers as in the original */
	const sl_node *orig = sl_map_get(sl_map_get(sl_map_get(sl_seq_item(sl_map_get(sl_map_get(
		p->t.docs[0]->root, "spec"), "containers"), 0), "resources"), "limits"), "nvidia.com/gpu");
	cr_expect_eq(gpu->start, orig->start);
	cr_expect_eq(gpu->end, orig->end);
	cr_expect_eq(sl_node_doc(gpu), d);
	char *ptr = sl_node_pointer(gpu, a);
	cr_expect_str_eq(ptr, "/spec/containers/0/resources/limits/nvidia.com~1gpu");
	sl_arena_free(a);
	done(p);
}

/* A pattern's segment matches a key by all its bytes: keys that share its first byte, a prefix
** of it or that it is a prefix of, are not it; an empty segment is the empty key. */
Test(tree_copy, a_segment_is_the_whole_key)
{
	parsed *p = PARSE("spec: {c: 1, cx: 2, containers: [{name: n, nom: m}], co: 3}\n"
			  "ab: 1\na: 2\nac: 4\nabc: 5\n\"\": {x: 5, y: 6}\n");
	expect_no_issues(p);
	static const char *const keep[] = {"/spec/c", "/spec/containers/*/name", "/ab", "//x"};
	sl_arena *a = sl_arena_new();
	sl_doc *d = NULL;
	cr_assert_eq(sl_tree_copy(a, p->t.docs[0], NULL, keep, 4, NULL, NULL, &d), SL_OK);
	cr_assert_not_null(d);
	const sl_node *r = d->root;
	cr_expect_eq(sl_map_n(r), 3, "spec, ab and the empty key");
	const sl_node *spec = sl_map_get(r, "spec");
	cr_expect_eq(sl_map_n(spec), 2, "c and containers");
	cr_expect_str_eq(sl_scalar(sl_map_get(spec, "c")), "1");
	const sl_node *c0 = sl_seq_item(sl_map_get(spec, "containers"), 0);
	cr_expect_eq(sl_map_n(c0), 1);
	cr_expect_str_eq(sl_scalar(sl_map_get(c0, "name")), "n");
	cr_expect_str_eq(sl_scalar(sl_map_get(r, "ab")), "1");
	const sl_node *e = sl_map_get(r, "");
	cr_expect_eq(sl_map_n(e), 1);
	cr_expect_str_eq(sl_scalar(sl_map_get(e, "x")), "5");
	sl_arena_free(a);
	done(p);
}

Test(tree_copy, whole_document_and_what_stops_a_copy)
{
	parsed *p = PARSE("a: &x {b: 1}\nc: [1, 2, {d: e}]\n---\ne: &y 2\nf: *y\ng: 1\n---\n"
			  "h: {<<: {i: 1}}\n");
	cr_assert_eq(p->t.n_docs, 3);
	sl_arena *a = sl_arena_new();
	sl_doc *d = NULL;
	cr_assert_eq(sl_tree_copy(a, p->t.docs[0], NULL, NULL, 0, NULL, NULL, &d), SL_OK);
	cr_assert_not_null(d);
	cr_expect_str_eq(sl_scalar(sl_map_get(sl_seq_item(sl_map_get(d->root, "c"), 2), "d")), "e");
	cr_expect_null(sl_node_anchor(sl_map_get(d->root, "a")), "an anchor means nothing in a copy");
	/* an alias on a kept path: no copy */
	cr_assert_eq(sl_tree_copy(a, p->t.docs[1], NULL, NULL, 0, NULL, NULL, &d), SL_OK);
	cr_expect_null(d);
	/* ...but one off the kept paths is never looked at */
	static const char *const g[] = {"/g"};
	cr_assert_eq(sl_tree_copy(a, p->t.docs[1], NULL, g, 1, NULL, NULL, &d), SL_OK);
	cr_assert_not_null(d);
	cr_expect_eq(d->root->u.map.n, 1);
	cr_expect_str_eq(sl_scalar(sl_map_get(d->root, "g")), "1");
	/* a merge key on the way to a kept path would hide keys from the patterns */
	static const char *const i[] = {"/h/i"};
	cr_assert_eq(sl_tree_copy(a, p->t.docs[2], NULL, i, 1, NULL, NULL, &d), SL_OK);
	cr_expect_null(d);
	static const char *const many[33] = {0};
	cr_expect_eq(sl_tree_copy(a, p->t.docs[0], NULL, many, 33, NULL, NULL, &d), SL_EUSAGE);
	sl_arena_free(a);
	done(p);
}

static bool starts_with_g(void *payload, const sl_node *key)
{
	(void)payload;
	return sl_scalar(key)[0] == 'g';
}

Test(tree_copy, a_filter_picks_the_keys_of_a_mapping)
{
	parsed *p = PARSE("r: {limits: {cpu: 1, gpu: 2, gx: [3]}}\ns: [{gpu: 1}]\n");
	static const char *const keep[] = {"/r/limits/=", "/s/="};
	sl_arena *a = sl_arena_new();
	sl_doc *d = NULL;
	cr_assert_eq(sl_tree_copy(a, p->t.docs[0], NULL, keep, 2, starts_with_g, NULL, &d), SL_OK);
	cr_assert_not_null(d);
	const sl_node *lim = sl_map_get(sl_map_get(d->root, "r"), "limits");
	cr_expect_eq(sl_map_n(lim), 2);
	cr_expect_null(sl_map_get(lim, "cpu"));
	cr_expect_str_eq(sl_scalar(sl_map_get(lim, "gpu")), "2");
	cr_expect_eq(sl_seq_n(sl_map_get(lim, "gx")), 1, "a kept key keeps its whole value");
	cr_expect_null(sl_map_get(d->root, "s"), "`=` names keys, never items: s keeps nothing");
	/* without a filter, `=` keeps nothing, and nothing on the way to it is kept either */
	cr_assert_eq(sl_tree_copy(a, p->t.docs[0], NULL, keep, 2, NULL, NULL, &d), SL_OK);
	cr_expect_eq(sl_map_n(d->root), 0);
	sl_arena_free(a);
	done(p);
}
