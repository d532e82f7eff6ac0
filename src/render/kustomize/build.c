/* SPDX-License-Identifier: Apache-2.0
** build.c: one kustomization built as kustomize v5 builds it (api/krusty, the builtin
** transformers in their order): its resources and components, then its generators,
** patches and transformers. */
#include "render/kustomize/internal.h"

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
bool sl_kustomize__remote(const char *s)
{
	return strstr(s, "://") || strncmp(s, "github.com/", 11) == 0 || strncmp(s, "git@", 4) == 0 ||
	       strstr(s, "?ref=");
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
			if (!p || !what) {
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
				ok = kp ? sl_kustomize__build_kust(c, kp, e, &sub, false)
					: notes && sl_kustomize__issue_n(c, "kustomize-invalid", e, notes, "%s: the "
							   "directory holds no kustomization.yaml", what);
				for (size_t j = 0; ok && j < sub.n; j++) {
					ok = sl_kustomize__add_res(acc, sub.v[j].obj);
					if (ok)   /* its names and hash flag too */
						acc->v[acc->n - 1] = sub.v[j];
				}
				free(sub.v);
				free(kp);
			} else {
				struct kfile *f = sl_kustomize__input(c, e, dir, e->s, what);
				ok = f && sl_kustomize__add_file(c, f, e, acc);
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
			if (!path && !inl)
				return sl_kustomize__issue(c, "kustomize-invalid", e, "a patch needs a path or a patch");
			if (!sl_kustomize__patch_docs(c, dir, path, path ? NULL : inl, &docs, &n) ||
			    !sl_kustomize__apply_patch(c, acc, docs, n, sl_knode_get(e, "target", NULL),
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
	if (++c->depth > 64) {
		c->depth--;
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "kustomizations include each other in a cycle");
	}
	struct kfile *f = sl_kustomize__load(c->k, kpath);
	if (!f)
		return false;
	/* the kustomization itself is read by its build (a broken one is kustomize-invalid) */
	if (f->src && !sl_kustomize__push_str(&c->b->used, &c->b->n_used, &c->b->cap_used, sl_xstrdup(f->real)))
		return false;
	bool ok = true;
	const sl_knode *root = f->src && f->tree.n_docs && f->tree.docs[0]->root ?
			       sl_knode_load(c->a, f->tree.docs[0]->root, f->src) : NULL;
	if (!root || root->type != SL_NODE_MAP) {
		c->depth--;
		return sl_kustomize__issue(c, "kustomize-invalid", ref, "%s is not a kustomization (a YAML mapping)",
			     kpath);
	}
	for (size_t i = 0; i < root->n; i++) {
		const sl_knode *k = root->k[i];
		if (k->type == SL_NODE_SCALAR && sl_kustomize__in(k->s, supported_keys))
			continue;
		if (k->type == SL_NODE_SCALAR && sl_kustomize__in(k->s, unapplied_keys)) {
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
	(void)component;   /* a Component builds into its includer's resources (acc), as kustomize */
	char *dir = sl_path_dir(kpath);
	if (!dir)
		return false;
	ok = resources(c, root, dir, acc);
	const sl_knode *comps = sl_knode_get(root, "components", NULL);
	for (size_t i = 0; ok && comps && i < comps->n; i++) {
		const sl_knode *e = comps->v[i];
		char *p = e->type == SL_NODE_SCALAR ? sl_kustomize__join(dir, e->s) : NULL;
		char *kp = p ? sl_kustomize__kustomization_in(c->k, p) : NULL;
		const char *what = p && !kp ? sl_arena_printf(c->a, "accumulating components from "
							      "'%s'", e->s) : NULL;
		ok = kp ? sl_kustomize__build_kust(c, kp, e, acc, true)
		   : p && what && !sl_kustomize__type_of(c->k, p) ? sl_kustomize__missing(c, e, dir, p, what)
		   : sl_kustomize__issue(c, "kustomize-invalid", e, "a component is a directory with a "
			   "kustomization.yaml (kind: Component)");
		free(kp);
		free(p);
	}
	const sl_knode *gopts = sl_knode_get(root, "generatorOptions", NULL);
	ok = ok && sl_kustomize__generate(c, acc, sl_knode_get(root, "configMapGenerator", NULL), gopts, "ConfigMap", dir) &&
	     sl_kustomize__generate(c, acc, sl_knode_get(root, "secretGenerator", NULL), gopts, "Secret", dir) &&
	     sl_kustomize__patches(c, root, dir, acc, true);
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
		ok = sl_kustomize__add_labels(c->a, acc, cl, true, true);
	const sl_knode *labels = sl_knode_get(root, "labels", NULL);
	for (size_t i = 0; ok && labels && labels->type == SL_NODE_SEQ && i < labels->n; i++) {
		const sl_knode *e = labels->v[i], *pairs = sl_knode_get(e, "pairs", NULL);
		const char *sel = sl_knode_str(e, "includeSelectors"), *tpl = sl_knode_str(e, "includeTemplates");
		if (pairs && pairs->type == SL_NODE_MAP)
			ok = sl_kustomize__add_labels(c->a, acc, pairs, sel && strcmp(sel, "true") == 0,
					tpl && strcmp(tpl, "true") == 0);
	}
	const sl_knode *ca = sl_knode_get(root, "commonAnnotations", NULL);
	if (ok && ca && ca->type == SL_NODE_MAP)
		ok = sl_kustomize__add_annotations(c->a, acc, ca);
	ok = ok && sl_kustomize__patches(c, root, dir, acc, false) &&
	     sl_kustomize__set_replicas(c, acc, sl_knode_get(root, "replicas", NULL));
	const sl_knode *images = sl_knode_get(root, "images", NULL);
	for (size_t i = 0; ok && images && images->type == SL_NODE_SEQ && i < acc->n; i++)
		ok = sl_kustomize__images_in(c, acc->v[i].obj, images);
	free(dir);
	c->depth--;
	return ok;
}
