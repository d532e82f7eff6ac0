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
    built = unsupported = invalid = equal = differ = ref_fail = agreed = 0
    false_refusals, built_refused, differing = [], [], []
    why = collections.Counter()
    diffs = collections.Counter()
    for p in paths:
        r = subprocess.run([dump, p], capture_output=True, text=True, errors="replace")
        reasons = re.findall(r": (.*) \[(kustomize-\w+)\]$", r.stderr, re.M)
        # what stopped the build (a key not applied is a notice; the build goes on)
        stops = [rule for msg, rule in reasons if "is not applied by schedlint" not in msg]
        if r.returncode == 0 or not stops:
            built += 1   # or a component that only patches: no object
        elif "kustomize-unsupported" in stops:
            unsupported += 1
        else:
            invalid += 1
        for msg, rule in reasons:
            msg = re.sub(r"'[^']*'|\"[^\"]*\"|\([^)]*kustomization[^)]*\)|https?://\S+|\S+\.ya?ml", "…", msg)
            msg = re.sub(r"remote resource \S+", "remote resource …", msg)
            why[f"{rule}: {msg[:110]}"] += 1
        if not kubectl:
            continue
        ref = subprocess.run([kubectl, "kustomize", os.path.dirname(p)], capture_output=True, text=True,
                             errors="replace")
        if r.returncode != 0:
            if stops and "kustomize-unsupported" not in stops:
                if ref.returncode == 0:
                    false_refusals.append(p)
                else:
                    agreed += 1
            continue
        if ref.returncode != 0:
            built_refused.append(p)
            ref_fail += 1
            continue
        want, got = dict(objects(ref.stdout)), dict(objects(r.stdout))
        problems = [] if set(want) == set(got) else ["the set of objects"]
        for key in set(want) & set(got):
            problems += [re.sub(r"/\d+", "/N", x.split(":")[0]) for x in diff(got[key], want[key])]
        if problems:
            differ += 1
            differing.append((p, sorted(set(problems))[:4]))
            for x in set(problems):
                diffs[x] += 1
        else:
            equal += 1
    print(f"kustomizations: {len(paths)}")
    print(f"built: {built}; unsupported: {unsupported}; invalid: {invalid}")
    if kubectl:
        print(f"of those built: {equal} equal to kubectl kustomize, {differ} differ, "
              f"{ref_fail} that kubectl kustomize refuses")
        print(f"of those invalid: {agreed} kubectl kustomize refuses too, "
              f"{len(false_refusals)} it builds")
        for x in false_refusals:
            print(f"  kubectl builds: {x}")
        for x in built_refused:
            print(f"  kubectl refuses what schedlint builds: {x}")
        for x, what in differing:
            print(f"  differs from kubectl: {x} ({'; '.join(what)})")
    print("why not built:")
    for k, v in why.most_common():
        print(f"  {v:4d}  {k}")
    if diffs:
        print("where built objects differ (paths, how many kustomizations):")
        for k, v in diffs.most_common(25):
            print(f"  {v:4d}  {k}")


if __name__ == "__main__":
    main()
