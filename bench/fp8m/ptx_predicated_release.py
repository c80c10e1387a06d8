#!/usr/bin/env python3
"""Round-3 prototype (branch fp8m): in the pingpong BLOCK_M = 128 K loop of
this branch's lowering, the release between the two row blocks is a branch
around the leader thread's mbarrier.arrive (the warp diverges and reconverges
right before row block 1's wgmmas); cuBLASLt OUTER_VEC predicates the
arrive instead (`@P1 SYNCS.ARRIVE`), as round 1's hand-made prototypes did.
This edit makes that one release predicated:

  wgmma.wait_group 1; @%pN bra L; <address>; mbarrier.arrive [..]; bra.uni L
  -> wgmma.wait_group 1; <address>; @!%pN mbarrier.arrive [..]; bra.uni L

    ptx_predicated_release.py IN.ptx OUT.ptx
"""
import re, sys

L = open(sys.argv[1]).read().split("\n")
done = 0
for i in range(len(L) - 12):
    if L[i].strip() != "wgmma.wait_group.sync.aligned \t1;":
        continue
    m = re.match(r"\t@(%p\d+) bra \t(\$L__BB0_\d+);$", L[i + 1])
    assert m, L[i + 1]
    pred, label = m.groups()
    j = i + 2
    while not L[j].strip().startswith("mbarrier.arrive.shared.b64"):
        assert "bra" not in L[j] and "wgmma" not in L[j], L[j]
        j += 1
    assert L[j + 1].strip() == f"bra.uni \t{label};", L[j + 1]
    L[j] = f"\t@!{pred} " + L[j].strip()
    del L[i + 1]
    done += 1
assert done == 1, done
open(sys.argv[2], "w").write("\n".join(L))
