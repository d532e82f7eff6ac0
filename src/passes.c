/* SPDX-License-Identifier: Apache-2.0
** passes.c: the passes of a lint run over its files. Pass 1 reads and parses the files and fills
** the project index, pass 2 runs the rules, then every finding is sorted (path, line, column,
** rule, message) so output never depends on input order or timing. A streaming run (a lint
** without fixes) keeps no tree longer than one file's check: pass 1 parses only the files that
** may define a looked-up kind and keeps digests of those objects, pass 2 parses every file
** again, gathers its serving facts and checks it, and pass 3 checks the few files whose rules
** compare them with every serving unit. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "passes.h"
#include "registry.h"

/* Frees f and everything it owns. */
static void free_file(sl_file *f)
{
	free(f->error);
	free(f->write_error);
	sl_source_free(f->src);
	sl_source_free(f->orig);
	sl_arena_free(f->arena);
	sl_index_free_facts(f->facts);
	free(f->digests);
	if (!f->compact)
		free(f->findings);
	free(f);
}

sl_err sl_passes_init(sl_passes *p, const sl_config *cfg, const sl_run_options *opts,
		      char **error_out)
{
	p->eng.cfg = cfg;
	p->eng.stream = opts && opts->low_memory;
	pthread_mutex_init(&p->eng.keep_lock, NULL);
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	p->jobs = opts && opts->jobs ? opts->jobs : cpus > 0 ? (unsigned)cpus : 1;
	sl_index_init(&p->eng.index, cfg);
	return sl_engine_configure(&p->eng, opts, error_out);
}

sl_file *sl_passes_new_file(sl_passes *p, const char *path)
{
	sl_engine *e = &p->eng;
	if ((e->n_files & (e->n_files + 1)) == 0 || e->n_files == 0) {
		size_t ncap = e->n_files ? (e->n_files + 1) * 2 : 8;
		sl_file **nf = sl_xrealloc(e->files, ncap * sizeof *nf);
		if (!nf)
			return NULL;
		e->files = nf;
	}
	/* the record and its path in one block: a run may hold a great many */
	size_t len = strlen(path) + 1;
	sl_file *f = sl_xcalloc(1, sizeof *f + len);
	if (!f)
		return NULL;
	f->path = memcpy((char *)(f + 1), path, len);
	e->files[e->n_files++] = f;
	return f;
}

static int cmp_findings(const void *a, const void *b)
{
	const sl_finding *x = &(*(sl_frec *const *)a)->pub, *y = &(*(sl_frec *const *)b)->pub;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	c = strcmp(x->rule, y->rule);
	if (c)
		return c;
	return strcmp(x->message, y->message);
}

/* A pass over the files on p->jobs threads: each takes the next file from a shared counter.
** Files are independent within a pass (pass 2 only reads other files), so order of work does
** not matter; the output order comes from sorting. */
struct pass {
	sl_passes *p;
	sl_err (*fn)(sl_engine *, sl_file *, sl_arena **scratch);
	atomic_size_t next;
	atomic_int err;
};

static void *pass_worker(void *p)
{
	struct pass *ps = p;
	sl_engine *e = &ps->p->eng;
	sl_arena *scratch = NULL;   /* when streaming, the arena every released file is parsed into */
	for (;;) {
		size_t i = atomic_fetch_add(&ps->next, 1);
		if (i >= e->n_files || atomic_load(&ps->err))
			break;
		sl_file *f = e->files[i];
		if (!f->src && !f->on_disk && !f->released)
			continue;
		sl_err err = ps->fn(e, f, &scratch);
		if (err) {
			int none = SL_OK;
			atomic_compare_exchange_strong(&ps->err, &none, (int)err);
		}
	}
	sl_arena_free(scratch);
	return NULL;
}

static sl_err run_pass(sl_passes *p, sl_err (*fn)(sl_engine *, sl_file *, sl_arena **))
{
	struct pass ps = {.p = p, .fn = fn};
	atomic_init(&ps.next, 0);
	atomic_init(&ps.err, SL_OK);
	size_t n = p->jobs < p->eng.n_files ? p->jobs : p->eng.n_files;
	pthread_t tid[64];
	size_t started = 0;
	for (size_t t = 1; t < n && t < 64; t++)
		if (pthread_create(&tid[started], NULL, pass_worker, &ps) == 0)
			started++;
	pass_worker(&ps);   /* this thread works too */
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return (sl_err)atomic_load(&ps.err);
}

