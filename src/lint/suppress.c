/* SPDX-License-Identifier: Apache-2.0
** suppress.c: finding the directives (a quick search for "schedlint:" first, so files without
** one cost a single memmem), telling real comments from '#' inside scalars by the tree's scalar
** ranges, matching findings to directives and annotations, and reporting the unused ones and
** the ids that name no rule. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "config/registry.h"
#include "fs/walk.h"
#include "util/regex.h"
#include "lint/suppress.h"

#define ID_MAX 96              /* an id's bytes and its NUL: a longer one is no id */

struct directive {
	size_t hash;           /* offset of '#' */
	size_t cut_start;      /* where removing the comment starts (own line: the line start) */
	size_t cut_end;        /* where it ends (own line: after the line break) */
	size_t line;           /* 0-based line of the comment */
	bool own_line;         /* alone on its line: applies to the next line */
	bool file_wide;
	size_t ids_start, ids_end;   /* the text inside [ ], when present */
	size_t reason_start, reason_end;   /* the human-written text after the directive */
	char ids[16][ID_MAX];
	size_t id_at[16];      /* offset of each id */
	bool used[16];
	size_t n_ids;          /* 0: every rule */
	bool any_used;
};

static pcre2_code *directive_re;
static pthread_once_t re_once = PTHREAD_ONCE_INIT;

static void compile_re(void)
{
	int ec;
	PCRE2_SIZE eo;
	directive_re = pcre2_compile((PCRE2_SPTR)"#[ \\t]*schedlint:[ \\t]*(ignore-file|ignore)\\b"
				     "(?:\\[([^\\]\\r\\n]*)\\])?", PCRE2_ZERO_TERMINATED, 0, &ec, &eo, NULL);
	if (directive_re)
		sl_regex_jit(directive_re);
}

/* True when offset lies inside a quoted or block scalar of the tree. */
static bool in_scalar(const sl_node *n, size_t off)
{
	if (!n || n->type == SL_NODE_ALIAS || off < n->start || off >= n->end)
		return false;
	if (n->type == SL_NODE_SCALAR)
		return n->style != SL_STYLE_PLAIN;
	if (n->type == SL_NODE_MAP) {
		for (size_t i = 0; i < n->u.map.n; i++)
			if (in_scalar(n->u.map.pairs[i].key, off) || in_scalar(n->u.map.pairs[i].value, off))
				return true;
	} else {
		for (size_t i = 0; i < n->u.seq.n; i++)
			if (in_scalar(n->u.seq.items[i], off))
				return true;
	}
	return false;
}

static bool is_comment(const sl_source *src, const sl_tree *tree, size_t hash)
{
	const char *d = src->data;
	size_t l = sl_source_line_of(src, hash);
	size_t ls = l == 0 ? src->bom : src->line_start[l];
	if (hash > ls && d[hash - 1] != ' ' && d[hash - 1] != '\t')
		return false;   /* "a#b" is text */
	for (size_t i = 0; i < tree->n_docs; i++) {
		const sl_doc *doc = tree->docs[i];
		if (hash >= doc->start && hash < doc->end && in_scalar(doc->root, hash))
			return false;
	}
	return true;
}

/* Splits the n bytes at offset at of s (the text inside [ ]) into dv's ids. */
static void split_ids(struct directive *dv, const char *s, size_t at, size_t n)
{
	s += at;
	size_t i = 0;
	while (i < n && dv->n_ids < 16) {
		while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == '\t'))
			i++;
		size_t st = i;
		while (i < n && s[i] != ',' && s[i] != ' ' && s[i] != '\t')
			i++;
		if (i > st && i - st < sizeof dv->ids[0]) {
			memcpy(dv->ids[dv->n_ids], s + st, i - st);
			dv->ids[dv->n_ids][i - st] = '\0';
			dv->id_at[dv->n_ids] = at + st;
			dv->n_ids++;
		}
	}
}

