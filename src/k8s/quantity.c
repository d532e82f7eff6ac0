/* SPDX-License-Identifier: Apache-2.0
** quantity.c: resource.Quantity ported from apimachinery's behaviour (quantity.go, suffix.go,
** amount.go). The scanner mirrors parseQuantityString byte for byte; the value is then built
** exactly as a decimal digit string: upstream's int64 "fast path" and inf.Dec "slow path" give
** the same number, and they differ only in which inputs raise ErrNumeric, in the int32 wrap of
** the scale, and in whether String() reuses the input, all of which are reproduced here. */
#include "k8s/quantity.h"

#include <stdio.h>
#include <string.h>

#define WORK (SL_QUANTITY_MAX_DIGITS + 48)

const char *sl_quantity_strerror(sl_quantity_status st)
{
	switch (st) {
	case SL_QUANTITY_OK: return "";
	case SL_QUANTITY_EFORMAT:
		return "quantities must match the regular expression "
		       "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
	case SL_QUANTITY_ENUMERIC: return "unable to parse numeric part of quantity";
	case SL_QUANTITY_ESUFFIX: return "unable to parse quantity's suffix";
	case SL_QUANTITY_ETOOLONG:
		return "quantity has more significant digits than schedlint can represent";
	}
	return "";
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Go's int32(x) for an int64 x: two's-complement truncation, without implementation-defined
** conversions. */
static int64_t wrap32(int64_t x)
{
	uint64_t u = (uint64_t)x & 0xFFFFFFFFu;
	return u >= 0x80000000u ? (int64_t)u - (int64_t)0x100000000 : (int64_t)u;
}

/* suffix.go interpret(): base 10 or 2, exponent, format. False for an unknown suffix. */
static bool interpret(const char *s, size_t n, int *base, int64_t *exponent,
		      sl_quantity_format *fmt)
{
	static const struct { const char *s; int base; int exp; } table[] = {
		{ "", 10, 0 }, { "n", 10, -9 }, { "u", 10, -6 }, { "m", 10, -3 }, { "k", 10, 3 },
		{ "M", 10, 6 }, { "G", 10, 9 }, { "T", 10, 12 }, { "P", 10, 15 }, { "E", 10, 18 },
		{ "Ki", 2, 10 }, { "Mi", 2, 20 }, { "Gi", 2, 30 }, { "Ti", 2, 40 }, { "Pi", 2, 50 },
		{ "Ei", 2, 60 },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strlen(table[i].s) == n && (n == 0 || memcmp(table[i].s, s, n) == 0)) {
			*base = table[i].base;
			*exponent = table[i].exp;
			*fmt = table[i].base == 2 ? SL_QFMT_BINARY_SI : SL_QFMT_DECIMAL_SI;
			return true;
		}
	}
	if (n > 1 && (s[0] == 'e' || s[0] == 'E')) {
		/* strconv.ParseInt(s[1:], 10, 64), then int32() */
		size_t i = 1;
		bool neg = false;
		uint64_t v = 0, limit;
		if (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-';
			i++;
		}
		if (i >= n)
			return false;
		limit = neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
		for (; i < n; i++) {
			unsigned d;
			if (!is_digit(s[i]))
				return false;
			d = (unsigned)(s[i] - '0');
			if (v > (limit - d) / 10)
				return false;
			v = v * 10 + d;
		}
		/* int32(parsed): only the low 32 bits of the two's complement survive */
		v = neg ? (~v + 1u) : v;
		*exponent = wrap32((int64_t)(v & 0xFFFFFFFFu));
		*base = 10;
		*fmt = SL_QFMT_DECIMAL_EXPONENT;
		return true;
	}
	return false;
}

/* A working decimal: w[0..nd) x 10^exp. */
typedef struct work {
	char w[WORK];
	size_t nd;
	int64_t exp;
} work;

