//===- Sm90aPatterns.cpp - Instruction selection for sm_90a --------------===//
//
// The stage ring with TMA and mbarriers (shared with sm_100a:
// TmaRingPatterns.cpp, TmaRing.h), the MMA of a stage with wgmma, and the
// epilogue's asynchronous stores with TMA. What is sm_90a's own here:
//
//   empty[s] completes when every consumer warpgroup has released stage s
//            (its wgmma reading the stage is done: wgmma completes for the
//            whole warpgroup, so the group's first thread speaks for it).
//
// Clusters of 2 CTAs along M share B (multicast): each CTA loads part of the
// stage's B tile into both CTAs' shared memory, so a stage is free only when
// the consumers of both CTAs have released it: every consumer warpgroup
// arrives on the empty barrier of each CTA of the cluster.
//
//===----------------------------------------------------------------------===//
#include "TmaRing.h"
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// gemmc.stage_release -> the warpgroup's first thread arrives on the
/// stage's empty barrier, in every CTA of the cluster (mapa).
struct StageReleaseLowering : OpRewritePattern<StageReleaseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageReleaseOp op, PatternRewriter &rewriter) const override {
    KernelIR ir(rewriter, op.getLoc());
    Ring ring(ir, op.getSmem(), op.getSmemLayout());
    Value stage = ring.stageOf(op.getLoad());
    int64_t cluster = op.getClusterSize();
    // The stage's empty barrier in this CTA, or in every CTA of the cluster:
    // every CTA writes this stage of ours (multicast), so every CTA's
    // producer waits for our release. `arrive(barrier, remote)`.
    auto arriveEverywhere = [&](function_ref<void(Value, bool)> arrive) {
      Value barrier = ring.empty(stage);
      if (cluster == 1)
        return arrive(barrier, /*remote=*/false);
      for (int64_t peer = 0; peer < cluster; ++peer)
        arrive(NVVM::MapaOp::create(ir.b, ir.loc, ir.sharedClusterPtr, barrier, ir.c32(peer)),
               /*remote=*/true);
    };
    // CTA scope suffices for a peer's barrier (the consumers wrote nothing a
    // peer reads); cluster scope would make each release a cluster-wide
    // fence.
    if (op.getPredicated()) {
      // Every thread computes the addresses; the leader's arrivals are
      // predicated in the asm (LLVM would branch around a call).
      Value leader = arith::ExtUIOp::create(rewriter, op.getLoc(), ir.i32, ir.isWarpgroupLeader());
      arriveEverywhere([&](Value barrier, bool remote) {
        StringRef space = remote ? "cluster" : "cta";
        std::string text = ("{\n.reg .pred p;\nsetp.ne.b32 p, $1, 0;\n@p mbarrier.arrive.shared::" +
                            space + ".b64 _, [$0];\n}")
                               .str();
        Value address =
            LLVM::PtrToIntOp::create(rewriter, op.getLoc(), remote ? ir.i64 : ir.i32, barrier);
        LLVM::InlineAsmOp::create(rewriter, op.getLoc(), TypeRange{}, ValueRange{address, leader},
                                  text, remote ? "l,r" : "r,r", /*has_side_effects=*/true,
                                  /*is_align_stack=*/false, LLVM::TailCallKind::None,
                                  /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
      });
    } else {
      ir.ifThen(ir.isWarpgroupLeader(), [&] {
        arriveEverywhere([&](Value barrier, bool remote) {
          if (remote)
            NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), barrier,
                                           /*count=*/Value(), NVVM::MemScopeKind::CTA);
          else
            NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), barrier,
                                           /*count=*/Value());
        });
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.mma_wait -> wgmma.wait_group.
struct MmaWaitLowering : OpRewritePattern<MmaWaitOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaWaitOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::WgmmaWaitGroupSyncOp>(op, op.getPending());
    return success();
  }
};

