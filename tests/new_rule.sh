#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# new_rule.sh: tools/new_rule.py end to end, in a scratch copy of the source tree (never this
# one). It refuses bad and existing ids; the scaffold it writes builds but fails the meta test
# while its TODOs and .diag are missing; filled in the way a developer would (a rule that flags
# a container named "forbidden", a bad and an ok fixture, the .diag written by
# SL_UPDATE_GOLDEN, docs/rules.md regenerated) it passes the meta and golden tests; made to
# report every container, it changes no e2e golden but the rule-listing ones.
# Run from the project root with PYTHON naming python3.
set -u
PYTHON=${PYTHON:-python3}
root=$(pwd)
S=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-new-rule.XXXXXX")
trap 'rm -rf "$S"' EXIT
trap 'exit 1' HUP INT TERM   # and the EXIT trap runs
fail() { echo "new_rule.sh: FAIL: $*"; exit 1; }

tar -C "$root" --exclude=./.git --exclude='./build*' --exclude=./tools/node_modules -cf - . |
	tar -C "$S" -xf - || fail "cannot copy the tree"
snapshot() { (cd "$S" && find rules testdata/rules docs -type f | sort | xargs md5sum); }
scaffold() { "$PYTHON" "$S/tools/new_rule.py" "$@" > "$S/.out" 2>&1; }

# Refusals write nothing.
before=$(snapshot)
for args in "node-name-set placement" "Forbidden placement" "forbidden_container placement" \
	    "-forbidden placement" "forbidden- placement" "forbidden-container Gpu" \
	    "forbidden-container ../gpu"; do
	# shellcheck disable=SC2086
	scaffold $args && fail "new_rule.py accepted '$args'"
	grep -q 'error:' "$S/.out" || fail "no error message for '$args': $(cat "$S/.out")"
done
scaffold node-name-set gpu && fail "an existing id in another category was accepted"
grep -q 'already exists: rules/placement/node_name_set.c' "$S/.out" ||
	fail "an existing id is not refused by name: $(cat "$S/.out")"
[ "$(snapshot)" = "$before" ] || fail "a refused scaffold changed the tree"

# A rule in a new category: the rule file, the category's meson.build, its rules/meson.build entry.
scaffold forbidden-container containers || fail "new_rule.py failed: $(cat "$S/.out")"
cat "$S/.out"
R=$S/rules/containers/forbidden_container.c
F=$S/testdata/rules/forbidden-container
for p in "$R" "$F/bad/example.yaml" "$F/ok/example.yaml"; do
	[ -f "$p" ] || fail "$p not written"
done
grep -q "^  'forbidden_container.c',$" "$S/rules/containers/meson.build" || fail "no meson line"
grep -q ", 'containers'\]" "$S/rules/meson.build" || fail "category not listed"
grep -q 'SL_RULE(forbidden_container, .id = "forbidden-container", .category = "containers",' "$R" ||
	fail "no SL_RULE in $R"
grep -q '^ *"forbidden-container",$' "$S/docs/schedlint.schema.json" &&
	grep -q '^ *"containers",$' "$S/docs/schedlint.schema.json" ||
	fail "the id and category are not among the config schema's rule ids"
scaffold forbidden-container containers && fail "a second scaffold of the same id was accepted"

# In an existing category: one line at the end of its list, nothing else changes there.
cp "$S/rules/gpu/meson.build" "$S/.gpu-meson"
scaffold scratch-gpu-rule gpu || fail "new_rule.py failed in gpu: $(cat "$S/.out")"
[ "$(diff "$S/.gpu-meson" "$S/rules/gpu/meson.build" | grep '^[<>]')" = ">   'scratch_gpu_rule.c'," ] ||
	fail "rules/gpu/meson.build: $(diff "$S/.gpu-meson" "$S/rules/gpu/meson.build")"
cp "$S/.gpu-meson" "$S/rules/gpu/meson.build"
rm -r "$S/rules/gpu/scratch_gpu_rule.c" "$S/testdata/rules/scratch-gpu-rule"

B=$S/build
meson setup "$B" "$S" -Dwerror=true >/dev/null || fail "meson setup"
build() { meson compile -C "$B" schedlint:executable test_meta test_golden test_e2e > "$S/.build" 2>&1 ||
	{ cat "$S/.build"; fail "the build failed"; }; }
meta() { (cd "$S" && SCHEDLINT=$B/schedlint "$B/tests/test_meta" > "$S/.meta" 2>&1); }
golden() { (cd "$S" && SCHEDLINT=$B/schedlint SL_GOLDEN_ONLY=forbidden-container \
	"$B/tests/test_golden" > "$S/.golden" 2>&1); }

