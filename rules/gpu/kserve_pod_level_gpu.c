/* SPDX-License-Identifier: Apache-2.0
** kserve-pod-level-gpu: a GPU named in the pod-level `resources` directly under an
** InferenceService component. One finding per GPU entry, at its resource name. */
#include "sdk/rule.h"

/** ## What it does
 * Reports each GPU resource named under `requests` or `limits` of the `resources` block that
 * sits directly under an InferenceService component (`spec.predictor`, `spec.transformer`,
 * `spec.explainer`, `spec.predictor.workerSpec`, `spec.canary[].predictor`). A note
 * names where the entry belongs: the implementation's container resources
 * (`model.resources`, `triton.resources`, `art.resources`, `containers[0].resources`).
 *
 * Not reported for a ModelMesh InferenceService predictor: ModelMesh builds no pod from it
 * (its placement fields are ignored; `modelmesh-placement-ignored`).
 *
 * ## Why is this bad?
 * A component is an inline PodSpec, so since KServe 0.15 (commit `e5b7919bc`) the `resources`
 * key directly under it is the pod-level `PodSpec.resources` (Kubernetes' PodLevelResources
 * feature), not the container's. Kubernetes honours only `cpu`, `memory` and hugepages at pod
 * level (component-helpers `IsSupportedPodLevelResource`), KServe documents the field as "cpu"
 * and "memory" only, and Knative rejects pod-level `resources` outright. Whatever happens to
 * the entry, no container requests the GPU: the device plugin hands out none and the model
 * server starts on CPU or fails. Before 0.15 the key was unknown to KServe and silently pruned.
 * Container resources of a framework predictor go under the framework key; for a custom
 * container under `containers[i].resources`.
 *
 * ## Example
 * ```yaml
 * spec:
 *   predictor:
 *     resources:
 *       limits:
 *         nvidia.com/gpu: 1
 *     model:
 *       modelFormat:
 *         name: huggingface
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   predictor:
 *     model:
 *       modelFormat:
 *         name: huggingface
 *       resources:
 *         limits:
 *           nvidia.com/gpu: 1
 * ```
 *
 * ## Fix safety
 * Unsafe (the container then really gets the GPU, which changes where and how the model
 * server runs). When the component has exactly one implementation (one framework key such as
 * `model` or `triton`, or for an explainer `art`/`alibi`, or else a `containers` list, whose
 * main container is `kserve-container` or the first), the fix moves every GPU entry of the
 * pod-level `requests` and `limits` to that container's `resources.requests` /
 * `resources.limits`, as one fix of several edits (each finding of the component offers the
 * same fix). It removes the pod-level entries, or a `requests`/`limits` mapping that held only
 * GPUs, or the whole pod-level `resources` when nothing else is left in it; it adds the entries
 * to the container's mapping, creating `requests:`/`limits:` or `resources:` when missing.
 * Declined (no fix) when there is no single implementation; when the container already names
 * that resource in the same list (the move would conflict); when two GPU entries would go into
 * one existing mapping, or two new mappings into one existing `resources` (a single fix cannot
 * insert twice at one place: apply it by hand); when a value is not a one-line scalar; when
 * anything edited is an alias or anchored; and when an edit would put a block into a flow
 * mapping or remove an entry that does not start its own line.
 *
 * ## Options
 * `cluster.gpu-resources`: the resource names that count as GPUs.
 *
 * ## References
 * - kserve pkg/apis/serving/v1beta1/podspec.go, `Resources` ("supports specifying Requests
 *   and Limits for \"cpu\" and \"memory\" resource names only")
 * - kserve pkg/apis/serving/v1beta1/predictor.go, `PredictorExtensionSpec` (inlined
 *   `corev1.Container`: the framework key holds the container's `resources`)
 * - kubernetes staging/src/k8s.io/component-helpers/resource/helpers.go,
 *   `IsSupportedPodLevelResource`
 * - knative serving pkg/apis/serving/fieldmask.go, `PodSpecMask` (pod-level resources not
 *   allowed)
 */

/* Where the container resources of component u belong, for the message. */
static const char *container_resources_path(sl_ctx *ctx, const sl_unit *u)
{
	const char *const *impls = sl_kserve_impl_keys(u->role);
	const char *found = NULL;
	size_t n = 0;
	for (size_t i = 0; impls && impls[i]; i++)
		if (sl_map_get(u->component, impls[i])) {
			if (!found)
				found = impls[i];
			n++;
		}
	if (n == 1)
		return sl_arena_printf(sl_ctx_arena(ctx), "%s.resources", found);
	if (n > 1)
		return "the implementation's container resources";
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		if (c->main && !c->init && c->node->parent && c->node->parent->type == SL_NODE_SEQ)
			return sl_arena_printf(sl_ctx_arena(ctx), "containers[%u].resources",
					       c->node->pos);
	}
	return "containers[0].resources";
}

