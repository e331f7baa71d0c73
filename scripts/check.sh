#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Static checks: sparse, checkpatch --strict, kernel-doc -Wall, coccicheck
# and shellcheck (scripts/*.sh); the tests of pfmk's Coccinelle rules for
# its clients (coccinelle/, scripts/pfmk-check.sh); and the harness's own
# unit tests (results.py on recorded guest logs, the manifest against the
# sources).
#
# usage: scripts/check.sh [results.json]
#
# The tools are those of the newest kernel of the matrix, which an upstream
# submission would face: checkpatch.pl, kernel-doc and the coccinelle rules
# of the linux-source-<PFMK_CHECK_SERIES> tree (default 7.2) extracted in
# the cache.  sparse checks the modules against the newest Debian stock
# headers (PFMK_CHECK_STOCK_SERIES, default 6.12) and, when it is cached,
# against that series' debug kernel (the KUnit modules, which the stock
# kernels cannot build).  Not against 7.2: its Makefile turns C=2 off
# ("sparse is not available or not up to date") unless sparse knows
# __typeof_unqual__, which bookworm's sparse 0.6.4 does not; a run that
# prints that message fails here rather than pass without checking.
# Zero tolerance: any finding of any tool fails. Logs: build/logs/check-*.log.
# With an argument, also writes one result row per tool (pass/fail) there.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out_json=${1:-}
SERIES=${PFMK_CHECK_SERIES:-7.2}
STOCK_SERIES=${PFMK_CHECK_STOCK_SERIES:-6.12}
MAX_LINE=${PFMK_MAX_LINE_LENGTH:-100}

ensure_deps
rel=$(stock_kernel_release "$STOCK_SERIES") || die "no Debian $STOCK_SERIES kernel headers installed"
kdir=$(stock_kernel_kdir "$rel")
src=$(ensure_source_tree "$SERIES")
mkdir -p "$PFMK_LOGS"

# Work on a copy so that no tool writes into the repository.
work=$PFMK_BUILD/check/src
rm -rf "$work"
mkdir -p "$work"
copy_module_sources "$work"

# Every *.c / *.h of the repository outside build/ and patches/, but not
# the *.mod.c files Kbuild generates in a tree built in place.
mapfile -t files < <(cd "$PFMK_MODSRC" && find . \( -path ./build -o -path ./patches -o -path ./.git \) -prune -o \
	-type f \( -name '*.c' -o -name '*.h' \) ! -name '*.mod.c' -print | sed 's|^\./||' | LC_ALL=C sort)
mapfile -t headers < <(printf '%s\n' "${files[@]}" | grep -E '^include/.*\.h$' || true)
mapfile -t cfiles < <(printf '%s\n' "${files[@]}" | grep -E '\.c$' || true)
say "check: ${#files[@]} source files (${#cfiles[@]} .c, ${#headers[@]} headers in include/)"

declare -A count secs
record() { # tool findings-file seconds
	count[$1]=$(grep -c . "$2" || true)
	secs[$1]=$3
	if ((count[$1])); then
		say "check: $1: ${count[$1]} finding(s) in $3s:"
		sed 's/^/    /' "$2" >&2
	else
		say "check: $1: clean ($3s)"
	fi
}

# coccicheck is the slow one: start it first, in the background. It is run
# one rule at a time (COCCI=<rule>), PFMK_JOBS rules in parallel, because a
# single failing rule aborts a whole coccicheck run. Rules written in OCaml
# script cannot run with Debian's coccinelle (no OCaml compiler): skipped,
# and listed in the log.
cocci_log=$PFMK_LOGS/check-coccicheck.log
cocci_dir=$PFMK_BUILD/check/cocci
rm -rf "$cocci_dir"
mkdir -p "$cocci_dir"
cocci_start=$SECONDS
mapfile -t cocci_rules < <(find "$src/scripts/coccinelle" -name '*.cocci' -type f | LC_ALL=C sort)
: >"$cocci_log"
cocci_run=()
for r in "${cocci_rules[@]}"; do
	if grep -qE '^@ *(script|initialize|finalize) *: *ocaml' "$r"; then
		echo "SKIPPED (OCaml script rule): ${r#"$src"/}" >>"$cocci_log"
	else
		cocci_run+=("$r")
	fi
