/* SPDX-License-Identifier: Apache-2.0
** finding.h: severities and the read-only view of one finding.
** Findings are owned by the sl_run that produced them and live until sl_run_free(). */
#ifndef SCHEDLINT_FINDING_H
#define SCHEDLINT_FINDING_H

#include <stddef.h>
#include <stdint.h>
#include "schedlint/export.h"

/* Ordered: a larger value is more severe. SL_SEV_OFF disables a rule. */
typedef enum sl_severity {
	SL_SEV_OFF = 0,
	SL_SEV_INFO,
	SL_SEV_WARNING,
	SL_SEV_ERROR
} sl_severity;

/* "error", "warning", "info", "off". */
SL_API const char *sl_severity_name(sl_severity sev);
/* Parses a severity name; returns -1 when name is not one. */
SL_API int sl_severity_parse(const char *name);

typedef enum sl_fix_applicability {
	SL_FIX_NONE = 0,   /* the rule never edits */
	SL_FIX_SAFE,       /* applied by --fix and fmt */
	SL_FIX_UNSAFE      /* applied only with --unsafe-fixes */
} sl_fix_applicability;

/* One byte-range replacement: bytes [offset, offset+length) of path become content.
** Positions are those of the replaced range in the original text (1-based, code points). */
typedef struct sl_edit {
	const char *path;
	size_t offset, length;
	const char *content;
	uint32_t line, column, end_line, end_column;
} sl_edit;

typedef struct sl_fix {
	sl_fix_applicability applicability;
	const char *message;      /* what the fix does ("add limits.nvidia.com/gpu: 1") */
	const sl_edit *edits;
	size_t n_edits;
} sl_fix;

/* A finding. Every string is NUL-terminated UTF-8; optional ones are NULL when absent.
** Lines and columns are 1-based; columns count Unicode code points. */
typedef struct sl_finding {
	const char *rule;          /* rule id, "gpu-request-without-limit" */
	sl_severity severity;      /* after config overrides */
	const char *message;       /* the first line: what is wrong, where (at most ~160 characters) */
	const char *notes;         /* the why, the upstream error text, the way out: paragraphs
				      separated by '\n'; NULL when none */
	const char *path;          /* as given on the command line, or the stdin filename */
	uint32_t line, column, end_line, end_column;
	size_t offset, length;     /* byte range of the offending node in the file */
	const char *pointer;       /* RFC 6901 pointer inside the document ("" = the root) */
	int document;              /* 0-based document index, -1 for the whole file */
	const char *api_version, *kind, *namespace_, *name;   /* the object, NULL when none */
	const char *unit;          /* "predictor", "spec.template", NULL when not about a unit */
	const sl_fix *fix;         /* NULL when the finding has no fix */
} sl_finding;

#endif
