#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# Small hand-written ELF64 reader for the cover-letter measurements.
# No third-party modules: parses the ELF header, section and program
# headers, .eh_frame_hdr's search table, the FDEs it points to, the
# .sframe header, and symbol tables.
#
#   elfscan.py sizes FILE...        per-file .eh_frame/.eh_frame_hdr/.sframe
#   elfscan.py scan DIR...          host-wide counts (items 1-4)
import sys, os, struct, mmap, bisect, collections
from multiprocessing import Pool

PT_LOAD, PT_INTERP = 1, 3
PT_GNU_EH_FRAME, PT_GNU_SFRAME = 0x6474e550, 0x6474e554
SHT_NOBITS, SHF_EXECINSTR = 8, 4
ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
EM_X86_64 = 62
FP = b'\x55\x48\x89\xe5'            # push %rbp; mov %rsp,%rbp
ENDBR = b'\xf3\x0f\x1e\xfa'         # endbr64
MINFUNC = 8
LOOSE = 32
MOVRBP = (b'\x48\x89\xe5', b'\x48\x8b\xec')


def leb(b, p, signed):
    r = s = 0
    while True:
        c = b[p]; p += 1
        r |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            if signed and c & 0x40:
                r -= 1 << s
            return r, p


def uleb(b, p):
    return leb(b, p, False)


def sleb(b, p):
    return leb(b, p, True)


def read_enc(b, p, enc, field_vaddr, datarel):
    """Read a DW_EH_PE encoded value at file offset p. Returns (value, p)."""
    fmt = enc & 0x0f
    if fmt == 0x00: v = struct.unpack_from('<Q', b, p)[0]; p += 8
    elif fmt == 0x01: v, p = uleb(b, p)
    elif fmt == 0x02: v = struct.unpack_from('<H', b, p)[0]; p += 2
    elif fmt == 0x03: v = struct.unpack_from('<I', b, p)[0]; p += 4
    elif fmt == 0x04: v = struct.unpack_from('<Q', b, p)[0]; p += 8
    elif fmt == 0x09: v, p = sleb(b, p)
    elif fmt == 0x0a: v = struct.unpack_from('<h', b, p)[0]; p += 2
    elif fmt == 0x0b: v = struct.unpack_from('<i', b, p)[0]; p += 4
    elif fmt == 0x0c: v = struct.unpack_from('<q', b, p)[0]; p += 8
    else: raise ValueError('enc %#x' % enc)
    app = enc & 0x70
    if app == 0x10: v += field_vaddr
    elif app == 0x30: v += datarel
    return v & 0xffffffffffffffff, p


