//===- Sm100aPatterns.cpp - Instruction selection for sm_100a ------------===//
//
// The B200 path. Stages are filled as on sm_90a (TMA into swizzled shared
// memory, or unswizzled 16-byte slabs of K; mbarriers: TmaRingPatterns.cpp);
// what is sm_100a's own:
//
//   - gemmc.mma_issue: one thread issues tcgen05.mma into the accumulator
//     in tensor memory, BLOCK_K / k instructions a stage, with the
//     shared-memory matrix descriptors of each swizzle's K-major layout and
//     the instruction descriptor of Isa.h (tcgen05_desc, tcgen05_idesc);
//   - gemmc.stage_release: tcgen05.commit to the stage's empty barrier, so
//     the completion of the MMAs that read the stage releases it;
//   - the accumulator ring: gemmc.acc_ready commits to a buffer's full
//     barrier, gemmc.acc_release arrives on its empty barrier (every
//     epilogue thread), with tcgen05.fence around the thread syncs;
//   - tensor memory: tcgen05.alloc / relinquish_alloc_permit / dealloc by
//     one warp, tcgen05.ld .32x32b (32 columns, then tcgen05.wait::ld);
//
//   - block scaling (gemmc.acc_fold_scales, gemmc.acc_fold): the epilogue
//     warpgroup folds each K tile's partial into the f32 sum in tensor
//     memory with the tile's block scales (their layouts: BlockScales.h).
//
//   - a CTA pair (cta_group::2, lib/Target's mmaCtaGroup): the leader's
//     thread issues M = 256 MMAs over both CTAs' shared memory and commits
//     to both CTAs' barriers (multicast mask 0b11); the second CTA forwards
//     the landing of its loads to the leader's full barriers
//     (gemmc.stage_forward) and its epilogue releases the leader's
//     accumulator buffers; both CTAs allocate and free together.
//
//   - a 2x2 multicast cluster (cta_group::1, seed 004's step 6): the shared
//     TMA fill multicasts A along cluster rows and B along columns; each
//     CTA's MMA thread releases a stage in all four CTAs (commit, mask
//     0b1111).
//
//   - a [1, 2] multicast cluster the same way (A shared along N, mask 0b11).
//
// Not built (checkLoweringSupport refuses them, lib/Target/Sm100a.cpp):
// other clusters, N-major operands. The
// epilogue's TMA stores are the shared ones (store_tile, store_drain,
// shared_fence).
//
//===----------------------------------------------------------------------===//
#include "BlockScales.h"
#include "TmaRing.h"
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Spec/KernelAbi.h"

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// Tensor memory's address space in LLVM's NVPTX target.
constexpr unsigned kTensorSpace = 6;

Value tmemPointer(KernelIR &ir, Value address) {
  auto type = LLVM::LLVMPointerType::get(ir.b.getContext(), kTensorSpace);
  return LLVM::IntToPtrOp::create(ir.b, ir.loc, type, address);
}

void tcgen05Fence(KernelIR &ir, NVVM::Tcgen05FenceKind kind) {
  NVVM::Tcgen05FenceOp::create(
      ir.b, ir.loc, NVVM::Tcgen05FenceKindAttr::get(ir.b.getContext(), kind));
}

/// tcgen05's .cta_group of `ctas` CTAs: 1, or 2 for a CTA pair. One kernel
/// uses one of them throughout (ptxas refuses a mix).
FailureOr<NVVM::CTAGroupKindAttr> ctaGroup(MLIRContext *ctx, int64_t ctas) {
  if (ctas != 1 && ctas != 2)
    return failure();
  return NVVM::CTAGroupKindAttr::get(
      ctx, ctas == 1 ? NVVM::CTAGroupKind::CTA_1 : NVVM::CTAGroupKind::CTA_2);
}

