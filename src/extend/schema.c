/* SPDX-License-Identifier: Apache-2.0
** schema.c: the JSON Schema subset of spec/custom-rules.md, compiled from a positioned tree and
** evaluated on positioned nodes. Compiling checks every keyword (an unknown one is an error that
** names it), compiles each pattern once (PCRE2, UTF mode, JIT where available) and resolves each
** local $ref to the subschema it points at (memoised by node, so a recursive $ref is a cycle of
** pointers, not an endless compile). Validating runs under PCRE2's match and depth limits and a
** nesting limit, so neither a pattern nor a self-referencing schema can hang a run. Failures in
** branches that are tried (anyOf, oneOf, not, if, contains) are not reported; of the others the
** deepest instance node is kept. */
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "k8s/quantity.h"
#include "util/hash.h"
#include "util/regex.h"
#include "extend/pattern.h"
#include "extend/schema.h"
#include "util/spelling.h"

#define SL_SCHEMA_MAX_DEPTH 256   /* nested validations (a $ref cycle that never reaches data) */

/* sl_node_deref, inlined: validating reads every node through it. */
static inline const sl_node *deref(const sl_node *n)
{
	return n && n->type == SL_NODE_ALIAS ? n->u.alias.target : n;
}

enum jtype { J_NULL = 1, J_BOOL = 2, J_NUMBER = 4, J_INTEGER = 8, J_STRING = 16, J_ARRAY = 32,
	     J_OBJECT = 64 };

struct sub;
struct prop { const char *name; size_t len; struct sub *s; };
struct pprop { sl_pattern *re; const char *src; struct sub *s; };
struct dep { const char *name; size_t len; struct sub *s; const sl_node *names; };
struct list { struct sub **v; size_t n; };

struct sub {
	const sl_node *node;
	int boolean;                 /* -1: a mapping; 0/1: the boolean schema false/true */
	struct sub *ref;             /* $ref: the rest is ignored (draft 7) */
	unsigned types;              /* 0: any */
	const sl_node *enum_, *const_;
	sl_pattern *pattern;
	const char *pattern_src;
	long long min_len, max_len, min_items, max_items, min_props, max_props;   /* -1: unset */
	bool has_min, has_max, has_xmin, has_xmax, has_mult, unique;
	double min, max, xmin, xmax, mult;
	bool has_qmin, has_qmax;
	sl_quantity qmin, qmax;
	const char *qmin_src, *qmax_src;
	const sl_node *required;
	struct prop *props;
	size_t n_props;
	struct pprop *pprops;
	size_t n_pprops;
	struct sub *additional_props, *property_names;
	struct dep *deps;
	size_t n_deps;
	struct sub *items;           /* items as one schema */
	struct list item_list;       /* items as an array */
	bool items_is_list;
	struct sub *additional_items, *contains, *not_, *if_, *then_, *else_;
	struct list all_of, any_of, one_of;
	/* which keywords s has, by what they read: a scalar's type or value (and type, enum and
	** const), an object, its members one by one, an array; combinators (allOf ... if) */
	bool scalar_keywords, object_keywords, per_member, array_keywords, combinators;
	bool quantity_only;          /* of the scalar keywords, only quantityMinimum/Maximum */
	bool equality_only;          /* of the scalar keywords, only enum and const: no type needed */
	bool const_string;           /* const_ is a string: equal only to the same text */
	bool enum_strings;           /* every item of enum_ is a string */
	/* the properties' names, a bit each (name_bit); props_only: no keyword but properties
	** reads members, so a member whose bit is not set is not looked at */
	uint64_t prop_bits;
	bool props_only;
	bool path_step;              /* one property and no other keyword: a step of a path (valid) */
};

struct memo { const sl_node *node; struct sub *s; };

struct sl_schema {
	sl_arena *arena;
	struct sub *root;
	const sl_node *root_node;
	sl_regex_list codes;
	struct memo *memo;
	size_t n_memo, cap_memo;
	/* what validating may read of an object's members (sl_schema_reads_member): any member
	** (reads_any), or those named under properties anywhere */
	bool reads_any;
	const struct prop **named;
	size_t n_named;
};

/* --- instances ------------------------------------------------------------------------------ */

static double scalar_number(const sl_node *n)
{
	long long i;
	if (sl_scalar_int(n, &i))
		return (double)i;
	const char *s = n->u.scalar.s;
	const char *p = s + (*s == '+' || *s == '-');
	if (strcasecmp(p, ".inf") == 0)
		return *s == '-' ? -INFINITY : INFINITY;
	if (strcasecmp(p, ".nan") == 0)
		return NAN;
	char buf[80];
	size_t k = 0;
	for (; *s && k + 1 < sizeof buf; s++)
		if (*s != '_')
			buf[k++] = *s;
	buf[k] = '\0';
	return strtod(buf, NULL);
}

/* True for a plain scalar that is a decimal integer without a sign, a leading zero or a
** separator ("3", "1024"), *v its value: what YAML 1.1 typing and sl_scalar_int make of it,
** without their three passes over the text. */
static bool plain_decimal(const sl_node *n, double *v)
{
	const char *s = n->u.scalar.s;
	size_t len = n->u.scalar.len;
	if (n->style != SL_STYLE_PLAIN || sl_node_tag(n) || !len || len > 15 || (s[0] == '0' && len > 1))
		return false;
	long long x = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (s[i] - '0');
	}
	*v = (double)x;
	return true;
}

/* True for a scalar that is a string or a number, never null or a boolean: a key, a quoted
** scalar, a plain one without a tag that starts with a digit. (For the quantity keywords,
** which read either alike, without typing the text.) */
static bool text_or_number(const sl_node *n)
{
	return n->is_key || (!sl_node_tag(n) && (n->style != SL_STYLE_PLAIN ||
						 (n->u.scalar.s[0] >= '0' && n->u.scalar.s[0] <= '9')));
}

/* The JSON type of n: J_INTEGER also for a number whose fraction is zero (draft 7). */
static unsigned jtype(const sl_node *n, double *num)
{
	n = deref(n);
	if (!n)
		return J_NULL;
	if (n->type == SL_NODE_MAP)
		return J_OBJECT;
	if (n->type == SL_NODE_SEQ)
		return J_ARRAY;
	if (n->is_key)
		return J_STRING;
	double d;
	if (plain_decimal(n, &d)) {
		if (num)
			*num = d;
		return J_NUMBER | J_INTEGER;
	}
	switch (sl_scalar_type(n)) {
	case SL_Y_NULL: return J_NULL;
	case SL_Y_BOOL: return J_BOOL;
	case SL_Y_INT:
	case SL_Y_FLOAT: {
		double d = scalar_number(n);
		if (num)
			*num = d;
		return isfinite(d) && d == floor(d) ? J_NUMBER | J_INTEGER : J_NUMBER;
	}
	default: return J_STRING;
	}
}

