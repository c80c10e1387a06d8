#!/usr/bin/env python3
"""Round-1 prototypes (branch fp8m, issue 14): hand-made edits of the PTX that
main's gemmc emits for the per-row/column 128x128 pingpong kernel (no cluster,
group 8: bench/results/2026-12-01-session10/lead-l3/specs/lt_pp_g8.yaml), to
time candidate K-loop and tile-switch orders before building them into the
lowering. Each edit asserts the exact PTX it expects (main at d1ac101), so a
changed lowering fails loudly instead of producing a wrong variant.

  ptx_variants.py BASE.ptx OUTDIR   -> OUTDIR/{a,ab,d,abd}.ptx

a:  the K tile's row block 0 (4 wgmma) committed as its own group, then
    wgmma.wait_group 1 (waits for the K tile before only), that tile's stage
    released, then row block 1 and its commit: cuBLASLt OUTER_VEC's order,
    without an uncommitted group (fp8k's fa51f3b left row block 0 uncommitted
    and waited with wait_group 0: ptxas waited for row block 0 too).
ab: a, plus the next K tile's full barrier tested (mbarrier.test_wait, not
    blocking) between the release and row block 1; the loop's blocking wait is
    skipped when that test saw the stage landed (CUTLASS's consumer_try_wait).
d:  the tile switch: the tile's origin (two integer divisions) computed before
    the turn's named-barrier wait; the 128 accumulator zeroing moves only on
    the no-K-tile path; the first k step's wgmma of each row block takes
    scale-d = (K tile != 0), so the first K tile overwrites the accumulators.
abd: all three.
"""
import re, sys

RB0, RB1 = "{%r1651,", "{%r1715,"


def blocks(lines):
    """Split into ('asm', [lines]) / ('line', line) items."""
    out, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "// begin inline asm":
            j = i
            while lines[j].strip() != "// end inline asm":
                j += 1
            out.append(("asm", lines[i:j + 1]))
            i = j + 1
        else:
            out.append(("line", lines[i]))
            i += 1
    return out


def idx(lines, text, start=0):
    for i in range(start, len(lines)):
        if lines[i].strip() == text:
            return i
    raise SystemExit(f"not found: {text!r}")


def loop_region(L):
    top = idx(L, "$L__BB0_19:")
    fence = idx(L, "wgmma.fence.sync.aligned;", top)
    commit = idx(L, "wgmma.commit_group.sync.aligned;", fence)
    assert L[commit + 1].strip() == "wgmma.wait_group.sync.aligned \t1;", L[commit + 1]
    end = idx(L, "bra.uni \t$L__BB0_21;", commit)
    assert L[end + 1].strip() == "$L__BB0_22:"
    return top, fence, commit, end


def edit_a(L, probe):
    top, fence, commit, end = loop_region(L)
    items = blocks(L[fence + 1:commit])
    calc = [x for k, x in items if k == "line"]
    asm = [x for k, x in items if k == "asm"]
    rb0 = [a for a in asm if any(RB0 in l for l in a)]
    rb1 = [a for a in asm if any(RB1 in l for l in a)]
    assert len(rb0) == 4 and len(rb1) == 4 and len(asm) == 8
    rel = [l.strip() for l in L[commit + 2:end]]
    assert rel[0] == "setp.eq.b32 \t%p9, %r1779, 0;" and rel[2] == "@%p10 bra \t$L__BB0_21;", rel
    assert rel[-1].startswith("mbarrier.arrive.shared.b64")
    new = [L[fence]] + calc
    for a in rb0:
        new += a
    new += ["\twgmma.commit_group.sync.aligned;", "\twgmma.wait_group.sync.aligned \t1;"]
    # The release of the K tile before, as predicated code (no branch
    # between the two row blocks).
    new += ["\t" + rel[0], "\t" + rel[1]] + ["\t" + l for l in rel[3:-1]]
    new += ["\t@!%p10 " + rel[-1]]
    if probe:
        # The next K tile's stage: load number %r299 + 1; stage = n % 6,
        # phase = (n / 6) & 1, its full barrier at 229376 + 8 stage.
        new += ["\tadd.s32 \t%rq0, %r299, 1;",
                "\tmul.hi.u32 \t%rq1, %rq0, -1431655765;",
                "\tshr.u32 \t%rq2, %rq1, 2;",
                "\tmul.lo.s32 \t%rq3, %rq2, 6;",
                "\tsub.s32 \t%rq4, %rq0, %rq3;",
                "\tand.b32 \t%rq5, %rq2, 1;",
                "\tshl.b32 \t%rq6, %rq4, 3;",
                "\tcvt.u64.u32 \t%rdq0, %rq6;",
                "\tadd.s64 \t%rdq1, %rd4, %rdq0;",
                "\tmbarrier.test_wait.parity.shared.b64 \t%pready, [%rdq1+229376], %rq5;"]
    for a in rb1:
        new += a
    new += ["\twgmma.commit_group.sync.aligned;", "\tbra.uni \t$L__BB0_21;"]
    L[fence:end + 1] = new
    if probe:
        # Declarations, the flag cleared before each tile's loop, and the
        # blocking wait skipped when the test saw the stage landed.
        d = idx(L, ".reg .b64 \t%rd<886>;")
        L[d + 1:d + 1] = ["\t.reg .pred \t%pready;", "\t.reg .b32 \t%rq<8>;", "\t.reg .b64 \t%rdq<2>;"]
        top = idx(L, "$L__BB0_19:")
        pre = top - 1
        while L[pre].strip() != "bra.uni \t$L__BB0_19;":
            pre -= 1
        assert top - pre < 10
        L[pre:pre] = ["\tsetp.ne.b32 \t%pready, 0, 0;"]
        top = idx(L, "$L__BB0_19:")
        w = idx(L, "// begin inline asm", top)
        assert "mbarrier.try_wait.parity" in L[w + 4], L[w + 4]
        we = idx(L, "// end inline asm", w)
        L[we + 1:we + 1] = ["$L__PREADY:"]
        L[w:w] = ["\t@%pready bra \t$L__PREADY;"]
        # The loop's back edge also comes from the block before the top,
        # which increments the counters; the flag survives it.
    return L


