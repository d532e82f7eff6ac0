/* SPDX-License-Identifier: Apache-2.0
** template-not-rendered: a file that is a template of manifests, not a manifest, reported once
** at its first template marker. Produced by the engine when it parses a file (src/lint/engine.c,
** src/yaml/template.c); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports, once per file and as a notice, a YAML file that is a template rather than a
 * manifest: a Go template outside a Helm chart (an operator's asset folder, a test or benchmark
 * config, a chart's `files/`, `*.tmpl.yaml`), a Jinja template, a Terraform `templatefile`
 * (`%{ if }`, `${var}`), envsubst placeholders (`${REPLICAS:-1}`, `$IMAGE`) or
 * `{{HF_TOKEN}}`-style tokens. Nothing else is reported of such a file: not the YAML syntax
 * errors its markers make, not a schema-type or validity error on a placeholder, and its objects
 * are not among the project's facts. The notice points at the first marker, names the kind of
 * template and says how to lint what it renders (`envsubst < FILE | schedlint --stdin-filename
 * FILE -`, or the program that fills it piped into `schedlint --stdin-filename FILE -`).
 *
 * A file is a template on evidence only:
 * - a YAML syntax error at or next to a marker (`{{ }}`, `{% %}`, `%{ }`, `${ }`, `{NAME}`)
 *   on its line or the line before or after it (a quote left open to the end of the file, where
 *   it began); a marker further away, in a comment, or a bare
 *   `$NAME` (which cannot break YAML) excuses nothing, and a file with one syntax error away
 *   from every marker keeps that `yaml-syntax` error (the ones its markers made are dropped);
 *   next to a syntax error, an indented line that is only `...` (or `…`), a comment after it
 *   allowed, counts as a marker too: a documentation excerpt's elision ("the rest goes here"),
 *   reported as an "excerpt with an elision" (at column 0 `...` ends a YAML document, which is
 *   YAML, and is never one);
 * - a marker in a mapping key, in `apiVersion` or `kind`, or in a `metadata` name, namespace,
 *   generateName or label;
 * - in an object of a kind schedlint models, a whole value that is one placeholder
 *   (`replicas: ${REPLICAS}`, `cpu: "{{ .Values.cpu }}"`), or a marker where the API wants an
 *   integer, a boolean, a quantity or a collection.
 *
 * Never evidence: a marker in text something else reads — annotations, ConfigMap and Secret
 * data, a container's `command`, `args` and `env` (a shell's `$HOME`, `${VAR}`), scripts,
 * block scalars —, Kubernetes' own `$(VAR)`, `$$`, a regex's `${1}`, the values of an
 * LLMInferenceServiceConfig (KServe fills its Go templates when it reconciles), and the values
 * of kinds schedlint does not model (Argo's `{{inputs.parameters.x}}`, a PrometheusRule's
 * `{{ $labels.node }}` are read by their controllers). A placeholder in a file that is linted
 * anyway is unknown, never invalid: no rule judges it. The output of `helm template`
 * (`--helm-chart`) and a Kustomize build are never judged templates; a Helm chart's own
 * `templates/` are skipped and reported by `helm-chart-not-rendered`.
 *
 * ## Why is this bad?
 * Nothing is wrong with the template. What is deployed is what fills it, and only that can be
 * judged: linted as written, its placeholders become YAML syntax, type and quantity errors no one
 * would act on. The notice says the file was not linted, so nobody takes the silence for a pass.
 *
 * ## Example
 * ```yaml
 * # manifests/state-driver/0100_service_account.yaml (filled by the operator)
 * apiVersion: v1
 * kind: ServiceAccount
 * metadata:
 *   name: {{ .Driver.Name }}
 *   namespace: {{ .Runtime.Namespace }}
 * ```
 * Use instead:
 * ```yaml
 * # lint what it renders:
 * # <the program that fills it> | schedlint --stdin-filename manifests/state-driver/0100_service_account.yaml -
 * # or keep it out of the walk (.schedlint.yaml):
 * exclude: ["manifests/state-*"]
 * ```
 *
 * ## Fix safety
 * No fix: the template is not wrong, and a file with it is never fixed.
 *
 * ## Options
 * None. `# schedlint: ignore-file[template-not-rendered]` or `template-not-rendered: off`
 * silences the notice; the file is still not linted.
 *
 * ## References
 * - Go text/template actions: https://pkg.go.dev/text/template#hdr-Actions
 * - GNU gettext envsubst: https://www.gnu.org/software/gettext/manual/html_node/envsubst-Invocation.html
 * - Terraform templatefile and template directives: https://developer.hashicorp.com/terraform/language/expressions/strings#directives
 * - Kubernetes `$(VAR)` expansion in command and args: https://kubernetes.io/docs/tasks/inject-data-application/define-command-argument-container/#use-environment-variables-to-define-arguments
 */
SL_RULE(template_not_rendered, .id = "template-not-rendered", .category = "render",
	.summary = "A template of manifests, not a manifest: not linted until it is rendered",
	.severity = SL_SEV_INFO, .fix = SL_FIX_NONE,
	.notice = {"templated file not linted", "templated files not linted"});
