/* SPDX-License-Identifier: Apache-2.0
** fix_props.c: properties every fix must keep, over every fixture and example (and the corpus
** at ../shared/corpus when it exists), with every rule and unsafe fixes on:
**  (a) fixing twice gives the same bytes as fixing once;
**  (b) fixing converges and the fixed text re-lints with no fixable finding left;
**  (c) one round changes nothing outside its edits: the test picks the compatible fixes itself,
**      applies them, and the library's single round must give exactly those bytes; comment
**      lines, a BOM, CRLF line endings and anchors all survive;
**  (d) the fixed text parses to the same documents except at the edited nodes (and the
**      collections around them);
**  (e) a safe fix never introduces a finding (spec/rules.md, "Evidence first"): each fixture
**      case under its own config (a directory case as one run, so cross-file fixes count), and
**      the corpus, one run per repository, under the default config and under one that gives
**      the cluster facts gpu-without-toleration needs, is linted, fixed with the safe fixes
**      only, and the fixed text linted again: no rule's count may rise. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "yaml/edit.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"
#include "support.h"

static sl_config *cfg;

static sl_run *lint_text(const char *path, const char *data, size_t len)
{
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, path, data, len), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK, "%s: lint failed", path);
	return run;
}

/* Fixes fully; returns a malloc'd copy of the result. */
static char *fix_text(const char *path, const char *data, size_t len, size_t *out_len, size_t *applied)
{
	sl_run *run = lint_text(path, data, len);
	sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true};
	bool converged = false;
	cr_assert_eq(sl_run_fix(run, &fo, applied, &converged), SL_OK, "%s: fix failed", path);
	cr_expect(converged, "%s: (b) fixes did not converge", path);
	/* A file that does not parse gets no fix at all (as fmt); otherwise none may remain. */
	bool broken = false;
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		broken |= strcmp(sl_run_finding(run, i)->rule, "yaml-syntax") == 0;
	for (size_t i = 0; i < sl_run_finding_count(run) && !broken; i++) {
		const sl_finding *f = sl_run_finding(run, i);
		cr_expect(!f->fix || f->fix->n_edits == 0, "%s: (b) a fixable %s finding remains at %u:%u",
			  path, f->rule, f->line, f->column);
	}
	const char *t;
	size_t l;
	sl_run_file_text(run, 0, &t, &l, NULL);
	char *copy = malloc(l + 1);
	memcpy(copy, t, l);
	copy[l] = '\0';
	*out_len = l;
	sl_run_free(run);
	return copy;
}

/* --- (d): structural comparison ------------------------------------------------------------ */

struct allow { char **ptrs; size_t n; };

/* True when pointer p is an ancestor of, or equal to, an edited pointer. */
static int allowed(const struct allow *al, const char *p)
{
	size_t n = strlen(p);
	for (size_t i = 0; i < al->n; i++)
		if (strncmp(al->ptrs[i], p, n) == 0 && (al->ptrs[i][n] == '/' || al->ptrs[i][n] == '\0'))
			return 1;
	return 0;
}

static int same_tree(const sl_node *a, const sl_node *b, const struct allow *al, sl_arena *ar,
		     char **where)
{
	if (!a || !b)
		return a == b;
	int eq = a->type == b->type;
	if (eq && a->type == SL_NODE_SCALAR)
		eq = a->u.scalar.len == b->u.scalar.len && memcmp(a->u.scalar.s, b->u.scalar.s, a->u.scalar.len) == 0;
	if (eq && a->type == SL_NODE_SEQ) {
		eq = a->u.seq.n == b->u.seq.n;
		for (size_t i = 0; eq && i < a->u.seq.n; i++)
			if (!same_tree(a->u.seq.items[i], b->u.seq.items[i], al, ar, where))
				return 0;
	}
	if (eq && a->type == SL_NODE_MAP) {
		eq = a->u.map.n == b->u.map.n;
		for (size_t i = 0; eq && i < a->u.map.n; i++) {
			const sl_node *ka = a->u.map.pairs[i].key, *kb = b->u.map.pairs[i].key;
			eq = ka->type == SL_NODE_SCALAR && kb->type == SL_NODE_SCALAR &&
			     strcmp(ka->u.scalar.s, kb->u.scalar.s) == 0;
			if (eq && !same_tree(a->u.map.pairs[i].value, b->u.map.pairs[i].value, al, ar, where))
				return 0;
		}
	}
	if (eq)
		return 1;
	char *p = sl_node_pointer(a, ar);
	if (allowed(al, p ? p : ""))
		return 1;
	*where = p;
	return 0;
}

