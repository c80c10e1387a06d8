#include "LtPeer.h"

namespace gemmc::harness {

bool LtFp8Gemm::fail(const std::string &what, cublasStatus_t s) {
  why_ = what + ": " + cublasGetStatusString(s);
  ok_ = false;
  return false;
}

LtFp8Gemm::LtFp8Gemm(cublasLtHandle_t lt, const Problem &p, const Operand &a, const Operand &b,
                     cudaDataType outType, int64_t ldc, ScaleMode mode, bool fastAccum, size_t workspaceBytes)
    : lt_(lt), workspace_(workspaceBytes) {
  if (p.aLayout != GEMMC_ROW || p.bLayout != GEMMC_COL) {
    why_ = "cuBLASLt FP8 takes K-major A and B only";
    return;
  }
  // Row-major C (M x N) is column-major C^T = B^T A^T: cuBLASLt's A is our B
  // (K x N column-major, transposed), its B is our A (K x M, as is). So its
  // A scale is our B's.
  cublasStatus_t s;
  if ((s = cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F)) != CUBLAS_STATUS_SUCCESS) {
    fail("cublasLtMatmulDescCreate", s);
    return;
  }
  cublasOperation_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
  int8_t fast = fastAccum ? 1 : 0;
  int32_t scaleModeA = mode == ScaleMode::Tensor ? CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F
                                                 : CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
  int32_t scaleModeB = scaleModeA;
  if (mode == ScaleMode::Block) {
    // Its A is our B (128x128 blocks, K-major), its B our A (1x128 blocks:
    // a vector along its K, M-major, which is its N-major).
    scaleModeA = CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    scaleModeB = CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
  }
  struct Attr {
    cublasLtMatmulDescAttributes_t which;
    const void *value;
    size_t size;
  } attrs[] = {
      {CUBLASLT_MATMUL_DESC_TRANSA, &transA, sizeof transA},
      {CUBLASLT_MATMUL_DESC_TRANSB, &transB, sizeof transB},
      {CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast},
      {CUBLASLT_MATMUL_DESC_A_SCALE_MODE, &scaleModeA, sizeof scaleModeA},
      {CUBLASLT_MATMUL_DESC_B_SCALE_MODE, &scaleModeB, sizeof scaleModeB},
  };
  // Per-tensor scaling is cuBLASLt's default mode: the mode attributes are
  // set only for vectors (with SCALAR_32F set explicitly, CUDA 13.0's
  // cublasLtMatmul refused every per-tensor FP8 call on the H200).
  size_t count = sizeof attrs / sizeof attrs[0] - (mode == ScaleMode::Tensor ? 2 : 0);
  for (const Attr *x = attrs; x != attrs + count; ++x)
    if ((s = cublasLtMatmulDescSetAttribute(op_, x->which, x->value, x->size)) != CUBLAS_STATUS_SUCCESS) {
      fail("cublasLtMatmulDescSetAttribute(" + std::to_string(int(x->which)) + ")", s);
      return;
    }
  if ((s = cublasLtMatrixLayoutCreate(&la_, cudaType(b.dtype), p.k, p.n, b.ld)) != CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatrixLayoutCreate(&lb_, cudaType(a.dtype), p.k, p.m, a.ld)) != CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatrixLayoutCreate(&lc_, outType, p.n, p.m, ldc)) != CUBLAS_STATUS_SUCCESS) {
    fail("cublasLtMatrixLayoutCreate", s);
    return;
  }
  // The algorithm is chosen at the first run, once the scale pointers are
  // set: chosen without them, cuBLASLt picks an unscaled kernel and then
  // refuses the scaled call ("not supported", H200, 2026-11-30).
  workspaceBytes_ = workspaceBytes;
  ok_ = true;
}

bool LtFp8Gemm::choose() {
  cublasStatus_t s;
  cublasLtMatmulPreference_t pref;
  if ((s = cublasLtMatmulPreferenceCreate(&pref)) != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulPreferenceCreate", s);
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspaceBytes_,
                                       sizeof workspaceBytes_);
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  s = cublasLtMatmulAlgoGetHeuristic(lt_, op_, la_, lb_, lc_, lc_, pref, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS || found == 0)
    return fail("cublasLtMatmulAlgoGetHeuristic (" + std::string(found ? "" : "no algorithm") + ")",
                s != CUBLAS_STATUS_SUCCESS ? s : CUBLAS_STATUS_NOT_SUPPORTED);
  algo_ = result.algo;
  chosen_ = true;
  return true;
}

LtFp8Gemm::~LtFp8Gemm() {
  if (lc_)
    cublasLtMatrixLayoutDestroy(lc_);
  if (lb_)
    cublasLtMatrixLayoutDestroy(lb_);
  if (la_)
    cublasLtMatrixLayoutDestroy(la_);
  if (op_)
    cublasLtMatmulDescDestroy(op_);
}

bool LtFp8Gemm::run(const void *a, const void *b, void *c, float alpha, const float *scaleA, const float *scaleB,
                    cudaStream_t stream) {
  if (!ok_)
    return false;
  cublasStatus_t s;
  if ((s = cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &scaleB, sizeof scaleB)) !=
          CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &scaleA, sizeof scaleA)) !=
          CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulDescSetAttribute(scale pointers)", s);
  if (!chosen_ && !choose())
    return false;
  float beta = 0.f;
  s = cublasLtMatmul(lt_, op_, &alpha, b, la_, a, lb_, &beta, c, lc_, c, lc_, &algo_, workspace_.ptr,
                     workspace_.bytes, stream);
  if (s != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmul", s);
  return true;
}

} // namespace gemmc::harness
