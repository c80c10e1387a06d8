// What the sm_80 kernels' instruction mix leaves of the mma.sync peak on this
// GPU (issue 12): a warp holds a 64 x 64 bf16 warp tile as gemmc's
// a100_bf16_128x128x32_w4 does (4 x 8 fragments of m16n8k16, 128 fp32
// accumulators a thread) and runs k steps of 32 mma.sync, with no global
// memory in the timed loop. Variants add, one at a time, what the real
// kernel also issues per k step:
//   regs      operands already in registers (the ceiling for this tile);
//   ldsm      the next step's fragments through 8 ldmatrix.x4 (4 of A, 4 of
//             B) from conflict-free shared rows, double-buffered;
//   ldsm+sts  also 4 16-byte shared stores a thread, the shared-memory
//             writes of the cp.async fills (16 KiB a stage of 2 k steps
//             for 4 warps);
//   +bar      also a bar.sync of the CTA every 2 k steps (one per stage).
// Each at 1 and 2 warps per SM sub-partition (4 warps a CTA, 1 or 2 CTAs an
// SM, the w4 kernel's residency).
//
//   nvcc -O3 -arch=native bench/mma_sync_mix.cu -o mma-sync-mix && ./mma-sync-mix
#include "mma_sync.cuh"

constexpr int kWarps = 4, kMf = 4, kNf = 8, kSteps = 1024;
constexpr int kSmemBytes = 32 * 1024;

__device__ __forceinline__ void ldsm(unsigned (&r)[4], unsigned addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

struct Frags {
  unsigned a[kMf][4];
  unsigned b[kNf][2];
};

template <bool Ldsm, bool Sts, bool Bar>
__global__ void __launch_bounds__(kWarps * 32) mixKernel(float *out) {
  extern __shared__ uint4 smem[];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  for (int i = threadIdx.x; i < kSmemBytes / 16; i += blockDim.x)
    smem[i] = make_uint4(0x3c003c00u, 0x3c003c00u, 0x3c003c00u, 0x3c003c00u);
  __syncthreads();
  // Lane l reads row l of its 8-row matrices: 8 consecutive 16-byte rows of a
  // 128-byte line (one wavefront per matrix).
  unsigned row = base + lane * 16;
  Frags cur, next;
#pragma unroll
  for (int m = 0; m < kMf; ++m) ldsm(cur.a[m], row + m * 512);
#pragma unroll
  for (int n = 0; n < kNf / 2; ++n) {
    unsigned r[4];
    ldsm(r, row + 8192 + n * 512);
    cur.b[2 * n][0] = r[0]; cur.b[2 * n][1] = r[1];
    cur.b[2 * n + 1][0] = r[2]; cur.b[2 * n + 1][1] = r[3];
  }
  next = cur;
  float d[kMf][kNf][4] = {};
  for (int s = 0; s < kSteps; ++s) {
    unsigned off = ((s & 7) * 2048 + warp * 64 * 16) % (kSmemBytes / 2);
    if (Ldsm) {
#pragma unroll
      for (int m = 0; m < kMf; ++m) ldsm(next.a[m], row + ((off + m * 512) & 8191));
#pragma unroll
      for (int n = 0; n < kNf / 2; ++n) {
        unsigned r[4];
        ldsm(r, row + 8192 + ((off + n * 512) & 8191));
        next.b[2 * n][0] = r[0]; next.b[2 * n][1] = r[1];
        next.b[2 * n + 1][0] = r[2]; next.b[2 * n + 1][1] = r[3];
      }
    }
    if (Sts) {
      // The cp.async fills' shared writes: 64 bytes a thread a k step, into
      // the other half (not read by this step's ldmatrix).
#pragma unroll
      for (int i = 0; i < 4; ++i)
        smem[(kSmemBytes / 2 + ((s & 3) * 4 + i) * kWarps * 32 * 16 + threadIdx.x * 16) /
                 16 % (kSmemBytes / 16)] = make_uint4(s, i, 0, 0);
    }
#pragma unroll
    for (int m = 0; m < kMf; ++m)
#pragma unroll
      for (int n = 0; n < kNf; ++n) mma<Kind::Bf16>(d[m][n], cur.a[m], cur.b[n]);
    if (Bar && (s & 1))
      __syncthreads();
    cur = next;
  }
  float sum = 0;
#pragma unroll
  for (int m = 0; m < kMf; ++m)
#pragma unroll
    for (int n = 0; n < kNf; ++n) sum += d[m][n][0] + d[m][n][1] + d[m][n][2] + d[m][n][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <bool Ldsm, bool Sts, bool Bar>
int measure(const char *name, int sms, int ctasPerSm, float *out) {
  auto kernel = mixKernel<Ldsm, Sts, Bar>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  int ctas = sms * ctasPerSm;
  float best = 0;
  if (timeBestOf5([&](int) { kernel<<<ctas, kWarps * 32, kSmemBytes>>>(out); }, best))
    return 1;
  double mmas = double(ctas) * kWarps * kSteps * kMf * kNf;
  double tflops = mmas * 2.0 * 16 * 8 * 16 / (best * 1e-3) / 1e12;
  std::printf("| %-9s | %d | %7.1f |\n", name, ctasPerSm, tflops);
  return 0;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  float *out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * sms * 2 * kWarps * 32));
  std::printf("bf16 m16n8k16, 64 x 64 warp tiles, %s\n\n| mix | warps / sub-partition | TFLOP/s |\n|---|---|---|\n",
              prop.name);
  for (int per = 1; per <= 2; ++per)
    if (measure<false, false, false>("regs", sms, per, out) ||
        measure<true, false, false>("ldsm", sms, per, out) ||
        measure<true, true, false>("ldsm+sts", sms, per, out) ||
        measure<true, true, true>("+bar", sms, per, out))
      return 1;
  cudaFree(out);
  return 0;
}