class Elf:
    def __init__(self, path):
        self.path = path
        fd = os.open(path, os.O_RDONLY)
        try:
            self.size = os.fstat(fd).st_size
            if self.size < 64:
                raise ValueError('short')
            self.b = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
        finally:
            os.close(fd)
        b = self.b
        if b[:4] != b'\x7fELF':
            raise ValueError('not ELF')
        self.cls, self.data = b[4], b[5]
        if self.cls != 2 or self.data != 1:
            self.type = self.machine = None
            return
        (self.type, self.machine, _, _, phoff, shoff, _, _, phes, phnum,
         shes, shnum, shstrndx) = struct.unpack_from('<HHIQQQIHHHHHH', b, 16)
        self.ph = [struct.unpack_from('<IIQQQQQQ', b, phoff + i * phes)
                   for i in range(phnum)] if phoff else []
        self.sh = []
        if shoff:
            if shnum == 0:
                shnum = struct.unpack_from('<Q', b, shoff + 32)[0]
            raw = [struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shes)
                   for i in range(shnum)]
            if shstrndx == 0xffff:
                shstrndx = raw[0][6]
            so = raw[shstrndx][4] if shstrndx < len(raw) else 0
            for r in raw:
                n = b[so + r[0]: b.find(b'\0', so + r[0])].decode('latin1') if so else ''
                self.sh.append((n,) + r)   # name,name_off,type,flags,addr,off,size,link,info,align,entsize
        self.secs = {}
        for s in self.sh:
            self.secs.setdefault(s[0], s)
        self.loads = sorted((p[3], p[3] + p[5], p[2]) for p in self.ph if p[0] == PT_LOAD)
        self.load_starts = [l[0] for l in self.loads]

    def close(self):
        self.b.close()

    def sec_size(self, name):
        s = self.secs.get(name)
        if not s or s[2] == SHT_NOBITS:
            return 0
        return s[6]

    def has_ph(self, t):
        return any(p[0] == t for p in self.ph)

    def v2o(self, v):
        """vaddr -> file offset via PT_LOAD (filesz)."""
        i = bisect.bisect_right(self.load_starts, v) - 1
        if i >= 0:
            lo, hi, off = self.loads[i]
            if v < hi:
                return off + (v - lo)
        return None

    def sframe_header(self):
        s = self.secs.get('.sframe')
        if s and s[2] != SHT_NOBITS:
            off = s[5]
        else:
            p = [p for p in self.ph if p[0] == PT_GNU_SFRAME]
            if not p:
                return None
            off = p[0][2]
        magic, ver, flags = struct.unpack_from('<HBB', self.b, off)
        # v1 and v2 share this preamble+header layout
        arch, fpoff, raoff, auxlen, nfde, nfre, frelen = \
            struct.unpack_from('<BbbBIII', self.b, off + 4)
        return dict(raw=bytes(self.b[off:off + 4]).hex(' '), magic=magic, version=ver, flags=flags, abi=arch,
                    num_fdes=nfde, num_fres=nfre, fre_len=frelen)

    # --- function starts -------------------------------------------------
    def text_ranges(self):
        """Executable sections except PLT stubs and .init/.fini."""
        r = []
        for s in self.sh:
            if s[3] & SHF_EXECINSTR and s[2] != SHT_NOBITS and not (
                    s[0].startswith('.plt') or s[0] in ('.init', '.fini')):
                r.append((s[4], s[4] + s[6]))
        return sorted(r)

    def fde_functions(self):
        """(start, size) for every FDE listed in .eh_frame_hdr's table."""
        s = self.secs.get('.eh_frame_hdr')
        if s and s[2] != SHT_NOBITS:
            hv, ho = s[4], s[5]
        else:
            p = [p for p in self.ph if p[0] == PT_GNU_EH_FRAME]
            if not p:
                return None
            hv, ho = p[0][3], p[0][2]
        b = self.b
        ver, pe, ce, te = b[ho], b[ho + 1], b[ho + 2], b[ho + 3]
        if ver != 1 or te == 0xff or ce == 0xff:
            return None
        p = ho + 4
        _, p = read_enc(b, p, pe, hv + (p - ho), hv)
        n, p = read_enc(b, p, ce, hv + (p - ho), hv)
        if te != 0x3b:
            return None         # only the usual datarel|sdata4 table
        tab = struct.unpack_from('<%di' % (2 * n), b, p)
        cies = {}
        out = []
        for i in range(n):
            start = (hv + tab[2 * i]) & 0xffffffffffffffff
            fo = self.v2o((hv + tab[2 * i + 1]) & 0xffffffffffffffff)
            if fo is None:
                continue
            ln, cp = struct.unpack_from('<II', b, fo)
            if ln == 0xffffffff:
                continue
            co = fo + 4 - cp
            enc = cies.get(co)
            if enc is None:
                enc = cies[co] = self.cie_fde_enc(co)
            q = fo + 8
            fmt = enc & 0x0f
            q += {0: 8, 2: 2, 3: 4, 4: 8, 0xa: 2, 0xb: 4, 0xc: 8}.get(fmt, 4)
            rng, _ = read_enc(b, q, fmt, 0, 0)
            out.append((start, rng))
        return out

    def cie_fde_enc(self, co):
        b = self.b
        ln, cid = struct.unpack_from('<II', b, co)
        p = co + 8
        ver = b[p]; p += 1
        e = b.find(b'\0', p)
        aug = b[p:e].decode('latin1'); p = e + 1
        if 'eh' in aug:
            p += 8
        _, p = uleb(b, p)
        _, p = sleb(b, p)
        if ver == 1:
            p += 1
        else:
            _, p = uleb(b, p)
        enc = 0
        if aug.startswith('z'):
            _, p = uleb(b, p)
            for c in aug[1:]:
                if c == 'R':
                    enc = b[p]; p += 1
                elif c == 'P':
                    pe = b[p]; p += 1
                    _, p = read_enc(b, p, pe & 0x0f, 0, 0)
                elif c == 'L':
                    p += 1
                elif c in 'SB':
                    pass
                else:
                    break
        return enc

    def sym_functions(self):
        for name in ('.symtab', '.dynsym'):
            s = self.secs.get(name)
            if not s or s[2] == SHT_NOBITS or s[6] == 0:
                continue
            off, size = s[5], s[6]
            seen = {}
            for (nm, info, other, shndx, val, sz) in struct.iter_unpack(
                    '<IBBHQQ', self.b[off:off + size - size % 24]):
                if info & 0xf == 2 and shndx != 0 and sz > 0:
                    seen[val] = max(sz, seen.get(val, 0))
            if seen:
                return name, sorted(seen.items())
        return None, []

    def prologue_stats(self):
        fns = self.fde_functions()
        method = 'eh_frame_hdr'
        if not fns:
            method, fns = self.sym_functions()
            if not fns:
                return 'none', 0, 0, 0
        tr = self.text_ranges()
        trs = [t[0] for t in tr]
        b = self.b
        nf = nfp = nloose = 0
        for start, rng in fns:
            if rng < MINFUNC:
                continue
            i = bisect.bisect_right(trs, start) - 1
            if tr and (i < 0 or start >= tr[i][1]):
                continue          # PLT, .init/.fini, or outside text
            fo = self.v2o(start)
            if fo is None or fo + 8 > self.size:
                continue
            nf += 1
            h = b[fo:fo + LOOSE]
            if h[:4] == FP or (h[:4] == ENDBR and h[4:8] == FP):
                nfp += 1
                nloose += 1
                continue
            # loose: 'mov %rsp,%rbp' (48 89 e5 or 48 8b ec) within the
            # first LOOSE bytes, after a 'push %rbp' (55) byte: catches
            # gcc's scheduling between push and mov, shrink-wrapped
            # early exits and Go's stack-check preamble.
            h = h[:max(MINFUNC, min(rng, LOOSE))]
            for m in MOVRBP:
                k = h.find(m)
                if k > 0 and 0x55 in h[:k]:
                    nloose += 1
                    break
        return method, nf, nfp, nloose


