/* SPDX-License-Identifier: Apache-2.0
** kserve.c: KServe kinds. An InferenceService yields a unit per component (predictor,
** predictor.workerSpec, transformer, explainer, canary[i].predictor): each component is an
** inline PodSpec plus the ComponentExtensionSpec, and a framework key (sklearn, model, ...)
** is the predictor's main container. Runtimes, graph routers and LLMInferenceService
** templates are units too. The run mode comes from serving.kserve.io/deploymentMode, else the
** configured cluster default; an unrecognised value falls back to that default, as KServe does. */
#include <stdio.h>
#include <string.h>
#include "model/model.h"

/* The predictor's framework keys and the explainer's, once for the names and once as field
** tables (sl_model_find). */
#define IMPLEMENTATIONS(X) X("sklearn") X("xgboost") X("tensorflow") X("pytorch") X("triton") \
	X("onnx") X("huggingface") X("pmml") X("lightgbm") X("paddle") X("model")
#define EXPLAINER_KEYS(X) X("art") X("alibi")
#define NAME(k) k,
#define MAP_FIELD(k) SL_FIELD(k, SL_T_MAP),

const char *const sl_kserve_implementations[] = {IMPLEMENTATIONS(NAME) NULL};
static const char *const explainer_keys[] = {EXPLAINER_KEYS(NAME) NULL};
static const sl_model_fspec implementation_fields[] = {IMPLEMENTATIONS(MAP_FIELD)},
			    explainer_fields[] = {EXPLAINER_KEYS(MAP_FIELD)};
#define N_IMPLEMENTATIONS (sizeof implementation_fields / sizeof *implementation_fields)

/* The field table of sl_kserve_impl_keys(role), *n entries. */
static const sl_model_fspec *impl_fields(sl_role role, size_t *n)
{
	const char *const *keys = sl_kserve_impl_keys(role);
	*n = keys == sl_kserve_implementations ? N_IMPLEMENTATIONS
	   : keys == explainer_keys ? sizeof explainer_fields / sizeof *explainer_fields : 0;
	return keys == explainer_keys ? explainer_fields : implementation_fields;
}

const char *const *sl_kserve_impl_keys(sl_role role)
{
	if (role == SL_ROLE_PREDICTOR || role == SL_ROLE_CANARY)
		return sl_kserve_implementations;
	return role == SL_ROLE_EXPLAINER ? explainer_keys : NULL;
}

const char *sl_kserve_runtime_name(const sl_node *component)
{
	const sl_node *f[N_IMPLEMENTATIONS];
	sl_model_find(component, implementation_fields, N_IMPLEMENTATIONS, f);
	for (size_t i = 0; i < N_IMPLEMENTATIONS; i++) {
		const char *rt = sl_scalar(sl_map_get(f[i], "runtime"));
		if (rt && *rt)
			return rt;
	}
	return NULL;
}

bool sl_kserve_mode_parse(const char *s, sl_mode *out)
{
	if (!s)
		return false;
	if (strcmp(s, "Standard") == 0 || strcmp(s, "RawDeployment") == 0)
		*out = SL_MODE_STANDARD;
	else if (strcmp(s, "Knative") == 0 || strcmp(s, "Serverless") == 0)
		*out = SL_MODE_KNATIVE;
	else if (strcmp(s, "ModelMesh") == 0)
		*out = SL_MODE_MODELMESH;
	else
		return false;
	return true;
}

static sl_mode resolve_mode(sl_model_ctx *mc, sl_object *o)
{
	sl_mode m = SL_MODE_KNATIVE;
	if (mc->default_mode)
		sl_kserve_mode_parse(mc->default_mode, &m);
	o->mode_annotation = sl_map_get(o->annotations, "serving.kserve.io/deploymentMode");
	sl_mode a;
	if (sl_kserve_mode_parse(sl_scalar(o->mode_annotation), &a))
		m = a;
	else
		o->mode_defaulted = true;
	return m;
}

/* The ComponentExtensionSpec fields, minReplicas first; then what a component holds besides
** them and its PodSpec (bind_component): the workerSpec and the role's container keys. */
#define N_EXTENSION 8
static const sl_model_fspec extension_fields[N_EXTENSION + 1] = {
	SL_FIELD("minReplicas", SL_T_INT), SL_FIELD("maxReplicas", SL_T_INT),
	SL_FIELD("scaleTarget", SL_T_INT), SL_FIELD("containerConcurrency", SL_T_INT),
	SL_FIELD("timeout", SL_T_INT), SL_FIELD("canaryTrafficPercent", SL_T_INT),
	SL_FIELD("labels", SL_T_STRMAP), SL_FIELD("annotations", SL_T_STRMAP),
	SL_FIELD("workerSpec", SL_T_MAP),
};
#define MAX_IMPL_KEYS N_IMPLEMENTATIONS
_Static_assert(sizeof explainer_fields / sizeof *explainer_fields <= MAX_IMPL_KEYS,
	       "bind_component finds every container key");

