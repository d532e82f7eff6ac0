/* SPDX-License-Identifier: Apache-2.0
** cli/lsp/lint.c: libschedlint over the open documents, as `schedlint check` would lint them. A
** run lints the documents asked for (a change's), with the unsaved buffers that hold facts, so
** each open buffer replaces its file for every rule, the cross-file ones included; a file a
** Kustomize build may use is linted by its path while its buffer is the file (Kustomize reads
** the disk). The project's facts are lent, read once (sl_run_read_project) and again when its
** files change; each file's config resolves as on the command line (the nearest
** .schedlint.yaml, or the settings' config for all). After each lint a document's digest of
** facts (sl_run_file_fact_digests, one per fact) says which facts changed, and the keys each
** document read (sl_run_file_reads) which of the others must be linted again. Findings
** become LSP diagnostics (UTF-16 ranges, rule id, doc link, notes on the message's second
** line); each document keeps, per diagnostic, an entry with its byte range, rule and fix, from
** which the code actions and hovers are answered. Positions go by the findings' byte offsets:
** the library's lines also end at NEL, LS and PS (as YAML's do), LSP's do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/lsp/lsp.h"

#define RULES_URI "https://github.com/schedlint/schedlint/blob/main/docs/rules.md#"

/* What a rule's fixes are, as `schedlint rules` words it. */
static const char *fix_name(sl_fix_applicability f)
{
	return f == SL_FIX_SAFE ? "safe" : f == SL_FIX_UNSAFE ? "unsafe" : "none";
}
#define FIX_ALL_KIND "source.fixAll.schedlint"

/* --- settings ------------------------------------------------------------------------------ */

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void sl_lsp_lint_forget_project(sl_lsp_settings *s)
{
	sl_run_free(s->project);
	sl_config_free(s->project_cfg);
	s->project = NULL;
	s->project_cfg = NULL;
}

void sl_lsp_lint_settings_free(sl_lsp_settings *s)
{
	sl_lsp_lint_forget_project(s);
	free(s->config);
	free_list(s->select, s->n_select);
	free_list(s->ignore, s->n_ignore);
	memset(s, 0, sizeof *s);
}

/* A list of strings, or one comma-separated string (as on the command line). */
static bool read_list(const json_t *v, char ***out, size_t *n)
{
	if (!v || json_is_null(v))
		return true;
	if (json_is_string(v)) {
		char *copy = strdup(json_string_value(v)), *save = NULL;
		if (!copy)
			return false;
		for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
			char **nv = realloc(*out, (*n + 1) * sizeof *nv);
			if (!nv || !(nv[*n] = strdup(t))) {
				*out = nv ? nv : *out;
				free(copy);
				return false;
			}
			*out = nv;
			(*n)++;
		}
		free(copy);
		return true;
	}
	if (!json_is_array(v))
		return false;
	size_t i;
	json_t *x;
	json_array_foreach(v, i, x) {
		if (!json_is_string(x))
			return false;
		char **nv = realloc(*out, (*n + 1) * sizeof *nv);
		if (!nv)
			return false;
		*out = nv;
		if (!(nv[*n] = strdup(json_string_value(x))))
			return false;
		(*n)++;
	}
	return true;
}

bool sl_lsp_lint_settings(sl_lsp_settings *s, const json_t *o, const char **why)
{
	sl_lsp_lint_settings_free(s);
	*why = NULL;
	if (!o || json_is_null(o))
		return true;
	if (!json_is_object(o)) {
		*why = "the settings are not an object";
		return false;
	}
	const json_t *c = json_object_get(o, "config"), *np = json_object_get(o, "noProject");
	if (c && !json_is_null(c) && !json_is_string(c))
		*why = "\"config\" is not a string";
	else if (np && !json_is_boolean(np))
		*why = "\"noProject\" is not a boolean";
	else if (!read_list(json_object_get(o, "select"), &s->select, &s->n_select))
		*why = "\"select\" is not a list of rule ids or categories";
	else if (!read_list(json_object_get(o, "ignore"), &s->ignore, &s->n_ignore))
		*why = "\"ignore\" is not a list of rule ids or categories";
	if (*why) {
		sl_lsp_lint_settings_free(s);
		return false;
	}
	if (json_is_string(c) && *json_string_value(c) && !(s->config = strdup(json_string_value(c))))
		return false;
	s->no_project = json_is_true(np);
	return true;
}

