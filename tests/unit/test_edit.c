/* SPDX-License-Identifier: Apache-2.0
** test_edit.c: the edit module (src/yaml/edit.c) on its own: style detection, edit validation and application,
** rendering of inserted entries and items in the file's style, removals (the unified diffs of
** fixed files are test_diff.c's). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "yaml/edit.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"

struct doc { sl_source *src; sl_arena *a; sl_tree t; sl_style st; };

static struct doc *parse(const char *text)
{
	struct doc *d = calloc(1, sizeof *d);
	cr_assert_eq(sl_source_from_buffer("t.yaml", text, strlen(text), &d->src), SL_OK);
	d->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(d->src, d->a, &d->t, NULL, NULL), SL_OK);
	cr_assert_geq(d->t.n_docs, 1);
	sl_edit_style_detect(d->src, &d->st);
	return d;
}

static void done(struct doc *d)
{
	sl_arena_free(d->a);
	sl_source_free(d->src);
	free(d);
}

/* The node at a path of keys from the root ("spec", "x", NULL). */
static const sl_node *at(struct doc *d, const char *const *keys)
{
	const sl_node *n = d->t.docs[0]->root;
	for (; *keys; keys++)
		n = sl_map_get(n, *keys);
	cr_assert(n, "path not found");
	return n;
}

/* Applies one insertion or replacement and returns the new text (malloc'd). */
static char *apply1(struct doc *d, size_t off, size_t len, const char *content)
{
	sl_edit e = {.path = "t.yaml", .offset = off, .length = len, .content = content};
	const sl_edit *v[1] = {&e};
	char *out;
	size_t n;
	cr_assert_eq(sl_edit_apply(d->src->data, d->src->len, v, 1, &out, &n), SL_OK);
	return out;
}

Test(fix, style_detection)
{
	struct doc *d = parse("a:\n    b:\n        c: 1\n    l:\n    - x\n");
	cr_expect_eq(d->st.indent, 4);
	cr_expect_not(d->st.indent_sequences, "an indentless file");
	cr_expect_eq(d->st.quote, '"');
	cr_expect_str_eq(SL_STYLE_EOL(&d->st), "\n");
	done(d);
	d = parse("a:\r\n  l:\r\n    - 'x'\r\n    - 'y'\r\n");
	cr_expect_eq(d->st.indent, 2);
	cr_expect(d->st.indent_sequences);
	cr_expect_eq(d->st.quote, '\'');
	cr_expect_str_eq(SL_STYLE_EOL(&d->st), "\r\n");
	done(d);
	/* indents of eight and more (counted eight at a time), a value's quote after the first
	** ": " of its line, not after a ':' inside its key */
	d = parse("a:\n        b:\n                c: 'x'\n                d: \"http://h:80\"\n"
		  "                e:f: 'q'\n                g:h:\n                         i: 1\n");
	cr_expect_eq(d->st.indent, 8);
	cr_expect_eq(d->st.quote, '\'', "two single-quoted values, one double");
	done(d);
}

/* The scan's shortcuts: a file's '#' looked for once, not per line (a comment that ends a key's
** line opens a block; a '#' inside a word is not a comment); indents counted eight bytes at a
** time (5 and 10 spaces); CRLF line ends. */
Test(fix, style_detection_comments_and_indents)
{
	struct doc *d = parse("# top: 'q'\nb:\n    c: x#y\n    d: # note\n         e: 'v'\n"
			      "    h: # n\n         i: \"w\"\n         j: 'u'\n");
	cr_expect_eq(d->st.indent, 5, "d: and h: (their comments cut) open blocks of 5, b: one of 4");
	cr_expect_eq(d->st.quote, '\'');
	done(d);
	d = parse("a:\r\n   b:\r\n      c: \"x\" # 'y'\r\n");
	cr_expect_eq(d->st.indent, 3);
	cr_expect_eq(d->st.quote, '"', "the quote in the comment is not a value's");
	cr_expect(d->st.crlf);
	done(d);
}

Test(fix, map_entry_follows_indent_and_nesting)
{
	struct doc *d = parse("spec:\n    resources:\n        requests:\n            cpu: 1 # one\nnext: 2\n");
	static const char *const path[] = {"spec", "resources", NULL};
	size_t off;
	const char *t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, path), "limits",
					    "nvidia.com/gpu: 1", &off);
	cr_assert(t);
	char *out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "spec:\n    resources:\n        requests:\n            cpu: 1 # one\n"
			      "        limits:\n            nvidia.com/gpu: 1\nnext: 2\n");
	free(out);
	done(d);
}

