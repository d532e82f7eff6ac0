#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares schedlint's Kustomize builder with `kubectl kustomize` (kustomize v5), the reference.

Every testdata/kustomize/<case>/roots file lists kustomizations (directories, relative to the
case), one a line, each built both ways:

    ROOT [load-none]                    kubectl builds it: the objects must be the same (matched
                                        by kind, namespace and name; the order is not compared:
                                        no rule reads it), field by field (the whole object;
                                        types count: "1" is not 1), and schedlint reports nothing
                                        about the build
    ROOT [load-none] refused            kubectl refuses it; schedlint builds nothing and reports
                                        kustomize-invalid
    ROOT [load-none] unbuilt            kubectl refuses it; schedlint builds nothing and reports
                                        kustomize-unsupported (an overlay written for a flag, an
                                        input a build step makes)
    ROOT [load-none] ! RULE FILE:LINE WORDING...
                                        kubectl refuses it, its error containing WORDING:
                                        schedlint builds nothing and reports RULE at FILE:LINE
                                        (relative to the case) with WORDING in its message or
                                        notes

load-none builds as `kubectl kustomize --load-restrictor LoadRestrictionsNone` does (the dump's
--load-none, config render.kustomize.load-restrictor: none).

A fixture that kubectl itself contradicts (it refuses what the line says it builds, or builds
what the line says it refuses, or words its refusal otherwise) always fails: the fixtures are
the specification and kubectl checks them.

testdata/kustomize/XFAIL lists the roots (CASE/ROOT[+load-none], then why) known to differ today.
A listed root that fails is reported as an expected failure; a listed root that passes fails the
run ("remove it from XFAIL"), and so does a listed root that no roots file names.

The dump (tests/kustomize/dump.c) prints the built objects on stdout and one line per finding
of the build on stderr, `KUSTOMIZATION: [FILE:LINE:COL: ]MESSAGE [RULE]`, then its notes, each
line indented by four spaces.
Usage: compare.py [-v] DUMP [CASE...] (-v: the differences of expected failures too).
Exits 77 (skipped, with a message) when kubectl is not installed."""
import os
import re
import shutil
import subprocess
import sys

import yaml

ROOT = "testdata/kustomize"
XFAIL = os.path.join(ROOT, "XFAIL")
KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")
ISSUE = re.compile(r"^(?P<k>\S+): (?:(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): )?"
                   r"(?P<msg>.*) \[(?P<rule>[\w-]+)\]$")


def objects(text):
    """The objects of a YAML stream, in order: [((kind, namespace, name), object)]."""
    out = []
    for d in yaml.safe_load_all(text):
        if not d:
            continue
        md = d.get("metadata") or {}
        out.append(((d.get("kind"), md.get("namespace"), md.get("name")), d))
    return out


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                yield f"{path}/{k}: only kubectl has it: {b[k]!r}"
            elif k not in b:
                yield f"{path}/{k}: only schedlint has it: {a[k]!r}"
            else:
                yield from diff(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from diff(x, y, f"{path}/{i}")
    elif a != b or type(a) is not type(b):
        yield f"{path}: schedlint {a!r}, kubectl {b!r}"


def parse_roots(path):
    """The lines of a roots file: (root, options, expectation or None)."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, bang, tail = line.partition(" ! ")
            words = head.split()
            root, opts = words[0], set(words[1:])
            unknown = opts - {"load-none", "refused", "unbuilt"}
            if unknown or len(opts & {"refused", "unbuilt"}) + bool(bang) > 1:
                sys.exit(f"{path}:{n}: unknown or conflicting words {sorted(opts)}")
            expect = None
            if opts & {"refused", "unbuilt"}:
                rule = "kustomize-invalid" if "refused" in opts else "kustomize-unsupported"
                expect = {"rule": rule, "at": None, "wording": ""}
                opts -= {"refused", "unbuilt"}
            if bang:
                parts = tail.split(None, 2)
                if len(parts) != 3 or not re.fullmatch(r"[^:\s]+:\d+", parts[1]):
                    sys.exit(f"{path}:{n}: a refusal is `! RULE FILE:LINE WORDING`")
                expect = {"rule": parts[0], "at": parts[1], "wording": parts[2]}
            out.append((root, opts, expect))
    return out


def kustomization(d):
    for n in KUSTOMIZATIONS:
        if os.path.isfile(os.path.join(d, n)):
            return os.path.join(d, n)
    return os.path.join(d, KUSTOMIZATIONS[0])


