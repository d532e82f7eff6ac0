/* SPDX-License-Identifier: Apache-2.0
** scopes.c: which config a file is linted under, and what each config decides (scopes.h). */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/arena.h"
#include "config/config.h"
#include "config/values.h"
#include "extend/custom.h"
#include "extend/plugin.h"
#include "config/registry.h"
#include "driver/scopes.h"
#include "util/strbuf.h"
#include "util/spelling.h"
#include "util/path.h"
#include "util/strmap.h"


struct sl_scopes {
	sl_run_options opts;         /* the selection, for each new scope: its own copy */
	char **sel;                  /* the copied ids of select, then ignore */
	bool per_file;
	sl_scope **v;                /* v[0]: the run's */
	size_t n;
	sl_strmap dirs;              /* real directories met (keys owned) -> their scope's index */
	char *last_dir;              /* the directory of the last path asked about, as named, and */
	const sl_scope *last;        /* its scope: a walk asks directory by directory */
	sl_strmap reals;             /* directories as named (keys owned) -> their real paths */
	const sl_walk_seen *seen;    /* what the run's walks listed (NULL: ask the kernel) */
};

void sl_scopes_use_seen(sl_scopes *s, const sl_walk_seen *seen)
{
	s->seen = seen;
}

static int matches(const struct sl_rule *r, const char *sel)
{
	return strcmp(r->id, sel) == 0 || strcmp(r->category, sel) == 0;
}

/* True when added rule ri is one of the n declared. */
static bool declares(const int *declared, size_t n, size_t ri)
{
	for (size_t i = 0; i < n; i++)
		if ((size_t)declared[i] == ri)
			return true;
	return false;
}

sl_err sl_scopes_severities(const sl_config *cfg, const int *declared, size_t n_declared,
			   const sl_run_options *opts, sl_severity **out, char **error_out)
{
	sl_severity *severity = sl_xcalloc(sl_registry_capacity(), sizeof *severity);
	if (!severity)
		return SL_ENOMEM;
	/* the config's rules: ids were checked when it was loaded */
	for (size_t k = 0; opts && k < opts->n_select + opts->n_ignore; k++) {
		const char *sel = k < opts->n_select ? opts->select[k] : opts->ignore[k - opts->n_select];
		if (!sl_registry_known(sel)) {
			const char *best = sl_registry_closest(sel);
			if (error_out)
				*error_out = sl_xprintf("unknown rule or category \"%s\" in --%s%s%s%s", sel,
						     k < opts->n_select ? "select" : "ignore",
						     best ? "; did you mean \"" : "", best ? best : "",
						     best ? "\"?" : "");
			free(severity);
			return SL_EUSAGE;
		}
	}
	for (size_t i = 0; i < sl_registry_n(); i++) {
		const struct sl_rule *r = sl_registry_at(i)->rule;
		if (i >= sl_registry_count && !declares(declared, n_declared, i))
			continue;   /* another config's rule, or a plugin's this run did not load */
		sl_severity sev = r->off_by_default ? SL_SEV_OFF : r->severity;
		int configured = 0;
		/* Later entries win; an entry naming the rule beats one naming its category. */
		for (int pass = 0; pass < 2; pass++) {
			for (size_t j = 0; cfg && j < cfg->n_rules; j++) {
				const char *id = cfg->rules[j].id;
				if (pass == 0 ? strcmp(r->category, id) == 0 : strcmp(r->id, id) == 0) {
					sev = cfg->rules[j].severity;
					configured = 1;
				}
			}
		}
		if (opts && opts->n_select) {
			int selected = 0;
			for (size_t j = 0; j < opts->n_select; j++)
				if (matches(r, opts->select[j]))
					selected = 1;
			if (!selected)
				sev = SL_SEV_OFF;
			else if (sev == SL_SEV_OFF && !configured)
				sev = r->severity;   /* --select turns on an off-by-default rule */
		}
		for (size_t j = 0; opts && j < opts->n_ignore; j++)
			if (matches(r, opts->ignore[j]))
				sev = SL_SEV_OFF;
		severity[i] = sev;
	}
	*out = severity;
	return SL_OK;
}


