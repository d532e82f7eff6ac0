/* SPDX-License-Identifier: Apache-2.0
** pool.c: node pools from the config, Karpenter NodePools, eksctl node groups, node dumps and
** Kueue ResourceFlavors (pool.h; spec/cluster.md §2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "config/config.h"
#include "k8s/instance_type.h"
#include "sched/pool.h"
#include "sched/selection.h"
#include "yaml/source.h"
#include "k8s/labels.h"
#include "k8s/reqset.h"

struct sl_pool_set {
	sl_arena *a;
	sl_source *inventory;      /* cluster.node-inventory's dump, read here */
	sl_pool *pools;
	size_t n, cap;
	const char **clusters;     /* the pools' distinct clusters, in pool order */
	size_t n_clusters;
	bool oom;
};

bool sl_pool_kind(sl_kind k)
{
	return k == SL_KIND_NODE_LIST || k == SL_KIND_KARPENTER_NODE_POOL ||
	       k == SL_KIND_EKSCTL_CLUSTER_CONFIG || k == SL_KIND_KUEUE_RESOURCE_FLAVOR;
}

const char *sl_pool_origin_name(sl_pool_origin o)
{
	static const char *const names[] = {"config", "NodePool", "eksctl", "nodes", "ResourceFlavor",
					     "KAITO"};
	return (unsigned)o < sizeof names / sizeof *names ? names[o] : "pool";
}

/* --- the tables -------------------------------------------------------------------------- */

/* Karpenter v1 WellKnownLabels (pkg/apis/v1/labels.go) and the providers' own labels
** (karpenter-provider-aws pkg/apis/v1/labels.go, karpenter-provider-azure): a pod may select
** them on a NodePool that does not restrict them. */
static const char *const karpenter_well_known[] = {
	"karpenter.sh/nodepool", "karpenter.sh/capacity-type", "topology.kubernetes.io/zone",
	"topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "kubernetes.io/arch",
	"kubernetes.io/os", "node.kubernetes.io/windows-build", "topology.k8s.aws/zone-id",
};
static const char *const karpenter_provider_prefixes[] = {
	"karpenter.k8s.aws/", "karpenter.azure.com/", "karpenter.kwok.sh/",
};
/* What every node carries (kubelet and the cloud provider set them): a config or eksctl pool
** that does not list them still has them. Their beta aliases are read as these names first
** (the node controllers keep both labels equal: kubernetes pkg/controller/nodelifecycle and
** k8s.io/cloud-provider controllers/node, labelReconcileInfo). */
static const char *const node_well_known[] = {
	"kubernetes.io/hostname", "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
	"node.kubernetes.io/instance-type", "kubernetes.io/arch", "kubernetes.io/os",
	"topology.k8s.aws/zone-id",
};
/* The first of these labels a node carries names its pool (cluster.md §2, node dumps). */
static const char *const pool_labels[] = {
	"karpenter.sh/nodepool", "eks.amazonaws.com/nodegroup", "cloud.google.com/gke-nodepool",
	"kubernetes.azure.com/agentpool", "alpha.eksctl.io/nodegroup-name",
};

static bool in_list(const char *const *l, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(l[i]) == len && strncmp(l[i], s, len) == 0)
			return true;
	return false;
}

bool sl_pool_key_by_node_agent(const char *key, size_t n)
{
	static const char nfd[] = "feature.node.kubernetes.io/", nvidia[] = "nvidia.com/";
	const char *slash = n ? memchr(key, '/', n) : NULL;   /* an empty key's may be NULL */
	if (!slash)
		return false;
	size_t prefix = (size_t)(slash - key) + 1;
	if (prefix == sizeof nvidia - 1 && memcmp(key, nvidia, prefix) == 0)
		return true;
	/* feature.node.kubernetes.io/ and NFD's vendor namespaces, *.feature.node.kubernetes.io/ */
	return prefix >= sizeof nfd - 1 && memcmp(slash + 1 - (sizeof nfd - 1), nfd, sizeof nfd - 1) == 0 &&
	       (prefix == sizeof nfd - 1 || slash[-(int)(sizeof nfd - 1)] == '.');
}

static bool has_key(const sl_pool *p, const char *key, size_t n)
{
	for (size_t i = 0; i < p->n_reqs; i++)
		if (sl_k8s_str_eq(p->reqs[i].key, (sl_k8s_str){key, n}))
			return true;
	return false;
}

bool sl_pool_key_unknown(const sl_pool *p, const char *key, size_t n)
{
	for (size_t i = 0; i < p->n_unknown_keys; i++)
		if (sl_k8s_str_eq(p->unknown_keys[i], (sl_k8s_str){key, n}))
			return true;
	/* a dump shows every label its nodes carry, node agents' included */
	return p->origin != SL_POOL_NODES && sl_pool_key_by_node_agent(key, n) && !has_key(p, key, n);
}

bool sl_pool_key_allowed_undefined(const sl_pool *p, const char *key, size_t n)
{
	if (!p->allow_well_known)
		return false;
	if (p->origin == SL_POOL_KARPENTER) {
		for (size_t i = 0; i < sizeof karpenter_provider_prefixes / sizeof *karpenter_provider_prefixes; i++) {
			size_t l = strlen(karpenter_provider_prefixes[i]);
			if (n > l && strncmp(key, karpenter_provider_prefixes[i], l) == 0)
				return true;
		}
		return in_list(karpenter_well_known, sizeof karpenter_well_known / sizeof *karpenter_well_known,
			       key, n);
	}
	return in_list(node_well_known, sizeof node_well_known / sizeof *node_well_known, key, n);
}

/* --- building ----------------------------------------------------------------------------- */

static sl_pool *new_pool(sl_pool_set *s, const char *name, sl_pool_origin origin)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 8;
		sl_pool *v = sl_xrealloc(s->pools, cap * sizeof *v);
		if (!v) {
			s->oom = true;
			return NULL;
		}
		s->pools = v;
		s->cap = cap;
	}
	sl_pool *p = &s->pools[s->n++];
	*p = (sl_pool){.name = name ? name : "(unnamed)", .origin = origin, .spot = SL_TRI_NO,
		       .gpu = SL_TRI_NO, .min_nodes = -1, .max_nodes = -1};
	return p;
}

/* Grows an arena array of elem-sized items by one; NULL when out of memory. */
static void *push(sl_pool_set *s, void **v, size_t *n, size_t elem)
{
	void *nv = sl_arena_alloc(s->a, (*n + 1) * elem);
	if (!nv) {
		s->oom = true;
		return NULL;
	}
	if (*n)
		memcpy(nv, *v, *n * elem);
	*v = nv;
	return (char *)nv + (*n)++ * elem;
}

/* A requirement on what the pool's nodes carry. The key is read as Karpenter reads it (beta
** aliases normalised) but in a dump, whose labels are matched as they are; a placeholder key or
** value ($VAR, ${...}, {{ ... }}) makes the key unknown instead. */
static void add_req(sl_pool_set *s, sl_pool *p, sl_k8s_str key, const char *op,
		    const sl_k8s_str *values, size_t n_values)
{
	if (p->origin != SL_POOL_NODES)
		key = sl_k8s_reqset_normalized_key(key);
	bool unknown = sl_k8s_str_is_placeholder(key);
	for (size_t i = 0; i < n_values && !unknown; i++)
		unknown = sl_k8s_str_is_placeholder(values[i]);
	if (unknown) {
		sl_k8s_str *k = push(s, (void **)&p->unknown_keys, &p->n_unknown_keys, sizeof *k);
		if (k)
			*k = key;
		return;
	}
	sl_requirement *r = push(s, (void **)&p->reqs, &p->n_reqs, sizeof *r);
	if (r)
		*r = (sl_requirement){key, sl_k8s_cstr(op), values, n_values};
}

