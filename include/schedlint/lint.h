/* SPDX-License-Identifier: Apache-2.0
** lint.h: a lint run over files, directories, stdin and buffers.
**
** sl_run_new, then add inputs (paths, a descriptor, buffers), then sl_run_lint: pass 1 reads
** every input and builds the index of cross-file facts (PriorityClasses, Knative flags, KServe's
** default mode, runtimes, Seldon Servers); pass 2 runs the enabled rules over each file, with
** that file's suppressions applied; the findings are then sorted by path, line, column and rule,
** whatever the input order or the number of threads. A streaming run (low_memory) lets each
** file's tree go once it is checked and checks the few files whose rules compare them with
** every serving unit in a pass 3; its findings are the same. After the lint: read the findings
** and files back, or sl_run_fix (not streamed) and then each file's fixed text, diff or write.
** One run is used from one thread at a time; it runs its own threads inside sl_run_lint. */
#ifndef SCHEDLINT_LINT_H
#define SCHEDLINT_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "schedlint/config.h"
#include "schedlint/error.h"
#include "schedlint/finding.h"

typedef struct sl_run sl_run;

/* Input that is not a regular file (stdin from a pipe or a device) is read up to this many
** bytes; more is an error naming the limit, so `schedlint - < /dev/zero` cannot eat memory. A
** regular file is read whole; a FIFO or device named by path is refused (only "-" reads one). */
#define SL_PIPE_INPUT_MAX ((size_t)64 << 20)

/* Options structs carry a version, so a program built against an older header keeps working
** with a newer library that adds fields: start from the struct's _INIT macro (or set .version to
** its _VERSION) and set what you need. A version this library does not know is SL_EUSAGE; NULL
** options mean the defaults.
**     sl_run_options o = SL_RUN_OPTIONS_INIT;
**     o.jobs = 1;                                                                       */
#define SL_RUN_OPTIONS_VERSION 3   /* 2: plugins, allow_plugins; 3: progress */
#define SL_RUN_OPTIONS_INIT {.version = SL_RUN_OPTIONS_VERSION}
typedef struct sl_run_options {
	unsigned version;            /* SL_RUN_OPTIONS_VERSION */
	const char *const *select;   /* rule ids or categories to run only (NULL: all enabled) */
	size_t n_select;
	const char *const *ignore;   /* rule ids or categories to skip */
	size_t n_ignore;
	unsigned jobs;               /* files processed in parallel; 0 = number of CPUs */
	bool low_memory;             /* stream: a file's tree is freed once it has been checked
					(files that define looked-up kinds excepted), so memory
					follows the largest file, not the input; such a run
					cannot be fixed (sl_run_fix gives SL_EUSAGE) */
	bool nearest_config;         /* each file is linted under the nearest .schedlint.yaml from
					its directory up to the repository root (ruff's way; cfg
					for the files under none); false: cfg for every file */
	bool no_gitignore;           /* walks do not skip what git ignores (.gitignore files,
					.git/info/exclude, core.excludesFile); by default they do */
	bool force_exclude;          /* the config's exclude globs apply to the paths given to
					sl_run_add_path too, not only to what a directory walk
					finds (ruff's --force-exclude; the pre-commit hooks set it) */
	/* version 2: */
	const char *const *plugins;  /* shared objects whose rules the run adds (`--plugin PATH`;
					include/schedlint/rule.h); a plugin built for another rule
					ABI is SL_ECONFIG, and never loaded */
	size_t n_plugins;
	bool allow_plugins;          /* load the plugins: a config names (else such a config is
					SL_ECONFIG: a repository's config must not run native code
					on a machine that merely lints it) */
	/* version 3: */
	void (*progress)(void *ctx, size_t done, size_t total);
				     /* called as sl_run_lint (and each round of sl_run_fix) finishes
					a file: done of total files (the inputs, not the project's
					context files) are through. From the run's threads, but never
					two calls at once, and done grows by one each call; keep it
					quick (a progress line). NULL: not called */
	void *progress_ctx;          /* its ctx */
} sl_run_options;

/* A new run under cfg (borrowed; it must outlive the run).
** \param[out] error_out on SL_EUSAGE (unknown id in select/ignore), SL_ECONFIG (unknown rule
**                       in the config, a custom rule that is wrong, a plugin refused) or SL_EIO
**                       (a plugin that cannot be read), a malloc'd message; may be NULL.
** \return SL_OK, SL_EUSAGE, SL_ECONFIG, SL_EIO, SL_ENOMEM */
SL_API sl_err sl_run_new(const sl_config *cfg, const sl_run_options *opts, sl_run **out,
			 char **error_out);
