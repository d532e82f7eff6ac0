/* SPDX-License-Identifier: Apache-2.0
** index.c: the project index. Objects are kept per kind so every cross-file question is a
** scan over the few objects of one kind, never over all documents. */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "util/hash.h"
#include "yaml/edit.h"
#include "yaml/source.h"
#include "sched/index.h"
#include "sched/pool.h"

/* The pool sets built so far, one per config. */
struct sl_index_pools {
	pthread_mutex_t mu;
	struct { const sl_config *cfg; sl_pool_set *set; bool built; } *v;
	size_t n;
	const sl_object **objs;   /* the pool kinds' objects */
	size_t n_objs;
};

void sl_index_init(sl_index *ix, const sl_config *cfg)
{
	memset(ix, 0, sizeof *ix);
	ix->cfg = cfg;
}

bool sl_index_kind_looked_up(sl_kind k)
{
	switch (k) {
	case SL_KIND_PRIORITY_CLASS:
	case SL_KIND_CONFIGMAP:
	case SL_KIND_KNATIVE_SERVING:
	case SL_KIND_SERVING_RUNTIME:
	case SL_KIND_CLUSTER_SERVING_RUNTIME:
	case SL_KIND_SELDON_SERVER:
	case SL_KIND_SELDON_SERVER_CONFIG:
	case SL_KIND_LLM_INFERENCE_SERVICE_CONFIG:
	case SL_KIND_RESOURCE_CLAIM:            /* a pod's DRA claims: do they ask for a GPU? */
	case SL_KIND_RESOURCE_CLAIM_TEMPLATE:
	case SL_KIND_NODE_LIST:                 /* node pools (pool.c) */
	case SL_KIND_KARPENTER_NODE_POOL:
	case SL_KIND_EKSCTL_CLUSTER_CONFIG:
	case SL_KIND_HORIZONTAL_POD_AUTOSCALER: /* the replicas a workload keeps */
	case SL_KIND_SCALED_OBJECT:
	case SL_KIND_KUEUE_RESOURCE_FLAVOR:
	case SL_KIND_TRAINING_RUNTIME:          /* a TrainJob's runtime (merge.c) */
	case SL_KIND_CLUSTER_TRAINING_RUNTIME:
	case SL_KIND_TRAIN_JOB:                 /* the runtimes TrainJobs use */
		return true;
	default:
		return false;
	}
}

/* Only config-features ConfigMaps are looked up (for Knative's flags). */
static bool is_features_configmap(const sl_object *o)
{
	return o->kind == SL_KIND_CONFIGMAP && o->name && strcmp(o->name, "config-features") == 0 &&
	       (!o->namespace_ || strcmp(o->namespace_, "knative-serving") == 0);
}

/* KServe's inferenceservice-config ConfigMap (its default deployment mode), any namespace. */
static bool is_isvc_configmap(const sl_object *o)
{
	return o->kind == SL_KIND_CONFIGMAP && o->name &&
	       strcmp(o->name, "inferenceservice-config") == 0;
}

bool sl_index_wants(const sl_object *o)
{
	if (o->kind == SL_KIND_CONFIGMAP)
		return is_features_configmap(o) || is_isvc_configmap(o);
	return sl_index_kind_looked_up(o->kind);
}

/* --- the facts by key: what a file gives, what a file reads ---------------------------------- */

/* The key of (what, k, a, b): b a second name (an autoscaler's target's), NULL when none. */
static uint64_t key_of(sl_fact_kind what, int k, const char *a, const char *b)
{
	unsigned char head[2] = {(unsigned char)what, (unsigned char)k};
	uint64_t h = sl_hash_bytes(SL_HASH_INIT, head, sizeof head);
	if (a)
		h = sl_hash_bytes(h, a, strlen(a) + 1);
	if (b)
		h = sl_hash_bytes(h, b, strlen(b) + 1);
	return h ? h : 1;
}

/* key_of(what, k, a[0..len), NULL), without a copy of a. */
static uint64_t key_n(sl_fact_kind what, int k, const char *a, size_t len)
{
	unsigned char head[2] = {(unsigned char)what, (unsigned char)k};
	uint64_t h = sl_hash_bytes(sl_hash_bytes(SL_HASH_INIT, head, sizeof head), a, len);
	h = sl_hash_bytes(h, "", 1);
	return h ? h : 1;
}

uint64_t sl_index_fact_key(sl_fact_kind what, int k, const char *name)
{
	return key_of(what, k, name, NULL);
}

