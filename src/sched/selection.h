/* SPDX-License-Identifier: Apache-2.0
** selection.h: what keeps a unit's pods *on* some nodes (spec/rules.md, "Selects"): each
** nodeSelector pair, and each required node-affinity expression with In, Exists, Gt or Lt
** (NotIn and DoesNotExist keep pods off nodes, so they select nothing). */
#ifndef SL_SELECTION_H
#define SL_SELECTION_H

#include <stdbool.h>
#include "config/values.h"
#include "k8s/affinity.h"
#include "model/model.h"
#include "util/arena.h"

typedef struct sl_selection {
	const char *key;
	const char *op;          /* "=" for a nodeSelector pair, else In, Exists, Gt, Lt */
	const sl_node *values;   /* the values sequence (In, Gt, Lt), NULL otherwise */
	const char *value;       /* the nodeSelector value, NULL for expressions */
	const sl_node *at;       /* the node to report at: the nodeSelector key or the expression */
	int term;                /* index of the required term, -1 for the nodeSelector */
} sl_selection;

/* Calls fn for every selection of u, in file order; stops when fn returns true and returns
** true then. */
bool sl_selection_each(const sl_unit *u, bool (*fn)(const sl_selection *s, void *payload),
			    void *payload);
/* True when u is pinned to nodes matching pred: the nodeSelector has a selection pred accepts,
** or every required term does (both are required, so either confines the pod). *at (may be
** NULL) gets the first accepted selection's node. */
bool sl_selection_pinned(const sl_unit *u, bool (*pred)(const sl_selection *s, void *payload),
		    void *payload, const sl_node **at);
/* True when a selection may match a node whose label key has value v (In values, the
** nodeSelector value, Exists; Gt/Lt never match a non-integer). */
bool sl_selection_allows(const sl_selection *s, const char *v);
/* The requirement an expression mapping e states (an item of matchExpressions or matchFields,
** or of a Karpenter NodePool's requirements), as written: its key and operator, and each item
** of its values (none when values is no sequence), views of e's tree; the array of values is
** allocated from a (NULL when there are none). Nothing is checked: sl_k8s_requirement_validate
** and sl_k8s_requirement_builds say whether it is valid. False when out of memory (*out is
** untouched). */
bool sl_selection_requirement(sl_arena *a, const sl_node *e, sl_requirement *out);
/* The required node-affinity terms of u (a sequence) or NULL. */
const sl_node *sl_selection_required_terms(const sl_unit *u);
/* True when u is pinned to GPU nodes (sl_selection_pinned): by a selection of a label listed in
** cfg's cluster.gpu-node-labels that admits GPU nodes. A value of "false", "0" or "" marks a
** node without GPUs, so `=` and In need some other value; `Lt 1` (or lower) keeps pods on nodes
** with no GPU and does not count; Exists and Gt always count. *at (may be NULL) gets the node
** of the first such selection. */
bool sl_selection_pinned_to_gpu(const sl_config *cfg, const sl_unit *u, const sl_node **at);

#endif
