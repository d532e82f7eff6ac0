/* SPDX-License-Identifier: Apache-2.0
** knative-feature-flag-required: a Knative-run unit sets a PodSpec field that a
** `kubernetes.podspec-*` feature flag gates while that flag is not known to be enabled. */
#include "sdk/rule.h"

/** ## What it does
 * Reports each field of a pod template run through Knative (a Knative Service or Configuration;
 * an InferenceService or InferenceGraph whose deployment mode resolves to Knative) that Knative
 * accepts only behind a `config-features` flag, when that flag is not known to be enabled:
 * `affinity`, `nodeSelector`, `tolerations`, `topologySpreadConstraints`, `priorityClassName`,
 * `schedulerName`, `runtimeClassName`, `hostIPC`, `hostPID`, `hostNetwork`, `hostAliases`,
 * `dnsPolicy`, `dnsConfig`, the pod `securityContext`, `shareProcessNamespace`,
 * `initContainers`; volumes of type `hostPath`, `csi`, `ephemeral`, `image`,
 * `persistentVolumeClaim` (and a writable one), and `emptyDir` when that flag is turned off; and
 * in containers `volumeMounts[].mountPropagation`, `securityContext.capabilities.add` and env
 * `fieldRef`/`resourceFieldRef`. One finding per gated field, at its key. A plain field at its
 * zero value (`hostNetwork: false`) or an empty list or map (`nodeSelector: {}`) is not
 * reported; a pointer field such as `affinity`, `securityContext` or `shareProcessNamespace` is
 * reported whenever present, since Knative compares with an unset field (go-cmp).
 *
 * The flag's state: a `KnativeServing` CR (`spec.config.features`) among the linted files wins
 * (the operator rewrites the ConfigMap); else a `config-features` ConfigMap in namespace
 * `knative-serving` among them that sets the flag; else config `cluster.knative-features` (the
 * flags the cluster enables). The finding is an **error** only when a source says the flag is
 * off: it is written `disabled` (or `allowed` where Knative needs `enabled`, or a value Knative
 * ignores, leaving the default), a KnativeServing CR leaves it unset, or the config's list
 * leaves it out. It is a **warning** that says the state is unknown when nothing says anything,
 * when two CRs or two ConfigMaps set the flag differently, or when a `config-features`
 * ConfigMap leaves the flag unset; the notes name the config key that settles it,
 * `cluster.knative-features`, which also settles the last two cases. The first line says the
 * state in a few words ("it is off", "it is \"disabled\"", "its state is unknown"); a note names
 * its source with file and line (both, when two disagree).
 *
 * Why a CR that leaves a flag unset counts as "disabled" and a ConfigMap does not: the Knative
 * Operator owns `config-features` (it writes it from `spec.config.features` and reverts other
 * edits, Knative docs "Configuring Knative by using the Operator"), so an unset flag really has
 * Knative's default. A linted `config-features` ConfigMap is often upstream's, which ships only
 * an `_example` block and is then changed with `kubectl patch` (the KServe node-scheduling docs
 * do this), so a flag it leaves unset says nothing about the cluster. `allowed` counts as enabled
 * for the fields `PodSpecMask` copies, but not for the volume types and `capabilities.add`,
 * which Knative checks with `== Enabled`.
 *
 * An InferenceService or InferenceGraph runs through Knative when its
 * `serving.kserve.io/deploymentMode` annotation says so, or, without a valid one, when the
 * cluster's default mode is Knative: an `inferenceservice-config` ConfigMap among the linted
 * files (`data.deploy`, `defaultDeploymentMode`), else config
 * `cluster.kserve-default-deployment-mode`, else KServe's shipped default, Serverless. A note
 * names where a defaulted mode came from. The first line is short; the notes quote the webhook
 * error users would see, and say how to settle or fix the flag.
 *
 * An InferenceGraph's Knative Service gets only the graph's `affinity`, `tolerations` and
 * `nodeSelector`, so only those are checked there. `predictor.workerSpec` is not rendered into
 * the Knative Service and is not checked.
 *
 * ## Why is this bad?
 * Knative's webhook copies a PodSpec field into the revision only when its flag is not
 * `Disabled` (`PodSpecMask`, knative/serving `pkg/apis/serving/fieldmask.go`) and rejects the
 * rest with "must not set the field(s): spec.template.spec.nodeSelector"
 * (`pkg/apis/serving/k8s_validation.go`, `ValidatePodSpec`). Every such flag is disabled by
 * default (`defaultFeaturesConfig`, `pkg/apis/config/features.go`). For an InferenceService the
 * error is not seen at `kubectl apply`: KServe renders the component into a Knative Service,
 * Knative rejects that, and the InferenceService never becomes ready ("fails to reconcile
 * predictor: admission webhook "validation.webhook.serving.knative.dev" denied the request",
 * kserve/kserve issues 1425 and 1433).
 *
 * ## Example
 * ```yaml
 * apiVersion: serving.knative.dev/v1
 * kind: Service
 * metadata:
 *   name: classifier
 * spec:
 *   template:
 *     spec:
 *       nodeSelector:
 *         workload: inference
 *       containers:
 *         - image: registry.example.com/classifier:1.4
 * ```
 * Use instead (with the flag turned on in the cluster, and the ConfigMap linted alongside):
 * ```yaml
 * apiVersion: v1
 * kind: ConfigMap
 * metadata:
 *   name: config-features
 *   namespace: knative-serving
 * data:
 *   kubernetes.podspec-nodeselector: "enabled"
 * ```
 *
 * ## Fix safety
 * Unsafe, and only when the flag's state was read from a `config-features` ConfigMap or a
 * KnativeServing CR among the linted files (not when two of them disagree): the fix edits that
 * file (often not the one the finding is in). When the flag is written there with another value (`disabled`, `allowed`
 * for a check that needs `enabled`, or a value Knative ignores), it replaces the value with
 * `enabled`, keeping its quotes; when it is not written, it adds
 * `kubernetes.podspec-<x>: "enabled"` as the last entry of the ConfigMap's `data` (or the CR's
 * `spec.config.features`), creating `data:` (or `features:` / `config:` / `spec:`) when missing.
 * Unsafe because it turns a feature on for the whole cluster. It introduces no finding: the
 * enabled flag only lets fields through. Several findings of one flag
 * offer the same edit; it is applied once. No fix when the state comes from config
 * `cluster.knative-features` or nothing says anything, and none when the mapping or value is
 * an alias, anchored, present but of another type, or a flow mapping that cannot take a
 * nested block.
 *
 * ## Options
 * `cluster.knative-features` (the flags the cluster enables, short names such as
 * `nodeselector`; a flag it leaves out is disabled), read when no KnativeServing CR or
 * `config-features` ConfigMap among the linted files decides. `cluster.kserve-default-deployment-mode`.
 *
 * ## References
 * - knative/serving `pkg/apis/serving/fieldmask.go` (`PodSpecMask`, `VolumeSourceMask`,
 *   `VolumeMountMask`, `CapabilitiesMask`, `PodSecurityContextMask`)
 * - knative/serving `pkg/apis/serving/k8s_validation.go` (`validateVolume`)
 * - knative/serving `pkg/apis/config/features.go` (`defaultFeaturesConfig`, `asFlag`)
 * - knative/serving `config/core/configmaps/features.yaml` (upstream ships only `_example`)
 * - Knative, Configuring Knative by using the Operator: https://knative.dev/docs/install/operator/configuring-with-operator/
 * - kserve `pkg/apis/serving/v1beta1/configmap.go` (`NewDeployConfig`, `defaultDeploymentMode`)
 * - Knative, Feature and extension flags: https://knative.dev/docs/serving/configuration/feature-flags/
 * - KServe node scheduling: https://kserve.github.io/website/docs/model-serving/node-scheduling/isvc-node-scheduling
 */

