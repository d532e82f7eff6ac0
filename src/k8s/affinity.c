/* SPDX-License-Identifier: Apache-2.0
** affinity.c: node affinity matching (component-helpers scheduling/corev1/nodeaffinity and
** apimachinery labels.Requirement), its API validation (ValidateNodeSelectorRequirement,
** validateNodeFieldSelectorRequirement), and a satisfiability check of ANDed requirements.
** The check reasons per key over what a real node may carry: valid label values only, so Gt/Lt
** need a non-negative integer spelled in digits (leading zeros give endless spellings). */
#include "k8s/affinity.h"
#include "k8s/labels.h"
#include "k8s/text.h"

#include <string.h>
#include <strings.h>

typedef enum op { OP_IN, OP_NOT_IN, OP_EXISTS, OP_DNE, OP_GT, OP_LT, OP_EQ, OP_BAD } op;

static const char *const op_names[] = { "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt" };

static op parse_op(sl_k8s_str s)
{
	for (int i = 0; i < 6; i++)
		if (sl_k8s_str_is(s, op_names[i]))
			return (op)i;
	return OP_BAD;
}

const char *sl_k8s_selector_operator_fix(const char *s, size_t n)
{
	for (int i = 0; i < 6; i++) {
		if (n && strlen(op_names[i]) == n && strncasecmp(op_names[i], s, n) == 0)
			return memcmp(op_names[i], s, n) == 0 ? NULL : op_names[i];
	}
	return NULL;
}

/* Go's %#v of a []string: []string{"a", "b"}. */
static void add_string_slice(sl_k8s__buf *b, const sl_k8s_str *v, size_t n)
{
	sl_k8s__buf_add(b, "[]string{");
	for (size_t i = 0; i < n; i++) {
		if (i)
			sl_k8s__buf_add(b, ", ");
		sl_k8s__buf_quote(b, v[i].s, v[i].n);
	}
	sl_k8s__buf_add(b, "}");
}

static void sep(sl_k8s__buf *b, int *count)
{
	if ((*count)++ > 0)
		sl_k8s__buf_add(b, "; ");
}

bool sl_k8s_requirement_builds(const sl_requirement *r, bool is_field, char *msg, size_t msgsz)
{
	sl_k8s__buf b;
	int count = 0;
	char m[2048];
	op o = parse_op(r->op);
	sl_k8s__buf_init(&b, msg, msgsz);
	if (is_field) {
		if (o == OP_IN || o == OP_NOT_IN) {
			if (r->n_values != 1) {
				sep(&b, &count);
				sl_k8s__buf_add(&b, "values: Invalid value: ");
				add_string_slice(&b, r->values, r->n_values);
				sl_k8s__buf_add(&b, ": must have one element");
			}
		} else {
			sep(&b, &count);
			sl_k8s__buf_add(&b, "operator: Unsupported value: ");
			sl_k8s__buf_quote(&b, r->op.s, r->op.n);
			sl_k8s__buf_add(&b, ": supported values: \"In\", \"NotIn\"");
		}
		return count == 0;
	}
	if (o == OP_BAD) {
		sl_k8s__buf_add(&b, "operator: Unsupported value: ");
		sl_k8s__buf_quote(&b, r->op.s, r->op.n);
		sl_k8s__buf_add(&b, ": supported values: \"In\", \"NotIn\", \"Exists\", "
			       "\"DoesNotExist\", \"Gt\", \"Lt\"");
		return false;
	}
	if (sl_k8s_check_qualified_name(r->key.s, r->key.n, m, sizeof m) != 0) {
		sep(&b, &count);
		sl_k8s__buf_add(&b, "key: Invalid value: ");
		sl_k8s__buf_quote(&b, r->key.s, r->key.n);
		sl_k8s__buf_add(&b, ": ");
		sl_k8s__buf_add(&b, m);
	}
	if ((o == OP_IN || o == OP_NOT_IN) && r->n_values == 0) {
		sep(&b, &count);
		sl_k8s__buf_add(&b, "values: Invalid value: []string{}: for 'in', 'notin' operators, "
			       "values set can't be empty");
	} else if ((o == OP_EXISTS || o == OP_DNE) && r->n_values != 0) {
		sep(&b, &count);
		sl_k8s__buf_add(&b, "values: Invalid value: ");
		add_string_slice(&b, r->values, r->n_values);
		sl_k8s__buf_add(&b, ": values set must be empty for exists and does not exist");
	} else if (o == OP_GT || o == OP_LT) {
		if (r->n_values != 1) {
			sep(&b, &count);
			sl_k8s__buf_add(&b, "values: Invalid value: ");
			add_string_slice(&b, r->values, r->n_values);
			sl_k8s__buf_add(&b, ": for 'Gt', 'Lt' operators, exactly one value is required");
		}
		for (size_t i = 0; i < r->n_values; i++) {
			if (!sl_k8s_parse_int64(r->values[i].s, r->values[i].n, NULL)) {
				sep(&b, &count);
				sl_k8s__buf_add(&b, "values[");
				sl_k8s__buf_int(&b, (long long)i);
				sl_k8s__buf_add(&b, "]: Invalid value: ");
				sl_k8s__buf_quote(&b, r->values[i].s, r->values[i].n);
				sl_k8s__buf_add(&b, ": for 'Gt', 'Lt' operators, the value must be an integer");
			}
		}
	}
	for (size_t i = 0; i < r->n_values; i++) {
		if (sl_k8s_check_label_value(r->values[i].s, r->values[i].n, m, sizeof m) != 0) {
			sep(&b, &count);
			/* validateLabelValue reports at values[i][key] (field.Path.Key) */
			sl_k8s__buf_add(&b, "values[");
			sl_k8s__buf_int(&b, (long long)i);
			sl_k8s__buf_add(&b, "][");
			sl_k8s__buf_addn(&b, r->key.s, r->key.n);
			sl_k8s__buf_add(&b, "]: Invalid value: ");
			sl_k8s__buf_quote(&b, r->values[i].s, r->values[i].n);
			sl_k8s__buf_add(&b, ": ");
			sl_k8s__buf_add(&b, m);
		}
	}
	return count == 0;
}

