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
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'schedlint --help'.\n", stderr);
	return EXIT_USAGE;
}

int sl_cmd_check(int argc, char **argv)
{
	enum { O_STDIN_FILENAME = 256, O_SELECT, O_IGNORE, O_FAIL_ON, O_EXIT_ZERO, O_COLOR, O_STATS };
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
		{NULL, 0, NULL, 0}};
	sl_report_options ropts = {.format = SL_FORMAT_TEXT};
	const char *output = NULL, *config_path = NULL, *stdin_name = NULL, *color = "auto";
	struct list sel = {0}, ign = {0};
	int fail_on = -1, exit_zero = 0, status = EXIT_CLEAN;
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
			else
				return usage_error("unknown format \"%s\" (expected text or json)", optarg);
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
		case ':':
			return usage_error("option %s needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option \"%s\"", argv[optind - 1]);
		}
	}

	/* The configuration: -c, else the nearest .schedlint.yaml. */
	sl_config *cfg = NULL;
	char *found = NULL, *err_msg = NULL;
	if (!config_path) {
		char *dir = NULL;
		if (stdin_name && strchr(stdin_name, '/')) {
			char *tmp = strdup(stdin_name);
			dir = tmp ? strdup(dirname(tmp)) : NULL;
			free(tmp);
		}
		if (sl_config_discover(dir && access(dir, F_OK) == 0 ? dir : ".", &found) == SL_OK)
			config_path = found;
		free(dir);
	}
	sl_err err = config_path ? sl_config_load(config_path, &cfg, &err_msg) : sl_config_new_default(&cfg);
	if (err) {
		fprintf(stderr, "%s\n", err_msg ? err_msg : sl_strerror(err));
		free(err_msg);
		free(found);
		free(sel.v);
		free(ign.v);
		return err == SL_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
	}
	if (fail_on < 0)
		fail_on = sl_config_fail_on(cfg);
	if (fail_on < 0)
		fail_on = SL_SEV_WARNING;

	sl_run_options opts = {.select = sel.v, .n_select = sel.n, .ignore = ign.v, .n_ignore = ign.n,
			       .jobs = jobs};
	sl_run *run = NULL;
	err = sl_run_new(cfg, &opts, &run, &err_msg);
	if (err == SL_EUSAGE) {
		status = usage_error("%s", err_msg ? err_msg : sl_strerror(err));
		free(err_msg);
		goto out;
	} else if (err) {
		fprintf(stderr, "%s\n", err_msg ? err_msg : sl_strerror(err));
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
	if (err) {
		fprintf(stderr, "schedlint: internal error: %s\n", sl_strerror(err));
		status = EXIT_INTERNAL;
		goto out;
	}

	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi;
		sl_run_file(run, i, &fi);
		if (fi.error) {
			fprintf(stderr, "%s: error: %s\n", fi.path, fi.error);
			status = EXIT_USAGE;
		}
	}

	FILE *out = stdout;
	if (output) {
		out = fopen(output, "w");
		if (!out) {
			fprintf(stderr, "%s: error: cannot write: %s\n", output, strerror(errno));
			status = EXIT_USAGE;
			goto out;
		}
	}
	const char *no_color = getenv("NO_COLOR");
	ropts.color = strcmp(color, "always") == 0 ||
		      (strcmp(color, "auto") == 0 && !output && isatty(STDOUT_FILENO) &&
		       !(no_color && *no_color));
	err = sl_run_write_report(run, &ropts, out);
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
	free(found);
	free(sel.v);
	free(ign.v);
	return status;
}
