// gemmc tune's engine (lib/Model/Tune.cpp): every schedule it proposes is
// one the spec validator and the lowering accept, and the model's top 3 on
// the anchor shapes is stable and explained.
#include "gemmc/Model/Tune.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/Target/Backend.h"
#include "Suite.h"

#include "llvm/Support/MemoryBuffer.h"
#include <map>
#include <set>
#include <gtest/gtest.h>

using namespace gemmc;

namespace {

TuneFamily decodeFamily() {
  TuneFamily f;
  f.shapes = {{16, 8192, 8192}, {64, 8192, 8192}, {256, 28672, 8192}};
  return f;
}

// Each candidate, written as a spec file and read back by the parser, passes
// every rule (SpecFile::parse runs checkSpec) and the lowering's check, and
// reads back as the same schedule.
TEST(Tune, EveryProposalPassesTheValidator) {
  // M <= 64 only: the family that gets swap_ab and split_k schedules too.
  TuneFamily smallM;
  smallM.shapes = {{1, 4096, 4096}, {33, 8192, 28672}};
  // FP8 with scales: per row / column (the scales written into each spec)
  // and block (the fold fields off their defaults written too).
  TuneFamily rowCol, block;
  for (TuneFamily *f : {&rowCol, &block}) {
    f->a = f->b = ElementType::E4M3;
    f->shapes = {{8192, 8192, 8192}};
  }
  rowCol.aScale = Scale::Row;
  rowCol.bScale = Scale::Col;
  block.aScale = block.bScale = Scale::Block;
  // A fused epilogue and a PDL wait (a bundle's `auto` rule takes its first
  // spec file's): every candidate carries them and the writer keeps them.
  TuneFamily fused;
  fused.shapes = {{512, 28672, 8192}};
  fused.epilogue.bias = Bias::Col;
  fused.epilogue.biasElement = ElementType::BF16;
  fused.epilogue.activation = Activation::GeluTanh;
  fused.pdlWait = PdlWait::BeforeLoads;
  for (TuneFamily f : {decodeFamily(), smallM, rowCol, block, fused, TuneFamily{}}) {
    if (f.shapes.empty()) {
      // f16, both operands K-major... and an N-major B.
      f.a = f.b = f.c = ElementType::F16;
      f.bLayout = Layout::Row;
      f.shapes = {{4096, 4096, 4096}, {1000, 8192, 4096}};
    }
    llvm::Expected<TuneResult> r = tune(f);
    ASSERT_TRUE(bool(r)) << llvm::toString(r.takeError());
    ASSERT_FALSE(r->ranked.empty());
    EXPECT_EQ(r->enumerated, r->refusedByRules + r->refusedByLowering +
                                 r->duplicates + r->ranked.size());
    for (const TuneCandidate &c : r->ranked) {
      std::string yaml = specToYaml(c.spec, {"a comment"});
      std::string diags;
      llvm::raw_string_ostream os(diags);
      std::unique_ptr<SpecFile> file = SpecFile::fromString(yaml, "tuned.yaml", os);
      ASSERT_TRUE(file);
      ASSERT_TRUE(file->parse()) << yaml << diags;
      EXPECT_TRUE(checkLoweringSupport(file->spec()).empty()) << yaml;
      EXPECT_EQ(specToYaml(file->spec(), {}), specToYaml(c.spec, {}));
      EXPECT_EQ(file->spec().mainloop.stages, c.spec.mainloop.stages);
      // What the writer must not drop (specToYaml of both sides would agree
      // even if it did): the scales and the fold.
      const KernelSpec &back = file->spec();
      EXPECT_EQ(back.a.scale, f.aScale) << yaml;
      EXPECT_EQ(back.b.scale, f.bScale) << yaml;
      EXPECT_EQ(back.mainloop.foldColumns, c.spec.mainloop.foldColumns) << yaml;
      EXPECT_EQ(back.mainloop.foldGroup, c.spec.mainloop.foldGroup) << yaml;
      EXPECT_EQ(back.mainloop.stageScales, c.spec.mainloop.stageScales) << yaml;
      EXPECT_EQ(back.mainloop.aBoxRows, c.spec.mainloop.aBoxRows) << yaml;
      EXPECT_EQ(back.epilogue.bias, f.epilogue.bias) << yaml;
      EXPECT_EQ(back.epilogue.biasElement, f.epilogue.biasElement) << yaml;
      EXPECT_EQ(back.epilogue.activation, f.epilogue.activation) << yaml;
      EXPECT_EQ(back.pdlWait, f.pdlWait) << yaml;
      for (const ProblemShape &p : f.shapes) {
        KernelSpec s = file->spec();
        // A swap_ab spec holds the swapped kernel's view (M is p's N).
        s.m.value = s.swapAb ? p.n : p.m;
        s.n.value = s.swapAb ? p.m : p.n;
        s.k.value = p.k;
        EXPECT_TRUE(checkSpec(s).empty()) << yaml;
      }
    }
  }
}

// The ranking is a pure function of the family: two runs agree, and the
// scores rise.
TEST(Tune, Deterministic) {
  llvm::Expected<TuneResult> a = tune(decodeFamily());
  llvm::Expected<TuneResult> b = tune(decodeFamily());
  ASSERT_TRUE(bool(a) && bool(b));
  ASSERT_EQ(a->ranked.size(), b->ranked.size());
  for (size_t i = 0; i < a->ranked.size(); ++i) {
    EXPECT_EQ(specToYaml(a->ranked[i].spec, {}), specToYaml(b->ranked[i].spec, {}));
    if (i) {
      EXPECT_LE(a->ranked[i - 1].score, a->ranked[i].score);
    }
  }
  // 1.0 only for a schedule that is the model's best on every shape.
  EXPECT_GE(a->ranked.front().score, 1.0);
}

// A in boxes (mainloop.a_box_rows): tried only on a schedule the screen
// passed, only where a shape's last row tile has a kABoxRows-row box wholly
// past M, never under swap_ab; each boxed candidate follows its one-box twin
// where the model cannot tell them apart.
TEST(Tune, ABoxRowsWhereABoxLiesPastM) {
  TuneFamily whole;
  whole.shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}};
  llvm::Expected<TuneResult> r = tune(whole);
  ASSERT_TRUE(bool(r));
  for (const TuneCandidate &c : r->ranked)
    EXPECT_EQ(c.spec.mainloop.aBoxRows, 0) << specToYaml(c.spec, {});

  llvm::Expected<TuneResult> d = tune(decodeFamily());
  ASSERT_TRUE(bool(d));
  size_t boxed = 0;
  std::map<std::string, size_t> rank;
  for (auto [i, c] : llvm::enumerate(d->ranked))
    rank[specToYaml(c.spec, {})] = i;
  for (auto [i, c] : llvm::enumerate(d->ranked)) {
    if (c.spec.mainloop.aBoxRows == 0)
      continue;
    ++boxed;
    EXPECT_EQ(c.spec.mainloop.aBoxRows, kABoxRows);
    EXPECT_FALSE(c.spec.swapAb);
    EXPECT_GT(c.spec.blockM(), kABoxRows);
    bool edge = llvm::any_of(decodeFamily().shapes, [&](const ProblemShape &p) {
      return boxesSaveZeroRows(p.m, c.spec.blockM(), kABoxRows);
    });
    EXPECT_TRUE(edge) << specToYaml(c.spec, {});
    KernelSpec twin = c.spec;
    twin.mainloop.aBoxRows = 0;
    auto it = rank.find(specToYaml(twin, {}));
    ASSERT_NE(it, rank.end()) << "no one-box twin of " << specToYaml(c.spec, {});
    if (d->ranked[it->second].score == c.score) {
      EXPECT_LT(it->second, i);
    }
  }
  // M = 16 and 64 on 128-row tiles: boxes of 32 rows skip 96 and 64 zero
  // rows a stage; some such schedule passes the rules.
  EXPECT_GT(boxed, 0u);
}

