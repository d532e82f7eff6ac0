/* SPDX-License-Identifier: Apache-2.0
** main.c: dispatches to the commands; `schedlint PATH...` means `schedlint check PATH...`. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

static const char *const commands[] = {"check", "fmt", "rules", "explain", "placement", "server",
				       "help"};

/* `schedlint chek apps`: a first word that is no file or directory but a misspelt command is
** a usage error that names the command, not a path that cannot be read. */
static bool unknown_command(const char *word)
{
	struct stat st;
	if (word[0] == '-' || strchr(word, '/') || strchr(word, '.') || stat(word, &st) == 0)
		return false;
	const char *best = sl_spelling_closest(word, commands, sizeof commands / sizeof *commands);
	if (!best)
		return false;
	fputs("schedlint: error: unknown command \"", stderr);
	sl_escape_put(stderr, word, SL_SINK_TEXT);
	fprintf(stderr, "\"; did you mean `schedlint %s`?\nTry 'schedlint --help'.\n", best);
	return true;
}

int main(int argc, char **argv)
{
	if (argc >= 2) {
		const char *c = argv[1];
		if (strcmp(c, "--help") == 0 || strcmp(c, "-h") == 0 || strcmp(c, "help") == 0) {
			sl_cli_usage(stdout);
			return EXIT_CLEAN;
		}
		if (strcmp(c, "--version") == 0 || strcmp(c, "-V") == 0) {
			printf("schedlint %s\n", sl_version());
			return EXIT_CLEAN;
		}
		if (strcmp(c, "check") == 0)
			return sl_cmd_check(argc - 1, argv + 1);
		if (strcmp(c, "fmt") == 0)
			return sl_cmd_fmt(argc - 1, argv + 1);
		if (strcmp(c, "rules") == 0)
			return sl_cmd_rules(argc - 1, argv + 1);
		if (strcmp(c, "explain") == 0)
			return sl_cmd_explain(argc - 1, argv + 1);
		if (strcmp(c, "placement") == 0)
			return sl_cmd_placement(argc - 1, argv + 1);
		if (strcmp(c, "server") == 0)
			return sl_cmd_server(argc - 1, argv + 1);
		if (unknown_command(c))
			return EXIT_USAGE;
	}
	return sl_cmd_check(argc, argv);
}
