/* SPDX-License-Identifier: Apache-2.0
** rule.h: the rule SDK, the contract between a rule and the engine. A rule is one file under
** rules/<category>/ that includes this header and nothing else (tests/meta.c checks it): a doc
** block, a check function and SL_RULE(...). The engine calls check_object once per modelled
** object and check_unit once per placement unit, of the kinds and modes the rule declares, for
** every enabled rule; the rule reports findings with sl_report_*() and returns SL_OK (a finding
** is not an error). Everything a rule allocates comes from the file's arena (sl_ctx_arena) and
** is never freed by the rule.
**
** What a rule may do comes in three parts, in this order below:
**   read    its context (the file, the object and unit under check), the YAML tree, the model
**           of objects and units, the config's values, the index's lookups across the linted
**           files, the cluster's facts, the unit merged over its template, GPUs, and
**           Kubernetes' own validation;
**   report  findings at a node, with notes, their severity capped when a fact is unknown;
**   fix     byte-range edits on the original text, rendered in the file's style.
** The config (sl_config) and the index (sl_index) are opaque here: a rule reads them through
** the accessors of config_values.h and the lookups of index_lookups.h, never their fields
** (config.h and index.h are the engine's; tests/meta.c checks that rule.h cannot reach them). */
#ifndef SL_RULE_H
#define SL_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "schedlint/error.h"     /* sl_err */
#include "schedlint/finding.h"   /* sl_severity, sl_fix_applicability */
#include "schedlint/rule.h"      /* the public SDK, plugins' part of this one */
#include "arena.h"               /* the file's arena: sl_arena_printf, sl_arena_strndup */
/* What a rule reads, besides its context (below): */
#include "yaml_tree.h"           /* the tree: sl_map_get, sl_scalar, sl_map_n/sl_seq_n ... */
#include "template.h"            /* a placeholder is unknown, never invalid: sl_template_in_value */
#include "model/model.h"         /* objects and units: sl_object, sl_unit, sl_container */
#include "config_values.h"       /* the config's values: sl_config_spot_labels ... */
#include "index_lookups.h"       /* across the linted files: sl_index_find ... */
#include "cluster.h"             /* the cluster's facts, with their sources */
#include "merge.h"               /* a unit merged over its template: sl_merged_* */
#include "selection.h"           /* what keeps a unit's pods on nodes */
#include "gpu.h"                 /* how a unit uses GPUs */
#include "pool.h"                /* the cluster's node pools (sl_index_pool_set) */
#include "placement.h"           /* can a unit land on a pool: the scheduler's filters */
#include "k8s/k8s.h"             /* Kubernetes' own validation, ported: */
#include "k8s/affinity.h"
#include "k8s/labels.h"
#include "k8s/quantity.h"
#include "k8s/resources.h"
#include "k8s/taints.h"

typedef struct sl_ctx sl_ctx;
typedef struct sl_report sl_report;   /* a finding being reported: attach notes and a fix to it */

/* === the rule ================================================================================= */

struct sl_rule {
	const char *id;              /* kebab-case; the file name is its snake_case */
	const char *category;        /* the rules/<category>/ directory */
	const char *summary;         /* one line, for `schedlint rules` */
	sl_severity severity;        /* default severity */
	bool off_by_default;         /* enabled only by the config or --select */
	sl_fix_applicability fix;    /* what its fixes are, SL_FIX_NONE when it never edits */
	/* At most one of these is set; neither for findings the parser or binder produces. */
	sl_err (*check_object)(sl_ctx *ctx, const sl_object *o);
	sl_err (*check_unit)(sl_ctx *ctx, const sl_unit *u);
	/* For a unit rule that compares u with every serving unit of the run (the index's serving
	** table, sl_index_serving_priorities): true when checking u needs that table. A streaming
	** run, which gathers the serving units as it checks the files, checks u's file after all
	** the others. NULL for the rules that read only the looked-up kinds. */
	bool (*waits_for_units)(sl_ctx *ctx, const sl_unit *u);
	/* With waits_for_units: the kinds (SL_KIND_BIT) whose units it may hold for under cfg; NULL
	** for any kind. A run over some files reads the serving units of the project's other files
	** only when one of its files names such a kind. */
	uint64_t (*waits_on_kinds)(const sl_config *cfg);
	/* check_unit also runs on units that build no pod (sl_unit_builds_no_pod: a ModelMesh
	** predictor), which the engine otherwise skips: for rules about the manifest itself. */
	bool podless_units;
	/* The kinds and run modes the rule applies to, 0 for all: the engine calls check_object
	** only on objects whose kind and mode they hold, check_unit only on units whose object's
	** kind and whose own mode they hold, so the rule does not test them again:
	**   .kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE) | SL_KIND_BIT(SL_KIND_INFERENCE_GRAPH)
	**   .kinds = ~SL_KIND_BIT(SL_KIND_DAEMONSET)       every kind but DaemonSets
	**   .modes = SL_MODE_BIT(SL_MODE_KNATIVE) */
	uint64_t kinds;
	unsigned modes;
	/* One finding for one cause: the ids of rules (NULL-terminated) this rule yields to. A
	** finding of this rule that states a cause (sl_report_cause) which a finding of one of them
	** about the same unit states too is not reported; that finding takes its message and notes
	** as notes, and the more severe severity. The rule's doc says which and why. */
	const char *const *yields_to;
	/* A notice rule: what it reports is about schedlint's own limits (a Helm chart it does not
	** render, a kustomization it does not build, a templated file it does not lint), nothing
	** to change in the manifest. It reports as any rule does, so its suppressions, `off` and
	** unused-suppression work the same, but the run delivers what it reports among its
	** notices (sl_run_notice), never its findings: not counted, never failing a run, one line
	** per rule in text output, under these words for one and for several:
	**   .notice = {"Helm chart not linted", "Helm charts not linted"}
	** NULL for a rule that reports findings. Its severity is SL_SEV_INFO. */
	const char *notice[2];
};

