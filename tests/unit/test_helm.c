/* SPDX-License-Identifier: Apache-2.0
** test_helm.c: Helm charts (src/render/helm.c): which files are templates (under templates/ beside a
** Chart.yaml), the notice on a chart's Chart.yaml, --helm-chart's refusal of a directory
** without one, and the remap of a `helm template` stream's findings to the template lines: by
** the "# Source:" comment of each document, the n-th document of a template with several, the
** line of the finding's key, else the nearest literal key above it (the rest made by template
** actions), else the document's first line; the rendered place in the notes, the fix dropped; a
** finding before any Source comment stays, a template that cannot be read is said. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lint/engine.h"
#include "lint/remap.h"
#include "render/helm.h"
#include "support.h"

static char root[256], chart[512];

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	sl_test_spit(p, text, strlen(text));
}

static void make_dir(const char *dir, const char *name)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
}

/* The template, as a chart writes it (line numbers on the right). */
static const char DEPLOY[] =
	"apiVersion: apps/v1\n"                                        /* 1 */
	"kind: Deployment\n"                                           /* 2 */
	"metadata:\n"                                                  /* 3 */
	"  name: {{ include \"inference.fullname\" . }}\n"            /* 4 */
	"  labels:\n"                                                  /* 5 */
	"    {{- include \"inference.labels\" . | nindent 4 }}\n"      /* 6 */
	"spec:\n"                                                      /* 7 */
	"  replicas: {{ .Values.replicas }}\n"                         /* 8 */
	"  template:\n"                                                /* 9 */
	"    spec:\n"                                                  /* 10 */
	"      {{- with .Values.nodeSelector }}\n"                     /* 11 */
	"      nodeSelector:\n"                                        /* 12 */
	"        {{- toYaml . | nindent 8 }}\n"                        /* 13 */
	"      {{- end }}\n"                                           /* 14 */
	"      containers:\n"                                          /* 15 */
	"        - name: server\n"                                     /* 16 */
	"          image: \"{{ .Values.image }}\"\n"                   /* 17 */
	"          resources:\n"                                       /* 18 */
	"            requests:\n"                                      /* 19 */
	"              nvidia.com/gpu: {{ .Values.gpus }}\n";          /* 20 */

/* Two documents; helm drops an empty one, so the n-th rendered is the n-th with content. */
static const char SVC[] =
	"{{- if .Values.internal }}\n"                                 /* 1 */
	"---\n"                                                        /* 2 */
	"{{- end }}\n"                                                 /* 3 */
	"---\n"                                                        /* 4 */
	"apiVersion: v1\n"                                             /* 5 */
	"kind: Service\n"                                              /* 6 */
	"metadata: {name: a}\n"                                        /* 7 */
	"---\n"                                                        /* 8 */
	"apiVersion: v1\n"                                             /* 9 */
	"kind: Pod\n"                                                  /* 10 */
	"spec:\n"                                                      /* 11 */
	"  nodeSelector:\n"                                            /* 12 */
	"    {{ .Values.key }}: \"true\"\n";                           /* 13 */

/* What `helm template rel chart` prints for them (the chart is named inference). */
static const char RENDERED[] =
	"# a stream may start with text no template made\n"
	"apiVersion: v1\n"
	"kind: ConfigMap\n"
	"metadata: {name: before}\n"
	"---\n"
	"# Source: inference/templates/deploy.yaml\n"
	"apiVersion: apps/v1\n"
	"kind: Deployment\n"
	"metadata:\n"
	"  name: rel-inference\n"
	"  labels:\n"
	"    app: inference\n"
	"spec:\n"
	"  replicas: 2\n"
	"  template:\n"
	"    spec:\n"
	"      nodeSelector:\n"
	"        gpu: true\n"
	"      containers:\n"
	"        - name: server\n"
	"          image: \"vllm:1\"\n"
	"          resources:\n"
	"            requests:\n"
	"              nvidia.com/gpu: 1\n"
	"---\n"
	"# Source: inference/templates/svc.yaml\n"
	"apiVersion: v1\n"
	"kind: Service\n"
	"metadata: {name: a}\n"
	"---\n"
	"# Source: inference/templates/svc.yaml\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"spec:\n"
	"  nodeSelector:\n"
	"    zone: \"true\"\n"
	"---\n"
	"# Source: inference/templates/gone.yaml\n"
	"kind: Pod\n";