def check(kubectl, dump, case, root, opts, expect):
    """The problems of one root: (problems, fixture_wrong)."""
    d = os.path.join(ROOT, case, root)
    kargs, dargs = [kubectl, "kustomize"], [dump]
    if "load-none" in opts:
        kargs += ["--load-restrictor", "LoadRestrictionsNone"]
        dargs += ["--load-none"]
    ref = subprocess.run(kargs + [d], capture_output=True, text=True, errors="replace")
    ours = subprocess.run(dargs + [kustomization(d)], capture_output=True, text=True,
                          errors="replace")
    issues, other = [], []
    for ln in ours.stderr.splitlines():
        m = ISSUE.match(ln)
        if m:
            issues.append(dict(m.groupdict(), notes=""))
        elif ln.startswith("    ") and issues:
            issues[-1]["notes"] += " " + ln.strip()
        else:
            other.append(ln)
    kerr = " ".join(ref.stderr.replace('\\"', '"').split())   # klog quotes err="..."
    if expect:
        if ref.returncode == 0:
            return [f"the fixture says kubectl refuses it, but kubectl builds it"], True
        if expect["wording"] and expect["wording"] not in kerr:
            return [f"kubectl refuses it otherwise: {kerr[:400]}"], True
        problems = []
        if ours.stdout.strip():
            problems.append("schedlint builds it (objects on stdout)")
        if other or ours.returncode not in (0, 1):
            problems.append(f"dump exit {ours.returncode}: {ours.stderr.strip()[:300]}")
        hit = [i for i in issues if i["rule"] == expect["rule"] and
               expect["wording"] in " ".join((i["msg"] + " " + i["notes"]).split())]
        if not hit:
            got = "; ".join(f"{i['msg']} [{i['rule']}]" for i in issues) or "nothing"
            problems.append(f"schedlint does not report {expect['rule']} with "
                            f"{expect['wording']!r} (reports: {got[:400]})")
            return problems, False
        if not expect["at"]:
            return problems, False
        want = os.path.normpath(os.path.join(ROOT, case, expect["at"].rsplit(":", 1)[0]))
        line = expect["at"].rsplit(":", 1)[1]
        if not any(i["file"] and os.path.normpath(i["file"]) == want and i["line"] == line
                   for i in hit):
            at = ", ".join(f"{i['file']}:{i['line']}" if i["file"] else "no position" for i in hit)
            problems.append(f"schedlint reports it at {at}, not at {expect['at']}")
        return problems, False
    if ref.returncode != 0:
        return [f"the fixture says kubectl builds it, but kubectl refuses: {kerr[:400]}"], True
    problems = []
    if ours.returncode != 0 or other:
        problems.append(f"schedlint: dump exit {ours.returncode}")
    for i in issues:
        problems.append(f"schedlint reports {i['msg'][:300]} [{i['rule']}]")
    if ours.returncode != 0:
        return problems, False
    want, got = objects(ref.stdout), objects(ours.stdout)
    gkeys = [k for k, _ in got]
    dup = sorted({str(k) for k in gkeys if gkeys.count(k) > 1})
    if dup:
        problems.append(f"schedlint emits the same object twice: {dup}")
    wmap, gmap = dict(want), dict(got)
    if set(wmap) != set(gmap):
        problems.append(f"objects differ: only kubectl {sorted(map(str, set(wmap) - set(gmap)))}, "
                        f"only schedlint {sorted(map(str, set(gmap) - set(wmap)))}")
    for key, obj in want:
        if key in gmap:
            problems += [f"{key[0]} {key[2]}: {p}" for p in diff(gmap[key], obj)]
    return problems, False


def main():
    args = sys.argv[1:]
    verbose = bool(args) and args[0] == "-v"
    args = args[1:] if verbose else args
    dump = args[0]
    kubectl = shutil.which("kubectl")
    if not kubectl:
        print("compare.py: SKIPPED: kubectl is not installed; the builder was not compared with "
              "kustomize (install kubectl to run this test)")
        sys.exit(77)
    xfail = {}
    if os.path.exists(XFAIL):
        with open(XFAIL) as f:
            for line in f:
                if line.strip() and not line.startswith("#"):
                    key, _, why = line.strip().partition(" ")
                    xfail[key] = why.strip()
    all_cases = sorted(c for c in os.listdir(ROOT) if os.path.isfile(os.path.join(ROOT, c, "roots")))
    cases = args[1:] or all_cases
    failures = equal = expected = 0
    named = set()
    for case in cases:
        for root, opts, expect in parse_roots(os.path.join(ROOT, case, "roots")):
            key = f"{case}/{root}" + "".join(f"+{o}" for o in sorted(opts))
            named.add(key)
            problems, wrong = check(kubectl, dump, case, root, opts, expect)
            if wrong:
                failures += 1
                print(f"{key}: FIXTURE CONTRADICTED BY KUBECTL: {problems[0]}")
            elif problems and key in xfail:
                expected += 1
                print(f"{key}: expected failure ({xfail[key]})")
                for p in problems if verbose else []:
                    print(f"    {p}")
            elif problems:
                failures += 1
                for p in problems:
                    print(f"{key}: {p}")
            elif key in xfail:
                failures += 1
                print(f"{key}: passes now: remove it from {XFAIL}")
            else:
                equal += 1
    if not args[1:]:
        for key in sorted(set(xfail) - named):
            failures += 1
            print(f"{key}: listed in {XFAIL}, named by no roots file")
    print(f"compare.py: {equal} kustomizations as kubectl kustomize builds or refuses them, "
          f"{expected} expected failures (XFAIL), {failures} failures")
    sys.exit(1 if failures or not equal else 0)


if __name__ == "__main__":
    main()
