#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# arm64-rootfs.sh: the arm64 guest's root: Debian's static arm64 busybox,
# guest-init.sh as /init, and whatever test.sh copies into /opt.
. "$(dirname "$0")/lib.sh"

root=$BUILD/arm64/rootfs
bb=$BUILD/arm64/busybox
if [ ! -x "$bb" ]; then
	tmp=$(mktemp -d)
	foreign_deb arm64 busybox-static "$tmp/x"
	mkdir -p "$(dirname "$bb")"
	cp "$tmp/x/bin/busybox" "$bb"
	rm -rf "$tmp"
fi

mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,run,var/tmp,var/log,etc,opt,root}
cp "$bb" "$root/bin/busybox"
for a in sh ash mount umount mkdir rmdir cat echo tee sync sleep hostname \
	 setsid timeout ls uname grep egrep sed awk cut tr wc head \
	 tail rm cp mv ln chmod test [ env find basename dirname readlink \
	 realpath id stat true false printf seq sort uniq xargs expr kill ps \
	 dmesg which date od hexdump mktemp touch nproc reboot poweroff \
	 cmp diff sha1sum md5sum ; do
	ln -sf busybox "$root/bin/$a"
done
# Debian's armhf C library, for the dynamically linked 32-bit test programs
# (compat_callchain's gcc_apcs_dynamic): the loader and libc.so.6 where
# the loader looks.
armhf=/usr/arm-linux-gnueabihf/lib
if [ -e "$armhf/libc.so.6" ]; then
	mkdir -p "$root/lib/arm-linux-gnueabihf"
	cp "$armhf/ld-linux-armhf.so.3" "$root/lib/"
	cp "$armhf/libc.so.6" "$root/lib/arm-linux-gnueabihf/"
fi
install -m 755 "$TOP/scripts/guest-init.sh" "$root/init"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$root/etc/group"
