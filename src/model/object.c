/* SPDX-License-Identifier: Apache-2.0
** object.c: apiVersion/kind dispatch, metadata, and the typed-field check every binder uses
** (sl_model_expect: the one place schema-type findings come from). */
#include <pthread.h>
#include <string.h>
#include "config.h"
#include "model/model.h"

struct kind_entry { const char *group; const char *kind; sl_kind id; const char *label; };

/* group is the apiVersion's part before '/' ("" for the core group "v1"). */
static const struct kind_entry kinds[] = {
	{"serving.kserve.io", "InferenceService", SL_KIND_INFERENCE_SERVICE, "InferenceService"},
	{"serving.kserve.io", "ServingRuntime", SL_KIND_SERVING_RUNTIME, "ServingRuntime"},
	{"serving.kserve.io", "ClusterServingRuntime", SL_KIND_CLUSTER_SERVING_RUNTIME,
	 "ClusterServingRuntime"},
	{"serving.kserve.io", "InferenceGraph", SL_KIND_INFERENCE_GRAPH, "InferenceGraph"},
	{"serving.kserve.io", "LLMInferenceService", SL_KIND_LLM_INFERENCE_SERVICE,
	 "LLMInferenceService"},
	{"serving.kserve.io", "LLMInferenceServiceConfig", SL_KIND_LLM_INFERENCE_SERVICE_CONFIG,
	 "LLMInferenceServiceConfig"},
	{"serving.knative.dev", "Service", SL_KIND_KNATIVE_SERVICE, "Knative Service"},
	{"serving.knative.dev", "Configuration", SL_KIND_KNATIVE_CONFIGURATION,
	 "Knative Configuration"},
	{"operator.knative.dev", "KnativeServing", SL_KIND_KNATIVE_SERVING, "KnativeServing"},
	{"", "ConfigMap", SL_KIND_CONFIGMAP, "ConfigMap"},
	{"", "Pod", SL_KIND_POD, "Pod"},
	{"", "Node", SL_KIND_NODE, "Node"},
	{"apps", "Deployment", SL_KIND_DEPLOYMENT, "Deployment"},
	{"apps", "StatefulSet", SL_KIND_STATEFULSET, "StatefulSet"},
	{"apps", "DaemonSet", SL_KIND_DAEMONSET, "DaemonSet"},
	{"apps", "ReplicaSet", SL_KIND_REPLICASET, "ReplicaSet"},
	{"batch", "Job", SL_KIND_JOB, "Job"},
	{"batch", "CronJob", SL_KIND_CRONJOB, "CronJob"},
	{"scheduling.k8s.io", "PriorityClass", SL_KIND_PRIORITY_CLASS, "PriorityClass"},
	{"mlops.seldon.io", "Server", SL_KIND_SELDON_SERVER, "Seldon Server"},
	{"mlops.seldon.io", "ServerConfig", SL_KIND_SELDON_SERVER_CONFIG, "Seldon ServerConfig"},
	{"mlops.seldon.io", "Model", SL_KIND_SELDON_MODEL, "Seldon Model"},
	{"resource.k8s.io", "ResourceClaim", SL_KIND_RESOURCE_CLAIM, "ResourceClaim"},
	{"resource.k8s.io", "ResourceClaimTemplate", SL_KIND_RESOURCE_CLAIM_TEMPLATE,
	 "ResourceClaimTemplate"},
};

const char *sl_kind_name(sl_kind k)
{
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (kinds[i].id == k)
			return kinds[i].label;
	return "object";
}

bool sl_kind_is_serving(sl_kind k)
{
	return k == SL_KIND_INFERENCE_SERVICE || k == SL_KIND_KNATIVE_SERVICE ||
	       k == SL_KIND_KNATIVE_CONFIGURATION || k == SL_KIND_SELDON_SERVER ||
	       k == SL_KIND_LLM_INFERENCE_SERVICE || k == SL_KIND_INFERENCE_GRAPH;
}

static bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

enum { N_KINDS = sizeof kinds / sizeof kinds[0] };
static uint32_t kinds_by_letter[26];   /* the entries of kinds[] whose name starts with 'A'+i */
static bool word_char[256];             /* letters and digits */
static pthread_once_t by_letter_once = PTHREAD_ONCE_INIT;

