/* SPDX-License-Identifier: Apache-2.0
** edit.h: fixes as byte-range edits on the original text (never a re-emission through an
** emitter, which would drop comments and layout). This module validates and applies edits,
** picks a compatible set of fixes when they overlap, renders inserted YAML in the file's own
** style (indent width, sequence indentation, quoting, line endings); write.h writes the
** fixed files. */
#ifndef SL_EDIT_H
#define SL_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "schedlint/finding.h"
#include "yaml/source.h"
#include "yaml/yaml_tree.h"

/* The layout a file uses, detected once per file and followed by inserted text. */
typedef struct sl_style {
	uint16_t indent;         /* spaces per nesting level (default 2) */
	bool indent_sequences;   /* "- " items indented under their key (else at the key's column) */
	char quote;              /* '"' or '\'' : the quote the file uses most */
	bool crlf;               /* lines end in "\r\n" (else "\n") */
} sl_style;
#define SL_STYLE_EOL(st) ((st)->crlf ? "\r\n" : "\n")

void sl_edit_style_detect(const sl_source *src, sl_style *out);

/* Applies edits (any order; they must not overlap and must lie inside data[0..len)) to data.
** *out is malloc'd and NUL-terminated. SL_EUSAGE when the edits are invalid. */
sl_err sl_edit_apply(const char *data, size_t len, const sl_edit *const *edits, size_t n,
		      char **out, size_t *out_len);
/* True when edits a and b touch the same bytes (two insertions at one offset count). */
bool sl_edit_overlap(const sl_edit *a, const sl_edit *b);

/* The edits accepted for one file, kept sorted in application order and never overlapping, so
** a fix is tried against them in O(log n) and the round's bookkeeping stays linear in the
** number of fixes (the edits are borrowed). */
typedef struct sl_edit_set { const sl_edit **v; size_t n, cap; } sl_edit_set;
/* True when e overlaps no edit of s. */
bool sl_edit_set_fits(const sl_edit_set *s, const sl_edit *e);
/* Adds e, which must fit. SL_ENOMEM. */
sl_err sl_edit_set_add(sl_edit_set *s, const sl_edit *e);
void sl_edit_set_free(sl_edit_set *s);

/* Rendering of inserted YAML. A fragment is YAML written with two-space indentation from
** column 0 ("nvidia.com/gpu: 1", or "- key: x\n  operator: Exists"); it is re-indented to the
** file's style. The results are arena strings; NULL when the insertion is declined (a flow
** collection that cannot take a block fragment) or memory ran out. */

/* s as a YAML scalar that reads back as the string s in block and flow context alike (under
** YAML 1.1, as Kubernetes decodes): plain when that is safe, else quoted (sl_edit_render_quoted).
** Every value a fix inserts goes through it. NULL when s is not UTF-8 (no YAML can hold it) or
** memory ran out. */
const char *sl_edit_render_scalar(sl_arena *a, char quote, const char *s);
/* s quoted: with quote ('\'' or '"') when that quote can hold it (single quotes double an
** inner "'"; a control or line-breaking character needs double quotes), else double-quoted with
** YAML escapes. NULL when s is not UTF-8 or memory ran out. */
const char *sl_edit_render_quoted(sl_arena *a, char quote, const char *s);

/* Text and offset that add `key: fragment` as the last entry of mapping map (key is a string,
** rendered with sl_edit_render_scalar; fragment is YAML text). */
const char *sl_edit_render_map_entry(sl_arena *a, const sl_source *src, const sl_style *st,
				const sl_node *map, const char *key, const char *fragment,
				size_t *offset);
/* Text and offset that add an item (fragment without the leading "- ") at the end of seq. */
const char *sl_edit_render_seq_item(sl_arena *a, const sl_source *src, const sl_style *st,
			       const sl_node *seq, const char *fragment, size_t *offset);
/* The byte range that removes a mapping entry (key node given) or a sequence item, with its
** line(s) when it stands on lines of its own, or its separator in a flow collection. */
bool sl_edit_render_removal(const sl_source *src, const sl_node *n, size_t *start, size_t *end);
/* The column (0-based, in bytes) of the line holding offset's first non-blank character. */
size_t sl_edit_line_indent(const sl_source *src, size_t offset);

#endif
