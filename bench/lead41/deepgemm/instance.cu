// One instantiation of DeepGEMM's sm90_fp8_gemm_1d2d_impl per compiled object.
// build.sh compiles this file once per config with -D macros:
//   DGB_NAME, DGB_BASE  string literals: full config name and its base name
//   DGB_BM, DGB_BN, DGB_STAGES
//   DGB_CLUSTER  1 or 2 (kNumTMAMulticast)
//   DGB_MC_ON_A  1 or 0 (kIsTMAMulticastOnA)
//   DGB_SHAPE_N, DGB_SHAPE_K   compiled-in N/K (0 = runtime, DeepGEMM compiled_dims="")
//   DGB_NUM_SMS  kNumSMs (persistent grid size), 132 for H100 SXM / H200
// The template argument list mirrors what DeepGEMM's JIT generates in
// csrc/jit_kernels/impls/sm90_fp8_gemm_1d2d.hpp (generate_impl) for a normal
// (non-grouped) GEMM with bf16 D, K-major A/B, K-major SFB, no epilogue.
// Own code; the DeepGEMM header is included from the extracted tree via -I.

#include <deep_gemm/impls/sm90_fp8_gemm_1d2d.cuh>

#include "dg_bench.h"

#ifndef DGB_NAME
#error "DGB_NAME must be defined"
#endif

namespace {

constexpr uint32_t kBlockM = DGB_BM;
constexpr uint32_t kBlockN = DGB_BN;
constexpr uint32_t kBlockK = 128;                     // 128 / sizeof(e4m3)
constexpr uint32_t kStages = DGB_STAGES;
constexpr uint32_t kCluster = DGB_CLUSTER;
constexpr bool kMcOnA = DGB_MC_ON_A != 0;
constexpr uint32_t kShapeN = DGB_SHAPE_N;
constexpr uint32_t kShapeK = DGB_SHAPE_K;
constexpr uint32_t kNumSMs = DGB_NUM_SMS;

// get_swizzle_mode() of heuristics/utils.hpp: largest of 128/64/32/16 dividing the inner bytes
constexpr uint32_t swizzle_mode(uint32_t inner_bytes) {
    return inner_bytes % 128 == 0 ? 128 : inner_bytes % 64 == 0 ? 64 : inner_bytes % 32 == 0 ? 32 : 16;
}
constexpr uint32_t kSwizzleA = swizzle_mode(kBlockK * 1);
constexpr uint32_t kSwizzleB = swizzle_mode(kBlockK * 1);
constexpr uint32_t kSwizzleD = swizzle_mode(kBlockN * 2);   // bf16 D, store_block_n = block_n
// SM90ArchSpec::get_launch_config
constexpr uint32_t kNumTMAThreads = 128;
constexpr uint32_t kNumMathThreads = kBlockM <= 64 ? 128 : 256;

static_assert(kSwizzleA == kBlockK && kSwizzleB == kBlockK, "DeepGEMM requires no TMA splits for A/B");

// NOTE: `<<<`-free launch through cudaLaunchKernelEx, like DeepGEMM's construct_launch_config()
auto kernel = &deep_gemm::sm90_fp8_gemm_1d2d_impl<
    cute::UMMA::Major::K,                    // kMajorSFB (SFB contiguous [ceil(N/128), ceil(K/128)])
    0, kShapeN, kShapeK,                     // SHAPE_M (never compiled in), SHAPE_N, SHAPE_K
    1,                                       // kNumGroups
    kBlockM, kBlockN, kBlockK,
    kSwizzleA, kSwizzleB, kSwizzleD,
    kStages,
    kNumTMAThreads, kNumMathThreads,
    kCluster, kMcOnA,
    kNumSMs, deep_gemm::GemmType::Normal,
    cutlass::bfloat16_t,
    deep_gemm::epilogue::transform::EpilogueIdentity>;

cudaError_t set_smem(int smem_bytes) {
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
}

cudaError_t get_attrs(cudaFuncAttributes* attrs) {
    return cudaFuncGetAttributes(attrs, kernel);
}

cudaError_t launch(const dgb::KernelArgs& a, int smem_bytes, bool pdl, cudaStream_t stream) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(kNumSMs, 1, 1);
    config.blockDim = dim3(kNumTMAThreads + kNumMathThreads, 1, 1);
    config.dynamicSmemBytes = static_cast<size_t>(smem_bytes);
    config.stream = stream;
    cudaLaunchAttribute attrs[2];
    config.numAttrs = 0;
    config.attrs = attrs;
    if (kCluster > 1) {
        auto& attr = attrs[config.numAttrs++];
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = kCluster;
        attr.val.clusterDim.y = 1;
        attr.val.clusterDim.z = 1;
    }
    if (pdl) {
        auto& attr = attrs[config.numAttrs++];
        attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr.val.programmaticStreamSerializationAllowed = 1;
    }
    int* grouped_layout = nullptr;
    return cudaLaunchKernelEx(&config, kernel, a.sfb, grouped_layout, a.m, a.n, a.k,
                              a.tmap_a, a.tmap_b, a.tmap_d, a.tmap_sfa);
}

const dgb::Registrar registrar(dgb::Config{
    DGB_NAME, DGB_BASE,
    static_cast<int>(kBlockM), static_cast<int>(kBlockN), static_cast<int>(kBlockK),
    static_cast<int>(kStages), static_cast<int>(kCluster), kMcOnA ? 1 : 0,
    static_cast<int>(kShapeN), static_cast<int>(kShapeK), static_cast<int>(kNumSMs),
    static_cast<int>(kNumTMAThreads), static_cast<int>(kNumMathThreads),
    static_cast<int>(kSwizzleA), static_cast<int>(kSwizzleB), static_cast<int>(kSwizzleD),
    0,  // is_pick: filled in by the runner
    &set_smem, &launch, &get_attrs});

}  // namespace
