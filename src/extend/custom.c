/* SPDX-License-Identifier: Apache-2.0
** custom.c: declared rules (custom.h). A config's custom-rules: is read as a positioned tree
** (so every error in a rule has its file:line:col), each entry compiled into a struct sl_declared
** whose head is the struct sl_rule the registry lists, and checked through the rule SDK like any
** rule: the match: selectors pick the objects and units, the schema runs on the target's view,
** and the deepest failing node is reported. A view is the target's own mapping plus, for units
** and containers, a synthetic `$unit` member of resolved facts; the view is a new mapping node
** whose entries are the real ones (their positions, parents and pointers untouched), so only
** $unit's facts have no text of their own and are reported at the unit. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "extend/custom.h"
#include "util/regex.h"
#include "extend/pattern.h"
#include "config/registry.h"
#include "sdk/rule.h"
#include "extend/schema.h"
#include "util/spelling.h"

enum target { T_UNIT, T_CONTAINER, T_OBJECT };
/* The $unit facts that cost something to work out: made only for a rule whose schema may read
** them (sl_schema_reads_member); the others are there from the start. */
enum fact { F_REPLICAS = 1, F_REQUESTS_GPU = 2, F_GPUS = 4, F_PRIORITY = 8 };
static const char *const fact_names[] = {"replicas", "requestsGpu", "gpus", "priority"};
static const char *const targets[] = {"unit", "container", "object"};
static const char *const entry_keys[] = {"id", "summary", "severity", "target", "match", "schema",
					 "message", "doc"};
static const char *const selectors[] = {"kinds", "roles", "modes", "namespace", "name", "labels",
					"requests-gpu"};
static const char *const severities[] = {"info", "warning", "error"};   /* SL_SEV_INFO.. */
/* sl_role's names, in its order; "template" names a runtime's pod spec too */
static const char *const roles[] = {"pod", "predictor", "transformer", "explainer", "worker",
				    "canary", "router", "runtime", "llm", "scheduler", "server",
				    "template"};
/* sl_mode's names, then KServe's older names for two of them */
static const char *const modes[] = {"Plain", "Knative", "Standard", "ModelMesh", "Serverless",
				    "RawDeployment"};
static const char *const placeholders[] = {"unit", "object", "namespace", "name", "value",
					   "pointer"};
#define COUNT(a) (sizeof a / sizeof a[0])

struct label_sel { const char *key; sl_pattern *re; const char *src; };

struct sl_declared {
	struct sl_rule rule;         /* first: sl_ctx_rule(ctx) is the declared rule */
	enum target target;
	const sl_node *kinds;        /* sequence of kind names, NULL: any */
	unsigned roles;              /* bit per roles[] entry, 0: any */
	sl_pattern *ns, *name;
	const char *ns_src, *name_src;
	struct label_sel *labels;
	size_t n_labels;
	sl_tri requests_gpu;         /* UNKNOWN: not a selector */
	sl_schema *schema;
	bool uses_unit;              /* the schema names $unit: the view needs the facts */
	unsigned facts;              /* the costly facts it may read (enum fact) */
	const char *message;         /* NULL: the summary and the schema's words */
	const struct set *set;       /* what keeps it alive (the registry holds the rule) */
};

/* One file's custom-rules: and what they keep alive: its text, tree and compiled patterns. */
struct set {
	sl_source *src;
	sl_arena *arena;
	sl_regex_list codes;
	struct sl_declared **rules;
	size_t n_rules;
	struct set *next;            /* in kept_sets */
};

/* The sets whose rules the registry holds: kept for the life of the process, and reachable
** (a leak checker sees them held, not lost). */
static struct set *kept_sets;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static void set_free(struct set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_rules; i++)
		sl_schema_free(s->rules[i]->schema);
	sl_regex_list_free(&s->codes);
	free(s->rules);
	sl_arena_free(s->arena);
	sl_source_free(s->src);
	free(s);
}

/* --- compiling ------------------------------------------------------------------------------ */

struct cc {
	struct set *s;
	const char *path;
	char **error_out;
};

