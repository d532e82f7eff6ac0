#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""progress.py: what schedlint writes to a terminal, on a pseudo-terminal (spec/cli.md).

Usage: progress.py SCHEDLINT

- The progress line of a long run ("[  412/600 files]", rewritten with a carriage return) is on
  stderr when stderr is a terminal, and is erased before the report: the terminal ends up
  showing the report only; the report (stdout, a pipe here) never holds it.
- Nothing of it when stderr is a pipe, with -q, or with TERM=dumb.
- Text output is full by default when stdout is a terminal, concise when it is not or with -o.
"""
import os
import pty
import subprocess
import sys
import tempfile

FILES = 600   # more than SL_PROGRESS_FILES: shown whatever the run's speed
POD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\nspec:\n  containers:\n    - name: c\n      image: x\n"
BAD = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: bad\nspec:\n  nodeSelector:\n    gpu: true\n  containers:\n    - name: c\n      image: x\n"
failures = []


def check(cond, what, got):
    if not cond:
        failures.append("%s\n--- got:\n%r" % (what, got))


def run(args, tty_out=False, tty_err=False, env=None):
    """Runs schedlint; returns (stdout, stderr, status), each stream read from a pty or a pipe."""
    masters, kw = {}, {}
    for name, on in (("stdout", tty_out), ("stderr", tty_err)):
        if on:
            m, s = pty.openpty()
            masters[name] = m
            kw[name] = s
        else:
            kw[name] = subprocess.PIPE
    e = dict(os.environ, TERM="xterm")
    e.update(env or {})
    e.pop("NO_COLOR", None)
    p = subprocess.Popen([SCHEDLINT] + args, stdin=subprocess.DEVNULL, env=e, **kw)
    for name in masters:
        os.close(kw[name])
    got = {}
    for name, m in masters.items():
        chunks = []
        while True:
            try:
                b = os.read(m, 65536)
            except OSError:   # EIO: the other side is closed
                break
            if not b:
                break
            chunks.append(b)
        os.close(m)
        got[name] = b"".join(chunks).decode()
    out, err = p.communicate()
    got.setdefault("stdout", (out or b"").decode())
    got.setdefault("stderr", (err or b"").decode())
    return got["stdout"], got["stderr"], p.returncode


def screen(text):
    """What a terminal shows of text: each line as the carriage returns leave it."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        shown = ""
        for part in line.split("\r"):
            shown = part + shown[len(part):]
        lines.append(shown.rstrip(" "))
    return "\n".join(lines)


SCHEDLINT = sys.argv[1]
with tempfile.TemporaryDirectory(prefix="schedlint-progress-") as d:
    for i in range(FILES):
        with open(os.path.join(d, "p%03d.yaml" % i), "w") as f:
            f.write(POD % i)
    args = ["--no-project", "-j", "2", d]

    out, err, st = run(args, tty_err=True)
    check(st == 0, "a clean run exits 0", st)
    check("\r[" in err and "/%d files]" % FILES in err, "the progress line on a terminal's stderr", err)
    check(("[%d/%d files]" % (FILES, FILES)) in err or err.count("files]") >= 1, "it counts up", err)
    check(screen(err).strip() == "", "the line is erased before the report", err)
    check(err.endswith("\r"), "erased with a carriage return, no escape sequence", err)
    check("\033" not in err, "no escape sequence", err)
    check(out == "No problems found in %d files.\n" % FILES, "the report holds no progress", out)

    # the counts go up one file at a time, never back (one call at a time in the library)
    counts = [int(x.split("/")[0].strip(" [")) for x in err.split("\r") if x.startswith("[")]
    check(counts == sorted(counts) and counts and counts[-1] <= FILES, "counts grow", counts)

    out, err, st = run(args)
    check(err == "", "nothing on stderr when it is a pipe", err)
    out, err, st = run(["-q"] + args, tty_err=True)
    check(err == "", "nothing with -q", err)
    out, err, st = run(args, tty_err=True, env={"TERM": "dumb"})
    check(err == "", "nothing on a dumb terminal", err)

    # text output: full on a terminal, concise elsewhere
    bad = os.path.join(d, "bad", "bad.yaml")
    os.mkdir(os.path.dirname(bad))
    with open(bad, "w") as f:
        f.write(BAD)
    sel = ["--no-project", "--select", "schema-type", "--color", "never", bad]
    out, err, st = run(sel, tty_out=True)
    check(st == 1, "a finding exits 1", st)
    check("7 |     gpu: true\r\n  |          ^^^^\r\n" in out, "full on a terminal", out)
    out, err, st = run(sel)
    check(" | " not in out and ":7:10: error: " in out, "concise in a pipe", out)
    rep = os.path.join(d, "report.txt")
    out, err, st = run(sel + ["-o", rep], tty_out=True)
    with open(rep) as f:
        text = f.read()
    check(" | " not in text and ":7:10: error: " in text, "concise with -o", text)
    out, err, st = run(sel + ["--output-format", "concise"], tty_out=True)
    check(" | " not in out, "--output-format concise on a terminal", out)

for f in failures:
    print("FAIL: " + f)
print("progress: %d failures" % len(failures))
sys.exit(1 if failures else 0)
