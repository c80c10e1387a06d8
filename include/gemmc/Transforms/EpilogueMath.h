//===- EpilogueMath.h - The epilogue's per-value math after beta -*- C++ -*-===//
//
// What a fused epilogue does to one value after alpha x acc + beta x C, in
// the order of docs/spec.md: + bias, the auxiliary (pre-activation) store,
// the activation. Target-neutral (arith, math, scf, llvm loads and stores):
// which values a thread holds, and where, is the caller's (the fragment
// walk of gemmc-epilogue); this is the one place the formula lives.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TRANSFORMS_EPILOGUEMATH_H
#define GEMMC_TRANSFORMS_EPILOGUEMATH_H

#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"

namespace mlir::gemmc {

class EpilogueMath {
public:
  /// `bias` and `aux`: the kernel's pointer parameters of those names (null
  /// when the spec has none); `m`, `n`: the problem; `ld`: aux's leading
  /// dimension (C's, ldc).
  EpilogueMath(KernelIR &ir, const KernelSpec &s, Value bias, Value aux, Value m,
               Value n, Value ld);

  /// FP8 scale vectors (issue 14): with operands.a.scale: row and
  /// operands.b.scale: col, apply() first multiplies x by scale_a[row] and
  /// scale_b[col], the kernel parameters of `op`'s function. (Per-tensor
  /// scales are folded into alpha by gemmc-tile.)
  void readScaleVectors(Operation *op, const KernelAbi &abi);

  /// Whether an FP8 output's scale (scale_d) multiplies alpha, once per CTA
  /// in gemmc-tile as the per-tensor scales do: when the result is linear
  /// in alpha (no bias, no activation). Otherwise the epilogue multiplies
  /// the activated value by it.
  static bool outScaleJoinsAlpha(const KernelSpec &s) {
    return s.c.scale == Scale::Tensor && s.epilogue.bias == Bias::None && !activates(s);
  }

  /// Whether the spec's activation changes the value (not none, identity).
  static bool activates(const KernelSpec &s) {
    return s.epilogue.activation != Activation::None &&
           s.epilogue.activation != Activation::Identity;
  }

  /// Whether apply() does anything beyond the scale vectors: a bias, aux or
  /// an activation.
  static bool fused(const KernelSpec &s) {
    return s.epilogue.bias != Bias::None || s.epilogue.aux || activates(s);
  }

  /// Whether apply() reads or writes memory at (row, col): callers that
  /// compute values outside M x N (the TMA store clips them) pass `inside`.
  bool touchesMemory() const { return bias || aux || rowScale || colScale; }

  /// Whether the spec has a scale vector (a row or a column scale).
  bool hasScaleVectors() const { return rowScale || colScale; }

  /// Whether the spec has a column scale (operands.b.scale: col).
  bool hasColScale() const { return static_cast<bool>(colScale); }

  /// Whether the spec has a bias of one value per column (epilogue.bias:
  /// col).
  bool hasColBias() const { return bias && s.epilogue.bias == Bias::Col; }

  /// bias[row] (row clamped to M) / bias[col] (col clamped to N) in f32, or
  /// a null value without a bias of that kind (as rowScaleAt, colScaleAt):
  /// for callers that load it ahead and pass it to apply() as `biasValue`.
  Value rowBiasAt(Value row);
  Value colBiasAt(Value col);

  /// A per-column bias at columns first .. first + count - 1 in f32 (none
  /// without a per-column bias): one address and a load at a constant
  /// offset from it each, no clamp: the caller guarantees the columns lie
  /// inside N.
  SmallVector<Value> colBiasRun(Value first, int64_t count);

  /// scale_a[row] (row clamped to M), or a null value without a row scale.
  /// For callers that load each scale once per thread and tile ahead of
  /// the stores, then pass `scalesApplied` to apply().
  Value rowScaleAt(Value row);

  /// scale_b[col] (col clamped to N), or a null value without a column
  /// scale: for a caller outside the TMA path, where a tile may cross N.
  Value colScaleAt(Value col);

  /// scale_b[c], scale_b[c + 1] for each pair c = first + offsets[i] (2 x
  /// offsets.size() values; none without a column scale): one 64-bit
  /// address, scale_b + first, and one 8-byte load a pair at a constant
  /// offset from it. No clamp: the caller guarantees that every pair lies
  /// inside N and that first is even.
  SmallVector<Value> colScalePairsAt(Value first, ArrayRef<int64_t> offsets);

  /// x, the f32 value alpha x acc + beta x C at C[row][col], to
  /// activation(x [x scale_a[row]] [x scale_b[col]] + bias); stores x + bias to aux[row][col] when `inside`
  /// (a null `inside`: the caller knows the element is inside M x N).
  /// `scalesApplied`: the caller has multiplied x by the scale vectors
  /// (rowScaleAt, colScalesAt). `biasValue`: the bias at (row, col),
  /// loaded by the caller (rowBiasAt, colBiasAt, colBiasRun); null: apply() loads it.
  Value apply(Value x, Value row, Value col, Value inside,
              bool scalesApplied = false, Value biasValue = Value());

  /// The pointer parameter `name` of the kernel function around `op`, or a
  /// null value when the ABI has none or `op` is not in a function with the
  /// ABI's parameters (describeKernelAbi, as gemmc-tile builds it).
  static Value kernelParam(Operation *op, const KernelAbi &abi, StringRef name);

  /// Expands the math ops the activations use (erf, tanh, exp) into
  /// polynomials of arith ops, which every target lowers alike; a tanh
  /// marked `afn` stays for convert-gemmc-to-nvvm (tanh.approx.f32).
  static LogicalResult expandMath(Operation *root);

private:
  Value constant(double v);
  /// Element `index` (clamped to `length`) of a vector of `type`, in f32:
  /// an invariant load (loadElement).
  Value element(Value vector, Type type, Value index, Value length);
  /// The `type` value at `at`, an invariant load, in f32.
  Value loadElement(Type type, Value at);
  /// The bias vector's storage type (epilogue.bias_element).
  Type biasType() const;
  /// The f32 scale at `vector` + `index`, an invariant load.
  Value loadScale(Value vector, Value index);
  Value activate(Value x);
  /// Whether the output's precision lets the activation use the target's
  /// approximate instructions (math ops marked `afn`).
  bool approximate() const;
  Value tanh(Value x);

  KernelIR &ir;
  const KernelSpec &s;
  Value bias, aux, m, n, ld;
  Value rowScale, colScale;
};

} // namespace mlir::gemmc

#endif // GEMMC_TRANSFORMS_EPILOGUEMATH_H
