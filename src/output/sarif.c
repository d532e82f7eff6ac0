/* SPDX-License-Identifier: Apache-2.0
** sarif.c: the SARIF 2.1.0 report (spec/cli.md, "Outputs"), for GitHub code scanning and any
** SARIF viewer. Written with jansson, never by hand. One run: tool.driver with every rule of
** the registry (the notice rules as its notifications), one result per finding (relative
** artifact URIs under %SRCROOT%, code-point columns, a partial fingerprint that does not depend
** on line numbers, fixes as replacements), and one invocation whose toolExecutionNotifications
** carry the files that could not be read (level error) and the notices (level note, their rule
** as the descriptor). */
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "output/escape.h"
#include "output/output.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define INFO_URI "https://github.com/schedlint/schedlint"
#define HELP_URI INFO_URI "/blob/main/docs/rules.md#"
#define FINGERPRINT_KEY "schedlintFingerprint/v1"
#define SRCROOT "%SRCROOT%"
/* GitHub's limit for shortDescription and fullDescription. */
#define DESCRIPTION_MAX 1024

/* ---- artifact URIs ---- */

/* RFC 3986: unreserved characters, sub-delims, "@" and "/" stay; everything else (":" so that
** a relative reference never looks like a scheme, "%", "#", "?", spaces, non-ASCII bytes) is
** percent-encoded. */
static bool uri_keep(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("-._~!$&'()*+,;=@/", c) != NULL;
}

static char *uri_encode(const char *prefix, const char *s)
{
	size_t pl = strlen(prefix), n = strlen(s);
	char *o = malloc(pl + 3 * n + 1);
	if (!o)
		return NULL;
	memcpy(o, prefix, pl);
	char *w = o + pl;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (uri_keep(*p) && *p) {
			*w++ = (char)*p;
		} else {
			static const char hexd[] = "0123456789ABCDEF";
			*w++ = '%';
			*w++ = hexd[*p >> 4];
			*w++ = hexd[*p & 15];
		}
	}
	*w = '\0';
	return o;
}

/* Resolves "." and ".." and repeated slashes in an absolute path, in place. */
static void normalize(char *abs)
{
	char *r = abs, *w = abs;
	while (*r) {
		while (*r == '/')
			r++;
		char *seg = r;
		while (*r && *r != '/')
			r++;
		size_t len = (size_t)(r - seg);
		if (len == 0 || (len == 1 && seg[0] == '.'))
			continue;
		if (len == 2 && seg[0] == '.' && seg[1] == '.') {
			while (w > abs && *--w != '/')
				;
			continue;
		}
		*w++ = '/';
		memmove(w, seg, len);
		w += len;
	}
	if (w == abs)
		*w++ = '/';
	*w = '\0';
}

typedef struct uri_ctx {
	char cwd[PATH_MAX];   /* the physical working directory, "" when unknown */
	char *last_path;      /* the last path resolved and its artifactLocation (findings come */
	json_t *last_loc;     /* sorted by path, so most lookups hit) */
} uri_ctx;

/* The artifactLocation of a reported path: relative to %SRCROOT% (the working directory) when
** the file is under it, else an absolute file URI. Symbolic links are resolved when the file
** exists (GitHub wants the real path); a path that does not (--stdin-filename) is resolved
** lexically. */
static json_t *resolve_location(const uri_ctx *u, const char *path)
{
	char real[PATH_MAX], *abs = NULL;
	if (strcmp(path, "-") != 0 && realpath(path, real)) {
		abs = strdup(real);
	} else if (path[0] == '/' || !u->cwd[0]) {
		abs = strdup(path);
	} else {
		size_t a = strlen(u->cwd), b = strlen(path);
		abs = malloc(a + b + 2);
		if (abs) {
			memcpy(abs, u->cwd, a);
			abs[a] = '/';
			memcpy(abs + a + 1, path, b + 1);
		}
	}
	if (!abs)
		return NULL;
	char *uri = NULL;
	json_t *loc = NULL;
	if (abs[0] == '/') {
		normalize(abs);
		size_t cl = strlen(u->cwd);
		const char *rel = NULL;
		if (cl && strcmp(u->cwd, "/") == 0)
			rel = abs + 1;
		else if (cl && strncmp(abs, u->cwd, cl) == 0 && abs[cl] == '/')
			rel = abs + cl + 1;
		if (rel && *rel) {
			uri = uri_encode("", rel);
			loc = uri ? json_pack("{s:s, s:s}", "uri", uri, "uriBaseId", SRCROOT) : NULL;
		} else {
			uri = uri_encode("file://", abs);
			loc = uri ? json_pack("{s:s}", "uri", uri) : NULL;
		}
	} else {
		/* No working directory: the path as given, without a leading "./". */
		const char *p = abs;
		while (p[0] == '.' && p[1] == '/')
			p += 2;
		uri = uri_encode("", p);
		loc = uri ? json_pack("{s:s, s:s}", "uri", uri, "uriBaseId", SRCROOT) : NULL;
	}
	free(uri);
	free(abs);
	return loc;
}

