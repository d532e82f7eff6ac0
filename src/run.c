/* SPDX-License-Identifier: Apache-2.0
** run.c: a lint run, the library's front door: the inputs (paths, directories, stdin,
** buffers), the passes over them (passes.c), the fix rounds, and what a caller reads back
** (findings, files, fixed text, diffs). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fixer.h"
#include "helm.h"
#include "kustomize.h"
#include "passes.h"
#include "merge.h"
#include "placement.h"
#include "pool.h"
#include "repo.h"
#include "output/output.h"
#include "walk.h"
#include "write.h"
#include "diff.h"
#include "output/escape.h"
#include "schedlint/schedlint.h"

struct sl_run {
	sl_passes passes;            /* the files, the engine, the sorted findings */
	char **roots;                /* the real directories of the paths given (sl_file.root) */
	size_t n_roots;
	bool linted;
	bool force_exclude;          /* sl_run_options.force_exclude */
	size_t *shown;               /* the files a caller sees (not the project's context files): */
	size_t n_shown;              /* their places in the engine's list, once linted */
	bool adding_context;         /* files added now are the project's, for facts only */
	char **walked;               /* the real paths of the directories given as inputs */
	size_t n_walked;
	size_t n_named;              /* inputs that are files, stdin or buffers (not directories) */
	bool no_gitignore;           /* sl_run_options.no_gitignore */
	sl_repo *repo;               /* the repository walks are in, opened by the first walk */
	bool repo_tried;
	sl_arena *placement;         /* sl_run_placement's report, NULL until asked */
	sl_pool_info *pools;
	size_t n_pools;
	sl_placement_row *rows;
	size_t n_rows;
	bool project;                /* sl_run_read_project: a project for other runs to use */
	sl_globs *project_include;   /* config project: (of the config at the project's root), */
	sl_globs *project_exclude;   /* while the project is walked */
	sl_walk_seen *seen;          /* the directories the walks listed, asked instead of the kernel */
};

/* An options struct's version is one this library knows: from 1 (0 is a struct that was not
** started from its _INIT macro) to the header's. */
static bool known_version(unsigned version, unsigned current)
{
	return version >= 1 && version <= current;
}

