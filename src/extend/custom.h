/* SPDX-License-Identifier: Apache-2.0
** custom.h: declared rules (spec/custom-rules.md §1), the `custom-rules:` of a config. Each is
** compiled once (its selectors, its JSON Schema with schema.c, its message) and added to the
** registry as a first-class rule: an id with a namespace (the namespace is its category), a
** severity, a summary and a doc; the engine runs it like a built-in rule, on the objects or
** units its match: selects, and it reports where its schema fails on the target's view. */
#ifndef SL_CUSTOM_H
#define SL_CUSTOM_H

#include <stddef.h>
#include "config/config.h"

/* Reads the custom-rules: of cfg (of its own file, else of the first file of its extend: chain
** that has the key), compiles them and adds them to the registry (registry.h: the same
** declaration loaded again is the same entry). *idx gets their registry indices (malloc'd, *n
** of them; NULL and 0 when there are none). SL_ECONFIG with *error_out
** ("path:line:col: error: ...", malloc'd) for a rule that is wrong; SL_ENOMEM. */
sl_err sl_custom_declare(const sl_config *cfg, int **idx, size_t *n, char **error_out);

#endif
