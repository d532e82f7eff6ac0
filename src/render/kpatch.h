/* SPDX-License-Identifier: Apache-2.0
** kpatch.h (private): Kustomize's patches on knode trees: strategic merge (kubernetes/api's
** patch strategies and merge keys, for built-in kinds), JSON merge (custom resources: maps
** merge, lists replace) and JSON 6902 operations. A value a patch sets keeps the patch's origin. */
#ifndef SL_KPATCH_H
#define SL_KPATCH_H

#include "render/knode.h"

/* Applies patch (a map) to obj in place; strategic: kubernetes/api's list strategies (else JSON
** merge: lists replaced). The directive $patch (delete, replace; on a map, a list item or the
** whole object) is honoured on any kind, as kyaml's merge2 does; other "$..." keys
** ($setElementOrder/...) are fields, kept as kustomize keeps them. *deleted when the patch
** deletes the whole object ($patch: delete). false when out of memory. */
bool sl_kpatch_merge(sl_arena *a, sl_knode *obj, const sl_knode *patch, bool strategic,
		     bool *deleted);
/* Applies the JSON 6902 operations ops (a sequence of {op, path, value, from}) to obj as
** kustomize does (evanphx/json-patch v4): 0 when applied; 1 when kustomize refuses them, *why
** the library's error text as kubectl prints it (static or in a) and *at the operation it failed
** on; 2 when an operation would take obj past the parser's limits (yaml/yaml_tree.h: deeper than
** SL_MAX_DEPTH levels, more than SL_MAX_MERGED nodes), *why and *at saying so; -1 when out of
** memory. */
int sl_kpatch_json6902(sl_arena *a, sl_knode *obj, const sl_knode *ops, const char **why,
		       const sl_knode **at);

#endif
