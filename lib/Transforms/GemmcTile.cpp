//===- GemmcTile.cpp - A gemmc kernel function to a tiled GPU kernel ------===//
//
// Builds the kernel's shell: the gpu.module with its NVVM target, the
// llvm.func with gemmc's ABI, and one gemmc.tile_matmul for the CTA's share
// of the output tiles (the tile scheduler).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/Residency.h"
#include "gemmc/Transforms/EpilogueMath.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

#define DEBUG_TYPE "gemmc-tile"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCTILE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// The kernel function with gemmc's ABI (docs/abi.md).
LLVM::LLVMFuncOp createKernel(OpBuilder &b, Location loc, StringRef name,
                              ScheduleAttr schedule, KernelIR &ir) {
  MLIRContext *ctx = b.getContext();
  // The parameters describeKernelAbi lists, in its order.
  const KernelAbi &abi = schedule.getAbi();
  SmallVector<Type> args;
  SmallVector<unsigned> tensorMaps;
  SmallVector<unsigned> operandArgs;
  unsigned cArg = 0, workspaceArg = 0;
  for (const std::string &p : abi.params) {
    if (StringRef(p).starts_with("tmap_")) {
      tensorMaps.push_back(args.size());
      args.push_back(ir.ptr);
    } else if (p == "c") {
      cArg = args.size();
      args.push_back(ir.globalPtr);
    } else if (p == "bias" || p == "aux") {
      args.push_back(ir.globalPtr);
    } else if (p == "a" || p == "b") {
      operandArgs.push_back(args.size());
      args.push_back(ir.globalPtr);
    } else if (p == "workspace") {
      workspaceArg = args.size();
      args.push_back(ir.globalPtr);
    } else if (p == "scale_a" || p == "scale_b" || p == "scale_d") {
      operandArgs.push_back(args.size());
      args.push_back(ir.globalPtr);
    } else if (p == "alpha" || p == "beta") {
      args.push_back(ir.f32);
    } else {
      args.push_back(ir.i32);
    }
  }
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), args);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, name, fnType);
  const CtaResources &res = schedule.getResources();
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(res.threads), 1, 1}));
  // With setmaxnreg (sm_90a, sm_100a): a register cap at entry
  // (.minnctapersm 1) is what makes setmaxnreg take effect, and one CTA per
  // SM is what the schedule plans for. Without it (sm_80), the CTAs per SM
  // the schedule's resources allow (the model's residency), so that ptxas
  // keeps each thread within that register budget: sm_80 bf16 128x128x32
  // otherwise takes 167 registers and runs one CTA per SM (ncu on the H200,
  // bench/RESULTS.md 2026-11-30).
  // ctas_per_sm (sm_90a): the pool computeResources capped the consumers
  // by is the one ptxas sizes for that many CTAs.
  int64_t ctasPerSm = schedule.getSpec().ctasPerSm;
  if (!isaFor(schedule.getSpec().arch).hasSetmaxnreg)
    ctasPerSm = computeResidency(schedule.getSpec(), res).resident;
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
              b.getI32IntegerAttr(static_cast<int32_t>(ctasPerSm)));
  // Tensor maps are used where they lie, in parameter space.
  for (unsigned i : tensorMaps) {
    fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(),
                                                         kTensorMapBytes)));
    fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                  b.getI64IntegerAttr(kTensorMapAlign));
    fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                  b.getUnitAttr());
  }
  fn.setArgAttr(cArg, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  for (unsigned i : operandArgs)
    fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  if (workspaceArg)
    fn.setArgAttr(workspaceArg, LLVM::LLVMDialect::getNoAliasAttrName(),
                  b.getUnitAttr());
  return fn;
}

/// The factor the epilogue multiplies the accumulators by: alpha times the
/// per-tensor scales (and an FP8 output's, outScaleJoinsAlpha), each an f32
/// read from its pointer once per CTA (so a new scale needs no new launch
/// configuration). A kernel without scales keeps its alpha (or none) as it
/// was.
Value scaledAlpha(OpBuilder &b, Location loc, Value alpha, Value scaleA,
                  Value scaleB, Value scaleD) {
  Value factor = alpha;
  for (Value scale : {scaleA, scaleB, scaleD}) {
    if (!scale)
      continue;
    Value v = LLVM::LoadOp::create(b, loc, b.getF32Type(), scale);
    factor = factor ? arith::MulFOp::create(b, loc, factor, v).getResult() : v;
  }
  return factor;
}

