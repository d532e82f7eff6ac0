/* SPDX-License-Identifier: Apache-2.0
** fixer.c: the fix rounds of a linted (whole, not streamed) run. Each round accepts, in finding
** order, every fix whose edits overlap nothing accepted before it and touch only files that
** parse; applies them file by file to the text in memory; and lints every file again, until a
** round accepts nothing or the rounds run out. Nothing is written here (run.c writes).
**
** Each edit of a finding's record names its file (sl_frec.edit_files, set where the engine
** makes the edit), so a round finds every edit's file without comparing or searching paths, and
** keeps the edits it accepts in a set per file (by the record's index). */
#include <stdlib.h>
#include <string.h>
#include "driver/fixer.h"
#include "fs/write.h"
#include "output/escape.h"
#include "yaml/diff.h"

static sl_err accept_fixes(sl_passes *p, bool unsafe, sl_edit_set *sets, size_t *n_fixes);
static sl_err apply_fixes(sl_engine *e, sl_edit_set *sets);

sl_err sl_fixer_fix(sl_passes *p, const sl_fix_options *opts, size_t *applied, bool *converged)
{
	sl_engine *e = &p->eng;
	unsigned max = opts && opts->max_passes ? opts->max_passes : 10;
	bool unsafe = opts && opts->unsafe;
	size_t total = 0;
	bool done = false;
	for (unsigned round = 0; round < max && !done; round++) {
		sl_edit_set *sets = sl_xcalloc(e->n_files ? e->n_files : 1, sizeof *sets);
		if (!sets)
			return SL_ENOMEM;
		size_t n_fixes = 0;
		sl_err err = accept_fixes(p, unsafe, sets, &n_fixes);
		/* applied before the arenas that hold the edits go (the lint again) */
		if (!err && n_fixes)
			err = apply_fixes(e, sets);
		for (size_t fi = 0; fi < e->n_files; fi++)
			sl_edit_set_free(&sets[fi]);
		free(sets);
		if (err)
			return err;
		if (n_fixes == 0) {
			done = true;
			break;
		}
		total += n_fixes;
		if ((err = sl_passes_forget(p)) || (err = sl_passes_lint(p)))
			return err;
	}
	if (applied)
		*applied = total;
	if (converged)
		*converged = done;
	return SL_OK;
}

/* The run's file that ed edits, when a fix may change it: one that was read, and parses (a file
** with a YAML syntax error is never fixed, whether or not yaml-syntax is selected, as fmt leaves
** it); else NULL. */
static sl_file *fixable_target(const sl_engine *e, const sl_frec *rec, size_t j)
{
	const sl_edit *ed = &rec->edits[j];
	sl_file *f = (sl_file *)rec->edit_files[j];   /* the run owns its records */
	if (!f || f->index >= e->n_files || e->files[f->index] != f)
		return NULL;   /* not one of the run's files */
	if (!f->src || f->broken || f->context || ed->offset + ed->length > f->src->len)
		return NULL;
	return f;
}

/* One round's choice: in finding order, every fix whose edits overlap nothing accepted before
** it (nor each other) and touch only files that parse; the edits go to their file's set. The
** work is linear in the number of fixes (a look-up in the file's set per edit), not files x
** fixes. */
static sl_err accept_fixes(sl_passes *p, bool unsafe, sl_edit_set *sets, size_t *n_fixes)
{
	const sl_engine *e = &p->eng;
	sl_file **target = NULL;   /* each edit's file, for the fix in hand */
	size_t cap_target = 0;
	sl_err err = SL_OK;
	*n_fixes = 0;
	for (size_t i = 0; i < p->n_sorted && !err; i++) {
		const sl_frec *rec = p->sorted[i];
		const sl_fix *fx = rec->pub.fix;
		if (!fx || !fx->n_edits || (fx->applicability == SL_FIX_UNSAFE && !unsafe))
			continue;
		if (fx->n_edits > cap_target) {
			sl_file **nt = sl_xrealloc(target, fx->n_edits * sizeof *nt);
			if (!nt) {
				err = SL_ENOMEM;
				break;
			}
			target = nt;
			cap_target = fx->n_edits;
		}
		bool ok = true;
		for (size_t j = 0; j < fx->n_edits && ok; j++) {
			const sl_edit *ed = &fx->edits[j];
			sl_file *f = target[j] = fixable_target(e, rec, j);
			if (!f || !sl_edit_set_fits(&sets[f->index], ed))
				ok = false;
			for (size_t k = 0; k < j && ok; k++)
				if (sl_edit_overlap(ed, &fx->edits[k]))
					ok = false;
		}
		for (size_t j = 0; ok && j < fx->n_edits && !err; j++)
			err = sl_edit_set_add(&sets[target[j]->index], &fx->edits[j]);
		*n_fixes += ok;
		if (ok)
			target[0]->fixes++;
	}
	free(target);
	return err;
}

void sl_fixer_replace(sl_file *f, sl_source *text)
{
	if (f->orig)
		sl_source_free(f->src);
	else
		f->orig = f->src;
	f->src = text;
	text->owner = f;
}

/* Applies each file's accepted edits to its text: the fixed text becomes the file's (the text
** as read is kept as its original). SL_ENOMEM; SL_EINTERNAL when edits were invalid. */
static sl_err apply_fixes(sl_engine *e, sl_edit_set *sets)
{
	sl_err err = SL_OK;
	for (size_t fi = 0; fi < e->n_files && !err; fi++) {
		sl_file *f = e->files[fi];
		if (!sets[fi].n)
			continue;
		char *out;
		size_t out_len;
		err = sl_edit_apply(f->src->data, f->src->len, sets[fi].v, sets[fi].n, &out, &out_len);
		sl_source *ns = NULL;
		if (!err) {
			err = sl_source_from_buffer(f->path, out, out_len, &ns);
			free(out);
		}
		if (!err) {
			sl_fixer_replace(f, ns);
		} else if (err == SL_EUSAGE) {
			err = SL_EINTERNAL;
		}
	}
	return err;
}

bool sl_fixer_changed(const sl_file *f)
{
	return f->orig && (f->orig->len != f->src->len ||
			   memcmp(f->orig->data, f->src->data, f->src->len) != 0);
}

sl_err sl_fixer_write(sl_file *f)
{
	if (!sl_fixer_changed(f))
		return SL_OK;
	free(f->write_error);
	f->write_error = NULL;
	sl_err err = sl_write_fixed(f->path, f->root, f->orig, f->src->data, f->src->len,
				    &f->write_error);
	if (err == SL_EIO && !f->write_error)
		return SL_ENOMEM;
	return err;
}

sl_err sl_fixer_diff(const sl_file *f, FILE *out)
{
	const sl_source *a = f->orig ? f->orig : f->src, *b = f->src;
	/* The headers carry the file name: escaped so it cannot end the line (escape.h). */
	char *path = sl_escape_str(f->path, SL_SINK_DIFF);
	if (!path)
		return SL_ENOMEM;
	sl_err err = sl_diff_write(out, path, a ? a->data : "", a ? a->len : 0, b ? b->data : "",
				   b ? b->len : 0);
	free(path);
	return err;
}
