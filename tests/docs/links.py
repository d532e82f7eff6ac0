#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""links.py: the Markdown documents' relative links lead somewhere.

Usage: links.py   (from the project root)

Every [text](target) outside code blocks in README.md, CONTRIBUTING.md and docs/*.md whose
target is not a URL names a file or directory of the tree, and its #anchor, if any, a heading
of that Markdown file (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens).
Prints every broken link and exits 1; exits 0 when there is none.
"""
import glob
import os
import re
import sys


def anchors(path):
    out = set()
    text = re.sub(r"```.*?```", "", open(path).read(), flags=re.S)
    for m in re.finditer(r"^#+ (.*)$", text, re.M):
        title = m.group(1).strip().lower()
        out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def main():
    broken = []
    checked = 0
    docs = ["README.md", "CONTRIBUTING.md"] + sorted(glob.glob("docs/*.md"))
    for doc in docs:
        text = open(doc).read()
        # code blocks and inline code hold no links
        prose = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
        prose = re.sub(r"`[^`\n]*`", "``", prose)
        for m in re.finditer(r"\]\(([^)\s]+)\)", prose):
            target = m.group(1)
            if re.match(r"[a-z]+:", target):
                continue
            checked += 1
            line = prose.count("\n", 0, m.start()) + 1
            path, _, anchor = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not os.path.exists(resolved):
                broken.append("%s:%d: %s: no such file" % (doc, line, target))
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                broken.append("%s:%d: %s: no heading #%s in %s" % (doc, line, target, anchor, resolved))
    for b in broken:
        print("links.py: " + b)
    if checked < 20:
        print("links.py: only %d links found: is this the project root?" % checked)
        return 1
    if broken:
        return 1
    print("links.py: ok (%d relative links in %d documents)" % (checked, len(docs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