/* Finds the directives of the text src (parsed as tree); *out is malloc'd. */
static sl_err find_directives(const sl_source *src, const sl_tree *tree, struct directive **out,
			      size_t *n_out)
{
	*out = NULL;
	*n_out = 0;
	const char *d = src->data;
	size_t len = src->len;
	if (!memmem(d, len, "schedlint:", 10))
		return SL_OK;
	pthread_once(&re_once, compile_re);
	if (!directive_re)
		return SL_EINTERNAL;
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(directive_re, NULL);
	if (!md)
		return SL_ENOMEM;
	size_t cap = 0, n = 0, pos = 0;
	struct directive *v = NULL;
	sl_err err = SL_OK;
	while (pos < len) {
		int rc = pcre2_match(directive_re, (PCRE2_SPTR)d, len, pos, 0, md, NULL);
		if (rc < 0)
			break;
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		size_t hash = ov[0];
		pos = ov[1];
		if (!is_comment(src, tree, hash))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			struct directive *nv = sl_xrealloc(v, cap * sizeof *nv);
			if (!nv) {
				err = SL_ENOMEM;
				break;
			}
			v = nv;
		}
		struct directive *dv = &v[n++];
		memset(dv, 0, sizeof *dv);
		dv->hash = hash;
		dv->reason_start = ov[1];
		dv->file_wide = ov[3] - ov[2] == 11;   /* "ignore-file" */
		if (rc > 2 && ov[4] != PCRE2_UNSET) {
			dv->ids_start = ov[4];
			dv->ids_end = ov[5];
			split_ids(dv, d, ov[4], ov[5] - ov[4]);
		}
		dv->line = sl_source_line_of(src, hash);
		size_t ls = dv->line == 0 ? src->bom : src->line_start[dv->line];
		size_t le = sl_source_line_end(src, dv->line);
		dv->own_line = true;
		for (size_t p = ls; p < hash; p++)
			if (d[p] != ' ' && d[p] != '\t')
				dv->own_line = false;
		if (dv->own_line) {
			dv->cut_start = ls;
			dv->cut_end = dv->line + 1 < src->n_lines ? src->line_start[dv->line + 1] : len;
		} else {
			size_t s = hash;
			while (s > ls && (d[s - 1] == ' ' || d[s - 1] == '\t'))
				s--;
			dv->cut_start = s;
			dv->cut_end = le;
		}
	}
	pcre2_match_data_free(md);
	/* Two directives in one comment: removing the first stops at the second's '#'. */
	for (size_t k = 0; k + 1 < n; k++) {
		if (v[k + 1].line == v[k].line) {
			v[k].cut_start = v[k].hash;
			v[k].cut_end = v[k + 1].hash;
			v[k].own_line = false;
		}
	}
	/* The reason: what follows the directive up to the end of its comment, blanks trimmed. */
	for (size_t k = 0; k < n; k++) {
		size_t rs = v[k].reason_start;
		size_t re = k + 1 < n && v[k + 1].line == v[k].line ? v[k + 1].hash
								     : sl_source_line_end(src, v[k].line);
		while (rs < re && (d[rs] == ' ' || d[rs] == '\t'))
			rs++;
		while (re > rs && (d[re - 1] == ' ' || d[re - 1] == '\t'))
			re--;
		v[k].reason_start = rs;
		v[k].reason_end = re;
	}
	*out = v;
	*n_out = n;
	return err;
}

/* True when selector sel (rule id or category) names the finding's rule. */
static bool names(const char *sel, int ri)
{
	const struct sl_rule *r = sl_registry_at(ri)->rule;
	return strcmp(sel, r->id) == 0 || strcmp(sel, r->category) == 0 || strcmp(sel, "all") == 0;
}

/* A use of directive k's id i (-1: of the whole directive) by a finding kept on a condition
** (sl_frec.cond, or a later's: sl_engine.h), which counts once the condition holds
** (sl_suppress_apply_rest). */
struct mark {
	uint32_t cond;
	bool cond_used;
	uint32_t k;
	int32_t i;
};

/* A finding being judged: its rule, 0-based line and document, and the condition it is kept
** on (0: none). */
struct judged {
	int ri;
	size_t line0;
	int doc;
	uint32_t cond;
	bool cond_used;
};

/* Marks directive dv's id i (-1: the directive) used, or for a finding kept on a condition,
** notes that in held's marks (false when out of memory). */
static bool mark(struct directive *dv, int i, const struct judged *j, size_t k,
		 struct sl_suppress_held *held);

/* True when directive dv (the k-th) covers j's rule; marks the id used (mark). *oom when a mark
** could not be noted. */
static bool covers_as(struct directive *dv, const struct judged *j, size_t k,
		      struct sl_suppress_held *held, bool *oom)
{
	if (dv->n_ids == 0) {
		*oom |= !mark(dv, -1, j, k, held);
		return true;
	}
	bool hit = false;
	for (size_t i = 0; i < dv->n_ids; i++) {
		if (names(dv->ids[i], j->ri)) {
			*oom |= !mark(dv, (int)i, j, k, held);
			hit = true;
		}
	}
	return hit;
}