/* Parses f (pass 1 or again in pass 2); when streaming, into the thread's scratch arena, which
** stays the thread's until a file keeps it. */
static sl_err parse_into(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	if (!e->stream)
		return sl_engine_parse(e, f);
	f->arena = *scratch;
	sl_err err = sl_engine_parse(e, f);
	*scratch = f->arena;
	if (err || !f->src)
		f->arena = NULL;   /* the worker frees it */
	return err;
}

/* Lets go of f's tree, and of its text when it can be read again; its arena, a thread's
** scratch one, is reset for the next file. */
static void drop_tree(sl_file *f)
{
	if (f->arena)
		sl_arena_reset(f->arena);
	f->arena = NULL;
	memset(&f->tree, 0, sizeof f->tree);
	f->objects = NULL;
	f->n_objects = 0;
	if (f->on_disk) {
		sl_source_free(f->src);
		f->src = NULL;
	}
}

/* drop_tree, findings included (a streamed file's findings come back when it is parsed
** again). */
static void release(sl_file *f)
{
	f->n_findings = 0;
	f->capped = false;
	f->style_known = false;
	drop_tree(f);
	f->released = true;
}

/* f's serving units' facts, for the index's serving table. */
static sl_err gather_facts(sl_file *f)
{
	sl_index_free_facts(f->facts);
	return sl_index_gather_facts((const sl_object *const *)f->objects, f->n_objects, f->arena,
				     &f->facts, &f->n_facts);
}

/* Pass 1 for one file: parse and bind, and what the index needs of it. A whole run keeps every
** tree and gathers the serving facts now. A streaming run reads a file and notes which kinds
** its text names: a file that names no serving kind has no facts to give, so it waits for pass
** 3; one that may define a kind the index wants is parsed, digests stand in for those objects
** (or, for a few, the file keeps its tree), its facts are gathered, the tree goes, and it is
** checked in pass 3. */
static sl_err parse_file(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	sl_err err;
	if (e->stream) {
		if ((err = sl_engine_read(f, true)) || !f->src)
			return err;
		uint64_t kinds = sl_kinds_named_in_until(f->src->data, f->src->len, e->deciding, 2);
		f->waiting = !(kinds & e->deciding[1]);
		if (!sl_index_may_define(kinds, f->src->data, f->src->len)) {
			release(f);
			return SL_OK;
		}
	}
	if ((err = parse_into(e, f, scratch)) || !f->src)
		return err;
	if (!e->stream)
		return gather_facts(f);
	bool keep = false;
	for (size_t j = 0; !err && j < f->n_objects; j++) {
		const sl_object *o = f->objects[j];
		if (!sl_index_wants(o))
			continue;
		if (sl_index_needs_tree(o)) {
			keep = true;
			continue;
		}
		const sl_object **nv = sl_xrealloc(f->digests, (f->n_digests + 1) * sizeof *nv);
		if (!nv) {
			err = SL_ENOMEM;
			break;
		}
		f->digests = nv;
		pthread_mutex_lock(&e->keep_lock);
		err = sl_index_digest(o, e->cfg, e->keep, &f->digests[f->n_digests]);
		pthread_mutex_unlock(&e->keep_lock);
		if (!err && f->digests[f->n_digests])
			f->n_digests++;
		else
			keep = true;   /* no digest (aliases): the index reads the tree itself */
	}
	/* parsed once already: its facts now, and its check in pass 3 (one parse fewer) */
	if (!err)
		err = gather_facts(f);
	f->waiting = true;
	if (err) {
		f->arena = NULL;   /* the scratch arena: the worker frees it */
		return err;
	}
	if (keep)
		*scratch = NULL;   /* f keeps its tree, and the arena with it */
	else
		release(f);
	return SL_OK;
}

