/* SPDX-License-Identifier: Apache-2.0
** cli/lsp/server.c: the protocol of `schedlint server` (LSP 3.17, spec/lsp.md). The lifecycle
** (initialize, initialized, shutdown, exit; a request before initialize is -32002, after
** shutdown -32600), the document notifications, and the requests: pull diagnostics, code
** actions, formatting, hover. A message that is not JSON is -32700, one that is not a request
** or notification -32600, an unknown request -32601, wrong params -32602; unknown notifications
** are ignored, as LSP says. A change is linted once the input has been quiet for the debounce
** time: its document alone, and the other open documents when it changed a fact they read
** (lint.c's digest); every document whose diagnostics changed is published. Logs go to
** stderr. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/lsp/lsp.h"

enum { ST_NEW, ST_RUNNING, ST_SHUTDOWN };
enum {
	E_PARSE = -32700, E_INVALID_REQUEST = -32600, E_NO_METHOD = -32601, E_PARAMS = -32602,
	E_INTERNAL = -32603, E_NOT_INITIALIZED = -32002
};

struct server {
	sl_lsp_wire wire;
	sl_lsp_docs docs;
	sl_lsp_settings settings;
	int state;
	bool exit;
	bool push;               /* publish diagnostics (the client does not pull them) */
	bool watch;              /* the client registers file watchers when asked */
	bool refresh;            /* a pulling client can be asked to pull again */
	int debounce_ms;
	int64_t next_id;         /* of the requests the server sends */
};

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void logf_(const char *fmt, const char *arg)
{
	fputs("schedlint server: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
}

static void reply(struct server *sv, json_t *id, json_t *result)
{
	sl_lsp_wire_send(&sv->wire, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id,
					      "result", result ? result : json_null()));
}

static void fail(struct server *sv, json_t *id, int code, const char *message)
{
	sl_lsp_wire_send(&sv->wire, json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0", "id",
					      id ? id : json_null(), "error", "code", code,
					      "message", message));
}

static void notify(struct server *sv, const char *method, json_t *params)
{
	sl_lsp_wire_send(&sv->wire, json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method", method,
					      "params", params));
}

/* --- diagnostics ------------------------------------------------------------------------ */

static void publish(struct server *sv, sl_lsp_doc *doc)
{
	if (!sv->push)
		return;
	json_t *p = json_pack("{s:s, s:o}", "uri", doc->uri, "diagnostics",
			      doc->diagnostics ? json_incref(doc->diagnostics) : json_array());
	if (p && doc->version >= 0)
		json_object_set_new(p, "version", json_integer(doc->version));
	notify(sv, "textDocument/publishDiagnostics", p);
}

static void all_due(struct server *sv, int64_t at);

/* Lints the documents due by upto (monotonic ms), at once in one run (a change re-lints its
** document, not every open one); publishes them and every document whose diagnostics changed. A due
** kustomization or built file with unsaved changes keeps what it has: Kustomize builds from
** the disk, so it is linted again when saved. When a document linted changed facts, the
** others that read one of them are due now (one more run over those: latency follows the
** edited file and the documents that read what it changed, not the open ones). */
static void lint_now(struct server *sv, int64_t upto)
{
	size_t n = sv->docs.n, nw = 0;
	json_t **before = calloc(n ? n : 1, sizeof *before);
	sl_lsp_doc **which = calloc(n ? n : 1, sizeof *which);
	if (!before || !which) {
		free(before);
		free(which);
		return;
	}
	int64_t now = now_ms();
	for (size_t i = 0; i < n; i++) {
		sl_lsp_doc *doc = sv->docs.v[i];
		before[i] = json_incref(doc->diagnostics);
		bool due = doc->due_ms && doc->due_ms <= upto;
		if (due && doc->built && !doc->synced && doc->diagnostics)
			doc->due_ms = 0;   /* until it is saved */
		else if (due || !doc->diagnostics)
			which[nw++] = doc;
	}
	sl_lsp_news news = {0};
	if (nw && !sl_lsp_lint_docs(&sv->docs, &sv->settings, which, nw, &news))
		logf_("%s", "out of memory while linting");
	bool changed = false;
	for (size_t i = 0, k = 0; i < n; i++) {
		sl_lsp_doc *doc = sv->docs.v[i];
		bool linted = k < nw && which[k] == doc;   /* which is in the documents' order */
		k += linted;
		bool differs = before[i] && !json_equal(before[i], doc->diagnostics);
		changed |= differs;
		if (linted || differs)
			publish(sv, doc);
		/* those of the others that read what changed: each of them again (now) */
		bool reads = nw && !doc->fresh && sl_lsp_news_read_by(&news, doc);
		doc->due_ms = linted ? 0 : reads && !doc->due_ms ? now : doc->due_ms;
		json_decref(before[i]);
	}
	sl_lsp_news_free(&news);
	free(before);
	free(which);
	/* a pulling client pulls after its own edits; what changed otherwise (another buffer,
	** the project on disk, the settings) it learns of when asked to pull again */
	if (changed && !sv->push && sv->refresh)
		sl_lsp_wire_send(&sv->wire, json_pack("{s:s, s:I, s:s}", "jsonrpc", "2.0", "id",
						      (json_int_t)++sv->next_id, "method",
						      "workspace/diagnostic/refresh"));
}

