#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the ELF files that sframe-diff checks, into OUTDIR/bin:
#
#  - small test programs (testprogs/: a chain of non-inlined functions, PLT
#    calls into libc, a shared library and a program using it), with
#      V1: gcc -O2 -fomit-frame-pointer -Wa,--gsframe (binutils 2.40), plus
#          -O0 with frame pointers and an IBT-PLT variant
#      V2: clang-22 + lld-22 with -Wa,--gsframe (PC-relative starts)
#  - a program of two objects with cold functions (testprogs/pieces*.c):
#    with lld its .sframe is two tables, neither in address order, whose
#    functions interleave
#  - synthetic V2 sections from bench-sframe -w, with PCMASK functions and
#    both start encodings, as one table and as many shuffled ones, put into
#    an ELF object so that llvm-readobj can decode them (lld emits no
#    PCMASK/PLT SFrame)
#  - large real programs from this kernel tree: bpftool (gcc and clang-22)
#    and perf (gcc; clang-22 too with CORPUS_PERF_CLANG=1).
#
# Usage: corpus.sh OUTDIR [TOOLSDIR]
#   TOOLSDIR holds bench-sframe (default OUTDIR/build).
# Environment:
#   CORPUS_LARGE="bpftool perf"  which large programs to build ("" for none)
#   CORPUS_PERF_CLANG=1          also build perf with clang-22 (slow: off by default)
#   CCACHE=ccache                compiler cache to use if installed
#   JOBS=N                       parallel make jobs (default nproc)
#
# Prints the list of ELF files, one per line, to OUTDIR/corpus.list.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
srctree=$(cd "${KSRC:?KSRC must name the kernel tree}" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 OUTDIR [TOOLSDIR]" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
tools=${2:-$out/build}
bin=$out/bin
logs=$out/logs
mkdir -p "$bin" "$logs"

large=${CORPUS_LARGE-bpftool perf}
perf_clang=${CORPUS_PERF_CLANG:-0}
jobs=${JOBS:-$(nproc)}
ccache=${CCACHE-ccache}
if [ -n "$ccache" ] && ! command -v "$ccache" >/dev/null; then
	ccache=
fi
gcc_cc="${ccache:+$ccache }gcc"
clang_cc="${ccache:+$ccache }clang-22"

V1_FLAGS="-O2 -fomit-frame-pointer -Wa,--gsframe"
V2_FLAGS="-O2 -fomit-frame-pointer -Wa,--gsframe -Wa,--allow-experimental-sframe"
V2_LD="-fuse-ld=lld"

list=()

# Run a logged build step; show the log's tail if it fails.
step() {
	local name=$1
	shift
	if ! "$@" >"$logs/$name.log" 2>&1; then
		echo "corpus.sh: $name failed, last lines of $logs/$name.log:" >&2
		tail -n 30 "$logs/$name.log" >&2
		exit 1
	fi
}

# Build chain, libshape.so and shape with one compiler and flag set.
small() {
	local tag=$1 cc=$2 flags=$3 ldflags=$4
	local t=$here/testprogs

	step "chain-$tag" $cc $flags $ldflags -o "$bin/chain-$tag" "$t/chain.c"
	step "libshape-$tag" $cc $flags $ldflags -fPIC -shared \
		-o "$bin/libshape-$tag.so" "$t/libshape.c"
	step "shape-$tag" $cc $flags $ldflags -o "$bin/shape-$tag" "$t/shape.c" \
		"$bin/libshape-$tag.so" -Wl,-rpath,"$bin"
	list+=("$bin/chain-$tag" "$bin/libshape-$tag.so" "$bin/shape-$tag")
}

small v1 "$gcc_cc" "$V1_FLAGS" ""
small v1-O0 "$gcc_cc" "-O0 -fno-omit-frame-pointer -Wa,--gsframe" ""
small v1-ibt "$gcc_cc" "$V1_FLAGS -fcf-protection" "-Wl,-z,ibtplt"
small v2 "$clang_cc" "$V2_FLAGS" "$V2_LD"
small v2-O0 "$clang_cc" "-O0 -Wa,--gsframe -Wa,--allow-experimental-sframe" "$V2_LD"

# Two objects: one table each with lld (GNU ld merges them into one).
# keep-text-section-prefix puts the cold functions after all of .text.
step pieces-v1 $gcc_cc $V1_FLAGS -o "$bin/pieces-v1" \
	"$here/testprogs/pieces.c" "$here/testprogs/pieces-b.c"
step pieces-v2 $clang_cc $V2_FLAGS $V2_LD -Wl,-z,keep-text-section-prefix \
	-o "$bin/pieces-v2" "$here/testprogs/pieces.c" \
	"$here/testprogs/pieces-b.c"
list+=("$bin/pieces-v1" "$bin/pieces-v2")

# Synthetic sections in an ELF relocatable object (load address 0).
step empty.o gcc -c -x c /dev/null -o "$out/empty.o"
synth() {
	local name=$1
	shift
	step "$name.sf" "$tools/bench-sframe" -w "$out/$name.sf" "$@"
	step "$name" objcopy --add-section .sframe="$out/$name.sf" \
		--set-section-flags .sframe=alloc,readonly,data \
		"$out/empty.o" "$bin/$name.o"
	list+=("$bin/$name.o")
}
synth synth-v2-pcrel -n 400 -s 1 -m
synth synth-v2-abs -n 400 -s 2 -m -a
# as lld would write them: many tables, functions in random order
synth synth-v2-pieces -n 600 -s 3 -m -p 24 -u
synth synth-v2-pieces-abs -n 300 -s 4 -m -a -p 7 -u

for prog in $large; do
	case $prog in
	bpftool)
		# VMLINUX_BTF= : no BPF skeletons, which would need the
		# running kernel's BTF and a BPF-capable clang.
		mkdir -p "$out/bpftool-v1" "$out/bpftool-v2"
		step bpftool-v1 make -C "$srctree/tools/bpf/bpftool" -j"$jobs" \
			OUTPUT="$out/bpftool-v1/" VMLINUX_BTF= \
			CC="$gcc_cc" EXTRA_CFLAGS="$V1_FLAGS"
		step bpftool-v2 make -C "$srctree/tools/bpf/bpftool" -j"$jobs" \
			OUTPUT="$out/bpftool-v2/" VMLINUX_BTF= \
			CC="$clang_cc" LD=ld.lld-22 HOSTCC="$gcc_cc" \
			EXTRA_CFLAGS="$V2_FLAGS -Wno-unused-command-line-argument" \
			EXTRA_LDFLAGS="$V2_LD"
		cp "$out/bpftool-v1/bpftool" "$bin/bpftool-v1"
		cp "$out/bpftool-v2/bpftool" "$bin/bpftool-v2"
		list+=("$bin/bpftool-v1" "$bin/bpftool-v2")
		;;
	perf)
		# Only what builds with the packages of a plain C machine.
		local_perf="NO_LIBPYTHON=1 NO_LIBPERL=1 NO_JEVENTS=1"
		mkdir -p "$out/perf-v1" "$out/perf-v2"
		step perf-v1 make -C "$srctree/tools/perf" -j"$jobs" \
			O="$out/perf-v1" $local_perf CC="$gcc_cc" \
			EXTRA_CFLAGS="$V1_FLAGS"
		cp "$out/perf-v1/perf" "$bin/perf-v1"
		list+=("$bin/perf-v1")
		if [ "$perf_clang" = 1 ]; then
			# perf links its parts with "ld -r" first: GNU ld 2.40
			# drops V2 .sframe there, so use lld for that too.
			step perf-v2 make -C "$srctree/tools/perf" -j"$jobs" \
				O="$out/perf-v2" $local_perf CC="$clang_cc" \
				LD=ld.lld-22 HOSTCC="$gcc_cc" LDFLAGS="$V2_LD" \
				EXTRA_CFLAGS="$V2_FLAGS -Wno-unused-command-line-argument"
			cp "$out/perf-v2/perf" "$bin/perf-v2"
			list+=("$bin/perf-v2")
		fi
		;;
	*)
		echo "corpus.sh: unknown large program '$prog'" >&2
		exit 2
		;;
	esac
done

printf '%s\n' "${list[@]}" >"$out/corpus.list"
echo "corpus.sh: ${#list[@]} files in $bin"
