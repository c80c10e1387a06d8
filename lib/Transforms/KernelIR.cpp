//===- KernelIR.cpp - Building blocks shared by the lowering passes ------===//
#include "KernelIR.h"

using namespace mlir;
using namespace mlir::gemmc;

KernelIR::KernelIR(OpBuilder &b, Location loc) : b(b), loc(loc) {
  MLIRContext *ctx = b.getContext();
  i32 = b.getI32Type();
  i64 = b.getI64Type();
  f32 = b.getF32Type();
  ptr = LLVM::LLVMPointerType::get(ctx);
  sharedPtr = LLVM::LLVMPointerType::get(ctx, kSharedSpace);
  sharedClusterPtr = LLVM::LLVMPointerType::get(ctx, kSharedClusterSpace);
  globalPtr = LLVM::LLVMPointerType::get(ctx, kGlobalSpace);
}

Value KernelIR::c32(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
}

Value KernelIR::c64(int64_t v) {
  return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
}

Value KernelIR::sharedAt(Value base, Value offset) {
  return LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), base,
                             ValueRange{offset});
}

void KernelIR::ifThen(Value cond, function_ref<void()> body) {
  auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&op.getThenRegion().front());
  body();
}

Value KernelIR::threadId() { return NVVM::ThreadIdXOp::create(b, loc, i32); }

Value KernelIR::uniformWarpgroupId() {
  Value wg = divU(threadId(), c32(kWarpgroupSize));
  return NVVM::ShflOp::create(b, loc, i32, c32(-1), wg, c32(0), c32(0x1f),
                              NVVM::ShflKind::idx, /*return_value_and_is_valid=*/nullptr);
}

/// Rows of M one cluster covers: its CTAs lie along M, one tile each.
static int64_t clusterRows(const ::gemmc::KernelSpec &s) {
  return s.blockM() * s.clusterShape[0];
}

Value mlir::gemmc::tileCount(KernelIR &ir, const ::gemmc::KernelSpec &s,
                             Value m, Value n) {
  return ir.mul(ir.ceilDiv(m, clusterRows(s)), ir.ceilDiv(n, s.blockN()));
}

std::pair<Value, Value> mlir::gemmc::tileOrigin(KernelIR &ir,
                                                const ::gemmc::KernelSpec &s,
                                                Value tile, Value m, Value n) {
  bool alongM = s.tileScheduler.raster == ::gemmc::Raster::AlongM;
  Value tilesM = ir.ceilDiv(m, clusterRows(s));
  Value tilesN = ir.ceilDiv(n, s.blockN());
  Value major = alongM ? tilesM : tilesN;
  Value minor = alongM ? tilesN : tilesM;
  Value group = ir.c32(s.tileScheduler.group);
  Value perGroup = ir.mul(group, minor);
  Value first = ir.mul(ir.divU(tile, perGroup), group);
  Value groupSize = ir.minU(ir.sub(major, first), group);
  Value inGroup = ir.remU(tile, perGroup);
  Value majorIdx = ir.add(first, ir.remU(inGroup, groupSize));
  Value minorIdx = ir.divU(inGroup, groupSize);
  Value tm = alongM ? majorIdx : minorIdx;
  Value tn = alongM ? minorIdx : majorIdx;
  Value m0 = ir.mul(tm, ir.c32(clusterRows(s)));
  if (s.clusterShape[0] > 1)
    m0 = ir.add(m0, ir.mul(NVVM::ClusterId::create(ir.b, ir.loc, ir.i32),
                           ir.c32(s.blockM())));
  return {m0, ir.mul(tn, ir.c32(s.blockN()))};
}

Type mlir::gemmc::wgmmaAccumulatorType(MLIRContext *ctx,
                                       const ::gemmc::KernelSpec &spec) {
  SmallVector<Type> fields(spec.blockN() / 2, Float32Type::get(ctx));
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

FailureOr<::gemmc::KernelSpec> mlir::gemmc::specOf(Operation *op,
                                                   ScheduleAttr schedule) {
  return specFromSchedule(schedule, [op] { return op->emitOpError(); });
}
