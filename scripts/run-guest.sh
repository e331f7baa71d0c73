#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Boot a kernel + initramfs in QEMU (TCG) and save the serial console log.
#
# usage: scripts/run-guest.sh <bzImage|Image> <initramfs> <log> [stall-seconds]
#
# The watchdog: a guest is killed when it stops making progress, not at a
# fixed total.  Progress is a step beginning or ending (PFMK-STEP-BEGIN /
# PFMK-STEP-END, scripts/guest-init.sh) or, inside a KUnit step, a case
# ending (a KTAP "ok N" / "not ok N" line): every one is a test of its own.
# With none for stall-seconds (default 600; boot counts as the step
# "booting"), QEMU is killed and the log gets a "PFMK-HOST: QEMU killed"
# line that names the step, how long it had run, and whether the console
# was still printing (a slow guest) or silent (a hung one).
# PFMK_GUEST_CAP (default 5400 s, CI's budget) bounds a guest that keeps
# progressing forever; it is a last resort, not a timeout for slow hosts.
# PFMK_WATCH_POLL (default 5 s) is how often the log is read;
# PFMK_QEMU_BIN replaces qemu-system-x86_64, or qemu-system-aarch64 for an
# arm64 Image (the architecture is read from the image; the harness's own tests,
# scripts/test-harness.sh, run the watchdog against a scripted fake).
#
# PFMK_GUEST_STDOUT=1 also streams the console to stdout (make demo);
# otherwise a progress line (current guest step) is printed every 30 s.
# PFMK_QEMU_ACCEL selects the accelerator (default "tcg": multi-threaded
# TCG, one host thread per vCPU); scripts/test.sh and scripts/demo.sh pass
# guest_accel's choice (scripts/lib.sh).
# PFMK_GUEST_ICOUNT=1 runs the guest in QEMU's instruction-count mode, one
# vCPU, whatever PFMK_QEMU_ACCEL says: make bench's instruction-count pass
# (Documentation/performance.rst) and the arm64 guests' exact rows
# (Documentation/testing.rst, "arm64").
# For the post-mortem test (scripts/postmortem.py), off by default:
# PFMK_GUEST_QMP=<socket> adds a QMP server on that Unix socket and QEMU's
# vmcoreinfo device (dump-guest-memory then writes the guest kernel's
# VMCOREINFO note, by which drgn knows a kernel dump);
# PFMK_QEMU_ARGS adds arguments (split at blanks); PFMK_GUEST_REBOOT=1
# lets a guest reset (a reboot, QMP system_reset) restart the guest
# instead of ending QEMU.
# Exit status: 0 if QEMU exited by itself, 124 if the watchdog killed it,
# QEMU's otherwise.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage}
initrd=${2:?usage}
log=${3:?usage}
stall=${4:-600}
cap=${PFMK_GUEST_CAP:-5400}
poll=${PFMK_WATCH_POLL:-5}
[[ -r $kernel ]] || die "cannot read $kernel (Debian installs /boot/vmlinuz-* mode 0600: run as root)"
arch=$(kernel_image_arch "$kernel")
if [[ $arch == arm64 ]]; then
	qemu_bin=${PFMK_QEMU_BIN:-qemu-system-aarch64}
	command -v "$qemu_bin" >/dev/null || die "$qemu_bin not found (package qemu-system-arm)"
else
	qemu_bin=${PFMK_QEMU_BIN:-qemu-system-x86_64}
	command -v "$qemu_bin" >/dev/null || die "$qemu_bin not found (package qemu-system-x86)"
fi

# No oops=panic: after an oops the plan goes on so that every report and
# every later step shows up; hangs are caught by the watchdog below.
# panic=-1 reboots (i.e. exits QEMU, -no-reboot) at once on a panic.
cmdline="printk.time=0 printk.devkmsg=on loglevel=7 panic=-1 nokaslr"
icount=${PFMK_GUEST_ICOUNT:-0}
# Under TCG the guest's TSC is the host's.  Its calibration against the
# PIT races the host's load, and a wrong rate gets the TSC marked
# unstable: sched_clock then moves in tick-sized steps and two perf reads
# within a tick see the same times (Documentation/testing.rst, "Known
# problems").  When the host's TSC rate is known and constant, the guest
# is told it.
# Not in icount mode: there the guest's TSC, PIT and HPET all follow
# QEMU's virtual clock, not the host's TSC (with shift=0 the TSC ticks at
# 1 GHz, once per instruction); the host's rate would be wrong, and the
# guest's own calibration against the PIT finds the right one whatever
# the host's load.
if [[ $arch == arm64 ]]; then
	# The PL011 of QEMU's virt machine; PMU overflows as pseudo-NMIs
	# where the kernel has CONFIG_ARM64_PSEUDO_NMI (Debian's do not, and
	# ignore it).  The arm64 timer is the architected counter, fixed-rate
	# and not calibrated: nothing like the TSC's tsc_early_khz.
	cmdline="console=ttyAMA0 $cmdline irqchip.gicv3_pseudo_nmi=1"
elif [[ $icount == 1 ]]; then
	cmdline="console=ttyS0 $cmdline"
elif khz=$(host_tsc_khz); then
	cmdline="console=ttyS0 $cmdline tsc_early_khz=$khz"
