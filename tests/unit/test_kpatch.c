/* SPDX-License-Identifier: Apache-2.0
** test_kpatch.c: JSON 6902 patches on knode trees (src/render/kpatch.c) as kustomize applies them
** with evanphx/json-patch v4: what each operation does (a replace of a missing key adds it,
** negative indices, "-", copy and move, test by JSON value and type, "~1" in a token) and the
** library's error texts, which kubectl kustomize prints as they are (each expected text below
** is what kubectl kustomize, kustomize v5.5.0, printed for the same operation). Without kubectl
** on the machine this is what keeps the builder to kustomize's JSON patch semantics. And the
** parser's limits on what operations and aliases make (kpatch.c, knode.c). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "render/knode.h"
#include "render/kpatch.h"
#include "yaml/yaml_tree.h"

static const char obj_yaml[] =
	"kind: Deployment\n"
	"metadata:\n"
	"  name: ranker\n"
	"  labels:\n"
	"    app.kubernetes.io/name: ranker\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      containers:\n"
	"      - name: main\n"
	"        resources:\n"
	"          limits:\n"
	"            nvidia.com/gpu: 1\n"
	"      - name: metrics\n";

struct run {
	sl_arena *a;
	sl_source *srcs[2];
	sl_knode *obj;   /* the object afterwards */
	int rc;
	const char *why;
};

static sl_knode *load(struct run *r, int i, const char *yaml)
{
	sl_tree t;
	cr_assert_eq(sl_source_from_buffer(i ? "ops.yaml" : "obj.yaml", yaml, strlen(yaml),
					   &r->srcs[i]), SL_OK);
	cr_assert_eq(sl_tree_parse(r->srcs[i], r->a, &t, NULL, NULL), SL_OK);
	cr_assert(t.n_docs >= 1 && t.docs[0]->root);
	const char *why;
	return sl_knode_load(r->a, t.docs[0]->root, r->srcs[i], &why);
}

/* Applies ops (YAML) to the object above. */
static struct run apply(const char *ops)
{
	struct run r = {sl_arena_new(), {NULL, NULL}, NULL, 0, NULL};
	cr_assert_not_null(r.a);
	r.obj = load(&r, 0, obj_yaml);
	const sl_knode *at = NULL;
	r.rc = sl_kpatch_json6902(r.a, r.obj, load(&r, 1, ops), &r.why, &at);
	return r;
}

/* The node at path ("spec/replicas", "spec/template/spec/containers/0/name") of the object
** afterwards: a scalar's text, "(n items)" for a sequence, "(map)", or "(absent)". */
static const char *at(const struct run *r, const char *path)
{
	static char buf[64];
	const sl_knode *n = r->obj;
	char *dup = strdup(path), *save = NULL;
	for (char *t = strtok_r(dup, "/", &save); n && t; t = strtok_r(NULL, "/", &save))
		n = n->type == SL_NODE_SEQ ? ((size_t)atoi(t) < n->n ? n->v[atoi(t)] : NULL)
					   : sl_knode_get(n, t, NULL);
	free(dup);
	if (!n)
		return "(absent)";
	if (n->type == SL_NODE_SEQ) {
		snprintf(buf, sizeof buf, "(%zu items)", n->n);
		return buf;
	}
	return n->type == SL_NODE_MAP ? "(map)" : n->s;
}

static void done(struct run *r)
{
	sl_source_free(r->srcs[0]);
	sl_source_free(r->srcs[1]);
	sl_arena_free(r->a);
}

#define REFUSED(ops, want) do { \
	struct run r_ = apply(ops); \
	cr_expect_eq(r_.rc, 1, "%s", ops); \
	cr_expect_str_eq(r_.why ? r_.why : "(none)", want); \
	done(&r_); \
} while (0)

/* ops build; then each pair of path and text holds */
#define BUILT(ops, ...) do { \
	struct run r_ = apply(ops); \
	cr_expect_eq(r_.rc, 0, "%s: %s", ops, r_.why ? r_.why : ""); \
	const char *want_[] = {__VA_ARGS__}; \
	for (size_t i_ = 0; i_ + 1 < sizeof want_ / sizeof *want_; i_ += 2) \
		cr_expect_str_eq(at(&r_, want_[i_]), want_[i_ + 1], "%s: %s", ops, want_[i_]); \
	done(&r_); \
} while (0)

