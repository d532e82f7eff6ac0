/* SPDX-License-Identifier: Apache-2.0
** fields.c: kustomize's transformer configuration, the field specs that say where each builtin
** transformer writes (api/internal/konfig/builtinpluginconsts at kustomize v5.5.0, written here
** in a shape of our own: the pod spec's places times the pod-spec kinds), the fields a
** kustomization's `configurations:` files add to them (merged up from the bases, as kustomize's
** ResAccumulator.MergeConfig), and the walk of a field spec's path through an object
** (api/filters/fieldspec: a field made where missing when the spec says create, "[]" for a
** list's items). The name references (nameref.c) and vars (vars.c) read the nameReference and
** varReference parts, commonLabels and commonAnnotations the configurations' additions to
** theirs; the other builtin categories are tables transformers.c does not read yet (it has its
** own). */
#include "render/kustomize/internal.h"

/* --- the builtin configuration -------------------------------------------------------------- */

/* Where a kind keeps its pod spec, and the kinds that carry one: the fields below a pod spec are
** named once for all of them, as kustomize's tables name them for each. */
struct podkind { const char *group, *version, *kind, *spec; };

static const struct podkind podkinds[] = {
	{NULL, "v1", "Pod", "spec"},
	{NULL, NULL, "PodTemplate", "template/spec"},
	{NULL, NULL, "Deployment", "spec/template/spec"},
	{NULL, NULL, "ReplicaSet", "spec/template/spec"},
	{NULL, NULL, "DaemonSet", "spec/template/spec"},
	{NULL, NULL, "StatefulSet", "spec/template/spec"},
	{NULL, NULL, "Job", "spec/template/spec"},
	{NULL, NULL, "CronJob", "spec/jobTemplate/spec/template/spec"},
	{NULL, NULL, "ReplicationController", "spec/template/spec"},
};

/* A reference below a pod spec, and the pod-spec kinds it is named for (a bit per podkinds
** entry; kustomize's tables are not uniform). */
struct podref { const char *path; unsigned kinds; };

#define PK(i) (1u << (i))
#define PK_CM (PK(0) | PK(1) | PK(2) | PK(3) | PK(4) | PK(5) | PK(6) | PK(7))
#define PK_SA (PK(0) | PK(2) | PK(4) | PK(5) | PK(6) | PK(7) | PK(8))

static const struct podref configmap_refs[] = {
	{"volumes/configMap/name", PK_CM},
	{"containers/env/valueFrom/configMapKeyRef/name", PK_CM},
	{"initContainers/env/valueFrom/configMapKeyRef/name", PK_CM},
	{"containers/envFrom/configMapRef/name", PK_CM},
	{"initContainers/envFrom/configMapRef/name", PK_CM},
	{"volumes/projected/sources/configMap/name", PK_CM},
	{NULL, 0}};
static const struct podref secret_refs[] = {
	{"volumes/secret/secretName", PK_CM},
	{"containers/env/valueFrom/secretKeyRef/name", PK_CM},
	{"initContainers/env/valueFrom/secretKeyRef/name", PK_CM},
	{"containers/envFrom/secretRef/name", PK_CM},
	{"initContainers/envFrom/secretRef/name", PK_CM},
	{"imagePullSecrets/name", PK_CM},
	{"volumes/projected/sources/secret/name", PK_CM},
	{NULL, 0}};
static const struct podref sa_refs[] = {{"serviceAccountName", PK_SA}, {NULL, 0}};
static const struct podref pvc_refs[] = {{"volumes/persistentVolumeClaim/claimName", PK_SA},
					 {NULL, 0}};
static const struct podref pc_refs[] = {{"priorityClassName", PK_SA}, {NULL, 0}};

/* A field spec in kustomize's own words: group, version, kind (NULL: any), path, create. */
#define FS(g, v, k, p, c) {g, v, k, p, c}

