/* SPDX-License-Identifier: Apache-2.0
** selection.c: walking a unit's selecting requirements (nodeSelector pairs and the required
** node-affinity expressions that keep pods on nodes), and an expression mapping read as a
** requirement for the k8s/ checks (the rules, placement.c and pool.c read them so). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "config/config.h"
#include "sched/selection.h"

bool sl_selection_requirement(sl_arena *a, const sl_node *e, sl_requirement *out)
{
	const sl_node *vals = sl_map_get(e, "values");
	size_t n = sl_seq_n(vals);
	sl_k8s_str *v = n ? sl_arena_alloc(a, n * sizeof *v) : NULL;
	if (n && !v)
		return false;
	for (size_t i = 0; i < n; i++)
		v[i] = sl_node_str(sl_seq_item(vals, i));
	*out = (sl_requirement){.key = sl_node_str(sl_map_get(e, "key")),
				.op = sl_node_str(sl_map_get(e, "operator")), .values = v, .n_values = n};
	return true;
}

const sl_node *sl_selection_required_terms(const sl_unit *u)
{
	const sl_node *na = sl_map_get(u->affinity, "nodeAffinity");
	const sl_node *req = sl_map_get(na, "requiredDuringSchedulingIgnoredDuringExecution");
	const sl_node *terms = sl_map_get(req, "nodeSelectorTerms");
	return terms && terms->type == SL_NODE_SEQ ? terms : NULL;
}

/* The selecting operator op names, or NULL. A case-only misspelling ("in") is read as the
** operator invalid-node-affinity's safe fix writes, so that fix never makes a finding appear. */
static const char *selecting_op(const char *op)
{
	static const char *const ops[] = {"In", "Exists", "Gt", "Lt", NULL};
	for (size_t i = 0; op && ops[i]; i++)
		if (strcasecmp(op, ops[i]) == 0)
			return ops[i];
	return NULL;
}

/* Calls fn for the selections of one term; returns true when fn stopped. */
static bool each_in_term(const sl_node *term, int index,
			 bool (*fn)(const sl_selection *, void *), void *payload)
{
	const sl_node *exprs = sl_map_get(term, "matchExpressions");
	if (!exprs || exprs->type != SL_NODE_SEQ)
		return false;
	for (size_t i = 0; i < exprs->u.seq.n; i++) {
		const sl_node *e = sl_node_deref(exprs->u.seq.items[i]);
		const char *key = sl_scalar(sl_map_get(e, "key"));
		const char *op = selecting_op(sl_scalar(sl_map_get(e, "operator")));
		if (!key || !op)
			continue;
		const sl_node *vals = sl_map_get(e, "values");
		sl_selection s = {.key = key, .op = op,
				  .values = vals && vals->type == SL_NODE_SEQ ? vals : NULL,
				  .at = e, .term = index};
		if (fn(&s, payload))
			return true;
	}
	return false;
}

bool sl_selection_each(const sl_unit *u, bool (*fn)(const sl_selection *, void *), void *payload)
{
	size_t n;
	const sl_pair *ns = sl_map_entries(u->node_selector, &n);   /* merge keys resolved */
	for (size_t i = 0; i < n; i++) {
		const sl_node *k = ns[i].key;
		const char *key = sl_scalar(k);
		if (!key)
			continue;
		sl_selection s = {.key = key, .op = "=", .value = sl_scalar(ns[i].value),
				  .at = k, .term = -1};
		if (!s.value)
			s.value = "";
		if (fn(&s, payload))
			return true;
	}
	const sl_node *terms = sl_selection_required_terms(u);
	for (size_t t = 0; terms && t < terms->u.seq.n; t++)
		if (each_in_term(sl_node_deref(terms->u.seq.items[t]), (int)t, fn, payload))
			return true;
	return false;
}

struct pin { bool (*pred)(const sl_selection *, void *); void *payload; const sl_node *at; int term; };

static bool pin_ns(const sl_selection *s, void *p)
{
	struct pin *pin = p;
	if (s->term != pin->term || !pin->pred(s, pin->payload))
		return false;
	pin->at = s->at;
	return true;
}

