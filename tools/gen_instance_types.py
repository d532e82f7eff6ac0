#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates instance_types.inc, the accelerators per instance type, from docs/instance-types.md.

The document is the source (each row cites where its count comes from); the build reads its
tables so the code and the cited data cannot drift apart. Output: the rows of a C array
initializer, `{"provider", "type", count, "resource", "model"},` (count -1 for `?`, unknown),
then `#define SL_INSTANCE_TYPES_NO_ACCEL_FAMILIES` with the AWS families that have no
accelerator (the fenced block under "### AWS families with no accelerator"). The build fails on a row that does not parse, a duplicate type, or an empty list.
"""
import argparse
import re
import sys

ROW_RE = re.compile(r'^\|\s*(aws|gcp|azure)\s*\|')
FAMILY_RE = re.compile(r'^[a-z][a-z0-9-]*$')


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def parse(text, path):
    rows, seen, families = [], set(), []
    in_families = fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith('#'):
            in_families = line.strip() == '### AWS families with no accelerator'
            continue
        if ROW_RE.match(line):
            cells = [c.strip() for c in line.strip().strip('|').split('|')]
            if len(cells) != 7:
                sys.exit('%s:%d: a row has 7 cells (provider, type, count, resource, model, src, '
                         'verified), not %d' % (path, n, len(cells)))
            provider, itype, count, resource, model = cells[:5]
            if count == '?':
                count = -1
            elif count.isdigit() and int(count) > 0:
                count = int(count)
            else:
                sys.exit('%s:%d: count "%s" is a positive integer or ?' % (path, n, count))
            if not cells[5]:
                sys.exit('%s:%d: %s has no source' % (path, n, itype))
            if itype in seen:
                sys.exit('%s:%d: %s twice' % (path, n, itype))
            seen.add(itype)
            rows.append((provider, itype, count, resource, model))
        elif in_families and line.startswith('```'):
            fenced = not fenced
        elif in_families and fenced:
            for w in line.split():
                if not FAMILY_RE.match(w):
                    sys.exit('%s:%d: "%s" is no instance family' % (path, n, w))
                families.append(w)
    if not rows or not families:
        sys.exit('%s: no instance-type rows or no "AWS families with no accelerator"' % path)
    return rows, families


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--output', required=True)
    ap.add_argument('doc')
    args = ap.parse_args()
    with open(args.doc, encoding='utf-8') as f:
        rows, families = parse(f.read(), args.doc)
    out = ['/* generated from docs/instance-types.md by tools/gen_instance_types.py: edit the '
           'document */']
    for provider, itype, count, resource, model in rows:
        out.append('{%s, %s, %d, %s, %s},' % (c_string(provider), c_string(itype), count,
                                              c_string(resource), c_string(model)))
    out.append('#define SL_INSTANCE_TYPES_NO_ACCEL_FAMILIES \\')
    for i in range(0, len(families), 8):
        chunk = ', '.join(c_string(f) for f in families[i:i + 8])
        out.append('\t%s%s' % (chunk, ', \\' if i + 8 < len(families) else ''))
    with open(args.output, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
