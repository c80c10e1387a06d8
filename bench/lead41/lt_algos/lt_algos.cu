// lt_algos: every cuBLASLt algorithm configuration for one bf16 GEMM, timed on the GPU.
//
//   D (bf16, M x N, row-major) = A (bf16, M x K, row-major) * B^T, B (bf16, N x K, row-major: K-major),
//   f32 compute (CUBLAS_COMPUTE_32F, f32 scale), alpha 1, beta 0, epilogue DEFAULT (or RELU: --epilogue relu).
//
// cuBLASLt is column-major, so the product is computed as D^T (N x M, column-major = D row-major):
//   transa = T on the "A" slot holding our B (stored K x N column-major, ld K),
//   transb = N on the "B" slot holding our A (stored K x M column-major, ld K),
//   m = N, n = M, k = K; C = D (N x M, ld N). In cuBLAS terms this is "TN" (kernel names say _tn).
//
// Modes (README.md beside this file has the details and the output format):
//   lt_algos [M N K] [options]                     enumerate every algo id x tile x stages x swizzle, time each,
//                                                  re-time the best, check them against the heuristic's result
//   lt_algos [M N K] --only-algo ID --tile T --stages S --swizzle W [--custom C]
//                                                  one configuration, 20 timed launches (for ncu)
//   lt_algos [M N K] --run-list ID:T:S:W[:C],...   several configurations, 20 launches each, a marker kernel
//                                                  (grid = index + 1) before each (ncu_names.sh configs)
// Kernel names come from CUPTI's activity API, loaded with dlopen at run time when found (--no-cupti: off).

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cupti.h>  // types only: libcupti is loaded with dlopen (optional at run time)
#include <cxxabi.h>
#include <dlfcn.h>
#include <glob.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "lt_enum_names.h"

// ------------------------------------------------------------------------------------------------ utilities

static const char* enumName(const LtEnumName* t, int id) {
  for (; t->name; ++t)
    if (t->id == id) return t->name;
  return "?";
}
static const char* tileName(uint32_t id) { return enumName(kLtTileNames, (int)id); }
static const char* stagesName(uint32_t id) { return enumName(kLtStagesNames, (int)id); }
static const char* innerName(uint32_t id) { return enumName(kLtInnerShapeNames, (int)id); }
static const char* clusterName(uint32_t id) { return enumName(kLtClusterShapeNames, (int)id); }

static long tileArea(uint32_t id) {
  int a = 0, b = 0;
  if (sscanf(tileName(id), "%dx%d", &a, &b) == 2) return (long)a * b;
  return 0;
}

static const char* ltStatusName(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "LICENSE_ERROR";
    default: return "UNKNOWN";
  }
}

static double nowSec() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

static double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static std::string jsonEsc(const std::string& s) {
  std::string o;
  for (char ch : s) {
    unsigned char c = (unsigned char)ch;
    if (c == '"' || c == '\\') {
      o += '\\';
      o += ch;
    } else if (c < 0x20) {
      char b[8];
      snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += ch;
    }
  }
  return o;
}

// Kernel families by name: "mma.sync" for the Ampere/Turing-style kernels (sm80_xmma, ampere_*, cutlass_80_*,
// cutlass_75_*, s16816 / s1688 / wmma), "wgmma" for Hopper's (sm90_xmma, nvjet, cutlass3x_sm90, ...), else "other".
static const char* kernelStyle(const std::string& n) {
  if (n.empty()) return "unknown";
  static const char* hopper[] = {"sm90_", "sm90a_", "cutlass3x_sm90", "cutlass_90", "gmma", "nvjet"};
  for (const char* h : hopper)
    if (n.find(h) != std::string::npos) return "wgmma";
  static const char* ampere[] = {"sm80_", "sm86_", "sm75_", "ampere_", "turing_", "cutlass_80", "cutlass_75",
                                 "s16816", "s1688", "tensor16x8x16", "tensor16x8x8", "wmma"};
  for (const char* a : ampere)
    if (n.find(a) != std::string::npos) return "mma.sync";
  return "other";
}

// CUPTI gives mangled names: demangled, and for CUTLASS 2.x's cutlass::Kernel<NAME>(Params) just NAME.
static std::string demangle(const std::string& m) {
  int st = 0;
  char* d = abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &st);
  std::string out = st == 0 && d ? d : m;
  free(d);
  return out;
}
static std::string shortKernel(const std::string& d) {
  size_t lt = d.find('<');
  if (d.find("cutlass::Kernel") != std::string::npos && lt != std::string::npos) {
    size_t end = d.find_first_of(">,", lt);
    if (end != std::string::npos) return d.substr(lt + 1, end - lt - 1);
  }
  std::string s = d.rfind("void ", 0) == 0 ? d.substr(5) : d;
  size_t par = s.find('(');
  return par == std::string::npos ? s : s.substr(0, par);
}

// ------------------------------------------------------------------------------------------------ CUPTI (dlopen)

namespace cupti {
struct Rec {
  std::string name;
  uint64_t start = 0, end = 0;
  int grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int regs = 0, smem = 0;
};
typedef CUptiResult(CUPTIAPI* RegisterFn)(CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult(CUPTIAPI* KindFn)(CUpti_ActivityKind);
typedef CUptiResult(CUPTIAPI* FlushFn)(uint32_t);
typedef CUptiResult(CUPTIAPI* NextFn)(uint8_t*, size_t, CUpti_Activity**);
typedef CUptiResult(CUPTIAPI* StrFn)(CUptiResult, const char**);

static bool on = false;
static std::string path, why = "not tried";
static RegisterFn pRegister;
static KindFn pEnable, pDisable;
static FlushFn pFlush;
static NextFn pNext;
static StrFn pStr;
static std::mutex mu;
static std::vector<Rec> recs;

static void CUPTIAPI bufRequested(uint8_t** buf, size_t* size, size_t* maxRecords) {
  *size = 8u << 20;
  *buf = (uint8_t*)aligned_alloc(64, *size);
  *maxRecords = 0;
}

static void CUPTIAPI bufCompleted(CUcontext, uint32_t, uint8_t* buf, size_t, size_t valid) {
  CUpti_Activity* r = nullptr;
  std::vector<Rec> got;
  while (buf && pNext(buf, valid, &r) == CUPTI_SUCCESS) {
    if (r->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && r->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    const CUpti_ActivityKernel10* k = (const CUpti_ActivityKernel10*)r;
    Rec x;
    x.name = k->name ? demangle(k->name) : "?";
    x.start = k->start;
    x.end = k->end;
    x.grid[0] = k->gridX, x.grid[1] = k->gridY, x.grid[2] = k->gridZ;
    x.block[0] = k->blockX, x.block[1] = k->blockY, x.block[2] = k->blockZ;
    x.regs = k->registersPerThread;
    x.smem = k->staticSharedMemory + k->dynamicSharedMemory;
    got.push_back(std::move(x));
  }
  free(buf);
  std::lock_guard<std::mutex> g(mu);
  recs.insert(recs.end(), got.begin(), got.end());
}

static std::vector<std::string> candidates() {
  std::vector<std::string> c;
  if (const char* e = getenv("LT_ALGOS_CUPTI")) c.push_back(e);
  c.push_back("libcupti.so.13");
  c.push_back("libcupti.so");
  const char* globs[] = {"/usr/local/cuda/lib/libcupti.so*",
                         "/usr/local/cuda/lib64/libcupti.so*",
                         "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so*",
                         "/usr/local/cuda-*/lib/libcupti.so*",
                         "/usr/local/cuda-*/lib64/libcupti.so*",
                         "/usr/local/cuda-*/extras/CUPTI/lib64/libcupti.so*",
                         "/opt/torch/.venv/lib/python3*/site-packages/nvidia/cu13/lib/libcupti.so*",
                         "/opt/torch/.venv/lib/python3*/site-packages/nvidia/cuda_cupti/lib/libcupti.so*",
                         "/usr/local/lib/python3*/dist-packages/nvidia/cu13/lib/libcupti.so*",
                         "/usr/local/lib/python3*/dist-packages/nvidia/cuda_cupti/lib/libcupti.so*",
                         "/usr/lib/python3/dist-packages/nvidia/cu13/lib/libcupti.so*"};
  for (const char* g : globs) {
    glob_t gl;
    if (glob(g, 0, nullptr, &gl) == 0) {
      for (size_t i = 0; i < gl.gl_pathc; ++i) c.push_back(gl.gl_pathv[i]);
      globfree(&gl);
    }
  }
  return c;
}

static std::string err(CUptiResult r) {
  const char* s = nullptr;
  if (pStr) pStr(r, &s);
  return s ? s : ("CUPTI error " + std::to_string((int)r));
}

static bool init() {
  void* h = nullptr;
  for (const std::string& p : candidates()) {
    h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h) {
      path = p;
      break;
    }
  }
  if (!h) {
    why = "libcupti not found (set LT_ALGOS_CUPTI=/path/libcupti.so.13)";
    return false;
  }
  pRegister = (RegisterFn)dlsym(h, "cuptiActivityRegisterCallbacks");
  pEnable = (KindFn)dlsym(h, "cuptiActivityEnable");
  pDisable = (KindFn)dlsym(h, "cuptiActivityDisable");
  pFlush = (FlushFn)dlsym(h, "cuptiActivityFlushAll");
  pNext = (NextFn)dlsym(h, "cuptiActivityGetNextRecord");
  pStr = (StrFn)dlsym(h, "cuptiGetResultString");
  if (!pRegister || !pEnable || !pDisable || !pFlush || !pNext) {
    why = "missing symbols in " + path;
    return false;
  }
  CUptiResult r = pRegister(bufRequested, bufCompleted);
  if (r != CUPTI_SUCCESS) {
    why = "cuptiActivityRegisterCallbacks: " + err(r);
    return false;
  }
  r = pEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r != CUPTI_SUCCESS) {
    why = "cuptiActivityEnable: " + err(r);
    return false;
  }
  on = true;
  why = "";
  return true;
}

// All kernel records completed since the last call (the caller has synchronized the stream).
static std::vector<Rec> take() {
  std::vector<Rec> out;
  if (!on) return out;
  pFlush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> g(mu);
  out.swap(recs);
  return out;
}

static void shutdown() {
  if (!on) return;
  pFlush(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  pDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  on = false;
}
}  // namespace cupti

// ------------------------------------------------------------------------------------------------ device kernels

__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform in [-1, 1], never zero: |v| >= 1/64 (values near zero are pushed out).
__global__ void lt_algos_fill_bf16(__nv_bfloat16* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t h = splitmix64(seed ^ (i * 0xD1B54A32D192ED03ull));
    float u = (float)(h >> 40) * (1.0f / 16777216.0f);  // [0, 1)
    float v = 2.0f * u - 1.0f;
    if (fabsf(v) < 1.0f / 64) v = copysignf(1.0f / 64 + fabsf(v), v);
    p[i] = __float2bfloat16(v);
  }
}

