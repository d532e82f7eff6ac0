/* SPDX-License-Identifier: Apache-2.0
** run.c: a lint run, the library's front door (lint.h): the inputs (paths, directories, stdin,
** buffers) and the project around them, handed to the passes (passes.c, which own the file
** records and Kustomize's part: sl_passes_arrange), the fix rounds (fixer.c), and what a caller
** reads back (findings, files, fixed text, diffs, the report). The placement report is
** run_placement.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/arena.h"
#include "schedlint/schedlint.h"
#include "config/config.h"
#include "driver/fixer.h"
#include "driver/run.h"
#include "output/output.h"
#include "render/helm.h"

/* An options struct's version is one this library knows: from 1 (0 is a struct that was not
** started from its _INIT macro) to the header's. */
static bool known_version(unsigned version, unsigned current)
{
	return version >= 1 && version <= current;
}

sl_err sl_run_new(const sl_config *cfg, const sl_run_options *opts, sl_run **out, char **error_out)
{
	if (opts && !known_version(opts->version, SL_RUN_OPTIONS_VERSION)) {
		if (error_out)
			*error_out = sl_xprintf("sl_run_options version %u is not one this library "
						"knows (1 to %u): start from SL_RUN_OPTIONS_INIT",
						opts->version, SL_RUN_OPTIONS_VERSION);
		return SL_EUSAGE;
	}
	/* an older struct ends before the fields of later versions: they keep their defaults */
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	if (opts)
		memcpy(&o, opts, opts->version >= 3 ? sizeof o
				 : opts->version == 2 ? offsetof(sl_run_options, progress)
						      : offsetof(sl_run_options, plugins));
	if (opts)
		opts = &o;
	sl_run *run = sl_xcalloc(1, sizeof *run);
	if (!run)
		return SL_ENOMEM;
	sl_err err = sl_passes_init(&run->passes, cfg, opts, error_out);
	if (err) {
		sl_run_free(run);
		return err;
	}
	if (!(run->seen = sl_walk_seen_new())) {
		sl_run_free(run);
		return SL_ENOMEM;
	}
	sl_scopes_use_seen(run->passes.eng.scopes, run->seen);
	run->force_exclude = opts && opts->force_exclude;
	run->no_gitignore = opts && opts->no_gitignore;
	*out = run;
	return SL_OK;
}

/* Records a file to read in pass 1 (in parallel, with the parsing), under the newest root. */
static sl_err add_file(const char *path, void *payload)
{
	sl_run *run = payload;
	return sl_passes_add_path(&run->passes, path, run->n_roots ? run->roots[run->n_roots - 1] : NULL,
				  run->adding_context);
}

static bool git_ignores(void *ctx, const char *path, bool is_dir)
{
	return sl_repo_ignored(((sl_run *)ctx)->repo, path, is_dir);
}

/* A symlink a walk did not follow because it leads out of the walked tree: an input's gets the
** symlink-outside-tree notice (a record that is never read); the project's is just skipped. */
static sl_err link_outside(void *ctx, const char *path, bool is_dir)
{
	sl_run *run = ctx;
	return run->adding_context ? SL_OK : sl_passes_add_outside(&run->passes, path, is_dir);
}

/* What a walk from dir skips besides hidden and excluded paths: what git ignores, unless the
** run says not to; and whom it tells of a link out of the tree (*skip is filled and returned).
** The repository is opened once. */
static const sl_walk_skip *walk_skip(sl_run *run, const char *dir, sl_walk_skip *skip)
{
	if (!run->no_gitignore && !run->repo_tried) {
		run->repo_tried = true;
		run->repo = sl_repo_open(dir);
	}
	bool git = !run->no_gitignore && run->repo;
	*skip = (sl_walk_skip){git ? git_ignores : NULL, run, link_outside};
	return skip;
}

static sl_err ignore_glob_failure(const char *path, const char *msg, void *payload);

