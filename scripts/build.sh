#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh ARCH SRC OBJ: configure (tinyconfig + configs/ fragments) and
# build the kernel image of SRC into OBJ.  Every option the fragments ask
# for must survive olddefconfig, unless LAX_CONFIG=1 (bisect builds of
# early patches, which do not have the later options yet).  NODEBUG=1
# leaves out debug.config and ARCH-kasan.config.
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: build.sh ARCH SRC OBJ"
arch=$1 src=$(realpath "$2") obj=$(realpath -m "$3")
need_build_deps "$arch"
mkdir -p "$obj"

# NODEBUG=1 leaves out the debug checks (lockdep, KASAN, ...): the
# benchmark kernel, which should cost what a distribution kernel costs.
frags=("$CONFIGS/common.config")
[ "${NODEBUG:-0}" = 1 ] || frags+=("$CONFIGS/debug.config")
frags+=("$CONFIGS/$arch.config")
[ "${NODEBUG:-0}" = 1 ] && frags+=("$CONFIGS/bench.config")
# ARCH-debug.config: test-only options of one architecture.
for f in "$CONFIGS/$arch-kasan.config" "$CONFIGS/$arch-debug.config"; do
	[ "${NODEBUG:-0}" != 1 ] && [ -f "$f" ] && frags+=("$f")
done
[ -n "${EXTRA_CONFIG:-}" ] && frags+=($EXTRA_CONFIG)

# Configure every time: it takes seconds, and kbuild rebuilds only what a
# changed option touches.
log "$arch: configuring (tinyconfig + ${frags[*]##*/})"
kmake "$arch" "$src" "$obj" -s tinyconfig >/dev/null
cat "${frags[@]}" > "$obj/.harness-fragments"
(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config \
	.harness-fragments >"$obj/config.log" 2>&1) || { cat "$obj/config.log" >&2; die "$arch: merge_config failed"; }
kmake "$arch" "$src" "$obj" -s olddefconfig >>"$obj/config.log" 2>&1 ||
	{ cat "$obj/config.log" >&2; die "$arch: olddefconfig failed"; }

# Every requested option must be in the final configuration.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}
		    grep -q "^$opt=" "$obj/.config" && { echo "  $line: got $(grep "^$opt=" "$obj/.config")" >&2; bad=1; } ;;
	CONFIG_*=*) grep -qxF "$line" "$obj/.config" ||
		    { echo "  $line: got $(grep -E "^(# )?${line%%=*}[= ]" "$obj/.config" || echo 'not in this tree')" >&2; bad=1; } ;;
	esac
done < <(cat "${frags[@]}")
if [ $bad -ne 0 ]; then
	[ "${LAX_CONFIG:-0}" = 1 ] || die "$arch: the options above did not survive olddefconfig (missing dependency?)"
	log "$arch: some requested options are not in this tree (LAX_CONFIG=1)"
fi

log "$arch: building $(arch_kernel_image "$arch") in $obj"
kmake "$arch" "$src" "$obj" -s "$(basename "$(arch_kernel_image "$arch")")" \
	> "$obj/build.log" 2>&1 || { tail -40 "$obj/build.log" >&2; die "$arch: kernel build failed (log: $obj/build.log)"; }
grep -E 'warning:' "$obj/build.log" >&2 || true
# Headers for the test programs.
kmake "$arch" "$src" "$obj" -s headers >/dev/null 2>&1 || die "$arch: make headers failed"
log "$arch: built $obj/$(arch_kernel_image "$arch")"
