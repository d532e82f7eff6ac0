/* SPDX-License-Identifier: Apache-2.0
** gpu-without-toleration: a GPU-requesting unit does not tolerate the taint GPU nodes carry.
** One finding per missing taint key, at the first GPU request or limit that needs it. */
#include "rule.h"

/** ## What it does
 * Reports a placement unit whose containers request (or limit) a GPU resource while no
 * toleration of the unit tolerates a `NoSchedule` taint on the GPU taint key. The taint key is
 * the resource name (`nvidia.com/gpu`, `amd.com/gpu`, ...), except that nodes serving
 * `nvidia.com/mig-`-prefixed resources carry `nvidia.com/gpu`. A toleration counts when its key
 * is that key (or it is empty with `operator: Exists`), its operator is `Exists`, or `Equal` /
 * empty with any value (providers taint with `true` or `present`), and its effect is empty or
 * `NoSchedule`.
 *
 * The rule runs only while the config says GPU nodes are tainted
 * (`cluster.gpu-nodes-tainted: true`, the default) and the ExtendedResourceToleration admission
 * plugin is not known to be on (`cluster.extended-resource-toleration: false`, the default).
 * An InferenceService predictor with no tolerations of its own takes them from the ServingRuntime
 * its `model.runtime` names (when that runtime is among the linted files), and a Seldon Server
 * from its ServerConfig: KServe and Seldon merge the pod specs, a non-empty list replacing the
 * other.
 *
 * ## Why is this bad?
 * GPU node pools are normally tainted `nvidia.com/gpu[=<value>]:NoSchedule` (GKE adds
 * `nvidia.com/gpu=present:NoSchedule` to GPU nodes in mixed clusters; the NVIDIA device plugin's
 * own DaemonSet tolerates exactly that key) so that CPU pods stay off them. A pod that requests a
 * GPU but does not tolerate the taint fits no node: it stays Pending with
 * `node(s) had untolerated taint {nvidia.com/gpu: ...}`. Kubernetes adds the toleration
 * automatically only when the ExtendedResourceToleration admission plugin is enabled, and it is
 * not among the default admission plugins.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     tolerations:
 *       - key: nvidia.com/gpu
 *         operator: Exists
 *         effect: NoSchedule
 *     model:
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Safe: the fix adds `{key: <taint key>, operator: Exists, effect: NoSchedule}` as the last
 * item of the unit's own `tolerations` list (a `{...}` item when the list is a flow sequence),
 * or adds a `tolerations:` list holding it as the last field of the pod spec (the component
 * of a KServe unit, `spec.podSpec` of a Seldon Server) when the unit has none. The toleration
 * only permits: it cannot move pods anywhere the GPU request does not already confine them.
 * Declined (no fix) when the unit's tolerations come from a ServingRuntime or ServerConfig
 * (adding one of its own would replace that whole list), when `tolerations` is written but is
 * not a sequence, when it or the pod spec is an alias or anchored (the edit would change other
 * objects), and when the pod spec is a flow mapping.
 *
 * ## Options
 * `cluster.gpu-nodes-tainted` (off: the rule never reports),
 * `cluster.extended-resource-toleration` (on: the admission plugin adds the toleration, the
 * rule never reports), `cluster.gpu-resources` (the resource names that count as GPUs).
 *
 * ## References
 * - kubernetes staging/src/k8s.io/api/core/v1/toleration.go, `ToleratesTaint`
 * - kubernetes plugin/pkg/admission/extendedresourcetoleration/admission.go
 * - NVIDIA k8s-device-plugin deployments/static/nvidia-device-plugin.yml (toleration of
 *   `nvidia.com/gpu`)
 * - Kubernetes, Taints and Tolerations, "Nodes with Special Hardware",
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/
 * - GKE, Run GPUs in Standard node pools, https://cloud.google.com/kubernetes-engine/docs/how-to/gpus
 */

/* True when toleration t tolerates a NoSchedule taint on key with some value. */
static bool tolerates_gpu_taint(const sl_node *t, const char *key)
{
	const sl_node *kn = sl_map_get(t, "key");
	const char *k = kn ? sl_scalar(kn) : "";
	const char *op = sl_scalar(sl_map_get(t, "operator"));
	const sl_node *en = sl_map_get(t, "effect");
	const char *eff = en ? sl_scalar(en) : "";
	if (!k || !eff || (*eff && strcmp(eff, "NoSchedule") != 0))
		return false;
	bool exists = op && strcmp(op, "Exists") == 0;
	if (!*k)
		return exists;
	if (strcmp(k, key) != 0)
		return false;
	return exists || !op || !*op || strcmp(op, "Equal") == 0;
}

static bool list_tolerates(const sl_node *tols, const char *key)
{
	for (size_t i = 0; i < sl_seq_n(tols); i++)
		if (tolerates_gpu_taint(sl_seq_item(tols, i), key))
			return true;
	return false;
}

