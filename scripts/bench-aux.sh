#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench's AUX guest: pfmk's AUX copy-out against memcpy() on a kernel
# with pfmk's AUX patch and without debug options (scripts/debug-kernel.sh
# --nodebug, cached as aux-<series>; built on first use).  Boots it with
# the aux plan of scripts/mkinitramfs.sh (pfmk_aux_smoke alone) and writes
# the console to build/logs/bench-aux-<series>.log, whose
# aux_copy_throughput lines scripts/bench.py judges against the AUX
# targets (Documentation/performance.rst).
#
# Environment: PFMK_BENCH_AUX_SERIES (default 6.12), PFMK_BENCH_TIMEOUT
# (seconds, default 900).
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

series=${PFMK_BENCH_AUX_SERIES:-6.12}
timeout=${PFMK_BENCH_TIMEOUT:-900}
S=$PFMK_ROOT/scripts
id=aux-$series
log=$PFMK_LOGS/bench-$id.log
g=$PFMK_BUILD/bench/guest-aux

mkdir -p "$PFMK_LOGS" "$g"
# Never a previous run's figures in this run's report.
rm -f "$log"
dir=$("$S/debug-kernel.sh" --nodebug "$series") ||
	die "$id: the patched kernel without debug options could not be built"
"$S/build-modules.sh" "$id" "$dir/build"
"$S/mkinitramfs.sh" "$id" bench "$PFMK_BUILD/modules/$id" "$g" x86_64 aux
say "$id: AUX copy-out run in QEMU (TCG, timeout ${timeout}s, log: $log)"
rc=0
"$S/run-guest.sh" "$dir/bzImage" "$g/initramfs.cpio.gz" "$log" "$timeout" || rc=$?
((rc == 0)) || die "$id: QEMU rc=$rc (see $log)"
grep -q 'aux_copy_throughput: .* KiB buffer' "$log" ||
	die "$id: no aux_copy_throughput figures in $log"
exit 0
}
