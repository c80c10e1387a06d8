// gemmc-gpu-tests: the GPU correctness suite for gemmc cubins.
//
//   gemmc-gpu-tests [--cubin-dir DIR]... [--cubin FILE]... [--shapes MxNxK,...]
//                   [--max-gflop G] [--seed S] [--no-reference]
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
// A kernel with a fused epilogue (manifest bias / activation / aux) gets a
// random bias of its type, and the reference is the same formula in f32 on
// the host: act(alpha A B + bias); its aux output is compared with the
// pre-activation value. A kernel built with pdl_wait runs a chain of 8
// dependent GEMMs (each output is the next A) with and without
// GEMMC_LAUNCH_PDL, which must agree bit for bit.
//
// FP8 kernels (issue 14): an operand the kernel scales spans its type's
// range (fp8RangeExp2) and gets a scale of 2^-e times 0.75 (A) or 1.25 (B);
// the reference is cuBLAS f32 on exact bf16 copies of the FP8 values with
// alpha x scale_a x scale_b, i.e. the dequantized inputs. Tolerances per
// output type: tolerance() in harness/Harness.cpp (relative Frobenius 1e-2
// for FP8 inputs and for 16-bit outputs, 1e-3 for TF32 into f32). Block-scaled
// kernels (scale: block) get random positive scales per block
// (makeBlockScales, B's padding NaN) and a reference computed in f32 from
// the dequantized inputs (value x its block's scale, exact in f32); their
// tolerance is the FP8 one. An FP8
// output (c e4m3 / e5m2, with scale_d = kOutScale): the f32 reference, then
// the same scale and saturation, each element within one ulp of the output
// type (e4m3 3 mantissa bits, e5m2 2) plus 2^-10 of the largest output for
// the tensor cores' FP8 accumulation (compareFp8). Bad arguments add a
// missing, host or stray scale pointer (scale_d too).
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
/// --no-reference: each correctness case launches the kernel and checks
/// that it completes, without cuBLAS's reference or a comparison. For
/// compute-sanitizer racecheck on the H200, under which cuBLAS's 16-bit
/// GEMM kernels fault at most shapes ("failed to handle a hardware
/// exception" after the gemmc kernel has completed; bench/RESULTS.md,
/// session 9).
bool noReference = false;

void row(const std::string &cubin, const std::string &shape, const std::string &ld, const std::string &layout,
         const std::string &err, const std::string &detail, const char *result) {
  std::printf("%-34s %-18s %-7s %-13s %-10s %-30s %s\n", cubin.c_str(), shape.c_str(), ld.c_str(), layout.c_str(),
              err.c_str(), detail.c_str(), result);
  std::fflush(stdout);
}

struct Run {
  Operand a, b;
  Operand bias;      // the fused epilogue's bias (1 x length), if the kernel takes one
  DeviceBuffer aux;  // its pre-activation output (M x ldc of C's type), if any
  DeviceBuffer c, ref;
  gemmc_gemm_args args;
  Problem problem;
  int64_t ldc = 0;
  /// FP8 kernels with scales: the device scalars, and their product, which
  /// the reference (on the dequantized values' exact bf16 copies) multiplies
  /// alpha by.
  DeviceBuffer scaleA, scaleB;
  float refScale = 1.0f;
  /// Block-scaled FP8 kernels: the scales, and the dequantized f32
  /// operands the reference multiplies instead of a and b.
  bool blockScaled = false;
  BlockScales blocks;
  Operand refA, refB;
  /// An FP8 output's scale (scale_d, c scale: tensor), 1 without one.
  DeviceBuffer scaleD;
  float outScale = 1.0f;
};

/// The output scale the suite gives an FP8 output: not a power of two, so a
/// kernel that skipped it is off by more than one e4m3 ulp (12.5%); below 1,
/// so the sums of the FP8-range operands stay inside e4m3's 448.
constexpr float kOutScale = 0.75f;

