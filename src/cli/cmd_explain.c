/* SPDX-License-Identifier: Apache-2.0
** cmd_explain.c: `schedlint explain RULE`: one rule's documentation, from the generated
** registry. */
#include <stdio.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

int sl_cmd_explain(int argc, char **argv)
{
	const char *config_path = NULL;
	const char *plugins[16];
	size_t n_plugins = 0;
	while (argc >= 4 && n_plugins < sizeof plugins / sizeof plugins[0]) {
		if (strcmp(argv[1], "-c") == 0 || strcmp(argv[1], "--config") == 0)
			config_path = argv[2];
		else if (strcmp(argv[1], "--plugin") == 0)
			plugins[n_plugins++] = argv[2];
		else
			break;
		argv += 2;
		argc -= 2;
	}
	static const char usage[] =
		"Usage: schedlint explain [-c FILE] [--plugin PATH]... RULE\n"
		"A rule's documentation: what it checks, why, an example, its fix, its options.\n"
		"  -c, --config FILE    the config whose custom-rules: may declare RULE\n"
		"      --plugin PATH    a C plugin whose rules may include RULE (repeatable)\n";
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return EXIT_CLEAN;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	/* a custom rule's doc: declared by -c FILE, else by the nearest .schedlint.yaml */
	int status = sl_cli_declare_rules(config_path, plugins, n_plugins);
	if (status != EXIT_CLEAN)
		return status;
	int i = sl_rule_find(argv[1]);
	if (i < 0) {
		const char *best = sl_rule_closest(argv[1]);
		fputs("schedlint: error: unknown rule \"", stderr);
		sl_escape_put(stderr, argv[1], SL_SINK_TEXT);
		if (best)
			fprintf(stderr, "\"; did you mean \"%s\"? (see `schedlint rules`)\n", best);
		else
			fputs("\" (see `schedlint rules`)\n", stderr);
		return EXIT_USAGE;
	}
	sl_rule_info r = SL_RULE_INFO_INIT;
	sl_rule_get((size_t)i, &r);
	/* a declared rule's text is the repository's: escaped as check escapes a message */
	fputs("# ", stdout);
	sl_cli_put_lines(stdout, r.id);
	fputs("\n\n", stdout);
	sl_cli_put_lines(stdout, r.summary);
	fputs("\n\n", stdout);
	sl_cli_rule_facts(stdout, (size_t)i, &r);
	fputs("\n", stdout);
	sl_cli_put_lines(stdout, r.doc);
	fputs("\n", stdout);
	return EXIT_CLEAN;
}
