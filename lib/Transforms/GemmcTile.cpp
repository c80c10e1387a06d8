//===- GemmcTile.cpp - A gemmc kernel function to a tiled GPU kernel ------===//
//
// Builds the kernel's shell: the gpu.module with its NVVM target, the
// llvm.func with gemmc's ABI, the mapping from the CTA's id to its output
// tile, and one gemmc.tile_matmul for the tile.
//
//===----------------------------------------------------------------------===//
#include "KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
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

/// The CTA's output tile: grouped raster as Triton's grouped ordering.
/// Consecutive CTAs walk `group` tiles along the raster dimension, then step
/// across, so that the CTAs of one wave share A and B tiles in L2.
std::pair<Value, Value> mapTile(KernelIR &ir, const KernelSpec &s, Value m,
                                Value n) {
  bool alongM = s.tileScheduler.raster == Raster::AlongM;
  Value tilesM = ir.ceilDiv(m, s.blockM());
  Value tilesN = ir.ceilDiv(n, s.blockN());
  Value major = alongM ? tilesM : tilesN;
  Value minor = alongM ? tilesN : tilesM;
  Value pid = NVVM::BlockIdXOp::create(ir.b, ir.loc, ir.i32);
  Value group = ir.c32(s.tileScheduler.group);
  Value perGroup = ir.mul(group, minor);
  Value first = ir.mul(ir.divU(pid, perGroup), group);
  Value groupSize = ir.minU(ir.sub(major, first), group);
  Value inGroup = ir.remU(pid, perGroup);
  Value majorIdx = ir.add(first, ir.remU(inGroup, groupSize));
  Value minorIdx = ir.divU(inGroup, groupSize);
  Value tm = alongM ? majorIdx : minorIdx;
  Value tn = alongM ? minorIdx : majorIdx;
  return {ir.mul(tm, ir.c32(s.blockM())), ir.mul(tn, ir.c32(s.blockN()))};
}

/// The kernel function with gemmc's ABI (docs/abi.md).
LLVM::LLVMFuncOp createKernel(OpBuilder &b, Location loc, const KernelSpec &s,
                              KernelIR &ir) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> args = {ir.ptr, ir.ptr, ir.globalPtr, ir.i32,
                            ir.i32, ir.i32, ir.i32};
  if (s.epilogue.alpha)
    args.push_back(ir.f32);
  if (s.epilogue.beta)
    args.push_back(ir.f32);
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), args);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, s.name, fnType);
  CtaResources res = computeResources(s);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(res.threads), 1, 1}));
  // A register cap at entry (.minnctapersm 1) is what makes setmaxnreg take
  // effect, and one CTA per SM is what the schedule plans for.
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  // Tensor maps are used where they lie, in parameter space.
  for (int i = 0; i < 2; ++i) {
    fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(),
                                                         kTensorMapBytes)));
    fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                  b.getI64IntegerAttr(kTensorMapAlign));
    fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                  b.getUnitAttr());
  }
  fn.setArgAttr(2, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());
  return fn;
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
      FailureOr<KernelSpec> spec = specOf(op, op.getSchedule());
      if (failed(spec))
        return signalPassFailure();
      spec->name = f.getSymName().str();
      std::vector<Violation> missing = checkLoweringSupport(*spec);
      for (const Violation &v : missing)
        op.emitOpError() << v.str();
      if (!missing.empty())
        return signalPassFailure();

      if (!gpuModule) {
        auto target = NVVM::NVVMTargetAttr::get(
            ctx, /*optLevel=*/3, /*triple=*/"nvptx64-nvidia-cuda",
            /*chip=*/archName(spec->arch), /*features=*/"+ptx80");
        b.setInsertionPointToEnd(module.getBody());
        gpuModule = gpu::GPUModuleOp::create(b, f.getLoc(), "gemmc_kernels",
                                             b.getArrayAttr({target}));
      }
      Location loc = f.getLoc();
      b.setInsertionPointToEnd(gpuModule.getBody());
      KernelIR ir(b, loc);
      LLVM::LLVMFuncOp fn = createKernel(b, loc, *spec, ir);
      Block *entry = fn.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      auto arg = [&](unsigned i) { return entry->getArgument(i); };
      Value m = arg(3), n = arg(4), k = arg(5), ldc = arg(6);
      unsigned next = 7;
      Value alpha = spec->epilogue.alpha ? arg(next++) : Value();
      Value beta = spec->epilogue.beta ? arg(next++) : Value();
      auto [m0, n0] = mapTile(ir, *spec, m, n);
      TileMatmulOp::create(b, loc, arg(0), arg(1), arg(2), m0, n0, m, n, k, ldc,
                           alpha, beta, /*smem=*/Value(), op.getSchedule(),
                           /*smem_layout=*/nullptr);
      LLVM::ReturnOp::create(b, loc, ValueRange{});
      f.erase();
    }
  }
};
} // namespace
