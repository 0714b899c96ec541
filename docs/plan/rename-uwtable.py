#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rename-uwtable.py TREE: give the unwind table subsystem its one name,
uwtable (docs/DESIGN.md section 2), in a work tree of the series.

Run at the top of the work tree, on the carved tree (docs/plan/carve),
with a clean index.  It moves the files (git mv), renames identifiers,
Kconfig symbols, sysctls, the KUnit suite and paths in every file the
series changed (base code that happens to use the words, arch/arm's and
arch/parisc's own unwind_tables lists, is not touched), and then re-aligns
the continuation lines of calls and declarations whose opening line got
longer or shorter, the way checkpatch --strict wants them.  Lines longer
than 100 columns are listed at the end, for a hand fix.

With --repo DIR it applies the same word renames to the repository's own
files that name the kernel's (configs, tests/suites, scripts, bench,
host, README) instead, without moving anything; docs/ (this script and
the rename tables among it) is left to a hand edit.
"""
import os
import re
import subprocess
import sys

# Renames of whole identifiers: the names that say what a function does
# (DESIGN.md section 2), then the prefixes.  Order matters: the specific
# ones first.
WORDS = [
    ('uwt_without', 'uwtable_remember_none'),
    ('uwt_known_without', 'uwtable_known_none'),
    ('uwt_cached_without', 'uwtable_cached_none'),
    ('uwt_test_cached_without', 'uwtable_test_cached_none'),
    ('uwt_ask', 'uwtable_mark_sampled'),
    ('uwt_catch_up', 'uwtable_load_mappings'),
    ('uwt_fits_now', 'uwtable_budget_fits'),
    ('uwt_account', 'uwtable_charge_owner'),
    ('uwt_test_account', 'uwtable_test_charge_owner'),
    ('uwt_table', 'uwtable'),
    ('UWT_SFRAME', 'UWTABLE_KIND_SFRAME'),
    ('UWT_EHABI', 'UWTABLE_KIND_EHABI'),
    ('uwt', 'uwtable'),
    ('_LINUX_USER_UNWIND_TABLES_H', '_LINUX_UWTABLE_H'),
    ('user_unwind_tables', 'uwtable'),
]
PREFIXES = [
    (r'\buwt_table_', 'uwtable_'),
    (r'\barch_uwt_', 'arch_uwtable_'),
    (r'\b__uwt_', '__uwtable_'),
    (r'\buwt_', 'uwtable_'),
    (r'\bMMF_UWT_', 'MMF_UWTABLE_'),
    (r'\bUWT_', 'UWTABLE_'),
    (r'\b(CONFIG_)?HAVE_USER_UNWIND_TABLES', r'\1HAVE_UWTABLE'),
    (r'\b_KERNEL_UNWIND_TABLES_', '_KERNEL_UWTABLE_'),
    (r'^USER UNWIND TABLES$', 'USER UNWIND TABLES (UWTABLE)'),
    (r'\b(CONFIG_)?USER_UNWIND_TABLES', r'\1UWTABLE'),
    (r'\bsysctl_perf_unwind_tables', 'sysctl_uwtable'),
    (r'\bperf_unwind_tables', 'uwtable'),
    (r'kernel/unwind_tables\b', 'kernel/uwtable'),
    (r'\btables_kunit\.c\b', 'uwtable_kunit.c'),
    (r'\bunwind_tables/', 'uwtable/'),
    (r'"unwind_tables', '"uwtable'),
]
MOVES = [
    ('kernel/unwind_tables/tables_kunit.c', 'kernel/unwind_tables/uwtable_kunit.c'),
    ('kernel/unwind_tables', 'kernel/uwtable'),
    ('include/linux/user_unwind_tables.h', 'include/linux/uwtable.h'),
]
SKIP = ('arch/arm/', 'arch/parisc/')


def rename(text):
    for old, new in WORDS:
        text = re.sub(r'\b%s\b' % re.escape(old), new, text)
    for pat, new in PREFIXES:
        text = re.sub(pat, new, text, flags=re.M)
    return text


def code_only(line, state):
    """The line with comments and literals blanked; state: in a comment."""
    out, i = [], 0
    while i < len(line):
        if state['comment']:
            j = line.find('*/', i)
            if j < 0:
                out.append(' ' * (len(line) - i))
                return ''.join(out)
            out.append(' ' * (j + 2 - i))
            i = j + 2
            state['comment'] = False
            continue
        c = line[i]
        if line.startswith('/*', i):
            state['comment'] = True
            continue
        if line.startswith('//', i):
            out.append(' ' * (len(line) - i))
            break
        if c in '"\'':
            j = i + 1
            while j < len(line) and line[j] != c:
                j += 2 if line[j] == '\\' else 1
            out.append(c + ' ' * (min(j, len(line)) - i - 1) + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)[:len(line)]


def expand(s):
    return s.expandtabs(8)


def indent_of(line):
    return len(expand(line)) - len(expand(line.lstrip(' \t')))


def make_indent(col):
    return '\t' * (col // 8) + ' ' * (col % 8)


def opens(line, state, stack):
    """Push the columns of the '(' of @line that stay open; pop closed."""
    code = code_only(line, state)
    col = 0
    for ch in code:
        if ch == '\t':
            col = (col // 8 + 1) * 8
            continue
        if ch == '(':
            stack.append(col)
        elif ch == ')' and stack:
            stack.pop()
        col += 1


def realign(old_lines, new_lines):
    """New lines whose paren continuations follow their openers."""
    out = []
    so, sn = {'comment': False}, {'comment': False}
    stack_o, stack_n = [], []
    for o, n in zip(old_lines, new_lines):
        if stack_o and stack_n and o.strip() and not so['comment']:
            want_o = stack_o[-1] + 1
            if indent_of(o) == want_o and stack_n[-1] != stack_o[-1]:
                n = make_indent(stack_n[-1] + 1) + n.lstrip(' \t')
        out.append(n)
        opens(o, so, stack_o)
        opens(n, sn, stack_n)
        if not stack_o:
            stack_n.clear()
    return out


def series_files(base):
    out = subprocess.run(['git', 'diff', '--name-only', '--diff-filter=AMR',
                          base, 'HEAD'], capture_output=True, text=True,
                         check=True).stdout.split()
    return [f for f in out if not f.startswith(SKIP)]


def fix_file(path, long_lines):
    with open(path, encoding='utf-8') as f:
        old = f.read()
    new = rename(old)
    if new == old:
        return False
    ol, nl = old.split('\n'), new.split('\n')
    if path.endswith(('.c', '.h')) and len(ol) == len(nl):
        nl = realign(ol, nl)
    for i, line in enumerate(nl):
        if path.endswith(('.c', '.h')) and len(expand(line)) > 100 and \
           len(expand(ol[i] if i < len(ol) else '')) <= 100:
            long_lines.append('%s:%d' % (path, i + 1))
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(nl))
    return True


def main():
    args = sys.argv[1:]
    long_lines = []
    if args[:1] == ['--repo']:
        os.chdir(args[1])
        for top, dirs, files in os.walk('.'):
            # docs/ keeps the old names where it says what they became
            dirs[:] = [d for d in dirs if d not in ('.git', 'build', 'docs',
                                                   'patches', 'records')]
            for name in files:
                path = os.path.join(top, name)
                try:
                    fix_file(path, long_lines)
                except UnicodeDecodeError:
                    pass
        return
    os.chdir(args[0])
    base = subprocess.run(['git', 'rev-list', '--max-parents=0', 'HEAD'],
                          capture_output=True, text=True,
                          check=True).stdout.split()[0]
    for old, new in MOVES:
        subprocess.run(['git', 'mv', old, new], check=True)
    for path in series_files(base):
        for old, new in MOVES:
            if path == old or path.startswith(old + '/'):
                path = new + path[len(old):]
        if os.path.isfile(path):
            fix_file(path, long_lines)
    for line in long_lines:
        print('over 100 columns: ' + line)


if __name__ == '__main__':
    main()
