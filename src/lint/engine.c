/* SPDX-License-Identifier: Apache-2.0
** engine.c: runs the rules. Pass 1 parses a file into its tree and objects (yaml-syntax,
** duplicate-key and schema-type findings come from there); pass 2 calls every enabled rule on
** every object and unit. The sl_ctx handed to rules carries the file, the object and unit under
** check and the running rule, so a report needs only a node and a message. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "sched/cluster.h"
#include "sched/merge.h"
#include "lint/engine.h"
#include "render/helm.h"
#include "render/knode.h"
#include "render/kustomize/kustomize.h"
#include "sched/pool.h"
#include "config/registry.h"
#include "yaml/excerpt.h"
#include "yaml/template.h"

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

/* s copied into a (NULL stays NULL); *ok false when out of memory. */
static const char *keep_str(sl_arena *a, const char *s, bool *ok)
{
	char *c = s ? sl_arena_strndup(a, s, strlen(s)) : NULL;
	*ok &= !s || c;
	return c;
}

bool sl_engine_place(sl_file *f, sl_arena *a, unsigned doc, size_t start, size_t end,
		     const char *pointer, const sl_object *obj, const sl_unit *unit, sl_place *at)
{
	bool ok = true;
	*at = (sl_place){.start = start, .end = end, .doc = doc};
	sl_source_position(f->src, start, &at->line, &at->column);
	sl_source_position(f->src, end > start ? end : start, &at->end_line, &at->end_column);
	at->pointer = keep_str(a, pointer, &ok);
	if (obj) {
		at->api_version = keep_str(a, obj->api_version, &ok);
		at->kind = keep_str(a, obj->kind_name, &ok);
		at->namespace_ = keep_str(a, obj->namespace_, &ok);
		at->name = keep_str(a, obj->name, &ok);
	}
	if (unit)
		at->unit = keep_str(a, unit->name, &ok);
	return ok;
}

sl_frec *sl_engine_record(sl_file *f, int ri, unsigned doc, size_t start, size_t end,
		       const char *pointer, const char *message, const sl_object *obj,
		       const sl_unit *unit)
{
	if (ri < 0 || f->scope->severity[ri] == SL_SEV_OFF || f->capped)
		return NULL;
	sl_place at = {.start = start, .end = end, .doc = doc, .pointer = pointer};
	sl_source_position(f->src, start, &at.line, &at.column);
	sl_source_position(f->src, end > start ? end : start, &at.end_line, &at.end_column);
	if (obj) {
		at.api_version = obj->api_version;
		at.kind = obj->kind_name;
		at.namespace_ = obj->namespace_;
		at.name = obj->name;
	}
	at.unit = unit ? unit->name : NULL;
	return sl_engine_record_at(f, ri, &at, message, unit);
}

sl_frec *sl_engine_record_at(sl_file *f, int ri, const sl_place *at, const char *message,
			     const sl_unit *unit)
{
	if (ri < 0 || f->scope->severity[ri] == SL_SEV_OFF || f->capped)
		return NULL;
	const char *pointer = at->pointer;
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
	const struct sl_rule *rule = sl_registry_at(ri)->rule;
	p->rule = rule->id;
	/* a notice is on or off: the severity a config gives it only turns it on */
	p->severity = rule->notice[0] ? SL_SEV_INFO : f->scope->severity[ri];
	/* what every producer's message and the object's names may quote whole, cut (the SDK
	** cuts as it formats; this bounds the rest) */
	if (!(message = sl_arena_cut(f->arena, message, SL_MESSAGE_MAX))) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	p->message = message;
	char *cut = cut_first_line(f->arena, message);
	if (cut) {
		p->message = cut;
		p->notes = message;   /* the whole line, first of the notes */
	}
	p->path = f->path;
	p->offset = at->start;
	p->length = at->end > at->start ? at->end - at->start : 0;
	p->line = at->line;
	p->column = at->column;
	p->end_line = at->end_line;
	p->end_column = at->end_column;
	p->pointer = pointer ? pointer : "";
	p->document = (int)at->doc;
	if (at->kind || at->api_version || at->namespace_ || at->name) {
		p->api_version = sl_arena_cut(f->arena, at->api_version, SL_QUOTED_MAX);
		p->kind = sl_arena_cut(f->arena, at->kind, SL_QUOTED_MAX);
		p->namespace_ = sl_arena_cut(f->arena, at->namespace_, SL_QUOTED_MAX);
		p->name = sl_arena_cut(f->arena, at->name, SL_QUOTED_MAX);
	}
	if (at->unit)
		p->unit = sl_arena_cut(f->arena, at->unit, SL_QUOTED_MAX);
	rec->unit = unit;
	if (push_finding(f, rec) < 0) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	f->recorded++;
	return f->capped ? NULL : rec;   /* the last one carries no fix */
}

