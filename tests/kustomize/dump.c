/* SPDX-License-Identifier: Apache-2.0
** dump.c: prints what schedlint's Kustomize builder (src/render/kustomize/) builds for a
** kustomization, as YAML, for compare.py to set beside `kubectl kustomize`. Usage: dump
** [--load-none] DIR/kustomization.yaml (--load-none: as `kubectl kustomize --load-restrictor
** LoadRestrictionsNone`). The build's own findings go to stderr, "KUSTOMIZATION: FILE:LINE:COL:
** MESSAGE [RULE]" (no FILE:LINE:COL when the finding stands nowhere) and its notes, each line
** indented by four spaces; exit 1 when it does not build. */
#include <stdio.h>
#include <string.h>
#include "lint/engine.h"
#include "yaml/source.h"
#include "render/kustomize/kustomize.h"

int main(int argc, char **argv)
{
	bool load_none = argc == 3 && strcmp(argv[1], "--load-none") == 0;
	if (argc != 2 + load_none) {
		fputs("usage: dump [--load-none] DIR/kustomization.yaml\n", stderr);
		return 2;
	}
	sl_kustomize *k = NULL;
	const char *paths[] = {argv[argc - 1]};
	if (sl_kustomize_plan_seen(paths, 1, 1, NULL, &load_none, &k) != SL_OK) {
		sl_kustomize_free(k);
		return 3;
	}
	int status = 1;
	for (size_t i = 0; i < sl_kustomize_n_builds(k); i++) {
		const char *name, *text;
		size_t len;
		const sl_kustomize_build *b = sl_kustomize_build_at(k, i, &name, &text, &len);
		if (!b) {
			fprintf(stderr, "kustomize_dump: build %zu: its text cannot be read back\n", i);
			return 3;
		}
		for (size_t j = 0; j < sl_kustomize_n_issues(b); j++) {
			const char *rule, *msg, *notes;
			sl_kustomize_origin at;
			sl_kustomize_issue(b, j, &rule, &msg, &notes, &at);
			fprintf(stderr, "%s: ", name);
			if (at.src) {
				uint32_t line, col;
				sl_source_position(at.src, at.start, &line, &col);
				fprintf(stderr, "%s:%u:%u: ", at.src->path, line, col);
			}
			fprintf(stderr, "%s [%s]\n", msg, rule);
			for (const char *l = notes; l && *l; ) {
				const char *nl = strchr(l, '\n');
				int len = nl ? (int)(nl - l) : (int)strlen(l);
				fprintf(stderr, "    %.*s\n", len, l);
				l += len + (nl != NULL);
			}
		}
		if (len) {
			fwrite(text, 1, len, stdout);
			status = 0;
		}
	}
	sl_kustomize_free(k);
	return status;
}