/* key In [value] (value copied into the arena when copy). */
static void add_label(sl_pool_set *s, sl_pool *p, sl_k8s_str key, sl_k8s_str value)
{
	sl_k8s_str *v = sl_arena_alloc(s->a, sizeof *v);
	if (!v) {
		s->oom = true;
		return;
	}
	*v = value;
	add_req(s, p, key, "In", v, 1);
}

static void add_label_c(sl_pool_set *s, sl_pool *p, const char *key, const char *value)
{
	add_label(s, p, sl_k8s_cstr(key), sl_k8s_cstr(value));
}

static void add_taint(sl_pool_set *s, sl_pool *p, sl_taint t)
{
	sl_taint *d = push(s, (void **)&p->taints, &p->n_taints, sizeof *d);
	if (d)
		*d = t;
}

/* Sets the allocatable of name to milli (the larger when it is there already). */
static void set_alloc(sl_pool_set *s, sl_pool *p, const char *name, int64_t milli)
{
	for (size_t i = 0; i < p->n_alloc; i++)
		if (strcmp(p->alloc[i].name, name) == 0) {
			p->alloc[i].uneven |= milli != p->alloc[i].milli;
			if (milli > p->alloc[i].milli)
				p->alloc[i].milli = milli;
			p->alloc[i].bound = NULL;
			return;
		}
	sl_pool_resource *r = push(s, (void **)&p->alloc, &p->n_alloc, sizeof *r);
	if (r)
		*r = (sl_pool_resource){name, milli, false, NULL};
}

/* The most a node of p may offer of name: count whole units, as bound says ("instance
** types", a label), exact when every node offers that many; an allocatable p already knows
** stands, a lower bound is kept. */
static void set_bound(sl_pool_set *s, sl_pool *p, const char *name, long count, bool exact,
		      const char *bound)
{
	for (size_t i = 0; i < p->n_alloc; i++)
		if (strcmp(p->alloc[i].name, name) == 0) {
			if (p->alloc[i].bound && count * 1000 < p->alloc[i].milli) {
				p->alloc[i].milli = count * 1000;
				p->alloc[i].uneven = !exact;
				p->alloc[i].bound = bound;
			} else if (p->alloc[i].bound && count * 1000 == p->alloc[i].milli) {
				p->alloc[i].uneven &= !exact;
			}
			return;
		}
	sl_pool_resource *r = push(s, (void **)&p->alloc, &p->n_alloc, sizeof *r);
	if (r)
		*r = (sl_pool_resource){name, (int64_t)count * 1000, !exact, bound};
}

static bool quantity_milli(const char *text, size_t n, int64_t *milli)
{
	sl_quantity q;
	return sl_quantity_parse(text, n, &q) == SL_QUANTITY_OK && !sl_quantity_is_negative(&q) &&
	       sl_quantity_scaled_value(&q, -3, milli);
}

static const char *dup(sl_pool_set *s, const char *str, size_t n)
{
	char *d = sl_arena_strndup(s->a, str, n);
	s->oom |= !d;
	return d;
}

/* The key's requirements of p intersected (an Exists set when p has none: *defined false). */
static void key_set(const sl_pool *p, const char *key, sl_k8s_reqset *out, bool *defined)
{
	sl_k8s_reqset one, tmp;
	*defined = false;
	*out = (sl_k8s_reqset){.complement = true};
	for (size_t i = 0; i < p->n_reqs; i++) {
		if (!sl_k8s_str_is(p->reqs[i].key, key))
			continue;
		*defined = true;
		sl_k8s_reqset_from(&p->reqs[i], &one);
		sl_k8s_reqset_intersect(out, &one, &tmp);
		*out = tmp;
	}
}

/* Spot from the pool's labels: YES when a requirement allows only spot values of a spot label
** key, UNKNOWN when it allows spot and other values, else NO. */
static void derive_spot(const sl_config *cfg, sl_pool *p)
{
	const sl_strlist *spot = sl_config_spot_labels(cfg);
	sl_tri verdict = SL_TRI_NO;
	for (size_t i = 0; i < spot->n; i++) {
		const char *eq = strchr(spot->v[i], '=');
		char key[320];
		size_t kl = eq ? (size_t)(eq - spot->v[i]) : strlen(spot->v[i]);
		if (kl >= sizeof key)
			continue;
		memcpy(key, spot->v[i], kl);
		key[kl] = '\0';
		sl_k8s_reqset set;
		bool defined;
		key_set(p, key, &set, &defined);
		if (!defined)
			continue;
		const char *v = eq ? eq + 1 : NULL;
		if (!v) {   /* a bare key: spot when present */
			if (!sl_k8s_reqset_empty(&set))
				verdict = SL_TRI_YES;
			continue;
		}
		if (!sl_k8s_reqset_has(&set, v))
			continue;
		bool only = !set.complement && set.n == 1;
		if (only)
			verdict = SL_TRI_YES;
		else if (verdict != SL_TRI_YES)
			verdict = SL_TRI_UNKNOWN;
	}
	p->spot = verdict;
}

/* GPU from labels of cluster.gpu-node-labels on a static pool: a value other than "false",
** "0" or "" marks GPU nodes. */
static bool gpu_labelled(const sl_config *cfg, const sl_pool *p)
{
	for (size_t i = 0; i < p->n_reqs; i++) {
		const sl_requirement *r = &p->reqs[i];
		char key[320];
		if (r->key.n >= sizeof key || !sl_k8s_str_is(r->op, "In") || r->n_values != 1)
			continue;
		if (r->key.n)   /* an empty key's s may be NULL */
			memcpy(key, r->key.s, r->key.n);
		key[r->key.n] = '\0';
		if (!sl_config_list_has(&cfg->cluster.gpu_node_labels, key))
			continue;
		sl_k8s_str v = r->values[0];
		if (v.n && !sl_k8s_str_is(v, "false") && !sl_k8s_str_is(v, "0"))
			return true;
	}
	return false;
}

/* The GPU resource of p's allocatable, or NULL. */
static const char *gpu_alloc(const sl_config *cfg, const sl_pool *p)
{
	for (size_t i = 0; i < p->n_alloc; i++)   /* an allocatable, not the most a node may offer */
		if (!p->alloc[i].bound && p->alloc[i].milli > 0 &&
		    sl_config_is_gpu_resource(cfg, p->alloc[i].name))
			return p->alloc[i].name;
	return NULL;
}

/* --- accelerators from instance types (instance_type.h) --- */

#define MAX_RES 4   /* resources the instance types of one pool offer: nvidia.com/gpu, ... */

/* What a pool's instance types say about its nodes' accelerators. */
struct accel {
	size_t n, gpu, none, unknown;   /* types: with a GPU; with none; not known */
	const char *res[MAX_RES];       /* the resources they offer */
	int min[MAX_RES], max[MAX_RES]; /* the fewest and the most one node offers of each; -1
					   when a count is unknown (a fractional GPU) */
	size_t with[MAX_RES];           /* the types that offer it */
	size_t n_res;
	const char *model;              /* the GPU model, when every GPU type has the same */
	bool models_differ;
};