static sl_err error_at(struct cc *c, const sl_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static sl_err error_at(struct cc *c, const sl_node *at, const char *fmt, ...)
{
	uint32_t line = 1, col = 1;
	if (at)
		sl_source_position(c->s->src, at->start, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (!(msg = sl_xvprintf(fmt, ap)))
		msg = NULL;
	va_end(ap);
	if (!msg)
		return SL_ENOMEM;
	if (c->error_out)
		*c->error_out = sl_xprintf("%s:%u:%u: error: %s", c->path, line, col, msg);
	free(msg);
	return SL_ECONFIG;
}

/* " (did you mean \"x\"?)" for word among set, or "". An arena string. */
static const char *mean(struct cc *c, const char *word, const char *const *set, size_t n)
{
	const char *best = sl_spelling_closest(word, set, n);
	return best ? sl_arena_printf(c->s->arena, " (did you mean \"%s\"?)", best) : "";
}

static int one_of(const char *word, const char *const *set, size_t n)
{
	for (size_t i = 0; word && i < n; i++)
		if (strcmp(word, set[i]) == 0)
			return (int)i;
	return -1;
}

static const char *string_value(const sl_node *v)
{
	v = sl_node_deref(v);
	return v && v->type == SL_NODE_SCALAR && (v->style != SL_STYLE_PLAIN ||
						  sl_scalar_type(v) == SL_Y_STR) ? v->u.scalar.s : NULL;
}

static sl_err want_string(struct cc *c, const sl_node *key, const sl_node *v, const char **out)
{
	if (!(*out = string_value(v)))
		return error_at(c, v ? v : key, "%s must be a string", key->u.scalar.s);
	return SL_OK;
}

static sl_err want_seq(struct cc *c, const sl_node *key, const sl_node *v)
{
	v = sl_node_deref(v);
	if (!v || v->type != SL_NODE_SEQ)
		return error_at(c, v ? v : key, "match.%s must be a list", key->u.scalar.s);
	for (size_t i = 0; i < sl_seq_n(v); i++)
		if (!string_value(sl_seq_item(v, i)))
			return error_at(c, sl_seq_item(v, i), "match.%s must be a list of strings",
					key->u.scalar.s);
	return SL_OK;
}

static sl_err pattern(struct cc *c, const sl_node *v, const char *what, sl_pattern **out,
		      const char **src)
{
	const char *s = string_value(v);
	if (!s)
		return error_at(c, v, "%s must be a string (a PCRE2 pattern)", what);
	char why[200];
	sl_err err = sl_pattern_compile(c->s->arena, &c->s->codes, s, strlen(s), out, why, sizeof why);
	if (err == SL_EPARSE)
		return error_at(c, v, "%s: pattern \"%s\" does not compile: %s", what, s, why);
	*src = s;
	return err;
}

static sl_err compile_match(struct cc *c, struct sl_declared *d, const sl_node *m)
{
	m = sl_node_deref(m);
	if (!m || m->type != SL_NODE_MAP)
		return error_at(c, m, "match must be a mapping of selectors");
	for (size_t i = 0; i < sl_map_n(m); i++) {
		const sl_pair *p = sl_map_pair(m, i);
		const sl_node *k = sl_node_deref(p->key), *v = sl_node_deref(p->value);
		const char *key = k && k->type == SL_NODE_SCALAR ? k->u.scalar.s : "";
		sl_err err = SL_OK;
		switch (one_of(key, selectors, COUNT(selectors))) {
		case 0:   /* kinds */
			if ((err = want_seq(c, k, v)))
				return err;
			for (size_t j = 0; j < sl_seq_n(v); j++) {
				const char *kind = string_value(sl_seq_item(v, j));
				if (!sl_kinds_named_in(kind, strlen(kind)))
					return error_at(c, sl_seq_item(v, j), "match.kinds: \"%s\" is not a "
							"kind schedlint models", kind);
			}
			d->kinds = v;
			/* the engine's filter (a superset: sl_seq_has decides, "List" and "NodeList"
			** are one kind): rules of other kinds are not called */
			for (size_t j = 0; j < sl_seq_n(v); j++) {
				const char *kind = string_value(sl_seq_item(v, j));
				d->rule.kinds |= sl_kinds_named_in(kind, strlen(kind));
			}
			break;
		case 1:   /* roles */
			if ((err = want_seq(c, k, v)))
				return err;
			for (size_t j = 0; j < sl_seq_n(v); j++) {
				const char *r = string_value(sl_seq_item(v, j));
				int ri = one_of(r, roles, COUNT(roles));
				if (ri < 0)
					return error_at(c, sl_seq_item(v, j), "match.roles: unknown role "
							"\"%s\"%s", r, mean(c, r, roles, COUNT(roles)));
				d->roles |= 1u << (ri == (int)COUNT(roles) - 1 ? SL_ROLE_RUNTIME : ri);
			}
			break;
		case 2:   /* modes */
			if ((err = want_seq(c, k, v)))
				return err;
			for (size_t j = 0; j < sl_seq_n(v); j++) {
				const char *md = string_value(sl_seq_item(v, j));
				int mi = one_of(md, modes, COUNT(modes));
				if (mi < 0)
					return error_at(c, sl_seq_item(v, j), "match.modes: unknown mode "
							"\"%s\"%s", md, mean(c, md, modes, COUNT(modes)));
				d->rule.modes |= SL_MODE_BIT(mi == 4 ? SL_MODE_KNATIVE
							     : mi == 5 ? SL_MODE_STANDARD : mi);
			}
			break;
		case 3:
			err = pattern(c, v ? v : k, "match.namespace", &d->ns, &d->ns_src);
			break;
		case 4:
			err = pattern(c, v ? v : k, "match.name", &d->name, &d->name_src);
			break;
		case 5:   /* labels */
			if (!v || v->type != SL_NODE_MAP)
				return error_at(c, v ? v : k, "match.labels must be a mapping of label keys "
						"to patterns");
			d->n_labels = sl_map_n(v);
			if (!(d->labels = sl_arena_zalloc(c->s->arena, d->n_labels * sizeof *d->labels + 1)))
				return SL_ENOMEM;
			for (size_t j = 0; j < d->n_labels && !err; j++) {
				const sl_pair *lp = sl_map_pair(v, j);
				d->labels[j].key = sl_node_deref(lp->key)->u.scalar.s;
				err = pattern(c, lp->value ? lp->value : lp->key, "match.labels",
					      &d->labels[j].re, &d->labels[j].src);
			}
			break;
		case 6:   /* requests-gpu */
			if (!v || v->type != SL_NODE_SCALAR || sl_scalar_type(v) != SL_Y_BOOL)
				return error_at(c, v ? v : k, "match.requests-gpu must be true or false");
			d->requests_gpu = sl_yaml_true(v) ? SL_TRI_YES : SL_TRI_NO;
			break;
		default:
			return error_at(c, k, "unknown selector \"%s\" in match%s", key,
					mean(c, key, selectors, COUNT(selectors)));
		}
		if (err)
			return err;
	}
	return SL_OK;
}

static sl_err check_message(struct cc *c, const sl_node *v, const char *msg)
{
	for (const char *p = strchr(msg, '{'); p; p = strchr(p + 1, '{')) {
		const char *end = strchr(p, '}');
		if (!end)
			break;
		char name[32];
		size_t len = (size_t)(end - p - 1);
		if (len >= sizeof name)
			continue;
		memcpy(name, p + 1, len);
		name[len] = '\0';
		if (one_of(name, placeholders, COUNT(placeholders)) < 0)
			return error_at(c, v, "message: unknown placeholder {%s}%s (the placeholders are "
					"{unit}, {object}, {namespace}, {name}, {value}, {pointer})", name,
					mean(c, name, placeholders, COUNT(placeholders)));
	}
	return SL_OK;
}

static sl_err check_unit(sl_ctx *ctx, const sl_unit *u);
static sl_err check_object(sl_ctx *ctx, const sl_object *o);

static sl_err compile_rule(struct cc *c, const sl_node *e, struct sl_declared **out)
{
	e = sl_node_deref(e);
	if (!e || e->type != SL_NODE_MAP)
		return error_at(c, e, "a custom rule must be a mapping (id, summary, schema, ...)");
	struct sl_declared *d = sl_arena_zalloc(c->s->arena, sizeof *d);
	if (!d)
		return SL_ENOMEM;
	d->rule.severity = SL_SEV_WARNING;
	const sl_node *schema = NULL, *match = NULL;
	const char *summary = NULL;
	for (size_t i = 0; i < sl_map_n(e); i++) {
		const sl_pair *p = sl_map_pair(e, i);
		const sl_node *k = sl_node_deref(p->key), *v = p->value;
		const char *key = k && k->type == SL_NODE_SCALAR ? k->u.scalar.s : "";
		const char *s = NULL;
		sl_err err = SL_OK;
		int sev;
		switch (one_of(key, entry_keys, COUNT(entry_keys))) {
		case 0:
			err = want_string(c, k, v, &d->rule.id);
			break;
		case 1:
			err = want_string(c, k, v, &summary);
			break;
		case 2:
			if (!(err = want_string(c, k, v, &s)) &&
			    (sev = one_of(s, severities, COUNT(severities))) < 0)
				return error_at(c, v, "severity must be error, warning or info, not \"%s\"%s",
						s, mean(c, s, severities, COUNT(severities)));
			if (!err)
				d->rule.severity = (sl_severity)(SL_SEV_INFO + sev);
			break;
		case 3:
			if (!(err = want_string(c, k, v, &s)) &&
			    (int)(d->target = (enum target)one_of(s, targets, COUNT(targets))) < 0)
				return error_at(c, v, "unknown target \"%s\" (unit, container or object)%s", s,
						mean(c, s, targets, COUNT(targets)));
			break;
		case 4:
			match = v ? v : k;
			break;
		case 5:
			schema = v ? v : k;
			break;
		case 6:
			if (!(err = want_string(c, k, v, &d->message)))
				err = check_message(c, v, d->message);
			break;
		case 7:   /* doc: read when the rule is added */
			err = want_string(c, k, v, &s);
			break;
		default:
			return error_at(c, k, "unknown key \"%s\" in a custom rule%s", key,
					mean(c, key, entry_keys, COUNT(entry_keys)));
		}
		if (err)
			return err;
	}
	if (!d->rule.id)
		return error_at(c, e, "a custom rule needs an id (\"acme/gpu-needs-priority\")");
	const char *id = d->rule.id, *slash = strchr(id, '/');
	const sl_node *idv = sl_map_get(e, "id");
	if (!slash || slash == id || !slash[1] || strchr(slash + 1, '/'))
		return error_at(c, idv, "custom rule id \"%s\" needs a namespace: \"team/%s\" (the "
				"namespace keeps it apart from the built-in rules)", id, slash ? slash + 1 : id);
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '/' ||
		      *p == '.' || *p == '_'))
			return error_at(c, idv, "custom rule id \"%s\": use lower-case letters, digits, "
					"'-', '.' and '_' around the '/'", id);
	int clash = sl_registry_find(id);
	if (clash >= 0 && (size_t)clash < sl_registry_count)
		return error_at(c, idv, "custom rule id \"%s\" is a built-in rule's", id);
	for (size_t i = 0; i < c->s->n_rules; i++)
		if (strcmp(c->s->rules[i]->rule.id, id) == 0)
			return error_at(c, idv, "custom rule id \"%s\" is declared twice", id);
	if (!schema)
		return error_at(c, e, "custom rule \"%s\" needs a schema", id);
	if (match) {
		sl_err err = compile_match(c, d, match);
		if (err)
			return err;
		if (d->roles && d->target == T_OBJECT)
			return error_at(c, sl_map_get_key(sl_node_deref(match), "roles"),
					"match.roles selects units, and the target is object");
	}
	/* most schemas never read $unit: their view is the target's own mapping, no facts made */
	d->uses_unit = memmem(c->s->src->data + schema->start, schema->end - schema->start, "$unit", 5);
	sl_schema_problem pb;
	sl_err err = sl_schema_compile(schema, &d->schema, &pb);
	if (err == SL_ECONFIG)
		return error_at(c, pb.at, "custom rule \"%s\": schema: %s", id, pb.message);
	if (err)
		return err;
	for (unsigned i = 0; d->uses_unit && i < COUNT(fact_names); i++)
		if (sl_schema_reads_member(d->schema, fact_names[i]))
			d->facts |= 1u << i;
	d->rule.category = sl_arena_strndup(c->s->arena, id, (size_t)(slash - id));
	d->rule.summary = summary ? summary : id;
	d->rule.fix = SL_FIX_NONE;
	if (d->target == T_OBJECT)
		d->rule.check_object = check_object;
	else
		d->rule.check_unit = check_unit;
	if (!d->rule.category)
		return SL_ENOMEM;
	*out = d;
	return SL_OK;
}

