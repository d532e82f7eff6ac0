/* SPDX-License-Identifier: Apache-2.0
** nameref.c: the references to renamed objects fixed once a root is built, as kustomize's
** FixBackReferences does after the hash suffixes (api/internal/accumulator/
** namereferencetransformer.go, api/filters/nameref/nameref.go): for every object and every
** field the nameReference configuration names for its kind (fields.c), the value is looked up
** among the objects that object may refer to, by their previous names (never their current
** ones: an object no transformer renamed is never a candidate), narrowed by the referral kind,
** a roleRef's kind, the referrer's namespace, then the name prefixes and suffixes they share;
** the one left gives its current name (and, for a {name, namespace} map, its namespace). */
#include "render/kustomize/internal.h"

struct refs {
	struct ctx *c;
	struct acc *acc;
	size_t referrer;          /* its index in acc */
	const struct sl_kustomize__ref *target;   /* the kind referred to */
	const struct sl_kustomize__fs *fs;
	bool *cand;               /* acc->n: the objects the referrer may refer to */
	size_t *pick;             /* room for acc->n indices */
	bool failed;              /* an issue was reported: the build fails */
};

static bool cluster_scoped(const sl_knode *obj)
{
	return sl_kustomize__in(sl_knode_str(obj, "kind"), sl_kustomize__cluster_scoped);
}

static const char *ens_of(const sl_knode *obj)
{
	return sl_kustomize__eff_ns(sl_knode_str(obj, "kind"), sl_kustomize__ns_of(obj));
}

/* True when an id of kind (group from the object's apiVersion) is selected by group/version/kind
** (each NULL or "": any), resid's Gvk.IsSelected. */
static bool gvk_selected(const sl_knode *obj, const char *kind, const char *group,
			 const char *version, const char *want_kind)
{
	char g[256];
	const char *v;
	sl_kustomize__group_version(obj, g, sizeof g, &v);
	return (!group || !*group || strcmp(group, g) == 0) &&
	       (!version || !*version || strcmp(version, v) == 0) &&
	       (!want_kind || !*want_kind || strcmp(want_kind, kind) == 0);
}

/* True when a previous id of r is selected by group/version/kind. */
static bool prev_selected(const struct kres *r, const char *group, const char *version,
			  const char *kind)
{
	for (size_t i = 0; i < r->n_prev; i++)
		if (gvk_selected(r->obj, r->prev[i].kind, group, version, kind))
			return true;
	return false;
}

/* True when r had name (previousNameMatches: its previous ids only). */
static bool prev_named(const struct kres *r, const char *name)
{
	for (size_t i = 0; i < r->n_prev; i++)
		if (strcmp(r->prev[i].name, name) == 0)
			return true;
	return false;
}

/* utils.SameEndingSubSlice: the shorter list is the end of the longer (an empty one only of an
** empty one). */
static bool same_ending(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	if (na > nb) {
		const char *const *t = a;
		a = b;
		b = t;
		size_t tn = na;
		na = nb;
		nb = tn;
	}
	if (!na)
		return nb == 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i + nb - na]) != 0)
			return false;
	return true;
}

/* Resource.PrefixesSuffixesEquals. */
static bool affixes_equal(const struct kres *r, const struct kres *o, bool allow_empty)
{
	if (allow_empty)
		return (!r->n_pre || !o->n_pre ||
			same_ending(r->pre, r->n_pre, o->pre, o->n_pre)) &&
		       (!r->n_suf || !o->n_suf ||
			same_ending(r->suf, r->n_suf, o->suf, o->n_suf));
	return same_ending(r->pre, r->n_pre, o->pre, o->n_pre) &&
	       same_ending(r->suf, r->n_suf, o->suf, o->n_suf);
}

/* Keeps the indices j of pick (*n of them) for which cond holds. */
#define SIEVE(pick, n, cond) do { \
		size_t w_ = 0; \
		for (size_t k_ = 0; k_ < *(n); k_++) { \
			size_t j = (pick)[k_]; \
			if (cond) \
				(pick)[w_++] = j; \
		} \
		*(n) = w_; \
	} while (0)

