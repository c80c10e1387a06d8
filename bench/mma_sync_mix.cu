// What the sm_80 kernels' instruction mix leaves of the mma.sync peak on this
// GPU (issue 12). A CTA of 8 warps runs k steps of mma.sync on a warp tile of
// 64 x 64 (4 x 8 fragments, gemmc's 128x256 kernels) or 64 x 32 (4 x 4, the
// 128x128 ones), bf16 m16n8k16 or tf32 m16n8k8, with no global memory on the
// critical path. The variants add, one at a time, what the real kernel
// issues:
//   regs      operands already in registers (the ceiling for the tile);
//   ldsm      the next k step's fragments from conflict-free shared rows,
//             double-buffered as gemmc does: A by ldmatrix.x4; B by
//             ldmatrix.x4 (bf16, K-major) or, for tf32 (N-major B, which
//             ldmatrix cannot transpose), two ld.shared.b32 per n8 fragment;
//   +cp.async the ring's fills: per stage (BLOCK_K = 32: 2 bf16 or 4 tf32
//             k steps) each thread copies its share of the CTA's A and B
//             stage tiles, 16 bytes a cp.async.cg, from an L2-resident
//             global buffer into the stage the ring fills next, then
//             commit_group and wait_group(stages - 2): the bytes per FLOP of
//             the real kernel ((BLOCK_M + BLOCK_N) x 32 x bytes per stage);
//   +bar      also the CTA's bar.sync after each stage's wait (the real
//             mainloop's skeleton);
//   spread    +bar with each stage's copies spread over its k steps (after
//             each step's fragment reads) instead of all at the stage's top;
//   sts+bar   the fills' bytes as st.shared from registers instead of
//             cp.async (session 4's measurement of the shared-store cost).
// (nvcc 13.0, -arch=sm_90: no spill but in tf32 64 x 32 "spread" at 2 CTAs,
// 16 bytes.) At 1 CTA an SM (2 warps a sub-partition) and, for the 64 x 32 tiles, 2
// (4 warps a sub-partition: 64 accumulators a thread leave room under the
// 128 registers of 2 x 256 threads; the 64 x 64 tile's 128 do not).
//
//   nvcc -O3 -arch=sm_90 bench/mma_sync_mix.cu -o mma-sync-mix && ./mma-sync-mix
#include "mma_sync.cuh"

constexpr int kWarps = 8, kThreads = kWarps * 32, kMf = 4, kSteps = 1024;
constexpr int kGlobalBytes = 8 << 20; // the fills' source: stays in L2
constexpr int kRealBytes = 16 << 20;  // realKernel's A and B: stay in L2

enum class Feed { None, CpAsync, Spread, Sts };

__device__ __forceinline__ void ldsm(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}
__device__ __forceinline__ unsigned lds32(unsigned addr) {
  unsigned r;
  asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(r) : "r"(addr));
  return r;
}
__device__ __forceinline__ void cpAsync16(unsigned dst, const void *src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
}

/// One warp's fragments of k step kk of the stage at `stage` (buffer buf of
/// a and b): conflict-free addresses inside the stage's A half and B half
/// (2 KiB past the offset at most). ldmatrix: lane l gives row l of the
/// .x4's matrices, 32 consecutive 16-byte rows (4 wavefronts, no
/// conflict); ld.shared.b32: 32 consecutive words (1 wavefront).
template <Kind K, int Nf, int StageBytes>
__device__ __forceinline__ void loadFragments(unsigned (&a)[2][kMf][4], unsigned (&b)[2][Nf][2],
                                              int buf, unsigned stage, int kk) {
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  constexpr int kSpan = StageBytes / 2 - 2048;
  unsigned at = stage + (kk * 2048 + warp * 512) % kSpan;
#pragma unroll
  for (int m = 0; m < kMf; ++m) ldsm(a[buf][m], at + lane * 16 + m * 512 % 2048);
  unsigned bt = stage + StageBytes / 2 + (kk * 2048 + warp * 512) % kSpan;
  if constexpr (K == Kind::Tf32) {
#pragma unroll
    for (int n = 0; n < Nf; ++n)
#pragma unroll
      for (int h = 0; h < 2; ++h) b[buf][n][h] = lds32(bt + lane * 4 + (2 * n + h) * 128 % 2048);
  } else {
#pragma unroll
    for (int n = 0; n < Nf / 2; ++n) {
      unsigned r[4];
      ldsm(r, bt + lane * 16 + n * 512 % 2048);
      b[buf][2 * n][0] = r[0]; b[buf][2 * n][1] = r[1];
      b[buf][2 * n + 1][0] = r[2]; b[buf][2 * n + 1][1] = r[3];
    }
  }
}

