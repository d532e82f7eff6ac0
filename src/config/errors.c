/* SPDX-License-Identifier: Apache-2.0
** errors.c: libcyaml's log, turned into one "path:line:col: error: ..." message naming the
** key, positioned by the libyaml pass (positions.c); every unknown key; the setting libcyaml
** stopped at, hidden from its next load (sl_config__mask); a file's errors in file order. */
#include "config/load.h"

void sl_config__log_fn(cyaml_log_t level, void *ctx, const char *fmt, va_list args)
{
	struct cylog *log = ctx;
	char line[512];
	struct seg sg = { 0 };
	size_t len;

	if (log == NULL || level < CYAML_LOG_ERROR)
		return;
	vsnprintf(line, sizeof line, fmt, args);
	len = strlen(line);
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = '\0';

	if (sscanf(line, "  in mapping field '%127[^']' (line: %u, column: %u)",
		   sg.name, &sg.line, &sg.col) == 3) {
		sg.kind = SEG_FIELD;
	} else if (sscanf(line, "  in mapping (line: %u, column: %u)", &sg.line, &sg.col) == 2) {
		sg.kind = SEG_MAP;
	} else if (sscanf(line, "  in sequence entry '%u' (line: %u, column: %u)",
			  &sg.entry, &sg.line, &sg.col) == 3) {
		sg.kind = SEG_ENTRY;
	} else {
		const char *m = line;

		if (log->msg[0] != '\0' || strcmp(line, "Load: Backtrace:") == 0)
			return;
		if (strncmp(m, "Load: ", 6) == 0)
			m += 6;
		snprintf(log->msg, sizeof log->msg, "%s", m);
		return;
	}
	if (log->n_segs < MAX_BACKTRACE)
		log->segs[log->n_segs++] = sg;
}

/* The path named by segs[from..n), outermost first: "cluster.node-pools[1].name". */
static char *segs_path(const struct cylog *log, size_t from)
{
	char *path = sl_xstrdup(""), *next;

	for (size_t i = log->n_segs; path != NULL && i > from; i--) {
		const struct seg *sg = &log->segs[i - 1];

		if (sg->kind == SEG_MAP)
			continue;
		if (sg->kind == SEG_FIELD)
			next = sl_config__path_key(path, sg->name);
		else
			next = sl_config__path_index(path, sg->entry > 0 ? sg->entry - 1 : 0);
		free(path);
		path = next;
	}
	return path;
}

