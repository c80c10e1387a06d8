//===- TmaRing.h - The TMA + mbarrier stage ring, shared by sm_90a/sm_100a ===//
//
// sm_90a and sm_100a fill their stages the same way: one thread arms the
// stage's full mbarrier with the bytes it expects and issues the TMA loads
// of A and B (B multicast in a cluster); consumers wait on full, producers
// on empty, with the parities of the load number g:
//
//   full[s]  completes when the TMA bytes of stage s have landed (one
//            producer arrival + the transaction count);
//   empty[s] completes when the stage's consumers have released it (how
//            they release it is the target's: an mbarrier arrival per
//            wgmma warpgroup on sm_90a, tcgen05.commit on sm_100a).
//
// Load g goes to stage g % stages, waits for the release of load g - stages
// (empty parity (g / stages + 1) & 1) and is consumed with full parity
// (g / stages) & 1. The barriers lie at the layout's `barriers` offset: the
// stages' full barriers, then their empty barriers. The epilogue's TMA
// stores (store_tile, store_drain, shared_fence) are shared as well.
//
// A K-major tile that comes in slabs (sm_100a unswizzled: one 16-byte unit
// of K a slab) takes one TMA load a slab. A CTA of an sm_100a pair
// (mmaCtaGroup 2) loads its half of B into its own B tile, not multicast.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_LIB_CONVERSION_TMARING_H
#define GEMMC_LIB_CONVERSION_TMARING_H

#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gemmc {

/// The stage ring's addresses, from the op's #gemmc.smem_layout.
struct Ring {
  Ring(KernelIR &ir, Value smem, SmemLayoutAttr layout)
      : ir(ir), smem(smem), layout(layout) {}
  Value stageOf(Value g) { return ir.remU(g, ir.c32(layout.getStages())); }
  /// The phase a consumer waits for on load g's full barrier: the stage's
  /// (g / stages)-th filling, parity (g / stages) & 1.
  Value fullParity(Value g) { return ir.andI(ir.divU(g, ir.c32(layout.getStages())), ir.c32(1)); }
  Value barrierAt(int64_t first, Value stage) {
    return ir.sharedAt(smem, ir.add(ir.c32(first),
                                    ir.mul(stage, ir.c32(isa::kMbarrierBytes))));
  }
  Value full(Value stage) { return barrierAt(layout.getBarriers(), stage); }
  Value empty(Value stage) {
    return barrierAt(layout.getBarriers() + isa::kMbarrierBytes * layout.getStages(),
                     stage);
  }
  /// mainloop.stage_scales: the stage's slot of `slotBytes` bytes of block
  /// scales; the stages' slots end where the barriers start.
  Value scaleSlot(Value stage, int64_t slotBytes) {
    int64_t first = layout.getBarriers() - slotBytes * layout.getStages();
    Value offset = ir.mul(stage, ir.c32(slotBytes));
    return ir.sharedAt(smem, ir.add(offset, ir.c32(first)));
  }
  Value base(Value stage) {
    return ir.sharedAt(smem, ir.mul(stage, ir.c32(layout.getStageBytes())));
  }
  void waitParity(Value barrier, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(ir.b, ir.loc, barrier, parity,
                                          ir.c32(kMbarrierWaitHintNs));
  }
  KernelIR &ir;
  Value smem;
  SmemLayoutAttr layout;
};

/// ring_init, stage_acquire, stage_fill (TMA), stage_wait, stage_base, and
/// the TMA-store ops store_tile, store_drain, shared_fence. The target adds
/// its stage_release and its MMA.
void populateTmaRingPatterns(RewritePatternSet &patterns);

} // namespace mlir::gemmc

#endif // GEMMC_LIB_CONVERSION_TMARING_H