static void accel_add(struct accel *a, const sl_config *cfg, sl_k8s_accel t, int min, int max,
		      const char *res, const char *model)
{
	a->n++;
	if (t == SL_K8S_ACCEL_UNKNOWN) {
		a->unknown++;
		return;
	}
	if (t == SL_K8S_ACCEL_NONE || !res) {
		a->none++;
		return;
	}
	bool gpu = sl_config_is_gpu_resource(cfg, res);
	a->gpu += gpu;
	a->none += !gpu;   /* a Neuron device is no GPU */
	if (gpu && model) {
		a->models_differ |= a->model && strcmp(a->model, model) != 0;
		a->model = model;
	}
	size_t r = 0;
	while (r < a->n_res && strcmp(a->res[r], res) != 0)
		r++;
	if (r == a->n_res) {
		if (r == MAX_RES) {
			a->unknown++;
			return;
		}
		a->res[a->n_res++] = res;
		a->min[r] = min;
		a->max[r] = max;
	}
	a->with[r]++;
	if (min < 0 || a->max[r] < 0) {
		a->min[r] = a->max[r] = -1;
	} else {
		a->min[r] = min < a->min[r] ? min : a->min[r];
		a->max[r] = max > a->max[r] ? max : a->max[r];
	}
}

/* The accelerators of types (instance types, or AWS families), whose values come from key. */
static void accel_of(struct accel *a, const sl_config *cfg, const sl_k8s_str *types, size_t n,
		     bool families)
{
	for (size_t i = 0; i < n; i++) {
		const sl_k8s_instance_type *t = NULL;
		const char *res = NULL;
		int min = 0, max = 0;
		sl_k8s_accel v = families
			? sl_k8s_instance_type_family(types[i].s, types[i].n, &min, &max, &res)
			: sl_k8s_instance_type_lookup(types[i].s, types[i].n, &t);
		if (t) {
			min = max = t->count;
			res = t->resource;
		}
		accel_add(a, cfg, v, min, max, res, t ? t->model : NULL);
	}
}

/* Applies a to p: its GPU fact (YES when every type has a GPU, NO when none has, else unknown;
** never below a YES known otherwise), the model, and, when every type is known, the most one
** node offers of each resource (what says so: bound), exact when every type offers as many. */
static void accel_apply(sl_pool_set *s, sl_pool *p, const struct accel *a, const char *bound)
{
	if (!a->n)
		return;
	for (size_t r = 0; !a->unknown && r < a->n_res; r++)
		if (a->max[r] >= 0)
			set_bound(s, p, a->res[r], a->max[r],
				  a->with[r] == a->n && a->min[r] == a->max[r], bound);
	if (a->gpu == a->n) {
		p->gpu = SL_TRI_YES;
		for (size_t r = 0; r < a->n_res && !p->gpu_resource; r++)
			p->gpu_resource = a->res[r];
		p->gpu_model = a->models_differ ? NULL : a->model;
	} else if (p->gpu != SL_TRI_YES) {
		p->gpu = a->none == a->n ? SL_TRI_NO : SL_TRI_UNKNOWN;
	}
}

/* The instance types a pool's requirement on node.kubernetes.io/instance-type (In) allows. */
static void accel_from_requirement(sl_pool_set *s, const sl_config *cfg, sl_pool *p)
{
	const sl_requirement *r = sl_pool_requirement(p, "node.kubernetes.io/instance-type");
	if (!r || !sl_k8s_str_is(r->op, "In"))
		return;
	struct accel a = {0};
	accel_of(&a, cfg, r->values, r->n_values, false);
	accel_apply(s, p, &a, "instance types");
}

/* GKE's cloud.google.com/gke-accelerator-count=N on a static pool: N GPUs (TPU chips on a TPU
** node pool) per node. */
static void accel_from_gke_count(sl_pool_set *s, sl_pool *p)
{
	const sl_requirement *r = sl_pool_requirement(p, "cloud.google.com/gke-accelerator-count");
	int64_t n;
	if (!r || !sl_k8s_str_is(r->op, "In") || r->n_values != 1 ||
	    !sl_k8s_parse_int64(r->values[0].s, r->values[0].n, &n) || n < 0 || n > 1000000)
		return;
	const char *res = sl_pool_requirement(p, "cloud.google.com/gke-tpu-accelerator")
		? "google.com/tpu" : "nvidia.com/gpu";
	const char *why = sl_arena_printf(s->a, "cloud.google.com/gke-accelerator-count=%lld",
					  (long long)n);
	s->oom |= !why;
	set_bound(s, p, res, (long)n, true, why);
	if (n > 0 && strcmp(res, "nvidia.com/gpu") == 0) {
		p->gpu = SL_TRI_YES;
		p->gpu_resource = res;
	}
}

/* GPU and spot of a pool that states its labels (config, node group, dump, flavor): its GPU
** allocatable, a GPU label, then its instance type and GKE's accelerator count. */
static void finish_static(sl_pool_set *s, const sl_config *cfg, sl_pool *p)
{
	const char *g = gpu_alloc(cfg, p);
	if (g) {
		p->gpu = SL_TRI_YES;
		p->gpu_resource = g;
	} else if (gpu_labelled(cfg, p)) {
		p->gpu = SL_TRI_YES;
	}
	if (!p->alloc_declared) {   /* what the nodes offer is said: it stands */
		accel_from_requirement(s, cfg, p);
		accel_from_gke_count(s, p);
	}
	if (p->spot == SL_TRI_NO)
		derive_spot(cfg, p);
}

/* "what (path:line)" for the pool p defined at n of o; sets p's path and line. */
static const char *where_at(sl_pool_set *s, sl_pool *p, const sl_object *o, const sl_node *n,
			    const char *what)
{
	uint32_t line = 0, col = 0;
	const sl_doc *d = n ? sl_node_doc(n) : o->doc;
	if (d && d->src)
		sl_source_position(d->src, n ? n->start : d->start, &line, &col);
	p->path = o->path;
	p->line = line;
	char *w = sl_arena_printf(s->a, "%s (%s:%u)", what, o->path ? o->path : "-", (unsigned)line);
	s->oom |= !w;
	return w;
}

/* --- config pools --- */

static void from_config(sl_pool_set *s, const sl_config *cfg)
{
	size_t n;
	const struct sl_node_pool *cp = sl_config_node_pools(cfg, &n);
	for (size_t i = 0; i < n; i++) {
		const struct sl_node_pool *c = &cp[i];
		sl_pool *p = new_pool(s, c->name, SL_POOL_CONFIG);
		if (!p)
			return;
		p->where = sl_config_at(cfg, c->line, s->a);
		p->path = cfg->path ? cfg->path : ".schedlint.yaml";   /* extend: the chain's */
		if (c->line >> 24 && c->line >> 24 <= SL_CONFIG_CHAIN_MAX && cfg->chain[c->line >> 24])
			p->path = cfg->chain[c->line >> 24];
		p->line = SL_CONFIG_LINE(c->line);
		p->allow_well_known = true;
		for (size_t j = 0; j < c->labels.n; j++) {
			const char *l = c->labels.v[j], *eq = strchr(l, '=');
			if (eq)
				add_label(s, p, (sl_k8s_str){l, (size_t)(eq - l)}, sl_k8s_cstr(eq + 1));
		}
		for (size_t j = 0; j < c->taints.n; j++) {
			sl_taint t;
			char why[256];
			if (sl_k8s_taint_parse(c->taints.v[j], strlen(c->taints.v[j]), &t, why, sizeof why))
				add_taint(s, p, t);
		}
		for (size_t j = 0; j < c->capacity.n; j++) {
			const char *r = c->capacity.v[j], *eq = strchr(r, '=');
			int64_t milli;
			if (eq && quantity_milli(eq + 1, strlen(eq + 1), &milli))
				set_alloc(s, p, dup(s, r, (size_t)(eq - r)), milli);
		}
		p->alloc_declared = c->capacity.n > 0;
		p->min_nodes = c->nodes;
		p->max_nodes = c->max_nodes;
		p->spot = c->spot == SL_TRI_UNKNOWN ? SL_TRI_NO : c->spot;
		bool spot_set = c->spot != SL_TRI_UNKNOWN;
		finish_static(s, cfg, p);
		if (spot_set)
			p->spot = c->spot;
	}
}

