#!/usr/bin/env bash
# Create the guest initramfs (busybox + /init + modules + plan) for one kernel.
#
# usage: scripts/mkinitramfs.sh <kernel-id> <stock|debug|demo|bench> <module-dir> <out-dir>
#
# Writes <out-dir>/initramfs.cpio.gz and <out-dir>/plan.json (the list of
# expected steps, used by scripts/results.py to detect missing ones).
#
# Guest protocol: every step prints "PFMK-STEP-BEGIN <name>" and
# "PFMK-STEP-END <name> rc=<n>" through /dev/kmsg, so markers are ordered with
# the kernel's own messages; the plan ends with "PFMK-PLAN-DONE".
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

id=${1:?usage}
mode=${2:?usage}
moddir=${3:?usage}
out=${4:?usage}
BUSYBOX=${PFMK_BUSYBOX:-/bin/busybox}
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
		init_steps+=("step insmod:$m insmod /modules/$m.ko $*")
	else
		add_step "insmod:$m" "$kind" missing
	fi
}
step_rmmod() {
	if [[ -n $(find_ko "$1") ]]; then
		add_step "rmmod:$1" rc
		init_steps+=("step rmmod:$1 rmmod $1")
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
		init_steps+=("step $name ${EXAMPLE_RUNNER:-run_example} $m $*")
	else
		add_step "$name" example missing
	fi
}

# kmemleak: boot-time leaks are reported and forgotten before the first
# insmod, so that a leak in any module's init is caught.
if [[ $mode == debug ]]; then
	add_step kmemleak-baseline rc
	init_steps+=("step kmemleak-baseline kmemleak_baseline")
fi
step_insmod pfmk rc
step_insmod pfmk_test_pmu rc
step_insmod pfmk_test_aux_pmu rc	# pfmk AUX: the synthetic AUX PMU
case $mode in
debug)
	kunits=()
	while IFS= read -r ko; do kunits+=("$(basename "$ko" .ko)"); done < <(find "$moddir" -name '*_kunit.ko' | sort)
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
		init_steps+=("step memcg-aux memcg_aux")
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
	# Hardware events on the emulated x86 core PMU (the guests have
	# none), then unloaded: the other steps run without a core PMU.
	step_insmod pfmk_emu_pmu rc
	# The debug kernels carry the test-only perf_event_overflow() export:
	# there the throttling case must run, not skip.
	emu_args=()
	[[ $mode == debug ]] && emu_args=(need_perf_overflow=1)
	step_insmod pfmk_emu_smoke ktap "${emu_args[@]}"
	step_rmmod pfmk_emu_smoke
	step_rmmod pfmk_emu_pmu
	# KAPI fuzzer (test-modules/pfmk_fuzz.c): 200k
	# operations on the debug kernels, 100k on the stock ones.
	# PFMK_FUZZ_STOCK=0 leaves it out on the stock kernels.
	if [[ $mode == debug || ${PFMK_FUZZ_STOCK:-1} == 1 ]]; then
		fuzz_ops=100000
		if [[ $mode == debug ]]; then fuzz_ops=200000; fi
		fuzz_seed=$(date +%s)
		# The seed varies per run (printed in the KTAP); the module runs
		# seed 1 as well, single-threaded.  The debug kernels have the AUX
		# patch: there the AUX calls must not give -EOPNOTSUPP.
		fuzz_aux=0
		if [[ $mode == debug ]]; then fuzz_aux=1; fi
		step_insmod pfmk_fuzz ktap seed="${PFMK_FUZZ_SEED:-$fuzz_seed}" ops="${PFMK_FUZZ_OPS:-$fuzz_ops}" aux_expected=$fuzz_aux
		step_rmmod pfmk_fuzz
	fi
	# 50 offline/online cycles of CPU 1 with three contexts loaded on it
	# (test-modules/pfmk_hotplug_stress.c).
	step_insmod pfmk_hotplug_stress ktap
	step_rmmod pfmk_hotplug_stress
	step_insmod pfmk_aux_smoke ktap	# pfmk AUX: skips without the patch
	step_rmmod pfmk_aux_smoke
	# A client module unloading with open contexts: pfmk reclaims them.
	if have pfmk_test_leaky; then
		add_step reclaim rc
		init_steps+=("step reclaim reclaim_test")
	else
		add_step reclaim rc missing
	fi
