/* SPDX-License-Identifier: Apache-2.0
** walk.c: recursive directory walk in sorted order (so runs are reproducible) with a visited
** set of (device, inode) for symlink loops; exclude globs become one PCRE2 pattern each. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/arena.h"
#include "fs/walk.h"
#include "util/path.h"
#include "util/strmap.h"
#include "fs/write.h"

#include "util/regex.h"

struct sl_globs {
	pcre2_code **codes;
	const char **globs;  /* codes[i]'s glob (the config's string) */
	size_t n;
	char *base;          /* absolute config directory */
	const char *what;    /* "exclude", "project include": for messages (static) */
	struct sl_glob_failures *failed;   /* paths no glob could decide, kept for sl_walk_globs_drain */
};

struct sl_glob_failures {
	char **msg;          /* "exclude glob ... : why" */
	char **path;
	size_t n;
};

/* A glob token: a literal byte, "?", "*" (within a segment), "**" (any characters, "/"
** included) or "**" followed by "/" (any directories). */
enum { T_LIT, T_ONE, T_STAR, T_ANY, T_DIRS };

static size_t tokenize(const char *glob, unsigned char *kind, char *lit, size_t cap)
{
	size_t n = 0;
	for (const char *p = glob; *p && n < cap; p++) {
		if (*p == '*') {
			size_t run = 1;
			while (p[run] == '*')
				run++;
			p += run - 1;
			unsigned char k = run == 1 ? T_STAR : p[1] == '/' ? T_DIRS : T_ANY;
			if (k == T_DIRS)
				p++;
			/* a run of stars right after "**" (or "**" and a slash twice) adds nothing */
			if (n && (kind[n - 1] == T_ANY || (kind[n - 1] == T_DIRS && k != T_STAR))) {
				if (kind[n - 1] == T_DIRS && k == T_ANY)
					kind[n - 1] = T_ANY;
				continue;
			}
			kind[n] = k;
		} else {
			kind[n] = *p == '?' ? T_ONE : T_LIT;
		}
		lit[n++] = *p;
	}
	return n;
}

/* The regex of a "?" or a literal token (c: room for an escaped byte). */
static const char *token_re(unsigned char kind, char ch, char c[3])
{
	if (kind == T_ONE)
		return "(?:[\\xc0-\\xf7][\\x80-\\xbf]*+|[^/])";
	unsigned char u = (unsigned char)ch;
	bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
		     u == '/' || u == '_' || u >= 0x80;
	c[0] = plain ? ch : '\\';
	c[1] = plain ? 0 : ch;
	c[2] = 0;
	return c;
}

/* Appends the regex for one glob to buf (size cap). Globs are compiled so they do not
** backtrack catastrophically: runs of "*" collapse, and a literal stretch between two stars is
** matched at its first occurrence, atomically ("(?>[^/]*?abc)"), which is exact because the
** star after it absorbs whatever a later occurrence would have skipped. The match limits
** (regex.h) stay as the backstop. Paths are bytes (no UTF mode: a file name need not be
** UTF-8); "?" takes one UTF-8 character or one stray byte. */
static int glob_to_regex(const char *glob, char *buf, size_t cap)
{
	unsigned char kind[1024];
	char lit[1024];
	if (strlen(glob) >= sizeof kind)
		return -1;
	size_t n = tokenize(glob, kind, lit, sizeof kind);
	size_t w = 0;
#define PUT(s) do { size_t l_ = strlen(s); if (w + l_ + 1 >= cap) return -1; \
		memcpy(buf + w, s, l_); w += l_; } while (0)
	PUT("\\A");
	for (size_t i = 0; i < n; i++) {
		switch (kind[i]) {
		case T_STAR:
		case T_ANY: {
			/* the literal stretch after the star, and whether another star follows it */
			size_t j = i + 1;
			while (j < n && (kind[j] == T_LIT || kind[j] == T_ONE) &&
			       !(kind[i] == T_STAR && lit[j] == '/'))
				j++;
			bool atomic = j > i + 1 && j < n &&
				      (kind[j] == T_ANY || (kind[i] == T_STAR && kind[j] == T_STAR));
			PUT(atomic ? "(?>" : "");
			PUT(kind[i] == T_STAR ? "[^/]*" : ".*");
			PUT(atomic ? "?" : "");
			if (!atomic)
				break;
			for (i++; i < j; i++) {
				char c[3];
				PUT(token_re(kind[i], lit[i], c));
			}
			i--;
			PUT(")");
			break;
		}
		case T_DIRS:
			PUT("(?:.*/)?");
			break;
		default: {
			char c[3];
			PUT(token_re(kind[i], lit[i], c));
		}
		}
	}
	PUT("(?:/.*)?\\z");
	buf[w] = '\0';
	return 0;
