/* SPDX-License-Identifier: Apache-2.0
** common.c: what the commands share: the usage text, loading the config, the names of fix
** applicabilities. Commands use this file; it uses no command. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

void sl_cli_usage(FILE *out)
{
	fputs("schedlint: lint the Kubernetes manifests that place ML inference\n"
	      "(KServe, Knative, Seldon Core 2, Pods, workloads, PriorityClasses)\n"
	      "\n"
	      "Usage:\n"
	      "  schedlint [check] [OPTIONS] [PATH...]   lint files and directories (\"-\": stdin;\n"
	      "                                          no PATH: \".\")\n"
	      "  schedlint fmt [OPTIONS] [PATH...|-]     apply safe fixes; \"-\": stdin to stdout\n"
	      "  schedlint rules [--format text|json|markdown] [-c FILE]   list every rule (and\n"
	      "                                          the config's custom-rules:)\n"
	      "  schedlint explain [-c FILE] RULE        show a rule's documentation\n"
	      "  schedlint placement [OPTIONS] [PATH...] where every unit can land, pool by pool\n"
	      "  schedlint server [--debounce-ms N]      the language server (LSP) on stdin/stdout\n"
	      "  schedlint --version | --help\n"
	      "\n"
	      "Options of check:\n"
	      "  -f, --format FORMAT[:FILE] report format: text (default), json, sarif, github,\n"
	      "                             gitlab, junit, markdown; repeatable, each to its FILE\n"
	      "                             (written whole or not at all), at most one to stdout\n"
	      "  -o, --output FILE          the file of the one report that names none\n"
	      "      --stdin-filename NAME  the path stdin stands for (reports, config, exclude)\n"
	      "      --plugin PATH          add the rules of a C plugin (repeatable)\n"
	      "      --allow-plugins        load the plugins: a config names (native code; also\n"
	      "                             SCHEDLINT_ALLOW_PLUGINS=1)\n"
	      "  -c, --config FILE          use this config for every file (default: each file's\n"
	      "                             nearest .schedlint.yaml up to the repository root)\n"
	      "      --select ID,...        run only these rules or categories\n"
	      "      --ignore ID,...        skip these rules or categories\n"
	      "      --fail-on error|warning|info   lowest severity that fails (default warning)\n"
	      "      --exit-zero            exit 0 even with findings (errors still exit 2)\n"
	      "  -j, --jobs N               files linted in parallel (default: CPUs)\n"
	      "      --color auto|always|never   colour in text output (NO_COLOR respected)\n"
	      "  -q, --quiet                only the summary line\n"
	      "      --statistics           a row per rule before the summary: count, rule,\n"
	      "                             severity, [*] when --fix fixes them all, else how\n"
	      "                             many --fix / --unsafe-fixes fix\n"
	      "      --show-notes           each finding's notes (why, upstream error, way out) under it,\n"
	      "                             and each notice under its line after the summary\n"
	      "      --output-format concise|full   text: one line per finding, or each with its\n"
	      "                             source lines, a caret under the span, its notes and\n"
	      "                             fix (default: full on a terminal, else concise)\n"
	      "      --fix                  apply safe fixes in place (atomically)\n"
	      "      --unsafe-fixes         with --fix, --diff or fmt: also unsafe fixes\n"
	      "      --diff                 print the diff the fixes would make; change nothing\n"
	      "      --add-suppressions     write `# schedlint: ignore[ID] REASON` for every current\n"
	      "                             finding, in place (atomically), every other byte kept\n"
	      "      --reason TEXT          the REASON of --add-suppressions (default: existing\n"
	      "                             finding)\n"
	      "      --force-exclude        apply exclude: to the paths named too (pre-commit)\n"
	      "      --no-project           do not read the project's other files for cross-file\n"
	      "                             facts (PriorityClasses, Knative flags, runtimes...)\n"
	      "      --no-respect-gitignore lint what git ignores too (.gitignore, info/exclude)\n"
	      "      --show-settings PATH   print the config PATH is linted under, resolved, with\n"
	      "                             the file:line each value comes from; then exit\n"
	      "      --show-files           print the files a run would lint; then exit\n"
	      "      --helm-chart DIR       the input is `helm template DIR` output: findings point\n"
	      "                             at the template lines (# Source: comments); config:\n"
	      "                             render.helm-chart\n"
	      "\n"
	      "Options of fmt: --stdin-filename NAME, -c FILE, --unsafe-fixes, --force-exclude,\n"
	      "--no-project, --no-respect-gitignore.\n"
	      "With \"-\" the whole fixed buffer goes to stdout; on any error the unchanged\n"
	      "input does, with exit status 2. Diagnostics go to stderr. No PATH: \".\", fixed\n"
	      "in place.\n"
	      "\n"
	      "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage, config or I/O\n"
	      "error, 3 internal error. A YAML syntax error is a finding (yaml-syntax); a\n"
	      "notice (what was not linted: a Helm chart, a kustomization, a templated file)\n"
	      "is not, and never fails a run.\n", out);
}

int sl_cli_load_config(const char *config_path, const char *path, sl_config **cfg)
{
	char *err_msg = NULL;
	sl_err err = sl_config_find(config_path, path, cfg, &err_msg);
	if (err) {
		/* a line per error (a config's misspelt keys come all at once) */
		const char *m = err_msg ? err_msg : sl_strerror(err);
		for (char *nl; err_msg && (nl = strchr(m, '\n')); m = nl + 1) {
			*nl = '\0';
			sl_escape_put(stderr, m, SL_SINK_TEXT_LINE);
			fputc('\n', stderr);
		}
		sl_escape_put(stderr, m, SL_SINK_TEXT_LINE);
		fputc('\n', stderr);
		free(err_msg);
		return err == SL_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	return EXIT_CLEAN;
}

