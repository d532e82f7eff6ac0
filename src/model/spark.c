/* SPDX-License-Identifier: Apache-2.0
** spark.c: the Kubeflow Spark operator (sparkoperator.k8s.io/v1beta2): a SparkApplication's
** spec.driver and spec.executor (a ScheduledSparkApplication's under spec.template) are units.
** Each is a SparkPodSpec: the pod fields under their PodSpec names (nodeSelector, tolerations,
** affinity, priorityClassName, schedulerName, initContainers), sidecars, and a GPU as
** `gpu: {name, quantity}`, which the operator's webhook turns into a limit of the Spark
** container; its pod template (`template`) is the base the fields are laid over (tolerations
** appended, nodeSelector merged, affinity replaced: sparkpod_defaulter.go; docs/domain.md §7). */
#include <string.h>
#include "model/model.h"

/* The Spark container: the SparkPodSpec mapping itself, limited to gpu.quantity of gpu.name
** when both are set (addGPU: nothing for an empty name or a quantity <= 0). */
static sl_err add_spark_container(sl_model_ctx *mc, sl_unit *u, const sl_node *ps)
{
	sl_err err = sl_unit_add_container(mc, u, ps, false, true);
	if (err)
		return err;
	sl_container *c = &u->containers[u->n_containers - 1];
	/* the container Spark names so (Constants.scala DEFAULT_DRIVER/EXECUTOR_CONTAINER_NAME) */
	c->name = u->role == SL_ROLE_HEAD ? "spark-kubernetes-driver" : "spark-kubernetes-executor";
	c->resources = c->requests = c->limits = NULL;   /* the mapping's own keys are not a container's */
	const sl_node *gpu = sl_model_field(mc, ps, "gpu", SL_T_MAP);
	const sl_node *name = sl_model_field(mc, gpu, "name", SL_T_STR);
	const sl_node *qty = sl_model_field(mc, gpu, "quantity", SL_T_INT);
	long long q = 0;
	if (!name || !*sl_scalar(name) || !qty || !sl_scalar_int(qty, &q) || q <= 0)
		return SL_OK;
	/* limits: {<name>: <quantity>}, reported at the gpu mapping */
	sl_node *limits = sl_model_synth(mc, SL_NODE_MAP, gpu, NULL, 1);
	sl_node *value = sl_model_synth(mc, SL_NODE_SCALAR, gpu, sl_scalar(qty), 0);
	if (!limits || !value)
		return SL_ENOMEM;
	value->pos = qty->pos;
	sl_model_synth_put(limits, name, value);
	c->limits = limits;
	return SL_OK;
}

/* A driver or executor unit; pods: 1 for the driver, the executors the operator starts. */
static sl_err bind_pod(sl_model_ctx *mc, sl_object *o, const sl_node *spec, const char *role_key,
		       long long pods)
{
	const sl_node *ps = sl_model_field(mc, spec, role_key, SL_T_MAP);
	if (!ps)
		return SL_OK;
	bool driver = strcmp(role_key, "driver") == 0;
	sl_unit *u = sl_model_add_unit(mc, o, driver ? SL_ROLE_HEAD : SL_ROLE_WORKER, role_key);
	if (!u)
		return SL_ENOMEM;
	u->mode = SL_MODE_PLAIN;
	u->pods = pods;
	u->meta = ps;   /* its labels: the SparkPodSpec's `labels` */
	sl_model_field(mc, ps, "labels", SL_T_STRMAP);
	sl_model_field(mc, ps, "annotations", SL_T_STRMAP);
	/* an int32 in v1beta2, a float32 in v1beta1 (its types.go SparkPodSpec.Cores) */
	bool beta1 = o->api_version && strstr(o->api_version, "/v1beta1") != NULL;
	sl_model_field(mc, ps, "cores", beta1 ? SL_T_QUANTITY : SL_T_INT);
	sl_model_field(mc, ps, "coreLimit", SL_T_STR);
	sl_model_field(mc, ps, "memory", SL_T_STR);
	sl_model_field(mc, ps, "memoryOverhead", SL_T_STR);
	sl_model_field(mc, ps, "serviceAccount", SL_T_STR);
	sl_err err = sl_unit_bind_podspec(mc, u, ps);
	const sl_node *sidecars = sl_model_field(mc, ps, "sidecars", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; !err && sidecars && i < sidecars->u.seq.n; i++) {
		const sl_node *c = sl_node_deref(sidecars->u.seq.items[i]);
		if (c->type == SL_NODE_MAP)
			err = sl_unit_add_container(mc, u, c, false, false);
	}
	if (!err)
		err = add_spark_container(mc, u, ps);
	for (size_t i = 0; !err && i + 1 < u->n_containers; i++)
		u->containers[i].main = false;
	const sl_node *tmpl = sl_model_field(mc, ps, "template", SL_T_MAP);
	if (err || !tmpl)
		return err;
	/* the pod template: a base of its own, not a unit of the object */
	sl_unit *b = sl_arena_zalloc(mc->arena, sizeof *b);
	if (!b)
		return SL_ENOMEM;
	b->obj = o;
	b->role = u->role;
	b->name = u->name;
	b->min_replicas = b->pods = -1;
	b->meta = sl_model_field(mc, tmpl, "metadata", SL_T_MAP);
	if ((err = sl_unit_bind_podspec(mc, b, sl_model_field(mc, tmpl, "spec", SL_T_MAP))))
		return err;
	u->inline_base = b;
	return SL_OK;
}

/* The executors the operator starts: instances (default 1 unless spark.executor.instances or
** dynamic allocation says otherwise; setExecutorSpecDefaults), with dynamic allocation its
** minExecutors (else initialExecutors, else 0). */
static long long executors(sl_model_ctx *mc, const sl_node *spec)
{
	const sl_node *da = sl_model_field(mc, spec, "dynamicAllocation", SL_T_MAP);
	const sl_node *en = sl_model_field(mc, da, "enabled", SL_T_BOOL);
	if (sl_yaml_true(en)) {
		long long init = sl_model_int(mc, da, "initialExecutors", 0, NULL);
		return sl_model_int(mc, da, "minExecutors", init, NULL);
	}
	const sl_node *ex = sl_map_get(spec, "executor");
	return sl_model_int(mc, ex, "instances", 1, NULL);
}

sl_err sl_model_bind_spark(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->kind == SL_KIND_SCHEDULED_SPARK_APPLICATION
		? sl_model_field(mc, o->spec, "template", SL_T_MAP) : o->spec;
	if (!spec)
		return SL_OK;
	sl_model_field(mc, spec, "sparkConf", SL_T_STRMAP);
	sl_model_field(mc, spec, "batchScheduler", SL_T_STR);
	sl_err err = bind_pod(mc, o, spec, "driver", 1);
	return err ? err : bind_pod(mc, o, spec, "executor", executors(mc, spec));
}