else
	cmdline="console=ttyS0 $cmdline"
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
# arm64: QEMU's virt machine with a GICv3 (pseudo-NMIs need one) and the
# "max" CPU, whose PMUv3 Linux drives with its armv8_pmuv3 driver; its
# default QARMA5 pointer authentication is about 3 times slower under TCG
# than pauth-impdef.  In icount mode (above; the exact rows) the PMU also
# counts instructions retired (event 0x08), which it does not otherwise,
# and its cycle counter advances once per instruction: counts of a known
# loop are exact.  Two vCPUs under icount are not used: QEMU 7.2 hung
# arm64 guests whose two vCPUs both ran busy loops for a few seconds
# (Documentation/testing.rst, "Known problems").
machine=()
if [[ $arch == arm64 ]]; then
	machine=(-M "virt,gic-version=3" -cpu "max,pauth-impdef=on")
fi
qemu=("$qemu_bin" "${machine[@]}" -accel "$accel" "${icount_args[@]}" -smp "$smp" -m 1G -nographic -no-reboot
	-nodefaults -serial stdio -monitor none
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline" -pidfile "$log.pid")
if [[ ${PFMK_GUEST_REBOOT:-0} == 1 ]]; then
	for i in "${!qemu[@]}"; do
		[[ ${qemu[i]} == -no-reboot ]] && unset 'qemu[i]'
	done
fi
if [[ -n ${PFMK_GUEST_QMP:-} ]]; then
	qemu+=(-qmp "unix:$PFMK_GUEST_QMP,server=on,wait=off" -device vmcoreinfo)
fi
if [[ -n ${PFMK_QEMU_ARGS:-} ]]; then
	read -ra extra <<<"$PFMK_QEMU_ARGS"
	qemu+=("${extra[@]}")
fi

mkdir -p "$(dirname "$log")"
rm -f "$log.rc" "$log.pid"
: >"$log"
(
	set +e
	if [[ ${PFMK_GUEST_STDOUT:-0} == 1 ]]; then
		"${qemu[@]}" </dev/null 2>&1 | stdbuf -oL tr -d '\r' | tee "$log"
	else
		"${qemu[@]}" </dev/null 2>&1 | stdbuf -oL tr -d '\r' >"$log"
	fi
	echo "${PIPESTATUS[0]}" >"$log.rc"
) &
pid=$!

# Progress marks in the log so far: steps begun or ended, KUnit cases ended.
marks() { grep -cE 'PFMK-STEP-(BEGIN|END) |^ *(not )?ok [0-9]+ ' "$log" 2>/dev/null || true; }
# The step running now, or "booting".
current_step() {
	local s
	s=$(grep -oE 'PFMK-STEP-(BEGIN|END) [^ ]+' "$log" 2>/dev/null | tail -n1 || true)
	case $s in
	*BEGIN*) echo "${s##* }" ;;
	*END*) echo "between steps (after ${s##* })" ;;
	*) echo booting ;;
	esac
}
killed=""
kill_qemu() { # reason
	killed=$1
	local q
	q=$(cat "$log.pid" 2>/dev/null || true)
	if [[ -n $q ]]; then
		kill "$q" 2>/dev/null || true
		for _ in $(seq 10); do kill -0 "$q" 2>/dev/null || break; sleep 1; done
		kill -9 "$q" 2>/dev/null || true
	fi
}

start=$SECONDS
last_mark=$SECONDS
nmarks=0
step_since=$SECONDS
step=booting
last_say=$SECONDS
bytes_at=()	# console size at each poll of the last minute
while kill -0 "$pid" 2>/dev/null; do
	sleep "$poll"
	kill -0 "$pid" 2>/dev/null || break
	n=$(marks)
	if ((n != nmarks)); then
		nmarks=$n
		last_mark=$SECONDS
		s=$(current_step)
		if [[ $s != "$step" ]]; then
			step=$s
			step_since=$SECONDS
		fi
	fi
	size=$(stat -c %s "$log" 2>/dev/null || echo 0)
	bytes_at+=("$SECONDS:$size")
	while ((${#bytes_at[@]} > 1)) && ((SECONDS - ${bytes_at[0]%%:*} > 60)); do
		bytes_at=("${bytes_at[@]:1}")
	done
	if ((SECONDS - last_mark >= stall)); then
		grew=$((size - ${bytes_at[0]#*:}))
		if ((grew > 0)); then
			printing="the console was still printing ($grew bytes in the last $((SECONDS - ${bytes_at[0]%%:*}))s)"
		else
			printing="the console was silent for the last $((SECONDS - ${bytes_at[0]%%:*}))s"
		fi
		kill_qemu "no step began or ended for $((SECONDS - last_mark))s (stall limit ${stall}s); step $step had run $((SECONDS - step_since))s; $printing; guest up $((SECONDS - start))s"
		break
	fi
	if ((SECONDS - start >= cap)); then
		kill_qemu "guest still progressing after the ${cap}s cap (PFMK_GUEST_CAP); step $step had run $((SECONDS - step_since))s"
		break
	fi
	if [[ ${PFMK_GUEST_STDOUT:-0} != 1 ]] && ((SECONDS - last_say >= 30)); then
		last_say=$SECONDS
		say "$(basename "$log" .log): guest running ($((SECONDS - start))s, step: $step for $((SECONDS - step_since))s)"
	fi
done
wait "$pid" || true
rc=$(cat "$log.rc" 2>/dev/null || echo 1)
rm -f "$log.rc" "$log.pid"
if [[ -n $killed ]]; then
	echo "PFMK-HOST: QEMU killed: $killed" >>"$log"
	say "$(basename "$log" .log): QEMU killed: $killed"
	exit 124
fi
exit "$rc"
}
