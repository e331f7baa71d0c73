#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The full pfmk test suite (make test).
#
#  0. the harness's own tests (scripts/test-harness.sh: the guest watchdog);
#  1. for each series (PFMK_SERIES, default "6.1 6.12 7.2"):
#     - debian-<series>: the newest installed Debian kernel of that series,
#       for the series with stock kernels only (PFMK_STOCK_SERIES, default
#       "6.1 6.12": Debian's 7.2 images are built with a newer GCC than
#       this machine's, so modules cannot be built for them here);
#     - debug-<series>:  a debug kernel built from linux-source-<series>
#       (KASAN, lockdep, kmemleak, KUnit; cached, see scripts/debug-kernel.sh;
#       linux-source-7.2 is fetched from Debian unstable, see lib.sh);
#     for each kernel: W=1 -Werror module build (one test case), initramfs,
#     QEMU boot running the guest plan, console log parsed into results;
#     before the stock kernels' guests, the install checks on the same
#     Debian kernels (scripts/install-test.sh: dkms add/build/install,
#     make modules_install, make headers_install and a client built
#     against the kit, all in scratch trees); the stock guests then also
#     load the DKMS-built pfmk.ko and an example (build/dkms/<kernel-id>/);
#  1b. arm64 (Documentation/testing.rst, "arm64"): debian-arm64-<series>,
#     Debian's arm64 kernels of PFMK_ARM64_STOCK_SERIES (default "6.1
#     6.12", fetched into the cache), and debug-arm64-<series>, debug
#     kernels cross-built for PFMK_ARM64_SERIES (default "6.12"): modules
#     cross-built, then two guests each on QEMU's PMUv3, the main plan on
#     two vCPUs and the exact plan in instruction-count mode (rows of
#     kernel "<id>/icount");
#  2. the kernel patch series (scripts/check-patches.sh) and the HTML
#     documentation (scripts/htmldocs.sh: Sphinx + kernel-doc, zero
#     warnings), one test case each;
#  3. static checks (scripts/check.sh), one test case per tool;
#  4. summary table; the last line is "N passed, N failed, N skipped".
#
# Environment: PFMK_SERIES, PFMK_STOCK_SERIES, PFMK_ARM64_STOCK_SERIES,
# PFMK_ARM64_SERIES (empty: no such rows), PFMK_KERNELS (subset of
# kernel ids to run, e.g. "debian-6.1 debug-7.2"; the install checks run for
# the selected debian-<series>), PFMK_SKIP_CHECK=1 (no static checks),
# PFMK_SKIP_DOCS=1 (no documentation build; PFMK_SKIP_CHECK does not skip it),
# PFMK_SKIP_INSTALL=1 (no install checks, and no DKMS step in the guests),
# PFMK_GUEST_STALL (seconds a guest may go without a step beginning or
# ending before scripts/run-guest.sh's watchdog kills it; default 600),
# PFMK_GUEST_CAP (last-resort bound on one guest, default 5400 s),
# PFMK_QEMU_ACCEL (QEMU accelerator for every guest; default:
# guest_accel in scripts/lib.sh), PFMK_SKIP_POSTMORTEM=1 (no post-mortem
# test), PFMK_POSTMORTEM_SERIES (its debug kernel, default 6.1).
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

SERIES=$PFMK_SERIES
STOCK=$(stock_series)
ARM64_STOCK=${PFMK_ARM64_STOCK_SERIES-6.1 6.12}
ARM64_DEBUG=${PFMK_ARM64_SERIES-6.12}
STALL=${PFMK_GUEST_STALL:-600}
RESULTS=$PFMK_BUILD/results
S=$PFMK_ROOT/scripts

t0=$SECONDS
ensure_deps
rm -rf "$RESULTS" "$PFMK_BUILD/guest" "$PFMK_BUILD/dkms"
mkdir -p "$RESULTS" "$PFMK_LOGS"

wanted() { [[ -z ${PFMK_KERNELS:-} || " $PFMK_KERNELS " == *" $1 "* ]]; }
result_row() { python3 "$S/results.py" row "$RESULTS/$1.json" "${@:2}"; }
declare -a timings=()

# Run a sub-script that writes its own rows ($RESULTS/<prefix>*.json).  If
# it exits non-zero without writing any, the run gets a failed row: a
# script that dies must not leave the summary green.
# args: prefix suite-label command...
run_sub() {
	local prefix=$1 label=$2 rc=0 f
	shift 2
	local before after
	before=$(find "$RESULTS" -maxdepth 1 -name "$prefix*.json" | wc -l)
	"$@" || rc=$?
	after=$(find "$RESULTS" -maxdepth 1 -name "$prefix*.json" | wc -l)
	if ((rc != 0 && after == before)); then
		f=$(basename "$1")
		say "$f exited with $rc and wrote no result rows"
		result_row "$prefix-died" "$label" "$f" 0 1 0 0 "$f exited with status $rc without writing its rows"
	fi
	return 0
}

