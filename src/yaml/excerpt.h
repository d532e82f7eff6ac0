/* SPDX-License-Identifier: Apache-2.0
** excerpt.h: a text with some of its ranges left out, parsed in its place. Each range left out
** keeps its line breaks ("\n" and "\r", as libyaml reads them), so the excerpt has the text's
** lines, and a parse of it sees what a parse of the text with those ranges blanked (spaces for
** every other byte) sees, without scanning the blanks: a 4 MB file of CRDs read for one
** ConfigMap costs libyaml that ConfigMap. sl_excerpt_offset maps an offset of the excerpt
** back to the text, and sl_excerpt_shift moves a tree parsed from the excerpt onto the text:
** the same nodes and offsets as the blanked text's parse, and the documents' indices the whole
** text's parse gives them (a first document left out, before any "---", still counts: the
** blanked text's parse would not see it). */
#ifndef SL_EXCERPT_H
#define SL_EXCERPT_H

#include <stddef.h>
#include "yaml/source.h"
#include "yaml/yaml_tree.h"

typedef struct sl_excerpt sl_excerpt;

/* The excerpt of t[0..n) without the ranges [drop[2i], drop[2i+1]) (sorted, disjoint, i <
** n_drops), each but its line breaks; a range that starts at 0 and holds more than blanks and
** comments is taken for the text's first document (whole: it ends where a "---" line starts or
** at n). *out is NULL (and SL_OK) when that leaves out nothing. SL_ENOMEM. The excerpt reads t
** again (sl_excerpt_offset, sl_excerpt_shift): t outlives it. */
sl_err sl_excerpt_make(const char *path, const char *t, size_t n, const size_t *drop,
		       size_t n_drops, sl_excerpt **out);
/* The excerpt's text, to parse (indexed). */
const sl_source *sl_excerpt_text(const sl_excerpt *x);
/* The text's offset of the excerpt's offset at: a place where bytes were left out is the
** place after them (where a parse of the blanked text puts an empty node or a document's
** end: at the next token). */
size_t sl_excerpt_offset(const sl_excerpt *x, size_t at);
/* Moves tree t, parsed from x's text, onto the text src it is an excerpt of: every node's
** start and end (aliases' own, never their targets', merged entries never visited twice) and
** every document's; each document's src becomes src. */
void sl_excerpt_shift(const sl_excerpt *x, sl_tree *t, const sl_source *src);
void sl_excerpt_free(sl_excerpt *x);

#endif
