/* SPDX-License-Identifier: Apache-2.0
** batch-outranks-serving: a batch workload has a higher priority than a serving unit among the
** linted files. One finding per batch workload, at its priorityClassName. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a batch workload (a kind listed in `cluster.batch-kinds`, default Job, CronJob, and
 * the kinds that train or run to completion: RayJob, RayCronJob, JobSet, TrainJob, the Kubeflow
 * v1 jobs PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob and JAXJob, SparkApplication and
 * ScheduledSparkApplication; a Volcano Job is a `Job`) whose priority is higher than the
 * priority of a serving unit among the linted files (the placement units of InferenceServices,
 * Knative Services and Configurations, Seldon Servers, LLMInferenceServices, InferenceGraphs,
 * RayServices, LeaderWorkerSets and KAITO Workspaces; InferenceServices in ModelMesh mode run no
 * pods of their own and are left out). Every unit of a batch workload is judged: a RayJob's
 * head, worker groups and submitter, each replicated job of a JobSet, each replica type of a
 * Kubeflow job, a Volcano Job's tasks (a task without `priorityClassName` runs at the Job's,
 * `createJobPod`). Priorities resolve through the built-in classes, the
 * PriorityClasses among the linted files and `cluster.priority-classes`; a unit without
 * `priorityClassName` gets the `globalDefault` class's value (the lowest-valued one if several
 * are marked, as admission picks), else 0. A Seldon Server without one inherits its
 * ServerConfig's when that is among the linted files (the Server's podSpec is merged over it).
 * Units whose class cannot be resolved are skipped (`priority-class-not-found` covers them).
 *
 * One finding per batch workload, at its `priorityClassName`, naming the lowest-priority serving
 * unit it outranks (the first in file order on a tie) and how many others it outranks. A batch
 * workload without `priorityClassName` is not reported: it runs at the cluster default, and a
 * serving unit set below the default is that unit's own choice. Batch kinds schedlint does not
 * model have no placement unit and are not seen.
 *
 * ## Why is this bad?
 * The scheduler orders its queue by priority and, when a higher-priority pod does not fit,
 * preempts (evicts) lower-priority pods to make room. A training or batch job that outranks an
 * inference service can, on a full cluster, evict serving replicas and take their GPUs:
 * user-facing latency and availability then depend on when the batch job runs. Even with
 * `preemptionPolicy: Never` the batch pods are still scheduled ahead of pending serving pods.
 *
 * ## Example
 * ```yaml
 * kind: Job
 * spec:
 *   template:
 *     spec:
 *       priorityClassName: training-high    # value 100000
 * ---
 * kind: InferenceService
 * spec:
 *   predictor:
 *     priorityClassName: inference-normal  # value 1000
 * ```
 * Use instead: give serving the higher class.
 * ```yaml
 * kind: Job
 * spec:
 *   template:
 *     spec:
 *       priorityClassName: training-batch   # value 1000
 * ---
 * kind: InferenceService
 * spec:
 *   predictor:
 *     priorityClassName: inference-high    # value 100000
 * ```
 *
 * ## Fix safety
 * No fix: which of the two priorities is wrong is a policy decision.
 *
 * ## Options
 * `cluster.batch-kinds` (which kinds are batch), `cluster.priority-classes` (class values not
 * defined among the linted files).
 *
 * ## References
 * - Kubernetes, Pod Priority and Preemption:
 *   https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/
 * - kubernetes plugin/pkg/admission/priority/admission.go, `getDefaultPriorityClass`,
 *   `DefaultPriorityWhenNoDefaultClassExists` = 0 (pkg/apis/scheduling/types.go)
 */

/* The batch units with a known priority: the ones compared with every serving unit. */
static bool is_ranked_batch(sl_ctx *ctx, const sl_unit *u)
{
	const char *bname = sl_scalar(u->priority_class_name);
	long long bv;
	return sl_config_list_has(sl_config_batch_kinds(sl_ctx_config(ctx)), u->obj->kind_name) &&
	       bname && *bname && sl_index_priority_value(sl_ctx_index(ctx), bname, &bv);
}

/* The kinds cluster.batch-kinds names. */
static uint64_t batch_kinds(const sl_config *cfg)
{
	const sl_strlist *l = sl_config_batch_kinds(cfg);
	uint64_t kinds = 0;
	for (size_t i = 0; i < l->n; i++)
		kinds |= sl_kinds_named_in(l->v[i], strlen(l->v[i]));
	return kinds;
}

/* What the comparison with every serving unit needs of a batch unit, kept past its tree. */
struct batch {
	const char *label, *class_name;
	long long value;
};

/* The batch unit's part: what it is and where a finding goes (its priorityClassName). */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	const char *bname = sl_scalar(u->priority_class_name);
	long long bv;
	if (!is_ranked_batch(ctx, u) || !sl_index_priority_value(sl_ctx_index(ctx), bname, &bv))
		return SL_OK;
	struct batch *b = sl_ctx_defer(ctx, u->priority_class_name, sizeof *b);
	if (b) {
		b->label = sl_ctx_defer_str(ctx, sl_ctx_label(ctx, u));
		b->class_name = sl_ctx_defer_str(ctx, bname);
		b->value = bv;
	}
	return SL_OK;
}

/* Once every serving unit is known: the comparison. */
static sl_err compare(sl_ctx *ctx, const void *data)
{
	const struct batch *b = data;
	const sl_index *ix = sl_ctx_index(ctx);
	long long bv = b->value;
	/* Serving units by priority (the index sorted them once): the first is the lowest, and
	** those below bv are the outranked ones. */
	size_t n;
	const sl_serving_priority *sp = sl_index_serving_priorities(ix, &n);
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sp[mid].value < bv)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t outranked = lo;
	const char *low = outranked ? sp[0].label : NULL;
	long long lowv = outranked ? sp[0].value : 0;
	const char *lowcls = outranked ? sp[0].class_name : NULL;
	if (!low)
		return SL_OK;
	sl_arena *a = sl_ctx_arena(ctx);
	const char *lowdesc = lowcls ? sl_arena_printf(a, "priority %lld, class %s", lowv, lowcls)
				     : sl_arena_printf(a, "priority %lld, no priority class", lowv);
	const char *others = outranked > 1
		? sl_arena_printf(a, " and %zu other serving unit%s", outranked - 1,
				  outranked == 2 ? "" : "s")
		: "";
	const sl_object *pc = sl_index_find(ix, SL_KIND_PRIORITY_CLASS, b->class_name);
	bool never = pc && sl_scalar_is(sl_map_get(pc->root, "preemptionPolicy"), "Never");
	sl_report *r = sl_report_deferred(ctx, "%s (class %s, %lld) outranks serving unit %s%s",
					  b->label, b->class_name, bv, low, others ? others : "");
	sl_report_note(ctx, r, "%s has %s.", low, lowdesc ? lowdesc : "a lower priority");
	sl_report_note(ctx, r, "%s",
		       never ? "Its pods are scheduled ahead of pending serving pods when capacity is "
			       "short (the class has preemptionPolicy Never, so it does not evict them)."
			     : "On a full cluster the scheduler preempts serving pods to run the batch "
			       "pods.");
	sl_report_note(ctx, r, "Give the batch workload a class below the serving units', or the "
		       "serving units a higher one.");
	return SL_OK;
}

SL_RULE(batch_outranks_serving, .id = "batch-outranks-serving", .category = "priority",
	.summary = "A batch workload has a higher priority than a serving unit",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check, .resume = compare,
	.waits_for_units = is_ranked_batch, .waits_on_kinds = batch_kinds);