static bool json_equal(const sl_node *a, const sl_node *b, unsigned depth)
{
	double x = 0, y = 0;
	unsigned ta = jtype(a, &x), tb = jtype(b, &y);
	if ((ta & ~J_INTEGER) != (tb & ~J_INTEGER) || depth > SL_SCHEMA_MAX_DEPTH)
		return false;
	a = deref(a);
	b = deref(b);
	switch (ta & ~J_INTEGER) {
	case J_NULL: return true;
	case J_BOOL: return sl_yaml_true(a) == sl_yaml_true(b);
	case J_NUMBER: return x == y;
	case J_STRING:
		return a->u.scalar.len == b->u.scalar.len &&
		       memcmp(a->u.scalar.s, b->u.scalar.s, a->u.scalar.len) == 0;
	case J_ARRAY:
		if (sl_seq_n(a) != sl_seq_n(b))
			return false;
		for (size_t i = 0; i < sl_seq_n(a); i++)
			if (!json_equal(sl_seq_item(a, i), sl_seq_item(b, i), depth + 1))
				return false;
		return true;
	default:
		if (sl_map_n(a) != sl_map_n(b))
			return false;
		for (size_t i = 0; i < sl_map_n(a); i++) {
			const sl_pair *p = sl_map_pair(a, i);
			const sl_node *k = deref(p->key);
			bool found = false;
			for (size_t j = 0; j < sl_map_n(b) && !found; j++) {
				const sl_node *kb = deref(sl_map_pair(b, j)->key);
				if (k->type == SL_NODE_SCALAR && kb->type == SL_NODE_SCALAR &&
				    k->u.scalar.len == kb->u.scalar.len &&
				    memcmp(k->u.scalar.s, kb->u.scalar.s, k->u.scalar.len) == 0) {
					if (!json_equal(p->value, sl_map_pair(b, j)->value, depth + 1))
						return false;
					found = true;
				}
			}
			if (!found)
				return false;
		}
		return true;
	}
}

/* How many members of mapping m are named name[0..len), counted up to most (a duplicate key
** makes two); *v: the first one's value (untouched when none is). */
static inline int members(const sl_node *m, const char *name, size_t len, int most,
			  const sl_node **v)
{
	size_t n;
	const sl_pair *pairs = sl_map_entries(m, &n);
	int found = 0;
	for (size_t i = 0; i < n && found < most; i++) {
		const sl_node *k = deref(pairs[i].key);
		if (!k || k->type != SL_NODE_SCALAR || k->u.scalar.len != len ||
		    (len && (k->u.scalar.s[0] != name[0] || memcmp(name, k->u.scalar.s, len) != 0)))
			continue;
		if (!found++)
			*v = pairs[i].value;
	}
	return found;
}

/* The value of member name[0..len) of mapping m, or NULL; *present says whether it is there. */
static const sl_node *member(const sl_node *m, const char *name, size_t len, bool *present)
{
	const sl_node *v = NULL;
	*present = members(m, name, len, 1, &v) > 0;
	return v;
}

/* A bit of 64 for the member name s[0..len), of its length and first and last bytes: a
** member whose bit no property's name sets is named by no property (sub.prop_bits). */
static unsigned name_bit(const char *s, size_t len)
{
	return len ? (unsigned)(len * 7 + (unsigned char)s[0] * 5 + (unsigned char)s[len - 1] * 2) & 63
		   : 0;
}

/* json_equal(n, v) for v a string (sub.const_string, sub.enum_strings: known when compiled): a
** scalar with other text is not equal whatever its type, so only one with the same text is typed. */
static bool equal_string(const sl_node *n, const sl_node *v)
{
	const sl_node *d = deref(n);
	if (d && d->type == SL_NODE_SCALAR &&
	    (d->u.scalar.len != v->u.scalar.len ||
	     (v->u.scalar.len && memcmp(d->u.scalar.s, v->u.scalar.s, v->u.scalar.len))))
		return false;
	return json_equal(n, v, 0);
}

