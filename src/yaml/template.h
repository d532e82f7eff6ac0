/* SPDX-License-Identifier: Apache-2.0
** template.h: files that are templates of manifests, not manifests (spec/rules.md,
** template-not-rendered). A Go template outside a Helm chart ("{{ .Namespace }}": an operator's
** asset folder, a test or benchmark config, a chart's files/), a Jinja one ("{% if %}"), a
** Terraform templatefile ("%{ if }", "${var}"), envsubst placeholders ("${REPLICAS:-1}",
** "$IMAGE") and "{{HF_TOKEN}}"-style tokens are text for a program to fill: their YAML may not
** parse, their values are not values yet. This file finds the markers and says when they are
** evidence that a file is such a template; the engine then reports the file once, as a notice,
** and nothing else of it.
**
** What is evidence (and what is not, on purpose):
**   - a YAML syntax error at or next to a marker (its line, the line before, the line after;
**     a quote or a collection left open to the end of the file is judged where it began, by
**     the engine); a marker further away excuses nothing, and a bare "$NAME" never does (it
**     cannot break YAML), nor does a marker in a comment; next to a syntax error, an indented
**     line that is only "..." (or "…"), a comment after it allowed, is an excerpt's elision
**     (documentation: "metadata:\n  ...\n  annotations:"), something to fill in as well;
**   - a marker in a mapping key, in apiVersion or kind, in a metadata name, namespace,
**     generateName or label;
**   - in an object of a kind schedlint models, a whole value that is one placeholder
**     ("replicas: ${REPLICAS}", cpu: "{{ .CPU }}"), and the binder's typed fields (an integer,
**     a boolean, a quantity, a collection) holding a marker (model/bind.c);
** but never a marker inside what is text for something else to read: annotations, ConfigMap
** and Secret data, a container's command, args and env (a shell's "$HOME", "${VAR}"),
** scripts, block scalars; never Kubernetes' own "$(VAR)", "$$", a regex's "${1}"; never the
** values of an LLMInferenceServiceConfig (KServe fills its Go templates itself), nor the values
** of kinds schedlint does not model (Argo's "{{inputs.parameters.x}}", Prometheus's
** "{{ $labels.node }}" are read by their controllers). */
#ifndef SL_TEMPLATE_H
#define SL_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>
#include "util/arena.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"

typedef enum sl_template_family {
	SL_TEMPLATE_NONE,
	SL_TEMPLATE_GO,          /* {{ .Values.x }}, {{- if ... }}, {{ $v }} */
	SL_TEMPLATE_JINJA,       /* {% if x %}, {# ... #} (and the file's {{ x }}) */
	SL_TEMPLATE_TERRAFORM,   /* %{ if x }, ${var.x}, ${jsonencode(x)} */
	SL_TEMPLATE_ENVSUBST,    /* ${NAME}, ${NAME:-default}, $NAME */
	SL_TEMPLATE_TOKEN,       /* {{HF_TOKEN}}, {IMAGE_REGISTRY}, {{ graph_name }} */
	SL_TEMPLATE_ELISION,     /* an excerpt's "..." line: "the rest goes here" (near an error only) */
} sl_template_family;

/* A marker: bytes [start, end) of the text looked at, and its family. */
typedef struct sl_template_marker {
	size_t start, end;
	sl_template_family family;
} sl_template_marker;

/* The first marker in s[0..n), any family; false when there is none. */
bool sl_template_find(const char *s, size_t n, sl_template_marker *m);
/* True when s[0..n) holds a marker: a value that is not one yet, which no rule judges (the
** binder does not type it, the validity rules skip it): unknown, never invalid. */
bool sl_template_in_value(const char *s, size_t n);

/* Why a file is a template, for its notice. */
typedef struct sl_template_evidence {
	bool found;
	sl_template_marker m;    /* in the file's text */
	const char *why;         /* "the YAML syntax error at line 21 is next to it", "kind holds it" */
} sl_template_evidence;

/* The marker at or next to a YAML syntax problem at byte off of src (on its line, the line
** before or the line after; not in a comment; not a bare "$NAME"; an indented "..." line, an
** elision); false when there is none. */
bool sl_template_near(const sl_source *src, size_t off, sl_template_marker *m);
/* Evidence in a parsed document (root: its root node) that src is a template; modelled: its
** object is of a kind schedlint models (whole values count then), fills_own: of a kind whose
** values its controller fills (LLMInferenceServiceConfig: whole values do not). Sets *ev and
** returns true at the first one, in document order. why strings come from a (the file's). */
bool sl_template_in_doc(const sl_source *src, const sl_node *root, bool modelled, bool fills_own,
			sl_arena *a, sl_template_evidence *ev);
/* The notice's message and notes for a template shown by ev, at path: what family, how to lint
** what it renders. NULL when out of memory. */
const char *sl_template_message(const sl_source *src, const sl_template_evidence *ev,
				const char *path, sl_arena *a, const char **notes);

/* False when no marker can start in s[from..to): a superset of what any search for one finds
** in any part of it ("{{", "{%", "{#", "%{", "${", "$" and an upper-case letter, "{" and a word
** then "}"), eight bytes at a time. A text without one is no template. */
bool sl_template_may_hold(const char *s, size_t from, size_t to);

#endif