/* A config's error as the files under it report it ("x.yaml: error: " goes before it): the
** config's own "path:line:col: error: what" without its second "error: ", and what it means for
** the file; a config's errors, a line each, joined by "; ". Takes msg. */
static char *file_error(char *msg)
{
	if (!msg)
		return NULL;
	sl_strbuf b = {0};
	bool ok = true;
	for (char *line = msg, *next; ok && line; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		const char *tag = strstr(line, ": error: ");
		if (strncmp(line, "schedlint: error: ", 18) == 0)
			ok = sl_strbuf_addf(&b, "%s%s", b.len ? "; " : "", line + 18);
		else
			ok = sl_strbuf_addf(&b, "%s%.*s%s%s", b.len ? "; " : "",
					    tag ? (int)(tag - line) : (int)strlen(line), line,
					    tag ? ": " : "", tag ? tag + 9 : "");
	}
	free(msg);
	if (!ok || !sl_strbuf_addstr(&b, "; not linted")) {
		sl_strbuf_free(&b);
		return NULL;
	}
	return sl_strbuf_take(&b);
}

/* A rules: entry that names neither a built-in rule or category nor a rule the scope's
** custom-rules: and plugins declare: SL_ECONFIG. config.c refuses the other unknown ids when it
** loads the file; a namespaced id it cannot know. */
static sl_err unknown_custom_setting(const sl_config *cfg, const int *declared, size_t n,
				     char **error_out)
{
	for (size_t j = 0; cfg && j < cfg->n_rules; j++) {
		const char *id = cfg->rules[j].id;
		bool found = false;
		for (size_t i = 0; i < sl_registry_count && !found; i++)   /* a built-in rule */
			found = matches(sl_registry_at(i)->rule, id);
		for (size_t i = 0; i < n && !found; i++) {
			const struct sl_rule *r = sl_registry_at((size_t)declared[i])->rule;
			found = strcmp(r->id, id) == 0 || strcmp(r->category, id) == 0;
		}
		if (!found) {
			sl_spelling sp;   /* the closest of the rules this scope knows */
			sl_spelling_init(&sp, id);
			for (size_t i = 0; i < sl_registry_count + n; i++) {
				const struct sl_rule *r = sl_registry_at(i < sl_registry_count ? i
									 : (size_t)declared[i - sl_registry_count])->rule;
				sl_spelling_consider(&sp, r->id);
				sl_spelling_consider(&sp, r->category);
			}
			const char *best = sl_spelling_best(&sp);
			char *where = sl_config_source(cfg, cfg->rules[j].id_line ? cfg->rules[j].id_line
									  : cfg->rules[j].line);
			*error_out = sl_xprintf("%s:%u: error: rules: \"%s\" is not a built-in rule or "
						"category, nor one that custom-rules: or a plugin declares%s%s%s",
						where ? where : "config",
						cfg->rules[j].id_col ? cfg->rules[j].id_col : 1, id,
						best ? " (did you mean \"" : "", best ? best : "",
						best ? "\"?)" : "");
			free(where);
			return SL_ECONFIG;
		}
	}
	return SL_OK;
}

/* Loads the plugin at path and appends its rules' registry indices to s->declared. */
static sl_err load_plugin(sl_scope *s, const char *path, char **msg)
{
	int *idx = NULL;
	size_t n = 0;
	sl_err err = sl_plugin_load(path, &idx, &n, msg);
	int *all = err ? NULL : sl_xrealloc(s->declared, (s->n_declared + n + 1) * sizeof *all);
	if (!err && !all)
		err = SL_ENOMEM;
	if (!err) {
		memcpy(all + s->n_declared, idx, n * sizeof *idx);
		s->declared = all;
		s->n_declared += n;
	}
	free(idx);
	return err;
}

