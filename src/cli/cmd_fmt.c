/* SPDX-License-Identifier: Apache-2.0
** cmd_fmt.c: `schedlint fmt`, the editor on-save fixer. With "-" (only then: stdin is never
** read by surprise) it reads the whole buffer, applies the safe fixes (unsafe ones too with --unsafe-fixes) and
** writes the whole result to stdout: byte-for-byte the input when nothing is fixable, and the
** unchanged input, with exit status 2, on any error (a YAML syntax error, a bad config, an
** internal error), so an editor never loses its buffer. Diagnostics go to stderr only.
** With PATHs (no PATH: ".") it fixes the files in place (atomically), leaving alone any file
** with a syntax error. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

/* The buffer from stdin. read_ok is 0 when it could not be read whole (an error, memory, more
** than SL_PIPE_INPUT_MAX bytes): then eof says whether the rest is still unread on stdin. */
struct input { char *data; size_t len; int read_ok; int eof; const char *why; };

static void read_all(struct input *in)
{
	size_t cap = 64 * 1024;
	in->data = malloc(cap);
	in->len = 0;
	in->read_ok = in->data != NULL;
	in->eof = 0;
	in->why = in->data ? NULL : "out of memory";
	while (in->data) {
		if (in->len == cap) {
			if (cap >= SL_PIPE_INPUT_MAX) {
				in->read_ok = 0;
				in->why = "64 MiB or more on stdin, the limit";
				break;
			}
			char *nd = realloc(in->data, cap * 2);
			if (!nd) {
				in->read_ok = 0;
				in->why = "out of memory";
				break;
			}
			in->data = nd;
			cap *= 2;
		}
		ssize_t r = sl_fdio_read(STDIN_FILENO, in->data + in->len, cap - in->len);
		if (r < 0) {
			in->read_ok = 0;
			in->why = strerror(errno);
			break;
		}
		if (r == 0) {
			in->eof = 1;
			break;
		}
		in->len += (size_t)r;
	}
}

/* The error exit of stdin mode: the whole buffer goes back out untouched, the part read and,
** when reading stopped early (memory, the size cap), the rest copied through from stdin, so an
** editor that takes the output whatever the status never gets a truncated buffer. */
static int give_back(const struct input *in)
{
	if (in->data && in->len)
		fwrite(in->data, 1, in->len, stdout);
	if (!in->eof) {
		static char chunk[64 * 1024];
		for (;;) {
			ssize_t r = sl_fdio_read(STDIN_FILENO, chunk, sizeof chunk);
			if (r <= 0)
				break;
			if (fwrite(chunk, 1, (size_t)r, stdout) != (size_t)r)
				break;
		}
	}
	fflush(stdout);
	return EXIT_USAGE;
}

/* Prints the findings of rule yaml-syntax (and file errors) to stderr; true when any. */
static bool report_blocking(const sl_run *run, size_t file, const char *path)
{
	bool any = false;
	sl_file_info fi = SL_FILE_INFO_INIT;
	sl_run_file(run, file, &fi);
	if (fi.error) {
		sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
		fputs(": error: ", stderr);
		sl_escape_put(stderr, fi.error, SL_SINK_TEXT);
		fputc('\n', stderr);
		any = true;
	}
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		if (strcmp(f->rule, "yaml-syntax") != 0 || strcmp(f->path, path) != 0)
			continue;
		sl_escape_put(stderr, f->path, SL_SINK_TEXT_LINE);
		fprintf(stderr, ":%u:%u: error: ", f->line, f->column);
		sl_escape_put(stderr, f->message, SL_SINK_TEXT);
		fprintf(stderr, " [%s]\n", f->rule);
		any = true;
	}
	return any;
}