/* True when the project's file at path is one config project: keeps (include empty: all). */
static bool in_project(const sl_run *run, const char *path)
{
	const sl_globs *inc = run->project_include, *exc = run->project_exclude;
	bool keep = (!sl_walk_globs_count(inc) || sl_walk_globs_match(inc, path)) &&
		    !sl_walk_globs_match(exc, path);
	sl_walk_globs_drain(inc, ignore_glob_failure, NULL);   /* undecided: not read */
	sl_walk_globs_drain(exc, ignore_glob_failure, NULL);
	return keep;
}

/* A file a walk found: recorded unless the config it is linted under, when that is not the
** run's (whose excludes the walk applied), excludes it. */
static sl_err add_walked(const char *path, void *payload)
{
	sl_run *run = payload;
	if (run->adding_context && !in_project(run, path))
		return SL_OK;
	const sl_scope *sc = sl_scopes_of(run->passes.eng.scopes, path);
	if (!sc)
		return SL_ENOMEM;
	if (sc != sl_scopes_run(run->passes.eng.scopes) && sl_run_excluded(run, path))
		return SL_OK;
	return add_file(path, run);
}

/* Adds the root of a path given: the real path of the directory, or of a file's directory. */
static sl_err add_root(sl_run *run, const char *path, bool dir)
{
	char *d = dir ? NULL : sl_xstrdup(path);
	if (!dir && !d)
		return SL_ENOMEM;
	const char *base = path;
	if (d) {
		char *slash = strrchr(d, '/');
		if (!slash)
			base = ".";
		else if (slash == d)
			base = "/";
		else {
			*slash = '\0';
			base = d;
		}
	}
	char *real = realpath(base, NULL);
	int e = errno;
	free(d);
	if (!real)
		return e == ENOMEM ? SL_ENOMEM : SL_EIO;
	char **nr = sl_xrealloc(run->roots, (run->n_roots + 1) * sizeof *nr);
	if (!nr) {
		free(real);
		return SL_ENOMEM;
	}
	run->roots = nr;
	run->roots[run->n_roots++] = real;
	return SL_OK;
}

static sl_err add_error(const char *path, int errnum, void *payload)
{
	return sl_passes_add_error(&((sl_run *)payload)->passes, path, errnum, NULL);
}

/* Records a path an exclude glob could not decide (sl_walk_globs_drain) as a file error. */
static sl_err add_glob_failure(const char *path, const char *msg, void *payload)
{
	return sl_passes_add_error(&((sl_run *)payload)->passes, path, 0, msg);
}

sl_err sl_run_add_path(sl_run *run, const char *path)
{
	struct stat st;
	if (run->force_exclude && sl_run_excluded(run, path))
		return SL_OK;   /* as if it were met in a walk */
	if (stat(path, &st) != 0)
		return add_error(path, errno, run);
	if (!S_ISDIR(st.st_mode) && sl_helm_is_template(path))
		return SL_OK;   /* a chart's template is not YAML until rendered: never linted */
	sl_err err = add_root(run, path, S_ISDIR(st.st_mode));
	if (err == SL_EIO)
		return add_error(path, errno, run);
	if (err)
		return err;
	if (!S_ISDIR(st.st_mode) && !run->adding_context)
		run->n_named++;
	if (S_ISDIR(st.st_mode) && !run->adding_context) {
		char **nw = sl_xrealloc(run->walked, (run->n_walked + 1) * sizeof *nw);
		if (!nw)
			return SL_ENOMEM;
		run->walked = nw;
		if (!(run->walked[run->n_walked] = sl_xstrdup(run->roots[run->n_roots - 1])))
			return SL_ENOMEM;
		run->n_walked++;
	}
	if (S_ISDIR(st.st_mode)) {
		const sl_globs *g = sl_scopes_run(run->passes.eng.scopes)->globs;
		sl_walk_skip skip;
		err = sl_walk_recording(path, run->roots[run->n_roots - 1], g,
					walk_skip(run, path, &skip), run->seen, add_walked, add_error, run);
		sl_err derr = sl_walk_globs_drain(g, add_glob_failure, run);
		return err ? err : derr;
	}
	return add_file(path, run);
}

