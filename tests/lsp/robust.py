#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`schedlint server` against a hostile or careless client, on raw bytes.

Usage: tests/lsp/robust.py SCHEDLINT errors|long

errors  malformed JSON, JSON that is no request, a header without Content-Length, a body over
        the limit, messages out of order (before initialize, after shutdown, initialize twice,
        exit without shutdown), bad params, EOF in the middle of a message: each gets its
        JSON-RPC error (or is ignored, for notifications) and the server neither crashes nor
        hangs; it exits 0 after shutdown + exit, 1 otherwise, and when its input closes. Also:
        a file name that is not UTF-8 in a message, an unsafe fix (titled so, not preferred,
        not in fix-all), a config in the settings that cannot be loaded, a setting of the
        wrong type, a client that pulls (never pushed to; asked to pull again).
crossfile  what a change re-lints: the changed document alone, unless it changes a fact the
        others read (a PriorityClass's name): then the open document that reads it is
        published again with what the fact now says; an edit that changes no fact (a comment)
        re-lints no other document, and closing the unsaved buffer that held the fact gives the
        others the file on disk again. By the fact: a class's value re-lints the Pod that names
        the class, not the Job, the InferenceService or a Deployment; the lowest serving unit's
        rename re-lints the Job whose finding names it, not the others; a label, none. A quick
        fix one document offers of another (Knative's flag in a ConfigMap): an edit that moves
        its line or character there re-lints the document offering it, one that moves only
        bytes (a longer line above) does not, and the fix lands right either way; opening the
        file a left-out fix edits re-lints the document that offers it. Closing an
        unsaved buffer that held facts re-lints the documents that read a fact its file gives
        otherwise, not the others.
long    a session of 10 000 incremental edits (a pull every 500): the diagnostics are right at
        the end, memory stays flat and the edits do not slow down; under valgrind memcheck
        (no error, no definite leak) unless the binary is built with AddressSanitizer, whose
        leak check at exit is then the one that speaks (the status must still be 0).
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server, frame  # noqa: E402

SCHEDLINT = os.path.abspath(sys.argv[1])
MODE = sys.argv[2] if len(sys.argv) > 2 else "errors"
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def init(s, root):
    rid = s.request("initialize", {"processId": None, "rootUri": "file://" + root, "capabilities": {}})
    r = s.response(rid)
    check(r and "capabilities" in r.get("result", {}), "initialize answered: %r" % (r,))
    s.notify("initialized", {})


POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  nodeSelector: {a: true}\n"
       "  containers: [{name: c, image: x}]\n")


def errors(ws):
    s = Server(SCHEDLINT, ws)
    # before initialize: a request is -32002, a notification is dropped
    s.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.yaml", "text": "a: 1\n",
                                                        "version": 1}})
    rid = s.request("textDocument/hover", {"textDocument": {"uri": "file:///x.yaml"},
                                           "position": {"line": 0, "character": 0}})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32002, "request before initialize: %r" % (r,))
    # not JSON, JSON that is no request, a bad id, a header without Content-Length
    s.send(frame(b'{"jsonrpc": "2.0", "id": 1, "method": '))
    r = s.error_of()
    check(r and r["error"]["code"] == -32700 and r["id"] is None, "malformed JSON: %r" % (r,))
    for junk in (b"[1, 2]", b'"text"', b'{"id": 7, "method": "initialize"}',
                 b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "shutdown"}',
                 b'{"jsonrpc": "2.0", "id": 8, "method": 42}', b'{"jsonrpc": "2.0"}'):
        s.send(frame(junk))
        r = s.error_of()
        check(r and r["error"]["code"] == -32600, "invalid request %r: %r" % (junk, r))
    s.send(b"Content-Type: application/json\r\n\r\n")
    r = s.error_of()
    check(r and r["error"]["code"] == -32700, "header without Content-Length: %r" % (r,))
    s.send(b"Content-Length: 12x\r\n\r\n")
    r = s.error_of()
    check(r and r["error"]["code"] == -32700, "bad Content-Length: %r" % (r,))
    # a body over the limit: refused and skipped as it comes, the next message served
    big = 65 << 20
    s.send(b"Content-Length: %d\r\n\r\n" % big)
    r = s.error_of()
    check(r and r["error"]["code"] == -32700 and "limit" in r["error"]["message"], "huge: %r" % (r,))
    chunk = b" " * (1 << 20)
    for _ in range(65):
        s.send(chunk)
    init(s, ws)
    rid = s.request("initialize", {"capabilities": {}})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32600, "initialize twice: %r" % (r,))
    rid = s.request("workspace/symbol", {"query": ""})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32601, "unknown method: %r" % (r,))
    s.notify("$/unknownNotification", {})   # ignored, as LSP says
    # bad params: a document not open, a position that is no position, a change out of range
    uri = "file://" + ws + "/pod.yaml"
    rid = s.request("textDocument/formatting", {"textDocument": {"uri": uri}})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32602, "not open: %r" % (r,))
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "text": POD, "version": 1}})
    rid = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -1}})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32602, "bad position: %r" % (r,))
    rid = s.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": "all"})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32602, "bad range: %r" % (r,))
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 999, "character": 999}, "end": {"line": 1000, "character": 0}},
         "text": "# past the end\n"},
        {"range": {"start": {"line": 0, "character": 99}, "end": {"line": 0, "character": 3}},
         "text": "x"},
        {"text": 5}]})
    s.notify("textDocument/didChange", {"textDocument": {"uri": "file:///not-open.yaml"},
                                        "contentChanges": [{"text": "a"}]})
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    r = s.response(rid)
    codes = sorted(d["code"] for d in r["result"]["items"]) if r and "result" in r else None
    check(codes == ["schema-type"], "diagnostics after clamped edits: %r" % (r,))
    # a message naming a file whose name is not UTF-8: still JSON, the byte as U+FFFD
    pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: %s\nvalue: 1\nglobalDefault: true\n"
    with open(os.path.join(ws.encode(), b"a-\xff.yaml"), "w") as f:
        f.write(pc % "theirs")
    s.notify("workspace/didChangeWatchedFiles", {"changes": []})   # the project read again
    zuri = "file://" + ws + "/z.yaml"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": zuri, "text": pc % "mine", "version": 1}})
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": zuri}})
    r = s.response(rid)
    items = r["result"]["items"] if r and "result" in r else []
    check(len(items) == 1 and "a-\ufffd.yaml" in items[0]["message"], "a file name not UTF-8: %r" % (r,))
    os.remove(os.path.join(ws.encode(), b"a-\xff.yaml"))
    # an unsafe fix is offered titled as such, never preferred, and never in fix-all
    spot = open("testdata/rules/critical-on-spot/bad/preferred.yaml").read()
    suri = "file://" + ws + "/spot.yaml"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": suri, "text": spot, "version": 1}})
    rid = s.request("textDocument/codeAction", {"textDocument": {"uri": suri}, "context": {"diagnostics": []},
                                                "range": {"start": {"line": 14, "character": 20},
                                                          "end": {"line": 14, "character": 20}}})
    r = s.response(rid)
    acts = r.get("result") or [] if r else []
    unsafe = [a for a in acts if a["title"].startswith("Unsafe fix: ")]
    check(len(unsafe) == 1 and not unsafe[0].get("isPreferred") and "(critical-on-spot)" in unsafe[0]["title"],
          "the unsafe fix: %r" % ([a["title"] for a in acts],))
    rid = s.request("textDocument/codeAction", {"textDocument": {"uri": suri}, "context": {"diagnostics": [], "only": ["source"]},
                                                "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}})
    r = s.response(rid)
    check(r and r.get("result") == [], "no safe fix, so no fix-all: %r" % (r,))
    # after shutdown: requests are -32600, exit is status 0
    rid = s.request("shutdown")
    r = s.response(rid)
    check(r and r.get("result", 1) is None, "shutdown: %r" % (r,))
    rid = s.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    r = s.response(rid)
    check(r and r["error"]["code"] == -32600, "after shutdown: %r" % (r,))
    s.notify("exit")
    st = s.close()
    check(st == 0, "exit after shutdown: status %r" % (st,))

    # a config named in the settings that cannot be loaded: said on the document, at its start
    s = Server(SCHEDLINT, ws)
    rid = s.request("initialize", {"processId": None, "rootUri": "file://" + ws, "capabilities": {},
                                   "initializationOptions": {"config": "missing.yaml", "select": 7}})
    s.response(rid)
    s.notify("initialized", {})
    s.notify("workspace/didChangeConfiguration", {"settings": {"schedlint": {"config": "missing.yaml"}}})
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "text": POD, "version": 1}})
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    r = s.response(rid)
    items = r["result"]["items"] if r and "result" in r else []
    check(len(items) == 1 and "missing.yaml" in items[0]["message"] and items[0]["range"]["start"] ==
          {"line": 0, "character": 0}, "a config that cannot be loaded: %r" % (r,))
    s.notify("exit")
    st = s.close()
    check("settings ignored" in s.stderr, "a setting of the wrong type is logged: " + s.stderr[-500:])

    # a client that pulls: nothing is pushed; a change on disk asks it to pull again
    s = Server(SCHEDLINT, ws)
    rid = s.request("initialize", {"processId": None, "rootUri": "file://" + ws, "capabilities": {
        "textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}})
    s.response(rid)
    s.notify("initialized", {})
    pc = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: %s\nvalue: 1\nglobalDefault: true\n"
    zuri = "file://" + ws + "/z.yaml"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": zuri, "text": pc % "mine", "version": 1}})
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": zuri}})
    r = s.response(rid)
    check(r and r["result"]["items"] == [], "pulled: %r" % (r,))
    with open(os.path.join(ws, "a-pc.yaml"), "w") as f:
        f.write(pc % "theirs")
    s.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": "file://" + ws + "/a-pc.yaml", "type": 1}]})
    seen = []
    while True:
        m = s.read()
        if m is None:
            break
        seen.append(m.get("method"))
        if m.get("method") == "workspace/diagnostic/refresh":
            s.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
            break
    check(seen == ["workspace/diagnostic/refresh"], "a pulling client is asked to pull again, never pushed to: %r" % (seen,))
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": zuri}})
    r = s.response(rid)
    check(r and [d["code"] for d in r["result"]["items"]] == ["multiple-default-priority-classes"], "pulled again: %r" % (r,))
    os.remove(os.path.join(ws, "a-pc.yaml"))
    s.notify("exit")
    s.close()

    # exit without shutdown: 1
    s = Server(SCHEDLINT, ws)
    init(s, ws)
    s.notify("exit")
    st = s.close()
    check(st == 1, "exit without shutdown: status %r" % (st,))
    # the input closes in the middle of a message, and in the middle of a huge one: 1, no hang
    for tail in (b"Content-Length: 100\r\n\r\n{\"jsonrpc\"", b"Content-Len",
                 b"Content-Length: 99999999999999999999\r\n\r\nabc"):
        s = Server(SCHEDLINT, ws)
        init(s, ws)
        s.send(tail)
        st = s.close()
        check(st == 1, "EOF mid-message %r: status %r" % (tail, st))
        check("Sanitizer" not in s.stderr, "sanitizer report: " + s.stderr[-2000:])


PC = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: %s\nvalue: 1000\n"
READS_PC = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n"
            "  priorityClassName: serving-high\n  containers: [{name: c, image: x}]\n")


def until(s, pred, what):
    """The messages read up to and including the first pred holds for (None: the end). No time
    limit: a loaded machine is slow; meson's timeout ends a server that hangs."""
    got = []
    while True:
        m = s.read()
        if m is None:
            check(False, "no message for %s after %r" % (what, [x.get("method") for x in got]))
            return got
        got.append(m)
        if pred(m):
            return got


def published(uri):
    return lambda m: m.get("method") == "textDocument/publishDiagnostics" and \
        m["params"]["uri"] == uri


def codes_of(m):
    return sorted(d.get("code") for d in m["params"]["diagnostics"])


def cross_file(ws):
    d = os.path.join(ws, "cross")
    os.makedirs(d)
    with open(os.path.join(d, ".schedlint.yaml"), "w") as f:
        f.write("{}\n")
    with open(os.path.join(d, "pod.yaml"), "w") as f:   # on disk, opened as it is
        f.write(READS_PC)
    s = Server(SCHEDLINT, d)
    init(s, d)
    pod, pc = "file://" + d + "/pod.yaml", "file://" + d + "/pc.yaml"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": pod, "text": READS_PC, "version": 1}})
    m = until(s, published(pod), "the Pod")[-1]
    check(m["params"]["diagnostics"] == [], "the Pod alone (no class known: no evidence): %r" % (m,))
    # a buffer never saved (pc.yaml is not on disk) that defines another class than the Pod
    # reads: a fact changed, so the Pod is linted again and says its class is not defined
    s.notify("textDocument/didOpen", {"textDocument": {"uri": pc, "text": PC % "serving-hi",
                                                       "version": 1}})
    m = until(s, lambda m: published(pod)(m) and m["params"]["diagnostics"], "the Pod, a class known")[-1]
    check(codes_of(m) == ["priority-class-not-found"], "another class defined: %r" % (m,))
    # the fix of the name: the Pod's diagnostics are published again, now empty
    s.notify("textDocument/didChange", {"textDocument": {"uri": pc, "version": 2},
                                        "contentChanges": [{"text": PC % "serving-high"}]})
    m = until(s, lambda m: published(pod)(m) and not m["params"]["diagnostics"],
              "the Pod once its class is defined")[-1]
    check(m["params"]["diagnostics"] == [], "the Pod re-linted with the new fact: %r" % (m,))
    # a comment after the PriorityClass changes no fact: the PriorityClass alone is linted
    # (the pull answers once every pending change is linted)
    s.notify("textDocument/didChange", {"textDocument": {"uri": pc, "version": 3},
                                        "contentChanges": [{"text": PC % "serving-high" + "# ok\n"}]})
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": pod}})
    got = until(s, lambda m: m.get("id") == rid and "method" not in m, "the pull")
    check(any(published(pc)(m) for m in got), "the PriorityClass linted: %r" % (got,))
    check(not any(published(pod)(m) for m in got), "the Pod not linted again: %r" % (got,))
    check(got[-1]["result"]["items"] == [], "the Pod still clean: %r" % (got[-1],))
    # a rename of the class in the buffer: the Pod's finding is back
    s.notify("textDocument/didChange", {"textDocument": {"uri": pc, "version": 4},
                                        "contentChanges": [{"text": PC % "serving-low"}]})
    m = until(s, lambda m: published(pod)(m) and m["params"]["diagnostics"], "the Pod again")[-1]
    check(codes_of(m) == ["priority-class-not-found"], "the class renamed: %r" % (m,))
    s.notify("textDocument/didChange", {"textDocument": {"uri": pc, "version": 5},
                                        "contentChanges": [{"text": PC % "serving-high"}]})
    until(s, lambda m: published(pod)(m) and not m["params"]["diagnostics"], "the Pod clean")
    # closed unsaved: the disk (no pc.yaml) speaks for it again, to the Pod too: it no longer
    # says its class is missing when it says so, nor is left with what the buffer said
    s.notify("textDocument/didChange", {"textDocument": {"uri": pc, "version": 6},
                                        "contentChanges": [{"text": PC % "serving-hi"}]})
    until(s, lambda m: published(pod)(m) and m["params"]["diagnostics"], "the Pod, the class wrong")
    s.notify("textDocument/didClose", {"textDocument": {"uri": pc}})
    m = until(s, published(pod), "the Pod after the close")[-1]
    check(m["params"]["diagnostics"] == [], "the buffer closed: %r" % (m,))
    rid = s.request("shutdown")
    s.response(rid)
    s.notify("exit")
    st = s.close()
    check(st == 0, "status after shutdown and exit: %r" % (st,))


PCS = "".join("---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n"
              "  name: %s\nvalue: %d\n" % nv for nv in (("training-high", 100000),
                                                      ("inference-low", 1000)))
PC_READ = PC.replace("value: 1000", "value: %d") % ("serving-high", 5000)
JOB = ("apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\nspec:\n  template:\n"
       "    spec:\n      restartPolicy: Never\n      priorityClassName: training-high\n"
       "      containers: [{name: t, image: x}]\n")
ISVC = ("apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: %s\n"
        "spec:\n  predictor:\n    priorityClassName: inference-low\n"
        "    model: {modelFormat: {name: sklearn}}\n")
PLAIN = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cache\nspec:\n"
         "  selector: {matchLabels: {app: cache}}\n  template:\n    metadata: {labels: {app: cache}}\n"
         "    spec:\n      containers: [{name: c, image: x}]\n")


def settled(s, uri):
    """The messages up to the answer of a second pull of uri: the first lints the pending
    changes, the second the documents that read a fact they changed."""
    got = []
    for _ in range(2):
        rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        got += until(s, lambda m: m.get("id") == rid and "method" not in m, "a pull")
    return got


def opened(ws, sub, texts):
    """A server in ws/sub, where each of texts ({name: text}) is name.yaml on disk and opened
    as it is, and linted once; the server and the documents' URIs."""
    d = os.path.join(ws, sub)
    os.makedirs(d)
    with open(os.path.join(d, ".schedlint.yaml"), "w") as f:
        f.write("{}\n")
    for name, text in texts.items():
        with open(os.path.join(d, name + ".yaml"), "w") as f:
            f.write(text)
    s = Server(SCHEDLINT, d)
    init(s, d)
    uri = {name: "file://%s/%s.yaml" % (d, name) for name in texts}
    for name, text in texts.items():
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri[name], "text": text,
                                                           "version": 1}})
        until(s, published(uri[name]), "the first lint of " + name)
    return s, uri


