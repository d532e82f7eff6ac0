/* SPDX-License-Identifier: Apache-2.0
** dump.c: prints what schedlint's Kustomize builder (src/kustomize.c) builds for a
** kustomization, as YAML, for compare.py to set beside `kubectl kustomize`. Usage: dump
** [--load-none] DIR/kustomization.yaml (--load-none: as `kubectl kustomize --load-restrictor
** LoadRestrictionsNone`). The build's own findings go to stderr, "MESSAGE [RULE]"; exit 1 when
** it does not build. */
#include <stdio.h>
#include <string.h>
#include "engine.h"
#include "kustomize.h"

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
		for (size_t j = 0; j < sl_kustomize_n_issues(b); j++) {
			const char *rule, *msg;
			sl_kustomize_issue(b, j, &rule, &msg);
			fprintf(stderr, "%s: %s [%s]\n", name, msg, rule);
		}
		if (len) {
			fwrite(text, 1, len, stdout);
			status = 0;
		}
	}
	sl_kustomize_free(k);
	return status;
}