// Marker for ncu: its grid size (index + 1) tells which --run-list entry the following kernels belong to.
__global__ void lt_algos_marker(int) {}

struct DiffStats {
  unsigned int maxdiff_bits;  // max |d - r| as float bits (non-negative floats order as unsigned ints)
  unsigned int maxref_bits;
  unsigned long long bad;     // |d - r| > 2^-7 * max(|d|, |r|) + 1e-3 (about one bf16 ulp)
  unsigned long long nan;
};

__global__ void lt_algos_diff(const __nv_bfloat16* d, const __nv_bfloat16* r, size_t n, DiffStats* s) {
  float mx = 0, mr = 0;
  unsigned long long bad = 0, nan = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float a = __bfloat162float(d[i]), b = __bfloat162float(r[i]);
    if (isnan(a) || isnan(b) || isinf(a) || isinf(b)) {
      ++nan;
      continue;
    }
    float e = fabsf(a - b);
    mx = fmaxf(mx, e);
    mr = fmaxf(mr, fabsf(b));
    if (e > 0.0078125f * fmaxf(fabsf(a), fabsf(b)) + 1e-3f) ++bad;
  }
  atomicMax(&s->maxdiff_bits, __float_as_uint(mx));
  atomicMax(&s->maxref_bits, __float_as_uint(mr));
  if (bad) atomicAdd(&s->bad, bad);
  if (nan) atomicAdd(&s->nan, nan);
}

// One warp per sampled element: f32 dot product of A's row m and B's row n (both K-contiguous) against D[m][n].
__global__ void lt_algos_ref_sample(const __nv_bfloat16* A, const __nv_bfloat16* B, const __nv_bfloat16* D, int M,
                                    int N, int K, int nsamp, int relu, uint64_t seed, DiffStats* s) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= nsamp) return;
  uint64_t h = splitmix64(seed + warp);
  int m = (int)(h % (uint64_t)M), n = (int)((h >> 32) % (uint64_t)N);
  if (warp == 0) m = 0, n = 0;
  if (warp == 1) m = M - 1, n = N - 1;
  float acc = 0;
  for (int k = lane; k < K; k += 32)
    acc += __bfloat162float(A[(size_t)m * K + k]) * __bfloat162float(B[(size_t)n * K + k]);
  for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane) return;
  if (relu) acc = fmaxf(acc, 0.f);
  float d = __bfloat162float(D[(size_t)m * N + n]);
  float e = fabsf(d - acc);
  if (isnan(d)) {
    atomicAdd(&s->nan, 1ull);
    return;
  }
  atomicMax(&s->maxdiff_bits, __float_as_uint(e));
  atomicMax(&s->maxref_bits, __float_as_uint(fabsf(acc)));
  // bf16 rounding of the result (half an ulp, <= 2^-8 |x|) plus f32 accumulation-order slack.
  if (e > 0.0078125f * fabsf(acc) + 1e-3f * sqrtf((float)K)) atomicAdd(&s->bad, 1ull);
}

// ------------------------------------------------------------------------------------------------ host state

#define CUDA_OK(x)                                                                                     \
  do {                                                                                                 \
    cudaError_t e_ = (x);                                                                              \
    if (e_ != cudaSuccess) fatal("%s:%d: %s: %s", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
  } while (0)

struct Cfg {
  int algo = -1;
  uint32_t tile = 0, stages = 0, swizzle = 0, custom = 0;
  uint16_t inner = 0, cluster = 0;
  int32_t splitk = 1;
  uint32_t reduction = 0;
};

struct KInfo {
  std::string name;
  int count = 0;
  double med_us = -1, min_us = -1;
  int grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int regs = 0, smem = 0;
};

struct Res {
  Cfg c;
  cublasLtMatmulAlgo_t algo;
  size_t ws = 0;
  float waves = 0;
  std::string source = "enum";  // enum | heuristic | single
  int heurRank = -1;
  std::string status = "untimed";  // ok | slow | launch:<err> | untimed
  double ms = -1;                  // median of --reps (enumeration) or --top-reps (heuristic #0, single)
  double ms20 = -1;                // re-timed median (top configs)
  std::vector<KInfo> kern;         // CUPTI, longest total time first
  double maxdiff = -1, maxref = -1;
  long long bad = -1, nan = -1;
  const char* style() const { return kern.empty() ? "unknown" : kernelStyle(kern[0].name); }
  std::string kname() const { return kern.empty() ? std::string("?") : shortKernel(kern[0].name); }
};

struct AlgoInfo {
  int id = -1;
  bool initOk = false;
  std::vector<uint32_t> tiles, stages;
  int32_t splitk = 0, customMax = 0;
  uint32_t swizzle = 0, epilogueMask = 0, redMask = 0;
  uint32_t alignA = 0, alignB = 0, alignC = 0, alignD = 0;
  uint64_t numFlags = 0;
  long candidates = 0, checked = 0, ok = 0, rejected = 0, wsTooBig = 0, timed = 0;
  std::map<std::string, int> rejectReasons;
};

struct Opts {
  long M = 4096, N = 4096, K = 4096;
  std::string json;
  int reps = 5, topN = 15, topReps = 20, heurCount = 32, singleReps = 20;
  long maxConfigs = 3000, maxChecks = 200000;
  double maxSeconds = 55, checkSeconds = 15, slowFactor = 8, slowFloorMs = 0.2;
  size_t wsBytes = 64ull << 20;
  std::string epilogue = "none";
  bool innerAll = false, noCupti = false, verifySingle = false;
  std::vector<int> algoFilter, algoSkip;
  std::vector<Cfg> runList;
  bool single = false;
  uint64_t seed = 1234;
  int maxAlgoIds = 200;
};

static Opts g_opt;
static cublasLtHandle_t g_lt;
static cublasLtMatmulDesc_t g_op;
static cublasLtMatrixLayout_t g_Adesc, g_Bdesc, g_Cdesc;
static cudaStream_t g_stream;
static __nv_bfloat16 *g_A, *g_B, *g_D, *g_Ref;
static void* g_ws;
static DiffStats* g_stats;
static std::vector<cudaEvent_t> g_ev;
static std::vector<AlgoInfo> g_algos;
static std::vector<Res> g_results, g_heur;
static std::vector<size_t> g_top;  // indices into g_results, re-timed
static std::map<std::string, std::string> g_meta;
static std::map<std::string, long> g_counts;
static Res g_refRes;
static bool g_haveRef = false;
static std::string g_refCheck;
static const float kAlpha = 1.0f, kBeta = 0.0f;
static std::string g_current;  // the configuration being launched (named by fatal())
static volatile sig_atomic_t g_stop = 0;  // SIGTERM / SIGINT: finish early, still print and write the JSON
static void onSignal(int) { g_stop = 1; }

static void writeJson(const char* why);

[[noreturn]] static void fatal(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void fatal(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "lt_algos: fatal: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  if (!g_current.empty()) fprintf(stderr, "lt_algos: while running %s (leave it out with --skip-algos)\n", g_current.c_str());
  fflush(stdout);
  writeJson("fatal");
  exit(3);
}

static double tflops(double ms) {
  return ms > 0 ? 2.0 * g_opt.M * g_opt.N * g_opt.K / (ms * 1e-3) / 1e12 : 0;
}

// ------------------------------------------------------------------------------------------------ cuBLASLt helpers

template <class T>
static bool capScalar(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoCapAttributes_t at, T& v) {
  size_t w = 0;
  return cublasLtMatmulAlgoCapGetAttribute(&a, at, &v, sizeof(v), &w) == CUBLAS_STATUS_SUCCESS;
}

static std::vector<uint32_t> capList(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoCapAttributes_t at) {
  size_t need = 0;
  if (cublasLtMatmulAlgoCapGetAttribute(&a, at, nullptr, 0, &need) != CUBLAS_STATUS_SUCCESS) return {};
  std::vector<uint32_t> v(need / sizeof(uint32_t));
  if (!v.empty() && cublasLtMatmulAlgoCapGetAttribute(&a, at, v.data(), v.size() * sizeof(uint32_t), &need) !=
                        CUBLAS_STATUS_SUCCESS)
    return {};
  return v;
}

template <class T>
static T cfgGet(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoConfigAttributes_t at, T dflt) {
  T v = dflt;
  size_t w = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&a, at, &v, sizeof(v), &w) != CUBLAS_STATUS_SUCCESS) return dflt;
  return v;
}