struct GemmcTilePass : mlir::gemmc::impl::GemmcTileBase<GemmcTilePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    module.walk([&](func::FuncOp f) {
      if (f->hasAttr("gemmc.kernel"))
        kernels.push_back(f);
    });
    if (kernels.empty())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    b.getUnitAttr());
    gpu::GPUModuleOp gpuModule;
    for (func::FuncOp f : kernels) {
      auto matmuls = llvm::to_vector(f.getOps<MatmulOp>());
      if (matmuls.size() != 1) {
        f.emitError() << "a gemmc kernel holds exactly one gemmc.matmul, found "
                      << matmuls.size();
        return signalPassFailure();
      }
      MatmulOp op = matmuls.front();
      const KernelSpec *spec = &op.getSchedule().getSpec();
      std::vector<Violation> missing = checkLoweringSupport(*spec);
      for (const Violation &v : missing)
        op.emitOpError() << v.str();
      if (!missing.empty())
        return signalPassFailure();

      if (!gpuModule) {
        auto target = NVVM::NVVMTargetAttr::get(
            ctx, /*optLevel=*/3, /*triple=*/"nvptx64-nvidia-cuda",
            /*chip=*/archName(spec->arch), /*features=*/ptxFeatures(spec->arch));
        b.setInsertionPointToEnd(module.getBody());
        gpuModule = gpu::GPUModuleOp::create(b, f.getLoc(), "gemmc_kernels",
                                             b.getArrayAttr({target}));
      }
      Location loc = f.getLoc();
      b.setInsertionPointToEnd(gpuModule.getBody());
      KernelIR ir(b, loc);
      LLVM::LLVMFuncOp fn =
          createKernel(b, loc, f.getSymName(), op.getSchedule(), ir);
      Block *entry = fn.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      const KernelAbi &abi = op.getSchedule().getAbi();
      auto arg = [&](StringRef name) -> Value {
        auto it = llvm::find(abi.params, name.str());
        if (it == abi.params.end())
          return Value();
        return entry->getArgument(it - abi.params.begin());
      };
      Value m = arg("m"), n = arg("n"), k = arg("k"), ldc = arg("ldc");
      // Per-tensor scales fold into alpha; scale vectors (row / col) are
      // the epilogue's (EpilogueMath).
      auto tensorScale = [&](const OperandSpec &o, StringRef name) {
        return o.scale == Scale::Tensor ? arg(name) : Value();
      };
      // An FP8 output's scale too, where the result is linear in alpha.
      Value alpha = scaledAlpha(b, loc, arg("alpha"), tensorScale(spec->a, "scale_a"),
                                tensorScale(spec->b, "scale_b"),
                                EpilogueMath::outScaleJoinsAlpha(*spec) ? arg("scale_d") : Value());
      Value beta = arg("beta");
      // Cluster c computes cluster tiles c, c + clusters, ...: about one
      // each when the grid has a CTA per tile (data_parallel; with clusters
      // along M and an odd number of tile rows some take two), a persistent
      // loop when it has a CTA per SM (the runtime sizes the grid).
      Value first = NVVM::BlockIdXOp::create(b, loc, ir.i32);
      Value step = NVVM::GridDimXOp::create(b, loc, ir.i32);
      if (int64_t cluster = spec->clusterSize(); cluster > 1) {
        first = ir.divU(first, ir.c32(cluster));
        step = ir.divU(step, ir.c32(cluster));
      }
      // A and B: tensor maps (TMA), or global pointers with their leading
      // dimensions (cp.async).
      Value a = arg("tmap_a") ? arg("tmap_a") : arg("a");
      Value bOperand = arg("tmap_b") ? arg("tmap_b") : arg("b");
      TileMatmulOp::create(b, loc, a, bOperand, arg("tmap_c"), arg("c"), first,
                           step, m, n, k, ldc, alpha, beta, arg("workspace"),
                           /*smem=*/Value(), arg("lda"), arg("ldb"),
                           op.getSchedule(), /*smem_layout=*/nullptr);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      f.erase();
    }
  }
};
} // namespace
