/* SPDX-License-Identifier: Apache-2.0
** fixture.h: what the unit tests of the modules above the model share: a config from text, and
** manifests parsed and bound to objects (optionally indexed) as a run reads its files. */
#ifndef SL_TEST_FIXTURE_H
#define SL_TEST_FIXTURE_H

#include <stddef.h>
#include "config/config.h"
#include "config/values.h"
#include "sched/index.h"
#include "model/model.h"

/* The config the text says, loaded from a scratch file named like "<what>.XXXXXX.yaml" (the
** config's path in messages); NULL text: the defaults. The test fails when it does not load. */
sl_config *sl_test_config(const char *text, const char *what);

typedef struct sl_test_objects {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
	sl_object *v[32];           /* the bound objects, in document order (empty documents skipped) */
	size_t n;
	sl_index ix;                /* with sl_test_objects_index */
	bool indexed;
} sl_test_objects;

/* yaml parsed as the file path and each document bound under cfg (borrowed), as a run binds its
** files. A YAML error or a schema-type report from the binder fails the test: a fixture is
** valid. */
void sl_test_objects_bind(sl_test_objects *o, const sl_config *cfg, const char *path,
			  const char *yaml);
/* The objects added to an index and the index finished, as a run indexes its files. */
void sl_test_objects_index(sl_test_objects *o, const sl_config *cfg);
void sl_test_objects_free(sl_test_objects *o);
/* The object of kind k named name; the test fails when there is none. */
const sl_object *sl_test_object(const sl_test_objects *o, sl_kind k, const char *name);

#endif
