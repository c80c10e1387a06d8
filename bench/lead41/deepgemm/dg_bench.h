// Shared interface between runner.cu (host driver) and instance.cu (one
// DeepGEMM sm90_fp8_gemm_1d2d template instantiation per compiled object).
// Own code; no DeepGEMM/CUTLASS text.
#pragma once

#include <cuda.h>            // CUtensorMap (type only; driver entry points via cudart)
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>

namespace dgb {

// Kernel arguments, in the order of DeepGEMM's sm90_fp8_gemm_1d2d_impl:
// (float* sfb, int* grouped_layout, m, n, k, tmap_a, tmap_b, tmap_d, tmap_sfa)
struct KernelArgs {
    float* sfb;
    uint32_t m, n, k;
    CUtensorMap tmap_a, tmap_b, tmap_d, tmap_sfa;
};

struct Config {
    const char* name;        // full name, e.g. "256x128x3xA2:n8192k8192" or "...:dyn"
    const char* base;        // "256x128x3xA2"
    int block_m, block_n, block_k;
    int stages;
    int cluster;             // 1 or 2 (TMA multicast size)
    int mc_on_a;             // 1: multicast A (cluster along N), 0: multicast B
    int shape_n, shape_k;    // compiled-in N/K (DeepGEMM compiled_dims="nk"); 0 = runtime
    int num_sms;             // kNumSMs template argument == grid size
    int num_tma_threads, num_math_threads;
    int swizzle_a, swizzle_b, swizzle_d;  // bytes
    int is_pick;             // set by the runner: 1 if DeepGEMM's sm90 heuristic picks this
                             // config for the benchmark shape (runner's replica of heuristics/sm90.hpp)
    cudaError_t (*set_smem)(int smem_bytes);
    cudaError_t (*launch)(const KernelArgs& args, int smem_bytes, bool pdl, cudaStream_t stream);
    cudaError_t (*get_attrs)(cudaFuncAttributes* attrs);
};

std::vector<Config>& registry();

struct Registrar {
    explicit Registrar(const Config& c) { registry().push_back(c); }
};

}  // namespace dgb
