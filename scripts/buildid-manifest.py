#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the manifest of ELF files and their GNU build IDs that the
procmap_buildid_scan kselftest compares PROCMAP_QUERY's answers with.

    buildid-manifest.py [--relative-to DIR] OUT PATH...

Every regular file under the PATHs (directories are walked, symbolic
links are not followed) that starts with the ELF magic is listed once
per device and inode.  The build ID is what binutils' `readelf -n` prints
for it ("Build ID: ..."), or "-" when it prints none: the ground truth
is binutils, not a parser of ours.  readelf runs on batches of files,
two batches at a time.

One line per file:

    KIND ID PATH

KIND is "L" when the ID's note lies in a PT_NOTE segment (or the file
has no note): a mapping of the file must give ID.  KIND is "R" for a
file without program headers (relocatable objects) and "S" for one whose
note is in a section that no PT_NOTE covers (Go's linker puts
.note.gnu.build-id outside its PT_NOTE): `readelf -n` prints the notes
of the sections, the kernel reads notes through the program headers, so
a mapping of such a file must give no ID whatever readelf found; ID is
still readelf's.  The segments and sections come from the same readelf
run (-lSnW); only the ELF header's class, byte order and e_phnum are
read here.  PATH is the rest of the line (paths with a newline are left out
and counted).  Lines starting with "#" are comments: the first ones
say how many files were found and how long it took.
"""

import argparse
import concurrent.futures
import os
import re
import stat
import struct
import subprocess
import sys
import time

BATCH = 64


def elf_kind(head):
    """'L' or 'R' for an ELF header, None when it is not ELF."""
    if len(head) < 52 or head[:4] != b'\x7fELF':
        return None
    cls, data = head[4], head[5]
    order = {1: '<', 2: '>'}.get(data)
    if order is None:
        return 'R'
    if cls == 2 and len(head) >= 64:
        phnum = struct.unpack(order + 'H', head[56:58])[0]
    elif cls == 1:
        phnum = struct.unpack(order + 'H', head[44:46])[0]
    else:
        return 'R'
    return 'L' if phnum else 'R'


def walk(paths, stats):
    """(kind, path) of every ELF file, once per device and inode."""
    seen = set()

    def one(path):
        try:
            st = os.lstat(path)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size < 52:
            return None
        if (st.st_dev, st.st_ino) in seen:
            stats['links'] += 1
            return None
        seen.add((st.st_dev, st.st_ino))
        try:
            with open(path, 'rb') as f:
                head = f.read(64)
        except OSError:
            stats['unreadable'] += 1
            return None
        kind = elf_kind(head)
        if kind is None:
            return None
        if '\n' in path:
            stats['newline'] += 1
            return None
        return kind, path

    for top in paths:
        if not os.path.isdir(top):
            r = one(top)
            if r:
                yield r
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                r = one(os.path.join(dirpath, name))
                if r:
                    yield r


NOTE_PHDR = re.compile(r'^\s+NOTE\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s')
NOTE_SECTION = re.compile(r'^\s*\[\s*\d+\]\s+(\S+)\s+NOTE\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)\s')
BUILD_ID = re.compile(r'Build ID: ([0-9a-fA-F]+)')


class FileNotes:
    """What readelf -lSnW says about one file."""

    def __init__(self):
        self.segments = []    # (offset, size) of every PT_NOTE
        self.sections = {}    # note section name: (offset, size)
        self.ids = []         # (build ID, section name or None)
        self.where = None     # the section whose notes are being printed

    def in_segment(self, section):
        """Whether a note section lies inside a PT_NOTE segment."""
        if section is None:
            return True       # printed from a segment (no section headers)
        off, size = self.sections.get(section, (-1, 0))
        return any(o <= off and off + size <= o + s for o, s in self.segments)


def build_ids(batch):
    """{path: FileNotes} for one batch, from one readelf run."""
    res = subprocess.run(['readelf', '-lSnW', '--'] + batch, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=dict(os.environ, LC_ALL='C'),
                         check=False)
    out = res.stdout.decode('utf-8', 'surrogateescape').splitlines()
    notes = {p: FileNotes() for p in batch}
    # readelf names each file ("File: PATH") only when given several.
    cur = notes[batch[0]] if len(batch) == 1 else None
    for line in out:
        if len(batch) > 1 and line.startswith('File: '):
            name = line[len('File: '):]
            if name not in notes:
                raise RuntimeError(f'readelf named a file it was not given: {name!r}')
            cur = notes[name]
            continue
        if cur is None:
            continue
        m = NOTE_PHDR.match(line)
        if m:
            cur.segments.append((int(m.group(1), 16), int(m.group(2), 16)))
            continue
        m = NOTE_SECTION.match(line)
        if m:
            cur.sections[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16))
            continue
        if line.startswith('Displaying notes found in: '):
            cur.where = line[len('Displaying notes found in: '):].strip()
            continue
        if line.startswith('Displaying notes found at file offset'):
            cur.where = None
            continue
        m = BUILD_ID.search(line)
        if m:
            cur.ids.append((m.group(1).lower(), cur.where))
    return notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--relative-to', help='write paths relative to this directory')
    ap.add_argument('out')
    ap.add_argument('paths', nargs='+')
    args = ap.parse_args()

    t0 = time.time()
    stats = {'links': 0, 'unreadable': 0, 'newline': 0}
    files = list(walk(args.paths, stats))
    t_walk = time.time() - t0
    paths = [p for _, p in files]
    batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]
    ids = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        for r in ex.map(build_ids, batches):
            ids.update(r)

    lines = []
    n_id = n_rel = n_sec = n_multi = 0
    for kind, path in files:
        fn = ids[path]
        seen = [i for i, sec in fn.ids if kind == 'L' and fn.in_segment(sec)]
        # Several build-ID notes in one file: the first one is the file's
        # (the kernel and readelf both take notes in file order).
        if len(set(i for i, _ in fn.ids)) > 1:
            n_multi += 1
        if seen:
            bid = seen[0]
        elif fn.ids:
            bid = fn.ids[0][0]
            if kind == 'L':
                kind = 'S'
        else:
            bid = '-'
        n_id += bid != '-'
        n_rel += kind == 'R'
        n_sec += kind == 'S'
        name = os.path.relpath(path, args.relative_to) if args.relative_to else path
        lines.append(f'{kind} {bid} {name}\n')

    tmp = args.out + '.tmp'
    with open(tmp, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(f'# {len(files)} ELF files under {" ".join(args.paths)}, '
                f'{n_id} with a GNU build ID, {n_rel} without program headers, '
                f'{n_sec} with the note in no PT_NOTE, '
                f'{n_multi} with several different build IDs\n')
        f.write(f'# left out: {stats["links"]} hard links, {stats["unreadable"]} '
                f'unreadable, {stats["newline"]} names with a newline\n')
        f.write(f'# generated with {subprocess.run(["readelf", "--version"], stdout=subprocess.PIPE, check=True).stdout.decode().splitlines()[0]} '
                f'in {time.time() - t0:.1f} s (walk {t_walk:.1f} s)\n')
        f.writelines(lines)
    os.replace(tmp, args.out)
    print(f'{args.out}: {len(files)} ELF files, {n_id} with a build ID, '
          f'{time.time() - t0:.1f} s', file=sys.stderr)


if __name__ == '__main__':
    main()
