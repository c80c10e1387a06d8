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

  /// Whether apply() reads or writes memory at (row, col): callers that
  /// compute values outside M x N (the TMA store clips them) pass `inside`.
  bool touchesMemory() const { return bias || aux; }

  /// x, the f32 value alpha x acc + beta x C at C[row][col], to
  /// activation(x + bias); stores x + bias to aux[row][col] when `inside`
  /// (a null `inside`: the caller knows the element is inside M x N).
  Value apply(Value x, Value row, Value col, Value inside);

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
  Value activate(Value x);
  /// Whether the output's precision lets the activation use the target's
  /// approximate instructions (math ops marked `afn`).
  bool approximate() const;
  Value tanh(Value x);

  KernelIR &ir;
  const KernelSpec &s;
  Value bias, aux, m, n, ld;
};

} // namespace mlir::gemmc

#endif // GEMMC_TRANSFORMS_EPILOGUEMATH_H
