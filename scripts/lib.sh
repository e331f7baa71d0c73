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
	linux-source-6.1 linux-source-6.12
	sparse coccinelle busybox-static cpio gzip bc flex bison
	libelf-dev libssl-dev kmod xz-utils python3 perl gcc make patch git
	linux-perf python3-sphinx dkms
)

# guest_accel <mode>: the QEMU accelerator for a guest of that kind (the
# default of PFMK_QEMU_ACCEL in test.sh and demo.sh).  Stock kernels run
# under single-threaded TCG.  Under QEMU 7.2's multi-threaded TCG,
# Debian's 6.12 kernel oopsed ("Oops: int3") in 3 of 8 identical boots,
# each time on a vCPU executing the int3 of a static-key site
# (perf_swevent_enabled[] in __schedule(), finish_task_switch(),
# do_user_addr_fault()) after text_poke_bp() had already written the
# final jump: a stale translation of patched kernel text.  With
# thread=single: 0 in 8 (and every later run).  The debug kernels are
# built without CONFIG_JUMP_LABEL (static keys are plain branches there,
# nothing is patched at run time), never showed it, and keep one host
# thread per vCPU for the race tests.  make bench keeps multi-threaded
# TCG for its two-CPU workload.  Documentation/testing.rst, "Known
# problems".
guest_accel() {
	case $1 in
	stock | demo) echo tcg,thread=single ;;
	*) echo tcg ;;
	esac
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

# Source series available as linux-source-<series> tarballs, e.g. "6.1 6.12".
source_series() {
	local t s
	for t in /usr/src/linux-source-*.tar.xz; do
		[[ -e $t ]] || continue
		s=${t#/usr/src/linux-source-}
		echo "${s%.tar.xz}"
	done | sort -V
}

# Debian package version of linux-source-<series>, fallback: tarball size+mtime.
source_version() {
	local series=$1 v
	v=$(dpkg-query -W -f='${Version}' "linux-source-$series" 2>/dev/null || true)
	if [[ -z $v ]]; then
		v=$(stat -c '%s-%Y' "/usr/src/linux-source-$series.tar.xz")
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
	[[ -f /usr/src/linux-source-$series.tar.xz ]] || die "no /usr/src/linux-source-$series.tar.xz"
	say "extracting linux-source-$series into $dir"
	mkdir -p "$PFMK_CACHE/src"
	tmp=$(mktemp -d "$PFMK_CACHE/src/.extract.XXXXXX")
	tar -C "$tmp" -xf "/usr/src/linux-source-$series.tar.xz"
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