sl_err sl_run_add_fd(sl_run *run, int fd, const char *display_path)
{
	run->n_named++;
	return sl_passes_add_fd(&run->passes, fd, display_path);
}

sl_err sl_run_add_buffer(sl_run *run, const char *path, const char *data, size_t len)
{
	run->n_named++;
	return sl_passes_add_buffer(&run->passes, path, data, len);
}

sl_err sl_run_set_helm_chart(sl_run *run, const char *dir, char **error_out)
{
	if (run->linted)
		return SL_EUSAGE;
	return sl_passes_set_helm_chart(&run->passes, dir, error_out);
}

bool sl_run_excluded(const sl_run *run, const char *path)
{
	/* the globs of the config path is linted under */
	const sl_scope *sc = sl_scopes_of(run->passes.eng.scopes, path);
	const sl_globs *g = sc ? sc->globs : NULL;
	bool hit = sl_walk_globs_match(g, path);
	/* undecided: reported as an error of that input instead of linting it */
	if (sl_walk_globs_drain(g, add_glob_failure, (void *)run) != SL_OK)
		return true;
	return hit;
}

/* The files a caller sees: all but the project's context files, the links out of the tree a
** walk did not follow (their notice is all there is of them), and, listing, the patch files a
** lint skips. */
static sl_err show_files(sl_run *run, bool listing)
{
	sl_engine *e = &run->passes.eng;
	size_t *shown = sl_xrealloc(run->shown, (e->n_files ? e->n_files : 1) * sizeof *shown);
	if (!shown)
		return SL_ENOMEM;
	run->shown = shown;
	run->n_shown = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if (!e->files[i]->context && !e->files[i]->build && !e->files[i]->outside &&
		    !(listing && e->files[i]->partial))
			run->shown[run->n_shown++] = i;
	return SL_OK;
}

sl_err sl_run_list(sl_run *run)
{
	if (run->linted)
		return SL_EUSAGE;
	/* a lint skips the kustomizations' patch files: they are not listed */
	sl_err err = sl_passes_arrange(&run->passes, false, run->project, run->seen);
	return err ? err : show_files(run, true);
}

/* Kustomize (sl_passes_arrange): the files the kustomizations among the inputs use (resources
** of a build, patches) are not linted alone, and each root's build is linted in their place;
** with the project read, its kustomizations are built too: a file named alone (a base, a patch:
** the pre-commit case) gets the findings the builds that use it report in it, as a full run
** does. Then the passes. */
sl_err sl_run_lint(sl_run *run)
{
	if (run->linted)
		return SL_EUSAGE;
	run->linted = true;
	sl_err err = sl_passes_arrange(&run->passes, true, run->project, run->seen);
	if (!err)
		err = sl_passes_lint(&run->passes);
	sl_err serr = show_files(run, false);
	return err ? err : serr;
}

/* A walk's unreadable directory or undecided glob in the project: not the caller's input, so
** not an error of the run (the project is read for facts only). */
static sl_err ignore_error(const char *path, int errnum, void *payload)
{
	(void)path, (void)errnum, (void)payload;
	return SL_OK;
}

static sl_err ignore_glob_failure(const char *path, const char *msg, void *payload)
{
	(void)path, (void)msg, (void)payload;
	return SL_OK;
}

/* True when a directory given as an input holds all of root: the project adds nothing. */
static bool project_given(const sl_run *run, const char *root)
{
	for (size_t i = 0; i < run->n_walked; i++) {
		size_t n = strlen(run->walked[i]);
		if (strncmp(root, run->walked[i], n) == 0 &&
		    (root[n] == '\0' || root[n] == '/' || n == 1))
			return true;
	}
	return false;
}

