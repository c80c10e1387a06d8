//===- TargetTest.cpp - The hardware database and the ISA descriptions ---===//
#include "gemmc/Target/Isa.h"
#include "gemmc/Target/Target.h"
#include <gtest/gtest.h>
#include <set>
#include <utility>

using namespace gemmc;

TEST(Target, H200AndH100ShareSmsButNotBandwidth) {
  const DeviceInfo *h100 = lookupDevice("h100");
  const DeviceInfo *h200 = lookupDevice("h200");
  ASSERT_NE(h100, nullptr);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->smCount, 132);
  EXPECT_EQ(h200->smCount, h100->smCount);
  EXPECT_EQ(h200->smemPerBlockBytes, 227 * 1024);
  EXPECT_GT(h200->hbmBytesPerSec, h100->hbmBytesPerSec);
}

TEST(Target, A100RidgePointsMatchSeed000) {
  const DeviceInfo &a100 = defaultDevice(Arch::SM80);
  // Seed 000: about 9.8 FLOP/B for FP32 CUDA cores and 78 for TF32 tensor
  // cores at about 2 TB/s; the 80 GB part's datasheet says 2.039 TB/s.
  EXPECT_NEAR(a100.ridgePoint(MathUnit::CudaCoreF32), 9.8, 0.3);
  EXPECT_NEAR(a100.ridgePoint(MathUnit::TensorTF32), 78, 2);
}

TEST(Target, MmaShapes) {
  auto wgmma = mmaInstrShape(Arch::SM90a, ElementType::BF16);
  ASSERT_TRUE(wgmma.has_value());
  EXPECT_EQ(wgmma->m, 64);
  EXPECT_EQ(wgmma->k, 16);
  EXPECT_EQ(wgmma->nMax, 256);
  EXPECT_EQ(mmaInstrShape(Arch::SM90a, ElementType::E4M3)->k, 32);
  EXPECT_EQ(mmaInstrShape(Arch::SM90a, ElementType::TF32)->k, 8);
  EXPECT_FALSE(mmaInstrShape(Arch::SM80, ElementType::E4M3).has_value());
  EXPECT_EQ(mmaInstrShape(Arch::SM100a, ElementType::BF16)->family,
            MmaFamily::Tcgen05);
}

TEST(Target, SpellingsRoundTrip) {
  for (Arch a : {Arch::SM80, Arch::SM90a, Arch::SM100a})
    EXPECT_EQ(parseArch(archName(a)), a);
  for (ElementType t : {ElementType::F32, ElementType::TF32, ElementType::F16,
                        ElementType::BF16, ElementType::E4M3, ElementType::E5M2})
    EXPECT_EQ(parseElementType(elementTypeName(t)), t);
  EXPECT_FALSE(parseArch("sm_89").has_value());
}

//===----------------------------------------------------------------------===//
// Isa.h
//===----------------------------------------------------------------------===//

TEST(Isa, MmaShapesPerTarget) {
  // mma.sync m16n8k8 tf32 / m16n8k16 bf16, f16; no FP8 on sm_80.
  const MmaIsa &sync = isaFor(Arch::SM80).mma;
  EXPECT_EQ(sync.family, MmaFamily::MmaSync);
  EXPECT_EQ(sync.defaultShape().m, 16);
  EXPECT_EQ(sync.defaultShape().nMax, 8);
  EXPECT_EQ(sync.k(ElementType::TF32), 8);
  EXPECT_EQ(sync.k(ElementType::BF16), 16);
  EXPECT_FALSE(sync.fp8);
  // wgmma m64nNk8/16/32, N = 8..256 step 8; a warpgroup covers 64 rows.
  const Isa &hopper = isaFor(Arch::SM90a);
  EXPECT_EQ(hopper.mma.k(ElementType::TF32), 8);
  EXPECT_EQ(hopper.mma.k(ElementType::F16), 16);
  EXPECT_EQ(hopper.mma.k(ElementType::E5M2), 32);
  EXPECT_EQ(hopper.warpgroupRows, 64);
  EXPECT_EQ(hopper.mma.defaultShape().nMin, 8);
  EXPECT_EQ(hopper.mma.defaultShape().nStep, 8);
  // tcgen05: 128 (N step 16) or 64 (N step 8) per CTA, 256 over a pair.
  const MmaIsa &tc = isaFor(Arch::SM100a).mma;
  EXPECT_EQ(tc.defaultShape().m, 128);
  ASSERT_NE(tc.shape(64, 1), nullptr);
  EXPECT_EQ(tc.shape(64, 1)->nStep, 8);
  ASSERT_NE(tc.shape(256, 2), nullptr);
  EXPECT_EQ(tc.shape(256, 2)->mPerCta(), 128);
  EXPECT_EQ(tc.shape(256, 2)->nStep, 16);
  EXPECT_EQ(tc.shape(256, 1), nullptr);
  EXPECT_EQ(tc.shape(192, 1), nullptr);
  // The Target.h view agrees.
  EXPECT_EQ(mmaInstrShape(Arch::SM100a, ElementType::E4M3)->k, 32);
  EXPECT_EQ(mmaInstrShape(Arch::SM100a, ElementType::BF16)->nStep, 16);
}