/* nameReference: the referral target's group, version and kind, what refers to it (besides the
** pod-spec references above). */
struct nameref_entry {
	const char *group, *version, *kind;
	const struct podref *pod;
	struct sl_kustomize__fs fs[16];
};

static const struct nameref_entry namerefs[] = {
	{NULL, NULL, "Deployment", NULL, {FS(NULL, NULL, "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", false)}},
	{NULL, NULL, "ReplicationController", NULL, {FS(NULL, NULL, "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", false)}},
	{NULL, NULL, "ReplicaSet", NULL, {FS(NULL, NULL, "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", false)}},
	{NULL, NULL, "StatefulSet", NULL, {FS(NULL, NULL, "HorizontalPodAutoscaler", "spec/scaleTargetRef/name", false)}},
	{NULL, "v1", "ConfigMap", configmap_refs, {
		FS(NULL, NULL, "Node", "spec/configSource/configMap", false),
		FS(NULL, NULL, "Role", "rules/resourceNames", false),
		FS(NULL, NULL, "ClusterRole", "rules/resourceNames", false),
		FS(NULL, NULL, "Ingress", "metadata/annotations/nginx.ingress.kubernetes.io\\/fastcgi-params-configmap", false)}},
	{NULL, "v1", "Secret", secret_refs, {
		FS(NULL, NULL, "Ingress", "spec/tls/secretName", false),
		FS(NULL, NULL, "Ingress", "metadata/annotations/ingress.kubernetes.io\\/auth-secret", false),
		FS(NULL, NULL, "Ingress", "metadata/annotations/nginx.ingress.kubernetes.io\\/auth-secret", false),
		FS(NULL, NULL, "Ingress", "metadata/annotations/nginx.ingress.kubernetes.io\\/auth-tls-secret", false),
		FS(NULL, NULL, "ServiceAccount", "imagePullSecrets/name", false),
		FS(NULL, NULL, "StorageClass", "parameters/secretName", false),
		FS(NULL, NULL, "StorageClass", "parameters/adminSecretName", false),
		FS(NULL, NULL, "StorageClass", "parameters/userSecretName", false),
		FS(NULL, NULL, "StorageClass", "parameters/secretRef", false),
		FS(NULL, NULL, "Role", "rules/resourceNames", false),
		FS(NULL, NULL, "ClusterRole", "rules/resourceNames", false),
		FS("serving.knative.dev", "v1", "Service", "spec/template/spec/containers/env/valueFrom/secretKeyRef/name", false),
		FS(NULL, NULL, "PersistentVolume", "spec/azureFile/secretName", false)}},
	{NULL, "v1", "Service", NULL, {
		FS("apps", NULL, "StatefulSet", "spec/serviceName", false),
		FS(NULL, NULL, "Ingress", "spec/rules/http/paths/backend/serviceName", false),
		FS(NULL, NULL, "Ingress", "spec/backend/serviceName", false),
		FS(NULL, NULL, "Ingress", "spec/rules/http/paths/backend/service/name", false),
		FS(NULL, NULL, "Ingress", "spec/defaultBackend/service/name", false),
		FS("apiregistration.k8s.io", NULL, "APIService", "spec/service/name", false),
		FS("admissionregistration.k8s.io", NULL, "ValidatingWebhookConfiguration", "webhooks/clientConfig/service", false),
		FS("admissionregistration.k8s.io", NULL, "MutatingWebhookConfiguration", "webhooks/clientConfig/service", false)}},
	{"rbac.authorization.k8s.io", NULL, "Role", NULL, {
		FS("rbac.authorization.k8s.io", NULL, "RoleBinding", "roleRef/name", false)}},
	{"rbac.authorization.k8s.io", NULL, "ClusterRole", NULL, {
		FS("rbac.authorization.k8s.io", NULL, "RoleBinding", "roleRef/name", false),
		FS("rbac.authorization.k8s.io", NULL, "ClusterRoleBinding", "roleRef/name", false)}},
	{NULL, "v1", "ServiceAccount", sa_refs, {
		FS("rbac.authorization.k8s.io", NULL, "RoleBinding", "subjects", false),
		FS("rbac.authorization.k8s.io", NULL, "ClusterRoleBinding", "subjects", false)}},
	{NULL, "v1", "PersistentVolumeClaim", pvc_refs, {{0}}},
	{NULL, "v1", "PersistentVolume", NULL, {
		FS(NULL, NULL, "PersistentVolumeClaim", "spec/volumeName", false),
		FS(NULL, NULL, "ClusterRole", "rules/resourceNames", false)}},
	{"storage.k8s.io", "v1", "StorageClass", NULL, {
		FS(NULL, NULL, "PersistentVolume", "spec/storageClassName", false),
		FS(NULL, NULL, "PersistentVolumeClaim", "spec/storageClassName", false),
		FS(NULL, NULL, "StatefulSet", "spec/volumeClaimTemplates/spec/storageClassName", false)}},
	{"scheduling.k8s.io", "v1", "PriorityClass", pc_refs, {{0}}},
	{"networking.k8s.io/v1", "v1", "IngressClass", NULL, {
		FS(NULL, NULL, "Ingress", "spec/ingressClassName", false)}},
	{"admissionregistration.k8s.io", NULL, "ValidatingAdmissionPolicy", NULL, {
		FS("admissionregistration.k8s.io", NULL, "ValidatingAdmissionPolicyBinding", "spec/policyName", false)}},
};

