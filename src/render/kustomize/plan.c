/* SPDX-License-Identifier: Apache-2.0
** plan.c: the plan of a run's kustomizations: the roots among them built on the run's
** threads, what the builds use, the origins of a build's text, and what Kustomize does
** to a run's files (sl_kustomize_arrange). */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include "render/kustomize/internal.h"
#include "config/config.h"
#include "schedlint/fdio.h"

bool sl_kustomize_is_file(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "kustomization.yaml") == 0 || strcmp(base, "kustomization.yml") == 0 ||
	       strcmp(base, "Kustomization") == 0;
}

/* --- the plan ------------------------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The real paths of the kustomizations k's resources and components name (directories), the
** components' from *comps on (when not NULL). */
static bool included_(sl_kustomize *k, const char *kpath, char ***v, size_t *n, size_t *cap,
		      size_t *comps)
{
	struct kfile *f = sl_kustomize__load(k, kpath);
	if (!f)
		return false;
	const sl_node *root = f->src && f->tree.n_docs ? f->tree.docs[0]->root : NULL;
	char *dir = sl_path_dir(kpath);
	if (!dir)
		return false;
	static const char *const keys[] = {"resources", "bases", "components"};
	bool ok = true;
	if (comps)
		*comps = SIZE_MAX;
	for (size_t k2 = 0; ok && root && k2 < 3; k2++) {
		const sl_node *list = sl_map_get(root, keys[k2]);
		if (comps && k2 == 2)
			*comps = *n;
		for (size_t i = 0; ok && i < sl_seq_n(list); i++) {
			const char *s = sl_scalar(sl_seq_item(list, i));
			if (!s || sl_kustomize__remote(s))
				continue;
			char *p = sl_kustomize__join(dir, s), *kp = p ? sl_kustomize__kustomization_in(k, p) : NULL;
			char *real = kp ? sl_kustomize__real_of(k, kp) : NULL;
			free(p);
			free(kp);
			if (real)
				ok = sl_kustomize__push_str(v, n, cap, real);
		}
	}
	free(dir);
	return ok;
}

static bool included(sl_kustomize *k, const char *kpath, char ***v, size_t *n, size_t *cap)
{
	return included_(k, kpath, v, n, cap, NULL);
}

struct by_real {
	char *real;
	size_t i;
};

