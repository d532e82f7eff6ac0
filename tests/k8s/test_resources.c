/* SPDX-License-Identifier: Apache-2.0
** test_resources.c: resource-name classification and container resource rules
** (src/k8s/resources.c) against testdata/k8s/resources.tsv. */
#include "table.c"
#include "k8s/resources.h"

static sl_quantity q_of(const row *r, int i)
{
	sl_quantity q;
	cr_assert(sl_quantity_parse(r->f[i], r->len[i], &q) == SL_QUANTITY_OK,
		  "resources.tsv:%d: bad quantity %s", r->line, r->f[i]);
	return q;
}

Test(resources, table)
{
	table t = tbl_load("resources.tsv");
	for (size_t i = 0; i < t.n; i++) {
		const row *r = &t.rows[i];
		const char *kind = tbl_f(r, 0), *s = r->f[1];
		size_t n = r->len[1];
		char msg[2048];
		int k;
		if (!strcmp(kind, "class")) {
			bool got[7] = {
				sl_k8s_is_native_resource(s, n), sl_k8s_is_extended_resource(s, n),
				sl_k8s_is_hugepages_resource(s, n), sl_k8s_is_overcommit_allowed(s, n),
				sl_k8s_is_standard_container_resource(s, n),
				sl_k8s_is_standard_resource(s, n), sl_k8s_is_integer_resource(s, n)
			};
			static const char *const what[7] = { "native", "extended", "hugepages",
				"overcommit", "std-container", "std", "integer" };
			for (int j = 0; j < 7; j++)
				cr_expect(got[j] == (atoi(r->f[2 + j]) != 0), "resources.tsv:%d: %s(%s) = %d",
					  r->line, what[j], s, got[j]);
			continue;
		}
		if (!strcmp(kind, "name")) {
			k = sl_k8s_check_container_resource_name(s, n, msg, sizeof msg);
		} else if (!strcmp(kind, "quantity")) {
			sl_quantity q = q_of(r, 2);
			k = sl_k8s_check_resource_quantity(s, n, &q, msg, sizeof msg);
		} else if (!strcmp(kind, "reqlim")) {
			sl_quantity a = q_of(r, 2), b = q_of(r, 3);
			k = sl_k8s_check_request_limit(s, n, &a, &b, r->f[3], r->len[3], msg, sizeof msg);
		} else {
			cr_assert_fail("resources.tsv:%d: unknown kind %s", r->line, kind);
			continue;
		}
		const char *want = r->f[r->nf - 1];
		if (!strcmp(want, "ok"))
			cr_expect(k == 0, "resources.tsv:%d: %s %s: unexpected: %s", r->line, kind, s, msg);
		else
			cr_expect(k > 0 && tbl_msg_ok(want, msg), "resources.tsv:%d: %s %s\n got: %s\nwant: %s",
				  r->line, kind, s, k ? msg : "(ok)", want);
	}
	tbl_free(&t);
}
