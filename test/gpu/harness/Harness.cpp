#include "Harness.h"

#include <sstream>

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace gemmc::harness {

void die(const std::string &what, const char *file, int line) {
  std::fprintf(stderr, "fatal: %s (%s:%d)\n", what.c_str(), file, line);
  std::exit(2);
}

bool gpuAvailable(std::string &why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    return false;
  }
  if (n == 0) {
    why = "no CUDA device";
    return false;
  }
  return true;
}

bool useFirstGpu(std::string &why) {
  if (!gpuAvailable(why))
    return false;
  HARNESS_CUDA(cudaSetDevice(0));
  HARNESS_CUDA(cudaFree(nullptr)); // make the primary context current for the runtime
  return true;
}

DeviceBuffer::DeviceBuffer(size_t n) : bytes(n) {
  HARNESS_CUDA(cudaMalloc(&ptr, n ? n : 16));
}
DeviceBuffer::~DeviceBuffer() {
  if (ptr)
    cudaFree(ptr);
}
DeviceBuffer::DeviceBuffer(DeviceBuffer &&o) noexcept : ptr(o.ptr), bytes(o.bytes) {
  o.ptr = nullptr;
  o.bytes = 0;
}
DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&o) noexcept {
  if (this != &o) {
    if (ptr)
      cudaFree(ptr);
    ptr = o.ptr;
    bytes = o.bytes;
    o.ptr = nullptr;
    o.bytes = 0;
  }
  return *this;
}

int64_t alignedLd(int64_t extent, gemmc_dtype dtype) {
  int64_t mult = 16 / static_cast<int64_t>(gemmc_dtype_bytes(dtype));
  return (extent + mult - 1) / mult * mult;
}

gemmc_dtype Operand::refType() const {
  return (dtype == GEMMC_E4M3 || dtype == GEMMC_E5M2) ? GEMMC_BF16 : dtype;
}

cudaDataType cudaType(gemmc_dtype dtype) {
  switch (dtype) {
  case GEMMC_BF16: return CUDA_R_16BF;
  case GEMMC_F16: return CUDA_R_16F;
  case GEMMC_E4M3: return CUDA_R_8F_E4M3;
  case GEMMC_E5M2: return CUDA_R_8F_E5M2;
  default: return CUDA_R_32F;
  }
}