namespace {
/// Expects value `i` of `lane` in `warp` at (row, column).
void expectCell(const AccumulatorLayout &l, int warp, int lane, int i, int row,
                int column) {
  SCOPED_TRACE(testing::Message() << "warp " << warp << " lane " << lane << " value " << i);
  EXPECT_EQ(l.rowOf(warp, lane, i), row);
  EXPECT_EQ(l.columnOf(lane, i), column);
}
} // namespace

TEST(Isa, MmaSyncAccumulatorMatchesPtxFigure) {
  // PTX ISA, mma.m16n8k16 accumulator C/D (f32): groupID = lane >> 2,
  // threadID_in_group = lane % 4; c0, c1 at row groupID, c2, c3 at
  // groupID + 8; column threadID_in_group * 2 + (i & 1).
  expectCell(kMmaSyncAccumulator, 0, 0, 1, 0, 1);
  expectCell(kMmaSyncAccumulator, 0, 0, 2, 8, 0);
  // Lane 5: groupID 1, threadID_in_group 1; c3 at (1 + 8, 2 + 1).
  expectCell(kMmaSyncAccumulator, 0, 5, 3, 9, 3);
  // Lane 31, c3: the tile's last cell (15, 7). The warp does not move it.
  expectCell(kMmaSyncAccumulator, 3, 31, 3, 15, 7);
}

TEST(Isa, WgmmaAccumulatorMatchesPtxFigure) {
  // PTX ISA, wgmma .m64nNk16 accumulator D (f32): warp w of the warpgroup
  // owns rows 16w..16w+15; d[i] at row 16w + groupID (+ 8 when i % 4 >= 2),
  // column (i / 4) * 8 + threadID_in_group * 2 + (i & 1).
  // Warp 2, lane 13 (groupID 3, threadID_in_group 1), d6 (j 1, h 1, e 0):
  // row 32 + 3 + 8 = 43, column 8 + 2 + 0 = 10.
  expectCell(kWgmmaAccumulator, 2, 13, 6, 43, 10);
  // The split the lowering uses: lane part (35, 2) + value part (8, 8).
  const AccumulatorLayout &l = kWgmmaAccumulator;
  EXPECT_EQ(l.laneRow(2, 13), 35);
  EXPECT_EQ(l.laneColumn(13), 2);
  EXPECT_EQ(l.valueRow(6), 8);
  EXPECT_EQ(l.valueColumn(6), 8);
  // m64n256: warp 3, lane 31, d127 is the tile's last cell (63, 255).
  expectCell(kWgmmaAccumulator, 3, 31, 127, 63, 255);
}

TEST(Isa, Tcgen05LdAccumulatorMatchesPtxFigure) {
  // PTX ISA, tcgen05.ld .32x32b: warp w % 4 reads tensor-memory lanes
  // 32w..32w+31, thread l lane 32w + l; register i holds column i.
  expectCell(kTcgen05Ld32x32bAccumulator, 3, 7, 5, 103, 5);
  expectCell(kTcgen05Ld32x32bAccumulator, 0, 31, 200, 31, 200);
}

namespace {
/// Whether `threads` threads x `values` values cover a rows x cols tile,
/// each cell once.
bool coversOnce(const AccumulatorLayout &l, int threads, int values, int rows,
                int cols) {
  std::set<std::pair<int, int>> cells;
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < values; ++i) {
      int r = l.rowOf(t / kWarpSize, t % kWarpSize, i);
      int c = l.columnOf(t % kWarpSize, i);
      if (r < 0 || r >= rows || c < 0 || c >= cols || !cells.insert({r, c}).second)
        return false;
    }
  return int(cells.size()) == rows * cols;
}
} // namespace

