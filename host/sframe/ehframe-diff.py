#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ehframe-diff.py DUMP FILE...: compare, for every function of each FILE,
the rows lib/sframe/ehframe.c derives from .eh_frame (DUMP is the
ehframe-dump program) with readelf's own interpretation of the same
section (readelf --debug-dump=frames-interp), at every address where
either side starts a row.  Prints KTAP: one test per file, and a last one
that runs DUMP -B (every seventh row broken) on the first file and must
see mismatches.  Exits 1 on any failure."""
import re
import subprocess
import sys
from bisect import bisect_right


def norm_cfa(s):
    return s if re.fullmatch(r"(rsp|rbp)\+-?\d+", s) else "x"


def norm_fp(s):
    if s in ("u", "s"):
        return "u"
    if re.fullmatch(r"c[+-]\d+", s):
        return s
    return "x"


def norm_ra(s):
    return "c-8" if s == "c-8" else "x"


def readelf_tables(path):
    out = subprocess.run(["readelf", "--debug-dump=frames-interp", path],
                         capture_output=True, text=True).stdout
    cies, fdes = {}, []
    cur = None
    cols = None
    in_eh = False
    for line in out.splitlines():
        # readelf shows .debug_frame too, with offsets of its own
        if line.startswith("Contents of the "):
            in_eh = ".eh_frame section" in line
            cur = None
            continue
        if not in_eh:
            continue
        m = re.match(r"^([0-9a-f]{8}) [0-9a-f]+ ([0-9a-f]{8}) (CIE|FDE)(.*)", line)
        if m:
            off, kind, rest = m.group(1), m.group(3), m.group(4)
            if kind == "CIE":
                cur = {"rows": []}
                cies[int(off, 16)] = cur
            else:
                cm = re.search(r"cie=([0-9a-f]+) pc=([0-9a-f]+)\.\.([0-9a-f]+)", rest)
                cur = {"rows": [], "cie": int(cm.group(1), 16),
                       "start": int(cm.group(2), 16), "end": int(cm.group(3), 16)}
                fdes.append(cur)
            cols = None
            continue
        if cur is None:
            continue
        if not line.strip():
            cols = None		# a table ends with an empty line
            continue
        if line.strip().startswith("LOC"):
            cols = line.split()
            continue
        f = []
        for tok in line.split():
            # "r9 (r9)": a register rule printed with its name
            if tok.startswith("(") and f:
                f[-1] += " " + tok
            else:
                f.append(tok)
        if cols and len(f) == len(cols) and re.fullmatch(r"[0-9a-f]+", f[0]):
            d = dict(zip(cols, f))
            cur["rows"].append((int(f[0], 16), norm_cfa(d["CFA"]),
                                norm_fp(d.get("rbp", "u")), norm_ra(d.get("ra", "x"))))
    for f in fdes:
        if not f["rows"]:
            c = cies.get(f["cie"])
            if c and c["rows"]:
                r = c["rows"][-1]
                f["rows"] = [(f["start"],) + r[1:]]
    return fdes


def ehdump_tables(ehdump, path, broken=False):
    out = subprocess.run([ehdump] + (["-B"] if broken else []) + [path],
                         capture_output=True, text=True)
    if out.returncode:
        return None, out.stderr.strip()
    fdes = []
    for line in out.stdout.splitlines():
        f = line.split()
        if f[0] == "FDE":
            cur = {"start": int(f[1], 16), "end": int(f[2], 16), "rows": []}
            fdes.append(cur)
        else:
            cur["rows"].append((int(f[0], 16), f[1], f[2], f[3]))
    return fdes, None


def at(rows, addr):
    locs = [r[0] for r in rows]
    i = bisect_right(locs, addr) - 1
    return rows[i][1:] if i >= 0 else None


def compare(ref, ours, path):
    byrange = {(f["start"], f["end"]): f for f in ours}
    funcs = rows = mism = expressible = dropped = shown = 0
    for f in ref:
        funcs += 1
        o = byrange.get((f["start"], f["end"]))
        if o is None:
            mism += 1
            if shown < 10:
                print(f"# {path}: FDE {f['start']:#x}: not derived")
                shown += 1
            continue
        if not o["rows"]:
            dropped += 1
            continue
        locs = sorted({r[0] for r in f["rows"]} | {r[0] for r in o["rows"]})
        for loc in locs:
            if not f["start"] <= loc < f["end"]:
                continue
            rows += 1
            want, got = at(f["rows"], loc), at(o["rows"], loc)
            if "x" not in (want[0], want[2]):
                expressible += 1
            if want != got:
                mism += 1
                if shown < 10:
                    print(f"# {path}: {loc:#x} in FDE {f['start']:#x}: readelf {want} derived {got}")
                    shown += 1
    return funcs, dropped, rows, expressible, mism


def main():
    ehdump, files = sys.argv[1], sys.argv[2:]
    print("KTAP version 1")
    print(f"1..{len(files) + 1}")
    bad = 0
    for i, path in enumerate(files, 1):
        ref = readelf_tables(path)
        ours, err = ehdump_tables(ehdump, path)
        if ours is None:
            print(f"# {path}: ehframe-dump failed: {err}")
            print(f"not ok {i} {path}")
            bad += 1
            continue
        funcs, dropped, rows, expressible, mism = compare(ref, ours, path)
        print(f"# {path}: {funcs} functions ({dropped} left out: too many rows), "
              f"{rows} rows compared ({expressible} SFrame can express), "
              f"{mism} mismatches")
        print(f"{'not ok' if mism else 'ok'} {i} {path}")
        bad += mism != 0
    # the comparison must be able to fail
    path = files[0]
    ours, err = ehdump_tables(ehdump, path, broken=True)
    mism = compare(readelf_tables(path), ours or [], path)[4] if ours else 0
    print(f"# self-check: {mism} mismatches with every seventh row broken")
    print(f"{'ok' if mism else 'not ok'} {len(files) + 1} self_check_broken_rows_seen")
    bad += mism == 0
    sys.exit(1 if bad else 0)


main()