/* --- Karpenter NodePool --- */

/* Taints from a sequence of {key, value, effect} mappings. */
static void taints_of(sl_pool_set *s, sl_pool *p, const sl_node *seq)
{
	for (size_t i = 0; i < sl_seq_n(seq); i++) {
		const sl_node *t = sl_seq_item(seq, i);
		sl_taint taint = {sl_node_str(sl_map_get(t, "key")), sl_node_str(sl_map_get(t, "value")),
				  sl_node_str(sl_map_get(t, "effect"))};
		if (sl_k8s_str_is_placeholder(taint.key) || sl_k8s_str_is_placeholder(taint.value) ||
		    sl_k8s_str_is_placeholder(taint.effect)) {
			p->taints_unknown = true;   /* unknown is not absent */
			continue;
		}
		if (taint.key.n && sl_k8s_taint_effect_is_valid(taint.effect.s, taint.effect.n))
			add_taint(s, p, taint);
	}
}

/* Does a NodePool requirement set on key say the nodes have GPUs? YES, NO, or UNKNOWN when
** the key says nothing about GPUs. */
static sl_tri karpenter_gpu_key(const char *key, const sl_k8s_reqset *set, const char **resource)
{
	bool count_key = strcmp(key, "karpenter.k8s.aws/instance-gpu-count") == 0 ||
			 strcmp(key, "karpenter.azure.com/sku-gpu-count") == 0;
	bool name_key = strcmp(key, "karpenter.k8s.aws/instance-gpu-name") == 0 ||
			strcmp(key, "karpenter.k8s.aws/instance-gpu-manufacturer") == 0 ||
			strcmp(key, "karpenter.azure.com/sku-gpu-name") == 0 ||
			strcmp(key, "karpenter.azure.com/sku-gpu-manufacturer") == 0 ||
			strcmp(key, "cloud.google.com/gke-accelerator") == 0;
	if (count_key) {
		if (sl_k8s_reqset_empty(set) || (set->has_lt && set->lt <= 1 && !set->has_gt))
			return SL_TRI_NO;
		if (!set->complement) {
			bool all = true;
			for (size_t i = 0; i < set->n; i++)
				all &= !sl_k8s_str_is(set->v[i], "0");
			return all ? SL_TRI_YES : SL_TRI_UNKNOWN;
		}
		return set->has_gt && set->gt >= 0 ? SL_TRI_YES : SL_TRI_UNKNOWN;
	}
	if (name_key) {
		if (sl_k8s_reqset_empty(set))
			return SL_TRI_NO;
		if (set->complement && set->n > 0)
			return SL_TRI_UNKNOWN;   /* NotIn: anything else, or none */
		if (strstr(key, "manufacturer")) {
			for (size_t i = 0; i < set->n; i++)
				if (sl_k8s_str_is(set->v[i], "amd"))
					*resource = "amd.com/gpu";
		}
		return SL_TRI_YES;
	}
	if (strcmp(key, "karpenter.k8s.aws/instance-category") == 0 && !set->complement && set->n) {
		size_t gpus = 0;
		for (size_t i = 0; i < set->n; i++)
			gpus += sl_k8s_str_is(set->v[i], "g") || sl_k8s_str_is(set->v[i], "p");
		return gpus == set->n ? SL_TRI_YES : gpus == 0 ? SL_TRI_NO : SL_TRI_UNKNOWN;
	}
	return SL_TRI_UNKNOWN;
}

/* A new pool that object o (a NodePool, a ResourceFlavor) is: named, and found, by its
** metadata.name ("KIND name (path:line)"). NULL when out of memory. */
static sl_pool *object_pool(sl_pool_set *s, const sl_object *o, sl_pool_origin origin,
			    const char *kind)
{
	sl_pool *p = new_pool(s, o->name, origin);
	if (!p)
		return NULL;
	p->obj = o;
	p->at = sl_map_get(o->metadata, "name");
	p->where = where_at(s, p, o, p->at, sl_arena_printf(s->a, "%s %s", kind, p->name));
	return p;
}

