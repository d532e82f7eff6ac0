/* SPDX-License-Identifier: Apache-2.0
** sdk.c: the rule SDK (rule.h), in its three parts: what a rule reads through its context, how
** it reports findings and notes, and the fix helpers that edit the original text. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "sdk/rule.h"
#include "config/registry.h"
#include "lint/engine.h"

/* A finding being reported: the engine's record, which the fix helpers add edits to. */
struct sl_report {
	sl_frec rec;
};

/* --- reading: the context, the unit and its template ------------------------------------------ */

const sl_config *sl_ctx_config(const sl_ctx *ctx) { return ctx->file->scope->cfg; }
const sl_index *sl_ctx_index(const sl_ctx *ctx) { return ctx->index; }
sl_arena *sl_ctx_arena(sl_ctx *ctx) { return ctx->file->arena; }
struct sl_regex_budget *sl_ctx_regex_budget(sl_ctx *ctx) { return &ctx->eng->regex_budget; }
const sl_source *sl_ctx_source(const sl_ctx *ctx) { return ctx->file->src; }
long long sl_ctx_unit_gpus(sl_ctx *ctx, const sl_unit *u) { return sl_gpu_unit_count(sl_ctx_config(ctx), u); }

/* What the SDK keeps while one object is checked, in the file's arena: ctx->object_cache, which
** the engine empties at each object. The slot of sl_ctx_object_cache, and each unit of obj
** merged over its template (sl_ctx_merged: asked for one unit by several built-in rules and the
** declared ones). */
struct object_memo {
	void *slot;
	const sl_object *obj;   /* whose units merged holds (sl_engine_waits moves ctx->obj alone) */
	sl_merged *merged;      /* per unit of obj; .unit NULL until made */
};

static struct object_memo *object_memo(sl_ctx *ctx)
{
	if (!ctx->object_cache)
		ctx->object_cache = sl_arena_zalloc(ctx->file->arena, sizeof(struct object_memo));
	return ctx->object_cache;
}

void **sl_ctx_object_cache(sl_ctx *ctx)
{
	struct object_memo *m = object_memo(ctx);
	return m ? &m->slot : NULL;
}
const struct sl_rule *sl_ctx_rule(const sl_ctx *ctx)
{
	return ctx->rule ? ctx->rule : sl_registry_at((size_t)ctx->rule_index)->rule;
}

const char *sl_ctx_label(sl_ctx *ctx, const sl_unit *u)
{
	const sl_object *o = ctx->obj;
	if (!o || u < o->units || u >= o->units + o->n_units)
		return sl_arena_cut(ctx->file->arena, sl_object_unit_label(u, ctx->file->arena),
				    2 * SL_QUOTED_MAX);
	/* rules ask for the label of the unit they check, often before they know they report */
	size_t i = (size_t)(u - o->units);
	if (!ctx->labels && !(ctx->labels = sl_arena_zalloc(ctx->file->arena,
							    o->n_units * sizeof *ctx->labels)))
		return NULL;
	if (!ctx->labels[i])   /* "Pod <a megabyte name>": cut, as it goes into every message */
		ctx->labels[i] = sl_arena_cut(ctx->file->arena, sl_object_unit_label(u, ctx->file->arena),
					      2 * SL_QUOTED_MAX);
	return ctx->labels[i];
}

/* A unit's placement, computed once for all the rules that ask. */
struct sl_ctx_placement {
	bool done;
	sl_placement p;
};

const sl_placement *sl_ctx_placement(sl_ctx *ctx, const sl_unit *u)
{
	const sl_object *o = ctx->obj;
	sl_placement *p;
	if (!o || u < o->units || u >= o->units + o->n_units) {   /* not the object's: once */
		p = sl_arena_alloc(ctx->file->arena, sizeof *p);
		if (!p || sl_placement_unit(ctx->index, u, ctx->file->arena, p) != SL_OK) {
			ctx->file->oom = SL_ENOMEM;
			return NULL;
		}
		return p->n ? p : NULL;
	}
	size_t i = (size_t)(u - o->units);
	if (!ctx->placements)
		ctx->placements = sl_arena_zalloc(ctx->file->arena,
						  o->n_units * sizeof *ctx->placements);
	if (!ctx->placements) {
		ctx->file->oom = SL_ENOMEM;
		return NULL;
	}
	struct sl_ctx_placement *c = &ctx->placements[i];
	if (!c->done) {
		if (sl_placement_unit(ctx->index, u, ctx->file->arena, &c->p) != SL_OK) {
			ctx->file->oom = SL_ENOMEM;
			return NULL;
		}
		c->done = true;
	}
	return c->p.n ? &c->p : NULL;
}

