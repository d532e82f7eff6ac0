/* SPDX-License-Identifier: Apache-2.0
** test_source.c: inputs and their line index (src/yaml/source.c): every line break libyaml counts
** (LF, CRLF, lone CR, NEL, LS, PS), the UTF-8 BOM, libyaml marks (code-point columns) mapped
** to byte offsets and back, the first bad byte (invalid UTF-8, NUL, C0/C1 controls, DEL) at its
** exact offset, the UTF-16 flag, empty input, reading files and pipes, and allocation failure. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/arena.h"
#include "util/strbuf.h"
#include "yaml/source.h"
#include "support.h"

/* A source over the string literal s (its length taken with sizeof, so NULs are kept). */
#define SRC(s) mksrc((s), sizeof(s) - 1)

static sl_source *mksrc(const char *data, size_t len)
{
	sl_source *s = NULL;
	sl_err err = sl_source_from_buffer("t.yaml", data, len, &s);
	cr_assert_eq(err, SL_OK, "sl_source_from_buffer: %s", sl_strerror(err));
	cr_assert_not_null(s);
	return s;
}

static void expect_lines(const sl_source *s, const size_t *want, size_t n)
{
	cr_assert_eq(s->n_lines, n, "n_lines is %zu, want %zu", s->n_lines, n);
	for (size_t i = 0; i < n; i++)
		cr_expect_eq(s->line_start[i], want[i], "line %zu starts at %zu, want %zu", i,
			     s->line_start[i], want[i]);
}

#define LINES(s, ...) do { \
	static const size_t w_[] = { __VA_ARGS__ }; \
	expect_lines((s), w_, sizeof w_ / sizeof w_[0]); \
} while (0)

static void expect_pos(const sl_source *s, size_t off, uint32_t line, uint32_t col)
{
	uint32_t l = 0, c = 0;
	sl_source_position(s, off, &l, &c);
	cr_expect(l == line && c == col, "offset %zu is at %u:%u, want %u:%u", off, l, c, line, col);
}

static void reset(void)
{
	sl_arena_fail_after(0);
}

TestSuite(source, .init = reset, .fini = reset);

Test(source, buffer_is_copied_and_terminated)
{
	char buf[] = "a: 1\nb: 2";
	sl_source *s = mksrc(buf, 9);
	buf[0] = 'X';   /* the source owns a copy */
	cr_expect_eq(s->len, 9);
	cr_expect_eq(s->data[0], 'a');
	cr_expect_eq(s->data[9], '\0');
	cr_expect_str_eq(s->path, "t.yaml");
	cr_expect_null(s->bad_what);
	cr_expect_eq(s->bom, 0);
	cr_expect_not(s->utf16);
	sl_source_free(s);
	sl_source_free(NULL);
}

Test(source, taken_buffer_is_the_source_s_own)
{
	char *buf = strdup("a: 1\nb: \xc3\xa9\n");
	cr_assert_not_null(buf);
	sl_source *s = NULL;
	cr_assert_eq(sl_source_take_buffer("t.yaml", buf, strlen(buf), &s), SL_OK);
	cr_expect_eq(s->data, buf);   /* taken, not copied: freed with the source */
	cr_expect_eq(s->len, 11);
	cr_expect_eq(s->n_lines, 3);
	uint32_t line, col;
	sl_source_position(s, 10, &line, &col);   /* after the e-acute: one code point */
	cr_expect_eq(line, 2);
	cr_expect_eq(col, 5);
	sl_source_free(s);
}

Test(source, empty_input)
{
	sl_source *s = mksrc("", 0);
	cr_expect_eq(s->len, 0);
	cr_assert_not_null(s->data);
	cr_expect_eq(s->data[0], '\0');
	LINES(s, 0);
	cr_expect_null(s->bad_what);
	cr_expect_not(s->crlf);
	expect_pos(s, 0, 1, 1);
	expect_pos(s, 10, 1, 1);   /* clamped */
	cr_expect_eq(sl_source_mark_offset(s, 0, 0), 0);
	cr_expect_eq(sl_source_mark_offset(s, 3, 4), 0);
	cr_expect_eq(sl_source_line_end(s, 0), 0);
	sl_source_free(s);
}