/* --- the run ------------------------------------------------------------------------------- */

static sl_run_options options(const sl_lsp_settings *s)
{
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	o.nearest_config = !s->config;
	o.select = (const char *const *)s->select;
	o.n_select = s->n_select;
	o.ignore = (const char *const *)s->ignore;
	o.n_ignore = s->n_ignore;
	return o;
}

/* Reads the project once, streamed (its memory is that of its facts, not its trees), under
** the config the lints use; what cannot be read leaves it unread (each lint then reads it, as
** `schedlint check` does). */
static void read_project(const sl_lsp_docs *d, sl_lsp_settings *s)
{
	char *why = NULL;
	sl_run_options o = options(s);
	o.low_memory = true;
	sl_err err = sl_config_find(s->config, d->n ? d->v[0]->path : NULL, &s->project_cfg, &why);
	if (!err)
		err = sl_run_new(s->project_cfg, &o, &s->project, &why);
	if (!err)
		err = sl_run_read_project(s->project, NULL);
	if (err) {
		fprintf(stderr, "schedlint server: the project is read at every lint: %s\n",
			why ? why : sl_strerror(err));
		sl_lsp_lint_forget_project(s);
	}
	free(why);
}

/* True when doc is linted in a run over which: one of them, or a buffer with unsaved facts
** (its own, or those of its file on disk) that the others must see as the editor has it. A
** kustomization's or a built file's buffer is not: Kustomize builds from the disk. */
static bool in_run(const sl_lsp_doc *doc, sl_lsp_doc *const *which, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (which[i] == doc)
			return true;
	return !doc->synced && !doc->built && (doc->facts || doc->disk_facts);
}

/* True when path names a kustomization file. */
static bool kustomization_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, "kustomization.yaml") == 0 || strcmp(base, "kustomization.yml") == 0 ||
	       strcmp(base, "Kustomization") == 0;
}

/* True when a build may use the file at path: a kustomization is in its directory or one above
** (what a kustomization reads lies under its own directory, kustomize's load restrictor; a
** kustomization built with it off may reach further, and is not looked for). */
static bool may_be_built(const char *path)
{
	char *dir = NULL;
	if (path[0] == '/')
		dir = strdup(path);
	else {
		char *cwd = getcwd(NULL, 0);
		if (cwd && asprintf(&dir, "%s/%s", cwd, path) < 0)
			dir = NULL;
		free(cwd);
	}
	bool found = false;
	for (char *slash; dir && !found && (slash = strrchr(dir, '/'));) {
		*slash = '\0';
		static const char *const names[] = {"kustomization.yaml", "kustomization.yml",
						    "Kustomization"};
		for (size_t i = 0; i < 3 && !found; i++) {
			char *probe = NULL;
			struct stat st;
			if (asprintf(&probe, "%s/%s", dir, names[i]) >= 0)
				found = stat(probe, &st) == 0 && S_ISREG(st.st_mode);
			free(probe);
		}
	}
	free(dir);
	return found;
}

/* True when doc is linted by its path: its buffer is its file, which a build may use (Kustomize
** reads the disk); else its buffer stands for the file. */
static bool by_path(const sl_lsp_doc *doc)
{
	return doc->synced && (kustomization_name(doc->path) || may_be_built(doc->path)) &&
	       sl_lsp_docs_on_disk(doc);
}

