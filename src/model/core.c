/* SPDX-License-Identifier: Apache-2.0
** core.c: Pods, the workload kinds (apps/v1, batch/v1), PriorityClass, ConfigMap, Node, and the
** Dynamic Resource Allocation claims (resource.k8s.io ResourceClaim, ResourceClaimTemplate), and
** the autoscalers (HorizontalPodAutoscaler, KEDA ScaledObject). */
#include "model/model.h"

/* Binds a pod template mapping ({metadata, spec}) into a new unit of o. */
static sl_err bind_template(sl_model_ctx *mc, sl_object *o, const sl_node *tmpl, sl_unit **out)
{
	return sl_model_bind_template(mc, o, tmpl, SL_ROLE_POD, NULL, out);
}

static const sl_model_fspec priority_class_fields[] = {
	SL_FIELD("value", SL_T_INT), SL_FIELD("globalDefault", SL_T_BOOL),
	SL_FIELD("preemptionPolicy", SL_T_STR),
	SL_FIELD("description", SL_T_STR), {NULL, SL_T_ANY, 0},
};
static const sl_model_fspec taint_fields[] = {
	SL_FIELD("key", SL_T_STR), SL_FIELD("value", SL_T_STR), SL_FIELD("effect", SL_T_STR),
	{NULL, SL_T_ANY, 0},
};

sl_err sl_model_bind_core(sl_model_ctx *mc, sl_object *o)
{
	sl_unit *u = NULL;
	sl_err err = SL_OK;
	switch (o->kind) {
	case SL_KIND_POD:
		u = sl_model_add_unit(mc, o, SL_ROLE_POD, NULL);
		if (!u)
			return SL_ENOMEM;
		u->meta = o->metadata;
		u->min_replicas = 1;
		return sl_unit_bind_podspec(mc, u, o->spec);
	case SL_KIND_DEPLOYMENT:
	case SL_KIND_STATEFULSET:
	case SL_KIND_REPLICASET:
	case SL_KIND_DAEMONSET:
	case SL_KIND_JOB: {
		if (!o->spec)
			return SL_OK;
		err = bind_template(mc, o, sl_model_field(mc, o->spec, "template", SL_T_MAP), &u);
		if (err)
			return err;
		if (o->kind != SL_KIND_DAEMONSET && o->kind != SL_KIND_JOB) {
			long long r = 1;
			u->replicas = sl_model_field(mc, o->spec, "replicas", SL_T_INT);
			if (u->replicas)
				sl_scalar_int(u->replicas, &r);
			u->min_replicas = r;
		}
		return SL_OK;
	}
	case SL_KIND_CRONJOB: {
		const sl_node *jt = sl_model_field(mc, o->spec, "jobTemplate", SL_T_MAP);
		const sl_node *js = sl_model_field(mc, jt, "spec", SL_T_MAP);
		if (!js)
			return SL_OK;
		return bind_template(mc, o, sl_model_field(mc, js, "template", SL_T_MAP), &u);
	}
	case SL_KIND_PRIORITY_CLASS:
		sl_model_fields(mc, o->root, priority_class_fields);
		return SL_OK;
	case SL_KIND_CONFIGMAP:
		sl_model_field(mc, o->root, "data", SL_T_STRMAP);
		return SL_OK;
	case SL_KIND_NODE:
		sl_model_items(mc, sl_model_field(mc, o->spec, "taints", SL_T_SEQ_OF_MAP), taint_fields);
		return SL_OK;
	case SL_KIND_RESOURCE_CLAIM:
	case SL_KIND_RESOURCE_CLAIM_TEMPLATE: {
		/* the device requests a pod's claim asks for (sl_gpu_unit_use reads their classes):
		** a claim's spec.devices, a template's spec.spec.devices */
		const sl_node *spec = o->kind == SL_KIND_RESOURCE_CLAIM
			? o->spec : sl_model_field(mc, o->spec, "spec", SL_T_MAP);
		const sl_node *devices = sl_model_field(mc, spec, "devices", SL_T_MAP);
		sl_model_field(mc, devices, "requests", SL_T_SEQ_OF_MAP);
		return SL_OK;
	}
	case SL_KIND_HORIZONTAL_POD_AUTOSCALER:
	case SL_KIND_SCALED_OBJECT: {
		/* what sl_index_autoscaler reads: the target and the minimum */
		const sl_node *ref = sl_model_field(mc, o->spec, "scaleTargetRef", SL_T_MAP);
		sl_model_field(mc, ref, "kind", SL_T_STR);
		sl_model_field(mc, ref, "name", SL_T_STR);
		sl_model_field(mc, ref, "apiVersion", SL_T_STR);
		sl_model_field(mc, o->spec, o->kind == SL_KIND_SCALED_OBJECT ? "minReplicaCount"
									      : "minReplicas", SL_T_INT);
		return SL_OK;
	}
	default:
		return SL_OK;
	}
}