const char *sl_ctx_container_label(sl_ctx *ctx, const sl_container *c)
{
	const char *l;
	if (c->name)
		l = sl_arena_printf(ctx->file->arena, "%scontainer \"%s\"", c->init ? "init " : "",
				    sl_arena_cut(ctx->file->arena, c->name, SL_QUOTED_MAX));
	else if (c->node->parent && c->node->parent->type == SL_NODE_MAP)
		l = sl_scalar(sl_node_key(c->node));
	else
		l = sl_arena_printf(ctx->file->arena, "%scontainer #%u", c->init ? "init " : "",
				    c->node->pos + 1);
	return l ? l : "container";
}

bool sl_ctx_unit_is_used_template(sl_ctx *ctx, const sl_unit *u)
{
	if (!sl_merge_kind_is_template(u->obj->kind))
		return false;
	bool used = sl_index_template_used(ctx->index, u->obj);
	if (used || !ctx->use_unknown || u->obj != ctx->obj)
		return used;
	ctx->asked_use = true;   /* not known yet: the engine runs the check for both answers */
	return ctx->assume_used;
}

sl_merged sl_ctx_merged(sl_ctx *ctx, const sl_unit *u)
{
	const sl_object *o = ctx->obj;
	struct object_memo *m = o && u >= o->units && u < o->units + o->n_units ? object_memo(ctx) : NULL;
	if (m && m->obj != o) {
		m->obj = o;
		m->merged = NULL;
	}
	if (m && !m->merged)
		m->merged = sl_arena_zalloc(ctx->file->arena, o->n_units * sizeof *m->merged);
	if (!m || !m->merged)   /* another object's unit, or out of memory: merged afresh */
		return sl_merge_unit(ctx->index, u);
	sl_merged *e = &m->merged[u - o->units];
	if (!e->unit)
		*e = sl_merge_unit(ctx->index, u);
	return *e;
}

/* --- reporting: findings, notes, severity ----------------------------------------------------- */

/* True when doc is one of f's documents. Not f->tree.docs[doc->index]: docs holds only the
** documents that parsed while index counts the broken ones too, and a node from an earlier
** parse of the same file (pass 1's pools) is still this file's. */
static bool same_file(const sl_file *f, const sl_doc *doc)
{
	if (doc->src == f->src)
		return true;
	return doc->src && f->src && doc->src->path && f->src->path &&
	       strcmp(doc->src->path, f->src->path) == 0;
}

/* True when a finding of ctx's rule at `at` is recorded: the rule is on for the file, the file's
** report is not full (sl_engine_record), there is a node. Nothing of a finding that is not is
** formatted. */
static bool recorded(const sl_ctx *ctx, const sl_node *at)
{
	return ctx->file->scope->severity[ctx->rule_index] != SL_SEV_OFF && !ctx->file->capped && at;
}

/* Where a finding of ctx's check at `at` goes: a node of a template in another file (a TrainJob's
** runtime's containers) moves to the unit's own field that names it, its pointer with it. True
** when it moved. */
static bool place(const sl_ctx *ctx, const sl_node **at, const sl_node **ptr_node, const sl_doc **doc)
{
	const sl_file *f = ctx->file;
	*doc = sl_node_doc(*at);
	bool elsewhere = *doc && !same_file(f, *doc);
	if (elsewhere && ctx->unit && ctx->unit->pod && sl_node_doc(ctx->unit->pod) &&
	    same_file(f, sl_node_doc(ctx->unit->pod))) {
		*ptr_node = ctx->unit->pod;
		*at = sl_node_key(*ptr_node) ? sl_node_key(*ptr_node) : *ptr_node;
		*doc = sl_node_doc(*at);
		return true;
	}
	return false;
}

