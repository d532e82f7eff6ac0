/* SPDX-License-Identifier: Apache-2.0
** fixer.c: the fix rounds of a linted (whole, not streamed) run. Each round accepts, in finding
** order, every fix whose edits overlap nothing accepted before it and touch only files that
** parse; applies them file by file to the text in memory; and lints every file again, until a
** round accepts nothing or the rounds run out. Nothing is written here (run.c writes). */
#include <stdlib.h>
#include <string.h>
#include "fixer.h"

/* The index of the file whose path is path (e->files is sorted by path), or -1. */
static long file_index(const sl_engine *e, const char *path)
{
	size_t lo = 0, hi = e->n_files;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = e->files[mid]->path == path ? 0 : strcmp(e->files[mid]->path, path);
		if (c == 0)
			return (long)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* True when f has a yaml-syntax finding. */
/* A file with a YAML syntax error is never fixed, whether or not yaml-syntax is selected. */
static bool has_syntax_error(const sl_file *f)
{
	return f->broken;
}

/* One round's choice: in finding order, every fix whose edits overlap nothing accepted before
** it (nor each other) and touch only files that parse; the edits go to their file's set. The
** work is linear in the number of fixes (a binary search per edit), not files x fixes. */
static sl_err accept_fixes(sl_engine *e, const sl_passes *p, bool unsafe, sl_edit_set *sets,
			   size_t *n_fixes)
{
	/* a file that does not parse is left as it is, as fmt leaves it */
	bool *blocked = sl_xcalloc(e->n_files ? e->n_files : 1, sizeof *blocked);
	long *where = NULL;
	size_t cap_where = 0;
	if (!blocked)
		return SL_ENOMEM;
	for (size_t fi = 0; fi < e->n_files; fi++)
		blocked[fi] = !e->files[fi]->src || has_syntax_error(e->files[fi]);
	sl_err err = SL_OK;
	*n_fixes = 0;
	for (size_t i = 0; i < p->n_sorted && !err; i++) {
		const sl_fix *fx = p->sorted[i]->pub.fix;
		if (!fx || !fx->n_edits || (fx->applicability == SL_FIX_UNSAFE && !unsafe))
			continue;
		if (fx->n_edits > cap_where) {
			long *nw = sl_xrealloc(where, fx->n_edits * sizeof *nw);
			if (!nw) {
				err = SL_ENOMEM;
				break;
			}
			where = nw;
			cap_where = fx->n_edits;
		}
		bool ok = true;
		for (size_t j = 0; j < fx->n_edits && ok; j++) {
			const sl_edit *ed = &fx->edits[j];
			long t = where[j] = file_index(e, ed->path);
			if (t < 0 || blocked[t] || ed->offset + ed->length > e->files[t]->src->len ||
			    !sl_edit_set_fits(&sets[t], ed))
				ok = false;
			for (size_t k = 0; k < j && ok; k++)
				if (sl_edits_overlap(ed, &fx->edits[k]))
					ok = false;
		}
		for (size_t j = 0; ok && j < fx->n_edits && !err; j++)
			err = sl_edit_set_add(&sets[where[j]], &fx->edits[j]);
		*n_fixes += ok;
	}
	free(where);
	free(blocked);
	return err;
}

sl_err sl_fixer_fix(sl_passes *p, const sl_fix_options *opts, size_t *applied, bool *converged)
{
	sl_engine *e = &p->eng;
	unsigned max = opts && opts->max_passes ? opts->max_passes : 10;
	bool unsafe = opts && opts->unsafe;
	size_t total = 0;
	bool done = false;
	for (unsigned pass = 0; pass < max && !done; pass++) {
		sl_edit_set *sets = sl_xcalloc(e->n_files ? e->n_files : 1, sizeof *sets);
		if (!sets)
			return SL_ENOMEM;
		size_t n_fixes = 0;
		sl_err err = accept_fixes(e, p, unsafe, sets, &n_fixes);
		/* Apply per file, before the arenas that hold the edits go. */
		for (size_t fi = 0; fi < e->n_files && !err && n_fixes; fi++) {
			sl_file *f = e->files[fi];
			if (!sets[fi].n)
				continue;
			char *out;
			size_t out_len;
			err = sl_edits_apply(f->src->data, f->src->len, sets[fi].v, sets[fi].n, &out,
					     &out_len);
			sl_source *ns = NULL;
			if (!err) {
				err = sl_source_from_buffer(f->path, out, out_len, &ns);
				free(out);
			}
			if (!err) {
				if (f->orig)
					sl_source_free(f->src);
				else
					f->orig = f->src;
				f->src = ns;
				ns->owner = f;
			} else if (err == SL_EUSAGE) {
				err = SL_EINTERNAL;
			}
		}
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