static void index_letters(void)
{
	_Static_assert(N_KINDS <= 32, "a kinds[] set is a 32-bit mask");
	for (size_t k = 0; k < N_KINDS; k++)
		kinds_by_letter[kinds[k].kind[0] - 'A'] |= (uint32_t)1 << k;
	for (int c = 0; c < 256; c++)
		word_char[c] = is_alnum((unsigned char)c);
}

uint64_t sl_kinds_named_in(const char *text, size_t len)
{
	return sl_kinds_named_in_until(text, len, NULL, 0);
}

uint64_t sl_kinds_named_in_until(const char *text, size_t len, const uint64_t *enough,
				 size_t n_enough)
{
	_Static_assert(SL_KIND__COUNT <= 64, "a kind set is a 64-bit mask");
	pthread_once(&by_letter_once, index_letters);
	if (memchr(text, '\\', len))
		return ~(uint64_t)0;
	uint64_t seen = 0;
	const unsigned char *t = (const unsigned char *)text;
	for (size_t i = 0; i < len;) {
		while (i < len && !word_char[t[i]])
			i++;
		size_t start = i;
		while (i < len && word_char[t[i]])
			i++;
		/* every kind name is a word that starts with a capital letter */
		unsigned letter = start < len ? (unsigned)(t[start] - 'A') : 26;
		if (letter >= 26)
			continue;
		for (uint32_t m = kinds_by_letter[letter]; m; m &= m - 1) {
			size_t k = (size_t)__builtin_ctz(m);
			if (strncmp(kinds[k].kind, (const char *)t + start, i - start) == 0 &&
			    kinds[k].kind[i - start] == '\0') {
				seen |= (uint64_t)1 << kinds[k].id;
				size_t e = 0;
				while (e < n_enough && (seen & enough[e]))
					e++;
				if (n_enough && e == n_enough)
					return seen;   /* the caller knows all it asked */
			}
		}
	}
	return seen;
}

static sl_kind lookup_kind(const char *api_version, const char *kind)
{
	const char *slash = strchr(api_version, '/');
	size_t glen = slash ? (size_t)(slash - api_version) : 0;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (strcmp(kinds[i].kind, kind) != 0)
			continue;
		if (strlen(kinds[i].group) == glen && strncmp(kinds[i].group, api_version, glen) == 0)
			return kinds[i].id;
	}
	return SL_KIND_UNKNOWN;
}

const char *sl_object_label(const sl_object *o, sl_arena *a)
{
	const char *l = sl_arena_printf(a, "%s %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)");
	return l ? l : "object";
}

const char *sl_unit_label(const sl_unit *u, sl_arena *a)
{
	const sl_object *o = u->obj;
	const char *l = u->name
		? sl_arena_printf(a, "%s %s, %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)", u->name)
		: sl_arena_printf(a, "%s %s", sl_kind_name(o->kind), o->name ? o->name : "(unnamed)");
	return l ? l : "unit";
}

static const char *type_word(enum sl_ftype t)
{
	switch (t) {
	case SL_T_MAP: case SL_T_STRMAP: return "a mapping";
	case SL_T_SEQ: case SL_T_SEQ_OF_MAP: return "a sequence";
	case SL_T_STR: return "a string";
	case SL_T_INT: return "an integer";
	case SL_T_BOOL: return "a boolean";
	case SL_T_QUANTITY: return "a quantity (string or number)";
	default: return "a value";
	}
}

static void report_type(sl_model_ctx *mc, const sl_node *at, const char *field, enum sl_ftype t,
			int quote_fix)
{
	const char *got = sl_node_kind_name(at);
	const char *article = got[0] == 'i' ? "an " : strcmp(got, "null") == 0 ? "" : "a ";
	const char *s = sl_scalar(at);
	char *msg;
	if (s && at->type == SL_NODE_SCALAR)
		msg = sl_arena_printf(mc->arena, "%s must be %s, not %s%s (%s%s%s)%s", field, type_word(t),
				      article, got, at->style == SL_STYLE_PLAIN ? "" : "\"", s,
				      at->style == SL_STYLE_PLAIN ? "" : "\"",
				      quote_fix ? ": quote it" : "");
	else
		msg = sl_arena_printf(mc->arena, "%s must be %s, not %s%s", field, type_word(t), article, got);
	if (mc->issue)
		mc->issue(mc->payload, "schema-type", at, msg ? msg : "wrong YAML type", quote_fix);
}

