/* SPDX-License-Identifier: Apache-2.0
** kustomize.h (private): Kustomize. What a kustomization uses as patches: partial objects,
** never linted on their own. */
#ifndef SL_KUSTOMIZE_H
#define SL_KUSTOMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/error.h"

/* True when path names a kustomization file (kustomization.yaml, kustomization.yml or
** Kustomization, in any directory). */
bool sl_kustomize_is_file(const char *path);
/* The real paths of the files the kustomization at path uses as patches (`patches:` entries
** with a path, `patchesStrategicMerge` file names, `patchesJson6902` paths), appended to *v
** (malloc'd strings; *n of them, *cap its room). A kustomization that cannot be read or parsed,
** and a patch file that does not exist, add nothing. SL_ENOMEM only. */
sl_err sl_kustomize_patch_files(const char *path, char ***v, size_t *n, size_t *cap);

#endif