def is_acc_zero(l):
    """A `mov.b32 %rN, ...` of accumulator registers %r1651..%r1778."""
    m = re.match(r"\tmov\.b32 \t%r(\d+), ", l)
    return bool(m) and 1651 <= int(m.group(1)) <= 1778


def edit_d(L):
    # 1. The tile origin before the turn wait.
    b16 = idx(L, "$L__BB0_16:")
    assert L[b16 - 1].strip() == "bar.sync \t%r17, 256;" and L[b16 - 2].strip() == "@%p6 bra \t$L__BB0_16;"
    mad = L[b16 + 1]
    assert mad.strip().startswith("mad.lo.s32 \t%r29,")
    assert L[b16 + 3].strip() == "@%p7 bra \t$L__BB0_294;"
    j = b16 + 4
    origin = []
    while not L[j].strip().startswith("mov.b32 \t%r1651,"):
        origin.append(L[j])
        j += 1
    assert len(origin) == 8, origin
    zero1 = j
    del L[b16 + 4:zero1]
    del L[b16 + 1]
    L[b16 - 2:b16 - 2] = [mad] + origin
    # 3. scale-d = (K tile != 0) on each row block's first k step.
    top, fence, commit, end = loop_region(L)
    seen = set()
    for i in range(fence, end):
        if L[i].startswith("wgmma.mma_async"):
            rb = RB0 if RB0 in L[i] else RB1
            if rb not in seen:
                seen.add(rb)
                assert L[i - 1] == "setp.ne.b32 p, 1, 0;", L[i - 1]
                L[i - 1] = "setp.ne.b32 p, %r1779, 0;"
    assert len(seen) == 2
    # 2. The zeroing only on the no-K-tile path.
    z = next(i for i, l in enumerate(L) if l.strip().startswith("mov.b32 \t%r1651, 0f00000000"))
    p8 = idx(L, "@%p8 bra \t$L__BB0_22;", z)
    zeros = L[z:p8]
    assert len(zeros) == 128 and all(is_acc_zero(l) for l in zeros)
    del L[z:p8]
    p8 = idx(L, "@%p8 bra \t$L__BB0_22;", z)
    k = p8 + 1
    kept = []
    while not L[k].strip().startswith("bra.uni \t$L__BB0_19;"):
        if not is_acc_zero(L[k]):
            kept.append(L[k])
        k += 1
    assert [l.split()[1] for l in kept][:3] == ["%r1779,", "%r1649,", "%r1650,"], kept
    L[p8 + 1:k] = kept
    # Predicated, after the tile's last wgmma wait: a zeroing in a block of
    # its own that joins the loop's exit sits, for ptxas, inside the MMAs'
    # pipeline stage (C7515, serialized wgmmas).
    b22 = idx(L, "$L__BB0_22:")
    w0 = idx(L, "wgmma.wait_group.sync.aligned \t0;", b22)
    assert w0 - b22 < 8
    L[w0 + 1:w0 + 1] = ["\t@%p8 " + l.strip() for l in zeros]
    return L


def main():
    base, out = sys.argv[1], sys.argv[2]
    L = open(base).read().split("\n")
    for name, fn in [("a", lambda x: edit_a(x, False)), ("ab", lambda x: edit_a(x, True)),
                     ("d", edit_d), ("abd", lambda x: edit_d(edit_a(x, True)))]:
        open(f"{out}/{name}.ptx", "w").write("\n".join(fn(list(L))))


if __name__ == "__main__":
    main()