#undef PUT
}

/* glob compiled, or NULL (*ec: PCRE2's error code; 0 when glob_to_regex refused it). */
static pcre2_code *glob_compile(const char *glob, int *ec)
{
	char re[8192];
	PCRE2_SIZE eo;
	*ec = 0;
	if (glob_to_regex(glob, re, sizeof re) != 0)
		return NULL;
	return pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, PCRE2_DOTALL, ec, &eo, NULL);
}

/* True when glob has a segment equal to seg ("." or ".."). */
static bool has_segment(const char *glob, const char *seg)
{
	size_t n = strlen(seg);
	for (const char *p = glob; (p = strstr(p, seg)) != NULL; p++)
		if ((p == glob || p[-1] == '/') && (p[n] == '/' || p[n] == '\0'))
			return true;
	return false;
}

const char *sl_walk_glob_problem(const char *glob, char *fix, size_t fixsz)
{
	const char *why = NULL, *from = glob;
	size_t len = strlen(glob);
	if (fixsz)
		fix[0] = '\0';
	if (len == 0)
		return "an empty glob matches nothing";
	if (strpbrk(glob, "[]"))
		return "character classes [...] are not supported (only *, ** and ?): it would match "
		       "only those very characters";
	if (strpbrk(glob, "{}"))
		return "braces {...} are not supported (only *, ** and ?; write one glob for each "
		       "alternative): it would match only those very characters";
	if (strchr(glob, '\\'))
		return "backslash escapes are not supported: it would match a backslash";
	if (glob[0] == '/') {
		why = "a glob is relative to its config's directory, never absolute";
		while (*from == '/')
			from++;
	} else if (from[0] == '.' && from[1] == '/') {
		why = "paths are matched without a leading \"./\"";
		while (from[0] == '.' && from[1] == '/')
			from += 2;
	} else if (glob[len - 1] == '/') {
		why = "a path never ends in \"/\" (without it the glob matches the directory and "
		      "everything under it)";
		while (len > 0 && glob[len - 1] == '/')
			len--;
	} else if (has_segment(glob, ".") || has_segment(glob, "..")) {
		return "paths are matched without \".\" or \"..\" segments";
	}
	if (why) {
		size_t n = len - (size_t)(from - glob);
		if (n > 0 && n < fixsz && !(from[0] == '.' && from[1] == '/') && from[n - 1] != '/' &&
		    !has_segment(from, ".") && !has_segment(from, "..")) {
			memcpy(fix, from, n);
			fix[n] = '\0';
		}
		return why;
	}
	int ec;
	pcre2_code *code = glob_compile(glob, &ec);
	if (!code)
		return ec == PCRE2_ERROR_NOMEMORY ? "out of memory while compiling it"
						  : "too long or too complex to compile";
	pcre2_code_free(code);
	return NULL;
}

