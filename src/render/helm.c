/* SPDX-License-Identifier: Apache-2.0
** helm.c: Helm charts. A chart's templates are recognised by their place (templates/ beside a
** Chart.yaml) and never parsed; `helm template` output is mapped back to them: each document's
** "# Source:" comment names its template, and the template's text is walked by keys and
** indentation (template actions skipped) to find the line that holds a finding's key path. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/arena.h"
#include "render/helm.h"

/* True when dir/name exists and is a regular file (want_dir: a directory). */
static bool exists_in(const char *dir, size_t dlen, const char *name, bool want_dir)
{
	char *p = sl_xprintf("%.*s%s%s", (int)dlen, dir, dlen ? "/" : "", name);
	struct stat st;
	bool ok = p && stat(p, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
	free(p);
	return ok;
}

char *sl_helm_template_chart(const char *path)
{
	char *real = realpath(path, NULL);
	if (!real)
		return NULL;
	/* from the innermost "/templates" segment out: is its parent a chart? */
	for (char *p = real + strlen(real); p > real; p--) {
		if (strncmp(p, "/templates", 10) != 0 || (p[10] != '/' && p[10] != '\0'))
			continue;
		size_t dlen = (size_t)(p - real);
		if (exists_in(dlen ? real : "/", dlen ? dlen : 1, "Chart.yaml", false)) {
			real[dlen ? dlen : 1] = '\0';
			return real;
		}
	}
	free(real);
	return NULL;
}

const sl_node *sl_helm_chart_notice(const char *path, const sl_tree *t, sl_arena *a,
				    const char **message, const char **note)
{
	*message = *note = NULL;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strcmp(base, "Chart.yaml") != 0 || !t->n_docs || !t->docs[0]->root)
		return NULL;
	size_t dlen = (size_t)(base - path);
	dlen -= dlen > 0;   /* the slash */
	const char *dir = dlen ? path : ".";
	if (!exists_in(dir, dlen ? dlen : 1, "templates", true))
		return NULL;
	const sl_node *root = t->docs[0]->root, *name = sl_map_get(root, "name");
	const char *chart = sl_scalar(name);
	int dl = (int)(dlen ? dlen : 1);
	*message = sl_arena_printf(a, "Helm chart %s: its templates are Go templates, not YAML, "
				   "and are not linted", chart ? chart : "(unnamed)");
	*note = sl_arena_printf(a, "Lint what it renders: helm template %.*s | schedlint "
				"--helm-chart %.*s -", dl, dir, dl, dir);
	if (!*note)
		*message = NULL;
	return name && name->type == SL_NODE_SCALAR ? name : root;
}

/* --- the chart, for mapping rendered output back ------------------------------------------- */

struct tpl {
	char *rel;           /* as the Source comment names it, without the chart's name */
	char *path;          /* the template's path as reported: the chart directory's + rel */
	sl_source *src;      /* NULL when it cannot be read */
	bool outside;        /* rel leads out of the chart: never opened */
};

/* The longest part of a "# Source:" name a note quotes (a stream can name anything). */
#define SOURCE_QUOTED 200

