/* SPDX-License-Identifier: Apache-2.0
** cli.h: the schedlint command line, a client of libschedlint. One file per command. */
#ifndef SL_CLI_H
#define SL_CLI_H

/* Exit statuses (spec/cli.md). */
enum { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

int sl_cmd_check(int argc, char **argv);
int sl_cmd_rules(int argc, char **argv);
int sl_cmd_explain(int argc, char **argv);
void sl_cli_usage(FILE *out);

#endif
