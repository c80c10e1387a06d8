//===- Sm90aBlockScalePatterns.cpp - Block-scaled FP8 folds on sm_90a -----===//
//
// Block scaling (`scale: block`, DeepSeek-V3's 1x128 A and 128x128 B scales)
// on sm_90a: after each K tile's wgmmas complete, the consumer adds their
// accumulator into the f32 sum times A's scale of the register's row and
// B's of its column block (gemmc.mma_fold), with the tile's scales loaded
// one tile ahead (gemmc.block_scales). Both walk the wgmma accumulator
// fragment (Isa.h's kWgmmaAccumulator, through the target's description):
// a thread holds `halves` rows of its warpgroup's 64, and its registers'
// columns are constants of the unrolled register index.
//
// With mainloop.stage_scales the producer warp copies each K tile's scales
// into the stage's slot of shared memory (gemmc.stage_scales: cp.async, an
// arrival on the stage's full barrier when they land) and the consumers
// read theirs there after the stage's wait (gemmc.staged_scales).
//
// The scales' memory layouts are cuBLASLt's (BlockScales.h, docs/abi.md).
//
//===----------------------------------------------------------------------===//
#include "BlockScales.h"
#include "TmaRing.h"
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// The row of this thread within its warpgroup's accumulator fragment (its
/// first row half). One op per statement throughout: the IR's order must
/// not depend on the compiler's order of evaluating arguments.
Value fragmentRow(KernelIR &ir, const AccumulatorLayout &frag) {
  Value tid = ir.threadId();
  Value warpInCta = ir.divU(tid, ir.c32(kWarpSize));
  Value warp = ir.remU(warpInCta, ir.c32(kWarpgroupSize / kWarpSize));
  Value lane = ir.remU(tid, ir.c32(kWarpSize));
  Value warpRow = ir.mul(warp, ir.c32(frag.warpRows));
  return ir.add(warpRow, ir.divU(lane, ir.c32(frag.lanesPerRow)));
}