int sl_cli_run_new(const sl_config *cfg, const sl_run_options *opts, sl_run **run)
{
	char *msg = NULL;
	sl_err err = sl_run_new(cfg, opts, run, &msg);
	if (err) {
		sl_escape_put(stderr, msg ? msg : sl_strerror(err), SL_SINK_TEXT_LINE);
		fputc('\n', stderr);
	}
	free(msg);
	return !err ? EXIT_CLEAN : err == SL_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
}

bool sl_cli_is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void sl_cli_warn_no_files(const sl_run *run, char *const *paths, int n_paths)
{
	if (sl_run_file_count(run))
		return;
	fputs("schedlint: warning: no YAML files (*.yaml, *.yml, not excluded) under ", stderr);
	for (int i = 0; i < n_paths; i++) {
		sl_escape_put(stderr, paths[i], SL_SINK_TEXT);
		fputs(i + 1 < n_paths ? ", " : "", stderr);
	}
	fputs(n_paths ? "\n" : ".\n", stderr);
}

bool sl_cli_env_allows_plugins(void)
{
	const char *allow = getenv("SCHEDLINT_ALLOW_PLUGINS");
	return allow && strcmp(allow, "1") == 0;
}

int sl_cli_declare_rules(const char *config_path, const char *const *plugins, size_t n_plugins)
{
	sl_config *cfg = NULL;
	int status = sl_cli_load_config(config_path, NULL, &cfg);
	if (status == EXIT_CLEAN)
		status = sl_cli_declare_config_rules(cfg, plugins, n_plugins);
	sl_config_free(cfg);
	return status;
}

int sl_cli_declare_config_rules(const sl_config *cfg, const char *const *plugins, size_t n_plugins)
{
	int status = EXIT_CLEAN;
	/* a run declares its config's rules (they stay in the catalogue after it is gone) */
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.plugins = plugins;
	o.n_plugins = n_plugins;
	o.allow_plugins = sl_cli_env_allows_plugins();
	sl_run *run = NULL;
	status = sl_cli_run_new(cfg, &o, &run);
	sl_run_free(run);
	return status;
}

const char *sl_cli_fix_name(sl_fix_applicability f)
{
	return f == SL_FIX_SAFE ? "safe" : f == SL_FIX_UNSAFE ? "unsafe" : "none";
}

const char *sl_cli_severity_label(size_t i, const sl_rule_info *r)
{
	return sl_rule_notice(i, 1) ? "notice" : sl_severity_name(r->severity);
}

void sl_cli_put_lines(FILE *out, const char *s)
{
	for (const char *p = s; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, n);
		sl_escape_put(out, line ? line : "?", SL_SINK_TEXT_LINE);
		free(line);
		if (!nl)
			break;
		fputc('\n', out);
		p = nl + 1;
	}
}

void sl_cli_rule_facts(FILE *out, size_t i, const sl_rule_info *r)
{
	if (sl_rule_notice(i, 1))
		fprintf(out, "Category: %s. A notice, not a finding: never counted, never fails a run. "
			"Fix: %s.\n", r->category, sl_cli_fix_name(r->fix));
	else
		fprintf(out, "Category: %s. Default severity: %s%s. Fix: %s.\n", r->category,
			sl_severity_name(r->severity), r->enabled_by_default ? "" : " (off by default)",
			sl_cli_fix_name(r->fix));
}

bool sl_cli_fixed_text(const sl_run *run, size_t i, const char **data, size_t *len)
{
	const char *d;
	size_t l;
	bool changed;
	sl_run_file_text(run, i, &d, &l, &changed);
	if (data)
		*data = d;
	if (len)
		*len = l;
	return changed;
}

void sl_cli_fix_summary(FILE *out, size_t fixed, size_t remaining, size_t unwritten)
{
	size_t found = fixed + remaining;
	fprintf(out, "Found %zu %s (%zu fixed, %zu remaining)", found,
		found == 1 ? "finding" : "findings", fixed, remaining);
	if (unwritten)
		fprintf(out, "; %zu %s could not be written (left unchanged)", unwritten,
			unwritten == 1 ? "file" : "files");
	fputs(".\n", out);
}
