/* SPDX-License-Identifier: Apache-2.0
** finding.c: severity names, shared by the config, the engine and the reporters. */
#include <string.h>
#include "schedlint/finding.h"

static const char *const severity_names[] = {
	[SL_SEV_OFF] = "off",
	[SL_SEV_INFO] = "info",
	[SL_SEV_WARNING] = "warning",
	[SL_SEV_ERROR] = "error",
};

const char *sl_severity_name(sl_severity sev)
{
	if ((unsigned)sev > SL_SEV_ERROR)
		return "unknown";
	return severity_names[sev];
}

int sl_severity_parse(const char *name)
{
	for (int i = 0; i <= SL_SEV_ERROR; i++)
		if (strcmp(name, severity_names[i]) == 0)
			return i;
	return -1;
}
