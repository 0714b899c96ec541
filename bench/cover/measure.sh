#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The numbers of the cover letter's answers (native, Debian 12 x86_64
# host): .sframe against .eh_frame of Debian source packages built with
# --gsframe, the unwind sections and frame-pointer prologues of the
# host's binaries, and what Debian 12's loader knows of SFrame.
# Usage: bench/cover/measure.sh   (SKIP_BUILD=1 reuses the last build)
# Works in build/cover; apt-get source needs deb-src lines for bookworm.
set -u
D=$(cd "$(dirname "$0")" && pwd)
export COVER_WORK=${COVER_WORK:-$(cd "$D/../.." && pwd)/build/cover}
mkdir -p "$COVER_WORK"; cd "$COVER_WORK"
PKGS="zlib bzip2 lua5.4 xz-utils zstd sqlite3"
. /etc/os-release
echo "# measure.sh, $(date -u +%FT%TZ), $PRETTY_NAME, kernel $(uname -r), $(nproc) cores"
echo "toolchain: $(as --version | head -1); $(gcc --version | head -1); glibc $(dpkg-query -W -f='${Version}' libc6)"
echo

echo "=== item 1: .sframe vs .eh_frame+.eh_frame_hdr (files built here) ==="
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  mkdir -p src
  for p in $PKGS; do
    ls -d src/$p-*/ src/lib$p-*/ >/dev/null 2>&1 || (cd src && apt-get source -q "$p" >/dev/null 2>&1) || echo "apt-get source $p failed"
  done
  t0=$(date +%s)
  "$D/build.sh" $PKGS
  echo "build time: $(( $(date +%s) - t0 )) s"
fi
for p in $PKGS; do
  echo "source: $p $(ls src/*.dsc | grep -E "/(lib)?${p}_" | sed 's|.*/||')"
done
echo "skipped-SFrame-FDE warnings from gas in build logs: $(cat work/*/*.log 2>/dev/null | grep -ci 'skipping SFrame')"
for V in omitfp fp; do
  echo
  case $V in
    omitfp) echo "--- CFLAGS='-O2 -g0 -Wa,--gsframe' (gcc 12 default: no frame pointer) ---";;
    fp) echo "--- CFLAGS='-O2 -g0 -Wa,--gsframe -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer' ---";;
  esac
  echo "(ratio = sframe/(eh_frame+eh_frame_hdr); sfFDE = SFrame FDEs from the"
  echo " .sframe header; ehFDE = entries in .eh_frame_hdr's table; FP% = share"
  echo " of functions >= 8 bytes starting [endbr64] push %rbp; mov %rsp,%rbp;"
  echo " FPlo% = mov %rsp,%rbp after push %rbp in the first 32 bytes)"
  python3 "$D/elfscan.py" sizes out/$V/*/*
done

echo
echo "=== host scan: /usr/bin /usr/sbin /usr/lib/x86_64-linux-gnu ==="
for d in /lib /lib64 /bin /sbin; do
  [ -L "$d" ] && echo "$d -> $(readlink $d) (merged /usr: /lib/x86_64-linux-gnu is not distinct)"
done
ND=$(mktemp)
apt list --installed 2>/dev/null | awk -F/ '/\[installed,local\]/{print $1}' > "$ND"
t0=$(date +%s)
NONDEBIAN=$ND python3 "$D/elfscan.py" scan /usr/bin /usr/sbin /usr/lib/x86_64-linux-gnu
echo "host scan time: $(( $(date +%s) - t0 )) s"
rm -f "$ND"

echo
echo "=== item 2: SFrame support in Debian 12's dynamic loader ==="
LDSO=$(readlink -f /lib64/ld-linux-x86-64.so.2)
LIBC=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
for f in "$LDSO" "$LIBC"; do
  echo "$f (libc6 $(dpkg-query -W -f='${Version}' libc6)):"
  echo "  byte matches of /sframe/i: $(grep -a -o -i sframe "$f" | wc -l)"
  echo "  strings -a lines matching /sframe/i: $(strings -a "$f" | grep -ci sframe)"
  echo "  strings -a lines matching /eh_frame/i (control): $(strings -a "$f" | grep -ci eh_frame)"
  python3 - "$f" "$D" <<'PY'
import sys; sys.path.insert(0, sys.argv[2])
import elfscan as E
e = E.Elf(sys.argv[1])
print('  .sframe section: %s, PT_GNU_SFRAME: %s, .eh_frame bytes: %d, .eh_frame_hdr bytes: %d' % (
    '.sframe' in e.secs, e.has_ph(E.PT_GNU_SFRAME), e.sec_size('.eh_frame'), e.sec_size('.eh_frame_hdr')))
PY
done
echo "glibc headers: PT_GNU_SFRAME in /usr/include/elf.h: $(grep -c PT_GNU_SFRAME /usr/include/elf.h)"
echo "kernel uapi headers (linux-libc-dev $(dpkg-query -W -f='${Version}' linux-libc-dev)): SFRAME in linux/prctl.h: $(grep -ci sframe /usr/include/linux/prctl.h)"