sl_err sl_run_new(const sl_config *cfg, const sl_run_options *opts, sl_run **out, char **error_out)
{
	if (opts && !known_version(opts->version, SL_RUN_OPTIONS_VERSION)) {
		if (error_out && asprintf(error_out, "sl_run_options version %u is not one this library "
					  "knows (1 to %u): start from SL_RUN_OPTIONS_INIT",
					  opts->version, SL_RUN_OPTIONS_VERSION) < 0)
			*error_out = NULL;
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

static sl_err set_error(sl_file *f, int errnum)
{
	if (asprintf(&f->error, "cannot read: %s", sl_source_strerror(errnum)) < 0) {
		f->error = NULL;
		return SL_ENOMEM;
	}
	return SL_OK;
}

/* Records a file to read in pass 1 (in parallel, with the parsing), under the newest root. */
static sl_err add_file(const char *path, void *payload)
{
	sl_run *run = payload;
	sl_file *f = sl_passes_new_file(&run->passes, path);
	if (!f)
		return SL_ENOMEM;
	f->context = run->adding_context;
	f->on_disk = true;
	f->root = run->n_roots ? run->roots[run->n_roots - 1] : NULL;
	return SL_OK;
}

static bool git_ignores(void *ctx, const char *path, bool is_dir)
{
	return sl_repo_ignored(ctx, path, is_dir);
}

/* What a walk from dir skips besides hidden and excluded paths: what git ignores, unless the
** run says not to (*skip is filled; NULL when nothing). The repository is opened once. */
static const sl_walk_skip *walk_skip(sl_run *run, const char *dir, sl_walk_skip *skip)
{
	if (run->no_gitignore)
		return NULL;
	if (!run->repo_tried) {
		run->repo_tried = true;
		run->repo = sl_repo_open(dir);
	}
	if (!run->repo)
		return NULL;
	*skip = (sl_walk_skip){git_ignores, run->repo};
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
	sl_file *f = sl_passes_new_file(&((sl_run *)payload)->passes, path);
	if (!f)
		return SL_ENOMEM;
	return set_error(f, errnum);
}

/* Records a path an exclude glob could not decide (sl_walk_globs_drain) as a file error. */
static sl_err add_glob_failure(const char *path, const char *msg, void *payload)
{
	sl_file *f = sl_passes_new_file(&((sl_run *)payload)->passes, path);
	if (!f)
		return SL_ENOMEM;
	f->error = strdup(msg);
	return f->error ? SL_OK : SL_ENOMEM;
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

/* A buffer (or stdin) is the file it names: with that file's identity, the project's copy of
** it (sl_run_add_project) is the duplicate the lint drops, so its facts do not count twice and
** the buffer's replace them. Only the record's identity: the source keeps its own stamp (none
** for a buffer), which is what a write checks. */
static void stand_for(sl_file *f, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		f->stamp = (sl_stamp){.valid = true, .dev = st.st_dev, .ino = st.st_ino};
}

sl_err sl_run_add_fd(sl_run *run, int fd, const char *display_path)
{
	run->n_named++;
	sl_file *f = sl_passes_new_file(&run->passes, display_path);
	if (!f)
		return SL_ENOMEM;
	sl_err err = sl_source_read_fd(fd, display_path, &f->src);
	if (f->src)
		f->src->owner = f;
	if (strcmp(display_path, "-") != 0)
		stand_for(f, display_path);
	if (err == SL_EIO)
		return set_error(f, errno);
	return err;
}

sl_err sl_run_add_buffer(sl_run *run, const char *path, const char *data, size_t len)
{
	run->n_named++;
	sl_file *f = sl_passes_new_file(&run->passes, path);
	if (!f)
		return SL_ENOMEM;
	sl_err err = sl_source_from_buffer(path, data, len, &f->src);
	if (f->src)
		f->src->owner = f;
	stand_for(f, path);
	return err;
}

sl_err sl_run_set_helm_chart(sl_run *run, const char *dir, char **error_out)
{
	if (run->linted || run->passes.eng.helm)
		return SL_EUSAGE;
	return sl_helm_new(dir, &run->passes.eng.helm, error_out);
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

static int cmp_files(const void *a, const void *b)
{
	return strcmp((*(sl_file *const *)a)->path, (*(sl_file *const *)b)->path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_path_file(const void *key, const void *f)
{
	return strcmp(*(const char *const *)key, (*(sl_file *const *)f)->path);
}

/* The kustomizations a run sees: those among its files (inputs and the project's), and the one
** beside each file named, as a real path; *v sorted, without repeats. */
static sl_err kustomizations(const sl_engine *e, const sl_walk_seen *seen, char ***v, size_t *n)
{
	size_t cap = 0;
	*v = NULL;
	*n = 0;
	const char *last = NULL;   /* the directory whose kustomization was looked for last */
	size_t last_len = 0;
	for (size_t i = 0; i < e->n_files; i++) {
		const char *p = e->files[i]->path;
		const char *slash = strrchr(p, '/');
		size_t dlen = slash ? (size_t)(slash - p) : 0;
		char *k[3] = {NULL, NULL, NULL};
		if (sl_kustomize_is_file(p)) {
			k[0] = sl_kustomize_real(e->kust, p);
		} else if (!e->files[i]->context && !(last && dlen == last_len && strncmp(p, last, dlen) == 0)) {
			last = p;
			last_len = dlen;
			static const char *const names[] = {"kustomization.yaml", "kustomization.yml"};
			for (size_t j = 0; j < 2; j++) {
				char *c = sl_xprintf("%.*s%s", slash ? (int)(slash - p + 1) : 0, p, names[j]);
				if (!c)
					return SL_ENOMEM;
				/* one of the run's files (the files are sorted): found as itself */
				bool listed = bsearch(&c, e->files, e->n_files, sizeof *e->files,
						      cmp_path_file) != NULL;
				/* else as the directory's walk listed it, or access */
				sl_walk_seen_kind w = listed ? SL_SEEN_ABSENT
						    : sl_walk_seen_at(seen, p, dlen, names[j]);
				bool there = w == SL_SEEN_FILE || w == SL_SEEN_DIR ||
					     ((w == SL_SEEN_UNLISTED || w == SL_SEEN_OTHER) &&
					      access(c, F_OK) == 0);
				k[j] = there ? sl_kustomize_real(e->kust, c) : NULL;
				free(c);
			}
		}
		for (size_t j = 0; j < 2; j++) {
			if (!k[j])
				continue;
			if (*n == cap) {
				cap = cap ? cap * 2 : 8;
				char **nv = sl_xrealloc(*v, cap * sizeof *nv);
				if (!nv) {
					free(k[0]);
					free(k[1]);
					return SL_ENOMEM;
				}
				*v = nv;
			}
			(*v)[(*n)++] = k[j];
		}
	}
	if (*n)
		qsort(*v, *n, sizeof **v, cmp_str);
	size_t w = 0;
	for (size_t i = 0; i < *n; i++) {
		if (w && strcmp((*v)[w - 1], (*v)[i]) == 0)
			free((*v)[i]);
		else
			(*v)[w++] = (*v)[i];
	}
	*n = w;
	return SL_OK;
}

/* Files a kustomization uses as patches are partial objects: never linted on their own (nor
** read for facts); they are still the run's files (a buffer's text comes back unchanged). */
static sl_err skip_patches(sl_run *run)
{
	sl_engine *e = &run->passes.eng;
	char **kust = NULL, **patches = NULL;
	size_t nk = 0, np = 0, cap = 0;
	sl_err err = kustomizations(e, run->seen, &kust, &nk);
	for (size_t i = 0; !err && i < nk; i++)
		err = sl_kustomize_patch_files(e->kust, kust[i], &patches, &np, &cap);
	const char **bases = !err && np ? sl_xmalloc(np * sizeof *bases) : NULL;
	if (!err && np && !bases)
		err = SL_ENOMEM;
	for (size_t j = 0; bases && j < np; j++) {   /* the patches' base names, sorted */
		const char *pb = strrchr(patches[j], '/');
		bases[j] = pb ? pb + 1 : patches[j];
	}
	if (bases) {
		qsort(patches, np, sizeof *patches, cmp_str);
		qsort(bases, np, sizeof *bases, cmp_str);
	}
	for (size_t i = 0; !err && np && i < e->n_files; i++) {
		sl_file *f = e->files[i];
		const char *base = strrchr(f->path, '/');
		base = base ? base + 1 : f->path;
		/* a patch's base name first: most files need no realpath */
		bool named = bsearch(&base, bases, np, sizeof *bases, cmp_str) != NULL;
		char *real = named ? sl_kustomize_real(e->kust, f->path) : NULL;
		if (real && bsearch(&real, patches, np, sizeof *patches, cmp_str))
			f->partial = true;
		free(real);
	}
	for (size_t i = 0; i < nk; i++)
		free(kust[i]);
	for (size_t i = 0; i < np; i++)
		free(patches[i]);
	free(bases);
	free(kust);
	free(patches);
	return err;
}

/* The real paths of the files named (not the project's) that a build uses, sorted, in the
** engine's named; SL_ENOMEM only. */
static sl_err named_used(sl_engine *e)
{
	struct named { char *real; const char *as; } *v = sl_xcalloc(e->n_files ? e->n_files : 1,
								      sizeof *v);
	if (!v)
		return SL_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < e->n_files; i++) {
		const sl_file *f = e->files[i];
		if (!f->context && f->partial && f->on_disk && (v[n].real = sl_kustomize_real(e->kust, f->path)))
			v[n++].as = f->path;
	}
	if (n)
		qsort(v, n, sizeof *v, cmp_str);   /* by real path, the first member */
	e->named = sl_xmalloc((n ? n : 1) * sizeof *e->named);
	e->named_as = sl_xmalloc((n ? n : 1) * sizeof *e->named_as);
	sl_err err = e->named && e->named_as ? SL_OK : SL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!err) {
			e->named[e->n_named] = v[i].real;
			e->named_as[e->n_named++] = v[i].as;
		} else {
			free(v[i].real);
		}
	}
	free(v);
	return err;
}

/* Builds the kustomizations among the inputs (kustomize.h): the files they use (resources of a
** build, patches) are not linted alone, and each root's build is linted in their place. With
** the project read, its kustomizations are built too: a file named alone (a base, a patch: the
** pre-commit case) gets the findings the builds that use it report in it, as a full run does;
** a project's build that uses no file named is not linted. */
static sl_err build_kustomizations(sl_run *run)
{
	sl_engine *e = &run->passes.eng;
	const char **kp = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *kp);
	bool *from_project = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *from_project);
	bool *load_none = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *load_none);
	if (!kp || !from_project || !load_none) {
		free(kp);
		free(from_project);
		free(load_none);
		return SL_ENOMEM;
	}
	bool named = false;   /* a file of the caller's on disk (not a project read for facts) */
	for (size_t i = 0; i < e->n_files && !named; i++)
		named = !e->files[i]->context && e->files[i]->on_disk;
	size_t n = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if ((!e->files[i]->context || (named && !run->project)) && e->files[i]->on_disk &&
		    sl_kustomize_is_file(e->files[i]->path)) {
			/* the load restrictor of the config the kustomization is linted under */
			const sl_config *cfg = e->files[i]->scope ? e->files[i]->scope->cfg : NULL;
			load_none[n] = cfg && strcmp(cfg->kustomize_load_restrictor, "none") == 0;
			from_project[n] = e->files[i]->context;
			kp[n++] = e->files[i]->path;
		}
	/* a plan even without builds: skip_patches resolves paths through it */
	sl_err err = sl_kustomize_plan_seen(kp, n, run->passes.jobs, run->seen, load_none, &e->kust);
	free(kp);
	free(load_none);
	if (err || !n) {
		free(from_project);
		return err;
	}
	for (size_t i = 0; i < e->n_files; i++) {
		sl_file *f = e->files[i];
		const char *base = strrchr(f->path, '/');
		/* a real path only for a file whose base name a build used */
		char *real = !sl_kustomize_may_consume(e->kust, base ? base + 1 : f->path)
			     ? NULL : sl_kustomize_real(e->kust, f->path);
		if (real && sl_kustomize_consumed(e->kust, real))
			f->partial = true;   /* linted in its overlays' builds (a project's file: not a
					        plain file's fact either) */
		free(real);
	}
	err = named_used(e);
	for (size_t i = 0; !err && i < sl_kustomize_n_builds(e->kust); i++) {
		const char *name, *text;
		size_t len;
		sl_kustomize_build *b = sl_kustomize_build_at(e->kust, i, &name, &text, &len);
		bool theirs = from_project[sl_kustomize_build_root(b)];
		if (theirs && !sl_kustomize_build_uses(b, (const char *const *)e->named, e->n_named))
			continue;   /* reaches no file named */
		sl_file *f = sl_passes_new_file(&run->passes, name);
		if (!f) {
			free(from_project);
			return SL_ENOMEM;
		}
		f->build = b;
		f->only_named = theirs;
		err = sl_source_from_buffer(name, text, len, &f->src);
		if (f->src)
			f->src->owner = f;
		sl_kustomize_release(b, false);   /* linted from the copy */
	}
	free(from_project);
	return err;
}

