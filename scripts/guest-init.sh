#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The guest's /init (busybox sh), the same file for every kernel and plan.
#
# scripts/mkinitramfs.sh copies it into the initramfs with two data files:
#   /plan.env    variables: PLAN_ID, PLAN_MODE, EXAMPLE_SECONDS and, for
#                make bench, WL_ROUNDS, WL_HZ, WL_WORK;
#   /plan.steps  the plan's steps in order, one per line: the step's name,
#                then the command (a function below or a program) and its
#                arguments, split at blanks (no argument holds one).
# Every step prints "PFMK-STEP-BEGIN <name>" and "PFMK-STEP-END <name>
# rc=<n>" through /dev/kmsg, ordered with the kernel's own messages; the
# plan ends with "PFMK-PLAN-DONE" (scripts/results.py reads them).
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

mark() { echo "$*" >/dev/kmsg; }
step() {
	name=$1
	shift
	t0=$(cut -d' ' -f1 /proc/uptime)
	mark "PFMK-STEP-BEGIN $name"
	"$@"
	rc=$?
	mark "PFMK-STEP-END $name rc=$rc"
	echo "pfmk-init: step $name: $t0 -> $(cut -d' ' -f1 /proc/uptime) s uptime" >/dev/kmsg
}
# An example: load it, wait for its "done errors=N", which must say 0.
run_example() {
	m=$1
	shift
	dmesg -c >/dev/null
	insmod "/modules/$m.ko" seconds="$EXAMPLE_SECONDS" "$@" || return $?
	i=0
	while [ $i -lt 60 ]; do
		if dmesg | grep -q "$m: done"; then
			dmesg | grep -q "$m: done errors=0$" && return 0
			echo "pfmk-init: $m: $(dmesg | grep "$m: done")"
			return 3
		fi
		sleep 1
		i=$((i + 1))
	done
	echo "pfmk-init: $m did not print '$m: done' within 60 s"
	return 124
}
# The same under a load: user-space and kernel work on every CPU, so that
# core cycles (which an idle, halted CPU does not count) advance.
busy_example() {
	busy=""
	for _ in $(seq "$(grep -c ^processor /proc/cpuinfo)"); do
		dd if=/dev/zero of=/dev/null bs=4k 2>/dev/null &
		busy="$busy $!"
	done
	run_example "$@"
	brc=$?
	# shellcheck disable=SC2086 # a list of PIDs
	kill $busy
	# shellcheck disable=SC2086
	wait $busy 2>/dev/null
	return $brc
}
# pfmk AUX: load a module that captures, remove it a second later.
unload_capturing() {
	insmod "/modules/$1.ko" seconds=60 || return $?
	sleep 1
	rmmod "$1"
}
# pfmk_test_leaky leaves 4 contexts open (2 sampling, started); after its
# rmmod, debugfs must show them reclaimed and nothing of them left.
PSTATS=/sys/kernel/debug/pfmk/stats
pstat() { awk -v k="$1" '$1 == k { print $2 }' $PSTATS; }
reclaim_test() {
	[ -r $PSTATS ] || { echo "pfmk-init: no $PSTATS"; return 2; }
	open0=$(pstat contexts_open); rec0=$(pstat contexts_reclaimed)
	ev0=$(pstat events)
	insmod /modules/pfmk_test_leaky.ko contexts=4 || return 3
	sleep 1
	n=$(grep -c ' pfmk_test_leaky$' /sys/kernel/debug/pfmk/contexts)
	cat /sys/kernel/debug/pfmk/contexts
	[ "$n" = 4 ] || { echo "pfmk-init: reclaim: $n leaky contexts in debugfs, want 4"; rmmod pfmk_test_leaky; return 4; }
	[ "$(pstat contexts_open)" = $((open0 + 4)) ] || { echo "pfmk-init: reclaim: contexts_open not +4"; return 5; }
	rmmod pfmk_test_leaky || return 6
	cat $PSTATS
	[ "$(pstat contexts_open)" = "$open0" ] || { echo "pfmk-init: reclaim: contexts_open $(pstat contexts_open), want $open0"; return 7; }
	[ "$(pstat contexts_reclaimed)" = $((rec0 + 4)) ] || { echo "pfmk-init: reclaim: contexts_reclaimed not +4"; return 8; }
	[ "$(pstat events)" = "$ev0" ] || { echo "pfmk-init: reclaim: events $(pstat events), want $ev0"; return 9; }
	grep -c ' pfmk_test_leaky$' /sys/kernel/debug/pfmk/contexts && return 10
	dmesg | grep -q 'module pfmk_test_leaky unloaded with 4 open context' || { echo "pfmk-init: reclaim: no warning"; return 11; }
	return 0
}
# pfmk AUX: an 8 MiB kernel-owned AUX buffer attached by insmod running in
# a memory cgroup: refused (-ENOMEM) under a 4 MiB memory.max; without a
# limit, memory.current grows by at least 8 MiB while it is held and falls
# back to within 1 MiB of where it was after the rmmod (the pages go after
# an RCU grace period).
CG=/sys/fs/cgroup
cg_insmod() { sh -c "echo \$\$ >$CG/pfmk/cgroup.procs && exec insmod /modules/pfmk_aux_memcg.ko $*"; }
memcg_aux() {
	mount -t cgroup2 cgroup2 $CG || { echo "pfmk-init: memcg-aux: no cgroup2"; return 2; }
	echo +memory >$CG/cgroup.subtree_control || return 3
	mkdir -p $CG/pfmk || return 4
	echo 4M >$CG/pfmk/memory.max || return 5
	cg_insmod kib=8192 expect=-12 || { echo "pfmk-init: memcg-aux: 8 MiB not refused under memory.max 4M"; return 6; }
	rmmod pfmk_aux_memcg || return 7
	echo max >$CG/pfmk/memory.max || return 8
	c0=$(cat $CG/pfmk/memory.current)
	cg_insmod kib=8192 expect=0 || { echo "pfmk-init: memcg-aux: 8 MiB refused without a limit"; return 9; }
	c1=$(cat $CG/pfmk/memory.current)
	rmmod pfmk_aux_memcg || return 10
	sleep 1
	c2=$(cat $CG/pfmk/memory.current)
	echo "pfmk-init: memcg-aux: memory.current $c0 -> $c1 (buffer held) -> $c2 (freed)"
	[ $((c1 - c0)) -ge 8388608 ] || { echo "pfmk-init: memcg-aux: buffer not charged"; return 11; }
	[ $((c2 - c0)) -lt 1048576 ] || { echo "pfmk-init: memcg-aux: buffer not uncharged"; return 12; }
	return 0
}
TR=/sys/kernel/tracing
# Load a module with seconds=1 and wait for its "<name>: done".
tr_example() {
	dmesg -c >/dev/null
	insmod "/modules/$1.ko" seconds=1 || return 1
	i=0
	while [ $i -lt 30 ]; do
		dmesg | grep -q "$1: done" && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}
