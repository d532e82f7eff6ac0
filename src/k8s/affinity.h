/* SPDX-License-Identifier: Apache-2.0
** affinity.h: node selection as the scheduler evaluates it (component-helpers nodeaffinity and
** apimachinery labels.Requirement): nodeSelector AND (OR of required terms), validation as the
** API server does it, and contradiction detection: can ANY node satisfy a term at all?
** All inputs are borrowed views; nothing is allocated; thread-safe. */
#ifndef SL_K8S_AFFINITY_H
#define SL_K8S_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>
#include "k8s/k8s.h"

/* One key=value pair: a node label or a nodeSelector entry. */
typedef struct sl_label {
	sl_k8s_str key, value;
} sl_label;

/* A node as matching sees it: its labels and, when has_name, metadata.name. Without a name,
** matchFields are ignored, exactly as upstream does for a node with an empty name. */
typedef struct sl_node_labels {
	const sl_label *labels;
	size_t n_labels;
	bool has_name;
	sl_k8s_str name;
} sl_node_labels;

/* A NodeSelectorRequirement {key, operator, values}. */
typedef struct sl_requirement {
	sl_k8s_str key, op;
	const sl_k8s_str *values;
	size_t n_values;
} sl_requirement;

/* A NodeSelectorTerm: matchExpressions and matchFields, all ANDed. */
typedef struct sl_selector_term {
	const sl_requirement *exprs;
	size_t n_exprs;
	const sl_requirement *fields;
	size_t n_fields;
} sl_selector_term;

/* What a pod asks for: nodeSelector pairs AND, when has_required, one of the terms
** (requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms). */
typedef struct sl_node_affinity {
	const sl_label *selector;
	size_t n_selector;
	bool has_required;
	const sl_selector_term *terms;
	size_t n_terms;
} sl_node_affinity;

/* True when r builds at scheduling time (labels.NewRequirement / the field selector): a valid
** operator, key a qualified name, value count right for the operator, Gt/Lt value a ParseInt
** integer, every value a valid label value. A term with a requirement that does not build never
** matches. On false, writes the scheduler's message into msg. is_field selects matchFields
** rules (In/NotIn with exactly one value; any key). */
bool sl_k8s_requirement_builds(const sl_requirement *r, bool is_field, char *msg, size_t msgsz);

/* Requirement.Matches for a requirement that builds (false for one that does not): In, NotIn
** (absent key matches), Exists, DoesNotExist, Gt/Lt (label present and a ParseInt int64). */
bool sl_k8s_requirement_matches(const sl_requirement *r, const sl_node_labels *node);

/* nodeSelectorTerm.match: an empty term, or one with a requirement that does not build, never
** matches; expressions and fields are ANDed (fields only when the node has a name). */
bool sl_k8s_term_matches(const sl_selector_term *t, const sl_node_labels *node);

/* RequiredNodeAffinity.Match: every nodeSelector pair equal, and (when has_required) at least
** one term matches; has_required with no usable term matches nothing. */
bool sl_k8s_node_affinity_matches(const sl_node_affinity *a, const sl_node_labels *node);

/* ValidateNodeSelectorRequirement for a matchExpressions entry: value counts per operator,
** "not a valid selector operator", the key as a label name, and (check_values, as current API
** servers do for new objects) each value as a label value. Writes up to max problems; returns
** the count (may exceed max). */
size_t sl_k8s_requirement_validate(const sl_requirement *r, bool check_values,
				   sl_k8s_problem *out, size_t max);

/* validateNodeFieldSelectorRequirement for a matchFields entry: In/NotIn with exactly one value,
** key metadata.name, the value a DNS-1123 subdomain (a node name). Same contract. */
size_t sl_k8s_field_requirement_validate(const sl_requirement *r, sl_k8s_problem *out, size_t max);

/* Canonical spelling when op equals a node selector operator (In, NotIn, Exists, DoesNotExist,
** Gt, Lt) ignoring ASCII case but is not already exact; NULL otherwise. Static string. */
const char *sl_k8s_selector_operator_fix(const char *s, size_t n);

/* Can any node (any label set with valid label values, any name) satisfy the nodeSelector pairs
** together with term t? False when they contradict: `k In [a]` and `k In [b]`, `k=v` and
** `k NotIn [v]`, `k Exists` and `k DoesNotExist`, `k Gt 5` and `k Lt 3`, In values all outside
** a Gt/Lt bound, a requirement that never builds (Gt "abc"), an empty term. On false writes a
** one-line explanation of the first contradiction into why ("k In [a] and k In [b] have no
** common value"). selector may be NULL when n_selector is 0. */
bool sl_k8s_term_satisfiable(const sl_label *selector, size_t n_selector,
			     const sl_selector_term *t, char *why, size_t whysz);

/* Can any node satisfy a whole node affinity: the nodeSelector alone, and when has_required at
** least one term with it? On false writes why (the reason of each term, "term 1: ...; term 2:
** ..." when there are several). */
bool sl_k8s_node_affinity_satisfiable(const sl_node_affinity *a, char *why, size_t whysz);

#endif
