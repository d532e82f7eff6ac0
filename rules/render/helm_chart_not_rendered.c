/* SPDX-License-Identifier: Apache-2.0
** helm-chart-not-rendered: a Helm chart whose templates are not linted as they are, at its
** Chart.yaml's name. Produced by the engine when it parses a Chart.yaml (src/helm.c); this file
** is its documentation. */
#include "rule.h"

/** ## What it does
 * Reports each Helm chart met in a walk (a directory with a `Chart.yaml` and a `templates/`
 * directory) once, at the chart's `name` in `Chart.yaml`. The files under `templates/` are Go
 * templates, not YAML: the walk skips them, and a template named on the command line is skipped
 * too, so no template ever gets a `yaml-syntax` error. The notice says how to lint what the
 * chart deploys: render it and map the findings back with `--helm-chart`. A vendored subchart
 * (`charts/<name>/`) is a chart of its own and gets its own notice.
 *
 * ## Why is this bad?
 * Nothing is wrong with the chart; what is deployed is what `helm template` renders, and only
 * that can be judged. `schedlint --helm-chart DIR -` reads the rendered stream, uses the
 * `# Source: <chart>/templates/<file>` comments Helm writes before every document, and reports
 * each finding at the template line that holds the offending key (or the nearest enclosing
 * literal key when template actions make the rest), with the rendered position in the notes.
 *
 * ## Example
 * ```yaml
 * # charts/reranker/Chart.yaml, beside charts/reranker/templates/
 * apiVersion: v2
 * name: reranker
 * version: 0.1.0
 * ```
 * Use instead:
 * ```yaml
 * # helm template charts/reranker | schedlint --helm-chart charts/reranker -
 * ```
 *
 * ## Fix safety
 * No fix: the chart is not wrong. Findings mapped back to templates offer no fix either (the
 * rendered text is not what a person edits). This is a notice, not a finding: never counted,
 * never failing a run (`--fail-on`), shown after the summary (docs/report-formats.md, "Notices").
 *
 * ## Options
 * None.
 *
 * ## References
 * - Helm, chart file structure: https://helm.sh/docs/topics/charts/#the-chart-file-structure
 * - `helm template`: https://helm.sh/docs/helm/helm_template/
 */
SL_RULE(helm_chart_not_rendered, .id = "helm-chart-not-rendered", .category = "render",
	.summary = "A Helm chart's templates are not linted unrendered: lint its rendered output",
	.severity = SL_SEV_INFO, .fix = SL_FIX_NONE,
	.notice = {"Helm chart not linted", "Helm charts not linted"});