sl_err sl_walk_globs_list(const char *const *list, size_t n, const char *dir, const char *what,
			 sl_globs **out, char **error_out)
{
	sl_globs *g = sl_xcalloc(1, sizeof *g);
	if (!g)
		return SL_ENOMEM;
	g->what = what;
	g->failed = sl_xcalloc(1, sizeof *g->failed);
	if (n) {
		g->codes = sl_xcalloc(n, sizeof *g->codes);
		g->globs = sl_xcalloc(n, sizeof *g->globs);
	}
	if (!g->failed || (n && (!g->codes || !g->globs))) {
		sl_walk_globs_free(g);
		return SL_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		int ec = 0;
		const char *glob = list[i];
		g->codes[g->n] = glob_compile(glob, &ec);
		if (!g->codes[g->n]) {
			/* never a glob silently dropped */
			if (error_out)
				*error_out = sl_xprintf("schedlint: error: %s glob \"%s\" cannot be "
							"used (too long or too complex)", what, glob);
			sl_walk_globs_free(g);
			return ec == PCRE2_ERROR_NOMEMORY ? SL_ENOMEM : SL_ECONFIG;
		}
		sl_regex_jit(g->codes[g->n]);
		g->globs[g->n++] = glob;
	}
	char *abs = realpath(dir ? dir : ".", NULL);
	g->base = abs ? abs : sl_xstrdup(dir ? dir : ".");
	if (!g->base) {
		sl_walk_globs_free(g);
		return SL_ENOMEM;
	}
	*out = g;
	return SL_OK;
}

/* Keeps a path a glob could not decide, for sl_walk_globs_drain. */
static void record_failure(const sl_globs *g, const char *path, const char *glob, int rc)
{
	struct sl_glob_failures *f = g->failed;
	char **np = sl_xrealloc(f->path, (f->n + 1) * sizeof *np);
	if (np)
		f->path = np;
	char **nm = sl_xrealloc(f->msg, (f->n + 1) * sizeof *nm);
	if (nm)
		f->msg = nm;
	char *p = sl_xstrdup(path), *m = NULL;
	if (np && nm && p)
		m = sl_xprintf("%s glob \"%s\" cannot be matched against this path (PCRE2 %s); not "
			       "linted", g->what, glob, sl_regex_error(rc));
	if (!m) {
		free(p);
		return;
	}
	f->path[f->n] = p;
	f->msg[f->n++] = m;
}

size_t sl_walk_globs_count(const sl_globs *g)
{
	return g ? g->n : 0;
}

/* sl_walk_globs_match, with real_dir the real path of path's directory when the caller knows it
** (a walk that reached it through no symlink; NULL: realpath asked). */
static bool globs_match_in(const sl_globs *g, const char *path, const char *real_dir)
{
	if (!g || !g->n)
		return false;
	/* Make path relative to the config directory: absolute parent + name, then strip. */
	char buf[PATH_MAX * 2];
	const char *rel = path;
	char *dup = sl_xstrdup(path);
	if (!dup)
		return false;
	char *slash = strrchr(dup, '/');
	const char *name = slash ? slash + 1 : dup;
	if (slash)
		*slash = '\0';
	char *dir = real_dir ? NULL : realpath(slash ? (dup[0] ? dup : "/") : ".", NULL);
	if (real_dir || dir) {
		snprintf(buf, sizeof buf, "%s/%s", real_dir ? real_dir : dir, name);
		size_t bl = strlen(g->base);
		if (strncmp(buf, g->base, bl) == 0 && buf[bl] == '/')
			rel = buf + bl + 1;
		else
			rel = buf;
		free(dir);
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	bool hit = false;
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);
	for (size_t i = 0; md && i < g->n && !hit; i++) {
		int rc = sl_regex_match(g->codes[i], rel, strlen(rel), 0, md);
		if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) {
			/* Undecided: not walked into or linted, and reported (sl_walk_globs_drain). */
			record_failure(g, path, g->globs[i], rc);
			hit = true;
		} else {
			hit = rc >= 0;
		}
	}
	pcre2_match_data_free(md);
	free(dup);
	return hit;
}

bool sl_walk_globs_match(const sl_globs *g, const char *path)
{
	return globs_match_in(g, path, NULL);
}

