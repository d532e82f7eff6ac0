/* SPDX-License-Identifier: Apache-2.0
** kustomize.c: Kustomize, built in C with provenance on every node.
**
** A kustomization is built as kustomize v5 builds it (api/krusty, the builtin transformers in
** their order): resources (files, and directories with their own kustomization, recursively;
** the deprecated bases), components, then configMapGenerator, patchesStrategicMerge and patches,
** namespace, namePrefix/nameSuffix, commonLabels/labels, commonAnnotations, patchesJson6902,
** replicas. Every node of a built object is a knode that remembers its file and byte range, so
** the built text (knode.c) maps back to the base, patch or kustomization line a person edits.
** What kustomize would refuse is a kustomize-invalid finding at the offending key; what this
** builder does not do is a kustomize-unsupported finding, and the kustomization's files are then
** linted as plain files (vars, replacements, configurations, crds: the build is linted without
** them, the finding says so). Files a kustomization uses as patches are never linted alone. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "engine.h"
#include "knode.h"
#include "kpatch.h"
#include "kustomize.h"
#include "regex.h"
#include "registry.h"
#include "repo.h"
#include "sha256.h"
#include "source.h"
#include "suppress.h"
#include "walk.h"
#include "yaml_tree.h"

bool sl_kustomize_is_file(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "kustomization.yaml") == 0 || strcmp(base, "kustomization.yml") == 0 ||
	       strcmp(base, "Kustomization") == 0;
}

/* --- the plan's state ---------------------------------------------------------------------- */

struct kfile {
	uint64_t hash, real_hash;   /* of path and real, to find it fast */
	char *path;          /* as first asked for */
	char *real;          /* its real path */
	sl_source *src;      /* NULL when it cannot be read */
	sl_tree tree;
};

struct issue {
	const sl_source *src;
	uint32_t start, end;
	const char *rule;    /* kustomize-unsupported or kustomize-invalid */
	const char *msg;     /* in the plan's arena */
	const char *notes;   /* kustomize's own error text and the way out (NULL: none) */
	bool notice;         /* the build goes on without the key (reported once per plan) */
};

/* An id a resource had before a transformer changed it, as kustomize keeps them (the
** config.kubernetes.io/previousNames and previousNamespaces build annotations): a patch or a
** selector may name a resource by any of them. Its kind is the resource's own (the builder does
** no allowKindChange). */
struct kid {
	const char *ns;          /* effective: "default" for none, kustomize's word for cluster-scoped */
	const char *name;
};

struct kres {
	sl_knode *obj;
	struct kid *prev;        /* its previous ids, oldest first (in the build's arena) */
	size_t n_prev;
	bool hash;               /* generated: kustomize's hash suffix is added once it is built */
};

struct acc {
	struct kres *v;
	size_t n, cap;
};

struct sl_kustomize_build {
	const char *name;    /* the kustomization's path */
	const char *dir;     /* the overlay, as the notes name it */
	const char *kpath;   /* its kustomization, as the run names it */
	size_t root;         /* its place in the plan's kpaths */
	sl_arena *a;         /* its knodes (builds run on threads of their own): freed once its text
			     ** and spans are made, so the plan never holds every build's tree */
	sl_arena *msgs;      /* its issues' messages */
	char *text;
	size_t len, cap;
	sl_knode_span *spans;
	size_t n_spans, spans_cap;
	struct issue *issues;
	size_t n_issues, cap_issues;
	bool failed;
	bool oom;            /* out of memory while building */
	bool load_none;      /* built as with --load-restrictor LoadRestrictionsNone */
	const sl_kustomize *k;   /* its plan */
	char **used;         /* real paths of the resource files it read */
	size_t n_used, cap_used;
};

/* A string → string cache (open addressing; a NULL value is an answer too: "none"). The plan
** asks the file system about the same few directories thousands of times. */
struct memo {
	struct mslot { uint64_t hash; char *key, *val; } *v;
	size_t n, cap;   /* cap: a power of two, or 0 */
};

/* The slot of key (hash h) in m: the one holding it, or the empty one where it goes. */
static struct mslot *memo_slot(const struct memo *m, const char *key, size_t len, uint64_t h)
{
	for (size_t i = h & (m->cap - 1); ; i = (i + 1) & (m->cap - 1)) {
		struct mslot *s = &m->v[i];
		if (!s->key || (s->hash == h && strncmp(s->key, key, len) == 0 && !s->key[len]))
			return s;
	}
}

/* True (and *val) when key [key, key + len) is in m. */
static bool memo_get(const struct memo *m, const char *key, size_t len, const char **val)
{
	if (!m->cap)
		return false;
	const struct mslot *s = memo_slot(m, key, len, sl_source_hash(SL_HASH_INIT, key, len));
	if (s->key)
		*val = s->val;
	return s->key != NULL;
}

/* Remembers val (taken, may be NULL) for key [key, key + len); the value kept, or NULL when out
** of memory (*oom then). */
static const char *memo_put(struct memo *m, const char *key, size_t len, char *val, bool *oom)
{
	if (2 * (m->n + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct memo g = {sl_xcalloc(cap, sizeof *g.v), m->n, cap};
		if (!g.v) {
			free(val);
			*oom = true;
			return NULL;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->v[i].key)
				*memo_slot(&g, m->v[i].key, strlen(m->v[i].key), m->v[i].hash) = m->v[i];
		free(m->v);
		*m = g;
	}
	uint64_t h = sl_source_hash(SL_HASH_INIT, key, len);
	struct mslot *s = memo_slot(m, key, len, h);
	char *k = sl_xprintf("%.*s", (int)len, key);
	if (!k) {
		free(val);
		*oom = true;
		return NULL;
	}
	*s = (struct mslot){h, k, val};
	m->n++;
	return val;
}

static void memo_free(struct memo *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		free(m->v[i].key);
		free(m->v[i].val);
	}
	free(m->v);
}

struct sl_kustomize {
	sl_arena *a;         /* the files' trees (under lock) and the builds' names */
	pthread_mutex_t lock;   /* recursive: the files and the memos, shared by the builds */
	size_t next;         /* the next build a thread takes (under lock) */
	struct kfile **files;
	size_t n_files;
	char **consumed;     /* sorted real paths */
	size_t n_consumed, cap_consumed;
	sl_kustomize_build **builds;
	size_t n_builds;
	struct src_real {
		const sl_source *src;
		const char *real;
		const sl_tree *tree;
	} *by_src;           /* the files read, sorted by src */
	size_t n_by_src;
	struct memo reals;   /* a path as named → its real path (directories too) */
	struct memo kusts;   /* a directory → the kustomization file in it */
	struct memo types;   /* a path → "d" (a directory), "f" (anything else) or none */
	const sl_walk_seen *seen;   /* what the run's walks listed (NULL: ask the kernel) */
	struct { const char *s; size_t len; } *bases;   /* the consumed files' base names, once */
	size_t n_bases;
	sl_repo *repo;       /* asked whether git ignores a missing input (opened when needed) */
};

/* What the run's walks saw at path (as named: "dir/name"). */
static sl_walk_seen_kind seen_at(const sl_kustomize *k, const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash > path ? sl_walk_seen_at(k->seen, path, (size_t)(slash - path), slash + 1)
				     : SL_SEEN_UNLISTED;
}

/* Room for one more of n elements of size bytes in *v (capacity *cap); false when out of memory. */
static bool room(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 8;
	void *nv = sl_xrealloc(*(void **)v, c * size);
	if (!nv)
		return false;
	*(void **)v = nv;
	*cap = c;
	return true;
}

static bool push_str(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s || !room(v, *n, cap, sizeof **v)) {
		free(s);
		return false;
	}
	(*v)[(*n)++] = s;
	return true;
}

/* dir joined with rel, ".." and "." resolved lexically ("./k/overlays/prod" + "../../base" is
** "./k/base"); malloc'd. */
static char *join(const char *dir, const char *rel)
{
	char *all = rel[0] == '/' ? sl_xstrdup(rel) : sl_xprintf("%s/%s", dir, rel);
	if (!all)
		return NULL;
	bool abs = all[0] == '/', dot = all[0] == '.' && all[1] == '/';
	char *out = sl_xmalloc(strlen(all) + 3);
	if (!out) {
		free(all);
		return NULL;
	}
	size_t w = 0, base = 0;   /* base: where ".." may no longer climb */
	if (abs)
		out[w++] = '/';
	else if (dot) {
		out[w++] = '.';
		out[w++] = '/';
	}
	base = w;
	for (char *save = NULL, *seg = strtok_r(all, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0 && w > base) {
			char *s = out + w - 1;   /* the last segment, unless it is ".." */
			while (s > out + base && s[-1] != '/')
				s--;
			/* out is not terminated yet: compare within the segment, out[s..w) */
			if (out + w - s != 2 || s[0] != '.' || s[1] != '.') {
				w = (size_t)(s - out);
				continue;
			}
		}
		if (w > base && out[w - 1] != '/')
			out[w++] = '/';
		size_t l = strlen(seg);
		memcpy(out + w, seg, l);
		w += l;
	}
	if (w > 1 && out[w - 1] == '/')
		w--;
	if (w == 0)
		out[w++] = '.';
	out[w] = '\0';
	free(all);
	return out;
}

static char *dir_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? sl_xprintf("%.*s", s == path ? 1 : (int)(s - path), path) : sl_xstrdup(".");
}

static void no_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
		     const char *message)
{
	(void)payload, (void)rule, (void)doc, (void)start, (void)end, (void)message;
}

/* A copy of v (NULL stays NULL); *oom when out of memory. */
static char *dup_or_null(const char *v, bool *oom)
{
	char *d = v ? sl_xstrdup(v) : NULL;
	*oom |= v && !d;
	return d;
}

/* The real path of directory [dir, dir + dl) ("." when empty), resolved once per plan; NULL
** when it does not exist (or out of memory: *oom). */
static const char *real_dir(sl_kustomize *k, const char *dir, size_t dl, bool *oom)
{
	const char *r;
	if (memo_get(&k->reals, dir, dl, &r))
		return r;
	char *d = sl_xprintf("%.*s", (int)dl, dir);
	if (!d) {
		*oom = true;
		return NULL;
	}
	/* below a directory resolved before, and not a link: one lstat instead of realpath's
	** readlink of every component */
	char *slash = strrchr(d, '/'), *real = NULL;
	const char *base = slash ? slash + 1 : d;
	if (slash && slash > d && strcmp(base, "..") && strcmp(base, ".") && *base) {
		const char *pr = real_dir(k, d, (size_t)(slash - d), oom);
		struct stat st;
		if (pr && (seen_at(k, d) == SL_SEEN_DIR || (lstat(d, &st) == 0 && S_ISDIR(st.st_mode))))
			real = sl_xprintf("%s%s%s", pr, strcmp(pr, "/") ? "/" : "", base);
	}
	if (!real)
		real = realpath(dl ? d : ".", NULL);
	free(d);
	return memo_put(&k->reals, dir, dl, real, oom);
}

/* The real path of path (malloc'd; NULL when it does not exist or out of memory): asked once per
** plan, its directory resolved once (most files share a few), its base name appended. */
static char *real_of_(sl_kustomize *k, const char *path)
{
	bool oom = false;
	const char *r;
	size_t len = strlen(path);
	if (memo_get(&k->reals, path, len, &r))
		return dup_or_null(r, &oom);
	const char *slash = strrchr(path, '/');
	const char *rd = slash ? real_dir(k, path, slash == path ? 1 : (size_t)(slash - path), &oom)
			       : real_dir(k, ".", 1, &oom);
	char *full = rd ? sl_xprintf("%s%s%s", rd, strcmp(rd, "/") ? "/" : "",
				     slash ? slash + 1 : path) : NULL;
	struct stat st;
	sl_walk_seen_kind w = full ? seen_at(k, path) : SL_SEEN_UNLISTED;   /* not a link: no lstat */
	if (full && w != SL_SEEN_FILE && w != SL_SEEN_DIR &&
	    (lstat(full, &st) != 0 || S_ISLNK(st.st_mode))) {
		free(full);   /* missing, or a link: the kernel decides */
		full = realpath(path, NULL);
	}
	return dup_or_null(memo_put(&k->reals, path, len, full, &oom), &oom);
}