static int fmt_stdin(struct input *in, const char *config_path, const char *stdin_name, int unsafe,
		     int force_exclude, int no_project)
{
	const char *name = stdin_name ? stdin_name : "-";
	read_all(in);
	if (!in->read_ok) {
		sl_escape_put(stderr, name, SL_SINK_TEXT_LINE);
		fprintf(stderr, ": error: cannot read stdin: %s; the input is given back unchanged\n",
			in->why ? in->why : "read error");
		return give_back(in);
	}
	sl_config *cfg = NULL;
	if (sl_cli_load_config(config_path, stdin_name, &cfg) != EXIT_CLEAN)
		return give_back(in);
	sl_run *run = NULL;
	int status = EXIT_CLEAN;
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	opts.nearest_config = !config_path;
	opts.allow_plugins = sl_cli_env_allows_plugins();   /* a config's plugins: */
	if (sl_cli_run_new(cfg, &opts, &run) != EXIT_CLEAN) {   /* a config error: said */
		sl_config_free(cfg);
		return give_back(in);
	}
	sl_err err = SL_OK;
	if (force_exclude && stdin_name && sl_run_excluded(run, stdin_name)) {
		/* excluded: the buffer as it came, and nothing to say (as ruff) */
		give_back(in);
		sl_run_free(run);
		sl_config_free(cfg);
		return EXIT_CLEAN;
	}
	if (!err)
		err = sl_run_add_buffer(run, name, in->data ? in->data : "", in->len);
	if (!err && !no_project)
		err = sl_run_add_project(run, NULL);   /* the facts the buffer's rules look up */
	if (!err)
		err = sl_run_lint(run);
	if (err) {
		fputs("schedlint: error: ", stderr);
		sl_escape_put(stderr, sl_strerror(err), SL_SINK_TEXT);
		fputc('\n', stderr);
		status = give_back(in);
	} else if (report_blocking(run, 0, name)) {
		status = give_back(in);
	} else {
		sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = unsafe};
		err = sl_run_fix(run, &fo, NULL, NULL);
		if (err) {
			fprintf(stderr, "schedlint: internal error: %s\n", sl_strerror(err));
			status = give_back(in);
		} else {
			const char *d;
			size_t l;
			sl_run_file_text(run, 0, &d, &l, NULL);
			if (fwrite(d, 1, l, stdout) != l || fflush(stdout) != 0)
				status = EXIT_USAGE;
		}
	}
	sl_run_free(run);
	sl_config_free(cfg);
	return status;
}

static int fmt_paths(char **paths, int n, const char *config_path, int unsafe, int force_exclude,
		     int no_project, int no_gitignore)
{
	sl_config *cfg = NULL;
	int status = sl_cli_load_config(config_path, NULL, &cfg);
	if (status != EXIT_CLEAN)
		return status;
	sl_run *run = NULL;
	sl_run_options opts = SL_RUN_OPTIONS_INIT;
	opts.force_exclude = force_exclude;
	opts.no_gitignore = no_gitignore;
	opts.nearest_config = !config_path;
	opts.allow_plugins = sl_cli_env_allows_plugins();   /* a config's plugins: */
	status = sl_cli_run_new(cfg, &opts, &run);   /* a config error: exit 2, said */
	if (status != EXIT_CLEAN) {
		sl_config_free(cfg);
		return status;
	}
	sl_err err = SL_OK;
	for (int i = 0; i < n && !err; i++)
		err = sl_run_add_path(run, paths[i]);
	if (!err && !no_project)
		err = sl_run_add_project(run, NULL);
	if (!err)
		err = sl_run_lint(run);
	if (!err)
		sl_cli_warn_no_files(run, paths, n);
	size_t applied = 0;
	if (!err) {
		sl_fix_options fo = {.version = SL_FIX_OPTIONS_VERSION, .unsafe = unsafe};
		err = sl_run_fix(run, &fo, &applied, NULL);
	}
	if (err) {
		fputs("schedlint: error: ", stderr);
		sl_escape_put(stderr, sl_strerror(err), SL_SINK_TEXT);
		fputc('\n', stderr);
		status = EXIT_INTERNAL;
		goto out;
	}
	size_t fixed = 0, left = 0, unwritten = 0;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info fi = SL_FILE_INFO_INIT;
		sl_run_file(run, i, &fi);
		if (report_blocking(run, i, fi.path)) {
			status = EXIT_USAGE;
			continue;
		}
		if (!sl_cli_fixed_text(run, i, NULL, NULL))
			continue;
		if (sl_run_file_write(run, i) != SL_OK) {
			const char *why = sl_run_file_write_error(run, i);
			int e = errno;
			sl_escape_put(stderr, fi.path, SL_SINK_TEXT_LINE);
			fprintf(stderr, ": error: cannot write the fixed file: %s\n", why ? why : strerror(e));
			status = EXIT_USAGE;
			unwritten++;
			left += fi.fixes;
		} else {
			fixed += fi.fixes;
		}
	}
	if (applied)
		sl_cli_fix_summary(stderr, fixed, sl_run_finding_count(run) + left, unwritten);
