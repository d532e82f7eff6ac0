# SPDX-License-Identifier: Apache-2.0
"""tests/hostile/harness.py: what tests/hostile/run.py runs the cases of cases.py with.

Each case builds a scratch repository of its own (a git work tree under a temporary directory,
with an `outside/` directory beside it holding what the repository must never reach, and a
HOME of its own), runs the built schedlint ($SCHEDLINT) on it as CI or pre-commit would, and
checks three things:

1. **It fails closed within its bounds.** The child runs under limits stated in the case:
   CPU seconds (RLIMIT_CPU: measured time, never a wall-clock race), memory (RLIMIT_AS; under
   AddressSanitizer, which reserves terabytes of address space, ASan's hard_rss_limit_mb and
   the measured peak RSS instead) and bytes written (RLIMIT_FSIZE: stdout and stderr go to
   files). A child killed by a limit fails the case, with the limit named.
2. **It says so.** The exit status and the message the case states.
3. **Nothing outside the allowed roots is opened.** The child runs with tests/hostile/openlog.c
   preloaded (SL_OPENLOG_SO), which logs every open, opendir, fopen, stat, rename... with the
   real path of what was opened. No open may name or reach a path under `outside/`, and every
   file opened must lie in the repository, the case's HOME, the build or source tree, or the
   system's directories (/etc /usr /lib* /proc /sys /dev).

Cases that fail today are listed in tests/hostile/xfail.txt (one name per line, a reason after
it): a listed case that fails is XFAIL, a listed case that passes is XPASS and fails the run, so
the list stays honest. Children are started in their own session and killed (the whole group)
on every exit path, SIGTERM from meson included; the scratch directories are removed.

The last line is "hostile: N passed, N failed".
"""
import errno
import json
import os
import re
import resource
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.path.dirname(os.path.dirname(HERE))
SCHEDLINT = os.path.abspath(os.environ.get("SCHEDLINT", "build/schedlint"))
SHIM = os.path.abspath(os.environ["SL_OPENLOG_SO"]) if os.environ.get("SL_OPENLOG_SO") else ""
SANITIZED = False
MIB = 1 << 20

CASES = []          # (name, function, limits)
LIVE = set()        # process groups of children still running
SCRATCH = []        # scratch directories to remove


class Fail(Exception):
    pass


def case(cpu=5, mem=512, out=64):
    """Registers a case. cpu: CPU seconds (RLIMIT_CPU); mem: MiB of address space (RLIMIT_AS)
    or, under ASan, of peak RSS (times 3); out: MiB a child may write to any one file."""
    def deco(fn):
        CASES.append((fn.__name__, fn, {"cpu": cpu, "mem": mem, "out": out}))
        return fn
    return deco


# --- the child ------------------------------------------------------------------------------

class Result:
    def __init__(self, rc, sig, out, err, log, rss_mib, cpu_s, limits, fifo_readers):
        self.rc, self.sig, self.out, self.err = rc, sig, out, err
        self.log, self.rss_mib, self.cpu_s, self.limits = log, rss_mib, cpu_s, limits
        self.fifo_readers = fifo_readers

    def __repr__(self):
        return "exit %s%s, %.2f s CPU, %d MiB peak" % (
            self.rc, " (signal %s)" % signal.Signals(self.sig).name if self.sig else "",
            self.cpu_s, self.rss_mib)


def read_capped(path, cap=256 << 20):
    with open(path, "rb") as f:
        data = f.read(cap)
    return data.decode("utf-8", "replace")


def parse_log(path):
    """The shim's records: (op, path, real, flags, result)."""
    recs = []
    if not os.path.exists(path):
        return recs
    with open(path, "rb") as f:
        for line in f.read().decode("utf-8", "replace").splitlines():
            p = line.split("\t")
            if len(p) == 5:
                recs.append((p[0], os.path.normpath(p[1]), p[2], int(p[3], 16), int(p[4])))
    return recs