/// tcgen05.commit: `barrier` gets one arrival when every tcgen05 operation
/// this thread has issued so far is done. A pair's leader commits to the
/// barrier at the same offset in both CTAs (.multicast::cluster, mask 0b11).
void commit(KernelIR &ir, Value barrier, NVVM::CTAGroupKindAttr group) {
  Value mask;
  if (group.getValue() == NVVM::CTAGroupKind::CTA_2)
    mask = arith::ConstantIntOp::create(ir.b, ir.loc, ir.b.getI16Type(), 0b11);
  NVVM::Tcgen05CommitOp::create(ir.b, ir.loc, barrier, mask, group);
}

/// A multicast cluster of `ctas` CTAs that are not a pair (seed 004's 2x2
/// step 6, or [1, 2]: cta_group::1, every CTA's producer writes into its
/// cluster row's or column's stages): each CTA's MMA thread commits to the stage's
/// empty barrier in every CTA of the cluster (mask of all of them), so a
/// producer that waits on its own empty barrier knows every CTA it writes
/// into has released the stage (as sm_90a's release, one arrival each).
void commitToCluster(KernelIR &ir, Value barrier, int64_t ctas) {
  Value mask = arith::ConstantIntOp::create(ir.b, ir.loc, ir.b.getI16Type(),
                                            (int64_t(1) << ctas) - 1);
  NVVM::Tcgen05CommitOp::create(
      ir.b, ir.loc, barrier, mask,
      NVVM::CTAGroupKindAttr::get(ir.b.getContext(), NVVM::CTAGroupKind::CTA_1));
}

/// One arrival, at cluster scope (ordering what this thread has seen before
/// it), on the barrier at `barrier`'s offset in the pair's leader (cluster
/// rank 0).
void arriveOnLeader(KernelIR &ir, Value barrier) {
  Value leader = NVVM::MapaOp::create(ir.b, ir.loc, ir.sharedClusterPtr, barrier, ir.c32(0));
  NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), leader, /*count=*/Value(),
                                 NVVM::MemScopeKind::CLUSTER);
}

/// Replaces `op` (a ring op on `smem` with `layout`) by a tcgen05.commit of
/// `ctas` CTAs on the barrier `which` picks from the ring for `index`.
LogicalResult commitInPlaceOf(Operation *op, PatternRewriter &rewriter, Value smem,
                              SmemLayoutAttr layout, Value index, int64_t ctas,
                              function_ref<Value(Ring &, Value)> which) {
  auto group = ctaGroup(rewriter.getContext(), ctas);
  if (failed(group))
    return rewriter.notifyMatchFailure(op, "a CTA pair at most (clusters are built as "
                                           "pairs only on sm_100a)");
  KernelIR ir(rewriter, op->getLoc());
  Ring ring(ir, smem, layout);
  commit(ir, which(ring, ring.stageOf(index)), *group);
  rewriter.eraseOp(op);
  return success();
}

/// gemmc.stage_release -> tcgen05.commit on the stage's empty barrier: the
/// MMAs that read the stage release it when they complete. A CTA pair's
/// leader (ctas = 2) releases the stage of both CTAs; in another multicast
/// cluster each CTA's MMA thread releases the stage in all of them.
struct StageReleaseLowering : OpRewritePattern<StageReleaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageReleaseOp op, PatternRewriter &rewriter) const override {
    // A cluster whose CTAs are not a pair is a cta_group::1 multicast
    // cluster ([1, 2] or [2, 2]: lib/Target/Sm100a.cpp).
    int64_t ctas = op.getCtas().value_or(1);
    if (op.getClusterSize() > 1 && ctas == 1) {
      KernelIR ir(rewriter, op.getLoc());
      Ring ring(ir, op.getSmem(), op.getSmemLayout());
      commitToCluster(ir, ring.empty(ring.stageOf(op.getLoad())), op.getClusterSize());
      rewriter.eraseOp(op);
      return success();
    }
    return commitInPlaceOf(op, rewriter, op.getSmem(), op.getSmemLayout(), op.getLoad(),
                           ctas, [](Ring &ring, Value stage) { return ring.empty(stage); });
  }
};

