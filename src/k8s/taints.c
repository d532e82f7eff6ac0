/* SPDX-License-Identifier: Apache-2.0
** taints.c: toleration matching (kubernetes/api core/v1 toleration.go), toleration validation
** (pkg/apis/core/validation ValidateTolerations and validateTaintEffect) and kubectl's taint
** parser (pkg/cmd/taint parseTaint plus ParseTaints' "an added taint needs an effect"). */
#include "k8s/taints.h"
#include "k8s/labels.h"
#include "k8s/text.h"

#include <string.h>
#include <strings.h>

static const char *const effects[] = { "NoSchedule", "PreferNoSchedule", "NoExecute" };

bool sl_k8s_taint_effect_is_valid(const char *s, size_t n)
{
	sl_k8s_str v = { s, n };
	for (size_t i = 0; i < 3; i++)
		if (sl_k8s_str_is(v, effects[i]))
			return true;
	return false;
}

bool sl_k8s_toleration_tolerates(const sl_toleration *t, const sl_taint *taint, bool comparison_ops)
{
	int64_t tv, nv;
	if (t->effect.n > 0 && !sl_k8s_str_eq(t->effect, taint->effect))
		return false;
	if (t->key.n > 0 && !sl_k8s_str_eq(t->key, taint->key))
		return false;
	if (t->op.n == 0 || sl_k8s_str_is(t->op, "Equal"))
		return sl_k8s_str_eq(t->value, taint->value);
	if (sl_k8s_str_is(t->op, "Exists"))
		return true;
	if (sl_k8s_str_is(t->op, "Lt") || sl_k8s_str_is(t->op, "Gt")) {
		if (!comparison_ops)
			return false;
		if (!sl_k8s_parse_canonical_int64(t->value.s, t->value.n, &tv) ||
		    !sl_k8s_parse_canonical_int64(taint->value.s, taint->value.n, &nv))
			return false;
		return sl_k8s_str_is(t->op, "Lt") ? nv < tv : nv > tv;
	}
	return false;
}

/* Appends problem with a message "<kind>: <quoted bad value>: <detail>". */
static void add(sl_k8s_problem *out, size_t max, size_t *count, sl_k8s_field field,
		sl_k8s_field api_field, const char *kind, sl_k8s_str bad, const char *detail)
{
	if (*count < max) {
		sl_k8s__buf b = sl_k8s__problem(&out[*count], field, api_field);
		sl_k8s__buf_add(&b, kind);
		sl_k8s__buf_add(&b, ": ");
		sl_k8s__buf_quote(&b, bad.s, bad.n);
		sl_k8s__buf_add(&b, ": ");
		sl_k8s__buf_add(&b, detail);
	}
	(*count)++;
}

/* Splits msgs joined with "; " and reports each as its own Invalid problem. */
static void add_each(sl_k8s_problem *out, size_t max, size_t *count, sl_k8s_field field,
		     sl_k8s_field api_field, sl_k8s_str bad, const char *joined)
{
	char one[SL_K8S_MSG_MAX];
	for (const char *p = joined; p && *p;) {
		p = sl_k8s__next_message(p, one, sizeof one);
		add(out, max, count, field, api_field, "Invalid value", bad, one);
	}
}

size_t sl_k8s_toleration_validate(const sl_toleration *t, bool comparison_ops, sl_k8s_problem *out,
			      size_t max)
{
	size_t count = 0;
	char msg[2048];
	bool is_exists = sl_k8s_str_is(t->op, "Exists");
	bool is_equal = t->op.n == 0 || sl_k8s_str_is(t->op, "Equal");
	bool is_cmp = comparison_ops && (sl_k8s_str_is(t->op, "Lt") || sl_k8s_str_is(t->op, "Gt"));
	if (!out)
		max = 0;
	if (t->key.n > 0 && sl_k8s_check_qualified_name(t->key.s, t->key.n, msg, sizeof msg) != 0)
		add_each(out, max, &count, SL_K8S_F_KEY, SL_K8S_F_KEY, t->key, msg);
	if (t->key.n == 0 && !is_exists)
		add(out, max, &count, SL_K8S_F_OPERATOR, SL_K8S_F_OPERATOR, "Invalid value", t->op,
		    "operator must be Exists when `key` is empty, which means \"match all values and "
		    "all keys\"");
	if (t->has_seconds && !sl_k8s_str_is(t->effect, "NoExecute"))
		add(out, max, &count, SL_K8S_F_EFFECT, SL_K8S_F_EFFECT, "Invalid value", t->effect,
		    "effect must be 'NoExecute' when `tolerationSeconds` is set");
	if (is_equal) {
		int k = sl_k8s_check_label_value(t->value.s, t->value.n, msg, sizeof msg);
		if (k != 0) {
			/* upstream joins the messages with ";" (no space) on the operator path */
			char joined[2048];
			sl_k8s__buf b;
			const char *p = msg;
			sl_k8s__buf_init(&b, joined, sizeof joined);
			while (*p) {
				const char *e = strstr(p, "; ");
				sl_k8s__buf_addn(&b, p, e ? (size_t)(e - p) : strlen(p));
				if (!e)
					break;
				sl_k8s__buf_add(&b, ";");
				p = e + 2;
			}
			add(out, max, &count, SL_K8S_F_VALUE, SL_K8S_F_OPERATOR, "Invalid value",
			    t->value, joined);
		}
	} else if (is_exists) {
		if (t->value.n > 0)
			add(out, max, &count, SL_K8S_F_VALUE, SL_K8S_F_OPERATOR, "Invalid value",
			    t->value, "value must be empty when `operator` is 'Exists'");
	} else if (is_cmp) {
		if (!sl_k8s_parse_canonical_int64(t->value.s, t->value.n, NULL))
			add(out, max, &count, SL_K8S_F_VALUE, SL_K8S_F_VALUE, "Invalid value",
			    t->value, "value must be a valid decimal integer in canonical form when "
			    "`operator` is 'Lt' or 'Gt'");
	} else {
		add(out, max, &count, SL_K8S_F_OPERATOR, SL_K8S_F_OPERATOR, "Unsupported value",
		    t->op, comparison_ops ?
		    "supported values: \"Equal\", \"Exists\", \"Gt\", \"Lt\"" :
		    "supported values: \"Equal\", \"Exists\"");
	}
	if (t->effect.n > 0 && !sl_k8s_taint_effect_is_valid(t->effect.s, t->effect.n))
		add(out, max, &count, SL_K8S_F_EFFECT, SL_K8S_F_EFFECT, "Unsupported value",
		    t->effect, "supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"");
	return count;
}

/* The entry of list equal to s ignoring case, when s is not already exact; else NULL. */
static const char *case_fix(const char *s, size_t n, const char *const *list, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (n && strlen(list[i]) == n && strncasecmp(list[i], s, n) == 0)
			return memcmp(list[i], s, n) == 0 ? NULL : list[i];
	}
	return NULL;
}