static sl_err read_set(const char *path, const char *text, size_t len, struct set *s,
		       const sl_node **rules)
{
	*rules = NULL;
	sl_err err = sl_source_from_buffer(path, text, len, &s->src);
	if (err || (err = sl_source_index(s->src)) || !(s->arena = sl_arena_new()))
		return err ? err : SL_ENOMEM;
	sl_tree t;
	if ((err = sl_tree_parse(s->src, s->arena, &t, NULL, NULL)))
		return err;
	if (t.n_docs && t.docs[0]->root)
		*rules = sl_map_get(t.docs[0]->root, "custom-rules");
	return SL_OK;
}

/* The entry's text and where it stands: what makes two declarations the same rule. */
static char *declaration_key(const struct set *s, const char *path, const sl_node *e)
{
	return sl_arena_printf(s->arena, "%s\n%.*s", path, (int)(e->end - e->start),
			       s->src->data + e->start);
}

sl_err sl_custom_declare(const sl_config *cfg, int **idx, size_t *n, char **error_out)
{
	*idx = NULL;
	*n = 0;
	struct set *s = NULL;
	const sl_node *list = NULL;
	const char *path = NULL;
	for (size_t k = 0; k <= SL_CONFIG_CHAIN_MAX && cfg && cfg->chain[k] && !list; k++) {
		size_t len = 0;
		const char *text = sl_config_text(cfg, k, &len);
		if (!text || !memmem(text, len, "custom-rules", 12))
			continue;   /* most configs declare none: not parsed again */
		set_free(s);
		if (!(s = sl_xcalloc(1, sizeof *s)))
			return SL_ENOMEM;
		path = cfg->chain[k];
		sl_err err = read_set(path, text, len, s, &list);
		if (err) {
			set_free(s);
			return err;
		}
	}
	list = sl_node_deref(list);
	struct cc c = {s, path, error_out};
	sl_err err = SL_OK;
	if (!list || (list->type == SL_NODE_SCALAR && sl_scalar_type(list) == SL_Y_NULL)) {
		set_free(s);
		return SL_OK;
	}
	if (list->type != SL_NODE_SEQ) {
		err = error_at(&c, list, "custom-rules must be a list of rules");
		set_free(s);
		return err;
	}
	size_t count = sl_seq_n(list);
	if (!(s->rules = sl_xcalloc(count + 1, sizeof *s->rules)) ||
	    !(*idx = sl_xcalloc(count + 1, sizeof **idx))) {
		set_free(s);
		return SL_ENOMEM;
	}
	for (size_t i = 0; i < count && !err; i++) {
		struct sl_declared *d = NULL;
		if (!(err = compile_rule(&c, sl_seq_item(list, i), &d))) {
			d->set = s;
			s->rules[s->n_rules++] = d;
		}
	}
	bool kept = false;
	for (size_t i = 0; i < s->n_rules && !err; i++) {
		const sl_node *e = sl_node_deref(sl_seq_item(list, i));
		const sl_node *docv = sl_map_get(e, "doc");
		uint32_t line, col;
		sl_source_position(s->src, e->start, &line, &col);
		const char *doc = string_value(docv) ? string_value(docv) : s->rules[i]->rule.summary;
		const char *file = sl_arena_printf(s->arena, "%s:%u", path, line);
		const char *key = declaration_key(s, path, e);
		bool added = false;
		if (!file || !key) {
			err = SL_ENOMEM;
			break;
		}
		int ri = sl_registry_add(&s->rules[i]->rule, doc, file, key, &added);
		if (ri < 0)
			err = error_at(&c, e, "too many custom rules in this process (at most %d)",
				       SL_REGISTRY_ADDED_MAX);
		(*idx)[(*n)++] = ri;
		kept |= added;
	}
	if (err) {
		free(*idx);
		*idx = NULL;
		*n = 0;
	}
	if (!kept) {
		set_free(s);
	} else {   /* the registry's entries live in it */
		pthread_mutex_lock(&kept_lock);
		s->next = kept_sets;
		kept_sets = s;
		pthread_mutex_unlock(&kept_lock);
	}
	return err;
}

