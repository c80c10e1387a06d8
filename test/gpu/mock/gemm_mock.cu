// A mock gemmc kernel: follows the gemmc kernel ABI exactly (docs/runtime.md)
// so that the runtime, the GPU suite and the benchmark can be validated before
// the compiler produces real cubins. Correct, not fast: TMA (cp.async.bulk.tensor
// + mbarrier, two stages, no swizzle) into shared memory, then plain fp32 FMA.
//
// Built here, never on the fly: test/gpu/mock/build_mock.sh compiles one cubin
// per variant with
//   nvcc -gencode=arch=compute_90a,code=sm_90a -cubin -D... gemm_mock.cu
// and copies the hand-written manifest <cubin>.json beside it.
//
// Compile-time variant knobs:
//   MOCK_KERNEL   kernel symbol (matches the manifest's "kernel")
//   MOCK_F16      1: f16 operands and output; 0: bf16
//   MOCK_A_COL    1: A is M contiguous; 0: K contiguous
//   MOCK_B_ROW    1: B is N contiguous; 0: K contiguous
//   MOCK_BK       32 or 64
//   MOCK_RASTER_N 1: consecutive tiles walk along N; 0: along M
//   MOCK_ALPHA    1: takes a float alpha after ldc
// The same code serves the data-parallel grid (one tile per CTA) and the
// persistent grid (CTAs stride over tiles).
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#ifndef MOCK_KERNEL
#define MOCK_KERNEL gemm_mock
#endif
#ifndef MOCK_F16
#define MOCK_F16 0
#endif
#ifndef MOCK_A_COL
#define MOCK_A_COL 0
#endif
#ifndef MOCK_B_ROW
#define MOCK_B_ROW 0
#endif
#ifndef MOCK_BK
#define MOCK_BK 64
#endif
#ifndef MOCK_RASTER_N
#define MOCK_RASTER_N 0
#endif
#ifndef MOCK_ALPHA
#define MOCK_ALPHA 0
#endif

namespace {

constexpr int BM = 128, BN = 128, BK = MOCK_BK;
constexpr int KCHUNKS = BK / 8; // 16-byte chunks along K
constexpr int A_TILE = BM * BK, B_TILE = BN * BK; // elements
constexpr uint32_t STAGE_BYTES = (A_TILE + B_TILE) * 2;
static_assert(BK == 32 || BK == 64, "BK");
static_assert((A_TILE * 2) % 1024 == 0, "stage alignment");

#if MOCK_F16
typedef __half elem_t;
__device__ __forceinline__ float toFloat(uint16_t h) { return __half2float(__ushort_as_half(h)); }
__device__ __forceinline__ elem_t fromFloat(float f) { return __float2half_rn(f); }
#else
typedef __nv_bfloat16 elem_t;
__device__ __forceinline__ float toFloat(uint16_t h) { return __uint_as_float(uint32_t(h) << 16); }
__device__ __forceinline__ elem_t fromFloat(float f) { return __float2bfloat16_rn(f); }
#endif

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarInit(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddr(bar)), "r"(count) : "memory");
}

__device__ __forceinline__ void mbarArriveExpectTx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smemAddr(bar)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarWait(uint64_t *bar, uint32_t parity) {
  uint32_t done = 0;
  do {
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(smemAddr(bar)), "r"(parity)
                 : "memory");
  } while (!done);
}

// 2-D tiled TMA load; c0 is the innermost coordinate.
__device__ __forceinline__ void tmaLoad2d(void *dst, const CUtensorMap *map, int c0, int c1, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
               " [%0], [%1, {%2, %3}], [%4];" ::"r"(smemAddr(dst)),
               "l"(reinterpret_cast<uint64_t>(map)), "r"(c0), "r"(c1), "r"(smemAddr(bar))
               : "memory");
}

// Element kk (0..7) of 8 packed 16-bit values.
__device__ __forceinline__ float unpack(const uint4 &v, int kk) {
  uint32_t w = kk < 2 ? v.x : kk < 4 ? v.y : kk < 6 ? v.z : v.w;
  return toFloat(static_cast<uint16_t>((kk & 1) ? (w >> 16) : (w & 0xffffu)));
}

} // namespace

