/* SPDX-License-Identifier: Apache-2.0
** test_gpu.c: what the GPU rules' fixtures cannot show: which fixes are safe (a Knative-run
** unit whose tolerations flag is not known to be enabled gets an unsafe toleration fix), the
** notes that name the evidence, and the fix-safety invariant over the GPU rules' bad fixtures
** (applying their safe fixes never adds a finding of any rule); the requests of resources that
** cannot be overcommitted (sl_gpu_extended_requests). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"
#include "sched/gpu.h"
#include "fixture.h"

#define GWT "testdata/rules/gpu-without-toleration"

static sl_config *load(const char *path)
{
	sl_config *cfg = NULL;
	if (path)
		cr_assert_eq(sl_config_load(path, &cfg, NULL), SL_OK, "%s", path);
	else
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	return cfg;
}

/* Lints path with the given rules (all when n_sel is 0). */
static sl_run *lint(const sl_config *cfg, const char *path, const char *const *sel, size_t n_sel)
{
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .select = sel, .n_select = n_sel, .jobs = 1};
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_path(run, path), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	return run;
}

static const char *const gwt[] = {"gpu-without-toleration"};

Test(gpu, knative_unit_with_unknown_flag_gets_an_unsafe_fix)
{
	sl_config *cfg = load(GWT "/config.yaml");
	sl_run *run = lint(cfg, GWT "/bad/knative-flag-unknown.yaml", gwt, 1);
	cr_assert_eq(sl_run_finding_count(run), 1);
	const sl_finding *f = sl_run_finding(run, 0);
	cr_assert_not_null(f->fix);
	cr_expect_eq(f->fix->applicability, SL_FIX_UNSAFE);
	cr_expect(strstr(f->fix->message, "kubernetes.podspec-tolerations"), "%s", f->fix->message);
	cr_expect(f->notes && strstr(f->notes, "assumes the ExtendedResourceToleration"), "%s",
		  f->notes ? f->notes : "(no notes)");
	sl_run_free(run);
	sl_config_free(cfg);
}

Test(gpu, knative_unit_with_tolerations_enabled_gets_a_safe_fix)
{
	sl_config *cfg = load(GWT "/config.yaml");
	sl_run *run = lint(cfg, GWT "/bad/knative-flag-enabled", gwt, 1);
	cr_assert_eq(sl_run_finding_count(run), 1);
	const sl_finding *f = sl_run_finding(run, 0);
	cr_assert_not_null(f->fix);
	cr_expect_eq(f->fix->applicability, SL_FIX_SAFE);
	sl_run_free(run);
	sl_config_free(cfg);
}

Test(gpu, plugin_off_note_names_its_source)
{
	sl_config *cfg = load(GWT "/bad/plugin-off.config.yaml");
	sl_run *run = lint(cfg, GWT "/bad/plugin-off.yaml", gwt, 1);
	cr_assert_eq(sl_run_finding_count(run), 1);
	const sl_finding *f = sl_run_finding(run, 0);
	cr_expect(!strstr(f->message, "plugin-off.config.yaml"), "the first line is short: %s",
		  f->message);
	cr_expect(f->notes && strstr(f->notes, "GPU nodes are tainted: ") &&
		  strstr(f->notes, "plugin-off.config.yaml:2"), "the evidence: %s",
		  f->notes ? f->notes : "(no notes)");
	cr_expect(f->notes && strstr(f->notes, "plugin-off.config.yaml:3"), "%s",
		  f->notes ? f->notes : "(no notes)");
	cr_expect_eq(f->fix->applicability, SL_FIX_SAFE);
	sl_run_free(run);
	sl_config_free(cfg);
}

/* --- the fix-safety invariant ------------------------------------------------------------ */

static const char *const gpu_rules[] = {
	"gpu-without-toleration", "redundant-gpu-toleration", "gpu-custom-taint-toleration",
	"gpu-request-without-limit", "gpu-request-limit-mismatch", "gpu-node-without-gpu-request",
	"kserve-pod-level-gpu",
};

static bool exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* Findings of rule id in run. */
static size_t count(const sl_run *run, const char *id)
{
	size_t n = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		n += strcmp(sl_run_finding(run, i)->rule, id) == 0;
	return n;
}

