/* SPDX-License-Identifier: Apache-2.0
** placement.c: a unit's pod against a node pool, with kube-scheduler's filters (placement.h). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched/cluster.h"
#include "config/config.h"
#include "sched/gpu.h"
#include "sched/index.h"
#include "sched/merge.h"
#include "sched/placement.h"
#include "sched/selection.h"
#include "k8s/reqset.h"
#include "util/strmap.h"
#include "k8s/resources.h"

struct request {
	const char *name;
	int64_t milli;
	const sl_node *at;
	bool gpu, extended;      /* a GPU resource (the config's gpu-resources); an extended one */
};

/* A key the pod selects on, with the nodeSelector and the term read together. */
struct pkey {
	sl_k8s_str key;          /* as written, or as Karpenter normalises it (beta aliases) */
	const sl_node *at;       /* the first field that names it */
	size_t n;                /* the pod's requirements on it */
	sl_requirement one;      /* when n is 1: it */
	sl_k8s_str one_value;    /* a nodeSelector pair's value (one.values points here) */
	bool in, negative;       /* when n is 1: one is In; one is NotIn or DoesNotExist */
	bool unknown;            /* a requirement on it holds a placeholder: it neither matches
				    nor refuses */
	size_t first;            /* its first requirement (term's next[] chains the others) */
};

/* A matchFields requirement (the only field is metadata.name). */
struct field {
	sl_requirement r;        /* In or NotIn with one value (else the term is not usable) */
	sl_k8s_str value;
	const sl_node *at;
};

struct term {
	sl_requirement *exprs;
	const sl_node **at;      /* each expression's node */
	size_t n;
	struct field *fields;    /* matchFields */
	size_t n_fields;
	bool usable;             /* non-empty, and every requirement builds */
	struct pkey *keys;       /* the nodeSelector's keys and the term's, as written (a dump, a
				    ResourceFlavor: matched as the labels are) */
	size_t n_keys;
	struct pkey *nkeys;      /* the same with Karpenter's normalised keys (a NodePool, a config
				    pool, an eksctl node group) */
	size_t n_nkeys;
	size_t *next, *nnext;    /* requirement i's next on the same key (SIZE_MAX: none), as
				    written and normalised: a key's requirements without a scan */
};

struct sl_placement_pod {
	const sl_unit *u;
	const sl_config *cfg;
	sl_label *sel;           /* nodeSelector pairs, the GKE accelerator one included */
	const sl_node **sel_at;
	size_t n_sel;
	bool has_required;
	struct term *terms;
	size_t n_terms;
	struct term sel_only;    /* the nodeSelector's keys alone (no required terms) */
	sl_toleration *tols;     /* the pod's, then those admission adds */
	size_t n_tols;
	const sl_node *tols_at;
	bool comparison_ops;
	bool tols_unknown;       /* a toleration holds a placeholder: what it tolerates is unknown */
	bool queued;             /* Kueue admits it: kueue.x-k8s.io/queue-name on the object or
				    its pod template */
	struct request *req;
	size_t n_req;
};

const char *sl_placement_quantity(int64_t milli, bool bytes, sl_arena *a)
{
	static const char *const bin[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
	if (milli % 1000)
		return sl_arena_printf(a, "%" PRId64 "m", milli);
	int64_t v = milli / 1000;
	if (bytes && v >= 1024) {
		int i = -1;
		while (i < 4 && v % 1024 == 0 && v >= 1024) {
			v /= 1024;
			i++;
		}
		if (i >= 0)
			return sl_arena_printf(a, "%" PRId64 "%s", v, bin[i]);
	}
	return sl_arena_printf(a, "%" PRId64, v);
}

/* --- the pod ------------------------------------------------------------------------------ */

static bool quantity_milli(const sl_node *n, int64_t *milli)
{
	sl_k8s_str s = sl_node_str(n);
	sl_quantity q;
	return s.n && sl_quantity_parse(s.s, s.n, &q) == SL_QUANTITY_OK &&
	       !sl_quantity_is_negative(&q) && sl_quantity_scaled_value(&q, -3, milli);
}

/* Adds amount to the request of name in v (sum), or raises it to amount (max). */
static bool add_request(struct request *v, size_t *n, size_t cap, const char *name, int64_t milli,
			const sl_node *at, bool max)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(v[i].name, name) == 0) {
			if (max) {
				if (milli > v[i].milli) {
					v[i].milli = milli;
					v[i].at = at;
				}
			} else if (v[i].milli <= INT64_MAX - milli) {
				v[i].milli += milli;
			}
			return true;
		}
	if (*n == cap)
		return false;
	v[(*n)++] = (struct request){name, milli, at, false, false};
	return true;
}

/* The requests of one container: requests, else limits (the API server defaults a request to
** its limit), written into v (cap entries). */
static size_t container_requests(const sl_container *c, struct request *v, size_t cap)
{
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++) {
		const sl_node *m = pass == 0 ? c->requests : c->limits;
		for (size_t i = 0; i < sl_map_n(m); i++) {
			const sl_pair *p = sl_map_pair(m, i);
			const char *name = sl_scalar(p->key);
			int64_t milli;
			if (!name || !quantity_milli(p->value, &milli))
				continue;
			bool seen = false;
			for (size_t k = 0; k < n; k++)
				seen |= strcmp(v[k].name, name) == 0;
			if (!seen && n < cap)
				v[n++] = (struct request){name, milli, p->value, false, false};
		}
	}
	return n;
}

