/* SPDX-License-Identifier: Apache-2.0
** test_labels.c: name syntax (src/k8s/labels.c) against testdata/k8s/labels.tsv; the
** hand-written scanner against apimachinery's regular expressions (PCRE2 as the oracle) over
** every short string of the bytes that matter; a concurrency check. */
#include "table.c"
#include "k8s/labels.h"

#include <inttypes.h>
#include <pthread.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

static int check(const char *kind, const char *s, size_t n, char *msg, size_t msgsz)
{
	if (!strcmp(kind, "key"))
		return sl_k8s_check_qualified_name(s, n, msg, msgsz);
	if (!strcmp(kind, "value"))
		return sl_k8s_check_label_value(s, n, msg, msgsz);
	if (!strcmp(kind, "dns-label"))
		return sl_k8s_check_dns1123_label(s, n, msg, msgsz);
	if (!strcmp(kind, "dns-subdomain"))
		return sl_k8s_check_dns1123_subdomain(s, n, msg, msgsz);
	cr_assert_fail("unknown kind %s", kind);
	return -1;
}

Test(labels, table)
{
	table t = tbl_load("labels.tsv");
	for (size_t i = 0; i < t.n; i++) {
		const row *r = &t.rows[i];
		const char *kind = tbl_f(r, 0), *expect = tbl_f(r, 2);
		char msg[4096];
		if (!strcmp(kind, "int64") || !strcmp(kind, "canonical-int64")) {
			int64_t v = 0;
			bool ok = kind[0] == 'i' ? sl_k8s_parse_int64(r->f[1], r->len[1], &v) :
				  sl_k8s_parse_canonical_int64(r->f[1], r->len[1], &v);
			char got[32];
			snprintf(got, sizeof got, "%" PRId64, v);
			cr_expect(ok == (strcmp(expect, "bad") != 0) && (!ok || !strcmp(got, expect)),
				  "labels.tsv:%d: %s \"%s\": got %s %s", r->line, kind, r->f[1],
				  ok ? "ok" : "bad", got);
			continue;
		}
		int k = check(kind, r->f[1], r->len[1], msg, sizeof msg);
		cr_expect(k >= 0, "labels.tsv:%d: engine failure", r->line);
		cr_expect((k == 0) == !strcmp(expect, "ok"),
			  "labels.tsv:%d: %s \"%s\": expected %s, got %d problem(s): %s", r->line, kind,
			  r->f[1], expect, k, msg);
		if (r->nf > 3)
			cr_expect(tbl_msg_ok(r->f[3], msg), "labels.tsv:%d: message\n got: %s\nwant: %s",
				  r->line, msg, r->f[3]);
		/* the same verdict through a buffer that is too small, and with no buffer */
		char tiny[8];
		cr_expect(check(kind, r->f[1], r->len[1], tiny, sizeof tiny) == k &&
			  strlen(tiny) < sizeof tiny, "labels.tsv:%d: truncation", r->line);
		cr_expect(check(kind, r->f[1], r->len[1], NULL, 0) == k, "labels.tsv:%d: NULL msg",
			  r->line);
	}
	tbl_free(&t);
}

Test(labels, not_nul_terminated)
{
	/* the view ends before the bad byte: only n bytes are read */
	const char buf[] = "example.com/name%";
	cr_expect(sl_k8s_is_qualified_name(buf, sizeof buf - 2));
	cr_expect(!sl_k8s_is_qualified_name(buf, sizeof buf - 1));
	cr_expect(sl_k8s_is_label_value(NULL, 0));
}

/* apimachinery's patterns (validation.go, dns.go), anchored as Go's ^...$ are. */
#define KEY_RE "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define DNS_LABEL_RE "[a-z0-9]([-a-z0-9]*[a-z0-9])?"

static bool oracle(pcre2_code *re, const char *s, size_t n)
{
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	cr_assert(md);
	int rc = pcre2_match(re, (PCRE2_SPTR)s, n, 0, 0, md, NULL);
	pcre2_match_data_free(md);
	return rc >= 0;
}

Test(labels, scanner_is_the_regex)
{
	static const char *const pat[4] = {
		"\\A" KEY_RE "\\z", "\\A(" KEY_RE ")?\\z", "\\A" DNS_LABEL_RE "\\z",
		"\\A" DNS_LABEL_RE "(\\." DNS_LABEL_RE ")*\\z",
	};
	pcre2_code *re[4];
	for (int k = 0; k < 4; k++) {
		int e;
		PCRE2_SIZE off;
		re[k] = pcre2_compile((PCRE2_SPTR)pat[k], PCRE2_ZERO_TERMINATED, 0, &e, &off, NULL);
		cr_assert(re[k], "pattern %d", k);
	}
	/* every string of up to 5 of these bytes: each class the patterns tell apart, once */
	static const char alpha[] = "aZ0-_./\n%";
	const size_t na = sizeof alpha - 1;
	char s[8];
	size_t tried = 0, bad = 0;
	for (size_t len = 0; len <= 5; len++) {
		size_t total = 1;
		for (size_t i = 0; i < len; i++)
			total *= na;
		for (size_t x = 0; x < total; x++) {
			size_t y = x;
			for (size_t i = 0; i < len; i++, y /= na)
				s[i] = alpha[y % na];
			bool got[4] = {
				sl_k8s_check_qualified_name(s, len, NULL, 0) == 0 && !memchr(s, '/', len),
				sl_k8s_is_label_value(s, len),
				sl_k8s_check_dns1123_label(s, len, NULL, 0) == 0,
				sl_k8s_check_dns1123_subdomain(s, len, NULL, 0) == 0,
			};
			for (int k = 0; k < 4; k++, tried++)
				if (got[k] != oracle(re[k], s, len) && bad++ < 10)
					cr_expect_fail("pattern %d on \"%.*s\": scanner %d", k, (int)len, s,
						       got[k]);
		}
	}
	cr_expect(bad == 0 && tried > 200000, "%zu of %zu verdicts differ", bad, tried);
	for (int k = 0; k < 4; k++)
		pcre2_code_free(re[k]);
}

static void *hammer(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		if (!sl_k8s_is_qualified_name("nvidia.com/gpu", 14) ||
		    sl_k8s_is_label_value("-x", 2))
			return (void *)1;
	}
	return NULL;
}

Test(labels, threads)
{
	pthread_t th[8];
	for (int i = 0; i < 8; i++)
		cr_assert(pthread_create(&th[i], NULL, hammer, NULL) == 0);
	for (int i = 0; i < 8; i++) {
		void *rv;
		pthread_join(th[i], &rv);
		cr_expect(rv == NULL, "thread %d saw a wrong verdict", i);
	}
}