# One pattern of the trace must match: name, extended regexp.
tr_want() {
	n=$(grep -c -E "$2" /tmp/trace)
	echo "pfmk-init: tracepoints: $1: $n"
	[ "$n" -gt 0 ] || { echo "pfmk-init: tracepoints: no $1 ('$2')"; tr_fail=1; }
}
trace_test() {
	[ -d $TR/events/pfmk ] || { echo "pfmk-init: no $TR/events/pfmk"; return 2; }
	echo 0 >$TR/tracing_on
	echo 8192 >$TR/buffer_size_kb
	echo >$TR/trace
	echo 1 >$TR/events/pfmk/enable
	echo 1 >$TR/tracing_on
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
	echo 0 >$TR/tracing_on
	echo 0 >$TR/events/pfmk/enable
	cat $TR/trace >/tmp/trace
	X='ctx=0x[0-9a-f]+'
	tr_want load "pfmk_state: $X cpu=[0-9]+ op=load state=0x2$"
	tr_want start "pfmk_state: $X cpu=[0-9]+ op=start state=0x102$"
	tr_want stop "pfmk_state: $X cpu=[0-9]+ op=stop state=0x2$"
	tr_want unload "pfmk_state: $X cpu=-1 op=unload state=0x1$"
	tr_want close "pfmk_state: $X cpu=-1 op=close state=0x1$"
	tr_want restart "pfmk_state: $X cpu=[0-9]+ op=restart state=0x[0-9a-f]+$"
	tr_want overflow "pfmk_overflow: $X pmd=[0-9]+ set=0 masked=0 notify=[01] full=[01]$"
	tr_want overflow-notify "pfmk_overflow: $X pmd=[0-9]+ set=[0-9]+ masked=0 notify=1 "
	tr_want msg-ovfl "pfmk_msg: $X type=0x1 queued=1$"
	tr_want set_switch "pfmk_set_switch: $X from=[0-9]+ to=[0-9]+ latency_ns=[0-9]+$"
	if [ $hp = 1 ]; then
		tr_want hotplug-offline "pfmk_hotplug: $X cpu=1 offline err=0$"
		tr_want hotplug-rearm "pfmk_hotplug: $X cpu=1 rearm err=0$"
		tr_want msg-cpu "pfmk_msg: $X type=0x10[01] queued=1$"
	fi
	[ $tr_fail = 0 ] || { grep -m 20 pfmk_ /tmp/trace; return 3; }
	return 0
}
pfmk_idle() {
	[ -r $PSTATS ] || { echo "pfmk-init: no $PSTATS"; return 2; }
	sleep 1
	cat $PSTATS
	for k in contexts_alive contexts_open events smpl_bytes mem_bytes; do
		[ "$(pstat $k)" = 0 ] || { echo "pfmk-init: pfmk not idle: $k = $(pstat $k)"; return 3; }
	done
	return 0
}
# Load pfmk_bench with the arguments given, then unload it.
bench_run() {
	insmod /modules/pfmk_bench.ko "$@" || return $?
	rmmod pfmk_bench
}
# make bench: the workload runs under perf record (Documentation/performance.rst).
# One workload run: its output to the console log, between markers.
wl_run() {
	mark "pfmk-bench: run round=$1 variant=$2 hz=$3"
	shift 3
	"$@" >/tmp/wl.out 2>&1
	wrc=$?
	while IFS= read -r l; do mark "pfmk-bench: out: $l"; done </tmp/wl.out
	rmmod pfmk_bench 2>/dev/null
	rm -f /tmp/perf.data /tmp/wl.out
	mark "pfmk-bench: end rc=$wrc"
	[ $wrc = 0 ] || wl_fail=1
}
# Interleaved: no sampling, pfmk, perf record (frequency mode, then at
# pfmk's fixed period), the floor (raw events whose handler only counts),
# in reverse order every other round (against drift); round 0 is a warm-up.
wl_variant() {
	case $1 in
	none) wl_run "$r" none "$hz" insmod /modules/pfmk_bench.ko work="$WL_WORK" ;;
	pfmk) wl_run "$r" pfmk "$hz" insmod /modules/pfmk_bench.ko work="$WL_WORK" smpl_hz="$hz" ;;
	perf) wl_run "$r" perf "$hz" /usr/bin/perf record -a -F "$hz" -N -o /tmp/perf.data -- \
		insmod /modules/pfmk_bench.ko work="$WL_WORK" ;;
	perfc) wl_run "$r" perfc "$hz" /usr/bin/perf record -a -e cpu-clock \
		-c $((1000000000 / hz)) -N -o /tmp/perf.data -- \
		insmod /modules/pfmk_bench.ko work="$WL_WORK" ;;
	raw) wl_run "$r" raw "$hz" insmod /modules/pfmk_bench.ko work="$WL_WORK" raw_hz="$hz" ;;
	esac
}
bench_workload() {
	wl_fail=0
	# WL_ROUNDS measured rounds after the warm-up; 0: no run at all, not
	# even the warm-up (mkinitramfs.sh then leaves this step out).
	[ "$WL_ROUNDS" -gt 0 ] || return 0
	r=0
	while [ $r -le "$WL_ROUNDS" ]; do
		order="none pfmk perf perfc raw"
		[ $((r % 2)) = 1 ] && order="raw perfc perf pfmk none"
		for hz in $WL_HZ; do
			for v in $order; do wl_variant "$v"; done
		done
		r=$((r + 1))
	done
	return $wl_fail
}
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
KML=/sys/kernel/debug/kmemleak
# Boot-time leaks (e.g. 6.1's ACPI error path in the tiny debug kernel) are
# not ours: report them (as "kmemleak-baseline:" lines, which the host does
# not count) and forget them before loading anything. Two scans 6 s apart,
# as kmemleak only reports objects older than 5 s. A scan that cannot run
# (no kmemleak, or kmemleak disabled itself) fails the step.
kmemleak_baseline() {
	[ -w $KML ] || { echo "pfmk-init: no $KML"; return 2; }
	echo scan >$KML || { echo "pfmk-init: kmemleak scan refused (disabled?)"; return 3; }
	sleep 6
	echo scan >$KML || return 3
	cat $KML >/tmp/kmemleak
	n=$(grep -c '^unreferenced object' /tmp/kmemleak)
	while IFS= read -r l; do echo "kmemleak-baseline: $l" >/dev/kmsg; done </tmp/kmemleak
	echo "pfmk-init: kmemleak baseline: $n boot-time leak(s) reported above, cleared" >/dev/kmsg
	echo clear >$KML || return 4
}
kmemleak_report() {
	[ -w $KML ] || { echo "pfmk-init: no $KML"; return 2; }
	echo scan >$KML || { echo "pfmk-init: kmemleak scan refused (disabled?)"; return 3; }
	sleep 6
	echo scan >$KML || return 3
	cat $KML >/tmp/kmemleak
	while IFS= read -r l; do echo "kmemleak-report: $l" >/dev/kmsg; done </tmp/kmemleak
	echo clear >$KML
	# Leaks are counted from the "unreferenced object" lines by the host.
	return 0
}