sl_err sl_walk_globs_drain(const sl_globs *g, sl_err (*fn)(const char *path, const char *msg,
						      void *payload), void *payload)
{
	sl_err err = SL_OK;
	if (!g)
		return SL_OK;
	struct sl_glob_failures *f = g->failed;
	for (size_t i = 0; i < f->n; i++) {
		if (!err)
			err = fn(f->path[i], f->msg[i], payload);
		free(f->path[i]);
		free(f->msg[i]);
	}
	f->n = 0;
	return err;
}

void sl_walk_globs_free(sl_globs *g)
{
	if (!g)
		return;
	for (size_t i = 0; i < g->n; i++)
		pcre2_code_free(g->codes[i]);
	if (g->failed) {
		for (size_t i = 0; i < g->failed->n; i++) {
			free(g->failed->path[i]);
			free(g->failed->msg[i]);
		}
		free(g->failed->path);
		free(g->failed->msg);
		free(g->failed);
	}
	free(g->codes);
	free(g->globs);
	free(g->base);
	free(g);
}

/* A directory listed: its entries sorted, each name stored after its d_type byte. */
struct listing {
	char **names;
	size_t n;
	dev_t dev;                  /* the device stat gave the directory when the walk listed it */
	bool alias;                 /* the real path's entry: names belong to the named one */
	char dir[];                 /* as the walk named it, or its real path: the map's key */
};

struct sl_walk_seen {
	sl_strmap dirs;             /* a directory -> its struct listing */
};

sl_walk_seen *sl_walk_seen_new(void)
{
	return sl_xcalloc(1, sizeof(sl_walk_seen));
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i] - 1);
	free(names);
}

void sl_walk_seen_free(sl_walk_seen *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->dirs.cap; i++) {
		struct listing *l = s->dirs.v[i].val;
		if (l && !l->alias)
			free_names(l->names, l->n);
		free(l);
	}
	sl_strmap_free(&s->dirs);
	free(s);
}

/* Keeps dir's listing (names, n: taken; alias: owned by another entry; dev: its device); false
** when out of memory or dir was listed before (then the caller keeps names). */
static bool seen_put(sl_walk_seen *s, const char *dir, char **names, size_t n, dev_t dev,
		     bool alias)
{
	size_t len = strlen(dir);
	struct listing *l = sl_xmalloc(sizeof *l + len + 1);
	bool found;
	sl_strmap_slot *slot = l ? sl_strmap_put(&s->dirs, memcpy(l->dir, dir, len + 1), len,
						 &found) : NULL;
	if (!slot || found) {
		free(l);
		return false;
	}
	l->names = names;
	l->n = n;
	l->dev = dev;
	l->alias = alias;
	slot->val = l;
	return true;
}

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, *(char *const *)elem);
}

