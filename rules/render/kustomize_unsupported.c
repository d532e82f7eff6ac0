/* SPDX-License-Identifier: Apache-2.0
** kustomize-unsupported: a kustomization schedlint does not build, at the key (or the overlay's
** resources entry for the base) that uses the feature. Produced by the builder (src/render/kustomize/);
** this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a kustomization that schedlint's built-in Kustomize builder does not build: it uses
 * remote resources (there is no network), `helmCharts`, generator, transformer and validator
 * plugins or `openapi`; an input it names is not in the checkout because git ignores it (a build
 * step makes it, as kueue's `dep-crds/`: kustomize cannot build it either until that step has
 * run; in a tree exported without `.git`, its `.gitignore` files are read for the same answer); or it loads a file from outside its own directory, which kustomize does only with
 * `--load-restrictor LoadRestrictionsNone` (set `render.kustomize.load-restrictor: none` to build
 * such overlays as that flag does); or it names a base, a component or (with `none`) a file
 * outside the repository (its git work tree, else the directory of its outermost
 * `.schedlint.yaml`): schedlint never reads one, whatever the load restrictor, so that a
 * repository's own configuration cannot grant it the files of the machine that lints it. The finding points at the offending key or entry; when an
 * overlay's base is the one that cannot be built for a missing feature, it points at the
 * overlay's `resources:` entry for that base. The kustomization is then not built: its own
 * resource files are linted as plain files, as they are written.
 *
 * `crds`, and the field specs a `configurations` file adds for `namePrefix`, `nameSuffix`,
 * `templateLabels`, `images` or `replicas` (its `nameReference`, `varReference`,
 * `commonLabels`, `commonAnnotations` and `namespace` are applied), are not applied either, but
 * they only
 * change fields of objects the build has: such a kustomization is still built and linted, and
 * the finding at the key (once per run, however many overlays share the base) says that findings
 * on the fields it sets may differ from what is deployed.
 *
 * ## Why is this bad?
 * Nothing is wrong with the kustomization. What is deployed is what the build gives, and this
 * one is linted only as its parts: a finding that exists only after an overlay is applied (a
 * critical reranker patched onto spot nodes) stays invisible. Render it with `kubectl
 * kustomize DIR | schedlint -` to see those.
 *
 * ## Example
 * ```yaml
 * resources:
 *   - https://github.com/kserve/kserve//config/default?ref=v0.15.0
 * ```
 * Use instead:
 * ```yaml
 * resources:
 *   - ../vendor/kserve/config/default
 * ```
 *
 * ## Fix safety
 * No fix. This is a notice, not a finding: never counted, never failing a run (`--fail-on`),
 * shown after the summary (docs/report-formats.md, "Notices").
 *
 * ## Options
 * `render.kustomize.load-restrictor` (`rootOnly`, the default, or `none`): whether a
 * kustomization may load files from outside its directory, as kubectl's `--load-restrictor`.
 *
 * ## References
 * - Kustomize, the kustomization file: https://kubectl.docs.kubernetes.io/references/kustomize/kustomization/
 */
SL_RULE(kustomize_unsupported, .id = "kustomize-unsupported", .category = "render",
	.summary = "A kustomization uses a feature schedlint does not build: its files are linted as plain files",
	.severity = SL_SEV_INFO, .fix = SL_FIX_NONE,
	.notice = {"kustomization not built as deployed", "kustomizations not built as deployed"});
