#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""release: the version and the names of things agree everywhere (docs/release.md).

Usage: release.py   (from the project root, $SCHEDLINT naming the built binary)

- meson.build's project version is debian/changelog's newest version (a native package: the
  same string), CHANGELOG.md's newest heading and what `schedlint --version` says;
- the shared library's major version (meson's soversion: the version's first number) is the
  soname of debian/libschedlintN.symbols and the name of the library package in debian/control
  and the .install file (a soname bump renames the package); the symbols file lists exactly the
  SL_API functions of include/schedlint/;
- tools/setup installs debian/control's Build-Depends (build-essential for debhelper-compat),
  the <!nocheck> ones only with --test, and `tools/setup` and `tools/setup --test` are what
  the README's two quick-start commands start with;
- the README's "A first run" block is what `schedlint testdata/examples` prints from the root
  (the examples judged with the repository's own .schedlint.yaml, as a clone runs them);
- the snippets of README.md, docs/*.md, action.yml and ci/gitlab.yml name only refs of this
  repository that exist: `main`, a commit sha or a placeholder, or a tag `git tag` lists (none
  before the first release).
Prints every disagreement and exits 1; exits 0 when there is none.
"""
import glob
import os
import re
import subprocess
import sys

failures = []


def fail(msg):
    failures.append(msg)
    print("release.py: FAIL: " + msg, file=sys.stderr)


def first(pattern, path, flags=re.M):
    m = re.search(pattern, open(path).read(), flags)
    if not m:
        fail("%s: nothing matches %r" % (path, pattern))
        return None
    return m.group(1)


def setup_lists(control):
    """tools/setup's two lists against debian/control's Build-Depends, and the quick start."""
    setup = open("tools/setup").read()
    lists = {}
    for name in ("BUILD_PACKAGES", "TEST_PACKAGES"):
        m = re.search(r'^%s="([^"]*)"' % name, setup, re.M)
        if not m:
            fail("tools/setup: no %s=\"...\" list" % name)
            return
        lists[name] = set(m.group(1).split())
    field = re.search(r"^Build-Depends:(.*?)^\S", control, re.M | re.S).group(1)
    deps = [d.strip() for d in field.split(",") if d.strip()]
    build = {d.split()[0] for d in deps if "<!nocheck>" not in d}
    build = {"build-essential" if d == "debhelper-compat" else d for d in build}
    check = {d.split()[0] for d in deps if "<!nocheck>" in d}
    for name in sorted(build ^ lists["BUILD_PACKAGES"]):
        fail("tools/setup's BUILD_PACKAGES and debian/control's Build-Depends differ in %s" % name)
    for name in sorted(check - lists["TEST_PACKAGES"]):
        fail("debian/control's test dependency %s is not among tools/setup's TEST_PACKAGES" % name)
    for name in sorted(lists["BUILD_PACKAGES"] & lists["TEST_PACKAGES"]):
        fail("tools/setup lists %s twice" % name)
    readme = open("README.md").read()
    quick = re.search(r"^## Quick start.*?```sh\n(.*?)```", readme, re.M | re.S)
    commands = quick.group(1).splitlines() if quick else []
    if len(commands) != 2:
        fail("README.md: the quick start has %d commands, not 2" % len(commands))
    elif not commands[0].startswith("tools/setup && ") or commands[1] != "tools/check":
        fail("README.md: the quick start is not `tools/setup && ...` then `tools/check`: %r" % commands)
    elif "\ntools/setup --test || exit 2\n" not in open("tools/check").read():
        fail("tools/check does not run tools/setup --test")


def first_run(sl):
    """The README's first run: its command, run from the root, prints exactly the block."""
    readme = open("README.md").read()
    m = re.search(r"^## A first run.*?```\n\$ schedlint (\S+)\n(.*?)```", readme, re.M | re.S)
    if not m:
        fail("README.md: no `$ schedlint PATH` block under \"A first run\"")
        return
    got = subprocess.run([sl, "--color", "never", "--output-format", "concise", m.group(1)],
                         capture_output=True, text=True).stdout
    if got != m.group(2):
        fail("README.md's first run is not what `schedlint %s` prints now:\n%s" % (m.group(1), got))


def main():
    version = first(r"^\s*version\s*:\s*'([^']+)'", "meson.build")
    deb = first(r"^schedlint \(([^)]+)\)", "debian/changelog")
    changelog = first(r"^## \[?(\d+\.\d+\.\d+)\]?", "CHANGELOG.md")
    if not version:
        return 1
    if deb != version:
        fail("debian/changelog's newest version is %s, meson.build's %s" % (deb, version))
    if changelog != version:
        fail("CHANGELOG.md's newest heading is %s, meson.build's version %s" % (changelog, version))
    sl = os.environ.get("SCHEDLINT", "build/schedlint")
    said = subprocess.run([sl, "--version"], capture_output=True, text=True).stdout.strip()
    if said != "schedlint " + version:
        fail("`schedlint --version` says %r, meson.build %s" % (said, version))

    major = version.split(".")[0]
    symbols = "debian/libschedlint%s.symbols" % major
    if not os.path.exists(symbols):
        fail("%s is missing (the soname is libschedlint.so.%s)" % (symbols, major))
    elif open(symbols).readline().split()[:2] != ["libschedlint.so." + major, "libschedlint" + major]:
        fail("%s does not start with libschedlint.so.%s libschedlint%s" % (symbols, major, major))
    else:
        # the symbols file lists the public API: the SL_API functions of include/schedlint/
        api = set()
        for h in glob.glob("include/schedlint/*.h"):
            for m in re.finditer(r"SL_API[^;{]*?\b(sl_[a-z0-9_]+)\s*\(", open(h).read()):
                api.add(m.group(1))
        listed = set(re.findall(r"^ (sl_[a-z0-9_]+)@Base ", open(symbols).read(), re.M))
        for name in sorted(api - listed):
            fail("%s lacks the SL_API function %s: add the line ' %s@Base %s'" %
                 (symbols, name, name, version))
        for name in sorted(listed - api):
            fail("%s lists %s, which no header declares SL_API: an ABI break (docs/release.md)" %
                 (symbols, name))
    control = open("debian/control").read()
    if not re.search(r"^Package: libschedlint%s$" % major, control, re.M) or \
            "libschedlint%s (= ${binary:Version})" % major not in control:
        fail("debian/control: the library package is not libschedlint%s" % major)
    if not os.path.exists("debian/libschedlint%s.install" % major):
        fail("debian/libschedlint%s.install is missing" % major)

    setup_lists(control)
    first_run(sl)

    tags = set(subprocess.run(["git", "tag", "-l"], capture_output=True, text=True).stdout.split())
    refs = [
        r"github\.com/schedlint/schedlint\S*\s+rev:\s*(\S+)",          # pre-commit
        r"uses:\s*schedlint/schedlint@(\S+)",                           # the action
        r"raw\.githubusercontent\.com/schedlint/schedlint/([^/\s]+)/",  # the GitLab template
        r"SCHEDLINT_REF:\s*(\S+)",
    ]
    for path in ["README.md", "action.yml", "ci/gitlab.yml"] + sorted(glob.glob("docs/*.md")):
        text = open(path).read()
        for pattern in refs:
            for m in re.finditer(pattern, text):
                ref = m.group(1)
                if ref == "main" or ref in tags or re.fullmatch(r"[0-9a-f]{7,40}", ref) or "<" in ref:
                    continue
                line = text.count("\n", 0, m.start(1)) + 1
                fail("%s:%d: %r is no ref of this repository (no such tag; tags: %s)" %
                     (path, line, ref, ", ".join(sorted(tags)) or "none"))
    if failures:
        print("release.py: %d failures" % len(failures))
        return 1
    print("release.py: ok (version %s, soname libschedlint.so.%s, %d tags)" % (version, major, len(tags)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
