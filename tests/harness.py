#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""harness.py: runs one test so that it leaves nothing behind (meson's exe_wrapper for every
test: the test setups of meson.build; tools/check runs the e2e cases under valgrind through it).

    tests/harness.py COMMAND [ARG...]

- A scratch directory, $TMPDIR/schedlint-test.PID.XXXXXX, becomes the test's TMPDIR: every
  scratch file of the tests (mkdtemp, mktemp -d, tempfile, os.tmpdir) lands in it, and it is
  removed when the test ends, whatever way it ends (passed, failed, crashed, killed). Only a
  SIGKILL of the harness itself leaves it: the next harness removes it (its PID is gone).
- Every process the test starts dies with it. The harness is a child subreaper
  (PR_SET_CHILD_SUBREAPER): a process whose parent exits is handed to it, even one that left
  the process group or the session (setsid, coreutils timeout, start_new_session). When the
  test's own process exits, the harness kills (SIGKILL) whatever is left, until nothing is.
  A test that exits leaving processes running fails: the harness names them.
- The test's process gets PR_SET_PDEATHSIG(SIGKILL): it dies if the harness is killed.
- SIGTERM, SIGINT or SIGHUP to the harness (meson's timeout sends SIGTERM to the test's process
  group, then SIGKILL 0.5 s later; Ctrl-C on meson test does the same) ends the test's process
  and everything it started, removes the scratch directory and ends the harness by the same
  signal.
The exit status is the test's (a test killed by a signal makes the harness die of it too, so
meson reports the signal).
"""
import ctypes
import os
import resource
import shutil
import signal
import sys
import tempfile

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                       ctypes.c_ulong]


def prctl(option, arg):
    if libc.prctl(option, arg, 0, 0, 0) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "prctl(%d): %s" % (option, os.strerror(e)))


def children():
    """{pid: (state, command line)} of the processes whose parent is this one."""
    me, kids = os.getpid(), {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            if int(fields[1]) != me:
                continue
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").strip().decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue   # gone meanwhile
        kids[int(name)] = (fields[0].decode(), cmd)
    return kids


def reap():
    """Collects every child that has exited; returns their count."""
    n = 0
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return n
        if pid == 0:
            return n
        n += 1


def sweep():
    """Kills every remaining descendant (each one orphaned lands here); returns the command
    lines of those that were still running."""
    left = []
    while True:
        reap()
        kids = children()
        if not kids:
            return left
        for pid, (state, cmd) in kids.items():
            if state != "Z":
                left.append("%d %s" % (pid, cmd))
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in kids:   # wait for these; their own children are handed to us meanwhile
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def remove_orphaned_scratch():
    """Removes the scratch directories of harnesses that were killed (SIGKILL: no cleanup ran)."""
    tmp = tempfile.gettempdir()
    for name in os.listdir(tmp):
        parts = name.split(".")
        if len(parts) != 3 or parts[0] != "schedlint-test" or not parts[1].isdigit():
            continue
        if not os.path.exists("/proc/%s" % parts[1]):
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tests/harness.py COMMAND [ARG...]")
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    remove_orphaned_scratch()
    scratch = tempfile.mkdtemp(prefix="schedlint-test.%d." % os.getpid())
    # like /tmp: some tests run a command as another user (nobody), which may make temporary
    # files of its own (valgrind does)
    os.chmod(scratch, 0o1777)
    env = dict(os.environ, TMPDIR=scratch)
    got = []
    pid = 0

    def on_signal(signum, _frame):
        got.append(signum)
        if pid > 0:   # (0 in the child, before it resets the handlers)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)

    def in_child():
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        # Python ignores SIGPIPE and SIGXFSZ: the test gets the dispositions a shell gives
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(s, signal.SIG_DFL)

    status = None
    try:
        pid = os.fork()
        if pid == 0:
            try:
                in_child()
                os.execvpe(sys.argv[1], sys.argv[1:], env)
            except OSError as e:
                print("tests/harness.py: %s: %s" % (sys.argv[1], e.strerror), file=sys.stderr)
            os._exit(127)
        if got:   # a signal came before pid was set
            os.kill(pid, signal.SIGKILL)
        while status is None:
            try:
                wpid, st = os.waitpid(-1, 0)   # the test, or an orphan handed to us meanwhile
            except InterruptedError:
                continue
            if wpid == pid:
                status = st
    finally:
        left = sweep()
        shutil.rmtree(scratch, ignore_errors=True)
    if left:
        print("tests/harness.py: the test left %d process%s running (killed now):\n  %s"
              % (len(left), "" if len(left) == 1 else "es", "\n  ".join(left)), file=sys.stderr)
    sig = got[0] if got else os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    if sig:   # die of it too (the test's core, if any, is the test's: none of the harness)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    code = os.WEXITSTATUS(status)
    sys.exit(1 if left and code in (0, 77) else code)


if __name__ == "__main__":
    main()
