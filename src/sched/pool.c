/* SPDX-License-Identifier: Apache-2.0
** pool.c: node pools from the config, Karpenter NodePools, eksctl node groups and node dumps
** (pool.h; spec/cluster.md §2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "config/config.h"
#include "sched/pool.h"
#include "yaml/source.h"
#include "k8s/labels.h"
#include "k8s/reqset.h"

struct sl_pool_set {
	sl_arena *a;
	sl_source *inventory;      /* cluster.node-inventory's dump, read here */
	sl_pool *pools;
	size_t n, cap;
	bool oom;
};

bool sl_pool_kind(sl_kind k)
{
	return k == SL_KIND_NODE_LIST || k == SL_KIND_KARPENTER_NODE_POOL ||
	       k == SL_KIND_EKSCTL_CLUSTER_CONFIG;
}

const char *sl_pool_origin_name(sl_pool_origin o)
{
	static const char *const names[] = {"config", "NodePool", "eksctl", "nodes"};
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
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
	"beta.kubernetes.io/instance-type", "beta.kubernetes.io/arch", "beta.kubernetes.io/os",
};
static const char *const karpenter_provider_prefixes[] = {
	"karpenter.k8s.aws/", "karpenter.azure.com/", "karpenter.kwok.sh/",
};
/* What every node carries (kubelet and the cloud provider set them): a config or eksctl pool
** that does not list them still has them. */
static const char *const node_well_known[] = {
	"kubernetes.io/hostname", "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
	"node.kubernetes.io/instance-type", "kubernetes.io/arch", "kubernetes.io/os",
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
	"beta.kubernetes.io/instance-type", "beta.kubernetes.io/arch", "beta.kubernetes.io/os",
	"topology.k8s.aws/zone-id",
};
/* The first of these labels a node carries names its pool (cluster.md §2, node dumps). */
static const char *const pool_labels[] = {
	"karpenter.sh/nodepool", "eks.amazonaws.com/nodegroup", "cloud.google.com/gke-nodepool",
	"kubernetes.azure.com/agentpool", "alpha.eksctl.io/nodegroup-name",
};

/* AWS GPU instance families (EC2 accelerated computing instances): the resource their nodes
** offer, and the GPU count when every size of the family has the same. */
static const struct gpu_family {
	const char *family, *resource;
	int count;
} aws_gpu_families[] = {
	{"p2", "nvidia.com/gpu", 0},      {"p3", "nvidia.com/gpu", 0},
	{"p3dn", "nvidia.com/gpu", 8},    {"p4d", "nvidia.com/gpu", 8},
	{"p4de", "nvidia.com/gpu", 8},    {"p5", "nvidia.com/gpu", 0},
	{"p5e", "nvidia.com/gpu", 8},     {"p5en", "nvidia.com/gpu", 8},
	{"p6-b200", "nvidia.com/gpu", 8}, {"g3", "nvidia.com/gpu", 0},
	{"g3s", "nvidia.com/gpu", 1},     {"g4dn", "nvidia.com/gpu", 0},
	{"g4ad", "amd.com/gpu", 0},       {"g5", "nvidia.com/gpu", 0},
	{"g5g", "nvidia.com/gpu", 0},     {"g6", "nvidia.com/gpu", 0},
	{"g6e", "nvidia.com/gpu", 0},     {"gr6", "nvidia.com/gpu", 0},
	{"g6f", "nvidia.com/gpu", 0},     {"gr6f", "nvidia.com/gpu", 0},
};

static const struct gpu_family *aws_family(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof aws_gpu_families / sizeof *aws_gpu_families; i++)
		if (strlen(aws_gpu_families[i].family) == n &&
		    strncmp(aws_gpu_families[i].family, s, n) == 0)
			return &aws_gpu_families[i];
	return NULL;
}

bool sl_pool_aws_gpu(const char *instance_type, const char **resource, int *count)
{
	const char *dot = instance_type ? strchr(instance_type, '.') : NULL;
	const struct gpu_family *f = aws_family(instance_type ? instance_type : "",
						dot ? (size_t)(dot - instance_type)
						    : instance_type ? strlen(instance_type) : 0);
	if (!f)
		return false;
	if (resource)
		*resource = f->resource;
	if (count)
		*count = f->count;
	return true;
}

