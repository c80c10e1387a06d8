// gemmc-bench's fused-epilogue and PDL-chain modes (issue 15).
//
//   gemmc-bench --epilogue FUSED.cubin PLAIN.cubin [--shapes MxNxK,...] [--iters N]
//     FUSED: a kernel with `bias: col` (bf16) and `activation: gelu_tanh`,
//     PLAIN: the same schedule without them. Per shape, the median time of
//       plain      gemmc without the epilogue,
//       fused      gemmc with bias + GELU,
//       lt         cuBLASLt with CUBLASLT_EPILOGUE_GELU_BIAS (same inputs),
//       unfused    cuBLAS GEMM, then a separate bias + GELU kernel,
//     and the ratios the issue's goals name (fused / plain - 1 <= 3%,
//     lt / fused >= 1.0, unfused / fused >= 1.3). The four are timed in
//     turn within each round (interleavedMediansUs; session 26: before, each
//     ran its runs back to back, which gave the later ones a lower clock).
//
//   gemmc-bench --chain PDL.cubin... [--shapes MxNxK,...] [--iters N]
//     PDL: kernels built with pdl_wait and pdl_launch_dependents, each in
//     turn in one process (a table each). 8
//     dependent GEMMs (GEMM i's C is GEMM i + 1's A, so N = K, 8 weights)
//     launched back to back without and with GEMMC_LAUNCH_PDL, directly and
//     as a replayed CUDA graph; per-GEMM time, and the gap between GEMMs:
//     chain / 8 minus one GEMM timed alone.
#include "FusedBench.h"

#include "Harness.h"

#include "gemmc/runtime.h"

#include <cublasLt.h>
#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

using namespace gemmc::harness;

namespace {

struct Options {
  std::vector<std::string> cubins;
  std::vector<std::string> shapes;
  int iters = 50, warmup = 10;
};

/// Median microseconds of each of `bodies`, timed in turn within each of
/// `iters` rounds (one event pair around each run), so that every body sees
/// the same clock: run back to back, a power-bound kernel timed second got
/// a lower clock than the first (sm_80's bf16 kernels on the 8192 cube,
/// bench/lead26 round f1: the fused one 17.7% slower there, 2-5% elsewhere).
std::vector<double> interleavedMediansUs(cudaStream_t stream, int warmup, int iters,
                                         const std::vector<std::function<void()>> &bodies) {
  for (int i = 0; i < warmup; ++i)
    for (const auto &body : bodies)
      body();
  HARNESS_CUDA(cudaStreamSynchronize(stream));
  std::vector<std::vector<float>> ms(bodies.size(), std::vector<float>(iters));
  cudaEvent_t start, stop;
  HARNESS_CUDA(cudaEventCreate(&start));
  HARNESS_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < iters; ++i)
    for (size_t j = 0; j < bodies.size(); ++j) {
      HARNESS_CUDA(cudaEventRecord(start, stream));
      bodies[j]();
      HARNESS_CUDA(cudaEventRecord(stop, stream));
      HARNESS_CUDA(cudaEventSynchronize(stop));
      HARNESS_CUDA(cudaEventElapsedTime(&ms[j][i], start, stop));
    }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<double> medians;
  for (std::vector<float> &v : ms) {
    std::sort(v.begin(), v.end());
    medians.push_back(1000.0 * v[v.size() / 2]);
  }
  return medians;
}

/// Median microseconds of `body` (one event pair around each run).
double medianUs(cudaStream_t stream, int warmup, int iters, const std::function<void()> &body) {
  return interleavedMediansUs(stream, warmup, iters, {body})[0];
}

gemmc_kernel *load(const std::string &cubin, gemmc_kernel_info &info) {
  gemmc_kernel *k = nullptr;
  if (gemmc_kernel_load(cubin.c_str(), &k) != GEMMC_OK) {
    std::fprintf(stderr, "gemmc-bench: %s\n", gemmc_last_error());
    std::exit(1);
  }
  gemmc_kernel_get_info(k, &info);
  return k;
}

