#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build a few Debian 12 source packages with -Wa,--gsframe, in two
# variants (default frame-pointer setting of gcc 12 -O2, and
# -fno-omit-frame-pointer). Output ELF files land in out/<variant>/.
# Usage: build.sh [pkg...]   (sources unpacked by 'apt-get source' in src/)
set -u
D=${COVER_WORK:?}
SRC=$D/src
PKGS=${*:-"zlib bzip2 lua5.4 xz-utils zstd sqlite3"}
J=2
srcdir() { ls -d "$SRC"/$1-[0-9]* 2>/dev/null | grep -v '\.' | head -1; ls -d "$SRC"/*$1*/ 2>/dev/null | head -1; }
for V in omitfp fp; do
  CF="-O2 -g0 -Wa,--gsframe"
  [ $V = fp ] && CF="$CF -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
  mkdir -p "$D/work/$V" "$D/out/$V"
  for P in $PKGS; do
    case $P in zstd) S=$(ls -d $SRC/libzstd-*/ | head -1);; *) S=$(ls -d $SRC/$P-*/ | head -1);; esac
    W=$D/work/$V/$P; O=$D/out/$V/$P
    rm -rf "$W" "$O"; cp -a "$S" "$W"; mkdir -p "$O"
    log=$D/work/$V/$P.log
    (
    cd "$W" || exit 1
    case $P in
    zlib)
      CFLAGS="$CF" ./configure && make -j$J libz.so.1.2.13 minigzipsh example64 >/dev/null || make -j$J
      cp -L libz.so.1.2.13 minigzipsh "$O"/ ;;
    bzip2)
      make -f Makefile-libbz2_so CFLAGS="$CF -fPIC -D_FILE_OFFSET_BITS=64" &&
      make -j$J bzip2 bzip2recover CFLAGS="$CF -D_FILE_OFFSET_BITS=64"
      cp -L libbz2.so.1.0.8 bzip2 bzip2recover "$O"/ ;;
    lua5.4)
      cd src; echo "#define DEB_HOST_MULTIARCH \"x86_64-linux-gnu\"" > lua5.4-deb-multiarch.h
      L="lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser lstate lstring ltable ltm lundump lvm lzio lauxlib lbaselib lcorolib ldblib liolib lmathlib loadlib loslib lstrlib ltablib lutf8lib linit"
      for f in $L lua luac; do echo "gcc $CF -fPIC -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -c $f.c -o $f.o"; done | xargs -P$J -I{} sh -c {}
      objs=$(for f in $L; do echo $f.o; done)
      gcc -shared -Wl,-soname,liblua5.4.so.0 -o liblua5.4.so.0.0.0 $objs -ldl -lm &&
      gcc -o lua lua.o $objs -ldl -lm -Wl,-E &&
      gcc -o luac luac.o $objs -ldl -lm
      cp liblua5.4.so.0.0.0 lua luac "$O"/ ;;
    xz-utils)
      CFLAGS="$CF" ./configure --disable-static --disable-doc --disable-nls -q && make -j$J >/dev/null
      cp -L src/liblzma/.libs/liblzma.so.5.* src/xz/.libs/xz src/xzdec/.libs/xzdec "$O"/ 2>/dev/null
      [ -f "$O/xz" ] || cp -L src/xz/xz "$O"/ ;;
    zstd)
      make -j$J -C lib libzstd CFLAGS="$CF -fPIC" >/dev/null &&
      make -j$J -C programs zstd CFLAGS="$CF" >/dev/null
      cp -L lib/libzstd.so.1.* programs/zstd "$O"/ ;;
    sqlite3)
      CFLAGS="$CF" ./configure --disable-static --disable-tcl -q && make -j$J sqlite3 libsqlite3.la >/dev/null
      cp -L .libs/libsqlite3.so.0.* "$O"/; [ -f .libs/sqlite3 ] && cp .libs/sqlite3 "$O"/ || cp sqlite3 "$O"/ ;;
    esac
    ) >"$log" 2>&1
    echo "built $V/$P: $(ls "$O" | tr '\n' ' ')"
  done
done
