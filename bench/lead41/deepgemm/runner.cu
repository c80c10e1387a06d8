// deepgemm_bs: standalone timing + correctness runner for DeepGEMM's Hopper
// block-scaled FP8 GEMM (deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh), DeepSeek-V3
// scaling:
//   A   e4m3 [M, K] K-major, SFA f32: one scale per row per 128 of K
//   B   e4m3 [N, K] K-major, SFB f32: one scale per 128x128 block of B
//   D   bf16 [M, N] row-major,  D = sum_kb SFA[m,kb] * SFB[n/128,kb] * (A[m,kb*128:] . B[n,kb*128:])
//
// Host side (layouts, TMA descriptors, smem size, cluster launch) reproduces
// DeepGEMM's csrc/jit_kernels/impls/{sm90_fp8_gemm_1d2d,runtime_utils}.hpp and
// heuristics/sm90.hpp; see README.md. The kernel instantiations live in
// instance.cu objects (one per config) that register themselves in dgb::registry().
//
// Usage: deepgemm_bs M N K [--iters 20] [--warmup 2] [--config NAME[,NAME...]]
//                          [--json FILE] [--pdl] [--flush-l2] [--tol 2e-2]
//                          [--seed S] [--list] [--verbose]
// Own code.

#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "dg_bench.h"

#ifndef DGB_DEEPGEMM_COMMIT
#define DGB_DEEPGEMM_COMMIT "unknown"
#endif
#ifndef DGB_CUTLASS_COMMIT
#define DGB_CUTLASS_COMMIT "unknown"
#endif

namespace dgb {
std::vector<Config>& registry() {
    static std::vector<Config> r;
    return r;
}
}  // namespace dgb