/* The label field specs (commonlabels.go and metadatalabels.go). */
#define AFFINITY "spec/template/spec/affinity/"
#define TERM "DuringSchedulingIgnoredDuringExecution"
#define SELECTOR_SPECS(kind) \
	FS("apps", NULL, kind, AFFINITY "podAffinity/preferred" TERM "/podAffinityTerm/labelSelector/matchLabels", false), \
	FS("apps", NULL, kind, AFFINITY "podAffinity/required" TERM "/labelSelector/matchLabels", false), \
	FS("apps", NULL, kind, AFFINITY "podAntiAffinity/preferred" TERM "/podAffinityTerm/labelSelector/matchLabels", false), \
	FS("apps", NULL, kind, AFFINITY "podAntiAffinity/required" TERM "/labelSelector/matchLabels", false), \
	FS("apps", NULL, kind, "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels", false)
#define METADATA_LABELS \
	FS(NULL, NULL, NULL, "metadata/labels", true), \
	FS(NULL, "v1", "ReplicationController", "spec/template/metadata/labels", true), \
	FS(NULL, NULL, "Deployment", "spec/template/metadata/labels", true), \
	FS(NULL, NULL, "ReplicaSet", "spec/template/metadata/labels", true), \
	FS(NULL, NULL, "DaemonSet", "spec/template/metadata/labels", true), \
	FS("apps", NULL, "StatefulSet", "spec/template/metadata/labels", true), \
	FS("apps", NULL, "StatefulSet", "spec/volumeClaimTemplates[]/metadata/labels", true), \
	FS("batch", NULL, "Job", "spec/template/metadata/labels", true), \
	FS("batch", NULL, "CronJob", "spec/jobTemplate/metadata/labels", true), \
	FS("batch", NULL, "CronJob", "spec/jobTemplate/spec/template/metadata/labels", true)