static bool any_due(const struct server *sv, int64_t *earliest)
{
	bool any = false;
	*earliest = 0;
	for (size_t i = 0; i < sv->docs.n; i++) {
		int64_t t = sv->docs.v[i]->due_ms;
		if (t && (!any || t < *earliest)) {
			*earliest = t;
			any = true;
		}
	}
	return any;
}

static void all_due(struct server *sv, int64_t at)
{
	for (size_t i = 0; i < sv->docs.n; i++)
		sv->docs.v[i]->due_ms = at;
}

/* --- params --------------------------------------------------------------------------- */

static const char *str_at(const json_t *o, const char *a, const char *b)
{
	const json_t *v = json_object_get(o, a);
	return json_string_value(b ? json_object_get(v, b) : v);
}

static sl_lsp_doc *doc_of(struct server *sv, const json_t *params)
{
	const char *uri = str_at(params, "textDocument", "uri");
	return uri ? sl_lsp_docs_find(&sv->docs, uri) : NULL;
}

/* A request's document, linted if a change is pending; NULL (the error sent) when the params
** name none that is open. */
static sl_lsp_doc *current_doc(struct server *sv, json_t *id, const json_t *params)
{
	if (!str_at(params, "textDocument", "uri")) {
		fail(sv, id, E_PARAMS, "params.textDocument.uri is missing");
		return NULL;
	}
	sl_lsp_doc *doc = doc_of(sv, params);
	if (!doc) {
		fail(sv, id, E_PARAMS, "the document is not open (send textDocument/didOpen first)");
		return NULL;
	}
	int64_t t;
	if (any_due(sv, &t) || !doc->diagnostics)
		lint_now(sv, INT64_MAX);   /* every pending change: the answer is of the text now */
	return doc;
}

static bool read_range(const sl_lsp_doc *doc, const json_t *range, size_t *from, size_t *to)
{
	uint32_t l1, c1, l2, c2;
	if (!sl_lsp_text_read_position(json_object_get(range, "start"), &l1, &c1) ||
	    !sl_lsp_text_read_position(json_object_get(range, "end"), &l2, &c2))
		return false;
	*from = sl_lsp_text_offset(doc->text, doc->len, &doc->lines, l1, c1);
	*to = sl_lsp_text_offset(doc->text, doc->len, &doc->lines, l2, c2);
	return *from <= *to;
}

/* --- notifications -------------------------------------------------------------------- */

static void did_open(struct server *sv, const json_t *p)
{
	const json_t *td = json_object_get(p, "textDocument");
	const char *uri = str_at(td, "uri", NULL);
	const json_t *text = json_object_get(td, "text"), *v = json_object_get(td, "version");
	if (!uri || !json_is_string(text)) {
		logf_("%s", "textDocument/didOpen without textDocument.uri and .text: ignored");
		return;
	}
	sl_lsp_doc *doc = sl_lsp_docs_open(&sv->docs, uri, json_string_value(text),
					   json_string_length(text),
					   json_is_integer(v) ? json_integer_value(v) : -1);
	if (!doc) {
		logf_("%s", "out of memory opening a document");
		return;
	}
	doc->due_ms = now_ms();   /* lint at once: nothing is shown yet */
	sl_lsp_docs_opened(&sv->docs, doc, doc->due_ms);   /* and those whose fixes edit it */
}

