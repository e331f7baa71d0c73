#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Create the guest initramfs (busybox + /init + modules + plan) for one kernel.
# /init is scripts/guest-init.sh; this script writes the plan it runs.
#
# usage: scripts/mkinitramfs.sh <kernel-id> <stock|debug|demo|bench> <module-dir> <out-dir> [arm64 [exact] | x86_64 aux]
#
# With "arm64" the plan is the arm64 guests' (Documentation/testing.rst,
# "arm64"): the x86 emulator's steps are left out, the benchmark runs on
# the real PMU in bench mode only (hw=1, make bench), and
# /bin/busybox is Debian's arm64 one.  With "arm64 exact" it is the plan
# of the second arm64 guest, which runs in QEMU's instruction-count mode
# on one vCPU: the real PMU's exact counts and samples, the examples on it
# and, in debug mode, the overflow NMI's suite.  With "x86_64 aux" (bench
# mode only) it is make bench's AUX guest: pfmk_aux_smoke alone, on the
# patched kernel without debug options.
#
# Writes <out-dir>/initramfs.cpio.gz and <out-dir>/plan.json (the list of
# expected steps, used by scripts/results.py to detect missing ones).
#
# Guest protocol (scripts/guest-init.sh): every step prints
# "PFMK-STEP-BEGIN <name>" and "PFMK-STEP-END <name> rc=<n>" through
# /dev/kmsg, so markers are ordered with the kernel's own messages; the plan
# ends with "PFMK-PLAN-DONE".
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

id=${1:?usage}
mode=${2:?usage}
moddir=${3:?usage}
out=${4:?usage}
arch=${5:-x86_64}
plan=${6:-main}
case $arch in
x86_64) BUSYBOX=${PFMK_BUSYBOX:-/bin/busybox} ;;
arm64) BUSYBOX=${PFMK_BUSYBOX_ARM64:-$(arm64_busybox)} ;;
*) die "$id: unknown architecture $arch" ;;
esac
# The manifest's kind of kernel (test-modules/manifest.json): stock or
# debug on x86, arm64-stock or arm64-debug on arm64.
kind=$mode
[[ $arch == x86_64 ]] || kind=$arch-$mode
[[ $plan == main ]] || kind+=-icount
# Whether the kernel carries pfmk's kernel-owned AUX patch: the harness
# applied it (patches/linux-<series>/, scripts/lib.sh) to the debug
# kernels and to make bench's AUX kernel (the aux plan); Debian's kernels
# lack it.  The AUX tests skip on this, never on pfmk_aux_supported(),
# which they check against it (pfmk_test_aux_pmu's aux_patch).
aux_patch=0
if [[ $mode == debug || $plan == aux ]]; then aux_patch=1; fi
[[ -x $BUSYBOX ]] || die "no static busybox at $BUSYBOX (package busybox-static)"

root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,dev,proc,sys,tmp,modules}
cp "$BUSYBOX" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"

# Find a module by name in the build output (any subdirectory).
find_ko() { find "$moddir" -name "$1.ko" -print -quit 2>/dev/null; }