/* Drops leading and trailing zeros (trailing ones raise exp). */
static void normalize(work *x)
{
	size_t lead = 0;
	while (lead < x->nd && x->w[lead] == '0')
		lead++;
	if (lead > 0) {
		memmove(x->w, x->w + lead, x->nd - lead);
		x->nd -= lead;
	}
	while (x->nd > 0 && x->w[x->nd - 1] == '0') {
		x->nd--;
		x->exp++;
	}
	if (x->nd == 0)
		x->exp = 0;
}

/* Adds one unit in the last place; room for one more digit is guaranteed by callers. */
static void increment(work *x)
{
	size_t i = x->nd;
	while (i > 0) {
		i--;
		if (x->w[i] == '9') {
			x->w[i] = '0';
		} else {
			x->w[i]++;
			return;
		}
	}
	memmove(x->w + 1, x->w, x->nd);
	x->w[0] = '1';
	x->nd++;
}

/* Rounds the magnitude up to a multiple of 10^-9 (inf.RoundUp at Nano). sticky says nonzero
** digits were already dropped below the last kept one. */
static void round_nano(work *x, bool sticky)
{
	if (x->exp < -9) {
		uint64_t drop = (uint64_t)(-9 - x->exp);
		if (drop >= x->nd) {
			bool nonzero = sticky;
			for (size_t i = 0; i < x->nd; i++)
				nonzero |= x->w[i] != '0';
			x->nd = 0;
			if (nonzero) {
				x->w[0] = '1';
				x->nd = 1;
			}
			x->exp = -9;
			sticky = false;
		} else {
			for (size_t i = x->nd - (size_t)drop; i < x->nd; i++)
				sticky |= x->w[i] != '0';
			x->nd -= (size_t)drop;
			x->exp = -9;
		}
	}
	if (sticky && x->nd > 0)
		increment(x);
	normalize(x);
}

/* x *= 2^e for 0 <= e <= 60; room for 20 more digits is guaranteed by callers. */
static void mul_pow2(work *x, int e)
{
	while (e > 0) {
		int k = e > 30 ? 30 : e;
		uint64_t m = (uint64_t)1 << k, carry = 0;
		char tmp[24];
		size_t nt = 0;
		for (size_t i = x->nd; i > 0; i--) {
			uint64_t t = (uint64_t)(x->w[i - 1] - '0') * m + carry;
			x->w[i - 1] = (char)('0' + t % 10);
			carry = t / 10;
		}
		while (carry > 0) {
			tmp[nt++] = (char)('0' + carry % 10);
			carry /= 10;
		}
		memmove(x->w + nt, x->w, x->nd);
		for (size_t i = 0; i < nt; i++)
			x->w[i] = tmp[nt - 1 - i];
		x->nd += nt;
		e -= k;
	}
}

/* Compares magnitudes of two normalized decimals. */
static int cmp_mag(const char *ad, size_t an, int64_t ae, const char *bd, size_t bn, int64_t be)
{
	int64_t am, bm;
	if (an == 0 || bn == 0)
		return (an > 0) - (bn > 0);
	am = (int64_t)an + ae;   /* order of magnitude: value < 10^am */
	bm = (int64_t)bn + be;
	if (am != bm)
		return am < bm ? -1 : 1;
	for (size_t i = 0; i < an || i < bn; i++) {
		char a = i < an ? ad[i] : '0', b = i < bn ? bd[i] : '0';
		if (a != b)
			return a < b ? -1 : 1;
	}
	return 0;
}

static void set_u64(work *x, uint64_t v, int64_t exp)
{
	char tmp[24];
	size_t k = 0;
	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v > 0);
	for (size_t i = 0; i < k; i++)
		x->w[i] = tmp[k - 1 - i];
	x->nd = k;
	x->exp = exp;
	normalize(x);
}

static void set_zero(sl_quantity *out, sl_quantity_format fmt, bool verbatim)
{
	out->neg = false;
	out->format = fmt;
	out->verbatim = verbatim;
	out->exp = 0;
	out->ndigits = 0;
}

