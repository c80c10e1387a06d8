#!/usr/bin/env python3
"""fold_order.py IN.ptx OUT.ptx: session 45's fold-order probe on a block-scaled kernel's PTX.

The lowering writes a K block's fold as the scale products (mul.rn.f32) interleaved with the 64 accumulator FMAs in
fragment order, so consecutive FMAs alternate between the two rows' scales (s0 s0 s1 s1 ...). This rewrites every
such run (a run of mul.rn.f32 / fma.rn.f32 lines longer than 16) as its muls first, then its FMAs ordered by their
scale operand (stable within a scale): each scale register is then read by 32 FMAs in a row, which lets ptxas mark
its operand reuse and read the register file less (the kernel is power-capped: session 21). The arithmetic is the
same FMAs on the same registers: each accumulator's chain of FMAs keeps its order across K blocks.
"""
import re
import sys

FMA = re.compile(r'\s*fma\.rn\.f32\s+(%r\d+),\s*(%r\d+),\s*(%r\d+),\s*(%r\d+);')
MUL = re.compile(r'\s*mul\.rn\.f32\s+(%r\d+),\s*(%r\d+),\s*(%r\d+);')


def reorder(run):
    muls = [l for l in run if MUL.match(l)]
    fmas = [l for l in run if FMA.match(l)]
    assert len(muls) + len(fmas) == len(run)
    scales = [MUL.match(l).group(1) for l in muls]
    # Every FMA's scale must be one of the run's products, so hoisting the muls changes no value.
    assert all(FMA.match(l).group(3) in scales for l in fmas), 'an FMA scales by a value not made in the run'
    order = {s: i for i, s in enumerate(scales)}
    return muls + sorted(fmas, key=lambda l: order[FMA.match(l).group(3)])


def main(src, dst):
    lines = open(src).read().split('\n')
    out, run, rewritten = [], [], 0
    for l in lines + ['']:
        if FMA.match(l) or MUL.match(l):
            run.append(l)
            continue
        if len(run) > 16:
            out += reorder(run)
            rewritten += 1
        else:
            out += run
        run = []
        out.append(l)
    out.pop()
    if rewritten != 1:
        sys.exit(f'{src}: {rewritten} fold runs (expected 1)')
    open(dst, 'w').write('\n'.join(out))


if __name__ == '__main__':
    main(*sys.argv[1:3])
