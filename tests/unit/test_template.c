/* SPDX-License-Identifier: Apache-2.0
** test_template.c: template markers (src/yaml/template.c) — each family recognised, and the text
** that looks like one but is not (Kubernetes' $(VAR), $$, a regex's ${1}, a shell's ${x##y}, a
** flow mapping, a lower-case $var) —, a marker next to a syntax problem (its line and the lines
** around it, never a comment, never a bare $NAME), and the evidence in a parsed document. The
** engine's use of them (one notice, nothing else) is in the golden fixtures of
** template-not-rendered and yaml-syntax, and in test_api.c. */
#include <criterion/criterion.h>
#include <string.h>
#include "util/arena.h"
#include "yaml/source.h"
#include "yaml/template.h"
#include "yaml/yaml_tree.h"

static sl_template_family family_of(const char *s, size_t *start, size_t *end)
{
	sl_template_marker m;
	if (!sl_template_find(s, strlen(s), &m))
		return SL_TEMPLATE_NONE;
	*start = m.start;
	*end = m.end;
	return m.family;
}

Test(template, every_family_is_recognised_with_its_extent)
{
	static const struct {
		const char *text, *marker;
		sl_template_family family;
	} cases[] = {
		{"name: {{ .Values.name }}-x", "{{ .Values.name }}", SL_TEMPLATE_GO},
		{"{{- if .DRADriver.Spec.Enabled }}", "{{- if .DRADriver.Spec.Enabled }}", SL_TEMPLATE_GO},
		{"{{ include \"x.labels\" . | nindent 4 }}", "{{ include \"x.labels\" . | nindent 4 }}", SL_TEMPLATE_GO},
		{"{{ $k }}: {{ $v | quote }}", "{{ $k }}", SL_TEMPLATE_GO},
		{"{{- toYaml . | nindent 4 }}", "{{- toYaml . | nindent 4 }}", SL_TEMPLATE_GO},
		{"{{- if and", "{{- if and", SL_TEMPLATE_GO},   /* an action broken over lines */
		{"token: {{HF_TOKEN}}", "{{HF_TOKEN}}", SL_TEMPLATE_TOKEN},
		{"name: {{ graph_name }}", "{{ graph_name }}", SL_TEMPLATE_TOKEN},
		{"{IMAGE_REGISTRY}/spark:4", "{IMAGE_REGISTRY}", SL_TEMPLATE_TOKEN},
		{"image: {username}/torchserve:latest", "{username}", SL_TEMPLATE_TOKEN},
		{"{% if use_gpu %}", "{% if use_gpu %}", SL_TEMPLATE_JINJA},
		{"{# a comment #}", "{# a comment #}", SL_TEMPLATE_JINJA},
		{"%{ if gpu ~}", "%{ if gpu ~}", SL_TEMPLATE_TERRAFORM},
		{"values: ${jsonencode(families)}", "${jsonencode(families)}", SL_TEMPLATE_TERRAFORM},
		{"${var.cluster_name}", "${var.cluster_name}", SL_TEMPLATE_TERRAFORM},
		{"${ name }", "${ name }", SL_TEMPLATE_TERRAFORM},
		{"replicas: ${REPLICAS}", "${REPLICAS}", SL_TEMPLATE_ENVSUBST},
		{"replicas: ${REPLICAS:-1}", "${REPLICAS:-1}", SL_TEMPLATE_ENVSUBST},
		{"${REGION:=eu}", "${REGION:=eu}", SL_TEMPLATE_ENVSUBST},
		{"${cluster_env}", "${cluster_env}", SL_TEMPLATE_ENVSUBST},
		{"image: $IMAGE", "$IMAGE", SL_TEMPLATE_ENVSUBST},
		{"name: model-$SUFFIX.x", "$SUFFIX", SL_TEMPLATE_ENVSUBST},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		size_t s = 0, e = 0;
		sl_template_family f = family_of(cases[i].text, &s, &e);
		cr_expect_eq(f, cases[i].family, "%s: family %d, not %d", cases[i].text, f,
			     cases[i].family);
		cr_expect(e - s == strlen(cases[i].marker) &&
			  memcmp(cases[i].text + s, cases[i].marker, e - s) == 0,
			  "%s: the marker is \"%.*s\", not \"%s\"", cases[i].text, (int)(e - s),
			  cases[i].text + s, cases[i].marker);
		cr_expect(sl_template_in_value(cases[i].text, strlen(cases[i].text)), "%s", cases[i].text);
	}
}

