# SPDX-License-Identifier: Apache-2.0
# Sourced by the tests that build schedlint or its package from a copy of the tree
# (tests/package.sh, tests/ci/precommit.sh; tests/ci/ci.py calls copy_tree). Set `me` first.

fail() { echo "$me: FAIL: $*" >&2; exit 1; }
skip() { echo "$me: SKIP: $*"; exit 77; }

# skip_in_sanitizer_build BUILD_DIR WHAT: these tests make a release build of their own, so a
# sanitizer build (which runs every suite again) skips them, saying so.
skip_in_sanitizer_build() {
	san=$(meson introspect "$1" --buildoptions | python3 -c \
		'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"))')
	[ "$san" = none ] || skip "a sanitizer build (b_sanitize=$san): $2 is a release build of its own, tested in the normal build"
}

# copy_tree SRC DEST: the working tree's files as a clone would have them, with uncommitted
# edits and new files (tracked or untracked, not ignored: no build directory, no node_modules);
# without git (a tarball), every file but build directories and the npm tools.
copy_tree() {
	mkdir -p "$2"
	if git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$1" && git ls-files --cached --others --exclude-standard |
			while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done | tar -cf - -T -)
	else
		(cd "$1" && find . -path ./tools/node_modules -prune -o -path './build*' -prune -o \
			\( -type f -o -type l \) -print | tar -cf - -T -)
	fi | tar -xf - -C "$2"
}