TEST(Tune, RefusesAnEmptyFamily) {
  TuneFamily f;
  llvm::Expected<TuneResult> r = tune(f);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()), "the family has no shape; give at least one");
  f.shapes = {{1, 1, 1}};
  f.device = "h300";
  r = tune(f);
  ASSERT_FALSE(bool(r));
  EXPECT_EQ(llvm::toString(r.takeError()), "unknown device 'h300'; known: a100, h100, h200, b200");
}

/// bench/suites/anchors.yaml, the 11 anchor shapes.
void readAnchors(gemmc::bench::Suite &suite) {
  auto text = llvm::MemoryBuffer::getFile(GEMMC_SOURCE_DIR "/bench/suites/anchors.yaml");
  ASSERT_TRUE(bool(text));
  std::string error;
  ASSERT_TRUE(gemmc::bench::parseSuite((*text)->getBuffer().str(), "anchors.yaml", suite, error)) << error;
}

/// "128x256x64 warp_specialized_cooperative persistent 1x1 tma": what tells
/// two schedules of the top 3 apart.
std::string brief(const KernelSpec &kernel) {
  // The caller's view (a swap_ab spec is held swapped).
  const KernelSpec s = kernel.swapAb ? swapAbView(kernel) : kernel;
  return std::string(s.swapAb ? "swap_ab " : "") +
         (s.tileScheduler.splitK > 1 ? "split_k " + std::to_string(s.tileScheduler.splitK) + " " : "") +
         std::to_string(s.blockM()) + "x" + std::to_string(s.blockN()) + "x" +
         std::to_string(s.blockK()) + " " + kernelScheduleName(s.kernelSchedule).str() + " " +
         tileSchedulerKindName(s.tileScheduler.kind).str() + " " + rasterName(s.tileScheduler.raster).str() +
         "/" + std::to_string(s.tileScheduler.group) + " " + std::to_string(s.clusterShape[0]) + "x" +
         std::to_string(s.clusterShape[1]) + (s.mainloop.multicast ? "mc" : "") + " " +
         storeKindName(s.epilogue.store).str() +
         (s.mainloop.aBoxRows > 0 ? " a_box_rows " + std::to_string(s.mainloop.aBoxRows) : "");
}