/* Copies f's findings, fixes and strings into the engine's keep arena (one arena for the
** whole run, so what outlives the trees does not pin freed pages) and lets go of the tree. */
static sl_err compact(sl_engine *e, sl_file *f)
{
	size_t size = f->n_findings * (sizeof(sl_frec) + sizeof(sl_frec *));
	size_t n_edits = 0;
	for (size_t i = 0; i < f->n_findings; i++) {
		const sl_finding *p = &f->findings[i]->pub;
		const char *strs[] = {p->message, p->notes, p->pointer, p->api_version, p->kind, p->namespace_,
				      p->name, p->unit, p->fix ? p->fix->message : NULL};
		for (size_t k = 0; k < sizeof strs / sizeof *strs; k++)
			size += strs[k] ? strlen(strs[k]) + 1 : 0;
		for (size_t k = 0; p->fix && k < p->fix->n_edits; k++)
			size += strlen(p->fix->edits[k].content) + 1;
		n_edits += p->fix ? p->fix->n_edits : 0;
	}
	/* edit records first: they need the alignment the strings would break */
	size += n_edits * sizeof(sl_edit);
	char *block = NULL;
	if (size) {   /* a file without findings needs nothing (and no arithmetic on NULL) */
		pthread_mutex_lock(&e->keep_lock);
		block = sl_arena_alloc(e->keep, size);
		pthread_mutex_unlock(&e->keep_lock);
		if (!block)
			return SL_ENOMEM;
	}
	sl_frec *recs = (sl_frec *)block;
	sl_frec **ptrs = block ? (sl_frec **)(block + f->n_findings * sizeof(sl_frec)) : NULL;
	sl_edit *edits = block ? (sl_edit *)(block + f->n_findings * (sizeof(sl_frec) +
								     sizeof(sl_frec *))) : NULL;
	char *w = block ? (char *)(edits + n_edits) : NULL;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_frec *r = &recs[i];
		*r = *f->findings[i];
		r->edits = NULL;
		r->cap_edits = 0;
		sl_finding *p = &r->pub;
		const char **strs[] = {&p->message, &p->notes, &p->pointer, &p->api_version, &p->kind,
				       &p->namespace_, &p->name, &p->unit};
		for (size_t k = 0; k < sizeof strs / sizeof *strs; k++) {
			if (!*strs[k])
				continue;
			size_t l = strlen(*strs[k]) + 1;
			memcpy(w, *strs[k], l);
			*strs[k] = w;
			w += l;
		}
		if (p->fix) {
			r->fix = *p->fix;
			if (r->fix.message) {
				size_t l = strlen(r->fix.message) + 1;
				memcpy(w, r->fix.message, l);
				r->fix.message = w;
				w += l;
			}
			for (size_t k = 0; k < r->fix.n_edits; k++) {
				edits[k] = r->fix.edits[k];
				size_t l = strlen(edits[k].content) + 1;
				memcpy(w, edits[k].content, l);
				edits[k].content = w;
				w += l;
			}
			r->fix.edits = edits;
			edits += r->fix.n_edits;
			p->fix = &r->fix;
		}
		ptrs[i] = r;
	}
	free(f->findings);
	f->findings = ptrs;
	f->cap_findings = f->n_findings;
	f->compact = true;
	drop_tree(f);
	return SL_OK;
}

/* Checks f, and when it let its tree go once already, copies its findings out and lets the
** tree go again. On an error a released file leaves its (scratch) arena to the worker. */
static sl_err check_streamed(sl_engine *e, sl_file *f, sl_err err)
{
	if (!err && f->src)
		err = sl_engine_check(e, f);
	if (!err && f->src && f->released)
		err = compact(e, f);
	if (err && f->released)
		f->arena = NULL;
	return err;
}

/* Pass 2 for one file. A whole run checks it. A streaming run reads and parses a file that may
** hold serving units again (unless it kept its tree), gathers their facts, and checks it, then
** copies its findings out and lets the tree go; a file that waits for every serving unit
** (sl_engine_waits) is only parsed here, and checked in pass 3 with the others that wait. */
static sl_err check_file(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	if (!e->stream)
		return sl_engine_check(e, f);
	if (f->waiting)
		return SL_OK;
	sl_err err = f->released ? parse_into(e, f, scratch) : SL_OK;
	if (!err && f->src)
		err = gather_facts(f);
	if (!err && f->src && sl_engine_waits(e, f)) {
		f->waiting = true;
		if (f->released)
			release(f);
		return SL_OK;
	}
	return check_streamed(e, f, err);
}

/* Pass 3 of a streaming run: the files that waited for every serving unit, and those that have
** none. */
static sl_err check_waiting(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	if (!f->waiting)
		return SL_OK;
	return check_streamed(e, f, f->released ? parse_into(e, f, scratch) : SL_OK);
}

/* Adds every file's serving facts to the index, in file order, and builds the serving table. */
static sl_err add_facts(sl_engine *e)
{
	for (size_t i = 0; i < e->n_files; i++) {
		sl_err err = sl_index_add_facts(&e->index, e->files[i]->facts, e->files[i]->n_facts);
		if (err)
			return err;
	}
	sl_err err = sl_index_finish_serving(&e->index);
	for (size_t i = 0; !err && i < e->n_files; i++) {
		sl_index_free_facts(e->files[i]->facts);
		e->files[i]->facts = NULL;
		e->files[i]->n_facts = 0;
	}
	return err;
}

struct file_id { dev_t dev; ino_t ino; size_t i; };

