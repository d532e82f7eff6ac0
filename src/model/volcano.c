/* SPDX-License-Identifier: Apache-2.0
** volcano.c: the Volcano Job (batch.volcano.sh/v1alpha1): a unit per spec.tasks[] entry ("task
** <name>"), making its replicas pods. A task template without priorityClassName gets the Job's
** (createJobPod, job_controller_util.go): the unit's class is then spec.priorityClassName
** (docs/domain.md §8). It runs to completion. */
#include "model/model.h"

sl_err sl_model_bind_volcano(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->spec;
	const sl_node *job_class = sl_model_field(mc, spec, "priorityClassName", SL_T_STR);
	sl_model_field(mc, spec, "schedulerName", SL_T_STR);
	sl_model_field(mc, spec, "minAvailable", SL_T_INT);
	sl_model_field(mc, spec, "queue", SL_T_STR);
	const sl_node *tasks = sl_model_field(mc, spec, "tasks", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; tasks && i < tasks->u.seq.n; i++) {
		const sl_node *t = sl_node_deref(tasks->u.seq.items[i]);
		if (t->type != SL_NODE_MAP)
			continue;
		/* the webhook names an unnamed task default<i> (mutate_job.go mutateSpec) */
		const char *name = sl_model_item_name(mc, t, "name", "task", "default", i);
		if (!name)
			return SL_ENOMEM;
		long long replicas = sl_model_int(mc, t, "replicas", 0, NULL);
		sl_model_field(mc, t, "minAvailable", SL_T_INT);
		sl_unit *u;
		sl_err err = sl_model_bind_template(mc, o, sl_model_field(mc, t, "template", SL_T_MAP),
						    SL_ROLE_POD, name, &u);
		if (err)
			return err;
		u->pods = replicas;
		if (!u->priority_class_name || !*sl_scalar(u->priority_class_name))
			u->priority_class_name = job_class;
	}
	return SL_OK;
}
