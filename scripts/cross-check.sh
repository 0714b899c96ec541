#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# cross-check.sh SRC [TARGET...]: compile what the series touches in the
# tree SRC for every architecture Debian 12 builds, and under Debian's
# own kernel configuration.  Targets (default: all):
#
#   i386 armhf armel ppc64el s390x mips64el
#	the architecture's defconfig (Debian's flavour of it) with the
#	series' options turned on where the architecture has them;
#   debian-amd64 debian-arm64
#	Debian's own configuration from its linux-config-6.1 package
#	(config.amd64_none_amd64, config.arm64_none_arm64), with only the
#	signing keys the source package does not carry left out.
#
# For each target it builds, with Debian's cross compiler:
#   - every C file of the series outside arch/, and those under the
#     target's arch/ directory, as single objects (their Kconfig decides
#     whether they are part of that kernel);
#   - the whole of kernel/events/, kernel/uwtable/, lib/sframe/ and
#     lib/ehabi/;
#   - arch/ARCH/kernel/signal.o, a user of the changed
#     <linux/resume_user_mode.h>, and on x86 the vDSOs;
# that on 32-bit targets none of those objects calls libgcc's 64-bit
# division (__udivdi3, __aeabi_uldivmod, ...), which the kernel does not
# link; and checks the new options: where the architecture does not select
# HAVE_UWTABLE_SFRAME or HAVE_UWTABLE_EHABI,
# neither unwinder nor the registry they share (UWTABLE) is
# configured and
# kernel/uwtable/table.o is not built; where it does, the registry
# is built.  A compiler warning in a file the series touches fails the
# target, as does any error.
#
# This is not a link of vmlinux (modpost, BTF): scripts/distro.sh builds
# the whole Debian-config kernel.  One line per target: "ok   TARGET ..."
# or "FAIL TARGET ..."; exit status 1 if any failed.
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: cross-check.sh SRC [TARGET...]"
src=$(realpath "$1")
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
	targets=(i386 armhf armel ppc64el s390x mips64el debian-amd64 debian-arm64)

# TARGET -> "SRCARCH CROSS_COMPILE DEFCONFIG PACKAGE..."
target_info() {
	case $1 in
	i386)	  echo "x86 i686-linux-gnu- i386_defconfig gcc-i686-linux-gnu" ;;
	armhf)	  echo "arm arm-linux-gnueabihf- multi_v7_defconfig gcc-arm-linux-gnueabihf" ;;
	armel)	  echo "arm arm-linux-gnueabi- multi_v5_defconfig gcc-arm-linux-gnueabi" ;;
	ppc64el)  echo "powerpc powerpc64le-linux-gnu- ppc64le_defconfig gcc-powerpc64le-linux-gnu" ;;
	s390x)	  echo "s390 s390x-linux-gnu- defconfig gcc-s390x-linux-gnu" ;;
	mips64el) echo "mips mips64el-linux-gnuabi64- 64r2el_defconfig gcc-mips64el-linux-gnuabi64" ;;
	debian-amd64) echo "x86 x86_64-linux-gnu- debian gcc" ;;
	# Debian's arm64 configuration links user programs (CC_CAN_LINK) and
	# builds the compat vDSO with the 32-bit ARM compiler.
	debian-arm64) echo "arm64 aarch64-linux-gnu- debian gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-arm-linux-gnueabihf" ;;
	*) die "unknown target $1" ;;
	esac
}

# The kernel's ARCH for a target (i386 and amd64 are both arch/x86).
karch() {
	case $1 in
	i386) echo i386 ;;
	debian-amd64) echo x86_64 ;;
	*) target_info "$1" | cut -d' ' -f1 ;;
	esac
}

# The series' options; what the architecture cannot have is dropped by
# olddefconfig, and checked below.
series_options() {
	cat <<-'EOF'
	CONFIG_PERF_EVENTS=y
	CONFIG_BPF_SYSCALL=y
	CONFIG_PROC_FS=y
	CONFIG_PROC_PAGE_MONITOR=y
	CONFIG_KUNIT=y
	CONFIG_BUILDID_KUNIT_TEST=y
	CONFIG_SFRAME=y
	CONFIG_SFRAME_KUNIT_TEST=y
	CONFIG_EHABI=y
	CONFIG_EHABI_KUNIT_TEST=y
	CONFIG_UWTABLE_SFRAME=y
	CONFIG_UWTABLE_EHABI=y
	CONFIG_UWTABLE_KUNIT_TEST=y
	EOF
}