/* One contentChanges item: with a range, an incremental edit; without, the whole text. */
static bool apply_change(sl_lsp_doc *doc, const json_t *c)
{
	const json_t *text = json_object_get(c, "text"), *range = json_object_get(c, "range");
	if (!json_is_string(text))
		return false;
	if (!range) {
		char *t = strndup(json_string_value(text), json_string_length(text));
		if (!t)
			return false;
		size_t len = json_string_length(text);
		if (!sl_lsp_docs_set_text(doc, t, len)) {
			free(t);
			return false;
		}
		return true;
	}
	size_t from, to;
	if (!read_range(doc, range, &from, &to))
		return false;
	char *t = doc->text;
	size_t len = doc->len;
	if (!sl_lsp_text_splice(&t, &len, from, to, json_string_value(text), json_string_length(text)))
		return false;
	doc->text = t;   /* the splice may have moved it */
	return sl_lsp_docs_set_text(doc, t, len);
}

static void did_change(struct server *sv, const json_t *p)
{
	sl_lsp_doc *doc = doc_of(sv, p);
	const json_t *changes = json_object_get(p, "contentChanges");
	if (!doc || !json_is_array(changes)) {
		logf_("%s", "textDocument/didChange of a document that is not open, or without "
			    "contentChanges: ignored");
		return;
	}
	size_t i;
	json_t *c;
	json_array_foreach(changes, i, c) {
		if (!apply_change(doc, c)) {
			logf_("%s", "textDocument/didChange: a change that is no TextDocumentContentChangeEvent "
				    "(or out of memory): the rest of the message ignored");
			break;
		}
	}
	const json_t *v = json_object_get(json_object_get(p, "textDocument"), "version");
	if (json_is_integer(v))
		doc->version = json_integer_value(v);
	doc->due_ms = now_ms() + sv->debounce_ms;
	doc->synced = false;   /* until saved (an undo back to the file's text is not looked for) */
	doc->edited = true;
	if (doc->disk_facts == SL_LSP_FACTS_PENDING)   /* opened or saved, not linted since */
		doc->disk_facts = SL_LSP_FACTS_UNKNOWN;
	if (doc->facts == SL_LSP_FACTS_PENDING)
		doc->facts = doc->disk_facts;
}

static void did_close(struct server *sv, const json_t *p)
{
	sl_lsp_doc *doc = doc_of(sv, p);
	if (!doc)
		return;
	/* its diagnostics go with it */
	if (sv->push)
		notify(sv, "textDocument/publishDiagnostics",
		       json_pack("{s:s, s:[]}", "uri", doc->uri, "diagnostics"));
	/* the file on disk speaks for it again: to the others too when what they saw of it was
	** its buffer, those that read a fact the file gives otherwise (any, when a kustomization's
	** builds may change) */
	sl_lsp_news news = {0};
	if (doc->built)
		news.all = true;
	else if (!doc->synced && (doc->facts || doc->disk_facts))
		sl_lsp_lint_closing(&sv->docs, &sv->settings, doc, &news);
	sl_lsp_docs_close(&sv->docs, doc->uri);
	int64_t now = now_ms();
	for (size_t i = 0; i < sv->docs.n; i++) {
		sl_lsp_doc *other = sv->docs.v[i];
		if (sl_lsp_news_read_by(&news, other) && (!other->due_ms || other->due_ms > now))
			other->due_ms = now;
	}
	sl_lsp_news_free(&news);
}

/* True when path names a config file (.schedlint.yaml, or the one the settings name). */
static bool is_config(const struct server *sv, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	return strcmp(base, ".schedlint.yaml") == 0 ||
	       (sv->settings.config && strcmp(sv->settings.config, path) == 0);
}

/* A document was saved: its file is its text now. The project is read again (other files
** may have changed with it) and the document linted with it; a kustomization's builds read
** the disk, and a config governs every document: those relint every document. Otherwise
** what the others read of it is what they read before (its buffer, or the same file). */
static void did_save(struct server *sv, const json_t *p)
{
	sl_lsp_doc *doc = doc_of(sv, p);
	if (!doc) {   /* a file that is not open: as a watched file's change */
		sl_lsp_lint_forget_project(&sv->settings);
		all_due(sv, now_ms());
		return;
	}
	doc->synced = sl_lsp_docs_on_disk(doc);
	bool everyone = doc->built || is_config(sv, doc->path);
	sl_lsp_lint_forget_project(&sv->settings);
	doc->due_ms = now_ms();
	/* the lint gives the digest of the file: the text is the disk's */
	doc->disk_facts = doc->synced ? SL_LSP_FACTS_PENDING : SL_LSP_FACTS_UNKNOWN;
	if (everyone)
		all_due(sv, now_ms());
}

