/* SPDX-License-Identifier: Apache-2.0
** kustomize.h (private): Kustomize, built in. The kustomizations among a run's files are
** planned: the files they use as patches and resources are not linted alone; every root
** kustomization (one no other includes) is built, in C, into YAML text whose every node maps
** back to the base, patch or kustomization line that produced it; the run lints that text and
** the findings are moved back (lint/remap.c, from the origins this plan gives). The builder's
** files: plan.c (the plan), build.c (a kustomization), patches.c, transformers.c and
** generators.c (its steps), metadata.c (buildMetadata), nameref.c (the references to renamed objects, fixed once a root is
** built) with fields.c (kustomize's field specs), common.c (what they share; internal.h). */
#ifndef SL_KUSTOMIZE_H
#define SL_KUSTOMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "schedlint/error.h"

struct sl_walk_seen;
struct sl_source;
struct sl_tree;
typedef struct sl_kustomize sl_kustomize;
typedef struct sl_kustomize_build sl_kustomize_build;

/* True when path names a kustomization file (kustomization.yaml, kustomization.yml or
** Kustomization, in any directory). */
bool sl_kustomize_is_file(const char *path);
/* The real paths of the files the kustomization at path uses as patches (resolved by plan k) (`patches:` entries
** with a path, `patchesStrategicMerge` file names, `patchesJson6902` paths), appended to *v
** (malloc'd strings; *n of them, *cap its room). A kustomization that cannot be read or parsed,
** and a patch file that does not exist, add nothing. SL_ENOMEM only. */
sl_err sl_kustomize_patch_files(sl_kustomize *k, const char *path, char ***v, size_t *n,
				size_t *cap);
/* realpath(path), with the directories resolved once per plan (malloc'd; NULL: none). */
char *sl_kustomize_real(sl_kustomize *k, const char *path);
/* The plan for the kustomization files kpaths (as the run names them; n of them): the roots
** among them built, on up to jobs threads (the same builds at any jobs). SL_ENOMEM only: a
** kustomization that cannot be read or built is a finding of its build. */
sl_err sl_kustomize_plan(const char *const *kpaths, size_t n, unsigned jobs, sl_kustomize **out);
/* sl_kustomize_plan, with what the run's walks listed (seen, borrowed for the plan's life; NULL:
** none) answering its probes of those directories instead of the kernel, and load_none[i] true
** when kpaths[i] is built as `kubectl kustomize --load-restrictor LoadRestrictionsNone` builds
** it (config render.kustomize.load-restrictor: none; NULL: every root restricted to its
** directory, kustomize's default). */
sl_err sl_kustomize_plan_seen(const char *const *kpaths, size_t n, unsigned jobs,
			      const struct sl_walk_seen *seen, const bool *load_none,
			      sl_kustomize **out);
/* True when the file at real path real is used by a planned kustomization (as a patch, or as a
** resource, patch or kustomization of a build that succeeded): not linted on its own. */
bool sl_kustomize_consumed(const sl_kustomize *k, const char *real);
/* False when no file of that base name is used by a build (a cheap test before realpath). */
bool sl_kustomize_may_consume(const sl_kustomize *k, const char *base);
/* The builds: how many, and build i's text (the built objects as YAML; text NULL: not asked
** for), the name it is linted under (its kustomization's path). NULL when the text cannot be
** read back (sl_kustomize_text). */
size_t sl_kustomize_n_builds(const sl_kustomize *k);
sl_kustomize_build *sl_kustomize_build_at(const sl_kustomize *k, size_t i,
						const char **name, const char **text, size_t *len);
/* Build b's text ("" for a failed build), held by b until sl_kustomize_release: each build's
** text and spans wait in the plan's spill file (an unlinked temporary file; in memory while the
** builds held there are small: SL_KUSTOMIZE_HOLD_MAX) from the moment it is made until the run
** asks for them, so a run never holds every build at once. SL_ENOMEM, SL_EIO (the spill file
** cannot be read back). */
sl_err sl_kustomize_text(sl_kustomize_build *b, const char **text, size_t *len);
/* Build b's text as sl_kustomize_text gives it, but malloc'd and the caller's (*len bytes and a
** NUL): read from the spill file straight into it, so one copy is alive. SL_ENOMEM, SL_EIO. */
sl_err sl_kustomize_take_text(sl_kustomize_build *b, char **text, size_t *len);
/* Build b's spans read back for sl_kustomize_origin_of (which reads them itself when not, and
** then gives no origin on an error). SL_ENOMEM, SL_EIO. */
sl_err sl_kustomize_spans(sl_kustomize_build *b);
/* The files the plan read: how many, and file i's text, parse and real path. Once its builds
** are made, a file whose text holds no suppression directive lets its parse, its bytes and its
** line index go (src->data NULL, *tree NULL; sl_kustomize_origin_of reads them back for a
** finding's position). */
size_t sl_kustomize_n_files(const sl_kustomize *k);
const struct sl_source *sl_kustomize_file(const sl_kustomize *k, size_t i,
					  const struct sl_tree **tree, const char **real);
