/* SPDX-License-Identifier: Apache-2.0
** stream.c: writing a JSON document whose big arrays (findings, results, files) are written one
** element at a time, so a report over a large run never holds every element as a jansson value.
** The document is laid out exactly as json_dumpf(JSON_INDENT(2) | JSON_PRESERVE_ORDER) would:
** the skeleton is dumped with each big array empty, and the elements are dumped one by one and
** indented to their depth where the skeleton says "key": []. */
#include <stdlib.h>
#include <string.h>
#include "output/output.h"

#define FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER)

/* Writes the dump of v with `indent` more spaces after each line break (a JSON string never
** holds a raw line break), and frees v. */
static int put_value(FILE *out, json_t *v, size_t indent)
{
	char *s = v ? json_dumps(v, FLAGS | JSON_ENCODE_ANY) : NULL;
	json_decref(v);
	if (!s)
		return -1;
	for (const char *p = s, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl) {
			fputs(p, out);
			break;
		}
		fwrite(p, 1, (size_t)(nl - p) + 1, out);
		fprintf(out, "%*s", (int)indent, "");
	}
	free(s);
	return 0;
}

sl_err sl_stream_write_json(FILE *out, json_t *skeleton, const sl_json_array *arrays,
			      size_t n_arrays)
{
	char *s = skeleton ? json_dumps(skeleton, FLAGS) : NULL;
	json_decref(skeleton);
	if (!s)
		return SL_ENOMEM;
	const char *p = s;
	sl_err err = SL_OK;
	for (size_t a = 0; a < n_arrays && !err; a++) {
		/* "key": [] on a line of its own, after the previous array; the document itself
		** when the key is NULL */
		char pat[128];
		snprintf(pat, sizeof pat, arrays[a].key ? "\"%s\": []" : "[]",
			 arrays[a].key ? arrays[a].key : "");
		const char *at = arrays[a].key ? strstr(p, pat) : strcmp(s, "[]") == 0 ? s : NULL;
		while (arrays[a].key && at && (at == s || at[-1] != ' '))
			at = strstr(at + 1, pat);
		if (!at) {
			err = SL_EINTERNAL;
			break;
		}
		const char *line = at;
		while (line > s && line[-1] == ' ')
			line--;
		size_t depth = (size_t)(at - line) + 2;   /* the elements' indentation */
		const char *open = at + strlen(pat) - 1;   /* the ']' of "[]" */
		fwrite(p, 1, (size_t)(open - p), out);
		for (size_t i = 0; i < arrays[a].n && !err; i++) {
			fprintf(out, "%s%*s", i ? ",\n" : "\n", (int)depth, "");
			if (put_value(out, arrays[a].item(arrays[a].payload, i), depth) != 0)
				err = SL_ENOMEM;
		}
		if (arrays[a].n)
			fprintf(out, "\n%*s", (int)(depth - 2), "");
		p = open;   /* "]" and what follows */
	}
	if (!err) {
		fputs(p, out);
		fputc('\n', out);
	}
	free(s);
	return err ? err : ferror(out) ? SL_EIO : SL_OK;
}
