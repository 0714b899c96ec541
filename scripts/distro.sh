#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# distro.sh [STEP...]: the series as a distribution ships it.  Not part of
# make test or CI (a cold build takes about an hour on two cores); run it
# with make distro.  Steps (default: all, in this order):
#
#   kernel  the patched kernel built from Debian's own amd64 configuration
#	    (linux-config-6.1, config.amd64_none_amd64) into Debian packages
#	    (make bindeb-pkg): linux-image-KREL and linux-headers-KREL, with
#	    KREL = 6.1.N-uwtable-amd64, so that they install next to Debian's
#	    own linux-image-6.1.0-N-amd64.  Changed from Debian's
#	    configuration: the signing keys (Debian's own are not in the
#	    source package; the build makes a key of its own), and the set of
#	    modules: to fit two cores, every =m option is turned off except
#	    those a virtual machine and the checks below need (KEEP_MODULES)
#	    and those an option Debian has =y cannot do without (found from
#	    the Kconfig tree by scripts/kconfig-deps.c); every option Debian
#	    has =y stays =y (checked).
#   image   a Debian 12 disk image made by mmdebstrap from Debian's
#	    packages: systemd, udev, initramfs-tools, linux-perf, python3,
#	    Debian's own kernel (linux-image-amd64, the control), and the
#	    kselftests of the series; the packages of the kernel step are
#	    installed into it with dpkg, as an operator would.
#   boot    boots the image in QEMU with 2 CPUs, with the patched kernel
#	    and with Debian's own in turn, BOOTS times each (default 3).  A
#	    unit of the image (uwtable-check.service, after multi-user.target)
#	    runs the checks and powers off: perf record -a -g while python3 runs a workload, the
#	    procmap_query and sframe_callchain kselftests, journalctl -k.
#	    Prints "x86_64-debian/SUITE: N passed, N failed" lines.
#   config  not in the default steps: only the configurations of the
#	    kernel and arm64 steps, with the modules each keeps.
#   arm64   not in the default steps: the series built from Debian's
#	    arm64 configuration (config.arm64_none_arm64 of linux-config-6.1
#	    for arm64), modules chosen the same way, cross-compiled to vmlinux
#	    (with BTF), Image and the kept modules; prints
#	    "arm64-debian/build: N passed, N failed".
#
# Output under BUILD/distro: obj/ (the kernel build), *.deb, debian12.img,
# boot-{uwtable,debian}[-N].log, times.txt (build, image and boot times).
. "$(dirname "$0")/lib.sh"

D=$BUILD/distro
SRC=$D/linux
OBJ=$D/obj
IMG=$D/debian12.img
LOCALVERSION=-uwtable-amd64

# Modules kept (=m): the virtio devices of QEMU, the root file system and
# what systemd mounts or loads on a Debian 12 system (binfmt_misc for
# systemd-binfmt.service), FUSE and 9p.
KEEP_MODULES="VIRTIO VIRTIO_PCI VIRTIO_PCI_LIB VIRTIO_PCI_LIB_LEGACY
	VIRTIO_BLK VIRTIO_NET NET_FAILOVER FAILOVER VIRTIO_CONSOLE
	VIRTIO_BALLOON HW_RANDOM_VIRTIO EXT4_FS JBD2 FS_MBCACHE CRC16
	CRYPTO_CRC32C CRYPTO_CRC32C_INTEL LIBCRC32C AUTOFS_FS FUSE_FS
	CONFIGFS_FS EFIVAR_FS 9P_FS NET_9P NET_9P_VIRTIO NETFS_SUPPORT
	FSCACHE BLK_DEV_LOOP BINFMT_MISC"

# pairs of boots (ours, then Debian's) in the boot step
BOOTS=${BOOTS:-3}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(kernel image boot)

dmake() {
	make -C "$SRC" O="$OBJ" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" \
		LOCALVERSION="$LOCALVERSION" -j"$JOBS" "$@"
}

amake() {
	make -C "$SRC" O="$D/obj-arm64" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		CROSS_COMPILE_COMPAT=arm-linux-gnueabihf- \
		CC="ccache aarch64-linux-gnu-gcc" HOSTCC="ccache gcc" \
		LOCALVERSION=-uwtable-arm64 -j"$JOBS" "$@"
}

krel() {
	dmake -s kernelrelease 2>/dev/null
}