static Cfg cfgOf(const cublasLtMatmulAlgo_t& a) {
  Cfg c;
  c.algo = cfgGet<int32_t>(a, CUBLASLT_ALGO_CONFIG_ID, -1);
  c.tile = cfgGet<uint32_t>(a, CUBLASLT_ALGO_CONFIG_TILE_ID, 0);
  c.stages = cfgGet<uint32_t>(a, CUBLASLT_ALGO_CONFIG_STAGES_ID, 0);
  c.swizzle = cfgGet<uint32_t>(a, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, 0);
  c.custom = cfgGet<uint32_t>(a, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, 0);
  c.splitk = cfgGet<int32_t>(a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, 1);
  c.reduction = cfgGet<uint32_t>(a, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, 0);
  c.inner = cfgGet<uint16_t>(a, CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, 0);
  c.cluster = cfgGet<uint16_t>(a, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, 0);
  return c;
}

static bool algoInit(int id, cublasLtMatmulAlgo_t& a) {
  return cublasLtMatmulAlgoInit(g_lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF,
                                CUDA_R_16BF, id, &a) == CUBLAS_STATUS_SUCCESS;
}

// Sets the configuration on an initialized algo; "" on success, else which attribute failed.
static std::string applyCfg(cublasLtMatmulAlgo_t& a, const Cfg& c) {
  auto set = [&](cublasLtMatmulAlgoConfigAttributes_t at, const void* v, size_t n, const char* what) {
    return cublasLtMatmulAlgoConfigSetAttribute(&a, at, v, n) == CUBLAS_STATUS_SUCCESS ? std::string()
                                                                                        : std::string(what);
  };
  std::string e;
  if ((e = set(CUBLASLT_ALGO_CONFIG_TILE_ID, &c.tile, sizeof c.tile, "set_tile")) != "") return e;
  if ((e = set(CUBLASLT_ALGO_CONFIG_STAGES_ID, &c.stages, sizeof c.stages, "set_stages")) != "") return e;
  // The rest only where it differs from what cublasLtMatmulAlgoInit leaves (splitK 1, swizzle 0, custom 0, ...).
  if (c.splitk != 1 && (e = set(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &c.splitk, sizeof c.splitk, "set_splitk")) != "")
    return e;
  if (c.splitk > 1 &&
      (e = set(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &c.reduction, sizeof c.reduction, "set_reduction")) != "")
    return e;
  if (c.swizzle && (e = set(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, &c.swizzle, sizeof c.swizzle, "set_swizzle")) != "")
    return e;
  if (c.custom && (e = set(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, &c.custom, sizeof c.custom, "set_custom")) != "")
    return e;
  if (c.inner && (e = set(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, &c.inner, sizeof c.inner, "set_inner")) != "")
    return e;
  if (c.cluster && (e = set(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, &c.cluster, sizeof c.cluster, "set_cluster")) != "")
    return e;
  return "";
}

// AlgoCheck; "" when the configuration can run with the workspace we have.
static std::string checkAlgo(const cublasLtMatmulAlgo_t& a, size_t& ws, float& waves) {
  cublasLtMatmulHeuristicResult_t hr;
  memset(&hr, 0, sizeof hr);
  cublasStatus_t st = cublasLtMatmulAlgoCheck(g_lt, g_op, g_Adesc, g_Bdesc, g_Cdesc, g_Cdesc, &a, &hr);
  if (st != CUBLAS_STATUS_SUCCESS) return std::string("check:") + ltStatusName(st);
  if (hr.state != CUBLAS_STATUS_SUCCESS) return std::string("state:") + ltStatusName(hr.state);
  ws = hr.workspaceSize;
  waves = hr.wavesCount;
  if (ws > g_opt.wsBytes) return "workspace";
  return "";
}

static cublasStatus_t launch(const cublasLtMatmulAlgo_t* a, __nv_bfloat16* D) {
  // "A" slot: our B (N x K row-major), "B" slot: our A (M x K row-major); see the header comment.
  return cublasLtMatmul(g_lt, g_op, &kAlpha, g_B, g_Adesc, g_A, g_Bdesc, &kBeta, D, g_Cdesc, D, g_Cdesc, a, g_ws,
                        g_opt.wsBytes, g_stream);
}

static void syncOrDie(const char* what) {
  cudaError_t e = cudaStreamSynchronize(g_stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess) fatal("%s: %s", what, cudaGetErrorString(e));
}

// Times n launches, one event pair each; returns the per-launch times in ms. Empty on a launch error.
static std::vector<double> timeLaunches(const cublasLtMatmulAlgo_t& a, int n, cublasStatus_t& st) {
  if ((int)g_ev.size() < 2 * n) {
    size_t old = g_ev.size();
    g_ev.resize(2 * n);
    for (size_t i = old; i < g_ev.size(); ++i) CUDA_OK(cudaEventCreate(&g_ev[i]));
  }
  st = CUBLAS_STATUS_SUCCESS;
  for (int i = 0; i < n; ++i) {
    CUDA_OK(cudaEventRecord(g_ev[2 * i], g_stream));
    st = launch(&a, g_D);
    CUDA_OK(cudaEventRecord(g_ev[2 * i + 1], g_stream));
    if (st != CUBLAS_STATUS_SUCCESS) break;
  }
  syncOrDie("timed launches");
  std::vector<double> t;
  if (st != CUBLAS_STATUS_SUCCESS) return t;
  for (int i = 0; i < n; ++i) {
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, g_ev[2 * i], g_ev[2 * i + 1]));
    t.push_back(ms);
  }
  return t;
}

// Groups CUPTI records by kernel name, longest total time first; our own fill/diff/marker kernels are left out.
static std::vector<KInfo> summarize(const std::vector<cupti::Rec>& recs) {
  std::map<std::string, std::vector<const cupti::Rec*>> by;
  for (const cupti::Rec& r : recs)
    if (r.name.find("lt_algos_") == std::string::npos && r.end > r.start)  // not our own kernels; complete
      by[r.name].push_back(&r);
  std::vector<std::pair<double, KInfo>> v;
  for (auto& kv : by) {
    KInfo k;
    k.name = kv.first;
    k.count = (int)kv.second.size();
    std::vector<double> us;
    double tot = 0;
    for (const cupti::Rec* r : kv.second) {
      double u = (r->end - r->start) * 1e-3;
      us.push_back(u);
      tot += u;
    }
    k.med_us = median(us);
    k.min_us = *std::min_element(us.begin(), us.end());
    const cupti::Rec* last = kv.second.back();
    for (int i = 0; i < 3; ++i) k.grid[i] = last->grid[i], k.block[i] = last->block[i];
    k.regs = last->regs;
    k.smem = last->smem;
    v.push_back({tot, k});
  }
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<KInfo> out;
  for (auto& p : v) out.push_back(p.second);
  return out;
}

