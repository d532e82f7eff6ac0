/* SPDX-License-Identifier: Apache-2.0
** run_placement.c: where every unit of a linted run can land (lint.h's sl_run_placement,
** `schedlint placement`): the pools the run's config sees and a row per unit, each cell the
** scheduler's verdict with its reasons in words (sched/placement.h). */
#include <stdlib.h>
#include <string.h>
#include "schedlint/lint.h"
#include "driver/run.h"
#include "sched/merge.h"
#include "sched/placement.h"
#include "sched/pool.h"

struct sl_run_report {
	sl_arena *a;                 /* everything below */
	sl_pool_info *pools;
	size_t n_pools;
	sl_placement_row *rows;
	size_t n_rows, cap_rows;
	bool oom;                    /* a copy failed */
};

/* A copy of s in the report (NULL stays NULL). */
static const char *keep(struct sl_run_report *r, const char *s)
{
	char *c = s ? sl_arena_strndup(r->a, s, strlen(s)) : NULL;
	r->oom |= s && !c;
	return c;
}

/* The cells of unit u on the pools (scheduled: false when u has nodeName). */
static sl_err cells(struct sl_run_report *r, const sl_index *ix, const sl_unit *u,
		    sl_placement_row *row)
{
	sl_arena *a = r->a;
	sl_placement p;
	sl_err err = sl_placement_unit(ix, u, a, &p);
	if (err)
		return err;
	row->scheduled = p.n > 0;
	if (!p.n)
		return SL_OK;
	sl_placement_cell *v = sl_arena_zalloc(a, p.n * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	/* it lands nowhere as no-matching-node-pool reports it: a pool applies to it and none takes
	** it; a DaemonSet's pods run on the nodes it matches, none is a valid outcome */
	bool applies = false, lands = false;
	for (sl_placement_iter it = sl_placement_pools(&p, false); sl_placement_next(&it);) {
		applies |= it.fit->applies;
		lands |= it.fit->lands;
	}
	row->nowhere = applies && !lands && u->obj->kind != SL_KIND_DAEMONSET;
	for (sl_placement_iter it = sl_placement_pools(&p, false); sl_placement_next(&it);) {
		size_t i = it.i;
		v[i].lands = it.fit->lands;
		if (it.fit->lands)
			continue;
		sl_placement_verdict verdict = sl_placement_eval(p.pod, it.pool, a);
		v[i].brief = it.fit->brief;
		const char *text = NULL;
		for (size_t k = 0; k < verdict.n_reasons; k++) {
			const sl_placement_reason *why = &verdict.reasons[k];
			const char *one = why->detail ? sl_arena_printf(a, "%s (%s)", why->text,
									why->detail)
						      : why->text;
			text = text ? sl_arena_printf(a, "%s\n%s", text, one) : one;
			r->oom |= !text;
		}
		v[i].reasons = text;
	}
	row->cells = v;
	return SL_OK;
}

/* The pools the run's config sees, as the report names them. */
static sl_err pools(struct sl_run_report *r, const sl_index *ix)
{
	size_t np;
	const sl_pool *p = sl_pool_set_pools(sl_index_pool_set(ix), &np);
	r->pools = np ? sl_arena_zalloc(r->a, np * sizeof *r->pools) : NULL;
	if (np && !r->pools)
		return SL_ENOMEM;
	for (size_t i = 0; i < np; i++)
		r->pools[i] = (sl_pool_info){keep(r, p[i].name), sl_pool_origin_name(p[i].origin),
			keep(r, p[i].where), keep(r, p[i].path), p[i].line, p[i].gpu == SL_TRI_YES,
			p[i].spot == SL_TRI_YES ? 1 : p[i].spot == SL_TRI_NO ? 0 : -1,
			p[i].min_nodes, p[i].max_nodes, keep(r, p[i].cluster)};
	r->n_pools = np;
	return SL_OK;
}

/* A row for unit u of file f: the unit, where its pod spec stands, its cells. */
static sl_err row(struct sl_run_report *r, const sl_index *ix, const sl_file *f,
		  const sl_object *o, const sl_unit *u)
{
	if (r->n_rows == r->cap_rows) {
		size_t cap = r->cap_rows ? 2 * r->cap_rows : 64;
		sl_placement_row *nv = sl_arena_alloc(r->a, cap * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		if (r->n_rows)
			memcpy(nv, r->rows, r->n_rows * sizeof *nv);
		r->rows = nv;
		r->cap_rows = cap;
	}
	sl_placement_row *w = &r->rows[r->n_rows++];
	const sl_node *at = u->pod ? u->pod : o->root;
	uint32_t line = 0, col = 0;
	if (f->src && at)
		sl_source_position(f->src, at->start, &line, &col);
	*w = (sl_placement_row){keep(r, sl_object_unit_label(u, r->a)), f->path, line, col, false,
				NULL, false};
	return cells(r, ix, u, w);
}

/* The report of run: the pools, then every unit that builds pods of the files shown (templates,
** merged into the units that use them, left out). */
static sl_err report(sl_run *run, struct sl_run_report *r)
{
	const sl_engine *e = &run->passes.eng;
	const sl_index *ix = &e->index;   /* the run's config: one set of columns */
	sl_err err = pools(r, ix);
	for (size_t fi = 0; !err && r->n_pools && fi < run->n_shown && !r->oom; fi++) {
		const sl_file *f = e->files[run->shown[fi]];
		for (size_t oi = 0; !err && oi < f->n_objects; oi++) {
			const sl_object *o = f->objects[oi];
			for (size_t ui = 0; !err && ui < o->n_units; ui++) {
				const sl_unit *u = &o->units[ui];
				if (!sl_unit_builds_no_pod(u) && !sl_merge_kind_is_template(o->kind))
					err = row(r, ix, f, o, u);
			}
		}
	}
	return err ? err : r->oom ? SL_ENOMEM : SL_OK;
}

sl_err sl_run_placement(sl_run *run, const sl_pool_info **pools_out, size_t *n_pools,
			const sl_placement_row **rows_out, size_t *n_rows)
{
	*pools_out = NULL;
	*rows_out = NULL;
	*n_pools = *n_rows = 0;
	if (!run->linted || run->passes.eng.stream)
		return SL_EUSAGE;
	if (!run->report) {
		struct sl_run_report *r = sl_xcalloc(1, sizeof *r);
		if (!r || !(r->a = sl_arena_new())) {
			free(r);
			return SL_ENOMEM;
		}
		run->report = r;
		sl_err err = report(run, r);
		if (err)
			return err;
	}
	*pools_out = run->report->pools;
	*n_pools = run->report->n_pools;
	*rows_out = run->report->rows;
	*n_rows = run->report->n_rows;
	return SL_OK;
}

void sl_run_placement_drop(sl_run *run)
{
	if (run->report)
		sl_arena_free(run->report->a);
	free(run->report);
	run->report = NULL;
}
