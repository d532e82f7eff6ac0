/* SPDX-License-Identifier: Apache-2.0
** build.c: one kustomization built as kustomize v5 builds it (api/krusty, the builtin
** transformers in their order): its resources and components, then its generators,
** patches and transformers. */
#include "render/kustomize/internal.h"

static const char *const supported_keys[] = {
	"apiVersion", "kind", "metadata", "resources", "bases", "components", "patches",
	"patchesStrategicMerge", "patchesJson6902", "namespace", "namePrefix", "nameSuffix",
	"commonLabels", "labels", "commonAnnotations", "replicas", "images", "configMapGenerator",
	"secretGenerator", "generatorOptions", "sortOptions", "buildMetadata", "replacements", "vars",
	"configurations", NULL};

/* Keys kustomize v5 applies and this builder does not, but without which the build is still the
** deployed objects in all but the fields they set: built and linted, with a notice at the key.
** (helmCharts, helmGlobals, openapi and the generators/transformers/validators plugins make or
** reshape objects: a kustomization with them is not built.) */
static const char *const unapplied_keys[] = {"crds", NULL};

/* Why a resource entry is remote (no network), or NULL. */
bool sl_kustomize__remote(const char *s)
{
	return strstr(s, "://") || strncmp(s, "github.com/", 11) == 0 || strncmp(s, "git@", 4) == 0 ||
	       strstr(s, "?ref=");
}

/* --- kustomizations built once ------------------------------------------------------------- */

/* Appends a copy of from (its objects deep-copied in c's arena, so the transformers of each
** inclusion change their own) to into, which is empty. */
static bool copy_acc(struct ctx *c, const struct acc *from, struct acc *into)
{
	for (size_t i = 0; i < from->n; i++) {
		sl_knode *o = sl_knode_copy(c->a, from->v[i].obj);
		if (!o || !sl_kustomize__add_res(into, o))
			return false;
		into->v[into->n - 1] = from->v[i];   /* its ids, affixes and flags (never changed in
							place: each push makes a new array) */
		into->v[into->n - 1].obj = o;
	}
	for (size_t i = 0; i < from->n_vars; i++) {
		if (!sl_kustomize__room(&into->vars, into->n_vars, &into->cap_vars, sizeof *into->vars))
			return false;
		into->vars[into->n_vars++] = from->vars[i];
	}
	return sl_kustomize__cfg_merge(&into->cfg, &from->cfg);
}

static void acc_free(struct acc *acc)
{
	free(acc->v);
	free(acc->vars);
	sl_kustomize__cfg_free(&acc->cfg);
	memset(acc, 0, sizeof *acc);
}

void sl_kustomize__shared_free(struct shared *s)
{
	if (!s)
		return;
	acc_free(&s->acc);
	sl_arena_free(s->a);
	free(s->kpath);
	free(s->project);
	free(s->origin);
	free(s->issues);
	for (size_t i = 0; i < s->n_used; i++)
		free(s->used[i]);
	free(s->used);
	free(s->files);
	free(s);
}

void sl_kustomize__built_free(struct ctx *c)
{
	for (size_t i = 0; i < c->n_built; i++) {
		free(c->built[i].kpath);
		if (c->built[i].s && !c->built[i].s->in_memo)   /* the memo's go with their last build */
			sl_kustomize__shared_free(c->built[i].s);
	}
	free(c->built);
	c->built = NULL;
	c->n_built = c->cap_built = 0;
}

/* Finds kustomization kpath among those c's root built or is building (c->built, by real path),
** else adds it as being built: so that a diamond of kustomizations (each level including the two
** of the next) is built once per kustomization, not once per path to it (2^levels), and one met
** again while it is being built is a cycle (build_once; across roots, the plan's memo). */
bool sl_kustomize__building(struct ctx *c, const char *kpath, size_t *at)
{
	char *key = sl_kustomize__real_of(c->k, kpath);
	if (!key)
		key = sl_xstrdup(kpath);
	size_t i = 0;
	while (key && i < c->n_built && strcmp(c->built[i].kpath, key) != 0)
		i++;
	if (!key || (i == c->n_built &&
		     !sl_kustomize__room(&c->built, c->n_built, &c->cap_built, sizeof *c->built))) {
		free(key);
		return false;
	}
	if (i < c->n_built)
		free(key);
	else
		c->built[c->n_built++] = (struct built){key, NULL, true, false};
	*at = i;
	return true;
}