static sl_quantity_status store(const work *x, bool neg, sl_quantity_format fmt, bool verbatim,
				sl_quantity *out)
{
	if (x->nd > SL_QUANTITY_MAX_DIGITS)
		return SL_QUANTITY_ETOOLONG;
	if (x->nd == 0) {
		set_zero(out, fmt, verbatim);
		return SL_QUANTITY_OK;
	}
	out->neg = neg;
	out->format = fmt;
	out->verbatim = verbatim;
	out->exp = x->exp;
	out->ndigits = (uint32_t)x->nd;
	memcpy(out->digits, x->w, x->nd);
	return SL_QUANTITY_OK;
}

sl_quantity_status sl_quantity_parse(const char *s, size_t n, sl_quantity *out)
{
	bool positive = true, has_digit = false;
	size_t pos = 0, num_a, num_b, den_a = 0, den_b = 0, suf_a;
	int base;
	int64_t exponent, len_num, len_den, precision;
	sl_quantity_format fmt;
	work x;

	if (n == 0)
		return SL_QUANTITY_EFORMAT;
	if (n == 1 && s[0] == '0') {
		set_zero(out, SL_QFMT_DECIMAL_SI, true);
		return SL_QUANTITY_OK;
	}
	/* parseQuantityString */
	if (s[0] == '-' || s[0] == '+') {
		positive = s[0] == '+';
		pos++;
	}
	while (pos < n && s[pos] == '0') {
		pos++;
		has_digit = true;
	}
	if (pos >= n) {   /* nothing but a sign and zeros: "0", suffix "" */
		set_zero(out, SL_QFMT_DECIMAL_SI, false);
		return SL_QUANTITY_OK;
	}
	num_a = pos;
	while (pos < n && is_digit(s[pos]))
		pos++;
	num_b = pos;
	if (pos < n && s[pos] == '.') {
		pos++;
		den_a = pos;
		while (pos < n && is_digit(s[pos]))
			pos++;
		den_b = pos;
	}
	has_digit |= num_b > num_a || den_b > den_a;
	suf_a = pos;
	while (pos < n && strchr("eEinumkKMGTP", s[pos]) && s[pos] != '\0')
		pos++;
	if (pos < n && (s[pos] == '-' || s[pos] == '+'))
		pos++;
	while (pos < n && is_digit(s[pos]))
		pos++;
	if (pos < n)
		return SL_QUANTITY_EFORMAT;

	if (!interpret(s + suf_a, n - suf_a, &base, &exponent, &fmt))
		return SL_QUANTITY_ESUFFIX;

	len_num = num_b > num_a ? (int64_t)(num_b - num_a) : 1;   /* num is "0" when empty */
	len_den = (int64_t)(den_b - den_a);
	if (base == 10)
		precision = 18 - len_num - len_den;
	else if (exponent >= 0 && len_den == 0)
		precision = 15 - len_num - exponent * 3 / 10 - 1;
	else
		precision = -1;

	if (precision >= 0) {
		int64_t scale = wrap32((base == 10 ? exponent : 0) - len_den);
		if (scale >= -9) {
			/* shifted = num + denom, at most 18 digits */
			char shifted[40];
			size_t k = 0;
			uint64_t v = 0;
			bool fits = true;
			if (num_b > num_a) {
				memcpy(shifted, s + num_a, num_b - num_a);
				k = num_b - num_a;
			} else {
				shifted[k++] = '0';
			}
			memcpy(shifted + k, s + den_a, (size_t)len_den);
			k += (size_t)len_den;
			for (size_t i = 0; i < k; i++)
				v = v * 10 + (uint64_t)(shifted[i] - '0');
			if (base == 2 && v > 0 && v > ((uint64_t)INT64_MAX >> exponent))
				fits = false;   /* int64Multiply overflows: upstream takes the slow path */
			if (fits) {
				bool verbatim;
				if (base == 2) {
					verbatim = (v & 7) != 0;
					set_u64(&x, v << exponent, 0);
				} else {
					verbatim = scale % 3 == 0 && shifted[0] != '0' &&
						   !(k >= 3 && memcmp(shifted + k - 3, "000", 3) == 0);
					set_u64(&x, v, scale);
				}
				return store(&x, !positive, fmt, verbatim, out);
			}
		}
	}

	/* the inf.Dec slow path */
	if (!has_digit)
		return SL_QUANTITY_ENUMERIC;
	{
		/* digits of num (leading zeros already skipped) then denom, value x 10^exp10 */
		int64_t exp10;
		size_t total = (num_b - num_a) + (size_t)len_den, first = 0, keep, sig;
		bool sticky = false;
		if (base == 10)
			exp10 = -wrap32(len_den + wrap32(-exponent));
		else
			exp10 = -len_den;
#define DIGIT_AT(i) ((i) < num_b - num_a ? s[num_a + (i)] : s[den_a + (i) - (num_b - num_a)])
		while (first < total && DIGIT_AT(first) == '0')
			first++;
		keep = total;
		if (base == 10 && exp10 < -9) {
			/* digits below 10^-9 only decide the rounding: fold them into sticky */
			uint64_t drop = (uint64_t)(-9 - exp10);
			size_t cut = drop >= total ? 0 : total - (size_t)drop;
			for (size_t i = cut; i < total; i++)
				sticky |= DIGIT_AT(i) != '0';
			keep = cut;
			exp10 = -9;
		}
		while (!sticky && keep > first && DIGIT_AT(keep - 1) == '0') {
			keep--;
			exp10++;
		}
		sig = keep > first ? keep - first : 0;
		if (sig > SL_QUANTITY_MAX_DIGITS)
			return SL_QUANTITY_ETOOLONG;
		for (size_t i = 0; i < sig; i++)
			x.w[i] = DIGIT_AT(first + i);
#undef DIGIT_AT
		x.nd = sig;
		x.exp = sig ? exp10 : 0;
		if (sig == 0 && sticky) {   /* only digits below 1n: rounds up to 1n */
			x.w[0] = '1';
			x.nd = 1;
			x.exp = -9;
			sticky = false;
		}
		if (base == 2)
			mul_pow2(&x, (int)exponent);
		round_nano(&x, sticky);
		if (fmt == SL_QFMT_BINARY_SI) {
			static const char max_i64[] = "9223372036854775807";
			if (cmp_mag(x.w, x.nd, x.exp, max_i64, sizeof max_i64 - 1, 0) > 0) {
				memcpy(x.w, max_i64, sizeof max_i64 - 1);
				x.nd = sizeof max_i64 - 1;
				x.exp = 0;
			}
			if (x.nd > 0 && cmp_mag(x.w, x.nd, x.exp, "1", 1, 0) < 0)
				fmt = SL_QFMT_DECIMAL_SI;
		}
		return store(&x, !positive, fmt, false, out);
	}
}