// ---------------------------------------------------------------------------
// Error handling
// ---------------------------------------------------------------------------
#define CUDA_CHECK(expr)                                                                   \
    do {                                                                                   \
        cudaError_t err_ = (expr);                                                         \
        if (err_ != cudaSuccess) {                                                         \
            fprintf(stderr, "CUDA error %s (%s) at %s:%d: %s\n", cudaGetErrorName(err_),   \
                    cudaGetErrorString(err_), __FILE__, __LINE__, #expr);                  \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

__host__ __device__ static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }
static int align_up(int a, int b) { return ceil_div(a, b) * b; }

// DeepGEMM SM90ArchSpec::smem_capacity
static constexpr int kSmemCapacity = 232448;

// ---------------------------------------------------------------------------
// Host-side replicas of DeepGEMM's layout / smem rules
// ---------------------------------------------------------------------------
// SM90ArchSpec::get_pipeline_config(): smem_cd + barriers + extra SFB + stages * per-stage
static int smem_bytes(const dgb::Config& c, int k) {
    const int smem_cd = align_up(c.block_m * c.block_n * 2, 1024);
    const int smem_barriers = 16 * 8 * 2;  // kNumMaxStages * 8 * 2
    const int smem_a = c.block_m * c.block_k;
    const int smem_b = c.block_n * c.block_k;
    const int smem_sfa = align_up(c.block_m * 4, 128);
    const int use_uniform_sfb = (c.block_k % c.block_n == 0) ? 1 : 2;
    const int smem_extra_sfb = align_up(ceil_div(k, c.block_k) * 4 * use_uniform_sfb, 8);
    return smem_cd + smem_barriers + smem_extra_sfb + c.stages * (smem_a + smem_b + smem_sfa);
}

// get_tma_aligned_size(m, sizeof(float)): SFA's MN stride is M rounded up to 16 bytes
static int sfa_ld(int m) { return align_up(m, 16 / 4); }

// Does config c apply to shape (m, n, k)? Returns "" if yes, else the reason.
static std::string fits(const dgb::Config& c, int m, int n, int k) {
    if (c.shape_n != 0 && c.shape_n != n) return "compiled for N=" + std::to_string(c.shape_n);
    if (c.shape_k != 0 && c.shape_k != k) return "compiled for K=" + std::to_string(c.shape_k);
    if (m < 1 || n < 1 || k < 1) return "empty shape";
    if (n % 8 != 0) return "N must be a multiple of 8 (kernel assert)";
    if (k % 16 != 0) return "K must be a multiple of 16 (TMA stride alignment)";
    if (smem_bytes(c, k) > kSmemCapacity) return "shared memory " + std::to_string(smem_bytes(c, k)) + " > capacity";
    return "";
}

// ---------------------------------------------------------------------------
// Replica of DeepGEMM's config choice for this kernel: get_best_config<SM90ArchSpec>
// (heuristics/common.hpp + sm90.hpp) for GemmType::Normal, KernelType::Kernel1D2D,
// e4m3 A/B (K-major), bf16 D, no accumulation, block_n_multiple_of 1.
// ---------------------------------------------------------------------------
struct HeurLayout {
    int block_m = 0, block_n = 0, block_k = 128, cluster_m = 1, cluster_n = 1;
    int stages = 0, smem = 0, num_waves = 0;
    long long num_cycles = 0;
};

static int heur_swizzle(int inner_bytes) {  // get_swizzle_mode
    for (int mode : {128, 64, 32, 16})
        if (inner_bytes % mode == 0) return mode;
    return 0;
}

static void heur_pipeline(HeurLayout& l, int k) {  // get_pipeline_config
    const int smem_cd = align_up(l.block_m * l.block_n * 2, 1024);
    const int smem_barriers = 16 * 8 * 2;
    const int per_stage = l.block_m * l.block_k + l.block_n * l.block_k + align_up(l.block_m * 4, 128);
    const int use_uniform_sfb = l.block_k % l.block_n == 0 ? 1 : 2;
    const int smem_extra = smem_cd + smem_barriers + align_up(ceil_div(k, l.block_k) * 4 * use_uniform_sfb, 8);
    l.stages = std::min((kSmemCapacity - smem_extra) / per_stage, 16);
    l.smem = smem_extra + l.stages * per_stage;
}

static void heur_info(HeurLayout& l, int m, int n, int k, int num_sms) {  // get_layout_info
    const long long num_blocks = (long long)ceil_div(m, l.block_m) * ceil_div(n, l.block_n);
    const int num_waves = (int)((num_blocks + num_sms - 1) / num_sms);
    const int l2_bw = static_cast<int>(std::min(64. * num_sms, 8e6 / (1.3e3)));
    const int l1_bw = 128 * num_sms;
    const long long ek = k;
    const long long l2_ab = ek * (l.block_m / l.cluster_n + l.block_n / l.cluster_m);
    const long long l1_ab = ek * (l.block_m + l.block_n);
    const long long l1_tc = ek * (std::max(64, l.block_m) + l.block_n) + (long long)l.block_m * l.block_n * 2;
    const long long l1_l2_cd = (long long)l.block_m * l.block_n * 2;
    const long long l2_cycles = (l2_ab + l1_l2_cd) * num_blocks / l2_bw;
    const long long l1_cycles = (l1_ab + l1_tc + l1_l2_cd) * num_blocks / l1_bw;
    const float wave_eff = static_cast<float>(num_blocks) / (num_waves * num_sms);
    long long cycles = static_cast<long long>(std::max(l1_cycles, l2_cycles) / wave_eff);
    if (l.cluster_m * l.cluster_n > 1 && num_waves <= 1) cycles = std::numeric_limits<long long>::max();
    l.num_waves = num_waves;
    l.num_cycles = cycles;
}

static std::vector<HeurLayout> heur_candidates(int m, int n, int k, int num_sms) {  // get_layout_candidates
    std::vector<int> bms = {64, 128};
    if (m <= 16) bms.push_back(16);
    if (m <= 32) bms.push_back(32);
    bms.push_back(256);  // bf16 D
    std::vector<int> bns;
    for (int i = 16; i <= 192; i += 16) bns.push_back(i);  // 1D2D: end = 192
    std::vector<HeurLayout> out;
    for (int cm = 1; cm <= 2; ++cm)
        for (int cn = 1; cn <= 2; ++cn) {
            if (cm * cn > 2 || num_sms % (cm * cn) != 0) continue;
            for (int bm : bms)
                for (int bn : bns) {
                    const int bk = 128;
                    if (bn > bk && (bn % (bn - bk) != 0 && bk % (bn - bk) != 0)) continue;
                    if (bm > 128 && bn > 128) continue;
                    if (heur_swizzle(bk) % 64 != 0) continue;
                    HeurLayout l;
                    l.block_m = bm; l.block_n = bn; l.cluster_m = cm; l.cluster_n = cn;
                    heur_pipeline(l, k);
                    if (l.stages < 3 || (bm * bn < 128 * 192 && l.stages < 4)) continue;
                    heur_info(l, m, n, k, num_sms);
                    out.push_back(l);
                }
        }
    return out;
}

static HeurLayout heur_best(int m, int n, int k, int num_sms) {
    auto c = heur_candidates(m, n, k, num_sms);
    HeurLayout best = c.at(0);
    for (size_t i = 1; i < c.size(); ++i)
        if (c[i].num_cycles < best.num_cycles) best = c[i];
    return best;
}

static bool is_layout(const dgb::Config& c, const HeurLayout& l) {
    // cluster_n > 1 -> multicast on A (generate_impl: kIsTMAMulticastOnA = cluster_n > 1)
    return c.block_m == l.block_m && c.block_n == l.block_n && c.stages == l.stages &&
           c.cluster == l.cluster_m * l.cluster_n && (c.cluster == 1 || (c.mc_on_a != 0) == (l.cluster_n > 1));
}

static void print_heuristic(int m, int n, int k, int num_sms, int top) {
    auto c = heur_candidates(m, n, k, num_sms);
    std::stable_sort(c.begin(), c.end(), [](const HeurLayout& a, const HeurLayout& b) {
        return a.num_cycles < b.num_cycles;
    });
    printf("DeepGEMM sm90 heuristic (replica) for %dx%dx%d on %d SMs, best first:\n", m, n, k, num_sms);
    for (int i = 0; i < top && i < (int)c.size(); ++i) {
        const auto& l = c[i];
        printf("  %s %dx%dx%d cluster_m %d cluster_n %d (multicast %s) stages %d smem %d waves %d cycles %lld\n",
               i == 0 ? "*" : " ", l.block_m, l.block_n, l.block_k, l.cluster_m, l.cluster_n,
               l.cluster_m * l.cluster_n == 1 ? "off" : (l.cluster_n > 1 ? "A" : "B"), l.stages, l.smem,
               l.num_waves, l.num_cycles);
    }
}

// ---------------------------------------------------------------------------
// TMA descriptors (runtime_utils.hpp: make_tma_2d_desc and its a/b/cd/sf users)
// ---------------------------------------------------------------------------
static PFN_cuTensorMapEncodeTiled_v12000 g_encode = nullptr;

static void load_driver_entry_points() {
    cudaDriverEntryPointQueryResult q;
    void* fn = nullptr;
    CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || fn == nullptr) {
        fprintf(stderr, "error: cuTensorMapEncodeTiled not available from the driver\n");
        exit(1);
    }
    g_encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
}

struct TmaPlan {
    const char* what;
    CUtensorMapDataType dtype;
    int elem_size;
    void* ptr;
    uint64_t gdim[2];      // inner, outer (elements)
    uint64_t gstride_b;    // outer stride in bytes
    uint32_t box[2];       // inner, outer (elements)
    int swizzle;           // bytes (0 = none)
};

static CUtensorMapSwizzle to_swizzle(int mode) {
    switch (mode) {
        case 0:
        case 16: return CU_TENSOR_MAP_SWIZZLE_NONE;
        case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
        case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
        case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
        default: fprintf(stderr, "bad swizzle %d\n", mode); exit(1);
    }
}

// make_tma_2d_desc(): when swizzled, the inner box is one swizzle atom (swizzle / elem_size)
static TmaPlan plan_2d(const char* what, CUtensorMapDataType dtype, int elem_size, void* ptr,
                       int gmem_inner, int gmem_outer, int smem_inner, int smem_outer,
                       int gmem_outer_stride_elems, int swizzle) {
    if (swizzle != 0) smem_inner = swizzle / elem_size;
    TmaPlan p;
    p.what = what;
    p.dtype = dtype;
    p.elem_size = elem_size;
    p.ptr = ptr;
    p.gdim[0] = static_cast<uint64_t>(gmem_inner);
    p.gdim[1] = static_cast<uint64_t>(gmem_outer);
    p.gstride_b = static_cast<uint64_t>(gmem_outer_stride_elems) * elem_size;
    p.box[0] = static_cast<uint32_t>(smem_inner);
    p.box[1] = static_cast<uint32_t>(smem_outer);
    p.swizzle = swizzle;
    return p;
}

struct Plans { TmaPlan a, b, d, sfa; };

static Plans make_plans(const dgb::Config& c, int m, int n, int k, void* a, void* b, void* d, void* sfa) {
    Plans p;
    // make_tma_a_desc(K-major): gmem {K, M}, smem {block_k, load_block_m}, stride K
    p.a = plan_2d("A", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, a, k, m, c.block_k, c.block_m, k, c.swizzle_a);
    // make_tma_b_desc(K-major): gmem {K, N}, smem {block_k, load_block_n}, stride K
    p.b = plan_2d("B", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, b, k, n, c.block_k, c.block_n, k, c.swizzle_b);
    // make_tma_cd_desc: gmem {N, M}, smem {store_block_n, store_block_m}, stride N (row-major D)
    p.d = plan_2d("D", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, d, n, m, c.block_n, c.block_m, n, c.swizzle_d);
    // make_tma_sf_desc(MN-major, gran_k 128): gmem {align(M,4), ceil(K/128)}, smem {block_m, 1},
    // stride align(M,4), no swizzle
    p.sfa = plan_2d("SFA", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, sfa, sfa_ld(m), ceil_div(k, c.block_k),
                    c.block_m, 1, sfa_ld(m), 0);
    return p;
}

static void print_plan(const TmaPlan& p) {
    printf("    tmap %-3s gmem {%llu, %llu} stride %llu B, box {%u, %u}, elem %d B, swizzle %d\n", p.what,
           (unsigned long long)p.gdim[0], (unsigned long long)p.gdim[1], (unsigned long long)p.gstride_b,
           p.box[0], p.box[1], p.elem_size, p.swizzle);
}

static CUtensorMap encode(const TmaPlan& p) {
    CUtensorMap map;
    memset(&map, 0, sizeof(map));
    const cuuint64_t gdim[2] = {p.gdim[0], p.gdim[1]};
    const cuuint64_t gstride[1] = {p.gstride_b};
    const cuuint32_t box[2] = {p.box[0], p.box[1]};
    const cuuint32_t estride[2] = {1, 1};
    CUresult r = g_encode(&map, p.dtype, 2, p.ptr, gdim, gstride, box, estride, CU_TENSOR_MAP_INTERLEAVE_NONE,
                          to_swizzle(p.swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                          CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled failed for %s (CUresult %d)\n", p.what, static_cast<int>(r));
        print_plan(p);
        exit(1);
    }
    return map;
}

// ---------------------------------------------------------------------------
// Device helpers: data generation, reference GEMM, comparison
// ---------------------------------------------------------------------------
__device__ __forceinline__ uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}
__device__ __forceinline__ float u01(uint64_t h) {  // (0, 1]
    return (static_cast<float>(h >> 40) + 1.0f) * (1.0f / 16777216.0f);
}

// e4m3 values ~ N(0, 160^2) saturated to +-448: like DeepSeek's per-128 cast
// (group amax -> 448), so the whole e4m3 exponent range is used.
__global__ void gen_fp8_kernel(uint8_t* p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const uint64_t h1 = splitmix64(seed ^ (2 * i));
        const uint64_t h2 = splitmix64(seed ^ (2 * i + 1) ^ 0x5555555555555555ull);
        const float r = sqrtf(-2.0f * logf(u01(h1)));
        const float z = r * cospif(2.0f * u01(h2));
        p[i] = __nv_cvt_float_to_fp8(z * 160.0f, __NV_SATFINITE, __NV_E4M3);
    }
}