static void setup(void)
{
	sl_test_scratch(root, sizeof root, "helm");
	snprintf(chart, sizeof chart, "%s/chart", root);
	make_dir(root, "chart");
	write_file(chart, "Chart.yaml", "apiVersion: v2\nname: inference\nversion: 0.1.0\n");
	make_dir(chart, "templates");
	write_file(chart, "templates/deploy.yaml", DEPLOY);
	write_file(chart, "templates/svc.yaml", SVC);
}

static void teardown(void)
{
	sl_test_rm_rf(root);
}

TestSuite(helm, .init = setup, .fini = teardown);

/* The chart directory (real, relative to root) whose template rel is; "" for none. */
static const char *chart_of(const char *rel)
{
	static char out[1024];
	char p[1024], real_root[1024];
	snprintf(p, sizeof p, "%s/%s", root, rel);
	cr_assert_not_null(realpath(root, real_root));
	char *c = sl_helm_template_chart(p);
	snprintf(out, sizeof out, "%s", c ? c + strlen(real_root) + 1 : "");
	free(c);
	return out;
}

Test(helm, templates_are_the_files_under_a_charts_templates)
{
	make_dir(root, "plain");
	make_dir(root, "plain/templates");
	write_file(root, "plain/templates/x.yaml", "a: 1\n");
	make_dir(chart, "charts");
	make_dir(chart, "charts/sub");
	write_file(chart, "charts/sub/Chart.yaml", "apiVersion: v2\nname: sub\nversion: 1.0.0\n");
	make_dir(chart, "charts/sub/templates");
	write_file(chart, "charts/sub/templates/y.yaml", "a: 1\n");
	make_dir(chart, "templates/sub");
	make_dir(chart, "templates/sub/dir");
	write_file(chart, "templates/sub/dir/x.yaml", "a: 1\n");
	make_dir(chart, "mytemplates");
	write_file(chart, "mytemplates/x.yaml", "a: 1\n");
	write_file(chart, "values.yaml", "a: 1\n");
	cr_expect_str_eq(chart_of("chart/templates/deploy.yaml"), "chart");
	cr_expect_str_eq(chart_of("chart/templates/sub/dir/x.yaml"), "chart", "any depth below templates/");
	cr_expect_str_eq(chart_of("chart/templates"), "chart", "templates/ itself");
	cr_expect_str_eq(chart_of("chart/templates/sub"), "chart");
	cr_expect_str_eq(chart_of("chart/charts/sub/templates/y.yaml"), "chart/charts/sub", "a subchart's");
	cr_expect_str_eq(chart_of("plain/templates/x.yaml"), "", "no Chart.yaml beside it");
	cr_expect_str_eq(chart_of("chart/mytemplates/x.yaml"), "", "a segment named templates only");
	cr_expect_str_eq(chart_of("chart/values.yaml"), "");
	cr_expect_str_eq(chart_of("chart/Chart.yaml"), "");
	cr_expect_str_eq(chart_of("chart"), "");
	cr_expect_str_eq(chart_of("chart/templates/nope.yaml"), "", "no such file");
	/* spelled from inside templates/: "." and a bare name are templates too */
	char here[4096], in[1100];
	cr_assert_not_null(getcwd(here, sizeof here));
	snprintf(in, sizeof in, "%s/templates/sub", chart);
	cr_assert_eq(chdir(in), 0);
	char *a = sl_helm_template_chart("."), *b = sl_helm_template_chart("dir/x.yaml");
	cr_assert_eq(chdir(here), 0);
	cr_expect(a && b && strcmp(a, b) == 0 && strstr(a, "/chart") && !strstr(a, "templates"));
	free(a);
	free(b);
}

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_assert_fail("the fixture must be valid YAML: %s", message);
}

static const char *last_note;

static const sl_node *notice(const char *path, const char *text, const char **msg, sl_arena *a,
			     sl_source **src, sl_tree *t)
{
	cr_assert_eq(sl_source_from_buffer(path, text, strlen(text), src), SL_OK);
	cr_assert_eq(sl_tree_parse(*src, a, t, on_tree_issue, NULL), SL_OK);
	return sl_helm_chart_notice(path, t, a, msg, &last_note);
}

