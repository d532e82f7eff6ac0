/* SPDX-License-Identifier: Apache-2.0
** source.c: reading inputs whole, and the line index built in the same pass that checks
** the text is UTF-8 without the control characters YAML forbids (so a bad byte is found
** at its exact offset before libyaml, whose reader errors carry no usable mark). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "schedlint/fdio.h"
#include "util/arena.h"
#include "util/v16.h"
#include "yaml/source.h"
#include "util/strbuf.h"

size_t sl_source_utf8_decode(const unsigned char *p, size_t n, unsigned *cp)
{
	unsigned c = p[0];
	size_t len;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		len = 2; c &= 0x1F; min = 0x80;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3; c &= 0x0F; min = 0x800;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4; c &= 0x07; min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

/* YAML 1.1 printable set (libyaml's reader check). */
static int printable(unsigned c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
	       (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
	       (c >= 0x10000 && c <= 0x10FFFF);
}

/* Room for `more` lines past the n_lines indexed (and their ASCII flags, once the general scan
** keeps them: line_ascii not NULL). */
static sl_err reserve_lines(sl_source *s, size_t *cap, size_t more)
{
	if (s->n_lines + more <= *cap)
		return SL_OK;
	size_t ncap = *cap ? *cap : 32;
	while (ncap < s->n_lines + more)
		ncap *= 2;
	size_t *ls = sl_xrealloc(s->line_start, ncap * sizeof *ls);
	if (!ls)
		return SL_ENOMEM;
	s->line_start = ls;
	if (s->line_ascii) {
		unsigned char *la = sl_xrealloc(s->line_ascii, ncap);
		if (!la)
			return SL_ENOMEM;
		s->line_ascii = la;
	}
	*cap = ncap;
	return SL_OK;
}

static sl_err push_line(sl_source *s, size_t *cap, size_t start)
{
	if (reserve_lines(s, cap, 1) != SL_OK)
		return SL_ENOMEM;
	s->line_start[s->n_lines] = start;
	s->line_ascii[s->n_lines] = 1;
	s->n_lines++;
	return SL_OK;
}

/* The line index of plain ASCII text (only printable ASCII, tabs and LFs: most manifests),
** checked and indexed sixteen bytes at a time, a line after each LF; every line is ASCII
** (s->ascii), so no flag per line is kept. *plain false, and nothing indexed past line 0, at the
** first other byte: the general scan then reads the text. */
static sl_err index_plain(sl_source *s, size_t *cap, bool *plain)
{
	const unsigned char *d = (const unsigned char *)s->data;
	size_t n = s->len, i = 0;
	*plain = false;
	/* a line every 32 bytes or more (manifests' lines are shorter): one or two reallocs */
	if (reserve_lines(s, cap, n / 32 + 16) != SL_OK)
		return SL_ENOMEM;
	/* the table and its count in locals: stores to a size_t table could change a size_t
	** count, as far as the compiler knows */
	size_t *ls = s->line_start, nl = 0;
	ls[nl++] = 0;
	for (; i + 16 <= n; i += 16) {
		sl_v16 v = sl_v16_load(d + i), lf = (sl_v16)(v == '\n');
		if (sl_v16_mask(sl_v16_between(v, 0x20, 0x7E) | lf | (sl_v16)(v == '\t')) != 0xFFFF) {
			s->n_lines = 1;
			return SL_OK;
		}
		unsigned m = sl_v16_mask(lf);
		if (nl + 16 > *cap) {
			s->n_lines = nl;
			if (reserve_lines(s, cap, 16) != SL_OK)
				return SL_ENOMEM;
			ls = s->line_start;
		}
		for (; m; m &= m - 1)
			ls[nl++] = i + (size_t)__builtin_ctz(m) + 1;
	}
	s->n_lines = nl;
	for (; i < n; i++) {
		if (d[i] == '\n') {
			if (reserve_lines(s, cap, 1) != SL_OK)
				return SL_ENOMEM;
			s->line_start[s->n_lines++] = i + 1;
		} else if (d[i] < 0x20 || d[i] >= 0x7F) {
			if (d[i] != '\t') {
				s->n_lines = 1;
				return SL_OK;
			}
		}
	}
	*plain = true;
	s->ascii = true;
	return SL_OK;
}

/* Builds the line index and finds the first bad byte. */
static sl_err index_lines(sl_source *s)
{
	const unsigned char *d = (const unsigned char *)s->data;
	size_t n = s->len, cap = 0, i = 0;
	bool first_break = true;
	if (n >= 2 && ((d[0] == 0xFF && d[1] == 0xFE) || (d[0] == 0xFE && d[1] == 0xFF)))
		s->utf16 = true;
	if (n >= 3 && d[0] == 0xEF && d[1] == 0xBB && d[2] == 0xBF)
		s->bom = 3;
	if (!s->bom && !s->utf16) {
		bool plain;
		if (index_plain(s, &cap, &plain) != SL_OK)
			return SL_ENOMEM;
		if (plain)
			return SL_OK;
		s->n_lines = 0;   /* line 0 again, with its flag */
	}
	/* the general scan: a flag per line */
	if (!(s->line_ascii = sl_xmalloc(cap ? cap : 1)) || push_line(s, &cap, 0) != SL_OK)
		return SL_ENOMEM;
	i = s->bom;
	if (s->utf16)
		return SL_OK;
	while (i < n) {
		/* eight printable ASCII bytes at a time: none below 0x20, none 0x7F or above */
		while (i + 8 <= n) {
			uint64_t w;
			memcpy(&w, d + i, 8);
			const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
			uint64_t below = (w - ones * 0x20) & ~w;   /* high bit set where a byte < 0x20 */
			uint64_t del = ((w ^ ones * 0x7F) - ones) & ~(w ^ ones * 0x7F);   /* 0x7F */
			if ((w | below | del) & highs)
				break;
			i += 8;
		}
		if (i >= n)
			break;
		unsigned char c = d[i];
		if (c >= 0x20 && c < 0x7F) {
			i++;
			continue;
		}
		if (c == '\n' || c == '\r') {
			size_t next = i + 1;
			if (c == '\r' && next < n && d[next] == '\n')
				next++;
			if (first_break) {
				s->crlf = (next - i == 2);
				first_break = false;
			}
			if (push_line(s, &cap, next) != SL_OK)
				return SL_ENOMEM;
			i = next;
			continue;
		}
		if (c == '\t') {
			i++;
			continue;
		}
		unsigned cp = 0;
		size_t len = sl_source_utf8_decode(d + i, n - i, &cp);
		if (len == 0) {
			if (!s->bad_what) {
				s->bad_offset = i;
				s->bad_what = "invalid UTF-8 byte sequence";
			}
			s->line_ascii[s->n_lines - 1] = 0;
			i++;
			continue;
		}
		if (!printable(cp) && !s->bad_what) {
			s->bad_offset = i;
			s->bad_what = cp == 0 ? "NUL byte (control characters are not allowed)"
					      : "control characters are not allowed";
		}
		if (len > 1)
			s->line_ascii[s->n_lines - 1] = 0;
		if (cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
			if (push_line(s, &cap, i + len) != SL_OK)
				return SL_ENOMEM;
		}
		i += len;
	}
	s->ascii = !s->bad_what;
	for (size_t l = 0; s->ascii && l < s->n_lines; l++)
		s->ascii = s->line_ascii[l];
	return SL_OK;
}

static sl_err finish(sl_source *s, const char *path, bool index)
{
	s->path = sl_xstrdup(path);
	if (!s->path)
		return SL_ENOMEM;
	return index ? sl_source_index(s) : SL_OK;
}

sl_err sl_source_index(sl_source *s)
{
	return s->n_lines ? SL_OK : index_lines(s);
}

sl_err sl_source_take_buffer(const char *path, char *data, size_t len, sl_source **out)
{
	sl_source *s = sl_xcalloc(1, sizeof *s);
	if (!s) {
		free(data);
		return SL_ENOMEM;
	}
	s->data = data;
	s->len = len;
	sl_err err = finish(s, path, true);
	if (err) {
		sl_source_free(s);
		return err;
	}
	*out = s;
	return SL_OK;
}

sl_err sl_source_from_buffer(const char *path, const char *data, size_t len, sl_source **out)
{
	char *copy = sl_xmalloc(len + 1);
	if (!copy)
		return SL_ENOMEM;
	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	return sl_source_take_buffer(path, copy, len, out);
}

/* Reads all of fd; known: its fstat when the caller has it. */
static sl_err read_fd(int fd, const char *path, bool index, const struct stat *known,
		      sl_source **out)
{
	struct stat st;
	bool regular = known ? (st = *known, true) : fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	sl_strbuf b = {0};
	/* a regular file at its size, and a byte more to see its end without growing (doubling
	** from 64 KiB would give a 20 MB file 32 MiB); else 64 KiB, doubled as it fills */
	if (regular && st.st_size > 0 ? !sl_strbuf_reserve_exact(&b, (size_t)st.st_size + 1)
	    : !sl_strbuf_grow(&b, 64 * 1024 - 1))
		return SL_ENOMEM;
	for (;;) {
		if (b.len + 1 >= b.cap && !sl_strbuf_grow(&b, b.cap)) {
			sl_strbuf_free(&b);
			return SL_ENOMEM;
		}
		size_t want = b.cap - b.len - 1;
		if (!regular && want > SL_PIPE_INPUT_MAX + 1 - b.len)
			want = SL_PIPE_INPUT_MAX + 1 - b.len;   /* one byte past the cap tells */
		ssize_t r = sl_fdio_read(fd, b.s + b.len, want);
		if (r < 0) {   /* EAGAIN too: a FIFO opened non-blocking fails, never waits */
			int e = errno;
			sl_strbuf_free(&b);
			errno = e;
			return SL_EIO;
		}
		if (r == 0)
			break;
		b.len += (size_t)r;
		/* a regular file read to the size fstat gave, by a read that asked for more: its end
		** (no second read to see it; a short read anywhere else reads on) */
		if (regular && (size_t)r < want && b.len == (size_t)st.st_size)
			break;
		/* a pipe or a device ends where the cap says: /dev/zero never ends */
		if (!regular && b.len > SL_PIPE_INPUT_MAX) {
			sl_strbuf_free(&b);
			errno = EFBIG;
			return SL_EIO;
		}
	}
	b.s[b.len] = '\0';
	size_t len = b.len;
	char *buf = sl_strbuf_take(&b);
	sl_source *s = sl_xcalloc(1, sizeof *s);
	if (!s) {
		free(buf);
		return SL_ENOMEM;
	}
	s->data = buf;
	s->len = len;
	/* what was read, for the check before a fix is written over it (as it was before the
	** read: a change while reading shows at the write) */
	if (regular) {
		s->stamp.valid = true;
		s->stamp.dev = st.st_dev;
		s->stamp.ino = st.st_ino;
		s->stamp.size = st.st_size;
		s->stamp.mtime = st.st_mtim;
	}
	sl_err err = finish(s, path, index);
	if (err) {
		sl_source_free(s);
		return err;
	}
	*out = s;
	return SL_OK;
}

sl_err sl_source_read_fd(int fd, const char *path, sl_source **out)
{
	return read_fd(fd, path, true, NULL, out);
}

/* Descriptors held by readers (counted from just before the open, so a reader that gets
** EMFILE knows whether another one will close a descriptor soon), and how many were closed so
** far: a reader out of descriptors waits only while some other reader holds one. */
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t fd_freed = PTHREAD_COND_INITIALIZER;
static size_t fds_held;
static unsigned long fds_closed;

/* Gives back a descriptor slot (closed: a waiting reader may retry). */
static void release_slot(bool closed)
{
	pthread_mutex_lock(&fd_lock);
	fds_held--;
	if (closed)
		fds_closed++;
	pthread_cond_broadcast(&fd_freed);
	pthread_mutex_unlock(&fd_lock);
}

int sl_source_open(const char *path, struct stat *st)
{
	for (;;) {
		pthread_mutex_lock(&fd_lock);
		unsigned long gen = fds_closed;
		fds_held++;
		pthread_mutex_unlock(&fd_lock);
		/* O_NONBLOCK: opening a FIFO without a writer must not hang */
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd >= 0) {
			int e = fstat(fd, st) != 0 ? errno : S_ISDIR(st->st_mode) ? EISDIR
							      : !S_ISREG(st->st_mode) ? SL_ENOTREG : 0;
			if (e) {
				sl_source_close(fd);
				errno = e;
				return -1;
			}
			return fd;   /* O_NONBLOCK does nothing to a regular file's reads */
		}
		int e = errno;
		if (e != EMFILE && e != ENFILE) {
			release_slot(false);
			errno = e;
			return -1;
		}
		/* out of descriptors: wait for another reader to close one, while one holds any */
		pthread_mutex_lock(&fd_lock);
		fds_held--;
		pthread_cond_broadcast(&fd_freed);
		while (gen == fds_closed && fds_held > 0)
			pthread_cond_wait(&fd_freed, &fd_lock);
		bool retry = gen != fds_closed;
		pthread_mutex_unlock(&fd_lock);
		if (!retry) {
			errno = e;
			return -1;
		}
	}
}