/* A run over the documents which[0..n) and the others in_run, linted: one that Kustomize may
** build from the disk by its path (as `schedlint check` lints it), and disk (NULL: none) by
** its path whatever its buffer, the others as their buffers, with the project's facts lent;
** NULL with *why (malloc'd) when the config or the settings are wrong, NULL with *why NULL
** for memory. */
static sl_run *linted(const sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *const *which,
		      size_t n, const sl_lsp_doc *disk, sl_config **cfg, char **why)
{
	*why = NULL;
	*cfg = NULL;
	sl_err err = sl_config_find(s->config, n ? which[0]->path : NULL, cfg, why);
	if (err) {
		if (!*why && err != SL_ENOMEM)
			*why = strdup(sl_strerror(err));
		return NULL;
	}
	sl_run_options o = options(s);
	sl_run *run = NULL;
	err = sl_run_new(*cfg, &o, &run, why);
	if (!err)   /* which facts each document reads: what a change of one re-lints */
		err = sl_run_file_record_reads(run);
	for (size_t i = 0; !err && i < d->n; i++) {
		const sl_lsp_doc *doc = d->v[i];
		if (!in_run(doc, which, n))
			continue;
		err = doc == disk || by_path(doc) ? sl_run_add_path(run, doc->path)
				   : sl_run_add_buffer(run, doc->path, doc->text, doc->len);
	}
	if (!err && !s->no_project && !s->project)
		read_project(d, s);
	if (!err && !s->no_project)
		err = s->project ? sl_run_use_project(run, s->project) : sl_run_add_project(run, NULL);
	if (!err)
		err = sl_run_lint(run);
	if (err) {
		if (!*why && err != SL_ENOMEM)
			*why = strdup(sl_strerror(err));
		sl_run_free(run);
		sl_config_free(*cfg);
		*cfg = NULL;
		return NULL;
	}
	return run;
}

static void done(sl_run *run, sl_config *cfg)
{
	sl_run_free(run);
	sl_config_free(cfg);
}

/* The run's index of path's file; (size_t)-1 when it has none. */
static size_t file_of(const sl_run *run, const char *path)
{
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi = SL_FILE_INFO_INIT;
		if (sl_run_file(run, i, &fi) == SL_OK && strcmp(fi.path, path) == 0)
			return i;
	}
	return (size_t)-1;
}

static int lsp_severity(sl_severity s)
{
	return s == SL_SEV_ERROR ? 1 : s == SL_SEV_WARNING ? 2 : 3;
}

/* A JSON string of s; bytes that are not UTF-8 (a file name's, say) become U+FFFD. */
static json_t *text_of(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	size_t n = strlen(s), k = 0;
	char *t = malloc(n * 3 + 1);
	if (!t)
		return NULL;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
			   : (c & 0xF8) == 0xF0 ? 4 : 0;
		json_t *one = len && i + len <= n ? json_stringn(s + i, len) : NULL;
		if (one) {
			memcpy(t + k, s + i, len);
			k += len;
			i += len;
			json_decref(one);
		} else {
			memcpy(t + k, "\xEF\xBF\xBD", 3);
			k += 3;
			i++;
		}
	}
	j = json_stringn(t, k);
	free(t);
	return j;
}

/* A diagnostic at [from, to) of doc; code NULL for one that is no rule's. */
static json_t *diagnostic(const sl_lsp_doc *doc, size_t from, size_t to, int severity,
			  const char *code, const char *message, const char *notes)
{
	json_t *dg = json_object();
	char *text = NULL;
	if (notes && *notes && asprintf(&text, "%s\n%s", message, notes) < 0)
		text = NULL;
	json_object_set_new(dg, "range", sl_lsp_text_range(doc->text, doc->len, &doc->lines, from, to));
	json_object_set_new(dg, "severity", json_integer(severity));
	json_object_set_new(dg, "source", json_string("schedlint"));
	json_object_set_new(dg, "message", text_of(text ? text : message));
	free(text);
	if (code) {
		char *href = NULL;
		json_object_set_new(dg, "code", json_string(code));
		if (asprintf(&href, RULES_URI "%s", code) >= 0) {
			json_object_set_new(dg, "codeDescription", json_pack("{s:s}", "href", href));
			free(href);
		}
		if (strcmp(code, "unused-suppression") == 0)
			json_object_set_new(dg, "tags", json_pack("[i]", 1));   /* Unnecessary */
	}
	return dg;
}

/* The WorkspaceEdit "changes" of a fix of owner, {uri: [TextEdit]}; NULL when an edit is in a
** file that is not open (nothing to point a client at: owner then waits for it) or for memory. */
static json_t *fix_changes(const sl_lsp_docs *d, sl_lsp_doc *owner, const sl_fix *fix)
{
	json_t *changes = json_object();
	for (size_t i = 0; changes && i < fix->n_edits; i++) {
		const sl_edit *e = &fix->edits[i];
		const sl_lsp_doc *to = sl_lsp_docs_find_path(d, e->path);
		if (!to || e->offset > to->len || e->length > to->len - e->offset) {
			if (!to)
				sl_lsp_docs_wait(owner, e->path);
			json_decref(changes);
			return NULL;
		}
		json_t *list = json_object_get(changes, to->uri);
		if (!list) {
			list = json_array();
			json_object_set_new(changes, to->uri, list);
		}
		json_array_append_new(list, json_pack("{s:o, s:s}", "range",
			sl_lsp_text_range(to->text, to->len, &to->lines, e->offset, e->offset + e->length),
			"newText", e->content));
	}
	return changes;
}