Test(source, lf_lines)
{
	sl_source *s = SRC("a: 1\nbb: 2\n\nc\n");
	LINES(s, 0, 5, 11, 12, 14);
	cr_expect_not(s->crlf);
	cr_expect_eq(sl_source_line_end(s, 0), 4);
	cr_expect_eq(sl_source_line_end(s, 1), 10);
	cr_expect_eq(sl_source_line_end(s, 2), 11);
	cr_expect_eq(sl_source_line_end(s, 4), 14);
	cr_expect_eq(sl_source_line_of(s, 0), 0);
	cr_expect_eq(sl_source_line_of(s, 4), 0);   /* the break belongs to its line */
	cr_expect_eq(sl_source_line_of(s, 5), 1);
	cr_expect_eq(sl_source_line_of(s, 11), 2);
	cr_expect_eq(sl_source_line_of(s, 13), 3);
	cr_expect_eq(sl_source_line_of(s, 14), 4);
	expect_pos(s, 6, 2, 2);
	expect_pos(s, 14, 5, 1);
	sl_source_free(s);
}

Test(source, crlf_lines)
{
	sl_source *s = SRC("a: 1\r\nb: 2\r\n");
	LINES(s, 0, 6, 12);
	cr_expect(s->crlf);
	cr_expect_eq(sl_source_line_end(s, 0), 4);
	cr_expect_eq(sl_source_line_end(s, 1), 10);
	cr_expect_eq(sl_source_line_of(s, 5), 0, "the LF of CRLF is on the first line");
	expect_pos(s, 9, 2, 4);
	cr_expect_eq(sl_source_mark_offset(s, 1, 3), 9);
	sl_source_free(s);
}

Test(source, crlf_flag_follows_the_first_break_only)
{
	sl_source *a = SRC("a\nb\r\nc");
	cr_expect_not(a->crlf);
	LINES(a, 0, 2, 5);
	sl_source *b = SRC("a\r\nb\nc");
	cr_expect(b->crlf);
	LINES(b, 0, 3, 5);
	sl_source_free(a);
	sl_source_free(b);
}

Test(source, lone_cr_is_a_break)
{
	sl_source *s = SRC("a: 1\rb: 2\r\rc");
	LINES(s, 0, 5, 10, 11);
	cr_expect_not(s->crlf);
	cr_expect_eq(sl_source_line_end(s, 0), 4);
	cr_expect_eq(sl_source_line_end(s, 1), 9);
	cr_expect_eq(sl_source_line_end(s, 2), 10);
	expect_pos(s, 11, 4, 1);
	cr_expect_eq(sl_source_mark_offset(s, 1, 3), 8);
	sl_source_free(s);
}

Test(source, nel_ls_ps_are_breaks)
{
	/* NEL U+0085 (C2 85), LS U+2028 (E2 80 A8), PS U+2029 (E2 80 A9). */
	sl_source *s = SRC("a\xC2\x85" "bc\xE2\x80\xA8" "d\xE2\x80\xA9" "e\n");
	LINES(s, 0, 3, 8, 12, 14);
	cr_expect_null(s->bad_what, "NEL, LS and PS are printable: %s", s->bad_what);
	cr_expect_eq(sl_source_line_end(s, 0), 1);
	cr_expect_eq(sl_source_line_end(s, 1), 5);
	cr_expect_eq(sl_source_line_end(s, 2), 9);
	cr_expect_eq(sl_source_line_end(s, 3), 13);
	cr_expect_eq(sl_source_mark_offset(s, 1, 1), 4);
	cr_expect_eq(sl_source_mark_offset(s, 3, 0), 12);
	expect_pos(s, 4, 2, 2);
	expect_pos(s, 8, 3, 1);
	expect_pos(s, 12, 4, 1);
	sl_source_free(s);
}

Test(source, utf8_bom)
{
	sl_source *s = SRC("\xEF\xBB\xBF" "a: 1\nb: 2\n");
	cr_expect_eq(s->bom, 3);
	cr_expect_null(s->bad_what);
	cr_expect_not(s->utf16);
	LINES(s, 0, 8, 13);
	/* libyaml's marks do not count the BOM: line 0 column 0 is the byte after it. */
	cr_expect_eq(sl_source_mark_offset(s, 0, 0), 3);
	cr_expect_eq(sl_source_mark_offset(s, 0, 3), 6);
	cr_expect_eq(sl_source_mark_offset(s, 1, 0), 8);
	expect_pos(s, 3, 1, 1);
	expect_pos(s, 6, 1, 4);
	expect_pos(s, 0, 1, 1);   /* inside the BOM: clamped to the first column */
	expect_pos(s, 9, 2, 2);
	sl_source_free(s);
}

