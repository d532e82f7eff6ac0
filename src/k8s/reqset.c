/* SPDX-License-Identifier: Apache-2.0
** reqset.c: Karpenter's Requirement set algebra (reqset.h; kubernetes-sigs/karpenter
** pkg/scheduling/requirement.go: NewRequirement, Intersection, Len, Operator, and
** requirements.go Intersects). */
#include <stdio.h>
#include <string.h>
#include "k8s/labels.h"
#include "k8s/reqset.h"

static bool has(const sl_k8s_reqset *s, sl_k8s_str v)
{
	for (size_t i = 0; i < s->n; i++)
		if (sl_k8s_str_eq(s->v[i], v))
			return true;
	return false;
}

static void add(sl_k8s_reqset *s, sl_k8s_str v)
{
	if (has(s, v))
		return;
	if (s->n == SL_K8S_REQSET_MAX) {
		s->overflow = true;
		return;
	}
	s->v[s->n++] = v;
}

/* withinIntPtrs: a value passes bounds only as an integer strictly between them. */
static bool within(const sl_k8s_reqset *s, sl_k8s_str v)
{
	if (!s->has_gt && !s->has_lt)
		return true;
	int64_t x;
	if (!sl_k8s_parse_int64(v.s, v.n, &x))
		return false;
	return (!s->has_gt || x > s->gt) && (!s->has_lt || x < s->lt);
}

sl_k8s_str sl_k8s_reqset_normalized_key(sl_k8s_str key)
{
	static const char *const aliases[][2] = {
		{"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"},
		{"failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region"},
		{"beta.kubernetes.io/arch", "kubernetes.io/arch"},
		{"beta.kubernetes.io/os", "kubernetes.io/os"},
		{"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type"},
		/* karpenter-provider-aws adds the EBS CSI driver's zone key (its operator's init) */
		{"topology.ebs.csi.aws.com/zone", "topology.kubernetes.io/zone"},
	};
	for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
		if (sl_k8s_str_is(key, aliases[i][0]))
			return sl_k8s_cstr(aliases[i][1]);
	return key;
}

void sl_k8s_reqset_from(const sl_requirement *r, sl_k8s_reqset *out)
{
	memset(out, 0, sizeof *out - sizeof out->v);
	int64_t bound = 0;
	if (sl_k8s_str_is(r->op, "In") || sl_k8s_str_is(r->op, "NotIn")) {
		out->complement = sl_k8s_str_is(r->op, "NotIn");
		for (size_t i = 0; i < r->n_values; i++)
			add(out, r->values[i]);
		if (out->overflow && !out->complement)   /* too many to keep: allow anything */
			*out = (sl_k8s_reqset){.complement = true, .overflow = true};
		else if (out->overflow)
			out->n = 0;
	} else if (sl_k8s_str_is(r->op, "DoesNotExist")) {
		out->complement = false;
	} else if (sl_k8s_str_is(r->op, "Gt") || sl_k8s_str_is(r->op, "Lt")) {
		out->complement = true;
		if (r->n_values > 0)
			(void)sl_k8s_parse_int64(r->values[0].s, r->values[0].n, &bound);
		if (sl_k8s_str_is(r->op, "Gt")) {
			out->has_gt = true;
			out->gt = bound;
		} else {
			out->has_lt = true;
			out->lt = bound;
		}
	} else {
		out->complement = true;   /* Exists */
	}
}

