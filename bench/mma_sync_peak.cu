// The GPU's mma.sync throughput from registers, the ceiling gemmc's sm_80
// kernels are measured against (issue 12): every warp issues independent
// chains of mma.sync m16n8k8 (tf32) or m16n8k16 (bf16, f16) on operands
// already in registers, with no memory traffic in the timed loop. The
// accumulators are stored once at the end so that nothing is optimized away.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/mma_sync_peak.cu bench/ClockSampler.cpp -o mma-sync-peak
//   ./mma-sync-peak [--json FILE] [--sustain SECONDS]
//
// Prints one line per type and, with --json, writes
// {"gpu": ..., "tf32_tflops": T, "tf32_mhz": F, "bf16_tflops": T, ...}
// for bench/mma_sync_fraction.py. The clock is not locked; two readings of
// it are kept:
//   - `_mhz`: each CTA reads its SM clock (%clock64) and the global
//     nanosecond timer at its start and end: the clock the launch ran at;
//   - `_nvml_mhz`, `_watts`, `_reasons`: NVML's SM clock, board power and
//     clock-event reasons over the reading (bench/ClockSampler).
// On the H200 the two disagree under this load: %clock64 reads 1797-1814
// MHz where NVML reports 1980 MHz, 400-520 W and no reason, and an FFMA
// spin (printed first) reads 1979 MHz by %clock64. A full mma.sync load
// slows the SM clock by ~9% where NVML does not see it (bench/RESULTS.md,
// session 17). A GEMM's clock can be read only by NVML, so per-clock
// fractions use NVML's on both sides.
// --sustain S also runs each type back to back for S seconds and reports the
// median of the second half's launches and their clocks (`_sustain_*`): the
// peak to hold a sustained GEMM reading (gemmc-bench --sustain) against. A
// bf16 GEMM reaches the board's 700 W cap there; this load does not.
#include "ClockSampler.h"
#include "mma_sync.cuh"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Independent accumulator chains per warp: enough to cover the tensor
// pipe's latency with 4 warps per SM sub-partition.
constexpr int kChains = 8;
constexpr int kIters = 4096;

/// CTA c's SM clock and global timer at its start and end: clk[4c..4c+3].
__device__ __forceinline__ void stamp(unsigned long long *clk, int at) {
  if (threadIdx.x)
    return;
  unsigned long long c, t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  clk[4 * blockIdx.x + at] = c;
  clk[4 * blockIdx.x + at + 1] = t;
}

template <Kind K>
__global__ void __launch_bounds__(256) peakKernel(float *out, unsigned long long *clk, unsigned seed) {
  stamp(clk, 0);
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
  stamp(clk, 2);
}

/// No tensor work: a chain of FFMAs a thread, to read %clock64 against the
/// global timer (and NVML) under a light load, beside the mma.sync loads.
__global__ void __launch_bounds__(256) spinKernel(float *out, unsigned long long *clk, int iters) {
  stamp(clk, 0);
  float x = threadIdx.x * 1e-3f;
  for (int i = 0; i < iters; ++i)
    x = x * 0.999f + 1e-3f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  stamp(clk, 2);
}

/// The mean SM clock (MHz) over the last launch's CTAs.
int launchMhz(const unsigned long long *clkDev, int ctas, double &mhz) {
  std::vector<unsigned long long> c(4 * ctas);
  CHECK(cudaMemcpy(c.data(), clkDev, sizeof(c[0]) * c.size(), cudaMemcpyDeviceToHost));
  double cycles = 0, ns = 0;
  for (int i = 0; i < ctas; ++i) {
    cycles += double(c[4 * i + 2] - c[4 * i]);
    ns += double(c[4 * i + 3] - c[4 * i + 1]);
  }
  mhz = ns > 0 ? cycles / ns * 1e3 : 0;
  return 0;
}

struct Reading {
  double tflops = 0, mhz = 0;               // best of 5 and its clock
  double sustainTflops = 0, sustainMhz = 0; // --sustain: median, mean clock
  gemmc::bench::ClockSampler::Summary nvml, sustainNvml; // NVML over each
};

/// " (NVML: 1980 MHz, 402 W, none)" for a window with samples, else "".
std::string nvmlNote(const gemmc::bench::ClockSampler::Summary &s) {
  if (!s.samples)
    return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, " (NVML: %.0f MHz, %.0f W, %s)", s.mhz(), s.power(),
                gemmc::bench::ClockSampler::reasonNames(s.reasons).c_str());
  return buf;
}