/* Takes s, a build of the plan's memo, into c's build as building it would have: its issues and
** the files it read recorded, its depth reached. False when it failed (as its build did) or out of
** memory. */
static bool replay(struct ctx *c, const struct shared *s)
{
	sl_kustomize_build *b = c->b;
	for (size_t i = 0; i < s->n_issues; i++) {
		if (!sl_kustomize__room(&b->issues, b->n_issues, &b->cap_issues, sizeof *b->issues))
			return false;
		b->issues[b->n_issues++] = s->issues[i];
	}
	for (size_t i = 0; i < s->n_used; i++)
		if (!sl_kustomize__push_str(&b->used, &b->n_used, &b->cap_used, sl_xstrdup(s->used[i])))
			return false;
	if (c->depth + s->height > c->deepest)
		c->deepest = c->depth + s->height;
	b->failed = b->failed || s->failed;
	return !s->failed;
}

/* What c's build recorded from its issue first, its used file used and its pinned file pinned on,
** copied into s. False when out of memory. */
static bool record(struct ctx *c, struct shared *s, size_t issue, size_t used, size_t pinned)
{
	sl_kustomize_build *b = c->b;
	s->n_issues = b->n_issues - issue;
	s->n_used = b->n_used - used;
	s->n_files = s->failed ? 0 : b->n_pinned - pinned;   /* a failed one's objects are not taken */
	s->issues = sl_xmalloc((s->n_issues ? s->n_issues : 1) * sizeof *s->issues);
	s->used = sl_xcalloc(s->n_used ? s->n_used : 1, sizeof *s->used);
	s->files = sl_xmalloc((s->n_files ? s->n_files : 1) * sizeof *s->files);
	if (!s->issues || !s->used || !s->files)
		return false;
	if (s->n_issues)
		memcpy(s->issues, b->issues + issue, s->n_issues * sizeof *s->issues);
	for (size_t i = 0; i < s->n_used; i++)
		if (!(s->used[i] = sl_xstrdup(b->used[used + i])))
			return false;
	if (s->n_files)
		memcpy(s->files, b->pinned + pinned, s->n_files * sizeof *s->files);
	return true;
}

/* Builds the kustomization at kpath, which ref includes, into c->built[i]: for the plan's memo in
** s's arena (kept there when nothing in it depended on where it was included: no cycle or depth
** limit met, nothing taken that is not kept too), else (s NULL) in c's arena, c's own. */
static bool make(struct ctx *c, size_t i, const char *kpath, const sl_knode *ref, struct shared *s)
{
	sl_kustomize_build *b = c->b;
	bool memo = s != NULL;
	if (!s && !(s = sl_xcalloc(1, sizeof *s)))
		return false;
	c->built[i].s = s;
	s->home = memo ? s->a : c->a;
	sl_arena *a = c->a;
	size_t floor = c->pin_floor, life = c->life, issue = b->n_issues, used = b->n_used;
	bool local = c->local, failed = b->failed;
	unsigned unstable = c->unstable;
	int depth = c->depth, deepest = c->deepest;
	if (memo) {   /* what it takes narrows its life: from its own */
		c->a = s->a;
		c->pin_floor = b->n_pinned;
		c->life = s->last;
		c->local = false;
	}
	c->deepest = depth;
	bool ok = sl_kustomize__build_kust(c, kpath, ref, &s->acc, false);
	s->height = c->deepest - depth;
	s->failed = !ok;
	c->built[i].building = false;   /* the array may have moved meanwhile */
	if (memo) {
		/* kept: built, or failed by its issues (not out of memory), standing on its own */
		bool keep = c->unstable == unstable && !c->local && !failed && ok == !b->failed;
		if (keep)
			s->last = c->life;
		keep = keep && record(c, s, issue, used, c->pin_floor);
		for (size_t j = 0; keep && s->failed && j < s->n_issues; j++)
			if (s->issues[j].src == ref->src && s->issues[j].start == ref->start &&
			    s->issues[j].end == ref->end) {   /* it stands at its includer's entry */
				s->ref_src = ref->src;
				s->ref_start = ref->start;
				s->ref_end = ref->end;
				s->at_ref = true;
			}
		sl_kustomize__shared_done(c, s, keep);
		c->a = a;
		c->pin_floor = floor;
		c->life = life;
		c->local = local;
	}
	if (c->deepest < deepest)
		c->deepest = deepest;
	return ok;
}