/* Files changed on disk: each open document whose buffer is what its file now holds (its own
** save) changes nothing; any other file may hold facts, so the project is read again and
** every document linted. */
static void did_change_watched(struct server *sv, const json_t *p)
{
	const json_t *changes = json_object_get(p, "changes");
	size_t i;
	json_t *c;
	bool relevant = !json_array_size(changes);   /* none named: anything may have changed */
	json_array_foreach(json_is_array(changes) ? changes : NULL, i, c) {
		const char *uri = str_at(c, "uri", NULL);
		sl_lsp_doc *doc = uri ? sl_lsp_docs_find(&sv->docs, uri) : NULL;
		if (doc && doc->synced && sl_lsp_docs_on_disk(doc))
			continue;
		if (doc) {   /* changed under its buffer */
			doc->synced = false;
			doc->disk_facts = SL_LSP_FACTS_UNKNOWN;
		}
		relevant = true;
	}
	if (relevant) {
		sl_lsp_lint_forget_project(&sv->settings);
		all_due(sv, now_ms());
	}
}

static void set_settings(struct server *sv, const json_t *o)
{
	const char *why;
	const json_t *inner = json_object_get(o, "schedlint");
	if (!sl_lsp_lint_settings(&sv->settings, inner ? inner : o, &why))
		logf_("settings ignored: %s", why ? why : "out of memory");
	const json_t *db = json_object_get(inner ? inner : o, "debounceMs");
	if (json_is_integer(db) && json_integer_value(db) >= 0 && json_integer_value(db) <= 10000)
		sv->debounce_ms = (int)json_integer_value(db);
}

/* Asks the client to tell of changes to the project's YAML files and configs (the facts and
** configs every buffer is linted with): workspace/didChangeWatchedFiles then relints. */
static void register_watchers(struct server *sv)
{
	sl_lsp_wire_send(&sv->wire, json_pack(
		"{s:s, s:I, s:s, s:{s:[{s:s, s:s, s:{s:[{s:s}, {s:s}]}}]}}", "jsonrpc", "2.0", "id",
		(json_int_t)++sv->next_id, "method", "client/registerCapability", "params",
		"registrations", "id", "schedlint-watch", "method", "workspace/didChangeWatchedFiles",
		"registerOptions", "watchers", "globPattern", "**/*.{yaml,yml}", "globPattern",
		"**/.schedlint.yaml"));
}

static void notification(struct server *sv, const char *m, const json_t *p)
{
	if (strcmp(m, "initialized") == 0) {
		if (sv->watch)
			register_watchers(sv);
		return;
	}
	if (strcmp(m, "textDocument/didOpen") == 0)
		did_open(sv, p);
	else if (strcmp(m, "textDocument/didChange") == 0)
		did_change(sv, p);
	else if (strcmp(m, "textDocument/didClose") == 0)
		did_close(sv, p);
	else if (strcmp(m, "textDocument/didSave") == 0)
		did_save(sv, p);
	else if (strcmp(m, "workspace/didChangeWatchedFiles") == 0)
		did_change_watched(sv, p);
	else if (strcmp(m, "workspace/didChangeConfiguration") == 0) {
		const json_t *s = json_object_get(p, "settings");
		if (json_is_object(s) && json_object_size(s))
			set_settings(sv, s);
		all_due(sv, now_ms());
	}
}

/* --- requests --------------------------------------------------------------------------- */

