// The sm_80 path: the warp grid the mainloop and the epilogue share, and
// the kernel interface (pointers and leading dimensions instead of tensor
// maps) whose manifest the runtime parses. RuntimeSm80Test.cpp has the
// runtime's side alone.
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/Target/Sm80.h"
#include "gemmc/runtime/Manifest.h"
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
  // Padded instead (smem_swizzle: none): a row pitch of one more unit does
  // the same for every row width.
  for (int64_t units : {2, 4, 8, 16, 32}) {
    int64_t pitchUnits = sm80RowPitch(units * 16, Swizzle::None) / 16;
    EXPECT_EQ(pitchUnits, units + 1);
    unsigned seen = 0;
    for (int64_t r = 0; r < 8; ++r)
      seen |= 1u << ((r * pitchUnits) % 8);
    EXPECT_EQ(seen, 0xFFu) << units << " units";
  }
  EXPECT_EQ(sm80RowPitch(128, Swizzle::B128), 128);
}

TEST(Sm80, PaddedTilesCostOneUnitARow) {
  // Seed 000's padded 128x128x32: A 128 rows of 128 + 16 bytes, B (N-major)
  // 32 rows of 512 + 16 bytes, two stages; the swizzled twin has 64 KiB.
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32_padded.yaml");
  CtaResources r = computeResources(s);
  EXPECT_EQ(r.aStageBytes, 128 * 144);
  EXPECT_EQ(r.bStageBytes, 32 * 528);
  EXPECT_EQ(r.smemBytes, 2 * (128 * 144 + 32 * 528));
  EXPECT_EQ(computeResources(specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml")).smemBytes,
            64 * 1024);
}

TEST(Sm80, EpilogueStagingFitsTheRingWithoutBankConflicts) {
  // 8 warps of 64 x 64 f32: rows of 256 + 32 bytes, 16-row chunks (one
  // fragment's rows) = 8 x 16 x 288 = 36 KiB of the 4 x 24 KiB ring.
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_bf16_128x256x32.yaml");
  std::optional<MmaSyncStaging> st = mmaSyncStaging(s, computeResources(s));
  ASSERT_TRUE(st);
  EXPECT_EQ(st->pitchBytes, 288);
  EXPECT_EQ(st->chunkRows, 16);
  EXPECT_EQ(st->warpBytes(), 16 * 288);
  // Each half-warp's 8-byte stores (lane l: row l / 4, bytes 8 (l % 4) ..
  // + 7) hit 32 different banks, for every warp tile width.
  for (int64_t cols : {16, 32, 64, 128}) {
    int64_t pitch = cols * 4 + 32;
    for (int half = 0; half < 2; ++half) {
      uint64_t banks = 0;
      for (int l = 16 * half; l < 16 * half + 16; ++l)
        for (int word = 0; word < 2; ++word)
          banks |= uint64_t(1) << ((l / 4 * pitch + 8 * (l % 4) + 4 * word) / 4 % 32);
      EXPECT_EQ(banks, 0xFFFFFFFFu) << cols << " columns";
    }
  }
  // Seed 000's 64x64x16: 16 warps of 16 x 16 in a 2 x 8 KiB ring: 16-row
  // areas (16 x 16 x 96 = 24 KiB) do not fit, 8-row ones (12 KiB) do.
  s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_64x64x16.yaml");
  st = mmaSyncStaging(s, computeResources(s));
  ASSERT_TRUE(st);
  EXPECT_EQ(st->pitchBytes, 96);
  EXPECT_EQ(st->chunkRows, 8);
  // With a bf16 C those 8 rows are 16 units of 16 bytes: half a round of
  // the warp's lanes, so the epilogue stores from registers.
  s.c.element = ElementType::BF16;
  EXPECT_FALSE(mmaSyncStaging(s, computeResources(s)));
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
  // stream_k is built (branch sm80g); its split_k form is not yet.
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml");
  s.tileScheduler.kind = TileSchedulerKind::StreamK;
  EXPECT_TRUE(checkLoweringSupport(s).empty());
  s.tileScheduler.splitK = 2;
  std::vector<Violation> v = checkLoweringSupport(s);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] split_k > 1 is not implemented yet; use 1");
}

TEST(Sm80, FusedEpilogueIsBuiltWithItsParameters) {
  // The fused epilogue (EpilogueMath) runs in sm_80's stores: a bias, an
  // activation and aux are accepted, and the kernel takes `bias` and `aux`
  // after alpha and beta (this spec has beta), as on sm_90a.
  KernelSpec s = specAt(GEMMC_SOURCE_DIR "/specs/a100_bf16_128x256x64.yaml");
  s.epilogue.bias = Bias::Col;
  s.epilogue.biasElement = ElementType::F32;
  s.epilogue.activation = Activation::GeluTanh;
  s.epilogue.aux = true;
  EXPECT_TRUE(checkLoweringSupport(s).empty());
  KernelAbi abi = describeKernelAbi(s);
  EXPECT_EQ(abi.params, (std::vector<std::string>{"a", "b", "c", "m", "n", "k", "ldc", "lda",
                                                   "ldb", "alpha", "beta", "bias", "aux"}));
}

} // namespace
