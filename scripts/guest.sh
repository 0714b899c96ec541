#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh ARCH KERNEL OUTDIR TIMEOUT [--interactive]
#
# Boot KERNEL in QEMU and run OUTDIR/job.sh inside it (see guest-init.sh).
# OUTDIR is shared read-write with the guest; the console goes to
# OUTDIR/console.log.  When OUTDIR/disk.img exists, the guest gets it as a
# raw virtio-blk disk (/dev/vda).  Exit status: 0 the job ran and passed; 1 the job
# failed; 2 the kernel printed a report (oops, BUG, WARNING, KASAN, ...);
# 3 the guest hung (killed at TIMEOUT seconds) or never ran the job.
. "$(dirname "$0")/lib.sh"

[ $# -ge 4 ] || die "usage: guest.sh ARCH KERNEL OUTDIR TIMEOUT [--interactive]"
arch=$1 kernel=$(realpath "$2") out=$(realpath -m "$3") limit=$4
interactive=0
[ "${5:-}" = --interactive ] && interactive=1
[ -f "$kernel" ] || die "no kernel image $kernel"
mkdir -p "$out"
rm -f "$out/job.rc" "$out/job.log" "$out/console.log" "$out/interactive"

# /dev/kvm may exist and still not work (nested virtualization): probe it
# by booting the kernel to its no-root panic, and remember the answer for
# an hour (the machine, or its KVM, may change between runs).
kvm_ok() {
	local stamp=$BUILD/.kvm-ok
	[ "${KVM:-auto}" = 0 ] && return 1
	[ -e /dev/kvm ] || return 1
	if [ -z "$(find "$stamp" -mmin -60 2>/dev/null)" ]; then
		if timeout 30 qemu-system-x86_64 -accel kvm -M q35 -m 256M -nodefaults \
			-display none -no-reboot -serial none -kernel "$kernel" \
			-append "panic=-1 root=/dev/nonexistent" >/dev/null 2>&1; then
			echo 1 > "$stamp"
		else
			echo 0 > "$stamp"
		fi
	fi
	[ "$(cat "$stamp")" = 1 ]
}

cmdline="root=root rootfstype=9p rootflags=version=9p2000.L,trans=virtio,access=any,msize=262144"
cmdline+=" ro panic=-1 printk.devkmsg=on"
share_out=(-fsdev "local,id=out,path=$out,security_model=none"
	   -device "virtio-9p-pci,fsdev=out,mount_tag=out")
case $arch in
x86_64)
	need_pkgs qemu-system-x86
	root=/
	init=$TOP/scripts/guest-init.sh
	tty=/dev/ttyS0
	accel=(-accel tcg)
	kvm_ok && accel=(-accel kvm -cpu host)
	qemu=(qemu-system-x86_64 -M q35 "${accel[@]}" -smp 2 -m 2G)
	# tsc=reliable: no TSC sync check at boot and no clocksource
	# watchdog.  Under TCG the guest's TSC is the host's, but on a loaded
	# host one vCPU lags the other, the sync check or the watchdog takes
	# the TSC away ("TSCs unsynchronized", then hpet or jiffies), and
	# clock_gettime() becomes a system call: sframe_derived would get no
	# samples in the vDSO.
	cmdline+=" console=ttyS0 tsc=reliable"
	;;
arm64)
	need_pkgs qemu-system-arm
	"$TOP/scripts/arm64-rootfs.sh"
	root=$BUILD/arm64/rootfs
	init=/init
	tty=/dev/ttyAMA0
	qemu=(qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 2 -m 2G)
	cmdline+=" console=ttyAMA0"
	;;
*) die "unknown arch $arch" ;;
esac
cmdline+=" init=$init ${GUEST_CMDLINE:-}"

qemu+=(-nodefaults -no-reboot -display none -kernel "$kernel" -append "$cmdline"
       -fsdev "local,id=root,path=$root,security_model=none,readonly=on"
       -device "virtio-9p-pci,fsdev=root,mount_tag=root" "${share_out[@]}")
if [ -f "$out/disk.img" ]; then
	qemu+=(-drive "file=$out/disk.img,if=none,id=d0,format=raw,cache=unsafe"
	       -device "virtio-blk-pci,drive=d0")
fi

if [ $interactive -eq 1 ]; then
	echo "$tty" > "$out/interactive"
	log "booting $arch (exit the shell to power off)"
	exec "${qemu[@]}" -serial mon:stdio
fi

log "$arch: booting $(basename "$kernel") (${accel[*]:-tcg}), limit ${limit}s, console $out/console.log"
t0=$(date +%s)
rc=0
timeout --kill-after=5 "$limit" "${qemu[@]}" -serial "file:$out/console.log" \
	</dev/null >"$out/qemu.log" 2>&1 || rc=$?
log "$arch: guest ran $(( $(date +%s) - t0 ))s"

# Kernel reports fail the run whatever the job said.  Only the kernel's
# own lines count: printk lines carry a "[ seconds.micros]" stamp
# (CONFIG_PRINTK_TIME), while the job's output, which guest-init copies
# to the console, does not, so a test that prints "WARNING:" is not a
# report.  Both architectures' spellings ("Call Trace:", arm64's "Call
# trace:") and RCU stall reports are matched.
reports='Kernel panic|Oops|BUG:|WARNING:|KASAN:|UBSAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|Call [Tt]race:|general protection fault|Unable to handle kernel|INFO: task .* blocked|soft lockup|hard LOCKUP|stack-protector|refcount_t:|rcu: INFO: .*detected stalls|self-detected stall'
printk='\[ *[0-9]+\.[0-9]+\] .*'
if grep -Eq "$printk($reports)" "$out/console.log"; then
	echo "error: $arch: the kernel printed a report (console: $out/console.log):" >&2
	grep -E -m 20 -A 12 "$printk($reports)" "$out/console.log" >&2 || true
	exit 2
fi
if [ $rc -eq 124 ] || [ $rc -eq 137 ] || [ ! -f "$out/job.rc" ]; then
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "error: $arch: guest hung, killed after ${limit}s; last console lines:" >&2
	else
		echo "error: $arch: guest exited (qemu rc=$rc) without finishing the job; last console lines:" >&2
		cat "$out/qemu.log" >&2
	fi
	tail -n 25 "$out/console.log" >&2
	exit 3
fi
[ "$(cat "$out/job.rc")" = 0 ] || exit 1
exit 0