extern "C" __global__ void __launch_bounds__(256, 1)
MOCK_KERNEL(const __grid_constant__ CUtensorMap tmap_a, const __grid_constant__ CUtensorMap tmap_b,
            elem_t *__restrict__ c, int m, int n, int k, int ldc
#if MOCK_ALPHA
            , float alpha
#endif
) {
#if !MOCK_ALPHA
  const float alpha = 1.0f;
#endif
  extern __shared__ uint8_t smemRaw[];
  __shared__ __align__(8) uint64_t bars[2];
  // TMA destinations: align the stage buffers to 1024 bytes (the manifest asks
  // for 1024 bytes of slack).
  const uint32_t rawAddr = smemAddr(smemRaw);
  uint16_t *smem = reinterpret_cast<uint16_t *>(smemRaw + (((rawAddr + 1023u) & ~1023u) - rawAddr));

  const int tid = threadIdx.x;
  if (tid == 0) {
    mbarInit(&bars[0], 1);
    mbarInit(&bars[1], 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();

  const int tilesM = (m + BM - 1) / BM, tilesN = (n + BN - 1) / BN;
  const int tiles = tilesM * tilesN;
  const int nk = (k + BK - 1) / BK;
  const int tx = tid % 16, ty = tid / 16;
  uint32_t it = 0; // k-iterations done by this CTA, across tiles: drives stage and parity

  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
#if MOCK_RASTER_N
    const int tn = t % tilesN, tm = t / tilesN;
#else
    const int tm = t % tilesM, tn = t / tilesM;
#endif
    const int m0 = tm * BM, n0 = tn * BN;

    auto issue = [&](uint32_t j, int kt) {
      uint16_t *sa = smem + (j & 1) * (A_TILE + B_TILE);
      uint16_t *sb = sa + A_TILE;
      uint64_t *bar = &bars[j & 1];
      // The buffer was last read by generic loads; order them before the
      // async-proxy writes.
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      mbarArriveExpectTx(bar, STAGE_BYTES); // OOB-filled elements count too
#if MOCK_A_COL
      tmaLoad2d(sa, &tmap_a, m0, kt * BK, bar);
#else
      tmaLoad2d(sa, &tmap_a, kt * BK, m0, bar);
#endif
#if MOCK_B_ROW
      tmaLoad2d(sb, &tmap_b, n0, kt * BK, bar);
#else
      tmaLoad2d(sb, &tmap_b, kt * BK, n0, bar);
#endif
    };

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j)
        acc[i][j] = 0.f;

    for (int kt = 0; kt < nk; ++kt, ++it) {
      if (tid == 0) {
        if (kt == 0)
          issue(it, kt);
        if (kt + 1 < nk)
          issue(it + 1, kt + 1); // its stage was freed by the last __syncthreads
      }
      mbarWait(&bars[it & 1], (it >> 1) & 1);
      const uint16_t *sa = smem + (it & 1) * (A_TILE + B_TILE);
      const uint16_t *sb = sa + A_TILE;

#pragma unroll 1
      for (int q = 0; q < KCHUNKS; ++q) {
        // Threads walk the K chunks in rotated order so that a warp's
        // 16-byte loads spread over the banks.
        const int kc = ((q + tx) & (KCHUNKS - 1)) * 8;
        uint4 ap[8], bp[8];
#if !MOCK_A_COL
#pragma unroll
        for (int i = 0; i < 8; ++i)
          ap[i] = *reinterpret_cast<const uint4 *>(sa + (ty + 16 * i) * BK + kc);
#endif
#if !MOCK_B_ROW
#pragma unroll
        for (int j = 0; j < 8; ++j)
          bp[j] = *reinterpret_cast<const uint4 *>(sb + (tx + 16 * j) * BK + kc);
#endif
#pragma unroll
        for (int kk = 0; kk < 8; ++kk) {
          float av[8], bv[8];
#pragma unroll
          for (int i = 0; i < 8; ++i) {
#if MOCK_A_COL
            av[i] = toFloat(sa[(kc + kk) * BM + ty + 16 * i]);
#else
            av[i] = unpack(ap[i], kk);
#endif
          }
#pragma unroll
          for (int j = 0; j < 8; ++j) {
#if MOCK_B_ROW
            bv[j] = toFloat(sb[(kc + kk) * BN + tx + 16 * j]);
#else
            bv[j] = unpack(bp[j], kk);
#endif
          }
#pragma unroll
          for (int i = 0; i < 8; ++i)
#pragma unroll
            for (int j = 0; j < 8; ++j)
              acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
        }
      }
      __syncthreads(); // everyone is done with this stage
    }

    // Epilogue: clip to M x N; rows are ldc elements apart.
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int row = m0 + ty + 16 * i;
      if (row < m) {
#pragma unroll
        for (int j = 0; j < 8; ++j) {
          const int col = n0 + tx + 16 * j;
          if (col < n)
            c[static_cast<size_t>(row) * ldc + col] = fromFloat(alpha * acc[i][j]);
        }
      }
    }
  }
}