static bool lookup(const sl_node_labels *node, sl_k8s_str key, sl_k8s_str *val)
{
	for (size_t i = 0; i < node->n_labels; i++) {
		if (sl_k8s_str_eq(node->labels[i].key, key)) {
			*val = node->labels[i].value;
			return true;
		}
	}
	return false;
}

static bool has_value(const sl_requirement *r, sl_k8s_str v)
{
	for (size_t i = 0; i < r->n_values; i++)
		if (sl_k8s_str_eq(r->values[i], v))
			return true;
	return false;
}

/* Matches a requirement known to build. */
static bool matches_built(const sl_requirement *r, const sl_node_labels *node)
{
	sl_k8s_str v = { NULL, 0 };
	bool present = lookup(node, r->key, &v);
	int64_t lv, rv;
	switch (parse_op(r->op)) {
	case OP_IN: return present && has_value(r, v);
	case OP_NOT_IN: return !present || !has_value(r, v);
	case OP_EXISTS: return present;
	case OP_DNE: return !present;
	case OP_GT:
	case OP_LT:
		if (!present || !sl_k8s_parse_int64(v.s, v.n, &lv) || r->n_values != 1 ||
		    !sl_k8s_parse_int64(r->values[0].s, r->values[0].n, &rv))
			return false;
		return parse_op(r->op) == OP_GT ? lv > rv : lv < rv;
	default: return false;
	}
}

bool sl_k8s_requirement_matches(const sl_requirement *r, const sl_node_labels *node)
{
	return sl_k8s_requirement_builds(r, false, NULL, 0) && matches_built(r, node);
}

bool sl_k8s_term_matches(const sl_selector_term *t, const sl_node_labels *node)
{
	if (t->n_exprs == 0 && t->n_fields == 0)
		return false;
	for (size_t i = 0; i < t->n_exprs; i++)
		if (!sl_k8s_requirement_builds(&t->exprs[i], false, NULL, 0))
			return false;
	for (size_t i = 0; i < t->n_fields; i++)
		if (!sl_k8s_requirement_builds(&t->fields[i], true, NULL, 0))
			return false;
	for (size_t i = 0; i < t->n_exprs; i++)
		if (!matches_built(&t->exprs[i], node))
			return false;
	if (node->has_name && node->name.n > 0) {
		for (size_t i = 0; i < t->n_fields; i++) {
			const sl_requirement *f = &t->fields[i];
			/* fields.Set{"metadata.name": name}.Get(key): "" for any other key */
			sl_k8s_str got = sl_k8s_str_is(f->key, "metadata.name") ? node->name :
					 sl_k8s_cstr("");
			bool eq = sl_k8s_str_eq(got, f->values[0]);
			if (parse_op(f->op) == OP_IN ? !eq : eq)
				return false;
		}
	}
	return true;
}

