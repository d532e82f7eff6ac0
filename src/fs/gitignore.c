/* SPDX-License-Identifier: Apache-2.0
** gitignore.c: a tree's .gitignore files read without git (gitignore.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fs/gitignore.h"
#include "util/arena.h"

#define MAX_FILE (1u << 20)   /* a .gitignore larger than this is not read */
#define MAX_LEVELS 64         /* directories below / considered */

/* One character class or literal of a segment pattern at p (before pe) against c: true when it
** matches, *next past it. "[...]" with "!"/"^" negation and ranges; an unterminated "[" is a
** literal; "\x" is x. */
static bool one(const char *p, const char *pe, char c, const char **next)
{
	if (*p == '?') {
		*next = p + 1;
		return true;
	}
	if (*p == '\\' && p + 1 < pe) {
		*next = p + 2;
		return p[1] == c;
	}
	if (*p == '[') {
		const char *q = p + 1;
		bool neg = q < pe && (*q == '!' || *q == '^');
		if (neg)
			q++;
		const char *first = q;
		bool hit = false;
		while (q < pe && (*q != ']' || q == first)) {
			char lo = *q, hi = lo;
			if (lo == '\\' && q + 1 < pe)
				lo = hi = *++q;
			if (q + 2 < pe && q[1] == '-' && q[2] != ']') {   /* a range "a-z" */
				hi = q[2];
				q += 2;
			}
			if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
				hit = true;
			q++;
		}
		if (q < pe) {   /* the closing ']' */
			*next = q + 1;
			return hit != neg;
		}
	}
	*next = p + 1;
	return *p == c;
}

/* The segment pattern [p, pe) ("*" within the segment) against the name [s, se): the greedy
** match that goes back only to the last "*", O(pattern × name). */
static bool seg_match(const char *p, const char *pe, const char *s, const char *se)
{
	const char *star_p = NULL, *star_s = NULL;
	while (s < se) {
		const char *np;
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star_p = p;
			star_s = s;
		} else if (p < pe && one(p, pe, *s, &np)) {
			p = np;
			s++;
		} else if (star_p) {
			p = star_p;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

struct seg {
	const char *s, *e;
};

static size_t split(const char *s, size_t len, struct seg *v, size_t cap)
{
	size_t n = 0;
	const char *end = s + len;
	while (s < end && n < cap) {
		const char *slash = memchr(s, '/', (size_t)(end - s));
		const char *e = slash ? slash : end;
		if (e > s)
			v[n++] = (struct seg){s, e};
		s = e + 1;
	}
	return n;
}

static bool is_globstar(struct seg g)
{
	return g.e - g.s == 2 && g.s[0] == '*' && g.s[1] == '*';
}

/* The segments p[0..np) against t[0..nt): "**" is any number of segments, the rest match one
** segment each; the greedy match that goes back only to the last "**". */
static bool segs_match(const struct seg *p, size_t np, const struct seg *t, size_t nt)
{
	size_t i = 0, j = 0, star_i = 0, star_j = 0;
	bool star = false;
	while (j < nt) {
		if (i < np && is_globstar(p[i])) {
			star = true;
			star_i = ++i;
			star_j = j;
		} else if (i < np && seg_match(p[i].s, p[i].e, t[j].s, t[j].e)) {
			i++;
			j++;
		} else if (star) {
			i = star_i;
			j = ++star_j;
		} else {
			return false;
		}
	}
	while (i < np && is_globstar(p[i]))
		i++;
	return i == np;
}

bool sl_gitignore_pattern_matches(const char *pat, const char *rel, bool is_dir, bool *negated)
{
	size_t len = strcspn(pat, "\r\n");
	*negated = false;
	if (len == 0 || pat[0] == '#')
		return false;
	while (len > 0 && pat[len - 1] == ' ' && !(len > 1 && pat[len - 2] == '\\'))
		len--;   /* trailing spaces, unless escaped */
	if (pat[0] == '!') {
		*negated = true;
		pat++;
		len--;
	}
	bool dir_only = len > 0 && pat[len - 1] == '/';
	if (dir_only)
		len--;
	if (len == 0 || (dir_only && !is_dir))
		return false;
	bool anchored = memchr(pat, '/', len) != NULL;
	struct seg p[128], t[MAX_LEVELS + 1];
	size_t np = split(pat, len, p, 128), nt = split(rel, strlen(rel), t, MAX_LEVELS + 1);
	if (np == 0 || nt == 0 || np == 128)
		return false;
	if (!anchored)   /* matches the last segment at any level */
		return np == 1 && seg_match(p[0].s, p[0].e, t[nt - 1].s, t[nt - 1].e);
	if (np > 1 && is_globstar(p[np - 1])) {
		/* "a/" then "**": everything inside what "a" matches, not "a" itself */
		for (size_t k = 1; k < nt; k++)
			if (segs_match(p, np - 1, t, k))
				return true;
		return false;
	}
	return segs_match(p, np, t, nt);
}

/* dir/.gitignore's text (malloc'd), when it is a regular file of at most MAX_FILE bytes; NULL
** otherwise. Opened without following a symlink and without blocking on a FIFO. */
static char *read_ignore(const char *dir)
{
	char *p = sl_xprintf("%s/.gitignore", strcmp(dir, "/") == 0 ? "" : dir);
	int fd = p ? open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
	free(p);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *text = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_FILE &&
	    (text = sl_xmalloc((size_t)st.st_size + 1))) {
		size_t got = 0;
		ssize_t r;
		while (got < (size_t)st.st_size &&
		       (r = read(fd, text + got, (size_t)st.st_size - got)) > 0)
			got += (size_t)r;
		text[got] = '\0';
	}
	close(fd);
	return text;
}

/* Whether the lines of text decide rel (is_dir): *ignored set by the last pattern that matches
** (a later file overrides an earlier one as a later line does). */
static void apply(const char *text, const char *rel, bool is_dir, bool *ignored)
{
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		bool neg;
		if (sl_gitignore_pattern_matches(line, rel, is_dir, &neg))
			*ignored = !neg;
		line = nl ? nl + 1 : NULL;
	}
}

