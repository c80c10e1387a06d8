// CUTLASS 2.x Ampere (mma.sync) bf16 and tf32 GEMMs on this GPU, for issue 12's question: how far does the field's own
// mma.sync implementation get on an H200, where gemmc's sm_80 kernels read 76-78% of the mma.sync peak on cube4096?
// Built as compute_80 PTX only (build.sh), so the driver JIT-compiles it for sm_90 as it does gemmc's fatbins.
// The problem is gemmc's sm_80 goal kernels': A row-major MxK, B K-major (col, i.e. [N,K] rows), C/D bf16 row-major,
// f32 accumulate, alpha 1, beta 0. Each timed run is followed by cuBLAS (cublasGemmEx, the same buffers) as
// gemmc-bench interleaves, so the "of cuBLAS" ratio compares with gemmc-bench's column across processes.
//
//   cutlass_sm80 M N K [--iters 20] [--warmup 2] [--config NAME] [--json FILE]
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cutlass/bfloat16.h>
#include <cutlass/gemm/device/gemm.h>
#include <cutlass/gemm/device/gemm_universal.h>
#include <cutlass/gemm/threadblock/threadblock_swizzle.h>
#include <cutlass/epilogue/thread/linear_combination.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); std::exit(2); } } while (0)

// RUNNER_TF32 builds the tf32 form (cutlass_sm80_tf32): A and B stored as f32 and multiplied as tf32 (m16n8k8), an f32
// C, as gemmc's a100_tf32_128x256x32_tn and cuBLAS's CUBLAS_COMPUTE_32F_FAST_TF32; else bf16 in and out (m16n8k16).
#ifdef RUNNER_TF32
using Elem = float;
using OutElem = float;
constexpr int kInstK = 8;
constexpr cudaDataType_t kCublasIn = CUDA_R_32F, kCublasOut = CUDA_R_32F;
constexpr cublasComputeType_t kCublasCompute = CUBLAS_COMPUTE_32F_FAST_TF32;
constexpr int kVec = 4;  // 16-byte accesses of f32
#else
using Elem = cutlass::bfloat16_t;
using OutElem = cutlass::bfloat16_t;
constexpr int kInstK = 16;
constexpr cudaDataType_t kCublasIn = CUDA_R_16BF, kCublasOut = CUDA_R_16BF;
constexpr cublasComputeType_t kCublasCompute = CUBLAS_COMPUTE_32F;
constexpr int kVec = 8;
#endif

template <int TM, int TN, int TK, int WM, int WN, int WK, int Stages, int Swz>
using AmpereGemm = cutlass::gemm::device::Gemm<
    Elem, cutlass::layout::RowMajor, Elem, cutlass::layout::ColumnMajor, OutElem, cutlass::layout::RowMajor, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, cutlass::gemm::GemmShape<TM, TN, TK>,
    cutlass::gemm::GemmShape<WM, WN, WK>, cutlass::gemm::GemmShape<16, 8, kInstK>,
    cutlass::epilogue::thread::LinearCombination<OutElem, kVec, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<Swz>, Stages, kVec, kVec>;

// The stream-K form (CUTLASS's ThreadblockSwizzleStreamK over GemmUniversal, all SMs): gemmc's _sk kernels' peer.
template <int TM, int TN, int TK, int Stages>
using AmpereGemmStreamK = cutlass::gemm::device::GemmUniversal<
    Elem, cutlass::layout::RowMajor, Elem, cutlass::layout::ColumnMajor, OutElem, cutlass::layout::RowMajor, float,
    cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80, cutlass::gemm::GemmShape<TM, TN, TK>,
    cutlass::gemm::GemmShape<64, 64, TK>, cutlass::gemm::GemmShape<16, 8, kInstK>,
    cutlass::epilogue::thread::LinearCombination<OutElem, kVec, float, float>,
    cutlass::gemm::threadblock::ThreadblockSwizzleStreamK, Stages, kVec, kVec>;

struct Config {
  const char *name;
  std::function<cudaError_t(int, int, int, const Elem *, const Elem *, OutElem *, cudaStream_t)> launch;
};

