#include "gemmc/runtime/Plan.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace gemmc::rt {

Storage storageA(const gemmc_gemm_args &a) {
  Storage s;
  s.elemBytes = dtypeBytes(a.a_type);
  s.ld = static_cast<uint64_t>(a.lda);
  if (a.a_layout == GEMMC_COL) { // M contiguous: K rows of M
    s.rows = static_cast<uint64_t>(a.k);
    s.cols = static_cast<uint64_t>(a.m);
  } else { // K contiguous: M rows of K
    s.rows = static_cast<uint64_t>(a.m);
    s.cols = static_cast<uint64_t>(a.k);
  }
  return s;
}

Storage storageB(const gemmc_gemm_args &a) {
  Storage s;
  s.elemBytes = dtypeBytes(a.b_type);
  s.ld = static_cast<uint64_t>(a.ldb);
  if (a.b_layout == GEMMC_ROW) { // N contiguous: K rows of N
    s.rows = static_cast<uint64_t>(a.k);
    s.cols = static_cast<uint64_t>(a.n);
  } else { // K contiguous: N rows of K
    s.rows = static_cast<uint64_t>(a.n);
    s.cols = static_cast<uint64_t>(a.k);
  }
  return s;
}

Storage storageC(const gemmc_gemm_args &a) {
  Storage s;
  s.elemBytes = dtypeBytes(a.c_type);
  s.ld = static_cast<uint64_t>(a.ldc);
  s.rows = static_cast<uint64_t>(a.m);
  s.cols = static_cast<uint64_t>(a.n);
  return s;
}

const float *scalePointer(const gemmc_gemm_args &a, Operand op) {
  return op == Operand::A ? a.scale_a : op == Operand::B ? a.scale_b : a.scale_d;
}

/// Block scales (docs/abi.md): 1 x 128 for A, M-major; 128 x 128 for B,
/// K-major with the K-block count rounded up to 4 (cuBLASLt's layouts).
constexpr uint64_t kScaleBlock = 128, kScaleBlockKAlign = 4;

uint64_t scaleBytes(gemmc_scale scale, Operand op, const gemmc_gemm_args &a) {
  uint64_t kBlocks = (static_cast<uint64_t>(a.k) + kScaleBlock - 1) / kScaleBlock;
  if (scale == GEMMC_SCALE_BLOCK) {
    uint64_t count = op == Operand::A ? static_cast<uint64_t>(a.m) * kBlocks
                                      : (static_cast<uint64_t>(a.n) + kScaleBlock - 1) / kScaleBlock *
                                            ((kBlocks + kScaleBlockKAlign - 1) / kScaleBlockKAlign * kScaleBlockKAlign);
    return count * sizeof(float);
  }
  uint64_t count = scale == GEMMC_SCALE_ROW   ? static_cast<uint64_t>(a.m)
                   : scale == GEMMC_SCALE_COL ? static_cast<uint64_t>(a.n)
                   : scale == GEMMC_SCALE_NONE ? 0
                                               : 1;
  return count * sizeof(float);
}

