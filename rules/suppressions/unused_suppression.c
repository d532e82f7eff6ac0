/* SPDX-License-Identifier: Apache-2.0
** unused-suppression: a suppression comment that suppressed nothing. Produced by the engine's
** suppression step (src/lint/suppress.c); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a `# schedlint: ignore[...]` or `# schedlint: ignore-file[...]` comment, or one rule id
 * in it, that suppressed no finding in this run. Ids of rules the run did not enable (turned off
 * in the config, or left out by `--select`) are not reported: they may suppress something in
 * another run. An id that names no rule or category is never removed: `unknown-rule-id` reports
 * it. A file that holds no YAML document (comments alone) is not checked.
 *
 * ## Why is this bad?
 * A stale suppression hides the next real problem on that line, and tells readers a problem is
 * there when it is not. The ids in a suppression are documentation; they should stay true.
 *
 * ## Example
 * ```yaml
 * spec:
 *   nodeSelector:   # schedlint: ignore[toleration-without-selector]
 *     pool: gpu
 * ```
 * Use instead: remove the comment, or move it to the line the finding points at.
 *
 * ## Fix safety
 * Safe, and it never deletes human-written text: the unused ids that name rules are removed and
 * the rest of the comment stays (its reason, the other ids); when no id is left, the directive
 * goes and its reason stays as a plain comment (`# schedlint: ignore[x] shared pool` becomes
 * `# shared pool`); a directive without a reason goes whole (with its line, when it stands
 * alone). An id that names no rule is never removed: a typo must not silently become "suppress
 * nothing and delete the comment". Nothing else in the file changes.
 *
 * ## Options
 * None. Suppressions (docs/usage.md, "Suppressions"): `# schedlint: ignore[id, ...] reason`
 * at the end of the line a finding points at or alone on the line above it,
 * `# schedlint: ignore-file[id, ...]` anywhere, bare `ignore`/`ignore-file` for every rule, and
 * the annotation `schedlint.io/ignore: "id,id"` on an object.
 *
 * ## References
 * - ruff's unused-noqa (RUF100), the model for this rule
 */
SL_RULE(unused_suppression, .id = "unused-suppression", .category = "suppressions",
	.summary = "A suppression comment suppressed nothing",
	.severity = SL_SEV_INFO, .fix = SL_FIX_SAFE);