fi
if [[ $mode != bench ]]; then
	step_example pfmk_example_count
	step_rmmod pfmk_example_count
	step_example pfmk_example_sample
	step_rmmod pfmk_example_sample
	step_example pfmk_example_sets
	step_rmmod pfmk_example_sets
	step_example pfmk_example_flightrec	# pfmk AUX
	step_rmmod pfmk_example_flightrec
	# Hardware events: the counting and sampling examples on the emulated
	# core PMU running free (run_hz), under a load (busy_example).
	if have pfmk_emu_pmu; then
		add_step emu-run:insmod rc
		init_steps+=("step emu-run:insmod insmod /modules/pfmk_emu_pmu.ko run_hz=1000")
		EXAMPLE_RUNNER=busy_example step_example pfmk_example_count hw mode=hw
		add_step rmmod:pfmk_example_count@hw rc
		init_steps+=("step rmmod:pfmk_example_count@hw rmmod pfmk_example_count")
		EXAMPLE_RUNNER=busy_example step_example pfmk_example_sample cycles event=cycles
		add_step rmmod:pfmk_example_sample@cycles rc
		init_steps+=("step rmmod:pfmk_example_sample@cycles rmmod pfmk_example_sample")
		add_step emu-run:rmmod rc
		init_steps+=("step emu-run:rmmod rmmod pfmk_emu_pmu")
	else
		add_step emu-run:insmod rc missing
	fi
fi
if [[ $mode == debug ]] && have pfmk_example_flightrec; then
	# pfmk AUX: unload the flight recorder while it captures.
	add_step "unload-capturing:pfmk_example_flightrec" rc
	init_steps+=("step unload-capturing:pfmk_example_flightrec unload_capturing pfmk_example_flightrec")
fi
# Benchmarks (Documentation/performance.rst): a tiny run in make test, the
# full one and the workload runs under perf record in bench mode (make bench).
bench_tiny="rounds=2 scale_rounds=1 warmup=1 iters=4 ovfls=8 pings=2 max_ctx=2 clock_spin=1 clock_period_us=1000"
bench_args=${PFMK_BENCH_ARGS:-}
bench_init=""
if [[ $mode == stock || $mode == debug || $mode == bench ]]; then
	[[ $mode == bench ]] || bench_args=$bench_tiny
	if have pfmk_bench; then
		add_step bench:pfmk_bench bench
		init_steps+=("step bench:pfmk_bench bench_run $bench_args")
		add_step bench-workload rc
		if [[ $mode == bench ]]; then
			init_steps+=("step bench-workload bench_workload")
		else
			init_steps+=("step bench-workload bench_run work=1 smpl_hz=1000")
		fi
	else
		add_step bench:pfmk_bench bench missing
		add_step bench-workload rc missing
	fi
fi
if [[ $mode == bench ]]; then
	# Debian's perf and its shared libraries, at their host paths.
	perf=${PFMK_PERF:-/usr/bin/perf}
	[[ $(head -c4 "$perf" | tail -c3) == ELF ]] || die "$perf is not an ELF binary (package linux-perf)"
	mkdir -p "$root/usr/bin"
	cp "$perf" "$root/usr/bin/perf"
	while IFS= read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done < <(ldd "$perf" | grep -o '/[^ ]*' | sort -u)
	bench_init=$(cat <<EOS
WL_ROUNDS=${PFMK_BENCH_WL_ROUNDS:-4}
WL_HZ="${PFMK_BENCH_WL_HZ:-1000 10000}"
WL_WORK=${PFMK_BENCH_WL_WORK:-100}
# One workload run: its output to the console log, between markers.
wl_run() {
	mark "pfmk-bench: run round=\$1 variant=\$2 hz=\$3"
	shift 3
	"\$@" >/tmp/wl.out 2>&1
	wrc=\$?
	while IFS= read -r l; do mark "pfmk-bench: out: \$l"; done </tmp/wl.out
	rmmod pfmk_bench 2>/dev/null
	rm -f /tmp/perf.data /tmp/wl.out
	mark "pfmk-bench: end rc=\$wrc"
	[ \$wrc = 0 ] || wl_fail=1
}
# Interleaved: no sampling, pfmk, perf record, in reverse order every other
# round (against drift); round 0 is a warm-up.
wl_variant() {
	case \$1 in
	none) wl_run \$r none \$hz insmod /modules/pfmk_bench.ko work=\$WL_WORK ;;
	pfmk) wl_run \$r pfmk \$hz insmod /modules/pfmk_bench.ko work=\$WL_WORK smpl_hz=\$hz ;;
	perf) wl_run \$r perf \$hz /usr/bin/perf record -a -F \$hz -N -o /tmp/perf.data -- \\
		insmod /modules/pfmk_bench.ko work=\$WL_WORK ;;
	esac
}
bench_workload() {
	wl_fail=0
	r=0
	while [ \$r -le \$WL_ROUNDS ]; do
		order="none pfmk perf"
		[ \$((r % 2)) = 1 ] && order="perf pfmk none"
		for hz in \$WL_HZ; do
			for v in \$order; do wl_variant \$v; done
		done
		r=\$((r + 1))
	done
	return \$wl_fail
}
EOS
)
fi
if [[ $mode == debug ]]; then
	add_step kmemleak kmemleak
	init_steps+=("step kmemleak kmemleak_report")