def cross_file_keys(ws):
    """A change re-lints the open documents that read a fact it changed, by the fact: a
    PriorityClass's value the Pod that names the class, not the others; a serving unit's name
    the Job whose finding names it, not the Pod or the Deployment, which read no unit."""
    texts = {"pcs": PCS + "---\n" + PC_READ, "job": JOB, "isvc": ISVC % "chat",
             "pod": READS_PC, "plain": PLAIN}
    s, uri = opened(ws, "keys", texts)
    got = settled(s, uri["plain"])

    def republished(got):
        return sorted(n for n in texts if any(published(uri[n])(m) for m in got))

    check(republished(got) == [], "opened, nothing changed: nothing linted again: %r" % (got,))
    rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri["job"]}})
    job = until(s, lambda m: m.get("id") == rid and "method" not in m, "the Job's pull")[-1]
    items = job["result"]["items"]
    check([i.get("code") for i in items] == ["batch-outranks-serving"] and
          "InferenceService chat, predictor" in items[0]["message"], "the Job outranks: %r" % (job,))
    # (a) the value of the class the Pod names: the Pod is linted again, no other document
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri["pcs"], "version": 2},
                                        "contentChanges": [{"text": texts["pcs"].replace(
                                            "value: 5000", "value: 6000")}]})
    got = settled(s, uri["plain"])
    check(republished(got) == ["pcs", "pod"], "a class's value: its reader re-linted, and only "
          "it: %r" % (republished(got),))
    # (b) the lowest serving unit renamed: the Job's finding names it, so the Job is linted
    # again (and says the new name); the Pod and the Deployment read no unit
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri["isvc"], "version": 2},
                                        "contentChanges": [{"text": ISVC % "chat-v2"}]})
    got = settled(s, uri["plain"])
    check(republished(got) == ["isvc", "job"], "a unit renamed: the Job re-linted, and only it: "
          "%r" % (republished(got),))
    msgs = [m for m in got if published(uri["job"])(m)]
    check(msgs and "InferenceService chat-v2, predictor" in msgs[-1]["params"]["diagnostics"][0]
          ["message"], "the Job names the unit's new name: %r" % (msgs,))
    # a label that no rule of another document reads: the InferenceService alone
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri["isvc"], "version": 3},
                                        "contentChanges": [{"text": (ISVC % "chat-v2").replace(
                                            "  name: chat-v2\n", "  name: chat-v2\n  labels: {a: b}\n")}]})
    got = settled(s, uri["plain"])
    check(republished(got) == ["isvc"], "a label: the document alone: %r" % (republished(got),))
    rid = s.request("shutdown")
    s.response(rid)
    s.notify("exit")
    st = s.close()
    check(st == 0, "status after shutdown and exit: %r" % (st,))


