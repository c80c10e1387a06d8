// gemmc-gpu-tests: the GPU correctness suite for gemmc cubins.
//
//   gemmc-gpu-tests [--cubin-dir DIR]... [--cubin FILE]... [--shapes MxNxK,...]
//                   [--max-gflop G] [--seed S]
//
// For every cubin (each with <cubin>.json beside it) and every shape: random
// non-zero operands in the kernel's dtypes and layouts, C poisoned with NaN
// before the launch, reference = cuBLAS with fp32 compute writing fp32,
// relative Frobenius error against the dtype's tolerance, no element of
// M x N left unwritten, and nothing written between N and ldc. Small shapes
// run a second time with padded leading dimensions. Then bad arguments must
// come back as errors, with C untouched and no GPU fault; and one launch is
// captured in a CUDA graph and replayed.
//
// FP8 kernels (issue 14): an operand the kernel scales spans its type's
// range (fp8RangeExp2) and gets a scale of 2^-e times 0.75 (A) or 1.25 (B);
// the reference is cuBLAS f32 on exact bf16 copies of the FP8 values with
// alpha x scale_a x scale_b, i.e. the dequantized inputs. Tolerances per
// output type: tolerance() in harness/Harness.cpp (relative Frobenius 1e-2
// for FP8 inputs and for 16-bit outputs, 1e-3 for TF32 into f32). Bad
// arguments add a missing, host or stray scale pointer.
//
// Exit: 0 all passed, 1 a case failed, 77 no GPU or no cubins (ctest: skipped).
#include "Harness.h"

#include "gemmc/runtime.h"

#include <cuda.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace gemmc::harness;

