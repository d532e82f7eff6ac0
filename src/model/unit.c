/* SPDX-License-Identifier: Apache-2.0
** unit.c: binding a PodSpec mapping into a placement unit: the scheduling fields, their nested
** shapes (tolerations, affinity terms, spread constraints) and the containers' resources.
** Only the types are checked here; the semantics are the rules' business. */
#include <string.h>
#include "model/model.h"

/* The containers' array grows only here, by doubling (arena.h's sl_arena_grow): a pod of n
** containers costs n copies and 2n elements of arena, not n^2/2 of each. */
sl_err sl_unit_add_container(sl_model_ctx *mc, sl_unit *u, const sl_node *c, bool init, bool main)
{
	sl_container *nc = sl_arena_grow(mc->arena, u->containers, u->n_containers, sizeof *nc);
	if (!nc)
		return SL_ENOMEM;
	sl_container *k = &nc[u->n_containers];
	memset(k, 0, sizeof *k);
	k->node = c;
	k->init = init;
	k->main = main;
	static const sl_model_fspec fields[] = {
		SL_FIELD("name", SL_T_STR), SL_FIELD("resources", SL_T_MAP),
	}, lists[] = {
		SL_FIELD("requests", SL_T_MAP), SL_FIELD("limits", SL_T_MAP),
	};
	const sl_node *f[2];
	sl_model_find(c, fields, 2, f);
	k->name = sl_scalar(sl_model_expect(mc, f[0], SL_T_STR, "name"));
	k->resources = sl_model_expect(mc, f[1], SL_T_MAP, "resources");
	if (k->resources) {
		sl_model_find(k->resources, lists, 2, f);
		k->requests = sl_model_expect(mc, f[0], SL_T_MAP, "requests");
		k->limits = sl_model_expect(mc, f[1], SL_T_MAP, "limits");
		const sl_node *lists[2] = {k->requests, k->limits};
		for (int i = 0; i < 2; i++) {
			size_t n;
			const sl_pair *m = sl_map_entries(lists[i], &n);
			for (size_t j = 0; j < n; j++) {
				const char *rn = sl_scalar(m[j].key);
				sl_model_expect(mc, m[j].value, SL_T_QUANTITY, rn ? rn : "quantity");
			}
		}
	}
	u->containers = nc;
	u->n_containers++;
	return SL_OK;
}

sl_err sl_model_bind_template(sl_model_ctx *mc, sl_object *o, const sl_node *tmpl, sl_role role,
			      const char *name, sl_unit **out)
{
	sl_unit *u = sl_model_add_unit(mc, o, role, name);
	if (!u)
		return SL_ENOMEM;
	static const sl_model_fspec fields[] = {
		SL_FIELD("metadata", SL_T_MAP), SL_FIELD("spec", SL_T_MAP),
	}, meta[] = {
		SL_FIELD("labels", SL_T_STRMAP), SL_FIELD("annotations", SL_T_STRMAP),
	};
	const sl_node *f[2] = {NULL, NULL}, *m[2];
	if (tmpl) {
		sl_model_find(tmpl, fields, 2, f);
		u->meta = sl_model_expect(mc, f[0], SL_T_MAP, "metadata");
		if (u->meta) {
			sl_model_find(u->meta, meta, 2, m);
			sl_model_expect(mc, m[0], SL_T_STRMAP, "labels");
			sl_model_expect(mc, m[1], SL_T_STRMAP, "annotations");
		}
	}
	*out = u;
	return sl_unit_bind_podspec(mc, u, sl_model_expect(mc, f[1], SL_T_MAP, "spec"));
}

static const sl_model_fspec toleration_fields[] = {
	SL_FIELD("key", SL_T_STR), SL_FIELD("operator", SL_T_STR), SL_FIELD("value", SL_T_STR),
	SL_FIELD("effect", SL_T_STR),
	SL_FIELD("tolerationSeconds", SL_T_INT), {NULL, SL_T_ANY, 0},
};

typedef void bind_fn(sl_model_ctx *mc, const sl_node *map);

/* bind on each mapping item of sequence seq (NULL: none; another item is the sequence's report). */
static void each_map(sl_model_ctx *mc, const sl_node *seq, bind_fn *bind)
{
	for (size_t i = 0; seq && i < seq->u.seq.n; i++) {
		const sl_node *m = sl_node_deref(seq->u.seq.items[i]);
		if (m->type == SL_NODE_MAP)
			bind(mc, m);
	}
}

