#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Deterministic generator of realistic ML-inference manifests for the schedlint benchmark.

    gen.py OUT [--mb 20] [--shape small|huge|mixed] [--seed 7] [--huge-files 3]

shape small: many small files (1 to ~12 KB, mostly one to four documents each) under OUT,
             spread over team/app directories, totalling about --mb megabytes;
shape huge:  --huge-files multi-document files totalling about --mb megabytes;
shape mixed: 80% of the bytes as small files, 20% as huge ones (OUT/small, OUT/huge).

The same arguments always give byte-identical output (one random.Random(seed), no hash
ordering). A small share of the objects carry the mistakes schedlint looks for: GPU requests
without limits, tolerations without a selector, boolean nodeSelector values, duplicate keys,
legacy deployment modes, a priority class that does not exist, an occasional syntax error.
"""
import argparse
import os
import random
import sys

TEAMS = ["search", "ranking", "vision", "speech", "fraud", "ads", "recsys", "nlp", "ocr",
         "forecast", "pricing", "support", "safety", "maps", "translate", "growth"]
NOUNS = ["bert", "resnet", "llama", "mistral", "whisper", "clip", "t5", "xgb", "lgbm",
         "yolo", "sdxl", "gemma", "phi", "deberta", "wav2vec", "sentence", "rerank", "embed",
         "classifier", "detector", "tagger", "scorer", "router", "summarizer"]
SUFFIXES = ["v1", "v2", "v3", "canary", "shadow", "blue", "green", "large", "small", "int8",
            "fp16", "eu", "us", "apac", "exp"]
FORMATS = [("sklearn", "1"), ("xgboost", "1"), ("pytorch", "2"), ("tensorflow", "2"),
           ("onnx", "1"), ("huggingface", "1"), ("triton", "2"), ("lightgbm", "3")]
REGISTRIES = ["ghcr.io/acme", "registry.example.com/ml", "quay.io/inference",
              "europe-docker.pkg.dev/acme-ml/serving"]
BUCKETS = ["gs://acme-models", "s3://ml-artifacts-prod", "pvc://model-store",
           "s3://ml-artifacts-staging", "oci://registry.example.com/models"]
GPU_RES = ["nvidia.com/gpu", "nvidia.com/gpu", "nvidia.com/gpu", "amd.com/gpu"]
POOLS = ["cpu-general", "cpu-highmem", "gpu-a100", "gpu-l4", "gpu-h100", "batch-spot"]
PRIORITIES = ["serving-critical", "serving-high", "serving-default", "batch-low",
              "batch-preemptible"]
COMMENTS = [
    "owned by the {team} team; page the on-call before editing",
    "the pool below is tainted, see the platform runbook",
    "keep requests equal to limits so the pod stays Guaranteed",
    "bumped after the {noun} latency regression",
    "TODO: move to the shared runtime once it supports this format",
    "do not scale to zero: the model takes minutes to load",
    "values tuned by load test {n}",
    "generated from the {team} template, then edited by hand",
]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.serial = 0
        self.cur_res = GPU_RES[0]

    # ---- small helpers ------------------------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def name(self):
        self.serial += 1
        return "%s-%s-%s-%d" % (self.pick(TEAMS), self.pick(NOUNS), self.pick(SUFFIXES),
                                self.serial)

    def comment(self, indent, team):
        text = self.pick(COMMENTS).format(team=team, noun=self.pick(NOUNS),
                                          n=self.r.randrange(10, 999))
        return " " * indent + "# " + text + "\n"

    def image(self, noun):
        return "%s/%s-server:%d.%d.%d" % (self.pick(REGISTRIES), noun, self.r.randrange(0, 4),
                                         self.r.randrange(0, 20), self.r.randrange(0, 9))

    def cpu(self):
        return self.pick(['"1"', '"2"', '"4"', "500m", "250m", "1500m", '"8"'])

    def mem(self):
        return self.pick(["512Mi", "1Gi", "2Gi", "4Gi", "8Gi", "16Gi", "32Gi"])

    def labels(self, ind, app, team):
        s = " " * ind + "labels:\n"
        s += " " * ind + "  app.kubernetes.io/name: %s\n" % app
        s += " " * ind + "  app.kubernetes.io/part-of: %s\n" % team
        if self.chance(0.5):
            s += " " * ind + "  cost-center: \"%d\"\n" % self.r.randrange(1000, 9999)
        return s

    def metadata(self, name, team, ns=True, annotations=None):
        s = "metadata:\n  name: %s\n" % name
        if ns:
            s += "  namespace: %s\n" % team
        s += self.labels(2, name, team)
        if annotations:
            s += "  annotations:\n"
            for k, v in annotations:
                s += "    %s: %s\n" % (k, v)
        return s

    def resources(self, ind, gpu=0, mistakes=True, anchor=None):
        """A resources block; with gpu > 0 it requests a GPU (and sometimes forgets the
        limit, or limits a different count)."""
        p = " " * ind
        c, m = self.cpu(), self.mem()
        res = self.cur_res
        head = p + "resources:" + (" &%s" % anchor if anchor else "") + "\n"
        s = head + p + "  requests:\n" + p + "    cpu: %s\n" % c + p + "    memory: %s\n" % m
        if gpu:
            s += p + "    %s: %s\n" % (res, self.pick(["%d" % gpu, '"%d"' % gpu]))
        s += p + "  limits:\n" + p + "    cpu: %s\n" % c + p + "    memory: %s\n" % m
        if gpu:
            if mistakes and self.chance(0.04):
                pass                                   # GPU request without a limit
            elif mistakes and self.chance(0.02):
                s += p + "    %s: %d\n" % (res, gpu + 1)  # mismatch
            else:
                s += p + "    %s: %d\n" % (res, gpu)
        return s

    def placement(self, ind, gpu, mistakes=True):
        """nodeSelector / tolerations / affinity at indentation ind (inside a pod spec)."""
        p = " " * ind
        s = ""
        self.cur_res = self.pick(GPU_RES)
        pool = self.pick(POOLS[2:5]) if gpu else self.pick(POOLS[:2] + POOLS[5:])
        has_selector = not (mistakes and self.chance(0.05))
        if has_selector:
            if self.chance(0.7):
                s += p + "nodeSelector:\n" + p + "  pool: %s\n" % pool
                if gpu and self.cur_res.startswith("nvidia") and self.chance(0.5):
                    s += p + "  nvidia.com/gpu.present: \"true\"\n"
                if mistakes and self.chance(0.04):
                    s += p + "  accelerated: %s\n" % self.pick(["true", "yes", "on", "false"])
            else:
                s += (p + "affinity:\n" + p + "  nodeAffinity:\n"
                      + p + "    requiredDuringSchedulingIgnoredDuringExecution:\n"
                      + p + "      nodeSelectorTerms:\n"
                      + p + "        - matchExpressions:\n"
                      + p + "            - key: pool\n"
                      + p + "              operator: In\n"
                      + p + "              values: [%s]\n" % pool)
        if gpu or pool != "cpu-general" or self.chance(0.3):
            s += p + "tolerations:\n"
            if gpu:
                s += (p + "  - key: %s\n" % self.cur_res + p + "    operator: Exists\n"
                      + p + "    effect: NoSchedule\n")
            if pool.startswith("batch") or (not gpu and mistakes and self.chance(0.05)):
                s += (p + "  - key: dedicated\n" + p + "    operator: Equal\n"
                      + p + "    value: %s\n" % pool + p + "    effect: NoSchedule\n")
            if not gpu and not pool.startswith("batch"):
                s += (p + "  - key: node.kubernetes.io/not-ready\n" + p + "    operator: Exists\n"
                      + p + "    effect: NoExecute\n" + p + "    tolerationSeconds: 300\n")
        return s

    def container(self, ind, name, noun, gpu, mistakes=True, anchor=None):
        p = " " * ind
        s = p + "- name: %s\n" % name
        s += p + "  image: %s\n" % self.image(noun)
        if self.chance(0.5):
            s += p + "  args:\n"
            for a in self.r.sample(["--port=8080", "--workers=4", "--log-level=info",
                                    "--max-batch-size=32", "--model-name=%s" % noun,
                                    "--grpc-port=9000"], self.r.randrange(1, 4)):
                s += p + "    - %s\n" % a
        if self.chance(0.6):
            s += p + "  env:\n"
            for k in self.r.sample(["OMP_NUM_THREADS", "MODEL_NAME", "LOG_FORMAT",
                                    "HF_HUB_OFFLINE", "CUDA_VISIBLE_DEVICES"],
                                   self.r.randrange(1, 4)):
                v = self.pick(['"1"', '"4"', "json", noun, '"0"'])
                s += p + "    - name: %s\n" % k + p + "      value: %s\n" % v
        if self.chance(0.4):
            s += (p + "  ports:\n" + p + "    - containerPort: 8080\n"
                  + p + "      protocol: TCP\n")
        if self.chance(0.3):
            s += (p + "  readinessProbe:\n" + p + "    httpGet:\n"
                  + p + "      path: /v2/health/ready\n" + p + "      port: 8080\n"
                  + p + "    periodSeconds: %d\n" % self.r.randrange(5, 30))
        s += self.resources(ind + 2, gpu, mistakes, anchor)
        return s

    # ---- objects --------------------------------------------------------------------------
    def inference_service(self, team):
        name = self.name()
        noun = name.split("-")[1]
        gpu = self.pick([0, 0, 1, 1, 2, 4]) if self.chance(0.6) else 0
        mode = self.pick(["Standard", "Knative", "RawDeployment", "Serverless", "Standard"])
        ann = [("serving.kserve.io/deploymentMode", mode)]
        if self.chance(0.3):
            ann.append(("autoscaling.knative.dev/target", '"%d"' % self.r.randrange(1, 50)))
        s = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
        s += self.metadata(name, team, annotations=ann)
        s += "spec:\n  predictor:\n"
        if self.chance(0.4):
            s += self.comment(4, team)
        knative = mode in ("Knative", "Serverless")
        s += "    minReplicas: %d\n" % (self.pick([0, 1, 1, 2]) if knative else
                                        self.pick([1, 1, 2, 3] + [0] * (self.chance(0.05))))
        if self.chance(0.5):
            s += "    maxReplicas: %d\n" % self.r.randrange(3, 20)
        if self.chance(0.3):
            s += "    priorityClassName: %s\n" % (self.pick(PRIORITIES[:3]) if not self.chance(0.03)
                                              else "serving-critcal")
        s += self.placement(4, gpu)
        if self.chance(0.85):
            s += ("    topologySpreadConstraints:\n      - maxSkew: 1\n"
                  "        topologyKey: kubernetes.io/hostname\n"
                  "        whenUnsatisfiable: ScheduleAnyway\n        labelSelector:\n"
                  "          matchLabels:\n"
                  "            serving.kserve.io/inferenceservice: %s\n" % name)
        fmt, ver = self.pick(FORMATS)
        s += "    model:\n      modelFormat:\n        name: %s\n" % fmt
        if self.chance(0.5):
            s += "        version: \"%s\"\n" % ver
        if self.chance(0.3):
            s += "      runtime: kserve-%s-runtime\n" % fmt
        s += "      storageUri: %s/%s/%s\n" % (self.pick(BUCKETS), team, name)
        s += self.resources(6, gpu)
        if self.chance(0.35):
            s += "  transformer:\n"
            s += self.placement(4, 0)
            s += "    containers:\n"
            s += self.container(6, "kserve-container", noun + "-transformer", 0)
        return s

    def serving_runtime(self, team):
        name = "%s-runtime-%d" % (self.pick(FORMATS)[0], self.r.randrange(1000))
        gpu = self.pick([0, 1])
        s = "apiVersion: serving.kserve.io/v1alpha1\nkind: %s\n" % self.pick(
            ["ServingRuntime", "ServingRuntime", "ClusterServingRuntime"])
        s += self.metadata(name, team)
        s += "spec:\n  annotations:\n    prometheus.kserve.io/port: \"8080\"\n"
        s += "  supportedModelFormats:\n"
        for fmt, ver in self.r.sample(FORMATS, self.r.randrange(1, 4)):
            s += "    - name: %s\n      version: \"%s\"\n      autoSelect: %s\n" % (
                fmt, ver, self.pick(["true", "false"]))
        s += "  protocolVersions: [v1, v2]\n"
        s += self.placement(2, gpu)
        s += "  containers:\n"
        s += self.container(4, "kserve-container", name.split("-")[0], gpu)
        return s

    def knative_service(self, team):
        name = self.name()
        noun = name.split("-")[1]
        gpu = self.pick([0, 0, 0, 1])
        s = "apiVersion: serving.knative.dev/v1\nkind: Service\n"
        s += self.metadata(name, team)
        s += "spec:\n  template:\n    metadata:\n      annotations:\n"
        s += "        autoscaling.knative.dev/min-scale: \"%d\"\n" % self.pick([0, 1, 2])
        s += "        autoscaling.knative.dev/max-scale: \"%d\"\n" % self.r.randrange(2, 40)
        if self.chance(0.2):
            s += "        autoscaling.knative.dev/metric: %s\n" % self.pick(
                ["concurrency", "rps", "concurrency", "rps", "rps", "cpu"])
        s += "    spec:\n"
        if self.chance(0.5):
            s += "      containerConcurrency: %d\n" % self.pick([0, 1, 4, 10, 100])
        if gpu or self.chance(0.1):     # needs the Knative podspec feature flags
            s += self.placement(6, gpu)
        s += "      containers:\n"
        s += self.container(8, "user-container", noun, gpu)
        return s

    def pod_template(self, ind, app, team, noun, gpu, replicas, batch=False):
        p = " " * ind
        s = p + "template:\n" + p + "  metadata:\n" + p + "    labels:\n"
        s += p + "      app: %s\n" % app
        s += p + "  spec:\n"
        if self.chance(0.4):
            s += p + "    priorityClassName: %s\n" % self.pick(
                PRIORITIES[3:] if batch and not self.chance(0.02) else PRIORITIES[:3])
        if replicas > 1 and self.chance(0.9):
            sel = app if not self.chance(0.05) else app + "-old"
            s += (p + "    topologySpreadConstraints:\n"
                  + p + "      - maxSkew: 1\n"
                  + p + "        topologyKey: topology.kubernetes.io/zone\n"
                  + p + "        whenUnsatisfiable: ScheduleAnyway\n"
                  + p + "        labelSelector:\n"
                  + p + "          matchLabels:\n"
                  + p + "            app: %s\n" % sel)
        s += self.placement(ind + 4, gpu)
        s += p + "    containers:\n"
        s += self.container(ind + 6, "server", noun, gpu, anchor=("res%d" % self.serial)
                            if self.chance(0.2) else None)
        if self.chance(0.2):
            s += (p + "      - name: metrics-sidecar\n"
                  + p + "        image: %s\n" % self.image("metrics")
                  + p + "        resources:\n"
                  + p + "          requests: {cpu: 50m, memory: 64Mi}\n"
                  + p + "          limits: {cpu: 100m, memory: 128Mi}\n")
        return s

    def deployment(self, team):
        name = self.name()
        noun = name.split("-")[1]
        gpu = self.pick([0, 0, 1])
        replicas = self.pick([1, 2, 3, 3, 5, 8])
        s = "apiVersion: apps/v1\nkind: Deployment\n" + self.metadata(name, team)
        s += "spec:\n  replicas: %d\n" % replicas
        if self.chance(0.01):
            s += "  replicas: %d\n" % (replicas + 1)      # duplicate key
        s += "  selector:\n    matchLabels:\n      app: %s\n" % name
        if self.chance(0.3):
            s += "  strategy:\n    type: RollingUpdate\n    rollingUpdate:\n"
            s += "      maxSurge: 25%\n      maxUnavailable: 0\n"
        s += self.pod_template(2, name, team, noun, gpu, replicas)
        return s

    def job(self, team):
        name = self.name()
        noun = name.split("-")[1]
        gpu = self.pick([0, 1, 8])
        s = "apiVersion: batch/v1\nkind: Job\n" + self.metadata(name, team)
        s += "spec:\n  backoffLimit: %d\n" % self.r.randrange(0, 6)
        s += "  ttlSecondsAfterFinished: 86400\n"
        if self.chance(0.5):
            s += "  parallelism: %d\n  completions: %d\n" % (self.r.randrange(1, 5),
                                                           self.r.randrange(1, 10))
        s += self.pod_template(2, name, team, noun, gpu, 1, batch=True)
        s += "      restartPolicy: %s\n" % self.pick(["Never", "OnFailure"])
        return s

    def priority_class(self, team):
        name = self.pick(PRIORITIES)
        value = {"serving-critical": 1000000, "serving-high": 100000, "serving-default": 10000,
                 "batch-low": 1000, "batch-preemptible": 100}[name]
        if self.chance(0.05):
            value *= 10000                                  # batch outranks serving
        s = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
        s += "metadata:\n  name: %s\n" % name
        s += "value: %d\n" % value
        s += "globalDefault: false\n"
        if name.startswith("batch"):
            s += "preemptionPolicy: Never\n"
        s += "description: >-\n  %s workloads of the %s team; see the capacity plan.\n" % (
            name, team)
        return s

    def seldon_server(self, team):
        name = "%s-%s" % (self.pick(["mlserver", "triton"]), self.pick(["cpu", "gpu", "large"]))
        s = "apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\n" + self.metadata(name, team)
        s += "spec:\n  serverConfig: %s\n" % name.split("-")[0]
        s += "  replicas: %d\n" % self.pick([1, 2, 3, -1 if self.chance(0.05) else 2])
        if self.chance(0.5):
            s += "  podSpec:\n"
            s += self.placement(4, name.endswith("gpu"))
        return s

    def seldon_model(self, team):
        name = self.name()
        fmt = self.pick(["sklearn", "xgboost", "mlflow", "pytorch", "onnx"])
        s = "apiVersion: mlops.seldon.io/v1alpha1\nkind: Model\n" + self.metadata(name, team)
        s += "spec:\n  storageUri: %s/%s/%s\n" % (self.pick(BUCKETS), team, name)
        s += "  requirements:\n    - %s\n" % fmt
        if self.chance(0.4):
            s += "  server: %s-%s\n" % (self.pick(["mlserver", "triton"]),
                                        self.pick(["cpu", "gpu", "large", "gpuu"]))
        if self.chance(0.5):
            s += "  replicas: %d\n" % self.pick([1, 2, 3])
        if self.chance(0.3):
            s += "  memory: %s\n" % self.mem()
        return s

    def config_map(self, team):
        """Not an inference object: the linter must skip it quickly."""
        name = "%s-settings-%d" % (team, self.r.randrange(1000))
        s = "apiVersion: v1\nkind: ConfigMap\n" + self.metadata(name, team)
        s += "data:\n"
        for i in range(self.r.randrange(2, 10)):
            s += "  key_%d: \"%s\"\n" % (i, self.pick(NOUNS) * self.r.randrange(1, 6))
        s += "  config.json: |\n    {\"batch\": %d, \"timeout_ms\": %d}\n" % (
            self.r.randrange(1, 64), self.r.randrange(10, 5000))
        return s

    def knative_features(self):
        """The cluster's config-features ConfigMap: the podspec flags the manifests use."""
        return ("# Knative feature flags of the serving cluster (managed by the platform team)\n"
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
                "  namespace: knative-serving\ndata:\n"
                "  kubernetes.podspec-affinity: enabled\n"
                "  kubernetes.podspec-nodeselector: enabled\n"
                "  kubernetes.podspec-priorityclassname: enabled\n"
                "  kubernetes.podspec-tolerations: enabled\n"
                "  kubernetes.podspec-topologyspreadconstraints: enabled\n")

    def anchored_pair(self, team):
        """Two Deployments sharing resources through an anchor, alias and merge key."""
        a, b = self.name(), self.name()
        s = "apiVersion: apps/v1\nkind: Deployment\n" + self.metadata(a, team)
        s += ("spec:\n  replicas: 1\n  selector:\n    matchLabels: &sel\n      app: %s\n" % a
              + "  template:\n    metadata:\n      labels: *sel\n    spec:\n"
              + "      containers:\n        - &main\n          name: server\n"
              + "          image: %s\n" % self.image("shared")
              + "          resources: &shared\n            requests: {cpu: \"1\", memory: 1Gi}\n"
              + "            limits: {cpu: \"1\", memory: 1Gi}\n")
        s += "        # the same container again as a warm-up sidecar, with more memory\n"
        s += "        - <<: *main\n          name: warmup\n          resources:\n"
        s += "            <<: *shared\n            limits: {cpu: \"1\", memory: 2Gi}\n"
        s += "---\napiVersion: apps/v1\nkind: Deployment\n" + self.metadata(b, team)
        s += ("spec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: %s\n" % b
              + "  template:\n    metadata:\n      labels:\n        app: %s\n" % b
              + "    spec:\n      containers:\n        - name: server\n"
              + "          image: %s\n" % self.image("shared")
              + "          resources:\n            requests: {cpu: \"1\", memory: 1Gi}\n"
              + "            limits: {cpu: \"1\", memory: 1Gi}\n")
        return s

    KINDS = [("inference_service", 300), ("deployment", 180), ("knative_service", 120),
             ("job", 80), ("serving_runtime", 60), ("seldon_model", 80), ("seldon_server", 30),
             ("priority_class", 3), ("config_map", 80), ("anchored_pair", 40)]

    def document(self, team):
        total = sum(w for _, w in self.KINDS)
        x = self.r.randrange(total)
        for kind, w in self.KINDS:
            if x < w:
                return getattr(self, kind)(team)
            x -= w
        raise AssertionError

    def small_file(self, team):
        out = []
        if self.chance(0.5):
            out.append(self.comment(0, team))
        n = self.pick([1, 1, 1, 1, 2, 2, 3, 4])
        for i in range(n):
            if i or self.chance(0.3):
                out.append("---\n")
            out.append(self.document(team))
        text = "".join(out)
        if self.chance(0.002):                              # a syntax error
            cut = text.find("\n", len(text) // 2)
            text = text[:cut] + "\n  bad: [unclosed, \n" + text[cut + 1:]
        return text


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    return len(text.encode("utf-8"))


def gen_small(g, out, budget):
    done = write(os.path.join(out, "platform", "knative-config-features.yaml"),
                 g.knative_features())
    i = 1
    while done < budget:
        team = g.pick(TEAMS)
        app = "app-%03d" % g.r.randrange(200)
        ext = "yaml" if g.chance(0.85) else "yml"
        path = os.path.join(out, team, app, "%06d.%s" % (i, ext))
        done += write(path, g.small_file(team))
        i += 1
    return i, done


def gen_huge(g, out, budget, files):
    per = max(1, budget // files)
    done = 0
    for k in range(files):
        path = os.path.join(out, "all-in-one-%d.yaml" % k)
        os.makedirs(out, exist_ok=True)
        size = 0
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write("# Everything the %s cluster runs, exported in one stream.\n" % g.pick(TEAMS))
            f.write(g.knative_features())
            while size < per:
                team = g.pick(TEAMS)
                d = "---\n" + g.document(team)
                f.write(d)
                size += len(d.encode("utf-8"))
        done += size
    return files, done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=20.0, help="total megabytes (default 20)")
    ap.add_argument("--shape", choices=["small", "huge", "mixed"], default="mixed")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--huge-files", type=int, default=3)
    a = ap.parse_args()
    g = Gen(a.seed)
    budget = int(a.mb * 1e6)
    if a.shape == "small":
        n, b = gen_small(g, a.out, budget)
    elif a.shape == "huge":
        n, b = gen_huge(g, a.out, budget, a.huge_files)
    else:
        n1, b1 = gen_small(g, os.path.join(a.out, "small"), budget * 4 // 5)
        n2, b2 = gen_huge(g, os.path.join(a.out, "huge"), budget - b1, a.huge_files)
        n, b = n1 + n2, b1 + b2
    print("%s: %d files, %.1f MB" % (a.out, n, b / 1e6), file=sys.stderr)


if __name__ == "__main__":
    main()
