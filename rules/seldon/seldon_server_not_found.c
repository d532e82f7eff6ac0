/* SPDX-License-Identifier: Apache-2.0
** seldon-server-not-found: a Seldon Model pins itself to a Server that is not among the linted
** files. One finding per Model, at spec.server. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a Seldon Core 2 Model whose `spec.server` names no Server among the linted files. The
 * rule runs only when at least one Server is among them: otherwise the Servers are presumably
 * managed elsewhere and the linter cannot tell.
 *
 * ## Why is this bad?
 * `spec.server` pins the model to one Server: Seldon's scheduler keeps only the replicas of the
 * Server with that exact name (`SharingServerFilter`) and no other Server qualifies. When no such
 * Server exists the model is never loaded and stays `ScheduleFailed`, and nothing rejects it at
 * apply time: the Model is accepted by the API server and fails only in the scheduler.
 *
 * ## Example
 * ```yaml
 * apiVersion: mlops.seldon.io/v1alpha1
 * kind: Server
 * metadata:
 *   name: mlserver-gpu
 * spec:
 *   serverConfig: mlserver
 * ---
 * apiVersion: mlops.seldon.io/v1alpha1
 * kind: Model
 * metadata:
 *   name: iris
 * spec:
 *   storageUri: gs://models/iris
 *   server: mlserver-gpus
 * ```
 * Use instead:
 * ```yaml
 * spec:
 *   storageUri: gs://models/iris
 *   server: mlserver-gpu
 * ```
 *
 * ## Fix safety
 * No fix: the intended Server cannot be known for certain.
 *
 * ## Options
 * None.
 *
 * ## References
 * - SeldonIO/seldon-core operator/apis/mlops/v1alpha1/model_types.go (`server`: "Name of the
 *   Server to deploy this artifact")
 * - SeldonIO/seldon-core scheduler/pkg/scheduler/filters/sharing.go (`SharingServerFilter`)
 * - Seldon Core 2 docs, Servers: https://docs.seldon.ai/seldon-core-2/user-guide/servers
 */
static sl_err check(sl_ctx *ctx, const sl_object *o)
{
	const sl_node *server = sl_map_get(o->spec, "server");
	const char *name = sl_scalar(server);
	if (!name || !*name || sl_scalar_type(server) != SL_Y_STR)
		return SL_OK;
	const sl_index *ix = sl_ctx_index(ctx);
	size_t n = sl_index_count(ix, SL_KIND_SELDON_SERVER);   /* the Servers read only to report */
	if (n == 0 || sl_index_find(ix, SL_KIND_SELDON_SERVER, name))
		return SL_OK;
	const sl_object *const *servers = sl_index_objects(ix, SL_KIND_SELDON_SERVER, &n);
	sl_report *r = sl_report_at(ctx, server, "Model %s names Server %s, which is not among the "
				    "linted files", o->name ? o->name : "(unnamed)", name);
	sl_report_note(ctx, r, "The linted files define %zu Server%s (for example %s).", n,
		       n == 1 ? "" : "s", servers[0]->name ? servers[0]->name : "(unnamed)");
	sl_report_note(ctx, r, "Seldon's scheduler finds no server for the model, which is never "
		       "loaded: fix the name, or lint the Server's file with it.");
	return SL_OK;
}

SL_RULE(seldon_server_not_found, .id = "seldon-server-not-found", .category = "seldon",
	.summary = "A Seldon Model's spec.server names no Server among the linted files",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE, .check_object = check,
	.kinds = SL_KIND_BIT(SL_KIND_SELDON_MODEL));