// scales 2^uniform(-3, 3)
__global__ void gen_scale_kernel(float* p, size_t n, uint64_t seed) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = exp2f(6.0f * u01(splitmix64(seed ^ i)) - 3.0f);
}

__device__ __forceinline__ float fp8_to_float(uint8_t v) {
    __nv_fp8_e4m3 x;
    x.__x = v;
    return static_cast<float>(x);
}

// Reference: f32 accumulation inside each 128-wide K block, then scaled by
// SFA[m, kb] (stored MN-major with leading dim lda_sf) * SFB[n/128, kb] (K-major).
constexpr int RT_M = 64, RT_N = 64, RT_K = 32;
__global__ void __launch_bounds__(256) ref_gemm_kernel(const uint8_t* __restrict__ A, const uint8_t* __restrict__ B,
                                                       const float* __restrict__ sfa, const float* __restrict__ sfb,
                                                       float* __restrict__ ref, int M, int N, int K, int lda_sf) {
    __shared__ float As[RT_K][RT_M + 4];
    __shared__ float Bs[RT_K][RT_N + 4];
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const int m0 = blockIdx.y * RT_M, n0 = blockIdx.x * RT_N;
    const int kb_count = ceil_div(K, 128);
    const int n_sf = n0 / 128;  // RT_N divides 128: the whole tile shares one SFB row
    float total[4][4] = {};
    for (int kb = 0; kb < kb_count; ++kb) {
        float acc[4][4] = {};
        for (int kc = 0; kc < 128; kc += RT_K) {
            const int k0 = kb * 128 + kc;
            if (k0 >= K) break;
            // load 64x32 of A and of B: 256 threads x 8 elements each
            {
                const int row = threadIdx.x / 4, kseg = (threadIdx.x % 4) * 8;
                #pragma unroll
                for (int e = 0; e < 8; ++e) {
                    const int kk = k0 + kseg + e;
                    const int gm = m0 + row, gn = n0 + row;
                    As[kseg + e][row] = (gm < M && kk < K) ? fp8_to_float(A[(size_t)gm * K + kk]) : 0.0f;
                    Bs[kseg + e][row] = (gn < N && kk < K) ? fp8_to_float(B[(size_t)gn * K + kk]) : 0.0f;
                }
            }
            __syncthreads();
            #pragma unroll 8
            for (int kk = 0; kk < RT_K; ++kk) {
                float a[4], b[4];
                #pragma unroll
                for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
                #pragma unroll
                for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
                #pragma unroll
                for (int i = 0; i < 4; ++i)
                    #pragma unroll
                    for (int j = 0; j < 4; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
            }
            __syncthreads();
        }
        const float sb = (n0 < N) ? sfb[(size_t)n_sf * kb_count + kb] : 0.0f;
        #pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int gm = m0 + ty + 16 * i;
            const float sa = (gm < M) ? sfa[(size_t)kb * lda_sf + gm] : 0.0f;
            #pragma unroll
            for (int j = 0; j < 4; ++j) total[i][j] = fmaf(acc[i][j], sa * sb, total[i][j]);
        }
    }
    #pragma unroll
    for (int i = 0; i < 4; ++i)
        #pragma unroll
        for (int j = 0; j < 4; ++j) {
            const int gm = m0 + ty + 16 * i, gn = n0 + tx + 16 * j;
            if (gm < M && gn < N) ref[(size_t)gm * N + gn] = total[i][j];
        }
}