static char *real_of(sl_kustomize *k, const char *path)
{
	pthread_mutex_lock(&k->lock);
	char *r = real_of_(k, path);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* What path is, asked once per plan: 'd' a directory, 'f' anything else, 0 nothing. */
static char type_of_(sl_kustomize *k, const char *path)
{
	const char *r;
	size_t len = strlen(path);
	if (!memo_get(&k->types, path, len, &r)) {
		struct stat st;
		bool oom = false;
		sl_walk_seen_kind w = seen_at(k, path);   /* else stat */
		bool is = w == SL_SEEN_FILE || w == SL_SEEN_DIR;
		if (w == SL_SEEN_UNLISTED || w == SL_SEEN_OTHER) {
			is = stat(path, &st) == 0;
			w = is && S_ISDIR(st.st_mode) ? SL_SEEN_DIR : SL_SEEN_FILE;
		}
		r = memo_put(&k->types, path, len, !is ? NULL : sl_xstrdup(w == SL_SEEN_DIR ? "d" : "f"),
			     &oom);
	}
	return r ? r[0] : 0;
}

static char type_of(sl_kustomize *k, const char *path)
{
	pthread_mutex_lock(&k->lock);
	char r = type_of_(k, path);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* The file at path, read and parsed once per plan; NULL when out of memory. Its src is NULL
** when it cannot be read. */
static struct kfile *load_(sl_kustomize *k, const char *path)
{
	uint64_t h = sl_source_hash(SL_HASH_INIT, path, strlen(path));
	for (size_t i = 0; i < k->n_files; i++)   /* by the path first: no realpath for a file met again */
		if (k->files[i]->hash == h && k->files[i]->path && strcmp(k->files[i]->path, path) == 0)
			return k->files[i];
	char *real = real_of(k, path);
	uint64_t rh = real ? sl_source_hash(SL_HASH_INIT, real, strlen(real)) : 0;
	for (size_t i = 0; real && i < k->n_files; i++)
		if (k->files[i]->real_hash == rh && strcmp(k->files[i]->real, real) == 0) {
			free(real);
			return k->files[i];
		}
	struct kfile *f = sl_xcalloc(1, sizeof *f);
	struct kfile **nv = f ? sl_xrealloc(k->files, (k->n_files + 1) * sizeof *nv) : NULL;
	if (!nv) {
		free(f);
		free(real);
		return NULL;
	}
	k->files = nv;
	k->files[k->n_files++] = f;
	f->real = real ? real : sl_xstrdup(path);
	f->path = sl_xstrdup(path);
	f->hash = h;
	f->real_hash = rh;
	if (!f->real || !f->path)
		return NULL;
	if (!real || sl_source_read_file(path, path, &f->src) != SL_OK) {
		sl_source_free(f->src);
		f->src = NULL;
		return f;
	}
	if (sl_tree_parse(f->src, k->a, &f->tree, no_issue, NULL) != SL_OK)
		return NULL;
	return f;
}

static struct kfile *load(sl_kustomize *k, const char *path)
{
	pthread_mutex_lock(&k->lock);
	struct kfile *r = load_(k, path);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* True when the file at path is in or below directory dir, as kustomize's load restrictor
** (LoadRestrictionsRootOnly, the default) demands of resource and patch files. */
static bool within_(sl_kustomize *k, const char *dir, const struct kfile *f)
{
	bool oom = false;
	const char *rd = real_dir(k, dir, strlen(dir), &oom);
	size_t n = rd ? strlen(rd) : 0;
	return rd && f && f->src && strncmp(f->real, rd, n) == 0 && (f->real[n] == '/' || f->real[n] == '\0');
}

static bool within(sl_kustomize *k, const char *dir, const struct kfile *f)
{
	pthread_mutex_lock(&k->lock);
	bool r = within_(k, dir, f);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* The kustomization file in directory dir (malloc'd), NULL when there is none. */
static char *kustomization_in_(sl_kustomize *k, const char *dir)
{
	static const char *const names[] = {"kustomization.yaml", "kustomization.yml", "Kustomization"};
	bool oom = false;
	const char *r;
	size_t len = strlen(dir);
	if (memo_get(&k->kusts, dir, len, &r))
		return dup_or_null(r, &oom);
	char *found = NULL;
	for (size_t i = 0; !found && i < 3; i++) {
		char *p = join(dir, names[i]);
		struct stat st;
		sl_walk_seen_kind w = p ? seen_at(k, p) : SL_SEEN_ABSENT;   /* else stat */
		if (w == SL_SEEN_FILE || ((w == SL_SEEN_UNLISTED || w == SL_SEEN_OTHER) &&
					  stat(p, &st) == 0 && S_ISREG(st.st_mode)))
			found = p;
		else
			free(p);
	}
	return dup_or_null(memo_put(&k->kusts, dir, len, found, &oom), &oom);
}

static char *kustomization_in(sl_kustomize *k, const char *dir)
{
	pthread_mutex_lock(&k->lock);
	char *r = kustomization_in_(k, dir);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* --- a build's findings -------------------------------------------------------------------- */

struct ctx {
	sl_kustomize *k;
	sl_kustomize_build *b;
	sl_arena *a;         /* the build's */
	int depth;
};

/* The longest first line of a message (the rest goes to the notes). */
#define MSG_MAX 160

static bool issue_v(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
		    const char *fmt, va_list ap)
{
	sl_kustomize_build *b = c->b;
	b->failed = true;
	if (!room(&b->issues, b->n_issues, &b->cap_issues, sizeof *b->issues))
		return false;
	if (!b->msgs && !(b->msgs = sl_arena_new()))
		return false;
	const char *msg = sl_arena_vprintf(b->msgs, fmt, ap);
	size_t len = msg ? strlen(msg) : 0;
	if (msg && len > MSG_MAX) {
		/* cut on a character's first byte, the whole message kept in the notes */
		size_t cut = MSG_MAX - 3;
		while (cut && ((unsigned char)msg[cut] & 0xc0) == 0x80)
			cut--;
		const char *whole = msg;
		msg = sl_arena_printf(b->msgs, "%.*s...", (int)cut, whole);
		notes = notes ? sl_arena_printf(b->msgs, "%s\n%s", whole, notes) : whole;
	} else if (notes) {
		notes = sl_arena_strndup(b->msgs, notes, strlen(notes));
	}
	if (msg)
		b->issues[b->n_issues++] = (struct issue){at ? at->src : NULL, at ? at->start : 0,
							  at ? at->end : 0, rule, msg, notes, false};
	return false;
}

static bool issue(struct ctx *c, const char *rule, const sl_knode *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool issue_n(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Records a finding of the build at node at (its origin); false (the build fails) always. A
** message longer than MSG_MAX is cut, whole in the notes. */
static bool issue(struct ctx *c, const char *rule, const sl_knode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = issue_v(c, rule, at, NULL, fmt, ap);
	va_end(ap);
	return r;
}

/* issue, with notes (copied): kustomize's own error text, the way out. */
static bool issue_n(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = issue_v(c, rule, at, notes, fmt, ap);
	va_end(ap);
	return r;
}

/* True when git ignores path (as joined; it need not exist): an input a build step makes. The
** repository is the one the kustomization's directory dir is in, opened on the first question. */
static bool git_ignores(sl_kustomize *k, const char *dir, const char *path)
{
	pthread_mutex_lock(&k->lock);
	bool oom = false;
	const char *rd = real_dir(k, dir, strlen(dir), &oom);
	const char *wd = k->repo ? sl_repo_workdir(k->repo) : NULL;
	size_t n = wd ? strlen(wd) - 1 : 0;   /* without its '/' */
	if (rd && (!wd || strncmp(rd, wd, n) != 0 || (rd[n] != '/' && rd[n] != '\0'))) {
		sl_repo_free(k->repo);   /* another repository (or the first question) */
		k->repo = sl_repo_open(dir);
	}
	bool r = rd && k->repo && (sl_repo_ignored(k->repo, path, false) ||
				   sl_repo_ignored(k->repo, path, true));
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* An input of the kustomization in dir that does not exist: e names it, path is it as joined,
** what says what kustomize was reading ("accumulating resources from 'x'"). kustomize-invalid,
** unless git ignores the path: a build step makes it (kueue's dep-crds/), so this checkout
** cannot build the kustomization yet and kustomize-unsupported says so. */
static bool missing(struct ctx *c, const sl_knode *e, const char *dir, const char *path,
		    const char *what)
{
	bool ignored = git_ignores(c->k, dir, path);
	char *notes = sl_xprintf("%skustomize: %s: evalsymlink failure on '%s' : lstat %s: no such "
				 "file or directory", ignored ? "Neither kustomize nor schedlint can build "
				 "this kustomization before that step has run; its files are linted as "
				 "plain files.\n" : "", what ? what : "?", path, path);
	if (notes && what && ignored)
		issue_n(c, "kustomize-unsupported", e, notes, "'%s' is not in the checkout: git "
			"ignores it, a build step makes it", e->s);
	else if (notes && what)
		issue_n(c, "kustomize-invalid", e, notes, "%s: no such file or directory", what);
	free(notes);
	return false;
}

/* An input outside the kustomization's directory dir, which kustomize's default load restrictor
** refuses: e names it, path is it as joined, what says what kustomize was reading. An overlay
** written for --load-restrictor LoadRestrictionsNone: kustomize-unsupported, saying how to build
** it. */
static bool outside(struct ctx *c, const sl_knode *e, const char *dir, const char *path,
		    const char *what)
{
	char *notes = sl_xprintf("kustomize: %s: security; file '%s' is not in or below '%s'\n"
				 "To build it as `kubectl kustomize --load-restrictor "
				 "LoadRestrictionsNone` does, set render.kustomize.load-restrictor: none "
				 "in .schedlint.yaml; until then this kustomization's files are linted "
				 "as plain files", what ? what : "?", path, dir);
	if (notes && what)
		issue_n(c, "kustomize-unsupported", e, notes, "'%s' is outside the kustomization's "
			"directory: kustomize loads it only with --load-restrictor LoadRestrictionsNone",
			e->s);
	free(notes);
	return false;
}

/* The file at rel (relative to the kustomization's directory dir), which e names, read as an
** input of the build; NULL when it cannot be (a finding says why: missing, outside dir, not
** readable; what: kustomize's words for what it was reading) or out of memory. */
static struct kfile *input(struct ctx *c, const sl_knode *e, const char *dir, const char *rel,
			   const char *what)
{
	char *p = join(dir, rel);
	struct kfile *f = p ? load(c->k, p) : NULL;
	bool ok = f && f->src && (c->b->load_none || within(c->k, dir, f));
	if (f && f->src && !ok)
		outside(c, e, dir, p, what);
	else if (f && !f->src && type_of(c->k, p))
		issue(c, "kustomize-invalid", e, "%s: cannot read it", what);
	else if (f && !f->src)
		missing(c, e, dir, p, what);
	free(p);
	return ok ? f : NULL;
}

/* Records that the key at k is not applied while the build goes on without it; false only when
** out of memory. */
static bool notice(struct ctx *c, const sl_knode *k)
{
	sl_kustomize_build *b = c->b;
	if (!b->msgs && !(b->msgs = sl_arena_new()))
		return false;
	const char *msg = sl_arena_printf(b->msgs, "%s is not applied by schedlint: the kustomization "
					  "is built and linted without it, so findings on the fields "
					  "it sets may differ from what is deployed", k->s);
	if (!msg || !room(&b->issues, b->n_issues, &b->cap_issues, sizeof *b->issues))
		return false;
	b->issues[b->n_issues++] = (struct issue){k->src, k->start, k->end, "kustomize-unsupported",
						  msg, NULL, true};
	return true;
}

/* Drops the notices of failed builds (their files are linted as plain files) and those an earlier
** build of the plan reported at the same key (a base shared by 200 overlays: once). */
static void dedupe_notices(sl_kustomize *k)
{
	for (size_t i = 0; i < k->n_builds; i++) {
		sl_kustomize_build *b = k->builds[i];
		size_t w = 0;
		for (size_t j = 0; j < b->n_issues; j++) {
			const struct issue *is = &b->issues[j];
			bool seen = is->notice && b->failed;
			for (size_t p = 0; is->notice && !seen && p <= i; p++) {
				const sl_kustomize_build *o = k->builds[p];
				for (size_t q = 0; !seen && q < (p == i ? w : o->n_issues); q++)
					seen = o->issues[q].notice && o->issues[q].src == is->src &&
					       o->issues[q].start == is->start;
			}
			if (!seen)
				b->issues[w++] = *is;
		}
		b->n_issues = w;
	}
}

/* --- resources ------------------------------------------------------------------------------ */

static bool add_res(struct acc *acc, sl_knode *obj)
{
	if (!room(&acc->v, acc->n, &acc->cap, sizeof *acc->v))
		return false;
	acc->v[acc->n++] = (struct kres){obj, NULL, 0, false};
	return true;
}

static const char *name_of(const sl_knode *obj)
{
	return sl_knode_str(sl_knode_get(obj, "metadata", NULL), "name");
}

static const char *ns_of(const sl_knode *obj)
{
	return sl_knode_str(sl_knode_get(obj, "metadata", NULL), "namespace");
}

/* The API group of an object ("" for the core group). */
static void group_version(const sl_knode *obj, char *group, size_t gcap, const char **version)
{
	const char *av = sl_knode_str(obj, "apiVersion");
	av = av ? av : "";
	const char *slash = strchr(av, '/');
	snprintf(group, gcap, "%.*s", slash ? (int)(slash - av) : 0, av);
	*version = slash ? slash + 1 : av;
}

/* A built-in kind (merge keys apply): the core group, a group without a dot, or *.k8s.io. */
static bool builtin(const sl_knode *obj)
{
	char g[256];
	const char *v;
	group_version(obj, g, sizeof g, &v);
	size_t n = strlen(g);
	return !strchr(g, '.') || (n > 7 && strcmp(g + n - 7, ".k8s.io") == 0);
}

/* What kustomize drops from an object a strategic merge patch walked: fields whose value is
** null, and empty metadata.labels and metadata.annotations (kyaml's merge2). */
static void tidy(sl_knode *n, bool metadata)
{
	for (size_t i = 0; i < n->n; ) {
		sl_knode *v = n->v[i];
		bool key = n->type == SL_NODE_MAP;
		if (key && ((sl_knode_is_null(v) && !(metadata && strcmp(n->k[i]->s, "creationTimestamp") == 0)) ||
			    (metadata && v->type == SL_NODE_MAP && !v->n &&
			     (strcmp(n->k[i]->s, "annotations") == 0 || strcmp(n->k[i]->s, "labels") == 0)))) {
			sl_knode_remove(n, i);
			continue;
		}
		if (v->type != SL_NODE_SCALAR)
			tidy(v, key && strcmp(n->k[i]->s, "metadata") == 0);
		i++;
	}
}

/* The documents of a resource file, added to acc. */
static bool add_file(struct ctx *c, struct kfile *f, const sl_knode *ref, struct acc *acc)
{
	if (!f->src)
		return issue(c, "kustomize-invalid", ref, "accumulating resources from '%s': cannot "
			     "read it", ref ? ref->s : "?");
	if (!push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
		return false;
	for (size_t i = 0; i < f->tree.n_docs; i++) {
		if (!f->tree.docs[i]->root)
			continue;
		sl_knode *o = sl_knode_load(c->a, f->tree.docs[i]->root, f->src);
		if (!o || !add_res(acc, o))
			return false;
		/* kustomize drops a null or empty metadata.labels or metadata.annotations */
		sl_knode *md = sl_knode_get(o, "metadata", NULL);
		static const char *const drop[] = {"labels", "annotations"};
		for (size_t k = 0; md && k < 2; k++) {
			size_t at;
			sl_knode *v = sl_knode_get(md, drop[k], &at);
			if (v && (sl_knode_is_null(v) || (v->type == SL_NODE_MAP && !v->n)))
				sl_knode_remove(md, at);
		}
		if (o->type != SL_NODE_MAP || !sl_knode_str(o, "kind"))
			return issue(c, "kustomize-invalid", ref, "accumulating resources from '%s': "
				     "missing Resource metadata (every document needs kind and "
				     "metadata.name)", ref ? ref->s : "?");
	}
	return true;
}

/* --- patches -------------------------------------------------------------------------------- */

static const char *const cluster_scoped[] = {
	"Namespace", "Node", "PersistentVolume", "ClusterRole", "ClusterRoleBinding",
	"CustomResourceDefinition", "PriorityClass", "StorageClass", "ValidatingWebhookConfiguration",
	"MutatingWebhookConfiguration", "APIService", "CSIDriver", "RuntimeClass",
	"ClusterServingRuntime", "ClusterStorageContainer", "ResourceClaimTemplate_", "DeviceClass",
	"IngressClass", "VolumeAttachment", "NodePool", "EC2NodeClass", NULL};

static bool in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* kustomize's effective namespace of an object of kind in namespace ns (resid's
** EffectiveNamespace): one word for every cluster-scoped kind, "default" for none. */
static const char *eff_ns(const char *kind, const char *ns)
{
	if (in(kind, cluster_scoped))
		return "_non_namespaceable_";
	return !ns || !*ns ? "default" : ns;
}

/* Adds name (in r's namespace) to r's previous ids. */
static bool push_prev(struct ctx *c, struct kres *r, const char *name)
{
	struct kid *v = sl_arena_alloc(c->a, (r->n_prev + 1) * sizeof *v);
	if (!v)
		return false;
	if (r->n_prev)
		memcpy(v, r->prev, r->n_prev * sizeof *v);
	v[r->n_prev] = (struct kid){eff_ns(sl_knode_str(r->obj, "kind"), ns_of(r->obj)),
				    name ? name : ""};
	r->prev = v;
	r->n_prev++;
	return true;
}

/* Keeps r's id before a transformer changes it (kustomize's StorePreviousId). */
static bool store_prev(struct ctx *c, struct kres *r)
{
	return push_prev(c, r, name_of(r->obj));
}

/* True when resource r is, or was at some level of the build, kind/name in effective namespace
** ens (NULL: any) with apiVersion group/version (NULL: any): kustomize's match of a resource by
** any of its ids. */
static bool known_as(const struct kres *r, const char *group, const char *version,
		     const char *kind, const char *name, const char *ens)
{
	char g[256];
	const char *v;
	group_version(r->obj, g, sizeof g, &v);
	const char *k = sl_knode_str(r->obj, "kind"), *now = name_of(r->obj);
	if (!name || (group && strcmp(group, g)) || (version && strcmp(version, v)) ||
	    (kind && (!k || strcmp(kind, k))))
		return false;
	if (now && strcmp(now, name) == 0 && (!ens || strcmp(ens, eff_ns(k, ns_of(r->obj))) == 0))
		return true;
	for (size_t i = 0; i < r->n_prev; i++)
		if (strcmp(r->prev[i].name, name) == 0 && (!ens || strcmp(ens, r->prev[i].ns) == 0))
			return true;
	return false;
}

/* kustomize's resource id of obj (Kind.version.group/name.namespace, with its words for what is
** missing), in a; NULL when out of memory. */
static const char *res_id(sl_arena *a, const sl_knode *obj)
{
	char g[256];
	const char *v;
	group_version(obj, g, sizeof g, &v);
	const char *k = sl_knode_str(obj, "kind"), *nm = name_of(obj), *ns = ns_of(obj);
	return sl_arena_printf(a, "%s.%s.%s/%s.%s", k && *k ? k : "[noKind]", *v ? v : "[noVer]",
			       g[0] ? g : "[noGrp]", nm && *nm ? nm : "[noName]", ns && *ns ? ns : "[noNs]");
}

/* The resources acc gained from from on (entry e's): none may have the current id of one before
** it, which kustomize refuses ("may not add resource with an already registered id"). */
static bool unique_ids(struct ctx *c, const struct acc *acc, size_t from, const sl_knode *e)
{
	for (size_t i = from; i < acc->n; i++) {
		const sl_knode *o = acc->v[i].obj;
		char g[256];
		const char *v, *kind = sl_knode_str(o, "kind"), *name = name_of(o);
		group_version(o, g, sizeof g, &v);
		const char *ens = eff_ns(kind, ns_of(o));
		for (size_t j = 0; j < i; j++) {
			const sl_knode *p = acc->v[j].obj;
			char pg[256];
			const char *pv, *pk = sl_knode_str(p, "kind"), *pn = name_of(p);
			group_version(p, pg, sizeof pg, &pv);
			if (strcmp(g, pg) || strcmp(v, pv) || !kind || !pk || strcmp(kind, pk) ||
			    strcmp(name ? name : "", pn ? pn : "") || strcmp(ens, eff_ns(pk, ns_of(p))))
				continue;
			const char *id = res_id(c->a, o);
			const char *notes = id ? sl_arena_printf(c->a, "kustomize: accumulating "
								 "resources: accumulation err='merging "
								 "resources from '%s': may not add resource "
								 "with an already registered id: %s'", e->s,
								 id) : NULL;
			return notes && issue_n(c, "kustomize-invalid", e, notes, "may not add resource "
						"with an already registered id: %s", id);
		}
	}
	return true;
}

/* True when s matches pattern, a regular expression anchored at both ends (kustomize's
** selectors), or when there is no pattern. */
static bool rx_match(const char *pattern, const char *s)
{
	if (!pattern || !*pattern)
		return true;
	if (!strpbrk(pattern, "\\^$.|?*+()[]{}"))
		return strcmp(pattern, s) == 0;   /* a literal: no regular expression needed */
	char *re = sl_xprintf("^(?:%s)$", pattern);
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *rx = re ? pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL)
			    : NULL;
	pcre2_match_data *md = rx ? pcre2_match_data_create(2, NULL) : NULL;
	bool hit = md && sl_regex_match(rx, s, strlen(s), 0, md) > 0;
	pcre2_match_data_free(md);
	pcre2_code_free(rx);
	free(re);
	return hit;
}

/* True when obj (resource r) matches the target selector (a map: group, version, kind, name and
** namespace, each a regular expression; labelSelector, annotationSelector), as kustomize's
** resmap Select: the name and the namespace are its first id's or its current ones. */
static bool selected(const sl_knode *obj, const struct kres *r, const sl_knode *target)
{
	char g[256];
	const char *v;
	group_version(obj, g, sizeof g, &v);
	const char *kind = sl_knode_str(obj, "kind"), *name = name_of(obj);
	const char *cur_ns = eff_ns(kind, ns_of(obj));
	const char *org_name = r->n_prev ? r->prev[0].name : name ? name : "";
	const char *org_ns = r->n_prev ? r->prev[0].ns : cur_ns;
	const char *tns = sl_knode_str(target, "namespace"), *tn = sl_knode_str(target, "name");
	if ((!rx_match(tns, org_ns) && !rx_match(tns, cur_ns)) ||
	    (!rx_match(tn, org_name) && !rx_match(tn, name ? name : "")) ||
	    !rx_match(sl_knode_str(target, "group"), g) ||
	    !rx_match(sl_knode_str(target, "version"), v) ||
	    !rx_match(sl_knode_str(target, "kind"), kind ? kind : ""))
		return false;
	static const char *const sels[][2] = {{"labelSelector", "labels"},
					      {"annotationSelector", "annotations"}};
	for (size_t s = 0; s < 2; s++) {
		const char *sel = sl_knode_str(target, sels[s][0]);
		if (!sel)
			continue;
		const sl_knode *have = sl_knode_get(sl_knode_get(obj, "metadata", NULL), sels[s][1], NULL);
		char *dup = sl_xstrdup(sel);
		bool ok = dup != NULL;
		for (char *save = NULL, *t = dup ? strtok_r(dup, ",", &save) : NULL; t && ok;
		     t = strtok_r(NULL, ",", &save)) {
			while (*t == ' ')
				t++;
			char *neq = strstr(t, "!="), *eq = strchr(t, '=');
			if (neq) {
				*neq = '\0';
				const char *hv = sl_knode_str(have, t);
				ok = !hv || strcmp(hv, neq + 2) != 0;
			} else if (eq) {
				*eq = '\0';
				const char *val = eq[1] == '=' ? eq + 2 : eq + 1;
				const char *hv = sl_knode_str(have, t);
				ok = hv && strcmp(hv, val) == 0;
			} else {
				ok = sl_knode_get(have, t, NULL) != NULL;
			}
		}
		free(dup);
		if (!ok)
			return false;
	}
	return true;
}

/* The patch documents of an inline patch: parsed from the scalar's text, each node's origin
** moved to where that text stands in the kustomization (a block scalar's lines, its indent). */
static void relocate(sl_knode *n, const sl_source *tmp, const sl_knode *scalar)
{
	const sl_source *ks = scalar->src;
	uint32_t line, col;
	sl_source_position(tmp, n->start, &line, &col);
	uint32_t sl, sc;
	sl_source_position(ks, scalar->start, &sl, &sc);
	/* a block scalar ("|", "|-") starts on the next line, indented */
	bool block = ks->data[scalar->start] == '|' || ks->data[scalar->start] == '>';
	size_t first = block ? sl : sl - 1;   /* 0-based line of the text's first line */
	size_t target = first + line - 1;
	uint32_t start = scalar->start, end = scalar->end;
	if (block && target < ks->n_lines) {
		size_t ls = ks->line_start[target], ind = 0;
		if (first < ks->n_lines) {
			size_t fs = ks->line_start[first];
			while (fs + ind < ks->len && ks->data[fs + ind] == ' ')
				ind++;
		}
		size_t off = ls + ind + (col - 1);
		size_t le = sl_source_line_end(ks, target);
		if (off <= le) {
			start = (uint32_t)off;
			end = (uint32_t)(off + (n->end - n->start) < le ? off + (n->end - n->start) : le);
		}
	}
	n->src = ks;
	n->start = start;
	n->end = end;
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == SL_NODE_MAP)
			relocate(n->k[i], tmp, scalar);
		relocate(n->v[i], tmp, scalar);
	}
}

/* The documents of a patch (a file path, or inline text), as knodes in *docs (n of them). */
static bool patch_docs(struct ctx *c, const char *dir, const sl_knode *path, const sl_knode *inline_,
		       sl_knode ***docs, size_t *n)
{
	*n = 0;
	*docs = NULL;
	const sl_tree *t = NULL;
	const sl_source *src = NULL;
	sl_source *tmp = NULL;
	sl_tree tt = {0};
	if (path) {
		const char *what = path->type == SL_NODE_SCALAR ?
				   sl_arena_printf(c->a, "failed to get the patch file from path(%s)",
						   path->s) : NULL;
		struct kfile *f = what ? input(c, path, dir, path->s, what) : NULL;
		if (!f)
			return false;
		if (!push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
			return false;   /* a patch file is the build's too */
		t = &f->tree;
		src = f->src;
	} else {
		if (sl_source_from_buffer("(inline patch)", inline_->s, inline_->len, &tmp) != SL_OK ||
		    sl_tree_parse(tmp, c->a, &tt, no_issue, NULL) != SL_OK) {
			sl_source_free(tmp);
			return false;
		}
		t = &tt;
		src = tmp;
	}
	*docs = sl_arena_alloc(c->a, (t->n_docs + 1) * sizeof **docs);
	for (size_t i = 0; *docs && i < t->n_docs; i++) {
		if (!t->docs[i]->root)
			continue;
		sl_knode *d = sl_knode_load(c->a, t->docs[i]->root, src);
		if (!d) {
			*docs = NULL;
			break;
		}
		if (tmp)
			relocate(d, tmp, inline_);
		(*docs)[(*n)++] = d;
	}
	sl_source_free(tmp);
	return *docs != NULL;
}

/* Which list of the kustomization a patch comes from: kustomize words their refusals apart. */
enum patch_from { FROM_PATCHES, FROM_PSM, FROM_JSON6902 };

/* Strategic merge patch p onto resource r, as kustomize's ApplySmPatch: the resource keeps its
** kind, name and namespace unless the patch entry's options allow a change. */
static bool merge_into(struct ctx *c, struct acc *acc, size_t *i, const sl_knode *p,
		       const sl_knode *options)
{
	struct kres *r = &acc->v[*i];
	sl_knode *o = r->obj;
	const char *an = sl_knode_str(options, "allowNameChange");
	const char *ak = sl_knode_str(options, "allowKindChange");
	bool name_ok = an && strcmp(an, "true") == 0, kind_ok = ak && strcmp(ak, "true") == 0;
	if ((name_ok || kind_ok) && !store_prev(c, r))
		return false;
	sl_knode *md = sl_knode_get(o, "metadata", NULL);
	sl_knode *kind = sl_knode_get(o, "kind", NULL), *name = sl_knode_get(md, "name", NULL);
	sl_knode *ns = sl_knode_get(md, "namespace", NULL);
	bool deleted = false;
	if (!sl_kpatch_merge(c->a, o, p, builtin(o), &deleted))
		return false;
	tidy(o, false);   /* kyaml's merge drops what is null in the object it walks */
	if (deleted) {
		memmove(acc->v + *i, acc->v + *i + 1, (acc->n - *i - 1) * sizeof *acc->v);
		acc->n--;
		(*i)--;
		return true;
	}
	/* put back what the patch changed (most patches repeat the resource's own id) */
	size_t at;
	if (!kind_ok && kind && sl_knode_get(o, "kind", NULL) != kind &&
	    !sl_knode_set(c->a, o, "kind", kind))
		return false;
	md = sl_knode_get(o, "metadata", NULL);
	if (!md)
		return true;
	if ((!name_ok && name && sl_knode_get(md, "name", NULL) != name &&
	     !sl_knode_set(c->a, md, "name", name)) ||
	    (ns && sl_knode_get(md, "namespace", NULL) != ns && !sl_knode_set(c->a, md, "namespace", ns)))
		return false;
	if (!ns && sl_knode_get(md, "namespace", &at))
		sl_knode_remove(md, at);
	return true;
}

/* Applies one patch (documents docs, target selector target or NULL, options) to acc, as
** kustomize's PatchTransformer (or its PatchStrategicMerge and PatchJson6902 transformers, from):
** a strategic merge patch without a target changes the one resource with its id, a target
** selects any number; JSON 6902 needs a target. at: where it is named, for findings. */
static bool apply_patch(struct ctx *c, struct acc *acc, sl_knode **docs, size_t n,
			const sl_knode *target, const sl_knode *options, const sl_knode *at,
			enum patch_from from)
{
	if (target && n > 1 && from != FROM_JSON6902 && docs[0]->type != SL_NODE_SEQ)
		return issue(c, "kustomize-invalid", at, "Multiple Strategic-Merge Patches in one "
			     "`patches` entry is not allowed to set `patches.target` field");
	for (size_t d = 0; d < n; d++) {
		const sl_knode *p = docs[d];
		bool ops = from == FROM_JSON6902 || p->type == SL_NODE_SEQ;
		if (ops && !target)
			return issue(c, "kustomize-invalid", at, "must specify a target for JSON patch");
		if (!target) {
			/* the one resource with the patch's id (any id it had in the build) */
			char g[256];
			const char *v, *k = sl_knode_str(p, "kind");
			group_version(p, g, sizeof g, &v);
			size_t hit = SIZE_MAX, hits = 0;
			for (size_t i = 0; i < acc->n; i++)
				if (known_as(&acc->v[i], g, v, k ? k : "", name_of(p) ? name_of(p) : "",
					     eff_ns(k, ns_of(p))) && hits++ == 0)
					hit = i;
			if (hits == 1) {
				if (!merge_into(c, acc, &hit, p, options))
					return false;
				continue;
			}
			const char *id = res_id(c->a, p);
			if (!id)
				return false;
			const char *why = sl_arena_printf(c->a, "%s for Id %s; failed to find unique "
							  "target for patch %s", hits ? "multiple "
							  "matches" : "no matches", id, id);
			const char *kust = why && from == FROM_PATCHES ?
					   sl_arena_printf(c->a, "no resource matches strategic merge "
							   "patch \"%s\": %s", id, why) : why;
			const char *notes = kust ? sl_arena_printf(c->a, "kustomize: %s\nA patch "
								   "without a target names its resource "
								   "by apiVersion, kind, name and namespace, "
								   "as a base wrote them or as a transformer "
								   "renamed them; kubectl kustomize refuses "
								   "the build", kust) : NULL;
			if (!notes)
				return false;
			if (hits)
				return issue_n(c, "kustomize-invalid", at, notes, "multiple matches for Id "
					       "%s (%zu resources): a patch without a target must match "
					       "one", id, hits);
			return from == FROM_PSM ? issue_n(c, "kustomize-invalid", at, notes, "no "
							  "matches for Id %s", id)
						: issue_n(c, "kustomize-invalid", at, notes, "no resource "
							  "matches strategic merge patch \"%s\"", id);
		}
		for (size_t i = 0; i < acc->n; i++) {
			if (!selected(acc->v[i].obj, &acc->v[i], target))
				continue;
			if (!ops) {
				if (!merge_into(c, acc, &i, p, options))
					return false;
				continue;
			}
			sl_knode *o = acc->v[i].obj;
			if (from == FROM_PATCHES && !store_prev(c, &acc->v[i]))
				return false;
			const sl_knode *bad = NULL;
			const char *why = NULL;
			int r = sl_kpatch_json6902(c->a, o, p, &why, &bad);
			if (r < 0)
				return false;
			if (r > 0) {
				const char *kind = sl_knode_str(o, "kind"), *name = name_of(o);
				const char *notes = sl_arena_printf(c->a, "kustomize applies the JSON 6902 "
								    "operations to %s %s as the build has it "
								    "here and stops with this error "
								    "(evanphx/json-patch's words); kubectl "
								    "kustomize refuses the build",
								    kind ? kind : "?", name ? name : "?");
				return notes && issue_n(c, "kustomize-invalid", bad ? bad : at, notes,
							"%s (%s %s)", why, kind ? kind : "?", name ? name : "?");
			}
		}
	}
	return true;
}

/* --- transformers --------------------------------------------------------------------------- */

/* Sets the scalar at path (a "/"-separated path; a sequence on the way applies to each item)
** under n to a copy of v; create: make missing maps (else only where the path exists). */
static bool set_path(sl_arena *a, sl_knode *n, const char *path, const char *key,
		     const sl_knode *v, bool create)
{
	if (!n)
		return true;
	if (n->type == SL_NODE_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			if (!set_path(a, n->v[i], path, key, v, create))
				return false;
		return true;
	}
	if (n->type != SL_NODE_MAP)
		return true;
	if (!*path) {
		sl_knode *c = sl_knode_copy(a, v);
		if (!c)
			return false;
		c->quoted = true;   /* label and annotation values are strings */
		size_t at;
		if (sl_knode_get(n, key, &at)) {
			n->v[at] = c;
			return true;
		}
		if (!sl_knode_set(a, n, key, c))
			return false;
		return true;
	}
	const char *slash = strchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : strlen(path);
	char seg[128];
	len = len < sizeof seg ? len : sizeof seg - 1;
	memcpy(seg, path, len);
	seg[len] = '\0';
	sl_knode *next = sl_knode_get(n, seg, NULL);
	if (!next || sl_knode_is_null(next)) {
		if (!create || strcmp(seg, "volumeClaimTemplates") == 0)
			return true;   /* kustomize creates fields, never a list's items */
		next = sl_knode_new(a, SL_NODE_MAP, v->src, v->start, v->end);
		if (!next || !sl_knode_set(a, n, seg, next))
			return false;
	}
	return set_path(a, next, slash ? slash + 1 : "", key, v, create);
}

/* kustomize's commonLabels field specs (api/konfig/builtinpluginconsts/commonlabels.go): the
** selectors and pod template labels of the workload kinds. create: made when missing. */
struct fspec {
	const char *kinds;   /* "|Deployment|StatefulSet|" (NULL: every kind) */
	const char *path;
	bool create;
	bool selector;       /* only with selectors (commonLabels, labels.includeSelectors) */
	bool tmpl;           /* a template's labels (labels.includeTemplates) */
};

static const struct fspec label_specs[] = {
	{NULL, "metadata/labels", true, false, false},
	{"|Service|ReplicationController|", "spec/selector", true, true, false},
	{"|ReplicationController|Deployment|ReplicaSet|DaemonSet|StatefulSet|Job|",
	 "spec/template/metadata/labels", true, true, true},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|", "spec/selector/matchLabels", true, true, false},
	{"|Job|", "spec/selector/matchLabels", false, true, false},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|Job|",
	 "spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels",
	 false, true, false},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|Job|",
	 "spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels",
	 false, true, false},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|Job|",
	 "spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels",
	 false, true, false},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|Job|",
	 "spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels",
	 false, true, false},
	{"|Deployment|ReplicaSet|DaemonSet|StatefulSet|",
	 "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels", false, true, false},
	{"|StatefulSet|", "spec/volumeClaimTemplates/metadata/labels", true, true, false},
	{"|CronJob|", "spec/jobTemplate/metadata/labels", true, true, true},
	{"|CronJob|", "spec/jobTemplate/spec/selector/matchLabels", false, true, false},
	{"|CronJob|", "spec/jobTemplate/spec/template/metadata/labels", true, true, true},
	{"|PodDisruptionBudget|", "spec/selector/matchLabels", false, true, false},
	{"|NetworkPolicy|", "spec/podSelector/matchLabels", false, true, false},
};

static bool kind_in(const char *kinds, const char *kind)
{
	if (!kinds)
		return true;
	size_t kl = kind ? strlen(kind) : 0;   /* "|kind|" in kinds */
	for (const char *p = kl ? strstr(kinds, kind) : NULL; p; p = strstr(p + 1, kind))
		if (p > kinds && p[-1] == '|' && p[kl] == '|')
			return true;
	return false;
}

/* Adds the labels of map labels to every resource: metadata always, the selectors with
** selectors, the templates with templates (commonLabels: both). */
static bool add_labels(sl_arena *a, struct acc *acc, const sl_knode *labels, bool selectors,
		       bool templates)
{
	for (size_t i = 0; i < acc->n; i++) {
		const char *kind = sl_knode_str(acc->v[i].obj, "kind");
		for (size_t s = 0; s < sizeof label_specs / sizeof *label_specs; s++) {
			const struct fspec *f = &label_specs[s];
			if (!kind_in(f->kinds, kind) || (f->selector && !selectors && !(f->tmpl && templates)))
				continue;
			for (size_t l = 0; l < labels->n; l++)
				if (!set_path(a, acc->v[i].obj, f->path, labels->k[l]->s, labels->v[l],
					      f->create))
					return false;
		}
	}
	return true;
}

static bool add_annotations(sl_arena *a, struct acc *acc, const sl_knode *ann)
{
	static const char *const tmpl = "|ReplicationController|Deployment|ReplicaSet|DaemonSet|"
					"StatefulSet|Job|";
	for (size_t i = 0; i < acc->n; i++) {
		const char *kind = sl_knode_str(acc->v[i].obj, "kind");
		for (size_t l = 0; l < ann->n; l++) {
			if (!set_path(a, acc->v[i].obj, "metadata/annotations", ann->k[l]->s, ann->v[l], true) ||
			    (kind_in(tmpl, kind) &&
			     !set_path(a, acc->v[i].obj, "spec/template/metadata/annotations", ann->k[l]->s,
				       ann->v[l], true)) ||
			    (kind_in("|CronJob|", kind) &&
			     (!set_path(a, acc->v[i].obj, "spec/jobTemplate/metadata/annotations",
					ann->k[l]->s, ann->v[l], true) ||
			      !set_path(a, acc->v[i].obj, "spec/jobTemplate/spec/template/metadata/annotations",
					ann->k[l]->s, ann->v[l], true))))
				return false;
		}
	}
	return true;
}

/* Sets n[key] to `to` when it is the scalar `from` (a reference to a renamed object). */
static void ref(sl_knode *n, const char *key, const char *from, const sl_knode *to)
{
	size_t at;
	sl_knode *v = sl_knode_get(n, key, &at);
	if (v && v->type == SL_NODE_SCALAR && strcmp(v->s, from) == 0)
		n->v[at] = (sl_knode *)to;
}

/* Every item of sequence n[key] (a map), for the references in it. */
#define EACH(it, map, key) \
	for (sl_knode *it##_s = sl_knode_get((map), (key), NULL), *it = NULL; it##_s && !it; it##_s = NULL) \
		for (size_t it##_i = 0; it##_s->type == SL_NODE_SEQ && it##_i < it##_s->n && \
					(it = it##_s->v[it##_i]); it##_i++)

/* The references kustomize's name reference transformer updates when a ConfigMap, Secret,
** ServiceAccount or PriorityClass named from is renamed to: in the pod specs of every object. */
static void rename_refs(struct acc *acc, const char *kind, const char *from, const sl_knode *to)
{
	static const char *const pod_paths[][5] = {
		{"spec", "template", "spec", NULL}, {"spec", NULL},
		{"spec", "jobTemplate", "spec", "template"}, {"spec", "predictor", NULL}};
	bool cm = strcmp(kind, "ConfigMap") == 0, secret = strcmp(kind, "Secret") == 0;
	for (size_t i = 0; i < acc->n; i++) {
		for (size_t p = 0; p < sizeof pod_paths / sizeof *pod_paths; p++) {
			sl_knode *spec = sl_knode_path(NULL, acc->v[i].obj, pod_paths[p], false, NULL, 0, 0);
			if (p == 2 && spec)
				spec = sl_knode_get(spec, "spec", NULL);
			if (!spec || spec->type != SL_NODE_MAP)
				continue;
			if (strcmp(kind, "PriorityClass") == 0)
				ref(spec, "priorityClassName", from, to);
			if (strcmp(kind, "ServiceAccount") == 0)
				ref(spec, "serviceAccountName", from, to);
			if (!cm && !secret)
				continue;
			static const char *const lists[] = {"containers", "initContainers"};
			for (size_t l = 0; l < 2; l++) {
				EACH(ctr, spec, lists[l]) {
					EACH(ef, ctr, "envFrom")
						ref(sl_knode_get(ef, cm ? "configMapRef" : "secretRef", NULL), "name", from, to);
					EACH(ev, ctr, "env")
						ref(sl_knode_get(sl_knode_get(ev, "valueFrom", NULL),
								 cm ? "configMapKeyRef" : "secretKeyRef", NULL), "name", from, to);
				}
			}
			EACH(vol, spec, "volumes") {
				ref(sl_knode_get(vol, cm ? "configMap" : "secret", NULL), cm ? "name" : "secretName", from, to);
				EACH(src, sl_knode_get(vol, "projected", NULL), "sources")
					ref(sl_knode_get(src, cm ? "configMap" : "secret", NULL), "name", from, to);
			}
			if (secret)
				EACH(ps, spec, "imagePullSecrets")
					ref(ps, "name", from, to);
		}
	}
}

/* namePrefix / nameSuffix on metadata.name (not on CRDs, APIServices and Namespaces, as
** kustomize), each keeping the name it changes among the resource's previous ids. */
static bool rename_all(struct ctx *c, struct acc *acc, const sl_knode *prefix, const sl_knode *suffix)
{
	for (size_t i = 0; i < acc->n; i++) {
		sl_knode *o = acc->v[i].obj;
		const char *kind = sl_knode_str(o, "kind");
		if (in(kind, (const char *const[]){"CustomResourceDefinition", "Namespace", NULL}))
			continue;
		char g[256];
		const char *ver;
		group_version(o, g, sizeof g, &ver);
		if (in(kind, (const char *const[]){"APIService", NULL}) &&
		    strcmp(g, "apiregistration.k8s.io") == 0)
			continue;
		sl_knode *md = sl_knode_get(o, "metadata", NULL);
		size_t at;
		sl_knode *nm = sl_knode_get(md, "name", &at);
		if (!nm || nm->type != SL_NODE_SCALAR)
			continue;
		const char *p = prefix && prefix->type == SL_NODE_SCALAR ? prefix->s : "";
		const char *s = suffix && suffix->type == SL_NODE_SCALAR ? suffix->s : "";
		if ((*p && !push_prev(c, &acc->v[i], nm->s)) ||
		    (*s && !push_prev(c, &acc->v[i], *p ? sl_arena_printf(c->a, "%s%s", p, nm->s)
						     : nm->s)))
			return false;
		char *name = sl_arena_printf(c->a, "%s%s%s", p, nm->s, s);
		sl_knode *nn = name ? sl_knode_new(c->a, SL_NODE_SCALAR, nm->src, nm->start, nm->end) : NULL;
		if (!nn)
			return false;
		nn->s = name;
		nn->len = strlen(name);
		nn->quoted = nm->quoted;
		md->v[at] = nn;
		if (kind)
			rename_refs(acc, kind, nm->s, nn);
	}
	return true;
}

static bool set_namespace(struct ctx *c, struct acc *acc, const sl_knode *ns)
{
	for (size_t i = 0; i < acc->n; i++) {
		sl_knode *o = acc->v[i].obj;
		if (!store_prev(c, &acc->v[i]))
			return false;
		/* kustomize's namespace field specs besides metadata.namespace (builtinpluginconsts
		** namespace.go): a Namespace's own name, the service of an APIService and of a CRD's
		** conversion webhook */
		const char *kind = sl_knode_str(o, "kind"), *av = sl_knode_str(o, "apiVersion");
		av = av ? av : "";
		if ((in(kind, (const char *const[]){"Namespace", NULL}) && strcmp(av, "v1") == 0 &&
		     !set_path(c->a, o, "metadata", "name", ns, true)) ||
		    (in(kind, (const char *const[]){"APIService", NULL}) &&
		     strncmp(av, "apiregistration.k8s.io/", 23) == 0 &&
		     !set_path(c->a, o, "spec/service", "namespace", ns, true)) ||
		    (in(kind, (const char *const[]){"CustomResourceDefinition", NULL}) &&
		     strncmp(av, "apiextensions.k8s.io/", 21) == 0 &&
		     !set_path(c->a, o, "spec/conversion/webhook/clientConfig/service", "namespace", ns,
			       false)))
			return false;
		if (in(kind, cluster_scoped))
			continue;
		sl_knode *md = sl_knode_path(c->a, o, (const char *const[]){"metadata", NULL}, true,
					     ns->src, ns->start, ns->end);
		sl_knode *v = sl_knode_copy(c->a, ns);
		if (!md || !v || !sl_knode_set(c->a, md, "namespace", v))
			return false;
	}
	return true;
}

static bool set_replicas(struct ctx *c, struct acc *acc, const sl_knode *list)
{
	static const char *const scalable[] = {"Deployment", "StatefulSet", "ReplicaSet",
					       "ReplicationController", NULL};
	for (size_t r = 0; list && r < list->n; r++) {
		const sl_knode *e = list->v[r];
		const char *name = sl_knode_str(e, "name");
		const sl_knode *count = sl_knode_get(e, "count", NULL);
		if (!name || !count)
			return issue(c, "kustomize-invalid", e, "a replicas entry needs name and count");
		bool scaled = false;
		for (size_t i = 0; i < acc->n; i++) {
			sl_knode *o = acc->v[i].obj;
			const char *kind = sl_knode_str(o, "kind");
			if (!in(kind, scalable) || !known_as(&acc->v[i], NULL, NULL, kind, name, NULL))
				continue;
			scaled = true;
			sl_knode *spec = sl_knode_path(c->a, o, (const char *const[]){"spec", NULL}, true,
						       count->src, count->start, count->end);
			sl_knode *v = sl_knode_copy(c->a, count);
			if (!spec || !v || !sl_knode_set(c->a, spec, "replicas", v))
				return false;
		}
		const char *notes = scaled ? NULL :
				    sl_arena_printf(c->a, "kustomize: resource with name %s does not "
						    "match a config with the following GVK [Deployment."
						    "[noVer].[noGrp] StatefulSet.[noVer].[noGrp] "
						    "ReplicaSet.[noVer].[noGrp] ReplicationController."
						    "[noVer].[noGrp]]; kubectl kustomize refuses the build",
						    name);
		if (!scaled)
			return notes && issue_n(c, "kustomize-invalid", e, notes, "replicas: no "
						"Deployment, StatefulSet, ReplicaSet or "
						"ReplicationController is named %s", name);
	}
	return true;
}

/* images: a container's image whose name is an entry's name gets its newName, newTag or
** digest (every containers and initContainers list in the object, as kustomize v5). */
static bool set_image(struct ctx *c, sl_knode *ctr, const sl_knode *images)
{
	size_t at;
	sl_knode *img = sl_knode_get(ctr, "image", &at);
	if (!img || img->type != SL_NODE_SCALAR)
		return true;
	const char *slash = strrchr(img->s, '/'), *from = slash ? slash : img->s;
	const char *at_ = strchr(from, '@'), *colon = strchr(from, ':');
	size_t nlen = at_ ? (size_t)(at_ - img->s) : colon ? (size_t)(colon - img->s) : img->len;
	for (size_t i = 0; i < images->n; i++) {
		const sl_knode *e = images->v[i];
		const char *name = sl_knode_str(e, "name");
		if (!name || strlen(name) != nlen || strncmp(name, img->s, nlen) != 0)
			continue;
		const char *nn = sl_knode_str(e, "newName"), *tag = sl_knode_str(e, "newTag");
		const char *dig = sl_knode_str(e, "digest");
		const char *old_tail = img->s + nlen;
		char *v = sl_arena_printf(c->a, "%s%s%s", nn ? nn : name,
					  dig ? "@" : tag ? ":" : "", dig ? dig : tag ? tag : old_tail);
		sl_knode *vn = v ? sl_knode_scalar(c->a, v, e->src, e->start, e->end) : NULL;
		if (!vn)
			return false;
		ctr->v[at] = vn;
		return true;
	}
	return true;
}

static bool images_in(struct ctx *c, sl_knode *n, const sl_knode *images)
{
	for (size_t i = 0; i < n->n; i++) {
		sl_knode *v = n->v[i];
		if (n->type == SL_NODE_MAP && v->type == SL_NODE_SEQ &&
		    (strcmp(n->k[i]->s, "containers") == 0 || strcmp(n->k[i]->s, "initContainers") == 0))
			for (size_t j = 0; j < v->n; j++)
				if (v->v[j]->type == SL_NODE_MAP && !set_image(c, v->v[j], images))
					return false;
		if (v->type != SL_NODE_SCALAR && !images_in(c, v, images))
			return false;
	}
	return true;
}

/* --- generators ---------------------------------------------------------------------------- */

/* Appends s as a JSON string the way Go's encoding/json writes it (HTML characters escaped). */
static bool json_str(char **buf, size_t *len, size_t *cap, const char *s)
{
	for (size_t need = strlen(s) * 6 + 3; *len + need + 1 > *cap; ) {
		size_t c = *cap ? *cap * 2 : 256;
		char *nb = sl_xrealloc(*buf, c);
		if (!nb)
			return false;
		*buf = nb;
		*cap = c;
	}
	char *w = *buf + *len;
	*w++ = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\') {
			*w++ = '\\';
			*w++ = (char)*p;
		} else if (*p == '\n') {
			*w++ = '\\'; *w++ = 'n';
		} else if (*p == '\r') {
			*w++ = '\\'; *w++ = 'r';
		} else if (*p == '\t') {
			*w++ = '\\'; *w++ = 't';
		} else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&') {
			w += sprintf(w, "\\u%04x", *p);
		} else {
			*w++ = (char)*p;
		}
	}
	*w++ = '"';
	*len = (size_t)(w - *buf);
	(*buf)[*len] = '\0';
	return true;
}

static int cmp_keys(const void *x, const void *y)
{
	return strcmp((*(sl_knode *const *)x)->s, (*(sl_knode *const *)y)->s);
}

/* kustomize's hash of a generated ConfigMap or Secret: SHA-256 of
** {"data":{...},"kind":"ConfigMap","name":"..."} (keys sorted, as Go's encoding/json), the first
** ten hex digits with 0 1 3 a e written g h k m t. */
static bool name_hash(const char *kind, const char *name, const sl_knode *data, const char *type,
		      char out[11])
{
	char *b = NULL;
	size_t len = 0, cap = 0;
	sl_knode **keys = data && data->n ? sl_xmalloc(data->n * sizeof *keys) : NULL;
	if (data && data->n && !keys)
		return false;
	size_t n = data ? data->n : 0;
	for (size_t i = 0; i < n; i++)
		keys[i] = data->k[i];
	if (n)
		qsort(keys, n, sizeof *keys, cmp_keys);
	bool ok = json_str(&b, &len, &cap, "");   /* allocates */
	len = 0;
	ok = ok && (b[len++] = '{', true) && json_str(&b, &len, &cap, "data") && (b[len++] = ':', true) &&
	     (b[len++] = '{', true);
	for (size_t i = 0; ok && i < n; i++) {
		const sl_knode *v = sl_knode_get(data, keys[i]->s, NULL);
		ok = (i == 0 || (b[len++] = ',', true)) && json_str(&b, &len, &cap, keys[i]->s) &&
		     (b[len++] = ':', true) && json_str(&b, &len, &cap, v ? v->s : "");
	}
	ok = ok && (b[len++] = '}', true) && (b[len++] = ',', true) &&
	     json_str(&b, &len, &cap, "kind") && (b[len++] = ':', true) && json_str(&b, &len, &cap, kind) &&
	     (b[len++] = ',', true) && json_str(&b, &len, &cap, "name") && (b[len++] = ':', true) &&
	     json_str(&b, &len, &cap, name);
	if (ok && type) {
		ok = (b[len++] = ',', true) && json_str(&b, &len, &cap, "type") &&
		     (b[len++] = ':', true) && json_str(&b, &len, &cap, type);
	}
	ok = ok && (b[len++] = '}', true);
	free(keys);
	if (!ok) {
		free(b);
		return false;
	}
	sl_sha256 sh;
	char hex[65];
	sl_sha256_init(&sh);
	sl_sha256_update(&sh, b, len);
	sl_sha256_hex(&sh, hex);
	free(b);
	memcpy(out, hex, 10);
	for (int i = 0; i < 10; i++)
		out[i] = out[i] == '0' ? 'g' : out[i] == '1' ? 'h' : out[i] == '3' ? 'k' :
			 out[i] == 'a' ? 'm' : out[i] == 'e' ? 't' : out[i];
	out[10] = '\0';
	return true;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* s base64-encoded, in a. */
static char *base64(sl_arena *a, const char *s, size_t n)
{
	char *out = sl_arena_alloc(a, (n + 2) / 3 * 4 + 1), *w = out;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; out && i < n; i += 3) {
		unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) |
			     (i + 2 < n ? p[i + 2] : 0);
		*w++ = B64[v >> 18 & 63];
		*w++ = B64[v >> 12 & 63];
		*w++ = i + 1 < n ? B64[v >> 6 & 63] : '=';
		*w++ = i + 2 < n ? B64[v & 63] : '=';
	}
	if (out)
		*w = '\0';
	return out;
}

/* Adds key = value (origin at) to a generator's data; a Secret's values base64-encoded. */
static bool put_kv(struct ctx *c, sl_knode *data, const char *key, size_t klen, const char *val,
		   size_t vlen, const sl_knode *at, bool secret)
{
	sl_arena *a = c->a;
	char *k = sl_arena_strndup(a, key, klen);
	const char *v = secret ? base64(a, val, vlen) : sl_arena_strndup(a, val, vlen);
	sl_knode *vn = v ? sl_knode_scalar(a, v, at->src, at->start, at->end) : NULL;
	if (!k || !vn)
		return false;
	vn->quoted = true;
	return sl_knode_set(a, data, k, vn);
}

/* A generator's data from its envs, files and literals (kustomize's order). */
static bool gen_data(struct ctx *c, const sl_knode *e, const char *dir, sl_knode *data, bool secret)
{
	static const char *const envs[] = {"env", "envs"};
	for (size_t k = 0; k < 2; k++) {
		const sl_knode *list = sl_knode_get(e, envs[k], NULL);
		const sl_knode *one = list && list->type == SL_NODE_SCALAR ? list : NULL;
		for (size_t i = 0; list && i < (one ? 1 : list->n); i++) {
			const sl_knode *it = one ? one : list->v[i];
			if (it->type != SL_NODE_SCALAR)
				return issue(c, "kustomize-invalid", it, "an env file is a path");
			const char *what = sl_arena_printf(c->a, "loading KV pairs: env source files: "
							   "[%s]", it->s);
			struct kfile *f = what ? input(c, it, dir, it->s, what) : NULL;
			if (!f)
				return false;
			const char *t = f->src->data, *end = t + f->src->len;
			while (t < end) {
				const char *nl = memchr(t, '\n', (size_t)(end - t)), *le = nl ? nl : end;
				const char *q = t;
				while (q < le && (*q == ' ' || *q == '\t'))
					q++;
				const char *eq = q < le ? memchr(q, '=', (size_t)(le - q)) : NULL;
				size_t vl = eq ? (size_t)(le - eq - 1) : 0;
				if (eq && vl && eq[vl] == '\r')
					vl--;
				if (q < le && *q != '#' && eq &&
				    !put_kv(c, data, q, (size_t)(eq - q), eq + 1, vl, it, secret))
					return false;
				t = nl ? nl + 1 : end;
			}
		}
	}
	const sl_knode *files = sl_knode_get(e, "files", NULL);
	for (size_t i = 0; files && i < files->n; i++) {
		const sl_knode *it = files->v[i];
		if (it->type != SL_NODE_SCALAR)
			return false;
		const char *eq = strchr(it->s, '='), *path = eq ? eq + 1 : it->s;
		const char *base = strrchr(path, '/');
		const char *what = sl_arena_printf(c->a, "loading KV pairs: file sources: [%s]", it->s);
		struct kfile *f = what ? input(c, it, dir, path, what) : NULL;
		if (!f)
			return false;
		const char *key = eq ? it->s : base ? base + 1 : path;
		/* bytes that are not UTF-8 go to binaryData, base64-encoded, as kustomize does */
		bool binary = !secret && f->src->bad_what;
		sl_knode *to = data;
		if (binary) {
			to = sl_knode_get(data, "\x01binaryData", NULL);
			if (!to && (!(to = sl_knode_new(c->a, SL_NODE_MAP, it->src, it->start, it->end)) ||
				    !sl_knode_set(c->a, data, "\x01binaryData", to)))
				return false;
		}
		if (!put_kv(c, to, key, eq ? (size_t)(eq - it->s) : strlen(key), f->src->data,
			    f->src->len, it, secret || binary))
			return false;
	}
	const sl_knode *lits = sl_knode_get(e, "literals", NULL);
	for (size_t i = 0; lits && i < lits->n; i++) {
		const sl_knode *l = lits->v[i];
		const char *eq = l->type == SL_NODE_SCALAR ? strchr(l->s, '=') : NULL;
		if (!eq)
			return issue(c, "kustomize-invalid", l, "a literal is KEY=VALUE");
		const char *v = eq + 1;
		size_t vl = strlen(v);
		if (vl >= 2 && (v[0] == '"' || v[0] == '\'') && v[vl - 1] == v[0]) {
			v++;
			vl -= 2;
		}
		if (!put_kv(c, data, l->s, (size_t)(eq - l->s), v, vl, l, secret))
			return false;
	}
	return true;
}

/* configMapGenerator / secretGenerator: envs, files and literals; behavior create, merge
** (into the ConfigMap of that name a base made) or replace. The hash suffix comes last
** (finish_hashes), as kustomize adds it after every transformer. */
static bool generate(struct ctx *c, struct acc *acc, const sl_knode *list, const sl_knode *opts,
		     const char *kind, const char *dir)
{
	const sl_knode *d = sl_knode_get(opts, "disableNameSuffixHash", NULL);
	bool global_off = d && d->type == SL_NODE_SCALAR && strcmp(d->s, "true") == 0;
	bool secret = strcmp(kind, "Secret") == 0;
	sl_arena *a = c->a;
	for (size_t g = 0; list && g < list->n; g++) {
		const sl_knode *e = list->v[g];
		const sl_knode *name = sl_knode_get(e, "name", NULL);
		if (!name || name->type != SL_NODE_SCALAR)
			return issue(c, "kustomize-invalid", e, "a generator needs a name");
		const char *behavior = sl_knode_str(e, "behavior");
		sl_knode *data = sl_knode_new(a, SL_NODE_MAP, e->src, e->start, e->end);
		if (!data || !gen_data(c, e, dir, data, secret))
			return false;
		/* kustomize: merge and replace change an existing object; anything else creates */
		if (behavior && (strcmp(behavior, "merge") == 0 || strcmp(behavior, "replace") == 0)) {
			struct kres *old = NULL;
			const char *ens = eff_ns(kind, sl_knode_str(e, "namespace"));
			for (size_t i = 0; i < acc->n && !old; i++)
				if (known_as(&acc->v[i], "", "v1", kind, name->s, ens))
					old = &acc->v[i];
			if (!old)
				return issue(c, "kustomize-invalid", sl_knode_get(e, "behavior", NULL),
					     "id %s %s does not exist; cannot merge or replace", kind, name->s);
			sl_knode *od = sl_knode_get(old->obj, "data", NULL);
			if (strcmp(behavior, "merge") == 0 && od && od->type == SL_NODE_MAP) {
				for (size_t i = 0; i < data->n; i++)
					if (!sl_knode_set(a, od, data->k[i]->s, data->v[i]))
						return false;
			} else if (!sl_knode_set(a, old->obj, "data", data)) {
				return false;
			}
			continue;
		}
		size_t bat;
		sl_knode *bin = sl_knode_get(data, "\x01binaryData", &bat);
		if (bin)
			sl_knode_remove(data, bat);
		sl_knode *obj = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		sl_knode *md = sl_knode_new(a, SL_NODE_MAP, name->src, name->start, name->end);
		if (!obj || !md)
			return false;
		const sl_knode *eo = sl_knode_get(sl_knode_get(e, "options", NULL), "disableNameSuffixHash", NULL);
		bool off = eo ? eo->type == SL_NODE_SCALAR && strcmp(eo->s, "true") == 0 : global_off;
		const char *type = secret ? (sl_knode_str(e, "type") ? sl_knode_str(e, "type") : "Opaque") : NULL;
		sl_knode *nm = sl_knode_copy(a, name);
		if (!nm || !sl_knode_set(a, obj, "apiVersion", sl_knode_scalar(a, "v1", name->src, name->start, name->end)) ||
		    !sl_knode_set(a, obj, "kind", sl_knode_scalar(a, kind, name->src, name->start, name->end)) ||
		    !sl_knode_set(a, md, "name", nm) || !sl_knode_set(a, obj, "metadata", md) ||
		    (type && !sl_knode_set(a, obj, "type", sl_knode_scalar(a, type, e->src, e->start, e->end))) ||
		    (data->n && !sl_knode_set(a, obj, "data", data)) || (bin && !sl_knode_set(a, obj, "binaryData", bin)))
			return false;
		const sl_knode *ns = sl_knode_get(e, "namespace", NULL);
		if (ns && !sl_knode_set(a, md, "namespace", sl_knode_copy(a, ns)))
			return false;
		if (!add_res(acc, obj))
			return false;
		acc->v[acc->n - 1].hash = !off;
	}
	return true;
}

/* The hash suffix of every generated object, from what it holds once built, and the references
** to it renamed along. */
static bool finish_hashes(struct ctx *c, struct acc *acc)
{
	for (size_t i = 0; i < acc->n; i++) {
		if (!acc->v[i].hash)
			continue;
		sl_knode *o = acc->v[i].obj, *md = sl_knode_get(o, "metadata", NULL);
		const char *kind = sl_knode_str(o, "kind");
		size_t at;
		sl_knode *nm = sl_knode_get(md, "name", &at);
		char h[11];
		/* kustomize v5 hashes the object with an empty name */
		if (!nm || !name_hash(kind, "", sl_knode_get(o, "data", NULL),
				      strcmp(kind, "Secret") == 0 ? sl_knode_str(o, "type") : NULL, h))
			return false;
		sl_knode *nn = sl_knode_copy(c->a, nm);
		if (!nn || !(nn->s = sl_arena_printf(c->a, "%s-%s", nm->s, h)))
			return false;
		nn->len = strlen(nn->s);
		md->v[at] = nn;
		rename_refs(acc, kind, nm->s, nn);
	}
	return true;
}

/* --- a kustomization ----------------------------------------------------------------------- */

static const char *const supported_keys[] = {
	"apiVersion", "kind", "metadata", "resources", "bases", "components", "patches",
	"patchesStrategicMerge", "patchesJson6902", "namespace", "namePrefix", "nameSuffix",
	"commonLabels", "labels", "commonAnnotations", "replicas", "images", "configMapGenerator",
	"secretGenerator", "generatorOptions", "sortOptions", "buildMetadata", NULL};

/* Keys kustomize v5 applies and this builder does not, but without which the build is still the
** deployed objects in all but the fields they set: built and linted, with a notice at the key.
** (helmCharts, helmGlobals, openapi and the generators/transformers/validators plugins make or
** reshape objects: a kustomization with them is not built.) */
static const char *const unapplied_keys[] = {"vars", "replacements", "configurations", "crds", NULL};

/* Why a resource entry is remote (no network), or NULL. */
static bool remote(const char *s)
{
	return strstr(s, "://") || strncmp(s, "github.com/", 11) == 0 || strncmp(s, "git@", 4) == 0 ||
	       strstr(s, "?ref=");
}

static bool build_kust(struct ctx *c, const char *kpath, const sl_knode *ref, struct acc *acc,
		       bool component);

/* resources and bases: files and directories, in order. */
static bool resources(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc)
{
	static const char *const keys[] = {"resources", "bases"};
	for (size_t k = 0; k < 2; k++) {
		const sl_knode *list = sl_knode_get(root, keys[k], NULL);
		for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
			const sl_knode *e = list->v[i];
			if (e->type != SL_NODE_SCALAR)
				return issue(c, "kustomize-invalid", e, "a resource is a path");
			if (remote(e->s))
				return issue_n(c, "kustomize-unsupported", e,
					       sl_arena_printf(c->a, "the resource: %s", e->s),
					       "remote resource: schedlint builds kustomizations without "
					       "the network, so this one's files are linted as plain files");
			char *p = join(dir, e->s);
			const char *what = sl_arena_printf(c->a, "accumulating resources from '%s'", e->s);
			if (!p || !what) {
				free(p);
				return false;
			}
			bool ok;
			size_t before = acc->n;
			char type = type_of(c->k, p);
			if (!type) {
				ok = missing(c, e, dir, p, what);
			} else if (type == 'd') {
				char *kp = kustomization_in(c->k, p);
				struct acc sub = {0};
				const char *notes = kp ? NULL :
						    sl_arena_printf(c->a, "kustomize: %s: unable to find "
								    "one of 'kustomization.yaml', "
								    "'kustomization.yml' or 'Kustomization' "
								    "in directory '%s'", what, p);
				ok = kp ? build_kust(c, kp, e, &sub, false)
					: notes && issue_n(c, "kustomize-invalid", e, notes, "%s: the "
							   "directory holds no kustomization.yaml", what);
				for (size_t j = 0; ok && j < sub.n; j++) {
					ok = add_res(acc, sub.v[j].obj);
					if (ok)   /* its names and hash flag too */
						acc->v[acc->n - 1] = sub.v[j];
				}
				free(sub.v);
				free(kp);
			} else {
				struct kfile *f = input(c, e, dir, e->s, what);
				ok = f && add_file(c, f, e, acc);
			}
			ok = ok && unique_ids(c, acc, before, e);
			free(p);
			if (!ok)
				return false;
		}
	}
	return true;
}

static bool patches(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc,
		    bool strategic_list)
{
	if (strategic_list) {
		const sl_knode *list = sl_knode_get(root, "patchesStrategicMerge", NULL);
		for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
			const sl_knode *e = list->v[i];
			bool inl = e->type == SL_NODE_SCALAR && memchr(e->s, '\n', e->len);
			sl_knode **docs;
			size_t n;
			if (e->type != SL_NODE_SCALAR || !patch_docs(c, dir, inl ? NULL : e, inl ? e : NULL, &docs, &n) ||
			    !apply_patch(c, acc, docs, n, NULL, NULL, e, FROM_PSM))
				return false;
		}
		const sl_knode *pl = sl_knode_get(root, "patches", NULL);
		for (size_t i = 0; pl && pl->type == SL_NODE_SEQ && i < pl->n; i++) {
			const sl_knode *e = pl->v[i];
			const sl_knode *path = sl_knode_get(e, "path", NULL), *inl = sl_knode_get(e, "patch", NULL);
			sl_knode **docs;
			size_t n;
			if (!path && !inl)
				return issue(c, "kustomize-invalid", e, "a patch needs a path or a patch");
			if (!patch_docs(c, dir, path, path ? NULL : inl, &docs, &n) ||
			    !apply_patch(c, acc, docs, n, sl_knode_get(e, "target", NULL),
					 sl_knode_get(e, "options", NULL), e, FROM_PATCHES))
				return false;
		}
		return true;
	}
	const sl_knode *jl = sl_knode_get(root, "patchesJson6902", NULL);
	for (size_t i = 0; jl && jl->type == SL_NODE_SEQ && i < jl->n; i++) {
		const sl_knode *e = jl->v[i];
		const sl_knode *path = sl_knode_get(e, "path", NULL), *inl = sl_knode_get(e, "patch", NULL);
		const sl_knode *target = sl_knode_get(e, "target", NULL);
		sl_knode **docs;
		size_t n;
		if ((!path && !inl) || !target)
			return issue(c, "kustomize-invalid", e, "a patchesJson6902 entry needs a target "
				     "and a path or a patch");
		if (!patch_docs(c, dir, path, path ? NULL : inl, &docs, &n) ||
		    !apply_patch(c, acc, docs, n, target, NULL, e, FROM_JSON6902))
			return false;
	}
	return true;
}

static bool build_kust(struct ctx *c, const char *kpath, const sl_knode *ref, struct acc *acc,
		       bool component)
{
	if (++c->depth > 64) {
		c->depth--;
		return issue(c, "kustomize-invalid", ref, "kustomizations include each other in a cycle");
	}
	struct kfile *f = load(c->k, kpath);
	if (!f)
		return false;
	/* the kustomization itself is read by its build (a broken one is kustomize-invalid) */
	if (f->src && !push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
		return false;
	bool ok = true;
	const sl_knode *root = f->src && f->tree.n_docs && f->tree.docs[0]->root ?
			       sl_knode_load(c->a, f->tree.docs[0]->root, f->src) : NULL;
	if (!root || root->type != SL_NODE_MAP) {
		c->depth--;
		return issue(c, "kustomize-invalid", ref, "%s is not a kustomization (a YAML mapping)",
			     kpath);
	}
	for (size_t i = 0; i < root->n; i++) {
		const sl_knode *k = root->k[i];
		if (k->type == SL_NODE_SCALAR && in(k->s, supported_keys))
			continue;
		if (k->type == SL_NODE_SCALAR && in(k->s, unapplied_keys)) {
			if (!notice(c, k)) {
				c->depth--;
				return false;
			}
			continue;
		}
		c->depth--;
		if (ref)   /* a base that cannot be built: the overlay's entry for it says so */
			return issue_n(c, "kustomize-unsupported", ref,
				       sl_arena_printf(c->a, "the base: %s", kpath), "this base uses "
				       "%s, which schedlint does not build: the overlay's files are "
				       "linted as plain files", k->s);
		return issue(c, "kustomize-unsupported", k, "%s is not built by schedlint (plugins "
			     "and Helm charts need kustomize itself): this kustomization's files are "
			     "linted as plain files", k->s);
	}
	(void)component;   /* a Component builds into its includer's resources (acc), as kustomize */
	char *dir = dir_of(kpath);
	if (!dir)
		return false;
	ok = resources(c, root, dir, acc);
	const sl_knode *comps = sl_knode_get(root, "components", NULL);
	for (size_t i = 0; ok && comps && i < comps->n; i++) {
		const sl_knode *e = comps->v[i];
		char *p = e->type == SL_NODE_SCALAR ? join(dir, e->s) : NULL;
		char *kp = p ? kustomization_in(c->k, p) : NULL;
		const char *what = p && !kp ? sl_arena_printf(c->a, "accumulating components from "
							      "'%s'", e->s) : NULL;
		ok = kp ? build_kust(c, kp, e, acc, true)
		   : p && what && !type_of(c->k, p) ? missing(c, e, dir, p, what)
		   : issue(c, "kustomize-invalid", e, "a component is a directory with a "
			   "kustomization.yaml (kind: Component)");
		free(kp);
		free(p);
	}
	const sl_knode *gopts = sl_knode_get(root, "generatorOptions", NULL);
	ok = ok && generate(c, acc, sl_knode_get(root, "configMapGenerator", NULL), gopts, "ConfigMap", dir) &&
	     generate(c, acc, sl_knode_get(root, "secretGenerator", NULL), gopts, "Secret", dir) &&
	     patches(c, root, dir, acc, true);
	const sl_knode *ns = sl_knode_get(root, "namespace", NULL);
	if (ok && ns && ns->type == SL_NODE_SCALAR && ns->len)
		ok = set_namespace(c, acc, ns);
	const sl_knode *pre = sl_knode_get(root, "namePrefix", NULL), *suf = sl_knode_get(root, "nameSuffix", NULL);
	if (ok && (pre || suf))
		ok = rename_all(c, acc, pre, suf);
	const sl_knode *cl = sl_knode_get(root, "commonLabels", NULL);
	if (ok && cl && cl->type == SL_NODE_MAP)
		ok = add_labels(c->a, acc, cl, true, true);
	const sl_knode *labels = sl_knode_get(root, "labels", NULL);
	for (size_t i = 0; ok && labels && labels->type == SL_NODE_SEQ && i < labels->n; i++) {
		const sl_knode *e = labels->v[i], *pairs = sl_knode_get(e, "pairs", NULL);
		const char *sel = sl_knode_str(e, "includeSelectors"), *tpl = sl_knode_str(e, "includeTemplates");
		if (pairs && pairs->type == SL_NODE_MAP)
			ok = add_labels(c->a, acc, pairs, sel && strcmp(sel, "true") == 0,
					tpl && strcmp(tpl, "true") == 0);
	}
	const sl_knode *ca = sl_knode_get(root, "commonAnnotations", NULL);
	if (ok && ca && ca->type == SL_NODE_MAP)
		ok = add_annotations(c->a, acc, ca);
	ok = ok && patches(c, root, dir, acc, false) &&
	     set_replicas(c, acc, sl_knode_get(root, "replicas", NULL));
	const sl_knode *images = sl_knode_get(root, "images", NULL);
	for (size_t i = 0; ok && images && images->type == SL_NODE_SEQ && i < acc->n; i++)
		ok = images_in(c, acc->v[i].obj, images);
	free(dir);
	c->depth--;
	return ok;
}

/* --- the plan ------------------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The real paths of the kustomizations k's resources and components name (directories). */
static bool included(sl_kustomize *k, const char *kpath, char ***v, size_t *n, size_t *cap)
{
	struct kfile *f = load(k, kpath);
	if (!f)
		return false;
	const sl_node *root = f->src && f->tree.n_docs ? f->tree.docs[0]->root : NULL;
	char *dir = dir_of(kpath);
	if (!dir)
		return false;
	static const char *const keys[] = {"resources", "bases", "components"};
	bool ok = true;
	for (size_t k2 = 0; ok && root && k2 < 3; k2++) {
		const sl_node *list = sl_map_get(root, keys[k2]);
		for (size_t i = 0; ok && i < sl_seq_n(list); i++) {
			const char *s = sl_scalar(sl_seq_item(list, i));
			if (!s || remote(s))
				continue;
			char *p = join(dir, s), *kp = p ? kustomization_in(k, p) : NULL;
			char *real = kp ? real_of(k, kp) : NULL;
			free(p);
			free(kp);
			if (real)
				ok = push_str(v, n, cap, real);
		}
	}
	free(dir);
	return ok;
}

/* Builds the root kustomization at kpath into b. */
static bool build_root(sl_kustomize *k, sl_kustomize_build *b, const char *kpath)
{
	struct ctx c = {k, b, b->a, 0};
	struct acc acc = {0};
	bool ok = build_kust(&c, kpath, NULL, &acc, false) && finish_hashes(&c, &acc);
	for (size_t i = 0; ok && !b->failed && i < acc.n; i++)
		ok = sl_knode_emit(acc.v[i].obj, &b->text, &b->len, &b->cap, &b->spans, &b->n_spans,
				   &b->spans_cap);
	free(acc.v);
	sl_arena_free(b->a);   /* the spans copy the origins */
	b->a = NULL;
	/* a failed build: its findings say why; its files are linted as plain files */
	return ok || b->failed;
}

static int cmp_src(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const sl_source *const *)a, y = (uintptr_t)*(const sl_source *const *)b;
	return x < y ? -1 : x > y;
}

/* A thread's share of the builds: the next one not taken, until none is left. */
static void *build_worker(void *arg)
{
	sl_kustomize *k = arg;
	for (;;) {
		pthread_mutex_lock(&k->lock);
		size_t i = k->next++;
		pthread_mutex_unlock(&k->lock);
		if (i >= k->n_builds)
			return NULL;
		sl_kustomize_build *b = k->builds[i];
		if (!build_root(k, b, b->kpath))
			b->oom = true;
	}
}

sl_err sl_kustomize_plan(const char *const *kpaths, size_t n, unsigned jobs, sl_kustomize **out)
{
	return sl_kustomize_plan_seen(kpaths, n, jobs, NULL, NULL, out);
}

sl_err sl_kustomize_plan_seen(const char *const *kpaths, size_t n, unsigned jobs,
			      const sl_walk_seen *seen, const bool *load_none, sl_kustomize **out)
{
	sl_kustomize *k = sl_xcalloc(1, sizeof *k);
	pthread_mutexattr_t ma;
	if (!k || !(k->a = sl_arena_new())) {
		free(k);
		return SL_ENOMEM;
	}
	k->seen = seen;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&k->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	*out = k;
	char **inc = NULL;
	size_t ni = 0, ci = 0;
	for (size_t i = 0; i < n; i++)
		if (!included(k, kpaths[i], &inc, &ni, &ci))
			goto oom;
	if (ni)
		qsort(inc, ni, sizeof *inc, cmp_str);
	k->builds = sl_xcalloc(n ? n : 1, sizeof *k->builds);
	if (!k->builds)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		char *real = real_of(k, kpaths[i]);
		bool root = real && !(ni && bsearch(&real, inc, ni, sizeof *inc, cmp_str));
		free(real);
		if (!root)
			continue;
		sl_kustomize_build *b = sl_xcalloc(1, sizeof *b);
		if (!b)
			goto oom;
		k->builds[k->n_builds++] = b;
		char *dir = dir_of(kpaths[i]);
		b->name = dir ? sl_arena_strndup(k->a, kpaths[i], strlen(kpaths[i])) : NULL;
		b->dir = dir ? sl_arena_strndup(k->a, dir, strlen(dir)) : NULL;
		b->kpath = kpaths[i];
		b->root = i;
		b->load_none = load_none && load_none[i];
		b->k = k;
		free(dir);
		if (!b->name || !b->dir || !(b->a = sl_arena_new()))
			goto oom;
	}
	/* the roots built on jobs threads (each in its own arena; the files and the memos shared
	** under k->lock), then their files marked used in the roots' order */
	pthread_t tid[64];
	size_t started = 0;
	for (size_t t = 1; t < jobs && t < k->n_builds && started < 64; t++)
		if (pthread_create(&tid[started], NULL, build_worker, k) == 0)
			started++;
	build_worker(k);
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	dedupe_notices(k);
	for (size_t i = 0; i < k->n_builds; i++) {
		sl_kustomize_build *b = k->builds[i];
		if (b->oom)
			goto oom;
		for (size_t u = 0; !b->failed && u < b->n_used; u++)
			if (!push_str(&k->consumed, &k->n_consumed, &k->cap_consumed, sl_xstrdup(b->used[u])))
				goto oom;
	}
	if (k->n_consumed)
		qsort(k->consumed, k->n_consumed, sizeof *k->consumed, cmp_str);
	k->by_src = sl_xcalloc(k->n_files ? k->n_files : 1, sizeof *k->by_src);
	if (!k->by_src)
		goto oom;
	for (size_t i = 0; i < k->n_files; i++)
		if (k->files[i]->src) {
			k->by_src[k->n_by_src].src = k->files[i]->src;
			k->by_src[k->n_by_src].tree = &k->files[i]->tree;
			k->by_src[k->n_by_src++].real = k->files[i]->real;
		}
	if (k->n_by_src)
		qsort(k->by_src, k->n_by_src, sizeof *k->by_src, cmp_src);
	k->bases = sl_xcalloc(k->n_consumed ? k->n_consumed : 1, sizeof *k->bases);
	if (!k->bases)
		goto oom;
	for (size_t i = 0; i < k->n_consumed; i++) {
		const char *b = strrchr(k->consumed[i], '/');
		b = b ? b + 1 : k->consumed[i];
		size_t j = 0, bl = strlen(b);
		while (j < k->n_bases && !(k->bases[j].len == bl && memcmp(k->bases[j].s, b, bl) == 0))
			j++;
		if (j == k->n_bases) {
			k->bases[k->n_bases].s = b;
			k->bases[k->n_bases++].len = bl;
		}
	}
	for (size_t i = 0; i < ni; i++)
		free(inc[i]);
	free(inc);
	return SL_OK;
oom:
	for (size_t i = 0; i < ni; i++)
		free(inc[i]);
	free(inc);
	return SL_ENOMEM;
}

