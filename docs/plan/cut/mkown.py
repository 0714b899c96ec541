#!/usr/bin/env python3
"""mkown.py TREE BASE FINAL OUTDIR: one .own file for each file that
differs between BASE and FINAL (commits of TREE): every line of the
full-context diff, tagged '=' (in both), '+P' (added by patch P) or '-P'
(deleted by patch P), P the file's default owner from owners.txt
(first matching glob), or '?' when none matches."""
import fnmatch, os, subprocess, sys

tree, base, final, out = sys.argv[1:5]
here = os.path.dirname(os.path.abspath(__file__))
rules = []
for l in open(os.path.join(here, 'owners.txt')):
    l = l.split('#')[0].split()
    if len(l) == 2:
        rules.append(l)

def owner(path):
    for g, p in rules:
        if fnmatch.fnmatch(path, g):
            return p
    return '?'

def git(*a):
    return subprocess.run(['git', '-C', tree] + list(a), check=True,
                          capture_output=True, text=True).stdout

files = git('diff', '--no-renames', '--name-only', base, final).split()
modes = []
for l in git('ls-tree', '-r', final).split('\n'):
    if l.startswith('100755 ') and l.split('\t')[1] in files:
        modes.append(l.split('\t')[1])
os.makedirs(out, exist_ok=True)
open(os.path.join(out, 'modes'), 'w').write(''.join(m + '\n' for m in modes))
for f in files:
    p = owner(f)
    d = git('diff', '--no-renames', '-U1000000', base, final, '--', f)
    lines = d.split('\n')
    i = next((k for k, l in enumerate(lines) if l.startswith('@@')), None)
    body = [] if i is None else lines[i + 1:]
    if body and body[-1] == '':
        body.pop()
    res = []
    for l in body:
        if l.startswith('\\'):
            continue
        t, txt = l[0], l[1:]
        res.append(('=' if t == ' ' else t + p) + '|' + txt)
    if i is None:           # binary or mode change only
        continue
    dst = os.path.join(out, f + '.own')
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    open(dst, 'w').write('\n'.join(res) + '\n')
    print(p, f, len(res))
