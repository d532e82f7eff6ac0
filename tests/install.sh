#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# install.sh BUILD_DIR: installs the build into a scratch prefix (meson install --destdir), then
# compiles tests/install/lint_buffer.c against the installed headers and shared library with
# `pkg-config --cflags --libs schedlint` only, runs it, and checks that it linted a buffer
# through the public API: a GPU request without a limit, at its line and column. Builds
# examples/plugin the same way and checks the installed schedlint's finding with it. Also checks
# the soname, that the library exports exactly the SL_API functions of the installed headers,
# and the static link (`pkg-config --static`). Checks the install tree holds exactly the expected
# files (binary, library, headers, pc, man pages, bash/zsh/fish completions, the user guide in
# share/doc/schedlint, the config schema and editor recipes in share/schedlint) and nothing outside
# the prefix, that nothing installed and no rule's `explain` names the team's specs (spec/*.md,
# ../shared), that the installed man pages render without warnings and that the installed
# completions complete a rule id (bash with bash-completion, fish, zsh's syntax). Nothing is
# written outside a temporary directory.
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "install.sh: FAIL: $*" >&2; exit 1; }
command -v pkg-config >/dev/null || fail "pkg-config is missing (tools/setup installs it)"
cc=${CC:-cc}
command -v "$cc" >/dev/null || fail "no C compiler ($cc)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedlint-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM   # and the EXIT trap runs
meson install -C "$build" --no-rebuild --destdir "$tmp/root" --quiet >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "meson install"; }
meson introspect "$build" --buildoptions >"$tmp/options.json"
option() { python3 -c 'import json,sys; print(next(o["value"] for o in json.load(open(sys.argv[1])) if o["name"]==sys.argv[2]))' "$tmp/options.json" "$1"; }
prefix=$(option prefix)
under_prefix() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
libdir=$(under_prefix "$(option libdir)")
mandir=$(under_prefix "$(option mandir)")
datadir=$(under_prefix "$(option datadir)")
completions_dir() { d=$(option "$1-completions-dir"); under_prefix "${d:-$(option datadir)/$2}"; }
bashdir=$(completions_dir bash bash-completion/completions)
zshdir=$(completions_dir zsh zsh/site-functions)
fishdir=$(completions_dir fish fish/vendor_completions.d)
# a sanitizer build's library needs its runtime in the program too
san=$(option b_sanitize)
sanflags=""
[ "$san" = none ] || sanflags="-fsanitize=$san"

root=$tmp/root
pc=$(find "$root" -name schedlint.pc | head -n 1)
[ -n "$pc" ] || fail "schedlint.pc was not installed"
for h in schedlint.h atomic.h escape.h fdio.h lint.h config.h finding.h error.h export.h rule.h rules.h version.h; do
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
# a plugin built out of tree against the installed SDK (schedlint/rule.h) with
# `pkg-config --cflags schedlint-plugin` only: it names no library (it binds to the loading
# schedlint's SDK), loaded by the installed schedlint, its finding checked to the line
pflags=$(pkg-config --cflags --libs schedlint-plugin) || fail "pkg-config --cflags --libs schedlint-plugin"
case " $pflags " in *" -l"*) fail "schedlint-plugin.pc links a library: $pflags" ;; esac
# shellcheck disable=SC2086
$cc $sanflags -shared -fPIC -std=c11 -Wall -Wextra -Werror -o "$tmp/gpu_budget.so" \
	"$src/examples/plugin/gpu_budget.c" $pflags || fail "compiling examples/plugin with: $pflags"
objdump -p "$tmp/gpu_budget.so" | grep -q 'NEEDED.*libschedlint' &&
	fail "the plugin names libschedlint itself"
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