/// gemmc.acc_ready -> tcgen05.commit on the accumulator buffer's full
/// barrier (of both CTAs of a pair).
struct AccReadyLowering : OpRewritePattern<AccReadyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccReadyOp op, PatternRewriter &rewriter) const override {
    return commitInPlaceOf(op, rewriter, op.getSmem(), op.getSmemLayout(), op.getTile(),
                           op.getCtas(),
                           [](Ring &accs, Value buffer) { return accs.full(buffer); });
  }
};

/// gemmc.acc_release -> tcgen05.fence::before_thread_sync (this thread's
/// tcgen05.ld are ordered before the arrival) + mbarrier.arrive on the
/// buffer's empty barrier; in a pair, on the leader's (mapa to rank 0, at
/// cluster scope), where both CTAs' epilogue threads arrive.
struct AccReleaseLowering : OpRewritePattern<AccReleaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccReleaseOp op, PatternRewriter &rewriter) const override {
    if (failed(ctaGroup(rewriter.getContext(), op.getCtas())))
      return rewriter.notifyMatchFailure(op, "ctas is 1 or 2");
    KernelIR ir(rewriter, op.getLoc());
    Ring accs(ir, op.getSmem(), op.getSmemLayout());
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    Value empty = accs.empty(accs.stageOf(op.getTile()));
    if (op.getCtas() == 1)
      NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), empty,
                                     /*count=*/Value());
    else
      arriveOnLeader(ir, empty);
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.stage_forward -> mbarrier.arrive at cluster scope on the leader's
/// full barrier of the stage (mapa to rank 0).
struct StageForwardLowering : OpRewritePattern<StageForwardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageForwardOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    arriveOnLeader(ir, ring.full(ring.stageOf(op.getLoad())));
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.acc_alloc -> tcgen05.alloc (the base address goes to `slot`),
/// tcgen05.relinquish_alloc_permit, tcgen05.fence::before_thread_sync; a
/// pair's two warps (one a CTA) allocate together with .cta_group::2.
struct AccAllocLowering : OpRewritePattern<AccAllocOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccAllocOp op, PatternRewriter &rewriter) const override {
    auto group = ctaGroup(rewriter.getContext(), op.getCtas());
    if (failed(group))
      return rewriter.notifyMatchFailure(op, "ctas is 1 or 2");
    KernelIR ir(rewriter, op.getLoc());
    NVVM::Tcgen05AllocOp::create(rewriter, op.getLoc(), op.getSlot(),
                                 ir.c32(op.getColumns()), *group);
    NVVM::Tcgen05RelinquishAllocPermitOp::create(rewriter, op.getLoc(), *group);
    // The allocation is ordered before the CTA barrier that publishes it.
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.acc_base -> tcgen05.fence::after_thread_sync (after the CTA
/// barrier that follows tcgen05.alloc) and a load of the slot it wrote.
struct AccBaseLowering : OpRewritePattern<AccBaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccBaseOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, rewriter.getI32Type(), op.getSlot(),
                                              /*alignment=*/4);
    return success();
  }
};

