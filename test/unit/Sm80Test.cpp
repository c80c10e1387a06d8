// The sm_80 path: the warp grid the mainloop and the epilogue share, the
// kernel interface (pointers and leading dimensions instead of tensor
// maps), and the runtime's side: such manifests parse, and a fatbinary's
// PTX lets an sm_80 kernel load on a newer device through the JIT.
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/Target/Sm80.h"
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace gemmc;

namespace {

KernelSpec specAt(const std::string &path) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  auto file = SpecFile::open(path, os);
  EXPECT_TRUE(file && file->parse()) << diags;
  return file ? file->spec() : KernelSpec{};
}

TEST(Sm80, WarpGridsOfTheA100Specs) {
  // 16 warps over 128 x 128: 4 x 4 warps of 32 x 32 (2 x 4 fragments).
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml");
  std::optional<MmaSyncWarpGrid> g = mmaSyncWarpGrid(s);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->warpsM, 4);
  EXPECT_EQ(g->warpsN, 4);
  EXPECT_EQ(g->warpRows, 32);
  EXPECT_EQ(g->warpCols, 32);
  EXPECT_EQ(g->mFragments(), 2);
  EXPECT_EQ(g->nFragments(), 4);
  // 16 warps over 64 x 64: warp tiles of 16 x 16, one A fragment, two B.
  g = mmaSyncWarpGrid(specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_64x64x16.yaml"));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->warpRows, 16);
  EXPECT_EQ(g->warpCols, 16);
  // 8 warps over 128 x 128: 2 x 4 warps of 64 x 32.
  g = mmaSyncWarpGrid(specAt(GEMMC_SOURCE_DIR "/specs/a100_bf16_128x128x32.yaml"));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->warpsM, 2);
  EXPECT_EQ(g->warpsN, 4);
  EXPECT_EQ(g->mFragments(), 4);
  EXPECT_EQ(g->nFragments(), 4);
  // Every fragment value is one accumulator register of the thread.
  CtaResources r = computeResources(s);
  EXPECT_EQ(4 * 2 * 4, r.accRegsPerThread);
}

TEST(Sm80, SwizzleKeepsLdmatrixRowsOnDistinctBankGroups) {
  // The 8 rows one ldmatrix reads (same unit u) land on 8 different 16-byte
  // groups of the 128-byte bank line, for every row width.
  for (int64_t units : {2, 4, 8, 16, 32}) {
    int64_t mask = sm80SwizzleMask(units, /*swizzled=*/true);
    int64_t perLine = sm80RowsPerLine(units);
    for (int64_t u = 0; u < units; ++u) {
      unsigned seen = 0;
      for (int64_t r = 0; r < 8; ++r) {
        int64_t placed = u ^ ((r / perLine) & mask);
        ASSERT_LT(placed, units);
        int64_t group = (r * units + placed) % 8;
        seen |= 1u << group;
      }
      EXPECT_EQ(seen, 0xFFu) << units << " units, unit " << u;
    }
  }
  EXPECT_EQ(sm80SwizzleMask(8, /*swizzled=*/false), 0);
}

TEST(Sm80, KernelTakesPointersAndLeadingDimensions) {
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml");
  EXPECT_TRUE(checkLoweringSupport(s).empty());
  KernelAbi abi = describeKernelAbi(s);
  EXPECT_EQ(abi.params, (std::vector<std::string>{"a", "b", "c", "m", "n", "k", "ldc",
                                                   "lda", "ldb", "alpha"}));
  // Two 16 KiB A and B tiles a stage, two stages, nothing else.
  EXPECT_EQ(abi.dynamicSmemBytes, 65536);
  std::string json = kernelManifestJson(s, abi);
  EXPECT_NE(json.find("\"tensor_maps\": []"), std::string::npos) << json;
  rt::Manifest m;
  std::string error;
  ASSERT_TRUE(rt::parseManifest(json, "a100.cubin.json", m, error)) << error;
  EXPECT_FALSE(m.hasTensorMaps());
  EXPECT_EQ(m.params[0], rt::Param::A);
  EXPECT_EQ(m.params[8], rt::Param::Ldb);
  EXPECT_EQ(m.ptxMajor, 0);
}

TEST(Sm80, LoweringRefusesWhatItDoesNotBuild) {
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml");
  s.tileScheduler.kind = TileSchedulerKind::StreamK;
  std::vector<Violation> v = checkLoweringSupport(s);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] stream_k is not implemented on sm_80 yet; use "
                        "data_parallel or persistent");
}

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

TEST(Sm80, RuntimeRunsAFatbinaryOnNewerDevicesThroughTheJit) {
  rt::Manifest cubin, fat;
  std::string err;
  ASSERT_TRUE(rt::parseManifest(sm80Manifest(""), "k.cubin.json", cubin, err)) << err;
  ASSERT_TRUE(rt::parseManifest(sm80Manifest(R"( "ptx": "compute_80",)"), "k.fatbin.json", fat, err))
      << err;
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

TEST(Sm80, RuntimeRejectsBadPtxAndMixedOperands) {
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