Test(fix, sequence_fragment_indentless_and_indented)
{
	const char *frag = "- key: nvidia.com/gpu\n  operator: Exists";
	struct doc *d = parse("spec:\n  a:\n  - x\n  b: 1\n");
	static const char *const path[] = {"spec", NULL};
	size_t off;
	const char *t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, path), "tolerations", frag, &off);
	char *out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "spec:\n  a:\n  - x\n  b: 1\n  tolerations:\n  - key: nvidia.com/gpu\n"
			      "    operator: Exists\n");
	free(out);
	done(d);
	d = parse("spec:\n  a:\n    - x\n  b: 1\n");
	t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, path), "tolerations", frag, &off);
	out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "spec:\n  a:\n    - x\n  b: 1\n  tolerations:\n    - key: nvidia.com/gpu\n"
			      "      operator: Exists\n");
	free(out);
	done(d);
}

Test(fix, sequence_item_crlf)
{
	struct doc *d = parse("t:\r\n  - key: a\r\n    operator: Exists\r\nz: 1\r\n");
	static const char *const path[] = {"t", NULL};
	size_t off;
	const char *t = sl_edit_render_seq_item(d->a, d->src, &d->st, at(d, path),
					   "key: b\noperator: Exists", &off);
	cr_assert(t);
	char *out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "t:\r\n  - key: a\r\n    operator: Exists\r\n  - key: b\r\n    operator: Exists\r\nz: 1\r\n");
	free(out);
	done(d);
}

Test(fix, flow_collections)
{
	struct doc *d = parse("m: {a: 1}\ns: [x]\ne: {}\n");
	static const char *const m[] = {"m", NULL}, *const s[] = {"s", NULL}, *const e[] = {"e", NULL};
	size_t off;
	const char *t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, m), "b", "2", &off);
	char *out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "m: {a: 1, b: 2}\ns: [x]\ne: {}\n");
	free(out);
	cr_expect_null(sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, m), "b", "c: 1\nd: 2", &off),
		       "a block fragment into a flow mapping is declined");
	/* a one-entry mapping fragment goes in as a flow mapping; one a flow would misread is
	** declined */
	t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, m), "limits", "nvidia.com/gpu: 1",
				     &off);
	out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "m: {a: 1, limits: {nvidia.com/gpu: 1}}\ns: [x]\ne: {}\n");
	free(out);
	static const char *const misread[] = {"k: a,b", "k: [x]", "k: v # c", "- k: v", "k: v: w",
					      "k:", "&a k: v"};
	for (size_t i = 0; i < sizeof misread / sizeof *misread; i++)
		cr_expect_null(sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, m), "b", misread[i],
							&off), "%s", misread[i]);
	t = sl_edit_render_seq_item(d->a, d->src, &d->st, at(d, s), "key: y", &off);
	out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "m: {a: 1}\ns: [x, {key: y}]\ne: {}\n");
	free(out);
	t = sl_edit_render_map_entry(d->a, d->src, &d->st, at(d, e), "k", "v", &off);
	out = apply1(d, off, 0, t);
	cr_expect_str_eq(out, "m: {a: 1}\ns: [x]\ne: {k: v}\n");
	free(out);
	done(d);
}

Test(fix, removals)
{
	struct doc *d = parse("t:\n  - key: a   # keep me?\n    operator: Exists\n  - key: b\nm: {x: 1, y: 2}\n");
	static const char *const t[] = {"t", NULL}, *const m[] = {"m", NULL};
	size_t s, e;
	cr_assert(sl_edit_render_removal(d->src, sl_node_deref(at(d, t))->u.seq.items[0], &s, &e));
	char *out = apply1(d, s, e - s, "");
	cr_expect_str_eq(out, "t:\n  - key: b\nm: {x: 1, y: 2}\n");
	free(out);
	const sl_node *mm = at(d, m);
	cr_assert(sl_edit_render_removal(d->src, mm->u.map.pairs[0].key, &s, &e));
	out = apply1(d, s, e - s, "");
	cr_expect_str_eq(out, "t:\n  - key: a   # keep me?\n    operator: Exists\n  - key: b\nm: {y: 2}\n");
	free(out);
	cr_assert(sl_edit_render_removal(d->src, mm->u.map.pairs[1].value, &s, &e));
	out = apply1(d, s, e - s, "");
	cr_expect_str_eq(out, "t:\n  - key: a   # keep me?\n    operator: Exists\n  - key: b\nm: {x: 1}\n");
	free(out);
	/* the first key of a sequence item's mapping does not stand on its own line: declined */
	const sl_node *item = sl_node_deref(at(d, t))->u.seq.items[0];
	cr_expect_not(sl_edit_render_removal(d->src, sl_node_deref(item)->u.map.pairs[0].key, &s, &e));
	done(d);
}