/// gemmc.acc_free -> tcgen05.fence::after_thread_sync (after the CTA
/// barrier that follows the last tcgen05.ld) + tcgen05.dealloc.
struct AccFreeLowering : OpRewritePattern<AccFreeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccFreeOp op, PatternRewriter &rewriter) const override {
    auto group = ctaGroup(rewriter.getContext(), op.getCtas());
    if (failed(group))
      return rewriter.notifyMatchFailure(op, "ctas is 1 or 2");
    KernelIR ir(rewriter, op.getLoc());
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    NVVM::Tcgen05DeallocOp::create(rewriter, op.getLoc(), tmemPointer(ir, op.getBase()),
                                   ir.c32(op.getColumns()), *group);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The quarter of tensor memory's lanes the calling warp reaches: warp % 4
/// (its rows 32 (warp % 4) .. + 31 of the tile).
Value warpQuarter(KernelIR &ir) {
  int64_t quarters = isa::kTmemLanes / isa::kTmemWarpLanes;
  return ir.remU(ir.divU(ir.threadId(), ir.c32(kWarpSize)), ir.c32(quarters));
}

/// The tensor-memory lane offset of the calling warp's 32 rows (lanes 32
/// (warp % 4) ..), for tcgen05.ld and tcgen05.st.
Value warpLanes(KernelIR &ir) {
  return ir.mul(warpQuarter(ir), ir.c32(isa::kTmemWarpLanes << isa::kTmemLaneShift));
}

/// tcgen05.ld .32x32b.x`count` of the warp's rows from `at` (a column
/// address plus warpLanes), not waited for: `count` raw 32-bit values.
Value tmemLoad(KernelIR &ir, Value at, int64_t count) {
  MLIRContext *ctx = ir.b.getContext();
  return NVVM::Tcgen05LdOp::create(
      ir.b, ir.loc, VectorType::get({count}, ir.i32), /*pack=*/nullptr,
      NVVM::Tcgen05LdStShapeAttr::get(ctx, NVVM::Tcgen05LdStShape::SHAPE_32X32B),
      tmemPointer(ir, at), /*offset=*/Value());
}

/// tcgen05.st .32x32b of the f32 vector `values` to the warp's rows from
/// column address `acc`, not waited for.
void tmemStore(KernelIR &ir, Value acc, Value values) {
  MLIRContext *ctx = ir.b.getContext();
  auto type = cast<VectorType>(values.getType());
  Value lanes = warpLanes(ir);
  Value bits = LLVM::BitcastOp::create(
      ir.b, ir.loc, VectorType::get({type.getNumElements()}, ir.i32), values);
  NVVM::Tcgen05StOp::create(
      ir.b, ir.loc, /*unpack=*/nullptr,
      NVVM::Tcgen05LdStShapeAttr::get(ctx, NVVM::Tcgen05LdStShape::SHAPE_32X32B),
      tmemPointer(ir, ir.add(acc, lanes)), bits, /*offset=*/Value());
}

/// tcgen05.wait::ld or ::st: this thread's earlier loads (stores) are done.
void tmemWait(KernelIR &ir, NVVM::Tcgen05WaitKind kind) {
  NVVM::Tcgen05WaitOp::create(ir.b, ir.loc,
                              NVVM::Tcgen05WaitKindAttr::get(ir.b.getContext(), kind));
}

/// gemmc.acc_load -> tcgen05.fence::after_thread_sync, tcgen05.ld
/// .32x32b.x`count` at the warp's lanes (32 (warp % 4), in the address's
/// lane field), tcgen05.wait::ld, and the values as f32.
struct AccLoadLowering : OpRewritePattern<AccLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccLoadOp op, PatternRewriter &rewriter) const override {
    auto result = dyn_cast<VectorType>(op.getType());
    int64_t count = static_cast<int64_t>(op.getCount());
    if (!result || result.getNumElements() != count ||
        !result.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "acc_load gives a vector of `count` f32");
    KernelIR ir(rewriter, op.getLoc());
    Value lanes = warpLanes(ir);
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value bits = tmemLoad(ir, ir.add(op.getAcc(), lanes), count);
    tmemWait(ir, NVVM::Tcgen05WaitKind::LOAD);
    rewriter.replaceOpWithNewOp<LLVM::BitcastOp>(op, result, bits);
    return success();
  }
};