/* True when directive dv covers rule ri; marks the id used. */
static bool covers(struct directive *dv, int ri)
{
	bool oom = false;
	struct judged j = {.ri = ri};
	return covers_as(dv, &j, 0, NULL, &oom);
}

/* The next id of the annotation value v (ids separated by commas or blanks) from *p on, into
** id with its offset in v in *at; false after the last. An id too long for id is skipped. */
static bool next_annotation_id(const char *v, const char **p, char id[ID_MAX], size_t *at)
{
	for (;;) {
		while (**p == ' ' || **p == ',')
			(*p)++;
		if (!**p)
			return false;
		const char *s = *p, *e = s;
		while (*e && *e != ',' && *e != ' ')
			e++;
		*p = e;
		size_t n = (size_t)(e - s);
		if (n < ID_MAX) {
			memcpy(id, s, n);
			id[n] = '\0';
			*at = (size_t)(s - v);
			return true;
		}
	}
}

/* True when the annotation value (comma-separated ids) covers rule ri. */
static bool annotation_covers(const char *v, int ri)
{
	char id[ID_MAX];
	size_t at;
	for (const char *p = v; v && next_annotation_id(v, &p, id, &at);)
		if (names(id, ri))
			return true;
	return false;
}

static bool rule_enabled(const sl_file *f, const char *sel)
{
	for (size_t i = 0; i < sl_registry_n(); i++)
		if (f->scope->severity[i] != SL_SEV_OFF && names(sel, (int)i))
			return true;
	return false;
}

static bool known_selector(const char *sel)
{
	if (strcmp(sel, "all") == 0)
		return true;
	for (size_t i = 0; i < sl_registry_n(); i++)
		if (names(sel, (int)i))
			return true;
	return false;
}

/* Appends id to the comma-separated list buf. */
static void list_add(char *buf, size_t cap, size_t *n, const char *id)
{
	if ((*n)++)
		strncat(buf, ", ", cap - strlen(buf) - 1);
	strncat(buf, id, cap - strlen(buf) - 1);
}

/* Reports directive dv's unused ids (or the whole directive) with a safe fix that deletes no
** human-written text: the unused ids that name rules go, the rest of the comment stays (its
** reason, the other ids); a directive left without ids goes, its reason staying as a plain
** comment. An id that names no rule is never removed (a typo must not become "suppress nothing
** and delete the comment"): unknown-rule-id reports it. In a template (engine.h, templated) only
** the rules that ran on it are judged: its notice's; the others will, on what it renders. */
static sl_err report_unused(sl_file *f, struct directive *dv, int unused_ri)
{
	char list[512] = "", kept[512] = "";
	size_t n_unused = 0, n_kept = 0;
	int tmpl_ri = f->templated ? sl_registry_find("template-not-rendered") : -1;
	for (size_t i = 0; i < dv->n_ids; i++) {
		/* an id of a rule this run did not enable may suppress something elsewhere */
		if (dv->used[i] || !known_selector(dv->ids[i]) || !rule_enabled(f, dv->ids[i]) ||
		    (f->templated && (tmpl_ri < 0 || !names(dv->ids[i], tmpl_ri))))
			list_add(kept, sizeof kept, &n_kept, dv->ids[i]);
		else
			list_add(list, sizeof list, &n_unused, dv->ids[i]);
	}
	bool whole = dv->n_ids == 0 ? !dv->any_used : n_kept == 0;
	if (dv->n_ids && n_unused == 0)
		return SL_OK;
	if (dv->n_ids == 0 && (dv->any_used || f->templated))
		return SL_OK;
	bool reason = dv->reason_end > dv->reason_start;
	const char *what = !whole ? "" : reason ? ": remove the directive (its reason stays as a comment)"
					     : ": remove the comment";
	char *msg;
	if (dv->n_ids == 0)
		msg = sl_arena_printf(f->arena, "this suppression suppresses nothing: %s",
				      reason ? "remove the directive (its reason stays as a comment)"
					     : "remove it");
	else
		msg = sl_arena_printf(f->arena, "%s %s in this suppression suppressed nothing%s",
				      n_unused == 1 ? "rule" : "rules", list, what);
	if (!msg)
		return SL_ENOMEM;
	sl_frec *rec = sl_engine_record(f, unused_ri, 0, dv->hash,
					sl_source_line_end(f->src, dv->line), "", msg, NULL, NULL);
	if (!rec)
		return f->oom;
	sl_edit *ed = sl_engine_edit(f, rec, f);
	if (!ed)
		return SL_ENOMEM;
	if (whole && reason) {
		/* "# schedlint: ignore[id] the reason" becomes "# the reason" */
		ed->offset = dv->hash;
		ed->length = dv->reason_start - dv->hash;
		ed->content = "# ";
	} else if (whole) {
		ed->offset = dv->cut_start;
		ed->length = dv->cut_end - dv->cut_start;
		ed->content = "";
	} else {
		ed->offset = dv->ids_start;
		ed->length = dv->ids_end - dv->ids_start;
		ed->content = sl_arena_printf(f->arena, "%s", kept);
		if (!ed->content)
			return SL_ENOMEM;
	}
	sl_source_position(f->src, ed->offset, &ed->line, &ed->column);
	sl_source_position(f->src, ed->offset + ed->length, &ed->end_line, &ed->end_column);
	rec->fix.applicability = SL_FIX_SAFE;
	rec->fix.message = !whole ? "remove the unused rule ids"
		: reason ? "remove the suppression directive, keeping its reason as a comment"
			 : "remove the suppression comment";
	rec->fix.n_edits = 1;
	rec->pub.fix = &rec->fix;
	return SL_OK;
}

