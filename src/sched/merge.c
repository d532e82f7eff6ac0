/* SPDX-License-Identifier: Apache-2.0
** merge.c: a unit merged over its template (merge.h). */
#include <string.h>
#include "sched/merge.h"

bool sl_merge_kind_is_template(sl_kind k)
{
	return k == SL_KIND_SERVING_RUNTIME || k == SL_KIND_CLUSTER_SERVING_RUNTIME ||
	       k == SL_KIND_SELDON_SERVER_CONFIG || k == SL_KIND_LLM_INFERENCE_SERVICE_CONFIG;
}

static const sl_unit *unit_of_role(const sl_object *o, sl_role role)
{
	for (size_t i = 0; o && i < o->n_units; i++)
		if (o->units[i].role == role)
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

sl_merged sl_merge_unit(const sl_index *ix, const sl_unit *u)
{
	sl_merged m = {.unit = u};
	const sl_object *o = u->obj;
	if (o->kind == SL_KIND_SELDON_SERVER) {
		m.base = unit_of_role(sl_index_server_config(ix, o), SL_ROLE_SERVER);
		m.append = true;
	} else if (o->kind == SL_KIND_INFERENCE_SERVICE && u->mode != SL_MODE_MODELMESH) {
		const sl_node *comp = predictor_component(u);
		const sl_object *rt = sl_index_runtime(ix, o, sl_kserve_runtime_name(comp));
		m.base = unit_of_role(rt, u->role == SL_ROLE_WORKER ? SL_ROLE_WORKER : SL_ROLE_RUNTIME);
	}
	if (m.base == u)
		m.base = NULL;
	return m;
}

/* The merged list of the unit's list own and the template's list base. */
static sl_items items(const sl_merged *m, const sl_node *own, const sl_node *base)
{
	sl_items it = {{own, NULL}, {false, false}, 0, 0, false};
	if (!m->base)
		return it;
	if (m->append) {   /* the ServerConfig's first */
		it.seq[0] = base;
		it.base[0] = true;
		it.seq[1] = own;
	} else if (sl_seq_n(own) == 0) {   /* atomic: the template's unless the unit sets one */
		it.seq[0] = base;
		it.base[0] = true;
	}
	return it;
}

const sl_node *sl_merge_items_next(sl_items *it)
{
	while (it->list < 2) {
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

sl_items sl_merged_tolerations(const sl_merged *m)
{
	return items(m, m->unit->tolerations, m->base ? m->base->tolerations : NULL);
}

sl_items sl_merged_spread(const sl_merged *m)
{
	return items(m, m->unit->topology_spread, m->base ? m->base->topology_spread : NULL);
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

sl_items sl_merged_affinity_list(const sl_merged *m, const char *path)
{
	return items(m, at_path(m->unit->affinity, path),
		     m->base ? at_path(m->base->affinity, path) : NULL);
}

sl_pairs sl_merged_node_selector(const sl_merged *m)
{
	sl_pairs p = {{m->unit->node_selector, m->base ? m->base->node_selector : NULL}, 0, 0, false};
	return p;
}

const sl_pair *sl_merge_pairs_next(sl_pairs *it)
{
	while (it->list < 2) {
		const sl_node *map = it->map[it->list];
		if (it->i < sl_map_n(map)) {
			const sl_pair *p = sl_map_pair(map, it->i++);
			/* the template's pair only when the unit does not set its key */
			const char *key = sl_scalar(p->key);
			if (it->list == 1 && (!key || sl_map_get(it->map[0], key)))
				continue;
			it->from_base = it->list == 1;
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