static const struct sl_kustomize__fs common_labels[] = {
	FS(NULL, "v1", "Service", "spec/selector", true),
	FS(NULL, "v1", "ReplicationController", "spec/selector", true),
	FS(NULL, NULL, "Deployment", "spec/selector/matchLabels", true),
	SELECTOR_SPECS("Deployment"),
	FS(NULL, NULL, "ReplicaSet", "spec/selector/matchLabels", true),
	FS(NULL, NULL, "DaemonSet", "spec/selector/matchLabels", true),
	FS("apps", NULL, "StatefulSet", "spec/selector/matchLabels", true),
	SELECTOR_SPECS("StatefulSet"),
	FS("batch", NULL, "Job", "spec/selector/matchLabels", false),
	FS("batch", NULL, "CronJob", "spec/jobTemplate/spec/selector/matchLabels", false),
	FS("policy", NULL, "PodDisruptionBudget", "spec/selector/matchLabels", false),
	FS("networking.k8s.io", NULL, "NetworkPolicy", "spec/podSelector/matchLabels", false),
	FS("networking.k8s.io", NULL, "NetworkPolicy", "spec/ingress/from/podSelector/matchLabels", false),
	FS("networking.k8s.io", NULL, "NetworkPolicy", "spec/egress/to/podSelector/matchLabels", false),
	METADATA_LABELS, {0}};
static const struct sl_kustomize__fs template_labels[] = {METADATA_LABELS, {0}};
static const struct sl_kustomize__fs common_annotations[] = {
	FS(NULL, NULL, NULL, "metadata/annotations", true),
	FS(NULL, "v1", "ReplicationController", "spec/template/metadata/annotations", true),
	FS(NULL, NULL, "Deployment", "spec/template/metadata/annotations", true),
	FS(NULL, NULL, "ReplicaSet", "spec/template/metadata/annotations", true),
	FS(NULL, NULL, "DaemonSet", "spec/template/metadata/annotations", true),
	FS(NULL, NULL, "StatefulSet", "spec/template/metadata/annotations", true),
	FS("batch", NULL, "Job", "spec/template/metadata/annotations", true),
	FS("batch", NULL, "CronJob", "spec/jobTemplate/metadata/annotations", true),
	FS("batch", NULL, "CronJob", "spec/jobTemplate/spec/template/metadata/annotations", true),
	{0}};
static const struct sl_kustomize__fs name_specs[] = {FS(NULL, NULL, NULL, "metadata/name", false), {0}};
static const struct sl_kustomize__fs namespace_specs[] = {
	FS(NULL, NULL, "Namespace", "metadata/name", true),
	FS("apiregistration.k8s.io", NULL, "APIService", "spec/service/namespace", true),
	FS("apiextensions.k8s.io", NULL, "CustomResourceDefinition", "spec/conversion/webhook/clientConfig/service/namespace", false),
	{0}};
static const struct sl_kustomize__fs image_specs[] = {
	FS(NULL, NULL, NULL, "spec/containers[]/image", true),
	FS(NULL, NULL, NULL, "spec/initContainers[]/image", true),
	FS(NULL, NULL, NULL, "spec/template/spec/containers[]/image", true),
	FS(NULL, NULL, NULL, "spec/template/spec/initContainers[]/image", true),
	{0}};
static const struct sl_kustomize__fs replica_specs[] = {
	FS(NULL, NULL, "Deployment", "spec/replicas", true),
	FS(NULL, NULL, "ReplicationController", "spec/replicas", true),
	FS(NULL, NULL, "ReplicaSet", "spec/replicas", true),
	FS(NULL, NULL, "StatefulSet", "spec/replicas", true),
	{0}};
/* varReference, besides the pod specs' (varreference.go) */
static const struct sl_kustomize__fs var_specs[] = {
	FS(NULL, NULL, "Deployment", "spec/template/metadata/annotations", false),
	FS(NULL, NULL, "Ingress", "spec/rules/host", false),
	FS(NULL, NULL, "Ingress", "spec/tls/hosts", false),
	FS(NULL, NULL, "Ingress", "spec/tls/secretName", false),
	FS(NULL, NULL, "PersistentVolume", "spec/nfs/server", false),
	FS(NULL, NULL, "Service", "spec/ports/port", false),
	FS(NULL, NULL, "Service", "spec/ports/targetPort", false),
	FS(NULL, NULL, "StatefulSet", "spec/volumeClaimTemplates/spec/nfs/server", false),
	FS(NULL, NULL, "CronJob", "spec/jobTemplate/spec/template/volumes/nfs/server", false),
	FS(NULL, NULL, NULL, "metadata/labels", false),
	FS(NULL, NULL, NULL, "metadata/annotations", false),
	{0}};