/* Adds a file, or every *.yaml / *.yml under a directory (hidden directories, config excludes
** and symlink loops skipped). A path the config excludes is added all the same, as asked for,
** unless the run's force_exclude is set. A path that cannot be read is recorded as a file error
** (see sl_run_file), not returned: the other inputs are still linted. SL_ENOMEM only. */
SL_API sl_err sl_run_add_path(sl_run *run, const char *path);
/* Adds everything readable from fd (at most SL_PIPE_INPUT_MAX bytes unless it is a regular
** file: more is recorded as a file error), reported as display_path; when display_path names a
** file, what was read stands in for it as a buffer does (sl_run_add_buffer). */
SL_API sl_err sl_run_add_fd(sl_run *run, int fd, const char *display_path);
/* Adds a copy of data[0..len), reported as path: how an editor lints an open buffer in place of
** the file on disk (the disk is not read for it, the buffer is linted as if it were the file,
** for the cross-file facts too: sl_run_add_project does not read that file again).
** Fixes apply to the copy: read them back with sl_run_file_text. */
SL_API sl_err sl_run_add_buffer(sl_run *run, const char *path, const char *data, size_t len);
/* Adds, for the cross-file facts only, the *.yaml / *.yml files of the inputs' projects (the
** project: docs/usage.md) that were not added as inputs: so a run over some files or
** directories sees the PriorityClasses, Knative flags, runtimes, Seldon Servers or node pools
** defined in the others. They are read, parsed only when they may define what rules look up or
** a serving unit, and never checked, reported, counted among the files or fixed. root NULL:
** each input's project, as sl_run_project_root finds it from where the input is (a path's
** directory, a buffer's or stdin's name's; unnamed stdin: the working directory), each read
** once; an input in no project adds nothing (the inputs alone). root given: the directory root.
** Nothing is added of a project a directory given as an input holds whole. Call after adding
** the inputs, before sl_run_lint. SL_ENOMEM; SL_EUSAGE after the lint. */
SL_API sl_err sl_run_add_project(sl_run *run, const char *root);
/* The project of the file or directory at path (which need not exist: a new file's nearest
** directory that does stands for it): the work tree of the git repository it is in, else the
** directory of the outermost .schedlint.yaml above it — never the working directory's
** project when path lies outside it. *root_out: a real path, malloc'd. SL_ENOTFOUND when path
** is in no repository and under no config (then its project is itself alone); SL_ENOMEM;
** SL_EUSAGE for NULL arguments. */
SL_API sl_err sl_run_project_root(const char *path, char **root_out);
/* The project read once, for an editor that lints buffer after buffer (docs/editors.md): run, new and given no
** input, reads every *.yaml / *.yml file under root (NULL: the working directory's project,
** sl_run_project_root("."); none: nothing is read) for the cross-file facts and lints it,
** keeping what other runs need of it; then sl_run_use_project lends it to each run, in place of
** sl_run_add_project, which would read and parse the project again. Nothing is reported of it
** (no files, no findings). Read it
** again (a new run) when its files change. SL_EUSAGE for a run that has inputs or was linted;
** SL_ENOMEM; SL_EINTERNAL. */
SL_API sl_err sl_run_read_project(sl_run *run, const char *root);
/* Gives run the cross-file facts of project (a run sl_run_read_project read, under the same
** config and options, which must outlive run): as sl_run_add_project would, without reading
** anything; a file of the project that run has as an input or a buffer is run's, not the
** project's. A run with an input outside project's root (a buffer of another checkout) is
** lent nothing: its inputs' projects are read as sl_run_add_project reads them, so it never
** sees this project's facts. Call after adding the inputs, before sl_run_lint. SL_EUSAGE when run was linted
** or project is not one; SL_ENOMEM. */
SL_API sl_err sl_run_use_project(sl_run *run, const sl_run *project);
/* Says the inputs are `helm template` output of the chart in directory dir: each document's
** findings are moved to the template its "# Source: <chart>/templates/<file>" comment names
** (dir/templates/<file>), at the template line holding the finding's key path when it is literal
** text, else the nearest enclosing literal key, else the document's first line; the rendered
** position goes to the notes and no fix is offered. Call before sl_run_lint. SL_EUSAGE (with
** *error_out, malloc'd) when dir holds no Chart.yaml, or after the lint; SL_ENOMEM. */
SL_API sl_err sl_run_set_helm_chart(sl_run *run, const char *dir, char **error_out);
/* True when path (relative to the config's directory) matches one of its exclude globs. */
SL_API bool sl_run_excluded(const sl_run *run, const char *path);
/* Makes the files added so far, in path order, the run's files (sl_run_file_count, sl_run_file)
** without reading or linting them: the files a run would lint (`--show-files`). The project's
** context files are not among them. SL_ENOMEM; SL_EUSAGE after the lint. */
SL_API sl_err sl_run_list(sl_run *run);
/* Runs both passes. SL_ENOMEM or SL_EINTERNAL; findings are not errors. */
SL_API sl_err sl_run_lint(sl_run *run);