static void initialize(struct server *sv, json_t *id, const json_t *p)
{
	const json_t *caps = json_object_get(p, "capabilities");
	sv->push = !json_object_get(json_object_get(caps, "textDocument"), "diagnostic");
	sv->refresh = json_is_true(json_object_get(json_object_get(json_object_get(caps, "workspace"),
		"diagnostics"), "refreshSupport"));
	sv->watch = json_is_true(json_object_get(json_object_get(json_object_get(caps, "workspace"),
		"didChangeWatchedFiles"), "dynamicRegistration"));
	const json_t *opts = json_object_get(p, "initializationOptions");
	if (json_is_object(opts))
		set_settings(sv, opts);
	/* the workspace is the working directory: paths, configs and the project resolve from
	** it as they do for `schedlint check` run there */
	const char *root = str_at(p, "rootUri", NULL);
	const json_t *folders = json_object_get(p, "workspaceFolders");
	if (json_is_array(folders) && json_array_size(folders))
		root = str_at(json_array_get(folders, 0), "uri", NULL);
	char *dir = root && strncmp(root, "file://", 7) == 0 ? sl_lsp_docs_path(root) : NULL;
	if (!dir && str_at(p, "rootPath", NULL))
		dir = strdup(str_at(p, "rootPath", NULL));
	if (dir && *dir && chdir(dir) != 0)
		logf_("cannot enter the workspace %s: linting from the working directory", dir);
	free(dir);
	json_t *caps_out = json_pack(
		"{s:s, s:{s:b, s:i, s:b, s:{s:b}}, s:{s:[s, s]}, s:b, s:b,"
		" s:{s:s, s:b, s:b}}",
		"positionEncoding", "utf-16",
		"textDocumentSync", "openClose", 1, "change", 2, "willSave", 0, "save",
		"includeText", 0,
		"codeActionProvider", "codeActionKinds", "quickfix", "source.fixAll.schedlint",
		"documentFormattingProvider", 1, "hoverProvider", 1,
		"diagnosticProvider", "identifier", "schedlint", "interFileDependencies", 1,
		"workspaceDiagnostics", 0);
	reply(sv, id, json_pack("{s:o, s:{s:s, s:s}}", "capabilities", caps_out, "serverInfo",
				"name", "schedlint", "version", sl_version()));
	sv->state = ST_RUNNING;
}

/* Whether the client's context.only lets a code action of kind through (LSP: a kind matches
** a listed one it equals or extends with a '.'). */
static bool wanted(const json_t *only, const char *kind)
{
	if (!json_is_array(only))
		return true;
	size_t i;
	json_t *k;
	json_array_foreach(only, i, k) {
		const char *s = json_string_value(k);
		size_t n = s ? strlen(s) : 0;
		if (s && strncmp(kind, s, n) == 0 && (kind[n] == '\0' || kind[n] == '.'))
			return true;
	}
	return false;
}

static void code_action(struct server *sv, json_t *id, const json_t *p)
{
	sl_lsp_doc *doc = current_doc(sv, id, p);
	if (!doc)
		return;
	size_t from, to;
	if (!read_range(doc, json_object_get(p, "range"), &from, &to)) {
		fail(sv, id, E_PARAMS, "params.range is not a Range");
		return;
	}
	const json_t *only = json_object_get(json_object_get(p, "context"), "only");
	json_t *a = sl_lsp_lint_actions(&sv->docs, &sv->settings, doc, from, to,
					wanted(only, "quickfix"),
					wanted(only, "source.fixAll.schedlint"));
	if (!a)
		fail(sv, id, E_INTERNAL, "out of memory");
	else
		reply(sv, id, a);
}

static void request(struct server *sv, const char *m, json_t *id, const json_t *p)
{
	if (strcmp(m, "initialize") == 0) {
		if (sv->state != ST_NEW)
			fail(sv, id, E_INVALID_REQUEST, "initialize was sent already");
		else if (!json_is_object(p))
			fail(sv, id, E_PARAMS, "initialize needs InitializeParams");
		else
			initialize(sv, id, p);
		return;
	}
	if (sv->state == ST_NEW) {
		fail(sv, id, E_NOT_INITIALIZED, "the server is not initialized yet");
		return;
	}
	if (sv->state == ST_SHUTDOWN) {
		fail(sv, id, E_INVALID_REQUEST, "the server is shut down: only exit is accepted");
		return;
	}
	if (strcmp(m, "shutdown") == 0) {
		sv->state = ST_SHUTDOWN;
		reply(sv, id, json_null());
		return;
	}
	bool known = strcmp(m, "textDocument/diagnostic") == 0 ||
		     strcmp(m, "textDocument/codeAction") == 0 ||
		     strcmp(m, "textDocument/formatting") == 0 || strcmp(m, "textDocument/hover") == 0;
	if (!known) {
		fail(sv, id, E_NO_METHOD, "method not found");
		return;
	}
	if (!json_is_object(p)) {
		fail(sv, id, E_PARAMS, "params must be an object");
		return;
	}
	if (strcmp(m, "textDocument/codeAction") == 0) {
		code_action(sv, id, p);
		return;
	}
	sl_lsp_doc *doc = current_doc(sv, id, p);
	if (!doc)
		return;
	if (strcmp(m, "textDocument/diagnostic") == 0) {
		reply(sv, id, json_pack("{s:s, s:o}", "kind", "full", "items",
					doc->diagnostics ? json_incref(doc->diagnostics) : json_array()));
	} else if (strcmp(m, "textDocument/formatting") == 0) {
		json_t *edits = sl_lsp_lint_format(&sv->docs, &sv->settings, doc);
		if (edits)
			reply(sv, id, edits);
		else
			fail(sv, id, E_INTERNAL, "out of memory");
	} else {
		uint32_t line, ch;
		if (!sl_lsp_text_read_position(json_object_get(p, "position"), &line, &ch)) {
			fail(sv, id, E_PARAMS, "params.position is not a Position");
			return;
		}
		reply(sv, id, sl_lsp_lint_hover(doc, sl_lsp_text_offset(doc->text, doc->len,
									&doc->lines, line, ch)));
	}
}

