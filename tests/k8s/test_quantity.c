/* SPDX-License-Identifier: Apache-2.0
** test_quantity.c: resource.Quantity (src/k8s/quantity.c) against testdata/k8s/quantity.tsv,
** plus inputs that are not NUL-terminated and pathological sizes. */
#include "table.c"
#include "k8s/quantity.h"

#include <inttypes.h>

static const char *fmt_name(sl_quantity_format f)
{
	return f == SL_QFMT_BINARY_SI ? "BinarySI" : f == SL_QFMT_DECIMAL_SI ? "DecimalSI" :
	       "DecimalExponent";
}

static sl_quantity_format fmt_parse(const char *s)
{
	if (!strcmp(s, "BinarySI"))
		return SL_QFMT_BINARY_SI;
	if (!strcmp(s, "DecimalSI"))
		return SL_QFMT_DECIMAL_SI;
	cr_assert(!strcmp(s, "DecimalExponent"), "bad format %s", s);
	return SL_QFMT_DECIMAL_EXPONENT;
}

/* The exact value as "<digits>e<exp>" ("0" for zero). */
static void value_text(const sl_quantity *q, char *buf, size_t sz)
{
	if (q->ndigits == 0)
		snprintf(buf, sz, "0");
	else
		snprintf(buf, sz, "%s%.*se%" PRId64, q->neg ? "-" : "", (int)q->ndigits, q->digits,
			 q->exp);
}

/* Parses s or fails the row. */
static sl_quantity must_parse(const row *r, const char *s, size_t n)
{
	sl_quantity q;
	sl_quantity_status st = sl_quantity_parse(s, n, &q);
	cr_assert(st == SL_QUANTITY_OK, "quantity.tsv:%d: \"%s\" failed: %s", r->line, s,
		  sl_quantity_strerror(st));
	return q;
}

static void check_parse(const row *r, const char *prefix, const char *want_value,
			const char *want_fmt)
{
	char in[512], got[512];
	sl_quantity q;
	snprintf(in, sizeof in, "%s%s", prefix, r->f[1]);
	q = must_parse(r, in, strlen(in));
	value_text(&q, got, sizeof got);
	cr_expect(!strcmp(got, want_value) && !strcmp(fmt_name(q.format), want_fmt),
		  "quantity.tsv:%d: parse \"%s\": got %s %s, want %s %s", r->line, in, got,
		  fmt_name(q.format), want_value, want_fmt);
}

static sl_quantity_status status_parse(const char *s)
{
	if (!strcmp(s, "EFORMAT"))
		return SL_QUANTITY_EFORMAT;
	if (!strcmp(s, "ENUMERIC"))
		return SL_QUANTITY_ENUMERIC;
	cr_assert(!strcmp(s, "ESUFFIX"), "bad status %s", s);
	return SL_QUANTITY_ESUFFIX;
}

/* Builds a quantity from "<digits>e<exp>" (digits may carry trailing zeros). */
static sl_quantity from_parts(const char *text, sl_quantity_format fmt)
{
	sl_quantity q;
	const char *e = strchr(text, 'e');
	size_t nd;
	bool neg = text[0] == '-';
	memset(&q, 0, sizeof q);
	if (neg)
		text++;
	nd = (size_t)(e - text);
	q.format = fmt;
	q.exp = strtoll(e + 1, NULL, 10);
	while (nd > 0 && text[nd - 1] == '0') {
		nd--;
		q.exp++;
	}
	while (nd > 0 && text[0] == '0') {
		text++;
		nd--;
	}
	memcpy(q.digits, text, nd);
	q.ndigits = (uint32_t)nd;
	if (nd == 0)
		q.exp = 0;
	q.neg = neg && nd > 0;
	return q;
}