class Case:
    """A scratch repository: repo/ (a git work tree), outside/ (never to be reached), home/
    (with home/tmp, the runner's TMPDIR: where the Kustomize plan's spill file goes)."""

    def __init__(self, name, limits):
        self.name, self.limits = name, limits
        self.base = os.path.realpath(tempfile.mkdtemp(prefix="sl-hostile-%s-" % name))
        SCRATCH.append(self.base)
        self.repo = os.path.join(self.base, "repo")
        self.outside = os.path.join(self.base, "outside")
        self.home = os.path.join(self.base, "home")
        self.tmp = os.path.join(self.home, "tmp")
        for d in (self.repo, self.outside, self.home, self.tmp):
            os.mkdir(d)
        self.runs = 0
        self.notes = []
        self.fifos = []

    # building the repository
    def path(self, rel):
        return rel if os.path.isabs(rel) else os.path.join(self.repo, rel)

    def write(self, rel, data):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return p

    def sparse(self, rel, size):
        """A file of size zero bytes that takes no disk."""
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.truncate(size)
        return p

    def symlink(self, rel, target):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)
        return p

    def fifo(self, rel):
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.mkfifo(p)
        self.fifos.append(p)
        return p

    def git_init(self):
        subprocess.run(["git", "init", "-q", self.repo], check=True, env=self.env(),
                       stdout=subprocess.DEVNULL)

    def env(self, extra=None):
        e = {k: v for k, v in os.environ.items()
             if not k.startswith(("GIT_", "XDG_")) and k not in ("LD_PRELOAD", "SL_OPENLOG")}
        e.update({"HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
                  "TMPDIR": self.tmp,
                  "GIT_CEILING_DIRECTORIES": self.base, "GIT_CONFIG_NOSYSTEM": "1",
                  "LC_ALL": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb"})
        if extra:
            e.update(extra)
        return e

    # running schedlint
    def run(self, args, cwd=None, stdin=b"", env=None, cpu=None, mem=None, out=None,
            exe=None):
        """Runs schedlint (or exe) with args under the case's limits; returns a Result."""
        lim = dict(self.limits)
        for k, v in (("cpu", cpu), ("mem", mem), ("out", out)):
            if v is not None:
                lim[k] = v
        self.runs += 1
        tag = os.path.join(self.base, "run%d" % self.runs)
        log = tag + ".openlog"
        e = self.env(env)
        if SHIM:
            e["LD_PRELOAD"] = SHIM
            e["SL_OPENLOG"] = log
        cpu_s = lim["cpu"] * (4 if SANITIZED else 1)
        if SANITIZED:
            e["ASAN_OPTIONS"] = ":".join(x for x in (
                e.get("ASAN_OPTIONS", ""), "verify_asan_link_order=0",
                "hard_rss_limit_mb=%d" % (lim["mem"] * 3), "allocator_may_return_null=1") if x)

        def limits():
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (lim["out"] * MIB, lim["out"] * MIB))
            if not SANITIZED:
                resource.setrlimit(resource.RLIMIT_AS, (lim["mem"] * MIB, lim["mem"] * MIB))

        with open(tag + ".out", "wb") as fo, open(tag + ".err", "wb") as fe, \
                open(tag + ".in", "wb+") as fi:
            fi.write(stdin if isinstance(stdin, bytes) else stdin.encode())
            fi.seek(0)
            p = subprocess.Popen([exe or SCHEDLINT] + list(args), cwd=cwd or self.repo,
                                 stdin=fi, stdout=fo, stderr=fe, env=e, preexec_fn=limits,
                                 start_new_session=True)
            LIVE.add(p.pid)
            readers = poll_child(p.pid, self.fifos)
            pid, status, ru = wait_child(p.pid)
            LIVE.discard(p.pid)
            p.returncode = 0   # reaped here, not by Popen
        rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        r = Result(rc, sig, read_capped(tag + ".out"), read_capped(tag + ".err"),
                   parse_log(log), ru.ru_maxrss // 1024, ru.ru_utime + ru.ru_stime, lim,
                   readers)
        shown = " ".join(a[:40] for a in args)[:120]
        shown = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in shown)
        self.notes.append("%s %s: %r" % (os.path.basename(exe or SCHEDLINT), shown, r))
        check_bounds(r, cpu_s)
        check_roots(self, r)
        return r

    def spawn(self, args, env=None, cpu=None, mem=None):
        """Starts schedlint with pipes for an interactive session (the language server) under
        the same limits; the caller talks to it and calls finish()."""
        lim = dict(self.limits)
        if cpu is not None:
            lim["cpu"] = cpu
        if mem is not None:
            lim["mem"] = mem
        self.runs += 1
        tag = os.path.join(self.base, "run%d" % self.runs)
        e = self.env(env)
        if SHIM:
            e["LD_PRELOAD"] = SHIM
            e["SL_OPENLOG"] = tag + ".openlog"
        cpu_s = lim["cpu"] * (4 if SANITIZED else 1)
        if SANITIZED:
            e["ASAN_OPTIONS"] = ":".join(x for x in (
                e.get("ASAN_OPTIONS", ""), "verify_asan_link_order=0",
                "hard_rss_limit_mb=%d" % (lim["mem"] * 3)) if x)

        def limits():
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            if not SANITIZED:
                resource.setrlimit(resource.RLIMIT_AS, (lim["mem"] * MIB, lim["mem"] * MIB))

        fe = open(tag + ".err", "wb")
        p = subprocess.Popen([SCHEDLINT] + list(args), cwd=self.repo, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=fe, env=e, preexec_fn=limits,
                             start_new_session=True)
        fe.close()
        LIVE.add(p.pid)
        p.sl_tag, p.sl_limits, p.sl_cpu = tag, lim, cpu_s
        return p

    def finish(self, p):
        """Closes the session's stdin, reaps it, checks its bounds and roots."""
        try:
            p.stdin.close()
        except OSError:
            pass
        pid, status, ru = wait_child(p.pid)
        LIVE.discard(p.pid)
        p.returncode = 0
        p.stdout.close()
        rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        r = Result(rc, sig, "", read_capped(p.sl_tag + ".err"), parse_log(p.sl_tag + ".openlog"),
                   ru.ru_maxrss // 1024, ru.ru_utime + ru.ru_stime, p.sl_limits, [])
        self.notes.append("server: %r" % r)
        check_bounds(r, p.sl_cpu)
        check_roots(self, r)
        return r

    def cleanup(self):
        shutil.rmtree(self.base, ignore_errors=True)
        if self.base in SCRATCH:
            SCRATCH.remove(self.base)


def wait_child(pid):
    while True:
        try:
            return os.wait4(pid, 0)
        except InterruptedError:
            continue


def poll_child(pid, fifos):
    """Until the child exits: the FIFOs in the repository are given a writer that closes at
    once whenever a reader has one open, so a child blocked in open(2) or read(2) on one gets
    EOF and goes on (the verdict comes from the shim's log of how it opened them, not from
    time). Returns the FIFOs some reader opened. Without FIFOs, nothing to do."""
    readers = set()
    if not fifos:
        return readers
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        for f in fifos:
            try:
                fd = os.open(f, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as e:
                if e.errno != errno.ENXIO:   # ENXIO: no reader
                    raise
                continue
            readers.add(f)
            os.close(fd)
        time.sleep(0.02)
    return readers


def check_bounds(r, cpu_s):
    lim = r.limits
    if r.sig == signal.SIGXCPU or (r.sig == signal.SIGKILL and r.cpu_s >= cpu_s):
        raise Fail("CPU limit hit: more than %d s of CPU (%r)" % (cpu_s, r))
    if r.sig == signal.SIGXFSZ:
        raise Fail("output limit hit: wrote more than %d MiB to one file (%r)" % (lim["out"], r))
    if r.sig is not None:
        raise Fail("killed by %s (%r)\n%s" % (signal.Signals(r.sig).name, r, r.err[-2000:]))
    if SANITIZED and ("hard rss limit" in r.err or r.rss_mib > lim["mem"] * 3):
        raise Fail("memory limit hit: peak RSS %d MiB > %d MiB (3 x %d under ASan)" % (
            r.rss_mib, lim["mem"] * 3, lim["mem"]))
    if not SANITIZED and re.search(r"out of memory|cannot allocate|ENOMEM", r.err, re.I):
        raise Fail("memory limit hit: more than %d MiB of address space (%r): %s" % (
            lim["mem"], r, r.err[-500:]))
    if "cannot be preloaded" in r.err:
        raise Fail("the open-recording shim was not loaded: " + r.err[:300])
    if re.search(r"AddressSanitizer|LeakSanitizer|runtime error:", r.err):
        raise Fail("sanitizer report:\n" + r.err[-3000:])


SYSTEM = ("/etc", "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/proc", "/sys", "/dev")


def within(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


def check_roots(c, r):
    """No open names or reaches outside/; every file opened lies in an allowed root."""
    if not SHIM:
        return
    allowed = (c.repo, c.home, os.path.dirname(SCHEDLINT), SOURCE_ROOT) + SYSTEM
    bad = []
    for op, path, real, flags, result in r.log:
        if op not in ("open", "fopen", "opendir", "rename", "unlink", "mkstemp"):
            continue
        if within(path, c.outside) or within(real, c.outside):
            bad.append("%s %s%s" % (op, path, "" if real in ("-", path) else " -> " + real))
        elif real != "-" and not real.startswith(("pipe:", "socket:", "anon_inode:")) and \
                not any(within(real, a) for a in allowed):
            bad.append("%s %s -> %s (outside every allowed root)" % (op, path, real))
    if bad:
        raise Fail("opened outside the allowed roots:\n  " + "\n  ".join(sorted(set(bad))[:20]))


def expect(cond, what, r=None):
    if not cond:
        raise Fail(what + ("" if r is None else "\n  %r\n  stdout: %s\n  stderr: %s" % (
            r, r.out[:1500], r.err[:1500])))


def expect_rc(r, rc):
    expect(r.rc == rc, "exit status %s, expected %s" % (r.rc, rc), r)


def expect_in(r, pattern, where="out"):
    text = r.out if where == "out" else r.err if where == "err" else r.out + r.err
    expect(re.search(pattern, text), "std%s lacks /%s/" % (where, pattern), r)


def opened(r, path):
    """The records of opens of path (absolute, normalised)."""
    return [x for x in r.log if x[0] in ("open", "fopen", "opendir") and x[1] == path]


# --- running --------------------------------------------------------------------------------

def xfail_list():
    names = {}
    with open(os.path.join(HERE, "xfail.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(" ")
                names[name] = why.strip()
    return names


def kill_all():
    for pid in list(LIVE):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass
        LIVE.discard(pid)
    for d in list(SCRATCH):
        shutil.rmtree(d, ignore_errors=True)
        SCRATCH.remove(d)


def on_signal(signum, _frame):
    raise SystemExit(128 + signum)


def main(argv):
    global SANITIZED
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    if "--list" in argv:   # the table: case, bound, what it must say
        xf = xfail_list()
        for name, fn, lim in CASES:
            doc = " ".join((fn.__doc__ or "").split())
            print("%s%s\n    bound: %d s CPU, %d MiB memory, %d MiB a file\n    %s" % (
                name, " (xfail)" if name in xf else "", lim["cpu"], lim["mem"], lim["out"], doc))
        return 0
    if not os.access(SCHEDLINT, os.X_OK):
        print("hostile: no schedlint at %s (set SCHEDLINT)" % SCHEDLINT)
        return 2
    ldd = subprocess.run(["ldd", SCHEDLINT], capture_output=True, text=True).stdout
    SANITIZED = "libasan" in ldd or os.environ.get("SL_SANITIZE", "none") not in ("none", "")
    if not SHIM or not os.path.exists(SHIM):
        print("hostile: the open-recording shim is missing (SL_OPENLOG_SO=%r)" % SHIM)
        return 2
    xfail = xfail_list()
    known = {n for n, _, _ in CASES}
    for n in xfail:
        if n not in known:
            print("hostile: xfail.txt names no case %s" % n)
            return 2
    chosen = [c for c in CASES if not argv or c[0] in argv]
    passed = failed = xfailed = 0
    try:
        for name, fn, lim in chosen:
            c = Case(name, lim)
            why = None
            try:
                fn(c)
            except Fail as e:
                why = str(e)
            except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
                why = "harness: %r" % e
            finally:
                kill_all()
            c.cleanup()
            runs = "; ".join(c.notes)
            if name in xfail:
                if why:
                    xfailed += 1
                    print("XFAIL %s (%s): %s" % (name, xfail[name], why.split("\n")[0][:300]))
                else:
                    failed += 1
                    print("XPASS %s: listed in xfail.txt but passes (%s); take it off the "
                          "list" % (name, runs))
            elif why:
                failed += 1
                print("FAIL  %s: %s\n      runs: %s" % (name, why, runs))
            else:
                passed += 1
                print("ok    %s  [%s]" % (name, runs))
            sys.stdout.flush()
    finally:
        kill_all()
    print("expected failures (xfail.txt): %d" % xfailed)
    print("hostile: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


