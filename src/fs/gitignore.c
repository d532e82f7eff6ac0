/* SPDX-License-Identifier: Apache-2.0
** gitignore.c: a tree's ignore files read and matched without git (gitignore.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fs/gitignore.h"
#include "util/arena.h"
#include "util/strmap.h"

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

/* The text of the ignore file at path (malloc'd), when it is a regular file of at most MAX_FILE
** bytes; NULL otherwise. Opened without blocking on a FIFO, and without following a symlink
** unless follow (git reads a work tree's .gitignore only when it is no symlink, but follows
** info/exclude and core.excludesFile). */
static char *read_ignore(const char *path, bool follow)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
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

/* --- a tree's ignore rules, each .gitignore read once ---------------------------------------- */

struct sl_gitignore_tree {
	char *root;       /* the tree's directory, without a trailing '/' ("" for "/") */
	char *base;       /* the tree-wide files' lines, lowest precedence first; NULL: none */
	sl_strmap texts;  /* a directory (relative to root, "" the root) -> its .gitignore, or &none */
	sl_strmap dirs;   /* a directory -> &yes when it is ignored, &none when not */
	bool (*absent)(void *ctx, const char *dir, size_t dlen, const char *name);
	void *absent_ctx;
};
static char none, yes;

sl_gitignore_tree *sl_gitignore_tree_new(const char *root, const char *const *files,
					 size_t n_files)
{
	sl_gitignore_tree *g = sl_xcalloc(1, sizeof *g);
	size_t len = strlen(root);
	while (len > 0 && root[len - 1] == '/')
		len--;
	if (g)
		g->root = sl_xstrndup(root, len);
	if (!g || !g->root) {
		sl_gitignore_tree_free(g);
		return NULL;
	}
	for (size_t i = 0; i < n_files; i++) {
		char *text = files[i] ? read_ignore(files[i], true) : NULL;
		char *both = !text ? NULL : g->base ? sl_xprintf("%s\n%s", g->base, text)
						    : sl_xstrdup(text);
		if (both) {
			free(g->base);
			g->base = both;
		}
		free(text);
	}
	return g;
}

static void free_map(sl_strmap *m, bool vals)
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->v[i].key)
			continue;
		free((void *)m->v[i].key);
		if (vals && m->v[i].val != &none)
			free(m->v[i].val);
	}
	sl_strmap_free(m);
}

void sl_gitignore_tree_free(sl_gitignore_tree *g)
{
	if (!g)
		return;
	free_map(&g->texts, true);
	free_map(&g->dirs, false);
	free(g->base);
	free(g->root);
	free(g);
}

/* m's value for key [key, key + len), made by make(g, key) (a new string) on the first ask;
** NULL when out of memory. */
static void *memo(sl_gitignore_tree *g, sl_strmap *m, const char *key, size_t len,
		  void *(*make)(sl_gitignore_tree *, const char *))
{
	sl_strmap_slot *s = sl_strmap_get(m, key, len);
	if (s)
		return s->val;
	char *k = sl_xstrndup(key, len);
	void *val = k ? make(g, k) : NULL;
	bool found;
	s = val ? sl_strmap_put(m, k, len, &found) : NULL;
	if (!s) {
		if (val != &none && val != &yes)
			free(val);
		free(k);
		return NULL;
	}
	s->val = val;
	return val;
}

void sl_gitignore_tree_probe(sl_gitignore_tree *g,
			     bool (*absent)(void *ctx, const char *dir, size_t dlen, const char *name),
			     void *ctx)
{
	g->absent = absent;
	g->absent_ctx = ctx;
}

/* The .gitignore of the directory rel (relative to the root) or &none. */
static void *load_text(sl_gitignore_tree *g, const char *rel)
{
	size_t rn = strlen(g->root), n = strlen(rel);
	char *path = sl_xmalloc(rn + n + sizeof "//.gitignore");
	if (!path)
		return NULL;
	memcpy(path, g->root, rn);
	size_t at = rn;
	if (n) {
		path[at++] = '/';
		memcpy(path + at, rel, n);
		at += n;
	}
	path[at] = '\0';
	char *text = NULL;
	if (!g->absent || !g->absent(g->absent_ctx, at ? path : "/", at ? at : 1, ".gitignore")) {
		memcpy(path + at, "/.gitignore", sizeof "/.gitignore");
		text = read_ignore(path, false);
	}
	free(path);
	return text ? text : &none;
}

