/* SPDX-License-Identifier: Apache-2.0
** duplicate-key: a mapping repeats a key. Produced by the parser (src/yaml_tree.c) when a
** mapping closes; this file is its documentation. */
#include "rule.h"

/** ## What it does
 * Reports the second (and every later) occurrence of a key in one mapping, at that occurrence,
 * naming where the first one stands.
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
 * No fix: which occurrence is right is the author's decision.
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
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE);
