#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# package.sh BUILD_DIR: the Debian package as a user builds it (README, "Install"). Copies the
# working tree's files (git ls-files: tracked and new, not ignored; no build directory) to a
# scratch directory, runs `dpkg-buildpackage -b -us -uc` there (DEB_BUILD_OPTIONS nocheck: the
# suites already ran in this build; noautodbgsym: no -dbgsym packages), then checks:
#   - the packages: schedlint (with the user guide, the config schema, the editor recipes),
#     libschedlint0, libschedlint-dev, each with the files it owns, and
#     every file `meson install` put in debian/tmp in exactly one of them; the Depends name only
#     Debian's libyaml, libcyaml, PCRE2, jansson, libgit2 (dlopen'ed: debian/rules) and libc;
#   - installed into a scratch root with `dpkg -x`: the installed schedlint lints
#     testdata/examples (a GPU request without a limit at 25:27) and says the changelog's version;
#     a program and the example plugin built against libschedlint-dev with pkg-config only (in
#     the scratch root: PKG_CONFIG_SYSROOT_DIR) lint a buffer and a file;
#   - lintian: fails on an error; warnings and info are printed (debian/*.lintian-overrides
#     explain the overridden ones).
# It builds its own release package, so a sanitizer build skips it (exit 77, said in the log).
# Costs about 50 s of CPU, most of it the package's build (1-2 minutes of wall time on a busy
# 2-core machine).
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
me=package.sh
. "$src/tests/ci/common.sh"
skip_in_sanitizer_build "$build" "the package"
for t in dpkg-buildpackage dh lintian fakeroot; do
	command -v "$t" >/dev/null || skip "$t is missing (tools/setup --test installs debhelper, dpkg-dev, fakeroot, lintian)"
done
cc=${CC:-cc}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-package.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM   # and the EXIT trap runs
tree=$tmp/schedlint
copy_tree "$src" "$tree" || fail "copying the tree"

start=$(date +%s)
(cd "$tree" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=2" dpkg-buildpackage -b -us -uc) >"$tmp/build.log" 2>&1 ||
	{ tail -n 60 "$tmp/build.log" >&2; fail "dpkg-buildpackage -b -us -uc"; }
took=$(($(date +%s) - start))
if grep -q 'dpkg-gensymbols: warning: some new symbols' "$tmp/build.log"; then
	echo "package.sh: new exported functions: add them to debian/libschedlint0.symbols (docs/release.md):"
	grep '^+ ' "$tmp/build.log" || true
fi

version=$(cd "$tree" && dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for p in schedlint libschedlint0 libschedlint-dev; do
	[ -f "$tmp/${p}_${version}_$arch.deb" ] || fail "${p}_${version}_$arch.deb was not built"
done

# each package holds what it is for
contents() { dpkg-deb --fsys-tarfile "$tmp/${1}_${version}_$arch.deb" | tar -tf - | sed 's|^\./|/|'; }
has() { contents "$1" | grep -qx "$2" || fail "package $1 lacks $2"; }
has schedlint /usr/bin/schedlint
has libschedlint0 "/usr/lib/$multiarch/libschedlint.so.0"
has libschedlint-dev "/usr/lib/$multiarch/libschedlint.so"
has libschedlint-dev "/usr/lib/$multiarch/libschedlint.a"
has libschedlint-dev "/usr/lib/$multiarch/pkgconfig/schedlint.pc"
has libschedlint-dev "/usr/lib/$multiarch/pkgconfig/schedlint-plugin.pc"
has libschedlint-dev /usr/include/schedlint/schedlint.h
# every file meson installed is shipped by exactly one package (dh_missing checks the first half);
# of /usr/share/doc, what debhelper adds (copyright, the changelogs) is not meson's
(cd "$tree/debian/tmp" && find . ! -type d | sed 's|^\.||' | sort) >"$tmp/installed"
for p in schedlint libschedlint0 libschedlint-dev; do contents $p; done |
	grep -v '/$' | grep -v '^/usr/share/doc/[^/]*/\(copyright\|changelog\(\.Debian\)\?\.gz\)$\|^/usr/share/lintian/' |
	sed 's#^\(/usr/share/\(man\|doc\)/.*\)\.gz$#\1#' | sort >"$tmp/shipped"   # dh_compress gzips man pages and docs
diff "$tmp/installed" "$tmp/shipped" >&2 || fail "meson install's files and the packages' differ"
# the man pages and completions go to schedlint, when the tree installs them (tests/install)
for f in $(grep '^/usr/share/\(man\|bash-completion\|zsh\|fish\)/' "$tmp/installed" || true); do
	contents schedlint | grep -qx "$f\(\.gz\)\?" || fail "$f is not in package schedlint"
done

# the user guide, the config schema and the editor recipes go to schedlint
for f in $(grep '^/usr/share/\(doc/schedlint\|schedlint\)/' "$tmp/installed" || true); do
	contents schedlint | grep -qx "$f\(\.gz\)\?" || fail "$f is not in package schedlint"
done
has schedlint /usr/share/schedlint/schedlint.schema.json
contents schedlint | grep -qx '/usr/share/doc/schedlint/usage\.md\(\.gz\)\?' || fail "package schedlint lacks the user guide"

# Debian's zsh reads /usr/share/zsh/vendor-completions; a tree with the man option has man pages
if contents schedlint | grep -q '^/usr/share/zsh/.*[^/]$'; then
	has schedlint /usr/share/zsh/vendor-completions/_schedlint
fi
if grep -qs "'man'" "$tree/meson_options.txt"; then
	has schedlint /usr/share/man/man1/schedlint.1.gz
	has schedlint /usr/share/man/man5/schedlint-config.5.gz
fi

# Depends: Debian's libraries only (and libschedlint0 for the -dev package)
for p in schedlint libschedlint0 libschedlint-dev; do
	dpkg-deb -f "$tmp/${p}_${version}_$arch.deb" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//' |
		while read -r dep; do
			case $dep in
			libc6 | libyaml-0-2 | libcyaml1 | libpcre2-8-0 | libjansson4 | libgit2-*) ;;
			libyaml-dev | libcyaml-dev | libpcre2-dev | libjansson-dev | libschedlint0) ;;
			*) fail "package $p depends on $dep" ;;
			esac
		done
