/* SPDX-License-Identifier: Apache-2.0
** yaml-syntax: the file, or one document of it, is not valid YAML. Produced by the parser
** (src/yaml/yaml_tree.c); this file is its documentation. */
#include "sdk/rule.h"

/** ## What it does
 * Reports a file, or one document of a multi-document file, that is not valid YAML, at the
 * position libyaml gives for the problem, with its context ("did not find expected key while
 * parsing a block mapping that started at line 3, column 1"). Also reported: bytes that are not
 * UTF-8, NUL and other control characters YAML forbids, an alias to an anchor that was never
 * defined, and the limits schedlint keeps so hostile input cannot exhaust it (nesting deeper
 * than 1000 levels, more than 10000 aliases in one document, a scalar over 16 MiB, a document
 * over 256 MiB).
 *
 * ## Why is this bad?
 * `kubectl apply` rejects the whole file. The documents before the broken one are still linted,
 * and so are those after it that begin at a `---` line.
 *
 * ## Example
 * ```yaml
 * metadata:
 *   name: "sklearn-iris
 * ```
 * Use instead:
 * ```yaml
 * metadata:
 *   name: "sklearn-iris"
 * ```
 *
 * ## Fix safety
 * No fix: only the author knows what was meant.
 *
 * ## Options
 * None.
 *
 * ## References
 * - YAML 1.1 specification, https://yaml.org/spec/1.1/
 * - libyaml, the parser Kubernetes tooling is compared against here
 */
SL_RULE(yaml_syntax, .id = "yaml-syntax", .category = "syntax",
	.summary = "The file or one of its documents is not valid YAML",
	.severity = SL_SEV_ERROR, .fix = SL_FIX_NONE);
