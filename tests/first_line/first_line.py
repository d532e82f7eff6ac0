#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""first_line.py: every finding's first line, as the JSON output gives it, is at most 160
characters (code points): spec/rules.md "Messages are short", issue 25. Run over every fixture
(testdata/**: each rule case with its config as tests/golden.c picks it, every other testdata
folder as one run) and, when they are there, ../shared/corpus and each tree of
../shared/corpus-trees linted from its root (skipped with a note when absent, as the corpus test
is). A message the engine had to cut (it ends with the cut mark and its first note is the whole
message) fails too: rules keep their first lines short by design. Notices (the JSON `notices`
array), when present, are held to the same limit."""
import json
import os
import subprocess
import sys

LIMIT = 160
CUT = "\u2026"

exe = os.environ.get("SCHEDLINT")
if not exe:
    sys.exit("SCHEDLINT (the built binary) is not set")

checked = 0
failures = []


def lint(args, cwd, what):
    """Runs schedlint with JSON output; checks every finding's (and notice's) first line."""
    global checked
    p = subprocess.run([exe, "--format", "json", "--exit-zero", "-j", "2"] + args, cwd=cwd,
                       capture_output=True, text=True)
    if p.returncode != 0 and not p.stdout.strip():
        # a fixture that is meant to be refused (a bad config): nothing to check
        return
    try:
        report = json.loads(p.stdout)
    except json.JSONDecodeError as e:
        failures.append(f"{what}: not JSON ({e}): {p.stdout[:200]!r}")
        return
    items = [("finding", f) for f in report.get("findings", [])]
    items += [("notice", n) for n in report.get("notices", [])]
    for kind, f in items:
        checked += 1
        msg = f.get("message", "")
        first = msg.split("\n", 1)[0]
        where = f"{what}: {f.get('path', '?')}:{f.get('line', '?')}: [{f.get('rule', '?')}] {kind}"
        if len(first) > LIMIT:
            failures.append(f"{where}: {len(first)} characters: {first}")
        notes = f.get("notes") or []
        if first.endswith(CUT) and notes and notes[0].startswith(first[:-1].rstrip()):
            failures.append(f"{where}: cut by the engine ({len(notes[0])} characters): {notes[0]}")


def is_case(d, name):
    if name.startswith("."):
        return False
    p = os.path.join(d, name)
    if os.path.isdir(p):
        return not name.endswith(".fixed")
    return name.endswith(".yaml") and not name.endswith(".config.yaml") and \
        not name.endswith(".fixed.yaml")


rules = "testdata/rules"
for rid in sorted(os.listdir(rules)):
    rdir = os.path.join(rules, rid)
    for kind in ("bad", "ok"):
        d = os.path.join(rdir, kind)
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if not is_case(d, name):
                continue
            stem = name[:-5] if name.endswith(".yaml") else name
            cfg = os.path.join(d, stem + ".config.yaml")
            if not os.path.exists(cfg):
                cfg = os.path.join(rdir, "config.yaml")
            args = ["--no-project"] + (["-c", os.path.abspath(cfg)] if os.path.exists(cfg) else [])
            lint(args + [name], d, f"{rid}/{kind}/{name}")
for name in sorted(os.listdir("testdata")):
    p = os.path.join("testdata", name)
    if name != "rules" and os.path.isdir(p):
        lint(["--no-project", p], ".", p)

shared = os.path.join("..", "shared")
corpus = os.path.join(shared, "corpus")
if os.path.isdir(corpus):
    lint(["."], corpus, "corpus")
else:
    print(f"[NOTE] skipped: {corpus} is absent (a clone without the team's ../shared)",
          file=sys.stderr)
trees = os.path.join(shared, "corpus-trees")
if os.path.isdir(trees):
    for name in sorted(os.listdir(trees)):
        t = os.path.join(trees, name)
        if os.path.isdir(t):
            lint(["."], t, f"corpus-trees/{name}")
else:
    print(f"[NOTE] skipped: {trees} is absent (a clone without the team's ../shared)",
          file=sys.stderr)

for f in failures:
    print(f)
print(f"{checked} first lines checked, {len(failures)} over {LIMIT} characters or cut")
print(f"{checked - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures or checked == 0 else 0)
