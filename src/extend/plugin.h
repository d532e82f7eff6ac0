/* SPDX-License-Identifier: Apache-2.0
** plugin.h: C plugins (spec/custom-rules.md §2): shared objects written against the public rule
** SDK (include/schedlint/rule.h), whose rules are added to the registry. */
#ifndef SL_PLUGIN_H
#define SL_PLUGIN_H

#include <stddef.h>
#include "schedlint/error.h"

/* Loads the plugin at path and adds its rules to the registry; *idx gets their registry
** indices (malloc'd, *n of them). Before any of the plugin's code runs (a shared object's
** constructors run when it is loaded), the ABI it was built for is read from its ELF section
** "schedlint_abi" (SL_PLUGIN_ABI): a file without one, or built for another ABI, is refused
** with both versions named, and never loaded. A plugin loaded again (another scope, another
** run of the process) is the same: dlopen returns it, the registry the same entries.
** SL_ECONFIG / SL_EIO with *error_out ("path: error: ...", malloc'd); SL_ENOMEM. */
sl_err sl_plugin_load(const char *path, int **idx, size_t *n, char **error_out);

#endif
