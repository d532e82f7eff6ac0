/* SPDX-License-Identifier: Apache-2.0
** test_stream.c: a report written with its big arrays streamed (src/output/stream.c) is byte
** for byte what json_dumpf would write for the whole document. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output/output.h"

static json_t *elements;   /* what the streamed arrays hold */

static json_t *item(void *payload, size_t i)
{
	(void)payload;
	return json_incref(json_array_get(elements, i));
}

/* The dump of doc, and the streamed write of doc with `key` emptied and refilled. */
static void compare(const char *doc_text, const char *const *keys, size_t n_keys)
{
	json_error_t jerr;
	json_t *doc = json_loads(doc_text, JSON_PRESERVE_ORDER, &jerr);
	cr_assert_not_null(doc, "%s", jerr.text);
	char *want = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	cr_assert_not_null(want);
	/* the skeleton: each streamed array emptied (they all hold the same elements here) */
	json_t *skel = json_deep_copy(doc);
	sl_json_array arrays[4];
	for (size_t k = 0; k < n_keys; k++) {
		json_t *parent = skel;
		const char *key = keys[k];
		/* "a.b" names b inside the object a, "runs.0.results" inside runs[0] */
		char path[64];
		snprintf(path, sizeof path, "%s", key);
		for (char *dot; (dot = strchr(path, '.'));) {
			*dot = '\0';
			parent = json_is_array(parent) ? json_array_get(parent, (size_t)atoi(path))
						       : json_object_get(parent, path);
			memmove(path, dot + 1, strlen(dot + 1) + 1);
		}
		elements = json_object_get(parent, path);
		cr_assert(json_is_array(elements));
		arrays[k] = (sl_json_array){strrchr(key, '.') ? strrchr(key, '.') + 1 : key,
					    json_array_size(elements), item, NULL};
		json_object_set_new(parent, path, json_array());
	}
	elements = json_object_get(doc, "all");   /* every array below holds these */
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	cr_assert_eq(sl_stream_write_json(m, skel, arrays, n_keys), SL_OK);
	fclose(m);
	size_t wl = strlen(want);
	cr_expect(len == wl + 1 && memcmp(got, want, wl) == 0 && got[wl] == '\n',
		  "streamed:\n%s\nwanted:\n%s", got, want);
	free(got);
	free(want);
	json_decref(doc);
}

#define ALL "[{\"a\": 1, \"b\": [1, {\"c\": \"x\\\"results\\\": []\"}]}, 2, \"s\\ny\"]"

Test(stream, arrays_at_any_depth_full_or_empty)
{
	static const char *const top[] = {"all", "x"};
	compare("{\"v\": 1, \"all\": " ALL ", \"x\": " ALL ", \"z\": {}}", top, 2);
	static const char *const nested[] = {"all", "runs.0.results"};
	compare("{\"all\": " ALL ", \"runs\": [{\"tool\": {\"n\": []}, \"results\": " ALL "}]}",
		nested, 2);
	static const char *const empty[] = {"all"};
	compare("{\"all\": []}", empty, 1);
}
