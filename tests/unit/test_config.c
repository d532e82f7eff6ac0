/* SPDX-License-Identifier: Apache-2.0
** test_config.c: .schedlint.yaml loading (src/config/): defaults, every key, each error with
** its exact "file:line:col: error:" message, and discovery up to the repository root.
** Runs from the project root; fixtures are the YAML files in testdata/config. Build with ASan for leaks. */
#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/values.h"
#include "support.h"

#define FIXTURE(name) "testdata/config/" name

/* A sentinel: loads must leave their outputs untouched on failure. */
static sl_config *const UNTOUCHED = (sl_config *)(uintptr_t)0x1;

static sl_config *load_ok(const char *path)
{
	sl_config *cfg = NULL;
	char *err = NULL;
	sl_err rc = sl_config_load(path, &cfg, &err);

	cr_assert_eq(rc, SL_OK, "%s: %s (%s)", path, sl_strerror(rc), err ? err : "");
	cr_assert_null(err);
	cr_assert_not_null(cfg);
	return cfg;
}

static void expect_error(const char *path, sl_err want, const char *message)
{
	sl_config *cfg = UNTOUCHED;
	char *err = NULL;
	sl_err rc = sl_config_load(path, &cfg, &err);

	cr_assert_eq(rc, want, "%s: got %s, want %s (%s)", path, sl_strerror(rc),
		     sl_strerror(want), err ? err : "");
	cr_assert_eq(cfg, UNTOUCHED, "output touched on failure");
	cr_assert_not_null(err);
	cr_expect_str_eq(err, message);
	free(err);
}

static void expect_list(sl_strlist l, const char *const *want, size_t n)
{
	cr_assert_eq(l.n, n, "list has %zu entries, want %zu", l.n, n);
	for (size_t i = 0; i < n; i++)
		cr_expect_str_eq(l.v[i], want[i], "entry %zu", i);
}

#define LIST(l, ...) do { \
	static const char *const w_[] = { __VA_ARGS__ }; \
	expect_list((l), w_, sizeof w_ / sizeof w_[0]); \
} while (0)

static void expect_default_cluster(const struct sl_cluster_config *c)
{
	cr_expect_eq(c->knative_features.n, 0);
	cr_expect_not(c->knative_features_set);
	cr_expect_null(c->kserve_default_deployment_mode);
	cr_expect_null(c->kserve_version);
	cr_expect_eq(c->extended_resource_toleration, SL_TRI_UNKNOWN);
	cr_expect_eq(c->gpu_nodes_tainted, SL_TRI_UNKNOWN);
	cr_expect_eq(c->provider, SL_PROVIDER_GENERIC);
	cr_expect_not(c->toleration_comparison_operators);
	LIST(c->gpu_resources, "nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915", "gpu.intel.com/xe",
	     "intel.com/gpu", "habana.ai/gaudi",
	     "nvidia.com/mig-*");
	LIST(c->gpu_node_labels, "nvidia.com/gpu.present", "nvidia.com/gpu.product",
	     "nvidia.com/gpu.count", "nvidia.com/gpu", "k8s.amazonaws.com/accelerator",
	     "cloud.google.com/gke-accelerator", "kubernetes.azure.com/accelerator", "accelerator",
	     "karpenter.k8s.aws/instance-gpu-name", "karpenter.k8s.aws/instance-gpu-manufacturer",
	     "karpenter.k8s.aws/instance-gpu-count");
	LIST(c->spot_labels, "karpenter.sh/capacity-type=spot", "eks.amazonaws.com/capacityType=SPOT",
	     "cloud.google.com/gke-spot=true", "cloud.google.com/gke-preemptible=true",
	     "kubernetes.azure.com/scalesetpriority=spot", "capacity-type=spot");
	cr_expect_eq(c->critical_priority, 1000000);
	cr_expect_eq(c->critical_priority_classes.n, 0);
	cr_expect_eq(c->priority_classes.n, 0);
	LIST(c->batch_kinds, "Job", "CronJob", "RayJob", "RayCronJob", "JobSet", "TrainJob", "PyTorchJob",
	     "TFJob", "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "SparkApplication",
	     "ScheduledSparkApplication");
	cr_expect_eq(c->n_node_pools, 0);
	cr_expect_null(c->node_inventory);
}

/* Everything at its default except path and base_dir. */
static void expect_defaults(const sl_config *cfg)
{
	cr_expect_eq(cfg->exclude.n, 0);
	cr_expect_eq(cfg->fail_on, -1);
	cr_expect_eq(sl_config_fail_on(cfg), -1);
	cr_expect_eq(cfg->n_rules, 0);
	cr_expect_str_eq(cfg->kustomize_load_restrictor, "rootOnly");
	expect_default_cluster(&cfg->cluster);
}

/* ---- defaults and empty files ---- */

Test(config, new_default)
{
	sl_config *cfg = NULL;

	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	cr_expect_null(cfg->path);
	cr_expect_str_eq(cfg->base_dir, ".");
	expect_defaults(cfg);
	sl_config_free(cfg);
}

Test(config, empty_file_is_all_defaults)
{
	sl_config *cfg = load_ok(FIXTURE("empty.yaml"));

	cr_expect_str_eq(cfg->path, FIXTURE("empty.yaml"));
	cr_expect_str_eq(cfg->base_dir, "testdata/config");
	expect_defaults(cfg);
	sl_config_free(cfg);
}

Test(config, comment_only_file_is_all_defaults)
{
	sl_config *cfg = load_ok(FIXTURE("comments.yaml"));

	expect_defaults(cfg);
	sl_config_free(cfg);
}

Test(config, empty_document_is_all_defaults)
{
	sl_config *cfg = load_ok(FIXTURE("empty_doc.yaml"));

	expect_defaults(cfg);
	sl_config_free(cfg);
}

Test(config, null_values_are_unset)
{
	sl_config *cfg = load_ok(FIXTURE("nulls.yaml"));

	expect_defaults(cfg);
	sl_config_free(cfg);
}

Test(config, present_lists_override_defaults_even_empty)
{
	sl_config *cfg = load_ok(FIXTURE("null_lists.yaml"));
	const struct sl_cluster_config *c = &cfg->cluster;

	cr_expect(c->knative_features_set);
	cr_expect_eq(c->knative_features.n, 0);
	cr_expect_eq(c->gpu_resources.n, 0);
	cr_expect_eq(c->spot_labels.n, 0);
	cr_expect_null(c->kserve_version);
	cr_expect_eq(c->gpu_node_labels.n, 11);    /* absent: default */
	LIST(c->batch_kinds, "Job", "CronJob", "RayJob", "RayCronJob", "JobSet", "TrainJob", "PyTorchJob",
	     "TFJob", "MPIJob", "XGBoostJob", "PaddleJob", "JAXJob", "SparkApplication",
	     "ScheduledSparkApplication");
	sl_config_free(cfg);
}

