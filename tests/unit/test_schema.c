/* SPDX-License-Identifier: Apache-2.0
** test_schema.c: the JSON Schema evaluator (src/extend/schema.c). First the official
** JSON-Schema-Test-Suite (Debian's json-schema-test-suite, tests/draft7, the optional/ and
** format tests and remote refs left out): every case whose schema compiles with only the
** supported keywords runs, and every one of its tests must give the suite's answer. JSON goes
** to the positioned tree as YAML text (jansson writes it; JSON is YAML's flow style). Then
** what the suite cannot say: positions of failures, messages, YAML 1.1 typing, quantities,
** compile errors at file:line:col, and a pattern that backtracks catastrophically. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "extend/schema.h"
#include "k8s/quantity.h"
#include "util/regex.h"

#ifndef SUITE_DIR
#define SUITE_DIR "/usr/share/json-schema-test-suite/tests/draft7"
#endif

struct doc {
	sl_source *src;
	sl_arena *a;
	sl_tree t;
};

static void no_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	(void)doc; (void)start; (void)end;
	*(int *)payload += 1;
	fprintf(stderr, "parse issue %s: %s\n", rule, message);
}

static const sl_node *parse(struct doc *d, const char *text)
{
	memset(d, 0, sizeof *d);
	cr_assert_eq(sl_source_from_buffer("t.yaml", text, strlen(text), &d->src), SL_OK);
	cr_assert_eq(sl_source_index(d->src), SL_OK);
	d->a = sl_arena_new();
	int issues = 0;
	cr_assert_eq(sl_tree_parse(d->src, d->a, &d->t, no_issue, &issues), SL_OK);
	cr_assert_eq(issues, 0, "%s", text);
	cr_assert_eq(d->t.n_docs, 1, "%s", text);
	return d->t.docs[0]->root;
}

static void drop(struct doc *d)
{
	sl_arena_free(d->a);
	sl_source_free(d->src);
}

static const sl_node *parse_json(struct doc *d, const json_t *j)
{
	char *text = json_dumps(j, JSON_ENCODE_ANY);
	cr_assert(text);
	const sl_node *n = parse(d, text);
	free(text);
	return n;
}

Test(schema, official_draft7_suite)
{
	DIR *dir = opendir(SUITE_DIR);
	if (!dir)
		cr_skip_test("json-schema-test-suite is not installed (" SUITE_DIR ")");
	size_t cases = 0, skipped = 0, tests = 0, failures = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0 ||
		    strcmp(e->d_name, "refRemote.json") == 0 || strcmp(e->d_name, "format.json") == 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", SUITE_DIR, e->d_name);
		json_error_t jerr;
		json_t *root = json_load_file(path, 0, &jerr);
		cr_assert(root, "%s: %s", path, jerr.text);
		size_t ci;
		json_t *c;
		json_array_foreach(root, ci, c) {
			struct doc sd;
			const sl_node *sn = parse_json(&sd, json_object_get(c, "schema"));
			sl_schema *s = NULL;
			sl_schema_problem pb;
			sl_err err = sl_schema_compile(sn, &s, &pb);
			if (err == SL_ECONFIG && pb.unsupported) {
				fprintf(stderr, "skipped %s: %s: %s\n", e->d_name,
					json_string_value(json_object_get(c, "description")), pb.message);
				skipped++;
				drop(&sd);
				continue;
			}
			cr_assert_eq(err, SL_OK, "%s: %s: %s", e->d_name,
				     json_string_value(json_object_get(c, "description")), pb.message);
			cases++;
			size_t ti;
			json_t *t;
			json_array_foreach(json_object_get(c, "tests"), ti, t) {
				struct doc dd;
				const sl_node *dn = parse_json(&dd, json_object_get(t, "data"));
				sl_arena *a = sl_arena_new();
				sl_schema_failure f;
				int got = sl_schema_validate(s, dn, a, &f);
				int want = json_is_true(json_object_get(t, "valid"));
				tests++;
				if (got != want) {
					failures++;
					fprintf(stderr, "FAIL %s: %s / %s: got %s%s%s\n", e->d_name,
						json_string_value(json_object_get(c, "description")),
						json_string_value(json_object_get(t, "description")),
						got ? "valid" : "invalid", got ? "" : ": ",
						got ? "" : f.message);
				}
				if (got == 0)
					cr_assert(f.message && f.message[0]);
				sl_arena_free(a);
				drop(&dd);
			}
			sl_schema_free(s);
			drop(&sd);
		}
		json_decref(root);
	}
	closedir(dir);
	fprintf(stderr, "draft7: %zu cases (%zu tests) run, %zu cases with unsupported keywords "
		"skipped, %zu failures\n", cases, tests, skipped, failures);
	cr_assert_eq(failures, 0);
	cr_assert_geq(cases, 112);   /* of 124 in 2.0.0: all but refRemote, format and $id */
}