#define MAX_REQ 32

/* The pod's requests (resource.PodRequests): the containers' summed, each init container's
** (restartable sidecars summed with the containers) as a floor, pod-level requests in place of
** the containers' for the resources they set. */
static sl_err pod_requests(const sl_unit *u, const sl_unit *base, sl_placement_pod *pod, sl_arena *a)
{
	const sl_unit *src = u;
	bool any = false;
	for (size_t i = 0; i < u->n_containers; i++)
		any |= u->containers[i].requests || u->containers[i].limits;
	if (!any && base)
		src = base;   /* resources only in the template (a runtime's container) */
	struct request sum[MAX_REQ], init[MAX_REQ], one[MAX_REQ];
	size_t n_sum = 0, n_init = 0;
	for (size_t i = 0; i < src->n_containers; i++) {
		const sl_container *c = &src->containers[i];
		size_t n = container_requests(c, one, MAX_REQ);
		bool sidecar = c->init && sl_scalar_is(sl_map_get(c->node, "restartPolicy"), "Always");
		for (size_t k = 0; k < n; k++) {
			if (!c->init || sidecar)
				add_request(sum, &n_sum, MAX_REQ, one[k].name, one[k].milli, one[k].at, false);
			else
				add_request(init, &n_init, MAX_REQ, one[k].name, one[k].milli, one[k].at, true);
		}
	}
	for (size_t k = 0; k < n_init; k++)
		add_request(sum, &n_sum, MAX_REQ, init[k].name, init[k].milli, init[k].at, true);
	/* pod-level resources (PodLevelResources): cpu and memory from spec.resources */
	const sl_node *pr = u->pod_resources ? u->pod_resources : base ? base->pod_resources : NULL;
	const sl_node *preq = sl_map_get(pr, "requests") ? sl_map_get(pr, "requests")
							 : sl_map_get(pr, "limits");
	for (size_t i = 0; i < sl_map_n(preq); i++) {
		const sl_pair *p = sl_map_pair(preq, i);
		const char *name = sl_scalar(p->key);
		int64_t milli;
		if (!name || !quantity_milli(p->value, &milli))
			continue;
		bool set = false;
		for (size_t k = 0; k < n_sum; k++)
			if (strcmp(sum[k].name, name) == 0) {
				sum[k].milli = milli;
				sum[k].at = p->value;
				set = true;
			}
		if (!set && n_sum < MAX_REQ)
			sum[n_sum++] = (struct request){name, milli, p->value, false, false};
	}
	pod->req = n_sum ? sl_arena_alloc(a, n_sum * sizeof *pod->req) : NULL;
	if (n_sum && !pod->req)
		return SL_ENOMEM;
	size_t w = 0;
	for (size_t k = 0; k < n_sum; k++)
		if (sum[k].milli > 0) {
			sum[k].gpu = sl_config_is_gpu_resource(pod->cfg, sum[k].name);
			sum[k].extended = sl_k8s_is_extended_resource(sum[k].name, strlen(sum[k].name));
			pod->req[w++] = sum[k];
		}
	pod->n_req = w;
	return SL_OK;
}

static sl_err add_toleration(sl_placement_pod *pod, sl_arena *a, sl_toleration t)
{
	sl_toleration *v = sl_arena_grow(a, pod->tols, pod->n_tols, sizeof *v);
	if (!v)
		return SL_ENOMEM;
	v[pod->n_tols++] = t;
	pod->tols = v;
	return SL_OK;
}

static sl_err add_selector(sl_placement_pod *pod, sl_arena *a, sl_label l, const sl_node *at)
{
	sl_label *v = sl_arena_grow(a, pod->sel, pod->n_sel, sizeof *v);
	const sl_node **w = sl_arena_grow(a, pod->sel_at, pod->n_sel, sizeof *w);
	if (!v || !w)
		return SL_ENOMEM;
	v[pod->n_sel] = l;
	w[pod->n_sel++] = at;
	pod->sel = v;
	pod->sel_at = w;
	return SL_OK;
}

static sl_err bind_term(struct term *t, const sl_node *term, sl_arena *a)
{
	const sl_node *exprs = sl_map_get(term, "matchExpressions");
	const sl_node *fields = sl_map_get(term, "matchFields");
	size_t n = sl_seq_n(exprs);
	t->n = n;
	t->usable = n > 0 || sl_seq_n(fields) > 0;
	t->exprs = n ? sl_arena_alloc(a, n * sizeof *t->exprs) : NULL;
	t->at = n ? sl_arena_alloc(a, n * sizeof *t->at) : NULL;
	if (n && (!t->exprs || !t->at))
		return SL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const sl_node *e = sl_seq_item(exprs, i);
		if (!sl_selection_requirement(a, e, &t->exprs[i]))
			return SL_ENOMEM;
		t->at[i] = e;
		char why[256];
		if (!sl_k8s_requirement_builds(&t->exprs[i], false, why, sizeof why))
			t->usable = false;   /* a term that does not build never matches */
	}
	/* matchFields (metadata.name): decided where node names are known (a dump); a field
	** requirement that does not build spoils the term */
	size_t nf = sl_seq_n(fields);
	t->fields = nf ? sl_arena_alloc(a, nf * sizeof *t->fields) : NULL;
	if (nf && !t->fields)
		return SL_ENOMEM;
	for (size_t i = 0; i < nf; i++) {
		const sl_node *e = sl_seq_item(fields, i);
		const sl_node *vals = sl_map_get(e, "values");
		struct field *f = &t->fields[t->n_fields++];
		f->at = e;
		f->value = sl_seq_n(vals) ? sl_node_str(sl_seq_item(vals, 0)) : (sl_k8s_str){0};
		f->r = (sl_requirement){sl_node_str(sl_map_get(e, "key")),
					sl_node_str(sl_map_get(e, "operator")), &f->value,
					sl_seq_n(vals) == 1 ? 1 : 0};
		char why[256];
		if (sl_seq_n(vals) > 1 || !sl_k8s_requirement_builds(&f->r, true, why, sizeof why))
			t->usable = false;
	}
	return SL_OK;
}