Test(template, what_only_looks_like_a_marker_is_none)
{
	static const char *const none[] = {
		"args: [\"--pod=$(POD_NAME)\"]",        /* Kubernetes expands it */
		"echo $$HOME",                           /* escaped */
		"replacement: /api/v1/nodes/${1}/proxy", /* a regex's back-reference */
		"n=${1##*exit}",                         /* a shell's */
		"code=\"${f##*exit}\"",
		"pid_file=$pid_file",                    /* a lower-case shell variable */
		"resources: {}",
		"{a: 1}",
		"{A}/x",                                 /* one letter is no token */
		"cost $5",
		"$Foo is a word",
		"{{ 1, 2 ]",                             /* no action */
		"100%{",
	};
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		size_t s, e;
		cr_expect_eq(family_of(none[i], &s, &e), SL_TEMPLATE_NONE, "%s: a marker at %zu", none[i],
			     s);
	}
}

static sl_source *src_of(const char *text)
{
	sl_source *s = NULL;
	cr_assert_eq(sl_source_from_buffer("t.yaml", text, strlen(text), &s), SL_OK);
	cr_assert_eq(sl_source_index(s), SL_OK);
	return s;
}

/* The byte offset of the first character of line (1-based) of text. */
static size_t line_at(const char *text, unsigned line)
{
	const char *p = text;
	while (--line && (p = strchr(p, '\n')))
		p++;
	cr_assert_not_null(p);
	return (size_t)(p - text);
}

Test(template, a_marker_next_to_a_syntax_problem_but_not_further)
{
	const char *text = "a: 1\n"                       /* 1 */
			   "b: {{ .X }}\n"                 /* 2 */
			   "c: 3\n"                        /* 3 */
			   "d: 4\n"                        /* 4 */
			   "e: 5\n"                        /* 5 */
			   "# {{ .InAComment }}\n"         /* 6 */
			   "f: 6\n"                        /* 7 */
			   "g: echo $HOME\n"               /* 8 */
			   "h: 8\n";                       /* 9 */
	sl_source *s = src_of(text);
	sl_template_marker m;
	for (unsigned l = 1; l <= 3; l++)
		cr_expect(sl_template_near(s, line_at(text, l), &m), "line %u is next to line 2", l);
	cr_expect_eq(m.start, line_at(text, 2) + 3);
	cr_expect(!sl_template_near(s, line_at(text, 4), &m), "line 4 is two lines away");
	cr_expect(!sl_template_near(s, line_at(text, 7), &m), "a comment's marker excuses nothing");
	cr_expect(!sl_template_near(s, line_at(text, 9), &m), "a bare $NAME excuses nothing");
	sl_source_free(s);
}

/* The evidence in the first document of text, modelled or not. */
static bool evidence(const char *text, bool modelled, bool fills_own, const char **why)
{
	sl_source *s = src_of(text);
	sl_arena *a = sl_arena_new();
	sl_tree t;
	cr_assert_eq(sl_tree_parse(s, a, &t, NULL, NULL), SL_OK);
	cr_assert_geq(t.n_docs, 1);
	sl_template_evidence ev = {0};
	bool found = sl_template_in_doc(s, t.docs[0]->root, modelled, fills_own, a, &ev);
	cr_expect_eq(found, ev.found);
	static char buf[256];
	snprintf(buf, sizeof buf, "%s", found && ev.why ? ev.why : "");
	*why = buf;
	sl_arena_free(a);
	sl_source_free(s);
	return found;
}

