// The smallest kernel with the sm_80 lowering's shared-memory and tensor
// instructions, to find which one makes compute-sanitizer's racecheck stop
// with "Internal Sanitizer Error: The Sanitizer failed to handle a hardware
// exception" (issue 12; every 16-bit gemmc sm_80 kernel does at 64x64x64,
// the tf32 ones run clean: bench/RESULTS.md, sessions 5-9). Session 9: this
// kernel runs clean in every variant; the tool's error comes from cuBLAS's
// 16-bit reference GEMM that gemmc-gpu-tests runs after gemmc's kernel
// (gemmc-gpu-tests --no-reference leaves it out).
//
//   sm80-racecheck-repro VARIANT [M N K]     (default 64 64 64)
//   compute-sanitizer --tool racecheck sm80-racecheck-repro VARIANT
//
// The kernel is gemmc's sm80_bf16_tn_64x128_padded written by hand: a
// 64 x 128 x 32 tile, 128 threads (2 x 2 warps of 32 x 64), 4 stages of
// padded shared tiles (rows of 4 16-byte units, pitch 80 bytes), each
// thread cp.async.cg's 16-byte units with the src-size operand (zero-fill
// at M, N and K), wait_group(stages - 2) + bar.sync, ldmatrix.x4 of A and B,
// mma.sync m16n8k16 bf16 into f32; then the accumulators to global f32 C.
// VARIANT is a list of letters, each taking one instruction out or swapping
// it (the base is "-"):
//   c  fills by ld.global.v4 + st.shared.v4 (no cp.async, no zero-fill)
//   z  cp.async without the src-size operand (every copy 16 bytes, rows and
//      columns clamped into the matrix: wrong values at the edges)
//   l  fragments by ld.shared.b32 (no ldmatrix)
//   t  B's fragments by ldmatrix.x4.trans (of the same K-major tile: wrong
//      values, the same addresses)
//   n  no mma.sync (the fragments xor-ed into the accumulators)
//   f  mma.sync f16 (operands read as f16)
//   k  mma.sync m16n8k8 bf16, twice per k step (as gemmc's k8- experiment)
//   x  mma.sync m16n8k8 tf32 (operands read as tf32: wrong values)
//   s  the accumulators staged through shared memory (st.shared.v2,
//      bar.sync, ld.shared.v4) before the global stores
//   e  gemmc's staged epilogue: each warp writes 16-row chunks of its
//      fragments (st.shared.v2.f32, rows 272 bytes apart), bar.warp.sync,
//      reads back 16-byte units (ld.volatile.shared.v4.f32, two a unit of 8
//      values), converts them to bf16 and stores each unit with one
//      st.global.v4.b32 into a bf16 C (rows past M, units past N skipped;
//      bar.warp.sync before the next chunk's writes)
//   1  one warp (32 threads), the tile 32 x 64
// The result is checked against a host reference where the variant computes
// the product (not t, z at an edge, n, f, x); prints "VARIANT MxNxK: ok",
// "wrong (max error E)" or "unchecked", and exits 1 on a CUDA error.
//
// Built on the CPU machine: nvcc -O3 -gencode arch=compute_80,code=compute_80
// (PTX only, JIT-compiled on the H200 like gemmc's fatbinaries) and
// -arch=sm_90 (no JIT): scripts/gpu_sm80h.sh's header.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int kBlockK = 32, kStages = 4, kUnits = kBlockK * 2 / 16;  // 4 units a row
constexpr int kPitch = (kUnits + 1) * 16;                             // padded: 80 bytes

struct Variant {
  bool plainFill = false, noZfill = false, scalarFrag = false, trans = false, noMma = false,
       f16 = false, k8 = false, tf32 = false, staged = false, gemmcEpilogue = false,
       oneWarp = false;
  __host__ __device__ int warps() const { return oneWarp ? 1 : 4; }
  __host__ __device__ int blockM() const { return oneWarp ? 32 : 64; }
  __host__ __device__ int blockN() const { return oneWarp ? 64 : 128; }
};

