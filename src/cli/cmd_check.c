/* SPDX-License-Identifier: Apache-2.0
** cmd_check.c: `schedlint check`: the options parsed (parse_args), the config found, every
** input added to one run so cross-file facts are seen (add_inputs), the run linted and fixed or
** diffed (check), files written (settle_files), the report written (write_report), and the exit
** status derived: 2 beats 1 (a file that could not be read is an error even when others have
** findings). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"
#include "cli/targets.h"

struct list { const char **v; size_t n; };

/* Appends the comma-separated items of arg. */
static int list_add(struct list *l, char *arg)
{
	for (char *tok = strtok(arg, ","); tok; tok = strtok(NULL, ",")) {
		while (*tok == ' ')
			tok++;
		if (!*tok)
			continue;
		const char **nv = realloc(l->v, (l->n + 1) * sizeof *nv);
		if (!nv)
			return -1;
		l->v = nv;
		l->v[l->n++] = tok;
	}
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("schedlint: error: ", stderr);
	char *safe = sl_escape_str(arg, SL_SINK_TEXT);
	fprintf(stderr, fmt, safe ? safe : "?");
	free(safe);
	fputs("\nTry 'schedlint --help'.\n", stderr);
	return EXIT_USAGE;
}

/* True when path is the name stdin was linted under. */
static int is_stdin(const char *path, const char *stdin_name)
{
	return strcmp(path, stdin_name ? stdin_name : "-") == 0;
}

/* The command line of check, parsed. */
struct check_args {
	sl_output_options ropts;
	sl_targets reports;          /* --format FORMAT[:FILE]..., -o */
	const char *output, *config_path, *stdin_name, *color, *helm_chart;
	const char *output_format;   /* --output-format concise|full; NULL: full on a terminal */
	const char *show_settings;   /* --show-settings PATH */
	int show_files;
	struct list sel, ign, plugins;
	int allow_plugins;
	int fail_on, exit_zero, fix, unsafe, diff, force_exclude, no_project, no_gitignore;
	int add_suppressions;         /* --add-suppressions [--reason TEXT] */
	const char *reason;
	unsigned jobs;
	sl_progress progress;        /* the progress line on a terminal */
	char **paths;
	int n_paths;
};