Test(source, bom_with_multibyte_first_line)
{
	sl_source *s = SRC("\xEF\xBB\xBF" "\xC3\xA9: x\n");
	cr_expect_eq(s->bom, 3);
	cr_expect_null(s->bad_what);
	cr_expect_eq(sl_source_mark_offset(s, 0, 0), 3);
	cr_expect_eq(sl_source_mark_offset(s, 0, 1), 5);
	cr_expect_eq(sl_source_mark_offset(s, 0, 3), 7);
	expect_pos(s, 5, 1, 2);
	expect_pos(s, 7, 1, 4);
	sl_source_free(s);
}

Test(source, only_a_bom)
{
	sl_source *s = SRC("\xEF\xBB\xBF");
	cr_expect_eq(s->bom, 3);
	LINES(s, 0);
	cr_expect_null(s->bad_what);
	cr_expect_eq(sl_source_mark_offset(s, 0, 0), 3);
	expect_pos(s, 3, 1, 1);
	sl_source_free(s);
}

Test(source, mark_offset_ascii)
{
	sl_source *s = SRC("key: value\n  nested: 1\n");
	cr_expect(sl_source_line_ascii(s, 0));
	cr_expect(sl_source_line_ascii(s, 1));
	cr_expect_eq(sl_source_mark_offset(s, 0, 0), 0);
	cr_expect_eq(sl_source_mark_offset(s, 0, 5), 5);
	cr_expect_eq(sl_source_mark_offset(s, 0, 10), 10, "the column of the break");
	cr_expect_eq(sl_source_mark_offset(s, 1, 2), 13);
	cr_expect_eq(sl_source_mark_offset(s, 2, 0), 23, "the empty last line");
	cr_expect_eq(sl_source_mark_offset(s, 7, 0), s->len, "a line past the end clamps");
	cr_expect_eq(sl_source_mark_offset(s, 1, 500), s->len, "a column past the end clamps");
	sl_source_free(s);
}

Test(source, mark_offset_multibyte)
{
	/* In `a: "éé"` libyaml puts the closing quote at column 6; its byte offset is 8. */
	sl_source *s = SRC("a: \"\xC3\xA9\xC3\xA9\"\nb: \xE2\x82\xAC\xF0\x9F\x98\x80x\n");
	cr_expect_not(sl_source_line_ascii(s, 0));
	cr_expect_not(sl_source_line_ascii(s, 1));
	cr_expect_eq(sl_source_mark_offset(s, 0, 3), 3);
	cr_expect_eq(sl_source_mark_offset(s, 0, 4), 4);
	cr_expect_eq(sl_source_mark_offset(s, 0, 5), 6);
	cr_expect_eq(sl_source_mark_offset(s, 0, 6), 8);
	cr_expect_eq(sl_source_mark_offset(s, 0, 7), 9, "the column of the break");
	/* Line 1 starts at 10: "b: " then a 3-byte and a 4-byte character. */
	cr_expect_eq(s->line_start[1], 10);
	cr_expect_eq(sl_source_mark_offset(s, 1, 3), 13);
	cr_expect_eq(sl_source_mark_offset(s, 1, 4), 16);
	cr_expect_eq(sl_source_mark_offset(s, 1, 5), 20);
	cr_expect_eq(sl_source_mark_offset(s, 1, 6), 21);
	sl_source_free(s);
}

Test(source, position_counts_code_points)
{
	sl_source *s = SRC("a: \"\xC3\xA9\xC3\xA9\"\nb: \xE2\x82\xAC\xF0\x9F\x98\x80x\n");
	expect_pos(s, 0, 1, 1);
	expect_pos(s, 4, 1, 5);
	expect_pos(s, 6, 1, 6);
	expect_pos(s, 8, 1, 7);
	expect_pos(s, 9, 1, 8);
	expect_pos(s, 10, 2, 1);
	expect_pos(s, 16, 2, 5);
	expect_pos(s, 20, 2, 6);
	expect_pos(s, s->len, 3, 1);
	expect_pos(s, s->len + 100, 3, 1);
	sl_source_free(s);
}

