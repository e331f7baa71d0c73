#!/usr/bin/env bash
# make bench: pfmk against the raw perf kernel API and against perf record.
#
# Builds the modules for the Debian 6.1 kernel (whose perf, package
# linux-perf, goes into the guest), boots it in QEMU with the bench plan of
# scripts/mkinitramfs.sh: pfmk_bench's micro measurements, then the
# workload runs (no sampling / pfmk / perf record -a -F, interleaved).  Then
# the instruction-count pass: the micro measurements alone, in a second
# initramfs, booted in QEMU's icount mode on one vCPU, where every time the
# guest reads is a count of the instructions it ran (PFMK_GUEST_ICOUNT of
# scripts/run-guest.sh).  Prints the table of scripts/bench.py, which
# reads both logs. Method: Documentation/performance.rst.
#
# Outputs: build/bench/table.txt, build/bench/summary.json, the console
# logs build/logs/bench-<kernel>.log and bench-icount-<kernel>.log.
#
# Environment: PFMK_BENCH_SERIES (default 6.1), PFMK_BENCH_ARGS (pfmk_bench
# module parameters of the micro run, in both passes), PFMK_BENCH_WL_ROUNDS,
# PFMK_BENCH_WL_HZ, PFMK_BENCH_WL_WORK (workload rounds after one warm-up,
# frequencies, loop length in millions per CPU), PFMK_BENCH_ICOUNT (1, the
# default: run the instruction-count pass; 0: skip it), PFMK_BENCH_TIMEOUT
# (seconds per guest, default 900).
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

SERIES=${PFMK_BENCH_SERIES:-6.1}
TIMEOUT=${PFMK_BENCH_TIMEOUT:-900}
ICOUNT=${PFMK_BENCH_ICOUNT:-1}
[[ $ICOUNT == [01] ]] || die "PFMK_BENCH_ICOUNT=$ICOUNT: want 0 or 1"
export PFMK_BENCH_ARGS=${PFMK_BENCH_ARGS:-rounds=11 warmup=2 iters=2000 ovfls=5000 pings=100 scale_rounds=5 max_ctx=64 clock_spin=20 clock_period_us=100}
export PFMK_BENCH_WL_ROUNDS=${PFMK_BENCH_WL_ROUNDS:-15}
export PFMK_BENCH_WL_HZ=${PFMK_BENCH_WL_HZ:-1000 10000}
export PFMK_BENCH_WL_WORK=${PFMK_BENCH_WL_WORK:-100}
# QEMU TCG gives every vCPU the host's TSC, but its default CPU model (an
# AMD one without constant_tsc) makes a multi-CPU guest mark the TSC
# unstable and fall back to the emulated HPET: ~0.2 us per clock read
# and a slow local_clock(), for pfmk and perf alike, which hardware with
# an invariant TSC does not pay.  make test keeps the default.
export PFMK_GUEST_CMDLINE=${PFMK_GUEST_CMDLINE-tsc=reliable}
S=$PFMK_ROOT/scripts
OUT=$PFMK_BUILD/bench

t0=$SECONDS
ensure_deps
rel=$(stock_kernel_release "$SERIES") || die "no Debian $SERIES kernel image + headers installed"
id=debian-$SERIES
perf_ver=$(perf --version 2>/dev/null | awk '{print $3}')
[[ $perf_ver == "$SERIES".* ]] ||
	say "warning: perf $perf_ver does not match the $SERIES kernel: perf record may warn"
rm -rf "$OUT"
mkdir -p "$OUT" "$PFMK_LOGS"
"$S/build-modules.sh" "$id" "$(stock_kernel_kdir "$rel")"
g=$OUT/guest
mkdir -p "$g"
"$S/mkinitramfs.sh" "$id" bench "$PFMK_BUILD/modules/$id" "$g"
log=$PFMK_LOGS/bench-$id.log
ilog=$PFMK_LOGS/bench-icount-$id.log
# Never a previous run's instruction counts in this run's report.
rm -f "$ilog"
say "$id: benchmark run in QEMU (TCG, timeout ${TIMEOUT}s, log: $log)"
tb=$SECONDS
rc=0
"$S/run-guest.sh" "/boot/vmlinuz-$rel" "$g/initramfs.cpio.gz" "$log" "$TIMEOUT" || rc=$?
say "$id: guest finished in $((SECONDS - tb))s (qemu rc=$rc)"
report=("$log" "$OUT/summary.json" "$id")
if ((ICOUNT)); then
	# The same micro run without the workload (which needs two CPUs and
	# real time), timed in instructions: Documentation/performance.rst.
	gi=$OUT/guest-icount
	mkdir -p "$gi"
	PFMK_BENCH_WL_ROUNDS=0 "$S/mkinitramfs.sh" "$id" bench "$PFMK_BUILD/modules/$id" "$gi"
	say "$id: instruction-count run in QEMU (TCG icount, 1 vCPU, timeout ${TIMEOUT}s, log: $ilog)"
	tb=$SECONDS
	irc=0
	PFMK_GUEST_ICOUNT=1 "$S/run-guest.sh" "/boot/vmlinuz-$rel" "$gi/initramfs.cpio.gz" "$ilog" "$TIMEOUT" || irc=$?
	say "$id: icount guest finished in $((SECONDS - tb))s (qemu rc=$irc)"
	# Not fatal: scripts/bench.py reports what the log holds, and a
	# problem if it holds no result.
	((irc == 0)) || say "warning: icount QEMU rc=$irc (see $ilog)"
	report+=("$ilog")
fi
echo
brc=0
python3 "$S/bench.py" report "${report[@]}" | tee "$OUT/table.txt" || brc=$?
echo
say "make bench: $((SECONDS - t0))s; summary: $OUT/summary.json"
((rc == 0)) || die "QEMU rc=$rc (see $log)"
exit "$brc"
}