const sl_node *sl_model_expect(sl_model_ctx *mc, const sl_node *n, enum sl_ftype t, const char *field)
{
	const sl_node *v = sl_deref(n);
	if (!v)
		return NULL;
	if (v->type == SL_NODE_SCALAR && sl_scalar_type(v) == SL_Y_NULL)
		return NULL;
	/* An unrendered template ("{{ .Values.replicas }}") has no type yet: not reported, and
	** not bound (no rule can judge it either). */
	if (v->type == SL_NODE_SCALAR && sl_is_templated(v->u.scalar.s, v->u.scalar.len))
		return NULL;
	int ok;
	switch (t) {
	case SL_T_MAP: ok = v->type == SL_NODE_MAP; break;
	case SL_T_SEQ: ok = v->type == SL_NODE_SEQ; break;
	case SL_T_STR: ok = v->type == SL_NODE_SCALAR && sl_scalar_type(v) == SL_Y_STR; break;
	case SL_T_INT: ok = v->type == SL_NODE_SCALAR && sl_scalar_type(v) == SL_Y_INT; break;
	case SL_T_BOOL: ok = v->type == SL_NODE_SCALAR && sl_scalar_type(v) == SL_Y_BOOL; break;
	case SL_T_QUANTITY: {
		sl_yaml_type y = sl_scalar_type(v);
		ok = v->type == SL_NODE_SCALAR && (y == SL_Y_STR || y == SL_Y_INT || y == SL_Y_FLOAT);
		break;
	}
	case SL_T_STRMAP:
		ok = v->type == SL_NODE_MAP;
		if (ok) {
			size_t n;
			const sl_pair *pairs = sl_map_entries(v, &n);
			for (size_t i = 0; i < n; i++) {
				const sl_node *k = pairs[i].key;
				const sl_node *val = sl_deref(pairs[i].value);
				if (val->type == SL_NODE_SCALAR) {
					sl_yaml_type y = sl_scalar_type(val);
					if (y == SL_Y_STR || y == SL_Y_NULL ||
					    sl_is_templated(val->u.scalar.s, val->u.scalar.len))
						continue;
				}
				const char *kn = sl_scalar(k);
				char *f = sl_arena_printf(mc->arena, "the value of %s \"%s\"", field,
							  kn ? kn : "?");
				/* A bool or number can be quoted safely; a collection cannot. */
				int fix = val->type == SL_NODE_SCALAR && val == pairs[i].value && k->parent == v &&
					  !sl_node_tag(val);
				report_type(mc, val, f ? f : field, SL_T_STR, fix);
			}
		}
		break;
	case SL_T_SEQ_OF_MAP:
		ok = v->type == SL_NODE_SEQ;
		if (ok) {
			for (size_t i = 0; i < v->u.seq.n; i++) {
				const sl_node *it = sl_deref(v->u.seq.items[i]);
				if (it->type != SL_NODE_MAP) {
					char *f = sl_arena_printf(mc->arena, "%s[%zu]", field, i);
					report_type(mc, it, f ? f : field, SL_T_MAP, 0);
				}
			}
		}
		break;
	default:
		ok = 1;
	}
	if (!ok) {
		report_type(mc, v, field, t, 0);
		return NULL;
	}
	return v;
}

const sl_node *sl_model_field(sl_model_ctx *mc, const sl_node *map, const char *key, enum sl_ftype t)
{
	if (!map)
		return NULL;
	return sl_model_expect(mc, sl_map_get(map, key), t, key);
}

void sl_object_default_mode(sl_object *o, sl_mode m)
{
	if (!o->mode_defaulted || o->mode == m)
		return;
	for (size_t i = 0; i < o->n_units; i++)
		if (o->units[i].mode == o->mode)
			o->units[i].mode = m;
	o->mode = m;
}