/// A scaled FP8 operand spans its type's range (x 2^e) and its scale brings
/// it back (2^-e) times a factor that is not a power of two, so a kernel that
/// skipped the multiply or read the wrong scale fails the comparison.
/// Returns the scale, written to `buffer`. A scale vector (`vector`: per
/// row of A, per column of B, `count` values, which M = 1 or N = 1 makes a
/// single one) cycles its factor through [0.5, 1.25] and returns 1: the
/// reference scales its rows or columns afterwards (scaleReference).
float makeScale(DeviceBuffer &buffer, int exp2, float factor, bool vector, int64_t count) {
  std::vector<float> scales(count);
  for (int64_t i = 0; i < count; ++i)
    scales[i] = std::ldexp(vector ? 0.5f + 0.125f * float(i % 7) : factor, -exp2);
  buffer = DeviceBuffer(count * sizeof(float));
  HARNESS_CUDA(cudaMemcpy(buffer.ptr, scales.data(), buffer.bytes, cudaMemcpyHostToDevice));
  return vector ? 1.0f : scales[0];
}

/// The reference (row-major M x N f32, ld N) times the scale vectors of a
/// per-row / per-column FP8 kernel: in cuBLAS's column-major view (N x M)
/// a row of C is a column, so A's vector scales from the right and B's
/// from the left.
void scaleReference(cublasHandle_t blas, const gemmc_kernel_info &info, Run &r, int64_t m, int64_t n) {
  float *ref = static_cast<float *>(r.ref.ptr);
  if (info.a_scale == GEMMC_SCALE_ROW)
    HARNESS_CUBLAS(cublasSdgmm(blas, CUBLAS_SIDE_RIGHT, int(n), int(m), ref, int(n),
                               static_cast<const float *>(r.scaleA.ptr), 1, ref, int(n)));
  if (info.b_scale == GEMMC_SCALE_COL)
    HARNESS_CUBLAS(cublasSdgmm(blas, CUBLAS_SIDE_LEFT, int(n), int(m), ref, int(n),
                               static_cast<const float *>(r.scaleB.ptr), 1, ref, int(n)));
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
  if (info.a_scale == GEMMC_SCALE_BLOCK && info.b_scale == GEMMC_SCALE_BLOCK) {
    r.blockScaled = true;
    r.blocks = makeBlockScales(m, n, k, aExp, bExp, seed * 2 + 5);
    r.args.scale_a = static_cast<const float *>(r.blocks.aDev.ptr);
    r.args.scale_b = static_cast<const float *>(r.blocks.bDev.ptr);
    r.refA = dequantize(r.a, r.blocks, /*isA=*/true, m);
    r.refB = dequantize(r.b, r.blocks, /*isA=*/false, m);
  } else if (info.a_scale) {
    r.refScale *= makeScale(r.scaleA, aExp, 0.75f, info.a_scale == GEMMC_SCALE_ROW,
                            info.a_scale == GEMMC_SCALE_ROW ? m : 1);
    r.args.scale_a = static_cast<const float *>(r.scaleA.ptr);
  }
  if (info.b_scale && !r.blockScaled) {
    r.refScale *= makeScale(r.scaleB, bExp, 1.25f, info.b_scale == GEMMC_SCALE_COL,
                            info.b_scale == GEMMC_SCALE_COL ? n : 1);
    r.args.scale_b = static_cast<const float *>(r.scaleB.ptr);
  }
  if (info.c_scale) {
    r.outScale = kOutScale;
    r.scaleD = DeviceBuffer(sizeof(float));
    HARNESS_CUDA(cudaMemcpy(r.scaleD.ptr, &r.outScale, sizeof(float), cudaMemcpyHostToDevice));
    r.args.scale_d = static_cast<const float *>(r.scaleD.ptr);
  }
  if (info.bias) {
    int64_t len = info.bias == 1 ? m : n;
    r.bias = makeOperand(info.bias_type, 1, len, len, seed * 2 + 3);
    r.args.bias = r.bias.data.ptr;
    r.args.bias_length = len;
    r.args.bias_type = info.bias_type;
  }
  if (info.has_aux) {
    r.aux = DeviceBuffer(static_cast<size_t>(m) * r.ldc * gemmc_dtype_bytes(info.c_type));
    r.args.aux = r.aux.ptr;
  }
  return r;
}

bool fusedEpilogue(const gemmc_kernel_info &info) {
  return info.bias || info.has_aux || std::string(info.activation) != "none";
}

/// The activation, in f32 as the kernel computes it (docs/spec.md).
float activate(const std::string &act, float x) {
  if (act == "relu")
    return x > 0 ? x : 0.0f;
  if (act == "gelu")
    return 0.5f * x * (1.0f + std::erf(x * 0.70710678f));
  if (act == "gelu_tanh")
    return 0.5f * x * (1.0f + std::tanh(0.79788456f * (x + 0.044715f * x * x * x)));
  if (act == "silu")
    return x / (1.0f + std::exp(-x));
  return x; // none, identity
}