const char *sl_k8s_taint_effect_fix(const char *s, size_t n)
{
	return case_fix(s, n, effects, 3);
}

const char *sl_k8s_toleration_operator_fix(const char *s, size_t n, bool comparison_ops)
{
	static const char *const ops[] = { "Equal", "Exists", "Lt", "Gt" };
	return case_fix(s, n, ops, comparison_ops ? 4 : 2);
}

static bool spec_error(sl_k8s__buf *b, const char *s, size_t n, const char *detail)
{
	sl_k8s__buf_add(b, "invalid taint spec: ");
	sl_k8s__buf_addn(b, s, n);
	if (detail) {
		sl_k8s__buf_add(b, ", ");
		sl_k8s__buf_add(b, detail);
	}
	return false;
}

bool sl_k8s_taint_parse(const char *s, size_t n, sl_taint *out, char *msg, size_t msgsz)
{
	sl_k8s__buf b;
	const char *colon = n ? memchr(s, ':', n) : NULL;
	sl_k8s_str key, value = { s, 0 }, effect = { s, 0 };
	char detail[1024];
	sl_k8s__buf_init(&b, msg, msgsz);
	if (!colon) {
		/* `key` alone (or `key=value`): only valid for removal; adding needs an effect */
		key.s = s;
		key.n = n;
		if (sl_k8s_check_qualified_name(s, n, detail, sizeof detail) != 0)
			return spec_error(&b, s, n, detail);
		return spec_error(&b, s, n, NULL);
	}
	if (memchr(colon + 1, ':', n - (size_t)(colon - s) - 1))
		return spec_error(&b, s, n, NULL);
	effect.s = colon + 1;
	effect.n = n - (size_t)(colon - s) - 1;
	if (!sl_k8s_taint_effect_is_valid(effect.s, effect.n)) {
		sl_k8s__buf_add(&b, "invalid taint effect: ");
		sl_k8s__buf_addn(&b, effect.s, effect.n);
		sl_k8s__buf_add(&b, ", unsupported taint effect");
		return false;
	}
	key.s = s;
	key.n = (size_t)(colon - s);
	{
		const char *eq = key.n ? memchr(key.s, '=', key.n) : NULL;
		if (eq) {
			value.s = eq + 1;
			value.n = key.n - (size_t)(eq - key.s) - 1;
			if (value.n && memchr(value.s, '=', value.n))
				return spec_error(&b, s, n, NULL);
			key.n = (size_t)(eq - key.s);
			if (sl_k8s_check_label_value(value.s, value.n, detail, sizeof detail) != 0)
				return spec_error(&b, s, n, detail);
		}
	}
	if (sl_k8s_check_qualified_name(key.s, key.n, detail, sizeof detail) != 0)
		return spec_error(&b, s, n, detail);
	out->key = key;
	out->value = value;
	out->effect = effect;
	return true;
}

size_t sl_k8s_taint_format(const sl_taint *t, char *buf, size_t bufsz)
{
	sl_k8s__buf b;
	sl_k8s__buf_init(&b, buf, bufsz);
	sl_k8s__buf_addn(&b, t->key.s ? t->key.s : "", t->key.n);
	if (t->value.n > 0 || t->effect.n == 0) {
		if (t->value.n > 0) {
			sl_k8s__buf_add(&b, "=");
			sl_k8s__buf_addn(&b, t->value.s, t->value.n);
			sl_k8s__buf_add(&b, ":");
		}
	} else {
		sl_k8s__buf_add(&b, ":");
	}
	if (t->effect.n > 0)
		sl_k8s__buf_addn(&b, t->effect.s, t->effect.n);
	return b.len;
}
