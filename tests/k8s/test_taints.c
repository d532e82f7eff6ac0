/* SPDX-License-Identifier: Apache-2.0
** test_taints.c: toleration matching, toleration validation, kubectl taint parsing and the
** case fixes (src/k8s/taints.c) against testdata/k8s/taints.tsv. */
#include "table.c"
#include "k8s/taints.h"

static sl_k8s_str view(const row *r, int i)
{
	sl_k8s_str v = { r->f[i], r->len[i] };
	return v;
}

/* Checks problems against "field/api/message | ...", or "ok". */
static void expect_problems(const row *r, const sl_k8s_problem *p, size_t n, const char *want)
{
	char got[8192];
	size_t k = 0, used = 0;
	const char *w = want;
	got[0] = '\0';
	for (size_t i = 0; i < n && used < sizeof got; i++)
		used += (size_t)snprintf(got + used, sizeof got - used, "%s%s/%s/%s", i ? " | " : "",
					 sl_k8s_field_name(p[i].field), sl_k8s_field_name(p[i].api_field),
					 p[i].message);
	if (!strcmp(want, "ok")) {
		cr_expect(n == 0, "taints.tsv:%d: expected no problem, got: %s", r->line, got);
		return;
	}
	while (*w) {
		const char *e = strstr(w, " | ");
		char one[1024], f1[64], f2[64];
		const char *msg;
		size_t len = e ? (size_t)(e - w) : strlen(w);
		snprintf(one, sizeof one, "%.*s", (int)len, w);
		cr_assert(sscanf(one, "%63[^/]/%63[^/]/", f1, f2) == 2, "taints.tsv:%d: bad spec",
			  r->line);
		msg = one + strlen(f1) + strlen(f2) + 2;
		cr_expect(k < n && !strcmp(sl_k8s_field_name(p[k].field), f1) &&
			  !strcmp(sl_k8s_field_name(p[k].api_field), f2) && tbl_msg_ok(msg, p[k].message),
			  "taints.tsv:%d: problem %zu\n got: %s\nwant: %s", r->line, k, got, want);
		k++;
		if (!e)
			break;
		w = e + 3;
	}
	cr_expect(k == n, "taints.tsv:%d: %zu problems, want %zu: %s", r->line, n, k, got);
}

Test(taints, table)
{
	table t = tbl_load("taints.tsv");
	for (size_t i = 0; i < t.n; i++) {
		const row *r = &t.rows[i];
		const char *kind = tbl_f(r, 0);
		if (!strcmp(kind, "tolerates")) {
			sl_toleration tol = { view(r, 1), view(r, 2), view(r, 3), view(r, 4), false, 0 };
			sl_taint taint = { view(r, 5), view(r, 6), view(r, 7) };
			bool got = sl_k8s_toleration_tolerates(&tol, &taint, atoi(r->f[8]) != 0);
			cr_expect(got == (atoi(r->f[9]) != 0), "taints.tsv:%d: tolerates: %s", r->line,
				  tbl_f(r, 10));
		} else if (!strcmp(kind, "compare")) {
			sl_toleration tol = { sl_k8s_cstr("k"), view(r, 1), view(r, 2), sl_k8s_cstr(""),
					      false, 0 };
			sl_taint taint = { sl_k8s_cstr("k"), view(r, 3), sl_k8s_cstr("NoSchedule") };
			bool got = sl_k8s_toleration_tolerates(&tol, &taint, true);
			cr_expect(got == (atoi(r->f[4]) != 0), "taints.tsv:%d: compare %s: %s", r->line,
				  r->f[1], tbl_f(r, 5));
		} else if (!strcmp(kind, "parse")) {
			sl_taint taint;
			char msg[2048];
			bool ok = sl_k8s_taint_parse(r->f[1], r->len[1], &taint, msg, sizeof msg);
			if (!strcmp(r->f[2], "ok")) {
				cr_expect(ok && sl_k8s_str_eq(taint.key, view(r, 3)) &&
					  sl_k8s_str_eq(taint.value, view(r, 4)) &&
					  sl_k8s_str_eq(taint.effect, view(r, 5)),
					  "taints.tsv:%d: parse \"%s\" failed or differs: %s", r->line,
					  r->f[1], ok ? "" : msg);
			} else {
				cr_expect(!ok && tbl_msg_ok(r->f[3], msg),
					  "taints.tsv:%d: parse \"%s\"\n got: %s\nwant: %s", r->line, r->f[1],
					  ok ? "(accepted)" : msg, r->f[3]);
			}
		} else if (!strcmp(kind, "validate")) {
			sl_toleration tol = { view(r, 1), view(r, 2), view(r, 3), view(r, 4),
					      !r->null[5], r->null[5] ? 0 : atoll(r->f[5]) };
			sl_k8s_problem p[8];
			size_t n = sl_k8s_toleration_validate(&tol, atoi(r->f[6]) != 0, p, 8);
			cr_assert(n <= 8);
			expect_problems(r, p, n, r->f[7]);
			cr_expect(sl_k8s_toleration_validate(&tol, atoi(r->f[6]) != 0, NULL, 0) == n,
				  "taints.tsv:%d: count without output", r->line);
		} else if (!strcmp(kind, "format")) {
			sl_taint taint = { view(r, 1), view(r, 2), view(r, 3) };
			char buf[256];
			sl_k8s_taint_format(&taint, buf, sizeof buf);
			cr_expect(!strcmp(buf, r->f[4]), "taints.tsv:%d: format = \"%s\", want \"%s\"",
				  r->line, buf, r->f[4]);
		} else if (!strcmp(kind, "fix-effect") || !strcmp(kind, "fix-op")) {
			bool op = kind[4] == 'o';
			const char *got = op ? sl_k8s_toleration_operator_fix(r->f[1], r->len[1],
									  atoi(r->f[2]) != 0) :
				     sl_k8s_taint_effect_fix(r->f[1], r->len[1]);
			int wi = op ? 3 : 2;
			cr_expect(r->null[wi] ? got == NULL : (got && !strcmp(got, r->f[wi])),
				  "taints.tsv:%d: %s(\"%s\") = %s", r->line, kind, r->f[1],
				  got ? got : "NULL");
		} else {
			cr_assert_fail("taints.tsv:%d: unknown kind %s", r->line, kind);
		}
	}
	tbl_free(&t);
}
