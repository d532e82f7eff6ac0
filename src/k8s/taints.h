/* SPDX-License-Identifier: Apache-2.0
** taints.h: taints and tolerations as Kubernetes matches and validates them: core/v1
** Toleration.ToleratesTaint, the API server's ValidateTolerations, and kubectl's taint syntax
** (`key=value:Effect`, `key:Effect`). Strings are borrowed views; nothing is allocated. */
#ifndef SL_K8S_TAINTS_H
#define SL_K8S_TAINTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "k8s/k8s.h"

typedef struct sl_taint {
	sl_k8s_str key, value, effect;
} sl_taint;

typedef struct sl_toleration {
	sl_k8s_str key, op, value, effect;   /* op "" means Equal; effect "" means all effects */
	bool has_seconds;                    /* tolerationSeconds is set */
	int64_t seconds;
} sl_toleration;

/* core/v1 ToleratesTaint: effect (empty matches all), key (empty matches all), then the
** operator: ""/Equal need equal values, Exists matches any value, Lt/Gt compare canonical
** decimal int64 values (taint < toleration for Lt, taint > toleration for Gt) only when
** comparison_ops is true (feature gate TaintTolerationComparisonOperators), any other operator
** never matches. Note an empty key with Equal matches every key with that value, as upstream. */
bool sl_k8s_toleration_tolerates(const sl_toleration *t, const sl_taint *taint, bool comparison_ops);

/* ValidateTolerations for one toleration. Writes up to max problems to out (may be NULL when max
** is 0) in the API server's order and returns how many there are (may exceed max). With
** comparison_ops, Lt and Gt are accepted operators whose value must be a canonical integer
** (that message's wording is schedlint's: the indexed upstream predates Lt/Gt). Upstream
** quirks kept: a bad value with Equal, and a value with Exists, are reported on "operator"
** (api_field) though the fault is the value (field). At most 6 problems exist. */
size_t sl_k8s_toleration_validate(const sl_toleration *t, bool comparison_ops, sl_k8s_problem *out,
			      size_t max);

/* Parses kubectl's taint syntax for adding a taint, `key=value:Effect` or `key:Effect` (also
** `key=:Effect`). On success fills *out with views into s and returns true; otherwise writes
** kubectl's message ("invalid taint spec: foo", "invalid taint effect: x, unsupported taint
** effect", "invalid taint spec: k=v:NoSchedule, <label message>") into msg and returns false. */
bool sl_k8s_taint_parse(const char *s, size_t n, sl_taint *out, char *msg, size_t msgsz);

/* True for NoSchedule, PreferNoSchedule and NoExecute (exact case). */
bool sl_k8s_taint_effect_is_valid(const char *s, size_t n);

/* Case-mistake helpers for safe fixes: the canonical spelling when s equals a valid effect
** (NoSchedule, PreferNoSchedule, NoExecute) / toleration operator (Equal, Exists, and Lt, Gt
** when comparison_ops) ignoring ASCII case but is not already exact; NULL otherwise. Static. */
const char *sl_k8s_taint_effect_fix(const char *s, size_t n);
const char *sl_k8s_toleration_operator_fix(const char *s, size_t n, bool comparison_ops);

/* Writes a taint as core/v1 Taint.ToString does: key=value:effect, key:effect, key=value:, or
** key. snprintf contract: returns the full length, truncates to bufsz. */
size_t sl_k8s_taint_format(const sl_taint *t, char *buf, size_t bufsz);

#endif