void sl_source_close(int fd)
{
	int e = errno;
	close(fd);
	release_slot(true);
	errno = e;
}

const char *sl_source_strerror(int errnum)
{
	if (errnum == SL_ENOTREG)
		return "not a regular file (a FIFO, device or socket is never read by path; "
		       "give it as \"-\" on stdin)";
	if (errnum == EFBIG)
		return "more than 64 MiB from a pipe or device (the limit for input that is not a "
		       "regular file)";
	return strerror(errnum);
}

static sl_err read_file(const char *fs_path, const char *path, bool index, sl_source **out)
{
	struct stat st;
	int fd = sl_source_open(fs_path, &st);
	if (fd < 0)
		return SL_EIO;
	sl_err err = read_fd(fd, path, index, &st, out);
	sl_source_close(fd);
	return err;
}

sl_err sl_source_read_file(const char *fs_path, const char *path, sl_source **out)
{
	return read_file(fs_path, path, true, out);
}

sl_err sl_source_read_text(const char *fs_path, const char *path, sl_source **out)
{
	return read_file(fs_path, path, false, out);
}

void sl_source_free(sl_source *src)
{
	if (!src)
		return;
	free(src->path);
	free(src->data);
	free(src->line_start);
	free(src->line_ascii);
	free(src);
}