TEST(Isa, AccumulatorLayoutsTileExactly) {
  // m16n8: a warp, 4 values per lane.
  EXPECT_TRUE(coversOnce(kMmaSyncAccumulator, kWarpSize, 4, 16, 8));
  // m64n24: a warpgroup, N / 2 = 12 values per thread.
  EXPECT_TRUE(coversOnce(kWgmmaAccumulator, kWarpgroupSize, 12, 64, 24));
  EXPECT_TRUE(coversOnce(kWgmmaAccumulator, kWarpgroupSize, 128, 64, 256));
  // A 128-lane accumulator of 32 columns, drained by a warpgroup.
  EXPECT_TRUE(coversOnce(kTcgen05Ld32x32bAccumulator, kWarpgroupSize, 32, 128, 32));
  // A layout with the wrong quad would not.
  AccumulatorLayout wrong = kWgmmaAccumulator;
  wrong.halfRows = 4;
  EXPECT_FALSE(coversOnce(wrong, kWarpgroupSize, 12, 64, 24));
}

TEST(Isa, BarriersRegistersSwizzleCopies) {
  // Two 8-byte mbarriers per stage.
  EXPECT_EQ(isa::kMbarrierBytes, 8);
  EXPECT_EQ(Isa::stageBarrierBytes(4), 64);
  EXPECT_EQ(isa::kNamedBarriers, 16);
  // Registers in units of 8: a 255-register cap is 248 usable.
  EXPECT_EQ(Isa::roundDownToAllocUnit(255), 248);
  EXPECT_EQ(Isa::roundDownToAllocUnit(240), 240);
  EXPECT_TRUE(isaFor(Arch::SM90a).hasSetmaxnreg);
  EXPECT_FALSE(isaFor(Arch::SM80).hasSetmaxnreg);
  // Spans of 32, 64 and 128 bytes; an atom is 8 rows of a span: 1024 bytes
  // for 128B, 256 for 32B.
  EXPECT_EQ(llvm::ArrayRef<int>(isa::kSwizzleSpans), llvm::ArrayRef<int>({32, 64, 128}));
  EXPECT_EQ(isa::kSwizzleSpans[2], isa::kWidestSwizzleSpan);
  EXPECT_EQ(kSwizzleAtomAlignBytes, 1024);
  EXPECT_EQ(isa::swizzleAtomBytes(32), 256);
  EXPECT_EQ(isa::kLdmatrixMatrices * isa::kLdmatrixRows * isa::kLdmatrixRowBytes, 512);
  EXPECT_EQ(isa::kCpAsyncBytes, 16);
  // TMA on sm_90a and sm_100a only.
  EXPECT_EQ(tmaLimits(Arch::SM80).maxBoxDim, 0);
  EXPECT_EQ(tmaLimits(Arch::SM90a).maxBoxDim, 256);
  EXPECT_EQ(tmaLimits(Arch::SM100a).globalAlignBytes, 16);
  // Tensor memory: 128 lanes x 512 columns x 4 bytes = 256 KiB, sm_100a only.
  EXPECT_EQ(isaFor(Arch::SM100a).tmemBytes(), 256 * 1024);
  EXPECT_EQ(isaFor(Arch::SM100a).tmemColumns(), 512);
  EXPECT_EQ(isaFor(Arch::SM90a).tmemBytes(), 0);
}

TEST(Isa, WgmmaDescriptorFields) {
  using namespace isa::wgmma_desc;
  // A K-major 128-byte-swizzled bf16 tile: leading offset 16 B (field 1),
  // stride 1024 B between 8-row groups (field 64), mode 1 at bit 62.
  EXPECT_EQ(offsets(16, 1024, 128), (uint64_t(1) << 16) | (uint64_t(64) << 32) |
                                        (uint64_t(1) << 62));
  EXPECT_EQ(swizzleMode(64), 2u);
  EXPECT_EQ(swizzleMode(32), 3u);
  EXPECT_EQ(swizzleMode(0), 0u);
  // Addresses wrap at 14 bits of 16-byte units: 256 KiB.
  EXPECT_EQ(field(0x3FFF * 16), 0x3FFFu);
  EXPECT_EQ(field(256 * 1024), 0u);
}

