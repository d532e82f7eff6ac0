/* SPDX-License-Identifier: Apache-2.0
** index.h: the project index, the cross-file facts gathered in pass 1 over every linted file
** (design.md): objects by kind in path-then-document order, PriorityClasses, Knative feature
** flags from KnativeServing CRs and config-features ConfigMaps, ServingRuntimes, Seldon
** Servers. Linting a directory sees the facts of all its files; one file sees its own. */
#ifndef SL_INDEX_H
#define SL_INDEX_H

#include "config.h"
#include "model/model.h"

typedef enum sl_flag_state {
	SL_FLAG_UNKNOWN = 0,   /* nothing among the files or the config says */
	SL_FLAG_DISABLED,
	SL_FLAG_ENABLED,       /* "enabled" or "allowed": Knative copies the field either way */
} sl_flag_state;

/* Where a Knative flag's state was read from. */
typedef struct sl_flag_origin {
	const sl_object *obj;     /* the KnativeServing CR or config-features ConfigMap; NULL when
				     the state came from the config or is unknown */
	const sl_node *node;      /* the flag's value node, NULL when the flag is not set there */
	const sl_node *map;       /* the mapping that holds (or would hold) the flag */
	bool from_config;         /* the state came from .schedlint.yaml knative-features */
} sl_flag_origin;

typedef struct sl_index {
	const sl_object **by_kind[SL_KIND__COUNT];   /* objects of each kind, in order */
	size_t n_by_kind[SL_KIND__COUNT];
	const sl_config *cfg;
} sl_index;

void sl_index_init(sl_index *ix, const sl_config *cfg);
/* Adds o (objects must be added in path, then document order). SL_ENOMEM only. */
sl_err sl_index_add(sl_index *ix, const sl_object *o);
void sl_index_free(sl_index *ix);

/* Objects of kind k: *n gets the count. */
const sl_object *const *sl_index_objects(const sl_index *ix, sl_kind k, size_t *n);
/* The first object of kind k named name (any namespace), or NULL. */
const sl_object *sl_index_find(const sl_index *ix, sl_kind k, const char *name);
/* The state of Knative flag `flag` ("kubernetes.podspec-nodeselector"): a KnativeServing CR's
** spec.config.features wins, then a config-features ConfigMap in knative-serving, then the
** config's knative-features (short names); origin (may be NULL) says where it came from. */
sl_flag_state sl_index_knative_flag(const sl_index *ix, const char *flag, sl_flag_origin *origin);
/* A PriorityClass value by name: built-in system classes, classes among the linted files, then
** the config's priority-classes. True when known; *value set. */
bool sl_index_priority_value(const sl_index *ix, const char *name, long long *value);

#endif
