//===- RulesTest.cpp - The rule library, resolveAuto and resources -------===//
#include "gemmc/Spec/Rules.h"
#include <gtest/gtest.h>

using namespace gemmc;

namespace {
/// A legal sm_90a bf16 TN spec on an H200; tests change one thing each.
KernelSpec h200() {
  KernelSpec s;
  s.schemaVersion = 1;
  s.name = "k";
  s.arch = Arch::SM90a;
  s.device = "h200";
  s.a = {ElementType::BF16, Layout::Row};
  s.b = {ElementType::BF16, Layout::Col};
  s.c = {ElementType::BF16, Layout::Row};
  s.tileShape = {128, 128, 64};
  return s;
}
KernelSpec a100() {
  KernelSpec s = h200();
  s.arch = Arch::SM80;
  s.device = "a100";
  return s;
}
KernelSpec b200() {
  KernelSpec s = h200();
  s.arch = Arch::SM100a;
  s.device = "b200";
  s.kernelSchedule = KernelSchedule::WarpSpecialized;
  return s;
}
/// The messages of a resolved spec's violations, "[rule] message" each.
std::vector<std::string> violations(KernelSpec s) {
  resolveAuto(s);
  std::vector<std::string> out;
  for (const Violation &v : checkSpec(s))
    out.push_back(v.str());
  return out;
}
using Msgs = std::vector<std::string>;
} // namespace

TEST(Rules, ListedInOrder) {
  ASSERT_EQ(allRules().size(), 21u);
  EXPECT_EQ(allRules().front().name, "unknown-key");
  EXPECT_EQ(allRules().back().name, "epilogue-fusion");
}

TEST(Rules, LegalSpecsHaveNoViolations) {
  EXPECT_EQ(violations(h200()), Msgs{});
  EXPECT_EQ(violations(b200()), Msgs{});
}

TEST(Rules, ResolveAutoH200) {
  KernelSpec s = h200();
  resolveAuto(s);
  EXPECT_EQ(s.mainloop.load, LoadKind::Tma);
  // TMA, and 128 columns x 2 B = two whole 128-byte chunks a row.
  EXPECT_EQ(s.epilogue.store, StoreKind::Tma);
  EXPECT_EQ(s.mainloop.swizzle, Swizzle::B128);
  EXPECT_EQ(s.threads, 256); // multistage: a warpgroup per 64 rows
  // 6 x 32 KiB + 32 KiB store ring (128 rows x 2 x 128 B) + 1 KiB + 6 x 16 B
  // = 225.1 KiB fits 227 KiB; 7 would not.
  EXPECT_EQ(s.mainloop.stages, 6);
  KernelSpec again = s;
  resolveAuto(again);
  EXPECT_EQ(again.mainloop.stages, 6); // idempotent
  // A tile row that is not whole 128-byte chunks keeps register stores.
  KernelSpec odd = h200();
  odd.tileShape = {128, 160, 64};
  resolveAuto(odd);
  EXPECT_EQ(odd.epilogue.store, StoreKind::Direct);
}