/* True when rel, a "# Source:" name after the chart's name, stays in the chart as written: not
** empty, not absolute, no "." or ".." segment, no empty one ("mychart//etc/passwd"), no NUL.
** Helm writes "<chart>/templates/x.yaml" and "<chart>/charts/<sub>/templates/x.yaml". */
static bool stays_in_chart(const char *rel, size_t rlen)
{
	if (!rlen || memchr(rel, '\0', rlen))
		return false;
	for (size_t i = 0; i <= rlen; ) {
		const char *seg = rel + i;
		const char *sl = memchr(seg, '/', rlen - i);
		size_t n = sl ? (size_t)(sl - seg) : rlen - i;
		if (n == 0 || (n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.'))
			return false;
		i += n + 1;
	}
	return true;
}

/* True when path, a file under the chart directory dir, resolves inside it (a template
** symlinked out of the chart does not; one that does not exist, and is no dangling link, is
** in: reading it fails, and says so). */
static bool real_in_chart(const char *dir, const char *path)
{
	char *rd = realpath(dir, NULL), *rp = realpath(path, NULL);
	struct stat st;
	if (!rp && (errno == ENOENT || errno == ENAMETOOLONG || errno == ENOTDIR) &&
	    lstat(path, &st) != 0) {
		free(rd);
		return true;
	}
	size_t n = rd ? strlen(rd) : 0;
	bool in = rd && rp && strncmp(rp, rd, n) == 0 && (rp[n] == '/' || (n == 1 && rd[0] == '/'));
	free(rd);
	free(rp);
	return in;
}

struct sl_helm {
	char *dir;
	pthread_mutex_t lock;   /* the passes remap files on several threads */
	struct tpl **v;
	size_t n;
};

sl_err sl_helm_new(const char *dir, sl_helm **out, char **error_out)
{
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (!exists_in(dir, len, "Chart.yaml", false)) {
		if (error_out)
			*error_out = sl_xprintf("--helm-chart %s: no Chart.yaml in that directory (give "
						"the chart's directory, the one helm template renders)",
						dir);
		return SL_EUSAGE;
	}
	sl_helm *h = sl_xcalloc(1, sizeof *h);
	if (!h || !(h->dir = sl_xprintf("%.*s", (int)len, dir))) {
		free(h);
		return SL_ENOMEM;
	}
	pthread_mutex_init(&h->lock, NULL);
	*out = h;
	return SL_OK;
}

void sl_helm_free(sl_helm *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i]->rel);
		free(h->v[i]->path);
		sl_source_free(h->v[i]->src);
		free(h->v[i]);
	}
	free(h->v);
	free(h->dir);
	pthread_mutex_destroy(&h->lock);
	free(h);
}

/* The template a Source comment names (rel: its text after the chart's name), read once. NULL
** when out of memory. */
static const struct tpl *template_of(sl_helm *h, const char *rel, size_t rlen)
{
	pthread_mutex_lock(&h->lock);
	struct tpl *t = NULL;
	for (size_t i = 0; i < h->n && !t; i++)
		if (strlen(h->v[i]->rel) == rlen && memcmp(h->v[i]->rel, rel, rlen) == 0)
			t = h->v[i];
	struct tpl **nv = t ? NULL : sl_xrealloc(h->v, (h->n + 1) * sizeof *nv);
	if (!t && nv) {
		h->v = nv;
		t = sl_xcalloc(1, sizeof *t);
		bool here = strcmp(h->dir, ".") == 0;
		if (t && (t->rel = sl_xprintf("%.*s", (int)rlen, rel)) &&
		    (t->path = here ? sl_xprintf("%.*s", (int)rlen, rel)
				    : sl_xprintf("%s/%.*s", h->dir, (int)rlen, rel))) {
			/* nothing outside the chart is ever opened: a stream's Source names and
			** the chart's links are not the chart's to leave */
			t->outside = !stays_in_chart(t->rel, rlen) || !real_in_chart(h->dir, t->path);
			if (t->outside || sl_source_read_file(t->path, t->path, &t->src) != SL_OK) {
				sl_source_free(t->src);
				t->src = NULL;
			}
			h->v[h->n++] = t;
		} else if (t) {
			free(t->rel);
			free(t);
			t = NULL;
		}
	}
	pthread_mutex_unlock(&h->lock);
	return t;
}

/* --- walking a template by keys and indentation -------------------------------------------- */

#define MAX_DEPTH 64

/* A finding's JSON pointer split into its reference tokens (~1 and ~0 decoded), in buf. */
static size_t split_pointer(const char *ptr, char *buf, size_t cap, const char **seg)
{
	size_t n = 0, w = 0;
	for (const char *p = ptr; *p == '/' && n < MAX_DEPTH && w < cap - 1; ) {
		p++;
		seg[n++] = buf + w;
		for (; *p && *p != '/' && w < cap - 1; p++) {
			if (p[0] == '~' && (p[1] == '0' || p[1] == '1')) {
				buf[w++] = p[1] == '0' ? '~' : '/';
				p++;
			} else {
				buf[w++] = *p;
			}
		}
		buf[w++] = '\0';
	}
	return n;
}

