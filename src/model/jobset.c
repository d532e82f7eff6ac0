/* SPDX-License-Identifier: Apache-2.0
** jobset.c: JobSet (jobset.x-k8s.io) and Kubeflow Trainer v2 (trainer.kubeflow.org): a JobSet
** spec's replicated jobs are units ("replicated job <name>"), in a JobSet and in the JobSet
** template of a (Cluster)TrainingRuntime. A TrainJob holds no pod template: at bind time its
** units are its patches of the runtime's replicated jobs (runtimePatches, and the older
** podTemplateOverrides and podSpecOverrides); merge.c completes them from the runtime once the
** files are indexed (docs/domain.md §3, §4). */
#include <string.h>
#include "model/model.h"

#define EXCLUSIVE "alpha.jobset.sigs.k8s.io/exclusive-topology"

sl_err sl_model_bind_replicated_jobs(sl_model_ctx *mc, sl_object *o, const sl_node *spec)
{
	const sl_node *jobs = sl_model_field(mc, spec, "replicatedJobs", SL_T_SEQ_OF_MAP);
	/* exclusive placement for every replicated job: the JobSet's annotation (a runtime's
	** JobSet template's metadata) */
	const sl_node *meta = o->kind == SL_KIND_JOBSET ? o->metadata
			    : sl_map_get(sl_map_get(o->spec, "template"), "metadata");
	const sl_node *all = sl_map_get(sl_map_get(meta, "annotations"), EXCLUSIVE);
	for (size_t i = 0; jobs && i < jobs->u.seq.n; i++) {
		const sl_node *rj = sl_node_deref(jobs->u.seq.items[i]);
		if (rj->type != SL_NODE_MAP)
			continue;
		const char *name = sl_model_item_name(mc, rj, "name", "replicated job", "#", i);
		if (!name)
			return SL_ENOMEM;
		sl_model_field(mc, rj, "groupName", SL_T_STR);
		long long replicas = sl_model_int(mc, rj, "replicas", 1, NULL);
		const sl_node *jt = sl_model_field(mc, rj, "template", SL_T_MAP);
		const sl_node *jmeta = sl_model_field(mc, jt, "metadata", SL_T_MAP);
		const sl_node *jann = sl_model_field(mc, jmeta, "annotations", SL_T_STRMAP);
		sl_model_field(mc, jmeta, "labels", SL_T_STRMAP);
		const sl_node *js = sl_model_field(mc, jt, "spec", SL_T_MAP);
		long long par = sl_model_int(mc, js, "parallelism", 1, NULL);
		long long comp = sl_model_int(mc, js, "completions", -1, NULL);
		sl_model_field(mc, js, "backoffLimit", SL_T_INT);
		sl_unit *u;
		sl_err err = sl_model_bind_template(mc, o, sl_model_field(mc, js, "template", SL_T_MAP),
						    SL_ROLE_POD, name, &u);
		if (err)
			return err;
		u->component = rj;   /* merge.c reads the trainer's label from it */
		u->pods = sl_model_pods(replicas, comp >= 0 && comp < par ? comp : par);
		if (o->kind != SL_KIND_JOBSET &&
		    sl_scalar_is(sl_map_get(sl_map_get(jmeta, "labels"),
					    "trainer.kubeflow.org/trainjob-ancestor-step"), "trainer")) {
			/* the trainer: one Job of mlPolicy.numNodes pods (trainer newRuntimeInfo) */
			const sl_node *ml = sl_map_get(o->spec, "mlPolicy");
			long long nodes = 1;
			if (!sl_scalar_int(sl_map_get(ml, "numNodes"), &nodes))
				nodes = 1;
			u->pods = nodes;
		}
		const sl_node *ex = sl_map_get(jann, EXCLUSIVE);
		u->exclusive_topology = ex ? ex : all;
	}
	return SL_OK;
}

/* The pod spec a patch sets, bound as the unit of replicated job jn (the unit the runtime's job
** of that name is completed into); the later patch of a job wins. */
static sl_err bind_patch(sl_model_ctx *mc, sl_object *o, const char *jn, const sl_node *meta,
			 const sl_node *pod)
{
	if (!jn || !*jn || !pod)
		return SL_OK;
	const char *name = sl_model_printf(mc, "replicated job %s", jn);
	if (!name)
		return SL_ENOMEM;
	sl_unit *u = NULL;
	for (size_t i = 0; i < o->n_units && !u; i++)
		if (strcmp(o->units[i].name, name) == 0)
			u = &o->units[i];
	if (!u && !(u = sl_model_add_unit(mc, o, SL_ROLE_POD, name)))
		return SL_ENOMEM;
	sl_unit keep = *u;
	memset(u, 0, sizeof *u);
	u->obj = keep.obj;
	u->role = keep.role;
	u->name = keep.name;
	u->mode = SL_MODE_PLAIN;
	u->min_replicas = -1;
	u->pods = -1;
	u->meta = meta;
	if (meta) {
		sl_model_field(mc, meta, "labels", SL_T_STRMAP);
		sl_model_field(mc, meta, "annotations", SL_T_STRMAP);
	}
	return sl_unit_bind_podspec(mc, u, pod);
}