static void from_nodepool(sl_pool_set *s, const sl_config *cfg, const sl_object *o)
{
	sl_pool *p = object_pool(s, o, SL_POOL_KARPENTER, "NodePool");
	if (!p)
		return;
	p->allow_well_known = true;
	const sl_node *tmpl = sl_map_get(o->spec, "template");
	const sl_node *ts = sl_map_get(tmpl, "spec");
	const sl_node *labels = sl_map_get(sl_map_get(tmpl, "metadata"), "labels");
	for (size_t i = 0; i < sl_map_n(labels); i++) {
		const sl_pair *pr = sl_map_pair(labels, i);
		add_label(s, p, sl_node_str(pr->key), sl_node_str(pr->value));
	}
	/* Karpenter adds karpenter.sh/nodepool=<name> to its nodes */
	if (o->name)
		add_label_c(s, p, "karpenter.sh/nodepool", o->name);
	const sl_node *reqs = sl_map_get(ts, "requirements");
	for (size_t i = 0; i < sl_seq_n(reqs); i++) {
		sl_requirement req;
		if (!sl_selection_requirement(s->a, sl_seq_item(reqs, i), &req)) {
			s->oom = true;
			continue;
		}
		char why[256];
		if (!req.key.n || !sl_k8s_requirement_builds(&req, false, why, sizeof why))
			continue;   /* invalid: the NodePool's own validation rejects it */
		add_req(s, p, req.key, dup(s, req.op.s, req.op.n), req.values, req.n_values);
	}
	p->taints_at = sl_map_get(ts, "taints");
	taints_of(s, p, p->taints_at);   /* startupTaints are removed before pods schedule */
	/* GPUs: limits naming a GPU resource, or the requirements on GPU labels */
	const sl_node *limits = sl_map_get(o->spec, "limits");
	sl_tri gpu = SL_TRI_UNKNOWN;
	const char *res = NULL;
	bool said_no = false;
	for (size_t i = 0; i < p->n_reqs; i++) {
		char key[320];
		if (p->reqs[i].key.n >= sizeof key)
			continue;
		if (p->reqs[i].key.n)   /* an empty key's s may be NULL */
			memcpy(key, p->reqs[i].key.s, p->reqs[i].key.n);
		key[p->reqs[i].key.n] = '\0';
		sl_k8s_reqset set;
		bool defined;
		key_set(p, key, &set, &defined);
		sl_tri t = karpenter_gpu_key(key, &set, &res);
		if (t == SL_TRI_YES)
			gpu = SL_TRI_YES;
		said_no |= t == SL_TRI_NO;
	}
	for (size_t i = 0; i < sl_map_n(limits); i++) {
		const sl_pair *pr = sl_map_pair(limits, i);
		const char *name = sl_scalar(pr->key);
		sl_k8s_str q = sl_node_str(pr->value);
		int64_t milli = 0;
		if (name && sl_config_is_gpu_resource(cfg, name) && q.n &&
		    (!quantity_milli(q.s, q.n, &milli) || milli > 0)) {
			gpu = SL_TRI_YES;
			res = name;
		}
	}
	/* the instance types and families it allows, read in the instance-type table */
	struct accel a = {0};
	const sl_requirement *types = sl_pool_requirement(p, "node.kubernetes.io/instance-type");
	const sl_requirement *fams = sl_pool_requirement(p, "karpenter.k8s.aws/instance-family");
	if (types && sl_k8s_str_is(types->op, "In"))
		accel_of(&a, cfg, types->values, types->n_values, false);
	else if (fams && sl_k8s_str_is(fams->op, "In"))
		accel_of(&a, cfg, fams->values, fams->n_values, true);
	if (a.n && a.gpu == a.n)
		gpu = SL_TRI_YES;
	said_no |= a.n && a.none == a.n;
	p->gpu = gpu == SL_TRI_YES ? SL_TRI_YES : said_no ? SL_TRI_NO : SL_TRI_UNKNOWN;
	p->gpu_resource = p->gpu == SL_TRI_YES ? (res ? res : "nvidia.com/gpu") : NULL;
	sl_tri keep = p->gpu;
	accel_apply(s, p, &a, "instance types");
	p->gpu = keep;
	if (!p->gpu_resource && p->gpu == SL_TRI_YES)
		p->gpu_resource = "nvidia.com/gpu";
	/* GPUs per node: instance-gpu-count (the instance type's count; Gt N is at least N + 1,
	** Lt N at most N - 1: karpenter pkg/scheduling/requirement.go) */
	static const char *const count_keys[] = {"karpenter.k8s.aws/instance-gpu-count",
						 "karpenter.azure.com/sku-gpu-count"};
	for (size_t k = 0; k < sizeof count_keys / sizeof *count_keys; k++) {
		sl_k8s_reqset set;
		bool defined;
		key_set(p, count_keys[k], &set, &defined);
		long most = -1;
		bool exact = defined && !set.complement && set.n == 1;
		if (defined && !set.complement) {
			for (size_t i = 0; i < set.n; i++) {
				int64_t v;
				if (sl_k8s_parse_int64(set.v[i].s, set.v[i].n, &v) && v >= 0 && v > most)
					most = (long)v;
			}
		} else if (defined && set.has_lt) {
			most = set.lt > 0 ? (long)set.lt - 1 : 0;
		}
		if (most >= 0)
			set_bound(s, p, p->gpu_resource ? p->gpu_resource : "nvidia.com/gpu", most,
				  exact, "instance types");
	}
	/* spec.limits: the whole NodePool's; a pod asking for more cannot land */
	for (size_t i = 0; i < sl_map_n(limits); i++) {
		const sl_pair *pr = sl_map_pair(limits, i);
		const char *name = sl_scalar(pr->key);
		sl_k8s_str q = sl_node_str(pr->value);
		int64_t milli;
		sl_pool_resource *l = name && quantity_milli(q.s ? q.s : "", q.n, &milli)
			? push(s, (void **)&p->limits, &p->n_limits, sizeof *l) : NULL;
		if (l)
			*l = (sl_pool_resource){name, milli, false, NULL};
	}
	/* Spot: karpenter.sh/capacity-type; unrestricted, Karpenter launches on-demand */
	sl_k8s_reqset ct;
	bool defined;
	key_set(p, "karpenter.sh/capacity-type", &ct, &defined);
	bool spot = defined && sl_k8s_reqset_has(&ct, "spot");
	bool other = !defined || sl_k8s_reqset_has(&ct, "on-demand") ||
		     sl_k8s_reqset_has(&ct, "reserved");
	p->spot = spot && !other ? SL_TRI_YES : spot ? SL_TRI_UNKNOWN : SL_TRI_NO;
}

/* --- eksctl ClusterConfig --- */

static void from_nodegroup(sl_pool_set *s, const sl_config *cfg, const sl_object *o,
			   const sl_node *ng, bool managed)
{
	const char *name = sl_scalar(sl_map_get(ng, "name"));
	sl_pool *p = new_pool(s, name, SL_POOL_EKSCTL);
	if (!p)
		return;
	p->obj = o;
	p->at = sl_map_get(ng, "name") ? sl_map_get(ng, "name") : ng;
	p->where = where_at(s, p, o, p->at, sl_arena_printf(s->a, "%s %s",
		managed ? "managed node group" : "node group", p->name));
	p->allow_well_known = true;
	const sl_node *labels = sl_map_get(ng, "labels");
	for (size_t i = 0; i < sl_map_n(labels); i++) {
		const sl_pair *pr = sl_map_pair(labels, i);
		add_label(s, p, sl_node_str(pr->key), sl_node_str(pr->value));
	}
	if (name) {
		add_label_c(s, p, "alpha.eksctl.io/nodegroup-name", name);
		if (managed)
			add_label_c(s, p, "eks.amazonaws.com/nodegroup", name);
	}
	/* taints: a list of {key, value, effect}, or a map key: "value:Effect" */
	const sl_node *taints = sl_map_get(ng, "taints");
	p->taints_at = taints;
	if (taints && sl_node_deref(taints)->type == SL_NODE_SEQ) {
		taints_of(s, p, taints);
	} else {
		for (size_t i = 0; i < sl_map_n(taints); i++) {
			const sl_pair *pr = sl_map_pair(taints, i);
			const char *v = sl_scalar(pr->value);
			const char *colon = v ? strrchr(v, ':') : NULL;
			sl_taint t = {sl_node_str(pr->key), colon ? (sl_k8s_str){v, (size_t)(colon - v)}
								  : sl_k8s_cstr(v), sl_k8s_cstr(colon ? colon + 1 : "")};
			if (sl_k8s_taint_effect_is_valid(t.effect.s, t.effect.n))
				add_taint(s, p, t);
		}
	}
	/* instance types */
	const sl_node *types = sl_map_get(ng, "instanceTypes");
	const sl_node *dist = sl_map_get(ng, "instancesDistribution");
	if (!types)
		types = sl_map_get(dist, "instanceTypes");
	const sl_node *one = sl_map_get(ng, "instanceType");
	size_t nt = one ? 1 : sl_seq_n(types);
	sl_k8s_str *tv = nt ? sl_arena_alloc(s->a, nt * sizeof *tv) : NULL;
	s->oom |= nt && !tv;
	for (size_t i = 0; tv && i < nt; i++)
		tv[i] = sl_node_str(one ? one : sl_seq_item(types, i));
	struct accel a = {0};
	accel_of(&a, cfg, tv, tv ? nt : 0, false);   /* a placeholder type is unknown */
	accel_apply(s, p, &a, "instance types");
	if (nt && tv)
		add_req(s, p, sl_k8s_cstr("node.kubernetes.io/instance-type"), "In", tv, nt);
	/* no type: instanceSelector's gpus (0: none; N: types with N GPUs), else eksctl's
	** default instance type, m5.large, which has none */
	const sl_node *sel = sl_map_get(ng, "instanceSelector");
	long long g = -1;
	if (!nt && sel && (!sl_scalar_int(sl_map_get(sel, "gpus"), &g) || g < 0))
		p->gpu = SL_TRI_UNKNOWN;
	else if (!nt && g > 0) {
		p->gpu = SL_TRI_YES;
		p->gpu_resource = "nvidia.com/gpu";
		set_bound(s, p, "nvidia.com/gpu", (long)g, true, "instanceSelector gpus");
	}
	/* spot: managed `spot: true`; unmanaged instancesDistribution with no on-demand */
	bool spot = sl_scalar_is(sl_map_get(ng, "spot"), "true");
	sl_tri sp = spot ? SL_TRI_YES : SL_TRI_NO;
	if (dist) {
		const char *base = sl_scalar(sl_map_get(dist, "onDemandBaseCapacity"));
		const char *above = sl_scalar(sl_map_get(dist, "onDemandPercentageAboveBaseCapacity"));
		bool no_od = (!base || strcmp(base, "0") == 0) && above && strcmp(above, "0") == 0;
		sp = no_od ? SL_TRI_YES : above && strcmp(above, "100") == 0 ? SL_TRI_NO : SL_TRI_UNKNOWN;
	}
	if (managed)
		add_label_c(s, p, "eks.amazonaws.com/capacityType", sp == SL_TRI_YES ? "SPOT" : "ON_DEMAND");
	finish_static(s, cfg, p);
	if (sp != SL_TRI_NO)
		p->spot = sp;
	/* size */
	long long v;
	const char *mn = sl_scalar(sl_map_get(ng, "minSize"));
	const char *mx = sl_scalar(sl_map_get(ng, "maxSize"));
	const char *de = sl_scalar(sl_map_get(ng, "desiredCapacity"));
	char *end;
	if (de && (v = strtoll(de, &end, 10)) >= 0 && !*end)
		p->min_nodes = p->max_nodes = (long)v;
	if (mn && (v = strtoll(mn, &end, 10)) >= 0 && !*end)
		p->min_nodes = (long)v;
	if (mx && (v = strtoll(mx, &end, 10)) >= 0 && !*end)
		p->max_nodes = (long)v;
}

