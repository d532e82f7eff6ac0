/* SPDX-License-Identifier: Apache-2.0
** cmd_server.c: `schedlint server`, the language server over stdin and stdout (cli/lsp/server.c).
** Standard output carries the protocol only: it is moved to a descriptor of its own and fd 1
** pointed at stderr, so nothing printed by mistake can corrupt a message. A client that goes
** away (SIGPIPE) ends the server as its input closing does. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "cli/lsp/lsp.h"

int sl_cmd_server(int argc, char **argv)
{
	sl_lsp_server_options o = {.debounce_ms = 50};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--stdio") == 0)
			continue;   /* what most clients pass: stdio is the only transport */
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			puts("Usage: schedlint server [--stdio] [--debounce-ms N]\n"
			     "The language server (LSP 3.17) over stdin and stdout: diagnostics as you "
			     "type,\nquick fixes, formatting (= fmt) and the rules' docs on hover. "
			     "Logs go to stderr.\n"
			     "  --stdio            stdin/stdout, the only transport (clients pass it)\n"
			     "  --debounce-ms N    wait N ms after an edit before linting (0-10000; default 50)");
			return EXIT_CLEAN;
		}
		if (strcmp(argv[i], "--debounce-ms") == 0 && i + 1 < argc) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 0 || v > 10000) {
				fprintf(stderr, "schedlint: error: --debounce-ms takes 0 to 10000, not \"%s\"\n",
					argv[i]);
				return EXIT_USAGE;
			}
			o.debounce_ms = (int)v;
			continue;
		}
		fprintf(stderr, "schedlint: error: unknown argument \"%s\" for server (it speaks LSP on "
			"stdin and stdout)\n", argv[i]);
		return EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);   /* a write to a client that left fails; the loop ends */
	fflush(stdout);
	int out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		perror("schedlint server");
		return EXIT_INTERNAL;
	}
	int status = sl_lsp_server_run(STDIN_FILENO, out, &o);
	close(out);
	return status;
}