/* kustomize's selectReferral: the one object old names, or SIZE_MAX (none; or several, then an
** issue at `at`, f->failed, the build failed). same_ns: candidates with the same namespace too are identical. */
static size_t select_referral(struct refs *f, const char *old, size_t *n, bool same_ns,
			      const sl_knode *at)
{
	struct acc *acc = f->acc;
	const struct kres *referrer = &acc->v[f->referrer];
	size_t *pick = f->pick;
	SIEVE(pick, n, prev_named(&acc->v[j], old));
	SIEVE(pick, n, prev_selected(&acc->v[j], f->target->group, f->target->version,
				     f->target->kind));
	size_t len = strlen(f->fs->path);
	if (len >= 12 && strcmp(f->fs->path + len - 12, "roleRef/name") == 0) {
		const sl_knode *rr = sl_knode_get(referrer->obj, "roleRef", NULL);
		const char *g = sl_knode_str(rr, "apiGroup"), *k = sl_knode_str(rr, "kind");
		if (g && k)
			SIEVE(pick, n, prev_selected(&acc->v[j], g, NULL, k));
	}
	if (!cluster_scoped(referrer->obj)) {
		const char *ens = ens_of(referrer->obj);
		SIEVE(pick, n, cluster_scoped(acc->v[j].obj) ||
			       strcmp(sl_knode_str(acc->v[j].obj, "kind"), "ServiceAccount") == 0 ||
			       strcmp(ens_of(acc->v[j].obj), ens) == 0);
	}
	if (*n == 1)
		return pick[0];
	SIEVE(pick, n, affixes_equal(&acc->v[j], referrer, true));
	if (*n > 1)
		SIEVE(pick, n, affixes_equal(&acc->v[j], referrer, false));
	if (*n == 1)
		return pick[0];
	if (*n == 0)
		return SIZE_MAX;
	bool identical = true;
	const sl_knode *first = acc->v[pick[0]].obj;
	for (size_t k = 1; k < *n && identical; k++) {
		const sl_knode *o = acc->v[pick[k]].obj;
		const char *n0 = sl_kustomize__name_of(first), *n1 = sl_kustomize__name_of(o);
		const char *s0 = sl_kustomize__ns_of(first), *s1 = sl_kustomize__ns_of(o);
		identical = strcmp(n0 ? n0 : "", n1 ? n1 : "") == 0 &&
			    (!same_ns || strcmp(s0 ? s0 : "", s1 ? s1 : "") == 0);
	}
	if (identical)
		return pick[0];
	sl_strbuf ids = {0};
	for (size_t k = 0; k < *n; k++) {
		const sl_knode *o = acc->v[pick[k]].obj;
		const char *kind = sl_knode_str(o, "kind"), *nm = sl_kustomize__name_of(o);
		const char *ns = sl_kustomize__ns_of(o);
		sl_strbuf_addf(&ids, "%s%s/%s.%s", k ? ", " : "", kind ? kind : "?", nm ? nm : "?",
				 ns && *ns ? ns : "[noNs]");
	}
	const char *list = !ids.failed && ids.s ? sl_arena_printf(f->c->a, "%s", ids.s) : NULL;
	sl_strbuf_free(&ids);
	f->failed = true;
	if (!list)
		return SIZE_MAX;
	sl_kustomize__issue_n(f->c, "kustomize-invalid", at,
			      sl_arena_printf(f->c->a, "kustomize: updating name reference in '%s' "
					      "field: found multiple possible referrals: %s\nkubectl "
					      "kustomize refuses the build", f->fs->path, list),
			      "found multiple possible referrals for '%s': %s", old, list);
	return SIZE_MAX;
}