Test(helm, the_notice_on_a_charts_chart_yaml)
{
	char path[1024], want[2048];
	snprintf(path, sizeof path, "%s/Chart.yaml", chart);
	sl_arena *a = sl_arena_new();
	sl_source *src;
	sl_tree t;
	const char *msg;
	const sl_node *at = notice(path, "apiVersion: v2\nname: inference\nversion: 0.1.0\n", &msg,
				   a, &src, &t);
	cr_assert_not_null(at);
	cr_expect_str_eq(sl_scalar(at), "inference", "at the chart's name");
	cr_expect_str_eq(msg, "Helm chart inference: its templates are Go templates, not YAML, "
			 "and are not linted");
	snprintf(want, sizeof want, "Lint what it renders: helm template %s | schedlint "
		 "--helm-chart %s -", chart, chart);
	cr_expect_str_eq(last_note, want, "the way out, in the note");
	sl_source_free(src);
	/* no name: at the document's root */
	at = notice(path, "apiVersion: v2\nversion: 0.1.0\n", &msg, a, &src, &t);
	cr_assert_not_null(at);
	cr_expect_eq(at, t.docs[0]->root);
	cr_expect(strstr(msg, "Helm chart (unnamed): "), "%s", msg);
	sl_source_free(src);
	/* a Chart.yaml without templates/ (a library chart's dependencies only), another file */
	make_dir(root, "bare");
	snprintf(path, sizeof path, "%s/bare/Chart.yaml", root);
	cr_expect_null(notice(path, "name: bare\n", &msg, a, &src, &t));
	cr_expect_null(msg);
	sl_source_free(src);
	snprintf(path, sizeof path, "%s/values.yaml", chart);
	cr_expect_null(notice(path, "name: x\n", &msg, a, &src, &t));
	sl_source_free(src);
	sl_arena_free(a);
}

Test(helm, a_directory_without_chart_yaml_is_refused)
{
	sl_helm *h = NULL;
	char *err = NULL;
	cr_expect_eq(sl_helm_new(root, &h, &err), SL_EUSAGE);
	cr_expect_null(h);
	cr_assert_not_null(err);
	char want[1024];
	snprintf(want, sizeof want, "--helm-chart %s: no Chart.yaml in that directory (give the "
		 "chart's directory, the one helm template renders)", root);
	cr_expect_str_eq(err, want);
	free(err);
	char slashed[600];
	snprintf(slashed, sizeof slashed, "%s//", chart);
	cr_assert_eq(sl_helm_new(slashed, &h, &err), SL_OK, "trailing slashes are the same chart");
	sl_helm_free(h);
}

/* A finding of the rendered stream: at the first occurrence of `at` in it (the n-th when n > 0)
** with JSON pointer ptr, and a fix (which the remap must drop). */
typedef struct rendered {
	sl_file f;
	sl_frec recs[8];
	sl_frec *ptrs[8];
	sl_fix fix;
} rendered;

static void add(rendered *r, const char *at, int nth, const char *ptr)
{
	const char *p = r->f.src->data;
	for (int i = 0; i <= nth; i++) {
		p = strstr(i ? p + 1 : p, at);
		cr_assert_not_null(p, "%s is not in the rendered stream", at);
	}
	sl_frec *rec = &r->recs[r->f.n_findings];
	r->ptrs[r->f.n_findings++] = rec;
	rec->pub = (sl_finding){.rule = "schema-type", .path = "rendered.yaml",
				.offset = (size_t)(p - r->f.src->data), .length = strlen(at),
				.pointer = ptr, .document = -1, .fix = &r->fix};
	sl_source_position(r->f.src, rec->pub.offset, &rec->pub.line, &rec->pub.column);
}