/* The deepest node whose range holds [off, off+len] (inclusive ends: an insertion just after
** a node belongs to it). */
static const sl_node *deepest(const sl_node *n, size_t off, size_t len)
{
	if (!n || n->type == SL_NODE_ALIAS || off < n->start || off + len > n->end)
		return NULL;
	if (n->type == SL_NODE_MAP) {
		for (size_t i = 0; i < n->u.map.n; i++) {
			const sl_node *d = deepest(n->u.map.pairs[i].value, off, len);
			if (!d)
				d = deepest(n->u.map.pairs[i].key, off, len);
			if (d)
				return d;
		}
	} else if (n->type == SL_NODE_SEQ) {
		for (size_t i = 0; i < n->u.seq.n; i++) {
			const sl_node *d = deepest(n->u.seq.items[i], off, len);
			if (d)
				return d;
		}
	}
	return n;
}

static size_t count_anchors(const sl_node *n)
{
	if (!n || n->type == SL_NODE_ALIAS)
		return 0;
	size_t c = sl_node_anchor(n) != NULL;
	if (n->type == SL_NODE_MAP)
		for (size_t i = 0; i < n->u.map.n; i++)
			c += count_anchors(n->u.map.pairs[i].key) + count_anchors(n->u.map.pairs[i].value);
	else if (n->type == SL_NODE_SEQ)
		for (size_t i = 0; i < n->u.seq.n; i++)
			c += count_anchors(n->u.seq.items[i]);
	return c;
}

/* True when an edit (ranges: offset, length pairs) touches the line [ls, le). */
static int edited(const size_t *ranges, size_t n, size_t ls, size_t le)
{
	for (size_t k = 0; k < n; k++) {
		size_t o = ranges[2 * k], l = ranges[2 * k + 1];
		if (l ? (o < le && o + l > ls) : (o >= ls && o < le))
			return 1;
	}
	return 0;
}

/* Comment lines of a that no edit touches must all appear in b, in order. */
static int comments_kept(const char *a, const char *b, const size_t *ranges, size_t n_ranges)
{
	const char *pa = a, *pb = b;
	while (*pa) {
		const char *nl = strchr(pa, '\n');
		size_t n = nl ? (size_t)(nl - pa) : strlen(pa);
		size_t i = 0;
		while (i < n && (pa[i] == ' ' || pa[i] == '\t'))
			i++;
		size_t ls = (size_t)(pa - a);
		if (i < n && pa[i] == '#' && !edited(ranges, n_ranges, ls, ls + n)) {
			const char *hit = NULL;
			for (const char *q = pb; (q = strstr(q, "#")) != NULL; q++) {
				if (strncmp(q, pa + i, n - i) == 0) {
					hit = q;
					break;
				}
			}
			if (!hit)
				return 0;
			pb = hit + (n - i);
		}
		pa = nl ? nl + 1 : pa + n;
	}
	return 1;
}

