/* SPDX-License-Identifier: Apache-2.0
** unknown-rule-id: a suppression id that names no rule or category, reported at the id. Produced
** by the suppression step (src/lint/suppress.c); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports each id in a `# schedlint: ignore[...]` or `# schedlint: ignore-file[...]` comment,
 * and each id in a `schedlint.io/ignore` annotation, that names neither a rule nor a category
 * (nor `all`), at the id itself, with the closest rule id or category when one is close enough to
 * be what was meant (a few letters apart).
 *
 * ## Why is this bad?
 * A misspelt id suppresses nothing: the finding it was meant to silence is still reported, or,
 * worse, it is silenced by nothing and the comment misleads the next reader into thinking it is
 * handled. Before this rule such a comment looked like a stale suppression, and a fix that removed
 * "unused" suppressions would have deleted the comment and the author's intent with it.
 *
 * ## Example
 * ```yaml
 * spec:
 *   tolerations:   # schedlint: ignore[toleration-without-selectr] shared pool
 *     - key: dedicated
 *       operator: Exists
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   tolerations:   # schedlint: ignore[toleration-without-selector] shared pool
 *     - key: dedicated
 *       operator: Exists
 * ```
 *
 * ## Fix safety
 * No fix: only the author knows which rule was meant, and the closest id may not be it (writing
 * it would silence a finding nobody looked at). `unused-suppression`'s fix never removes an id
 * that names no rule either: the comment stays until a person corrects it.
 *
 * ## Options
 * None. `schedlint rules` lists the rule ids and categories a suppression may name.
 *
 * ## References
 * - ruff's unused-noqa (RUF100), which names the unknown codes of a `# noqa` apart from the
 *   unused ones: the model for reporting the id instead of dropping it
 */
SL_RULE(unknown_rule_id, .id = "unknown-rule-id", .category = "suppressions",
	.summary = "A suppression names no rule or category",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE);
