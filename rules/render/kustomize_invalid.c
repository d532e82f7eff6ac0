/* SPDX-License-Identifier: Apache-2.0
** kustomize-invalid: a kustomization kustomize itself refuses to build, at the offending key.
** Produced by the builder (src/kustomize.c); this file is its documentation. */
#include "rule.h"

/** ## What it does
 * Reports a kustomization that `kustomize build` (and `kubectl kustomize`, `kubectl apply -k`)
 * refuses: a resource path that is neither a file nor a directory with a kustomization, a
 * strategic-merge patch that matches no resource, a JSON 6902 patch without a target or whose
 * path names nothing, a `replicas:` entry naming a kind kustomize cannot scale, a cycle of
 * kustomizations. The finding points at the offending entry; the kustomization is not linted
 * further (its files are linted as plain files).
 *
 * ## Why is this bad?
 * Nothing of it reaches the cluster: the build fails before `kubectl apply` sends anything.
 *
 * ## Example
 * ```yaml
 * resources:
 *   - ../../base
 * patches:
 *   - path: typo-in-name.yaml   # metadata.name: rerankr
 * ```
 * Use instead:
 * ```yaml
 * patches:
 *   - path: spot.yaml           # metadata.name: reranker
 * ```
 *
 * ## Fix safety
 * No fix: only the author knows which resource was meant.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kustomize, patches: https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/patches/
 */
SL_RULE(kustomize_invalid, .id = "kustomize-invalid", .category = "render",
	.summary = "A kustomization that kustomize itself refuses to build",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE);