static void check_file(const char *path)
{
	size_t len, l1, l2, applied = 0, again = 0;
	char *orig = sl_test_slurp(path, &len);
	cr_assert(orig, "cannot read %s", path);
	/* (a), (b) */
	char *once = fix_text(path, orig, len, &l1, &applied);
	char *twice = fix_text(path, once, l1, &l2, &again);
	cr_expect(l1 == l2 && memcmp(once, twice, l1) == 0, "%s: (a) fixing twice differs from once", path);
	cr_expect_eq(again, 0, "%s: (a) fixing the fixed text applied %zu fixes", path, again);
	free(twice);
	if (applied == 0) {
		cr_expect(l1 == len && memcmp(once, orig, len) == 0, "%s: changed without a fix", path);
		free(once);
		free(orig);
		return;
	}
	/* (c): one round, the compatible fixes picked here in finding order. */
	sl_run *run = lint_text(path, orig, len);
	const sl_edit **acc = malloc(sizeof *acc * 4096);
	size_t n_acc = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_fix *fx = sl_run_finding(run, i)->fix;
		if (!fx)
			continue;
		int ok = 1;
		for (size_t j = 0; j < fx->n_edits && ok; j++) {
			for (size_t k = 0; k < j && ok; k++)
				ok = !sl_edit_overlap(&fx->edits[j], &fx->edits[k]);
			for (size_t k = 0; k < n_acc && ok; k++)
				ok = !sl_edit_overlap(&fx->edits[j], acc[k]);
		}
		for (size_t j = 0; ok && j < fx->n_edits && n_acc < 4096; j++)
			acc[n_acc++] = &fx->edits[j];
	}
	char *mine = NULL;
	size_t mine_len = 0;
	cr_assert_eq(sl_edit_apply(orig, len, acc, n_acc, &mine, &mine_len), SL_OK, "%s: (c) edits invalid", path);
	/* The edits live in the run's arenas, which fixing replaces: keep their ranges, and the
	** places where a "---" line splits a document in two (duplicate-key's missing separator). */
	size_t *ranges = malloc(2 * (n_acc + 1) * sizeof *ranges);
	size_t *seps = malloc((n_acc + 1) * sizeof *seps), n_seps = 0;
	for (size_t k = 0; k < n_acc; k++) {
		ranges[2 * k] = acc[k]->offset;
		ranges[2 * k + 1] = acc[k]->length;
		if (acc[k]->length == 0 && (strcmp(acc[k]->content, "---\n") == 0 ||
					    strcmp(acc[k]->content, "---\r\n") == 0))
			seps[n_seps++] = acc[k]->offset;
	}
	sl_fix_options one = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = true, .max_passes = 1};
	cr_assert_eq(sl_run_fix(run, &one, NULL, NULL), SL_OK);
	const char *lib;
	size_t lib_len;
	sl_run_file_text(run, 0, &lib, &lib_len, NULL);
	cr_expect(lib_len == mine_len && memcmp(lib, mine, mine_len) == 0,
		  "%s: (c) one round changed bytes outside the chosen edits", path);
	cr_expect(comments_kept(orig, mine, ranges, n_acc), "%s: (c) a comment line no edit touched was lost",
		  path);
	if (len >= 3 && memcmp(orig, "\xEF\xBB\xBF", 3) == 0)
		cr_expect(l1 >= 3 && memcmp(once, "\xEF\xBB\xBF", 3) == 0, "%s: (c) BOM lost", path);
	if (strstr(orig, "\r\n")) {
		int lf_only = 0;
		for (size_t i = 0; i < l1; i++)
			if (once[i] == '\n' && (i == 0 || once[i - 1] != '\r'))
				lf_only = 1;
		int orig_lf_only = 0;
		for (size_t i = 0; i < len; i++)
			if (orig[i] == '\n' && (i == 0 || orig[i - 1] != '\r'))
				orig_lf_only = 1;
		cr_expect(orig_lf_only || !lf_only, "%s: (c) a CRLF file got LF line endings", path);
	}
	/* (d) */
	sl_source *sa = NULL, *sb = NULL;
	cr_assert_eq(sl_source_from_buffer(path, orig, len, &sa), SL_OK);
	cr_assert_eq(sl_source_from_buffer(path, mine, mine_len, &sb), SL_OK);
	sl_arena *ar = sl_arena_new();
	sl_tree ta, tb;
	cr_assert_eq(sl_tree_parse(sa, ar, &ta, NULL, NULL), SL_OK);
	cr_assert_eq(sl_tree_parse(sb, ar, &tb, NULL, NULL), SL_OK);
	cr_expect_eq(ta.n_docs + n_seps, tb.n_docs, "%s: (d) document count changed (%zu separators "
		     "inserted)", path, n_seps);
	struct allow al = {calloc(n_acc * ta.n_docs + 1, sizeof(char *)), 0};
	for (size_t k = 0; k < n_acc; k++) {
		for (size_t d = 0; d < ta.n_docs; d++) {
			/* A whole-line removal spills past its collection; the blanks and breaks
			** around it are not what the edit is about. */
			size_t o = ranges[2 * k], l = ranges[2 * k + 1];
			while (l > 0 && (orig[o] == ' ' || orig[o] == '\t')) {
				o++;
				l--;
			}
			while (l > 0 && strchr("\r\n \t", orig[o + l - 1]))
				l--;
			const sl_node *hit = deepest(ta.docs[d]->root, o, l);
			if (hit)
				al.ptrs[al.n++] = sl_node_pointer(hit, ar);
		}
	}
	for (size_t d = 0, e = 0; d < ta.n_docs && e < tb.n_docs; d++) {
		char *where = NULL;
		size_t splits = 0;
		for (size_t k = 0; k < n_seps; k++)
			splits += seps[k] > ta.docs[d]->start && seps[k] < ta.docs[d]->end;
		if (splits) {
			/* a document split by "---" lines: its root's pairs, in order, are the pairs of
			** the documents it became */
			const sl_node *ra = ta.docs[d]->root;
			size_t pi = 0;
			for (size_t x = e; x <= e + splits && x < tb.n_docs; x++) {
				const sl_node *rb = tb.docs[x]->root;
				cr_assert(ra && rb && ra->type == SL_NODE_MAP && rb->type == SL_NODE_MAP,
					  "%s: (d) a split document is not a mapping", path);
				for (size_t q = 0; q < rb->u.map.n; q++, pi++) {
					cr_assert_lt(pi, ra->u.map.n, "%s: (d) document %zu gained keys", path, d);
					const sl_pair *pa = &ra->u.map.pairs[pi], *pb = &rb->u.map.pairs[q];
					cr_expect(strcmp(pa->key->u.scalar.s, pb->key->u.scalar.s) == 0 &&
						  same_tree(pa->value, pb->value, &(struct allow){NULL, 0}, ar,
							    &where),
						  "%s: (d) split document %zu differs at key %zu", path, d, pi);
				}
			}
			cr_expect_eq(pi, ra->u.map.n, "%s: (d) split document %zu lost keys", path, d);
			e += splits + 1;
			continue;
		}
		cr_expect(same_tree(ta.docs[d]->root, tb.docs[e]->root, &al, ar, &where),
			  "%s: (d) document %zu differs at %s, which no edit touched", path, d,
			  where ? where : "?");
		cr_expect_eq(count_anchors(ta.docs[d]->root), count_anchors(tb.docs[e]->root),
			     "%s: (c) an anchor was lost in document %zu", path, d);
		e++;
	}
	free(al.ptrs);
	sl_arena_free(ar);
	sl_source_free(sa);
	sl_source_free(sb);
	free(mine);
	free(ranges);
	free(seps);
	free(acc);
	sl_run_free(run);
	free(once);
	free(orig);
}