// Warm-up, a probe launch, then `reps` timed launches (skipped when the probe is slower than slowMs).
static std::string cfgStr(const Cfg& c);
static void timeRes(Res& r, int reps, double slowMs) {
  g_current = cfgStr(r.c);
  cupti::take();  // drop earlier records
  cublasStatus_t st = launch(&r.algo, g_D);
  if (st != CUBLAS_STATUS_SUCCESS) {
    r.status = std::string("launch:") + ltStatusName(st);
    syncOrDie("warm-up");
    return;
  }
  syncOrDie("warm-up");
  std::vector<double> probe = timeLaunches(r.algo, 1, st);
  if (probe.empty()) {
    r.status = std::string("launch:") + ltStatusName(st);
    return;
  }
  if (probe[0] > slowMs) {
    r.ms = probe[0];
    r.status = "slow";
  } else {
    std::vector<double> t = timeLaunches(r.algo, reps, st);
    if (t.empty()) {
      r.status = std::string("launch:") + ltStatusName(st);
      return;
    }
    r.ms = median(t);
    r.status = "ok";
  }
  if (cupti::on) r.kern = summarize(cupti::take());
}

static void compareToRef(Res& r) {
  if (!g_haveRef) return;
  cublasStatus_t st = launch(&r.algo, g_D);
  if (st != CUBLAS_STATUS_SUCCESS) return;
  CUDA_OK(cudaMemsetAsync(g_stats, 0, sizeof(DiffStats), g_stream));
  lt_algos_diff<<<1024, 256, 0, g_stream>>>(g_D, g_Ref, (size_t)g_opt.M * g_opt.N, g_stats);
  CUDA_OK(cudaGetLastError());
  DiffStats s;
  CUDA_OK(cudaMemcpyAsync(&s, g_stats, sizeof s, cudaMemcpyDeviceToHost, g_stream));
  syncOrDie("compare");
  float md, mr;
  memcpy(&md, &s.maxdiff_bits, 4);
  memcpy(&mr, &s.maxref_bits, 4);
  r.maxdiff = md;
  r.maxref = mr;
  r.bad = (long long)s.bad;
  r.nan = (long long)s.nan;
}

static std::string runStr(const Cfg& c) {
  char b[128];
  int n = snprintf(b, sizeof b, "%d:%u:%u:%u:%u", c.algo, c.tile, c.stages, c.swizzle, c.custom);
  if (c.inner || c.cluster || c.splitk != 1)
    snprintf(b + n, sizeof b - n, ":%u:%u:%d:%u", c.inner, c.cluster, c.splitk, c.reduction);
  return b;
}

static std::string cfgStr(const Cfg& c) {
  char b[256];
  snprintf(b, sizeof b, "algo=%d tile=%u:%s stages=%u:%s swz=%u cust=%u", c.algo, c.tile, tileName(c.tile), c.stages,
           stagesName(c.stages), c.swizzle, c.custom);
  std::string s = b;
  if (c.splitk != 1) s += " splitk=" + std::to_string(c.splitk) + " red=" + std::to_string(c.reduction);
  if (c.inner) s += std::string(" inner=") + innerName(c.inner);
  if (c.cluster) s += std::string(" cluster=") + clusterName(c.cluster);
  return s;
}

static void printRes(const char* tag, const Res& r, double ms, const char* extra = "") {
  std::string k;
  if (!r.kern.empty()) {
    char b[128];
    snprintf(b, sizeof b, " kern_us=%.1f grid=%dx%dx%d block=%d regs=%d", r.kern[0].med_us, r.kern[0].grid[0],
             r.kern[0].grid[1], r.kern[0].grid[2], r.kern[0].block[0], r.kern[0].regs);
    k = b;
    if (r.kern.size() > 1) k += " +" + std::to_string(r.kern.size() - 1) + "kernels";
  }
  printf("%s %s run=%s ws_kib=%zu waves=%.2f ms=%.4f tflops=%.1f%s%s style=%s kern=%s%s\n", tag,
         cfgStr(r.c).c_str(), runStr(r.c).c_str(), r.ws >> 10, r.waves, ms, tflops(ms),
         r.status == "slow" ? " SLOW(probe only)" : "", k.c_str(), r.style(), r.kname().c_str(), extra);
}

// ------------------------------------------------------------------------------------------------ JSON

static void jsonRes(std::string& o, const Res& r) {
  char b[2048];
  snprintf(b, sizeof b,
           "{\"source\":\"%s\",\"heur_rank\":%d,\"algo\":%d,\"tile\":%u,\"tile_name\":\"%s\",\"stages\":%u,"
           "\"stages_name\":\"%s\",\"swizzle\":%u,\"custom\":%u,\"splitk\":%d,\"reduction\":%u,\"inner\":%u,"
           "\"cluster\":%u,\"run\":\"%s\",\"ws_bytes\":%zu,\"waves\":%.4f,\"status\":\"%s\",\"median_ms\":%.6f,\"tflops\":%.2f,"
           "\"retimed_ms\":%.6f,\"retimed_tflops\":%.2f,\"maxdiff\":%.6g,\"maxref\":%.6g,\"bad\":%lld,\"nan\":%lld,"
           "\"style\":\"%s\",\"kernels\":[",
           r.source.c_str(), r.heurRank, r.c.algo, r.c.tile, tileName(r.c.tile), r.c.stages, stagesName(r.c.stages),
           r.c.swizzle, r.c.custom, r.c.splitk, r.c.reduction, r.c.inner, r.c.cluster, runStr(r.c).c_str(), r.ws,
           r.waves,
           jsonEsc(r.status).c_str(), r.ms, tflops(r.ms), r.ms20, tflops(r.ms20), r.maxdiff, r.maxref, r.bad, r.nan,
           r.style());
  o += b;
  for (size_t i = 0; i < r.kern.size(); ++i) {
    const KInfo& k = r.kern[i];
    snprintf(b, sizeof b,
             "%s{\"count\":%d,\"median_us\":%.3f,\"min_us\":%.3f,\"grid\":[%d,%d,%d],\"block\":[%d,%d,%d],"
             "\"regs\":%d,\"smem\":%d,\"name\":\"",
             i ? "," : "", k.count, k.med_us, k.min_us, k.grid[0], k.grid[1], k.grid[2], k.block[0], k.block[1],
             k.block[2], k.regs, k.smem);
    o += b;
    o += jsonEsc(k.name) + "\",\"short\":\"" + jsonEsc(shortKernel(k.name)) + "\"}";
  }
  o += "]}";
}

static void writeJson(const char* why) {
  if (g_opt.json.empty()) return;
  static bool writing = false;
  if (writing) return;
  writing = true;
  std::string o = "{\n\"complete\":";
  o += std::string(why && !strcmp(why, "done") ? "true" : "false") + ",\n\"meta\":{";
  bool first = true;
  for (auto& kv : g_meta) {
    o += (first ? "" : ",") + std::string("\"") + jsonEsc(kv.first) + "\":\"" + jsonEsc(kv.second) + "\"";
    first = false;
  }
  for (auto& kv : g_counts) {
    o += (first ? "" : ",") + std::string("\"") + jsonEsc(kv.first) + "\":" + std::to_string(kv.second);
    first = false;
  }
  char b[1024];
  snprintf(b, sizeof b, "%s\"M\":%ld,\"N\":%ld,\"K\":%ld", first ? "" : ",", g_opt.M, g_opt.N, g_opt.K);
  o += b;
  o += "},\n\"reference_check\":\"" + jsonEsc(g_refCheck) + "\",\n\"algos\":[";
  for (size_t i = 0; i < g_algos.size(); ++i) {
    const AlgoInfo& a = g_algos[i];
    snprintf(b, sizeof b,
             "%s\n{\"id\":%d,\"init_ok\":%s,\"splitk_support\":%d,\"swizzle_support\":%u,\"custom_max\":%d,"
             "\"epilogue_mask\":%u,\"reduction_mask\":%u,\"numerical_flags\":%llu,\"align\":[%u,%u,%u,%u],",
             i ? "," : "", a.id, a.initOk ? "true" : "false", a.splitk, a.swizzle, a.customMax, a.epilogueMask,
             a.redMask, (unsigned long long)a.numFlags, a.alignA, a.alignB, a.alignC, a.alignD);
    o += b;
    snprintf(b, sizeof b,
             "\"candidates\":%ld,\"checked\":%ld,\"ok\":%ld,\"rejected\":%ld,\"ws_too_big\":%ld,\"timed\":%ld,",
             a.candidates, a.checked, a.ok, a.rejected, a.wsTooBig, a.timed);
    o += b;
    o += "\"tiles\":[";
    for (size_t j = 0; j < a.tiles.size(); ++j) o += (j ? "," : "") + std::to_string(a.tiles[j]);
    o += "],\"stages\":[";
    for (size_t j = 0; j < a.stages.size(); ++j) o += (j ? "," : "") + std::to_string(a.stages[j]);
    o += "],\"reject_reasons\":{";
    bool f2 = true;
    for (auto& kv : a.rejectReasons) {
      o += (f2 ? "" : ",") + std::string("\"") + jsonEsc(kv.first) + "\":" + std::to_string(kv.second);
      f2 = false;
    }
    o += "}}";
  }
  o += "],\n\"heuristic\":[";
  for (size_t i = 0; i < g_heur.size(); ++i) {
    o += i ? ",\n" : "\n";
    jsonRes(o, g_heur[i]);
  }
  o += "],\n\"results\":[";
  for (size_t i = 0; i < g_results.size(); ++i) {
    o += i ? ",\n" : "\n";
    jsonRes(o, g_results[i]);
  }
  o += "],\n\"top\":[";
  for (size_t i = 0; i < g_top.size(); ++i) o += (i ? "," : "") + std::to_string(g_top[i]);
  o += "]\n}\n";
  FILE* f = fopen(g_opt.json.c_str(), "w");
  if (!f) {
    fprintf(stderr, "lt_algos: cannot write %s\n", g_opt.json.c_str());
  } else {
    fwrite(o.data(), 1, o.size(), f);
    fclose(f);
    fprintf(stderr, "lt_algos: wrote %s (%s)\n", g_opt.json.c_str(), why);
  }
  writing = false;
}

