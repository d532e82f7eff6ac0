/* SPDX-License-Identifier: Apache-2.0
** rules.h: the rule catalogue as the library ships it (for `schedlint rules` and `explain`). */
#ifndef SCHEDLINT_RULES_H
#define SCHEDLINT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/error.h"
#include "schedlint/finding.h"

/* Filled by the library for the version the caller says (schedlint/lint.h, sl_file_info). */
#define SL_RULE_INFO_VERSION 1
#define SL_RULE_INFO_INIT {.version = SL_RULE_INFO_VERSION}
typedef struct sl_rule_info {
	unsigned version;            /* SL_RULE_INFO_VERSION, set by the caller */
	const char *id;              /* "gpu-request-without-limit" */
	const char *category;        /* "gpu" */
	const char *summary;         /* one line */
	const char *doc;             /* Markdown: What it does, Why is this bad?, Example, ... */
	sl_severity severity;        /* default severity */
	bool enabled_by_default;
	sl_fix_applicability fix;
} sl_rule_info;

/* The number of rules. */
SL_API size_t sl_rule_count(void);
/* Fills *out (started from SL_RULE_INFO_INIT) with rule i (sorted by id); SL_ENOTFOUND when i
** is out of range; SL_EUSAGE for a version this library does not know. Strings are static. */
SL_API sl_err sl_rule_get(size_t i, sl_rule_info *out);
/* Whether rule i reports notices rather than findings, and what a group of n of them is called.
** A notice says what schedlint did not lint and why (a Helm chart, a kustomization it does not
** build, a templated file: lint.h's sl_run_notice), nothing to change in the manifest. The words
** (static): "Helm chart not linted" for n == 1, else "Helm charts not linted". NULL for a rule
** that reports findings, and for i out of range. */
SL_API const char *sl_rule_notice(size_t i, size_t n);
/* The index of the rule with this id, or -1. */
SL_API int sl_rule_find(const char *id);
/* The id of the rule word is a misspelling of ("gpu-reqest-without-limit"), or NULL: for "did
** you mean". */
SL_API const char *sl_rule_closest(const char *word);
/* The one of candidates[0..n) that word is a misspelling of (a few edits away, case ignored),
** or NULL: every "did you mean" of the library and the command line goes through it. */
SL_API const char *sl_spelling_closest(const char *word, const char *const *candidates, size_t n);

#endif
