/* SPDX-License-Identifier: Apache-2.0
** tables.c: the shape of .schedlint.yaml as libcyaml binds it (the schema tables of the
** raw_* structs, load.h), the defaults, the closed sets a value is checked against (and
** Knative's feature flags), and the helpers every message of a load uses. */
#include "config/load.h"

/* Absent and null ("", ~, null) both leave a pointer NULL. */
#define OPT (CYAML_FLAG_OPTIONAL | CYAML_FLAG_POINTER_NULL_STR)

static const cyaml_strval_t fail_on_strings[] = {
	{ "error", SL_SEV_ERROR }, { "warning", SL_SEV_WARNING }, { "info", SL_SEV_INFO },
};
static const cyaml_strval_t severity_strings[] = {
	{ "error", SL_SEV_ERROR }, { "warning", SL_SEV_WARNING }, { "info", SL_SEV_INFO },
	{ "off", SL_SEV_OFF },
};
/* libcyaml 1.3.1 reads any word but false/no/off/disable/0 as true: use a strict enum. */
static const cyaml_strval_t bool_strings[] = {
	{ "true", 1 }, { "false", 0 }, { "yes", 1 }, { "no", 0 }, { "on", 1 }, { "off", 0 },
};

static const cyaml_schema_value_t string_entry = {
	CYAML_VALUE_STRING(CYAML_FLAG_POINTER, char, 0, CYAML_UNLIMITED),
};

#define STRINGS(key, st, member) \
	CYAML_FIELD_SEQUENCE(key, OPT, st, member, &string_entry, 0, CYAML_UNLIMITED)
#define STRING(key, st, member) \
	CYAML_FIELD_STRING_PTR(key, OPT, st, member, 0, CYAML_UNLIMITED)
#define BOOL(key, st, member) \
	CYAML_FIELD_ENUM_PTR(key, OPT | CYAML_FLAG_STRICT | CYAML_FLAG_CASE_INSENSITIVE, \
		st, member, bool_strings, COUNT(bool_strings))

static const cyaml_schema_field_t rule_fields[] = {
	CYAML_FIELD_STRING_PTR("id", CYAML_FLAG_DEFAULT, struct raw_rule, id, 1, CYAML_UNLIMITED),
	CYAML_FIELD_ENUM("severity", CYAML_FLAG_STRICT, struct raw_rule, severity,
		severity_strings, COUNT(severity_strings)),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t rule_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_rule, rule_fields),
};

static const cyaml_schema_field_t pool_fields[] = {
	CYAML_FIELD_STRING_PTR("name", CYAML_FLAG_DEFAULT, struct raw_pool, name, 1, CYAML_UNLIMITED),
	STRINGS("labels", struct raw_pool, labels),
	STRINGS("taints", struct raw_pool, taints),
	STRINGS("capacity", struct raw_pool, capacity),
	STRINGS("allocatable", struct raw_pool, allocatable),
	STRING("nodes", struct raw_pool, nodes),
	BOOL("spot", struct raw_pool, spot),
	CYAML_FIELD_END
};
static const cyaml_schema_value_t pool_entry = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_DEFAULT, struct raw_pool, pool_fields),
};