void sl_k8s_reqset_intersect(const sl_k8s_reqset *a, const sl_k8s_reqset *b, sl_k8s_reqset *out)
{
	memset(out, 0, sizeof *out - sizeof out->v);
	out->has_gt = a->has_gt || b->has_gt;
	out->gt = a->has_gt && b->has_gt ? (a->gt > b->gt ? a->gt : b->gt) : a->has_gt ? a->gt : b->gt;
	out->has_lt = a->has_lt || b->has_lt;
	out->lt = a->has_lt && b->has_lt ? (a->lt < b->lt ? a->lt : b->lt) : a->has_lt ? a->lt : b->lt;
	if (out->has_gt && out->has_lt && out->gt >= out->lt) {
		*out = (sl_k8s_reqset){0};   /* DoesNotExist */
		return;
	}
	/* an overflowing set stands for "anything": the other one decides */
	if (a->overflow || b->overflow) {
		const sl_k8s_reqset *o = a->overflow ? b : a;
		bool gt = out->has_gt, lt = out->has_lt;
		int64_t g = out->gt, l = out->lt;
		memcpy(out, o, sizeof *out);
		out->has_gt = gt, out->has_lt = lt, out->gt = g, out->lt = l;
		out->overflow = a->overflow && b->overflow;
	} else if (a->complement && b->complement) {
		out->complement = true;
		for (size_t i = 0; i < a->n; i++)
			add(out, a->v[i]);
		for (size_t i = 0; i < b->n; i++)
			add(out, b->v[i]);
	} else {
		const sl_k8s_reqset *con = a->complement ? b : a, *other = a->complement ? a : b;
		for (size_t i = 0; i < con->n; i++) {
			bool keep = other->complement ? !has(other, con->v[i]) : has(other, con->v[i]);
			if (keep)
				add(out, con->v[i]);
		}
	}
	/* values outside the bounds go */
	size_t w = 0;
	for (size_t i = 0; i < out->n; i++)
		if (within(out, out->v[i]))
			out->v[w++] = out->v[i];
	out->n = w;
	if (!out->complement)
		out->has_gt = out->has_lt = false;
}

bool sl_k8s_reqset_empty(const sl_k8s_reqset *s)
{
	return !s->complement && !s->overflow && s->n == 0;
}

bool sl_k8s_reqset_has(const sl_k8s_reqset *s, const char *v)
{
	sl_k8s_str x = sl_k8s_cstr(v);
	if (s->overflow)
		return true;
	if (s->complement)
		return !has(s, x) && within(s, x);
	return has(s, x);
}

const char *sl_k8s_reqset_operator(const sl_k8s_reqset *s)
{
	if (s->complement)
		return s->n > 0 ? "NotIn" : "Exists";
	return s->n > 0 ? "In" : "DoesNotExist";
}

static bool negative(const sl_k8s_reqset *s)
{
	const char *op = sl_k8s_reqset_operator(s);
	return strcmp(op, "NotIn") == 0 || strcmp(op, "DoesNotExist") == 0;
}

bool sl_k8s_reqset_intersects(const sl_k8s_reqset *existing, const sl_k8s_reqset *incoming)
{
	sl_k8s_reqset both;
	sl_k8s_reqset_intersect(existing, incoming, &both);
	if (!sl_k8s_reqset_empty(&both))
		return true;
	return negative(incoming) && negative(existing);
}

size_t sl_k8s_reqset_format(const sl_k8s_reqset *s, sl_k8s_str key, char *buf, size_t bufsz)
{
	const char *op = sl_k8s_reqset_operator(s);
	size_t len = 0;
	char tmp[64];
#define PUT(...) do { int k_ = snprintf(buf ? buf + (len < bufsz ? len : bufsz) : NULL, \
		len < bufsz ? bufsz - len : 0, __VA_ARGS__); if (k_ > 0) len += (size_t)k_; } while (0)
	PUT("%.*s %s", (int)key.n, key.s ? key.s : "", op);
	if (s->n > 0) {
		PUT(" [");
		for (size_t i = 0; i < s->n && i < 5; i++)
			PUT("%s%.*s", i ? " " : "", (int)s->v[i].n, s->v[i].s);
		if (s->n > 5) {
			snprintf(tmp, sizeof tmp, " and %zu others", s->n - 5);
			PUT("%s", tmp);
		}
		PUT("]");
	}
	if (s->has_gt)
		PUT(" >%lld", (long long)s->gt);
	if (s->has_lt)
		PUT(" <%lld", (long long)s->lt);
#undef PUT
	return len;
}
