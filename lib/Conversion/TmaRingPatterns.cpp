//===- TmaRingPatterns.cpp - TMA stage ring and TMA stores ---------------===//
//
// The stage ring's barriers, its TMA fill and the epilogue's TMA stores, as
// sm_90a and sm_100a both lower them (TmaRing.h says how the ring works).
// Moved here from Sm90aPatterns.cpp so that both targets use one copy.
//
//===----------------------------------------------------------------------===//
#include "TmaRing.h"
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Spec/KernelAbi.h"

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// gemmc.ring_init -> mbarrier.init of each stage's full and empty barrier,
/// then fence.mbarrier_init (the TMA unit and the cluster's peers see them).
struct RingInitLowering : OpRewritePattern<RingInitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RingInitOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    for (int64_t st = 0; st < op.getSmemLayout().getStages(); ++st) {
      NVVM::MBarrierInitOp::create(rewriter, op.getLoc(), ring.full(ir.c32(st)),
                                   ir.c32(op.getFullArrivals()), /*predicate=*/Value());
      NVVM::MBarrierInitOp::create(rewriter, op.getLoc(), ring.empty(ir.c32(st)),
                                   ir.c32(op.getEmptyArrivals()), /*predicate=*/Value());
    }
    NVVM::FenceMbarrierInitOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.stage_acquire -> (from the ring's second round) mbarrier
/// try_wait.parity on the stage's empty barrier.
struct StageAcquireLowering : OpRewritePattern<StageAcquireOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageAcquireOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value g = op.getLoad();
    Value stages = ir.c32(op.getSmemLayout().getStages());
    Value stage = ring.stageOf(g);
    // The ring's first round finds every stage free.
    ir.ifThen(ir.cmp(arith::CmpIPredicate::uge, g, stages), [&] {
      Value parity = ir.andI(ir.add(ir.divU(g, stages), ir.c32(1)), ir.c32(1));
      ring.waitParity(ring.empty(stage), parity);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// The CTAs that share this CTA's A (alongM false: its cluster row, ranks
/// m + CX x j) or B (alongM true: its cluster column, ranks n x CX + i), as
/// the i16 multicast mask of cp.async.bulk.tensor: a constant where the
/// cluster is one row or one column, else shifted by the coordinate.
Value multicastMask(KernelIR &ir, const KernelSpec &s, bool alongM,
                    const ClusterCoords &at) {
  int64_t cx = s.clusterShape[0], cy = s.clusterShape[1];
  int64_t bits = 0;
  if (alongM)
    bits = (int64_t(1) << cx) - 1;
  else
    for (int64_t j = 0; j < cy; ++j)
      bits |= int64_t(1) << (j * cx);
  Value shift = alongM ? (at.n ? ir.mul(at.n, ir.c32(cx)) : Value()) : at.m;
  if (!shift)
    return arith::ConstantIntOp::create(ir.b, ir.loc, ir.b.getI16Type(), bits);
  Value wide = arith::ShLIOp::create(ir.b, ir.loc, ir.c32(bits), shift);
  return arith::TruncIOp::create(ir.b, ir.loc, ir.b.getI16Type(), wide);
}

/// The IR of one gemmc.stage_fill, in the order the pattern emits it: the
/// barrier armed with the stage's bytes, then A's loads, then B's.
class StageFill {
public:
  StageFill(StageFillOp op, const KernelSpec &s, const KernelAbi &abi, KernelIR &ir)
      : op(op), s(s), abi(abi), ir(ir),
        ring(ir, op.getSmem(), op.getSmemLayout()), pair(mmaCtaGroup(s)) {
    stage = ring.stageOf(op.getLoad());
    full = ring.full(stage);
  }

  /// mbarrier.arrive.expect_tx of the bytes TMA delivers: whole boxes, their
  /// parts out of bounds zero-filled; with A in boxes (a_box_rows), those of
  /// A that start inside M. A CTA of an sm_100a pair (mmaCtaGroup 2) loads
  /// its half of B only. The second part of a fill split in two
  /// (activations_only) arms nothing.
  void arm() {
    if (abi.a.rowBoxes > 1) {
      // Box j holds rows m0 + j x R and is loaded while they start inside M.
      int64_t r = abi.a.box[1];
      rowsInside = arith::SubIOp::create(ir.b, ir.loc, op.getM(), op.getM0());
      Value started = arith::DivSIOp::create(ir.b, ir.loc, ir.add(rowsInside, ir.c32(r - 1)),
                                             ir.c32(r));
      aBoxes = arith::MinSIOp::create(ir.b, ir.loc, started, ir.c32(abi.a.rowBoxes));
    }
    if (op.getActivationsOnly())
      return;
    Value bytes = ir.c32(aBytes() + bBytes());
    if (aBoxes)
      bytes = ir.add(ir.mul(aBoxes, ir.c32(aBytes() / abi.a.rowBoxes)), ir.c32(bBytes()));
    NVVM::MBarrierArriveExpectTxOp::create(ir.b, ir.loc, /*res=*/Type(), full, bytes,
                                           NVVM::MemScopeKind::CTA,
                                           /*relaxed=*/false, /*predicate=*/Value());
  }

  /// The loads of A and B into the stage (a fill split in two loads one of
  /// them in each part). A cluster along N (clusterShape [CX, CY], CY > 1)
  /// shares A and a cluster of CX > 1 along M shares B, each with multicast
  /// (KernelAbi's plans): this CTA loads one part of each shared operand
  /// into the CTAs that share it. Clusters along N only; [2, 1] builds B's
  /// as before.
  void load() {
    base = ring.base(stage);
    k0 = ir.mul(op.getKTile(), ir.c32(s.blockK()));
    if (s.clusterShape[1] > 1)
      at = clusterCoords(ir, s);
    if (s.swapAb ? !op.getActivationsOnly() : !op.getWeightsOnly())
      loadA();
    if (s.swapAb ? !op.getWeightsOnly() : !op.getActivationsOnly())
      loadB();
  }

private:
  int64_t aBytes() const { return s.blockM() * elementBytes(s.a.element) * s.blockK(); }
  int64_t bBytes() const {
    return s.blockN() * elementBytes(s.b.element) / pair * s.blockK();
  }

  /// One TMA load of `tmap`'s box at (x, y) into dst, onto the stage's full
  /// barrier. The instruction writes a shared::cluster address; a CTA's own
  /// shared memory lies in its cluster's window.
  void copy(Value tmap, Value dst, Value x, Value y, Value mask, Value predicate = Value()) {
    dst = LLVM::AddrSpaceCastOp::create(ir.b, ir.loc, ir.sharedClusterPtr, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        ir.b, ir.loc, dst, tmap, ValueRange{x, y}, full,
        /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/mask,
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        /*group=*/nullptr, predicate);
  }

  /// A K-major operand: one box {BLOCK_K, rows} at (k0, row), or, when its
  /// tile comes in slabs along K (unswizzled: one 16-byte unit each), slab
  /// j's box at (k0 + j x box width, row), slabBytes further on.
  void copyKMajor(const TensorMapPlan &plan, Value tmap, Value dst, Value row, Value mask) {
    copy(tmap, dst, k0, row, mask);
    for (int64_t slab = 1; slab < plan.loadsPerStage; ++slab) {
      Value k = ir.add(k0, ir.c32(slab * plan.box[0]));
      copy(tmap, ir.sharedAt(dst, slab * plan.slabBytes), k, row, mask);
    }
  }

  void loadA() {
    Value m0 = op.getM0();
    if (abi.a.multicast > 1) {
      // A shared along the cluster row (K-major, as sm_90a's row-major A):
      // this CTA, column n of its cluster, loads rows [n x part, (n + 1) x
      // part) of each slab's box into the same place in every CTA of the
      // row.
      Value mask = multicastMask(ir, s, /*alongM=*/false, at);
      Value row = ir.add(m0, ir.mul(at.n, ir.c32(abi.a.box[1])));
      Value dst = ir.sharedAt(base, ir.mul(at.n, ir.c32(abi.a.slabBytes / abi.a.multicast)));
      for (int64_t slab = 0; slab < abi.a.loadsPerStage; ++slab) {
        Value k = slab ? ir.add(k0, ir.c32(slab * abi.a.box[0])) : k0;
        copy(op.getA(), slab ? ir.sharedAt(dst, slab * abi.a.slabBytes) : dst, k, row, mask);
      }
    } else if (aBoxes) {
      // One slab (checkABoxRows): box j lands R tile rows further on, a
      // whole number of swizzle atoms, so the tile's layout is unchanged.
      // The rows of a box not loaded keep an earlier tile's data: they
      // feed only accumulator rows past M, which no store writes.
      int64_t r = abi.a.box[1];
      for (int64_t j = 0; j < abi.a.rowBoxes; ++j) {
        Value inside = j == 0 ? Value()
                              : arith::CmpIOp::create(ir.b, ir.loc, arith::CmpIPredicate::sgt,
                                                      rowsInside, ir.c32(j * r));
        Value dst = ir.sharedAt(base, j * (aBytes() / abi.a.rowBoxes));
        Value row = ir.add(m0, ir.c32(j * r));
        copy(op.getA(), dst, k0, row, /*mask=*/Value(), inside);
      }
    } else {
      copyKMajor(abi.a, op.getA(), base, m0, /*mask=*/Value());
    }
  }

  void loadB() {
    Value n0 = op.getN0();
    Value bBase = ir.sharedAt(base, op.getSmemLayout().getBOffset());
    // With multicast this CTA loads part `rank` of B into every CTA.
    Value mask, rank;
    if (abi.b.multicast > 1 && pair == 1 && s.clusterShape[1] > 1) {
      // The CTAs of this CTA's cluster column (ranks n x CX + i).
      mask = multicastMask(ir, s, /*alongM=*/true, at);
      rank = at.m;
      bBase = ir.sharedAt(bBase, ir.mul(rank, ir.c32(abi.b.partBytes)));
    } else if (abi.b.multicast > 1 && pair == 1) {
      mask = arith::ConstantIntOp::create(ir.b, ir.loc, ir.b.getI16Type(),
                                          (1 << abi.b.multicast) - 1);
      rank = NVVM::ClusterId::create(ir.b, ir.loc, ir.i32);
      bBase = ir.sharedAt(bBase, ir.mul(rank, ir.c32(abi.b.partBytes)));
    } else if (abi.b.multicast > 1) {
      // A pair's CTA loads part `rank` of B into its own B tile, where the
      // leader's MMAs read it as the rows rank x part of the pair's B.
      rank = NVVM::ClusterId::create(ir.b, ir.loc, ir.i32);
    }
    if (abi.b.kMajor) {
      Value n = rank ? ir.add(n0, ir.mul(rank, ir.c32(abi.b.box[1]))) : n0;
      copyKMajor(abi.b, op.getB(), bBase, n, mask);
      return;
    }
    // N-major B comes in slabs one swizzle span of N wide.
    Value firstSlab = rank ? ir.mul(rank, ir.c32(abi.b.loadsPerStage)) : ir.c32(0);
    for (int64_t slab = 0; slab < abi.b.loadsPerStage; ++slab) {
      Value column = ir.mul(ir.add(firstSlab, ir.c32(slab)), ir.c32(abi.b.box[0]));
      Value n = ir.add(n0, column);
      copy(op.getB(), ir.sharedAt(bBase, slab * abi.b.slabBytes), n, k0, mask);
    }
  }

  StageFillOp op;
  const KernelSpec &s;
  const KernelAbi &abi;
  KernelIR &ir;
  Ring ring;
  int64_t pair;
  Value stage, full, base, k0, rowsInside, aBoxes;
  ClusterCoords at;
};

/// gemmc.stage_fill -> mbarrier.arrive.expect_tx of the stage's bytes and
/// the TMA loads of A and B (B multicast in a cluster). weights_only: the
/// arrive and the weights' loads (B; A under swap_ab); activations_only:
/// the other operand's loads, on the barrier the first part armed.
struct StageFillLowering : OpRewritePattern<StageFillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageFillOp op, PatternRewriter &rewriter) const override {
    FailureOr<KernelSpec> spec =
        specFromSchedule(op.getSchedule(), [&] { return op.emitOpError(); });
    if (failed(spec))
      return rewriter.notifyMatchFailure(op, "the schedule is not a valid spec");
    const KernelSpec &s = *spec;
    if (s.mainloop.load != LoadKind::Tma)
      return rewriter.notifyMatchFailure(op, "the ring fills stages with TMA only");
    const KernelAbi &abi = op.getSchedule().getAbi();
    if (abi.a.multicast > 1 && !abi.a.kMajor)
      return rewriter.notifyMatchFailure(
          op, "an M-major A shared along N is not built (sm_90a's A is row-major)");
    if (abi.a.rowBoxes > 1 && !op.getM())
      return rewriter.notifyMatchFailure(op, "A in boxes needs clip(m, n, k) to skip those past M");
    KernelIR ir(rewriter, op.getLoc());
    StageFill fill(op, s, abi, ir);
    fill.arm();
    fill.load();
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.stage_wait -> mbarrier try_wait.parity on the stage's full barrier.
struct StageWaitLowering : OpRewritePattern<StageWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageWaitOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value g = op.getLoad();
    Value stage = ring.stageOf(g);
    Value parity = ring.fullParity(g);
    ring.waitParity(ring.full(stage), parity);
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.stage_ready -> mbarrier.test_wait.parity on the stage's full
/// barrier (the test alone: no loop, no suspend).
struct StageReadyLowering : OpRewritePattern<StageReadyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageReadyOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value g = op.getLoad();
    Value stage = ring.stageOf(g);
    Value parity = ring.fullParity(g);
    Value barrier = ring.full(stage);
    Value address = LLVM::PtrToIntOp::create(rewriter, op.getLoc(), ir.i32, barrier);
    Value landed =
        LLVM::InlineAsmOp::create(
            rewriter, op.getLoc(), ir.i32, ValueRange{address, parity},
            "{\n.reg .pred p;\nmbarrier.test_wait.parity.shared::cta.b64 p, [$1], $2;\n"
            "selp.u32 $0, 1, 0, p;\n}",
            "=r,r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
            LLVM::TailCallKind::None, /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr)
            .getResult(0);
    rewriter.replaceOp(op, ir.cmp(arith::CmpIPredicate::ne, landed, ir.c32(0)));
    return success();
  }
};

/// gemmc.stage_base -> the stage's address.
struct StageBaseLowering : OpRewritePattern<StageBaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageBaseOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    rewriter.replaceOp(op, ring.base(ring.stageOf(op.getLoad())));
    return success();
  }
};