# Debian's configuration of target debian-amd64 or debian-arm64 in OUT
debian_config() {
	local f
	f=$(debian_config_xz "${1#debian-}") || return 1
	xz -dc "$f" > "$2"
}

cmake_() {
	local t=$1 obj=$2
	shift 2
	read -r _ cross _ _ <<<"$(target_info "$t")"
	make -C "$src" O="$obj" ARCH="$(karch "$t")" CROSS_COMPILE="$cross" \
		CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- \
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"
}

configure() {
	local t=$1 obj=$2 defconfig
	read -r _ _ defconfig _ <<<"$(target_info "$t")"
	mkdir -p "$obj"
	if [ "$defconfig" = debian ]; then
		debian_config "$t" "$obj/.config"
		# The signing keys are Debian's own; the source package has
		# none.  Nothing else is changed.
		"$src/scripts/config" --file "$obj/.config" \
			--set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" \
			--set-str MODULE_SIG_KEY "certs/signing_key.pem"
		cp "$obj/.config" "$obj/debian.config"
	else
		cmake_ "$t" "$obj" -s "$defconfig" >/dev/null
		series_options > "$obj/series.config"
		(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			.config series.config) > "$obj/config.log" 2>&1 ||
			{ cat "$obj/config.log" >&2; return 1; }
	fi
	cmake_ "$t" "$obj" -s olddefconfig >> "$obj/config.log" 2>&1
}

# What Debian has =y must still be =y with the series (olddefconfig
# could only add the series' new options).
check_debian_config() {
	local obj=$1 bad
	bad=$(grep '=y$' "$obj/debian.config" | grep -vxFf "$obj/.config" || true)
	[ -z "$bad" ] || { echo "options Debian has =y that are not: $bad"; return 1; }
}

# The options checks: "ok" or the reason.
check_options() {
	local t=$1 obj=$2 sarch have_sf have_eh
	read -r sarch _ _ _ <<<"$(target_info "$t")"
	have_sf=$(grep -c '^CONFIG_HAVE_UWTABLE_SFRAME=y' "$obj/.config" || true)
	have_eh=$(grep -c '^CONFIG_HAVE_UWTABLE_EHABI=y' "$obj/.config" || true)
	if [ "$have_sf" = 0 ] && [ "$have_eh" = 0 ]; then
		for o in UWTABLE_SFRAME UWTABLE_EHABI UWTABLE; do
			grep -q "^CONFIG_$o=" "$obj/.config" &&
				{ echo "CONFIG_$o is set without HAVE_UWTABLE_*"; return 1; }
		done
		[ ! -e "$obj/kernel/uwtable/table.o" ] ||
			{ echo "kernel/uwtable/table.o was built"; return 1; }
		echo "no user unwind tables (as documented)"
	else
		grep -q '^CONFIG_UWTABLE=y' "$obj/.config" ||
			{ echo "HAVE_UWTABLE_* but no UWTABLE"; return 1; }
		[ -e "$obj/kernel/uwtable/table.o" ] ||
			{ echo "kernel/uwtable/table.o was not built"; return 1; }
		echo "user unwind tables:$([ "$have_sf" = 1 ] && echo ' SFrame')$([ "$have_eh" = 1 ] && echo ' EHABI')"
	fi
}