# Post-mortem (scripts/postmortem.py).  pm_pstore, first: with a record
# of pfmk's crash summary in pstore this is the boot after the crash,
# which prints the records between markers and powers off.
pm_pstore() {
	mkdir -p /sys/fs/pstore
	mount -t pstore pstore /sys/fs/pstore || return 2
	grep -qs 'pfmk-crash: begin' /sys/fs/pstore/dmesg-* || return 0
	for f in /sys/fs/pstore/dmesg-*; do
		mark "PFMK-PSTORE-FILE $f"
		cat "$f"
		echo "PFMK-PSTORE-FILE-END $f"
	done
	mark "PFMK-PSTORE-DONE"
	poweroff -f
}
# pm_dump <what>: ask the host for a memory dump, wait until it is done
# (a line on the second serial port).
pm_dump() {
	mark "PFMK-PM-DUMP $1"
	read -r ack </dev/ttyS1
	echo "pfmk-init: host: $ack"
}
# pm_crash: an oops in pfmk_postmortem's parameter write, made a panic.
pm_crash() {
	echo 1 >/proc/sys/kernel/panic_on_oops
	echo oops >/sys/module/pfmk_postmortem/parameters/crash
}

lockdep_alive() {
	[ -r /proc/lockdep_stats ] || { echo "pfmk-init: no /proc/lockdep_stats"; return 2; }
	grep -E '^ *debug_locks: +1$' /proc/lockdep_stats && return 0
	echo "pfmk-init: lockdep is off (debug_locks 0): it reported something and stopped"
	return 1
}

# shellcheck source=/dev/null
. /plan.env
mark "PFMK-PLAN-BEGIN $PLAN_ID $PLAN_MODE $(uname -r)"
# Steps read on fd 3: a step's own commands keep the console as stdin.
while read -r name cmd <&3; do
	# shellcheck disable=SC2086 # the command and its arguments, split
	step "$name" $cmd
done 3</plan.steps
mark "PFMK-PLAN-DONE"
reboot -f
sleep 5