sl_walk_seen_kind sl_walk_seen_at(const sl_walk_seen *s, const char *dir, size_t dlen,
				  const char *name)
{
	if (!s || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return SL_SEEN_UNLISTED;   /* never in a listing */
	const sl_strmap_slot *slot = sl_strmap_get(&s->dirs, dir, dlen);
	if (!slot)
		return SL_SEEN_UNLISTED;
	const struct listing *l = slot->val;
	char **hit = l->n ? bsearch(name, l->names, l->n, sizeof *l->names, cmp_name) : NULL;
	if (!hit)
		return SL_SEEN_ABSENT;
	unsigned char type = (unsigned char)(*hit)[-1];
	return type == DT_REG ? SL_SEEN_FILE : type == DT_DIR ? SL_SEEN_DIR : SL_SEEN_OTHER;
}

bool sl_walk_seen_dev(const sl_walk_seen *s, const char *dir, size_t dlen, dev_t *dev)
{
	const sl_strmap_slot *slot = s ? sl_strmap_get(&s->dirs, dir, dlen) : NULL;
	if (slot)
		*dev = ((const struct listing *)slot->val)->dev;
	return slot != NULL;
}

/* A walk's state: the directories visited (symlink loops), and what else it skips. */
struct visited {
	dev_t *dev;
	ino_t *ino;
	size_t n, cap;
	const sl_walk_skip *skip;   /* NULL: nothing else */
	sl_walk_seen *seen;         /* where it records what it lists; NULL: nowhere */
	char *buf;                  /* list_fd's buffer, allocated on first use */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_yaml_name(const char *n)
{
	size_t l = strlen(n);
	return (l > 5 && strcmp(n + l - 5, ".yaml") == 0) || (l > 4 && strcmp(n + l - 4, ".yml") == 0);
}

/* True when the symlinked directory at path stays inside root. */
static bool stays_inside(const char *path, const char *root)
{
	if (!root)
		return true;
	char *real = realpath(path, NULL);
	bool in = real && (strcmp(real, root) == 0 || sl_write_path_within(real, root));
	free(real);
	return in;
}

/* Keeps the entry name of type type in *names (each name stored after its d_type byte, so
** sorting the names sorts the types along), but "." and "..", and a hidden name unless hidden;
** SL_ENOMEM. */
static sl_err keep_name(char ***names, size_t *n, size_t *cap, const char *name,
			unsigned char type, bool hidden)
{
	if (name[0] == '.' && (!hidden || !name[1] || (name[1] == '.' && !name[2])))
		return SL_OK;   /* "." and "..", and hidden names when nothing records them */
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		char **nn = sl_xrealloc(*names, ncap * sizeof *nn);
		if (!nn)
			return SL_ENOMEM;
		*names = nn;
		*cap = ncap;
	}
	size_t len = strlen(name);
	char *e = sl_xmalloc(len + 2);
	if (!e)
		return SL_ENOMEM;
	e[0] = (char)type;
	memcpy(e + 1, name, len + 1);
	(*names)[(*n)++] = e + 1;
	return SL_OK;
}

#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 30)
#define HAVE_GETDENTS64 1
enum { LIST_BUF = 32768 };   /* glibc's opendir buffer: as many getdents64 calls as readdir */
#endif

/* The entries of the directory open at fd (closed here) kept in *names (n of them: keep_name);
** SL_ENOMEM. A read error ends the listing, as it ends readdir's. With glibc the kernel's
** records are read straight into v's buffer (getdents64): no fstat of fdopendir's, and the walk
** has fstat'ed fd itself. */
static sl_err list_fd(int fd, bool hidden, struct visited *v, char ***names, size_t *n)
{
	size_t cap = 0;
	sl_err err = SL_OK;
#ifdef HAVE_GETDENTS64
	if (!v->buf && !(v->buf = sl_xmalloc(LIST_BUF))) {
		close(fd);
		return SL_ENOMEM;
	}
	ssize_t got;
	while (!err && (got = getdents64(fd, v->buf, LIST_BUF)) > 0)
		for (ssize_t off = 0; off < got && !err;) {
			const struct dirent64 *de = (const struct dirent64 *)(void *)(v->buf + off);
			off += de->d_reclen;
			err = keep_name(names, n, &cap, de->d_name, de->d_type, hidden);
		}
	close(fd);
#else
	(void)v;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return SL_ENOMEM;   /* fd is an open directory: only memory is missing */
	}
	for (const struct dirent *de; !err && (de = readdir(d));)
		err = keep_name(names, n, &cap, de->d_name, de->d_type, hidden);
	closedir(d);
#endif
	return err;
}

/* Notes directory st in v's visited set; false when it was visited before (a symlink loop, or
** a directory reached twice) or out of memory (*err). */
static bool visit(struct visited *v, const struct stat *st, sl_err *err)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->dev[i] == st->st_dev && v->ino[i] == st->st_ino)
			return false;
	if (v->n == v->cap) {
		size_t ncap = v->cap ? v->cap * 2 : 32;
		dev_t *nd = sl_xrealloc(v->dev, ncap * sizeof *nd);
		if (!nd)
			return *err = SL_ENOMEM, false;
		v->dev = nd;
		ino_t *ni = sl_xrealloc(v->ino, ncap * sizeof *ni);
		if (!ni)
			return *err = SL_ENOMEM, false;
		v->ino = ni;
		v->cap = ncap;
	}
	v->dev[v->n] = st->st_dev;
	v->ino[v->n] = st->st_ino;
	v->n++;
	return true;
}