/* Types the ComponentExtensionSpec fields f (found by sl_model_find with extension_fields);
** returns minReplicas (KServe's default is 1). */
static long long bind_extension(sl_model_ctx *mc, sl_unit *u, const sl_node *const *f)
{
	long long min = 1;
	const sl_node *n = sl_model_expect(mc, f[0], SL_T_INT, extension_fields[0].key);
	if (n && sl_scalar_int(n, &min))
		u->replicas = n;
	for (size_t i = 1; i < N_EXTENSION; i++)
		sl_model_expect(mc, f[i], extension_fields[i].t, extension_fields[i].key);
	return min;
}

/* A component unit: inline PodSpec + extension; the role's container-like keys
** (sl_kserve_impl_keys: framework keys, the explainer's "art") hold the main container. */
static sl_err bind_component(sl_model_ctx *mc, sl_object *o, const sl_node *comp, sl_role role,
			     const char *name)
{
	size_t n_impl;
	const sl_model_fspec *impl = impl_fields(role, &n_impl);
	if (!comp)
		return SL_OK;
	/* the extension's fields, the workerSpec and the container keys, found together */
	sl_model_fspec spec[N_EXTENSION + 1 + MAX_IMPL_KEYS];
	const sl_node *f[N_EXTENSION + 1 + MAX_IMPL_KEYS];
	size_t n = N_EXTENSION + 1 + n_impl;
	memcpy(spec, extension_fields, sizeof extension_fields);
	memcpy(spec + N_EXTENSION + 1, impl, n_impl * sizeof *impl);
	sl_model_find(comp, spec, n, f);
	sl_unit *u = sl_model_add_unit(mc, o, role, name);
	if (!u)
		return SL_ENOMEM;
	u->component = comp;
	u->min_replicas = bind_extension(mc, u, f);
	sl_err err = sl_unit_bind_podspec(mc, u, comp);
	if (err)
		return err;
	bool have_impl = false;
	for (size_t i = N_EXTENSION + 1; i < n; i++) {
		const sl_node *c = sl_model_expect(mc, f[i], SL_T_MAP, spec[i].key);
		if (!c)
			continue;
		if (!have_impl)
			for (size_t j = 0; j < u->n_containers; j++)
				u->containers[j].main = false;
		err = sl_unit_add_container(mc, u, c, false, !have_impl);
		if (err)
			return err;
		have_impl = true;
	}
	if (role == SL_ROLE_PREDICTOR || role == SL_ROLE_CANARY) {
		const sl_node *ws = sl_model_expect(mc, f[N_EXTENSION], SL_T_MAP, "workerSpec");
		if (ws) {
			char *wn = role == SL_ROLE_PREDICTOR ? "predictor.workerSpec"
				   : sl_arena_printf(mc->arena, "%s.workerSpec", name);
			if (!wn)
				return SL_ENOMEM;
			sl_unit *w = sl_model_add_unit(mc, o, SL_ROLE_WORKER, wn);
			if (!w)
				return SL_ENOMEM;
			w->component = ws;
			err = sl_unit_bind_podspec(mc, w, ws);
			if (err)
				return err;
		}
	}
	return SL_OK;
}

static sl_err bind_isvc(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->spec;
	sl_err err = bind_component(mc, o, sl_model_field(mc, spec, "predictor", SL_T_MAP),
				    SL_ROLE_PREDICTOR, "predictor");
	if (!err)
		err = bind_component(mc, o, sl_model_field(mc, spec, "transformer", SL_T_MAP),
				     SL_ROLE_TRANSFORMER, "transformer");
	if (!err)
		err = bind_component(mc, o, sl_model_field(mc, spec, "explainer", SL_T_MAP),
				     SL_ROLE_EXPLAINER, "explainer");
	const sl_node *canary = sl_model_field(mc, spec, "canary", SL_T_SEQ_OF_MAP);
	for (size_t i = 0; !err && canary && i < canary->u.seq.n; i++) {
		const sl_node *c = sl_node_deref(canary->u.seq.items[i]);
		const sl_node *p = c->type == SL_NODE_MAP ? sl_model_field(mc, c, "predictor", SL_T_MAP) : NULL;
		if (!p)
			continue;
		char *name = sl_arena_printf(mc->arena, "canary[%zu].predictor", i);
		if (!name)
			return SL_ENOMEM;
		err = bind_component(mc, o, p, SL_ROLE_CANARY, name);
	}
	return err;
}