/// gemmc.block_scales -> the thread's A scales (one per fragment row half)
/// and the tile's B scales (one per slot of scaleSlotColumns columns),
/// invariant loads.
struct BlockScalesLowering : OpRewritePattern<BlockScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BlockScalesOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    const AccumulatorLayout &frag = isaFor(s.arch).mma.accumulator;
    int64_t slots = scaleSlots(s), slotColumns = scaleSlotColumns(s);
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getType());
    if (!type || int64_t(type.getBody().size()) != frag.halves + slots)
      return rewriter.notifyMatchFailure(
          op, "the result is not one f32 per fragment row and B scale slot");
    KernelIR ir(rewriter, op.getLoc());
    Value m = op.getM(), kt = op.getKTile();
    Value laneRow = fragmentRow(ir, frag);
    Value rowBase = ir.add(op.getRow0(), laneRow);
    Value lastRow = ir.sub(m, ir.c32(1));
    Value kt64 = ir.zext64(kt);
    Value m64 = ir.zext64(m);
    Value aPlane = arith::MulIOp::create(rewriter, op.getLoc(), kt64, m64);
    Value result = LLVM::PoisonOp::create(rewriter, op.getLoc(), type);
    int64_t field = 0;
    for (int64_t h = 0; h < frag.halves; ++h) {
      Value row = ir.add(rowBase, ir.c32(h * frag.halfRows));
      Value index = aScaleIndex(ir, aPlane, row, lastRow);
      Value scale = loadScale(ir, op.getScaleA(), index);
      result = LLVM::InsertValueOp::create(rewriter, op.getLoc(), result,
                                           scale, field++);
    }
    // B: K-major, the K-block count rounded up to kScaleBlockKAlign.
    Value bStride64 = bScaleStride(ir, op.getK());
    Value lastBlock = lastScaleBlock(ir, op.getN());
    Value firstBlock = ir.divU(op.getN0(), ir.c32(kScaleBlock));
    for (int64_t j = 0; j < slots; ++j) {
      Value block = scaleSlotBlock(ir, op.getN0(), firstBlock, j * slotColumns);
      Value index = bScaleIndex(ir, block, lastBlock, bStride64, kt64);
      Value scale = loadScale(ir, op.getScaleB(), index);
      result = LLVM::InsertValueOp::create(rewriter, op.getLoc(), result,
                                           scale, field++);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gemmc.stage_scales -> lane l copies A's scales of tile rows l, l + 32,
/// ... and, if l < scaleSlots, B's of slot l, each with a 4-byte cp.async,
/// then cp.async.mbarrier.arrive on the stage's full barrier (which counts
/// one pending arrival when issued and arrives when the lane's copies have
/// landed) and bar.warp.sync.
struct StageScalesLowering : OpRewritePattern<StageScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageScalesOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    Location loc = op.getLoc();
    KernelIR ir(rewriter, loc);
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value stage = ring.stageOf(op.getLoad());
    Value slot = ring.scaleSlot(stage, scaleSlotBytes(s));
    Value lane = ir.remU(ir.threadId(), ir.c32(kWarpSize));
    Value kt64 = ir.zext64(op.getKTile());
    Value m64 = ir.zext64(op.getM());
    Value aPlane = arith::MulIOp::create(rewriter, loc, kt64, m64);
    Value lastRow = ir.sub(op.getM(), ir.c32(1));
    auto copy = [&](Value base, Value index, Value slotIndex) {
      Value from = LLVM::GEPOp::create(ir.b, loc, ir.globalPtr, ir.f32, base,
                                       ValueRange{index});
      Value to = ir.sharedAt(slot, ir.mul(slotIndex, ir.c32(4)));
      NVVM::CpAsyncOp::create(
          ir.b, loc, to, from, ir.b.getI32IntegerAttr(4),
          NVVM::LoadCacheModifierKindAttr::get(rewriter.getContext(),
                                               NVVM::LoadCacheModifierKind::CA),
          Value());
    };
    for (int64_t i = 0; i < s.blockM(); i += kWarpSize) {
      Value row = ir.add(lane, ir.c32(i));
      Value index = aScaleIndex(ir, aPlane, ir.add(op.getM0(), row), lastRow);
      copy(op.getScaleA(), index, row);
    }
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, lane, ir.c32(scaleSlots(s))), [&] {
      // Slot l starts at column l x scaleSlotColumns of the tile.
      Value column = ir.add(op.getN0(), ir.mul(lane, ir.c32(scaleSlotColumns(s))));
      Value block = ir.divU(column, ir.c32(kScaleBlock));
      Value lastBlock = lastScaleBlock(ir, op.getN());
      Value bStride64 = bScaleStride(ir, op.getK());
      Value index = bScaleIndex(ir, block, lastBlock, bStride64, kt64);
      copy(op.getScaleB(), index, ir.add(lane, ir.c32(s.blockM())));
    });
    // Without .noinc each lane adds one to the phase's pending count as it
    // issues and takes it back when its copies land, so the full barrier
    // keeps its one expected arrival (the fill's). compute-sanitizer
    // synccheck (CUDA 13.0) reports that arrival as "Barrier overflow" on
    // every stage_scales kernel, persistent or stream_k; the .noinc form
    // with the barrier counting 1 + 32 arrivals runs synccheck-clean and
    // passes the same suite, but measured 0.4-0.75% slower on the shipped
    // 128x256 and 192x128 kernels (three processes: bench/RESULTS.md,
    // session 19, rounds o4-o5), so this form stays.
    NVVM::CpAsyncMBarrierArriveOp::create(ir.b, loc, ring.full(stage), /*noinc=*/false);
    // Every lane's pending arrival is counted before the fill's arrival.
    NVVM::SyncWarpOp::create(ir.b, loc, ir.c32(-1));
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.staged_scales -> the thread's scales (gemmc.block_scales's struct)
/// read from the stage's slot: A's of its fragment rows, B's slots.
struct StagedScalesLowering : OpRewritePattern<StagedScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StagedScalesOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    const AccumulatorLayout &frag = isaFor(s.arch).mma.accumulator;
    int64_t slots = scaleSlots(s);
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getType());
    if (!type || int64_t(type.getBody().size()) != frag.halves + slots)
      return rewriter.notifyMatchFailure(
          op, "the result is not one f32 per fragment row and B scale slot");
    Location loc = op.getLoc();
    KernelIR ir(rewriter, loc);
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value slot = ring.scaleSlot(ring.stageOf(op.getLoad()), scaleSlotBytes(s));
    Value row = ir.add(op.getRow(), fragmentRow(ir, frag));
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    auto read = [&](Value index) {
      Value at = ir.sharedAt(slot, ir.mul(index, ir.c32(4)));
      return LLVM::LoadOp::create(ir.b, loc, ir.f32, at, /*alignment=*/4).getResult();
    };
    int64_t field = 0;
    for (int64_t h = 0; h < frag.halves; ++h) {
      Value scale = read(ir.add(row, ir.c32(h * frag.halfRows)));
      result = LLVM::InsertValueOp::create(rewriter, loc, result, scale, field++);
    }
    for (int64_t j = 0; j < slots; ++j) {
      Value scale = read(ir.c32(s.blockM() + j));
      result = LLVM::InsertValueOp::create(rewriter, loc, result, scale, field++);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gemmc.mma_fold -> per register, sum = fma(part, sa[row half] x
/// sb[column slot], sum); the halves x slots factors are multiplied once.
/// With `column`, part's register r is the sum's register column / (the
/// fragment's columns per value block) x values per block + r.
struct MmaFoldLowering : OpRewritePattern<MmaFoldOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaFoldOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    const AccumulatorLayout &frag = isaFor(s.arch).mma.accumulator;
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getPart().getType());
    if (!type || !llvm::isa<LLVM::LLVMStructType>(op.getSum().getType()))
      return rewriter.notifyMatchFailure(op, "the accumulator is not a struct");
    int64_t column = op.getColumn().value_or(0);
    if (column % frag.blockColumns != 0)
      return rewriter.notifyMatchFailure(op, "the part starts inside a value block");
    int64_t first = column / frag.blockColumns * frag.valuesPerBlock();
    Location loc = op.getLoc();
    int64_t blocks = scaleSlots(s), slotColumns = scaleSlotColumns(s);
    auto scale = [&](int64_t field) {
      return LLVM::ExtractValueOp::create(rewriter, loc, op.getScales(), field)
          .getResult();
    };
    SmallVector<Value> factors(frag.halves * blocks);
    auto factor = [&](int64_t h, int64_t j) {
      Value &f = factors[h * blocks + j];
      if (!f) {
        // One statement per op: their order must not depend on the
        // compiler's order of evaluating arguments.
        Value a = scale(h);
        Value b = scale(frag.halves + j);
        f = LLVM::FMulOp::create(rewriter, loc, a, b);
      }
      return f;
    };
    Value sum = op.getSum();
    for (int64_t r = 0, e = type.getBody().size(); r < e; ++r) {
      int64_t h = frag.valueRow(r) / std::max(1, frag.halfRows);
      int64_t j = std::min<int64_t>(
          (column + frag.valueColumn(r)) / slotColumns, blocks - 1);
      Value x = LLVM::ExtractValueOp::create(rewriter, loc, sum, first + r);
      Value y = LLVM::ExtractValueOp::create(rewriter, loc, op.getPart(), r);
      Value f = factor(h, j);
      Value folded = LLVM::FMAOp::create(rewriter, loc, y, f, x);
      sum = LLVM::InsertValueOp::create(rewriter, loc, sum, folded, first + r);
    }
    rewriter.replaceOp(op, sum);
    return success();
  }
};

} // namespace

void mlir::gemmc::populateSm90aBlockScalePatterns(RewritePatternSet &patterns) {
  patterns.add<BlockScalesLowering, StageScalesLowering, StagedScalesLowering,
               MmaFoldLowering>(patterns.getContext());
}
