/* SPDX-License-Identifier: Apache-2.0
** scopes.h (private): the config a file is linted under (spec/cli.md, "Which config applies").
** Like ruff, each file takes the nearest .schedlint.yaml from its own directory up to the
** repository root (config.c's discovery); the run's config stands for files under none, and
** for every file when the run was given one config (-c). A scope is one such config with what
** the engine derives from it once: each rule's severity, the exclude globs, the index's view of
** its cluster: settings. Scopes are resolved while inputs are added (one thread) and read-only
** during the passes. */
#ifndef SL_SCOPES_H
#define SL_SCOPES_H

#include <stdbool.h>
#include "schedlint/lint.h"
#include "fs/walk.h"
#include "lint/engine.h"   /* sl_scope */


typedef struct sl_scopes sl_scopes;

/* The scopes of a run: the run's own (cfg, borrowed) and, when per_file, one per config found
** near the files. select/ignore apply to every scope. SL_EUSAGE/SL_ECONFIG (with a malloc'd
** *error_out) when the run's own config or the selection is wrong; SL_ENOMEM. */
sl_err sl_scopes_new(const sl_config *cfg, const sl_run_options *opts, bool per_file,
		     sl_scopes **out, char **error_out);
/* The run's own scope. */
const sl_scope *sl_scopes_run(const sl_scopes *s);
/* The scope of the file at path (which need not exist: stdin's --stdin-filename, a buffer):
** found from its directory, or the working directory when that does not exist. Loads the
** config the first time it is met; a config that cannot be loaded gives a scope with error
** set. NULL only when out of memory. */
const sl_scope *sl_scopes_of(sl_scopes *s, const char *path);
/* Lets the scopes answer config discovery's probes of a directory a walk listed from seen
** (borrowed; it must outlive s) instead of asking the kernel. */
void sl_scopes_use_seen(sl_scopes *s, const sl_walk_seen *seen);
/* Every scope, i from 0 (the run's) to sl_scopes_count - 1. */
size_t sl_scopes_count(const sl_scopes *s);
const sl_scope *sl_scopes_at(const sl_scopes *s, size_t i);
void sl_scopes_free(sl_scopes *s);

/* Each rule's severity under cfg and the selection: the rule's default, then cfg's rules:
** (category entries, then rule entries; later entries win), then --select/--ignore.
** *out is malloc'd (sl_registry_count entries). SL_EUSAGE for an unknown id in select/ignore,
** with *error_out (the closest id); SL_ENOMEM. An unknown id in cfg's rules: is refused when the
** config is loaded (config.c). */
sl_err sl_scopes_severities(const sl_config *cfg, const int *declared, size_t n_declared,
			   const sl_run_options *opts, sl_severity **out, char **error_out);

#endif