// The model's top 3 per anchor shape (bench/suites/anchors.yaml), bf16, A
// row-major, B col-major, on the H200. A change to the model or the space
// that moves these is a change to explain in docs/model.md; the GPU side of
// the check (model top 3 against the measured best) is docs/tuning.md's
// sweep run. These are the model as of this commit, not the measured best
// (AnchorTop3HoldsTheMeasuredBest checks that): since the shared-memory
// term (issue 16) 128x256 tiles lead on the large shapes where 64x64 and
// 64x128 did; on M <= 64 swap_ab schedules (not measured yet) lead. Since
// the stream-K hand-over term (docs/model.md 6c) stream_k falls behind
// persistent where it splits tiles (cube4096, decode_mlp_up), and 128x224
// (1.94 waves of 256 tiles on decode_mlp_up) leads there; on cube8192
// 128x192 (10.67 waves) edges 128x256 (7.76) by 0.7%, not measured yet.
// Since the issue-path term (docs/model.md 6d) a multistage schedule pays
// 50 ns per K step (its warps issue loads and MMAs and wait together), so
// the same tile's warp_specialized data_parallel twin (two consumer
// warpgroups) takes its place on cube4096, decode_mlp_up and skinny_seed1;
// on decode_m64 64x128 pingpong (64 tiles, one MMA warpgroup each) gives
// way to 64x64 multistage direct, and on decode_m16 the swap_ab 32x64
// pingpong (128 tiles, one a CTA) falls behind 64x64 pingpong, whose 128
// 64-row tiles are as many, and swap_ab 32x128 warp_specialized. Since the
// L2-partition term (docs/model.md 4b) a one-wave grid of lone issuers reads
// a shared panel once per L2 partition: the 64x64 tiles at M = 64 and 16
// read A (one panel, 128 sharers) twice, +0.3-0.8%. On decode_m64 64x64
// pingpong drops 0.6% below swap_ab 32x64 multistage, which was its twin
// (within 0.5%: kTwinTolerance) and is now listed second; on decode_m16
// 64x64 multistage drops to within 0.5% of swap_ab 32x128
// warp_specialized (unchanged), which becomes its twin, and 128x64
// warp_specialized (two issuers, unchanged) is third. Since Little's law
// asks only for what HBM feeds an SM (docs/model.md 5), the swap_ab tiles of
// 8 and 16 activation rows are no longer "load-latency" bound at M = 16 and
// lead there (swap_ab 16x64 without split-K measured 0.95-1.00x cuBLAS at
// M = 1-16 on N = 6144 in scripts/gpu_tune3.sh's round 1). Since the TMA
// fill term (docs/model.md 6e) each box row past the matrix costs the SM's
// fill 3.5 ns: on decode_m16 64x64 pingpong (48 zero rows in each A box)
// gives way to swap_ab 32x64 multistage. Since the mainloop's parts overlap
// as their 12-norm (docs/model.md 7e), a tile whose fills or HBM come close
// to its math pays for it: on cube8192 the 128x192 tiles (fills at 78% of
// the math, measured 2-3% slower than 128x256 in tune5 r1) fall behind
// 128x256 stream_k, and on decode_m64 64x64 pingpong leads swap_ab 32x64.
// Since swap_ab's weight panels are read once per activation tile
// (docs/model.md 4c), a swap_ab tile that needs two activation tiles for M
// falls behind one that covers M: on decode_m64 swap_ab 32x64 gives way to
// 64x64 multistage direct and swap_ab 64x128 warp_specialized, on decode_m16
// swap_ab 8x64 pingpong to 16x64 pingpong, with swap_ab 32x64 multistage and
// 32x128 warp_specialized (one tile each) after it. Since pingpong takes
// two 64-row blocks of up to 192 columns a warpgroup (session 27), the
// 128x192 pingpong leads cube8192 (measured 1.026 of cuBLAS against the
// 128x256 cooperative kernel's 1.001, bench/RESULTS.md session 27 round
// g2), its stream_k twin second, and on decode_mlp_up the 128x192 pingpong
// under stream_k is third (the 128x160 pingpong, the measured best there at
// 1.015, is fifth, 1.7% behind it; the 128x224 tiles ahead of both are not
// measured). Since tune tries A in 32-row boxes (mainloop.a_box_rows,
// docs/model.md 6e; session 35) where a tile's last row tile has boxes
// wholly past M, a 64-row tile at M = 16 fills 16 zero rows a stage, not
// 48, and a 128-row one at M = 64 none: on decode_m64 128x64
// warp_specialized with boxes takes third place from swap_ab 64x128, and
// on decode_m16 64x64 pingpong with boxes from swap_ab 32x128 (neither
// measured yet: bench/lead35 round l3).
TEST(Tune, AnchorTop3IsStableAndExplained) {
  gemmc::bench::Suite suite;
  ASSERT_NO_FATAL_FAILURE(readAnchors(suite));
  const std::map<std::string, std::vector<std::string>> expected = {
      {"cube4096",
       {"128x256x64 warp_specialized persistent along_n/8 1x1 tma",
        "128x256x64 warp_specialized data_parallel along_n/8 1x1 tma",
        "256x128x64 warp_specialized persistent along_m/8 1x1 tma"}},
      {"cube8192",
       {"128x192x64 warp_specialized_pingpong persistent along_n/8 1x1 tma",
        "128x192x64 warp_specialized_pingpong stream_k along_n/8 1x1 tma",
        "128x256x64 warp_specialized persistent along_n/8 1x1 tma"}},
      {"decode_mlp_up",
       {"128x224x64 warp_specialized persistent along_m/8 1x1 direct",
        "128x224x64 warp_specialized data_parallel along_m/8 1x1 direct",
        "128x192x64 warp_specialized_pingpong stream_k along_m/8 1x1 tma"}},
      {"decode_m64",
       {"64x64x64 warp_specialized_pingpong persistent along_m/1 1x1 tma",
        "64x64x64 multistage data_parallel along_m/1 1x1 direct",
        "128x64x64 warp_specialized data_parallel along_m/1 1x1 tma a_box_rows 32"}},
      {"decode_m16",
       {"swap_ab 16x64x64 warp_specialized_pingpong persistent along_m/1 1x1 direct",
        "swap_ab 32x64x64 multistage data_parallel along_m/1 1x1 direct",
        "64x64x64 warp_specialized_pingpong persistent along_m/1 1x1 tma a_box_rows 32"}},
      {"skinny_seed1",
       {"128x256x64 warp_specialized persistent along_m/8 1x1 tma",
        "128x256x64 warp_specialized data_parallel along_m/8 1x1 tma",
        "256x128x64 warp_specialized persistent along_m/8 1x1 tma"}},
  };

  size_t checked = 0;
  for (const gemmc::bench::SuiteShape &shape : suite.shapes) {
    auto it = expected.find(shape.name);
    if (it == expected.end())
      continue;
    ++checked;
    TuneFamily f;
    f.shapes = {{shape.m, shape.n, shape.k}};
    llvm::Expected<TuneResult> r = tune(f);
    ASSERT_TRUE(bool(r));
    std::vector<TunePick> top = pickDistinct(*r, 3);
    ASSERT_EQ(top.size(), 3u);
    std::vector<std::string> got;
    for (const TunePick &p : top) {
      const TuneCandidate &c = r->ranked[p.index];
      got.push_back(brief(c.spec));
      // Explained: the reasons name the prediction and its bottleneck.
      std::vector<std::string> why = tuneReasons(c, p.index + 1, *r);
      ASSERT_EQ(why.size(), 4u);
      EXPECT_NE(why[3].find("bottleneck " + bottleneckName(c.shapes[0].analysis.bottleneck).str()),
                std::string::npos)
          << why[3];
    }
    EXPECT_EQ(got, it->second) << shape.name;
  }
  EXPECT_EQ(checked, expected.size()) << "an expected anchor is missing from anchors.yaml";
}