/* The candidates of referrer f->referrer (SubsetThatCouldBeReferencedByResource) into pick. */
static size_t candidates(struct refs *f)
{
	size_t n = 0;
	for (size_t j = 0; j < f->acc->n; j++)
		if (f->cand[j])
			f->pick[n++] = j;
	return n;
}

/* A copy of scalar old's node with text s (a reference keeps its own place in its file). */
static sl_knode *renamed(sl_arena *a, const sl_knode *old, const char *s)
{
	sl_knode *n = sl_knode_scalar(a, s, old->src, old->start, old->end);
	if (n)
		n->quoted = old->quoted;
	return n;
}

static bool set_scalar(struct refs *f, sl_knode **slot)
{
	sl_knode *v = *slot;
	if (v->type != SL_NODE_SCALAR || sl_knode_is_null(v))
		return true;
	size_t n = candidates(f);
	size_t j = select_referral(f, v->s, &n, false, v);
	if (j == SIZE_MAX)
		return !f->failed;
	const char *name = sl_kustomize__name_of(f->acc->v[j].obj);
	if (!name || strcmp(name, v->s) == 0)
		return true;
	return (*slot = renamed(f->c->a, v, name)) != NULL;
}

/* A {name, namespace} map (RBAC subjects, a webhook's service): its candidates narrowed by the
** namespace it names (by their first namespace, else their current one). */
static bool set_mapping(struct refs *f, sl_knode *m)
{
	size_t at;
	sl_knode *nm = sl_knode_get(m, "name", &at);
	if (!nm || nm->type != SL_NODE_SCALAR)
		return true;
	const char *ns = sl_knode_str(m, "namespace");
	size_t n = 0;
	if (!ns) {
		n = candidates(f);
	} else {
		for (int pass = 0; pass < 2 && !n; pass++)
			for (size_t j = 0; j < f->acc->n; j++) {
				const struct kres *r = &f->acc->v[j];
				const char *cur = ens_of(r->obj);
				const char *org = r->n_prev ? r->prev[0].ns : cur;
				/* the namespace as written ("" and none are "default") */
				const char *want = *ns ? ns : "default";
				if (f->cand[j] && strcmp(pass ? cur : org, want) == 0)
					f->pick[n++] = j;
			}
	}
	size_t j = select_referral(f, nm->s, &n, true, nm);
	if (j == SIZE_MAX)
		return !f->failed;
	const sl_knode *obj = f->acc->v[j].obj;
	const char *name = sl_kustomize__name_of(obj), *rns = sl_kustomize__ns_of(obj);
	if (!name || (strcmp(name, nm->s) == 0 && (!rns || !*rns)))
		return true;
	sl_knode *nn = renamed(f->c->a, nm, name);
	if (!nn)
		return false;
	m->v[at] = nn;
	if (!rns || !*rns)
		return true;
	size_t nat;
	sl_knode *old = sl_knode_get(m, "namespace", &nat);
	sl_knode *nv = old ? renamed(f->c->a, old, rns) : sl_knode_scalar(f->c->a, rns, nm->src,
									   nm->start, nm->end);
	if (!nv)
		return false;
	if (old) {
		m->v[nat] = nv;
		return true;
	}
	return sl_knode_set(f->c->a, m, "namespace", nv);
}

static bool set(struct sl_kustomize__fswalk *w, sl_knode *parent, size_t at)
{
	struct refs *f = w->arg;
	sl_knode *v = parent->v[at];
	if (sl_knode_is_null(v))
		return true;
	if (v->type == SL_NODE_SCALAR)
		return set_scalar(f, &parent->v[at]);
	if (v->type == SL_NODE_MAP)
		return set_mapping(f, v);
	for (size_t i = 0; i < v->n; i++) {
		bool ok = v->v[i]->type == SL_NODE_MAP ? set_mapping(f, v->v[i]) :
			  set_scalar(f, &v->v[i]);
		if (!ok)
			return false;
	}
	return true;
}

