// The GPU's mma.sync throughput from registers, the ceiling gemmc's sm_80
// kernels are measured against (issue 12): every warp issues independent
// chains of mma.sync m16n8k8 (tf32) or m16n8k16 (bf16, f16) on operands
// already in registers, with no memory traffic in the timed loop. The
// accumulators are stored once at the end so that nothing is optimized away.
//
//   nvcc -O3 -arch=sm_90 bench/mma_sync_peak.cu -o mma-sync-peak
//   ./mma-sync-peak [--json FILE]
//
// Prints one line per type and, with --json, writes
// {"gpu": ..., "sm_mhz": ..., "tf32_tflops": T, "bf16_tflops": T, "f16_tflops": T}
// for bench/mma_sync_fraction.py. The clock is whatever the GPU runs at under
// this load (reported, not locked).
#include "mma_sync.cuh"
#include <cstring>
#include <string>

// Independent accumulator chains per warp: enough to cover the tensor
// pipe's latency with 4 warps per SM sub-partition.
constexpr int kChains = 8;
constexpr int kIters = 4096;

template <Kind K>
__global__ void __launch_bounds__(256) peakKernel(float *out, unsigned seed) {
  // Small operand values (their bits vary by thread) keep the sums finite.
  unsigned x = 0x3c003c00u ^ (threadIdx.x * 2654435761u + seed);
  unsigned a[4] = {x & 0x3f803f80u, (x >> 1) & 0x3f803f80u, (x >> 2) & 0x3f803f80u,
                   (x >> 3) & 0x3f803f80u};
  unsigned b[2] = {(x >> 4) & 0x3f803f80u, (x >> 5) & 0x3f803f80u};
  float d[kChains][4] = {};
  for (int i = 0; i < kIters; ++i)
#pragma unroll
    for (int c = 0; c < kChains; ++c)
      mma<K>(d[c], a, b);
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c)
    sum += d[c][0] + d[c][1] + d[c][2] + d[c][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <Kind K>
int measure(const char *name, int ctas, float *out, double &tflops) {
  constexpr int threads = 256;
  const double k = K == Kind::Tf32 ? 8 : 16;
  const double flopsPerMma = 2.0 * 16 * 8 * k;
  float best = 0;
  if (timeBestOf5([&](int r) { peakKernel<K><<<ctas, threads>>>(out, r + 1); }, best))
    return 1;
  double mmas = double(ctas) * (threads / 32) * kIters * kChains;
  tflops = mmas * flopsPerMma / (best * 1e-3) / 1e12;
  std::printf("mma.sync %-4s %8.1f TFLOP/s  (%d CTAs x %d threads, %.3f ms, best of 5)\n", name, tflops, ctas,
              threads, best);
  return 0;
}

int main(int argc, char **argv) {
  std::string json;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // 4 CTAs of 8 warps per SM: 32 warps, 8 per sub-partition.
  int ctas = prop.multiProcessorCount * 4;
  float *out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * ctas * 256));
  double tf32 = 0, bf16 = 0, f16 = 0;
  if (measure<Kind::Tf32>("tf32", ctas, out, tf32) || measure<Kind::Bf16>("bf16", ctas, out, bf16) ||
      measure<Kind::F16>("f16", ctas, out, f16))
    return 1;
  int mhz = 0;
  cudaDeviceGetAttribute(&mhz, cudaDevAttrClockRate, 0);
  std::printf("%s, %d SMs, max SM clock %d MHz\n", prop.name, prop.multiProcessorCount, mhz / 1000);
  if (!json.empty()) {
    FILE *f = std::fopen(json.c_str(), "w");
    if (!f) {
      std::perror(json.c_str());
      return 1;
    }
    std::fprintf(f, "{\"gpu\": \"%s\", \"sms\": %d, \"max_sm_mhz\": %d, \"tf32_tflops\": %.1f, "
                    "\"bf16_tflops\": %.1f, \"f16_tflops\": %.1f}\n",
                 prop.name, prop.multiProcessorCount, mhz / 1000, tf32, bf16, f16);
    std::fclose(f);
  }
  cudaFree(out);
  return 0;
}
