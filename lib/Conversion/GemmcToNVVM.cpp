//===- GemmcToNVVM.cpp - The instruction-selection pass ------------------===//
//
// convert-gemmc-to-nvvm: in each kernel, the gemmc ops that the earlier
// passes left (the stage ring, the MMA of a stage, the epilogue's stores,
// barriers and roles) become the target's NVVM ops, through the patterns of
// the target's populate function (GemmcToNVVM.h). The target is the chip of
// the kernel's gpu.module (#nvvm.target), or else the arch of a schedule
// inside the function. A gemmc op left over is an error that names the
// target: `[not-implemented]` where the target has no patterns yet.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#define DEBUG_TYPE "convert-gemmc-to-nvvm"

namespace mlir::gemmc {
#define GEN_PASS_DEF_CONVERTGEMMCTONVVM
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// The target of the kernel `fn`: its gpu.module's chip, or the arch of the
/// first schedule in it.
std::optional<Arch> targetOf(Operation *fn) {
  if (auto module = fn->getParentOfType<gpu::GPUModuleOp>())
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute t : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(t))
          if (std::optional<Arch> arch = parseArch(nvvm.getChip()))
            return arch;
  std::optional<Arch> arch;
  fn->walk([&](Operation *op) {
    if (auto schedule = op->getAttrOfType<ScheduleAttr>("schedule")) {
      arch = schedule.getSpec().arch;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return arch;
}

bool isGemmcOp(Operation *op) {
  return llvm::isa<GemmcDialect>(op->getDialect());
}

struct ConvertGemmcToNVVMPass
    : mlir::gemmc::impl::ConvertGemmcToNVVMBase<ConvertGemmcToNVVMPass> {
  using Base::Base;

  /// An explicit wgmma-n that does not fit a stage's tile is the user's
  /// error: say why, once, instead of "could not be lowered".
  LogicalResult checkWgmmaN() {
    if (wgmmaN == 0)
      return success();
    WalkResult bad = getOperation().walk([&](MmaStageOp op) {
      std::string why;
      if (wgmmaColumns(op.getSchedule().getSpec(), op.getSchedule().getAbi(),
                       wgmmaN, why) != 0)
        return WalkResult::advance();
      op.emitOpError(why);
      return WalkResult::interrupt();
    });
    return failure(bad.wasInterrupted());
  }

  void runOnOperation() override {
    if (failed(checkWgmmaN()))
      return signalPassFailure();
    InstructionOptions options;
    options.wgmmaN = wgmmaN;
    SmallVector<LLVM::LLVMFuncOp> kernels;
    getOperation().walk([&](LLVM::LLVMFuncOp fn) { kernels.push_back(fn); });
    bool failedAny = false;
    for (LLVM::LLVMFuncOp fn : kernels) {
      bool hasGemmc = false;
      fn.walk([&](Operation *op) {
        hasGemmc |= isGemmcOp(op);
        return hasGemmc ? WalkResult::interrupt() : WalkResult::advance();
      });
      if (!hasGemmc)
        continue;
      std::optional<Arch> arch = targetOf(fn);
      if (!arch) {
        fn.emitOpError("has gemmc ops but no target: neither a gpu.module with "
                       "an #nvvm.target chip nor a #gemmc.schedule names one");
        failedAny = true;
        continue;
      }
      RewritePatternSet patterns(&getContext());
      populateTargetPatterns(*arch, patterns, options);
      walkAndApplyPatterns(fn, std::move(patterns));
      fn.walk([&](Operation *op) {
        if (!isGemmcOp(op))
          return WalkResult::advance();
        // A target with a lowering lacks a pattern for this op (or the
        // op's operands); a target without one is not built yet.
        if (backendFor(*arch).unsupported)
          op->emitOpError() << "could not be lowered to " << archName(*arch);
        else
          op->emitOpError() << "[not-implemented] instruction selection for "
                            << archName(*arch) << " is not implemented yet";
        failedAny = true;
        return WalkResult::interrupt();
      });
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
