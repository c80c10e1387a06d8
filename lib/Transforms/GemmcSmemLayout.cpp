//===- GemmcSmemLayout.cpp - Place a CTA's shared-memory buffers ---------===//
//
// Gives each gemmc.tile_matmul its shared memory: a dynamic shared-memory
// symbol per kernel, the base rounded up to a swizzle atom, and the offsets
// of the stage ring, the epilogue's chunk buffers and the barriers
// (#gemmc.smem_layout). The numbers are
// computeResources()'s, so the rules, the model, the manifest and the kernel
// agree on every byte.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Dialect/Gemmc/IR/SmemLayout.h"
#include "gemmc/Transforms/Passes.h"

#define DEBUG_TYPE "gemmc-smem-layout"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCSMEMLAYOUT
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {
struct GemmcSmemLayoutPass
    : mlir::gemmc::impl::GemmcSmemLayoutBase<GemmcSmemLayoutPass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](TileMatmulOp op) {
      if (op.getSmem())
        return WalkResult::advance();
      auto fn = op->getParentOfType<LLVM::LLVMFuncOp>();
      auto gpuModule = op->getParentOfType<gpu::GPUModuleOp>();
      if (!fn || !gpuModule) {
        op.emitOpError("must sit in an llvm.func of a gpu.module");
        return WalkResult::interrupt();
      }
      SmemLayoutAttr layout = smemLayoutFor(op.getSchedule());
      // TMA's swizzled tiles start on a swizzle atom (the barriers' bytes
      // hold the pad); cp.async tiles need their 16-byte units aligned.
      int64_t align = layout.getAlign();
      OpBuilder b(op);
      KernelIR ir(b, op.getLoc());

      // One extern dynamic shared-memory array per kernel.
      std::string name = (fn.getSymName() + "_smem").str();
      auto global = gpuModule.lookupSymbol<LLVM::GlobalOp>(name);
      if (!global) {
        OpBuilder gb = OpBuilder::atBlockBegin(gpuModule.getBody());
        global = LLVM::GlobalOp::create(
            gb, op.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
            /*isConstant=*/false, LLVM::Linkage::External, name,
            /*value=*/Attribute(), /*alignment=*/align,
            kSharedSpace);
      }
      // The dynamic shared-memory base is only guaranteed 16-byte aligned;
      // round it up to a swizzle atom (res.barrierBytes holds the pad).
      Value base = LLVM::AddressOfOp::create(b, op.getLoc(), ir.sharedPtr,
                                             global.getSymName());
      Value addr = LLVM::PtrToIntOp::create(b, op.getLoc(), ir.i32, base);
      Value mask = ir.c32(~int64_t(align - 1));
      Value aligned = ir.andI(ir.add(addr, ir.c32(align - 1)), mask);
      Value alignedBase = ir.sharedAt(base, ir.sub(aligned, addr));

      op.getSmemMutable().assign(alignedBase);
      op.setSmemLayoutAttr(layout);
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