/// The 64-bit wgmma shared-memory matrix descriptors of the k steps of one
/// tile: bits 0-13 address >> 4, 16-29 leading byte offset >> 4, 32-45
/// stride byte offset >> 4, 62-63 swizzle mode (1 = 128-byte). The base
/// offset (bits 49-51) stays 0 because every stage starts on a swizzle atom.
///
/// The tile's address field is computed once, in 32 bits; each k step adds
/// its constant offset to it (shared memory ends below 256 KiB, so the
/// 14-bit field never carries), and the upper word is a constant. Built per
/// step from the 64-bit address instead, ptxas spent about 40 instructions a
/// k-tile on 64-bit shifts and masks between the barrier wait and the first
/// wgmma (ncu, 2026-11-29).
struct TileDescriptors {
  TileDescriptors(KernelIR &ir, Value tile, int64_t leadingBytes,
                  int64_t strideBytes, int spanBytes)
      : ir(ir) {
    namespace desc = isa::wgmma_desc;
    Value a32 = LLVM::PtrToIntOp::create(ir.b, ir.loc, ir.i32, tile);
    field = arith::AndIOp::create(
        ir.b, ir.loc,
        arith::ShRUIOp::create(ir.b, ir.loc, a32, ir.c32(desc::kUnitShift)),
        ir.c32(desc::kFieldMask));
    uint64_t offsets = desc::offsets(leadingBytes, strideBytes, spanBytes);
    leading = static_cast<int64_t>(offsets & 0xFFFFFFFFu);
    upper = static_cast<int64_t>(offsets & ~uint64_t(0xFFFFFFFFu));
  }
  /// The descriptor of the tile `offsetBytes` (a multiple of 16) further on.
  Value at(int64_t offsetBytes) {
    Value lo = ir.add(field, ir.c32(isa::wgmma_desc::field(offsetBytes) | leading));
    return arith::OrIOp::create(ir.b, ir.loc, ir.zext64(lo), ir.c64(upper));
  }

  KernelIR &ir;
  Value field;
  int64_t leading, upper;
};

/// wgmma's name of an operand type: tf32 operands are f32 in memory and
/// read by wgmma as tf32 (the low 13 mantissa bits are ignored).
std::optional<NVVM::WGMMATypes> wgmmaType(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return NVVM::WGMMATypes::bf16;
  case ElementType::F16:
    return NVVM::WGMMATypes::f16;
  case ElementType::TF32:
    return NVVM::WGMMATypes::tf32;
  case ElementType::E4M3:
    return NVVM::WGMMATypes::e4m3;
  case ElementType::E5M2:
    return NVVM::WGMMATypes::e5m2;
  case ElementType::F32:
    break;
  }
  return std::nullopt;
}

