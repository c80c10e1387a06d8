// The compiler's side of the kernel ABI (describeKernelAbi, the manifest it
// writes) against the runtime's side (the manifest parser): every spec the
// lowering builds must produce a manifest the runtime accepts, with the same
// parameters, tensor maps, shared memory and workspace. Catches a change on
// one side of docs/abi.md that the other side does not know.
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"

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
    // The manifest names parameters as the caller sees them (swap_ab
    // exchanges A's and B's, M's and N's).
    for (size_t i = 0; i < m.params.size(); ++i)
      EXPECT_EQ(rt::paramName(m.params[i]), callerParamName(b->abi.params[i], b->spec.swapAb));
    EXPECT_EQ(m.hasParam(rt::Param::TmapC), storesWithTma(b->abi));
    EXPECT_EQ(m.dynamicSmemBytes, b->abi.dynamicSmemBytes);
    EXPECT_EQ(m.block[0], b->abi.block[0]);
    EXPECT_EQ(m.cluster[0], b->abi.cluster[0]);
    EXPECT_EQ(m.cluster[1], b->abi.cluster[1]);
    EXPECT_EQ(m.workspaceBytesPerCta, b->abi.workspaceBytesPerCta);
    EXPECT_EQ(m.scheduler == rt::Scheduler::StreamK,
              b->spec.tileScheduler.kind == TileSchedulerKind::StreamK);
    // The FP8 scales: the manifest's operand says so exactly when the spec
    // does, and the kernel then takes the pointer.
    EXPECT_EQ(m.a.scale != GEMMC_SCALE_NONE, b->spec.a.scale != Scale::None);
    EXPECT_EQ(m.b.scale != GEMMC_SCALE_NONE, b->spec.b.scale != Scale::None);
    EXPECT_EQ(m.hasParam(rt::Param::ScaleA), b->spec.a.scale != Scale::None);
    EXPECT_EQ(m.c.scale != GEMMC_SCALE_NONE, b->spec.c.scale != Scale::None);
    EXPECT_EQ(m.hasParam(rt::Param::ScaleD), b->spec.c.scale != Scale::None);
    if (storesWithTma(b->abi)) {
      EXPECT_EQ(m.tmap(rt::Operand::C).box[0], uint32_t(b->abi.c.box[0]));
      EXPECT_EQ(m.tmap(rt::Operand::C).box[1], uint32_t(b->abi.c.box[1]));
    }
    ++checked;
  }
  // specs/ and test/gpu/specs/ hold 42 sm_90a specs, 11 more with a fused
  // epilogue or PDL (issue 15), 12 FP8 and TF32 ones (issue 14), 3 FP8
  // ones at 128x128 with an f32 output, promoted or not (issue 14), 14 sm_80
  // specs the lowering builds (4 with 64x64 warp tiles, issue 12's sm80perf), and 9 sm_100a ones (b200_ladder_2, _3, _4,
  // _5, _7 and _8, b200_bf16_tn, b200_f16_tn_persistent,
  // b200_tf32_tn_persistent), and 5 clusters along N (issue 16:
  // h200_bf16_128x256_coop_1x2, cluster_1x2_* and cluster_2x2_*) and seed
  // 004's step 6 on sm_100a, and 3 FP8 promotion-interval specs (issue 14),
  // and 2 of four consumer warpgroups (ws4_tn_256x128_*, the register pool),
  // and 1 that loads the weights before griddepcontrol.wait (issue 15),
  // and 3 block-scaled FP8 specs (issue 14), and 3 with an FP8 output
  // (issue 14: h200_fp8_e4m3_out_e4m3_128x256_coop, fp8_out_*).
  // and 6 more sm_100a ones (issue 13: b200_ladder_1_kloop, one stage;
  // b200_fp8_e4m3_128x256 and b200_fp8_e4m3_e5m2_128x256; the Llama 3 70B
  // b200_llama70b_prefill and _decode; b200_f16_128x256_1x2).
  // and 4 sm_80 ones with 64x64 warp tiles (a100_*_128x256x32, a100_*_128x128x32_w4),
  // and 2 swap_ab PDL specs (pdl_swab_tn_32x64_pp, pdl_b_swab_tn_32x64_pp).
  // and 1 sm_100a stream_k spec (issue 13: b200_bf16_streamk).
  // and 4 PDL specs of issue 15's second round: after_prologue
  // (pdl_p_coop_decode_128x128, pdl_p_swab_tn_32x64_pp), ctas_per_sm: 2
  // (pdl_c2_swab_tn_32x64_pp) and both (pdl_p2_swab_tn_32x64_pp).
  // and 5 block-scaled FP8 specs folding in column parts (issue 14, blk3:
  // h200_fp8_e4m3_blockscale_128x{128,192}_fold*_coop, fp8_blockscale_*_fold*),
  // less a100_tf32_128x128x32_w4 (moved to bench/results/2026-12-01-sm80d: it spills
  // with the staged epilogue),
  // and 2 sm_80 ones back from there (branch sm80e: a100_bf16_128x256x64,
  // a100_tf32_128x256x32_tn),
  // and 1 block-scaled FP8 spec taking its parts one at a time (issue 14,
  // fp8f: h200_fp8_e4m3_blockscale_128x256_fold128_g1_coop),
  // 3 block-scaled FP8 correctness cases with stage_scales (issue 14,
  // fp8g: fp8_blockscale_*_ss), and 4 sm_80 stream_k ones (branch sm80g:
  // sm80_bf16_tn_64x128_sk, sm80_tf32_tn_64x64x16_sk, a100_bf16_128x256x64_sk,
  // a100_tf32_128x256x32_tn_sk),
  // and 2 block-scaled FP8 correctness cases taking the parts one at a time
  // with stage_scales (issue 14, fp8h: fp8_blockscale_128x256_fold128_g1_sk_ss,
  // fp8_blockscale_64x256_fold128_g1_pp_ss),
  // less a100_tf32_128x256x32_tn_sk (moved to bench/results/2026-12-01-sm80i:
  // it spills for sm_90, the code the H200's JIT runs),
  // and 3 pingpong correctness cases with BLOCK_M = 128 (issue 14, fp8k:
  // pp128_tn_direct_beta, pp128_nn_tma_f32out_c12, fp8_rowcol_128x128_pp_c2_relu),
  // and 1 per-tensor FP8 spec in a 2x1 cluster (issue 14, session 10:
  // h200_fp8_e4m3_128x256_coop_2x1).
  // and 2 FP8 pingpong specs with 128x128 tiles (issue 14, session 11, fp8m:
  // h200_fp8_e4m3_rowcol_128x128_pp, h200_fp8_e4m3_128x128_pp),
  // and 2 FP8 specs for the 8192-class cubes (issue 14, session 13:
  // h200_fp8_e4m3_128x256_sk_coop, h200_fp8_e4m3_blockscale_128x256_fold128_g1_g16_coop),
  // and 3 FP8 small-M specs (issue 14, session 14: h200_fp8_e4m3_swab_32x128_sk2,
  // h200_fp8_e4m3_swab_16x128_coop, h200_fp8_e4m3_64x128_pp) and 3 for narrow layers
  // (session 14: h200_fp8_e4m3_swab_16x64_ws, h200_fp8_e4m3_64x64_sk2, h200_fp8_e4m3_128x64_ws),
  // and their 6 per-row/column forms (session 15: h200_fp8_e4m3_rowcol_{swab_16x64_ws,
  // swab_32x128_sk2, swab_16x128_coop, 64x64_sk2, 128x64_ws, 64x128_pp}; three swap_ab),
  // and 2 block-scaled small-M specs (session 15: h200_fp8_e4m3_blockscale_64x128_pp_ss, _64x128_ws_sk2),
  // and 1 block-scaled spec on three consumer warpgroups (session 16:
  // h200_fp8_e4m3_blockscale_192x128_ws),
  // and 1 sm_100a FP8 spec with per-row/column scales (issue 14, session
  // 24: b200_fp8_e4m3_rowcol_128x256),
  // and 1 sm_100a block-scaled FP8 spec and 1 with an FP8 output (issue 14,
  // session 25: b200_fp8_e4m3_blockscale_128x128, b200_fp8_e4m3_out_e4m3_128x256),
  // and 5 sm_80 GPU-suite specs with a fused epilogue (session 26:
  // test/gpu/specs/sm80_*_{gelu,relu,silu}*), and 1 sm_100a spec with a
  // fused bias and tanh GELU (session 26: b200_bf16_tn_bias_gelu),
  // and 2 FP8 pingpong specs with a 128x192 tile and their GPU-suite case
  // (session 27: h200_fp8_e4m3_128x192_pp, h200_fp8_e4m3_rowcol_128x192_pp,
  // test/gpu/specs/fp8_rowcol_128x192_pp), and 2 bf16 ones (session 27:
  // h200_bf16_128x192_pp, h200_bf16_128x160_pp), and 2 bf16 ones for M = 256
  // and 384 of the 28672-wide layer (session 32: h200_bf16_128x224_ws,
  // h200_bf16_64x256_pp_sk), and 2 FP8 ones for M = 129-192 of that layer
  // (session 33: h200_fp8_e4m3_64x192_pp, h200_fp8_e4m3_rowcol_64x192_pp),
  // and 2 FP8 ones with A in boxes of 32 rows for M = 257-288 of that layer
  // (session 34: h200_fp8_e4m3_128x192_pp_abox32,
  // h200_fp8_e4m3_rowcol_128x128_pp_abox32), and 4 with A in boxes for
  // session 36's bundle rules (h200_bf16_128x192_pp_abox32,
  // h200_bf16_64x64_pp_abox32, h200_bf16_decode_m64_64x128_abox32,
  // h200_fp8_e4m3_128x64_ws_abox32), and 3 of gemmc tune's picks for
  // session 37's bf16 rules (h200_bf16_128x64_ws_abox32,
  // h200_bf16_64x128_ws_sk2_abox32, h200_bf16_swab_16x64_pp), 4 for session
  // 38's (h200_bf16_128x192_pp_abox32_sk, h200_bf16_128x64_ws,
  // h200_bf16_64x192_pp, h200_bf16_64x64_pp) and 2 with K split for session
  // 39's (h200_bf16_128x64_ws_sk2, h200_bf16_128x64_ws_sk3), and the
  // block-scaled bundle's default of session 43
  // (h200_fp8_e4m3_blockscale_128x256_ws: wait_ahead, unroll 2).
  EXPECT_EQ(checked, 191);
}