#define C "spec/template/spec/containers/"

Test(json6902, a_replace_of_a_missing_key_adds_it)
{
	BUILT("- {op: replace, path: /spec/replicas, value: 3}\n", "spec/replicas", "3");
	BUILT("- {op: replace, path: /" C "1/image, value: m:2}\n", C "1/image", "m:2");
}

Test(json6902, indices_dash_negative_and_escaped_tokens)
{
	BUILT("- {op: add, path: /" C "-, value: {name: tracer}}\n"
	      "- {op: add, path: /" C "0, value: {name: warmup}}\n"
	      "- {op: remove, path: /" C "-1}\n"
	      "- {op: replace, path: /metadata/labels/app.kubernetes.io~1name, value: gpu}\n"
	      "- {op: add, path: /" C "-3, value: {name: first}}\n",
	      /* -3 inserts before what is at 4 - 3, as kubectl does */
	      "spec/template/spec/containers", "(4 items)", C "0/name", "warmup",
	      C "1/name", "first", C "2/name", "main", C "3/name", "metrics",
	      "metadata/labels/app.kubernetes.io", "(absent)");
	struct run r = apply("- {op: replace, path: /metadata/labels/app.kubernetes.io~1name, "
			     "value: gpu}\n");
	const sl_knode *labels = sl_knode_get(sl_knode_get(r.obj, "metadata", NULL), "labels", NULL);
	cr_expect_str_eq(sl_knode_str(labels, "app.kubernetes.io/name"), "gpu");
	done(&r);
}

Test(json6902, copy_move_and_tests_that_hold)
{
	BUILT("- {op: test, path: /" C "0/resources/limits/nvidia.com~1gpu, value: 1}\n"
	      "- {op: test, path: /metadata/name, value: ranker}\n"
	      "- {op: test, path: /spec/replicas, value: null}\n"
	      "- {op: copy, from: /metadata/name, path: /" C "1/image}\n"
	      "- {op: move, from: /metadata/labels, path: /spec/selector}\n",
	      C "1/image", "ranker", "metadata/labels", "(absent)", "spec/selector", "(map)",
	      "metadata/name", "ranker");
}

Test(json6902, what_kubectl_refuses_in_its_words)
{
	REFUSED("- {op: replace, path: /spec/strategy/type, value: Recreate}\n",
		"replace operation does not apply: doc is missing path: /spec/strategy/type: missing value");
	REFUSED("- {op: replace, path: /spec/template/spec/containers/2, value: {name: x}}\n",
		"replace operation does not apply: doc is missing key: /spec/template/spec/containers/2: "
		"missing value");
	REFUSED("- {op: replace, path: /spec/template/spec/containers/2/image, value: x}\n",
		"replace operation does not apply: doc is missing path: "
		"/spec/template/spec/containers/2/image: missing value");
	REFUSED("- {op: remove, path: /spec/replicas}\n",
		"error in remove for path: '/spec/replicas': Unable to remove nonexistent key: replicas: "
		"missing value");
	REFUSED("- {op: remove, path: /spec/template/spec/containers/3}\n",
		"error in remove for path: '/spec/template/spec/containers/3': Unable to access invalid "
		"index: 3: invalid index referenced");
	REFUSED("- {op: add, path: /spec/strategy/type, value: Recreate}\n",
		"add operation does not apply: doc is missing path: \"/spec/strategy/type\": missing value");
	REFUSED("- {op: add, path: /spec/template/spec/containers/5, value: {name: x}}\n",
		"error in add for path: '/spec/template/spec/containers/5': Unable to access invalid index: "
		"5: invalid index referenced");
	REFUSED("- {op: test, path: /metadata/name, value: other}\n",
		"testing value /metadata/name failed: test failed");
	REFUSED("- {op: test, path: /spec/replicas, value: 1}\n",
		"testing value /spec/replicas failed: test failed");
	REFUSED("- {op: test, path: /" C "0/resources/limits/nvidia.com~1gpu, value: \"1\"}\n",
		"testing value /spec/template/spec/containers/0/resources/limits/nvidia.com~1gpu failed: "
		"test failed");
	REFUSED("- {op: frob, path: /spec}\n", "Unexpected kind: frob");
	REFUSED("- {op: move, from: /spec/nothing, path: /spec/x}\n",
		"error in move for path: 'nothing': Unable to remove nonexistent key: nothing: missing value");
	REFUSED("- {op: copy, from: /spec/none/x, path: /spec/x}\n",
		"copy operation does not apply: doc is missing from path: /spec/none/x: missing value");
}

