/* SPDX-License-Identifier: Apache-2.0
** test_affinity.c: node affinity matching, validation and satisfiability (src/k8s/affinity.c)
** against testdata/k8s/affinity.tsv; the column mini-syntax is described in that file. */
#include "table.c"
#include "k8s/affinity.h"

#define MAXT 8
#define MAXR 8
#define MAXV 8
#define MAXL 16

/* Everything one row parses into; strings point into text. */
typedef struct parsed {
	char text[4096];
	sl_label labels[MAXL];
	size_t n_labels;
	sl_label sel[MAXL];
	size_t n_sel;
	sl_k8s_str values[MAXT][2 * MAXR][MAXV];
	sl_requirement exprs[MAXT][MAXR], fields[MAXT][MAXR];
	sl_selector_term terms[MAXT];
	size_t n_terms;
	char *cur;
} parsed;

static char *keep(parsed *p, const char *s, size_t n)
{
	char *o = p->cur;
	cr_assert((size_t)(p->cur - p->text) + n + 1 < sizeof p->text, "row too long");
	for (size_t i = 0; i < n; i++)
		o[i] = s[i] == '~' ? ' ' : s[i];
	o[n] = '\0';
	p->cur += n + 1;
	return o;
}

static sl_k8s_str str_of(const char *s)
{
	if (!strcmp(s, "<empty>"))
		return sl_k8s_cstr("");
	return sl_k8s_cstr(s);
}

/* "k=v,k2=v2" */
static size_t parse_pairs(parsed *p, const char *s, sl_label *out)
{
	size_t n = 0;
	while (*s) {
		const char *comma = strchr(s, ','), *end = comma ? comma : s + strlen(s);
		const char *eq = memchr(s, '=', (size_t)(end - s));
		cr_assert(eq && n < MAXL, "bad pair list");
		out[n].key = sl_k8s_cstr(keep(p, s, (size_t)(eq - s)));
		out[n].value = sl_k8s_cstr(keep(p, eq + 1, (size_t)(end - eq - 1)));
		n++;
		s = comma ? comma + 1 : end;
	}
	return n;
}

/* "key Op v1,v2" into r (values stored in vals). Returns true for a matchFields entry. */
static bool parse_req(parsed *p, const char *s, size_t len, sl_requirement *r, sl_k8s_str *vals)
{
	char *tok = keep(p, s, len), *key, *op, *values;
	bool field = false;
	/* keep() turned '~' into spaces already: split on the original spaces */
	char raw[512];
	snprintf(raw, sizeof raw, "%.*s", (int)len, s);
	key = strtok(raw, " ");
	op = strtok(NULL, " ");
	values = strtok(NULL, " ");
	cr_assert(key && op, "bad requirement %s", tok);
	if (key[0] == '@') {
		field = true;
		key++;
	}
	r->key = str_of(keep(p, key, strlen(key)));
	r->op = str_of(keep(p, op, strlen(op)));
	r->values = vals;
	r->n_values = 0;
	if (values) {
		char *v = keep(p, values, strlen(values));
		for (char *c = strtok(v, ","); c; c = strtok(NULL, ",")) {
			cr_assert(r->n_values < MAXV);
			vals[r->n_values++] = str_of(c);
		}
	}
	return field;
}

static void parse_requirement_only(parsed *p, const char *s, sl_requirement *r, bool *field)
{
	p->cur = p->text;
	*field = parse_req(p, s, strlen(s), r, p->values[0][0]);
}

/* The terms column into p->terms. */
static void parse_terms(parsed *p, const char *s)
{
	size_t t = 0;
	while (*s) {
		const char *bar = strstr(s, " | "), *end = bar ? bar : s + strlen(s);
		sl_selector_term *term = &p->terms[t];
		size_t ne = 0, nf = 0, k = 0;
		cr_assert(t < MAXT);
		memset(term, 0, sizeof *term);
		if (!(end - s == 2 && !strncmp(s, "{}", 2))) {
			const char *q = s;
			while (q < end) {
				const char *amp = strstr(q, " & ");
				const char *e2 = amp && amp < end ? amp : end;
				sl_requirement r;
				bool field = parse_req(p, q, (size_t)(e2 - q), &r, p->values[t][k++]);
				if (field)
					p->fields[t][nf++] = r;
				else
					p->exprs[t][ne++] = r;
				q = e2 == end ? end : e2 + 3;
			}
		}
		term->exprs = p->exprs[t];
		term->n_exprs = ne;
		term->fields = p->fields[t];
		term->n_fields = nf;
		t++;
		s = bar ? bar + 3 : end;
	}
	p->n_terms = t;
}