# modules_off KEEP: the lines that turn off every module of Debian's
# configuration but KEEP (later lines win in a .config read by
# olddefconfig)
modules_off() {
	local m keep=" $1 "
	for m in $(sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=m$/\1/p' "$DEBCONF"); do
		case $keep in *" $m "*) continue ;; esac
		echo "# CONFIG_$m is not set"
	done
}

# kconfig_deps OBJ MAKE...: what each option of the tree depends on and
# what selects it (scripts/kconfig-deps.c, linked with the Kconfig parser
# that olddefconfig built in OBJ and run with make's environment)
kconfig_deps() {
	local obj=$1 k=$1/scripts/kconfig
	shift
	gcc -O2 -I"$SRC/scripts/kconfig" -I"$k" -o "$obj/kconfig-deps" \
		"$TOP/scripts/kconfig-deps.c" "$k"/confdata.o "$k"/expr.o \
		"$k"/lexer.lex.o "$k"/menu.o "$k"/parser.tab.o "$k"/preprocess.o \
		"$k"/symbol.o "$k"/util.o || die "cannot build kconfig-deps"
	"$@" -s --eval="uwtable-kconfig-deps: ; @$obj/kconfig-deps Kconfig" \
		uwtable-kconfig-deps 2>/dev/null || die "kconfig-deps failed"
}

# distro_config ARCH CONFIG OBJ MAKE...: Debian's configuration CONFIG
# (xz) in OBJ/.config, with the signing keys cleared and every module
# turned off but KEEP_MODULES and the modules an option Debian has =y
# cannot do without (a feature of a module, such as 9P_FS_POSIX_ACL of
# 9P_FS, or a helper only modules select); dies if any option Debian has
# =y is not.  MAKE... is the make command line of that ARCH.
distro_config() {
	local arch=$1 conf=$2 obj=$3 keep more lost i
	shift 3
	mkdir -p "$obj"
	DEBCONF=$D/debian-$arch.config
	xz -dc "$conf" > "$DEBCONF"
	keep=$(echo $KEEP_MODULES)
	: > "$D/config-$arch.log"
	for i in $(seq 1 30); do
		{
			cat "$DEBCONF"
			echo "CONFIG_SYSTEM_TRUSTED_KEYS=\"\""
			echo "CONFIG_SYSTEM_REVOCATION_KEYS=\"\""
			echo "CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\""
			modules_off "$keep"
		} > "$obj/.config"
		"$@" -s olddefconfig >> "$D/config-$arch.log" 2>&1 ||
			{ cat "$D/config-$arch.log" >&2; die "olddefconfig failed"; }
		[ "$i" = 1 ] && kconfig_deps "$obj" "$@" > "$D/kconfig-deps-$arch.txt"
		more=$(awk -v keep="$keep" -f "$TOP/scripts/keep-modules.awk" \
			"$D/kconfig-deps-$arch.txt" "$DEBCONF" "$obj/.config" | sort)
		[ -n "$more" ] || break
		keep="$keep $(echo $more)"
	done
	lost=$(grep '=y$' "$DEBCONF" | grep -vxFf "$obj/.config" || true)
	[ -z "$lost" ] || die "options Debian has =y that are not:" $lost
	echo "$keep" | tr ' ' '\n' > "$D/modules-kept-$arch.txt"
	log "Debian's $arch configuration: all $(grep -c '=y$' "$DEBCONF") =y kept;" \
	    "$(grep -c '=m$' "$obj/.config") of $(grep -c '=m$' "$DEBCONF") =m options built" \
	    "($(echo $KEEP_MODULES | wc -w) for the virtual machine, the rest" \
	    "for options Debian has =y; list: $D/modules-kept-$arch.txt)"
}