enum state {
	ST_ENABLED,
	ST_ALLOWED,      /* written "allowed": enough where Knative checks != Disabled */
	ST_DISABLED,     /* written "disabled" */
	ST_IGNORED,      /* written with a value Knative ignores: its default holds */
	ST_CR_UNSET,     /* a KnativeServing CR leaves it unset: the operator writes the default */
	ST_CONFIG_OFF,   /* config cluster.knative-features is set and does not list it */
	ST_CM_UNSET,     /* a config-features ConfigMap leaves it unset (it may be patched): unknown */
	ST_CONFLICT,     /* two CRs or ConfigMaps disagree: unknown */
	ST_UNKNOWN,      /* nothing says */
};

typedef struct flag_info {
	enum state st;
	sl_flag_origin origin;
	const char *raw;          /* the value as written, NULL when unset */
} flag_info;

static bool ieq(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

static flag_info read_flag(sl_ctx *ctx, const char *flag)
{
	flag_info fi;
	sl_flag_state s = sl_index_knative_flag(sl_ctx_index(ctx), flag, &fi.origin);
	fi.raw = sl_scalar(fi.origin.node);
	if (fi.origin.from_config)
		fi.st = s == SL_FLAG_ENABLED ? ST_ENABLED : ST_CONFIG_OFF;
	else if (fi.origin.other)
		fi.st = ST_CONFLICT;
	else if (fi.origin.node) {
		if (ieq(fi.raw, "enabled"))
			fi.st = ST_ENABLED;
		else if (ieq(fi.raw, "allowed"))
			fi.st = ST_ALLOWED;
		else if (ieq(fi.raw, "disabled"))
			fi.st = ST_DISABLED;
		else
			fi.st = ST_IGNORED;   /* Knative's asFlag ignores the value: the default holds */
	} else if (fi.origin.obj)
		fi.st = fi.origin.obj->kind == SL_KIND_KNATIVE_SERVING ? ST_CR_UNSET : ST_CM_UNSET;
	else
		fi.st = ST_UNKNOWN;
	return fi;
}

/* True when Knative lets the field through. strict: the check is `== Enabled`. def_on: the
** flag's default is enabled (emptyDir). Sources that disagree never let it through. */
static bool passes(const flag_info *fi, bool strict, bool def_on)
{
	switch (fi->st) {
	case ST_ENABLED:
		return true;
	case ST_ALLOWED:
		return !strict;
	case ST_DISABLED:
	case ST_CONFLICT:
		return false;
	case ST_IGNORED:
	case ST_CR_UNSET:
	case ST_CONFIG_OFF:
	case ST_CM_UNSET:
	case ST_UNKNOWN:
		return def_on;
	}
	return false;
}

/* Only a source that says the flag is off makes an error; the rest rest on an unknown. */
static bool state_known(enum state st)
{
	return st != ST_CM_UNSET && st != ST_CONFLICT && st != ST_UNKNOWN;
}

/* "a.yaml:12" for node n (or the object's root) of object o. */
static const char *place(sl_ctx *ctx, const sl_object *o, const sl_node *n)
{
	uint32_t line = 0, col = 0;
	const sl_node *at = n ? n : o->root;
	if (at && o->doc && o->doc->src)
		sl_source_position(o->doc->src, at->start, &line, &col);
	return sl_arena_printf(sl_ctx_arena(ctx), "%s:%u", o->path ? o->path : "", line);
}

/* "KnativeServing knative-serving" or "ConfigMap config-features". */
static const char *source_name(sl_ctx *ctx, const sl_object *o)
{
	if (o->kind == SL_KIND_KNATIVE_SERVING)
		return sl_arena_printf(sl_ctx_arena(ctx), "KnativeServing %s", o->name ? o->name : "");
	return "ConfigMap config-features";
}

/* "ConfigMap config-features (a.yaml:7)": where the flag's state was read. */
static const char *origin_text(sl_ctx *ctx, const flag_info *fi)
{
	const sl_object *o = fi->origin.obj;
	const sl_node *at = fi->origin.node ? fi->origin.node
			  : fi->origin.map ? fi->origin.map : o->spec;
	return sl_arena_printf(sl_ctx_arena(ctx), "%s (%s)", source_name(ctx, o), place(ctx, o, at));
}

/* The end of the first line: what the flag's state is, in a few words (the notes say where it
** comes from). */
static const char *state_text(sl_ctx *ctx, const flag_info *fi)
{
	switch (fi->st) {
	case ST_ALLOWED:
		return "it is \"allowed\", not \"enabled\"";
	case ST_DISABLED:
		return sl_arena_printf(sl_ctx_arena(ctx), "it is \"%s\"", fi->raw);
	case ST_IGNORED:
	case ST_CR_UNSET:
	case ST_CONFIG_OFF:
		return "it is off";
	case ST_ENABLED:
	case ST_CM_UNSET:
	case ST_CONFLICT:
	case ST_UNKNOWN:
		break;
	}
	return "its state is unknown";
}

/* The note that settles or explains the state, and the way out. */
static void state_note(sl_ctx *ctx, sl_report *r, const char *flag, const flag_info *fi)
{
	const char *shortname = strncmp(flag, "kubernetes.podspec-", 19) == 0 ? flag + 19 : flag;
	const sl_flag_origin *o = &fi->origin;
	switch (fi->st) {
	case ST_ENABLED:
		return;
	case ST_UNKNOWN:
		sl_report_note(ctx, r, "Nothing among the linted files or the config says whether %s is "
			       "on, and Knative's default is disabled. If the cluster enables it, add `%s` "
			       "to config `cluster.knative-features` (or lint its config-features ConfigMap "
			       "or KnativeServing CR alongside); if not, enable it or remove the field.",
			       flag, shortname);
		return;
	case ST_CONFLICT:
		sl_report_note(ctx, r, "%s (%s) sets it to \"%s\" but %s (%s) sets it to \"%s\": which "
			       "one the cluster has depends on which was applied last. Keep one, or say "
			       "which holds with `%s` in config `cluster.knative-features`.",
			       source_name(ctx, o->obj), place(ctx, o->obj, o->node),
			       sl_scalar(o->node) ? sl_scalar(o->node) : "",
			       source_name(ctx, o->other), place(ctx, o->other, o->other_node),
			       sl_scalar(o->other_node) ? sl_scalar(o->other_node) : "", shortname);
		return;
	case ST_CM_UNSET:
		sl_report_note(ctx, r, "%s does not set the flag, so Knative's default (disabled) applies "
			       "unless the cluster sets it another way (the upstream ConfigMap ships only "
			       "`_example`, and clusters often `kubectl patch` it). Set it there (the "
			       "unsafe fix does), or, if the cluster enables it, add `%s` to config "
			       "`cluster.knative-features`.", origin_text(ctx, fi), shortname);
		return;
	case ST_CR_UNSET:
		sl_report_note(ctx, r, "%s does not set the flag. The Knative Operator writes ConfigMap "
			       "config-features from the CR's spec.config.features and reverts other "
			       "edits, so a flag the CR leaves unset has Knative's default, disabled. Add "
			       "it there (the unsafe fix does) or remove the field.",
			       origin_text(ctx, fi));
		return;
	case ST_CONFIG_OFF: {
		const sl_config *cfg = sl_ctx_config(ctx);
		sl_report_note(ctx, r, "Config `cluster.knative-features` (%s) lists the flags the cluster "
			       "enables, and `%s` is not among them. If the cluster enables it, add it "
			       "there; if not, enable it in config-features or remove the field.",
			       sl_config_knative_features_at(cfg, sl_ctx_arena(ctx)), shortname);
		return;
	}
	case ST_ALLOWED:
	case ST_DISABLED:
	case ST_IGNORED:
		sl_report_note(ctx, r, "%s sets it to \"%s\"%s. Set it to \"enabled\" there (the unsafe "
			       "fix does), or remove the field.", origin_text(ctx, fi), fi->raw,
			       fi->st == ST_IGNORED ? ", a value Knative ignores: the flag stays off"
			       : fi->st == ST_ALLOWED ? ", not \"enabled\"" : "");
		return;
	}
}

/* The note on how the rejection reaches the user, with the webhook's error. */
static void rejection_note(sl_ctx *ctx, sl_report *r, const sl_unit *u, const char *error)
{
	const char *full = sl_arena_printf(sl_ctx_arena(ctx), "admission webhook "
					   "\"validation.webhook.serving.knative.dev\" denied the "
					   "request: validation failed: %s", error);
	sl_kind k = u->obj->kind;
	if (k == SL_KIND_KNATIVE_SERVICE || k == SL_KIND_KNATIVE_CONFIGURATION) {
		sl_report_note(ctx, r, "Knative's webhook rejects the %s when it is applied: %s",
			       sl_kind_name(k), full);
		return;
	}
	sl_report_note(ctx, r, "KServe accepts the %s, but Knative's webhook rejects the Knative "
		       "Service KServe renders for it; the error shows only in the %s's status and "
		       "events: %s", sl_kind_name(k), sl_kind_name(k), full);
	sl_report_note_default_mode(ctx, r, u->obj);
}

/* Adds "key: fragment" to map (an own, unanchored mapping), or to parent as a new key holding
** it when map is absent from parent. */
static bool add_into(sl_ctx *ctx, sl_report *r, const sl_node *parent, const char *key,
		     const sl_node *map, const char *fragment)
{
	if (!map && parent && !sl_node_anchor(parent) && !sl_map_get_key(parent, key))
		return sl_fix_add_entry(ctx, r, parent, key, fragment);
	return false;
}

/* Attaches the fix: the flag set to "enabled" in the ConfigMap or KnativeServing CR its state
** was read from (another linted file, often). */
static void add_fix(sl_ctx *ctx, sl_report *r, const char *flag, const flag_info *fi)
{
	const sl_object *o = fi->origin.obj;
	if (!r || !o || fi->origin.from_config)
		return;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *map = sl_node_deref(fi->origin.map), *v = fi->origin.node;
	const char *where = o->kind == SL_KIND_KNATIVE_SERVING
		? sl_arena_printf(a, "the KnativeServing CR %s", o->name ? o->name : "")
		: "ConfigMap config-features";
	bool ok = false;
	if (v) {
		if (!sl_node_owns(map, v) || sl_node_anchor(map) || v->type != SL_NODE_SCALAR)
			return;
		const char *text = v->style == SL_STYLE_DOUBLE ? "\"enabled\""
				 : v->style == SL_STYLE_SINGLE ? "'enabled'"
				 : v->style == SL_STYLE_PLAIN ? "enabled" : NULL;
		ok = text && sl_fix_replace_node(ctx, r, v, text);
		if (ok)
			sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "set %s to \"enabled\" in %s", flag, where);
		return;
	}
	const sl_node *root = sl_node_deref(o->root);
	const char *q = sl_fix_quote(ctx, root, "enabled");
	const char *entry = sl_arena_printf(a, "%s: %s", flag, q);
	if (!q || !entry)
		return;
	if (map) {
		if (map->type != SL_NODE_MAP || sl_node_anchor(map) || !map->parent || sl_node_anchor(map->parent))
			return;
		ok = sl_fix_add_entry(ctx, r, map, flag, q);
	} else if (o->kind == SL_KIND_CONFIGMAP) {
		ok = add_into(ctx, r, root, "data", NULL, entry);
	} else {
		const sl_node *spec = sl_map_get(root, "spec");
		const sl_node *config = sl_map_get(spec, "config");
		if (config)
			ok = config->type == SL_NODE_MAP &&
			     add_into(ctx, r, config, "features", sl_map_get(config, "features"), entry);
		else if (spec)
			ok = spec->type == SL_NODE_MAP &&
			     add_into(ctx, r, spec, "config", NULL,
				      sl_arena_printf(a, "features:\n  %s", entry));
		else
			ok = add_into(ctx, r, root, "spec", NULL,
				      sl_arena_printf(a, "config:\n  features:\n    %s", entry));
	}
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "add %s: \"enabled\" to %s", flag, where);
}