static const char *const var_pod_paths[] = {
	"containers/args", "containers/command", "containers/env/value",
	"containers/volumeMounts/mountPath", "initContainers/args", "initContainers/command",
	"initContainers/env/value", "initContainers/volumeMounts/mountPath", NULL};

/* The builtin configuration, made once (the pod-spec combinations expanded). */
static struct sl_kustomize__cfg builtin;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static bool builtin_oom;

static bool add_fs(struct sl_kustomize__fslist *l, struct sl_kustomize__fs fs)
{
	if (!sl_kustomize__room(&l->v, l->n, &l->cap, sizeof *l->v))
		return false;
	l->v[l->n++] = fs;
	return true;
}

static bool add_all(struct sl_kustomize__fslist *l, const struct sl_kustomize__fs *fs)
{
	for (; fs->path; fs++)
		if (!add_fs(l, *fs))
			return false;
	return true;
}

static char *joined(const char *a, const char *b)
{
	return sl_xprintf("%s/%s", a, b);   /* kept for the life of the program */
}

/* The pod-spec references refs, for each pod-spec kind it names, into l. */
static bool add_pod(struct sl_kustomize__fslist *l, const struct podref *refs)
{
	for (; refs && refs->path; refs++)
		for (size_t k = 0; k < sizeof podkinds / sizeof *podkinds; k++) {
			if (!(refs->kinds & PK(k)))
				continue;
			char *p = joined(podkinds[k].spec, refs->path);
			if (!p || !add_fs(l, (struct sl_kustomize__fs){podkinds[k].group,
					     podkinds[k].version, podkinds[k].kind, p, false}))
				return false;
		}
	return true;
}

static void make_builtin(void)
{
	struct sl_kustomize__cfg *b = &builtin;
	bool ok = add_all(&b->cat[CAT_PREFIX], name_specs) && add_all(&b->cat[CAT_SUFFIX], name_specs) &&
		  add_all(&b->cat[CAT_LABELS], common_labels) &&
		  add_all(&b->cat[CAT_TEMPLATE_LABELS], template_labels) &&
		  add_all(&b->cat[CAT_ANNOTATIONS], common_annotations) &&
		  add_all(&b->cat[CAT_NAMESPACE], namespace_specs) &&
		  add_all(&b->cat[CAT_IMAGES], image_specs) && add_all(&b->cat[CAT_REPLICAS], replica_specs) &&
		  add_all(&b->cat[CAT_VARREF], var_specs);
	/* the pod specs' var references: Pod, CronJob and the templates of the workload kinds */
	static const char *const var_kinds[] = {"Pod", "CronJob", "DaemonSet", "Deployment", "Job",
						"ReplicaSet", "StatefulSet", NULL};
	for (size_t k = 0; ok && var_kinds[k]; k++) {
		const char *spec = strcmp(var_kinds[k], "Pod") == 0 ? "spec" :
				   strcmp(var_kinds[k], "CronJob") == 0 ? "spec/jobTemplate/spec/template/spec" :
				   "spec/template/spec";
		for (size_t p = 0; ok && var_pod_paths[p]; p++) {
			char *path = joined(spec, var_pod_paths[p]);
			ok = path && add_fs(&b->cat[CAT_VARREF], (struct sl_kustomize__fs){NULL, NULL,
					    var_kinds[k], path, false});
		}
		if (ok && strcmp(var_kinds[k], "StatefulSet") && strcmp(var_kinds[k], "CronJob")) {
			char *path = joined(spec, "volumes/nfs/server");
			ok = path && add_fs(&b->cat[CAT_VARREF], (struct sl_kustomize__fs){NULL, NULL,
					    var_kinds[k], path, false});
		}
	}
	for (size_t i = 0; ok && i < sizeof namerefs / sizeof *namerefs; i++) {
		const struct nameref_entry *e = &namerefs[i];
		struct sl_kustomize__ref r = {e->group, e->version, e->kind, {0}};
		ok = add_pod(&r.fs, e->pod);
		for (size_t j = 0; ok && j < 16 && e->fs[j].path; j++)
			ok = add_fs(&r.fs, e->fs[j]);
		ok = ok && sl_kustomize__room(&b->refs, b->n_refs, &b->cap_refs, sizeof *b->refs);
		if (ok)
			b->refs[b->n_refs++] = r;
	}
	builtin_oom = !ok;
}

