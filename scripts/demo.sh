#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make demo: boot the stock Debian 6.1 kernel in QEMU, load pfmk (+ the test
# PMU when built), run pfmk_example_count, pfmk_example_sample,
# pfmk_example_sets and pfmk_example_flightrec with seconds=3, then show
# their output (the per-CPU count table, the top kernel functions by
# cpu-clock samples, four event sets rotating every 10 ms, and the flight
# recorder saying that Debian's kernel lacks the AUX patch).  Events as
# strings: the count example on msr/tsc/, sched:sched_switch,
# context-switches and cpu-clock (two contexts per CPU: the msr PMU's
# dynamic description, and generic), the sample example on the
# sched:sched_switch tracepoint.  Then, since
# QEMU TCG has no core PMU, it loads the emulated x86 core PMU running free
# (test-modules/pfmk_emu_pmu.c, run_hz=1000) and runs the counting example
# in hardware mode (cycles, instructions, IPC, LLC misses) and the sampling
# example on cycles under a load: EMULATED counts, marked as such.  Last,
# the arm64 step: Debian's arm64 kernel on QEMU's emulated PMUv3, driven
# by Linux's own armv8_pmuv3 driver: cycles, instructions and IPC per CPU,
# and the top functions by cycles samples.
#
# PFMK_DEMO_SERIES selects another Debian kernel series (default 6.1;
# the arm64 step uses the same series); PFMK_DEMO_ARM64=0 skips that step;
# PFMK_DEMO_VERBOSE=1 streams the whole console instead of the summary.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

series=${PFMK_DEMO_SERIES:-6.1}
ensure_deps
rel=$(stock_kernel_release "$series") || die "no Debian $series kernel image + headers installed"
id=demo-debian-$series
g=$PFMK_BUILD/guest/$id
log=$PFMK_LOGS/$id.log
mkdir -p "$g" "$PFMK_LOGS"

"$PFMK_ROOT/scripts/build-modules.sh" "$id" "$(stock_kernel_kdir "$rel")" ||
	say "$id: module build reported problems, trying to run anyway"
"$PFMK_ROOT/scripts/mkinitramfs.sh" "$id" demo "$PFMK_BUILD/modules/$id" "$g"
say "booting Debian $rel in QEMU (TCG; console log: $log)"
rc=0
PFMK_QEMU_ACCEL=${PFMK_QEMU_ACCEL:-$(guest_accel demo)} PFMK_GUEST_STDOUT=${PFMK_DEMO_VERBOSE:-0} "$PFMK_ROOT/scripts/run-guest.sh" \
	"/boot/vmlinuz-$rel" "$g/initramfs.cpio.gz" "$log" 240 || rc=$?

# Each example step's command line, from the plan: "# insmod m.ko args".
secs=${PFMK_EXAMPLE_SECONDS:-3}
steps=()
nexamples=0
while read -r name runner m args; do
	[[ $name == example:* ]] || continue
	nexamples=$((nexamples + 1))
	note="waiting for '$m: done'"
	[[ $runner == busy_example ]] && note="on the EMULATED core PMU, under a load"
	steps+=(-e "s|^PFMK-STEP-BEGIN $name\$|# insmod $m.ko seconds=$secs${args:+ $args}   ($note)|")
done <"$g/root/plan.steps"

echo
echo "==== pfmk examples on Linux $rel ($(nproc) host cores, QEMU -smp 2, TCG) ===="
sed -n '/PFMK-STEP-BEGIN insmod:pfmk$/,/PFMK-STEP-END rmmod:pfmk /p' "$log" |
	grep -v -E 'taints kernel|module verification failed|PFMK-STEP-END .* rc=0$' |
	sed -E "${steps[@]}" -e 's/^PFMK-STEP-BEGIN insmod:(.*)$/# insmod \1.ko/' \
		-e 's/^PFMK-STEP-BEGIN emu-run:insmod$/# insmod pfmk_emu_pmu.ko run_hz=1000   (QEMU TCG has no core PMU: an EMULATED one, counting on a timer)/' \
		-e 's/^PFMK-STEP-BEGIN emu-run:rmmod$/# rmmod pfmk_emu_pmu/' \
		-e 's/^PFMK-STEP-BEGIN rmmod:([a-z_]*).*$/# rmmod \1/' \
		-e 's/^PFMK-STEP-END (.*) rc=(.*)$/# FAILED: \1 rc=\2/'
