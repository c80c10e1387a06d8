// The compiler's side of the kernel ABI (describeKernelAbi, the manifest it
// writes) against the runtime's side (the manifest parser): every spec the
// lowering builds must produce a manifest the runtime accepts, with the same
// parameters, tensor maps, shared memory and workspace. Catches a change on
// one side of docs/abi.md that the other side does not know.
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/runtime/Manifest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace gemmc;

namespace {

struct Built {
  KernelSpec spec;
  KernelAbi abi;
  std::string json;
};

std::optional<Built> build(const std::string &path) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  auto file = SpecFile::open(path, os);
  if (!file || !file->parse())
    return std::nullopt;
  Built b{file->spec(), describeKernelAbi(file->spec()), ""};
  b.json = kernelManifestJson(b.spec, b.abi);
  return b;
}

std::vector<std::string> loweredSpecs() {
  std::vector<std::string> out;
  for (const char *dir : {"/specs", "/test/gpu/specs"}) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(GEMMC_SOURCE_DIR + std::string(dir), ec), end;
         it != end && !ec; it.increment(ec))
      if (llvm::sys::path::extension(it->path()) == ".yaml")
        out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(KernelAbi, EveryLoweredSpecsManifestParses) {
  int checked = 0;
  for (const std::string &path : loweredSpecs()) {
    std::optional<Built> b = build(path);
    ASSERT_TRUE(b) << path;
    if (!checkLoweringSupport(b->spec).empty())
      continue;
    SCOPED_TRACE(path);
    rt::Manifest m;
    std::string error;
    ASSERT_TRUE(rt::parseManifest(b->json, path + ".json", m, error)) << error;
    ASSERT_EQ(m.params.size(), b->abi.params.size());
    for (size_t i = 0; i < m.params.size(); ++i)
      EXPECT_EQ(rt::paramName(m.params[i]), b->abi.params[i]);
    EXPECT_EQ(m.hasParam(rt::Param::TmapC), storesWithTma(b->abi));
    EXPECT_EQ(m.dynamicSmemBytes, b->abi.dynamicSmemBytes);
    EXPECT_EQ(m.block[0], b->abi.block[0]);
    EXPECT_EQ(m.cluster[0], b->abi.cluster[0]);
    EXPECT_EQ(m.workspaceBytesPerCta, b->abi.workspaceBytesPerCta);
    EXPECT_EQ(m.scheduler == rt::Scheduler::StreamK,
              b->spec.tileScheduler.kind == TileSchedulerKind::StreamK);
    if (storesWithTma(b->abi)) {
      EXPECT_EQ(m.tmap(rt::Operand::C).box[0], uint32_t(b->abi.c.box[0]));
      EXPECT_EQ(m.tmap(rt::Operand::C).box[1], uint32_t(b->abi.c.box[1]));
    }
    ++checked;
  }
  // specs/ and test/gpu/specs/ hold 42 sm_90a specs, 11 more with a fused
  // epilogue or PDL (issue 15), 10 sm_80 specs the lowering builds, and 5
  // sm_100a ones (b200_ladder_4 and _5, b200_bf16_tn, b200_f16_tn_persistent,
  // b200_tf32_tn_persistent).
  EXPECT_EQ(checked, 68);
}

TEST(KernelAbi, TmaStoreCooperative) {
  std::optional<Built> b = build(GEMMC_SOURCE_DIR "/specs/h200_bf16_128x256_coop.yaml");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->abi.params,
            (std::vector<std::string>{"tmap_a", "tmap_b", "tmap_c", "c", "m", "n", "k",
                                      "ldc", "alpha"}));
  // 4 stages x 48 KiB + a ring of 2 chunks x 128 rows x 128 B + 1024 + 4 x 16.
  EXPECT_EQ(b->abi.dynamicSmemBytes, 4 * 49152 + 32768 + 1024 + 64);
  EXPECT_EQ(b->abi.c.box[0], 64); // 128 B of bf16
  EXPECT_EQ(b->abi.c.box[1], 64); // a warpgroup's rows
  EXPECT_EQ(b->abi.c.swizzleBytes, 128);
  EXPECT_EQ(b->abi.workspaceBytesPerCta, 0);
}

TEST(KernelAbi, StreamKAndF32Store) {
  std::optional<Built> sk = build(GEMMC_SOURCE_DIR "/test/gpu/specs/sk_tn_128x256.yaml");
  ASSERT_TRUE(sk);
  EXPECT_EQ(sk->abi.params.back(), "workspace");
  EXPECT_EQ(sk->abi.workspaceBytesPerCta, 128 + 128 * 256 * 4);
  std::optional<Built> f32 =
      build(GEMMC_SOURCE_DIR "/test/gpu/specs/tma_nn_128x256_f32out.yaml");
  ASSERT_TRUE(f32);
  EXPECT_EQ(f32->abi.c.box[0], 32); // 128 B of f32
  EXPECT_EQ(f32->abi.c.box[1], 64);
}