__device__ __forceinline__ uint32_t smemAddr(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

// One stage: A rows of M, then B rows of N, each kUnits units at kPitch.
__device__ __forceinline__ void fill(const Variant &v, char *stage, const __nv_bfloat16 *A,
                     const __nv_bfloat16 *B, int M, int N, int K, int m0, int n0, int kt) {
  int rowsA = v.blockM(), rows = v.blockM() + v.blockN();
  for (int q = threadIdx.x; q < rows * kUnits; q += blockDim.x) {
    int r = q / kUnits, u = q % kUnits;
    bool isA = r < rowsA;
    int row = isA ? m0 + r : n0 + (r - rowsA), limit = isA ? M : N;
    int col = kt * kBlockK + u * 8;
    const __nv_bfloat16 *src = isA ? A : B;
    char *dst = stage + r * kPitch + u * 16;
    bool inside = row < limit && col < K;
    int bytes = inside ? min(16, (K - col) * 2) : 0;
    size_t offset = inside ? size_t(row) * K + col : 0;
    if (v.plainFill) {
      uint4 val = make_uint4(0, 0, 0, 0);
      if (bytes)  // 16: K is a multiple of 8
        val = *reinterpret_cast<const uint4 *>(src + offset);
      asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" ::"r"(smemAddr(dst)), "r"(val.x),
                   "r"(val.y), "r"(val.z), "r"(val.w));
    } else if (v.noZfill) {
      size_t clamped = size_t(min(row, limit - 1)) * K + min(col, max(K - 8, 0));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smemAddr(dst)),
                   "l"(src + clamped));
    } else {
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smemAddr(dst)),
                   "l"(src + offset), "r"(bytes));
    }
  }
  asm volatile("cp.async.commit_group;");
}

__device__ __forceinline__ void ldsm(uint32_t (&r)[4], const char *p, bool trans) {
  if (trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smemAddr(p)));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smemAddr(p)));
}

__device__ __forceinline__ uint32_t lds32(const char *p) {
  uint32_t r;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r) : "r"(smemAddr(p)));
  return r;
}

__device__ __forceinline__ void mma(const Variant &v, float (&d)[4], const uint32_t (&a)[4],
                                    const uint32_t (&b)[2]) {
  if (v.noMma) {
    #pragma unroll
    for (int i = 0; i < 4; ++i)
      d[i] += __uint_as_float((a[i] ^ b[i & 1]) & 0x3f800000u);
  } else if (v.tf32) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0] & 0x3fffffffu), "r"(a[1] & 0x3fffffffu), "r"(a[2] & 0x3fffffffu),
                   "r"(a[3] & 0x3fffffffu), "r"(b[0] & 0x3fffffffu), "r"(b[1] & 0x3fffffffu));
  } else if (v.k8) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5}, {%6}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[2]), "r"(a[3]), "r"(b[1]));
  } else if (v.f16) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0] & 0xbbffbbffu), "r"(a[1] & 0xbbffbbffu), "r"(a[2] & 0xbbffbbffu),
                   "r"(a[3] & 0xbbffbbffu), "r"(b[0] & 0xbbffbbffu), "r"(b[1] & 0xbbffbbffu));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
}