/* --- beyond the suite ----------------------------------------------------------------------- */

struct run {
	struct doc sd, dd;
	sl_schema *s;
	sl_arena *a;
	sl_schema_failure f;
	int rc;
};

static void run(struct run *r, const char *schema, const char *data)
{
	const sl_node *sn = parse(&r->sd, schema);
	sl_schema_problem pb;
	cr_assert_eq(sl_schema_compile(sn, &r->s, &pb), SL_OK, "%s", pb.message);
	const sl_node *dn = parse(&r->dd, data);
	r->a = sl_arena_new();
	r->rc = sl_schema_validate(r->s, dn, r->a, &r->f);
}

static void done(struct run *r)
{
	sl_schema_free(r->s);
	sl_arena_free(r->a);
	drop(&r->sd);
	drop(&r->dd);
}

static void at(struct run *r, unsigned line, unsigned col)
{
	uint32_t l, c;
	sl_source_position(r->dd.src, r->f.at->start, &l, &c);
	cr_assert_eq(l, line, "line %u, want %u (%s)", l, line, r->f.message);
	cr_assert_eq(c, col, "column %u, want %u (%s)", c, col, r->f.message);
}

Test(schema, deepest_failure_has_its_position_and_plain_words)
{
	struct run r;
	run(&r, "properties:\n  priorityClassName: {pattern: '^inference-'}\n",
	    "containers: []\npriorityClassName: batch\n");
	cr_assert_eq(r.rc, 0);
	at(&r, 2, 20);
	cr_assert_str_eq(r.f.message, "priorityClassName \"batch\" does not match ^inference-");
	cr_assert_str_eq(r.f.value, "batch");
	done(&r);

	run(&r, "properties:\n  tolerations:\n    items: {required: [key]}\n",
	    "tolerations:\n  - key: a\n  - operator: Exists\n");
	cr_assert_eq(r.rc, 0);
	cr_assert(r.f.missing);
	at(&r, 3, 5);
	cr_assert_str_eq(r.f.message, "item 1 of tolerations lacks key");
	done(&r);

	run(&r, "properties:\n  tolerations:\n    items: {required: [key]}\n",
	    "tolerations:\n  - key: a\n");
	cr_assert_eq(r.rc, 1);   /* a true negative */
	done(&r);
}

Test(schema, yaml_scalars_are_typed_as_kubernetes_decodes_them)
{
	struct run r;
	run(&r, "properties: {a: {type: boolean}, b: {type: string}, c: {type: integer}}\n",
	    "a: yes\nb: \"3\"\nc: 0x10\n");
	cr_assert_eq(r.rc, 1, "%s", r.f.message);
	done(&r);
	run(&r, "properties: {b: {type: integer}}\n", "b: \"3\"\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_str_eq(r.f.message, "b \"3\" is a string, not an integer");
	done(&r);
}

Test(schema, quantities_compare_numerically)
{
	struct run r;
	const char *s = "properties:\n  gpu: {quantityMaximum: 4}\n  memory: {quantityMinimum: 8Gi}\n";
	run(&r, s, "gpu: \"4\"\nmemory: 8192Mi\n");
	cr_assert_eq(r.rc, 1, "%s", r.f.message);
	done(&r);
	run(&r, s, "gpu: 8\nmemory: 16Gi\n");
	cr_assert_eq(r.rc, 0);
	at(&r, 1, 6);
	cr_assert_str_eq(r.f.message, "gpu 8 is more than 4");
	done(&r);
	run(&r, s, "gpu: 1\nmemory: 500m\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_str_eq(r.f.message, "memory \"500m\" is less than 8Gi");
	done(&r);
}