bool sl_kustomize_consumed(const sl_kustomize *k, const char *real)
{
	return k && k->n_consumed && bsearch(&real, k->consumed, k->n_consumed, sizeof *k->consumed,
					     cmp_str);
}

char *sl_kustomize_real(sl_kustomize *k, const char *path)
{
	return real_of(k, path);
}

bool sl_kustomize_may_consume(const sl_kustomize *k, const char *base)
{
	if (!k || !k->n_consumed)
		return false;
	size_t bl = strlen(base);
	for (size_t i = 0; i < k->n_bases; i++)
		if (k->bases[i].len == bl && memcmp(k->bases[i].s, base, bl) == 0)
			return true;
	return false;
}

size_t sl_kustomize_n_builds(const sl_kustomize *k)
{
	return k ? k->n_builds : 0;
}

sl_kustomize_build *sl_kustomize_build_at(const sl_kustomize *k, size_t i,
						const char **name, const char **text, size_t *len)
{
	if (!k || i >= k->n_builds)
		return NULL;
	sl_kustomize_build *b = k->builds[i];
	*name = b->name;
	*text = b->failed || !b->text ? "" : b->text;
	*len = b->failed ? 0 : b->len;
	return b;
}

size_t sl_kustomize_n_files(const sl_kustomize *k)
{
	return k ? k->n_by_src : 0;
}