# Build the modules, boot, parse. args: id mode kdir kernel-image [arm64]
# An arm64 kernel gets a second guest, in instruction-count mode on one
# vCPU, for the exact plan (rows of kernel "<id>/icount").
run_kernel() {
	local id=$1 mode=$2 kdir=$3 image=$4 arch=${5:-} t rc
	t=$SECONDS
	if "$S/build-modules.sh" "$id" "$kdir" "$arch"; then
		result_row "$id-0build" "$id" "module build W=1 -Werror" 1 0 0 0
	else
		local notes
		mapfile -t notes < <(grep -E -i 'error|warning' "$PFMK_LOGS/modules-$id.log" | head -n 20)
		result_row "$id-0build" "$id" "module build W=1 -Werror" 0 1 0 0 \
			"see $PFMK_LOGS/modules-$id.log" "${notes[@]}"
	fi
	[[ $arch != arm64 ]] || dkms_list_check "$id" "$kdir"
	run_guest "$id" "$id" "$mode" "$image" 1run main "$arch"
	[[ $arch != arm64 ]] || PFMK_GUEST_ICOUNT=1 run_guest "$id/icount" "$id" "$mode" "$image" 2exact exact arm64
	timings+=("$id: $((SECONDS - t))s")
}

# dkms.conf lists, for an arm64 kernel (dkms's $arch is aarch64), exactly
# the modules Kbuild built for it (scripts/install-test.sh checks the x86
# kernels' lists with dkms itself).  args: id kdir
dkms_list_check() {
	local want got
	want=$(arch=aarch64 kernel_source_dir=$2 dkms_tree=/nonexistent bash -c \
		'. "$1/dkms.conf" && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ "$PFMK_MODSRC" |
		LC_ALL=C sort | tr '\n' ' ')
	# pfmk_crash_kunit exists only in the harness's builds (Kbuild,
	# PFMK_TEST_HOOKS=1): DKMS never builds it, and dkms.conf leaves it out.
	got=$(find "$PFMK_BUILD/modules/$1" -name '*.ko' ! -name pfmk_crash_kunit.ko -printf '%f\n' |
		sed 's/\.ko$//' | LC_ALL=C sort | tr '\n' ' ')
	if [[ $want == "$got" ]]; then
		result_row "$1-0dkms" "$1" "dkms.conf module list (aarch64)" 1 0 0 0
	else
		result_row "$1-0dkms" "$1" "dkms.conf module list (aarch64)" 0 1 0 0 \
			"dkms.conf lists {${want% }}" "Kbuild built {${got% }}"
	fi
}

