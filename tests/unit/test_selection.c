/* SPDX-License-Identifier: Apache-2.0
** test_selection.c: what keeps a unit's pods on nodes (src/sched/selection.c): the selections of a
** nodeSelector and of required node-affinity terms in file order (NotIn, DoesNotExist and
** preferred terms select nothing), pinning (the nodeSelector alone, or every required term),
** which label values a selection allows, and pinning to GPU nodes by the config's
** gpu-node-labels; an expression mapping read as a requirement. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "model/model.h"
#include "sched/selection.h"

typedef struct bound {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	sl_model_ctx mc;
	sl_object *obj;
	sl_config *cfg;
	size_t reports, want_reports;   /* schema-type reports the binder made, and expected */
} bound;

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_assert_fail("the fixture must be valid YAML: %s", message);
}

static void on_report(void *payload, const char *rule, const sl_node *at, const char *message,
		      int quote_fix)
{
	(void)rule; (void)at; (void)quote_fix;
	((bound *)payload)->reports++;
	cr_log_info("schema-type report: %s", message);
}

/* A Pod whose spec holds `spec` (YAML, two-space indented under spec:). */
static bound *pod(const char *spec)
{
	bound *b = calloc(1, sizeof *b);
	cr_assert_not_null(b);
	cr_assert_eq(sl_config_new_default(&b->cfg), SL_OK);
	char yaml[4096];
	snprintf(yaml, sizeof yaml, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n%s"
		 "  containers: [{name: a, image: b}]\n", spec);
	cr_assert_eq(sl_source_from_buffer("p.yaml", yaml, strlen(yaml), &b->src), SL_OK);
	b->a = sl_arena_new();
	cr_assert_eq(sl_tree_parse(b->src, b->a, &b->t, on_tree_issue, b), SL_OK);
	b->mc = (sl_model_ctx){.arena = b->a, .path = "p.yaml", .issue = on_report,
			       .payload = b, .default_mode = sl_config_kserve_default_mode(b->cfg)};
	cr_assert_eq(sl_object_bind(&b->mc, b->t.docs[0], &b->obj), SL_OK);
	cr_assert_not_null(b->obj);
	cr_assert_eq(b->obj->n_units, 1);
	return b;
}

static const sl_unit *unit(const bound *b)
{
	return &b->obj->units[0];
}

static void done(bound *b)
{
	cr_expect_eq(b->reports, b->want_reports, "%zu schema-type reports, want %zu", b->reports,
		     b->want_reports);
	sl_arena_free(b->a);
	sl_source_free(b->src);
	sl_config_free(b->cfg);
	free(b);
}

static const char *text(const bound *b, const sl_node *n)
{
	static char buf[256];
	cr_assert_not_null(n);
	snprintf(buf, sizeof buf, "%.*s", (int)(n->end - n->start), b->src->data + n->start);
	return buf;
}

/* Records every selection as "term key op value|values", one per line. */
struct rec { const bound *b; char out[2048]; int stop_after; int seen; };

static bool record(const sl_selection *s, void *p)
{
	struct rec *r = p;
	char line[256];
	snprintf(line, sizeof line, "%d %s %s %s\n", s->term, s->key, s->op,
		 s->value ? s->value : s->values ? text(r->b, s->values) : "-");
	strncat(r->out, line, sizeof r->out - strlen(r->out) - 1);
	return ++r->seen == r->stop_after;
}

#define AFFINITY(terms) \
	"  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n" \
	"        nodeSelectorTerms:\n" terms
#define TERM(exprs) "          - matchExpressions:\n" exprs
#define EXPR(key, op, values) "              - {key: " key ", operator: " op values "}\n"

Test(selection, each_selection_in_file_order)
{
	bound *b = pod("  nodeSelector:\n    pool: gpu\n    zone: \"\"\n"
		       AFFINITY(TERM(EXPR("a", "In", ", values: [x, z2]") EXPR("b", "NotIn", ", values: [z]")
				     EXPR("c", "DoesNotExist", "") EXPR("d", "in", ", values: [w]"))
				TERM(EXPR("e", "Exists", "") EXPR("f", "Gt", ", values: [\"3\"]")
				     EXPR("g", "Lt", ", values: 4") "              - {operator: Exists}\n"))
		       "    nodeAffinity2: {}\n");
	b->want_reports = 1;   /* values: 4 */
	struct rec r = {b, "", 0, 0};
	cr_expect_not(sl_selection_each(unit(b), record, &r));
	cr_expect_str_eq(r.out,
			 "-1 pool = gpu\n"
			 "-1 zone = \n"
			 "0 a In [x, z2]\n"
			 "0 d In [w]\n"        /* a case-only misspelling reads as the operator */
			 "1 e Exists -\n"
			 "1 f Gt [\"3\"]\n"
			 "1 g Lt -\n");        /* values that are not a sequence: none */
	done(b);
}

