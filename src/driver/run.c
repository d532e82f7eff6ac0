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
#include "render/kustomize/kustomize.h"
#include "util/path.h"

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

/* True when path, a directory a walk of the project met, is one given as an input: walked
** already. Only a directory named as one of them is resolved. */
static bool walked_input(const sl_run *run, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	bool maybe = false;
	for (size_t i = 0; i < run->n_walked && !maybe; i++)
		maybe = strcmp(strrchr(run->walked[i], '/') + 1, base) == 0;
	if (!maybe)
		return false;
	char *real = realpath(path, NULL);
	bool hit = false;
	for (size_t i = 0; real && i < run->n_walked && !hit; i++)
		hit = strcmp(real, run->walked[i]) == 0;
	free(real);
	return hit;
}

/* What a walk skips besides hidden and excluded paths: what git ignores (unless the run says
** not to), and in a walk of the project the directories given as inputs. */
static bool skipped(void *ctx, const char *path, const char *real_dir, bool is_dir)
{
	sl_run *run = ctx;
	if (run->adding_context && is_dir && walked_input(run, path))
		return true;
	return run->repo && sl_repo_ignored_in(run->repo, path, real_dir, is_dir);
}

/* A symlink a walk did not follow because it leads out of the walked tree: an input's gets the
** symlink-outside-tree notice (a record that is never read); the project's is just skipped. */
static sl_err link_outside(void *ctx, const char *path, bool is_dir)
{
	sl_run *run = ctx;
	return run->adding_context ? SL_OK : sl_passes_add_outside(&run->passes, path, is_dir);
}

/* What a walk from dir skips, and whom it tells of a link out of the tree (*skip is filled and
** returned). The repository is opened once, by the first walk. */
static const sl_walk_skip *walk_skip(sl_run *run, const char *dir, sl_walk_skip *skip)
{
	if (!run->no_gitignore && !run->repo_tried) {
		run->repo_tried = true;
		run->repo = sl_repo_open(dir);
		if (run->repo)
			sl_repo_use_seen(run->repo, run->seen);   /* which directories hold no .gitignore */
	}
	*skip = (sl_walk_skip){skipped, run, link_outside};
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
	/* a project above the working directory: its files below it named from there ("x.yaml",
	** not "../here/x.yaml"), as an input is */
	char *named = run->context_cwd ? sl_path_reenter(path, run->context_cwd) : NULL;
	if (run->context_cwd && !named)
		return SL_ENOMEM;
	if (named)
		path = named;
	sl_err err = SL_OK;
	const sl_scope *sc = sl_scopes_of(run->passes.eng.scopes, path);
	if (!sc)
		err = SL_ENOMEM;
	else if (sc == sl_scopes_run(run->passes.eng.scopes) || !sl_run_excluded(run, path))
		err = add_file(path, run);
	free(named);
	return err;
}

/* Records real (taken) as where an input is, once. */
static sl_err add_start(sl_run *run, char *real)
{
	for (size_t i = 0; i < run->n_starts; i++)
		if (strcmp(run->starts[i], real) == 0) {
			free(real);
			return SL_OK;
		}
	char **ns = sl_xrealloc(run->starts, (run->n_starts + 1) * sizeof *ns);
	if (!ns) {
		free(real);
		return SL_ENOMEM;
	}
	run->starts = ns;
	run->starts[run->n_starts++] = real;
	return SL_OK;
}

/* The real path of dir (taken), or of the nearest directory above it that exists (a new
** file's). SL_ENOTFOUND when none does (the working directory is gone); SL_ENOMEM. */
static sl_err nearest_real_dir(char *dir, char **out)
{
	*out = NULL;
	while (dir && !(*out = realpath(dir, NULL)) && errno != ENOMEM &&
	       strcmp(dir, "/") != 0 && strcmp(dir, ".") != 0) {
		char *up = sl_path_dir(dir);
		free(dir);
		dir = up;
	}
	bool oom = !dir || (!*out && errno == ENOMEM);
	free(dir);
	return *out ? SL_OK : oom ? SL_ENOMEM : SL_ENOTFOUND;
}

/* Where a buffer or stdin standing for name is: its directory, or the nearest directory above
** it that exists (a new file's); stdin unnamed ("-"): the working directory. */
static sl_err add_named_start(sl_run *run, const char *name)
{
	char *real;
	sl_err err = nearest_real_dir(strcmp(name, "-") == 0 ? sl_xstrdup(".") : sl_path_dir(name), &real);
	if (err == SL_ENOTFOUND)
		return SL_OK;   /* nowhere: the working directory is gone */
	return err ? err : add_start(run, real);
}