const sl_source *sl_kustomize_file(const sl_kustomize *k, size_t i, const sl_tree **tree,
				   const char **real)
{
	*tree = k->by_src[i].tree;
	*real = k->by_src[i].real;
	return k->by_src[i].src;
}

size_t sl_kustomize_build_root(const sl_kustomize_build *b)
{
	return b->root;
}

size_t sl_kustomize_n_issues(const sl_kustomize_build *b)
{
	return b->n_issues;
}

void sl_kustomize_issue(const sl_kustomize_build *b, size_t i, const char **rule, const char **msg)
{
	*rule = i < b->n_issues ? b->issues[i].rule : NULL;
	*msg = i < b->n_issues ? b->issues[i].msg : NULL;
}

/* The span a finding over [off, off + len) of the built text came from. */
static const sl_knode_span *span_of(const sl_kustomize_build *b, size_t off, size_t len)
{
	const sl_knode_span *best = NULL;
	for (size_t i = 0; i < b->n_spans; i++) {
		const sl_knode_span *s = &b->spans[i];
		if (s->start == off && s->end == off + len)
			return s;
		if (s->start <= off && off < (s->end > s->start ? s->end : s->start + 1) &&
		    (!best || s->end - s->start < best->end - best->start ||
		     (s->start == off && best->start != off)))
			best = s;
	}
	return best;
}

