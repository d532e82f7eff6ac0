/* SPDX-License-Identifier: Apache-2.0
** kubeflow.c: the Kubeflow training operator's v1 jobs (kubeflow.org/v1 PyTorchJob, TFJob,
** MPIJob, XGBoostJob, PaddleJob, JAXJob; the mpi-operator's v2beta1 MPIJob): spec.<x>ReplicaSpecs
** maps a replica type to {replicas, template}; a unit per type, named by it ("Worker"), making
** replicas pods (default 1; an MPIJob's Worker 0). They run to completion (docs/domain.md §5). */
#include <strings.h>
#include "model/model.h"

static const char *specs_key(sl_kind k)
{
	switch (k) {
	case SL_KIND_PYTORCH_JOB: return "pytorchReplicaSpecs";
	case SL_KIND_TF_JOB: return "tfReplicaSpecs";
	case SL_KIND_MPI_JOB: return "mpiReplicaSpecs";
	case SL_KIND_XGBOOST_JOB: return "xgbReplicaSpecs";
	case SL_KIND_PADDLE_JOB: return "paddleReplicaSpecs";
	case SL_KIND_JAX_JOB: return "jaxReplicaSpecs";
	default: return NULL;
	}
}

sl_err sl_model_bind_kubeflow(sl_model_ctx *mc, sl_object *o)
{
	const char *key = specs_key(o->kind);
	const sl_node *specs = key ? sl_model_field(mc, o->spec, key, SL_T_MAP) : NULL;
	size_t n;
	const sl_pair *p = sl_map_entries(specs, &n);
	for (size_t i = 0; i < n; i++) {
		const char *type = sl_scalar(p[i].key);
		const sl_node *rs = sl_model_expect(mc, p[i].value, SL_T_MAP, type ? type : "replica");
		if (!type || !rs)
			continue;
		/* the coordinators: the operator's Master, Chief and Launcher (any case) */
		bool head = strcasecmp(type, "Master") == 0 || strcasecmp(type, "Chief") == 0 ||
			    strcasecmp(type, "Launcher") == 0;
		bool mpi_worker = o->kind == SL_KIND_MPI_JOB && strcasecmp(type, "Worker") == 0;
		long long replicas = sl_model_int(mc, rs, "replicas", mpi_worker ? 0 : 1, NULL);
		sl_model_field(mc, rs, "restartPolicy", SL_T_STR);
		sl_unit *u;
		sl_err err = sl_model_bind_template(mc, o, sl_model_field(mc, rs, "template", SL_T_MAP),
						    head ? SL_ROLE_HEAD : SL_ROLE_WORKER, type, &u);
		if (err)
			return err;
		u->pods = replicas;
	}
	return SL_OK;
}