Test(source, mark_offset_and_position_round_trip)
{
	const char text[] = "x: \xE4\xB8\xAD\xE6\x96\x87 t\xC3\xBCr\r\n  - \xF0\x9F\x9A\x80\xC2\x85ok\n";
	sl_source *s = SRC(text);
	for (size_t line = 0; line < s->n_lines; line++) {
		size_t end = sl_source_line_end(s, line);
		for (size_t col = 0;; col++) {
			size_t off = sl_source_mark_offset(s, line, col);
			uint32_t l, c;
			sl_source_position(s, off, &l, &c);
			cr_assert_eq(l, line + 1, "line %zu col %zu -> offset %zu -> line %u", line, col,
				     off, l);
			cr_assert_eq(c, col + 1, "line %zu col %zu -> offset %zu -> col %u", line, col,
				     off, c);
			if (off >= end)
				break;
		}
	}
	sl_source_free(s);
}

static void expect_bad(const char *data, size_t len, size_t off, const char *what_part)
{
	sl_source *s = mksrc(data, len);
	cr_assert_not_null(s->bad_what, "no bad byte found, want one at %zu", off);
	cr_expect_eq(s->bad_offset, off, "bad byte at %zu, want %zu (%s)", s->bad_offset, off,
		     s->bad_what);
	cr_expect(strstr(s->bad_what, what_part) != NULL, "\"%s\" lacks \"%s\"", s->bad_what,
		  what_part);
	sl_source_free(s);
}

#define BAD(s, off, what) expect_bad((s), sizeof(s) - 1, (off), (what))

Test(source, invalid_utf8_exact_offsets)
{
	BAD("ab\xFFz", 2, "UTF-8");
	BAD("a: 1\nb: \x80\n", 8, "UTF-8");                    /* lone continuation byte */
	BAD("ok: \xC3\xA9\nx: \xC3(\n", 10, "UTF-8");           /* bad continuation */
	BAD("x: \xC0\xAF", 3, "UTF-8");                         /* overlong '/' */
	BAD("x: \xE0\x80\xAF", 3, "UTF-8");                     /* overlong 3-byte */
	BAD("x: \xED\xA0\x80", 3, "UTF-8");                     /* surrogate U+D800 */
	BAD("x: \xF4\x90\x80\x80", 3, "UTF-8");                 /* above U+10FFFF */
	BAD("x: \xF8\x88\x80\x80\x80", 3, "UTF-8");             /* 5-byte form */
	BAD("x: \xE2\x82", 3, "UTF-8");                         /* truncated at the end */
	BAD("\xEF\xBB\xBF" "a\xFE", 4, "UTF-8");                /* after a BOM */
}

Test(source, control_characters_exact_offsets)
{
	BAD("a: 1\nb: x\0y\n", 9, "NUL");
	BAD("\0", 0, "NUL");
	BAD("a: \x01", 3, "control");
	BAD("a: b\x1B[0m", 4, "control");   /* ESC */
	BAD("a: \x7F", 3, "control");        /* DEL */
	BAD("a: \x0B", 3, "control");        /* vertical tab */
	BAD("a: \x0C", 3, "control");        /* form feed */
	BAD("a: \xC2\x80", 3, "control");    /* C1 control U+0080 */
	BAD("a: \xC2\x9F", 3, "control");    /* C1 control U+009F */
	BAD("a: \xEF\xBF\xBE", 3, "control"); /* U+FFFE is not printable */
}

Test(source, first_bad_byte_wins_and_indexing_goes_on)
{
	sl_source *s = SRC("a\n\x01\xFF\n\0\nz");
	cr_expect_eq(s->bad_offset, 2);
	cr_expect(strstr(s->bad_what, "control") != NULL, "%s", s->bad_what);
	LINES(s, 0, 2, 5, 7);
	sl_source_free(s);
}

Test(source, allowed_characters_are_clean)
{
	sl_source *s = SRC("a:\tb\r\nc: \"\xC2\xA0\xEE\x80\x80\xEF\xBF\xBD\xF0\x90\x80\x80\"\x7E\n");
	cr_expect_null(s->bad_what, "unexpected: %s at %zu", s->bad_what, s->bad_offset);
	sl_source_free(s);
}

