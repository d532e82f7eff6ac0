/* SPDX-License-Identifier: Apache-2.0
** pattern.c: user patterns (pattern.h). Compiling reads the pattern's text against a small
** grammar of shapes and keeps the literal or the class it finds; anything the grammar does not
** know (a quantifier, a group, an escape that is not punctuation, a byte outside printable
** ASCII) leaves the pattern to PCRE2. The grammar only accepts what PCRE2, in the mode
** sl_regex_compile_user gives it (UTF and UCP, no other option), reads as plain bytes. */
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include "extend/pattern.h"

enum shape {
	P_REGEX,        /* PCRE2's */
	P_PREFIX,       /* ^LIT */
	P_EXACT,        /* ^LIT$ */
	P_NOT_PREFIX,   /* ^(?!LIT) */
	P_NOT_EXACT,    /* ^(?!LIT$) */
	P_CONTAINS,     /* LIT */
	P_CLASS_PLUS,   /* ^[SET]+$ */
	P_CLASS_STAR,   /* ^[SET]*$ */
};

/* The literal byte at *p (an escaped punctuation character is itself), advancing *p; -1 for
** anything else: a metacharacter, an escape with a meaning, a byte outside printable ASCII. */
static int literal(const char **p, const char *end)
{
	unsigned char c = (unsigned char)**p;
	if (c == '\\') {
		if (*p + 1 >= end)
			return -1;
		unsigned char e = (unsigned char)(*p)[1];
		bool punct = e > 0x20 && e < 0x7f && !((e >= '0' && e <= '9') ||
						      ((e | 0x20) >= 'a' && (e | 0x20) <= 'z'));
		if (!punct)
			return -1;
		*p += 2;
		return e;
	}
	if (c < 0x20 || c >= 0x7f || strchr("^$.|?*+()[]{}", c))
		return -1;
	(*p)++;
	return c;
}

/* Reads a literal run at *p into out (room for end - *p bytes); its length. */
static size_t literal_run(const char **p, const char *end, char *out)
{
	size_t n = 0;
	for (int c; *p < end && (c = literal(p, end)) >= 0;)
		out[n++] = (char)c;
	return n;
}

/* Reads the class at *p (just after its '['): true, with its bytes in set, when it is a list
** of literals and ranges between letters or digits of the same kind; '-' only first or last. */
static bool class(const char **p, const char *end, uint8_t set[256])
{
	const char *q = *p;
	if (q < end && (*q == '^' || *q == ']'))
		return false;   /* negated, or ']' as a member */
	bool first = true;
	while (q < end && *q != ']') {
		if (*q == '[')
			return false;   /* [:alpha:] and the like */
		if (*q == '-' && !first && q + 1 < end && q[1] != ']')
			return false;
		int c = literal(&q, end);
		if (c < 0 && *q != '.' && *q != '$' && *q != '|' && *q != '?' && *q != '*' &&
		    *q != '+' && *q != '(' && *q != ')' && *q != '{' && *q != '}' && *q != '^')
			return false;
		if (c < 0)   /* a metacharacter outside a class is a member inside one */
			c = (unsigned char)*q++;
		if (q + 1 < end && *q == '-' && q[1] != ']') {   /* a range c-d */
			unsigned char d = (unsigned char)q[1];
			bool digits = c >= '0' && c <= '9' && d >= '0' && d <= '9';
			bool lower = c >= 'a' && c <= 'z' && d >= 'a' && d <= 'z';
			bool upper = c >= 'A' && c <= 'Z' && d >= 'A' && d <= 'Z';
			if (!(digits || lower || upper) || d < c)
				return false;
			for (unsigned x = (unsigned)c; x <= d; x++)
				set[x] = 1;
			q += 2;
		} else {
			set[c] = 1;
		}
		first = false;
	}
	if (q >= end || first)
		return false;
	*p = q + 1;
	return true;
}

/* The shape of text[0..len), its literal in lit (room for len bytes) or its class in set. */
static enum shape shape_of(const char *text, size_t len, char *lit, size_t *n, uint8_t set[256])
{
	const char *p = text, *end = text + len;
	*n = 0;
	if (p == end || *p != '^') {
		*n = literal_run(&p, end, lit);
		return p == end ? P_CONTAINS : P_REGEX;
	}
	p++;
	if (end - p >= 3 && memcmp(p, "(?!", 3) == 0) {
		p += 3;
		*n = literal_run(&p, end, lit);
		if (end - p == 1 && *p == ')')
			return P_NOT_PREFIX;
		if (end - p == 2 && memcmp(p, "$)", 2) == 0)
			return P_NOT_EXACT;
		return P_REGEX;
	}
	if (p < end && *p == '[') {
		p++;
		if (!class(&p, end, set) || end - p != 2 || p[1] != '$')
			return P_REGEX;
		return *p == '+' ? P_CLASS_PLUS : *p == '*' ? P_CLASS_STAR : P_REGEX;
	}
	*n = literal_run(&p, end, lit);
	if (p == end)
		return P_PREFIX;
	return end - p == 1 && *p == '$' ? P_EXACT : P_REGEX;
}

