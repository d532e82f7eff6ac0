/* SPDX-License-Identifier: Apache-2.0
** marked.c: a plugin for this ABI whose constructor leaves a mark: named by a config's plugins:,
** it must not be loaded (no mark) unless the run allows plugins. One rule, acme/no-node-name,
** with an unsafe fix through the SDK. */
#include <stdio.h>
#include <stdlib.h>
#include <schedlint/rule.h>

SL_PLUGIN_ABI;

__attribute__((constructor)) static void ran(void)
{
	const char *mark = getenv("PLUGIN_MARK");
	FILE *fp = mark ? fopen(mark, "w") : NULL;
	if (fp)
		fclose(fp);
}

static sl_err check_unit(sl_ctx *ctx, const sl_unit *u)
{
	const sl_node *n = sl_map_get(sl_unit_pod(u), "nodeName");
	if (!n)
		return SL_OK;
	sl_report *r = sl_report_at(ctx, n, "%s pins nodeName %s", sl_ctx_label(ctx, u), sl_scalar(n));
	if (r && sl_fix_remove(ctx, r, n))
		return sl_fix_describe(ctx, r, SL_FIX_UNSAFE, "remove nodeName: the scheduler places the pod");
	return SL_OK;
}

static const sl_plugin_rule rules[] = {
	{.id = "acme/no-node-name", .summary = "no unit pins a node", .severity = SL_SEV_ERROR,
	 .fix = SL_FIX_UNSAFE, .check_unit = check_unit},
};
static const sl_plugin plugin = {SL_RULE_ABI_VERSION, "marked", "1", rules, 1};

const sl_plugin *schedlint_plugin(unsigned abi_version)
{
	return abi_version == SL_RULE_ABI_VERSION ? &plugin : NULL;
}
