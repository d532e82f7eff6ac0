/* SPDX-License-Identifier: Apache-2.0
** k8s.h: types shared by the Kubernetes semantics core (src/k8s/): a borrowed string view and
** one validation problem as the API server words it. Everything in src/k8s/ is a pure function
** of its arguments: no YAML tree, no allocation the caller sees, safe from many threads at once.
** Inputs are (pointer, length) views that need not be NUL-terminated. */
#ifndef SL_K8S_H
#define SL_K8S_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A borrowed byte string; s may be NULL when n is 0 (an absent or empty field). */
typedef struct sl_k8s_str {
	const char *s;
	size_t n;
} sl_k8s_str;

/* Builds a view of a NUL-terminated string (NULL gives the empty view). */
sl_k8s_str sl_k8s_cstr(const char *s);
/* True when a and b hold the same bytes. */
bool sl_k8s_str_eq(sl_k8s_str a, sl_k8s_str b);
/* True when a holds exactly the bytes of the NUL-terminated lit. */
bool sl_k8s_str_is(sl_k8s_str a, const char *lit);
/* True when a is a placeholder that a tool fills in before the manifest reaches a cluster:
** it holds "${" or "{{" (envsubst, Terraform, Helm, Go templates), or starts with "$" and a
** letter or "_" ($VAR). */
bool sl_k8s_str_is_placeholder(sl_k8s_str a);

/* The field of an object a problem is about. */
typedef enum sl_k8s_field {
	SL_K8S_F_NONE = 0,
	SL_K8S_F_KEY,        /* key */
	SL_K8S_F_OPERATOR,   /* operator */
	SL_K8S_F_VALUE,      /* value (tolerations) */
	SL_K8S_F_VALUES,     /* values, or values[index] when index >= 0 */
	SL_K8S_F_EFFECT,     /* effect */
	SL_K8S_F_SECONDS     /* tolerationSeconds */
} sl_k8s_field;

#define SL_K8S_MSG_MAX 768

/* One problem. message is what the API server prints after the field path, for instance
** `Invalid value: "In": not a valid selector operator` or
** `Unsupported value: "In": supported values: "Equal", "Exists"`; it is NUL-terminated and
** truncated (never overflowed) when longer than SL_K8S_MSG_MAX - 1 bytes. */
typedef struct sl_k8s_problem {
	sl_k8s_field field;      /* the field whose YAML node is at fault */
	sl_k8s_field api_field;  /* the field the API server names in its path (may differ) */
	int index;               /* values[index] for SL_K8S_F_VALUES, else -1 */
	char message[SL_K8S_MSG_MAX];
} sl_k8s_problem;

/* Name of a field as it appears in a manifest ("key", "tolerationSeconds"); "" for NONE. */
const char *sl_k8s_field_name(sl_k8s_field f);

#endif
