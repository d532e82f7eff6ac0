# SPDX-License-Identifier: Apache-2.0
"""A raw LSP client for the tests and the benchmark: `schedlint server` in a subprocess,
Content-Length framed JSON both ways (tests/lsp/robust.py, tests/bench/lsp.py).

A wait has no time limit unless one is given: the tests give none (a loaded machine is slow;
meson's timeout ends a test that hangs, and tests/harness.py the server with it)."""
import json
import os
import select
import subprocess
import time


def frame(obj):
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Server:
    def __init__(self, schedlint, cwd, prefix=(), debounce=0):
        self.p = subprocess.Popen(list(prefix) + [schedlint, "server", "--debounce-ms", str(debounce)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=cwd)
        self.buf = b""
        self.next_id = 0

    def send(self, data):
        self.p.stdin.write(data if isinstance(data, bytes) else frame(data))
        self.p.stdin.flush()

    def request(self, method, params=None):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.next_id

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def read(self, timeout=None):
        """The next message from the server; None at EOF (or after timeout seconds)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                n = int(head.split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = None if end is None else end - time.monotonic()
            if left is not None and left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            self.buf += chunk

    def response(self, rid, timeout=None):
        """The response to request rid (publications before it are skipped)."""
        while True:
            m = self.read(timeout)
            if m is None or m.get("id") == rid and "method" not in m:
                return m

    def error_of(self, timeout=None):
        """The next error response (id null or not)."""
        while True:
            m = self.read(timeout)
            if m is None or "error" in m:
                return m

    def close(self, timeout=None):
        try:
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            status = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return "hang"
        self.stderr = self.p.stderr.read().decode(errors="replace")
        return status
