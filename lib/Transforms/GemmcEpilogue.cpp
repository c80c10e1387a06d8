//===- GemmcEpilogue.cpp - Accumulators to C ------------------------------===//
//
// Lowers gemmc.epilogue: each thread scales its accumulators by alpha, adds
// beta x C, converts to C's type and stores straight from registers, two
// adjacent columns at a time, skipping what lies outside M x N.
//
//===----------------------------------------------------------------------===//
#include "KernelIR.h"
#include "gemmc/Transforms/Passes.h"

#define DEBUG_TYPE "gemmc-epilogue"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCEPILOGUE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

void lowerEpilogue(EpilogueOp op, const KernelSpec &s) {
  OpBuilder b(op);
  KernelIR ir(b, op.getLoc());
  Location loc = op.getLoc();
  Value alpha = op.getAlpha(), beta = op.getBeta(), acc = op.getAcc();
  Value tid = ir.threadId();
  // Accumulator layout of wgmma m64nNk16 (f32): in warp w of the warpgroup,
  // lane l, value 4j + 2h + e sits at row 16w + l/4 + 8h, column
  // 8j + 2(l%4) + e.
  Value lane = ir.remU(tid, ir.c32(kWarpSize));
  Value warp = ir.divU(ir.remU(tid, ir.c32(kWarpgroupSize)), ir.c32(kWarpSize));
  Value rowBase =
      ir.add(ir.add(op.getM0(), ir.mul(ir.warpgroupId(), ir.c32(64))),
             ir.add(ir.mul(warp, ir.c32(16)), ir.divU(lane, ir.c32(4))));
  Value colBase = ir.add(op.getN0(), ir.mul(ir.remU(lane, ir.c32(4)), ir.c32(2)));
  Type outType = storageType(b.getContext(), s.c.element);
  int64_t cb = elementBytes(s.c.element);
  auto pairType = VectorType::get({2}, outType);
  Value ldc = ir.zext64(op.getLdc());

  // As in BLAS, C is not read when beta is 0 (it may hold anything, NaN
  // included).
  Value readC;
  if (beta)
    readC = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, beta,
                                  arith::ConstantFloatOp::create(
                                      b, loc, b.getF32Type(), APFloat(0.0f)));
  // alpha * acc (+ beta * C[at]), in C's type.
  auto finish = [&](Value x, Value at) -> Value {
    if (beta) {
      auto ifRead = scf::IfOp::create(b, loc, TypeRange{ir.f32}, readC,
                                      /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifRead.getThenRegion().front());
      Value old = LLVM::LoadOp::create(b, loc, outType, at);
      if (outType != ir.f32)
        old = arith::ExtFOp::create(b, loc, ir.f32, old);
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::AddFOp::create(
              b, loc, x, arith::MulFOp::create(b, loc, old, beta))});
      b.setInsertionPointToStart(&ifRead.getElseRegion().front());
      scf::YieldOp::create(b, loc, ValueRange{x});
      x = ifRead.getResult(0);
    }
    return outType == ir.f32 ? x : arith::TruncFOp::create(b, loc, outType, x);
  };

  for (int64_t h = 0; h < 2; ++h) {
    Value row = ir.add(rowBase, ir.c32(8 * h));
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), [&] {
      Value rowOffset = arith::MulIOp::create(b, loc, ir.zext64(row), ldc);
      for (int64_t j = 0; j < s.blockN() / 8; ++j) {
        Value col = ir.add(colBase, ir.c32(8 * j));
        Value v[2];
        for (int64_t e = 0; e < 2; ++e) {
          v[e] = LLVM::ExtractValueOp::create(b, loc, acc,
                                              ArrayRef<int64_t>{4 * j + 2 * h + e});
          if (alpha)
            v[e] = arith::MulFOp::create(b, loc, v[e], alpha);
        }
        Value offset = arith::AddIOp::create(b, loc, rowOffset, ir.zext64(col));
        Value addr = LLVM::GEPOp::create(b, loc, ir.globalPtr, outType,
                                         op.getC(), ValueRange{offset});
        // Both columns inside: one paired store (ldc and the column are
        // even, so the pair is aligned). Otherwise only the first may be.
        auto both = scf::IfOp::create(
            b, loc, ir.cmp(arith::CmpIPredicate::ult, ir.add(col, ir.c32(1)), op.getN()),
            /*withElseRegion=*/true);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(&both.getThenRegion().front());
        Value second = LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, addr,
                                           ValueRange{ir.c32(1)});
        Value pair = LLVM::UndefOp::create(b, loc, pairType);
        pair = LLVM::InsertElementOp::create(b, loc, pair, finish(v[0], addr),
                                             ir.c32(0));
        pair = LLVM::InsertElementOp::create(b, loc, pair, finish(v[1], second),
                                             ir.c32(1));
        LLVM::StoreOp::create(b, loc, pair, addr, /*alignment=*/2 * cb);
        b.setInsertionPointToStart(&both.getElseRegion().front());
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, col, op.getN()), [&] {
          LLVM::StoreOp::create(b, loc, finish(v[0], addr), addr,
                                /*alignment=*/cb);
        });
      }
    });
  }
  op.erase();
}

struct GemmcEpiloguePass
    : mlir::gemmc::impl::GemmcEpilogueBase<GemmcEpiloguePass> {
  void runOnOperation() override {
    SmallVector<EpilogueOp> ops;
    getOperation().walk([&](EpilogueOp op) { ops.push_back(op); });
    for (EpilogueOp op : ops) {
      FailureOr<KernelSpec> spec = specOf(op, op.getSchedule());
      if (failed(spec))
        return signalPassFailure();
      lowerEpilogue(op, *spec);
    }
  }
};
} // namespace
