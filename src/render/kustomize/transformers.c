/* SPDX-License-Identifier: Apache-2.0
** transformers.c: kustomize's builtin transformers: labels and annotations (with their
** field specs), name prefixes and suffixes, namespace, replicas, images. */
#include "render/kustomize/internal.h"

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
	{"|NetworkPolicy|", "spec/ingress/from/podSelector/matchLabels", false, true, false},
	{"|NetworkPolicy|", "spec/egress/to/podSelector/matchLabels", false, true, false},
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
** selectors, the templates with templates (commonLabels: both), and the fields of the field
** specs fields (a labels entry's `fields`: path, create, and the group, version and kind it is
** for; NULL: none); with selectors, the commonLabels field specs acc's configurations add. */
/* Sets the pairs of map pairs at the field specs of l that match obj (a configuration's). */
static bool set_specs(sl_arena *a, sl_knode *obj, const struct sl_kustomize__fslist *l,
		      const sl_knode *pairs)
{
	struct sl_kustomize__gvk gvk;   /* labels never set these */
	sl_kustomize__gvk_of(obj, &gvk);
	for (size_t f = 0; f < l->n; f++) {
		if (!sl_kustomize__fs_matches_gvk(&l->v[f], &gvk))
			continue;
		for (size_t p = 0; p < pairs->n; p++)
			if (!set_path(a, obj, l->v[f].path, pairs->k[p]->s, pairs->v[p], l->v[f].create))
				return false;
	}
	return true;
}