/* Each target of an override entry (podTemplateOverrides, podSpecOverrides): targetJobs[].name. */
static sl_err bind_override(sl_model_ctx *mc, sl_object *o, const sl_node *e,
			    const sl_node *meta, const sl_node *pod)
{
	const sl_node *targets = sl_model_field(mc, e, "targetJobs", SL_T_SEQ_OF_MAP);
	for (size_t t = 0; targets && t < targets->u.seq.n; t++) {
		const sl_node *tj = sl_node_deref(targets->u.seq.items[t]);
		const char *jn = tj->type == SL_NODE_MAP
			? sl_scalar(sl_model_field(mc, tj, "name", SL_T_STR)) : NULL;
		sl_err err = bind_patch(mc, o, jn, meta, pod);
		if (err)
			return err;
	}
	return SL_OK;
}

static sl_err bind_trainjob(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->spec;
	const sl_node *ref = sl_model_field(mc, spec, "runtimeRef", SL_T_MAP);
	sl_model_field(mc, ref, "name", SL_T_STR);
	sl_model_field(mc, ref, "kind", SL_T_STR);
	sl_model_field(mc, ref, "apiGroup", SL_T_STR);
	sl_model_field(mc, sl_model_field(mc, spec, "trainer", SL_T_MAP), "numNodes", SL_T_INT);
	sl_err err = SL_OK;
	/* runtimePatches[].trainingRuntimeSpec.template.spec.replicatedJobs[] (trainer >= v2.2) */
	const sl_node *patches = sl_model_field(mc, spec, "runtimePatches", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; !err && patches && i < patches->u.seq.n; i++) {
		const sl_node *p = sl_node_deref(patches->u.seq.items[i]);
		const sl_node *trs = p->type == SL_NODE_MAP
			? sl_model_field(mc, p, "trainingRuntimeSpec", SL_T_MAP) : NULL;
		const sl_node *tmpl = sl_model_field(mc, trs, "template", SL_T_MAP);
		const sl_node *jobs = sl_model_field(mc, sl_model_field(mc, tmpl, "spec", SL_T_MAP),
						     "replicatedJobs", SL_T_SEQ_OF_MAP);
		for (size_t j = 0; !err && jobs && j < jobs->u.seq.n; j++) {
			const sl_node *rj = sl_node_deref(jobs->u.seq.items[j]);
			if (rj->type != SL_NODE_MAP)
				continue;
			const sl_node *jt = sl_model_field(mc, rj, "template", SL_T_MAP);
			const sl_node *pt = sl_model_field(mc, sl_model_field(mc, jt, "spec", SL_T_MAP),
							   "template", SL_T_MAP);
			err = bind_patch(mc, o, sl_scalar(sl_model_field(mc, rj, "name", SL_T_STR)),
					 sl_model_field(mc, pt, "metadata", SL_T_MAP),
					 sl_model_field(mc, pt, "spec", SL_T_MAP));
		}
	}
	/* podTemplateOverrides[] (v2.1): {targetJobs, metadata, spec} */
	const sl_node *pto = sl_model_field(mc, spec, "podTemplateOverrides", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; !err && pto && i < pto->u.seq.n; i++) {
		const sl_node *e = sl_node_deref(pto->u.seq.items[i]);
		if (e->type == SL_NODE_MAP)
			err = bind_override(mc, o, e, sl_model_field(mc, e, "metadata", SL_T_MAP),
					    sl_model_field(mc, e, "spec", SL_T_MAP));
	}
	/* podSpecOverrides[] (v2.0): {targetJobs, nodeSelector, tolerations, ...} inline */
	const sl_node *pso = sl_model_field(mc, spec, "podSpecOverrides", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; !err && pso && i < pso->u.seq.n; i++) {
		const sl_node *e = sl_node_deref(pso->u.seq.items[i]);
		if (e->type == SL_NODE_MAP)
			err = bind_override(mc, o, e, NULL, e);
	}
	return err;
}

sl_err sl_model_bind_jobset(sl_model_ctx *mc, sl_object *o)
{
	switch (o->kind) {
	case SL_KIND_JOBSET:
		return sl_model_bind_replicated_jobs(mc, o, o->spec);
	case SL_KIND_TRAINING_RUNTIME:
	case SL_KIND_CLUSTER_TRAINING_RUNTIME: {
		const sl_node *ml = sl_model_field(mc, o->spec, "mlPolicy", SL_T_MAP);
		sl_model_field(mc, ml, "numNodes", SL_T_INT);
		const sl_node *tmpl = sl_model_field(mc, o->spec, "template", SL_T_MAP);
		const sl_node *meta = sl_model_field(mc, tmpl, "metadata", SL_T_MAP);
		sl_model_field(mc, meta, "labels", SL_T_STRMAP);
		sl_model_field(mc, meta, "annotations", SL_T_STRMAP);
		return sl_model_bind_replicated_jobs(mc, o, sl_model_field(mc, tmpl, "spec", SL_T_MAP));
	}
	case SL_KIND_TRAIN_JOB:
		return bind_trainjob(mc, o);
	default:
		return SL_OK;
	}
}