// ------------------------------------------------------------------------------------------------ options

static void usage(FILE* f) {
  fprintf(f,
          "usage: lt_algos [M N K] [options]        (defaults 4096 4096 4096)\n"
          "  D(bf16, MxN row-major) = A(bf16, MxK row-major) x B(bf16, NxK row-major)^T, f32 compute, cuBLASLt\n"
          "enumeration (default mode):\n"
          "  --reps N           timed launches per config (5)       --top N       configs re-timed (15, plus the\n"
          "  --top-reps N       launches when re-timing (20)                      best N mma.sync-style ones)\n"
          "  --heur-count N     heuristic results timed (32)        --max-configs N  configs timed at most (3000)\n"
          "  --max-checks N     AlgoCheck calls at most (200000)    --max-seconds S  timing budget (55)\n"
          "  --check-seconds S  AlgoCheck budget (15)               --algos ID,ID    only these algo ids\n"
          "  --skip-algos ID,ID leave these algo ids out\n"
          "  --slow-factor F    probe > F x heuristic time: not timed further (8)\n"
          "  --inner-all        also enumerate inner shape ids      --max-algo-ids N (200)\n"
          "single configurations (for ncu):\n"
          "  --only-algo ID --tile T --stages S --swizzle W [--custom C] [--inner I] [--cluster C] [--splitk N\n"
          "      --reduction R] [--reps N (20)] [--verify: also compare with the heuristic's result]\n"
          "  --run-list ID:T:S:W[:C[:I:CL:SK:R]],...  (the run= field of the output) each 20 launches after a\n"
          "      marker kernel (grid = index + 1) for ncu_names.sh configs\n"
          "common:\n"
          "  --epilogue none|relu   --workspace-mib N (64)   --json FILE   --no-cupti   --seed N\n"
          "  --cupti-probe      only say whether libcupti loads here (no GPU needed)\n");
}

// ID:TILE:STAGES:SWIZZLE[:CUSTOM[:INNER[:CLUSTER[:SPLITK[:REDUCTION]]]]] (what the output's run= field shows)
static bool parseCfg(const std::string& s, Cfg& c) {
  unsigned t = 0, st = 0, w = 0, cu = 0, in = 0, cl = 0, red = 0;
  int id = -1, sk = 1;
  int n = sscanf(s.c_str(), "%d:%u:%u:%u:%u:%u:%u:%d:%u", &id, &t, &st, &w, &cu, &in, &cl, &sk, &red);
  if (n < 4) return false;
  c = Cfg();
  c.algo = id, c.tile = t, c.stages = st, c.swizzle = w;
  if (n >= 5) c.custom = cu;
  if (n >= 6) c.inner = (uint16_t)in;
  if (n >= 7) c.cluster = (uint16_t)cl;
  if (n >= 8) c.splitk = sk;
  if (n >= 9) c.reduction = red;
  return true;
}

static void parseArgs(int argc, char** argv) {
  Opts& o = g_opt;
  std::vector<long> pos;
  Cfg one;
  bool haveOnly = false;
  int singleRepsSet = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "lt_algos: %s needs a value\n", what);
        exit(1);
      }
      return argv[++i];
    };
    auto num = [&](const char* what) -> long {
      std::string v = val(what);
      char* end = nullptr;
      long x = strtol(v.c_str(), &end, 0);
      if (!end || *end) {
        fprintf(stderr, "lt_algos: %s: not a number: %s\n", what, v.c_str());
        exit(1);
      }
      return x;
    };
    if (a == "-h" || a == "--help") {
      usage(stdout);
      exit(0);
    } else if (a == "--json") {
      o.json = val("--json");
    } else if (a == "--reps") {
      o.reps = (int)num("--reps");
      singleRepsSet = o.reps;
    } else if (a == "--top") {
      o.topN = (int)num("--top");
    } else if (a == "--top-reps") {
      o.topReps = (int)num("--top-reps");
    } else if (a == "--heur-count") {
      o.heurCount = (int)num("--heur-count");
    } else if (a == "--max-configs") {
      o.maxConfigs = num("--max-configs");
    } else if (a == "--max-checks") {
      o.maxChecks = num("--max-checks");
    } else if (a == "--max-seconds") {
      o.maxSeconds = atof(val("--max-seconds").c_str());
    } else if (a == "--check-seconds") {
      o.checkSeconds = atof(val("--check-seconds").c_str());
    } else if (a == "--slow-factor") {
      o.slowFactor = atof(val("--slow-factor").c_str());
    } else if (a == "--max-algo-ids") {
      o.maxAlgoIds = (int)num("--max-algo-ids");
    } else if (a == "--workspace-mib") {
      o.wsBytes = (size_t)num("--workspace-mib") << 20;
    } else if (a == "--epilogue") {
      o.epilogue = val("--epilogue");
      if (o.epilogue != "none" && o.epilogue != "relu") {
        fprintf(stderr, "lt_algos: --epilogue none|relu\n");
        exit(1);
      }
    } else if (a == "--inner-all") {
      o.innerAll = true;
    } else if (a == "--no-cupti") {
      o.noCupti = true;
    } else if (a == "--cupti-probe") {
      bool ok = cupti::init();
      printf("cupti: %s%s\n", ok ? "enabled, " : "", ok ? cupti::path.c_str() : cupti::why.c_str());
      exit(ok ? 0 : 1);
    } else if (a == "--verify") {
      o.verifySingle = true;
    } else if (a == "--seed") {
      o.seed = (uint64_t)num("--seed");
    } else if (a == "--algos" || a == "--skip-algos") {
      std::string v = val(a.c_str());
      for (char* p = strtok(&v[0], ","); p; p = strtok(nullptr, ","))
        (a == "--algos" ? o.algoFilter : o.algoSkip).push_back(atoi(p));
    } else if (a == "--only-algo") {
      one.algo = (int)num("--only-algo");
      haveOnly = true;
    } else if (a == "--tile") {
      one.tile = (uint32_t)num("--tile");
    } else if (a == "--stages") {
      one.stages = (uint32_t)num("--stages");
    } else if (a == "--swizzle") {
      one.swizzle = (uint32_t)num("--swizzle");
    } else if (a == "--custom") {
      one.custom = (uint32_t)num("--custom");
    } else if (a == "--inner") {
      one.inner = (uint16_t)num("--inner");
    } else if (a == "--cluster") {
      one.cluster = (uint16_t)num("--cluster");
    } else if (a == "--splitk") {
      one.splitk = (int32_t)num("--splitk");
    } else if (a == "--reduction") {
      one.reduction = (uint32_t)num("--reduction");
    } else if (a == "--run-list") {
      std::string v = val("--run-list");
      for (char* p = strtok(&v[0], ", "); p; p = strtok(nullptr, ", ")) {
        Cfg c;
        if (!parseCfg(p, c)) {
          fprintf(stderr, "lt_algos: --run-list entry '%s' is not ID:TILE:STAGES:SWIZZLE[:CUSTOM[:INNER:CLUSTER:SPLITK:RED]]\n", p);
          exit(1);
        }
        o.runList.push_back(c);
      }
    } else if (!a.empty() && a[0] != '-' && pos.size() < 3) {
      char* end = nullptr;
      long x = strtol(a.c_str(), &end, 10);
      if (!end || *end || x <= 0) {
        fprintf(stderr, "lt_algos: bad size '%s'\n", a.c_str());
        exit(1);
      }
      pos.push_back(x);
    } else {
      fprintf(stderr, "lt_algos: unknown argument '%s'\n", a.c_str());
      usage(stderr);
      exit(1);
    }
  }
  if (pos.size() == 1) o.M = o.N = o.K = pos[0];
  if (pos.size() == 2) {
    fprintf(stderr, "lt_algos: give M N K (or one size for a cube)\n");
    exit(1);
  }
  if (pos.size() == 3) o.M = pos[0], o.N = pos[1], o.K = pos[2];
  if (o.M % 8 || o.N % 8 || o.K % 8)
    fprintf(stderr, "lt_algos: note: M, N or K not a multiple of 8; 16-byte aligned kernels will not apply\n");
  if (haveOnly) o.runList.insert(o.runList.begin(), one);
  o.single = !o.runList.empty();
  o.singleReps = singleRepsSet ? singleRepsSet : 20;
  if (o.reps < 1 || o.topReps < 1 || o.singleReps < 1) {
    fprintf(stderr, "lt_algos: repetitions must be >= 1\n");
    exit(1);
  }
}