Test(source, utf16_bom_is_flagged)
{
	sl_source *le = SRC("\xFF\xFE" "a\0:\0 \0" "1\0");
	cr_expect(le->utf16);
	cr_expect_eq(le->bom, 0);
	cr_expect_eq(le->n_lines, 1);
	sl_source *be = SRC("\xFE\xFF" "\0a\0:");
	cr_expect(be->utf16);
	sl_source *one = SRC("\xFF");
	cr_expect_not(one->utf16, "one byte is not a UTF-16 BOM");
	cr_expect_not_null(one->bad_what);
	sl_source_free(le);
	sl_source_free(be);
	sl_source_free(one);
}

static char tmpdir[256];

static char *write_tmp(const char *name, const char *data, size_t len)
{
	if (!tmpdir[0]) {
		sl_test_scratch(tmpdir, sizeof tmpdir, "source");
	}
	char *path = NULL;
	cr_assert(asprintf(&path, "%s/%s", tmpdir, name) > 0);
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

Test(source, read_file)
{
	const char text[] = "a: 1\r\nb: \xC3\xA9\r\n";
	char *path = write_tmp("x.yaml", text, sizeof text - 1);
	sl_source *s = NULL;
	cr_assert_eq(sl_source_read_file(path, "shown.yaml", &s), SL_OK);
	cr_expect_str_eq(s->path, "shown.yaml");
	cr_expect_eq(s->len, sizeof text - 1);
	cr_expect_eq(memcmp(s->data, text, s->len), 0);
	cr_expect(s->crlf);
	LINES(s, 0, 6, 13);
	sl_source_free(s);
	unlink(path);
	free(path);
	sl_test_rm_rf(tmpdir);
}

/* A regular file is read into a buffer of its size (and the NUL after it), not one doubled
** past it (a 20 MB file took 32 MiB); its text is all there, read to its end, as by fd too. */
Test(source, a_file_is_read_at_its_size)
{
	const size_t n = 300000;   /* doubling from 64 KiB would give it 512 KiB */
	char *text = malloc(n);
	cr_assert_not_null(text);
	for (size_t i = 0; i < n; i++)
		text[i] = i % 40 == 39 ? '\n' : (char)('a' + i % 26);
	char *path = write_tmp("big.yaml", text, n);
	sl_source *s = NULL, *t = NULL;
	cr_assert_eq(sl_source_read_file(path, "big.yaml", &s), SL_OK);
	cr_expect_eq(s->len, n);
	cr_expect_eq(memcmp(s->data, text, n), 0);
	cr_expect_eq(s->data[n], '\0');
	cr_expect_eq(s->n_lines, n / 40 + 1);
	cr_expect_lt(malloc_usable_size(s->data), n + 4096, "%zu bytes for %zu",
		     malloc_usable_size(s->data), n);
	int fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(sl_source_read_fd(fd, "big.yaml", &t), SL_OK);
	close(fd);
	cr_expect_eq(t->len, n);
	cr_expect_eq(memcmp(t->data, text, n), 0);
	cr_expect_lt(malloc_usable_size(t->data), n + 4096);
	sl_source_free(s);
	sl_source_free(t);
	unlink(path);
	free(path);
	free(text);
	sl_test_rm_rf(tmpdir);
}

Test(source, read_file_errors)
{
	sl_source *s = (sl_source *)0x1;
	errno = 0;
	cr_expect_eq(sl_source_read_file("/nonexistent/dir/x.yaml", "x.yaml", &s), SL_EIO);
	cr_expect_eq(errno, ENOENT);
	cr_expect_eq(s, (sl_source *)0x1, "output untouched on failure");
	errno = 0;
	cr_expect_eq(sl_source_read_file("/tmp", "tmp", &s), SL_EIO);
	cr_expect_eq(errno, EISDIR);
	cr_expect_eq(s, (sl_source *)0x1);
}

Test(source, read_fd_from_a_pipe_larger_than_the_first_buffer)
{
	/* 200 KiB through a pipe: no size is known up front, so the buffer must grow. */
	enum { N = 200 * 1024 };
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	pid_t pid = sl_test_fork();
	if (pid == 0) {
		close(fds[0]);
		char line[32];
		for (int i = 0; i < N / 16; i++) {
			snprintf(line, sizeof line, "k%09d: xyz\n", i);   /* 16 bytes */
			if (write(fds[1], line, 16) != 16)
				_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	sl_source *s = NULL;
	cr_assert_eq(sl_source_read_fd(fds[0], "<stdin>", &s), SL_OK);
	close(fds[0]);
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the writer: status %d", st);
	cr_expect_eq(s->len, (size_t)N);
	cr_expect_eq(s->n_lines, (size_t)N / 16 + 1);
	cr_expect_eq(s->line_start[1000], 16000);
	cr_expect_eq(memcmp(s->data + 16 * 12345, "k000012345", 10), 0);
	cr_expect_null(s->bad_what);
	cr_expect_str_eq(s->path, "<stdin>");
	sl_source_free(s);
}

Test(source, many_lines)
{
	/* More lines than the index's first allocation. */
	size_t n = 5000;
	char *buf = malloc(n * 2);
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = 'x';
		buf[2 * i + 1] = (i % 3 == 0) ? '\r' : '\n';
	}
	sl_source *s = mksrc(buf, n * 2);
	cr_expect_eq(s->n_lines, n + 1);
	cr_expect_eq(s->line_start[n], n * 2);
	cr_expect_eq(s->line_start[4321], 4321 * 2);
	cr_expect_eq(sl_source_line_of(s, 4321 * 2 + 1), 4321);
	sl_source_free(s);
	free(buf);
}

Test(source, allocation_failures_return_enomem)
{
	/* Fail each allocation in turn: the call reports SL_ENOMEM and leaves *out alone. */
	char big[3000];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (i % 5 == 4) ? '\n' : 'a';   /* 600 lines: the index grows */
	int saw_failure = 0;
	for (unsigned long n = 1; n <= 12; n++) {
		sl_source *s = (sl_source *)0x1;
		sl_arena_fail_after(n);
		sl_err err = sl_source_from_buffer("p", big, sizeof big, &s);
		sl_arena_fail_after(0);
		if (err == SL_OK) {
			cr_expect_eq(s->n_lines, 601);
			sl_source_free(s);
			continue;
		}
		saw_failure = 1;
		cr_expect_eq(err, SL_ENOMEM, "failure %lu gave %s", n, sl_strerror(err));
		cr_expect_eq(s, (sl_source *)0x1, "output touched on failure %lu", n);
	}
	cr_expect(saw_failure);
}

/* The line index and the first bad byte agree with a byte-by-byte reading, whatever falls on
** the word boundaries the scanner reads eight bytes at a time across. */
Test(source, line_index_matches_a_plain_scan)
{
	static const char alphabet[] = "ab: -\n\r\t\x01\x7f\x1f ~";
	unsigned seed = 12345;
	for (int round = 0; round < 3000; round++) {
		char buf[64];
		size_t n = (size_t)(round % 64);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly printable, so the fast path runs */
			unsigned r = (seed >> 16) % 100;
			buf[i] = r < 80 ? (char)('a' + r % 26) : alphabet[r % (sizeof alphabet - 1)];
		}
		sl_source *s = NULL;
		cr_assert_eq(sl_source_from_buffer("r.yaml", buf, n, &s), SL_OK);
		size_t want_lines = 1, bad = (size_t)-1;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)buf[i];
			if (c == '\n' || (c == '\r' && !(i + 1 < n && buf[i + 1] == '\n')))
				cr_expect_eq(s->line_start[want_lines++], i + 1, "round %d: line %zu", round,
					     want_lines);
			if (bad == (size_t)-1 && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f))
				bad = i;
		}
		cr_expect_eq(s->n_lines, want_lines, "round %d", round);
		if (bad == (size_t)-1)
			cr_expect_null(s->bad_what, "round %d", round);
		else
			cr_expect_eq(s->bad_offset, bad, "round %d", round);
		cr_expect_eq(s->ascii, bad == (size_t)-1, "round %d", round);
		const char *br = memchr(buf, '\n', n), *cr = memchr(buf, '\r', n);
		const char *first = !br ? cr : !cr ? br : br < cr ? br : cr;
		cr_expect_eq(s->crlf, first && *first == '\r' && first + 1 < buf + n && first[1] == '\n',
			     "round %d", round);
		sl_source_free(s);
	}
}

