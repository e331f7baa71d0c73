#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Check pfmk's packaging and install targets (Documentation/install.rst) on
# each installed Debian stock kernel, as a user or a distribution would use
# them, in scratch trees under build/install/<series>/: nothing is written to
# /lib/modules, /usr/src or /var/lib/dkms, and the checks verify that.
#
#   dkms             dkms add, build and install with --dkmstree,
#                    --sourcetree and --installtree in the scratch tree (and a
#                    scratch signing key, --no-depmod): every module of
#                    dkms.conf is built, dkms.conf lists every module the
#                    Kbuild files build, all are installed, depmod -b finds the
#                    examples' dependency on pfmk.ko.  The built modules are
#                    copied to build/dkms/debian-<series>/, where
#                    scripts/mkinitramfs.sh picks them up for a guest step
#                    that loads them (make test runs this script first).
#   modules_install  make modules_install INSTALL_MOD_PATH=<staging>: every
#                    module lands under lib/modules/<release>/extra/pfmk/ and
#                    modules.dep says that the examples depend on pfmk.ko.
#   client           make headers_install INSTALL_HDR_PATH=<kit>, then a
#                    client module (scripts/install-client/ and a copy of
#                    examples/pfmk_example_count.c) built out of tree against
#                    the kit alone: it depends on pfmk, imports the PFMK
#                    namespace, and took pfmk's headers from the kit; the
#                    kit's scripts/pfmk-check.sh finds nothing in it; a 2006
#                    client that ignores return values builds (W=1, one
#                    -Wunused-result warning per call), and with -Werror
#                    with __pfmk_must_check defined empty.
#
# usage: scripts/install-test.sh [results-dir]
#
# Series: those of PFMK_SERIES with a stock Debian kernel (stock_series in
# lib.sh: 6.1 and 6.12).  With a results directory, writes
# one row per series and check there (install-<series>-dkms,
# install-<series>-modules_install, install-<series>-client).  Logs:
# build/logs/install-<series>.log.  Exits non-zero on any failure.
# shellcheck disable=SC2317 # the check_* functions are called through run_check
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

results=${1:-}
SERIES=$(stock_series)
rc=0
mkdir -p "$PFMK_LOGS" ${results:+"$results"}
row() { [[ -z $results ]] || python3 "$PFMK_ROOT/scripts/results.py" row "$results/install-$1.json" install "$@"; }

VERSION=$(cat "$PFMK_MODSRC/VERSION")

