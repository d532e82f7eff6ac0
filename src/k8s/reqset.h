/* SPDX-License-Identifier: Apache-2.0
** reqset.h: the set of label values a node selector requirement allows, as Karpenter represents
** it (kubernetes-sigs/karpenter pkg/scheduling/requirement.go): a set of values or its
** complement, with Gt/Lt bounds; intersection, emptiness (Len() == 0) and the operator it reads
** as. Pure: no allocation, the values are borrowed views. */
#ifndef SL_K8S_REQSET_H
#define SL_K8S_REQSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "k8s/affinity.h"

#define SL_K8S_REQSET_MAX 32   /* values kept; a set with more allows anything (overflow) */

typedef struct sl_k8s_reqset {
	bool complement;          /* the values are the ones NOT allowed */
	bool has_gt, has_lt;      /* Gt / Lt bounds (only on a complement set) */
	int64_t gt, lt;
	bool overflow;            /* more values than kept: read as allowing anything */
	size_t n;
	sl_k8s_str v[SL_K8S_REQSET_MAX];
} sl_k8s_reqset;

/* NewRequirement: In {values}, NotIn complement {values}, Exists complement {}, DoesNotExist {},
** Gt/Lt complement {} with the bound (a value that is no integer reads as 0, as Go's Atoi
** error is ignored there); any other operator reads as Exists. */
void sl_k8s_reqset_from(const sl_requirement *r, sl_k8s_reqset *out);
/* Requirement.Intersection: bounds max/min (gt >= lt: DoesNotExist), values by union,
** difference or intersection, filtered by the bounds; concrete sets drop their bounds. out may
** alias neither a nor b. */
void sl_k8s_reqset_intersect(const sl_k8s_reqset *a, const sl_k8s_reqset *b, sl_k8s_reqset *out);
/* Len() == 0: no value allowed (a concrete empty set). */
bool sl_k8s_reqset_empty(const sl_k8s_reqset *s);
/* True when value v is allowed (Has). */
bool sl_k8s_reqset_has(const sl_k8s_reqset *s, const char *v);
/* Operator(): NotIn or Exists for a complement (with or without values), In or DoesNotExist. */
const char *sl_k8s_reqset_operator(const sl_k8s_reqset *s);
/* The label key Karpenter reads key as (pkg/apis/v1/labels.go NormalizedLabels):
** failure-domain.beta.kubernetes.io/zone and /region, beta.kubernetes.io/arch, /os and
** /instance-type become topology.kubernetes.io/zone and /region, kubernetes.io/arch and /os,
** node.kubernetes.io/instance-type; and, as karpenter-provider-aws adds (pkg/operator
** operator.go, init), topology.ebs.csi.aws.com/zone is topology.kubernetes.io/zone; any other
** key is itself. */
sl_k8s_str sl_k8s_reqset_normalized_key(sl_k8s_str key);
/* Karpenter's Intersects for one key: false when existing ∩ incoming is empty, unless both read
** as NotIn or DoesNotExist. */
bool sl_k8s_reqset_intersects(const sl_k8s_reqset *existing, const sl_k8s_reqset *incoming);
/* Writes the set as Karpenter's String() does ("k In [a b]", "k Exists", "k DoesNotExist",
** "k NotIn [a]", "k Exists >5 <10"), snprintf contract. */
size_t sl_k8s_reqset_format(const sl_k8s_reqset *s, sl_k8s_str key, char *buf, size_t bufsz);

#endif