bool sl_unit_builds_no_pod(const sl_unit *u)
{
	return u->mode == SL_MODE_MODELMESH && (u->role == SL_ROLE_PREDICTOR ||
						u->role == SL_ROLE_CANARY || u->role == SL_ROLE_WORKER);
}

sl_unit *sl_object_add_unit(sl_model_ctx *mc, sl_object *o, sl_role role, const char *name)
{
	/* Units are few per object: grow by copying (pointers to units are taken only after
	** binding has finished). */
	sl_unit *nu = sl_arena_alloc(mc->arena, (o->n_units + 1) * sizeof *nu);
	if (!nu)
		return NULL;
	if (o->n_units)
		memcpy(nu, o->units, o->n_units * sizeof *nu);
	sl_unit *u = &nu[o->n_units];
	memset(u, 0, sizeof *u);
	u->obj = o;
	u->role = role;
	u->name = name;
	u->mode = o->mode;
	u->min_replicas = -1;
	o->units = nu;
	o->n_units++;
	return u;
}

sl_err sl_object_bind(sl_model_ctx *mc, const sl_doc *doc, sl_object **out)
{
	*out = NULL;
	const sl_node *root = sl_deref(doc->root);
	if (!root || root->type != SL_NODE_MAP)
		return SL_OK;
	const char *kind = sl_scalar(sl_map_get(root, "kind"));
	const char *api = sl_scalar(sl_map_get(root, "apiVersion"));
	if (!kind || !api)
		return SL_OK;
	sl_kind k = lookup_kind(api, kind);
	if (k == SL_KIND_UNKNOWN)
		return SL_OK;
	sl_object *o = sl_arena_zalloc(mc->arena, sizeof *o);
	if (!o)
		return SL_ENOMEM;
	o->doc = doc;
	o->path = mc->path;
	o->root = root;
	o->kind = k;
	o->api_version = api;
	o->kind_name = kind;
	o->metadata = sl_model_field(mc, root, "metadata", SL_T_MAP);
	if (o->metadata) {
		o->name = sl_scalar(sl_model_field(mc, o->metadata, "name", SL_T_STR));
		o->namespace_ = sl_scalar(sl_model_field(mc, o->metadata, "namespace", SL_T_STR));
		o->labels = sl_model_field(mc, o->metadata, "labels", SL_T_STRMAP);
		o->annotations = sl_model_field(mc, o->metadata, "annotations", SL_T_STRMAP);
	}
	o->spec = sl_model_field(mc, root, "spec", SL_T_MAP);
	sl_err err = sl_object_bind_units(mc, o);
	if (err)
		return err;
	*out = o;
	return SL_OK;
}

sl_err sl_object_bind_units(sl_model_ctx *mc, sl_object *o)
{
	sl_err err;
	switch (o->kind) {
	case SL_KIND_INFERENCE_SERVICE:
	case SL_KIND_SERVING_RUNTIME:
	case SL_KIND_CLUSTER_SERVING_RUNTIME:
	case SL_KIND_INFERENCE_GRAPH:
	case SL_KIND_LLM_INFERENCE_SERVICE:
	case SL_KIND_LLM_INFERENCE_SERVICE_CONFIG:
		err = sl_model_bind_kserve(mc, o);
		break;
	case SL_KIND_KNATIVE_SERVICE:
	case SL_KIND_KNATIVE_CONFIGURATION:
	case SL_KIND_KNATIVE_SERVING:
		err = sl_model_bind_knative(mc, o);
		break;
	case SL_KIND_SELDON_SERVER:
	case SL_KIND_SELDON_SERVER_CONFIG:
	case SL_KIND_SELDON_MODEL:
		err = sl_model_bind_seldon(mc, o);
		break;
	default:
		err = sl_model_bind_core(mc, o);
		break;
	}
	return err;
}

bool sl_object_same(const sl_object *a, const sl_object *b)
{
	if (a == b)
		return true;
	if (!a || !b || !a->doc || !b->doc || a->doc->index != b->doc->index)
		return false;
	return a->path == b->path || (a->path && b->path && strcmp(a->path, b->path) == 0);
}
