/* SPDX-License-Identifier: Apache-2.0
** common.c: what the plan and every step of a build share: the files read once (real
** paths, directory types and kustomization lookups memoized, the run's listings asked
** first), a build's findings (what kustomize would refuse: kustomize-invalid; what this
** builder does not do: kustomize-unsupported), and the resources a build accumulates. */
#include "render/kustomize/internal.h"
#include "fs/gitignore.h"

/* --- patches -------------------------------------------------------------------------------- */

/* The kinds kustomize knows to be cluster-scoped: the built-in ones of its OpenAPI data
** (kyaml/openapi/openapi.go, precomputedIsNamespaceScoped), as kubectl's kustomize v5.5 applies
** them. A custom resource is namespaced to kustomize whatever its CRD says (a `namespace:` sets
** one on a KServe ClusterStorageContainer or a Karpenter NodePool too, as kubectl kustomize
** does); so are ValidatingAdmissionPolicy and FlowSchema (v1), which its data predates. */
const char *const sl_kustomize__cluster_scoped[] = {
	"Namespace", "Node", "PersistentVolume", "ComponentStatus", "NodeProxyOptions",
	"ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "PriorityClass",
	"StorageClass", "CSIDriver", "CSINode", "VolumeAttachment", "ValidatingWebhookConfiguration",
	"MutatingWebhookConfiguration", "APIService", "CertificateSigningRequest", "RuntimeClass",
	"IngressClass", "PodSecurityPolicy", NULL};

/* True (and *val) when key [key, key + len) is in m. */
static bool memo_get(const struct memo *m, const char *key, size_t len, const char **val)
{
	const sl_strmap_slot *s = sl_strmap_get(&m->m, key, len);
	if (s)
		*val = s->val;
	return s != NULL;
}

/* Remembers val (taken, may be NULL) for key [key, key + len); the value kept, or NULL when out
** of memory (*oom then). */
static const char *memo_put(struct memo *m, const char *key, size_t len, char *val, bool *oom)
{
	bool found;
	sl_strmap_slot *s = sl_strmap_put_copy(&m->m, key, len, &found);
	if (!s) {
		free(val);
		*oom = true;
		return NULL;
	}
	if (found)   /* asked again meanwhile: the answer is the same */
		free(s->val);
	s->val = val;
	return val;
}

void sl_kustomize__memo_free(struct memo *m)
{
	for (size_t i = 0; i < m->m.cap; i++) {
		free((char *)m->m.v[i].key);
		free(m->m.v[i].val);
	}
	sl_strmap_free(&m->m);
}

/* What the run's walks saw at path (as named: "dir/name"). */
static sl_walk_seen_kind seen_at(const sl_kustomize *k, const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash > path ? sl_walk_seen_at(k->seen, path, (size_t)(slash - path), slash + 1)
				     : SL_SEEN_UNLISTED;
}

/* Room for one more of n elements of size bytes in *v (capacity *cap); false when out of memory. */
bool sl_kustomize__room(void *v, size_t n, size_t *cap, size_t size)
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

bool sl_kustomize__push_str(char ***v, size_t *n, size_t *cap, char *s)
{
	if (!s || !sl_kustomize__room(v, *n, cap, sizeof **v)) {
		free(s);
		return false;
	}
	(*v)[(*n)++] = s;
	return true;
}