/* The run's plugins (--plugin), then cfg's plugins: when the run allows them: a repository's
** config must not run native code on a machine that merely lints it. */
static sl_err add_plugins(sl_scope *s, const sl_config *cfg, const sl_run_options *opts, char **msg)
{
	sl_err err = SL_OK;
	for (size_t i = 0; opts && i < opts->n_plugins && !err; i++)
		err = load_plugin(s, opts->plugins[i], msg);
	if (err || !cfg || !cfg->plugins.n)
		return err;
	if (!opts || !opts->allow_plugins) {
		char *where = sl_config_source(cfg, cfg->plugins_line);
		*msg = sl_xprintf("%s: error: plugins: names shared objects, native code this run was "
				  "not allowed to load; to load them, pass --allow-plugins (or set "
				  "SCHEDLINT_ALLOW_PLUGINS=1)", where ? where : "config");
		free(where);
		return SL_ECONFIG;
	}
	for (size_t i = 0; i < cfg->plugins.n && !err; i++) {
		const char *p = cfg->plugins.v[i];
		char *path = p[0] == '/' ? sl_xstrdup(p) : sl_xprintf("%s/%s", cfg->plugins_dir, p);
		err = path ? load_plugin(s, path, msg) : SL_ENOMEM;
		free(path);
	}
	return err;
}

/* Two of the scope's added rules with one id (a custom rule and a plugin's, two plugins'):
** SL_ECONFIG naming where each comes from. */
static sl_err clashing_ids(const sl_scope *s, char **msg)
{
	for (size_t i = 0; i < s->n_declared; i++)
		for (size_t j = 0; j < i; j++) {
			const struct sl_rule_entry *a = sl_registry_at((size_t)s->declared[j]);
			const struct sl_rule_entry *b = sl_registry_at((size_t)s->declared[i]);
			if (a != b && strcmp(a->rule->id, b->rule->id) == 0) {
				*msg = sl_xprintf("%s: error: rule id \"%s\" is also declared by %s",
						  b->file, b->rule->id, a->file);
				return SL_ECONFIG;
			}
		}
	return SL_OK;
}

/* Compiles the glob of each of cfg's per-file-ignores: (relative to the config that set them). */
static sl_err file_ignore_globs(sl_scope *s, const sl_config *cfg, char **error_out)
{
	if (!cfg->n_file_ignores)
		return SL_OK;
	if (!(s->file_ignores = sl_xcalloc(cfg->n_file_ignores, sizeof *s->file_ignores)))
		return SL_ENOMEM;
	sl_err err = SL_OK;
	for (size_t i = 0; !err && i < cfg->n_file_ignores; i++)
		err = sl_walk_globs_list(&cfg->file_ignores[i].glob, 1,
					 cfg->file_ignores_dir ? cfg->file_ignores_dir : ".",
					 "per-file-ignores", &s->file_ignores[i], error_out);
	return err;
}

/* Fills s from cfg (borrowed unless owned): its severities, globs and default-mode source;
** a problem with cfg goes to s->error (the files under it report it) unless fatal says to
** return it. */
static sl_err scope_init(sl_scope *s, const sl_config *cfg, const sl_run_options *opts,
			 bool fatal, char **error_out)
{
	char *msg = NULL;
	s->cfg = cfg;
	sl_err err = sl_custom_declare(cfg, &s->declared, &s->n_declared, &msg);
	if (!err)
		err = add_plugins(s, cfg, opts, &msg);
	if (!err)
		err = clashing_ids(s, &msg);
	if (!err)
		err = unknown_custom_setting(cfg, s->declared, s->n_declared, &msg);
	if (!err)
		err = sl_scopes_severities(cfg, s->declared, s->n_declared, opts, &s->severity, &msg);
	if (!err)
		err = sl_config_exclude_globs(cfg, &s->globs, &msg);
	if (!err)
		err = file_ignore_globs(s, cfg, &msg);
	if (!err && cfg->cluster.kserve_default_deployment_mode_line &&
	    !(s->default_mode_config =
		      sl_config_source(cfg, cfg->cluster.kserve_default_deployment_mode_line)))
		err = SL_ENOMEM;
	if (err && err != SL_ENOMEM && !fatal) {
		s->error = file_error(msg);   /* the files under it say so; the run goes on */
		return SL_OK;
	}
	if (error_out)
		*error_out = msg;
	else
		free(msg);
	return err;
}

