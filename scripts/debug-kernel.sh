#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build (or reuse from the cache) a debug kernel from linux-source-<series>.
#
# usage: scripts/debug-kernel.sh [--key] [--arch arm64] [--nodebug] <series>
#   e.g. 6.12
#   --key         print the cache directory only
#   --nodebug     the same kernel, with pfmk's AUX patch, without the debug
#                 options (scripts/kconfig/nodebug.config merged last: no
#                 KASAN, lockdep, kmemleak, KUnit, list and object
#                 debugging), cached as aux-<series>: make bench's AUX
#                 copy-out rows, on a kernel as users run one
#   --arch arm64  cross-build for arm64 (QEMU's virt machine) with
#                 aarch64-linux-gnu-gcc and scripts/kconfig/debug-arm64.config,
#                 cached as debug-arm64-<series>; default: x86_64 and
#                 scripts/kconfig/debug.config, cached as debug-<series>
#
# On success prints the cache directory, which contains:
#   bzImage      the kernel image to boot (x86_64), or
#   Image        the same for arm64 (scripts/lib.sh: kernel_image_name)
#   build/       the O= output directory, usable as KDIR for external modules
#                (with ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- for arm64)
#   config       the final .config
#   build.log    the full build log
#
# Cache key: linux-source package version, sha256 of the config fragments
# (scripts/kconfig/debug.config or debug-arm64.config, then
# scripts/kconfig/<name>.config, e.g. debug-6.1.config, where it exists:
# options one kernel alone needs), sha256 of patches/linux-<series>/*, the
# compiler version and the recipe version below.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

RECIPE_VERSION=1

key_only=0
nodebug=0
arch=x86_64
while (($#)); do
	case $1 in
	--key) key_only=1 ;;
	--arch) arch=${2:?--arch needs x86_64 or arm64}; shift ;;
	--nodebug) nodebug=1 ;;
	*) break ;;
	esac
	shift
done
series=${1:?usage: debug-kernel.sh [--key] [--arch arm64] [--nodebug] <series>}
case $arch in
x86_64)
	FRAGMENT=$PFMK_ROOT/scripts/kconfig/debug.config
	name=debug-$series
	cc=gcc
	cross=()
	;;
arm64)
	FRAGMENT=$PFMK_ROOT/scripts/kconfig/debug-arm64.config
	name=debug-arm64-$series
	cc=${PFMK_CROSS_COMPILE_ARM64}gcc
	cross=(CROSS_COMPILE="$PFMK_CROSS_COMPILE_ARM64")
	;;
*) die "debug-kernel.sh: unknown architecture $arch (x86_64 or arm64)" ;;
esac
image=$(kernel_image_name "$arch")
# The fragments, in merge order: the kernel's own one next, when there is
# one; nodebug.config last.
FRAGMENTS=("$FRAGMENT")
[[ -f $PFMK_ROOT/scripts/kconfig/$name.config ]] &&
	FRAGMENTS+=("$PFMK_ROOT/scripts/kconfig/$name.config")
if ((nodebug)); then
	[[ $arch == x86_64 ]] || die "debug-kernel.sh: --nodebug is x86_64's (make bench)"
	FRAGMENTS+=("$PFMK_ROOT/scripts/kconfig/nodebug.config")
	name=aux-$series
fi

cache_dir() {
	local v cfg
	v=$(source_version "$series")
	cfg=$({
		cat "${FRAGMENTS[@]}"
		echo "recipe=$RECIPE_VERSION"
		"$cc" --version | head -n1
	} | short_hash)
	echo "$PFMK_CACHE/kernels/$name/${v//[^A-Za-z0-9.+_-]/_}-c$cfg-p$(patches_hash "$series")"
}

dir=$(cache_dir)
if ((key_only)); then
	echo "$dir"
	exit 0
fi

mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9

if [[ -f $dir/.pfmk-complete ]]; then
	# The O= directory refers to its source tree: make sure it still exists.
	ensure_source_tree "$series" >/dev/null
	ln -sfn "$(basename "$dir")" "$(dirname "$dir")/latest"
	say "$name: cached kernel $dir"
	echo "$dir"
	exit 0
fi

src=$(ensure_source_tree "$series")
obj=$dir/build
log=$dir/build.log
rm -rf "$obj" "${dir:?}/$image" "$dir/config"
mkdir -p "$obj"
: >"$log"
kmake() { make -C "$src" O="$obj" ARCH="$arch" "${cross[@]}" "$@"; }

say "$name: configuring (tinyconfig + ${FRAGMENTS[*]##*/})"
{
	kmake tinyconfig
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${FRAGMENTS[@]}")
	kmake olddefconfig
} >>"$log" 2>&1 || {
	show_log_tail "$log"
	die "$name: configuration failed"
}

# Verify that every requested option really ended up in .config.
kconfig_defines() {
	grep -rqs --include='Kconfig*' -E "^[[:space:]]*(menu)?config[[:space:]]+${1#CONFIG_}\$" "$src"
}
verify_config() {
	local cfg=$obj/.config bad=0 line sym val want got optional min
	local -A wanted=()
	local -a order=()
	optional=" $(sed -n 's/^# pfmk-optional://p' "${FRAGMENTS[@]}" | tr '\n' ' ') "
	# A symbol a later fragment sets again is checked for its last value,
	# as merge_config.sh applies it.
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]}
			want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]}
			want=n
		else
			continue
		fi
		[[ -v wanted[$sym] ]] || order+=("$sym")
		wanted[$sym]=$want
	done < <(cat "${FRAGMENTS[@]}")
	for sym in "${order[@]}"; do
		want=${wanted[$sym]}
		if [[ $optional == *" $sym "* ]] && ! kconfig_defines "$sym"; then
			continue
		fi
		got=$(sed -n "s/^$sym=//p" "$cfg")
		[[ -n $got ]] || got=n
		if [[ $got != "$want" ]]; then
			say "$name: config $sym: requested '$want', got '$got'"
			bad=1
		fi
	done
	while IFS= read -r line; do
		[[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=([0-9]+)$ ]] || continue
		sym=${BASH_REMATCH[1]}
		min=${BASH_REMATCH[2]}
		val=$(sed -n "s/^$sym=//p" "$cfg")
		if [[ -z $val || $val -lt $min ]]; then
			say "$name: config $sym=$val, need >= $min"
			bad=1
		fi
	done < <(sed -n 's/^# pfmk-min:[[:space:]]*//p' "${FRAGMENTS[@]}" | tr ' ' '\n')
	return "$bad"
}
verify_config || die "$name: the config fragment did not apply; see $obj/.config"
cp "$obj/.config" "$dir/config"

say "$name: building $image + modules with -j$PFMK_JOBS (log: $log)"
start=$SECONDS
kmake -j"$PFMK_JOBS" "$image" modules >>"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 60); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$pid" 2>/dev/null || break
	say "$name: still building ($((SECONDS - start))s, $(grep -c '^  CC' "$log" || true) files compiled)"
done
if ! wait "$pid"; then
	show_log_tail "$log"
	die "$name: kernel build failed"
fi
cp "$obj/arch/${arch/x86_64/x86}/boot/$image" "$dir/$image"
[[ -f $obj/Module.symvers ]] || die "$name: no Module.symvers"
touch "$dir/.pfmk-complete"
say "$name: built in $((SECONDS - start))s"
prune_cache "$(dirname "$dir")" '*' "$dir"
ln -sfn "$(basename "$dir")" "$(dirname "$dir")/latest"
echo "$dir"
exit
}
