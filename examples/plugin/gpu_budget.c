/* SPDX-License-Identifier: Apache-2.0
** gpu_budget.c: an example schedlint plugin, the kind of rule a platform team writes in C
** because no schema can say it: a computed fact. acme/gpu-budget reports a unit whose replicas
** times its GPUs per pod exceed the team's GPU quota (16 here; SCHEDLINT_GPU_BUDGET overrides
** it at run time). Build it against an installed schedlint:
**     cc -shared -fPIC -o gpu_budget.so gpu_budget.c $(pkg-config --cflags schedlint-plugin)
** and run it:
**     schedlint check --plugin ./gpu_budget.so manifests/ */
#include <stdlib.h>
#include <schedlint/rule.h>

SL_PLUGIN_ABI;   /* the rule ABI this plugin was built for, read before it is loaded */

static long long budget(void)
{
	const char *s = getenv("SCHEDLINT_GPU_BUDGET");
	long long b = s ? atoll(s) : 0;
	return b > 0 ? b : 16;
}

static sl_err check_unit(sl_ctx *ctx, const sl_unit *u)
{
	long long gpus = sl_ctx_unit_gpus(ctx, u);
	const sl_node *at = NULL;
	long long replicas = sl_unit_replicas(u, &at);
	if (gpus <= 0 || replicas <= 0 || replicas * gpus <= budget())
		return SL_OK;
	sl_report *r;
	if (at)   /* the replicas the user wrote */
		r = sl_report_at(ctx, at, "%s: %lld replicas x %lld GPUs = %lld GPUs, over the %lld-GPU "
				 "budget", sl_ctx_label(ctx, u), replicas, gpus, replicas * gpus, budget());
	else      /* defaulted replicas: at the unit */
		r = sl_report_key(ctx, sl_unit_pod(u), "%s: %lld replicas x %lld GPUs = %lld GPUs, over "
				  "the %lld-GPU budget", sl_ctx_label(ctx, u), replicas, gpus,
				  replicas * gpus, budget());
	return sl_report_note(ctx, r, "The team's GPU quota is %lld GPUs; lower the replicas or the "
			      "GPUs per pod, or ask for more quota.", budget());
}

static const sl_plugin_rule rules[] = {
	{
		.id = "acme/gpu-budget",
		.summary = "a unit's replicas x GPUs per pod stay within the team's GPU budget",
		.doc = "A unit keeps `replicas` pods running, each with its GPUs: the product must stay\n"
		       "within the team's GPU quota (16 GPUs; `SCHEDLINT_GPU_BUDGET` sets another).\n",
		.severity = SL_SEV_WARNING,
		.check_unit = check_unit,
	},
};

static const sl_plugin plugin = {
	.abi_version = SL_RULE_ABI_VERSION,
	.name = "acme",
	.version = "1.0.0",
	.rules = rules,
	.n_rules = sizeof rules / sizeof rules[0],
};

__attribute__((visibility("default"))) const sl_plugin *schedlint_plugin(unsigned abi_version)
{
	return abi_version == SL_RULE_ABI_VERSION ? &plugin : NULL;
}
