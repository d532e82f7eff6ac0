/* SPDX-License-Identifier: Apache-2.0
** run.h (private): a lint run (lint.h's sl_run), shared by run.c, the front door, and
** run_placement.c, the placement report. */
#ifndef SL_RUN_H
#define SL_RUN_H

#include "driver/passes.h"
#include "fs/repo.h"
#include "fs/walk.h"

struct sl_run_report;   /* run_placement.c's */

struct sl_run {
	sl_passes passes;            /* the files, the engine, the sorted findings */
	char **roots;                /* the real directories of the paths given (sl_file.root) */
	size_t n_roots;
	bool linted;
	bool force_exclude;          /* sl_run_options.force_exclude */
	size_t *shown;               /* the files a caller sees (not the project's context files): */
	size_t n_shown;              /* their places in the engine's list, once linted */
	bool adding_context;         /* files added now are the project's, for facts only */
	char *context_cwd;           /* then, for a project above it, the working directory */
	char **walked;               /* the real paths of the directories given as inputs */
	size_t n_walked;
	size_t n_named;              /* inputs that are files, stdin or buffers (not directories) */
	bool no_gitignore;           /* sl_run_options.no_gitignore */
	sl_repo *repo;               /* the repository walks are in, opened by the first walk */
	bool repo_tried;
	struct sl_run_report *report;   /* sl_run_placement's, NULL until asked */
	bool project;                /* sl_run_read_project: a project for other runs to use */
	sl_globs *project_include;   /* config project: (of the config at the project's root), */
	sl_globs *project_exclude;   /* while the project is walked */
	sl_walk_seen *seen;          /* the directories the walks listed, asked instead of the kernel */
	char **starts;               /* where each input is: the real directory of a path given (a */
	size_t n_starts;             /* directory, a file's), a buffer's or stdin's; its project is */
				     /* found from there (sl_run_add_project) */
	char *project_root;          /* sl_run_read_project's root (a real path; NULL: none) */
};

/* Frees run's placement report (run_placement.c): the fixes lint again, and the report is
** redone when asked. */
void sl_run_placement_drop(sl_run *run);

#endif