/* Whether the segments c[0..m) name an ignored path (is_dir: a directory) by the patterns
** alone: the tree-wide files, then each directory's .gitignore from the root down to the path's
** own, the last pattern that matches deciding (a deeper file overrides a shallower one). */
static bool decide(sl_gitignore_tree *g, const struct seg *c, size_t m, bool is_dir)
{
	const char *start = c[0].s, *end = c[m - 1].e;
	bool ignored = false;
	/* the path up to c[m - 1] as a string of its own: each level's part is a suffix of it */
	size_t len = (size_t)(end - start);
	char small[512], *rel = len < sizeof small ? small : sl_xmalloc(len + 1);
	if (!rel)
		return false;
	memcpy(rel, start, len);
	rel[len] = '\0';
	if (g->base)
		apply(g->base, rel, is_dir, &ignored);
	for (size_t k = 0; k < m; k++) {
		const char *text = memo(g, &g->texts, start, k ? (size_t)(c[k - 1].e - start) : 0,
					load_text);
		if (text && text != &none)
			apply(text, rel + (c[k].s - start), is_dir, &ignored);
	}
	if (rel != small)
		free(rel);
	return ignored;
}

/* rel split into c (n returned); 0 when it is empty, too deep, or has a "." or ".." segment. */
static size_t segments(const char *rel, struct seg *c)
{
	size_t n = split(rel, strlen(rel), c, MAX_LEVELS + 1);
	if (n > MAX_LEVELS)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((c[i].e - c[i].s == 1 && c[i].s[0] == '.') ||
		    (c[i].e - c[i].s == 2 && c[i].s[0] == '.' && c[i].s[1] == '.'))
			return 0;
	return n;
}

bool sl_gitignore_tree_ignored(sl_gitignore_tree *g, const char *rel, bool is_dir)
{
	struct seg c[MAX_LEVELS + 1];
	size_t n = segments(rel, c);
	if (n == 0)
		return false;
	/* each of its directories, from the root down (each decided once): below an ignored
	** directory nothing is included again */
	for (size_t m = 1; m < n; m++) {
		size_t len = (size_t)(c[m - 1].e - c[0].s);
		sl_strmap_slot *s = sl_strmap_get(&g->dirs, c[0].s, len);
		bool ignored;
		if (s) {
			ignored = s->val == &yes;
		} else {
			ignored = decide(g, c, m, true);
			bool found;
			s = sl_strmap_put_copy(&g->dirs, c[0].s, len, &found);
			if (s)
				s->val = ignored ? &yes : &none;
		}
		if (ignored)
			return true;
	}
	return decide(g, c, n, is_dir);
}

bool sl_gitignore_tree_matches(sl_gitignore_tree *g, const char *rel, bool is_dir)
{
	struct seg c[MAX_LEVELS + 1];
	size_t n = segments(rel, c);
	return n > 0 && decide(g, c, n, is_dir);
}

/* path asked as a file (as_file) and, when that does not ignore it, as a directory (as_dir),
** of one tree: each .gitignore above it read once. */
static bool ignores(const char *path, bool as_file, bool as_dir)
{
	char *abs = absolute(path);
	sl_gitignore_tree *g = abs ? sl_gitignore_tree_new("/", NULL, 0) : NULL;
	bool ignored = g && ((as_file && sl_gitignore_tree_ignored(g, abs, false)) ||
			     (as_dir && sl_gitignore_tree_ignored(g, abs, true)));
	sl_gitignore_tree_free(g);
	free(abs);
	return ignored;
}

bool sl_gitignore_ignores(const char *path, bool is_dir)
{
	return ignores(path, !is_dir, is_dir);
}

bool sl_gitignore_ignores_either(const char *path)
{
	return ignores(path, true, true);
}
