#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pfmk-check.sh: static checks of a pfmk client module, for its CI.
#
# usage: pfmk-check.sh [-k KDIR] [-K KIT] [-j JOBS] [--no-sparse] [PATH...]
#
# Runs pfmk's Coccinelle rules (coccinelle/pfmk_*.cocci beside this
# script's directory: the client kit of "make headers_install", or a pfmk
# source tree) in report mode over the *.c and *.h files under each PATH
# (default: the current directory), then sparse (make C=2, which prints the
# compiler's warnings too) over each PATH that is a module directory (a
# Kbuild or Makefile in it), built in a scratch copy against KDIR with
# pfmk's client.kbuild and Module.symvers from KIT (without one, modpost
# only warns about pfmk's symbols).  Prints one "file:line:col: message"
# line per finding, the paths as given, a Coccinelle finding ending with
# its rule's name in brackets; then a summary on stderr.
#
#   -k KDIR      kernel build directory for sparse (default: that of the
#                kit's KERNELRELEASE, else of the running kernel)
#   -K KIT       pfmk client kit or built source tree (include/,
#                client.kbuild, Module.symvers; default: the directory
#                above this script)
#   -j JOBS      parallel spatch runs and make jobs (default: nproc)
#   --no-sparse  Coccinelle only (no kernel build directory needed)
#
# Exit status: 0 no finding, 1 findings, 2 a tool could not run (spatch or
# sparse missing, a rule or a build failed without a finding to show).
# Documentation/install.rst, "Static checks for clients".
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
self_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rules_dir=$self_dir/../coccinelle
kit=$self_dir/..
kdir=
jobs=$(nproc)
sparse=1

usage() {
	sed -n '4,/^set -euo/{/^set -euo/d; s/^# \{0,1\}//; p}' "${BASH_SOURCE[0]}" >&2
	exit 2
}

while (($#)); do
	case $1 in
	-k) kdir=${2:?}; shift 2 ;;
	-K) kit=${2:?}; shift 2 ;;
	-j) jobs=${2:?}; shift 2 ;;
	--no-sparse) sparse=0; shift ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) echo "pfmk-check: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
(($#)) || set -- .
kit=$(cd "$kit" && pwd)

fail() { echo "pfmk-check: $*" >&2; exit 2; }

command -v spatch >/dev/null || fail "spatch not found (Debian/Ubuntu package coccinelle)"
mapfile -t rules < <(find "$rules_dir" -maxdepth 1 -name 'pfmk_*.cocci' | LC_ALL=C sort)
((${#rules[@]})) || fail "no pfmk_*.cocci rules in $rules_dir"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The sources, as the caller named them (relative paths stay relative),
# counted for the summary.
files=()
for p in "$@"; do
	[[ -e $p ]] || fail "$p: no such file or directory"
	if [[ -d $p ]]; then
		mapfile -t -O "${#files[@]}" files < <(find "$p" -type f \( -name '*.c' -o -name '*.h' \) \
			! -name '*.mod.c' | LC_ALL=C sort)
	else
		files+=("$p")
	fi
done

# Coccinelle: every rule on every path (spatch --dir for a directory),
# JOBS spatch runs at once.  A run that fails (a rule that cannot parse,
# spatch itself) is an error, not a finding.
export PFMK_CHECK_TMP=$tmp
# shellcheck disable=SC2016 # expanded by the inner shell
for p in "$@"; do
	for r in "${rules[@]}"; do printf '%s\0%s\0' "$r" "$p"; done
done | xargs -0 -r -n2 -P"$jobs" sh -c '
	out=$(mktemp -p "$PFMK_CHECK_TMP" run.XXXXXX)
	if [ -d "$2" ]; then set -- "$1" --dir "$2"; fi
	if spatch -D report --very-quiet --no-show-diff --no-includes --include-headers \
		--cocci-file "$@" >"$out" 2>&1; then
		sed "/^[^ ]*:[0-9][0-9]*:/s/\$/ [$(basename "$1" .cocci)]/" "$out" \
			>"$(mktemp -p "$PFMK_CHECK_TMP" out.XXXXXX)"
	else
		{ echo "spatch failed: $*"; cat "$out"; } \
			>"$(mktemp -p "$PFMK_CHECK_TMP" fail.XXXXXX)"
	fi' sh
if compgen -G "$tmp/fail.*" >/dev/null; then
	cat "$tmp"/fail.* >&2
	fail "a Coccinelle rule failed to run"
fi
cat "$tmp"/out.* 2>/dev/null | grep -E '^[^ ]+:[0-9]+:' | LC_ALL=C sort -u |
	LC_ALL=C sort -s -t: -k1,1 -k2,2n >"$tmp/cocci" || true
ncocci=$(grep -c . "$tmp/cocci" || true)
cat "$tmp/cocci"

# sparse: make C=2 in a scratch copy of each module directory; its
# diagnostics name the copy, mapped back to the path as given.
nsparse=0
if ((sparse)); then
	command -v sparse >/dev/null || fail "sparse not found (package sparse), or use --no-sparse"
	if [[ -z $kdir ]]; then
		rel=$(cat "$kit/KERNELRELEASE" 2>/dev/null || uname -r)
		kdir=/lib/modules/$rel/build
	fi
	[[ -f $kdir/Makefile ]] || fail "no kernel build directory at $kdir (-k KDIR, or --no-sparse)"
	symvers=()
	if [[ -f $kit/Module.symvers ]]; then
		symvers=("KBUILD_EXTRA_SYMBOLS=$kit/Module.symvers")
	else
		symvers=("KBUILD_MODPOST_WARN=1")
	fi
	n=0
	for p in "$@"; do
		[[ -d $p && ( -f $p/Kbuild || -f $p/Makefile ) ]] || continue
		n=$((n + 1))
		copy=$tmp/mod$n
		mkdir -p "$copy"
		cp -a "$p/." "$copy/"
		# Objects built in the client's tree would not be compiled again.
		make -C "$kdir" M="$copy" PFMK_DIR="$kit" clean >/dev/null 2>&1 || true
		rc=0
		# Plain quotes in GCC's messages (the kernel unexports LC_ALL).
		LANG=C LC_CTYPE=C LC_MESSAGES=C make -C "$kdir" M="$copy" C=2 PFMK_DIR="$kit" \
			"${symvers[@]}" -j"$jobs" modules >"$tmp/sparse$n.log" 2>&1 || rc=$?
		grep -E "^$copy/[^ ]+:[0-9]+:[0-9]+: (warning|error):" "$tmp/sparse$n.log" |
			sed "s|^$copy/|${p%/}/|" | LC_ALL=C sort -u >"$tmp/sparse$n" || true
		if grep -q 'specified, but .* is not available or not up to date' "$tmp/sparse$n.log"; then
			fail "$kdir refuses this sparse: $(grep -m1 'not available' "$tmp/sparse$n.log")"
		fi
		if ((rc)) && [[ ! -s $tmp/sparse$n ]]; then
			tail -n 20 "$tmp/sparse$n.log" >&2
			fail "the build of $p with C=2 failed (rc=$rc)"
		fi
		cat "$tmp/sparse$n"
		nsparse=$((nsparse + $(grep -c . "$tmp/sparse$n" || true)))
	done
fi

total=$((ncocci + nsparse))
echo "pfmk-check: $total finding(s): $ncocci from Coccinelle (${#rules[@]} rules, ${#files[@]} file(s))," \
	"$nsparse from sparse and the compiler" >&2
exit $((total ? 1 : 0))
}