// Clusters along N share A: each CTA of a cluster row loads 1/CY of A's box
// rows (128 / 2 = 64) into all of them; [2, 2] also halves B's (256 / 2 =
// 128 rows when K-major, 4 / 2 = 2 slabs of 64 columns when N-major). The
// manifest carries the cluster as the spec writes it.
TEST(KernelAbi, ClustersAlongNShareA) {
  std::optional<Built> b = build(GEMMC_SOURCE_DIR "/specs/h200_bf16_128x256_coop_1x2.yaml");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->abi.cluster[0], 1);
  EXPECT_EQ(b->abi.cluster[1], 2);
  EXPECT_EQ(b->abi.a.multicast, 2);
  EXPECT_EQ(b->abi.a.box[0], 64);
  EXPECT_EQ(b->abi.a.box[1], 64);
  EXPECT_EQ(b->abi.a.partBytes, 64 * 64 * 2);
  EXPECT_EQ(b->abi.b.multicast, 1);
  EXPECT_EQ(b->abi.b.box[1], 256);
  // Shared memory is the 1x1 spec's: multicast changes who loads, not what.
  EXPECT_EQ(b->abi.dynamicSmemBytes, 4 * 49152 + 32768 + 1024 + 64);
  EXPECT_NE(b->json.find("\"cluster\": [\n    1,\n    2,\n    1\n  ]"), std::string::npos)
      << b->json;
  std::optional<Built> q = build(GEMMC_SOURCE_DIR "/test/gpu/specs/cluster_2x2_tn_coop.yaml");
  ASSERT_TRUE(q);
  EXPECT_EQ(q->abi.a.multicast, 2);
  EXPECT_EQ(q->abi.a.box[1], 64);
  EXPECT_EQ(q->abi.b.multicast, 2);
  EXPECT_EQ(q->abi.b.box[1], 128);
  EXPECT_EQ(q->abi.b.partBytes, 128 * 64 * 2);
  KernelSpec nn = q->spec;
  nn.b.layout = Layout::Row;
  KernelAbi abi = describeKernelAbi(nn);
  EXPECT_EQ(abi.b.loadsPerStage, 2);
  EXPECT_EQ(abi.b.box[0], 64);
  EXPECT_EQ(abi.b.partBytes, 2 * 64 * 64 * 2);
}