/* The artifactLocation of path; a new reference (JSON values may be shared in a tree). */
static json_t *artifact_location(uri_ctx *u, const char *path)
{
	if (u->last_path && strcmp(u->last_path, path) == 0)
		return json_incref(u->last_loc);
	json_t *loc = resolve_location(u, path);
	char *copy = loc ? strdup(path) : NULL;
	if (copy) {
		free(u->last_path);
		json_decref(u->last_loc);
		u->last_path = copy;
		u->last_loc = json_incref(loc);
	}
	return loc;
}

/* ---- rules ---- */

static const char *level_name(sl_severity sev)
{
	switch (sev) {
	case SL_SEV_ERROR: return "error";
	case SL_SEV_WARNING: return "warning";
	case SL_SEV_INFO: return "note";
	default: return "none";
	}
}

/* "gpu-request-without-limit" -> "GpuRequestWithoutLimit". */
static char *pascal_case(const char *id)
{
	char *o = malloc(strlen(id) + 1), *w = o;
	if (!o)
		return NULL;
	bool up = true;
	for (const char *p = id; *p; p++) {
		if (*p == '-' || *p == '_' || *p == '.') {
			up = true;
			continue;
		}
		*w++ = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
		up = false;
	}
	*w = '\0';
	return o;
}

/* A text that ends with a full stop (SARIF messages are sentences; GitHub shows the first).
** With max != SIZE_MAX it is also made one paragraph (whitespace runs, line breaks included,
** become one space: for the hard-wrapped rule docs) of at most max bytes: cut after the last
** whole sentence that fits, else on a code-point boundary with "...". */
static char *sentence(const char *s, size_t len, size_t max)
{
	if (max == SIZE_MAX) {
		char *o = malloc(len + 2);
		if (!o)
			return NULL;
		memcpy(o, s, len);
		if (len && !strchr(".!?", o[len - 1]))
			o[len++] = '.';
		o[len] = '\0';
		return o;
	}
	char *o = malloc(len + 4), *w = o;
	if (!o)
		return NULL;
	bool space = false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = w != o;
			continue;
		}
		if (space)
			*w++ = ' ';
		space = false;
		*w++ = c;
	}
	size_t n = (size_t)(w - o);
	if (n + 1 > max) {
		size_t cut = 0;
		for (size_t i = 1; i + 1 < max && i < n; i++)
			if (o[i - 1] == '.' && o[i] == ' ')
				cut = i;
		if (cut > max / 2) {
			n = cut;
		} else {
			n = max - 4;
			while (n && ((unsigned char)o[n] & 0xC0) == 0x80)
				n--;
			while (n && o[n - 1] == ' ')
				n--;
			memcpy(o + n, "...", 3);
			n += 3;
		}
	}
	if (n && !strchr(".!?", o[n - 1]))
		o[n++] = '.';
	o[n] = '\0';
	return o;
}

/* The first paragraph of the doc's "## What it does" section, else the summary. */
static char *full_description(const sl_rule_info *r)
{
	static const char head[] = "## What it does\n";
	const char *doc = r->doc ? r->doc : "";
	const char *p = strstr(doc, head);
	if (p) {
		p += sizeof head - 1;
		const char *end = strstr(p, "\n\n");
		const char *sec = strstr(p, "\n#");
		if (!end || (sec && sec < end))
			end = sec;
		if (!end)
			end = p + strlen(p);
		if (end > p)
			return sentence(p, (size_t)(end - p), DESCRIPTION_MAX);
	}
	return sentence(r->summary, strlen(r->summary), DESCRIPTION_MAX);
}

