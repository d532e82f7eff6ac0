/* SPDX-License-Identifier: Apache-2.0
** run_placement.c: where every unit of a linted run can land (lint.h's sl_run_placement,
** `schedlint placement`): the pools the run's config sees and a row per unit, each cell the
** scheduler's verdict with its reasons in words (sched/placement.h). */
#include <stdint.h>
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
	size_t n_set;                /* pools[0 .. n_set): the config's; then one per KAITO
					Workspace unit with a pool of its own, that unit's */
	const sl_unit **own;         /* own[i - n_set]: the unit of KAITO column i */
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
	row->scheduled = p.n > 0 || u->own_pool;
	if (!p.n && !u->own_pool)
		return SL_OK;
	sl_placement_cell *v = sl_arena_zalloc(a, r->n_pools * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	/* the columns p's pools are: the config's, or the unit's own KAITO column; every other
	** column does not apply to it (KAITO's nodes are its Workspace's, a Workspace's only its) */
	size_t base = u->own_pool ? SIZE_MAX : 0;   /* SIZE_MAX: no column (p.n is 0) */
	for (size_t k = 0; u->own_pool && k < r->n_pools - r->n_set; k++)
		if (r->own[k] == u)
			base = r->n_set + k;
	for (size_t i = 0; i < r->n_pools; i++) {
		bool own_col = i >= r->n_set;
		if (u->own_pool ? i != base : own_col)
			v[i] = (sl_placement_cell){false, "kaito", u->own_pool
				? "KAITO provisions this Workspace's nodes: only they take its pods"
				: "KAITO provisions these nodes for its Workspace only", false};
	}
	if (!p.n) {   /* its own pool, of an instance type the table does not know */
		row->cells = v;
		return SL_OK;
	}
	v += base;
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
		v[i].unsure = it.fit->lands && it.fit->unsure;
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
	row->cells = v - base;
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
	r->n_pools = r->n_set = np;
	return SL_OK;
}

/* A column for the pool KAITO provisions for unit u (none when u has none or its instance type
** is not in the table). */
static sl_err own_pool(struct sl_run_report *r, const sl_index *ix, const sl_unit *u)
{
	const sl_pool *p;
	sl_err err = sl_pool_kaito(ix->cfg, u, r->a, &p);
	if (err || !p)
		return err;
	sl_pool_info *nv = sl_arena_alloc(r->a, (r->n_pools + 1) * sizeof *nv);
	const sl_unit **no = sl_arena_alloc(r->a, (r->n_pools + 1 - r->n_set) * sizeof *no);
	if (!nv || !no)
		return SL_ENOMEM;
	if (r->n_pools)
		memcpy(nv, r->pools, r->n_pools * sizeof *nv);
	if (r->n_pools > r->n_set)
		memcpy(no, r->own, (r->n_pools - r->n_set) * sizeof *no);
	no[r->n_pools - r->n_set] = u;
	nv[r->n_pools++] = (sl_pool_info){keep(r, p->name), sl_pool_origin_name(p->origin),
		keep(r, p->where), keep(r, p->path), p->line, p->gpu == SL_TRI_YES, 0, -1, -1, NULL};
	r->pools = nv;
	r->own = no;
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
	for (size_t fi = 0; !err && fi < run->n_shown && !r->oom; fi++) {
		const sl_file *f = e->files[run->shown[fi]];
		for (size_t oi = 0; !err && oi < f->n_objects; oi++)
			for (size_t ui = 0; !err && ui < f->objects[oi]->n_units; ui++)
				if (f->objects[oi]->units[ui].own_pool)
					err = own_pool(r, ix, &f->objects[oi]->units[ui]);
	}
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