/* --- (e): safe fixes introduce no finding --------------------------------------------------- */

/* Findings per rule id, in a small table. */
struct counts { const char *rule[128]; size_t n[128]; size_t len; };

static void count(struct counts *c, const char *rule)
{
	for (size_t i = 0; i < c->len; i++)
		if (strcmp(c->rule[i], rule) == 0) {
			c->n[i]++;
			return;
		}
	cr_assert_lt(c->len, 128);
	c->rule[c->len] = rule;   /* rule ids are the registry's static strings */
	c->n[c->len++] = 1;
}

static size_t count_of(const struct counts *c, const char *rule)
{
	for (size_t i = 0; i < c->len; i++)
		if (strcmp(c->rule[i], rule) == 0)
			return c->n[i];
	return 0;
}

/* Lints paths under conf, applies the safe fixes, lints the fixed texts afresh: no rule may have
** more findings after than before. Returns the number of safe fixes applied. */
static size_t check_safe(const sl_config *conf, const char *const *paths, size_t n_paths,
			 const char *what)
{
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(conf, NULL, &run, NULL), SL_OK);
	for (size_t i = 0; i < n_paths; i++)
		cr_assert_eq(sl_run_add_path(run, paths[i]), SL_OK, "%s", paths[i]);
	cr_assert_eq(sl_run_lint(run), SL_OK, "%s: lint failed", what);
	struct counts before = {0}, after = {0};
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		count(&before, sl_run_finding(run, i)->rule);
	sl_fix_options safe = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = false};
	size_t applied = 0;
	cr_assert_eq(sl_run_fix(run, &safe, &applied, NULL), SL_OK, "%s: fix failed", what);
	sl_run *again = NULL;
	cr_assert_eq(sl_run_new(conf, NULL, &again, NULL), SL_OK);
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi = SL_FILE_INFO_INIT;
		sl_run_file(run, i, &fi);
		const char *t;
		size_t l;
		sl_run_file_text(run, i, &t, &l, NULL);
		if (!fi.error)
			cr_assert_eq(sl_run_add_buffer(again, fi.path, t, l), SL_OK);
	}
	cr_assert_eq(sl_run_lint(again), SL_OK, "%s: lint of the fixed text failed", what);
	for (size_t i = 0; i < sl_run_finding_count(again); i++)
		count(&after, sl_run_finding(again, i)->rule);
	for (size_t i = 0; i < after.len; i++) {
		size_t b = count_of(&before, after.rule[i]);
		if (after.n[i] <= b)
			continue;
		/* name the first new finding, so the failure says where to look */
		const sl_finding *first = NULL;
		for (size_t k = 0; k < sl_run_finding_count(again) && !first; k++)
			if (strcmp(sl_run_finding(again, k)->rule, after.rule[i]) == 0)
				first = sl_run_finding(again, k);
		cr_expect(false, "%s: (e) safe fixes raised %s from %zu to %zu findings (e.g. %s:%u:%u: "
			  "%s)", what, after.rule[i], b, after.n[i], first->path, first->line,
			  first->column, first->message);
	}
	sl_run_free(again);
	sl_run_free(run);
	return applied;
}

