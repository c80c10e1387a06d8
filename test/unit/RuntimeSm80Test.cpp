// The runtime's side of sm_80 kernels (issue 12): manifests that take A and
// B as pointers with leading dimensions parse; a fatbinary's "ptx" field lets
// an sm_80 kernel load on a newer device through the driver's JIT, and a
// plain cubin does not. Host-only: built into gemmc-runtime-unittests too.
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"

#include <gtest/gtest.h>

namespace rt = gemmc::rt;

namespace {

/// An sm_80 manifest with A and B as pointers, as gemmc writes it.
std::string sm80Manifest(const std::string &extra) {
  return R"({"format": "gemmc-manifest", "version": 1, "kernel": "k", "arch": "sm_80",)" + extra +
         R"( "block": [512, 1, 1], "cluster": [1, 1, 1], "dynamic_smem_bytes": 65536,
    "tile": [128, 128, 32], "problem": {"m": -1, "n": -1, "k": -1},
    "a": {"element": "tf32", "layout": "row"}, "b": {"element": "tf32", "layout": "row"},
    "c": {"element": "f32", "layout": "row"}, "tensor_maps": [],
    "grid": {"scheduler": "data_parallel", "raster": "along_m", "group": 8},
    "params": ["a", "b", "c", "m", "n", "k", "ldc", "lda", "ldb"]})";
}

std::string manifestError(const std::string &text) {
  rt::Manifest m;
  std::string err;
  EXPECT_FALSE(rt::parseManifest(text, "k.fatbin.json", m, err));
  return err;
}

/// The sm_80 manifest parsed as a cubin's (SASS alone) or a fatbinary's
/// (with compute_80 PTX).
rt::Manifest parsedSm80(bool withPtx) {
  rt::Manifest m;
  std::string err;
  EXPECT_TRUE(rt::parseManifest(sm80Manifest(withPtx ? R"( "ptx": "compute_80",)" : ""),
                                withPtx ? "k.fatbin.json" : "k.cubin.json", m, err))
      << err;
  return m;
}

TEST(RuntimeSm80, RunsAFatbinaryOnNewerDevicesThroughTheJit) {
  rt::Manifest cubin = parsedSm80(false), fat = parsedSm80(true);
  EXPECT_EQ(fat.ptxMajor, 8);
  EXPECT_EQ(fat.ptxMinor, 0);
  // A100 (8.0) and A10 (8.6) run the SASS of either file.
  EXPECT_EQ(rt::archFit(cubin, 8, 0), rt::ArchFit::Native);
  EXPECT_EQ(rt::archFit(fat, 8, 6), rt::ArchFit::Native);
  // The H200 (9.0) and a B200 (10.0): only the fatbinary, through its PTX.
  EXPECT_EQ(rt::archFit(cubin, 9, 0), rt::ArchFit::No);
  EXPECT_EQ(rt::archFit(fat, 9, 0), rt::ArchFit::Jit);
  EXPECT_EQ(rt::archFit(fat, 10, 0), rt::ArchFit::Jit);
  // Older than the PTX: nothing runs.
  EXPECT_EQ(rt::archFit(fat, 7, 5), rt::ArchFit::No);
}

TEST(RuntimeSm80, SaysWhyAFileDoesNotRunAndWhatWould) {
  rt::Manifest cubin = parsedSm80(false), fat = parsedSm80(true);
  std::string head = "kernel '" + cubin.kernel + "' is built for sm_80 but the device (D) is ";
  // SASS alone on a newer device: a fatbinary would run through the JIT.
  EXPECT_EQ(rt::archMismatch(cubin, 9, 0, "D"),
            head + "sm_90; a fatbinary with PTX (gemmc -o FILE.fatbin) runs on newer devices through the "
                   "driver's JIT");
  // Nothing runs on an older device, with or without PTX.
  EXPECT_EQ(rt::archMismatch(cubin, 7, 5, "D"),
            head + "sm_75; sm_80 code needs that compute capability or a newer one");
  EXPECT_EQ(rt::archMismatch(fat, 7, 5, "D"),
            head + "sm_75; its PTX (compute_80) needs that compute capability or a newer one");
  // An "a" arch runs on its own architecture only: no fatbinary advice.
  rt::Manifest sm100a = cubin;
  sm100a.arch = "sm_100a";
  sm100a.archMajor = 10;
  sm100a.archMinor = 0;
  sm100a.archSpecific = true;
  EXPECT_EQ(rt::archMismatch(sm100a, 9, 0, "D"),
            "kernel '" + cubin.kernel + "' is built for sm_100a but the device (D) is sm_90; sm_100a code runs "
            "only on devices of compute capability 10.0: build the spec for this device's arch");
}

TEST(RuntimeSm80, RejectsBadPtxAndMixedOperands) {
  EXPECT_EQ(manifestError(sm80Manifest(R"( "ptx": "sm_80",)")),
            "k.fatbin.json: field 'ptx': expected \"compute_<major><minor>\" such as \"compute_80\", got "
            "\"sm_80\"");
  EXPECT_EQ(manifestError(sm80Manifest(R"( "ptx": "compute_90",)")),
            "k.fatbin.json: field 'ptx': the PTX (compute_90) is for a newer arch than the SASS (sm_80)");
  std::string noLdb = sm80Manifest("");
  noLdb.replace(noLdb.find(", \"ldb\""), 7, "");
  EXPECT_EQ(manifestError(noLdb), "k.fatbin.json: field 'params': missing the required parameter \"ldb\"");
  std::string withMaps = sm80Manifest("");
  withMaps.replace(withMaps.find("\"tensor_maps\": []"), 17,
                   R"("tensor_maps": [{"operand": "a", "box": [32, 128], "swizzle": 128}])");
  EXPECT_EQ(manifestError(withMaps).rfind("k.fatbin.json: field 'tensor_maps': expected [] for a kernel that "
                                          "takes A and B as pointers (params \"a\", \"b\"), got [",
                                          0),
            0u);
}

} // namespace
