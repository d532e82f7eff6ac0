/* SPDX-License-Identifier: Apache-2.0
** json.c: the JSON report (spec/cli.md, docs/json-output.md), written with jansson so escaping
** is never done by hand; every string from a manifest or a file name goes through sl_escape_json
** (escape.h), so a name that is not UTF-8 cannot truncate the report. Keys keep a fixed order
** for stable diffs. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

static json_t *str_or_null(const char *s)
{
	return sl_escape_json(s);
}

/* The notes, one array item per paragraph ('\n'-separated); [] when there are none. */
static json_t *notes_json(const char *notes)
{
	json_t *a = json_array();
	for (const char *p = notes; a && p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *para = len ? strndup(p, len) : NULL;
		if (para)
			json_array_append_new(a, sl_escape_json(para));
		free(para);
		p += len + (nl != NULL);
	}
	return a;
}

static json_t *edit_json(const sl_edit *e)
{
	return json_pack("{s:o, s:I, s:I, s:o, s:I, s:I, s:I, s:I}",
			 "path", sl_escape_json(e->path), "offset", (json_int_t)e->offset, "length", (json_int_t)e->length,
			 "content", sl_escape_json(e->content), "line", (json_int_t)e->line, "column", (json_int_t)e->column,
			 "end_line", (json_int_t)e->end_line, "end_column", (json_int_t)e->end_column);
}

/* Where f is: its path, span, pointer and document. */
static void put_place(json_t *o, const sl_finding *f)
{
	json_object_set_new(o, "path", sl_escape_json(f->path));
	json_object_set_new(o, "line", json_integer(f->line));
	json_object_set_new(o, "column", json_integer(f->column));
	json_object_set_new(o, "end_line", json_integer(f->end_line));
	json_object_set_new(o, "end_column", json_integer(f->end_column));
	json_object_set_new(o, "pointer", sl_escape_json(f->pointer));
	json_object_set_new(o, "document", json_integer(f->document));
}

static json_t *finding_json(const sl_finding *f)
{
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "rule", json_string(f->rule));
	json_object_set_new(o, "severity", json_string(sl_severity_name(f->severity)));
	json_object_set_new(o, "message", sl_escape_json(f->message));
	json_object_set_new(o, "notes", notes_json(f->notes));
	put_place(o, f);
	if (f->kind) {
		json_object_set_new(o, "object", json_pack("{s:o, s:o, s:o, s:o}",
			"apiVersion", str_or_null(f->api_version), "kind", str_or_null(f->kind),
			"namespace", str_or_null(f->namespace_), "name", str_or_null(f->name)));
	} else {
		json_object_set_new(o, "object", json_null());
	}
	json_object_set_new(o, "unit", str_or_null(f->unit));
	if (f->fix) {
		json_t *edits = json_array();
		for (size_t i = 0; i < f->fix->n_edits; i++)
			json_array_append_new(edits, edit_json(&f->fix->edits[i]));
		json_object_set_new(o, "fix", json_pack("{s:s, s:o, s:o}", "applicability",
			f->fix->applicability == SL_FIX_UNSAFE ? "unsafe" : "safe",
			"message", str_or_null(f->fix->message), "edits", edits));
	} else {
		json_object_set_new(o, "fix", json_null());
	}
	return o;
}

static json_t *finding_item(void *run, size_t i)
{
	return finding_json(((const sl_output_run *)run)->findings[i]);
}

/* A notice: a finding's place and words, without what a notice never has (a severity, an
** object, a unit, a fix). */
static json_t *notice_item(void *run, size_t i)
{
	const sl_finding *f = ((const sl_output_run *)run)->notices[i];
	json_t *o = json_object();
	if (!o)
		return NULL;
	json_object_set_new(o, "rule", json_string(f->rule));
	json_object_set_new(o, "message", sl_escape_json(f->message));
	json_object_set_new(o, "notes", notes_json(f->notes));
	put_place(o, f);
	return o;
}

static json_t *file_item(void *run, size_t i)
{
	sl_file_info fi = ((const sl_output_run *)run)->files[i];
	return json_pack("{s:o, s:I, s:o}", "path", sl_escape_json(fi.path), "documents", (json_int_t)fi.documents,
			 "error", str_or_null(fi.error));
}

sl_err sl_json_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	sl_summary s;
	sl_summary_count(run, &s);
	/* findings, notices and files are written one by one (stream.c) */
	json_t *root = json_pack("{s:i, s:{s:s, s:s}, s:[], s:[], s:[], "
				 "s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I}}",
		"version", 1, "tool", "name", "schedlint", "version", sl_version(),
		"findings", "notices", "files", "summary",
		"files", (json_int_t)s.files, "documents", (json_int_t)s.documents,
		"errors", (json_int_t)s.errors, "warnings", (json_int_t)s.warnings,
		"infos", (json_int_t)s.infos, "fixable", (json_int_t)s.fixable,
		"notices", (json_int_t)run->n_notices);
	const sl_json_array arrays[] = {
		{"findings", run->n_findings, finding_item, (void *)run},
		{"notices", run->n_notices, notice_item, (void *)run},
		{"files", run->n_files, file_item, (void *)run},
	};
	return sl_stream_write_json(out, root, arrays, 3);
}