// Each warp: 32 x 64 of the tile, mf = 2 fragments of 16 rows, nf = 8 of 8
// columns; k steps of 16 (two units).
__global__ void __launch_bounds__(128) kernel(Variant v, const __nv_bfloat16 *A,
                                               const __nv_bfloat16 *B, float *C, int M, int N,
                                               int K) {
  extern __shared__ __align__(128) char smem[];
  const int stageBytes = (v.blockM() + v.blockN()) * kPitch;
  int m0 = blockIdx.x * v.blockM(), n0 = blockIdx.y * v.blockN();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int wr = v.oneWarp ? 0 : (warp / 2) * 32, wc = v.oneWarp ? 0 : (warp % 2) * 64;
  int kTiles = (K + kBlockK - 1) / kBlockK;
  float acc[2][8][4] = {};
  for (int st = 0; st + 1 < kStages; ++st)
    fill(v, smem + st * stageBytes, A, B, M, N, K, m0, n0, st < kTiles ? st : 0);
  for (int kt = 0; kt < kTiles; ++kt) {
    if (v.plainFill)
      __syncthreads();
    else
      asm volatile("cp.async.wait_group %0;" ::"n"(kStages - 2));
    __syncthreads();
    int refill = kt + kStages - 1;
    fill(v, smem + (refill % kStages) * stageBytes, A, B, M, N, K, m0, n0,
         refill < kTiles ? refill : 0);
    const char *sa = smem + (kt % kStages) * stageBytes;
    const char *sb = sa + v.blockM() * kPitch;
    #pragma unroll
    for (int kk = 0; kk < kBlockK / 16; ++kk) {
      uint32_t a[2][4], b[8][2];
      int matrix = lane / 8, r = lane % 8;
      #pragma unroll
      for (int mi = 0; mi < 2; ++mi) {
        if (v.scalarFrag) {
          int g = lane / 4, t = lane % 4;
          const char *p = sa + (wr + mi * 16 + g) * kPitch + kk * 32 + t * 4;
          a[mi][0] = lds32(p);
          a[mi][1] = lds32(p + 8 * kPitch);
          a[mi][2] = lds32(p + 16);
          a[mi][3] = lds32(p + 8 * kPitch + 16);
        } else {
          // matrices (rows 0-7, 8-15) x (k bytes 0-15, 16-31)
          ldsm(a[mi], sa + (wr + mi * 16 + r + (matrix % 2) * 8) * kPitch + kk * 32 +
                          (matrix / 2) * 16,
               false);
        }
      }
      #pragma unroll
      for (int np = 0; np < 4; ++np) {
        if (v.scalarFrag) {
          int g = lane / 4, t = lane % 4;
          #pragma unroll
          for (int h = 0; h < 2; ++h) {
            const char *p = sb + (wc + (2 * np + h) * 8 + g) * kPitch + kk * 32 + t * 4;
            b[2 * np + h][0] = lds32(p);
            b[2 * np + h][1] = lds32(p + 16);
          }
        } else {
          // matrices (n 0-7: k bytes 0-15, 16-31), (n 8-15: ...)
          uint32_t q[4];
          ldsm(q, sb + (wc + np * 16 + r + (matrix / 2) * 8) * kPitch + kk * 32 +
                      (matrix % 2) * 16,
               v.trans);
          b[2 * np][0] = q[0], b[2 * np][1] = q[1], b[2 * np + 1][0] = q[2],
                    b[2 * np + 1][1] = q[3];
        }
      }
      #pragma unroll
      for (int mi = 0; mi < 2; ++mi)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni)
          mma(v, acc[mi][ni], a[mi], b[ni]);
    }
  }
  asm volatile("cp.async.wait_group 0;");
  __syncthreads();
  if (v.gemmcEpilogue) {
    // As gemmc's storeMmaSyncStaged for a 32 x 64 warp tile of a bf16 C:
    // chunks of 16 rows, pitch 64 x 4 + 16 bytes; a row is 8 units of 8
    // values, so a chunk is 128 units, 4 rounds of the warp's lanes.
    constexpr int kPitchBytes = 64 * 4 + 16, kChunkRows = 16;
    char *area = smem + warp * kChunkRows * kPitchBytes;
    int g = lane / 4, t = lane % 4;
    __nv_bfloat16 *Cb = reinterpret_cast<__nv_bfloat16 *>(C);
#pragma unroll
    for (int chunk = 0; chunk < 2; ++chunk) {
      if (chunk > 0)
        asm volatile("bar.warp.sync -1;");
#pragma unroll
      for (int h = 0; h < 2; ++h)
#pragma unroll
        for (int ni = 0; ni < 8; ++ni)
          asm volatile("st.shared.v2.f32 [%0], {%1,%2};" ::"r"(
                           smemAddr(area + (h * 8 + g) * kPitchBytes + ni * 32 + t * 8)),
                       "f"(acc[chunk][ni][2 * h]), "f"(acc[chunk][ni][2 * h + 1]));
      asm volatile("bar.warp.sync -1;");
      float x[4][8];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int rr = lane / 8 + 4 * i, unit = lane % 8;
        const char *from = area + rr * kPitchBytes + unit * 32;
        asm volatile("ld.volatile.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(x[i][0]), "=f"(x[i][1]), "=f"(x[i][2]), "=f"(x[i][3])
                     : "r"(smemAddr(from)));
        asm volatile("ld.volatile.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                     : "=f"(x[i][4]), "=f"(x[i][5]), "=f"(x[i][6]), "=f"(x[i][7])
                     : "r"(smemAddr(from + 16)));
      }
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        int row = m0 + wr + chunk * kChunkRows + lane / 8 + 4 * i;
        int col = n0 + wc + (lane % 8) * 8;
        if (row >= M)
          continue;
        if (col + 8 <= N && N % 8 == 0) {  // 16-byte aligned rows
          uint32_t w[4];
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            __nv_bfloat162 pr = __floats2bfloat162_rn(x[i][2 * e], x[i][2 * e + 1]);
            w[e] = *reinterpret_cast<uint32_t *>(&pr);
          }
          asm volatile("st.global.v4.b32 [%0], {%1,%2,%3,%4};" ::"l"(Cb + size_t(row) * N + col),
                       "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]));
        } else {
#pragma unroll
          for (int e = 0; e < 8; ++e)
            if (col + e < N)
              Cb[size_t(row) * N + col + e] = __float2bfloat16_rn(x[i][e]);
        }
      }
    }
    return;
  }
  // Fragment (mi, ni): c0, c1 at (g, 2t), (g, 2t + 1); c2, c3 at row g + 8.
  int g = lane / 4, t = lane % 4;
  float *stage = reinterpret_cast<float *>(smem) + warp * 32 * 64;  // 8 KiB a warp
  #pragma unroll
  for (int mi = 0; mi < 2; ++mi)