/// Turns the reference alpha A B (row-major M x N f32 at r.ref) into the
/// fused epilogue's output; `pre` gets the pre-activation value (the aux
/// reference) on the device.
void applyEpilogueToReference(const gemmc_kernel_info &info, Run &r, int64_t m, int64_t n, DeviceBuffer &pre) {
  std::vector<float> ref(static_cast<size_t>(m) * n);
  HARNESS_CUDA(cudaMemcpy(ref.data(), r.ref.ptr, ref.size() * 4, cudaMemcpyDeviceToHost));
  std::vector<float> bias;
  if (info.bias) {
    size_t len = static_cast<size_t>(info.bias == 1 ? m : n), eb = gemmc_dtype_bytes(info.bias_type);
    std::vector<uint8_t> raw(len * eb);
    HARNESS_CUDA(cudaMemcpy(raw.data(), r.bias.data.ptr, raw.size(), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < len; ++i)
      bias.push_back(decode(info.bias_type, &raw[i * eb]));
  }
  std::string act = info.activation;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float &x = ref[i * n + j];
      if (info.bias)
        x += bias[info.bias == 1 ? i : j];
    }
  pre = DeviceBuffer(ref.size() * 4);
  HARNESS_CUDA(cudaMemcpy(pre.ptr, ref.data(), ref.size() * 4, cudaMemcpyHostToDevice));
  for (float &x : ref)
    x = activate(act, x);
  HARNESS_CUDA(cudaMemcpy(r.ref.ptr, ref.data(), ref.size() * 4, cudaMemcpyHostToDevice));
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
  if (info.has_aux)
    poisonNaN(r.aux.ptr, info.c_type, static_cast<size_t>(m) * r.ldc, stream);
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
  if (noReference) {
    row(name, shape, ldTag, layoutString(info), "-", "completed, not compared", "pass");
    cudaStreamDestroy(stream);
    return;
  }
  std::string why;
  cublasSetStream(blas, stream);
  bool refOk = r.blockScaled ? cublasGemm(blas, r.problem, r.refA, r.refB, r.ref.ptr, CUDA_R_32F, n, alpha,
                                          /*exactRef=*/false, why)
                             : cublasGemm(blas, r.problem, r.a, r.b, r.ref.ptr, CUDA_R_32F, n, alpha * r.refScale,
                                          /*exactRef=*/true, why);
  if (!refOk) {
    row(name, shape, ldTag, layoutString(info), "-", "reference: " + why, "FAIL");
    ++failures;
    cudaStreamDestroy(stream);
    return;
  }
  scaleReference(blas, info, r, m, n);
  HARNESS_CUDA(cudaStreamSynchronize(stream));
  DeviceBuffer pre;
  if (fusedEpilogue(info))
    applyEpilogueToReference(info, r, m, n, pre);
  bool fp8Out = info.c_type == GEMMC_E4M3 || info.c_type == GEMMC_E5M2;
  Comparison cmp;
  double tol = tolerance(info.c_type, info.a_type);
  bool ok;
  std::string ulpNote;
  if (fp8Out) {
    // The reference in f32, then the kernel's scale and saturation; each
    // element within one ulp of the output type (compareFp8).
    Fp8Comparison f = compareFp8(r.c.ptr, info.c_type, r.ldc, static_cast<const float *>(r.ref.ptr), n, m, n,
                                 r.problem.k, r.outScale);
    cmp = f;
    ok = f.nanCount == 0 && f.paddingWritten == 0 && f.ulpOver == 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, " max ulp %.2f%s", f.maxUlp,
                  f.ulpOver ? (", >1 ulp: " + std::to_string(f.ulpOver)).c_str() : "");
    ulpNote = buf;
  } else {
    cmp = compare(r.c.ptr, info.c_type, r.ldc, static_cast<const float *>(r.ref.ptr), n, m, n);
    ok = cmp.nanCount == 0 && cmp.paddingWritten == 0 && cmp.relFrobenius < tol;
  }
  if (info.has_aux) {
    Comparison auxCmp = compare(r.aux.ptr, info.c_type, r.ldc, static_cast<const float *>(pre.ptr), n, m, n);
    bool auxOk = auxCmp.nanCount == 0 && auxCmp.paddingWritten == 0 && auxCmp.relFrobenius < tol;
    if (!auxOk)
      std::printf("    aux: rel_frob %.2e, NaN/unwritten %llu, pad-written %llu\n", auxCmp.relFrobenius,
                  static_cast<unsigned long long>(auxCmp.nanCount),
                  static_cast<unsigned long long>(auxCmp.paddingWritten));
    ok = ok && auxOk;
  }
  char err[32], detail[160];
  std::snprintf(err, sizeof err, "%.2e", cmp.relFrobenius);
  std::snprintf(detail, sizeof detail, "max|d|/max|ref| %.1e%s%s%s", cmp.maxAbsOverMaxRef, ulpNote.c_str(),
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

  if (info.bias) {
    a = r.args;
    a.bias_length = r.args.bias_length + 1;
    expectRejected(kernel, name, "bias length off by one", a, r, info);
    a = r.args;
    a.bias_type = info.bias_type == GEMMC_F32 ? GEMMC_BF16 : GEMMC_F32;
    expectRejected(kernel, name, "wrong bias dtype", a, r, info);
  }
  if (info.has_aux) {
    a = r.args;
    a.aux = nullptr;
    expectRejected(kernel, name, "aux missing", a, r, info);
  }
  if (!info.pdl_wait) {
    a = r.args;
    a.flags = GEMMC_LAUNCH_PDL;
    expectRejected(kernel, name, "PDL flag, no pdl_wait", a, r, info);
  }

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
  if (info.b_scale == GEMMC_SCALE_COL) {
    // N values are read: the last two floats of an allocation of M x N (a
    // whole number of pages) are not enough (8-byte aligned, so that the
    // length is what is refused).
    a = r.args;
    a.scale_b = static_cast<const float *>(r.ref.ptr) + (m * n - 2);
    expectRejected(kernel, name, "scale_b shorter than N", a, r, info);
    // Read two columns (8 bytes) at a time: a pointer 4 bytes past an
    // 8-byte boundary is refused (docs/abi.md).
    a = r.args;
    a.scale_b = static_cast<const float *>(r.ref.ptr) + 1;
    expectRejected(kernel, name, "scale_b not 8-byte aligned", a, r, info);
  }
  if (info.a_scale == GEMMC_SCALE_BLOCK) {
    // M x ceil(K/128) and ceil(N/128) x align4(ceil(K/128)) values are
    // read: the last float of the M x N allocation is not enough.
    if (m * r.blocks.kBlocks > 1) {
      a = r.args;
      a.scale_a = static_cast<const float *>(r.ref.ptr) + (m * n - 1);
      expectRejected(kernel, name, "scale_a shorter than its blocks", a, r, info);
    }
    a = r.args;
    a.scale_b = static_cast<const float *>(r.ref.ptr) + (m * n - 1);
    expectRejected(kernel, name, "scale_b shorter than its blocks", a, r, info);
  }
  a = r.args;
  if (info.c_scale) {
    a.scale_d = nullptr;
    expectRejected(kernel, name, "scale_d NULL", a, r, info);
  } else {
    a.scale_d = static_cast<const float *>(r.ref.ptr);
    expectRejected(kernel, name, "scale_d (no FP8 output)", a, r, info);
  }
}

