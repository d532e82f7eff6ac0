#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Kustomize benchmark (issue 17): N overlays over a few shared bases, built and linted by
schedlint, against linting the same objects as plain files (what `kubectl kustomize` gives for
each overlay, one file per overlay). Prints the median wall time of each and the ratio (target:
building and linting the overlays costs at most 2x linting the plain files).

    tests/bench/kustomize.py [--overlays 200] [--bases 10] [--runs 5] [--reuse] [--schedlint PATH]

The two runs alternate (a busy machine slows both alike); wall and CPU (user + system) medians.

Needs kubectl (kustomize v5) for the plain files; the trees go to /tmp/schedlint-bench-kustomize."""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = "/tmp/schedlint-bench-kustomize"

BASE = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: reranker
  labels: {{app: reranker}}
spec:
  replicas: 2
  selector:
    matchLabels: {{app: reranker}}
  template:
    metadata:
      labels: {{app: reranker}}
    spec:
      priorityClassName: serving-{b}
      containers:
        - name: model
          image: reranker:{b}
          env:
            - {{name: MODEL, value: m{b}}}
          resources:
            limits: {{nvidia.com/gpu: 1, memory: 16Gi}}
        - name: proxy
          image: envoy:1.30
      tolerations:
        - {{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: embedder
spec:
  predictor:
    minReplicas: 1
    model:
      modelFormat: {{name: pytorch}}
      storageUri: s3://models/{b}
      resources:
        limits: {{nvidia.com/gpu: "1"}}
---
apiVersion: v1
kind: Service
metadata:
  name: reranker
spec:
  selector: {{app: reranker}}
  ports:
    - {{port: 80, targetPort: 8080}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: serving-{b}
value: {v}
"""

OVERLAY = """resources:
  - ../../bases/b{b}
namespace: team-{o}
namePrefix: o{o}-
commonLabels:
  overlay: o{o}
replicas:
  - name: reranker
    count: {r}
patches:
  - path: spot.yaml
  - target: {{kind: InferenceService}}
    patch: |-
      - op: replace
        path: /spec/predictor/minReplicas
        value: {r}
"""

PATCH = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: reranker
spec:
  template:
    spec:
      nodeSelector:
        pool: {pool}
      containers:
        - name: model
          env:
            - {{name: BATCH, value: "{r}"}}
"""


def generate(n_overlays, n_bases):
    shutil.rmtree(DATA, ignore_errors=True)
    tree, plain = os.path.join(DATA, "tree"), os.path.join(DATA, "plain")
    for b in range(n_bases):
        d = os.path.join(tree, "bases", f"b{b}")
        os.makedirs(d)
        with open(os.path.join(d, "objects.yaml"), "w") as f:
            f.write(BASE.format(b=b, v=1000000 if b % 2 else 1000))
        with open(os.path.join(d, "kustomization.yaml"), "w") as f:
            f.write("resources:\n  - objects.yaml\n")
    os.makedirs(plain)
    for o in range(n_overlays):
        d = os.path.join(tree, "overlays", f"o{o}")
        os.makedirs(d)
        r = 2 + o % 3
        with open(os.path.join(d, "kustomization.yaml"), "w") as f:
            f.write(OVERLAY.format(b=o % n_bases, o=o, r=r))
        with open(os.path.join(d, "spot.yaml"), "w") as f:
            f.write(PATCH.format(pool="spot" if o % 4 == 0 else "on-demand", r=r))
        out = subprocess.run(["kubectl", "kustomize", d], capture_output=True, text=True, check=True)
        with open(os.path.join(plain, f"o{o}.yaml"), "w") as f:
            f.write(out.stdout)
    return tree, plain


def timed(cmds, runs):
    """Runs the commands in turn, runs times (interleaved: a busy machine slows both alike); the
    median wall time and the median CPU time (user + system) of each, in seconds."""
    walls, cpus = [[] for _ in cmds], [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            walls[i].append(time.perf_counter() - t)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[i].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--overlays", type=int, default=200)
    ap.add_argument("--bases", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--reuse", action="store_true", help="time the trees generated before")
    ap.add_argument("--schedlint", default=os.path.join(ROOT, "build", "schedlint"))
    a = ap.parse_args()
    tree, plain = os.path.join(DATA, "tree"), os.path.join(DATA, "plain")
    if not (a.reuse and os.path.isdir(tree) and os.path.isdir(plain)):
        tree, plain = generate(a.overlays, a.bases)
    objs = sum(open(os.path.join(plain, f)).read().count("\nkind: ") + 1 for f in os.listdir(plain))
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for j in ("1", "2"):
        (bw, bc), (fw, fc) = timed([[a.schedlint, "-j", j, "--no-project", tree],
                                    [a.schedlint, "-j", j, "--no-project", plain]], a.runs)
        print(f"-j{j}: {len(os.listdir(plain))} overlays ({objs} objects): built and linted "
              f"{bw * 1000:.0f} ms wall, {bc * 1000:.0f} ms CPU; the same objects as plain files "
              f"{fw * 1000:.0f} ms wall, {fc * 1000:.0f} ms CPU; ratio {bw / fw:.2f}x wall, "
              f"{bc / fc:.2f}x CPU")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
