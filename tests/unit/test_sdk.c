/* SPDX-License-Identifier: Apache-2.0
** test_sdk.c: the rule SDK (src/sdk/sdk.c) as rules use it, through the public API, where the
** rules' fixtures do not show it: the helpers that decide whether a fix can copy a node's text
** (sl_ctx_node_one_line); and how the engine reads the kinds and modes SL_RULE declares. */
#include <criterion/criterion.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "lint/engine.h"
#include "config/registry.h"

static sl_config *cfg;   /* the defaults */

static void setup(void)
{
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
}

static void teardown(void)
{
	sl_config_free(cfg);
}

TestSuite(sdk, .init = setup, .fini = teardown);

/* Lints text as one buffer with rule alone; returns the run (caller frees). */
static sl_run *lint(const char *rule, const char *text)
{
	const char *sel[] = {rule};
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .select = sel, .n_select = 1, .jobs = 1};
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "m.yaml", text, strlen(text)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	return run;
}

/* Whether the only finding (asserted) of rule over text offers a fix. */
static bool fix_offered(const char *rule, const char *text)
{
	sl_run *run = lint(rule, text);
	cr_assert_eq(sl_run_finding_count(run), 1);
	bool fix = sl_run_finding(run, 0)->fix != NULL;
	sl_run_free(run);
	return fix;
}

#define DEPLOYMENT(label) "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n" \
	"spec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: " label "\n" \
	"  template:\n    metadata:\n      labels:\n        app: " label "\n" \
	"    spec:\n      containers:\n        - name: web\n          image: nginx\n" \
	"          ports: [{containerPort: 80}]\n          resources: {limits: {nvidia.com/gpu: 1}}\n"

/* replicas-without-spread copies the pods' labels into the term its fix adds: only labels
** written on one line (sl_ctx_node_one_line), whatever their quoting. */
Test(sdk, a_fix_copies_only_one_line_scalars)
{
	const char *r = "replicas-without-spread";
	cr_expect(fix_offered(r, DEPLOYMENT("web")), "a plain one-line label is copied");
	cr_expect(fix_offered(r, DEPLOYMENT("'web'")), "a quoted one-line label is copied");
	cr_expect_not(fix_offered(r, DEPLOYMENT("\"web\n          tier\"")),
		      "a label over two lines is not copied");
	cr_expect_not(fix_offered(r, DEPLOYMENT("!!str web")), "a tagged label is not copied");
}

#define KSVC(value) "apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: s\n" \
	"  annotations:\n    autoscaling.knative.dev/min-scale: " value "\n" \
	"spec:\n  template:\n    spec:\n      containers:\n        - image: x\n"

/* knative-autoscaling-annotation-misplaced moves the annotation into the template: the same
** helper decides whether its text can move. */
Test(sdk, a_moved_annotation_is_copied_only_from_one_line)
{
	const char *r = "knative-autoscaling-annotation-misplaced";
	cr_expect(fix_offered(r, KSVC("\"1\"")), "a one-line value moves");
	cr_expect_not(fix_offered(r, KSVC("\"1\n      \"")), "a value over two lines does not move");
}

/* .kinds and .modes: 0 admits everything, a mask only its bits, ~bit everything but it. */
Test(sdk, a_rule_applies_to_the_kinds_and_modes_it_declares)
{
	struct sl_rule all = {.id = "all"};
	struct sl_rule isvc = {.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE) |
					SL_KIND_BIT(SL_KIND_INFERENCE_GRAPH),
			       .modes = SL_MODE_BIT(SL_MODE_STANDARD)};
	struct sl_rule no_ds = {.kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET),
				.modes = ~SL_MODE_BIT(SL_MODE_MODELMESH)};
	for (int k = 0; k < SL_KIND__COUNT; k++)
		for (int m = SL_MODE_PLAIN; m <= SL_MODE_MODELMESH; m++) {
			cr_expect(sl_engine_admits(&all, (sl_kind)k, (sl_mode)m));
			cr_expect_eq(sl_engine_admits(&isvc, (sl_kind)k, (sl_mode)m),
				     (k == SL_KIND_INFERENCE_SERVICE || k == SL_KIND_INFERENCE_GRAPH) &&
				     m == SL_MODE_STANDARD, "kind %d mode %d", k, m);
			cr_expect_eq(sl_engine_admits(&no_ds, (sl_kind)k, (sl_mode)m),
				     k != SL_KIND_DAEMONSET && m != SL_MODE_MODELMESH,
				     "kind %d mode %d", k, m);
		}
}

/* Every registered rule's .kinds and .modes admit some kind and mode: a mask written with an
** enum value for its bit (.kinds = SL_KIND_POD) would silence the rule. */
Test(sdk, every_rule_admits_some_kind_and_mode)
{
	const uint64_t kinds = SL_KIND_BIT(SL_KIND__COUNT) - SL_KIND_BIT(SL_KIND_UNKNOWN + 1);
	const unsigned modes = SL_MODE_BIT(SL_MODE_MODELMESH + 1) - 1;
	for (size_t i = 0; i < sl_registry_count; i++) {
		const struct sl_rule *r = sl_registry[i].rule;
		cr_expect(!r->kinds || (r->kinds & kinds), "%s admits no kind", r->id);
		cr_expect(!r->modes || (r->modes & modes), "%s admits no mode", r->id);
	}
}

/* A first line longer than SL_FIRST_LINE_MAX characters (a very long object name) is cut at a
** word with "…" and kept whole as the first note (spec/rules.md "Messages are short"). */
Test(sdk, a_long_first_line_is_cut_and_kept_in_the_notes)
{
	char name[300], text[1024];
	memset(name, 'x', 240);
	name[240] = '\0';
	memcpy(name + 100, "-é-", 4);   /* a two-byte character before the cut */
	name[104] = 'x';
	snprintf(text, sizeof text, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\nspec:\n"
		 "  nodeName: node-7\n  containers:\n    - name: c\n      image: i\n", name);
	sl_run *run = lint("node-name-set", text);
	cr_assert_eq(sl_run_finding_count(run), 1);
	const sl_finding *f = sl_run_finding(run, 0);
	size_t chars = 0;
	for (const char *s = f->message; *s; s++)
		chars += ((unsigned char)*s & 0xC0) != 0x80;
	cr_expect_leq(chars, 160, "%zu characters: %s", chars, f->message);
	cr_expect(strstr(f->message, "\xe2\x80\xa6") != NULL, "the cut is marked: %s", f->message);
	cr_assert_not_null(f->notes);
	cr_expect(strncmp(f->notes, "Pod ", 4) == 0 && strstr(f->notes, "sets nodeName") &&
		  strstr(f->notes, name) != NULL, "the whole line is the first note: %s", f->notes);
	sl_run_free(run);
}
