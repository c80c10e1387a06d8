//===- KernelIR.cpp - Building blocks shared by the lowering passes ------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"

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

Value KernelIR::shuffleIdx(Value v, Value fromLane) {
  return NVVM::ShflOp::create(b, loc, v.getType(), c32(-1), v, fromLane, c32(kWarpSize - 1),
                              NVVM::ShflKind::idx, /*return_value_and_is_valid=*/nullptr);
}

Value KernelIR::uniformWarpgroupId() {
  Value wg = divU(threadId(), c32(kWarpgroupSize));
  return shuffleIdx(wg, c32(0));
}

Value mlir::gemmc::structFields(KernelIR &ir, Value whole, int64_t first, int64_t count) {
  auto fields = cast<LLVM::LLVMStructType>(whole.getType()).getBody().slice(first, count);
  Type type = LLVM::LLVMStructType::getLiteral(ir.b.getContext(), fields);
  Value part = LLVM::PoisonOp::create(ir.b, ir.loc, type);
  for (int64_t r = 0; r < count; ++r)
    part = LLVM::InsertValueOp::create(
        ir.b, ir.loc, part, LLVM::ExtractValueOp::create(ir.b, ir.loc, whole, first + r), r);
  return part;
}

Value mlir::gemmc::joinStructFields(KernelIR &ir, Type whole, ArrayRef<Value> parts) {
  Value joined = LLVM::PoisonOp::create(ir.b, ir.loc, whole);
  int64_t at = 0;
  for (Value part : parts) {
    int64_t count = cast<LLVM::LLVMStructType>(part.getType()).getBody().size();
    for (int64_t r = 0; r < count; ++r)
      joined = LLVM::InsertValueOp::create(
          ir.b, ir.loc, joined, LLVM::ExtractValueOp::create(ir.b, ir.loc, part, r), at++);
  }
  assert(at == int64_t(cast<LLVM::LLVMStructType>(whole).getBody().size()) &&
         "the parts fill the whole struct");
  return joined;
}

Type mlir::gemmc::accumulatorType(ScheduleAttr schedule) {
  MLIRContext *ctx = schedule.getContext();
  SmallVector<Type> fields(schedule.getResources().accRegsPerThread,
                           Float32Type::get(ctx));
  return LLVM::LLVMStructType::getLiteral(ctx, fields);
}

ClusterCoords mlir::gemmc::clusterCoords(KernelIR &ir, const KernelSpec &s) {
  int64_t cx = s.clusterShape[0], cy = s.clusterShape[1];
  if (cx * cy == 1)
    return {};
  Value rank = NVVM::ClusterId::create(ir.b, ir.loc, ir.i32);
  if (cy == 1)
    return {rank, Value()};
  if (cx == 1)
    return {Value(), rank};
  return {ir.remU(rank, ir.c32(cx)), ir.divU(rank, ir.c32(cx))};
}