/* --- checking ------------------------------------------------------------------------------- */

/* True when re matches s (NULL: ""); *undecided when the match hit a limit. md is made when
** PCRE2 first runs. */
static bool matches(pcre2_match_data **md, const sl_pattern *re, const char *s, bool *undecided)
{
	int rc = sl_pattern_match(re, s ? s : "", s ? strlen(s) : 0, md, NULL);
	if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
		*undecided = true;
	return rc > 0;
}

/* True when the match: selectors that do not depend on the unit hold for o. */
static bool object_selected(const struct sl_declared *d, const sl_object *o)
{
	if (d->kinds && !sl_seq_has(d->kinds, o->kind_name))
		return false;
	if (!d->ns && !d->name && !d->n_labels)
		return true;
	bool undecided = false, ok = true;
	pcre2_match_data *md = NULL;
	if (d->ns && !matches(&md, d->ns, o->namespace_, &undecided))
		ok = false;
	if (ok && d->name && !matches(&md, d->name, o->name, &undecided))
		ok = false;
	for (size_t i = 0; ok && i < d->n_labels; i++) {
		const char *v = sl_scalar(sl_map_get(o->labels, d->labels[i].key));
		ok = v && matches(&md, d->labels[i].re, v, &undecided);
	}
	if (md)   /* PCRE2 ran: a pattern no shortcut answers */
		pcre2_match_data_free(md);
	return ok && !undecided;
}

