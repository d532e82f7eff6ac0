/* SPDX-License-Identifier: Apache-2.0
** config/types.h: the plain types the configuration's settings are written in, which its
** layout (config.h) and its accessors (values.h) share. */
#ifndef SL_CONFIG_TYPES_H
#define SL_CONFIG_TYPES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sl_strlist {
	const char *const *v;   /* v[0..n) */
	size_t n;
} sl_strlist;

/* A cluster fact as the config states it (cluster.md §1): unset is unknown. */
typedef enum sl_tri { SL_TRI_UNKNOWN = 0, SL_TRI_NO, SL_TRI_YES } sl_tri;

/* cluster.provider: the presets of cluster.md §1. */
typedef enum sl_provider {
	SL_PROVIDER_GENERIC = 0, SL_PROVIDER_GKE, SL_PROVIDER_EKS, SL_PROVIDER_AKS
} sl_provider;
/* An entry of cluster.node-pools (cluster.md §2). */
struct sl_node_pool {
	const char *name;
	sl_strlist labels;       /* "key=value" */
	sl_strlist taints;       /* kubectl syntax "key[=value]:Effect" */
	sl_strlist capacity;     /* allocatable: (or its alias capacity:) "resource=quantity" */
	long nodes;              /* -1 when not declared; "2-10": the minimum */
	long max_nodes;          /* the maximum of "2-10", else nodes */
	sl_tri spot;             /* spot: as written; unset: unknown (derived from the labels) */
	unsigned line;           /* the entry's line (sl_config_at) */
};

#endif