static void from_cluster_config(sl_pool_set *s, const sl_config *cfg, const sl_object *o)
{
	const char *only = cfg ? cfg->cluster.name : NULL;
	if (only && (!o->name || strcmp(o->name, only) != 0))
		return;   /* the files are linted for another cluster */
	size_t first = s->n;
	const sl_node *groups = sl_map_get(o->root, "nodeGroups");
	for (size_t i = 0; i < sl_seq_n(groups); i++)
		from_nodegroup(s, cfg, o, sl_seq_item(groups, i), false);
	groups = sl_map_get(o->root, "managedNodeGroups");
	for (size_t i = 0; i < sl_seq_n(groups); i++)
		from_nodegroup(s, cfg, o, sl_seq_item(groups, i), true);
	for (size_t i = first; i < s->n; i++)   /* the node groups are the ClusterConfig's */
		s->pools[i].cluster = o->name ? o->name : "(unnamed cluster)";
}

/* --- Kueue ResourceFlavor --- */

static void from_flavor(sl_pool_set *s, const sl_config *cfg, const sl_object *o)
{
	sl_pool *p = object_pool(s, o, SL_POOL_KUEUE, "ResourceFlavor");
	if (!p)
		return;
	const sl_node *labels = sl_map_get(o->spec, "nodeLabels");
	for (size_t i = 0; i < sl_map_n(labels); i++) {
		const sl_pair *pr = sl_map_pair(labels, i);
		add_label(s, p, sl_node_str(pr->key), sl_node_str(pr->value));
	}
	p->taints_at = sl_map_get(o->spec, "nodeTaints");
	taints_of(s, p, p->taints_at);
	const sl_node *tols = sl_map_get(o->spec, "tolerations");
	for (size_t i = 0; i < sl_seq_n(tols); i++) {
		const sl_node *t = sl_seq_item(tols, i);
		sl_toleration *d = push(s, (void **)&p->tolerations, &p->n_tolerations, sizeof *d);
		if (d)
			*d = (sl_toleration){sl_node_str(sl_map_get(t, "key")),
					     sl_node_str(sl_map_get(t, "operator")),
					     sl_node_str(sl_map_get(t, "value")),
					     sl_node_str(sl_map_get(t, "effect")),
					     sl_map_get(t, "tolerationSeconds") != NULL, 0};
	}
	/* a flavor states no capacity, and the GPUs of its nodes only through a GPU label or an
	** instance type */
	p->gpu = SL_TRI_UNKNOWN;
	finish_static(s, cfg, p);
}

/* --- KAITO Workspace --- */

sl_err sl_pool_kaito(const sl_config *cfg, const sl_unit *u, sl_arena *a, const sl_pool **out)
{
	*out = NULL;
	const char *it = u->own_pool ? sl_scalar(u->own_pool) : NULL;
	const sl_k8s_instance_type *t;
	if (!it || sl_k8s_instance_type_lookup(it, strlen(it), &t) != SL_K8S_ACCEL_SOME ||
	    t->count <= 0)
		return SL_OK;
	sl_pool_set s = {.a = a};
	const sl_object *o = u->obj;
	/* named as KAITO names its NodePool: after the Workspace (nodepool.go NodePoolName) */
	sl_pool *p = new_pool(&s, o->name, SL_POOL_KAITO);
	if (p) {
		p->obj = o;
		p->at = u->own_pool;
		p->where = where_at(&s, p, o, p->at, sl_arena_printf(a, "Workspace %s's %s nodes",
								      p->name, it));
		/* NodeClaim requirements and labels; the selector's, which the pod's affinity asks */
		add_label_c(&s, p, "node.kubernetes.io/instance-type", it);
		add_label_c(&s, p, "kubernetes.io/os", "linux");
		const sl_node *match = sl_map_get(sl_map_get(sl_map_get(o->root, "resource"),
							     "labelSelector"), "matchLabels");
		for (size_t i = 0; i < sl_map_n(match); i++) {
			const sl_pair *pr = sl_map_pair(match, i);
			add_label(&s, p, sl_node_str(pr->key), sl_node_str(pr->value));
		}
		add_taint(&s, p, (sl_taint){sl_k8s_cstr("sku"), sl_k8s_cstr("gpu"),
					    sl_k8s_cstr("NoSchedule")});
		p->allow_well_known = true;
		finish_static(&s, cfg, p);
		sl_pool *keep = sl_arena_alloc(a, sizeof *keep);
		if (keep)
			*keep = *p;
		*out = keep;
		s.oom |= !keep;
	}
	free(s.pools);
	return s.oom || !*out ? SL_ENOMEM : SL_OK;
}

/* --- node dumps --- */

/* The pool a node belongs to: the value of its first pool label, else its name. */
static const char *node_pool_name(const sl_node *node)
{
	const sl_node *labels = sl_map_get(sl_map_get(node, "metadata"), "labels");
	for (size_t i = 0; i < sizeof pool_labels / sizeof *pool_labels; i++) {
		const char *v = sl_scalar(sl_map_get(labels, pool_labels[i]));
		if (v && *v)
			return v;
	}
	return NULL;
}

struct node_ref {
	const sl_object *obj;
	const sl_node *node;
};