/* Files in path order, so "first" (a first default PriorityClass) means the same thing however
** the inputs were named. */
static void sort_files(sl_run *run)
{
	sl_engine *e = &run->passes.eng;
	if (e->n_files)   /* qsort(NULL, 0, ...) is undefined */
		qsort(e->files, e->n_files, sizeof *e->files, cmp_files);
}

/* The files a caller sees: all but the project's context files (and, listing, the patch
** files a lint skips). */
static sl_err show_files(sl_run *run, bool listing)
{
	sl_engine *e = &run->passes.eng;
	size_t *shown = sl_xrealloc(run->shown, (e->n_files ? e->n_files : 1) * sizeof *shown);
	if (!shown)
		return SL_ENOMEM;
	run->shown = shown;
	run->n_shown = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if (!e->files[i]->context && !e->files[i]->build && !(listing && e->files[i]->partial))
			run->shown[run->n_shown++] = i;
	return SL_OK;
}

sl_err sl_run_list(sl_run *run)
{
	if (run->linted)
		return SL_EUSAGE;
	sort_files(run);
	/* a lint skips the kustomizations' patch files: they are not listed (a plan without
	** builds resolves their paths) */
	sl_err err = run->passes.eng.kust ? SL_OK : sl_kustomize_plan(NULL, 0, 1, &run->passes.eng.kust);
	if (!err)
		err = skip_patches(run);
	return err ? err : show_files(run, true);
}