# A pfmk source tree as a tarball or a checkout has it (the Kbuild
# directories, the Makefile, dkms.conf, VERSION), without build products.
copy_tree() {
	mkdir -p "$1"
	copy_module_sources "$1"
	cp "$PFMK_MODSRC"/{Makefile,dkms.conf,VERSION} "$1/"
	# What headers_install puts in the kit besides the headers.
	cp -a "$PFMK_MODSRC/coccinelle" "$1/"
	mkdir -p "$1/scripts"
	cp "$PFMK_MODSRC/scripts/pfmk-check.sh" "$1/scripts/"
	find "$1" -type f \( -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' \
		-o -name '*.cmd' -o -name '*.symvers' -o -name '*.order' -o -name '*.a' \) -delete
}

# Module names (no suffix) of the .ko files under a directory, sorted.
ko_names() {
	find "$1" -type f \( -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.gz' -o -name '*.ko.zst' \) \
		-printf '%f\n' | sed -E 's/\.ko(\.(xz|gz|zst))?$//' | LC_ALL=C sort
}

# Fail unless modules.dep under <dir> has every examples/ module depending
# on pfmk.ko (paths relative to the release directory, any compression).
check_dep() { # modules.dep
	local dep=$1 m line n=0
	[[ -s $dep ]] || { bad "no $dep"; return; }
	for m in pfmk_example_count pfmk_example_sample pfmk_example_sets pfmk_example_flightrec; do
		line=$(grep -E "(^|/)$m\.ko(\.[a-z]+)?:" "$dep" || true)
		if [[ -z $line ]]; then
			bad "$m not in $dep"
		elif ! grep -q -E ': (.* )?([^ ]*/)?pfmk\.ko(\.[a-z]+)?( |$)' <<<"$line"; then
			bad "$dep: $m does not depend on pfmk.ko: $line"
		else
			n=$((n + 1))
		fi
	done
	echo "modules.dep: $n example(s) depend on pfmk.ko"
}

# Nothing of the system's changed since <marker>: the release's module
# tree, the system dkms tree and /usr/src.
check_system_untouched() { # marker
	local changed
	changed=$(find "/lib/modules/$rel" /var/lib/dkms /usr/src -maxdepth 3 -newer "$1" \
		\( -path "/usr/src/pfmk*" -o -path "/var/lib/dkms/pfmk*" -o -path "/lib/modules/$rel*" \) \
		-print 2>/dev/null | head -n 5)
	[[ -z $changed ]] || bad "the system tree was written to: ${changed//$'\n'/ }"
}

bad() { echo "FAIL: $*"; ok=0; }

# seed_modroot <dir>: give a scratch /lib/modules/<release> the kernel's
# own modules.order, modules.builtin and modules.builtin.modinfo (from the
# installed kernel, read only), as a real one has: depmod -b then runs as
# on the system instead of warning about them.
seed_modroot() {
	local f
	mkdir -p "$1"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		if [[ -f /lib/modules/$rel/$f ]]; then
			cp "/lib/modules/$rel/$f" "$1/"
		else
			: >"$1/$f"
		fi
	done
}

# b. make modules_install into a staging directory.
check_modules_install() {
	local ok=1 tree=$work/tree stage=$work/staging dst m stray
	copy_tree "$tree"
	touch "$work/marker-modinst"
	seed_modroot "$stage/lib/modules/$rel"
	if ! make -C "$tree" KDIR="$kdir" INSTALL_MOD_PATH="$stage" -j"$PFMK_JOBS" modules_install; then
		bad "make modules_install failed"
		return 1
	fi
	dst=$stage/lib/modules/$rel/extra/pfmk
	mapfile -t built < <(ko_names "$tree")
	((${#built[@]})) || bad "no module built in $tree"
	for m in "${built[@]}"; do
		[[ -n $(find "$dst" -name "$m.ko*" -print -quit 2>/dev/null) ]] || bad "$m not installed under $dst"
	done
	stray=$(find "$stage" -name '*.ko*' ! -path "$dst/*" -print | head -n 3)
	[[ -z $stray ]] || bad "modules outside $dst: $stray"
	echo "installed $(ko_names "$dst" | wc -l) of ${#built[@]} module(s) under $dst"
	check_dep "$stage/lib/modules/$rel/modules.dep"
	check_system_untouched "$work/marker-modinst"
	((ok))
}

# a. dkms add/build/install in scratch trees.  The dkms_* steps share
# check_dkms's locals (top, src, D, mdir, want) and its ok.
check_dkms() {
	local ok=1 top=$work/dkms src mdir want=()
	src=$top/src/pfmk-$VERSION
	local D=(dkms --dkmstree "$top/tree" --sourcetree "$top/src" --installtree "$top/root/lib/modules")
	command -v dkms >/dev/null || { bad "dkms is not installed (package dkms)"; return 1; }
	dkms_add_build || return 1
	mdir=$(find "$top/tree/pfmk/$VERSION/$rel" -mindepth 2 -maxdepth 2 -type d -name module -print -quit)
	[[ -n $mdir ]] || { bad "no module directory under $top/tree/pfmk/$VERSION/$rel"; return 1; }
	dkms_check_list
	dkms_install_depmod
	check_system_untouched "$work/marker-dkms"
	[[ ! -e /var/lib/dkms/pfmk ]] || bad "/var/lib/dkms/pfmk exists"
	dkms_copy_for_guest
	((ok))
}

# dkms add and build of a copy of the tree; 1 if either fails.
dkms_add_build() {
	copy_tree "$src"
	mkdir -p "$top/tree"
	seed_modroot "$top/root/lib/modules/$rel"
	touch "$work/marker-dkms"
	# Sign with a scratch key, not dkms's default /var/lib/dkms/mok.key.
	export mok_signing_key=$top/mok.key mok_certificate=$top/mok.pub
	if ! "${D[@]}" add -m pfmk -v "$VERSION" -k "$rel" --kernelsourcedir "$kdir"; then
		bad "dkms add failed"
		return 1
	fi
	if ! "${D[@]}" build -m pfmk -v "$VERSION" -k "$rel" --kernelsourcedir "$kdir" -j "$PFMK_JOBS" \
		>"$top/build.out" 2>&1; then
		find "$top/tree/pfmk/$VERSION" -name make.log -exec tail -n 25 {} \;
		cat "$top/build.out"
		bad "dkms build failed: $(grep -E -m 3 'Error|failed' "$top/build.out" | tr '\n' ' ')"
		return 1
	fi
	cat "$top/build.out"
}

# What dkms.conf lists for this kernel (into want), against what dkms
# built and what the Kbuild files build (modules_install's tree).
dkms_check_list() {
	local got ref
	mapfile -t want < <(kernel_source_dir=$kdir dkms_tree=$top/tree bash -c \
		'. "$1/dkms.conf" && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ "$src" | LC_ALL=C sort)
	mapfile -t got < <(ko_names "$mdir")
	echo "dkms.conf lists ${#want[@]} module(s), dkms built ${#got[@]} in $mdir"
	[[ ${want[*]} == "${got[*]}" ]] || bad "dkms built {${got[*]}}, dkms.conf lists {${want[*]}}"
	if [[ -d $work/tree ]]; then
		mapfile -t ref < <(ko_names "$work/tree")
		[[ ${want[*]} == "${ref[*]}" ]] || bad "dkms.conf lists {${want[*]}}, Kbuild builds {${ref[*]}}"
	fi
}

# Install into the scratch install tree; depmod there.
dkms_install_depmod() {
	local d=$top/root/lib/modules/$rel got
	if ! "${D[@]}" install -m pfmk -v "$VERSION" -k "$rel" --kernelsourcedir "$kdir" --no-depmod; then
		bad "dkms install failed"
		return
	fi
	mapfile -t got < <(ko_names "$d")
	[[ ${want[*]} == "${got[*]}" ]] || bad "dkms installed {${got[*]}} in $d, want {${want[*]}}"
	"${D[@]}" status -m pfmk -v "$VERSION" -k "$rel" | tee "$top/status"
	grep -q ': installed' "$top/status" || bad "dkms status does not say installed"
	if depmod -a -b "$top/root" -F "/boot/System.map-$rel" "$rel"; then
		check_dep "$d/modules.dep"
	else
		bad "depmod -b $top/root failed"
	fi
}

# For the guest (scripts/mkinitramfs.sh): the modules as dkms built them
# (stripped, signed), uncompressed for busybox insmod.
dkms_copy_for_guest() {
	local m
	mkdir -p "$guest_dir"
	for m in "$mdir"/*.ko*; do
		case $m in
		*.ko.xz) xz -dc "$m" >"$guest_dir/$(basename "$m" .xz)" ;;
		*.ko.gz) gzip -dc "$m" >"$guest_dir/$(basename "$m" .gz)" ;;
		*.ko.zst) zstd -q -dc "$m" >"$guest_dir/$(basename "$m" .zst)" ;;
		*) cp "$m" "$guest_dir/" ;;
		esac
	done
	echo "copied $(find "$guest_dir" -name '*.ko' | wc -l) module(s) to $guest_dir"
}

# c. headers_install, then a client built against the kit alone.  The
# client_* steps share check_client's locals (kit) and its ok.
check_client() {
	local ok=1 kit=$work/kit
	if [[ ! -f $work/tree/Makefile ]]; then
		bad "no built tree (modules_install failed earlier)"
		return 1
	fi
	client_kit || return 1
	client_build || return 1
	# The kit's static checks, as a client's CI runs them: no finding in
	# this client (Coccinelle rules, sparse).
	if ! (cd "$work" && "$kit/scripts/pfmk-check.sh" -k "$kdir" -j "$PFMK_JOBS" client); then
		bad "the kit's pfmk-check.sh reports findings in the client (or could not run)"
	fi
	client_2006
	((ok))
}

# make headers_install, and the kit holds what a client needs; 1 if
# headers_install fails.
client_kit() {
	local f
	if ! make -C "$work/tree" KDIR="$kdir" INSTALL_HDR_PATH="$kit" headers_install; then
		bad "make headers_install failed"
		return 1
	fi
	for f in include/pfmk/pfmk.h include/pfmk/ns.h include/linux/perfmon.h client.kbuild Module.symvers VERSION \
		scripts/pfmk-check.sh; do
		[[ -s $kit/$f ]] || bad "no $f in the kit"
	done
	for f in "$PFMK_MODSRC"/coccinelle/pfmk_*.cocci; do
		[[ -s $kit/coccinelle/${f##*/} ]] || bad "no coccinelle/${f##*/} in the kit"
	done
	[[ $(cat "$kit/KERNELRELEASE" 2>/dev/null) == "$rel" ]] || bad "kit KERNELRELEASE is not $rel"
	grep -q -P '^0x[0-9a-f]+\t__pfmk_create_context\t\S+\tEXPORT_SYMBOL_GPL\tPFMK$' "$kit/Module.symvers" ||
		bad "kit Module.symvers has no __pfmk_create_context in namespace PFMK"
}

# A client (scripts/install-client/ and an example) built against the kit
# alone, W=1 -Werror: it depends on pfmk, imports PFMK, and took pfmk's
# headers from the kit; 1 if it does not build.
client_build() {
	local cl=$work/client ko f
	rm -rf "$cl"
	cp -a "$PFMK_ROOT/scripts/install-client" "$cl"
	cp "$PFMK_MODSRC/examples/pfmk_example_count.c" "$cl/"
	echo 'obj-m += pfmk_example_count.o' >>"$cl/Kbuild"
	if ! make -C "$kdir" M="$cl" PFMK_DIR="$kit" KBUILD_EXTRA_SYMBOLS="$kit/Module.symvers" \
		W=1 KCFLAGS=-Werror -j"$PFMK_JOBS" modules >"$work/client-build.log" 2>&1; then
		cat "$work/client-build.log"
		bad "client build against the kit failed"
		return 1
	fi
	cat "$work/client-build.log"
	if grep -E -i '(^|[^a-z])warning:' "$work/client-build.log"; then
		bad "warnings in the client build"
	fi
	for ko in pfmk_install_client pfmk_example_count; do
		f=$cl/$ko.ko
		[[ -f $f ]] || { bad "$ko.ko not built"; continue; }
		modinfo "$f" | grep -E '^(depends|import_ns|vermagic):'
		[[ $(modinfo -F depends "$f") == pfmk ]] || bad "$ko: depends='$(modinfo -F depends "$f")', want pfmk"
		modinfo -F import_ns "$f" | grep -q -x PFMK || bad "$ko: no import_ns PFMK"
		[[ $(modinfo -F vermagic "$f") == "$rel "* ]] || bad "$ko: vermagic is not $rel"
	done
	# pfmk's headers came from the kit, not from a source tree.
	f=$cl/.pfmk_install_client.o.cmd
	grep -q -F "$kit/include/pfmk/pfmk.h" "$f" 2>/dev/null || bad "$f: <pfmk/pfmk.h> not from the kit"
	if grep -q -E "($PFMK_MODSRC|$work/tree)/include/" "$f" 2>/dev/null; then
		bad "$f: headers from a source tree"
	fi
}

# A 2006 client that ignores return values (the fixture of the
# unchecked-return rule): it builds with W=1, with one -Wunused-result
# warning per ignored call, and with -Werror once it defines
# __pfmk_must_check empty (Documentation/porting.rst).
client_2006() {
	local c06=$work/client2006 want got
	rm -rf "$c06"
	mkdir -p "$c06"
	cp "$PFMK_MODSRC/coccinelle/tests/unchecked_ret.c" "$c06/"
	# shellcheck disable=SC2016 # make syntax
	printf 'include $(PFMK_DIR)/client.kbuild\nobj-m += unchecked_ret.o\n' >"$c06/Kbuild"
	want=$(grep -c 'expect: pfmk_unchecked_ret' "$c06/unchecked_ret.c")
	if ! make -C "$kdir" M="$c06" PFMK_DIR="$kit" KBUILD_EXTRA_SYMBOLS="$kit/Module.symvers" \
		W=1 -j"$PFMK_JOBS" modules >"$work/client2006.log" 2>&1; then
		cat "$work/client2006.log"
		bad "a 2006 client that ignores return values does not build"
	else
		got=$(grep -c 'warning: ignoring return value of .* \[-Wunused-result\]' "$work/client2006.log" || true)
		echo "2006 client ignoring $want return value(s): built with $got -Wunused-result warning(s)"
		((got == want)) || bad "2006 client: $got -Wunused-result warning(s), want $want"
	fi
	if ! make -C "$kdir" M="$c06" PFMK_DIR="$kit" KBUILD_EXTRA_SYMBOLS="$kit/Module.symvers" \
		W=1 KCFLAGS="-Werror -D__pfmk_must_check=" -j"$PFMK_JOBS" modules >"$work/client2006.log" 2>&1; then
		cat "$work/client2006.log"
		bad "the 2006 client does not build with -Werror and __pfmk_must_check defined empty"
	fi
}

# run_check <check> <function>: one result row from a check function's
# status; its output goes to the series log, its FAIL lines and the end of
# its output to the row's notes.
run_check() {
	local id=$series-$1 out=$work/$1.out t=$SECONDS r=0
	"$2" >"$out" 2>&1 || r=$?
	{
		echo "===== install-$id: rc=$r, $((SECONDS - t))s"
		cat "$out"
	} >>"$log"
	if ((r == 0)); then
		row "$id" 1 0 0 0
		say "install-$id: ok ($((SECONDS - t))s)"
	else
		local notes
		mapfile -t notes < <(grep '^FAIL: ' "$out" | head -n 10)
		notes+=("see $log" "--- last lines:")
		mapfile -t -O "${#notes[@]}" notes < <(grep -v '^FAIL: ' "$out" | tail -n 12)
		row "$id" 0 1 0 0 "${notes[@]}"
		say "install-$id: FAILED (log: $log)"
		grep '^FAIL: ' "$out" | head -n 10 >&2 || true
		rc=1
	fi
}

for series in $SERIES; do
	log=$PFMK_LOGS/install-$series.log
	work=$PFMK_BUILD/install/$series
	guest_dir=$PFMK_BUILD/dkms/debian-$series
	rm -rf "$work" "$guest_dir"
	mkdir -p "$work"
	: >"$log"
	if ! rel=$(stock_kernel_release "$series"); then
		for c in dkms modules_install client; do
			row "$series-$c" 0 0 1 0 "no Debian $series kernel image + headers installed"
		done
		continue
	fi
	kdir=$(stock_kernel_kdir "$rel")
	say "install-$series: dkms, modules_install, headers_install for $rel (log: $log)"
	# modules_install first: the dkms check compares dkms.conf with its build.
	run_check modules_install check_modules_install
	run_check dkms check_dkms
	run_check client check_client
done
exit "$rc"
}