/// A kernel with pdl_wait: 8 dependent GEMMs (output i is A of GEMM i + 1,
/// so N = K), launched back to back without and with GEMMC_LAUNCH_PDL, then
/// captured in a CUDA graph with it; every output must be the same bits.
void pdlChainCase(gemmc_kernel *kernel, const gemmc_kernel_info &info, const std::string &name, int64_t m,
                  int64_t nk) {
  constexpr int kChain = 8;
  std::string shape = shapeString(m, nk, nk) + " x8";
  if (info.c_type != info.a_type || info.a_layout != GEMMC_ROW || info.bias || info.has_aux ||
      (info.problem[0] > 0 && info.problem[0] != m) || (info.problem[1] > 0 && info.problem[1] != nk) ||
      (info.problem[2] > 0 && info.problem[2] != nk)) {
    row(name, shape, "pdl", layoutString(info), "-", "chain needs C = A's type, row A, no bias/aux", "skip");
    return;
  }
  const size_t eb = gemmc_dtype_bytes(info.c_type);
  const int64_t ld = alignedLd(nk, info.c_type);
  Operand x0 = makeOperand(info.a_type, m, nk, ld, 4242);
  std::vector<Operand> w;
  for (int i = 0; i < kChain; ++i)
    w.push_back(makeOperand(info.b_type, nk, nk, alignedLd(nk, info.b_type), 5000 + i));
  cudaStream_t stream;
  HARNESS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // mode 0: plain launches; 1: GEMMC_LAUNCH_PDL; 2: GEMMC_LAUNCH_PDL in a graph.
  std::vector<std::vector<uint8_t>> results;
  for (int mode = 0; mode < 3; ++mode) {
    std::vector<DeviceBuffer> out;
    for (int i = 0; i < kChain; ++i) {
      out.emplace_back(static_cast<size_t>(m) * ld * eb);
      poisonNaN(out.back().ptr, info.c_type, static_cast<size_t>(m) * ld, stream);
    }
    std::vector<gemmc_gemm_args> args(kChain);
    for (int i = 0; i < kChain; ++i) {
      args[i] = chainArgs(info, m, nk, i == 0 ? x0.data.ptr : out[i - 1].ptr, ld, w[i], out[i].ptr, ld,
                          mode ? GEMMC_LAUNCH_PDL : 0);
      const gemmc_gemm_args &a = args[i];
      if (gemmc_check(kernel, &a) != GEMMC_OK) {
        row(name, shape, "pdl", layoutString(info), "-", gemmc_last_error(), "FAIL");
        ++failures;
        cudaStreamDestroy(stream);
        return;
      }
    }
    HARNESS_CUDA(cudaStreamSynchronize(stream));
    cudaGraphExec_t exec = nullptr;
    cudaGraph_t g = nullptr;
    if (mode == 2)
      HARNESS_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    gemmc_status st = GEMMC_OK;
    for (int i = 0; i < kChain && st == GEMMC_OK; ++i)
      st = gemmc_launch(kernel, &args[i], stream);
    if (mode == 2) {
      HARNESS_CUDA(cudaStreamEndCapture(stream, &g));
      if (st == GEMMC_OK) {
        HARNESS_CUDA(cudaGraphInstantiate(&exec, g, 0));
        HARNESS_CUDA(cudaGraphLaunch(exec, stream));
      }
      HARNESS_CUDA(cudaGraphDestroy(g));
    }
    if (st != GEMMC_OK) {
      row(name, shape, "pdl", layoutString(info), "-", gemmc_last_error(), "FAIL");
      ++failures;
      cudaStreamDestroy(stream);
      return;
    }
    cudaError_t ke = cudaStreamSynchronize(stream);
    if (ke != cudaSuccess) {
      row(name, shape, "pdl", layoutString(info), "-", std::string("kernel: ") + cudaGetErrorString(ke), "FAIL");
      std::exit(1);
    }
    if (exec)
      cudaGraphExecDestroy(exec);
    std::vector<uint8_t> all;
    for (auto &o : out) {
      std::vector<uint8_t> h(o.bytes);
      HARNESS_CUDA(cudaMemcpy(h.data(), o.ptr, h.size(), cudaMemcpyDeviceToHost));
      all.insert(all.end(), h.begin(), h.end());
    }
    results.push_back(std::move(all));
  }
  cudaStreamDestroy(stream);
  bool nanFree = true;
  for (size_t i = 0; i < results[0].size(); i += eb)
    nanFree &= !std::isnan(decode(info.c_type, &results[0][i]));
  bool same = results[0] == results[1] && results[0] == results[2];
  std::string detail = std::string(same ? "PDL = plain bitwise" : "PDL differs from plain") +
                       (nanFree ? "" : ", NaN/unwritten");
  row(name, shape, "pdl", layoutString(info), "-", detail, same && nanFree ? "pass" : "FAIL");
  if (!(same && nanFree))
    ++failures;
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
    else if (a == "--no-reference")
      noReference = true;
    else {
      std::fprintf(stderr,
                   "usage: gemmc-gpu-tests [--cubin-dir DIR]... [--cubin FILE]... [--shapes MxNxK,...] "
                   "[--max-gflop G] [--seed S] [--no-reference]\n");
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
    if (info.pdl_wait) {
      // decode_m16 and an M = 1 variant (8192 x 8192 weights in the bench;
      // 1024 here keeps the suite short), and a ragged M.
      for (int64_t chainM : {16, 1, 100}) {
        pdlChainCase(kernel, info, name, chainM, 1024);
        ++total;
      }
    }
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