/// One configuration: 8 warps of 64 x 8 Nf as 2 x 4 (BLOCK_M = 128,
/// BLOCK_N = 32 Nf, BLOCK_K = 32), the stage ring as gemmc's a100 specs.
template <Kind K, int Nf> struct Config {
  static constexpr bool tf32 = K == Kind::Tf32;
  static constexpr int kElemBytes = tf32 ? 4 : 2;
  static constexpr int kStepK = tf32 ? 8 : 16;
  static constexpr int kStepsPerStage = 32 / kStepK; // BLOCK_K = 32
  static constexpr int kStageBytes = (128 + 32 * Nf) * 32 * kElemBytes;
  static constexpr int kStages = tf32 ? 3 : 4; // gemmc's a100 specs
  static constexpr int kSmemBytes = kStages * kStageBytes;
  static constexpr int kFillsPerStage = kStageBytes / 16 / kThreads;
  static_assert(kFillsPerStage * 16 * kThreads == kStageBytes, "whole copies a thread");
};

template <Kind K, int Nf, int CtasPerSm, bool Ldsm, Feed F, bool Bar>
__global__ void __launch_bounds__(kThreads, CtasPerSm)
    mixKernel(float *out, const uint4 *global) {
  using C = Config<K, Nf>;
  extern __shared__ uint4 smem[];
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  for (int i = threadIdx.x; i < C::kSmemBytes / 16; i += blockDim.x)
    smem[i] = make_uint4(0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u);
  __syncthreads();
  unsigned a[2][kMf][4], b[2][Nf][2];
  auto load = [&](int buf, unsigned stage, int kk) {
    loadFragments<K, Nf, C::kStageBytes>(a, b, buf, stage, kk);
  };
  load(0, base, 0);
#pragma unroll
  for (int m = 0; m < kMf; ++m)
#pragma unroll
    for (int i = 0; i < 4; ++i) a[1][m][i] = a[0][m][i];
#pragma unroll
  for (int n = 0; n < Nf; ++n) b[1][n][0] = b[0][n][0], b[1][n][1] = b[0][n][1];
  float d[kMf][Nf][4] = {};
  const char *src = reinterpret_cast<const char *>(global);
  unsigned long long srcOffset = (blockIdx.x * 7919ull * 4096) % kGlobalBytes;
  constexpr int kStagesRun = kSteps / C::kStepsPerStage;
  for (int st = 0; st < kStagesRun; ++st) {
    unsigned stage = base + (st % C::kStages) * C::kStageBytes;
    // The stage the ring fills next (stages - 1 ahead): copies first .. last.
    unsigned fill = base + ((st + C::kStages - 1) % C::kStages) * C::kStageBytes;
    auto copies = [&](int first, int last) {
#pragma unroll
      for (int i = first; i < last; ++i) {
        unsigned dst = fill + (i * kThreads + threadIdx.x) * 16;
        if constexpr (F == Feed::Sts) {
          uint4 v = make_uint4(st, i, 0, 0);
          asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};\n" ::"r"(dst), "r"(v.x), "r"(v.y),
                       "r"(v.z), "r"(v.w));
        } else {
          cpAsync16(dst, src + (srcOffset + dst - base) % kGlobalBytes);
        }
      }
    };
    if constexpr (F == Feed::CpAsync || F == Feed::Sts)
      copies(0, C::kFillsPerStage);