Test(template, evidence_in_a_document)
{
	const char *why;
	cr_expect(evidence("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p-${SFX}\n", false, false, &why));
	cr_expect_str_eq(why, "metadata.name holds it");
	cr_expect(evidence("apiVersion: ${API}\nkind: X\n", false, false, &why));
	cr_expect_str_eq(why, "apiVersion holds it");
	cr_expect(evidence("kind: Pod\nspec:\n  nodeSelector:\n    ${KEY}: a\n", false, false, &why));
	cr_expect_str_eq(why, "a mapping key holds it");
	cr_expect(evidence("kind: Pod\nmetadata:\n  labels:\n    app: web-{{ .Env }}\n", false, false, &why));
	/* a whole value counts in a modelled kind only, and never in text another reads */
	const char *dep = "kind: Deployment\nspec:\n  replicas: ${REPLICAS}\n";
	cr_expect(evidence(dep, true, false, &why));
	cr_expect_str_eq(why, "the whole value at line 3 is a placeholder");
	cr_expect(!evidence(dep, false, false, &why), "an unmodelled kind's values are its controller's");
	cr_expect(!evidence(dep, true, true, &why), "an LLMInferenceServiceConfig's are KServe's");
	cr_expect(!evidence("kind: Pod\nspec:\n  containers:\n    - image: x\n      args: [\"${A}\"]\n"
			    "      env:\n        - {name: T, value: $T}\n", true, false, &why));
	cr_expect(!evidence("kind: ConfigMap\ndata:\n  x: ${Y}\nmetadata:\n  annotations:\n"
			    "    a: \"{{ .B }}\"\n", true, false, &why));
	cr_expect(!evidence("kind: Pod\nspec:\n  image: registry/app:${TAG}\n", true, false, &why),
		  "a placeholder inside a free string is unknown, not evidence");
}

/* The x-th string of len bytes of alpha (na of them) after pad plain bytes, into s: its
** length, and whether the search finds a marker in it (*m). */
static size_t marker_case(char *s, const char *alpha, size_t na, size_t len, size_t x, size_t pad,
			  sl_template_marker *m, bool *has)
{
	memset(s, 'x', pad);
	for (size_t i = 0; i < len; i++, x /= na)
		s[pad + i] = alpha[x % na];
	*has = sl_template_find(s, pad + len, m);
	return pad + len;
}

/* sl_template_may_hold, the prefilter of sl_template_in_doc: true wherever the search finds a
** marker (every string of up to 6 of the bytes markers are made of, and each placed after 0 to
** 17 plain bytes so that the sixteen-byte blocks meet it inside, across their end and after
** them; strings of up to 3 after 0 to 150, for the sixty-four-byte blocks, searched from 0 to 3
** bytes in); false on plain text and outside the range. */
Test(template, the_prefilter_misses_no_marker)
{
	static const char alpha[] = "{}$%#A_-a";
	const size_t na = sizeof alpha - 1;
	char s[160];
	size_t found = 0, found_far = 0;
	for (size_t len = 1; len <= 6; len++) {
		size_t total = 1;
		for (size_t i = 0; i < len; i++)
			total *= na;
		for (size_t x = 0; x < total; x++) {
			static const size_t pads[] = {0, 5, 10, 13, 17};
			for (size_t pi = 0; pi < sizeof pads / sizeof *pads; pi++) {
				sl_template_marker m;
				bool has;
				size_t n = marker_case(s, alpha, na, len, x, pads[pi], &m, &has);
				found += has;
				if (has)
					cr_assert(sl_template_may_hold(s, 0, n), "missed the marker in "
						  "\"%.*s\"", (int)n, s);
			}
			for (size_t pad = 0; len <= 3 && pad <= 150; pad++) {
				sl_template_marker m;
				bool has;
				size_t n = marker_case(s, alpha, na, len, x, pad, &m, &has);
				found_far += has;
				for (size_t from = 0; has && from <= 3 && from <= m.start; from++)
					cr_assert(sl_template_may_hold(s, from, n), "missed the marker in "
						  "\"%.*s\" from %zu", (int)n, s, from);
			}
		}
	}
	cr_expect_gt(found, 1000, "markers found: %zu", found);
	cr_expect_gt(found_far, 5000, "markers found: %zu", found_far);
	char far[300];
	memset(far, 'x', sizeof far);
	cr_expect(!sl_template_may_hold(far, 0, sizeof far));
	far[200] = '$';
	far[201] = '{';
	cr_expect(sl_template_may_hold(far, 0, sizeof far));
	cr_expect(!sl_template_may_hold(far, 0, 200), "the end of the range is the end");
	cr_expect(!sl_template_may_hold(far, 202, sizeof far), "and so is its start");
	const char plain[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {a: b}}\n"
			     "spec: {containers: [{name: c, args: [\"$(X)\", \"$$\", \"100%\"]}]}\n";
	cr_expect(!sl_template_may_hold(plain, 0, sizeof plain - 1));
}
