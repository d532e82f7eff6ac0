/* SPDX-License-Identifier: Apache-2.0
** kaito.c: the KAITO Workspace (kaito.sh v1beta1, v1alpha1). No spec: resource, inference and
** tuning at the top. The "inference" (and "tuning") unit is the pod KAITO writes: from a preset
** model KAITO writes all of it, a GPU container included; from inference.template the user's
** pod spec, its affinity replaced. Either way KAITO lays it over a pod of its own: the node
** affinity of resource.labelSelector's matchLabels, the tolerations of the GPU taints it
** provisions its nodes with (nvidia.com/gpu, sku=gpu; preset_inferences.go defaultTolerations,
** manifests.go GenerateManifestWithPodTemplate). That pod is the unit's inline base (merge.h).
** Its nodes are the instanceType's, labelled with matchLabels (docs/domain.md §6). */
#include "model/model.h"

/* A toleration {key, operator, value, effect} made at at. */
static sl_node *toleration(sl_model_ctx *mc, const sl_node *at, const char *key, const char *op,
			   const char *value)
{
	sl_node *t = sl_model_synth(mc, SL_NODE_MAP, at, NULL, 4);
	if (!t)
		return NULL;
	const char *k[4] = {"key", "operator", "value", "effect"};
	const char *v[4] = {key, op, value, "NoSchedule"};
	for (int i = 0; i < 4; i++) {
		if (!v[i])
			continue;
		sl_node *kn = sl_model_synth(mc, SL_NODE_SCALAR, at, k[i], 0);
		sl_node *vn = sl_model_synth(mc, SL_NODE_SCALAR, at, v[i], 0);
		if (!kn || !vn)
			return NULL;
		kn->is_key = 1;
		sl_model_synth_put(t, kn, vn);
	}
	return t;
}

/* The pod KAITO lays the unit over: labelSelector's matchLabels as required node affinity
** (here a nodeSelector: one term of In expressions selects what the pairs select), the GPU
** tolerations. */
static sl_unit *kaito_pod(sl_model_ctx *mc, sl_object *o, const sl_node *resource,
			  const sl_node *match, const sl_node *at)
{
	sl_unit *b = sl_arena_zalloc(mc->arena, sizeof *b);
	sl_node *tols = sl_model_synth(mc, SL_NODE_SEQ, at, NULL, 2);
	if (!b || !tols)
		return NULL;
	sl_node *t1 = toleration(mc, at, "nvidia.com/gpu", "Exists", NULL);
	sl_node *t2 = toleration(mc, at, "sku", "Equal", "gpu");
	if (!t1 || !t2)
		return NULL;
	tols->u.seq.items[tols->u.seq.n++] = t1;
	tols->u.seq.items[tols->u.seq.n++] = t2;
	b->obj = o;
	b->mode = SL_MODE_PLAIN;
	b->min_replicas = b->pods = -1;
	b->pod = resource;
	b->node_selector = match;
	b->tolerations = tols;
	return b;
}

/* A GPU container for a preset: KAITO requests and limits the SKU's GPUs; how many is not known
** here, so one stands for "at least one" (its count fills the node). */
static sl_err preset_container(sl_model_ctx *mc, sl_unit *u, const sl_node *preset)
{
	sl_err err = sl_unit_add_container(mc, u, preset, false, true);
	if (err)
		return err;
	sl_container *c = &u->containers[u->n_containers - 1];
	c->name = u->obj->name;   /* KAITO names the container after the Workspace */
	c->resources = c->requests = NULL;
	sl_node *limits = sl_model_synth(mc, SL_NODE_MAP, preset, NULL, 1);
	sl_node *k = sl_model_synth(mc, SL_NODE_SCALAR, preset, "nvidia.com/gpu", 0);
	sl_node *v = sl_model_synth(mc, SL_NODE_SCALAR, preset, "1", 0);
	if (!limits || !k || !v)
		return SL_ENOMEM;
	k->is_key = 1;
	sl_model_synth_put(limits, k, v);
	c->limits = limits;
	return SL_OK;
}

/* The unit of inference or tuning (section sec of the Workspace). */
static sl_err bind_section(sl_model_ctx *mc, sl_object *o, const char *name,
			   const sl_node *resource, const sl_node *match, bool batch)
{
	const sl_node *sec = sl_model_field(mc, o->root, name, SL_T_MAP);
	if (!sec)
		return SL_OK;
	const sl_node *preset = sl_model_field(mc, sec, "preset", SL_T_MAP);
	sl_model_field(mc, preset, "name", SL_T_STR);
	const sl_node *tmpl = sl_model_field(mc, sec, "template", SL_T_MAP);
	sl_unit *u;
	sl_err err;
	if (tmpl) {
		if ((err = sl_model_bind_template(mc, o, tmpl, SL_ROLE_POD, name, &u)))
			return err;
		u->affinity = NULL;   /* replaced by the labelSelector's (GenerateManifestWithPodTemplate) */
	} else {
		if (!(u = sl_model_add_unit(mc, o, SL_ROLE_POD, name)))
			return SL_ENOMEM;
		u->pod = resource ? resource : sec;   /* KAITO writes the pod: its inputs are there */
		if (preset && (err = preset_container(mc, u, preset)))
			return err;
	}
	u->mode = SL_MODE_PLAIN;
	const sl_node *it = sl_map_get(resource, "instanceType");
	if (sl_scalar(it) && *sl_scalar(it))
		u->own_pool = it;   /* node auto-provisioning: KAITO makes a pool of that type */
	long long count = sl_model_int(mc, resource, "count", 1, NULL);
	u->min_replicas = batch ? -1 : count;
	u->pods = count;
	if (!(u->inline_base = kaito_pod(mc, o, resource, match, preset ? preset : tmpl ? tmpl : sec)))
		return SL_ENOMEM;
	return SL_OK;
}

sl_err sl_model_bind_kaito(sl_model_ctx *mc, sl_object *o)
{
	if (o->kind != SL_KIND_KAITO_WORKSPACE)
		return SL_OK;
	const sl_node *resource = sl_model_field(mc, o->root, "resource", SL_T_MAP);
	sl_model_field(mc, resource, "instanceType", SL_T_STR);
	sl_model_field(mc, resource, "preferredNodes", SL_T_SEQ);
	const sl_node *ls = sl_model_field(mc, resource, "labelSelector", SL_T_MAP);
	const sl_node *match = sl_model_field(mc, ls, "matchLabels", SL_T_STRMAP);
	sl_err err = bind_section(mc, o, "inference", resource, match, false);
	return err ? err : bind_section(mc, o, "tuning", resource, match, true);
}
