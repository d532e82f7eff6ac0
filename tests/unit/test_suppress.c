/* SPDX-License-Identifier: Apache-2.0
** test_suppress.c: suppressions (src/lint/suppress.c) through a lint run: a directive at the end of
** the finding's line or alone on the line above, ignore-file, bare ignore, ids that are rules or
** categories, the schedlint.io/ignore annotation (its own document only), '#' inside quoted and
** block scalars or glued to text is no directive, yaml-syntax is never hidden, and the unused
** tracking: which ids are reported, with which message and which fix. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"

/* Line 6 `tolerations:` draws toleration-without-selector (6:3); line 14's GPU request draws
** gpu-request-without-limit (14:27). %s slots: after `tolerations:`, the line above the request,
** and a metadata annotations entry. */
static const char *const POD =
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata:\n"
	"  name: p\n"
	"spec:\n"
	"  tolerations:%s\n"
	"    - key: dedicated\n"
	"      operator: Exists\n"
	"  containers:\n"
	"    - name: app\n"
	"      image: x\n"
	"      resources:\n"
	"        requests:\n"
	"%s"
	"          nvidia.com/gpu: 1\n";

#define TOL "toleration-without-selector"
#define GPU "gpu-request-without-limit"
#define UNUSED "unused-suppression"
#define UNKNOWN "unknown-rule-id"

/* The rules a run selects: the first n_rules of these. */
static const char *const RULES[] = {TOL, GPU, UNUSED, "yaml-syntax", UNKNOWN};

typedef struct lint {
	sl_run *run;
	char *text;
	sl_config *cfg;
} lint;

static lint run_on(const char *text, size_t n_rules)
{
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .select = RULES, .n_select = n_rules};
	lint l = {NULL, strdup(text), NULL};
	cr_assert_not_null(l.text);
	cr_assert_eq(sl_config_new_default(&l.cfg), SL_OK);
	cr_assert_eq(sl_run_new(l.cfg, &opts, &l.run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(l.run, "pod.yaml", l.text, strlen(l.text)), SL_OK);
	cr_assert_eq(sl_run_lint(l.run), SL_OK);
	for (size_t i = 0; i < sl_run_finding_count(l.run); i++) {
		const sl_finding *f = sl_run_finding(l.run, i);
		cr_log_info("%u:%u %s: %s", f->line, f->column, f->rule, f->message);
	}
	return l;
}

/* POD with the three slots filled. */
static lint pod(const char *after_tolerations, const char *above_request, size_t n_rules)
{
	char buf[4096];
	snprintf(buf, sizeof buf, POD, after_tolerations, above_request);
	return run_on(buf, n_rules);
}

static void done(lint l)
{
	sl_run_free(l.run);
	sl_config_free(l.cfg);
	free(l.text);
}

static size_t count(lint l, const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < sl_run_finding_count(l.run); i++)
		n += strcmp(sl_run_finding(l.run, i)->rule, rule) == 0;
	return n;
}

static const sl_finding *find(lint l, const char *rule)
{
	for (size_t i = 0; i < sl_run_finding_count(l.run); i++)
		if (strcmp(sl_run_finding(l.run, i)->rule, rule) == 0)
			return sl_run_finding(l.run, i);
	cr_assert_fail("no %s finding", rule);
	return NULL;
}

/* The fixture reports what the tests suppress, where they expect it. */
Test(suppress, without_directives_both_rules_report)
{
	lint l = pod("", "", 3);
	cr_assert_eq(count(l, TOL), 1);
	cr_assert_eq(count(l, GPU), 1);
	cr_expect_eq(find(l, TOL)->line, 6);
	cr_expect_eq(find(l, GPU)->line, 14);
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);
}

Test(suppress, directive_at_the_end_of_the_line)
{
	lint l = pod("  # schedlint: ignore[" TOL "] the pool is tainted by hand", "", 3);
	cr_expect_eq(count(l, TOL), 0);
	cr_expect_eq(count(l, GPU), 1, "only the named rule");
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);
}

Test(suppress, directive_alone_on_the_line_above)
{
	lint l = pod("", "          #schedlint:ignore[" GPU "]\n", 3);
	cr_expect_eq(count(l, GPU), 0);
	cr_expect_eq(count(l, TOL), 1);
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);
}