static void scope_free(sl_scope *s)
{
	if (!s)
		return;
	free(s->severity);
	free(s->declared);
	sl_walk_globs_free(s->globs);
	for (size_t i = 0; s->file_ignores && i < s->cfg->n_file_ignores; i++)
		sl_walk_globs_free(s->file_ignores[i]);
	free(s->file_ignores);
	free(s->default_mode_config);
	free(s->error);
	sl_config_free(s->owned);
	free(s);
}

/* Keeps its own copy of the selection: scopes are made while inputs are added, after the
** caller's options may be gone. */
static sl_err copy_selection(sl_scopes *s, const sl_run_options *opts)
{
	if (!opts)
		return SL_OK;
	size_t n = opts->n_select + opts->n_ignore + opts->n_plugins;
	s->sel = sl_xcalloc(n ? n : 1, sizeof *s->sel);
	if (!s->sel)
		return SL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		size_t k = opts->n_select + opts->n_ignore;
		const char *id = i < opts->n_select ? opts->select[i]
				 : i < k ? opts->ignore[i - opts->n_select] : opts->plugins[i - k];
		if (!(s->sel[i] = sl_xstrdup(id))) {
			for (size_t j = 0; j < i; j++)
				free(s->sel[j]);
			return SL_ENOMEM;
		}
	}
	s->opts = *opts;
	s->opts.select = (const char *const *)s->sel;
	s->opts.ignore = (const char *const *)s->sel + opts->n_select;
	s->opts.plugins = (const char *const *)s->sel + opts->n_select + opts->n_ignore;
	return SL_OK;
}

sl_err sl_scopes_new(const sl_config *cfg, const sl_run_options *opts, bool per_file,
		     sl_scopes **out, char **error_out)
{
	sl_scopes *s = sl_xcalloc(1, sizeof *s);
	sl_scope *run = sl_xcalloc(1, sizeof *run);
	if (s && run)
		s->v = sl_xmalloc(sizeof *s->v);
	if (!s || !run || !s->v) {
		free(run);
		sl_scopes_free(s);
		return SL_ENOMEM;
	}
	s->v[s->n++] = run;
	s->per_file = per_file;
	sl_err err = copy_selection(s, opts);
	if (!err)
		err = scope_init(run, cfg, &s->opts, true, error_out);
	if (err) {
		sl_scopes_free(s);
		return err;
	}
	*out = s;
	return SL_OK;
}

const sl_scope *sl_scopes_run(const sl_scopes *s)
{
	return s->v[0];
}

size_t sl_scopes_count(const sl_scopes *s)
{
	return s->n;
}

const sl_scope *sl_scopes_at(const sl_scopes *s, size_t i)
{
	return i < s->n ? s->v[i] : NULL;
}

void sl_scopes_free(sl_scopes *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		scope_free(s->v[i]);
	free(s->v);
	for (size_t i = 0; i < s->dirs.cap; i++)
		free((char *)s->dirs.v[i].key);
	sl_strmap_free(&s->dirs);
	free(s->last_dir);
	for (size_t i = 0; i < s->reals.cap; i++) {
		free((char *)s->reals.v[i].key);
		free(s->reals.v[i].val);
	}
	sl_strmap_free(&s->reals);
	for (size_t i = 0; i < s->opts.n_select + s->opts.n_ignore + s->opts.n_plugins; i++)
		free(s->sel[i]);
	free(s->sel);
	free(s);
}

