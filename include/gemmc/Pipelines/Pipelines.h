//===- Pipelines.h - gemmc's end-to-end pipelines ------------------------===//
//
// Strategy (which kernel a schedule becomes) lives in the passes; these
// functions only say in which order they run and how the result leaves the
// compiler. Registered for gemmc-opt as `gemmc-lower-to-nvvm`.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_PIPELINES_PIPELINES_H
#define GEMMC_PIPELINES_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include <string>

namespace mlir::gemmc {

/// Choices of the lowering that are not part of the schedule: options for
/// ablations and experiments (gemmc's command line), defaults for users.
struct LowerOptions {
  /// Columns of each wgmma.mma_async; 0 = BLOCK_N (wgmmaColumns).
  int64_t wgmmaN = 0;
};

/// gemmc dialect -> a gpu.module of LLVM and NVVM ops (no scf, arith or
/// NVVM ops that need inline PTX left).
void buildLowerToNVVMPipeline(OpPassManager &pm, const LowerOptions &options = {});

/// Registers `gemmc-lower-to-nvvm` with the pass registry.
void registerGemmcPipelines();

/// Everything the pipelines and serialization need beyond the gemmc
/// dialect: NVVM target and LLVM IR translation interfaces.
void registerPipelineDependencies(DialectRegistry &registry);

/// PTX of the single gpu.module of a lowered module.
FailureOr<std::string> serializeToPtx(ModuleOp module);

/// Result of assembling PTX with ptxas.
struct PtxasResult {
  std::string cubin;
  std::string report; ///< ptxas -v output (registers, smem, spills, warnings)
};
/// Runs `<cudaRoot>/bin/ptxas -arch=<arch> -O3 -v` on `ptx`. Fails with a
/// message (emitted at `loc`) when ptxas is missing or rejects the PTX.
FailureOr<PtxasResult> assembleWithPtxas(Location loc, llvm::StringRef ptx,
                                         llvm::StringRef arch,
                                         llvm::StringRef cudaRoot);

} // namespace mlir::gemmc

#endif // GEMMC_PIPELINES_PIPELINES_H
