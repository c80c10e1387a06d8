//===- GemmcToNVVM.cpp - gemmc.mma_stage to sm_90a wgmma ------------------===//
//
// Instruction selection for the mainloop: a gemmc.mma_stage becomes
// wgmma.fence, BLOCK_K / k `wgmma.mma_async` (one per k step of the
// instruction, each reading its slice of the swizzled stage through a
// shared-memory matrix descriptor) and wgmma.commit_group.
//
//===----------------------------------------------------------------------===//
#include "../Transforms/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "convert-gemmc-to-nvvm"

namespace mlir::gemmc {
#define GEN_PASS_DEF_CONVERTGEMMCTONVVM
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// The 64-bit wgmma shared-memory matrix descriptor of a tile at `addr`:
/// bits 0-13 address >> 4, 16-29 leading byte offset >> 4, 32-45 stride byte
/// offset >> 4, 62-63 swizzle mode (1 = 128-byte). The base offset (bits
/// 49-51) stays 0 because every stage starts on a swizzle atom.
Value matrixDescriptor(KernelIR &ir, Value addr, int64_t leadingBytes,
                       int64_t strideBytes) {
  Value a64 = ir.zext64(LLVM::PtrToIntOp::create(ir.b, ir.loc, ir.i32, addr));
  Value lo = arith::AndIOp::create(
      ir.b, ir.loc, arith::ShRUIOp::create(ir.b, ir.loc, a64, ir.c64(4)),
      ir.c64(0x3FFF));
  uint64_t fixed = (uint64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                   (uint64_t((strideBytes >> 4) & 0x3FFF) << 32) |
                   (uint64_t(1) << 62);
  return arith::OrIOp::create(ir.b, ir.loc, lo,
                              ir.c64(static_cast<int64_t>(fixed)));
}

/// gemmc.mma_stage -> wgmma.fence, wgmma.mma_async x (BLOCK_K / k),
/// wgmma.commit_group.
struct MmaStageLowering : OpRewritePattern<MmaStageOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MmaStageOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<KernelSpec> spec =
        specFromSchedule(op.getSchedule(), [&] { return op.emitOpError(); });
    if (failed(spec))
      return rewriter.notifyMatchFailure(op, "the schedule is not a valid spec");
    const KernelSpec &s = *spec;
    auto instr = mmaInstrShape(s.arch, s.a.element);
    if (!instr || instr->family != MmaFamily::Wgmma)
      return rewriter.notifyMatchFailure(op, "the schedule's MMA is not wgmma");
    bool bf16 = s.a.element == ElementType::BF16;
    if (!bf16 && s.a.element != ElementType::F16)
      return rewriter.notifyMatchFailure(op, "only bf16 and f16 operands");

    MLIRContext *ctx = rewriter.getContext();
    KernelIR ir(rewriter, op.getLoc());
    KernelAbi abi = describeKernelAbi(s);
    int64_t eb = elementBytes(s.a.element);
    int64_t span = abi.a.swizzleBytes;
    int64_t atomBytes = kSwizzleAtomRows * span;
    int64_t kStepBytes = instr->k * eb;
    auto wgType = NVVM::WGMMATypesAttr::get(
        ctx, bf16 ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16);
    auto shape = NVVM::MMAShapeAttr::get(ctx, instr->m, s.blockN(), instr->k);

    NVVM::WgmmaFenceAlignedOp::create(rewriter, op.getLoc());
    Value acc = op.getAcc();
    for (int64_t step = 0; step < s.blockK() / instr->k; ++step) {
      // K-major tiles (A always, B when col-major): 128-byte swizzled rows,
      // 8-row atoms `atomBytes` apart; a k step moves the start address
      // along the row and the hardware applies the swizzle from the absolute
      // address.
      Value descA = matrixDescriptor(
          ir, ir.sharedAt(op.getATile(), step * kStepBytes),
          /*leadingBytes=*/16, atomBytes);
      Value descB =
          abi.b.kMajor
              ? matrixDescriptor(ir, ir.sharedAt(op.getBTile(), step * kStepBytes),
                                 /*leadingBytes=*/16, atomBytes)
              // N-major B: a k step moves down `k` rows of the slabs; slabs
              // one swizzle span of N wide are `slabBytes` apart.
              : matrixDescriptor(
                    ir, ir.sharedAt(op.getBTile(), step * instr->k * span),
                    /*leadingBytes=*/abi.b.slabBytes, atomBytes);
      acc = NVVM::WgmmaMmaAsyncOp::create(
          rewriter, op.getLoc(), acc.getType(), acc, descA, descB, shape,
          wgType, wgType, NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
          NVVM::MMALayoutAttr::get(ctx, abi.b.kMajor ? NVVM::MMALayout::col
                                                     : NVVM::MMALayout::row),
          /*satfinite=*/nullptr);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, acc);
    return success();
  }
};

void populateGemmcToNVVMPatterns(RewritePatternSet &patterns) {
  // gemmc.mma_stage: the mainloop's instruction selection.
  patterns.add<MmaStageLowering>(patterns.getContext());
}

struct ConvertGemmcToNVVMPass
    : mlir::gemmc::impl::ConvertGemmcToNVVMBase<ConvertGemmcToNVVMPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGemmcToNVVMPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
    WalkResult left = getOperation().walk([](MmaStageOp op) {
      op.emitOpError("could not be lowered to wgmma");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