void sl_source_drop_text(sl_source *src)
{
	free(src->data);
	free(src->line_start);
	free(src->line_ascii);
	src->data = NULL;
	src->line_start = NULL;
	src->line_ascii = NULL;
	src->n_lines = 0;
}

sl_err sl_source_reread(sl_source *src, const char *fs_path)
{
	sl_source *n = NULL;
	sl_err err = sl_source_read_file(fs_path, fs_path, &n);
	if (err != SL_OK) {
		sl_source_free(n);
		return err;
	}
	char *path = src->path;
	void *owner = src->owner;
	sl_source_drop_text(src);
	free(n->path);
	*src = *n;   /* the source's address stays */
	src->path = path;
	src->owner = owner;
	free(n);
	return SL_OK;
}

size_t sl_source_line_end(const sl_source *src, size_t line)
{
	if (line + 1 >= src->n_lines)
		return src->len;
	size_t e = src->line_start[line + 1];
	const unsigned char *d = (const unsigned char *)src->data;
	/* Step back over the break: LF, CR, CRLF, or a 2/3-byte NEL/LS/PS. */
	if (e >= 2 && d[e - 2] == '\r' && d[e - 1] == '\n')
		return e - 2;
	if (e >= 1 && (d[e - 1] == '\n' || d[e - 1] == '\r'))
		return e - 1;
	if (e >= 2 && d[e - 2] == 0xC2 && d[e - 1] == 0x85)
		return e - 2;
	if (e >= 3)
		return e - 3;
	return e;
}