/* The scope already known for the real directory dir, or -1. */
static long known_dir(const sl_scopes *s, const char *dir)
{
	const sl_strmap_slot *d = sl_strmap_get(&s->dirs, dir, strlen(dir));
	return d ? (long)(uintptr_t)d->val : -1;
}

static bool remember_dir(sl_scopes *s, const char *dir, size_t scope)
{
	bool found;
	sl_strmap_slot *slot = sl_strmap_put_copy(&s->dirs, dir, strlen(dir), &found);
	if (!slot || found)   /* found: asked only for a directory not known */
		return slot != NULL;
	slot->val = (void *)(uintptr_t)scope;
	return true;
}

/* True when the configs at paths a and b are one file. */
static bool same_file(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	bool same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* The scope of the config at path (as config discovery names it: loaded now, or met before
** from another directory), or -1 when out of memory. */
static long scope_of_config(sl_scopes *s, const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i]->cfg && s->v[i]->cfg->path && same_file(s->v[i]->cfg->path, path))
			return (long)i;   /* the run's own config too, found again from a file */
	sl_scope **nv = sl_xrealloc(s->v, (s->n + 1) * sizeof *nv);
	sl_scope *sc = sl_xcalloc(1, sizeof *sc);
	if (nv)
		s->v = nv;
	if (!nv || !sc) {
		free(sc);
		return -1;
	}
	char *msg = NULL;
	sl_err err = sl_config_load(path, &sc->owned, &msg);
	if (err == SL_ENOMEM) {
		free(msg);
		free(sc);
		return -1;
	}
	if (err) {
		sc->error = file_error(msg ? msg : sl_xprintf("%s: error: %s", path, sl_strerror(err)));
	} else {
		free(msg);
		if (scope_init(sc, sc->owned, &s->opts, false, NULL) == SL_ENOMEM) {
			scope_free(sc);
			return -1;
		}
	}
	s->v[s->n++] = sc;
	return (long)(s->n - 1);
}

/* True when the real directory dir holds an entry name (any type when any, else not a
** directory): as a walk listed dir, else the kernel says. */
/* sl_path_holds, answered from what the run's walks listed when they listed dir. */
static bool holds(const sl_scopes *s, const char *dir, const char *name, bool any)
{
	sl_walk_seen_kind seen = sl_walk_seen_at(s->seen, dir, strlen(dir), name);
	if (seen == SL_SEEN_ABSENT || (seen == SL_SEEN_DIR && !any))
		return false;
	if (seen == SL_SEEN_FILE || (seen != SL_SEEN_UNLISTED && any))
		return true;   /* lstat would find it; stat of a regular file is not a directory */
	return sl_path_holds(dir, name, any);
}

/* A walk up for a directory's scope (scope_of_dir): the directories passed, and what was found. */
struct up {
	sl_scopes *s;
	char **passed;        /* the directories visited before the answer, each to remember */
	size_t n_passed;
	long known;           /* the scope of a directory met before, -1: none */
	bool config;          /* the directory found holds .schedlint.yaml */
	bool oom;
};

static bool up_holds(void *ctx, const char *dir, const char *name, bool any)
{
	return holds(((const struct up *)ctx)->s, dir, name, any);
}

static bool visit(void *ctx, const char *dir)
{
	struct up *u = ctx;
	if ((u->known = known_dir(u->s, dir)) >= 0)
		return true;
	if (holds(u->s, dir, ".schedlint.yaml", false))
		return u->config = true;
	char *d = sl_xstrdup(dir);
	char **nv = d ? sl_xrealloc(u->passed, (u->n_passed + 1) * sizeof *nv) : NULL;
	if (!nv) {
		free(d);
		u->oom = true;
		return true;   /* stop: the walk cannot be remembered */
	}
	u->passed = nv;
	u->passed[u->n_passed++] = d;
	return false;
}