static bool in_list(const char *const *l, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(l[i]) == len && strncmp(l[i], s, len) == 0)
			return true;
	return false;
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

static void add_req(sl_pool_set *s, sl_pool *p, sl_k8s_str key, const char *op,
		    const sl_k8s_str *values, size_t n_values)
{
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
			return;
		}
	sl_pool_resource *r = push(s, (void **)&p->alloc, &p->n_alloc, sizeof *r);
	if (r)
		*r = (sl_pool_resource){name, milli, false};
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
	for (size_t i = 0; i < p->n_alloc; i++)
		if (p->alloc[i].milli > 0 && sl_config_is_gpu_resource(cfg, p->alloc[i].name))
			return p->alloc[i].name;
	return NULL;
}

static void finish_static(const sl_config *cfg, sl_pool *p)
{
	const char *g = gpu_alloc(cfg, p);
	if (g) {
		p->gpu = SL_TRI_YES;
		p->gpu_resource = g;
	} else if (gpu_labelled(cfg, p)) {
		p->gpu = SL_TRI_YES;
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
		finish_static(cfg, p);
		if (spot_set)
			p->spot = c->spot;
	}
}

/* --- Karpenter NodePool --- */

/* Reads a NodeSelectorRequirement-like mapping's values into the arena. */
static const sl_k8s_str *values_of(sl_pool_set *s, const sl_node *seq, size_t *n)
{
	*n = sl_seq_n(seq);
	if (*n == 0)
		return NULL;
	sl_k8s_str *v = sl_arena_alloc(s->a, *n * sizeof *v);
	if (!v) {
		s->oom = true;
		*n = 0;
		return NULL;
	}
	for (size_t i = 0; i < *n; i++)
		v[i] = sl_node_str(sl_seq_item(seq, i));
	return v;
}