/* getNamespacesForRoleBinding: the namespaces of a RoleBinding's ServiceAccount subjects
** (not a ClusterRoleBinding's), into ns (n of them, in the build's arena); a subject whose
** namespace is there but no string is refused, as kustomize refuses it. */
static bool binding_namespaces(struct ctx *c, const sl_knode *referrer, const char ***ns, size_t *n)
{
	*n = 0;
	const char *kind = sl_knode_str(referrer, "kind");
	const sl_knode *subjects = sl_knode_get(referrer, "subjects", NULL);
	if (!kind || strcmp(kind, "RoleBinding") || !subjects || subjects->type != SL_NODE_SEQ)
		return true;
	*ns = sl_arena_alloc(c->a, (subjects->n + 1) * sizeof **ns);
	if (!*ns)
		return false;
	for (size_t i = 0; i < subjects->n; i++) {
		const sl_knode *sub = subjects->v[i];
		size_t at;
		const sl_knode *v = sl_knode_get(sub, "namespace", &at);
		const char *sk = sl_knode_str(sub, "kind");
		if (!v || !sk || strcmp(sk, "ServiceAccount"))
			continue;
		if (v->type != SL_NODE_SCALAR || sl_knode_is_null(v)) {
			const char *name = sl_kustomize__name_of(referrer);
			return sl_kustomize__issue(c, "kustomize-invalid", sub->k[at], "Invalid Input: "
						   "namespace is blank for resource "
						   "\"RoleBinding/%s\": a subject's namespace is "
						   "empty", name ? name : "?");
		}
		(*ns)[(*n)++] = v->s;
	}
	return true;
}

bool sl_kustomize__fix_refs(struct ctx *c, struct acc *acc)
{
	const struct sl_kustomize__cfg *cfg = sl_kustomize__builtin_cfg();
	if (!cfg)
		return false;
	if (!acc->n)
		return true;
	struct refs f = {c, acc, 0, NULL, NULL, NULL, NULL, false};
	f.cand = sl_arena_zalloc(c->a, acc->n * sizeof *f.cand);
	f.pick = sl_arena_alloc(c->a, acc->n * sizeof *f.pick);
	if (!f.cand || !f.pick)
		return false;
	for (size_t i = 0; i < acc->n && !f.failed; i++) {
		const sl_knode *r = acc->v[i].obj;
		struct sl_kustomize__gvk gvk;   /* the field specs below never set these */
		sl_kustomize__gvk_of(r, &gvk);
		f.referrer = i;
		bool all = cluster_scoped(r);
		const char *ens = ens_of(r);
		const char **bns = NULL;
		size_t n_bns = 0;
		if (!all && !binding_namespaces(c, r, &bns, &n_bns))
			return false;
		for (size_t j = 0; j < acc->n; j++) {
			const sl_knode *o = acc->v[j].obj;
			const char *ons = sl_kustomize__ns_of(o);
			f.cand[j] = all || cluster_scoped(o) || strcmp(ens_of(o), ens) == 0;
			for (size_t b = 0; b < n_bns && !f.cand[j]; b++)
				f.cand[j] = strcmp(bns[b], ons ? ons : "") == 0;
		}
		for (size_t e = 0; e < cfg->n_refs + acc->cfg.n_refs && !f.failed; e++) {
			/* the builtin configuration's, then its configurations' */
			f.target = e < cfg->n_refs ? &cfg->refs[e] : &acc->cfg.refs[e - cfg->n_refs];
			for (size_t s = 0; s < f.target->fs.n && !f.failed; s++) {
				f.fs = &f.target->fs.v[s];
				struct sl_kustomize__fswalk w = {c->a, f.fs, -1, r, set, &f, NULL};
				if (!sl_kustomize__fs_matches_gvk(f.fs, &gvk))
					continue;
				if (!sl_kustomize__fs_walk(&w, acc->v[i].obj) && !w.error)
					return false;
			}
		}
	}
	return !f.failed || true;
}