TEST(Isa, Tcgen05SharedMemoryDescriptorFields) {
  using namespace isa::tcgen05_desc;
  // PTX ISA, tcgen05 "shared memory descriptor": bits 16-29 leading byte
  // offset >> 4, 32-45 stride byte offset >> 4, 46-48 the fixed 0b001, 61-63
  // the swizzle mode. A K-major 128-byte-swizzled tile: leading 16 B -> 1 <<
  // 16 = 0x10000; stride 1024 B (8 rows x 128 B) -> 64 << 32 =
  // 0x40'0000'0000; version 1 << 46 = 0x4000'0000'0000; mode 2 (128-byte)
  // << 61 = 0x4000'0000'0000'0000. Sum 0x4000'4040'0001'0000.
  EXPECT_EQ(offsets(16, 1024, 128), 0x4000404000010000ull);
  // The modes differ from wgmma's: 128-byte 2 (wgmma 1), 64-byte 4 (2),
  // 32-byte 6 (3), none 0.
  EXPECT_EQ(swizzleMode(128), 2u);
  EXPECT_EQ(swizzleMode(64), 4u);
  EXPECT_EQ(swizzleMode(32), 6u);
  EXPECT_EQ(swizzleMode(0), 0u);
  // A 64-byte-swizzled tile: stride 8 x 64 B = 512 B -> 32 << 32; mode 4 << 61.
  EXPECT_EQ(offsets(16, 512, 64), 0x8000402000010000ull);
  // The leading-offset mode bit (52) and the base offset (49-51) stay 0.
  EXPECT_EQ(offsets(16, 1024, 128) & (0xFull << 49), 0u);
}

TEST(Isa, Tcgen05KMajorLayouts) {
  using namespace isa::tcgen05_desc;
  // PTX ISA, tcgen05 "shared memory matrix layouts", K-major canonical
  // layouts, as TMA writes them (KernelAbi's boxes).
  //
  // Swizzled: rows of one span, 8-row atoms one atom apart. 128-byte (seed
  // 004's step 4): stride 1024 B, leading 16 B, mode 2 -- the descriptor the
  // lowering has used since it landed.
  EXPECT_EQ(kMajorOffsets(128, /*slabBytes=*/16384), 0x4000404000010000ull);
  // 32-byte (BLOCK_K = 16 of f16): leading 16 B -> 1 << 16 = 0x10000;
  // stride 8 x 32 B = 256 B -> 16 << 32 = 0x10'0000'0000; version 1 << 46 =
  // 0x4000'0000'0000; mode 6 << 61 = 0xC000'0000'0000'0000. Sum
  // 0xC000'4010'0001'0000. The slab distance plays no part.
  EXPECT_EQ(kMajorOffsets(32, 8192), 0xC000401000010000ull);
  EXPECT_EQ(kMajorOffsets(32, 4096), kMajorOffsets(32, 8192));
  // 64-byte: stride 512 B -> 32 << 32; mode 4 << 61.
  EXPECT_EQ(kMajorOffsets(64, 0), 0x8000402000010000ull);
  // Unswizzled (seed 004's steps 1-3, 128 x 256 x 16 f16): A comes in two
  // slabs of 128 rows x 16 B = 2048 B. Leading offset (along K, slab to
  // slab) 2048 B -> 128 << 16 = 0x80'0000; stride (8-row core matrix to the
  // next) 128 B -> 8 << 32 = 0x8'0000'0000; version 0x4000'0000'0000; mode
  // 0. Sum 0x4008'0080'0000.
  EXPECT_EQ(kCoreMatrixBytes, 128);
  EXPECT_EQ(kMajorOffsets(0, 2048), 0x0000400800800000ull);
  // B's 256 rows: slabs of 4096 B -> 256 << 16 = 0x100'0000: 0x4008'0100'0000.
  EXPECT_EQ(kMajorOffsets(0, 4096), 0x0000400801000000ull);
  // Where k step j (32 bytes of K: 16 f16) starts: swizzled, 32 j bytes
  // along the row (steps 0-3 of a 128-byte span: 0, 32, 64, 96); unswizzled,
  // two slabs per step (2 x 2048 B for A).
  EXPECT_EQ(kStepOffset(128, 16384, 32, 3), 96);
  EXPECT_EQ(kStepOffset(0, 2048, 32, 0), 0);
  EXPECT_EQ(kStepOffset(0, 2048, 32, 1), 4096);
  EXPECT_EQ(kStepOffset(0, 4096, 32, 2), 16384);
}