Test(json6902, an_object_is_not_a_list_of_operations)
{
	struct run r = apply("op: add\npath: /spec/replicas\nvalue: 2\n");
	cr_expect_eq(r.rc, 1);
	done(&r);
}

/* Past the parser's limits (yaml_tree.h), a limit of schedlint's (2), never built: values nested
** in the previous operation's value deeper than SL_MAX_DEPTH levels, and copies of a list into
** itself past SL_MAX_MERGED nodes (each op doubles it: 2^30 nodes unbounded). */
Test(json6902, past_the_parsers_limits)
{
	size_t depth = 600, cap = 64 + 3 * 2 * depth + 64;
	char *ops = malloc(2 * cap), *value = malloc(cap);
	cr_assert(ops && value);
	memset(value, '[', depth);
	value[depth] = 'v';
	memset(value + depth + 1, ']', depth);
	value[2 * depth + 1] = '\0';
	char *deeper = malloc(2 * depth + 16);
	cr_assert_not_null(deeper);
	strcpy(deeper, "/x");
	for (size_t i = 0; i + 1 < depth; i++)   /* the innermost list of the first value */
		strcat(deeper, "/0");
	snprintf(ops, 2 * cap, "- {op: add, path: /x, value: %s}\n- {op: add, path: %s/0, value: %s}\n",
		 value, deeper, value);
	struct run r = apply(ops);
	cr_expect_eq(r.rc, 2, "%s", r.why ? r.why : "(none)");
	cr_expect(r.why && strstr(r.why, "deeper than 1000 levels"), "%s", r.why ? r.why : "");
	done(&r);
	free(ops);
	free(value);
	free(deeper);

	char doubling[4096] = "- {op: add, path: /x, value: [a, b, c, d]}\n";
	for (int i = 0; i < 30; i++)
		strcat(doubling, "- {op: copy, from: /x, path: /x/-}\n");
	r = apply(doubling);
	cr_expect_eq(r.rc, 2, "%s", r.why ? r.why : "(none)");
	cr_expect(r.why && strstr(r.why, "more than 1000000 nodes"), "%s", r.why ? r.why : "");
	done(&r);
}

/* What sl_knode_load makes of aliases is bounded as the parser bounds a document: a billion
** laughs (9 levels of 9 aliases: 9^9 leaves) stops at the aliases followed; a plain document and
** a few aliases load whole. */
Test(knode, alias_expansion_bounded)
{
	char bomb[4096] = "l0: &a0 [lol]\n";
	for (int lv = 1; lv <= 9; lv++) {
		char line[256];
		int n = snprintf(line, sizeof line, "l%d: &a%d [", lv, lv);
		for (int f = 0; f < 9; f++)
			n += snprintf(line + n, sizeof line - (size_t)n, "%s*a%d", f ? ", " : "", lv - 1);
		snprintf(line + n, sizeof line - (size_t)n, "]\n");
		strcat(bomb, line);
	}
	struct run r = {sl_arena_new(), {NULL, NULL}, NULL, 0, NULL};
	sl_tree t;
	cr_assert_eq(sl_source_from_buffer("bomb.yaml", bomb, strlen(bomb), &r.srcs[0]), SL_OK);
	cr_assert_eq(sl_tree_parse(r.srcs[0], r.a, &t, NULL, NULL), SL_OK);
	const char *why = NULL;
	cr_expect_null(sl_knode_load(r.a, t.docs[0]->root, r.srcs[0], &why));
	cr_expect(why && strstr(why, "more than 10000 aliases"), "%s", why ? why : "(none)");
	done(&r);

	static const char few[] = "base: &b {cpu: 1, gpu: [1, 2]}\nx: *b\ny: {<<: *b, cpu: 2}\n";
	r = (struct run){sl_arena_new(), {NULL, NULL}, NULL, 0, NULL};
	cr_assert_eq(sl_source_from_buffer("few.yaml", few, strlen(few), &r.srcs[0]), SL_OK);
	cr_assert_eq(sl_tree_parse(r.srcs[0], r.a, &t, NULL, NULL), SL_OK);
	sl_knode *k = sl_knode_load(r.a, t.docs[0]->root, r.srcs[0], &why);
	cr_assert_not_null(k);
	cr_expect_null(why);
	cr_expect_eq(sl_knode_get(sl_knode_get(k, "x", NULL), "gpu", NULL)->n, 2);
	cr_expect_str_eq(sl_knode_str(sl_knode_get(k, "y", NULL), "cpu"), "2");
	size_t nodes;
	cr_expect_eq(sl_knode_depth(k, 1000, &nodes, 1000000), 3);
	done(&r);
}