/// gemmc.store_tile -> cp.async.bulk.tensor (shared -> global) + commit.
struct StoreTileLowering : OpRewritePattern<StoreTileOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreTileOp op, PatternRewriter &rewriter) const override {
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, op.getLoc(), op.getTmapC(), op.getBuffer(),
        ValueRange{op.getX(), op.getY()}, /*l2CacheHint=*/Value(),
        NVVM::TMAStoreMode::TILE, /*predicate=*/Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.store_drain -> cp.async.bulk.wait_group(.read).
struct StoreDrainLowering : OpRewritePattern<StoreDrainOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreDrainOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(
        op, op.getPending(), op.getRead() ? rewriter.getUnitAttr() : nullptr);
    return success();
  }
};

/// gemmc.shared_fence -> fence.proxy.async.shared::cta (generic-proxy
/// writes become visible to TMA).
struct SharedFenceLowering : OpRewritePattern<SharedFenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SharedFenceOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::FenceProxyOp>(
        op, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(rewriter.getContext(), NVVM::SharedSpace::shared_cta));
    return success();
  }
};

} // namespace

void mlir::gemmc::populateTmaRingPatterns(RewritePatternSet &patterns) {
  patterns.add<RingInitLowering,     // gemmc.ring_init
               StageAcquireLowering, // gemmc.stage_acquire
               StageFillLowering,    // gemmc.stage_fill
               StageWaitLowering,    // gemmc.stage_wait
               StageReadyLowering,   // gemmc.stage_ready
               StageBaseLowering,    // gemmc.stage_base
               StoreTileLowering,    // gemmc.store_tile
               StoreDrainLowering,   // gemmc.store_drain
               SharedFenceLowering>( // gemmc.shared_fence
      patterns.getContext());
}