namespace {

/// A scale pointer is set exactly when the kernel reads one, and then
/// aligned to its f32 (a per-column one to kColScaleAlignBytes).
bool checkScale(const Manifest &m, const gemmc_gemm_args &args, Operand op, std::string &error) {
  const char *param = paramName(scaleParam(op));
  const char name = "abc"[static_cast<int>(op)];
  const float *p = scalePointer(args, op);
  gemmc_scale want = m.operand(op).scale;
  if (want == GEMMC_SCALE_NONE) {
    if (p)
      error = std::string(param) + " is set but kernel '" + m.kernel + "' takes no scale for " + char(name - 32) +
              " (its operand " + name + " has no \"scale\"); pass NULL, or build it with operands." + name +
              ".scale";
    return !p;
  }
  if (!p) {
    error = std::string(param) + " is NULL but kernel '" + m.kernel + "' reads " +
            (want == GEMMC_SCALE_TENSOR ? "one f32"
             : want == GEMMC_SCALE_ROW  ? "M f32 values (one per row of A)"
             : want == GEMMC_SCALE_COL  ? "N f32 values (one per column of B)"
             : op == Operand::A         ? "M x ceil(K/128) f32 block scales (M-major)"
                                        : "ceil(N/128) x align4(ceil(K/128)) f32 block scales (K-major)") +
            " there (" + name + ".scale: " + scaleName(want) + "); pass a device pointer to the scale";
    return false;
  }
  // Aligned to its f32; a per-column scale to a pair of them (one 8-byte
  // load reads two columns). The pointer is formatted only for the error:
  // this check runs at every launch.
  uint64_t align = want == GEMMC_SCALE_COL ? kColScaleAlignBytes : sizeof(float);
  if (reinterpret_cast<uintptr_t>(p) % align != 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", static_cast<const void *>(p));
    if (reinterpret_cast<uintptr_t>(p) % sizeof(float) != 0) {
      error = std::string(param) + " = " + buf + " is not aligned to its 4-byte f32";
    } else {
      const std::string bytes = std::to_string(align);
      error = std::string(param) + " = " + buf + " is not aligned to " + bytes + " bytes, which kernel '" + m.kernel +
              "' needs for its per-column scale (" + name + ".scale: col; it reads two columns' f32 with one " +
              bytes + "-byte load); pass an " + bytes + "-byte aligned pointer (cudaMalloc's are 256-byte aligned)";
    }
    return false;
  }
  return true;
}

const char *contiguousName(char op, gemmc_layout layout) {
  if (op == 'A')
    return layout == GEMMC_ROW ? "row = K contiguous" : "col = M contiguous";
  return layout == GEMMC_COL ? "col = K contiguous" : "row = N contiguous";
}

bool checkOperandType(char op, gemmc_dtype given, gemmc_dtype expected, const std::string &kernel,
                      std::string &error) {
  std::string name(1, op);
  if (given == GEMMC_DTYPE_UNSET) {
    error = name + ": element type not set (args." + char(op + 32) + "_type); kernel '" + kernel +
            "' takes " + dtypeName(expected);
    return false;
  }
  if (dtypeBytes(given) == 0) {
    error = name + ": invalid element type value " + std::to_string(int(given));
    return false;
  }
  if (given != expected) {
    error = name + " is " + dtypeName(given) + " but kernel '" + kernel + "' was built for " +
            dtypeName(expected) + " " + name;
    return false;
  }
  return true;
}

bool checkOperandLayout(char op, gemmc_layout given, gemmc_layout expected, const std::string &kernel,
                        std::string &error) {
  std::string name(1, op);
  if (given == GEMMC_LAYOUT_UNSET) {
    error = name + ": layout not set (args." + char(op + 32) + "_layout); kernel '" + kernel + "' takes " +
            contiguousName(op, expected);
    return false;
  }
  if (given != GEMMC_ROW && given != GEMMC_COL) {
    error = name + ": invalid layout value " + std::to_string(int(given));
    return false;
  }
  if (given != expected) {
    error = name + " is " + contiguousName(op, given) + " but kernel '" + kernel + "' was built for " +
            contiguousName(op, expected) + "; transpose the operand or build a kernel for this layout";
    return false;
  }
  return true;
}

bool checkPointerAndLd(const char *name, const char *ldName, const void *ptr, int64_t ld,
                       const Storage &s, std::string &error) {
  uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
  if (ptr == nullptr) {
    error = std::string(name) + " is a null pointer";
    return false;
  }
  if (p % 16 != 0) {
    error = std::string(name) + " = " + std::to_string(p) + " (0x" + [&] {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(p));
      return std::string(buf);
    }() + ") is not 16-byte aligned (address % 16 = " + std::to_string(p % 16) +
            "); TMA and vector stores need 16-byte aligned base pointers";
    return false;
  }
  if (ld < 1 || static_cast<uint64_t>(ld) < s.cols) {
    error = std::string(ldName) + " = " + std::to_string(ld) + " is smaller than the contiguous extent " +
            std::to_string(s.cols) + " of " + name + "; it must be >= " + std::to_string(s.cols);
    return false;
  }
  uint64_t strideBytes = static_cast<uint64_t>(ld) * s.elemBytes;
  if (strideBytes % 16 != 0) {
    uint64_t mult = 16 / s.elemBytes;
    error = std::string(ldName) + " = " + std::to_string(ld) + " elements = " + std::to_string(strideBytes) +
            " bytes is not a multiple of 16 bytes; use a leading dimension that is a multiple of " +
            std::to_string(mult) + " (e.g. " + std::to_string((static_cast<uint64_t>(ld) + mult - 1) / mult * mult) +
            ")";
    return false;
  }
  if (strideBytes >= (uint64_t(1) << 40) || ld > INT32_MAX) {
    error = std::string(ldName) + " = " + std::to_string(ld) + " is too large (at most 2^31-1 elements and 2^40 bytes)";
    return false;
  }
  return true;
}