/* Moves finding p to where src's bytes [start, end) are. */
static void place(sl_finding *p, const sl_source *src, uint32_t start, uint32_t end)
{
	p->path = src->path;
	p->offset = start;
	p->length = end > start ? end - start : 0;
	sl_source_position(src, start, &p->line, &p->column);
	sl_source_position(src, end > start ? end : start, &p->end_line, &p->end_column);
	p->fix = NULL;
}

/* Whether a finding in the file read as src is kept: always, unless only (then when it is one of
** the files named); *name: the name the run gives it when it is one (as[i] for named[i]), else
** NULL. */
static const struct src_real *file_of(const sl_kustomize *k, const sl_source *src)
{
	return src ? bsearch(&src, k->by_src, k->n_by_src, sizeof *k->by_src, cmp_src) : NULL;
}

static bool kept(const sl_kustomize_build *b, const sl_source *src, const char *const *named,
		 const char *const *as, size_t n_named, bool only, const char **name)
{
	*name = NULL;
	const struct src_real *hit = n_named ? file_of(b->k, src) : NULL;
	const char *real = hit ? hit->real : NULL;
	const char *const *at = real ? bsearch(&real, named, n_named, sizeof *named, cmp_str) : NULL;
	if (at)
		*name = as[at - named];
	return !only || at != NULL;
}