// Issue 16: decode_qkv (M = 256, N = 10240, K = 8192) is 1.21 waves of
// 128x128 tiles (160 on 132 SMs). Before the stream-K hand-over term
// (docs/model.md 6c) the model put stream_k first there (balance for free),
// which measured 0.71-0.82x cuBLAS at M = 256 where cooperative tiles reached
// 0.92-0.995x. Now: the first pick is 128 tiles of 128x160 (0.97 waves, data
// parallel), no stream_k is in the top 3, and the best stream_k schedule is
// behind it by the term: without its refills and hand-over it would lead.
// The first pick is warp_specialized since the issue-path term (docs/model.md
// 6d): the multistage twin it replaced pays 128 K steps x 50 ns.
TEST(Tune, OnePointTwoWavesPrefersAWholeWaveOverStreamK) {
  TuneFamily f;
  f.shapes = {{256, 10240, 8192}};
  llvm::Expected<TuneResult> r = tune(f);
  ASSERT_TRUE(bool(r));
  std::vector<TunePick> top = pickDistinct(*r, 3);
  ASSERT_EQ(top.size(), 3u);
  const TuneCandidate &first = r->ranked[top[0].index];
  EXPECT_EQ(brief(first.spec), "128x160x64 warp_specialized data_parallel along_m/1 1x1 direct");
  EXPECT_EQ(first.shapes[0].analysis.tiles, 128);
  for (const TunePick &p : top)
    EXPECT_NE(r->ranked[p.index].spec.tileScheduler.kind, TileSchedulerKind::StreamK)
        << brief(r->ranked[p.index].spec);
  // The model's best stream_k schedule is behind the first pick by the
  // term alone: without its refills and hand-over it would lead.
  const TuneCandidate *sk = nullptr;
  for (const TuneCandidate &c : r->ranked)
    if (c.spec.tileScheduler.kind == TileSchedulerKind::StreamK) {
      sk = &c;
      break;
    }
  ASSERT_TRUE(sk);
  const Analysis &a = sk->shapes[0].analysis, &best = first.shapes[0].analysis;
  EXPECT_GT(a.predictedSec, best.predictedSec) << brief(sk->spec);
  double term = (a.streamKRefillSec + a.streamKFixupSec) / a.efficiency;
  EXPECT_LT(a.predictedSec - term, best.predictedSec) << brief(sk->spec);
}

