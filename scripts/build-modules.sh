#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the pfmk modules for one kernel, out of tree, with W=1 -Werror.
#
# usage: scripts/build-modules.sh <kernel-id> <kdir> [arm64]
#
# With "arm64" the modules are cross-built (ARCH=arm64, CROSS_COMPILE=
# $PFMK_CROSS_COMPILE_ARM64, default aarch64-linux-gnu-) against an arm64
# kernel tree: Debian's arm64 headers or the arm64 debug kernel's build.
#
# The module sources are copied to build/modules/<kernel-id>/ so that several
# kernels can be built from one source tree. The log goes to
# build/logs/modules-<kernel-id>.log. Exits non-zero if the build failed or
# printed any warning (compiler or modpost).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

id=${1:?usage: build-modules.sh <kernel-id> <kdir>}
kdir=${2:?usage: build-modules.sh <kernel-id> <kdir> [arm64]}
arch=${3:-}
cross=()
case $arch in
'') ;;
arm64) cross=(ARCH=arm64 CROSS_COMPILE="$PFMK_CROSS_COMPILE_ARM64") ;;
*) die "$id: unknown architecture $arch" ;;
esac
dest=$PFMK_BUILD/modules/$id
log=$PFMK_LOGS/modules-$id.log

[[ -f $kdir/Makefile ]] || die "$id: no kernel build directory at $kdir"
mkdir -p "$PFMK_LOGS"
rm -rf "$dest"
mkdir -p "$dest"
copy_module_sources "$dest"
[[ -f $dest/Kbuild ]] || die "$id: no Kbuild in $PFMK_MODSRC"

say "$id: building modules (W=1 -Werror${arch:+, $arch}) against $kdir"
rc=0
# PFMK_TEST_HOOKS=1: the hooks pfmk's own KUnit suites call (Kbuild).
make -C "$kdir" M="$dest" "${cross[@]}" W=1 KCFLAGS=-Werror PFMK_TEST_HOOKS=1 -j"$PFMK_JOBS" modules \
	>"$log" 2>&1 || rc=$?
# Warnings that do not fail the compiler still count (modpost, Kbuild).
if grep -E -i '(^|[^a-z])warning:' "$log" >"$log.warnings"; then
	say "$id: warnings in the module build:"
	cat "$log.warnings" >&2
	((rc)) || rc=1
fi
rm -f "$log.warnings"
if ((rc)); then
	show_log_tail "$log" 30
	say "$id: module build FAILED (log: $log)"
	exit "$rc"
fi
say "$id: built $(find "$dest" -name '*.ko' | wc -l) modules: $(find "$dest" -name '*.ko' -printf '%f\n' | sort | tr '\n' ' ')"