bool overlaps(uintptr_t a, uint64_t aBytes, uintptr_t b, uint64_t bBytes) {
  return a < b + bBytes && b < a + aBytes;
}

/// The fused epilogue's bias and aux pointers against the manifest.
bool checkEpilogueOperands(const Manifest &m, const gemmc_gemm_args &args, const Storage &sc,
                           std::string &error) {
  if (!m.hasParam(Param::Bias)) {
    if (args.bias) {
      error = "bias is set but kernel '" + m.kernel + "' takes no bias; build it with epilogue bias: row or col";
      return false;
    }
  } else {
    int64_t want = m.biasPerRow ? args.m : args.n;
    size_t eb = dtypeBytes(m.biasType);
    uintptr_t p = reinterpret_cast<uintptr_t>(args.bias);
    if (!args.bias) {
      error = "bias is a null pointer; kernel '" + m.kernel + "' reads a bias";
      return false;
    }
    if (args.bias_type != m.biasType) {
      error = std::string("bias_type = ") + dtypeName(args.bias_type) + " but kernel '" + m.kernel +
              "' reads a " + dtypeName(m.biasType) + " bias";
      return false;
    }
    if (args.bias_length != want) {
      error = "bias_length = " + std::to_string(args.bias_length) + " but the bias is one value per " +
              (m.biasPerRow ? "row: M = " : "column: N = ") + std::to_string(want);
      return false;
    }
    if (p % eb != 0) {
      error = "bias = " + std::to_string(p) + " is not aligned to its " + std::to_string(eb) +
              "-byte element (address % " + std::to_string(eb) + " = " + std::to_string(p % eb) + ")";
      return false;
    }
  }
  bool hasAux = m.hasParam(Param::Aux);
  if (hasAux != (args.aux != nullptr)) {
    error = hasAux ? "aux is a null pointer; kernel '" + m.kernel + "' stores the pre-activation output there"
                   : "aux is set but kernel '" + m.kernel + "' stores no auxiliary output; build it with epilogue aux: true";
    return false;
  }
  if (hasAux && reinterpret_cast<uintptr_t>(args.aux) % sc.elemBytes != 0) {
    error = "aux = " + std::to_string(reinterpret_cast<uintptr_t>(args.aux)) + " is not aligned to its " +
            std::to_string(sc.elemBytes) + "-byte element";
    return false;
  }
  return true;
}

} // namespace