/* Reports id (len bytes at offset at of f, NUL-terminated in id) when it names no rule or
** category: where is "suppression" or "schedlint.io/ignore". No fix: only the author knows
** which rule was meant, and the closest one may not be it. */
static sl_err report_unknown(sl_file *f, int ri, unsigned doc, const char *where, const char *id,
			     size_t at, size_t len)
{
	if (known_selector(id))
		return SL_OK;
	const char *best = sl_registry_closest(id);
	char *msg = best ? sl_arena_printf(f->arena, "%s id \"%s\" names no rule or category, so it "
					   "suppresses nothing; did you mean \"%s\"?", where, id, best)
			 : sl_arena_printf(f->arena, "%s id \"%s\" names no rule or category, so it "
					   "suppresses nothing (`schedlint rules` lists them)", where, id);
	if (!msg)
		return SL_ENOMEM;
	if (!sl_engine_record(f, ri, doc, at, at + len, "", msg, NULL, NULL) && f->oom)
		return f->oom;
	return SL_OK;
}

/* Reports the ids of the schedlint.io/ignore annotation of object o that name no rule, each at
** itself when the value's text is exactly the value, else at the value. */
static sl_err report_unknown_in_annotation(sl_file *f, int ri, const sl_object *o)
{
	const sl_node *n = sl_map_get(o->annotations, "schedlint.io/ignore");
	const char *v = sl_scalar(n);
	if (!v)
		return SL_OK;
	size_t start, end;
	bool exact = sl_scalar_content_range(f->src, n, &start, &end) && end - start == strlen(v);
	sl_err err = SL_OK;
	char id[ID_MAX];
	size_t at;
	for (const char *p = v; !err && next_annotation_id(v, &p, id, &at);)
		err = report_unknown(f, ri, o->doc->index, "schedlint.io/ignore", id,
				     exact ? start + at : n->start, exact ? strlen(id) : n->end - n->start);
	return err;
}

/* True when f holds a YAML document with content (a file of comments alone has none: its
** suppressions have nothing to suppress, and are not reported). */
static bool has_document(const sl_file *f)
{
	for (size_t i = 0; i < f->tree.n_docs; i++)
		if (f->tree.docs[i]->root)
			return true;
	return false;
}

static pthread_mutex_t ignores_lock = PTHREAD_MUTEX_INITIALIZER;

/* A per-file-ignores glob that cannot decide a path (PCRE2's match limit): the findings stay. */
static sl_err undecided(const char *path, const char *msg, void *payload)
{
	(void)path, (void)msg, (void)payload;
	return SL_OK;
}

/* What a file's directives did in the first of its two checks (sl_suppress_apply_first). */
struct sl_suppress_held {
	struct directive *dv;
	size_t n_dv;
	bool has_document;
	struct mark *marks;          /* what the findings kept on a condition silenced */
	size_t n_marks;
};