Test(quantity, table)
{
	table t = tbl_load("quantity.tsv");
	for (size_t i = 0; i < t.n; i++) {
		const row *r = &t.rows[i];
		const char *kind = tbl_f(r, 0);
		char got[512];
		if (!strcmp(kind, "parse")) {
			check_parse(r, "", r->f[2], r->f[3]);
			if (!strcmp(tbl_f(r, 4), "signs")) {
				char neg[512];
				if (strcmp(r->f[2], "0") == 0)
					snprintf(neg, sizeof neg, "0");
				else
					snprintf(neg, sizeof neg, "-%s", r->f[2]);
				check_parse(r, "-", neg, r->f[3]);
				check_parse(r, "+", r->f[2], r->f[3]);
			}
		} else if (!strcmp(kind, "error")) {
			sl_quantity q;
			sl_quantity_status want = status_parse(r->f[2]);
			sl_quantity_status st = sl_quantity_parse(r->f[1], r->len[1], &q);
			cr_expect(st == want, "quantity.tsv:%d: \"%s\": got status %d (%s), want %s",
				  r->line, r->f[1], st, sl_quantity_strerror(st), r->f[2]);
		} else if (!strcmp(kind, "string")) {
			sl_quantity q = must_parse(r, r->f[1], r->len[1]);
			size_t need = sl_quantity_string(&q, r->f[1], r->len[1], got, sizeof got);
			cr_expect(!strcmp(got, r->f[2]) && need == strlen(r->f[2]),
				  "quantity.tsv:%d: String(\"%s\") = \"%s\", want \"%s\"", r->line,
				  r->f[1], got, r->f[2]);
		} else if (!strcmp(kind, "canonical")) {
			sl_quantity q = from_parts(r->f[1], fmt_parse(r->f[2]));
			sl_quantity_canonical(&q, got, sizeof got);
			cr_expect(!strcmp(got, r->f[3]), "quantity.tsv:%d: canonical(%s %s) = \"%s\", "
				  "want \"%s\"", r->line, r->f[1], r->f[2], got, r->f[3]);
			if (q.ndigits > 0) {
				char want[512];
				q.neg = true;
				sl_quantity_canonical(&q, got, sizeof got);
				snprintf(want, sizeof want, "-%s", r->f[3]);
				cr_expect(!strcmp(got, want), "quantity.tsv:%d: canonical(-%s) = \"%s\"",
					  r->line, r->f[1], got);
			}
		} else if (!strcmp(kind, "cmp")) {
			sl_quantity a = must_parse(r, r->f[1], r->len[1]);
			sl_quantity b = must_parse(r, r->f[2], r->len[2]);
			int want = atoi(r->f[3]);
			int c1 = sl_quantity_cmp(&a, &b), c2 = sl_quantity_cmp(&b, &a);
			cr_expect(c1 == want && c2 == -want, "quantity.tsv:%d: cmp(%s, %s) = %d/%d, "
				  "want %d", r->line, r->f[1], r->f[2], c1, c2, want);
		} else if (!strcmp(kind, "cmpx")) {
			sl_quantity a = from_parts(r->f[1], SL_QFMT_DECIMAL_SI);
			sl_quantity b = from_parts(r->f[2], SL_QFMT_DECIMAL_SI);
			int want = atoi(r->f[3]);
			int c1 = sl_quantity_cmp(&a, &b), c2 = sl_quantity_cmp(&b, &a);
			cr_expect(c1 == want && c2 == -want, "quantity.tsv:%d: cmpx(%s, %s) = %d/%d, "
				  "want %d", r->line, r->f[1], r->f[2], c1, c2, want);
		} else if (!strcmp(kind, "integer")) {
			sl_quantity q = must_parse(r, r->f[1], r->len[1]);
			bool want = !strcmp(r->f[2], "true");
			cr_expect(sl_quantity_is_integer(&q) == want, "quantity.tsv:%d: is_integer(%s) "
				  "!= %s", r->line, r->f[1], r->f[2]);
		} else if (!strcmp(kind, "scaled")) {
			sl_quantity q = must_parse(r, r->f[1], r->len[1]);
			int64_t v = 0;
			bool ok = sl_quantity_scaled_value(&q, atoi(r->f[2]), &v);
			snprintf(got, sizeof got, "%" PRId64, v);
			cr_expect(ok ? !strcmp(got, r->f[3]) : !strcmp(r->f[3], "none"),
				  "quantity.tsv:%d: scaled(%s, %s) = %s, want %s", r->line, r->f[1],
				  r->f[2], ok ? got : "none", r->f[3]);
		} else {
			cr_assert_fail("quantity.tsv:%d: unknown kind %s", r->line, kind);
		}
	}
	tbl_free(&t);
}

Test(quantity, error_messages)
{
	cr_expect_str_eq(sl_quantity_strerror(SL_QUANTITY_EFORMAT),
			 "quantities must match the regular expression "
			 "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	cr_expect_str_eq(sl_quantity_strerror(SL_QUANTITY_ENUMERIC),
			 "unable to parse numeric part of quantity");
	cr_expect_str_eq(sl_quantity_strerror(SL_QUANTITY_ESUFFIX),
			 "unable to parse quantity's suffix");
}

Test(quantity, view_and_sizes)
{
	sl_quantity q;
	char buf[64], big[4096];
	/* only n bytes are read */
	cr_assert(sl_quantity_parse("1Gi!", 3, &q) == SL_QUANTITY_OK);
	sl_quantity_string(&q, "1Gi!", 3, buf, sizeof buf);
	cr_expect_str_eq(buf, "1Gi");
	/* truncation keeps the NUL and reports the full length */
	cr_assert(sl_quantity_parse("1.5", 3, &q) == SL_QUANTITY_OK);
	cr_expect(sl_quantity_canonical(&q, buf, 3) == 5 && !strcmp(buf, "15"));
	/* a long zero run is fine; too many significant digits is reported, never overflowed */
	memset(big, '0', sizeof big);
	big[0] = '1';
	cr_expect(sl_quantity_parse(big, sizeof big, &q) == SL_QUANTITY_OK && q.exp == 4095);
	memset(big, '7', sizeof big);
	cr_expect(sl_quantity_parse(big, sizeof big, &q) == SL_QUANTITY_ETOOLONG);
	big[0] = '.';
	cr_expect(sl_quantity_parse(big, sizeof big, &q) == SL_QUANTITY_OK);
	sl_quantity_canonical(&q, buf, sizeof buf);
	cr_expect_str_eq(buf, "777777778n");
	/* huge exponents stay defined */
	cr_expect(sl_quantity_parse("9e2147483647", 12, &q) == SL_QUANTITY_OK && !q.neg);
	cr_expect(sl_quantity_parse("1e-9223372036854775808", 22, &q) == SL_QUANTITY_OK);
}
