/* SPDX-License-Identifier: Apache-2.0
** merge.c: a unit merged over its templates (merge.h). */
#include <string.h>
#include "sched/merge.h"

bool sl_merge_kind_is_template(sl_kind k)
{
	return k == SL_KIND_SERVING_RUNTIME || k == SL_KIND_CLUSTER_SERVING_RUNTIME ||
	       k == SL_KIND_SELDON_SERVER_CONFIG || k == SL_KIND_LLM_INFERENCE_SERVICE_CONFIG ||
	       k == SL_KIND_TRAINING_RUNTIME || k == SL_KIND_CLUSTER_TRAINING_RUNTIME;
}

static const sl_unit *unit_of_role(const sl_object *o, sl_role role)
{
	for (size_t i = 0; o && i < o->n_units; i++)
		if (o->units[i].role == role)
			return &o->units[i];
	return NULL;
}

/* The unit of o named name (the same workload of a template: "template", "replicated job x"). */
static const sl_unit *unit_named(const sl_object *o, const char *name)
{
	for (size_t i = 0; o && name && i < o->n_units; i++)
		if (o->units[i].name && strcmp(o->units[i].name, name) == 0)
			return &o->units[i];
	return NULL;
}

/* The predictor component whose model.runtime applies to u: u's own for a (canary) predictor,
** the predictor it follows for a workerSpec unit. */
static const sl_node *predictor_component(const sl_unit *u)
{
	if (u->role == SL_ROLE_PREDICTOR || u->role == SL_ROLE_CANARY)
		return u->component;
	if (u->role != SL_ROLE_WORKER)
		return NULL;
	const sl_object *o = u->obj;
	for (size_t i = (size_t)(u - o->units); i-- > 0;)
		if (o->units[i].role == SL_ROLE_PREDICTOR || o->units[i].role == SL_ROLE_CANARY)
			return o->units[i].component;
	return NULL;
}

static bool same_namespace(const sl_object *a, const sl_object *b)
{
	return !a->namespace_ || !b->namespace_ || strcmp(a->namespace_, b->namespace_) == 0;
}

/* The object of kind k named name, in o's namespace first, else any (KServe looks an
** LLMInferenceServiceConfig up in the service's namespace, then in its own). */
static const sl_object *named_near(const sl_index *ix, sl_kind k, const char *name,
				   const sl_object *o)
{
	size_t n = 0;
	const sl_object *const *v = name && *name ? sl_index_find_all(ix, k, name, &n) : NULL;
	for (size_t i = 0; i < n; i++)
		if (same_namespace(v[i], o))
			return v[i];
	return n ? v[0] : NULL;
}

/* The runtime a TrainJob's runtimeRef names: a TrainingRuntime in its namespace, or (the
** default kind) a ClusterTrainingRuntime. */
static const sl_object *training_runtime(const sl_index *ix, const sl_object *job)
{
	const sl_node *ref = sl_map_get(job->spec, "runtimeRef");
	const char *name = sl_scalar(sl_map_get(ref, "name"));
	const char *kind = sl_scalar(sl_map_get(ref, "kind"));
	if (!name || !*name)
		return NULL;
	if (kind && strcmp(kind, "TrainingRuntime") == 0) {
		size_t n = 0;
		const sl_object *const *v = sl_index_find_all(ix, SL_KIND_TRAINING_RUNTIME, name, &n);
		for (size_t i = 0; i < n; i++)
			if (same_namespace(v[i], job))
				return v[i];
		return NULL;
	}
	if (kind && *kind && strcmp(kind, "ClusterTrainingRuntime") != 0)
		return NULL;
	return sl_index_find(ix, SL_KIND_CLUSTER_TRAINING_RUNTIME, name);
}

static void push(sl_merged *m, const sl_unit *b)
{
	if (b && b != m->unit && m->n_bases < SL_MERGE_MAX) {
		m->bases[m->n_bases++] = b;
		m->base = b;
	}
}

