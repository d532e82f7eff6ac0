/* SPDX-License-Identifier: Apache-2.0
** schedlint/rule.h: the public rule SDK, for plugins (docs/custom-rules.md). A plugin is a
** shared object that exports schedlint_plugin(); schedlint loads it with `--plugin PATH` (or a
** config's `plugins:`, only with --allow-plugins) and runs its rules like the built-in ones:
** they have ids (with the plugin's namespace: "acme/..."), severities, docs for `explain`,
** suppressions, --select/--ignore, SARIF metadata. Build one with
**     cc -shared -fPIC -o acme.so acme.c $(pkg-config --cflags schedlint-plugin)
** Everything here is opaque types and functions: no struct layout of the library's, so the
** library may change them. SL_RULE_ABI_VERSION changes with any incompatible change of this
** header; a plugin built for another one is refused, before any of its code runs (the version
** is read from the plugin's SL_PLUGIN_ABI section, not by calling it). */
#ifndef SCHEDLINT_RULE_H
#define SCHEDLINT_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include "schedlint/error.h"
#include "schedlint/export.h"
#include "schedlint/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SL_RULE_ABI_VERSION 1

typedef struct sl_ctx sl_ctx;         /* what a check sees: the file, the object, the unit */
typedef struct sl_node sl_node;       /* a node of the manifest's YAML tree, with its position */
typedef struct sl_object sl_object;   /* a Kubernetes object of the manifest */
typedef struct sl_unit sl_unit;       /* a placement unit: one pod template of an object */
typedef struct sl_report sl_report;   /* a finding being reported */

/* One rule. The engine calls check_object once per object, check_unit once per unit that
** builds pods (set one of them); a check reports with sl_report_* and returns SL_OK. */
typedef struct sl_plugin_rule {
	const char *id;            /* "namespace/name": lower-case, digits, '-', '.', '_' */
	const char *summary;       /* one line, for `schedlint rules` */
	const char *doc;           /* Markdown, for `schedlint explain` and SARIF (NULL: summary) */
	sl_severity severity;      /* default severity */
	sl_fix_applicability fix;  /* what its fixes are: SL_FIX_NONE when it never edits */
	sl_err (*check_object)(sl_ctx *ctx, const sl_object *o);
	sl_err (*check_unit)(sl_ctx *ctx, const sl_unit *u);
} sl_plugin_rule;

typedef struct sl_plugin {
	unsigned abi_version;      /* SL_RULE_ABI_VERSION */
	const char *name, *version;
	const sl_plugin_rule *rules;
	size_t n_rules;
} sl_plugin;

/* What a plugin exports: its table, for the ABI version schedlint runs (the same as the
** plugin's, or schedlint never calls it). Strings and the table live as long as the process. */
typedef const sl_plugin *(*sl_plugin_fn)(unsigned abi_version);

/* Marks the plugin with the ABI it was built for: write SL_PLUGIN_ABI; once in a plugin. It is
** an ELF section ("schedlint_abi") schedlint reads before it loads the shared object. */
typedef struct sl_plugin_abi { char magic[8]; unsigned abi_version; } sl_plugin_abi;
#define SL_PLUGIN_ABI_MAGIC "SLRULEAB"
#define SL_PLUGIN_ABI \
	__attribute__((used, section("schedlint_abi"))) \
	const sl_plugin_abi schedlint_plugin_abi = {SL_PLUGIN_ABI_MAGIC, SL_RULE_ABI_VERSION}

/* --- reading the object and its units --------------------------------------------------------- */
SL_API const char *sl_object_kind_name(const sl_object *o);   /* "InferenceService" */
SL_API const char *sl_object_name(const sl_object *o);        /* NULL when unnamed */
SL_API const char *sl_object_namespace(const sl_object *o);   /* NULL when unset */
SL_API const sl_node *sl_object_root(const sl_object *o);     /* the document's mapping */
SL_API size_t sl_object_unit_count(const sl_object *o);
SL_API const sl_unit *sl_object_unit_at(const sl_object *o, size_t i);
SL_API const sl_object *sl_unit_object(const sl_unit *u);
/* "predictor", "transformer", "worker", "pod", "runtime", "server", ... */
SL_API const char *sl_unit_role_name(const sl_unit *u);
/* The mapping that holds the unit's pod spec fields. */
SL_API const sl_node *sl_unit_pod(const sl_unit *u);
/* The replicas the unit keeps running (defaults applied), -1 when unknown; *at (may be NULL)
** gets the node that sets them, NULL when defaulted. */
SL_API long long sl_unit_replicas(const sl_unit *u, const sl_node **at);
/* The GPUs the unit's containers ask for (limits, else requests; init containers left out),
** GPU resources as the config names them. */
SL_API long long sl_ctx_unit_gpus(sl_ctx *ctx, const sl_unit *u);
/* "InferenceService llm, predictor": the unit's name for messages. */
SL_API const char *sl_ctx_label(sl_ctx *ctx, const sl_unit *u);

/* --- reading the tree (aliases followed, "<<" merge keys resolved) --------------------------- */
SL_API const sl_node *sl_map_get(const sl_node *map, const char *key);   /* NULL when absent */
SL_API size_t sl_map_n(const sl_node *map);
SL_API const sl_node *sl_map_key_at(const sl_node *map, size_t i);
SL_API const sl_node *sl_map_value_at(const sl_node *map, size_t i);
SL_API size_t sl_seq_n(const sl_node *seq);
SL_API const sl_node *sl_seq_item(const sl_node *seq, size_t i);
SL_API const char *sl_scalar(const sl_node *n);   /* NULL when n is not a scalar */
/* "mapping", "sequence", "string", "integer", "boolean", "null", "number". */
SL_API const char *sl_node_kind_name(const sl_node *n);

/* --- reporting -------------------------------------------------------------------------------- */
/* A finding of the running rule at node at (its text; a key node: the key), printf-style. NULL
** when the rule is off or memory ran out. */
SL_API sl_report *sl_report_at(sl_ctx *ctx, const sl_node *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* At the key of the member whose value is value ("replicas:"). */
SL_API sl_report *sl_report_key(sl_ctx *ctx, const sl_node *value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A paragraph of explanation under the finding. */
SL_API sl_err sl_report_note(sl_ctx *ctx, sl_report *r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* --- fixing: byte-range edits on the original text, in the file's style ------------------------ */
/* Each returns false when the edit is declined (the report's whole fix is then dropped); a
** fragment is YAML written with two-space indentation ("key: nvidia.com/gpu"). */
/* Replaces a scalar node's text (quotes included) with text. */
SL_API bool sl_fix_replace_node(sl_ctx *ctx, sl_report *r, const sl_node *n, const char *text);
/* Adds `key: fragment` as the last entry of mapping map. */
SL_API bool sl_fix_add_entry(sl_ctx *ctx, sl_report *r, const sl_node *map, const char *key,
			     const char *fragment);
/* Removes a mapping entry (its key or value node) or a sequence item, with its own lines. */
SL_API bool sl_fix_remove(sl_ctx *ctx, sl_report *r, const sl_node *n);
/* Marks r's fix safe or unsafe, with a message saying what it does. */
SL_API sl_err sl_fix_describe(sl_ctx *ctx, sl_report *r, sl_fix_applicability a, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif
