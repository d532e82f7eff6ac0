/* SPDX-License-Identifier: Apache-2.0
** seldon.c: Seldon Core 2 Server and ServerConfig (one unit each: spec.podSpec, a Server unit
** exists even without a podSpec since it still runs replicas) and Model (no unit). */
#include "model/model.h"

sl_err sl_model_bind_seldon(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *spec = o->spec;
	if (o->kind == SL_KIND_SELDON_MODEL) {
		sl_model_field(mc, spec, "server", SL_T_STR);
		sl_model_field(mc, spec, "replicas", SL_T_INT);
		sl_model_field(mc, spec, "minReplicas", SL_T_INT);
		sl_model_field(mc, spec, "maxReplicas", SL_T_INT);
		sl_model_field(mc, spec, "memory", SL_T_QUANTITY);
		sl_model_field(mc, spec, "requirements", SL_T_SEQ);
		return SL_OK;
	}
	sl_unit *u = sl_model_add_unit(mc, o, SL_ROLE_SERVER, NULL);
	if (!u)
		return SL_ENOMEM;
	if (o->kind == SL_KIND_SELDON_SERVER) {
		long long r = 1, mn = -1;
		const sl_node *rep = sl_model_field(mc, spec, "replicas", SL_T_INT);
		const sl_node *min = sl_model_field(mc, spec, "minReplicas", SL_T_INT);
		sl_model_field(mc, spec, "maxReplicas", SL_T_INT);
		sl_model_field(mc, spec, "serverConfig", SL_T_STR);
		if (rep && sl_scalar_int(rep, &r))
			u->replicas = rep;
		if (min && sl_scalar_int(min, &mn) && mn > r && !rep) {
			r = mn;
			u->replicas = min;
		}
		u->min_replicas = r;
	}
	return sl_unit_bind_podspec(mc, u, sl_model_field(mc, spec, "podSpec", SL_T_MAP));
}
