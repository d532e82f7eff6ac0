#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kinds.py: the workload kinds of issue 28 against their hand labels.

testdata/kinds/EXPECTED.md holds, per case (a folder of testdata/kinds/), the complete set of
findings the case must produce, as a table of `| file:line | rule | gist |` rows, written from
the upstream semantics before schedlint modelled the kinds. Each case named in CASES is linted
as one run (`schedlint --no-project .` from its folder, every rule as its config says) and its
findings, as (file, line, rule), must be exactly the table's: a finding not labelled fails, and
so does a label not found. The unit a row names (`RayCluster llama, worker group x`) must be
the finding's too, when the row names one in backquotes.

Usage: kinds.py [CASE...]   (SCHEDLINT: the built binary; no CASE: every case of CASES)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KINDS = os.path.join(ROOT, "testdata", "kinds")
# The cases the model covers today; a case of EXPECTED.md not listed here is not checked.
CASES = ["ray", "lws", "jobset", "kubeflow-v1", "volcano", "spark", "kaito", "kaito-byo", "llmisvc", "pools", "wrappers", "trainer", "custom-unit"]

ROW = re.compile(r"^\|\s*([\w.-]+\.ya?ml):(\d+)\s*\|\s*([\w/.-]+)\s*\|(.*)\|\s*$")
UNIT = re.compile(r"`([A-Z][A-Za-z ]*? [\w.-]+, [^`]+)`")


def labels():
    """{case: [(file, line, rule, unit or None)]} from EXPECTED.md's tables."""
    out, case = {}, None
    with open(os.path.join(KINDS, "EXPECTED.md"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                case = line[3:].strip()
                out.setdefault(case, [])
                continue
            m = ROW.match(line)
            if m and case:
                u = UNIT.search(m.group(4))
                out[case].append((m.group(1), int(m.group(2)), m.group(3),
                                  u.group(1) if u else None))
    return out


def findings(exe, case):
    p = subprocess.run([exe, "--no-project", "--format", "json", "--exit-zero", "-j", "2", "."],
                       cwd=os.path.join(KINDS, case), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (case, p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)["findings"]


def unit_label(f):
    o = f.get("object") or {}
    kind = o.get("kind") or ""
    name = o.get("name") or ""
    return "%s %s, %s" % (kind, name, f.get("unit")) if f.get("unit") else "%s %s" % (kind, name)


def check(exe, case, want):
    got = findings(exe, case)
    have = {}
    for f in got:
        key = (os.path.normpath(f["path"]), f["line"], f["rule"])
        have.setdefault(key, []).append(f)
    problems = []
    for file, line, rule, unit in want:
        key = (os.path.normpath(file), line, rule)
        fs = have.pop(key, None)
        if not fs:
            problems.append("missing  %s:%d %s (%s)" % (file, line, rule, unit or "-"))
            continue
        # the label's unit is the message's subject (kinds are named as the messages name them)
        if unit and not any(unit.split(", ", 1)[1] == (f.get("unit") or "") or
                            f["message"].find(unit) >= 0 for f in fs):
            problems.append("unit     %s:%d %s: want %s, got %s" %
                            (file, line, rule, unit, "; ".join(f["message"] for f in fs)))
    for (file, line, rule), fs in sorted(have.items()):
        for f in fs:
            problems.append("extra    %s:%d %s: %s" % (file, line, rule, f["message"]))
    return problems


def main():
    exe = os.environ.get("SCHEDLINT")
    if not exe:
        sys.exit("SCHEDLINT (the built binary) is not set")
    all_labels = labels()
    cases = sys.argv[1:] or CASES
    failed = 0
    for case in cases:
        if case not in all_labels:
            print("%s: no labels in EXPECTED.md" % case)
            failed += 1
            continue
        problems = check(exe, case, all_labels[case])
        print("%s: %s" % (case, "ok (%d findings)" % len(all_labels[case])
                          if not problems else "%d problems" % len(problems)))
        for p in problems:
            print("    " + p)
        failed += bool(problems)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