/* Adds the root of a path given: the real path of the directory, or of a file's directory. */
static sl_err add_root(sl_run *run, const char *path, bool dir)
{
	char *d = dir ? NULL : sl_path_dir(path);
	if (!dir && !d)
		return SL_ENOMEM;
	char *real = realpath(d ? d : path, NULL);
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
	if (run->adding_context)
		return SL_OK;
	char *start = sl_xstrdup(real);
	return start ? add_start(run, start) : SL_ENOMEM;
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
	/* one spelling per run: "./apps" is "apps" (and its files "apps/x.yaml"), "./" is "." */
	while (path[0] == '.' && path[1] == '/') {
		path += 2;
		while (*path == '/')
			path++;
		if (!*path)
			path = ".";
	}
	struct stat st;
	if (run->force_exclude && sl_run_excluded(run, path))
		return SL_OK;   /* as if it were met in a walk */
	if (stat(path, &st) != 0)
		return add_error(path, errno, run);
	char *chart = sl_helm_template_chart(path);
	if (chart) {
		/* a chart's template (or templates/ itself) is not YAML until rendered: never linted;
		** its chart stands for it, whose Chart.yaml says so (helm-chart-not-rendered) */
		char *real = sl_xprintf("%s/Chart.yaml", chart);
		char *shown = real ? sl_walk_relative(real) : NULL;
		free(chart);
		free(real);
		sl_err err = shown ? sl_run_add_path(run, shown) : SL_ENOMEM;
		free(shown);
		return err;
	}
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
	sl_err err = add_named_start(run, display_path);
	return err ? err : sl_passes_add_fd(&run->passes, fd, display_path);
}

