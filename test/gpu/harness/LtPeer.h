// The cuBLASLt peer of gemmc's FP8 kernels (issue 14): one FP8 GEMM with
// per-tensor, per-row / per-column or block scales, planned once
// (descriptors, and at the first run the variant and the heuristic's
// algorithm) and run many times, for gemmc-bench. With block scales the
// peer may compute D = A^T x B column-major instead of our row-major C
// (transposedOut(): the same bytes and FLOPs, for timing).
#ifndef GEMMC_GPU_LTPEER_H
#define GEMMC_GPU_LTPEER_H

#include "Harness.h"

#include <cublasLt.h>

#include <string>

namespace gemmc::harness {

/// How a scale argument is read: one f32 for the tensor, a vector of f32
/// (M for A, N for B: cuBLASLt's OUTER_VEC_32F), or block scales (A 1x128:
/// VEC128_32F, B 128x128: BLK128x128_32F, in the layouts of docs/abi.md;
/// both pointers 16-byte aligned).
enum class ScaleMode { Tensor, Vector, Block };

class LtFp8Gemm {
public:
  /// C (row-major M x N, ldc, `outType`) = alpha x (scaleA (x) scaleB) x A x B
  /// with A row-major and B col-major FP8 (K contiguous: cuBLASLt's FP8
  /// "TN" form), f32 accumulation. `fastAccum`: no periodic promotion of
  /// the tensor cores' partial sums (what gemmc's kernels do today). On
  /// failure ok() is false and why() says what cuBLASLt refused. An FP8
  /// `outType` (e4m3, e5m2) is D = satfinite(scaleD x ...) as gemmc's c
  /// scale: tensor; cuBLASLt then takes a C of bf16 (unread: beta = 0),
  /// held here. Block scales: `fastAccum` is tried first, then without it.
  LtFp8Gemm(cublasLtHandle_t lt, const Problem &p, const Operand &a, const Operand &b, cudaDataType outType,
            int64_t ldc, ScaleMode mode, bool fastAccum, size_t workspaceBytes);
  ~LtFp8Gemm();
  LtFp8Gemm(const LtFp8Gemm &) = delete;
  LtFp8Gemm &operator=(const LtFp8Gemm &) = delete;

  bool ok() const { return ok_; }
  const std::string &why() const { return why_; }
  /// Runs on `stream`; scaleA / scaleB (and scaleD, for an FP8 output) are
  /// device pointers. The first run chooses the variant and the algorithm.
  bool run(const void *a, const void *b, void *c, float alpha, const float *scaleA, const float *scaleB,
           cudaStream_t stream, const float *scaleD = nullptr);
  /// Every variant the first run tried, with cuBLASLt's answer to each, one
  /// per line ("variant: status"): the evidence when all are refused.
  const std::string &attempts() const { return attempts_; }
  /// True when the chosen variant writes D column-major M x N into a buffer
  /// of its own (`c` untouched): a timing peer, not a result to compare.
  bool transposedOut() const { return variant_.direct; }

private:
  /// How one cuBLASLt call is laid out. `direct` false: row-major C as
  /// C^T = B^T A^T (its A is our B, its B our A: C's own layout). `direct`
  /// true (block scales only): D = A^T(op T) x B with its A our A (VEC128
  /// along K) and its B our B (BLK128x128), D column-major M x N: the same
  /// bytes and FLOPs, the combination cuBLAS documents for Hopper (VEC128 on
  /// A, BLK128x128 on B), which the C^T form cannot ask for.
  struct Variant {
    bool direct = false;
    bool fastAccum = false;
  };
  bool fail(const std::string &what, cublasStatus_t s);
  /// Creates the descriptor and layouts of `v` (destroying any previous).
  bool build(const Variant &v);
  void destroy();
  /// Sets the scale pointers on the descriptor (its A and B are ours or
  /// swapped, as the variant says).
  bool setPointers(const float *scaleA, const float *scaleB, const float *scaleD);
  /// The heuristic's first algorithm for the built variant.
  bool choose();
  /// Tries the variants in order (one for per-tensor and vector scales)
  /// until one runs; records each answer in attempts_.
  bool chooseVariant(const void *a, const void *b, void *c, float alpha, const float *scaleA,
                     const float *scaleB, cudaStream_t stream, const float *scaleD);
  bool launch(const void *a, const void *b, void *c, float alpha, cudaStream_t stream);
  Problem p_;
  int64_t lda_ = 0, ldb_ = 0, ldc_ = 0;
  cudaDataType aType_{}, bType_{}, outType_{};
  ScaleMode mode_ = ScaleMode::Tensor;
  bool fastAccum_ = false;
  Variant variant_;
  std::string attempts_;
  DeviceBuffer dT_; // the direct variant's D (column-major M x N)
  cublasLtHandle_t lt_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  /// D's layout where it differs from C's (an FP8 output), else lc_.
  cublasLtMatrixLayout_t ld_ = nullptr;
  bool fp8Out_ = false;
  DeviceBuffer c16_; // an FP8 output's C (bf16, beta = 0)
  cublasLtMatmulAlgo_t algo_{};
  bool chosen_ = false;
  size_t workspaceBytes_ = 0;
  DeviceBuffer workspace_;
  bool ok_ = false;
  std::string why_;
};

} // namespace gemmc::harness

#endif
