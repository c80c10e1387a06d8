//===- PlanFuzzer.cpp - libFuzzer target: the runtime's argument checks ---===//
//
// The input is a manifest followed by the call's arguments: the integers
// are taken from the end of the input (FuzzedDataProvider's order), the
// manifest is what remains. An input whose manifest does not parse uses a
// fixed valid one, so every input exercises checkArgs. Arguments that pass
// go on to the storage extents, tensor maps and grid, as in gemmc_launch.
//
//===----------------------------------------------------------------------===//
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace gemmc::rt;

namespace {
// specs/h200_bf16_tn.yaml's manifest (test/fuzz/seeds/h200_bf16_tn.json).
const char *kFallbackManifest = R"({"a": {"element": "bf16", "layout": "row"}, "arch": "sm_90a", "b":
{"element": "bf16", "layout": "col"}, "block": [256, 1, 1], "c": {"element":
"bf16", "layout": "row"}, "cluster": [1, 1, 1], "device": "h200",
"dynamic_smem_bytes": 230512, "format": "gemmc-manifest", "grid": {"group":
8, "raster": "along_m", "scheduler": "data_parallel"}, "kernel":
"gemm_bf16_tn_128x128", "params": ["tmap_a", "tmap_b", "c", "m", "n", "k",
"ldc", "alpha"], "problem": {"k": -1, "m": -1, "n": -1}, "tensor_maps":
[{"box": [64, 128], "operand": "a", "swizzle": 128}, {"box": [64, 128],
"operand": "b", "swizzle": 128}], "tile": [128, 128, 64], "version": 1})";

/// Sizes near the edges the checks guard (0, 1, int32, TMA's 2^32) as
/// often as arbitrary ones.
int64_t size(FuzzedDataProvider &in) {
  static const int64_t edges[] = {0, 1, 16, 1000, 8192, INT32_MAX,
                                  int64_t{1} << 32, INT64_MAX, -1, INT64_MIN};
  if (in.ConsumeBool())
    return in.PickValueInArray(edges);
  return in.ConsumeIntegral<int64_t>();
}

const void *address(FuzzedDataProvider &in) {
  return reinterpret_cast<const void *>(
      static_cast<uintptr_t>(in.ConsumeIntegral<uint64_t>()));
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size_) {
  FuzzedDataProvider in(data, size_);
  gemmc_gemm_args args;
  gemmc_gemm_args_init(&args);
  args.m = size(in);
  args.n = size(in);
  args.k = size(in);
  args.lda = size(in);
  args.ldb = size(in);
  args.ldc = size(in);
  args.a = address(in);
  args.b = address(in);
  args.c = const_cast<void *>(address(in));
  // A C caller may pass any int for an enum; a little past the legal values.
  args.a_type = static_cast<gemmc_dtype>(in.ConsumeIntegralInRange<int>(-1, 8));
  args.b_type = static_cast<gemmc_dtype>(in.ConsumeIntegralInRange<int>(-1, 8));
  args.c_type = static_cast<gemmc_dtype>(in.ConsumeIntegralInRange<int>(-1, 8));
  args.a_layout = static_cast<gemmc_layout>(in.ConsumeIntegralInRange<int>(-1, 4));
  args.b_layout = static_cast<gemmc_layout>(in.ConsumeIntegralInRange<int>(-1, 4));
  args.alpha = in.ConsumeFloatingPoint<float>();
  args.beta = in.ConsumeFloatingPoint<float>();
  int sms = in.ConsumeIntegralInRange<int>(0, 4096);

  Manifest m;
  std::string error;
  if (!parseManifest(in.ConsumeRemainingBytesAsString(), "fuzz.cubin.json", m, error) &&
      !parseManifest(kFallbackManifest, "fallback.cubin.json", m, error)) {
    std::fprintf(stderr, "PlanFuzzer: the fallback manifest is refused: %s\n", error.c_str());
    std::abort();
  }

  if (checkArgs(m, args, error) != GEMMC_OK)
    return 0;
  (void)storageA(args).extentBytes();
  (void)storageB(args).extentBytes();
  (void)storageC(args).extentBytes();
  for (auto [op, param] : {std::pair{Operand::A, Param::TmapA},
                           std::pair{Operand::B, Param::TmapB},
                           std::pair{Operand::C, Param::TmapC}})
    if (m.hasParam(param))
      (void)tensorMapParams(m, op, args);
  LaunchDims dims;
  (void)computeLaunch(m, args.m, args.n, sms, dims, error);
  (void)residentSlots(m, sms);
  (void)workspaceBytes(m, sms);
  return 0;
}