const struct sl_kustomize__cfg *sl_kustomize__builtin_cfg(void)
{
	pthread_once(&builtin_once, make_builtin);
	return builtin_oom ? NULL : &builtin;
}

/* --- a configuration's own field specs -------------------------------------------------- */

/* True when field spec x selects what y selects, kustomize's effectivelyEquals: the same path,
** x's group, version and kind each empty or y's. */
static bool same_fs(const struct sl_kustomize__fs *x, const struct sl_kustomize__fs *y)
{
	return strcmp(x->path, y->path) == 0 &&
	       (!x->group || !*x->group || (y->group && strcmp(x->group, y->group) == 0)) &&
	       (!x->version || !*x->version || (y->version && strcmp(x->version, y->version) == 0)) &&
	       (!x->kind || !*x->kind || (y->kind && strcmp(x->kind, y->kind) == 0));
}

static bool has_fs(const struct sl_kustomize__fslist *l, const struct sl_kustomize__fs *fs)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_fs(&l->v[i], fs))
			return true;
	return false;
}

/* Adds fs to list cat of extra (the fields a kustomization's configurations add; the builtin
** ones are not repeated). */
static bool merge_fs(struct sl_kustomize__cfg *extra, int cat, const struct sl_kustomize__fs *fs)
{
	const struct sl_kustomize__cfg *b = sl_kustomize__builtin_cfg();
	if (!b)
		return false;
	if (has_fs(&b->cat[cat], fs) || has_fs(&extra->cat[cat], fs))
		return true;
	return add_fs(&extra->cat[cat], *fs);
}

static bool merge_ref(struct sl_kustomize__cfg *extra, const struct sl_kustomize__ref *r)
{
	struct sl_kustomize__ref *to = NULL;
	for (size_t i = 0; i < extra->n_refs && !to; i++) {
		struct sl_kustomize__ref *e = &extra->refs[i];
		if (strcmp(e->kind ? e->kind : "", r->kind ? r->kind : "") == 0 &&
		    strcmp(e->group ? e->group : "", r->group ? r->group : "") == 0 &&
		    strcmp(e->version ? e->version : "", r->version ? r->version : "") == 0)
			to = e;
	}
	if (!to) {
		if (!sl_kustomize__room(&extra->refs, extra->n_refs, &extra->cap_refs, sizeof *extra->refs))
			return false;
		to = &extra->refs[extra->n_refs++];
		*to = (struct sl_kustomize__ref){r->group, r->version, r->kind, {0}};
	}
	for (size_t i = 0; i < r->fs.n; i++)
		if (!has_fs(&to->fs, &r->fs.v[i]) && !add_fs(&to->fs, r->fs.v[i]))
			return false;
	return true;
}

bool sl_kustomize__cfg_merge(struct sl_kustomize__cfg *into, const struct sl_kustomize__cfg *from)
{
	for (int c = 0; c < CAT_N; c++)
		for (size_t i = 0; i < from->cat[c].n; i++)
			if (!merge_fs(into, c, &from->cat[c].v[i]))
				return false;
	for (size_t i = 0; i < from->n_refs; i++)
		if (!merge_ref(into, &from->refs[i]))
			return false;
	return true;
}

