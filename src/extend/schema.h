/* SPDX-License-Identifier: Apache-2.0
** schema.h: JSON Schema over the positioned tree. A schema written in YAML (or JSON, which the
** tree reads as YAML) is compiled once (every keyword checked, patterns compiled with PCRE2,
** local $refs resolved) and then validates instances that are positioned nodes, so a failing
** value has a line and column. The keywords are draft 7's subset that spec/custom-rules.md
** lists, with draft 7's semantics (checked against the official JSON-Schema-Test-Suite by
** tests/unit/test_schema.c), plus quantityMinimum / quantityMaximum, which compare a Kubernetes
** quantity numerically. Scalars are typed as Kubernetes decodes YAML (YAML 1.1: `yes` is a
** boolean, `"3"` a string); a mapping key is always a string, as in JSON. */
#ifndef SL_SCHEMA_H
#define SL_SCHEMA_H

#include <stdbool.h>
#include "util/arena.h"
#include "yaml/yaml_tree.h"

struct sl_regex_budget;

typedef struct sl_schema sl_schema;

/* Why a schema did not compile: at is the schema node at fault (a keyword's key, or the
** value that is wrong); unsupported is true for what the subset leaves out (a keyword outside
** it, a $ref that is not local) rather than a schema that is wrong. */
typedef struct sl_schema_problem {
	const sl_node *at;
	bool unsupported;
	char message[320];
} sl_schema_problem;

/* Compiles the schema whose root is node root (a mapping, or a boolean scalar). The schema
** reads root's tree for as long as it lives. SL_ECONFIG with *problem filled in for a schema
** that does not compile; SL_ENOMEM. */
sl_err sl_schema_compile(const sl_node *root, sl_schema **out, sl_schema_problem *problem);
void sl_schema_free(sl_schema *s);

/* False when validating with s never reads the value of an object's member called name (it
** may still see that the member is there, and its key): no properties entry anywhere in s
** names it, and no keyword reads members it does not name (patternProperties,
** additionalProperties) or compares whole values (enum, const). For values that cost to make:
** a declared rule's $unit facts. */
bool sl_schema_reads_member(const sl_schema *s, const char *name);

/* Why an instance failed: at is the deepest instance node where validation failed (for a
** missing required member, the mapping that lacks it, with missing set); message says what is
** wrong in plain words ("priorityClassName \"batch\" does not match ^inference-"), an arena
** string; value is the failing scalar's text (NULL for a collection); unrun counts the
** patterns not matched because the run's budget was spent (sl_schema_validate_budget). */
typedef struct sl_schema_failure {
	const sl_node *at;
	bool missing;
	const char *message;
	const char *value;
	size_t unrun;
} sl_schema_failure;

/* Validates instance (NULL is JSON null) against s: 1 when valid, 0 when not (*out says where
** and why), -1 when memory ran out. Strings from a are used for the message. Thread-safe: s is
** only read. */
int sl_schema_validate(const sl_schema *s, const sl_node *instance, sl_arena *a,
		       sl_schema_failure *out);
/* sl_schema_validate with its patterns charged to budget (util/regex.h; NULL: none): once the
** run's is spent, a pattern is undecided and fails with a message saying so. */
int sl_schema_validate_budget(const sl_schema *s, const sl_node *instance, sl_arena *a,
			      struct sl_regex_budget *budget, sl_schema_failure *out);

#endif