gemmc_status checkArgs(const Manifest &m, const gemmc_gemm_args &args, std::string &error) {
  auto bad = [&]() { return GEMMC_ERROR_INVALID_ARGUMENT; };
  if (!checkOperandType('A', args.a_type, m.a.element, m.kernel, error) ||
      !checkOperandType('B', args.b_type, m.b.element, m.kernel, error) ||
      !checkOperandType('C', args.c_type, m.c.element, m.kernel, error))
    return bad();
  if (!checkOperandLayout('A', args.a_layout, m.a.layout, m.kernel, error) ||
      !checkOperandLayout('B', args.b_layout, m.b.layout, m.kernel, error))
    return bad();

  const int64_t sizes[3] = {args.m, args.n, args.k};
  const char *names[3] = {"M", "N", "K"};
  for (int i = 0; i < 3; ++i) {
    if (sizes[i] < 1) {
      error = std::string(names[i]) + " = " + std::to_string(sizes[i]) + ": sizes must be >= 1";
      return bad();
    }
    if (sizes[i] > INT32_MAX) {
      error = std::string(names[i]) + " = " + std::to_string(sizes[i]) + " exceeds the kernel's int32 limit 2147483647";
      return bad();
    }
    if (m.problem[i] != -1 && m.problem[i] != sizes[i]) {
      error = std::string(names[i]) + " = " + std::to_string(sizes[i]) + " but kernel '" + m.kernel +
              "' was built for " + names[i] + " = " + std::to_string(m.problem[i]) + " only";
      return bad();
    }
  }

  Storage sa = storageA(args), sb = storageB(args), sc = storageC(args);
  if (!checkPointerAndLd("A", "lda", args.a, args.lda, sa, error) ||
      !checkPointerAndLd("B", "ldb", args.b, args.ldb, sb, error) ||
      !checkPointerAndLd("C", "ldc", args.c, args.ldc, sc, error))
    return bad();

  if (!m.hasParam(Param::Alpha) && args.alpha != 1.0f) {
    error = "alpha = " + std::to_string(args.alpha) + " but kernel '" + m.kernel +
            "' takes no alpha (it computes alpha = 1); build it with epilogue alpha: true";
    return bad();
  }
  if (!m.hasParam(Param::Beta) && args.beta != 0.0f) {
    error = "beta = " + std::to_string(args.beta) + " but kernel '" + m.kernel +
            "' takes no beta (it overwrites C); build it with epilogue beta: true";
    return bad();
  }

  if (!checkEpilogueOperands(m, args, sc, error))
    return bad();
  if ((args.flags & ~GEMMC_LAUNCH_PDL) != 0) {
    error = "flags = " + std::to_string(args.flags) + " has unknown bits; the only flag is GEMMC_LAUNCH_PDL (1)";
    return bad();
  }
  if ((args.flags & GEMMC_LAUNCH_PDL) && !m.pdlWait) {
    error = "GEMMC_LAUNCH_PDL but kernel '" + m.kernel +
            "' does not wait for the previous kernel (it would read A before that kernel's writes "
            "are visible); build it with pdl_wait: before_loads or launch without the flag";
    return bad();
  }
  for (Operand op : {Operand::A, Operand::B, Operand::C})
    if (!checkScale(m, args, op, error))
      return bad();

  uintptr_t c = reinterpret_cast<uintptr_t>(args.c);
  if (overlaps(c, sc.extentBytes(), reinterpret_cast<uintptr_t>(args.a), sa.extentBytes())) {
    error = "C overlaps A in memory; the kernel reads A while it writes C, so C must not alias A";
    return bad();
  }
  if (overlaps(c, sc.extentBytes(), reinterpret_cast<uintptr_t>(args.b), sb.extentBytes())) {
    error = "C overlaps B in memory; the kernel reads B while it writes C, so C must not alias B";
    return bad();
  }
  return GEMMC_OK;
}

TensorMapParams tensorMapParams(const Manifest &m, Operand op, const gemmc_gemm_args &args) {
  // C (the TMA-store epilogue's map): M rows of N, ldc apart, so dims {N, M}.
  Storage s = op == Operand::A ? storageA(args) : op == Operand::B ? storageB(args) : storageC(args);
  const void *base = op == Operand::A ? args.a : op == Operand::B ? args.b : static_cast<const void *>(args.c);
  const TensorMapSpec &spec = m.tmap(op);
  TensorMapParams p;
  p.dtype = m.operand(op).element;
  p.base = reinterpret_cast<uintptr_t>(base);
  p.dims = {s.cols, s.rows};
  p.strideBytes = s.ld * s.elemBytes;
  p.box = spec.box;
  p.swizzle = spec.swizzle;
  return p;
}

std::array<uint32_t, 3> launchCluster(const Manifest &m) {
  return {static_cast<uint32_t>(m.cluster[0] * m.cluster[1] * m.cluster[2]), 1, 1};
}

uint64_t residentSlots(const Manifest &m, int smCount) {
  uint64_t cx = launchCluster(m)[0];
  return smCount > 0 && cx > 0 ? static_cast<uint64_t>(smCount) / cx * cx : 0;
}

uint64_t workspaceBytes(const Manifest &m, int smCount) {
  if (m.workspaceBytesPerCta <= 0)
    return 0;
  return residentSlots(m, smCount) * static_cast<uint64_t>(m.workspaceBytesPerCta);
}