#pragma unroll
    for (int kk = 0; kk < C::kStepsPerStage; ++kk) {
      int cur = kk & 1;
      if (Ldsm)
        load(cur ^ 1, stage, (kk + 1) % C::kStepsPerStage);
      if constexpr (F == Feed::Spread)
        copies(kk * C::kFillsPerStage / C::kStepsPerStage,
               (kk + 1) * C::kFillsPerStage / C::kStepsPerStage);
#pragma unroll
      for (int m = 0; m < kMf; ++m)
#pragma unroll
        for (int n = 0; n < Nf; ++n) mma<K>(d[m][n], a[cur][m], b[cur][n]);
    }
    if constexpr (F != Feed::None)
      srcOffset += C::kStageBytes * 5;
    if constexpr (F == Feed::CpAsync || F == Feed::Spread) {
      asm volatile("cp.async.commit_group;\n" ::);
      asm volatile("cp.async.wait_group %0;\n" ::"n"(C::kStages - 2));
    }
    if (Bar)
      __syncthreads();
  }
  float sum = 0;
#pragma unroll
  for (int m = 0; m < kMf; ++m)
#pragma unroll
    for (int n = 0; n < Nf; ++n) sum += d[m][n][0] + d[m][n][1] + d[m][n][2] + d[m][n][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

/// A global matrix as gemmc's fills see it: elements, leading dimension
/// and the bounds of the zero-fill.
struct Operand {
  const char *base;
  int ld, rowLimit, colLimit;
};

/// Copy i of this thread's share of one operand's stage tile (Rows rows of
/// Units 16-byte units; consecutive shared units, no bank conflict).
template <int Rows, int Units, int Eb, bool Pred>
__device__ __forceinline__ void copyOne(const Operand &o, unsigned dst, int row0, int col0, int i) {
  int q = i * kThreads + threadIdx.x;
  int row = row0 + q / Units, col = col0 + q % Units * (16 / Eb);
  unsigned to = dst + q * 16;
  if constexpr (Pred) {
    bool inside = unsigned(row) < unsigned(o.rowLimit) && unsigned(col) < unsigned(o.colLimit);
    unsigned bytes = inside ? min(unsigned(o.colLimit - col) * Eb, 16u) : 0u;
    unsigned long long offset =
        inside ? (unsigned long long)unsigned(row) * unsigned(o.ld) + unsigned(col) : 0ull;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(to),
                 "l"(o.base + offset * Eb), "r"(bytes));
  } else {
    cpAsync16(to, o.base + ((unsigned long long)unsigned(row) * unsigned(o.ld) + unsigned(col)) * Eb);
  }
}

/// Where a K tile's refill goes (gemmc's is Top):
///   Top        all copies and the commit at the tile's top, after nothing;
///   Late       after the stage barrier and the next tile's first fragment
///              reads, into the stage just freed (load t + stages; the
///              prologue fills every stage);
///   Split      A's copies at the top (after k step 1's fragment reads), B's
///              and the commit after the barrier (wait_group stages - 3);
///   Interleave one copy every few mma.syncs of the k steps before the
///              wait, the commit after the last.
enum class Order { Top, Late, Split, Interleave };