int sl_quantity_cmp(const sl_quantity *a, const sl_quantity *b)
{
	int sa = a->ndigits == 0 ? 0 : a->neg ? -1 : 1;
	int sb = b->ndigits == 0 ? 0 : b->neg ? -1 : 1;
	int m;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (sa == 0)
		return 0;
	m = cmp_mag(a->digits, a->ndigits, a->exp, b->digits, b->ndigits, b->exp);
	return sa < 0 ? -m : m;
}

bool sl_quantity_is_zero(const sl_quantity *q)
{
	return q->ndigits == 0;
}

bool sl_quantity_is_negative(const sl_quantity *q)
{
	return q->ndigits > 0 && q->neg;
}

/* The digit of |q| at decimal place p (10^p). */
static int digit_at_place(const sl_quantity *q, int64_t p)
{
	/* digit i (from the left) sits at place exp + ndigits - 1 - i */
	int64_t i = q->exp + (int64_t)q->ndigits - 1 - p;
	if (i < 0 || i >= (int64_t)q->ndigits)
		return 0;
	return q->digits[i] - '0';
}

bool sl_quantity_is_integer(const sl_quantity *q)
{
	int f;
	bool sticky = false;
	if (q->ndigits == 0 || q->exp >= 0)
		return true;
	f = digit_at_place(q, -1) * 100 + digit_at_place(q, -2) * 10 + digit_at_place(q, -3);
	if (q->exp < -3)
		sticky = true;   /* the last digit is nonzero and sits below 10^-3 */
	return (f == 0 && !sticky) || (f == 999 && sticky);
}

