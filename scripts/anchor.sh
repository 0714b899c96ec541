#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# anchor.sh OBJ: build Debian's linux-source-6.12, unpatched, with the
# benchmark kernel's config fragments (tinyconfig + common + x86_64 +
# bench; options 6.12 does not have are left out), into OBJ.  6.12 has
# mainline's PROCMAP_QUERY and build-ID parser: make bench boots it next
# to the series' kernel and runs the same benchmark binaries on both.  It
# is used only as a built and booted kernel.  The tree is extracted once
# into BUILD/anchor; kbuild and ccache make later builds quick.
. "$(dirname "$0")/lib.sh"

obj=${1:?usage: anchor.sh OBJ}
tarball=/usr/src/linux-source-6.12.tar.xz
src=$BUILD/anchor/linux-source-6.12

need_pkgs linux-source-6.12
stamp="$(stat -c %Y "$tarball")"
if [ "$(cat "$src/.harness-extracted" 2>/dev/null)" != "$stamp" ]; then
	log "extracting $tarball into $BUILD/anchor"
	rm -rf "$src"
	mkdir -p "$BUILD/anchor"
	tar -xf "$tarball" -C "$BUILD/anchor" || die "cannot extract $tarball"
	echo "$stamp" > "$src/.harness-extracted"
fi
NODEBUG=1 LAX_CONFIG=1 "$TOP/scripts/build.sh" x86_64 "$src" "$obj"
