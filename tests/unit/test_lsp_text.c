/* SPDX-License-Identifier: Apache-2.0
** test_lsp_text.c: the language server's positions (src/cli/lsp/text.c): LSP's lines (\n, \r\n,
** a lone \r; not NEL or LS), UTF-16 code units both ways (astral characters are two, a position
** inside one stays before it), clamping past a line's end or the text's, bytes that are not
** UTF-8, splices, and the one-edit diff that keeps whole characters and CRLFs. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "cli/lsp/lsp.h"

static sl_lsp_lines lines_of(const char *t)
{
	sl_lsp_lines l = {0};
	cr_assert(sl_lsp_text_lines(t, strlen(t), &l));
	return l;
}

Test(lsp_text, line_breaks_are_lsps)
{
	const char *t = "a\nb\r\nc\rd\xC2\x85" "e\xE2\x80\xA8" "f";   /* NEL, LS: no break */
	sl_lsp_lines l = lines_of(t);
	cr_expect_eq(l.n, 4);
	cr_expect_eq(l.start[1], 2);
	cr_expect_eq(l.start[2], 5);
	cr_expect_eq(l.start[3], 7);
	uint32_t line, ch;
	sl_lsp_text_position(t, strlen(t), &l, strlen(t), &line, &ch);
	cr_expect_eq(line, 3);
	cr_expect_eq(ch, 5, "d, NEL, e, LS, f: 5 units, got %u", ch);
	/* the end of line 1 is before its CRLF */
	cr_expect_eq(sl_lsp_text_offset(t, strlen(t), &l, 1, 99), 3);
	sl_lsp_text_lines_free(&l);
}

Test(lsp_text, utf16_units_both_ways)
{
	const char *t = "x: \"Z\xC3\xBCrich \xF0\x9F\x9A\x80\", y: true\n";   /* ü: 2 bytes; rocket: 4 */
	size_t n = strlen(t);
	sl_lsp_lines l = lines_of(t);
	const char *yes = strstr(t, "true");
	uint32_t line, ch;
	sl_lsp_text_position(t, n, &l, (size_t)(yes - t), &line, &ch);
	cr_expect_eq(line, 0);
	cr_expect_eq(ch, 19, "x: \"Zürich 🚀\", y:  is 19 UTF-16 units, got %u", ch);
	cr_expect_eq(sl_lsp_text_offset(t, n, &l, 0, 19), (size_t)(yes - t));
	/* inside the surrogate pair: before the character */
	const char *rocket = strstr(t, "\xF0\x9F\x9A\x80");
	cr_expect_eq(sl_lsp_text_offset(t, n, &l, 0, 11), (size_t)(rocket - t));
	cr_expect_eq(sl_lsp_text_offset(t, n, &l, 0, 12), (size_t)(rocket - t));
	cr_expect_eq(sl_lsp_text_offset(t, n, &l, 0, 13), (size_t)(rocket - t) + 4);
	/* past the last line: the end of the text */
	cr_expect_eq(sl_lsp_text_offset(t, n, &l, 7, 0), n);
	sl_lsp_text_lines_free(&l);
}

Test(lsp_text, bytes_that_are_not_utf8_count_one_each)
{
	const char *t = "a\xFF\xC3z";   /* a lone 0xFF and a cut-off 2-byte lead */
	sl_lsp_lines l = lines_of(t);
	uint32_t line, ch;
	sl_lsp_text_position(t, 4, &l, 4, &line, &ch);
	cr_expect_eq(ch, 4);
	cr_expect_eq(sl_lsp_text_offset(t, 4, &l, 0, 3), 3);
	sl_lsp_text_lines_free(&l);
}

Test(lsp_text, splice_and_diff)
{
	char *t = strdup("a: 1\r\nb: \xC3\xA9\r\n");
	size_t n = strlen(t);
	cr_assert(sl_lsp_text_splice(&t, &n, 3, 4, "22", 2));
	cr_expect_str_eq(t, "a: 22\r\nb: \xC3\xA9\r\n");
	cr_assert(sl_lsp_text_splice(&t, &n, 99, 120, "!", 1));   /* clamped to the end */
	cr_expect_str_eq(t, "a: 22\r\nb: \xC3\xA9\r\n!");
	sl_lsp_lines l = lines_of(t);
	/* é -> è: the edit holds the whole character, not its last byte */
	const char *to = "a: 22\r\nb: \xC3\xA8\r\n!";
	json_t *e = sl_lsp_text_diff_edit(t, n, &l, to, strlen(to));
	cr_assert_not_null(e);
	json_t *r = json_object_get(e, "range");
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "start"), "line")), 1);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "start"), "character")), 3);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "end"), "character")), 4);
	cr_expect_str_eq(json_string_value(json_object_get(e, "newText")), "\xC3\xA8");
	json_decref(e);
	/* a \r added before a CRLF: the edit never ends or starts between \r and \n */
	const char *c1 = "a\r\nb", *c2 = "a\r\r\nb";
	sl_lsp_lines cl = lines_of(c1);
	e = sl_lsp_text_diff_edit(c1, 4, &cl, c2, 5);
	cr_assert_not_null(e);
	r = json_object_get(e, "range");
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "start"), "line")), 0);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "start"), "character")), 1);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "end"), "line")), 1);
	cr_expect_eq(json_integer_value(json_object_get(json_object_get(r, "end"), "character")), 0);
	cr_expect_str_eq(json_string_value(json_object_get(e, "newText")), "\r\r\n");
	json_decref(e);
	sl_lsp_text_lines_free(&cl);
	cr_expect_null(sl_lsp_text_diff_edit(t, n, &l, t, n), "no edit between equal texts");
	sl_lsp_text_lines_free(&l);
	free(t);
}