out:
	sl_run_free(run);
	sl_config_free(cfg);
	return status;
}

int sl_cmd_fmt(int argc, char **argv)
{
	enum { O_STDIN_FILENAME = 256, O_UNSAFE, O_FORCE_EXCLUDE, O_NO_PROJECT, O_NO_GITIGNORE };
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{"stdin-filename", required_argument, NULL, O_STDIN_FILENAME},
		{"unsafe-fixes", no_argument, NULL, O_UNSAFE},
		{"force-exclude", no_argument, NULL, O_FORCE_EXCLUDE},
		{"no-project", no_argument, NULL, O_NO_PROJECT},
		{"no-respect-gitignore", no_argument, NULL, O_NO_GITIGNORE},
		{NULL, 0, NULL, 0}};
	const char *config_path = NULL, *stdin_name = NULL;
	int unsafe = 0, force_exclude = 0, no_project = 0, no_gitignore = 0, bad = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "c:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': config_path = optarg; break;
		case 'h':
			puts("Usage: schedlint fmt [--stdin-filename NAME] [-c FILE] [--unsafe-fixes] "
			     "[--force-exclude] [--no-project] [--no-respect-gitignore] [PATH...|-]");
			return EXIT_CLEAN;
		case O_STDIN_FILENAME: stdin_name = optarg; break;
		case O_UNSAFE: unsafe = 1; break;
		case O_FORCE_EXCLUDE: force_exclude = 1; break;
		case O_NO_PROJECT: no_project = 1; break;
		case O_NO_GITIGNORE: no_gitignore = 1; break;
		default:
			fprintf(stderr, "schedlint: error: unknown option \"%s\" for fmt\n", argv[optind - 1]);
			bad = 1;
		}
	}
	int n = argc - optind;
	/* stdin only when "-" is the input: no PATH means "." (as check), never a pipe by surprise */
	int stdin_mode = n >= 1 && strcmp(argv[optind], "-") == 0;
	for (int i = optind + 1; i < argc; i++)
		if (stdin_mode || strcmp(argv[i], "-") == 0) {
			/* "-" with other inputs: which text goes to stdout? Refused, and a "-" first
			** still gives its buffer back. */
			fputs("schedlint: error: fmt: \"-\" (stdin to stdout) must be the only input\n",
			      stderr);
			bad = 1;
			break;
		}
	if (stdin_name && !stdin_mode && !bad) {
		/* a buffer piped with its name but no "-": not a fmt of ".", and the buffer back */
		fputs("schedlint: error: fmt: --stdin-filename names stdin, which is read only as the "
		      "input \"-\": add - to the inputs\n", stderr);
		bad = 1;
		stdin_mode = !isatty(STDIN_FILENO);
	}
	struct input in = {0};
	int status;
	if (bad) {
		/* Even a usage error gives an editor its buffer back. */
		if (stdin_mode)
			read_all(&in);
		status = stdin_mode ? give_back(&in) : EXIT_USAGE;
	} else if (stdin_mode) {
		status = fmt_stdin(&in, config_path, stdin_name, unsafe, force_exclude, no_project);
	} else if (n == 0) {
		char *here[] = {"."};
		status = fmt_paths(here, 1, config_path, unsafe, force_exclude, no_project, no_gitignore);
	} else {
		status = fmt_paths(argv + optind, n, config_path, unsafe, force_exclude, no_project,
				   no_gitignore);
	}
	free(in.data);
	return status;
}