# The scaffold as written builds, and the meta test rejects it.
build
meta && { cat "$S/.meta"; fail "the meta test passes an unfilled scaffold"; }
for want in 'forbidden-container: doc block still has a TODO' 'forbidden-container: summary is a TODO' \
	    'forbidden-container has no bad fixture with a .diag'; do
	grep -q "$want" "$S/.meta" || { cat "$S/.meta"; fail "meta does not say: $want"; }
done

# Filled in by a developer.
"$PYTHON" - "$R" <<'PY' || fail "cannot fill in $R"
import re, sys
p = sys.argv[1]
s = open(p).read()
doc = '''/** ## What it does
 * Reports a container named `forbidden`.
 *
 * ## Why is this bad?
 * The name is reserved in this test.
 *
 * ## Example
 * ```yaml
 * containers:
 *   - name: forbidden
 * ```
 *
 * ## Fix safety
 * No fix.
 *
 * ## Options
 * None.
 *
 * ## References
 * - tests/new_rule.sh
 */
static sl_err check(sl_ctx *ctx, const sl_unit *u)
{
	for (size_t i = 0; i < u->n_containers; i++)
		if (u->containers[i].name && strcmp(u->containers[i].name, "forbidden") == 0)
			sl_report_at(ctx, u->containers[i].node, "%s: container named forbidden",
				     sl_ctx_label(ctx, u));
	return SL_OK;
}
'''
s = re.sub(r'/\*\* ## What it does.*?\n}\n', lambda m: doc, s, flags=re.S)
s = s.replace('TODO: one line, no final period', 'a container is named forbidden')
s = s.replace('TODO: one line saying what the rule finds, then where its finding points.',
              'a container named forbidden.')
assert 'TODO' not in s, s
open(p, 'w').write(s)
PY
rm "$F/bad/example.yaml" "$F/ok/example.yaml"
cat > "$F/bad/pod.yaml" <<'EOF'
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
    - name: main
      image: busybox
    - name: forbidden
      image: busybox
EOF
sed 's/name: forbidden/name: allowed/' "$F/bad/pod.yaml" > "$F/ok/pod.yaml"
build
(cd "$S" && SL_UPDATE_GOLDEN=1 SCHEDLINT=$B/schedlint SL_GOLDEN_ONLY=forbidden-container \
	"$B/tests/test_golden" > "$S/.golden" 2>&1) || { cat "$S/.golden"; fail "golden update"; }
[ "$(cat "$F/bad/pod.diag")" = "pod.yaml:9:7: Pod p: container named forbidden" ] ||
	fail "unexpected bad/pod.diag: $(cat "$F/bad/pod.diag" 2>&1)"
# Still stale docs/rules.md: the meta test says so.
meta && fail "the meta test passes with docs/rules.md stale"
grep -q 'docs/rules.md is stale' "$S/.meta" || { cat "$S/.meta"; fail "meta: no stale docs"; }
"$B/schedlint" rules --format markdown > "$S/docs/rules.md" || fail "rules --format markdown"
meta || { cat "$S/.meta"; fail "the meta test fails on the filled-in rule"; }
golden || { cat "$S/.golden"; fail "the golden test fails on the filled-in rule"; }
# The golden test checks the rule: a rule that stops reporting fails it.
sed -i 's/"forbidden") == 0/"forbidden!") == 0/' "$R"
build
golden && fail "the golden test passes a rule that reports nothing"

# A new rule changes no CLI end-to-end golden but those that list the rules: made to report
# every named container (the examples have several), it changes `rules` and `--statistics` only.
sed -i 's/u->containers\[i\].name && strcmp(u->containers\[i\].name, "forbidden!") == 0/u->containers[i].name/' "$R"
grep -q 'if (u->containers\[i\].name)$' "$R" || fail "cannot make the rule report every container"
build
# the pre-commit case runs pre-commit try-repo on the tree, which must be a git repository
(cd "$S" && git init -q && git add -A . && git -c user.name=t -c user.email=t@t commit -qm t) ||
	fail "git init of the scratch tree"
(cd "$S" && SCHEDLINT=$B/schedlint "$B/tests/test_e2e" > "$S/.e2e" 2>&1)
changed=$(grep -o 'e2e [a-z0-9-]*: \(stdout\|stderr\) differs\|e2e [a-z0-9-]*: exit' "$S/.e2e" |
	  cut -d' ' -f2 | tr -d : | sort -u | tr '\n' ' ')
[ "$changed" = "rules-list statistics " ] ||
	{ cat "$S/.e2e"; fail "a new rule changed these e2e cases: $changed"; }
echo "new_rule.sh: ok"