#define SL_KIND_BIT(k) ((uint64_t)1 << (k))
#define SL_MODE_BIT(m) (1u << (m))

/* Defines the rule `stem` (its snake_case id). The registry generator finds it. */
#define SL_RULE(stem, ...) const struct sl_rule sl_rule__##stem = {__VA_ARGS__}

/* === read ===================================================================================== */

/* --- the context ------------------------------------------------------------------------------ */
/* The run's config and index: opaque, for config_values.h's accessors and index_lookups.h's
** lookups. */
const sl_config *sl_ctx_config(const sl_ctx *ctx);
const sl_index *sl_ctx_index(const sl_ctx *ctx);
/* The arena of the file being linted: what a rule allocates, for as long as the file's report. */
sl_arena *sl_ctx_arena(sl_ctx *ctx);
/* The file being linted. */
const sl_source *sl_ctx_source(const sl_ctx *ctx);
/* The rule running: for rules made at run time (declared rules, plugins), whose descriptor is
** the head of their own data. */
const struct sl_rule *sl_ctx_rule(const sl_ctx *ctx);
/* A slot that stays while one object is checked (NULL when the engine moves to the next one):
** what rules made at run time compute once per object and share (declared rules: the $unit
** facts of its units), in the file's arena. */
void **sl_ctx_object_cache(sl_ctx *ctx);
/* The source text of node n as written (quotes included), from whichever linted file holds it;
** an arena string. */
const char *sl_ctx_node_text(sl_ctx *ctx, const sl_node *n);
/* sl_ctx_node_text of scalar n when a fix can copy that text as is onto one line: a plain or quoted
** scalar, non-empty, without an anchor, a tag or a line break; NULL for anything else (a block
** scalar, a collection, an alias). */
const char *sl_ctx_node_one_line(sl_ctx *ctx, const sl_node *n);

/* --- the unit and its template ---------------------------------------------------------------- */
/* Declared in schedlint/rule.h: sl_ctx_label(ctx, u), the unit's name for messages
** ("InferenceService sklearn-iris, predictor"); sl_ctx_unit_gpus(ctx, u), the GPUs u's
** containers ask for (sl_gpu_unit_count under the file's config). */
/* How messages name a container: "container \"kserve-container\"", or the implementation
** key for a KServe framework container ("sklearn"). */
const char *sl_ctx_container_label(sl_ctx *ctx, const sl_container *c);
/* True when u belongs to a template (ServingRuntime, ClusterServingRuntime, Seldon ServerConfig,
** LLMInferenceServiceConfig) that a unit among the linted files uses: placement conclusions are
** then drawn on the merged unit that uses it (spec/rules.md, templates), not on the template. */
bool sl_ctx_unit_is_used_template(sl_ctx *ctx, const sl_unit *u);
/* u merged over its template among the linted files (merge.h): iterate its effective
** tolerations, nodeSelector pairs, spread constraints and affinity lists with the sl_merged_*
** accessors. */
sl_merged sl_ctx_merged(sl_ctx *ctx, const sl_unit *u);
/* u's fits on every known node pool (placement.h: sl_placement_unit), computed once per unit
** for all the rules that ask: (*v)[i] is u on (*pools)[i]; *n is 0 when no pool is known, u is
** not scheduled or is a template. The reasons in words, for a finding: sl_placement_eval(*pod,
** &(*pools)[i], sl_ctx_arena(ctx)). SL_ENOMEM. */
sl_err sl_ctx_placement(sl_ctx *ctx, const sl_unit *u, const sl_placement_fit **v,
			const sl_pool **pools, const sl_placement_pod **pod, size_t *n);

/* === report =================================================================================== */

