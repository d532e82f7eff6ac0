#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# precommit.sh BUILD_DIR: the hooks of .pre-commit-hooks.yaml through the real pre-commit,
# offline, in a scratch directory (PRE_COMMIT_HOME too). The manifest validates; the
# `language: system` hook `schedlint` with the built schedlint on PATH and the `language: script`
# hook `schedlint-source` with no schedlint on PATH (it builds one into pre-commit's cache) both
# fail a repository holding testdata/examples with the GPU request without a limit; run again,
# the script hook builds nothing; `rev: main` and `pre-commit autoupdate` pin the commit (as the
# README says). The hook repository is a copy of the working tree, committed. Costs one release
# build (a minute of one core).
# Skipped (77) in a sanitizer build and without pre-commit.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
me=precommit.sh
. "$src/tests/ci/common.sh"
skip_in_sanitizer_build "$build" "the script hook's schedlint"
command -v pre-commit >/dev/null || skip "pre-commit is missing (tools/setup --test installs it)"
pre-commit validate-manifest "$src/.pre-commit-hooks.yaml" || fail "pre-commit validate-manifest"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-precommit.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM   # and the EXIT trap runs
export PRE_COMMIT_HOME="$tmp/cache" GIT_AUTHOR_NAME=ci GIT_AUTHOR_EMAIL=ci@example.invalid \
	GIT_COMMITTER_NAME=ci GIT_COMMITTER_EMAIL=ci@example.invalid
commit() { git -C "$1" init -q -b main && git -C "$1" add -A && git -C "$1" commit -q -m scratch; }
# the hook repository: the working tree as it is, committed
copy_tree "$src" "$tmp/hooks"
commit "$tmp/hooks"
rev=$(git -C "$tmp/hooks" rev-parse HEAD)
# a user's repository
mkdir -p "$tmp/user/manifests"
cp "$src"/testdata/examples/*.yaml "$tmp/user/manifests/"
commit "$tmp/user"
config() {
	cat >"$tmp/user/.pre-commit-config.yaml" <<YAML
repos:
  - repo: $tmp/hooks
    rev: $rev
    hooks:
      - id: $1
YAML
}
finding='manifests/inferenceservice.yaml:25:27: error: .*\[gpu-request-without-limit\]'
run() {   # run HOOK PATH: pre-commit run --all-files, expecting the finding (exit 1)
	config "$1"
	status=0
	(cd "$tmp/user" && PATH=$2 pre-commit run --all-files --color never) >"$tmp/out" 2>&1 || status=$?
	[ $status -eq 1 ] || { cat "$tmp/out" >&2; fail "hook $1: pre-commit exited $status, expected 1"; }
	grep -q "$finding" "$tmp/out" || { cat "$tmp/out" >&2; fail "hook $1: no GPU request without a limit"; }
}
# system: schedlint on PATH
mkdir "$tmp/bin"
ln -s "$build/schedlint" "$tmp/bin/schedlint"
run schedlint "$tmp/bin:$PATH"
# script: no schedlint on PATH; built once into pre-commit's cache
nopath=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/schedlint" ] || printf '%s:' "$d"; done)
start=$(date +%s)
run schedlint-source "$nopath"
took=$(($(date +%s) - start))
grep -q "building schedlint once" "$tmp/out" || fail "the script hook did not say it built schedlint"
find "$PRE_COMMIT_HOME" -path '*/.pre-commit-build/schedlint' -type f | grep -q . ||
	fail "no schedlint was built in pre-commit's cache"
run schedlint-source "$nopath"
! grep -q "building schedlint" "$tmp/out" || fail "the script hook built schedlint again"
# the README's pin: `rev: main`, then `pre-commit autoupdate` writes the commit (no tag exists)
config schedlint
sed -i "s/rev: $rev/rev: main/" "$tmp/user/.pre-commit-config.yaml"
(cd "$tmp/user" && pre-commit autoupdate --color never) >"$tmp/out" 2>&1 || { cat "$tmp/out" >&2; fail "pre-commit autoupdate"; }
grep -qx "    rev: $rev" "$tmp/user/.pre-commit-config.yaml" ||
	{ cat "$tmp/out" "$tmp/user/.pre-commit-config.yaml" >&2; fail "pre-commit autoupdate did not pin rev: main to $rev"; }
echo "precommit.sh: ok (system and script hooks; the script hook's first run with its build took ${took}s)"