/* The key of requirement i of the nodeSelector with t's expressions, normalised or not. */
static sl_k8s_str req_key(const sl_placement_pod *pod, const struct term *t, size_t i, bool norm)
{
	sl_k8s_str k = i < pod->n_sel ? pod->sel[i].key : t->exprs[i - pod->n_sel].key;
	return norm ? sl_k8s_reqset_normalized_key(k) : k;
}

/* True when requirement i of the nodeSelector with t's expressions holds a placeholder. */
static bool req_placeholder(const sl_placement_pod *pod, const struct term *t, size_t i)
{
	if (i < pod->n_sel)
		return sl_k8s_str_is_placeholder(pod->sel[i].key) ||
		       sl_k8s_str_is_placeholder(pod->sel[i].value);
	const sl_requirement *r = &t->exprs[i - pod->n_sel];
	bool ph = sl_k8s_str_is_placeholder(r->key);
	for (size_t v = 0; v < r->n_values && !ph; v++)
		ph = sl_k8s_str_is_placeholder(r->values[v]);
	return ph;
}

/* The keys of the nodeSelector with term t's expressions (t->exprs may be none), into t: as
** written (t->keys) or normalised (t->nkeys). */
static sl_err build_keys(const sl_placement_pod *pod, struct term *t, sl_arena *a, bool norm)
{
	size_t total = pod->n_sel + t->n;
	struct pkey *keys = total ? sl_arena_zalloc(a, total * sizeof *keys) : NULL;
	size_t *next = total ? sl_arena_alloc(a, total * sizeof *next) : NULL;
	size_t *last = total ? sl_xmalloc(total * sizeof *last) : NULL;   /* each key's last */
	if (total && (!keys || !next || !last)) {
		free(last);
		return SL_ENOMEM;
	}
	/* keys found through a hash table: linear in the requirements (20 000 nodeSelector keys) */
	sl_strmap seen = {0};
	size_t n_keys = 0;
	for (size_t i = 0; i < total; i++) {
		bool sel = i < pod->n_sel;
		sl_k8s_str k = req_key(pod, t, i, norm);
		bool found;
		sl_strmap_slot *slot = sl_strmap_put(&seen, k.s ? k.s : "", k.n, &found);
		if (!slot) {
			sl_strmap_free(&seen);
			free(last);
			return SL_ENOMEM;
		}
		struct pkey *pk = found ? slot->val : NULL;
		next[i] = SIZE_MAX;
		if (!pk) {
			pk = &keys[n_keys++];
			slot->val = pk;
			pk->key = k;
			pk->at = sel ? pod->sel_at[i] : t->at[i - pod->n_sel];
			pk->first = i;
		} else {
			next[last[pk - keys]] = i;
		}
		last[pk - keys] = i;
		pk->unknown |= req_placeholder(pod, t, i);
		if (pk->n++ == 0) {
			if (sel) {
				pk->one_value = pod->sel[i].value;
				pk->one = (sl_requirement){k, sl_k8s_cstr("In"), &pk->one_value, 1};
			} else {
				pk->one = t->exprs[i - pod->n_sel];
			}
			pk->in = sl_k8s_str_is(pk->one.op, "In");
			pk->negative = sl_k8s_str_is(pk->one.op, "NotIn") ||
				       sl_k8s_str_is(pk->one.op, "DoesNotExist");
		}
	}
	sl_strmap_free(&seen);
	free(last);
	if (norm) {
		t->nkeys = keys;
		t->n_nkeys = n_keys;
		t->nnext = next;
	} else {
		t->keys = keys;
		t->n_keys = n_keys;
		t->next = next;
	}
	return SL_OK;
}

static sl_err build_both(const sl_placement_pod *pod, struct term *t, sl_arena *a)
{
	sl_err err = build_keys(pod, t, a, false);
	return err ? err : build_keys(pod, t, a, true);
}