/* The finding covers the node's text (a key node: the key; a value: the value), gets its JSON
** pointer, and the object and unit being checked. fmt is printf-style. Returns the report (to
** attach a fix) or NULL when the rule is filtered out or memory ran out:
**   sl_report_at(ctx, at, fmt, ...)    (declared in schedlint/rule.h, as are the next two)
** Reports at the key of the field whose value is `value` (e.g. "tolerations:"):
**   sl_report_key(ctx, value, fmt, ...)
** Adds a note to r: the why, the upstream error text, the way out (spec/rules.md: "messages are
** short"; the first line says what is wrong and where, the notes say the rest). Each call adds
** one paragraph. A NULL r is a no-op:
**   sl_report_note(ctx, r, fmt, ...) */
/* Reports a field the API server rejects, quoting its validation message (field.ErrorList
** text: "Invalid value: \"gpu type\": name part must consist of ..."): the first line is
** "<label>: <path>: <the message's type, value and first clause>", the whole message goes to a
** note. */
sl_report *sl_report_rejected(sl_ctx *ctx, const sl_node *at, const char *label, const char *path,
			      const char *message);
/* Names a cause of r, in words another rule's finding may name too ("untolerated taint
** nvidia.com/gpu"): one call per cause. A rule that yields to another (sl_rule.yields_to) drops
** its finding when a finding of that rule about the same unit names one of its causes. */
void sl_report_cause(sl_ctx *ctx, sl_report *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Caps r's severity at sev: for a finding whose claim rests on a cluster fact nothing decides
** (the message says which and how to settle it). A rule configured lower stays lower. */
void sl_report_cap(sl_report *r, sl_severity sev);
/* s with every file path in it shortened to the file's name ("a/b/c.yaml:7" -> "c.yaml:7"):
** for a first line that names a source; the notes keep the full paths. An arena string. */
const char *sl_ctx_short_paths(sl_ctx *ctx, const char *s);
/* For a KServe object whose mode comes from the cluster's default (o->mode_defaulted): adds the
** note saying so, naming where the default comes from (sl_cluster_kserve_default_mode). A
** no-op for an object with a valid mode annotation. */
sl_err sl_report_note_default_mode(sl_ctx *ctx, sl_report *r, const sl_object *o);

/* === fix ====================================================================================== */

/* Byte-range edits on the original text (never a re-emission): the file keeps its comments,
** quoting, key order and anchors everywhere the fix does not touch. */
/* Replaces bytes [start,end) of the current file with text. */
sl_err sl_fix_replace(sl_ctx *ctx, sl_report *r, size_t start, size_t end, const char *text);
/* Replaces bytes [start,end) of another linted file (the one that holds object `in`). */
sl_err sl_fix_replace_in(sl_ctx *ctx, sl_report *r, const sl_object *in, size_t start, size_t end,
			 const char *text);
/* Rendering helpers: the edit follows the style of the file that holds the node (indent width,
** sequence indentation, quoting, line endings), in whichever linted file that is. A fragment is
** YAML written with two-space indentation from column 0 ("nvidia.com/gpu: 1", or
** "key: nvidia.com/gpu\noperator: Exists"). They return false when the edit is declined (a
** block fragment into a flow collection, a key the mapping already has (merged keys count), a
** node inside an anchored one (an edit there would reach every alias and "<<" merge of it), an
** edit that overlaps one the fix already has, or inserts where it inserts): the report's whole
** fix is then dropped, edits made before included, so a fix is never applied in part. A rule
** can make its edits one after another and stop at the first false. */
/* Adds `key: fragment` as the last entry of mapping map: sl_fix_add_entry(ctx, r, map, key,
** fragment), in schedlint/rule.h with sl_fix_remove, sl_fix_replace_node, sl_fix_describe. */
/* Appends an item (fragment without "- ") to sequence seq. */
bool sl_fix_add_item(sl_ctx *ctx, sl_report *r, const sl_node *seq, const char *fragment);
/* Removes a mapping entry (its key or value node) or a sequence item, with its own lines:
** sl_fix_remove(ctx, r, n). Replaces a scalar node's text (quotes included) with text:
** sl_fix_replace_node(ctx, r, n, text). */
/* s quoted with the quote the file of node n prefers, escaped so it reads back as s (arena
** string; NULL when s is not UTF-8). */
const char *sl_fix_quote(sl_ctx *ctx, const sl_node *n, const char *s);
/* s written in the quotes of scalar n (single, double, or none for a plain or block scalar):
** a corrected spelling put in place of n's ("exists" -> "Exists"). s is not escaped, so it
** must be a word that needs none. An arena string. */
const char *sl_fix_requote(sl_ctx *ctx, const sl_node *n, const char *s);
/* s as a YAML scalar for a fix's text: plain when that reads back as the string s in block and
** flow context alike, else quoted as sl_fix_quote does. Every string a rule puts into a fix's
** YAML (a label, a name, a value copied from another object) goes through it; NULL when it
** cannot be written (the fix is then declined). */
const char *sl_fix_scalar(sl_ctx *ctx, const sl_node *n, const char *s);
/* Marks r's fix as safe or unsafe with a message saying what it does:
** sl_fix_describe(ctx, r, applicability, fmt, ...). */

#endif