/* A YAML syntax problem of the file, whether or not yaml-syntax reports it: the template check
** looks for a marker next to each. */
struct syntax_issue {
	size_t at;       /* where it is judged; (size_t)-1 once found away from every marker */
	sl_frec *rec;    /* its finding, NULL when yaml-syntax is off */
};

struct parse_payload {
	sl_engine *e;
	sl_file *f;
	const sl_excerpt *x;   /* while the parse reads an excerpt of f's text: its offsets */
	const sl_object *obj;
	sl_frec *last;   /* the parser's last issue, NULL when its rule is off */
	struct syntax_issue *syntax;
	size_t n_syntax;
	sl_template_evidence typed;   /* the binder's: a placeholder in a typed field */
};

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			  const char *message)
{
	struct parse_payload *pp = payload;
	char *msg = sl_arena_strndup(pp->f->arena, message, strlen(message));
	if (!msg) {
		pp->f->oom = SL_ENOMEM;
		return;
	}
	/* the text parsed: f's, or an excerpt of it with f's lines (start is in it) */
	const sl_source *text = pp->x ? sl_excerpt_text(pp->x) : pp->f->src;
	pp->last = sl_engine_record(pp->f, sl_registry_find(rule), doc,
				    pp->x ? sl_excerpt_offset(pp->x, start) : start,
				    pp->x ? sl_excerpt_offset(pp->x, end) : end, "", msg, NULL, NULL);
	if (strcmp(rule, "yaml-syntax") != 0)
		return;
	pp->f->broken = true;
	struct syntax_issue *ns = !sl_doubling_full(pp->n_syntax) ? pp->syntax
		: sl_xrealloc(pp->syntax, sl_doubling_cap(pp->n_syntax) * sizeof *ns);
	if (!ns) {
		pp->f->oom = SL_ENOMEM;
		return;
	}
	pp->syntax = ns;
	/* Text that ran to the end of the file is judged where it began (the message's "that started
	** at line L, column C"): the last line is next to nothing that made it. So is a problem
	** found only after the file's last non-blank byte (a simple key that never got its ':'). */
	const char *began = strstr(message, " that started at line ");
	unsigned line, col;
	size_t tail = text->len;
	while (tail > 0 && strchr(" \t\r\n", text->data[tail - 1]))
		tail--;
	if ((strstr(message, "unexpected end of stream") || start >= tail) && began &&
	    sscanf(began, " that started at line %u, column %u", &line, &col) == 2 && line && col)
		start = sl_source_mark_offset(text, line - 1, col - 1);
	if (pp->x)
		start = sl_excerpt_offset(pp->x, start);
	pp->syntax[pp->n_syntax++] = (struct syntax_issue){start, pp->last};
}

sl_edit *sl_engine_edit(sl_file *f, sl_frec *rec, const sl_file *target)
{
	if (rec->fix.n_edits == rec->cap_edits) {
		size_t ncap = rec->cap_edits ? rec->cap_edits * 2 : 1;
		sl_edit *ne = sl_arena_alloc(f->arena, ncap * sizeof *ne);
		const sl_file **nf = sl_arena_alloc(f->arena, ncap * sizeof *nf);
		if (!ne || !nf)
			return NULL;
		if (rec->fix.n_edits) {
			memcpy(ne, rec->edits, rec->fix.n_edits * sizeof *ne);
			memcpy(nf, rec->edit_files, rec->fix.n_edits * sizeof *nf);
		}
		rec->edits = ne;
		rec->edit_files = nf;
		rec->cap_edits = ncap;
	}
	rec->fix.edits = rec->edits;
	rec->edit_files[rec->fix.n_edits] = target;
	sl_edit *ed = &rec->edits[rec->fix.n_edits];
	*ed = (sl_edit){.path = target->path};
	return ed;
}

