#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare lib/ehabi's reading of EHABI tables with binutils' readelf -u.

For each file, every row ehabi-dump prints (start, kind, and the effect of
the opcodes: the caller's sp, where the return address and each saved
register are) is compared with the same computed here from the opcodes as
readelf decodes and names them.  Prints one line per file and the first
differences; exits 1 if any row differs.

Usage: ehabi-diff.py [--readelf R] [--break] EHABI_DUMP FILE...
  --break  damage the rows readelf gives (a self-check: must fail)
"""
import re
import subprocess
import sys

MAX_OPS = 32          # EHABI_MAX_OPS
BASE_SHIFT = 27


def addr(base, off):
    return "r%d+%d" % (base, off)


class Entry:
    def __init__(self, start):
        self.start = start & ~1
        self.kind = "unwind"
        self.ops = []           # (bytes, text)
        self.personality = None


def parse_readelf(text):
    entries = []
    e = None
    for line in text.splitlines():
        m = re.match(r"^(0x[0-9a-f]+) <[^>]*>: (.*)$", line) or \
            re.match(r"^(0x[0-9a-f]+): (.*)$", line)
        if m:
            e = Entry(int(m.group(1), 16))
            entries.append(e)
            if "[cantunwind]" in m.group(2):
                e.kind = "cantunwind"
            continue
        if e is None:
            continue
        m = re.match(r"^  ((?:0x[0-9a-f]{2} ?)+)\s+(.*)$", line)
        if m:
            b = [int(x, 16) for x in m.group(1).split()]
            e.ops.append((b, m.group(2).strip()))
            continue
        s = line.strip()
        if s.startswith("Compact model index:"):
            idx = int(s.split(":")[1])
            if idx > 2:
                e.kind = "unsupported"
        elif s.startswith("Personality routine"):
            # readelf decodes the opcodes only of the GNU personality
            # routines it can name (a stripped file's are anonymous)
            e.personality = s
            if "<" not in s:
                e.kind = "skip"
        elif s.startswith("[") and "cantunwind" not in s:
            # "[Reserved compact index ...]" and the like
            e.kind = "unsupported"
    return entries


def regs_of(text):
    m = re.match(r"pop \{(.*)\}$", text)
    out = []
    for part in m.group(1).split(","):
        part = part.strip()
        r = re.match(r"^r(\d+)$", part)
        if r:
            out.append(int(r.group(1)))
            continue
        r = re.match(r"^r(\d+)-r(\d+)$", part)
        if r:
            out += range(int(r.group(1)), int(r.group(2)) + 1)
            continue
        return None
    return out


def d_count(text):
    # "pop {D8}", "pop {D8-D15}", "pop {D16-D20}"
    m = re.match(r"pop \{D(\d+)(?:-D(\d+))?\}$", text)
    if not m:
        return None
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    return hi - lo + 1


def effect(e):
    """The effect, in ehabi-dump's words, of the entry's opcodes."""
    if e.kind != "unwind":
        return e.kind
    if not e.ops:
        return "unwind cfa=r13+0 ra=lr"     # no opcodes: all finish
    regs = {n: (n, 0) for n in range(16)}     # value: an address
    vsp = (13, 0)
    popped = {}
    nbytes = 0
    for b, text in e.ops:
        if text == "finish":
            break
        nbytes += len(b)
        if text.startswith("refuse"):
            return "refuse"
        m = re.match(r"^vsp = vsp ([+-]) (\d+)$", text)
        if m:
            d = int(m.group(2))
            vsp = (vsp[0], vsp[1] + (d if m.group(1) == "+" else -d))
            continue
        m = re.match(r"^vsp = r(\d+)$", text)
        if m:
            n = int(m.group(1))
            vsp = regs[n]
            continue
        if text.startswith("pop {r"):
            rl = regs_of(text)
            if rl is None:
                return "unsupported"
            for r in sorted(rl):
                if r in popped or r == 13:
                    return "unsupported"
                popped[r] = vsp
                regs[r] = vsp
                vsp = (vsp[0], vsp[1] + 4)
            continue
        if text.startswith("pop {D") or text.startswith("pop {wR") or \
           text.startswith("pop {wCGR"):
            n = d_count(text)
            op = b[0]
            if text.startswith("pop {wCGR"):
                n = bin(b[1] & 0xf).count("1")
                vsp = (vsp[0], vsp[1] + 4 * n)
                continue
            if text.startswith("pop {wR"):
                m = re.match(r"pop \{wR(\d+)(?:-wR(\d+))?\}$", text)
                lo = int(m.group(1))
                hi = int(m.group(2)) if m.group(2) else lo
                n = hi - lo + 1
            if n is None:
                return "unsupported"
            extra = 4 if op == 0xb3 or 0xb8 <= op <= 0xbf else 0
            vsp = (vsp[0], vsp[1] + 8 * n + extra)
            continue
        return "unsupported"            # spare, reserved, unknown
    if nbytes > MAX_OPS:
        return "unsupported"
    out = "unwind cfa=" + addr(*vsp) + " ra="
    if 15 in popped:
        out += "[" + addr(*popped[15]) + "]"
    elif 14 in popped:
        out += "[" + addr(*popped[14]) + "]"
    else:
        out += "lr"
    for r in sorted(popped):
        out += " r%d=" % r + ("?" if r < 4 else "[" + addr(*popped[r]) + "]")
    return out


def main():
    args = sys.argv[1:]
    readelf = "arm-linux-gnueabihf-readelf"
    broken = False
    while args and args[0].startswith("--"):
        if args[0] == "--readelf":
            readelf = args[1]
            args = args[2:]
        elif args[0] == "--break":
            broken = True
            args = args[1:]
        else:
            sys.exit(__doc__)
    if len(args) < 2:
        sys.exit(__doc__)
    dump, files = args[0], args[1:]
    bad = 0
    for f in files:
        run = subprocess.run([dump, f], capture_output=True, text=True)
        if run.returncode not in (0, 3):
            print("%s: ehabi-dump failed: %s" % (f, run.stderr.strip()))
            bad += 1
            continue
        mine = run.stdout.splitlines()
        ref = parse_readelf(subprocess.run([readelf, "-u", f],
                                           capture_output=True, text=True,
                                           check=True).stdout)
        if run.returncode == 3 and not ref:
            print("%s: no table" % f)
            continue
        want = ["%08x %s" % (e.start, effect(e)) for e in ref]
        # rows readelf did not decode: not compared, counted
        mine = [a if b.split()[1] != "skip" else b
                for a, b in zip(mine, want)] + mine[len(want):]
        if broken:
            # a decoder that took the pops in the wrong order
            want = [re.sub(r"r4=\[r(\d+)\+(\d+)\]",
                           lambda m: "r4=[r%s+%d]" % (m.group(1),
                                                     int(m.group(2)) + 4),
                           w) for w in want]
        diff = [(a, b) for a, b in zip(mine, want) if a != b]
        if len(mine) != len(want):
            diff.append(("%d rows" % len(mine), "%d rows" % len(want)))
        kinds = {}
        for w in want:
            k = w.split()[1]
            kinds[k] = kinds.get(k, 0) + 1
        print("%s: %d rows (%s), %d differ" %
              (f, len(want), ", ".join("%s %d" % kv for kv in
                                       sorted(kinds.items())), len(diff)))
        for a, b in diff[:5]:
            print("  ehabi-dump: %s\n  readelf:    %s" % (a, b))
        bad += len(diff)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
