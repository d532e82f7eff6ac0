/* SPDX-License-Identifier: Apache-2.0
** fix_props.c: properties every fix must keep, over every fixture and example (and the corpus
** at ../shared/corpus when it exists), with every rule and unsafe fixes on:
**  (a) fixing twice gives the same bytes as fixing once;
**  (b) fixing converges and the fixed text re-lints with no fixable finding left;
**  (c) one round changes nothing outside its edits: the test picks the compatible fixes itself,
**      applies them, and the library's single round must give exactly those bytes; comment
**      lines, a BOM, CRLF line endings and anchors all survive;
**  (d) the fixed text parses to the same documents except at the edited nodes (and the
**      collections around them). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"
#include "fix.h"
#include "source.h"
#include "yaml_tree.h"
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
	sl_fix_options fo = {.unsafe = true};
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
				ok = !sl_edits_overlap(&fx->edits[j], &fx->edits[k]);
			for (size_t k = 0; k < n_acc && ok; k++)
				ok = !sl_edits_overlap(&fx->edits[j], acc[k]);
		}
		for (size_t j = 0; ok && j < fx->n_edits && n_acc < 4096; j++)
			acc[n_acc++] = &fx->edits[j];
	}
	char *mine = NULL;
	size_t mine_len = 0;
	cr_assert_eq(sl_edits_apply(orig, len, acc, n_acc, &mine, &mine_len), SL_OK, "%s: (c) edits invalid", path);
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
	sl_fix_options one = {.unsafe = true, .max_passes = 1};
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

Test(fix_props, corpus, .init = setup, .fini = teardown, .timeout = 600)
{
	struct stat st;
	if (stat("../shared/corpus", &st) != 0)
		cr_skip_test("../shared/corpus is absent (a fresh clone has none)");
	size_t n = walk("../shared/corpus", 0);
	cr_log_info("%zu corpus files", n);
	cr_expect_gt(n, 900);
}
