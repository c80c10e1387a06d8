//===- CommonPatterns.cpp - What every NVIDIA target lowers alike --------===//
//
// Barriers and register reallocation mean the same on sm_80, sm_90a and
// sm_100a: named barriers (bar.sync / bar.arrive), the CTA barrier, the
// cluster barrier (sm_90a and later), setmaxnreg (sm_90a and later).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// gemmc.named_barrier -> bar.sync id, threads (bar.arrive with `arrive`).
struct NamedBarrierLowering : OpRewritePattern<NamedBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NamedBarrierOp op, PatternRewriter &rewriter) const override {
    if (op.getArrive())
      rewriter.replaceOpWithNewOp<NVVM::BarrierArriveOp>(op, op.getId(), op.getThreads());
    else
      rewriter.replaceOpWithNewOp<NVVM::BarrierOp>(
          op, /*res=*/Type(), op.getId(), op.getThreads(),
          /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
    return success();
  }
};

/// gemmc.cta_sync -> bar.sync 0, or barrier.cluster.arrive + wait.
struct CtaSyncLowering : OpRewritePattern<CtaSyncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CtaSyncOp op, PatternRewriter &rewriter) const override {
    if (!op.getCluster()) {
      rewriter.replaceOpWithNewOp<NVVM::Barrier0Op>(op);
      return success();
    }
    NVVM::ClusterArriveOp::create(rewriter, op.getLoc(), /*aligned=*/nullptr);
    NVVM::ClusterWaitOp::create(rewriter, op.getLoc(), /*aligned=*/nullptr);
    rewriter.eraseOp(op);
    return success();
  }
};

/// gemmc.set_max_registers -> setmaxnreg.inc / .dec.
struct SetMaxRegistersLowering : OpRewritePattern<SetMaxRegistersOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SetMaxRegistersOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::SetMaxRegisterOp>(
        op, op.getCount(),
        op.getIncrease() ? NVVM::SetMaxRegisterAction::increase
                         : NVVM::SetMaxRegisterAction::decrease);
    return success();
  }
};

/// gemmc.wait_prior_grids -> griddepcontrol.wait, gemmc.launch_dependents
/// -> griddepcontrol.launch_dependents (sm_90 and later; the rules refuse
/// PDL on sm_80).
template <typename GemmcOp, NVVM::GridDepActionKind kKind>
struct GridDependencyLowering : OpRewritePattern<GemmcOp> {
  using OpRewritePattern<GemmcOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(GemmcOp op, PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::GriddepcontrolOp>(op, kKind);
    return success();
  }
};

/// math.tanh marked `afn` (the epilogue's activation of a 16-bit output,
/// EpilogueMath) -> tanh.approx.f32, one MUFU instruction on sm_75 and
/// later. LLVM 22's NVPTX has no intrinsic for it; the asm has no side
/// effects, so it is scheduled and CSE'd like an arith op.
struct ApproximateTanhLowering : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op, PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "tanh.approx takes f32");
    if (!bitEnumContainsAll(op.getFastmath(), arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "not marked afn: expandMath owns it");
    rewriter.replaceOpWithNewOp<LLVM::InlineAsmOp>(
        op, op.getType(), ValueRange{op.getOperand()}, "tanh.approx.f32 $0, $1;", "=f,f",
        /*has_side_effects=*/false, /*is_align_stack=*/false, LLVM::TailCallKind::None,
        /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
    return success();
  }
};

} // namespace

void mlir::gemmc::populateCommonNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<NamedBarrierLowering,     // gemmc.named_barrier
               CtaSyncLowering,          // gemmc.cta_sync
               SetMaxRegistersLowering,  // gemmc.set_max_registers
               ApproximateTanhLowering>( // math.tanh {afn}
      patterns.getContext());
  patterns.add<
      GridDependencyLowering<WaitPriorGridsOp, NVVM::GridDepActionKind::wait>,
      GridDependencyLowering<LaunchDependentsOp,
                             NVVM::GridDepActionKind::launch_dependents>>(
      patterns.getContext());
}

void mlir::gemmc::populateTargetPatterns(::gemmc::Arch arch,
                                         RewritePatternSet &patterns,
                                         const InstructionOptions &options) {
  populateCommonNVVMPatterns(patterns);
  switch (arch) {
  case ::gemmc::Arch::SM80:
    return populateSm80Patterns(patterns, options);
  case ::gemmc::Arch::SM90a:
    populateSm90aBlockScalePatterns(patterns);
    return populateSm90aPatterns(patterns, options);
  case ::gemmc::Arch::SM100a:
    return populateSm100aPatterns(patterns, options);
  }
}