/* Parses argv into a; returns -1 to go on, else the exit status (--help, a usage error). */
static int parse_args(int argc, char **argv, struct check_args *a)
{
	enum { O_STDIN_FILENAME = 256, O_SELECT, O_IGNORE, O_FAIL_ON, O_EXIT_ZERO, O_COLOR, O_STATS,
	       O_FIX, O_UNSAFE, O_DIFF, O_NOTES, O_FORCE_EXCLUDE, O_NO_PROJECT,
	       O_NO_GITIGNORE, O_SHOW_SETTINGS, O_SHOW_FILES, O_PLUGIN, O_ALLOW_PLUGINS,
	       O_HELM_CHART, O_OUTPUT_FORMAT, O_ADD_SUPPRESSIONS, O_REASON };
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"output", required_argument, NULL, 'o'},
		{"config", required_argument, NULL, 'c'},
		{"jobs", required_argument, NULL, 'j'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"stdin-filename", required_argument, NULL, O_STDIN_FILENAME},
		{"select", required_argument, NULL, O_SELECT},
		{"ignore", required_argument, NULL, O_IGNORE},
		{"fail-on", required_argument, NULL, O_FAIL_ON},
		{"exit-zero", no_argument, NULL, O_EXIT_ZERO},
		{"color", required_argument, NULL, O_COLOR},
		{"statistics", no_argument, NULL, O_STATS},
		{"show-notes", no_argument, NULL, O_NOTES},
		{"fix", no_argument, NULL, O_FIX},
		{"unsafe-fixes", no_argument, NULL, O_UNSAFE},
		{"diff", no_argument, NULL, O_DIFF},
		{"force-exclude", no_argument, NULL, O_FORCE_EXCLUDE},
		{"no-project", no_argument, NULL, O_NO_PROJECT},
		{"no-respect-gitignore", no_argument, NULL, O_NO_GITIGNORE},
		{"show-settings", required_argument, NULL, O_SHOW_SETTINGS},
		{"show-files", no_argument, NULL, O_SHOW_FILES},
		{"plugin", required_argument, NULL, O_PLUGIN},
		{"allow-plugins", no_argument, NULL, O_ALLOW_PLUGINS},
		{"helm-chart", required_argument, NULL, O_HELM_CHART},
		{"output-format", required_argument, NULL, O_OUTPUT_FORMAT},
		{"add-suppressions", no_argument, NULL, O_ADD_SUPPRESSIONS},
		{"reason", required_argument, NULL, O_REASON},
		{NULL, 0, NULL, 0}};
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:o:c:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': {
			const char *why = sl_targets_add(&a->reports, optarg);
			if (why)
				return usage_error(why, optarg);
			break;
		}
		case 'o': a->output = optarg; break;
		case 'c': a->config_path = optarg; break;
		case 'j': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 1024)
				return usage_error("--jobs takes a number from 1 to 1024, not \"%s\"", optarg);
			a->jobs = (unsigned)v;
			break;
		}
		case 'q': a->ropts.quiet = true; break;
		case 'h': sl_cli_usage(stdout); return EXIT_CLEAN;
		case O_STDIN_FILENAME: a->stdin_name = optarg; break;
		case O_SELECT:
		case O_IGNORE:
			if (list_add(c == O_SELECT ? &a->sel : &a->ign, optarg) < 0)
				return EXIT_INTERNAL;
			break;
		case O_FAIL_ON:
			a->fail_on = sl_severity_parse(optarg);
			if (a->fail_on <= SL_SEV_OFF)
				return usage_error("--fail-on takes error, warning or info, not \"%s\"", optarg);
			break;
		case O_EXIT_ZERO: a->exit_zero = 1; break;
		case O_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
				return usage_error("--color takes auto, always or never, not \"%s\"", optarg);
			a->color = optarg;
			break;
		case O_STATS: a->ropts.statistics = true; break;
		case O_NOTES: a->ropts.show_notes = true; break;
		case O_FIX: a->fix = 1; break;
		case O_UNSAFE: a->unsafe = 1; break;
		case O_DIFF: a->diff = 1; break;
		case O_ADD_SUPPRESSIONS: a->add_suppressions = 1; break;
		case O_REASON: a->reason = optarg; break;
		case O_FORCE_EXCLUDE: a->force_exclude = 1; break;
		case O_NO_PROJECT: a->no_project = 1; break;
		case O_NO_GITIGNORE: a->no_gitignore = 1; break;
		case O_SHOW_SETTINGS: a->show_settings = optarg; break;
		case O_SHOW_FILES: a->show_files = 1; break;
		case O_PLUGIN: {   /* one path each, commas and all */
			const char **nv = realloc(a->plugins.v, (a->plugins.n + 1) * sizeof *nv);
			if (!nv)
				return EXIT_INTERNAL;
			a->plugins.v = nv;
			a->plugins.v[a->plugins.n++] = optarg;
			break;
		}
		case O_ALLOW_PLUGINS: a->allow_plugins = 1; break;
		case O_HELM_CHART: a->helm_chart = optarg; break;
		case O_OUTPUT_FORMAT:
			if (strcmp(optarg, "concise") && strcmp(optarg, "full"))
				return usage_error("--output-format takes concise or full, not \"%s\"", optarg);
			a->output_format = optarg;
			break;
		case ':':
			return usage_error("option %s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option \"%s\"", argv[optind - 1]);
		}
	}
	a->paths = argv + optind;
	a->n_paths = argc - optind;
	int dash = 0;
	for (int i = 0; i < a->n_paths; i++)
		dash |= strcmp(a->paths[i], "-") == 0;
	if (a->add_suppressions && (a->fix || a->diff))
		return usage_error("--add-suppressions %s: suppress the findings, or fix them",
				   a->fix ? "with --fix" : "with --diff");
	if (a->reason && !a->add_suppressions)
		return usage_error("--reason %s is the reason of --add-suppressions", a->reason);
	if (a->stdin_name && !dash)   /* not a lint of "." while a buffer waits on stdin */
		return usage_error("--stdin-filename %s names stdin, which is read only as the input "
				   "\"-\": add - to the inputs", a->stdin_name);
	char *why = sl_targets_plan(&a->reports, a->output);
	if (why || a->reports.n == 0) {
		int st = why ? usage_error("%s", why) : EXIT_INTERNAL;
		free(why);
		return st;
	}
	return -1;
}