bool sl_selection_pinned(const sl_unit *u, bool (*pred)(const sl_selection *, void *), void *payload,
		    const sl_node **at)
{
	struct pin pin = {pred, payload, NULL, -1};
	/* The nodeSelector alone confines the pod. */
	size_t n;
	const sl_pair *ns = sl_map_entries(u->node_selector, &n);
	for (size_t i = 0; i < n; i++) {
		const char *key = sl_scalar(ns[i].key);
		const char *val = sl_scalar(ns[i].value);
		sl_selection s = {.key = key, .op = "=", .value = val ? val : "",
				  .at = ns[i].key, .term = -1};
		if (key && pred(&s, payload)) {
			if (at)
				*at = s.at;
			return true;
		}
	}
	/* Else every required term must select. */
	const sl_node *terms = sl_selection_required_terms(u);
	if (!terms || terms->u.seq.n == 0)
		return false;
	const sl_node *first = NULL;
	for (size_t t = 0; t < terms->u.seq.n; t++) {
		pin.term = (int)t;
		pin.at = NULL;
		if (!each_in_term(sl_node_deref(terms->u.seq.items[t]), (int)t, pin_ns, &pin))
			return false;
		if (!first)
			first = pin.at;
	}
	if (at)
		*at = first;
	return true;
}

bool sl_selection_allows(const sl_selection *s, const char *v)
{
	if (strcmp(s->op, "=") == 0)
		return strcmp(s->value, v) == 0;
	if (strcmp(s->op, "Exists") == 0)
		return true;
	if (strcmp(s->op, "In") == 0) {
		for (size_t i = 0; s->values && i < s->values->u.seq.n; i++)
			if (sl_scalar_is(s->values->u.seq.items[i], v))
				return true;
		return false;
	}
	/* Gt / Lt: both sides integers. */
	char *end;
	long long nv = strtoll(v, &end, 10);
	if (!*v || *end || !s->values || s->values->u.seq.n != 1)
		return false;
	const char *b = sl_scalar(s->values->u.seq.items[0]);
	if (!b)
		return false;
	long long bound = strtoll(b, &end, 10);
	if (!*b || *end)
		return false;
	return strcmp(s->op, "Gt") == 0 ? nv > bound : nv < bound;
}

/* A value that marks a node without GPUs. */
static bool negative_value(const char *v)
{
	return !v || strcmp(v, "false") == 0 || strcmp(v, "0") == 0 || strcmp(v, "") == 0;
}

struct gpu_pred { const sl_config *cfg; };

/* Selections that keep the pod on GPU nodes. */
static bool selects_gpu(const sl_selection *s, void *payload)
{
	const struct gpu_pred *p = payload;
	if (!sl_config_list_has(&p->cfg->cluster.gpu_node_labels, s->key))
		return false;
	if (strcmp(s->op, "=") == 0)
		return !negative_value(s->value);
	if (strcmp(s->op, "In") == 0) {
		for (size_t i = 0; s->values && i < s->values->u.seq.n; i++)
			if (!negative_value(sl_scalar(s->values->u.seq.items[i])))
				return true;
		return false;
	}
	if (strcmp(s->op, "Lt") == 0) {
		/* `count Lt "1"` keeps pods on nodes with no GPU. The values are strings, so the
		** bound is read from the text, as the scheduler parses it (sl_selection_allows). */
		const char *b = s->values && s->values->u.seq.n == 1
					? sl_scalar(s->values->u.seq.items[0]) : NULL;
		char *end;
		long long bound = b && *b ? strtoll(b, &end, 10) : 0;
		return !(b && *b && !*end && bound <= 1);
	}
	return true; /* Exists, Gt */
}

/* Pinned by a selection of a GPU node label that admits GPU nodes. */
bool sl_selection_pinned_to_gpu(const sl_config *cfg, const sl_unit *u, const sl_node **at)
{
	struct gpu_pred pred = {cfg};
	return sl_selection_pinned(u, selects_gpu, &pred, at);
}
