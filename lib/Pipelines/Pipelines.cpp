//===- Pipelines.cpp - gemmc's end-to-end pipelines ----------------------===//
#include "gemmc/Pipelines/Pipelines.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;

void mlir::gemmc::buildLowerToNVVMPipeline(OpPassManager &pm,
                                           const LowerOptions &options) {
  // Phase 1, target-neutral: check the schedule, then build the kernel step
  // by step: its ABI, the shared-memory plan, the warp roles over the stage
  // ring, the tile scheduler, the epilogue's values and stores.
  pm.addPass(createGemmcVerifySchedule());
  pm.addPass(createGemmcTile());
  pm.addPass(createGemmcSmemLayout());
  pm.addPass(createGemmcWarpSpecialize());
  pm.addPass(createGemmcScheduleTiles());
  pm.addPass(createGemmcEpilogue());
  // Phase 2, the target's instructions for what is left of gemmc (the
  // stage ring, the MMA, the stores, barriers and roles).
  pm.addPass(createConvertGemmcToNVVM({options.wgmmaN}));
  // Phase 3: structured control flow and integer arithmetic to LLVM. The
  // module holds nothing but the gpu.module, so these run on all of it.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  // What the activations' polynomials leave of math (fma, absf, copysign);
  // a kernel without an activation has none.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // Phase 4: NVVM ops without an intrinsic (wgmma, mbarrier waits) become
  // inline PTX; then nothing but llvm and nvvm remains.
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::gemmc::registerGemmcPipelines() {
  PassPipelineRegistration<>(
      "gemmc-lower-to-nvvm",
      "Lower gemmc kernels to a gpu.module of LLVM and NVVM ops",
      [](OpPassManager &pm) { buildLowerToNVVMPipeline(pm); });
}

void mlir::gemmc::registerPipelineDependencies(DialectRegistry &registry) {
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

FailureOr<std::string> mlir::gemmc::serializeToPtx(ModuleOp module) {
  PassManager pm(module->getContext());
  GpuModuleToBinaryPassOptions options;
  options.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(options));
  if (failed(pm.run(module)))
    return failure();
  std::string ptx;
  module.walk([&](gpu::BinaryOp binary) {
    for (Attribute obj : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(obj))
        ptx = object.getObject().getValue().str();
  });
  if (ptx.empty())
    return module.emitError("the lowered module holds no gpu.module to serialize");
  return ptx;
}

FailureOr<mlir::gemmc::PtxasResult>
mlir::gemmc::assembleWithPtxas(Location loc, StringRef ptx, StringRef arch,
                               StringRef cudaRoot) {
  llvm::SmallString<128> ptxas(cudaRoot);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!llvm::sys::fs::can_execute(ptxas)) {
    auto found = llvm::sys::findProgramByName("ptxas");
    if (!found)
      return emitError(loc) << "ptxas not found at " << ptxas
                            << " nor on PATH; install the CUDA toolkit or pass "
                               "--cuda-root=DIR";
    ptxas = *found;
  }
  llvm::SmallString<128> in, out, log;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("gemmc", "ptx", fd, in) ||
      llvm::sys::fs::createTemporaryFile("gemmc", "cubin", out) ||
      llvm::sys::fs::createTemporaryFile("gemmc", "log", log))
    return emitError(loc) << "cannot create temporary files for ptxas";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
    llvm::sys::fs::remove(log);
  });
  std::string archFlag = ("-arch=" + arch).str();
  SmallVector<StringRef> argv = {ptxas, archFlag, "-O3", "-v", in, "-o", out};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log),
                                          StringRef(log)};
  std::string errMsg;
  int rc = llvm::sys::ExecuteAndWait(ptxas, argv, std::nullopt, redirects,
                                     /*SecondsToWait=*/120, 0, &errMsg);
  PtxasResult result;
  if (auto buf = llvm::MemoryBuffer::getFile(log))
    result.report = (*buf)->getBuffer().str();
  if (rc != 0)
    return emitError(loc) << "ptxas failed (" << (errMsg.empty() ? "exit " + std::to_string(rc) : errMsg)
                          << "):\n" << result.report;
  auto cubin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  if (!cubin)
    return emitError(loc) << "ptxas wrote no cubin";
  result.cubin = (*cubin)->getBuffer().str();
  return result;
}
