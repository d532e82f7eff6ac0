/* SPDX-License-Identifier: Apache-2.0
** engine.c: runs the rules. Pass 1 parses a file into its tree and objects (yaml-syntax,
** duplicate-key and schema-type findings come from there); pass 2 calls every enabled rule on
** every object and unit. The sl_ctx handed to rules carries the file, the object and unit under
** check and the running rule, so a report needs only a node and a message. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster.h"
#include "engine.h"
#include "helm.h"
#include "registry.h"

#define SL_STR_(x) #x
#define SL_STR(x) SL_STR_(x)

/* --- recording findings -------------------------------------------------------------------- */

static int push_finding(sl_file *f, sl_frec *rec)
{
	if (f->n_findings == f->cap_findings) {
		size_t ncap = f->cap_findings ? f->cap_findings * 2 : 16;
		sl_frec **nf = sl_xrealloc(f->findings, ncap * sizeof *nf);
		if (!nf)
			return -1;
		f->findings = nf;
		f->cap_findings = ncap;
	}
	f->findings[f->n_findings++] = rec;
	return 0;
}

/* Records a finding of rule ri over bytes [start,end) of f; NULL when the rule is off. */
size_t sl_engine_first_line_chars(const char *s)
{
	size_t n = 0;
	for (; s && *s && *s != '\n'; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* message's first line cut to SL_FIRST_LINE_MAX characters at a word, with "…" (arena a); NULL
** when it fits (or memory ran out: the message is kept whole then). */
static char *cut_first_line(sl_arena *a, const char *message)
{
	if (sl_engine_first_line_chars(message) <= SL_FIRST_LINE_MAX)
		return NULL;
	size_t at = 0, chars = 0, space = 0;
	for (; message[at] && chars < SL_FIRST_LINE_MAX - 1; at++) {
		if (((unsigned char)message[at] & 0xC0) != 0x80)
			chars++;
		if (message[at] == ' ')
			space = at;
	}
	while (((unsigned char)message[at] & 0xC0) == 0x80)
		at--;   /* never inside a code point */
	if (space > at / 2)
		at = space;   /* at a word, unless that throws half the line away */
	while (at > 0 && (message[at - 1] == ' ' || message[at - 1] == ',' || message[at - 1] == ';'))
		at--;
	return sl_arena_printf(a, "%.*s\u2026", (int)at, message);
}

sl_frec *sl_engine_record(sl_file *f, int ri, unsigned doc, size_t start, size_t end,
		       const char *pointer, const char *message, const sl_object *obj,
		       const sl_unit *unit)
{
	if (ri < 0 || f->scope->severity[ri] == SL_SEV_OFF || f->capped)
		return NULL;
	if (f->n_findings >= SL_FINDINGS_MAX) {
		/* the last finding of the file says the report stops here */
		f->capped = true;
		message = "too many findings in this file: the report stops after "
			  SL_STR(SL_FINDINGS_MAX) " of them; fix those and run again for the rest";
		pointer = NULL;
	}
	sl_frec *rec = sl_arena_zalloc(f->arena, sizeof *rec);
	if (!rec) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	sl_finding *p = &rec->pub;
	rec->rule_index = ri;
	p->rule = sl_registry_at(ri)->rule->id;
	p->severity = f->scope->severity[ri];
	p->message = message;
	char *cut = cut_first_line(f->arena, message);
	if (cut) {
		p->message = cut;
		p->notes = message;   /* the whole line, first of the notes */
	}
	p->path = f->path;
	p->offset = start;
	p->length = end > start ? end - start : 0;
	sl_source_position(f->src, start, &p->line, &p->column);
	sl_source_position(f->src, end > start ? end : start, &p->end_line, &p->end_column);
	p->pointer = pointer ? pointer : "";
	p->document = (int)doc;
	if (obj) {
		p->api_version = obj->api_version;
		p->kind = obj->kind_name;
		p->namespace_ = obj->namespace_;
		p->name = obj->name;
	}
	if (unit)
		p->unit = unit->name;
	rec->unit = unit;
	if (push_finding(f, rec) < 0) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	return f->capped ? NULL : rec;   /* the last one carries no fix */
}

struct parse_payload {
	sl_engine *e;
	sl_file *f;
	const sl_object *obj;
	sl_frec *last;   /* the parser's last issue, NULL when its rule is off */
};

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			  const char *message)
{
	struct parse_payload *pp = payload;
	if (strcmp(rule, "yaml-syntax") == 0)
		pp->f->broken = true;
	char *msg = sl_arena_strndup(pp->f->arena, message, strlen(message));
	if (!msg) {
		pp->f->oom = SL_ENOMEM;
		return;
	}
	pp->last = sl_engine_record(pp->f, sl_registry_find(rule), doc, start, end, "", msg,
				    NULL, NULL);
}

/* Gives rec a safe fix of one edit: bytes [offset, offset + length) of f replaced by content.
** False when out of memory. */
static bool attach_edit(sl_file *f, sl_frec *rec, size_t offset, size_t length, const char *content,
			const char *message)
{
	sl_edit *ed = sl_arena_zalloc(f->arena, sizeof *ed);
	if (!ed)
		return false;
	uint32_t line = 0, col = 0, eline = 0, ecol = 0;
	sl_source_position(f->src, offset, &line, &col);
	sl_source_position(f->src, offset + length, &eline, &ecol);
	ed->path = f->path;
	ed->file = f;
	ed->offset = offset;
	ed->length = length;
	ed->content = content;
	ed->line = line;
	ed->column = col;
	ed->end_line = eline;
	ed->end_column = ecol;
	rec->edits = ed;
	rec->cap_edits = 1;
	rec->fix.applicability = SL_FIX_SAFE;
	rec->fix.message = message;
	rec->fix.edits = ed;
	rec->fix.n_edits = 1;
	rec->pub.fix = &rec->fix;
	return true;
}

static void on_model_issue(void *payload, const char *rule, const sl_node *at, const char *message,
			   int quote_fix)
{
	struct parse_payload *pp = payload;
	sl_file *f = pp->f;
	char *ptr = sl_node_pointer(at, f->arena);
	sl_frec *rec = sl_engine_record(f, sl_registry_find(rule), sl_node_doc(at) ? sl_node_doc(at)->index : 0,
			      at->start, at->end, ptr, message, pp->obj, NULL);
	if (!rec || !quote_fix)
		return;
	/* Quoting a plain bool/number keeps its text and makes it a string. */
	const char *q = sl_arena_printf(f->arena, "\"%.*s\"", (int)(at->end - at->start),
					f->src->data + at->start);
	if (!q || !attach_edit(f, rec, at->start, at->end - at->start, q, "quote the value"))
		f->oom = SL_ENOMEM;
}

/* The parser's fix for the issue it reported last: an insertion. */
static void on_tree_fix(void *payload, size_t at, const char *text, const char *message)
{
	struct parse_payload *pp = payload;
	sl_file *f = pp->f;
	if (!pp->last)
		return;
	const char *t = sl_arena_strndup(f->arena, text, strlen(text));
	if (!t || !attach_edit(f, pp->last, at, 0, t, message))
		f->oom = SL_ENOMEM;
	pp->last = NULL;
}

sl_err sl_engine_read(sl_file *f, bool text_only)
{
	if (!f->src && f->on_disk && !f->error) {
		/* Read here, on the pass's threads, rather than when the path was added. */
		sl_err err = text_only ? sl_source_read_text(f->path, f->path, &f->src)
				       : sl_source_read_file(f->path, f->path, &f->src);
		if (f->src) {
			f->src->owner = f;
			f->stamp = f->src->stamp;
		}
		if (err == SL_EIO) {
			if (asprintf(&f->error, "cannot read: %s", sl_source_strerror(errno)) < 0) {
				f->error = NULL;
				return SL_ENOMEM;
			}
			return SL_OK;
		}
		return err;
	}
	return SL_OK;
}

sl_index sl_engine_index_view(const sl_engine *e, const sl_file *f)
{
	/* read-only: the tables are shared, only the config differs; a build sees its own */
	sl_index view = f->view && f->view <= e->n_views ? e->views[f->view - 1] : e->index;
	view.cfg = f->scope->cfg;
	view.default_mode_config = f->scope->default_mode_config;
	return view;
}

bool sl_engine_waits(sl_engine *e, sl_file *f)
{
	sl_index view = sl_engine_index_view(e, f);
	struct sl_ctx ctx = {.eng = e, .file = f, .index = &view};
	for (size_t ri = 0; ri < sl_registry_n(); ri++) {
		const struct sl_rule *r = sl_registry_at(ri)->rule;
		if (!r->waits_for_units || f->scope->severity[ri] == SL_SEV_OFF)
			continue;
		ctx.rule_index = (int)ri;
		for (size_t oi = 0; oi < f->n_objects; oi++) {
			ctx.obj = f->objects[oi];
			for (size_t ui = 0; ui < ctx.obj->n_units; ui++) {
				ctx.unit = &ctx.obj->units[ui];
				if (r->waits_for_units(&ctx, ctx.unit))
					return true;
			}
		}
	}
	return false;
}

sl_err sl_engine_parse(sl_engine *e, sl_file *f)
{
	sl_err err = sl_engine_read(f, false);
	if (err || !f->src || (err = sl_source_index(f->src)))
		return err;
	/* The caller's (empty) arena, a thread's scratch one when streaming; else a new arena whose
	** first chunk suits the file: its tree and objects take about 7-8 times the text. */
	if (!f->arena && !(f->arena = sl_arena_new_sized(f->src->len * 8)))
		return SL_ENOMEM;
	struct parse_payload pp = {e, f, NULL, NULL};
	f->broken = false;
	err = sl_tree_parse_fixing(f->src, f->arena, &f->tree, on_tree_issue, on_tree_fix, &pp);
	if (err)
		return err;
	if (f->tree.n_docs) {
		f->objects = sl_arena_alloc(f->arena, f->tree.n_docs * sizeof *f->objects);
		if (!f->objects)
			return SL_ENOMEM;
	}
	f->documents = f->tree.n_indices;
	const char *chart_msg;
	const sl_node *chart = sl_helm_chart_notice(f->path, &f->tree, f->arena, &chart_msg);
	if (chart && !chart_msg)
		return SL_ENOMEM;
	if (chart)
		sl_engine_record(f, sl_registry_find("helm-chart-not-rendered"), 0, chart->start,
				 chart->end, sl_node_pointer(chart, f->arena), chart_msg, NULL, NULL);
	sl_model_ctx mc = {.arena = f->arena, .cfg = f->scope->cfg, .path = f->path,
			   .issue = on_model_issue, .payload = &pp};
	for (size_t i = 0; i < f->tree.n_docs; i++) {
		sl_object *o = NULL;
		size_t first = f->n_findings;
		err = sl_object_bind(&mc, f->tree.docs[i], &o);
		if (err)
			return err;
		if (!o)
			continue;
		f->objects[f->n_objects++] = o;
		/* Binding reported before the object was whole: name it now. */
		for (size_t j = first; j < f->n_findings; j++) {
			sl_finding *p = &f->findings[j]->pub;
			p->api_version = o->api_version;
			p->kind = o->kind_name;
			p->namespace_ = o->namespace_;
			p->name = o->name;
		}
	}
	return f->oom;
}

/* True when some line of causes a is a line of b. */
static bool causes_meet(const char *a, const char *b)
{
	for (; a && *a;) {
		size_t n = strcspn(a, "\n");
		for (const char *c = b; c && *c;) {
			size_t m = strcspn(c, "\n");
			if (m == n && memcmp(a, c, n) == 0)
				return true;
			c += m + (c[m] == '\n');
		}
		a += n + (a[n] == '\n');
	}
	return false;
}

/* True when rule r names id among the rules it yields to. */
static bool yields_to(const struct sl_rule *r, const char *id)
{
	for (size_t i = 0; r->yields_to && r->yields_to[i]; i++)
		if (strcmp(r->yields_to[i], id) == 0)
			return true;
	return false;
}

/* The finding of f that rec yields to, or NULL. */
static sl_frec *taker(sl_file *f, const sl_frec *rec)
{
	const struct sl_rule *r = sl_registry_at((size_t)rec->rule_index)->rule;
	if (!r->yields_to || !rec->causes || !rec->unit)
		return NULL;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_frec *o = f->findings[i];
		const struct sl_rule *or = sl_registry_at((size_t)o->rule_index)->rule;
		if (o != rec && o->unit == rec->unit && yields_to(r, or->id) &&
		    !yields_to(or, r->id) && causes_meet(rec->causes, o->causes))
			return o;
	}
	return NULL;
}