/* Makes n (zeroed) a synthetic node: its text is the unit's (position, parent and pointer of
** at). */
static sl_node *synth_in(sl_node *n, const sl_node *at, sl_node *parent, uint32_t pos,
			 const char *text, bool string, bool key)
{
	n->type = SL_NODE_SCALAR;
	n->style = string ? SL_STYLE_DOUBLE : SL_STYLE_PLAIN;
	n->is_key = key;
	n->start = at->start;
	n->end = at->end;
	n->parent = parent;
	n->pos = pos;
	n->u.scalar.s = text ? text : "";
	n->u.scalar.len = text ? strlen(text) : 0;
	return n;
}

static sl_node *synth(sl_arena *a, const sl_node *at, sl_node *parent, uint32_t pos,
		      const char *text, bool string, bool key)
{
	sl_node *n = sl_arena_zalloc(a, sizeof *n);
	return n ? synth_in(n, at, parent, pos, text, string, key) : NULL;
}

static sl_node *synth_map(sl_arena *a, const sl_node *at, sl_node *parent, uint32_t pos, size_t n)
{
	sl_node *m = sl_arena_zalloc(a, sizeof *m);
	if (!m || !(m->u.map.pairs = sl_arena_zalloc(a, (n + 1) * sizeof *m->u.map.pairs)))
		return NULL;
	m->type = SL_NODE_MAP;
	m->start = at->start;
	m->end = at->end;
	m->parent = parent;
	m->pos = pos;
	return m;
}

/* Adds key: text to m, their nodes the next two of *block (zeroed). */
static void put(sl_node **block, sl_node *m, const char *key, const char *text, bool string)
{
	uint32_t i = (uint32_t)m->u.map.n;
	sl_pair *p = &m->u.map.pairs[i];
	p->key = synth_in((*block)++, m, m, i, key, true, true);
	p->value = synth_in((*block)++, m, m, i, text, string, false);
	m->u.map.n++;
}

/* v in decimal (what "%lld" writes), an arena string. */
static char *decimal(sl_arena *a, long long v)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long long x = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + x % 10);
	while (x /= 10);
	if (v < 0)
		*--p = '-';
	return sl_arena_strndup(a, p, (size_t)(buf + sizeof buf - p));
}

/* Where a unit is reported: its pod spec mapping, else (a unit without one) its object. */
static const sl_node *unit_node(const sl_unit *u)
{
	return u->pod ? u->pod : u->obj->root;
}

/* What declared rules compute once per unit and share while an object is checked
** (sl_ctx_object_cache): whether it requests a GPU, its $unit facts. */
struct unit_memo {
	sl_tri gpu;
	sl_tri templated;   /* YES: merged over a template among the linted files */
	sl_node *facts;
	unsigned made;      /* the costly facts worked out (enum fact); the others read "" */
	sl_node *view;      /* the view of target: unit */
};

static struct unit_memo *memo_of(sl_ctx *ctx, const sl_unit *u)
{
	const sl_object *o = u->obj;
	struct unit_memo **slot = (struct unit_memo **)sl_ctx_object_cache(ctx);
	if (!slot || (!*slot && !(*slot = sl_arena_zalloc(sl_ctx_arena(ctx),
							   (o->n_units + 1) * sizeof **slot))))
		return NULL;
	size_t i = u >= o->units && u < o->units + o->n_units ? (size_t)(u - o->units) : o->n_units;
	return &(*slot)[i];
}

static bool unit_gpu(sl_ctx *ctx, const sl_unit *u)
{
	struct unit_memo *m = memo_of(ctx, u);
	if (m && m->gpu != SL_TRI_UNKNOWN)
		return m->gpu == SL_TRI_YES;
	bool yes = sl_gpu_unit_use(sl_ctx_index(ctx), u).value == SL_TRI_YES;
	if (m)
		m->gpu = yes ? SL_TRI_YES : SL_TRI_NO;
	return yes;
}