// mainloop.a_box_rows: A's box is that many rows and a stage's tile comes
// in BLOCK_M / a_box_rows of them; the tile, its bytes and shared memory are
// the one-box spec's, and B is untouched.
TEST(KernelAbi, ABoxRows) {
  std::optional<Built> b = build(GEMMC_SOURCE_DIR "/specs/h200_fp8_e4m3_128x192_pp_abox32.yaml");
  std::optional<Built> one = build(GEMMC_SOURCE_DIR "/specs/h200_fp8_e4m3_128x192_pp.yaml");
  ASSERT_TRUE(b && one);
  EXPECT_EQ(b->abi.a.box[0], 128);
  EXPECT_EQ(b->abi.a.box[1], 32);
  EXPECT_EQ(b->abi.a.rowBoxes, 4);
  EXPECT_EQ(b->abi.a.loadsPerStage, 1);
  EXPECT_EQ(b->abi.a.partBytes, one->abi.a.partBytes);
  EXPECT_EQ(one->abi.a.box[1], 128);
  EXPECT_EQ(one->abi.a.rowBoxes, 1);
  EXPECT_EQ(b->abi.b.box[1], one->abi.b.box[1]);
  EXPECT_EQ(b->abi.b.rowBoxes, 1);
  EXPECT_EQ(b->abi.dynamicSmemBytes, one->abi.dynamicSmemBytes);
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

TEST(KernelAbi, B200UnswizzledSlabsAndPairs) {
  // Seed 004's step 3 (128x256x16 f16, smem_swizzle: none): TMA writes a
  // box row-major, and the MMAs read core matrices of 8 rows x 16 bytes, so
  // each operand comes in slabs one 16-byte unit (8 f16) of K wide: A two
  // boxes {8, 128} 2048 bytes apart, B two {8, 256} 4096 apart.
  std::optional<Built> step3 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_3_warpspec.yaml");
  ASSERT_TRUE(step3);
  EXPECT_EQ(step3->abi.a.box[0], 8);
  EXPECT_EQ(step3->abi.a.box[1], 128);
  EXPECT_EQ(step3->abi.a.loadsPerStage, 2);
  EXPECT_EQ(step3->abi.a.slabBytes, 2048);
  EXPECT_EQ(step3->abi.a.swizzleBytes, 0);
  EXPECT_EQ(step3->abi.b.box[0], 8);
  EXPECT_EQ(step3->abi.b.box[1], 256);
  EXPECT_EQ(step3->abi.b.loadsPerStage, 2);
  EXPECT_EQ(step3->abi.b.slabBytes, 4096);
  // Stages of 4096 + 8192 bytes, the 1024-byte pad, 4 x 16 bytes of stage
  // barriers, 16 of the accumulator's, the 8-byte tensor-memory slot.
  EXPECT_EQ(step3->abi.dynamicSmemBytes, 4 * 12288 + 1024 + 64 + 16 + 8);
  // Step 7 (a CTA pair): each CTA loads B's rows rank x 128 .. + 127, one
  // box {64, 128}; the cluster is 2 x 1.
  std::optional<Built> step7 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_7_pairs.yaml");
  ASSERT_TRUE(step7);
  EXPECT_EQ(step7->abi.b.box[0], 64);
  EXPECT_EQ(step7->abi.b.box[1], 128);
  EXPECT_EQ(step7->abi.b.partBytes, 16384);
  EXPECT_EQ(step7->abi.cluster[0], 2);
  EXPECT_EQ(step7->abi.cluster[1], 1);
}

// The runtime side of seed 004's built steps, from the manifests gemmc
// writes: step 3's unswizzled slabs become tensor maps with swizzle 0 and
// 8-element boxes; step 7's pair launches 2 x 1 clusters, a CTA per
// 128 x 256 tile (4096^3: 32 x 16 = 512, already whole pairs); step 8's
// persistent pairs one CTA per SM of the B200's 148 (whole pairs), its two
// accumulator buffers allocated by the kernel (no manifest field).
TEST(KernelAbi, B200ManifestsPlanned) {
  std::string error;
  std::optional<Built> step3 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_3_warpspec.yaml");
  ASSERT_TRUE(step3);
  rt::Manifest m3;
  ASSERT_TRUE(rt::parseManifest(step3->json, "step3.cubin.json", m3, error)) << error;
  EXPECT_EQ(m3.tmap(rt::Operand::A).swizzle, 0);
  EXPECT_EQ(m3.tmap(rt::Operand::A).box[0], 8u);
  EXPECT_EQ(m3.tmap(rt::Operand::B).box[1], 256u);
  EXPECT_EQ(m3.dynamicSmemBytes, 50264);
  std::optional<Built> step7 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_7_pairs.yaml");
  std::optional<Built> step8 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_8_persistent.yaml");
  ASSERT_TRUE(step7 && step8);
  rt::Manifest m7, m8;
  ASSERT_TRUE(rt::parseManifest(step7->json, "step7.cubin.json", m7, error)) << error;
  ASSERT_TRUE(rt::parseManifest(step8->json, "step8.cubin.json", m8, error)) << error;
  EXPECT_EQ(m7.cluster[0], 2);
  EXPECT_EQ(m7.cluster[1], 1);
  EXPECT_EQ(m7.tmap(rt::Operand::B).box[1], 128u);
  rt::LaunchDims d;
  ASSERT_TRUE(rt::computeLaunch(m7, 4096, 4096, 148, d, error)) << error;
  EXPECT_EQ(d.grid[0], 512u);
  EXPECT_EQ(d.cluster[0], 2u);
  EXPECT_EQ(d.block[0], 192u);
  EXPECT_EQ(d.dynamicSmemBytes, 230488u);
  ASSERT_TRUE(rt::computeLaunch(m8, 4096, 4096, 148, d, error)) << error;
  EXPECT_EQ(d.grid[0], 148u);
  EXPECT_EQ(d.cluster[0], 2u);
  EXPECT_EQ(d.dynamicSmemBytes, 230504u);
  // Llama 3 70B decode (M = 256): 2 x 32 tiles, 32 pairs.
  ASSERT_TRUE(rt::computeLaunch(m8, 256, 8192, 148, d, error)) << error;
  EXPECT_EQ(d.grid[0], 64u);
}

// Issue 14: FP8 tiles are 128 bytes of K in one swizzle span (box 128 x
// rows), TF32 tiles 32 f32; a scaled kernel takes scale_a and scale_b after
// alpha, an unscaled one (or one scaling only A) none or one.
TEST(KernelAbi, Fp8AndTf32) {
  std::optional<Built> fp8 = build(GEMMC_SOURCE_DIR "/specs/h200_fp8_e4m3_128x256_coop.yaml");
  ASSERT_TRUE(fp8);
  EXPECT_EQ(fp8->abi.params,
            (std::vector<std::string>{"tmap_a", "tmap_b", "tmap_c", "c", "m", "n", "k", "ldc", "alpha",
                                      "scale_a", "scale_b"}));
  EXPECT_EQ(fp8->abi.a.box[0], 128);
  EXPECT_EQ(fp8->abi.a.box[1], 128);
  EXPECT_EQ(fp8->abi.b.box[0], 128);
  EXPECT_EQ(fp8->abi.b.box[1], 256);
  EXPECT_EQ(fp8->abi.a.loadsPerStage, 1);
  // The same 48 KiB stages as the bf16 128x256x64 kernel.
  EXPECT_EQ(fp8->abi.dynamicSmemBytes, 4 * 49152 + 32768 + 1024 + 64);
  EXPECT_NE(fp8->json.find("\"scale\": \"tensor\""), std::string::npos);
  std::optional<Built> aOnly = build(GEMMC_SOURCE_DIR "/test/gpu/specs/fp8_e5m2_e4m3_64x256_pp.yaml");
  ASSERT_TRUE(aOnly);
  EXPECT_EQ(aOnly->abi.params.back(), "scale_a");
  std::optional<Built> none = build(GEMMC_SOURCE_DIR "/test/gpu/specs/fp8_e4m3_noscale_128x256_coop.yaml");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->abi.params.back(), "alpha");
  EXPECT_EQ(none->json.find("\"scale\""), std::string::npos);
  // Scale vectors: the same parameters; the manifest says which kind.
  std::optional<Built> rowcol = build(GEMMC_SOURCE_DIR "/specs/h200_fp8_e4m3_rowcol_128x256_coop.yaml");
  ASSERT_TRUE(rowcol);
  EXPECT_EQ(rowcol->abi.params, fp8->abi.params);
  EXPECT_NE(rowcol->json.find("\"scale\": \"row\""), std::string::npos);
  EXPECT_NE(rowcol->json.find("\"scale\": \"col\""), std::string::npos);
  std::optional<Built> tf32 = build(GEMMC_SOURCE_DIR "/specs/h200_tf32_128x256_coop.yaml");
  ASSERT_TRUE(tf32);
  EXPECT_EQ(tf32->abi.a.box[0], 32);
  EXPECT_EQ(tf32->abi.b.box[0], 32);
  EXPECT_EQ(tf32->abi.b.box[1], 256);
  EXPECT_EQ(tf32->abi.c.box[0], 32); // 128 B of f32
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

TEST(Backend, StreamKWholeWaves) {
  // gemmc.stream_k_plan's rule, which the model reads (session 18): on
  // sm_90a (aligned) 128x256 tiles on 132 CTAs split cube4096's remainder
  // alone (512 = 3 x 132 + 116, 116 >= 99) and the 8192 cubes' with the wave
  // before it (2048 = 15 x 132 + 68); sm_80 always takes the wave before.
  const StreamKPolicy &h = backendFor(Arch::SM90a).streamK;
  const StreamKPolicy &a = backendFor(Arch::SM80).streamK;
  EXPECT_TRUE(h.splitAligned);
  EXPECT_FALSE(a.splitAligned);
  EXPECT_EQ(h.wholeWaves(512, 132), 3);
  EXPECT_EQ(a.wholeWaves(512, 132), 2);
  EXPECT_EQ(h.wholeWaves(2048, 132), 14);
  EXPECT_EQ(h.wholeWaves(3 * 132 + 99, 132), 3);  // exactly 3/4 of a wave: alone
  EXPECT_EQ(h.wholeWaves(3 * 132 + 98, 132), 2);
  EXPECT_EQ(h.wholeWaves(528, 132), 4);           // whole waves only
  EXPECT_EQ(h.wholeWaves(100, 132), 0);           // fewer tiles than CTAs
  EXPECT_EQ(h.wholeWaves(200, 132), 0);           // 68 left: split with the wave
  EXPECT_EQ(a.wholeWaves(200, 132), 0);
  EXPECT_EQ(backendFor(Arch::SM100a).streamK.wholeWaves(512, 132), 3);
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
  // sm_100a: seed 004's step 6 (a 2x2 multicast cluster of cta_group::1
  // CTAs) builds, as do steps 1-5, 7 and 8 and b200_bf16_tn (TMA store,
  // persistent), and a [1, 2] multicast cluster (gemmc.stage_release's
  // `ctas` tells it from a pair); not without multicast, nor unswizzled.
  std::optional<Built> step6 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_6_multicast.yaml");
  ASSERT_TRUE(step6);
  EXPECT_TRUE(checkLoweringSupport(step6->spec).empty());
  EXPECT_EQ(mmaCtaGroup(step6->spec), 1);
  KernelSpec alongN = step6->spec;
  alongN.clusterShape = {1, 2};
  EXPECT_TRUE(checkLoweringSupport(alongN).empty());
  EXPECT_EQ(mmaCtaGroup(alongN), 1);
  alongN.mainloop.multicast = false;
  v = checkLoweringSupport(alongN);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "cluster_shape");
  EXPECT_EQ(v[0].str(), "[not-implemented] cluster_shape [1, 2] without multicast is not "
                        "implemented on sm_100a yet: a cluster is built as a CTA pair "
                        "(cta_group::2: [2, 1] with multicast: true and BLOCK_M = 128 a CTA) "
                        "or as a [1, 2] or 2x2 multicast cluster; use [2, 1], [1, 2] or "
                        "[2, 2] with multicast: true, or [1, 1]");
  KernelSpec alongNUnswizzled = step6->spec;
  alongNUnswizzled.clusterShape = {1, 2};
  alongNUnswizzled.mainloop.swizzle = Swizzle::None;
  v = checkLoweringSupport(alongNUnswizzled);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] a 1x2 multicast cluster with smem_swizzle: none is "
                        "not implemented on sm_100a yet; use smem_swizzle: 128b, 64b or 32b");
  KernelSpec unswizzled = step6->spec;
  unswizzled.mainloop.swizzle = Swizzle::None;
  v = checkLoweringSupport(unswizzled);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] a 2x2 multicast cluster with smem_swizzle: none is "
                        "not implemented on sm_100a yet; use smem_swizzle: 128b, 64b or 32b");
  for (const char *name : {"b200_ladder_2_pipeline", "b200_ladder_3_warpspec",
                           "b200_ladder_4_swizzle", "b200_ladder_7_pairs",
                           "b200_ladder_8_persistent", "b200_bf16_tn"}) {
    SCOPED_TRACE(name);
    std::optional<Built> b = build(std::string(GEMMC_SOURCE_DIR "/specs/") + name + ".yaml");
    ASSERT_TRUE(b);
    EXPECT_TRUE(checkLoweringSupport(b->spec).empty());
  }
  // A 2x1 cluster without multicast is no pair, and multistage pairs are
  // not built.
  std::optional<Built> step7 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_7_pairs.yaml");
  ASSERT_TRUE(step7);
  EXPECT_EQ(mmaCtaGroup(step7->spec), 2);
  KernelSpec noMulticast = step7->spec;
  noMulticast.mainloop.multicast = false;
  EXPECT_EQ(mmaCtaGroup(noMulticast), 1);
  v = checkLoweringSupport(noMulticast);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].field, "cluster_shape");
  KernelSpec multistagePair = step7->spec;
  multistagePair.kernelSchedule = KernelSchedule::Multistage;
  v = checkLoweringSupport(multistagePair);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] a CTA pair with kernel_schedule: multistage is not "
                        "implemented on sm_100a yet; use warp_specialized");
  // A swizzled stage holds one span of K: 64 bytes of f16 is BLOCK_K = 32.
  std::optional<Built> step4 = build(GEMMC_SOURCE_DIR "/specs/b200_ladder_4_swizzle.yaml");
  ASSERT_TRUE(step4);
  KernelSpec swizzle64 = step4->spec;
  swizzle64.mainloop.swizzle = Swizzle::B64;
  v = checkLoweringSupport(swizzle64);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].str(), "[not-implemented] BLOCK_K = 64 (128 bytes of K per row) with "
                        "smem_swizzle 64b is not implemented on sm_100a yet: a stage takes one "
                        "64-byte swizzle span of K; use BLOCK_K = 32 or smem_swizzle: none");
  swizzle64.tileShape[2] = 32;
  EXPECT_TRUE(checkLoweringSupport(swizzle64).empty());
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
