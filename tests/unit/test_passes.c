/* SPDX-License-Identifier: Apache-2.0
** test_passes.c: the passes of a lint run (src/driver/passes.c) move every file to a state that needs
** nothing more: streamed, the files whose trees went have their findings compacted and the file
** whose tree the index reads (Knative's config-features) keeps it; a whole run keeps every tree,
** and forgetting sends every readable file back to pass 1. A batch Job in a file of its own is
** still compared with the serving units of the other files (pass 3, once they are all known). */
#include <criterion/criterion.h>
#include <string.h>
#include "driver/passes.h"

static const char PRIORITY_CLASSES[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: training-high\n"
	"value: 100000\n---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: inference-low\n"
	"value: 1000\n";
static const char JOB[] =
	"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\nspec:\n  template:\n"
	"    spec:\n      priorityClassName: training-high\n      containers:\n"
	"        - name: trainer\n          image: trainer:1\n";
static const char ISVC[] =
	"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: chat\n"
	"spec:\n  predictor:\n    priorityClassName: inference-low\n    model:\n"
	"      modelFormat:\n        name: huggingface\n";
static const char FEATURES[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
	"  namespace: knative-serving\ndata:\n  kubernetes.podspec-nodeselector: enabled\n";

static sl_config *cfg;

static void add_buffer(sl_passes *p, const char *path, const char *text)
{
	sl_file *f = sl_passes_new_file(p, path);
	cr_assert_not_null(f);
	cr_assert_eq(sl_source_from_buffer(path, text, strlen(text), &f->src), SL_OK);
	f->src->owner = f;
}

/* p set up and linted over the four buffers and a path that does not exist (in path order). */
static void lint(sl_passes *p, bool stream)
{
	memset(p, 0, sizeof *p);
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .low_memory = stream, .jobs = 2};
	cr_assert_eq(sl_passes_init(p, cfg, &o, NULL), SL_OK);
	add_buffer(p, "a-priority.yaml", PRIORITY_CLASSES);
	add_buffer(p, "b-job.yaml", JOB);
	add_buffer(p, "c-isvc.yaml", ISVC);
	add_buffer(p, "d-features.yaml", FEATURES);
	sl_file *missing = sl_passes_new_file(p, "/nonexistent/e.yaml");
	cr_assert_not_null(missing);
	missing->on_disk = true;
	cr_assert_eq(sl_passes_lint(p), SL_OK);
	cr_assert_eq(p->eng.n_files, 5);
}

static void done(sl_passes *p)
{
	sl_passes_free(p);
	sl_config_free(cfg);
}

/* True when the sorted findings hold one of rule in path. */
static bool has_finding(const sl_passes *p, const char *path, const char *rule)
{
	for (size_t i = 0; i < p->n_sorted; i++)
		if (!strcmp(p->sorted[i]->pub.path, path) && !strcmp(p->sorted[i]->pub.rule, rule))
			return true;
	return false;
}

Test(passes, streamed_every_file_ends_done_and_only_the_index_keeps_a_tree)
{
	sl_passes p;
	lint(&p, true);
	sl_file **f = p.eng.files;
	for (size_t i = 0; i < 3; i++) {
		cr_expect_eq(f[i]->next, SL_NEXT_DONE_COMPACT, "%s: state %d", f[i]->path, f[i]->next);
		cr_expect_eq(f[i]->n_objects, 0, "%s kept its objects", f[i]->path);
		cr_expect_null(f[i]->arena, "%s kept its arena", f[i]->path);
	}
	cr_expect_eq(f[3]->next, SL_NEXT_DONE, "config-features: state %d", f[3]->next);
	cr_expect_eq(f[3]->n_objects, 1, "config-features keeps its tree for the index");
	cr_expect_eq(f[4]->next, SL_NEXT_DONE, "the missing file: state %d", f[4]->next);
	cr_expect_not_null(f[4]->error);
	cr_expect(has_finding(&p, "b-job.yaml", "batch-outranks-serving"),
		  "the Job was checked before the serving units were all known");
	done(&p);
}

Test(passes, whole_run_keeps_every_tree_and_forgetting_starts_over)
{
	sl_passes p;
	lint(&p, false);
	sl_file **f = p.eng.files;
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(f[i]->next, SL_NEXT_DONE, "%s: state %d", f[i]->path, f[i]->next);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(f[i]->n_objects, i == 0 ? 2 : 1, "%s lost its tree", f[i]->path);
	cr_expect(has_finding(&p, "b-job.yaml", "batch-outranks-serving"));
	size_t n = p.n_sorted;
	cr_assert_eq(sl_passes_forget(&p), SL_OK);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(f[i]->next, SL_NEXT_READ, "%s: state %d", f[i]->path, f[i]->next);
	cr_expect_eq(f[4]->next, SL_NEXT_DONE, "an unreadable file is not read again");
	cr_expect_eq(p.n_sorted, 0);
	cr_assert_eq(sl_passes_lint(&p), SL_OK);
	cr_expect_eq(p.n_sorted, n, "a second lint of the same text found %zu, not %zu", p.n_sorted, n);
	done(&p);
}
