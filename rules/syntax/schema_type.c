/* SPDX-License-Identifier: Apache-2.0
** schema-type: a modelled field has the wrong YAML type. Produced by the binders
** (src/model/object.c, sl_model_expect); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a field schedlint models whose value has the wrong YAML type: `tolerations:` written as
 * a mapping, `nodeSelector:` as a list, `minReplicas: two`, a quoted number in an integer field
 * (`replicas: "3"`), or a nodeSelector, label, annotation or ConfigMap value that YAML reads as a
 * boolean or a number. Kubernetes decodes YAML 1.1 (go-yaml v2), so `yes`, `no`, `on`, `off`,
 * `y` and `n` are booleans there too.
 *
 * The fields read are the ones each kind's binder models, typed as the kind's CRD (or Go type)
 * declares them: every pod template's PodSpec fields (a Pod's, a workload's, a KServe, Knative
 * or Seldon component's, a Ray head or worker group's, a LeaderWorkerSet leader's or worker's, a
 * JobSet or training runtime's replicated job's, a Kubeflow v1 replica type's, a Volcano task's);
 * and the kinds' own counts and switches: Ray `replicas`, `minReplicas`, `maxReplicas`,
 * `numOfHosts`, `suspend`, and `rayStartParams`, `labels`, `resources` (maps of strings:
 * `num-gpus: 1` unquoted is rejected); LeaderWorkerSet `replicas`, `size`; JobSet `replicas`, `parallelism`,
 * `completions`; Kubeflow `replicas`; Volcano `replicas`, `minAvailable`; TrainJob and
 * runtime `numNodes`; KAITO `count`, `instanceType`; SparkApplication `instances`, `cores`
 * (an integer in `v1beta2`, a number in `v1beta1`), `gpu.quantity`, `nodeSelector`
 * (docs/domain.md).
 *
 * ## Why is this bad?
 * The API server cannot decode the object: `cannot unmarshal bool into Go struct field
 * PodSpec.spec.nodeSelector of type string`. A field that is not even the right kind of node (a
 * mapping where a list belongs) is left out of the model, so the other rules skip it.
 *
 * ## Example
 * ```yaml
 * nodeSelector:
 *   nvidia.com/gpu.present: true
 * ```
 * Use instead:
 * ```yaml
 * nodeSelector:
 *   nvidia.com/gpu.present: "true"
 * ```
 *
 * ## Fix safety
 * Safe for a boolean or number nodeSelector, label, annotation or ConfigMap value: the fix
 * quotes the text as written (`true` becomes `"true"`), which is what the author meant and the
 * only value the API server accepts. Other type errors have no fix. The fix never makes another
 * finding appear: the rules already read such a mapping value as its text (`true` as the string
 * "true"), so quoting it changes nothing they see.
 *
 * ## Options
 * None.
 *
 * ## References
 * - go-yaml v2 resolution of plain scalars (resolve.go): the YAML 1.1 booleans
 * - kubernetes/api core/v1 types.go: `NodeSelector map[string]string`
 */
SL_RULE(schema_type, .id = "schema-type", .category = "syntax",
	.summary = "A modelled field has the wrong YAML type",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_SAFE);