bool sl_kustomize_build_uses(const sl_kustomize_build *b, const char *const *reals, size_t n)
{
	for (size_t u = 0; n && u < b->n_used; u++)
		if (bsearch(&b->used[u], reals, n, sizeof *reals, cmp_str))
			return true;
	return false;
}

sl_err sl_kustomize_remap(const sl_kustomize_build *b, sl_file *f, const char *const *named,
			  const char *const *as, size_t n_named, bool only)
{
	const char *name;
	size_t w = 0;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_finding *p = &f->findings[i]->pub;
		const sl_knode_span *s = span_of(b, p->offset, p->length);
		const sl_source *from_src = s ? s->src : NULL;
		if (!kept(b, from_src, named, as, n_named, only, &name))
			continue;   /* in a file the run does not report */
		const struct src_real *from = from_src ? file_of(b->k, from_src) : NULL;
		if (from_src) {
			place(p, from_src, s->from, s->to);
			p->path = name ? name : p->path;
			/* the comments of a base or patch are not in the built text: read here, unless
			** the file is the run's (passes.c applies its directives as a plain file's) */
			bool hit = false;
			sl_err err = from && !name ? sl_suppress_covers(from_src, from->tree, p->line,
									f->findings[i]->rule_index, &hit)
						   : SL_OK;
			if (err)
				return err;
			if (hit)
				continue;   /* dropped: its line says so */
		}
		f->findings[w++] = f->findings[i];
		const char *notes = sl_arena_printf(f->arena, "%s%sin overlay %s (built by schedlint "
						    "as kustomize builds it; the line is the base, "
						    "patch or kustomization line that produced the "
						    "node)", p->notes ? p->notes : "",
						    p->notes ? "\n" : "", b->dir);
		if (!notes)
			return SL_ENOMEM;
		p->notes = notes;
	}
	f->n_findings = w;
	for (size_t i = 0; i < b->n_issues; i++) {
		const struct issue *is = &b->issues[i];
		if (!kept(b, is->src, named, as, n_named, only, &name))
			continue;
		const char *msg = sl_arena_strndup(f->arena, is->msg, strlen(is->msg));   /* outlives b */
		const char *notes = is->notes ? sl_arena_strndup(f->arena, is->notes,
								 strlen(is->notes)) : NULL;
		if (!msg || (is->notes && !notes))
			return SL_ENOMEM;
		sl_frec *r = sl_engine_record(f, sl_registry_find(is->rule), 0, 0, 0, "", msg,
					      NULL, NULL);
		if (!r) {
			if (f->oom)
				return SL_ENOMEM;
			continue;
		}
		if (is->src)
			place(&r->pub, is->src, is->start, is->end);
		r->pub.path = name ? name : r->pub.path;
		r->pub.notes = notes;
	}
	return f->oom;
}