struct level {
	size_t indent;
	bool item;
	long index;           /* an item's place in its sequence */
	const char *key;      /* a key's text; NULL when not literal */
	size_t klen;
	bool match;           /* this level and those above it equal the pointer's first tokens */
};

/* Where a finding lands in a template. */
struct spot {
	size_t off, len;      /* the line's content */
	size_t depth;         /* tokens of the pointer it matches (SIZE_MAX: none found) */
};

static bool is_action(const char *s, size_t n)
{
	return n >= 2 && s[0] == '{' && s[1] == '{';
}

/* The end of a template action that starts at s (after its "}}"), or NULL. */
static const char *action_end(const char *s, const char *end)
{
	for (const char *p = s + 2; p + 1 < end; p++)
		if (p[0] == '}' && p[1] == '}')
			return p + 2;
	return NULL;
}

/* The length of the key at s (to its ':' followed by a space or the end), 0 when the line holds
** no key. Quotes and template actions are stepped over. */
static size_t key_length(const char *s, const char *end)
{
	const char *p = s;
	if (p < end && (*p == '"' || *p == '\'')) {
		const char *q = memchr(p + 1, *p, (size_t)(end - p - 1));
		if (!q)
			return 0;
		p = q + 1;
	}
	while (p < end) {
		if (is_action(p, (size_t)(end - p))) {
			const char *e = action_end(p, end);
			if (!e)
				return 0;
			p = e;
			continue;
		}
		if (*p == ':' && (p + 1 == end || p[1] == ' ' || p[1] == '\t'))
			return (size_t)(p - s);
		if (*p == '#' && p > s && p[-1] == ' ')
			return 0;
		if (*p == '{' || *p == '[')
			return 0;   /* flow collections: not walked */
		p++;
	}
	return 0;
}

/* Pushes a level, deciding whether it extends the pointer match; records the line in *best. */
static void push(struct level *st, size_t *depth, struct level lv, const char *const *seg,
		 size_t nseg, size_t line_off, size_t line_len, struct spot *best)
{
	if (*depth >= MAX_DEPTH)
		return;
	size_t d = *depth;
	bool above = d == 0 || st[d - 1].match;
	bool same = false;
	if (d < nseg && above) {
		if (lv.item) {
			char *e;
			long v = strtol(seg[d], &e, 10);
			same = *seg[d] && !*e && v == lv.index;
		} else if (lv.key) {
			same = strlen(seg[d]) == lv.klen && memcmp(seg[d], lv.key, lv.klen) == 0;
		}
	}
	lv.match = same;
	st[(*depth)++] = lv;
	if (same && (best->depth == SIZE_MAX || d + 1 > best->depth)) {
		best->depth = d + 1;
		best->off = line_off;
		best->len = line_len;
	}
}

