// Shared by gemmc-gpu-tests and gemmc-bench: random operands, device buffers,
// the cuBLAS reference (fp32 compute, fp32 output), and the comparison.
#ifndef GEMMC_GPU_HARNESS_H
#define GEMMC_GPU_HARNESS_H

#include "gemmc/runtime.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gemmc::harness {

#define HARNESS_CUDA(call)                                                                         \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess)                                                                         \
      ::gemmc::harness::die(std::string(#call) + ": " + cudaGetErrorString(e_), __FILE__, __LINE__); \
  } while (0)
#define HARNESS_CUBLAS(call)                                                                       \
  do {                                                                                             \
    cublasStatus_t s_ = (call);                                                                    \
    if (s_ != CUBLAS_STATUS_SUCCESS)                                                               \
      ::gemmc::harness::die(std::string(#call) + ": " + cublasGetStatusString(s_), __FILE__, __LINE__); \
  } while (0)

[[noreturn]] void die(const std::string &what, const char *file, int line);

/// Exit code that ctest reads as "skipped" (SKIP_RETURN_CODE).
constexpr int kSkipExitCode = 77;

/// gpuAvailable, then device 0's primary context made current (for the
/// runtime, which uses the current context).
bool useFirstGpu(std::string &why);

/// True if a CUDA device is usable; `why` says why not.
bool gpuAvailable(std::string &why);

struct DeviceBuffer {
  void *ptr = nullptr;
  size_t bytes = 0;
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer(DeviceBuffer &&o) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&o) noexcept;
};

/// Smallest leading dimension >= extent whose byte size is a multiple of 16.
int64_t alignedLd(int64_t extent, gemmc_dtype dtype);

/// One operand: its storage on the device in its own dtype, and a copy that
/// cuBLAS can read exactly (the same buffer except for fp8, which goes to
/// cuBLAS as exactly-equal bf16).
struct Operand {
  gemmc_dtype dtype = GEMMC_DTYPE_UNSET;
  uint64_t rows = 0, cols = 0, ld = 0; // storage: rows x cols, ld elements apart
  DeviceBuffer data;
  DeviceBuffer refData; // empty unless fp8
  const void *refPtr() const { return refData.ptr ? refData.ptr : data.ptr; }
  gemmc_dtype refType() const;
};

/// Fills rows x cols (leading dimension ld) with random non-zero values
/// (|x| in [1/8, 1) x 2^exp2, random sign), exactly representable in
/// `dtype`; padding elements get random values too.
Operand makeOperand(gemmc_dtype dtype, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t seed, int exp2 = 0);

/// The power of two that spreads makeOperand's values over most of an FP8
/// type's range (e4m3 up to 448: [32, 256); e5m2 up to 57344: [4096,
/// 32768)); 0 for the other types. A kernel that takes a scale for the
/// operand gets 2^-exp2 times a factor back as its dequantization scale.
int fp8RangeExp2(gemmc_dtype dtype);

/// Block scales of a `scale: block` FP8 kernel (docs/abi.md, cuBLASLt's
/// VEC128_32F for A and BLK128x128_32F for B): A's M x ceil(K/128) f32,
/// M-major (a[kb * M + row]); B's ceil(N/128) x bStride f32, K-major
/// (b[nb * bStride + kb], bStride = ceil(K/128) rounded up to 4). Random
/// positive values 2^-exp2 x [0.5, 1.5), per block; B's padding K blocks
/// are NaN, so a kernel that reads one fails the comparison.
struct BlockScales {
  int64_t kBlocks = 0, bStride = 0;
  std::vector<float> a, b;
  DeviceBuffer aDev, bDev;
};
BlockScales makeBlockScales(int64_t m, int64_t n, int64_t k, int aExp2, int bExp2, uint64_t seed);

/// The dequantized f32 copy (same storage shape and ld) of a block-scaled
/// FP8 operand, for an f32 cuBLAS reference: `isA` (row-major M x K, scaled
/// by s.a) or B (col-major, N rows of K, scaled by s.b).
Operand dequantize(const Operand &op, const BlockScales &s, bool isA, int64_t m);

/// The arguments of one GEMM of a chain (issue 15's PDL test and bench):
/// A is `a` (row-major, lda), B is `w` in the kernel's layout, C is `c`
/// (ldc); N = K = `nk`.
gemmc_gemm_args chainArgs(const gemmc_kernel_info &info, int64_t m, int64_t nk, const void *a, int64_t lda,
                          const Operand &w, void *c, int64_t ldc, uint32_t flags);

/// Poisons `count` elements of `dtype` at `ptr` with NaN.
void poisonNaN(void *ptr, gemmc_dtype dtype, size_t count, cudaStream_t stream);

struct Problem {
  int64_t m = 0, n = 0, k = 0;
  gemmc_layout aLayout = GEMMC_ROW, bLayout = GEMMC_COL;
};

/// cuBLAS GEMM on the gemmc operands: C (row-major M x N, ldc) =
/// alpha * A * B with fp32 compute. `outType` is CUDA_R_32F for the
/// reference or the kernel's C type for timing. Uses `refPtr()`s when
/// `exactRef`, else the operands' own storage (fp8 needs cublasLt: not
/// supported there, returns false).
bool cublasGemm(cublasHandle_t handle, const Problem &p, const Operand &a, const Operand &b, void *c,
                cudaDataType outType, int64_t ldc, float alpha, bool exactRef, std::string &why);

cudaDataType cudaType(gemmc_dtype dtype);

struct Comparison {
  double relFrobenius = 0; // ||C - ref||_F / ||ref||_F
  double maxAbsOverMaxRef = 0;
  uint64_t nanCount = 0;       // unwritten (still poisoned) or NaN elements in M x N
  uint64_t paddingWritten = 0; // elements between N and ldc that lost their poison
};

/// Compares C (row-major, `ctype`, ldc) with the fp32 reference (row-major,
/// ldRef) over M x N; also checks that padding columns kept their poison.
Comparison compare(const void *dC, gemmc_dtype ctype, int64_t ldc, const float *dRef, int64_t ldRef, int64_t m,
                   int64_t n);

/// An FP8 output (e4m3, e5m2) against the f32 reference times `outScale`
/// (the kernel's scale_d), which is first clamped to the type's largest
/// finite value as the kernel's satfinite convert does. Tolerance: one unit
/// in the last place of the output type at the reference's magnitude (e4m3
/// keeps 3 mantissa bits, e5m2 2; a correctly rounded result is within half
/// of one, and the kernel's f32 sum differs from cuBLAS's in the order of
/// its additions, which may move a value across a rounding boundary), plus
/// an allowance for FP8 wgmma's fast accumulation (which keeps fewer bits
/// than f32: near zero, that is more than an ulp) that grows with sqrt(K):
/// kFp8AccumulationError of the largest output at K = 16384, twice.
/// Measured, not derived: the f32 output of h200_fp8_e4m3_f32_128x128_coop
/// without promotion against an f64 reference at K = 16384 (bench/results/
/// 2026-11-30-session2/promotion-bench.txt). With 2^-10 at every K, one
/// element of 16.7M at 4096^3 was over (the suite, 2026-11-30 session 3).
/// `ulpOver` counts the elements beyond it, `maxUlp` is the largest error in
/// ulps (without the allowance); relFrobenius is filled as compare() does.
struct Fp8Comparison : Comparison {
  uint64_t ulpOver = 0;
  double maxUlp = 0;
};
constexpr double kFp8AccumulationError = 2.72e-3;
Fp8Comparison compareFp8(const void *dC, gemmc_dtype ctype, int64_t ldc, const float *dRef, int64_t ldRef,
                         int64_t m, int64_t n, int64_t k, float outScale);
/// Relative Frobenius error a kernel's output type allows.
double tolerance(gemmc_dtype ctype, gemmc_dtype abType);

float decode(gemmc_dtype dtype, const void *bits);

std::string shapeString(int64_t m, int64_t n, int64_t k);
bool parseShape(const std::string &s, int64_t &m, int64_t &n, int64_t &k);
/// The non-empty pieces of `s` between `sep`s (command-line lists).
std::vector<std::string> split(const std::string &s, char sep);

} // namespace gemmc::harness

#endif