/* A new run under cfg; on failure, the message printed and *status set. */
static sl_run *new_run(struct check_args *a, const sl_config *cfg, int *status)
{
	/* Without fixing, stream: memory then follows the largest file, not the whole input. */
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	opts.select = a->sel.v;
	opts.n_select = a->sel.n;
	opts.ignore = a->ign.v;
	opts.n_ignore = a->ign.n;
	opts.jobs = a->jobs;
	opts.low_memory = !a->fix && !a->diff && !a->add_suppressions;
	opts.force_exclude = a->force_exclude;
	opts.no_gitignore = a->no_gitignore;
	opts.nearest_config = !a->config_path;   /* -c: one config for every file */
	opts.plugins = a->plugins.v;
	opts.n_plugins = a->plugins.n;
	opts.allow_plugins = a->allow_plugins || sl_cli_env_allows_plugins();
	opts.progress = a->progress.on ? sl_progress_update : NULL;
	opts.progress_ctx = &a->progress;
	sl_run *run = NULL;
	char *err_msg = NULL;
	sl_err err = sl_run_new(cfg, &opts, &run, &err_msg);
	if (err == SL_EUSAGE) {
		*status = usage_error("%s", err_msg ? err_msg : sl_strerror(err));
	} else if (err) {
		sl_escape_put(stderr, err_msg ? err_msg : sl_strerror(err), SL_SINK_TEXT_LINE);
		fputc('\n', stderr);
		*status = err == SL_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	/* --helm-chart, else the config's render.helm-chart */
	const char *chart = a->helm_chart ? a->helm_chart : sl_config_helm_chart(cfg);
	if (!err && chart) {
		err = sl_run_set_helm_chart(run, chart, &err_msg);
		if (err) {
			*status = err == SL_EUSAGE ? usage_error("%s", err_msg ? err_msg : "--helm-chart")
						   : EXIT_INTERNAL;
			sl_run_free(run);
		}
	}
	free(err_msg);
	return err ? NULL : run;
}

/* The inputs: paths, and stdin where "-" is one; no path means ".", whatever stdin is (a CI
** step's stdin may be closed or a pipe: it is never read unless asked for, as ruff does).
** --show-files: stdin stands in by its name, unread, and the project is not read. */
static sl_err add_inputs(sl_run *run, const struct check_args *a)
{
	sl_err err = SL_OK;
	const char *stdin_as = a->stdin_name ? a->stdin_name : "-";
	if (a->n_paths == 0)
		err = sl_run_add_path(run, ".");
	bool stdin_added = false;   /* "-" twice is stdin once, as a file named twice is one file */
	for (int i = 0; i < a->n_paths && !err; i++) {
		if (strcmp(a->paths[i], "-") == 0) {
			if (stdin_added || (a->stdin_name && sl_run_excluded(run, a->stdin_name)))
				continue;
			stdin_added = true;
			err = a->show_files ? sl_run_add_buffer(run, stdin_as, "", 0)
					    : sl_run_add_fd(run, STDIN_FILENO, stdin_as);
		} else {
			err = sl_run_add_path(run, a->paths[i]);
		}
	}
	/* the rest of the project, for the cross-file facts only (spec/cli.md, "The project") */
	if (!err && !a->no_project && !a->show_files)
		err = sl_run_add_project(run, NULL);
	return err;
}

/* --show-files: the files of the listed run, one per line, sorted; a path that cannot be read
** is an error (exit 2), as when linting. */
static int print_files(const sl_run *run)
{
	int status = EXIT_CLEAN;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi = SL_FILE_INFO_INIT;
		sl_run_file(run, i, &fi);
		sl_escape_put(fi.error ? stderr : stdout, fi.path, SL_SINK_TEXT_LINE);
		if (fi.error) {
			fputs(": error: ", stderr);
			sl_escape_put(stderr, fi.error, SL_SINK_TEXT);
			status = EXIT_USAGE;
		}
		fputc('\n', fi.error ? stderr : stdout);
	}
	if (fflush(stdout) != 0) {
		fprintf(stderr, "schedlint: error: cannot write: %s\n", strerror(errno));
		status = EXIT_USAGE;
	}
	return status;
}

/* --show-settings PATH: the config PATH is linted under (-c's, else its nearest), resolved, with
** where each value comes from. */
static int show_settings(const struct check_args *a)
{
	sl_config *cfg = NULL;
	int status = sl_cli_load_config(a->config_path, a->show_settings, &cfg);
	if (status == EXIT_CLEAN)   /* its custom-rules:, shown with it, and their errors */
		status = sl_cli_declare_config_rules(cfg, a->plugins.v, a->plugins.n);
	if (status != EXIT_CLEAN) {
		sl_config_free(cfg);
		return status;
	}
	sl_err err = sl_config_show(cfg, stdout);
	if (!err && fflush(stdout) != 0)
		err = SL_EIO;
	if (err) {
		fprintf(stderr, "schedlint: error: cannot write: %s\n", sl_strerror(err));
		status = EXIT_USAGE;
	}
	sl_config_free(cfg);
	return status;
}