/* The kustomization at kpath, which ref includes as a resource, built into sub (empty): taken
** from the plan's memo when another root built it (its findings and files replayed), else built,
** once per root; a kept one copied (each inclusion's transformers change their own), a root's
** own taken whole. */
static bool build_once(struct ctx *c, const char *kpath, const sl_knode *ref, struct acc *sub)
{
	size_t i, n = c->n_built;
	if (!sl_kustomize__building(c, kpath, &i))
		return false;
	if (i < n && c->built[i].building) {   /* kubectl: "cycle detected" */
		c->unstable++;
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "kustomizations include each "
					   "other in a cycle");
	}
	if (i < n && c->built[i].s->moved) {   /* its includer took it whole: made again, once */
		sl_kustomize__shared_free(c->built[i].s);
		c->built[i].s = NULL;
		c->built[i].building = true;
		c->built[i].again = true;
	}
	if (!c->built[i].s) {   /* the plan's, else made */
		bool mk;
		struct shared *s = sl_kustomize__shared_find(c, kpath, c->built[i].kpath, ref, &mk);
		if (s && !mk) {
			c->built[i].s = s;
			c->built[i].building = false;
			if (!replay(c, s))
				return false;
		} else if (!make(c, i, kpath, ref, s)) {
			return false;
		}
	}
	struct shared *s = c->built[i].s;
	/* a memo's build being made takes it: it lives no longer than what it took, and takes
	** none of this root's own but those made in its own arena */
	if (s->in_memo && s->last < c->life)
		c->life = s->last;
	else if (!s->in_memo && s->home != c->a)
		c->local = true;
	if (s->in_memo || s->home != c->a || c->built[i].again)
		return copy_acc(c, &s->acc, sub);
	/* this root's own, in this arena: taken whole (met again, it is made again and kept: the
	** plan counts includers by the names they give, and a directory reached through a
	** symlink is one kustomization under two names, so a diamond of them is met 2^levels
	** times) */
	*sub = s->acc;
	memset(&s->acc, 0, sizeof s->acc);
	s->moved = true;
	return true;
}

/* resources and bases: files and directories, in order. */
static bool resources(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc)
{
	static const char *const keys[] = {"resources", "bases"};
	for (size_t k = 0; k < 2; k++) {
		const sl_knode *list = sl_knode_get(root, keys[k], NULL);
		for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
			const sl_knode *e = list->v[i];
			if (e->type != SL_NODE_SCALAR)
				return sl_kustomize__issue(c, "kustomize-invalid", e, "a resource is a path");
			if (sl_kustomize__remote(e->s))
				return sl_kustomize__issue_n(c, "kustomize-unsupported", e,
					       sl_arena_printf(c->a, "the resource: %s", e->s),
					       "remote resource: schedlint builds kustomizations without "
					       "the network, so this one's files are linted as plain files");
			char *p = sl_kustomize__join(dir, e->s);
			const char *what = sl_arena_printf(c->a, "accumulating resources from '%s'", e->s);
			/* a base, a file: never read outside the repository */
			if (!p || !what || !sl_kustomize__in_project(c, e, p, what)) {
				free(p);
				return false;
			}
			bool ok;
			size_t before = acc->n;
			char type = sl_kustomize__type_of(c->k, p);
			if (!type) {
				ok = sl_kustomize__missing(c, e, dir, p, what);
			} else if (type == 'd') {
				char *kp = sl_kustomize__kustomization_in(c->k, p);
				struct acc sub = {0};
				const char *notes = kp ? NULL :
						    sl_arena_printf(c->a, "kustomize: %s: unable to find "
								    "one of 'kustomization.yaml', "
								    "'kustomization.yml' or 'Kustomization' "
								    "in directory '%s'", what, p);
				const char *origin = c->origin;
				ok = kp ? sl_kustomize__origin_enter(c, e->s) && build_once(c, kp, e, &sub)
					: notes && sl_kustomize__issue_n(c, "kustomize-invalid", e, notes, "%s: the "
							   "directory holds no kustomization.yaml", what);
				c->origin = origin;
				for (size_t j = 0; ok && j < sub.n; j++) {
					ok = sl_kustomize__add_res(acc, sub.v[j].obj);
					if (ok)   /* its names and hash flag too */
						acc->v[acc->n - 1] = sub.v[j];
				}
				/* MergeAccumulator: its var set too (a name met twice refused) */
				for (size_t j = 0; ok && j < sub.n_vars; j++)
					ok = sl_kustomize__var_add(c, acc, &sub.vars[j]);
				ok = ok && sl_kustomize__cfg_merge(&acc->cfg, &sub.cfg);
				free(sub.v);
				free(sub.vars);
				sl_kustomize__cfg_free(&sub.cfg);
				free(kp);
			} else {
				struct kfile *f = sl_kustomize__input(c, e, dir, e->s, what);
				ok = f && sl_kustomize__add_file(c, f, e, acc) &&
				     sl_kustomize__track(c, acc, before, NULL, e, NULL);
			}
			ok = ok && sl_kustomize__unique_ids(c, acc, before, e);
			free(p);
			if (!ok)
				return false;
		}
	}
	return true;
}

