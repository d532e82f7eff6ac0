/* SPDX-License-Identifier: Apache-2.0
** resources.h: resource-name classification and container resource validation as the API
** server does it (pkg/apis/core/helper and validation.go validateContainerResourceName,
** ValidateResourceQuantityValue, validateResourceRequirements). Pure and thread-safe. */
#ifndef SL_K8S_RESOURCES_H
#define SL_K8S_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include "k8s/quantity.h"

/* IsNativeResource: no '/' in the name, or it contains "kubernetes.io/" anywhere. */
bool sl_k8s_is_native_resource(const char *s, size_t n);
/* IsHugePageResourceName: starts with "hugepages-". */
bool sl_k8s_is_hugepages_resource(const char *s, size_t n);
/* IsExtendedResourceName: not native, not starting "requests.", and "requests." + name is a
** qualified name (so "nvidia.com/gpu" yes, "cpu" and "kubernetes.io/x" no). */
bool sl_k8s_is_extended_resource(const char *s, size_t n);
/* IsOvercommitAllowed: native and not hugepages (requests may differ from limits). */
bool sl_k8s_is_overcommit_allowed(const char *s, size_t n);
/* IsStandardContainerResourceName: cpu, memory, ephemeral-storage, or hugepages-*. */
bool sl_k8s_is_standard_container_resource(const char *s, size_t n);
/* IsStandardResourceName: the quota-known names (cpu, requests.cpu, pods, storage, ...) or
** hugepages-* / requests.hugepages-*. */
bool sl_k8s_is_standard_resource(const char *s, size_t n);
/* IsIntegerResourceName: pods, services, ... (object counts) or an extended resource. */
bool sl_k8s_is_integer_resource(const char *s, size_t n);

/* validateContainerResourceName: the name as a qualified name, then "must be a standard resource
** type or fully qualified" / "must be a standard resource for containers" (no '/') or "doesn't
** follow extended resource name standard" (non-native with '/'). Returns the problem count and
** writes the messages, joined with "; ", into msg (snprintf-style truncation). */
int sl_k8s_check_container_resource_name(const char *s, size_t n, char *msg, size_t msgsz);

/* ValidateResourceQuantityValue for resource name s: "must be greater than or equal to 0" for a
** negative q, and "must be an integer" when the resource is an integer resource and
** MilliValue()%1000 != 0. Same return contract. */
int sl_k8s_check_resource_quantity(const char *s, size_t n, const sl_quantity *q, char *msg,
				   size_t msgsz);

/* The request/limit rule of validateResourceRequirements for one resource with both set:
** non-overcommitable resources need request == limit ("must be equal to <name> limit of
** <limit>"), others request <= limit ("must be less than or equal to <name> limit of <limit>").
** limit_text is the limit as written (used for <limit>, canonical form when NULL). Returns the
** problem count (0 or 1). */
int sl_k8s_check_request_limit(const char *s, size_t n, const sl_quantity *request,
			       const sl_quantity *limit, const char *limit_text, size_t limit_n,
			       char *msg, size_t msgsz);

#endif
