/* SPDX-License-Identifier: Apache-2.0
** helm.h (private): Helm charts. Their templates are Go templates, not YAML: recognised and never
** parsed; and `helm template` output, whose "# Source: <chart>/templates/<file>" comments say
** which template made each document, mapped back to the template lines (--helm-chart DIR). */
#ifndef SL_HELM_H
#define SL_HELM_H

#include <stdbool.h>
#include "schedlint/error.h"
#include "yaml/yaml_tree.h"

#include "schedlint/finding.h"
#include "yaml/source.h"

typedef struct sl_helm sl_helm;

/* The chart whose templates/ directory (beside a Chart.yaml) holds path: path is a template,
** which only `helm template` turns into YAML. The chart whose templates/ holds path, a file or a directory that exists, however path is
** spelled ("deployment.yaml" from inside templates/, "." there): the real path of the chart's
** directory (the innermost one: a subchart's), malloc'd; NULL when path is no template (or out
** of memory). */
char *sl_helm_template_chart(const char *path);
/* When path is a chart's Chart.yaml and the chart has a templates/ directory: the node the
** helm-chart-not-rendered notice points at (the chart's name, else the document's root), its
** message and its note (how to lint what the chart renders) in arena a; NULL otherwise (or out
** of memory: *message NULL too). */
const sl_node *sl_helm_chart_notice(const char *path, const sl_tree *t, sl_arena *a,
				    const char **message, const char **note);

/* The chart in directory dir, for mapping its rendered output back. SL_EUSAGE (with
** *error_out, malloc'd) when dir holds no Chart.yaml; SL_ENOMEM. */
sl_err sl_helm_new(const char *dir, sl_helm **out, char **error_out);
void sl_helm_free(sl_helm *h);
/* Moves the n findings v of rendered (a `helm template` stream) to the template each one's
** document came from: the path is the template's, the line the one that holds the finding's key
** path when it is literal text, else the nearest enclosing literal key, else the document's
** first line; the rendered position goes to the notes (made in arena a), and the fix is dropped
** (rendered text is not the source). Findings in a document without a "# Source:" comment stay
** where they are. SL_ENOMEM only. */
sl_err sl_helm_remap(sl_helm *h, const sl_source *rendered, sl_finding *const *v, size_t n,
		     sl_arena *a);

#endif