/* --- a build's text read back without libyaml (sl_knode_read) ------------------------------ */

/* True when nodes x (the parse's) and y (the reader's) agree in type, style, range and value. */
static bool same_node(const sl_node *x, const sl_node *y)
{
	if (x->type != y->type || x->style != y->style || x->start != y->start ||
	    x->end != y->end || x->is_key != y->is_key || x->pos != y->pos)
		return false;
	if (x->type == SL_NODE_SCALAR)
		return x->u.scalar.len == y->u.scalar.len &&
		       memcmp(x->u.scalar.s, y->u.scalar.s, x->u.scalar.len) == 0;
	size_t n = x->type == SL_NODE_MAP ? x->u.map.n : x->u.seq.n;
	if (n != (y->type == SL_NODE_MAP ? y->u.map.n : y->u.seq.n))
		return false;
	for (size_t i = 0; i < n; i++)
		if (x->type == SL_NODE_MAP ? !same_node(x->u.map.pairs[i].key, y->u.map.pairs[i].key) ||
					     !same_node(x->u.map.pairs[i].value, y->u.map.pairs[i].value)
					   : !same_node(x->u.seq.items[i], y->u.seq.items[i]))
			return false;
	return true;
}

/* Whether the reader takes text; when it does, its tree must be the parse's. */
static bool reads(const char *text)
{
	sl_source *src = NULL;
	cr_assert_eq(sl_source_from_buffer("built", text, strlen(text), &src), SL_OK);
	cr_assert_eq(sl_source_index(src), SL_OK);
	sl_arena *a = sl_arena_new();
	sl_tree x, y;
	bool read;
	cr_assert_eq(sl_tree_parse(src, a, &x, NULL, NULL), SL_OK);
	cr_assert_eq(sl_knode_read(src, a, &y, &read), SL_OK);
	if (read) {
		cr_expect_eq(x.n_docs, y.n_docs, "%s", text);
		for (size_t d = 0; d < x.n_docs && d < y.n_docs; d++) {
			cr_expect(x.docs[d]->start == y.docs[d]->start && x.docs[d]->end == y.docs[d]->end,
				  "document %zu of %s", d, text);
			cr_expect(same_node(x.docs[d]->root, y.docs[d]->root), "document %zu of %s", d,
				  text);
		}
	} else {
		cr_expect_eq(y.n_docs, 0);
	}
	sl_arena_free(a);
	sl_source_free(src);
	return read;
}

Test(knode_read, what_the_emitter_writes_reads_as_the_parse_does)
{
	cr_expect(reads(""));
	cr_expect(reads("---\n\"kind\": Pod\n\"spec\":\n  \"tolerations\":\n    -\n"
			"      \"key\": a:b\n      \"value\": \"x\\x0ay \\\"q\\\" \\\\\"\n    - []\n"
			"  \"n\": {}\n  \"l\":\n    -\n      - -1\n      - a#b\n      - \"\"\n"
			"---\n{}\n---\n[]\n"));
	cr_expect(!reads("---\n\"k\":\n- a\n"));   /* a sequence as the emitter never indents it */
	cr_expect(reads("---\n\"name\": caf\xc3\xa9 \xe2\x82\xac\n\"s\": \"\xf0\x9f\x98\x80\"\n"));
	cr_expect(reads("---\nnull\n---\n\"text\"\n"));   /* roots that are scalars */
}