static void report(sl_ctx *ctx, const sl_unit *u, const sl_node *value, const char *what,
		   const char *flag, const flag_info *fi, const char *error)
{
	sl_report *r = sl_report_key(ctx, value, "%s sets %s, which needs %s; %s",
				     sl_ctx_label(ctx, u), what, flag, state_text(ctx, fi));
	if (!state_known(fi->st))
		sl_report_cap(r, SL_SEV_WARNING);
	rejection_note(ctx, r, u, error);
	state_note(ctx, r, flag, fi);
	if (fi->st != ST_CONFLICT)
		add_fix(ctx, r, flag, fi);
}

/* The PodSpec fields a flag gates: (field, flag, router: an InferenceGraph copies it into its
** Knative Service, ptr: a pointer field in corev1.PodSpec). */
#define POD_GATES(X) \
	X("affinity", "kubernetes.podspec-affinity", true, true) \
	X("nodeSelector", "kubernetes.podspec-nodeselector", true, false) \
	X("tolerations", "kubernetes.podspec-tolerations", true, false) \
	X("topologySpreadConstraints", "kubernetes.podspec-topologyspreadconstraints", false, false) \
	X("priorityClassName", "kubernetes.podspec-priorityclassname", false, false) \
	X("schedulerName", "kubernetes.podspec-schedulername", false, false) \
	X("runtimeClassName", "kubernetes.podspec-runtimeclassname", false, true) \
	X("hostIPC", "kubernetes.podspec-hostipc", false, false) \
	X("hostPID", "kubernetes.podspec-hostpid", false, false) \
	X("hostNetwork", "kubernetes.podspec-hostnetwork", false, false) \
	X("hostAliases", "kubernetes.podspec-hostaliases", false, false) \
	X("dnsPolicy", "kubernetes.podspec-dnspolicy", false, false) \
	X("dnsConfig", "kubernetes.podspec-dnsconfig", false, true) \
	X("shareProcessNamespace", "kubernetes.podspec-shareprocessnamespace", false, true) \
	X("initContainers", "kubernetes.podspec-init-containers", false, false)
