/* SPDX-License-Identifier: Apache-2.0
** resources.c: resource names (native, extended, hugepages, standard) and the quantity rules of
** container resource validation, ported from kubernetes pkg/apis/core/helper/helpers.go and
** pkg/apis/core/validation/validation.go. */
#include "k8s/resources.h"
#include "k8s/labels.h"
#include "k8s/text.h"

#include <string.h>

static bool has_prefix(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	return n >= k && (k == 0 || memcmp(s, p, k) == 0);
}

static bool contains(const char *s, size_t n, const char *p)
{
	size_t k = strlen(p);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, p, k) == 0)
			return true;
	return false;
}

static bool in_list(const char *s, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && (n == 0 || memcmp(*list, s, n) == 0))
			return true;
	return false;
}

bool sl_k8s_is_native_resource(const char *s, size_t n)
{
	return !(n && memchr(s, '/', n)) || contains(s, n, "kubernetes.io/");
}

bool sl_k8s_is_hugepages_resource(const char *s, size_t n)
{
	return has_prefix(s, n, "hugepages-");
}

bool sl_k8s_is_extended_resource(const char *s, size_t n)
{
	char buf[512];
	if (sl_k8s_is_native_resource(s, n) || has_prefix(s, n, "requests."))
		return false;
	if (n > sizeof buf - 9) {
		/* longer than any qualified name can be (253 + 1 + 63) */
		return false;
	}
	memcpy(buf, "requests.", 9);
	if (n)   /* an empty view may have a NULL pointer */
		memcpy(buf + 9, s, n);
	return sl_k8s_is_qualified_name(buf, n + 9);
}

bool sl_k8s_is_overcommit_allowed(const char *s, size_t n)
{
	return sl_k8s_is_native_resource(s, n) && !sl_k8s_is_hugepages_resource(s, n);
}

bool sl_k8s_is_standard_container_resource(const char *s, size_t n)
{
	static const char *const std[] = { "cpu", "memory", "ephemeral-storage", NULL };
	return in_list(s, n, std) || sl_k8s_is_hugepages_resource(s, n);
}

bool sl_k8s_is_standard_resource(const char *s, size_t n)
{
	static const char *const std[] = {
		"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory",
		"limits.ephemeral-storage", "pods", "resourcequotas", "services",
		"replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims",
		"storage", "requests.storage", "services.nodeports", "services.loadbalancers", NULL
	};
	return in_list(s, n, std) || has_prefix(s, n, "hugepages-") ||
	       has_prefix(s, n, "requests.hugepages-");
}

bool sl_k8s_is_integer_resource(const char *s, size_t n)
{
	static const char *const ints[] = {
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
		"configmaps", "persistentvolumeclaims", "services.nodeports",
		"services.loadbalancers", NULL
	};
	return in_list(s, n, ints) || sl_k8s_is_extended_resource(s, n);
}

int sl_k8s_check_container_resource_name(const char *s, size_t n, char *msg, size_t msgsz)
{
	sl_k8s__buf b;
	char names[2048];
	int k = sl_k8s_check_qualified_name(s, n, names, sizeof names);
	bool slash = n && memchr(s, '/', n);
	sl_k8s__buf_init(&b, msg, msgsz);
	sl_k8s__buf_add(&b, names);
	if (k < 0)
		return k;
	/* validateResourceName stops after name errors; validateContainerResourceName goes on */
	if (!slash && k == 0 && !sl_k8s_is_standard_resource(s, n)) {
		sl_k8s__buf_add(&b, "must be a standard resource type or fully qualified");
		k++;
	}
	if (!slash) {
		if (!sl_k8s_is_standard_container_resource(s, n)) {
			if (k++ > 0)
				sl_k8s__buf_add(&b, "; ");
			sl_k8s__buf_add(&b, "must be a standard resource for containers");
		}
	} else if (!sl_k8s_is_native_resource(s, n) && !sl_k8s_is_extended_resource(s, n)) {
		if (k++ > 0)
			sl_k8s__buf_add(&b, "; ");
		sl_k8s__buf_add(&b, "doesn't follow extended resource name standard");
	}
	return k;
}

int sl_k8s_check_resource_quantity(const char *s, size_t n, const sl_quantity *q, char *msg,
				   size_t msgsz)
{
	sl_k8s__buf b;
	int k = 0;
	sl_k8s__buf_init(&b, msg, msgsz);
	if (sl_quantity_is_negative(q)) {
		sl_k8s__buf_add(&b, "must be greater than or equal to 0");
		k++;
	}
	/* the name's test (a qualified-name check for an extended resource) only for a fraction */
	if (!sl_quantity_is_integer(q) && sl_k8s_is_integer_resource(s, n)) {
		if (k++ > 0)
			sl_k8s__buf_add(&b, "; ");
		sl_k8s__buf_add(&b, "must be an integer");
	}
	return k;
}

int sl_k8s_check_request_limit(const char *s, size_t n, const sl_quantity *request,
			       const sl_quantity *limit, const char *limit_text, size_t limit_n,
			       char *msg, size_t msgsz)
{
	sl_k8s__buf b;
	char canon[SL_QUANTITY_MAX_DIGITS + 48];
	int c = sl_quantity_cmp(request, limit);
	bool over = sl_k8s_is_overcommit_allowed(s, n);
	sl_k8s__buf_init(&b, msg, msgsz);
	if ((over && c <= 0) || (!over && c == 0))
		return 0;
	sl_k8s__buf_add(&b, over ? "must be less than or equal to " : "must be equal to ");
	sl_k8s__buf_addn(&b, s, n);
	sl_k8s__buf_add(&b, " limit of ");
	if (limit_text) {
		sl_k8s__buf_addn(&b, limit_text, limit_n);
	} else {
		sl_quantity_canonical(limit, canon, sizeof canon);
		sl_k8s__buf_add(&b, canon);
	}
	return 1;
}
