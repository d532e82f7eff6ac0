/* SPDX-License-Identifier: Apache-2.0
** run_suppress.c: `--add-suppressions` (lint.h, sl_run_suppress): a suppression comment
** for each current finding, written into the files' text as a fix is (the caller writes it with
** sl_run_file_write: the same atomic path), every other byte kept. */
#include <stdlib.h>
#include <string.h>
#include "schedlint/lint.h"
#include "config/registry.h"
#include "driver/fixer.h"
#include "driver/run.h"
#include "util/strbuf.h"

/* True when a directive may silence rule ri: yaml-syntax never is (a broken file is never
** hidden), and the suppressions' own rules would only suppress themselves. */
static bool suppressible(const char *rule)
{
	int ri = sl_registry_find(rule);
	const char *category = ri >= 0 ? sl_registry_at((size_t)ri)->rule->category : "";
	return strcmp(rule, "yaml-syntax") != 0 && strcmp(category, "suppressions") != 0;
}

/* True when the line [s, e) holds a '#' that may start a comment (after a blank, or first):
** a directive is then put alone on the line above instead of after it. */
static bool has_comment(const char *s, const char *e)
{
	for (const char *p = s; p < e; p++)
		if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t'))
			return true;
	return false;
}

/* The ids of the findings of file path on 1-based line, comma-separated, each once, into b. */
static bool ids_on(const sl_run *run, const char *path, uint32_t line, sl_strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
	for (size_t i = 0; i < run->passes.n_sorted; i++) {
		const sl_finding *f = &run->passes.sorted[i]->pub;
		if (f->line != line || strcmp(f->path, path) != 0 || !suppressible(f->rule))
			continue;
		size_t n = strlen(f->rule);
		bool seen = false;
		for (const char *p = b->s; p && !seen && (p = strstr(p, f->rule)); p += n)
			seen = (p == b->s || p[-1] == ',') && (p[n] == ',' || p[n] == '\0');
		if (!seen && !sl_strbuf_addf(b, "%s%s", b->len ? "," : "", f->rule))
			return false;
	}
	return true;
}

/* f's text with a directive for each line that has findings: *out (NULL when none). */
static sl_err suppressed_text(const sl_run *run, const sl_file *f, const char *reason,
			      sl_strbuf *out, size_t *added)
{
	const char *d = f->src->data, *end = d + f->src->len;
	sl_strbuf ids = {0};
	uint32_t line = 1;
	bool ok = true;
	for (const char *s = d; ok && s < end; line++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end, *eol = e > s && e[-1] == '\r' ? e - 1 : e;
		ok = ids_on(run, f->path, line, &ids);
		if (ok && ids.len) {
			(*added)++;
			if (has_comment(s, eol)) {   /* alone on the line above, at its indentation */
				size_t indent = strspn(s, " \t");
				ok = sl_strbuf_add(out, s, indent < (size_t)(eol - s) ? indent : 0) &&
				     sl_strbuf_addf(out, "# schedlint: ignore[%s] %s%s", ids.s, reason,
						    eol < e ? "\r\n" : "\n") &&
				     sl_strbuf_add(out, s, (size_t)(e - s));
			} else {
				ok = sl_strbuf_add(out, s, (size_t)(eol - s)) &&
				     sl_strbuf_addf(out, "  # schedlint: ignore[%s] %s", ids.s, reason) &&
				     sl_strbuf_add(out, eol, (size_t)(e - eol));
			}
		} else if (ok) {
			ok = sl_strbuf_add(out, s, (size_t)(e - s));
		}
		if (ok && nl)
			ok = sl_strbuf_addch(out, '\n', 1);
		s = nl ? nl + 1 : end;
	}
	sl_strbuf_free(&ids);
	return ok ? SL_OK : SL_ENOMEM;
}

sl_err sl_run_suppress(sl_run *run, const char *reason, size_t *added)
{
	if (!run->linted || run->passes.eng.stream)
		return SL_EUSAGE;   /* a streamed run has let go of its texts */
	if (!reason || !*reason)
		reason = "existing finding";
	if (strchr(reason, '\n') || strchr(reason, '\r'))
		return SL_EUSAGE;   /* a comment is one line */
	size_t n = 0;
	sl_err err = SL_OK;
	for (size_t k = 0; k < run->n_shown && !err; k++) {
		sl_file *f = run->passes.eng.files[run->shown[k]];
		if (!f->src || f->error)
			continue;
		size_t before = n;
		sl_strbuf out = {0};
		err = suppressed_text(run, f, reason, &out, &n);
		sl_source *ns = NULL;
		if (!err && n > before)
			err = sl_source_from_buffer(f->path, out.s ? out.s : "", out.len, &ns);
		sl_strbuf_free(&out);
		if (ns)
			sl_fixer_replace(f, ns);   /* as a fix does: the text as read kept */
	}
	if (added)
		*added = n;
	return err;
}