/* Gives rec a safe fix of one edit: bytes [offset, offset + length) of f replaced by content.
** False when out of memory. */
static bool attach_edit(sl_file *f, sl_frec *rec, size_t offset, size_t length, const char *content,
			const char *message)
{
	sl_edit *ed = sl_engine_edit(f, rec, f);
	if (!ed)
		return false;
	uint32_t line = 0, col = 0, eline = 0, ecol = 0;
	sl_source_position(f->src, offset, &line, &col);
	sl_source_position(f->src, offset + length, &eline, &ecol);
	ed->offset = offset;
	ed->length = length;
	ed->content = content;
	ed->line = line;
	ed->column = col;
	ed->end_line = eline;
	ed->end_column = ecol;
	rec->fix.applicability = SL_FIX_SAFE;
	rec->fix.message = message;
	rec->fix.n_edits = 1;
	rec->pub.fix = &rec->fix;
	return true;
}

static void on_model_issue(void *payload, const char *rule, const sl_node *at, const char *message,
			   int quote_fix)
{
	struct parse_payload *pp = payload;
	sl_file *f = pp->f;
	if (strcmp(rule, "template-not-rendered") == 0) {   /* evidence, not a finding */
		sl_template_marker m;
		if (!pp->typed.found && sl_template_find(f->src->data + at->start, at->end - at->start, &m))
			pp->typed = (sl_template_evidence){true,
				{at->start + m.start, at->start + m.end, m.family},
				message};
		return;
	}
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
	if (pp->x)
		at = sl_excerpt_offset(pp->x, at);
	if (!t || !attach_edit(f, pp->last, at, 0, t, message))
		f->oom = SL_ENOMEM;
	pp->last = NULL;
}

static sl_err bind(sl_engine *e, sl_file *f, struct parse_payload *pp);

/* Drops f's findings for which drop(rec, ctx) holds. */
static void drop_findings(sl_file *f, bool (*drop)(const sl_frec *rec, const void *ctx),
			  const void *ctx)
{
	size_t w = 0;
	for (size_t i = 0; i < f->n_findings; i++)
		if (!drop(f->findings[i], ctx))
			f->findings[w++] = f->findings[i];
	f->n_findings = w;
}

static bool every(const sl_frec *rec, const void *ctx)
{
	(void)rec;
	(void)ctx;
	return true;
}

/* One of the syntax problems the template check excused. */
static bool excused(const sl_frec *rec, const void *ctx)
{
	const struct parse_payload *pp = ctx;
	for (size_t i = 0; rec && i < pp->n_syntax; i++)
		if (pp->syntax[i].rec == rec && pp->syntax[i].at != (size_t)-1)
			return true;
	return false;
}

/* Keeps ev, the earlier of two pieces of evidence. */
static void earliest(sl_template_evidence *ev, const sl_template_evidence *other)
{
	if (other->found && (!ev->found || other->m.start < ev->m.start))
		*ev = *other;
}

/* Whether f is a template rather than a manifest (template.h): evidence (a syntax problem next
** to a marker, a marker where a manifest has none, a placeholder in a typed field) and no
** syntax problem away from every marker. A template gets one template-not-rendered notice at
** the first evidence, and nothing else: its other findings and its objects go, and no fix may
** touch it. A file with evidence and a real syntax error keeps that error, and loses the
** problems the markers made. The rendered output of a chart and a Kustomize build are what
** they are: never judged. */
static sl_err judge_template(sl_engine *e, sl_file *f, struct parse_payload *pp)
{
	if (f->build || e->helm)
		return SL_OK;
	sl_template_evidence ev = {0}, one;
	bool real_error = false;
	for (size_t i = 0; i < pp->n_syntax; i++) {
		one = (sl_template_evidence){0};
		if (sl_template_near(f->src, pp->syntax[i].at, &one.m)) {
			one.found = true;
			one.why = sl_arena_printf(f->arena, "the YAML syntax error at line %zu is next to it",
						  sl_source_line_of(f->src, pp->syntax[i].at) + 1);
			earliest(&ev, &one);
		} else {
			real_error = true;
			pp->syntax[i].at = (size_t)-1;   /* not excused */
		}
	}
	earliest(&ev, &pp->typed);
	/* the objects are bound in document order, at most one a document: a cursor finds each
	** document's (a scan of them all for each would be documents x objects) */
	for (size_t d = 0, j = 0; d < f->tree.n_docs; d++) {
		const sl_object *o = j < f->n_objects && f->objects[j]->doc == f->tree.docs[d]
			? f->objects[j++] : NULL;
		if (sl_template_in_doc(f->src, f->tree.docs[d]->root, o != NULL,
				       o && o->kind == SL_KIND_LLM_INFERENCE_SERVICE_CONFIG, f->arena, &one)) {
			earliest(&ev, &one);
			break;   /* in document order: no later document has an earlier one */
		}
	}
	if (!ev.found)
		return SL_OK;
	if (real_error) {
		drop_findings(f, excused, pp);
		return SL_OK;
	}
	drop_findings(f, every, NULL);
	f->capped = false;
	/* Its node pools stay, for the inventory only: a NodePool whose "${INSTANCE_TYPE}" is not
	** a value yet is still a pool, its placeholders unknown (no rule judges them); without it
	** a unit meant for it would land nowhere. */
	size_t kept = 0;
	for (size_t j = 0; j < f->n_objects; j++)
		if (sl_pool_kind(f->objects[j]->kind))
			f->objects[kept++] = f->objects[j];
	f->n_objects = kept;
	f->templated = true;
	f->broken = true;
	const char *notes;
	const char *msg = sl_template_message(f->src, &ev, f->path, f->arena, &notes);
	if (!msg)
		return SL_ENOMEM;
	sl_frec *rec = sl_engine_record(f, sl_registry_find("template-not-rendered"), 0, ev.m.start,
					ev.m.end, "", msg, NULL, NULL);
	if (rec) {
		rec->pub.document = -1;   /* about the whole file */
		rec->pub.notes = notes;
	}
	return f->oom;
}