fi
step_rmmod pfmk_test_aux_pmu	# pfmk AUX
# Tracepoints (core/trace.h) fire with sane fields, in tracefs.
if [[ $mode == stock || $mode == debug ]]; then
	if have pfmk_smoke && have pfmk_example_count && have pfmk_example_sets; then
		add_step tracepoints rc
		init_steps+=("step tracepoints trace_test")
	else
		add_step tracepoints rc missing
	fi
fi
# Nothing left behind by all of the above (contexts are freed after RCU).
add_step pfmk-idle rc
init_steps+=("step pfmk-idle pfmk_idle")
step_rmmod pfmk_test_pmu
step_rmmod pfmk

# DKMS (Documentation/install.rst): in stock mode, when
# scripts/install-test.sh left the modules dkms built for this kernel in
# build/dkms/<kernel-id>/, put pfmk.ko and pfmk_example_count.ko in /dkms
# and, last, with the build's pfmk unloaded, load both, wait for the
# example's "done" and unload them.  Self-contained: the step and its /init
# function (dkms_init) are set here only.
dkms_init=""
step_dkms_load() {
	local d=$PFMK_BUILD/dkms/$id m
	[[ $mode == stock && -d $d ]] || return 0
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
	init_steps+=("step dkms-load dkms_load")
	dkms_init=$(cat <<'EOS'
# The DKMS-built pfmk and example load, count, and unload.
dkms_load() {
	dmesg -c >/dev/null
	insmod /dkms/pfmk.ko || return 1
	insmod /dkms/pfmk_example_count.ko seconds=1 || { rmmod pfmk; return 2; }
	i=0
	while ! dmesg | grep -q 'pfmk_example_count: done errors=0$'; do
		i=$((i + 1))
		if [ $i -ge 60 ]; then
			echo "pfmk-init: dkms: no 'pfmk_example_count: done errors=0' within 60 s"
			rmmod pfmk_example_count
			rmmod pfmk
			return 3
		fi
		sleep 1
	done
	rmmod pfmk_example_count || return 4
	rmmod pfmk || return 5
}
EOS
)
}
step_dkms_load
if [[ $mode == debug ]]; then
	add_step kmemleak-after-unload kmemleak
	init_steps+=("step kmemleak-after-unload kmemleak_report")
	# Lockdep turns itself off at its first report: still on at the end.
	add_step lockdep-alive rc
	init_steps+=("step lockdep-alive lockdep_alive")
fi

example_seconds=${PFMK_EXAMPLE_SECONDS:-3}
cat >"$root/init" <<EOF
#!/bin/busybox sh
# Generated by scripts/mkinitramfs.sh for $id ($mode).
/bin/busybox mkdir -p /dev /proc /sys /tmp
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -d /sys/kernel/tracing ] && mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# Report hung tasks well before the host's QEMU timeout, but not a KUnit
# case that is merely slow on a loaded host (insmod waits for each case).
[ -w /proc/sys/kernel/hung_task_timeout_secs ] && echo 120 >/proc/sys/kernel/hung_task_timeout_secs