void sl_index_reads_add(sl_index_reads *r, uint64_t key)
{
	if (r->failed || !key)
		return;
	if (2 * (r->n + 1) > r->cap) {   /* at most half full */
		size_t cap = r->cap ? r->cap * 2 : 32;
		uint64_t *v = r->a ? sl_arena_zalloc(r->a, cap * sizeof *v)
				   : sl_xcalloc(cap, sizeof *v);
		if (!v) {
			r->failed = true;
			return;
		}
		for (size_t i = 0; i < r->cap; i++) {
			size_t j = r->slot[i] & (cap - 1);
			while (r->slot[i] && v[j])
				j = (j + 1) & (cap - 1);
			v[j] = r->slot[i];
		}
		if (!r->a)
			free(r->slot);
		r->slot = v;
		r->cap = cap;
	}
	size_t i = key & (r->cap - 1);
	while (r->slot[i] && r->slot[i] != key)
		i = (i + 1) & (r->cap - 1);
	if (!r->slot[i]) {
		r->slot[i] = key;
		r->n++;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void sl_index_reads_sorted(const sl_index_reads *r, uint64_t *out)
{
	size_t k = 0;
	for (size_t i = 0; i < r->cap; i++)
		if (r->slot[i])
			out[k++] = r->slot[i];
	if (k)
		qsort(out, k, sizeof *out, cmp_u64);
}

void sl_index_reads_free(sl_index_reads *r)
{
	if (!r)
		return;
	if (!r->a)
		free(r->slot);
	r->slot = NULL;
	r->cap = r->n = 0;
}

/* Notes key in ix's reads, when it records them. */
static void note(const sl_index *ix, uint64_t key)
{
	if (ix->reads)
		sl_index_reads_add(ix->reads, key);
}

void sl_index_note_read(const sl_index *ix, sl_fact_kind what, int k, const char *name)
{
	if (ix->reads)
		sl_index_reads_add(ix->reads, key_of(what, k, name, NULL));
}

/* The kind an autoscaler's scaleTargetRef names, and its name (as scales() reads them); false
** when it names none. */
static bool scale_target(const sl_object *a, const char **kind, const char **name)
{
	const sl_node *ref = sl_map_get(a->spec, "scaleTargetRef");
	*kind = sl_scalar(sl_map_get(ref, "kind"));
	*name = sl_scalar(sl_map_get(ref, "name"));
	if (!*kind && a->kind == SL_KIND_SCALED_OBJECT && sl_map_get(ref, "name"))
		*kind = "Deployment";
	return *kind && *name;
}

static bool is_features_configmap(const sl_object *o);
static bool is_isvc_configmap(const sl_object *o);
static const sl_object *const *objects_of(const sl_index *ix, sl_kind k, size_t *n);

/* A growing list of (key, digest, order) while a file's facts are gathered. */
struct gives {
	struct give { uint64_t key, digest; size_t order; } *v;
	size_t n;
	bool oom;
};

static void give(struct gives *g, uint64_t key, uint64_t digest)
{
	if (g->oom)
		return;
	if (sl_doubling_full(g->n)) {
		struct give *nv = sl_xrealloc(g->v, sl_doubling_cap(g->n) * sizeof *nv);
		if (!nv) {
			g->oom = true;
			return;
		}
		g->v = nv;
	}
	g->v[g->n] = (struct give){key, digest, g->n};
	g->n++;
}

static int cmp_give(const void *a, const void *b)
{
	const struct give *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* h with the string s fed in, its end marked (NULL is not ""). */
static uint64_t hash_str(uint64_t h, const char *s)
{
	return s ? sl_hash_bytes(h, s, strlen(s) + 1) : sl_hash_bytes(h, "\xff", 1);
}

/* Gives the keys object o is read by, with digest d. */
static void give_object(struct gives *g, const sl_object *o, uint64_t d)
{
	sl_kind k = o->kind;
	give(g, key_of(SL_FACT_KIND, k, NULL, NULL), d);
	give(g, key_of(SL_FACT_COUNT, k, NULL, NULL), 1);
	if (o->name)
		give(g, key_of(SL_FACT_OBJECT, k, o->name, NULL), d);
	if (k == SL_KIND_PRIORITY_CLASS && sl_yaml_true(sl_map_get(o->root, "globalDefault")))
		give(g, key_of(SL_FACT_DEFAULT_CLASS, 0, NULL, NULL), d);
	if (k == SL_KIND_KNATIVE_SERVING || is_features_configmap(o))
		give(g, key_of(SL_FACT_KNATIVE, 0, NULL, NULL), d);
	if (is_isvc_configmap(o))
		give(g, key_of(SL_FACT_DEFAULT_MODE, 0, NULL, NULL), d);
	if (k == SL_KIND_KARPENTER_NODE_POOL || k == SL_KIND_EKSCTL_CLUSTER_CONFIG ||
	    k == SL_KIND_NODE_LIST || k == SL_KIND_KUEUE_RESOURCE_FLAVOR)
		give(g, key_of(SL_FACT_POOLS, 0, NULL, NULL), d);
	const char *tk, *tn;
	if ((k == SL_KIND_HORIZONTAL_POD_AUTOSCALER || k == SL_KIND_SCALED_OBJECT) &&
	    scale_target(o, &tk, &tn))
		give(g, key_of(SL_FACT_AUTOSCALER, 0, tk, tn), d);
}

static bool train_job_use(const sl_object *job, sl_kind *kind, const char **name);

/* Where object o lies in its text src: from the start of the line it starts on to the end of
** the line its last byte is on (a fix that adds an entry after its last one writes there). */
static void place_of(const sl_source *src, const sl_object *o, size_t *from, size_t *to)
{
	size_t last = o->root->end > o->root->start ? o->root->end - 1 : o->root->start;
	*from = src->line_start[sl_source_line_of(src, o->root->start)];
	*to = sl_source_line_end(src, sl_source_line_of(src, last));
}

/* The lines of a text before an offset as an editor counts them (LSP: \n, \r\n and \r end a
** line; the library's lines also end at NEL, LS and PS), counted on from the last offset asked
** for (offsets asked for in order cost one pass over the text). */
struct editor_lines {
	const sl_source *src;
	size_t at, n;
};

static size_t editor_line(struct editor_lines *el, size_t offset)
{
	const char *d = el->src->data;
	if (offset < el->at)
		el->at = el->n = 0;
	for (; el->at < offset; el->at++)
		if (d[el->at] == '\n' || (d[el->at] == '\r' &&
					  (el->at + 1 >= el->src->len || d[el->at + 1] != '\n')))
			el->n++;
	return el->n;
}

/* The digest of where o lies (SL_FACT_PLACE): what another file's edit of it, as an editor is
** shown it (line and character), and the text it inserts follow (sl_index_note_edit): the lines
** before it as the library and an editor count them, the text of its lines (from the start of
** its first, whatever precedes it there, to the end of its last, a comment there included: its
** own text by d, its digest) and the file's style. Not its byte offset: an edit above it that
** keeps the lines moves no line or character, and an editor is never given another file's
** bytes. */
static uint64_t place_digest(const sl_source *src, const sl_object *o, uint64_t d,
			     const sl_style *st, struct editor_lines *el)
{
	size_t from, to;
	place_of(src, o, &from, &to);
	uint64_t at[3] = {sl_source_line_of(src, from), editor_line(el, from), d};
	unsigned char style[5] = {(unsigned char)st->indent, (unsigned char)(st->indent >> 8),
				  st->indent_sequences, (unsigned char)st->quote, st->crlf};
	uint64_t h = sl_hash_bytes(sl_hash_bytes(SL_HASH_INIT, style, sizeof style), at, sizeof at);
	h = sl_hash_bytes(h, src->data + from, o->root->start - from);
	return sl_hash_bytes(h, src->data + o->root->end, to > o->root->end ? to - o->root->end : 0);
}

void sl_index_note_edit(const sl_index *ix, const sl_object *const *objs, size_t n_objs,
			const sl_source *src, size_t start, size_t end)
{
	if (!ix->reads)
		return;
	for (size_t i = 0; src && i < n_objs; i++) {
		const sl_object *o = objs[i];
		size_t from, to;
		if (!sl_index_wants(o) || !o->root || o->root->end > src->len)
			continue;
		place_of(src, o, &from, &to);
		if (from <= start && end <= to) {
			note(ix, key_of(SL_FACT_PLACE, o->kind, o->name, NULL));
			return;
		}
	}
	ix->reads->failed = true;   /* where the edit lands follows what no key names */
}

sl_err sl_index_gives(const sl_object *const *objs, size_t n_objs, const sl_source *src,
		      const sl_serving_fact *facts, size_t n_facts, const char *lowest,
		      sl_index_given **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	struct gives g = {0};
	sl_style style;
	bool styled = false;
	struct editor_lines el = {src, 0, 0};
	for (size_t i = 0; i < n_objs; i++) {
		const sl_object *o = objs[i];
		if (!sl_index_wants(o) || !o->root || !src || o->root->end > src->len)
			continue;
		/* its text and the line it starts on (messages name it) */
		size_t line = sl_source_line_of(src, o->root->start);
		uint64_t d = sl_hash_bytes(SL_HASH_INIT, &line, sizeof line);
		d = sl_hash_bytes(d, src->data + o->root->start, o->root->end - o->root->start);
		give_object(&g, o, d);
		/* where it lies: read only by a fix of another file that edits it */
		if (!styled) {
			sl_edit_style_detect(src, &style);
			styled = true;
		}
		give(&g, key_of(SL_FACT_PLACE, o->kind, o->name, NULL),
		     place_digest(src, o, d, &style, &el));
		sl_kind uk;
		const char *un;
		if (o->kind == SL_KIND_TRAIN_JOB && train_job_use(o, &uk, &un))
			give(&g, key_of(SL_FACT_TEMPLATE_USE, uk, un, NULL), 1);
	}
	/* the serving units: what ranks them (their classes, a Server's ServerConfig, whether
	** they run pods), the label of the lowest, the templates they use */
	for (size_t i = 0; i < n_facts; i++) {
		const sl_serving_fact *x = &facts[i];
		bool named = lowest && strcmp(x->label, lowest) == 0;
		uint64_t d = hash_str(hash_str(hash_str(SL_HASH_INIT, named ? x->label : NULL),
					       x->class_name), x->server_config);
		d = sl_hash_bytes(d, &x->modelmesh, sizeof x->modelmesh);
		give(&g, key_of(SL_FACT_SERVING, 0, NULL, NULL), d);
		for (const char *s = x->uses; s && *s;) {
			size_t l = strcspn(s, "\n");
			give(&g, key_n(SL_FACT_TEMPLATE_USE, x->uses_kind, s, l), 1);
			s += l + (s[l] == '\n');
		}
	}
	if (g.oom) {
		free(g.v);
		return SL_ENOMEM;
	}
	if (!g.n)
		return SL_OK;
	/* one digest per key: its gifts in file order */
	qsort(g.v, g.n, sizeof *g.v, cmp_give);
	sl_index_given *v = sl_xmalloc(g.n * sizeof *v);
	if (!v) {
		free(g.v);
		return SL_ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < g.n; i++) {
		if (k && v[k - 1].key == g.v[i].key)
			v[k - 1].digest = sl_hash_bytes(v[k - 1].digest, &g.v[i].digest,
							sizeof g.v[i].digest);
		else
			v[k++] = (sl_index_given){g.v[i].key, sl_hash_bytes(SL_HASH_INIT, &g.v[i].digest,
									     sizeof g.v[i].digest)};
	}
	free(g.v);
	*out = v;
	*n = k;
	return SL_OK;
}

bool sl_index_may_define(uint64_t kinds, const char *text, size_t len)
{
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		if (!(kinds & ((uint64_t)1 << k)) || !sl_index_kind_looked_up((sl_kind)k))
			continue;
		/* of ConfigMaps, only config-features and inferenceservice-config (which must be
		** so named) */
		if (k != SL_KIND_CONFIGMAP || kinds == ~(uint64_t)0 ||
		    memmem(text, len, "config-features", 15) ||
		    memmem(text, len, "inferenceservice-config", 23))
			return true;
	}
	return false;
}

bool sl_index_needs_tree(const sl_object *o)
{
	return o->kind == SL_KIND_KNATIVE_SERVING || is_features_configmap(o) || is_isvc_configmap(o) ||
	       sl_pool_kind(o->kind) ||   /* pools name their lines: few files, kept whole */
	       o->kind == SL_KIND_HORIZONTAL_POD_AUTOSCALER || o->kind == SL_KIND_SCALED_OBJECT;
}

/* What rules read, across files, of a runtime: the units' scheduling fields an InferenceService
** is merged over (merge.h: tolerations, nodeSelector, affinity, topologySpreadConstraints,
** priorityClassName), whether they request a GPU (the pod's and every container's resources,
** `=` keeping only the GPU entries of requests and limits), and the labels it puts on them. Everything else of a runtime (images, ports, probes, model formats, CPU and memory,
** container names) is left out of its digest. A rule that reads more of a runtime from another
** file adds the path here; the streamed-versus-kept test (tests/unit/test_engine.c) fails
** until it does. */
#define RESOURCE_PATHS(p) p "/resources/requests/=", p "/resources/limits/="
#define POD_PATHS(p) p "/tolerations", RESOURCE_PATHS(p), p "/affinity", p "/nodeSelector", \
	p "/topologySpreadConstraints", p "/priorityClassName", \
	RESOURCE_PATHS(p "/containers/*"), RESOURCE_PATHS(p "/initContainers/*")
static const char *const runtime_spec_paths[] = {
	"/labels", POD_PATHS(""), POD_PATHS("/workerSpec"),
};
static bool is_gpu_key(void *cfg, const sl_node *key)
{
	return sl_config_is_gpu_resource(cfg, sl_scalar(key));
}

static const char *arena_dup(sl_arena *a, const char *s, bool *oom)
{
	const char *c = s ? sl_arena_strndup(a, s, strlen(s)) : NULL;
	*oom |= s && !c;
	return c;
}

/* The digest's object: o's identity (a Seldon Server's whole digest: it is looked up by name),
** no tree. */
static sl_err identity_digest(const sl_object *o, sl_arena *a, sl_object **out)
{
	sl_object *c = sl_arena_zalloc(a, sizeof *c);
	sl_doc *d = sl_arena_zalloc(a, sizeof *d);
	if (!c || !d)
		return SL_ENOMEM;
	d->index = o->doc->index;   /* for sl_object_same */
	d->start = o->doc->start;
	d->end = o->doc->end;
	bool oom = false;
	c->doc = d;
	c->path = o->path;   /* the file's path lives as long as the run */
	c->kind = o->kind;
	c->api_version = arena_dup(a, o->api_version, &oom);
	c->kind_name = arena_dup(a, o->kind_name, &oom);
	c->name = arena_dup(a, o->name, &oom);
	c->namespace_ = arena_dup(a, o->namespace_, &oom);
	c->mode = o->mode;
	c->item = o->item;
	if (oom)
		return SL_ENOMEM;
	*out = c;
	return SL_OK;
}

sl_err sl_index_digest(const sl_object *o, const sl_config *cfg, sl_arena *a,
		       const sl_object **out)
{
	*out = NULL;
	sl_object *c;
	sl_err err;
	if (o->kind == SL_KIND_SELDON_SERVER)
		return identity_digest(o, a, (sl_object **)out);
	/* its issues were reported when o was bound */
	sl_model_ctx mc = {.arena = a, .default_mode = sl_config_kserve_default_mode(cfg),
			   .path = o->path};
	if (o->kind == SL_KIND_SERVING_RUNTIME || o->kind == SL_KIND_CLUSTER_SERVING_RUNTIME) {
		/* its identity, and the spec's units bound again from a pruned copy */
		if ((err = identity_digest(o, a, &c)))
			return err;
		sl_doc *d = NULL;
		if (o->spec && (err = sl_tree_copy(a, o->doc, o->spec, runtime_spec_paths,
						   sizeof runtime_spec_paths / sizeof *runtime_spec_paths,
						   is_gpu_key, (void *)cfg, &d)))
			return err;
		if (o->spec && !d)
			return SL_OK;   /* aliases: no digest */
		c->spec = d ? d->root : NULL;
		if ((err = sl_object_bind_units(&mc, c)))
			return err;
		*out = c;
		return SL_OK;
	}
	sl_doc *d;   /* the whole document (of a List's or Template's item: the item) */
	if ((err = sl_tree_copy(a, o->doc, o->item ? o->root : NULL, NULL, 0, NULL, NULL, &d)) || !d)
		return err;
	if ((err = sl_object_bind_at(&mc, d, d->root, o->item, &c)))
		return err;
	*out = c;
	return SL_OK;
}

/* The names of the templates unit u of o is merged from (merge.h), one per line, and their
** kind; NULL when none. */
static char *uses_of(const sl_object *o, const sl_unit *u, sl_arena *a, sl_kind *kind)
{
	if (o->kind == SL_KIND_SELDON_SERVER) {
		*kind = SL_KIND_SELDON_SERVER_CONFIG;
		return (char *)sl_scalar(sl_map_get(o->spec, "serverConfig"));
	}
	if (o->kind == SL_KIND_INFERENCE_SERVICE) {
		*kind = SL_KIND_SERVING_RUNTIME;
		return (char *)sl_kserve_runtime_name(u->component);
	}
	if (o->kind != SL_KIND_LLM_INFERENCE_SERVICE || u != &o->units[0])
		return NULL;
	*kind = SL_KIND_LLM_INFERENCE_SERVICE_CONFIG;
	const sl_node *refs = sl_map_get(o->spec, "baseRefs");
	char *names = NULL;
	for (size_t i = 0; i < sl_seq_n(refs); i++) {
		const char *n = sl_scalar(sl_map_get(sl_seq_item(refs, i), "name"));
		if (!n || !*n)
			continue;
		char *j = names ? sl_arena_printf(a, "%s\n%s", names, n) : (char *)n;
		if (!j)
			return NULL;
		names = j;
	}
	return names;
}

/* The facts of unit u of o, their strings (in arena a) not yet copied. */
static sl_serving_fact fact_of(const sl_object *o, const sl_unit *u, sl_arena *a)
{
	const char *cls = sl_scalar(u->priority_class_name);
	sl_kind uses_kind = SL_KIND_UNKNOWN;
	char *uses = uses_of(o, u, a, &uses_kind);
	sl_serving_fact f = {
		.uses = uses && *uses ? uses : NULL,
		.uses_kind = uses_kind,
		.label = (char *)sl_object_unit_label(u, a),
		.class_name = cls && *cls ? (char *)cls : NULL,
		.server_config = o->kind == SL_KIND_SELDON_SERVER
			? (char *)sl_scalar(sl_map_get(o->spec, "serverConfig")) : NULL,
		.modelmesh = u->mode == SL_MODE_MODELMESH,
	};
	return f;
}

static char *put(char **w, const char *s)
{
	if (!s)
		return NULL;
	size_t l = strlen(s) + 1;
	char *c = memcpy(*w, s, l);
	*w += l;
	return c;
}

sl_err sl_index_gather_facts(const sl_object *const *objs, size_t n_objs, sl_arena *a,
			     sl_serving_fact **facts, size_t *n)
{
	*facts = NULL;
	*n = 0;
	size_t count = 0, size = 0;
	for (size_t i = 0; i < n_objs; i++)
		count += sl_kind_is_serving(objs[i]->kind) ? objs[i]->n_units : 0;
	if (!count)
		return SL_OK;
	sl_serving_fact *tmp = sl_arena_alloc(a, count * sizeof *tmp);
	if (!tmp)
		return SL_ENOMEM;
	for (size_t i = 0, k = 0; i < n_objs; i++)
		for (size_t j = 0; sl_kind_is_serving(objs[i]->kind) && j < objs[i]->n_units; j++) {
			sl_serving_fact *f = &tmp[k++];
			*f = fact_of(objs[i], &objs[i]->units[j], a);
			if (!f->label)
				return SL_ENOMEM;
			size += strlen(f->label) + 1 + (f->class_name ? strlen(f->class_name) + 1 : 0) +
				(f->server_config ? strlen(f->server_config) + 1 : 0) +
				(f->uses ? strlen(f->uses) + 1 : 0);
		}
	/* one block: the facts, then their strings */
	sl_serving_fact *block = sl_xmalloc(count * sizeof *block + size);
	if (!block)
		return SL_ENOMEM;
	char *w = (char *)(block + count);
	for (size_t k = 0; k < count; k++) {
		sl_serving_fact f = tmp[k];
		f.label = put(&w, f.label);
		f.class_name = put(&w, f.class_name);
		f.server_config = put(&w, f.server_config);
		f.uses = put(&w, f.uses);
		block[k] = f;
	}
	*facts = block;
	*n = count;
	return SL_OK;
}

void sl_index_free_facts(sl_serving_fact *facts)
{
	free(facts);
}

sl_err sl_index_add_facts(sl_index *ix, const sl_serving_fact *facts, size_t n)
{
	if (!n)
		return SL_OK;
	const sl_serving_fact **nv = sl_xrealloc(ix->facts, (ix->n_facts + n) * sizeof *nv);
	if (!nv)
		return SL_ENOMEM;
	ix->facts = nv;
	for (size_t i = 0; i < n; i++)
		ix->facts[ix->n_facts++] = &facts[i];
	return SL_OK;
}

sl_err sl_index_add(sl_index *ix, const sl_object *o)
{
	if (!sl_index_wants(o))
		return SL_OK;
	size_t n = ix->n_by_kind[o->kind];
	if ((n & (n - 1)) == 0) {   /* grow at powers of two */
		size_t ncap = n ? n * 2 : 4;
		const sl_object **nv = sl_xrealloc(ix->by_kind[o->kind], ncap * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		ix->by_kind[o->kind] = nv;
	}
	ix->by_kind[o->kind][n] = o;
	ix->n_by_kind[o->kind] = n + 1;
	return SL_OK;
}

void sl_index_free(sl_index *ix)
{
	for (int k = 0; k < SL_KIND__COUNT; k++)
		free(ix->by_kind[k]);
	for (int k = 0; k < SL_KIND__COUNT; k++)
		sl_strmap_free(&ix->names[k]);
	free(ix->groups);
	free(ix->same);
	free(ix->features_cms);
	free(ix->facts);
	free(ix->serving);
	free(ix->lowest_label);
	free(ix->lowest_class);
	for (size_t i = 0; i < ix->n_used; i++)
		free(ix->used[i].name);
	free(ix->used);
	free(ix->default_mode_source);
	free(ix->default_mode_config);
	sl_index_reads_free(&ix->serving_reads);
	if (ix->pools) {
		for (size_t i = 0; i < ix->pools->n; i++)
			sl_pool_set_free(ix->pools->v[i].set);
		free(ix->pools->v);
		free(ix->pools->objs);
		pthread_mutex_destroy(&ix->pools->mu);
		free(ix->pools);
	}
	memset(ix, 0, sizeof *ix);
}

const struct sl_pool_set *sl_index_pool_set(const sl_index *ix)
{
	note(ix, key_of(SL_FACT_POOLS, 0, NULL, NULL));
	struct sl_index_pools *c = ix->pools;
	size_t n_cfg = 0;
	sl_config_node_pools(ix->cfg, &n_cfg);
	if (!c || (c->n_objs == 0 && n_cfg == 0 && !(ix->cfg && ix->cfg->cluster.node_inventory)))
		return NULL;
	sl_pool_set *set = NULL;
	pthread_mutex_lock(&c->mu);
	size_t i = 0;
	while (i < c->n && c->v[i].cfg != ix->cfg)
		i++;
	if (i == c->n) {
		void *nv = sl_xrealloc(c->v, (c->n + 1) * sizeof *c->v);
		if (nv) {
			c->v = nv;
			c->v[c->n].cfg = ix->cfg;
			c->v[c->n].built = sl_pool_set_build(ix->cfg, c->objs, c->n_objs,
							     &c->v[c->n].set) == SL_OK;
			c->n++;
		}
	}
	if (i < c->n)
		set = c->v[i].set;   /* NULL when out of memory: no pools */
	pthread_mutex_unlock(&c->mu);
	size_t n = 0;
	sl_pool_set_pools(set, &n);
	return n ? set : NULL;
}

/* Gathers the pool kinds' objects for sl_index_pool_set. SL_ENOMEM. */
static sl_err finish_pools(sl_index *ix)
{
	struct sl_index_pools *c = sl_xcalloc(1, sizeof *c);
	if (!c)
		return SL_ENOMEM;
	pthread_mutex_init(&c->mu, NULL);
	ix->pools = c;
	static const sl_kind kinds[] = {SL_KIND_KARPENTER_NODE_POOL, SL_KIND_EKSCTL_CLUSTER_CONFIG,
					SL_KIND_NODE_LIST, SL_KIND_KUEUE_RESOURCE_FLAVOR};
	size_t total = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		total += ix->n_by_kind[kinds[k]];
	if (!total)
		return SL_OK;
	c->objs = sl_xmalloc(total * sizeof *c->objs);
	if (!c->objs)
		return SL_ENOMEM;
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
		for (size_t i = 0; i < ix->n_by_kind[kinds[k]]; i++)
			c->objs[c->n_objs++] = ix->by_kind[kinds[k]][i];
	return SL_OK;
}

static int cmp_priority(const void *a, const void *b)
{
	const sl_serving_priority *x = a, *y = b;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	/* stable: the order they were added in (file, then document, then unit) */
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The objects of kind k named name, NULL when none is. */
static struct sl_index_group *group_of(const sl_index *ix, sl_kind k, const char *name)
{
	const sl_strmap_slot *s = sl_strmap_get(&ix->names[k], name, strlen(name));
	return s ? s->val : NULL;
}

/* KServe's default deployment mode from the first inferenceservice-config ConfigMap whose
** data.deploy (JSON) names a valid defaultDeploymentMode; the config's key as the fallback's
** source. */
static sl_err find_default_mode(sl_index *ix)
{
	const sl_config *cfg = ix->cfg;
	if (cfg && cfg->cluster.kserve_default_deployment_mode_line &&
	    !(ix->default_mode_config =
		      sl_config_source(cfg, cfg->cluster.kserve_default_deployment_mode_line)))
		return SL_ENOMEM;
	size_t n;
	const sl_object *const *cms = sl_index_objects(ix, SL_KIND_CONFIGMAP, &n);
	for (size_t i = 0; i < n; i++) {
		if (!is_isvc_configmap(cms[i]))
			continue;
		const sl_node *deploy = sl_map_get(sl_map_get(cms[i]->root, "data"), "deploy");
		const char *text = sl_scalar(deploy);
		json_t *j = text ? json_loads(text, 0, NULL) : NULL;
		const char *m = json_string_value(json_object_get(j, "defaultDeploymentMode"));
		sl_mode mode;
		bool ok = m && sl_kserve_mode_parse(m, &mode);
		json_decref(j);
		if (!ok)
			continue;
		uint32_t line = 0, col = 0;
		if (cms[i]->doc && cms[i]->doc->src)
			sl_source_position(cms[i]->doc->src, deploy->start, &line, &col);
		ix->default_mode_source = sl_xprintf("inferenceservice-config (%s:%u)",
						     cms[i]->path ? cms[i]->path : "", line);
		if (!ix->default_mode_source)
			return SL_ENOMEM;
		ix->default_mode = mode;
		break;
	}
	return SL_OK;
}

sl_err sl_index_finish(sl_index *ix)
{
	/* (kind, name) -> the objects so named, in index order */
	size_t total = 0, n_groups = 0;
	for (int k = 0; k < SL_KIND__COUNT; k++)
		total += ix->n_by_kind[k];
	ix->groups = sl_xcalloc(total ? total : 1, sizeof *ix->groups);
	if (!ix->groups)
		return SL_ENOMEM;
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		for (size_t i = 0; i < ix->n_by_kind[k]; i++) {
			const sl_object *o = ix->by_kind[k][i];
			bool found;
			sl_strmap_slot *s = o->name ? sl_strmap_put(&ix->names[k], o->name,
								    strlen(o->name), &found) : NULL;
			if (o->name && !s)
				return SL_ENOMEM;
			if (s && !found) {
				ix->groups[n_groups] = (struct sl_index_group){o, 0, 0};
				s->val = &ix->groups[n_groups++];
			}
			if (s)
				((struct sl_index_group *)s->val)->n++;
		}
	}
	size_t at = 0;
	for (size_t g = 0; g < n_groups; g++) {
		ix->groups[g].first = at;
		at += ix->groups[g].n;
		ix->groups[g].n = 0;   /* counted again as the group is placed */
	}
	ix->same = sl_xmalloc((at ? at : 1) * sizeof *ix->same);
	if (!ix->same)
		return SL_ENOMEM;
	for (int k = 0; k < SL_KIND__COUNT; k++)
		for (size_t i = 0; i < ix->n_by_kind[k]; i++) {
			const sl_object *o = ix->by_kind[k][i];
			struct sl_index_group *g = o->name ? group_of(ix, (sl_kind)k, o->name) : NULL;
			if (g)
				ix->same[g->first + g->n++] = o;
		}
	/* config-features ConfigMaps */
	size_t n;
	const sl_object *const *cms = sl_index_objects(ix, SL_KIND_CONFIGMAP, &n);
	for (size_t i = 0; i < n; i++) {
		const sl_object *cm = cms[i];
		if (!cm->name || strcmp(cm->name, "config-features") != 0 ||
		    (cm->namespace_ && strcmp(cm->namespace_, "knative-serving") != 0))
			continue;
		const sl_object **nv = sl_xrealloc(ix->features_cms, (ix->n_features_cms + 1) * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		ix->features_cms = nv;
		ix->features_cms[ix->n_features_cms++] = cm;
	}
	sl_err err = find_default_mode(ix);
	if (err)
		return err;
	/* the default PriorityClass, computed by the scan while finished is false */
	ix->default_pc = sl_index_default_priority_class(ix, &ix->default_pc_value);
	if (!ix->pools && (err = finish_pools(ix)))
		return err;
	ix->finished = true;
	return SL_OK;
}

static int cmp_use(const void *a, const void *b)
{
	const struct sl_index_use *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The training runtime a TrainJob's runtimeRef names, as a use: its kind (default
** ClusterTrainingRuntime) and name; false when it names none. */
static bool train_job_use(const sl_object *job, sl_kind *kind, const char **name)
{
	const sl_node *ref = sl_map_get(job->spec, "runtimeRef");
	const char *k = sl_scalar(sl_map_get(ref, "kind"));
	*name = sl_scalar(sl_map_get(ref, "name"));
	*kind = k && strcmp(k, "TrainingRuntime") == 0 ? SL_KIND_TRAINING_RUNTIME
						       : SL_KIND_CLUSTER_TRAINING_RUNTIME;
	return *name && **name;
}

/* The templates the units use, from their facts (and the TrainJobs' runtimeRefs): one entry per
** (kind, name), sorted. */
/* Appends the uses of kind named in s (one per line; NULL: none) to *v (*n of them). */
static sl_err add_uses(struct sl_index_use **v, size_t *n, sl_kind kind, const char *s)
{
	while (s && *s) {
		size_t l = strcspn(s, "\n");
		struct sl_index_use *nv = !sl_doubling_full(*n) ? *v
			: sl_xrealloc(*v, sl_doubling_cap(*n) * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		*v = nv;
		char *name = sl_xmalloc(l + 1);
		if (!name)
			return SL_ENOMEM;
		memcpy(name, s, l);
		name[l] = '\0';
		(*v)[*n].kind = kind;
		(*v)[(*n)++].name = name;
		s += l + (s[l] == '\n');
	}
	return SL_OK;
}

static void free_uses(struct sl_index_use *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
}

static sl_err gather_used(sl_index *ix)
{
	free_uses(ix->used, ix->n_used);
	ix->n_used = 0;
	size_t n_jobs = ix->n_by_kind[SL_KIND_TRAIN_JOB];
	for (size_t i = 0; i < ix->n_facts + n_jobs; i++) {
		sl_kind kind = i < ix->n_facts ? ix->facts[i]->uses_kind : SL_KIND_UNKNOWN;
		const char *s = i < ix->n_facts ? ix->facts[i]->uses : NULL;
		if (i >= ix->n_facts &&
		    !train_job_use(ix->by_kind[SL_KIND_TRAIN_JOB][i - ix->n_facts], &kind, &s))
			continue;
		sl_err err = add_uses(&ix->used, &ix->n_used, kind, s);
		if (err)
			return err;
	}
	if (ix->n_used)
		qsort(ix->used, ix->n_used, sizeof *ix->used, cmp_use);
	return SL_OK;
}

sl_err sl_index_view_own_uses(sl_index *view, const sl_serving_fact *facts, size_t n)
{
	view->own_used = NULL;
	view->n_own_used = 0;
	for (size_t i = 0; i < n; i++) {
		sl_err err = add_uses(&view->own_used, &view->n_own_used, facts[i].uses_kind,
				      facts[i].uses);
		if (err) {
			sl_index_view_free_own_uses(view);
			return err;
		}
	}
	if (view->n_own_used)
		qsort(view->own_used, view->n_own_used, sizeof *view->own_used, cmp_use);
	return SL_OK;
}

void sl_index_view_free_own_uses(sl_index *view)
{
	free_uses(view->own_used, view->n_own_used);
	free(view->own_used);
	view->own_used = NULL;
	view->n_own_used = 0;
}

/* The key a template of kind and name is used by (a runtime's kind: SL_KIND_SERVING_RUNTIME for
** both). */
static struct sl_index_use use_key(sl_kind kind, const char *name)
{
	return (struct sl_index_use){kind == SL_KIND_CLUSTER_SERVING_RUNTIME
				     ? SL_KIND_SERVING_RUNTIME : kind, (char *)name};
}

bool sl_index_template_used_here(const sl_index *ix, const sl_object *t)
{
	struct sl_index_use key = use_key(t->kind, t->name);
	return t->name && ix->own_used &&
	       bsearch(&key, ix->own_used, ix->n_own_used, sizeof *ix->own_used, cmp_use);
}

bool sl_index_template_name_used(const sl_index *ix, sl_kind kind, const char *name)
{
	struct sl_index_use key = use_key(kind, name);
	return name && ix->used && bsearch(&key, ix->used, ix->n_used, sizeof *ix->used, cmp_use);
}

bool sl_index_template_used(const sl_index *ix, const sl_object *t)
{
	if (!t->name)
		return false;
	note(ix, key_of(SL_FACT_TEMPLATE_USE, use_key(t->kind, t->name).kind, t->name, NULL));
	return sl_index_template_name_used(ix, t->kind, t->name) ||
	       sl_index_template_used_here(ix, t);
}

static bool same_namespace(const sl_object *a, const sl_object *b)
{
	return !a->namespace_ || !b->namespace_ || strcmp(a->namespace_, b->namespace_) == 0;
}

const sl_object *sl_index_runtime(const sl_index *ix, const sl_object *isvc, const char *name)
{
	if (!name || !*name)
		return NULL;
	size_t n = 0;
	const sl_object *const *rts = sl_index_find_all(ix, SL_KIND_SERVING_RUNTIME, name, &n);
	for (size_t i = 0; i < n; i++)
		if (same_namespace(rts[i], isvc))
			return rts[i];
	return sl_index_find(ix, SL_KIND_CLUSTER_SERVING_RUNTIME, name);
}

static sl_err rank_serving(sl_index *ix);

sl_err sl_index_finish_serving(sl_index *ix)
{
	sl_err uerr = gather_used(ix);
	if (uerr)
		return uerr;
	/* what ranking the units reads (their classes' values, the globalDefault class,
	** ServerConfigs) is read by whoever reads the table: noted here, once */
	sl_index_reads_free(&ix->serving_reads);
	ix->serving_reads = (sl_index_reads){0};
	sl_index_reads *was = ix->reads;
	ix->reads = &ix->serving_reads;
	uerr = rank_serving(ix);
	ix->reads = was;
	return uerr;
}

/* The serving table of sl_index_finish_serving. */
static sl_err rank_serving(sl_index *ix)
{
	/* serving priorities, from the facts (the units' trees may be gone by now) */
	free(ix->serving);
	ix->n_serving = 0;
	ix->serving = sl_xmalloc((ix->n_facts ? ix->n_facts : 1) * sizeof *ix->serving);
	if (!ix->serving)
		return SL_ENOMEM;
	sl_index view = *ix;   /* each unit's class resolves under its own file's config */
	for (size_t i = 0; i < ix->n_facts; i++) {
		const sl_serving_fact *f = ix->facts[i];
		sl_serving_priority *sp = &ix->serving[ix->n_serving];
		if (f->modelmesh)
			continue;
		view.cfg = f->cfg ? f->cfg : ix->cfg;
		/* as sl_index_unit_priority: its own class, a Seldon Server's ServerConfig's, else
		** the globalDefault class (or 0) */
		const char *cls = f->class_name;
		if (!cls && f->server_config) {
			const sl_object *sc = sl_index_find(ix, SL_KIND_SELDON_SERVER_CONFIG, f->server_config);
			const char *c = sc && sc->n_units ? sl_scalar(sc->units[0].priority_class_name) : NULL;
			cls = c && *c ? c : NULL;
		}
		if (cls) {
			if (!sl_index_priority_value(&view, cls, &sp->value))
				continue;
			sp->class_name = cls;
		} else {
			sp->value = 0;
			const sl_object *d = sl_index_default_priority_class(ix, &sp->value);
			sp->class_name = d ? d->name : NULL;
		}
		sp->label = f->label;
		sp->order = i;
		ix->n_serving++;
	}
	/* stable by construction order: sort on (value, insertion position) */
	qsort(ix->serving, ix->n_serving, sizeof *ix->serving, cmp_priority);
	/* Only the lowest unit is ever named (batch-outranks-serving): it keeps copies of its
	** label and class, so the facts can go; the others keep their values. */
	free(ix->lowest_label);
	free(ix->lowest_class);
	ix->lowest_label = ix->lowest_class = NULL;
	for (size_t i = 1; i < ix->n_serving; i++)
		ix->serving[i].label = ix->serving[i].class_name = NULL;
	if (ix->n_serving) {
		sl_serving_priority *low = &ix->serving[0];
		ix->lowest_label = sl_xstrdup(low->label);
		ix->lowest_class = low->class_name ? sl_xstrdup(low->class_name) : NULL;
		if (!ix->lowest_label || (low->class_name && !ix->lowest_class))
			return SL_ENOMEM;
		low->label = ix->lowest_label;
		low->class_name = ix->lowest_class;
	}
	free(ix->facts);
	ix->facts = NULL;
	ix->n_facts = 0;
	return SL_OK;
}

const sl_serving_priority *sl_index_serving_priorities(const sl_index *ix, size_t *n)
{
	if (ix->reads) {   /* the units' facts, and what ranking them read */
		note(ix, key_of(SL_FACT_SERVING, 0, NULL, NULL));
		for (size_t i = 0; i < ix->serving_reads.cap; i++)
			if (ix->serving_reads.slot[i])
				note(ix, ix->serving_reads.slot[i]);
		if (ix->serving_reads.failed)
			ix->reads->failed = true;
	}
	*n = ix->n_serving;
	return ix->serving;
}

const sl_object *const *sl_index_objects(const sl_index *ix, sl_kind k, size_t *n)
{
	note(ix, key_of(SL_FACT_KIND, k, NULL, NULL));
	return objects_of(ix, k, n);
}

size_t sl_index_count(const sl_index *ix, sl_kind k)
{
	note(ix, key_of(SL_FACT_COUNT, k, NULL, NULL));
	return ix->n_by_kind[k];
}

/* sl_index_objects, not noted as read: a lookup that notes a finer key. */
static const sl_object *const *objects_of(const sl_index *ix, sl_kind k, size_t *n)
{
	*n = ix->n_by_kind[k];
	return ix->by_kind[k];
}

const sl_object *const *sl_index_find_all(const sl_index *ix, sl_kind k, const char *name,
					  size_t *n)
{
	if (name)
		note(ix, key_of(SL_FACT_OBJECT, k, name, NULL));
	const struct sl_index_group *g = ix->finished && name ? group_of(ix, k, name) : NULL;
	*n = g ? g->n : 0;
	return g ? ix->same + g->first : NULL;
}

const sl_object *sl_index_find(const sl_index *ix, sl_kind k, const char *name)
{
	if (name)
		note(ix, key_of(SL_FACT_OBJECT, k, name, NULL));
	if (ix->finished && name) {
		const struct sl_index_group *g = group_of(ix, k, name);
		return g ? g->obj : NULL;
	}
	for (size_t i = 0; name && i < ix->n_by_kind[k]; i++) {
		const sl_object *o = ix->by_kind[k][i];
		if (o->name && strcmp(o->name, name) == 0)
			return o;
	}
	return NULL;
}

static sl_flag_state parse_flag(const char *v)
{
	if (!v)
		return SL_FLAG_UNKNOWN;
	if (strcasecmp(v, "enabled") == 0 || strcasecmp(v, "allowed") == 0)
		return SL_FLAG_ENABLED;
	/* Knative parses anything else as Disabled. */
	return SL_FLAG_DISABLED;
}

/* The flag's state in sources[0..n) (KnativeServing CRs or config-features ConfigMaps): the
** first source that sets it decides, unless a later one sets it otherwise (then UNKNOWN, with
** both in origin). *seen is set when some source exists (it owns the flags it leaves unset). */
static sl_flag_state flag_in(const sl_object *const *sources, size_t n, bool cr, const char *flag,
			     sl_flag_origin *origin, bool *seen)
{
	sl_flag_state state = SL_FLAG_UNKNOWN;
	bool set = false;
	for (size_t i = 0; i < n; i++) {
		const sl_object *o = sources[i];
		const sl_node *map = cr ? sl_map_get(sl_map_get(o->spec, "config"), "features")
					: sl_map_get(o->root, "data");
		if (!*seen) {
			*seen = true;
			origin->obj = o;
			origin->map = map;
		}
		const sl_node *v = sl_map_get(map, flag);
		if (!v)
			continue;
		sl_flag_state s = parse_flag(sl_scalar(v));
		if (!set) {
			set = true;
			state = s;
			origin->obj = o;
			origin->map = map;
			origin->node = v;
		} else if (s != state && !origin->other) {
			origin->other = o;
			origin->other_node = v;
		}
	}
	return origin->other ? SL_FLAG_UNKNOWN : state;
}

sl_flag_state sl_index_knative_flag(const sl_index *ix, const char *flag, sl_flag_origin *origin)
{
	sl_flag_origin tmp;
	if (!origin)
		origin = &tmp;
	memset(origin, 0, sizeof *origin);
	note(ix, key_of(SL_FACT_KNATIVE, 0, NULL, NULL));
	size_t n;
	bool seen = false;
	const sl_object *const *ks = objects_of(ix, SL_KIND_KNATIVE_SERVING, &n);
	sl_flag_state s = flag_in(ks, n, true, flag, origin, &seen);
	if (seen && !origin->other)   /* the operator owns config-features: an unset flag has
				         Knative's default */
		return s;
	if (!seen) {
		const sl_object *const *cms = objects_of(ix, SL_KIND_CONFIGMAP, &n);
		if (ix->finished) {
			/* only the config-features ConfigMaps, found once */
			cms = ix->features_cms;
			n = ix->n_features_cms;
			s = flag_in(cms, n, false, flag, origin, &seen);
		} else {
			for (size_t i = 0; i < n && !origin->node && !origin->other; i++)
				if (is_features_configmap(cms[i]))
					s = flag_in(&cms[i], 1, false, flag, origin, &seen);
		}
		/* a ConfigMap that leaves the flag unset may be patched in the cluster (the
		** upstream one ships only _example): the config may still say */
		if (origin->node && !origin->other)
			return s;
	}
	/* nothing decided (sources that disagree, or a ConfigMap without the flag): the config's
	** knative-features settles it when set; else the state stays unknown, origin says why */
	const sl_config *cfg = ix->cfg;
	if (cfg && cfg->cluster.knative_features_set) {
		memset(origin, 0, sizeof *origin);
		const char *shortname = strncmp(flag, "kubernetes.podspec-", 19) == 0 ? flag + 19 : flag;
		origin->from_config = true;
		for (size_t i = 0; i < cfg->cluster.knative_features.n; i++) {
			const char *f = cfg->cluster.knative_features.v[i];
			if (strcmp(f, shortname) == 0 || strcmp(f, flag) == 0)
				return SL_FLAG_ENABLED;
		}
		return SL_FLAG_DISABLED;
	}
	return SL_FLAG_UNKNOWN;
}

bool sl_index_priority_value(const sl_index *ix, const char *name, long long *value)
{
	if (!name)
		return false;
	if (strcmp(name, "system-cluster-critical") == 0) {
		*value = 2000000000;
		return true;
	}
	if (strcmp(name, "system-node-critical") == 0) {
		*value = 2000001000;
		return true;
	}
	const sl_object *pc = sl_index_find(ix, SL_KIND_PRIORITY_CLASS, name);
	if (pc && sl_scalar_int(sl_map_get(pc->root, "value"), value))
		return true;
	const sl_config *cfg = ix->cfg;
	for (size_t i = 0; cfg && i < cfg->cluster.priority_classes.n; i++) {
		const char *e = cfg->cluster.priority_classes.v[i];
		const char *eq = strchr(e, '=');
		if (eq && (size_t)(eq - e) == strlen(name) && strncmp(e, name, strlen(name)) == 0) {
			*value = strtoll(eq + 1, NULL, 10);
			return true;
		}
	}
	return false;
}

/* The ServerConfig a Seldon Server names, when linted; else NULL. */
/* True when autoscaler a's scaleTargetRef names o: its kind (a ScaledObject's defaults to
** Deployment) and name, the API group when the reference gives one, in o's namespace. */
static bool scales(const sl_object *a, const sl_object *o)
{
	const char *kind, *name;
	const char *api = sl_scalar(sl_map_get(sl_map_get(a->spec, "scaleTargetRef"), "apiVersion"));
	if (!scale_target(a, &kind, &name) || !o->name || !o->kind_name ||
	    strcmp(kind, o->kind_name) != 0 || strcmp(name, o->name) != 0 || !same_namespace(a, o))
		return false;
	if (!api || !o->api_version)
		return true;
	const char *s1 = strchr(api, '/'), *s2 = strchr(o->api_version, '/');
	size_t g1 = s1 ? (size_t)(s1 - api) : 0, g2 = s2 ? (size_t)(s2 - o->api_version) : 0;
	return g1 == g2 && strncmp(api, o->api_version, g1) == 0;
}

const sl_object *sl_index_autoscaler(const sl_index *ix, const sl_object *o, long long *min,
				     const sl_node **at)
{
	static const sl_kind kinds[] = {SL_KIND_HORIZONTAL_POD_AUTOSCALER, SL_KIND_SCALED_OBJECT};
	if (!o->name || !o->kind_name)
		return NULL;   /* nothing scales it (scales()) */
	note(ix, key_of(SL_FACT_AUTOSCALER, 0, o->kind_name, o->name));
	for (size_t k = 0; k < 2; k++) {
		size_t n;
		const sl_object *const *as = objects_of(ix, kinds[k], &n);
		for (size_t i = 0; i < n; i++) {
			if (!scales(as[i], o))
				continue;
			bool keda = kinds[k] == SL_KIND_SCALED_OBJECT;
			const sl_node *m = sl_map_get(as[i]->spec, keda ? "minReplicaCount" : "minReplicas");
			long long v = keda ? 0 : 1;   /* KEDA's and the HPA's defaults */
			if (m && !sl_scalar_int(m, &v)) {   /* not an integer: schema-type's */
				m = NULL;
				v = keda ? 0 : 1;
			}
			*min = v;
			*at = m;
			return as[i];
		}
	}
	return NULL;
}

long long sl_index_unit_replicas(const sl_index *ix, const sl_unit *u, const sl_object **scaler,
				 const sl_node **at)
{
	long long min;
	const sl_node *m;
	/* the object's one unit, or a LeaderWorkerSet's (its scale subresource counts groups) */
	const sl_object *a = (u->obj->n_units == 1 && u == &u->obj->units[0] &&
			      (u->role == SL_ROLE_POD || u->role == SL_ROLE_SERVER)) ||
			     u->obj->kind == SL_KIND_LEADER_WORKER_SET
		? sl_index_autoscaler(ix, u->obj, &min, &m) : NULL;
	*scaler = a;
	*at = a ? m : u->replicas;
	if (a)
		return min;
	/* a Seldon Server's own autoscaling keeps it within minReplicas..maxReplicas */
	const sl_node *sm = u->obj->kind == SL_KIND_SELDON_SERVER
		? sl_map_get(u->obj->spec, "minReplicas") : NULL;
	if (sm && sl_scalar_int(sm, &min) && min >= 0) {
		*at = sm;
		return min;
	}
	return u->min_replicas;
}

const sl_object *sl_index_server_config(const sl_index *ix, const sl_object *server)
{
	if (server->kind != SL_KIND_SELDON_SERVER)
		return NULL;
	const char *sc = sl_scalar(sl_map_get(server->spec, "serverConfig"));
	return sl_index_find(ix, SL_KIND_SELDON_SERVER_CONFIG, sc);
}

/* The globalDefault PriorityClass with the lowest value, or NULL. */
const sl_object *sl_index_default_priority_class(const sl_index *ix, long long *value)
{
	note(ix, key_of(SL_FACT_DEFAULT_CLASS, 0, NULL, NULL));
	if (ix->finished) {
		if (ix->default_pc)
			*value = ix->default_pc_value;
		return ix->default_pc;
	}
	size_t n;
	const sl_object *const *pcs = objects_of(ix, SL_KIND_PRIORITY_CLASS, &n);
	const sl_object *best = NULL;
	for (size_t i = 0; i < n; i++) {
		long long v;
		if (!pcs[i]->name || !sl_yaml_true(sl_map_get(pcs[i]->root, "globalDefault")) ||
		    !sl_scalar_int(sl_map_get(pcs[i]->root, "value"), &v))
			continue;
		if (!best || v < *value) {
			best = pcs[i];
			*value = v;
		}
	}
	return best;
}

/* u's own priorityClassName, else its Seldon ServerConfig's, else NULL. */
const char *sl_index_unit_priority_class(const sl_index *ix, const sl_unit *u)
{
	const char *name = sl_scalar(u->priority_class_name);
	if (name && *name)
		return name;
	const sl_object *cfg = sl_index_server_config(ix, u->obj);
	if (cfg && cfg->n_units > 0) {
		name = sl_scalar(cfg->units[0].priority_class_name);
		if (name && *name)
			return name;
	}
	return NULL;
}

/* u's priority: its class's value, or the globalDefault's (0 without one). */
bool sl_index_unit_priority(const sl_index *ix, const sl_unit *u, long long *value,
			    const char **name)
{
	*name = sl_index_unit_priority_class(ix, u);
	if (*name)
		return sl_index_priority_value(ix, *name, value);
	*value = 0;
	const sl_object *d = sl_index_default_priority_class(ix, value);
	*name = d ? d->name : NULL;
	return true;
}