bool sl_kustomize__add_labels(sl_arena *a, struct acc *acc, const sl_knode *labels, bool selectors,
			      bool templates, const sl_knode *fields)
{
	for (size_t i = 0; i < acc->n; i++) {
		if (selectors && !set_specs(a, acc->v[i].obj, &acc->cfg.cat[CAT_LABELS], labels))
			return false;
		for (size_t f = 0; fields && fields->type == SL_NODE_SEQ && f < fields->n; f++) {
			const sl_knode *e = fields->v[f];
			const char *create = sl_knode_str(e, "create");
			struct sl_kustomize__fs fs = {sl_knode_str(e, "group"), sl_knode_str(e, "version"),
						      sl_knode_str(e, "kind"), sl_knode_str(e, "path"),
						      create && strcmp(create, "true") == 0};
			if (!fs.path || !sl_kustomize__fs_matches(&fs, acc->v[i].obj))
				continue;
			for (size_t l = 0; l < labels->n; l++)
				if (!set_path(a, acc->v[i].obj, fs.path, labels->k[l]->s, labels->v[l],
					      fs.create))
					return false;
		}
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

bool sl_kustomize__add_annotations(sl_arena *a, struct acc *acc, const sl_knode *ann)
{
	static const char *const tmpl = "|ReplicationController|Deployment|ReplicaSet|DaemonSet|"
					"StatefulSet|Job|";
	for (size_t i = 0; i < acc->n; i++) {
		if (!set_specs(a, acc->v[i].obj, &acc->cfg.cat[CAT_ANNOTATIONS], ann))
			return false;
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

/* namePrefix / nameSuffix on metadata.name (not on CRDs, APIServices and Namespaces, as
** kustomize), each keeping the name it changes among the resource's previous ids and itself
** among its prefixes or suffixes; the references to it are fixed once the root is built
** (nameref.c). */
bool sl_kustomize__rename_all(struct ctx *c, struct acc *acc, const sl_knode *prefix,
			      const sl_knode *suffix)
{
	for (size_t i = 0; i < acc->n; i++) {
		sl_knode *o = acc->v[i].obj;
		const char *kind = sl_knode_str(o, "kind");
		if (sl_kustomize__in(kind, (const char *const[]){"CustomResourceDefinition", "Namespace", NULL}))
			continue;
		char g[256];
		const char *ver;
		sl_kustomize__group_version(o, g, sizeof g, &ver);
		if (sl_kustomize__in(kind, (const char *const[]){"APIService", NULL}) &&
		    strcmp(g, "apiregistration.k8s.io") == 0)
			continue;
		sl_knode *md = sl_knode_get(o, "metadata", NULL);
		size_t at;
		sl_knode *nm = sl_knode_get(md, "name", &at);
		if (!nm || nm->type != SL_NODE_SCALAR)
			continue;
		const char *p = prefix && prefix->type == SL_NODE_SCALAR ? prefix->s : "";
		const char *s = suffix && suffix->type == SL_NODE_SCALAR ? suffix->s : "";
		if ((*p && (!sl_kustomize__push_prev(c, &acc->v[i], nm->s) ||
			    !sl_kustomize__push_affix(c, &acc->v[i], p, true))) ||
		    (*s && (!sl_kustomize__push_prev(c, &acc->v[i], *p ? sl_arena_printf(c->a, "%s%s", p, nm->s)
						      : nm->s) ||
			    !sl_kustomize__push_affix(c, &acc->v[i], s, false))))
			return false;
		char *name = sl_arena_printf(c->a, "%s%s%s", p, nm->s, s);
		sl_knode *nn = name ? sl_knode_new(c->a, SL_NODE_SCALAR, nm->src, nm->start, nm->end) : NULL;
		if (!nn)
			return false;
		nn->s = name;
		nn->len = strlen(name);
		nn->quoted = nm->quoted;
		md->v[at] = nn;
	}
	return true;
}

/* The current name of acc's resource i ("" when it has none). */
static const char *name_at(const struct acc *acc, size_t i)
{
	const char *name = sl_kustomize__name_of(acc->v[i].obj);
	return name ? name : "";
}

bool sl_kustomize__set_namespace(struct ctx *c, struct acc *acc, const sl_knode *ns)
{
	/* the resources' names, each kept current (a Namespace takes ns as its name): only a
	** resource of the same name may have the same id */
	const char **names = acc->n ? sl_arena_alloc(c->a, acc->n * sizeof *names) : NULL;
	if (acc->n && !names)
		return false;
	for (size_t i = 0; i < acc->n; i++)
		names[i] = name_at(acc, i);
	for (size_t i = 0; i < acc->n; i++) {
		sl_knode *o = acc->v[i].obj;
		if (!sl_kustomize__store_prev(c, &acc->v[i]))
			return false;
		/* kustomize's namespace field specs besides metadata.namespace (builtinpluginconsts
		** namespace.go): a Namespace's own name, the service of an APIService and of a CRD's
		** conversion webhook */
		const char *kind = sl_knode_str(o, "kind"), *av = sl_knode_str(o, "apiVersion");
		av = av ? av : "";
		if ((sl_kustomize__in(kind, (const char *const[]){"Namespace", NULL}) && strcmp(av, "v1") == 0 &&
		     !set_path(c->a, o, "metadata", "name", ns, true)) ||
		    (sl_kustomize__in(kind, (const char *const[]){"APIService", NULL}) &&
		     strncmp(av, "apiregistration.k8s.io/", 23) == 0 &&
		     !set_path(c->a, o, "spec/service", "namespace", ns, true)) ||
		    (sl_kustomize__in(kind, (const char *const[]){"CustomResourceDefinition", NULL}) &&
		     strncmp(av, "apiextensions.k8s.io/", 21) == 0 &&
		     !set_path(c->a, o, "spec/conversion/webhook/clientConfig/service", "namespace", ns,
			       false)))
			return false;
		/* the namespace field specs its configurations add (a webhook's service namespace,
		** kubebuilder's kustomizeconfig.yaml) */
		const struct sl_kustomize__fslist *extra = &acc->cfg.cat[CAT_NAMESPACE];
		for (size_t f = 0; f < extra->n; f++) {
			const char *path = extra->v[f].path, *slash = strrchr(path, '/');
			char *parent = slash ? sl_arena_strndup(c->a, path, (size_t)(slash - path)) : "";
			if (!sl_kustomize__fs_matches(&extra->v[f], o))
				continue;
			if (!parent || !set_path(c->a, o, parent, slash ? slash + 1 : path, ns,
						 extra->v[f].create))
				return false;
		}
		names[i] = name_at(acc, i);
		if (sl_kustomize__in(kind, sl_kustomize__cluster_scoped))
			continue;
		sl_knode *md = sl_knode_path(c->a, o, (const char *const[]){"metadata", NULL}, true,
					     ns->src, ns->start, ns->end);
		if (md && md->type != SL_NODE_MAP)
			return sl_kustomize__issue(c, "kustomize-invalid", md, "metadata is not a "
						   "mapping: the namespace cannot be set");
		sl_knode *v = sl_knode_copy(c->a, ns);
		if (!md || !v || !sl_knode_set(c->a, md, "namespace", v))
			return false;
		for (size_t j = 0; j < acc->n; j++)
			if (j != i && strcmp(names[j], names[i]) == 0 &&
			    sl_kustomize__same_id(o, acc->v[j].obj)) {
				const char *name = sl_kustomize__name_of(o);
				return sl_kustomize__issue(c, "kustomize-invalid", ns, "namespace "
							   "transformation produces ID conflict: two "
							   "%s named %s in namespace %s", kind ? kind : "?",
							   name ? name : "?", ns->s);
			}
	}
	return true;
}

bool sl_kustomize__set_replicas(struct ctx *c, struct acc *acc, const sl_knode *list)
{
	static const char *const scalable[] = {"Deployment", "StatefulSet", "ReplicaSet",
					       "ReplicationController", NULL};
	for (size_t r = 0; list && r < list->n; r++) {
		const sl_knode *e = list->v[r];
		const char *name = sl_knode_str(e, "name");
		const sl_knode *count = sl_knode_get(e, "count", NULL);
		if (!name || !count)
			return sl_kustomize__issue(c, "kustomize-invalid", e, "a replicas entry needs name and count");
		bool scaled = false;
		for (size_t i = 0; i < acc->n; i++) {
			sl_knode *o = acc->v[i].obj;
			const char *kind = sl_knode_str(o, "kind");
			if (!sl_kustomize__in(kind, scalable) || !sl_kustomize__known_as(&acc->v[i], NULL, NULL, kind, name, NULL))
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
			return notes && sl_kustomize__issue_n(c, "kustomize-invalid", e, notes, "replicas: no "
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

bool sl_kustomize__images_in(struct ctx *c, sl_knode *n, const sl_knode *images)
{
	for (size_t i = 0; i < n->n; i++) {
		sl_knode *v = n->v[i];
		if (n->type == SL_NODE_MAP && v->type == SL_NODE_SEQ &&
		    (strcmp(n->k[i]->s, "containers") == 0 || strcmp(n->k[i]->s, "initContainers") == 0))
			for (size_t j = 0; j < v->n; j++)
				if (v->v[j]->type == SL_NODE_MAP && !set_image(c, v->v[j], images))
					return false;
		if (v->type != SL_NODE_SCALAR && !sl_kustomize__images_in(c, v, images))
			return false;
	}
	return true;
}