Test(fix, edits_are_validated)
{
	const char *text = "abcdef";
	sl_edit a = {.path = "p", .offset = 1, .length = 2, .content = "X"};
	sl_edit b = {.path = "p", .offset = 2, .length = 2, .content = "Y"};
	sl_edit c = {.path = "p", .offset = 5, .length = 3, .content = "Z"};
	sl_edit i1 = {.path = "p", .offset = 4, .length = 0, .content = "1"};
	sl_edit i2 = {.path = "p", .offset = 4, .length = 0, .content = "2"};
	char *out;
	size_t n;
	const sl_edit *ov[2] = {&a, &b};
	cr_expect_eq(sl_edit_apply(text, 6, ov, 2, &out, &n), SL_EUSAGE, "overlapping edits");
	const sl_edit *oob[1] = {&c};
	cr_expect_eq(sl_edit_apply(text, 6, oob, 1, &out, &n), SL_EUSAGE, "an edit past the end");
	cr_expect(sl_edit_overlap(&i1, &i2), "two insertions at one offset are ambiguous");
	const sl_edit *ok[2] = {&i1, &a};   /* given out of order */
	cr_assert_eq(sl_edit_apply(text, 6, ok, 2, &out, &n), SL_OK);
	cr_expect_str_eq(out, "aXd1ef");
	cr_expect_eq(n, 6);
	free(out);
	sl_edit other = {.path = "q", .offset = 1, .length = 2, .content = ""};
	cr_expect_not(sl_edit_overlap(&a, &other), "edits of different files never overlap");
}

static void count_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			const char *message)
{
	(void)rule, (void)doc, (void)start, (void)end, (void)message;
	++*(int *)payload;
}

/* The scalar a value reads back as when rendered into `{k: X}` (flow) and `k: X` (block). */
static void expect_round_trip(const char *value, char quote)
{
	sl_arena *a = sl_arena_new();
	const char *r = sl_edit_render_scalar(a, quote, value);
	cr_assert_not_null(r, "\"%s\" rendered", value);
	char flow[512], block[512];
	snprintf(flow, sizeof flow, "m: {k: %s, z: 1}\n", r);
	snprintf(block, sizeof block, "m:\n  k: %s\n  z: 1\n", r);
	const char *texts[] = {flow, block};
	for (int i = 0; i < 2; i++) {
		sl_source *src;
		sl_tree t;
		int issues = 0;
		cr_assert_eq(sl_source_from_buffer("t.yaml", texts[i], strlen(texts[i]), &src), SL_OK);
		sl_arena *ta = sl_arena_new();
		cr_assert_eq(sl_tree_parse(src, ta, &t, count_issue, &issues), SL_OK);
		cr_expect_eq(issues, 0, "%s: parses", texts[i]);
		cr_assert_eq(t.n_docs, 1, "%s", texts[i]);
		const sl_node *m = sl_map_get(t.docs[0]->root, "m");
		const sl_node *k = sl_map_get(m, "k");
		cr_assert_not_null(k, "%s", texts[i]);
		cr_expect_str_eq(sl_scalar(k), value, "%s", texts[i]);
		cr_expect_eq(sl_scalar_type(k), SL_Y_STR, "%s: a string", texts[i]);
		cr_expect(sl_scalar_is(sl_map_get(m, "z"), "1"), "%s: the next key survives", texts[i]);
		sl_arena_free(ta);
		sl_source_free(src);
	}
	sl_arena_free(a);
}

Test(fix, inserted_values_are_valid_scalars)
{
	/* plain when that is safe in both contexts and stays a string */
	sl_arena *a = sl_arena_new();
	cr_expect_str_eq(sl_edit_render_scalar(a, '"', "web"), "web");
	cr_expect_str_eq(sl_edit_render_scalar(a, '"', "nvidia.com/gpu"), "nvidia.com/gpu");
	cr_expect_str_eq(sl_edit_render_scalar(a, '"', "web]"), "\"web]\"");
	cr_expect_str_eq(sl_edit_render_scalar(a, '\'', "it's"), "'it''s'");
	cr_expect_str_eq(sl_edit_render_scalar(a, '\'', "a\nb"), "\"a\\x0Ab\"");
	cr_expect_str_eq(sl_edit_render_scalar(a, '"', "a\"b\\c"), "\"a\\\"b\\\\c\"");
	cr_expect_null(sl_edit_render_scalar(a, '"', "x\xFFy"), "not UTF-8: no YAML holds it");
	sl_arena_free(a);
	static const char *const values[] = {
		"web]", "web}", "a, b", "a: b", "a #b", "#x", "- x", "[x]", "{x}", "&x", "*x", "!x",
		"|x", ">x", "%x", "@x", "`x", "'x", "\"x", "x'", "true", "True", "yes", "No", "on",
		"OFF", "y", "n", "null", "~", "", " x", "x ", "123", "0x1F", "1e3", ".inf", "-1",
		"2024-01-01", "1:20", "<<", "=", "?x", "a\\b", "a\"b", "it's", "tab\there",
		"line\nbreak", "cr\rx", "esc\033[31m", "nel\xC2\x85x", "ls\xE2\x80\xA8x", "é ü 日本",
		"web", "app.kubernetes.io/name", NULL,
	};
	for (size_t i = 0; values[i]; i++) {
		expect_round_trip(values[i], '"');
		expect_round_trip(values[i], '\'');
	}
}