sl_err sl_pattern_compile(sl_arena *a, sl_regex_list *l, const char *text, size_t len,
			  sl_pattern **out, char *why, size_t why_size)
{
	sl_pattern *p = sl_arena_zalloc(a, sizeof *p);
	char *lit = p ? sl_arena_alloc(a, len + 1) : NULL;
	*out = NULL;
	if (!lit)
		return SL_ENOMEM;
	if (!(p->re = sl_regex_compile_user(text, len, why, why_size)))
		return SL_EPARSE;
	if (sl_regex_keep(l, p->re))
		return SL_ENOMEM;
	uint32_t nl = 0;   /* '$' before a final "\n" only: PCRE2's newline convention is LF */
	pcre2_pattern_info(p->re, PCRE2_INFO_NEWLINE, &nl);
	p->shape = (uint8_t)shape_of(text, len, lit, &p->len, p->in);
	if (nl != PCRE2_NEWLINE_LF && (p->shape == P_EXACT || p->shape == P_NOT_EXACT ||
				       p->shape == P_CLASS_PLUS || p->shape == P_CLASS_STAR))
		p->shape = P_REGEX;
	lit[p->len] = '\0';
	p->lit = lit;
	*out = p;
	return SL_OK;
}

/* s is lit, or lit and a line break ('$' matches before a final one) */
static bool exact(const sl_pattern *p, const char *s, size_t len)
{
	return (len == p->len || (len == p->len + 1 && s[p->len] == '\n')) &&
	       memcmp(s, p->lit, p->len) == 0;
}

static bool shortcut(const sl_pattern *p, const char *s, size_t len)
{
	switch (p->shape) {
	case P_PREFIX: return len >= p->len && memcmp(s, p->lit, p->len) == 0;
	case P_EXACT: return exact(p, s, len);
	case P_NOT_PREFIX: return !(len >= p->len && memcmp(s, p->lit, p->len) == 0);
	case P_NOT_EXACT: return !exact(p, s, len);
	case P_CONTAINS: return !p->len || (len >= p->len && memmem(s, len, p->lit, p->len));
	default: return false;   /* a class: in_class */
	}
}

/* True when s[0..len) has no byte above 0x7f: eight at a time. */
static bool ascii(const char *s, size_t len)
{
	uint64_t high = 0, w;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		high |= w;
	}
	for (; i < len; i++)
		high |= (unsigned char)s[i];
	return !(high & 0x8080808080808080ull);
}

/* A class's answer for s[0..len), which is ASCII unless *high says not: every byte but a
** final line break in the class. The class holds ASCII bytes only, so a value it holds whole
** is ASCII; only one it does not is looked at again for a byte above 0x7f. */
static bool in_class(const sl_pattern *p, const char *s, size_t len, unsigned *high)
{
	size_t n = len && s[len - 1] == '\n' ? len - 1 : len, i = 0;
	const unsigned char *u = (const unsigned char *)s;
	unsigned all = 1;
	for (; i + 4 <= n; i += 4)
		all &= p->in[u[i]] & p->in[u[i + 1]] & p->in[u[i + 2]] & p->in[u[i + 3]];
	for (; i < n; i++)
		all &= p->in[u[i]];
	*high = all ? 0 : !ascii(s, n);
	return n ? all : p->shape == P_CLASS_STAR;
}

int sl_pattern_match(const sl_pattern *p, const char *s, size_t len, pcre2_match_data **md,
		     sl_regex_budget *budget)
{
	unsigned high = 0;
	bool class = p->shape == P_CLASS_PLUS || p->shape == P_CLASS_STAR;
	bool yes = class && in_class(p, s, len, &high);
	if (p->shape == P_REGEX || high || (!class && !ascii(s, len))) {
		if (!*md && !(*md = pcre2_match_data_create(1, NULL)))
			return PCRE2_ERROR_NOMEMORY;
		/* the data holds the whole match only: PCRE2 says 0 for a match whose groups do
		** not fit (`^(a|b)$`), a match all the same */
		int rc = sl_regex_match_budget(p->re, s, len, 0, *md, budget);
		return rc == 0 ? 1 : rc;
	}
	if (budget && sl_regex_budget_spent(budget))
		return SL_REGEX_BUDGET_SPENT;
	if (budget)   /* what sl_regex_match_budget charges a match that ends */
		atomic_fetch_add(&budget->spent, len + 1);
	return (class ? yes : shortcut(p, s ? s : "", len)) ? 1 : PCRE2_ERROR_NOMATCH;
}
