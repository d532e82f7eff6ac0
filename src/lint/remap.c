/* SPDX-License-Identifier: Apache-2.0
** remap.c: findings of rendered text moved to their sources (remap.h). */
#include <stdlib.h>
#include <string.h>
#include "lint/remap.h"
#include "config/registry.h"
#include "lint/suppress.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Moves finding p to where o's bytes are. */
static void place(sl_finding *p, const sl_kustomize_origin *o)
{
	p->path = o->src->path;
	p->offset = o->start;
	p->length = o->end > o->start ? o->end - o->start : 0;
	sl_source_position(o->src, o->start, &p->line, &p->column);
	sl_source_position(o->src, o->end > o->start ? o->end : o->start, &p->end_line,
			   &p->end_column);
	p->fix = NULL;
}

/* Moves finding p, whose node came from no file's bytes, to the overlay's kustomization (its
** path is p's already) as a finding about the file, with no line of its own: the built text's
** position names no line there, and the full text output shows none for it (text.c). */
static sl_err place_nowhere(sl_finding *p, sl_arena *a)
{
	p->offset = p->length = 0;
	p->line = p->column = p->end_line = p->end_column = 1;
	p->document = -1;
	p->fix = NULL;
	const char *why = "the build made its node from no line of any file: it is reported at the "
			  "overlay's kustomization";
	const char *notes = p->notes ? sl_arena_printf(a, "%s\n%s", p->notes, why) : why;
	if (!notes)
		return SL_ENOMEM;
	p->notes = notes;
	return SL_OK;
}

/* Whether a finding at o is kept: always, unless only (then when it is in one of the files
** named); *name: the name the run gives the file when it is one (as[i] for named[i]), else
** NULL. */
static bool kept(const sl_kustomize_origin *o, const char *const *named, const char *const *as,
		 size_t n_named, bool only, const char **name)
{
	*name = NULL;
	const char *real = n_named ? o->real : NULL;
	const char *const *at = real ? bsearch(&real, named, n_named, sizeof *named, cmp_str) : NULL;
	if (at)
		*name = as[at - named];
	return !only || at != NULL;
}

sl_err sl_remap_kustomize(const sl_kustomize *k, sl_file *f)
{
	const sl_kustomize_build *b = f->build;
	bool only = f->only_named;
	const char *const *named, *const *as;
	size_t n_named;
	sl_kustomize_named(k, &named, &as, &n_named);
	const char *name;
	size_t w = 0;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_finding *p = &f->findings[i]->pub;
		sl_kustomize_origin o = sl_kustomize_origin_of(b, p->offset, p->length);
		if (!kept(&o, named, as, n_named, only, &name))
			continue;   /* in a file the run does not report */
		if (o.src) {
			place(p, &o);
			p->path = name ? name : p->path;
			/* the comments of a base or patch are not in the built text: read here, unless
			** the file is the run's (passes.c applies its directives as a plain file's) */
			bool hit = false;
			sl_err err = o.tree && !name ? sl_suppress_covers(o.src, o.tree, p->line,
									 f->findings[i]->rule_index, &hit)
						     : SL_OK;
			if (err)
				return err;
			if (hit)
				continue;   /* dropped: its line says so */
		} else if (place_nowhere(p, f->arena)) {
			return SL_ENOMEM;
		}
		f->findings[w++] = f->findings[i];
		const char *notes = sl_arena_printf(f->arena, "%s%sin overlay %s (built by schedlint "
						    "as kustomize builds it; the line is the base, "
						    "patch or kustomization line that produced the "
						    "node)", p->notes ? p->notes : "",
						    p->notes ? "\n" : "", sl_kustomize_build_dir(b));
		if (!notes)
			return SL_ENOMEM;
		p->notes = notes;
	}
	f->n_findings = w;
	for (size_t i = 0; i < sl_kustomize_n_issues(b); i++) {
		const char *rule, *msg, *notes;
		sl_kustomize_origin o;
		sl_kustomize_issue(b, i, &rule, &msg, &notes, &o);
		if (!kept(&o, named, as, n_named, only, &name))
			continue;
		msg = sl_arena_strndup(f->arena, msg, strlen(msg));   /* outlives b */
		const char *kept_notes = notes ? sl_arena_strndup(f->arena, notes, strlen(notes)) : NULL;
		if (!msg || (notes && !kept_notes))
			return SL_ENOMEM;
		sl_frec *r = sl_engine_record(f, sl_registry_find(rule), 0, 0, 0, "", msg, NULL, NULL);
		if (!r) {
			if (f->oom)
				return SL_ENOMEM;
			continue;
		}
		r->pub.notes = kept_notes;
		if (o.src)
			place(&r->pub, &o);
		else if (place_nowhere(&r->pub, f->arena))
			return SL_ENOMEM;
		r->pub.path = name ? name : r->pub.path;
	}
	return f->oom;
}

sl_err sl_remap_helm(sl_helm *h, sl_file *f)
{
	if (!f->src || !f->n_findings)
		return SL_OK;
	sl_finding **v = sl_xmalloc(f->n_findings * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	for (size_t i = 0; i < f->n_findings; i++)
		v[i] = &f->findings[i]->pub;
	sl_err err = sl_helm_remap(h, f->src, v, f->n_findings, f->arena);
	free(v);
	return err;
}
