#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize one guest run: one line per expected suite, in the form

    ARCH/SUITE: N passed, N failed, N skipped

The KTAP/TAP is parsed with the kernel tree's own KUnit parser
(tools/testing/kunit/kunit_parser.py), from the console log for KUnit
suites and from the files the guest job wrote for kselftests.  A suite
that is expected but produced no results counts as one failure.
"""

import argparse
import contextlib
import io
import os
import sys


def load_parser(tree):
    sys.path.insert(0, os.path.join(tree, 'tools/testing/kunit'))
    import kunit_parser  # pylint: disable=import-outside-toplevel
    return kunit_parser


def parse(kp, path, log):
    """Parse a KTAP/TAP file; return the top-level Test, or None."""
    if not os.path.exists(path):
        return None
    with open(path, errors='replace') as f:
        lines = f.read().splitlines(keepends=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        kp.stdout._output = out  # the parser prints through its own Printer
        test = kp.parse_run_tests(lines)
    log.write(out.getvalue())
    return test


def counts(test):
    """passed, failed, skipped of the leaf tests below TEST."""
    c = test.counts
    failed = c.failed + c.crashed + c.errors
    return c.passed, failed, c.skipped


def find(test, name):
    for sub in test.subtests:
        if sub.name == name:
            return sub
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--arch', required=True)
    ap.add_argument('--out', required=True, help='guest output directory')
    ap.add_argument('--tree', required=True, help='kernel source tree')
    ap.add_argument('--suites', required=True, help='suite manifest')
    args = ap.parse_args()

    kp = load_parser(args.tree)
    log = open(os.path.join(args.out, 'parse.log'), 'w')
    console = None
    for line in open(args.suites):
        line = line.split('#', 1)[0].split()
        if not line or line[0] != args.arch:
            continue
        _, suite, kind, what = line[:4]
        note = ''
        if kind == 'kunit':
            if console is None:
                console = parse(kp, os.path.join(args.out, 'console.log'), log)
            test = find(console, what) if console else None
        else:
            test = parse(kp, os.path.join(args.out, 'results', suite + '.tap'), log)
            if test is not None and test.name == '<missing>':
                test = None
        if test is None:
            p, f, s = 0, 1, 0
            note = '  (no results: not run, or the guest crashed)'
        else:
            p, f, s = counts(test)
            if p + f + s == 0:
                f = 1
                note = '  (no test ran)'
        # test.sh's job leaves SUITE.timeout when it stopped the suite.
        stopped = os.path.join(args.out, 'results', suite + '.timeout')
        if kind != 'kunit' and os.path.exists(stopped):
            with open(stopped) as t:
                limit = t.read().strip()
            if test is not None:
                f += 1
            note = f'  (stopped after {limit} s: hung or too slow)'
        print(f'{args.arch}/{suite}: {p} passed, {f} failed, {s} skipped{note}')


if __name__ == '__main__':
    main()
