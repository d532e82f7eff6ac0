/* SPDX-License-Identifier: Apache-2.0
** gpu.c: how a unit uses GPUs (gpu.h; spec/rules.md "requests a GPU"): the config's GPU
** resources and device classes, the taint keys GPU nodes carry, DRA claims resolved through
** the index. */
#include <stdlib.h>
#include <string.h>
#include "sched/gpu.h"
#include "config/config.h"
#include "sched/index.h"
#include "k8s/quantity.h"
#include "k8s/resources.h"

const char *sl_gpu_taint_key(const char *resource)
{
	return strncmp(resource, "nvidia.com/mig-", 15) == 0 ? "nvidia.com/gpu" : resource;
}

bool sl_gpu_quantity_is_zero(const sl_node *q)
{
	const char *s = sl_scalar(q);
	if (!s || !*s)
		return false;
	if (*s == '+' || *s == '-')
		s++;
	for (; *s; s++)
		if (*s != '0' && *s != '.')
			return false;
	return true;
}

sl_gpu_entries sl_gpu_container_entries(const sl_config *cfg, const sl_container *c)
{
	return (sl_gpu_entries){.cfg = cfg, .c = c};
}

const sl_pair *sl_gpu_entries_next(sl_gpu_entries *it)
{
	for (; it->list < 2; it->list++, it->i = 0) {
		size_t n;   /* the entries taken once per call, not per entry */
		const sl_pair *pairs = sl_map_entries(it->list == 0 ? it->c->limits : it->c->requests, &n);
		while (it->i < n) {
			const sl_pair *p = &pairs[it->i++];
			if (sl_config_is_gpu_resource(it->cfg, sl_scalar(p->key)) &&
			    !sl_gpu_quantity_is_zero(p->value)) {
				it->limit = it->list == 0;
				return p;
			}
		}
	}
	return NULL;
}

sl_gpu_requests sl_gpu_extended_requests(const sl_config *cfg, const sl_unit *u)
{
	return (sl_gpu_requests){.cfg = cfg, .u = u};
}

const sl_pair *sl_gpu_requests_next(sl_gpu_requests *it)
{
	for (; it->ci < it->u->n_containers; it->ci++, it->i = 0) {
		const sl_container *c = &it->u->containers[it->ci];
		while (it->i < sl_map_n(c->requests)) {
			const sl_pair *p = sl_map_pair(c->requests, it->i++);
			const char *name = sl_scalar(p->key);
			bool gpu = sl_config_is_gpu_resource(it->cfg, name);
			if (!name || (!gpu && !sl_k8s_is_extended_resource(name, strlen(name))))
				continue;
			it->c = c;
			it->name = name;
			it->gpu = gpu;
			return p;
		}
	}
	return NULL;
}

const char *sl_gpu_container_resource(const sl_config *cfg, const sl_container *c)
{
	sl_gpu_entries it = sl_gpu_container_entries(cfg, c);
	const sl_pair *p = sl_gpu_entries_next(&it);
	return p ? sl_scalar(p->key) : NULL;
}

const char *sl_gpu_unit_resource(const sl_config *cfg, const sl_unit *u)
{
	for (size_t i = 0; i < u->n_containers; i++) {
		const char *name = sl_gpu_container_resource(cfg, &u->containers[i]);
		if (name)
			return name;
	}
	return NULL;
}

/* True when name is one of the config's GPU device classes. */
static bool is_gpu_class(const sl_config *cfg, const char *name)
{
	for (size_t i = 0; name && cfg && i < cfg->cluster.gpu_device_classes.n; i++)
		if (strcmp(name, cfg->cluster.gpu_device_classes.v[i]) == 0)
			return true;
	return false;
}

/* The first GPU device class of a DRA device request: deviceClassName (v1beta1),
** exactly.deviceClassName (v1, v1beta2), or one of firstAvailable[].deviceClassName. */
static const char *request_gpu_class(const sl_config *cfg, const sl_node *req)
{
	const char *c = sl_scalar(sl_map_get(req, "deviceClassName"));
	if (is_gpu_class(cfg, c))
		return c;
	c = sl_scalar(sl_map_get(sl_map_get(req, "exactly"), "deviceClassName"));
	if (is_gpu_class(cfg, c))
		return c;
	const sl_node *alts = sl_map_get(req, "firstAvailable");
	for (size_t i = 0; i < sl_seq_n(alts); i++) {
		c = sl_scalar(sl_map_get(sl_seq_item(alts, i), "deviceClassName"));
		if (is_gpu_class(cfg, c))
			return c;
	}
	return NULL;
}

/* The first object of kind k named name that can be in o's namespace (a claim is looked up in
** the pod's namespace): the same namespace, or either one unset. NULL when none. */
static const sl_object *same_namespace(const sl_index *ix, sl_kind k, const char *name,
				       const sl_object *o)
{
	size_t n;
	const sl_object *const *all = sl_index_find_all(ix, k, name, &n);
	for (size_t i = 0; i < n; i++)
		if (!all[i]->namespace_ || !o->namespace_ ||
		    strcmp(all[i]->namespace_, o->namespace_) == 0)
			return all[i];
	return NULL;
}