sl_err sl_run_add_buffer(sl_run *run, const char *path, const char *data, size_t len)
{
	run->n_named++;
	sl_err err = add_named_start(run, path);
	return err ? err : sl_passes_add_buffer(&run->passes, path, data, len);
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

/* The files a caller sees, listed (--show-files) or linted alike: all but the project's context
** files, the kustomizations' builds (a patch is one: its findings are reported in it) and the
** links out of the tree a walk did not follow (their notice is all there is of them). */
static sl_err show_files(sl_run *run)
{
	sl_engine *e = &run->passes.eng;
	size_t *shown = sl_xrealloc(run->shown, (e->n_files ? e->n_files : 1) * sizeof *shown);
	if (!shown)
		return SL_ENOMEM;
	run->shown = shown;
	run->n_shown = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if (!e->files[i]->context && !e->files[i]->build && !e->files[i]->outside)
			run->shown[run->n_shown++] = i;
	return SL_OK;
}

sl_err sl_run_list(sl_run *run)
{
	if (run->linted)
		return SL_EUSAGE;
	sl_err err = sl_passes_arrange(&run->passes, false, run->project, run->seen);
	return err ? err : show_files(run);
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
	sl_err serr = show_files(run);
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

/* True when dir (a real path) lies in the directory root (a real path). */
static bool path_under(const char *dir, const char *root)
{
	size_t n = strlen(root);
	return strncmp(dir, root, n) == 0 && (dir[n] == '\0' || dir[n] == '/' || n == 1);
}

/* True when a directory given as an input holds all of root: the project adds nothing. */
static bool project_given(const sl_run *run, const char *root)
{
	for (size_t i = 0; i < run->n_walked; i++)
		if (path_under(root, run->walked[i]))
			return true;
	return false;
}

/* The globs of config project: that narrow the project at root: those of the config its root
** is linted under. A config error is the files' under it, reported where they are linted. */
static sl_err project_globs(sl_run *run, const char *root)
{
	sl_walk_globs_free(run->project_include);   /* another project's */
	sl_walk_globs_free(run->project_exclude);
	run->project_include = run->project_exclude = NULL;
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
	bool above = strcmp(named, "..") == 0 || strncmp(named, "../", 3) == 0;
	if (above && !(run->context_cwd = realpath(".", NULL)) && errno == ENOMEM)
		return SL_ENOMEM;
	run->adding_context = true;
	sl_walk_skip skip;
	err = sl_walk_recording(named, run->roots[run->n_roots - 1], g, walk_skip(run, named, &skip),
				run->seen, add_walked, ignore_error, run);
	run->adding_context = false;
	free(run->context_cwd);
	run->context_cwd = NULL;
	sl_err derr = sl_walk_globs_drain(g, ignore_glob_failure, run);
	return err ? err : derr;
}

/* Adds the project at real (a real path) unless an input holds all of it already. */
static sl_err add_project_at(sl_run *run, const char *real)
{
	if (project_given(run, real))
		return SL_OK;   /* every file of it is an input already */
	char *named = sl_walk_relative(real);
	if (!named)
		return SL_ENOMEM;
	sl_err err = add_context(run, named);
	free(named);
	return err;
}

sl_err sl_run_add_project(sl_run *run, const char *root)
{
	if (run->linted)
		return SL_EUSAGE;
	if (root) {
		char *real = realpath(root, NULL);
		sl_err err = real ? add_project_at(run, real) : errno == ENOMEM ? SL_ENOMEM : SL_OK;
		free(real);
		return err;   /* no such directory: no project */
	}
	/* each input's project (the first that holds it, once): found from where it is */
	char **found = sl_xcalloc(run->n_starts ? run->n_starts : 1, sizeof *found);
	size_t n = 0;
	sl_err err = found ? SL_OK : SL_ENOMEM;
	for (size_t i = 0; !err && i < run->n_starts; i++) {
		char *real = NULL;
		err = sl_config_project_root(run->starts[i], &real);
		if (err == SL_ENOTFOUND) {
			err = SL_OK;   /* no repository, no config: the input alone */
			continue;
		}
		for (size_t k = 0; real && k < n; k++)
			if (strcmp(found[k], real) == 0) {
				free(real);
				real = NULL;
			}
		if (real)
			found[n++] = real;
	}
	for (size_t k = 0; !err && k < n; k++)
		err = add_project_at(run, found[k]);
	for (size_t k = 0; k < n; k++)
		free(found[k]);
	free(found);
	return err;
}

sl_err sl_run_project_root(const char *path, char **root_out)
{
	if (!path || !root_out)
		return SL_EUSAGE;
	*root_out = NULL;
	struct stat st;
	char *real;
	sl_err err = nearest_real_dir(stat(path, &st) == 0 && S_ISDIR(st.st_mode) ? sl_xstrdup(path)
										: sl_path_dir(path), &real);
	if (err)
		return err;
	err = sl_config_project_root(real, root_out);
	free(real);
	return err;
}

sl_err sl_run_read_project(sl_run *run, const char *root)
{
	if (run->linted || run->n_named || run->n_walked)
		return SL_EUSAGE;
	char *real = NULL;
	sl_err err = SL_OK;
	if (!root)
		err = sl_run_project_root(".", &real);
	else if (!(real = realpath(root, NULL)))
		err = errno == ENOMEM ? SL_ENOMEM : SL_ENOTFOUND;
	if (err == SL_ENOTFOUND)
		err = SL_OK;   /* none: an empty project */
	char *named = real ? sl_walk_relative(real) : NULL;
	if (!err && real && !named)
		err = SL_ENOMEM;
	run->project_root = real;
	if (!err && named)
		err = add_context(run, named);
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
	/* an input from elsewhere (another checkout than the editor's) has a project of its own:
	** read it instead of lending this one's facts */
	for (size_t i = 0; i < run->n_starts; i++)
		if (!project->project_root || !path_under(run->starts[i], project->project_root))
			return sl_run_add_project(run, NULL);
	const sl_engine *pe = &project->passes.eng;
	for (size_t i = 0; i < pe->n_files; i++) {
		const sl_file *from = pe->files[i];
		/* what the index takes, and the kustomizations (planned from the disk when the run
		** names a file on disk: a base or patch named alone gets its builds' findings) */
		if (!from->context || (!from->n_objects && !from->n_digests && !from->n_facts &&
				       !sl_kustomize_is_file(from->path)))
			continue;
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
	for (size_t i = 0; i < run->n_starts; i++)
		free(run->starts[i]);
	free(run->starts);
	free(run->project_root);
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
		/* a build's text is not the file its path names (the kustomization's) */
		if (strcmp(f->path, path) != 0 || f->borrowed || f->build)
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
		files[i] = (sl_file_info){SL_FILE_INFO_VERSION, f->path, f->documents, f->error, f->fixes,
					 f->partial};
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