/* The characters of s[0..n), counted up to more than most: a megabyte scalar aliased in
** every value is judged against maxLength without reading it all each time. */
static size_t utf8_length(const char *s, size_t n, size_t most)
{
	size_t c = 0;
	for (size_t i = 0; i < n && c <= most; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* --- compiling ------------------------------------------------------------------------------ */

struct cc {
	sl_schema *s;
	sl_schema_problem *pb;
};

static sl_err problem(struct cc *c, const sl_node *at, bool unsupported, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static sl_err problem(struct cc *c, const sl_node *at, bool unsupported, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->pb->message, sizeof c->pb->message, fmt, ap);
	va_end(ap);
	c->pb->at = at;
	c->pb->unsupported = unsupported;
	return SL_ECONFIG;
}

static const char *const keywords[] = {
	"$comment", "$ref", "$schema", "additionalItems", "additionalProperties", "allOf", "anyOf",
	"const", "contains", "default", "definitions", "dependencies", "description", "else",
	"enum", "examples", "exclusiveMaximum", "exclusiveMinimum", "if", "items", "maxItems",
	"maxLength", "maxProperties", "maximum", "minItems", "minLength", "minProperties",
	"minimum", "multipleOf", "not", "oneOf", "pattern", "patternProperties", "properties",
	"propertyNames", "quantityMaximum", "quantityMinimum", "required", "then", "title", "type",
	"uniqueItems",
};
#define N_KEYWORDS (sizeof keywords / sizeof keywords[0])

static sl_err compile(struct cc *c, const sl_node *n, struct sub **out);

static bool is_string(const sl_node *n)
{
	return jtype(n, NULL) == J_STRING;
}

static sl_err want_number(struct cc *c, const sl_node *key, const sl_node *v, double *out)
{
	if (!(jtype(v, out) & J_NUMBER))
		return problem(c, v ? v : key, false, "%s must be a number", key->u.scalar.s);
	return SL_OK;
}

static sl_err want_count(struct cc *c, const sl_node *key, const sl_node *v, long long *out)
{
	double d = 0;
	if (!(jtype(v, &d) & J_INTEGER) || d < 0)
		return problem(c, v ? v : key, false, "%s must be a non-negative integer",
			       key->u.scalar.s);
	*out = d > 9e18 ? (long long)9e18 : (long long)d;
	return SL_OK;
}

static sl_err want_pattern(struct cc *c, const sl_node *v, sl_pattern **out)
{
	if (!is_string(v))
		return problem(c, v, false, "a pattern must be a string");
	v = deref(v);
	char why[200];
	sl_err err = sl_pattern_compile(c->s->arena, &c->s->codes, v->u.scalar.s, v->u.scalar.len,
					out, why, sizeof why);
	if (err == SL_EPARSE)
		return problem(c, v, false, "pattern \"%s\" does not compile: %s", v->u.scalar.s, why);
	return err;
}

static sl_err want_quantity(struct cc *c, const sl_node *key, const sl_node *v, sl_quantity *q,
			    const char **src)
{
	v = deref(v);
	sl_quantity_status st;
	if (!v || v->type != SL_NODE_SCALAR ||
	    (st = sl_quantity_parse(v->u.scalar.s, v->u.scalar.len, q)) != SL_QUANTITY_OK)
		return problem(c, v ? v : key, false, "%s must be a Kubernetes quantity (\"2\", 500m, 16Gi)",
			       key->u.scalar.s);
	*src = v->u.scalar.s;
	return SL_OK;
}

static sl_err want_list(struct cc *c, const sl_node *key, const sl_node *v, struct list *l)
{
	v = deref(v);
	if (!v || v->type != SL_NODE_SEQ || sl_seq_n(v) == 0)
		return problem(c, v ? v : key, false, "%s must be a non-empty array of schemas",
			       key->u.scalar.s);
	l->n = sl_seq_n(v);
	if (!(l->v = sl_arena_alloc(c->s->arena, l->n * sizeof *l->v)))
		return SL_ENOMEM;
	for (size_t i = 0; i < l->n; i++) {
		sl_err err = compile(c, sl_seq_item(v, i), &l->v[i]);
		if (err)
			return err;
	}
	return SL_OK;
}

static sl_err want_names(struct cc *c, const sl_node *key, const sl_node *v)
{
	v = deref(v);
	if (!v || v->type != SL_NODE_SEQ)
		return problem(c, v ? v : key, false, "%s must be an array of strings", key->u.scalar.s);
	for (size_t i = 0; i < sl_seq_n(v); i++)
		if (!is_string(sl_seq_item(v, i)))
			return problem(c, sl_seq_item(v, i), false, "%s must be an array of strings",
				       key->u.scalar.s);
	return SL_OK;
}

/* Decodes one JSON pointer segment of a URI fragment ("%25" and "~1" escapes) into buf. */
static size_t decode_segment(const char *s, size_t n, char *buf, size_t size)
{
	size_t k = 0;
	char tmp[512];
	size_t t = 0;
	for (size_t i = 0; i < n && t + 1 < sizeof tmp; i++) {
		if (s[i] == '%' && i + 2 < n) {
			unsigned v;
			char hex[3] = {s[i + 1], s[i + 2], 0};
			if (sscanf(hex, "%2x", &v) == 1) {
				tmp[t++] = (char)v;
				i += 2;
				continue;
			}
		}
		tmp[t++] = s[i];
	}
	for (size_t i = 0; i < t && k + 1 < size; i++) {
		if (tmp[i] == '~' && i + 1 < t && (tmp[i + 1] == '0' || tmp[i + 1] == '1')) {
			buf[k++] = tmp[i + 1] == '0' ? '~' : '/';
			i++;
		} else {
			buf[k++] = tmp[i];
		}
	}
	buf[k] = '\0';
	return k;
}

/* The node a local $ref points at, or NULL. */
static const sl_node *resolve_ref(const sl_node *root, const char *ref)
{
	if (ref[0] != '#')
		return NULL;
	const char *p = ref + 1;
	const sl_node *n = root;
	while (*p) {
		if (*p != '/')
			return NULL;
		p++;
		size_t len = strcspn(p, "/");
		char seg[512];
		size_t sl = decode_segment(p, len, seg, sizeof seg);
		p += len;
		n = deref(n);
		if (!n)
			return NULL;
		if (n->type == SL_NODE_MAP) {
			bool present;
			n = member(n, seg, sl, &present);
			if (!present)
				return NULL;
		} else if (n->type == SL_NODE_SEQ) {
			char *end;
			unsigned long i = strtoul(seg, &end, 10);
			if (!sl || *end || i >= sl_seq_n(n))
				return NULL;
			n = sl_seq_item(n, i);
		} else {
			return NULL;
		}
	}
	return n;
}

static sl_err memo_add(sl_schema *s, const sl_node *n, struct sub *sub)
{
	if (s->n_memo == s->cap_memo) {
		size_t ncap = s->cap_memo ? s->cap_memo * 2 : 16;
		struct memo *nm = sl_xrealloc(s->memo, ncap * sizeof *nm);
		if (!nm)
			return SL_ENOMEM;
		s->memo = nm;
		s->cap_memo = ncap;
	}
	s->memo[s->n_memo++] = (struct memo){n, sub};
	return SL_OK;
}

static sl_err compile_keyword(struct cc *c, struct sub *s, const sl_node *k, const sl_node *v)
{
	const char *kw = k->u.scalar.s;
	const sl_node *dv = deref(v);
	sl_err err = SL_OK;
	if (strcmp(kw, "type") == 0) {
		static const char *const names[] = {"null", "boolean", "number", "integer", "string",
						    "array", "object"};
		size_t n = dv && dv->type == SL_NODE_SEQ ? sl_seq_n(dv) : 1;
		for (size_t i = 0; i < n; i++) {
			const sl_node *t = dv && dv->type == SL_NODE_SEQ ? sl_seq_item(dv, i) : dv;
			size_t j = 0;
			while (j < 7 && !(is_string(t) && strcmp(deref(t)->u.scalar.s, names[j]) == 0))
				j++;
			if (j == 7)
				return problem(c, t ? t : k, false, "type must be one of null, boolean, "
					       "number, integer, string, array, object");
			s->types |= 1u << j;
		}
	} else if (strcmp(kw, "enum") == 0) {
		if (!dv || dv->type != SL_NODE_SEQ)
			return problem(c, v ? v : k, false, "enum must be an array");
		s->enum_ = dv;
	} else if (strcmp(kw, "const") == 0) {
		s->const_ = v;
		if (!v)
			return problem(c, k, false, "const needs a value");
	} else if (strcmp(kw, "pattern") == 0) {
		s->pattern_src = dv && dv->type == SL_NODE_SCALAR ? dv->u.scalar.s : NULL;
		err = want_pattern(c, v, &s->pattern);
	} else if (strcmp(kw, "minLength") == 0) {
		err = want_count(c, k, v, &s->min_len);
	} else if (strcmp(kw, "maxLength") == 0) {
		err = want_count(c, k, v, &s->max_len);
	} else if (strcmp(kw, "minItems") == 0) {
		err = want_count(c, k, v, &s->min_items);
	} else if (strcmp(kw, "maxItems") == 0) {
		err = want_count(c, k, v, &s->max_items);
	} else if (strcmp(kw, "minProperties") == 0) {
		err = want_count(c, k, v, &s->min_props);
	} else if (strcmp(kw, "maxProperties") == 0) {
		err = want_count(c, k, v, &s->max_props);
	} else if (strcmp(kw, "minimum") == 0) {
		s->has_min = true;
		err = want_number(c, k, v, &s->min);
	} else if (strcmp(kw, "maximum") == 0) {
		s->has_max = true;
		err = want_number(c, k, v, &s->max);
	} else if (strcmp(kw, "exclusiveMinimum") == 0) {
		s->has_xmin = true;
		err = want_number(c, k, v, &s->xmin);
	} else if (strcmp(kw, "exclusiveMaximum") == 0) {
		s->has_xmax = true;
		err = want_number(c, k, v, &s->xmax);
	} else if (strcmp(kw, "multipleOf") == 0) {
		s->has_mult = true;
		if (!(err = want_number(c, k, v, &s->mult)) && !(s->mult > 0))
			return problem(c, v, false, "multipleOf must be greater than 0");
	} else if (strcmp(kw, "quantityMinimum") == 0) {
		s->has_qmin = true;
		err = want_quantity(c, k, v, &s->qmin, &s->qmin_src);
	} else if (strcmp(kw, "quantityMaximum") == 0) {
		s->has_qmax = true;
		err = want_quantity(c, k, v, &s->qmax, &s->qmax_src);
	} else if (strcmp(kw, "uniqueItems") == 0) {
		if (jtype(v, NULL) != J_BOOL)
			return problem(c, v ? v : k, false, "uniqueItems must be a boolean");
		s->unique = sl_yaml_true(v);
	} else if (strcmp(kw, "required") == 0) {
		if (!(err = want_names(c, k, v)))
			s->required = dv;
	} else if (strcmp(kw, "properties") == 0 || strcmp(kw, "patternProperties") == 0 ||
		   strcmp(kw, "dependencies") == 0 || strcmp(kw, "definitions") == 0) {
		if (!dv || dv->type != SL_NODE_MAP)
			return problem(c, v ? v : k, false, "%s must be an object", kw);
		size_t n = sl_map_n(dv);
		bool props = kw[0] == 'p' && kw[1] == 'r', pprops = kw[0] == 'p' && kw[1] == 'a',
		     deps = kw[0] == 'd' && kw[1] == 'e' && kw[2] == 'p';
		/* a keyword written twice (YAML keeps both keys): the last one counts, as in JSON,
		** and the counts start again with the array (fuzz_custom found the overflow) */
		if (props && !(s->props = sl_arena_zalloc(c->s->arena, n * sizeof *s->props + 1)))
			return SL_ENOMEM;
		if (pprops && !(s->pprops = sl_arena_zalloc(c->s->arena, n * sizeof *s->pprops + 1)))
			return SL_ENOMEM;
		if (deps && !(s->deps = sl_arena_zalloc(c->s->arena, n * sizeof *s->deps + 1)))
			return SL_ENOMEM;
		if (props)
			s->n_props = 0;
		if (pprops)
			s->n_pprops = 0;
		if (deps)
			s->n_deps = 0;
		for (size_t i = 0; i < n && !err; i++) {
			const sl_pair *p = sl_map_pair(dv, i);
			const sl_node *pk = deref(p->key);
			if (!pk || pk->type != SL_NODE_SCALAR)
				return problem(c, p->key, false, "%s: a key must be a string", kw);
			struct sub *sub = NULL;
			const sl_node *pv = deref(p->value);
			if (deps && pv && pv->type == SL_NODE_SEQ) {
				if (!(err = want_names(c, pk, pv)))
					s->deps[s->n_deps++] = (struct dep){pk->u.scalar.s, pk->u.scalar.len,
									   NULL, pv};
				continue;
			}
			if ((err = compile(c, p->value, &sub)))
				break;
			if (props)
				s->props[s->n_props++] = (struct prop){pk->u.scalar.s, pk->u.scalar.len, sub};
			else if (deps)
				s->deps[s->n_deps++] = (struct dep){pk->u.scalar.s, pk->u.scalar.len, sub, NULL};
			else if (pprops) {
				struct pprop *pp = &s->pprops[s->n_pprops++];
				pp->s = sub;
				pp->src = pk->u.scalar.s;
				err = want_pattern(c, pk, &pp->re);
			}
		}
	} else if (strcmp(kw, "items") == 0) {
		if (dv && dv->type == SL_NODE_SEQ) {
			s->items_is_list = true;
			if (sl_seq_n(dv) == 0) {
				s->item_list.n = 0;
				return SL_OK;
			}
			err = want_list(c, k, v, &s->item_list);
		} else {
			err = compile(c, v, &s->items);
		}
	} else if (strcmp(kw, "additionalItems") == 0) {
		err = compile(c, v, &s->additional_items);
	} else if (strcmp(kw, "additionalProperties") == 0) {
		err = compile(c, v, &s->additional_props);
	} else if (strcmp(kw, "propertyNames") == 0) {
		err = compile(c, v, &s->property_names);
	} else if (strcmp(kw, "contains") == 0) {
		err = compile(c, v, &s->contains);
	} else if (strcmp(kw, "not") == 0) {
		err = compile(c, v, &s->not_);
	} else if (strcmp(kw, "if") == 0) {
		err = compile(c, v, &s->if_);
	} else if (strcmp(kw, "then") == 0) {
		err = compile(c, v, &s->then_);
	} else if (strcmp(kw, "else") == 0) {
		err = compile(c, v, &s->else_);
	} else if (strcmp(kw, "allOf") == 0) {
		err = want_list(c, k, v, &s->all_of);
	} else if (strcmp(kw, "anyOf") == 0) {
		err = want_list(c, k, v, &s->any_of);
	} else if (strcmp(kw, "oneOf") == 0) {
		err = want_list(c, k, v, &s->one_of);
	}
	return err;
}

static sl_err compile(struct cc *c, const sl_node *n, struct sub **out)
{
	const sl_node *d = deref(n);
	for (size_t i = 0; i < c->s->n_memo; i++)
		if (c->s->memo[i].node == d) {
			*out = c->s->memo[i].s;
			return SL_OK;
		}
	struct sub *s = sl_arena_zalloc(c->s->arena, sizeof *s);
	if (!s)
		return SL_ENOMEM;
	s->node = d;
	s->boolean = -1;
	s->min_len = s->max_len = s->min_items = s->max_items = s->min_props = s->max_props = -1;
	sl_err err = memo_add(c->s, d, s);
	if (err)
		return err;
	*out = s;
	unsigned t = jtype(d, NULL);
	if (t == J_BOOL) {
		s->boolean = sl_yaml_true(d);
		return SL_OK;
	}
	if (t != J_OBJECT)
		return problem(c, n, false, "a schema must be an object or a boolean, not %s",
			       sl_node_kind_name(d));
	const sl_node *ref = NULL;
	for (size_t i = 0; i < sl_map_n(d); i++) {
		const sl_pair *p = sl_map_pair(d, i);
		const sl_node *k = deref(p->key);
		if (!k || k->type != SL_NODE_SCALAR)
			return problem(c, p->key, false, "a schema keyword must be a string");
		bool known = false;
		for (size_t j = 0; j < N_KEYWORDS && !known; j++)
			known = strcmp(k->u.scalar.s, keywords[j]) == 0;
		if (!known) {
			const char *best = sl_spelling_closest(k->u.scalar.s, keywords, N_KEYWORDS);
			return problem(c, k, true, "unknown schema keyword \"%s\"%s%s%s", k->u.scalar.s,
				       best ? " (did you mean \"" : "", best ? best : "", best ? "\"?)" : "");
		}
		if (strcmp(k->u.scalar.s, "$ref") == 0)
			ref = p->value;
	}
	if (ref) {   /* draft 7: the keywords beside $ref are ignored */
		const sl_node *rv = deref(ref);
		if (!is_string(rv))
			return problem(c, ref, false, "$ref must be a string");
		if (rv->u.scalar.s[0] != '#')
			return problem(c, rv, true, "$ref \"%s\" is not local: only \"#/...\" "
				       "references within the rule's schema resolve", rv->u.scalar.s);
		const sl_node *target = resolve_ref(c->s->root_node, rv->u.scalar.s);
		if (!target)
			return problem(c, rv, false, "$ref \"%s\" does not resolve", rv->u.scalar.s);
		return compile(c, target, &s->ref);
	}
	for (size_t i = 0; i < sl_map_n(d); i++) {
		const sl_pair *p = sl_map_pair(d, i);
		if ((err = compile_keyword(c, s, deref(p->key), p->value)))
			return err;
	}
	s->scalar_keywords = s->types || s->enum_ || s->const_ || s->min_len >= 0 ||
			     s->max_len >= 0 || s->pattern || s->has_min || s->has_max || s->has_xmin ||
			     s->has_xmax || s->has_mult || s->has_qmin || s->has_qmax;
	s->quantity_only = (s->has_qmin || s->has_qmax) && !s->types && !s->enum_ && !s->const_ &&
			   s->min_len < 0 && s->max_len < 0 && !s->pattern && !s->has_min &&
			   !s->has_max && !s->has_xmin && !s->has_xmax && !s->has_mult;
	s->equality_only = (s->enum_ || s->const_) && !s->types && s->min_len < 0 && s->max_len < 0 &&
			   !s->pattern && !s->has_min && !s->has_max && !s->has_xmin && !s->has_xmax &&
			   !s->has_mult && !s->has_qmin && !s->has_qmax;
	s->const_string = s->const_ && is_string(s->const_);
	s->enum_strings = s->enum_ != NULL;
	for (size_t i = 0; s->enum_ && i < sl_seq_n(s->enum_); i++)
		s->enum_strings &= is_string(sl_seq_item(s->enum_, i));
	s->per_member = s->property_names || s->n_props || s->n_pprops || s->additional_props;
	s->props_only = !s->property_names && !s->n_pprops && !s->additional_props;
	for (size_t i = 0; i < s->n_props; i++)
		s->prop_bits |= 1ull << name_bit(s->props[i].name, s->props[i].len);
	s->object_keywords = s->per_member || s->min_props >= 0 || s->max_props >= 0 || s->required ||
			     s->n_deps;
	s->array_keywords = s->min_items >= 0 || s->max_items >= 0 || s->unique || s->items ||
			    s->items_is_list || s->contains;
	s->combinators = s->all_of.n || s->any_of.n || s->one_of.n || s->not_ ||
			 (s->if_ && (s->then_ || s->else_));
	s->path_step = s->boolean < 0 && !s->ref && !s->scalar_keywords && !s->array_keywords &&
		       !s->combinators && s->props_only && s->n_props == 1 && s->min_props < 0 &&
		       s->max_props < 0 && !s->required && !s->n_deps;
	return SL_OK;
}

/* Which members validating with s may read, from every subschema compiled (the memo holds
** them all): a member named under properties; any, for a keyword that reads members it does
** not name (patternProperties, additionalProperties) or compares whole values (enum, const). */
static sl_err note_reads(sl_schema *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_memo; i++) {
		const struct sub *b = s->memo[i].s;
		s->reads_any |= b->n_pprops || b->additional_props || b->enum_ || b->const_;
		n += b->n_props;
	}
	if (n && !(s->named = sl_arena_alloc(s->arena, n * sizeof *s->named)))
		return SL_ENOMEM;
	for (size_t i = 0; i < s->n_memo; i++)
		for (size_t j = 0; j < s->memo[i].s->n_props; j++)
			s->named[s->n_named++] = &s->memo[i].s->props[j];
	return SL_OK;
}

bool sl_schema_reads_member(const sl_schema *s, const char *name)
{
	size_t len = strlen(name);
	if (s->reads_any)
		return true;
	for (size_t i = 0; i < s->n_named; i++)
		if (s->named[i]->len == len && memcmp(s->named[i]->name, name, len) == 0)
			return true;
	return false;
}

sl_err sl_schema_compile(const sl_node *root, sl_schema **out, sl_schema_problem *pb)
{
	*out = NULL;
	memset(pb, 0, sizeof *pb);
	sl_schema *s = sl_xcalloc(1, sizeof *s);
	if (!s || !(s->arena = sl_arena_new())) {
		free(s);
		return SL_ENOMEM;
	}
	s->root_node = deref(root);
	struct cc c = {s, pb};
	sl_err err = compile(&c, root, &s->root);
	if (!err)
		err = note_reads(s);
	free(s->memo);
	s->memo = NULL;
	if (err) {
		sl_schema_free(s);
		return err;
	}
	*out = s;
	return SL_OK;
}

void sl_schema_free(sl_schema *s)
{
	if (!s)
		return;
	sl_regex_list_free(&s->codes);
	free(s->memo);
	sl_arena_free(s->arena);
	free(s);
}

/* --- validating ----------------------------------------------------------------------------- */

/* A $ref's result on a node: a schema that refers to itself twice at each level would be
** evaluated 2^depth times without it. (The failure a first evaluation kept stays kept: one again
** could only record the same failures, never a deeper one.) */
struct ref_seen {
	const struct sub *s;
	const sl_node *n;
	bool rec;
	uint8_t result;   /* 0: empty slot, 1: valid, 2: not */
};

struct vc {
	sl_arena *a;
	sl_regex_budget *budget;   /* the run's, or NULL */
	size_t unrun;              /* matches the spent budget did not run */
	struct ref_seen *refs;     /* open addressing, cap a power of two, at most half full */
	size_t n_refs, cap_refs;
	pcre2_match_data *md;
	sl_schema_failure *out;
	int best_depth;      /* -1: nothing recorded */
	bool oom;
};

/* sl_pattern_match with the validation's match data (made on the first pattern PCRE2 runs)
** and budget: > 0 on a match. */
static int match(struct vc *c, const sl_pattern *re, const char *s, size_t len)
{
	int rc = sl_pattern_match(re, s, len, &c->md, c->budget);
	c->unrun += rc == SL_REGEX_BUDGET_SPENT;
	return rc;
}

static int node_depth(const sl_node *n)
{
	int d = 0;
	for (; n; n = n->parent)
		d++;
	return d;
}

/* How a message names n: its key ("priorityClassName"), "item 2 of tolerations", "the value". */
static const char *what(struct vc *c, const sl_node *n)
{
	const sl_node *k = sl_node_key(n);
	if (n && n->is_key)
		return sl_arena_printf(c->a, "key \"%s\"", n->u.scalar.s);
	if (k && k->type == SL_NODE_SCALAR)
		return k->u.scalar.s;
	if (n && n->parent && n->parent->type == SL_NODE_SEQ) {
		const sl_node *pk = sl_node_key(n->parent);
		return sl_arena_printf(c->a, "item %u of %s", n->pos,
				       pk && pk->type == SL_NODE_SCALAR ? pk->u.scalar.s : "the list");
	}
	return "the value";
}

static const char *value_text(const sl_node *n)
{
	n = deref(n);
	return n && n->type == SL_NODE_SCALAR ? n->u.scalar.s : NULL;
}

/* Records a failure at `at` when it is recorded (rec: not inside a branch that is only tried)
** and deeper than the one kept: a macro, so that the message's arguments (arena strings) are
** made only then. */
#define fail(c, rec, at, missing, ...) \
	do { \
		if ((rec) && (c)->out && node_depth(at) > (c)->best_depth) \
			keep_failure((c), (at), (missing), __VA_ARGS__); \
	} while (0)

static void keep_failure(struct vc *c, const sl_node *at, bool missing, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void keep_failure(struct vc *c, const sl_node *at, bool missing, const char *fmt, ...)
{
	int d = node_depth(at);
	va_list ap;
	va_start(ap, fmt);
	char *m = sl_arena_vprintf(c->a, fmt, ap);
	va_end(ap);
	if (!m) {
		c->oom = true;
		return;
	}
	c->best_depth = d;
	c->out->at = at;
	c->out->missing = missing;
	c->out->message = m;
	c->out->value = value_text(at);
}

static const char *type_names(struct vc *c, unsigned t)
{
	static const char *const names[] = {"null", "a boolean", "a number", "an integer",
					    "a string", "an array", "an object"};
	char *s = "";
	for (unsigned i = 0; i < 7; i++)
		if (t & (1u << i))
			s = sl_arena_printf(c->a, "%s%s%s", s, *s ? " or " : "", names[i]);
	return s ? s : "";
}

static const char *short_text(struct vc *c, const sl_node *n)
{
	const char *v = value_text(n);
	if (!v)
		return sl_node_kind_name(n);
	size_t len = strlen(v);
	if (jtype(n, NULL) != J_STRING)   /* a number, a boolean, null: as written */
		return sl_arena_printf(c->a, "%.*s%s", len > 60 ? 57 : (int)len, v, len > 60 ? "..." : "");
	return sl_arena_printf(c->a, "\"%.*s%s\"", len > 60 ? 57 : (int)len, v, len > 60 ? "..." : "");
}

static bool valid(struct vc *c, const struct sub *s, const sl_node *n, bool rec, unsigned depth);

static bool valid_object(struct vc *c, const struct sub *s, const sl_node *m, bool rec, unsigned depth)
{
	bool ok = true;
	size_t n;
	const sl_pair *pairs = sl_map_entries(m, &n);
	if (s->min_props >= 0 && n < (size_t)s->min_props) {
		fail(c, rec, m, false, "%s has %zu members, fewer than %lld", what(c, m), n, s->min_props);
		ok = false;
	}
	if (s->max_props >= 0 && n > (size_t)s->max_props) {
		fail(c, rec, m, false, "%s has %zu members, more than %lld", what(c, m), n, s->max_props);
		ok = false;
	}
	if (!ok && !rec)
		return false;
	for (size_t i = 0; s->required && i < sl_seq_n(s->required); i++) {
		const sl_node *r = deref(sl_seq_item(s->required, i));
		bool present;
		member(m, r->u.scalar.s, r->u.scalar.len, &present);
		if (!present) {
			fail(c, rec, m, true, "%s lacks %s", what(c, m), r->u.scalar.s);
			if (!rec)
				return false;
			ok = false;
		}
	}
	for (size_t i = 0; i < s->n_deps; i++) {
		const struct dep *dp = &s->deps[i];
		bool present;
		member(m, dp->name, dp->len, &present);
		if (!present)
			continue;
		if (dp->s && !valid(c, dp->s, m, rec, depth + 1)) {
			ok = false;
		} else if (dp->names) {
			for (size_t j = 0; j < sl_seq_n(dp->names); j++) {
				const sl_node *r = deref(sl_seq_item(dp->names, j));
				bool there;
				member(m, r->u.scalar.s, r->u.scalar.len, &there);
				if (!there) {
					fail(c, rec, m, true, "%s has %s but lacks %s", what(c, m), dp->name,
					     r->u.scalar.s);
					ok = false;
				}
			}
		}
		if (!ok && !rec)
			return false;
	}
	if (!s->per_member)
		return ok;
	const struct prop *props = s->props;
	size_t n_props = s->n_props;
	if (s->props_only && n_props == 1) {   /* the common case: a path into the value */
		size_t len = props->len;
		for (size_t i = 0; i < n; i++) {
			const sl_node *k = deref(pairs[i].key);
			if (!k || k->type != SL_NODE_SCALAR || k->u.scalar.len != len ||
			    (len && (k->u.scalar.s[0] != props->name[0] ||
				     memcmp(props->name, k->u.scalar.s, len) != 0)))
				continue;
			if (!valid(c, props->s, pairs[i].value, rec, depth + 1)) {
				ok = false;
				if (!rec)
					return false;
			}
		}
		return ok;
	}
	uint64_t prop_bits = s->prop_bits;
	if (s->props_only) {   /* only properties reads members: those whose bit some name sets */
		for (size_t i = 0; i < n; i++) {
			const sl_node *k = deref(pairs[i].key);
			if (!k || k->type != SL_NODE_SCALAR ||
			    !(prop_bits >> name_bit(k->u.scalar.s, k->u.scalar.len) & 1))
				continue;
			size_t len = k->u.scalar.len;
			for (size_t j = 0; j < n_props; j++)
				if (props[j].len == len && (!len || props[j].name[0] == k->u.scalar.s[0]) &&
				    memcmp(props[j].name, k->u.scalar.s, len) == 0 &&
				    !valid(c, props[j].s, pairs[i].value, rec, depth + 1))
					ok = false;
			if (!ok && !rec)
				return false;
		}
		return ok;
	}
	for (size_t i = 0; i < n; i++) {   /* propertyNames, patternProperties, additionalProperties */
		const sl_pair *p = &pairs[i];
		const sl_node *k = deref(p->key);
		if (!k || k->type != SL_NODE_SCALAR)
			continue;
		size_t len = k->u.scalar.len;
		bool named = n_props && (prop_bits >> name_bit(k->u.scalar.s, len) & 1);   /* by a property? */
		if (s->property_names && !valid(c, s->property_names, k, rec, depth + 1)) {
			ok = false;
			if (!rec)
				return false;
		}
		bool matched = false;
		for (size_t j = 0; named && j < n_props; j++)
			if (props[j].len == len && (!len || props[j].name[0] == k->u.scalar.s[0]) &&
			    memcmp(props[j].name, k->u.scalar.s, len) == 0) {
				matched = true;
				if (!valid(c, props[j].s, p->value, rec, depth + 1))
					ok = false;
			}
		for (size_t j = 0; j < s->n_pprops; j++) {
			int rc = match(c, s->pprops[j].re, k->u.scalar.s, k->u.scalar.len);
			if (rc > 0) {
				matched = true;
				if (!valid(c, s->pprops[j].s, p->value, rec, depth + 1))
					ok = false;
			} else if (rc != PCRE2_ERROR_NOMATCH) {
				fail(c, rec, k, false, "key \"%s\": pattern %s %s", k->u.scalar.s,
				     s->pprops[j].src, sl_regex_error(rc));
				ok = false;
			}
		}
		if (!matched && s->additional_props &&
		    !valid(c, s->additional_props, p->value ? p->value : k, rec, depth + 1)) {
			if (s->additional_props->boolean == 0)
				fail(c, rec, k, false, "%s is not allowed here", k->u.scalar.s);
			ok = false;
		}
		if (!ok && !rec)
			return false;
	}
	return ok;
}

static bool valid_array(struct vc *c, const struct sub *s, const sl_node *a, bool rec, unsigned depth)
{
	bool ok = true;
	size_t n = sl_seq_n(a);
	if (s->min_items >= 0 && n < (size_t)s->min_items) {
		fail(c, rec, a, false, "%s has %zu items, fewer than %lld", what(c, a), n, s->min_items);
		ok = false;
	}
	if (s->max_items >= 0 && n > (size_t)s->max_items) {
		fail(c, rec, a, false, "%s has %zu items, more than %lld", what(c, a), n, s->max_items);
		ok = false;
	}
	if (s->unique)
		for (size_t i = 0; i < n && ok; i++)
			for (size_t j = i + 1; j < n; j++)
				if (json_equal(sl_seq_item(a, i), sl_seq_item(a, j), 0)) {
					fail(c, rec, sl_seq_item(a, j), false, "%s repeats item %zu",
					     what(c, a), i);
					ok = false;
					break;
				}
	if (!ok && !rec)
		return false;
	for (size_t i = 0; i < n; i++) {
		const sl_node *it = sl_seq_item(a, i);
		const struct sub *is = NULL;
		if (!s->items_is_list)
			is = s->items;
		else if (i < s->item_list.n)
			is = s->item_list.v[i];
		else
			is = s->additional_items;
		if (is && !valid(c, is, it, rec, depth + 1)) {
			if (is->boolean == 0)
				fail(c, rec, it, false, "%s is not allowed here", what(c, it));
			ok = false;
			if (!rec)
				return false;
		}
	}
	if (s->contains) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = valid(c, s->contains, sl_seq_item(a, i), false, depth + 1);
		if (!any) {
			fail(c, rec, a, false, "%s has no item that matches contains", what(c, a));
			ok = false;
		}
	}
	return ok;
}

static bool valid_string(struct vc *c, const struct sub *s, const sl_node *n, bool rec)
{
	bool ok = true;
	const char *v = n->u.scalar.s;
	size_t len = n->u.scalar.len;
	if (s->min_len >= 0 || s->max_len >= 0) {
		size_t cl = utf8_length(v, len, (size_t)(s->max_len > s->min_len ? s->max_len
									  : s->min_len));
		if (s->min_len >= 0 && cl < (size_t)s->min_len) {
			fail(c, rec, n, false, "%s %s is shorter than %lld characters", what(c, n),
			     short_text(c, n), s->min_len);
			ok = false;
		}
		if (s->max_len >= 0 && cl > (size_t)s->max_len) {
			fail(c, rec, n, false, "%s %s is longer than %lld characters", what(c, n),
			     short_text(c, n), s->max_len);
			ok = false;
		}
	}
	if (s->pattern) {
		int rc = match(c, s->pattern, v, len);
		if (rc == PCRE2_ERROR_NOMATCH) {
			fail(c, rec, n, false, "%s %s does not match %s", what(c, n), short_text(c, n),
			     s->pattern_src);
			ok = false;
		} else if (rc < 0) {
			fail(c, rec, n, false, "%s %s: pattern %s %s", what(c, n), short_text(c, n),
			     s->pattern_src, sl_regex_error(rc));
			ok = false;
		}
	}
	return ok;
}

/* The quantities this thread parsed last, by their text (up to QUANTITY_MEMO_TEXT bytes): a
** container's memory limit is read by each memory cap of the config, each its own rule, one
** after another. A slot by the text's length and first and last bytes; len 0: empty. */
#define QUANTITY_MEMO 8
#define QUANTITY_MEMO_TEXT 24
struct quantity_memo {
	uint8_t len;                 /* the text's length + 1 */
	char text[QUANTITY_MEMO_TEXT];
	sl_quantity_status st;
	sl_quantity q;
};
static _Thread_local struct quantity_memo quantity_memo[QUANTITY_MEMO];

/* sl_quantity_parse(s, n): its status, and the quantity (OK only) in *q, which stays valid
** until the thread's next call. */
static sl_quantity_status parse_quantity(const char *s, size_t n, const sl_quantity **q)
{
	if (n >= QUANTITY_MEMO_TEXT) {
		static _Thread_local sl_quantity long_q;
		*q = &long_q;
		return sl_quantity_parse(s, n, &long_q);
	}
	struct quantity_memo *m = &quantity_memo[(n + (n ? (unsigned char)s[0] + (unsigned char)s[n - 1]
						       : 0)) % QUANTITY_MEMO];
	*q = &m->q;
	if (m->len == n + 1 && (!n || memcmp(m->text, s, n) == 0))
		return m->st;
	m->len = 0;   /* empty while it is rewritten */
	m->st = sl_quantity_parse(s, n, &m->q);
	if (n)
		memcpy(m->text, s, n);
	m->len = (uint8_t)(n + 1);
	return m->st;
}

static bool valid_quantity(struct vc *c, const struct sub *s, const sl_node *n, bool rec)
{
	const sl_quantity *q;
	if (parse_quantity(n->u.scalar.s, n->u.scalar.len, &q) != SL_QUANTITY_OK) {
		fail(c, rec, n, false, "%s %s is not a Kubernetes quantity", what(c, n), short_text(c, n));
		return false;
	}
	bool ok = true;
	if (s->has_qmin && sl_quantity_cmp(q, &s->qmin) < 0) {
		fail(c, rec, n, false, "%s %s is less than %s", what(c, n), short_text(c, n), s->qmin_src);
		ok = false;
	}
	if (s->has_qmax && sl_quantity_cmp(q, &s->qmax) > 0) {
		fail(c, rec, n, false, "%s %s is more than %s", what(c, n), short_text(c, n), s->qmax_src);
		ok = false;
	}
	return ok;
}

static bool valid_number(struct vc *c, const struct sub *s, const sl_node *n, double x, bool rec)
{
	bool ok = true;
	const char *w = NULL;
	if (s->has_min && !(x >= s->min))
		w = sl_arena_printf(c->a, "less than %g", s->min);
	else if (s->has_max && !(x <= s->max))
		w = sl_arena_printf(c->a, "more than %g", s->max);
	else if (s->has_xmin && !(x > s->xmin))
		w = sl_arena_printf(c->a, "not more than %g", s->xmin);
	else if (s->has_xmax && !(x < s->xmax))
		w = sl_arena_printf(c->a, "not less than %g", s->xmax);
	else if (s->has_mult) {
		double q = x / s->mult;
		if (!isfinite(q) || fabs(q - nearbyint(q)) > 1e-9 * fmax(1.0, fabs(q)))
			w = sl_arena_printf(c->a, "not a multiple of %g", s->mult);
	}
	if (w) {
		fail(c, rec, n, false, "%s %s is %s", what(c, n), short_text(c, n), w);
		ok = false;
	}
	return ok;
}

/* The keywords of s that read a scalar's type or value (type, enum and const also read a
** collection's), t its JSON type and x its number. */
static bool valid_scalar(struct vc *c, const struct sub *s, const sl_node *n, unsigned t, double x,
			 bool rec)
{
	bool ok = true;
	const sl_node *d = deref(n);
	if (s->types && !(s->types & t)) {
		const char *v = value_text(n);
		fail(c, rec, n, false, "%s%s%s is %s, not %s", what(c, n), v ? " " : "",
		     v ? short_text(c, n) : "", type_names(c, t & ~J_INTEGER), type_names(c, s->types));
		if (!rec)
			return false;
		ok = false;
	}
	if (s->enum_) {
		bool any = false;
		for (size_t i = 0; i < sl_seq_n(s->enum_) && !any; i++)
			any = s->enum_strings ? equal_string(n, deref(sl_seq_item(s->enum_, i)))
					      : json_equal(n, sl_seq_item(s->enum_, i), 0);
		if (!any) {
			fail(c, rec, n, false, "%s %s is not one of the allowed values", what(c, n),
			     short_text(c, n));
			ok = false;
		}
	}
	if (s->const_ && !(s->const_string ? equal_string(n, deref(s->const_))
					    : json_equal(n, s->const_, 0))) {
		fail(c, rec, n, false, "%s %s is not %s", what(c, n), short_text(c, n),
		     short_text(c, s->const_));
		ok = false;
	}
	if (!ok && !rec)
		return false;
	if (t == J_STRING && !valid_string(c, s, d, rec))
		ok = false;
	if ((t & J_NUMBER) && !valid_number(c, s, n, x, rec))
		ok = false;
	if ((s->has_qmin || s->has_qmax) && (t & (J_STRING | J_NUMBER)) && !valid_quantity(c, s, d, rec))
		ok = false;
	return ok;
}

/* The slot of (s, n, rec) in c's table (empty when absent); NULL when the table cannot grow. */
static struct ref_seen *ref_slot(struct vc *c, const struct sub *s, const sl_node *n, bool rec)
{
	if (2 * (c->n_refs + 1) > c->cap_refs) {
		size_t ncap = c->cap_refs ? 2 * c->cap_refs : 64;
		struct ref_seen *nv = sl_xcalloc(ncap, sizeof *nv);
		if (!nv)
			return NULL;
		for (size_t i = 0; i < c->cap_refs; i++) {
			if (!c->refs[i].result)
				continue;
			size_t h = sl_hash_bytes(SL_HASH_INIT, &c->refs[i], offsetof(struct ref_seen, result));
			while (nv[h & (ncap - 1)].result)
				h++;
			nv[h & (ncap - 1)] = c->refs[i];
		}
		free(c->refs);
		c->refs = nv;
		c->cap_refs = ncap;
	}
	struct ref_seen key = {.s = s, .n = n, .rec = rec};
	size_t h = sl_hash_bytes(SL_HASH_INIT, &key, offsetof(struct ref_seen, result));
	for (;; h++) {
		struct ref_seen *e = &c->refs[h & (c->cap_refs - 1)];
		if (!e->result) {
			*e = key;
			return e;
		}
		if (e->s == s && e->n == n && e->rec == rec)
			return e;
	}
}

/* valid() of a $ref's target, once per (target, node, rec). */
static bool valid_ref(struct vc *c, const struct sub *s, const sl_node *n, bool rec,
		      unsigned depth)
{
	struct ref_seen *e = ref_slot(c, s, n, rec);
	if (!e) {
		c->oom = true;
		return false;
	}
	if (e->result)
		return e->result == 1;
	bool ok = valid(c, s, n, rec, depth + 1);
	/* the table may have grown (and moved) meanwhile: found again, then set */
	if ((e = ref_slot(c, s, n, rec))) {
		if (!e->result)
			c->n_refs++;
		e->result = ok ? 1 : 2;
	} else {
		c->oom = true;
	}
	return ok;
}

static bool valid(struct vc *c, const struct sub *s, const sl_node *n, bool rec, unsigned depth)
{
	/* a path into the value (s a step: one property, nothing else): followed without a call
	** per step while a mapping has the member once; what valid_object would do, in a loop */
	while (s->path_step && depth <= SL_SCHEMA_MAX_DEPTH) {
		const sl_node *d = deref(n), *v = NULL;
		if (!d || d->type != SL_NODE_MAP)
			return true;   /* properties reads objects only */
		int found = members(d, s->props->name, s->props->len, 2, &v);
		if (found == 0)
			return true;
		if (found > 1)
			break;   /* each of them: valid_object */
		s = s->props->s;
		n = v;
		depth++;
	}
	if (depth > SL_SCHEMA_MAX_DEPTH) {
		fail(c, rec, n, false, "%s: the schema nests deeper than %d", what(c, n),
		     SL_SCHEMA_MAX_DEPTH);
		return false;
	}
	if (s->boolean >= 0) {
		if (!s->boolean)
			fail(c, rec, n, false, "%s is not allowed here", what(c, n));
		return s->boolean;
	}
	if (s->ref)
		return valid_ref(c, s->ref, n, rec, depth);
	bool ok = true;
	double x = 0;
	const sl_node *d = deref(n);
	/* a scalar's JSON type is worked out only for a keyword that reads it (0: not needed) */
	unsigned t = !d ? J_NULL : d->type == SL_NODE_MAP ? J_OBJECT : d->type == SL_NODE_SEQ ? J_ARRAY
		   : !s->scalar_keywords || s->equality_only ? 0
		   : s->quantity_only && text_or_number(d) ? J_STRING : jtype(d, &x);
	if (s->scalar_keywords && !valid_scalar(c, s, n, t, x, rec)) {
		if (!rec)
			return false;
		ok = false;
	}
	if (t == J_OBJECT && s->object_keywords && !valid_object(c, s, d, rec, depth))
		ok = false;
	if (t == J_ARRAY && s->array_keywords && !valid_array(c, s, d, rec, depth))
		ok = false;
	if (!ok && !rec)
		return false;
	if (!s->combinators)
		return ok;
	for (size_t i = 0; i < s->all_of.n; i++)
		if (!valid(c, s->all_of.v[i], n, rec, depth + 1)) {
			ok = false;
			if (!rec)
				return false;
		}
	if (s->any_of.n) {
		bool any = false;
		for (size_t i = 0; i < s->any_of.n && !any; i++)
			any = valid(c, s->any_of.v[i], n, false, depth + 1);
		if (!any) {
			if (s->any_of.n == 1)   /* one branch: say why it failed */
				valid(c, s->any_of.v[0], n, rec, depth + 1);
			fail(c, rec, n, false, "%s matches none of anyOf", what(c, n));
			ok = false;
		}
	}
	if (s->one_of.n) {
		size_t hits = 0;
		for (size_t i = 0; i < s->one_of.n && hits < 2; i++)
			hits += valid(c, s->one_of.v[i], n, false, depth + 1);
		if (hits != 1) {
			fail(c, rec, n, false, "%s matches %s of oneOf", what(c, n),
			     hits ? "more than one" : "none");
			ok = false;
		}
	}
	if (s->not_ && valid(c, s->not_, n, false, depth + 1)) {
		fail(c, rec, n, false, "%s matches the schema under not", what(c, n));
		ok = false;
	}
	if (s->if_ && (s->then_ || s->else_)) {
		const struct sub *branch = valid(c, s->if_, n, false, depth + 1) ? s->then_ : s->else_;
		if (branch && !valid(c, branch, n, rec, depth + 1))
			ok = false;
	}
	return ok;
}

int sl_schema_validate(const sl_schema *s, const sl_node *instance, sl_arena *a,
		       sl_schema_failure *out)
{
	return sl_schema_validate_budget(s, instance, a, NULL, out);
}

int sl_schema_validate_budget(const sl_schema *s, const sl_node *instance, sl_arena *a,
			      sl_regex_budget *budget, sl_schema_failure *out)
{
	struct vc c = {.a = a, .budget = budget, .out = out, .best_depth = -1};
	memset(out, 0, sizeof *out);
	bool ok = valid(&c, s->root, instance, true, 0);
	if (c.md)
		pcre2_match_data_free(c.md);
	if (c.refs)
		free(c.refs);
	out->unrun = c.unrun;
	if (c.oom)
		return -1;
	if (!ok && !out->message) {   /* nothing deeper said why: the root failed */
		out->at = instance;
		out->message = "the value does not match the schema";
	}
	return ok ? 1 : 0;
}