/* The symlink-outside-tree notice of a link a walk did not follow (sl_file.outside). */
static sl_err note_outside(sl_file *f)
{
	bool dir = f->outside == SL_OUTSIDE_DIR;
	const char *msg = sl_arena_printf(f->arena, "a symbolic link to a %s outside the directory "
					  "linted: not followed", dir ? "directory" : "file");
	if (!msg)
		return SL_ENOMEM;
	sl_frec *rec = sl_engine_record(f, sl_registry_find("symlink-outside-tree"), 0, 0, 0, "",
					msg, NULL, NULL);
	if (rec) {
		rec->pub.document = -1;   /* about the whole file */
		rec->pub.notes = dir ? "Nothing under it is read. To lint it, name its target on the "
				       "command line, or lint the directory that holds both."
				     : "It is not read. To lint it, name the link or its target on the "
				       "command line, or lint the directory that holds both.";
	}
	return f->oom;
}

sl_err sl_engine_read(sl_file *f, bool text_only)
{
	if (!f->src && f->build && !f->error) {   /* a kustomization's build: from its plan */
		char *text;
		size_t len;
		sl_err err = sl_kustomize_take_text(f->build, &text, &len);
		if (!err)
			err = sl_source_take_buffer(f->path, text, len, &f->src);
		if (f->src)
			f->src->owner = f;
		if (err == SL_EIO)   /* its spill file failed: the build is not linted, and says so */
			return (f->error = sl_xstrdup("cannot read the build back from its temporary "
						      "file")) ? SL_OK : SL_ENOMEM;
		return err;
	}
	if (!f->src && f->on_disk && !f->error) {
		/* Read here, on the pass's threads, rather than when the path was added. */
		f->disk_reads++;
		sl_err err = text_only ? sl_source_read_text(f->path, f->path, &f->src)
				       : sl_source_read_file(f->path, f->path, &f->src);
		if (f->src) {
			f->src->owner = f;
			f->stamp = f->src->stamp;
		}
		if (err == SL_EIO) {
			f->error = sl_xprintf("cannot read: %s", sl_source_strerror(errno));
			if (!f->error)
				return SL_ENOMEM;
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
	view.reads = f->reads;
	return view;
}

bool sl_engine_waits(sl_engine *e, sl_file *f)
{
	sl_regex_budget_grant(&e->regex_budget, f->src->len);   /* patterns' budget: regex.h */
	sl_index view = sl_engine_index_view(e, f);
	struct sl_ctx ctx = {.eng = e, .file = f, .index = &view};
	for (size_t ri = 0; ri < sl_registry_n(); ri++) {
		const struct sl_rule *r = sl_registry_at(ri)->rule;
		if (!r->waits_for_units || f->scope->severity[ri] == SL_SEV_OFF)
			continue;
		ctx.rule_index = (int)ri;
		ctx.rule = r;
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
	sl_excerpt *x = f->excerpt;   /* the text to parse in f's place, taken */
	f->excerpt = NULL;
	sl_err err = sl_engine_read(f, false);
	if (err || !f->src || (err = sl_source_index(f->src))) {
		sl_excerpt_free(x);
		return err;
	}
	atomic_fetch_add_explicit(&e->parses, 1, memory_order_relaxed);
	/* The caller's (empty) arena, a thread's scratch one when streaming; else a new arena whose
	** first chunk suits the file: its tree and objects take about 7-8 times the text. */
	if (!f->arena && !(f->arena = sl_arena_new_sized(f->src->len * 8))) {
		sl_excerpt_free(x);
		return SL_ENOMEM;
	}
	struct parse_payload pp = {e, f, x, NULL, NULL, NULL, 0, {0}};
	f->broken = false;
	f->templated = false;
	f->recorded = 0;
	/* a build's text is read back as the emitter wrote it (render/knode.h), libyaml spared;
	** an excerpt's tree is moved onto f's text before anything reads it */
	err = (f->build ? sl_knode_parse : sl_tree_parse_fixing)(x ? sl_excerpt_text(x) : f->src,
								 f->arena, &f->tree, on_tree_issue,
								 on_tree_fix, &pp);
	f->parsed += x ? sl_excerpt_text(x)->len : f->src->len;
	if (x)
		sl_excerpt_shift(x, &f->tree, f->src);
	sl_excerpt_free(x);
	pp.x = NULL;
	if (!err)
		err = bind(e, f, &pp);
	if (!err)
		err = judge_template(e, f, &pp);
	if (!err && f->outside)
		err = note_outside(f);
	free(pp.syntax);
	return err ? err : f->oom;
}

/* Binds f's documents into objects (schema-type findings, the binder's template evidence). */
static sl_err bind(sl_engine *e, sl_file *f, struct parse_payload *pp)
{
	(void)e;
	sl_err err;
	if (f->tree.n_docs) {
		f->objects = sl_arena_alloc(f->arena, f->tree.n_docs * sizeof *f->objects);
		if (!f->objects)
			return SL_ENOMEM;
	}
	f->documents = f->tree.n_indices;
	const char *chart_msg;
	const char *chart_note;
	const sl_node *chart = sl_helm_chart_notice(f->path, &f->tree, f->arena, &chart_msg,
						    &chart_note);
	if (chart && !chart_msg)
		return SL_ENOMEM;
	sl_frec *chart_rec = chart ? sl_engine_record(f, sl_registry_find("helm-chart-not-rendered"),
						      0, chart->start, chart->end,
						      sl_node_pointer(chart, f->arena), chart_msg,
						      NULL, NULL) : NULL;
	if (chart_rec)
		chart_rec->pub.notes = chart_note;   /* the way out */
	sl_model_ctx mc = {.arena = f->arena, .path = f->path, .issue = on_model_issue, .payload = pp,
			   .default_mode = sl_config_kserve_default_mode(f->scope->cfg)};
	size_t cap = f->tree.n_docs;
	for (size_t i = 0; i < f->tree.n_docs; i++) {
		const sl_doc *d = f->tree.docs[i];
		const sl_node *items = NULL;
		/* the document's object, then (a List, an OpenShift Template) each item's */
		for (size_t k = 0; k == 0 || k <= sl_seq_n(items); k++) {
			sl_object *o = NULL;
			size_t first = f->n_findings;
			bool typed = pp->typed.found;
			err = sl_object_bind_at(&mc, d, k ? sl_seq_item(items, k - 1) : d->root,
						(uint32_t)k, &o);
			if (err)
				return err;
			if (!o || (k && o->kind == SL_KIND_NODE))
				continue;   /* a node dump's nodes: the pools read them */
			if (!typed && o->kind == SL_KIND_LLM_INFERENCE_SERVICE_CONFIG)
				pp->typed.found = false;   /* KServe fills its templates itself */
			if (k == 0)
				items = sl_object_wrapped(&mc, o);
			if (f->n_objects == cap) {
				cap = 2 * cap + sl_seq_n(items);
				sl_object **nv = sl_arena_alloc(f->arena, cap * sizeof *nv);
				if (!nv)
					return SL_ENOMEM;
				memcpy(nv, f->objects, f->n_objects * sizeof *nv);
				f->objects = nv;
			}
			f->objects[f->n_objects++] = o;
			/* Binding reported before the object was whole: name it now. */
			for (size_t j = first; j < f->n_findings; j++) {
				sl_finding *p = &f->findings[j]->pub;
				p->api_version = o->api_version;
				p->kind = o->kind_name;
				p->namespace_ = sl_arena_cut(f->arena, o->namespace_, SL_QUOTED_MAX);
				p->name = sl_arena_cut(f->arena, o->name, SL_QUOTED_MAX);
			}
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
	return sl_engine_check_part(e, f, SL_CHECK_ALL, NULL);
}

/* Appends at, where a document starts, to *v (*n of them) unless it is the last one there. */
static sl_err note_waiting(size_t **v, size_t *n, size_t at)
{
	if (*n && (*v)[*n - 1] == at)
		return SL_OK;
	if (sl_doubling_full(*n)) {
		size_t *nv = sl_xrealloc(*v, sl_doubling_cap(*n) * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		*v = nv;
	}
	(*v)[(*n)++] = at;
	return SL_OK;
}

void sl_engine_split_free(sl_split *s)
{
	if (!s)
		return;
	free(s->waiting);
	free(s->whole);
	for (size_t k = 0; k < s->n_uses; k++)
		free(s->uses[k].name);
	free(s->uses);
	free(s->laters);
	sl_arena_free(s->arena);
	*s = (sl_split){0};
}

/* The condition (sl_frec.cond) of the findings on template o's use: a new key of split. 0 when
** out of memory. */
static uint32_t new_use(sl_split *split, const sl_object *o)
{
	if (split->n_uses >= UINT32_MAX - 1)
		return 0;
	if (sl_doubling_full(split->n_uses)) {
		sl_use_key *nv = sl_xrealloc(split->uses, sl_doubling_cap(split->n_uses) * sizeof *nv);
		if (!nv)
			return 0;
		split->uses = nv;
	}
	char *name = sl_xstrdup(o->name);
	if (!name)
		return 0;
	split->uses[split->n_uses++] = (sl_use_key){o->kind, name};
	return (uint32_t)split->n_uses;
}

void sl_engine_uses_settle(const sl_index *view, const sl_split *split, bool *used)
{
	for (size_t k = 0; k < split->n_uses; k++)
		used[k] = sl_index_template_name_used(view, split->uses[k].kind, split->uses[k].name);
}

bool sl_engine_cond_holds(const sl_frec *rec, const bool *used)
{
	return !rec->cond || used[rec->cond - 1] == rec->cond_used;
}

sl_err sl_engine_resume(sl_engine *e, sl_file *f, const sl_index *view, const sl_later *l)
{
	const struct sl_rule *r = sl_registry_at((size_t)l->rule_index)->rule;
	struct sl_ctx ctx = {.eng = e, .file = f, .index = view, .rule_index = l->rule_index,
			     .rule = r, .later = l};
	sl_err err = r->resume(&ctx, l->data);
	return err ? err : f->oom;
}

/* Resumes the checks ctx's check left in now (a check as one: every serving unit is known),
** in order, and empties it. */
static sl_err resume_now(sl_ctx *ctx, sl_split *now)
{
	sl_err err = SL_OK;
	for (size_t i = 0; i < now->n_laters && !err; i++)
		err = sl_engine_resume(ctx->eng, ctx->file, ctx->index, now->laters[i]);
	now->n_laters = 0;
	return err;
}

/* After run_check's check (which began with first findings) asked whether a unit uses its
** template or left checks to resume at once: see run_check. */
static sl_err after_check(sl_ctx *ctx, const struct sl_rule *r, const sl_unit *u, sl_split *split,
			  uint32_t *use, size_t first)
{
	sl_file *f = ctx->file;
	sl_err err = ctx->defer != split ? resume_now(ctx, ctx->defer) : SL_OK;
	if (err || !ctx->asked_use)
		return err;
	if (!*use && !(*use = new_use(split, ctx->obj)))
		return SL_ENOMEM;
	size_t second = f->n_findings;
	ctx->assume_used = true;
	err = u ? r->check_unit(ctx, u) : r->check_object(ctx, ctx->obj);
	ctx->assume_used = false;
	for (size_t i = first; i < f->n_findings; i++) {
		f->findings[i]->cond = *use;
		f->findings[i]->cond_used = i >= second;
	}
	return err;
}

/* One check of rule r: check_object on ctx->obj when u is NULL, else check_unit on u; what it
** left until every serving unit is known resumed at once unless ctx->defer is split. On a
** template whose use is not known yet (ctx->use_unknown), a check that asks runs again for the
** other answer: what each run reports is kept on its answer (cond, a key of split made on the
** first ask: *use). The common case, neither, costs a test at the call (it runs per rule and
** unit). */
static inline sl_err run_check(sl_ctx *ctx, const struct sl_rule *r, const sl_unit *u,
			       sl_split *split, uint32_t *use)
{
	size_t first = ctx->file->n_findings;
	ctx->asked_use = false;
	sl_err err = u ? r->check_unit(ctx, u) : r->check_object(ctx, ctx->obj);
	if (!err && (ctx->asked_use || (ctx->defer != split && ctx->defer->n_laters)))
		err = after_check(ctx, r, u, split, use, first);
	return err;
}

/* True when rule a yields to rule b or b to a (sl_rule.yields_to). */
static bool yield_related(int a, int b)
{
	const struct sl_rule *ra = sl_registry_at((size_t)a)->rule;
	const struct sl_rule *rb = sl_registry_at((size_t)b)->rule;
	return yields_to(ra, rb->id) || yields_to(rb, ra->id);
}

/* True when one of f's findings from first on is kept on a condition and another about the same
** unit comes from a rule its rule yields to or is yielded to: which of them stays is known only
** with the condition, and a split check's yields resolve within a part. */
static bool cond_meets_yield(const sl_file *f, size_t first)
{
	for (size_t i = first; i < f->n_findings; i++) {
		const sl_frec *a = f->findings[i];
		for (size_t j = first; a->unit && j < f->n_findings; j++) {
			const sl_frec *b = f->findings[j];
			if (j != i && (a->cond || b->cond) && b->unit == a->unit &&
			    yield_related(a->rule_index, b->rule_index))
				return true;
		}
	}
	return false;
}

/* True when at, where a document starts, is among v[0..n) (increasing). */
static bool noted(const size_t *v, size_t n, size_t at)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == at;
}

/* True when one of f's objects is a template (sl_merge_kind_is_template). */
static bool holds_template(const sl_file *f)
{
	for (size_t oi = 0; oi < f->n_objects; oi++)
		if (sl_merge_kind_is_template(f->objects[oi]->kind))
			return true;
	return false;
}

/* check_objects' walk over the objects, ctx made. */
/* A rule f's config enables: its index in the registry and the rule. */
struct enabled {
	size_t ri;
	const struct sl_rule *r;
};

/* The rules f's config enables, in the registry's order (the order findings are made in), into
** v (room for sl_registry_n()): the per-object loop below looks at these only. Their count. */
static size_t enabled_rules(const sl_file *f, struct enabled *v)
{
	size_t all = sl_registry_n(), k = 0;
	for (size_t ri = 0; ri < all; ri++)
		if (f->scope->severity[ri] != SL_SEV_OFF)
			v[k++] = (struct enabled){ri, sl_registry_at(ri)->rule};
	return k;
}

static sl_err check_rules(sl_ctx *ctx, sl_check_part part, sl_split *split,
			  const struct enabled *rules, size_t n_rules)
{
	sl_file *f = ctx->file;
	const sl_index *view = ctx->index;
	/* the cluster's default KServe mode is known once every file is indexed */
	sl_mode def = sl_cluster_kserve_default_mode(view, NULL);
	for (size_t oi = 0; oi < f->n_objects; oi++)
		sl_object_default_mode(f->objects[oi], def);
	/* a TrainJob's units are its runtime's replicated jobs, known once the runtimes are */
	for (size_t oi = 0; oi < f->n_objects; oi++) {
		sl_err err = sl_merge_complete(view, f->objects[oi], f->arena);
		if (err)
			return err;
	}
	for (size_t oi = 0; oi < f->n_objects; oi++) {
		const sl_object *o = f->objects[oi];
		size_t at = o->doc->root->start;
		/* a template whose checks all wait (SL_CHECK_NOW found its conditional findings meet
		** a yield) */
		bool all_wait = part == SL_CHECK_WAITING && noted(split->whole, split->n_whole, at);
		size_t first = f->n_findings, recorded = f->recorded;
		size_t laters = part == SL_CHECK_NOW ? split->n_laters : 0;
		uint32_t use = 0;
		ctx->obj = o;
		ctx->labels = NULL;
		ctx->placements = NULL;
		ctx->object_cache = NULL;
		/* whether a unit uses a template every file's serving facts tell, unless a unit of f's
		** own does, or it has no name (no unit can name it): those answers are final, and
		** both parts tell them alike */
		ctx->use_unknown = part == SL_CHECK_NOW && sl_merge_kind_is_template(o->kind) &&
				  o->name && !sl_index_template_used_here(view, o);
		for (size_t k = 0; k < n_rules; k++) {
			const struct sl_rule *r = rules[k].r;
			ctx->rule_index = (int)rules[k].ri;
			ctx->rule = r;
			if (part == SL_CHECK_WAITING && !r->waits_for_units && !all_wait)
				continue;
			if (r->check_object && (part != SL_CHECK_WAITING || all_wait) &&
			    sl_engine_admits(r, o->kind, o->mode)) {
				ctx->unit = NULL;
				sl_err err = run_check(ctx, r, NULL, split, &use);
				if (err)
					return err;
			}
			if (r->check_unit) {
				for (size_t ui = 0; ui < o->n_units; ui++) {
					/* no pod, no placement: modelmesh-placement-ignored says so */
					if ((sl_unit_builds_no_pod(&o->units[ui]) && !r->podless_units) ||
					    !sl_engine_admits(r, o->kind, o->units[ui].mode))
						continue;
					ctx->unit = &o->units[ui];
					/* a check that resumes once every serving unit is known
					** runs now (sl_ctx_defer) */
					bool waits = all_wait ||
						(part != SL_CHECK_ALL && !r->resume && r->waits_for_units &&
						 r->waits_for_units(ctx, ctx->unit));
					if (waits != (part == SL_CHECK_WAITING)) {
						sl_err err = !waits ? SL_OK
							: note_waiting(&split->waiting, &split->n_waiting, at);
						if (err)
							return err;
						continue;
					}
					sl_err err = run_check(ctx, r, ctx->unit, split, &use);
					if (err)
						return err;
				}
			}
		}
		/* a conditional finding that meets a yield, or a check that asked and deferred (its
		** later would be conditional too): its checks all wait, as if never run */
		if (use && (cond_meets_yield(f, first) || split->n_laters > laters)) {
			f->n_findings = first;
			f->recorded = recorded;
			split->n_laters = laters;
			sl_err err = note_waiting(&split->waiting, &split->n_waiting, at);
			if (!err)
				err = note_waiting(&split->whole, &split->n_whole, at);
			if (err)
				return err;
		}
	}
	ctx->use_unknown = false;
	return f->oom;
}

/* Every enabled rule over ctx's file's objects and units (check_rules). */
static sl_err check_each(sl_ctx *ctx, sl_check_part part, sl_split *split)
{
	struct enabled some[128], *rules = some;
	if (sl_registry_n() > sizeof some / sizeof *some &&
	    !(rules = sl_xmalloc(sl_registry_n() * sizeof *rules)))
		return SL_ENOMEM;
	sl_err err = check_rules(ctx, part, split, rules, enabled_rules(ctx->file, rules));
	if (rules != some)
		free(rules);
	return err;
}

/* sl_engine_check_part's rules over f's objects, with view. */
static sl_err check_objects(sl_engine *e, sl_file *f, sl_check_part part, sl_index *view,
			    sl_split *split)
{
	/* the checks left until every serving unit is known: for pass 3 in SL_CHECK_NOW, else
	** resumed as each check returns */
	sl_split now = {.arena = f->arena};
	struct sl_ctx ctx = {.eng = e, .file = f, .index = view,
			     .defer = part == SL_CHECK_NOW ? split : &now};
	sl_err err = check_each(&ctx, part, split);
	free(now.laters);
	return err;
}

sl_err sl_engine_check_part(sl_engine *e, sl_file *f, sl_check_part part, sl_split *split)
{
	if (!f->src || f->templated)
		return SL_OK;   /* it could not be read (its error is recorded), or it is a template */
	sl_regex_budget_grant(&e->regex_budget, f->src->len);   /* patterns' budget: regex.h */
	if (e->record_reads && !f->reads && !(f->reads = sl_xcalloc(1, sizeof *f->reads)))
		return SL_ENOMEM;
	sl_index view = sl_engine_index_view(e, f);
	/* the index's facts are every file's (passes.c), the view's own among them */
	bool own = part == SL_CHECK_NOW && !f->view && holds_template(f);
	sl_err err = own ? sl_index_view_own_uses(&view, f->facts, f->n_facts) : SL_OK;
	if (!err)
		err = check_objects(e, f, part, &view, split);
	if (own)
		sl_index_view_free_own_uses(&view);
	return err;
}