def cmd_sizes(files):
    print('%-34s %9s %9s %9s %7s %5s %6s %6s %6s %6s' % (
        'file', 'eh_frame', 'eh_hdr', 'sframe', 'ratio', 'sfver', 'sfFDE',
        'ehFDE', 'FP%', 'FPlo%'))
    tot = collections.Counter()
    for f in files:
        e = Elf(f)
        eh, hdr, sf = e.sec_size('.eh_frame'), e.sec_size('.eh_frame_hdr'), e.sec_size('.sframe')
        h = e.sframe_header()
        fdes = e.fde_functions() or []
        m, nf, nfp, nlo = e.prologue_stats()
        tot['nf'] += nf; tot['nfp'] += nfp; tot['nlo'] += nlo
        tot['cs'] += nf > 0 and 2 * nfp >= nf; tot['cl'] += nf > 0 and 2 * nlo >= nf
        ratio = sf / (eh + hdr) if eh + hdr else float('nan')
        label = '/'.join(f.split('/')[-3:])
        print('%-34s %9d %9d %9d %7.3f %5s %6s %6d %6.1f %6.1f  bytes0-3=[%s] magic=%s ptsframe=%d' % (
            label, eh, hdr, sf, ratio, h['version'] if h else '-',
            h['num_fdes'] if h else '-', len(fdes), 100.0 * nfp / nf if nf else 0, 100.0 * nlo / nf if nf else 0,
            h['raw'] if h else '-', '%#x' % h['magic'] if h else '-', e.has_ph(PT_GNU_SFRAME)))
        tot['eh'] += eh; tot['hdr'] += hdr; tot['sf'] += sf; tot['n'] += 1
        e.close()
    print('TOTAL files=%d eh_frame=%d eh_frame_hdr=%d sframe=%d ratio sframe/(eh_frame+hdr)=%.3f' % (
        tot['n'], tot['eh'], tot['hdr'], tot['sf'],
        tot['sf'] / (tot['eh'] + tot['hdr'])))
    print('TOTAL files classified FP (>=50%% of functions): strict %d/%d, loose %d/%d' % (
        tot['cs'], tot['n'], tot['cl'], tot['n']))
    print('TOTAL functions=%d strict FP prologue=%.1f%% loose FP prologue=%.1f%%' % (
        tot['nf'], 100.0 * tot['nfp'] / max(1, tot['nf']), 100.0 * tot['nlo'] / max(1, tot['nf'])))


