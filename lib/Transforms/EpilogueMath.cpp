//===- EpilogueMath.cpp - The epilogue's per-value math after beta --------===//
#include "gemmc/Transforms/EpilogueMath.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include <cmath>

using namespace mlir;
using namespace mlir::gemmc;

EpilogueMath::EpilogueMath(KernelIR &ir, const KernelSpec &s, Value bias,
                           Value aux, Value m, Value n, Value ld)
    : ir(ir), s(s), bias(bias), aux(aux), m(m), n(n), ld(ld) {}

Value EpilogueMath::constant(double v) {
  return arith::ConstantFloatOp::create(ir.b, ir.loc, ir.b.getF32Type(),
                                        APFloat(static_cast<float>(v)));
}

Value EpilogueMath::activate(Value x) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  auto mul = [&](Value p, Value q) { return arith::MulFOp::create(b, loc, p, q); };
  auto add = [&](Value p, Value q) { return arith::AddFOp::create(b, loc, p, q); };
  auto fma = [&](Value p, Value q, Value r) { return math::FmaOp::create(b, loc, p, q, r); };
  // x/2 (1 + f) as x/2 + x/2 f: one multiply and one fma (both gelu forms,
  // silu's tanh form). Written as fmas: the NVPTX backend contracts no
  // multiply-add (it emits mul.rn / add.rn), and the epilogue's per-value
  // instructions are its cost (bench/lead26/README.md: a fused 128x256 tile
  // spent ~4 K issue cycles on them).
  auto halfXOnePlus = [&](Value f) {
    Value half = mul(constant(0.5), x);
    return fma(half, f, half);
  };
  switch (s.epilogue.activation) {
  case Activation::None:
  case Activation::Identity:
    return x;
  case Activation::Relu:
    // maximumf: a NaN stays NaN, as in the f32 reference.
    return arith::MaximumFOp::create(b, loc, x, constant(0.0));
  case Activation::Gelu:
    return halfXOnePlus(math::ErfOp::create(b, loc, mul(x, constant(M_SQRT1_2))));
  case Activation::GeluTanh: {
    // sqrt(2/pi) (x + 0.044715 x^3) = x (sqrt(2/pi) + sqrt(2/pi) 0.044715 x^2).
    double k0 = std::sqrt(2.0 / M_PI), k1 = k0 * 0.044715;
    Value inner = mul(x, fma(mul(x, x), constant(k1), constant(k0)));
    return halfXOnePlus(tanh(inner));
  }
  case Activation::Silu: {
    if (approximate()) {
      // x sigmoid(x) = x/2 (1 + tanh(x/2)): one tanh, no division.
      return halfXOnePlus(tanh(mul(constant(0.5), x)));
    }
    // x / (1 + e^-x): for x -> -inf, e^-x = inf and the quotient -0.
    Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, x, add(constant(1.0), e));
  }
  }
  llvm_unreachable("activation");
}

bool EpilogueMath::approximate() const {
  // A 16-bit output keeps 8 (bf16) or 11 (f16) bits of the result, which the
  // hardware's tanh (relative error about 2^-11) gives; an f32 output gets
  // the polynomial, accurate to a few ulp.
  return elementBytes(s.c.element) < 4;
}

Value EpilogueMath::tanh(Value x) {
  auto op = math::TanhOp::create(ir.b, ir.loc, x);
  // `afn`: any approximation will do; the target picks its instruction
  // (convert-gemmc-to-nvvm: tanh.approx.f32), and expandMath leaves it.
  if (approximate())
    op.setFastmath(arith::FastMathFlags::afn);
  return op;
}

void EpilogueMath::readScaleVectors(Operation *op, const KernelAbi &abi) {
  if (s.a.scale == Scale::Row)
    rowScale = kernelParam(op, abi, "scale_a");
  if (s.b.scale == Scale::Col)
    colScale = kernelParam(op, abi, "scale_b");
}

