/* SPDX-License-Identifier: Apache-2.0
** labels.h: Kubernetes name syntax as apimachinery checks it: qualified names (label keys),
** label values, DNS-1123 labels and subdomains, and the two integer syntaxes the scheduler
** uses. Messages are apimachinery's own, joined with "; " when there are several.
** The patterns are matched by a hand-written scanner (linear, no state): every function is
** thread-safe. */
#ifndef SL_K8S_LABELS_H
#define SL_K8S_LABELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SL_K8S_LABEL_NAME_MAX 63     /* name part of a key, and a label value */
#define SL_K8S_DNS1123_LABEL_MAX 63
#define SL_K8S_DNS1123_SUBDOMAIN_MAX 253

/* Checks s[0..n) as a qualified name / label key, `[prefix/]name` (IsQualifiedName ==
** content.IsLabelKey). Returns the number of problems (0 = valid) and writes them, joined with
** "; ", into msg (NUL-terminated, truncated to msgsz; msg may be NULL when msgsz is 0).
** Wording is the current apimachinery's: "name part must be no more than 63 bytes" ("bytes"
** since Kubernetes 1.35; older servers said "characters"). */
int sl_k8s_check_qualified_name(const char *s, size_t n, char *msg, size_t msgsz);

/* Checks s[0..n) as a label value (content.IsLabelValue; empty is valid). Same contract as
** sl_k8s_check_qualified_name ("must be no more than 63 bytes"). */
int sl_k8s_check_label_value(const char *s, size_t n, char *msg, size_t msgsz);

/* Checks s[0..n) as a DNS-1123 label (util/validation.IsDNS1123Label: "must be no more than 63
** characters", "must not contain dots", or the regex message). Same return contract. */
int sl_k8s_check_dns1123_label(const char *s, size_t n, char *msg, size_t msgsz);

/* Checks s[0..n) as a DNS-1123 subdomain (util/validation.IsDNS1123Subdomain: "must be no more
** than 253 characters" and/or the regex message). Same return contract. */
int sl_k8s_check_dns1123_subdomain(const char *s, size_t n, char *msg, size_t msgsz);

/* Convenience predicates: true when the matching check above finds no problem. */
bool sl_k8s_is_qualified_name(const char *s, size_t n);
bool sl_k8s_is_label_value(const char *s, size_t n);

/* Go's strconv.ParseInt(s, 10, 64): optional '+'/'-', then at least one decimal digit (leading
** zeros allowed), nothing else, within int64. Writes *out (may be NULL) on success. */
bool sl_k8s_parse_int64(const char *s, size_t n, int64_t *out);

/* apimachinery's content.IsDecimalInteger plus ParseInt: a canonical decimal int64 ("0", "-5",
** "12"; not "", "-", "+1", "01", "-0", "1.0"), as toleration Lt/Gt require. Writes *out. */
bool sl_k8s_parse_canonical_int64(const char *s, size_t n, int64_t *out);

#endif