/* The config a fixture case runs under, as tests/golden.c finds it: <case>.config.yaml beside
** it, else the rule directory's config.yaml, else the defaults. */
static sl_config *case_config(const char *rule_dir, const char *case_dir, const char *stem)
{
	char p[4096];
	snprintf(p, sizeof p, "%s/%s.config.yaml", case_dir, stem);
	struct stat st;
	if (stat(p, &st) != 0)
		snprintf(p, sizeof p, "%s/config.yaml", rule_dir);
	sl_config *c = NULL;
	if (stat(p, &st) == 0)
		cr_assert_eq(sl_config_load(p, &c, NULL), SL_OK, "%s", p);
	else
		cr_assert_eq(sl_config_new_default(&c), SL_OK);
	return c;
}

/* Every case of every rule's fixtures: testdata/rules/<id>/{bad,ok}/<case>(.yaml|/). */
static size_t safe_fixtures(size_t *applied)
{
	size_t cases = 0;
	DIR *rules = opendir("testdata/rules");
	cr_assert(rules);
	struct dirent *r;
	while ((r = readdir(rules))) {
		if (r->d_name[0] == '.')
			continue;
		char rule_dir[1024];
		snprintf(rule_dir, sizeof rule_dir, "testdata/rules/%s", r->d_name);
		for (int kind = 0; kind < 2; kind++) {
			char case_dir[2048];
			snprintf(case_dir, sizeof case_dir, "%s/%s", rule_dir, kind ? "ok" : "bad");
			DIR *d = opendir(case_dir);
			if (!d)
				continue;
			struct dirent *de;
			while ((de = readdir(d))) {
				const char *n = de->d_name;
				size_t l = strlen(n);
				char p[4096], stem[1024];
				snprintf(p, sizeof p, "%s/%s", case_dir, n);
				struct stat st;
				if (n[0] == '.' || stat(p, &st) != 0)
					continue;
				if (S_ISDIR(st.st_mode)) {
					if (l > 6 && strcmp(n + l - 6, ".fixed") == 0)
						continue;
					snprintf(stem, sizeof stem, "%s", n);
				} else if (l > 5 && strcmp(n + l - 5, ".yaml") == 0 &&
					   !strstr(n, ".fixed.yaml") && !strstr(n, ".config.yaml")) {
					snprintf(stem, sizeof stem, "%.*s", (int)(l - 5), n);
				} else {
					continue;
				}
				sl_config *c = case_config(rule_dir, case_dir, stem);
				const char *paths[] = {p};
				*applied += check_safe(c, paths, 1, p);
				sl_config_free(c);
				cases++;
			}
			closedir(d);
		}
	}
	closedir(rules);
	return cases;
}