#define GATE(field, flag, router, ptr) {field, flag, router, ptr},
#define GATE_FIELD(field, flag, router, ptr) SL_FIELD(field, SL_T_ANY),

static const struct gate {
	const char *field, *flag;
	bool router, ptr;
} pod_gates[] = {POD_GATES(GATE)};
#define N_GATES (sizeof pod_gates / sizeof pod_gates[0])
/* the gated fields, then the two the checks below read, found together (sl_model_find) */
static const sl_model_fspec pod_fields[] = {
	POD_GATES(GATE_FIELD) SL_FIELD("securityContext", SL_T_ANY), SL_FIELD("volumes", SL_T_ANY),
};

static bool secure_defaults_on(sl_ctx *ctx)
{
	flag_info fi = read_flag(ctx, "secure-pod-defaults");
	if (fi.origin.from_config)
		return fi.st == ST_ENABLED;
	return ieq(fi.raw, "enabled") || ieq(fi.raw, "allowrootbounded");
}

/* Pod securityContext: let through by podspec-securitycontext; with secure-pod-defaults on,
** Knative lets the field through but keeps only a RuntimeDefault/Unconfined seccompProfile. */
static void check_security_context(sl_ctx *ctx, const sl_unit *u, const sl_node *sc)
{
	const char *flag = "kubernetes.podspec-securitycontext";
	flag_info fi = read_flag(ctx, flag);
	if (!sl_node_is_set(sc, true) || passes(&fi, false, false))
		return;
	sl_arena *a = sl_ctx_arena(ctx);
	if (!secure_defaults_on(ctx) || sc->type != SL_NODE_MAP) {
		report(ctx, u, sc, "securityContext", flag, &fi,
		       "must not set the field(s): spec.template.spec.securityContext");
		return;
	}
	for (size_t i = 0; i < sl_map_n(sc); i++) {
		const sl_pair *p = sl_map_pair(sc, i);
		const char *k = sl_scalar(p->key);
		if (!k || !sl_node_is_set(p->value, true))
			continue;
		if (strcmp(k, "seccompProfile") == 0) {
			const char *t = sl_scalar(sl_map_get(p->value, "type"));
			if (t && (strcmp(t, "RuntimeDefault") == 0 || strcmp(t, "Unconfined") == 0) &&
			    sl_map_n(p->value) == 1)
				continue;
		}
		report(ctx, u, p->value, sl_arena_printf(a, "securityContext.%s", k), flag, &fi,
		       sl_arena_printf(a, "must not set the field(s): spec.template.spec.securityContext.%s",
				       k));
	}
}