Test(schema, patterns_with_capture_groups_match)
{
	/* the match data holds the whole match only: PCRE2 says 0 when groups do not fit, a match */
	struct run r;
	const char *s = "properties:\n  priorityClassName: {pattern: '^(inference|serving)-'}\n"
			"patternProperties:\n  '^(gpu|tpu)-(a|b)$': {type: integer}\n";
	run(&r, s, "priorityClassName: serving-high\ngpu-a: 1\n");
	cr_assert_eq(r.rc, 1, "%s", r.f.message);
	done(&r);
	run(&r, s, "priorityClassName: batch\n");
	cr_assert_eq(r.rc, 0);
	cr_assert_str_eq(r.f.message, "priorityClassName \"batch\" does not match ^(inference|serving)-");
	done(&r);
	run(&r, s, "tpu-b: many\n");
	cr_assert_eq(r.rc, 0, "a patternProperties key with groups is matched");
	done(&r);
}

static void compile_error(const char *schema, unsigned line, unsigned col, const char *message,
			  bool unsupported)
{
	struct doc d;
	const sl_node *sn = parse(&d, schema);
	sl_schema *s = NULL;
	sl_schema_problem pb;
	cr_assert_eq(sl_schema_compile(sn, &s, &pb), SL_ECONFIG, "%s", schema);
	cr_assert_null(s);
	uint32_t l, c;
	sl_source_position(d.src, pb.at->start, &l, &c);
	cr_assert_eq(l, line, "%s: line %u", pb.message, l);
	cr_assert_eq(c, col, "%s: column %u", pb.message, c);
	cr_assert_str_eq(pb.message, message);
	cr_assert_eq(pb.unsupported, unsupported);
	drop(&d);
}

Test(schema, a_schema_that_does_not_compile_says_where_and_why)
{
	compile_error("properties:\n  a: {minLenght: 2}\n", 2, 7,
		      "unknown schema keyword \"minLenght\" (did you mean \"minLength\"?)", true);
	compile_error("properties:\n  a: {pattern: 'a(b'}\n", 2, 16,
		      "pattern \"a(b\" does not compile: missing closing parenthesis at offset 3", false);
	compile_error("properties:\n  a: {$ref: '#/definitions/nope'}\n", 2, 13,
		      "$ref \"#/definitions/nope\" does not resolve", false);
	compile_error("$ref: 'http://example.com/s.json'\n", 1, 7,
		      "$ref \"http://example.com/s.json\" is not local: only \"#/...\" references "
		      "within the rule's schema resolve", true);
	compile_error("type: strng\n", 1, 7,
		      "type must be one of null, boolean, number, integer, string, array, object", false);
	compile_error("minimum: ten\n", 1, 10, "minimum must be a number", false);
}

Test(schema, a_recursive_ref_and_a_backtracking_pattern_end_quickly)
{
	struct run r;
	struct timespec t0, t1;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);   /* CPU time: load does not stretch it */
	run(&r, "properties: {a: {pattern: '^(a+)+$'}}\n",
	    "a: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n");
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	cr_assert_eq(r.rc, 0);
	cr_assert(strstr(r.f.message, "pattern ^(a+)+$"), "%s", r.f.message);
	cr_assert_lt((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9, 2.0);
	done(&r);
	run(&r, "$ref: '#'\n", "a: 1\n");   /* refers to itself, never reaches the data */
	cr_assert_eq(r.rc, 0);
	done(&r);
}

/* A schema that refers to itself twice at each level is evaluated once per (schema, node): 60
** levels would be 2^60 evaluations, and the failure at the deepest node is still found. */
Test(schema, a_ref_is_evaluated_once_per_node)
{
	struct run r;
	char data[1024] = "d: ";
	for (int i = 0; i < 60; i++)
		strcat(data, "{a: ");
	strcat(data, "1");
	for (int i = 0; i < 60; i++)
		strcat(data, "}");
	strcat(data, "\n");
	run(&r, "properties: {d: {$ref: '#/definitions/n'}}\n"
		"definitions:\n"
		"  n:\n"
		"    allOf:\n"
		"    - type: [object, string]\n"
		"    - properties: {a: {$ref: '#/definitions/n'}}\n"
		"    - properties: {a: {$ref: '#/definitions/n'}}\n", data);
	cr_assert_eq(r.rc, 0);
	cr_expect(strstr(r.f.message, "a 1 is a number, not a string or an object"), "%s", r.f.message);
	at(&r, 1, 244);
	done(&r);
}