bool sl_kustomize__patches(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc,
			   bool strategic_list)
{
	if (strategic_list) {
		const sl_knode *list = sl_knode_get(root, "patchesStrategicMerge", NULL);
		for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
			const sl_knode *e = list->v[i];
			bool inl = e->type == SL_NODE_SCALAR && memchr(e->s, '\n', e->len);
			sl_knode **docs;
			size_t n;
			if (e->type != SL_NODE_SCALAR || !sl_kustomize__patch_docs(c, dir, inl ? NULL : e, inl ? e : NULL, &docs, &n) ||
			    !sl_kustomize__apply_patch(c, acc, docs, n, NULL, NULL, e, FROM_PSM))
				return false;
		}
		const sl_knode *pl = sl_knode_get(root, "patches", NULL);
		for (size_t i = 0; pl && pl->type == SL_NODE_SEQ && i < pl->n; i++) {
			const sl_knode *e = pl->v[i];
			const sl_knode *path = sl_knode_get(e, "path", NULL), *inl = sl_knode_get(e, "patch", NULL);
			sl_knode **docs;
			size_t n;
			/* kustomize's PatchTransformer Config: an empty string is no patch */
			if (inl && inl->type == SL_NODE_SCALAR && !inl->len)
				inl = NULL;
			if (!path && !inl)
				return sl_kustomize__issue(c, "kustomize-invalid", e, "must specify one of "
							   "patch and path");
			if (path && inl)
				return sl_kustomize__issue(c, "kustomize-invalid", e, "patch and path "
							   "can't be set at the same time");
			if (!sl_kustomize__patch_docs(c, dir, path, path ? NULL : inl, &docs, &n))
				return false;
			if (!n)
				return sl_kustomize__issue(c, "kustomize-invalid", e, "illegally qualifies as "
							   "both an SM and JSON patch: the patch %s "
							   "holds no document", path ? path->s : "text");
			if (!sl_kustomize__apply_patch(c, acc, docs, n, sl_knode_get(e, "target", NULL),
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
			return sl_kustomize__issue(c, "kustomize-invalid", e, "a patchesJson6902 entry needs a target "
				     "and a path or a patch");
		if (!sl_kustomize__patch_docs(c, dir, path, path ? NULL : inl, &docs, &n) ||
		    !sl_kustomize__apply_patch(c, acc, docs, n, target, NULL, e, FROM_JSON6902))
			return false;
	}
	return true;
}

/* configurations: transformer configuration files, merged into acc's (their nameReference,
** varReference, commonLabels, commonAnnotations and namespace field specs are applied; a file
** with other field specs gets a notice at the key: those are not). */
static bool configurations(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc)
{
	size_t at;
	const sl_knode *list = sl_knode_get(root, "configurations", &at);
	bool partial = false;
	for (size_t i = 0; list && list->type == SL_NODE_SEQ && i < list->n; i++) {
		const sl_knode *e = list->v[i];
		const char *what = sl_arena_printf(c->a, "loading configuration '%s'", e->s);
		struct kfile *f = what ? sl_kustomize__input(c, e, dir, e->s, what) : NULL;
		if (!f || !f->src ||
		    !sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used,
					    sl_xstrdup(f->real)))
			return false;   /* a configuration file is the build's */
		for (size_t d = 0; d < f->tree.n_docs; d++) {
			if (!f->tree.docs[d]->root)
				continue;
			const sl_knode *doc = sl_kustomize__load_doc(c, f->tree.docs[d]->root, f->src, NULL);
			if (!doc || !sl_kustomize__cfg_read(c, doc, e, &acc->cfg))
				return false;
			static const char *const unapplied[] = {"namePrefix", "nameSuffix",
								"templateLabels", "images", "replicas",
								NULL};
			for (size_t u = 0; unapplied[u]; u++) {
				const sl_knode *l = sl_knode_get(doc, unapplied[u], NULL);
				partial = partial || (l && l->type == SL_NODE_SEQ && l->n);
			}
		}
	}
	return !partial || sl_kustomize__notice(c, root->k[at]);
}

/* A Component where a Kustomization belongs, or the reverse (kustomize's accumulateDirectory);
** a root may be either. dir: the kustomization's directory. */
static bool kind_checked(struct ctx *c, const sl_knode *kust, const sl_knode *ref, const char *dir,
			 bool component)
{
	if (!ref)
		return true;
	const char *kind = sl_knode_str(kust, "kind");
	bool is_component = kind && strcmp(kind, "Component") == 0;
	const char *got = kind && *kind ? kind : "Kustomization";
	if (component && !is_component)
		return sl_kustomize__issue_n(c, "kustomize-invalid", ref,
					     sl_arena_printf(c->a, "kustomize: accumulating components: "
							     "accumulateDirectory: \"expected kind "
							     "'Component' for path '%s' but got '%s'\"", dir,
							     got),
					     "expected kind 'Component' for path '%s' but got '%s'", ref->s,
					     got);
	if (!component && is_component)
		return sl_kustomize__issue_n(c, "kustomize-invalid", ref,
					     sl_arena_printf(c->a, "kustomize: accumulating resources: "
							     "expected kind != 'Component' for path '%s'",
							     dir),
					     "expected kind != 'Component' for path '%s': a Component "
					     "goes under components:", ref->s);
	return true;
}

/* A root's sortOptions, validated as kustomize's SortOrderTransformer does. */
static bool sort_options_checked(struct ctx *c, const sl_knode *kust)
{
	size_t at;
	const sl_knode *so = sl_knode_get(kust, "sortOptions", &at);
	if (!so)
		return true;
	const sl_knode *order = sl_knode_get(so, "order", NULL);
	const char *o = sl_knode_str(so, "order");
	const sl_knode *where = order ? order : kust->k[at];
	if (!o || (strcmp(o, "fifo") && strcmp(o, "legacy")))
		return sl_kustomize__issue(c, "kustomize-invalid", where, "the field "
					   "'sortOptions.order' must be one of [fifo, legacy]");
	if (strcmp(o, "fifo") == 0 && sl_knode_get(so, "legacySortOptions", NULL))
		return sl_kustomize__issue(c, "kustomize-invalid", where, "the field "
					   "'sortOptions.legacySortOptions' is set but the selected "
					   "sort order is 'fifo', not 'legacy'");
	return true;
}

/* False (kustomize-unsupported at v) when v, a scalar copied into every object built, is longer
** than what it becomes can be (253 for a name, 63 for a label value): the build is not made,
** rather than a megabyte copied into each of thousands of objects. */
static bool short_enough(struct ctx *c, const sl_knode *v, const char *what, size_t most,
			 const char *becomes)
{
	if (!v || v->type != SL_NODE_SCALAR || v->len <= most)
		return true;
	return sl_kustomize__issue(c, "kustomize-unsupported", v, "%s of %zu characters is longer "
				   "than %s can be (%zu): not built", what, v->len, becomes, most);
}

bool sl_kustomize__build_kust(struct ctx *c, const char *kpath, const sl_knode *ref,
			      struct acc *acc, bool component)
{
	pthread_mutex_lock(&c->k->lock);
	c->k->n_made++;
	pthread_mutex_unlock(&c->k->lock);
	if (c->depth + 1 > c->deepest)
		c->deepest = c->depth + 1;
	if (++c->depth > 64) {
		c->depth--;
		c->unstable++;
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "kustomizations include each other in a cycle");
	}
	struct kfile *f = sl_kustomize__load_for(c, kpath);
	if (!f)
		return false;
	/* the kustomization itself is read by its build (a broken one is kustomize-invalid) */
	if (f->src && !sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
		return false;
	bool ok = true;
	const sl_node *doc = f->src && f->tree.n_docs ? f->tree.docs[0]->root : NULL;
	const sl_knode *raw = doc ? sl_kustomize__load_doc(c, doc, f->src, NULL) : NULL;
	if (!raw) {
		c->depth--;
		if (doc)
			return false;   /* a limit crossed (said in the file), or out of memory */
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "%s is not a kustomization "
					   "(a YAML mapping)", kpath);
	}
	char *kdir = sl_path_dir(kpath);
	const sl_knode *root = kdir ? sl_kustomize__decode(c, raw, kdir, ref) : NULL;
	free(kdir);
	if (!root) {
		c->depth--;
		return false;   /* refused as kustomize refuses it (decode.c) */
	}
	for (size_t i = 0; i < root->n; i++) {
		const sl_knode *k = root->k[i], *v = root->v[i];
		if (sl_kustomize__in(k->s, supported_keys) ||
		    (v->type != SL_NODE_SCALAR && !v->n))
			continue;   /* an empty list of plugins builds as none */
		if (sl_kustomize__in(k->s, unapplied_keys)) {
			if (!sl_kustomize__notice(c, k)) {
				c->depth--;
				return false;
			}
			continue;
		}
		c->depth--;
		if (ref)   /* a base that cannot be built: the overlay's entry for it says so */
			return sl_kustomize__issue_n(c, "kustomize-unsupported", ref,
				       sl_arena_printf(c->a, "the base: %s", kpath), "this base uses "
				       "%s, which schedlint does not build: the overlay's files are "
				       "linted as plain files", k->s);
		return sl_kustomize__issue(c, "kustomize-unsupported", k, "%s is not built by schedlint (plugins "
			     "and Helm charts need kustomize itself): this kustomization's files are "
			     "linted as plain files", k->s);
	}
	char *dir = sl_path_dir(kpath);
	if (!dir)
		return false;
	if (!kind_checked(c, root, ref, dir, component) || (!ref && !sort_options_checked(c, root))) {
		free(dir);
		c->depth--;
		return false;
	}
	/* kustomize's accumulateTarget: resources, generators, local-config objects dropped,
	** components, then the transformers */
	const sl_knode *gopts = sl_knode_get(root, "generatorOptions", NULL);
	if (!ref && !component) {   /* the root's buildMetadata is its bases' too */
		c->build_metadata = sl_knode_get(root, "buildMetadata", NULL);
		c->origin = c->build_metadata && c->build_metadata->type == SL_NODE_SEQ &&
			    c->build_metadata->n ? "" : NULL;
	}
	ok = resources(c, root, dir, acc) && configurations(c, root, dir, acc);
	size_t made = acc->n;   /* what each generator adds gets its origin */
	ok = ok && sl_kustomize__generate(c, acc, sl_knode_get(root, "configMapGenerator", NULL), gopts, "ConfigMap", dir) &&
	     sl_kustomize__track(c, acc, made, kpath, NULL, "ConfigMapGenerator");
	made = acc->n;
	ok = ok && sl_kustomize__generate(c, acc, sl_knode_get(root, "secretGenerator", NULL), gopts, "Secret", dir) &&
	     sl_kustomize__track(c, acc, made, kpath, NULL, "SecretGenerator");
	const sl_knode *comps = sl_knode_get(root, "components", NULL);
	for (size_t i = 0; ok && comps && i < comps->n; i++) {
		const sl_knode *e = comps->v[i];
		char *p = e->type == SL_NODE_SCALAR ? sl_kustomize__join(dir, e->s) : NULL;
		const char *what = p ? sl_arena_printf(c->a, "accumulating components from '%s'", e->s)
				     : NULL;
		if (p && what && !sl_kustomize__in_project(c, e, p, what)) {
			free(p);
			ok = false;
			break;
		}
		char *kp = p ? sl_kustomize__kustomization_in(c->k, p) : NULL;
		const char *origin = c->origin;
		ok = kp ? sl_kustomize__origin_enter(c, e->s) && sl_kustomize__build_kust(c, kp, e, acc, true)
		   : p && what && !sl_kustomize__type_of(c->k, p) ? sl_kustomize__missing(c, e, dir, p, what)
		   : sl_kustomize__issue(c, "kustomize-invalid", e, "a component is a directory with a "
			   "kustomization.yaml (kind: Component)");
		c->origin = origin;
		free(kp);
		free(p);
	}
	ok = ok && sl_kustomize__patches(c, root, dir, acc, true);
	const sl_knode *ns = sl_knode_get(root, "namespace", NULL);
	if (ok && ns && ns->type == SL_NODE_SCALAR && ns->len)
		ok = sl_kustomize__set_namespace(c, acc, ns);
	const sl_knode *pre = sl_knode_get(root, "namePrefix", NULL), *suf = sl_knode_get(root, "nameSuffix", NULL);
	ok = ok && short_enough(c, pre, "namePrefix", 253, "a Kubernetes name") &&
	     short_enough(c, suf, "nameSuffix", 253, "a Kubernetes name");
	const sl_knode *lbl = sl_knode_get(root, "commonLabels", NULL);
	for (size_t i = 0; ok && lbl && lbl->type == SL_NODE_MAP && i < lbl->n; i++)
		ok = short_enough(c, lbl->v[i], "a commonLabels value", 63, "a label value");
	/* an object's annotations hold at most 256 KiB in all (apimachinery's
	** TotalAnnotationSizeLimitB): commonAnnotations past that is copied into every object */
	const sl_knode *ann = sl_knode_get(root, "commonAnnotations", NULL);
	for (size_t i = 0, sum = 0; ok && ann && ann->type == SL_NODE_MAP && i < ann->n; i++) {
		sum += ann->k[i]->len + (ann->v[i]->type == SL_NODE_SCALAR ? ann->v[i]->len : 0);
		if (sum > 256 * 1024)
			ok = sl_kustomize__issue(c, "kustomize-unsupported", ann->v[i], "commonAnnotations "
						 "of more than 256 KiB, what an object's annotations can "
						 "hold in all: not built");
	}
	if (ok && (pre || suf))
		ok = sl_kustomize__rename_all(c, acc, pre, suf);
	const sl_knode *cl = sl_knode_get(root, "commonLabels", NULL);
	if (ok && cl && cl->type == SL_NODE_MAP)
		ok = sl_kustomize__add_labels(c->a, acc, cl, true, true, NULL);
	const sl_knode *labels = sl_knode_get(root, "labels", NULL);
	for (size_t i = 0; ok && labels && labels->type == SL_NODE_SEQ && i < labels->n; i++) {
		const sl_knode *e = labels->v[i], *pairs = sl_knode_get(e, "pairs", NULL);
		const char *sel = sl_knode_str(e, "includeSelectors"), *tpl = sl_knode_str(e, "includeTemplates");
		const sl_knode *fields = sl_knode_get(e, "fields", NULL);
		for (size_t f = 0; ok && fields && fields->type == SL_NODE_SEQ && f < fields->n; f++)
			ok = sl_kustomize__fs_short(c, fields->v[f], sl_knode_str(fields->v[f], "path"));
		if (ok && pairs && pairs->type == SL_NODE_MAP)
			ok = sl_kustomize__add_labels(c->a, acc, pairs, sel && strcmp(sel, "true") == 0,
					tpl && strcmp(tpl, "true") == 0, fields);
	}
	const sl_knode *ca = sl_knode_get(root, "commonAnnotations", NULL);
	if (ok && ca && ca->type == SL_NODE_MAP)
		ok = sl_kustomize__add_annotations(c->a, acc, ca);
	ok = ok && sl_kustomize__patches(c, root, dir, acc, false) &&
	     sl_kustomize__set_replicas(c, acc, sl_knode_get(root, "replicas", NULL));
	const sl_knode *images = sl_knode_get(root, "images", NULL);
	for (size_t i = 0; ok && images && images->type == SL_NODE_SEQ && i < acc->n; i++)
		ok = sl_kustomize__images_in(c, acc->v[i].obj, images);
	ok = ok && sl_kustomize__replacements(c, acc, sl_knode_get(root, "replacements", NULL), dir) &&
	     sl_kustomize__track_transformers(c, root, kpath, acc) &&
	     sl_kustomize__vars(c, acc, sl_knode_get(root, "vars", NULL));
	free(dir);
	c->depth--;
	return ok;
}
