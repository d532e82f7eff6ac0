/* SPDX-License-Identifier: Apache-2.0
** merge.h: a placement unit's effective scheduling fields, as its pods really get them, when the
** unit is merged over a template among the linted files (spec/rules.md "templates"; domain.md
** §1.1 "Runtime and ISVC PodSpec merge", §3 "How the Server and ServerConfig pod specs merge"):
**   KServe   an InferenceService predictor (canary predictor, workerSpec) over the ServingRuntime
**            its model.runtime names (in its namespace, else a ClusterServingRuntime): a strategic
**            merge patch, so nodeSelector maps merge (the InferenceService wins) and lists are
**            atomic (a non-empty list of the InferenceService replaces the runtime's);
**   Seldon   a Server over its ServerConfig: mergo WithOverride + WithAppendSlice, so maps merge
**            (the Server wins), scalars are overridden and lists are appended (the ServerConfig's
**            entries first, then the Server's);
**   LLM      an LLMInferenceService workload over the LLMInferenceServiceConfigs of its baseRefs,
**            in order (KServe combineBaseRefsConfig: a strategic merge per config, the service
**            last), the config's unit of the same name (template, worker, prefill.template...);
**   Trainer  a TrainJob's replicated job over its (Cluster)TrainingRuntime's one of that name:
**            runtimePatches (podTemplateOverrides, podSpecOverrides), strategic merge patches;
**   inline   a unit over a template the object holds itself (u->inline_base): a SparkApplication
**            driver or executor over its pod template (the operator's webhook merges
**            nodeSelector, appends tolerations), a KAITO Workspace over the pod KAITO writes
**            (its tolerations appended, labelSelector's node affinity).
** docs/domain.md §4, §6, §7, §11. Nothing is copied: the accessors iterate the unit's and the
** templates' nodes in place. */
#ifndef SL_MERGE_H
#define SL_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include "sched/index_lookups.h"
#include "model/model.h"
#include "yaml/yaml_tree.h"

#define SL_MERGE_MAX 8          /* the templates one unit is merged over, at most */

typedef struct sl_merged {
	const sl_unit *unit;
	const sl_unit *base;        /* the template's unit it is merged over, the last (winning) one
				       when several are; NULL when none */
	bool append;                /* Seldon, inline: lists appended; KServe: a non-empty list
				       replaces */
	const sl_unit *bases[SL_MERGE_MAX];   /* every template, the first merged first (the
				       lowest precedence); bases[n_bases - 1] is base */
	size_t n_bases;
} sl_merged;

/* u merged over its templates, those among the linted files. */
sl_merged sl_merge_unit(const sl_index *ix, const sl_unit *u);

/* The items of a merged list, in the order the pod gets them. */
typedef struct sl_items {
	const sl_node *seq[SL_MERGE_MAX + 1];   /* the lists read in turn: [0] first */
	bool base[SL_MERGE_MAX + 1];            /* which of them is a template's */
	size_t n, list, i;
	bool from_base;             /* set by sl_merge_items_next: the item came from a template */
} sl_items;
/* The next item, or NULL at the end. */
const sl_node *sl_merge_items_next(sl_items *it);
/* The merged unit's tolerations / topologySpreadConstraints. */
sl_items sl_merged_tolerations(const sl_merged *m);
sl_items sl_merged_spread(const sl_merged *m);
/* A list inside affinity at path, '/'-separated under affinity
** ("nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms"). */
sl_items sl_merged_affinity_list(const sl_merged *m, const char *path);
/* The number of items sl_items would give (a copy of it is walked). */
size_t sl_merge_items_count(sl_items it);

/* The merged nodeSelector's pairs: the unit's, then each template's (the last merged first)
** whose key nothing read before sets. */
typedef struct sl_pairs {
	const sl_node *map[SL_MERGE_MAX + 1];
	size_t n, list, i;
	bool from_base;
} sl_pairs;
sl_pairs sl_merged_node_selector(const sl_merged *m);
const sl_pair *sl_merge_pairs_next(sl_pairs *it);

/* True when the merged unit has a non-empty nodeSelector or a required node affinity term. */
bool sl_merged_has_node_selection(const sl_merged *m);

/* True when o is a template (ServingRuntime, ClusterServingRuntime, Seldon ServerConfig,
** LLMInferenceServiceConfig, TrainingRuntime, ClusterTrainingRuntime). */
bool sl_merge_kind_is_template(sl_kind k);

/* Completes a TrainJob's units once the files are indexed: one per replicated job of the runtime
** its runtimeRef names (the TrainJob's own patch of that job, when it has one, is the unit's pod
** spec; else the scalar runtimeRef.name, where findings about the runtime's fields go), with the runtime's containers and the pods the trainer makes
** (trainer.numNodes, else the runtime's mlPolicy.numNodes). With no such runtime among the
** files the TrainJob has no units. Other objects are untouched. SL_ENOMEM only. */
sl_err sl_merge_complete(const sl_index *ix, sl_object *o, sl_arena *a);

#endif