/* ---- every key ---- */

Test(config, every_key)
{
	sl_config *cfg = load_ok(FIXTURE("full.yaml"));
	const struct sl_cluster_config *c = &cfg->cluster;
	const struct sl_node_pool *p;

	LIST(cfg->exclude, "charts/**/templates/**", "vendor/**");
	cr_expect_eq(cfg->fail_on, SL_SEV_INFO);
	cr_expect_str_eq(cfg->kustomize_load_restrictor, "none");
	cr_expect_eq(sl_config_fail_on(cfg), SL_SEV_INFO);

	cr_assert_eq(cfg->n_rules, 3);
	cr_expect_str_eq(cfg->rules[0].id, "replicas-without-spread");
	cr_expect_eq(cfg->rules[0].severity, SL_SEV_ERROR);
	cr_expect_str_eq(cfg->rules[1].id, "deployment-mode-legacy");
	cr_expect_eq(cfg->rules[1].severity, SL_SEV_INFO);
	cr_expect_str_eq(cfg->rules[2].id, "gpu");
	cr_expect_eq(cfg->rules[2].severity, SL_SEV_OFF);

	cr_expect(c->knative_features_set);
	LIST(c->knative_features, "affinity", "nodeselector", "tolerations");
	cr_expect_str_eq(c->kserve_default_deployment_mode, "RawDeployment");
	cr_expect_str_eq(c->kserve_version, "0.15");
	cr_expect_eq(c->extended_resource_toleration, SL_TRI_YES);
	cr_expect_neq(c->extended_resource_toleration_line, 0);
	cr_expect_eq(c->gpu_nodes_tainted, SL_TRI_NO);       /* "no" */
	cr_expect(c->toleration_comparison_operators);       /* "True" */
	LIST(c->gpu_resources, "nvidia.com/gpu", "amd.com/gpu");
	LIST(c->gpu_node_labels, "nvidia.com/gpu.present", "cloud.google.com/gke-accelerator");
	LIST(c->spot_labels, "karpenter.sh/capacity-type=spot", "cloud.google.com/gke-spot=true");
	cr_expect_eq(c->critical_priority, 2000000);
	LIST(c->critical_priority_classes, "inference-critical");
	LIST(c->priority_classes, "inference-critical=1000000", "training-batch=-10");
	LIST(c->batch_kinds, "Job", "CronJob", "RayJob");
	cr_expect_str_eq(c->node_inventory, "cluster/nodes.yaml");

	cr_assert_eq(c->n_node_pools, 2);
	p = &c->node_pools[0];
	cr_expect_str_eq(p->name, "gpu-t4");
	LIST(p->labels, "k8s.amazonaws.com/accelerator=nvidia-tesla-t4", "workload-type=inference");
	LIST(p->taints, "nvidia.com/gpu=true:NoSchedule");
	LIST(p->capacity, "nvidia.com/gpu=4", "cpu=16", "memory=64Gi");
	cr_expect_eq(p->nodes, 3);
	p = &c->node_pools[1];
	cr_expect_str_eq(p->name, "cpu");
	cr_expect_eq(p->labels.n, 0);
	cr_expect_eq(p->taints.n, 0);
	cr_expect_eq(p->capacity.n, 0);
	cr_expect_eq(p->nodes, -1);
	sl_config_free(cfg);
}

/* What rules read (config/values.h): the accessors give the same settings as the layout. */
Test(config, accessors_read_the_cluster_settings)
{
	sl_config *cfg = load_ok(FIXTURE("full.yaml"));
	const struct sl_cluster_config *c = &cfg->cluster;
	cr_expect_eq(sl_config_spot_labels(cfg), &c->spot_labels);
	cr_expect_eq(sl_config_priority_classes(cfg), &c->priority_classes);
	cr_expect_eq(sl_config_critical_priority_classes(cfg), &c->critical_priority_classes);
	cr_expect_eq(sl_config_batch_kinds(cfg), &c->batch_kinds);
	cr_expect(sl_config_list_has(sl_config_batch_kinds(cfg), "RayJob"));
	cr_expect_not(sl_config_list_has(sl_config_batch_kinds(cfg), "Deployment"));
	cr_expect_eq(sl_config_critical_priority(cfg), 2000000);
	cr_expect(sl_config_toleration_comparison_operators(cfg));
	cr_expect_str_eq(sl_config_kserve_version(cfg), "0.15");
	size_t n;
	const struct sl_node_pool *pools = sl_config_node_pools(cfg, &n);
	cr_expect_eq(n, 2);
	cr_expect_eq(pools, c->node_pools);
	sl_arena *a = sl_arena_new();
	char want[256];
	snprintf(want, sizeof want, "%s:%u", FIXTURE("full.yaml"), c->knative_features_line);
	cr_expect_neq(c->knative_features_line, 0);
	cr_expect_str_eq(sl_config_knative_features_at(cfg, a), want);
	cr_expect_str_eq(sl_config_at(cfg, 7, a), FIXTURE("full.yaml") ":7");
	sl_config_free(cfg);
	/* no config: every list empty, nothing set, no priority critical */
	cr_expect_eq(sl_config_spot_labels(NULL)->n, 0);
	cr_expect_eq(sl_config_batch_kinds(NULL)->n, 0);
	cr_expect_eq(sl_config_critical_priority(NULL), LLONG_MAX);
	cr_expect_not(sl_config_toleration_comparison_operators(NULL));
	cr_expect_null(sl_config_kserve_version(NULL));
	cr_expect_null(sl_config_node_pools(NULL, &n));
	cr_expect_eq(n, 0);
	cr_expect_not(sl_config_is_spot_key(NULL, "karpenter.sh/capacity-type"));
	cr_expect_str_eq(sl_config_at(NULL, 3, a), ".schedlint.yaml:3");
	sl_arena_free(a);
}

Test(config, rule_lines)
{
	sl_config *cfg = load_ok(FIXTURE("full.yaml"));

	cr_assert_eq(cfg->n_rules, 3);
	cr_expect_eq(cfg->rules[0].line, 5);
	cr_expect_eq(cfg->rules[1].line, 7);
	cr_expect_eq(cfg->rules[2].line, 10);   /* after a blank line */
	sl_config_free(cfg);
}