/* --diff: only the diff of every changed file, nothing written; the exit status (1 when there
** is a diff). */
static int print_diff(const sl_run *run, size_t applied)
{
	int status = EXIT_CLEAN, any = 0;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		if (!sl_cli_fixed_text(run, i, NULL, NULL))
			continue;
		any = 1;
		if (sl_run_file_diff(run, i, stdout) != SL_OK)
			status = EXIT_INTERNAL;
	}
	fprintf(stderr, "%zu %s would be fixed.\n", applied, applied == 1 ? "finding" : "findings");
	return status == EXIT_CLEAN && any ? EXIT_FINDINGS : status;
}

/* What --fix did: fixes now in the files, fixes in files that could not be written (still to
** do), and those files. */
struct fix_count { size_t fixed, left, unwritten; };

/* Reports the files that could not be read and, with --fix, writes each fixed file (the fixed
** stdin to stdout: then the report goes to stderr, *out), counting into *fc; returns EXIT_USAGE
** when any file could not be read or written, else EXIT_CLEAN. */
static int settle_files(const sl_run *run, const struct check_args *a, FILE **out,
			struct fix_count *fc)
{
	int status = EXIT_CLEAN;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi = SL_FILE_INFO_INIT;
		sl_run_file(run, i, &fi);
		if (fi.error) {
			sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
			fputs(": error: ", stderr);
			sl_escape_put(stderr, fi.error, SL_SINK_TEXT);
			fputc('\n', stderr);
			status = EXIT_USAGE;
			continue;
		}
		if (!a->fix && !a->add_suppressions)
			continue;
		const char *d;
		size_t l;
		if (!sl_cli_fixed_text(run, i, &d, &l))
			continue;
		if (is_stdin(fi.path, a->stdin_name)) {
			fwrite(d, 1, l, stdout);
			*out = stderr;
			fc->fixed += fi.fixes;
		} else if (sl_run_file_write(run, i) != SL_OK) {
			const char *why = sl_run_file_write_error(run, i);
			int e = errno;
			sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
			fprintf(stderr, ": error: cannot write the fixed file: %s\n", why ? why : strerror(e));
			status = EXIT_USAGE;
			fc->unwritten++;
			fc->left += fi.fixes;
		} else {
			fc->fixed += fi.fixes;
		}
	}
	return status;
}

/* --add-suppressions: a directive for each finding, each changed file written (as --fix
** writes), then how many on stderr; EXIT_USAGE when a file could not be read or written. */
static int add_suppressions(sl_run *run, const struct check_args *a)
{
	size_t added = 0;
	sl_err err = sl_run_suppress(run, a->reason, &added);
	if (err) {
		fprintf(stderr, "schedlint: error: --add-suppressions: %s\n", err == SL_EUSAGE ?
			"the reason must be one line" : sl_strerror(err));
		return err == SL_EUSAGE ? EXIT_USAGE : EXIT_INTERNAL;
	}
	FILE *out = stdout;
	struct fix_count fc = {0};
	int status = settle_files(run, a, &out, &fc);
	size_t files = 0;
	for (size_t i = 0; i < sl_run_file_count(run); i++)
		files += sl_cli_fixed_text(run, i, NULL, NULL);
	fprintf(stderr, "%zu %s added in %zu %s%s.\n", added, added == 1 ? "suppression" : "suppressions",
		files, files == 1 ? "file" : "files", fc.unwritten ? " (some not written)" : "");
	return status;
}