/* One pool of the nodes that share a pool label value (or one node). */
static void from_node_group(sl_pool_set *s, const sl_config *cfg, const struct node_ref *nodes,
			    size_t n, const char *name)
{
	sl_pool *p = new_pool(s, name, SL_POOL_NODES);
	if (!p)
		return;
	const sl_node *first = nodes[0].node;
	p->obj = nodes[0].obj;
	p->at = sl_map_get(sl_map_get(first, "metadata"), "name");
	p->where = where_at(s, p, p->obj, p->at, sl_arena_printf(s->a, "node pool %s", p->name));
	p->min_nodes = p->max_nodes = (long)n;
	p->alloc_declared = true;
	/* the nodes' names, for matchFields on metadata.name */
	p->node_names = sl_arena_alloc(s->a, n * sizeof *p->node_names);
	s->oom |= !p->node_names;
	for (size_t j = 0; p->node_names && j < n; j++) {
		sl_k8s_str nm = sl_node_str(sl_map_get(sl_map_get(nodes[j].node, "metadata"), "name"));
		if (nm.n)
			p->node_names[p->n_node_names++] = nm;
	}
	/* labels: every key all the nodes carry, with the values they have */
	const sl_node *fl = sl_map_get(sl_map_get(first, "metadata"), "labels");
	for (size_t i = 0; i < sl_map_n(fl); i++) {
		const sl_pair *pr = sl_map_pair(fl, i);
		const char *key = sl_scalar(pr->key);
		if (!key)
			continue;
		sl_k8s_str *vals = sl_arena_alloc(s->a, n * sizeof *vals);
		if (!vals) {
			s->oom = true;
			return;
		}
		size_t nv = 0;
		bool all = true;
		for (size_t j = 0; j < n && all; j++) {
			const sl_node *v = sl_map_get(sl_map_get(sl_map_get(nodes[j].node, "metadata"),
							       "labels"), key);
			all = v != NULL;
			sl_k8s_str sv = sl_node_str(v);
			bool seen = false;
			for (size_t k = 0; all && k < nv; k++)
				seen |= sl_k8s_str_eq(vals[k], sv);
			if (all && !seen)
				vals[nv++] = sv;
		}
		if (all)
			add_req(s, p, sl_node_str(pr->key), "In", vals, nv);
	}
	taints_of(s, p, sl_map_get(sl_map_get(first, "spec"), "taints"));
	p->taints_at = sl_map_get(sl_map_get(first, "spec"), "taints");
	for (size_t j = 0; j < n; j++) {
		const sl_node *alloc = sl_map_get(sl_map_get(nodes[j].node, "status"), "allocatable");
		for (size_t i = 0; i < sl_map_n(alloc); i++) {
			const sl_pair *pr = sl_map_pair(alloc, i);
			sl_k8s_str q = sl_node_str(pr->value);
			int64_t milli;
			const char *rn = sl_scalar(pr->key);
			if (rn && quantity_milli(q.s ? q.s : "", q.n, &milli))
				set_alloc(s, p, rn, milli);
		}
	}
	finish_static(s, cfg, p);
}

/* A node's pool name and place, sorted by name then place: a pool's nodes are a run. */
struct named_node {
	const char *pool;   /* NULL: no pool label, a pool of its own */
	size_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named_node *x = a, *y = b;
	int c = x->pool && y->pool ? strcmp(x->pool, y->pool) : !x->pool - !y->pool;
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The pools of the nodes: those that share a pool label value are one, in the order of their
** first node; a node without one is a pool of its own. Sorted, not compared pairwise: a dump of
** 40 000 on-prem nodes without a pool label is 40 000 pools in O(n log n). */
static sl_err from_nodes(sl_pool_set *s, const sl_config *cfg, const struct node_ref *nodes,
			 size_t n)
{
	struct named_node *by = sl_xmalloc((n ? n : 1) * sizeof *by);
	size_t *run = sl_xmalloc((n ? n : 1) * sizeof *run);   /* node i's run's start in by */
	struct node_ref *group = sl_xmalloc((n ? n : 1) * sizeof *group);
	if (!by || !run || !group) {
		free(by);
		free(run);
		free(group);
		return SL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		by[i] = (struct named_node){node_pool_name(nodes[i].node), i};
	if (n)
		qsort(by, n, sizeof *by, cmp_named);
	for (size_t k = 0; k < n; k++)
		run[by[k].i] = k && by[k].pool && by[k - 1].pool &&
			       strcmp(by[k].pool, by[k - 1].pool) == 0 ? run[by[k - 1].i] : k;
	for (size_t i = 0; i < n; i++) {
		size_t k = run[i];
		if (by[k].i != i)
			continue;   /* not its pool's first node: grouped already */
		size_t g = 0;
		do
			group[g++] = nodes[by[k++].i];
		while (k < n && by[k].pool && run[by[k].i] == run[i]);
		const char *pn = by[run[i]].pool;
		const char *name = pn ? pn : sl_scalar(sl_map_get(sl_map_get(nodes[i].node, "metadata"),
								      "name"));
		from_node_group(s, cfg, group, g, name);
	}
	free(by);
	free(run);
	free(group);
	return s->oom ? SL_ENOMEM : SL_OK;
}

/* cluster.node-inventory joined to the config's directory (malloc'd). */
static char *inventory_path(const sl_config *cfg)
{
	const char *p = cfg->cluster.node_inventory;
	return p[0] == '/' ? sl_xstrdup(p) : sl_xprintf("%s/%s", cfg->base_dir ? cfg->base_dir : ".", p);
}

/* True when path is the file whose real path is real. */
static bool same_file(const char *real, const char *path)
{
	if (!real || !path)
		return false;
	char *r = realpath(path, NULL);
	bool same = r && strcmp(r, real) == 0;
	free(r);
	return same;
}

static sl_err push_node(struct node_ref **nodes, size_t *n, size_t *cap, const sl_object *o,
			const sl_node *nd)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		struct node_ref *v = sl_xrealloc(*nodes, *cap * sizeof *v);
		if (!v)
			return SL_ENOMEM;
		*nodes = v;
	}
	(*nodes)[(*n)++] = (struct node_ref){o, nd};
	return SL_OK;
}

static void no_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end; (void)message;
}

/* The nodes of cluster.node-inventory's dump (config.c checked that it exists; a dump that
** cannot be read or parsed gives no nodes: linting it shows why). */
static sl_err read_inventory(sl_pool_set *s, const sl_config *cfg, struct node_ref **nodes,
			     size_t *n, size_t *cap)
{
	if (!cfg || !cfg->cluster.node_inventory)
		return SL_OK;
	char *full = inventory_path(cfg);
	if (!full)
		return SL_ENOMEM;
	sl_tree t;
	sl_err err = sl_source_read_file(full, full, &s->inventory);
	free(full);
	if (err == SL_ENOMEM)
		return err;
	if (err || !s->inventory)
		return SL_OK;
	if ((err = sl_tree_parse(s->inventory, s->a, &t, no_issue, NULL)))
		return err;
	for (size_t d = 0; d < t.n_docs; d++) {
		const sl_node *root = t.docs[d]->root;
		const char *kind = sl_scalar(sl_map_get(root, "kind"));
		if (!kind || (strcmp(kind, "List") != 0 && strcmp(kind, "NodeList") != 0))
			continue;
		sl_object *o = sl_arena_zalloc(s->a, sizeof *o);   /* stands for the dump */
		if (!o)
			return SL_ENOMEM;
		o->doc = t.docs[d];
		o->path = s->inventory->path;
		o->root = root;
		o->kind = SL_KIND_NODE_LIST;
		const sl_node *items = sl_map_get(root, "items");
		for (size_t j = 0; j < sl_seq_n(items); j++)
			if (sl_scalar_is(sl_map_get(sl_seq_item(items, j), "kind"), "Node") &&
			    (err = push_node(nodes, n, cap, o, sl_seq_item(items, j))))
				return err;
	}
	return SL_OK;
}

