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
** the accessors of config/values.h and the lookups of index_lookups.h, never their fields
** (config.h and index.h are the engine's; tests/meta.c checks that rule.h cannot reach them). */
#ifndef SL_RULE_H
#define SL_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "schedlint/error.h"        /* sl_err */
#include "schedlint/finding.h"      /* sl_severity, sl_fix_applicability */
#include "schedlint/rule.h"         /* the public SDK, plugins' part of this one */
#include "util/arena.h"             /* the file's arena: sl_arena_printf, sl_arena_strndup */
#include "config/rule_def.h"        /* struct sl_rule: what SL_RULE defines */
/* What a rule reads, besides its context (below): */
#include "yaml/yaml_tree.h"         /* the tree: sl_map_get, sl_scalar, sl_map_n/sl_seq_n ... */
#include "yaml/template.h"          /* a placeholder is unknown, never invalid: sl_template_in_value */
#include "model/model.h"            /* objects and units: sl_object, sl_unit, sl_container */
#include "config/values.h"          /* the config's values: sl_config_spot_labels ... */
#include "sched/index_lookups.h"    /* across the linted files: sl_index_find ... */
#include "sched/cluster.h"          /* the cluster's facts, with their sources */
#include "sched/merge.h"            /* a unit merged over its template: sl_merged_* */
#include "sched/selection.h"        /* what keeps a unit's pods on nodes */
#include "sched/gpu.h"              /* how a unit uses GPUs */
#include "sched/pool.h"             /* the cluster's node pools (sl_index_pool_set) */
#include "sched/placement.h"        /* can a unit land on a pool: the scheduler's filters */
#include "k8s/k8s.h"                /* Kubernetes' own validation, ported: */
#include "k8s/affinity.h"
#include "k8s/labels.h"
#include "k8s/quantity.h"
#include "k8s/resources.h"
#include "k8s/taints.h"

typedef struct sl_ctx sl_ctx;
typedef struct sl_report sl_report;   /* a finding being reported: attach notes and a fix to it */

/* === the rule ================================================================================= */

/* struct sl_rule, what SL_RULE defines, is in config/rule_def.h: its fields say what the rule
** is (id, category, summary, severity, fix), which check the engine calls (check_object or
** check_unit) and on what (.kinds, .modes: SL_KIND_BIT, SL_MODE_BIT). */

/* Defines the rule `stem` (its snake_case id). The registry generator finds it. */
#define SL_RULE(stem, ...) const struct sl_rule sl_rule__##stem = {__VA_ARGS__}

/* === read ===================================================================================== */

/* --- the context ------------------------------------------------------------------------------ */
/* The run's config and index: opaque, for config/values.h's accessors and index_lookups.h's
** lookups. */
const sl_config *sl_ctx_config(const sl_ctx *ctx);
const sl_index *sl_ctx_index(const sl_ctx *ctx);
/* The arena of the file being linted: what a rule allocates, for as long as the file's report. */
sl_arena *sl_ctx_arena(sl_ctx *ctx);
/* The file being linted. */
const sl_source *sl_ctx_source(const sl_ctx *ctx);
/* The run's budget for user-written patterns (util/regex.h: sl_regex_match_budget). */
struct sl_regex_budget;
struct sl_regex_budget *sl_ctx_regex_budget(sl_ctx *ctx);
/* The rule running: for rules made at run time (declared rules, plugins), whose descriptor is
** the head of their own data. */
const struct sl_rule *sl_ctx_rule(const sl_ctx *ctx);
/* A slot that stays while one object is checked (NULL when the engine moves to the next one):
** what rules made at run time compute once per object and share (declared rules: the $unit
** facts of its units), in the file's arena. NULL when memory ran out. */
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
** then drawn on the merged unit that uses it (spec/rules.md, templates), not on the template.
** Before every file's units are known (a streaming run's split check: lint/engine.h) a check
** that asks this of its own template's unit runs once for each answer, and what each run
** reports is kept only if the answer turns out so: a check reports the same for the same answer
** each time it runs. */
bool sl_ctx_unit_is_used_template(sl_ctx *ctx, const sl_unit *u);
/* u merged over its template among the linted files (merge.h): iterate its effective
** tolerations, nodeSelector pairs, spread constraints and affinity lists with the sl_merged_*
** accessors. Made once per unit of the object being checked, for every rule that asks. */
sl_merged sl_ctx_merged(sl_ctx *ctx, const sl_unit *u);
/* u on every known node pool (placement.h), computed once per unit for all the rules that ask;
** NULL when there is nothing to judge: no pool is known, u is not scheduled (nodeName) or is a
** template (judged where it is used), and when memory ran out (the check then fails). Walk its
** pools with sl_placement_pools(p, landing) and sl_placement_next; a pool's reasons in words,
** for a finding: sl_placement_eval(p->pod, it.pool, sl_ctx_arena(ctx)).
**     const sl_placement *p = sl_ctx_placement(ctx, u);
**     if (!p)
**         return SL_OK;
**     for (sl_placement_iter it = sl_placement_pools(p, true); sl_placement_next(&it);)
**         ... it.pool lets u land ... */
const sl_placement *sl_ctx_placement(sl_ctx *ctx, const sl_unit *u);

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

/* --- a check that compares its unit with every serving unit ----------------------------------- */
/* A rule whose check needs every serving unit of the run (waits_for_units, the index's serving
** table) does in check_unit what needs the tree, and leaves the comparison to its .resume
** (config/rule_def.h), which the engine runs once every serving unit is known: at once in a
** check of the whole file, in a later pass without the tree in a streaming run's split check.
** sl_ctx_defer captures where its finding will go (node at, as sl_report_at places it) and returns
** size zeroed bytes, kept until the resume, for the rule's plain data: no pointer into the tree
** or the file's arena (copy strings with sl_ctx_defer_str). NULL when the rule is off for the file,
** at is NULL, or memory ran out: nothing is resumed then. */
void *sl_ctx_defer(sl_ctx *ctx, const sl_node *at, size_t size);
/* s copied to live as long as what sl_ctx_defer returned (NULL when s is NULL or memory ran out). */
const char *sl_ctx_defer_str(sl_ctx *ctx, const char *s);
/* In .resume: reports at the place sl_ctx_defer captured, as sl_report_at would have; add notes
** with sl_report_note. A deferred finding takes no fix: the fix helpers decline it. */
sl_report *sl_report_deferred(sl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