template <Kind K>
int measure(const char *name, int ctas, float *out, unsigned long long *clk, double sustainS,
            const gemmc::bench::ClockSampler &nvml, Reading &r) {
  constexpr int threads = 256;
  const double k = K == Kind::Tf32 ? 8 : 16;
  const double flopsPerMma = 2.0 * 16 * 8 * k;
  const double tflopPerLaunch = double(ctas) * (threads / 32) * kIters * kChains * flopsPerMma / 1e12;
  // One warm-up launch (clocks, module load), then the best of five, each
  // timed alone so that its clock is that launch's.
  peakKernel<K><<<ctas, threads>>>(out, clk, 1);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  // `batch` launches back to back: ms per launch, and the last one's clock.
  auto timed = [&](unsigned seed, int batch, float &ms, double &mhz) {
    CHECK(cudaEventRecord(e0));
    for (int b = 0; b < batch; ++b)
      peakKernel<K><<<ctas, threads>>>(out, clk, seed + b);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    ms /= batch;
    return launchMhz(clk, ctas, mhz);
  };
  float best = 1e30f;
  const double burst0 = nvml.now();
  for (int rep = 0; rep < 5; ++rep) {
    float ms = 0;
    double mhz = 0;
    if (timed(rep + 2, 1, ms, mhz))
      return 1;
    if (ms < best)
      best = ms, r.mhz = mhz;
  }
  r.tflops = tflopPerLaunch / (best * 1e-3);
  r.nvml = nvml.between(burst0, nvml.now());
  std::printf("mma.sync %-4s %8.1f TFLOP/s at %4.0f MHz  (%d CTAs x %d threads, %.3f ms, best of 5)%s\n", name,
              r.tflops, r.mhz, ctas, threads, best, nvmlNote(r.nvml).c_str());
  // --sustain: back to back for sustainS seconds in batches of about 20 ms
  // (as gemmc-bench --sustain); the second half's batches give the median
  // time per launch and the mean clock.
  const int batch = std::max(1, int(20.0f / best));
  std::vector<float> ms;
  double mhzSum = 0, half0 = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (s >= sustainS)
      break;
    float t = 0;
    double mhz = 0;
    if (timed(100 + i * batch, batch, t, mhz))
      return 1;
    if (s < sustainS / 2)
      continue;
    if (ms.empty())
      half0 = nvml.now();
    ms.push_back(t);
    mhzSum += mhz;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (ms.empty())
    return 0;
  r.sustainMhz = mhzSum / ms.size();
  r.sustainNvml = nvml.between(half0, nvml.now());
  std::sort(ms.begin(), ms.end());
  r.sustainTflops = tflopPerLaunch / (ms[ms.size() / 2] * 1e-3);
  std::printf("mma.sync %-4s %8.1f TFLOP/s at %4.0f MHz  (sustained %.1f s: median of the second half's %zu batches of %d)%s\n",
              name, r.sustainTflops, r.sustainMhz, sustainS, ms.size(), batch, nvmlNote(r.sustainNvml).c_str());
  return 0;
}

int main(int argc, char **argv) {
  std::string json;
  double sustainS = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      json = argv[++i];
    else if (!std::strcmp(argv[i], "--sustain") && i + 1 < argc)
      sustainS = std::atof(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--json FILE] [--sustain SECONDS]\n", argv[0]);
      return 2;
    }
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  // 4 CTAs of 8 warps per SM: 32 warps, 8 per sub-partition.
  int ctas = prop.multiProcessorCount * 4;
  float *out = nullptr;
  unsigned long long *clk = nullptr;
  CHECK(cudaMalloc(&out, sizeof(float) * ctas * 256));
  CHECK(cudaMalloc(&clk, sizeof(unsigned long long) * 4 * ctas));
  Reading r[3];
  gemmc::bench::ClockSampler nvml(2);
  if (!nvml.available())
    std::printf("(no NVML readings: %s)\n", nvml.why().c_str());
  // The clock counter under a light load: does %clock64 tick at the clock
  // NVML reports when the tensor pipes are idle?
  for (int rep = 0; rep < 3; ++rep) {
    const double t0 = nvml.now();
    spinKernel<<<ctas, 256>>>(out, clk, 200000);
    CHECK(cudaDeviceSynchronize());
    double mhz = 0;
    if (launchMhz(clk, ctas, mhz))
      return 1;
    std::printf("ffma spin: %%clock64 over %%globaltimer %.0f MHz%s\n", mhz,
                nvmlNote(nvml.between(t0, nvml.now())).c_str());
  }
  if (measure<Kind::Tf32>("tf32", ctas, out, clk, sustainS, nvml, r[0]) ||
      measure<Kind::Bf16>("bf16", ctas, out, clk, sustainS, nvml, r[1]) ||
      measure<Kind::F16>("f16", ctas, out, clk, sustainS, nvml, r[2]))
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
    std::fprintf(f, "{\"gpu\": \"%s\", \"sms\": %d, \"max_sm_mhz\": %d", prop.name, prop.multiProcessorCount,
                 mhz / 1000);
    const char *names[3] = {"tf32", "bf16", "f16"};
    for (int i = 0; i < 3; ++i) {
      std::fprintf(f, ", \"%s_tflops\": %.1f, \"%s_mhz\": %.0f", names[i], r[i].tflops, names[i], r[i].mhz);
      if (r[i].nvml.samples)
        std::fprintf(f, ", \"%s_nvml_mhz\": %.0f, \"%s_watts\": %.0f, \"%s_reasons\": \"%s\"", names[i],
                     r[i].nvml.mhz(), names[i], r[i].nvml.power(), names[i],
                     gemmc::bench::ClockSampler::reasonNames(r[i].nvml.reasons).c_str());
      if (sustainS > 0)
        std::fprintf(f, ", \"%s_sustain_tflops\": %.1f, \"%s_sustain_mhz\": %.0f", names[i], r[i].sustainTflops,
                     names[i], r[i].sustainMhz);
      if (sustainS > 0 && r[i].sustainNvml.samples)
        std::fprintf(f, ", \"%s_sustain_nvml_mhz\": %.0f, \"%s_sustain_watts\": %.0f, \"%s_sustain_reasons\": \"%s\"",
                     names[i], r[i].sustainNvml.mhz(), names[i], r[i].sustainNvml.power(), names[i],
                     gemmc::bench::ClockSampler::reasonNames(r[i].sustainNvml.reasons).c_str());
    }
    std::fprintf(f, "}\n");
    std::fclose(f);
  }
  cudaFree(out);
  cudaFree(clk);
  return 0;
}