Test(helm, findings_move_to_the_template_lines)
{
	rendered r = {0};
	cr_assert_eq(sl_source_from_buffer("rendered.yaml", RENDERED, strlen(RENDERED), &r.f.src),
		     SL_OK);
	r.f.arena = sl_arena_new();
	r.f.findings = r.ptrs;
	add(&r, "nvidia.com/gpu: 1", 0, "/spec/template/spec/containers/0/resources/requests/nvidia.com~1gpu");
	add(&r, "gpu: true", 0, "/spec/template/spec/nodeSelector/gpu");
	add(&r, "app: inference", 0, "/metadata/labels/app");
	add(&r, "metadata: {name: before}", 0, "/metadata");
	add(&r, "metadata: {name: a}", 0, "/metadata/name");
	add(&r, "zone: \"true\"", 0, "/spec/nodeSelector/zone");
	add(&r, "kind: Pod", 1, "/kind");
	sl_helm *h = NULL;
	cr_assert_eq(sl_helm_new(chart, &h, NULL), SL_OK);
	cr_assert_eq(sl_remap_helm(h, &r.f), SL_OK);   /* lint/remap.c: the file's findings through sl_helm_remap */
	char deploy[1024], svc[1024];
	snprintf(deploy, sizeof deploy, "%s/templates/deploy.yaml", chart);
	snprintf(svc, sizeof svc, "%s/templates/svc.yaml", chart);
	const sl_finding *f = &r.recs[0].pub;
	/* the line of the key, from its first character to the end of the line */
	cr_expect_str_eq(f->path, deploy);
	cr_expect_eq(f->line, 20);
	cr_expect_eq(f->column, 15);
	cr_expect_eq(f->end_line, 20);
	cr_expect_eq(f->length, strlen("nvidia.com/gpu: {{ .Values.gpus }}"));
	cr_expect_null(f->fix, "the rendered text is not what a person edits");
	cr_expect_str_eq(f->notes, "rendered at rendered.yaml:24:15 (# Source: "
			 "inference/templates/deploy.yaml); this finding points at the line of that "
			 "key in the template");
	/* below a key whose content toYaml makes: that key's line */
	f = &r.recs[1].pub;
	cr_expect_str_eq(f->path, deploy);
	cr_expect_eq(f->line, 12);
	cr_expect_eq(f->column, 7);
	cr_expect(strstr(f->notes, "the nearest literal key above it (the rest is made by template "
			 "actions)"), "%s", f->notes);
	/* labels an include makes */
	f = &r.recs[2].pub;
	cr_expect_eq(f->line, 5);
	cr_expect_eq(f->column, 3);
	/* before any Source comment: not from a template, left alone */
	f = &r.recs[3].pub;
	cr_expect_str_eq(f->path, "rendered.yaml");
	cr_expect_eq(f->line, 4);
	cr_expect_null(f->notes);
	cr_expect_not_null(f->fix);
	/* the first and second documents of svc.yaml (the one its if leaves empty does not count) */
	f = &r.recs[4].pub;
	cr_expect_str_eq(f->path, svc);
	cr_expect_eq(f->line, 7);
	f = &r.recs[5].pub;
	cr_expect_str_eq(f->path, svc);
	cr_expect_eq(f->line, 12, "the key is made by an action: nodeSelector's line");
	/* a template that cannot be read: said, and the finding stays where it was rendered */
	f = &r.recs[6].pub;
	cr_expect_str_eq(f->path, "rendered.yaml");
	cr_expect(f->notes && strstr(f->notes, "/templates/gone.yaml this document came from "
				     "(# Source: inference/templates/gone.yaml) cannot be read"),
		  "%s", f->notes);
	sl_helm_free(h);
	sl_arena_free(r.f.arena);
	sl_source_free(r.f.src);
}

/* A Source name that leaves the chart (a ".." or empty segment, an absolute path) or a template
** symlinked out of it: never opened, the finding stays where it was rendered, the note says so;
** a long name is cut in the note. */
Test(helm, nothing_outside_the_chart_is_read)
{
	write_file(root, "secret.yaml", "kind: Pod\n");
	char link[1024], text[4096];
	snprintf(link, sizeof link, "%s/templates/link.yaml", chart);
	cr_assert_eq(symlink("../../secret.yaml", link), 0);
	char longname[1200];
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = '\0';
	snprintf(text, sizeof text, "---\n# Source: inference/../secret.yaml\nkind: Pod\n"
		 "---\n# Source: inference/%s/secret.yaml\nkind: Pod\n"
		 "---\n# Source: inference/templates/link.yaml\nkind: Pod\n"
		 "---\n# Source: inference/templates/%s\nkind: Pod\n", root, longname);
	rendered r = {0};
	cr_assert_eq(sl_source_from_buffer("rendered.yaml", text, strlen(text), &r.f.src), SL_OK);
	r.f.arena = sl_arena_new();
	r.f.findings = r.ptrs;
	for (int i = 0; i < 4; i++)
		add(&r, "kind: Pod", i, "/kind");
	sl_helm *h = NULL;
	cr_assert_eq(sl_helm_new(chart, &h, NULL), SL_OK);
	cr_assert_eq(sl_remap_helm(h, &r.f), SL_OK);
	for (int i = 0; i < 3; i++) {
		const sl_finding *f = &r.recs[i].pub;
		cr_expect_str_eq(f->path, "rendered.yaml");
		cr_expect(f->notes && strstr(f->notes, ") is outside the chart ") &&
			  strstr(f->notes, ": not read"), "%d: %s", i, f->notes);
	}
	const sl_finding *f = &r.recs[3].pub;
	cr_expect_str_eq(f->path, "rendered.yaml");
	cr_expect(f->notes && strstr(f->notes, "cannot be read") && strlen(f->notes) < 700 &&
		  strstr(f->notes, "x\u2026)"), "%s", f->notes);
	sl_helm_free(h);
	sl_arena_free(r.f.arena);
	sl_source_free(r.f.src);
}
