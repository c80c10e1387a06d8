// The cuBLASLt peer of gemmc's FP8 kernels (issue 14): one FP8 GEMM with
// per-tensor (or per-row / per-column) scales, planned once (descriptors and
// the heuristic's algorithm) and run many times, for gemmc-bench.
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
  /// failure ok() is false and why() says what cuBLASLt refused.
  LtFp8Gemm(cublasLtHandle_t lt, const Problem &p, const Operand &a, const Operand &b, cudaDataType outType,
            int64_t ldc, ScaleMode mode, bool fastAccum, size_t workspaceBytes);
  ~LtFp8Gemm();
  LtFp8Gemm(const LtFp8Gemm &) = delete;
  LtFp8Gemm &operator=(const LtFp8Gemm &) = delete;

  bool ok() const { return ok_; }
  const std::string &why() const { return why_; }
  /// Runs on `stream`; scaleA / scaleB are device pointers.
  bool run(const void *a, const void *b, void *c, float alpha, const float *scaleA, const float *scaleB,
           cudaStream_t stream);

private:
  bool fail(const std::string &what, cublasStatus_t s);
  /// The heuristic's first algorithm, with the scale pointers set.
  bool choose();
  cublasLtHandle_t lt_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  bool chosen_ = false;
  size_t workspaceBytes_ = 0;
  DeviceBuffer workspace_;
  bool ok_ = false;
  std::string why_;
};

} // namespace gemmc::harness

#endif