struct CheckStats {
    double sum_ref2, sum_d2, sum_dref;
    unsigned long long nonfinite, bad;
    unsigned int max_rel_bits, max_abs_bits, max_rel_strict_bits;
    unsigned long long worst;  // (rel bits << 32) | index (index < 2^32)
};

__device__ __forceinline__ double block_sum(double v, double* sh) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    __syncthreads();
    if (l == 0) sh[w] = v;
    __syncthreads();
    double s = 0;
    if (threadIdx.x == 0)
        for (int i = 0; i < (int)(blockDim.x / 32); ++i) s += sh[i];
    return s;  // valid in thread 0
}

__global__ void ref_sumsq_kernel(const float* ref, size_t n, CheckStats* st) {
    __shared__ double sh[32];
    double s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += (double)ref[i] * ref[i];
    s = block_sum(s, sh);
    if (threadIdx.x == 0) atomicAdd(&st->sum_ref2, s);
}

__global__ void compare_kernel(const __nv_bfloat16* d, const float* ref, size_t n, float small, float small_strict,
                               float tol, CheckStats* st) {
    __shared__ double sh[32];
    double sd2 = 0, sdr = 0;
    unsigned long long nonfinite = 0, bad = 0;
    float max_rel = 0, max_abs = 0, max_rel_strict = 0;
    unsigned long long worst = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        const float x = __bfloat162float(d[i]);
        const float r = ref[i];
        if (!isfinite(x)) { ++nonfinite; continue; }
        sd2 += (double)x * x;
        sdr += (double)x * r;
        const float err = fabsf(x - r);
        const float rel = err / (fabsf(r) + small);
        const float rel_strict = err / (fabsf(r) + small_strict);
        if (rel > tol) ++bad;
        max_abs = fmaxf(max_abs, err);
        max_rel_strict = fmaxf(max_rel_strict, rel_strict);
        if (rel > max_rel) {
            max_rel = rel;
            worst = ((unsigned long long)__float_as_uint(rel) << 32) | (unsigned long long)(i & 0xffffffffull);
        }
    }
    sd2 = block_sum(sd2, sh);
    if (threadIdx.x == 0) atomicAdd(&st->sum_d2, sd2);
    sdr = block_sum(sdr, sh);
    if (threadIdx.x == 0) atomicAdd(&st->sum_dref, sdr);
    if (nonfinite) atomicAdd(&st->nonfinite, nonfinite);
    if (bad) atomicAdd(&st->bad, bad);
    // non-negative floats order like their bit patterns
    atomicMax(&st->max_rel_bits, __float_as_uint(max_rel));
    atomicMax(&st->max_abs_bits, __float_as_uint(max_abs));
    atomicMax(&st->max_rel_strict_bits, __float_as_uint(max_rel_strict));
    atomicMax(&st->worst, worst);
}

// ---------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------
struct Options {
    int m = 0, n = 0, k = 0;
    int iters = 20, warmup = 2;
    std::vector<std::string> configs;
    std::string json;
    bool pdl = false, flush_l2 = false, list = false, verbose = false;
    int heur_top = 0;         // --heuristic T: print the top T candidates
    int heur_sms = 132;       // --sms S: SM count for the heuristic replica
    float tol = 2e-2f;
    float small_frac = 0.25f;  // small = small_frac * rms(ref)
    double max_diff = 1e-3;    // DeepGEMM tests' calc_diff bound for FP8 GEMMs
    uint64_t seed = 0x5eed;
};