static int cmp_by_real(const void *a, const void *b)
{
	const struct by_real *x = a, *y = b;
	int c = strcmp(x->real, y->real);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int cmp_real_only(const void *a, const void *b)
{
	return strcmp(((const struct by_real *)a)->real, ((const struct by_real *)b)->real);
}

/* The roots among kpaths[0..n) (inc: the sorted real paths some kustomization includes): those
** no kustomization includes, and then, in kpaths' order, the first of each set that only
** include each other (a <-> b, resources: [.]), which no root reaches: built, its build meets
** the cycle and says so (kustomize-invalid), where it was never built at all. root[i] is set. */
static bool cyclic_roots(sl_kustomize *k, const char *const *kpaths, size_t n, char **inc,
			 size_t ni, bool *root)
{
	char **real = sl_xcalloc(n ? n : 1, sizeof *real);
	bool *reached = sl_xcalloc(n ? n : 1, sizeof *reached);
	size_t *todo = sl_xmalloc((n ? n : 1) * sizeof *todo);
	bool ok = real && reached && todo;
	struct by_real *by = sl_xmalloc((n ? n : 1) * sizeof *by);   /* the kustomizations by path */
	size_t nb = 0;
	ok = ok && by;
	for (size_t i = 0; ok && i < n; i++) {
		real[i] = sl_kustomize__real_of(k, kpaths[i]);
		root[i] = real[i] && !(ni && bsearch(&real[i], inc, ni, sizeof *inc, cmp_str));
		if (real[i])
			by[nb++] = (struct by_real){real[i], i};
	}
	if (ok && nb)
		qsort(by, nb, sizeof *by, cmp_by_real);
	for (size_t pass = 0; ok && pass < 2; pass++)
		for (size_t i = 0; ok && i < n; i++) {
			if (!real[i] || reached[i] || (pass == 0 && !root[i]))
				continue;
			root[i] = true;   /* pass 1: nothing reached it, so only a cycle includes it */
			size_t nt = 0;
			todo[nt++] = i;
			reached[i] = true;
			while (ok && nt) {   /* what it includes, transitively, by real path */
				size_t j = todo[--nt];
				char **v = NULL;
				size_t nv = 0, cv = 0;
				ok = included(k, kpaths[j], &v, &nv, &cv);
				for (size_t e = 0; e < nv; e++) {
					struct by_real key = {v[e], 0}, *hit = bsearch(&key, by, nb, sizeof *by,
										   cmp_real_only);
					while (hit && hit > by && strcmp(hit[-1].real, v[e]) == 0)
						hit--;   /* the first of a path named twice */
					for (; hit && hit < by + nb && strcmp(hit->real, v[e]) == 0; hit++)
						if (!reached[hit->i]) {
							reached[hit->i] = true;
							todo[nt++] = hit->i;
						}
					free(v[e]);
				}
				free(v);
			}
		}
	for (size_t i = 0; real && i < n; i++)
		free(real[i]);
	free(real);
	free(reached);
	free(todo);
	free(by);
	return ok;
}

/* Builds the root kustomization at kpath into b. */
static bool build_root(sl_kustomize *k, sl_kustomize_build *b, const char *kpath)
{
	struct ctx c = {.k = k, .b = b, .a = b->a, .life = SIZE_MAX};
	struct acc acc = {0};
	size_t self;   /* the root is being built: a base that includes it is a cycle */
	bool ok = sl_kustomize__building(&c, kpath, &self) &&
		  sl_kustomize__build_kust(&c, kpath, NULL, &acc, false) &&
		  sl_kustomize__finish_hashes(&c, &acc) && sl_kustomize__fix_refs(&c, &acc) &&
		  sl_kustomize__resolve_vars(&c, &acc);
	/* kustomize's IgnoreLocal, last: objects annotated config.kubernetes.io/local-config
	** (any value but "false") are not part of the build */
	size_t kept = 0;
	for (size_t i = 0; ok && i < acc.n; i++) {
		const sl_knode *ann = sl_knode_get(sl_knode_get(acc.v[i].obj, "metadata", NULL),
						   "annotations", NULL);
		const sl_knode *local = sl_knode_get(ann, "config.kubernetes.io/local-config", NULL);
		if (!local || (local->type == SL_NODE_SCALAR && strcmp(local->s, "false") == 0))
			acc.v[kept++] = acc.v[i];
	}
	if (ok)
		acc.n = kept;
	ok = ok && sl_kustomize__build_metadata(&c, &acc);
	for (size_t i = 0; ok && !b->failed && i < acc.n; i++)
		ok = sl_knode_emit(acc.v[i].obj, &b->text, &b->spans, &b->n_spans,
				   &b->spans_cap);
	free(acc.v);
	free(acc.vars);
	sl_kustomize__cfg_free(&acc.cfg);
	sl_kustomize__built_free(&c);
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

/* --- what the builds read, let go once no build left reads it -------------------------------
** A build reads files in or below the directories of the kustomizations it includes (the load
** restrictor; a build without it, any file). Before the builds, the plan notes for each such
** directory the last build that includes it; once every build up to the last one a file may lie
** under is finished, and none under way loaded it, the file's tree is let go (a file whose
** text holds a suppression keeps it: its directives are read on it; so does a kustomization,
** which the plan reads again). A build that loads it after all parses it again: the prediction
** only saves memory, never changes a build. */

/* True when real path real lies in directory root (NULL: no bound). */
static bool real_in(const char *real, const char *root)
{
	size_t n = root ? strlen(root) : 0;
	return !root || (strncmp(real, root, n) == 0 &&
			 (real[n] == '/' || real[n] == '\0' || strcmp(root, "/") == 0));
}

/* The entry of kustomization real in k->incl; NULL when out of memory. */
static struct incl *incl_of(sl_kustomize *k, const char *real)
{
	bool found;
	sl_strmap_slot *sl = sl_strmap_put_copy(&k->incl, real, strlen(real), &found);
	if (sl && !found && !(sl->val = sl_xcalloc(1, sizeof(struct incl))))
		return NULL;   /* its key stays, with no entry: freed with the map */
	return sl ? sl->val : NULL;
}

/* Notes that kustomization parent includes child (both real paths), as a component or not. */
static bool note_parent(sl_kustomize *k, const char *child, const char *parent, bool component)
{
	struct incl *in = incl_of(k, child);
	if (!in)
		return false;
	in->component = in->component || component;
	if (!in->parent)
		return (in->parent = sl_xstrdup(parent)) != NULL;
	in->multi = in->multi || strcmp(in->parent, parent) != 0;
	return true;
}

/* Notes, for every kustomization build bi includes (itself too, transitively), that bi reads
** below its directory. Only those in its project are read (its build never reads the others).
** False when out of memory. */
static bool note_reach(sl_kustomize *k, const char *kpath, size_t bi)
{
	const char *project = k->builds[bi]->project;
	char **todo = NULL, **seen = NULL;
	size_t nt = 0, ct = 0, ns = 0, cs = 0;
	sl_strmap met = {0};   /* the kustomizations met (keys: seen's strings) */
	char *real = sl_kustomize__real_of(k, kpath);
	bool ok = !real || sl_kustomize__push_str(&todo, &nt, &ct, real);
	while (ok && nt) {
		char *kp = todo[--nt];
		bool again = !real_in(kp, project);
		sl_strmap_slot *m = again ? NULL : sl_strmap_put(&met, kp, strlen(kp), &again);
		if (again || !m) {
			ok = again;
			free(kp);
			continue;
		}
		size_t from = nt, comps;
		ok = sl_kustomize__push_str(&seen, &ns, &cs, kp) &&
		     included_(k, kp, &todo, &nt, &ct, &comps);
		for (size_t j = from; ok && j < nt; j++)
			ok = note_parent(k, todo[j], kp, j >= comps);
		char *dir = ok ? sl_path_dir(kp) : NULL;
		bool found;
		sl_strmap_slot *sl = dir ? sl_strmap_put_copy(&k->reach, dir, strlen(dir), &found) : NULL;
		if (sl && (!found || (size_t)(uintptr_t)sl->val < bi + 1))
			sl->val = (void *)(uintptr_t)(bi + 1);
		ok = ok && sl;
		free(dir);
	}
	for (size_t i = 0; i < nt; i++)
		free(todo[i]);
	for (size_t i = 0; i < ns; i++)
		free(seen[i]);
	sl_strmap_free(&met);
	free(todo);
	free(seen);
	return ok;
}

/* One past the last build that may read f (under lock). */
static size_t last_user(sl_kustomize *k, struct kfile *f)
{
	if (f->last_user != SIZE_MAX)
		return f->last_user;
	size_t u = k->reach_all;
	for (size_t j = strlen(f->real); j-- > 0;) {   /* its directories, "/a/b" then "/a", "/" */
		if (f->real[j] != '/')
			continue;
		const sl_strmap_slot *sl = sl_strmap_get(&k->reach, f->real, j ? j : 1);
		if (sl && (size_t)(uintptr_t)sl->val > u)
			u = (size_t)(uintptr_t)sl->val;
	}
	return f->last_user = u;
}

/* Lets f's tree, text and line index go, unless it holds a suppression directive (under lock). */
static void let_go(struct kfile *f)
{
	if (!f->a || f->directive)
		return;
	if (memmem(f->src->data, f->src->len, "schedlint:", 10)) {
		f->directive = true;   /* looked for once: it stays */
		return;
	}
	sl_arena_free(f->a);
	f->a = NULL;
	memset(&f->tree, 0, sizeof f->tree);
	f->dropped = true;
	sl_source_drop_text(f->src);   /* read again for a finding's position (origin) */
}

/* f let go when no build left reads it: none under way pinned it, and every build up to its
** last user is finished (under lock). */
static void consider(sl_kustomize *k, struct kfile *f)
{
	if (f->a && !f->pins && last_user(k, f) <= k->unfinished &&
	    !sl_kustomize_is_file(f->real) && !sl_kustomize_is_file(f->path))
		let_go(f);
}

/* --- kustomizations built once per run -----------------------------------------------------
** A base that many roots include is built by the first of them and taken (copied, its issues and
** files replayed: build.c) by the others, until the last build that includes it (the plan's reach
** of its directory) is finished: then it goes, and the files it pinned with it. */

/* s's last build is finished: it goes, its files unpinned (under lock). */
static void release_shared(sl_kustomize *k, struct shared *s)
{
	sl_kustomize__shared_unlink(k, s);
	k->memo_bytes -= s->size;
	for (size_t i = 0; i < s->n_files; i++)
		if (--s->files[i]->pins == 0)
			consider(k, s->files[i]);
	sl_kustomize__shared_free(s);
}

/* Build b is finished: its files unpinned, and the trees no build left reads let go (under
** lock). Each file is looked at when it is parsed, when the builds up to its last user are
** finished (k->by_last_user) and when a build that pinned it finishes: the sweeps of a plan
** cost its files and pins, not its files times its builds. */
static void sweep(sl_kustomize *k, sl_kustomize_build *b)
{
	b->done = true;
	size_t from = k->unfinished;
	while (k->unfinished < k->n_builds && k->builds[k->unfinished]->done)
		k->unfinished++;
	if (!k->by_last_user)
		k->by_last_user = sl_xcalloc(k->n_builds + 1, sizeof *k->by_last_user);
	for (size_t i = 0; i < k->n_fresh; i++) {
		struct kfile *f = k->fresh[i];
		size_t u = last_user(k, f);
		struct kbucket *q = k->by_last_user && u <= k->n_builds ? &k->by_last_user[u] : NULL;
		if (u <= k->unfinished)
			consider(k, f);
		else if (q && sl_kustomize__room(&q->v, q->n, &q->cap, sizeof *q->v))
			q->v[q->n++] = f;   /* out of memory: it stays to the end */
	}
	k->n_fresh = 0;
	for (size_t u = from + 1; k->by_last_user && u <= k->unfinished; u++) {
		struct kbucket *q = &k->by_last_user[u];
		for (size_t i = 0; i < q->n; i++)
			consider(k, q->v[i]);
		free(q->v);
		*q = (struct kbucket){0};
	}
	for (size_t u = from + 1; k->shared_by_last && u <= k->unfinished; u++) {
		struct sbucket *q = &k->shared_by_last[u];
		for (size_t i = 0; i < q->n; i++)
			release_shared(k, q->v[i]);
		free(q->v);
		*q = (struct sbucket){0};
	}
	for (size_t i = 0; i < b->n_pinned; i++)
		if (--b->pinned[i]->pins == 0)
			consider(k, b->pinned[i]);
	free(b->pinned);
	b->pinned = NULL;
	b->n_pinned = b->cap_pinned = 0;
}

/* --- a build's text and spans until the run lints it ----------------------------------------
** The run lints a build long after the plan made it (its pass comes after every file's first
** look), and a run of many kustomizations would hold every build's text and spans at once: each
** build writes them to the plan's spill file, an unlinked temporary file (in $TMPDIR, else
** /tmp), as soon as it is made, and they are read back when the run asks for them; while the
** builds held so far take at most SL_KUSTOMIZE_HOLD_MAX (2 MiB: the 200 overlays of issue 17's
** bench take 1.2 MB), a build holds them in memory instead, read back from there the same way,
** so a run of small builds makes no system call for them. Where no such file can be made or
** written, they stay in memory: the same builds either way. */

/* The plan's spill file, made when first needed (under lock); -1: none. It never grows past the
** process's file size limit (RLIMIT_FSIZE, whose crossing is a SIGXFSZ): k->spill_max. */
static int spill_fd(sl_kustomize *k)
{
	if (k->spill_tried)
		return k->spill;
	k->spill_tried = true;
	k->spill = -1;
	struct rlimit rl;
	k->spill_max = getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		       rl.rlim_cur < (rlim_t)INT64_MAX ? (off_t)rl.rlim_cur : (off_t)INT64_MAX;
	const char *env = getenv("TMPDIR"), *dir = env && *env ? env : "/tmp";
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);   /* a file with no name */
	char *tmpl = fd < 0 ? sl_xprintf("%s/schedlint-kustomize-XXXXXX", dir) : NULL;
	if (tmpl && (fd = mkostemp(tmpl, O_CLOEXEC)) >= 0 && unlink(tmpl) != 0) {
		close(fd);   /* nothing is left behind */
		fd = -1;
	}
	free(tmpl);
	return k->spill = fd;
}

/* The most the builds' texts and spans held in memory in place of the spill file may take. */
static size_t hold_max = SL_KUSTOMIZE_HOLD_MAX;

void sl_kustomize_hold_max(size_t bytes)
{
	hold_max = bytes;
}

/* Moves build b's text and spans to the spill file, when there is one (on the build's thread),
** unless the builds held so far and b take no more than hold_max: then b holds them itself, as
** the spill file would (a run of small builds makes no system call for them). */
static void spill(sl_kustomize *k, sl_kustomize_build *b)
{
	size_t tl = b->text.len, sl = b->n_spans * sizeof *b->spans;
	pthread_mutex_lock(&k->lock);
	bool hold = k->held <= hold_max && tl + sl <= hold_max - k->held;
	if (hold)
		k->held += tl + sl;
	pthread_mutex_unlock(&k->lock);
	if (hold) {   /* what text_back and sl_kustomize_spans copy from */
		b->held_text = b->text;
		b->held_spans = b->spans;
		memset(&b->text, 0, sizeof b->text);
		b->spans = NULL;
		b->spilled = true;
		b->spill_text = tl;
		b->spill_spans = b->n_spans;
		b->n_spans = b->spans_cap = 0;
		return;
	}
	pthread_mutex_lock(&k->lock);
	int fd = spill_fd(k);
	off_t at = k->spill_end;
	if (fd >= 0 && (off_t)(tl + sl) <= k->spill_max - at)
		k->spill_end += (off_t)(tl + sl);
	else
		fd = -1;   /* past the file size limit: kept in memory */
	pthread_mutex_unlock(&k->lock);
	if (fd < 0 || !sl_fdio_pwrite_all(fd, b->text.s, tl, at) ||
	    !sl_fdio_pwrite_all(fd, b->spans, sl, at + (off_t)tl))
		return;   /* kept in memory */
	b->spilled = true;
	b->spill_at = at;
	b->spill_text = tl;
	b->spill_spans = b->n_spans;
	sl_kustomize_release(b, true);
}

/* Build b's text back in b->text (read from the spill file unless it is there). SL_ENOMEM, SL_EIO. */
static sl_err text_back(sl_kustomize_build *b)
{
	if (!b->spilled || b->text.s)
		return SL_OK;
	sl_strbuf t = {0};
	if (!sl_strbuf_grow(&t, b->spill_text))
		return SL_ENOMEM;
	if (b->held_text.s)
		memcpy(t.s, b->held_text.s, b->spill_text);
	else if (sl_fdio_pread_all(b->k->spill, t.s, b->spill_text, b->spill_at) !=
		 (ssize_t)b->spill_text) {
		sl_strbuf_free(&t);
		return SL_EIO;
	}
	t.len = b->spill_text;
	t.s[t.len] = '\0';
	b->text = t;
	return SL_OK;
}

sl_err sl_kustomize_spans(sl_kustomize_build *b)
{
	if (!b->spilled || b->spans || !b->spill_spans)
		return SL_OK;
	size_t n = b->spill_spans * sizeof(sl_knode_span);
	sl_knode_span *v = sl_xmalloc(n);
	if (!v)
		return SL_ENOMEM;
	if (b->held_spans)
		memcpy(v, b->held_spans, n);
	else if (sl_fdio_pread_all(b->k->spill, v, n, b->spill_at + (off_t)b->spill_text) !=
		 (ssize_t)n) {
		free(v);
		return SL_EIO;
	}
	b->spans = v;
	b->n_spans = b->spans_cap = b->spill_spans;
	return SL_OK;
}

sl_err sl_kustomize_take_text(sl_kustomize_build *b, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	sl_err err = SL_OK;
	if (b->failed)
		*text = sl_xstrdup("");
	else if (b->spilled && !b->text.s && !(err = text_back(b))) {   /* read for the caller */
		*len = b->text.len;
		*text = sl_strbuf_take(&b->text);
	} else if (!err) {   /* kept in memory: a copy (a pass may ask again) */
		*len = b->text.len;
		*text = sl_xstrndup(b->text.s ? b->text.s : "", b->text.len);
	}
	return err ? err : *text ? SL_OK : SL_ENOMEM;
}

sl_err sl_kustomize_text(sl_kustomize_build *b, const char **text, size_t *len)
{
	sl_err err = b->failed ? SL_OK : text_back(b);
	*text = b->failed || !b->text.s ? "" : b->text.s;
	*len = b->failed || !b->text.s ? 0 : b->text.len;
	return err;
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
		else
			spill(k, b);
		pthread_mutex_lock(&k->lock);
		sweep(k, b);
		pthread_mutex_unlock(&k->lock);
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
	bool *root = sl_xcalloc(n ? n : 1, sizeof *root);
	if (!root || !cyclic_roots(k, kpaths, n, inc, ni, root)) {
		free(root);
		goto oom;
	}
	for (size_t i = 0; i < n; i++) {
		if (!root[i])
			continue;
		sl_kustomize_build *b = sl_xcalloc(1, sizeof *b);
		if (!b)
			goto oom;
		k->builds[k->n_builds++] = b;
		char *dir = sl_path_dir(kpaths[i]);
		b->name = dir ? sl_arena_strndup(k->a, kpaths[i], strlen(kpaths[i])) : NULL;
		b->dir = dir ? sl_arena_strndup(k->a, dir, strlen(dir)) : NULL;
		b->kpath = kpaths[i];
		b->root = i;
		b->at = k->n_builds - 1;
		b->load_none = load_none && load_none[i];
		b->k = k;
		/* the repository no input of the build may leave */
		char *real = dir ? sl_kustomize__real_of(k, dir) : NULL;
		if (real && sl_config_project_root_memo(real, &k->projects, k->seen, &b->project) ==
			    SL_ENOMEM) {
			free(real);
			free(dir);
			goto oom;
		}
		free(real);
		free(dir);
		if (!b->name || !b->dir || !(b->a = sl_arena_new()))
			goto oom;
	}
	free(root);
	size_t known = k->n_files;   /* the kustomizations read by their names so far */
	for (size_t i = 0; i < k->n_builds; i++) {
		if (!note_reach(k, k->builds[i]->kpath, i))
			goto oom;
		if (k->builds[i]->load_none)
			k->reach_all = i + 1;
	}
	for (size_t i = known; i < k->n_files; i++)
		k->files[i]->provisional = true;   /* read by a real path: a build names them */
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
	sl_kustomize__dedupe_notices(k);
	for (size_t i = 0; i < k->n_builds; i++) {
		sl_kustomize_build *b = k->builds[i];
		if (b->oom)
			goto oom;
		for (size_t u = 0; !b->failed && u < b->n_used; u++)
			if (!sl_kustomize__push_str(&k->consumed, &k->n_consumed, &k->cap_consumed, sl_xstrdup(b->used[u])))
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
			k->by_src[k->n_by_src].f = k->files[i];
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
	return sl_kustomize__real_of(k, path);
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
	if (text && sl_kustomize_text(b, text, len) != SL_OK)
		return NULL;
	return b;
}

size_t sl_kustomize_n_files(const sl_kustomize *k)
{
	return k ? k->n_by_src : 0;
}

const sl_source *sl_kustomize_file(const sl_kustomize *k, size_t i, const sl_tree **tree,
				   const char **real)
{
	*tree = k->by_src[i].f->dropped ? NULL : k->by_src[i].tree;
	*real = k->by_src[i].real;
	return k->by_src[i].src;
}

size_t sl_kustomize_spilled(const sl_kustomize *k)
{
	return k ? (size_t)k->spill_end : 0;
}

void sl_kustomize_counts(const sl_kustomize *k, size_t *made, size_t *reused)
{
	*made = k ? k->n_made : 0;
	*reused = k ? k->n_reused : 0;
}

size_t sl_kustomize_build_root(const sl_kustomize_build *b)
{
	return b->root;
}

size_t sl_kustomize_n_issues(const sl_kustomize_build *b)
{
	return b->n_issues;
}

static sl_kustomize_origin origin(const sl_kustomize *k, const sl_source *src, uint32_t start,
				  uint32_t end);

void sl_kustomize_issue(const sl_kustomize_build *b, size_t i, const char **rule, const char **msg,
			const char **notes, sl_kustomize_origin *at)
{
	const struct issue *is = i < b->n_issues ? &b->issues[i] : NULL;
	*rule = is ? is->rule : NULL;
	*msg = is ? is->msg : NULL;
	if (notes)
		*notes = is ? is->notes : NULL;
	if (at)
		*at = is ? origin(b->k, is->src, is->start, is->end) : (sl_kustomize_origin){0};
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

static const struct src_real *file_of(const sl_kustomize *k, const sl_source *src)
{
	return src ? bsearch(&src, k->by_src, k->n_by_src, sizeof *k->by_src, cmp_src) : NULL;
}

/* The origin of src's bytes [start, end): src with its parse and real path when the plan read
** it. */
static sl_kustomize_origin origin(const sl_kustomize *k, const sl_source *src, uint32_t start,
				  uint32_t end)
{
	const struct src_real *r = file_of(k, src);
	if (r && r->f->dropped) {   /* its text and line index back for the finding's position */
		pthread_mutex_lock((pthread_mutex_t *)&k->lock);
		bool back = r->src->data || sl_kustomize__reread(r->f);
		pthread_mutex_unlock((pthread_mutex_t *)&k->lock);
		if (!back)   /* gone meanwhile: reported at the overlay, as a node from no file */
			return (sl_kustomize_origin){0};
	}
	const sl_tree *tree = r && !r->f->dropped ? r->tree : NULL;   /* NULL: let go, no directive */
	return (sl_kustomize_origin){src, tree, r ? r->real : NULL, start, end};
}

sl_kustomize_origin sl_kustomize_origin_of(const sl_kustomize_build *b, size_t off, size_t len)
{
	if (sl_kustomize_spans((sl_kustomize_build *)b) != SL_OK)   /* the caller's, first */
		return (sl_kustomize_origin){0};
	const sl_knode_span *s = span_of(b, off, len);
	return s ? origin(b->k, s->src, s->from, s->to) : (sl_kustomize_origin){0};
}

const char *sl_kustomize_build_dir(const sl_kustomize_build *b)
{
	return b->dir;
}

bool sl_kustomize_build_uses(const sl_kustomize_build *b, const char *const *reals, size_t n)
{
	for (size_t u = 0; n && u < b->n_used; u++)
		if (bsearch(&b->used[u], reals, n, sizeof *reals, cmp_str))
			return true;
	return false;
}

void sl_kustomize_release(sl_kustomize_build *b, bool all)
{
	sl_strbuf_free(&b->text);   /* the run lints a copy */
	if (!all)
		return;
	free(b->spans);
	b->spans = NULL;
	b->n_spans = b->spans_cap = 0;
}

static void run_part_free(struct run_part *r);

void sl_kustomize_free(sl_kustomize *k)
{
	if (!k)
		return;
	run_part_free(k->run);
	for (size_t i = 0; i < k->reach.cap; i++)
		free((char *)k->reach.v[i].key);
	sl_strmap_free(&k->reach);
	for (size_t i = 0; i < k->projects.cap; i++) {
		free((char *)k->projects.v[i].key);
		free(k->projects.v[i].val);
	}
	sl_strmap_free(&k->projects);
	for (size_t i = 0; i < k->files_by_path.cap; i++)
		free((char *)k->files_by_path.v[i].key);
	sl_strmap_free(&k->files_by_path);
	for (size_t i = 0; i < k->files_by_real.cap; i++)
		free((char *)k->files_by_real.v[i].key);
	sl_strmap_free(&k->files_by_real);
	for (size_t i = 0; i < k->incl.cap; i++) {
		if (k->incl.v[i].val)
			free(((struct incl *)k->incl.v[i].val)->parent);
		free(k->incl.v[i].val);
		free((char *)k->incl.v[i].key);
	}
	sl_strmap_free(&k->incl);
	for (size_t i = 0; k->shared_by_last && i <= k->n_builds; i++)
		free(k->shared_by_last[i].v);
	free(k->shared_by_last);
	for (size_t i = 0; i < k->shared.cap; i++) {   /* what no finished build released */
		for (struct shared *s = k->shared.v[i].val, *next; s; s = next) {
			next = s->next;
			sl_kustomize__shared_free(s);
		}
		free((char *)k->shared.v[i].key);
	}
	sl_strmap_free(&k->shared);
	free(k->fresh);
	for (size_t i = 0; k->by_last_user && i <= k->n_builds; i++)
		free(k->by_last_user[i].v);
	free(k->by_last_user);
	for (size_t i = 0; i < k->n_files; i++) {
		sl_arena_free(k->files[i]->a);
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
		sl_strbuf_free(&b->text);
		free(b->spans);
		sl_strbuf_free(&b->held_text);
		free(b->held_spans);
		free(b->issues);
		for (size_t u = 0; u < b->n_used; u++)
			free(b->used[u]);
		free(b->used);
		free(b->pinned);
		free(b->project);
		free(b);
	}
	free(k->builds);
	sl_kustomize__memo_free(&k->reals);
	sl_kustomize__memo_free(&k->kusts);
	sl_kustomize__memo_free(&k->types);
	free(k->bases);
	free(k->by_src);
	sl_repo_free(k->repo);
	if (k->spill_tried && k->spill >= 0)
		close(k->spill);
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
	char *norm = sl_kustomize__join(".", joined);
	char *real = norm ? sl_kustomize__real_of(k, norm) : NULL;
	free(joined);
	free(norm);
	if (!real)
		return SL_OK;
	return sl_kustomize__push_str(v, n, cap, real) ? SL_OK : SL_ENOMEM;
}

sl_err sl_kustomize_patch_files(sl_kustomize *k, const char *path, char ***v, size_t *n,
				size_t *cap)
{
	struct kfile *f = sl_kustomize__load(k, path);   /* read and parsed once, for the builds too */
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

/* --- a run's files ------------------------------------------------------------------------- */

/* Kustomize's part of a run (sl_kustomize_arrange): the files named that builds use, and the
** builds the run lints. */
struct run_part {
	char **named;              /* sorted real paths of the files named (not the project's) that */
	const char **named_as;     /* a build uses, and their paths as named */
	size_t n_named;
	struct linted {
		size_t build;          /* in the plan's builds */
		bool only_named, partial;
	} *linted;
	size_t n_linted;
	char **patches;            /* the real paths of the files used as patches, sorted */
	size_t n_patches;
};

static int cmp_path_input(const void *key, const void *v)
{
	return strcmp(*(const char *const *)key, (*(const sl_kustomize_input *const *)v)->path);
}

static int cmp_inputs(const void *a, const void *b)
{
	return strcmp((*(const sl_kustomize_input *const *)a)->path,
		      (*(const sl_kustomize_input *const *)b)->path);
}

/* The kustomizations a run sees: those among its files v (sorted by path), and the one beside
** each file named, as a real path; *out sorted, without repeats. */
static sl_err kustomizations(sl_kustomize *k, sl_kustomize_input *const *v, size_t n,
			     char ***out, size_t *n_out)
{
	size_t cap = 0;
	*out = NULL;
	*n_out = 0;
	const char *last = NULL;   /* the directory whose kustomization was looked for last */
	size_t last_len = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = v[i]->path;
		const char *slash = strrchr(p, '/');
		size_t dlen = slash ? (size_t)(slash - p) : 0;
		char *kk[3] = {NULL, NULL, NULL};
		if (sl_kustomize_is_file(p)) {
			kk[0] = sl_kustomize__real_of(k, p);
		} else if (!v[i]->context && !(last && dlen == last_len && strncmp(p, last, dlen) == 0)) {
			last = p;
			last_len = dlen;
			static const char *const names[] = {"kustomization.yaml", "kustomization.yml"};
			for (size_t j = 0; j < 2; j++) {
				char *c = sl_xprintf("%.*s%s", slash ? (int)(slash - p + 1) : 0, p, names[j]);
				if (!c)
					return SL_ENOMEM;
				/* one of the run's files: found as itself */
				bool listed = bsearch(&c, v, n, sizeof *v, cmp_path_input) != NULL;
				/* else as the directory's walk listed it, or access */
				sl_walk_seen_kind w = listed ? SL_SEEN_ABSENT
						    : sl_walk_seen_at(k->seen, p, dlen, names[j]);
				bool there = w == SL_SEEN_FILE || w == SL_SEEN_DIR ||
					     ((w == SL_SEEN_UNLISTED || w == SL_SEEN_OTHER) &&
					      access(c, F_OK) == 0);
				kk[j] = there ? sl_kustomize__real_of(k, c) : NULL;
				free(c);
			}
		}
		for (size_t j = 0; j < 2; j++) {
			if (!kk[j])
				continue;
			if (!sl_kustomize__room(out, *n_out, &cap, sizeof **out)) {
				free(kk[0]);
				free(kk[1]);
				return SL_ENOMEM;
			}
			(*out)[(*n_out)++] = kk[j];
		}
	}
	if (*n_out)
		qsort(*out, *n_out, sizeof **out, cmp_str);
	size_t w = 0;
	for (size_t i = 0; i < *n_out; i++) {
		if (w && strcmp((*out)[w - 1], (*out)[i]) == 0)
			free((*out)[i]);
		else
			(*out)[w++] = (*out)[i];
	}
	*n_out = w;
	return SL_OK;
}

/* Marks partial the files a kustomization the run sees uses as patches: partial objects, never
** linted on their own (nor read for facts); they stay the run's files (a buffer's text comes
** back unchanged). */
static sl_err mark_patches(sl_kustomize *k, sl_kustomize_input *v, size_t n)
{
	struct run_part *r = k->run;
	sl_kustomize_input **sorted = sl_xmalloc((n ? n : 1) * sizeof *sorted);
	if (!sorted)
		return SL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		sorted[i] = &v[i];
	if (n)
		qsort(sorted, n, sizeof *sorted, cmp_inputs);
	char **kust = NULL;
	size_t nk = 0, cap = 0;
	sl_err err = kustomizations(k, sorted, n, &kust, &nk);
	free(sorted);
	for (size_t i = 0; !err && i < nk; i++)
		err = sl_kustomize_patch_files(k, kust[i], &r->patches, &r->n_patches, &cap);
	size_t np = r->n_patches;
	const char **bases = !err && np ? sl_xmalloc(np * sizeof *bases) : NULL;
	if (!err && np && !bases)
		err = SL_ENOMEM;
	for (size_t j = 0; bases && j < np; j++) {   /* the patches' base names, sorted */
		const char *pb = strrchr(r->patches[j], '/');
		bases[j] = pb ? pb + 1 : r->patches[j];
	}
	if (bases) {
		qsort(r->patches, np, sizeof *r->patches, cmp_str);
		qsort(bases, np, sizeof *bases, cmp_str);
	}
	for (size_t i = 0; !err && np && i < n; i++) {
		const char *base = strrchr(v[i].path, '/');
		base = base ? base + 1 : v[i].path;
		/* a patch's base name first: most files need no realpath */
		bool named = bsearch(&base, bases, np, sizeof *bases, cmp_str) != NULL;
		char *real = named ? sl_kustomize__real_of(k, v[i].path) : NULL;
		if (real && bsearch(&real, r->patches, np, sizeof *r->patches, cmp_str))
			v[i].partial = true;
		free(real);
	}
	for (size_t i = 0; i < nk; i++)
		free(kust[i]);
	free(bases);
	free(kust);
	return err;
}

/* The real paths of the files named (not the project's) that a build uses, sorted, with their
** names. SL_ENOMEM only. */
static sl_err named_used(sl_kustomize *k, const sl_kustomize_input *v, size_t n)
{
	struct run_part *r = k->run;
	struct named { char *real; const char *as; } *nv = sl_xcalloc(n ? n : 1, sizeof *nv);
	if (!nv)
		return SL_ENOMEM;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!v[i].context && v[i].partial && v[i].on_disk && (nv[m].real = sl_kustomize__real_of(k, v[i].path)))
			nv[m++].as = v[i].path;
	if (m)
		qsort(nv, m, sizeof *nv, cmp_str);   /* by real path, the first member */
	r->named = sl_xmalloc((m ? m : 1) * sizeof *r->named);
	r->named_as = sl_xmalloc((m ? m : 1) * sizeof *r->named_as);
	sl_err err = r->named && r->named_as ? SL_OK : SL_ENOMEM;
	for (size_t i = 0; i < m; i++) {
		if (!err) {
			r->named[r->n_named] = nv[i].real;
			r->named_as[r->n_named++] = nv[i].as;
		} else {
			free(nv[i].real);
		}
	}
	free(nv);
	return err;
}

/* Plans and builds the kustomizations among v: the files the builds use are marked partial, and
** the builds that reach a file the run reports are the ones it lints. */
static sl_err build_run(sl_kustomize_input *v, size_t n, bool project, unsigned jobs,
			const sl_walk_seen *seen, sl_kustomize **out)
{
	const char **kp = sl_xmalloc((n ? n : 1) * sizeof *kp);
	bool *from_project = sl_xmalloc((n ? n : 1) * sizeof *from_project);
	bool *load_none = sl_xmalloc((n ? n : 1) * sizeof *load_none);
	if (!kp || !from_project || !load_none) {
		free(kp);
		free(from_project);
		free(load_none);
		return SL_ENOMEM;
	}
	bool named = false;   /* a file of the caller's on disk (not a project read for facts) */
	for (size_t i = 0; i < n && !named; i++)
		named = !v[i].context && v[i].on_disk;
	size_t nk = 0;
	for (size_t i = 0; i < n; i++)
		if ((!v[i].context || (named && !project)) && v[i].on_disk &&
		    sl_kustomize_is_file(v[i].path)) {
			load_none[nk] = v[i].load_none;
			from_project[nk] = v[i].context;
			kp[nk++] = v[i].path;
		}
	/* a plan even without builds: the patches are resolved through it */
	sl_err err = sl_kustomize_plan_seen(kp, nk, jobs, seen, load_none, out);
	free(kp);
	free(load_none);
	sl_kustomize *k = *out;
	if (!err && !(k->run = sl_xcalloc(1, sizeof *k->run)))
		err = SL_ENOMEM;
	if (err || !nk) {
		free(from_project);
		return err;
	}
	for (size_t i = 0; i < n; i++) {
		const char *base = strrchr(v[i].path, '/');
		/* a real path only for a file whose base name a build used */
		char *real = !sl_kustomize_may_consume(k, base ? base + 1 : v[i].path)
			     ? NULL : sl_kustomize__real_of(k, v[i].path);
		if (real && sl_kustomize_consumed(k, real))
			v[i].partial = true;   /* linted in its overlays' builds (a project's file: not a
						  plain file's fact either) */
		free(real);
	}
	err = named_used(k, v, n);
	struct run_part *r = k->run;
	r->linted = err ? NULL : sl_xcalloc(k->n_builds ? k->n_builds : 1, sizeof *r->linted);
	if (!err && !r->linted)
		err = SL_ENOMEM;
	for (size_t i = 0; !err && i < k->n_builds; i++) {
		sl_kustomize_build *b = k->builds[i];
		bool theirs = from_project[b->root];
		if (theirs && !sl_kustomize_build_uses(b, (const char *const *)r->named, r->n_named))
			continue;   /* reaches no file named */
		r->linted[r->n_linted++] = (struct linted){i, theirs, false};
	}
	free(from_project);
	return err;
}

sl_err sl_kustomize_arrange(sl_kustomize_input *v, size_t n, bool build, bool project,
			    unsigned jobs, const sl_walk_seen *seen, sl_kustomize **out)
{
	*out = NULL;
	sl_err err = build ? build_run(v, n, project, jobs, seen, out)
			   : sl_kustomize_plan(NULL, 0, 1, out);
	if (!err && !build && !((*out)->run = sl_xcalloc(1, sizeof *(*out)->run)))
		err = SL_ENOMEM;
	if (!err)
		err = mark_patches(*out, v, n);
	struct run_part *r = *out ? (*out)->run : NULL;
	for (size_t i = 0; !err && r && i < r->n_linted; i++) {
		/* a build stands for its kustomization: a patch, when that file is one */
		char *real = r->n_patches ? sl_kustomize__real_of(*out, (*out)->builds[r->linted[i].build]->name)
					  : NULL;
		r->linted[i].partial = real && bsearch(&real, r->patches, r->n_patches,
						       sizeof *r->patches, cmp_str);
		free(real);
	}
	/* every build made and every patch resolved: what the plan read is needed again only for
	** a finding's position (read back then), the kustomizations too */
	for (size_t i = 0; !err && i < (*out)->n_files; i++)
		let_go((*out)->files[i]);
	return err;
}

size_t sl_kustomize_n_linted(const sl_kustomize *k)
{
	return k && k->run ? k->run->n_linted : 0;
}

sl_kustomize_build *sl_kustomize_linted(const sl_kustomize *k, size_t i, const char **name,
					const char **text, size_t *len, bool *only_named,
					bool *partial)
{
	const struct linted *l = &k->run->linted[i];
	*only_named = l->only_named;
	*partial = l->partial;
	return sl_kustomize_build_at(k, l->build, name, text, len);
}

void sl_kustomize_named(const sl_kustomize *k, const char *const **named, const char *const **as,
			size_t *n)
{
	const struct run_part *r = k ? k->run : NULL;
	*named = r ? (const char *const *)r->named : NULL;
	*as = r ? r->named_as : NULL;
	*n = r ? r->n_named : 0;
}

static void run_part_free(struct run_part *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_named; i++)
		free(r->named[i]);
	free(r->named);
	free(r->named_as);
	free(r->linted);
	for (size_t i = 0; i < r->n_patches; i++)
		free(r->patches[i]);
	free(r->patches);
	free(r);
}
