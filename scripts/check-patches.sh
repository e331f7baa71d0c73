#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Check pfmk's kernel patch series (patches/linux-<series>/, for AUX, see
# Documentation/aux.rst): for each series, that it applies, in order, to a
# pristine linux-source-<series> tarball (installed, or fetched from
# Debian unstable for 7.2: source_tarball in lib.sh), and that every patch is clean
# under checkpatch.pl --strict from that tree.
#
# usage: scripts/check-patches.sh [results-dir]
#
# With a results directory, writes one row per series and check
# (patches-<series>-apply, patches-<series>-checkpatch) there.  Logs:
# build/logs/patches-<series>.log.  Exits non-zero on any failure.
set -euo pipefail
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

results=${1:-}
rc=0
mkdir -p "$PFMK_LOGS"
row() { [[ -z $results ]] || python3 "$PFMK_ROOT/scripts/results.py" row "$results/patches-$1.json" patches "$@"; }

for dir in "$PFMK_ROOT"/patches/linux-*/; do
	[[ -d $dir ]] || continue
	series=${dir%/}
	series=${series##*/linux-}
	log=$PFMK_LOGS/patches-$series.log
	: >"$log"
	mapfile -t list < <(patch_list "$series")
	((${#list[@]})) || continue
	# Installed, or fetched from Debian for a series stable lacks (lib.sh).
	if ! tarball=$( (source_tarball "$series") 2>>"$log"); then
		row "$series-apply" 0 0 0 1 "no linux-source-$series tarball (see $log)"
		continue
	fi
	tmp=$(mktemp -d)
	# Only the files the series touches, plus checkpatch and its data.
	mapfile -t touched < <(sed -n 's|^+++ b/||p' "${list[@]}" | sort -u)
	top=linux-source-$series
	tar -C "$tmp" -xJf "$tarball" "${touched[@]/#/$top/}" \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch" "$top/MAINTAINERS" 2>>"$log" || true
	ok=1
	for p in "${list[@]}"; do
		echo "== apply $(basename "$p")" >>"$log"
		if ! (cd "$tmp/$top" && patch -p1 --batch --forward <"$p") >>"$log" 2>&1; then
			ok=0
		fi
	done
	if ((ok)); then
		row "$series-apply" 1 0 0 0
		say "patches-$series: ${#list[@]} patch(es) apply to $(basename "$tarball")"
	else
		row "$series-apply" 0 1 0 0 "does not apply, see $log"
		say "patches-$series: does not apply (log: $log)"
		rc=1
	fi
	echo "== checkpatch --strict" >>"$log"
	if (cd "$tmp/$top" && perl scripts/checkpatch.pl --strict --no-tree "${list[@]}") >>"$log" 2>&1; then
		row "$series-checkpatch" 1 0 0 0
		say "patches-$series: checkpatch --strict clean"
	else
		mapfile -t notes < <(grep -E '^(ERROR|WARNING|CHECK):' "$log" | head -n 20)
		row "$series-checkpatch" 0 1 0 0 "see $log" "${notes[@]}"
		say "patches-$series: checkpatch findings (log: $log)"
		rc=1
	fi
	rm -rf "$tmp"
done
exit "$rc"
}