// Issue 16: for each anchor shape, the spec measured best there is among
// the model's top 3 schedules (those it tells apart, pickDistinct). The
// measurements: bench/RESULTS.md, commit 7321cf4, gemmc / cuBLAS in one run
// (and docs/ablation.md for stream-K). Only kinds of schedule that have
// been measured on the shape compete, since the claim is about the
// measured best: no swap_ab or split_k (swapAbMaxM = 0), and no stream_k
// on decode_qkv, decode_mlp_up and decode_mlp_down, where it was never run
// (the model ranks 128x192 and 128x256 stream_k first there, 10-27% ahead:
// scripts/gpu_small.sh measures it); and not decode_qkv at all, where the
// model's top 3 without stream_k is 128x192 multistage and 64x192 pingpong
// (one wave of 108 tiles where 128x256 leaves 52 SMs idle), never measured
// there: AnchorMeasuredSpecsRankedAsMeasured covers it. Where stream_k was measured the model
// still overrates it on 8192^3 and prefill_mlp_up (first, 2.4% and 1.1%
// ahead of persistent; measured 0.94-1.00 and 0.95 against 0.98 and 0.96),
// but the measured best stays in the top 3. Schedules predicted within
// kTwinTolerance of each other are one (pickDistinct). Before the shared-memory term (docs/model.md,
// "Shared-memory bandwidth") the model's top 3 on cube4096, cube8192,
// prefill_mlp_up, decode_mlp_up and skinny_seed1 was 64x64 and 64x128
// warp_specialized stream_k tiles (measured at 0.52-0.66 of cuBLAS as the
// 64x128 spec), on decode_m64 / decode_m16 64x64 pingpong.
TEST(Tune, AnchorTop3HoldsTheMeasuredBest) {
  gemmc::bench::Suite suite;
  ASSERT_NO_FATAL_FAILURE(readAnchors(suite));
  // shape -> the measured best spec (specs/NAME.yaml), and what it measured.
  const std::set<std::string> streamKNeverRun = {"decode_mlp_up", "decode_mlp_down"};
  const std::map<std::string, std::pair<std::string, std::string>> best = {
      {"cube4096", {"h200_bf16_128x256_coop", "1.000 (128x128 coop 0.941, 64x128 multistage 0.560)"}},
      // Session 27 (bench/RESULTS.md, lead round g2): the 128x192 pingpong
      // 1.026-1.027 where the 128x256 cooperative kernel ran 1.001.
      {"cube8192", {"h200_bf16_128x192_pp", "1.026 (128x256 coop 1.001, 128x128 coop 0.970)"}},
      {"prefill_attn_out", {"h200_bf16_128x256_coop", "1.010 (128x128 coop 0.974)"}},
      {"prefill_mlp_up", {"h200_bf16_128x256_coop", "1.006 (128x128 coop 0.951, 64x128 0.523)"}},
      {"skinny_seed1", {"h200_bf16_128x256_coop", "0.996 (128x128 coop 0.943, 64x128 0.561)"}},
      // Session 32 (lead round i2): the 128x224 warp_specialized kernel
      // 1.043-1.048 where the 128x160 pingpong (session 27's best, the
      // model's third pick) ran 1.014-1.020 and the 128x256 cooperative 1.000.
      {"decode_mlp_up", {"h200_bf16_128x224_ws", "1.045 (128x160 pp 1.017, 128x256 coop 1.000, 128x128 coop 0.922)"}},
      {"decode_attn_out", {"h200_bf16_decode_128x128_coop", "0.956 (128x256 coop 0.559, stream-K 128x256 0.79)"}},
      {"decode_mlp_down", {"h200_bf16_decode_128x128_coop", "0.985 (128x256 coop 0.619)"}},
      // A later run measured 64x64 pingpong too (bench/results/2026-11-30-session2/small-m-bench.txt):
      // 225.4 TFLOP/s against 205.5 for the 64x128 multistage spec, cuBLAS 220.4 / 219.6.
      {"decode_m64", {"test/gpu/small/pp_tn_64x64", "1.023 (64x128 multistage 0.936, 128x128 coop 0.696)"}},
      {"decode_m16", {"h200_bf16_decode_m64_64x128", "0.875 (128x128 coop 0.552, stream-K 128x256 0.79)"}},
  };
  // decode_m16 was the one miss from the issue-path term (docs/model.md 6d)
  // to the TMA fill term (6e): the model put 64x64 pingpong first (36.3 us),
  // which small-m-bench.txt measured at 53.6 us against 41.8 us for the
  // 64x128 multistage spec, while the same 64x64 kernel ran 38.1 us at
  // M = 64. The 48 zero rows of its A boxes tell M = 16 from M = 64 now, and
  // the measured best is in the top 3.
  const std::set<std::string> knownMiss = {};
  TuneSpace measured;
  // swap_ab and split_k were not among the kernels these rows measured.
  measured.swapAbMaxM = 0;
  measured.splitK = {};
  // A in boxes (a_box_rows) is not measured at these M yet (bench/lead35
  // round l3): the model puts 64x64 pingpong with 32-row boxes first at
  // decode_m16 (37.4 us, 16 zero rows a stage where one box has 48).
  measured.aBoxRows = {};
  size_t checked = 0;
  for (const gemmc::bench::SuiteShape &shape : suite.shapes) {
    auto it = best.find(shape.name);
    if (it == best.end())
      continue;
    ++checked;
    // A name with a folder is relative to the source root, else in specs/.
    const std::string &name = it->second.first;
    std::string path = std::string(GEMMC_SOURCE_DIR) +
                       (name.find('/') == std::string::npos ? "/specs/" : "/") + name + ".yaml";
    std::unique_ptr<SpecFile> file = SpecFile::open(path, llvm::errs());
    ASSERT_TRUE(file && file->parse()) << path;
    ProblemShape p{shape.m, shape.n, shape.k};
    llvm::Expected<Analysis> mine = analyze(file->spec(), p);
    ASSERT_TRUE(bool(mine));
    TuneFamily f;
    f.shapes = {p};
    llvm::Expected<TuneResult> r = tune(f, measured);
    ASSERT_TRUE(bool(r));
    if (streamKNeverRun.count(shape.name))
      llvm::erase_if(r->ranked, [](const TuneCandidate &c) {
        return c.spec.tileScheduler.kind == TileSchedulerKind::StreamK;
      });
    std::vector<TunePick> top = pickDistinct(*r, 3);
    ASSERT_EQ(top.size(), 3u);
    double third = r->ranked[top.back().index].shapes[0].analysis.predictedSec;
    std::string picks;
    for (const TunePick &t : top)
      picks += "\n  " + brief(r->ranked[t.index].spec) + ": " +
               std::to_string(r->ranked[t.index].shapes[0].analysis.predictedSec * 1e6) + " us";
    if (knownMiss.count(shape.name)) {
      EXPECT_GT(mine->predictedSec, third * (1 + kTwinTolerance))
          << shape.name << " is in the top 3 now: take it out of knownMiss";
      continue;
    }
    EXPECT_LE(mine->predictedSec, third * (1 + kTwinTolerance))
        << shape.name << ": measured best " << it->second.first << " at " << it->second.second
        << " of cuBLAS is predicted " << mine->predictedSec * 1e6 << " us; the model's top 3:" << picks;
  }
  EXPECT_EQ(checked, best.size());
}

