/* SPDX-License-Identifier: Apache-2.0
** lws.c: LeaderWorkerSet (leaderworkerset.x-k8s.io/v1): spec.replicas groups of size pods, a
** leader (leaderTemplate, else the worker template) and size - 1 workers. Units: "leader" and
** "worker", or one "leader and workers" when the worker template is the leader's too. Each
** counts the groups as its replicas (what spreading keeps apart), and its own pods
** (docs/domain.md §2). */
#include "model/model.h"

#define EXCLUSIVE "leaderworkerset.sigs.k8s.io/exclusive-topology"

sl_err sl_model_bind_lws(sl_model_ctx *mc, sl_object *o)
{
	const sl_node *rn;
	long long replicas = sl_model_int(mc, o->spec, "replicas", 1, &rn);
	const sl_node *lwt = sl_model_field(mc, o->spec, "leaderWorkerTemplate", SL_T_MAP);
	long long size = sl_model_int(mc, lwt, "size", 1, NULL);
	sl_model_field(mc, lwt, "restartPolicy", SL_T_STR);
	const sl_node *sgp = sl_model_field(mc, lwt, "subGroupPolicy", SL_T_MAP);
	sl_model_field(mc, sgp, "subGroupSize", SL_T_INT);
	sl_model_field(mc, o->spec, "startupPolicy", SL_T_STR);
	const sl_node *leader = sl_model_field(mc, lwt, "leaderTemplate", SL_T_MAP);
	const sl_node *worker = sl_model_field(mc, lwt, "workerTemplate", SL_T_MAP);
	const sl_node *ex = sl_map_get(o->annotations, EXCLUSIVE);
	if (!lwt)
		return SL_OK;
	sl_unit *u;
	sl_err err;
	if (leader) {
		if ((err = sl_model_bind_template(mc, o, leader, SL_ROLE_LEADER, "leader", &u)))
			return err;
		u->replicas = rn;
		u->min_replicas = replicas;
		u->pods = replicas;
		u->exclusive_topology = ex;
	}
	if ((err = sl_model_bind_template(mc, o, worker, SL_ROLE_WORKER,
					  leader ? "worker" : "leader and workers", &u)))
		return err;
	long long per_group = leader ? size - 1 : size;
	u->replicas = rn;
	u->min_replicas = per_group > 0 ? replicas : 0;
	u->pods = sl_model_pods(replicas, per_group > 0 ? per_group : 0);
	u->exclusive_topology = ex;
	return SL_OK;
}