static void usage() {
    printf(
        "usage: deepgemm_bs M N K [--iters 20] [--warmup 2] [--config NAME[,NAME...]] [--json FILE]\n"
        "                         [--pdl] [--flush-l2] [--tol 2e-2] [--seed S] [--list] [--verbose]\n"
        "  --config  full name (e.g. 256x128x3xA2:n8192k8192), base name BMxBNxSTAGESx{A2|B2|1}\n"
        "            (every compiled variant of it that fits the shape) or 'pick' (DeepGEMM's heuristic\n"
        "            choice); default: all that fit\n"
        "  --pdl     launch with programmatic stream serialization (DeepGEMM's default is off)\n"
        "  --flush-l2  write a 256 MiB buffer before every timed launch (outside the timed region)\n"
        "  --list    list compiled configs and exit (needs no GPU)\n"
        "  --heuristic T  print the top T configs of the replica of DeepGEMM's sm90 heuristic\n"
        "  --sms S   SM count the heuristic replica assumes (default 132, H100 SXM / H200)\n");
}

static bool parse(int argc, char** argv, Options& o) {
    std::vector<std::string> pos;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&](const char* name) -> std::string {
            if (i + 1 >= argc) { fprintf(stderr, "missing value for %s\n", name); exit(2); }
            return argv[++i];
        };
        if (a == "--iters") o.iters = atoi(next("--iters").c_str());
        else if (a == "--warmup") o.warmup = atoi(next("--warmup").c_str());
        else if (a == "--config") {
            std::string v = next("--config");
            size_t s = 0;
            while (s <= v.size()) {
                size_t e = v.find(',', s);
                if (e == std::string::npos) e = v.size();
                if (e > s) o.configs.push_back(v.substr(s, e - s));
                s = e + 1;
            }
        } else if (a == "--json") o.json = next("--json");
        else if (a == "--pdl") o.pdl = true;
        else if (a == "--flush-l2") o.flush_l2 = true;
        else if (a == "--tol") o.tol = strtof(next("--tol").c_str(), nullptr);
        else if (a == "--seed") o.seed = strtoull(next("--seed").c_str(), nullptr, 0);
        else if (a == "--list") o.list = true;
        else if (a == "--heuristic") o.heur_top = atoi(next("--heuristic").c_str());
        else if (a == "--sms") o.heur_sms = atoi(next("--sms").c_str());
        else if (a == "--verbose" || a == "-v") o.verbose = true;
        else if (a == "--help" || a == "-h") { usage(); exit(0); }
        else if (!a.empty() && a[0] == '-') { fprintf(stderr, "unknown option %s\n", a.c_str()); usage(); exit(2); }
        else pos.push_back(a);
    }
    if (o.list) return true;
    if (pos.size() != 3) { usage(); exit(2); }
    o.m = atoi(pos[0].c_str());
    o.n = atoi(pos[1].c_str());
    o.k = atoi(pos[2].c_str());
    if (o.m <= 0 || o.n <= 0 || o.k <= 0 || o.iters <= 0 || o.warmup < 0) { usage(); exit(2); }
    return true;
}

static void print_config(const dgb::Config& c) {
    printf("  %-26s %s block %dx%dx%d stages %d cluster %d multicast %s  N=%s K=%s  sms %d threads %d+%d swizzle A/B/D %d/%d/%d\n",
           c.name, c.is_pick ? "[pick]" : "      ", c.block_m, c.block_n, c.block_k, c.stages, c.cluster,
           c.cluster == 1 ? "off" : (c.mc_on_a ? "A" : "B"),
           c.shape_n ? std::to_string(c.shape_n).c_str() : "runtime",
           c.shape_k ? std::to_string(c.shape_k).c_str() : "runtime",
           c.num_sms, c.num_math_threads, c.num_tma_threads, c.swizzle_a, c.swizzle_b, c.swizzle_d);
}

struct Result {
    std::string name;
    bool pick = false;
    bool passed = false;
    double median_ms = 0, min_ms = 0, max_ms = 0, mean_ms = 0, tflops = 0;
    double max_rel = 0, max_rel_strict = 0, max_abs = 0, rms_ref = 0, diff = 0;
    unsigned long long nonfinite = 0, bad = 0;
    int smem = 0, regs = 0, local = 0;
};

