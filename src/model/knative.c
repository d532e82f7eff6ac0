/* SPDX-License-Identifier: Apache-2.0
** knative.c: Knative Service and Configuration (one unit: spec.template) and the operator's
** KnativeServing CR (no unit; its spec.config.features feeds the project index). */
#include <stdlib.h>
#include "model/model.h"

/* min-scale from the template annotations (or its legacy alias), else Knative's default 0. */
static void bind_min_scale(sl_unit *u)
{
	const sl_node *ann = sl_map_get(u->meta, "annotations");
	const sl_node *n = sl_map_get(ann, "autoscaling.knative.dev/min-scale");
	if (!n)
		n = sl_map_get(ann, "autoscaling.knative.dev/minScale");
	u->min_replicas = 0;
	const char *s = sl_scalar(n);
	if (s) {
		char *end;
		long long v = strtoll(s, &end, 10);
		if (*s && !*end && v >= 0) {
			u->replicas = n;
			u->min_replicas = v;
		}
	}
}

sl_err sl_model_bind_knative(sl_model_ctx *mc, sl_object *o)
{
	if (o->kind == SL_KIND_KNATIVE_SERVING) {
		const sl_node *cfg = sl_model_field(mc, o->spec, "config", SL_T_MAP);
		sl_model_field(mc, cfg, "features", SL_T_STRMAP);
		return SL_OK;
	}
	o->mode = SL_MODE_KNATIVE;
	const sl_node *tmpl = sl_model_field(mc, o->spec, "template", SL_T_MAP);
	sl_unit *u = sl_model_add_unit(mc, o, SL_ROLE_POD, NULL);
	if (!u)
		return SL_ENOMEM;
	u->mode = SL_MODE_KNATIVE;
	u->meta = sl_model_field(mc, tmpl, "metadata", SL_T_MAP);
	if (u->meta) {
		sl_model_field(mc, u->meta, "labels", SL_T_STRMAP);
		sl_model_field(mc, u->meta, "annotations", SL_T_STRMAP);
	}
	bind_min_scale(u);
	return sl_unit_bind_podspec(mc, u, sl_model_field(mc, tmpl, "spec", SL_T_MAP));
}
