/* SPDX-License-Identifier: Apache-2.0
** config.h: the .schedlint.yaml configuration (docs/configuration.md).
** A configuration is immutable once loaded and may be shared by several runs. */
#ifndef SCHEDLINT_CONFIG_H
#define SCHEDLINT_CONFIG_H

#include <stdio.h>
#include "schedlint/error.h"
#include "schedlint/finding.h"

typedef struct sl_config sl_config;

/* Loads the configuration file at path.
** \param[out] out        the caller-owned config (free with sl_config_free); untouched on failure
** \param[out] error_out  on SL_ECONFIG/SL_EIO, a malloc'd message "path:line:col: error: ..." naming
**                        the offending key (free with free()); may be NULL
** \return SL_OK, SL_EIO (unreadable), SL_ECONFIG (unknown key, wrong type, bad value), SL_ENOMEM */
SL_API sl_err sl_config_load(const char *path, sl_config **out, char **error_out);

/* A configuration with every default (as if the file were empty). */
SL_API sl_err sl_config_new_default(sl_config **out);

/* Finds the nearest .schedlint.yaml from start_dir upwards, stopping after the directory that
** holds .git (the repository root) or at /. *path_out is malloc'd: relative to the working
** directory when the config is under it, else absolute. SL_ENOTFOUND when none. */
SL_API sl_err sl_config_discover(const char *start_dir, char **path_out);

/* The config a file or directory is linted under when the run is not given one: config_path
** when it is not NULL; else the nearest .schedlint.yaml (sl_config_discover) from path, a
** directory, or from the directory of path, a file (which need not exist); from the working
** directory when path is NULL or that directory does not exist; else the defaults. *out and
** *error_out as sl_config_load's (and sl_config_new_default's). */
SL_API sl_err sl_config_find(const char *config_path, const char *path, sl_config **out,
			     char **error_out);

/* The config's fail-on severity, or -1 when it does not set one. */
SL_API int sl_config_fail_on(const sl_config *cfg);

/* Writes cfg resolved, as YAML, to out: every setting with its value and, in a comment, the
** file:line of the config (in the extend: chain) that sets it, or "default" (`--show-settings`).
** SL_EIO when writing fails; SL_EUSAGE for a NULL argument. */
SL_API sl_err sl_config_show(const sl_config *cfg, FILE *out);
/* The config's render.helm-chart (docs/rendered.md): the chart directory rendered input maps
** back to, joined to the directory of the config that sets it; NULL when unset. Owned by cfg. */
SL_API const char *sl_config_helm_chart(const sl_config *cfg);
/* Frees cfg; NULL is a no-op. */
SL_API void sl_config_free(sl_config *cfg);

#endif
