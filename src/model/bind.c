/* SPDX-License-Identifier: Apache-2.0
** bind.c: the typed-field check every binder uses (sl_model_expect: the one place schema-type
** findings come from). A binder asks for a field with the type the API server requires; a
** value of another type is reported and not bound, so no rule reads a wrong-typed field. And
** the units a binder adds to its object. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "model/model.h"
#include "yaml/template.h"

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

/* A plain untagged scalar that starts like a number: an integer, a float or a string, never a
** null or a boolean (sl_scalar_text_type). */
static bool number_like(const sl_node *v)
{
	char c = v->u.scalar.s[0];
	return v->style == SL_STYLE_PLAIN && !sl_node_tag(v) &&
	       ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.');
}

bool sl_model_null_or_bool(const sl_node *v)
{
	v = sl_node_deref(v);
	if (!v || v->type != SL_NODE_SCALAR || number_like(v))
		return false;
	sl_yaml_type y = sl_scalar_type(v);
	return y == SL_Y_NULL || y == SL_Y_BOOL;
}

const sl_node *sl_model_expect_node(sl_model_ctx *mc, const sl_node *n, enum sl_ftype t,
				    const char *field)
{
	const sl_node *v = sl_node_deref(n);
	if (!v)
		return NULL;
	/* the scalar's type, once (SL_Y_STR for a collection: unused then); a quantity asks only
	** whether it is a null or a boolean, which a number-like scalar is not (SL_Y_FLOAT stands
	** for "a number or a string" then) */
	sl_yaml_type y = v->type != SL_NODE_SCALAR ? SL_Y_STR
		       : t == SL_T_QUANTITY && number_like(v) ? SL_Y_FLOAT : sl_scalar_type(v);
	if (v->type == SL_NODE_SCALAR && y == SL_Y_NULL)
		return NULL;
	/* An unrendered template ("{{ .Values.replicas }}", "${REPLICAS}") has no type yet: not
	** reported, and not bound (no rule can judge it either). Where a type other than a string
	** is wanted it is evidence that the file is a template (template.h). */
	if (v->type == SL_NODE_SCALAR && sl_template_in_value(v->u.scalar.s, v->u.scalar.len)) {
		if (t != SL_T_STR && mc->issue)
			mc->issue(mc->payload, "template-not-rendered", v,
				  sl_arena_printf(mc->arena, "%s holds it where %s is wanted", field,
						  type_word(t)), 0);
		return NULL;
	}
	int ok;
	switch (t) {
	case SL_T_MAP: ok = v->type == SL_NODE_MAP; break;
	case SL_T_SEQ: ok = v->type == SL_NODE_SEQ; break;
	case SL_T_STR: ok = v->type == SL_NODE_SCALAR && y == SL_Y_STR; break;
	case SL_T_INT: ok = v->type == SL_NODE_SCALAR && y == SL_Y_INT; break;
	case SL_T_BOOL: ok = v->type == SL_NODE_SCALAR && y == SL_Y_BOOL; break;
	case SL_T_QUANTITY:
		ok = v->type == SL_NODE_SCALAR && (y == SL_Y_STR || y == SL_Y_INT || y == SL_Y_FLOAT);
		break;
	case SL_T_STRMAP:
		ok = v->type == SL_NODE_MAP;
		if (ok) {
			size_t n;
			const sl_pair *pairs = sl_map_entries(v, &n);
			for (size_t i = 0; i < n; i++) {
				const sl_node *k = pairs[i].key;
				const sl_node *val = sl_node_deref(pairs[i].value);
				if (val->type == SL_NODE_SCALAR) {
					sl_yaml_type vy = sl_scalar_type(val);
					if (vy == SL_Y_STR || vy == SL_Y_NULL ||
					    sl_template_in_value(val->u.scalar.s, val->u.scalar.len))
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
				const sl_node *it = sl_node_deref(v->u.seq.items[i]);
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

/* Takes entry p for spec[j] when its key is spec[j]'s and spec[j] has none yet (*found's bit j:
** the first entry of a key wins, even when its value is NULL). p's key is a scalar. */
static void find_one(const sl_pair *p, const sl_model_fspec *spec, size_t j, uint64_t *found,
		     const sl_node **out)
{
	const sl_node *k = p->key;
	if (spec[j].len == k->u.scalar.len && !(*found >> j & 1) &&
	    memcmp(spec[j].key, k->u.scalar.s, spec[j].len) == 0) {
		out[j] = sl_node_deref(p->value);
		*found |= (uint64_t)1 << j;
	}
}

void sl_model_find(const sl_node *map, const sl_model_fspec *spec, size_t n, const sl_node **out)
{
	/* the keys by length: head[l] - 1 is the first key of length l (< 64), next[j] - 1 the one
	** after key j; the longer ones are compared with every entry of their length or more */
	uint8_t head[64], next[64];
	uint64_t found = 0;
	bool long_keys = false;
	size_t np;
	const sl_pair *p = sl_map_entries(map, &np);
	if (n <= 4) {   /* a few keys: each entry compared with each, no table to set up */
		for (size_t j = 0; j < n; j++)
			out[j] = NULL;
		for (size_t i = 0; i < np; i++)
			if (p[i].key->type == SL_NODE_SCALAR)
				for (size_t j = 0; j < n; j++)
					find_one(&p[i], spec, j, &found, out);
		return;
	}
	memset(head, 0, sizeof head);
	for (size_t j = n; j-- > 0;) {
		out[j] = NULL;
		if (spec[j].len < 64) {
			next[j] = head[spec[j].len];
			head[spec[j].len] = (uint8_t)(j + 1);
		} else {
			long_keys = true;
		}
	}
	for (size_t i = 0; i < np; i++) {
		const sl_node *k = p[i].key;
		if (k->type != SL_NODE_SCALAR)
			continue;
		if (k->u.scalar.len < 64) {
			for (unsigned j = head[k->u.scalar.len]; j; j = next[j - 1])
				find_one(&p[i], spec, j - 1, &found, out);
		} else if (long_keys) {
			for (size_t j = 0; j < n; j++)
				find_one(&p[i], spec, j, &found, out);
		}
	}
}

void sl_model_fields(sl_model_ctx *mc, const sl_node *map, const sl_model_fspec *spec)
{
	const sl_node *v[64];
	size_t n = 0;
	if (!map)
		return;
	while (spec[n].key && n < 64)
		n++;
	sl_model_find(map, spec, n, v);
	for (size_t i = 0; i < n; i++)
		sl_model_expect(mc, v[i], spec[i].t, spec[i].key);
	if (spec[n].key)   /* a table longer than one pass takes (64): the rest in another */
		sl_model_fields(mc, map, spec + n);
}

void sl_model_items(sl_model_ctx *mc, const sl_node *seq, const sl_model_fspec *spec)
{
	for (size_t i = 0; seq && i < seq->u.seq.n; i++) {
		const sl_node *m = sl_node_deref(seq->u.seq.items[i]);
		if (m->type == SL_NODE_MAP)
			sl_model_fields(mc, m, spec);
	}
}

sl_unit *sl_model_add_unit(sl_model_ctx *mc, sl_object *o, sl_role role, const char *name)
{
	/* grown geometrically (pointers to units are taken only after binding has finished) */
	sl_unit *nu = sl_arena_grow(mc->arena, o->units, o->n_units, sizeof *nu);
	if (!nu)
		return NULL;
	sl_unit *u = &nu[o->n_units];
	memset(u, 0, sizeof *u);
	u->obj = o;
	u->role = role;
	u->name = name;
	u->mode = o->mode;
	u->min_replicas = -1;
	u->pods = -1;
	o->units = nu;
	o->n_units++;
	return u;
}

long long sl_model_int(sl_model_ctx *mc, const sl_node *map, const char *key, long long dflt,
		       const sl_node **at)
{
	long long v = dflt;
	const sl_node *n = sl_model_field(mc, map, key, SL_T_INT);
	if (n && !sl_scalar_int(n, &v))
		n = NULL, v = dflt;
	if (at)
		*at = n;
	return v;
}

const char *sl_model_item_name(sl_model_ctx *mc, const sl_node *item, const char *key,
			       const char *what, const char *unnamed, size_t i)
{
	const char *n = sl_scalar(sl_model_field(mc, item, key, SL_T_STR));
	return n && *n ? sl_model_printf(mc, "%s %s", what, n)
		       : sl_model_printf(mc, "%s %s%zu", what, unnamed, i);
}

long long sl_model_pods(long long a, long long b)
{
	long long r;
	if (a < 0 || b < 0)
		return -1;
	return __builtin_mul_overflow(a, b, &r) ? LLONG_MAX : r;
}

const char *sl_model_printf(sl_model_ctx *mc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *s = sl_arena_vprintf(mc->arena, fmt, ap);
	va_end(ap);
	return s;
}

sl_node *sl_model_synth(sl_model_ctx *mc, sl_node_type type, const sl_node *at, const char *text,
			size_t cap)
{
	sl_node *n = sl_arena_zalloc(mc->arena, sizeof *n);
	if (!n)
		return NULL;
	n->type = (uint8_t)type;
	n->start = at->start;
	n->end = at->end;
	n->parent = (sl_node *)at;
	if (type == SL_NODE_SCALAR) {
		n->u.scalar.s = text ? text : "";
		n->u.scalar.len = text ? strlen(text) : 0;
		n->style = SL_STYLE_PLAIN;
	} else if (type == SL_NODE_MAP && cap) {
		if (!(n->u.map.pairs = sl_arena_zalloc(mc->arena, cap * sizeof *n->u.map.pairs)))
			return NULL;
	} else if (type == SL_NODE_SEQ && cap) {
		if (!(n->u.seq.items = sl_arena_zalloc(mc->arena, cap * sizeof *n->u.seq.items)))
			return NULL;
	}
	n->style = type == SL_NODE_SCALAR ? SL_STYLE_PLAIN : 1;   /* collections: flow, never edited */
	return n;
}

void sl_model_synth_put(sl_node *m, const sl_node *key, const sl_node *value)
{
	m->u.map.pairs[m->u.map.n].key = (sl_node *)key;
	m->u.map.pairs[m->u.map.n].value = (sl_node *)value;
	m->u.map.n++;
}