TEST(Isa, Tcgen05InstructionDescriptorFields) {
  using namespace isa::tcgen05_idesc;
  // PTX ISA, tcgen05 "instruction descriptor" for kind::f16 / kind::tf32:
  // D type bits 4-5 (f32 = 1), A type 7-9, B type 10-12, transpose A 15,
  // transpose B 16, N >> 3 in 17-22, M >> 4 in 24-28.
  //
  // bf16 x bf16 -> f32, both K-major, M = 128, N = 256:
  //   1 << 4 = 0x10; 1 << 7 = 0x80; 1 << 10 = 0x400;
  //   (256 >> 3 = 32) << 17 = 0x400000; (128 >> 4 = 8) << 24 = 0x8000000.
  //   Sum 0x08400490.
  EXPECT_EQ(encode(kDTypeF32, kTypeBF16, kTypeBF16, false, false, 128, 256), 0x08400490u);
  // f16: A and B type 0. M = 128, N = 128: (16 << 17) = 0x200000 -> 0x08200010.
  EXPECT_EQ(encode(kDTypeF32, kTypeF16, kTypeF16, false, false, 128, 128), 0x08200010u);
  // tf32 (type 2): 2 << 7 = 0x100, 2 << 10 = 0x800; M = 64 -> 4 << 24 =
  // 0x4000000; N = 8 -> 1 << 17 = 0x20000. Sum 0x04020910.
  EXPECT_EQ(encode(kDTypeF32, kTypeTF32, kTypeTF32, false, false, 64, 8), 0x04020910u);
  // An N-major B sets bit 16 only.
  EXPECT_EQ(encode(kDTypeF32, kTypeBF16, kTypeBF16, false, true, 128, 256) ^
                encode(kDTypeF32, kTypeBF16, kTypeBF16, false, false, 128, 256),
            1u << 16);
  // M = 256 (cta_group::2): 16 << 24 fits the 5-bit field below bit 29.
  EXPECT_EQ(encode(kDTypeF32, kTypeF16, kTypeF16, false, false, 256, 256) >> 24, 16u);
}

TEST(Isa, Tcgen05Fp8InstructionDescriptorFields) {
  using namespace isa::tcgen05_idesc;
  // PTX ISA, the same descriptor under kind::f8f6f4: A's and B's formats in
  // bits 7-9 and 10-12 are E4M3 = 0, E5M2 = 1 (E2M3 3, E3M2 4, E2M1 5 are
  // the 6- and 4-bit types gemmc does not read), each operand its own.
  EXPECT_EQ(kTypeE4M3, 0u);
  EXPECT_EQ(kTypeE5M2, 1u);
  // e4m3 x e4m3 -> f32, K-major, M = 128, N = 256: 1 << 4 = 0x10, both
  // formats 0, (256 >> 3 = 32) << 17 = 0x400000, (128 >> 4 = 8) << 24 =
  // 0x8000000: 0x08400010, the f16 descriptor's bits (the kind tells them
  // apart, not the descriptor).
  EXPECT_EQ(encode(kDTypeF32, kTypeE4M3, kTypeE4M3, false, false, 128, 256), 0x08400010u);
  // e4m3 x e5m2: B's format 1 << 10 = 0x400 -> 0x08400410.
  EXPECT_EQ(encode(kDTypeF32, kTypeE4M3, kTypeE5M2, false, false, 128, 256), 0x08400410u);
  // e5m2 x e4m3: A's format 1 << 7 = 0x80 -> 0x08400090.
  EXPECT_EQ(encode(kDTypeF32, kTypeE5M2, kTypeE4M3, false, false, 128, 256), 0x08400090u);
  // e5m2 x e5m2, N = 128: 0x80 + 0x400 + (16 << 17 = 0x200000) + 0x10 +
  // 0x8000000 = 0x08200490.
  EXPECT_EQ(encode(kDTypeF32, kTypeE5M2, kTypeE5M2, false, false, 128, 128), 0x08200490u);
}