Test(selection, each_selection_stops_when_fn_says_so)
{
	bound *b = pod("  nodeSelector: {a: \"1\", b: \"2\"}\n" AFFINITY(TERM(EXPR("c", "Exists", ""))));
	struct rec r = {b, "", 2, 0};
	cr_expect(sl_selection_each(unit(b), record, &r));
	cr_expect_str_eq(r.out, "-1 a = 1\n-1 b = 2\n");
	done(b);
}

Test(selection, preferred_terms_select_nothing)
{
	bound *b = pod("  affinity:\n    nodeAffinity:\n"
		       "      preferredDuringSchedulingIgnoredDuringExecution:\n"
		       "        - weight: 1\n          preference:\n            matchExpressions:\n"
		       "              - {key: a, operator: In, values: [x]}\n");
	struct rec r = {b, "", 0, 0};
	cr_expect_not(sl_selection_each(unit(b), record, &r));
	cr_expect_str_eq(r.out, "");
	cr_expect_null(sl_selection_required_terms(unit(b)));
	done(b);
}

static bool key_is_pool(const sl_selection *s, void *p)
{
	(void)p;
	return strcmp(s->key, "pool") == 0 && sl_selection_allows(s, "gpu");
}

Test(selection, pinned_by_the_node_selector_alone)
{
	bound *b = pod("  nodeSelector:\n    zone: a\n    pool: gpu\n");
	const sl_node *at = NULL;
	cr_expect(sl_selection_pinned(unit(b), key_is_pool, NULL, &at));
	cr_expect_str_eq(text(b, at), "pool", "reported at the nodeSelector key");
	done(b);
	b = pod("  nodeSelector:\n    pool: cpu\n");
	cr_expect_not(sl_selection_pinned(unit(b), key_is_pool, NULL, NULL));
	done(b);
}

Test(selection, pinned_by_required_terms_only_when_every_term_selects)
{
	bound *b = pod(AFFINITY(TERM(EXPR("zone", "In", ", values: [a]") EXPR("pool", "In", ", values: [gpu]"))
				TERM(EXPR("pool", "Exists", ""))));
	const sl_node *at = NULL;
	cr_expect(sl_selection_pinned(unit(b), key_is_pool, NULL, &at));
	cr_expect_str_eq(text(b, at), "{key: pool, operator: In, values: [gpu]}",
			 "the first term's accepted expression");
	done(b);
	/* terms are ORed: a term that does not pin lets the pod go anywhere it selects */
	b = pod(AFFINITY(TERM(EXPR("pool", "In", ", values: [gpu]")) TERM(EXPR("zone", "In", ", values: [a]"))));
	cr_expect_not(sl_selection_pinned(unit(b), key_is_pool, NULL, NULL));
	done(b);
	b = pod(AFFINITY(TERM(EXPR("pool", "NotIn", ", values: [cpu]"))));
	cr_expect_not(sl_selection_pinned(unit(b), key_is_pool, NULL, NULL), "NotIn keeps pods off nodes");
	done(b);
	b = pod(AFFINITY("          []\n"));
	cr_expect_not(sl_selection_pinned(unit(b), key_is_pool, NULL, NULL), "no terms");
	done(b);
	/* the nodeSelector and the terms are both required: either one pins */
	b = pod("  nodeSelector: {pool: gpu}\n" AFFINITY(TERM(EXPR("zone", "In", ", values: [a]"))));
	cr_expect(sl_selection_pinned(unit(b), key_is_pool, NULL, NULL));
	done(b);
}

static bool first(const sl_selection *s, void *p)
{
	*(sl_selection *)p = *s;
	return true;
}

/* The first selection of a pod whose spec is spec. */
static bool allows(const char *spec, const char *v)
{
	bound *b = pod(spec);
	sl_selection s;
	cr_assert(sl_selection_each(unit(b), first, &s));
	bool r = sl_selection_allows(&s, v);
	done(b);
	return r;
}

Test(selection, allows)
{
	cr_expect(allows("  nodeSelector: {k: v}\n", "v"));
	cr_expect_not(allows("  nodeSelector: {k: v}\n", "V"), "values are case-sensitive");
	cr_expect(allows("  nodeSelector: {k: \"\"}\n", ""));
	cr_expect(allows(AFFINITY(TERM(EXPR("k", "In", ", values: [a, b]"))), "b"));
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "In", ", values: [a, b]"))), "c"));
	cr_expect(allows(AFFINITY(TERM(EXPR("k", "Exists", ""))), "anything"));
	cr_expect(allows(AFFINITY(TERM(EXPR("k", "Gt", ", values: [\"4\"]"))), "5"));
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "Gt", ", values: [\"4\"]"))), "4"));
	cr_expect(allows(AFFINITY(TERM(EXPR("k", "Lt", ", values: [\"4\"]"))), "-1"));
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "Lt", ", values: [\"4\"]"))), "x"),
		      "Gt/Lt never match a non-integer");
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "Lt", ", values: [\"4\"]"))), ""));
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "Gt", ", values: [\"4\", \"5\"]"))), "9"),
		      "Gt needs exactly one value");
	cr_expect_not(allows(AFFINITY(TERM(EXPR("k", "Gt", ", values: [four]"))), "9"));
}

