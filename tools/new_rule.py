#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scaffolds a new rule: tools/new_rule.py ID CATEGORY [--root DIR]

Writes rules/<category>/<id_snake>.c (the doc block under the headings tests/meta.c requires, a
check_unit stub and SL_RULE), adds its line to rules/<category>/meson.build (creating that file
and the category's entry in rules/meson.build for a new category), adds the id (and a new
category) to the rule ids docs/schedlint.schema.json completes in `rules:`, and creates
testdata/rules/<id>/bad/ and ok/ with one stub fixture each. Every placeholder says TODO: the
meta test fails while one is left in the doc or summary, and while bad/ has no .diag golden, so
an unfilled scaffold is never a passing rule. Refuses an id that is not kebab-case, a category
that is not a lowercase word, and an id or file that already exists. Writes nothing on refusal.
"""
import argparse
import json
import os
import re
import sys

ID_RE = re.compile(r'^[a-z][a-z0-9]*(-[a-z0-9]+)*$')
CATEGORY_RE = re.compile(r'^[a-z][a-z0-9]*$')
CATEGORIES_RE = re.compile(r"(foreach category : \[)([^\]]*)(\])")
SL_RULE_ID_RE = re.compile(r'\.id\s*=\s*"([^"]+)"')

RULE_C = '''/* SPDX-License-Identifier: Apache-2.0
** {id}: TODO: one line saying what the rule finds, then where its finding points. */
#include "sdk/rule.h"

/** ## What it does
 * TODO: what the rule reports, on which kinds and modes, judged on what (the unit as written,
 * or merged over its template).
 *
 * ## Why is this bad?
 * TODO: what goes wrong on the cluster and how it shows (the upstream error text, the pod
 * staying Pending...), with sources.
 *
 * ## Example
 * ```yaml
 * TODO: a minimal manifest the rule flags
 * ```
 * Use instead:
 * ```yaml
 * TODO: the same manifest fixed
 * ```
 *
 * ## Fix safety
 * TODO: "No fix: ..." and why, or what the fix edits and whether it is safe or unsafe.
 *
 * ## Options
 * TODO: the .schedlint.yaml settings the rule reads, or "None.".
 *
 * ## References
 * - TODO: upstream source files and documentation, with links
 */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{{
	/* TODO: report with sl_report_at / sl_report_key and explain with sl_report_note. */
	(void)ctx;
	(void)u;
	return SL_OK;
}}

SL_RULE({stem}, .id = "{id}", .category = "{category}",
	.summary = "TODO: one line, no final period",
	.severity = SL_SEV_WARNING, .fix = SL_FIX_NONE, .check_unit = check,
	/* the kinds and run modes it judges (0: all); the engine calls check on no other, e.g.
	** .kinds = SL_KIND_BIT(SL_KIND_INFERENCE_SERVICE), .modes = SL_MODE_BIT(SL_MODE_KNATIVE) */
	.kinds = 0, .modes = 0);
'''

BAD_YAML = '''# TODO: a manifest {id} flags. Then write bad/example.diag with
#   SL_UPDATE_GOLDEN=1 SL_GOLDEN_ONLY={id} meson test -C build golden
# and review it (one finding per line: path:line:col: message).
'''

OK_YAML = '''# TODO: a manifest close to the bad one that {id} must not flag.
'''

CATEGORY_MESON = '''rule_sources += files(
)
'''

# The config's JSON Schema: its enum of what `rules:` may name (tests/config_schema checks it).
SCHEMA = os.path.join('docs', 'schedlint.schema.json')


def fail(msg):
    sys.exit('new_rule.py: error: %s' % msg)


def existing_ids(root):
    """Ids of the rules under rules/, from their SL_RULE lines and their file names."""
    ids = {}
    rules = os.path.join(root, 'rules')
    for cat in sorted(os.listdir(rules)):
        cdir = os.path.join(rules, cat)
        if not os.path.isdir(cdir):
            continue
        for name in sorted(os.listdir(cdir)):
            if not name.endswith('.c'):
                continue
            path = os.path.join(cdir, name)
            ids[name[:-2].replace('_', '-')] = path
            with open(path, encoding='utf-8') as f:
                m = SL_RULE_ID_RE.search(f.read())
            if m:
                ids[m.group(1)] = path
    return ids


def add_source_line(text, meson_path, source):
    """text (of meson_path) with `  'source',` as the last entry of its files(...) list."""
    end = text.rfind(')')
    if 'files(' not in text or end < 0:
        fail('%s holds no files(...) list to add %s to' % (meson_path, source))
    head = text[:end].rstrip(' ')
    if not head.endswith('\n'):
        head += '\n'
    return head + "  '%s',\n" % source + text[end:]


def add_category(rules_meson_text, category, path):
    """rules/meson.build with category appended to its `foreach category : [...]` list, the list
    rewrapped like the original (lines under 100 columns, continuation aligned after '[')."""
    m = CATEGORIES_RE.search(rules_meson_text)
    if not m:
        fail('%s has no `foreach category : [...]` list' % path)
    cats = re.findall(r"'([^']*)'", m.group(2))
    if category in cats:
        return rules_meson_text
    cats.append(category)
    line_start = rules_meson_text.rfind('\n', 0, m.start()) + 1
    indent = ' ' * (m.end(1) - line_start)
    lines, cur = [], ''
    for i, c in enumerate(cats):
        item = "'%s'" % c + (',' if i + 1 < len(cats) else '')
        cand = (cur + ' ' + item) if cur else item
        if cur and len(indent) + len(cand) + 2 > 100:   # room for the closing "]:"
            lines.append(cur)
            cur = item
        else:
            cur = cand
    lines.append(cur)
    body = ('\n' + indent).join(lines)
    return rules_meson_text[:m.start(2)] + body + rules_meson_text[m.end(2):]


def add_to_schema(text, rule_id, category):
    """The schema text with rule_id and category in the sorted enum of rules[].id, written as
    the schema is (json.dumps, indent 2)."""
    schema = json.loads(text)
    ids = schema['definitions']['rule']['properties']['id']['enum']
    ids.extend(x for x in (rule_id, category) if x not in ids)
    ids.sort()
    return json.dumps(schema, indent=2, ensure_ascii=False) + '\n'


def main():
    ap = argparse.ArgumentParser(description='Scaffold a new schedlint rule.')
    ap.add_argument('id', help='the rule id, kebab-case (gpu-without-toleration)')
    ap.add_argument('category', help='the rules/<category>/ directory (gpu, placement, ...)')
    ap.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'),
                    help='the source tree (default: the one this script is in)')
    args = ap.parse_args()
    root = os.path.normpath(args.root)
    rid, category = args.id, args.category

    if not ID_RE.match(rid):
        fail('rule id %r is not kebab-case (lowercase letters and digits, words joined by "-", '
             'starting with a letter)' % rid)
    if not CATEGORY_RE.match(category):
        fail('category %r is not a lowercase word (letters and digits, starting with a letter)'
             % category)
    if not os.path.isfile(os.path.join(root, 'rules', 'meson.build')):
        fail('%s is not a schedlint source tree (no rules/meson.build)' % root)

    stem = rid.replace('-', '_')
    cdir = os.path.join(root, 'rules', category)
    rule_path = os.path.join(cdir, stem + '.c')
    cat_meson = os.path.join(cdir, 'meson.build')
    rules_meson = os.path.join(root, 'rules', 'meson.build')
    fixtures = os.path.join(root, 'testdata', 'rules', rid)

    ids = existing_ids(root)
    if rid in ids:
        fail('rule %s already exists: %s' % (rid, os.path.relpath(ids[rid], root)))
    for p in (rule_path, fixtures):
        if os.path.exists(p):
            fail('%s already exists' % os.path.relpath(p, root))

    # Compute every edit before writing any, so a refusal leaves the tree as it was.
    new_category = not os.path.isfile(cat_meson)
    with open(rules_meson, encoding='utf-8') as f:
        rules_meson_text = f.read()
    if new_category:
        new_rules_meson = add_category(rules_meson_text, category, rules_meson)
        cat_text = CATEGORY_MESON
    else:
        with open(cat_meson, encoding='utf-8') as f:
            cat_text = f.read()
    new_cat_text = add_source_line(cat_text, cat_meson, stem + '.c')
    schema_path = os.path.join(root, SCHEMA)
    new_schema = None
    if os.path.isfile(schema_path):
        with open(schema_path, encoding='utf-8') as f:
            new_schema = add_to_schema(f.read(), rid, category)

    written = []
    os.makedirs(cdir, exist_ok=True)
    with open(rule_path, 'w', encoding='utf-8') as f:
        f.write(RULE_C.format(id=rid, stem=stem, category=category))
    written.append(rule_path)
    with open(cat_meson, 'w', encoding='utf-8') as f:
        f.write(new_cat_text)
    written.append(cat_meson)
    if new_category:
        with open(rules_meson, 'w', encoding='utf-8') as f:
            f.write(new_rules_meson)
        written.append(rules_meson)
    if new_schema is not None:
        with open(schema_path, 'w', encoding='utf-8') as f:
            f.write(new_schema)
        written.append(schema_path)
    for sub, text in (('bad', BAD_YAML), ('ok', OK_YAML)):
        d = os.path.join(fixtures, sub)
        os.makedirs(d)
        p = os.path.join(d, 'example.yaml')
        with open(p, 'w', encoding='utf-8') as f:
            f.write(text.format(id=rid))
        written.append(p)

    rel = lambda p: os.path.relpath(p, root)
    print('new_rule.py: wrote')
    for p in written:
        print('  ' + rel(p))
    print('''Fill in:
  %(rule)s
      the header line, every TODO in the doc block (the headings stay: tests/meta.c
      checks them), the summary, severity and fix, and the check; a rule on objects rather
      than placement units uses .check_object (see src/sdk/rule.h for what a rule may read,
      report and fix)
  %(fx)s/bad/
      manifests it flags (rename example.yaml), then their .diag goldens:
      SL_UPDATE_GOLDEN=1 SL_GOLDEN_ONLY=%(id)s meson test -C build golden   (review them)
  %(fx)s/ok/
      manifests it must not flag
  docs/rules.md
      build/schedlint rules --format markdown > docs/rules.md
Then: meson compile -C build && meson test -C build meta golden
The meta test fails while a TODO is left in the doc or summary or bad/ has no .diag.'''
          % {'rule': rel(rule_path), 'fx': rel(fixtures), 'id': rid})


if __name__ == '__main__':
    main()