/// gemmc.acc_store: tcgen05.st .32x32b of the warp's rows, then
/// tcgen05.wait::st so that a later tcgen05.ld of the thread sees it.
struct AccStoreLowering : OpRewritePattern<AccStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccStoreOp op, PatternRewriter &rewriter) const override {
    auto values = dyn_cast<VectorType>(op.getValues().getType());
    if (!values || !values.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "acc_store takes a vector of f32");
    KernelIR ir(rewriter, op.getLoc());
    tmemStore(ir, op.getAcc(), op.getValues());
    tmemWait(ir, NVVM::Tcgen05WaitKind::STORE);
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.acc_fold_scales -> the thread's A scale (its row) and each B scale
/// slot's scale, invariant loads, multiplied: one f32 a slot.
struct AccFoldScalesLowering : OpRewritePattern<AccFoldScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccFoldScalesOp op, PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    int64_t slots = scaleSlots(s), slotColumns = scaleSlotColumns(s);
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getType());
    if (!type || int64_t(type.getBody().size()) != slots)
      return rewriter.notifyMatchFailure(op, "the result is not one f32 per B scale slot");
    KernelIR ir(rewriter, op.getLoc());
    Location loc = op.getLoc();
    // This thread's row: lane l of warp w holds row 32 (w % 4) + l.
    Value quarter = warpQuarter(ir);
    Value lane = ir.remU(ir.threadId(), ir.c32(kWarpSize));
    Value quarterRow = ir.mul(quarter, ir.c32(isa::kTmemWarpLanes));
    Value rowInTile = ir.add(quarterRow, lane);
    Value row = ir.add(op.getM0(), rowInTile);
    Value kt64 = ir.zext64(op.getKTile());
    Value m64 = ir.zext64(op.getM());
    Value aPlane = arith::MulIOp::create(rewriter, loc, kt64, m64);
    Value lastRow = ir.sub(op.getM(), ir.c32(1));
    Value sa = loadScale(ir, op.getScaleA(), aScaleIndex(ir, aPlane, row, lastRow));
    Value bStride64 = bScaleStride(ir, op.getK());
    Value lastBlock = lastScaleBlock(ir, op.getN());
    Value firstBlock = ir.divU(op.getN0(), ir.c32(kScaleBlock));
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    for (int64_t j = 0; j < slots; ++j) {
      Value block = scaleSlotBlock(ir, op.getN0(), firstBlock, j * slotColumns);
      Value index = bScaleIndex(ir, block, lastBlock, bStride64, kt64);
      Value sb = loadScale(ir, op.getScaleB(), index);
      Value f = LLVM::FMulOp::create(rewriter, loc, sa, sb);
      result = LLVM::InsertValueOp::create(rewriter, loc, result, f, j);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// gemmc.acc_fold -> for each chunk of the tile's columns (32, or the
/// largest power of two that divides a narrower BLOCK_N, so that no chunk
/// crosses a scale slot): tcgen05.ld of the partial's and the sum's chunk
/// (not the sum's with `first`), one wait::ld, per value
/// sum = fma(part, factor, sum) (first: part x factor), tcgen05.st of the
/// chunk; one wait::st after the last.
struct AccFoldLowering : OpRewritePattern<AccFoldOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AccFoldOp op, PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    int64_t columns = s.blockN();
    int64_t width = std::min<int64_t>(kWarpSize, columns & -columns);
    int64_t slotColumns = scaleSlotColumns(s);
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getFactors().getType());
    if (!type || int64_t(type.getBody().size()) != scaleSlots(s))
      return rewriter.notifyMatchFailure(op, "the factors are not one f32 per B scale slot");
    if (slotColumns % width != 0)
      return rewriter.notifyMatchFailure(op, "a chunk would cross a scale slot");
    KernelIR ir(rewriter, op.getLoc());
    Location loc = op.getLoc();
    Value lanes = warpLanes(ir);
    SmallVector<Value> factors;
    for (int64_t j = 0, e = scaleSlots(s); j < e; ++j)
      factors.push_back(LLVM::ExtractValueOp::create(rewriter, loc, op.getFactors(), j));
    auto chunkType = VectorType::get({width}, ir.f32);
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    for (int64_t offset = 0; offset < columns; offset += width) {
      Value f = factors[offset / slotColumns];
      Value partAt = ir.add(op.getPart(), ir.c32(offset));
      Value sumAt = ir.add(op.getSum(), ir.c32(offset));
      Value partBits = tmemLoad(ir, ir.add(partAt, lanes), width);
      Value sumBits = op.getFirst() ? Value() : tmemLoad(ir, ir.add(sumAt, lanes), width);
      tmemWait(ir, NVVM::Tcgen05WaitKind::LOAD);
      Value part = LLVM::BitcastOp::create(rewriter, loc, chunkType, partBits);
      Value sum = sumBits ? LLVM::BitcastOp::create(rewriter, loc, chunkType, sumBits).getResult()
                          : Value();
      Value folded = LLVM::PoisonOp::create(rewriter, loc, chunkType);
      for (int64_t i = 0; i < width; ++i) {
        Value at = ir.c32(i);
        Value p = LLVM::ExtractElementOp::create(rewriter, loc, part, at);
        Value v;
        if (sum) {
          Value old = LLVM::ExtractElementOp::create(rewriter, loc, sum, at);
          v = LLVM::FMAOp::create(rewriter, loc, p, f, old);
        } else {
          v = LLVM::FMulOp::create(rewriter, loc, p, f);
        }
        folded = LLVM::InsertElementOp::create(rewriter, loc, folded, v, at);
      }
      tmemStore(ir, sumAt, folded);
    }
    tmemWait(ir, NVVM::Tcgen05WaitKind::STORE);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tcgen05.mma's kind on A of `a` and B of `b`, and their types in the