// Wait for an event with a timeout; a barrier/TMA mismatch shows up as a hang.
static void wait_or_die(cudaEvent_t ev, double timeout_s, const char* what) {
    const auto t0 = std::chrono::steady_clock::now();
    while (true) {
        cudaError_t e = cudaEventQuery(ev);
        if (e == cudaSuccess) return;
        if (e != cudaErrorNotReady) {
            fprintf(stderr, "FAIL: %s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
            exit(1);
        }
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > timeout_s) {
            fprintf(stderr, "FAIL: %s did not finish within %.0f s (hang: TMA tx-count / barrier mismatch?)\n",
                    what, timeout_s);
            fflush(stderr);
            _exit(3);
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

int main(int argc, char** argv) {
    setvbuf(stdout, nullptr, _IOLBF, 0);
    Options o;
    parse(argc, argv, o);

    auto& reg = dgb::registry();
    HeurLayout pick;
    if (!o.list) {
        pick = heur_best(o.m, o.n, o.k, o.heur_sms);
        for (auto& c : reg) c.is_pick = is_layout(c, pick) ? 1 : 0;
    }
    std::sort(reg.begin(), reg.end(), [](const dgb::Config& a, const dgb::Config& b) {
        if (a.is_pick != b.is_pick) return a.is_pick > b.is_pick;
        return strcmp(a.name, b.name) < 0;
    });

    if (o.list) {
        printf("DeepGEMM %s, CUTLASS %s; %zu compiled configs:\n", DGB_DEEPGEMM_COMMIT, DGB_CUTLASS_COMMIT, reg.size());
        for (auto& c : reg) print_config(c);
        return 0;
    }

    // ---- select configs (host only) ----
    auto matches = [](const std::string& w, const dgb::Config& c) {
        return w == c.name || w == c.base || (w == "pick" && c.is_pick);
    };
    for (auto& w : o.configs) {
        bool known = false;
        for (auto& c : reg) known |= matches(w, c);
        if (!known) { fprintf(stderr, "error: unknown config '%s' (see --list)\n", w.c_str()); return 2; }
    }
    std::vector<const dgb::Config*> sel;
    for (auto& c : reg) {
        bool wanted = o.configs.empty();
        for (auto& w : o.configs) wanted |= matches(w, c);
        if (!wanted) continue;
        const std::string why = fits(c, o.m, o.n, o.k);
        if (!why.empty()) {
            bool named = false;  // report a skip only for configs asked for by full name
            for (auto& w : o.configs) named |= (w == c.name);
            if (named || o.verbose)
                printf("skip %s for %dx%dx%d: %s\n", c.name, o.m, o.n, o.k, why.c_str());
            continue;
        }
        sel.push_back(&c);
    }
    if (sel.empty()) {
        fprintf(stderr, "error: no compiled config fits M=%d N=%d K=%d (see --list)\n", o.m, o.n, o.k);
        return 2;
    }
    if (o.heur_top > 0) print_heuristic(o.m, o.n, o.k, o.heur_sms, o.heur_top);
    {
        bool have_pick = false;
        for (auto* c : sel) have_pick |= c->is_pick != 0;
        printf("DeepGEMM heuristic pick for %dx%dx%d (%d SMs): %dx%d stages %d cluster %d multicast %s -> %s\n",
               o.m, o.n, o.k, o.heur_sms, pick.block_m, pick.block_n, pick.stages, pick.cluster_m * pick.cluster_n,
               pick.cluster_m * pick.cluster_n == 1 ? "off" : (pick.cluster_n > 1 ? "A" : "B"),
               have_pick ? "selected" : "NOT among the selected/compiled configs");
    }
    printf("deepgemm_bs M=%d N=%d K=%d iters=%d warmup=%d pdl=%d flush_l2=%d  (DeepGEMM %.12s, CUTLASS %.12s)\n",
           o.m, o.n, o.k, o.iters, o.warmup, (int)o.pdl, (int)o.flush_l2, DGB_DEEPGEMM_COMMIT, DGB_CUTLASS_COMMIT);
    for (auto* c : sel) {
        print_config(*c);
        if (o.verbose) {
            printf("    smem %d B, grid %d x %d threads, cluster %d\n", smem_bytes(*c, o.k), c->num_sms,
                   c->num_tma_threads + c->num_math_threads, c->cluster);
            Plans p = make_plans(*c, o.m, o.n, o.k, nullptr, nullptr, nullptr, nullptr);
            print_plan(p.a); print_plan(p.b); print_plan(p.d); print_plan(p.sfa);
        }
    }

    // ---- device ----
    int ndev = 0;
    cudaError_t derr = cudaGetDeviceCount(&ndev);
    if (derr != cudaSuccess || ndev == 0) {
        fprintf(stderr, "error: no CUDA device (cudaGetDeviceCount: %s: %s)\n",
                derr != cudaSuccess ? cudaGetErrorName(derr) : "cudaSuccess",
                derr != cudaSuccess ? cudaGetErrorString(derr) : "device count is 0");
        return 2;
    }
    CUDA_CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s (sm_%d%d, %d SMs, smem optin %zu B, L2 %d MiB)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, prop.sharedMemPerBlockOptin, prop.l2CacheSize >> 20);
    if (prop.major != 9 || prop.minor != 0) {
        fprintf(stderr, "error: these kernels are built for sm_90a only (device is sm_%d%d)\n", prop.major, prop.minor);
        return 2;
    }
    load_driver_entry_points();

    const int M = o.m, N = o.n, K = o.k;
    const int KB = ceil_div(K, 128);
    const int NB = ceil_div(N, 128);
    const int LDSF = sfa_ld(M);
    const size_t nA = (size_t)M * K, nB = (size_t)N * K, nD = (size_t)M * N;

    uint8_t *dA = nullptr, *dB = nullptr;
    float *dSFA = nullptr, *dSFB = nullptr, *dRef = nullptr;
    __nv_bfloat16* dD = nullptr;
    CheckStats* dStats = nullptr;
    void* dFlush = nullptr;
    const size_t flush_bytes = 256ull << 20;
    CUDA_CHECK(cudaMalloc(&dA, nA));
    CUDA_CHECK(cudaMalloc(&dB, nB));
    CUDA_CHECK(cudaMalloc(&dSFA, (size_t)LDSF * KB * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dSFB, (size_t)NB * KB * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dD, nD * sizeof(__nv_bfloat16)));
    CUDA_CHECK(cudaMalloc(&dRef, nD * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dStats, sizeof(CheckStats)));
    if (o.flush_l2) CUDA_CHECK(cudaMalloc(&dFlush, flush_bytes));

    // ---- inputs ----
    const int gen_blocks = prop.multiProcessorCount * 8;
    gen_fp8_kernel<<<gen_blocks, 256>>>(dA, nA, o.seed * 4 + 1);
    gen_fp8_kernel<<<gen_blocks, 256>>>(dB, nB, o.seed * 4 + 2);
    gen_scale_kernel<<<gen_blocks, 256>>>(dSFA, (size_t)LDSF * KB, o.seed * 4 + 3);  // padding rows too
    gen_scale_kernel<<<gen_blocks, 256>>>(dSFB, (size_t)NB * KB, o.seed * 4 + 4);
    CUDA_CHECK(cudaGetLastError());
    {
        // never all zero: count non-zero e4m3 codes in the first 64 KiB of A and B
        std::vector<uint8_t> h(std::min<size_t>(65536, std::min(nA, nB)));
        size_t nz = 0;
        CUDA_CHECK(cudaMemcpy(h.data(), dA, h.size(), cudaMemcpyDeviceToHost));
        for (auto v : h) nz += (v & 0x7f) != 0;
        CUDA_CHECK(cudaMemcpy(h.data(), dB, h.size(), cudaMemcpyDeviceToHost));
        for (auto v : h) nz += (v & 0x7f) != 0;
        if (nz < h.size()) { fprintf(stderr, "error: generated inputs look degenerate (%zu non-zero)\n", nz); return 1; }
    }

    // ---- reference ----
    {
        cudaEvent_t e0, e1;
        CUDA_CHECK(cudaEventCreate(&e0));
        CUDA_CHECK(cudaEventCreate(&e1));
        CUDA_CHECK(cudaEventRecord(e0));
        dim3 grid(ceil_div(N, RT_N), ceil_div(M, RT_M));
        ref_gemm_kernel<<<grid, 256>>>(dA, dB, dSFA, dSFB, dRef, M, N, K, LDSF);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(e1));
        wait_or_die(e1, 600.0, "reference GEMM");
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
        printf("reference GEMM: %.1f ms\n", ms);
        CUDA_CHECK(cudaEventDestroy(e0));
        CUDA_CHECK(cudaEventDestroy(e1));
    }
    double sum_ref2 = 0;
    {
        CUDA_CHECK(cudaMemset(dStats, 0, sizeof(CheckStats)));
        ref_sumsq_kernel<<<gen_blocks, 256>>>(dRef, nD, dStats);
        CUDA_CHECK(cudaGetLastError());
        CheckStats h;
        CUDA_CHECK(cudaMemcpy(&h, dStats, sizeof(h), cudaMemcpyDeviceToHost));
        sum_ref2 = h.sum_ref2;
    }
    const double rms_ref = std::sqrt(sum_ref2 / (double)nD);
    printf("reference rms %.6g\n", rms_ref);
    if (!(rms_ref > 0)) { fprintf(stderr, "error: reference is all zero\n"); return 1; }

    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    std::vector<Result> results;
    int failures = 0;
    for (const dgb::Config* cp : sel) {
        const dgb::Config& c = *cp;
        Result r;
        r.name = c.name;
        r.pick = c.is_pick != 0;
        r.smem = smem_bytes(c, K);
        if ((size_t)r.smem > prop.sharedMemPerBlockOptin) {
            printf("skip %s: needs %d B shared memory, device allows %zu\n", c.name, r.smem, prop.sharedMemPerBlockOptin);
            continue;
        }
        if (prop.multiProcessorCount != c.num_sms)
            printf("warning: %s is compiled for %d SMs (persistent grid), device has %d\n", c.name, c.num_sms,
                   prop.multiProcessorCount);
        CUDA_CHECK(c.set_smem(r.smem));
        cudaFuncAttributes fa;
        CUDA_CHECK(c.get_attrs(&fa));
        r.regs = fa.numRegs;
        r.local = (int)fa.localSizeBytes;

        Plans plans = make_plans(c, M, N, K, dA, dB, dD, dSFA);
        dgb::KernelArgs args;
        args.sfb = dSFB;
        args.m = M; args.n = N; args.k = K;
        args.tmap_a = encode(plans.a);
        args.tmap_b = encode(plans.b);
        args.tmap_d = encode(plans.d);
        args.tmap_sfa = encode(plans.sfa);
        if (o.verbose) {
            printf("  %s: smem %d B, regs %d, local %d B\n", c.name, r.smem, r.regs, r.local);
            print_plan(plans.a); print_plan(plans.b); print_plan(plans.d); print_plan(plans.sfa);
        }

        // ---- correctness: poison D with NaN (0xFFFF bf16), launch once, compare ----
        cudaEvent_t ev;
        CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        CUDA_CHECK(cudaMemsetAsync(dD, 0xFF, nD * sizeof(__nv_bfloat16), stream));
        CUDA_CHECK(c.launch(args, r.smem, o.pdl, stream));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(ev, stream));
        wait_or_die(ev, 30.0, c.name);
        CUDA_CHECK(cudaEventDestroy(ev));

        CUDA_CHECK(cudaMemsetAsync(dStats, 0, sizeof(CheckStats), stream));
        const float small = (float)(o.small_frac * rms_ref), small_strict = (float)(0.01 * rms_ref);
        compare_kernel<<<gen_blocks, 256, 0, stream>>>(dD, dRef, nD, small, small_strict, o.tol, dStats);
        CUDA_CHECK(cudaGetLastError());
        CheckStats h;
        CUDA_CHECK(cudaMemcpyAsync(&h, dStats, sizeof(h), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        auto bits_to_f = [](unsigned b) { float f; memcpy(&f, &b, 4); return f; };
        r.max_rel = bits_to_f(h.max_rel_bits);
        r.max_rel_strict = bits_to_f(h.max_rel_strict_bits);
        r.max_abs = bits_to_f(h.max_abs_bits);
        r.nonfinite = h.nonfinite;
        r.bad = h.bad;
        r.rms_ref = rms_ref;
        const double denom = h.sum_d2 + sum_ref2;
        r.diff = denom > 0 ? 1.0 - 2.0 * h.sum_dref / denom : 0.0;  // DeepGEMM calc_diff (finite part)
        r.passed = (h.nonfinite == 0) && (h.bad == 0) && (r.diff < o.max_diff);
        printf("  check %s: %s  max|err|/(|ref|+%.2f*rms)=%.3e (tol %.1e, %llu over)  max|err|/(|ref|+0.01*rms)=%.3e"
               "  max|err|/rms=%.3e  non-finite=%llu  calc_diff=%.3e\n",
               c.name, r.passed ? "PASS" : "FAIL", o.small_frac, r.max_rel, o.tol, r.bad, r.max_rel_strict,
               r.max_abs / rms_ref, r.nonfinite, r.diff);
        if (!r.passed) {
            ++failures;
            if (nD < (1ull << 32) && h.worst) {
                const size_t idx = (size_t)(h.worst & 0xffffffffull);
                __nv_bfloat16 dv;
                float rv;
                CUDA_CHECK(cudaMemcpy(&dv, dD + idx, sizeof(dv), cudaMemcpyDeviceToHost));
                CUDA_CHECK(cudaMemcpy(&rv, dRef + idx, sizeof(rv), cudaMemcpyDeviceToHost));
                fprintf(stderr, "FAIL %s: worst element m=%zu n=%zu: got %.6g ref %.6g\n", c.name, idx / N, idx % N,
                        __bfloat162float(dv), rv);
            }
            fprintf(stderr, "FAIL %s: result does not match the reference (not timing it)\n", c.name);
            results.push_back(r);
            continue;
        }

        // ---- timing: warmup, then one event pair per launch ----
        for (int i = 0; i < o.warmup; ++i) CUDA_CHECK(c.launch(args, r.smem, o.pdl, stream));
        CUDA_CHECK(cudaGetLastError());
        std::vector<cudaEvent_t> e0(o.iters), e1(o.iters);
        for (int i = 0; i < o.iters; ++i) {
            CUDA_CHECK(cudaEventCreate(&e0[i]));
            CUDA_CHECK(cudaEventCreate(&e1[i]));
        }
        for (int i = 0; i < o.iters; ++i) {
            if (o.flush_l2) CUDA_CHECK(cudaMemsetAsync(dFlush, i & 0xff, flush_bytes, stream));
            CUDA_CHECK(cudaEventRecord(e0[i], stream));
            CUDA_CHECK(c.launch(args, r.smem, o.pdl, stream));
            CUDA_CHECK(cudaEventRecord(e1[i], stream));
        }
        CUDA_CHECK(cudaGetLastError());
        wait_or_die(e1[o.iters - 1], 120.0, c.name);
        std::vector<double> ms(o.iters);
        for (int i = 0; i < o.iters; ++i) {
            float t = 0;
            CUDA_CHECK(cudaEventElapsedTime(&t, e0[i], e1[i]));
            ms[i] = t;
            CUDA_CHECK(cudaEventDestroy(e0[i]));
            CUDA_CHECK(cudaEventDestroy(e1[i]));
        }
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        const int n = (int)sorted.size();
        r.median_ms = (n % 2) ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        r.min_ms = sorted.front();
        r.max_ms = sorted.back();
        double s = 0;
        for (double v : ms) s += v;
        r.mean_ms = s / n;
        r.tflops = 2.0 * M * (double)N * K / (r.median_ms * 1e-3) / 1e12;
        printf("RESULT config=%s pick=%d M=%d N=%d K=%d median_ms=%.4f tflops=%.1f min_ms=%.4f max_ms=%.4f check=PASS"
               " max_rel=%.2e\n",
               c.name, (int)r.pick, M, N, K, r.median_ms, r.tflops, r.min_ms, r.max_ms, r.max_rel);
        results.push_back(r);
    }

    if (!o.json.empty()) {
        FILE* f = fopen(o.json.c_str(), "w");
        if (!f) { fprintf(stderr, "error: cannot write %s\n", o.json.c_str()); return 1; }
        fprintf(f, "{\n  \"tool\": \"deepgemm_bs\",\n  \"deepgemm_commit\": \"%s\",\n  \"cutlass_commit\": \"%s\",\n",
                DGB_DEEPGEMM_COMMIT, DGB_CUTLASS_COMMIT);
        fprintf(f, "  \"device\": \"%s\",\n  \"num_sms\": %d,\n  \"M\": %d, \"N\": %d, \"K\": %d,\n", prop.name,
                prop.multiProcessorCount, M, N, K);
        fprintf(f, "  \"iters\": %d, \"warmup\": %d, \"pdl\": %s, \"flush_l2\": %s,\n  \"results\": [\n", o.iters,
                o.warmup, o.pdl ? "true" : "false", o.flush_l2 ? "true" : "false");
        for (size_t i = 0; i < results.size(); ++i) {
            const Result& r = results[i];
            fprintf(f,
                    "    {\"config\": \"%s\", \"pick\": %s, \"passed\": %s, \"median_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f,"
                    " \"mean_ms\": %.6f, \"tflops\": %.3f, \"max_rel\": %.4e, \"max_rel_strict\": %.4e,"
                    " \"max_abs_over_rms\": %.4e, \"calc_diff\": %.4e, \"nonfinite\": %llu, \"over_tol\": %llu,"
                    " \"smem_bytes\": %d, \"regs\": %d, \"local_bytes\": %d}%s\n",
                    r.name.c_str(), r.pick ? "true" : "false", r.passed ? "true" : "false", r.median_ms, r.min_ms, r.max_ms, r.mean_ms, r.tflops,
                    r.max_rel, r.max_rel_strict, r.max_abs / r.rms_ref, r.diff, r.nonfinite, r.bad, r.smem, r.regs,
                    r.local, i + 1 < results.size() ? "," : "");
        }
        fprintf(f, "  ]\n}\n");
        fclose(f);
        printf("wrote %s\n", o.json.c_str());
    }

    cudaFree(dA); cudaFree(dB); cudaFree(dSFA); cudaFree(dSFB); cudaFree(dD); cudaFree(dRef); cudaFree(dStats);
    if (dFlush) cudaFree(dFlush);
    if (failures) {
        fprintf(stderr, "FAILED: %d config(s) did not match the reference\n", failures);
        return 1;
    }
    return 0;
}
