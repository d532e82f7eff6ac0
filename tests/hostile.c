/* SPDX-License-Identifier: Apache-2.0
** hostile.c: inputs built to hurt a parser. Each must give a clear finding (or nothing, when the
** input is legitimate) with its location, within the test's time limit, and leave the other
** inputs of the run linted. The work is bounded: each test states the CPU seconds it may take
** (CPU time, which a loaded machine does not stretch as it stretches the wall clock), far above
** what it takes and far below a blow-up; memory is bounded by the design (aliases are never
** expanded, limits stop a document) and measured in tests/bench. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "support.h"

static double cpu_start, cpu_bound;
/* The test may use at most `seconds` of CPU from here on (checked when it ends). */
#define CPU_BOUND(seconds) (cpu_bound = (seconds), cpu_start = sl_test_cpu_seconds())

static void check_cpu(void)
{
	double used = sl_test_cpu_seconds() - cpu_start;
	cr_expect(cpu_bound > 0, "the test states no CPU_BOUND");
	cr_expect_lt(used, cpu_bound, "%.2f s of CPU, more than the bound of %.0f s", used, cpu_bound);
}

TestSuite(hostile, .fini = check_cpu);

static const char *const CLEAN =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: fine\nspec:\n  tolerations: [{key: a, operator: Exists}]\n"
	"  containers: [{name: a, image: b}]\n";

struct result { size_t n; char rule[8][64]; char msg[8][256]; unsigned line[8], col[8]; bool clean_linted; };

/* Lints the hostile buffer beside a clean file that has one known finding. */
static struct result lint(const char *data, size_t len)
{
	struct result r = {0};
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "hostile.yaml", data, len), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "clean.yaml", CLEAN, strlen(CLEAN)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		if (strcmp(f->path, "clean.yaml") == 0) {
			r.clean_linted |= strcmp(f->rule, "toleration-without-selector") == 0;
			continue;
		}
		if (r.n < 8) {
			snprintf(r.rule[r.n], sizeof r.rule[0], "%s", f->rule);
			snprintf(r.msg[r.n], sizeof r.msg[0], "%s", f->message);
			r.line[r.n] = f->line;
			r.col[r.n] = f->column;
		}
		r.n++;
	}
	sl_run_free(run);
	sl_config_free(cfg);
	cr_expect(r.clean_linted, "the clean file beside the hostile one was not linted");
	return r;
}

static int has(const struct result *r, const char *rule, const char *msg_part)
{
	for (size_t i = 0; i < r->n && i < 8; i++)
		if (strcmp(r->rule[i], rule) == 0 && strstr(r->msg[i], msg_part))
			return 1;
	return 0;
}

Test(hostile, alias_bomb)
{
	CPU_BOUND(10);
	/* a billion laughs: nine references per level, nine levels (387M leaves if expanded) */
	char buf[4096];
	size_t w = (size_t)snprintf(buf, sizeof buf, "a0: &a0 [lol]\n");
	for (int l = 1; l < 10; l++) {
		w += (size_t)snprintf(buf + w, sizeof buf - w, "a%d: &a%d [", l, l);
		for (int k = 0; k < 9; k++)
			w += (size_t)snprintf(buf + w, sizeof buf - w, "*a%d%s", l - 1, k < 8 ? ", " : "");
		w += (size_t)snprintf(buf + w, sizeof buf - w, "]\n");
	}
	struct result r = lint(buf, w);
	cr_expect_eq(r.n, 0, "an alias bomb under the alias limit is valid YAML: nothing to report");
}

Test(hostile, too_many_aliases)
{
	CPU_BOUND(10);
	size_t cap = 16 * 20000, w = 0;
	char *buf = malloc(cap);
	w += (size_t)snprintf(buf, cap, "a: &a x\nl:\n");
	for (int i = 0; i < 20000; i++)
		w += (size_t)snprintf(buf + w, cap - w, "- *a\n");
	struct result r = lint(buf, w);
	cr_expect(has(&r, "yaml-syntax", "more than 10000 aliases"), "no alias-limit finding");
	free(buf);
}

static char *nest(size_t depth, int flow, size_t *len)
{
	char *buf = malloc(depth * 4 + 16);
	size_t w = 0;
	if (flow) {
		for (size_t i = 0; i < depth; i++)
			buf[w++] = '[';
		for (size_t i = 0; i < depth; i++)
			buf[w++] = ']';
		buf[w++] = '\n';
	} else {
		/* "- " repeated: each item a sequence one level deeper */
		for (size_t i = 0; i < depth; i++) {
			buf[w++] = '-';
			buf[w++] = ' ';
		}
		buf[w++] = 'x';
		buf[w++] = '\n';
	}
	*len = w;
	return buf;
}

Test(hostile, nesting_100000_flow)
{
	CPU_BOUND(10);
	size_t len;
	char *buf = nest(100000, 1, &len);
	struct result r = lint(buf, len);
	cr_expect(has(&r, "yaml-syntax", "deeper than 1000 levels"), "no depth finding");
	cr_expect_eq(r.line[0], 1);
	cr_expect_eq(r.col[0], 1001, "the finding is at the first level past the limit");
	free(buf);
}

Test(hostile, nesting_100000_block)
{
	CPU_BOUND(10);
	size_t len;
	char *buf = nest(100000, 0, &len);
	struct result r = lint(buf, len);
	cr_expect(has(&r, "yaml-syntax", "deeper than 1000 levels"), "no depth finding");
	free(buf);
}