static void expect_problems(const row *r, const sl_k8s_problem *p, size_t n, const char *want)
{
	char got[8192];
	size_t k = 0, used = 0;
	const char *w = want;
	got[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof got; i++)
		used += (size_t)snprintf(got + used, sizeof got - used, "%s%s/%s", i ? " | " : "",
					 sl_k8s_field_name(p[i].field), p[i].message);
	if (!strcmp(want, "ok")) {
		cr_expect(n == 0, "affinity.tsv:%d: expected no problem, got: %s", r->line, got);
		return;
	}
	while (*w) {
		const char *e = strstr(w, " | ");
		char one[1024], f1[64];
		size_t len = e ? (size_t)(e - w) : strlen(w);
		snprintf(one, sizeof one, "%.*s", (int)len, w);
		cr_assert(sscanf(one, "%63[^/]/", f1) == 1, "affinity.tsv:%d: bad spec", r->line);
		cr_expect(k < n && !strcmp(sl_k8s_field_name(p[k].field), f1) &&
			  tbl_msg_ok(one + strlen(f1) + 1, p[k].message),
			  "affinity.tsv:%d: problem %zu\n got: %s\nwant: %s", r->line, k, got, want);
		k++;
		if (!e)
			break;
		w = e + 3;
	}
	cr_expect(k == n, "affinity.tsv:%d: %zu problems, want %zu: %s", r->line, n, k, got);
}

Test(affinity, table)
{
	static parsed p;
	table t = tbl_load("affinity.tsv");
	for (size_t i = 0; i < t.n; i++) {
		const row *r = &t.rows[i];
		const char *kind = tbl_f(r, 0);
		memset(&p, 0, sizeof p);
		p.cur = p.text;
		if (!strcmp(kind, "match")) {
			sl_node_labels node;
			sl_node_affinity a;
			p.n_labels = parse_pairs(&p, r->f[3], p.labels);
			p.n_sel = parse_pairs(&p, r->f[5], p.sel);
			node.labels = p.labels;
			node.n_labels = p.n_labels;
			node.has_name = !r->null[4];
			node.name = sl_k8s_cstr(r->f[4]);
			a.selector = p.sel;
			a.n_selector = p.n_sel;
			a.has_required = !r->null[6];
			if (a.has_required)
				parse_terms(&p, r->f[6]);
			a.terms = p.terms;
			a.n_terms = p.n_terms;
			cr_expect(sl_k8s_node_affinity_matches(&a, &node) == (atoi(r->f[2]) != 0),
				  "affinity.tsv:%d: match: %s", r->line, r->f[1]);
			/* a node that matches proves the affinity satisfiable */
			if (atoi(r->f[2]))
				cr_expect(sl_k8s_node_affinity_satisfiable(&a, NULL, 0),
					  "affinity.tsv:%d: matched but judged unsatisfiable", r->line);
		} else if (!strcmp(kind, "builds")) {
			sl_requirement q;
			bool field;
			char msg[2048];
			parse_requirement_only(&p, r->f[1], &q, &field);
			bool ok = sl_k8s_requirement_builds(&q, atoi(r->f[2]) != 0, msg, sizeof msg);
			if (!strcmp(r->f[3], "ok"))
				cr_expect(ok, "affinity.tsv:%d: does not build: %s", r->line, msg);
			else
				cr_expect(!ok && tbl_msg_ok(r->f[3], msg),
					  "affinity.tsv:%d: builds\n got: %s\nwant: %s", r->line,
					  ok ? "(builds)" : msg, r->f[3]);
		} else if (!strcmp(kind, "validate") || !strcmp(kind, "validate-field")) {
			sl_requirement q;
			bool field;
			sl_k8s_problem probs[8];
			size_t n;
			parse_requirement_only(&p, r->f[1], &q, &field);
			if (kind[8] == '-')
				n = sl_k8s_field_requirement_validate(&q, probs, 8);
			else
				n = sl_k8s_requirement_validate(&q, atoi(r->f[2]) != 0, probs, 8);
			cr_assert(n <= 8);
			expect_problems(r, probs, n, kind[8] == '-' ? r->f[2] : r->f[3]);
		} else if (!strcmp(kind, "sat")) {
			sl_node_affinity a;
			char why[2048];
			bool ok;
			p.n_sel = parse_pairs(&p, r->f[3], p.sel);
			a.selector = p.sel;
			a.n_selector = p.n_sel;
			a.has_required = !r->null[4];
			if (a.has_required)
				parse_terms(&p, r->f[4]);
			a.terms = p.terms;
			a.n_terms = p.n_terms;
			ok = sl_k8s_node_affinity_satisfiable(&a, why, sizeof why);
			cr_expect(ok == (atoi(r->f[2]) != 0), "affinity.tsv:%d: sat: %s (why: %s)",
				  r->line, r->f[1], why);
			if (!ok && r->nf > 5)
				cr_expect(tbl_msg_ok(r->f[5], why), "affinity.tsv:%d: why\n got: %s\nwant: %s",
					  r->line, why, r->f[5]);
		} else if (!strcmp(kind, "fix-op")) {
			const char *got = sl_k8s_selector_operator_fix(r->f[1], r->len[1]);
			cr_expect(r->null[2] ? got == NULL : (got && !strcmp(got, r->f[2])),
				  "affinity.tsv:%d: fix-op(\"%s\") = %s", r->line, r->f[1],
				  got ? got : "NULL");
		} else {
			cr_assert_fail("affinity.tsv:%d: unknown kind %s", r->line, kind);
		}
	}
	tbl_free(&t);
}