/* True when catalogue entry i has the id of an earlier one: two configs of the run declared a
** custom rule of that id. rules[] lists each id once. */
static bool repeats_id(size_t i)
{
	sl_rule_info r, e;
	if (sl_rule_get(i, &r) != SL_OK)
		return false;
	for (size_t j = 0; j < i; j++)
		if (sl_rule_get(j, &e) == SL_OK && strcmp(e.id, r.id) == 0)
			return true;
	return false;
}

/* True when catalogue entry i is a notice rule: a descriptor of tool.driver.notifications, not
** of rules. */
static bool is_notice(size_t i)
{
	return sl_rule_notice(i, 1) != NULL;
}

/* The index of rule id among the descriptors of its kind (rules[], or notifications[] for a
** notice rule), or -1. */
static int rule_index(const char *id)
{
	int at = sl_rule_find(id);
	if (at < 0)
		return -1;
	bool notice = is_notice((size_t)at);
	int idx = 0;
	for (size_t i = 0; i < (size_t)at; i++)
		idx += !repeats_id(i) && is_notice(i) == notice;
	return idx;
}

static json_t *rule_json(const sl_rule_info *r)
{
	char *name = pascal_case(r->id);
	char *shortd = sentence(r->summary, strlen(r->summary), DESCRIPTION_MAX);
	char *fulld = full_description(r);
	char *help_uri = malloc(strlen(HELP_URI) + strlen(r->id) + 1);
	json_t *o = NULL;
	if (name && shortd && fulld && help_uri) {
		strcpy(help_uri, HELP_URI);
		strcat(help_uri, r->id);
		const char *doc = r->doc && *r->doc ? r->doc : r->summary;
		const char *psev = r->severity == SL_SEV_ERROR ? "error"
				   : r->severity == SL_SEV_WARNING ? "warning" : "recommendation";
		json_t *conf = json_pack("{s:s}", "level", level_name(r->severity));
		if (conf && !r->enabled_by_default)
			json_object_set_new(conf, "enabled", json_false());
		o = json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s, s:s}, s:s, s:o, "
			      "s:{s:[s, s, s], s:s}}",
			      "id", r->id, "name", name, "shortDescription", "text", shortd,
			      "fullDescription", "text", fulld, "help", "text", doc, "markdown", doc,
			      "helpUri", help_uri, "defaultConfiguration", conf,
			      "properties", "tags", r->category, "kubernetes", "scheduling",
			      "problem.severity", psev);
		if (o && strchr(r->id, '/'))   /* a custom rule: its doc is in a config, not rules.md */
			json_object_del(o, "helpUri");
	}
	free(name);
	free(shortd);
	free(fulld);
	free(help_uri);
	return o;
}

/* ---- results ---- */

static json_t *region(uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col)
{
	if (!line)
		return NULL;
	if (!col)
		col = 1;
	if (end_line < line) {
		end_line = line;
		end_col = col;
	}
	if (!end_col || (end_line == line && end_col < col))
		end_col = col;
	return json_pack("{s:I, s:I, s:I, s:I}", "startLine", (json_int_t)line, "startColumn",
			 (json_int_t)col, "endLine", (json_int_t)end_line, "endColumn",
			 (json_int_t)end_col);
}

static json_t *fix_json(uri_ctx *u, const sl_finding *f)
{
	const sl_fix *fx = f->fix;
	json_t *changes = json_array();
	if (!changes)
		return NULL;
	bool ok = true;
	/* One artifactChange per file, its replacements in the fix's order. */
	for (size_t i = 0; i < fx->n_edits && ok; i++) {
		const sl_edit *e = &fx->edits[i];
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(fx->edits[j].path, e->path) == 0;
		if (seen)
			continue;
		json_t *reps = json_array();
		for (size_t j = i; j < fx->n_edits && reps; j++) {
			const sl_edit *x = &fx->edits[j];
			if (strcmp(x->path, e->path) != 0)
				continue;
			json_t *del = region(x->line, x->column, x->end_line, x->end_column);
			if (!del)
				del = json_object();
			json_object_set_new(del, "byteOffset", json_integer((json_int_t)x->offset));
			json_object_set_new(del, "byteLength", json_integer((json_int_t)x->length));
			json_t *rep = json_pack("{s:o}", "deletedRegion", del);
			if (rep && x->content && *x->content)
				json_object_set_new(rep, "insertedContent",
						    json_pack("{s:o}", "text", sl_escape_json(x->content)));
			ok = rep && json_array_append_new(reps, rep) == 0;
		}
		json_t *ch = reps ? json_pack("{s:o, s:o}", "artifactLocation",
					      artifact_location(u, e->path), "replacements", reps)
				  : NULL;
		ok = ch && json_array_append_new(changes, ch) == 0;
	}
	const char *msg = fx->message ? fx->message : "Apply the suggested fix";
	char *desc = sentence(msg, strlen(msg), SIZE_MAX);
	json_t *o = ok && desc ? json_pack("{s:{s:o}, s:o, s:{s:s}}", "description", "text", sl_escape_json(desc),
					   "artifactChanges", changes, "properties", "applicability",
					   fx->applicability == SL_FIX_UNSAFE ? "unsafe" : "safe")
			       : NULL;
	if (!o)
		json_decref(changes);
	free(desc);
	return o;
}