Test(hostile, scalar_of_100_mb)
{
	CPU_BOUND(60);
	size_t n = 100u * 1024 * 1024;
	char *buf = malloc(n + 64);
	size_t w = (size_t)snprintf(buf, 64, "apiVersion: v1\nkind: ConfigMap\ndata:\n  big: ");
	memset(buf + w, 'x', n);
	w += n;
	buf[w++] = '\n';
	struct result r = lint(buf, w);
	cr_expect(has(&r, "yaml-syntax", "larger than 16 MiB"), "no scalar-size finding");
	cr_expect_eq(r.line[0], 4);
	free(buf);
}

Test(hostile, mapping_with_a_million_keys)
{
	CPU_BOUND(30);
	size_t cap = 24u * 1000001, w = 0;
	char *buf = malloc(cap);
	for (int i = 0; i < 1000000; i++)
		w += (size_t)snprintf(buf + w, cap - w, "k%07d: v\n", i);
	w += (size_t)snprintf(buf + w, cap - w, "k0000017: again\n");
	struct result r = lint(buf, w);
	cr_expect_eq(r.n, 1, "one finding: the duplicate key");
	cr_expect(has(&r, "duplicate-key", "first defined at line 18"));
	cr_expect_eq(r.line[0], 1000001);
	free(buf);
}

Test(hostile, invalid_utf8_nul_and_binary)
{
	CPU_BOUND(10);
	static const char bad_utf8[] = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xC3\x28\n";
	struct result r = lint(bad_utf8, sizeof bad_utf8 - 1);
	cr_expect(has(&r, "yaml-syntax", "invalid UTF-8"));
	cr_expect_eq(r.line[0], 4);
	cr_expect_eq(r.col[0], 12);
	static const char nul[] = "a: 1\n---\nb: \0\n";
	r = lint(nul, sizeof nul - 1);
	cr_expect(has(&r, "yaml-syntax", "NUL byte"));
	cr_expect_eq(r.line[0], 3);
	/* a binary file: every byte value, twice */
	char bin[512];
	for (int i = 0; i < 512; i++)
		bin[i] = (char)(i * 37 + 11);
	r = lint(bin, sizeof bin);
	cr_expect_geq(r.n, 1, "binary data gives a finding");
	cr_expect_str_eq(r.rule[0], "yaml-syntax");
}

Test(hostile, empty_comment_only_and_separator_only_files)
{
	CPU_BOUND(10);
	struct result r = lint("", 0);
	cr_expect_eq(r.n, 0);
	r = lint("# just a comment\n# and another\n", 31);
	cr_expect_eq(r.n, 0);
	r = lint("---\n---\n---\n", 12);
	cr_expect_eq(r.n, 0);
	r = lint("\xEF\xBB\xBF", 3);
	cr_expect_eq(r.n, 0, "a lone BOM is an empty file");
	r = lint("\xFF\xFE" "a\0:\0 \0" "1\0\n\0", 12);
	cr_expect(has(&r, "yaml-syntax", "UTF-16"), "UTF-16 gets its own finding");
}

/* A Pod whose nodeSelector holds n boolean values: n schema-type findings, each with a fix. */
static char *bool_selectors(size_t n, size_t *len)
{
	char *buf = malloc(128 + n * 20);
	size_t w = (size_t)sprintf(buf, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
				   "  containers: [{name: a, image: b}]\n  nodeSelector:\n");
	for (size_t i = 0; i < n; i++)
		w += (size_t)sprintf(buf + w, "    k%07zu: true\n", i);
	*len = w;
	return buf;
}

Test(hostile, findings_per_file_are_capped)
{
	CPU_BOUND(30);
	size_t len;
	char *buf = bool_selectors(25000, &len);
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "many.yaml", buf, len), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	size_t n = sl_run_finding_count(run);
	cr_expect_eq(n, 10001, "%zu findings: the cap is 10000 and one that says it stopped", n);
	const sl_finding *last = sl_run_finding(run, n - 1);
	cr_expect(strstr(last->message, "the report stops after 10000"), "last: %s", last->message);
	cr_expect_null(last->fix);
	sl_run_free(run);
	sl_config_free(cfg);
	free(buf);
}

/* 300 files with 400 fixes each: choosing and applying 120 000 fixes takes time linear in
** their number (it was O(fixes^2) overlap checks plus a scan of every file per edit). */
Test(hostile, fix_bookkeeping_is_linear)
{
	CPU_BOUND(30);
	size_t len;
	char *buf = bool_selectors(400, &len);
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	for (int i = 0; i < 300; i++) {
		char name[32];
		snprintf(name, sizeof name, "f%03d.yaml", i);
		cr_assert_eq(sl_run_add_buffer(run, name, buf, len), SL_OK);
	}
	cr_assert_eq(sl_run_lint(run), SL_OK);
	size_t applied = 0;
	bool converged = false;
	cr_assert_eq(sl_run_fix(run, NULL, &applied, &converged), SL_OK);
	cr_expect_eq(applied, 120000);
	cr_expect(converged);
	cr_expect_eq(sl_run_finding_count(run), 0);
	sl_run_free(run);
	sl_config_free(cfg);
	free(buf);
}
