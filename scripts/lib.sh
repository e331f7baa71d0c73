# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Common helpers for the pfmk build-and-test harness. Source this file.
#
# Everything that is expensive to recreate (extracted kernel trees, debug
# kernel builds, initramfs base) lives under $PFMK_CACHE, outside the repo.
# Everything produced from the repository lives under $PFMK_BUILD (build/).

PFMK_ROOT=${PFMK_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
# PFMK_MODSRC: where the module sources live (the repo; overridable for
# testing the harness against a scratch tree).
PFMK_MODSRC=${PFMK_MODSRC:-$PFMK_ROOT}
PFMK_BUILD=${PFMK_BUILD:-$PFMK_ROOT/build}
PFMK_CACHE=${PFMK_CACHE:-${XDG_CACHE_HOME:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache}/pfmk}
PFMK_LOGS=$PFMK_BUILD/logs
PFMK_JOBS=${PFMK_JOBS:-$(nproc)}
export PFMK_ROOT PFMK_MODSRC PFMK_BUILD PFMK_CACHE PFMK_LOGS PFMK_JOBS

# Module sources copied into each per-kernel build directory: the Kbuild
# directories plus any other top-level Kbuild fragment (e.g. client.kbuild).
module_sources() {
	local e
	for e in Kbuild core kapi pmu include examples test-modules; do
		[[ -e $PFMK_MODSRC/$e ]] && echo "$e"
	done
	for e in "$PFMK_MODSRC"/*.kbuild "$PFMK_MODSRC"/Kbuild.*; do
		[[ -f $e ]] && echo "${e##*/}"
	done
	return 0
}

# copy_module_sources <dest>
copy_module_sources() {
	local e
	while IFS= read -r e; do
		cp -a "$PFMK_MODSRC/$e" "$1/"
	done < <(module_sources)
}

# Packages the harness needs on a Debian host.
PFMK_PACKAGES=(
	qemu-system-x86 linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	linux-source-6.1 linux-source-6.12 debian-archive-keyring
	sparse coccinelle busybox-static cpio gzip bc flex bison
	libelf-dev libssl-dev kmod xz-utils python3 perl gcc make patch git
	linux-perf python3-sphinx dkms python3-drgn
	qemu-system-arm gcc-aarch64-linux-gnu
)

# arm64 (Documentation/testing.rst, "arm64"): modules and the arm64
# debug kernel are cross-built with this prefix; the guests run in
# qemu-system-aarch64.
PFMK_CROSS_COMPILE_ARM64=${PFMK_CROSS_COMPILE_ARM64:-aarch64-linux-gnu-}
export PFMK_CROSS_COMPILE_ARM64

# kernel_image_arch <image>: arm64 for an arm64 Image (its header's magic
# "ARM\x64" at offset 56), x86_64 otherwise.
kernel_image_arch() {
	if [[ $(od -An -tx4 -j56 -N4 "$1" 2>/dev/null | tr -d ' ') == 644d5241 ]]; then
		echo arm64
	else
		echo x86_64
	fi
}

# kernel_image_name <arch>: the boot image make builds (and QEMU's
# -kernel takes) for x86_64 or arm64.
kernel_image_name() {
	case $1 in
	arm64) echo Image ;;
	*) echo bzImage ;;
	esac
}

# guest_accel <mode>: the QEMU accelerator for a guest of that kind (the
# default of PFMK_QEMU_ACCEL in test.sh and demo.sh).  Stock kernels run
# under single-threaded TCG: QEMU 7.2's multi-threaded TCG can run a
# stale translation of kernel text that a static key patched at run
# time, and the guest oopses on the int3 of the patch site.  The debug
# kernels are built without CONFIG_JUMP_LABEL (nothing is patched at run
# time) and keep one host thread per vCPU for the race tests.  make bench
# keeps multi-threaded TCG for its two-CPU workload.
# Documentation/testing.rst, "Known problems".
guest_accel() {
	case $1 in
	stock | demo) echo tcg,thread=single ;;
	*) echo tcg ;;
	esac
}

