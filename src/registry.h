/* SPDX-License-Identifier: Apache-2.0
** registry.h: the rule table, generated at build time by tools/gen_registry.py from the rule
** files meson lists (rules_table.c, sorted by id). Nothing here is kept by hand. */
#ifndef SL_REGISTRY_H
#define SL_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include "rule.h"

struct sl_rule_entry {
	const struct sl_rule *rule;
	const char *doc;        /* the doc block above SL_RULE, as Markdown */
	const char *file;       /* rules/<category>/<id>.c */
};

extern const struct sl_rule_entry sl_registry[];
extern const size_t sl_registry_count;

/* The index of rule id in sl_registry, or -1. Binary search: the table is sorted. */
int sl_registry_find(const char *id);

/* True when sel names a rule (its id) or a category: what a suppression, `rules:`, --select
** and --ignore may name. */
bool sl_registry_known(const char *sel);

/* The rule id or category closest in spelling to sel (spelling.h), or NULL when none is close:
** the "did you mean" of every message about an unknown id. */
const char *sl_registry_closest(const char *sel);

#endif