/* The globs of config project: that narrow the project at root: those of the config its root
** is linted under. A config error is the files' under it, reported where they are linted. */
static sl_err project_globs(sl_run *run, const char *root)
{
	char *probe = sl_xprintf("%s/.schedlint.yaml", root);
	const sl_scope *sc = probe ? sl_scopes_of(run->passes.eng.scopes, probe) : NULL;
	free(probe);
	if (!sc)
		return SL_ENOMEM;
	const sl_config *cfg = sc->cfg;
	if (!cfg || (!cfg->project_include.n && !cfg->project_exclude.n))
		return SL_OK;
	const char *dir = cfg->project_dir ? cfg->project_dir : cfg->base_dir;
	sl_err err = sl_walk_globs_list(cfg->project_include.v, cfg->project_include.n, dir, "project include",
					&run->project_include, NULL);
	if (!err)
		err = sl_walk_globs_list(cfg->project_exclude.v, cfg->project_exclude.n, dir, "project exclude",
					 &run->project_exclude, NULL);
	return err == SL_ECONFIG ? SL_OK : err;   /* checked when the config was loaded */
}

/* Adds the *.yaml / *.yml files under the directory named (as sl_walk_relative names it) that
** config project: keeps, as the project's context files; a directory that cannot be resolved
** is no project to read. */
static sl_err add_context(sl_run *run, const char *named)
{
	sl_err err = add_root(run, named, true);
	if (err)
		return err == SL_EIO ? SL_OK : err;
	if ((err = project_globs(run, named)))
		return err;
	const sl_globs *g = sl_scopes_run(run->passes.eng.scopes)->globs;
	run->adding_context = true;
	sl_walk_skip skip;
	err = sl_walk_recording(named, run->roots[run->n_roots - 1], g, walk_skip(run, named, &skip),
				run->seen, add_walked, ignore_error, run);
	run->adding_context = false;
	sl_err derr = sl_walk_globs_drain(g, ignore_glob_failure, run);
	return err ? err : derr;
}

sl_err sl_run_add_project(sl_run *run, const char *root)
{
	if (run->linted)
		return SL_EUSAGE;
	if (!run->n_named)
		return SL_OK;   /* directories only: they are what the run lints, whole */
	/* the inputs' project: found from the first input's directory (a buffer's or stdin's
	** name's, when it exists), else from the working directory */
	char *start = run->n_roots ? sl_xstrdup(run->roots[0]) : realpath(".", NULL);
	char *real = root ? realpath(root, NULL) : start ? sl_config_project_root(start) : NULL;
	free(start);
	char *named = real ? sl_walk_relative(real) : NULL;
	bool given = real && project_given(run, real);
	free(real);
	if (!named || given) {
		free(named);
		return SL_OK;   /* no such directory, or every file of it is an input already */
	}
	sl_err err = add_context(run, named);
	free(named);
	return err;
}

sl_err sl_run_read_project(sl_run *run, const char *root)
{
	if (run->linted || run->n_named || run->n_walked)
		return SL_EUSAGE;
	char *start = realpath(".", NULL);
	char *real = root ? realpath(root, NULL) : start ? sl_config_project_root(start) : NULL;
	free(start);
	char *named = real ? sl_walk_relative(real) : NULL;
	free(real);
	sl_err err = named ? add_context(run, named) : SL_OK;   /* none: an empty project */
	free(named);
	if (err)
		return err;
	sl_passes_keep_facts(&run->passes);
	run->project = true;
	return sl_run_lint(run);
}

sl_err sl_run_use_project(sl_run *run, const sl_run *project)
{
	if (run->linted || !project->project || !project->linted)
		return SL_EUSAGE;
	const sl_engine *pe = &project->passes.eng;
	for (size_t i = 0; i < pe->n_files; i++) {
		const sl_file *from = pe->files[i];
		if (!from->context || (!from->n_objects && !from->n_digests && !from->n_facts))
			continue;   /* nothing the index takes */
		if (!sl_passes_borrow(&run->passes, from))
			return SL_ENOMEM;
	}
	return SL_OK;
}

