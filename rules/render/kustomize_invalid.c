/* SPDX-License-Identifier: Apache-2.0
** kustomize-invalid: a kustomization kustomize itself refuses to build, at the offending key.
** Produced by the builder (src/render/kustomize/); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a kustomization that `kustomize build` (and `kubectl kustomize`, `kubectl apply -k`)
 * refuses, and only one it refuses (kustomize v5 is the reference the tests compare with): a
 * resource, patch, component or generator file that does not exist, a directory without a
 * kustomization, a strategic-merge patch without a target that matches no resource or more than
 * one (matched by apiVersion, kind, name and namespace as written in a base or as any
 * transformer renamed them), a JSON 6902 patch without a target or whose operation fails (a
 * `remove` of a key the object lacks, a `test` whose value differs, any operation below a
 * missing key or past a list's end; a `replace` of a missing key adds it, as kustomize's JSON
 * patch library does), a
 * `replicas:` entry that names no Deployment, StatefulSet, ReplicaSet or ReplicationController, a
 * cycle of kustomizations; a kustomization kustomize's decoder refuses (a key no kustomization
 * field has, in any case — `nameprefix` is `namePrefix` to it —, a value of the wrong type such
 * as a number or a boolean where a label value belongs, a `kind` other than Kustomization or
 * Component, an empty kustomization; a key written twice is its last value); a name reference
 * that several renamed objects could answer ("found multiple possible referrals"); a Component
 * under `resources:` or a Kustomization under `components:`; a `patches:` entry with neither or
 * both of `path` and `patch`, or whose patch holds no document; a root's `sortOptions` other
 * than kustomize accepts; a generator that repeats a key, or creates an object whose id a
 * resource or another generator already has (`behavior: merge` or `replace` is the way); a
 * `namespace:` that makes two objects one; a RoleBinding's ServiceAccount subject with an empty
 * `namespace:`. A YAML syntax error in a resource file fails the build too: that is a
 * `yaml-syntax` finding in the file, at the error. The message is kustomize's own words with the failing path or id;
 * kustomize's whole error text is in the notes. The finding points at the offending entry (a
 * JSON 6902 failure: at the operation); the kustomization is not linted further (its files are
 * linted as plain files).
 *
 * A build also stops with this finding where it would cross the limits schedlint parses a file
 * within (a plain file that crosses one is a `yaml-syntax` finding), so that no repository can
 * make a run hang or exhaust the machine: a document of a resource, patch or kustomization whose
 * aliases and merge keys expand past 10 000 aliases, 1 000 000 nodes or 1 000 levels (a YAML
 * alias bomb: at the document); JSON 6902 operations or a replacement that would nest an object
 * deeper than 1 000 levels or grow it past 1 000 000 nodes (at the operation or the
 * replacement's target); a field spec whose path has more than 1 000 fields. kubectl may build
 * these, or exhaust the machine trying; no manifest written by hand comes near them.
 *
 * An input that is missing because git ignores it (a build step makes it; in a tree without
 * `.git`, because a `.gitignore` names it) and a file outside
 * the kustomization's directory (kustomize's default load restrictor) are `kustomize-unsupported`
 * instead: nothing is wrong with the kustomization.
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
 * - kustomize's PatchTransformer and resource ids: https://github.com/kubernetes-sigs/kustomize/blob/master/api/internal/builtins/PatchTransformer.go
 * - The JSON patch library kustomize applies (evanphx/json-patch v4): https://github.com/evanphx/json-patch/blob/master/patch.go
 */
SL_RULE(kustomize_invalid, .id = "kustomize-invalid", .category = "render",
	.summary = "A kustomization that kustomize itself refuses to build",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE);
