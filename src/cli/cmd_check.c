/* SPDX-License-Identifier: Apache-2.0
** cmd_check.c: `schedlint check`. Options are parsed, the config found, every input added to
** one run (so cross-file facts are seen), the report written, and the exit status derived:
** 2 beats 1 (a file that could not be read is an error even when others have findings). */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"
#include "output/escape.h"

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

int sl_cmd_check(int argc, char **argv)
{
	enum { O_STDIN_FILENAME = 256, O_SELECT, O_IGNORE, O_FAIL_ON, O_EXIT_ZERO, O_COLOR, O_STATS,
	       O_FIX, O_UNSAFE, O_DIFF, O_NOTES };
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
		{NULL, 0, NULL, 0}};
	sl_output_options ropts = {.version = SL_OUTPUT_OPTIONS_VERSION, .format = SL_FORMAT_TEXT};
	const char *output = NULL, *config_path = NULL, *stdin_name = NULL, *color = "auto";
	struct list sel = {0}, ign = {0};
	int fail_on = -1, exit_zero = 0, status = EXIT_CLEAN, fix = 0, unsafe = 0, diff = 0;
	size_t unwritten = 0;
	unsigned jobs = 0;
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "f:o:c:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") == 0)
				ropts.format = SL_FORMAT_TEXT;
			else if (strcmp(optarg, "json") == 0)
				ropts.format = SL_FORMAT_JSON;
			else if (strcmp(optarg, "sarif") == 0)
				ropts.format = SL_FORMAT_SARIF;
			else if (strcmp(optarg, "github") == 0)
				ropts.format = SL_FORMAT_GITHUB;
			else
				return usage_error("unknown format \"%s\" (expected text, json, sarif or github)",
						   optarg);
			break;
		case 'o': output = optarg; break;
		case 'c': config_path = optarg; break;
		case 'j': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 1024)
				return usage_error("--jobs takes a number from 1 to 1024, not \"%s\"", optarg);
			jobs = (unsigned)v;
			break;
		}
		case 'q': ropts.quiet = true; break;
		case 'h': sl_cli_usage(stdout); return EXIT_CLEAN;
		case O_STDIN_FILENAME: stdin_name = optarg; break;
		case O_SELECT:
		case O_IGNORE:
			if (list_add(c == O_SELECT ? &sel : &ign, optarg) < 0)
				return EXIT_INTERNAL;
			break;
		case O_FAIL_ON:
			fail_on = sl_severity_parse(optarg);
			if (fail_on <= SL_SEV_OFF)
				return usage_error("--fail-on takes error, warning or info, not \"%s\"", optarg);
			break;
		case O_EXIT_ZERO: exit_zero = 1; break;
		case O_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never"))
				return usage_error("--color takes auto, always or never, not \"%s\"", optarg);
			color = optarg;
			break;
		case O_STATS: ropts.statistics = true; break;
		case O_NOTES: ropts.show_notes = true; break;
		case O_FIX: fix = 1; break;
		case O_UNSAFE: unsafe = 1; break;
		case O_DIFF: diff = 1; break;
		case ':':
			return usage_error("option %s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option \"%s\"", argv[optind - 1]);
		}
	}

	sl_config *cfg = NULL;
	char *err_msg = NULL;
	sl_err err = SL_OK;
	int cs = sl_cli_load_config(config_path, stdin_name, &cfg);
	if (cs != EXIT_CLEAN) {
		free(sel.v);
		free(ign.v);
		return cs;
	}
	if (fail_on < 0)
		fail_on = sl_config_fail_on(cfg);
	if (fail_on < 0)
		fail_on = SL_SEV_WARNING;

	/* Without fixing, stream: memory then follows the largest file, not the whole input. */
	sl_run_options opts = {.version = SL_RUN_OPTIONS_VERSION, .select = sel.v, .n_select = sel.n, .ignore = ign.v, .n_ignore = ign.n,
			       .jobs = jobs, .low_memory = !fix && !diff};
	sl_run *run = NULL;
	err = sl_run_new(cfg, &opts, &run, &err_msg);
	if (err == SL_EUSAGE) {
		status = usage_error("%s", err_msg ? err_msg : sl_strerror(err));
		free(err_msg);
		goto out;
	} else if (err) {
		sl_escape_put(stderr, err_msg ? err_msg : sl_strerror(err), SL_SINK_TEXT_LINE);
		fputc('\n', stderr);
		free(err_msg);
		status = err == SL_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
		goto out;
	}

	/* The inputs: paths, "-", or piped stdin when there is none. */
	int n_paths = argc - optind;
	if (n_paths == 0 && isatty(STDIN_FILENO)) {
		err = sl_run_add_path(run, ".");
	} else if (n_paths == 0) {
		if (!stdin_name || !sl_run_excluded(run, stdin_name))
			err = sl_run_add_fd(run, STDIN_FILENO, stdin_name ? stdin_name : "-");
	}
	for (int i = optind; i < argc && !err; i++) {
		if (strcmp(argv[i], "-") == 0) {
			if (!stdin_name || !sl_run_excluded(run, stdin_name))
				err = sl_run_add_fd(run, STDIN_FILENO, stdin_name ? stdin_name : "-");
		} else {
			err = sl_run_add_path(run, argv[i]);
		}
	}
	if (!err)
		err = sl_run_lint(run);
	size_t applied = 0;
	bool converged = true;
	if (!err && (fix || diff)) {
		sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = unsafe};
		err = sl_run_fix(run, &fo, &applied, &converged);
	}
	if (err) {
		fprintf(stderr, "schedlint: internal error: %s\n", sl_strerror(err));
		status = EXIT_INTERNAL;
		goto out;
	}
	if (!converged)
		fprintf(stderr, "schedlint: warning: fixes did not settle after 10 rounds; "
			"please report this with the file\n");
	if (diff) {
		/* Only the diff: nothing is written, exit 1 when there is one. */
		int any = 0;
		for (size_t i = 0; i < sl_run_file_count(run); i++) {
			bool changed;
			const char *d;
			size_t l;
			sl_run_file_text(run, i, &d, &l, &changed);
			if (!changed)
				continue;
			any = 1;
			if (sl_run_file_diff(run, i, stdout) != SL_OK)
				status = EXIT_INTERNAL;
		}
		fprintf(stderr, "%zu %s would be fixed.\n", applied, applied == 1 ? "finding" : "findings");
		if (status == EXIT_CLEAN && any)
			status = EXIT_FINDINGS;
		goto out;
	}

	FILE *out = stdout;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi;
		sl_run_file(run, i, &fi);
		if (fi.error) {
			sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
			fputs(": error: ", stderr);
			sl_escape_put(stderr, fi.error, SL_SINK_TEXT);
			fputc('\n', stderr);
			status = EXIT_USAGE;
			continue;
		}
		if (!fix)
			continue;
		bool changed;
		const char *d;
		size_t l;
		sl_run_file_text(run, i, &d, &l, &changed);
		if (!changed)
			continue;
		if (is_stdin(fi.path, stdin_name)) {
			/* The fixed stdin goes to stdout; the report to stderr. */
			fwrite(d, 1, l, stdout);
			out = stderr;
		} else if (sl_run_file_write(run, i) != SL_OK) {
			const char *why = sl_run_file_write_error(run, i);
			int e = errno;
			sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
			fprintf(stderr, ": error: cannot write the fixed file: %s\n", why ? why : strerror(e));
			status = EXIT_USAGE;
			unwritten++;
		}
	}

	if (output) {
		out = fopen(output, "w");
		if (!out) {
			int e = errno;
			sl_escape_put(stderr, output, SL_SINK_TEXT_LINE);
			fprintf(stderr, ": error: cannot write: %s\n", strerror(e));
			status = EXIT_USAGE;
			goto out;
		}
	}
	const char *no_color = getenv("NO_COLOR");
	ropts.color = strcmp(color, "always") == 0 ||
		      (strcmp(color, "auto") == 0 && !output && isatty(STDOUT_FILENO) &&
		       !(no_color && *no_color));
	err = sl_run_write_output(run, &ropts, out);
	if (fix && applied && ropts.format == SL_FORMAT_TEXT) {
		if (unwritten)
			fprintf(out, "Fixed %zu %s, but %zu %s could not be written (left unchanged).\n",
				applied, applied == 1 ? "finding" : "findings", unwritten,
				unwritten == 1 ? "file" : "files");
		else
			fprintf(out, "Fixed %zu %s.\n", applied, applied == 1 ? "finding" : "findings");
	}
	if (output && fclose(out) != 0)
		err = SL_EIO;
	else if (!output && fflush(stdout) != 0)
		err = SL_EIO;
	if (err) {
		fprintf(stderr, "schedlint: error: cannot write the report: %s\n", sl_strerror(err));
		status = EXIT_USAGE;
		goto out;
	}
	if (status == EXIT_CLEAN && !exit_zero) {
		for (size_t i = 0; i < sl_run_finding_count(run); i++)
			if ((int)sl_run_finding(run, i)->severity >= fail_on)
				status = EXIT_FINDINGS;
	}
out:
	sl_run_free(run);
	sl_config_free(cfg);
	free(sel.v);
	free(ign.v);
	return status;
}