def cross_file_close(ws):
    """Closing an unsaved buffer whose facts the others were linted with gives them its file
    again: the documents that read a fact the file gives otherwise are linted again, the others
    not (a class's value edited and the buffer closed: the Pod that names the class; the
    value of a class no document names: none)."""
    texts = {"pcs": PCS + "---\n" + PC_READ, "pod": READS_PC, "plain": PLAIN}
    s, uri = opened(ws, "close", texts)
    settled(s, uri["plain"])
    version = [1]

    def republished(got):
        return sorted(n for n in texts if any(published(uri[n])(m) for m in got))
    for what, old, new, readers in (
            ("the class the Pod names", "value: 5000", "value: 6000", ["pod"]),
            ("a class no document names", "value: 100000", "value: 200000", [])):
        version[0] += 1
        s.notify("textDocument/didChange", {
            "textDocument": {"uri": uri["pcs"], "version": version[0]},
            "contentChanges": [{"text": texts["pcs"].replace(old, new)}]})
        got = settled(s, uri["plain"])
        check(republished(got) == ["pcs"] + readers, "%s edited: re-linted %r"
              % (what, republished(got)))
        s.notify("textDocument/didClose", {"textDocument": {"uri": uri["pcs"]}})
        got = settled(s, uri["plain"])
        closed = [m for m in got if published(uri["pcs"])(m)]
        check(len(closed) == 1 and closed[0]["params"]["diagnostics"] == [],
              "%s: the closed buffer's diagnostics cleared once: %r" % (what, closed))
        check(republished(got) == ["pcs"] + readers, "%s, closed unsaved: re-linted %r"
              % (what, republished(got)[1:]))
        s.notify("textDocument/didOpen", {"textDocument": {"uri": uri["pcs"], "text": texts["pcs"],
                                                           "version": 1}})
        until(s, published(uri["pcs"]), "pcs opened again")
        settled(s, uri["plain"])
    rid = s.request("shutdown")
    s.response(rid)
    s.notify("exit")
    st = s.close()
    check(st == 0, "status after shutdown and exit: %r" % (st,))