void sl_kustomize_release(sl_kustomize_build *b, bool all)
{
	free(b->text);   /* the run lints a copy */
	b->text = NULL;
	b->len = b->cap = 0;
	if (!all)
		return;
	free(b->spans);
	b->spans = NULL;
	b->n_spans = b->spans_cap = 0;
}

void sl_kustomize_free(sl_kustomize *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->n_files; i++) {
		free(k->files[i]->real);
		free(k->files[i]->path);
		sl_source_free(k->files[i]->src);
		free(k->files[i]);
	}
	free(k->files);
	for (size_t i = 0; i < k->n_consumed; i++)
		free(k->consumed[i]);
	free(k->consumed);
	for (size_t i = 0; i < k->n_builds; i++) {
		sl_kustomize_build *b = k->builds[i];
		sl_arena_free(b->a);
		sl_arena_free(b->msgs);
		free(b->text);
		free(b->spans);
		free(b->issues);
		for (size_t u = 0; u < b->n_used; u++)
			free(b->used[u]);
		free(b->used);
		free(b);
	}
	free(k->builds);
	memo_free(&k->reals);
	memo_free(&k->kusts);
	memo_free(&k->types);
	free(k->bases);
	free(k->by_src);
	sl_repo_free(k->repo);
	sl_arena_free(k->a);
	pthread_mutex_destroy(&k->lock);
	free(k);
}

