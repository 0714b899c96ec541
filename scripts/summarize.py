#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarize one guest run: one line per expected suite, in the form

    ARCH/SUITE: N passed, N failed, N skipped

The KTAP/TAP is parsed with the KUnit tool's parser (kunit_parser.py,
from the directory --kunit-tool names: lib.sh's kunit_tool, the pinned
base's with the series' fixes, whatever tree is under test), from the
console log for KUnit suites and from the files the guest job (or a host
suite) wrote for the others.  A suite that is expected but produced no
results counts as one failure.
"""

import argparse
import os
import sys


def load_parser(tool, log):
    """Import kunit_parser from TOOL; its report goes to LOG."""
    sys.path.insert(0, tool)
    # pylint: disable=import-outside-toplevel
    import kunit_parser
    import kunit_printer
    # The parser prints through the module-level Printer it imported;
    # give it one of its own kind that writes to our log.
    kunit_parser.stdout = kunit_printer.Printer(log)
    return kunit_parser


def parse(kp, path):
    """Parse a KTAP/TAP file; return the top-level Test, or None."""
    if not os.path.exists(path):
        return None
    with open(path, errors='replace') as f:
        lines = f.read().splitlines(keepends=True)
    return kp.parse_run_tests(lines)


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
    ap.add_argument('--out', required=True,
                    help='output directory (console.log, results/SUITE.tap)')
    ap.add_argument('--kunit-tool', required=True,
                    help='directory of kunit_parser.py')
    ap.add_argument('--suites', required=True, help='suite manifest')
    args = ap.parse_args()

    log = open(os.path.join(args.out, 'parse.log'), 'w')
    kp = load_parser(args.kunit_tool, log)
    console = None
    for line in open(args.suites):
        line = line.split('#', 1)[0].split()
        if not line or line[0] != args.arch:
            continue
        _, suite, kind, what = line[:4]
        note = ''
        if kind == 'kunit':
            if console is None:
                console = parse(kp, os.path.join(args.out, 'console.log'))
            test = find(console, what) if console else None
        else:
            test = parse(kp, os.path.join(args.out, 'results', suite + '.tap'))
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