#define SL_FIX_OPTIONS_VERSION 1
#define SL_FIX_OPTIONS_INIT {.version = SL_FIX_OPTIONS_VERSION}
typedef struct sl_fix_options {
	unsigned version;        /* SL_FIX_OPTIONS_VERSION */
	bool unsafe;             /* also apply unsafe fixes */
	unsigned max_passes;     /* fix/re-lint rounds before giving up; 0 = 10 */
} sl_fix_options;
/* Writes, into the linted run's text of each file (as a fix would: sl_run_file_text,
** sl_run_file_write, sl_run_file_diff), a suppression for each line that has findings:
** `# schedlint: ignore[id,...] reason` after the line, or alone on the line above at its
** indentation when the line has a comment already; every other byte is kept. yaml-syntax and
** the suppressions' own rules are never suppressed. reason NULL or "": "existing finding".
** *added (may be NULL) gets the number of directives. SL_EUSAGE for a run not linted, or
** streamed, or a reason of more than one line; SL_ENOMEM. */
SL_API sl_err sl_run_suppress(sl_run *run, const char *reason, size_t *added);
/* Applies fixes to the linted run in memory: in each round the fixes whose edits do not
** overlap are applied (safe ones; unsafe ones too with opts->unsafe), then every file is linted
** again, until no fix applies. Afterwards the run's findings are those that remain.
** *applied (may be NULL) gets the number of fixes applied; *converged (may be NULL) whether a
** round with nothing left to apply was reached. SL_ENOMEM; SL_EINTERNAL for an invalid fix;
** SL_EUSAGE for a run that was not linted, or was streamed, or options of an unknown version. */
SL_API sl_err sl_run_fix(sl_run *run, const sl_fix_options *opts, size_t *applied,
			 bool *converged);
/* The accessors below take an index: files from 0 to sl_run_file_count - 1, findings from 0 to
** sl_run_finding_count - 1. An index out of range is never read: it gives NULL, an empty text,
** or SL_EUSAGE, as each says. */

/* File i's text now (fixed, when fixes changed it) and whether it differs from what was read;
** out of range: "" of length 0, unchanged. */
SL_API void sl_run_file_text(const sl_run *run, size_t i, const char **data, size_t *len,
			     bool *changed);
/* File i's text as it was read; out of range: "" of length 0. */
SL_API void sl_run_file_original(const sl_run *run, size_t i, const char **data, size_t *len);
/* Writes file i's fixed text over the file atomically (temporary file in the same directory,
** fsync, rename). A symlink's target is written, never the link, and only inside the directory
** given (or the file's directory, for a file given); owner, group, mode and extended
** attributes are kept; a read-only file, one with several hard links, one whose owner cannot be
** kept and one that changed since it was read are refused. A file that did not change is not
** touched. SL_EIO (see sl_run_file_write_error), SL_ENOMEM; SL_EUSAGE out of range. */
SL_API sl_err sl_run_file_write(const sl_run *run, size_t i);
/* Why the last sl_run_file_write of file i failed ("it is read-only (no write permission): not
** written"); NULL when it did not, or out of range. Owned by the run. */
SL_API const char *sl_run_file_write_error(const sl_run *run, size_t i);
/* Writes the unified diff of file i's fixes to out (nothing when unchanged). SL_EUSAGE out of
** range. */
SL_API sl_err sl_run_file_diff(const sl_run *run, size_t i, FILE *out);

/* The findings (notices are apart: sl_run_notice). */
SL_API size_t sl_run_finding_count(const sl_run *run);
/* Finding i in sorted order; owned by the run; NULL out of range. */
SL_API const sl_finding *sl_run_finding(const sl_run *run, size_t i);

/* The notices: what the run did not lint, or not as deployed, and why (a Helm chart it does not
** render, a kustomization it does not build, a templated file: the rules sl_rule_notice names),
** nothing to change in the manifests. They are not findings: sl_run_finding_count leaves them out,
** and nothing counts them towards a failure. Each is an sl_finding of a notice rule (severity
** SL_SEV_INFO, no fix), in the findings' order; valid as long as the findings. Suppressions and
** a config's `off` apply to them as to findings. NULL out of range. */
SL_API size_t sl_run_notice_count(const sl_run *run);
SL_API const sl_finding *sl_run_notice(const sl_run *run, size_t i);