/// instruction descriptor.
struct MmaKind {
  NVVM::Tcgen05MMAKind kind;
  uint32_t aType, bType;
};

/// The kind of tcgen05.mma on f16, bf16 or tf32 operands (both the same), or
/// on any pair of e4m3 and e5m2 (kind::f8f6f4, each operand its own format);
/// nothing for the others.
std::optional<MmaKind> mmaKind(ElementType a, ElementType b) {
  namespace id = isa::tcgen05_idesc;
  auto fp8 = [](ElementType type) -> std::optional<uint32_t> {
    if (type == ElementType::E4M3)
      return id::kTypeE4M3;
    if (type == ElementType::E5M2)
      return id::kTypeE5M2;
    return std::nullopt;
  };
  if (auto fa = fp8(a), fb = fp8(b); fa && fb)
    return MmaKind{NVVM::Tcgen05MMAKind::F8F6F4, *fa, *fb};
  if (a != b)
    return std::nullopt;
  switch (a) {
  case ElementType::F16:
    return MmaKind{NVVM::Tcgen05MMAKind::F16, id::kTypeF16, id::kTypeF16};
  case ElementType::BF16:
    return MmaKind{NVVM::Tcgen05MMAKind::F16, id::kTypeBF16, id::kTypeBF16};
  case ElementType::TF32:
    return MmaKind{NVVM::Tcgen05MMAKind::TF32, id::kTypeTF32, id::kTypeTF32};
  default:
    return std::nullopt;
  }
}

