#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The language server's benchmark (spec/lsp.md, "Speed"): how long from a change to a
1 000-line manifest to its diagnostics published, on one core.

    tests/bench/lsp.py [--edits 200] [--seed 7] [--lines 1000] [--crowd 50,200]
                       [--crowd-edits 20]

Builds the release schedlint in <project>/build-bench (as tests/bench/run does), makes a
manifest of --lines lines from gen.py's generated documents, starts `schedlint server
--debounce-ms 0` pinned to one CPU (taskset), opens the manifest and sends --edits incremental
changes one at a time (a character typed into a name, then removed), timing each from the
moment didChange is written to the moment its publishDiagnostics is read: the re-lint, the
UTF-16 ranges and the JSON both ways. Three workspaces: the manifest alone with the project not
read (noProject), the manifest alone as its project, and the manifest inside the bench's git
repository of ~2 000 manifests (tests/bench/run's project), read once at the first lint and lent
to every later one. Then the manifest in its directory with --crowd other 1 000-line manifests
open beside it (each a file on disk, opened unchanged, as an editor opens them), edited in a
label's value (a change that re-lints the manifest alone) and in its first object's name (an
InferenceService's, the lowest-priority serving unit: a fact, which re-lints the open documents
whose rules read it, here none: their one Job's class is not defined, so it ranks against no
serving unit; issue 26).
Prints a Markdown table (the open, which reads the project; per change: median, p90, max; the server's RSS at the end;
taskset execs the server, so its pid is the server's).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCH = os.path.join(ROOT, "tests", "bench")
sys.path.insert(0, os.path.join(ROOT, "tests", "lsp"))
from lspclient import Server  # noqa: E402
BUILD = os.path.join(ROOT, "build-bench")
DATA = "/tmp/schedlint-bench"


def sh(cmd, **kw):
    print("+ " + " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kw)


def build():
    if not os.path.exists(os.path.join(BUILD, "build.ninja")):
        sh(["meson", "setup", BUILD, ROOT, "--buildtype=release"], stdout=subprocess.DEVNULL)
    sh(["meson", "compile", "-C", BUILD, "schedlint:executable"], stdout=subprocess.DEVNULL)
    return os.path.join(BUILD, "schedlint")


def manifest(lines, seed):
    """--lines lines of generated manifests, documents joined with ---."""
    src = os.path.join(DATA, "lsp-docs-seed%d" % seed)
    if not os.path.exists(os.path.join(src, ".done")):
        shutil.rmtree(src, ignore_errors=True)
        sh([sys.executable, os.path.join(BENCH, "gen.py"), src, "--mb", "0.3", "--shape", "small",
            "--seed", str(seed)])
        open(os.path.join(src, ".done"), "w").close()
    out = []
    for dp, dns, fns in sorted(os.walk(src)):
        dns.sort()
        for f in sorted(fns):
            if f.endswith(".yaml") and len(out) < lines:   # whole documents, up to --lines
                with open(os.path.join(dp, f)) as fh:
                    out += (["---"] if out else []) + fh.read().rstrip("\n").split("\n")
    return "\n".join(out) + "\n"


def project_repo(seed):
    d = os.path.join(DATA, "project-seed%d" % seed)
    if not os.path.exists(os.path.join(d, ".done")):
        shutil.rmtree(d, ignore_errors=True)
        sh([sys.executable, os.path.join(BENCH, "gen.py"), d, "--mb", "4.1", "--shape", "small",
            "--seed", str(seed)])
        sh(["git", "init", "-q", d])
        open(os.path.join(d, ".done"), "w").close()
    return d


def wait_version(c, uri, v):
    """The publication of uri's diagnostics for version v."""
    while True:
        m = c.read(60)
        if m is None:
            raise SystemExit("no diagnostics for version %d" % v)
        p = m.get("params") or {}
        if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri \
                and p.get("version") == v:
            return p


def session(schedlint, ws, rel, text, edits, no_project, others=(), row_prefix="  name: "):
    prefix = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    c = Server(schedlint, ws, prefix)
    c.response(c.request("initialize", {"processId": None, "rootUri": "file://" + ws, "capabilities": {},
                                        "initializationOptions": {"noProject": no_project}}))
    c.notify("initialized", {})
    for other in others:   # open first, each one's diagnostics waited for
        with open(os.path.join(ws, other)) as f:
            c.notify("textDocument/didOpen", {"textDocument": {
                "uri": "file://" + os.path.join(ws, other), "languageId": "yaml", "version": 1,
                "text": f.read()}})
        wait_version(c, "file://" + os.path.join(ws, other), 1)
    uri = "file://" + os.path.join(ws, rel)
    t_open = time.perf_counter()
    c.notify("textDocument/didOpen",
             {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    first = wait_version(c, uri, 1)
    open_ms = (time.perf_counter() - t_open) * 1e3   # the first lint reads the project
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if l.startswith(row_prefix))
    col = len(lines[row])
    times = []
    for i in range(edits):
        v = i + 2
        if i % 2 == 0:
            ch = {"range": {"start": {"line": row, "character": col}, "end": {"line": row, "character": col}},
                  "text": "x"}
        else:
            ch = {"range": {"start": {"line": row, "character": col}, "end": {"line": row, "character": col + 1}},
                  "text": ""}
        t0 = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [ch]})
        wait_version(c, uri, v)
        times.append((time.perf_counter() - t0) * 1e3)
    with open("/proc/%d/status" % c.p.pid) as f:   # taskset execs the server: its pid
        rss = int([l for l in f if l.startswith("VmRSS")][0].split()[1])
    c.response(c.request("shutdown"))
    c.notify("exit")
    c.close(30)
    times.sort()
    return {"diagnostics": len(first["diagnostics"]), "rss": rss, "open": open_ms,
            "median": statistics.median(times), "p90": times[int(len(times) * 0.9)], "max": times[-1]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--crowd", default="50,200", help="other open manifests, comma-separated")
    ap.add_argument("--crowd-edits", type=int, default=20)
    a = ap.parse_args()
    schedlint = build()
    text = manifest(a.lines, a.seed)
    alone = os.path.join(DATA, "lsp-alone")
    os.makedirs(alone, exist_ok=True)
    with open(os.path.join(alone, "big.yaml"), "w") as f:
        f.write(text)
    repo = project_repo(a.seed)
    with open(os.path.join(repo, "lsp-big.yaml"), "w") as f:   # the buffer's file, on disk too
        f.write(text)
    cases = [("the manifest alone, project not read (noProject)", alone, True),
             ("the manifest alone, its directory as the project", alone, False),
             ("the manifest in a git repository of ~2 000 manifests, project read", repo, False)]
    rows = []
    for name, ws, no_project in cases:
        rel = "big.yaml" if ws == alone else "lsp-big.yaml"
        r = session(schedlint, ws, rel, text, a.edits, no_project)
        rows.append("| %s | %d | %.0f | %.1f | %.1f | %.1f | %.0f |" % (
            name, r["diagnostics"], r["open"], r["median"], r["p90"], r["max"], r["rss"] / 1024))
    os.remove(os.path.join(repo, "lsp-big.yaml"))
    crowd = os.path.join(DATA, "lsp-crowd")
    for n in [int(x) for x in a.crowd.split(",") if x]:
        shutil.rmtree(crowd, ignore_errors=True)
        os.makedirs(crowd)
        others = ["other-%03d.yaml" % i for i in range(n)]
        for name in ["big.yaml"] + others:
            with open(os.path.join(crowd, name), "w") as f:
                f.write(text)
        # a label's value (no other file reads it), then the first object's name (an
        # InferenceService's: its serving units' labels are facts the others read)
        for what, prefix in (("a label value", "    app.kubernetes.io/name: "),
                             ("a serving unit's name", "  name: ")):
            r = session(schedlint, crowd, "big.yaml", text, a.crowd_edits, False, others, prefix)
            rows.append("| %s | %d | %.0f | %.1f | %.1f | %.1f | %.0f |" % (
                "the manifest in its directory, %d others open, %d edits of %s" % (
                    n, a.crowd_edits, what),
                r["diagnostics"], r["open"], r["median"], r["p90"], r["max"], r["rss"] / 1024))
    shutil.rmtree(crowd, ignore_errors=True)
    print("%d-line manifest (%d bytes), %d edits each, `schedlint server --debounce-ms 0` on one "
          "CPU (taskset -c 0), release build:\n" % (text.count("\n"), len(text.encode()), a.edits))
    print("| workspace | diagnostics | open ms | median ms | p90 ms | max ms | server RSS MiB |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


main()