# host_tsc_khz: the host's TSC rate in kHz, when its CPU says the rate is
# constant and known (then /proc/cpuinfo's "cpu MHz" is that rate); fails
# otherwise.  run-guest.sh passes it to TCG guests as tsc_early_khz.
host_tsc_khz() {
	local flags mhz
	flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null) || return 1
	[[ " $flags " == *" constant_tsc "* && " $flags " == *" tsc_known_freq "* ]] || return 1
	mhz=$(awk -F: '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	[[ $mhz =~ ^\ *[0-9]+(\.[0-9]+)?$ ]] || return 1
	awk -v m="$mhz" 'BEGIN { printf "%d\n", m * 1000 }'
}

say() { printf '[pfmk %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# sha256 of stdin, shortened.
short_hash() { sha256sum | cut -c1-12; }

# ensure_deps: install missing Debian packages (root) or explain (non-root).
ensure_deps() {
	local missing=() p st
	for p in "${PFMK_PACKAGES[@]}"; do
		st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
		[[ $st == installed ]] || missing+=("$p")
	done
	((${#missing[@]} == 0)) && return 0
	if [[ $(id -u) -ne 0 ]]; then
		say "missing packages: ${missing[*]}"
		say "install them with: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
		exit 1
	fi
	say "installing missing packages: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >&2
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}

# Newest installed Debian kernel release of a series ("6.1" -> "6.1.0-56-amd64")
# that has both an image in /boot and a build directory with headers.
stock_kernel_release() {
	local series=$1 v rel best=
	for v in /boot/vmlinuz-"$series".* /boot/vmlinuz-"$series"-*; do
		[[ -e $v ]] || continue
		rel=${v#/boot/vmlinuz-}
		[[ -e /lib/modules/$rel/build/Makefile || -e /usr/src/linux-headers-$rel/Makefile ]] || continue
		best+="$rel"$'\n'
	done
	[[ -n $best ]] || return 1
	printf '%s' "$best" | sort -V | tail -n1
}

stock_kernel_kdir() {
	local rel=$1
	if [[ -e /usr/src/linux-headers-$rel/Makefile ]]; then
		echo "/usr/src/linux-headers-$rel"
	else
		readlink -f "/lib/modules/$rel/build"
	fi
}

# The kernel series of the matrix.  Debug kernels are built for every
# series in PFMK_SERIES; stock (Debian image) kernels only for those that
# are also in PFMK_STOCK_SERIES: the series whose Debian images and headers
# ensure_deps installs (built with this machine's compiler, so pfmk's
# modules can be built for them).  Debian's 7.2 images are built with a
# newer GCC than the host's: 7.2 is a debug kernel only.
PFMK_ALL_SERIES="6.1 6.12 7.2"
PFMK_STOCK_SERIES=${PFMK_STOCK_SERIES:-6.1 6.12}
PFMK_SERIES=${PFMK_SERIES:-$PFMK_ALL_SERIES}
export PFMK_SERIES PFMK_STOCK_SERIES

# stock_series: the series of PFMK_SERIES that get a debian-<series> row.
stock_series() {
	local s picked=()
	for s in $PFMK_SERIES; do
		[[ " $PFMK_STOCK_SERIES " == *" $s "* ]] && picked+=("$s")
	done
	echo "${picked[*]}"
}

# Series whose linux-source package is fetched (not installed) from a
# Debian suite the machine's own apt sources do not carry, as
# "<series>:<suite>".  Fetched with apt-get download through a private
# sources list and state under $PFMK_CACHE/apt-<suite>: the machine's apt
# configuration and dpkg database are never touched.  An installed
# /usr/src/linux-source-<series>.tar.xz takes precedence.
PFMK_FETCHED_SOURCES=${PFMK_FETCHED_SOURCES-7.2:unstable}
# How long (seconds) a fetched suite's package lists are trusted before
# apt-get update runs again; the cached tarball is used when the mirror
# cannot be reached.
PFMK_APT_REFRESH=${PFMK_APT_REFRESH:-86400}

# fetch_suite <series>: the Debian suite linux-source-<series> is fetched
# from, or nothing (status 1) when it comes from an installed package.
fetch_suite() {
	local e
	for e in $PFMK_FETCHED_SOURCES; do
		if [[ ${e%%:*} == "$1" ]]; then
			echo "${e#*:}"
			return 0
		fi
	done
	return 1
}

# apt_private <suite> <apt-program> args...: run apt-get/apt-cache on the
# private sources list and state of <suite>.
apt_private() {
	local suite=$1 prog=$2 a=$PFMK_CACHE/apt-$1
	shift 2
	local o=(-o "Dir::Etc::SourceList=$a/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache"
		-o Dir::State::status=/dev/null)
	# As root, apt drops to _apt for downloads, which cannot write into
	# root's cache: download as root (what apt falls back to anyway).
	[[ $(id -u) -ne 0 ]] || o+=(-o APT::Sandbox::User=root)
	# A store's own options (e.g. its architectures), one a line.
	if [[ -f $a/options ]]; then
		local opt
		while IFS= read -r opt; do
			[[ -n $opt ]] && o+=(-o "$opt")
		done <"$a/options"
	fi
	"$prog" "${o[@]}" "$@"
}

# fetch_source <series>: make sure $PFMK_CACHE/apt-<suite>/src/ holds
# linux-source-<series>.tar.xz and its package version (.version), from
# the suite's candidate linux-source-<series>.  Serialized by a lock.
fetch_source() {
	local series=$1 suite a pkg
	suite=$(fetch_suite "$series") || die "linux-source-$series: not a fetched series"
	a=$PFMK_CACHE/apt-$suite
	pkg=linux-source-$series
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/debs" "$a/src"
	(
		flock 8
		local ver deb tmp age
		[[ -f /usr/share/keyrings/debian-archive-keyring.gpg ]] ||
			die "$pkg: no /usr/share/keyrings/debian-archive-keyring.gpg; install debian-archive-keyring"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" >"$a/sources.list"
		age=$(($(date +%s) - $(stat -c %Y "$a/lists/.updated" 2>/dev/null || echo 0)))
		if ((age > PFMK_APT_REFRESH)); then
			say "$pkg: apt-get update of Debian $suite (private lists: $a)"
			if apt_private "$suite" apt-get -q update >"$a/update.log" 2>&1; then
				touch "$a/lists/.updated"
			else
				say "$pkg: apt-get update failed (see $a/update.log); using what is cached"
			fi
		fi
		ver=$(apt_private "$suite" apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		if [[ -z $ver || $ver == '(none)' ]]; then
			ver=$(cat "$a/src/$pkg.version" 2>/dev/null || true)
			[[ -n $ver ]] || die "$pkg: not found in Debian $suite (apt-cache policy $pkg on $a/sources.list, log: $a/update.log). Fetch it by hand: apt-get download $pkg from Debian $suite, then dpkg-deb -x it and copy its usr/src/$pkg.tar.xz to /usr/src/"
			say "$pkg: not in the lists of Debian $suite; using the cached $ver"
		fi
		if [[ -f $a/src/$pkg.tar.xz && $(cat "$a/src/$pkg.version" 2>/dev/null) == "$ver" ]]; then
			exit 0
		fi
		deb=$a/debs/${pkg}_${ver//:/%3a}_all.deb
		if [[ ! -s $deb ]]; then
			say "$pkg: downloading $ver from Debian $suite"
			(cd "$a/debs" && apt_private "$suite" apt-get -q download "$pkg=$ver") >"$a/download.log" 2>&1 ||
				die "$pkg: apt-get download $pkg=$ver from Debian $suite failed; see $a/download.log"
		fi
		tmp=$(mktemp -d "$a/src/.x.XXXXXX")
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$tmp" -x "./usr/src/$pkg.tar.xz" ||
			die "$pkg: $deb has no usr/src/$pkg.tar.xz"
		mv "$tmp/usr/src/$pkg.tar.xz" "$a/src/$pkg.tar.xz"
		echo "$ver" >"$a/src/$pkg.version"
		rm -rf "$tmp"
		find "$a/debs" -name "${pkg}_*.deb" ! -name "${deb##*/}" -delete
		say "$pkg: $ver in $a/src"
	) 8>"$a/.lock" || exit 1
}

# arm64 (Documentation/testing.rst, "arm64"): Debian bookworm's arm64
# kernel images and headers for the debian-arm64-<series> rows, the
# linux-kbuild (of this machine's architecture) their headers' scripts
# and tools link to, and busybox-static for the guests' /init.  Fetched
# like linux-source-7.2: apt-get download through a private sources list
# and state in $PFMK_CACHE/apt-bookworm-arm64 (its "options" file sets
# the architectures), never dpkg --add-architecture, never the machine's
# apt sources or dpkg database; nothing is installed.  Each package is
# unpacked with dpkg-deb -x into $PFMK_CACHE/arm64/.
PFMK_ARM64_STORE=bookworm-arm64
PFMK_ARM64_MIRROR=${PFMK_ARM64_MIRROR:-http://deb.debian.org}

# arm64_lists: the private store's package lists, refreshed once every
# PFMK_APT_REFRESH seconds (the cached ones when the mirror cannot be
# reached).  Caller holds the store's lock.
arm64_lists() {
	local a=$PFMK_CACHE/apt-$PFMK_ARM64_STORE host age s k=/usr/share/keyrings/debian-archive-keyring.gpg
	host=$(dpkg --print-architecture)
	mkdir -p "$a/lists/partial" "$a/cache/archives/partial" "$a/debs"
	[[ -f $k ]] || die "arm64: no $k; install debian-archive-keyring"
	for s in bookworm bookworm-updates; do
		echo "deb [arch=arm64,$host signed-by=$k] $PFMK_ARM64_MIRROR/debian $s main"
	done >"$a/sources.list"
	echo "deb [arch=arm64,$host signed-by=$k] $PFMK_ARM64_MIRROR/debian-security bookworm-security main" >>"$a/sources.list"
	printf '%s\n' APT::Architecture=arm64 APT::Architectures::=arm64 "APT::Architectures::=$host" >"$a/options"
	age=$(($(date +%s) - $(stat -c %Y "$a/lists/.updated" 2>/dev/null || echo 0)))
	if ((age > PFMK_APT_REFRESH)); then
		say "arm64: apt-get update of Debian bookworm arm64 (private lists: $a)"
		if apt_private "$PFMK_ARM64_STORE" apt-get -q update >"$a/update.log" 2>&1; then
			touch "$a/lists/.updated"
		else
			say "arm64: apt-get update failed (see $a/update.log); using what is cached"
		fi
	fi
}

# arm64_unpack <package[:arch]> <dest> [path...]: download the candidate
# version of a package into the store (once) and unpack it (or only
# @path...) into @dest.  Caller holds the store's lock.
arm64_unpack() {
	local pkg=$1 dest=$2 a=$PFMK_CACHE/apt-$PFMK_ARM64_STORE ver deb
	shift 2
	ver=$(apt_private "$PFMK_ARM64_STORE" apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[[ -n $ver && $ver != '(none)' ]] || die "arm64: $pkg not in the lists of $a (log: $a/update.log)"
	deb=$(find "$a/debs" -name "${pkg%%:*}_${ver//:/%3a}_*.deb" -print -quit)
	if [[ -z $deb ]]; then
		say "arm64: downloading $pkg $ver"
		(cd "$a/debs" && apt_private "$PFMK_ARM64_STORE" apt-get -q download "$pkg=$ver") >"$a/download.log" 2>&1 ||
			die "arm64: apt-get download $pkg=$ver failed; see $a/download.log"
		deb=$(find "$a/debs" -name "${pkg%%:*}_${ver//:/%3a}_*.deb" -print -quit)
	fi
	mkdir -p "$dest"
	if (($#)); then
		dpkg-deb --fsys-tarfile "$deb" | tar -C "$dest" -x "$@"
	else
		dpkg-deb -x "$deb" "$dest"
	fi
}

# arm64_kernel <series>: make sure $PFMK_CACHE/arm64/<release>/ holds
# Debian's arm64 kernel of a series (the release its metapackage,
# linux-image-arm64 or linux-image-<series>-arm64, depends on): the image
# (boot/vmlinuz-<release>), the headers (usr/src/linux-headers-<release>,
# their Makefile pointed at the cached -common headers) and the kbuild
# they link to; prints that directory.  Serialized by the store's lock.
arm64_kernel() {
	local series=$1 a=$PFMK_CACHE/apt-$PFMK_ARM64_STORE
	mkdir -p "$a"
	(
		flock 8
		arm64_lists
		local arel meta dir tmp hdr kb host
		for meta in "linux-image-$series-arm64" linux-image-arm64; do
			arel=$(apt_private "$PFMK_ARM64_STORE" apt-cache depends "$meta" 2>/dev/null |
				sed -n "s/^ *Depends: linux-image-\(${series}[.-][^ ]*-arm64\)\$/\1/p" | head -n1)
			[[ -n $arel ]] && break
		done
		[[ -n $arel ]] || die "arm64: no Debian arm64 kernel of series $series in $a's lists"
		dir=$PFMK_CACHE/arm64/$arel
		if [[ -f $dir/.pfmk-complete ]]; then
			echo "$dir"
			exit 0
		fi
		host=$(dpkg --print-architecture)
		mkdir -p "$PFMK_CACHE/arm64"
		tmp=$(mktemp -d "$PFMK_CACHE/arm64/.x.XXXXXX")
		arm64_unpack "linux-image-$arel" "$tmp" ./boot
		arm64_unpack "linux-headers-$arel" "$tmp"
		hdr=$(sed -n 's|^include /usr/src/\(linux-headers-[^/]*-common\)/Makefile$|\1|p' "$tmp/usr/src/linux-headers-$arel/Makefile")
		[[ -n $hdr ]] || die "arm64: linux-headers-$arel: no -common include in its Makefile"
		arm64_unpack "$hdr" "$tmp"
		kb=$(readlink "$tmp/usr/src/linux-headers-$arel/scripts")
		kb=${kb#../../lib/}
		kb=${kb%%/*}
		[[ $kb == linux-kbuild-* ]] || die "arm64: linux-headers-$arel: scripts do not link to a linux-kbuild"
		arm64_unpack "$kb:$host" "$tmp"
		# The headers are unpacked under $dir, not /usr/src.
		sed -i "s|^include /usr/src/|include $dir/usr/src/|" "$tmp/usr/src/linux-headers-$arel/Makefile"
		[[ -f $tmp/boot/vmlinuz-$arel && -f $tmp/usr/src/linux-headers-$arel/Module.symvers ]] ||
			die "arm64: $arel: image or headers missing after unpacking"
		touch "$tmp/.pfmk-complete"
		rm -rf "$dir"
		mv "$tmp" "$dir"
		say "arm64: Debian $arel in $dir"
		echo "$dir"
	) 8>"$a/.lock"
}

# arm64_busybox: the path of an arm64 static busybox (Debian's
# busybox-static:arm64, unpacked into the cache once).
arm64_busybox() {
	local a=$PFMK_CACHE/apt-$PFMK_ARM64_STORE d=$PFMK_CACHE/arm64/busybox
	mkdir -p "$a"
	(
		flock 8
		if [[ ! -x $d/bin/busybox ]]; then
			arm64_lists
			rm -rf "$d"
			arm64_unpack busybox-static "$d" ./bin/busybox
		fi
		echo "$d/bin/busybox"
	) 8>"$a/.lock"
}

# source_tarball <series>: the linux-source-<series> tarball (fetched
# first for a fetched series); dies saying what to install when missing.
source_tarball() {
	local series=$1 suite
	if [[ -f /usr/src/linux-source-$series.tar.xz ]]; then
		echo "/usr/src/linux-source-$series.tar.xz"
	elif suite=$(fetch_suite "$series"); then
		fetch_source "$series"
		echo "$PFMK_CACHE/apt-$suite/src/linux-source-$series.tar.xz"
	else
		die "no /usr/src/linux-source-$series.tar.xz: install it with apt-get install linux-source-$series"
	fi
}

# Debian package version of linux-source-<series> (for a fetched series,
# the fetched package's), fallback: tarball size+mtime.
source_version() {
	local series=$1 v suite
	v=$(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null || true)
	if [[ -z $v && ! -f /usr/src/linux-source-$series.tar.xz ]] && suite=$(fetch_suite "$series"); then
		fetch_source "$series"
		v=$(cat "$PFMK_CACHE/apt-$suite/src/linux-source-$series.version")
	fi
	if [[ -z $v ]]; then
		v=$(stat -c '%s-%Y' "$(source_tarball "$series")")
	fi
	echo "$v"
}

# Hash of the patch series for a source series (empty dir/absent -> "none").
patches_hash() {
	local series=$1 f
	local dir="$PFMK_ROOT/patches/linux-$series"
	local files=()
	if [[ -d $dir ]]; then
		while IFS= read -r f; do files+=("$f"); done < <(find "$dir" "$dir/test-only" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' -o -name series \) 2>/dev/null | LC_ALL=C sort)
	fi
	if ((${#files[@]} == 0)); then
		echo none
		return
	fi
	for f in "${files[@]}"; do
		printf '%s\n' "${f##*/}"
		cat "$f"
	done | short_hash
}

# List of patch files to apply, in order (series file if present, else
# sorted), then the test-only patches of patches/linux-<series>/test-only/
# (never part of the series posted upstream; pfmk's debug kernels carry
# them for its test suites) unless $2 is "series".
patch_list() {
	local series=$1 what=${2:-all} p
	local dir="$PFMK_ROOT/patches/linux-$series"
	[[ -d $dir ]] || return 0
	if [[ -f $dir/series ]]; then
		while IFS= read -r p; do
			p=${p%%#*}
			p=${p//[[:space:]]/}
			[[ -n $p ]] && echo "$dir/$p"
		done <"$dir/series"
	else
		find "$dir" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' \) | LC_ALL=C sort
	fi
	if [[ $what != series && -d $dir/test-only ]]; then
		find "$dir/test-only" -maxdepth 1 -type f \( -name '*.patch' -o -name '*.diff' \) | LC_ALL=C sort
	fi
}

# Directory of the extracted (and patched) source tree for a series.
source_tree_dir() {
	local series=$1
	local v
	v=$(source_version "$series")
	echo "$PFMK_CACHE/src/linux-source-$series-${v//[^A-Za-z0-9.+_-]/_}-p$(patches_hash "$series")"
}

# Extract linux-source-<series> (once) and apply patches. Prints the tree path.
ensure_source_tree() {
	local series=$1 dir tmp p
	dir=$(source_tree_dir "$series")
	if [[ -f $dir/.pfmk-complete ]]; then
		echo "$dir"
		return 0
	fi
	local tarball
	tarball=$(source_tarball "$series")
	say "extracting linux-source-$series into $dir"
	mkdir -p "$PFMK_CACHE/src"
	tmp=$(mktemp -d "$PFMK_CACHE/src/.extract.XXXXXX")
	tar -C "$tmp" -xf "$tarball"
	local top
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
	while IFS= read -r p; do
		[[ -n $p ]] || continue
		say "applying $(basename "$p")"
		if ! (cd "$top" && git apply --whitespace=nowarn "$p" 2>/dev/null); then
			(cd "$top" && patch -p1 --forward --batch <"$p" >&2) || die "patch $p does not apply to linux-source-$series"
		fi
	done < <(patch_list "$series")
	touch "$top/.pfmk-complete"
	rm -rf "$dir"
	mv "$top" "$dir"
	rm -rf "$tmp"
	prune_cache "$PFMK_CACHE/src" "linux-source-$series-*" "$dir"
	echo "$dir"
}

# Print a tail of a log file on failure.
show_log_tail() {
	local f=$1 n=${2:-40}
	say "last $n lines of $f:"
	tail -n "$n" "$f" >&2 || true
}

# prune_cache <parent-dir> <glob> <current>: delete all but the newest
# PFMK_CACHE_KEEP (default 2) entries matching <glob> under <parent-dir>,
# never <current> and never an entry whose .lock is held by a running build.
prune_cache() {
	local parent=$1 glob=$2 current=$3 keep=${PFMK_CACHE_KEEP:-2} d n=0
	while IFS= read -r d; do
		[[ $d == "$current" ]] && continue
		n=$((n + 1))
		((n < keep)) && continue
		if [[ -e $d/.lock ]] && ! flock -n "$d/.lock" true; then
			continue
		fi
		say "pruning old cache entry $d"
		rm -rf "$d"
	done < <(find "$parent" -mindepth 1 -maxdepth 1 -type d -name "$glob" -printf '%T@ %p\n' 2>/dev/null | sort -rn | cut -d' ' -f2-)
}
