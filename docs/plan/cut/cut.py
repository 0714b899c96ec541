#!/usr/bin/env python3
"""cut.py WORKTREE OWNDIR ORDER SPLIT [UPTO]

Writes the series of ORDER (lines "ID subject"; messages in msg/ID.txt
when they exist) as commits on the current branch of WORKTREE, which
must be at the base the .own files of OWNDIR were made against
(mkown.py).  SPLIT gives lines of a file to another patch: lines
"PATH FIRST-LAST ID" (line numbers of the .own file, its changed lines
only).  A file at patch k holds the lines in both trees, the lines added
by patches up to k and the lines deleted by later ones.  UPTO stops
after that patch."""
import os, subprocess, sys

wt, owndir, order, split = sys.argv[1:5]
upto = sys.argv[5] if len(sys.argv) > 5 else None
here = os.path.dirname(os.path.abspath(__file__))
ids, subj = [], {}
for l in open(order):
    l = l.rstrip('\n')
    if not l or l.startswith('#'):
        continue
    i, s = l.split(' ', 1)
    ids.append(i)
    subj[i] = s
rank = {i: k for k, i in enumerate(ids)}

files = {}
for root, _, names in os.walk(owndir):
    for n in names:
        if n.endswith('.own'):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, owndir)[:-4]
            rows = []
            for l in open(p).read().split('\n')[:-1]:
                tag, txt = l.split('|', 1)
                rows.append([tag, txt])
            files[rel] = rows

extra = []
for l in open(split):
    if l.startswith('+'):
        # "+PATH LINE FROM TO|text": a line of no tree, after .own line
        # LINE, from patch FROM up to (not with) patch TO
        head, txt = l.rstrip('\n').split('|', 1)
        path, n, a, b = head[1:].split()
        extra.append((path, int(n), a, b, txt))
        continue
    l = l.split('#')[0].split()
    if not l:
        continue
    path, rng, who = l
    a, b = (rng.split('-') + [rng])[:2]
    for n in range(int(a), int(b) + 1):
        r = files[path][n - 1]
        if r[0] != '=':
            r[0] = r[0][0] + who

for path, n, a, b, txt in sorted(extra, key=lambda e: -e[1]):
    files[path].insert(n, ['~' + a + ':' + b, txt])

bad = [(f, r[0]) for f, rows in files.items() for r in rows
       if r[0] != '=' and r[0][0] != '~' and r[0][1:] not in rank]
if bad:
    sys.exit('unknown owners: %s' % sorted(set(bad))[:20])

def content(rows, k):
    out, present = [], False
    new = all(r[0][0] == '+' for r in rows)
    gone = all(r[0][0] == '-' for r in rows)
    for tag, txt in rows:
        if tag == '=':
            out.append(txt)
            continue
        if tag[0] == '~':
            a, b = tag[1:].split(':')
            if rank[a] <= k < rank[b]:
                out.append(txt)
            continue
        r = rank[tag[1:]]
        if (tag[0] == '+') == (r <= k):
            out.append(txt)
            present = True
    if (new or gone) and not present:
        return None
    return '\n'.join(out) + '\n'

execs = set(open(os.path.join(owndir, 'modes')).read().split())

def git(*a):
    subprocess.run(['git', '-C', wt] + list(a), check=True)

for k, i in enumerate(ids):
    for f, rows in files.items():
        c = content(rows, k)
        p = os.path.join(wt, f)
        if c is None:
            if os.path.exists(p):
                os.unlink(p)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if not os.path.exists(p) or open(p).read() != c:
            open(p, 'w').write(c)
        if f in execs:
            os.chmod(p, 0o755)
    git('add', '-A')
    git('add', '-f', '--', *[f for f in files
                              if os.path.exists(os.path.join(wt, f))])
    msg = os.path.join(here, 'msg', i + '.txt')
    if os.path.exists(msg):
        git('commit', '-q', '--allow-empty', '-F', msg)
    else:
        git('commit', '-q', '--allow-empty', '-m', subj[i], '-m', '[cut %s]' % i)
    notes = os.path.join(here, 'msg', i + '.notes')
    if os.path.exists(notes):
        git('notes', 'add', '-f', '-F', notes)
    if i == upto:
        break