sl_err sl_placement_pod_of(const sl_index *ix, const sl_unit *u, sl_arena *a,
			   sl_placement_pod **out)
{
	*out = NULL;
	const sl_config *cfg = ix->cfg;
	if (sl_node_str(u->node_name).n)
		return SL_OK;   /* the scheduler is bypassed (node-name-set) */
	sl_placement_pod *pod = sl_arena_zalloc(a, sizeof *pod);
	if (!pod)
		return SL_ENOMEM;
	pod->u = u;
	pod->cfg = cfg;
	pod->comparison_ops = sl_config_toleration_comparison_operators(cfg);
	sl_merged m = sl_merge_unit(ix, u);
	sl_err err;
	sl_pairs ps = sl_merged_node_selector(&m);
	/* a template's pair is in another file (no position), an inline base's in the unit's own */
	for (const sl_pair *p; (p = sl_merge_pairs_next(&ps));)
		if ((err = add_selector(pod, a, (sl_label){sl_node_str(p->key), sl_node_str(p->value)},
					ps.from_base && !u->inline_base ? NULL : p->key)))
			return err;
	/* KServe turns serving.kserve.io/gke-accelerator into this nodeSelector */
	const sl_node *gke = sl_map_get(u->obj->annotations, "serving.kserve.io/gke-accelerator");
	if (gke && u->obj->kind == SL_KIND_INFERENCE_SERVICE && sl_node_str(gke).n) {
		bool has = false;
		for (size_t i = 0; i < pod->n_sel; i++)
			has |= sl_k8s_str_is(pod->sel[i].key, "cloud.google.com/gke-accelerator");
		if (!has && (err = add_selector(pod, a, (sl_label){sl_k8s_cstr(
				"cloud.google.com/gke-accelerator"), sl_node_str(gke)}, gke)))
			return err;
	}
	sl_items terms = sl_merged_affinity_list(
		&m, "nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
	size_t nt = sl_merge_items_count(terms);
	const sl_node *na = sl_map_get(u->affinity, "nodeAffinity");
	pod->has_required = sl_map_get(na, "requiredDuringSchedulingIgnoredDuringExecution") != NULL ||
			    nt > 0;
	if (m.base && !pod->has_required) {
		const sl_node *bna = sl_map_get(m.base->affinity, "nodeAffinity");
		pod->has_required = sl_map_get(bna, "requiredDuringSchedulingIgnoredDuringExecution") != NULL;
	}
	pod->terms = nt ? sl_arena_zalloc(a, nt * sizeof *pod->terms) : NULL;
	if (nt && !pod->terms)
		return SL_ENOMEM;
	for (const sl_node *t; (t = sl_merge_items_next(&terms));)
		if ((err = bind_term(&pod->terms[pod->n_terms++], t, a)) ||
		    (err = build_both(pod, &pod->terms[pod->n_terms - 1], a)))
			return err;
	if ((err = build_both(pod, &pod->sel_only, a)))
		return err;
	/* Kueue admits a workload labelled with its LocalQueue */
	static const char queue[] = "kueue.x-k8s.io/queue-name";
	pod->queued = sl_map_get(u->obj->labels, queue) || sl_map_get(sl_map_get(u->meta, "labels"), queue);
	sl_items tols = sl_merged_tolerations(&m);
	pod->tols_at = u->tolerations;
	for (const sl_node *t; (t = sl_merge_items_next(&tols));) {
		const sl_node *secs = sl_map_get(t, "tolerationSeconds");
		sl_toleration tol = {sl_node_str(sl_map_get(t, "key")), sl_node_str(sl_map_get(t, "operator")),
				     sl_node_str(sl_map_get(t, "value")), sl_node_str(sl_map_get(t, "effect")),
				     secs != NULL, 0};
		pod->tols_unknown |= sl_k8s_str_is_placeholder(tol.key) ||
				     sl_k8s_str_is_placeholder(tol.value) ||
				     sl_k8s_str_is_placeholder(tol.effect);
		if ((err = add_toleration(pod, a, tol)))
			return err;
	}
	if ((err = pod_requests(u, m.base, pod, a)))
		return err;
	/* ExtendedResourceToleration (or GKE): a toleration per requested extended resource */
	sl_fact ert = sl_cluster_extended_resource_toleration(ix, u, a);
	for (size_t i = 0; ert.value == SL_TRI_YES && i < pod->n_req; i++) {
		const char *r = pod->req[i].name;
		if (!sl_k8s_is_extended_resource(r, strlen(r)))
			continue;
		if ((err = add_toleration(pod, a, (sl_toleration){sl_k8s_cstr(r), sl_k8s_cstr("Exists"),
				{0}, sl_k8s_cstr("NoSchedule"), false, 0})))
			return err;
		/* GKE also tolerates nvidia.com/gpu for the MIG resources its nodes offer */
		const char *key = sl_gpu_taint_key(r);
		if (strcmp(key, r) != 0 && sl_cluster_provider(ix, u, a, NULL) == SL_PROVIDER_GKE &&
		    (err = add_toleration(pod, a, (sl_toleration){sl_k8s_cstr(key), sl_k8s_cstr("Exists"),
				{0}, sl_k8s_cstr("NoSchedule"), false, 0})))
			return err;
	}
	*out = pod;
	return SL_OK;
}

const char *sl_placement_pod_gpu(const sl_placement_pod *pod)
{
	for (size_t i = 0; pod && i < pod->n_req; i++)
		if (pod->req[i].gpu)
			return pod->req[i].name;
	return NULL;
}

const char *sl_placement_pod_request(const sl_placement_pod *pod, size_t i, int64_t *milli)
{
	if (!pod || i >= pod->n_req)
		return NULL;
	*milli = pod->req[i].milli;
	return pod->req[i].name;
}

const char *sl_placement_pod_label(const sl_placement_pod *pod, const char *key, sl_arena *a)
{
	for (size_t i = 0; i < pod->n_sel; i++)
		if (sl_k8s_str_is(pod->sel[i].key, key))
			return sl_arena_strndup(a, pod->sel[i].value.s ? pod->sel[i].value.s : "",
						pod->sel[i].value.n);
	sl_k8s_str v = {0};
	for (size_t t = 0; t < pod->n_terms; t++) {
		bool found = false;
		for (size_t e = 0; e < pod->terms[t].n && !found; e++) {
			const sl_requirement *r = &pod->terms[t].exprs[e];
			if (!sl_k8s_str_is(r->key, key) || !sl_k8s_str_is(r->op, "In") || r->n_values != 1)
				continue;
			if (v.s && !sl_k8s_str_eq(v, r->values[0]))
				return NULL;   /* the terms pin it to different values */
			v = r->values[0];
			found = true;
		}
		if (!found)
			return NULL;
	}
	return v.s ? sl_arena_strndup(a, v.s, v.n) : NULL;
}

/* --- the filters -------------------------------------------------------------------------- */

static void add_reason(sl_placement_verdict *v, sl_placement_filter f, const char *text,
		       const char *detail, const char *brief, const sl_node *at)
{
	if (v->n_reasons < SL_PLACEMENT_MAX_REASONS)
		v->reasons[v->n_reasons++] = (sl_placement_reason){f, text, detail, brief, at, NULL};
}

/* Records a field of the unit the pool refuses (once). */
static void refuse(sl_placement_verdict *v, const sl_node *at)
{
	if (!at)
		return;
	for (size_t i = 0; i < v->n_refused; i++)
		if (v->refused[i] == at)
			return;
	if (v->n_refused < SL_PLACEMENT_MAX_REFUSED)
		v->refused[v->n_refused++] = at;
}

/* Kueue's and corev1's Taint.String(): key=value:effect, key:effect without a value. */
static const char *taint_text(const sl_taint *t, sl_arena *a)
{
	if (!t->value.n)
		return sl_arena_printf(a, "%.*s:%.*s", (int)t->key.n, t->key.s, (int)t->effect.n,
				       t->effect.s);
	return sl_arena_printf(a, "%.*s=%.*s:%.*s", (int)t->key.n, t->key.s, (int)t->value.n,
			       t->value.s, (int)t->effect.n, t->effect.s);
}

/* TaintToleration's Filter: the first NoSchedule or NoExecute taint no toleration tolerates
** (v1helper.FindMatchingUntoleratedTaint); on a ResourceFlavor, the flavor's tolerations count
** too (Kueue adds them to the pods it admits). A placeholder in a taint or a toleration leaves
** it undecided: v->unsure, and no refusal. */
static void filter_taints(const sl_placement_pod *pod, const sl_pool *p, sl_placement_verdict *v,
			  sl_arena *a)
{
	v->unsure |= p->taints_unknown;
	for (size_t i = 0; i < p->n_taints; i++) {
		const sl_taint *t = &p->taints[i];
		/* NoSchedule and NoExecute (pools hold valid effects only: PreferNoSchedule is the
		** one other) */
		if (!t->effect.n || t->effect.s[0] != 'N')
			continue;
		bool ok = false;
		for (size_t k = 0; k < pod->n_tols && !ok; k++)
			ok = sl_k8s_toleration_tolerates(&pod->tols[k], t, pod->comparison_ops);
		for (size_t k = 0; k < p->n_tolerations && !ok; k++)
			ok = sl_k8s_toleration_tolerates(&p->tolerations[k], t, pod->comparison_ops);
		if (ok)
			continue;
		if (pod->tols_unknown) {
			v->unsure = true;
			continue;
		}
		const char *text = !a ? NULL : p->origin == SL_POOL_KUEUE
			? sl_arena_printf(a, "untolerated taint %s in flavor %s", taint_text(t, a), p->name)
			: sl_arena_printf(a, "node(s) had untolerated taint {%.*s: %.*s}", (int)t->key.n,
					  t->key.s, (int)t->value.n, t->value.s ? t->value.s : "");
		add_reason(v, SL_PLACEMENT_TAINT, text, NULL, "taint", pod->tols_at);
		v->reasons[v->n_reasons - 1].taint = t;
		refuse(v, pod->tols_at);
		return;
	}
}

#define NO_WORDS ""   /* a failure whose words were not asked for (a NULL arena) */

static const char *key_text(sl_k8s_str k, sl_arena *a)
{
	return sl_arena_strndup(a, k.s ? k.s : "", k.n);
}

/* The pool's set for key (its requirements intersected); false when it has none. */
static bool pool_set(const sl_pool *p, sl_k8s_str key, sl_k8s_reqset *out)
{
	sl_k8s_reqset one, tmp;
	bool defined = false;
	*out = (sl_k8s_reqset){.complement = true};
	for (size_t i = 0; i < p->n_reqs; i++) {
		if (!sl_k8s_str_eq(p->reqs[i].key, key))
			continue;
		defined = true;
		sl_k8s_reqset_from(&p->reqs[i], &one);
		sl_k8s_reqset_intersect(out, &one, &tmp);
		*out = tmp;
	}
	return defined;
}

/* One pod requirement (already intersected with the pod's others on its key) against p:
** NULL when compatible, else why (Karpenter's words). */
static const char *compatible(const sl_pool *p, sl_k8s_str key, const sl_k8s_reqset *pod_set,
			      sl_arena *a)
{
	sl_k8s_reqset have;
	bool defined = pool_set(p, key, &have);
	const char *op = sl_k8s_reqset_operator(pod_set);
	if (!defined) {
		if (strcmp(op, "NotIn") == 0 || strcmp(op, "DoesNotExist") == 0 ||
		    sl_pool_key_allowed_undefined(p, key.s, key.n))
			return NULL;
		if (!a)
			return NO_WORDS;
		if (p->origin != SL_POOL_KARPENTER)
			return sl_arena_printf(a, "the pool's nodes have no label %s", key_text(key, a));
		return sl_arena_printf(a, "label \"%s\" does not have known values", key_text(key, a));
	}
	if (sl_k8s_reqset_intersects(&have, pod_set))
		return NULL;
	if (!a)
		return NO_WORDS;
	if (p->origin != SL_POOL_KARPENTER && !have.complement && have.n == 1) {
		char in[512];
		sl_k8s_reqset_format(pod_set, key, in, sizeof in);
		return sl_arena_printf(a, "the %s have %s=%.*s, the pod needs %s",
				       p->origin == SL_POOL_KUEUE ? "flavor's nodeLabels" : "pool's nodes",
				       key_text(key, a), (int)have.v[0].n, have.v[0].s, in);
	}
	char in[512], ex[512];
	sl_k8s_reqset_format(pod_set, key, in, sizeof in);
	sl_k8s_reqset_format(&have, key, ex, sizeof ex);
	return sl_arena_printf(a, "key %s, %s not in %s", key_text(key, a), in, ex);
}

/* The key sets of a pool: a dump's labels and a flavor's are matched as they are (what
** kube-scheduler and Kueue do), every other pool's as Karpenter normalises them. */
static bool normalised(const sl_pool *p)
{
	return p->origin != SL_POOL_NODES && p->origin != SL_POOL_KUEUE;
}

/* matchFields of t on a dump's pool: NULL when one of its nodes' names passes every field
** requirement (a field other than metadata.name is empty: fields.Set has only the name), else
** why, *at the requirement; NULL too where node names are not known. */
static const char *fields_against(const struct term *t, const sl_pool *p, sl_arena *a,
				  const sl_node **at)
{
	if (!t->n_fields || !p->n_node_names || p->origin != SL_POOL_NODES)
		return NULL;
	for (size_t n = 0; n < p->n_node_names; n++) {
		bool all = true;
		for (size_t f = 0; f < t->n_fields && all; f++) {
			const struct field *fr = &t->fields[f];
			sl_k8s_str have = sl_k8s_str_is(fr->r.key, "metadata.name") ? p->node_names[n]
										 : sl_k8s_cstr("");
			bool eq = fr->r.n_values == 1 && sl_k8s_str_eq(have, fr->value);
			all = sl_k8s_str_is(fr->r.op, "NotIn") ? !eq : eq;
		}
		if (all)
			return NULL;
	}
	*at = t->fields[0].at;
	if (!a)
		return NO_WORDS;
	const struct field *f0 = &t->fields[0];
	return sl_arena_printf(a, "matchFields %s %s %s: no node of the pool passes",
			       key_text(f0->r.key, a), key_text(f0->r.op, a), key_text(f0->value, a));
}

/* The nodeSelector with term t (NULL: the nodeSelector alone) against p: NULL when compatible,
** else why, *at the pod's node that decides; with v, every refused field is recorded there and
** every key is checked. */
static const char *term_against(const sl_placement_pod *pod, const struct term *t,
				const sl_pool *p, sl_arena *a, const sl_node **at,
				sl_placement_verdict *v)
{
	bool norm = normalised(p);
	const struct pkey *keys = norm ? t->nkeys : t->keys;
	size_t n_keys = norm ? t->n_nkeys : t->n_keys;
	const char *first = NULL;
	for (size_t j = 0; j < n_keys; j++) {
		const struct pkey *k = &keys[j];
		/* unknown: a placeholder on either side, a node agent's label p does not state */
		if (k->unknown || sl_pool_key_unknown(p, k->key.s, k->key.n))
			continue;
		const sl_requirement *pr = NULL;
		size_t n_pool = 0;
		for (size_t i = 0; i < p->n_reqs && n_pool < 2; i++)
			if (sl_k8s_str_eq(p->reqs[i].key, k->key)) {
				pr = &p->reqs[i];
				n_pool++;
			}
		/* Kueue matches a flavor on its own label keys only (flavorSelector) */
		if (p->origin == SL_POOL_KUEUE && n_pool == 0)
			continue;
		const char *why = NULL;
		if (k->n == 1 && n_pool == 0 && !a && !v) {
			/* a key the pool does not define: only NotIn and DoesNotExist pass, or a
			** well-known key (Karpenter's Compatible) */
			if (k->negative || sl_pool_key_allowed_undefined(p, k->key.s, k->key.n))
				continue;
			*at = k->at;
			return NO_WORDS;
		}
		/* the common case: one In on each side (a nodeSelector pair, a static pool's label) */
		if (k->n == 1 && n_pool == 1 && k->in && sl_k8s_str_is(pr->op, "In") &&
		    k->one.n_values <= 8 && pr->n_values <= 8) {
			bool common = false;
			for (size_t x = 0; x < k->one.n_values && !common; x++)
				for (size_t y = 0; y < pr->n_values && !common; y++)
					common = sl_k8s_str_eq(k->one.values[x], pr->values[y]);
			if (common)
				continue;
			if (!a && !v) {   /* two In sets with no common value; the general path says why */
				*at = k->at;
				return NO_WORDS;
			}
		}
		/* the pod's requirements on the key intersected, then Karpenter's Compatible */
		sl_k8s_reqset set = {.complement = true}, one, tmp;
		const size_t *next = norm ? t->nnext : t->next;
		for (size_t i = k->first; i != SIZE_MAX; i = next[i]) {
			sl_requirement r;
			sl_k8s_str val;
			if (i < pod->n_sel) {
				val = pod->sel[i].value;
				r = (sl_requirement){k->key, sl_k8s_cstr("In"), &val, 1};
			} else {
				r = t->exprs[i - pod->n_sel];
			}
			sl_k8s_reqset_from(&r, &one);
			sl_k8s_reqset_intersect(&set, &one, &tmp);
			set = tmp;
		}
		why = compatible(p, k->key, &set, a);
		if (!why)
			continue;
		if (!first) {
			first = why;
			*at = k->at;
		}
		if (!v)
			return first;
		refuse(v, k->at);
	}
	const sl_node *fat = NULL;
	const char *why = fields_against(t, p, a, &fat);
	if (why) {
		if (!first) {
			first = why;
			*at = fat;
		}
		if (v)
			refuse(v, fat);
	}
	return first;
}

/* NodeAffinity's Filter: the nodeSelector and, with required terms, one of them. */
static void filter_affinity(const sl_placement_pod *pod, const sl_pool *p, sl_placement_verdict *v,
			    sl_arena *a, bool all)
{
	const sl_node *at = NULL;
	const char *why = NULL;
	sl_placement_verdict *rec = all ? v : NULL;
	if (!pod->has_required) {
		why = term_against(pod, &pod->sel_only, p, a, &at, rec);
	} else {
		bool any = false;
		size_t refused_before = v->n_refused;
		for (size_t i = 0; i < pod->n_terms && !any; i++) {
			const sl_node *tat = NULL;
			/* every term's refused fields are kept only for the first term */
			const char *tw = pod->terms[i].usable
				? term_against(pod, &pod->terms[i], p, a, &tat, i == 0 ? rec : NULL)
				: !a ? NO_WORDS
				: "the term matches no node (empty, or a requirement that does not build)";
			any = tw == NULL;
			if (!why) {
				why = tw;
				at = tat;
			}
		}
		if (any) {
			why = NULL;
			v->n_refused = refused_before;
		} else if (!why) {
			why = "no nodeSelectorTerms: matches no node";
		}
		if (why && a && pod->n_terms > 1)
			why = sl_arena_printf(a, "none of the %zu terms: first: %s", pod->n_terms, why);
	}
	if (!why)
		return;
	const char *text = NULL;
	if (a && p->origin == SL_POOL_KARPENTER)
		why = sl_arena_printf(a, "incompatible with nodepool \"%s\", %s", p->name, why);
	if (a)
		text = p->origin == SL_POOL_KUEUE
			? sl_arena_printf(a, "flavor %s doesn't match node affinity", p->name)
			: "node(s) didn't match Pod's node affinity/selector";
	add_reason(v, SL_PLACEMENT_AFFINITY, text, a ? why : NULL, "selector", at);
	refuse(v, at);
}

static bool is_bytes(const char *name)
{
	return strcmp(name, "memory") == 0 || strcmp(name, "ephemeral-storage") == 0 ||
	       strncmp(name, "hugepages-", 10) == 0;
}

/* "requests 8, instance types offer at most 1 GPU", or "requests 4, a node offers 2". */
static const char *short_of(const struct request *r, const sl_pool_resource *have, sl_arena *a)
{
	bool bytes = is_bytes(r->name);
	const char *want = sl_placement_quantity(r->milli, bytes, a);
	const char *most = sl_placement_quantity(have->milli, bytes, a);
	if (!have->bound)
		return sl_arena_printf(a, "%s: requests %s, a node offers %s", r->name, want, most);
	if (strcmp(have->bound, "instance types") == 0)
		return sl_arena_printf(a, "%s: requests %s, instance types offer at most %s%s", r->name,
				       want, most, !r->gpu ? "" : have->milli == 1000 ? " GPU" : " GPUs");
	return sl_arena_printf(a, "%s: requests %s, a node offers %s (%s)", r->name, want, most,
			       have->bound);
}

/* NodeResourcesFit's Filter on an empty node of the pool. */
static void filter_resources(const sl_placement_pod *pod, const sl_pool *p,
			     sl_placement_verdict *v, sl_arena *a, bool all)
{
	if (p->origin == SL_POOL_KUEUE)
		return;   /* a flavor states no node's capacity (quotas are a ClusterQueue's) */
	for (size_t i = 0; i < pod->n_req; i++) {
		const struct request *r = &pod->req[i];
		const sl_pool_resource *have = sl_pool_allocatable(p, r->name);
		bool gpu = r->gpu, extended = r->extended;
		const char *detail = NULL;
		if (have) {
			if (r->milli <= have->milli)
				continue;
			detail = !a ? NULL : short_of(r, have, a);
		} else if (gpu && p->gpu == SL_TRI_NO) {
			detail = !a ? NULL : sl_arena_printf(a, "%s: the pool's nodes offer no GPU", r->name);
		} else if (gpu && p->gpu == SL_TRI_YES && p->gpu_resource &&
			   strcmp(p->gpu_resource, r->name) != 0 && p->alloc_declared) {
			detail = !a ? NULL : sl_arena_printf(a, "%s: the pool's nodes offer %s", r->name,
							     p->gpu_resource);
		} else if (extended && !gpu && p->alloc_declared) {
			detail = !a ? NULL : sl_arena_printf(a, "%s: the pool's nodes do not offer it", r->name);
		} else {
			continue;   /* not known: it may fit */
		}
		if (v->n_reasons && v->reasons[v->n_reasons - 1].filter == SL_PLACEMENT_RESOURCES) {
			refuse(v, r->at);   /* one reason per filter; every request it refuses kept */
			continue;
		}
		add_reason(v, SL_PLACEMENT_RESOURCES, a ? sl_arena_printf(a, "Insufficient %s", r->name)
						       : NULL, detail, gpu ? "gpu" : r->name, r->at);
		refuse(v, r->at);
		if (!all)
			return;
	}
}

/* Resources every instance type has: a limit of 0 on one of them admits no node. */
static bool every_node_has(const char *name)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "memory") == 0 || strcmp(name, "pods") == 0 ||
	       strcmp(name, "ephemeral-storage") == 0;
}

