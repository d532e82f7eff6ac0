/* SPDX-License-Identifier: Apache-2.0
** escape.h: the one place where bytes that come from a manifest or a file name are escaped for
** the place they are written to. Every reporter of the library and every message of the command
** line that carries such bytes goes through it, so a value or a file name can neither end a
** line, start a GitHub workflow command, send a terminal escape, reorder text with a bidi
** control, nor make a JSON, SARIF or XML document invalid. A program that prints findings
** (their paths, messages, notes: bytes from the manifests) uses it too.
**
** What each sink does (byte sequences that are not valid UTF-8 are taken byte by byte):
** - SL_SINK_TEXT (text report, stderr, any terminal or CI log): a valid UTF-8 character is kept,
**   except C0 controls and DEL (\t \n \r as "\t" "\n" "\r", the others as "\xHH"), C1 controls
**   and the bidi and line-separator controls (U+061C, U+200E, U+200F, U+2028..U+202E,
**   U+2066..U+2069, as "\uHHHH"); a byte that is not valid UTF-8 becomes "\xHH". "##[" (the
**   runner's legacy command marker, recognised anywhere in a line) becomes "\x23#[".
**   SL_SINK_TEXT_LINE is the same for a string that starts a line (a path at the start of a
**   report line): a leading "::" (after spaces) becomes "\x3a:", so it never starts a command.
** - SL_SINK_GITHUB_DATA / SL_SINK_GITHUB_PROP: what @actions/core does ("%" -> %25, CR -> %0D,
**   LF -> %0A, and in a property also ":" -> %3A, "," -> %2C), then as SL_SINK_TEXT for the
**   other controls, invalid bytes and "##[".
** - SL_SINK_XML (attribute values and text): & < > " ' as entities, \t \n \r as character
**   references; what XML 1.0 cannot hold (other C0 controls, U+FFFE, U+FFFF, invalid bytes)
**   as the text "\xHH" / "\uHHHH"; C1 and bidi controls as character references.
** - SL_SINK_MARKDOWN (a GitHub-flavoured Markdown table cell): as SL_SINK_TEXT for the controls
**   and invalid bytes, but LF as "<br>"; & < > as entities; \ ` * _ [ ] | ~ @ ! # backslash-
**   escaped, so a value can neither end the cell or the row, nor start code, emphasis, a link,
**   an HTML tag or a mention.
** - SL_SINK_DIFF (a path in "--- PATH" / "+++ PATH" headers): as SL_SINK_TEXT_LINE.
** - SL_SINK_JSON (the text of a JSON string, before a JSON writer escapes it): JSON strings are
**   Unicode text: s is kept as it is when it is valid UTF-8, and otherwise each byte that is
**   not part of a valid UTF-8 sequence becomes U+FFFD, so a non-UTF-8 file name never
**   truncates or empties a report (docs/json-output.md, "Strings"). */
#ifndef SCHEDLINT_ESCAPE_H
#define SCHEDLINT_ESCAPE_H

#include <stdio.h>
#include "schedlint/export.h"

/* Values are appended, never renumbered. */
typedef enum sl_sink {
	SL_SINK_TEXT,
	SL_SINK_TEXT_LINE,
	SL_SINK_GITHUB_DATA,
	SL_SINK_GITHUB_PROP,
	SL_SINK_XML,
	SL_SINK_DIFF,
	SL_SINK_MARKDOWN,
	SL_SINK_JSON,
} sl_sink;

/* Writes s (NULL writes nothing) escaped for sink; "?" in its place when out of memory. */
SL_API void sl_escape_put(FILE *out, const char *s, sl_sink sink);
/* s escaped for sink, malloc'd; NULL when out of memory (or s is NULL). */
SL_API char *sl_escape_str(const char *s, sl_sink sink);

#endif