static const char *last_key(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

static const char *kind_name(enum node_kind kind)
{
	switch (kind) {
	case NODE_SCALAR: return "a scalar";
	case NODE_LIST: return "a list";
	case NODE_MAP: return "a mapping";
	case NODE_ALIAS: return "an alias";
	}
	return "a node";
}

/* The closest value of the enumeration at path to value, or NULL. */
static const char *closest_value(const char *path, const char *value)
{
	const char *key = last_key(path);
	sl_spelling s;

	sl_spelling_init(&s, value);
	for (size_t i = 0; i < sl_config__expectations_count; i++)
		for (size_t k = 0; strcmp(key, sl_config__expectations[i].key) == 0 && k < sl_config__expectations[i].n_values; k++)
			sl_spelling_consider(&s, sl_config__expectations[i].values[k].str);
	return sl_spelling_best(&s);
}

/* What the value at path must be, from the table or libcyaml's type name. */
static const char *expected_at(const char *path, const char *cyaml_type)
{
	const char *key = last_key(path);

	for (size_t i = 0; i < sl_config__expectations_count; i++)
		if (strcmp(key, sl_config__expectations[i].key) == 0)
			return sl_config__expectations[i].expected;
	if (strncmp(cyaml_type, "MAPPING", 7) == 0)
		return "a mapping";
	if (strncmp(cyaml_type, "SEQUENCE", 8) == 0)
		return "a list";
	return "a string";
}

static const char *got_event(const char *ev)
{
	if (strncmp(ev, "SCALAR", 6) == 0)
		return "a scalar";
	if (strncmp(ev, "SEQUENCE", 8) == 0)
		return "a list";
	if (strncmp(ev, "MAPPING", 7) == 0)
		return "a mapping";
	return "something else";
}

/* " in PATH", or "" at the root. */
static const char *in_where(const char *path, char *buf, size_t size)
{
	if (*path == '\0')
		return "";
	snprintf(buf, size, " in %s", path);
	return buf;
}

/* The libyaml pass's node at where, its position put in *line and *col (its key's when key and
** it has one); NULL, the position kept, when the pass has no such node. */
static const struct pos *place(const struct posmap *map, const char *where, bool key,
			       unsigned *line, unsigned *col)
{
	const struct pos *at = sl_config__posmap_find(map, where);
	if (at && (!key || at->key_line > 0)) {
		*line = key ? at->key_line : at->line;
		*col = key ? at->key_col : at->col;
	}
	return at;
}

/* Turns libcyaml's logged error into "path:line:col: error: ..." in *error_out. Positions come
** from the libyaml pass where it has the node, else from libcyaml's innermost backtrace line. */
sl_err sl_config__cyaml_failure(const char *file, cyaml_err_t cerr, const struct cylog *log,
				const struct posmap *map, char **error_out, char **value_path)
{
	unsigned line = 1, col = 1;
	const struct pos *at;
	char *path = NULL, *where = NULL, *msg = NULL;
	char arg[256], inbuf[300], mean[1024];
	sl_err err = SL_OK;

	if (log->n_segs > 0) {
		line = log->segs[0].line;
		col = log->segs[0].col;
	}

	if (sscanf(log->msg, "Unexpected key: %255[^\n]", arg) == 1) {
		/* innermost is the mapping itself, with no field */
		path = segs_path(log, 0);
		where = path ? sl_config__path_key(path, arg) : NULL;
		if (where == NULL)
			goto oom;
		place(map, where, true, &line, &col);
		msg = sl_xprintf("unknown key \"%s\"%s", arg, in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Mapping field already seen: %255[^\n]", arg) == 1) {
		/* innermost names the repeated field */
		path = segs_path(log, log->n_segs > 0 && log->segs[0].kind == SEG_FIELD ? 1 : 0);
		where = path ? sl_config__path_key(path, arg) : NULL;
		if (where == NULL)
			goto oom;
		place(map, where, true, &line, &col);
		msg = sl_xprintf("duplicate key \"%s\"%s", arg,
				 in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Missing required mapping field: %255[^\n]", arg) == 1) {
		/* the innermost mapping's field index is stale here: drop it */
		path = segs_path(log, log->n_segs > 0 && log->segs[0].kind == SEG_FIELD ? 1 : 0);
		if (path == NULL)
			goto oom;
		place(map, path, false, &line, &col);
		msg = sl_xprintf("missing key \"%s\"%s", arg, in_where(path, inbuf, sizeof inbuf));
	} else if (sscanf(log->msg, "Invalid ENUM value: %255[^\n]", arg) == 1) {
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		place(map, path, false, &line, &col);
		msg = sl_xprintf("invalid value \"%s\" for %s (expected %s)%s", arg, path,
				 expected_at(path, "ENUM"),
				 sl_config__did_you_mean(closest_value(path, arg), mean, sizeof mean));
	} else if (strncmp(log->msg, "Expecting ", 10) == 0) {
		char type[64] = "", ev[64] = "";
		const char *got;

		sscanf(log->msg, "Expecting %63s got event: %63s", type, ev);
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		at = place(map, path, false, &line, &col);
		got = at != NULL ? kind_name(at->kind) : got_event(ev);
		if (*path == '\0')
			msg = sl_xprintf("wrong type for the configuration: expected a mapping, "
					 "got %s", got);
		else
			msg = sl_xprintf("wrong type for %s: expected %s, got %s", path,
					 expected_at(path, type), got);
	} else if (strncmp(log->msg, "STRING length < 1", 17) == 0) {
		path = segs_path(log, 0);
		if (path == NULL)
			goto oom;
		place(map, path, false, &line, &col);
		msg = sl_xprintf("empty value for %s", path);
	} else if (sscanf(log->msg, "No anchor found for alias: '%255[^']'", arg) == 1) {
		msg = sl_xprintf("unknown alias \"%s\"", arg);
	} else {
		const char *m = log->msg[0] ? log->msg : cyaml_strerror(cerr);
		/* "Invalid INT value", "Invalid BOOL value", ...: the value at the backtrace */
		if (strncmp(log->msg, "Invalid ", 8) == 0 && !(path = segs_path(log, 0)))
			goto oom;

		msg = sl_xprintf("%c%s", m[0] >= 'A' && m[0] <= 'Z' ? m[0] - 'A' + 'a' : m[0],
			     m + 1);
	}
	if (!msg)
		goto oom;
	err = sl_config__fail(error_out, SL_ECONFIG, "%s:%u:%u: error: %s", file, line, col, msg);
	/* a value of the wrong type or outside its set, a mapping missing a key: the rest of the
	** file can still be read */
	if (err == SL_ECONFIG && value_path && !where && path && *path &&
	    !(*value_path = sl_xstrdup(path)))
		err = SL_ENOMEM;
	goto out;
oom:
	err = SL_ENOMEM;
out:
	free(path);
	free(where);
	free(msg);
	return err;
}

/* The schema of the value at path (positions.c's spelling: "cluster.node-pools[0].name"), NULL
** when path is no setting or one not checked here (custom-rules: custom.c checks it). */
static const cyaml_schema_value_t *schema_at(const char *path)
{
	const cyaml_schema_value_t *v = &sl_config__top_schema;
	for (const char *p = path; v && *p;) {
		if (*p == '[') {   /* an entry: its list's entry schema */
			const char *close = strchr(p, ']');
			v = v->type == CYAML_SEQUENCE && close ? v->sequence.entry : NULL;
			p = close ? close + 1 : "";
			continue;
		}
		if (*p == '.')
			p++;
		size_t n = strcspn(p, ".[");
		const cyaml_schema_field_t *f = v->type == CYAML_MAPPING ? v->mapping.fields : NULL;
		while (f && f->key && (strlen(f->key) != n || strncmp(f->key, p, n) != 0))
			f++;
		v = f && f->key && f->value.type != CYAML_IGNORE ? &f->value : NULL;
		p += n;
	}
	return v;
}

sl_err sl_config__unknown_keys(const char *file, const struct posmap *map, char **error_out)
{
	sl_strbuf b = {0};
	char inbuf[300], mean[1024];
	for (size_t i = 0; i < map->n; i++) {
		const struct pos *at = &map->v[i];
		const char *dot = strrchr(at->path, '.'), *key = dot ? dot + 1 : at->path;
		if (!*key || strchr(key, '[') || strchr(key, ']'))
			continue;   /* the root, or a list entry */
		char *parent = dot ? sl_xprintf("%.*s", (int)(dot - at->path), at->path) : sl_xstrdup("");
		if (!parent) {
			sl_strbuf_free(&b);
			return SL_ENOMEM;
		}
		const cyaml_schema_value_t *v = schema_at(parent);
		const cyaml_schema_field_t *f = v && v->type == CYAML_MAPPING ? v->mapping.fields : NULL;
		bool known = !f;   /* not a mapping of ours: not checked here */
		sl_spelling sp;
		sl_spelling_init(&sp, key);
		for (; f && f->key && !known; f++) {
			known = strcmp(f->key, key) == 0;
			sl_spelling_consider(&sp, f->key);
		}
		if (!known && !sl_strbuf_addf(&b, "%s%s:%u:%u: error: unknown key \"%s\"%s%s", b.len ? "\n" : "",
					      file, at->key_line, at->key_col, key,
					      in_where(parent, inbuf, sizeof inbuf),
					      sl_config__did_you_mean(sl_spelling_best(&sp), mean, sizeof mean))) {
			free(parent);
			sl_strbuf_free(&b);
			return SL_ENOMEM;
		}
		free(parent);
	}
	if (!b.len)
		return SL_OK;
	if (error_out)
		*error_out = sl_strbuf_take(&b);
	sl_strbuf_free(&b);
	return SL_ECONFIG;
}

/* The byte of buf at 1-based line and column (columns count characters), or NULL. */
static char *at_position(char *buf, size_t len, unsigned line, unsigned col)
{
	char *p = buf, *end = buf + len;
	for (unsigned l = 1; l < line && p < end; l++) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	for (unsigned c = 1; c < col && p < end && *p != '\n'; c++)
		do
			p++;
		while (p < end && ((unsigned char)*p & 0xC0) == 0x80);
	return p < end ? p : NULL;
}

bool sl_config__mask(char *buf, size_t len, const struct posmap *map, const char *value_path)
{
	char *path = sl_xstrdup(value_path);
	bool masked = false;
	while (path && *path && !masked) {
		size_t n = strlen(path);
		if (path[n - 1] == ']') {   /* an entry: its list's key */
			char *open = strrchr(path, '[');
			if (!open)
				break;
			*open = '\0';
			continue;
		}
		char *dot = strrchr(path, '.');
		const char *key = dot ? dot + 1 : path;
		char *parent = dot ? sl_xprintf("%.*s", (int)(dot - path), path) : sl_xstrdup("");
		const cyaml_schema_value_t *v = parent ? schema_at(parent) : NULL;
		const cyaml_schema_field_t *f = v && v->type == CYAML_MAPPING ? v->mapping.fields : NULL;
		while (f && f->key && strcmp(f->key, key) != 0)
			f++;
		const struct pos *at = sl_config__posmap_find(map, path);
		if (f && f->key && (f->value.flags & CYAML_FLAG_OPTIONAL) && at && at->key_line) {
			/* renamed to no key of ours ("fail-on" to "Zail-on"), it is skipped as unknown */
			char *k = at_position(buf, len, at->key_line, at->key_col);
			if (k && (*k == '"' || *k == '\'') && k + 1 < buf + len)
				k++;
			if (k && *k >= 'a' && *k <= 'z') {
				*k = 'Z';
				masked = true;
			}
		}
		free(path);
		path = parent;
		if (!masked && dot == NULL)
			break;
	}
	free(path);
	return masked;
}

struct line_at {
	const char *s;
	size_t len;
	unsigned line, col;
};

static int by_position(const void *a, const void *b)
{
	const struct line_at *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->s < y->s ? -1 : x->s > y->s;   /* stable: the order they came in */
}

sl_err sl_config__sort_errors(char **errs, const char *file)
{
	if (!*errs || !strchr(*errs, '\n'))
		return SL_OK;
	size_t n = 1, flen = strlen(file);
	for (const char *p = *errs; (p = strchr(p, '\n')) != NULL; p++)
		n++;
	struct line_at *v = sl_xcalloc(n, sizeof *v);
	sl_strbuf b = {0};
	if (!v)
		return SL_ENOMEM;
	const char *p = *errs;
	for (size_t i = 0; i < n; i++) {
		const char *nl = strchr(p, '\n');
		v[i] = (struct line_at){ p, nl ? (size_t)(nl - p) : strlen(p), UINT_MAX, UINT_MAX };
		if (strncmp(p, file, flen) == 0 && p[flen] == ':' &&
		    sscanf(p + flen, ":%u:%u:", &v[i].line, &v[i].col) != 2)
			v[i].line = v[i].col = UINT_MAX;   /* another file's (extend:): last */
		p = nl ? nl + 1 : p + v[i].len;
	}
	qsort(v, n, sizeof *v, by_position);
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++)
		ok = sl_strbuf_addf(&b, "%s%.*s", i ? "\n" : "", (int)v[i].len, v[i].s);
	free(v);
	if (!ok) {
		sl_strbuf_free(&b);
		return SL_ENOMEM;
	}
	free(*errs);
	*errs = sl_strbuf_take(&b);
	return *errs ? SL_OK : SL_ENOMEM;
}