/* path made absolute through its deepest existing directory (malloc'd), with the part below it
** kept as named; NULL when that part has a ".." (or "."), or when out of memory. */
static char *absolute(const char *path)
{
	char *head = sl_xstrdup(path);
	if (!head)
		return NULL;
	size_t tail = strlen(path);   /* where the part not resolved starts in path */
	char *real = NULL;
	for (;;) {
		real = realpath(*head ? head : "/", NULL);
		if (real)
			break;
		char *slash = strrchr(head, '/');
		if (!slash) {
			real = realpath(".", NULL);
			tail = 0;
			break;
		}
		*slash = '\0';
		tail = (size_t)(slash - head) + 1;
	}
	free(head);
	if (!real)
		return NULL;
	const char *rest = path + (tail < strlen(path) ? tail : strlen(path));
	char *out = NULL;
	struct seg v[MAX_LEVELS + 1];
	size_t n = split(rest, strlen(rest), v, MAX_LEVELS + 1);
	bool dots = false;
	for (size_t i = 0; i < n; i++)
		if ((v[i].e - v[i].s == 1 && v[i].s[0] == '.') ||
		    (v[i].e - v[i].s == 2 && v[i].s[0] == '.' && v[i].s[1] == '.'))
			dots = true;
	if (!dots)
		out = *rest ? sl_xprintf("%s%s%s", real, strcmp(real, "/") == 0 ? "" : "/", rest)
			    : sl_xstrdup(real);
	free(real);
	return out;
}

bool sl_gitignore_ignores(const char *path, bool is_dir)
{
	char *abs = absolute(path);
	if (!abs)
		return false;
	struct seg c[MAX_LEVELS + 1];
	size_t n = split(abs, strlen(abs), c, MAX_LEVELS + 1);
	char *texts[MAX_LEVELS + 1] = {0};   /* texts[k]: the .gitignore of the directory of c[0..k) */
	bool ignored = false, done = false;
	if (n == 0 || n > MAX_LEVELS)
		done = true;
	for (size_t k = 0; !done && k < n; k++) {
		char *dir = k ? sl_xstrndup(abs, (size_t)(c[k - 1].e - abs)) : sl_xstrdup("/");
		texts[k] = dir ? read_ignore(dir) : NULL;
		free(dir);
	}
	/* each of path's directories, then path: below an ignored directory nothing is included */
	for (size_t m = 1; !done && m <= n; m++) {
		bool dir = m < n || is_dir;
		ignored = false;
		for (size_t k = 0; k < m; k++) {
			if (!texts[k])
				continue;
			char *rel = sl_xstrndup(c[k].s, (size_t)(c[m - 1].e - c[k].s));
			if (rel)
				apply(texts[k], rel, dir, &ignored);
			free(rel);
		}
		if (ignored && m < n)
			done = true;
	}
	for (size_t k = 0; k <= n && k <= MAX_LEVELS; k++)
		free(texts[k]);
	free(abs);
	return ignored;
}