/* Sets scalar n's text. */
static void set_text(sl_node *n, const char *text)
{
	n->u.scalar.s = text ? text : "";
	n->u.scalar.len = text ? strlen(text) : 0;
}

/* Works out the costly facts of need that f, u's facts, lacks. */
static bool make_facts(sl_ctx *ctx, const sl_unit *u, sl_node *f, unsigned need, unsigned *made)
{
	sl_arena *a = sl_ctx_arena(ctx);
	sl_pair *p = f->u.map.pairs;   /* in unit_facts' order: replicas is 5th */
	need &= ~*made;
	if (need & F_REPLICAS) {
		long long pods = sl_unit_pods(u);   /* the pods the controller makes (replicas x hosts...) */
		char *replicas = pods >= 0 ? decimal(a, pods) : NULL;
		if (pods >= 0 && !replicas)
			return false;
		set_text(p[5].value, replicas);
	}
	if (need & F_REQUESTS_GPU)
		set_text(p[6].value, unit_gpu(ctx, u) ? "true" : "false");
	if (need & F_GPUS) {
		char *gpus = decimal(a, sl_gpu_unit_count(sl_ctx_config(ctx), u));
		if (!gpus)
			return false;
		set_text(p[7].value, gpus);
	}
	if (need & F_PRIORITY) {
		long long value = 0;
		const char *cls = NULL;
		bool known = sl_index_unit_priority(sl_ctx_index(ctx), u, &value, &cls);
		char *pv = known ? decimal(a, value) : NULL;   /* no class, no default: 0 */
		if (known && !pv)
			return false;
		sl_pair *pp = p[8].value->u.map.pairs;
		pp[0].value->style = cls ? SL_STYLE_DOUBLE : SL_STYLE_PLAIN;
		set_text(pp[0].value, cls);
		set_text(pp[1].value, pv);
	}
	*made |= need;
	return true;
}

/* u's $unit facts, with the costly ones of need (enum fact) worked out: a synthetic mapping
** whose position is the unit's. */
static sl_node *unit_facts(sl_ctx *ctx, const sl_unit *u, unsigned need)
{
	struct unit_memo *m = memo_of(ctx, u);
	unsigned made_here = 0, *made = m ? &m->made : &made_here;
	if (m && m->facts)
		return make_facts(ctx, u, m->facts, need, made) ? m->facts : NULL;
	sl_arena *a = sl_ctx_arena(ctx);
	sl_node *f = synth_map(a, unit_node(u), NULL, 0, 10);
	sl_node *prio = f ? synth_map(a, unit_node(u), f, 8, 2) : NULL;
	sl_node *block = prio ? sl_arena_zalloc(a, 21 * sizeof *block) : NULL;   /* 10 pairs, a key */
	if (!block)
		return NULL;
	const sl_object *o = u->obj;
	static const char *const mode_names[] = {"Plain", "Knative", "Standard", "ModelMesh"};
	put(&block, f, "kind", o->kind_name, true);
	put(&block, f, "name", o->name, !!o->name);
	put(&block, f, "namespace", o->namespace_ ? o->namespace_ : "", true);
	put(&block, f, "role", sl_unit_role_name(u), true);
	put(&block, f, "mode", mode_names[u->mode], true);
	put(&block, f, "replicas", NULL, false);
	put(&block, f, "requestsGpu", NULL, false);
	put(&block, f, "gpus", NULL, false);
	put(&block, prio, "class", NULL, false);
	put(&block, prio, "value", NULL, false);
	sl_pair *pp = &f->u.map.pairs[f->u.map.n];
	pp->key = synth_in(block, f, f, (uint32_t)f->u.map.n, "priority", true, true);
	prio->pos = (uint32_t)f->u.map.n;
	pp->value = prio;
	f->u.map.n++;
	if (!make_facts(ctx, u, f, need, made))
		return NULL;
	if (m)
		m->facts = f;
	return f;
}

/* True when u is merged over a template (a ServingRuntime, a Seldon ServerConfig) among the
** linted files. */
static bool templated(sl_ctx *ctx, const sl_unit *u)
{
	struct unit_memo *m = memo_of(ctx, u);
	if (m && m->templated != SL_TRI_UNKNOWN)
		return m->templated == SL_TRI_YES;
	bool yes = sl_ctx_merged(ctx, u).base != NULL;
	if (m)
		m->templated = yes ? SL_TRI_YES : SL_TRI_NO;
	return yes;
}

/* A synthetic list of items (real nodes, wherever they stand) at v's member pos. */
static sl_node *synth_seq(sl_arena *a, const sl_node *at, sl_node *v, uint32_t pos, sl_items it)
{
	size_t n = sl_merge_items_count(it);
	sl_node *s = n ? sl_arena_zalloc(a, sizeof *s) : NULL;
	if (!s || !(s->u.seq.items = sl_arena_zalloc(a, n * sizeof *s->u.seq.items)))
		return NULL;
	s->type = SL_NODE_SEQ;
	s->start = at->start;
	s->end = at->end;
	s->parent = v;
	s->pos = pos;
	for (const sl_node *i; (i = sl_merge_items_next(&it));)
		s->u.seq.items[s->u.seq.n++] = (sl_node *)i;
	return s;
}