bool sl_source_line_ascii(const sl_source *src, size_t line)
{
	return src->ascii || src->line_ascii[line];
}

size_t sl_source_mark_offset(const sl_source *src, size_t line, size_t column)
{
	if (line >= src->n_lines)
		return src->len;
	size_t off = src->line_start[line];
	if (line == 0)
		off = src->bom;
	if (sl_source_line_ascii(src, line)) {
		off += column;
	} else {
		size_t end = sl_source_line_end(src, line);
		const unsigned char *d = (const unsigned char *)src->data;
		while (column > 0 && off < end) {
			unsigned char c = d[off];
			off += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
			column--;
		}
		off += column;   /* past the line's text: the break itself */
	}
	return off > src->len ? src->len : off;
}

size_t sl_source_line_of(const sl_source *src, size_t offset)
{
	size_t lo = 0, hi = src->n_lines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (src->line_start[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

void sl_source_position(const sl_source *src, size_t offset, uint32_t *line, uint32_t *col)
{
	if (offset > src->len)
		offset = src->len;
	size_t l = sl_source_line_of(src, offset);
	size_t start = l == 0 ? src->bom : src->line_start[l];
	size_t c = 0;
	if (offset < start)
		offset = start;
	if (sl_source_line_ascii(src, l)) {
		c = offset - start;
	} else {
		const unsigned char *d = (const unsigned char *)src->data;
		for (size_t i = start; i < offset; i++)
			if ((d[i] & 0xC0) != 0x80)
				c++;
	}
	*line = (uint32_t)(l + 1);
	*col = (uint32_t)(c + 1);
}

/* True when t[0..n), the start of a text, holds more than a byte order mark, spaces, line
** breaks and comments: a document (libyaml starts one at any other token, and at a tab that
** starts a line's text: no token may start with one, the document is broken). */
bool sl_source_text_holds_content(const char *t, size_t n)
{
	size_t bom = n >= 3 && memcmp(t, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	for (size_t i = bom; i < n;) {
		while (i < n && t[i] == ' ')
			i++;
		if (i < n && t[i] != '#' && t[i] != '\n' && t[i] != '\r')
			return true;
		const char *nl = memchr(t + i, '\n', n - i);
		const char *cr = memchr(t + i, '\r', n - i);
		if (!nl || (cr && cr < nl))
			nl = cr;
		i = nl ? (size_t)(nl - t) + 1 : n;
	}
	return false;
}
