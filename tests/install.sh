#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# install.sh BUILD_DIR: installs the build into a scratch prefix (meson install --destdir), then
# compiles tests/install/lint_buffer.c against the installed headers and shared library with
# `pkg-config --cflags --libs schedlint` only, runs it, and checks that it linted a buffer
# through the public API: a GPU request without a limit, at its line and column. Builds
# examples/plugin the same way and checks the installed schedlint's finding with it. Also checks
# the soname, that the library exports exactly the SL_API functions of the installed headers,
# and the static link (`pkg-config --static`). Nothing is written outside a temporary directory.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "install.sh: FAIL: $*" >&2; exit 1; }
command -v pkg-config >/dev/null || fail "pkg-config is missing (tools/setup installs it)"
cc=${CC:-cc}
command -v "$cc" >/dev/null || fail "no C compiler ($cc)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "meson install"; }
prefix=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
libdir=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="libdir"))')
case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
# a sanitizer build's library needs its runtime in the program too
san=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"))')
sanflags=""
[ "$san" = none ] || sanflags="-fsanitize=$san"

root=$tmp/root
pc=$(find "$root" -name schedlint.pc | head -n 1)
[ -n "$pc" ] || fail "schedlint.pc was not installed"
for h in schedlint.h lint.h config.h finding.h error.h export.h rule.h rules.h version.h; do
	[ -f "$root$prefix/include/schedlint/$h" ] || fail "include/schedlint/$h was not installed"
done
[ -f "$root$libdir/libschedlint.a" ] || fail "the static library was not installed"
so=$(readlink "$root$libdir/libschedlint.so") || fail "libschedlint.so is not a symlink"
soname=$(objdump -p "$root$libdir/$so" 2>/dev/null | awk '/SONAME/{print $2}')
case $soname in libschedlint.so.[0-9]*) ;; *) fail "soname '$soname' is not versioned" ;; esac
# pkg-config with the prefix the .pc names moved under the scratch root
export PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs schedlint) || fail "pkg-config --cflags --libs schedlint"
# shellcheck disable=SC2086
$cc $sanflags -std=c11 -Wall -Wextra -Werror -o "$tmp/lint_buffer" "$src/tests/install/lint_buffer.c" $flags ||
	fail "compiling against the installed headers with: $flags"
LD_LIBRARY_PATH=$root$libdir "$tmp/lint_buffer" >"$tmp/out" || fail "lint_buffer failed"
grep -qx "gpu-request-without-limit 11:27" "$tmp/out" ||
	{ cat "$tmp/out" >&2; fail "the buffer's GPU request without a limit was not found at 11:27"; }
LD_LIBRARY_PATH=$root$libdir ldd "$tmp/lint_buffer" | grep -q "$root$libdir/$soname" ||
	fail "lint_buffer is not linked against the installed $soname"
# a plugin built out of tree against the installed SDK (schedlint/rule.h) with pkg-config only,
# loaded by the installed schedlint, its finding checked to the line
# shellcheck disable=SC2086
$cc $sanflags -shared -fPIC -std=c11 -Wall -Wextra -Werror -o "$tmp/gpu_budget.so" \
	"$src/examples/plugin/gpu_budget.c" $flags || fail "compiling examples/plugin with: $flags"
(cd "$src/examples/plugin" && LD_LIBRARY_PATH=$root$libdir "$root$prefix/bin/schedlint" check \
	--no-project --plugin "$tmp/gpu_budget.so" --select acme budget.yaml) >"$tmp/plugin.out" 2>&1 || true
grep -qx 'budget.yaml:9:18: warning: InferenceService llm-70b, predictor: 3 replicas x 8 GPUs = 24 GPUs, over the 16-GPU budget \[acme/gpu-budget\]' \
	"$tmp/plugin.out" || { cat "$tmp/plugin.out" >&2; fail "the installed schedlint with examples/plugin"; }
# the exports are the public API, no more, no less
grep -hoE 'SL_API [^(]*\(' "$root$prefix"/include/schedlint/*.h | grep -oE 'sl_[a-z0-9_]+ *\($' |
	tr -d '( ' | sort -u >"$tmp/api"
nm -D --defined-only "$root$libdir/$so" | awk '$2 == "T" {print $3}' | sort -u >"$tmp/exports"
diff "$tmp/api" "$tmp/exports" >&2 || fail "the library's exports differ from the headers' SL_API functions"
# a static link works from the .pc alone
sflags=$(pkg-config --static --cflags --libs schedlint)
# shellcheck disable=SC2086
$cc $sanflags -std=c11 -o "$tmp/lint_buffer_static" "$src/tests/install/lint_buffer.c" \
	"$root$libdir/libschedlint.a" $(pkg-config --static --libs-only-l schedlint | sed 's/-lschedlint//') \
	$(pkg-config --cflags schedlint) || fail "static link with: $sflags"
"$tmp/lint_buffer_static" | grep -qx "gpu-request-without-limit 11:27" || fail "the static program"
echo "install.sh: ok ($soname, $(wc -l <"$tmp/exports") exported functions, $flags)"
