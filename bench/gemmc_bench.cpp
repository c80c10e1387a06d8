// gemmc-bench: gemmc kernels against cuBLAS, in one process, on the same
// inputs. See bench/README.md for the flags and the method.
#include "ClockSampler.h"
#include "FusedBench.h"
#include "Harness.h"
#ifdef GEMMC_HAVE_CUBLASLT
#include "LtPeer.h"
#else
using cublasLtHandle_t = void *;
#endif
#include "Suite.h"

#include "gemmc/runtime.h"
#include "gemmc/runtime/Json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fnmatch.h>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace gemmc::harness;
using gemmc::bench::Suite;
using gemmc::rt::JsonValue;

namespace {

struct Options {
  std::string suite = "bench/suites/anchors.yaml";
  std::vector<std::string> cubinDirs;
  std::vector<std::string> onlyShapes;
  std::vector<std::string> cubinGlobs; // overrides the suite's cubins
  std::vector<std::string> bundles;    // --bundle DIR (repeatable): bundles, not cubins
  int iters = 30, warmup = 5;
  bool graph = false;
  // --profile: one launch of gemmc and one of its peer per row, nothing
  // else (no reference, no check, no timing), so that an ncu run needs no
  // kernel filter: every kernel it sees is gemmc's or the peer's.
  bool profile = false;
  // --time-wrong: time a kernel whose answer is wrong anyway (it stays
  // WRONG, and the exit status says so). For diagnostic builds that drop
  // part of the work on purpose, to weigh what the dropped part costs.
  bool timeWrong = false;
  double sustain = 0; // seconds per phase of --sustain; 0 = off
  // --clocks: NVML's SM clock and board power over each row's interleaved
  // timing (sampled every 2 ms), to say at what clock a row's median ran.
  bool clocks = false;
  std::string json, csv, appendResults, commit = "unknown", predictions, triton;
  double maxGflop = 0;
};

struct Stats {
  double median = NAN, p10 = NAN, p90 = NAN, min = NAN;
  double spreadPct() const { return median > 0 ? 100.0 * (p90 - p10) / median : NAN; }
};

Stats stats(std::vector<float> v) {
  Stats s;
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * (v.size() - 1) + 0.5))]; };
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  s.p10 = at(0.1);
  s.p90 = at(0.9);
  s.min = v.front();
  return s;
}

struct Row {
  std::string shape, cubin, kernel, dtype, layout;
  int64_t m = 0, n = 0, k = 0;
  std::string status = "ok"; // ok | WRONG | ERROR | skip
  std::string note;
  double relErr = NAN, cublasRelErr = NAN;
  int sets = 1;
  Stats gemmc, cublas;       // ms
  double gemmcGraphMs = NAN, cublasGraphMs = NAN;
  // --sustain: back-to-back runs of one side at a time, with the SM clock
  // and board power NVML saw over the second half of each phase.
  double gemmcSustainMs = NAN, cublasSustainMs = NAN;
  gemmc::bench::ClockSampler::Summary gemmcClock, cublasClock;
  // --clocks: over step 2's interleaved runs (both sides together).
  gemmc::bench::ClockSampler::Summary timedClock;
  double predicted = NAN;    // TFLOP/s
  double triton = NAN;       // TFLOP/s
  double flops() const { return 2.0 * m * n * k; }
  /// Achieved bandwidth of gemmc's median run over the fewest bytes.
  double gemmcGbps() const { return gemmc.median > 0 ? bytes / (gemmc.median * 1e-3) / 1e9 : NAN; }
  double bytes = 0;
  /// The grid gemmc_launch_grid gives for this shape (x, y, z; 0 where it
  /// failed): with a cluster, the resident clusters the driver reports bound a
  /// persistent or stream-K grid, so fewer than the SM count may run.
  uint32_t grid[3] = {0, 0, 0};
};

double tflops(double flops, double ms) { return ms > 0 ? flops / (ms * 1e-3) / 1e12 : NAN; }

