/* SPDX-License-Identifier: Apache-2.0
** kustomize.h (private): Kustomize, built in. The kustomizations among a run's files are
** planned: the files they use as patches and resources are not linted alone; every root
** kustomization (one no other includes) is built, in C, into YAML text whose every node maps
** back to the base, patch or kustomization line that produced it; the run lints that text and
** the findings are moved back (sl_kustomize_remap). */
#ifndef SL_KUSTOMIZE_H
#define SL_KUSTOMIZE_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/error.h"

struct sl_file;
struct sl_walk_seen;
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
/* The builds: how many, and build i's text (the built objects as YAML), the name it is linted
** under (its kustomization's path). */
size_t sl_kustomize_n_builds(const sl_kustomize *k);
sl_kustomize_build *sl_kustomize_build_at(const sl_kustomize *k, size_t i,
						const char **name, const char **text, size_t *len);
/* The files the plan read: how many, and file i's text, parse and real path. */
size_t sl_kustomize_n_files(const sl_kustomize *k);
const struct sl_source *sl_kustomize_file(const sl_kustomize *k, size_t i,
					  const struct sl_tree **tree, const char **real);
/* Which of the plan's kpaths build b is the build of. */
size_t sl_kustomize_build_root(const sl_kustomize_build *b);
/* Build b's own findings (kustomize-unsupported, kustomize-invalid): how many, and finding i's
** rule and message. */
size_t sl_kustomize_n_issues(const sl_kustomize_build *b);
void sl_kustomize_issue(const sl_kustomize_build *b, size_t i, const char **rule, const char **msg);
/* True when build b read one of the files at real paths reals (sorted, n of them) as a
** resource, a patch or a kustomization. */
bool sl_kustomize_build_uses(const sl_kustomize_build *b, const char *const *reals, size_t n);
/* Moves f's findings (f is build b's text, checked) to the places their nodes came from, names
** the overlay in their notes, drops fixes, and adds the build's own findings
** (kustomize-unsupported, kustomize-invalid). A finding in one of the files named (sorted real
** paths, n_named of them) takes the name the run gives it (as[i] for named[i]); with only, the
** others are dropped (a project's build linted for the files named alone). SL_ENOMEM only. */
sl_err sl_kustomize_remap(const sl_kustomize_build *b, struct sl_file *f, const char *const *named,
			  const char *const *as, size_t n_named, bool only);
/* Frees build b's text (the run lints a copy); with all, its knodes and spans too, once its
** findings are moved (a streamed run checks a build once; a fix round needs them again). */
void sl_kustomize_release(sl_kustomize_build *b, bool all);
void sl_kustomize_free(sl_kustomize *k);

#endif
