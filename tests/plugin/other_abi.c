/* SPDX-License-Identifier: Apache-2.0
** other_abi.c: a plugin built for another rule ABI (999), whose constructor leaves a mark: the
** loader must refuse it, naming both versions, without running any of its code. */
#include <stdio.h>
#include <stdlib.h>
#include <schedlint/rule.h>

__attribute__((used, section("schedlint_abi")))
const sl_plugin_abi schedlint_plugin_abi = {SL_PLUGIN_ABI_MAGIC, 999};

__attribute__((constructor)) static void ran(void)
{
	const char *mark = getenv("PLUGIN_MARK");
	FILE *fp = mark ? fopen(mark, "w") : NULL;
	if (fp)
		fclose(fp);
}

const sl_plugin *schedlint_plugin(unsigned abi_version)
{
	(void)abi_version;
	return NULL;
}