step_kernel() {
	local t0 t1
	need_build_deps x86_64
	need_pkgs dwarves dpkg-dev kmod
	mkdir -p "$D"
	"$TOP/scripts/tree.sh" --reset "$SRC" >&2
	distro_config amd64 "$(debian_config_xz amd64)" "$OBJ" dmake
	grep -q '^CONFIG_UWTABLE_SFRAME=y' "$OBJ/.config" ||
		die "CONFIG_UWTABLE_SFRAME is not =y by default"
	rm -f "$D"/*.deb
	t0=$(date +%s)
	dmake bindeb-pkg KDEB_PKGVERSION="$(dmake -s kernelversion 2>/dev/null)-1~uwt1" \
		> "$D/build.log" 2>&1 ||
		{ tail -n 40 "$D/build.log" >&2; die "bindeb-pkg failed (log: $D/build.log)"; }
	t1=$(date +%s)
	echo "kernel $(krel): bindeb-pkg $((t1 - t0)) s ($(date -u +%F), JOBS=$JOBS)" >> "$D/times.txt"
	log "built $(krel) in $((t1 - t0)) s: $(cd "$D" && ls ./*.deb | tr '\n' ' ')"
}


# arm64: the same series built from Debian's arm64 configuration
# (linux-config-6.1 of arm64, fetched as the arm64 guest's busybox is),
# cross-compiled: vmlinux with BTF and the modules kept.  Not packaged or
# booted (the guests that run the arm64 suites are QEMU's virt machine
# with our own root).
step_arm64() {
	local t0 t1 obj=$D/obj-arm64 sections
	need_build_deps arm64
	# Debian builds natively, so its configuration has CC_CAN_LINK=y and
	# CC_CAN_LINK_STATIC=y; the cross compiler links only with the arm64
	# C library installed.
	need_pkgs dwarves kmod gcc-arm-linux-gnueabihf libc6-dev-arm64-cross
	mkdir -p "$D"
	# the series as committed, whatever an earlier step left there
	"$TOP/scripts/tree.sh" --reset "$SRC" >&2
	distro_config arm64 "$(debian_config_xz arm64)" "$obj" amake
	grep -q '^CONFIG_UWTABLE_EHABI=y' "$obj/.config" ||
		die "CONFIG_UWTABLE_EHABI is not =y by default on arm64"
	t0=$(date +%s)
	amake Image modules > "$D/build-arm64.log" 2>&1 ||
		{ tail -n 40 "$D/build-arm64.log" >&2; die "arm64 build failed (log: $D/build-arm64.log)"; }
	t1=$(date +%s)
	echo "arm64 $(amake -s kernelrelease 2>/dev/null): Image modules $((t1 - t0)) s ($(date -u +%F), JOBS=$JOBS)" >> "$D/times.txt"
	# not readelf | grep -q: with pipefail, grep's early exit can kill
	# readelf with SIGPIPE and fail the pipeline on a match
	sections=$(readelf -SW "$obj/vmlinux") || sections=
	if grep -q ' \.BTF ' <<<"$sections"; then
		echo "arm64-debian/build: 1 passed, 0 failed ($((t1 - t0)) s; vmlinux with BTF, $(find "$obj" -name '*.ko' | wc -l) modules)"
	else
		echo "arm64-debian/build: 0 passed, 1 failed (vmlinux has no .BTF)"
		return 1
	fi
}

# config: only the two configurations, amd64 and arm64, with the modules
# each keeps (a few seconds)
step_config() {
	need_build_deps arm64
	need_pkgs gcc-arm-linux-gnueabihf libc6-dev-arm64-cross
	mkdir -p "$D"
	"$TOP/scripts/tree.sh" --reset "$SRC" >&2
	distro_config amd64 "$(debian_config_xz amd64)" "$OBJ" dmake
	distro_config arm64 "$(debian_config_xz arm64)" "$D/obj-arm64" amake
}

# The kselftests the image runs, built from the same tree.
build_kselftests() {
	need_pkgs clang-22 lld-22 gcc-12-multilib
	rm -rf "$D/kselftest" "$D/kselftest-obj"
	mkdir -p "$D/kselftest-obj"
	kselftest_install "$SRC" "$D/kselftest-obj" "$D/kselftest" "$D/kselftest-build.log" \
		"proc perf_events" || die "kselftest build failed"
}

# The Debian 12 system before our packages: Debian as released and
# updated, with Debian's own kernel (linux-image-amd64, the control).
# Kept as a tarball for a day.
base_image() {
	local tar=$D/debian12-base.tar
	[ -f "$tar" ] && [ -n "$(find "$tar" -mmin -1440)" ] && return 0
	need_pkgs mmdebstrap
	log "making the Debian 12 system (mmdebstrap)"
	mkdir -p "$D"
	rm -rf "$tar" "$tar.tmp"
	mmdebstrap --variant=important --format=tar \
		--include=systemd-sysv,udev,dbus,kmod,initramfs-tools,linux-image-amd64,linux-perf,python3,binutils,procps,iproute2,e2fsprogs \
		bookworm "$tar.tmp" \
		"deb http://deb.debian.org/debian bookworm main" \
		"deb http://deb.debian.org/debian bookworm-updates main" \
		"deb http://deb.debian.org/debian-security bookworm-security main" \
		> "$D/image.log" 2>&1 ||
		{ tail -n 30 "$D/image.log" >&2; die "mmdebstrap failed (log: $D/image.log)"; }
	mv "$tar.tmp" "$tar"
}

# chroot into the image's root with /proc, /sys and /dev, as dpkg's
# maintainer scripts expect.
in_root() {
	local r=$D/rootfs rc=0
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys"
	mount --rbind /dev "$r/dev"
	chroot "$r" "$@" || rc=$?
	umount -R "$r/dev" "$r/sys" 2>/dev/null || umount -lR "$r/dev" "$r/sys"
	umount "$r/proc"
	return $rc
}

step_image() {
	local krel debs t0 f r=$D/rootfs
	need_pkgs e2fsprogs
	krel=$(krel)
	debs=$(cd "$D" && ls linux-image-"$krel"_*.deb linux-headers-"$krel"_*.deb 2>/dev/null)
	[ "$(echo "$debs" | wc -w)" = 2 ] || die "no packages of $krel in $D (run the kernel step)"
	build_kselftests
	t0=$(date +%s)
	base_image
	rm -rf "$r" "$D/boot"
	mkdir -p "$r"
	tar -xf "$D/debian12-base.tar" -C "$r"
	# Our kernel, installed as an operator would.
	mkdir -p "$r/tmp/pkgs"
	for f in $debs; do cp "$D/$f" "$r/tmp/pkgs/"; done
	in_root sh -c 'dpkg -i /tmp/pkgs/*.deb' > "$D/dpkg.log" 2>&1 ||
		{ tail -n 30 "$D/dpkg.log" >&2; die "dpkg -i failed (log: $D/dpkg.log)"; }
	rm -rf "$r/tmp/pkgs"
	cp -a "$D/kselftest" "$r/opt/kselftest"
	install -m 755 "$TOP/scripts/distro-check.sh" "$r/usr/local/sbin/uwtable-check"
	install -D -m 644 "$TOP/bench/distro_work.py" "$r/usr/local/share/uwtable-check/work.py"
	cat > "$r/etc/systemd/system/uwtable-check.service" <<-'EOF'
	[Unit]
	Description=Checks of the user unwind tables series
	After=multi-user.target

	[Service]
	Type=oneshot
	ExecStart=/usr/local/sbin/uwtable-check

	[Install]
	WantedBy=multi-user.target
	EOF
	in_root systemctl enable uwtable-check.service > /dev/null 2>&1 ||
		die "cannot enable uwtable-check.service"
	echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" > "$r/etc/fstab"
	echo debian-uwtable > "$r/etc/hostname"
	in_root passwd -d root > /dev/null
	# the root file system's drivers in every initramfs (the image is made
	# in a chroot, where initramfs-tools cannot see the root device)
	printf 'virtio_pci\nvirtio_blk\next4\n' >> "$r/etc/initramfs-tools/modules"
	in_root update-initramfs -u -k all >> "$D/dpkg.log" 2>&1 ||
		die "update-initramfs failed (log: $D/dpkg.log)"
	mkdir -p "$D/boot"
	cp "$r"/boot/vmlinuz-* "$r"/boot/initrd.img-* "$D/boot/"
	rm -f "$IMG"
	mkfs.ext4 -q -F -L debian-uwtable -d "$r" "$IMG" 8G || die "mkfs.ext4 failed"
	rm -rf "$r"
	echo "image: $(($(date +%s) - t0)) s ($(date -u +%F))" >> "$D/times.txt"
	log "image $IMG with $(cd "$D/boot" && ls vmlinuz-* | tr '\n' ' ')"
}

# boot NAME KREL: boot the image with the kernel KREL, console in
# D/boot-NAME.log; prints the time to the console's end.
boot() {
	local name=$1 krel=$2 log=$D/boot-$1.log t0
	[ -f "$D/boot/vmlinuz-$krel" ] || die "no kernel $krel in the image"
	t0=$(date +%s)
	timeout --kill-after=5 1800 qemu-system-x86_64 -M q35 -accel tcg -smp 2 -m 3G \
		-nodefaults -no-reboot -display none -snapshot \
		-kernel "$D/boot/vmlinuz-$krel" -initrd "$D/boot/initrd.img-$krel" \
		-append "root=/dev/vda rw console=ttyS0 tsc=reliable panic=-1" \
		-drive "file=$IMG,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0 \
		-serial "file:$log" </dev/null > "$D/qemu-$name.log" 2>&1 ||
		log "$name: qemu exited $?"
	log "$name ($krel): $(($(date +%s) - t0)) s, console $log"
}

step_boot() {
	local ours debian log i sfx ok=0 bad=0 fails=0
	need_pkgs qemu-system-x86
	[ -f "$IMG" ] || die "no image (run the image step)"
	ours=$(krel)
	debian=$(cd "$D/boot" && ls vmlinuz-* | sed 's/^vmlinuz-//' | grep -vx "$ours" | sort -V | tail -n 1)
	[ -n "$debian" ] || die "no Debian kernel in the image"
	# BOOTS pairs, taking turns, for the spread of the boot time; the
	# first pair's consoles are boot-uwtable.log and boot-debian.log
	rm -f "$D"/boot-uwtable*.log "$D"/boot-debian*.log
	for i in $(seq 1 "$BOOTS"); do
		sfx=; [ "$i" = 1 ] || sfx=-$i
		boot "uwtable$sfx" "$ours"
		boot "debian$sfx" "$debian"
	done
	# the serial console ends lines with \r\n
	for log in "$D"/boot-uwtable*.log "$D"/boot-debian*.log; do
		[ -f "$log" ] && sed -i 's/\r$//' "$log"
	done
	boot_times
	for log in "$D/boot-uwtable.log" "$D/boot-debian.log"; do
		echo "== $(basename "$log" .log)"
		# a getty's prompt may precede a line
		grep -ao 'uwtable-check: .*' "$log" | sed 's/^uwtable-check: /  /'
	done
	# the result lines of our kernel; Debian's are the control
	grep -a '^x86_64-debian/' "$D/boot-uwtable.log" || { echo "x86_64-debian/boot: 0 passed, 1 failed"; fails=1; }
	all_passed "$D/boot-uwtable.log" || fails=1
	grep -aq '^uwtable-check: done' "$D/boot-debian.log" ||
		{ echo "x86_64-debian/control: 0 passed, 1 failed (Debian's kernel did not finish)"; fails=1; }
	units_same "$D/boot-uwtable.log" "$D/boot-debian.log" || fails=1
	# every boot of ours, not just the first, must finish with every
	# check passed
	for log in "$D"/boot-uwtable*.log; do
		if grep -aq '^uwtable-check: done' "$log" &&
		   all_passed "$log"; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
		fi
	done
	echo "x86_64-debian/boots: $ok passed, $bad failed"
	[ "$bad" = 0 ] || fails=1
	return $fails
}

# boot_times: multi-user.target's time in every boot of each kernel, and
# the medians; not a pass/fail check (the guest shares two cores with
# whatever else the host runs)
boot_times() {
	local k t med
	for k in uwtable debian; do
		t=$(for log in "$D"/boot-$k.log "$D"/boot-$k-*.log; do
			[ -f "$log" ] && grep -ao 'uwtable-check: multi-user.target reached at [0-9.]*' "$log" |
				awk '{ print $NF }'
		done | sort -n)
		med=$(echo "$t" | awk 'NF { a[n++] = $1 } END { if (!n) print "-"; else if (n % 2) print a[int(n / 2)]; else printf "%.2f\n", (a[n / 2 - 1] + a[n / 2]) / 2 }')
		echo "boot $k: multi-user.target at $(echo $t | sed 's/ / s, /g') s; median $med s" |
			tee -a "$D/times.txt"
	done
}

# all_passed LOG: every result line of LOG says 0 failed (read whole, not
# through grep -q, which under pipefail can fail on a match)
all_passed() {
	[ -z "$(grep -a '^x86_64-debian/' "$1" | grep -v ' 0 failed\(, .*\)\?$')" ]
}

# units_same OURS DEBIAN: the same services are active under both kernels
units_same() {
	local a b
	a=$(grep -ao 'uwtable-check: active services ([0-9]*): .*' "$1" | sed 's/.*): //' | tr ' ' '\n' | sed '/^$/d' | sort)
	b=$(grep -ao 'uwtable-check: active services ([0-9]*): .*' "$2" | sed 's/.*): //' | tr ' ' '\n' | sed '/^$/d' | sort)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		echo "x86_64-debian/units: 1 passed, 0 failed"
		return 0
	fi
	echo "x86_64-debian/units: 0 passed, 1 failed (only ours: $(comm -23 <(echo "$a") <(echo "$b") | tr '\n' ' ')only Debian's: $(comm -13 <(echo "$a") <(echo "$b") | tr '\n' ' '))"
	return 1
}

for s in "${steps[@]}"; do
	case $s in
	kernel|image|boot|arm64|config) "step_$s" ;;
	base) base_image ;;
	*) die "unknown step $s (kernel, image, boot, arm64, config)" ;;
	esac
done