// ------------------------------------------------------------------------------------------------ modes

static void setupHeuristics() {
  cublasLtMatmulPreference_t pref;
  if (cublasLtMatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS) fatal("cublasLtMatmulPreferenceCreate");
  uint64_t ws = g_opt.wsBytes;
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  int want = std::max(1, g_opt.heurCount), got = 0;
  std::vector<cublasLtMatmulHeuristicResult_t> hr(want);
  cublasStatus_t st =
      cublasLtMatmulAlgoGetHeuristic(g_lt, g_op, g_Adesc, g_Bdesc, g_Cdesc, g_Cdesc, pref, want, hr.data(), &got);
  cublasLtMatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS) {
    printf("heuristic: cublasLtMatmulAlgoGetHeuristic failed: %s\n", ltStatusName(st));
    g_meta["heuristic_error"] = ltStatusName(st);
    return;
  }
  for (int i = 0; i < got; ++i) {
    if (hr[i].state != CUBLAS_STATUS_SUCCESS) continue;
    Res r;
    r.algo = hr[i].algo;
    r.c = cfgOf(r.algo);
    r.ws = hr[i].workspaceSize;
    r.waves = hr[i].wavesCount;
    r.source = "heuristic";
    r.heurRank = i;
    g_heur.push_back(r);
  }
  printf("heuristic: %d results\n", (int)g_heur.size());
}

static void makeReference() {
  // Reference D: the heuristic's first choice (else the first configuration that ran), checked against an f32
  // dot product on sampled elements.
  const Res* src = !g_heur.empty() && g_heur[0].ms > 0 ? &g_heur[0] : nullptr;
  if (!src)
    for (const Res& r : g_results)
      if (r.ms > 0) {
        src = &r;
        break;
      }
  if (!src) return;
  g_refRes = *src;
  if (launch(&g_refRes.algo, g_Ref) != CUBLAS_STATUS_SUCCESS) return;
  const int nsamp = 16384;
  CUDA_OK(cudaMemsetAsync(g_stats, 0, sizeof(DiffStats), g_stream));
  lt_algos_ref_sample<<<(nsamp * 32 + 255) / 256, 256, 0, g_stream>>>(g_A, g_B, g_Ref, (int)g_opt.M, (int)g_opt.N,
                                                                      (int)g_opt.K, nsamp, g_opt.epilogue == "relu",
                                                                      g_opt.seed * 7 + 1, g_stats);
  CUDA_OK(cudaGetLastError());
  DiffStats s;
  CUDA_OK(cudaMemcpyAsync(&s, g_stats, sizeof s, cudaMemcpyDeviceToHost, g_stream));
  syncOrDie("reference check");
  float md, mr;
  memcpy(&md, &s.maxdiff_bits, 4);
  memcpy(&mr, &s.maxref_bits, 4);
  char b[512];
  snprintf(b, sizeof b,
           "reference (%s %s) vs f32 dot products on %d sampled elements: max_abs_diff=%.4g max_abs_ref=%.4g "
           "bad=%llu nan=%llu -> %s",
           src->source.c_str(), cfgStr(src->c).c_str(), nsamp, md, mr, s.bad, s.nan,
           s.bad == 0 && s.nan == 0 ? "OK" : "MISMATCH (layout or kernel wrong)");
  g_refCheck = b;
  printf("%s\n", b);
  if (s.bad || s.nan) printf("WARNING: the reference is wrong; the comparisons below are against it anyway\n");
  g_haveRef = true;
}

static int runSingle() {
  // --only-algo / --run-list: each configuration after a marker kernel, warm-up + singleReps timed launches.
  int failures = 0;
  for (size_t i = 0; i < g_opt.runList.size(); ++i) {
    Res r;
    r.c = g_opt.runList[i];
    r.source = "single";
    lt_algos_marker<<<(unsigned)i + 1, 1, 0, g_stream>>>((int)i);
    CUDA_OK(cudaGetLastError());
    syncOrDie("marker");
    if (!algoInit(r.c.algo, r.algo)) {
      printf("single %s status=init_failed\n", cfgStr(r.c).c_str());
      r.status = "init_failed";
      g_results.push_back(r);
      ++failures;
      continue;
    }
    std::string e = applyCfg(r.algo, r.c);
    if (e.empty()) e = checkAlgo(r.algo, r.ws, r.waves);
    if (!e.empty()) {
      printf("single %s status=%s\n", cfgStr(r.c).c_str(), e.c_str());
      r.status = e;
      g_results.push_back(r);
      ++failures;
      continue;
    }
    timeRes(r, g_opt.singleReps, 1e30);
    if (r.ms <= 0) {
      printf("single %s status=%s\n", cfgStr(r.c).c_str(), r.status.c_str());
      ++failures;
    } else {
      printRes("single", r, r.ms);
      for (size_t k = 1; k < r.kern.size(); ++k)
        printf("    also kernel %s x%d median_us=%.1f\n", shortKernel(r.kern[k].name).c_str(), r.kern[k].count,
               r.kern[k].med_us);
    }
    g_results.push_back(r);
  }
  lt_algos_marker<<<65535, 1, 0, g_stream>>>(-1);  // end marker: kernels after it are not the list's
  CUDA_OK(cudaGetLastError());
  syncOrDie("marker");
  if (g_opt.verifySingle) {
    setupHeuristics();
    if (!g_heur.empty()) {
      g_heur.resize(1);
      timeRes(g_heur[0], g_opt.singleReps, 1e30);
      printRes("heur", g_heur[0], g_heur[0].ms);
    }
    makeReference();
    for (Res& r : g_results)
      if (r.ms > 0) {
        compareToRef(r);
        printf("verify %s maxdiff=%.4g maxref=%.4g bad=%lld nan=%lld %s\n", cfgStr(r.c).c_str(), r.maxdiff, r.maxref,
               r.bad, r.nan, r.bad == 0 && r.nan == 0 ? "OK" : "MISMATCH");
      }
  }
  return failures ? 1 : 0;
}

