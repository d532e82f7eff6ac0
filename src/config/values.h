/* SPDX-License-Identifier: Apache-2.0
** config/values.h: the configuration's values as the library reads them without its layout
** (config.h has the layout, for the loading and the passes): accessors on the opaque sl_config,
** in the plain types of types.h. Rules read the config through these (rule.h); a cluster fact
** that the config is only one source of goes through cluster.h. */
#ifndef SL_CONFIG_VALUES_H
#define SL_CONFIG_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/config.h"
#include "config/types.h"
#include "util/arena.h"

/* "generic", "gke", "eks", "aks": the name cluster.provider gives p. */
const char *sl_config_provider_name(sl_provider p);

/* True when list l holds a string equal to s; false when s is NULL. */
bool sl_config_list_has(const sl_strlist *l, const char *s);

/* The settings of .schedlint.yaml's `cluster:` section, defaults filled in. A NULL cfg reads
** as no config at all: every list empty, nothing set, no priority critical. The lists and
** strings point into the config. */
/* cluster.spot-labels: "key=value" entries, or bare keys. */
const sl_strlist *sl_config_spot_labels(const sl_config *cfg);
/* The value of the i-th entry of cluster.spot-labels ("key=value", or a bare key: "") when that
** entry's key is key; NULL when it is not, or key is NULL. Several entries may share a key, so
** callers that need every spot value of a key iterate i over sl_config_spot_labels. */
const char *sl_config_spot_value(const sl_config *cfg, size_t i, const char *key);
/* True when some entry of cluster.spot-labels is key itself or starts with key followed by '='
** (so for a key without '=' exactly when sl_config_spot_value would find it); false for a NULL
** key. */
bool sl_config_is_spot_key(const sl_config *cfg, const char *key);
/* True when name is a GPU resource per the config's gpu-resources (trailing '*' = prefix). */
bool sl_config_is_gpu_resource(const sl_config *cfg, const char *name);
/* True when name is an accelerator: a GPU resource, or one of the config's
** accelerator-resources (TPU, Neuron, Gaudi... ; trailing '*' = prefix). */
bool sl_config_is_accelerator_resource(const sl_config *cfg, const char *name);
/* cluster.priority-classes: "name=value" entries for classes defined outside the linted files. */
const sl_strlist *sl_config_priority_classes(const sl_config *cfg);
/* cluster.critical-priority-classes: classes critical whatever their value. */
const sl_strlist *sl_config_critical_priority_classes(const sl_config *cfg);
/* cluster.critical-priority: the value from which a priority is critical (default 1000000). */
long long sl_config_critical_priority(const sl_config *cfg);
/* cluster.batch-kinds: the kinds that run batch work (default Job, CronJob and the training
** and batch kinds of model/: resolve.c). */
const sl_strlist *sl_config_batch_kinds(const sl_config *cfg);
/* cluster.toleration-comparison-operators: the cluster admits Lt and Gt tolerations. */
bool sl_config_toleration_comparison_operators(const sl_config *cfg);
/* cluster.kserve-version, as written; NULL when unset. */
const char *sl_config_kserve_version(const sl_config *cfg);
/* cluster.kserve-default-deployment-mode, as written; NULL when unset. */
const char *sl_config_kserve_default_mode(const sl_config *cfg);
/* cluster.node-pools: *n gets their count. */
const struct sl_node_pool *sl_config_node_pools(const sl_config *cfg, size_t *n);
/* "<config path>:<line>" for the config's key at line (".schedlint.yaml" when the config was
** not read from a file), an arena string: how a message names the setting it rests on. */
const char *sl_config_at(const sl_config *cfg, unsigned line, sl_arena *a);
/* sl_config_at, malloc'd (NULL when out of memory). */
char *sl_config_source(const sl_config *cfg, unsigned line);
/* sl_config_at for cluster.knative-features. */
const char *sl_config_knative_features_at(const sl_config *cfg, sl_arena *a);

#endif