/* --- patches named anywhere ---------------------------------------------------------------- */

/* Appends the real path of dir/rel (when it exists) to *v. */
static sl_err add(sl_kustomize *k, const char *dir, size_t dlen, const sl_node *rel, char ***v,
		  size_t *n, size_t *cap)
{
	const char *r = sl_scalar(rel);
	if (!r || !*r || strchr(r, '\n'))
		return SL_OK;   /* not a path: an inline patch */
	char *joined = r[0] == '/' ? sl_xstrdup(r) : sl_xprintf("%.*s%s", (int)dlen, dir, r);
	if (!joined)
		return SL_ENOMEM;
	char *norm = join(".", joined);
	char *real = norm ? real_of(k, norm) : NULL;
	free(joined);
	free(norm);
	if (!real)
		return SL_OK;
	return push_str(v, n, cap, real) ? SL_OK : SL_ENOMEM;
}

sl_err sl_kustomize_patch_files(sl_kustomize *k, const char *path, char ***v, size_t *n,
				size_t *cap)
{
	struct kfile *f = load(k, path);   /* read and parsed once, for the builds too */
	if (!f)
		return SL_ENOMEM;
	const sl_node *root = f->src && f->tree.n_docs ? f->tree.docs[0]->root : NULL;
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	sl_err err = SL_OK;
	/* patches: [{path: ...}], patchesJson6902: [{path: ...}] */
	static const char *const with_path[] = {"patches", "patchesJson6902"};
	for (size_t w = 0; root && !err && w < 2; w++) {
		const sl_node *seq = sl_map_get(root, with_path[w]);
		for (size_t i = 0; !err && i < sl_seq_n(seq); i++)
			err = add(k, path, dlen, sl_map_get(sl_seq_item(seq, i), "path"), v, n, cap);
	}
	/* patchesStrategicMerge: [file, ...] (or inline patches, which are not paths) */
	const sl_node *psm = root ? sl_map_get(root, "patchesStrategicMerge") : NULL;
	for (size_t i = 0; !err && i < sl_seq_n(psm); i++)
		err = add(k, path, dlen, sl_seq_item(psm, i), v, n, cap);
	return err;
}
