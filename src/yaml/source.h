/* SPDX-License-Identifier: Apache-2.0
** source.h: one input's bytes, its line index and the facts fixes must preserve (BOM, CRLF).
** Positions: byte offsets are what edits use; line/column (1-based, columns in code points)
** are what users see. libyaml marks count characters, so they are mapped through the line
** index (sl_source_mark_offset), never used as byte offsets. Line breaks are libyaml's:
** LF, CR, CRLF, NEL, LS and PS. */
#ifndef SL_SOURCE_H
#define SL_SOURCE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include "schedlint/error.h"
#include "schedlint/lint.h"

/* SL_PIPE_INPUT_MAX (schedlint/lint.h): input that is not a regular file is read up to that
** many bytes; more is an error (EFBIG). */
/* errno of a read refused because the path is not a regular file (a FIFO would block, a
** device never ends): only regular files are read by path, stdin by "-". */
#define SL_ENOTREG ENOTSUP

/* What the file was when it was read: a fix is written only over the same, unchanged file. */
typedef struct sl_stamp {
	bool valid;            /* read by path (or from a regular file's fd) */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
} sl_stamp;

typedef struct sl_source {
	char *path;            /* as reported: the argument given, or the stdin filename */
	char *data;            /* the bytes, NUL-terminated for convenience (owned) */
	size_t len;
	size_t *line_start;    /* byte offset where each line starts (owned) */
	unsigned char *line_ascii;  /* 1 when that line holds only ASCII before its break; NULL
				** when every line does (ascii): sl_source_line_ascii reads it */
	size_t n_lines;
	size_t bom;            /* 3 when the file starts with a UTF-8 byte order mark */
	unsigned char may_template;  /* a template marker may start in the text (template.c's
				** sl_template_may_hold): 2 yes, 1 no, 0 not asked yet */
	bool ascii;            /* every byte is ASCII and valid (so each character one byte) */
	bool crlf;             /* the first line break is CRLF */
	bool utf16;            /* starts with a UTF-16 byte order mark (not supported) */
	size_t bad_offset;     /* first byte that is invalid UTF-8 or a forbidden control char */
	const char *bad_what;  /* its description, NULL when the text is clean */
	void *owner;           /* the engine's record of the file (a fix may edit another file) */
	sl_stamp stamp;        /* the file read, when it was a regular file */
} sl_source;

/* Reads the file at fs_path (path is what reports show). SL_EIO with errno kept on failure. */
sl_err sl_source_read_file(const char *fs_path, const char *path, sl_source **out);
/* Reads the file's bytes only, for a look at the text: no line index yet (n_lines is 0), so
** none of the position functions below may be used until sl_source_index. */
sl_err sl_source_read_text(const char *fs_path, const char *path, sl_source **out);
/* Builds the line index (and the encoding check) of a source read by sl_source_read_text;
** a no-op for the others. SL_ENOMEM only. */
sl_err sl_source_index(sl_source *s);
/* Reads all of fd (stdin): at most SL_PIPE_INPUT_MAX bytes unless fd is a regular file. */
sl_err sl_source_read_fd(int fd, const char *path, sl_source **out);
/* A source over a copy of data[0..len). */
sl_err sl_source_from_buffer(const char *path, const char *data, size_t len, sl_source **out);
/* A source over data[0..len) itself (malloc'd, data[len] a NUL), which it takes: freed with it,
** or now on an error. */
sl_err sl_source_take_buffer(const char *path, char *data, size_t len, sl_source **out);
void sl_source_free(sl_source *src);
/* Lets src's text and line index go (data NULL), keeping the source itself: its address, path
** and owner, which others point at, stay; sl_source_reread fills it again. */
void sl_source_drop_text(sl_source *src);
/* Reads src's file (at fs_path) again into src in place: text and line index as
** sl_source_read_file makes them, address, path and owner kept (src unchanged on an error). */
sl_err sl_source_reread(sl_source *src, const char *fs_path);

/* Opens path for reading when it is a regular file (symlinks followed): never blocks on a FIFO,
** never reads a device; -1 with errno SL_ENOTREG (or open's) otherwise, *st filled on success.
** Descriptors are throttled: when the process has none left (EMFILE) and other threads hold
** some, it waits for one to be closed with sl_source_close. */
int sl_source_open(const char *path, struct stat *st);
/* Closes an fd from sl_source_open, waking a reader that waits for a descriptor. */
void sl_source_close(int fd);
/* The text for an errno of the reading functions ("not a regular file...", "more than 64 MiB
** ...", else strerror). */
const char *sl_source_strerror(int errnum);
/* Length of the valid UTF-8 sequence at p (at most n bytes; overlong forms, surrogates and
** values past U+10FFFF are invalid), 0 when there is none. *cp gets the code point. */
size_t sl_source_utf8_decode(const unsigned char *p, size_t n, unsigned *cp);

/* True when line `line` (0-based, indexed) holds only ASCII before its break. */
bool sl_source_line_ascii(const sl_source *src, size_t line);
/* The byte offset of a libyaml mark (0-based line and character column), clamped to len. */
size_t sl_source_mark_offset(const sl_source *src, size_t line, size_t column);
/* The 1-based line and code-point column of a byte offset. */
void sl_source_position(const sl_source *src, size_t offset, uint32_t *line, uint32_t *col);
/* The 0-based line holding offset. */
size_t sl_source_line_of(const sl_source *src, size_t offset);
/* True when t[0..n), the start of a text, holds more than a byte order mark, spaces, line
** breaks and comments: a document of its own (what the excerpts and the tree builder both count
** before a text's first "---"). */
bool sl_source_text_holds_content(const char *t, size_t n);
/* The end of line `line` (0-based): the offset of its break, or len. */
size_t sl_source_line_end(const sl_source *src, size_t line);

#endif