/* Plain ASCII text (printable, tabs, LFs) has its lines indexed by a faster scan than text with
** other bytes: both give the same index, the same lines ASCII and the same positions, on the
** boundaries of the sixteen bytes the first reads at a time. */
Test(source, plain_ascii_index_matches_the_general_one)
{
	static const char alphabet[] = "ab: -\n\n\t~#\"";
	unsigned seed = 777;
	for (int round = 0; round < 2000; round++) {
		char buf[80];
		size_t n = (size_t)(round % 70);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			buf[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
		}
		/* the same text with a two-byte character after it: the general scan */
		memcpy(buf + n, "\xC3\xA9", 2);
		sl_source *plain = NULL, *general = NULL;
		cr_assert_eq(sl_source_from_buffer("p.yaml", buf, n, &plain), SL_OK);
		cr_assert_eq(sl_source_from_buffer("g.yaml", buf, n + 2, &general), SL_OK);
		cr_expect(plain->ascii, "round %d", round);
		cr_expect_not(general->ascii, "round %d", round);
		cr_expect_null(plain->bad_what, "round %d", round);
		cr_expect_not(plain->crlf, "round %d", round);
		cr_assert_eq(plain->n_lines, general->n_lines, "round %d", round);
		for (size_t l = 0; l < plain->n_lines; l++) {
			cr_expect_eq(plain->line_start[l], general->line_start[l], "round %d line %zu",
				     round, l);
			if (l + 1 < plain->n_lines)
				cr_expect(sl_source_line_ascii(plain, l) &&
					  sl_source_line_ascii(general, l), "round %d", round);
		}
		for (size_t off = 0; off <= n; off++) {
			uint32_t l1, c1, l2, c2;
			sl_source_position(plain, off, &l1, &c1);
			sl_source_position(general, off, &l2, &c2);
			cr_expect(l1 == l2 && c1 == c2, "round %d offset %zu", round, off);
		}
		sl_source_free(plain);
		sl_source_free(general);
	}
}