mark() { echo "\$*" >/dev/kmsg; }
step() {
	name=\$1
	shift
	t0=\$(cut -d' ' -f1 /proc/uptime)
	mark "PFMK-STEP-BEGIN \$name"
	"\$@"
	rc=\$?
	mark "PFMK-STEP-END \$name rc=\$rc"
	echo "pfmk-init: step \$name: \$t0 -> \$(cut -d' ' -f1 /proc/uptime) s uptime" >/dev/kmsg
}
# An example: load it, wait for its "done errors=N", which must say 0.
run_example() {
	m=\$1
	shift
	dmesg -c >/dev/null
	insmod /modules/\$m.ko seconds=$example_seconds "\$@" || return \$?
	i=0
	while [ \$i -lt 60 ]; do
		if dmesg | grep -q "\$m: done"; then
			dmesg | grep -q "\$m: done errors=0\$" && return 0
			echo "pfmk-init: \$m: \$(dmesg | grep "\$m: done")"
			return 3
		fi
		sleep 1
		i=\$((i + 1))
	done
	echo "pfmk-init: \$m did not print '\$m: done' within 60 s"
	return 124
}
# The same under a load: user-space and kernel work on every CPU, so that
# core cycles (which an idle, halted CPU does not count) advance.
busy_example() {
	busy=""
	for c in \$(seq \$(grep -c ^processor /proc/cpuinfo)); do
		dd if=/dev/zero of=/dev/null bs=4k 2>/dev/null &
		busy="\$busy \$!"
	done
	run_example "\$@"
	brc=\$?
	kill \$busy
	wait \$busy 2>/dev/null
	return \$brc
}
# pfmk AUX: load a module that captures, remove it a second later.
unload_capturing() {
	insmod /modules/\$1.ko seconds=60 || return \$?
	sleep 1
	rmmod \$1
}
# pfmk_test_leaky leaves 4 contexts open (2 sampling, started); after its
# rmmod, debugfs must show them reclaimed and nothing of them left.
PSTATS=/sys/kernel/debug/pfmk/stats
pstat() { awk -v k="\$1" '\$1 == k { print \$2 }' \$PSTATS; }
reclaim_test() {
	[ -r \$PSTATS ] || { echo "pfmk-init: no \$PSTATS"; return 2; }
	open0=\$(pstat contexts_open); rec0=\$(pstat contexts_reclaimed)
	ev0=\$(pstat events)
	insmod /modules/pfmk_test_leaky.ko contexts=4 || return 3
	sleep 1
	n=\$(grep -c ' pfmk_test_leaky\$' /sys/kernel/debug/pfmk/contexts)
	cat /sys/kernel/debug/pfmk/contexts
	[ "\$n" = 4 ] || { echo "pfmk-init: reclaim: \$n leaky contexts in debugfs, want 4"; rmmod pfmk_test_leaky; return 4; }
	[ "\$(pstat contexts_open)" = \$((open0 + 4)) ] || { echo "pfmk-init: reclaim: contexts_open not +4"; return 5; }
	rmmod pfmk_test_leaky || return 6
	cat \$PSTATS
	[ "\$(pstat contexts_open)" = "\$open0" ] || { echo "pfmk-init: reclaim: contexts_open \$(pstat contexts_open), want \$open0"; return 7; }
	[ "\$(pstat contexts_reclaimed)" = \$((rec0 + 4)) ] || { echo "pfmk-init: reclaim: contexts_reclaimed not +4"; return 8; }
	[ "\$(pstat events)" = "\$ev0" ] || { echo "pfmk-init: reclaim: events \$(pstat events), want \$ev0"; return 9; }
	grep -c ' pfmk_test_leaky\$' /sys/kernel/debug/pfmk/contexts && return 10
	dmesg | grep -q 'module pfmk_test_leaky unloaded with 4 open context' || { echo "pfmk-init: reclaim: no warning"; return 11; }
	return 0
}
# pfmk AUX: an 8 MiB kernel-owned AUX buffer attached by insmod running in
# a memory cgroup: refused (-ENOMEM) under a 4 MiB memory.max; without a
# limit, memory.current grows by at least 8 MiB while it is held and falls
# back to within 1 MiB of where it was after the rmmod (the pages go after
# an RCU grace period).
CG=/sys/fs/cgroup
cg_insmod() { sh -c "echo \\\$\\\$ >\$CG/pfmk/cgroup.procs && exec insmod /modules/pfmk_aux_memcg.ko \$*"; }
memcg_aux() {
	mount -t cgroup2 cgroup2 \$CG || { echo "pfmk-init: memcg-aux: no cgroup2"; return 2; }
	echo +memory >\$CG/cgroup.subtree_control || return 3
	mkdir -p \$CG/pfmk || return 4
	echo 4M >\$CG/pfmk/memory.max || return 5
	cg_insmod kib=8192 expect=-12 || { echo "pfmk-init: memcg-aux: 8 MiB not refused under memory.max 4M"; return 6; }
	rmmod pfmk_aux_memcg || return 7
	echo max >\$CG/pfmk/memory.max || return 8
	c0=\$(cat \$CG/pfmk/memory.current)
	cg_insmod kib=8192 expect=0 || { echo "pfmk-init: memcg-aux: 8 MiB refused without a limit"; return 9; }
	c1=\$(cat \$CG/pfmk/memory.current)
	rmmod pfmk_aux_memcg || return 10
	sleep 1
	c2=\$(cat \$CG/pfmk/memory.current)
	echo "pfmk-init: memcg-aux: memory.current \$c0 -> \$c1 (buffer held) -> \$c2 (freed)"
	[ \$((c1 - c0)) -ge 8388608 ] || { echo "pfmk-init: memcg-aux: buffer not charged"; return 11; }
	[ \$((c2 - c0)) -lt 1048576 ] || { echo "pfmk-init: memcg-aux: buffer not uncharged"; return 12; }
	return 0
}
TR=/sys/kernel/tracing
# Load a module with seconds=1 and wait for its "<name>: done".
tr_example() {
	dmesg -c >/dev/null
	insmod /modules/\$1.ko seconds=1 || return 1
	i=0
	while [ \$i -lt 30 ]; do
		dmesg | grep -q "\$1: done" && return 0
		sleep 1
		i=\$((i + 1))
	done
	return 1
}
# One pattern of the trace must match: name, extended regexp.
tr_want() {
	n=\$(grep -c -E "\$2" /tmp/trace)
	echo "pfmk-init: tracepoints: \$1: \$n"
	[ "\$n" -gt 0 ] || { echo "pfmk-init: tracepoints: no \$1 ('\$2')"; tr_fail=1; }
}
trace_test() {
	[ -d \$TR/events/pfmk ] || { echo "pfmk-init: no \$TR/events/pfmk"; return 2; }
	echo 0 >\$TR/tracing_on
	echo 8192 >\$TR/buffer_size_kb
	echo >\$TR/trace
	echo 1 >\$TR/events/pfmk/enable
	echo 1 >\$TR/tracing_on
	tr_fail=0
	hp=0
	# Contexts stay loaded on every CPU after "done", until rmmod.
	tr_example pfmk_example_count || tr_fail=1
	if [ -w /sys/devices/system/cpu/cpu1/online ]; then
		echo 0 >/sys/devices/system/cpu/cpu1/online && echo 1 >/sys/devices/system/cpu/cpu1/online && hp=1
		sleep 1
	fi
	rmmod pfmk_example_count
	tr_example pfmk_example_sets || tr_fail=1
	rmmod pfmk_example_sets
	# Last, so that its overflows do not push the above out of the buffer.
	insmod /modules/pfmk_smoke.ko >/dev/null || tr_fail=1
	rmmod pfmk_smoke
	echo 0 >\$TR/tracing_on
	echo 0 >\$TR/events/pfmk/enable
	cat \$TR/trace >/tmp/trace
	X='ctx=0x[0-9a-f]+'
	tr_want load "pfmk_state: \$X cpu=[0-9]+ op=load state=0x2\$"
	tr_want start "pfmk_state: \$X cpu=[0-9]+ op=start state=0x102\$"
	tr_want stop "pfmk_state: \$X cpu=[0-9]+ op=stop state=0x2\$"
	tr_want unload "pfmk_state: \$X cpu=-1 op=unload state=0x1\$"
	tr_want close "pfmk_state: \$X cpu=-1 op=close state=0x1\$"
	tr_want restart "pfmk_state: \$X cpu=[0-9]+ op=restart state=0x[0-9a-f]+\$"
	tr_want overflow "pfmk_overflow: \$X pmd=[0-9]+ set=0 masked=0 notify=[01] full=[01]\$"
	tr_want overflow-notify "pfmk_overflow: \$X pmd=[0-9]+ set=[0-9]+ masked=0 notify=1 "
	tr_want msg-ovfl "pfmk_msg: \$X type=0x1 queued=1\$"
	tr_want set_switch "pfmk_set_switch: \$X from=[0-9]+ to=[0-9]+ latency_ns=[0-9]+\$"
	if [ \$hp = 1 ]; then
		tr_want hotplug-offline "pfmk_hotplug: \$X cpu=1 offline err=0\$"
		tr_want hotplug-rearm "pfmk_hotplug: \$X cpu=1 rearm err=0\$"
		tr_want msg-cpu "pfmk_msg: \$X type=0x10[01] queued=1\$"
	fi
	[ \$tr_fail = 0 ] || { grep -m 20 pfmk_ /tmp/trace; return 3; }
	return 0
}
pfmk_idle() {
	[ -r \$PSTATS ] || { echo "pfmk-init: no \$PSTATS"; return 2; }
	sleep 1
	cat \$PSTATS
	for k in contexts_alive contexts_open events smpl_bytes mem_bytes; do
		[ "\$(pstat \$k)" = 0 ] || { echo "pfmk-init: pfmk not idle: \$k = \$(pstat \$k)"; return 3; }
	done
	return 0
}
# Load pfmk_bench with the arguments given, then unload it.
bench_run() {
	insmod /modules/pfmk_bench.ko "\$@" || return \$?
	rmmod pfmk_bench
}
$bench_init
$dkms_init
KML=/sys/kernel/debug/kmemleak
# Boot-time leaks (e.g. 6.1's ACPI error path in the tiny debug kernel) are
# not ours: report them (as "kmemleak-baseline:" lines, which the host does
# not count) and forget them before loading anything. Two scans 6 s apart,
# as kmemleak only reports objects older than 5 s. A scan that cannot run
# (no kmemleak, or kmemleak disabled itself) fails the step.
kmemleak_baseline() {
	[ -w \$KML ] || { echo "pfmk-init: no \$KML"; return 2; }
	echo scan >\$KML || { echo "pfmk-init: kmemleak scan refused (disabled?)"; return 3; }
	sleep 6
	echo scan >\$KML || return 3
	cat \$KML >/tmp/kmemleak
	n=\$(grep -c '^unreferenced object' /tmp/kmemleak)
	while IFS= read -r l; do echo "kmemleak-baseline: \$l" >/dev/kmsg; done </tmp/kmemleak
	echo "pfmk-init: kmemleak baseline: \$n boot-time leak(s) reported above, cleared" >/dev/kmsg
	echo clear >\$KML || return 4
}
kmemleak_report() {
	[ -w \$KML ] || { echo "pfmk-init: no \$KML"; return 2; }
	echo scan >\$KML || { echo "pfmk-init: kmemleak scan refused (disabled?)"; return 3; }
	sleep 6
	echo scan >\$KML || return 3
	cat \$KML >/tmp/kmemleak
	while IFS= read -r l; do echo "kmemleak-report: \$l" >/dev/kmsg; done </tmp/kmemleak
	echo clear >\$KML
	# Leaks are counted from the "unreferenced object" lines by the host.
	return 0
}

lockdep_alive() {
	[ -r /proc/lockdep_stats ] || { echo "pfmk-init: no /proc/lockdep_stats"; return 2; }
	grep -E '^ *debug_locks: +1\$' /proc/lockdep_stats && return 0
	echo "pfmk-init: lockdep is off (debug_locks 0): it reported something and stopped"
	return 1
}

mark "PFMK-PLAN-BEGIN $id $mode \$(uname -r)"
$(printf '%s\n' "${init_steps[@]}")
mark "PFMK-PLAN-DONE"
reboot -f
sleep 5
EOF
chmod +x "$root/init"

{
	echo "{"
	echo "  \"kernel\": \"$id\", \"mode\": \"$mode\","
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
	if [[ $mode == debug ]]; then
		echo '  "expected_skips": {"pfmk_aux": ["aux_unsupported"], "pfmk_aux_smoke": ["aux_unsupported"]},'
	else
		echo '  "expected_skips": {"pfmk_aux_smoke": ["aux_stream", "aux_copy_throughput"], "pfmk_emu_smoke": ["throttle_hw"]},'
	fi
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