/// gemmc.mma_a_fragment -> one ldmatrix .x4 a k step. wgmma's 8-bit A
/// fragment of a k step (m64 x 32 bytes) is mma.sync's m16n8k32 A fragment
/// for each warp's 16 rows: register i holds 4 bytes of row (i % 2) x 8 +
/// lane / 4 at byte (i / 2) x 16 + (lane % 4) x 4, which is matrix i of an
/// ldmatrix .x4 whose lane l gives row l % 16 at byte (l / 16) x 16. The
/// tile's rows are one 128-byte swizzle span each: unit u of row r lies at
/// unit u ^ (r % 8) (the stage starts on a swizzle atom), and since a k
/// step's first unit is even, k step j's unit is (l / 16 ^ l % 8) ^ 2j: the
/// lane's address is computed once and each k step XORs a constant in.
struct MmaAFragmentLowering : OpRewritePattern<MmaAFragmentOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaAFragmentOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    const KernelAbi &abi = op.getSchedule().getAbi();
    auto instr = mmaInstrShape(s.arch, s.a.element);
    int64_t eb = elementBytes(s.a.element);
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getType());
    if (!instr || instr->family != MmaFamily::Wgmma)
      return rewriter.notifyMatchFailure(op, "the schedule's MMA is not wgmma");
    int64_t stepBytes = instr->k * eb, steps = s.blockK() / instr->k;
    int64_t unit = isa::kLdmatrixRowBytes;
    if (!abi.a.kMajor || abi.a.swizzleBytes != s.blockK() * eb ||
        abi.a.swizzleBytes != isa::kSwizzleAtomRows * unit || stepBytes != 2 * unit)
      return rewriter.notifyMatchFailure(
          op, "A's tile rows are not one 128-byte swizzle span of two-unit k steps");
    if (!type || int64_t(type.getBody().size()) != steps * isa::kLdmatrixMatrices)
      return rewriter.notifyMatchFailure(op, "the result is not 4 registers a k step");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    KernelIR ir(rewriter, loc);
    Value tid = ir.threadId();
    Value lane = ir.remU(tid, ir.c32(kWarpSize));
    Value warpInCta = ir.divU(tid, ir.c32(kWarpSize));
    Value warp = ir.remU(warpInCta, ir.c32(kWarpgroupSize / kWarpSize));
    // Each warp's 16 rows (two ldmatrix rows of matrices).
    int64_t warpRows = 2 * isa::kLdmatrixRows;
    Value warpRow = ir.mul(warp, ir.c32(warpRows));
    Value laneRow = ir.remU(lane, ir.c32(warpRows));
    Value row = ir.add(warpRow, laneRow);
    Value half = ir.divU(lane, ir.c32(warpRows));
    Value phase = ir.remU(lane, ir.c32(isa::kSwizzleAtomRows));
    Value unitIndex = arith::XOrIOp::create(rewriter, loc, half, phase);
    Value rowBytes = ir.mul(row, ir.c32(abi.a.swizzleBytes));
    Value unitBytes = ir.mul(unitIndex, ir.c32(unit));
    Value laneBytes = ir.add(rowBytes, unitBytes);
    Type x4 = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(isa::kLdmatrixMatrices, ir.i32));
    Value result = LLVM::PoisonOp::create(rewriter, loc, type);
    int64_t field = 0;
    for (int64_t step = 0; step < steps; ++step) {
      Value offset = step == 0 ? laneBytes
                               : arith::XOrIOp::create(rewriter, loc, laneBytes,
                                                       ir.c32(step * stepBytes))
                                     .getResult();
      Value at = ir.sharedAt(op.getATile(), offset);
      Value v = NVVM::LdMatrixOp::create(
          rewriter, loc, x4, at, /*num=*/isa::kLdmatrixMatrices, NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(ctx, isa::kLdmatrixRows, isa::kLdmatrixRows),
          NVVM::LdStMatrixEltType::B16);
      for (int64_t i = 0; i < isa::kLdmatrixMatrices; ++i) {
        Value r = LLVM::ExtractValueOp::create(rewriter, loc, v, ArrayRef<int64_t>{i});
        result = LLVM::InsertValueOp::create(rewriter, loc, result, r, field++);
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// wgmma.mma_async with A from registers (the register form, which the NVVM
/// dialect's op does not build), as inline PTX in the form the NVVM op
/// takes for shared-memory A: the accumulators tied in and out, scale-d a
/// predicate set from an immediate. `aRegs` are the k step's A registers.
Value wgmmaRegisterA(KernelIR &ir, Type accType, Value acc, ValueRange aRegs, Value descB,
                     llvm::StringRef shape, llvm::StringRef types, bool zeroIn) {
  auto st = cast<LLVM::LLVMStructType>(accType);
  int64_t n = st.getBody().size(), na = aRegs.size();
  std::string text, constraints;
  llvm::raw_string_ostream os(text), cs(constraints);
  os << "{\n.reg .pred p;\nsetp.ne.b32 p, " << (zeroIn ? 0 : 1)
     << ", 0;\nwgmma.mma_async.sync.aligned." << shape << types << " {";
  for (int64_t i = 0; i < n; ++i)
    os << (i ? ", " : "") << "$" << i;
  os << "}, {";
  for (int64_t i = 0; i < na; ++i)
    os << (i ? ", " : "") << "$" << 2 * n + i;
  os << "}, $" << 2 * n + na << ", p, 1, 1;\n}\n";
  for (int64_t i = 0; i < n; ++i)
    cs << (i ? "," : "") << "=f";
  for (int64_t i = 0; i < n; ++i)
    cs << "," << i;
  for (int64_t i = 0; i < na; ++i)
    cs << ",r";
  cs << ",l";
  SmallVector<Value> in;
  for (int64_t i = 0; i < n; ++i)
    in.push_back(LLVM::ExtractValueOp::create(ir.b, ir.loc, acc, i));
  in.append(aRegs.begin(), aRegs.end());
  in.push_back(descB);
  return LLVM::InlineAsmOp::create(ir.b, ir.loc, accType, in, text, constraints,
                                   /*has_side_effects=*/true, /*is_align_stack=*/false,
                                   LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                                   /*operand_attrs=*/nullptr)
      .getResult(0);
}

/// gemmc.mma_stage -> wgmma.fence, wgmma.mma_async x (BLOCK_K / k),
/// wgmma.commit_group.
struct MmaStageLowering : OpRewritePattern<MmaStageOp> {
  MmaStageLowering(MLIRContext *ctx, int64_t wgmmaN)
      : OpRewritePattern(ctx), wgmmaN(wgmmaN) {}
  int64_t wgmmaN;

  LogicalResult matchAndRewrite(MmaStageOp op,
                                PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    auto instr = mmaInstrShape(s.arch, s.a.element);
    if (!instr || instr->family != MmaFamily::Wgmma)
      return rewriter.notifyMatchFailure(op, "the schedule's MMA is not wgmma");
    auto aType = wgmmaType(s.a.element), bType = wgmmaType(s.b.element);
    if (!aType || !bType)
      return rewriter.notifyMatchFailure(op, "an operand type wgmma does not take");

    MLIRContext *ctx = rewriter.getContext();
    KernelIR ir(rewriter, op.getLoc());
    const KernelAbi &abi = op.getSchedule().getAbi();
    int64_t eb = elementBytes(s.a.element);
    int64_t span = abi.a.swizzleBytes;
    int64_t atomBytes = isa::kSwizzleAtomRows * span;
    int64_t kStepBytes = instr->k * eb;
    auto wgTypeA = NVVM::WGMMATypesAttr::get(ctx, *aType);
    auto wgTypeB = NVVM::WGMMATypesAttr::get(ctx, *bType);
    std::string why;
    int64_t partN = wgmmaColumns(s, abi, wgmmaN, why);
    if (partN == 0) // the pass reports it before matching
      return rewriter.notifyMatchFailure(op, why);
    // A part of the tile's columns (block scaling's fold_columns): one
    // wgmma of its width per k step.
    int64_t first = 0, width = s.blockN();
    if (std::optional<ArrayRef<int64_t>> columns = op.getColumns()) {
      first = (*columns)[0];
      width = partN = (*columns)[1];
    }
    int64_t parts = width / partN;
    // Pingpong with BLOCK_M = 128: the warpgroup's tile is two wgmma row
    // blocks sharing each k step's B; row block r reads A from r x 64 rows
    // further on and keeps registers [r, r + 1) x BLOCK_N / 2 of the
    // accumulator (the epilogue stores each as a 64-row tile).
    int64_t rowBlocks = warpgroupRowBlocks(s);
    // An accumulator of one row block's registers (wgmma's m64nN f32
    // fragment: N / 2): that block alone, A from `a_tile` (the pingpong K
    // loop issues each row block as its own group, accumulateByRowBlocks).
    int64_t accRegs = cast<LLVM::LLVMStructType>(op.getAcc().getType()).getBody().size();
    if (rowBlocks > 1 && accRegs * 2 == width)
      rowBlocks = 1;
    int64_t aBlockBytes = instr->m * s.blockK() * eb;
    assert((rowBlocks == 1 || (parts == 1 && !op.getAFrag())) &&
           "two row blocks only with whole-tile MMAs from shared memory (Sm90a.cpp)");
    int64_t pieces = rowBlocks * parts;
    auto shape = NVVM::MMAShapeAttr::get(ctx, instr->m, partN, instr->k);

    // K-major tiles (A always, B when col-major): 128-byte swizzled rows,
    // 8-row atoms `atomBytes` apart; a k step moves the start address along
    // the row and the hardware applies the swizzle from the absolute address.
    // N-major B: a k step moves down `k` rows of the slabs; slabs one swizzle
    // span of N wide are `slabBytes` apart.
    // A swizzled K-major tile's leading offset is unused by the hardware and
    // set to one descriptor unit.
    int64_t oneUnit = int64_t(1) << isa::wgmma_desc::kUnitShift;
    // a_registers: A comes from registers (gemmc.mma_a_fragment); no A
    // descriptor is built.
    Value aFrag = op.getAFrag();
    std::optional<TileDescriptors> tileA;
    if (!aFrag)
      tileA.emplace(ir, op.getATile(), /*leadingBytes=*/oneUnit, atomBytes, span);
    TileDescriptors tileB(ir, op.getBTile(),
                          /*leadingBytes=*/abi.b.kMajor ? oneUnit : abi.b.slabBytes,
                          atomBytes, span);
    int64_t bStepBytes = abi.b.kMajor ? kStepBytes : instr->k * span;
    // Part p of the columns: accumulator registers [p, p + 1) * partN / 2
    // of the m64 fragment; its B starts partN rows (K-major) or partN / (the
    // slab's columns) slabs (N-major) further on.
    auto bBytesAt = [&](int64_t column) {
      return abi.b.kMajor ? column * span
                          : column / slabColumns(abi.b, s.b.element) * abi.b.slabBytes;
    };
    int64_t partBBytes = bBytesAt(partN), firstBBytes = bBytesAt(first);
    NVVM::WgmmaFenceAlignedOp::create(rewriter, op.getLoc());
    Value whole = op.getAcc();
    int64_t partRegs = partN / 2;
    SmallVector<Value> acc;
    Type partType = whole.getType();
    if (pieces == 1) {
      acc.push_back(whole);
    } else {
      for (int64_t p = 0; p < pieces; ++p)
        acc.push_back(structFields(ir, whole, p * partRegs, partRegs));
      partType = acc[0].getType();
    }
    // a_registers: k step j's A is registers 4j .. 4j + 3 of the fragment.
    int64_t kSteps = s.blockK() / instr->k, aRegs = 0;
    if (aFrag)
      aRegs = int64_t(cast<LLVM::LLVMStructType>(aFrag.getType()).getBody().size()) / kSteps;
    std::string rsShape = llvm::formatv("m{0}n{1}k{2}", instr->m, partN, instr->k).str();
    std::string rsTypes = llvm::formatv(".f32.{0}.{1}", NVVM::stringifyWGMMATypes(*aType),
                                        NVVM::stringifyWGMMATypes(*bType))
                              .str();
    for (int64_t step = 0; step < kSteps; ++step) {
      for (int64_t block = 0; block < rowBlocks; ++block) {
        Value descA = aFrag ? Value() : tileA->at(block * aBlockBytes + step * kStepBytes);
        SmallVector<Value> aStep;
        for (int64_t r = 0; r < aRegs; ++r)
          aStep.push_back(LLVM::ExtractValueOp::create(rewriter, op.getLoc(), aFrag,
                                                       step * aRegs + r));
        for (int64_t q = block * parts; q < (block + 1) * parts; ++q) {
          int64_t p = q - block * parts;
          Value descB = tileB.at(firstBBytes + step * bStepBytes + p * partBBytes);
          // `fresh`: the first k step overwrites the accumulator (scale-d 0).
          bool zeroIn = op.getFresh() && step == 0;
          if (aFrag) {
            acc[q] = wgmmaRegisterA(ir, partType, acc[q], aStep, descB, rsShape, rsTypes, zeroIn);
            continue;
          }
          acc[q] = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, op.getLoc(), partType, acc[q], descA, descB, shape,
              wgTypeA, wgTypeB, NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
              NVVM::WGMMAScaleOutAttr::get(ctx, zeroIn ? NVVM::WGMMAScaleOut::zero
                                                       : NVVM::WGMMAScaleOut::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
              NVVM::MMALayoutAttr::get(ctx, abi.b.kMajor ? NVVM::MMALayout::col
                                                         : NVVM::MMALayout::row),
              /*satfinite=*/nullptr);
        }
      }
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, pieces == 1 ? acc[0] : joinStructFields(ir, whole.getType(), acc));
    return success();
  }
};

/// gemmc.mma_promote -> one llvm.fadd per accumulator register.
struct MmaPromoteLowering : OpRewritePattern<MmaPromoteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaPromoteOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<LLVM::LLVMStructType>(op.getSum().getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "the accumulator is not a struct");
    Location loc = op.getLoc();
    Value sum = op.getSum();
    for (int64_t r = 0, e = type.getBody().size(); r < e; ++r) {
      Value x = LLVM::ExtractValueOp::create(rewriter, loc, sum, r);
      Value y = LLVM::ExtractValueOp::create(rewriter, loc, op.getPart(), r);
      sum = LLVM::InsertValueOp::create(
          rewriter, loc, sum, LLVM::FAddOp::create(rewriter, loc, x, y), r);
    }
    rewriter.replaceOp(op, sum);
    return success();
  }
};

} // namespace

void mlir::gemmc::populateSm90aPatterns(RewritePatternSet &patterns,
                                        const InstructionOptions &options) {
  MLIRContext *ctx = patterns.getContext();
  // The stage ring (TMA fill, mbarriers) and the epilogue's TMA stores.
  populateTmaRingPatterns(patterns);
  patterns.add<StageReleaseLowering>(ctx); // gemmc.stage_release
  // The mainloop's MMA.
  patterns.add<MmaStageLowering>(ctx, options.wgmmaN); // gemmc.mma_stage
  patterns.add<MmaAFragmentLowering>(ctx);             // gemmc.mma_a_fragment
  patterns.add<MmaWaitLowering>(ctx);                  // gemmc.mma_wait
  patterns.add<MmaPromoteLowering>(ctx);               // gemmc.mma_promote
}