/* Finds the spot for the pointer's tokens in text[from, to) (one document of a template). */
static struct spot find_spot(const char *text, size_t from, size_t to, const char *const *seg,
			     size_t nseg)
{
	struct spot best = {.depth = SIZE_MAX}, first = {.depth = SIZE_MAX};
	struct level st[MAX_DEPTH];
	size_t depth = 0, block = SIZE_MAX;   /* block: a block scalar's key indent */
	for (size_t ls = from; ls < to; ) {
		const char *nl = memchr(text + ls, '\n', to - ls);
		size_t le = nl ? (size_t)(nl - text) : to, next = nl ? le + 1 : to;
		const char *s = text + ls, *end = text + le;
		while (end > s && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
			end--;
		size_t indent = 0;
		while (s + indent < end && s[indent] == ' ')
			indent++;
		const char *c = s + indent;
		ls = next;
		if (c == end || *c == '#')
			continue;
		if (block != SIZE_MAX && indent > block)
			continue;   /* a block scalar's text */
		block = SIZE_MAX;
		if (is_action(c, (size_t)(end - c)) && !key_length(c, end))
			continue;   /* {{- if }}, {{ include ... | nindent 4 }}: no key of its own */
		size_t line_off = (size_t)(c - text), line_len = (size_t)(end - c);
		if (first.depth == SIZE_MAX) {
			first.depth = 0;
			first.off = line_off;
			first.len = line_len;
		}
		/* "- " items, perhaps several on one line */
		while (c < end && *c == '-' && (c + 1 == end || c[1] == ' ')) {
			size_t col = (size_t)(c - s);
			long index = 0;
			while (depth && (st[depth - 1].indent > col ||
					 (st[depth - 1].indent == col && st[depth - 1].item))) {
				depth--;
				if (st[depth].item && st[depth].indent == col)
					index = st[depth].index + 1;
			}
			push(st, &depth, (struct level){.indent = col, .item = true, .index = index}, seg,
			     nseg, line_off, line_len, &best);
			c++;
			while (c < end && *c == ' ')
				c++;
		}
		size_t klen = key_length(c, end);
		if (!klen)
			continue;
		size_t col = (size_t)(c - s);
		while (depth && st[depth - 1].indent >= col)
			depth--;
		const char *key = c;
		size_t kl = klen;
		if (kl >= 2 && (key[0] == '"' || key[0] == '\'') && key[kl - 1] == key[0]) {
			key++;
			kl -= 2;
		}
		bool literal = !memmem(key, kl, "{{", 2);
		push(st, &depth, (struct level){.indent = col, .key = literal ? key : NULL, .klen = kl},
		     seg, nseg, line_off, line_len, &best);
		const char *v = c + klen + 1;
		while (v < end && *v == ' ')
			v++;
		if (v < end && (*v == '|' || *v == '>'))
			block = col;
	}
	if (best.depth == SIZE_MAX)
		return first;
	return best;
}

/* The k-th document of a template that has content (helm drops the empty ones): [*from, *to).
** The first when there are fewer. */
static void nth_document(const char *text, size_t len, size_t k, size_t *from, size_t *to)
{
	size_t start = 0, seen = 0, first_from = 0, first_to = len;
	bool content = false, have_first = false;
	for (size_t ls = 0; ls <= len; ) {
		const char *nl = ls < len ? memchr(text + ls, '\n', len - ls) : NULL;
		size_t le = nl ? (size_t)(nl - text) : len;
		bool sep = le - ls >= 3 && memcmp(text + ls, "---", 3) == 0 &&
			   (le - ls == 3 || text[ls + 3] == ' ' || text[ls + 3] == '\r');
		if (sep || le == len) {
			size_t doc_end = sep ? ls : len;
			if (content) {
				if (!have_first) {
					have_first = true;
					first_from = start;
					first_to = doc_end;
				}
				if (seen++ == k) {
					*from = start;
					*to = doc_end;
					return;
				}
			}
			start = nl ? le + 1 : len;
			content = false;
		} else {
			const char *c = text + ls;
			while (c < text + le && (*c == ' ' || *c == '\r'))
				c++;
			if (c < text + le && *c != '#' && !is_action(c, (size_t)(text + le - c)))
				content = true;
		}
		if (!nl)
			break;
		ls = le + 1;
	}
	*from = first_from;
	*to = first_to;
}

/* --- remapping a file's findings --------------------------------------------------------- */

struct source_line {
	size_t off;           /* where the comment line starts in the rendered text */
	const char *v;        /* its value: "<chart>/templates/x.yaml" */
	size_t vlen;
};

static const char SOURCE[] = "# Source: ";

/* The "# Source:" comments of a rendered stream, in order (malloc'd; *n of them). */
static struct source_line *source_lines(const char *text, size_t len, size_t *n)
{
	struct source_line *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t ls = 0; ls < len; ) {
		const char *nl = memchr(text + ls, '\n', len - ls);
		size_t le = nl ? (size_t)(nl - text) : len;
		size_t sl = sizeof SOURCE - 1;
		if (le - ls > sl && memcmp(text + ls, SOURCE, sl) == 0) {
			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				struct source_line *nv = sl_xrealloc(v, cap * sizeof *nv);
				if (!nv) {
					free(v);
					*n = SIZE_MAX;
					return NULL;
				}
				v = nv;
			}
			size_t e = le;
			while (e > ls + sl && (text[e - 1] == '\r' || text[e - 1] == ' '))
				e--;
			v[(*n)++] = (struct source_line){ls, text + ls + sl, e - ls - sl};
		}
		ls = nl ? le + 1 : len;
	}
	return v;
}

