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
**            entries first, then the Server's).
** Nothing is copied: the accessors iterate the unit's and the template's nodes in place. */
#ifndef SL_MERGE_H
#define SL_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include "sched/index_lookups.h"
#include "model/model.h"
#include "yaml/yaml_tree.h"

typedef struct sl_merged {
	const sl_unit *unit;
	const sl_unit *base;        /* the template's unit it is merged over; NULL when none */
	bool append;                /* Seldon: lists appended; KServe: a non-empty list replaces */
} sl_merged;

/* u merged over its template, when one is among the linted files. */
sl_merged sl_merge_unit(const sl_index *ix, const sl_unit *u);

/* The items of a merged list, in the order the pod gets them. */
typedef struct sl_items {
	const sl_node *seq[2];      /* the lists read in turn: [0] first */
	bool base[2];               /* which of them is the template's */
	size_t list, i;
	bool from_base;             /* set by sl_merge_items_next: the item came from the template */
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

/* The merged nodeSelector's pairs: the unit's, then the template's whose key the unit does not
** set. */
typedef struct sl_pairs {
	const sl_node *map[2];
	size_t list, i;
	bool from_base;
} sl_pairs;
sl_pairs sl_merged_node_selector(const sl_merged *m);
const sl_pair *sl_merge_pairs_next(sl_pairs *it);

/* True when the merged unit has a non-empty nodeSelector or a required node affinity term. */
bool sl_merged_has_node_selection(const sl_merged *m);

/* True when o is a template (ServingRuntime, ClusterServingRuntime, Seldon ServerConfig,
** LLMInferenceServiceConfig). */
bool sl_merge_kind_is_template(sl_kind k);

#endif