/* The note of a finding place() moved. */
static void note_moved(sl_ctx *ctx, sl_report *r)
{
	sl_report_note(ctx, r, "The field is the template's this unit is merged over (its runtime, "
		       "config or pod template), not among this file's lines.");
}

static sl_report *vreport(sl_ctx *ctx, const sl_node *at, const sl_node *ptr_node,
			  const char *fmt, va_list ap)
{
	sl_file *f = ctx->file;
	if (!recorded(ctx, at))
		return NULL;
	/* cut (SL_MESSAGE_MAX): a message quoting a megabyte name, for each of thousands of
	** findings, would take gigabytes */
	char *msg = sl_arena_vprintf_cut(f->arena, SL_MESSAGE_MAX, fmt, ap);
	if (!msg) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	const sl_doc *doc;
	bool moved = place(ctx, &at, &ptr_node, &doc);
	char *ptr = sl_node_pointer(ptr_node, f->arena);
	sl_frec *rec = sl_engine_record(f, ctx->rule_index, doc ? doc->index : 0, at->start,
					at->end, ptr, msg, ctx->obj, ctx->unit);
	if (rec && moved)
		note_moved(ctx, (sl_report *)rec);
	return (sl_report *)rec;
}

void *sl_ctx_defer(sl_ctx *ctx, const sl_node *at, size_t size)
{
	sl_file *f = ctx->file;
	sl_split *s = ctx->defer;
	if (!s || f->scope->severity[ctx->rule_index] == SL_SEV_OFF || !at)
		return NULL;
	if (!s->arena && !(s->arena = sl_arena_new()))
		goto oom;
	const sl_node *ptr_node = at;
	const sl_doc *doc;
	sl_later *l = sl_arena_zalloc(s->arena, sizeof *l);
	void *data = sl_arena_zalloc(s->arena, size ? size : 1);
	sl_later **nv = !sl_doubling_full(s->n_laters) ? s->laters
		: sl_xrealloc(s->laters, sl_doubling_cap(s->n_laters) * sizeof *nv);
	if (!l || !data || !nv)
		goto oom;
	s->laters = nv;
	l->elsewhere = place(ctx, &at, &ptr_node, &doc);
	char *ptr = sl_node_pointer(ptr_node, f->arena);
	if (!ptr || !sl_engine_place(f, s->arena, doc ? doc->index : 0, at->start, at->end, ptr,
				     ctx->obj, ctx->unit, &l->place))
		goto oom;
	l->rule_index = ctx->rule_index;
	l->unit = ctx->unit;
	l->data = data;
	s->laters[s->n_laters++] = l;
	return data;
oom:
	f->oom = SL_ENOMEM;
	return NULL;
}

const char *sl_ctx_defer_str(sl_ctx *ctx, const char *s)
{
	char *c = s && ctx->defer && ctx->defer->arena
		? sl_arena_strndup(ctx->defer->arena, s, strlen(s)) : NULL;
	if (s && !c)
		ctx->file->oom = SL_ENOMEM;
	return c;
}

sl_report *sl_report_deferred(sl_ctx *ctx, const char *fmt, ...)
{
	sl_file *f = ctx->file;
	const sl_later *l = ctx->later;
	if (!l || f->scope->severity[ctx->rule_index] == SL_SEV_OFF || f->capped)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	char *msg = sl_arena_vprintf_cut(f->arena, SL_MESSAGE_MAX, fmt, ap);
	va_end(ap);
	if (!msg) {
		f->oom = SL_ENOMEM;
		return NULL;
	}
	sl_frec *rec = sl_engine_record_at(f, ctx->rule_index, &l->place, msg, l->unit);
	if (!rec)
		return NULL;
	rec->fix_void = true;   /* the tree is gone: no fix */
	if (l->elsewhere)
		note_moved(ctx, (sl_report *)rec);
	return (sl_report *)rec;
}

sl_report *sl_report_at(sl_ctx *ctx, const sl_node *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sl_report *r = vreport(ctx, at, at, fmt, ap);
	va_end(ap);
	return r;
}