sl_err sl_engine_yield(sl_file *f)
{
	size_t w = 0;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_frec *rec = f->findings[i];
		sl_frec *to = taker(f, rec);
		if (!to) {
			f->findings[w++] = rec;
			continue;
		}
		const char *n = sl_arena_printf(f->arena, "%s%s%s, for the same cause: %s%s%s",
						 to->pub.notes ? to->pub.notes : "",
						 to->pub.notes ? "\n" : "", rec->pub.rule,
						 rec->pub.message, rec->pub.notes ? "\n" : "",
						 rec->pub.notes ? rec->pub.notes : "");
		if (!n)
			return SL_ENOMEM;
		to->pub.notes = n;
		if (rec->pub.severity > to->pub.severity)
			to->pub.severity = rec->pub.severity;
	}
	f->n_findings = w;
	return SL_OK;
}

bool sl_engine_admits(const struct sl_rule *r, sl_kind k, sl_mode m)
{
	return (!r->kinds || (r->kinds & SL_KIND_BIT(k))) && (!r->modes || (r->modes & SL_MODE_BIT(m)));
}

sl_err sl_engine_check(sl_engine *e, sl_file *f)
{
	if (!f->src)
		return SL_OK;   /* it could not be read: its error is recorded */
	sl_index view = sl_engine_index_view(e, f);
	struct sl_ctx ctx = {.eng = e, .file = f, .index = &view};
	/* the cluster's default KServe mode is known once every file is indexed */
	sl_mode def = sl_cluster_kserve_default_mode(&view, NULL);
	for (size_t oi = 0; oi < f->n_objects; oi++)
		sl_object_default_mode(f->objects[oi], def);
	for (size_t oi = 0; oi < f->n_objects; oi++) {
		const sl_object *o = f->objects[oi];
		ctx.obj = o;
		ctx.labels = NULL;
		ctx.placements = NULL;
		ctx.object_cache = NULL;
		for (size_t ri = 0; ri < sl_registry_n(); ri++) {
			const struct sl_rule *r = sl_registry_at(ri)->rule;
			if (f->scope->severity[ri] == SL_SEV_OFF)
				continue;
			ctx.rule_index = (int)ri;
			if (r->check_object && sl_engine_admits(r, o->kind, o->mode)) {
				ctx.unit = NULL;
				sl_err err = r->check_object(&ctx, o);
				if (err)
					return err;
			}
			if (r->check_unit) {
				for (size_t ui = 0; ui < o->n_units; ui++) {
					/* no pod, no placement: modelmesh-placement-ignored says so */
					if ((sl_unit_builds_no_pod(&o->units[ui]) && !r->podless_units) ||
					    !sl_engine_admits(r, o->kind, o->units[ui].mode))
						continue;
					ctx.unit = &o->units[ui];
					sl_err err = r->check_unit(&ctx, ctx.unit);
					if (err)
						return err;
				}
			}
		}
	}
	return f->oom;
}