static const struct vgate {
	const char *key, *flag, *label;
	bool def_on;
} volume_gates[] = {
	{"hostPath", "kubernetes.podspec-volumes-hostpath", "HostPath", false},
	{"csi", "kubernetes.podspec-volumes-csi", "CSI", false},
	{"ephemeral", "kubernetes.podspec-volumes-ephemeral", "Ephemeral", false},
	{"image", "kubernetes.podspec-volumes-image", "Image", false},
	{"emptyDir", "kubernetes.podspec-volumes-emptydir", "EmptyDir", true},
};

static void check_volumes(sl_ctx *ctx, const sl_unit *u, const sl_node *vols)
{
	sl_arena *a = sl_ctx_arena(ctx);
	for (size_t i = 0; i < sl_seq_n(vols); i++) {
		const sl_node *v = sl_seq_item(vols, i);
		const char *name = sl_scalar(sl_map_get(v, "name"));
		if (!name)
			name = "";
		for (size_t g = 0; g < sizeof volume_gates / sizeof volume_gates[0]; g++) {
			const struct vgate *vg = &volume_gates[g];
			const sl_node *src = sl_map_get(v, vg->key);
			if (!sl_node_is_set(src, true))
				continue;
			flag_info fi = read_flag(ctx, vg->flag);
			if (passes(&fi, true, vg->def_on))
				continue;
			report(ctx, u, src, sl_arena_printf(a, "%s volume \"%s\"", vg->key, name), vg->flag,
			       &fi,
			       sl_arena_printf(a, "%s volume support is disabled, but found %s volume %s",
					       vg->label, vg->label, name));
		}
		const sl_node *pvc = sl_map_get(v, "persistentVolumeClaim");
		if (!sl_node_is_set(pvc, true))
			continue;
		const char *claim = sl_scalar(sl_map_get(pvc, "claimName"));
		if (!claim)
			claim = "";
		const char *flag = "kubernetes.podspec-persistent-volume-claim";
		flag_info fi = read_flag(ctx, flag);
		if (!passes(&fi, true, false))
			report(ctx, u, pvc, sl_arena_printf(a, "persistentVolumeClaim volume \"%s\"", name),
			       flag, &fi,
			       sl_arena_printf(a, "Persistent volume claim support is disabled, but found "
					       "persistent volume claim %s", claim));
		const sl_node *ro = sl_map_get(pvc, "readOnly");
		if (sl_node_is_set(ro, false))
			continue;
		flag = "kubernetes.podspec-persistent-volume-write";
		fi = read_flag(ctx, flag);
		if (!passes(&fi, true, false))
			report(ctx, u, ro ? ro : pvc,
			       sl_arena_printf(a, "a writable persistentVolumeClaim volume \"%s\"", name),
			       flag, &fi,
			       sl_arena_printf(a, "Persistent volume write support is disabled, but found "
					       "persistent volume claim %s that is not read-only", claim));
	}
}

