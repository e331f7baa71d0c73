#!/usr/bin/env bash
# Boot a kernel + initramfs in QEMU (TCG) and save the serial console log.
#
# usage: scripts/run-guest.sh <bzImage> <initramfs> <log> [timeout-seconds]
#
# PFMK_GUEST_STDOUT=1 also streams the console to stdout (make demo);
# otherwise a progress line (current guest step) is printed every 30 s.
# PFMK_QEMU_ACCEL selects the accelerator (default "tcg": multi-threaded
# TCG, one host thread per vCPU); scripts/test.sh and scripts/demo.sh pass
# guest_accel's choice (scripts/lib.sh).
# PFMK_GUEST_ICOUNT=1 runs the guest in QEMU's instruction-count mode, one
# vCPU, whatever PFMK_QEMU_ACCEL says: make bench's instruction-count pass
# (Documentation/performance.rst).
# Exit status: 0 if QEMU exited by itself, 124 on timeout, QEMU's otherwise.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage}
initrd=${2:?usage}
log=${3:?usage}
tmo=${4:-600}
[[ -r $kernel ]] || die "cannot read $kernel (Debian installs /boot/vmlinuz-* mode 0600: run as root)"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (package qemu-system-x86)"

# No oops=panic: after an oops the plan goes on so that every report and
# every later step shows up; hangs are bounded by the wall-clock timeout.
# panic=-1 reboots (i.e. exits QEMU, -no-reboot) at once on a panic.
cmdline="console=ttyS0 printk.time=0 printk.devkmsg=on loglevel=7 panic=-1 nokaslr"
icount=${PFMK_GUEST_ICOUNT:-0}
# Under TCG the guest's TSC is the host's.  Its calibration against the
# PIT races the host's load: a debug-7.2 guest on a busy host took 507 MHz
# for the host's 2596 ("PIT calibration deviates from HPET"), the
# clocksource watchdog then marked the TSC unstable, and sched_clock moved
# in tick-sized steps, so two perf reads within a tick saw the same times
# and cpu-clock counts (count_read_pmds_time and hotplug_counting failed).
# When the host's TSC rate is known and constant, the guest is told it.
# Not in icount mode: there the guest's TSC, PIT and HPET all follow
# QEMU's virtual clock, not the host's TSC (with shift=0 the TSC ticks at
# 1 GHz, once per instruction); the host's rate would be wrong, and the
# guest's own calibration against the PIT finds the right one whatever
# the host's load.
if [[ $icount == 1 ]]; then
	:
elif khz=$(host_tsc_khz); then
	cmdline+=" tsc_early_khz=$khz"
fi
cmdline+=" ${PFMK_GUEST_CMDLINE:-}"

accel=${PFMK_QEMU_ACCEL:-tcg}
smp=2
icount_args=()
# Icount mode: the virtual clock advances by 2^shift ns per guest
# instruction retired, so with shift=0 a ktime_get_ns() delta in the
# guest is the number of instructions run in between, whatever the host
# does; sleep=off makes an idle vCPU jump to the next timer's deadline
# instead of waiting for the host's clock.  QEMU counts instructions in
# single-threaded TCG only.  The RTC starts at a fixed date and follows
# the virtual clock: with the host's date, the wall-clock time the guest
# reads at boot differed from run to run and so did its counts
# (create_close by up to 11 %); with it fixed, two runs printed
# byte-identical console logs.  One vCPU: with -smp 2, Debian's 6.1
# kernel hangs at "Bringing up secondary CPUs" under icount (QEMU 7.2).
if [[ $icount == 1 ]]; then
	accel=tcg,thread=single
	smp=1
	icount_args=(-icount "shift=0,sleep=off" -rtc "base=2026-01-01T00:00:00,clock=vm")
fi
qemu=(qemu-system-x86_64 -accel "$accel" "${icount_args[@]}" -smp "$smp" -m 1G -nographic -no-reboot
	-nodefaults -serial stdio -monitor none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline")

mkdir -p "$(dirname "$log")"
rm -f "$log.rc"
(
	set +e
	if [[ ${PFMK_GUEST_STDOUT:-0} == 1 ]]; then
		timeout -k 10 "$tmo" "${qemu[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$log"
	else
		timeout -k 10 "$tmo" "${qemu[@]}" </dev/null 2>&1 | tr -d '\r' >"$log"
	fi
	echo "${PIPESTATUS[0]}" >"$log.rc"
) &
pid=$!
start=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$pid" 2>/dev/null || break
	if [[ ${PFMK_GUEST_STDOUT:-0} != 1 ]]; then
		cur=$(grep -o 'PFMK-STEP-BEGIN .*' "$log" 2>/dev/null | tail -n1 | cut -d' ' -f2 || true)
		say "$(basename "$log" .log): guest running ($((SECONDS - start))s, step: ${cur:-booting})"
	fi
done
wait "$pid" || true
rc=$(cat "$log.rc" 2>/dev/null || echo 1)
rm -f "$log.rc"
if ((rc == 124 || rc == 137)); then
	echo "PFMK-HOST: QEMU killed after ${tmo}s timeout" >>"$log"
	exit 124
fi
exit "$rc"
}