/* A NodePool's spec.limits (karpenter pkg/apis/v1/nodepool.go Limits.ExceededBy: above, not
** at; scheduler.go filterByRemainingResources: an instance type whose capacity exceeds what
** remains is not launched, a resource it lacks counting 0). */
static void filter_limits(const sl_placement_pod *pod, const sl_pool *p, sl_placement_verdict *v,
			  sl_arena *a)
{
	static const char exceed[] = "all available instance types exceed limits for nodepool";
	for (size_t i = 0; i < p->n_limits; i++) {
		const sl_pool_resource *l = &p->limits[i];
		bool nodes = strcmp(l->name, "nodes") == 0;
		if (l->milli == 0 && (nodes || every_node_has(l->name))) {
			add_reason(v, SL_PLACEMENT_LIMITS,
				   nodes ? "node limits have been exhausted for nodepool" : exceed,
				   !a ? NULL : sl_arena_printf(a, "the pool's limits allow no node: %s 0",
							       l->name), "limits", NULL);
			return;
		}
		for (size_t k = 0; k < pod->n_req; k++) {
			const struct request *r = &pod->req[k];
			if (strcmp(r->name, l->name) != 0 || r->milli <= l->milli)
				continue;
			bool bytes = is_bytes(r->name);
			add_reason(v, SL_PLACEMENT_LIMITS, exceed, !a ? NULL
				   : sl_arena_printf(a, "exceeds the pool's limits: %s %s > %s", r->name,
						     sl_placement_quantity(r->milli, bytes, a),
						     sl_placement_quantity(l->milli, bytes, a)),
				   "limits", r->at);
			refuse(v, r->at);
			return;
		}
	}
}

