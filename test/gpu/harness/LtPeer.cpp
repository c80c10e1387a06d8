#include "LtPeer.h"

namespace gemmc::harness {

namespace {
size_t cudaTypeBytes(cudaDataType t) {
  switch (t) {
  case CUDA_R_8F_E4M3:
  case CUDA_R_8F_E5M2:
    return 1;
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  default:
    return 4;
  }
}
} // namespace

bool LtFp8Gemm::fail(const std::string &what, cublasStatus_t s) {
  why_ = what + ": " + cublasGetStatusString(s);
  ok_ = false;
  return false;
}

LtFp8Gemm::LtFp8Gemm(cublasLtHandle_t lt, const Problem &p, const Operand &a, const Operand &b,
                     cudaDataType outType, int64_t ldc, ScaleMode mode, bool fastAccum, size_t workspaceBytes)
    : p_(p), lda_(int64_t(a.ld)), ldb_(int64_t(b.ld)), ldc_(ldc), aType_(cudaType(a.dtype)),
      bType_(cudaType(b.dtype)), outType_(outType), mode_(mode), fastAccum_(fastAccum), lt_(lt),
      workspace_(workspaceBytes) {
  if (p.aLayout != GEMMC_ROW || p.bLayout != GEMMC_COL) {
    why_ = "cuBLASLt FP8 takes K-major A and B only";
    return;
  }
  // An FP8 D goes with a 16-bit C in cuBLASLt's FP8 table; with beta = 0
  // C is not read, but it has a layout and a buffer of its own.
  fp8Out_ = outType == CUDA_R_8F_E4M3 || outType == CUDA_R_8F_E5M2;
  if (fp8Out_)
    c16_ = DeviceBuffer(size_t(p.m) * size_t(ldc) * 2);
  // The variant and the algorithm are chosen at the first run, once the
  // scale pointers are set: chosen without them, cuBLASLt picks an unscaled
  // kernel and then refuses the scaled call ("not supported", H200,
  // 2026-11-30).
  workspaceBytes_ = workspaceBytes;
  variant_.fastAccum = fastAccum;
  ok_ = build(variant_);
}

void LtFp8Gemm::destroy() {
  if (ld_ && ld_ != lc_)
    cublasLtMatrixLayoutDestroy(ld_);
  if (lc_)
    cublasLtMatrixLayoutDestroy(lc_);
  if (lb_)
    cublasLtMatrixLayoutDestroy(lb_);
  if (la_)
    cublasLtMatrixLayoutDestroy(la_);
  if (op_)
    cublasLtMatmulDescDestroy(op_);
  op_ = nullptr;
  la_ = lb_ = lc_ = ld_ = nullptr;
}

bool LtFp8Gemm::build(const Variant &v) {
  destroy();
  variant_ = v;
  chosen_ = false;
  cublasStatus_t s;
  if ((s = cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F)) != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulDescCreate", s);
  // Both forms take A and B K-major: its A transposed (op T), its B as is.
  cublasOperation_t transA = CUBLAS_OP_T, transB = CUBLAS_OP_N;
  int8_t fast = v.fastAccum ? 1 : 0;
  int32_t scaleModeA = mode_ == ScaleMode::Tensor ? CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F
                                                  : CUBLASLT_MATMUL_MATRIX_SCALE_OUTER_VEC_32F;
  int32_t scaleModeB = scaleModeA;
  if (mode_ == ScaleMode::Block) {
    // Our A has 1x128 blocks (VEC128 along K), our B 128x128 blocks; its A
    // and B are ours swapped unless the variant is direct.
    scaleModeA = v.direct ? CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F : CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F;
    scaleModeB = v.direct ? CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F : CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F;
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
  // set only for vectors and blocks (with SCALAR_32F set explicitly, CUDA
  // 13.0's cublasLtMatmul refused every per-tensor FP8 call on the H200).
  size_t count = sizeof attrs / sizeof attrs[0] - (mode_ == ScaleMode::Tensor ? 2 : 0);
  for (const Attr *x = attrs; x != attrs + count; ++x)
    if ((s = cublasLtMatmulDescSetAttribute(op_, x->which, x->value, x->size)) != CUBLAS_STATUS_SUCCESS)
      return fail("cublasLtMatmulDescSetAttribute(" + std::to_string(int(x->which)) + ")", s);
  cudaDataType cType = fp8Out_ ? CUDA_R_16BF : outType_;
  // Our A is K x M column-major (ld lda_), our B K x N column-major (ldb_).
  // C^T form: its A is our B, its B our A, C N x M column-major (ldc_: our
  // row-major C). Direct form: its A our A, its B our B, D M x N
  // column-major in dT_ (ld M rounded up to 16 bytes).
  int64_t rowsC = v.direct ? p_.m : p_.n, colsC = v.direct ? p_.n : p_.m;
  int64_t ldC = ldc_;
  if (v.direct) {
    int64_t per16 = int64_t(16 / cudaTypeBytes(cType));
    ldC = (p_.m + per16 - 1) / per16 * per16;
    if (dT_.bytes < size_t(ldC) * size_t(p_.n) * cudaTypeBytes(cType))
      dT_ = DeviceBuffer(size_t(ldC) * size_t(p_.n) * cudaTypeBytes(cType));
  }
  if ((s = cublasLtMatrixLayoutCreate(&la_, v.direct ? aType_ : bType_, p_.k, v.direct ? p_.m : p_.n,
                                      v.direct ? lda_ : ldb_)) != CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatrixLayoutCreate(&lb_, v.direct ? bType_ : aType_, p_.k, v.direct ? p_.n : p_.m,
                                      v.direct ? ldb_ : lda_)) != CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatrixLayoutCreate(&lc_, cType, rowsC, colsC, ldC)) != CUBLAS_STATUS_SUCCESS ||
      (fp8Out_ && (s = cublasLtMatrixLayoutCreate(&ld_, outType_, rowsC, colsC, ldC)) != CUBLAS_STATUS_SUCCESS))
    return fail("cublasLtMatrixLayoutCreate", s);
  if (!fp8Out_)
    ld_ = lc_;
  return ok_ = true;
}