/* Walks dir, whose real path is real (NULL: not known without asking, below a symlink). */
static sl_err walk_dir(const char *dir, const char *real, const char *root, const sl_globs *g,
		       struct visited *v,
		       sl_err (*fn)(const char *, void *),
		       sl_err (*err_fn)(const char *, int, void *), void *payload)
{
	/* the directory opened, then asked what it is (the loop check's device and inode): one
	** fstat, where a stat and opendir's own fstat were two */
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
	sl_err err = SL_OK;
	if (fd < 0 || fstat(fd, &st) != 0) {
		/* as stat then opendir answered: stat's error, a directory visited before, else the
		** open's error */
		int open_errno = errno;
		if (fd >= 0)
			close(fd);
		if (stat(dir, &st) != 0)
			return err_fn(dir, errno, payload);
		return !visit(v, &st, &err) ? err : err_fn(dir, open_errno, payload);
	}
	if (!visit(v, &st, &err)) {
		close(fd);
		return err;   /* a loop, or a directory reached twice */
	}
	char **names = NULL;
	size_t n = 0;
	err = list_fd(fd, v->seen != NULL, v, &names, &n);
	if (!err && n)   /* qsort(NULL, 0) is undefined: an empty directory */
		qsort(names, n, sizeof *names, cmp_str);
	/* a Helm chart's templates are Go templates, not YAML: never walked (helm.c maps their
	** rendered output back instead) */
	bool chart = false;
	for (size_t i = 0; i < n && !chart; i++)
		chart = strcmp(names[i], "Chart.yaml") == 0;
	/* recorded under its name and its real path (what the plan and config discovery ask) */
	bool kept = !err && v->seen && seen_put(v->seen, dir, names, n, st.st_dev, false);
	if (kept && real && strcmp(real, dir) != 0)
		seen_put(v->seen, real, names, n, st.st_dev, true);   /* out of memory: asked by name only */
	for (size_t i = 0; i < n && !err; i++) {
		if (names[i][0] == '.' || (chart && strcmp(names[i], "templates") == 0))
			continue;   /* hidden files and directories */
		char *path = NULL;
		/* under ".": "apps/x.yaml", as the file named alone is spelled, not "./apps/x.yaml" */
		bool here = strcmp(dir, ".") == 0;
		if (!(path = sl_path_join(here ? "" : dir, names[i]))) {
			err = SL_ENOMEM;
			break;
		}
		unsigned char type = (unsigned char)names[i][-1];
		if (v->skip && v->skip->skipped && (type == DT_REG || type == DT_DIR) &&
		    v->skip->skipped(v->skip->ctx, path, real, type == DT_DIR)) {
			/* git ignores it */
		} else if (type == DT_REG) {
			/* readdir said what it is: no stat needed (most entries) */
			if (is_yaml_name(names[i]) && !globs_match_in(g, path, real))
				err = fn(path, payload);
		} else if (type == DT_DIR) {
			if (!globs_match_in(g, path, real)) {
				/* a directory, not a link: its real path is real's and its name */
				char *sub = real ? sl_path_join(real, names[i]) : NULL;
				if (real && !sub) {
					free(path);
					err = SL_ENOMEM;
					break;
				}
				err = walk_dir(path, sub, root, g, v, fn, err_fn, payload);
				free(sub);
			}
		} else if (type != DT_UNKNOWN && type != DT_LNK) {
			/* fifos, sockets, devices: never linted */
		} else if (!globs_match_in(g, path, real)) {
			struct stat s2;
			if (stat(path, &s2) != 0) {
				if (lstat(path, &s2) != 0 || !S_ISLNK(s2.st_mode))
					err = err_fn(path, errno, payload);
				/* a dangling symlink is skipped silently, as ruff does */
			} else if (S_ISDIR(s2.st_mode) || (S_ISREG(s2.st_mode) && is_yaml_name(names[i]))) {
				/* a symlinked directory or file (or one readdir could not type):
				** followed only while it stays inside the root, so a link to another
				** tree is never read, linted (a declared rule's {value} would print
				** it) nor fixed; the caller is told (a notice) */
				bool dir = S_ISDIR(s2.st_mode);
				if (!stays_inside(path, root))
					err = v->skip && v->skip->outside
						? v->skip->outside(v->skip->ctx, path, dir) : SL_OK;
				else if (dir)
					err = walk_dir(path, NULL, root, g, v, fn, err_fn, payload);
				else
					err = fn(path, payload);
			}
		}
		free(path);
	}
	if (!kept)
		free_names(names, n);
	return err;
}