std::string fmt(double v, const char *f = "%.1f") {
  if (std::isnan(v))
    return "-";
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// The row's kernel, dtype, layouts and launched grid (r.m and r.n set; the
/// grid left 0 where gemmc_launch_grid fails: benchRow reports the launch's
/// own error).
void describeKernel(Row &r, const gemmc_kernel *kernel, const gemmc_kernel_info &info) {
  r.kernel = info.name;
  r.dtype = gemmc_dtype_name(info.a_type);
  r.layout = std::string(info.a_layout == GEMMC_ROW ? "row" : "col") + "/" + (info.b_layout == GEMMC_ROW ? "row" : "col");
  if (gemmc_launch_grid(kernel, r.m, r.n, r.grid) != GEMMC_OK)
    r.grid[0] = r.grid[1] = r.grid[2] = 0;
}

/// The row's progress line, printed as soon as it is measured.
void printProgress(const Row &r) {
  std::printf("  %-17s %-30s %s%s%s %s TFLOP/s (cuBLAS %s)\n", r.shape.c_str(), r.cubin.c_str(), r.status.c_str(),
              r.note.empty() ? "" : ": ", r.note.c_str(), fmt(tflops(r.flops(), r.gemmc.median)).c_str(),
              fmt(tflops(r.flops(), r.cublas.median)).c_str());
  std::fflush(stdout);
}

std::string readText(const std::string &path, bool &ok) {
  std::ifstream f(path);
  ok = static_cast<bool>(f);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string baseName(const std::string &path) {
  size_t p = path.find_last_of('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

std::string stem(const std::string &path) {
  std::string b = baseName(path);
  for (const char *ext : {".cubin", ".fatbin"})
    if (size_t d = b.rfind(ext); d != std::string::npos && d + std::strlen(ext) == b.size())
      return b.substr(0, d);
  return b;
}

std::vector<std::string> matchCubins(const std::vector<std::string> &dirs, const std::vector<std::string> &globs) {
  std::vector<std::string> out;
  for (const auto &dir : dirs) {
    std::vector<std::string> names;
    if (DIR *d = opendir(dir.c_str())) {
      while (dirent *e = readdir(d))
        names.push_back(e->d_name);
      closedir(d);
    }
    std::sort(names.begin(), names.end());
    for (const auto &name : names) {
      // An sm_80 fatbinary NAME.fatbin is matched as NAME.cubin, so that the
      // suites' "*.cubin" globs take it too.
      std::string asCubin = stem(name) + ".cubin";
      if (asCubin == name + ".cubin")
        continue;
      for (const auto &g : globs)
        if (fnmatch(g.c_str(), asCubin.c_str(), 0) == 0) {
          out.push_back(dir + "/" + name);
          break;
        }
    }
  }
  return out;
}

/// predictions.json: {"<shape>": 612.0, "<cubin stem>:<shape>": {...}, ...};
/// an object value gives "predicted_tflops" or "tflops". Most specific key wins.
double lookupPrediction(const JsonValue &p, const std::string &cubinStem, const std::string &kernel,
                        const std::string &shape) {
  for (const std::string &key : {cubinStem + ":" + shape, kernel + ":" + shape, shape}) {
    const JsonValue *v = p.find(key);
    if (!v)
      continue;
    if (v->isNumber())
      return v->asDouble();
    if (v->isObject())
      for (const char *f : {"predicted_tflops", "tflops"})
        if (const JsonValue *x = v->find(f); x && x->isNumber())
          return x->asDouble();
  }
  return NAN;
}

/// triton.json from bench/triton_matmul.py: {"rows": [{"shape": ..., "tflops": ...}, ...]}.
std::map<std::string, double> readTriton(const JsonValue &t) {
  std::map<std::string, double> out;
  const JsonValue *rows = t.find("rows");
  if (!rows || !rows->isArray())
    return out;
  for (const auto &r : rows->items()) {
    const JsonValue *s = r.find("shape"), *v = r.find("tflops");
    if (s && s->isString() && v && v->isNumber())
      out[s->asString()] = v->asDouble();
  }
  return out;
}

std::string nowUtc() {
  std::time_t t = std::time(nullptr);
  char b[64];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M UTC", std::gmtime(&t));
  return b;
}

std::string nvidiaDriverVersion() {
  std::ifstream f("/proc/driver/nvidia/version");
  std::string line;
  if (f && std::getline(f, line)) {
    // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  ..."
    std::istringstream ss(line);
    std::string w;
    while (ss >> w)
      if (std::count(w.begin(), w.end(), '.') == 2 && std::isdigit(static_cast<unsigned char>(w[0])))
        return w;
  }
  int v = 0;
  cudaDriverGetVersion(&v);
  return "CUDA driver API " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

struct Set {
  Operand a, b;
  DeviceBuffer c, cb;
  gemmc_gemm_args args;
};

// `bundle` set: every gemmc launch goes through gemmc_bundle_launch (its
// dispatch included in the time); `kernel` and `info` are its pick.
void benchRow(Row &row, gemmc_kernel *kernel, const gemmc_kernel_info &info, cublasHandle_t blas,
              cublasLtHandle_t lt, cudaStream_t stream, const Options &opt, size_t l2Bytes, gemmc::bench::ClockSampler *sampler,
              gemmc_bundle *bundle = nullptr) {
  auto launch = [&](const gemmc_gemm_args *a) {
    return bundle ? gemmc_bundle_launch(bundle, a, stream) : gemmc_launch(kernel, a, stream);
  };
  const int64_t m = row.m, n = row.n, k = row.k;
  Problem p{m, n, k, info.a_layout, info.b_layout};
  const size_t ab = gemmc_dtype_bytes(info.a_type), bb = gemmc_dtype_bytes(info.b_type),
               cb = gemmc_dtype_bytes(info.c_type);
  row.bytes = double(m) * k * ab + double(k) * n * bb + double(m) * n * cb;
  // Rotate among input sets when one set fits in L2, so that the timed runs
  // read from memory, as they would in a model.
  double ws = row.bytes + double(m) * n * cb; // + cuBLAS's own C
  int sets = ws < double(l2Bytes) ? static_cast<int>(std::min(32.0, std::ceil(3.0 * l2Bytes / ws))) : 1;
  row.sets = sets;
  uint64_t aRows = info.a_layout == GEMMC_ROW ? m : k, aCols = info.a_layout == GEMMC_ROW ? k : m;
  uint64_t bRows = info.b_layout == GEMMC_COL ? n : k, bCols = info.b_layout == GEMMC_COL ? k : n;
  int64_t ldc = alignedLd(n, info.c_type);
  // FP8 kernels with per-tensor scales: operands over the type's range and
  // scales that bring them back (gemmc-gpu-tests does the same); the peer
  // reads the same scales.
  int aExp = info.a_scale ? fp8RangeExp2(info.a_type) : 0, bExp = info.b_scale ? fp8RangeExp2(info.b_type) : 0;
  // Scale vectors (per row of A, per column of B) hold M and N copies of
  // the same value, so the reference's alpha is still the product.
  const bool vectors = info.a_scale == GEMMC_SCALE_ROW || info.b_scale == GEMMC_SCALE_COL;
  float scaleA = std::ldexp(1.0f, -aExp), scaleB = std::ldexp(1.0f, -bExp);
  // B's scales start 16 bytes aligned: cuBLASLt refuses ("not supported",
  // at cublasLtMatmul) a per-tensor scale pointer 4 bytes past another.
  const int64_t aCount = vectors ? m : 1, bCount = vectors ? n : 1;
  const int64_t bStart = (aCount + 3) / 4 * 4;
  std::vector<float> hostScales(bStart + bCount, scaleB);
  std::fill(hostScales.begin(), hostScales.begin() + bStart, scaleA);
  DeviceBuffer scales(hostScales.size() * sizeof(float));
  HARNESS_CUDA(cudaMemcpy(scales.ptr, hostScales.data(), scales.bytes, cudaMemcpyHostToDevice));
  const float *dScaleA = static_cast<const float *>(scales.ptr), *dScaleB = dScaleA + bStart;
  // Block scales (scale: block): random per block, in the layouts cuBLASLt
  // reads too (each buffer its own allocation, so 16-byte aligned); the
  // reference multiplies the dequantized f32 operands instead.
  const bool blockScaled = info.a_scale == GEMMC_SCALE_BLOCK && info.b_scale == GEMMC_SCALE_BLOCK;
  BlockScales blocks;
  if (blockScaled) {
    blocks = makeBlockScales(m, n, k, aExp, bExp, 19);
    dScaleA = static_cast<const float *>(blocks.aDev.ptr);
    dScaleB = static_cast<const float *>(blocks.bDev.ptr);
  }
  // An FP8 output's scale (c scale: tensor), the same for the peer
  // (cuBLASLt's D_SCALE_POINTER); without one both multiply by 1.
  const float outScale = info.c_scale ? 0.5f : 1.0f;
  DeviceBuffer scaleDBuf(sizeof(float));
  HARNESS_CUDA(cudaMemcpy(scaleDBuf.ptr, &outScale, sizeof(float), cudaMemcpyHostToDevice));
  const float *dScaleD = info.c_scale ? static_cast<const float *>(scaleDBuf.ptr) : nullptr;
  const bool fp8Out = info.c_type == GEMMC_E4M3 || info.c_type == GEMMC_E5M2;
  std::vector<Set> s(sets);
  for (int i = 0; i < sets; ++i) {
    s[i].a = makeOperand(info.a_type, aRows, aCols, alignedLd(aCols, info.a_type), 17 + 2 * i, aExp);
    s[i].b = makeOperand(info.b_type, bRows, bCols, alignedLd(bCols, info.b_type), 18 + 2 * i, bExp);
    s[i].c = DeviceBuffer(size_t(m) * ldc * cb);
    s[i].cb = DeviceBuffer(size_t(m) * ldc * cb);
    gemmc_gemm_args &a = s[i].args;
    gemmc_gemm_args_init(&a);
    a.m = m;
    a.n = n;
    a.k = k;
    a.a = s[i].a.data.ptr;
    a.lda = int64_t(s[i].a.ld);
    a.a_type = info.a_type;
    a.a_layout = info.a_layout;
    a.b = s[i].b.data.ptr;
    a.ldb = int64_t(s[i].b.ld);
    a.b_type = info.b_type;
    a.b_layout = info.b_layout;
    a.c = s[i].c.ptr;
    a.ldc = ldc;
    a.c_type = info.c_type;
    if (info.a_scale)
      a.scale_a = dScaleA;
    if (info.b_scale)
      a.scale_b = dScaleB;
    a.scale_d = dScaleD;
  }
  cublasSetStream(blas, stream);
  // The peer of an FP8 kernel is cuBLASLt's FP8 GEMM with the same scales
  // and output type, with fast accumulation (no promotion of the tensor
  // cores' partial sums, as gemmc's kernels; GEMMC_BENCH_LT_PROMOTE=1 turns
  // promotion on; block scales run without it, the only block-scaled form
  // CUDA 13.0's cuBLASLt has on the H200, LtPeer.h); of the others, cuBLAS
  // (TF32: CUBLAS_COMPUTE_32F_FAST_TF32).
  const bool fp8 = info.a_type == GEMMC_E4M3 || info.a_type == GEMMC_E5M2;
#ifdef GEMMC_HAVE_CUBLASLT
  std::unique_ptr<LtFp8Gemm> ltGemm;
  if (fp8) {
    const char *promote = std::getenv("GEMMC_BENCH_LT_PROMOTE");
    bool fastAccum = !(promote && *promote && std::strcmp(promote, "0") != 0);
    ltGemm = std::make_unique<LtFp8Gemm>(lt, p, s[0].a, s[0].b, cudaType(info.c_type), ldc,
                                         blockScaled ? ScaleMode::Block
                                         : vectors   ? ScaleMode::Vector
                                                     : ScaleMode::Tensor,
                                         fastAccum, size_t(32) << 20);
  }
  auto peer = [&](Set &x, std::string &w) {
    if (!fp8)
      return cublasGemm(blas, p, x.a, x.b, x.cb.ptr, cudaType(info.c_type), ldc, 1.0f, false, w);
    bool ok = ltGemm->run(x.a.data.ptr, x.b.data.ptr, x.cb.ptr, 1.0f, dScaleA, dScaleB, stream, dScaleD);
    if (!ok)
      w = "cuBLASLt FP8: " + ltGemm->why();
    return ok;
  };
#else
  auto peer = [&](Set &x, std::string &w) {
    if (!fp8)
      return cublasGemm(blas, p, x.a, x.b, x.cb.ptr, cudaType(info.c_type), ldc, 1.0f, false, w);
    w = "no FP8 peer: gemmc-bench was built without cuBLASLt";
    return false;
  };
#endif

  if (opt.profile) {
    // Unchecked: for a profiler only (the note says so in the row).
    gemmc_status st = launch(&s[0].args);
    std::string w;
    bool peerRan = peer(s[0], w);
    HARNESS_CUDA(cudaStreamSynchronize(stream));
    row.status = st == GEMMC_OK ? "ok" : "ERROR";
    row.note = std::string("--profile: one launch each, unchecked") + (peerRan ? "" : "; peer: " + w);
    return;
  }
  // 1. Correctness first: a wrong kernel gets no number.
  DeviceBuffer ref(size_t(m) * n * 4);
  poisonNaN(s[0].c.ptr, info.c_type, size_t(m) * ldc, stream);
  gemmc_status st = launch(&s[0].args);
  if (st != GEMMC_OK) {
    row.status = "ERROR";
    row.note = gemmc_last_error();
    return;
  }
  std::string why;
  bool haveCublas;
  if (blockScaled) {
    Operand refA = dequantize(s[0].a, blocks, /*isA=*/true, m), refB = dequantize(s[0].b, blocks, /*isA=*/false, m);
    haveCublas = cublasGemm(blas, p, refA, refB, ref.ptr, CUDA_R_32F, n, 1.0f, false, why);
    HARNESS_CUDA(cudaStreamSynchronize(stream)); // before refA and refB go
  } else {
    haveCublas = cublasGemm(blas, p, s[0].a, s[0].b, ref.ptr, CUDA_R_32F, n, scaleA * scaleB, true, why);
  }
  cudaError_t ce = cudaStreamSynchronize(stream);
  if (ce != cudaSuccess) {
    std::fprintf(stderr, "fatal: GPU error after %s on %s: %s\n", row.cubin.c_str(), row.shape.c_str(),
                 cudaGetErrorString(ce));
    std::exit(1);
  }
  if (!haveCublas) {
    row.status = "ERROR";
    row.note = "reference: " + why;
    return;
  }
  // An FP8 output: each element within one ulp of the scaled, saturated
  // reference (compareFp8); the others: relative Frobenius error.
  auto check = [&](const void *c, bool &bad) -> Comparison {
    if (fp8Out) {
      Fp8Comparison f = compareFp8(c, info.c_type, ldc, static_cast<const float *>(ref.ptr), n, m, n, k, outScale);
      bad = f.nanCount > 0 || f.paddingWritten > 0 || f.ulpOver > 0;
      return f;
    }
    Comparison f = compare(c, info.c_type, ldc, static_cast<const float *>(ref.ptr), n, m, n);
    bad = f.nanCount > 0 || f.paddingWritten > 0 || !(f.relFrobenius < tolerance(info.c_type, info.a_type));
    return f;
  };
  bool wrong = false;
  Comparison cmp = check(s[0].c.ptr, wrong);
  row.relErr = cmp.relFrobenius;
  if (wrong) {
    row.status = "WRONG";
    row.note = "rel err " + fmt(cmp.relFrobenius, "%.2e") + ", unwritten " + std::to_string(cmp.nanCount);
    if (opt.timeWrong)
      row.note += "; timed anyway (--time-wrong)";
  }
  // From here on `wrong` means: not launched again.
  wrong = wrong && !opt.timeWrong;
  // cuBLAS's own output in the kernel's C type, checked the same way.
  bool cublasTimed = peer(s[0], why);
#ifdef GEMMC_HAVE_CUBLASLT
  // Block scales: every cuBLASLt variant tried and its answer (LtPeer.h),
  // so that a refusal is evidence.
  if (ltGemm && blockScaled)
    for (size_t at = 0, nl; (nl = ltGemm->attempts().find('\n', at)) != std::string::npos; at = nl + 1)
      std::printf("lt-block-peer %s %s: %s\n", row.shape.c_str(), row.cubin.c_str(),
                  ltGemm->attempts().substr(at, nl - at).c_str());
  const bool peerTransposed = ltGemm && ltGemm->transposedOut();
#else
  const bool peerTransposed = false;
#endif
  if (cublasTimed && peerTransposed) {
    // Its D is column-major M x N: timed, not compared.
    row.note += std::string(row.note.empty() ? "" : "; ") + "peer: cuBLASLt D = A^T B column-major, not compared";
  } else if (cublasTimed) {
    HARNESS_CUDA(cudaStreamSynchronize(stream));
    bool peerBad = false;
    row.cublasRelErr = check(s[0].cb.ptr, peerBad).relFrobenius;
  } else {
    row.note += (row.note.empty() ? "" : "; ") + why;
  }

  // 2. Timing, interleaved: gemmc, cuBLAS, gemmc, ... on rotating sets.
  auto runGemmc = [&](int i) { return launch(&s[i % sets].args); };
  auto runCublas = [&](int i) {
    std::string w;
    peer(s[i % sets], w);
  };
  for (int i = 0; i < opt.warmup; ++i) {
    if (!wrong)
      runGemmc(i);
    if (cublasTimed)
      runCublas(i);
  }
  std::vector<cudaEvent_t> ev(4 * opt.iters);
  for (auto &e : ev)
    HARNESS_CUDA(cudaEventCreate(&e));
  const double clock0 = sampler ? sampler->now() : 0;
  for (int i = 0; i < opt.iters; ++i) {
    HARNESS_CUDA(cudaEventRecord(ev[4 * i], stream));
    if (!wrong && (st = runGemmc(i)) != GEMMC_OK) {
      row.status = "ERROR";
      row.note = gemmc_last_error();
      break;
    }
    HARNESS_CUDA(cudaEventRecord(ev[4 * i + 1], stream));
    HARNESS_CUDA(cudaEventRecord(ev[4 * i + 2], stream));
    if (cublasTimed)
      runCublas(i);
    HARNESS_CUDA(cudaEventRecord(ev[4 * i + 3], stream));
  }
  HARNESS_CUDA(cudaStreamSynchronize(stream));
  if (sampler && opt.clocks)
    row.timedClock = sampler->between(clock0, sampler->now());
  std::vector<float> tg, tc;
  for (int i = 0; i < opt.iters; ++i) {
    float a = 0, b = 0;
    HARNESS_CUDA(cudaEventElapsedTime(&a, ev[4 * i], ev[4 * i + 1]));
    HARNESS_CUDA(cudaEventElapsedTime(&b, ev[4 * i + 2], ev[4 * i + 3]));
    tg.push_back(a);
    tc.push_back(b);
  }
  for (auto &e : ev)
    cudaEventDestroy(e);
  if (!wrong && (row.status == "ok" || (opt.timeWrong && row.status == "WRONG")))
    row.gemmc = stats(tg);
  if (cublasTimed)
    row.cublas = stats(tc);

  // 3. CUDA-graph replay: R launches captured once, replayed; time per launch.
  if (opt.graph) {
    const int R = 20, reps = 5;
    auto timeGraph = [&](bool gemmcSide) -> double {
      cudaGraph_t g;
      cudaGraphExec_t exec;
      if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) != cudaSuccess)
        return NAN;
      bool ok = true;
      for (int i = 0; i < R; ++i) {
        if (gemmcSide)
          ok &= runGemmc(i) == GEMMC_OK;
        else
          runCublas(i);
      }
      if (cudaStreamEndCapture(stream, &g) != cudaSuccess || !ok) {
        cudaGetLastError();
        return NAN;
      }
      if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
        cudaGraphDestroy(g);
        cudaGetLastError();
        return NAN;
      }
      cudaEvent_t e0, e1;
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      cudaGraphLaunch(exec, stream);
      std::vector<float> t;
      for (int r = 0; r < reps; ++r) {
        cudaEventRecord(e0, stream);
        cudaGraphLaunch(exec, stream);
        cudaEventRecord(e1, stream);
        cudaEventSynchronize(e1);
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms / R);
      }
      cudaEventDestroy(e0);
      cudaEventDestroy(e1);
      cudaGraphExecDestroy(exec);
      cudaGraphDestroy(g);
      return stats(t).median;
    };
    if (!wrong && row.status == "ok")
      row.gemmcGraphMs = timeGraph(true);
    if (cublasTimed)
      row.cublasGraphMs = timeGraph(false);
  }

  // 4. Sustained: gemmc alone, cuBLAS alone, twice over (A B A B), each phase
  // opt.sustain seconds of back-to-back launches in batches of about 20 ms.
  // Per side: the median time per launch and the mean clock and power over
  // the second half of its phases, when the board has settled.
  if (opt.sustain > 0 && sampler && !wrong && row.status == "ok" && cublasTimed) {
    cudaEvent_t e0, e1;
    HARNESS_CUDA(cudaEventCreate(&e0));
    HARNESS_CUDA(cudaEventCreate(&e1));
    double guessMs = std::max(1e-3, std::min(row.gemmc.median, row.cublas.median));
    const int batch = std::max(1, static_cast<int>(20.0 / guessMs));
    std::vector<float> ms[2];
    gemmc::bench::ClockSampler::Summary sum[2];
    for (int phase = 0; phase < 4; ++phase) {
      const int side = phase % 2; // 0 gemmc, 1 cuBLAS
      const double t0 = sampler->now();
      double half = t0 + opt.sustain / 2;
      int i = 0;
      while (sampler->now() - t0 < opt.sustain) {
        HARNESS_CUDA(cudaEventRecord(e0, stream));
        for (int j = 0; j < batch; ++j, ++i)
          side == 0 ? static_cast<void>(runGemmc(i)) : runCublas(i);
        HARNESS_CUDA(cudaEventRecord(e1, stream));
        HARNESS_CUDA(cudaEventSynchronize(e1));
        float t = 0;
        HARNESS_CUDA(cudaEventElapsedTime(&t, e0, e1));
        if (sampler->now() >= half)
          ms[side].push_back(t / batch);
      }
      sum[side].merge(sampler->between(half, sampler->now()));
    }
    row.gemmcSustainMs = stats(ms[0]).median;
    row.cublasSustainMs = stats(ms[1]).median;
    row.gemmcClock = sum[0];
    row.cublasClock = sum[1];
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
  }
}

void printTable(const std::vector<Row> &rows, bool graph, bool haveTriton) {
  std::printf("\n%-17s %-30s %-18s %9s %8s %7s %6s | %9s %8s | %6s", "shape", "cubin", "MxNxK", "gemmc ms",
              "TFLOP/s", "GB/s", "spr%", "cuBLAS ms", "TFLOP/s", "ratio");
  if (graph)
    std::printf(" | %8s %8s", "graph g", "graph cB");
  if (haveTriton)
    std::printf(" | %7s", "Triton");
  std::printf(" | %7s %6s | %s\n", "pred", "err%", "status");
  for (const Row &r : rows) {
    std::string gms = r.status == "ok" ? fmt(r.gemmc.median, "%.3f") : r.status;
    double gt = tflops(r.flops(), r.gemmc.median), ct = tflops(r.flops(), r.cublas.median);
    std::printf("%-17s %-30s %-18s %9s %8s %7s %6s | %9s %8s | %6s", r.shape.c_str(), r.cubin.substr(0, 30).c_str(),
                shapeString(r.m, r.n, r.k).c_str(), gms.c_str(), fmt(gt).c_str(),
                fmt(r.gemmcGbps(), "%.0f").c_str(),
                fmt(r.gemmc.spreadPct()).c_str(), fmt(r.cublas.median, "%.3f").c_str(), fmt(ct).c_str(),
                fmt(gt / ct, "%.2f").c_str());
    if (graph)
      std::printf(" | %8s %8s", fmt(tflops(r.flops(), r.gemmcGraphMs)).c_str(),
                  fmt(tflops(r.flops(), r.cublasGraphMs)).c_str());
    if (haveTriton)
      std::printf(" | %7s", fmt(r.triton).c_str());
    std::printf(" | %7s %6s | %s%s%s\n", fmt(r.predicted).c_str(), fmt(100.0 * (gt - r.predicted) / r.predicted, "%+.0f").c_str(),
                r.status.c_str(), r.note.empty() ? "" : ": ", r.note.c_str());
  }
}

void printClockTable(const std::vector<Row> &rows) {
  std::printf("\nclocks (--clocks): NVML's mean SM MHz and board W over each row's interleaved runs (both sides)\n");
  std::printf("%-17s %-30s | %7s %6s %5s | %s\n", "shape", "cubin", "samples", "MHz", "W", "clock-event reasons");
  for (const Row &r : rows) {
    if (!r.timedClock.samples)
      continue;
    std::printf("%-17s %-30s | %7d %6.0f %5.0f | %s\n", r.shape.c_str(), r.cubin.substr(0, 30).c_str(),
                r.timedClock.samples, r.timedClock.mhz(), r.timedClock.power(),
                gemmc::bench::ClockSampler::reasonNames(r.timedClock.reasons).c_str());
  }
}

void printSustainTable(const std::vector<Row> &rows) {
  std::printf("\nsustained (--sustain): median ms per launch, mean SM MHz and board W over each side's settled half\n");
  std::printf("%-17s %-30s | %9s %6s %5s | %9s %6s %5s | %6s %6s | %s\n", "shape", "cubin", "gemmc ms", "MHz", "W",
              "cuBLAS ms", "MHz", "W", "ratio", "clk", "clock-event reasons (gemmc / cuBLAS)");
  for (const Row &r : rows) {
    if (std::isnan(r.gemmcSustainMs))
      continue;
    const auto &g = r.gemmcClock, &c = r.cublasClock;
    std::printf("%-17s %-30s | %9.3f %6s %5s | %9.3f %6s %5s | %6.3f %6s | %s / %s\n", r.shape.c_str(),
                r.cubin.substr(0, 30).c_str(), r.gemmcSustainMs, fmt(g.mhz(), "%.0f").c_str(),
                fmt(g.power(), "%.0f").c_str(), r.cublasSustainMs, fmt(c.mhz(), "%.0f").c_str(),
                fmt(c.power(), "%.0f").c_str(), r.cublasSustainMs / r.gemmcSustainMs,
                fmt(g.mhz() / c.mhz(), "%.3f").c_str(),
                gemmc::bench::ClockSampler::reasonNames(g.reasons).c_str(),
                gemmc::bench::ClockSampler::reasonNames(c.reasons).c_str());
  }
}

std::string jsonStr(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}
std::string jsonNum(double v) { return std::isnan(v) || std::isinf(v) ? "null" : fmt(v, "%.6g"); }

struct Meta {
  std::string date, gpu, driver, commit;
  int sms = 0;
};

void writeJson(const std::string &path, const std::vector<Row> &rows, const Meta &meta, const Options &opt) {
  std::ofstream f(path);
  f << "{\n \"date\": " << jsonStr(meta.date) << ", \"gpu\": " << jsonStr(meta.gpu) << ", \"driver\": "
    << jsonStr(meta.driver) << ", \"commit\": " << jsonStr(meta.commit) << ", \"iters\": " << opt.iters
    << ", \"warmup\": " << opt.warmup << ",\n \"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    double gt = tflops(r.flops(), r.gemmc.median), ct = tflops(r.flops(), r.cublas.median);
    f << "  {\"shape\": " << jsonStr(r.shape) << ", \"cubin\": " << jsonStr(r.cubin) << ", \"kernel\": "
      << jsonStr(r.kernel) << ", \"dtype\": " << jsonStr(r.dtype) << ", \"layout\": " << jsonStr(r.layout)
      << ", \"m\": " << r.m << ", \"n\": " << r.n << ", \"k\": " << r.k << ", \"status\": " << jsonStr(r.status)
      << ", \"note\": " << jsonStr(r.note) << ", \"rel_err\": " << jsonNum(r.relErr)
      << ", \"cublas_rel_err\": " << jsonNum(r.cublasRelErr) << ", \"input_sets\": " << r.sets
      << ", \"gemmc_ms\": " << jsonNum(r.gemmc.median) << ", \"gemmc_ms_p10\": " << jsonNum(r.gemmc.p10)
      << ", \"gemmc_ms_p90\": " << jsonNum(r.gemmc.p90) << ", \"gemmc_tflops\": " << jsonNum(gt)
      << ", \"gemmc_gbps\": " << jsonNum(r.gemmcGbps())
      << ", \"cublas_ms\": " << jsonNum(r.cublas.median) << ", \"cublas_ms_p10\": " << jsonNum(r.cublas.p10)
      << ", \"cublas_ms_p90\": " << jsonNum(r.cublas.p90) << ", \"cublas_tflops\": " << jsonNum(ct)
      << ", \"ratio\": " << jsonNum(gt / ct) << ", \"gemmc_graph_ms\": " << jsonNum(r.gemmcGraphMs)
      << ", \"cublas_graph_ms\": " << jsonNum(r.cublasGraphMs) << ", \"predicted_tflops\": " << jsonNum(r.predicted)
      << ", \"triton_tflops\": " << jsonNum(r.triton) << ", \"gemmc_sustain_ms\": " << jsonNum(r.gemmcSustainMs)
      << ", \"cublas_sustain_ms\": " << jsonNum(r.cublasSustainMs)
      << ", \"gemmc_sustain_sm_mhz\": " << jsonNum(r.gemmcClock.mhz())
      << ", \"cublas_sustain_sm_mhz\": " << jsonNum(r.cublasClock.mhz())
      << ", \"gemmc_sustain_watts\": " << jsonNum(r.gemmcClock.power())
      << ", \"cublas_sustain_watts\": " << jsonNum(r.cublasClock.power())
      << ", \"timed_sm_mhz\": " << jsonNum(r.timedClock.mhz()) << ", \"timed_watts\": " << jsonNum(r.timedClock.power())
      << ", \"grid\": [" << r.grid[0] << ", " << r.grid[1] << ", " << r.grid[2] << "]"
      << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  f << " ]\n}\n";
}

void writeCsv(const std::string &path, const std::vector<Row> &rows) {
  std::ofstream f(path);
  f << "shape,cubin,m,n,k,status,rel_err,gemmc_ms,gemmc_tflops,gemmc_gbps,spread_pct,cublas_ms,cublas_tflops,ratio,"
       "gemmc_graph_ms,cublas_graph_ms,predicted_tflops,triton_tflops\n";
  for (const Row &r : rows) {
    double gt = tflops(r.flops(), r.gemmc.median), ct = tflops(r.flops(), r.cublas.median);
    f << r.shape << "," << r.cubin << "," << r.m << "," << r.n << "," << r.k << "," << r.status << ","
      << jsonNum(r.relErr) << "," << jsonNum(r.gemmc.median) << "," << jsonNum(gt) << ","
      << jsonNum(r.gemmcGbps()) << ","
      << jsonNum(r.gemmc.spreadPct()) << "," << jsonNum(r.cublas.median) << "," << jsonNum(ct) << ","
      << jsonNum(gt / ct) << "," << jsonNum(r.gemmcGraphMs) << "," << jsonNum(r.cublasGraphMs) << ","
      << jsonNum(r.predicted) << "," << jsonNum(r.triton) << "\n";
  }
}

void appendMarkdown(const std::string &path, const std::vector<Row> &rows, const Meta &meta, bool haveTriton) {
  std::ofstream f(path, std::ios::app);
  f << "\n## " << meta.date << " — " << meta.gpu << ", driver " << meta.driver << ", commit " << meta.commit << "\n\n";
  f << "gemmc-bench: median of the timed runs (CUDA events), TFLOP/s; ratio = gemmc / cuBLAS in the same process.\n\n";
  f << "| shape | cubin | M×N×K | gemmc ms | gemmc TFLOP/s | cuBLAS TFLOP/s | ratio |" << (haveTriton ? " Triton TFLOP/s |" : "")
    << " predicted | status |\n|---|---|---|---|---|---|---|" << (haveTriton ? "---|" : "") << "---|---|\n";
  for (const Row &r : rows) {
    double gt = tflops(r.flops(), r.gemmc.median), ct = tflops(r.flops(), r.cublas.median);
    f << "| " << r.shape << " | " << r.cubin << " | " << shapeString(r.m, r.n, r.k) << " | "
      << (r.status == "ok" ? fmt(r.gemmc.median, "%.3f") : r.status) << " | " << fmt(gt) << " | " << fmt(ct)
      << " | " << fmt(gt / ct, "%.2f") << " |";
    if (haveTriton)
      f << " " << fmt(r.triton) << " |";
    f << " " << fmt(r.predicted) << " | " << r.status << " |\n";
  }
}

/// One bundle's row for `shape`: the kernel the bundle picks, timed with every
/// launch through gemmc_bundle_launch (its dispatch inside the time), and the
/// row's progress line printed. A shape no rule serves is an ERROR row with
/// the dispatch's explanation.
Row benchBundleRow(gemmc_bundle *bundle, const gemmc::bench::SuiteShape &shape, cublasHandle_t blas,
                   cublasLtHandle_t lt, cudaStream_t stream, const Options &opt, size_t l2Bytes,
                   gemmc::bench::ClockSampler *sampler) {
  Row r;
  r.shape = shape.name;
  r.m = shape.m;
  r.n = shape.n;
  r.k = shape.k;
  int32_t pick = gemmc_bundle_select(bundle, shape.m, shape.n, shape.k);
  if (pick < 0) {
    r.status = "ERROR";
    r.note = gemmc_last_error();
    std::printf("  %-17s bundle: %s\n", r.shape.c_str(), r.note.c_str());
    return r;
  }
  gemmc_kernel *kernel = const_cast<gemmc_kernel *>(gemmc_bundle_kernel(bundle, pick));
  gemmc_kernel_info info;
  gemmc_kernel_get_info(kernel, &info);
  r.cubin = "bundle:" + std::string(info.name);
  describeKernel(r, kernel, info);
  if (opt.maxGflop > 0 && r.flops() / 1e9 > opt.maxGflop) {
    r.status = "skip";
    r.note = "over --max-gflop";
  } else {
    benchRow(r, kernel, info, blas, lt, stream, opt, l2Bytes, sampler, bundle);
  }
  printProgress(r);
  return r;
}

int usage() {
  std::fprintf(stderr,
               "usage: gemmc-bench --cubin-dir DIR [--cubin-dir DIR]... [--suite FILE] [--shapes a,b] [--cubins GLOB,...]\n"
               "                   [--bundle DIR (a gemmc bundle instead of cubins; it dispatches per shape; repeat for more)]\n"
               "                   [--iters N] [--warmup N] [--graph] [--sustain SECONDS] [--clocks] [--max-gflop G] [--profile] [--time-wrong]\n"
               "                   [--predictions FILE] [--triton FILE] [--json FILE] [--csv FILE]\n"
               "                   [--append-results FILE] [--commit SHA]\n"
               "       gemmc-bench --epilogue FUSED.cubin PLAIN.cubin [--shapes MxNxK,...] [--iters N]\n"
               "       gemmc-bench --chain PDL.cubin... [--shapes MxNxK,...] [--iters N]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  // The fused-epilogue and PDL-chain modes have options of their own.
  if (argc > 1 && (std::string(argv[1]) == "--epilogue" || std::string(argv[1]) == "--chain"))
    return gemmc::bench::runFusedBench(argc, argv);
  Options opt;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--suite") opt.suite = next();
    else if (a == "--cubin-dir") opt.cubinDirs.push_back(next());
    else if (a == "--shapes") opt.onlyShapes = split(next(), ',');
    else if (a == "--cubins") opt.cubinGlobs = split(next(), ',');
    else if (a == "--bundle") opt.bundles.push_back(next());
    else if (a == "--iters") opt.iters = std::max(1, std::atoi(next().c_str()));
    else if (a == "--warmup") opt.warmup = std::max(0, std::atoi(next().c_str()));
    else if (a == "--graph") opt.graph = true;
    else if (a == "--time-wrong") opt.timeWrong = true;
    else if (a == "--profile") opt.profile = true;
    else if (a == "--sustain") opt.sustain = std::atof(next().c_str());
    else if (a == "--clocks") opt.clocks = true;
    else if (a == "--json") opt.json = next();
    else if (a == "--csv") opt.csv = next();
    else if (a == "--append-results") opt.appendResults = next();
    else if (a == "--commit") opt.commit = next();
    else if (a == "--predictions") opt.predictions = next();
    else if (a == "--triton") opt.triton = next();
    else if (a == "--max-gflop") opt.maxGflop = std::atof(next().c_str());
    else return usage();
  }
  if (opt.cubinDirs.empty() && opt.bundles.empty())
    return usage();
  if (opt.iters < 20)
    std::fprintf(stderr, "note: --iters %d is below the 20 timed runs the method asks for\n", opt.iters);

  bool ok;
  std::string text = readText(opt.suite, ok);
  if (!ok) {
    std::fprintf(stderr, "cannot read suite '%s'\n", opt.suite.c_str());
    return 2;
  }
  Suite suite;
  std::string err;
  if (!gemmc::bench::parseSuite(text, opt.suite, suite, err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 2;
  }
  JsonValue predictions, tritonJson;
  if (!opt.predictions.empty()) {
    std::string pt = readText(opt.predictions, ok);
    if (ok && !gemmc::rt::parseJson(pt, predictions, err))
      std::fprintf(stderr, "warning: predictions '%s': %s (ignored)\n", opt.predictions.c_str(), err.c_str());
    else if (!ok)
      std::fprintf(stderr, "note: no predictions file '%s'; the predicted column is '-'\n", opt.predictions.c_str());
  }
  std::map<std::string, double> triton;
  if (!opt.triton.empty()) {
    std::string tt = readText(opt.triton, ok);
    if (ok && gemmc::rt::parseJson(tt, tritonJson, err))
      triton = readTriton(tritonJson);
    else
      std::fprintf(stderr, "note: Triton results '%s' unreadable; no Triton column\n", opt.triton.c_str());
  }

  std::string why;
  if (!gpuAvailable(why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return kSkipExitCode;
  }
  HARNESS_CUDA(cudaSetDevice(0));
  HARNESS_CUDA(cudaFree(nullptr));
  cudaDeviceProp prop;
  HARNESS_CUDA(cudaGetDeviceProperties(&prop, 0));
  Meta meta{nowUtc(), prop.name, nvidiaDriverVersion(), opt.commit, prop.multiProcessorCount};
  std::printf("gemmc-bench on %s (%d SMs, L2 %d MB), driver %s, %d warm-up + %d timed runs\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, meta.driver.c_str(), opt.warmup, opt.iters);
  cublasHandle_t blas;
  HARNESS_CUBLAS(cublasCreate(&blas));
  DeviceBuffer workspace(64 << 20); // explicit, so that graph capture never allocates
  HARNESS_CUBLAS(cublasSetWorkspace(blas, workspace.ptr, workspace.bytes));
  cublasLtHandle_t lt = nullptr;
#ifdef GEMMC_HAVE_CUBLASLT
  HARNESS_CUBLAS(cublasLtCreate(&lt));
#endif
  cudaStream_t stream;
  HARNESS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::unique_ptr<gemmc::bench::ClockSampler> sampler;
  if (opt.sustain > 0 || opt.clocks) {
    sampler = std::make_unique<gemmc::bench::ClockSampler>(opt.clocks ? 2 : 10);
    if (!sampler->available())
      std::fprintf(stderr, "note: --sustain / --clocks without clock readings: %s\n", sampler->why().c_str());
  }
  std::map<std::string, gemmc_kernel *> kernels;
  std::vector<Row> rows;
  std::vector<gemmc_bundle *> bundles;
  for (const auto &dir : opt.bundles) {
    gemmc_bundle *bundle = nullptr;
    if (gemmc_bundle_load(dir.c_str(), &bundle) != GEMMC_OK) {
      std::fprintf(stderr, "error: --bundle %s: %s\n", dir.c_str(), gemmc_last_error());
      for (gemmc_bundle *b : bundles)
        gemmc_bundle_unload(b);
      return 1;
    }
    bundles.push_back(bundle);
  }
  for (const auto &shape : suite.shapes) {
    if (!opt.onlyShapes.empty() &&
        std::find(opt.onlyShapes.begin(), opt.onlyShapes.end(), shape.name) == opt.onlyShapes.end())
      continue;
    if (!bundles.empty()) {
      // Each bundle picks per shape, as cuBLAS does: one row a bundle and
      // shape, the bundles one after the other in this process (so that two
      // bundles' kernels compare in one process, as the method asks).
      for (gemmc_bundle *bundle : bundles)
        rows.push_back(benchBundleRow(bundle, shape, blas, lt, stream, opt, static_cast<size_t>(prop.l2CacheSize),
                                      sampler.get()));
      continue;
    }
    auto cubins = matchCubins(opt.cubinDirs, !opt.cubinGlobs.empty() ? opt.cubinGlobs
                                              : shape.cubins.empty() ? suite.cubins : shape.cubins);
    if (cubins.empty()) {
      Row r;
      r.shape = shape.name;
      r.m = shape.m;
      r.n = shape.n;
      r.k = shape.k;
      r.status = "skip";
      r.note = "no cubin matches";
      rows.push_back(r);
      continue;
    }
    for (const auto &path : cubins) {
      Row r;
      r.shape = shape.name;
      r.cubin = stem(path);
      r.m = shape.m;
      r.n = shape.n;
      r.k = shape.k;
      gemmc_kernel *&kernel = kernels[path];
      if (!kernel && gemmc_kernel_load(path.c_str(), &kernel) != GEMMC_OK) {
        kernel = nullptr;
        r.status = "ERROR";
        r.note = gemmc_last_error();
        rows.push_back(r);
        continue;
      }
      gemmc_kernel_info info;
      gemmc_kernel_get_info(kernel, &info);
      describeKernel(r, kernel, info);
      if (predictions.isObject())
        r.predicted = lookupPrediction(predictions, r.cubin, r.kernel, r.shape);
      if (triton.count(r.shape))
        r.triton = triton[r.shape];
      bool pinned = (info.problem[0] > 0 && info.problem[0] != r.m) || (info.problem[1] > 0 && info.problem[1] != r.n) ||
                    (info.problem[2] > 0 && info.problem[2] != r.k);
      if (pinned) {
        r.status = "skip";
        r.note = "cubin pinned to another size";
      } else if (opt.maxGflop > 0 && r.flops() / 1e9 > opt.maxGflop) {
        r.status = "skip";
        r.note = "over --max-gflop";
      } else if (info.bias || info.has_aux || std::string(info.activation) != "none") {
        // Its reference is not a plain GEMM's; --epilogue times it.
        r.status = "skip";
        r.note = "fused epilogue: see gemmc-bench --epilogue";
      } else {
        benchRow(r, kernel, info, blas, lt, stream, opt, static_cast<size_t>(prop.l2CacheSize), sampler.get());
      }
      printProgress(r);
      rows.push_back(r);
    }
  }
  printTable(rows, opt.graph, !triton.empty());
  if (opt.clocks)
    printClockTable(rows);
  if (opt.sustain > 0)
    printSustainTable(rows);
  if (!opt.json.empty())
    writeJson(opt.json, rows, meta, opt);
  if (!opt.csv.empty())
    writeCsv(opt.csv, rows);
  if (!opt.appendResults.empty())
    appendMarkdown(opt.appendResults, rows, meta, !triton.empty());
  for (auto &[path, k] : kernels)
    if (k)
      gemmc_kernel_unload(k);
  for (gemmc_bundle *bundle : bundles)
    gemmc_bundle_unload(bundle);
#ifdef GEMMC_HAVE_CUBLASLT
  cublasLtDestroy(lt);
#endif
  cublasDestroy(blas);
  bool anyWrong = false;
  for (const Row &r : rows)
    anyWrong |= r.status == "WRONG" || r.status == "ERROR";
  return anyWrong ? 1 : 0;
}