/// gemmc's own mainloop (lib/Transforms/GemmcWarpSpecialize.cpp,
/// buildEveryThreadFills with the stage-boundary prefetch) on the mix's
/// conflict-free shared addresses: the prologue fills stages 0 .. S-2; each
/// K tile t refills stage t - 1 (Order::Top: all copies and the commit at
/// the tile's top), reads k step kk + 1's fragments before k step kk's
/// mma.syncs, and before its last k step waits (wait_group S-2, bar.sync)
/// for tile t + 1 and reads that tile's first fragments. The copies address
/// global memory as gemmc's stage_fill does: thread q of a round copies unit
/// q % units of row q / units of the operand's tile, element (row0 + r) x ld
/// + col0 + u x 16 B; with Pred also its zero-fill (Sm80Patterns.cpp at main
/// 1a3305a: src-size min((K - col) x bytes, 16) inside the matrix, else 0
/// from the matrix's first element), from runtime M, N, K. The matrices
/// (1024 x 2048 A and B, K-major B for 16-bit, N-major for tf32 as gemmc's
/// specs) stay in L2; k0 wraps around K.
template <Kind K, int Nf, int Stages, bool Pred, Order O>
__global__ void __launch_bounds__(kThreads, 1)
    realKernel(float *out, Operand opA, Operand opB, int m, int n, int kMat, int kTiles) {
  using C = Config<K, Nf>;
  constexpr int kStageBytes = C::kStageBytes, kBlockN = 32 * Nf, kEb = C::kElemBytes;
  // A: 128 rows of 32 elements; B: 32 rows of BLOCK_N (N-major tf32) or
  // BLOCK_N rows of 32 (K-major 16-bit).
  constexpr int kUnitsA = 32 * kEb / 16, kCopiesA = 128 * kUnitsA / kThreads;
  constexpr int kRowsB = C::tf32 ? 32 : kBlockN, kUnitsB = C::tf32 ? kBlockN * kEb / 16 : 32 * kEb / 16;
  constexpr int kCopies = kCopiesA + kRowsB * kUnitsB / kThreads;
  static_assert(kCopies == C::kFillsPerStage, "the stage's bytes");
  extern __shared__ uint4 smem[];
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  unsigned a[2][kMf][4], b[2][Nf][2];
  auto load = [&](int buf, unsigned stage, int kk) {
    loadFragments<K, Nf, kStageBytes>(a, b, buf, stage, kk);
  };
  int m0 = blockIdx.x % (m / 128) * 128, n0 = blockIdx.x / (m / 128) % (n / kBlockN) * kBlockN;
  // Copy i (A's first) of load `tile`.
  auto copy = [&](int tile, int i) {
    unsigned stage = base + tile % Stages * kStageBytes;
    int k0 = tile % (kMat / 32) * 32;
    if (i < kCopiesA)
      copyOne<128, kUnitsA, kEb, Pred>(opA, stage, m0, k0, i);
    else if constexpr (C::tf32)
      copyOne<32, kUnitsB, kEb, Pred>(opB, stage + 128 * 32 * kEb, k0, n0, i - kCopiesA);
    else
      copyOne<kBlockN, kUnitsB, kEb, Pred>(opB, stage + 128 * 32 * kEb, n0, k0, i - kCopiesA);
  };
  auto copies = [&](int tile, int first, int last) {
#pragma unroll
    for (int i = first; i < last; ++i) copy(tile, i);
  };
  auto commit = [] { asm volatile("cp.async.commit_group;\n" ::); };
  constexpr int kPending = O == Order::Split ? Stages - 3 : Stages - 2;
  static_assert(kPending >= 0, "Split needs 3 stages or more");
  auto wait = [] {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
    __syncthreads();
  };
  // Interleave: copies after mma.syncs number 0, kEvery, 2 kEvery, ... of
  // the tile's k steps before the wait (kMf x Nf a step), so that the
  // commit precedes it.
  constexpr int kEvery = kMf * Nf * (C::kStepsPerStage - 1) / kCopies;
  static_assert(kEvery >= 1, "a copy after each mma.sync at most");
  constexpr int kPrologue = O == Order::Late ? Stages : Stages - 1;
#pragma unroll 1
  for (int st = 0; st < kPrologue; ++st) {
    copies(st, 0, kCopies);
    commit();
  }
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPrologue - 1));
  __syncthreads();
  load(0, base, 0);
  float d[kMf][Nf][4] = {};
