#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares schedlint's Kustomize builder with `kubectl kustomize` (kustomize v5), the reference.

For every testdata/kustomize/<case>/ and every kustomization listed in its `roots` file (one
directory a line), builds it both ways and compares the objects, matched by kind, namespace and
name, on every field schedlint's rules read: the whole object but metadata.annotations added by
kustomize itself (none here) — so in practice the whole object. A line may add words after the
directory:
  load-none   both build it as `kubectl kustomize --load-restrictor LoadRestrictionsNone` does
  refused     kubectl must refuse it and schedlint give kustomize-invalid (a refusal is compared
              too: one side building what the other refuses is a difference)
  unbuilt     kubectl must refuse it and schedlint give kustomize-unsupported (an overlay written
              for a flag, an input a build step makes)
Usage: compare.py DUMP [CASE...]. Exits 77 (skipped, with a message) when kubectl is not
installed."""
import os
import shutil
import subprocess
import sys

import yaml

ROOT = "testdata/kustomize"


def objects(text):
    out = {}
    for d in yaml.safe_load_all(text):
        if not d:
            continue
        md = d.get("metadata") or {}
        out[(d.get("kind"), md.get("namespace"), md.get("name"))] = d
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
    elif a != b:
        yield f"{path}: schedlint {a!r}, kubectl {b!r}"


def main():
    dump = sys.argv[1]
    kubectl = shutil.which("kubectl")
    if not kubectl:
        print("compare.py: SKIPPED: kubectl is not installed; the builder was not compared with "
              "kustomize (install kubectl to run this test)")
        sys.exit(77)
    cases = sys.argv[2:] or sorted(os.listdir(ROOT))
    failures = compared = objs = 0
    for case in cases:
        base = os.path.join(ROOT, case)
        with open(os.path.join(base, "roots")) as f:
            roots = [line.split() for line in f if line.strip() and not line.startswith("#")]
        for r, *words in roots:
            d = os.path.join(base, r)
            none = "load-none" in words
            ref = subprocess.run([kubectl, "kustomize"] +
                                 (["--load-restrictor", "LoadRestrictionsNone"] if none else []) + [d],
                                 capture_output=True, text=True)
            ours = subprocess.run([dump] + (["--load-none"] if none else []) +
                                  [os.path.join(d, "kustomization.yaml")],
                                  capture_output=True, text=True)
            if "refused" in words or "unbuilt" in words:
                compared += 1
                rule = "kustomize-invalid" if "refused" in words else "kustomize-unsupported"
                if ref.returncode == 0 or ours.returncode == 0 or f"[{rule}]" not in ours.stderr:
                    print(f"{d}: expected kubectl to refuse and {rule}: kubectl exit {ref.returncode} "
                          f"{ref.stderr.strip()[:300]}; schedlint exit {ours.returncode} "
                          f"{ours.stderr.strip()[:300]}")
                    failures += 1
                continue
            if ref.returncode != 0 or ours.returncode != 0:
                print(f"{d}: kubectl exit {ref.returncode} {ref.stderr.strip()[:300]}; "
                      f"schedlint exit {ours.returncode} {ours.stderr.strip()[:300]}")
                failures += 1
                continue
            want, got = objects(ref.stdout), objects(ours.stdout)
            if set(want) != set(got):
                print(f"{d}: objects differ: kubectl {sorted(map(str, want))}, "
                      f"schedlint {sorted(map(str, got))}")
                failures += 1
                continue
            for key in sorted(want, key=str):
                problems = list(diff(got[key], want[key]))
                objs += 1
                for p in problems:
                    print(f"{d}: {key[0]} {key[2]}: {p}")
                failures += bool(problems)
            compared += 1
    print(f"compare.py: {compared} kustomizations, {objs} objects compared with kubectl "
          f"kustomize; {failures} differ")
    sys.exit(1 if failures or not compared else 0)


if __name__ == "__main__":
    main()