/* Puts key: value into view v, in place of v's own member key when it has one. */
static bool set_member(sl_arena *a, sl_node *v, const sl_node *at, const char *key, sl_node *value)
{
	uint32_t i = 0;
	while (i < v->u.map.n && !sl_scalar_is(v->u.map.pairs[i].key, key))
		i++;
	if (i == v->u.map.n && !(v->u.map.pairs[i].key = synth(a, at, v, i, key, true, true)))
		return false;
	if (i == v->u.map.n)
		v->u.map.n++;
	if (value->parent == v || !value->parent)
		value->pos = i;
	v->u.map.pairs[i].value = value;
	return true;
}

/* The scheduling members of v as u's pods get them when u is merged over its template
** (merge.h: KServe's strategic merge, Seldon's append): tolerations and
** topologySpreadConstraints merged lists, nodeSelector the merged map, affinity and
** priorityClassName the template's when u has none. The fields the index keeps of a template,
** so a streaming run sees the same. */
static bool merge_template(sl_ctx *ctx, const sl_unit *u, sl_node *v)
{
	sl_arena *a = sl_ctx_arena(ctx);
	sl_merged m = sl_ctx_merged(ctx, u);
	const sl_node *at = unit_node(u);
	sl_node *tol = synth_seq(a, at, v, 0, sl_merged_tolerations(&m));
	sl_node *spread = synth_seq(a, at, v, 0, sl_merged_spread(&m));
	if ((tol && !set_member(a, v, at, "tolerations", tol)) ||
	    (spread && !set_member(a, v, at, "topologySpreadConstraints", spread)))
		return false;
	sl_pairs it = sl_merged_node_selector(&m);
	size_t n = 0;
	for (sl_pairs c = it; sl_merge_pairs_next(&c);)
		n++;
	if (n) {
		sl_node *ns = synth_map(a, at, v, 0, n);
		if (!ns)
			return false;
		for (const sl_pair *p; (p = sl_merge_pairs_next(&it));)
			ns->u.map.pairs[ns->u.map.n++] = *p;
		if (!set_member(a, v, at, "nodeSelector", ns))
			return false;
	}
	static const char *const whole[] = {"affinity", "priorityClassName"};
	for (size_t k = 0; k < 2; k++) {
		const sl_node *b = m.base ? sl_map_get(m.base->pod, whole[k]) : NULL;
		if (b && !sl_map_get(u->pod, whole[k]) &&
		    !set_member(a, v, at, whole[k], (sl_node *)b))
			return false;
	}
	return true;
}

/* The target's view: map's entries and a `$unit` member of u's facts; for the unit's own pod
** spec, merged over its template. *facts gets $unit. */
static sl_node *unit_view(sl_ctx *ctx, const sl_unit *u, const sl_node *map, unsigned need,
			  sl_node **facts)
{
	sl_arena *a = sl_ctx_arena(ctx);
	const sl_node *real = sl_node_deref(map);
	size_t n = real && real->type == SL_NODE_MAP ? sl_map_n(real) : 0;
	sl_node *v = synth_map(a, real ? real : unit_node(u), real ? real->parent : NULL,
			       real ? real->pos : 0, n + 1 + 5);
	sl_node *f = v ? unit_facts(ctx, u, need) : NULL;
	if (!f)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v->u.map.pairs[i] = *sl_map_pair(real, i);
	/* the facts are shared by the unit's views: the first one is their parent */
	if (!f->parent) {
		f->parent = v;
		f->pos = (uint32_t)n;
	}
	sl_pair *up = &v->u.map.pairs[n];
	if (!(up->key = synth(a, f, v, (uint32_t)n, "$unit", true, true)))
		return NULL;
	up->value = f;
	v->u.map.n = n + 1;
	*facts = f;
	if (map == u->pod && templated(ctx, u) && !merge_template(ctx, u, v))
		return NULL;
	return v;
}

static bool within(const sl_node *n, const sl_node *root)
{
	for (; n; n = n->parent)
		if (n == root)
			return true;
	return false;
}

/* Fills the message's placeholders. */
static const char *render(sl_ctx *ctx, const struct sl_declared *d, const sl_object *o,
			  const sl_unit *u, const sl_schema_failure *f, const char *pointer)
{
	sl_arena *a = sl_ctx_arena(ctx);
	if (!d->message)
		return sl_arena_printf(a, "%s: %s", d->rule.summary, f->message);
	const char *out = "";
	const char *p = d->message;
	while (out && *p) {
		const char *open = strchr(p, '{');
		const char *close = open ? strchr(open, '}') : NULL;
		if (!close) {
			out = sl_arena_printf(a, "%s%s", out, p);
			break;
		}
		char name[32] = "";
		size_t len = (size_t)(close - open - 1);
		if (len < sizeof name) {
			memcpy(name, open + 1, len);
			name[len] = '\0';
		}
		const char *val = NULL;
		switch (one_of(name, placeholders, COUNT(placeholders))) {
		case 0: val = u ? sl_ctx_label(ctx, u) : sl_object_label(o, a); break;
		case 1: val = sl_object_label(o, a); break;
		case 2: val = o->namespace_ ? o->namespace_ : ""; break;
		case 3: val = o->name ? o->name : ""; break;
		case 4: val = f->value ? f->value : ""; break;
		case 5: val = pointer ? pointer : ""; break;
		default: break;
		}
		/* a name or value quoted is cut (a megabyte scalar, aliased in every finding) */
		val = val ? sl_arena_cut(a, val, SL_QUOTED_MAX) : NULL;
		if (!val) {   /* not a placeholder (or out of memory): keep the text */
			out = sl_arena_printf(a, "%s%.*s", out, (int)(close + 1 - p), p);
		} else {
			out = sl_arena_printf(a, "%s%.*s%s", out, (int)(open - p), p, val);
		}
		p = close + 1;
	}
	return out ? out : d->message;
}