/* Lints case (file or directory) with every rule, applies the safe fixes, and expects no rule
** to report more than before. */
static size_t check_case(const char *rule_dir, const char *bad, const char *name)
{
	char path[1024], conf[1100];
	snprintf(path, sizeof path, "%s/%s", bad, name);
	size_t l = strlen(name);
	if (l > 5 && strcmp(name + l - 5, ".yaml") == 0)
		snprintf(conf, sizeof conf, "%s/%.*s.config.yaml", bad, (int)(l - 5), name);
	else
		snprintf(conf, sizeof conf, "%s/%s.config.yaml", bad, name);
	if (!exists(conf))
		snprintf(conf, sizeof conf, "%s/config.yaml", rule_dir);
	sl_config *cfg = load(exists(conf) ? conf : NULL);
	sl_run *before = lint(cfg, path, NULL, 0);
	sl_run *run = lint(cfg, path, NULL, 0);
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = false};
	size_t applied = 0;
	cr_assert_eq(sl_run_fix(run, &fo, &applied, NULL), SL_OK);
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		cr_expect_leq(count(run, f->rule), count(before, f->rule),
			      "%s: a safe fix added a %s finding: %s", path, f->rule, f->message);
	}
	sl_run_free(before);
	sl_run_free(run);
	sl_config_free(cfg);
	return applied;
}

Test(gpu, safe_fixes_of_the_gpu_rules_add_no_finding)
{
	size_t applied = 0;
	for (size_t r = 0; r < sizeof gpu_rules / sizeof *gpu_rules; r++) {
		char rule_dir[512], bad[600];
		snprintf(rule_dir, sizeof rule_dir, "testdata/rules/%s", gpu_rules[r]);
		snprintf(bad, sizeof bad, "%s/bad", rule_dir);
		DIR *d = opendir(bad);
		cr_assert_not_null(d, "%s", bad);
		struct dirent *de;
		while ((de = readdir(d))) {
			const char *n = de->d_name;
			size_t l = strlen(n);
			char p[1024];
			snprintf(p, sizeof p, "%s/%s", bad, n);
			struct stat st;
			if (n[0] == '.' || stat(p, &st) != 0)
				continue;
			bool dir = S_ISDIR(st.st_mode) && !strstr(n, ".fixed");
			bool file = S_ISREG(st.st_mode) && l > 5 && strcmp(n + l - 5, ".yaml") == 0 &&
				    !strstr(n, ".fixed.") && !strstr(n, ".config.");
			if (dir || file)
				applied += check_case(rule_dir, bad, n);
		}
		closedir(d);
	}
	cr_expect_gt(applied, 10, "the bad fixtures have safe fixes to check");
}

/* GKE's TPU slices (Plan TPUs in GKE): single-host slices have every chip on one host, up to
** 2x4 for v5e and v6e and 2x2x1 for v4, v5p and TPU7x; multi-host slices 4 per host. */
Test(gpu, tpu_chips_per_host)
{
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x4", "tpu-v5-lite-podslice"), 8);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2", "tpu-v5-lite-podslice"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("1x1", "tpu-v6e-slice"), 1);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x4", "tpu-v6e-slice"), 8);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("4x4", "tpu-v6e-slice"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("16x16", "tpu-v5-lite-podslice"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2x1", "tpu-v5p-slice"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2x2", "tpu-v5p-slice"), 4, "two hosts of 4");
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2x4", "tpu-v4-podslice"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2x1", "tpu7x"), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x4", NULL), 8, "2-D without an accelerator: v5e/v6e");
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x2x2", NULL), 4);
	cr_expect_eq(sl_gpu_tpu_chips_per_host(NULL, "tpu-v5-lite-podslice"), 0);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x", NULL), 0);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("4", NULL), 0);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("2x4x1x1", NULL), 0);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("0x4", NULL), 0);
	cr_expect_eq(sl_gpu_tpu_chips_per_host("${TOPOLOGY}", NULL), 0);
}

