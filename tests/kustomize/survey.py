#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs schedlint's Kustomize builder over every kustomization of a tree (kubeflow/manifests, say)
and, where kubectl is installed, kustomize itself: how many build, how many are declared
unsupported or invalid and why, and whether the objects built equal kustomize's (the same
comparison as compare.py). Not a test: a measurement for docs/kustomize-survey.md.
Usage: survey.py DUMP TREE"""
import collections
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from compare import diff, objects  # noqa: E402


def main():
    dump, tree = sys.argv[1], sys.argv[2]
    kubectl = shutil.which("kubectl")
    paths = []
    for d, dirs, files in os.walk(tree):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for n in ("kustomization.yaml", "kustomization.yml", "Kustomization"):
            if n in files:
                paths.append(os.path.join(d, n))
                break
    paths.sort()
    built = unsupported = invalid = equal = differ = ref_fail = 0
    why = collections.Counter()
    diffs = collections.Counter()
    for p in paths:
        r = subprocess.run([dump, p], capture_output=True, text=True, errors="replace")
        reasons = re.findall(r": (.*) \[(kustomize-\w+)\]$", r.stderr, re.M)
        if r.returncode == 0:
            built += 1
        elif any(rule == "kustomize-unsupported" for _, rule in reasons):
            unsupported += 1
        else:
            invalid += 1
        for msg, rule in reasons:
            msg = re.sub(r"'[^']*'|\"[^\"]*\"|\([^)]*kustomization[^)]*\)|https?://\S+|\S+\.ya?ml", "…", msg)
            msg = re.sub(r"remote resource \S+", "remote resource …", msg)
            why[f"{rule}: {msg[:110]}"] += 1
        if not kubectl or r.returncode != 0:
            continue
        ref = subprocess.run([kubectl, "kustomize", os.path.dirname(p)], capture_output=True, text=True,
                             errors="replace")
        if ref.returncode != 0:
            ref_fail += 1
            continue
        want, got = objects(ref.stdout), objects(r.stdout)
        problems = [] if set(want) == set(got) else ["the set of objects"]
        for key in set(want) & set(got):
            problems += [re.sub(r"/\d+", "/N", x.split(":")[0]) for x in diff(got[key], want[key])]
        if problems:
            differ += 1
            for x in set(problems):
                diffs[x] += 1
        else:
            equal += 1
    print(f"kustomizations: {len(paths)}")
    print(f"built: {built}; unsupported: {unsupported}; invalid: {invalid}")
    if kubectl:
        print(f"of those built: {equal} equal to kubectl kustomize, {differ} differ, "
              f"{ref_fail} that kubectl kustomize refuses")
    print("why not built:")
    for k, v in why.most_common():
        print(f"  {v:4d}  {k}")
    if diffs:
        print("where built objects differ (paths, how many kustomizations):")
        for k, v in diffs.most_common(25):
            print(f"  {v:4d}  {k}")


if __name__ == "__main__":
    main()