void launchOrDie(gemmc_kernel *k, const gemmc_gemm_args &a, cudaStream_t stream) {
  if (gemmc_launch(k, &a, stream) != GEMMC_OK) {
    std::fprintf(stderr, "gemmc-bench: %s\n", gemmc_last_error());
    std::exit(1);
  }
}

// The unfused baseline's second kernel: C[r][c] = gelu_tanh(C[r][c] +
// bias[c]) in place, bf16, one thread per column and a grid-stride loop
// over rows (grid.y). Written in PTX so that the bench needs no CUDA
// compiler; JIT-compiled by the driver at first use.
const char *kBiasGeluPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry bias_gelu_bf16(.param .u64 p_c, .param .u64 p_bias, .param .u32 p_m, .param .u32 p_n,
                               .param .u32 p_ldc)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<6>;
  .reg .b16 %h<3>;
  ld.param.u64 %rd0, [p_c];
  ld.param.u64 %rd1, [p_bias];
  ld.param.u32 %r0, [p_m];
  ld.param.u32 %r1, [p_n];
  ld.param.u32 %r2, [p_ldc];
  cvta.to.global.u64 %rd0, %rd0;
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.u32 %r6, %r3, %r4, %r5;
  setp.ge.u32 %p0, %r6, %r1;
  @%p0 bra DONE;
  mul.wide.u32 %rd2, %r6, 2;
  add.u64 %rd2, %rd1, %rd2;
  ld.global.nc.b16 %h1, [%rd2];
  cvt.f32.bf16 %f1, %h1;
  mov.u32 %r7, %ctaid.y;
  mov.u32 %r8, %nctaid.y;
ROWS:
  setp.ge.u32 %p1, %r7, %r0;
  @%p1 bra DONE;
  mad.lo.u32 %r9, %r7, %r2, %r6;
  mul.wide.u32 %rd3, %r9, 2;
  add.u64 %rd3, %rd0, %rd3;
  ld.global.b16 %h0, [%rd3];
  cvt.f32.bf16 %f0, %h0;
  add.f32 %f0, %f0, %f1;
  mul.f32 %f2, %f0, %f0;
  mul.f32 %f2, %f2, %f0;
  fma.rn.f32 %f3, %f2, 0f3D372713, %f0;
  mul.f32 %f3, %f3, 0f3F4C422A;
  tanh.approx.f32 %f4, %f3;
  add.f32 %f4, %f4, 0f3F800000;
  mul.f32 %f5, %f0, 0f3F000000;
  mul.f32 %f5, %f5, %f4;
  cvt.rn.bf16.f32 %h2, %f5;
  st.global.b16 [%rd3], %h2;
  add.u32 %r7, %r7, %r8;
  bra ROWS;
DONE:
  ret;
}
)";

#define BENCH_CU(call)                                                                             \
  do {                                                                                             \
    CUresult r_ = (call);                                                                          \
    if (r_ != CUDA_SUCCESS)                                                                        \
      ::gemmc::harness::die(std::string(#call) + ": CUresult " + std::to_string(r_), __FILE__, __LINE__); \
  } while (0)

/// cuBLASLt bf16 GEMM with EPILOGUE_GELU_BIAS on gemmc's operands: C (M x N
/// row-major) is D^T of a column-major N x M problem, so the bias (length N,
/// one per column of C) is cuBLASLt's per-row-of-D bias.
struct LtGeluBias {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
  cublasLtMatmulAlgo_t algo{};
  DeviceBuffer workspace{size_t(32) << 20};
  bool ok = false;

  LtGeluBias(int64_t m, int64_t n, int64_t k, const gemmc_kernel_info &info, const void *bias, int64_t ldc) {
    HARNESS_CUBLAS(cublasLtCreate(&lt));
    HARNESS_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    // D' (N x M) = B' (N x K) x A' (K x M): B is N rows of K (col layout),
    // so op(B') = transpose of a K x N column-major matrix; A (row) is a
    // K x M column-major matrix as it is.
    cublasOperation_t ta = info.b_layout == GEMMC_COL ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasOperation_t tb = info.a_layout == GEMMC_ROW ? CUBLAS_OP_N : CUBLAS_OP_T;
    HARNESS_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    HARNESS_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_GELU_BIAS;
    HARNESS_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    HARNESS_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
    if (ta == CUBLAS_OP_T)
      HARNESS_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, k, n, alignedLd(k, info.b_type)));
    else
      HARNESS_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, n, k, alignedLd(n, info.b_type)));
    if (tb == CUBLAS_OP_N)
      HARNESS_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, k, m, alignedLd(k, info.a_type)));
    else
      HARNESS_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, m, k, alignedLd(m, info.a_type)));
    HARNESS_CUBLAS(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, n, m, ldc));
    cublasLtMatmulPreference_t pref;
    HARNESS_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    size_t wsBytes = workspace.bytes;
    HARNESS_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wsBytes,
                                                  sizeof wsBytes));
    cublasLtMatmulHeuristicResult_t result{};
    int found = 0;
    cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &result, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    ok = found > 0;
    algo = result.algo;
  }
  ~LtGeluBias() {
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
  }
  void run(const void *a, const void *b, void *d, cudaStream_t stream) {
    float alpha = 1.0f, beta = 0.0f;
    HARNESS_CUBLAS(cublasLtMatmul(lt, desc, &alpha, b, la, a, lb, &beta, d, ld, d, ld, &algo, workspace.ptr,
                            workspace.bytes, stream));
  }
};