sl_err sl_pool_set_build(const sl_config *cfg, const sl_object *const *objs, size_t n_objs,
			 sl_pool_set **out)
{
	*out = NULL;
	sl_pool_set *s = sl_xcalloc(1, sizeof *s);
	if (!s || !(s->a = sl_arena_new())) {
		free(s);
		return SL_ENOMEM;
	}
	from_config(s, cfg);
	char *inventory_real = NULL;   /* the dump's real path: linted too, it counts once */
	if (cfg && cfg->cluster.node_inventory) {
		char *full = inventory_path(cfg);
		inventory_real = full ? realpath(full, NULL) : NULL;
		free(full);
	}
	struct node_ref *nodes = NULL;
	size_t n_nodes = 0, cap = 0;
	sl_err err = SL_OK;
	for (size_t i = 0; i < n_objs && !s->oom && !err; i++) {
		const sl_object *o = objs[i];
		if (o->kind == SL_KIND_KARPENTER_NODE_POOL)
			from_nodepool(s, cfg, o);
		else if (o->kind == SL_KIND_EKSCTL_CLUSTER_CONFIG)
			from_cluster_config(s, cfg, o);
		else if (o->kind == SL_KIND_KUEUE_RESOURCE_FLAVOR)
			from_flavor(s, cfg, o);
		else if (o->kind == SL_KIND_NODE_LIST && !same_file(inventory_real, o->path)) {
			/* a dump (`kubectl get nodes -o yaml`): a lone Node manifest (a sample, a
			** test fixture) is no inventory of the cluster */
			const sl_node *items = sl_map_get(o->root, "items");
			for (size_t j = 0; j < sl_seq_n(items); j++) {
				const sl_node *nd = sl_seq_item(items, j);
				if (sl_scalar_is(sl_map_get(nd, "kind"), "Node") &&
				    (err = push_node(&nodes, &n_nodes, &cap, o, nd)))
					break;
			}
		}
	}
	if (!err && !s->oom)
		err = read_inventory(s, cfg, &nodes, &n_nodes, &cap);
	if (!err && !s->oom && n_nodes)
		err = from_nodes(s, cfg, nodes, n_nodes);
	free(nodes);
	free(inventory_real);
	for (size_t i = 0; !err && !s->oom && i < s->n; i++) {   /* the clusters, in pool order */
		const char *c = s->pools[i].cluster;
		bool seen = !c;
		for (size_t k = 0; k < s->n_clusters && !seen; k++)
			seen = strcmp(s->clusters[k], c) == 0;
		const char **slot = seen ? NULL : push(s, (void **)&s->clusters, &s->n_clusters,
						       sizeof *slot);
		if (slot)
			*slot = c;
	}
	if (err || s->oom) {
		sl_pool_set_free(s);
		return SL_ENOMEM;
	}
	*out = s;
	return SL_OK;
}

void sl_pool_set_free(sl_pool_set *s)
{
	if (!s)
		return;
	sl_arena_free(s->a);
	sl_source_free(s->inventory);
	free(s->pools);
	free(s);
}

const sl_pool *sl_pool_set_pools(const sl_pool_set *s, size_t *n)
{
	*n = s ? s->n : 0;
	return s ? s->pools : NULL;
}

size_t sl_pool_set_of_object(const sl_pool_set *s, const sl_object *obj, const sl_pool **first)
{
	*first = NULL;
	size_t n = 0;
	for (size_t i = 0; s && i < s->n; i++) {
		if (!s->pools[i].obj || !sl_object_same(s->pools[i].obj, obj))
			continue;
		if (!*first)
			*first = &s->pools[i];
		n++;
	}
	return n;
}

const char *const *sl_pool_set_clusters(const sl_pool_set *s, size_t *n)
{
	*n = s ? s->n_clusters : 0;
	return s ? s->clusters : NULL;
}

bool sl_pool_in_cluster(const sl_pool *p, const char *cluster)
{
	return !cluster || !p->cluster || strcmp(p->cluster, cluster) == 0;
}

const sl_requirement *sl_pool_requirement(const sl_pool *p, const char *key)
{
	for (size_t i = 0; i < p->n_reqs; i++)
		if (sl_k8s_str_is(p->reqs[i].key, key))
			return &p->reqs[i];
	return NULL;
}

/* The one count requirement set on key allows (In with equal values), or -1. */
static int64_t one_count(const sl_pool *p, const char *key)
{
	sl_k8s_reqset set;
	bool defined;
	key_set(p, key, &set, &defined);
	if (!defined || set.complement || set.n == 0)
		return -1;
	int64_t v = -1;
	for (size_t i = 0; i < set.n; i++) {
		int64_t c;
		if (!sl_k8s_parse_int64(set.v[i].s, set.v[i].n, &c) || c < 0 || (v >= 0 && c != v))
			return -1;
		v = c;
	}
	return v;
}

/* The accelerators per node of the instance types p allows, when the table gives them all one
** count; -1 otherwise. */
static int64_t instance_type_count(const sl_pool *p)
{
	sl_k8s_reqset set;
	bool defined;
	key_set(p, "node.kubernetes.io/instance-type", &set, &defined);
	if (!defined || set.complement || set.n == 0)
		return -1;
	int64_t v = -1;
	for (size_t i = 0; i < set.n; i++) {
		const sl_k8s_instance_type *t;
		if (sl_k8s_instance_type_lookup(set.v[i].s, set.v[i].n, &t) != SL_K8S_ACCEL_SOME ||
		    t->count <= 0 || (v >= 0 && t->count != v))
			return -1;
		v = t->count;
	}
	return v;
}

bool sl_pool_per_node(const sl_pool *p, const char *name, int64_t *milli)
{
	const sl_pool_resource *r = sl_pool_allocatable(p, name);
	if (r) {
		if (r->milli <= 0 || r->uneven)
			return false;   /* none, or some nodes offer less */
		*milli = r->milli;
		return true;
	}
	/* a pool not built from the files (the bounds sl_pool_set_build sets are the above) */
	if (p->origin != SL_POOL_KARPENTER || p->gpu != SL_TRI_YES || !p->gpu_resource ||
	    strcmp(p->gpu_resource, name) != 0)
		return false;
	int64_t c = one_count(p, "karpenter.k8s.aws/instance-gpu-count");
	if (c < 0)
		c = one_count(p, "karpenter.azure.com/sku-gpu-count");
	if (c < 0)
		c = instance_type_count(p);
	if (c <= 0)
		return false;
	*milli = c * 1000;
	return true;
}

bool sl_pool_aws_gpu(const char *instance_type, const char **resource, int *count)
{
	size_t n = instance_type ? strlen(instance_type) : 0;
	const char *dot = n ? memchr(instance_type, '.', n) : NULL;
	size_t family = dot ? (size_t)(dot - instance_type) : n;
	const sl_k8s_instance_type *t;
	int min, max;
	const char *res;
	if (sl_k8s_instance_type_lookup(instance_type, n, &t) == SL_K8S_ACCEL_SOME) {
		min = max = t->count;
		res = t->resource;
	} else if (sl_k8s_instance_type_family(instance_type, family, &min, &max, &res) !=
		   SL_K8S_ACCEL_SOME) {
		return false;
	}
	if (resource)
		*resource = res;
	if (count)
		*count = min == max && max > 0 ? max : 0;
	return true;
}

const sl_pool_resource *sl_pool_allocatable(const sl_pool *p, const char *name)
{
	for (size_t i = 0; i < p->n_alloc; i++)
		if (strcmp(p->alloc[i].name, name) == 0)
			return &p->alloc[i];
	return NULL;
}