/* A NodeSelectorRequirement or a LabelSelectorRequirement. */
static void bind_requirement(sl_model_ctx *mc, const sl_node *r)
{
	sl_model_field(mc, r, "key", SL_T_STR);
	sl_model_field(mc, r, "operator", SL_T_STR);
	const sl_node *vals = sl_model_field(mc, r, "values", SL_T_SEQ);
	for (size_t j = 0; vals && j < vals->u.seq.n; j++)
		sl_model_expect(mc, vals->u.seq.items[j], SL_T_STR, "values[]");
}

static void bind_requirements(sl_model_ctx *mc, const sl_node *term, const char *field)
{
	each_map(mc, sl_model_field(mc, term, field, SL_T_SEQ_OF_MAP), bind_requirement);
}

static void bind_label_selector(sl_model_ctx *mc, const sl_node *sel)
{
	if (!sel)
		return;
	sl_model_field(mc, sel, "matchLabels", SL_T_STRMAP);
	bind_requirements(mc, sel, "matchExpressions");
}

/* owner's preferredDuringSchedulingIgnoredDuringExecution: weighted terms, {weight, key: a
** term bind types} (WeightedPodAffinityTerm, PreferredSchedulingTerm). */
static void bind_preferred(sl_model_ctx *mc, const sl_node *owner, const char *key, bind_fn *bind)
{
	const sl_node *pref = sl_model_field(mc, owner, "preferredDuringSchedulingIgnoredDuringExecution",
					     SL_T_SEQ_OF_MAP);
	for (size_t i = 0; pref && i < pref->u.seq.n; i++) {
		const sl_node *w = sl_node_deref(pref->u.seq.items[i]);
		if (w->type != SL_NODE_MAP)
			continue;
		sl_model_field(mc, w, "weight", SL_T_INT);
		const sl_node *t = sl_model_field(mc, w, key, SL_T_MAP);
		if (t)
			bind(mc, t);
	}
}

/* A PodAffinityTerm. */
static void bind_pod_term(sl_model_ctx *mc, const sl_node *t)
{
	sl_model_field(mc, t, "topologyKey", SL_T_STR);
	bind_label_selector(mc, sl_model_field(mc, t, "labelSelector", SL_T_MAP));
}

/* A NodeSelectorTerm. */
static void bind_node_term(sl_model_ctx *mc, const sl_node *t)
{
	bind_requirements(mc, t, "matchExpressions");
	bind_requirements(mc, t, "matchFields");
}

static void bind_pod_affinity(sl_model_ctx *mc, const sl_node *pa)
{
	if (!pa)
		return;
	each_map(mc, sl_model_field(mc, pa, "requiredDuringSchedulingIgnoredDuringExecution",
				    SL_T_SEQ_OF_MAP), bind_pod_term);
	bind_preferred(mc, pa, "podAffinityTerm", bind_pod_term);
}

static void bind_affinity(sl_model_ctx *mc, const sl_node *aff)
{
	if (!aff)
		return;
	const sl_node *na = sl_model_field(mc, aff, "nodeAffinity", SL_T_MAP);
	if (na) {
		const sl_node *req = sl_model_field(mc, na, "requiredDuringSchedulingIgnoredDuringExecution",
						    SL_T_MAP);
		each_map(mc, sl_model_field(mc, req, "nodeSelectorTerms", SL_T_SEQ_OF_MAP),
			 bind_node_term);
		bind_preferred(mc, na, "preference", bind_node_term);
	}
	bind_pod_affinity(mc, sl_model_field(mc, aff, "podAffinity", SL_T_MAP));
	bind_pod_affinity(mc, sl_model_field(mc, aff, "podAntiAffinity", SL_T_MAP));
}

static const sl_model_fspec spread_fields[] = {
	SL_FIELD("maxSkew", SL_T_INT), SL_FIELD("topologyKey", SL_T_STR),
	SL_FIELD("whenUnsatisfiable", SL_T_STR),
	SL_FIELD("minDomains", SL_T_INT), {NULL, SL_T_ANY, 0},
};

/* A TopologySpreadConstraint. */
static void bind_spread(sl_model_ctx *mc, const sl_node *c)
{
	sl_model_fields(mc, c, spread_fields);
	bind_label_selector(mc, sl_model_field(mc, c, "labelSelector", SL_T_MAP));
}

