/* SPDX-License-Identifier: Apache-2.0
** symlink-outside-tree: a symbolic link, met in a directory walk, to a YAML file or a directory
** outside the directory walked: not followed, reported once at the link. Produced by the walk
** (src/fs/walk.c, through driver/run.c and lint/engine.c); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports, as a notice, each symbolic link a directory walk meets whose target, a `*.yaml` /
 * `*.yml` file or a directory, lies outside the directory walked (`schedlint check .`: outside
 * `.`). The link is not followed: its target is never opened, read, linted or fixed, and nothing
 * of it appears in any report. A link whose target stays inside the tree is linted as its
 * target is (under the link's name); a file or directory named on the command line is read
 * wherever it leads, since the caller named it.
 *
 * ## Why is this bad?
 * Nothing is wrong with the link. But CI and pre-commit lint repositories they do not trust: a
 * pull request could commit `leak.yaml -> /home/runner/.config/...` and, with a declared rule
 * whose message quotes `{value}`, make the job print another file's values into a public log.
 * The notice says what was not linted, so nobody takes the silence for a pass.
 *
 * ## Example
 * ```yaml
 * # deploy/shared.yaml -> ../../platform/shared.yaml (a link out of the repository)
 * ```
 * Use instead:
 * ```yaml
 * # lint the target where it lives, or name it: schedlint check deploy/shared.yaml
 * ```
 *
 * ## Fix safety
 * No fix: the link is not wrong. This is a notice, not a finding: never counted, never failing a
 * run (`--fail-on`), shown after the summary (docs/report-formats.md, "Notices").
 *
 * ## Options
 * None. `symlink-outside-tree: off` silences the notice; the link is still not followed.
 *
 * ## References
 * - ruff, which likewise skips what its walk should not reach: https://docs.astral.sh/ruff/settings/#respect-gitignore
 * - GitHub Actions workflow commands (what a log prints): https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions
 */
SL_RULE(symlink_outside_tree, .id = "symlink-outside-tree", .category = "render",
	.summary = "A symbolic link out of the directory linted: not followed",
	.severity = SL_SEV_INFO, .fix = SL_FIX_NONE,
	.notice = {"symbolic link out of the tree not followed",
		   "symbolic links out of the tree not followed"});