// Each config's operator is initialized once (the problem never changes in a run); a timed launch is op.run()
// alone, so what the events bracket is the kernel, as gemmc-bench's launches.
template <typename G>
cudaError_t launchGemm(int m, int n, int k, const Elem *a, const Elem *b, OutElem *d, cudaStream_t s) {
  static G op;
  static bool ready = false;
  if (!ready) {
    typename G::Arguments args({m, n, k}, {a, k}, {b, k}, {d, n}, {d, n}, {1.0f, 0.0f});
    if (op.can_implement(args) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
    if (op.initialize(args, nullptr, s) != cutlass::Status::kSuccess) return cudaErrorInvalidConfiguration;
    ready = true;
  }
  return op.run(s) == cutlass::Status::kSuccess ? cudaGetLastError() : cudaErrorLaunchFailure;
}

// The stream-K barrier flags are zeroed once by initialize(); the kernel resets them as it waits
// (Barrier::wait_eq_reset), so later launches need no memset.
template <typename G>
cudaError_t launchStreamK(int m, int n, int k, const Elem *a, const Elem *b, OutElem *d, cudaStream_t s) {
  static G op;
  static bool ready = false;
  if (!ready) {
    typename G::Arguments args(cutlass::gemm::GemmUniversalMode::kGemm, {m, n, k}, 1, {1.0f, 0.0f}, a, b, d, d,
                               int64_t(m) * k, int64_t(n) * k, int64_t(m) * n, int64_t(m) * n, k, k, n, n,
                               /*avail_sms=*/-1);
    void *workspace = nullptr;
    if (size_t need = G::get_workspace_size(args))
      if (cudaMalloc(&workspace, need) != cudaSuccess) return cudaErrorMemoryAllocation;
    if (op.can_implement(args) != cutlass::Status::kSuccess) return cudaErrorInvalidValue;
    if (op.initialize(args, workspace, s) != cutlass::Status::kSuccess) return cudaErrorInvalidConfiguration;
    ready = true;
  }
  return op.run(s) == cutlass::Status::kSuccess ? cudaGetLastError() : cudaErrorLaunchFailure;
}

#define CFG(TM, TN, TK, WM, WN, STG, SWZ) \
  Config{#TM "x" #TN "x" #TK "_w" #WM "x" #WN "_s" #STG "_g" #SWZ, \
         launchGemm<AmpereGemm<TM, TN, TK, WM, WN, TK, STG, SWZ>>}

static std::vector<Config> configs() {
#ifdef RUNNER_TF32
  return {
      CFG(128, 256, 32, 64, 64, 3, 8),  // gemmc's a100_tf32_128x256x32_tn shape
      CFG(128, 256, 32, 64, 64, 4, 8),
      CFG(256, 128, 32, 64, 64, 3, 8),
      CFG(128, 128, 32, 64, 64, 4, 8),
      CFG(128, 256, 16, 64, 64, 5, 8),
      Config{"128x256x32_w64x64_s3_streamk", launchStreamK<AmpereGemmStreamK<128, 256, 32, 3>>},
  };
#else
  return {
      CFG(128, 256, 64, 64, 64, 3, 8),  // CUTLASS profiler's large bf16 tile; gemmc's a100_bf16_128x256x64 shape
      CFG(128, 256, 64, 64, 64, 4, 8),  // one more stage (192 KiB: the H200 allows it, the A100 would not)
      CFG(256, 128, 64, 64, 64, 3, 8),
      CFG(128, 256, 32, 64, 64, 4, 8),
      CFG(128, 128, 64, 64, 64, 4, 8),  // 4 warps, two CTAs an SM
      CFG(128, 128, 32, 64, 64, 5, 8),
      Config{"128x256x64_w64x64_s3_streamk", launchStreamK<AmpereGemmStreamK<128, 256, 64, 3>>},
      Config{"128x256x64_w64x64_s4_streamk", launchStreamK<AmpereGemmStreamK<128, 256, 64, 4>>},
  };
#endif
}

__global__ void fillRandom(Elem *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(i) * 2654435761u ^ seed;
    x ^= x >> 13; x *= 0x5bd1e995u; x ^= x >> 15;
    float v = (float(x & 0xffff) / 65535.0f) * 2.0f - 1.0f;
    if (v == 0.0f) v = 0.5f;
    p[i] = Elem(v);
  }
}