static sl_placement_verdict eval(const sl_placement_pod *pod, const sl_pool *p, sl_arena *a,
				 bool all)
{
	sl_placement_verdict v = {.applies = true};
	if (p->origin == SL_POOL_KUEUE && !pod->queued) {
		v.applies = false;
		add_reason(&v, SL_PLACEMENT_QUEUE, "Kueue admits only workloads with the "
			   "kueue.x-k8s.io/queue-name label", NULL, "queue", NULL);
		return v;
	}
	filter_taints(pod, p, &v, a);
	if (all || !v.n_reasons)
		filter_affinity(pod, p, &v, a, all);
	if (all || !v.n_reasons)
		filter_resources(pod, p, &v, a, all);
	if (all || !v.n_reasons)
		filter_limits(pod, p, &v, a);
	v.lands = v.n_reasons == 0;
	return v;
}

sl_placement_verdict sl_placement_eval(const sl_placement_pod *pod, const sl_pool *p, sl_arena *a)
{
	/* without words, the first failing filter is all that is asked */
	return eval(pod, p, a, a != NULL);
}

sl_placement_verdict sl_placement_eval_all(const sl_placement_pod *pod, const sl_pool *p)
{
	return eval(pod, p, NULL, true);
}

sl_err sl_placement_unit(const sl_index *ix, const sl_unit *u, sl_arena *a, sl_placement *out)
{
	*out = (sl_placement){0};
	size_t np;
	const sl_pool *pools = sl_pool_set_pools(sl_index_pool_set(ix), &np);
	if (u->own_pool) {   /* its pool is the one KAITO provisions for it, and only that */
		sl_err err = sl_pool_kaito(ix->cfg, u, a, &pools);
		if (err)
			return err;
		np = pools ? 1 : 0;
	}
	if (!np || sl_merge_kind_is_template(u->obj->kind))
		return SL_OK;   /* a template lands where its users do */
	sl_placement_pod *pod;
	sl_err err = sl_placement_pod_of(ix, u, a, &pod);
	if (err || !pod)
		return err;
	sl_placement_fit *v = sl_arena_alloc(a, np * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	for (size_t i = 0; i < np; i++) {
		sl_placement_verdict full = sl_placement_eval(pod, &pools[i], NULL);
		v[i] = (sl_placement_fit){full.lands, full.applies, full.unsure,
					  full.n_reasons ? full.reasons[0].brief : NULL};
	}
	*out = (sl_placement){v, pools, pod, np};
	return SL_OK;
}

sl_placement_iter sl_placement_pools(const sl_placement *p, bool landing)
{
	return (sl_placement_iter){.p = p, .landing = landing};
}

bool sl_placement_next(sl_placement_iter *it)
{
	size_t i = it->started ? it->i + 1 : 0;
	it->started = true;
	while (it->p && i < it->p->n && it->landing && !it->p->fit[i].lands)
		i++;
	if (!it->p || i >= it->p->n) {
		it->i = it->p ? it->p->n : 0;
		it->pool = NULL;
		it->fit = NULL;
		return false;
	}
	it->i = i;
	it->pool = &it->p->pools[i];
	it->fit = &it->p->fit[i];
	return true;
}
