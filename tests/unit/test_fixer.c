/* SPDX-License-Identifier: Apache-2.0
** test_fixer.c: the fix rounds (src/driver/fixer.c). An edit points at the file it changes, also when
** a finding of one file fixes another (a Knative Service's flag, set in config-features); the
** rounds apply it to that file only and settle; a file with a YAML syntax error takes no edit. */
#include <criterion/criterion.h>
#include <string.h>
#include "driver/fixer.h"

static const char FEATURES[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
	"  namespace: knative-serving\ndata:\n  kubernetes.podspec-nodeselector: \"Disabled\"\n";
static const char SERVICE[] =
	"apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: ocr\nspec:\n"
	"  template:\n    spec:\n      nodeSelector:\n        pool: cpu\n      containers:\n"
	"        - image: ocr:1\n";
static const char BROKEN_FEATURES[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
	"  namespace: knative-serving\ndata:\n  kubernetes.podspec-nodeselector: \"Disabled\"\n"
	"  other: [unclosed\n";

static sl_config *cfg;

static sl_file *add_buffer(sl_passes *p, const char *path, const char *text)
{
	sl_file *f = sl_passes_new_file(p, path);
	cr_assert_not_null(f);
	cr_assert_eq(sl_source_from_buffer(path, text, strlen(text), &f->src), SL_OK);
	f->src->owner = f;
	return f;
}

/* A whole run over config-features (features) and a Service, linted. */
static void lint(sl_passes *p, const char *features, sl_file **cm, sl_file **svc)
{
	memset(p, 0, sizeof *p);
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .jobs = 1};
	cr_assert_eq(sl_passes_init(p, cfg, &o, NULL), SL_OK);
	*cm = add_buffer(p, "a-features.yaml", features);
	*svc = add_buffer(p, "b-service.yaml", SERVICE);
	cr_assert_eq(sl_passes_lint(p), SL_OK);
}

/* The Service's knative-feature-flag-required finding, or NULL. */
static const sl_frec *flag_finding(const sl_passes *p)
{
	for (size_t i = 0; i < p->n_sorted; i++) {
		const sl_finding *fd = &p->sorted[i]->pub;
		if (!strcmp(fd->path, "b-service.yaml") && !strcmp(fd->rule, "knative-feature-flag-required"))
			return p->sorted[i];
	}
	return NULL;
}

/* The Service's knative-feature-flag-required finding's fix, or NULL. */
static const sl_fix *flag_fix(const sl_passes *p)
{
	const sl_frec *r = flag_finding(p);
	return r ? r->pub.fix : NULL;
}

Test(fixer, an_edit_points_at_the_other_file_it_fixes)
{
	sl_passes p;
	sl_file *cm, *svc;
	lint(&p, FEATURES, &cm, &svc);
	const sl_fix *fx = flag_fix(&p);
	cr_assert_not_null(fx, "the Service's flag finding offers a fix");
	cr_assert_eq(fx->n_edits, 1);
	cr_expect_eq(flag_finding(&p)->edit_files[0], cm, "the edit points at config-features");
	cr_expect_eq(cm->index, 0);
	cr_expect_eq(svc->index, 1);
	size_t applied = 0;
	bool converged = false;
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true};
	cr_assert_eq(sl_fixer_fix(&p, &fo, &applied, &converged), SL_OK);
	cr_expect(converged);
	cr_expect_geq(applied, 1);
	cr_assert_not_null(cm->orig, "config-features was not changed");
	cr_expect(strstr(cm->src->data, "kubernetes.podspec-nodeselector: \"enabled\""),
		  "config-features now reads:\n%s", cm->src->data);
	cr_expect_null(svc->orig, "the Service's file was changed");
	cr_expect_null(flag_fix(&p), "the flag finding is gone after the fix");
	sl_passes_free(&p);
	sl_config_free(cfg);
}

Test(fixer, a_file_that_does_not_parse_takes_no_edit)
{
	sl_passes p;
	sl_file *cm, *svc;
	lint(&p, BROKEN_FEATURES, &cm, &svc);
	cr_assert(cm->broken);
	size_t applied = 1;
	bool converged = false;
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true};
	cr_assert_eq(sl_fixer_fix(&p, &fo, &applied, &converged), SL_OK);
	cr_expect(converged);
	cr_expect_null(cm->orig, "a broken file was edited");
	cr_expect_null(svc->orig);
	cr_expect_eq(applied, 0);
	sl_passes_free(&p);
	sl_config_free(cfg);
}