static int cmp_ids(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Two inputs that are one file (a.yaml and ./a.yaml, a symlink and its target, one file given
** twice or reached from two roots) would report every finding twice and each take the other's
** edits: the file is linted once, under the first of its paths in path order (its device and
** inode, from the read, say which are one). */
static sl_err drop_duplicates(sl_engine *e)
{
	struct file_id *ids = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *ids);
	if (!ids)
		return SL_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if (e->files[i]->stamp.valid)
			ids[n++] = (struct file_id){e->files[i]->stamp.dev, e->files[i]->stamp.ino, i};
	qsort(ids, n, sizeof *ids, cmp_ids);
	bool any = false;
	for (size_t k = 1; k < n; k++) {
		if (ids[k].dev == ids[k - 1].dev && ids[k].ino == ids[k - 1].ino) {
			free_file(e->files[ids[k].i]);
			e->files[ids[k].i] = NULL;
			any = true;
		}
	}
	free(ids);
	size_t w = 0;
	for (size_t i = 0; any && i < e->n_files; i++)
		if (e->files[i])
			e->files[w++] = e->files[i];
	if (any)
		e->n_files = w;
	return SL_OK;
}

sl_err sl_passes_lint(sl_passes *p)
{
	sl_engine *e = &p->eng;
	if (e->stream && !e->keep && !(e->keep = sl_arena_new()))
		return SL_ENOMEM;
	/* the kinds whose names decide, in pass 1, what a streamed file needs: one the index looks
	** up (a ConfigMap needs its name too), and a serving kind */
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		uint64_t bit = (uint64_t)1 << k;
		if (sl_index_kind_looked_up((sl_kind)k) && k != SL_KIND_CONFIGMAP)
			e->deciding[0] |= bit;
		if (sl_kind_is_serving((sl_kind)k))
			e->deciding[1] |= bit;
	}
	sl_err err = run_pass(p, parse_file);
	if (err || (err = drop_duplicates(e)))
		return err;
	/* The index is filled in file order, so "first" stays deterministic. */
	for (size_t i = 0; i < e->n_files; i++) {
		sl_file *f = e->files[i];
		/* a kept file's own objects, else the digests standing in for them */
		for (size_t j = 0; f->src && j < f->n_objects; j++)
			if ((err = sl_index_add(&e->index, f->objects[j])))
				return err;
		for (size_t j = 0; f->released && j < f->n_digests; j++)
			if ((err = sl_index_add(&e->index, f->digests[j])))
				return err;
	}
	if ((err = sl_index_finish(&e->index)))
		return err;
	/* a whole run has every unit's facts now; a streaming run gathers them in pass 2 */
	if (!e->stream && (err = add_facts(e)))
		return err;
	if ((err = run_pass(p, check_file)))
		return err;
	if (e->stream && ((err = add_facts(e)) || (err = run_pass(p, check_waiting))))
		return err;
	size_t total = 0;
	for (size_t i = 0; i < e->n_files; i++)
		total += e->files[i]->n_findings;
	p->sorted = sl_xmalloc((total ? total : 1) * sizeof *p->sorted);
	if (!p->sorted)
		return SL_ENOMEM;
	for (size_t i = 0; i < e->n_files; i++)
		for (size_t j = 0; j < e->files[i]->n_findings; j++)
			p->sorted[p->n_sorted++] = e->files[i]->findings[j];
	qsort(p->sorted, p->n_sorted, sizeof *p->sorted, cmp_findings);
	return SL_OK;
}

sl_err sl_passes_forget(sl_passes *p)
{
	sl_engine *e = &p->eng;
	for (size_t i = 0; i < e->n_files; i++) {
		sl_file *f = e->files[i];
		if (!f->src)
			continue;
		sl_arena_free(f->arena);
		f->arena = NULL;   /* the next parse makes one to suit the fixed text */
		memset(&f->tree, 0, sizeof f->tree);
		f->objects = NULL;
		f->n_objects = 0;
		f->n_findings = 0;
		f->capped = false;
		f->style_known = false;
		f->oom = SL_OK;
		sl_index_free_facts(f->facts);
		f->facts = NULL;
		f->n_facts = 0;
		free(f->digests);
		f->digests = NULL;
		f->n_digests = 0;
		f->waiting = false;
	}
	sl_index_free(&e->index);
	sl_index_init(&e->index, e->cfg);
	free(p->sorted);
	p->sorted = NULL;
	p->n_sorted = 0;
	return SL_OK;
}

void sl_passes_free(sl_passes *p)
{
	sl_engine *e = &p->eng;
	for (size_t i = 0; i < e->n_files; i++)
		free_file(e->files[i]);
	free(e->files);
	sl_arena_free(e->keep);
	pthread_mutex_destroy(&e->keep_lock);
	free(e->severity);
	sl_index_free(&e->index);
	free(p->sorted);
}