/* The PodSpec fields a unit keeps, then those typed but not kept, then the containers' lists,
** looked up together (sl_model_find). */
enum {
	P_NODE_SELECTOR, P_AFFINITY, P_TOLERATIONS, P_SPREAD, P_PRIORITY_CLASS, P_NODE_NAME,
	P_RESOURCES, P_TYPED, P_INIT_CONTAINERS = P_TYPED + 8, P_CONTAINERS, P_N
};
static const sl_model_fspec podspec_fields[P_N] = {
	SL_FIELD("nodeSelector", SL_T_STRMAP), SL_FIELD("affinity", SL_T_MAP),
	SL_FIELD("tolerations", SL_T_SEQ_OF_MAP),
	SL_FIELD("topologySpreadConstraints", SL_T_SEQ_OF_MAP), SL_FIELD("priorityClassName", SL_T_STR),
	SL_FIELD("nodeName", SL_T_STR), SL_FIELD("resources", SL_T_MAP),
	SL_FIELD("schedulerName", SL_T_STR), SL_FIELD("runtimeClassName", SL_T_STR),
	SL_FIELD("priority", SL_T_INT), SL_FIELD("preemptionPolicy", SL_T_STR),
	SL_FIELD("hostNetwork", SL_T_BOOL), SL_FIELD("hostPID", SL_T_BOOL),
	SL_FIELD("hostIPC", SL_T_BOOL), SL_FIELD("serviceAccountName", SL_T_STR),
	SL_FIELD("initContainers", SL_T_SEQ_OF_MAP), SL_FIELD("containers", SL_T_SEQ_OF_MAP),
};

sl_err sl_unit_bind_podspec(sl_model_ctx *mc, sl_unit *u, const sl_node *pod)
{
	u->pod = pod;
	if (!pod)
		return SL_OK;
	const sl_node *f[P_N], *v[P_N];
	sl_model_find(pod, podspec_fields, P_N, f);
	for (size_t i = 0; i < P_INIT_CONTAINERS; i++)
		v[i] = sl_model_expect(mc, f[i], podspec_fields[i].t, podspec_fields[i].key);
	u->node_selector = v[P_NODE_SELECTOR];
	u->affinity = v[P_AFFINITY];
	u->tolerations = v[P_TOLERATIONS];
	u->topology_spread = v[P_SPREAD];
	u->priority_class_name = v[P_PRIORITY_CLASS];
	u->node_name = v[P_NODE_NAME];
	u->pod_resources = v[P_RESOURCES];
	sl_model_items(mc, u->tolerations, toleration_fields);
	bind_affinity(mc, u->affinity);
	each_map(mc, u->topology_spread, bind_spread);
	for (int l = 0; l < 2; l++) {
		const sl_model_fspec *fs = &podspec_fields[P_INIT_CONTAINERS + l];
		const sl_node *cs = sl_model_expect(mc, f[P_INIT_CONTAINERS + l], fs->t, fs->key);
		for (size_t i = 0; cs && i < cs->u.seq.n; i++) {
			const sl_node *c = sl_node_deref(cs->u.seq.items[i]);
			if (c->type != SL_NODE_MAP)
				continue;
			if (sl_unit_add_container(mc, u, c, l == 0, false) != SL_OK)
				return SL_ENOMEM;
		}
	}
	/* The serving container: "kserve-container" when there is one, else the first. */
	sl_container *main = NULL;
	for (size_t i = 0; i < u->n_containers; i++) {
		sl_container *c = &u->containers[i];
		if (c->init)
			continue;
		if (!main || (c->name && strcmp(c->name, "kserve-container") == 0 &&
			      !(main->name && strcmp(main->name, "kserve-container") == 0)))
			main = c;
	}
	if (main)
		main->main = true;
	return SL_OK;
}

bool sl_unit_builds_no_pod(const sl_unit *u)
{
	return u->mode == SL_MODE_MODELMESH && (u->role == SL_ROLE_PREDICTOR ||
						u->role == SL_ROLE_CANARY || u->role == SL_ROLE_WORKER);
}

const sl_object *sl_unit_object(const sl_unit *u) { return u->obj; }
const sl_node *sl_unit_pod(const sl_unit *u) { return u->pod; }

long long sl_unit_replicas(const sl_unit *u, const sl_node **at)
{
	if (at)
		*at = u->replicas;
	return u->min_replicas;
}

long long sl_unit_pods(const sl_unit *u)
{
	return u->pods >= 0 ? u->pods : u->min_replicas;
}

static const char *const role_names[] = {"pod", "predictor", "transformer", "explainer", "worker",
					 "canary", "router", "runtime", "llm", "scheduler", "server",
					 "head", "leader"};

const char *sl_unit_role_name(const sl_unit *u)
{
	return (size_t)u->role < sizeof role_names / sizeof role_names[0] ? role_names[u->role] : "pod";
}

const char *const *sl_unit_role_names(size_t *n)
{
	*n = sizeof role_names / sizeof role_names[0];
	return role_names;
}