bool computeLaunch(const Manifest &m, int64_t M, int64_t N, int smCount, LaunchDims &out,
                   std::string &error) {
  if (M < 1 || N < 1) {
    error = "M and N must be >= 1";
    return false;
  }
  uint64_t tilesM = (static_cast<uint64_t>(M) + m.tile[0] - 1) / m.tile[0];
  uint64_t tilesN = (static_cast<uint64_t>(N) + m.tile[1] - 1) / m.tile[1];
  uint64_t tiles = tilesM * tilesN;
  uint64_t cx = launchCluster(m)[0];
  uint64_t rounded = (tiles + cx - 1) / cx * cx;
  // A cluster along N (cluster[1] > 1) takes cluster tiles of cluster[0] x
  // cluster[1] tiles: one cluster each. (Clusters along M keep the tiles
  // rounded up, where a cluster may take two cluster tiles.)
  if (m.cluster[1] > 1) {
    uint64_t cm = static_cast<uint64_t>(m.cluster[0]), cn = static_cast<uint64_t>(m.cluster[1]);
    rounded = (tilesM + cm - 1) / cm * ((tilesN + cn - 1) / cn) * cx;
  }
  uint64_t gx = rounded;
  if (m.scheduler == Scheduler::Persistent || m.scheduler == Scheduler::StreamK) {
    uint64_t slots = residentSlots(m, smCount);
    if (slots == 0) {
      error = std::string(schedulerName(m.scheduler)) + " scheduler: " + std::to_string(smCount) +
              " SMs cannot hold one cluster of " + std::to_string(cx);
      return false;
    }
    // Persistent: no more CTAs than tiles. Stream-K: every slot, however
    // few the tiles, since it splits their K loops over all of the CTAs.
    gx = m.scheduler == Scheduler::StreamK ? slots : rounded < slots ? rounded : slots;
    // split_k: one CTA per piece of a tile while they fit (the kernel
    // shares the K iterations out over the grid it is given).
    if (m.scheduler == Scheduler::StreamK && m.splitK > 1 && tiles * m.splitK < slots)
      gx = tiles * m.splitK;
  }
  if (gx > static_cast<uint64_t>(INT32_MAX)) {
    error = "the grid would have " + std::to_string(gx) + " blocks, more than 2^31-1";
    return false;
  }
  out.grid = {static_cast<uint32_t>(gx), 1, 1};
  out.block = {static_cast<uint32_t>(m.block[0]), static_cast<uint32_t>(m.block[1]),
               static_cast<uint32_t>(m.block[2])};
  out.cluster = launchCluster(m);
  out.dynamicSmemBytes = static_cast<uint32_t>(m.dynamicSmemBytes);
  out.tiles = tiles;
  return true;
}

ArchFit archFit(const Manifest &m, int major, int minor) {
  if (major == m.archMajor && (m.archSpecific ? minor == m.archMinor : minor >= m.archMinor))
    return ArchFit::Native;
  if (m.ptxMajor > 0 && major * 10 + minor >= m.ptxMajor * 10 + m.ptxMinor)
    return ArchFit::Jit;
  return ArchFit::No;
}

std::string archMismatch(const Manifest &m, int major, int minor, const std::string &deviceName) {
  std::string device = "sm_" + std::to_string(major) + std::to_string(minor);
  std::string text = "kernel '" + m.kernel + "' is built for " + m.arch + " but the device (" + deviceName +
                     ") is " + device;
  int file = m.archMajor * 10 + m.archMinor, here = major * 10 + minor;
  if (m.ptxMajor > 0 && here < m.ptxMajor * 10 + m.ptxMinor)
    return text + "; its PTX (compute_" + std::to_string(m.ptxMajor) + std::to_string(m.ptxMinor) +
           ") needs that compute capability or a newer one";
  if (m.archSpecific)
    return text + "; " + m.arch + " code runs only on devices of compute capability " +
           std::to_string(m.archMajor) + "." + std::to_string(m.archMinor) +
           ": build the spec for this device's arch";
  if (here < file)
    return text + "; " + m.arch + " code needs that compute capability or a newer one";
  return text + "; a fatbinary with PTX (gemmc -o FILE.fatbin) runs on newer devices through the driver's JIT";
}

int parseL2Promotion(const char *env, std::string &error) {
  if (!env || !*env)
    return 256;
  std::string v(env);
  if (v == "none")
    return 0;
  if (v == "64" || v == "128" || v == "256")
    return std::stoi(v);
  error = "GEMMC_TMA_L2_PROMOTION = '" + v + "': expected none, 64, 128 or 256 (bytes; unset: 256)";
  return -1;
}

} // namespace gemmc::rt

extern "C" void gemmc_gemm_args_init(gemmc_gemm_args *args) {
  if (!args)
    return;
  std::memset(args, 0, sizeof *args);
  args->alpha = 1.0f;
  args->beta = 0.0f;
}