# One guest: initramfs, boot, parse.
# args: label id mode kernel-image result-suffix plan [arch]
run_guest() {
	local label=$1 id=$2 mode=$3 image=$4 suffix=$5 plan=$6 arch=${7:-x86_64}
	local g=$PFMK_BUILD/guest/${label/\//-} log=$PFMK_LOGS/${label/\//-}.log tb=$SECONDS rc=0
	mkdir -p "$g"
	"$S/mkinitramfs.sh" "$id" "$mode" "$PFMK_BUILD/modules/$id" "$g" "$arch" "$plan"
	say "$label: booting $(basename "$image") in QEMU (TCG, killed after ${STALL}s without progress, log: $log)"
	# QEMU accelerator per kind of kernel: guest_accel in lib.sh.
	PFMK_QEMU_ACCEL=${PFMK_QEMU_ACCEL:-$(guest_accel "$mode")} \
		"$S/run-guest.sh" "$image" "$g/initramfs.cpio.gz" "$log" "$STALL" || rc=$?
	say "$label: guest finished in $((SECONDS - tb))s (qemu rc=$rc)"
	python3 "$S/results.py" parse "$label" "$log" "$g/plan.json" "$rc" "$RESULTS/$id-$suffix.json" ||
		say "$label: guest tests reported failures"
	timings+=("$label boot: $((SECONDS - tb))s")
}

# The harness's own tests first (scripts/test-harness.sh): the guests'
# verdicts below rest on its watchdog.
run_sub harness harness "$S/test-harness.sh" "$RESULTS"

# Packaging and install targets on the stock kernels, first: the DKMS-built
# modules it leaves in build/dkms/ are loaded by the stock guests below.
install_series=()
for series in $STOCK; do
	wanted "debian-$series" && install_series+=("$series")
done
if [[ ${PFMK_SKIP_INSTALL:-0} != 1 ]] && ((${#install_series[@]})); then
	t=$SECONDS
	PFMK_SERIES="${install_series[*]}" run_sub install install "$S/install-test.sh" "$RESULTS"
	timings+=("install: $((SECONDS - t))s")
fi

for series in $STOCK; do
	id=debian-$series
	wanted "$id" || continue
	if rel=$(stock_kernel_release "$series"); then
		run_kernel "$id" stock "$(stock_kernel_kdir "$rel")" "/boot/vmlinuz-$rel"
	else
		result_row "$id-0build" "$id" "kernel" 0 0 0 1 "no Debian $series kernel image + headers installed"
	fi
done

for series in $SERIES; do
	id=debug-$series
	wanted "$id" || continue
	t=$SECONDS
	if dir=$("$S/debug-kernel.sh" "$series"); then
		timings+=("$id kernel (build or cache): $((SECONDS - t))s")
		run_kernel "$id" debug "$dir/build" "$dir/bzImage"
	else
		result_row "$id-0build" "$id" "debug kernel build" 0 1 0 0 \
			"see $("$S/debug-kernel.sh" --key "$series")/build.log"
	fi
done

# arm64 (Documentation/testing.rst, "arm64"): Debian's arm64 kernels of
# PFMK_ARM64_STOCK_SERIES (fetched into the cache, scripts/lib.sh
# arm64_kernel) and the arm64 debug kernels of PFMK_ARM64_SERIES, on
# QEMU's emulated PMUv3 and Linux's armv8_pmuv3 driver.
for series in $ARM64_STOCK; do
	id=debian-arm64-$series
	wanted "$id" || continue
	if dir=$(arm64_kernel "$series") && rel=$(basename "$dir"); then
		run_kernel "$id" stock "$dir/usr/src/linux-headers-$rel" "$dir/boot/vmlinuz-$rel" arm64
	else
		result_row "$id-0build" "$id" "kernel" 0 1 0 0 "Debian's arm64 $series kernel could not be fetched (scripts/lib.sh arm64_kernel)"
	fi
done
for series in $ARM64_DEBUG; do
	id=debug-arm64-$series
	wanted "$id" || continue
	t=$SECONDS
	if dir=$("$S/debug-kernel.sh" --arch arm64 "$series"); then
		timings+=("$id kernel (build or cache): $((SECONDS - t))s")
		run_kernel "$id" debug "$dir/build" "$dir/Image" arm64
	else
		result_row "$id-0build" "$id" "debug kernel build" 0 1 0 0 \
			"see $("$S/debug-kernel.sh" --key --arch arm64 "$series")/build.log"
	fi
done

# Post-mortem: pfmk's contexts in memory dumps of a debug guest (drgn),
# before and after a panic, and in pstore after its reboot
# (scripts/postmortem-test.sh; PFMK_SKIP_POSTMORTEM=1 leaves it out).
pm_series=${PFMK_POSTMORTEM_SERIES:-6.1}
if [[ ${PFMK_SKIP_POSTMORTEM:-0} != 1 && " $SERIES " == *" $pm_series "* ]] &&
	wanted "debug-$pm_series"; then
	t=$SECONDS
	run_sub "debug-$pm_series-3postmortem" postmortem "$S/postmortem-test.sh" "$RESULTS"
	timings+=("postmortem: $((SECONDS - t))s")
fi

# pfmk AUX: the kernel patch series apply to pristine linux-source and are
# checkpatch-clean (scripts/check-patches.sh).
run_sub patches patches "$S/check-patches.sh" "$RESULTS"

# The documentation: Sphinx with kernel-doc, zero warnings (make htmldocs).
if [[ ${PFMK_SKIP_DOCS:-0} != 1 ]]; then
	t=$SECONDS
	run_sub docs docs "$S/htmldocs.sh" "$RESULTS"
	timings+=("htmldocs: $((SECONDS - t))s")
fi

# Static checks last: sparse then also covers the KUnit modules against the
# debug-6.12 kernel built above (7.2's Makefile refuses bookworm's sparse).
if [[ ${PFMK_SKIP_CHECK:-0} != 1 ]]; then
	t=$SECONDS
	say "make check (sparse, checkpatch, kernel-doc, coccicheck)"
	run_sub check check "$S/check.sh" "$RESULTS/check.json"
	timings+=("check: $((SECONDS - t))s")
fi

say "timings: ${timings[*]/%/;} total $((SECONDS - t0))s"
echo
python3 "$S/results.py" summary "$RESULTS"
exit
}
