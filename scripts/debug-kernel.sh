#!/usr/bin/env bash
# Build (or reuse from the cache) a debug kernel from linux-source-<series>.
#
# usage: scripts/debug-kernel.sh <series>        e.g. 6.12
#        scripts/debug-kernel.sh --key <series>  print the cache directory only
#
# On success prints the cache directory, which contains:
#   bzImage      the kernel image to boot
#   build/       the O= output directory, usable as KDIR for external modules
#   config       the final .config
#   build.log    the full build log
#
# Cache key: linux-source package version, sha256 of the config fragments
# (scripts/kconfig/debug.config, then scripts/kconfig/debug-<series>.config
# where it exists: options one series alone needs), sha256 of
# patches/linux-<series>/*, the compiler version and the recipe version
# below.
set -euo pipefail
# Parsed as a whole before running: editing this file cannot break a run.
{
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

RECIPE_VERSION=1
FRAGMENT=$PFMK_ROOT/scripts/kconfig/debug.config

key_only=0
if [[ ${1:-} == --key ]]; then
	key_only=1
	shift
fi
series=${1:?usage: debug-kernel.sh [--key] <series>}
# The fragments, in merge order: the series' own one last, when there is one.
FRAGMENTS=("$FRAGMENT")
[[ -f $PFMK_ROOT/scripts/kconfig/debug-$series.config ]] &&
	FRAGMENTS+=("$PFMK_ROOT/scripts/kconfig/debug-$series.config")

cache_dir() {
	local v cfg
	v=$(source_version "$series")
	cfg=$({
		cat "${FRAGMENTS[@]}"
		echo "recipe=$RECIPE_VERSION"
		gcc --version | head -n1
	} | short_hash)
	echo "$PFMK_CACHE/kernels/debug-$series/${v//[^A-Za-z0-9.+_-]/_}-c$cfg-p$(patches_hash "$series")"
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
	say "debug-$series: cached kernel $dir"
	echo "$dir"
	exit 0
fi

src=$(ensure_source_tree "$series")
obj=$dir/build
log=$dir/build.log
rm -rf "$obj" "$dir/bzImage" "$dir/config"
mkdir -p "$obj"
: >"$log"
kmake() { make -C "$src" O="$obj" ARCH=x86_64 "$@"; }

say "debug-$series: configuring (tinyconfig + ${FRAGMENTS[*]##*/})"
{
	kmake tinyconfig
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "${FRAGMENTS[@]}")
	kmake olddefconfig
} >>"$log" 2>&1 || {
	show_log_tail "$log"
	die "debug-$series: configuration failed"
}

# Verify that every requested option really ended up in .config.
kconfig_defines() {
	grep -rqs --include='Kconfig*' -E "^[[:space:]]*(menu)?config[[:space:]]+${1#CONFIG_}\$" "$src"
}
verify_config() {
	local cfg=$obj/.config bad=0 line sym val want got optional min
	optional=" $(sed -n 's/^# pfmk-optional://p' "${FRAGMENTS[@]}" | tr '\n' ' ') "
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
		if [[ $optional == *" $sym "* ]] && ! kconfig_defines "$sym"; then
			continue
		fi
		got=$(sed -n "s/^$sym=//p" "$cfg")
		[[ -n $got ]] || got=n
		if [[ $got != "$want" ]]; then
			say "debug-$series: config $sym: requested '$want', got '$got'"
			bad=1
		fi
	done < <(cat "${FRAGMENTS[@]}")
	while IFS= read -r line; do
		[[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=([0-9]+)$ ]] || continue
		sym=${BASH_REMATCH[1]}
		min=${BASH_REMATCH[2]}
		val=$(sed -n "s/^$sym=//p" "$cfg")
		if [[ -z $val || $val -lt $min ]]; then
			say "debug-$series: config $sym=$val, need >= $min"
			bad=1
		fi
	done < <(sed -n 's/^# pfmk-min:[[:space:]]*//p' "${FRAGMENTS[@]}" | tr ' ' '\n')
	return "$bad"
}
verify_config || die "debug-$series: the config fragment did not apply; see $obj/.config"
cp "$obj/.config" "$dir/config"

say "debug-$series: building bzImage + modules with -j$PFMK_JOBS (log: $log)"
start=$SECONDS
kmake -j"$PFMK_JOBS" bzImage modules >>"$log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 60); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$pid" 2>/dev/null || break
	say "debug-$series: still building ($((SECONDS - start))s, $(grep -c '^  CC' "$log" || true) files compiled)"
done
if ! wait "$pid"; then
	show_log_tail "$log"
	die "debug-$series: kernel build failed"
fi
cp "$obj/arch/x86/boot/bzImage" "$dir/bzImage"
[[ -f $obj/Module.symvers ]] || die "debug-$series: no Module.symvers"
touch "$dir/.pfmk-complete"
say "debug-$series: built in $((SECONDS - start))s"
prune_cache "$(dirname "$dir")" '*' "$dir"
ln -sfn "$(basename "$dir")" "$(dirname "$dir")/latest"
echo "$dir"
exit
}
