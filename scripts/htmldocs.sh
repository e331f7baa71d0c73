#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build the HTML documentation (make htmldocs): Documentation/ through
# Sphinx with the kernel's kernel-doc extension, which generates the API
# reference from the kernel-doc comments of pfmk's sources.  The extension
# and kernel-doc come from the extracted linux-source tree of the newest
# series (PFMK_DOCS_SERIES, default 7.2: the kernel-doc an upstream
# submission faces; ensure_source_tree; Documentation/conf.py finds it
# through PFMK_KERNEL_SRC).  From 6.15 the extension runs kernel-doc's
# Python library in process, found through $srctree.  Zero warnings allowed: Sphinx runs with -W --keep-going
# -n (nitpicky: every C reference must resolve), and kernel-doc's own
# warnings count too.
#
# usage: scripts/htmldocs.sh [results-dir]
#
# Output: build/htmldocs/index.html.  Log: build/logs/htmldocs.log.  With a
# results directory, writes one row (docs.json) there, listing the first
# warnings when there are any.  Exits non-zero on any warning or failure.
set -euo pipefail
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

results=${1:-}
series=${PFMK_DOCS_SERIES:-7.2}
out=$PFMK_BUILD/htmldocs
log=$PFMK_LOGS/htmldocs.log
name="make htmldocs (Sphinx + kernel-doc, zero warnings)"
row() { [[ -z $results ]] || python3 "$PFMK_ROOT/scripts/results.py" row "$results/docs.json" docs "$name" "$@"; }

ensure_deps
mkdir -p "$PFMK_LOGS"
[[ -z $results ]] || mkdir -p "$results"
: >"$log"

if ! ksrc=$(ensure_source_tree "$series"); then
	row 0 0 0 1 "no linux-source-$series (kernel-doc and its Sphinx extension)"
	die "htmldocs: no linux-source-$series"
fi

# -E: a fresh environment every time, so that every warning is reported
# again (an incremental build only re-reads the pages that changed).
t=$SECONDS
say "htmldocs: sphinx-build $(sphinx-build --version 2>/dev/null | awk '{print $NF}') into $out (log: $log)"
rm -rf "$out"
rc=0
PFMK_KERNEL_SRC=$ksrc srctree=$ksrc PYTHONDONTWRITEBYTECODE=1 \
	sphinx-build -b html -E -W --keep-going -n \
	"$PFMK_ROOT/Documentation" "$out" >>"$log" 2>&1 || rc=$?

# Sphinx and docutils report "WARNING:", "ERROR:", "SEVERE:" or "CRITICAL:";
# kernel-doc reports "file:line: warning: ..." on stderr.
pattern='(WARNING|ERROR|SEVERE|CRITICAL):|: (warning|error):'
mapfile -t findings < <(grep -E "$pattern" "$log" | sed "s|$PFMK_ROOT/||g" || true)
n=${#findings[@]}
if ((rc == 0 && n == 0)) && [[ -f $out/index.html ]]; then
	row 1 0 0 0
	say "htmldocs: 0 warnings, $out/index.html ($((SECONDS - t))s)"
	exit 0
fi
((n)) || findings=("sphinx-build exited with $rc and printed no warning line" "$(tail -n 5 "$log")")
row 0 1 0 0 "$n warning(s), see $log" "${findings[@]:0:20}"
printf '%s\n' "${findings[@]}" >&2
say "htmldocs: $n warning(s), sphinx-build rc=$rc (log: $log)"
exit 1
}