/* Moves one finding to its template (notes in arena a); false when out of memory. */
static bool remap_one(sl_helm *h, sl_arena *a, sl_finding *p, const struct source_line *sv,
		      size_t ns)
{
	size_t which = SIZE_MAX;
	for (size_t i = 0; i < ns && sv[i].off <= p->offset; i++)
		which = i;
	if (which == SIZE_MAX)
		return true;   /* before any Source comment: not from a template */
	const struct source_line *s = &sv[which];
	size_t k = 0;   /* earlier documents from the same template */
	for (size_t i = 0; i < which; i++)
		k += sv[i].vlen == s->vlen && memcmp(sv[i].v, s->v, s->vlen) == 0;
	const char *slash = memchr(s->v, '/', s->vlen);
	if (!slash)
		return true;
	const struct tpl *t = template_of(h, slash + 1, s->vlen - (size_t)(slash + 1 - s->v));
	if (!t)
		return false;
	uint32_t rline = p->line, rcol = p->column;
	if (!t->src) {
		/* the Source name quoted, cut (SOURCE_QUOTED); the path is that name */
		int q = s->vlen > SOURCE_QUOTED ? SOURCE_QUOTED : (int)s->vlen;
		const char *cut = s->vlen > SOURCE_QUOTED ? "…" : "";
		int pq = strlen(t->path) > 2 * SOURCE_QUOTED ? 2 * SOURCE_QUOTED : (int)strlen(t->path);
		const char *n = t->outside
			? sl_arena_printf(a, "%s%sthe template this document names (# Source: %.*s%s) "
					  "is outside the chart %s: not read", p->notes ? p->notes : "",
					  p->notes ? "\n" : "", q, s->v, cut, h->dir)
			: sl_arena_printf(a, "%s%sthe template %.*s%s this document came from (# "
					  "Source: %.*s%s) cannot be read", p->notes ? p->notes : "",
					  p->notes ? "\n" : "", pq, t->path,
					  strlen(t->path) > (size_t)pq ? "…" : "", q, s->v, cut);
		if (!n)
			return false;
		p->notes = n;
		return true;
	}
	size_t from, to;
	nth_document(t->src->data, t->src->len, k, &from, &to);
	char buf[4096];
	const char *seg[MAX_DEPTH];
	size_t nseg = split_pointer(p->pointer ? p->pointer : "", buf, sizeof buf, seg);
	struct spot sp = find_spot(t->src->data, from, to, seg, nseg);
	if (sp.depth == SIZE_MAX) {
		sp.off = from;
		sp.len = 0;
	}
	const char *how = sp.depth == SIZE_MAX || sp.depth == 0 ? "the document's first line" :
			  sp.depth == nseg ? "the line of that key" :
			  "the nearest literal key above it (the rest is made by template actions)";
	const char *n = sl_arena_printf(a, "%s%srendered at %s:%u:%u (# Source: %.*s%s); this "
					"finding points at %s in the template",
					p->notes ? p->notes : "", p->notes ? "\n" : "", p->path,
					(unsigned)rline, (unsigned)rcol,
					s->vlen > SOURCE_QUOTED ? SOURCE_QUOTED : (int)s->vlen, s->v,
					s->vlen > SOURCE_QUOTED ? "…" : "", how);
	if (!n)
		return false;
	p->notes = n;
	p->path = t->path;
	p->offset = sp.off;
	p->length = sp.len;
	sl_source_position(t->src, sp.off, &p->line, &p->column);
	sl_source_position(t->src, sp.off + sp.len, &p->end_line, &p->end_column);
	p->fix = NULL;   /* the rendered text is not what a person edits */
	return true;
}

sl_err sl_helm_remap(sl_helm *h, const sl_source *rendered, sl_finding *const *v, size_t n,
		     sl_arena *a)
{
	if (!n)
		return SL_OK;
	size_t ns;
	struct source_line *sv = source_lines(rendered->data, rendered->len, &ns);
	if (ns == SIZE_MAX)
		return SL_ENOMEM;
	sl_err err = SL_OK;
	for (size_t i = 0; !err && i < n; i++)
		if (!remap_one(h, a, v[i], sv, ns))
			err = SL_ENOMEM;
	free(sv);
	return err;
}
