/* SPDX-License-Identifier: Apache-2.0
** registry.h: the rule table, generated at build time by tools/gen_registry.py from the rule
** files meson lists (rules_table.c, sorted by id). Nothing here is kept by hand. After the
** built-in rules come the rules added while the process runs (spec/custom-rules.md): declared
** under custom-rules: in a config (config.c adds them as it loads one) and plugins' rules. An
** added rule stays until the process ends, so a finding's rule id and a rule's doc stay valid;
** the same declaration loaded again (a config loaded by every run of a long-lived process) is
** the same entry. Index i of sl_registry_at is stable: per-rule arrays (a scope's severities)
** have sl_registry_capacity() entries, and an added rule no scope knows is off there. */
#ifndef SL_REGISTRY_H
#define SL_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include "config/rule_def.h"

struct sl_rule_entry {
	const struct sl_rule *rule;
	const char *doc;        /* the doc block above SL_RULE, as Markdown */
	const char *file;       /* rules/<category>/<id>.c */
};

extern const struct sl_rule_entry sl_registry[];
extern const size_t sl_registry_count;

/* How many added rules the process may hold. */
#define SL_REGISTRY_ADDED_MAX 1024

/* The rules, built-in then added: i from 0 to sl_registry_n() - 1. */
size_t sl_registry_n(void);
const struct sl_rule_entry *sl_registry_at(size_t i);
/* sl_registry_count + SL_REGISTRY_ADDED_MAX: the size of a per-rule array. */
size_t sl_registry_capacity(void);
/* Adds rule (with its Markdown doc and where it was declared, "path:line"; all three must live
** as long as the process). key says what the rule is (its declaration's text, a plugin's path):
** when a rule with the same id and key was added before, its index is returned and *added is
** false (the caller frees its own copy). -1 when SL_REGISTRY_ADDED_MAX rules were added.
** Thread-safe; readers of earlier entries are never disturbed. */
int sl_registry_add(const struct sl_rule *rule, const char *doc, const char *file, const char *key,
		    bool *added);

/* The index of rule id (the first one added with that id), or -1. The built-in table is
** sorted: binary search, then the added rules in order. */
int sl_registry_find(const char *id);

/* True when sel names a rule (its id) or a category: what a suppression, `rules:`, --select
** and --ignore may name. */
bool sl_registry_known(const char *sel);

/* The rule id or category closest in spelling to sel (spelling.h), or NULL when none is close:
** the "did you mean" of every message about an unknown id. */
const char *sl_registry_closest(const char *sel);

#endif