done
(
	cd "$work"
	export srctree=$src KBUILD_EXTMOD=$work MODE=report J=1 V=0 COCCI_DIR=$cocci_dir
	# shellcheck disable=SC2016 # expanded by the inner shell
	printf '%s\0' "${cocci_run[@]}" | xargs -0 -n1 -P"$PFMK_JOBS" bash -c '
		out=$COCCI_DIR/$(basename "$1" .cocci).out
		if ! COCCI=$1 bash "$srctree/scripts/coccicheck" >"$out" 2>&1; then
			echo "RULE FAILED: $1" >>"$out"
			exit 1
		fi' _
) >>"$cocci_log" 2>&1 &
cocci_pid=$!

# sparse
t=$SECONDS
sparse_log=$PFMK_LOGS/check-sparse.log
sparse_rc=0
rm -f "$sparse_log.skipped"
make -C "$kdir" M="$work" C=2 PFMK_TEST_HOOKS=1 -j"$PFMK_JOBS" modules >"$sparse_log" 2>&1 || sparse_rc=$?
# Debian kernels lack CONFIG_KUNIT, so the KUnit modules are not built (nor
# checked) above: when the debug kernel of the same series is in the cache,
# run sparse against it as well.
dbg=$("$PFMK_ROOT/scripts/debug-kernel.sh" --key "$STOCK_SERIES")
if [[ -f $dbg/.pfmk-complete ]]; then
	make -C "$dbg/build" M="$work" clean >/dev/null 2>&1 || true
	echo "==== sparse against the debug-$STOCK_SERIES kernel ($dbg/build)" >>"$sparse_log"
	make -C "$dbg/build" M="$work" C=2 PFMK_TEST_HOOKS=1 -j"$PFMK_JOBS" modules >>"$sparse_log" 2>&1 || sparse_rc=$?
else
	say "check: no cached debug-$STOCK_SERIES kernel: KUnit modules not sparse-checked (run make kernels)"
fi
# The sources only arm64 builds (Kbuild, test-modules/Kbuild): those
# objects alone, against the cached arm64 debug kernel of the same series
# (the rest is the same code the x86 passes checked).
arm64_only=(pmu/pmu_x86_none.o test-modules/pfmk_pmu_exact.o test-modules/pfmk_kunit_nmi.o)
adbg=$("$PFMK_ROOT/scripts/debug-kernel.sh" --key --arch arm64 "$STOCK_SERIES")
if [[ -f $adbg/.pfmk-complete ]]; then
	echo "==== sparse against the debug-arm64-$STOCK_SERIES kernel ($adbg/build): ${arm64_only[*]}" >>"$sparse_log"
	make -C "$adbg/build" M="$work" ARCH=arm64 CROSS_COMPILE="$PFMK_CROSS_COMPILE_ARM64" C=2 PFMK_TEST_HOOKS=1 \
		-j"$PFMK_JOBS" "${arm64_only[@]}" >>"$sparse_log" 2>&1 || sparse_rc=$?
else
	say "check: no cached debug-arm64-$STOCK_SERIES kernel: arm64-only sources not sparse-checked (run make kernels)"
fi
# A kernel that finds sparse unusable builds without it and says so once.
if grep -q 'specified, but .* is not available or not up to date' "$sparse_log"; then
	echo "sparse did not run: the kernel rejected it, see $sparse_log" >>"$sparse_log.skipped"
fi
# Findings: sparse diagnostics (file:line:col: warning/error) and build errors.
grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$sparse_log" | sort -u >"$sparse_log.findings" || true
if ((sparse_rc)) && [[ ! -s $sparse_log.findings ]]; then
	echo "sparse build failed (rc=$sparse_rc), see $sparse_log" >"$sparse_log.findings"
