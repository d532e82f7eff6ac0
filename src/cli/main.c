/* SPDX-License-Identifier: Apache-2.0
** main.c: dispatches to the commands; `schedlint PATH...` means `schedlint check PATH...`. */
#include <stdio.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

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
	}
	return sl_cmd_check(argc, argv);
}
