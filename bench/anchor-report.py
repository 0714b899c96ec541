#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""anchor-report.py DIR: the series' kernel against Debian's 6.12.

DIR holds ours-N/job.log and 6.12-N/job.log, written by
bench/anchor-bench.sh on each boot.  Prints, for each benchmark line both
kernels gave, the ratio of the medians (ours / 6.12) as NAME.vs_6.12, the
values of every boot and the ratio of each pair of boots (ours-N over
6.12-N, the spread of the line) as comments, and the procmap_query kselftest's
results on each kernel with the cases that fail on 6.12 only."""
import glob
import os
import re
import statistics
import sys

# bench line -> the name of its ratio
LINES = {
    'procmap.query_ns': 'procmap.query_ns.vs_6.12',
    'procmap.exec_list_ns': 'procmap.exec_list.vs_6.12',
    'procmap.build_id_ns': 'procmap.build_id.vs_6.12',
    'procmap.sparse_ns': 'procmap.sparse.vs_6.12',
    # the build-ID part of one bpf_get_stack() call: the same work on both
    'buildid.nofault_ns': 'buildid.nofault.vs_6.12',
    # the whole call, and the same call without build IDs (no code of the
    # series' build-ID parser runs in it: what the two kernels differ by)
    'buildid.nofault_call_ns': 'buildid.nofault_call.vs_6.12',
    'buildid.noid_call_ns': 'buildid.noid_call.vs_6.12',
    'buildid.sleepable_ns': 'buildid.sleepable.vs_6.12',
}


def read(path):
    vals, ksft = {}, {}
    for line in open(path, errors='replace'):
        if 'gave no build ID' in line:
            print('# %s: %s' % (os.path.basename(os.path.dirname(path)),
                                line.strip().lstrip('# ')))
        m = re.match(r'bench (\S+) (\S+)', line)
        if m:
            try:
                vals[m.group(1)] = float(m.group(2))
            except ValueError:
                pass
        m = re.match(r'ksft (ok|not ok) \d+ (.*)', line)
        if m:
            name = m.group(2).strip()
            skip = '# SKIP' in name
            name = name.split(' # ')[0]
            ksft[name] = 'skip' if skip else m.group(1)
    return vals, ksft


def main():
    d = sys.argv[1]
    runs = {'ours': [], '6.12': []}
    for k in runs:
        for log in sorted(glob.glob(os.path.join(d, k + '-*', 'job.log'))):
            runs[k].append(read(log))
    if not runs['ours'] or not runs['6.12']:
        print('# anchor: no runs')
        return 1
    for name, ratio in LINES.items():
        a = [v[name] for v, _ in runs['ours'] if name in v]
        b = [v[name] for v, _ in runs['6.12'] if name in v]
        if not a or not b:
            print('# %s: not measured on %s' % (name, 'ours' if not a else '6.12'))
            continue
        print('# %s: ours %s, 6.12 %s' % (name, ' '.join('%g' % x for x in a),
                                          ' '.join('%g' % x for x in b)))
        if statistics.median(b) <= 0 or min(b) <= 0:
            # a cost measured as a difference can be lost in the noise
            print('# %s: 6.12\'s cost is within the noise of 0: no ratio' % name)
            continue
        pairs = [x / y for x, y in zip(a, b) if y > 0]
        print('# %s: boot pairs (ours-N / 6.12-N) %s' % (
            ratio, ' '.join('%.2f' % r for r in pairs)))
        print('bench %s %.2f x' % (ratio, statistics.median(a) / statistics.median(b)))
    for k in ('ours', '6.12'):
        ksft = runs[k][0][1]
        n = {s: sum(1 for v in ksft.values() if v == s) for s in ('ok', 'not ok', 'skip')}
        print('# procmap_query kselftest on %s: %d passed, %d failed, %d skipped'
              % (k, n['ok'], n['not ok'], n['skip']))
    ours, anchor = runs['ours'][0][1], runs['6.12'][0][1]
    for name, res in sorted(anchor.items()):
        if res == 'not ok' or (res == 'skip' and ours.get(name) == 'ok'):
            print('# procmap_query on 6.12: %s: %s (ours: %s)'
                  % (name, res, ours.get(name, 'absent')))
    failed = sum(1 for v in anchor.values() if v == 'not ok')
    print('bench procmap_query.kselftest_failed_on_6.12 %d cases' % failed)
    return 0


sys.exit(main())
