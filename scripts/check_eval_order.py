#!/usr/bin/env python3
"""Fails when one call is passed two arguments that each build IR.

C++ leaves the order in which a call's arguments are evaluated unspecified:
GCC evaluates them right to left, clang left to right. Where two arguments
each create ops (ir.add(ir.mul(a, b), ir.divU(c, d))), the ops land in the
IR in an order that depends on the host compiler, and so does the PTX (its
register numbering, and lit tests that check op order). Name such values
first, in the order they should appear. Constants (c32, c64, constant) and
lambdas (built later, when called) do not count.

  scripts/check_eval_order.py [FILE...]   (default: every .cpp/.h under lib/ and include/)
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Functions and lambdas of lib/ that return a Value or an op: each call may
# create ops. Names known not to create any are left out.
DEFINES = re.compile(r'auto (\w+) = \[[&=]|^\s*(?:static )?(?:Value|Operation \*) (\w+)\(', re.M)
NOT_CREATING = {'arg', 'tensorScale', 'get', 'value', 'at', 'base', 'empty', 'full'}
CONST = re.compile(r'(?<![\w.])(?:ir\.)?(?:c32|c64|constant)\([^()]*(?:\([^()]*\))?[^()]*\)')
CALL = re.compile(r'\b[\w:.>-]+\s*\(')
SKIP = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'assert'}


def helper_names(files):
    names = set()
    for f in files:
        for m in DEFINES.finditer(f.read_text()):
            names.add(m.group(1) or m.group(2))
    return sorted(names - NOT_CREATING)


def arguments(text, open_paren):
    depth, args, cur = 0, [], []
    for j in range(open_paren, len(text)):
        ch = text[j]
        if ch in '([{':
            depth += 1
            if depth > 1:
                cur.append(ch)
        elif ch in ')]}':
            depth -= 1
            if depth == 0:
                args.append(''.join(cur))
                return args
            cur.append(ch)
        elif ch == ',' and depth == 1:
            args.append(''.join(cur))
            cur = []
        elif depth >= 1:
            cur.append(ch)
    return args


def main():
    files = [pathlib.Path(a) for a in sys.argv[1:]] or sorted(
        p for d in ('lib', 'include') for p in (ROOT / d).rglob('*')
        if p.suffix in ('.cpp', '.h'))
    creates = re.compile(r'(?<![\w.>:])(?:' + '|'.join(helper_names(files)) +
                         r')\(|\b(?:ir|ring|shares)\.\w+\(|::create\(|\.create<')
    found = 0
    for f in files:
        text = re.sub(r'//[^\n]*', lambda m: ' ' * len(m.group()), f.read_text())
        for m in CALL.finditer(text):
            name = m.group().rstrip('( ')
            if name in SKIP:
                continue
            args = arguments(text, m.end() - 1)
            building = [a for a in args
                        if not a.strip().startswith('[') and creates.search(CONST.sub('', a))]
            if len(building) >= 2:
                line = text.count('\n', 0, m.start()) + 1
                rel = f.resolve().relative_to(ROOT) if f.resolve().is_relative_to(ROOT) else f
                print(f'{rel}:{line}: {name}(...) is passed {len(building)} arguments that '
                      'build IR; their order depends on the host compiler: name them first')
                found += 1
    if found:
        print(f'check_eval_order: {found} call(s) found')
        return 1
    print(f'check_eval_order: {len(files)} files, no call builds IR in two arguments')
    return 0


if __name__ == '__main__':
    sys.exit(main())