TEST(KernelAbi, WgmmaColumns) {
  std::string why;
  std::optional<Built> tn = build(GEMMC_SOURCE_DIR "/specs/h200_bf16_128x256_coop.yaml");
  std::optional<Built> nn = build(GEMMC_SOURCE_DIR "/specs/h200_bf16_nn_128x256_coop.yaml");
  ASSERT_TRUE(tn && nn);
  // Default: one instruction of BLOCK_N columns.
  EXPECT_EQ(wgmmaColumns(tn->spec, tn->abi, 0, why), 256);
  EXPECT_EQ(wgmmaColumns(nn->spec, nn->abi, 0, why), 256);
  // Explicit: any divisor that is a multiple of 8 (K-major B) or of the
  // 64-column slab (N-major B).
  EXPECT_EQ(wgmmaColumns(tn->spec, tn->abi, 128, why), 128);
  EXPECT_EQ(wgmmaColumns(tn->spec, tn->abi, 32, why), 32);
  EXPECT_EQ(wgmmaColumns(nn->spec, nn->abi, 128, why), 128);
  EXPECT_EQ(wgmmaColumns(nn->spec, nn->abi, 32, why), 0);
  EXPECT_EQ(why, "wgmma-n 32 does not fit BLOCK_N 256: it must divide it, be a multiple "
                 "of 8 between 8 and 256 and a multiple of B's 64-column slab");
  EXPECT_EQ(wgmmaColumns(tn->spec, tn->abi, 96, why), 0);
  EXPECT_EQ(why, "wgmma-n 96 does not fit BLOCK_N 256: it must divide it, be a multiple "
                 "of 8 between 8 and 256");
  std::optional<Built> tn192 = build(GEMMC_SOURCE_DIR "/test/gpu/specs/abl_coop_mc_128x192.yaml");
  ASSERT_TRUE(tn192);
  EXPECT_EQ(wgmmaColumns(tn192->spec, tn192->abi, 0, why), 192);
  EXPECT_EQ(wgmmaColumns(tn192->spec, tn192->abi, 96, why), 96);
}

TEST(Backend, EveryTargetLowersAndSaysWhatItDoesNot) {
  // lib/Target's table: sm_80, sm_90a and sm_100a each have their list of
  // what they do not build yet; seed 000's sm_80 kernel builds.
  EXPECT_NE(backendFor(Arch::SM90a).unsupported, nullptr);
  EXPECT_NE(backendFor(Arch::SM80).unsupported, nullptr);
  EXPECT_NE(backendFor(Arch::SM100a).unsupported, nullptr);
  std::optional<Built> a100 = build(GEMMC_SOURCE_DIR "/specs/a100_tf32_128x128x32.yaml");
  ASSERT_TRUE(a100);
  std::vector<Violation> v = checkLoweringSupport(a100->spec);
  EXPECT_TRUE(v.empty());
  // sm_100a: seed 004's step 6 asks for a 2x2 multicast cluster, which the
  // B200 lowering does not build yet; b200_bf16_tn (TMA store, persistent)
  // and step 4 build.
  std::optional<Built> step6 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_6_multicast.yaml");
  ASSERT_TRUE(step6);
  v = checkLoweringSupport(step6->spec);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "cluster_shape");
  EXPECT_EQ(v[0].str(), "[not-implemented] cluster_shape [2, 2] (TMA multicast, cta_group::2 "
                        "CTA pairs) is not implemented on sm_100a yet; use [1, 1]");
  std::optional<Built> b200 = build(GEMMC_SOURCE_DIR "/specs/b200_bf16_tn.yaml");
  ASSERT_TRUE(b200);
  EXPECT_TRUE(checkLoweringSupport(b200->spec).empty());
  std::optional<Built> step4 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_4_swizzle.yaml");
  ASSERT_TRUE(step4);
  EXPECT_TRUE(checkLoweringSupport(step4->spec).empty());
  // Step 2 (a 4-stage multistage loop without swizzle) asks for two things
  // the B200 lowering does not build.
  std::optional<Built> step2 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_2_pipeline.yaml");
  ASSERT_TRUE(step2);
  v = checkLoweringSupport(step2->spec);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].field, "kernel_schedule");
  EXPECT_EQ(v[1].field, "mainloop.smem_swizzle");
  std::optional<Built> coop = build(GEMMC_SOURCE_DIR "/specs/h200_bf16_128x256_coop.yaml");
  ASSERT_TRUE(coop);
  EXPECT_TRUE(checkLoweringSupport(coop->spec).empty());
  // Cooperative takes two warpgroups of wgmma's 64 rows.
  coop->spec.tileShape[0] = 192;
  v = checkLoweringSupport(coop->spec);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] warp_specialized_cooperative with BLOCK_M = 192 is "
                        "not implemented yet (each consumer warpgroup takes 64 rows); use "
                        "BLOCK_M = 128");
}

} // namespace