Value EpilogueMath::loadScale(Value vector, Value index) {
  // Invariant, as apply()'s element loads: the read-only path, free to move
  // ahead of the stores.
  Value at = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, ir.f32, vector,
                                 ValueRange{index});
  return loadElement(ir.f32, at);
}

Value EpilogueMath::rowScaleAt(Value row) {
  if (!rowScale)
    return Value();
  return loadScale(rowScale, ir.zext64(ir.minU(row, ir.sub(m, ir.c32(1)))));
}

Value EpilogueMath::colScaleAt(Value col) {
  if (!colScale)
    return Value();
  return loadScale(colScale, ir.zext64(ir.minU(col, ir.sub(n, ir.c32(1)))));
}

SmallVector<Value> EpilogueMath::colScalePairsAt(Value first, ArrayRef<int64_t> offsets) {
  // One 8-byte load a pair (ld.global.nc.v2.f32): the pair's index is even
  // (first and the offsets are), and the runtime refuses a per-column
  // scale_b that is not 8-byte aligned (docs/abi.md), so the pair is 8-byte
  // aligned: half the load instructions of two 4-byte loads a pair.
  //
  // Unclamped (fp8s): the TMA-store path, the only caller, sees only tiles
  // inside N (storeTmaOrDirect sends a per-column kernel's tiles over N's
  // edge to the register stores, whose per-value loads are scalar and
  // clamped), so every pair is inside N: one 64-bit address, the pairs at
  // constant offsets from it (ld.global.nc.v2.b32 [%rd+offset]). Session
  // 13's clamp, min(c, N - 2) and a 64-bit address a pair, is gone. (A
  // branch inside the TMA path with both forms had LLVM merge them behind
  // one 64-bit address a column, which spilled the 128x256 kernel.)
  SmallVector<Value> values;
  if (!colScale)
    return values;
  auto pairType = VectorType::get({2}, ir.f32);
  Value base = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, ir.f32, colScale,
                                   ValueRange{ir.zext64(first)});
  for (int64_t offset : offsets) {
    Value at = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, ir.f32, base,
                                   ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
    Value both = LLVM::LoadOp::create(ir.b, ir.loc, pairType, at,
                                      /*alignment=*/kColScaleAlignBytes,
                                      /*isVolatile=*/false, /*isNonTemporal=*/false,
                                      /*isInvariant=*/true);
    for (int64_t e = 0; e < 2; ++e)
      values.push_back(LLVM::ExtractElementOp::create(ir.b, ir.loc, both, ir.c32(e)));
  }
  return values;
}

Value EpilogueMath::element(Value vector, Type type, Value index, Value length) {
  // The index is clamped to the vector, so a value computed outside M x N
  // (the TMA store clips it) reads an element that exists. Invariant: the
  // vector does not change while the kernel runs, so the load may move past
  // the stores of C and aux (which could otherwise alias it) and take the
  // read-only path (ld.global.nc). Without it each thread's bias loads wait
  // one by one between its stores: +29% on decode_mlp_up on the H200
  // (bench/RESULTS.md, 2026-11-30).
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  Value at = LLVM::GEPOp::create(b, loc, ir.globalPtr, type, vector,
                                 ValueRange{ir.zext64(ir.minU(index, ir.sub(length, ir.c32(1))))});
  return loadElement(type, at);
}

Value EpilogueMath::loadElement(Type type, Value at) {
  Value v = LLVM::LoadOp::create(ir.b, ir.loc, type, at, /*alignment=*/0,
                                 /*isVolatile=*/false, /*isNonTemporal=*/false,
                                 /*isInvariant=*/true);
  return type == ir.f32 ? v : arith::ExtFOp::create(ir.b, ir.loc, ir.f32, v).getResult();
}

Value EpilogueMath::rowBiasAt(Value row) {
  if (!bias || s.epilogue.bias != Bias::Row)
    return Value();
  return element(bias, biasType(), row, m);
}