Test(suppress, directive_two_lines_above_applies_to_nothing)
{
	/* the own-line directive is above `requests:`, not above the GPU request */
	char buf[4096];
	snprintf(buf, sizeof buf, POD, "", "");
	char *at = strstr(buf, "        requests:");
	cr_assert_not_null(at);
	char text[4096];
	snprintf(text, sizeof text, "%.*s        # schedlint: ignore[%s]\n%s", (int)(at - buf), buf,
		 GPU, at);
	lint l = run_on(text, 3);
	cr_expect_eq(count(l, GPU), 1);
	cr_assert_eq(count(l, UNUSED), 1);
	const sl_finding *u = find(l, UNUSED);
	cr_expect_eq(u->line, 13);
	cr_expect_str_eq(u->message, "rule " GPU " in this suppression suppressed nothing: remove "
			 "the comment");
	cr_assert_not_null(u->fix);
	cr_expect_eq(u->fix->applicability, SL_FIX_SAFE);
	cr_assert_eq(u->fix->n_edits, 1);
	cr_expect_str_eq(u->fix->edits[0].content, "", "the whole comment line goes");
	cr_expect_eq(u->fix->edits[0].offset, (size_t)(at - buf));
	cr_expect_eq(u->fix->edits[0].length, strlen("        # schedlint: ignore[" GPU "]\n"));
	done(l);
}

Test(suppress, ignore_file_by_category_and_bare_ignore)
{
	lint l = run_on("# schedlint: ignore-file[gpu]\n---\n", 3);   /* comments only: nothing to say */
	cr_expect_eq(sl_run_finding_count(l.run), 0);
	done(l);

	char buf[4096];
	snprintf(buf, sizeof buf, POD, "", "");
	char text[4200];
	snprintf(text, sizeof text, "%s# schedlint: ignore-file[gpu] generated\n", buf);
	l = run_on(text, 3);
	cr_expect_eq(count(l, GPU), 0, "a category names its rules, anywhere in the file");
	cr_expect_eq(count(l, TOL), 1);
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);

	l = pod(" # schedlint: ignore", "", 3);
	cr_expect_eq(count(l, TOL), 0, "a bare ignore covers every rule on its line");
	cr_expect_eq(count(l, GPU), 1);
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);

	l = pod("", "          # schedlint: ignore\n", 2);   /* unused-suppression off */
	cr_expect_eq(count(l, GPU), 0);
	cr_expect_eq(sl_run_finding_count(l.run), 1);
	done(l);
}

Test(suppress, annotation_covers_its_own_document_only)
{
	char buf[4096];
	snprintf(buf, sizeof buf, POD, "", "");
	char *meta = strstr(buf, "  name: p\n");
	cr_assert_not_null(meta);
	char text[9000];
	snprintf(text, sizeof text, "%.*s  annotations:\n    schedlint.io/ignore: \"%s, nope\"\n%s---\n%s",
		 (int)(meta - buf), buf, TOL, meta, buf);
	lint l = run_on(text, 3);
	cr_expect_eq(count(l, TOL), 1, "the second document's finding stays");
	cr_expect_eq(find(l, TOL)->document, 1);
	cr_expect_eq(count(l, GPU), 2, "the annotation names only " TOL);
	cr_expect_eq(count(l, UNUSED), 0, "annotations are not tracked as directives");
	done(l);
}

Test(suppress, hash_in_quoted_block_or_glued_text_is_no_directive)
{
	const char *texts[] = {
		/* a double-quoted scalar */
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
		"    note: \"see # schedlint: ignore-file\"\n",
		/* a single-quoted scalar over two lines */
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
		"    note: 'first line\n      # schedlint: ignore-file'\n",
		/* a literal block scalar */
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
		"    note: |\n      # schedlint: ignore-file\n",
		/* '#' glued to text is part of a plain scalar */
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
		"    note: x#schedlint:ignore-file\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		char buf[4096];
		snprintf(buf, sizeof buf, "%s", texts[i]);
		/* the rest of the Pod, without the first four lines POD starts with */
		char pod_buf[4096];
		snprintf(pod_buf, sizeof pod_buf, POD, "", "");
		strcat(buf, strstr(pod_buf, "spec:\n"));
		lint l = run_on(buf, 3);
		cr_expect_eq(count(l, TOL), 1, "case %zu: a '#' in text suppressed a finding", i);
		cr_expect_eq(count(l, GPU), 1, "case %zu", i);
		cr_expect_eq(count(l, UNUSED), 0, "case %zu: text reported as a directive", i);
		done(l);
	}
}