#pragma unroll 1
  for (int t = 0; t < kTiles; ++t) {
    unsigned stage = base + t % Stages * kStageBytes;
    int refill = t + Stages - 1;
    if constexpr (O == Order::Top) {
      copies(refill, 0, kCopies);
      commit();
    }
#pragma unroll
    for (int kk = 0; kk < C::kStepsPerStage; ++kk) {
      int cur = kk & 1;
      if (kk + 1 < C::kStepsPerStage) {
        load(cur ^ 1, stage, kk + 1);
      } else {
        wait();
        load(cur ^ 1, base + (t + 1) % Stages * kStageBytes, 0);
        if constexpr (O == Order::Late) {
          copies(refill + 1, 0, kCopies);
          commit();
        } else if constexpr (O == Order::Split) {
          copies(refill, kCopiesA, kCopies);
          commit();
        }
      }
      if constexpr (O == Order::Split)
        if (kk == 0)
          copies(refill, 0, kCopiesA);
#pragma unroll
      for (int mi = 0; mi < kMf; ++mi)
#pragma unroll
        for (int ni = 0; ni < Nf; ++ni) {
          mma<K>(d[mi][ni], a[cur][mi], b[cur][ni]);
          if constexpr (O == Order::Interleave) {
            constexpr int kPerStep = kMf * Nf;
            int j = kk * kPerStep + mi * Nf + ni;
            if (j % kEvery == 0 && j / kEvery < kCopies) {
              copy(refill, j / kEvery);
              if (j / kEvery == kCopies - 1)
                commit();
            }
          }
        }
    }
  }
  asm volatile("cp.async.wait_group 0;\n" ::);
  float sum = 0;
#pragma unroll
  for (int mi = 0; mi < kMf; ++mi)
#pragma unroll
    for (int ni = 0; ni < Nf; ++ni) sum += d[mi][ni][0] + d[mi][ni][1] + d[mi][ni][2] + d[mi][ni][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

struct Row {
  const char *kernel;
  int warpsPerSubPartition;
  const char *mix;
  double tflops;
};

template <Kind K, int Nf, int CtasPerSm, bool Ldsm, Feed F, bool Bar>
int measure(const char *name, const char *mix, int sms, float *out, const uint4 *global) {
  using C = Config<K, Nf>;
  auto kernel = mixKernel<K, Nf, CtasPerSm, Ldsm, F, Bar>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmemBytes));
  int ctas = sms * CtasPerSm;
  float best = 0;
  if (timeBestOf5([&](int) { kernel<<<ctas, kThreads, C::kSmemBytes>>>(out, global); }, best))
    return 1;
  double mmas = double(ctas) * kWarps * kSteps * kMf * Nf;
  double tflops = mmas * 2.0 * 16 * 8 * C::kStepK / (best * 1e-3) / 1e12;
  std::printf("| %-34s | %d | %-10s | %7.1f |\n", name, CtasPerSm * kWarps / 4, mix, tflops);
  std::fflush(stdout);
  return 0;
}

/// Operands of magnitude 0.5-2 with random signs and low bits (bf16 pairs or
/// f32 words), so that the tensor pipe switches as on real data.
__global__ void fillOperands(unsigned *words, int n, bool f32) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    unsigned h = i * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    words[i] = f32 ? (h & 0x807fffffu) | 0x3f000000u : (h & 0x80ff80ffu) | 0x3f003f00u;
  }
}

/// realKernel on matrices of M = N = 1024, K = 2048 (L2-resident), the
/// same k steps a CTA as the mix.
template <Kind K, int Nf, int Stages, bool Pred, Order O = Order::Top>
int measureReal(const char *name, const char *mix, int sms, float *out, char *global,
                bool zeros = false) {
  using C = Config<K, Nf>;
  auto kernel = realKernel<K, Nf, Stages, Pred, O>;
  int smem = Stages * C::kStageBytes;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  constexpr int m = 1024, n = 1024, kMat = 2048, eb = C::kElemBytes;
  static_assert(size_t(m + n) * kMat * eb <= size_t(kRealBytes), "fits the buffer");
  const char *b = global + size_t(m) * kMat * eb;
  Operand opA{global, kMat, m, kMat};
  Operand opB = C::tf32 ? Operand{b, n, kMat, n} : Operand{b, kMat, n, kMat};
  int tiles = kSteps / C::kStepsPerStage;
  if (zeros)
    CHECK(cudaMemset(global, 0, kRealBytes));
  else
    fillOperands<<<1024, 256>>>(reinterpret_cast<unsigned *>(global), kRealBytes / 4, C::tf32);
  CHECK(cudaGetLastError());
  float best = 0;
  if (timeBestOf5([&](int) { kernel<<<sms, kThreads, smem>>>(out, opA, opB, m, n, kMat, tiles); },
                  best))
    return 1;
  double mmas = double(sms) * kWarps * kSteps * kMf * Nf;
  double tflops = mmas * 2.0 * 16 * 8 * C::kStepK / (best * 1e-3) / 1e12;
  std::printf("| %-34s | %d | %-10s | %7.1f |\n", name, kWarps / 4, mix, tflops);
  std::fflush(stdout);
  return 0;
}

