/* SPDX-License-Identifier: Apache-2.0
** rule_def.h: a rule's descriptor, struct sl_rule: what a rule file defines with SL_RULE
** (sdk/rule.h) and the registry lists (config/registry.h). The checks' arguments are the SDK's
** opaque types (schedlint/rule.h); nothing here reaches the engine. */
#ifndef SL_RULE_DEF_H
#define SL_RULE_DEF_H

#include <stdbool.h>
#include <stdint.h>
#include "schedlint/config.h"    /* sl_config */
#include "schedlint/error.h"     /* sl_err */
#include "schedlint/finding.h"   /* sl_severity, sl_fix_applicability */
#include "schedlint/rule.h"      /* sl_ctx, sl_object, sl_unit */

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
	** the others (with resume below: only the comparison waits). NULL for the rules that read
	** only the looked-up kinds. */
	bool (*waits_for_units)(sl_ctx *ctx, const sl_unit *u);
	/* With waits_for_units: the rest of the check, which compares u with every serving unit,
	** left by check_unit with sl_ctx_defer (sdk/rule.h) and run with its data once the serving
	** table is complete: at once when the whole file is checked then, in pass 3 without the
	** file's tree when a streaming run checks it in two parts (then u's file need not wait).
	** It reports at the place sl_ctx_defer captured (sl_report_deferred), never with a fix.
	** NULL: check_unit reads the serving table itself and waits for it. */
	sl_err (*resume)(sl_ctx *ctx, const void *data);
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

#endif
