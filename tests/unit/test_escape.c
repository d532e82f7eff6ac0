/* SPDX-License-Identifier: Apache-2.0
** test_escape.c: the escaper every sink goes through (src/output/escape.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "output/escape.h"

static void expect(const char *in, sl_sink sink, const char *want)
{
	char *got = sl_escape_str(in, sink);
	cr_assert_not_null(got);
	cr_expect_str_eq(got, want, "sink %d: \"%s\"", (int)sink, in);
	free(got);
}

/* The hostile inputs of the issue, through every sink. */
#define NL_CMD "v\n::add-mask::secret"
#define ESC "a\033[31mb\033]0;title\007"
#define BIDI "ab\xE2\x80\xAE" "cd\xE2\x81\xA6"
#define BAD "x\xFF\xC0\xAFy\xED\xA0\x80z"
#define LEGACY "x ##[stop-commands] y"

Test(escape, text)
{
	expect("plain / ascii: ok, é 日本", SL_SINK_TEXT, "plain / ascii: ok, é 日本");
	expect(NL_CMD, SL_SINK_TEXT, "v\\n::add-mask::secret");
	expect(ESC, SL_SINK_TEXT, "a\\x1b[31mb\\x1b]0;title\\x07");
	expect("\t\r\x7F", SL_SINK_TEXT, "\\t\\r\\x7f");
	expect(BIDI, SL_SINK_TEXT, "ab\\u202ecd\\u2066");
	expect("\xC2\x85", SL_SINK_TEXT, "\\u0085");   /* C1 NEL */
	expect(BAD, SL_SINK_TEXT, "x\\xff\\xc0\\xafy\\xed\\xa0\\x80z");
	expect("\xF0\x9F\x98\x80 \xE2\x82\xAC", SL_SINK_TEXT, "\xF0\x9F\x98\x80 \xE2\x82\xAC");
	expect(LEGACY, SL_SINK_TEXT, "x \\x23#[stop-commands] y");
	/* "::" only matters at the start of a line */
	expect("::error::x", SL_SINK_TEXT, "::error::x");
	expect("::error::x", SL_SINK_TEXT_LINE, "\\x3a:error::x");
	expect("  ::warning::x", SL_SINK_TEXT_LINE, "  \\x3a:warning::x");
	expect("./::error::x", SL_SINK_TEXT_LINE, "./::error::x");
	expect(":x", SL_SINK_TEXT_LINE, ":x");
	expect("", SL_SINK_TEXT, "");
}

Test(escape, github)
{
	expect(NL_CMD, SL_SINK_GITHUB_DATA, "v%0A::add-mask::secret");
	expect(NL_CMD, SL_SINK_GITHUB_PROP, "v%0A%3A%3Aadd-mask%3A%3Asecret");
	expect("100% a,b\r", SL_SINK_GITHUB_DATA, "100%25 a,b%0D");
	expect("a,b:c", SL_SINK_GITHUB_PROP, "a%2Cb%3Ac");
	expect(ESC, SL_SINK_GITHUB_DATA, "a\\x1b[31mb\\x1b]0;title\\x07");
	expect(BAD, SL_SINK_GITHUB_PROP, "x\\xff\\xc0\\xafy\\xed\\xa0\\x80z");
	expect(LEGACY, SL_SINK_GITHUB_DATA, "x \\x23#[stop-commands] y");
	expect(BIDI, SL_SINK_GITHUB_DATA, "ab\\u202ecd\\u2066");
}

Test(escape, xml)
{
	expect("<a href=\"x\">&'</a>", SL_SINK_XML, "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
	expect(NL_CMD, SL_SINK_XML, "v&#10;::add-mask::secret");
	expect("\t\r", SL_SINK_XML, "&#9;&#13;");
	expect(ESC, SL_SINK_XML, "a\\x1b[31mb\\x1b]0;title\\x07");
	expect(BAD, SL_SINK_XML, "x\\xff\\xc0\\xafy\\xed\\xa0\\x80z");
	expect("\xEF\xBF\xBE", SL_SINK_XML, "\\ufffe");
	expect(BIDI, SL_SINK_XML, "ab&#x202e;cd&#x2066;");
	expect("é", SL_SINK_XML, "é");
}

Test(escape, markdown)
{
	expect("a|b`c", SL_SINK_MARKDOWN, "a\\|b\\`c");
	expect("<script>&amp;</script>", SL_SINK_MARKDOWN, "&lt;script&gt;&amp;amp;&lt;/script&gt;");
	expect("*em* _u_ [l](u) ~s~ @user !x #1 \\", SL_SINK_MARKDOWN,
	       "\\*em\\* \\_u\\_ \\[l\\](u) \\~s\\~ \\@user \\!x \\#1 \\\\");
	expect(NL_CMD, SL_SINK_MARKDOWN, "v<br>::add-mask::secret");
	expect("\t\r", SL_SINK_MARKDOWN, "\\t\\r");
	expect(ESC, SL_SINK_MARKDOWN, "a\\x1b\\[31mb\\x1b\\]0;title\\x07");
	expect(BAD, SL_SINK_MARKDOWN, "x\\xff\\xc0\\xafy\\xed\\xa0\\x80z");
	expect(BIDI, SL_SINK_MARKDOWN, "ab\\u202ecd\\u2066");
	expect("é日本", SL_SINK_MARKDOWN, "é日本");
}

Test(escape, diff_header)
{
	expect("a\n+++ b/etc/passwd", SL_SINK_DIFF, "a\\n+++ b/etc/passwd");
	expect("::error::f.yaml", SL_SINK_DIFF, "\\x3a:error::f.yaml");
	expect(BAD, SL_SINK_DIFF, "x\\xff\\xc0\\xafy\\xed\\xa0\\x80z");
}

static void expect_json(const char *in, const char *want)
{
	json_t *j = sl_escape_json(in);
	cr_assert_not_null(j);
	cr_assert(json_is_string(j));
	cr_expect_str_eq(json_string_value(j), want);
	char *dump = json_dumps(j, JSON_ENCODE_ANY);
	cr_assert_not_null(dump, "the string dumps as JSON");
	free(dump);
	json_decref(j);
}

Test(escape, json)
{
	expect_json("plain é", "plain é");
	expect_json(NL_CMD, NL_CMD);   /* JSON escapes controls itself: kept losslessly */
	expect_json(ESC, ESC);
	expect_json(BAD, "x\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDy\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz");
	expect_json("\xE2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD");   /* truncated sequence at the end */
	json_t *n = sl_escape_json(NULL);
	cr_expect(json_is_null(n));
	json_decref(n);
	/* the public sink, for a client's own JSON writer: the same text, before JSON escaping */
	char *u = sl_escape_str(BAD, SL_SINK_JSON);
	cr_expect_str_eq(u, "x\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
			 "y\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz");
	free(u);
	u = sl_escape_str(NL_CMD, SL_SINK_JSON);
	cr_expect_str_eq(u, NL_CMD, "valid UTF-8 is kept, controls and all");
	free(u);
}

Test(escape, put_writes_the_same)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_not_null(f);
	sl_escape_put(f, NL_CMD, SL_SINK_TEXT_LINE);
	sl_escape_put(f, NULL, SL_SINK_TEXT);
	fclose(f);
	cr_expect_str_eq(buf, "v\\n::add-mask::secret");
	free(buf);
}

/* Character by character (a line laid out for full text output) is the same as the string,
** whose runs of bytes kept as they are the escaper copies whole: every ASCII byte, in every
** sink (JSON aside: it has no character-wise form). */
Test(escape, char_by_char_is_the_string)
{
	char s[256] = "a\tb\x1b[31m \xe2\x80\xae ##[group] \xff\xfe \xe6\x9d\xb1 \xc2\x85 %:,<&";
	size_t at = strlen(s);
	for (int c = 1; c < 0x80; c++)
		s[at++] = (char)c;
	s[at++] = '#';   /* '#' last, and "##" last */
	s[at++] = '#';
	const sl_sink sinks[] = {SL_SINK_TEXT, SL_SINK_TEXT_LINE, SL_SINK_GITHUB_DATA,
				 SL_SINK_GITHUB_PROP, SL_SINK_XML, SL_SINK_DIFF, SL_SINK_MARKDOWN};
	for (size_t k = 0; k < sizeof sinks / sizeof sinks[0]; k++) {
		char joined[2048] = "", one[SL_ESCAPE_CHAR_MAX];
		size_t n = strlen(s);
		for (size_t i = 0; i < n;) {
			size_t took = sl_escape_char(s, n, i, sinks[k], one);
			cr_assert(took >= 1 && took <= 4);
			strcat(joined, one);
			i += took;
		}
		char *whole = sl_escape_str(s, sinks[k]);
		cr_expect_str_eq(joined, whole, "sink %zu", k);
		free(whole);
	}
}

/* sl_escape_put writes what sl_escape_str makes, whether it takes the string as it is (a run of
** plain bytes, found sixteen at a time) or escapes it: every sink, a byte each sink replaces at
** every position of a long string, a workflow command at a line's start. */
Test(escape, put_is_the_string_at_every_position)
{
	static const char specials[] = "#%:,&<>\"'\\`*_[]|~@!\t\n\x01\x7f\xc3";
	const sl_sink sinks[] = {SL_SINK_TEXT, SL_SINK_TEXT_LINE, SL_SINK_GITHUB_DATA,
				 SL_SINK_GITHUB_PROP, SL_SINK_XML, SL_SINK_DIFF, SL_SINK_MARKDOWN,
				 SL_SINK_JSON};
	char s[48];
	for (size_t k = 0; k < sizeof sinks / sizeof sinks[0]; k++)
		for (size_t c = 0; c <= sizeof specials - 1; c++)
			for (size_t at = 0; at < sizeof s - 1; at++) {
				memset(s, 'a', sizeof s - 1);
				s[sizeof s - 1] = '\0';
				if (c < sizeof specials - 1) {
					s[at] = specials[c];
				} else if (at + 2 < sizeof s - 1) {   /* at blanks, then "::" */
					memset(s, ' ', at);
					memcpy(s + at, "::", 2);
				}
				char *buf = NULL;
				size_t len = 0;
				FILE *f = open_memstream(&buf, &len);
				cr_assert_not_null(f);
				sl_escape_put(f, s, sinks[k]);
				fclose(f);
				char *want = sl_escape_str(s, sinks[k]);
				cr_expect_str_eq(buf, want, "sink %d, \"%s\"", (int)sinks[k], s);
				free(want);
				free(buf);
			}
}