# the install tree: exactly these files, all under the prefix
version=$(meson introspect "$build" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
{
	echo "$prefix/bin/schedlint"
	for h in schedlint.h atomic.h escape.h fdio.h lint.h config.h finding.h error.h export.h rule.h rules.h version.h; do
		echo "$prefix/include/schedlint/$h"
	done
	echo "$libdir/libschedlint.a"
	echo "$libdir/libschedlint.so"
	echo "$libdir/libschedlint.so.${version%%.*}"
	echo "$libdir/libschedlint.so.$version"
	echo "$libdir/pkgconfig/schedlint.pc"
	echo "$libdir/pkgconfig/schedlint-plugin.pc"
	echo "$bashdir/schedlint"
	echo "$zshdir/_schedlint"
	echo "$fishdir/schedlint.fish"
	# the user guide (docs/meson.build), the config schema and the editor recipes
	for f in README.md usage.md configuration.md placement.md rendered.md custom-rules.md ci.md \
		editors.md rules.md report-formats.md json-output.md json-output.schema.json placement-output.md; do
		echo "$datadir/doc/schedlint/$f"
	done
	echo "$datadir/schedlint/schedlint.schema.json"
	for f in schedlint.vim schedlint.lua schedlint.el schedlint_lsp.lua; do
		echo "$datadir/schedlint/editors/$f"
	done
	man=$(option man)
	if [ "$man" = enabled ] || { [ "$man" = auto ] && command -v scdoc >/dev/null; }; then
		echo "$mandir/man1/schedlint.1"
		echo "$mandir/man5/schedlint-config.5"
	fi
} | sort >"$tmp/expected"
(cd "$root" && find . ! -type d | sed 's|^\.||' | sort) >"$tmp/installed"
diff "$tmp/expected" "$tmp/installed" >&2 || fail "the install tree differs from the expected files (< expected, > installed)"
grep -v "^$prefix/" "$tmp/installed" >&2 && fail "files installed outside the prefix $prefix"
# nothing installed, and no rule's documentation (`explain`), names a file a user does not have:
# the team's specs (spec/*.md beside the project, ../shared) stay out of what ships; the docs
# cite the user guide instead. Binaries too (their strings are the help and the rule docs); in
# the man pages roff may break a word with \& ("spec/cli.\&md").
cites='spec/[A-Za-z0-9_-]+([\\]&)?[.]([\\]&)?md|[.]([\\]&)?[.]([\\]&)?/shared'
if grep -raEl "$cites" "$root" >"$tmp/cites"; then
	while read -r f; do grep -naEo "$cites" "$f" | sed "s|^|${f#"$root"}:|"; done <"$tmp/cites" >&2
	fail "installed files name the team's specs (spec/*.md, ../shared), which a user does not have"
fi
installed_schedlint() { LD_LIBRARY_PATH=$root$libdir "$root$prefix/bin/schedlint" "$@"; }
installed_schedlint rules --format json >"$tmp/rules.json" || fail "the installed schedlint rules --format json"
ids=$(python3 -c 'import json,sys; print(" ".join(r["id"] for r in json.load(open(sys.argv[1]))))' "$tmp/rules.json")
[ -n "$ids" ] || fail "the installed schedlint lists no rule"
for id in $ids; do
	installed_schedlint explain "$id" >"$tmp/explain" || fail "the installed schedlint explain $id"
	[ -s "$tmp/explain" ] || fail "schedlint explain $id printed nothing"
	if grep -nEo "$cites" "$tmp/explain" >"$tmp/explain.cites"; then
		cat "$tmp/explain.cites" >&2
		fail "schedlint explain $id names the team's specs (spec/*.md, ../shared)"
	fi
done
# the installed guide and schema are the source's (docs/rules.md is kept current by the meta test)
for f in rules.md usage.md; do
	cmp -s "$src/docs/$f" "$root$datadir/doc/schedlint/$f" || fail "the installed $f is not docs/$f"
done
cmp -s "$src/docs/schedlint.schema.json" "$root$datadir/schedlint/schedlint.schema.json" ||
	fail "the installed schedlint.schema.json is not docs/schedlint.schema.json"
# the installed man pages render, with no warning
for tool in groff man; do
	command -v $tool >/dev/null || fail "$tool is missing (tools/setup --test installs groff-base and man-db)"
done
for page in $(grep "^$mandir/" "$tmp/expected"); do
	groff -man -ww -z "$root$page" 2>"$tmp/groff.err" && [ ! -s "$tmp/groff.err" ] ||
		{ cat "$tmp/groff.err" >&2; fail "groff -man -ww -z $page"; }
	MANWIDTH=80 man -l "$root$page" >"$tmp/man.out" 2>"$tmp/man.err" && [ ! -s "$tmp/man.err" ] ||
		{ cat "$tmp/man.err" >&2; fail "man -l $page"; }
	grep -q '^NAME' "$tmp/man.out" || fail "man -l $page shows no NAME"
done
if grep -q "^$mandir/man1/schedlint.1$" "$tmp/expected"; then
	MANWIDTH=200 man -l "$root$mandir/man1/schedlint.1" | grep -q -- '--select ID,\.\.\.' ||
		fail "the installed schedlint(1) does not show --select ID,..."
fi
# the installed completions complete a rule id
bash_completion=/usr/share/bash-completion/bash_completion
[ -f "$bash_completion" ] || fail "$bash_completion is missing (tools/setup --test installs bash-completion)"
out=$(bash --norc --noprofile -c '. "$1"; . "$2"; COMP_WORDS=(schedlint --select gpu-request-with); COMP_CWORD=2
	COMP_LINE="schedlint --select gpu-request-with"; COMP_POINT=${#COMP_LINE}
	_schedlint schedlint gpu-request-with --select; echo "${COMPREPLY[*]}"' \
	bash "$bash_completion" "$root$bashdir/schedlint") ||
	fail "the installed bash completion"
[ "$out" = gpu-request-without-limit ] || fail "the installed bash completion completes '$out', not gpu-request-without-limit"
if command -v fish >/dev/null; then
	out=$(fish --no-config -c 'source $argv[1]; complete -C "schedlint explain gpu-request-with"' \
		"$root$fishdir/schedlint.fish") || fail "the installed fish completion"
	[ "$out" = gpu-request-without-limit ] || fail "the installed fish completion completes '$out'"
fi
if command -v zsh >/dev/null; then
	zsh -n "$root$zshdir/_schedlint" || fail "the installed zsh completion's syntax"
fi
echo "install.sh: ok ($soname, $(wc -l <"$tmp/exports") exported functions, $flags; $(wc -l <"$tmp/installed") files installed)"
