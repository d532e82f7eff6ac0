/* SPDX-License-Identifier: Apache-2.0
** cluster.h: the cluster model's facts (spec/cluster.md §1). A rule whose claim depends on the
** cluster reads the fact here, never the config directly, and names the fact's source in its
** message or notes. Each fact is yes, no or unknown; the first source that decides wins:
** the config (its file:line), then the manifests among the linted files, then the provider
** preset. Node pools (cluster.md §2) are evidence between the config and the preset: the rules
** that use them read placement.h (per unit, per pool), after sl_cluster_gpu_taint_configured. */
#ifndef SL_CLUSTER_H
#define SL_CLUSTER_H

#include "util/arena.h"
#include "config/values.h"
#include "sched/index_lookups.h"
#include "model/model.h"

typedef struct sl_fact {
	sl_tri value;
	const char *source;   /* a few words naming the evidence (".schedlint.yaml:7",
				 "provider gke (.schedlint.yaml:3)"); NULL when unknown */
} sl_fact;

/* The provider that runs u: GKE when u selects a GKE accelerator label
** (cloud.google.com/gke-accelerator) or its object carries serving.kserve.io/gke-accelerator;
** else the config's cluster.provider. *source (may be NULL) gets the evidence, an arena string
** (NULL for the generic default). u may be NULL (the config alone). */
sl_provider sl_cluster_provider(const sl_index *ix, const sl_unit *u, sl_arena *a,
				const char **source);
/* Are the GPU nodes u could use tainted with the GPU taint (<resource>:NoSchedule)? Config
** cluster.gpu-nodes-tainted; else the provider preset (gke: yes; aks, eks: no). */
sl_fact sl_cluster_gpu_nodes_tainted(const sl_index *ix, const sl_unit *u, sl_arena *a);
/* True when the config says whether GPU nodes are tainted (cluster.gpu-nodes-tainted): that
** decides before the node pools do. */
bool sl_cluster_gpu_taint_configured(const sl_index *ix);
/* Does the cluster add a GPU-requesting pod's toleration at admission (ExtendedResourceToleration,
** or GKE's own)? Config cluster.extended-resource-toleration; else the preset (gke: yes). */
sl_fact sl_cluster_extended_resource_toleration(const sl_index *ix, const sl_unit *u,
						sl_arena *a);
/* KServe's default deployment mode: the inferenceservice-config ConfigMap among the files
** (data.deploy's defaultDeploymentMode), else config cluster.kserve-default-deployment-mode,
** else KServe's shipped default, Serverless (Knative). *source (may be NULL) gets the evidence
** (a static or index-owned string; NULL for the shipped default). */
sl_mode sl_cluster_kserve_default_mode(const sl_index *ix, const char **source);

#endif