/* Taints from a sequence of {key, value, effect} mappings. */
static void taints_of(sl_pool_set *s, sl_pool *p, const sl_node *seq)
{
	for (size_t i = 0; i < sl_seq_n(seq); i++) {
		const sl_node *t = sl_seq_item(seq, i);
		sl_taint taint = {sl_node_str(sl_map_get(t, "key")), sl_node_str(sl_map_get(t, "value")),
				  sl_node_str(sl_map_get(t, "effect"))};
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
	bool family_key = strcmp(key, "karpenter.k8s.aws/instance-family") == 0 ||
			  strcmp(key, "node.kubernetes.io/instance-type") == 0;
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
	if (family_key && !set->complement && set->n > 0) {
		size_t gpus = 0;
		for (size_t i = 0; i < set->n; i++) {
			const char *v = set->v[i].s;
			size_t n = set->v[i].n;
			const char *dot = memchr(v, '.', n);
			const struct gpu_family *f = aws_family(v, dot ? (size_t)(dot - v) : n);
			if (f) {
				gpus++;
				*resource = f->resource;
			}
		}
		return gpus == set->n ? SL_TRI_YES : gpus == 0 ? SL_TRI_NO : SL_TRI_UNKNOWN;
	}
	if (strcmp(key, "karpenter.k8s.aws/instance-category") == 0 && !set->complement && set->n) {
		size_t gpus = 0;
		for (size_t i = 0; i < set->n; i++)
			gpus += sl_k8s_str_is(set->v[i], "g") || sl_k8s_str_is(set->v[i], "p");
		return gpus == set->n ? SL_TRI_YES : gpus == 0 ? SL_TRI_NO : SL_TRI_UNKNOWN;
	}
	return SL_TRI_UNKNOWN;
}

static void from_nodepool(sl_pool_set *s, const sl_config *cfg, const sl_object *o)
{
	sl_pool *p = new_pool(s, o->name, SL_POOL_KARPENTER);
	if (!p)
		return;
	p->obj = o;
	p->at = sl_map_get(o->metadata, "name");
	p->where = where_at(s, p, o, p->at, sl_arena_printf(s->a, "NodePool %s", p->name));
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
		const sl_node *r = sl_seq_item(reqs, i);
		size_t nv;
		const sl_k8s_str *v = values_of(s, sl_map_get(r, "values"), &nv);
		sl_requirement req = {sl_node_str(sl_map_get(r, "key")),
				      sl_node_str(sl_map_get(r, "operator")), v, nv};
		char why[256];
		if (!req.key.n || !sl_k8s_requirement_builds(&req, false, why, sizeof why))
			continue;   /* invalid: the NodePool's own validation rejects it */
		add_req(s, p, req.key, dup(s, req.op.s, req.op.n), v, nv);
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
	p->gpu = gpu == SL_TRI_YES ? SL_TRI_YES : said_no ? SL_TRI_NO : SL_TRI_UNKNOWN;
	p->gpu_resource = p->gpu == SL_TRI_YES ? (res ? res : "nvidia.com/gpu") : NULL;
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
	size_t gpus = 0;
	for (size_t i = 0; tv && i < nt; i++) {
		tv[i] = sl_node_str(one ? one : sl_seq_item(types, i));
		const char *dot = memchr(tv[i].s ? tv[i].s : "", '.', tv[i].n);
		const struct gpu_family *f = tv[i].s ? aws_family(tv[i].s, dot ? (size_t)(dot - tv[i].s)
									       : tv[i].n) : NULL;
		if (f) {
			gpus++;
			p->gpu_resource = f->resource;
			if (f->count > 0)
				set_alloc(s, p, f->resource, (int64_t)f->count * 1000);
		}
	}
	if (nt && tv)
		add_req(s, p, sl_k8s_cstr("node.kubernetes.io/instance-type"), "In", tv, nt);
	p->gpu = nt && gpus == nt ? SL_TRI_YES : gpus ? SL_TRI_UNKNOWN : SL_TRI_NO;
	if (p->gpu == SL_TRI_NO)
		p->gpu_resource = NULL;
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
	finish_static(cfg, p);
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
	const sl_node *groups = sl_map_get(o->root, "nodeGroups");
	for (size_t i = 0; i < sl_seq_n(groups); i++)
		from_nodegroup(s, cfg, o, sl_seq_item(groups, i), false);
	groups = sl_map_get(o->root, "managedNodeGroups");
	for (size_t i = 0; i < sl_seq_n(groups); i++)
		from_nodegroup(s, cfg, o, sl_seq_item(groups, i), true);
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
	p->where = where_at(s, p, p->obj, p->at, sl_arena_printf(s->a, "nodes %s", p->name));
	p->min_nodes = p->max_nodes = (long)n;
	p->alloc_declared = true;
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
	finish_static(cfg, p);
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
		char buf[24];
		char *end;
		if (set.v[i].n == 0 || set.v[i].n >= sizeof buf)
			return -1;
		memcpy(buf, set.v[i].s, set.v[i].n);
		buf[set.v[i].n] = '\0';
		long long c = strtoll(buf, &end, 10);
		if (*end || c < 0 || (v >= 0 && c != v))
			return -1;
		v = c;
	}
	return v;
}

/* The GPUs per node of the AWS instance types a NodePool allows, when they are one count the
** table knows; -1 otherwise. */
static int64_t instance_type_count(const sl_pool *p)
{
	sl_k8s_reqset set;
	bool defined;
	key_set(p, "node.kubernetes.io/instance-type", &set, &defined);
	if (!defined || set.complement || set.n == 0)
		return -1;
	int64_t v = -1;
	for (size_t i = 0; i < set.n; i++) {
		const char *dot = memchr(set.v[i].s, '.', set.v[i].n);
		const struct gpu_family *f = aws_family(set.v[i].s, dot ? (size_t)(dot - set.v[i].s)
									 : set.v[i].n);
		if (!f || f->count <= 0 || (v >= 0 && f->count != v))
			return -1;
		v = f->count;
	}
	return v;
}

bool sl_pool_per_node(const sl_pool *p, const char *name, int64_t *milli)
{
	const sl_pool_resource *r = sl_pool_allocatable(p, name);
	if (r && r->milli > 0) {
		if (r->uneven || (p->origin == SL_POOL_EKSCTL && p->gpu != SL_TRI_YES))
			return false;   /* some nodes offer less, or none */
		*milli = r->milli;
		return true;
	}
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

const sl_pool_resource *sl_pool_allocatable(const sl_pool *p, const char *name)
{
	for (size_t i = 0; i < p->n_alloc; i++)
		if (strcmp(p->alloc[i].name, name) == 0)
			return &p->alloc[i];
	return NULL;
}