def scan_one(path):
    try:
        e = Elf(path)
    except Exception:
        return None
    try:
        r = dict(path=path, x86=(e.machine == EM_X86_64), type=e.type)
        if not r['x86']:
            return r
        r['interp'] = e.has_ph(PT_INTERP)
        r['eh'] = e.sec_size('.eh_frame') > 0
        r['hdr'] = e.sec_size('.eh_frame_hdr') > 0 or e.has_ph(PT_GNU_EH_FRAME)
        r['sframe'] = e.sec_size('.sframe') > 0
        r['ptsframe'] = e.has_ph(PT_GNU_SFRAME)
        r['nsec'] = len(e.sh)
        if e.type in (ET_EXEC, ET_DYN):
            try:
                r['method'], r['nf'], r['nfp'], r['nlo'] = e.prologue_stats()
            except Exception as ex:
                r['method'], r['nf'], r['nfp'], r['nlo'] = 'error', 0, 0, 0
        return r
    finally:
        e.close()


def dpkg_owners():
    own = {}
    d = '/var/lib/dpkg/info'
    for fn in os.listdir(d):
        if not fn.endswith('.list'):
            continue
        pkg = fn[:-5].split(':')[0]
        with open(os.path.join(d, fn), 'rb') as f:
            for line in f:
                p = line.rstrip(b'\n').decode('utf-8', 'replace')
                for a, c in (('/lib/', '/usr/lib/'), ('/lib64/', '/usr/lib64/'),
                             ('/bin/', '/usr/bin/'), ('/sbin/', '/usr/sbin/')):
                    if p.startswith(a):
                        p = c + p[len(a):]
                        break
                own.setdefault(p, pkg)
    return own