FLAGS = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: cache\nspec:\n"
         "  template:\n    spec:\n      containers: [{name: c, image: x}]\n"
         "# %(comment)s\n%(cm)s%(after)s")
FLOW_CM = ("%(prefix)s{apiVersion: v1, kind: ConfigMap, metadata: {name: config-features, "
           "namespace: knative-serving}, data: {kubernetes.podspec-nodeselector: disabled}}\n")
BLOCK_CM = ("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
            "  namespace: knative-serving\ndata:\n  other: x  # %(tail)s\n")
KSVC = ("apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: web\nspec:\n"
        "  template:\n    spec:\n      nodeSelector: {pool: gpu}\n"
        "      containers: [{name: c, image: x}]\n")


def cross_file_place(ws):
    """A fix one document offers of another (a Knative Service's, of the config-features
    ConfigMap that turns its flag off) is shown as lines and characters of that other
    document: an edit there that moves them (text before the ConfigMap on its first line; a
    comment after its last entry, where the fix inserts the flag) re-lints the Service, whose
    fix is then where the new text has it; one that moves no line or character (a longer
    comment line above the ConfigMap, a Deployment's image, a comment after it) re-lints the
    edited document alone, and the Service's fix, untouched, is still right."""
    args = {"comment": "flags", "prefix": "--- ", "tail": "note", "after": "", "cm": FLOW_CM}

    def flags(**kw):
        args.update(kw)
        return FLAGS % dict(args, cm=args["cm"] % args)
    # the Service first: its fix is left out while the flags' file is not open (an edit is
    # made against an open document's text), and given once it is opened
    texts = {"ksvc": KSVC, "plain": PLAIN, "flags": flags()}
    s, uri = opened(ws, "place", texts)
    settled(s, uri["plain"])
    version = [1]

    def edit(text):
        version[0] += 1
        s.notify("textDocument/didChange", {
            "textDocument": {"uri": uri["flags"], "version": version[0]},
            "contentChanges": [{"text": text}]})
        got = settled(s, uri["plain"])
        return sorted(n for n in texts if any(published(uri[n])(m) for m in got))

    def fixes(text):
        """The Service's fixes of the flags as edits of text: (line, character, the text they
        replace, their new text)."""
        rid = s.request("textDocument/codeAction", {
            "textDocument": {"uri": uri["ksvc"]}, "context": {"diagnostics": []},
            "range": {"start": {"line": 7, "character": 6}, "end": {"line": 7, "character": 6}}})
        r = s.response(rid)
        lines = text.split("\n")
        out = []
        for a in (r or {}).get("result") or []:
            for e in a.get("edit", {}).get("changes", {}).get(uri["flags"], []):
                st, en = e["range"]["start"], e["range"]["end"]
                old = lines[st["line"]][st["character"]:en["character"]]
                out.append((st["line"], st["character"], old, e["newText"].strip()))
        return out

    def want(text):
        """Where the fix belongs in text: the flow ConfigMap's value replaced, or the flag
        added after the block ConfigMap's last entry."""
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if "disabled" in line:
                return [(i, line.index("disabled"), "disabled", "enabled")]
            if line.startswith("  other: x"):
                return [(i, len(line), "", 'kubernetes.podspec-nodeselector: "enabled"')]
    check(fixes(texts["flags"]) == want(texts["flags"]), "the Service's fix of the flags, once "
          "they are open: %r" % (fixes(texts["flags"]),))
    for what, kw, others in (
            ("a longer comment line above", {"comment": "Knative's feature flags"}, []),
            ("the Deployment's image", {"image": True}, []),
            ("a comment after the ConfigMap", {"after": "# end\n"}, []),
            ("text before the ConfigMap on its line", {"prefix": "---    "}, ["ksvc"]),
            ("the ConfigMap in block style, the flag unset", {"cm": BLOCK_CM}, ["ksvc"]),
            ("a longer comment where the fix inserts", {"tail": "a longer note"}, ["ksvc"]),
            ("a longer comment line above it", {"comment": "flags, again"}, [])):
        image = kw.pop("image", False)
        text = flags(**kw)
        if image:   # x -> y: the same length
            text = text.replace("image: x", "image: y")
        again = edit(text)
        check(again == ["flags"] + others, "%s: re-linted %r" % (what, again))
        got = fixes(text)
        check(got == want(text), "%s: the Service's fix %r, not %r" % (what, got, want(text)))
    rid = s.request("shutdown")
    s.response(rid)
    s.notify("exit")
    st = s.close()
    check(st == 0, "status after shutdown and exit: %r" % (st,))