/* Records diagnostic dg of doc with its entry: byte range, rule, fix. */
static void add(const sl_lsp_docs *d, sl_lsp_doc *doc, json_t *diags, json_t *entries, json_t *dg,
		size_t from, size_t to, const char *rule, const sl_fix *fix)
{
	json_t *e = json_pack("{s:I, s:I, s:O}", "from", (json_int_t)from, "to", (json_int_t)to,
			      "diagnostic", dg);
	if (rule)
		json_object_set_new(e, "rule", json_string(rule));
	json_t *changes = fix ? fix_changes(d, doc, fix) : NULL;
	if (changes)
		json_object_set_new(e, "fix", json_pack("{s:s, s:b, s:o}", "title", fix->message,
			"safe", fix->applicability == SL_FIX_SAFE, "changes", changes));
	json_array_append_new(diags, dg);
	json_array_append_new(entries, e);
}

static void publish_to(sl_lsp_doc *doc, json_t *diags, json_t *entries)
{
	json_decref(doc->diagnostics);
	json_decref(doc->entries);
	doc->diagnostics = diags;
	doc->entries = entries;
}

/* --- which facts changed, which documents read them ------------------------------------------ */

/* Adds key to the news (sorted and made unique by news_done). */
static void news_add(sl_lsp_news *w, uint64_t key)
{
	uint64_t *nv = w->all ? NULL : realloc(w->keys, (w->n + 1) * sizeof *nv);
	if (!nv) {
		w->all = true;   /* memory: as if everything changed */
		return;
	}
	w->keys = nv;
	w->keys[w->n++] = key;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void news_done(sl_lsp_news *w)
{
	if (!w->n)
		return;
	qsort(w->keys, w->n, sizeof *w->keys, cmp_key);
	size_t k = 1;
	for (size_t i = 1; i < w->n; i++)
		if (w->keys[i] != w->keys[k - 1])
			w->keys[k++] = w->keys[i];
	w->n = k;
}

/* The keys whose digests differ between was[0..nw) and now[0..nn) (both sorted), as news. */
static void news_diff(sl_lsp_news *w, const sl_fact_digest *was, size_t nw,
		      const sl_fact_digest *now, size_t nn)
{
	size_t i = 0, j = 0;
	while (i < nw || j < nn) {
		if (j == nn || (i < nw && was[i].key < now[j].key))
			news_add(w, was[i++].key);
		else if (i == nw || now[j].key < was[i].key)
			news_add(w, now[j++].key);
		else {
			if (was[i].digest != now[j].digest)
				news_add(w, was[i].key);
			i++;
			j++;
		}
	}
}

bool sl_lsp_news_read_by(const sl_lsp_news *w, const sl_lsp_doc *doc)
{
	if (w->all || (!doc->reads_known && w->n))
		return true;
	for (size_t i = 0, j = 0; i < w->n && j < doc->n_reads;) {
		if (w->keys[i] == doc->reads[j])
			return true;
		if (w->keys[i] < doc->reads[j])
			i++;
		else
			j++;
	}
	return false;
}

void sl_lsp_news_free(sl_lsp_news *w)
{
	free(w->keys);
	memset(w, 0, sizeof *w);
}

/* What doc's lint in run tells of it: whether a build uses it, which of the facts the others
** see of it changed (into *news), and what it read of theirs. */
static void learn(sl_lsp_doc *doc, const sl_run *run, sl_lsp_news *news)
{
	size_t fi = file_of(run, doc->path);
	sl_file_info info = SL_FILE_INFO_INIT;
	bool got = fi != (size_t)-1 && sl_run_file(run, fi, &info) == SL_OK;
	if (doc->synced)   /* a buffer's lint cannot tell: Kustomize reads the disk */
		doc->built = (got && info.built) || kustomization_name(doc->path);
	sl_fact_digest *gives = NULL;
	size_t n_gives = 0;
	bool known = got && sl_run_file_fact_digests(run, fi, &gives, &n_gives) == SL_OK;
	/* whether it gives any (which: the digests), or, when they could not be told one by one,
	** the digest of them all */
	uint64_t now = !got ? 0 : known ? n_gives != 0 : sl_run_file_facts(run, fi);
	if (doc->edited && doc->facts != SL_LSP_FACTS_PENDING) {
		if (doc->facts == SL_LSP_FACTS_UNKNOWN || !doc->gives_known || !known)
			news->all |= doc->facts != now;   /* what the others saw of it is not known */
		else
			news_diff(news, doc->gives, doc->n_gives, gives, n_gives);
	}
	free(doc->gives);
	doc->gives = gives;
	doc->n_gives = n_gives;
	doc->gives_known = known;
	doc->edited = false;
	doc->facts = now;
	if (doc->synced && doc->disk_facts == SL_LSP_FACTS_PENDING)
		doc->disk_facts = now;
	free(doc->reads);
	doc->reads = NULL;
	doc->n_reads = 0;
	doc->reads_known = got && !doc->built &&
			   sl_run_file_reads(run, fi, &doc->reads, &doc->n_reads) == SL_OK;
}

bool sl_lsp_lint_docs(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *const *which, size_t n,
		      sl_lsp_news *news)
{
	sl_config *cfg;
	char *why = NULL;
	sl_run *run = linted(d, s, which, n, NULL, &cfg, &why);
	if (!run && !why)
		return false;
	bool *mine = calloc(d->n ? d->n : 1, sizeof *mine);
	if (!mine) {
		free(why);
		if (run)
			done(run, cfg);
		return false;
	}
	for (size_t k = 0; k < d->n; k++) {
		sl_lsp_doc *doc = d->v[k];
		if (!(doc->fresh = mine[k] = in_run(doc, which, n)))
			continue;
		sl_lsp_docs_unwait(doc);
		json_t *diags = json_array(), *entries = json_array();
		if (!run) {   /* the config or the settings: said on every document, at its start */
			add(d, doc, diags, entries, diagnostic(doc, 0, 0, 1, NULL, why, NULL), 0, 0,
			    NULL, NULL);
			publish_to(doc, diags, entries);
			continue;
		}
		learn(doc, run, news);
		size_t fi = file_of(run, doc->path);
		sl_file_info info = SL_FILE_INFO_INIT;
		if (fi != (size_t)-1 && sl_run_file(run, fi, &info) == SL_OK && info.error)
			add(d, doc, diags, entries,
			    diagnostic(doc, 0, 0, 1, NULL, info.error, NULL),
			    0, 0, NULL, NULL);
		publish_to(doc, diags, entries);
	}
	/* the findings, then the notices (Information on the chart, kustomization or template),
	** of the documents the run linted (a build's in another open file are a part of its) */
	size_t nf = run ? sl_run_finding_count(run) : 0, nn = run ? sl_run_notice_count(run) : 0;
	for (size_t i = 0; i < nf + nn; i++) {
		const sl_finding *f = i < nf ? sl_run_finding(run, i) : sl_run_notice(run, i - nf);
		sl_lsp_doc *doc = sl_lsp_docs_find_path(d, f->path);
		if (!doc)
			continue;
		size_t k = 0;
		while (d->v[k] != doc)
			k++;
		if (!mine[k])
			continue;
		/* by bytes: the library's lines also end at NEL, LS and PS, LSP's do not */
		size_t from = f->offset < doc->len ? f->offset : doc->len;
		size_t to = f->length < doc->len - from ? from + f->length : doc->len;
		json_t *dg = diagnostic(doc, from, to, lsp_severity(f->severity), f->rule, f->message,
					f->notes);
		add(d, doc, doc->diagnostics, doc->entries, dg, from, to, f->rule, f->fix);
	}
	free(mine);
	free(why);
	if (run)
		done(run, cfg);
	news_done(news);
	return true;
}

void sl_lsp_lint_closing(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc, sl_lsp_news *news)
{
	if (doc->facts == SL_LSP_FACTS_PENDING || doc->facts == SL_LSP_FACTS_UNKNOWN ||
	    !doc->gives_known) {
		news->all = true;   /* what the others saw of it is not known */
		return;
	}
	/* what its file gives: nothing when there is none, else what a run over it says */
	sl_fact_digest *disk = NULL;
	size_t n_disk = 0;
	struct stat st;
	if (stat(doc->path, &st) == 0) {
		sl_config *cfg;
		char *why = NULL;
		sl_run *run = linted(d, s, &doc, 1, doc, &cfg, &why);
		size_t fi = run ? file_of(run, doc->path) : (size_t)-1;
		news->all = fi == (size_t)-1 ||
			    sl_run_file_fact_digests(run, fi, &disk, &n_disk) != SL_OK;
		free(why);
		if (run)
			done(run, cfg);
	}
	if (!news->all)
		news_diff(news, doc->gives, doc->n_gives, disk, n_disk);
	free(disk);
	news_done(news);
}

/* --- fixes, code actions --------------------------------------------------------------------- */

/* The edit fmt makes to doc: the TextEdit from its text to the fixed one; json null when
** nothing changes or the buffer does not parse; NULL for memory. */
static json_t *fmt_edit(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc)
{
	sl_config *cfg;
	char *why = NULL;
	sl_run *run = linted(d, s, &doc, 1, NULL, &cfg, &why);
	if (!run) {
		free(why);
		return why ? json_null() : NULL;
	}
	json_t *out = json_null();
	size_t fi = file_of(run, doc->path);
	sl_file_info info = SL_FILE_INFO_INIT;
	bool blocked = fi == (size_t)-1 || sl_run_file(run, fi, &info) != SL_OK || info.error;
	for (size_t i = 0; !blocked && i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		blocked = strcmp(f->rule, "yaml-syntax") == 0 && strcmp(f->path, doc->path) == 0;
	}
	sl_fix_options fo = SL_FIX_OPTIONS_INIT;
	if (!blocked && sl_run_fix(run, &fo, NULL, NULL) == SL_OK) {
		const char *t;
		size_t n;
		sl_run_file_text(run, fi, &t, &n, NULL);
		json_t *e = sl_lsp_text_diff_edit(doc->text, doc->len, &doc->lines, t, n);
		if (e)
			out = e;
	}
	done(run, cfg);
	return out;
}

json_t *sl_lsp_lint_format(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc)
{
	json_t *e = fmt_edit(d, s, doc);
	if (!e)
		return NULL;
	if (json_is_null(e))
		return json_array();
	return json_pack("[o]", e);
}

static json_t *action(const char *title, const char *kind, const char *uri, json_t *edits,
		      json_t *diagnostic, bool preferred)
{
	json_t *a = json_pack("{s:s, s:s, s:{s:{s:o}}}", "title", title, "kind", kind, "edit",
			      "changes", uri, edits);
	if (a && diagnostic)
		json_object_set_new(a, "diagnostics", json_pack("[O]", diagnostic));
	if (a && preferred)
		json_object_set_new(a, "isPreferred", json_true());
	return a;
}

/* The edit that silences rule on the LSP line of byte offset at: a trailing
** "# schedlint: ignore[rule]", or, when the line has a '#' already (a comment, or one inside a
** quoted scalar), a comment line above it, indented as it is. */
static json_t *ignore_edit(const sl_lsp_doc *doc, size_t at, const char *rule)
{
	uint32_t line, ch;
	sl_lsp_text_position(doc->text, doc->len, &doc->lines, at, &line, &ch);
	size_t start = doc->lines.start[line];
	size_t end = sl_lsp_text_offset(doc->text, doc->len, &doc->lines, line, UINT32_MAX);
	char *text = NULL;
	size_t where;
	if (memchr(doc->text + start, '#', end - start)) {
		size_t ind = start;
		while (ind < end && (doc->text[ind] == ' ' || doc->text[ind] == '\t'))
			ind++;
		bool crlf = end + 1 < doc->len && doc->text[end] == '\r' && doc->text[end + 1] == '\n';
		if (asprintf(&text, "%.*s# schedlint: ignore[%s]%s", (int)(ind - start),
			     doc->text + start, rule, crlf ? "\r\n" : "\n") < 0)
			return NULL;
		where = start;
	} else {
		if (asprintf(&text, "  # schedlint: ignore[%s]", rule) < 0)
			return NULL;
		where = end;
	}
	json_t *e = json_pack("[{s:o, s:s}]", "range",
			      sl_lsp_text_range(doc->text, doc->len, &doc->lines, where, where),
			      "newText", text);
	free(text);
	return e;
}

json_t *sl_lsp_lint_actions(sl_lsp_docs *d, sl_lsp_settings *s, sl_lsp_doc *doc,
			    size_t from, size_t to, bool quickfix, bool fix_all)
{
	json_t *out = json_array();
	size_t i;
	json_t *e;
	/* an unsaved kustomization or built file shows what its saved text gave: byte ranges
	** of another text, so no edit is made from them */
	bool stale = doc->built && !doc->synced;
	json_array_foreach(quickfix && !stale ? doc->entries : NULL, i, e) {
		size_t a = (size_t)json_integer_value(json_object_get(e, "from"));
		size_t b = (size_t)json_integer_value(json_object_get(e, "to"));
		const char *rule = json_string_value(json_object_get(e, "rule"));
		if (!rule || b < from || a > to)
			continue;
		json_t *dg = json_object_get(e, "diagnostic"), *fix = json_object_get(e, "fix");
		if (fix) {
			bool safe = json_is_true(json_object_get(fix, "safe"));
			const char *t = json_string_value(json_object_get(fix, "title"));
			char *title = NULL;
			if (asprintf(&title, "%s%s (%s)", safe ? "" : "Unsafe fix: ", t, rule) >= 0) {
				json_t *a2 = json_pack("{s:s, s:s, s:{s:O}, s:[O]}", "title", title,
					"kind", "quickfix", "edit", "changes",
					json_object_get(fix, "changes"), "diagnostics", dg);
				if (a2 && safe)
					json_object_set_new(a2, "isPreferred", json_true());
				json_array_append_new(out, a2);
				free(title);
			}
		}
		char *title = NULL;
		json_t *edits = ignore_edit(doc, a, rule);
		if (edits && asprintf(&title, "Ignore %s on this line", rule) >= 0)
			json_array_append_new(out, action(title, "quickfix", doc->uri, edits, dg, false));
		else
			json_decref(edits);
		free(title);
	}
	if (fix_all) {
		json_t *edit = fmt_edit(d, s, doc);
		if (edit && !json_is_null(edit))
			json_array_append_new(out, action("Fix all safely fixable schedlint findings",
				FIX_ALL_KIND, doc->uri, json_pack("[o]", edit), NULL, false));
		else
			json_decref(edit);
	}
	return out;
}

/* --- hover ----------------------------------------------------------------------------------- */

json_t *sl_lsp_lint_hover(const sl_lsp_doc *doc, size_t at)
{
	char *md = NULL;
	size_t mdlen = 0;
	FILE *f = open_memstream(&md, &mdlen);
	if (!f)
		return NULL;
	size_t i, lo = SIZE_MAX, hi = 0;
	json_t *e, *seen = json_object();
	json_array_foreach(doc->entries, i, e) {
		size_t a = (size_t)json_integer_value(json_object_get(e, "from"));
		size_t b = (size_t)json_integer_value(json_object_get(e, "to"));
		const char *rule = json_string_value(json_object_get(e, "rule"));
		if (!rule || at < a || at > b || json_object_get(seen, rule))
			continue;
		json_object_set_new(seen, rule, json_true());
		int k = sl_rule_find(rule);
		sl_rule_info r = SL_RULE_INFO_INIT;
		if (k < 0 || sl_rule_get((size_t)k, &r) != SL_OK)
			continue;
		fprintf(f, "%s## %s\n\n%s\n\nCategory: %s. Default severity: %s. Fix: %s. "
			"[Documentation](" RULES_URI "%s)\n\n%s\n", lo == SIZE_MAX ? "" : "\n---\n\n",
			r.id, r.summary, r.category, sl_severity_name(r.severity),
			fix_name(r.fix), r.id, r.doc ? r.doc : "");
		lo = a < lo ? a : lo;
		hi = b > hi ? b : hi;
	}
	json_decref(seen);
	fclose(f);
	json_t *out = json_null();
	if (lo != SIZE_MAX && md)
		out = json_pack("{s:{s:s, s:s}, s:o}", "contents", "kind", "markdown", "value", md,
				"range", sl_lsp_text_range(doc->text, doc->len, &doc->lines, lo, hi));
	free(md);
	return out ? out : json_null();
}