/* f's message as a sentence, its notes after it, a paragraph each (malloc'd). */
static char *message_text(const sl_finding *f)
{
	char *msg = sentence(f->message, strlen(f->message), SIZE_MAX);
	if (msg && f->notes) {
		char *all = NULL;
		if (asprintf(&all, "%s\n\n%s", msg, f->notes) < 0)
			all = NULL;
		free(msg);
		msg = all;
	}
	return msg;
}

/* f's physicalLocation: its file and region. */
static json_t *physical_location(uri_ctx *u, const sl_finding *f)
{
	json_t *phys = json_pack("{s:o}", "artifactLocation", artifact_location(u, f->path));
	json_t *reg = region(f->line, f->column, f->end_line, f->end_column);
	if (phys && reg)
		json_object_set_new(phys, "region", reg);
	else
		json_decref(reg);
	return phys;
}

static json_t *result_json(uri_ctx *u, const sl_finding *f, const char *fp)
{
	char *msg = message_text(f);
	json_t *phys = physical_location(u, f);
	json_t *o = msg && phys ? json_pack("{s:s}", "ruleId", f->rule) : NULL;
	int idx = rule_index(f->rule);
	if (o && idx >= 0)
		json_object_set_new(o, "ruleIndex", json_integer(idx));
	if (o) {
		json_object_set_new(o, "level", json_string(level_name(f->severity)));
		json_object_set_new(o, "message", json_pack("{s:o}", "text", sl_escape_json(msg)));
		json_object_set_new(o, "locations", json_pack("[{s:O}]", "physicalLocation", phys));
		json_object_set_new(o, "partialFingerprints", json_pack("{s:s}", FINGERPRINT_KEY, fp));
		if (f->fix)
			json_object_set_new(o, "fixes", json_pack("[o]", fix_json(u, f)));
		json_t *props = json_pack("{s:o}", "pointer", sl_escape_json(f->pointer ? f->pointer : ""));
		if (props && f->unit)
			json_object_set_new(props, "unit", sl_escape_json(f->unit));
		json_object_set_new(o, "properties", props);
	}
	json_decref(phys);
	free(msg);
	return o;
}

/* A notice as a toolExecutionNotification: level "note", its rule as the descriptor (of
** tool.driver.notifications), its place as a location, its notes after the message. */
static json_t *notice_json(uri_ctx *u, const sl_finding *f)
{
	char *msg = message_text(f);
	json_t *phys = physical_location(u, f);
	json_t *desc = json_pack("{s:s}", "id", f->rule);
	int idx = rule_index(f->rule);
	if (desc && idx >= 0)
		json_object_set_new(desc, "index", json_integer(idx));
	json_t *o = msg && phys && desc
		? json_pack("{s:s, s:{s:o}, s:O, s:[{s:O}]}", "level", "note", "message", "text",
			    sl_escape_json(msg), "descriptor", desc, "locations", "physicalLocation", phys)
		: NULL;
	json_decref(desc);
	json_decref(phys);
	free(msg);
	return o;
}