namespace {

struct Format {
  int expBits, manBits, bias;
};
Format formatOf(gemmc_dtype d) {
  switch (d) {
  case GEMMC_BF16: return {8, 7, 127};
  case GEMMC_F16: return {5, 10, 15};
  case GEMMC_TF32: return {8, 10, 127};
  case GEMMC_E4M3: return {4, 3, 7};
  case GEMMC_E5M2: return {5, 2, 15};
  default: return {8, 23, 127};
  }
}

/// Rounds a normal value to `manBits` mantissa bits (nearest even); returns
/// the exponent and mantissa fields for an encoding with `bias`.
float roundTo(float f, const Format &fmt, uint32_t &expField, uint32_t &manField) {
  int e2;
  float mant = std::frexp(std::fabs(f), &e2); // [0.5, 1)
  int e = e2 - 1;
  double frac = mant * 2.0 - 1.0; // [0, 1)
  double scaled = std::nearbyint(frac * std::ldexp(1.0, fmt.manBits));
  if (scaled >= std::ldexp(1.0, fmt.manBits)) {
    scaled = 0;
    ++e;
  }
  expField = static_cast<uint32_t>(e + fmt.bias);
  manField = static_cast<uint32_t>(scaled);
  double v = (1.0 + scaled / std::ldexp(1.0, fmt.manBits)) * std::ldexp(1.0, e);
  return static_cast<float>(f < 0 ? -v : v);
}

uint64_t splitmix(uint64_t &s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <typename F> void parallelRows(uint64_t rows, F &&f) {
  unsigned nt = std::max(1u, std::min(32u, std::thread::hardware_concurrency()));
  if (rows < 64)
    nt = 1;
  std::vector<std::thread> ts;
  for (unsigned t = 0; t < nt; ++t)
    ts.emplace_back([&, t] {
      for (uint64_t r = t; r < rows; r += nt)
        f(r, t);
    });
  for (auto &t : ts)
    t.join();
}

} // namespace

float decode(gemmc_dtype dtype, const void *bits) {
  if (dtype == GEMMC_F32 || dtype == GEMMC_TF32) {
    float f;
    std::memcpy(&f, bits, 4);
    return f;
  }
  if (dtype == GEMMC_BF16) {
    uint16_t h;
    std::memcpy(&h, bits, 2);
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  Format fmt = formatOf(dtype);
  uint32_t v = dtype == GEMMC_F16 ? *static_cast<const uint16_t *>(bits) : *static_cast<const uint8_t *>(bits);
  int total = 1 + fmt.expBits + fmt.manBits;
  uint32_t sign = (v >> (total - 1)) & 1;
  uint32_t ex = (v >> fmt.manBits) & ((1u << fmt.expBits) - 1);
  uint32_t man = v & ((1u << fmt.manBits) - 1);
  float s = sign ? -1.f : 1.f;
  uint32_t exMax = (1u << fmt.expBits) - 1;
  if (dtype == GEMMC_E4M3) {
    if (ex == exMax && man == (1u << fmt.manBits) - 1)
      return NAN;
  } else if (ex == exMax) {
    return man ? NAN : s * INFINITY;
  }
  if (ex == 0)
    return s * std::ldexp(float(man), 1 - fmt.bias - fmt.manBits);
  return s * std::ldexp(1.f + float(man) / float(1u << fmt.manBits), int(ex) - fmt.bias);
}

gemmc_gemm_args chainArgs(const gemmc_kernel_info &info, int64_t m, int64_t nk, const void *a, int64_t lda,
                          const Operand &w, void *c, int64_t ldc, uint32_t flags) {
  gemmc_gemm_args args;
  gemmc_gemm_args_init(&args);
  args.m = m;
  args.n = nk;
  args.k = nk;
  args.a = a;
  args.lda = lda;
  args.a_type = info.a_type;
  args.a_layout = GEMMC_ROW;
  args.b = w.data.ptr;
  args.ldb = static_cast<int64_t>(w.ld);
  args.b_type = info.b_type;
  args.b_layout = info.b_layout;
  args.c = c;
  args.ldc = ldc;
  args.c_type = info.c_type;
  args.flags = flags;
  return args;
}

int fp8RangeExp2(gemmc_dtype dtype) {
  return dtype == GEMMC_E4M3 ? 8 : dtype == GEMMC_E5M2 ? 15 : 0;
}

Operand makeOperand(gemmc_dtype dtype, uint64_t rows, uint64_t cols, uint64_t ld, uint64_t seed, int exp2) {
  Operand op;
  op.dtype = dtype;
  op.rows = rows;
  op.cols = cols;
  op.ld = ld;
  const size_t eb = gemmc_dtype_bytes(dtype);
  const bool fp8 = dtype == GEMMC_E4M3 || dtype == GEMMC_E5M2;
  std::vector<uint8_t> host(rows * ld * eb);
  std::vector<uint16_t> ref(fp8 ? rows * ld : 0);
  Format fmt = formatOf(dtype);
  parallelRows(rows, [&](uint64_t r, unsigned) {
    uint64_t s = seed * 0x100000001B3ull + r * 0x9E3779B97F4A7C15ull + 1;
    for (uint64_t c = 0; c < ld; ++c) {
      uint64_t x = splitmix(s);
      float mag = 0.125f + 0.875f * float(x >> 40) / float(1 << 24);
      float f = std::ldexp((x & 1) ? -mag : mag, exp2);
      uint32_t ef, mf;
      float q = roundTo(f, fmt, ef, mf);
      uint8_t *dst = &host[(r * ld + c) * eb];
      uint32_t sign = f < 0 ? 1 : 0;
      switch (dtype) {
      case GEMMC_F32:
      case GEMMC_TF32: std::memcpy(dst, &q, 4); break;
      case GEMMC_BF16: {
        uint32_t u;
        std::memcpy(&u, &q, 4);
        uint16_t h = static_cast<uint16_t>(u >> 16);
        std::memcpy(dst, &h, 2);
        break;
      }
      case GEMMC_F16: {
        uint16_t h = static_cast<uint16_t>((sign << 15) | (ef << 10) | mf);
        std::memcpy(dst, &h, 2);
        break;
      }
      default: { // fp8
        *dst = static_cast<uint8_t>((sign << 7) | (ef << fmt.manBits) | mf);
        uint32_t u;
        std::memcpy(&u, &q, 4);
        ref[r * ld + c] = static_cast<uint16_t>(u >> 16); // exact in bf16
        break;
      }
      }
    }
  });
  op.data = DeviceBuffer(host.size());
  HARNESS_CUDA(cudaMemcpy(op.data.ptr, host.data(), host.size(), cudaMemcpyHostToDevice));
  if (fp8) {
    op.refData = DeviceBuffer(ref.size() * 2);
    HARNESS_CUDA(cudaMemcpy(op.refData.ptr, ref.data(), ref.size() * 2, cudaMemcpyHostToDevice));
  }
  return op;
}

BlockScales makeBlockScales(int64_t m, int64_t n, int64_t k, int aExp2, int bExp2, uint64_t seed) {
  constexpr int64_t kBlock = 128, kAlign = 4;
  BlockScales s;
  s.kBlocks = (k + kBlock - 1) / kBlock;
  s.bStride = (s.kBlocks + kAlign - 1) / kAlign * kAlign;
  int64_t nBlocks = (n + kBlock - 1) / kBlock;
  uint64_t state = seed * 0x2545F4914F6CDD1Dull + 7;
  auto random = [&](int exp2) {
    return std::ldexp(0.5f + float(splitmix(state) >> 40) / float(1 << 24), -exp2);
  };
  s.a.resize(static_cast<size_t>(m * s.kBlocks));
  for (float &x : s.a)
    x = random(aExp2);
  s.b.assign(static_cast<size_t>(nBlocks * s.bStride), NAN);
  for (int64_t nb = 0; nb < nBlocks; ++nb)
    for (int64_t kb = 0; kb < s.kBlocks; ++kb)
      s.b[nb * s.bStride + kb] = random(bExp2);
  s.aDev = DeviceBuffer(s.a.size() * 4);
  s.bDev = DeviceBuffer(s.b.size() * 4);
  HARNESS_CUDA(cudaMemcpy(s.aDev.ptr, s.a.data(), s.a.size() * 4, cudaMemcpyHostToDevice));
  HARNESS_CUDA(cudaMemcpy(s.bDev.ptr, s.b.data(), s.b.size() * 4, cudaMemcpyHostToDevice));
  return s;
}

Operand dequantize(const Operand &op, const BlockScales &s, bool isA, int64_t m) {
  // The FP8 values' exact bf16 copies (refData), times their block's scale.
  std::vector<uint16_t> bits(op.rows * op.ld);
  HARNESS_CUDA(cudaMemcpy(bits.data(), op.refPtr(), bits.size() * 2, cudaMemcpyDeviceToHost));
  std::vector<float> out(bits.size());
  parallelRows(op.rows, [&](uint64_t r, unsigned) {
    for (uint64_t c = 0; c < op.ld; ++c) {
      uint32_t u = uint32_t(bits[r * op.ld + c]) << 16;
      float v;
      std::memcpy(&v, &u, 4);
      int64_t kb = c < op.cols ? int64_t(c) / 128 : 0;
      float scale = isA ? s.a[kb * m + int64_t(r)] : s.b[int64_t(r) / 128 * s.bStride + kb];
      out[r * op.ld + c] = v * scale;
    }
  });
  Operand f;
  f.dtype = GEMMC_F32;
  f.rows = op.rows;
  f.cols = op.cols;
  f.ld = op.ld;
  f.data = DeviceBuffer(out.size() * 4);
  HARNESS_CUDA(cudaMemcpy(f.data.ptr, out.data(), out.size() * 4, cudaMemcpyHostToDevice));
  return f;
}

void poisonNaN(void *ptr, gemmc_dtype dtype, size_t count, cudaStream_t stream) {
  CUdeviceptr p = reinterpret_cast<CUdeviceptr>(ptr);
  CUstream s = reinterpret_cast<CUstream>(stream);
  CUresult r;
  switch (dtype) {
  case GEMMC_BF16: r = cuMemsetD16Async(p, 0x7FC0, count, s); break;
  case GEMMC_F16: r = cuMemsetD16Async(p, 0x7E00, count, s); break;
  case GEMMC_F32:
  case GEMMC_TF32: r = cuMemsetD32Async(p, 0x7FC00000u, count, s); break;
  default: r = cuMemsetD8Async(p, 0x7F, count, s); break;
  }
  if (r != CUDA_SUCCESS)
    die("cuMemsetAsync (poison) failed: " + std::to_string(int(r)), __FILE__, __LINE__);
}

bool cublasGemm(cublasHandle_t handle, const Problem &p, const Operand &a, const Operand &b, void *c,
                cudaDataType outType, int64_t ldc, float alpha, bool exactRef, std::string &why) {
  // Row-major C (M x N) is column-major C^T (N x M) = B^T A^T: cuBLAS gets B
  // first. See docs/runtime.md for the layout table.
  gemmc_dtype at = exactRef ? a.refType() : a.dtype;
  gemmc_dtype bt = exactRef ? b.refType() : b.dtype;
  if (at == GEMMC_E4M3 || at == GEMMC_E5M2 || bt == GEMMC_E4M3 || bt == GEMMC_E5M2) {
    why = "fp8 timing through cuBLAS needs cublasLt (not implemented)";
    return false;
  }
  cublasOperation_t opB = p.bLayout == GEMMC_COL ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opA = p.aLayout == GEMMC_ROW ? CUBLAS_OP_N : CUBLAS_OP_T;
  float beta = 0.f;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (!exactRef && (a.dtype == GEMMC_TF32 || b.dtype == GEMMC_TF32))
    compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  cublasStatus_t s = cublasGemmEx(handle, opB, opA, static_cast<int>(p.n), static_cast<int>(p.m),
                                  static_cast<int>(p.k), &alpha, exactRef ? b.refPtr() : b.data.ptr,
                                  cudaType(bt), static_cast<int>(b.ld), exactRef ? a.refPtr() : a.data.ptr,
                                  cudaType(at), static_cast<int>(a.ld), &beta, c, outType, static_cast<int>(ldc),
                                  compute, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) {
    why = std::string("cublasGemmEx: ") + cublasGetStatusString(s);
    return false;
  }
  return true;
}

Comparison compare(const void *dC, gemmc_dtype ctype, int64_t ldc, const float *dRef, int64_t ldRef, int64_t m,
                   int64_t n) {
  const size_t eb = gemmc_dtype_bytes(ctype);
  std::vector<uint8_t> c(static_cast<size_t>(m) * ldc * eb);
  std::vector<float> ref(static_cast<size_t>(m) * ldRef);
  HARNESS_CUDA(cudaMemcpy(c.data(), dC, c.size(), cudaMemcpyDeviceToHost));
  HARNESS_CUDA(cudaMemcpy(ref.data(), dRef, ref.size() * 4, cudaMemcpyDeviceToHost));
  struct Partial {
    double err2 = 0, ref2 = 0, maxAbs = 0, maxRef = 0;
    uint64_t nans = 0, pad = 0;
  };
  std::vector<Partial> parts(64);
  parallelRows(static_cast<uint64_t>(m), [&](uint64_t r, unsigned t) {
    Partial &p = parts[t];
    for (int64_t j = 0; j < n; ++j) {
      float x = decode(ctype, &c[(r * ldc + j) * eb]);
      double y = ref[r * ldRef + j];
      if (std::isnan(x)) {
        ++p.nans;
        continue;
      }
      double d = double(x) - y;
      p.err2 += d * d;
      p.ref2 += y * y;
      p.maxAbs = std::max(p.maxAbs, std::fabs(d));
      p.maxRef = std::max(p.maxRef, std::fabs(y));
    }
    for (int64_t j = n; j < ldc; ++j)
      if (!std::isnan(decode(ctype, &c[(r * ldc + j) * eb])))
        ++p.pad;
  });
  Partial tot;
  for (auto &p : parts) {
    tot.err2 += p.err2;
    tot.ref2 += p.ref2;
    tot.maxAbs = std::max(tot.maxAbs, p.maxAbs);
    tot.maxRef = std::max(tot.maxRef, p.maxRef);
    tot.nans += p.nans;
    tot.pad += p.pad;
  }
  Comparison out;
  out.relFrobenius = tot.ref2 > 0 ? std::sqrt(tot.err2 / tot.ref2) : (tot.err2 > 0 ? INFINITY : 0);
  out.maxAbsOverMaxRef = tot.maxRef > 0 ? tot.maxAbs / tot.maxRef : tot.maxAbs;
  out.nanCount = tot.nans;
  out.paddingWritten = tot.pad;
  return out;
}

Fp8Comparison compareFp8(const void *dC, gemmc_dtype ctype, int64_t ldc, const float *dRef, int64_t ldRef,
                         int64_t m, int64_t n, int64_t k, float outScale) {
  std::vector<uint8_t> c(static_cast<size_t>(m) * ldc);
  std::vector<float> ref(static_cast<size_t>(m) * ldRef);
  HARNESS_CUDA(cudaMemcpy(c.data(), dC, c.size(), cudaMemcpyDeviceToHost));
  HARNESS_CUDA(cudaMemcpy(ref.data(), dRef, ref.size() * 4, cudaMemcpyDeviceToHost));
  Format fmt = formatOf(ctype);
  // Largest finite: e4m3 1.75 x 2^8 = 448 (its all-ones pattern is NaN),
  // e5m2 1.75 x 2^15 = 57344 (its top exponent is inf / NaN).
  double maxFinite = ctype == GEMMC_E4M3 ? 448.0 : 57344.0;
  int minExp = 1 - fmt.bias; // the smallest normal's exponent
  auto scaled = [&](int64_t r, int64_t j) {
    return std::clamp(double(ref[r * ldRef + j]) * outScale, -maxFinite, maxFinite);
  };
  double maxRef = 0;
  for (int64_t r = 0; r < m; ++r)
    for (int64_t j = 0; j < n; ++j)
      maxRef = std::max(maxRef, std::fabs(scaled(r, j)));
  // The kernel's f32 sum is not cuBLAS's: FP8 wgmma accumulates with fewer
  // bits than f32 (fast accumulation), which near zero, where an ulp is
  // small, can exceed it. Allowed on top of the ulp: the measured error of
  // that accumulation, scaled from K = 16384 by sqrt(K), twice, and at
  // least 2^-10 of the largest output (Harness.h).
  const double sumSlack = std::max(
      std::ldexp(maxRef, -10),
      maxRef * 2 * kFp8AccumulationError * std::sqrt(double(std::max<int64_t>(k, 1)) / 16384.0));
  Fp8Comparison out;
  double err2 = 0, ref2 = 0, maxAbs = 0;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      float x = decode(ctype, &c[r * ldc + j]);
      double y = scaled(r, j);
      if (std::isnan(x)) {
        ++out.nanCount;
        continue;
      }
      int e = y == 0 ? minExp : std::max(minExp, std::ilogb(y));
      double ulp = std::ldexp(1.0, e - fmt.manBits);
      double d = std::fabs(double(x) - y);
      out.maxUlp = std::max(out.maxUlp, d / ulp);
      if (d > ulp + sumSlack)
        ++out.ulpOver;
      err2 += d * d;
      ref2 += y * y;
      maxAbs = std::max(maxAbs, d);
    }
    for (int64_t j = n; j < ldc; ++j)
      if (!std::isnan(decode(ctype, &c[r * ldc + j])))
        ++out.paddingWritten;
  }
  out.relFrobenius = ref2 > 0 ? std::sqrt(err2 / ref2) : (err2 > 0 ? INFINITY : 0);
  out.maxAbsOverMaxRef = maxRef > 0 ? maxAbs / maxRef : maxAbs;
  return out;
}

double tolerance(gemmc_dtype ctype, gemmc_dtype abType) {
  if (ctype == GEMMC_BF16 || ctype == GEMMC_F16 || abType == GEMMC_E4M3 || abType == GEMMC_E5M2)
    return 1e-2;
  if (abType == GEMMC_TF32)
    return 1e-3;
  return 1e-4;
}

std::string shapeString(int64_t m, int64_t n, int64_t k) {
  return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
}

bool parseShape(const std::string &s, int64_t &m, int64_t &n, int64_t &k) {
  long long a, b, c;
  char tail;
  if (std::sscanf(s.c_str(), "%lldx%lldx%lld%c", &a, &b, &c, &tail) != 3)
    return false;
  m = a;
  n = b;
  k = c;
  return true;
}

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty())
      out.push_back(item);
  return out;
}

} // namespace gemmc::harness