sl_report *sl_report_key(sl_ctx *ctx, const sl_node *value, const char *fmt, ...)
{
	const sl_node *key = sl_node_key(value);
	va_list ap;
	va_start(ap, fmt);
	sl_report *r = vreport(ctx, key ? key : value, value, fmt, ap);
	va_end(ap);
	return r;
}

sl_err sl_report_note(sl_ctx *ctx, sl_report *r, const char *fmt, ...)
{
	if (!r)
		return SL_OK;
	sl_file *f = ctx->file;
	const char *old = r->rec.pub.notes;
	size_t lo = old ? strlen(old) : 0;
	if (lo >= SL_NOTES_MAX)
		return SL_OK;   /* full: the last note ends in "…" */
	va_list ap;
	va_start(ap, fmt);
	char *note = sl_arena_vprintf_cut(f->arena, lo + SL_NOTE_MAX < SL_NOTES_MAX ? SL_NOTE_MAX
					  : SL_NOTES_MAX - lo, fmt, ap);
	va_end(ap);
	char *all = note;
	if (note && old) {   /* old, a line break, note: copied, not formatted again */
		size_t ln = strlen(note);
		if ((all = sl_arena_alloc(f->arena, lo + ln + 2))) {
			memcpy(all, old, lo);
			all[lo] = '\n';
			memcpy(all + lo + 1, note, ln + 1);
		}
	}
	if (!all) {
		f->oom = SL_ENOMEM;
		return SL_ENOMEM;
	}
	r->rec.pub.notes = all;
	return SL_OK;
}

void sl_report_cause(sl_ctx *ctx, sl_report *r, const char *fmt, ...)
{
	if (!r)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *c = sl_arena_vprintf(ctx->file->arena, fmt, ap);
	va_end(ap);
	const char *old = r->rec.causes;
	const char *all = c && old ? sl_arena_printf(ctx->file->arena, "%s\n%s", old, c) : c;
	if (!all)
		ctx->file->oom = SL_ENOMEM;
	else
		r->rec.causes = all;
}

void sl_report_cap(sl_report *r, sl_severity sev)
{
	if (r && r->rec.pub.severity > sev)
		r->rec.pub.severity = sev;
}

const char *sl_ctx_short_paths(sl_ctx *ctx, const char *s)
{
	if (!s)
		return NULL;
	char *out = sl_arena_alloc(ctx->file->arena, strlen(s) + 1);
	if (!out) {
		ctx->file->oom = SL_ENOMEM;
		return NULL;
	}
	size_t w = 0;
	for (const char *p = s; *p;) {
		/* a token runs to the next space or parenthesis; keep what follows its last '/' */
		size_t n = strcspn(p, " ()");
		const char *slash = NULL;
		for (size_t i = 0; i < n; i++)
			if (p[i] == '/')
				slash = p + i;
		const char *from = slash ? slash + 1 : p;
		memcpy(out + w, from, (size_t)(p + n - from));
		w += (size_t)(p + n - from);
		p += n;
		if (*p)
			out[w++] = *p++;
	}
	out[w] = '\0';
	return out;
}

sl_err sl_report_note_default_mode(sl_ctx *ctx, sl_report *r, const sl_object *o)
{
	if (!o->mode_defaulted)
		return SL_OK;
	const char *src = NULL;
	sl_mode m = sl_cluster_kserve_default_mode(ctx->index, &src);
	const char *name = m == SL_MODE_STANDARD ? "Standard" : m == SL_MODE_MODELMESH ? "ModelMesh"
		: "Knative";
	if (src)
		return sl_report_note(ctx, r, "It runs in %s mode because it has no valid "
				      "serving.kserve.io/deploymentMode annotation and the default mode "
				      "is %s, per %s.", name, name, src);
	return sl_report_note(ctx, r, "It runs in %s mode because it has no valid "
			      "serving.kserve.io/deploymentMode annotation and KServe's shipped default "
			      "is Serverless (Knative); if the cluster's default differs, set config "
			      "`cluster.kserve-default-deployment-mode` or lint the "
			      "inferenceservice-config ConfigMap alongside.", name);
}