steps_json=()
missing=()
init_steps=()
add_step() { # name kind [missing-module]
	local m=false
	[[ -n ${3:-} ]] && m=true
	steps_json+=("{\"name\": \"$1\", \"kind\": \"$2\", \"missing_module\": $m}")
}
# Emit "run step" lines for /init.
have() {
	local ko
	ko=$(find_ko "$1")
	if [[ -z $ko ]]; then
		missing+=("$1")
		return 1
	fi
	cp "$ko" "$root/modules/"
}
step_insmod() { # module kind [args...]
	local m=$1 kind=$2
	shift 2
	if have "$m"; then
		add_step "insmod:$m" "$kind"
		init_steps+=("insmod:$m insmod /modules/$m.ko $*")
	else
		add_step "insmod:$m" "$kind" missing
	fi
}
step_rmmod() {
	if [[ -n $(find_ko "$1") ]]; then
		add_step "rmmod:$1" rc
		init_steps+=("rmmod:$1 rmmod $1")
	fi
}
# An example (examples/): its step is named example:<module>[@<variant>],
# its arguments follow.  The guest requires "done errors=0"; results.py
# checks what it printed (example_problems()).  EXAMPLE_RUNNER names the
# /init function that runs it (run_example, or busy_example under a load).
step_example() { # module [variant [args...]]
	local m=$1 name=example:$1
	shift
	if (($#)); then
		name+=@$1
		shift
	fi
	if have "$m"; then
		add_step "$name" example
		init_steps+=("$name ${EXAMPLE_RUNNER:-run_example} $m $*")
	else
		add_step "$name" example missing
	fi
}

# The plan of a main guest (every kind; its steps are not indented).
main_plan() {
# kmemleak: boot-time leaks are reported and forgotten before the first
# insmod, so that a leak in any module's init is caught.
if [[ $mode == debug ]]; then
	add_step kmemleak-baseline rc
	init_steps+=("kmemleak-baseline kmemleak_baseline")
fi
step_insmod pfmk rc
step_insmod pfmk_test_pmu rc
# pfmk AUX: the synthetic AUX PMU; its aux_patch tells the AUX tests.
step_insmod pfmk_test_aux_pmu rc aux_patch=$aux_patch
case $mode in
debug)
	kunits=()
	# pfmk_nmi_kunit runs in the exact plan (below).
	while IFS= read -r ko; do kunits+=("$(basename "$ko" .ko)"); done < <(find "$moddir" -name '*_kunit.ko' ! -name pfmk_nmi_kunit.ko | sort)
	if ((${#kunits[@]} == 0)); then
		missing+=("*_kunit")
		add_step "kunit:*_kunit" ktap missing
	fi
	for m in "${kunits[@]}"; do
		step_insmod "$m" ktap
		step_rmmod "$m"
	done
	# pfmk AUX: kernel-owned AUX pages are charged to the memory cgroup
	# of the task that attaches them (kernel patch 0001).
	if have pfmk_aux_memcg; then
		add_step memcg-aux rc
		init_steps+=("memcg-aux memcg_aux")
	else
		add_step memcg-aux rc missing
	fi
	;;
esac
if [[ $mode != demo && $mode != bench ]]; then
	step_insmod pfmk_smoke ktap
	step_rmmod pfmk_smoke
	step_insmod pfmk_client2006 ktap
	step_rmmod pfmk_client2006
	if [[ $arch == x86_64 ]]; then
		# Hardware events on the emulated x86 core PMU (the guests have
		# none), then unloaded: the other steps run without a core PMU.
		step_insmod pfmk_emu_pmu rc
		# The debug kernels carry the test-only perf_event_overflow()
		# export: there the throttling case must run, not skip.
		emu_args=()
		[[ $mode == debug ]] && emu_args=(need_perf_overflow=1)
		step_insmod pfmk_emu_smoke ktap "${emu_args[@]}"
		step_rmmod pfmk_emu_smoke
		step_rmmod pfmk_emu_pmu
	fi
	# KAPI fuzzer (test-modules/pfmk_fuzz_*.c): 200k
	# operations on the x86 debug kernels, 100k on the others.
	# PFMK_FUZZ_STOCK=0 leaves it out on the stock kernels.
	if [[ $mode == debug || ${PFMK_FUZZ_STOCK:-1} == 1 ]]; then
		fuzz_ops=100000
		if [[ $mode == debug ]]; then fuzz_ops=200000; fi
		# The arm64 debug kernel runs it at half the x86 ones' rate:
		# 100k there, since the fuzzer's overflow floor needs that
		# many operations to hold (Documentation/testing.rst, "arm64").
		if [[ $arch == arm64 ]]; then fuzz_ops=100000; fi
		fuzz_seed=$(date +%s)
		# The seed varies per run (printed in the KTAP); the module runs
		# seed 1 as well, single-threaded.  On a kernel with the AUX
		# patch the AUX calls must not give -EOPNOTSUPP.
		step_insmod pfmk_fuzz ktap seed="${PFMK_FUZZ_SEED:-$fuzz_seed}" ops="${PFMK_FUZZ_OPS:-$fuzz_ops}" aux_expected=$aux_patch
		step_rmmod pfmk_fuzz
	fi
	# 50 offline/online cycles of CPU 1 with three contexts loaded on it
	# (test-modules/pfmk_hotplug_stress.c).
	step_insmod pfmk_hotplug_stress ktap
	step_rmmod pfmk_hotplug_stress
	step_insmod pfmk_aux_smoke ktap	# pfmk AUX: aux_patch says what skips
	step_rmmod pfmk_aux_smoke
	# A client module unloading with open contexts: pfmk reclaims them.
	if have pfmk_test_leaky; then
		add_step reclaim rc
		init_steps+=("reclaim reclaim_test")
	else
		add_step reclaim rc missing
	fi
fi
if [[ $mode != bench ]]; then
	step_example pfmk_example_count
	step_rmmod pfmk_example_count
	# Events as strings (pfmk_encode()): a PMU by name in a context of
	# its own (x86's msr PMU; arm64's armv8_pmuv3 driver), a tracepoint
	# among generic events in another.
	if have pfmk_example_count; then
		by_name=msr/tsc/
		[[ $arch == arm64 ]] && by_name=armv8_pmuv3/cpu_cycles/
		step_example pfmk_example_count strings events=$by_name,sched:sched_switch,context-switches,cpu-clock
		add_step rmmod:pfmk_example_count@strings rc
		init_steps+=("rmmod:pfmk_example_count@strings rmmod pfmk_example_count")
	fi
	step_example pfmk_example_sample	# event=cpu-clock, a string too
	step_rmmod pfmk_example_sample
	# Sampling a tracepoint: one sample every second context switch.
	if have pfmk_example_sample; then
		step_example pfmk_example_sample tracepoint event=sched:sched_switch period=2
		add_step rmmod:pfmk_example_sample@tracepoint rc
		init_steps+=("rmmod:pfmk_example_sample@tracepoint rmmod pfmk_example_sample")
	fi
	step_example pfmk_example_sets
	step_rmmod pfmk_example_sets
	step_example pfmk_example_flightrec	# pfmk AUX
	step_rmmod pfmk_example_flightrec
	# Hardware events: the counting and sampling examples on the emulated
	# core PMU running free (run_hz), under a load (busy_example); on
	# arm64 the real PMU's run in the exact plan.
	if [[ $arch == arm64 ]]; then
		:
	elif have pfmk_emu_pmu; then
		add_step emu-run:insmod rc
		init_steps+=("emu-run:insmod insmod /modules/pfmk_emu_pmu.ko run_hz=1000")
		EXAMPLE_RUNNER=busy_example step_example pfmk_example_count hw mode=hw
		add_step rmmod:pfmk_example_count@hw rc
		init_steps+=("rmmod:pfmk_example_count@hw rmmod pfmk_example_count")
		EXAMPLE_RUNNER=busy_example step_example pfmk_example_sample cycles event=cycles
		add_step rmmod:pfmk_example_sample@cycles rc
		init_steps+=("rmmod:pfmk_example_sample@cycles rmmod pfmk_example_sample")
		add_step emu-run:rmmod rc
		init_steps+=("emu-run:rmmod rmmod pfmk_emu_pmu")
	else
		add_step emu-run:insmod rc missing
	fi
fi
if [[ $mode == debug ]] && have pfmk_example_flightrec; then
	# pfmk AUX: unload the flight recorder while it captures.
	add_step "unload-capturing:pfmk_example_flightrec" rc
	init_steps+=("unload-capturing:pfmk_example_flightrec unload_capturing pfmk_example_flightrec")
fi
# Benchmarks (Documentation/performance.rst): a tiny run in make test, the
# full one and the workload runs under perf record in bench mode (make bench).
# PFMK_BENCH_WL_ROUNDS=0 leaves the workload step (and perf) out of a bench
# plan: the micro run alone, as in make bench's instruction-count pass.
bench_tiny="rounds=2 scale_rounds=1 warmup=1 iters=4 ovfls=8 pings=2 max_ctx=2 clock_spin=1 clock_period_us=1000"
bench_args=${PFMK_BENCH_ARGS:-}
bench_env=""
wl_rounds=${PFMK_BENCH_WL_ROUNDS:-4}
bench_wl=true
if [[ $mode == bench ]]; then
	[[ $wl_rounds =~ ^[0-9]+$ ]] || die "PFMK_BENCH_WL_ROUNDS=$wl_rounds: not a number"
	((10#$wl_rounds > 0)) || bench_wl=false
fi
if [[ $arch == x86_64 && ($mode == stock || $mode == debug || $mode == bench) ]]; then
	[[ $mode == bench ]] || bench_args=$bench_tiny
	if have pfmk_bench; then
		add_step bench:pfmk_bench bench
		init_steps+=("bench:pfmk_bench bench_run $bench_args")
		if [[ $mode != bench ]]; then
			add_step bench-workload rc
			init_steps+=("bench-workload bench_run work=1 smpl_hz=1000")
		elif $bench_wl; then
			add_step bench-workload rc
			init_steps+=("bench-workload bench_workload")
		fi
	else
		add_step bench:pfmk_bench bench missing
		if $bench_wl; then
			add_step bench-workload rc missing
		fi
	fi
fi
# make bench's arm64 pass: pfmk_bench on the machine's PMU (hw=1, Linux's
# armv8_pmuv3 driver), run in instruction-count mode; no workload (its
# perf record is the host's amd64 binary).
if [[ $arch == arm64 && $mode == bench ]]; then
	bench_wl=false
	if have pfmk_bench; then
		add_step bench:pfmk_bench bench
		init_steps+=("bench:pfmk_bench bench_run hw=1 $bench_args")
	else
		add_step bench:pfmk_bench bench missing
	fi
fi
if [[ $mode == bench ]] && $bench_wl; then
	# Debian's perf and its shared libraries, at their host paths.
	perf=${PFMK_PERF:-/usr/bin/perf}
	[[ $(head -c4 "$perf" | tail -c3) == ELF ]] || die "$perf is not an ELF binary (package linux-perf)"
	mkdir -p "$root/usr/bin"
	cp "$perf" "$root/usr/bin/perf"
	while IFS= read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done < <(ldd "$perf" | grep -o '/[^ ]*' | sort -u)
	# The workload runs of guest-init.sh's bench_workload.
	bench_env="WL_ROUNDS=$wl_rounds
WL_HZ='${PFMK_BENCH_WL_HZ:-1000 10000}'
WL_WORK=${PFMK_BENCH_WL_WORK:-100}"
fi
if [[ $mode == debug ]]; then
	add_step kmemleak kmemleak
	init_steps+=("kmemleak kmemleak_report")
fi
step_rmmod pfmk_test_aux_pmu	# pfmk AUX
# Tracepoints (core/trace.h) fire with sane fields, in tracefs.
if [[ $mode == stock || $mode == debug ]]; then
	if have pfmk_smoke && have pfmk_example_count && have pfmk_example_sets; then
		add_step tracepoints rc
		init_steps+=("tracepoints trace_test")
	else
		add_step tracepoints rc missing
	fi
fi
# Nothing left behind by all of the above (contexts are freed after RCU).
add_step pfmk-idle rc
init_steps+=("pfmk-idle pfmk_idle")
step_rmmod pfmk_test_pmu
step_rmmod pfmk

# DKMS (Documentation/install.rst): in stock mode, when
# scripts/install-test.sh left the modules dkms built for this kernel in
# build/dkms/<kernel-id>/, put pfmk.ko and pfmk_example_count.ko in /dkms
# and, last, with the build's pfmk unloaded, load both, wait for the
# example's "done" and unload them (dkms_load in scripts/guest-init.sh).
step_dkms_load() {
	local d=$PFMK_BUILD/dkms/$id m
	[[ $mode == stock && $arch == x86_64 && -d $d ]] || return 0
	for m in pfmk pfmk_example_count; do
		if [[ ! -f $d/$m.ko ]]; then
			missing+=("dkms:$m")
			add_step dkms-load rc missing
			return 0
		fi
	done
	mkdir -p "$root/dkms"
	cp "$d/pfmk.ko" "$d/pfmk_example_count.ko" "$root/dkms/"
	add_step dkms-load rc
	init_steps+=("dkms-load dkms_load")
}
step_dkms_load
if [[ $mode == debug ]]; then
	add_step kmemleak-after-unload kmemleak
	init_steps+=("kmemleak-after-unload kmemleak_report")
	# Lockdep turns itself off at its first report: still on at the end.
	add_step lockdep-alive rc
	init_steps+=("lockdep-alive lockdep_alive")
fi

}

# The plan of an arm64 guest in instruction-count mode, one vCPU: the real
# PMU's exact counts and samples (test-modules/pfmk_pmu_exact.c), the
# counting and sampling examples on it, and on the debug kernel the
# overflow NMI's KUnit suite (test-modules/pfmk_kunit_nmi.c); in demo
# mode (make demo) the examples alone.  Lean: every instruction of this
# guest runs on one vCPU, so no kmemleak scans (seconds of guest time
# each; the debug kernel's main plan has them), and the examples by
# name are pfmk_pmu_exact's.
exact_plan() {
	step_insmod pfmk rc
	if [[ $mode != demo ]]; then
		step_insmod pfmk_pmu_exact ktap
		step_rmmod pfmk_pmu_exact
	fi
	if [[ $mode == debug ]]; then
		step_insmod pfmk_nmi_kunit ktap
		step_rmmod pfmk_nmi_kunit
	fi
	# Cycles and instructions, generic and by name, under a load.
	EXAMPLE_RUNNER=busy_example step_example pfmk_example_count pmu events=cycles,instructions
	step_rmmod_as pfmk_example_count pmu
	EXAMPLE_RUNNER=busy_example step_example pfmk_example_sample cycles event=cycles
	step_rmmod_as pfmk_example_sample cycles
	add_step pfmk-idle rc
	init_steps+=("pfmk-idle pfmk_idle")
	step_rmmod pfmk
	if [[ $mode == debug ]]; then
		add_step lockdep-alive rc
		init_steps+=("lockdep-alive lockdep_alive")
	fi
}
# The plan of make bench's AUX guest (scripts/bench.sh): the patched
# kernel without debug options (scripts/debug-kernel.sh --nodebug), where
# pfmk_aux_smoke's aux_copy_throughput_* cases measure pfmk's AUX copy-out
# against memcpy() on a kernel as users run one.
aux_plan() {
	step_insmod pfmk rc
	step_insmod pfmk_test_aux_pmu rc aux_patch=$aux_patch
	# More and longer rounds than make test's, 15 of 32 MiB a side, so
	# that the median ratio holds from one run to the next
	# (Documentation/performance.rst).
	step_insmod pfmk_aux_smoke ktap bench_rounds=15 bench_round_kib=32768
	step_rmmod pfmk_aux_smoke
	step_rmmod pfmk_test_aux_pmu
	step_rmmod pfmk
}
# rmmod of an example's variant: rmmod:<module>@<variant>.
step_rmmod_as() { # module variant
	if [[ -n $(find_ko "$1") ]]; then
		add_step "rmmod:$1@$2" rc
		init_steps+=("rmmod:$1@$2 rmmod $1")
	fi
}

bench_env=""
case $plan in
main) main_plan ;;
exact)
	[[ $arch == arm64 ]] || die "$id: the exact plan is arm64's"
	exact_plan
	;;
aux)
	[[ $mode == bench && $arch == x86_64 ]] || die "$id: the aux plan is x86 make bench's"
	aux_plan
	;;
*) die "$id: unknown plan $plan" ;;
esac

# The exact plan's examples count instructions under icount: 1 s each.
example_seconds=${PFMK_EXAMPLE_SECONDS:-3}
[[ $plan == main ]] || example_seconds=${PFMK_EXAMPLE_SECONDS:-1}
# /init is scripts/guest-init.sh, the same for every plan; what differs
# is data: /plan.env (variables) and /plan.steps (one step a line).
cp "$PFMK_ROOT/scripts/guest-init.sh" "$root/init"
chmod +x "$root/init"
{
	echo "PLAN_ID=$id"
	echo "PLAN_MODE=$mode"
	echo "EXAMPLE_SECONDS=$example_seconds"
	[[ -z $bench_env ]] || echo "$bench_env"
} >"$root/plan.env"
printf '%s\n' "${init_steps[@]}" >"$root/plan.steps"

{
	echo "{"
	echo "  \"kernel\": \"$id\", \"mode\": \"$mode\", \"arch\": \"$arch\", \"kind\": \"$kind\","
	if ((${#missing[@]})); then
		echo "  \"missing_modules\": [$(printf '"%s",' "${missing[@]}" | sed 's/,$//')],"
	else
		echo "  \"missing_modules\": [],"
	fi
	# Skip policy: the cases allowed to skip on this kind of kernel, decided
	# here from what the harness built, never by the modules under test.
	# Debug kernels carry the AUX patch (scripts/lib.sh applied it) and the
	# perf_event_overflow() export; Debian's kernels have neither.  Any
	# other skip fails its row (scripts/results.py).
	# perf detaches a PMU's events at its unregistration from 6.15 on:
	# before, pfmk_dyn_gone's gone_while_loaded* cases have nothing to test.
	# On arm64 the msr PMU (x86's) does not exist: its cases skip.
	# The x86 guests have no core PMU and arm64's PMUv3 counts cycles:
	# pfmk_count's hardware-event cases for the other kind skip.
	gone=""
	series=${id##*-}
	if [[ $(printf '%s\n' "$series" 6.15 | sort -V | head -1) != 6.15 ]]; then
		gone=', "pfmk_dyn_gone": ["gone_while_loaded", "gone_while_loaded_stop", "gone_while_loaded_unload", "gone_while_loaded_unload_keeps", "gone_while_loaded_reload_refused"]'
	fi
	# make bench's AUX guest (the aux plan, aux_patch=1) runs one module,
	# all of whose cases run there but the one for unpatched kernels.
	skips_kind=$kind
	[[ $plan != aux ]] || skips_kind=aux
	case $skips_kind in
	aux)
		echo '  "expected_skips": {"pfmk_aux_smoke": ["aux_unsupported"]},' ;;
	debug)
		echo "  \"expected_skips\": {\"pfmk_aux\": [\"aux_unsupported\"], \"pfmk_aux_smoke\": [\"aux_unsupported\"], \"pfmk_count\": [\"count_hw_event_loads\", \"count_hw_event_loads_state\", \"count_hw_event_loads_counts\", \"count_hw_event_loads_started\"]$gone}," ;;
	arm64-debug)
		echo "  \"expected_skips\": {\"pfmk_aux\": [\"aux_unsupported\"], \"pfmk_aux_smoke\": [\"aux_unsupported\"], \"pfmk_smoke\": [\"encode_msr_tsc\"], \"pfmk_dyn\": [\"dyn_msr_tsc\"], \"pfmk_count\": [\"count_hw_event_refused\", \"count_hw_event_refused_start\", \"count_hw_event_refused_pmd\", \"count_hw_event_refused_removed\", \"count_hw_event_refused_removed_state\", \"count_hw_event_refused_reprogram\", \"count_hw_event_refused_reprogram_state\", \"count_hw_event_refused_counts\", \"count_hw_event_refused_counts_not_pmd1\", \"count_hw_event_refused_counts_started\"]$gone}," ;;
	arm64-*)
		echo '  "expected_skips": {"pfmk_aux_smoke": ["aux_stream", "aux_copy_throughput_4k", "aux_copy_throughput_64k", "aux_copy_throughput_1m"], "pfmk_smoke": ["encode_msr_tsc"]},' ;;
	*)
		echo '  "expected_skips": {"pfmk_aux_smoke": ["aux_stream", "aux_copy_throughput_4k", "aux_copy_throughput_64k", "aux_copy_throughput_1m"], "pfmk_emu_smoke": ["throttle_hw", "throttle_hw_entry_marked", "throttle_hw_unthrottles"]},' ;;
	esac
	echo "  \"steps\": ["
	printf '    %s,\n' "${steps_json[@]}" | sed '$ s/,$//'
	echo "  ]"
	echo "}"
} >"$out/plan.json"

(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet) | gzip -1 >"$out/initramfs.cpio.gz"
if ((${#missing[@]})); then
	say "$id: MISSING expected modules: ${missing[*]}"
fi
say "$id: initramfs with $(find "$root/modules" -name '*.ko' | wc -l) modules, $((${#steps_json[@]})) planned steps"