void sl_kustomize__cfg_free(struct sl_kustomize__cfg *c)
{
	for (int i = 0; i < CAT_N; i++)
		free(c->cat[i].v);
	for (size_t i = 0; i < c->n_refs; i++)
		free(c->refs[i].fs.v);
	free(c->refs);
	memset(c, 0, sizeof *c);
}

/* The names of the categories in a configuration file (transformerconfig.go). */
static const char *const cat_names[CAT_N] = {
	[CAT_PREFIX] = "namePrefix", [CAT_SUFFIX] = "nameSuffix", [CAT_LABELS] = "commonLabels",
	[CAT_TEMPLATE_LABELS] = "templateLabels", [CAT_LABEL_FIELDS] = "labels",
	[CAT_ANNOTATIONS] = "commonAnnotations", [CAT_NAMESPACE] = "namespace",
	[CAT_VARREF] = "varReference", [CAT_IMAGES] = "images", [CAT_REPLICAS] = "replicas"};

/* One field spec from its YAML (group, version, kind, path, create). */
static bool read_fs(const sl_knode *n, struct sl_kustomize__fs *fs)
{
	const char *create = sl_knode_str(n, "create");
	*fs = (struct sl_kustomize__fs){sl_knode_str(n, "group"), sl_knode_str(n, "version"),
					sl_knode_str(n, "kind"), sl_knode_str(n, "path"),
					create && strcmp(create, "true") == 0};
	return fs->path != NULL;
}

bool sl_kustomize__fs_short(struct ctx *c, const sl_knode *n, const char *path)
{
	size_t levels = 0;
	for (const char *p = path; p && *p && levels <= SL_MAX_DEPTH; p++)
		levels += *p == '/';
	return levels <= SL_MAX_DEPTH ||
	       sl_kustomize__limit(c, n, sl_arena_printf(c->a, "a field spec's path of more than "
							 "%d fields, the most levels schedlint "
							 "parses", SL_MAX_DEPTH));
}

bool sl_kustomize__cfg_read(struct ctx *c, const sl_knode *doc, const sl_knode *at,
			    struct sl_kustomize__cfg *into)
{
	if (!doc || sl_knode_is_null(doc))
		return true;
	if (doc->type != SL_NODE_MAP)
		return sl_kustomize__issue(c, "kustomize-invalid", at, "a transformer configuration "
					   "is a YAML mapping");
	for (int cat = 0; cat < CAT_N; cat++) {
		const sl_knode *l = sl_knode_get(doc, cat_names[cat], NULL);
		for (size_t i = 0; l && l->type == SL_NODE_SEQ && i < l->n; i++) {
			struct sl_kustomize__fs fs;
			if (read_fs(l->v[i], &fs) && (!sl_kustomize__fs_short(c, l->v[i], fs.path) ||
						      !merge_fs(into, cat, &fs)))
				return false;
		}
	}
	const sl_knode *refs = sl_knode_get(doc, "nameReference", NULL);
	for (size_t i = 0; refs && refs->type == SL_NODE_SEQ && i < refs->n; i++) {
		const sl_knode *e = refs->v[i], *specs = sl_knode_get(e, "fieldSpecs", NULL);
		struct sl_kustomize__ref r = {sl_knode_str(e, "group"), sl_knode_str(e, "version"),
					      sl_knode_str(e, "kind"), {0}};
		bool ok = true;
		for (size_t j = 0; ok && specs && specs->type == SL_NODE_SEQ && j < specs->n; j++) {
			struct sl_kustomize__fs fs;
			ok = !read_fs(specs->v[j], &fs) ||
			     (sl_kustomize__fs_short(c, specs->v[j], fs.path) && add_fs(&r.fs, fs));
		}
		ok = ok && merge_ref(into, &r);
		free(r.fs.v);
		if (!ok)
			return false;
	}
	return true;
}