namespace {

const char *kDefaultShapes =
    "1x1x16,64x64x64,127x255x72,1000x1000x1000,4096x4096x4096,8192x28672x8192,256x8192x8192,16x8192x8192";

struct Options {
  std::vector<std::string> cubins;
  std::vector<std::string> shapes;
  double maxGflop = 0; // 0 = no limit
  uint64_t seed = 1234;
};

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> cubinsIn(const std::string &dir) {
  std::vector<std::string> out;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      // sm_80 kernels come as fatbinaries (SASS + PTX, JIT-compiled here).
      if (endsWith(name, ".cubin") || endsWith(name, ".fatbin"))
        out.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string baseName(const std::string &path) {
  size_t p = path.find_last_of('/');
  return p == std::string::npos ? path : path.substr(p + 1);
}

std::string layoutString(const gemmc_kernel_info &info) {
  return std::string("A:") + (info.a_layout == GEMMC_ROW ? "row" : "col") +
         " B:" + (info.b_layout == GEMMC_ROW ? "row" : "col");
}

int failures = 0;

void row(const std::string &cubin, const std::string &shape, const std::string &ld, const std::string &layout,
         const std::string &err, const std::string &detail, const char *result) {
  std::printf("%-34s %-18s %-7s %-13s %-10s %-30s %s\n", cubin.c_str(), shape.c_str(), ld.c_str(), layout.c_str(),
              err.c_str(), detail.c_str(), result);
  std::fflush(stdout);
}

struct Run {
  Operand a, b;
  DeviceBuffer c, ref;
  gemmc_gemm_args args;
  Problem problem;
  int64_t ldc = 0;
  /// FP8 kernels with scales: the device scalars, and their product, which
  /// the reference (on the dequantized values' exact bf16 copies) multiplies
  /// alpha by.
  DeviceBuffer scaleA, scaleB;
  float refScale = 1.0f;
};

/// A scaled FP8 operand spans its type's range (x 2^e) and its scale brings
/// it back (2^-e) times a factor that is not a power of two, so a kernel that
/// skipped the multiply or read the wrong scale fails the comparison.
/// Returns the scale, written to `buffer`.
float makeScale(DeviceBuffer &buffer, int exp2, float factor) {
  float scale = std::ldexp(factor, -exp2);
  buffer = DeviceBuffer(sizeof(float));
  HARNESS_CUDA(cudaMemcpy(buffer.ptr, &scale, sizeof scale, cudaMemcpyHostToDevice));
  return scale;
}

/// Allocates and fills operands for `kernel`'s dtypes and layouts. `pad`
/// adds 16 bytes' worth of elements to every leading dimension.
Run prepare(const gemmc_kernel_info &info, int64_t m, int64_t n, int64_t k, bool pad, uint64_t seed) {
  Run r;
  r.problem = {m, n, k, info.a_layout, info.b_layout};
  auto padTo = [&](int64_t extent, gemmc_dtype t) {
    int64_t ld = alignedLd(extent, t);
    return pad ? ld + static_cast<int64_t>(16 / gemmc_dtype_bytes(t)) : ld;
  };
  // Storage: A row = M rows of K; A col = K rows of M; B col = N rows of K; B row = K rows of N.
  uint64_t aRows = info.a_layout == GEMMC_ROW ? m : k, aCols = info.a_layout == GEMMC_ROW ? k : m;
  uint64_t bRows = info.b_layout == GEMMC_COL ? n : k, bCols = info.b_layout == GEMMC_COL ? k : n;
  // Only an operand the kernel scales may use the FP8 range: an unscaled
  // one's products would overflow a 16-bit C.
  int aExp = info.a_scale ? fp8RangeExp2(info.a_type) : 0, bExp = info.b_scale ? fp8RangeExp2(info.b_type) : 0;
  r.a = makeOperand(info.a_type, aRows, aCols, padTo(aCols, info.a_type), seed * 2 + 1, aExp);
  r.b = makeOperand(info.b_type, bRows, bCols, padTo(bCols, info.b_type), seed * 2 + 2, bExp);
  r.ldc = padTo(n, info.c_type);
  r.c = DeviceBuffer(static_cast<size_t>(m) * r.ldc * gemmc_dtype_bytes(info.c_type));
  r.ref = DeviceBuffer(static_cast<size_t>(m) * n * 4);
  gemmc_gemm_args_init(&r.args);
  r.args.m = m;
  r.args.n = n;
  r.args.k = k;
  r.args.a = r.a.data.ptr;
  r.args.lda = static_cast<int64_t>(r.a.ld);
  r.args.a_type = info.a_type;
  r.args.a_layout = info.a_layout;
  r.args.b = r.b.data.ptr;
  r.args.ldb = static_cast<int64_t>(r.b.ld);
  r.args.b_type = info.b_type;
  r.args.b_layout = info.b_layout;
  r.args.c = r.c.ptr;
  r.args.ldc = r.ldc;
  r.args.c_type = info.c_type;
  if (info.a_scale) {
    r.refScale *= makeScale(r.scaleA, aExp, 0.75f);
    r.args.scale_a = static_cast<const float *>(r.scaleA.ptr);
  }
  if (info.b_scale) {
    r.refScale *= makeScale(r.scaleB, bExp, 1.25f);
    r.args.scale_b = static_cast<const float *>(r.scaleB.ptr);
  }
  return r;
}

/// Launch (directly or through a captured graph), compare, print a row.
void correctnessCase(cublasHandle_t blas, gemmc_kernel *kernel, const gemmc_kernel_info &info,
                     const std::string &name, int64_t m, int64_t n, int64_t k, bool pad, float alpha, bool graph,
                     uint64_t seed) {
  std::string shape = shapeString(m, n, k);
  std::string ldTag = graph ? "graph" : pad ? "padded" : "tight";
  if (alpha != 1.0f)
    ldTag = "alpha";
  Run r = prepare(info, m, n, k, pad, seed);
  r.args.alpha = alpha;
  cudaStream_t stream;
  HARNESS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  poisonNaN(r.c.ptr, info.c_type, static_cast<size_t>(m) * r.ldc, stream);
  gemmc_status st = GEMMC_OK;
  cudaGraphExec_t exec = nullptr;
  if (graph) {
    // Warm the tensor-map cache first: a warm launch must be capturable.
    st = gemmc_check(kernel, &r.args);
    cudaGraph_t g;
    HARNESS_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    if (st == GEMMC_OK)
      st = gemmc_launch(kernel, &r.args, stream);
    cudaError_t ce = cudaStreamEndCapture(stream, &g);
    if (st == GEMMC_OK && ce != cudaSuccess) {
      row(name, shape, ldTag, layoutString(info), "-", std::string("capture: ") + cudaGetErrorString(ce), "FAIL");
      ++failures;
      cudaGetLastError();
      cudaStreamDestroy(stream);
      return;
    }
    if (st == GEMMC_OK) {
      HARNESS_CUDA(cudaGraphInstantiate(&exec, g, 0));
      HARNESS_CUDA(cudaGraphLaunch(exec, stream));
      HARNESS_CUDA(cudaGraphDestroy(g));
    }
  } else {
    st = gemmc_launch(kernel, &r.args, stream);
  }
  if (st != GEMMC_OK) {
    row(name, shape, ldTag, layoutString(info), "-", std::string(gemmc_status_name(st)), "FAIL");
    std::printf("    %s\n", gemmc_last_error());
    ++failures;
    cudaStreamDestroy(stream);
    return;
  }
  cudaError_t ke = cudaStreamSynchronize(stream);
  if (ke != cudaSuccess) {
    row(name, shape, ldTag, layoutString(info), "-", std::string("kernel: ") + cudaGetErrorString(ke), "FAIL");
    std::printf("    the GPU context is unusable after a fault; stopping\n");
    std::exit(1);
  }
  if (exec)
    cudaGraphExecDestroy(exec);
  std::string why;
  cublasSetStream(blas, stream);
  if (!cublasGemm(blas, r.problem, r.a, r.b, r.ref.ptr, CUDA_R_32F, n, alpha * r.refScale, /*exactRef=*/true,
                  why)) {
    row(name, shape, ldTag, layoutString(info), "-", "reference: " + why, "FAIL");
    ++failures;
    cudaStreamDestroy(stream);
    return;
  }
  HARNESS_CUDA(cudaStreamSynchronize(stream));
  Comparison cmp = compare(r.c.ptr, info.c_type, r.ldc, static_cast<const float *>(r.ref.ptr), n, m, n);
  double tol = tolerance(info.c_type, info.a_type);
  bool ok = cmp.nanCount == 0 && cmp.paddingWritten == 0 && cmp.relFrobenius < tol;
  char err[32], detail[96];
  std::snprintf(err, sizeof err, "%.2e", cmp.relFrobenius);
  std::snprintf(detail, sizeof detail, "max|d|/max|ref| %.1e%s%s", cmp.maxAbsOverMaxRef,
                cmp.nanCount ? (" NaN/unwritten " + std::to_string(cmp.nanCount)).c_str() : "",
                cmp.paddingWritten ? (" pad-written " + std::to_string(cmp.paddingWritten)).c_str() : "");
  row(name, shape, ldTag, layoutString(info), err, detail, ok ? "pass" : "FAIL");
  if (!ok)
    ++failures;
  cudaStreamDestroy(stream);
}

/// A call that must be refused: check the status, that C kept its poison and
/// that the GPU did not fault.
void expectRejected(gemmc_kernel *kernel, const std::string &name, const std::string &what,
                    const gemmc_gemm_args &args, const Run &r, const gemmc_kernel_info &info) {
  poisonNaN(r.c.ptr, info.c_type, static_cast<size_t>(r.args.m) * r.ldc, nullptr);
  HARNESS_CUDA(cudaDeviceSynchronize());
  gemmc_status st = gemmc_launch(kernel, &args, nullptr);
  cudaError_t ce = cudaDeviceSynchronize();
  bool untouched = true;
  if (ce == cudaSuccess) {
    std::vector<uint8_t> c(static_cast<size_t>(r.args.m) * r.ldc * gemmc_dtype_bytes(info.c_type));
    HARNESS_CUDA(cudaMemcpy(c.data(), r.c.ptr, c.size(), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < c.size(); i += gemmc_dtype_bytes(info.c_type))
      if (!std::isnan(decode(info.c_type, &c[i]))) {
        untouched = false;
        break;
      }
  }
  bool ok = st == GEMMC_ERROR_INVALID_ARGUMENT && ce == cudaSuccess && untouched;
  std::string msg = st == GEMMC_OK ? "accepted" : gemmc_last_error();
  if (msg.size() > 150)
    msg = msg.substr(0, 147) + "...";
  std::printf("%-34s bad-arg %-28s %-28s %s\n", name.c_str(), what.c_str(), gemmc_status_name(st),
              ok ? "pass" : "FAIL");
  std::printf("    %s%s\n", msg.c_str(),
              ce != cudaSuccess ? (std::string(" [GPU error: ") + cudaGetErrorString(ce) + "]").c_str()
              : !untouched      ? " [C was written]"
                                : "");
  if (!ok)
    ++failures;
  if (ce != cudaSuccess)
    std::exit(1);
}

void badArgumentCases(gemmc_kernel *kernel, const gemmc_kernel_info &info, const std::string &name) {
  const int64_t m = info.problem[0] > 0 ? info.problem[0] : 64;
  const int64_t n = info.problem[1] > 0 ? info.problem[1] : 64;
  const int64_t k = info.problem[2] > 0 ? info.problem[2] : 64;
  Run r = prepare(info, m, n, k, /*pad=*/false, 99);
  const size_t ab = gemmc_dtype_bytes(info.a_type);
  gemmc_gemm_args a;

  a = r.args;
  a.a = static_cast<const char *>(r.args.a) + ab;
  expectRejected(kernel, name, "A misaligned by 1 element", a, r, info);

  a = r.args;
  a.a_type = info.a_type == GEMMC_BF16 ? GEMMC_F16 : GEMMC_BF16;
  expectRejected(kernel, name, "wrong A dtype", a, r, info);

  a = r.args;
  a.c_type = info.c_type == GEMMC_F32 ? GEMMC_BF16 : GEMMC_F32;
  expectRejected(kernel, name, "wrong C dtype", a, r, info);

  a = r.args;
  a.m = 0;
  expectRejected(kernel, name, "M = 0", a, r, info);

  a = r.args;
  a.k = 0;
  expectRejected(kernel, name, "K = 0", a, r, info);

  a = r.args;
  a.b_layout = info.b_layout == GEMMC_ROW ? GEMMC_COL : GEMMC_ROW;
  expectRejected(kernel, name, "wrong B layout", a, r, info);

  a = r.args;
  a.lda = r.args.lda - 1;
  expectRejected(kernel, name, "lda below extent", a, r, info);

  a = r.args;
  a.ldb = r.args.ldb + 1;
  expectRejected(kernel, name, "ldb not 16-byte multiple", a, r, info);

  a = r.args;
  a.c = const_cast<void *>(r.args.a);
  a.c_type = info.c_type;
  expectRejected(kernel, name, "C aliases A", a, r, info);

  if (info.problem[0] < 0 && info.a_layout == GEMMC_ROW) {
    // A in an allocation of M/4 rows, allocated last (above C), so that only
    // the allocation-bounds check can catch it.
    DeviceBuffer small(static_cast<size_t>(m / 4) * r.args.lda * ab);
    a = r.args;
    a.a = small.ptr;
    expectRejected(kernel, name, "A beyond its allocation", a, r, info);
  }

  std::vector<uint8_t> hostBuf(r.a.data.bytes + 64);
  a = r.args;
  a.a = reinterpret_cast<const void *>((reinterpret_cast<uintptr_t>(hostBuf.data()) + 15) & ~uintptr_t(15));
  expectRejected(kernel, name, "A is host memory", a, r, info);

  if (!info.has_alpha) {
    a = r.args;
    a.alpha = 2.0f;
    expectRejected(kernel, name, "alpha but no alpha param", a, r, info);
  }

  // FP8 scales: set exactly when the kernel reads them, in device memory.
  if (info.a_scale) {
    a = r.args;
    a.scale_a = nullptr;
    expectRejected(kernel, name, "scale_a NULL", a, r, info);
    float host = 1.0f;
    a = r.args;
    a.scale_a = &host;
    expectRejected(kernel, name, "scale_a is host memory", a, r, info);
  } else {
    a = r.args;
    a.scale_a = static_cast<const float *>(r.ref.ptr);
    expectRejected(kernel, name, "scale_a but no scale param", a, r, info);
  }
  if (info.b_scale) {
    a = r.args;
    a.scale_b = nullptr;
    expectRejected(kernel, name, "scale_b NULL", a, r, info);
  }
  a = r.args;
  a.scale_d = static_cast<const float *>(r.ref.ptr);
  expectRejected(kernel, name, "scale_d (no FP8 output)", a, r, info);
}

/// Load-time errors: a missing manifest, a manifest naming a kernel the cubin
/// does not have, a manifest for another arch.
void loadErrorCases(const std::string &cubin) {
  auto expect = [&](const char *what, gemmc_status want, gemmc_status got) {
    bool ok = got == want;
    std::printf("%-34s load    %-28s %-28s %s\n    %s\n", baseName(cubin).c_str(), what, gemmc_status_name(got),
                ok ? "pass" : "FAIL", gemmc_last_error());
    if (!ok)
      ++failures;
  };
  gemmc_kernel *k = nullptr;
  expect("missing manifest", GEMMC_ERROR_IO, gemmc_kernel_load_file(cubin.c_str(), "/nonexistent.json", &k));
  std::ifstream f(cubin + ".json");
  std::stringstream ss;
  ss << f.rdbuf();
  std::string text = ss.str();
  std::string wrongName = text;
  size_t p = wrongName.find("\"kernel\": \"");
  if (p != std::string::npos) {
    wrongName.insert(p + 11, "no_such_");
    std::ifstream cf(cubin, std::ios::binary);
    std::string image((std::istreambuf_iterator<char>(cf)), std::istreambuf_iterator<char>());
    expect("kernel not in cubin", GEMMC_ERROR_CUDA,
           gemmc_kernel_load_data(image.data(), image.size(), wrongName.c_str(), &k));
    std::string otherArch = text;
    size_t q = otherArch.find("\"sm_90a\"");
    if (q != std::string::npos) {
      otherArch.replace(q, 8, "\"sm_100a\"");
      expect("manifest for sm_100a", GEMMC_ERROR_UNSUPPORTED,
             gemmc_kernel_load_data(image.data(), image.size(), otherArch.c_str(), &k));
    }
    std::string broken = text.substr(0, text.size() / 2);
    expect("truncated manifest", GEMMC_ERROR_MANIFEST,
           gemmc_kernel_load_data(image.data(), image.size(), broken.c_str(), &k));
  }
}

} // namespace

int main(int argc, char **argv) {
  Options opt;
  std::vector<std::string> dirs;
  std::string shapes = kDefaultShapes;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--cubin-dir")
      dirs.push_back(next());
    else if (a == "--cubin")
      opt.cubins.push_back(next());
    else if (a == "--shapes")
      shapes = next();
    else if (a == "--max-gflop")
      opt.maxGflop = std::atof(next().c_str());
    else if (a == "--seed")
      opt.seed = std::strtoull(next().c_str(), nullptr, 10);
    else {
      std::fprintf(stderr,
                   "usage: gemmc-gpu-tests [--cubin-dir DIR]... [--cubin FILE]... [--shapes MxNxK,...] "
                   "[--max-gflop G] [--seed S]\n");
      return 2;
    }
  }
  for (const auto &d : dirs)
    for (const auto &c : cubinsIn(d))
      opt.cubins.push_back(c);
  opt.shapes = split(shapes, ',');

  std::string why;
  if (!gpuAvailable(why)) {
    std::printf("SKIPPED: %s\n", why.c_str());
    return kSkipExitCode;
  }
  if (opt.cubins.empty()) {
    std::printf("SKIPPED: no cubins given (--cubin-dir / --cubin)\n");
    return kSkipExitCode;
  }
  HARNESS_CUDA(cudaSetDevice(0));
  HARNESS_CUDA(cudaFree(nullptr)); // make the primary context current for the runtime
  cudaDeviceProp prop;
  HARNESS_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("gemmc-gpu-tests on %s (sm_%d%d, %d SMs), %zu cubin(s)\n", prop.name, prop.major, prop.minor,
              prop.multiProcessorCount, opt.cubins.size());
  cublasHandle_t blas;
  HARNESS_CUBLAS(cublasCreate(&blas));

  std::printf("%-34s %-18s %-7s %-13s %-10s %-30s %s\n", "cubin", "shape MxNxK", "ld", "layout", "rel_frob",
              "detail", "result");
  int skipped = 0, total = 0;
  std::vector<std::pair<gemmc_kernel *, std::string>> loaded;
  for (const auto &cubin : opt.cubins) {
    gemmc_kernel *kernel = nullptr;
    gemmc_status st = gemmc_kernel_load(cubin.c_str(), &kernel);
    std::string name = baseName(cubin);
    if (st != GEMMC_OK) {
      row(name, "-", "-", "-", "-", gemmc_status_name(st), "FAIL");
      std::printf("    %s\n", gemmc_last_error());
      ++failures;
      continue;
    }
    loaded.emplace_back(kernel, name);
    gemmc_kernel_info info;
    gemmc_kernel_get_info(kernel, &info);
    for (const auto &s : opt.shapes) {
      int64_t m, n, k;
      if (!parseShape(s, m, n, k)) {
        std::fprintf(stderr, "bad shape '%s' (want MxNxK)\n", s.c_str());
        return 2;
      }
      bool pinned = (info.problem[0] > 0 && info.problem[0] != m) || (info.problem[1] > 0 && info.problem[1] != n) ||
                    (info.problem[2] > 0 && info.problem[2] != k);
      double gflop = 2.0 * m * n * k / 1e9;
      if (pinned || (opt.maxGflop > 0 && gflop > opt.maxGflop)) {
        row(name, shapeString(m, n, k), "-", layoutString(info), "-",
            pinned ? "kernel is pinned to another size" : "over --max-gflop", "skip");
        ++skipped;
        continue;
      }
      correctnessCase(blas, kernel, info, name, m, n, k, false, 1.0f, false, opt.seed + total);
      ++total;
      if (m * n * k <= 1000LL * 1000 * 1000) {
        correctnessCase(blas, kernel, info, name, m, n, k, true, 1.0f, false, opt.seed + total + 1000);
        ++total;
      }
    }
    // alpha and graph replay on a ragged shape (pinned kernels use their size).
    int64_t m = info.problem[0] > 0 ? info.problem[0] : 127;
    int64_t n = info.problem[1] > 0 ? info.problem[1] : 255;
    int64_t k = info.problem[2] > 0 ? info.problem[2] : 72;
    if (info.has_alpha) {
      correctnessCase(blas, kernel, info, name, m, n, k, false, 0.5f, false, opt.seed + 7);
      ++total;
    }
    correctnessCase(blas, kernel, info, name, m, n, k, true, 1.0f, true, opt.seed + 8);
    ++total;
  }
  std::printf("\n%-34s %-36s %-28s %s\n", "cubin", "bad-argument case", "status", "result");
  for (auto &[kernel, name] : loaded) {
    gemmc_kernel_info info;
    gemmc_kernel_get_info(kernel, &info);
    badArgumentCases(kernel, info, name);
  }
  if (!opt.cubins.empty())
    loadErrorCases(opt.cubins.front());
  for (auto &[kernel, name] : loaded)
    gemmc_kernel_unload(kernel);
  cublasDestroy(blas);
  std::printf("\ngemmc-gpu-tests: %d correctness cases, %d skipped, %d failure(s)\n", total, skipped, failures);
  return failures ? 1 : 0;
}