bool sl_k8s_node_affinity_matches(const sl_node_affinity *a, const sl_node_labels *node)
{
	for (size_t i = 0; i < a->n_selector; i++) {
		sl_k8s_str v;
		if (!lookup(node, a->selector[i].key, &v) || !sl_k8s_str_eq(v, a->selector[i].value))
			return false;
	}
	if (!a->has_required)
		return true;
	for (size_t i = 0; i < a->n_terms; i++)
		if (sl_k8s_term_matches(&a->terms[i], node))
			return true;
	return false;
}

static void problem(sl_k8s_problem *out, size_t max, size_t *count, sl_k8s_field field,
		    int index, const char *kind, const sl_k8s_str *bad, const char *detail)
{
	if (*count < max) {
		sl_k8s__buf b = sl_k8s__problem(&out[*count], field, field);
		out[*count].index = index;
		sl_k8s__buf_add(&b, kind);
		sl_k8s__buf_add(&b, ": ");
		if (bad) {
			sl_k8s__buf_quote(&b, bad->s, bad->n);
			sl_k8s__buf_add(&b, ": ");
		}
		sl_k8s__buf_add(&b, detail);
	}
	(*count)++;
}

/* One problem per "; "-separated message of joined. */
static void problems_each(sl_k8s_problem *out, size_t max, size_t *count, sl_k8s_field field,
			  int index, const sl_k8s_str *bad, const char *joined)
{
	char one[SL_K8S_MSG_MAX];
	for (const char *p = joined; p && *p;) {
		p = sl_k8s__next_message(p, one, sizeof one);
		problem(out, max, count, field, index, "Invalid value", bad, one);
	}
}