Test(config, flow_rule_lines)
{
	sl_config *cfg = NULL;
	char *err = NULL;

	/* unknown_key_rule.yaml fails; check lines on a loadable flow variant instead */
	char dir[256], path[PATH_MAX];
	FILE *f;

	sl_test_scratch(dir, sizeof dir, "config");
	snprintf(path, sizeof path, "%s/.schedlint.yaml", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("rules: [{id: gpu, severity: info},\n  {id: spread, severity: off}]\n", f);
	fclose(f);
	cr_assert_eq(sl_config_load(path, &cfg, &err), SL_OK, "%s", err ? err : "");
	cr_assert_eq(cfg->n_rules, 2);
	cr_expect_eq(cfg->rules[0].line, 1);
	cr_expect_eq(cfg->rules[1].line, 2);
	cr_expect_str_eq(cfg->base_dir, dir);
	sl_config_free(cfg);
	unlink(path);
	rmdir(dir);
}

Test(config, kserve_version_as_yaml_number)
{
	sl_config *cfg = load_ok(FIXTURE("version_number.yaml"));

	cr_expect_str_eq(cfg->cluster.kserve_version, "0.15");
	cr_expect_eq(cfg->cluster.critical_priority, 500);   /* a quoted integer is fine */
	sl_config_free(cfg);
}

Test(config, kserve_version_keeps_its_digits)
{
	sl_config *cfg = load_ok(FIXTURE("version_trailing_zero.yaml"));

	cr_expect_str_eq(cfg->cluster.kserve_version, "0.10");
	sl_config_free(cfg);
}

Test(config, aliases_are_followed)
{
	sl_config *cfg = load_ok(FIXTURE("aliases.yaml"));

	LIST(cfg->exclude, "a/**", "b/**");
	LIST(cfg->cluster.batch_kinds, "a/**", "b/**");
	sl_config_free(cfg);
}

Test(config, bare_file_name_has_dot_base_dir)
{
	char dir[256];
	sl_config *cfg;
	FILE *f;

	sl_test_scratch(dir, sizeof dir, "config");
	cr_assert_eq(chdir(dir), 0);
	f = fopen(".schedlint.yaml", "w");
	cr_assert_not_null(f);
	fputs("fail-on: warning\n", f);
	fclose(f);
	cfg = load_ok(".schedlint.yaml");
	cr_expect_str_eq(cfg->base_dir, ".");
	cr_expect_str_eq(cfg->path, ".schedlint.yaml");
	cr_expect_eq(sl_config_fail_on(cfg), SL_SEV_WARNING);
	sl_config_free(cfg);
	unlink(".schedlint.yaml");
	rmdir(dir);
}

Test(config, fail_on_and_free_accept_null)
{
	cr_expect_eq(sl_config_fail_on(NULL), -1);
	sl_config_free(NULL);
}

/* ---- unknown keys ---- */

Test(config, unknown_key_in_cluster)
{
	expect_error(FIXTURE("unknown_key_cluster.yaml"), SL_ECONFIG,
		"testdata/config/unknown_key_cluster.yaml:4:3: error: unknown key \"bogus\" in cluster");
}

Test(config, unknown_key_at_top)
{
	expect_error(FIXTURE("unknown_key_top.yaml"), SL_ECONFIG,
		"testdata/config/unknown_key_top.yaml:3:1: error: unknown key \"exlcude\"; "
		"did you mean \"exclude\"?");
}

Test(config, unknown_key_in_node_pool)
{
	expect_error(FIXTURE("unknown_key_pool.yaml"), SL_ECONFIG,
		"testdata/config/unknown_key_pool.yaml:5:7: error: unknown key \"lables\" "
		"in cluster.node-pools[1]; did you mean \"labels\"?");
}

/* The misspelt key and the error past it, one line each, in one load ("sev" is too far from
** "severity" for a suggestion). */
Test(config, unknown_key_in_flow_rule)
{
	expect_error(FIXTURE("unknown_key_rule.yaml"), SL_ECONFIG,
		"testdata/config/unknown_key_rule.yaml:2:9: error: unknown rule or category \"a\" for "
		"rules[0].id\n"
		"testdata/config/unknown_key_rule.yaml:4:10: error: unknown rule or category \"b\" for "
		"rules[1].id\n"
		"testdata/config/unknown_key_rule.yaml:4:29: error: unknown key \"sev\" in rules[1]");
}

/* Every error of a file in one load, in file order, each once: a typo, values outside their
** set, of a wrong type (libcyaml's: the setting is hidden from it and the rest read), a bad
** glob, taint, quantity and integer. */
Test(config, every_error_at_once)
{
#define AT "testdata/config/all_errors.yaml:"
	expect_error(FIXTURE("all_errors.yaml"), SL_ECONFIG,
		AT "1:11: error: invalid glob \"vendor/[a\" for exclude[0]: character classes [...] are "
		"not supported (only *, ** and ?): it would match only those very characters\n"
		AT "2:10: error: invalid value \"eror\" for fail-on (expected error, warning or info); did "
		"you mean \"error\"?\n"
		AT "4:9: error: unknown rule or category \"gpu-reqest-without-limit\" for rules[0].id; "
		"did you mean \"gpu-request-without-limit\"?\n"
		AT "7:13: error: unknown provider \"gkee\" for cluster.provider (expected gke, eks, aks "
		"or generic); did you mean \"gke\"?\n"
		AT "8:22: error: invalid value \"maybe\" for cluster.gpu-nodes-tainted (expected true or "
		"false)\n"
		AT "9:16: error: wrong type for cluster.spot-labels: expected a list, got a mapping\n"
		AT "12:7: error: unknown key \"label\" in cluster.node-pools[0]; did you mean \"labels\"?\n"
		AT "13:16: error: invalid taint \"nvidia.com/gpu=present:NoSchedul\" for "
		"cluster.node-pools[0].taints[0]: invalid taint effect: NoSchedul, unsupported taint "
		"effect (expected key=value:Effect or key:Effect, the effect NoSchedule, PreferNoSchedule "
		"or NoExecute); did you mean \"nvidia.com/gpu=present:NoSchedule\"?\n"
		AT "14:21: error: invalid value \"nvidia.com/gpu=eight\" for "
		"cluster.node-pools[0].allocatable[0]: quantities must match the regular expression "
		"'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (expected resource=quantity: "
		"\"nvidia.com/gpu=8\", \"memory=64Gi\")\n"
		AT "15:22: error: invalid value \"high\" for cluster.critical-priority (expected an "
		"integer)");
#undef AT
}

/* A required key of the wrong type, or missing, hides its whole entry (its list) from libcyaml:
** one error each, not a second "missing key", and the rest is still read. */
Test(config, wrong_type_of_required_key)
{
	expect_error(FIXTURE("wrong_type_required.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_required.yaml:3:13: error: wrong type for "
		"cluster.node-pools[0].name: expected a string, got a list\n"
		"testdata/config/wrong_type_required.yaml:5:5: error: missing key \"severity\" in "
		"rules[0]\n"
		"testdata/config/wrong_type_required.yaml:6:10: error: invalid value \"eror\" for "
		"fail-on (expected error, warning or info); did you mean \"error\"?");
}

Test(config, duplicate_key)
{
	expect_error(FIXTURE("duplicate_key.yaml"), SL_ECONFIG,
		"testdata/config/duplicate_key.yaml:4:1: error: duplicate key \"fail-on\"");
}

/* ---- invalid enum values ---- */

Test(config, invalid_fail_on)
{
	expect_error(FIXTURE("bad_fail_on.yaml"), SL_ECONFIG,
		"testdata/config/bad_fail_on.yaml:1:10: error: invalid value \"sometimes\" for fail-on "
		"(expected error, warning or info)");
}

Test(config, invalid_rule_severity)
{
	expect_error(FIXTURE("bad_severity.yaml"), SL_ECONFIG,
		"testdata/config/bad_severity.yaml:3:15: error: invalid value \"fatal\" for "
		"rules[0].severity (expected error, warning, info or off)");
}

Test(config, invalid_provider)
{
	expect_error(FIXTURE("bad_provider.yaml"), SL_ECONFIG,
		"testdata/config/bad_provider.yaml:2:13: error: unknown provider \"gcp\" for "
		"cluster.provider (expected gke, eks, aks or generic)");
}

Test(config, invalid_deployment_mode)
{
	/* KServe compares the mode with its exact case: "serverless" is not Serverless */
	expect_error(FIXTURE("bad_deployment_mode.yaml"), SL_ECONFIG,
		"testdata/config/bad_deployment_mode.yaml:2:35: error: unknown deployment mode "
		"\"serverless\" for cluster.kserve-default-deployment-mode (expected Standard, Knative, "
		"ModelMesh, RawDeployment or Serverless); did you mean \"Serverless\"?");
}

/* ---- closed sets, globs: a typo is an error at its value with the closest spelling ---- */

Test(config, knative_flag_typo_names_the_closest_flag)
{
	/* issue 14: knative-features: [nodeselectr] was accepted and read as "no flag enabled" */
	expect_error(FIXTURE("bad_knative_flag.yaml"), SL_ECONFIG,
		"testdata/config/bad_knative_flag.yaml:2:32: error: unknown Knative flag \"nodeselectr\" "
		"for cluster.knative-features[1]; did you mean \"nodeselector\"?");
}

Test(config, unknown_knative_flag_says_what_a_flag_is)
{
	expect_error(FIXTURE("unknown_knative_flag.yaml"), SL_ECONFIG,
		"testdata/config/unknown_knative_flag.yaml:2:35: error: unknown Knative flag "
		"\"container-magic\" for cluster.knative-features[1] (expected a flag of Knative's "
		"config-features, by its full name or, for a kubernetes.podspec-* flag, by the rest of it: "
		"\"nodeselector\")");
}

Test(config, knative_flags_by_short_or_full_name)
{
	sl_config *cfg = load_ok(FIXTURE("knative_flags.yaml"));
	LIST(cfg->cluster.knative_features, "nodeselector", "kubernetes.podspec-tolerations",
	     "init-containers", "kubernetes.podspec-persistent-volume-write",
	     "kubernetes.containerspec-addcapabilities", "secure-pod-defaults", "multi-container");
	sl_config_free(cfg);
}

Test(config, unknown_rule_id_is_an_error_at_its_value)
{
	expect_error(FIXTURE("bad_rule_id.yaml"), SL_ECONFIG,
		"testdata/config/bad_rule_id.yaml:4:9: error: unknown rule or category "
		"\"replicas-without-spred\" for rules[1].id; did you mean \"replicas-without-spread\"?");
}

Test(config, enumeration_typo_names_the_closest_value)
{
	expect_error(FIXTURE("bad_severity_case.yaml"), SL_ECONFIG,
		"testdata/config/bad_severity_case.yaml:3:15: error: invalid value \"Warning\" for "
		"rules[0].severity (expected error, warning, info or off); did you mean \"warning\"?");
	expect_error(FIXTURE("bad_provider_typo.yaml"), SL_ECONFIG,
		"testdata/config/bad_provider_typo.yaml:2:13: error: unknown provider \"gek\" for "
		"cluster.provider (expected gke, eks, aks or generic); did you mean \"gke\"?");
}

Test(config, load_restrictor_is_kustomizes_word_or_an_error)
{
	expect_error(FIXTURE("bad_load_restrictor.yaml"), SL_ECONFIG,
		"testdata/config/bad_load_restrictor.yaml:3:22: error: unknown load restrictor "
		"\"LoadRestrictionsNone\" for render.kustomize.load-restrictor (expected rootOnly or none: "
		"kubectl kustomize's LoadRestrictionsRootOnly and LoadRestrictionsNone)");
}

Test(config, glob_that_cannot_match_is_an_error)
{
	expect_error(FIXTURE("bad_glob.yaml"), SL_ECONFIG,
		"testdata/config/bad_glob.yaml:1:37: error: invalid glob \"./vendor/**\" for exclude[1]: "
		"paths are matched without a leading \"./\"; did you mean \"vendor/**\"?");
	expect_error(FIXTURE("bad_glob_class.yaml"), SL_ECONFIG,
		"testdata/config/bad_glob_class.yaml:2:5: error: invalid glob \"charts/[ab]/**\" for "
		"exclude[0]: character classes [...] are not supported (only *, ** and ?): it would "
		"match only those very characters");
}

Test(config, kserve_version_must_be_a_release)
{
	/* deployment-mode-legacy would read "O.16" as no version and stay quiet */
	expect_error(FIXTURE("bad_kserve_version.yaml"), SL_ECONFIG,
		"testdata/config/bad_kserve_version.yaml:2:19: error: invalid value \"O.16\" for "
		"cluster.kserve-version (expected a KServe release such as \"0.15\" or \"v0.16.1\")");
}

Test(config, node_pool_taint_with_a_misspelt_effect)
{
	expect_error(FIXTURE("bad_taint.yaml"), SL_ECONFIG,
		"testdata/config/bad_taint.yaml:4:50: error: invalid taint \"dedicated=ml:NoSchedul\" for "
		"cluster.node-pools[0].taints[1]: invalid taint effect: NoSchedul, unsupported taint "
		"effect (expected key=value:Effect or key:Effect, the effect NoSchedule, "
		"PreferNoSchedule or NoExecute); did you mean \"dedicated=ml:NoSchedule\"?");
}

Test(config, provider_and_facts_remember_their_lines)
{
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_load(FIXTURE("provider.yaml"), &cfg, NULL), SL_OK);
	const struct sl_cluster_config *c = &cfg->cluster;
	cr_expect_eq(c->provider, SL_PROVIDER_AKS);
	cr_expect_eq(c->provider_line, 2);
	cr_expect_eq(c->gpu_nodes_tainted, SL_TRI_NO);
	cr_expect_eq(c->gpu_nodes_tainted_line, 3);
	cr_expect_eq(c->extended_resource_toleration, SL_TRI_UNKNOWN);
	cr_expect_eq(c->extended_resource_toleration_line, 0);
	sl_config_free(cfg);
}

Test(config, invalid_bool)
{
	expect_error(FIXTURE("bad_bool.yaml"), SL_ECONFIG,
		"testdata/config/bad_bool.yaml:3:22: error: invalid value \"maybe\" for "
		"cluster.gpu-nodes-tainted (expected true or false)");
}

/* ---- wrong types ---- */

Test(config, scalar_for_list)
{
	expect_error(FIXTURE("wrong_type_list.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_list.yaml:2:18: error: wrong type for "
		"cluster.gpu-resources: expected a list, got a scalar");
}

Test(config, scalar_for_mapping)
{
	expect_error(FIXTURE("wrong_type_cluster.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_cluster.yaml:2:10: error: wrong type for cluster: "
		"expected a mapping, got a scalar");
}

Test(config, mapping_in_string_list)
{
	expect_error(FIXTURE("wrong_type_entry.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_entry.yaml:3:5: error: wrong type for exclude[1]: "
		"expected a string, got a mapping");
}

Test(config, list_for_string)
{
	expect_error(FIXTURE("wrong_type_string.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_string.yaml:2:19: error: wrong type for "
		"cluster.kserve-version: expected a string, got a list");
}

Test(config, mapping_for_bool)
{
	expect_error(FIXTURE("wrong_type_bool.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_bool.yaml:2:22: error: wrong type for "
		"cluster.gpu-nodes-tainted: expected true or false, got a mapping");
}

Test(config, root_not_a_mapping)
{
	expect_error(FIXTURE("wrong_type_root.yaml"), SL_ECONFIG,
		"testdata/config/wrong_type_root.yaml:1:1: error: wrong type for the configuration: "
		"expected a mapping, got a list");
}

/* ---- values checked after libcyaml ---- */

Test(config, priority_class_without_value)
{
	expect_error(FIXTURE("bad_priority_class.yaml"), SL_ECONFIG,
		"testdata/config/bad_priority_class.yaml:4:7: error: invalid value \"training-batch\" "
		"for cluster.priority-classes[1] (expected name=integer)");
}

Test(config, priority_class_value_not_integer)
{
	expect_error(FIXTURE("bad_priority_value.yaml"), SL_ECONFIG,
		"testdata/config/bad_priority_value.yaml:2:29: error: invalid value \"b=ten\" "
		"for cluster.priority-classes[1] (expected name=integer)");
}

Test(config, critical_priority_not_integer)
{
	expect_error(FIXTURE("bad_critical_priority.yaml"), SL_ECONFIG,
		"testdata/config/bad_critical_priority.yaml:2:22: error: invalid value \"1e6\" "
		"for cluster.critical-priority (expected an integer)");
}

Test(config, nodes_not_integer)
{
	expect_error(FIXTURE("bad_nodes.yaml"), SL_ECONFIG,
		"testdata/config/bad_nodes.yaml:4:14: error: invalid value \"3x\" for "
		"cluster.node-pools[0].nodes (expected a non-negative integer, or min-max: \"2-10\")");
}

Test(config, node_inventory_missing)
{
	expect_error(FIXTURE("bad_node_inventory.yaml"), SL_ECONFIG,
		"testdata/config/bad_node_inventory.yaml:2:19: error: cluster.node-inventory: cannot "
		"read \"missing/nodes.yaml\": No such file or directory (the path is relative to this "
		"config)");
}

Test(config, rule_without_id)
{
	expect_error(FIXTURE("missing_rule_id.yaml"), SL_ECONFIG,
		"testdata/config/missing_rule_id.yaml:4:5: error: missing key \"id\" in rules[1]");
}

Test(config, node_pool_without_name)
{
	expect_error(FIXTURE("missing_pool_name.yaml"), SL_ECONFIG,
		"testdata/config/missing_pool_name.yaml:3:7: error: missing key \"name\" "
		"in cluster.node-pools[0]");
}

Test(config, empty_rule_id)
{
	expect_error(FIXTURE("empty_rule_id.yaml"), SL_ECONFIG,
		"testdata/config/empty_rule_id.yaml:2:9: error: empty value for rules[0].id");
}

/* ---- YAML errors and limits ---- */

Test(config, invalid_yaml)
{
	expect_error(FIXTURE("invalid_yaml.yaml"), SL_ECONFIG,
		"testdata/config/invalid_yaml.yaml:4:17: error: invalid YAML: did not find expected "
		"',' or ']' (while parsing a flow sequence)");
}

Test(config, invalid_yaml_tab)
{
	expect_error(FIXTURE("invalid_yaml_tab.yaml"), SL_ECONFIG,
		"testdata/config/invalid_yaml_tab.yaml:3:1: error: invalid YAML: found character that "
		"cannot start any token (while scanning for the next token)");
}

Test(config, two_documents)
{
	expect_error(FIXTURE("two_docs.yaml"), SL_ECONFIG,
		"testdata/config/two_docs.yaml:2:1: error: more than one YAML document in the "
		"configuration");
}

Test(config, alias_bomb)
{
	expect_error(FIXTURE("alias_bomb.yaml"), SL_ECONFIG,
		"testdata/config/alias_bomb.yaml:5:29: error: too many nodes (aliases expand to more "
		"than 100000)");
}

Test(config, complex_key)
{
	expect_error(FIXTURE("complex_key.yaml"), SL_ECONFIG,
		"testdata/config/complex_key.yaml:2:3: error: a mapping key must be a plain string");
}

Test(config, unknown_alias)
{
	expect_error(FIXTURE("unknown_alias.yaml"), SL_ECONFIG,
		"testdata/config/unknown_alias.yaml:1:10: error: unknown alias \"nope\"");
}

/* ---- I/O ---- */

Test(config, missing_file)
{
	expect_error(FIXTURE("does-not-exist.yaml"), SL_EIO,
		"testdata/config/does-not-exist.yaml: error: cannot read: No such file or directory");
}

Test(config, directory_is_unreadable)
{
	expect_error("testdata/config", SL_EIO,
		"testdata/config: error: cannot read: Is a directory");
}

Test(config, error_out_may_be_null)
{
	sl_config *cfg = UNTOUCHED;

	cr_expect_eq(sl_config_load(FIXTURE("bad_fail_on.yaml"), &cfg, NULL), SL_ECONFIG);
	cr_expect_eq(sl_config_load(FIXTURE("does-not-exist.yaml"), &cfg, NULL), SL_EIO);
	cr_expect_eq(cfg, UNTOUCHED);
}

/* Every fixture, loaded and freed: with ASan this is the leak check for both paths. */
Test(config, every_fixture_loads_or_fails_cleanly)
{
	static const char *const names[] = {
		"alias_bomb", "aliases", "bad_bool", "bad_critical_priority", "bad_fail_on",
		"bad_nodes", "bad_priority_class", "bad_provider", "bad_deployment_mode", "provider",
		"complex_key", "unknown_alias", "bad_priority_value", "bad_severity", "comments",
		"duplicate_key", "empty", "empty_doc", "empty_rule_id", "full", "invalid_yaml",
		"invalid_yaml_tab", "missing_pool_name", "missing_rule_id", "null_lists", "nulls",
		"two_docs", "unknown_key_cluster", "unknown_key_pool", "unknown_key_rule",
		"unknown_key_top", "version_number", "version_trailing_zero", "wrong_type_bool",
		"wrong_type_cluster", "wrong_type_entry", "wrong_type_list", "wrong_type_root",
		"wrong_type_string", "bad_knative_flag", "unknown_knative_flag", "knative_flags",
		"bad_rule_id", "bad_glob", "bad_glob_class", "bad_taint", "bad_severity_case",
		"bad_provider_typo", "bad_kserve_version",
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[256];
		sl_config *cfg = NULL;
		char *err = NULL;
		sl_err rc;

		snprintf(path, sizeof path, "testdata/config/%s.yaml", names[i]);
		rc = sl_config_load(path, &cfg, &err);
		cr_expect(rc == SL_OK || rc == SL_ECONFIG, "%s: %s", path, sl_strerror(rc));
		cr_expect((rc == SL_OK) == (cfg != NULL) && (rc == SL_OK) == (err == NULL), "%s", path);
		sl_config_free(cfg);
		free(err);
	}
}

/* ---- discovery ---- */

struct tree {
	char root[64];
};

static void make_dir(const char *base, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof p, "%s/%s", base, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s: %s", p, strerror(errno));
}

static void make_file(const char *base, const char *rel, const char *text)
{
	char p[PATH_MAX];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", base, rel);
	f = fopen(p, "w");
	cr_assert_not_null(f, "create %s", p);
	fputs(text, f);
	fclose(f);
}

static void remove_tree(const char *root)
{
	sl_test_rm_rf(root);
}

/* root/ (real path) with repo/.git and repo/a/b/c below it. */
static void make_repo(struct tree *t)
{
	char tmpl[256];
	char *real;

	sl_test_scratch(tmpl, sizeof tmpl, "config");
	real = realpath(tmpl, NULL);
	cr_assert_not_null(real);
	snprintf(t->root, sizeof t->root, "%s", real);
	free(real);
	make_dir(t->root, "repo");
	make_dir(t->root, "repo/.git");
	make_dir(t->root, "repo/a");
	make_dir(t->root, "repo/a/b");
	make_dir(t->root, "repo/a/b/c");
}

static void expect_found(const char *start, const char *want)
{
	char *path = NULL;
	sl_err rc = sl_config_discover(start, &path);

	cr_assert_eq(rc, SL_OK, "discover from %s: %s", start, sl_strerror(rc));
	/* named relative to the working directory when it shares one with it: the same file */
	char *real = realpath(path, NULL);
	cr_assert_not_null(real, "%s does not resolve", path);
	cr_expect_str_eq(real, want, "found %s", path);
	free(real);
	free(path);
}

static void expect_not_found(const char *start)
{
	char *path = (char *)"untouched";
	sl_err rc = sl_config_discover(start, &path);

	cr_expect_eq(rc, SL_ENOTFOUND, "discover from %s: %s", start, sl_strerror(rc));
	cr_expect_str_eq(path, "untouched");
}

Test(discover, in_start_dir)
{
	struct tree t;
	char start[PATH_MAX], want[PATH_MAX];

	make_repo(&t);
	make_file(t.root, "repo/a/b/c/.schedlint.yaml", "");
	make_file(t.root, "repo/a/.schedlint.yaml", "");
	snprintf(start, sizeof start, "%s/repo/a/b/c", t.root);
	snprintf(want, sizeof want, "%s/repo/a/b/c/.schedlint.yaml", t.root);
	expect_found(start, want);
	remove_tree(t.root);
}

Test(discover, nearest_ancestor)
{
	struct tree t;
	char start[PATH_MAX], want[PATH_MAX];

	make_repo(&t);
	make_file(t.root, "repo/a/.schedlint.yaml", "");
	make_file(t.root, "repo/.schedlint.yaml", "");
	snprintf(start, sizeof start, "%s/repo/a/b/c", t.root);
	snprintf(want, sizeof want, "%s/repo/a/.schedlint.yaml", t.root);
	expect_found(start, want);
	remove_tree(t.root);
}

Test(discover, at_repository_root)
{
	struct tree t;
	char start[PATH_MAX], want[PATH_MAX];

	make_repo(&t);
	make_file(t.root, "repo/.schedlint.yaml", "");
	snprintf(start, sizeof start, "%s/repo/a/b/c", t.root);
	snprintf(want, sizeof want, "%s/repo/.schedlint.yaml", t.root);
	expect_found(start, want);
	remove_tree(t.root);
}

Test(discover, stops_at_git_directory)
{
	struct tree t;
	char start[PATH_MAX];

	make_repo(&t);
	make_file(t.root, ".schedlint.yaml", "");   /* above the repository: not used */
	snprintf(start, sizeof start, "%s/repo/a/b", t.root);
	expect_not_found(start);
	remove_tree(t.root);
}

Test(discover, stops_at_git_file)
{
	struct tree t;
	char start[PATH_MAX];

	make_repo(&t);
	make_file(t.root, "repo/a/.git", "gitdir: ../.git/worktrees/a\n");   /* a worktree */
	make_file(t.root, "repo/.schedlint.yaml", "");
	snprintf(start, sizeof start, "%s/repo/a/b/c", t.root);
	expect_not_found(start);
	remove_tree(t.root);
}

Test(discover, skips_a_directory_named_like_the_config)
{
	struct tree t;
	char start[PATH_MAX], want[PATH_MAX];

	make_repo(&t);
	make_dir(t.root, "repo/a/.schedlint.yaml");
	make_file(t.root, "repo/.schedlint.yaml", "");
	snprintf(start, sizeof start, "%s/repo/a", t.root);
	snprintf(want, sizeof want, "%s/repo/.schedlint.yaml", t.root);
	expect_found(start, want);
	remove_tree(t.root);
}

Test(discover, relative_start_dir)
{
	struct tree t;
	char dir[PATH_MAX], want[PATH_MAX];

	make_repo(&t);
	make_file(t.root, "repo/.schedlint.yaml", "");
	snprintf(dir, sizeof dir, "%s/repo/a", t.root);
	cr_assert_eq(chdir(dir), 0);
	snprintf(want, sizeof want, "%s/repo/.schedlint.yaml", t.root);
	expect_found("b/c/..", want);
	expect_found(".", want);
	/* named from the working directory, as the linted files are */
	char *path = NULL;
	cr_assert_eq(sl_config_discover("b/c", &path), SL_OK);
	cr_expect_str_eq(path, "../.schedlint.yaml");
	free(path);
	make_file(t.root, "repo/a/b/.schedlint.yaml", "");
	cr_assert_eq(sl_config_discover("b/c", &path), SL_OK);
	cr_expect_str_eq(path, "b/.schedlint.yaml");
	free(path);
	remove_tree(t.root);
}

Test(discover, found_config_loads_with_its_base_dir)
{
	struct tree t;
	char start[PATH_MAX], want_dir[PATH_MAX];
	char *path = NULL;
	sl_config *cfg;

	make_repo(&t);
	make_file(t.root, "repo/a/.schedlint.yaml", "fail-on: error\nexclude: [\"gen/**\"]\n");
	snprintf(start, sizeof start, "%s/repo/a/b", t.root);
	cr_assert_eq(sl_config_discover(start, &path), SL_OK);
	cfg = load_ok(path);
	snprintf(want_dir, sizeof want_dir, "%s/repo/a", t.root);
	cr_expect_str_eq(cfg->base_dir, want_dir);
	cr_expect_eq(sl_config_fail_on(cfg), SL_SEV_ERROR);
	LIST(cfg->exclude, "gen/**");
	sl_config_free(cfg);
	free(path);
	remove_tree(t.root);
}

Test(discover, missing_start_dir)
{
	expect_not_found("/tmp/sl_config_no_such_dir/x/y");
}

Test(discover, walks_to_filesystem_root)
{
	struct tree t;
	char start[PATH_MAX];
	struct stat st;

	make_repo(&t);
	/* what lies above the scratch directory is the machine's: a .schedlint.yaml or .git there
	** leaves nothing to check */
	for (char up[PATH_MAX], *slash = strcpy(up, t.root); (slash = strrchr(up, '/'));) {
		char p[PATH_MAX + 16];
		*slash = '\0';
		snprintf(p, sizeof p, "%s/.schedlint.yaml", up);
		int found = stat(p, &st) == 0;
		snprintf(p, sizeof p, "%s/.git", up);
		if (found || stat(p, &st) == 0) {
			remove_tree(t.root);
			cr_skip_test("a .schedlint.yaml or .git above %s", t.root);
		}
	}
	snprintf(start, sizeof start, "%s", t.root);   /* outside the repository */
	expect_not_found(start);
	remove_tree(t.root);
}

/* extend: a config starts from another (its path relative to the config) and overrides the keys
** it sets; a line it inherits names the file it stands in. */
Test(extend, inherits_overrides_and_names_the_right_file)
{
	struct tree t;
	char path[PATH_MAX];
	sl_config *cfg = NULL;
	char *err = NULL;

	make_repo(&t);
	make_file(t.root, "repo/.schedlint.yaml",
		  "exclude: [\"charts/**\"]\nfail-on: error\n"
		  "rules:\n  - id: placement\n    severity: error\n"
		  "cluster:\n  gpu-nodes-tainted: true\n  provider: gke\n");
	make_file(t.root, "repo/a/.schedlint.yaml",
		  "extend: ../.schedlint.yaml\n"
		  "rules:\n  - id: toleration-without-selector\n    severity: info\n"
		  "cluster:\n  provider: eks\n");
	snprintf(path, sizeof path, "%s/repo/a/.schedlint.yaml", t.root);
	cr_assert_eq(sl_config_load(path, &cfg, &err), SL_OK, "%s", err ? err : "");
	cr_expect_eq(cfg->fail_on, SL_SEV_ERROR, "fail-on inherited");
	cr_expect_eq(cfg->cluster.gpu_nodes_tainted, SL_TRI_YES, "gpu-nodes-tainted inherited");
	cr_expect_eq(cfg->cluster.provider, SL_PROVIDER_EKS, "provider overridden");
	cr_assert_eq(cfg->n_rules, 2, "the base's rules, then its own");
	cr_expect_str_eq(cfg->rules[0].id, "placement");
	cr_expect_str_eq(cfg->rules[1].id, "toleration-without-selector");
	cr_assert_eq(cfg->exclude.n, 1);
	char want_dir[PATH_MAX];
	snprintf(want_dir, sizeof want_dir, "%s/repo", t.root);
	char *ex = realpath(cfg->exclude_dir, NULL);
	cr_expect_str_eq(ex, want_dir, "inherited globs stay relative to the file that set them");
	free(ex);
	char *src = sl_config_source(cfg, cfg->cluster.gpu_nodes_tainted_line);
	cr_expect(strstr(src, "repo/.schedlint.yaml:7") && !strstr(src, "/a/"), "%s", src);
	free(src);
	src = sl_config_source(cfg, cfg->cluster.provider_line);
	cr_expect(strstr(src, "repo/a/.schedlint.yaml:6"), "%s", src);
	free(src);
	src = sl_config_source(cfg, cfg->rules[0].line);
	cr_expect(strstr(src, "repo/.schedlint.yaml:4") && !strstr(src, "/a/"), "%s", src);
	free(src);
	sl_config_free(cfg);
	remove_tree(t.root);
}

Test(extend, a_missing_file_or_a_cycle_is_an_error_at_the_key)
{
	struct tree t;
	char path[PATH_MAX];
	sl_config *cfg = NULL;
	char *err = NULL;

	make_repo(&t);
	make_file(t.root, "repo/a/.schedlint.yaml", "fail-on: info\nextend: nowhere.yaml\n");
	snprintf(path, sizeof path, "%s/repo/a/.schedlint.yaml", t.root);
	cr_expect_eq(sl_config_load(path, &cfg, &err), SL_ECONFIG);
	cr_assert_not_null(err);
	cr_expect(strstr(err, ".schedlint.yaml:2:9: error: extend:") && strstr(err, "nowhere.yaml"),
		  "%s", err);
	free(err);
	err = NULL;
	make_file(t.root, "repo/a/.schedlint.yaml", "extend: ../.schedlint.yaml\n");
	make_file(t.root, "repo/.schedlint.yaml", "extend: a/.schedlint.yaml\n");
	cr_expect_eq(sl_config_load(path, &cfg, &err), SL_ECONFIG);
	cr_assert_not_null(err);
	cr_expect(strstr(err, "cycle"), "%s", err);
	free(err);
	remove_tree(t.root);
}

/* per-file-ignores: each glob with its rules and categories (a namespaced id left to the run),
** relative to the config's directory; an unknown id is an error with the closest spelling, a
** glob without a list a type error. */
Test(config, per_file_ignores)
{
	sl_config *cfg = load_ok(FIXTURE("per_file_ignores.yaml"));
	cr_assert_eq(cfg->n_file_ignores, 2);
	cr_expect_str_eq(cfg->file_ignores[0].glob, "legacy/**");
	cr_assert_eq(cfg->file_ignores[0].n_ids, 2);
	cr_expect_str_eq(cfg->file_ignores[0].ids[0], "toleration-without-selector");
	cr_expect_str_eq(cfg->file_ignores[0].ids[1], "gpu");
	cr_expect_str_eq(cfg->file_ignores[1].ids[0], "acme/needs-priority");
	cr_expect_str_eq(cfg->file_ignores_dir, "testdata/config");
	sl_config_free(cfg);
	cfg = load_ok(FIXTURE("empty.yaml"));
	cr_expect_eq(cfg->n_file_ignores, 0);
	sl_config_free(cfg);
	expect_error(FIXTURE("bad_per_file_ignores.yaml"), SL_ECONFIG,
		"testdata/config/bad_per_file_ignores.yaml:3:17: error: unknown rule or category "
		"\"toleration-without-selectr\" in per-file-ignores; did you mean "
		"\"toleration-without-selector\"?");
	expect_error(FIXTURE("bad_per_file_ignores_type.yaml"), SL_ECONFIG,
		"testdata/config/bad_per_file_ignores_type.yaml:3:16: error: wrong type for "
		"per-file-ignores.legacy/**: expected a list of rules or categories");
}

/* The reference for sl_config_is_gpu_resource: an entry equal to name, or ending in '*' and a
** prefix of it (values.c skips an entry whose first byte differs: the same answers). */
static bool listed_slowly(const char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(v[i]);
		if (len && v[i][len - 1] == '*' ? strncmp(name, v[i], len - 1) == 0
						 : strcmp(name, v[i]) == 0)
			return true;
	}
	return false;
}

Test(config, gpu_resources_are_matched_as_entries_and_prefixes)
{
	static const char *const lists[][4] = {
		{"nvidia.com/gpu", "nvidia.com/mig-*", "amd.com/gpu", NULL},
		{"*", NULL}, {"", "g*", NULL}, {"gpu", "gp", "*x", NULL}, {NULL},
	};
	static const char *const names[] = {
		"", "cpu", "memory", "g", "gp", "gpu", "gpux", "x", "*x", "*", "nvidia.com/gpu",
		"nvidia.com/gpus", "nvidia.com/mig-", "nvidia.com/mig-1g.5gb", "nvidia.com/mig",
		"amd.com/gpu", "Amd.com/gpu",
	};
	for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
		size_t n = 0;
		while (n < 4 && lists[l][n])
			n++;
		sl_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.cluster.gpu_resources = (sl_strlist){.v = lists[l], .n = n};
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			cr_expect_eq(sl_config_is_gpu_resource(&cfg, names[i]),
				     listed_slowly(lists[l], n, names[i]), "list %zu, \"%s\"", l, names[i]);
	}
}

/* The memoised project root answers as sl_config_project_root does from every directory, in
** either order of asking: below a config holder, in and below a work tree (a .git directory, a
** .git file), beside a directory that looks like a git directory (HEAD), and below a directory
** holding a config under another config. */
Test(project_root, memo_answers_as_the_walk)
{
	struct tree t;
	make_repo(&t);
	static const char *const dirs[] = {
		"cfg", "cfg/a", "cfg/a/b", "cfg/a/b/c", "cfg/in", "cfg/in/d", "cfg/gitfile",
		"cfg/gitfile/e", "cfg/head", "cfg/head/f", "repo/a/b/c", "repo/a", "plain", "plain/g",
	};
	make_dir(t.root, "cfg");
	make_file(t.root, "cfg/.schedlint.yaml", "{}\n");
	make_dir(t.root, "plain");
	for (size_t i = 1; i < sizeof dirs / sizeof *dirs; i++)
		if (strncmp(dirs[i], "repo/", 5) != 0 && strcmp(dirs[i], "plain") != 0) {
			char p[PATH_MAX];
			snprintf(p, sizeof p, "%s/%s", t.root, dirs[i]);
			mkdir(p, 0755);
		}
	make_file(t.root, "cfg/in/.schedlint.yaml", "{}\n");
	make_file(t.root, "cfg/gitfile/.git", "gitdir: ../../repo/.git\n");
	make_file(t.root, "cfg/head/HEAD", "ref: refs/heads/main\n");
	for (int order = 0; order < 2; order++) {
		sl_strmap memo = {0};
		size_t n = sizeof dirs / sizeof *dirs;
		for (size_t k = 0; k < n; k++) {
			char d[PATH_MAX];
			snprintf(d, sizeof d, "%s/%s", t.root, dirs[order ? n - 1 - k : k]);
			char *want = NULL, *got = NULL;
			sl_err rw = sl_config_project_root(d, &want);
			sl_err rg = sl_config_project_root_memo(d, &memo, NULL, &got);
			cr_expect_eq(rg, rw, "%s: %d, the walk %d", d, rg, rw);
			cr_expect((!want && !got) || (want && got && strcmp(want, got) == 0),
				  "%s: %s, the walk %s", d, got ? got : "(none)", want ? want : "(none)");
			free(want);
			free(got);
		}
		cr_expect_gt(memo.n, n, "the parents were memoised too");
		for (size_t i = 0; i < memo.cap; i++) {
			free((char *)memo.v[i].key);
			free(memo.v[i].val);
		}
		sl_strmap_free(&memo);
	}
	remove_tree(t.root);
}
