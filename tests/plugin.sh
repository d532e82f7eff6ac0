#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# plugin.sh BUILD_DIR: C plugins (spec/custom-rules.md §2) through the built schedlint. Builds
# examples/plugin/gpu_budget.c and the plugins of tests/plugin/ against include/, then checks:
# the example's finding to the line (and its true negative), `rules`/`explain` with --plugin; a
# plugin for another rule ABI refused naming both versions, its constructor never run; a file
# that is no plugin refused; a plugin rule whose id a custom rule has refused; a config's
# plugins: refused without --allow-plugins (nothing
# loaded), loaded with it or SCHEDLINT_ALLOW_PLUGINS=1. Works in a temporary directory.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
sl=$build/schedlint
fail() { echo "plugin.sh: FAIL: $*" >&2; exit 1; }
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-plugin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM   # and the EXIT trap runs
# a sanitizer build's program has the runtime; the plugin needs nothing of it
so() { $cc -shared -fPIC -std=c11 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" -o "$tmp/$1.so" "$2"; }
so gpu_budget "$src/examples/plugin/gpu_budget.c" || fail "building the example plugin"
so other_abi "$src/tests/plugin/other_abi.c" || fail "building other_abi"
so marked "$src/tests/plugin/marked.c" || fail "building marked"
cp "$src/examples/plugin/budget.yaml" "$src/tests/plugin/pod.yaml" "$tmp/"
cd "$tmp"
export PLUGIN_MARK="$tmp/mark"

# the example: one finding, at the replicas that overrun the budget; the Deployment within it
status=0
"$sl" check --no-project --plugin ./gpu_budget.so --select acme budget.yaml >out 2>err || status=$?
[ $status -eq 1 ] || { cat out err >&2; fail "gpu_budget: exit $status, expected 1"; }
grep -qx 'budget.yaml:9:18: warning: InferenceService llm-70b, predictor: 3 replicas x 8 GPUs = 24 GPUs, over the 16-GPU budget \[acme/gpu-budget\]' out ||
	{ cat out >&2; fail "gpu_budget: not the finding at budget.yaml:9:18"; }
[ "$(grep -c 'acme/gpu-budget' out)" -eq 1 ] || fail "gpu_budget: the Deployment within the budget was reported"
SCHEDLINT_GPU_BUDGET=4 "$sl" check --no-project --plugin ./gpu_budget.so --select acme budget.yaml >out || true
grep -q '^budget.yaml:20:13: warning: Deployment embedder: 2 replicas x 4 GPUs = 8 GPUs, over the 4-GPU budget' out ||
	{ cat out >&2; fail "gpu_budget: the budget from the environment"; }
"$sl" rules --plugin ./gpu_budget.so | grep -q '^acme/gpu-budget  *acme  *warning' || fail "rules --plugin"
"$sl" explain --plugin ./gpu_budget.so acme/gpu-budget | grep -q 'SCHEDLINT_GPU_BUDGET' || fail "explain --plugin"
"$sl" check --no-project --plugin ./gpu_budget.so -f sarif budget.yaml | grep -q '"id": "acme/gpu-budget"' ||
	fail "SARIF rule metadata of a plugin rule"

# a custom rule and a plugin's with one id: a config error naming both
printf 'custom-rules:\n  - id: acme/gpu-budget\n    schema: {}\n' >clash.yaml
status=0
"$sl" check --no-project -c clash.yaml --plugin ./gpu_budget.so budget.yaml >out 2>err || status=$?
[ $status -eq 2 ] && grep -q '^./gpu_budget.so: error: rule id "acme/gpu-budget" is also declared by clash.yaml:2$' err ||
	{ cat err >&2; fail "a plugin rule clashing with a custom rule"; }

# another ABI: refused, both versions named, not loaded
status=0
"$sl" check --no-project --plugin ./other_abi.so pod.yaml >out 2>err || status=$?
[ $status -eq 2 ] || fail "other_abi: exit $status, expected 2"
grep -q 'built for rule ABI 999, this schedlint has rule ABI 1' err || { cat err >&2; fail "other_abi: the message"; }
[ ! -e mark ] || fail "other_abi: its constructor ran"

# not a plugin
status=0
"$sl" check --no-project --plugin ./pod.yaml pod.yaml >out 2>err || status=$?
[ $status -eq 2 ] && grep -q 'not a schedlint plugin' err || { cat err >&2; fail "a YAML file taken for a plugin"; }

# a config's plugins: only with --allow-plugins
cp "$src/tests/plugin/plugins.schedlint.yaml" .schedlint.yaml
status=0
"$sl" check --no-project pod.yaml >out 2>err || status=$?
[ $status -eq 2 ] || { cat out err >&2; fail "plugins: without --allow-plugins: exit $status, expected 2"; }
grep -q '^.schedlint.yaml:1: error: plugins: names shared objects.*--allow-plugins' err ||
	{ cat err >&2; fail "plugins: without --allow-plugins: the message"; }
[ ! -e mark ] || fail "plugins: without --allow-plugins: the plugin was loaded"
"$sl" check --no-project --allow-plugins pod.yaml >out 2>err || true
grep -qx 'pod.yaml:6:13: error: Pod pinned pins nodeName gpu-node-7 \[acme/no-node-name\] (unsafe fix)' out ||
	{ cat out err >&2; fail "plugins: with --allow-plugins"; }
[ -e mark ] || fail "plugins: with --allow-plugins: not loaded"
# its fix, through the SDK: the nodeName line removed
"$sl" check --no-project --allow-plugins --unsafe-fixes --diff pod.yaml >out 2>err || true
grep -qx -- '-  nodeName: gpu-node-7' out || { cat out err >&2; fail "the plugin rule's fix"; }
rm -f mark
SCHEDLINT_ALLOW_PLUGINS=1 "$sl" check --no-project pod.yaml >out 2>err || true
grep -q 'acme/no-node-name' out || fail "plugins: with SCHEDLINT_ALLOW_PLUGINS=1"
echo "plugin.sh: ok"