/* The reason of an upstream validation message, cut to its first clause: no example, no regex,
** at most about 80 characters (at a ", " when longer). */
static const char *short_reason(sl_arena *a, const char *reason)
{
	size_t n = strlen(reason);
	const char *eg = strstr(reason, " (e.g.");
	if (eg)
		n = (size_t)(eg - reason);
	const char *semi = strstr(reason, "; ");
	if (semi && (size_t)(semi - reason) < n)
		n = (size_t)(semi - reason);
	if (n > 80) {
		size_t cut = 0;
		for (size_t i = 0; i + 1 < 80; i++)
			if (reason[i] == ',' && reason[i + 1] == ' ')
				cut = i;
		if (cut > 20)
			n = cut;
	}
	return sl_arena_strndup(a, reason, n);
}

sl_report *sl_report_rejected(sl_ctx *ctx, const sl_node *at, const char *label, const char *path,
			      const char *message)
{
	sl_arena *a = ctx->file->arena;
	if (!recorded(ctx, at))
		return NULL;
	if (!path || !message) {   /* a rule's arena string that memory did not allow */
		ctx->file->oom = SL_ENOMEM;
		return NULL;
	}
	/* "Invalid value: "x": reason" -> "Invalid value "x": short reason"; other types keep
	** their first clause ("Required value: can not be empty") */
	const char *shown = message;
	const char *sep = strstr(message, ": ");
	if (sep && (strncmp(message, "Invalid value: ", 15) == 0 ||
		    strncmp(message, "Unsupported value: ", 19) == 0)) {
		const char *rest = strstr(sep + 2, ": ");
		if (rest) {
			const char *r = short_reason(a, rest + 2);
			shown = sl_arena_printf(a, "%.*s: %s", (int)(rest - message), message,
						r ? r : "");
		}
	} else {
		const char *r = short_reason(a, message);
		shown = r ? r : message;
	}
	/* the first line within SL_FIRST_LINE_MAX: without the reason (the note has it), then the
	** path's last two parts, then the value cut */
	const char *rest = strncmp(message, "Invalid value: ", 15) == 0 ||
			   strncmp(message, "Unsupported value: ", 19) == 0
		? strstr(sep + 2, ": ") : NULL;
	const char *head = rest ? sl_arena_strndup(a, message, (size_t)(rest - message)) : shown;
	const char *tail = path;
	for (int dots = 0, i = (int)strlen(path) - 1; i > 0; i--)
		if (path[i] == '.' && ++dots == 2) {
			tail = sl_arena_printf(a, "\u2026%s", path + i + 1);
			break;
		}
	const char *line = sl_arena_printf(a, "%s: %s: %s", label, path, shown ? shown : message);
	if (line && head && sl_engine_first_line_chars(line) > SL_FIRST_LINE_MAX)
		line = sl_arena_printf(a, "%s: %s: %s", label, path, head);
	if (line && head && tail && sl_engine_first_line_chars(line) > SL_FIRST_LINE_MAX)
		line = sl_arena_printf(a, "%s: %s: %s", label, tail, head);
	if (line && head && tail && sl_engine_first_line_chars(line) > SL_FIRST_LINE_MAX) {
		const char *q = strchr(head, '"');   /* Invalid value: "xxxxxxxx...": the value cut */
		size_t keep = q ? (size_t)(q - head) + 41 : 0;
		if (q && strlen(head) > keep + 1)
			line = sl_arena_printf(a, "%s: %s: %.*s\u2026\"", label, tail, (int)keep, head);
	}
	sl_report *r = sl_report_at(ctx, at, "%s", line ? line : message);
	sl_report_note(ctx, r, "The API server rejects it: \"%s: %s\".", path, message);
	return r;
}

/* --- fixing: byte-range edits on the original text -------------------------------------------- */

/* The linted file that holds object in (the current one for NULL), or NULL. */
static sl_file *file_of(sl_ctx *ctx, const sl_object *in)
{
	if (!in || in->path == ctx->file->path)
		return ctx->file;
	for (size_t i = 0; i < ctx->eng->n_files; i++)
		if (ctx->eng->files[i]->path == in->path)
			return ctx->eng->files[i];
	return NULL;
}