/* --- the fix: planned first (what moves where), then made; the SDK drops it whole when it
** declines an edit or two edits would overlap --- */

#define MAX_EDITS 8

struct plan {
	const sl_node *rm[MAX_EDITS];      /* values of the entries to remove */
	size_t n_rm;
	const sl_node *add_map[MAX_EDITS]; /* add_key: add_frag into add_map */
	const char *add_key[MAX_EDITS], *add_frag[MAX_EDITS];
	size_t n_add;
};

static bool plan_remove(struct plan *pl, const sl_node *map, const sl_node *v)
{
	if (pl->n_rm == MAX_EDITS || !sl_node_owns(map, v))
		return false;
	pl->rm[pl->n_rm++] = v;
	return true;
}

/* An anchored mapping is aliased elsewhere: adding to it would change those places too. */
static bool plan_add(struct plan *pl, const sl_node *map, const char *key, const char *frag)
{
	if (!key || !frag || pl->n_add == MAX_EDITS || !map || map->type != SL_NODE_MAP ||
	    sl_node_anchor(map))
		return false;
	pl->add_map[pl->n_add] = map;
	pl->add_key[pl->n_add] = key;
	pl->add_frag[pl->n_add++] = frag;
	return true;
}

/* The container of the component's single implementation, or NULL (with its path in *where). */
static const sl_container *implementation(sl_ctx *ctx, const sl_unit *u, const char **where)
{
	const char *const *impls = sl_kserve_impl_keys(u->role);
	const sl_node *impl = NULL;
	size_t n = 0;
	for (size_t i = 0; impls && impls[i]; i++) {
		const sl_node *v = sl_map_get(u->component, impls[i]);
		if (v) {
			impl = v;
			*where = impls[i];
			n++;
		}
	}
	const sl_node *cs = sl_map_get(u->component, "containers");
	if (sl_seq_n(cs) > 0) {
		impl = NULL;
		n++;
	}
	if (n != 1)
		return NULL;
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		if (c->init || !c->node)
			continue;
		if (impl ? sl_node_deref(c->node) == sl_node_deref(impl) : c->main && c->node->parent == sl_node_deref(cs)) {
			if (!impl)
				*where = sl_arena_printf(sl_ctx_arena(ctx), "containers[%u]", c->node->pos);
			return c;
		}
	}
	return NULL;
}

/* "nvidia.com/gpu: 1\namd.com/gpu: 2": the GPU entries of list m, each line after the first
** preceded by pfx (arena); NULL when one cannot be moved. *n gets their count. */
static const char *gpu_entries(sl_ctx *ctx, const sl_node *m, const char *pfx, size_t *n)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	const char *out = "";
	*n = 0;
	for (size_t i = 0; i < sl_map_n(m); i++) {
		const sl_pair *p = sl_map_pair(m, i);
		if (!sl_config_is_gpu_resource(cfg, sl_scalar(p->key)))
			continue;
		const sl_node *v = p->value;
		if (!v || v->type != SL_NODE_SCALAR || sl_node_anchor(v) || p->key->parent != m ||
		    v->style == SL_STYLE_LITERAL || v->style == SL_STYLE_FOLDED)
			return NULL;
		const char *k = sl_ctx_node_text(ctx, p->key), *t = sl_ctx_node_text(ctx, v);
		if (strchr(t, '\n') || strchr(k, '\n'))
			return NULL;
		out = sl_arena_printf(sl_ctx_arena(ctx), "%s%s%s%s: %s", out, *n ? "\n" : "",
				      *n ? pfx : "", k, t);
		if (!out)
			return NULL;
		(*n)++;
	}
	return out;
}