int epilogueMode(const Options &opt) {
  if (opt.cubins.size() != 2) {
    std::fprintf(stderr, "gemmc-bench --epilogue FUSED.cubin PLAIN.cubin [--shapes MxNxK,...]\n");
    return 2;
  }
  gemmc_kernel_info fi, pi;
  gemmc_kernel *fused = load(opt.cubins[0], fi);
  gemmc_kernel *plain = load(opt.cubins[1], pi);
  if (fi.bias != 2 || fi.bias_type != GEMMC_BF16 || std::string(fi.activation) != "gelu_tanh" ||
      fi.c_type != GEMMC_BF16 || fi.has_aux) {
    std::fprintf(stderr, "gemmc-bench --epilogue: %s must have bias: col (bf16), activation: gelu_tanh, bf16 C "
                         "and no aux (cuBLASLt's EPILOGUE_GELU_BIAS)\n",
                 opt.cubins[0].c_str());
    return 2;
  }
  CUmodule module;
  CUfunction biasGelu;
  BENCH_CU(cuModuleLoadData(&module, kBiasGeluPtx));
  BENCH_CU(cuModuleGetFunction(&biasGelu, module, "bias_gelu_bf16"));
  cublasHandle_t blas;
  HARNESS_CUBLAS(cublasCreate(&blas));
  cudaStream_t stream;
  HARNESS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasSetStream(blas, stream);
  std::printf("%-22s %10s %10s %10s %10s %9s %9s %9s\n", "shape MxNxK", "plain us", "fused us", "lt us",
              "unfused us", "fused/pl", "lt/fused", "unf/fused");
  for (const std::string &shape : opt.shapes) {
    int64_t m, n, k;
    if (!parseShape(shape, m, n, k)) {
      std::fprintf(stderr, "bad shape '%s'\n", shape.c_str());
      return 2;
    }
    uint64_t aRows = fi.a_layout == GEMMC_ROW ? m : k, aCols = fi.a_layout == GEMMC_ROW ? k : m;
    uint64_t bRows = fi.b_layout == GEMMC_COL ? n : k, bCols = fi.b_layout == GEMMC_COL ? k : n;
    Operand a = makeOperand(fi.a_type, aRows, aCols, alignedLd(aCols, fi.a_type), 31);
    Operand b = makeOperand(fi.b_type, bRows, bCols, alignedLd(bCols, fi.b_type), 32);
    Operand bias = makeOperand(GEMMC_BF16, 1, n, n, 33);
    int64_t ldc = alignedLd(n, GEMMC_BF16);
    DeviceBuffer c(size_t(m) * ldc * 2);
    gemmc_gemm_args args;
    gemmc_gemm_args_init(&args);
    args.m = m;
    args.n = n;
    args.k = k;
    args.a = a.data.ptr;
    args.lda = int64_t(a.ld);
    args.a_type = fi.a_type;
    args.a_layout = fi.a_layout;
    args.b = b.data.ptr;
    args.ldb = int64_t(b.ld);
    args.b_type = fi.b_type;
    args.b_layout = fi.b_layout;
    args.c = c.ptr;
    args.ldc = ldc;
    args.c_type = GEMMC_BF16;
    gemmc_gemm_args fargs = args;
    fargs.bias = bias.data.ptr;
    fargs.bias_length = n;
    fargs.bias_type = GEMMC_BF16;
    LtGeluBias lt(m, n, k, fi, bias.data.ptr, ldc);
    Problem p{m, n, k, fi.a_layout, fi.b_layout};
    CUdeviceptr cPtr = reinterpret_cast<CUdeviceptr>(c.ptr), biasPtr = reinterpret_cast<CUdeviceptr>(bias.data.ptr);
    uint32_t mi = uint32_t(m), ni = uint32_t(n), ldci = uint32_t(ldc);
    void *params[] = {&cPtr, &biasPtr, &mi, &ni, &ldci};
    std::string why;
    std::vector<std::function<void()>> bodies = {
        [&] { launchOrDie(plain, args, stream); },
        [&] { launchOrDie(fused, fargs, stream); },
        [&] {
          if (!cublasGemm(blas, p, a, b, c.ptr, CUDA_R_16BF, ldc, 1.0f, /*exactRef=*/false, why))
            die("cuBLAS: " + why, __FILE__, __LINE__);
          unsigned gx = unsigned((n + 255) / 256), gy = unsigned(std::min<int64_t>(m, 65535));
          BENCH_CU(cuLaunchKernel(biasGelu, gx, gy, 1, 256, 1, 1, 0, reinterpret_cast<CUstream>(stream), params,
                                  nullptr));
        }};
    if (lt.ok)
      bodies.push_back([&] { lt.run(a.data.ptr, b.data.ptr, c.ptr, stream); });
    std::vector<double> us = interleavedMediansUs(stream, opt.warmup, opt.iters, bodies);
    double plainUs = us[0], fusedUs = us[1], unfusedUs = us[2], ltUs = lt.ok ? us[3] : NAN;
    std::printf("%-22s %10.1f %10.1f %10.1f %10.1f %8.1f%% %9.2f %9.2f\n", shape.c_str(), plainUs, fusedUs, ltUs,
                unfusedUs, 100.0 * (fusedUs / plainUs - 1.0), ltUs / fusedUs, unfusedUs / fusedUs);
  }
  cudaStreamDestroy(stream);
  cublasDestroy(blas);
  cuModuleUnload(module);
  gemmc_kernel_unload(fused);
  gemmc_kernel_unload(plain);
  return 0;
}