static bool mark(struct directive *dv, int i, const struct judged *j, size_t k,
		 struct sl_suppress_held *held)
{
	if (!held || !j->cond) {
		if (i >= 0)
			dv->used[i] = true;
		dv->any_used = true;
		return true;
	}
	if (sl_doubling_full(held->n_marks)) {
		struct mark *nv = sl_xrealloc(held->marks,
					      sl_doubling_cap(held->n_marks) * sizeof *nv);
		if (!nv)
			return false;
		held->marks = nv;
	}
	held->marks[held->n_marks++] = (struct mark){j->cond, j->cond_used, (uint32_t)k, i};
	return true;
}

/* What silences a finding of f besides its directives: its objects' annotations, the config's
** per-file-ignores whose glob matches it. */
struct silencers {
	const sl_config *cfg;
	bool *ignores;               /* per cfg->file_ignores[k]: its glob matches f (malloc'd) */
	bool any_ignore, any_annotation;
};

static sl_err silencers_of(sl_file *f, struct silencers *s)
{
	*s = (struct silencers){.cfg = f->scope->cfg};
	for (size_t i = 0; i < f->n_objects && !s->any_annotation; i++)
		s->any_annotation = sl_map_get(f->objects[i]->annotations,
					       "schedlint.io/ignore") != NULL;
	const sl_config *cfg = s->cfg;
	if (cfg && cfg->n_file_ignores && f->scope->file_ignores) {
		if (!(s->ignores = sl_xcalloc(cfg->n_file_ignores, sizeof *s->ignores)))
			return SL_ENOMEM;
		/* a glob keeps what it could not decide until drained: one file at a time */
		pthread_mutex_lock(&ignores_lock);
		for (size_t k = 0; k < cfg->n_file_ignores; k++) {
			s->ignores[k] = sl_walk_globs_match(f->scope->file_ignores[k], f->path);
			sl_walk_globs_drain(f->scope->file_ignores[k], undecided, NULL);
			s->any_ignore |= s->ignores[k];
		}
		pthread_mutex_unlock(&ignores_lock);
	}
	return SL_OK;
}

/* True when finding j of f is silenced by dv (n_dv directives, those that cover it marked: with
** held, a conditional finding's marks noted there), an annotation of its document or a
** per-file-ignore (s). *oom when a mark could not be noted. */
static bool silenced(const sl_file *f, struct directive *dv, size_t n_dv, const struct silencers *s,
		     const struct judged *j, sl_suppress_held *held, bool *oom)
{
	bool drop = false;
	for (size_t k = 0; k < n_dv; k++) {
		struct directive *d = &dv[k];
		bool applies = d->file_wide || (!d->own_line && d->line == j->line0) ||
			       (d->own_line && d->line + 1 == j->line0);
		if (applies && covers_as(d, j, k, held, oom))
			drop = true;
	}
	const sl_config *cfg = s->cfg;
	for (size_t k = 0; !drop && s->any_ignore && k < cfg->n_file_ignores; k++)
		for (size_t i = 0; s->ignores[k] && i < cfg->file_ignores[k].n_ids; i++)
			drop |= names(cfg->file_ignores[k].ids[i], j->ri);
	for (size_t k = 0; !drop && s->any_annotation && k < f->n_objects; k++) {
		const sl_object *o = f->objects[k];
		if ((int)o->doc->index != j->doc)
			continue;
		const char *v = sl_scalar(sl_map_get(o->annotations, "schedlint.io/ignore"));
		if (annotation_covers(v, j->ri))
			drop = true;
	}
	return drop;
}