done
dpkg-deb -f "$tmp/schedlint_${version}_$arch.deb" Depends | grep -q 'libgit2-' ||
	fail "schedlint does not depend on libgit2 (loaded with dlopen: debian/rules)"

# installed into a scratch root
root=$tmp/root
for p in schedlint libschedlint0 libschedlint-dev; do dpkg -x "$tmp/${p}_${version}_$arch.deb" "$root"; done
libdir=$root/usr/lib/$multiarch
sl=$root/usr/bin/schedlint
[ "$(LD_LIBRARY_PATH=$libdir "$sl" --version)" = "schedlint $version" ] ||
	fail "the installed schedlint says '$(LD_LIBRARY_PATH=$libdir "$sl" --version)', the changelog $version"
status=0
(cd "$tree" && LD_LIBRARY_PATH=$libdir "$sl" check --no-project --color never testdata/examples) \
	>"$tmp/examples.out" 2>&1 || status=$?
[ $status -eq 1 ] || { cat "$tmp/examples.out" >&2; fail "the installed schedlint on testdata/examples: exit $status, expected 1"; }
grep -q '^testdata/examples/inferenceservice.yaml:25:27: error: .*\[gpu-request-without-limit\]' "$tmp/examples.out" ||
	{ cat "$tmp/examples.out" >&2; fail "the installed schedlint missed the GPU request without a limit"; }

# libschedlint-dev as a user's build finds it: pkg-config only
export PKG_CONFIG_PATH=$libdir/pkgconfig
export PKG_CONFIG_LIBDIR=$libdir/pkgconfig:/usr/lib/$multiarch/pkgconfig:/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR=$root
flags=$(pkg-config --cflags --libs schedlint) || fail "pkg-config --cflags --libs schedlint in the scratch root"
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -o "$tmp/lint_buffer" "$src/tests/install/lint_buffer.c" $flags ||
	fail "compiling against libschedlint-dev with: $flags"
LD_LIBRARY_PATH=$libdir "$tmp/lint_buffer" >"$tmp/lint_buffer.out" || fail "lint_buffer failed"
grep -qx "gpu-request-without-limit 11:27" "$tmp/lint_buffer.out" ||
	{ cat "$tmp/lint_buffer.out" >&2; fail "lint_buffer against libschedlint0: no finding at 11:27"; }
LD_LIBRARY_PATH=$libdir ldd "$tmp/lint_buffer" | grep -q "$libdir/libschedlint.so.0" ||
	fail "lint_buffer is not linked against the packaged libschedlint.so.0"
# the example plugin, built against the packaged SDK and loaded by the packaged schedlint
# shellcheck disable=SC2086
$cc -shared -fPIC -std=c11 -Wall -Wextra -Werror -o "$tmp/gpu_budget.so" \
	"$src/examples/plugin/gpu_budget.c" $(pkg-config --cflags schedlint-plugin) || fail "building examples/plugin against libschedlint-dev"
(cd "$src/examples/plugin" && LD_LIBRARY_PATH=$libdir "$sl" check --no-project --color never \
	--plugin "$tmp/gpu_budget.so" --select acme budget.yaml) >"$tmp/plugin.out" 2>&1 || true
grep -q '^budget.yaml:9:18: warning: .*\[acme/gpu-budget\]' "$tmp/plugin.out" ||
	{ cat "$tmp/plugin.out" >&2; fail "the packaged schedlint with examples/plugin"; }

# lintian: errors fail; the rest is reported
lintian --fail-on error --pedantic -I \
	"$tmp/schedlint_${version}_${arch}.changes" >"$tmp/lintian.out" 2>&1 ||
	{ cat "$tmp/lintian.out" >&2; fail "lintian found errors"; }
grep -v '^running with root privileges' "$tmp/lintian.out" | sed 's/^/package.sh: lintian: /' || true
echo "package.sh: ok (schedlint $version: 3 packages built in ${took}s, installed into a scratch root, linted; $(grep -c '^[WE]:' "$tmp/lintian.out" || true) lintian warnings)"
