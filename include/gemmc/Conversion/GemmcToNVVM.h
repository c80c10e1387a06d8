//===- GemmcToNVVM.h - Instruction selection per target ------------------===//
//
// Each target fills the patterns that turn gemmc's target-neutral ops (the
// stage ring, the MMA of a stage, the epilogue's stores, warp roles) into
// its instructions. `convert-gemmc-to-nvvm` picks the populate function of
// the kernel's target; an op that no pattern of the target lowers is
// reported `[not-implemented]` with the reason the patterns gave.
// docs/architecture.md, "Adding a target", lists what a new target writes.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_CONVERSION_GEMMCTONVVM_H
#define GEMMC_CONVERSION_GEMMCTONVVM_H

#include "gemmc/Target/Target.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::gemmc {

/// Options of the instruction selection (the pass's options).
struct InstructionOptions {
  /// Columns of each wgmma.mma_async on sm_90a (0: BLOCK_N).
  int64_t wgmmaN = 0;
};

/// What every NVIDIA target lowers the same way: named barriers, CTA and
/// cluster barriers, register reallocation between roles.
void populateCommonNVVMPatterns(RewritePatternSet &patterns);
/// sm_80: cp.async, ldmatrix, mma.sync (not built yet: no patterns).
void populateSm80Patterns(RewritePatternSet &patterns,
                          const InstructionOptions &options);
/// sm_90a: TMA + mbarrier stages, wgmma, TMA-store epilogue.
void populateSm90aPatterns(RewritePatternSet &patterns,
                           const InstructionOptions &options);
/// sm_90a's block-scaled FP8 folds (gemmc.block_scales, gemmc.mma_fold).
void populateSm90aBlockScalePatterns(RewritePatternSet &patterns);
/// sm_100a: TMA + tcgen05 + tensor memory (not built yet: no patterns).
void populateSm100aPatterns(RewritePatternSet &patterns,
                            const InstructionOptions &options);

/// The target's patterns, common ones included.
void populateTargetPatterns(::gemmc::Arch arch, RewritePatternSet &patterns,
                            const InstructionOptions &options);

} // namespace mlir::gemmc

#endif // GEMMC_CONVERSION_GEMMCTONVVM_H
