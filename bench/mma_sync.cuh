// What bench/mma_sync_peak.cu and bench/mma_sync_mix.cu share: the CUDA
// error check of a host function returning int, and mma.sync on operands in
// registers.
#pragma once
#include <cuda_runtime.h>
#include <cstdio>

#define CHECK(x)                                                                  \
  do {                                                                            \
    cudaError_t e = (x);                                                          \
    if (e != cudaSuccess) {                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,             \
                   cudaGetErrorString(e));                                        \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

enum class Kind { Tf32, Bf16, F16 };

/// d += a x b: m16n8k8 (tf32) or m16n8k16 (bf16, f16), f32 accumulators.
template <Kind K>
__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned *b) {
  if constexpr (K == Kind::Tf32)
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else if constexpr (K == Kind::Bf16)
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  else
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/// `launch(r)` once to warm up (r = 0: clocks, JIT), then r = 1..5 timed
/// with CUDA events; `best` gets the fastest, in ms.
template <typename Launch>
int timeBestOf5(Launch launch, float &best) {
  launch(0);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  best = 1e30f;
  for (int rep = 1; rep <= 5; ++rep) {
    CHECK(cudaEventRecord(start));
    launch(rep);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    best = ms < best ? ms : best;
  }
  return 0;
}