/* Writes every report (each to its file, else out) and, in a text report after --fix, what was
** fixed; EXIT_USAGE when one cannot be written, else EXIT_CLEAN. */
static int write_report(const sl_run *run, struct check_args *a, FILE *out, size_t applied,
			const struct fix_count *fc)
{
	const char *no_color = getenv("NO_COLOR");
	int status = EXIT_CLEAN;
	for (size_t i = 0; i < a->reports.n; i++) {
		const sl_target *t = &a->reports.v[i];
		FILE *to = t->path ? sl_targets_begin(&a->reports, i) : out;
		if (!to) {
			status = EXIT_USAGE;
			continue;
		}
		a->ropts.format = t->format;
		a->ropts.color = strcmp(a->color, "always") == 0 ||
				 (strcmp(a->color, "auto") == 0 && !t->path && isatty(STDOUT_FILENO) &&
				  !(no_color && *no_color));
		a->ropts.full = a->output_format ? strcmp(a->output_format, "full") == 0
						 : !t->path && to == stdout && isatty(STDOUT_FILENO);
		errno = 0;
		sl_err err = sl_run_write_output(run, &a->ropts, to);
		if (!err && a->fix && applied && t->format == SL_FORMAT_TEXT)
			sl_cli_fix_summary(to, fc->fixed, sl_run_finding_count(run) + fc->left,
					   fc->unwritten);
		if (!err && ferror(to))
			err = SL_EIO;
		if (err) {
			int e = errno;   /* the write's own reason (ENOSPC, EFBIG) when there is one */
			fputs("schedlint: error: cannot write the report", stderr);
			if (t->path) {
				fputc(' ', stderr);
				sl_escape_put(stderr, t->path, SL_SINK_TEXT);
			}
			fprintf(stderr, ": %s\n", err == SL_EIO && e ? strerror(e) : sl_strerror(err));
		}
		if (!sl_targets_close(&a->reports, i, !err))
			status = EXIT_USAGE;
	}
	return status;
}

/* Lints (and fixes, or diffs) under cfg, writes the report; the exit status: 2 beats 1. */
static int check(struct check_args *a, const sl_config *cfg)
{
	int status = EXIT_CLEAN;
	sl_progress_start(&a->progress, a->ropts.quiet || a->show_files);
	sl_run *run = new_run(a, cfg, &status);
	if (!run)
		return status;
	if (!a->show_files && !a->diff && !sl_targets_open(&a->reports)) {
		sl_run_free(run);
		return EXIT_USAGE;
	}
	sl_err err = add_inputs(run, a);
	if (!err)
		err = a->show_files ? sl_run_list(run) : sl_run_lint(run);
	if (!err && a->show_files) {
		status = print_files(run);
		sl_run_free(run);
		return status;
	}
	size_t applied = 0;
	bool converged = true;
	if (!err && a->add_suppressions) {
		sl_progress_clear(&a->progress);
		status = add_suppressions(run, a);
		sl_run_free(run);
		return status;
	}
	if (!err && (a->fix || a->diff)) {
		sl_fix_options fo = SL_FIX_OPTIONS_INIT;
		fo.unsafe = a->unsafe;
		err = sl_run_fix(run, &fo, &applied, &converged);
	}
	sl_progress_clear(&a->progress);   /* before anything else is written */
	if (!err)
		sl_cli_warn_no_files(run, a->paths, a->n_paths);
	if (err) {
		fprintf(stderr, "schedlint: internal error: %s\n", sl_strerror(err));
		status = EXIT_INTERNAL;
	} else {
		if (!converged)
			fprintf(stderr, "schedlint: warning: fixes did not settle after 10 rounds; "
				"please report this with the file\n");
		if (a->diff) {
			status = print_diff(run, applied);
		} else {
			FILE *out = stdout;
			struct fix_count fc = {0};
			status = settle_files(run, a, &out, &fc);
			int ws = write_report(run, a, out, applied, &fc);
			if (ws != EXIT_CLEAN)
				status = ws;
			else if (status == EXIT_CLEAN && !a->exit_zero)
				for (size_t i = 0; i < sl_run_finding_count(run); i++)
					if ((int)sl_run_finding(run, i)->severity >= a->fail_on)
						status = EXIT_FINDINGS;
		}
	}
	sl_run_free(run);
	return status;
}

int sl_cmd_check(int argc, char **argv)
{
	struct check_args a = {.ropts = SL_OUTPUT_OPTIONS_INIT, .color = "auto", .fail_on = -1};
	sl_config *cfg = NULL;
	int status = parse_args(argc, argv, &a);   /* -1: go on; else --help or a usage error */
	if (status < 0 && a.show_settings)
		status = show_settings(&a);
	if (status < 0 && (status = sl_cli_load_config(a.config_path, a.stdin_name, &cfg)) ==
			  EXIT_CLEAN) {
		if (a.fail_on < 0)
			a.fail_on = sl_config_fail_on(cfg);
		if (a.fail_on < 0)
			a.fail_on = SL_SEV_WARNING;
		status = check(&a, cfg);   /* --show-files: lists instead */
	}
	sl_config_free(cfg);
	sl_targets_free(&a.reports);
	free(a.sel.v);
	free(a.plugins.v);
	free(a.ign.v);
	return status;
}