def cmd_scan(dirs):
    seen = set()
    files = []
    for d in dirs:
        for root, ds, fs in os.walk(d):
            for fn in fs:
                p = os.path.join(root, fn)
                try:
                    st = os.lstat(p)
                except OSError:
                    continue
                if not (st.st_mode & 0o170000 == 0o100000) or st.st_size < 64:
                    continue
                k = (st.st_dev, st.st_ino)
                if k in seen:
                    continue
                seen.add(k)
                files.append(p)
    print('regular files walked (dedup by inode) under %s: %d' % (' '.join(dirs), len(files)))
    own = dpkg_owners()
    nd = set()
    if os.environ.get('NONDEBIAN'):
        nd = set(open(os.environ['NONDEBIAN']).read().split())
    excl = [p for p in files if own.get(p) in nd]
    files = [p for p in files if own.get(p) not in nd]
    print('installed packages not from any Debian archive (apt "[installed,local]"): %d; their files excluded below: %d (%s)' % (
        len(nd), len(excl), ' '.join(excl[:5])))
    with Pool(os.cpu_count() or 2) as pool:
        res = [r for r in pool.imap_unordered(scan_one, files, chunksize=8) if r]
    x86 = [r for r in res if r['x86']]
    print('ELF files: %d (x86_64 ELF64: %d, other machine/class: %d)' % (
        len(res), len(x86), len(res) - len(x86)))
    eo = [r for r in x86 if r['type'] in (ET_EXEC, ET_DYN)]
    rel = [r for r in x86 if r['type'] == ET_REL]
    exe = [r for r in eo if r['type'] == ET_EXEC or r['interp']]
    print('x86_64 executables+shared objects (ET_EXEC/ET_DYN): %d (executables: %d, shared objects: %d); relocatable .o: %d' % (
        len(eo), len(exe), len(eo) - len(exe), len(rel)))
    print()
    print('== item 1/2: unwind sections on this host (x86_64 ET_EXEC/ET_DYN) ==')
    print('with .sframe section: %d' % sum(r['sframe'] for r in eo))
    print('with PT_GNU_SFRAME (0x6474e554) program header: %d' % sum(r['ptsframe'] for r in eo))
    print('with .sframe or PT_GNU_SFRAME: %d' % sum(r['sframe'] or r['ptsframe'] for r in eo))
    print('with .eh_frame: %d' % sum(r['eh'] for r in eo))
    print('with .eh_frame and .eh_frame_hdr/PT_GNU_EH_FRAME: %d' % sum(r['eh'] and r['hdr'] for r in eo))
    nh = collections.Counter(own.get(r['path'], '(unowned)') for r in eo if r['eh'] and not r['hdr'])
    print('  packages owning files with .eh_frame but no .eh_frame_hdr: %s' % ', '.join('%s=%d' % kv for kv in nh.most_common(10)))
    print('with no section headers at all: %d' % sum(r['nsec'] == 0 for r in eo))
    print('with neither .eh_frame nor .sframe: %d' % sum(not r['eh'] and not r['sframe'] for r in eo))
    for r in sorted(eo, key=lambda r: r['path']):
        if not r['eh'] and not r['sframe']:
            pass
    ne = collections.Counter(own.get(r['path'], '(unowned)') for r in eo if not r['eh'])
    print('  packages owning files without .eh_frame: %s' % ', '.join('%s=%d' % kv for kv in ne.most_common(10)))
    print('all x86_64 ELF incl. .o: .sframe=%d .eh_frame=%d of %d' % (
        sum(r['sframe'] for r in x86), sum(r['eh'] for r in x86), len(x86)))
    print()
    print('== item 2: what registration from ld.so would need ==')
    need = [r for r in eo if not (r['sframe'] or r['ptsframe'])]
    pk = collections.Counter()
    unowned = []
    for r in need:
        p = own.get(r['path']) or own.get(os.path.realpath(r['path']))
        if p:
            pk[p] += 1
        else:
            unowned.append(r['path'])
    print('x86_64 ET_EXEC/ET_DYN lacking .sframe (need a --gsframe rebuild): %d' % len(need))
    print('  of which owned by a dpkg package: %d, not owned by any package: %d' % (
        len(need) - len(unowned), len(unowned)))
    src = {}
    import subprocess
    for l in subprocess.run(['dpkg-query', '-W', '-f=${db:Status-Abbrev}\t${Package}\t${source:Package}\n'],
                            capture_output=True, text=True).stdout.splitlines():
        st, a, b = l.split('\t')
        if st.startswith('ii'):
            src[a] = b or a
    print('distinct installed binary packages owning them: %d (from %d source packages)' % (
        len(pk), len({src.get(p, p) for p in pk})))
    print('installed binary packages on this host (dpkg-query): %d' % len(src))
    print('top owners: %s' % ', '.join('%s=%d' % kv for kv in pk.most_common(8)))
    for u in unowned[:10]:
        print('  unowned: %s' % u)
    withhdr = [r for r in eo if r['eh'] and r['hdr']]
    pk2 = {own.get(r['path']) for r in withhdr} - {None}
    print('x86_64 ET_EXEC/ET_DYN usable by in-kernel derivation (.eh_frame+.eh_frame_hdr), no rebuild: %d (from %d packages)' % (
        len(withhdr), len(pk2)))
    print()
    print('== item 3: frame-pointer prologues (x86_64 ET_EXEC/ET_DYN) ==')
    sc = [r for r in eo if r.get('nf', 0) > 0]
    meth = collections.Counter(r['method'] for r in sc)
    print('function-start source: %s' % ', '.join('%s=%d' % kv for kv in sorted(meth.items())))
    print('files with no function >= %d bytes found: %d' % (MINFUNC, len(eo) - len(sc)))
    fpf = [r for r in sc if r['nfp'] * 2 >= r['nf']]
    nfp = [r for r in sc if r['nfp'] * 2 < r['nf']]
    tf, tp = sum(r['nf'] for r in sc), sum(r['nfp'] for r in sc)
    print('files scanned (>=1 function >= %d bytes): %d' % (MINFUNC, len(sc)))
    print('files with frame pointers (>=50%% of functions start push %%rbp;mov %%rsp,%%rbp): %d' % len(fpf))
    print('files without frame pointers: %d (%.1f%%)' % (len(nfp), 100.0 * len(nfp) / len(sc)))
    print('functions scanned: %d, with FP prologue: %d (%.2f%%)' % (tf, tp, 100.0 * tp / tf))
    tl = sum(r['nlo'] for r in sc)
    fpl = [r for r in sc if r['nlo'] * 2 >= r['nf']]
    nfl = [r for r in sc if r['nlo'] * 2 < r['nf']]
    print('loose criterion (mov %%rsp,%%rbp after push %%rbp in first %d bytes): files with FP: %d, without: %d (%.1f%%); functions with FP: %d (%.2f%%)' % (
        LOOSE, len(fpl), len(nfl), 100.0 * len(nfl) / len(sc), tl, 100.0 * tl / tf))
    for lab, key in (('strict', 'nfp'), ('loose', 'nlo')):
        hist = collections.Counter(min(9, int(10 * r[key] / r['nf'])) for r in sc)
        print('per-file FP share histogram, %s (files per decile): %s' % (lab, ' '.join(
            '%d0%%:%d' % (k, hist[k]) for k in range(10))))
    unc = collections.Counter(own.get(r['path'], '(unowned)') for r in eo if r.get('nf', 0) == 0)
    print('not classified (no .eh_frame_hdr and no FUNC symbols, or no function >= %d bytes), by package: %s' % (
        MINFUNC, ', '.join('%s=%d' % kv for kv in unc.most_common(12))))
    fpk = collections.Counter(own.get(r['path'], '(unowned)') for r in fpl)
    print('packages owning loose-FP files: %s' % ', '.join('%s=%d' % kv for kv in fpk.most_common(25)))
    print()
    print('== item 4: files without frame pointers that the derivation can use ==')
    for lab, L in (('strict', nfp), ('loose', nfl)):
        print('without FP (%s): %d; with .eh_frame: %d; with .eh_frame and .eh_frame_hdr: %d; without .eh_frame: %d' % (
            lab, len(L), sum(r['eh'] for r in L), sum(r['eh'] and r['hdr'] for r in L),
            sum(not r['eh'] for r in L)))


if __name__ == '__main__':
    if sys.argv[1] == 'sizes':
        cmd_sizes(sys.argv[2:])
    elif sys.argv[1] == 'scan':
        cmd_scan(sys.argv[2:])