/* A struct the library fills carries a version too: the caller starts it from _INIT (the
** version of its header), and the library fills the fields of that version, so a newer library
** that appends fields never writes past an older program's struct. */
#define SL_FILE_INFO_VERSION 2   /* 2: built */
#define SL_FILE_INFO_INIT {.version = SL_FILE_INFO_VERSION}
typedef struct sl_file_info {
	unsigned version;        /* SL_FILE_INFO_VERSION, set by the caller */
	const char *path;
	unsigned documents;      /* documents in the file, broken ones included */
	const char *error;       /* why the file could not be read, NULL when it was */
	size_t fixes;            /* fixes sl_run_fix applied to its text (a fix that edits several
				    files counts for the first it edits) */
	/* version 2: */
	bool built;              /* a Kustomize build uses it (a patch, a resource, the
				    kustomization that built): not linted alone, its findings are
				    those of the builds, which Kustomize made from the files on
				    disk */
} sl_file_info;
SL_API size_t sl_run_file_count(const sl_run *run);
/* Fills *out (started from SL_FILE_INFO_INIT) with file i's path, documents, read error,
** fixes and (version 2) whether a build uses it; out of range: its fields zeroed (as far as its
** version reaches), SL_EUSAGE; a version this library does not know: SL_EUSAGE, *out
** untouched. */
SL_API sl_err sl_run_file(const sl_run *run, size_t i, sl_file_info *out);
/* A digest of what file i gives the other files' rules (the cross-file facts of lint.h's pass
** 1): the objects of the kinds the index looks up, with the line each starts on and where it
** lies (another file's fix may edit it), and its serving units' facts (priority class, the
** templates they use, and the name of the run's lowest-priority unit, the one other files'
** findings name): the digests of sl_run_file_fact_digests together; 0 when it gives none. Two
** texts of one file with the same digest give the others the same facts: an editor re-lints
** the other open files only when it changes (docs/editors.md). Read from the trees, so 0 in a
** low_memory run; out of range: 0. */
SL_API uint64_t sl_run_file_facts(const sl_run *run, size_t i);
/* What file i gives the other files' rules, finer than sl_run_file_facts: one digest per fact,
** named by a key (an object of a kind by name, the objects of a kind, the globalDefault
** PriorityClass, the serving units' priorities, a template's use, Knative's flags, the node
** pools, KServe's default mode, the autoscalers of a target, where an object of a kind by name
** lies: the lines before it, its lines' text and the file's style, which another file's fix of
** it follows, in lines and characters, not bytes), sorted by key, in a malloc'd
** array (free() it; NULL when it gives none). A file whose reads (sl_run_file_reads) hold no
** key whose digest changed reads nothing that changed: an editor re-lints only those that do
** (docs/editors.md). 0 facts in a low_memory run. SL_EUSAGE out of range; SL_ENOMEM. */
typedef struct sl_fact_digest {
	uint64_t key, digest;
} sl_fact_digest;
SL_API sl_err sl_run_file_fact_digests(const sl_run *run, size_t i, sl_fact_digest **out,
				       size_t *n);
/* Makes sl_run_lint note, per file it checks, the keys of the facts its rules read of the other
** files (sl_run_file_reads). Before sl_run_lint; SL_EUSAGE in a low_memory run. */
SL_API sl_err sl_run_file_record_reads(sl_run *run);
/* The keys (as sl_run_file_fact_digests names them) of the facts the rules read while checking
** file i, sorted, in a malloc'd array (free() it; NULL when none). SL_EUSAGE when they are not
** known: not recorded (sl_run_file_record_reads), a file no rule checked on its own (unreadable, a
** template, a kustomization or a file a build uses: the builds' rules read for it), or memory
** ran out while noting them; SL_ENOMEM. */
SL_API sl_err sl_run_file_reads(const sl_run *run, size_t i, uint64_t **out, size_t *n);