static const cyaml_schema_field_t cluster_fields[] = {
	STRINGS("knative-features", struct raw_cluster, knative_features),
	STRING("kserve-default-deployment-mode", struct raw_cluster, kserve_default_deployment_mode),
	STRING("kserve-version", struct raw_cluster, kserve_version),
	BOOL("extended-resource-toleration", struct raw_cluster, extended_resource_toleration),
	BOOL("gpu-nodes-tainted", struct raw_cluster, gpu_nodes_tainted),
	STRING("provider", struct raw_cluster, provider),
	STRINGS("gpu-device-classes", struct raw_cluster, gpu_device_classes),
	BOOL("toleration-comparison-operators", struct raw_cluster, toleration_comparison_operators),
	STRINGS("gpu-resources", struct raw_cluster, gpu_resources),
	STRINGS("accelerator-resources", struct raw_cluster, accelerator_resources),
	STRINGS("gpu-node-labels", struct raw_cluster, gpu_node_labels),
	STRINGS("spot-labels", struct raw_cluster, spot_labels),
	STRING("critical-priority", struct raw_cluster, critical_priority),
	STRINGS("critical-priority-classes", struct raw_cluster, critical_priority_classes),
	STRINGS("priority-classes", struct raw_cluster, priority_classes),
	STRINGS("batch-kinds", struct raw_cluster, batch_kinds),
	CYAML_FIELD_SEQUENCE("node-pools", OPT, struct raw_cluster, node_pools, &pool_entry,
		0, CYAML_UNLIMITED),
	STRING("node-inventory", struct raw_cluster, node_inventory),
	STRING("name", struct raw_cluster, name),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t project_fields[] = {
	STRINGS("include", struct raw_project, include),
	STRINGS("exclude", struct raw_project, exclude),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t kustomize_fields[] = {
	STRING("load-restrictor", struct raw_kustomize, load_restrictor),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t render_fields[] = {
	STRING("helm-chart", struct raw_render, helm_chart),
	CYAML_FIELD_MAPPING_PTR("kustomize", OPT, struct raw_render, kustomize, kustomize_fields),
	CYAML_FIELD_END
};

static const cyaml_schema_field_t top_fields[] = {
	STRING("extend", struct raw_config, extend),
	STRINGS("exclude", struct raw_config, exclude),
	CYAML_FIELD_ENUM_PTR("fail-on", OPT | CYAML_FLAG_STRICT, struct raw_config, fail_on,
		fail_on_strings, COUNT(fail_on_strings)),
	CYAML_FIELD_SEQUENCE("rules", OPT, struct raw_config, rules, &rule_entry,
		0, CYAML_UNLIMITED),
	CYAML_FIELD_MAPPING_PTR("cluster", OPT, struct raw_config, cluster, cluster_fields),
	CYAML_FIELD_MAPPING_PTR("project", OPT, struct raw_config, project, project_fields),
	CYAML_FIELD_IGNORE("custom-rules", CYAML_FLAG_OPTIONAL),   /* custom.c reads it, as a positioned tree */
	CYAML_FIELD_IGNORE("per-file-ignores", CYAML_FLAG_OPTIONAL),   /* ignores.c reads it: its keys are globs */
	CYAML_FIELD_MAPPING_PTR("render", OPT, struct raw_config, render, render_fields),
	STRINGS("plugins", struct raw_config, plugins),
	CYAML_FIELD_END
};
const cyaml_schema_value_t sl_config__top_schema = {
	CYAML_VALUE_MAPPING(CYAML_FLAG_POINTER_NULL_STR, struct raw_config, top_fields),
};

/* What a key's value must be, for messages; keys not listed use libcyaml's type. An enumeration
** names its values, for the closest spelling of a wrong one. */
const struct expectation sl_config__expectations[] = {
	{ "fail-on", "error, warning or info", fail_on_strings, COUNT(fail_on_strings) },
	{ "severity", "error, warning, info or off", severity_strings, COUNT(severity_strings) },
	{ "extended-resource-toleration", "true or false", bool_strings, COUNT(bool_strings) },
	{ "gpu-nodes-tainted", "true or false", bool_strings, COUNT(bool_strings) },
	{ "toleration-comparison-operators", "true or false", bool_strings, COUNT(bool_strings) },
	{ "critical-priority", "an integer", NULL, 0 },
	{ "nodes", "an integer", NULL, 0 },
};

const char *const sl_config__providers[] = { "generic", "gke", "eks", "aks" };   /* sl_provider */
const char *const sl_config__deployment_modes[] = {
	"Standard", "Knative", "ModelMesh", "RawDeployment", "Serverless",
};
const char *const sl_config__taint_effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };
/* render.kustomize.load-restrictor: kustomize's LoadRestrictionsRootOnly (its default) and
** LoadRestrictionsNone */
const char *const sl_config__load_restrictors[] = { "rootOnly", "none" };

/* The flags of Knative's config-features (domain.md §2.1; knative/serving
** pkg/apis/config/features.go). cluster.knative-features names a flag in full, or a
** kubernetes.podspec-* flag by what follows that prefix ("nodeselector"): index.c reads both. */
#define PODSPEC_PREFIX "kubernetes.podspec-"
static const char *const knative_flags[] = {
	PODSPEC_PREFIX "affinity", PODSPEC_PREFIX "nodeselector", PODSPEC_PREFIX "tolerations",
	PODSPEC_PREFIX "topologyspreadconstraints", PODSPEC_PREFIX "priorityclassname",
	PODSPEC_PREFIX "schedulername", PODSPEC_PREFIX "runtimeclassname", PODSPEC_PREFIX "hostipc",
	PODSPEC_PREFIX "hostpid", PODSPEC_PREFIX "hostnetwork", PODSPEC_PREFIX "hostaliases",
	PODSPEC_PREFIX "dnspolicy", PODSPEC_PREFIX "dnsconfig", PODSPEC_PREFIX "securitycontext",
	PODSPEC_PREFIX "shareprocessnamespace", PODSPEC_PREFIX "init-containers",
	PODSPEC_PREFIX "fieldref", PODSPEC_PREFIX "volumes-emptydir",
	PODSPEC_PREFIX "volumes-hostpath", PODSPEC_PREFIX "volumes-csi",
	PODSPEC_PREFIX "volumes-ephemeral", PODSPEC_PREFIX "volumes-image",
	PODSPEC_PREFIX "volumes-mount-propagation", PODSPEC_PREFIX "persistent-volume-claim",
	PODSPEC_PREFIX "persistent-volume-write",
	"kubernetes.containerspec-addcapabilities", "multi-container", "multi-container-probing",
	"queueproxy.mount-podinfo", "queueproxy.resource-defaults", "secure-pod-defaults",
	"tag-header-based-routing", "autodetect-http2",
};

/* A flag's short name ("nodeselector"), or NULL when it has none. */
static const char *knative_short_name(const char *flag)
{
	size_t n = strlen(PODSPEC_PREFIX);
	return strncmp(flag, PODSPEC_PREFIX, n) == 0 ? flag + n : NULL;
}

/* True when name is a flag of knative_flags, in full or by its short name. */
bool sl_config__knative_flag_known(const char *name)
{
	for (size_t i = 0; i < COUNT(knative_flags); i++) {
		const char *short_name = knative_short_name(knative_flags[i]);
		if (strcmp(name, knative_flags[i]) == 0 || (short_name && strcmp(name, short_name) == 0))
			return true;
	}
	return false;
}

const char *sl_config__knative_flag_closest(const char *name)
{
	sl_spelling s;
	sl_spelling_init(&s, name);
	for (size_t i = 0; i < COUNT(knative_flags); i++) {
		sl_spelling_consider(&s, knative_short_name(knative_flags[i]));
		sl_spelling_consider(&s, knative_flags[i]);
	}
	return sl_spelling_best(&s);
}

/* "; did you mean "best"?" in buf, or "" when best is NULL. */
const char *sl_config__did_you_mean(const char *best, char *buf, size_t size)
{
	if (!best)
		return "";
	snprintf(buf, size, "; did you mean \"%s\"?", best);
	return buf;
}

/* ---- errors ---- */

/* Formats the message into *error_out (when error_out is not NULL) and returns err,
** or SL_ENOMEM when the message cannot be allocated. */
sl_err sl_config__fail(char **error_out, sl_err err, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (error_out == NULL)
		return err;
	va_start(ap, fmt);
	msg = sl_xvprintf(fmt, ap);
	va_end(ap);
	if (!msg)
		return SL_ENOMEM;
	*error_out = msg;
	return err;
}

sl_err sl_config__more(char **acc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = sl_xvprintf(fmt, ap);
	va_end(ap);
	char *joined = msg && *acc ? sl_xprintf("%s\n%s", *acc, msg) : msg;
	if (!joined) {
		free(msg);
		return SL_ENOMEM;
	}
	if (joined != msg) {
		free(msg);
		free(*acc);
	}
	*acc = joined;
	return SL_ECONFIG;
}

const char *sl_config_provider_name(sl_provider p)
{
	return (unsigned)p < COUNT(sl_config__providers) ? sl_config__providers[p] : sl_config__providers[0];
}

const size_t sl_config__deployment_modes_count = COUNT(sl_config__deployment_modes);

const size_t sl_config__expectations_count = COUNT(sl_config__expectations);

const size_t sl_config__load_restrictors_count = COUNT(sl_config__load_restrictors);

const size_t sl_config__providers_count = COUNT(sl_config__providers);

const size_t sl_config__taint_effects_count = COUNT(sl_config__taint_effects);
