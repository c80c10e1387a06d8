#!/usr/bin/env python3
"""Mutation check of the CPU test suite (issue 11): applies one realistic
one-line bug at a time to the lowering, the rules and the model, rebuilds,
runs the lit and unit tests, and reports which bugs a test caught.

  scripts/mutation_check.py [BUILD_DIR]   (run from the repository root;
                                           BUILD_DIR defaults to build)

Each mutation is (file, the exact text, its replacement, what it breaks).
The tree is restored after each one, caught or not.
"""
import os, subprocess, sys, time

MUTATIONS = [
    ("lib/Transforms/GemmcWarpSpecialize.cpp",
     "Value nextK = ir.add(ir.sub(kt, ir.c32(1)), stages);",
     "Value nextK = ir.add(kt, stages);",
     "multistage refill loads K tile kt + stages instead of kt - 1 + stages"),
    ("lib/Transforms/GemmcWarpSpecialize.cpp",
     "/*full_arrivals=*/1,\n                       /*empty_arrivals=*/consumers,",
     "/*full_arrivals=*/consumers,\n                       /*empty_arrivals=*/1,",
     "full and empty barriers' init counts swapped"),
    ("lib/Transforms/GemmcEpilogue.cpp",
     "ldc = ir.zext64(op.getLdc());",
     "ldc = ir.zext64(op.getN());",
     "epilogue's C row stride uses N instead of ldc"),
    ("lib/Transforms/GemmcEpilogue.cpp",
     ": ir.add(op.getM0(), ir.mul(ir.warpgroupId(), ir.c32(warpgroupRows)));",
     ": op.getM0();",
     "a warpgroup's rows lose the per-warpgroup + 64"),
    ("lib/Model/Model.cpp",
     "a.l2Bytes = unique * scale * ratio + cBytes;",
     "a.l2Bytes = unique * scale * ratio;",
     "the model's L2-aware bytes drop C's traffic"),
    ("lib/Transforms/GemmcEpilogue.cpp",
     "ir.cmp(arith::CmpIPredicate::ult, ir.add(col, ir.c32(1)), op.getN())",
     "ir.cmp(arith::CmpIPredicate::ule, ir.add(col, ir.c32(1)), op.getN())",
     "pair-store clip col + 1 < N becomes <="),
    ("lib/Conversion/TmaRingPatterns.cpp",
     "ir.andI(ir.add(ir.divU(g, stages), ir.c32(1)), ir.c32(1))",
     "ir.andI(ir.divU(g, stages), ir.c32(1))",
     "producer's empty-barrier parity loses its + 1"),
    ("lib/Conversion/TmaRing.h",
     "return barrierAt(layout.getBarriers() + isa::kMbarrierBytes * layout.getStages(),",
     "return barrierAt(layout.getBarriers() + isa::kMbarrierBytes * (layout.getStages() - 1),",
     "empty barriers overlap the last full barrier"),
    ("lib/Conversion/Sm90aPatterns.cpp",
     "for (int64_t peer = 0; peer < cluster; ++peer) {",
     "for (int64_t peer = 0; peer < 1; ++peer) {",
     "a cluster release reaches only CTA 0"),
    ("lib/Transforms/GemmcScheduleTiles.cpp",
     "Value first = ir.mul(ir.divU(tile, perGroup), group);",
     "Value first = ir.divU(tile, perGroup);",
     "raster group's first row not scaled by the group size"),
    ("lib/Transforms/GemmcScheduleTiles.cpp",
     "ir.sub(waves, ir.c32(1)), ir.c32(0)));",
     "waves, ir.c32(0)));",
     "stream-K keeps all full waves whole (no wave before the remainder)"),
    ("lib/Transforms/GemmcScheduleTiles.cpp",
     "ValueRange{ir.c32(kStreamKFlagBytes)});",
     "ValueRange{ir.c32(0)});",
     "stream-K partials overwrite the slot's flag line"),
    ("lib/Transforms/GemmcWarpSpecialize.cpp",
     "Value otherTurn = ir.add(ir.c32(kOrderBarrier), ir.sub(ir.c32(1), wg));",
     "Value otherTurn = ir.add(ir.c32(kOrderBarrier), wg);",
     "pingpong hands the turn to itself"),
    ("lib/Conversion/TmaRingPatterns.cpp",
     "int64_t bytes = (s.blockM() * elementBytes(s.a.element) +",
     "int64_t bytes = (s.blockM() * elementBytes(s.a.element) * 2 +",
     "expect_tx counts A twice"),
    ("lib/Dialect/Gemmc/IR/GemmcOps.cpp",
     "/*b_offset=*/res.aStageBytes,",
     "/*b_offset=*/res.bStageBytes,",
     "B placed at B's size instead of after A"),
    ("lib/Transforms/GemmcWarpSpecialize.cpp",
     "ir.c32(warpgroupRows * aRowBytes));",
     "ir.c32(aRowBytes));",
     "a consumer warpgroup's A rows start one row (not 64) further"),
    ("lib/Transforms/GemmcEpilogue.cpp",
     "Value x = ir.add(op.getN0(), ir.c32(chunk * chunkCols));",
     "Value x = ir.c32(chunk * chunkCols);",
     "TMA-store chunk column loses the tile's n0"),
    ("lib/Spec/KernelAbi.cpp",
     "p.box[1] = rows / p.multicast;",
     "p.box[1] = rows;",
     "multicast B box not split between the cluster's CTAs"),
    ("lib/Conversion/Sm90aPatterns.cpp",
     "TileDescriptors tileA(ir, op.getATile(), /*leadingBytes=*/oneUnit, atomBytes, span);",
     "TileDescriptors tileA(ir, op.getATile(), /*leadingBytes=*/oneUnit, atomBytes / 2, span);",
     "A's wgmma descriptor strides 4 rows, not an 8-row atom"),
]