sl_err sl_run_lint(sl_run *run)
{
	if (run->linted)
		return SL_EUSAGE;
	run->linted = true;
	sl_err err = build_kustomizations(run);
	if (err)
		return err;
	sort_files(run);
	err = skip_patches(run);
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

/* The project's root (spec/cli.md) for inputs in the real directory start: the git work tree
** start is in, else the directory of the outermost .schedlint.yaml above it, else the working
** directory when start is in it; a real path, malloc'd; NULL for none (inputs outside any of
** those: a run over another tree reads nothing of the one it is started from). */
static char *project_root(const char *start)
{
	char *root = NULL;
	if (sl_repo_root(start, &root) == SL_OK)
		return root;
	char *dir = sl_xstrdup(start);
	if (!dir)
		return NULL;
	char *outer = NULL;
	for (;;) {
		char *cfg = sl_xprintf("%s/.schedlint.yaml", dir);
		struct stat st;
		if (cfg && stat(cfg, &st) == 0 && S_ISREG(st.st_mode)) {
			free(outer);
			outer = sl_xstrdup(dir);
		}
		free(cfg);
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	free(dir);
	if (outer)
		return outer;
	char *cwd = realpath(".", NULL);
	size_t n = cwd ? strlen(cwd) : 0;
	if (cwd && (strncmp(start, cwd, n) != 0 || (start[n] != '\0' && start[n] != '/'))) {
		free(cwd);
		return NULL;
	}
	return cwd;
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
	sl_err err = sl_walk_globs_list(&cfg->project_include, dir, "project include",
					&run->project_include, NULL);
	if (!err)
		err = sl_walk_globs_list(&cfg->project_exclude, dir, "project exclude",
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
	char *real = root ? realpath(root, NULL) : start ? project_root(start) : NULL;
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
	char *real = root ? realpath(root, NULL) : start ? project_root(start) : NULL;
	free(start);
	char *named = real ? sl_walk_relative(real) : NULL;
	free(real);
	sl_err err = named ? add_context(run, named) : SL_OK;   /* none: an empty project */
	free(named);
	if (err)
		return err;
	run->passes.eng.keep_facts = true;
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
	sl_arena_free(run->placement);   /* the fixes re-lint: the report is redone when asked */
	run->placement = NULL;
	run->pools = NULL;
	run->rows = NULL;
	run->n_pools = run->n_rows = 0;
	return sl_fixer_fix(&run->passes, opts, applied, converged);
}

/* File i of the run, or NULL when there is none: every indexed accessor checks its index. */
static sl_file *file_at(const sl_run *run, size_t i)
{
	return i < run->n_shown ? run->passes.eng.files[run->shown[i]] : NULL;
}

void sl_run_file_text(const sl_run *run, size_t i, const char **data, size_t *len, bool *changed)
{
	const sl_file *f = file_at(run, i);
	if (!f) {
		*data = "";
		*len = 0;
		if (changed)
			*changed = false;
		return;
	}
	*data = f->src ? f->src->data : "";
	*len = f->src ? f->src->len : 0;
	if (changed)
		*changed = f->orig && (f->orig->len != f->src->len ||
				       memcmp(f->orig->data, f->src->data, f->src->len) != 0);
}

void sl_run_file_original(const sl_run *run, size_t i, const char **data, size_t *len)
{
	const sl_file *f = file_at(run, i);
	const sl_source *s = !f ? NULL : f->orig ? f->orig : f->src;
	*data = s ? s->data : "";
	*len = s ? s->len : 0;
}

sl_err sl_run_file_write(const sl_run *run, size_t i)
{
	sl_file *f = file_at(run, i);
	if (!f)
		return SL_EUSAGE;
	const char *data;
	size_t len;
	bool changed;
	sl_run_file_text(run, i, &data, &len, &changed);
	if (!changed)
		return SL_OK;
	free(f->write_error);
	f->write_error = NULL;
	sl_err err = sl_write_fixed(f->path, f->root, f->orig, data, len, &f->write_error);
	if (err == SL_EIO && !f->write_error)
		return SL_ENOMEM;
	return err;
}

const char *sl_run_file_write_error(const sl_run *run, size_t i)
{
	const sl_file *f = file_at(run, i);
	return f ? f->write_error : NULL;
}

sl_err sl_run_file_diff(const sl_run *run, size_t i, FILE *out)
{
	const sl_file *f = file_at(run, i);
	if (!f)
		return SL_EUSAGE;
	const char *a, *b;
	size_t alen, blen;
	sl_run_file_original(run, i, &a, &alen);
	sl_run_file_text(run, i, &b, &blen, NULL);
	/* The headers carry the file name: escaped so it cannot end the line (escape.h). */
	char *path = sl_escape_str(f->path, SL_SINK_DIFF);
	if (!path)
		return SL_ENOMEM;
	sl_err err = sl_diff_write(out, path, a, alen, b, blen);
	free(path);
	return err;
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

size_t sl_run_file_count(const sl_run *run)
{
	return run->n_shown;
}

sl_err sl_run_file(const sl_run *run, size_t i, sl_file_info *out)
{
	const sl_file *f = file_at(run, i);
	if (!f) {
		*out = (sl_file_info){0};
		return SL_EUSAGE;
	}
	out->path = f->path;
	out->documents = f->documents;
	out->error = f->error;
	out->fixes = f->fixes;
	return SL_OK;
}

/* A copy of s in a (NULL stays NULL); *oom when it fails. */
static const char *keep(sl_arena *a, const char *s, bool *oom)
{
	char *c = s ? sl_arena_strndup(a, s, strlen(s)) : NULL;
	*oom |= s && !c;
	return c;
}

/* The cells of unit u on the pools (scheduled: false when u has nodeName). */
static sl_err placement_row(sl_run *run, const sl_index *ix, const sl_unit *u,
			    sl_placement_row *row, bool *oom)
{
	sl_arena *a = run->placement;
	const sl_placement_fit *fit;
	const sl_pool *pools;
	const sl_placement_pod *pod;
	size_t n;
	sl_err err = sl_placement_unit(ix, u, a, &fit, &pools, &pod, &n);
	if (err)
		return err;
	row->scheduled = n > 0;
	if (!n)
		return SL_OK;
	sl_placement_cell *cells = sl_arena_zalloc(a, n * sizeof *cells);
	if (!cells)
		return SL_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		cells[i].lands = fit[i].lands;
		if (fit[i].lands)
			continue;
		sl_placement_verdict v = sl_placement_eval(pod, &pools[i], a);
		cells[i].brief = fit[i].brief;
		const char *text = NULL;
		for (size_t k = 0; k < v.n_reasons; k++) {
			const sl_placement_reason *r = &v.reasons[k];
			const char *one = r->detail ? sl_arena_printf(a, "%s (%s)", r->text, r->detail)
						    : r->text;
			text = text ? sl_arena_printf(a, "%s\n%s", text, one) : one;
			*oom |= !text;
		}
		cells[i].reasons = text;
	}
	row->cells = cells;
	return SL_OK;
}

sl_err sl_run_placement(sl_run *run, const sl_pool_info **pools_out, size_t *n_pools,
			const sl_placement_row **rows_out, size_t *n_rows)
{
	*pools_out = NULL;
	*rows_out = NULL;
	*n_pools = *n_rows = 0;
	sl_engine *e = &run->passes.eng;
	if (!run->linted || e->stream)
		return SL_EUSAGE;
	if (!run->placement) {
		if (!(run->placement = sl_arena_new()))
			return SL_ENOMEM;
		bool oom = false;
		sl_arena *a = run->placement;
		const sl_index *ix = &e->index;   /* the run's config: one set of columns */
		size_t np;
		const sl_pool *pools = sl_pool_set_pools(sl_index_pool_set(ix), &np);
		run->pools = np ? sl_arena_zalloc(a, np * sizeof *run->pools) : NULL;
		if (np && !run->pools)
			return SL_ENOMEM;
		for (size_t i = 0; i < np; i++) {
			const sl_pool *p = &pools[i];
			run->pools[i] = (sl_pool_info){keep(a, p->name, &oom),
				sl_pool_origin_name(p->origin), keep(a, p->where, &oom),
				keep(a, p->path, &oom), p->line,
				p->gpu == SL_TRI_YES, p->spot == SL_TRI_YES ? 1 : p->spot == SL_TRI_NO ? 0 : -1,
				p->min_nodes, p->max_nodes};
		}
		run->n_pools = np;
		size_t cap = 0;
		for (size_t fi = 0; np && fi < run->n_shown && !oom; fi++) {
			const sl_file *f = e->files[run->shown[fi]];
			for (size_t oi = 0; oi < f->n_objects; oi++) {
				const sl_object *o = f->objects[oi];
				for (size_t ui = 0; ui < o->n_units; ui++) {
					const sl_unit *u = &o->units[ui];
					if (sl_unit_builds_no_pod(u) || sl_merge_kind_is_template(o->kind))
						continue;
					if (run->n_rows == cap) {
						cap = cap ? 2 * cap : 64;
						sl_placement_row *nv = sl_arena_alloc(a, cap * sizeof *nv);
						if (!nv)
							return SL_ENOMEM;
						if (run->n_rows)
							memcpy(nv, run->rows, run->n_rows * sizeof *nv);
						run->rows = nv;
					}
					sl_placement_row *row = &run->rows[run->n_rows++];
					const sl_node *at = u->pod ? u->pod : o->root;
					uint32_t line = 0, col = 0;
					if (f->src && at)
						sl_source_position(f->src, at->start, &line, &col);
					*row = (sl_placement_row){keep(a, sl_object_unit_label(u, a), &oom),
								  f->path, line, col, false, NULL};
					sl_err err = placement_row(run, ix, u, row, &oom);
					if (err)
						return err;
				}
			}
		}
		if (oom)
			return SL_ENOMEM;
	}
	*pools_out = run->pools;
	*n_pools = run->n_pools;
	*rows_out = run->rows;
	*n_rows = run->n_rows;
	return SL_OK;
}

void sl_run_free(sl_run *run)
{
	if (!run)
		return;
	sl_arena_free(run->placement);
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
	for (size_t i = 0; !err && i < nf; i++)
		sl_run_file(run, i, &files[i]);
	if (!err) {
		sl_output_run view = {findings, nd, findings + nd, nn, files, nf, held_source, run,
				      run->passes.started};
		err = sl_output_write(&view, opts, out);
	}
	free(findings);
	free(files);
	return err;
}
