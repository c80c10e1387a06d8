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
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  for (int i = threadIdx.x; i < C::kSmemBytes / 16; i += blockDim.x)
    smem[i] = make_uint4(0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u);
  __syncthreads();
  // ldmatrix: lane l gives row l of the .x4's matrices, 32 consecutive
  // 16-byte rows (4 wavefronts, no conflict); ld.shared.b32: 32 consecutive
  // words (1 wavefront).
  unsigned a[2][kMf][4], b[2][Nf][2];
  auto load = [&](int buf, unsigned stage, int kk) {
    // Inside the stage's A half and B half (2 KiB past the offset at most).
    constexpr int kSpan = C::kStageBytes / 2 - 2048;
    unsigned at = stage + (kk * 2048 + warp * 512) % kSpan;
#pragma unroll
    for (int m = 0; m < kMf; ++m) ldsm(a[buf][m], at + lane * 16 + m * 512 % 2048);
    unsigned bt = stage + C::kStageBytes / 2 + (kk * 2048 + warp * 512) % kSpan;
    if constexpr (C::tf32) {
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
  std::printf("mma.sync mixes, CTAs of 8 warps, BLOCK_K 32, %s\n\n"
              "| kernel (CTA tile = 8 warp tiles) | warps / sub-partition | mix | TFLOP/s |\n"
              "|---|---|---|---|\n",
              prop.name);
  if (measureAll<Kind::Bf16, 8, 1>("bf16 128x256 (64x64 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Tf32, 8, 1>("tf32 128x256 (64x64 warps), 3 st", sms, out, global) ||
      measureAll<Kind::Bf16, 4, 1>("bf16 128x128 (64x32 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Bf16, 4, 2>("bf16 128x128 (64x32 warps), 4 st", sms, out, global) ||
      measureAll<Kind::Tf32, 4, 1>("tf32 128x128 (64x32 warps), 3 st", sms, out, global) ||
      measureAll<Kind::Tf32, 4, 2>("tf32 128x128 (64x32 warps), 3 st", sms, out, global))
    return 1;
  cudaFree(global);
  cudaFree(out);
  return 0;
}
