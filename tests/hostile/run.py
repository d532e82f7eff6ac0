#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""tests/hostile/run.py [--list] [CASE...]: a hostile repository in CI (issue 26): every case of
cases.py run by harness.py (read its docstring: the bounds, the open-recording shim, xfail.txt).
Environment: SCHEDLINT (the built binary), SL_OPENLOG_SO (the built tests/hostile/openlog.c)."""
import os
import sys

sys.dont_write_bytecode = True   # nothing left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import cases  # noqa: E402,F401  (registers the cases)

sys.exit(harness.main(sys.argv[1:]))