/* A run's patterns share one budget: once spent, a pattern is not matched, the failure says
** so, and unrun counts what was not matched. */
Test(schema, the_runs_budget_for_patterns)
{
	struct run r;
	char data[8192] = "";
	for (int i = 0; i < 40; i++)
		sprintf(data + strlen(data), "k%02d: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n", i);
	const sl_node *sn = parse(&r.sd, "additionalProperties: {pattern: '^(a|aa)+$'}\n");
	sl_schema_problem pb;
	cr_assert_eq(sl_schema_compile(sn, &r.s, &pb), SL_OK, "%s", pb.message);
	const sl_node *dn = parse(&r.dd, data);
	r.a = sl_arena_new();
	sl_regex_budget budget = {0};
	cr_assert_eq(sl_schema_validate_budget(r.s, dn, r.a, &budget, &r.f), 0);
	cr_expect_eq(r.f.unrun, 40 - SL_REGEX_RUN_BUDGET / SL_REGEX_MATCH_LIMIT,
		     "16 at the match limit, the rest not run (%zu)", r.f.unrun);
	cr_expect(strstr(r.f.message, "hit the match limit"), "%s", r.f.message);
	sl_arena_free(r.a);
	r.a = sl_arena_new();
	cr_assert_eq(sl_schema_validate_budget(r.s, dn, r.a, &budget, &r.f), 0);
	cr_expect_eq(r.f.unrun, 40, "spent: nothing runs");
	cr_expect(strstr(r.f.message, "budget for patterns is spent"), "%s", r.f.message);
	done(&r);
}

/* Ordinary matches are charged their subjects' lengths: over a large repository they add up
** past SL_REGEX_RUN_BUDGET, which must not stop them (a false "was not run" on every pattern);
** the bytes checked grant the budget its room. */
Test(schema, ordinary_matches_do_not_spend_the_budget_of_a_large_run)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR) "^[a-z0-9-]+$", PCRE2_ZERO_TERMINATED, 0,
					 &err, &off, NULL);
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
	cr_assert(code && md);
	char subject[100];
	memset(subject, 'a', sizeof subject);
	size_t n = SL_REGEX_RUN_BUDGET / sizeof subject + 1000;   /* past the fixed part */
	sl_regex_budget bare = {0}, granted = {0};
	/* the files these subjects came from: at least the subjects' bytes */
	sl_regex_budget_grant(&granted, n * sizeof subject);
	int last_bare = 0, last_granted = 0;
	for (size_t i = 0; i < n; i++) {
		last_bare = sl_regex_match_budget(code, subject, sizeof subject, 0, md, &bare);
		last_granted = sl_regex_match_budget(code, subject, sizeof subject, 0, md, &granted);
		cr_assert_gt(last_granted, 0, "match %zu not run with the bytes granted", i);
	}
	cr_expect_eq(last_bare, SL_REGEX_BUDGET_SPENT, "without a grant the fixed part runs out");
	cr_expect(!sl_regex_budget_spent(&granted));
	pcre2_match_data_free(md);
	pcre2_code_free(code);
}

/* --- the shortcuts: each gives the answer of the path it saves ---------------------------- */

/* Validates data against the compiled s: 1 valid, 0 not. */
static int check(const sl_schema *s, const char *data)
{
	struct doc d;
	const sl_node *n = parse(&d, data);
	sl_arena *a = sl_arena_new();
	sl_schema_failure f;
	int rc = sl_schema_validate(s, n, a, &f);
	sl_arena_free(a);
	drop(&d);
	return rc;
}

static sl_schema *compiled(struct doc *d, const char *schema)
{
	sl_schema *s = NULL;
	sl_schema_problem pb;
	cr_assert_eq(sl_schema_compile(parse(d, schema), &s, &pb), SL_OK, "%s: %s", schema, pb.message);
	return s;
}