fi
if [[ -f $sparse_log.skipped ]]; then
	cat "$sparse_log.skipped" >>"$sparse_log.findings"
	rm -f "$sparse_log.skipped"
fi
record sparse "$sparse_log.findings" $((SECONDS - t))

# checkpatch
t=$SECONDS
cp_log=$PFMK_LOGS/check-checkpatch.log
cp_dir=$PFMK_BUILD/check/checkpatch
rm -rf "$cp_dir"
mkdir -p "$cp_dir"
# Eight files per checkpatch.pl run (its start-up is most of the time),
# PFMK_JOBS runs at once, each into its own log.
# shellcheck disable=SC2016 # expanded by the inner shell
(cd "$PFMK_MODSRC" && printf '%s\0' "${files[@]}" | xargs -0 -n8 -P"$PFMK_JOBS" bash -c '
	perl "$0" --strict --no-tree --terse --no-summary --show-types \
		--max-line-length="$1" -f "${@:3}" >"$(mktemp -p "$2")" 2>&1 || true' \
	"$src/scripts/checkpatch.pl" "$MAX_LINE" "$cp_dir") || true
cat "$cp_dir"/* >"$cp_log" 2>/dev/null || true
sed -i "s|$PFMK_MODSRC/||" "$cp_log"
grep -E '(ERROR|WARNING|CHECK):' "$cp_log" >"$cp_log.findings" || true
record checkpatch "$cp_log.findings" $((SECONDS - t))

# kernel-doc
t=$SECONDS
kd_log=$PFMK_LOGS/check-kernel-doc.log
: >"$kd_log"
kd_files=("${headers[@]}" "${cfiles[@]}")
if ((${#kd_files[@]})); then
	# Perl up to 6.14, Python from 6.15: run it by its #! line.
	(cd "$PFMK_MODSRC" && "$src/scripts/kernel-doc" -Wall -none "${kd_files[@]}") >"$kd_log" 2>&1 || true
fi
grep -v '^\s*$' "$kd_log" >"$kd_log.findings" || true
record kernel-doc "$kd_log.findings" $((SECONDS - t))

# Every shell script through shellcheck, the guest's /init (guest-init.sh)
# included: one "file:line:col: level: message [SCnnnn]" line per finding.
t=$SECONDS
sc_log=$PFMK_LOGS/check-shellcheck.log
if command -v shellcheck >/dev/null; then
	(cd "$PFMK_ROOT" && shellcheck -x -f gcc scripts/*.sh) >"$sc_log" 2>&1 || true
else
	echo "shellcheck: not installed (package shellcheck)" >"$sc_log"
fi
grep -v '^\s*$' "$sc_log" >"$sc_log.findings" || true
record shellcheck "$sc_log.findings" $((SECONDS - t))

# The harness's verdicts: results.py on recorded guest logs, the KTAP
# shapes the kernels print and the summary (scripts/test_results.py), the
# manifest check and size rules (scripts/test_manifest_sources.py), the
# crash decoder (scripts/test_pstore.py), the kernel reports results.py
# leaves out (scripts/test_reports.py), the examples' output checks
# (scripts/test_examples.py), bench.py's targets on logs in pfmk_bench's
# formats (scripts/test_bench.py); then the manifest against the KUnit
# suites the sources define (scripts/manifest_sources.py).
t=$SECONDS
hn_log=$PFMK_LOGS/check-harness.log
{
	for ut in test_results test_manifest_sources test_pstore test_reports test_examples \
		test_bench; do
		# The exit status is the verdict; the FAIL/ERROR lines say which.
		if ! PYTHONDONTWRITEBYTECODE=1 python3 "$PFMK_ROOT/scripts/$ut.py" >"$hn_log.$ut" 2>&1; then
			grep -E '^(FAIL|ERROR): ' "$hn_log.$ut" || true
			echo "scripts/$ut.py did not pass, see $hn_log.$ut"
		fi
	done
	# Its findings on stdout; a crash (a traceback) is one more.
	python3 "$PFMK_ROOT/scripts/manifest_sources.py" 2>&1 ||
		echo "scripts/manifest_sources.py exited with status $?"
} >"$hn_log.findings"
cp "$hn_log.findings" "$hn_log"
record harness "$hn_log.findings" $((SECONDS - t))

# pfmk's rules for its clients (scripts/check-client.sh): one row per
# findings file it writes, check-client-*.log.findings.
t=$SECONDS
rm -f "$PFMK_LOGS"/check-client-*.log.findings
"$PFMK_ROOT/scripts/check-client.sh" "$kdir" || true
mapfile -t client_tools < <(cd "$PFMK_LOGS" && find . -maxdepth 1 -name 'check-client-*.log.findings' -printf '%f\n' |
	sed 's/^check-//; s/\.log\.findings$//' | LC_ALL=C sort)
((${#client_tools[@]})) || { echo "check-client.sh wrote no row" >"$PFMK_LOGS/check-client-none.log.findings"; client_tools=(client-none); }
for tool in "${client_tools[@]}"; do
	record "$tool" "$PFMK_LOGS/check-$tool.log.findings" $((SECONDS - t))
done

say "check: waiting for coccicheck (log: $cocci_log)"
cocci_rc=0
wait "$cocci_pid" || cocci_rc=$?
cat "$cocci_dir"/*.out >>"$cocci_log" 2>/dev/null || true
sed -i "s|$work/||g" "$cocci_log"
grep '^RULE FAILED' "$cocci_log" >&2 || true
# Report-mode findings are "file:line:col-col: message" lines about our files.
grep -E '^(\./)?[A-Za-z0-9_./-]+\.[ch]:[0-9]+:' "$cocci_log" | sort -u >"$cocci_log.findings" || true
if ((cocci_rc)); then
	echo "coccicheck: a rule failed to run (rc=$cocci_rc), see $cocci_log" >>"$cocci_log.findings"
fi
record coccicheck "$cocci_log.findings" $((SECONDS - cocci_start))

total=0
for tool in sparse checkpatch kernel-doc shellcheck harness coccicheck "${client_tools[@]}"; do
	total=$((total + count[$tool]))
	if [[ -n $out_json ]]; then
		f=$PFMK_LOGS/check-$tool.log.findings
		mapfile -t notes < <(head -n 50 "$f")
		if ((count[$tool])); then
			python3 "$PFMK_ROOT/scripts/results.py" row "${out_json%.json}-$tool.json" check "$tool" 0 1 0 0 \
				"${count[$tool]} finding(s), log: $PFMK_LOGS/check-$tool.log" "${notes[@]}"
		else
			python3 "$PFMK_ROOT/scripts/results.py" row "${out_json%.json}-$tool.json" check "$tool" 1 0 0 0
		fi
	fi
done
say "check: sparse=${count[sparse]} checkpatch=${count[checkpatch]} kernel-doc=${count[kernel-doc]} shellcheck=${count[shellcheck]} harness=${count[harness]} coccicheck=${count[coccicheck]} (times: sparse ${secs[sparse]}s, checkpatch ${secs[checkpatch]}s, kernel-doc ${secs[kernel-doc]}s, shellcheck ${secs[shellcheck]}s, coccicheck ${secs[coccicheck]}s)"
cl_sum=
for tool in "${client_tools[@]}"; do
	cl_sum+=" $tool=${count[$tool]}"
done
say "check: client rules:$cl_sum (${secs[${client_tools[0]}]}s, log: $PFMK_LOGS/check-client.log)"
if ((total)); then
	say "check: FAILED with $total finding(s)"
	exit 1
fi
say "check: all clean"
exit
}