Test(fix_props, safe_fixes_add_no_finding_fixtures)
{
	size_t applied = 0;
	size_t cases = safe_fixtures(&applied);
	cr_log_info("%zu cases, %zu safe fixes", cases, applied);
	cr_expect_gt(cases, 300);
	cr_expect_gt(applied, 20);
	sl_config *c = NULL;
	cr_assert_eq(sl_config_new_default(&c), SL_OK);
	const char *examples[] = {"testdata/examples", "testdata/e2e"};
	check_safe(c, examples, 2, "testdata/examples + testdata/e2e");
	sl_config_free(c);
}

Test(fix_props, safe_fixes_add_no_finding_corpus)
{
	struct stat st;
	if (stat("../shared/corpus", &st) != 0) {
		sl_test_note("skipped: ../shared/corpus is absent (a clone without the team's ../shared)");
		cr_skip_test("../shared/corpus is absent (a fresh clone has none)");
	}
	static const char evidence[] =
		"cluster:\n  gpu-nodes-tainted: true\n  extended-resource-toleration: false\n";
	char tmpl[256];
	sl_test_scratch(tmpl, sizeof tmpl, "fixprops");
	char cpath[512];
	snprintf(cpath, sizeof cpath, "%s/.schedlint.yaml", tmpl);
	sl_test_spit(cpath, evidence, sizeof evidence - 1);
	sl_config *configs[2] = {NULL, NULL};
	cr_assert_eq(sl_config_new_default(&configs[0]), SL_OK);
	cr_assert_eq(sl_config_load(cpath, &configs[1], NULL), SL_OK);
	size_t applied = 0, repos = 0;
	DIR *d = opendir("../shared/corpus");
	cr_assert(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		char p[1024];
		snprintf(p, sizeof p, "../shared/corpus/%s", de->d_name);
		if (de->d_name[0] == '.' || stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		const char *paths[] = {p};
		for (int k = 0; k < 2; k++) {
			char what[1100];
			snprintf(what, sizeof what, "%s (%s config)", p, k ? "evidence" : "default");
			applied += check_safe(configs[k], paths, 1, what);
		}
		repos++;
	}
	closedir(d);
	cr_log_info("%zu repositories, %zu safe fixes", repos, applied);
	cr_expect_geq(repos, 3);
	cr_expect_gt(applied, 0);
	sl_config_free(configs[0]);
	sl_config_free(configs[1]);
	unlink(cpath);
	rmdir(tmpl);
}

static size_t walk(const char *dir, int fixtures_only)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) != 0)
			continue;
		size_t l = strlen(de->d_name);
		if (S_ISDIR(st.st_mode)) {
			if (!(l > 6 && strcmp(de->d_name + l - 6, ".fixed") == 0))
				n += walk(p, fixtures_only);
		} else if (l > 5 && strcmp(de->d_name + l - 5, ".yaml") == 0 &&
			   !strstr(de->d_name, ".fixed.yaml") && !strstr(de->d_name, ".config.yaml") &&
			   !(fixtures_only && strcmp(de->d_name, "config.yaml") == 0)) {
			check_file(p);
			n++;
		}
	}
	closedir(d);
	return n;
}

static void setup(void)
{
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
}

static void teardown(void)
{
	sl_config_free(cfg);
}

Test(fix_props, fixtures_and_examples, .init = setup, .fini = teardown)
{
	size_t n = walk("testdata/rules", 1) + walk("testdata/examples", 0) + walk("testdata/fuzz", 0);
	cr_log_info("%zu files", n);
	cr_expect_gt(n, 10);
}

Test(fix_props, corpus, .init = setup, .fini = teardown)
{
	struct stat st;
	if (stat("../shared/corpus", &st) != 0) {
		sl_test_note("skipped: ../shared/corpus is absent (a clone without the team's ../shared)");
		cr_skip_test("../shared/corpus is absent (a fresh clone has none)");
	}
	size_t n = walk("../shared/corpus", 0);
	cr_log_info("%zu corpus files", n);
	cr_expect_gt(n, 900);
}