/* Validates view; reports at the deepest failing node (a missing member: at the key of the
** mapping that lacks it; a $unit fact: at the unit). */
static sl_err evaluate(sl_ctx *ctx, const struct sl_declared *d, const sl_object *o,
		       const sl_unit *u, const sl_node *view, const sl_node *real,
		       const sl_node *facts)
{
	sl_schema_failure f;
	int rc = sl_schema_validate_budget(d->schema, view, sl_ctx_arena(ctx),
					   sl_ctx_regex_budget(ctx), &f);
	if (rc < 0)
		return SL_ENOMEM;
	if (rc == 1)
		return SL_OK;
	const sl_node *at = f.at;
	/* a mapping or a list is named by its key ("nodeSelector:"), as a missing member is */
	bool key = f.missing || (at && sl_node_deref(at) && sl_node_deref(at)->type != SL_NODE_SCALAR);
	if (!at || at == view || (facts && within(at, facts))) {
		at = facts && within(f.at, facts) && u ? unit_node(u) : real;
		key = true;
	} else if (u && sl_node_doc(at) != sl_node_doc(unit_node(u))) {
		at = unit_node(u);   /* the template's value, in another document: at the unit */
		key = true;
	}
	const char *pointer = sl_node_pointer(at, sl_ctx_arena(ctx));
	const char *msg = render(ctx, d, o, u, &f, pointer);
	sl_report *r = key && sl_node_key(at) ? sl_report_key(ctx, at, "%s", msg)
					      : sl_report_at(ctx, at, "%s", msg);
	if (f.unrun)
		sl_report_note(ctx, r, "%zu more value%s %s not matched against %s pattern: the run's "
			       "budget for patterns is spent (%llu steps, 16 matches at PCRE2's match "
			       "limit); simplify the pattern (a nested or alternated repetition that "
			       "backtracks)", f.unrun, f.unrun == 1 ? "" : "s",
			       f.unrun == 1 ? "was" : "were", f.unrun == 1 ? "its" : "their",
			       (unsigned long long)SL_REGEX_RUN_BUDGET);
	return SL_OK;
}

static sl_err check_object(sl_ctx *ctx, const sl_object *o)
{
	const struct sl_declared *d = (const struct sl_declared *)sl_ctx_rule(ctx);
	if (!object_selected(d, o))
		return SL_OK;
	if (d->requests_gpu != SL_TRI_UNKNOWN) {
		bool any = false;
		for (size_t i = 0; i < o->n_units && !any; i++)
			any = unit_gpu(ctx, &o->units[i]);
		if (any != (d->requests_gpu == SL_TRI_YES))
			return SL_OK;
	}
	return evaluate(ctx, d, o, NULL, o->root, o->root, NULL);
}

static sl_err check_unit(sl_ctx *ctx, const sl_unit *u)
{
	const struct sl_declared *d = (const struct sl_declared *)sl_ctx_rule(ctx);
	const sl_object *o = u->obj;
	if (!object_selected(d, o) || (d->roles && !(d->roles & (1u << u->role))))
		return SL_OK;
	if (d->requests_gpu != SL_TRI_UNKNOWN && unit_gpu(ctx, u) != (d->requests_gpu == SL_TRI_YES))
		return SL_OK;
	sl_node *facts = NULL;
	if (d->target == T_UNIT && !d->uses_unit && !templated(ctx, u))
		return evaluate(ctx, d, o, u, u->pod, unit_node(u), NULL);
	if (d->target == T_UNIT) {
		struct unit_memo *m = memo_of(ctx, u);   /* one view for the unit's rules */
		const sl_node *view = m && m->view ? m->view : unit_view(ctx, u, u->pod, d->facts, &facts);
		if (m && view && view == m->view && !unit_facts(ctx, u, d->facts))   /* its facts too */
			return SL_ENOMEM;
		if (m && view && !m->view)
			m->view = (sl_node *)view;
		facts = m && m->facts ? m->facts : facts;
		return view ? evaluate(ctx, d, o, u, view, unit_node(u), facts) : SL_ENOMEM;
	}
	for (size_t i = 0; i < u->n_containers; i++) {
		const sl_node *c = u->containers[i].node ? u->containers[i].node : unit_node(u);
		const sl_node *view = d->uses_unit ? unit_view(ctx, u, c, d->facts, &facts) : c;
		if (!view)
			return SL_ENOMEM;
		sl_err err = evaluate(ctx, d, o, u, view, c, facts);
		if (err)
			return err;
	}
	return SL_OK;
}
