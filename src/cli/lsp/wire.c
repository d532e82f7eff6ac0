/* SPDX-License-Identifier: Apache-2.0
** cli/lsp/wire.c: the base protocol of LSP: "Content-Length: N\r\n\r\n" then N bytes of JSON, over
** descriptors (poll, so a wait has a timeout and the debounce can run). A header block that
** frames nothing (no Content-Length, a bad number) is reported and skipped; a body over
** SL_LSP_WIRE_MAX is discarded as it arrives, never held; the end of the input, even in the
** middle of a message, is EOF. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "schedlint/fdio.h"
#include "cli/lsp/lsp.h"

/* A header block longer than this without its blank line is not LSP. */
#define HEADER_MAX 8192

void sl_lsp_wire_init(sl_lsp_wire *w, int in, int out)
{
	memset(w, 0, sizeof *w);
	w->in = in;
	w->out = out;
}

void sl_lsp_wire_free(sl_lsp_wire *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->pos = w->cap = 0;
}

/* Reads what is there (waiting at most timeout_ms): 1 bytes came, 0 timeout, -1 EOF/error. */
static int fill(sl_lsp_wire *w, int timeout_ms)
{
	if (w->eof)
		return -1;
	if (w->pos > 0 && w->pos == w->len)
		w->pos = w->len = 0;
	if (w->pos > w->cap / 2) {   /* keep the unread part at the front */
		memmove(w->buf, w->buf + w->pos, w->len - w->pos);
		w->len -= w->pos;
		w->pos = 0;
	}
	if (w->cap - w->len < 65536) {
		size_t ncap = w->cap ? w->cap * 2 : 131072;
		char *nb = realloc(w->buf, ncap + 1);
		if (!nb)
			return -1;
		w->buf = nb;
		w->cap = ncap;
	}
	struct pollfd p = {.fd = w->in, .events = POLLIN};
	for (;;) {
		int r = poll(&p, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			w->eof = true;
			return -1;
		}
		if (r == 0)
			return 0;
		break;
	}
	ssize_t r = sl_fdio_read(w->in, w->buf + w->len, w->cap - w->len);
	if (r <= 0) {
		w->eof = true;
		return -1;
	}
	w->len += (size_t)r;
	return 1;
}

/* The end of the header block at buf[pos..len): the offset after its blank line, 0 when it is
** not all there. Lines end in \r\n (or \n, leniently). */
static size_t header_end(const sl_lsp_wire *w)
{
	for (size_t i = w->pos; i < w->len; i++) {
		if (w->buf[i] != '\n')
			continue;
		if (i + 1 < w->len && w->buf[i + 1] == '\n')
			return i + 2;
		if (i + 2 < w->len && w->buf[i + 1] == '\r' && w->buf[i + 2] == '\n')
			return i + 3;
	}
	return 0;
}

/* The Content-Length of the header block buf[pos..end); -1 when there is none or it is no
** number, -2 when it is over the limit (*n is still set). */
static int content_length(const sl_lsp_wire *w, size_t end, size_t *n)
{
	const char *p = w->buf + w->pos, *e = w->buf + end;
	int found = -1;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl)
			break;
		static const char key[] = "Content-Length:";
		if ((size_t)(nl - p) > sizeof key - 1 && strncasecmp(p, key, sizeof key - 1) == 0) {
			const char *q = p + sizeof key - 1;
			while (q < nl && (*q == ' ' || *q == '\t'))
				q++;
			size_t v = 0;
			bool digits = false, over = false;
			for (; q < nl && *q >= '0' && *q <= '9'; q++) {
				digits = true;
				if (v > (SIZE_MAX - 9) / 10)
					over = true;
				else
					v = v * 10 + (size_t)(*q - '0');
			}
			while (q < nl && (*q == ' ' || *q == '\t' || *q == '\r'))
				q++;
			if (!digits || q != nl)
				return -1;
			*n = over ? SIZE_MAX : v;
			found = over || v > SL_LSP_WIRE_MAX ? -2 : 0;
		}
		p = nl + 1;
	}
	return found;
}

static sl_lsp_wire_status bad(char **body, size_t *len, const char *why)
{
	*body = strdup(why);
	*len = *body ? strlen(*body) : 0;
	return SL_LSP_WIRE_BAD;
}

sl_lsp_wire_status sl_lsp_wire_read(sl_lsp_wire *w, int timeout_ms, char **body, size_t *len)
{
	*body = NULL;
	*len = 0;
	for (;;) {
		/* the rest of a refused body, discarded as it comes */
		if (w->skip) {
			size_t have = w->len - w->pos, k = have < w->skip ? have : w->skip;
			w->pos += k;
			w->skip -= k;
			if (w->skip) {
				int r = fill(w, timeout_ms);
				if (r < 0)
					return SL_LSP_WIRE_EOF;
				if (r == 0)
					return SL_LSP_WIRE_TIMEOUT;
				continue;
			}
		}
		size_t end = header_end(w);
		if (end) {
			size_t n = 0;
			int c = content_length(w, end, &n);
			if (c == -1) {
				w->pos = end;
				return bad(body, len, "a message header without a valid Content-Length");
			}
			if (c == -2) {
				w->pos = end;
				w->skip = n;
				return bad(body, len, "a message longer than the 64 MiB limit: skipped");
			}
			if (w->len - end >= n) {
				char *b = malloc(n + 1);
				if (!b)
					return SL_LSP_WIRE_EOF;
				memcpy(b, w->buf + end, n);
				b[n] = '\0';
				w->pos = end + n;
				*body = b;
				*len = n;
				return SL_LSP_WIRE_MESSAGE;
			}
		} else if (w->len - w->pos > HEADER_MAX) {
			w->pos = w->len;   /* no header can be this long: drop it */
			return bad(body, len, "a message header longer than 8 KiB without its end");
		}
		int r = fill(w, timeout_ms);
		if (r < 0)
			return SL_LSP_WIRE_EOF;
		if (r == 0)
			return SL_LSP_WIRE_TIMEOUT;
	}
}

bool sl_lsp_wire_send(sl_lsp_wire *w, json_t *msg)
{
	if (!msg)
		return false;
	char *s = w->broken ? NULL : json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (!s)
		return false;
	char head[64];
	size_t n = strlen(s);
	int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", n);
	bool ok = sl_fdio_write_all(w->out, head, (size_t)h) && sl_fdio_write_all(w->out, s, n);
	free(s);
	if (!ok)
		w->broken = true;
	return ok;
}