/* --- a field spec's walk ------------------------------------------------------------------ */

/* True when fs applies to obj (fieldspec.go's isMatchGVK): its kind, group and version, each
** when given. */
bool sl_kustomize__fs_matches(const struct sl_kustomize__fs *fs, const sl_knode *obj)
{
	const char *kind = sl_knode_str(obj, "kind");
	if (fs->kind && *fs->kind && (!kind || strcmp(fs->kind, kind)))
		return false;
	struct sl_kustomize__gvk g;
	sl_kustomize__gvk_of(obj, &g);
	return sl_kustomize__fs_matches_gvk(fs, &g);
}

void sl_kustomize__gvk_of(const sl_knode *obj, struct sl_kustomize__gvk *out)
{
	out->kind = sl_knode_str(obj, "kind");
	sl_kustomize__group_version(obj, out->group, sizeof out->group, &out->version);
}

/* sl_kustomize__fs_matches with obj's kind, group and version taken already. */
bool sl_kustomize__fs_matches_gvk(const struct sl_kustomize__fs *fs,
				  const struct sl_kustomize__gvk *obj)
{
	if (fs->kind && *fs->kind && (!obj->kind || strcmp(fs->kind, obj->kind)))
		return false;
	return (!fs->group || !*fs->group || strcmp(fs->group, obj->group) == 0) &&
	       (!fs->version || !*fs->version || strcmp(fs->version, obj->version) == 0);
}

/* The next segment of a field spec's path at *p (a "\/" is a slash within it) into seg; false
** at the end. */
static bool segment(const char **p, char *seg, size_t cap)
{
	if (!**p)
		return false;
	size_t w = 0;
	const char *s = *p;
	for (; *s && *s != '/'; s++) {
		if (*s == '\\' && s[1] == '/')
			s++;
		if (w + 1 < cap)
			seg[w++] = *s;
	}
	seg[w] = '\0';
	*p = *s ? s + 1 : s;
	return true;
}

static bool walk(struct sl_kustomize__fswalk *w, sl_knode *n, const char *path)
{
	if (!n || sl_knode_is_null(n))
		return true;
	if (n->type == SL_NODE_SEQ) {
		for (size_t i = 0; i < n->n; i++)
			if (!walk(w, n->v[i], path))
				return false;
		return true;
	}
	if (n->type != SL_NODE_MAP) {
		w->error = "expected sequence or mapping node";
		return false;
	}
	char seg[256];
	const char *rest = path;
	segment(&rest, seg, sizeof seg);
	size_t sl = strlen(seg);
	bool seq = sl > 2 && strcmp(seg + sl - 2, "[]") == 0;
	if (seq)
		seg[sl - 2] = '\0';
	bool last = !*rest;
	size_t at;
	sl_knode *next = sl_knode_get(n, seg, &at);
	bool create = w->fs->create && w->create_kind >= 0 && !seq;
	if ((!next || sl_knode_is_null(next)) && create) {
		/* made where missing: a map on the way, the setter's kind at the end */
		uint8_t t = last ? (uint8_t)w->create_kind : SL_NODE_MAP;
		next = sl_knode_new(w->a, t, w->origin->src, w->origin->start, w->origin->end);
		if (!next || !sl_knode_set(w->a, n, seg, next))
			return false;
		sl_knode_get(n, seg, &at);
	}
	if (!next)
		return true;
	if (last)
		return w->set(w, n, at);
	return walk(w, next, rest);
}

bool sl_kustomize__fs_walk(struct sl_kustomize__fswalk *w, sl_knode *obj)
{
	if (!sl_kustomize__fs_matches(w->fs, obj))
		return true;
	return walk(w, obj, w->fs->path);
}