def asan_built():
    with open(SCHEDLINT, "rb") as f:
        return b"__asan_init" in f.read()


def long_session(ws, prefix, measure):
    """10 000 edits; measure: each one linted and published before the next is sent, and time
    and memory must stay flat (not measured under a checker, whose quarantine of freed memory
    grows on its own, and there the edits come in bursts: linted when the input pauses)."""
    s = Server(SCHEDLINT, ws, prefix)
    init(s, ws)
    uri = "file://" + ws + "/pod.yaml"
    s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "text": POD, "version": 1}})
    # Odd edits insert an astral character (two UTF-16 units) after "apiVersion: v1" or an "é"
    # after it; even edits delete what was inserted: the text stays the same size, so time and
    # memory must too. Every 500 edits, a pull: the diagnostics of the text so far.
    at = len("apiVersion: v1")
    times, rss = [], []
    n = 10000
    for i in range(1, n + 1):
        if i % 2:
            ins = "𝔘" if i % 4 == 1 else "é"
            change = {"range": {"start": {"line": 0, "character": at}, "end": {"line": 0, "character": at}},
                      "text": " #" + ins}
        else:
            units = 2 + (2 if i % 4 == 2 else 1)
            change = {"range": {"start": {"line": 0, "character": at},
                                "end": {"line": 0, "character": at + units}}, "text": ""}
        s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": i + 1},
                                            "contentChanges": [change]})
        while measure:
            m = s.read()
            if m is None or m.get("params", {}).get("version") == i + 1:
                check(m is not None, "no diagnostics published for edit %d" % i)
                break
        if i % 500 == 0:
            rid = s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            r = s.response(rid)
            codes = sorted(d["code"] for d in r["result"]["items"]) if r and "result" in r else None
            check(codes == ["schema-type"], "edit %d: %r" % (i, r))
            with open("/proc/%d/stat" % s.p.pid) as f:   # the server's CPU time, in ticks:
                fields = f.read().rsplit(")", 1)[1].split()   # other load does not count
            times.append(int(fields[11]) + int(fields[12]))
            with open("/proc/%d/status" % s.p.pid) as f:
                rss.append(int([l for l in f if l.startswith("VmRSS")][0].split()[1]))
    # after the edits the text is what it was: formatting quotes the boolean
    rid = s.request("textDocument/formatting", {"textDocument": {"uri": uri},
                                                "options": {"tabSize": 2, "insertSpaces": True}})
    r = s.response(rid)
    edits = r.get("result") if r else None
    check(edits and edits[0]["newText"] == '"true"', "formatting after 10 000 edits: %r" % (str(r)[:300],))
    rid = s.request("shutdown")
    s.response(rid)
    s.notify("exit")
    st = s.close()
    check(st == 0, "status %r (99: valgrind found an error or a leak)\n%s" % (st, getattr(s, "stderr", "")[-3000:]))
    # CPU ticks of edits 500-3000 and of the last 2 500 (the first 500 warm up)
    tick = os.sysconf("SC_CLK_TCK")
    first, last = times[5] - times[0], times[-1] - times[-6]
    print("%s: 2 500 edits took %.2f s of the server's CPU after the first 500, %.2f s at the end; "
          "RSS %d kB -> %d kB" % (" ".join(prefix[:1]) or "plain", first / tick, last / tick, rss[1], rss[-1]))
    if measure:
        check(last <= first * 1.5 + tick // 10, "the edits slow down: %d -> %d ticks per 2 500" % (first, last))
        check(rss[-1] <= rss[1] + 1024, "memory grows: %d kB -> %d kB" % (rss[1], rss[-1]))


def long_sessions(ws):
    """Plain: flat time and memory. Then under valgrind (no error, no definite leak), unless the
    binary is built with AddressSanitizer: its leak check at exit is then what speaks."""
    asan = asan_built()
    long_session(ws, (), not asan)
    if asan:
        return
    if subprocess.call(["sh", "-c", "command -v valgrind"], stdout=subprocess.DEVNULL) != 0:
        print("tests/lsp/robust.py: valgrind is missing (Debian package valgrind; tools/setup --test)")
        sys.exit(1)
    long_session(ws, ("valgrind", "-q", "--error-exitcode=99", "--leak-check=full",
                      "--errors-for-leak-kinds=definite"), False)


def main():
    with tempfile.TemporaryDirectory(prefix="schedlint-lsp-robust-") as ws:
        with open(os.path.join(ws, ".schedlint.yaml"), "w") as f:
            f.write("{}\n")
        if MODE == "long":
            long_sessions(ws)
        elif MODE == "crossfile":
            cross_file(ws)
            cross_file_keys(ws)
            cross_file_place(ws)
            cross_file_close(ws)
        else:
            errors(ws)
    if FAILS:
        print("tests/lsp/robust.py %s: %d failed" % (MODE, len(FAILS)))
        sys.exit(1)
    print("tests/lsp/robust.py %s: passed" % MODE)


main()
