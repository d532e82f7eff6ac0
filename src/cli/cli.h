/* SPDX-License-Identifier: Apache-2.0
** cli.h: the schedlint command line, a client of libschedlint. One file per command (cmd_*.c),
** what they share in common.c, the dispatch in main.c. */
#ifndef SL_CLI_H
#define SL_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "schedlint/schedlint.h"

/* Exit statuses (spec/cli.md). */
enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

int sl_cmd_check(int argc, char **argv);
int sl_cmd_fmt(int argc, char **argv);
/* Loads -c FILE, else the nearest .schedlint.yaml from path (a directory, or a file's directory:
** the stdin filename's, --show-settings'; NULL: the current directory), else the defaults
** (sl_config_find); prints the error and returns the exit status on failure, EXIT_CLEAN on
** success. */
int sl_cli_load_config(const char *config_path, const char *path, sl_config **cfg);
/* sl_run_new: a config error it finds (a declared rule that is wrong, plugins: without
** --allow-plugins) printed as the config loader's are, exit 2 as for any config error (3 only
** when out of memory); EXIT_CLEAN with *run made. */
int sl_cli_run_new(const sl_config *cfg, const sl_run_options *opts, sl_run **run);
/* True when path names a directory. */
bool sl_cli_is_dir(const char *path);
/* A run that found no file to lint says so on stderr ("no YAML files under PATH, ..."; no
** paths: "."), rather than passing in silence. */
void sl_cli_warn_no_files(const sl_run *run, char *const *paths, int n_paths);
/* Declares the custom-rules: of config_path (-c), else of the nearest .schedlint.yaml, and the
** rules of the plugins (--plugin), so the catalogue (sl_rule_count) lists them: what `rules`
** and `explain` show. Prints the error and returns the exit status on failure, EXIT_CLEAN on
** success. */
/* True when SCHEDLINT_ALLOW_PLUGINS=1: a config's plugins: may be loaded (as --allow-plugins). */
bool sl_cli_env_allows_plugins(void);
int sl_cli_declare_rules(const char *config_path, const char *const *plugins, size_t n_plugins);
/* The same for the loaded config cfg. */
int sl_cli_declare_config_rules(const sl_config *cfg, const char *const *plugins, size_t n_plugins);
int sl_cmd_rules(int argc, char **argv);
int sl_cmd_explain(int argc, char **argv);
int sl_cmd_placement(int argc, char **argv);
int sl_cmd_server(int argc, char **argv);

/* common.c */
void sl_cli_usage(FILE *out);
/* True when fixes changed file i of run; *data and *len (each may be NULL) get its text now. */
bool sl_cli_fixed_text(const sl_run *run, size_t i, const char **data, size_t *len);
/* After fixes, as ruff says it: "Found 5 findings (3 fixed, 2 remaining)." The fixes in files
** that could not be written count as remaining (the file is unchanged); unwritten says how many
** such files there were. */
void sl_cli_fix_summary(FILE *out, size_t fixed, size_t remaining, size_t unwritten);
/* "none", "safe" or "unsafe" */
const char *sl_cli_fix_name(sl_fix_applicability f);
/* How the listings name rule i's severity: "notice" for a notice rule (sl_rule_notice), else its
** default severity ("error", "warning", "info"). */
const char *sl_cli_severity_label(size_t i, const sl_rule_info *r);
/* The "Category: ... Fix: ..." line of rule i's documentation (explain, docs/rules.md). */
void sl_cli_rule_facts(FILE *out, size_t i, const sl_rule_info *r);
/* Writes text that may come from a repository (a declared rule's id, summary, doc) as check
** writes a message: each line escaped (schedlint/escape.h, SL_SINK_TEXT_LINE: no control, no
** terminal escape, no line that starts a GitHub workflow command), the line breaks kept. */
void sl_cli_put_lines(FILE *out, const char *s);

/* The progress line of a long lint on a terminal (progress.c): "[  412/2000 files]" on stderr,
** rewritten in place, only when stderr is a terminal (not TERM=dumb) and not -q, once the run
** has taken SL_PROGRESS_DELAY_MS or has more than SL_PROGRESS_FILES files; cleared before the
** report. */
#define SL_PROGRESS_DELAY_MS 500
#define SL_PROGRESS_FILES 500
typedef struct sl_progress {
	bool on;                   /* stderr may show it */
	bool shown;                /* a line is on the terminal now */
	long long start_ms, drawn_ms;
	int width;                 /* of the line shown */
} sl_progress;
/* Starts the clock; on: stderr is a terminal and the run is not quiet. */
void sl_progress_start(sl_progress *p, bool quiet);
/* The run's progress callback (sl_run_options.progress, ctx a sl_progress). */
void sl_progress_update(void *ctx, size_t done, size_t total);
/* Erases the line, if one is shown. */
void sl_progress_clear(sl_progress *p);

#endif
