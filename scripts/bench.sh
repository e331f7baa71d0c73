#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench: pfmk against the raw perf kernel API and against perf record.
#
# Builds the modules for the Debian 6.1 kernel (whose perf, package
# linux-perf, goes into the guest), boots it in QEMU with the bench plan of
# scripts/mkinitramfs.sh: pfmk_bench's micro measurements, then the
# workload runs (no sampling / pfmk / perf record -a -F, interleaved).  Then
# the instruction-count pass: the micro measurements alone, in a second
# initramfs, booted in QEMU's icount mode on one vCPU, where every time the
# guest reads is a count of the instructions it ran (PFMK_GUEST_ICOUNT of
# scripts/run-guest.sh).  Then the arm64 pass: Debian's arm64 kernel of
# the same series (fetched into the cache, scripts/lib.sh arm64_kernel),
# the modules cross-built, pfmk_bench hw=1 on Linux's armv8_pmuv3 driver
# in QEMU's icount mode on one vCPU: every figure is instructions, and
# QEMU's cycle counter advances once per instruction.  Prints the table of
# scripts/bench.py, which reads the three logs. Method:
# Documentation/performance.rst.
#
# Outputs: build/bench/table.txt, build/bench/summary.json, the console
# logs build/logs/bench-<kernel>.log, bench-icount-<kernel>.log and
# bench-debian-arm64-<series>.log.
#
# Environment: PFMK_BENCH_SERIES (default 6.1), PFMK_BENCH_ARGS (pfmk_bench
# module parameters of the micro run, in both passes), PFMK_BENCH_WL_ROUNDS,
# PFMK_BENCH_WL_HZ, PFMK_BENCH_WL_WORK (workload rounds after one warm-up,
# frequencies, loop length in millions per CPU), PFMK_BENCH_ICOUNT (1, the
# default: run the instruction-count pass; 0: skip it), PFMK_BENCH_TIMEOUT
# (seconds per guest, default 900), PFMK_BENCH_ARCHES (default
# "x86_64 arm64": the passes run; "arm64" alone leaves the x86 ones out),
# PFMK_BENCH_ARM64_ARGS (pfmk_bench parameters of the arm64 pass),
# PFMK_BENCH_AUX (1, the default: with the x86 passes, the AUX copy-out
# run of scripts/bench-aux.sh on the patched kernel without debug options,
# bench-aux-<series>.log; 0: skip it).
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

SERIES=${PFMK_BENCH_SERIES:-6.1}
TIMEOUT=${PFMK_BENCH_TIMEOUT:-900}
ICOUNT=${PFMK_BENCH_ICOUNT:-1}
ARCHES=${PFMK_BENCH_ARCHES:-x86_64 arm64}
X86=0
ARM64=0
for a in $ARCHES; do
	case $a in
	x86_64) X86=1 ;;
	arm64) ARM64=1 ;;
	*) die "PFMK_BENCH_ARCHES: unknown architecture $a" ;;
	esac
done
((X86 || ARM64)) || die "PFMK_BENCH_ARCHES is empty"
# The arm64 pass: instructions, so fewer rounds would do, but the same
# as x86's keeps the medians comparable.  clock_spin (million loop steps,
# about 7 instructions each) and hw_period (cycles = instructions) give
# about 1400 samples per side and round: the timer ticks, which differ by
# one between two runs of the loop, weigh little against them.
ARM64_ARGS=${PFMK_BENCH_ARM64_ARGS:-rounds=11 warmup=2 iters=2000 clock_spin=20 hw_period=100000}
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
id=debian-$SERIES
rm -rf "$OUT"
mkdir -p "$OUT" "$PFMK_LOGS"
rc=0
report=("-" "$OUT/summary.json" "$id" "-")
if ((X86)); then
	rel=$(stock_kernel_release "$SERIES") || die "no Debian $SERIES kernel image + headers installed"
	perf_ver=$(perf --version 2>/dev/null | awk '{print $3}')
	[[ $perf_ver == "$SERIES".* ]] ||
		say "warning: perf $perf_ver does not match the $SERIES kernel: perf record may warn"
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
		report[3]=$ilog
	fi
	# AUX copy-out on the patched kernel without debug options
	# (scripts/bench-aux.sh: built on first use, then cached).
	if [[ ${PFMK_BENCH_AUX:-1} == 1 ]]; then
		"$S/bench-aux.sh" || say "warning: the AUX copy-out run failed: its rows are missing"
	fi
fi
if ((ARM64)); then
	aid=debian-arm64-$SERIES
	alog=$PFMK_LOGS/bench-$aid.log
	rm -f "$alog"
	adir=$(arm64_kernel "$SERIES") || die "$aid: Debian's arm64 $SERIES kernel could not be fetched"
	arel=$(basename "$adir")
	"$S/build-modules.sh" "$aid" "$adir/usr/src/linux-headers-$arel" arm64
	ga=$OUT/guest-arm64
	mkdir -p "$ga"
	PFMK_BENCH_ARGS=$ARM64_ARGS PFMK_BENCH_WL_ROUNDS=0 \
		"$S/mkinitramfs.sh" "$aid" bench "$PFMK_BUILD/modules/$aid" "$ga" arm64
	say "$aid: arm64 run in QEMU (TCG icount, 1 vCPU, armv8_pmuv3; timeout ${TIMEOUT}s, log: $alog)"
	tb=$SECONDS
	arc=0
	# tsc=reliable is x86's.
	PFMK_GUEST_ICOUNT=1 PFMK_GUEST_CMDLINE="" \
		"$S/run-guest.sh" "$adir/boot/vmlinuz-$arel" "$ga/initramfs.cpio.gz" "$alog" "$TIMEOUT" || arc=$?
	say "$aid: arm64 guest finished in $((SECONDS - tb))s (qemu rc=$arc)"
	# Not fatal here: bench.py reports a log without results as a problem.
	((arc == 0)) || say "warning: arm64 QEMU rc=$arc (see $alog)"
	report+=(--arm64 "$alog" --arm64-kernel "$aid")
fi
echo
brc=0
python3 "$S/bench.py" report "${report[@]}" | tee "$OUT/table.txt" || brc=$?
echo
say "make bench: $((SECONDS - t0))s; summary: $OUT/summary.json"
((rc == 0)) || die "QEMU rc=$rc (see $log)"
exit "$brc"
}