/* dir joined with rel, ".." and "." resolved lexically ("./k/overlays/prod" + "../../base" is
** "./k/base", "." + "x.yaml" is "x.yaml"); malloc'd. */
char *sl_kustomize__join(const char *dir, const char *rel)
{
	char *all = rel[0] == '/' ? sl_xstrdup(rel) : sl_xprintf("%s/%s", dir, rel);
	if (!all)
		return NULL;
	/* a leading "./" the caller wrote is kept; the one "." as dir would add is not (a run
	** spells a path one way: "x.yaml" beside the kustomization in ".", never "./x.yaml") */
	bool abs = all[0] == '/', dot = all[0] == '.' && all[1] == '/' && strcmp(dir, ".") != 0;
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

void sl_kustomize__no_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
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

char *sl_kustomize__real_of(sl_kustomize *k, const char *path)
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

char sl_kustomize__type_of(sl_kustomize *k, const char *path)
{
	pthread_mutex_lock(&k->lock);
	char r = type_of_(k, path);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* The file at path, read and parsed once per plan; NULL when out of memory. Its src is NULL
** when it cannot be read. */
struct syntax_note {
	sl_arena *a;
	struct kfile *f;
	bool oom;
};

/* Keeps a file's first YAML syntax error: a resource file with one fails the build there, as
** kustomize fails it (nothing is built silently). */
static void note_syntax(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			const char *message)
{
	struct syntax_note *n = payload;
	(void)doc;
	if (n->f->syntax || strcmp(rule, "yaml-syntax") != 0)
		return;
	n->f->syntax = sl_arena_strndup(n->a, message, strlen(message));
	n->oom = !n->f->syntax;
	n->f->syntax_start = (uint32_t)start;
	n->f->syntax_end = (uint32_t)end;
}

/* A file changed meanwhile places earlier builds' findings by its new lines, as a plain file read
** again would. */
bool sl_kustomize__reread(struct kfile *f)
{
	return sl_source_reread(f->src, f->path) == SL_OK;   /* the builds' spans name f->src */
}

/* Parses f's text into an arena of its own (again, when its tree was let go: the same tree, its
** syntax error noted the first time; its text read again first when that was let go too). False
** when out of memory, or when a text let go cannot be read again. */
static bool parse_file(sl_kustomize *k, struct kfile *f)
{
	if (!f->src->data && !sl_kustomize__reread(f))
		return false;
	size_t hint = 1024;
	while (hint < f->src->len * 6 && hint < ((size_t)1 << 20))
		hint *= 2;
	if (!(f->a = sl_arena_new_sized(hint)))
		return false;
	struct syntax_note note = {k->a, f, false};
	f->dropped = false;
	/* the sweep looks at it (out of memory: it stays to the end, as a kustomization does) */
	if (sl_kustomize__room(&k->fresh, k->n_fresh, &k->cap_fresh, sizeof *k->fresh))
		k->fresh[k->n_fresh++] = f;
	return sl_tree_parse(f->src, f->a, &f->tree, note_syntax, &note) == SL_OK && !note.oom;
}

/* Makes f the file of path too (k->files_by_path); false when out of memory. */
static bool known_as(sl_kustomize *k, const char *path, struct kfile *f)
{
	bool found;
	sl_strmap_slot *sl = sl_strmap_put_copy(&k->files_by_path, path, strlen(path), &found);
	if (sl)
		sl->val = f;
	return sl != NULL;
}

/* f, read ahead under its real path, named path as the builds would have named it (NULL when
** out of memory). */
static struct kfile *rename_file(sl_kustomize *k, struct kfile *f, const char *path)
{
	char *p = sl_xstrdup(path), *sp = sl_xstrdup(path);
	if (!p || !sp || !known_as(k, path, f)) {
		free(p);
		free(sp);
		return NULL;
	}
	free(f->path);
	f->path = p;
	if (f->src) {
		free(f->src->path);
		f->src->path = sp;
	} else {
		free(sp);
	}
	f->provisional = false;
	return f;
}

static struct kfile *load_(sl_kustomize *k, const char *path)
{
	/* by the path first: no realpath for a file met again */
	sl_strmap_slot *sl = sl_strmap_get(&k->files_by_path, path, strlen(path));
	if (sl) {
		struct kfile *f = sl->val;
		f->provisional = false;
		return f;
	}
	char *real = sl_kustomize__real_of(k, path);
	sl = real ? sl_strmap_get(&k->files_by_real, real, strlen(real)) : NULL;
	if (sl) {
		struct kfile *f = sl->val;
		free(real);
		if (f->provisional)
			return rename_file(k, f, path);
		return known_as(k, path, f) ? f : NULL;
	}
	struct kfile *f = sl_xcalloc(1, sizeof *f);
	if (!f || !sl_kustomize__room(&k->files, k->n_files, &k->cap_files, sizeof *k->files)) {
		free(f);
		free(real);
		return NULL;
	}
	k->files[k->n_files++] = f;
	f->real = real ? real : sl_xstrdup(path);
	f->path = sl_xstrdup(path);
	f->last_user = SIZE_MAX;
	if (!f->real || !f->path || !known_as(k, path, f))
		return NULL;
	if (real) {
		bool found;
		if (!(sl = sl_strmap_put_copy(&k->files_by_real, real, strlen(real), &found)))
			return NULL;
		sl->val = f;
	}
	if (!real || sl_source_read_file(path, path, &f->src) != SL_OK) {
		sl_source_free(f->src);
		f->src = NULL;
		return f;
	}
	return parse_file(k, f) ? f : NULL;
}

struct kfile *sl_kustomize__load(sl_kustomize *k, const char *path)
{
	pthread_mutex_lock(&k->lock);
	struct kfile *r = load_(k, path);
	if (r && r->src && r->dropped && !parse_file(k, r))
		r = NULL;
	pthread_mutex_unlock(&k->lock);
	return r;
}

struct kfile *sl_kustomize__load_for(struct ctx *c, const char *path)
{
	sl_kustomize *k = c->k;
	sl_kustomize_build *b = c->b;
	pthread_mutex_lock(&k->lock);
	struct kfile *r = load_(k, path);
	if (r && r->src && r->dropped && !parse_file(k, r))
		r = NULL;
	if (r && r->src &&   /* a file met again, mostly; a memo's build pins its own */
	    (b->n_pinned <= c->pin_floor || b->pinned[b->n_pinned - 1] != r)) {
		if (!sl_kustomize__room(&b->pinned, b->n_pinned, &b->cap_pinned, sizeof *b->pinned))
			r = NULL;
		else {
			b->pinned[b->n_pinned++] = r;
			r->pins++;
		}
	}
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

/* within_ for a real path not read yet: the load restrictor asked before anything is opened. */
static bool real_within(sl_kustomize *k, const char *dir, const char *real)
{
	pthread_mutex_lock(&k->lock);
	bool oom = false;
	const char *rd = real_dir(k, dir, strlen(dir), &oom);
	size_t n = rd ? strlen(rd) : 0;
	bool in = rd && real && strncmp(real, rd, n) == 0 && (real[n] == '/' || real[n] == '\0');
	pthread_mutex_unlock(&k->lock);
	return in;
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
	/* a file or nothing where a walk listed dir's parent holds no kustomization (stat would
	** fail with ENOTDIR or ENOENT) */
	sl_walk_seen_kind d = seen_at(k, dir);
	for (size_t i = 0; !found && i < 3 && d != SL_SEEN_FILE && d != SL_SEEN_ABSENT; i++) {
		char *p = sl_kustomize__join(dir, names[i]);
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

char *sl_kustomize__kustomization_in(sl_kustomize *k, const char *dir)
{
	pthread_mutex_lock(&k->lock);
	char *r = kustomization_in_(k, dir);
	pthread_mutex_unlock(&k->lock);
	return r;
}

/* --- a build's findings -------------------------------------------------------------------- */

/* The longest first line of a message (the rest goes to the notes). */
#define MSG_MAX 160

static bool issue_v(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
		    const char *fmt, va_list ap)
{
	sl_kustomize_build *b = c->b;
	b->failed = true;
	if (!sl_kustomize__room(&b->issues, b->n_issues, &b->cap_issues, sizeof *b->issues))
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

/* Records a finding of the build at node at (its origin); false (the build fails) always. A
** message longer than MSG_MAX is cut, whole in the notes. */
bool sl_kustomize__issue(struct ctx *c, const char *rule, const sl_knode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = issue_v(c, rule, at, NULL, fmt, ap);
	va_end(ap);
	return r;
}

/* issue, with notes (copied): kustomize's own error text, the way out. */
bool sl_kustomize__issue_n(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
			   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bool r = issue_v(c, rule, at, notes, fmt, ap);
	va_end(ap);
	return r;
}

/* True when git ignores path (as joined; it need not exist): an input a build step makes. The
** repository is the one the kustomization's directory dir is in, opened on the first question;
** in a tree without one (exported without .git), its .gitignore files are read instead
** (*by_file set). */
static bool git_ignores(sl_kustomize *k, const char *dir, const char *path, bool *by_file)
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
	bool ask_files = rd && !k->repo;   /* no repository: the tree's .gitignore files say it */
	pthread_mutex_unlock(&k->lock);
	if (ask_files)
		r = *by_file = sl_gitignore_ignores_either(path);
	return r;
}

/* An input of the kustomization in dir that does not exist: e names it, path is it as joined,
** what says what kustomize was reading ("accumulating resources from 'x'"). kustomize-invalid,
** unless git ignores the path: a build step makes it (kueue's dep-crds/), so this checkout
** cannot build the kustomization yet and kustomize-unsupported says so. */
bool sl_kustomize__missing(struct ctx *c, const sl_knode *e, const char *dir, const char *path,
			   const char *what)
{
	bool by_file = false;
	bool ignored = git_ignores(c->k, dir, path, &by_file);
	char *notes = sl_xprintf("%skustomize: %s: evalsymlink failure on '%s' : lstat %s: no such "
				 "file or directory", ignored ? "Neither kustomize nor schedlint can build "
				 "this kustomization before that step has run; its files are linted as "
				 "plain files.\n" : "", what ? what : "?", path, path);
	if (notes && what && ignored)
		sl_kustomize__issue_n(c, "kustomize-unsupported", e, notes, "'%s' is not in the checkout: %s "
			"ignores it, a build step makes it", e->s, by_file ? ".gitignore" : "git");
	else if (notes && what)
		sl_kustomize__issue_n(c, "kustomize-invalid", e, notes, "%s: no such file or directory", what);
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
		sl_kustomize__issue_n(c, "kustomize-unsupported", e, notes, "'%s' is outside the kustomization's "
			"directory: kustomize loads it only with --load-restrictor LoadRestrictionsNone",
			e->s);
	free(notes);
	return false;
}

bool sl_kustomize__in_project(struct ctx *c, const sl_knode *e, const char *path, const char *what)
{
	const char *root = c->b->project;
	if (!root)
		return true;
	/* the real path of path, else of the nearest directory above it that exists */
	char *real = sl_kustomize__real_of(c->k, path), *up = NULL;
	for (char *d = real ? NULL : sl_path_dir(path); !real && d; d = up) {
		real = sl_kustomize__real_of(c->k, d);
		up = real || strcmp(d, ".") == 0 || strcmp(d, "/") == 0 ? NULL : sl_path_dir(d);
		free(d);
	}
	size_t n = strlen(root);
	bool in = real && strncmp(real, root, n) == 0 &&
		  (real[n] == '/' || real[n] == '\0' || strcmp(root, "/") == 0);
	free(real);
	if (in)
		return true;
	char *notes = sl_xprintf("kustomize: %s: '%s' lies outside the repository '%s'\n"
				 "schedlint never reads a file outside the repository it lints (its "
				 "git work tree, else the directory of its outermost .schedlint.yaml), "
				 "whatever render.kustomize.load-restrictor says: a repository's own "
				 "configuration cannot grant it the files of the machine that lints it. "
				 "This kustomization's files are linted as plain files",
				 what ? what : "?", path, root);
	if (notes)
		sl_kustomize__issue_n(c, "kustomize-unsupported", e, notes, "'%s' is outside the "
				      "repository: schedlint reads nothing outside it", e->s);
	free(notes);
	return false;
}

/* The file at rel (relative to the kustomization's directory dir), which e names, read as an
** input of the build; NULL when it cannot be (a finding says why: missing, outside dir, not
** readable; what: kustomize's words for what it was reading) or out of memory. */
struct kfile *sl_kustomize__input(struct ctx *c, const sl_knode *e, const char *dir,
				  const char *rel, const char *what)
{
	return sl_kustomize__input_capped(c, e, dir, rel, what, 0);
}

struct kfile *sl_kustomize__input_capped(struct ctx *c, const sl_knode *e, const char *dir,
					 const char *rel, const char *what, size_t cap)
{
	char *p = sl_kustomize__join(dir, rel);
	/* the load restrictor, and the cap, before anything is opened: a path out of the root (a
	** "../", an absolute one, a link) is never read, nor a file too large; out of the
	** repository, never, whatever the restrictor (nor asked whether git ignores it) */
	char *real = p ? sl_kustomize__real_of(c->k, p) : NULL;
	struct stat st;
	if (real && !c->b->load_none && !real_within(c->k, dir, real) && stat(real, &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		outside(c, e, dir, p, what);
		free(real);
		free(p);
		return NULL;
	}
	if (p && !sl_kustomize__in_project(c, e, p, what)) {
		free(real);
		free(p);
		return NULL;
	}
	if (real && cap && stat(real, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > cap) {
		sl_kustomize__issue(c, "kustomize-invalid", e, "%s: %s is larger than %zu MiB, the most a "
				    "ConfigMap or Secret holds: not read", what, rel, cap >> 20);
		free(real);
		free(p);
		return NULL;
	}
	free(real);
	struct kfile *f = p ? sl_kustomize__load_for(c, p) : NULL;
	bool ok = f && f->src && (c->b->load_none || within(c->k, dir, f));
	if (f && f->src && !ok)
		outside(c, e, dir, p, what);
	else if (f && !f->src && sl_kustomize__type_of(c->k, p))
		sl_kustomize__issue(c, "kustomize-invalid", e, "%s: cannot read it", what);
	else if (f && !f->src)
		sl_kustomize__missing(c, e, dir, p, what);
	free(p);
	return ok ? f : NULL;
}

/* Records that the key at k is not applied while the build goes on without it; false only when
** out of memory. */
bool sl_kustomize__notice(struct ctx *c, const sl_knode *k)
{
	sl_kustomize_build *b = c->b;
	if (!b->msgs && !(b->msgs = sl_arena_new()))
		return false;
	const char *msg = sl_arena_printf(b->msgs, "%s is not applied by schedlint: the kustomization "
					  "is built and linted without it, so findings on the fields "
					  "it sets may differ from what is deployed", k->s);
	if (!msg || !sl_kustomize__room(&b->issues, b->n_issues, &b->cap_issues, sizeof *b->issues))
		return false;
	b->issues[b->n_issues++] = (struct issue){k->src, k->start, k->end, "kustomize-unsupported",
						  msg, NULL, true};
	return true;
}

/* Drops the notices of failed builds (their files are linted as plain files) and those an earlier
** build of the plan reported at the same key (a base shared by 200 overlays: once). */
void sl_kustomize__dedupe_notices(sl_kustomize *k)
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

bool sl_kustomize__add_res(struct acc *acc, sl_knode *obj)
{
	if (!sl_kustomize__room(&acc->v, acc->n, &acc->cap, sizeof *acc->v))
		return false;
	acc->v[acc->n++] = (struct kres){.obj = obj};
	return true;
}

const char *sl_kustomize__name_of(const sl_knode *obj)
{
	return sl_knode_str(sl_knode_get(obj, "metadata", NULL), "name");
}

const char *sl_kustomize__ns_of(const sl_knode *obj)
{
	return sl_knode_str(sl_knode_get(obj, "metadata", NULL), "namespace");
}

/* The API group of an object ("" for the core group). */
void sl_kustomize__group_version(const sl_knode *obj, char *group, size_t gcap,
				 const char **version)
{
	const char *av = sl_knode_str(obj, "apiVersion");
	av = av ? av : "";
	const char *slash = strchr(av, '/');
	snprintf(group, gcap, "%.*s", slash ? (int)(slash - av) : 0, av);
	*version = slash ? slash + 1 : av;
}

/* A built-in kind (merge keys apply): the core group, a group without a dot, or *.k8s.io. */
bool sl_kustomize__builtin(const sl_knode *obj)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(obj, g, sizeof g, &v);
	size_t n = strlen(g);
	return !strchr(g, '.') || (n > 7 && strcmp(g + n - 7, ".k8s.io") == 0);
}

/* What kustomize drops from an object a strategic merge patch walked: fields whose value is
** null, and empty metadata.labels and metadata.annotations (kyaml's merge2). */
void sl_kustomize__tidy(sl_knode *n, bool metadata)
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
			sl_kustomize__tidy(v, key && strcmp(n->k[i]->s, "metadata") == 0);
		i++;
	}
}

/* The documents of a resource file, added to acc. */
/* Adds object o of a resource file to acc; a List (any kind ending in "List") is its items, each
** added the same way (kustomize's inlineAnyEmbeddedLists: no items is no object). */
static bool add_obj(struct ctx *c, sl_knode *o, const sl_knode *ref, struct acc *acc, int depth)
{
	const char *kind = sl_knode_str(o, "kind");
	size_t kl = kind ? strlen(kind) : 0;
	if (kl >= 4 && strcmp(kind + kl - 4, "List") == 0 && depth < 16) {
		sl_knode *items = sl_knode_get(o, "items", NULL);
		if (!items || sl_knode_is_null(items))
			return true;
		if (items->type != SL_NODE_SEQ)
			return sl_kustomize__issue(c, "kustomize-invalid", items, "expected array for "
						   "%s/items", kind);
		for (size_t i = 0; i < items->n; i++)
			if (!add_obj(c, items->v[i], ref, acc, depth + 1))
				return false;
		return true;
	}
	/* kustomize's resource factory: an object needs a metadata mapping with a name */
	sl_knode *md = sl_knode_get(o, "metadata", NULL);
	const char *name = md && md->type == SL_NODE_MAP ? sl_knode_str(md, "name") : NULL;
	if (o->type == SL_NODE_MAP && kind && (!name || !*name))
		return sl_kustomize__issue(c, "kustomize-invalid", md ? md : ref, "accumulating "
					   "resources from '%s': missing metadata.name in object %s",
					   ref ? ref->s : "?", kind);
	if (!sl_kustomize__add_res(acc, o))
		return false;
	/* kustomize drops a null or empty metadata.labels or metadata.annotations */
	static const char *const drop[] = {"labels", "annotations"};
	for (size_t k = 0; md && k < 2; k++) {
		size_t at;
		sl_knode *v = sl_knode_get(md, drop[k], &at);
		if (v && (sl_knode_is_null(v) || (v->type == SL_NODE_MAP && !v->n)))
			sl_knode_remove(md, at);
	}
	if (o->type != SL_NODE_MAP || !kind)
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "accumulating resources from '%s': "
					   "missing Resource metadata (every document needs kind and "
					   "metadata.name)", ref ? ref->s : "?");
	return true;
}

bool sl_kustomize__limit(struct ctx *c, const sl_knode *at, const char *why)
{
	return why && sl_kustomize__issue_n(c, "kustomize-invalid", at, "schedlint builds a kustomization "
				     "within the limits it parses a file with (a document's aliases, "
				     "nodes and nesting levels: yaml-syntax in a plain file), so that "
				     "no repository can make a build hang or exhaust the machine; the "
				     "build is refused and its files are linted as plain files", "%s",
				     why);
}

sl_knode *sl_kustomize__load_doc(struct ctx *c, const sl_node *root, const sl_source *src,
				 const sl_knode *at)
{
	const char *why;
	sl_knode *d = sl_knode_load(c->a, root, src, &why);
	if (d || !why)
		return d;
	/* a limit crossed: at the document's first byte, in the file */
	if (!at)
		at = sl_knode_new(c->a, SL_NODE_SCALAR, src, root->start, root->start);
	if (at)
		sl_kustomize__limit(c, at, why);
	return NULL;
}

bool sl_kustomize__add_file(struct ctx *c, struct kfile *f, const sl_knode *ref, struct acc *acc)
{
	if (!f->src)
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "accumulating resources from '%s': cannot "
			     "read it", ref ? ref->s : "?");
	if (!sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
		return false;
	if (f->syntax) {
		/* kustomize refuses the build; the finding is the file's own, at the error */
		sl_knode *at = sl_knode_new(c->a, SL_NODE_SCALAR, f->src, f->syntax_start, f->syntax_end);
		return at && sl_kustomize__issue_n(c, "yaml-syntax", at,
						   sl_arena_printf(c->a, "kustomize cannot read %s "
								   "(accumulating resources from "
								   "'%s'): kubectl kustomize refuses "
								   "the build", f->path,
								   ref ? ref->s : "?"),
						   "%s", f->syntax);
	}
	for (size_t i = 0; i < f->tree.n_docs; i++) {
		if (!f->tree.docs[i]->root)
			continue;
		sl_knode *o = sl_kustomize__load_doc(c, f->tree.docs[i]->root, f->src, NULL);
		if (!o || !add_obj(c, o, ref, acc, 0))
			return false;
	}
	return true;
}

bool sl_kustomize__in(const char *s, const char *const *list)
{
	for (; s && *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* kustomize's effective namespace of an object of kind in namespace ns (resid's
** EffectiveNamespace): one word for every cluster-scoped kind, "default" for none. */
const char *sl_kustomize__eff_ns(const char *kind, const char *ns)
{
	if (sl_kustomize__in(kind, sl_kustomize__cluster_scoped))
		return "_non_namespaceable_";
	return !ns || !*ns ? "default" : ns;
}

/* True when resource r is, or was at some level of the build, kind/name in effective namespace
** ens (NULL: any) with apiVersion group/version (NULL: any): kustomize's match of a resource by
** any of its ids. */
bool sl_kustomize__known_as(const struct kres *r, const char *group, const char *version,
			    const char *kind, const char *name, const char *ens)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(r->obj, g, sizeof g, &v);
	const char *k = sl_knode_str(r->obj, "kind"), *now = sl_kustomize__name_of(r->obj);
	if (!name || (group && strcmp(group, g)) || (version && strcmp(version, v)) ||
	    (kind && (!k || strcmp(kind, k))))
		return false;
	if (now && strcmp(now, name) == 0 && (!ens || strcmp(ens, sl_kustomize__eff_ns(k, sl_kustomize__ns_of(r->obj))) == 0))
		return true;
	for (size_t i = 0; i < r->n_prev; i++)
		if (strcmp(r->prev[i].name, name) == 0 && (!ens || strcmp(ens, r->prev[i].ns) == 0))
			return true;
	return false;
}

/* --- kustomizations built once per run: the plan's memo (build.c takes from it; plan.c's sweep
** lets a kept one go) ------------------------------------------------------------------------ */

/* True when kustomization real (a real path) may be built by two ways (two includers, or an
** includer that is a component, applied where each of its own includers is): worth keeping
** in the plan's memo (under lock). */
static bool reached_twice(sl_kustomize *k, const char *real)
{
	const sl_strmap_slot *sl = sl_strmap_get(&k->incl, real, strlen(real));
	const struct incl *in = sl ? sl->val : NULL;
	if (!in || in->multi)
		return in != NULL;
	sl = in->parent ? sl_strmap_get(&k->incl, in->parent, strlen(in->parent)) : NULL;
	return sl && sl->val && ((const struct incl *)sl->val)->component;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

void sl_kustomize__shared_unlink(sl_kustomize *k, struct shared *s)
{
	sl_strmap_slot *sl = sl_strmap_get(&k->shared, s->kpath, strlen(s->kpath));
	for (struct shared **p = sl ? (struct shared **)&sl->val : NULL; p && *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	s->in_memo = false;
}

struct shared *sl_kustomize__shared_find(struct ctx *c, const char *kpath, const char *real,
					 const sl_knode *ref, bool *make)
{
	sl_kustomize *k = c->k;
	sl_kustomize_build *b = c->b;
	*make = false;
	if (b->failed)
		return NULL;
	pthread_mutex_lock(&k->lock);
	/* one past the last build that includes it (its directory's reach: note_reach) */
	const char *slash = strrchr(real, '/');
	const sl_strmap_slot *r = slash ? sl_strmap_get(&k->reach, real, slash > real ?
							  (size_t)(slash - real) : 1) : NULL;
	size_t last = r && reached_twice(k, real) ? (size_t)(uintptr_t)r->val : 0;
	bool found;
	sl_strmap_slot *sl = b->at < last ? sl_strmap_put_copy(&k->shared, kpath, strlen(kpath),
							       &found) : NULL;
	struct shared *s = sl ? sl->val : NULL;
	for (; s; s = s->next) {
		if (s->load_none != b->load_none || !same_str(s->project, b->project) ||
		    !same_str(s->origin, c->origin))
			continue;
		if (!s->made || c->depth + s->height > 64)
			break;   /* another root is making it, or it would cross the depth limit here */
		if (s->last > b->at && (!s->at_ref || (s->ref_src == ref->src &&
						       s->ref_start == ref->start &&
						       s->ref_end == ref->end)))
			break;
	}
	if (s && s->made && s->last > b->at && c->depth + s->height <= 64) {
		k->n_reused++;
	} else if (s) {
		s = NULL;   /* its own */
	} else if (sl && (s = sl_xcalloc(1, sizeof *s))) {
		s->kpath = sl_xstrdup(kpath);
		s->load_none = b->load_none;
		s->project = b->project ? sl_xstrdup(b->project) : NULL;
		s->origin = c->origin ? sl_xstrdup(c->origin) : NULL;
		s->owner = b->at;
		s->last = last;
		s->a = sl_arena_new();
		if (!s->kpath || (b->project && !s->project) || (c->origin && !s->origin) || !s->a) {
			free(s->kpath);
			free(s->project);
			free(s->origin);
			sl_arena_free(s->a);
			free(s);
			s = NULL;
		} else {
			s->in_memo = true;
			s->next = sl->val;
			sl->val = s;
			*make = true;
		}
	}
	pthread_mutex_unlock(&k->lock);
	return s;
}

void sl_kustomize__shared_done(struct ctx *c, struct shared *s, bool keep)
{
	sl_kustomize *k = c->k;
	pthread_mutex_lock(&k->lock);
	if (!k->shared_by_last)
		k->shared_by_last = sl_xcalloc(k->n_builds + 1, sizeof *k->shared_by_last);
	struct sbucket *q = k->shared_by_last && s->last <= k->n_builds ? &k->shared_by_last[s->last]
									: NULL;
	size_t size = sl_arena_used(s->a);
	if (keep && q && k->memo_bytes + size <= SL_KUSTOMIZE_MEMO_MAX &&
	    sl_kustomize__room(&q->v, q->n, &q->cap, sizeof *q->v)) {
		q->v[q->n++] = s;
		s->made = true;
		s->size = size;
		k->memo_bytes += size;
		for (size_t i = 0; i < s->n_files; i++)
			s->files[i]->pins++;
	} else {
		sl_kustomize__shared_unlink(k, s);   /* its includer's own */
	}
	pthread_mutex_unlock(&k->lock);
}