const char *sl_gpu_claim_class(const sl_index *ix, const sl_unit *u, const sl_node *entry,
			       bool *resolved)
{
	*resolved = false;
	const char *name = sl_scalar(sl_map_get(entry, "name"));
	const sl_node *pod_claims = sl_map_get(u->pod, "resourceClaims");
	const sl_node *pc = NULL;
	for (size_t i = 0; name && i < sl_seq_n(pod_claims) && !pc; i++) {
		const char *n = sl_scalar(sl_map_get(sl_seq_item(pod_claims, i), "name"));
		if (n && strcmp(n, name) == 0)
			pc = sl_seq_item(pod_claims, i);
	}
	/* resourceClaimName / resourceClaimTemplateName, or (before Kubernetes 1.31) under source */
	const sl_node *src = sl_map_get(pc, "source") ? sl_map_get(pc, "source") : pc;
	const char *claim = sl_scalar(sl_map_get(src, "resourceClaimName"));
	const char *tmpl = sl_scalar(sl_map_get(src, "resourceClaimTemplateName"));
	const sl_object *o = claim ? same_namespace(ix, SL_KIND_RESOURCE_CLAIM, claim, u->obj)
		: tmpl ? same_namespace(ix, SL_KIND_RESOURCE_CLAIM_TEMPLATE, tmpl, u->obj) : NULL;
	if (!o)
		return NULL;
	*resolved = true;
	const sl_node *spec = o->kind == SL_KIND_RESOURCE_CLAIM ? o->spec : sl_map_get(o->spec, "spec");
	const sl_node *reqs = sl_map_get(sl_map_get(spec, "devices"), "requests");
	for (size_t i = 0; i < sl_seq_n(reqs); i++) {
		/* every request of the claim, whichever one the container names (entry.request): the
		** devices of all are allocated to the pod, on the node it runs on */
		const char *c = request_gpu_class(ix->cfg, sl_seq_item(reqs, i));
		if (c)
			return c;
	}
	return NULL;
}

sl_gpu_use sl_gpu_unit_use(const sl_index *ix, const sl_unit *u)
{
	sl_gpu_use g = {.value = SL_TRI_NO};
	g.resource = sl_gpu_unit_resource(ix->cfg, u);
	bool unresolved = false;
	for (size_t i = 0; i < u->n_containers && !g.device_class; i++) {
		const sl_node *claims = sl_map_get(u->containers[i].resources, "claims");
		for (size_t j = 0; j < sl_seq_n(claims) && !g.device_class; j++) {
			bool resolved;
			g.device_class = sl_gpu_claim_class(ix, u, sl_seq_item(claims, j), &resolved);
			unresolved |= !resolved;
		}
	}
	if (g.resource || g.device_class)
		g.value = SL_TRI_YES;
	else if (unresolved)
		g.value = SL_TRI_UNKNOWN;
	return g;
}

bool sl_gpu_unit_taint(const sl_index *ix, const sl_unit *u, const char *key)
{
	for (size_t i = 0; key && i < u->n_containers; i++) {
		const sl_container *c = &u->containers[i];
		sl_gpu_entries it = sl_gpu_container_entries(ix->cfg, c);
		for (const sl_pair *p; (p = sl_gpu_entries_next(&it));)
			if (strcmp(sl_gpu_taint_key(sl_scalar(p->key)), key) == 0)
				return true;
		const sl_node *claims = sl_map_get(c->resources, "claims");
		for (size_t j = 0; j < sl_seq_n(claims); j++) {
			bool resolved;
			const char *t = sl_gpu_class_taint_key(
				sl_gpu_claim_class(ix, u, sl_seq_item(claims, j), &resolved));
			if (t && strcmp(t, key) == 0)
				return true;
		}
	}
	return false;
}

const char *sl_gpu_class_taint_key(const char *device_class)
{
	if (!device_class)
		return NULL;
	if (strstr(device_class, "nvidia.com"))
		return "nvidia.com/gpu";
	if (strstr(device_class, "amd.com"))
		return "amd.com/gpu";
	return NULL;
}

int sl_gpu_tpu_chips_per_host(const char *topology, const char *accelerator)
{
	long long chips = 1;
	int dims = 0;
	for (const char *s = topology; s && *s; dims++) {
		char *end;
		long long d = strtoll(s, &end, 10);
		if (end == s || d < 1 || d > 4096 || (*end && *end != 'x'))
			return 0;
		chips *= d;
		s = *end ? end + 1 : end;
		if (!*s && *end)
			return 0;   /* "2x" */
	}
	if (dims < 2 || dims > 3)
		return 0;
	/* v5e (tpu-v5-lite-*) and v6e (tpu-v6e-slice) have single hosts of up to 8 chips (2x4),
	** written in two dimensions; v3, v4, v5p and TPU7x of 4 (2x2, 2x2x1) */
	bool lite = accelerator ? strstr(accelerator, "lite") || strstr(accelerator, "v6e")
				: dims == 2;
	long long single = lite ? 8 : 4;
	return (int)(chips <= single ? chips : 4);
}

long long sl_gpu_unit_count(const sl_config *cfg, const sl_unit *u)
{
	long long total = 0;
	for (size_t i = 0; i < u->n_containers; i++) {
		if (u->containers[i].init)
			continue;
		sl_gpu_entries it = sl_gpu_container_entries(cfg, &u->containers[i]);
		long long lim = 0, req = 0;
		for (const sl_pair *p; (p = sl_gpu_entries_next(&it));) {
			sl_quantity q;
			int64_t v = 0;
			const sl_node *qn = sl_node_deref(p->value);
			if (qn && qn->type == SL_NODE_SCALAR &&
			    sl_quantity_parse(qn->u.scalar.s, qn->u.scalar.len, &q) == SL_QUANTITY_OK &&
			    sl_quantity_scaled_value(&q, 0, &v))
				*(it.limit ? &lim : &req) += v;
		}
		total += lim ? lim : req;
	}
	return total;
}