sl_merged sl_merge_unit(const sl_index *ix, const sl_unit *u)
{
	sl_merged m = {.unit = u};
	const sl_object *o = u->obj;
	if (u->inline_base) {
		push(&m, u->inline_base);
		m.append = true;
	} else if (o->kind == SL_KIND_SELDON_SERVER) {
		push(&m, unit_of_role(sl_index_server_config(ix, o), SL_ROLE_SERVER));
		m.append = true;
	} else if (o->kind == SL_KIND_INFERENCE_SERVICE && u->mode != SL_MODE_MODELMESH) {
		const sl_node *comp = predictor_component(u);
		const sl_object *rt = sl_index_runtime(ix, o, sl_kserve_runtime_name(comp));
		push(&m, unit_of_role(rt, u->role == SL_ROLE_WORKER ? SL_ROLE_WORKER : SL_ROLE_RUNTIME));
	} else if (o->kind == SL_KIND_LLM_INFERENCE_SERVICE) {
		const sl_node *refs = sl_map_get(o->spec, "baseRefs");
		for (size_t i = 0; i < sl_seq_n(refs); i++) {
			const char *n = sl_scalar(sl_map_get(sl_seq_item(refs, i), "name"));
			push(&m, unit_named(named_near(ix, SL_KIND_LLM_INFERENCE_SERVICE_CONFIG, n, o),
					    u->name));
		}
	} else if (o->kind == SL_KIND_TRAIN_JOB) {
		push(&m, unit_named(training_runtime(ix, o), u->name));
	}
	return m;
}

/* The merged list of the unit's list own and the templates' lists at the same place (get reads
** it from a unit). */
static sl_items items(const sl_merged *m, const sl_node *own,
		      const sl_node *(*get)(const sl_unit *b, const void *arg), const void *arg)
{
	sl_items it = {.n = 0};
	if (m->append) {   /* the templates' first, in merge order */
		for (size_t i = 0; i < m->n_bases; i++) {
			it.seq[it.n] = get(m->bases[i], arg);
			it.base[it.n++] = true;
		}
		it.seq[it.n++] = own;
		return it;
	}
	/* atomic: the unit's when it sets one, else the last template's that does */
	it.n = 1;
	it.seq[0] = own;
	for (size_t i = m->n_bases; sl_seq_n(own) == 0 && i-- > 0;) {
		const sl_node *b = get(m->bases[i], arg);
		if (sl_seq_n(b) > 0) {
			it.seq[0] = b;
			it.base[0] = true;
			break;
		}
	}
	return it;
}

const sl_node *sl_merge_items_next(sl_items *it)
{
	while (it->list < it->n) {
		if (it->i < sl_seq_n(it->seq[it->list])) {
			it->from_base = it->base[it->list];
			return sl_seq_item(it->seq[it->list], it->i++);
		}
		it->list++;
		it->i = 0;
	}
	return NULL;
}

size_t sl_merge_items_count(sl_items it)
{
	size_t n = 0;
	while (sl_merge_items_next(&it))
		n++;
	return n;
}

static const sl_node *tolerations_of(const sl_unit *b, const void *arg)
{
	(void)arg;
	return b->tolerations;
}

static const sl_node *spread_of(const sl_unit *b, const void *arg)
{
	(void)arg;
	return b->topology_spread;
}

sl_items sl_merged_tolerations(const sl_merged *m)
{
	return items(m, m->unit->tolerations, tolerations_of, NULL);
}

sl_items sl_merged_spread(const sl_merged *m)
{
	return items(m, m->unit->topology_spread, spread_of, NULL);
}

/* The node at '/'-separated path under map. */
static const sl_node *at_path(const sl_node *map, const char *path)
{
	char key[128];
	while (map && *path) {
		size_t l = strcspn(path, "/");
		if (l >= sizeof key)
			return NULL;
		memcpy(key, path, l);
		key[l] = '\0';
		map = sl_map_get(map, key);
		path += l + (path[l] == '/');
	}
	return map;
}

static const sl_node *affinity_at(const sl_unit *b, const void *path)
{
	return at_path(b->affinity, path);
}

sl_items sl_merged_affinity_list(const sl_merged *m, const char *path)
{
	return items(m, at_path(m->unit->affinity, path), affinity_at, path);
}

sl_pairs sl_merged_node_selector(const sl_merged *m)
{
	sl_pairs p = {.n = 0};
	p.map[p.n++] = m->unit->node_selector;
	for (size_t i = m->n_bases; i-- > 0;)   /* the last merged wins over the earlier */
		p.map[p.n++] = m->bases[i]->node_selector;
	return p;
}

