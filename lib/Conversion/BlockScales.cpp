//===- BlockScales.cpp - Where block scales lie (BlockScales.h) ----------===//
#include "BlockScales.h"
#include "gemmc/Spec/Spec.h"

using namespace mlir;

namespace mlir::gemmc {

Value loadScale(KernelIR &ir, Value base, Value index) {
  Value at = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, ir.f32, base,
                                 ValueRange{index});
  return LLVM::LoadOp::create(ir.b, ir.loc, ir.f32, at, /*alignment=*/4,
                              /*isVolatile=*/false, /*isNonTemporal=*/false,
                              /*isInvariant=*/true);
}

Value bScaleStride(KernelIR &ir, Value k) {
  Value kBlocks = ir.ceilDiv(k, kScaleBlock);
  Value bGroups = ir.ceilDiv(kBlocks, kScaleBlockKAlign);
  Value bStride = ir.mul(bGroups, ir.c32(kScaleBlockKAlign));
  return ir.zext64(bStride);
}

Value lastScaleBlock(KernelIR &ir, Value n) {
  Value nBlocks = ir.ceilDiv(n, kScaleBlock);
  return ir.sub(nBlocks, ir.c32(1));
}

Value aScaleIndex(KernelIR &ir, Value aPlane, Value row, Value lastRow) {
  Value clamped = ir.minU(row, lastRow);
  Value row64 = ir.zext64(clamped);
  return arith::AddIOp::create(ir.b, ir.loc, aPlane, row64);
}

Value scaleSlotBlock(KernelIR &ir, Value n0, Value firstBlock, int64_t offset) {
  if (offset % kScaleBlock == 0)
    return ir.add(firstBlock, ir.c32(offset / kScaleBlock));
  Value column = ir.add(n0, ir.c32(offset));
  return ir.divU(column, ir.c32(kScaleBlock));
}

Value bScaleIndex(KernelIR &ir, Value block, Value lastBlock, Value bStride64,
                  Value kt64) {
  Value nb = ir.minU(block, lastBlock);
  Value nb64 = ir.zext64(nb);
  Value plane = arith::MulIOp::create(ir.b, ir.loc, nb64, bStride64);
  return arith::AddIOp::create(ir.b, ir.loc, plane, kt64);
}

} // namespace mlir::gemmc