TEST(Rules, ResolveAutoStagesIsTheDeepestThatFits) {
  KernelSpec s = h200();
  s.tileShape = {128, 256, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  resolveAuto(s);
  EXPECT_EQ(s.threads, 384);
  EXPECT_EQ(s.mainloop.stages, 4);
  KernelSpec deeper = s;
  deeper.mainloop.stages = 5;
  EXPECT_GT(computeResources(deeper).smemBytes,
            deeper.deviceInfo().smemPerBlockBytes);
  EXPECT_LE(computeResources(s).smemBytes, s.deviceInfo().smemPerBlockBytes);
}

TEST(Rules, ResolveAutoCapsAndArchs) {
  KernelSpec small = h200();
  small.tileShape = {64, 64, 64};
  resolveAuto(small);
  EXPECT_EQ(small.mainloop.stages, 8); // TMA cap
  KernelSpec a = a100();
  resolveAuto(a);
  EXPECT_EQ(a.mainloop.load, LoadKind::CpAsync);
  EXPECT_EQ(a.threads, 256);
  EXPECT_EQ(a.mainloop.stages, 4); // cp.async cap
  KernelSpec b = b200();
  resolveAuto(b);
  EXPECT_EQ(b.threads, 192);
  EXPECT_EQ(b.epilogue.store, StoreKind::Tma);
  EXPECT_EQ(b.mainloop.stages, 6); // 6 x 32 KiB + 16 KiB ring on 227 KiB
  EXPECT_EQ(a.epilogue.store, StoreKind::Direct); // no TMA on sm_80
}

TEST(Rules, ResolveAutoSwizzleFollowsTheRow) {
  KernelSpec s = h200();
  s.tileShape = {128, 128, 32}; // 64 B rows
  resolveAuto(s);
  EXPECT_EQ(s.mainloop.swizzle, Swizzle::B64);
  KernelSpec t = h200();
  t.tileShape = {128, 128, 16}; // 32 B rows
  resolveAuto(t);
  EXPECT_EQ(t.mainloop.swizzle, Swizzle::B32);
}

TEST(Rules, ComputeResources) {
  KernelSpec s = h200();
  s.tileShape = {128, 256, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  s.mainloop.stages = 4;
  s.epilogue.store = StoreKind::Direct;
  resolveAuto(s);
  CtaResources r = computeResources(s);
  EXPECT_EQ(r.aStageBytes, 16 * 1024);
  EXPECT_EQ(r.bStageBytes, 32 * 1024);
  EXPECT_EQ(r.barrierBytes, 1024 + 4 * 16);
  EXPECT_EQ(r.epilogueBytes, 0);
  EXPECT_EQ(r.smemBytes, 4 * 48 * 1024 + 1024 + 64);
  EXPECT_EQ(r.threads, 384);
  EXPECT_EQ(r.consumerWarpgroups, 2);
  EXPECT_EQ(r.producerThreads, 128);
  EXPECT_EQ(r.accRegsPerThread, 128);
  EXPECT_EQ(r.regsPerThread, 128 + kRegisterOverhead);
  // The launch gives each of 384 threads 65536 / 384 = 170, by 8: 168;
  // the pool 64512, less 128 x 40 for the producer, over 256: 232, by 8.
  EXPECT_EQ(r.regCapPerThread, 232);
  // TMA store: 128 rows x 2 chunk buffers x 128-byte rows, and 4 stages
  // still fit (227 KiB = 232448 bytes).
  s.epilogue.store = StoreKind::Tma;
  EXPECT_EQ(computeResources(s).epilogueBytes, 32 * 1024);
  EXPECT_EQ(computeResources(s).smemBytes, 4 * 48 * 1024 + 32 * 1024 + 1024 + 64);
}

// setmaxnreg.inc waits until the CTA's pool holds what the consumers ask,
// and the pool is the launch allocation. BLOCK_M = 256 under
// warp_specialized is four consumer warpgroups and 640 threads, launched
// with 65536 / 640 = 102, by 8: 96 registers each (61440). Beside three or
// more consumer warpgroups the producer keeps setmaxnreg's floor, 24, so
// the cap must be (61440 - 128 x 24) / 512 = 114, by 8: 112. The SM's
// whole file over the consumers alone (65536 / 512 = 128) would need more
// than the pool and hung every consumer warp on the H200 (the stream-K spec
// of bench/results/2026-11-30-session2/suspected-hang-stream_k-256x128.yaml).
/// computeResources of an H200 spec with `tile` under `schedule`, autos resolved.
static CtaResources resourcesOf(I64x3 tile, KernelSchedule schedule) {
  KernelSpec s = h200();
  s.tileShape = tile;
  s.kernelSchedule = schedule;
  resolveAuto(s);
  return computeResources(s);
}

TEST(Rules, RegisterCapFitsTheLaunchPool) {
  CtaResources r = resourcesOf({256, 128, 64}, KernelSchedule::WarpSpecialized);
  EXPECT_EQ(r.threads, 640);
  EXPECT_EQ(r.consumerWarpgroups, 4);
  EXPECT_EQ(r.producerRegs, 24);
  EXPECT_EQ(r.regCapPerThread, 112);
  EXPECT_LE(r.regCapPerThread * 512 + 128 * r.producerRegs, 96 * 640);
}

// Two consumer warpgroups keep kProducerRegs (40): 384 threads launch with
// 168 (64512), and (64512 - 128 x 40) / 256 = 232. Three (BLOCK_M = 192)
// launch 512 threads with 128 (65536): the producer's 24 leave each consumer
// (65536 - 3072) / 384 = 162, by 8: 160, where 40 would leave 152 -- under
// the block-scaled 192x128 one-part fold's 64 + 64 + 32.
TEST(Rules, ProducerKeepsTheFloorBesideThreeConsumers) {
  CtaResources r2 = resourcesOf({128, 128, 64}, KernelSchedule::WarpSpecializedCooperative);
  EXPECT_EQ(r2.producerRegs, kProducerRegs);
  EXPECT_EQ(r2.regCapPerThread, 232);
  CtaResources r3 = resourcesOf({192, 128, 64}, KernelSchedule::WarpSpecialized);
  EXPECT_EQ(r3.consumerWarpgroups, 3);
  EXPECT_EQ(r3.producerRegs, 24);
  EXPECT_EQ(r3.regCapPerThread, 160);
}

// ctas_per_sm: 2 halves the launch pool: 384 threads launch with 65536 /
// 768 = 85, by 8: 80; the consumers may grow to (80 x 384 - 128 x 40) / 256
// = 100, by 8: 96. Auto stages stop at half an SM: 228 KiB / 2 - 1 KiB =
// 113 KiB.
TEST(Rules, TwoCtasPerSmHalveThePoolAndTheSharedMemory) {
  KernelSpec s = h200();
  s.tileShape = {64, 32, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedPingpong;
  s.tileScheduler.kind = TileSchedulerKind::Persistent;
  s.ctasPerSm = 2;
  resolveAuto(s);
  CtaResources r = computeResources(s);
  EXPECT_EQ(r.threads, 384);
  EXPECT_EQ(r.regCapPerThread, 96);
  EXPECT_LE(2 * (r.regCapPerThread * 256 + 128 * kProducerRegs), 65536);
  EXPECT_EQ(s.mainloop.stages, 8);
  EXPECT_LE(2 * (r.smemBytes + 1024), 228 * 1024);
  EXPECT_EQ(violations(s), Msgs{});
  // A 128x128 tile of 32 KiB stages beside its TMA-store epilogue's ring
  // (at least 2 x 16 KiB): auto takes 2 (64 + 32 KiB + barriers; a third
  // stage would need 129 KiB).
  KernelSpec big = h200();
  big.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  big.ctasPerSm = 2;
  resolveAuto(big);
  EXPECT_EQ(big.mainloop.stages, 2);
  EXPECT_LE(computeResources(big).smemBytes, 113 * 1024);
}

TEST(Rules, EpilogueRingDividesTheRow) {
  // A 192-column bf16 row is 3 chunks of 128 B. Chunk c of every tile uses
  // buffer c % ring, so the ring must divide 3: the whole row when it fits
  // (4 stages of 40 KiB leave 65.9 KiB), else a single buffer, never 2.
  KernelSpec s = h200();
  s.tileShape = {128, 192, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  s.epilogue.store = StoreKind::Tma;
  s.mainloop.stages = 4;
  CtaResources r = computeResources(s);
  EXPECT_EQ(r.epilogueChunks, 3);
  EXPECT_EQ(r.epilogueBuffers, 3);
  s.mainloop.stages = 5;
  r = computeResources(s);
  EXPECT_EQ(r.epilogueBuffers, 1);
  EXPECT_EQ(r.epilogueBytes, 128 * 128);
  EXPECT_EQ(minEpilogueBuffers(s, 3), 1);
  EXPECT_EQ(minEpilogueBuffers(s, 4), 2);
  EXPECT_EQ(minEpilogueBuffers(s, 8), 2);
  EXPECT_EQ(minEpilogueBuffers(s, 1), 1);
  s.kernelSchedule = KernelSchedule::WarpSpecializedPingpong;
  EXPECT_EQ(minEpilogueBuffers(s, 4), 1);
}

TEST(Rules, EpilogueBuffersFixTheRing) {
  // epilogue.buffers: the ring takes exactly that many buffers (it does not
  // grow into the room the stages leave), and auto stages plan around it.
  // bf16 128x256x64 (48 KiB stages, 4 chunks a row): auto takes 4 stages
  // and grows the ring to 2; with buffers: 1 it stays 1 (16 KiB).
  KernelSpec s = h200();
  s.tileShape = {128, 256, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  s.tileScheduler.kind = TileSchedulerKind::Persistent;
  s.epilogue.store = StoreKind::Tma;
  KernelSpec fixed = s;
  fixed.epilogue.buffers = 1;
  resolveAuto(s);
  resolveAuto(fixed);
  EXPECT_EQ(s.mainloop.stages, 4);
  EXPECT_EQ(fixed.mainloop.stages, 4);
  EXPECT_EQ(computeResources(s).epilogueBuffers, 2);
  CtaResources r = computeResources(fixed);
  EXPECT_EQ(r.epilogueBuffers, 1);
  EXPECT_EQ(r.epilogueBytes, 128 * 128);
  EXPECT_EQ(minEpilogueBuffers(fixed, 4), 1);
  // At 3 stages auto grows to the whole row; buffers: 2 keeps 2.
  s.mainloop.stages = fixed.mainloop.stages = 3;
  fixed.epilogue.buffers = 2;
  EXPECT_EQ(computeResources(s).epilogueBuffers, 4);
  EXPECT_EQ(computeResources(fixed).epilogueBuffers, 2);
  EXPECT_EQ(violations(fixed), Msgs{});
  fixed.epilogue.buffers = 3;
  EXPECT_EQ(violations(fixed),
            Msgs{"[smem-budget] buffers: 3 does not divide a tile row's 4 "
                 "chunks of 128 bytes; use buffers: auto or one of 1, 2, 4"});
  fixed.epilogue.buffers = -1;
  EXPECT_EQ(violations(fixed),
            Msgs{"[value-range] buffers = -1 is negative; use auto or a "
                 "divisor of a tile row's chunks"});
}

TEST(Rules, FormatBytes) {
  EXPECT_EQ(formatBytes(48 * 1024), "48 KiB");
  EXPECT_EQ(formatBytes(1024 + 80), "1.1 KiB");
  EXPECT_EQ(formatBytes(300), "300 B");
}

TEST(Rules, ValueRange) {
  KernelSpec s = h200();
  s.tileShape = {0, 128, 2048};
  EXPECT_EQ(violations(s),
            (Msgs{"[value-range] tile_shape BLOCK_M = 0 is outside [1, 1024]",
                  "[value-range] tile_shape BLOCK_K = 2048 is outside [1, 1024]"}));
  KernelSpec t = h200();
  t.tileScheduler.splitK = 2000;
  EXPECT_EQ(violations(t),
            Msgs{"[value-range] split_k = 2000 is outside [1, 1024]"});
}

TEST(Rules, SchemaVersionAndDevice) {
  KernelSpec s = h200();
  s.schemaVersion = 2;
  EXPECT_EQ(violations(s), Msgs{"[schema-version] schema_version 2 is not "
                                "supported; this gemmc reads schema_version 1"});
  KernelSpec d = h200();
  d.device = "a100";
  EXPECT_EQ(violations(d),
            Msgs{"[device] device a100 is sm_80, but the spec's arch is "
                 "sm_90a; use arch: sm_80 or another device"});
}

TEST(Rules, ArchFeatures) {
  KernelSpec s = a100();
  s.mainloop.load = LoadKind::Tma;
  EXPECT_EQ(violations(s),
            Msgs{"[arch-features] load: tma needs the Tensor Memory "
                 "Accelerator, which sm_80 does not have; use load: cp_async"});
}

TEST(Rules, DtypeCombination) {
  KernelSpec s = h200();
  s.b.element = ElementType::F16;
  EXPECT_EQ(violations(s),
            Msgs{"[dtype-combination] a is bf16 but b is f16; an MMA "
                 "instruction multiplies equal types (or two FP8 types); use "
                 "the same element for both"});
}

TEST(Rules, OperandLayout) {
  KernelSpec s = h200();
  s.c.layout = Layout::Col;
  EXPECT_EQ(violations(s),
            Msgs{"[operand-layout] c must be row-major (N contiguous); to get "
                 "C^T, swap a and b and their layouts"});
}

TEST(Rules, MmaShape) {
  KernelSpec s = h200();
  s.tileShape = {96, 128, 64};
  EXPECT_EQ(violations(s),
            Msgs{"[mma-shape] BLOCK_M = 96 is not a whole number of the M = 64 "
                 "rows one warpgroup's wgmma covers; use BLOCK_M = 64"});
  KernelSpec b = b200();
  b.tileShape = {128, 136, 64};
  EXPECT_EQ(violations(b),
            Msgs{"[mma-shape] BLOCK_N = 136 is not a legal tcgen05.mma N for "
                 "M = 128 (a multiple of 16 from 16 to 256); use BLOCK_N = 128"});
}

TEST(Rules, KernelSchedule) {
  KernelSpec s = h200();
  s.kernelSchedule = KernelSchedule::WarpSpecializedPingpong;
  s.tileShape = {64, 128, 64};
  EXPECT_EQ(violations(s),
            Msgs{"[kernel-schedule] warp_specialized_pingpong alternates tiles "
                 "between two consumer warpgroups, so each CTA needs several "
                 "tiles; use tile_scheduler: {kind: persistent}"});
}

TEST(Rules, ThreadsPerBlock) {
  KernelSpec s = h200();
  s.threads = 100;
  EXPECT_EQ(violations(s),
            Msgs{"[threads-per-block] threads = 100, but kernel_schedule: "
                 "multistage with BLOCK_M = 128 on sm_90a runs 256 threads per "
                 "block; use threads: auto"});
}

TEST(Rules, TmaBox) {
  KernelSpec s = h200();
  s.tileShape = {128, 128, 32};
  s.mainloop.swizzle = Swizzle::B128;
  Msgs v = violations(s);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0], "[tma-box] the a tile's contiguous row is 32 elements x 2 B "
                  "= 64 B, not a whole number of the 128 B swizzle span; use "
                  "smem_swizzle: auto or a tile whose row is a multiple of 128 B");
  // No TMA on sm_80: arch-features speaks, tma-box stays silent.
  KernelSpec a = a100();
  a.mainloop.load = LoadKind::Tma;
  EXPECT_EQ(violations(a).size(), 1u);
}

TEST(Rules, StrideAlignment) {
  KernelSpec s = h200();
  s.n = Dim{4100};
  EXPECT_EQ(violations(s),
            Msgs{"[stride-alignment] c's row stride is n = 4100 x 2 B = 8200 "
                 "B, not a multiple of 16 B; pad n to 4104 or make it dynamic "
                 "and pad at run time"});
}

TEST(Rules, ClusterAndMulticast) {
  KernelSpec s = h200();
  s.clusterShape = {4, 4};
  EXPECT_EQ(violations(s),
            Msgs{"[cluster-size] cluster_shape [4, 4] = 16 CTAs exceeds the 8 "
                 "a portable cluster may have on sm_90a (non-portable sizes up "
                 "to 16 are not emitted by gemmc); use at most 8 CTAs"});
  KernelSpec m = h200();
  m.mainloop.multicast = true;
  EXPECT_EQ(violations(m),
            Msgs{"[multicast] multicast: true needs a cluster of more than one "
                 "CTA to multicast to; use cluster_shape [2, 1] (or [1, 2]) or "
                 "multicast: false"});
}

TEST(Rules, SmemBudget) {
  KernelSpec s = h200();
  s.tileShape = {128, 256, 64};
  s.kernelSchedule = KernelSchedule::WarpSpecializedCooperative;
  s.mainloop.stages = 5;
  s.epilogue.store = StoreKind::Direct;
  EXPECT_EQ(violations(s),
            Msgs{"[smem-budget] 5 stages x 48 KiB + 1.1 KiB barriers and "
                 "alignment = 241.1 KiB exceeds the 227 KiB a block may use on "
                 "sm_90a; use stages <= 4 or a smaller tile_shape"});
}

TEST(Rules, RegisterBudget) {
  KernelSpec s = a100();
  s.tileShape = {256, 256, 32};
  s.mainloop.stages = 2;
  EXPECT_EQ(violations(s),
            Msgs{"[register-budget] 256x256 fp32 accumulators over 256 threads "
                 "= 256 per thread + 40 overhead = 296 registers exceeds the "
                 "248 a thread may use here; use a smaller tile_shape"});
}

TEST(Rules, EpilogueFusion) {
  KernelSpec s = h200();
  s.epilogue.bias = Bias::Col;
  s.epilogue.biasElement = ElementType::F16;
  s.epilogue.activation = Activation::GeluTanh;
  s.epilogue.aux = true;
  EXPECT_EQ(violations(s), Msgs{});
  s.epilogue.biasElement = ElementType::E4M3;
  EXPECT_EQ(violations(s),
            Msgs{"[epilogue-fusion] a bias of e4m3 is not supported; use "
                 "bias_element bf16, f16 or f32"});
  s.epilogue.biasElement = ElementType::F32;
  s.epilogue.activation = Activation::Identity;
  EXPECT_EQ(violations(s),
            Msgs{"[epilogue-fusion] aux: true stores the pre-activation "
                 "value, which with activation: identity is the output "
                 "itself; use an activation (relu, gelu, gelu_tanh, silu) or "
                 "aux: false"});
  // Without a bias its element is not read.
  s = h200();
  s.epilogue.biasElement = ElementType::E4M3;
  EXPECT_EQ(violations(s), Msgs{});
}

TEST(Rules, PdlNeedsSm90) {
  KernelSpec s = h200();
  s.pdlWait = PdlWait::BeforeLoads;
  s.pdlLaunch = PdlLaunch::AfterMainloop;
  EXPECT_EQ(violations(s), Msgs{});
  s = a100();
  s.pdlLaunch = PdlLaunch::AfterMainloop;
  EXPECT_EQ(violations(s),
            Msgs{"[arch-features] programmatic dependent launch "
                 "(griddepcontrol) needs sm_90 or later, which sm_80 is not; "
                 "use pdl_wait: none and pdl_launch_dependents: none"});
}

TEST(Rules, TensorMemoryColumns) {
  // sm_100a: one fp32 column per accumulator column, one buffer per CTA
  // unless the scheduler gives it several tiles and two fit in 512 columns;
  // tcgen05.alloc takes a power of two of at least 32. Each buffer adds a
  // full and an empty mbarrier, plus the 8-byte address slot.
  KernelSpec s = b200();
  resolveAuto(s); // TMA, 128-byte swizzle
  s.mainloop.stages = 4;
  s.tileShape = {128, 256, 64};
  CtaResources one = computeResources(s);
  EXPECT_EQ(one.accBuffers, 1);
  EXPECT_EQ(one.tmemColumns, 256);
  // 1024 alignment + 4 stages x 16 + 1 buffer x 16 + 8.
  EXPECT_EQ(one.barrierBytes, 1024 + 64 + 16 + 8);
  s.tileScheduler.kind = TileSchedulerKind::Persistent;
  CtaResources two = computeResources(s);
  EXPECT_EQ(two.accBuffers, 2);
  EXPECT_EQ(two.tmemColumns, 512);
  EXPECT_EQ(two.barrierBytes, one.barrierBytes + 16);
  s.tileShape = {128, 192, 64}; // 2 x 192 = 384 -> 512
  EXPECT_EQ(computeResources(s).tmemColumns, 512);
  s.tileScheduler.kind = TileSchedulerKind::DataParallel;
  s.tileShape = {128, 48, 64}; // 48 -> 64
  EXPECT_EQ(computeResources(s).tmemColumns, 64);
  s.tileShape = {128, 16, 64}; // at least 32
  EXPECT_EQ(computeResources(s).tmemColumns, 32);
  // No tensor memory elsewhere.
  EXPECT_EQ(computeResources(h200()).tmemColumns, 0);
  EXPECT_EQ(computeResources(h200()).accBuffers, 0);
  // The budget holds for every legal tcgen05 N (at most 256): two buffers
  // are taken only when they fit, so the register-budget rule's tensor-
  // memory branch does not fire on a valid spec.
  s.tileShape = {128, 256, 64};
  s.tileScheduler.kind = TileSchedulerKind::Persistent;
  EXPECT_EQ(violations(s), Msgs{});
}

TEST(Rules, TensorMemoryBlockScaledPartials) {
  // scale: block on sm_100a: the ring holds K-tile partials (two when they
  // and the f32 sum fit in 512 columns, whatever the tile scheduler), the
  // sum one buffer more; each partial buffer has its two barriers.
  KernelSpec s = b200();
  s.a.element = s.b.element = ElementType::E4M3;
  s.a.scale = s.b.scale = Scale::Block;
  s.tileShape = {128, 128, 128};
  resolveAuto(s);
  s.mainloop.stages = 4;
  s.tileScheduler.kind = TileSchedulerKind::DataParallel;
  CtaResources r = computeResources(s);
  EXPECT_EQ(r.accBuffers, 2);
  EXPECT_EQ(r.foldBuffers, 1);
  EXPECT_EQ(r.tmemColumns, 512); // 3 x 128 -> 512
  // 1024 alignment + 4 stages x 16 + 2 partials x 16 + 8.
  EXPECT_EQ(r.barrierBytes, 1024 + 64 + 32 + 8);
  s.tileShape = {128, 64, 128}; // 3 x 64 = 192 -> 256
  EXPECT_EQ(computeResources(s).tmemColumns, 256);
  s.tileShape = {128, 256, 128}; // one partial: 2 x 256 = 512
  s.tileScheduler.kind = TileSchedulerKind::Persistent;
  r = computeResources(s);
  EXPECT_EQ(r.accBuffers, 1);
  EXPECT_EQ(r.foldBuffers, 1);
  EXPECT_EQ(r.tmemColumns, 512);
  EXPECT_EQ(violations(s), Msgs{});
  // Unscaled kernels have no sum buffer.
  EXPECT_EQ(computeResources(b200()).foldBuffers, 0);
}