const sl_pair *sl_merge_pairs_next(sl_pairs *it)
{
	while (it->list < it->n) {
		const sl_node *map = it->map[it->list];
		if (it->i < sl_map_n(map)) {
			const sl_pair *p = sl_map_pair(map, it->i++);
			/* a template's pair only when no map read before sets its key */
			const char *key = sl_scalar(p->key);
			bool set = !key;
			for (size_t j = 0; j < it->list && !set; j++)
				set = sl_map_get(it->map[j], key) != NULL;
			if (it->list > 0 && set)
				continue;
			it->from_base = it->list > 0;
			return p;
		}
		it->list++;
		it->i = 0;
	}
	return NULL;
}

bool sl_merged_has_node_selection(const sl_merged *m)
{
	sl_pairs p = sl_merged_node_selector(m);
	if (sl_merge_pairs_next(&p))
		return true;
	sl_items t = sl_merged_affinity_list(
		m, "nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms");
	return sl_merge_items_next(&t) != NULL;
}

/* --- a TrainJob's units, once the runtimes are indexed --- */

/* True when runtime unit r is the trainer's replicated job (its Job template labelled
** trainer.kubeflow.org/trainjob-ancestor-step: trainer; component is the replicated job). */
static bool is_trainer_job(const sl_unit *r)
{
	const sl_node *labels = sl_map_get(sl_map_get(sl_map_get(r->component, "template"),
						      "metadata"), "labels");
	return sl_scalar_is(sl_map_get(labels, "trainer.kubeflow.org/trainjob-ancestor-step"),
			    "trainer");
}

/* The nodes a TrainJob's trainer runs on: its trainer.numNodes, else the runtime's
** mlPolicy.numNodes, else 1 (trainer newRuntimeInfo and the ML policy plugins). */
static long long num_nodes(const sl_object *job, const sl_object *rt)
{
	long long n = 1;
	const sl_node *jn = sl_map_get(sl_map_get(job->spec, "trainer"), "numNodes");
	const sl_node *rn = sl_map_get(sl_map_get(rt->spec, "mlPolicy"), "numNodes");
	if (!(jn && sl_scalar_int(jn, &n)) && !(rn && sl_scalar_int(rn, &n)))
		n = 1;
	return n;
}

sl_err sl_merge_complete(const sl_index *ix, sl_object *o, sl_arena *a)
{
	if (o->kind != SL_KIND_TRAIN_JOB)
		return SL_OK;
	const sl_object *rt = training_runtime(ix, o);
	if (!rt || !rt->n_units) {
		o->n_units = 0;   /* its pods are a runtime's not among the files: unknown here */
		return SL_OK;
	}
	sl_unit *v = sl_arena_zalloc(a, rt->n_units * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	const sl_node *ref = sl_map_get(o->spec, "runtimeRef");
	for (size_t i = 0; i < rt->n_units; i++) {
		const sl_unit *r = &rt->units[i];
		sl_unit *u = &v[i];
		const sl_unit *own = unit_named(o, r->name);
		if (own) {
			*u = *own;
		} else {   /* a replicated job the TrainJob does not patch: at the runtime's name (a
			   scalar: no fix writes a pod field into it) */
			const sl_node *rn = sl_map_get(ref, "name");
			u->role = r->role;
			u->name = r->name;
			u->pod = rn ? rn : ref ? ref : o->root;
			u->min_replicas = -1;
		}
		u->obj = o;
		u->mode = SL_MODE_PLAIN;
		if (!u->meta)
			u->meta = r->meta;
		if (!u->priority_class_name)   /* the pod spec's scalars: the patch's, else the runtime's */
			u->priority_class_name = r->priority_class_name;
		if (!u->node_name)
			u->node_name = r->node_name;
		u->containers = r->containers;
		u->n_containers = r->n_containers;
		u->pod_resources = r->pod_resources;
		u->exclusive_topology = r->exclusive_topology;
		u->component = r->component;
		u->pods = is_trainer_job(r) ? num_nodes(o, rt) : r->pods;
	}
	o->units = v;
	o->n_units = rt->n_units;
	return SL_OK;
}
