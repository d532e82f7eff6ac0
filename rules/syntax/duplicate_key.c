/* SPDX-License-Identifier: Apache-2.0
** duplicate-key: a mapping repeats a key, or two manifests run together without "---".
** Produced by the parser (src/yaml/yaml_tree.c) when a mapping closes, with the separator's fix;
** this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports the second (and every later) occurrence of a key in one mapping, at that occurrence,
 * naming where the first one stands.
 *
 * When a document's top-level mapping repeats both `apiVersion` and `kind` — two manifests run
 * together without a `---` between them, common in documentation blocks pasted into one file —
 * it reports that once, at the second `apiVersion`, saying a `---` separator is probably
 * missing, instead of one finding per repeated key (`apiVersion`, `kind`, `metadata`, `spec`
 * ...). Keys are then compared within each manifest only, as they will be once the separator
 * is in: a key a manifest repeats itself is still reported.
 *
 * ## Why is this bad?
 * The API server decodes manifests strictly and rejects duplicate fields
 * (`json: duplicate field`), while most other tools silently keep the last value, so the file
 * means different things to different readers. A second `nodeSelector:` that replaces the first
 * is a classic way to lose a GPU pin.
 *
 * ## Example
 * ```yaml
 * spec:
 *   nodeSelector:
 *     nvidia.com/gpu.present: "true"
 *   nodeSelector:
 *     pool: cpu
 * ```
 * Use instead: one `nodeSelector:` with both labels, or the one that was meant.
 *
 * ## Fix safety
 * No fix for a repeated key: which occurrence is right is the author's decision.
 *
 * Safe for the missing separator: a `---` line is inserted before the second manifest — at the
 * start of the line of its first key (`apiVersion` or `kind`), moved up over the comment lines
 * right above it (no deeper than the key), which describe the manifest below them. It keeps
 * the file's line endings. The second manifest then becomes a document of its own and is linted
 * on its own, so findings about its content may appear. They are not introduced by the fix:
 * that manifest was already in the file, and before the fix the API server rejected the whole
 * document (strict decoding) while every other reader kept only one of each key, so nothing
 * about it was checked. The fix changes nothing else: the property tests check that the split
 * documents hold exactly the pairs of the one they came from, in order. Not offered when a later
 * manifest names an anchor of an earlier one (`resources: *gpu`): the separator would leave its
 * alias undefined, a YAML error; the finding stays.
 *
 * ## Options
 * None.
 *
 * ## References
 * - Kubernetes strict field validation,
 *   https://kubernetes.io/docs/reference/using-api/api-concepts/#field-validation
 */
SL_RULE(duplicate_key, .id = "duplicate-key", .category = "syntax",
	.summary = "A mapping repeats a key",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE);
