#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of the test guest.  The root file system is read-only (the host's
# root over 9p on x86_64, a small tree of static programs on arm64); the
# places programs write to get a tmpfs each.  The job comes from the
# read-write 9p share "out", mounted at /run/out: job.sh runs there, its
# output goes to job.log (and the console), its exit code to job.rc.
# Plain POSIX sh: it runs under dash on x86_64 and busybox sh on arm64.

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp/home LANG=C LC_ALL=C TERM=${TERM:-linux}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
grep -q ' /dev ' /proc/mounts || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /run
# The repository (where this script lives) must stay visible even when it
# is under one of the directories that get a tmpfs (a clone in /tmp).
top=$(cd "$(dirname "$0")/.." && pwd)
for d in /tmp /var/tmp /var/log; do
	[ -d $d ] || continue
	case $top/ in
	$d/*)
		mkdir -p /run/host$d
		mount --bind $d /run/host$d
		mount -t tmpfs tmpfs $d
		mkdir -p "$top"
		mount --bind "/run/host$top" "$top" ;;
	*)
		mount -t tmpfs tmpfs $d ;;
	esac
done
mkdir -p /run/out $HOME
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,access=any out /run/out ||
	echo "guest-init: cannot mount the out share" > /dev/console
[ -d /sys/kernel/tracing ] && mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
hostname guest 2>/dev/null

echo "guest-init: $(uname -r) up, running job" > /dev/console
cd /run/out || exit 1
if [ -e interactive ]; then
	tty=$(cat interactive)
	sh=$(command -v bash || echo /bin/sh)
	setsid -c sh -c "cd /tmp; exec $sh -l" < "$tty" > "$tty" 2>&1
else
	{ sh ./job.sh; echo $? > job.rc; } 2>&1 | tee job.log > /dev/console
fi
sync
echo "guest-init: job done, rebooting" > /dev/console
echo b > /proc/sysrq-trigger
sleep 5