# The objects of TARGET: kernel/events/, kernel/uwtable/, lib/sframe/
# and lib/ehabi/ whole (kbuild builds what the configuration asks for); the series'
# other C files outside arch/ and in the target's own arch/, each when
# its directory's Makefile lists it under an option that is set (a file
# that no Makefile names is #included by another, as the KUnit suites
# are); and the arch's signal.o.
objects() {
	local t=$1 obj=$2 sarch base f o line opt
	read -r sarch _ _ _ <<<"$(target_info "$t")"
	echo kernel/events/ kernel/uwtable/ lib/sframe/ lib/ehabi/
	echo "arch/$sarch/kernel/signal.o"
	# the vDSOs, the 64-bit one with its SFrame section
	[ "$sarch" = x86 ] && echo arch/x86/entry/vdso/
	base=$(git -C "$src" rev-list --max-parents=0 HEAD | tail -n 1)
	for f in $(git -C "$src" diff --name-only --diff-filter=AM "$base" HEAD -- '*.c' |
		   grep -v -e '^tools/' -e '^Documentation/' -e '^scripts/' -e '^samples/' \
			-e '^kernel/events/' -e '^kernel/uwtable/' -e '^lib/sframe/' -e '^lib/ehabi/' |
		   awk -v a="arch/$sarch/" '!/^arch\// || index($0, a) == 1'); do
		o=$(basename "${f%.c}.o")
		line=$(grep -hw -- "${o//./\\.}" "$src/$(dirname "$f")/Makefile" | head -n 1)
		[ -n "$line" ] || continue
		opt=$(echo "$line" | sed -n 's/^[a-z0-9_-]*-\$(CONFIG_\([A-Z0-9_]*\)).*/\1/p')
		if [ -z "$opt" ] || grep -q "^CONFIG_$opt=y" "$obj/.config"; then
			echo "${f%.c}.o"
		fi
	done
}

# 64-bit divisions by the compiler's helpers in the series' objects: the
# kernel has no libgcc, so vmlinux would not link (use div_u64() or
# 32-bit operands).  Prints the offending objects.
check_div64() {
	local t=$1 obj=$2 cross o undef
	read -r _ cross _ _ <<<"$(target_info "$t")"
	for o in $(find "$obj/lib/sframe" "$obj/lib/ehabi" "$obj/kernel/uwtable" \
			"$obj/kernel/events" "$obj/lib/buildid.o" "$obj/fs/proc/task_mmu.o" \
			-name '*.o' 2>/dev/null); do
		undef=$("${cross}nm" -u "$o")
		grep -qE ' (__u?(div|mod)di3|__udivmoddi4|__aeabi_u?ldivmod)$' <<<"$undef" &&
			echo "${o#"$obj"/}"
	done
	return 0
}

run_target() {
	local t=$1 obj=$BUILD/cross/$1 pkg objs log why n
	read -r _ _ _ pkg <<<"$(target_info "$t")"
	# shellcheck disable=SC2086
	need_pkgs $pkg ccache make flex bison bc libelf-dev libssl-dev xz-utils
	[ "$t" = debian-amd64 ] && need_pkgs dwarves
	log=$obj.log
	mkdir -p "$obj"
	configure "$t" "$obj" > "$log" 2>&1 || { echo "FAIL $t: configure (log: $log)"; return 1; }
	if [ -f "$obj/debian.config" ]; then
		why=$(check_debian_config "$obj") || { echo "FAIL $t: $why"; return 1; }
	fi
	rm -f "$obj"/kernel/uwtable/*.o
	objs=$(objects "$t" "$obj" | tr '\n' ' ')
	# shellcheck disable=SC2086
	if ! cmake_ "$t" "$obj" -k $objs >> "$log" 2>&1; then
		echo "FAIL $t: build (log: $log)"
		grep -E 'error|Error' "$log" | head -20 | sed 's/^/     /'
		return 1
	fi
	if grep -E '^[^ ]*(lib/buildid|lib/sframe|lib/ehabi|kernel/events|kernel/uwtable|fs/proc/task_mmu|mm/mmap|kernel/fork|fs/exec|kernel/bpf/stackmap|arch/[a-z0-9]*/kernel/perf_callchain|arch/x86/events|arch/x86/entry/vdso|include/linux/(sframe|ehabi|buildid|uwtable|sframe_ehframe))[^ :]*:[0-9]+:[0-9]+: warning:' "$log" |
		sed 's/^/     /' | grep .; then
		echo "FAIL $t: warnings in the series' files (log: $log)"
		return 1
	fi
	why=$(check_options "$t" "$obj") || { echo "FAIL $t: $why"; return 1; }
	case $t in i386|armhf|armel)
		n=$(check_div64 "$t" "$obj" | tr '\n' ' ')
		[ -z "$n" ] || { echo "FAIL $t: 64-bit division by libgcc in $n"; return 1; }
	esac
	n=$(find "$obj" -name '*.o' -not -path '*/scripts/*' -not -path '*/tools/*' | wc -l)
	echo "ok   $t: $n objects; $why"
}

fail=0
for t in "${targets[@]}"; do
	t0=$(date +%s)
	locked run_target "$t" || fail=1
	log "cross $t: $(( $(date +%s) - t0 ))s"
done
exit $fail
