/* SPDX-License-Identifier: Apache-2.0
** instance_type.c: the accelerators per instance type (instance_type.h), read from the rows
** docs/instance-types.md cites, which the build turns into instance_types.inc. */
#include <string.h>
#include "k8s/instance_type.h"

static const sl_k8s_instance_type table[] = {
#include "instance_types.inc"
};

static const char *const no_accel_families[] = {SL_INSTANCE_TYPES_NO_ACCEL_FAMILIES};

static bool is(const char *s, const char *p, size_t n)
{
	return strlen(s) == n && memcmp(s, p, n) == 0;
}

/* An AWS type's family: what comes before the dot ("g5" of "g5.xlarge"), or the whole name. */
static size_t family_len(const char *name, size_t n)
{
	const char *dot = memchr(name, '.', n);
	return dot ? (size_t)(dot - name) : n;
}

static bool no_accel(const char *family, size_t n)
{
	for (size_t i = 0; i < sizeof no_accel_families / sizeof *no_accel_families; i++)
		if (is(no_accel_families[i], family, n))
			return true;
	return false;
}

sl_k8s_accel sl_k8s_instance_type_lookup(const char *name, size_t n, const sl_k8s_instance_type **t)
{
	*t = NULL;
	for (size_t i = 0; name && i < sizeof table / sizeof *table; i++)
		if (is(table[i].name, name, n)) {
			*t = &table[i];
			return SL_K8S_ACCEL_SOME;
		}
	if (name && memchr(name, '.', n) && no_accel(name, family_len(name, n)))
		return SL_K8S_ACCEL_NONE;
	return SL_K8S_ACCEL_UNKNOWN;
}

sl_k8s_accel sl_k8s_instance_type_family(const char *family, size_t n, int *min, int *max,
					 const char **resource)
{
	*min = *max = 0;
	*resource = NULL;
	bool any = false;
	for (size_t i = 0; family && i < sizeof table / sizeof *table; i++) {
		const sl_k8s_instance_type *t = &table[i];
		if (strcmp(t->provider, "aws") != 0 || family_len(t->name, strlen(t->name)) != n ||
		    memcmp(t->name, family, n) != 0)
			continue;
		*resource = t->resource;
		if (t->count < 0 || *max < 0)
			*min = *max = -1;
		else if (!any)
			*min = *max = t->count;
		else {
			*min = t->count < *min ? t->count : *min;
			*max = t->count > *max ? t->count : *max;
		}
		any = true;
	}
	if (any)
		return SL_K8S_ACCEL_SOME;
	return family && no_accel(family, n) ? SL_K8S_ACCEL_NONE : SL_K8S_ACCEL_UNKNOWN;
}
