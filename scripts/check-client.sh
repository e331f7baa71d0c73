#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Tests of pfmk's Coccinelle rules for its clients (coccinelle/pfmk_*.cocci,
# run by scripts/pfmk-check.sh); scripts/check.sh runs it and makes one
# row of each findings file it writes, build/logs/check-<row>.log.findings
# (empty: the row passes).
#
# usage: scripts/check-client.sh [kdir]
#
#   client-<rule>  the rule's fixture client coccinelle/tests/<rule>.c gives
#                  exactly the findings its "expect: pfmk_<rule>" comments
#                  mark (file, line and rule; any rule may be marked), its
#                  corrected twin <rule>_fixed.c none
#   client-pfmk    pfmk's own clients (examples/, test-modules/,
#                  scripts/install-client/) give none
#   client-sparse  pfmk-check.sh with sparse against kdir (default: the
#                  newest Debian PFMK_CHECK_STOCK_SERIES headers) with a kit
#                  of pfmk's headers and client.kbuild: on a scratch client
#                  of the fixed twins, exit 0 and no output; on one of
#                  unchecked_ret.c, exit 1 and the compiler's
#                  -Wunused-result at each marked line
#
# Log: build/logs/check-client.log.  Exits non-zero on any finding.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kdir=${1:-}
if [[ -z $kdir ]]; then
	rel=$(stock_kernel_release "${PFMK_CHECK_STOCK_SERIES:-6.12}") ||
		die "no Debian ${PFMK_CHECK_STOCK_SERIES:-6.12} kernel headers installed"
	kdir=$(stock_kernel_kdir "$rel")
fi
mkdir -p "$PFMK_LOGS"
cl_dir=$PFMK_BUILD/check/client
cl_log=$PFMK_LOGS/check-client.log
rm -rf "$cl_dir"
mkdir -p "$cl_dir"
cl_rc=0
(cd "$PFMK_MODSRC" && "$PFMK_ROOT/scripts/pfmk-check.sh" --no-sparse -j "$PFMK_JOBS" \
	coccinelle/tests examples test-modules scripts/install-client) >"$cl_dir/all.out" 2>"$cl_log" || cl_rc=$?
cat "$cl_dir/all.out" >>"$cl_log"
# "file:line [rule]" of each finding.
sed -E 's/^([^ :]+):([0-9]+):.* \[(pfmk_[a-z_]+)\]$/\1:\2 [\3]/' "$cl_dir/all.out" | LC_ALL=C sort -u >"$cl_dir/got"
client_tools=()
mapfile -t cl_rules < <(cd "$PFMK_MODSRC/coccinelle" && find . -maxdepth 1 -name 'pfmk_*.cocci' -printf '%f\n' |
	sed 's/^pfmk_//; s/\.cocci$//' | LC_ALL=C sort)
for rule in "${cl_rules[@]}"; do
	tool=client-$rule
	client_tools+=("$tool")
	f=$PFMK_LOGS/check-$tool.log.findings
	: >"$f"
	fx=coccinelle/tests/$rule.c
	for x in "$fx" "${fx%.c}_fixed.c"; do
		[[ -f $PFMK_MODSRC/$x ]] || echo "no fixture $x" >>"$f"
	done
	if ((cl_rc > 1)); then
		echo "pfmk-check.sh could not run (rc=$cl_rc), see $cl_log" >>"$f"
		continue
	fi
	# Lines marked in the fixture, and findings in the fixture pair.
	grep -n -o 'expect: pfmk_[a-z_]*' "$PFMK_MODSRC/$fx" 2>/dev/null |
		sed -E "s|^([0-9]+):expect: (.*)$|$fx:\1 [\2]|" | LC_ALL=C sort -u >"$cl_dir/$rule.want" || true
	grep -E "^coccinelle/tests/${rule}(_fixed)?\.c:" "$cl_dir/got" >"$cl_dir/$rule.got" || true
	LC_ALL=C comm -23 "$cl_dir/$rule.want" "$cl_dir/$rule.got" | sed 's/^/missing: /' >>"$f"
	LC_ALL=C comm -13 "$cl_dir/$rule.want" "$cl_dir/$rule.got" | sed 's/^/unexpected: /' >>"$f"
	[[ -s $cl_dir/$rule.want ]] || echo "$fx marks no expected finding" >>"$f"
	say "check-client: $tool: $(grep -c . "$cl_dir/$rule.want" || true) finding(s) expected in $fx"
done
# Findings of the rules in pfmk's own clients.
client_tools+=(client-pfmk)
f=$PFMK_LOGS/check-client-pfmk.log.findings
grep -v '^coccinelle/tests/' "$cl_dir/all.out" >"$f" || true
if ((cl_rc > 1)); then
	echo "pfmk-check.sh could not run (rc=$cl_rc), see $cl_log" >>"$f"
fi
# End to end, with sparse: a kit without Module.symvers (modpost warns).
client_tools+=(client-sparse)
f=$PFMK_LOGS/check-client-sparse.log.findings
: >"$f"
mkdir -p "$cl_dir/kit" "$cl_dir/fixed" "$cl_dir/bad"
cp -a "$PFMK_MODSRC/include" "$PFMK_MODSRC/client.kbuild" "$cl_dir/kit/"
cp "$PFMK_MODSRC"/coccinelle/tests/{Kbuild,*_fixed.c} "$cl_dir/fixed/"
cp "$PFMK_MODSRC"/coccinelle/tests/{Kbuild,unchecked_ret.c} "$cl_dir/bad/"
for c in fixed bad; do
	r=0
	(cd "$cl_dir" && "$PFMK_ROOT/scripts/pfmk-check.sh" -K kit -k "$kdir" -j "$PFMK_JOBS" "$c") \
		>"$cl_dir/$c.out" 2>>"$cl_log" || r=$?
	{ echo "==== pfmk-check.sh $c: rc=$r"; cat "$cl_dir/$c.out"; } >>"$cl_log"
	case $c:$r in
	fixed:0) [[ ! -s $cl_dir/$c.out ]] || sed 's/^/unexpected: /' "$cl_dir/$c.out" >>"$f" ;;
	bad:1)
		while IFS=: read -r line _; do
			grep -q -E "^bad/unchecked_ret\.c:$line:[0-9]+: warning: ignoring return value" "$cl_dir/$c.out" ||
				echo "missing: the compiler's -Wunused-result at bad/unchecked_ret.c:$line" >>"$f"
		done < <(grep -n 'expect: pfmk_' "$cl_dir/bad/unchecked_ret.c")
		;;
	*) echo "pfmk-check.sh $c: exit status $r, see $cl_log" >>"$f" ;;
	esac
done
total=0
for tool in "${client_tools[@]}"; do
	n=$(grep -c . "$PFMK_LOGS/check-$tool.log.findings" || true)
	total=$((total + n))
	if ((n)); then
		say "check-client: $tool: $n finding(s):"
		sed 's/^/    /' "$PFMK_LOGS/check-$tool.log.findings" >&2
	fi
done
say "check-client: ${#client_tools[@]} rows, $total finding(s) (log: $cl_log)"
((total == 0))
exit
}