bool sl_quantity_scaled_value(const sl_quantity *q, int scale, int64_t *out)
{
	uint64_t v = 0, limit;
	int64_t e;
	bool frac = false;
	if (q->ndigits == 0) {
		*out = 0;
		return true;
	}
	limit = q->neg ? (uint64_t)INT64_MAX + 1u : (uint64_t)INT64_MAX;
	e = q->exp - scale;   /* |q| x 10^-scale = digits x 10^e */
	if (e > 19 || (int64_t)q->ndigits + e > 19 + 1)
		return false;
	for (uint32_t i = 0; i < q->ndigits; i++) {
		unsigned d = (unsigned)(q->digits[i] - '0');
		if ((int64_t)i >= (int64_t)q->ndigits + e) {
			frac |= d != 0;
			continue;
		}
		if (v > (limit - d) / 10)
			return false;
		v = v * 10 + d;
	}
	for (int64_t i = 0; i < e; i++) {
		if (v > limit / 10)
			return false;
		v *= 10;
	}
	if (frac) {
		if (v >= limit)
			return false;
		v++;
	}
	*out = q->neg ? (v == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)v) : (int64_t)v;
	return true;
}

static size_t emit(char *buf, size_t bufsz, const char *text, size_t len)
{
	if (bufsz > 0) {
		size_t k = len < bufsz - 1 ? len : bufsz - 1;
		memcpy(buf, text, k);
		buf[k] = '\0';
	}
	return len;
}

size_t sl_quantity_canonical(const sl_quantity *q, char *buf, size_t bufsz)
{
	char text[SL_QUANTITY_MAX_DIGITS + 48];
	size_t len = 0;
	sl_quantity_format fmt = q->format;
	if (q->ndigits == 0)
		return emit(buf, bufsz, "0", 1);
	if (q->neg)
		text[len++] = '-';
	if (fmt == SL_QFMT_BINARY_SI) {
		/* |q| < 1024 or not an integer: shown as DecimalSI */
		if (cmp_mag(q->digits, q->ndigits, q->exp, "1024", 4, 0) < 0 || q->exp < 0) {
			fmt = SL_QFMT_DECIMAL_SI;
		} else {
			static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
			uint64_t v = 0;
			int times = 0;
			for (uint32_t i = 0; i < q->ndigits; i++)
				v = v * 10 + (uint64_t)(q->digits[i] - '0');
			for (int64_t i = 0; i < q->exp; i++)
				v *= 10;   /* binary quantities never exceed 2^63-1 */
			while (v >= 1024 && v % 1024 == 0 && times < 6) {
				v /= 1024;
				times++;
			}
			len += (size_t)snprintf(text + len, sizeof text - len, "%llu%s",
						(unsigned long long)v, bin[times]);
			return emit(buf, bufsz, text, len);
		}
	}
	{
		int64_t e = q->exp;
		memcpy(text + len, q->digits, q->ndigits);
		len += q->ndigits;
		while (e % 3 != 0) {
			text[len++] = '0';
			e--;
		}
		if (fmt == SL_QFMT_DECIMAL_EXPONENT) {
			if (e != 0)
				len += (size_t)snprintf(text + len, sizeof text - len, "e%lld",
							(long long)e);
		} else if (e >= -9 && e <= 18) {
			static const char *const dec[] = { "n", "u", "m", "", "k", "M", "G", "T",
							   "P", "E" };
			const char *suf = dec[(e + 9) / 3];
			size_t sl = strlen(suf);
			memcpy(text + len, suf, sl);
			len += sl;
		}
		/* DecimalSI beyond E has no suffix: upstream prints the bare mantissa */
	}
	return emit(buf, bufsz, text, len);
}

size_t sl_quantity_string(const sl_quantity *q, const char *src, size_t n, char *buf,
			  size_t bufsz)
{
	if (q->verbatim && src)
		return emit(buf, bufsz, src, n);
	return sl_quantity_canonical(q, buf, bufsz);
}