/// Every variant of one configuration.
template <Kind K, int Nf, int CtasPerSm>
int measureAll(const char *name, int sms, float *out, const uint4 *global) {
  return measure<K, Nf, CtasPerSm, false, Feed::None, false>(name, "regs", sms, out, global) ||
         measure<K, Nf, CtasPerSm, true, Feed::None, false>(name, "ldsm", sms, out, global) ||
         measure<K, Nf, CtasPerSm, true, Feed::CpAsync, false>(name, "+cp.async", sms, out,
                                                               global) ||
         measure<K, Nf, CtasPerSm, true, Feed::CpAsync, true>(name, "+bar", sms, out, global) ||
         measure<K, Nf, CtasPerSm, true, Feed::Spread, true>(name, "spread", sms, out, global) ||
         measure<K, Nf, CtasPerSm, true, Feed::Sts, true>(name, "sts+bar", sms, out, global);
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  float *out = nullptr;
  uint4 *global = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * sms * 2 * kThreads));
  CHECK(cudaMalloc(&global, kGlobalBytes));
  CHECK(cudaMemset(global, 0, kGlobalBytes));
  char *gbytes = nullptr;
  CHECK(cudaMalloc(&gbytes, kRealBytes));
  std::printf("mma.sync mixes, CTAs of 8 warps, BLOCK_K 32, %s\n\n"
              "| kernel (CTA tile = 8 warp tiles) | warps / sub-partition | mix | TFLOP/s |\n"
              "|---|---|---|---|\n",
              prop.name);
  if (measureAll<Kind::Bf16, 8, 1>("bf16 128x256 (64x64 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Tf32, 8, 1>("tf32 128x256 (64x64 warps), 3 st", sms, out, global) ||
      measureReal<Kind::Bf16, 8, 4, false>("bf16 128x256 (64x64 warps), 4 st", "real 0s", sms, out, gbytes, true) ||
      measureReal<Kind::Bf16, 8, 4, false>("bf16 128x256 (64x64 warps), 4 st", "real", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 4, true>("bf16 128x256 (64x64 warps), 4 st", "real+pred", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 4, true, Order::Late>("bf16 128x256 (64x64 warps), 4 st", "late", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 4, true, Order::Split>("bf16 128x256 (64x64 warps), 4 st", "split", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 4, true, Order::Interleave>("bf16 128x256 (64x64 warps), 4 st", "interleave", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 6, true>("bf16 128x256 (64x64 warps), 6 st", "real+pred", sms, out, gbytes) ||
      measureReal<Kind::Bf16, 8, 6, true, Order::Interleave>("bf16 128x256 (64x64 warps), 6 st", "interleave", sms, out, gbytes) ||
      measureReal<Kind::Tf32, 8, 3, false>("tf32 128x256 (64x64 warps), 3 st", "real", sms, out, gbytes) ||
      measureReal<Kind::Tf32, 8, 3, true>("tf32 128x256 (64x64 warps), 3 st", "real+pred", sms, out, gbytes) ||
      measureReal<Kind::Tf32, 8, 3, true, Order::Late>("tf32 128x256 (64x64 warps), 3 st", "late", sms, out, gbytes) ||
      measureReal<Kind::Tf32, 8, 3, true, Order::Interleave>("tf32 128x256 (64x64 warps), 3 st", "interleave", sms, out, gbytes) ||
      measureAll<Kind::Bf16, 4, 1>("bf16 128x128 (64x32 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Bf16, 4, 2>("bf16 128x128 (64x32 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Tf32, 4, 1>("tf32 128x128 (64x32 warps), 3 st", sms, out, global) ||
      measureAll<Kind::Tf32, 4, 2>("tf32 128x128 (64x32 warps), 3 st", sms, out, global))
    return 1;
  cudaFree(global);
  cudaFree(gbytes);
  cudaFree(out);
  return 0;
}