__global__ void poison(OutElem *p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = OutElem(NAN);
}

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s M N K [--iters N] [--warmup N] [--config NAME] [--json FILE]\n", argv[0]);
    return 1;
  }
  int m = std::atoi(argv[1]), n = std::atoi(argv[2]), k = std::atoi(argv[3]);
  int iters = 20, warmup = 2;
  std::string only, json;
  for (int i = 4; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--iters" && i + 1 < argc) iters = std::atoi(argv[++i]);
    else if (a == "--warmup" && i + 1 < argc) warmup = std::atoi(argv[++i]);
    else if (a == "--config" && i + 1 < argc) only = argv[++i];
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else { std::fprintf(stderr, "unknown argument %s\n", a.c_str()); return 1; }
  }
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) { std::fprintf(stderr, "no CUDA device\n"); return 2; }
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
  std::printf("cutlass_sm80 (%s) on %s (%d SMs), %dx%dx%d, %d warm-up + %d timed runs, each beside cuBLAS\n", 
#ifdef RUNNER_TF32
              "tf32",
#else
              "bf16",
#endif
              prop.name, prop.multiProcessorCount, m, n, k, warmup, iters);

  size_t na = size_t(m) * k, nb = size_t(n) * k, nd = size_t(m) * n;
  Elem *a, *b;
  OutElem *d, *ref;
  CHECK_CUDA(cudaMalloc(&a, na * sizeof(Elem))); CHECK_CUDA(cudaMalloc(&b, nb * sizeof(Elem)));
  CHECK_CUDA(cudaMalloc(&d, nd * sizeof(OutElem))); CHECK_CUDA(cudaMalloc(&ref, nd * sizeof(OutElem)));
  fillRandom<<<1024, 256>>>(a, na, 0x1234u); fillRandom<<<1024, 256>>>(b, nb, 0x9876u);
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t s; CHECK_CUDA(cudaStreamCreate(&s)); cublasSetStream(h, s);
  float one = 1.0f, zero = 0.0f;
  auto cublas = [&] {  // row-major D = A B^T as column-major D^T = B^T' A'
    return cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k, &one, b, kCublasIn, k, a, kCublasIn, k, &zero,
                        ref, kCublasOut, n, kCublasCompute, CUBLAS_GEMM_DEFAULT);
  };
  if (cublas() != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "cublasGemmEx failed\n"); return 2; }
  CHECK_CUDA(cudaStreamSynchronize(s));
  std::vector<OutElem> hr(nd), hd(nd);
  CHECK_CUDA(cudaMemcpy(hr.data(), ref, nd * sizeof(OutElem), cudaMemcpyDeviceToHost));

  FILE *jf = json.empty() ? nullptr : std::fopen(json.c_str(), "w");
  if (jf) std::fprintf(jf, "[\n");
  bool firstRow = true;
  double flop = 2.0 * m * n * k;
  for (const Config &c : configs()) {
    if (!only.empty() && only != c.name) continue;
    poison<<<1024, 256, 0, s>>>(d, nd);
    cudaError_t err = c.launch(m, n, k, a, b, d, s);
    if (err != cudaSuccess) { std::printf("  %-28s skipped: %s\n", c.name, cudaGetErrorString(err)); cudaGetLastError(); continue; }
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaMemcpy(hd.data(), d, nd * sizeof(OutElem), cudaMemcpyDeviceToHost));
    double maxRel = 0; size_t bad = 0;
    for (size_t i = 0; i < nd; ++i) {
      float x = float(hd[i]), r = float(hr[i]);
      double rel = std::fabs(x - r) / (std::fabs(r) + 1.0);  // K-long sums of [-1,1] products: |r| ~ sqrt(K)/3
      if (!(rel <= 2e-2)) ++bad;
      if (!(rel <= maxRel)) maxRel = std::isnan(rel) ? INFINITY : rel;
    }
    // Timing as gemmc-bench's: warm-ups, then the timed runs queued without a sync, each CUTLASS launch
    // followed by cuBLAS's, four events an iteration.
    for (int it = 0; it < warmup; ++it) { c.launch(m, n, k, a, b, d, s); cublas(); }
    std::vector<cudaEvent_t> ev(4 * iters);
    for (auto &e : ev) cudaEventCreate(&e);
    for (int it = 0; it < iters; ++it) {
      cudaEventRecord(ev[4 * it], s); c.launch(m, n, k, a, b, d, s); cudaEventRecord(ev[4 * it + 1], s);
      cudaEventRecord(ev[4 * it + 2], s); cublas(); cudaEventRecord(ev[4 * it + 3], s);
    }
    CHECK_CUDA(cudaStreamSynchronize(s));
    std::vector<float> tg, tc;
    for (int it = 0; it < iters; ++it) {
      float x, y;
      cudaEventElapsedTime(&x, ev[4 * it], ev[4 * it + 1]); cudaEventElapsedTime(&y, ev[4 * it + 2], ev[4 * it + 3]);
      tg.push_back(x); tc.push_back(y);
    }
    for (auto &e : ev) cudaEventDestroy(e);
    double mg = median(tg), mc = median(tc);
    std::printf("  %-28s %s (max rel err %.2e, %zu over 2e-2)  %.4f ms %7.1f TFLOP/s | cuBLAS %.4f ms %7.1f | of cuBLAS %.3f\n",
                c.name, bad ? "WRONG" : "ok", maxRel, bad, mg, flop / mg / 1e9, mc, flop / mc / 1e9, mc / mg);
    if (jf) {
      std::fprintf(jf, "%s  {\"config\": \"%s\", \"m\": %d, \"n\": %d, \"k\": %d, \"ok\": %s, \"max_rel\": %.3e, "
                       "\"ms\": %.5f, \"tflops\": %.2f, \"cublas_ms\": %.5f, \"of_cublas\": %.4f}",
                   firstRow ? "" : ",\n", c.name, m, n, k, bad ? "false" : "true", maxRel, mg, flop / mg / 1e9, mc, mc / mg);
      firstRow = false;
    }
  }
  if (jf) { std::fprintf(jf, "\n]\n"); std::fclose(jf); }
  return 0;
}