/* Values are appended, never renumbered (docs/report-formats.md describes each). */
typedef enum sl_format {
	SL_FORMAT_TEXT, SL_FORMAT_JSON, SL_FORMAT_SARIF, SL_FORMAT_GITHUB,
	SL_FORMAT_GITLAB,     /* GitLab Code Quality (a JSON array) */
	SL_FORMAT_JUNIT,      /* JUnit XML */
	SL_FORMAT_MARKDOWN,   /* summary tables and the findings, for a PR comment */
} sl_format;
#define SL_OUTPUT_OPTIONS_VERSION 2   /* 2: full */
#define SL_OUTPUT_OPTIONS_INIT {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_TEXT}
typedef struct sl_output_options {
	unsigned version;        /* SL_OUTPUT_OPTIONS_VERSION */
	sl_format format;
	bool color;              /* text: ANSI colours */
	bool quiet;              /* text: only the summary line */
	bool statistics;         /* text: a row per rule and severity before the summary (count,
				    fixable) */
	bool show_notes;         /* text: each finding's notes under it */
	/* version 2: */
	bool full;               /* text: each finding with the source lines of its span, a caret
				    row under it, its notes and its fix (`--output-format full`);
				    the lines come from the run's text of the file, else the file
				    read again; for a file that changed since the lint (or was
				    modified after it started, for one the run did not read, a Helm
				    template) they are left out */
} sl_output_options;
/* The name of format i on the command line ("text", "json", …; i from 0) and, when format is
** not NULL, the format; NULL past the last. */
SL_API const char *sl_output_format_name(size_t i, sl_format *format);
/* Writes the report of a linted run to out (opts NULL: text). SL_EIO when writing fails;
** SL_EUSAGE for options of an unknown version or an unknown format. */
SL_API sl_err sl_run_write_output(const sl_run *run, const sl_output_options *opts, FILE *out);

/* --- where every unit can land (docs/placement.md) ------------------------------------------- */

/* A node pool the run knows (the run's config's cluster.node-pools, Karpenter NodePools,
** eksctl node groups, node dumps and Kueue ResourceFlavors among the files). */
typedef struct sl_pool_info {
	const char *name;
	const char *source;          /* "config", "NodePool", "eksctl", "nodes", "ResourceFlavor",
					"KAITO" (the nodes KAITO provisions for a Workspace) */
	const char *where;           /* its definition: "NodePool gpu (pools.yaml:4)", ".schedlint.yaml:7" */
	const char *path;            /* the file that defines it (the config for a config pool) */
	unsigned line;               /* its line there, 0 when unknown */
	bool gpu;                    /* its nodes offer a GPU */
	int spot;                    /* 1: spot only; -1: spot or on-demand; 0: no spot */
	long min_nodes, max_nodes;   /* its size, -1 when unknown */
	const char *cluster;         /* its cluster (an eksctl ClusterConfig's name); NULL: a pool
					of every cluster */
} sl_pool_info;
/* One unit on one pool. */
typedef struct sl_placement_cell {
	bool lands;                  /* every filter passes */
	const char *brief;           /* NULL when it lands, else the first failing filter's word:
					"taint", "selector", "gpu", "cpu", "memory", a resource,
					"limits", "kaito" (the nodes KAITO provisions for a Workspace
					and any other unit, or a pool of the cluster and a Workspace
					with resource.instanceType: it does not apply), or "queue"
					(a ResourceFlavor and a unit Kueue does
					not admit: the pool does not apply to it) */
	const char *reasons;         /* NULL when it lands, else the scheduler's reasons, one per
					line: "node(s) had untolerated taint {k: v}", with what
					exactly in parentheses when the text does not say it */
	bool unsure;                 /* it lands as far as can be told, but a taint or a toleration
					holds a placeholder (${X}, {{ ... }}): the rendered values
					decide whether the taint is tolerated */
} sl_placement_cell;
/* One unit: a row of the report. */
typedef struct sl_placement_row {
	const char *unit;            /* "InferenceService llm, predictor" */
	const char *path;
	unsigned line, column;       /* its pod spec (or the object) */
	bool scheduled;              /* false: spec.nodeName bypasses the scheduler (no cells) */
	const sl_placement_cell *cells;   /* one per pool, in the pools' order */
	bool nowhere;                /* it lands nowhere, as no-matching-node-pool reports it: a
					pool applies to it, none takes it, and it is no DaemonSet */
} sl_placement_row;
/* After sl_run_lint of a run that is not low_memory: the pools the run's config sees and one
** row per unit of the run's files that builds pods (templates, which are merged into the
** units that use them, and ModelMesh predictors are left out), in file order. Everything
** belongs to the run (valid until sl_run_fix or sl_run_free). *n_pools is 0 when no pool is
** known. SL_EUSAGE before the lint or for a low_memory run; SL_ENOMEM. */
SL_API sl_err sl_run_placement(sl_run *run, const sl_pool_info **pools, size_t *n_pools,
			       const sl_placement_row **rows, size_t *n_rows);

SL_API void sl_run_free(sl_run *run);

#endif
