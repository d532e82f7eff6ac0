/* SPDX-License-Identifier: Apache-2.0
** run_file.c: what a caller reads back of a linted run's files (lint.h): each file's text as
** read and as fixed, its write over the file and its diff (driver/fixer.c does both), its
** path, documents, read error and fixes. Only the files a caller sees (run->shown): never the
** project's context files, nor a Kustomize build's text. */
#include <string.h>
#include "schedlint/lint.h"
#include "driver/fixer.h"
#include "driver/run.h"

/* File i of the run, or NULL when there is none: every indexed accessor checks its index. */
static sl_file *file_at(const sl_run *run, size_t i)
{
	return i < run->n_shown ? run->passes.eng.files[run->shown[i]] : NULL;
}

void sl_run_file_text(const sl_run *run, size_t i, const char **data, size_t *len, bool *changed)
{
	const sl_file *f = file_at(run, i);
	if (!f) {
		*data = "";
		*len = 0;
		if (changed)
			*changed = false;
		return;
	}
	*data = f->src ? f->src->data : "";
	*len = f->src ? f->src->len : 0;
	if (changed)
		*changed = sl_fixer_changed(f);
}

void sl_run_file_original(const sl_run *run, size_t i, const char **data, size_t *len)
{
	const sl_file *f = file_at(run, i);
	const sl_source *s = !f ? NULL : f->orig ? f->orig : f->src;
	*data = s ? s->data : "";
	*len = s ? s->len : 0;
}

sl_err sl_run_file_write(const sl_run *run, size_t i)
{
	sl_file *f = file_at(run, i);
	return f ? sl_fixer_write(f) : SL_EUSAGE;
}

const char *sl_run_file_write_error(const sl_run *run, size_t i)
{
	const sl_file *f = file_at(run, i);
	return f ? f->write_error : NULL;
}

sl_err sl_run_file_diff(const sl_run *run, size_t i, FILE *out)
{
	const sl_file *f = file_at(run, i);
	return f ? sl_fixer_diff(f, out) : SL_EUSAGE;
}

size_t sl_run_file_count(const sl_run *run)
{
	return run->n_shown;
}

sl_err sl_run_file(const sl_run *run, size_t i, sl_file_info *out)
{
	if (out->version < 1 || out->version > SL_FILE_INFO_VERSION)
		return SL_EUSAGE;   /* not started from SL_FILE_INFO_INIT, or a newer header's */
	const sl_file *f = file_at(run, i);
	if (!f) {
		*out = (sl_file_info){.version = out->version};
		return SL_EUSAGE;
	}
	out->path = f->path;
	out->documents = f->documents;
	out->error = f->error;
	out->fixes = f->fixes;
	return SL_OK;
}