Test(schema, a_member_is_read_by_each_property_that_names_it)
{
	/* properties skips a member by a bit of its name's length and first and last bytes: every
	** name of up to three bytes of "ab$" against properties that are false (so a member they
	** name fails) must fail exactly when one names it, whatever bits the names share */
	static const char *const sets[] = {"aab", "abb", "a", "b$a", "", "$"};
	static const char *const alpha = "ab$";
	char names[40][4];
	size_t n = 0;
	for (size_t len = 0, count = 1; len <= 3; len++, count *= 3)
		for (size_t x = 0; x < count; x++) {   /* the count = 3^len names of length len */
			size_t v = x;
			for (size_t i = 0; i < len; i++, v /= 3)
				names[n][i] = alpha[v % 3];
			names[n++][len] = '\0';
		}
	cr_assert_eq(n, 40);
	for (size_t k = 1; k <= sizeof sets / sizeof sets[0]; k++) {
		/* properties: the first k names of sets; and with additionalProperties: true, which
		** reads every member (the general loop) */
		for (int general = 0; general < 2; general++) {
			char schema[256] = "properties: {";
			for (size_t i = 0; i < k; i++)
				snprintf(schema + strlen(schema), sizeof schema - strlen(schema), "%s\"%s\": false",
					 i ? ", " : "", sets[i]);
			snprintf(schema + strlen(schema), sizeof schema - strlen(schema), "}%s\n",
				 general ? "\nadditionalProperties: true" : "");
			struct doc sd;
			sl_schema *s = compiled(&sd, schema);
			for (size_t i = 0; i < n; i++) {
				bool named = false;
				for (size_t j = 0; j < k; j++)
					named |= strcmp(names[i], sets[j]) == 0;
				char data[64];
				snprintf(data, sizeof data, "{x: 1, \"%s\": 1, y: 2}\n", names[i]);
				cr_expect_eq(check(s, data), named ? 0 : 1, "%s on %s", schema, data);
			}
			sl_schema_free(s);
			drop(&sd);
		}
	}
}

Test(schema, a_string_const_or_enum_is_equal_only_to_a_string_of_its_text)
{
	/* const and an enum of strings compare the text before typing the value; an enum with a
	** number in it takes the general path: both must agree on every value */
	static const char *const values[] = {
		"\"3\"", "3", "'3'", "yes", "'yes'", "true", "\"true\"", "null", "\"\"", "''", "~",
		"dedicated", "dedicated2", "\"dedicated\"", "[dedicated]", "{a: dedicated}", "3.0",
	};
	static const char *const texts[] = {"\"3\"", "\"yes\"", "\"true\"", "\"\"", "dedicated",
					    "\"null\""};
	for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
		char fast_c[64], fast_e[64], slow[64];
		snprintf(fast_c, sizeof fast_c, "const: %s\n", texts[t]);
		snprintf(fast_e, sizeof fast_e, "enum: [\"zz\", %s]\n", texts[t]);
		snprintf(slow, sizeof slow, "enum: [%s, 98765]\n", texts[t]);
		struct doc d1, d2, d3;
		sl_schema *c = compiled(&d1, fast_c), *e = compiled(&d2, fast_e), *g = compiled(&d3, slow);
		for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
			char data[64];
			snprintf(data, sizeof data, "%s\n", values[v]);
			int want = check(g, data);
			cr_expect_eq(check(c, data), want, "%s against %s", values[v], fast_c);
			cr_expect_eq(check(e, data), want, "%s against %s", values[v], fast_e);
		}
		sl_schema_free(c);
		sl_schema_free(e);
		sl_schema_free(g);
		drop(&d1);
		drop(&d2);
		drop(&d3);
	}
	/* and what the general path says, to be sure it is not trivially one answer */
	struct doc d;
	sl_schema *s = compiled(&d, "const: \"3\"\n");
	cr_expect_eq(check(s, "\"3\"\n"), 1);
	cr_expect_eq(check(s, "3\n"), 0);
	sl_schema_free(s);
	drop(&d);
}