/* "spec.template.spec.containers[1]" for Knative kinds; the index in the rendered Service is
** not known for KServe components. */
static const char *container_path(sl_ctx *ctx, const sl_unit *u, const sl_container *c)
{
	const char *list = c->init ? "initContainers" : "containers";
	if (u->obj->kind == SL_KIND_KNATIVE_SERVICE || u->obj->kind == SL_KIND_KNATIVE_CONFIGURATION)
		return sl_arena_printf(sl_ctx_arena(ctx), "spec.template.spec.%s[%u]", list,
				       (unsigned)c->node->pos);
	return sl_arena_printf(sl_ctx_arena(ctx), "spec.template.spec.%s[...]", list);
}

static void check_containers(sl_ctx *ctx, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		if (!c->node)
			continue;
		const sl_node *mounts = sl_map_get(c->node, "volumeMounts");
		for (size_t j = 0; j < sl_seq_n(mounts); j++) {
			const sl_node *mp = sl_map_get(sl_seq_item(mounts, j), "mountPropagation");
			const char *flag = "kubernetes.podspec-volumes-mount-propagation";
			if (!sl_node_is_set(mp, true))
				continue;
			flag_info fi = read_flag(ctx, flag);
			if (passes(&fi, false, false))
				continue;
			report(ctx, u, mp, sl_arena_printf(a, "mountPropagation in %s",
							    sl_ctx_container_label(ctx, c)), flag, &fi,
			       sl_arena_printf(a, "must not set the field(s): %s.volumeMounts[%zu]."
					       "mountPropagation", container_path(ctx, u, c), j));
		}
		const sl_node *add = sl_map_get(sl_map_get(sl_map_get(c->node, "securityContext"),
							   "capabilities"), "add");
		if (sl_node_is_set(add, false)) {
			const char *flag = "kubernetes.containerspec-addcapabilities";
			flag_info fi = read_flag(ctx, flag);
			bool only_bind = sl_seq_n(add) == 1 &&
					 sl_scalar_is(sl_seq_item(add, 0), "NET_BIND_SERVICE");
			if (!passes(&fi, true, false) && !(only_bind && secure_defaults_on(ctx)))
				report(ctx, u, add, sl_arena_printf(a, "capabilities.add in %s",
								   sl_ctx_container_label(ctx, c)), flag,
				       &fi,
				       sl_arena_printf(a, "must not set the field(s): %s.securityContext."
						       "capabilities.add", container_path(ctx, u, c)));
		}
		const sl_node *env = sl_map_get(c->node, "env");
		for (size_t j = 0; j < sl_seq_n(env); j++) {
			const sl_node *vf = sl_map_get(sl_seq_item(env, j), "valueFrom");
			static const char *const refs[] = {"fieldRef", "resourceFieldRef"};
			for (int r = 0; r < 2; r++) {
				const sl_node *ref = sl_map_get(vf, refs[r]);
				const char *flag = "kubernetes.podspec-fieldref";
				if (!sl_node_is_set(ref, true))
					continue;
				flag_info fi = read_flag(ctx, flag);
				if (passes(&fi, false, false))
					continue;
				report(ctx, u, ref, sl_arena_printf(a, "env %s in %s", refs[r],
							    sl_ctx_container_label(ctx, c)), flag, &fi,
				       sl_arena_printf(a, "must not set the field(s): %s.env[%zu].valueFrom.%s",
						       container_path(ctx, u, c), j, refs[r]));
			}
		}
	}
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	if (u->role == SL_ROLE_WORKER || !u->pod)
		return SL_OK;
	bool router = u->role == SL_ROLE_ROUTER;
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *f[N_GATES + 2];
	sl_model_find(u->pod, pod_fields, N_GATES + 2, f);
	for (size_t g = 0; g < N_GATES; g++) {
		const struct gate *pg = &pod_gates[g];
		if (router && !pg->router)
			continue;
		const sl_node *v = f[g];
		if (!sl_node_is_set(v, pg->ptr))
			continue;
		flag_info fi = read_flag(ctx, pg->flag);
		if (passes(&fi, false, false))
			continue;
		report(ctx, u, v, pg->field, pg->flag, &fi,
		       sl_arena_printf(a, "must not set the field(s): spec.template.spec.%s", pg->field));
	}
	if (router)
		return SL_OK;
	check_security_context(ctx, u, f[N_GATES]);
	check_volumes(ctx, u, f[N_GATES + 1]);
	check_containers(ctx, u);
	return SL_OK;
}

SL_RULE(knative_feature_flag_required, .id = "knative-feature-flag-required", .category = "knative",
	.summary = "A Knative-run unit sets a PodSpec field whose kubernetes.podspec-* flag is not enabled",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_UNSAFE, .check_unit = check,
	.modes = SL_MODE_BIT(SL_MODE_KNATIVE));