Test(knode_read, what_a_parse_reads_otherwise_is_parsed)
{
	/* plain scalars that are not their own text to a parse */
	static const char *const plain[] = {
		"a: b", "a:", "a #b", "- x", "-", "#x", "&a", "*a", "!t x", "|", ">", "'q'", "%x",
		"@x", "`x", "?x", ":x", "[a]x", "{a", ",", "a ", "a\tb", "a\xc2\x85z",
		"a\xe2\x80\xa8z", "a\xef\xbb\xbfz", "a\xc2\x9fz",
	};
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
		char text[64];
		snprintf(text, sizeof text, "---\n\"k\": %s\n", plain[i]);
		cr_expect(!reads(text), "%s", text);
	}
	cr_expect(!reads("---\n--- x\n"));                         /* a marker at the root */
	cr_expect(!reads("---\n\"a\": 1\n\"a\": 2\n"));            /* a duplicate key */
	cr_expect(!reads("---\n\"k\": \"a\\nb\"\n"));               /* an escape it never writes */
	cr_expect(!reads("---\n\"k\": \"\\x80\"\n"));
	cr_expect(!reads("\"k\": v\n"));                            /* no "---" */
	cr_expect(!reads("---\n\"k\": v\n  \"j\": w\n"));           /* indentation it never writes */
	char key[1200] = "---\n\"";
	memset(key + 5, 'k', 1100);
	strcpy(key + 1105, "\": v\n");   /* a key libyaml cannot take as a simple key */
	cr_expect(!reads(key));
}

/* A plain scalar a transformer made (a prefix with ": " or " #", an indicator first, a control
** byte) is written so that a parse reads it back as itself; one a parse reads so stays plain. */
Test(knode_emit, a_made_plain_scalar_reads_back_as_itself)
{
	static const char *const made[] = {
		"a: b-llm", "x #y", "- z", "&anchor", "*alias", "!tag", "|", ">x", "'q", "\"q",
		"%x", "@x", "`x", "?", ":", "a:", "{a", "[a", ",", "#x", "a ", " a", "a\tb", "a\x01",
		"--- x", "plain", "-1", "a:b", "a#b", "null-ish", "caf\xc3\xa9",
	};
	for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
		sl_arena *a = sl_arena_new();
		sl_knode *m = sl_knode_new(a, SL_NODE_MAP, NULL, 0, 0);
		cr_assert(m && sl_knode_set(a, m, "name", sl_knode_scalar(a, made[i], NULL, 0, 0)));
		sl_knode *root = sl_knode_scalar(a, made[i], NULL, 0, 0);
		sl_strbuf text = {0};
		sl_knode_span *spans = NULL;
		size_t n_spans = 0, cap = 0;
		cr_assert(sl_knode_emit(m, &text, &spans, &n_spans, &cap));
		cr_assert(sl_knode_emit(root, &text, &spans, &n_spans, &cap));
		sl_source *src = NULL;
		sl_tree t;
		cr_assert_eq(sl_source_from_buffer("built", text.s, text.len, &src), SL_OK);
		cr_assert_eq(sl_tree_parse(src, a, &t, NULL, NULL), SL_OK);
		cr_assert_eq(t.n_docs, 2, "%s", text.s);
		const sl_node *v = t.docs[0]->root->u.map.pairs[0].value;
		cr_expect(v->type == SL_NODE_SCALAR && strcmp(v->u.scalar.s, made[i]) == 0,
			  "%s", text.s);
		v = t.docs[1]->root;
		cr_expect(v->type == SL_NODE_SCALAR && strcmp(v->u.scalar.s, made[i]) == 0,
			  "%s", text.s);
		if (i >= sizeof made / sizeof *made - 6)   /* the last six are their own text */
			cr_expect(strstr(text.s, "\"name\": \"") == NULL, "%s", text.s);
		sl_source_free(src);
		free(spans);
		sl_strbuf_free(&text);
		sl_arena_free(a);
	}
}
