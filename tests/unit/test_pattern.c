/* SPDX-License-Identifier: Apache-2.0
** test_pattern.c: user patterns matched without PCRE2 (src/extend/pattern.c) give PCRE2's
** answer: every pattern below against every string of up to four bytes of an alphabet that
** holds the bytes that matter (a member and a non-member of each class, the literal's bytes,
** a line break, a carriage return, NUL, a two-byte UTF-8 character and a broken one), compared
** with pcre2_match on the same compiled code; the shapes policies use are taken without PCRE2;
** the run's budget is charged and honoured as for a match. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "extend/pattern.h"

/* shapes taken without PCRE2, then patterns the grammar must leave to it */
static const char *const shortcuts[] = {
	"^a-", "^ab$", "^(?!ab$)", "^(?!a-)", "ab", "-", "", "^", "^$", "^(?!)", "^a\\.b",
	"^\\$a$", "^[a-z0-9./-]+$", "^[ab]*$", "^[-a]+$", "^[a.$]+$", "^[0-9]+$", "^[A-Z_]*$",
	"a\\-b",
};
static const char *const others[] = {
	"^a+$", "^(a|b)$", "^a.b", "^[^a]+$", "^[a-z]+", "^[a-z]+$x", "^[]a]+$", "^[a\\d]+$",
	"^[[:alpha:]]+$", "^[a-c-e]+$", "^[A-z]+$", "^[.-a]+$", "a$", "^a\\d", "^(?i)ab",
	"^(?!ab$)x", "(?!ab)", "^ab$$", "^a{2}", "^\xc3\xa9", "^[\xc3\xa9]+$", "^a|b",
	"(*CR)^ab$", "^a\\b",
};
static const char alphabet[][3] = {"a", "b", "-", ".", "z", "0", "\n", "\r", "A", "$",
				   "\xc3\xa9", "\xc3", "\0"};
#define N_ALPHA (sizeof alphabet / sizeof alphabet[0])

static size_t piece(size_t k, char *out)
{
	size_t n = k == N_ALPHA - 1 ? 1 : strlen(alphabet[k]);   /* the last one is NUL */
	memcpy(out, alphabet[k], n);
	return n;
}

/* pcre2_match's answer: 1 on a match, else its code */
static int pcre(const sl_pattern *p, const char *s, size_t len)
{
	pcre2_match_data *md = pcre2_match_data_create(1, NULL);
	cr_assert(md);
	int rc = sl_regex_match(p->re, s, len, 0, md);
	pcre2_match_data_free(md);
	return rc >= 0 ? 1 : rc;
}

static void compare(const char *text, bool want_shortcut)
{
	sl_arena *a = sl_arena_new();
	sl_regex_list l = {0};
	char why[200];
	sl_pattern *p = NULL;
	cr_assert_eq(sl_pattern_compile(a, &l, text, strlen(text), &p, why, sizeof why), SL_OK,
		     "%s: %s", text, why);
	cr_assert_eq(p->shape != 0, want_shortcut, "pattern %s: shape %u", text, p->shape);
	pcre2_match_data *md = NULL;
	size_t checked = 0;
	/* every string of 0 to 4 pieces */
	for (size_t n = 0; n <= 4; n++) {
		size_t total = 1;
		for (size_t i = 0; i < n; i++)
			total *= N_ALPHA;
		for (size_t code = 0; code < total; code++) {
			char s[16];
			size_t len = 0;
			for (size_t i = 0, c = code; i < n; i++, c /= N_ALPHA)
				len += piece(c % N_ALPHA, s + len);
			int want = pcre(p, s, len);
			int got = sl_pattern_match(p, s, len, &md, NULL);
			cr_assert_eq(got > 0 ? 1 : got, want, "pattern %s against \"%.*s\" (%zu bytes): "
				     "%d, PCRE2 %d", text, (int)len, s, len, got, want);
			checked++;
		}
	}
	cr_assert_gt(checked, 30000);
	pcre2_match_data_free(md);
	sl_regex_list_free(&l);
	sl_arena_free(a);
}

Test(pattern, shortcuts_answer_as_pcre2)
{
	for (size_t i = 0; i < sizeof shortcuts / sizeof *shortcuts; i++)
		compare(shortcuts[i], true);
}

Test(pattern, the_rest_is_pcre2s)
{
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		compare(others[i], false);
}

Test(pattern, budget_charged_and_honoured)
{
	sl_arena *a = sl_arena_new();
	sl_regex_list l = {0};
	char why[200];
	sl_pattern *p = NULL;
	cr_assert_eq(sl_pattern_compile(a, &l, "^inference-", 11, &p, why, sizeof why), SL_OK);
	cr_assert(p->shape);
	sl_regex_budget b = {0};
	pcre2_match_data *md = NULL;
	cr_assert_gt(sl_pattern_match(p, "inference-x", 11, &md, &b), 0);
	cr_assert_eq(sl_pattern_match(p, "batch", 5, &md, &b), PCRE2_ERROR_NOMATCH);
	cr_assert_eq(b.spent, 12 + 6, "charged as sl_regex_match_budget charges: len + 1");
	cr_assert_null(md, "no match data made for a shortcut");
	b.spent = SL_REGEX_RUN_BUDGET;
	cr_assert_eq(sl_pattern_match(p, "inference-x", 11, &md, &b), SL_REGEX_BUDGET_SPENT);
	sl_regex_list_free(&l);
	sl_arena_free(a);
}

Test(pattern, not_compiling_says_why)
{
	sl_arena *a = sl_arena_new();
	sl_regex_list l = {0};
	char why[200] = "";
	sl_pattern *p = NULL;
	cr_assert_eq(sl_pattern_compile(a, &l, "^(ab", 4, &p, why, sizeof why), SL_EPARSE);
	cr_assert_null(p);
	cr_assert(strstr(why, "at offset 4"), "%s", why);
	sl_regex_list_free(&l);
	sl_arena_free(a);
}