echo "===="
# Every example run of the plan, each without error.
if ((rc)) || [[ $(grep -c 'pfmk_example_[a-z]*: done errors=0' "$log") != "$nexamples" ]]; then
	die "demo failed (qemu rc=$rc); full console log: $log"
fi

# arm64: a real PMU driver.  Debian's arm64 kernel (fetched into the
# cache, scripts/lib.sh arm64_kernel) in qemu-system-aarch64, whose
# emulated PMUv3 Linux's armv8_pmuv3 driver runs; in instruction-count
# mode (one vCPU), where it counts instructions and its cycle counter
# advances once per instruction.  PFMK_DEMO_ARM64=0 leaves it out.
if [[ ${PFMK_DEMO_ARM64:-1} == 1 ]]; then
	dir=$(arm64_kernel "$series") || die "Debian's arm64 $series kernel could not be fetched"
	rel=$(basename "$dir")
	id=demo-debian-arm64-$series
	g=$PFMK_BUILD/guest/$id
	log=$PFMK_LOGS/$id.log
	mkdir -p "$g"
	"$PFMK_ROOT/scripts/build-modules.sh" "$id" "$dir/usr/src/linux-headers-$rel" arm64 ||
		say "$id: module build reported problems, trying to run anyway"
	"$PFMK_ROOT/scripts/mkinitramfs.sh" "$id" demo "$PFMK_BUILD/modules/$id" "$g" arm64 exact
	say "booting Debian $rel (arm64) in QEMU (TCG, instruction counting; console log: $log)"
	rc=0
	PFMK_GUEST_ICOUNT=1 PFMK_GUEST_STDOUT=${PFMK_DEMO_VERBOSE:-0} "$PFMK_ROOT/scripts/run-guest.sh" \
		"$dir/boot/vmlinuz-$rel" "$g/initramfs.cpio.gz" "$log" 240 || rc=$?
	echo
	echo "==== arm64: Linux $rel, QEMU's emulated PMUv3 (the real armv8_pmuv3 driver), instruction counting, one vCPU ===="
	echo "# insmod pfmk_example_count.ko events=cycles,instructions (under a load)"
	sed -n '/PFMK-STEP-BEGIN example:pfmk_example_count@pmu$/,/PFMK-STEP-END/p' "$log" |
		awk '/^pfmk_example_count: CPU / { print "CPU           cycles     instructions    IPC"; next }
		     /^pfmk_example_count: [0-9]+ +[0-9]+ +[0-9]+$/ { printf "%-3s %16s %16s %6.2f\n", $2, $3, $4, $3 ? $4 / $3 : 0; next }
		     /^pfmk_example_count: / { sub(/^pfmk_example_count: /, ""); print }'
	echo "(QEMU's cycle counter advances once per instruction in this mode: IPC 1.00 is its model, not a CPU's)"
	echo "# insmod pfmk_example_sample.ko event=cycles (under a load: top functions by cycles samples)"
	sed -n '/PFMK-STEP-BEGIN example:pfmk_example_sample@cycles$/,/PFMK-STEP-END/p' "$log" |
		sed -n 's/^pfmk_example_sample: //p'
	echo "===="
	if ((rc)) || [[ $(grep -c 'pfmk_example_[a-z]*: done errors=0' "$log") != "$(grep -c '^example:' "$g/root/plan.steps")" ]]; then
		die "arm64 demo failed (qemu rc=$rc); full console log: $log"
	fi
fi
say "demo finished"
exit
}
