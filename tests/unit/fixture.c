/* SPDX-License-Identifier: Apache-2.0
** fixture.c: configs and bound manifests for the unit tests (fixture.h). */
#include <criterion/criterion.h>
#include <string.h>
#include <unistd.h>
#include "fixture.h"
#include "support.h"

sl_config *sl_test_config(const char *text, const char *what)
{
	sl_config *cfg = NULL;
	if (!text) {
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
		return cfg;
	}
	char path[256];
	int fd = sl_test_scratch_file(path, sizeof path, what, ".yaml");
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	char *err = NULL;
	sl_err e = sl_config_load(path, &cfg, &err);
	unlink(path);
	cr_assert_eq(e, SL_OK, "the config does not load: %s", err ? err : "");
	return cfg;
}

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_assert_fail("the fixture must be valid YAML: %s", message);
}

static void on_report(void *payload, const char *rule, const sl_node *at, const char *message,
		      int quote_fix)
{
	(void)payload; (void)rule; (void)at; (void)quote_fix;
	cr_assert_fail("the fixture must bind cleanly: %s", message);
}

void sl_test_objects_bind(sl_test_objects *o, const sl_config *cfg, const char *path,
			  const char *yaml)
{
	memset(o, 0, sizeof *o);
	cr_assert_eq(sl_source_from_buffer(path, yaml, strlen(yaml), &o->src), SL_OK);
	o->a = sl_arena_new();
	cr_assert_not_null(o->a);
	cr_assert_eq(sl_tree_parse(o->src, o->a, &o->t, on_tree_issue, o), SL_OK);
	sl_model_ctx mc = {.arena = o->a, .path = path, .issue = on_report, .payload = o,
			   .default_mode = sl_config_kserve_default_mode(cfg)};
	for (size_t i = 0; i < o->t.n_docs; i++) {
		sl_object *obj = NULL;
		cr_assert_eq(sl_object_bind(&mc, o->t.docs[i], &obj), SL_OK);
		if (!obj)
			continue;   /* an empty document (after a final "---") */
		cr_assert_lt(o->n, sizeof o->v / sizeof *o->v, "too many documents for the fixture");
		o->v[o->n++] = obj;
	}
}

void sl_test_objects_index(sl_test_objects *o, const sl_config *cfg)
{
	sl_index_init(&o->ix, cfg);
	o->indexed = true;
	for (size_t i = 0; i < o->n; i++)
		cr_assert_eq(sl_index_add(&o->ix, o->v[i]), SL_OK);
	cr_assert_eq(sl_index_finish(&o->ix), SL_OK);
}

void sl_test_objects_free(sl_test_objects *o)
{
	if (o->indexed)
		sl_index_free(&o->ix);
	sl_arena_free(o->a);
	sl_source_free(o->src);
	memset(o, 0, sizeof *o);
}

const sl_object *sl_test_object(const sl_test_objects *o, sl_kind k, const char *name)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i]->kind == k && o->v[i]->name && strcmp(o->v[i]->name, name) == 0)
			return o->v[i];
	cr_assert_fail("no %s %s in the fixture", sl_kind_name(k), name);
	return NULL;
}