sl_err sl_run_fix(sl_run *run, const sl_fix_options *opts, size_t *applied, bool *converged)
{
	if (!run->linted || run->passes.eng.stream)
		return SL_EUSAGE;   /* a streamed run has let go of its trees */
	if (opts && !known_version(opts->version, SL_FIX_OPTIONS_VERSION))
		return SL_EUSAGE;
	sl_run_placement_drop(run);   /* the fixes lint again: the report is redone when asked */
	return sl_fixer_fix(&run->passes, opts, applied, converged);
}

size_t sl_run_finding_count(const sl_run *run)
{
	return run->passes.n_sorted;
}

const sl_finding *sl_run_finding(const sl_run *run, size_t i)
{
	return i < run->passes.n_sorted ? &run->passes.sorted[i]->pub : NULL;
}

size_t sl_run_notice_count(const sl_run *run)
{
	return run->passes.n_notices;
}

const sl_finding *sl_run_notice(const sl_run *run, size_t i)
{
	return i < run->passes.n_notices ? &run->passes.notices[i]->pub : NULL;
}

void sl_run_free(sl_run *run)
{
	if (!run)
		return;
	sl_run_placement_drop(run);
	sl_passes_free(&run->passes);
	free(run->shown);
	sl_walk_globs_free(run->project_include);
	sl_walk_globs_free(run->project_exclude);
	for (size_t i = 0; i < run->n_walked; i++)
		free(run->walked[i]);
	free(run->walked);
	sl_repo_free(run->repo);
	sl_walk_seen_free(run->seen);
	for (size_t i = 0; i < run->n_roots; i++)
		free(run->roots[i]);
	free(run->roots);
	free(run);
}

/* The text the run holds of path (any record of it: an input, a kustomization's patch), else
** NULL; *stamp: the file as it was last read from disk. */
static const sl_source *held_source(const void *ctx, const char *path, sl_stamp *stamp)
{
	const sl_engine *e = &((const sl_run *)ctx)->passes.eng;
	for (size_t i = 0; i < e->n_files; i++) {
		const sl_file *f = e->files[i];
		if (strcmp(f->path, path) != 0 || f->borrowed)
			continue;
		*stamp = f->on_disk ? f->stamp : (sl_stamp){0};
		if (f->src)
			return f->src;
	}
	return NULL;
}

sl_err sl_run_write_output(const sl_run *run, const sl_output_options *opts, FILE *out)
{
	if (opts && !known_version(opts->version, SL_OUTPUT_OPTIONS_VERSION))
		return SL_EUSAGE;
	/* a version 1 struct ends before full: the rest keeps its defaults */
	sl_output_options o = SL_OUTPUT_OPTIONS_INIT;
	if (opts)
		memcpy(&o, opts, opts->version >= 2 ? sizeof o : offsetof(sl_output_options, full));
	o.version = SL_OUTPUT_OPTIONS_VERSION;
	opts = &o;
	/* the run as the writers read it: its findings, notices and files, gathered once */
	size_t nd = run->passes.n_sorted, nn = run->passes.n_notices, nf = run->n_shown;
	const sl_finding **findings = sl_xmalloc((nd + nn ? nd + nn : 1) * sizeof *findings);
	sl_file_info *files = sl_xmalloc((nf ? nf : 1) * sizeof *files);
	sl_err err = findings && files ? SL_OK : SL_ENOMEM;
	for (size_t i = 0; !err && i < nd; i++)
		findings[i] = &run->passes.sorted[i]->pub;
	for (size_t i = 0; !err && i < nn; i++)
		findings[nd + i] = &run->passes.notices[i]->pub;
	for (size_t i = 0; !err && i < nf; i++) {   /* as sl_run_file gives them */
		const sl_file *f = run->passes.eng.files[run->shown[i]];
		files[i] = (sl_file_info){SL_FILE_INFO_VERSION, f->path, f->documents, f->error, f->fixes};
	}
	if (!err) {
		sl_output_run view = {findings, nd, findings + nd, nn, files, nf, held_source, run,
				      run->passes.started};
		err = sl_output_write(&view, opts, out);
	}
	free(findings);
	free(files);
	return err;
}