/* One finding for one cause (sl_rule.yields_to): a unit kept off its only GPU pool by the GPU
** taint alone is Pending (no-matching-node-pool) because it lacks the toleration
** (gpu-without-toleration): the latter stays, with the former's message in its notes and its
** severity. Without gpu-without-toleration running, no-matching-node-pool reports it. */
Test(gpu, no_matching_node_pool_yields_to_the_missing_toleration)
{
	sl_config *cfg = load(GWT "/bad/pools.config.yaml");
	static const char *const both[] = {"gpu-without-toleration", "no-matching-node-pool"};
	sl_run *run = lint(cfg, GWT "/bad/pools.yaml", both, 2);
	cr_assert_eq(sl_run_finding_count(run), 1);
	const sl_finding *f = sl_run_finding(run, 0);
	cr_expect_str_eq(f->rule, "gpu-without-toleration");
	cr_expect_eq(f->severity, SL_SEV_ERROR, "the more severe of the two");
	cr_expect(f->notes && strstr(f->notes, "no-matching-node-pool, for the same cause: Pod trainer "
				     "fits no node pool"), "%s", f->notes ? f->notes : "(no notes)");
	cr_expect_not_null(f->fix, "the kept finding keeps its fix");
	sl_run_free(run);
	static const char *const one[] = {"no-matching-node-pool"};
	run = lint(cfg, GWT "/bad/pools.yaml", one, 1);
	cr_assert_eq(sl_run_finding_count(run), 1);
	cr_expect_str_eq(sl_run_finding(run, 0)->rule, "no-matching-node-pool");
	sl_run_free(run);
	sl_config_free(cfg);
}

/* A finding the user suppressed takes nothing: the one that would yield to it is reported. */
Test(gpu, a_suppressed_finding_takes_nothing)
{
	sl_config *cfg = load(GWT "/bad/pools.config.yaml");
	static const char *const both[] = {"gpu-without-toleration", "no-matching-node-pool"};
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .select = both, .n_select = 2,
			    .jobs = 1};
	sl_run *run = NULL;
	const char *text = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: trainer\nspec:\n"
			   "  containers:\n    - name: main\n      image: pytorch:2\n"
			   "      resources:\n        limits:\n"
			   "          nvidia.com/gpu: 1  # schedlint: ignore[gpu-without-toleration]\n";
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "pod.yaml", text, strlen(text)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	cr_assert_eq(sl_run_finding_count(run), 1);
	cr_expect_str_eq(sl_run_finding(run, 0)->rule, "no-matching-node-pool");
	sl_run_free(run);
	sl_config_free(cfg);
}

Test(gpu, extended_requests_in_container_order)
{
	sl_config *cfg = sl_test_config(NULL, NULL);
	sl_test_objects o = {0};
	sl_test_objects_bind(&o, cfg, "pod.yaml",
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
		"  initContainers:\n"
		"  - {name: init, image: i, resources: {requests: {example.com/dongle: 1}}}\n"
		"  containers:\n"
		"  - name: a\n    image: b\n    resources:\n"
		"      requests: {cpu: 1, memory: 1Gi, nvidia.com/gpu: 0, hugepages-2Mi: 1Gi,"
		" kubernetes.io/x: 1}\n"
		"      limits: {amd.com/gpu: 1}\n"
		"  - {name: none, image: c}\n"
		"  - name: mig\n    image: d\n"
		"    resources: {requests: {nvidia.com/mig-1g.5gb: 1, vendor.io/fpga: 2}}\n");
	const sl_object *pod = sl_test_object(&o, SL_KIND_POD, "p");
	cr_assert_eq(pod->n_units, 1);
	char got[512] = "";
	sl_gpu_requests it = sl_gpu_extended_requests(cfg, &pod->units[0]);
	for (const sl_pair *p; (p = sl_gpu_requests_next(&it));) {
		cr_expect_str_eq(sl_scalar(p->key), it.name);
		char line[128];
		snprintf(line, sizeof line, "%s %s %s %s\n", it.c->name, it.name, it.gpu ? "gpu" : "-",
			 sl_scalar(p->value));
		strncat(got, line, sizeof got - strlen(got) - 1);
	}
	/* native (cpu, memory, hugepages, kubernetes.io/) and limits left out; a zero kept */
	cr_expect_str_eq(got, "init example.com/dongle - 1\n"
			      "a nvidia.com/gpu gpu 0\n"
			      "mig nvidia.com/mig-1g.5gb gpu 1\n"
			      "mig vendor.io/fpga - 2\n");
	cr_expect_null(sl_gpu_requests_next(&it), "the end stays the end");
	sl_test_objects_free(&o);
	sl_config_free(cfg);
}