/// gemmc.mma_issue -> tcgen05.fence::after_thread_sync, then BLOCK_K / k
/// tcgen05.mma.cta_group::1 on K-major, 128-byte-swizzled A and B tiles
/// (k = 32 bytes of K: 16 f16/bf16, 8 tf32, 32 e4m3/e5m2).
/// The first instruction takes `accumulate` as enable_input_d, the others
/// accumulate.
struct MmaIssueLowering : OpRewritePattern<MmaIssueOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaIssueOp op, PatternRewriter &rewriter) const override {
    FailureOr<KernelSpec> spec =
        specFromSchedule(op.getSchedule(), [&] { return op.emitOpError(); });
    if (failed(spec))
      return rewriter.notifyMatchFailure(op, "the schedule is not a valid spec");
    const KernelSpec &s = *spec;
    auto instr = mmaInstrShape(s.arch, s.a.element);
    auto kind = mmaKind(s.a.element, s.b.element);
    if (!instr || instr->family != MmaFamily::Tcgen05 || !kind)
      return rewriter.notifyMatchFailure(
          op, "tcgen05.mma on f16, bf16, tf32 (A and B alike) or e4m3/e5m2 only");
    KernelAbi abi = describeKernelAbi(s);
    if (!abi.a.kMajor || !abi.b.kMajor)
      return rewriter.notifyMatchFailure(op, "K-major A and B only");
    // A pair's leader issues the MMAs of both CTAs' rows: M = 2 x BLOCK_M,
    // A's and B's halves at the same shared addresses in each CTA, each
    // CTA's rows of D in its own tensor memory.
    int64_t ctas = mmaCtaGroup(s);
    KernelIR ir(rewriter, op.getLoc());
    namespace id = isa::tcgen05_idesc;
    Value idesc = ir.c32(id::encode(id::kDTypeF32, kind->aType, kind->bType,
                                    /*transposeA=*/false, /*transposeB=*/false,
                                    ctas * s.blockM(), s.blockN()));
    // K-major tiles as TMA writes them (tcgen05_desc::kMajorOffsets): the
    // swizzled ones start on an atom (base offset 0); the unswizzled ones
    // come in 16-byte slabs of K, whose distance differs between A and B.
    namespace sd = isa::tcgen05_desc;
    int span = abi.a.swizzleBytes;
    uint64_t upperA = sd::kMajorOffsets(span, abi.a.slabBytes);
    uint64_t upperB = sd::kMajorOffsets(span, abi.b.slabBytes);
    auto fieldOf = [&](Value tile) {
      Value a32 = LLVM::PtrToIntOp::create(rewriter, op.getLoc(), ir.i32, tile);
      return ir.andI(arith::ShRUIOp::create(rewriter, op.getLoc(), a32,
                                            ir.c32(isa::wgmma_desc::kUnitShift)),
                     ir.c32(isa::wgmma_desc::kFieldMask));
    };
    // The address field is computed once per tile in 32 bits; the field
    // never carries (shared memory ends below 256 KiB).
    Value fieldA = fieldOf(op.getATile()), fieldB = fieldOf(op.getBTile());
    auto descriptor = [&](Value field, int64_t offsetBytes, uint64_t upper) {
      Value lo = ir.add(field, ir.c32(offsetBytes >> isa::wgmma_desc::kUnitShift));
      return arith::OrIOp::create(rewriter, op.getLoc(), ir.zext64(lo),
                                  ir.c64(static_cast<int64_t>(upper)));
    };
    tcgen05Fence(ir, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value d = tmemPointer(ir, op.getAcc());
    int64_t kStepBytes = instr->k * elementBytes(s.a.element);
    Value always = arith::ConstantIntOp::create(rewriter, op.getLoc(), 1, 1);
    for (int64_t step = 0; step < s.blockK() / instr->k; ++step) {
      Value descB =
          descriptor(fieldB, sd::kStepOffset(span, abi.b.slabBytes, kStepBytes, step), upperB);
      Value descA =
          descriptor(fieldA, sd::kStepOffset(span, abi.a.slabBytes, kStepBytes, step), upperA);
      NVVM::Tcgen05MMAOp::create(
          rewriter, op.getLoc(), kind->kind,
          ctas == 1 ? NVVM::CTAGroupKind::CTA_1 : NVVM::CTAGroupKind::CTA_2,
          NVVM::Tcgen05MMACollectorOp::DISCARD, /*aShift=*/false, d, descA, descB, idesc,
          step == 0 ? op.getAccumulate() : always, /*scaleInputD=*/Value(),
          /*disableOutputLane=*/Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::gemmc::populateSm100aPatterns(RewritePatternSet &patterns,
                                         const InstructionOptions &) {
  MLIRContext *ctx = patterns.getContext();
  // The stage ring (TMA fill, mbarriers), shared with sm_90a; the MMA's
  // completion releases a stage.
  populateTmaRingPatterns(patterns);
  patterns.add<StageReleaseLowering,  // gemmc.stage_release
               StageForwardLowering>( // gemmc.stage_forward (a pair)
      ctx);
  // The MMA and the accumulators in tensor memory.
  patterns.add<MmaIssueLowering,    // gemmc.mma_issue
               AccReadyLowering,    // gemmc.acc_ready
               AccReleaseLowering,  // gemmc.acc_release
               AccAllocLowering,    // gemmc.acc_alloc
               AccBaseLowering,     // gemmc.acc_base
               AccFreeLowering,     // gemmc.acc_free
               AccLoadLowering,     // gemmc.acc_load
               AccStoreLowering,    // gemmc.acc_store
               AccFoldScalesLowering, // gemmc.acc_fold_scales (scale: block)
               AccFoldLowering>(    // gemmc.acc_fold
      ctx);
}