/* Drops the findings of f that dv (n_dv directives), its objects' annotations or the config's
** per-file-ignores silence (noting the directives used; with held, what a finding kept on a
** condition silenced in held's marks instead); with unused, reports the directives that
** silenced nothing (has_document: f holds a document), with unknown the ids that name no
** rule. */
static sl_err apply(sl_file *f, struct directive *dv, size_t n_dv, bool has_doc, bool unused,
		    bool unknown, sl_suppress_held *held)
{
	sl_err err = SL_OK;
	struct silencers sil;
	if ((err = silencers_of(f, &sil)))
		return err;
	if (n_dv == 0 && !sil.any_annotation && !sil.any_ignore) {
		free(sil.ignores);
		return SL_OK;
	}
	size_t w = 0;
	int syntax_ri = sl_registry_find("yaml-syntax");
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_frec *rec = f->findings[i];
		int ri = rec->rule_index;
		if (ri == syntax_ri) {
			/* A broken file is never hidden: yaml-syntax cannot be suppressed. */
			f->findings[w++] = rec;
			continue;
		}
		struct judged j = {ri, rec->pub.line - 1, rec->pub.document, rec->cond, rec->cond_used};
		bool oom = false;
		bool drop = silenced(f, dv, n_dv, &sil, &j, held, &oom);
		if (oom) {
			free(sil.ignores);
			return SL_ENOMEM;
		}
		if (!drop)
			f->findings[w++] = rec;
	}
	f->n_findings = w;
	int unused_ri = sl_registry_find("unused-suppression");
	if (unused && unused_ri >= 0 && f->scope->severity[unused_ri] != SL_SEV_OFF && has_doc)
		for (size_t k = 0; k < n_dv && !err; k++)
			err = report_unused(f, &dv[k], unused_ri);
	int unknown_ri = sl_registry_find("unknown-rule-id");
	if (unknown && unknown_ri >= 0 && f->scope->severity[unknown_ri] != SL_SEV_OFF &&
	    !f->templated) {
		for (size_t k = 0; k < n_dv && !err; k++)
			for (size_t i = 0; i < dv[k].n_ids && !err; i++)
				err = report_unknown(f, unknown_ri, 0, "suppression", dv[k].ids[i],
						     dv[k].id_at[i], strlen(dv[k].ids[i]));
		for (size_t k = 0; sil.any_annotation && k < f->n_objects && !err; k++)
			err = report_unknown_in_annotation(f, unknown_ri, f->objects[k]);
	}
	free(sil.ignores);
	return err;
}

sl_err sl_suppress_apply(sl_file *f)
{
	struct directive *dv = NULL;
	size_t n_dv = 0;
	sl_err err = find_directives(f->src, &f->tree, &dv, &n_dv);
	if (!err)
		err = apply(f, dv, n_dv, has_document(f), true, true, NULL);
	free(dv);
	return err;
}

sl_err sl_suppress_apply_first(sl_file *f, sl_suppress_held **held)
{
	*held = sl_xcalloc(1, sizeof **held);
	if (!*held)
		return SL_ENOMEM;
	(*held)->has_document = has_document(f);
	sl_err err = find_directives(f->src, &f->tree, &(*held)->dv, &(*held)->n_dv);
	return err ? err : apply(f, (*held)->dv, (*held)->n_dv, false, false, true, *held);
}

sl_err sl_suppress_judge_laters(sl_file *f, sl_suppress_held *held, sl_later **laters, size_t n,
				uint32_t first_cond)
{
	struct silencers sil;
	sl_err err = silencers_of(f, &sil);
	bool oom = false;
	for (size_t i = 0; !err && i < n; i++) {
		sl_later *l = laters[i];
		struct judged j = {l->rule_index, l->place.line - 1, (int)l->place.doc,
				   first_cond + (uint32_t)i, true};
		l->silenced = silenced(f, held->dv, held->n_dv, &sil, &j, held, &oom);
		err = oom ? SL_ENOMEM : SL_OK;
	}
	free(sil.ignores);
	return err;
}

sl_err sl_suppress_apply_rest(sl_file *f, sl_suppress_held *held, const bool *used)
{
	for (size_t m = 0; m < held->n_marks; m++) {
		const struct mark *k = &held->marks[m];
		if (used[k->cond - 1] != k->cond_used)
			continue;   /* its finding is not reported */
		struct directive *d = &held->dv[k->k];
		if (k->i >= 0)
			d->used[k->i] = true;
		d->any_used = true;
	}
	return apply(f, held->dv, held->n_dv, held->has_document, true, false, NULL);
}

bool sl_suppress_held_reads_text(const sl_suppress_held *held)
{
	return held->n_dv > 0;
}

void sl_suppress_held_free(sl_suppress_held *held)
{
	if (held) {
		free(held->dv);
		free(held->marks);
	}
	free(held);
}

sl_err sl_suppress_covers(const sl_source *src, const sl_tree *tree, uint32_t line, int ri,
			  bool *hit)
{
	*hit = false;
	struct directive *dv = NULL;
	size_t n_dv = 0;
	sl_err err = find_directives(src, tree, &dv, &n_dv);
	for (size_t k = 0; !err && k < n_dv && !*hit; k++) {
		const struct directive *d = &dv[k];
		bool applies = d->file_wide || (!d->own_line && d->line + 1 == line) ||
			       (d->own_line && d->line + 2 == line);
		*hit = applies && covers(&dv[k], ri);
	}
	free(dv);
	return err;
}