/// One kernel's rows of the chain table (chainMode).
int chainKernel(const Options &opt, const std::string &cubin, cudaStream_t stream) {
  constexpr int kChain = 8;
  gemmc_kernel_info info;
  gemmc_kernel *kernel = load(cubin, info);
  if (!info.pdl_wait || info.c_type != info.a_type || info.a_layout != GEMMC_ROW) {
    std::fprintf(stderr, "gemmc-bench --chain: %s must be built with pdl_wait, have C of A's type and a row A\n",
                 cubin.c_str());
    gemmc_kernel_unload(kernel);
    return 2;
  }
  std::printf("## %s\n%-22s %-7s %12s %12s %12s %12s %8s\n", cubin.c_str(), "shape MxNxK", "launch", "alone us",
              "plain/GEMM", "pdl/GEMM", "gap plain", "gap pdl");
  for (const std::string &shape : opt.shapes) {
    int64_t m, n, k;
    if (!parseShape(shape, m, n, k) || n != k) {
      std::fprintf(stderr, "bad chain shape '%s' (MxNxK with N = K)\n", shape.c_str());
      gemmc_kernel_unload(kernel);
      return 2;
    }
    const size_t eb = gemmc_dtype_bytes(info.c_type);
    const int64_t ld = alignedLd(n, info.c_type);
    Operand x0 = makeOperand(info.a_type, m, k, ld, 41);
    std::vector<Operand> w;
    std::vector<DeviceBuffer> out;
    for (int i = 0; i < kChain; ++i) {
      w.push_back(makeOperand(info.b_type, n, k, alignedLd(k, info.b_type), 50 + i));
      out.emplace_back(size_t(m) * ld * eb);
    }
    auto argsFor = [&](int i, uint32_t flags) {
      return chainArgs(info, m, n, i == 0 ? x0.data.ptr : out[i - 1].ptr, ld, w[i], out[i].ptr, ld, flags);
    };
    gemmc_gemm_args one = argsFor(0, 0);
    double aloneUs = medianUs(stream, opt.warmup, opt.iters, [&] { launchOrDie(kernel, one, stream); });
    auto chain = [&](uint32_t flags) {
      for (int i = 0; i < kChain; ++i)
        launchOrDie(kernel, argsFor(i, flags), stream);
    };
    auto graphOf = [&](uint32_t flags) {
      chain(flags); // warm the tensor-map cache: a warm launch is capturable
      HARNESS_CUDA(cudaStreamSynchronize(stream));
      cudaGraph_t g;
      cudaGraphExec_t exec;
      HARNESS_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
      chain(flags);
      HARNESS_CUDA(cudaStreamEndCapture(stream, &g));
      HARNESS_CUDA(cudaGraphInstantiate(&exec, g, 0));
      HARNESS_CUDA(cudaGraphDestroy(g));
      return exec;
    };
    for (bool graph : {false, true}) {
      double perGemm[2];
      for (uint32_t flags : {0u, GEMMC_LAUNCH_PDL}) {
        double us;
        if (graph) {
          cudaGraphExec_t exec = graphOf(flags);
          us = medianUs(stream, opt.warmup, opt.iters, [&] { HARNESS_CUDA(cudaGraphLaunch(exec, stream)); });
          cudaGraphExecDestroy(exec);
        } else {
          us = medianUs(stream, opt.warmup, opt.iters, [&] { chain(flags); });
        }
        perGemm[flags ? 1 : 0] = us / kChain;
      }
      std::printf("%-22s %-7s %12.2f %12.2f %12.2f %12.2f %8.2f   PDL speedup %.1f%%\n", shape.c_str(),
                  graph ? "graph" : "direct", aloneUs, perGemm[0], perGemm[1], perGemm[0] - aloneUs,
                  perGemm[1] - aloneUs, 100.0 * (perGemm[0] / perGemm[1] - 1.0));
    }
  }
  gemmc_kernel_unload(kernel);
  return 0;
}