static json_t *invocation_json(uri_ctx *u, const sl_output_run *run)
{
	json_t *notes = json_array();
	for (size_t i = 0; notes && i < run->n_files; i++) {
		sl_file_info fi = run->files[i];
		if (!fi.error)
			continue;
		size_t len = strlen(fi.path) + strlen(fi.error) + 16;
		char *text = malloc(len);
		char *msg = NULL;
		if (text) {
			snprintf(text, len, "%s: %s", fi.path, fi.error);
			msg = sentence(text, strlen(text), SIZE_MAX);
		}
		json_t *n = msg ? json_pack("{s:s, s:{s:o}, s:[{s:{s:o}}]}", "level", "error",
					    "message", "text", sl_escape_json(msg), "locations", "physicalLocation",
					    "artifactLocation", artifact_location(u, fi.path))
				: NULL;
		free(text);
		free(msg);
		if (!n || json_array_append_new(notes, n) != 0) {
			json_decref(notes);
			return NULL;
		}
	}
	if (!notes)
		return NULL;
	/* An input that could not be read means the analysis is incomplete (exit status 2); a
	** notice does not. */
	bool success = json_array_size(notes) == 0;
	for (size_t i = 0; i < run->n_notices; i++) {
		json_t *n = notice_json(u, run->notices[i]);
		if (!n || json_array_append_new(notes, n) != 0) {
			json_decref(notes);
			return NULL;
		}
	}
	json_t *o = json_pack("{s:b}", "executionSuccessful", success);
	if (o && json_array_size(notes))
		json_object_set_new(o, "toolExecutionNotifications", notes);
	else
		json_decref(notes);
	return o;
}

struct results {
	uri_ctx *u;
	const sl_output_run *run;
	sl_fingerprint *fp;
};

static json_t *result_item(void *payload, size_t i)
{
	struct results *r = payload;
	return result_json(r->u, r->run->findings[i], r->fp[i].partial);
}

sl_err sl_sarif_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	(void)opts;
	uri_ctx u = {.last_path = NULL};
	if (!getcwd(u.cwd, sizeof u.cwd) || u.cwd[0] != '/')
		u.cwd[0] = '\0';

	/* the rules, and the notice rules as the descriptors of toolExecutionNotifications */
	json_t *rules = json_array(), *notifications = json_array();
	bool ok = rules && notifications;
	for (size_t i = 0; ok && i < sl_rule_count(); i++) {
		sl_rule_info r;
		if (repeats_id(i))
			continue;
		ok = sl_rule_get(i, &r) == SL_OK &&
		     json_array_append_new(is_notice(i) ? notifications : rules, rule_json(&r)) == 0;
	}
	/* the results are written one by one (stream.c), after the rest */
	json_t *results = json_array();
	sl_fingerprint *fp = sl_fingerprint_all(run);
	ok = ok && results && fp;
	json_t *driver = ok ? json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "name", "schedlint",
				       "version", sl_version(), "semanticVersion", sl_version(),
				       "informationUri", INFO_URI, "rules", rules,
				       "notifications", notifications)
			    : NULL;
	rules = notifications = NULL;
	json_t *runo = driver ? json_pack("{s:{s:o}}", "tool", "driver", driver) : NULL;
	if (runo) {
		json_t *inv = invocation_json(&u, run);
		ok = inv && json_object_set_new(runo, "invocations", json_pack("[o]", inv)) == 0;
		if (ok && u.cwd[0]) {
			/* Where %SRCROOT% was for this run: lets a viewer open the files. */
			size_t cl = strlen(u.cwd);
			char *dir = malloc(cl + 2);
			char *base = NULL;
			if (dir) {
				memcpy(dir, u.cwd, cl);
				memcpy(dir + cl, cl > 1 ? "/" : "", cl > 1 ? 2 : 1);
				base = uri_encode("file://", dir);
			}
			ok = base && json_object_set_new(runo, "originalUriBaseIds",
				json_pack("{s:{s:s}}", SRCROOT, "uri", base)) == 0;
			free(dir);
			free(base);
		}
		ok = ok && json_object_set_new(runo, "columnKind", json_string("unicodeCodePoints")) == 0;
		ok = ok && json_object_set_new(runo, "results", results) == 0;
		results = NULL;
	}
	json_t *root = ok && runo ? json_pack("{s:s, s:s, s:[O]}", "$schema", SARIF_SCHEMA,
					      "version", "2.1.0", "runs", runo)
				  : NULL;
	json_decref(runo);
	json_decref(results);
	json_decref(rules);
	json_decref(notifications);
	sl_err err = SL_ENOMEM;
	if (root) {
		struct results r = {&u, run, fp};
		const sl_json_array arrays[] = {
			{"results", run->n_findings, result_item, &r},
		};
		err = sl_stream_write_json(out, root, arrays, 1);
	}
	free(fp);
	free(u.last_path);
	json_decref(u.last_loc);
	return err;
}