Test(suppress, unused_ids_are_reported_and_removed_one_by_one)
{
	lint l = pod("  # schedlint: ignore[" TOL ", " GPU "] hand-tainted pool", "", 3);
	cr_expect_eq(count(l, TOL), 0);
	cr_expect_eq(count(l, GPU), 1, "the GPU request is on another line");
	cr_assert_eq(count(l, UNUSED), 1);
	const sl_finding *u = find(l, UNUSED);
	cr_expect_eq(u->line, 6);
	cr_expect_str_eq(u->message, "rule " GPU " in this suppression suppressed nothing");
	cr_assert_not_null(u->fix);
	cr_expect_str_eq(u->fix->message, "remove the unused rule ids");
	cr_assert_eq(u->fix->n_edits, 1);
	cr_expect_str_eq(u->fix->edits[0].content, TOL, "the used id and the reason stay");
	done(l);
}

Test(suppress, a_wholly_unused_directive_keeps_its_reason)
{
	lint l = pod("  # schedlint: ignore[" GPU "] owned by the platform team", "", 3);
	cr_assert_eq(count(l, UNUSED), 1);
	const sl_finding *u = find(l, UNUSED);
	cr_expect_str_eq(u->message, "rule " GPU " in this suppression suppressed nothing: remove "
			 "the directive (its reason stays as a comment)");
	cr_assert_not_null(u->fix);
	cr_expect_str_eq(u->fix->edits[0].content, "# ");
	cr_expect_eq(u->fix->edits[0].length, strlen("# schedlint: ignore[" GPU "] "),
		     "up to the reason");
	done(l);

	l = pod(" # schedlint: ignore", "", 3);
	cr_expect_eq(count(l, UNUSED), 0, "a bare ignore that suppressed something is used");
	done(l);
}

Test(suppress, unknown_ids_and_rules_not_run_are_never_removed)
{
	/* node-name-set did not run here: it may suppress something elsewhere; no-such-rule is a
	** typo, unknown-rule-id's business: unused-suppression neither reports nor removes it */
	lint l = pod("  # schedlint: ignore[" TOL ", no-such-rule, node-name-set]", "", 3);
	cr_expect_eq(count(l, TOL), 0);
	cr_expect_eq(count(l, UNUSED), 0);
	done(l);
	l = pod("  # schedlint: ignore[" GPU ", no-such-rule] shared", "", 3);
	cr_assert_eq(count(l, UNUSED), 1);
	const sl_finding *u = find(l, UNUSED);
	cr_assert_not_null(u->fix);
	cr_assert_eq(u->fix->n_edits, 1);
	cr_expect_str_eq(u->fix->edits[0].content, "no-such-rule", "the typo stays");
	done(l);
}

Test(suppress, unknown_id_is_reported_at_itself_with_the_closest_id)
{
	lint l = pod("  # schedlint: ignore[" TOL ", toleration-without-selectr, all]", "", 5);
	cr_expect_eq(count(l, TOL), 0);
	cr_expect_eq(count(l, UNUSED), 0);
	cr_assert_eq(count(l, UNKNOWN), 1, "all and a rule id are known");
	const sl_finding *u = find(l, UNKNOWN);
	cr_expect_str_eq(u->message, "suppression id \"toleration-without-selectr\" names no rule or "
			 "category, so it suppresses nothing; did you mean \"" TOL "\"?");
	cr_expect_eq(u->severity, SL_SEV_WARNING);
	cr_expect_null(u->fix, "no guess is written for the author");
	const char *at = l.text;
	for (unsigned line = 1; line < u->line; line++)
		at = strchr(at, '\n') + 1;
	cr_expect_eq(strncmp(at + u->column - 1, "toleration-without-selectr", 26), 0,
		     "at the id: %u:%u", u->line, u->column);
	done(l);
	l = pod("  # schedlint: ignore[toleration-without-selectr]", "", 3);
	cr_expect_eq(count(l, UNKNOWN), 0, "not selected: not reported");
	cr_expect_eq(count(l, UNUSED), 0, "and never an unused suppression");
	done(l);
}

Test(suppress, yaml_syntax_is_never_hidden)
{
	lint l = run_on("# schedlint: ignore-file\na: [1\n", 4);
	cr_expect_eq(count(l, "yaml-syntax"), 1, "ignore-file does not hide a broken file");
	done(l);
}
