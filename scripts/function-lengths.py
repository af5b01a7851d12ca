#!/usr/bin/env python3
"""Lists Swift functions longer than a limit; exits 1 when any is.

    scripts/function-lengths.py [--limit 120] [--report 80] DIR...

A function's length is the lines from its `func`/`init`/`deinit` keyword to its closing brace. The GLES backend
keeps every function within 120 lines (issue #29: a function a newcomer reads in one screen is about 80);
`--report` also prints those over the reading length without failing.
"""
import argparse
import os
import re
import sys

DECL = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|class|'
                  r'final|override|mutating|nonmutating|convenience|required|@inline\(__always\))\s+)*'
                  r'(func\s+[^\s(<]+|init[?!]?|deinit)\b')


def code(line):
    """The line without string literals and `//` comments (enough to count braces in this code base)."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    return line.split('//', 1)[0]


def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    for i, line in enumerate(lines):
        m = DECL.match(line)
        if not m:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            for ch in code(lines[j]):
                if ch == '{':
                    depth += 1
                    opened = True
                elif ch == '}':
                    depth -= 1
            if opened and depth <= 0:
                yield m.group(1), i + 1, j - i + 1
                break
            if not opened and j > i + 20:  # a protocol requirement: no body
                break


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--limit', type=int, default=120)
    ap.add_argument('--report', type=int, default=0)
    ap.add_argument('dirs', nargs='+')
    args = ap.parse_args()
    over = []
    for d in args.dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith('.swift'):
                    p = os.path.join(root, f)
                    for name, line, n in functions(p):
                        if n > args.limit or (args.report and n > args.report):
                            over.append((n, p, line, name))
    failed = False
    for n, p, line, name in sorted(over, reverse=True):
        mark = 'over the limit' if n > args.limit else 'over the reading length'
        failed |= n > args.limit
        print(f'{p}:{line}: {name}: {n} lines ({mark})')
    print(f'function lengths: {"FAILED" if failed else "ok"} (limit {args.limit} lines)')
    return 1 if failed else 0


sys.exit(main())
