/* SPDX-License-Identifier: Apache-2.0
** fingerprint.c: the fingerprint of each finding, shared by the reports that track findings
** across runs (SARIF's partialFingerprints, GitLab Code Quality's fingerprint). It is keyed on
** the rule, the object's identity (apiVersion, kind, namespace, name) and the JSON pointer,
** never on a line, column or document index, so it survives edits elsewhere in the file. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "output/output.h"
#include "util/sha256.h"

/* A field of the fingerprint: its length first, so no separator can be forged by a name. */
static void sha256_field(sl_sha256 *s, const char *v)
{
	char len[24];
	int n = snprintf(len, sizeof len, "%zu:", v ? strlen(v) : (size_t)0);
	sl_sha256_update(s, v ? len : "-:", v ? (size_t)n : 2);
	if (v)
		sl_sha256_update(s, v, strlen(v));
}

/* The hash of a finding: rule, object identity and pointer, nothing positional. */
static void fingerprint(const sl_finding *f, char hex[65])
{
	sl_sha256 s;
	sl_sha256_init(&s);
	sha256_field(&s, "schedlint/v1");
	sha256_field(&s, f->rule);
	sha256_field(&s, f->api_version);
	sha256_field(&s, f->kind);
	sha256_field(&s, f->namespace_);
	sha256_field(&s, f->name);
	sha256_field(&s, f->pointer);
	sl_sha256_hex(&s, hex);
}

/* Findings are sorted by path, so a file's findings are contiguous; within one, (hash, index)
** order gives each duplicate its k. */
typedef struct fp_slot {
	char hash[65];
	size_t file, index;
} fp_slot;

static int fp_cmp(const void *a, const void *b)
{
	const fp_slot *x = a, *y = b;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	int c = strcmp(x->hash, y->hash);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

sl_fingerprint *sl_fingerprint_all(const sl_output_run *run)
{
	size_t n = run->n_findings;
	sl_fingerprint *fp = sl_xcalloc(n ? n : 1, sizeof *fp);
	fp_slot *slot = sl_xcalloc(n ? n : 1, sizeof *slot);
	if (!fp || !slot) {
		free(fp);
		free(slot);
		return NULL;
	}
	size_t file = 0;
	for (size_t i = 0; i < n; i++) {
		const sl_finding *f = run->findings[i];
		if (i && strcmp(run->findings[i - 1]->path, f->path) != 0)
			file++;
		fingerprint(f, slot[i].hash);
		slot[i].file = file;
		slot[i].index = i;
	}
	qsort(slot, n, sizeof *slot, fp_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		bool same = i && slot[i].file == slot[i - 1].file &&
			    strcmp(slot[i].hash, slot[i - 1].hash) == 0;
		k = same ? k + 1 : 1;
		snprintf(fp[slot[i].index].partial, sizeof fp[0].partial, "%s:%zu", slot[i].hash, k);
	}
	free(slot);
	for (size_t i = 0; i < n; i++) {
		sl_sha256 s;
		sl_sha256_init(&s);
		sha256_field(&s, run->findings[i]->path);
		sha256_field(&s, fp[i].partial);
		sl_sha256_hex(&s, fp[i].global);
	}
	return fp;
}
