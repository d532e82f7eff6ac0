/* SPDX-License-Identifier: Apache-2.0
** main.c: dispatches to the commands; `schedlint PATH...` means `schedlint check PATH...`. */
#include <stdio.h>
#include <string.h>
#include "schedlint/schedlint.h"
#include "cli/cli.h"

void sl_cli_usage(FILE *out)
{
	fputs("schedlint: lint the Kubernetes manifests that place ML inference\n"
	      "(KServe, Knative, Seldon Core 2, Pods, workloads, PriorityClasses)\n"
	      "\n"
	      "Usage:\n"
	      "  schedlint [check] [OPTIONS] [PATH...]   lint files and directories (\"-\" or no PATH\n"
	      "                                          with piped stdin: stdin)\n"
	      "  schedlint fmt [OPTIONS] [PATH...|-]     apply safe fixes; \"-\": stdin to stdout\n"
	      "  schedlint rules [--format text|json|markdown]   list every rule\n"
	      "  schedlint explain RULE                  show a rule's documentation\n"
	      "  schedlint --version | --help\n"
	      "\n"
	      "Options of check:\n"
	      "  -f, --format text|json|sarif|github   output format (default text)\n"
	      "  -o, --output FILE          write the report to FILE instead of stdout\n"
	      "      --stdin-filename NAME  the path stdin stands for (reports, config, exclude)\n"
	      "  -c, --config FILE          use this config (default: the nearest .schedlint.yaml\n"
	      "                             from the current directory up to the repository root)\n"
	      "      --select ID,...        run only these rules or categories\n"
	      "      --ignore ID,...        skip these rules or categories\n"
	      "      --fail-on error|warning|info   lowest severity that fails (default warning)\n"
	      "      --exit-zero            exit 0 even with findings (errors still exit 2)\n"
	      "  -j, --jobs N               files linted in parallel (default: CPUs)\n"
	      "      --color auto|always|never   colour in text output (NO_COLOR respected)\n"
	      "  -q, --quiet                only the summary line\n"
	      "      --statistics           a count per rule before the summary\n"
	      "      --show-notes           each finding's notes (why, upstream error, way out) under it\n"
	      "      --fix                  apply safe fixes in place (atomically)\n"
	      "      --unsafe-fixes         with --fix, --diff or fmt: also unsafe fixes\n"
	      "      --diff                 print the diff the fixes would make; change nothing\n"
	      "\n"
	      "Options of fmt: --stdin-filename NAME, -c FILE, --unsafe-fixes. With \"-\" (or\n"
	      "piped stdin and no PATH) the whole fixed buffer goes to stdout; on any error\n"
	      "the unchanged input does, with exit status 2. Diagnostics go to stderr.\n"
	      "\n"
	      "Exit status: 0 clean, 1 findings at or above --fail-on, 2 usage, config or I/O\n"
	      "error, 3 internal error. A YAML syntax error is a finding (yaml-syntax).\n", out);
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
	}
	return sl_cmd_check(argc, argv);
}