size_t sl_k8s_requirement_validate(const sl_requirement *r, bool check_values,
				   sl_k8s_problem *out, size_t max)
{
	size_t count = 0;
	char m[2048];
	if (!out)
		max = 0;
	switch (parse_op(r->op)) {
	case OP_IN:
	case OP_NOT_IN:
		if (r->n_values == 0)
			problem(out, max, &count, SL_K8S_F_VALUES, -1, "Required value", NULL,
				"must be specified when `operator` is 'In' or 'NotIn'");
		break;
	case OP_EXISTS:
	case OP_DNE:
		if (r->n_values > 0)
			problem(out, max, &count, SL_K8S_F_VALUES, -1, "Forbidden", NULL,
				"may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
		break;
	case OP_GT:
	case OP_LT:
		if (r->n_values != 1)
			problem(out, max, &count, SL_K8S_F_VALUES, -1, "Required value", NULL,
				"must be specified single value when `operator` is 'Lt' or 'Gt'");
		break;
	default:
		problem(out, max, &count, SL_K8S_F_OPERATOR, -1, "Invalid value", &r->op,
			"not a valid selector operator");
	}
	if (sl_k8s_check_qualified_name(r->key.s, r->key.n, m, sizeof m) != 0)
		problems_each(out, max, &count, SL_K8S_F_KEY, -1, &r->key, m);
	if (check_values) {
		for (size_t i = 0; i < r->n_values; i++)
			if (sl_k8s_check_label_value(r->values[i].s, r->values[i].n, m, sizeof m) != 0)
				problems_each(out, max, &count, SL_K8S_F_VALUES, (int)i, &r->values[i], m);
	}
	return count;
}

size_t sl_k8s_field_requirement_validate(const sl_requirement *r, sl_k8s_problem *out, size_t max)
{
	size_t count = 0;
	char m[2048];
	op o = parse_op(r->op);
	if (!out)
		max = 0;
	if (o == OP_IN || o == OP_NOT_IN) {
		if (r->n_values != 1)
			problem(out, max, &count, SL_K8S_F_VALUES, -1, "Required value", NULL,
				"must be only one value when `operator` is 'In' or 'NotIn' for node "
				"field selector");
	} else {
		problem(out, max, &count, SL_K8S_F_OPERATOR, -1, "Invalid value", &r->op,
			"not a valid selector operator");
	}
	if (!sl_k8s_str_is(r->key, "metadata.name")) {
		problem(out, max, &count, SL_K8S_F_KEY, -1, "Invalid value", &r->key,
			"not a valid field selector key");
	} else {
		for (size_t i = 0; i < r->n_values; i++)
			if (sl_k8s_check_dns1123_subdomain(r->values[i].s, r->values[i].n, m,
							   sizeof m) != 0)
				problems_each(out, max, &count, SL_K8S_F_VALUES, (int)i, &r->values[i], m);
	}
	return count;
}

/* ---- satisfiability ---- */

/* One constraint: a nodeSelector pair, a matchExpression or a matchField. */
typedef struct item {
	int ns;                  /* 0 labels, 1 fields */
	op o;
	sl_k8s_str op_text;      /* the operator as written */
	sl_k8s_str key;
	const sl_k8s_str *values;
	size_t n_values;
} item;

typedef struct ctx {
	const sl_label *sel;
	size_t n_sel;
	const sl_selector_term *t;
	size_t n;                /* items in all */
} ctx;

static item get_item(const ctx *c, size_t i)
{
	item it;
	if (i < c->n_sel) {
		it.ns = 0;
		it.o = OP_EQ;
		it.op_text = sl_k8s_cstr("=");
		it.key = c->sel[i].key;
		it.values = &c->sel[i].value;
		it.n_values = 1;
		return it;
	}
	i -= c->n_sel;
	/* matchExpressions, then matchFields (keys of their own namespace) */
	bool field = i >= c->t->n_exprs;
	const sl_requirement *r = field ? &c->t->fields[i - c->t->n_exprs] : &c->t->exprs[i];
	it.ns = field;
	it.o = parse_op(r->op);
	it.op_text = r->op;
	it.key = r->key;
	it.values = r->values;
	it.n_values = r->n_values;
	return it;
}

static bool same_key(const item *a, const item *b)
{
	return a->ns == b->ns && sl_k8s_str_eq(a->key, b->key);
}

static bool contains(const item *it, sl_k8s_str v)
{
	for (size_t i = 0; i < it->n_values; i++)
		if (sl_k8s_str_eq(it->values[i], v))
			return true;
	return false;
}

#define ALL ((size_t)-1)

/* Whether the items on the key of item `k0` can hold together; with a and b != ALL only items
** a and b (both on that key) are considered. */
static bool key_sat(const ctx *c, size_t k0, size_t a, size_t b)
{
	item ref = get_item(c, k0);
	bool must_exist = false, must_absent = false, have_lo = false, have_hi = false;
	int64_t lo = 0, hi = 0;
	size_t first_pos = ALL;
	if (ref.ns == 1 && !sl_k8s_str_is(ref.key, "metadata.name")) {
		/* an unknown field is always "" on a node */
		for (size_t i = 0; i < c->n; i++) {
			item it;
			bool eq;
			if (a != ALL && i != a && i != b)
				continue;
			it = get_item(c, i);
			if (!same_key(&it, &ref))
				continue;
			eq = sl_k8s_str_eq(it.values[0], sl_k8s_cstr(""));
			if (it.o == OP_IN ? !eq : eq)
				return false;
		}
		return true;
	}
	for (size_t i = 0; i < c->n; i++) {
		item it;
		int64_t v;
		if (a != ALL && i != a && i != b)
			continue;
		it = get_item(c, i);
		if (!same_key(&it, &ref))
			continue;
		switch (it.o) {
		case OP_EQ:
		case OP_IN:
			must_exist = true;
			if (first_pos == ALL)
				first_pos = i;
			break;
		case OP_EXISTS: must_exist = true; break;
		case OP_DNE: must_absent = true; break;
		case OP_GT:
			must_exist = true;
			(void)sl_k8s_parse_int64(it.values[0].s, it.values[0].n, &v);
			if (!have_lo || v > lo)
				lo = v;
			have_lo = true;
			break;
		case OP_LT:
			must_exist = true;
			(void)sl_k8s_parse_int64(it.values[0].s, it.values[0].n, &v);
			if (!have_hi || v < hi)
				hi = v;
			have_hi = true;
			break;
		default: break;
		}
	}
	if (must_exist && must_absent)
		return false;
	if (!must_exist)
		return true;
	if (first_pos != ALL) {
		item p = get_item(c, first_pos);
		for (size_t k = 0; k < p.n_values; k++) {
			sl_k8s_str cand = p.values[k];
			bool ok = true;
			int64_t v;
			if (!sl_k8s_is_label_value(cand.s, cand.n) && ref.ns == 0)
				continue;   /* no node label can hold it */
			if ((have_lo || have_hi) &&
			    (!sl_k8s_parse_int64(cand.s, cand.n, &v) || (have_lo && !(v > lo)) ||
			     (have_hi && !(v < hi))))
				continue;
			for (size_t i = 0; i < c->n && ok; i++) {
				item it;
				if (a != ALL && i != a && i != b)
					continue;
				it = get_item(c, i);
				if (!same_key(&it, &ref))
					continue;
				if ((it.o == OP_EQ || it.o == OP_IN) && !contains(&it, cand))
					ok = false;
				if (it.o == OP_NOT_IN && contains(&it, cand))
					ok = false;
			}
			if (ok)
				return true;
		}
		return false;
	}
	if (have_lo || have_hi) {
		/* node values are digit strings: integers 0..INT64_MAX */
		int64_t min = have_lo ? (lo < 0 ? 0 : (lo == INT64_MAX ? -1 : lo + 1)) : 0;
		int64_t max = have_hi ? (hi <= 0 ? -1 : hi - 1) : INT64_MAX;
		if (have_lo && lo == INT64_MAX)
			return false;
		return min <= max;
	}
	return true;
}

static void describe(sl_k8s__buf *b, const item *it)
{
	if (it->o == OP_EQ) {
		sl_k8s__buf_add(b, "nodeSelector ");
		sl_k8s__buf_addn(b, it->key.s, it->key.n);
		sl_k8s__buf_add(b, "=");
		sl_k8s__buf_addn(b, it->values[0].s, it->values[0].n);
		return;
	}
	if (it->ns == 1)
		sl_k8s__buf_add(b, "field ");
	sl_k8s__buf_addn(b, it->key.s, it->key.n);
	sl_k8s__buf_add(b, " ");
	sl_k8s__buf_addn(b, it->op_text.s, it->op_text.n);
	if (it->o == OP_IN || it->o == OP_NOT_IN || (it->o == OP_BAD && it->n_values > 0)) {
		sl_k8s__buf_add(b, " [");
		for (size_t i = 0; i < it->n_values; i++) {
			if (i)
				sl_k8s__buf_add(b, ", ");
			sl_k8s__buf_addn(b, it->values[i].s, it->values[i].n);
		}
		sl_k8s__buf_add(b, "]");
	} else if ((it->o == OP_GT || it->o == OP_LT) && it->n_values > 0) {
		sl_k8s__buf_add(b, " ");
		sl_k8s__buf_addn(b, it->values[0].s, it->values[0].n);
	}
}

static bool positive_set(op o)
{
	return o == OP_IN || o == OP_EQ;
}

static bool needs_label(op o)
{
	return o == OP_IN || o == OP_EQ || o == OP_EXISTS || o == OP_GT || o == OP_LT;
}

static const char *pair_reason(const item *x, const item *y)
{
	if ((x->o == OP_DNE && needs_label(y->o)) || (y->o == OP_DNE && needs_label(x->o)))
		return "cannot both hold: one needs the label, the other forbids it";
	if (positive_set(x->o) && positive_set(y->o))
		return "have no common value";
	if ((x->o == OP_GT || x->o == OP_LT) && (y->o == OP_GT || y->o == OP_LT))
		return "leave no integer between them";
	if (x->o == OP_GT || x->o == OP_LT || y->o == OP_GT || y->o == OP_LT)
		return "have no common value: no listed value is an integer in range";
	return "leave no possible value";
}

/* Explains why the items on the key of k0 (all unsatisfiable together) contradict. */
static void explain_key(const ctx *c, size_t k0, sl_k8s__buf *b)
{
	item ref = get_item(c, k0);
	for (size_t j = 0; j < c->n; j++) {
		item y = get_item(c, j);
		if (!same_key(&y, &ref))
			continue;
		if (!key_sat(c, k0, j, j)) {
			describe(b, &y);
			sl_k8s__buf_add(b, y.ns == 1 ? " never matches a node" :
					" never matches: no node label value satisfies it");
			return;
		}
		for (size_t i = 0; i < j; i++) {
			item x = get_item(c, i);
			if (!same_key(&x, &ref) || key_sat(c, k0, i, j))
				continue;
			describe(b, &x);
			sl_k8s__buf_add(b, " and ");
			describe(b, &y);
			sl_k8s__buf_add(b, " ");
			sl_k8s__buf_add(b, pair_reason(&x, &y));
			return;
		}
	}
	sl_k8s__buf_add(b, "the requirements on ");
	sl_k8s__buf_addn(b, ref.key.s, ref.key.n);
	sl_k8s__buf_add(b, " together leave no possible value");
}

bool sl_k8s_term_satisfiable(const sl_label *selector, size_t n_selector,
			     const sl_selector_term *t, char *why, size_t whysz)
{
	static const sl_selector_term empty = { NULL, 0, NULL, 0 };
	sl_k8s__buf b;
	ctx c;
	char m[1024];
	sl_k8s__buf_init(&b, why, whysz);
	if (t && t->n_exprs == 0 && t->n_fields == 0) {
		sl_k8s__buf_add(&b, "the term has neither matchExpressions nor matchFields, so it "
			       "matches no node");
		return false;
	}
	for (size_t i = 0; i < n_selector; i++) {
		const sl_label *p = &selector[i];
		if (!sl_k8s_is_qualified_name(p->key.s, p->key.n) ||
		    !sl_k8s_is_label_value(p->value.s, p->value.n)) {
			sl_k8s__buf_add(&b, "nodeSelector ");
			sl_k8s__buf_addn(&b, p->key.s, p->key.n);
			sl_k8s__buf_add(&b, "=");
			sl_k8s__buf_addn(&b, p->value.s, p->value.n);
			sl_k8s__buf_add(&b, " never matches: no node can carry that label");
			return false;
		}
	}
	c.sel = selector;
	c.n_sel = n_selector;
	c.t = t ? t : &empty;
	c.n = n_selector + c.t->n_exprs + c.t->n_fields;
	for (size_t i = 0; i < c.t->n_exprs + c.t->n_fields; i++) {
		bool field = i >= c.t->n_exprs;
		const sl_requirement *r = field ? &c.t->fields[i - c.t->n_exprs] : &c.t->exprs[i];
		if (!sl_k8s_requirement_builds(r, field, m, sizeof m)) {
			item it = get_item(&c, n_selector + i);
			describe(&b, &it);
			sl_k8s__buf_add(&b, " never matches: ");
			sl_k8s__buf_add(&b, m);
			return false;
		}
	}
	for (size_t k = 0; k < c.n; k++) {
		item it = get_item(&c, k);
		bool seen = false;
		for (size_t i = 0; i < k && !seen; i++) {
			item o = get_item(&c, i);
			seen = same_key(&o, &it);
		}
		if (seen)
			continue;
		if (!key_sat(&c, k, ALL, ALL)) {
			explain_key(&c, k, &b);
			return false;
		}
	}
	return true;
}

bool sl_k8s_node_affinity_satisfiable(const sl_node_affinity *a, char *why, size_t whysz)
{
	sl_k8s__buf b;
	char one[1024];
	size_t usable = 0, failed = 0;
	sl_k8s__buf_init(&b, why, whysz);
	if (!sl_k8s_term_satisfiable(a->selector, a->n_selector, NULL, one, sizeof one)) {
		sl_k8s__buf_add(&b, one);
		return false;
	}
	if (!a->has_required)
		return true;
	for (size_t i = 0; i < a->n_terms; i++) {
		const sl_selector_term *t = &a->terms[i];
		if (t->n_exprs == 0 && t->n_fields == 0)
			continue;
		usable++;
		if (sl_k8s_term_satisfiable(a->selector, a->n_selector, t, NULL, 0))
			return true;
	}
	if (usable == 0) {
		sl_k8s__buf_add(&b, a->n_terms == 0 ? "nodeSelectorTerms is empty, so no node matches" :
				"every nodeSelectorTerm is empty, so no node matches");
		return false;
	}
	for (size_t i = 0; i < a->n_terms; i++) {
		const sl_selector_term *t = &a->terms[i];
		if (t->n_exprs == 0 && t->n_fields == 0)
			continue;
		(void)sl_k8s_term_satisfiable(a->selector, a->n_selector, t, one, sizeof one);
		if (failed++ > 0)
			sl_k8s__buf_add(&b, "; ");
		if (usable > 1) {
			sl_k8s__buf_add(&b, "term ");
			sl_k8s__buf_int(&b, (long long)i + 1);
			sl_k8s__buf_add(&b, ": ");
		}
		sl_k8s__buf_add(&b, one);
	}
	return false;
}