sl_err sl_walk(const char *dir, const char *root, const sl_globs *g,
	       sl_err (*fn)(const char *, void *), sl_err (*err_fn)(const char *, int, void *),
	       void *payload)
{
	return sl_walk_skipping(dir, root, g, NULL, fn, err_fn, payload);
}

sl_err sl_walk_skipping(const char *dir, const char *root, const sl_globs *g,
			const sl_walk_skip *skip, sl_err (*fn)(const char *, void *),
			sl_err (*err_fn)(const char *, int, void *), void *payload)
{
	return sl_walk_recording(dir, root, g, skip, NULL, fn, err_fn, payload);
}

sl_err sl_walk_recording(const char *dir, const char *root, const sl_globs *g,
			 const sl_walk_skip *skip, sl_walk_seen *seen,
			 sl_err (*fn)(const char *, void *),
			 sl_err (*err_fn)(const char *, int, void *), void *payload)
{
	struct visited v = {.skip = skip, .seen = seen};
	/* root is dir's real path: a recording walk keeps each listing under its real path too */
	sl_err err = walk_dir(dir, seen ? root : NULL, root, g, &v, fn, err_fn, payload);
	free(v.dev);
	free(v.ino);
	free(v.buf);
	return err;
}

char *sl_walk_relative(const char *real)
{
	char *cwd = realpath(".", NULL);
	if (!cwd)
		return sl_xstrdup(real);
	/* the longest common directory of cwd and real */
	size_t common = 0;
	for (size_t i = 0; cwd[i] && cwd[i] == real[i]; i++)
		if (cwd[i] == '/')
			common = i;
	size_t n = strlen(cwd);
	if (strcmp(real, cwd) == 0) {   /* the working directory itself */
		free(cwd);
		return sl_xstrdup(".");
	}
	size_t rn = strlen(real);
	if (rn > 1 && strncmp(cwd, real, rn) == 0 && cwd[rn] == '/') {
		/* a directory cwd is under: "..", "../.." */
		size_t ups = 0;
		for (size_t i = rn; cwd[i]; i++)
			ups += cwd[i] == '/';
		char *out = sl_xmalloc(ups * 3);   /* ups - 1 times "../", then "..", NUL */
		for (size_t i = 0; out && i < ups; i++)
			memcpy(out + 3 * i, "../", 3);
		if (out)
			out[ups * 3 - 1] = '\0';
		free(cwd);
		return out;
	}
	if (strncmp(real, cwd, n) == 0 && real[n] == '/')
		common = n;   /* real is under cwd */
	char *out = NULL;
	/* relative only when real is under cwd, or in a directory cwd is under ("../x"): a path
	** that climbs out and down again ("../../tmp/x") is clearer absolute */
	const char *base = strrchr(real, '/');
	bool above = base && common == (size_t)(base - real);
	if (common == 0 || (common != n && !above)) {
		out = sl_xstrdup(real);
	} else {
		size_t ups = 0;
		for (size_t i = common; cwd[i]; i++)
			ups += cwd[i] == '/';
		size_t len = ups * 3 + strlen(real + common + 1) + 1;
		out = sl_xmalloc(len);
		if (out) {
			out[0] = '\0';
			for (size_t i = 0; i < ups; i++)
				strcat(out, "../");
			strcat(out, real + common + 1);
		}
	}
	free(cwd);
	return out;
}