/// Every kernel in one process (old and new variants side by side, same
/// device state), one table each.
int chainMode(const Options &opt) {
  if (opt.cubins.empty()) {
    std::fprintf(stderr, "gemmc-bench --chain PDL.cubin... [--shapes MxNxK,...]\n");
    return 2;
  }
  cudaStream_t stream;
  HARNESS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  int rc = 0;
  for (const std::string &cubin : opt.cubins)
    rc = std::max(rc, chainKernel(opt, cubin, stream));
  cudaStreamDestroy(stream);
  return rc;
}

} // namespace

int gemmc::bench::runFusedBench(int argc, char **argv) {
  Options opt;
  std::string mode = argv[1];
  opt.shapes = mode == "--epilogue" ? std::vector<std::string>{"8192x28672x8192", "256x28672x8192"}
                                    : std::vector<std::string>{"16x8192x8192", "1x8192x8192"};
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--shapes" || a == "--iters" || a == "--warmup") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--shapes")
        opt.shapes = split(v, ',');
      else if (a == "--iters")
        opt.iters = std::max(1, std::atoi(v.c_str()));
      else
        opt.warmup = std::max(0, std::atoi(v.c_str()));
    } else {
      opt.cubins.push_back(a);
    }
  }
  std::string why;
  if (!useFirstGpu(why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return kSkipExitCode;
  }
  return mode == "--epilogue" ? epilogueMode(opt) : chainMode(opt);
}
