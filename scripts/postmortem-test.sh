#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The post-mortem test (make test; Documentation/postmortem.rst): pfmk's
# contexts in a memory dump of a running guest and of a panicked one,
# decoded by scripts/pfmk-drgn.py, and pfmk's crash summary in pstore
# after the guest reboots.
#
# usage: scripts/postmortem-test.sh <results-dir>
#
# On one debug kernel, PFMK_POSTMORTEM_SERIES (default 6.1): the one whose
# layout Debian bookworm's drgn 0.0.22 reads, and the one built with
# DWARF, CRASH_CORE and ramoops (scripts/kconfig/debug-6.1.config).  The
# modules are those make test built for it (build/modules/debug-<series>),
# or built here.  The guest's plan: pstore check (the second boot ends
# there), pfmk and the test PMUs, test-modules/pfmk_postmortem.ko, which
# records and prints what it holds, a memory dump (the guest waits for
# the host), then an oops made a panic.  scripts/postmortem.py runs the
# guest, takes the dumps and compares.  Rows: debug-<series> /
# postmortem: ...; the dumps are deleted unless a check needs them
# (PFMK_POSTMORTEM_KEEP=1 keeps them, 1 GiB each, in build/postmortem/).
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

results=${1:?usage: postmortem-test.sh <results-dir>}
series=${PFMK_POSTMORTEM_SERIES:-6.1}
id=debug-$series
S=$PFMK_ROOT/scripts
out=$PFMK_BUILD/postmortem
mkdir -p "$results" "$PFMK_LOGS"

fail() { # reason
	python3 "$S/results.py" row "$results/$id-3postmortem.json" "$id" "postmortem" 0 1 0 0 "$1"
	say "postmortem: $1"
	exit 0
}

/usr/bin/python3 -c 'import drgn' 2>/dev/null || fail "no drgn for /usr/bin/python3 (package python3-drgn)"
dir=$("$S/debug-kernel.sh" "$series") || fail "debug-$series kernel build failed"
vmlinux=$dir/build/vmlinux
grep -q '^CONFIG_DEBUG_INFO=y' "$dir/config" || fail "debug-$series has no DEBUG_INFO (scripts/kconfig/debug-$series.config)"
grep -q '^CONFIG_PSTORE_RAM=y' "$dir/config" || fail "debug-$series has no ramoops built in"

mods=$PFMK_BUILD/modules/$id
if [[ -z $(find "$mods" -name pfmk_postmortem.ko 2>/dev/null) ]]; then
	"$S/build-modules.sh" "$id" "$dir/build" || fail "module build failed (see $PFMK_LOGS/modules-$id.log)"
fi

rm -rf "$out"
root=$out/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,modules}
cp "${PFMK_BUSYBOX:-/bin/busybox}" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
for m in pfmk pfmk_test_pmu pfmk_test_aux_pmu pfmk_postmortem; do
	ko=$(find "$mods" -name "$m.ko" -print -quit)
	[[ -n $ko ]] || fail "no $m.ko in $mods"
	cp "$ko" "$root/modules/"
done
cp "$S/guest-init.sh" "$root/init"
chmod +x "$root/init"
printf 'PLAN_ID=%s\nPLAN_MODE=postmortem\nEXAMPLE_SECONDS=3\n' "$id" >"$root/plan.env"
cat >"$root/plan.steps" <<STEPS
pstore pm_pstore
insmod:pfmk insmod /modules/pfmk.ko
insmod:pfmk_test_pmu insmod /modules/pfmk_test_pmu.ko
insmod:pfmk_test_aux_pmu insmod /modules/pfmk_test_aux_pmu.ko
insmod:pfmk_postmortem insmod /modules/pfmk_postmortem.ko cpu=1
dump:live pm_dump live
crash pm_crash
STEPS
(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet) |
	gzip -1 >"$out/initramfs.cpio.gz"

keep=()
[[ ${PFMK_POSTMORTEM_KEEP:-0} == 1 ]] && keep=(--keep-dumps)
python3 "$S/postmortem.py" --id "$id" --kernel "$dir/bzImage" --vmlinux "$vmlinux" \
	--system-map "$dir/build/System.map" \
	--modules "$mods" --initrd "$out/initramfs.cpio.gz" --out "$out" \
	--rows "$results/$id-3postmortem.json" --stall "${PFMK_GUEST_STALL:-600}" "${keep[@]}" ||
	fail "scripts/postmortem.py failed"
cp "$out/console.log" "$PFMK_LOGS/$id-postmortem.log" 2>/dev/null || true
exit 0
}
