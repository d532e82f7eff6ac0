/* SPDX-License-Identifier: Apache-2.0
** ray.c: KubeRay (ray.io/v1). A RayCluster spec makes a head unit (one pod) and a unit per
** worker group ("worker group <groupName>"); a RayService holds one at spec.rayClusterConfig,
** a RayJob at spec.rayClusterSpec with a submitter pod, a RayCronJob a RayJob spec at
** spec.jobTemplate (docs/domain.md §1). */
#include <limits.h>
#include <string.h>
#include "model/model.h"

/* The replicas a worker group keeps: KubeRay's GetWorkerGroupDesiredReplicas (replicas within
** minReplicas..maxReplicas; CRD defaults 0, 0, MaxInt32), or minReplicas with in-tree
** autoscaling; 0 when suspended. *at the field that decides it. */
static long long group_replicas(sl_model_ctx *mc, const sl_node *g, bool autoscaling,
				const sl_node **at)
{
	const sl_node *rn, *mn, *xn;
	long long replicas = sl_model_int(mc, g, "replicas", 0, &rn);
	long long min = sl_model_int(mc, g, "minReplicas", 0, &mn);
	long long max = sl_model_int(mc, g, "maxReplicas", INT_MAX, &xn);
	const sl_node *suspend = sl_model_field(mc, g, "suspend", SL_T_BOOL);
	sl_model_field(mc, g, "idleTimeoutSeconds", SL_T_INT);
	sl_model_field(mc, g, "rayStartParams", SL_T_STRMAP);
	sl_model_field(mc, g, "labels", SL_T_STRMAP);
	sl_model_field(mc, g, "resources", SL_T_STRMAP);
	if (sl_yaml_true(suspend)) {
		*at = suspend;
		return 0;
	}
	if (autoscaling || !rn || replicas < min) {
		*at = mn ? mn : autoscaling ? NULL : rn;
		return min;
	}
	if (replicas > max) {
		*at = xn;
		return max;
	}
	*at = rn;
	return replicas;
}

/* The units of a RayClusterSpec; batch: run to completion (a RayJob's cluster), so no unit
** keeps replicas running (min_replicas -1, the pods still counted). */
static sl_err bind_cluster(sl_model_ctx *mc, sl_object *o, const sl_node *spec, bool batch)
{
	if (!spec)
		return SL_OK;
	const sl_node *as = sl_model_field(mc, spec, "enableInTreeAutoscaling", SL_T_BOOL);
	bool autoscaling = sl_yaml_true(as);
	sl_model_field(mc, spec, "rayVersion", SL_T_STR);
	sl_model_field(mc, spec, "suspend", SL_T_BOOL);
	const sl_node *head = sl_model_field(mc, spec, "headGroupSpec", SL_T_MAP);
	sl_unit *u;
	sl_err err;
	if (head) {
		sl_model_field(mc, head, "rayStartParams", SL_T_STRMAP);
		sl_model_field(mc, head, "labels", SL_T_STRMAP);
		sl_model_field(mc, head, "resources", SL_T_STRMAP);
		sl_model_field(mc, head, "serviceType", SL_T_STR);
		if ((err = sl_model_bind_template(mc, o, sl_model_field(mc, head, "template", SL_T_MAP),
						  SL_ROLE_HEAD, "head", &u)))
			return err;
		u->min_replicas = batch ? -1 : 1;
		u->pods = 1;
	}
	const sl_node *groups = sl_model_field(mc, spec, "workerGroupSpecs", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; groups && i < groups->u.seq.n; i++) {
		const sl_node *g = sl_node_deref(groups->u.seq.items[i]);
		if (g->type != SL_NODE_MAP)
			continue;
		const char *name = sl_model_item_name(mc, g, "groupName", "worker group", "#", i);
		if (!name)
			return SL_ENOMEM;
		const sl_node *at;
		long long replicas = group_replicas(mc, g, autoscaling, &at);
		long long hosts = sl_model_int(mc, g, "numOfHosts", 1, NULL);
		if ((err = sl_model_bind_template(mc, o, sl_model_field(mc, g, "template", SL_T_MAP),
						  SL_ROLE_WORKER, name, &u)))
			return err;
		u->replicas = at;
		u->min_replicas = batch ? -1 : replicas;
		u->pods = sl_model_pods(replicas, hosts > 0 ? hosts : 1);
	}
	return SL_OK;
}

/* A RayJobSpec: its cluster, and the submitter Job's pod in K8sJobMode (the default). */
static sl_err bind_job(sl_model_ctx *mc, sl_object *o, const sl_node *spec)
{
	if (!spec)
		return SL_OK;
	sl_err err = bind_cluster(mc, o, sl_model_field(mc, spec, "rayClusterSpec", SL_T_MAP), true);
	if (err)
		return err;
	sl_model_field(mc, spec, "clusterSelector", SL_T_STRMAP);
	const char *mode = sl_scalar(sl_model_field(mc, spec, "submissionMode", SL_T_STR));
	const sl_node *sub = sl_model_field(mc, spec, "submitterPodTemplate", SL_T_MAP);
	if (!sub || (mode && *mode && strcmp(mode, "K8sJobMode") != 0))
		return SL_OK;   /* no submitter pod in HTTPMode, InteractiveMode, SidecarMode */
	sl_unit *u;
	if ((err = sl_model_bind_template(mc, o, sub, SL_ROLE_POD, "submitter", &u)))
		return err;
	u->pods = 1;
	return SL_OK;
}

sl_err sl_model_bind_ray(sl_model_ctx *mc, sl_object *o)
{
	switch (o->kind) {
	case SL_KIND_RAY_CLUSTER:
		return bind_cluster(mc, o, o->spec, false);
	case SL_KIND_RAY_SERVICE:
		return bind_cluster(mc, o, sl_model_field(mc, o->spec, "rayClusterConfig", SL_T_MAP),
				    false);
	case SL_KIND_RAY_JOB:
		return bind_job(mc, o, o->spec);
	case SL_KIND_RAY_CRON_JOB:
		return bind_job(mc, o, sl_model_field(mc, o->spec, "jobTemplate", SL_T_MAP));
	default:
		return SL_OK;
	}
}