#pragma unroll
    for (int ni = 0; ni < 8; ++ni)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        int rr = mi * 16 + g + 8 * h, cc = ni * 8 + 2 * t;
        if (v.staged) {
          asm volatile("st.shared.v2.f32 [%0], {%1,%2};" ::"r"(smemAddr(stage + rr * 64 + cc)),
                       "f"(acc[mi][ni][2 * h]), "f"(acc[mi][ni][2 * h + 1]));
        } else {
          int row = m0 + wr + rr, col = n0 + wc + cc;
          if (row < M && col < N)
            C[size_t(row) * N + col] = acc[mi][ni][2 * h];
          if (row < M && col + 1 < N)
            C[size_t(row) * N + col + 1] = acc[mi][ni][2 * h + 1];
        }
      }
  if (v.staged) {
    __syncthreads();
    for (int q = lane; q < 32 * 16; q += 32) {
      int rr = q / 16, cc = (q % 16) * 4;
      float4 val;
      asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                   : "=f"(val.x), "=f"(val.y), "=f"(val.z), "=f"(val.w)
                   : "r"(smemAddr(stage + rr * 64 + cc)));
      int row = m0 + wr + rr, col = n0 + wc + cc;
      if (row < M && col < N) C[size_t(row) * N + col] = val.x;
      if (row < M && col + 1 < N) C[size_t(row) * N + col + 1] = val.y;
      if (row < M && col + 2 < N) C[size_t(row) * N + col + 2] = val.z;
      if (row < M && col + 3 < N) C[size_t(row) * N + col + 3] = val.w;
    }
  }
}

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e = (x);                                                                \
    if (e != cudaSuccess) {                                                             \
      std::printf("%s %dx%dx%d: CUDA error at %s: %s\n", name, M, N, K, #x,            \
                  cudaGetErrorString(e));                                               \
      return 1;                                                                         \
    }                                                                                   \
  } while (0)

}  // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s VARIANT [M N K] (VARIANT: - or letters of czltnfkxse1)\n",
                 argv[0]);
    return 2;
  }
  const char *name = argv[1];
  Variant v;
  for (const char *c = name; *c; ++c) {
    switch (*c) {
    case 'c': v.plainFill = true; break;
    case 'z': v.noZfill = true; break;
    case 'l': v.scalarFrag = true; break;
    case 't': v.trans = true; break;
    case 'n': v.noMma = true; break;
    case 'f': v.f16 = true; break;
    case 'k': v.k8 = true; break;
    case 'x': v.tf32 = true; break;
    case 's': v.staged = true; break;
    case 'e': v.gemmcEpilogue = true; break;
    case '1': v.oneWarp = true; break;
    case '-': break;
    default: std::fprintf(stderr, "unknown variant letter %c\n", *c); return 2;
    }
  }
  int M = argc > 4 ? std::atoi(argv[2]) : 64, N = argc > 4 ? std::atoi(argv[3]) : 64,
      K = argc > 4 ? std::atoi(argv[4]) : 64;
  if (K % 8) {
    std::fprintf(stderr, "K must be a multiple of 8 (16-byte rows)\n");
    return 2;
  }
  std::vector<__nv_bfloat16> a(size_t(M) * K), b(size_t(N) * K);
  std::vector<float> af(a.size()), bf(b.size());
  unsigned seed = 1;
  auto rnd = [&] {
    seed = seed * 1664525u + 1013904223u;
    return float(int(seed >> 28) - 8) / 8.0f;  // exact in bf16
  };
  for (size_t i = 0; i < a.size(); ++i) a[i] = __float2bfloat16(af[i] = rnd());
  for (size_t i = 0; i < b.size(); ++i) b[i] = __float2bfloat16(bf[i] = rnd());
  __nv_bfloat16 *dA, *dB;
  float *dC;
  CHECK(cudaMalloc(&dA, a.size() * 2));
  CHECK(cudaMalloc(&dB, b.size() * 2));
  CHECK(cudaMalloc(&dC, size_t(M) * N * 4));
  CHECK(cudaMemcpy(dA, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dC, 0, size_t(M) * N * 4));
  int smem = kStages * (v.blockM() + v.blockN()) * kPitch;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  dim3 grid((M + v.blockM() - 1) / v.blockM(), (N + v.blockN() - 1) / v.blockN());
  kernel<<<grid, 32 * v.warps(), smem>>>(v, dA, dB, dC, M, N, K);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> c(size_t(M) * N);
  CHECK(cudaMemcpy(c.data(), dC, c.size() * 4, cudaMemcpyDeviceToHost));
  bool edges = M % v.blockM() || N % v.blockN() || K % kBlockK;
  bool computes = !v.trans && !v.noMma && !v.f16 && !v.tf32 && !(v.noZfill && edges);
  if (!computes) {
    std::printf("%s %dx%dx%d: unchecked\n", name, M, N, K);
    return 0;
  }
  // e: C holds bf16 values (the first half of the buffer), within bf16's
  // rounding (2^-8 relative).
  const __nv_bfloat16 *cb = reinterpret_cast<const __nv_bfloat16 *>(c.data());
  double worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += double(af[size_t(i) * K + k]) * bf[size_t(j) * K + k];
      double got = v.gemmcEpilogue ? double(__bfloat162float(cb[size_t(i) * N + j]))
                                   : double(c[size_t(i) * N + j]);
      double err = std::fabs(ref - got) - (v.gemmcEpilogue ? std::fabs(ref) / 256 : 0);
      worst = std::fmax(worst, err);
    }
  if (worst > 1e-3)
    std::printf("%s %dx%dx%d: wrong (max error %g)\n", name, M, N, K, worst);
  else
    std::printf("%s %dx%dx%d: ok\n", name, M, N, K);
  return 0;
}