/* The linted file whose text holds node n (no scan of the other files, whose records other
** threads may be writing). */
static sl_file *file_of_node(sl_ctx *ctx, const sl_node *n)
{
	const sl_doc *doc = sl_node_doc(n);
	const sl_source *src = doc ? doc->src : NULL;
	if (!src || src == ctx->file->src)
		return ctx->file;
	return src->owner;
}

/* A file's style, detected on first use. Under -j a fix may need another file's style while that
** file's own thread runs, so detection is serialised. */
static pthread_mutex_t style_lock = PTHREAD_MUTEX_INITIALIZER;

static const sl_style *style_of(sl_file *f)
{
	pthread_mutex_lock(&style_lock);
	if (!f->style_known) {
		sl_edit_style_detect(f->src, &f->style);
		f->style_known = true;
	}
	pthread_mutex_unlock(&style_lock);
	return &f->style;
}

/* True when an edit to n would change more than one place: n, or a node it lies in, is anchored,
** so every alias of it and every mapping that merges it ("<<") would change too. */
static bool shared(const sl_node *n)
{
	for (; n; n = n->parent)
		if (sl_node_anchor(n))
			return true;
	return false;
}

/* A rendering helper declined: the report's fix goes whole (a partial fix could leave the file
** half-changed), and later edits to it are ignored. */
static bool void_fix(sl_report *r)
{
	if (r) {
		r->rec.fix_void = true;
		r->rec.fix.n_edits = 0;
		r->rec.pub.fix = NULL;
	}
	return false;
}

static sl_err add_edit(sl_ctx *ctx, sl_report *r, sl_file *target, size_t start, size_t end,
		       const char *text)
{
	if (!r || r->rec.fix_void)
		return SL_OK;
	sl_frec *rec = &r->rec;
	sl_file *f = ctx->file;
	if (!target || start > end || end > target->src->len)
		return SL_EINTERNAL;
	/* The edits of one fix apply together, so they never overlap (nor insert twice at one
	** place): one that would goes with its whole fix. */
	sl_edit probe = {.path = target->path, .offset = start, .length = end - start};
	for (size_t i = 0; i < rec->fix.n_edits; i++)
		if (sl_edit_overlap(&rec->edits[i], &probe)) {
			void_fix(r);
			return SL_OK;
		}
	sl_edit *ed = sl_engine_edit(f, rec, target);
	if (!ed)
		return SL_ENOMEM;
	ed->offset = start;
	ed->length = end - start;
	ed->content = sl_arena_strndup(f->arena, text, strlen(text));
	if (!ed->content)
		return SL_ENOMEM;
	sl_source_position(target->src, start, &ed->line, &ed->column);
	sl_source_position(target->src, end, &ed->end_line, &ed->end_column);
	if (target != f)   /* where it lands follows the other file's text: a fact this file read */
		sl_index_note_edit(ctx->index, (const sl_object *const *)target->objects,
				   target->n_objects, target->src, start, end);
	rec->fix.n_edits++;
	rec->pub.fix = &rec->fix;
	if (!rec->fix.applicability)
		rec->fix.applicability = sl_registry_at(rec->rule_index)->rule->fix;
	return SL_OK;
}

sl_err sl_fix_replace(sl_ctx *ctx, sl_report *r, size_t start, size_t end, const char *text)
{
	return add_edit(ctx, r, ctx->file, start, end, text);
}

sl_err sl_fix_replace_in(sl_ctx *ctx, sl_report *r, const sl_object *in, size_t start, size_t end,
			 const char *text)
{
	return add_edit(ctx, r, file_of(ctx, in), start, end, text);
}