bool LtFp8Gemm::setPointers(const float *scaleA, const float *scaleB, const float *scaleD) {
  cublasStatus_t s;
  const float *itsA = variant_.direct ? scaleA : scaleB, *itsB = variant_.direct ? scaleB : scaleA;
  if ((s = cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &itsA, sizeof itsA)) !=
          CUBLAS_STATUS_SUCCESS ||
      (s = cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &itsB, sizeof itsB)) !=
          CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulDescSetAttribute(scale pointers)", s);
  // D = scaleD x (...), the multiply gemmc's scale_d does.
  if (fp8Out_ && (s = cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, &scaleD,
                                                     sizeof scaleD)) != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmulDescSetAttribute(D_SCALE_POINTER)", s);
  return true;
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
  s = cublasLtMatmulAlgoGetHeuristic(lt_, op_, la_, lb_, lc_, ld_, pref, 1, &result, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  if (s != CUBLAS_STATUS_SUCCESS || found == 0)
    return fail("cublasLtMatmulAlgoGetHeuristic (" + std::string(found ? "" : "no algorithm") + ")",
                s != CUBLAS_STATUS_SUCCESS ? s : CUBLAS_STATUS_NOT_SUPPORTED);
  algo_ = result.algo;
  chosen_ = true;
  return true;
}

bool LtFp8Gemm::chooseVariant(const void *a, const void *b, void *c, float alpha, const float *scaleA,
                              const float *scaleB, cudaStream_t stream, const float *scaleD) {
  // Block scales: the C^T form first (C's own layout), then the direct one;
  // each with the fast accumulation asked for, then without it (PyTorch's
  // blockwise scaled_mm refuses fast accumulation with 1x128 and 128x128
  // blocks). On the H200 with CUDA 13.0 both fast-accumulation forms are
  // refused and the C^T form without it runs (fp8e round 1, 2026-12-01).
  // Per-tensor and vector scales: the C^T form as asked.
  std::vector<Variant> order{{false, fastAccum_}};
  if (mode_ == ScaleMode::Block) {
    order.push_back({true, fastAccum_});
    if (fastAccum_) {
      order.push_back({false, false});
      order.push_back({true, false});
    }
  }
  for (const Variant &v : order) {
    std::string name = std::string(v.direct ? "direct D = A^T B (its A: ours, VEC128; its B: ours, BLK128x128)"
                                            : "C^T = B^T A^T (its A: our B; its B: our A)") +
                       ", fast_accum " + (v.fastAccum ? "1" : "0");
    if (build(v) && setPointers(scaleA, scaleB, scaleD) && choose() && launch(a, b, c, alpha, stream)) {
      attempts_ += name + ": ok\n";
      return true;
    }
    attempts_ += name + ": " + why_ + "\n";
  }
  ok_ = true; // why_ keeps the last refusal; the caller reports attempts()
  return false;
}

LtFp8Gemm::~LtFp8Gemm() { destroy(); }

bool LtFp8Gemm::launch(const void *a, const void *b, void *c, float alpha, cudaStream_t stream) {
  float beta = 0.f;
  void *d = variant_.direct ? dT_.ptr : c;
  const void *cIn = fp8Out_ ? c16_.ptr : d;
  cublasStatus_t s = cublasLtMatmul(lt_, op_, &alpha, variant_.direct ? a : b, la_, variant_.direct ? b : a, lb_,
                                    &beta, cIn, lc_, d, ld_, &algo_, workspace_.ptr, workspace_.bytes, stream);
  if (s != CUBLAS_STATUS_SUCCESS)
    return fail("cublasLtMatmul", s);
  return true;
}

bool LtFp8Gemm::run(const void *a, const void *b, void *c, float alpha, const float *scaleA, const float *scaleB,
                    cudaStream_t stream, const float *scaleD) {
  if (!ok_)
    return false;
  if (!chosen_)
    return chooseVariant(a, b, c, alpha, scaleA, scaleB, stream, scaleD) || (ok_ = false);
  return launch(a, b, c, alpha, stream);
}

} // namespace gemmc::harness