static int runEnumeration() {
  const Opts& o = g_opt;
  // Heuristic first: its time sets the "slow" cut and its result is the reference.
  setupHeuristics();
  for (size_t i = 0; i < g_heur.size() && !g_stop; ++i) {
    timeRes(g_heur[i], i == 0 ? o.topReps : o.reps, 1e30);
    printRes("heur", g_heur[i], g_heur[i].ms, i == 0 ? "  <- heuristic's choice" : "");
  }
  double heurMs = !g_heur.empty() && g_heur[0].ms > 0 ? g_heur[0].ms : -1;
  double slowMs = heurMs > 0 ? std::max(o.slowFactor * heurMs, o.slowFloorMs) : 1e30;
  if (heurMs > 0) makeReference();  // else after the enumeration, from its first working config

  // Algorithm ids and their capabilities.
  std::vector<int> ids(std::max(1, o.maxAlgoIds));
  int nids = 0;
  cublasStatus_t st = cublasLtMatmulAlgoGetIds(g_lt, CUBLAS_COMPUTE_32F, CUDA_R_32F, CUDA_R_16BF, CUDA_R_16BF,
                                               CUDA_R_16BF, CUDA_R_16BF, (int)ids.size(), ids.data(), &nids);
  if (st != CUBLAS_STATUS_SUCCESS) fatal("cublasLtMatmulAlgoGetIds: %s", ltStatusName(st));
  ids.resize(nids);
  printf("algo ids: %d%s:", nids, nids == o.maxAlgoIds ? " (the requested maximum: raise --max-algo-ids)" : "");
  for (int id : ids) printf(" %d", id);
  printf("\n");
  g_counts["algo_ids"] = nids;

  std::vector<std::vector<Res>> cand;  // per algo, in check order
  for (int id : ids) {
    if (!o.algoFilter.empty() && std::find(o.algoFilter.begin(), o.algoFilter.end(), id) == o.algoFilter.end())
      continue;
    if (std::find(o.algoSkip.begin(), o.algoSkip.end(), id) != o.algoSkip.end()) continue;
    AlgoInfo a;
    a.id = id;
    cublasLtMatmulAlgo_t algo;
    a.initOk = algoInit(id, algo);
    if (a.initOk) {
      a.tiles = capList(algo, CUBLASLT_ALGO_CAP_TILE_IDS);
      a.stages = capList(algo, CUBLASLT_ALGO_CAP_STAGES_IDS);
      capScalar(algo, CUBLASLT_ALGO_CAP_SPLITK_SUPPORT, a.splitk);
      capScalar(algo, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT, a.swizzle);
      capScalar(algo, CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX, a.customMax);
      capScalar(algo, CUBLASLT_ALGO_CAP_EPILOGUE_MASK, a.epilogueMask);
      capScalar(algo, CUBLASLT_ALGO_CAP_REDUCTION_SCHEME_MASK, a.redMask);
      capScalar(algo, CUBLASLT_ALGO_CAP_NUMERICAL_IMPL_FLAGS, a.numFlags);
      capScalar(algo, CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_A_BYTES, a.alignA);
      capScalar(algo, CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_B_BYTES, a.alignB);
      capScalar(algo, CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_C_BYTES, a.alignC);
      capScalar(algo, CUBLASLT_ALGO_CAP_MIN_ALIGNMENT_D_BYTES, a.alignD);
    }
    std::vector<uint32_t> tiles = a.tiles.empty() ? std::vector<uint32_t>{0} : a.tiles;
    std::vector<uint32_t> stages = a.stages.empty() ? std::vector<uint32_t>{0} : a.stages;
    std::stable_sort(tiles.begin(), tiles.end(), [](uint32_t x, uint32_t y) { return tileArea(x) > tileArea(y); });
    std::vector<uint16_t> inners = {0};
    if (o.innerAll)
      for (const LtEnumName* t = kLtInnerShapeNames; t->name; ++t)
        if (t->id > 0 && strcmp(t->name, "END")) inners.push_back((uint16_t)t->id);
    std::vector<Res> list;
    if (a.initOk)
      for (uint32_t t : tiles)
        for (uint32_t s : stages)
          for (uint32_t w = 0; w <= (a.swizzle ? 1u : 0u); ++w)
            for (uint16_t in : inners) {
              Res r;
              r.algo = algo;
              r.c.algo = id, r.c.tile = t, r.c.stages = s, r.c.swizzle = w, r.c.custom = 0, r.c.inner = in;
              list.push_back(r);
            }
    a.candidates = (long)list.size();
    uint64_t f = a.numFlags;
    printf("algo %d: init=%s tiles=%zu stages=%zu splitk=%d swizzle=%u custom_options=%d epilogue_mask=0x%x "
           "flags=0x%llx(%s%s%s%s acc%s in%s) align=%u/%u/%u/%u candidates=%ld\n",
           id, a.initOk ? "ok" : "FAILED", a.tiles.size(), a.stages.size(), a.splitk, a.swizzle, a.customMax + 1,
           a.epilogueMask, (unsigned long long)f, f & CUBLASLT_NUMERICAL_IMPL_FLAGS_FMA ? "FMA" : "",
           f & CUBLASLT_NUMERICAL_IMPL_FLAGS_HMMA ? "HMMA" : "", f & CUBLASLT_NUMERICAL_IMPL_FLAGS_IMMA ? "IMMA" : "",
           f & CUBLASLT_NUMERICAL_IMPL_FLAGS_DMMA ? "DMMA" : "",
           f & CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_32F   ? "32F"
           : f & CUBLASLT_NUMERICAL_IMPL_FLAGS_ACCUMULATOR_16F ? "16F"
                                                                : "?",
           f & CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16BF ? "16BF" : f & CUBLASLT_NUMERICAL_IMPL_FLAGS_INPUT_16F ? "16F" : "?",
           a.alignA, a.alignB, a.alignC, a.alignD, a.candidates);
    g_algos.push_back(a);
    cand.push_back(std::move(list));
  }

  // AlgoCheck, round-robin over the algorithms (so a budget cut leaves every algorithm some coverage).
  long total = 0, checked = 0;
  for (auto& l : cand) total += (long)l.size();
  std::vector<std::vector<Res>> valid(cand.size());
  double t0 = nowSec();
  bool cut = false;
  for (size_t round = 0; !cut; ++round) {
    bool any = false;
    for (size_t ai = 0; ai < cand.size() && !cut; ++ai) {
      if (round >= cand[ai].size()) continue;
      any = true;
      if (checked >= o.maxChecks || nowSec() - t0 > o.checkSeconds || g_stop) {
        cut = true;
        break;
      }
      Res r = cand[ai][round];
      AlgoInfo& a = g_algos[ai];
      ++checked, ++a.checked;
      std::string e = applyCfg(r.algo, r.c);
      if (e.empty()) e = checkAlgo(r.algo, r.ws, r.waves);
      if (e.empty()) {
        ++a.ok;
        valid[ai].push_back(r);
      } else if (e == "workspace") {
        ++a.wsTooBig;
      } else {
        ++a.rejected;
        ++a.rejectReasons[e];
      }
    }
    if (!any) break;
  }
  long nvalid = 0;
  for (auto& v : valid) nvalid += (long)v.size();
  for (const AlgoInfo& a : g_algos) {
    if (!a.candidates) continue;
    printf("algo %d: %ld/%ld checked, %ld ok, %ld need > %zu MiB workspace, %ld rejected", a.id, a.checked,
           a.candidates, a.ok, a.wsTooBig, o.wsBytes >> 20, a.rejected);
    for (auto& kv : a.rejectReasons) printf(" %s=%d", kv.first.c_str(), kv.second);
    printf("\n");
  }
  printf("checks: %ld candidates, %ld checked in %.1f s (%ld not checked: --max-checks / --check-seconds), %ld ok\n",
         total, checked, nowSec() - t0, total - checked, nvalid);

  // Timing, again round-robin, at most maxConfigs and maxSeconds.
  std::vector<Res> order;
  for (size_t round = 0;; ++round) {
    bool any = false;
    for (auto& v : valid)
      if (round < v.size()) {
        order.push_back(v[round]);
        any = true;
      }
    if (!any) break;
  }
  long notTimedCap = 0, notTimedBudget = 0;
  if ((long)order.size() > o.maxConfigs) {
    notTimedCap = (long)order.size() - o.maxConfigs;
    order.resize(o.maxConfigs);
  }
  printf("timing %zu configs (%ld more skipped by --max-configs), %d launches each after a warm-up and a probe;"
         " slow cut %.3f ms\n",
         order.size(), notTimedCap, o.reps, slowMs < 1e29 ? slowMs : -1.0);
  printf("# cfg algo tile=id:name stages=id:name swz cust ws_kib waves ms(median) tflops [kern_us grid block regs] "
         "style kern\n");
  fflush(stdout);
  t0 = nowSec();
  for (size_t i = 0; i < order.size(); ++i) {
    if (nowSec() - t0 > o.maxSeconds || g_stop) {
      notTimedBudget = (long)(order.size() - i);
      break;
    }
    Res r = order[i];
    timeRes(r, o.reps, slowMs);
    for (AlgoInfo& a : g_algos)
      if (a.id == r.c.algo) ++a.timed;
    if (r.ms > 0)
      printRes("cfg", r, r.ms);
    else
      printf("cfg %s status=%s\n", cfgStr(r.c).c_str(), r.status.c_str());
    g_results.push_back(r);
    if ((i + 1) % 200 == 0) {
      fprintf(stderr, "[lt_algos] %zu/%zu timed, %.0f s\n", i + 1, order.size(), nowSec() - t0);
      fflush(stdout);
    }
  }
  long working = 0, slow = 0;
  for (const Res& r : g_results) working += r.ms > 0, slow += r.status == "slow";
  g_counts["candidates"] = total;
  g_counts["checked"] = checked;
  g_counts["not_checked"] = total - checked;
  g_counts["check_ok"] = nvalid;
  g_counts["timed"] = (long)g_results.size();
  g_counts["working"] = working;
  g_counts["slow"] = slow;
  g_counts["skipped_max_configs"] = notTimedCap;
  g_counts["skipped_max_seconds"] = notTimedBudget;
  if (g_stop) printf("STOPPED by a signal: the enumeration below is partial\n");
  printf("enumeration: %ld candidates, %ld checked, %ld passed AlgoCheck, %zu timed (%ld working, %ld slow: probe "
         "only) in %.1f s; skipped: %ld unchecked, %ld over --max-configs, %ld over --max-seconds\n",
         total, checked, nvalid, g_results.size(), working, slow, nowSec() - t0, total - checked, notTimedCap,
         notTimedBudget);

  if (!g_haveRef) makeReference();
  // The best configs overall and the best mma.sync-style ones, re-timed and checked against the reference.
  std::vector<size_t> idx;
  for (size_t i = 0; i < g_results.size(); ++i)
    if (g_results[i].status == "ok") idx.push_back(i);
  std::sort(idx.begin(), idx.end(), [](size_t a, size_t b) { return g_results[a].ms < g_results[b].ms; });
  std::set<size_t> pick;
  for (size_t i = 0; i < idx.size() && (int)i < o.topN; ++i) pick.insert(idx[i]);
  int nm = 0;
  for (size_t i : idx)
    if (nm < o.topN && !strcmp(g_results[i].style(), "mma.sync")) pick.insert(i), ++nm;
  for (size_t i : pick) {
    if (g_stop) break;
    Res& r = g_results[i];
    g_current = cfgStr(r.c);
    cublasStatus_t st2;
    std::vector<double> t = timeLaunches(r.algo, o.topReps, st2);
    r.ms20 = t.empty() ? -1 : median(t);
    compareToRef(r);
    g_top.push_back(i);
  }
  std::sort(g_top.begin(), g_top.end(), [](size_t a, size_t b) {
    double x = g_results[a].ms20 > 0 ? g_results[a].ms20 : 1e30, y = g_results[b].ms20 > 0 ? g_results[b].ms20 : 1e30;
    return x < y;
  });
  auto verdict = [](const Res& r) {
    char b[160];
    snprintf(b, sizeof b, " maxdiff=%.4g bad=%lld nan=%lld %s", r.maxdiff, r.bad, r.nan,
             r.bad < 0 ? "(not compared)" : r.bad == 0 && r.nan == 0 ? "OK" : "MISMATCH");
    return std::string(b);
  };
  printf("\n== best configs, re-timed (%d launches, median), fastest first; diff against the reference D\n",
         o.topReps);
  int rank = 0;
  for (size_t i : g_top) {
    const Res& r = g_results[i];
    char tag[32];
    snprintf(tag, sizeof tag, "top %2d", ++rank);
    printRes(tag, r, r.ms20, verdict(r).c_str());
  }
  if (!g_heur.empty() && g_heur[0].ms > 0) printRes("heur  0", g_heur[0], g_heur[0].ms, "  <- heuristic's choice");

  // Summary lines (grep '^BEST').
  const Res* bestAll = nullptr;
  const Res* bestMma = nullptr;
  for (size_t i : g_top) {
    const Res& r = g_results[i];
    if (r.ms20 <= 0) continue;
    if (!bestAll) bestAll = &r;
    if (!bestMma && !strcmp(r.style(), "mma.sync")) bestMma = &r;
  }
  printf("\n");
  if (bestAll) printRes("BEST overall", *bestAll, bestAll->ms20);
  if (bestMma)
    printRes("BEST mma.sync-style", *bestMma, bestMma->ms20);
  else if (!cupti::on)
    printf("BEST mma.sync-style: unknown (no kernel names: CUPTI off; run ncu_names.sh)\n");
  else
    printf("BEST mma.sync-style: none among %ld working configs (no sm80_/ampere_/cutlass_80 kernel ran)\n", working);
  if (!g_heur.empty() && g_heur[0].ms > 0) printRes("HEURISTIC", g_heur[0], g_heur[0].ms);
  std::map<std::string, int> styles;
  for (const Res& r : g_results)
    if (r.ms > 0) ++styles[r.style()];
  printf("kernel styles over working configs:");
  for (auto& kv : styles) printf(" %s=%d", kv.first.c_str(), kv.second);
  printf("\n");
  return 0;
}

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  parseArgs(argc, argv);
  signal(SIGTERM, onSignal);
  signal(SIGINT, onSignal);
  const Opts& o = g_opt;

  int ndev = 0;
  cudaError_t ce = cudaGetDeviceCount(&ndev);
  if (ce != cudaSuccess || ndev == 0) {
    fprintf(stderr, "lt_algos: no usable CUDA device (%s); this program needs an sm_90 GPU\n",
            ce != cudaSuccess ? cudaGetErrorString(ce) : "0 devices");
    return 2;
  }
  cudaDeviceProp prop;
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  if (prop.major != 9) {
    fprintf(stderr, "lt_algos: device 0 is %s (sm_%d%d); this build holds sm_90a code only\n", prop.name, prop.major,
            prop.minor);
    return 2;
  }
  if (getenv("CUDA_INJECTION64_PATH") && !o.noCupti) {
    cupti::why = "a profiler is attached (CUDA_INJECTION64_PATH set)";
  } else if (o.noCupti) {
    cupti::why = "--no-cupti";
  } else {
    cupti::init();
  }
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaFree(0));

  Dl_info dl;
  memset(&dl, 0, sizeof dl);
  dladdr((void*)&cublasLtMatmul, &dl);
  int rtv = 0, drv = 0;
  cudaRuntimeGetVersion(&rtv);
  cudaDriverGetVersion(&drv);
  char b[512];
  snprintf(b, sizeof b, "%zu", cublasLtGetVersion());
  g_meta["cublaslt_version"] = b;
  g_meta["cublaslt_path"] = dl.dli_fname ? dl.dli_fname : "?";
  snprintf(b, sizeof b, "%s (sm_%d%d, %d SMs)", prop.name, prop.major, prop.minor, prop.multiProcessorCount);
  g_meta["device"] = b;
  g_meta["cudart"] = std::to_string(rtv);
  g_meta["driver"] = std::to_string(drv);
  g_meta["epilogue"] = o.epilogue;
  g_meta["cupti"] = cupti::on ? cupti::path : "off: " + cupti::why;
  g_meta["mode"] = o.single ? "single" : "enumerate";
  g_meta["layout"] = "D(bf16,MxN row-major)=A(bf16,MxK row-major) x B(bf16,NxK row-major)^T; cublasLt transa=T "
                     "transb=N m=N n=M k=K (TN), compute 32F, alpha 1 beta 0";
  printf("# lt_algos %ld %ld %ld: D(bf16, MxN row-major) = A(bf16, MxK row-major) x B(bf16, NxK row-major = "
         "K-major)^T, f32 compute, alpha 1, beta 0, epilogue %s\n",
         o.M, o.N, o.K, o.epilogue.c_str());
  printf("# cuBLASLt call: transa=T transb=N m=%ld n=%ld k=%ld (\"TN\"), A slot = B (ld %ld), B slot = A (ld %ld), "
         "D column-major %ldx%ld ld %ld\n",
         o.N, o.M, o.K, o.K, o.K, o.N, o.M, o.N);
  printf("# device %s, driver %d, cudart %d, cublasLt %zu (%s)\n", g_meta["device"].c_str(), drv, rtv,
         cublasLtGetVersion(), g_meta["cublaslt_path"].c_str());
  printf("# kernel names: %s\n", cupti::on ? ("CUPTI " + cupti::path).c_str() : ("off: " + cupti::why).c_str());

  if (cublasLtCreate(&g_lt) != CUBLAS_STATUS_SUCCESS) fatal("cublasLtCreate");
  if (cublasLtMatmulDescCreate(&g_op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS)
    fatal("cublasLtMatmulDescCreate");
  cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(g_op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
  cublasLtMatmulDescSetAttribute(g_op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
  cublasLtEpilogue_t epi = o.epilogue == "relu" ? CUBLASLT_EPILOGUE_RELU : CUBLASLT_EPILOGUE_DEFAULT;
  if (cublasLtMatmulDescSetAttribute(g_op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi) != CUBLAS_STATUS_SUCCESS)
    fatal("set epilogue");
  // Stored matrices (column-major view): our B is K x N (ld K), our A is K x M (ld K), D is N x M (ld N).
  if (cublasLtMatrixLayoutCreate(&g_Adesc, CUDA_R_16BF, o.K, o.N, o.K) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&g_Bdesc, CUDA_R_16BF, o.K, o.M, o.K) != CUBLAS_STATUS_SUCCESS ||
      cublasLtMatrixLayoutCreate(&g_Cdesc, CUDA_R_16BF, o.N, o.M, o.N) != CUBLAS_STATUS_SUCCESS)
    fatal("cublasLtMatrixLayoutCreate");

  CUDA_OK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
  size_t nA = (size_t)o.M * o.K, nB = (size_t)o.N * o.K, nD = (size_t)o.M * o.N;
  CUDA_OK(cudaMalloc(&g_A, nA * 2));
  CUDA_OK(cudaMalloc(&g_B, nB * 2));
  CUDA_OK(cudaMalloc(&g_D, nD * 2));
  CUDA_OK(cudaMalloc(&g_Ref, nD * 2));
  CUDA_OK(cudaMalloc(&g_ws, o.wsBytes));
  CUDA_OK(cudaMalloc(&g_stats, sizeof(DiffStats)));
  lt_algos_fill_bf16<<<2048, 256, 0, g_stream>>>(g_A, nA, o.seed);
  lt_algos_fill_bf16<<<2048, 256, 0, g_stream>>>(g_B, nB, o.seed * 0x9E3779B97F4A7C15ull + 17);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaMemsetAsync(g_D, 0, nD * 2, g_stream));
  CUDA_OK(cudaMemsetAsync(g_Ref, 0, nD * 2, g_stream));
  syncOrDie("fill");

  int rc = o.single ? runSingle() : runEnumeration();
  cupti::shutdown();
  writeJson("done");
  return rc;
}