/* Attaches the fix that moves every pod-level GPU entry of u to its implementation's container. */
static void add_fix(sl_ctx *ctx, sl_report *r, const sl_unit *u)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const char *where = NULL;
	const sl_container *c = r ? implementation(ctx, u, &where) : NULL;
	const sl_node *cn = c ? sl_node_deref(c->node) : NULL;
	const sl_node *comp = sl_node_deref(u->component);
	const sl_node *res = u->pod_resources;
	if (!cn || cn->type != SL_NODE_MAP || sl_node_anchor(cn) || !where || !comp || sl_node_anchor(comp) ||
	    !sl_node_owns(comp, res) || res->type != SL_NODE_MAP)
		return;
	static const char *const lists[2] = {"requests", "limits"};
	const char *moved[2] = {NULL, NULL};   /* the entries each list moves */
	const char *nested[2] = {NULL, NULL};  /* the same, indented under their list */
	size_t n_moved[2] = {0, 0};
	bool all_go = true;   /* nothing but GPU entries in the pod-level resources */
	for (size_t i = 0; i < sl_map_n(res); i++) {
		const sl_pair *p = sl_map_pair(res, i);
		int l = sl_scalar_is(p->key, "requests") ? 0 : sl_scalar_is(p->key, "limits") ? 1 : -1;
		if (l < 0 || p->value->type != SL_NODE_MAP) {
			all_go = false;
			continue;
		}
		if (moved[l])
			return;   /* the list is written twice (duplicate-key) */
		size_t n;
		moved[l] = gpu_entries(ctx, p->value, "", &n);
		nested[l] = gpu_entries(ctx, p->value, "  ", &n);
		if (!moved[l] || !nested[l])
			return;
		n_moved[l] = n;
		all_go = all_go && n == sl_map_n(p->value);
	}
	struct plan pl = {0};
	/* Removals. */
	if (all_go) {
		if (!plan_remove(&pl, comp, res))
			return;
	} else {
		for (int l = 0; l < 2; l++) {
			const sl_node *m = sl_map_get(res, lists[l]);
			if (!n_moved[l])
				continue;
			if (n_moved[l] == sl_map_n(m)) {
				if (!plan_remove(&pl, res, m))
					return;
				continue;
			}
			if (m->style && n_moved[l] > 1)
				return;   /* two removals in one flow mapping would share a comma */
			for (size_t i = 0; i < sl_map_n(m); i++) {
				const sl_pair *p = sl_map_pair(m, i);
				if (sl_config_is_gpu_resource(sl_ctx_config(ctx), sl_scalar(p->key)) &&
				    !plan_remove(&pl, m, p->value))
					return;
			}
		}
	}
	/* Additions. */
	if (!sl_map_get_key(cn, "resources")) {
		const char *frag = "";
		for (int l = 0; l < 2; l++) {
			if (!n_moved[l])
				continue;
			frag = sl_arena_printf(a, "%s%s%s:\n  %s", frag, frag && *frag ? "\n" : "",
					       lists[l], nested[l]);
		}
		if (!plan_add(&pl, cn, "resources", frag))
			return;
	} else {
		const sl_node *cres = c->resources;
		if (!cres || sl_node_anchor(cres))
			return;
		for (int l = 0; l < 2; l++) {
			if (!n_moved[l])
				continue;
			if (!sl_map_get_key(cres, lists[l])) {
				if (!plan_add(&pl, cres, lists[l], moved[l]))
					return;
				continue;
			}
			const sl_node *dest = l == 0 ? c->requests : c->limits;
			if (!dest || n_moved[l] > 1)
				return;
			const sl_node *m = sl_map_get(res, lists[l]);
			for (size_t i = 0; i < sl_map_n(m); i++) {
				const sl_pair *p = sl_map_pair(m, i);
				const char *name = sl_scalar(p->key);
				if (!sl_config_is_gpu_resource(sl_ctx_config(ctx), name))
					continue;
				if (sl_map_get_key(dest, name) ||
				    !plan_add(&pl, dest, sl_ctx_node_text(ctx, p->key),
					      sl_ctx_node_text(ctx, p->value)))
					return;
			}
		}
	}
	if (pl.n_add == 0)
		return;
	for (size_t i = 0; i < pl.n_rm; i++)
		if (!sl_fix_remove(ctx, r, pl.rm[i]))
			return;
	for (size_t i = 0; i < pl.n_add; i++)
		if (!sl_fix_add_entry(ctx, r, pl.add_map[i], pl.add_key[i], pl.add_frag[i]))
			return;
	sl_fix_describe(ctx, r, SL_FIX_UNSAFE,
			"move the GPU entries of the pod-level resources to %s.resources", where);
}

static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const sl_config *cfg = sl_ctx_config(ctx);
	if (!u->component || !u->pod_resources)
		return SL_OK;
	const char *lists[2] = {"requests", "limits"};
	for (int l = 0; l < 2; l++) {
		const sl_node *m = sl_map_get(u->pod_resources, lists[l]);
		for (size_t i = 0; i < sl_map_n(m); i++) {
			const sl_pair *p = sl_map_pair(m, i);
			const char *name = sl_scalar(p->key);
			if (!sl_config_is_gpu_resource(cfg, name))
				continue;
			const char *where = container_resources_path(ctx, u);
			sl_report *r = sl_report_at(ctx, p->key,
				     "%s: pod-level resources.%s names %s, which no container gets",
				     sl_ctx_label(ctx, u), lists[l], name);
			sl_report_note(ctx, r, "Directly under an InferenceService component, `resources` "
				       "is the pod-level resources field (KServe 0.15 and later), which "
				       "takes cpu and memory only: a GPU there reaches no container.");
			sl_report_note(ctx, r, "Put it under %s.%s.",
				       where ? where : "the container's resources", lists[l]);
			add_fix(ctx, r, u);
		}
	}
	return SL_OK;
}

SL_RULE(kserve_pod_level_gpu, .id = "kserve-pod-level-gpu", .category = "gpu",
	.summary = "A GPU in the pod-level resources directly under an InferenceService component",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_UNSAFE, .check_unit = check,
	.kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE));