/* The scope for the real directory dir (met before, or found now), or -1 when out of memory:
** the scope of the nearest .schedlint.yaml from dir up, the run's when the walk up stops first
** (util/path.h: after the repository's root, or at /); each directory passed is remembered. */
static long scope_of_dir(sl_scopes *s, const char *dir)
{
	long k = known_dir(s, dir);
	if (k >= 0)
		return k;
	struct up u = {s, NULL, 0, -1, false, false};
	char *found = sl_path_find_upward(dir, visit, up_holds, &u, &u.oom);
	if (u.oom) {
		k = -1;
	} else if (u.known >= 0) {
		k = u.known;
	} else if (found && u.config) {
		char *real = sl_xprintf("%s%s.schedlint.yaml", found, strcmp(found, "/") ? "/" : "");
		char *shown = real ? sl_walk_relative(real) : NULL;
		k = shown ? scope_of_config(s, shown) : -1;
		free(shown);
		free(real);
		if (k >= 0 && !remember_dir(s, found, (size_t)k))
			k = -1;
	} else {
		k = 0;   /* none found up to the repository's root: the run's */
	}
	for (size_t i = 0; i < u.n_passed; i++) {
		if (k >= 0 && !remember_dir(s, u.passed[i], (size_t)k))
			k = -1;
		free(u.passed[i]);
	}
	free(u.passed);
	free(found);
	return k;
}

/* realpath(named) for a directory, memoised (reals): a directory that is not a link (its
** parent's listing says so, else lstat) is its parent's real path and its name, so only the
** first directory of each chain named costs realpath's readlink per component; each of the
** others costs nothing when a walk listed its parent, else one lstat. NULL when named does not
** resolve or out of memory. */
static char *real_dir(sl_scopes *s, const char *named)
{
	size_t nl = strlen(named);
	const sl_strmap_slot *m = sl_strmap_get(&s->reals, named, nl);
	if (m)
		return sl_xstrdup(m->val);
	const char *slash = strrchr(named, '/');
	const char *base = slash ? slash + 1 : named;
	bool plain = slash && slash > named && *base && strcmp(base, ".") && strcmp(base, "..");
	size_t pl = slash ? (size_t)(slash - named) : 0;
	struct stat st;   /* a directory, not a link: as its parent's walk listed it, or lstat */
	bool dir = plain && (sl_walk_seen_at(s->seen, named, pl, base) == SL_SEEN_DIR ||
			     (lstat(named, &st) == 0 && S_ISDIR(st.st_mode)));
	char *real = NULL;
	if (dir) {
		char *p = sl_xstrndup(named, pl);
		char *pr = p ? real_dir(s, p) : NULL;
		real = pr ? sl_path_join(pr, base) : NULL;
		free(p);
		free(pr);
	}
	if (!real)
		real = realpath(named, NULL);
	bool found;
	char *kept = real ? sl_xstrdup(real) : NULL;
	sl_strmap_slot *slot = kept ? sl_strmap_put_copy(&s->reals, named, nl, &found) : NULL;
	if (slot && !found)
		slot->val = kept;
	else
		free(kept);   /* out of memory: asked again next time */
	return real;
}


const sl_scope *sl_scopes_of(sl_scopes *s, const char *path)
{
	if (!s->per_file)
		return s->v[0];
	/* path's directory as named ("." for a bare name) */
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (slash == path ? 1 : (size_t)(slash - path)) : 1;
	const char *d = slash ? path : ".";
	if (s->last_dir && strncmp(s->last_dir, d, len) == 0 && s->last_dir[len] == '\0')
		return s->last;   /* the same directory as the last path: most of a walk */
	char *named = sl_xstrndup(d, len);
	if (!named)
		return NULL;
	/* its real path; a directory that does not exist (a buffer's, stdin's name): the working
	** directory's */
	char *dir = real_dir(s, named);
	if (!dir)
		dir = realpath(".", NULL);
	long k = dir ? scope_of_dir(s, dir) : 0;
	free(dir);
	if (k < 0) {
		free(named);
		return NULL;
	}
	free(s->last_dir);
	s->last_dir = named;
	s->last = s->v[k];
	return s->last;
}