bool sl_fix_add_entry(sl_ctx *ctx, sl_report *r, const sl_node *map, const char *key,
		      const char *fragment)
{
	sl_file *f = file_of_node(ctx, sl_node_deref(map));
	if (!r)
		return false;
	/* never a duplicate key (merged keys count), never an edit through an alias or a merge */
	if (!f || sl_map_get(map, key) || shared(sl_node_deref(map)))
		return void_fix(r);
	size_t off;
	const char *text = sl_edit_render_map_entry(ctx->file->arena, f->src, style_of(f), map, key,
					       fragment, &off);
	if (!text || r->rec.fix_void)
		return void_fix(r);
	return add_edit(ctx, r, f, off, off, text) == SL_OK && !r->rec.fix_void;
}

bool sl_fix_add_item(sl_ctx *ctx, sl_report *r, const sl_node *seq, const char *fragment)
{
	sl_file *f = file_of_node(ctx, sl_node_deref(seq));
	if (!r)
		return false;
	if (!f || shared(sl_node_deref(seq)))
		return void_fix(r);
	size_t off;
	const char *text = sl_edit_render_seq_item(ctx->file->arena, f->src, style_of(f), seq, fragment,
					      &off);
	if (!text || r->rec.fix_void)
		return void_fix(r);
	return add_edit(ctx, r, f, off, off, text) == SL_OK && !r->rec.fix_void;
}

bool sl_fix_remove(sl_ctx *ctx, sl_report *r, const sl_node *n)
{
	sl_file *f = file_of_node(ctx, n);
	size_t s, e;
	if (!r)
		return false;
	if (!f || shared(n) || !sl_edit_render_removal(f->src, n, &s, &e) || r->rec.fix_void)
		return void_fix(r);
	return add_edit(ctx, r, f, s, e, "") == SL_OK && !r->rec.fix_void;
}

bool sl_fix_replace_node(sl_ctx *ctx, sl_report *r, const sl_node *n, const char *text)
{
	sl_file *f = file_of_node(ctx, n);
	if (!r)
		return false;
	if (!f || !n || n->type != SL_NODE_SCALAR || shared(n) || r->rec.fix_void)
		return void_fix(r);
	return add_edit(ctx, r, f, n->start, n->end, text) == SL_OK && !r->rec.fix_void;
}

const char *sl_ctx_node_text(sl_ctx *ctx, const sl_node *n)
{
	sl_file *f = file_of_node(ctx, n);
	if (!f || !n)
		return "";
	const char *t = sl_arena_strndup(ctx->file->arena, f->src->data + n->start, n->end - n->start);
	return t ? t : "";
}

const char *sl_ctx_node_one_line(sl_ctx *ctx, const sl_node *n)
{
	if (!n || n->type != SL_NODE_SCALAR || sl_node_anchor(n) || sl_node_tag(n) ||
	    n->style == SL_STYLE_LITERAL || n->style == SL_STYLE_FOLDED)
		return NULL;
	const char *t = sl_ctx_node_text(ctx, n);
	return *t && !strchr(t, '\n') && !strchr(t, '\r') ? t : NULL;
}

const char *sl_fix_quote(sl_ctx *ctx, const sl_node *n, const char *s)
{
	sl_file *f = file_of_node(ctx, n);
	return sl_edit_render_quoted(ctx->file->arena, f ? style_of(f)->quote : '"', s);
}

const char *sl_fix_scalar(sl_ctx *ctx, const sl_node *n, const char *s)
{
	sl_file *f = file_of_node(ctx, n);
	return sl_edit_render_scalar(ctx->file->arena, f ? style_of(f)->quote : '"', s);
}

const char *sl_fix_requote(sl_ctx *ctx, const sl_node *n, const char *s)
{
	switch (n->style) {
	case SL_STYLE_SINGLE: return sl_arena_printf(ctx->file->arena, "'%s'", s);
	case SL_STYLE_DOUBLE: return sl_arena_printf(ctx->file->arena, "\"%s\"", s);
	default: return s;
	}
}

sl_err sl_fix_describe(sl_ctx *ctx, sl_report *r, sl_fix_applicability a, const char *fmt, ...)
{
	if (!r)
		return SL_OK;
	va_list ap;
	va_start(ap, fmt);
	char buf[512];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	r->rec.fix.applicability = a;
	r->rec.fix.message = sl_arena_strndup(ctx->file->arena, buf, strlen(buf));
	return r->rec.fix.message ? SL_OK : SL_ENOMEM;
}