static bool gpu(const char *spec)
{
	bound *b = pod(spec);
	const sl_node *at = NULL;
	bool r = sl_selection_pinned_to_gpu(b->cfg, unit(b), &at);
	cr_expect(!r || at, "pinned without a node to report at");
	done(b);
	return r;
}

#define GPU_LABEL "nvidia.com/gpu.present"

Test(selection, pinned_to_gpu_nodes)
{
	cr_expect(gpu("  nodeSelector: {" GPU_LABEL ": \"true\"}\n"));
	cr_expect_not(gpu("  nodeSelector: {" GPU_LABEL ": \"false\"}\n"), "false marks no GPU");
	cr_expect_not(gpu("  nodeSelector: {" GPU_LABEL ": \"0\"}\n"));
	cr_expect_not(gpu("  nodeSelector: {" GPU_LABEL ": \"\"}\n"));
	cr_expect_not(gpu("  nodeSelector: {pool: gpu}\n"), "not a gpu-node-label");
	cr_expect(gpu(AFFINITY(TERM(EXPR(GPU_LABEL, "In", ", values: [\"false\", \"true\"]")))));
	cr_expect_not(gpu(AFFINITY(TERM(EXPR(GPU_LABEL, "In", ", values: [\"false\", \"0\"]")))));
	cr_expect(gpu(AFFINITY(TERM(EXPR(GPU_LABEL, "Exists", "")))));
	cr_expect_not(gpu(AFFINITY(TERM(EXPR(GPU_LABEL, "DoesNotExist", "")))));
	cr_expect(gpu(AFFINITY(TERM(EXPR("nvidia.com/gpu.count", "Gt", ", values: [\"0\"]")))));
	cr_expect_not(gpu(AFFINITY(TERM(EXPR("nvidia.com/gpu.count", "Lt", ", values: [\"1\"]")))),
		      "fewer than one GPU");
	cr_expect(gpu(AFFINITY(TERM(EXPR("nvidia.com/gpu.count", "Lt", ", values: [\"3\"]")))));
	cr_expect_not(gpu(AFFINITY(TERM(EXPR(GPU_LABEL, "Exists", "")) TERM(EXPR("zone", "In", ", values: [a]")))),
		      "one term leaves the GPU nodes");
}

/* "key op v1,v2" of r (placeholders for absent parts). */
static const char *req_text(const sl_requirement *r)
{
	static char buf[256];
	int n = snprintf(buf, sizeof buf, "%.*s %.*s", (int)r->key.n, r->key.s ? r->key.s : "",
			 (int)r->op.n, r->op.s ? r->op.s : "");
	for (size_t i = 0; i < r->n_values && n > 0 && (size_t)n < sizeof buf; i++)
		n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%.*s", i ? "," : " ",
			      (int)r->values[i].n, r->values[i].s);
	return buf;
}

Test(selection, requirement_as_written)
{
	bound *b = pod(AFFINITY(TERM(EXPR("a", "In", ", values: [x, \"z 2\"]") EXPR("b", "in", ", values: [w]")
				     EXPR("c", "Exists", "") EXPR("g", "Lt", ", values: 4")
				     "              - {operator: Exists, values: []}\n")));
	b->want_reports = 1;   /* values: 4 */
	const sl_node *exprs = sl_map_get(sl_seq_item(sl_selection_required_terms(unit(b)), 0),
					  "matchExpressions");
	const char *want[] = {"a In x,z 2", "b in w", "c Exists", "g Lt", " Exists"};
	cr_assert_eq(sl_seq_n(exprs), 5);
	for (size_t i = 0; i < 5; i++) {
		sl_requirement r;
		cr_assert(sl_selection_requirement(b->a, sl_seq_item(exprs, i), &r));
		cr_expect_str_eq(req_text(&r), want[i], "expression %zu", i);
		cr_expect_eq(r.values == NULL, r.n_values == 0, "values allocated only when some");
	}
	/* out of memory (a fresh arena: its first allocation takes memory): false, and *out
	** untouched; with no values nothing is allocated */
	sl_arena *a = sl_arena_new();
	cr_assert_not_null(a);
	sl_requirement r = {.n_values = 99};
	sl_arena_fail_after(1);
	bool ok = sl_selection_requirement(a, sl_seq_item(exprs, 0), &r);
	cr_expect_eq(r.n_values, 99);
	sl_arena_fail_after(1);
	bool ok_none = sl_selection_requirement(a, sl_seq_item(exprs, 2), &r);
	sl_arena_fail_after(0);
	sl_arena_free(a);
	cr_expect_not(ok);
	cr_expect(ok_none);
	cr_expect_str_eq(req_text(&r), "c Exists");
	done(b);
}
