/* SPDX-License-Identifier: Apache-2.0
** cluster.c: the cluster model's facts (cluster.h; spec/cluster.md §1). */
#include <string.h>
#include "sched/cluster.h"
#include "config/config.h"
#include "sched/index.h"

/* True when the node-selecting fields of u name key: a nodeSelector key or a required
** node-affinity expression's key. */
static bool selects_key(const sl_unit *u, const char *key)
{
	if (sl_map_get(u->node_selector, key))
		return true;
	const sl_node *req = sl_map_get(sl_map_get(sl_map_get(u->affinity, "nodeAffinity"),
		"requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms");
	for (size_t t = 0; t < sl_seq_n(req); t++) {
		const sl_node *exprs = sl_map_get(sl_seq_item(req, t), "matchExpressions");
		for (size_t i = 0; i < sl_seq_n(exprs); i++) {
			const char *k = sl_scalar(sl_map_get(sl_seq_item(exprs, i), "key"));
			if (k && strcmp(k, key) == 0)
				return true;
		}
	}
	return false;
}

sl_provider sl_cluster_provider(const sl_index *ix, const sl_unit *u, sl_arena *a,
				const char **source)
{
	const sl_config *cfg = ix->cfg;
	const char *src = NULL;
	sl_provider p = SL_PROVIDER_GENERIC;
	if (u && selects_key(u, "cloud.google.com/gke-accelerator")) {
		p = SL_PROVIDER_GKE;
		src = "GKE: the unit selects cloud.google.com/gke-accelerator";
	} else if (u && sl_map_get(u->obj->annotations, "serving.kserve.io/gke-accelerator")) {
		p = SL_PROVIDER_GKE;
		src = "GKE: annotation serving.kserve.io/gke-accelerator";
	} else if (cfg && cfg->cluster.provider_line) {
		p = cfg->cluster.provider;
		src = sl_arena_printf(a, "provider %s (%s)", sl_config_provider_name(p),
				      sl_config_at(cfg, cfg->cluster.provider_line, a));
	}
	if (source)
		*source = src;
	return p;
}

sl_fact sl_cluster_gpu_nodes_tainted(const sl_index *ix, const sl_unit *u, sl_arena *a)
{
	const sl_config *cfg = ix->cfg;
	if (cfg && cfg->cluster.gpu_nodes_tainted != SL_TRI_UNKNOWN)
		return (sl_fact){cfg->cluster.gpu_nodes_tainted,
				 sl_config_at(cfg, cfg->cluster.gpu_nodes_tainted_line, a)};
	const char *src;
	switch (sl_cluster_provider(ix, u, a, &src)) {
	case SL_PROVIDER_GKE:   /* mixed clusters: nvidia.com/gpu=present:NoSchedule */
		return (sl_fact){SL_TRI_YES, src};
	case SL_PROVIDER_AKS:   /* GPU pools are untainted unless the user adds one */
	case SL_PROVIDER_EKS:   /* managed node groups: no taint unless configured */
		return (sl_fact){SL_TRI_NO, src};
	default:
		return (sl_fact){SL_TRI_UNKNOWN, NULL};
	}
}

bool sl_cluster_gpu_taint_configured(const sl_index *ix)
{
	return ix->cfg && ix->cfg->cluster.gpu_nodes_tainted != SL_TRI_UNKNOWN;
}

sl_fact sl_cluster_extended_resource_toleration(const sl_index *ix, const sl_unit *u,
						sl_arena *a)
{
	const sl_config *cfg = ix->cfg;
	if (cfg && cfg->cluster.extended_resource_toleration != SL_TRI_UNKNOWN)
		return (sl_fact){cfg->cluster.extended_resource_toleration,
				 sl_config_at(cfg, cfg->cluster.extended_resource_toleration_line, a)};
	const char *src;
	if (sl_cluster_provider(ix, u, a, &src) == SL_PROVIDER_GKE)
		return (sl_fact){SL_TRI_YES, src};   /* GKE adds the toleration to GPU pods */
	return (sl_fact){SL_TRI_UNKNOWN, NULL};
}

sl_mode sl_cluster_kserve_default_mode(const sl_index *ix, const char **source)
{
	sl_index_note_read(ix, SL_FACT_DEFAULT_MODE, 0, NULL);
	const sl_config *cfg = ix->cfg;
	sl_mode m = SL_MODE_KNATIVE;
	const char *src = NULL;
	if (ix->default_mode_source) {
		m = ix->default_mode;
		src = ix->default_mode_source;
	} else if (cfg && cfg->cluster.kserve_default_deployment_mode &&
		   sl_kserve_mode_parse(cfg->cluster.kserve_default_deployment_mode, &m)) {
		src = ix->default_mode_config;
	}
	if (source)
		*source = src;
	return m;
}