Value EpilogueMath::colBiasAt(Value col) {
  if (!hasColBias())
    return Value();
  return element(bias, biasType(), col, n);
}

SmallVector<Value> EpilogueMath::colBiasRun(Value first, int64_t count) {
  // One 64-bit address, bias + first, and each element at a constant offset
  // from it (ld.global.nc [%rd+2e]): no clamp, no address a value. The
  // runtime checks only the bias's element alignment (docs/abi.md), so the
  // run is loaded element by element, not as a vector.
  SmallVector<Value> values;
  if (!hasColBias())
    return values;
  Type type = biasType();
  Value base = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, type, bias,
                                   ValueRange{ir.zext64(first)});
  for (int64_t e = 0; e < count; ++e) {
    Value at = e == 0 ? base
                      : LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, type, base,
                                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(e)})
                            .getResult();
    values.push_back(loadElement(type, at));
  }
  return values;
}

Type EpilogueMath::biasType() const {
  return storageType(ir.b.getContext(), s.epilogue.biasElement);
}

Value EpilogueMath::apply(Value x, Value row, Value col, Value inside,
                          bool scalesApplied, Value biasValue) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  // FP8 scale vectors (issue 14): f32, one per row of A / column of B.
  if (rowScale && !scalesApplied)
    x = arith::MulFOp::create(b, loc, x, rowScaleAt(row));
  if (colScale && !scalesApplied)
    x = arith::MulFOp::create(b, loc, x, colScaleAt(col));
  if (bias) {
    // One value per row (length M) or per column (length N), unless the
    // caller loaded it (rowBiasAt, colBiasAt, colBiasRun).
    if (!biasValue)
      biasValue = s.epilogue.bias == Bias::Row ? rowBiasAt(row) : colBiasAt(col);
    x = arith::AddFOp::create(b, loc, x, biasValue);
  }
  if (aux) {
    Type auxType = storageType(b.getContext(), s.c.element);
    auto store = [&] {
      Value col64 = ir.zext64(col), ld64 = ir.zext64(ld);
      Value offset = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, ir.zext64(row), ld64), col64);
      Value at = LLVM::GEPOp::create(b, loc, ir.globalPtr, auxType, aux,
                                     ValueRange{offset});
      Value v = auxType == ir.f32 ? x : arith::TruncFOp::create(b, loc, auxType, x);
      LLVM::StoreOp::create(b, loc, v, at);
    };
    if (inside)
      ir.ifThen(inside, store);
    else
      store();
  }
  return activate(x);
}

Value EpilogueMath::kernelParam(Operation *op, const KernelAbi &abi,
                                StringRef name) {
  auto fn = op->getParentOfType<LLVM::LLVMFuncOp>();
  auto it = llvm::find(abi.params, name.str());
  // Only the kernel gemmc-tile builds has the ABI's parameters, in order.
  if (!fn || it == abi.params.end() || fn.getNumArguments() != abi.params.size())
    return Value();
  Value arg = fn.getArgument(it - abi.params.begin());
  return isa<LLVM::LLVMPointerType>(arg.getType()) ? arg : Value();
}

LogicalResult EpilogueMath::expandMath(Operation *root) {
  SmallVector<Operation *> mathOps;
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
      return;
    // Approximations the target lowers to an instruction of its own.
    if (auto tanh = dyn_cast<math::TanhOp>(op))
      if (bitEnumContainsAll(tanh.getFastmath(), arith::FastMathFlags::afn))
        return;
    mathOps.push_back(op);
  });
  // Kernels without an activation are left alone (and byte-identical).
  if (mathOps.empty())
    return success();
  // Only these ops and what they expand into: the rest of the kernel is not
  // folded or simplified here.
  RewritePatternSet patterns(root->getContext());
  populateMathPolynomialApproximationPatterns(patterns);
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(mathOps, std::move(patterns), config);
}