static sl_err bind_runtime(sl_model_ctx *mc, sl_object *o)
{
	if (!o->spec)
		return SL_OK;
	sl_unit *u = sl_model_add_unit(mc, o, SL_ROLE_RUNTIME, NULL);
	if (!u)
		return SL_ENOMEM;
	u->mode = SL_MODE_PLAIN;
	sl_err err = sl_unit_bind_podspec(mc, u, o->spec);
	if (err)
		return err;
	const sl_node *ws = sl_model_field(mc, o->spec, "workerSpec", SL_T_MAP);
	if (ws) {
		sl_unit *w = sl_model_add_unit(mc, o, SL_ROLE_WORKER, "workerSpec");
		if (!w)
			return SL_ENOMEM;
		w->mode = SL_MODE_PLAIN;
		return sl_unit_bind_podspec(mc, w, ws);
	}
	return SL_OK;
}

static sl_err bind_graph(sl_model_ctx *mc, sl_object *o)
{
	if (!o->spec)
		return SL_OK;
	sl_unit *u = sl_model_add_unit(mc, o, SL_ROLE_ROUTER, "router");
	if (!u)
		return SL_ENOMEM;
	const sl_node *f[N_EXTENSION];
	sl_model_find(o->spec, extension_fields, N_EXTENSION, f);
	u->component = o->spec;
	u->min_replicas = bind_extension(mc, u, f);
	sl_err err = sl_unit_bind_podspec(mc, u, o->spec);
	if (err)
		return err;
	/* spec.resources is the router container's, not pod-level. */
	u->pod_resources = NULL;
	return sl_unit_add_container(mc, u, o->spec, false, true);
}

/* One LLMInferenceService workload: a full PodSpec under `node`. */
static sl_err bind_llm_pod(sl_model_ctx *mc, sl_object *o, const sl_node *node, sl_role role,
			   const char *name, const sl_node *replicas_owner)
{
	if (!node)
		return SL_OK;
	sl_unit *u = sl_model_add_unit(mc, o, role, name);
	if (!u)
		return SL_ENOMEM;
	u->mode = SL_MODE_PLAIN;
	if (replicas_owner) {
		long long r = 1;
		u->replicas = sl_model_field(mc, replicas_owner, "replicas", SL_T_INT);
		if (u->replicas)
			sl_scalar_int(u->replicas, &r);
		u->min_replicas = r;
	}
	return sl_unit_bind_podspec(mc, u, node);
}

static sl_err bind_llm(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->spec;
	if (!spec)
		return SL_OK;
	const sl_node *prefill = sl_model_field(mc, spec, "prefill", SL_T_MAP);
	const sl_node *router = sl_model_field(mc, spec, "router", SL_T_MAP);
	const sl_node *sched = sl_model_field(mc, router, "scheduler", SL_T_MAP);
	sl_err err = bind_llm_pod(mc, o, sl_model_field(mc, spec, "template", SL_T_MAP), SL_ROLE_LLM,
				  "template", spec);
	if (!err)
		err = bind_llm_pod(mc, o, sl_model_field(mc, spec, "worker", SL_T_MAP), SL_ROLE_WORKER,
				   "worker", NULL);
	if (!err)
		err = bind_llm_pod(mc, o, sl_model_field(mc, prefill, "template", SL_T_MAP),
				   SL_ROLE_LLM, "prefill.template", prefill);
	if (!err)
		err = bind_llm_pod(mc, o, sl_model_field(mc, prefill, "worker", SL_T_MAP),
				   SL_ROLE_WORKER, "prefill.worker", NULL);
	if (!err)
		err = bind_llm_pod(mc, o, sl_model_field(mc, sched, "template", SL_T_MAP),
				   SL_ROLE_SCHEDULER, "router.scheduler.template", NULL);
	return err;
}

sl_err sl_model_bind_kserve(sl_model_ctx *mc, sl_object *o)
{
	switch (o->kind) {
	case SL_KIND_INFERENCE_SERVICE:
		o->mode = resolve_mode(mc, o);
		return bind_isvc(mc, o);
	case SL_KIND_INFERENCE_GRAPH:
		o->mode = resolve_mode(mc, o);
		return bind_graph(mc, o);
	case SL_KIND_SERVING_RUNTIME:
	case SL_KIND_CLUSTER_SERVING_RUNTIME:
		return bind_runtime(mc, o);
	case SL_KIND_LLM_INFERENCE_SERVICE:
	case SL_KIND_LLM_INFERENCE_SERVICE_CONFIG:   /* a template: its units merge into the service's */
		return bind_llm(mc, o);
	default:
		return SL_OK;
	}
}