/* The builds' texts and spans wait in memory while they take no more than SL_KUSTOMIZE_HOLD_MAX
** bytes in all (a run of small builds makes no system call for them), in the plan's spill file
** beyond. sl_kustomize_hold_max sets that for the plans made after it (tests: 0 spills every
** build); sl_kustomize_spilled is how many bytes plan k wrote to its spill file. */
#define SL_KUSTOMIZE_HOLD_MAX ((size_t)2 << 20)
void sl_kustomize_hold_max(size_t bytes);
size_t sl_kustomize_spilled(const sl_kustomize *k);
/* How many kustomizations the plan built (*made: the roots, each base and component they
** included, each time it was built) and how many times a root took a base another root had built
** instead of building it again (*reused): each kustomization is built once per run. */
void sl_kustomize_counts(const sl_kustomize *k, size_t *made, size_t *reused);
/* Which of the plan's kpaths build b is the build of. */
size_t sl_kustomize_build_root(const sl_kustomize_build *b);
/* Where bytes of a build's text came from: the base, patch or kustomization that produced the
** node, and the byte range there. */
typedef struct sl_kustomize_origin {
	const struct sl_source *src;   /* the file; NULL: the bytes come from no file */
	const struct sl_tree *tree;    /* its parse, NULL when the plan did not read src, or let
					  it go (no directive in it: sl_kustomize_file) */
	const char *real;              /* its real path, NULL when the plan did not read src */
	uint32_t start, end;           /* the bytes in src */
} sl_kustomize_origin;
/* The origin of the node of build b's text over bytes [off, off + len): the node that covers
** exactly them, else the smallest one that holds off. */
sl_kustomize_origin sl_kustomize_origin_of(const sl_kustomize_build *b, size_t off, size_t len);
/* The overlay's directory, as the notes of its findings name it. */
const char *sl_kustomize_build_dir(const sl_kustomize_build *b);
/* Build b's own findings (kustomize-unsupported, kustomize-invalid): how many, and finding i's
** rule, message (in the plan's arena) and, when not NULL, its notes (kustomize's own error text
** and the way out; NULL: none) and where it stands. */
size_t sl_kustomize_n_issues(const sl_kustomize_build *b);
void sl_kustomize_issue(const sl_kustomize_build *b, size_t i, const char **rule, const char **msg,
			const char **notes, sl_kustomize_origin *at);
/* True when build b read one of the files at real paths reals (sorted, n of them) as a
** resource, a patch or a kustomization. */
bool sl_kustomize_build_uses(const sl_kustomize_build *b, const char *const *reals, size_t n);
/* A file of a run, as Kustomize sees it (sl_kustomize_arrange). */
typedef struct sl_kustomize_input {
	const char *path;    /* as the run names it */
	bool context;        /* one of the project's other files, read for facts */
	bool on_disk;        /* read from path (not a buffer, not stdin) */
	bool partial;        /* a kustomization uses it, as a patch or a resource of a build: not
				linted on its own, nor read for facts (set here, never cleared) */
	bool load_none;      /* a kustomization built as with --load-restrictor
				LoadRestrictionsNone (its config's render.kustomize.load-restrictor) */
} sl_kustomize_input;
/* Kustomize over the files of a run (v, n of them, in the order they were added), in one call:
** with build, the kustomizations among the caller's files (and the project's, when the run
** reads a project to lint files named alone, the pre-commit case) are planned and their roots
** built on up to jobs threads; the files a build uses become partial, and so do the files a
** kustomization the run sees (among its files, or beside a file named) uses as patches. A
** project's build that uses no file named is not linted. Without build (the files a run would
** lint: `--show-files`) only the patches are marked. seen (borrowed for the plan's life; NULL:
** none) answers probes of the directories the walks listed. SL_ENOMEM only: a kustomization that
** cannot be read or built is a finding of its build. */
sl_err sl_kustomize_arrange(sl_kustomize_input *v, size_t n, bool build, bool project,
			    unsigned jobs, const struct sl_walk_seen *seen, sl_kustomize **out);
/* The builds a run lints, i from 0 to sl_kustomize_n_linted - 1: build i's text (text NULL: not
** asked for; sl_kustomize_text later) and the name it is linted under (sl_kustomize_build_at), whether it is linted only for its findings in the
** files named (a project's build) and whether its kustomization is a patch. */
size_t sl_kustomize_n_linted(const sl_kustomize *k);
sl_kustomize_build *sl_kustomize_linted(const sl_kustomize *k, size_t i, const char **name,
					const char **text, size_t *len, bool *only_named,
					bool *partial);
/* The files named (not the project's) that a build uses: their sorted real paths and their
** names in the run (as[i] for named[i]), n of them; what lint/remap.c keeps a build's findings
** in. */
void sl_kustomize_named(const sl_kustomize *k, const char *const **named, const char *const **as,
			size_t *n);
/* Frees build b's text (the run lints a copy); with all, its spans too, once its findings are
** moved (a streamed run checks a build once; a fix round reads them back again). */
void sl_kustomize_release(sl_kustomize_build *b, bool all);
void sl_kustomize_free(sl_kustomize *k);

#endif