def run(cmd, **kw):
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, **kw)

def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    # --first N / --from N: only the first N mutations (the six
    # come first), or those from the N-th on.
    global MUTATIONS
    if len(sys.argv) > 3 and sys.argv[2] == "--first":
        MUTATIONS = MUTATIONS[:int(sys.argv[3])]
    elif len(sys.argv) > 3 and sys.argv[2] == "--from":
        MUTATIONS = MUTATIONS[int(sys.argv[3]):]
    lit = "/usr/lib/llvm-22/bin/lit"
    caught = 0
    rows = []
    for path, old, new, what in MUTATIONS:
        text = open(path).read()
        if text.count(old) != 1:
            rows.append((what, "NOT APPLIED (text not found once)"))
            print(f"?? {what}: text not found once in {path}", flush=True)
            continue
        open(path, "w").write(text.replace(old, new))
        start = time.time()
        try:
            b = run(f"cmake --build {build} -j2 --target gemmc gemmc-opt gemmc-unittests")
            if b.returncode != 0:
                verdict = "caught (build fails)"
            else:
                # The lit suites that run no ptxas (test/Pipelines does;
                # GEMMC_MUTATION_ALL_LIT=1 runs it too).
                dirs = " ".join(f"{build}/test/{d}" for d in
                                ["Transforms", "Conversion", "Dialect", "Model", "Spec", "Tools"])
                if os.environ.get("GEMMC_MUTATION_ALL_LIT") == "1":
                    dirs = f"{build}/test"
                l = run(f"{lit} -q {dirs}")
                u = run(f"{build}/bin/gemmc-unittests --gtest_brief=1")
                failed = []
                if l.returncode != 0:
                    failed += [x.split("::")[-1].split()[0] for x in l.stdout.splitlines()
                               if x.startswith("FAIL:") or x.strip().startswith("gemmc ::")]
                if u.returncode != 0:
                    failed += [x.split()[-1] for x in u.stdout.splitlines() if "[  FAILED  ]" in x][:3]
                verdict = ("caught by " + ", ".join(sorted(set(failed))[:4])) if failed else "SURVIVED"
        finally:
            open(path, "w").write(text)
        if not verdict.startswith("SURVIVED"):
            caught += 1
        rows.append((what, verdict))
        print(f"{'ok' if verdict != 'SURVIVED' else '!!'} {what}: {verdict} ({time.time() - start:.0f} s)", flush=True)
    run(f"cmake --build {build} -j2 --target gemmc gemmc-opt gemmc-unittests")
    print(f"\n{caught} of {len(MUTATIONS)} mutations caught")
    return 0 if caught == len(MUTATIONS) else 1

if __name__ == "__main__":
    sys.exit(main())