/* Text that is plain for thousands of lines (the fast scan has grown the table) and then is not
** (a two-byte character, a CR, a NUL): the general scan indexes it all again, with a flag per
** line, and every line's start, ASCII flag and the columns of its characters are right. */
Test(source, the_general_scan_after_a_long_plain_start)
{
	static const char *const tails[] = {"x: \xC3\xA9t\xC3\xA9\n", "x: y\r\nz: w\n", "x: \t1\x01\n"};
	for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
		sl_strbuf b = {0};
		for (int i = 0; i < 5000; i++)
			cr_assert(sl_strbuf_addf(&b, "k%d: v\n", i));
		cr_assert(sl_strbuf_addstr(&b, tails[t]));
		cr_assert(sl_strbuf_addstr(&b, "last: 1\n"));
		sl_source *s = NULL;
		cr_assert_eq(sl_source_from_buffer("l.yaml", b.s, b.len, &s), SL_OK);
		cr_expect_eq(s->ascii, t == 1, "tail %zu: a CR is ASCII, the rest is not", t);
		size_t want = 5000 + (t == 1 ? 2 : 1) + 2;   /* the tail's lines, "last", the empty end */
		cr_assert_eq(s->n_lines, want, "tail %zu: %zu lines", t, s->n_lines);
		size_t off = 0;
		for (size_t l = 0; l < 5000; l++) {
			cr_expect_eq(s->line_start[l], off, "tail %zu line %zu", t, l);
			cr_expect(sl_source_line_ascii(s, l));
			off += strlen("k: v\n") + (size_t)snprintf(NULL, 0, "%zu", l);
		}
		cr_expect_eq(s->line_start[5000], off);
		cr_expect_eq(sl_source_line_ascii(s, 5000), t != 0, "tail %zu", t);
		uint32_t line, col;
		sl_source_position(s, off + 5, &line, &col);   /* after "x: " and one character */
		cr_expect_eq(line, 5001);
		cr_expect_eq(col, t == 0 ? 5 : 6, "tail %zu: column %u", t, col);
		cr_expect_eq(sl_source_mark_offset(s, 5000, t == 0 ? 4 : 5), off + 5, "tail %zu", t);
		cr_expect_eq(t == 2, s->bad_what != NULL, "tail %zu", t);
		cr_expect_not(s->crlf, "the first break is an LF");
		const char *last = strstr(b.s, "last: 1");
		cr_expect_eq(s->line_start[want - 2], (size_t)(last - b.s), "tail %zu", t);
		cr_expect(sl_source_line_ascii(s, want - 2));
		sl_source_free(s);
		sl_strbuf_free(&b);
	}
}