/* The first unit of o (or NULL). */
static const sl_unit *first_unit(const sl_object *o)
{
	return o && o->n_units ? &o->units[0] : NULL;
}

/* The tolerations the unit's pods end up with: its own list, else (empty list) the list of the
** object its pod spec is merged with, when that object is among the linted files. */
static const sl_node *effective_tolerations(const sl_index *ix, const sl_unit *u)
{
	if (sl_seq_n(u->tolerations) > 0)
		return u->tolerations;
	const sl_object *o = u->obj;
	const sl_unit *base = NULL;
	if (o->kind == SL_KIND_INFERENCE_SERVICE &&
	    (u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY)) {
		const char *rt = sl_scalar(sl_map_get(sl_map_get(u->component, "model"), "runtime"));
		if (rt) {
			base = first_unit(sl_index_find(ix, SL_KIND_SERVING_RUNTIME, rt));
			if (!base)
				base = first_unit(sl_index_find(ix, SL_KIND_CLUSTER_SERVING_RUNTIME, rt));
		}
	} else if (o->kind == SL_KIND_SELDON_SERVER) {
		base = first_unit(sl_index_server_config(ix, o));
	}
	return base ? base->tolerations : u->tolerations;
}

/* Attaches the fix: the toleration of taint key `taint` added to u's own tolerations. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u, const sl_node *effective,
		    const char *taint)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *pod = sl_deref(u->pod);
	const sl_node *own = u->tolerations;
	if (!r || !pod || pod->type != SL_NODE_MAP || sl_node_anchor(pod))
		return;
	/* Merged from a runtime or ServerConfig: a list of the unit's own would replace it. */
	if (effective != own && sl_seq_n(effective) > 0)
		return;
	bool ok;
	if (own) {
		if (own->parent != pod || sl_node_anchor(own))
			return;   /* an alias or an anchor: other objects share the list */
		if (own->style)
			ok = sl_fix_add_item(ctx, r, own,
					     sl_arena_printf(a, "key: %s, operator: Exists, effect: NoSchedule",
							     taint));
		else
			ok = sl_fix_add_item(ctx, r, own,
					     sl_arena_printf(a, "key: %s\noperator: Exists\neffect: NoSchedule",
							     taint));
	} else if (sl_map_get_key(pod, "tolerations")) {
		return;   /* written, but not a sequence (schema-type) or null */
	} else {
		ok = sl_fix_add_entry(ctx, r, pod, "tolerations",
				      sl_arena_printf(a, "- key: %s\n  operator: Exists\n  effect: NoSchedule",
						      taint));
	}
	if (ok)
		sl_fix_describe(ctx, r, SL_FIX_SAFE,
				"add the toleration {key: %s, operator: Exists, effect: NoSchedule}", taint);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const sl_index *ix = sl_ctx_index(ctx);
	if (sl_cluster_gpu_nodes_tainted(ix, u, sl_ctx_arena(ctx)).value != SL_TRI_YES ||
	    sl_cluster_extended_resource_toleration(ix, u, sl_ctx_arena(ctx)).value == SL_TRI_YES)
		return SL_OK;
	const sl_node *tols = effective_tolerations(sl_ctx_index(ctx), u);
	/* Each GPU taint key once, at the first request or limit that needs it. */
	const char *done[8];
	size_t n_done = 0;
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		const sl_node *lists[2] = {c->limits, c->requests};
		for (int l = 0; l < 2; l++) {
			for (size_t j = 0; j < sl_map_n(lists[l]); j++) {
				const sl_pair *p = sl_map_pair(lists[l], j);
				const char *name = sl_scalar(p->key);
				if (!sl_is_gpu_resource(cfg, name) || sl_quantity_node_is_zero(p->value))
					continue;
				const char *taint = sl_gpu_taint_key(name);
				bool seen = false;
				for (size_t d = 0; d < n_done; d++)
					seen = seen || strcmp(done[d], taint) == 0;
				if (seen)
					continue;
				if (n_done < sizeof done / sizeof *done)
					done[n_done++] = taint;
				if (list_tolerates(tols, taint))
					continue;
				sl_report *r = sl_report_at(ctx, p->value,
					     "%s: %s %s %s but the unit does not tolerate the %s:NoSchedule "
					     "taint GPU nodes carry, so it stays Pending on tainted GPU nodes "
					     "(the ExtendedResourceToleration admission plugin that would add "
					     "it is off by default); add {key: %s, operator: Exists, effect: "
					     "NoSchedule}",
					     sl_ctx_label(ctx, u), sl_container_label(ctx, c),
					     l == 0 ? "limits" : "requests", name, taint, taint);
				add_fix(ctx, r, u, tols, taint);
			}
		}
	}
	return SL_OK;
}

SL_RULE(gpu_without_toleration, .id = "gpu-without-toleration", .category = "gpu",
	.summary = "Requests a GPU but does not tolerate the GPU node taint",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_SAFE, .check_unit = check);