Test(schema, a_quantity_parsed_before_gives_the_same_answer)
{
	/* each thread keeps the quantities it parsed last by their text: values that share a slot
	** ("1Gi", "1Mi"), one too long to keep, one that is no quantity, checked in turns against
	** two caps must each give what parsing it afresh gives */
	static const char *const values[] = {
		"1Gi", "1Mi", "3Gi", "2Gi", "2049Mi", "2048Mi", "abc", "1e9", "0.5Gi", "9Gi", "1G",
		"0000000000000000000000000000001Gi", "0000000000000000000000000000009Gi", "\"\"", "1Ki",
		"2147483648", "2147483649",
	};
	const size_t n = sizeof values / sizeof values[0];
	struct doc d1, d2;
	sl_schema *max = compiled(&d1, "quantityMaximum: 2Gi\n");
	sl_schema *min = compiled(&d2, "quantityMinimum: 2Gi\n");
	sl_quantity cap;
	cr_assert_eq(sl_quantity_parse("2Gi", 3, &cap), SL_QUANTITY_OK);
	for (size_t round = 0; round < 3; round++)
		for (size_t i = 0; i < n; i++) {
			const char *v = values[(i * (round + 1) + round) % n];
			const char *text = strcmp(v, "\"\"") == 0 ? "" : v;
			sl_quantity q;
			bool ok = sl_quantity_parse(text, strlen(text), &q) == SL_QUANTITY_OK;
			char data[64];
			snprintf(data, sizeof data, "%s\n", v);
			cr_expect_eq(check(max, data), ok && sl_quantity_cmp(&q, &cap) <= 0, "%s <= 2Gi", v);
			cr_expect_eq(check(min, data), ok && sl_quantity_cmp(&q, &cap) >= 0, "%s >= 2Gi", v);
		}
	sl_schema_free(max);
	sl_schema_free(min);
	drop(&d1);
	drop(&d2);
}

/* A path into the value (properties with one name and nothing else, level after level) is
** followed in a loop, not a call per level: it must answer as the general walk does (the same
** schema with minProperties: 0 at each level, which takes it) on every shape of data. */
Test(schema, a_path_answers_as_the_general_walk)
{
	static const char *const data[] = {
		"a: {b: {c: 2}}\n",                        /* fails at c */
		"a: {b: {c: 1}}\n",                        /* holds */
		"a: {b: {c: 0}}\na: {b: {c: 5}}\n",        /* a twice: the second fails */
		"a: {b: {c: 5}, b: {c: 0}}\n",             /* b twice */
		"a: 3\n",                                  /* not an object: properties holds */
		"a:\n",                                    /* null */
		"a: {b: [c]}\n",
		"x: &x {b: {c: 7}}\na: *x\n",              /* an alias on the path */
		"a: {b: {c: 9, d: 1}}\n",
		"- a\n",
	};
	struct doc sp, sg;
	sl_schema *path = compiled(&sp, "properties: {a: {properties: {b: {properties: {c: "
				       "{maximum: 1}}}}}}\n");
	sl_schema *general = compiled(&sg, "properties: {a: {minProperties: 0, properties: {b: "
				      "{minProperties: 0, properties: {c: {maximum: 1}}}}}}\n");
	for (size_t i = 0; i < sizeof data / sizeof *data; i++) {
		struct doc d = {0};   /* duplicate keys are issues of the parse, kept in the tree */
		int issues = 0;
		cr_assert_eq(sl_source_from_buffer("t.yaml", data[i], strlen(data[i]), &d.src), SL_OK);
		cr_assert_eq(sl_source_index(d.src), SL_OK);
		d.a = sl_arena_new();
		cr_assert_eq(sl_tree_parse(d.src, d.a, &d.t, no_issue, &issues), SL_OK);
		cr_assert_eq(d.t.n_docs, 1);
		const sl_node *n = d.t.docs[0]->root;
		sl_arena *a = sl_arena_new();
		sl_schema_failure fp = {0}, fg = {0};
		int rp = sl_schema_validate(path, n, a, &fp), rg = sl_schema_validate(general, n, a, &fg);
		cr_expect_eq(rp, rg, "%s", data[i]);
		if (rp == 0 && rg == 0) {
			cr_expect_eq(fp.at, fg.at, "%s", data[i]);
			cr_expect_str_eq(fp.message, fg.message, "%s", data[i]);
		}
		sl_arena_free(a);
		drop(&d);
	}
	cr_expect_eq(check(path, "a: {b: {c: 2}}\n"), 0);
	cr_expect_eq(check(path, "x: &x {b: {c: 7}}\na: *x\n"), 0);
	cr_expect_eq(check(path, "a: 3\n"), 1);
	sl_schema_free(path);
	sl_schema_free(general);
	drop(&sp);
	drop(&sg);
}