// Issue 16: the five bf16 A-row B-col specs of specs/ that one H200 run
// measured on all eleven anchor shapes (bench/RESULTS.md, 7321cf4, gemmc /
// cuBLAS in the same process), ranked by the model on each shape: its first
// (or a twin of it, kTwinTolerance) is the measured best. The measured
// ratios, in the order of `specs`:
TEST(Tune, AnchorMeasuredSpecsRankedAsMeasured) {
  const std::vector<std::string> specs = {"h200_bf16_128x256_coop", "h200_bf16_decode_128x128_coop",
                                          "h200_bf16_decode_m64_64x128", "h200_bf16_tn",
                                          "h200_bf16_tn_128x256_coop_mc"};
  const std::map<std::string, std::vector<double>> measured = {
      {"cube4096", {1.000, 0.941, 0.560, 0.686, 1.002}},
      {"cube8192", {1.009, 0.970, 0.547, 0.675, 1.028}},
      {"prefill_attn_out", {1.010, 0.974, 0.540, 0.672, 1.028}},
      {"prefill_mlp_up", {1.006, 0.951, 0.523, 0.658, 1.005}},
      {"decode_attn_out", {0.559, 0.956, 0.585, 0.723, 0.554}},
      {"decode_qkv", {0.695, 0.629, 0.501, 0.463, 0.692}},
      {"decode_mlp_up", {1.001, 0.927, 0.657, 0.711, 0.995}},
      {"decode_mlp_down", {0.619, 0.985, 0.629, 0.757, 0.618}},
      {"decode_m64", {0.459, 0.683, 0.887, 0.595, 0.239}},
      {"decode_m16", {0.454, 0.552, 0.875, 0.539, 0.234}},
      {"skinny_seed1", {0.996, 0.943, 0.561, 0.675, 0.989}},
  };
  std::vector<KernelSpec> kernels;
  for (const std::string &name : specs) {
    std::string path = GEMMC_SOURCE_DIR "/specs/" + name + ".yaml";
    std::unique_ptr<SpecFile> file = SpecFile::open(path, llvm::errs());
    ASSERT_TRUE(file && file->parse()) << path;
    kernels.push_back(file->spec());
  }
  gemmc::bench::Suite suite;
  ASSERT_NO_FATAL_FAILURE(readAnchors(suite));
  size_t checked = 0;
  for (const gemmc::bench::SuiteShape &shape : suite.shapes) {
    const std::vector<double> &ratio = measured.at(shape.name);
    ++checked;
    size_t bestMeasured = std::max_element(ratio.begin(), ratio.end()) - ratio.begin();
    std::vector<double> predicted;
    for (const KernelSpec &k : kernels) {
      llvm::Expected<Analysis> a = analyze(k, {shape.m, shape.n, shape.k});
      ASSERT_TRUE(bool(a));
      predicted.push_back(a->predictedSec);
    }
    double fastest = *std::min_element(predicted.begin(), predicted.end());
    EXPECT_LE(predicted[bestMeasured], fastest * (1 + kTwinTolerance))
        << shape.name << ": measured best " << specs[bestMeasured] << " (" << ratio[bestMeasured]
        << ") predicted " << predicted[bestMeasured] * 1e6 << " us, the model's fastest " << fastest * 1e6 << " us";
  }
  EXPECT_EQ(checked, measured.size());
}

} // namespace
