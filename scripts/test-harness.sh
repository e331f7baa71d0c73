#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The harness's own tests: scripts/run-guest.sh's watchdog against a
# scripted fake QEMU (PFMK_QEMU_BIN), on the host, in about 40 seconds.
#
# usage: scripts/test-harness.sh [results-dir]
#
# Each case runs the watchdog with a stall limit of STALL seconds over a
# fake guest that prints step marks as scripts/guest-init.sh does, and
# checks its verdict: a guest slower in total than the limit but making
# progress is left alone; a guest whose step stops making progress is
# killed, whether it hangs silent or keeps printing, and the log says
# which step ran, for how long, and whether the console still moved; an
# arm64 image gets the arm64 machine and the same watchdog.
# With a results directory, writes one row per case there
# (harness-watchdog.json); exits non-zero if a case failed.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out=${1:-}
S=$PFMK_ROOT/scripts
STALL=4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pfmk-harness.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The fake QEMU: writes its pid to the -pidfile argument, then plays the
# scenario named by FAKE_GUEST (each mark as guest-init.sh prints it).
cat >"$tmp/fake-qemu" <<'EOF'
#!/usr/bin/env bash
echo "FAKE-ARGS: $*"
while (($#)); do
	[[ $1 == -pidfile ]] && echo $$ >"$2"
	shift
done
mark() { echo "PFMK-STEP-$1"; }
case $FAKE_GUEST in
slow)	# six steps of 2 s: 12 s in all, three times the stall limit
	for i in 1 2 3 4 5 6; do mark "BEGIN s$i"; sleep 2; mark "END s$i rc=0"; done
	echo PFMK-PLAN-DONE ;;
ktap)	# one KUnit step of 12 s whose cases end every 2 s
	mark "BEGIN insmod:pfmk_x_kunit"
	for i in 1 2 3 4 5 6; do sleep 2; echo "    ok $i case_$i"; done
	mark "END insmod:pfmk_x_kunit rc=0"
	echo PFMK-PLAN-DONE ;;
silent)	# hangs inside its second step, printing nothing
	mark "BEGIN first"; mark "END first rc=0"; mark "BEGIN tracepoints"
	exec sleep 1000 ;;
printing) # hangs inside a step while the kernel keeps printing
	mark "BEGIN fuzz"
	while :; do echo "rcu: INFO: rcu_preempt self-detected stall"; sleep 0.5; done ;;
boot)	# never reaches /init
	exec sleep 1000 ;;
esac
EOF
chmod +x "$tmp/fake-qemu"

passed=0 failed=0
rows=()
# args: case expected-rc pattern-expected-in-log pattern-not-expected
#       [kernel-image [scenario [second-pattern-expected]]]
check() {
	local name=$1 want=$2 pat=$3 nopat=$4 image=${5:-/dev/null} rc=0 log=$tmp/$1.log why=""
	local scenario=${6:-$1} pat2=${7:-} t=$SECONDS
	FAKE_GUEST=$scenario PFMK_QEMU_BIN=$tmp/fake-qemu PFMK_WATCH_POLL=1 PFMK_QEMU_ACCEL=tcg \
		"$S/run-guest.sh" "$image" /dev/null "$log" "$STALL" >/dev/null 2>&1 || rc=$?
	if ((rc != want)); then
		why="rc=$rc, expected $want"
	elif [[ -n $pat ]] && ! grep -qE "$pat" "$log"; then
		why="no line matching '$pat' in the log"
	elif [[ -n $pat2 ]] && ! grep -qE -e "$pat2" "$log"; then
		why="no line matching '$pat2' in the log"
	elif [[ -n $nopat ]] && grep -qE "$nopat" "$log"; then
		why="a line matching '$nopat' in the log"
	fi
	if [[ -z $why ]]; then
		passed=$((passed + 1))
		say "harness: watchdog $name: ok ($((SECONDS - t))s)"
		rows+=("$name" 1 0 "")
	else
		failed=$((failed + 1))
		say "harness: watchdog $name: FAILED: $why"
		sed 's/^/    /' "$log" | tail -n 5 >&2
		rows+=("$name" 0 1 "$why")
	fi
}

check slow 0 'PFMK-PLAN-DONE' 'QEMU killed'
check ktap 0 'PFMK-PLAN-DONE' 'QEMU killed'
check silent 124 "QEMU killed: no step began or ended for [0-9]+s \\(stall limit ${STALL}s\\); step tracepoints had run [0-9]+s; the console was silent" ''
check printing 124 'QEMU killed: .*step fuzz had run [0-9]+s; the console was still printing' ''
check boot 124 'QEMU killed: .*step booting had run' ''
# An arm64 Image (its header's magic at offset 56): QEMU's virt machine,
# killed by the same watchdog when it hangs.
printf 'ARM\x64' | dd of="$tmp/Image" bs=1 seek=56 conv=notrunc status=none
check arm64 124 "QEMU killed: no step began or ended for [0-9]+s \\(stall limit ${STALL}s\\); step tracepoints had run" '' \
	"$tmp/Image" silent '^FAKE-ARGS: -M virt,gic-version=3 -cpu max,pauth-impdef=on .*console=ttyAMA0'

if [[ -n $out ]]; then
	for ((i = 0; i < ${#rows[@]}; i += 4)); do
		python3 "$S/results.py" row "$out/harness-${rows[i]}.json" host "watchdog: ${rows[i]}" \
			"${rows[i + 1]}" "${rows[i + 2]}" 0 0 ${rows[i + 3]:+"${rows[i + 3]}"}
	done
fi
((failed == 0))
exit
}
