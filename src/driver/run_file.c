/* SPDX-License-Identifier: Apache-2.0
** run_file.c: what a caller reads back of a linted run's files (lint.h): each file's text as
** read and as fixed, its write over the file and its diff (driver/fixer.c does both), its
** path, documents, read error and fixes, and the digests of the facts it gives the other files.
** Only the files a caller sees (run->shown): never the project's context files, nor a Kustomize
** build's text. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "schedlint/lint.h"
#include "driver/fixer.h"
#include "driver/run.h"
#include "sched/index.h"
#include "util/arena.h"
#include "util/hash.h"

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
	if (!f) {   /* zeroed, as far as the caller's version reaches */
		unsigned v = out->version;
		memset(out, 0, v >= 2 ? sizeof *out : offsetof(sl_file_info, built));
		out->version = v;
		return SL_EUSAGE;
	}
	out->path = f->path;
	out->documents = f->documents;
	out->error = f->error;
	out->fixes = f->fixes;
	if (out->version >= 2)
		out->built = f->partial;
	return SL_OK;
}

/* What file f gives the index per fact key (sl_index_gives), *v malloc'd. SL_ENOMEM only. */
static sl_err gives_of(const sl_run *run, const sl_file *f, sl_index_given **v, size_t *n)
{
	*v = NULL;
	*n = 0;
	if (!f->src || !f->n_objects)
		return SL_OK;
	sl_arena *a = sl_arena_new();
	sl_serving_fact *facts = NULL;
	size_t n_facts = 0;
	sl_err err = !a ? SL_ENOMEM
		: sl_index_gather_facts((const sl_object *const *)f->objects, f->n_objects, a,
					&facts, &n_facts);
	if (!err)
		err = sl_index_gives((const sl_object *const *)f->objects, f->n_objects, f->src,
				     facts, n_facts, run->passes.eng.index.lowest_label, v, n);
	sl_index_free_facts(facts);
	sl_arena_free(a);
	return err;
}

uint64_t sl_run_file_facts(const sl_run *run, size_t i)
{
	const sl_file *f = file_at(run, i);
	sl_index_given *v;
	size_t n;
	if (!f)
		return 0;
	if (gives_of(run, f, &v, &n) != SL_OK)
		return ~(uint64_t)0;   /* unknown: as if they changed */
	/* every fact's key and digest: the facts that gave them are the same or differ together */
	uint64_t h = sl_hash_bytes(SL_HASH_INIT, v, n * sizeof *v);
	free(v);
	return !n ? 0 : h ? h : 1;
}

sl_err sl_run_file_fact_digests(const sl_run *run, size_t i, sl_fact_digest **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const sl_file *f = file_at(run, i);
	if (!f)
		return SL_EUSAGE;
	sl_index_given *v = NULL;
	sl_err err = gives_of(run, f, &v, n);
	/* the same two words: one block, handed over as the caller's type */
	sl_fact_digest *d = err || !*n ? NULL : malloc(*n * sizeof *d);
	for (size_t k = 0; d && k < *n; k++)
		d[k] = (sl_fact_digest){v[k].key, v[k].digest};
	free(v);
	if (!err && *n && !d)
		err = SL_ENOMEM;
	if (err)
		*n = 0;
	*out = d;
	return err;
}

sl_err sl_run_file_record_reads(sl_run *run)
{
	if (run->passes.eng.stream)
		return SL_EUSAGE;   /* its trees go as it checks them */
	run->passes.eng.record_reads = true;
	return SL_OK;
}

sl_err sl_run_file_reads(const sl_run *run, size_t i, uint64_t **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const sl_file *f = file_at(run, i);
	if (!f || !f->reads || f->reads->failed || f->partial || f->build)
		return SL_EUSAGE;
	if (!f->reads->n)
		return SL_OK;
	if (!(*out = malloc(f->reads->n * sizeof **out)))
		return SL_ENOMEM;
	sl_index_reads_sorted(f->reads, *out);
	*n = f->reads->n;
	return SL_OK;
}
