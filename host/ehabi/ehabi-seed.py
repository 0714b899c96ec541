#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a fuzz-ehabi input from a 32-bit ARM ELF file's EHABI table.

The input is the 4-byte header fuzz-ehabi reads (offset of .ARM.exidx in
the image, its length, 16-bit little-endian each) and the image: the
bytes of the file's PT_LOAD from up to 60 KiB before .ARM.exidx to its
end, with .ARM.exidx cut to fit in 64 KiB.

Usage: ehabi-seed.py ELF OUT
"""
import struct
import sys

PT_LOAD, PT_ARM_EXIDX = 1, 0x70000001


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = open(sys.argv[1], "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        sys.exit("%s: not a little-endian 32-bit ELF file" % sys.argv[1])
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    phdrs = [struct.unpack_from("<8I", data, phoff + i * phentsize)
             for i in range(phnum)]
    x = [p for p in phdrs if p[0] == PT_ARM_EXIDX]
    if not x:
        sys.exit("%s: no PT_ARM_EXIDX" % sys.argv[1])
    xoff, xvaddr, xsize = x[0][1], x[0][2], x[0][4]
    load = [p for p in phdrs if p[0] == PT_LOAD and
            p[2] <= xvaddr < p[2] + p[4]][0]
    xsize = min(xsize, 0x8000) & ~7
    lo = max(load[2], xvaddr - 0x7000)
    image = data[load[1] + lo - load[2]:xoff + xsize]
    out = struct.pack("<HH", xvaddr - lo, xsize) + image
    open(sys.argv[2], "wb").write(out)


if __name__ == "__main__":
    main()