/* --- messages --------------------------------------------------------------------------- */

static void message(struct server *sv, const char *body, size_t len)
{
	json_error_t je;
	json_t *msg = json_loadb(body, len, JSON_ALLOW_NUL | JSON_DECODE_ANY, &je);
	if (!msg) {
		char why[256];
		snprintf(why, sizeof why, "parse error: %s (line %d, column %d)", je.text, je.line,
			 je.column);
		fail(sv, NULL, E_PARSE, why);
		return;
	}
	json_t *id = json_object_get(msg, "id");
	const json_t *method = json_object_get(msg, "method");
	const json_t *params = json_object_get(msg, "params");
	bool id_ok = !id || json_is_string(id) || json_is_integer(id) || json_is_null(id);
	if (!json_is_object(msg) || !json_is_string(json_object_get(msg, "jsonrpc")) ||
	    strcmp(json_string_value(json_object_get(msg, "jsonrpc")), "2.0") != 0 || !id_ok) {
		fail(sv, id_ok ? id : NULL, E_INVALID_REQUEST,
		     "invalid request: not a JSON-RPC 2.0 message object");
	} else if (!method) {
		/* a response to a request of ours (we send none that need one): nothing to do */
		if (!id || !(json_object_get(msg, "result") || json_object_get(msg, "error")))
			fail(sv, id, E_INVALID_REQUEST, "invalid request: no method");
	} else if (!json_is_string(method)) {
		fail(sv, id, E_INVALID_REQUEST, "invalid request: method is not a string");
	} else if (params && !json_is_object(params) && !json_is_array(params)) {
		if (id)
			fail(sv, id, E_INVALID_REQUEST, "invalid request: params is neither object nor array");
	} else if (id) {
		request(sv, json_string_value(method), id, params);
	} else if (strcmp(json_string_value(method), "exit") == 0) {
		sv->exit = true;
	} else if (sv->state == ST_RUNNING) {
		notification(sv, json_string_value(method), params);
	}
	json_decref(msg);
}

int sl_lsp_server_run(int in, int out, const sl_lsp_server_options *opts)
{
	struct server sv = {.state = ST_NEW, .push = true, .debounce_ms = opts->debounce_ms};
	sl_lsp_wire_init(&sv.wire, in, out);
	int status = 1;
	while (!sv.exit && !sv.wire.broken) {
		int64_t due, timeout = -1;
		if (any_due(&sv, &due)) {
			int64_t left = due - now_ms();
			timeout = left < 0 ? 0 : left > INT_MAX ? INT_MAX : left;
		}
		char *body = NULL;
		size_t len = 0;
		sl_lsp_wire_status st = sl_lsp_wire_read(&sv.wire, (int)timeout, &body, &len);
		if (st == SL_LSP_WIRE_MESSAGE)
			message(&sv, body, len);
		else if (st == SL_LSP_WIRE_BAD) {
			logf_("%s", body ? body : "a bad message header");
			fail(&sv, NULL, E_PARSE, body ? body : "a bad message header");
		} else if (st == SL_LSP_WIRE_TIMEOUT)
			lint_now(&sv, now_ms());
		free(body);
		if (st == SL_LSP_WIRE_EOF) {
			if (sv.state != ST_SHUTDOWN)
				logf_("%s", "the input closed before shutdown and exit");
			break;
		}
	}
	if (sv.state == ST_SHUTDOWN)
		status = 0;
	sl_lsp_docs_free(&sv.docs);
	sl_lsp_lint_settings_free(&sv.settings);
	sl_lsp_wire_free(&sv.wire);
	return status;
}
