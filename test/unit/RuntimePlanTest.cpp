// Host-side launch planning: argument checks, storage extents, tensor-map
// parameters and grids, with fake (never dereferenced) device addresses.
#include "gemmc/runtime/Plan.h"
#include "gemmc/Spec/KernelAbi.h"

#include <gtest/gtest.h>

using namespace gemmc::rt;

namespace {

Manifest makeManifest(gemmc_layout aLayout = GEMMC_ROW, gemmc_layout bLayout = GEMMC_COL) {
  Manifest m;
  m.version = 1;
  m.kernel = "k";
  m.arch = "sm_90a";
  m.archMajor = 9;
  m.archSpecific = true;
  m.block = {256, 1, 1};
  m.cluster = {1, 1, 1};
  m.dynamicSmemBytes = 132096;
  m.tile = {128, 256, 64};
  m.a = {GEMMC_BF16, aLayout};
  m.b = {GEMMC_BF16, bLayout};
  m.c = {GEMMC_BF16, GEMMC_ROW};
  m.tmaps[0] = {Operand::A, {64, 128}, 128};
  m.tmaps[1] = {Operand::B, {64, 256}, 128};
  m.params = {Param::TmapA, Param::TmapB, Param::C, Param::M, Param::N, Param::K, Param::Ldc};
  return m;
}

const void *addr(uint64_t a) { return reinterpret_cast<const void *>(static_cast<uintptr_t>(a)); }

// A 1000 x 1000 x 1000 bf16 problem with well-separated fake buffers.
gemmc_gemm_args makeArgs(gemmc_layout aLayout = GEMMC_ROW, gemmc_layout bLayout = GEMMC_COL) {
  gemmc_gemm_args a;
  gemmc_gemm_args_init(&a);
  a.m = 1000;
  a.n = 1000;
  a.k = 1000;
  a.a = addr(0x10000000);
  a.lda = 1000;
  a.a_type = GEMMC_BF16;
  a.a_layout = aLayout;
  a.b = addr(0x20000000);
  a.ldb = 1000;
  a.b_type = GEMMC_BF16;
  a.b_layout = bLayout;
  a.c = const_cast<void *>(addr(0x30000000));
  a.ldc = 1000;
  a.c_type = GEMMC_BF16;
  return a;
}

/// A 300x500x72 problem (no size a multiple of a tile), A row-major and B
/// col-major with padded leading dimensions.
gemmc_gemm_args raggedArgs(int64_t ldc) {
  gemmc_gemm_args a = makeArgs();
  a.m = 300;
  a.n = 500;
  a.k = 72;
  a.lda = 80;
  a.ldb = 72;
  a.ldc = ldc;
  return a;
}

std::string check(const Manifest &m, const gemmc_gemm_args &args) {
  std::string err;
  gemmc_status st = checkArgs(m, args, err);
  if (st == GEMMC_OK)
    return "ok";
  EXPECT_EQ(st, GEMMC_ERROR_INVALID_ARGUMENT);
  return err;
}

TEST(RuntimePlan, ArgsInitDefaults) {
  gemmc_gemm_args a;
  gemmc_gemm_args_init(&a);
  EXPECT_EQ(a.alpha, 1.0f);
  EXPECT_EQ(a.beta, 0.0f);
  EXPECT_EQ(a.a_type, GEMMC_DTYPE_UNSET);
  EXPECT_EQ(a.m, 0);
}

TEST(RuntimePlan, ValidArgsPass) {
  EXPECT_EQ(check(makeManifest(), makeArgs()), "ok");
  EXPECT_EQ(check(makeManifest(GEMMC_COL, GEMMC_ROW), makeArgs(GEMMC_COL, GEMMC_ROW)), "ok");
}

TEST(RuntimePlan, WrongOrUnsetDtype) {
  gemmc_gemm_args a = makeArgs();
  a.b_type = GEMMC_F16;
  EXPECT_EQ(check(makeManifest(), a), "B is f16 but kernel 'k' was built for bf16 B");
  a = makeArgs();
  a.c_type = GEMMC_DTYPE_UNSET;
  EXPECT_EQ(check(makeManifest(), a), "C: element type not set (args.c_type); kernel 'k' takes bf16");
  a = makeArgs();
  a.a_type = static_cast<gemmc_dtype>(42);
  EXPECT_EQ(check(makeManifest(), a), "A: invalid element type value 42");
}

TEST(RuntimePlan, WrongLayout) {
  gemmc_gemm_args a = makeArgs(GEMMC_ROW, GEMMC_ROW);
  EXPECT_EQ(check(makeManifest(), a),
            "B is row = N contiguous but kernel 'k' was built for col = K contiguous; transpose the operand or "
            "build a kernel for this layout");
  a = makeArgs(GEMMC_LAYOUT_UNSET, GEMMC_COL);
  EXPECT_EQ(check(makeManifest(), a), "A: layout not set (args.a_layout); kernel 'k' takes row = K contiguous");
}

TEST(RuntimePlan, ZeroAndNegativeSizes) {
  gemmc_gemm_args a = makeArgs();
  a.m = 0;
  EXPECT_EQ(check(makeManifest(), a), "M = 0: sizes must be >= 1");
  a = makeArgs();
  a.k = -5;
  EXPECT_EQ(check(makeManifest(), a), "K = -5: sizes must be >= 1");
  a = makeArgs();
  a.n = int64_t(1) << 31;
  EXPECT_EQ(check(makeManifest(), a), "N = 2147483648 exceeds the kernel's int32 limit 2147483647");
}

TEST(RuntimePlan, PinnedSizes) {
  Manifest m = makeManifest();
  m.problem = {-1, 8192, 1000};
  gemmc_gemm_args a = makeArgs();
  EXPECT_EQ(check(m, a), "N = 1000 but kernel 'k' was built for N = 8192 only");
  m.problem = {-1, 1000, 1000};
  EXPECT_EQ(check(m, a), "ok");
}

TEST(RuntimePlan, MisalignedPointers) {
  gemmc_gemm_args a = makeArgs();
  a.a = addr(0x10000002);
  EXPECT_EQ(check(makeManifest(), a),
            "A = 268435458 (0x10000002) is not 16-byte aligned (address % 16 = 2); TMA and vector stores need "
            "16-byte aligned base pointers");
  a = makeArgs();
  a.c = const_cast<void *>(addr(0x30000008));
  EXPECT_NE(check(makeManifest(), a).find("C = "), std::string::npos);
  a = makeArgs();
  a.b = nullptr;
  EXPECT_EQ(check(makeManifest(), a), "B is a null pointer");
}

TEST(RuntimePlan, LeadingDimensions) {
  gemmc_gemm_args a = makeArgs();
  a.lda = 999;
  EXPECT_EQ(check(makeManifest(), a),
            "lda = 999 is smaller than the contiguous extent 1000 of A; it must be >= 1000");
  a = makeArgs();
  a.ldb = 1001;
  EXPECT_EQ(check(makeManifest(), a),
            "ldb = 1001 elements = 2002 bytes is not a multiple of 16 bytes; use a leading dimension that is a "
            "multiple of 8 (e.g. 1008)");
  a = makeArgs();
  a.ldc = 1004;
  EXPECT_NE(check(makeManifest(), a).find("ldc = 1004 elements = 2008 bytes"), std::string::npos);
  a = makeArgs();
  a.ldc = 1008; // padded rows are fine
  a.c = const_cast<void *>(addr(0x40000000));
  EXPECT_EQ(check(makeManifest(), a), "ok");
}

TEST(RuntimePlan, LeadingDimensionFollowsLayout) {
  // A col-major: the contiguous extent is M, not K.
  gemmc_gemm_args a = makeArgs(GEMMC_COL, GEMMC_COL);
  a.m = 64;
  a.lda = 64;
  EXPECT_EQ(check(makeManifest(GEMMC_COL, GEMMC_COL), a), "ok");
  a.lda = 56;
  EXPECT_EQ(check(makeManifest(GEMMC_COL, GEMMC_COL), a),
            "lda = 56 is smaller than the contiguous extent 64 of A; it must be >= 64");
  // B row-major: the contiguous extent is N.
  a = makeArgs(GEMMC_ROW, GEMMC_ROW);
  a.n = 24;
  a.ldb = 16;
  a.ldc = 24;
  EXPECT_EQ(check(makeManifest(GEMMC_ROW, GEMMC_ROW), a),
            "ldb = 16 is smaller than the contiguous extent 24 of B; it must be >= 24");
}

TEST(RuntimePlan, AlphaBetaOnlyWhenTaken) {
  gemmc_gemm_args a = makeArgs();
  a.alpha = 2.0f;
  EXPECT_EQ(check(makeManifest(), a),
            "alpha = 2.000000 but kernel 'k' takes no alpha (it computes alpha = 1); build it with epilogue alpha: true");
  Manifest m = makeManifest();
  m.params.push_back(Param::Alpha);
  EXPECT_EQ(check(m, a), "ok");
  a.beta = 1.0f;
  EXPECT_NE(check(m, a).find("takes no beta"), std::string::npos);
  m.params.push_back(Param::Beta);
  EXPECT_EQ(check(m, a), "ok");
}

// Scale pointers: set exactly when the kernel takes them, f32-aligned;
// what the kernel reads there follows the scale's kind.
TEST(RuntimePlan, ScalePointers) {
  Manifest m = makeManifest();
  m.a = {GEMMC_E4M3, GEMMC_ROW, GEMMC_SCALE_TENSOR};
  m.b = {GEMMC_E4M3, GEMMC_COL, GEMMC_SCALE_TENSOR};
  m.params.push_back(Param::ScaleA);
  m.params.push_back(Param::ScaleB);
  gemmc_gemm_args a = makeArgs();
  a.a_type = a.b_type = GEMMC_E4M3;
  a.lda = a.ldb = 1008; // 16-byte multiples of one-byte elements
  EXPECT_EQ(check(m, a), "scale_a is NULL but kernel 'k' reads one f32 there (a.scale: tensor); pass a device "
                         "pointer to the scale");
  a.scale_a = static_cast<const float *>(addr(0x40000000));
  EXPECT_EQ(check(m, a), "scale_b is NULL but kernel 'k' reads one f32 there (b.scale: tensor); pass a device "
                         "pointer to the scale");
  a.scale_b = static_cast<const float *>(addr(0x40000002));
  EXPECT_EQ(check(m, a), "scale_b = 0x40000002 is not aligned to its 4-byte f32");
  // Block scales: the message says which blocks, in which layout.
  {
    Manifest bm = m;
    bm.a.scale = bm.b.scale = GEMMC_SCALE_BLOCK;
    gemmc_gemm_args ba = a;
    ba.scale_a = nullptr;
    EXPECT_EQ(check(bm, ba), "scale_a is NULL but kernel 'k' reads M x ceil(K/128) f32 block scales (M-major) there "
                             "(a.scale: block); pass a device pointer to the scale");
    ba.scale_a = static_cast<const float *>(addr(0x40000000));
    ba.scale_b = nullptr;
    EXPECT_EQ(check(bm, ba), "scale_b is NULL but kernel 'k' reads ceil(N/128) x align4(ceil(K/128)) f32 block "
                             "scales (K-major) there (b.scale: block); pass a device pointer to the scale");
  }
  a.scale_b = static_cast<const float *>(addr(0x40000004));
  EXPECT_EQ(check(m, a), "ok");
  a.scale_d = static_cast<const float *>(addr(0x40000008));
  EXPECT_EQ(check(m, a), "scale_d is set but kernel 'k' takes no scale for C (its operand c has no \"scale\"); "
                         "pass NULL, or build it with operands.c.scale");
  // Per-row A, per-column B: scale_b is read two columns (8 bytes) at a
  // time, so it must be 8-byte aligned; scale_a only to its f32.
  {
    Manifest rc = m;
    rc.a.scale = GEMMC_SCALE_ROW;
    rc.b.scale = GEMMC_SCALE_COL;
    gemmc_gemm_args ra = a;
    ra.scale_d = nullptr;
    ra.scale_a = static_cast<const float *>(addr(0x40000004));
    ra.scale_b = static_cast<const float *>(addr(0x40000004));
    EXPECT_EQ(check(rc, ra), "scale_b = 0x40000004 is not aligned to 8 bytes, which kernel 'k' needs for its "
                             "per-column scale (b.scale: col; it reads two columns' f32 with one 8-byte load); "
                             "pass an 8-byte aligned pointer (cudaMalloc's are 256-byte aligned)");
    ra.scale_b = static_cast<const float *>(addr(0x40000008));
    EXPECT_EQ(check(rc, ra), "ok");
    // The compiler's load and the runtime's check agree on the alignment.
    EXPECT_EQ(static_cast<int64_t>(kColScaleAlignBytes), ::gemmc::kColScaleAlignBytes);
  }
  // A kernel without scales takes none.
  a = makeArgs();
  a.scale_a = static_cast<const float *>(addr(0x40000000));
  EXPECT_EQ(check(makeManifest(), a), "scale_a is set but kernel 'k' takes no scale for A (its operand a has no "
                                      "\"scale\"); pass NULL, or build it with operands.a.scale");
  // Bytes read: one f32 per tensor, M per row of A, N per column of B.
  a = makeArgs();
  a.m = 300;
  a.n = 500;
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_NONE, Operand::A, a), 0u);
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_TENSOR, Operand::A, a), 4u);
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_ROW, Operand::A, a), 1200u);
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_COL, Operand::B, a), 2000u);
  // Block scales: K = 1000 is 8 blocks of 128 (the last partial): A 300 x 8;
  // B ceil(500 / 128) = 4 column blocks of 8 (a multiple of 4 already);
  // K = 1200 (10 blocks) pads B's to 12.
  a.k = 1000;
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_BLOCK, Operand::A, a), 300u * 8 * 4);
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_BLOCK, Operand::B, a), 4u * 8 * 4);
  a.k = 1200;
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_BLOCK, Operand::A, a), 300u * 10 * 4);
  EXPECT_EQ(scaleBytes(GEMMC_SCALE_BLOCK, Operand::B, a), 4u * 12 * 4);
  a.scale_b = static_cast<const float *>(addr(0x40000004));
  EXPECT_EQ(scalePointer(a, Operand::B), a.scale_b);
  EXPECT_EQ(scalePointer(a, Operand::A), nullptr);
}

TEST(RuntimePlan, Aliasing) {
  gemmc_gemm_args a = makeArgs();
  a.c = const_cast<void *>(a.a);
  EXPECT_EQ(check(makeManifest(), a),
            "C overlaps A in memory; the kernel reads A while it writes C, so C must not alias A");
  // C starts in the last row of B.
  a = makeArgs();
  a.c = const_cast<void *>(addr(0x20000000 + 999 * 1000 * 2 + 512));
  EXPECT_EQ(check(makeManifest(), a),
            "C overlaps B in memory; the kernel reads B while it writes C, so C must not alias B");
  // C right after B: fine.
  a.c = const_cast<void *>(addr(0x20000000 + 1000 * 1000 * 2));
  EXPECT_EQ(check(makeManifest(), a), "ok");
}

TEST(RuntimePlan, StorageExtents) {
  gemmc_gemm_args a = makeArgs();
  a.m = 3;
  a.k = 16;
  a.lda = 24;
  Storage s = storageA(a);
  EXPECT_EQ(s.rows, 3u);
  EXPECT_EQ(s.cols, 16u);
  // Two full padded rows and one unpadded row.
  EXPECT_EQ(s.extentBytes(), (2u * 24 + 16) * 2);
  a.a_layout = GEMMC_COL;
  a.lda = 8;
  s = storageA(a);
  EXPECT_EQ(s.rows, 16u);
  EXPECT_EQ(s.cols, 3u);
}

TEST(RuntimePlan, TensorMapParamsPerLayout) {
  Manifest m = makeManifest();
  gemmc_gemm_args a = raggedArgs(/*ldc=*/512);
  TensorMapParams pa = tensorMapParams(m, Operand::A, a);
  EXPECT_EQ(pa.dtype, GEMMC_BF16);
  EXPECT_EQ(pa.base, 0x10000000u);
  EXPECT_EQ(pa.dims[0], 72u); // K innermost
  EXPECT_EQ(pa.dims[1], 300u);
  EXPECT_EQ(pa.strideBytes, 160u);
  EXPECT_EQ(pa.box[0], 64u);
  EXPECT_EQ(pa.box[1], 128u);
  EXPECT_EQ(pa.swizzle, 128);
  TensorMapParams pb = tensorMapParams(m, Operand::B, a);
  EXPECT_EQ(pb.dims[0], 72u); // B col: K innermost, N rows
  EXPECT_EQ(pb.dims[1], 500u);
  EXPECT_EQ(pb.strideBytes, 144u);
  EXPECT_EQ(pb.box[1], 256u);

  Manifest mr = makeManifest(GEMMC_COL, GEMMC_ROW);
  gemmc_gemm_args r = a;
  r.a_layout = GEMMC_COL;
  r.b_layout = GEMMC_ROW;
  r.lda = 304;
  r.ldb = 504;
  pa = tensorMapParams(mr, Operand::A, r);
  EXPECT_EQ(pa.dims[0], 300u); // A col: M innermost, K rows
  EXPECT_EQ(pa.dims[1], 72u);
  EXPECT_EQ(pa.strideBytes, 608u);
  pb = tensorMapParams(mr, Operand::B, r);
  EXPECT_EQ(pb.dims[0], 500u); // B row: N innermost, K rows
  EXPECT_EQ(pb.dims[1], 72u);
  EXPECT_EQ(pb.strideBytes, 1008u);
  EXPECT_TRUE(pb == tensorMapParams(mr, Operand::B, r));
  r.ldb = 512;
  EXPECT_FALSE(pb == tensorMapParams(mr, Operand::B, r));
}

TEST(RuntimePlan, TensorMapParamsForC) {
  // The TMA-store epilogue's map: C is M rows of N, ldc apart.
  Manifest m = makeManifest();
  m.tmaps[2] = {Operand::C, {64, 64}, 128};
  m.params = {Param::TmapA, Param::TmapB, Param::TmapC, Param::C, Param::M, Param::N, Param::K, Param::Ldc};
  gemmc_gemm_args a = raggedArgs(/*ldc=*/520);
  TensorMapParams pc = tensorMapParams(m, Operand::C, a);
  EXPECT_EQ(pc.dtype, GEMMC_BF16);
  EXPECT_EQ(pc.base, 0x30000000u);
  EXPECT_EQ(pc.base, reinterpret_cast<uintptr_t>(a.c));
  EXPECT_EQ(pc.dims[0], 500u); // N innermost
  EXPECT_EQ(pc.dims[1], 300u); // M rows
  EXPECT_EQ(pc.strideBytes, 1040u); // 520 * 2
  EXPECT_EQ(pc.box[0], 64u);
  EXPECT_EQ(pc.box[1], 64u);
  EXPECT_EQ(pc.swizzle, 128);
  EXPECT_EQ(check(m, a), "ok");
  // A and B are as without the C map.
  TensorMapParams pa = tensorMapParams(m, Operand::A, a);
  EXPECT_EQ(pa.base, 0x10000000u);
  EXPECT_EQ(pa.dims[0], 72u);
  EXPECT_EQ(pa.dims[1], 300u);

  // f32 C: 4-byte elements, the 32-element box of a 128-byte row.
  m.c = {GEMMC_F32, GEMMC_ROW};
  m.tmaps[2] = {Operand::C, {32, 64}, 128};
  a.c_type = GEMMC_F32;
  a.ldc = 504;
  pc = tensorMapParams(m, Operand::C, a);
  EXPECT_EQ(pc.dtype, GEMMC_F32);
  EXPECT_EQ(pc.dims[0], 500u);
  EXPECT_EQ(pc.dims[1], 300u);
  EXPECT_EQ(pc.strideBytes, 2016u); // 504 * 4
  EXPECT_EQ(pc.box[0], 32u);
  EXPECT_EQ(pc.box[1], 64u);
  // The cache key changes with the C pointer.
  TensorMapParams moved = pc;
  a.c = reinterpret_cast<void *>(static_cast<uintptr_t>(0x40000000));
  EXPECT_FALSE(moved == tensorMapParams(m, Operand::C, a));
  EXPECT_EQ(tensorMapParams(m, Operand::C, a).base, 0x40000000u);
}

TEST(RuntimePlan, DataParallelGrid) {
  Manifest m = makeManifest(); // tile 128 x 256
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 1000, 1000, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 8u * 4u);
  EXPECT_EQ(d.grid[0], 32u);
  EXPECT_EQ(d.grid[1], 1u);
  EXPECT_EQ(d.grid[2], 1u);
  EXPECT_EQ(d.block[0], 256u);
  EXPECT_EQ(d.dynamicSmemBytes, 132096u);
  ASSERT_TRUE(computeLaunch(m, 1, 1, 132, d, err));
  EXPECT_EQ(d.grid[0], 1u);
  ASSERT_TRUE(computeLaunch(m, 8192, 28672, 132, d, err));
  EXPECT_EQ(d.grid[0], 64u * 112u);
}

// split_k (issue 16): one CTA per piece while they fit the SMs, else one
// per SM as stream_k.
TEST(RuntimePlan, SplitKGrid) {
  Manifest m = makeManifest(); // tile 128 x 256
  m.scheduler = Scheduler::StreamK;
  m.splitK = 4;
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 256, 8192, 132, d, err)) << err; // 2 x 32 tiles
  EXPECT_EQ(d.tiles, 64u);
  EXPECT_EQ(d.grid[0], 132u); // 256 pieces > 132 SMs
  ASSERT_TRUE(computeLaunch(m, 16, 8192, 132, d, err)); // 32 tiles
  EXPECT_EQ(d.grid[0], 128u);
  m.splitK = 1; // plain stream_k: every SM
  ASSERT_TRUE(computeLaunch(m, 16, 8192, 132, d, err));
  EXPECT_EQ(d.grid[0], 132u);
}

TEST(RuntimePlan, ClusterRoundsGridUp) {
  Manifest m = makeManifest();
  m.cluster = {2, 1, 1};
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 129, 256, 132, d, err)); // 2 x 1 tiles
  EXPECT_EQ(d.grid[0], 2u);
  ASSERT_TRUE(computeLaunch(m, 129, 512, 132, d, err)); // 2 x 2 = 4
  EXPECT_EQ(d.grid[0], 4u);
  ASSERT_TRUE(computeLaunch(m, 1, 768, 132, d, err)); // 1 x 3 = 3 -> 4
  EXPECT_EQ(d.grid[0], 4u);
  EXPECT_EQ(d.cluster[0], 2u);
}

// A cluster along N is launched as one row of CX x CY CTAs along x, one
// cluster per cluster tile of CX x CY tiles (the kernel places its CTAs by
// rank): an odd number of tile columns leaves the last CTA of each cluster
// row past N, not a second pass.
TEST(RuntimePlan, ClusterAlongNLaunchesAlongX) {
  Manifest m = makeManifest(); // tile 128 x 256
  m.cluster = {1, 2, 1};
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 384, 768, 132, d, err)) << err; // 3 x 3 tiles
  EXPECT_EQ(d.tiles, 9u);
  EXPECT_EQ(d.grid[0], 12u); // 3 x ceil(3 / 2) = 6 clusters of 2
  EXPECT_EQ(d.cluster, (std::array<uint32_t, 3>{2, 1, 1}));
  m.cluster = {2, 2, 1};
  ASSERT_TRUE(computeLaunch(m, 384, 768, 132, d, err)) << err; // 2 x 2 clusters
  EXPECT_EQ(d.grid[0], 16u);
  EXPECT_EQ(d.cluster, (std::array<uint32_t, 3>{4, 1, 1}));
  m.scheduler = Scheduler::Persistent;
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 130, d, err)) << err;
  EXPECT_EQ(d.grid[0], 128u); // whole clusters of 4
  EXPECT_EQ(residentSlots(m, 131), 128u);
}

TEST(RuntimePlan, PersistentGrid) {
  Manifest m = makeManifest();
  m.scheduler = Scheduler::Persistent;
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 132, d, err));
  EXPECT_EQ(d.tiles, 64u * 32u);
  EXPECT_EQ(d.grid[0], 132u);
  ASSERT_TRUE(computeLaunch(m, 256, 1024, 132, d, err)); // 8 tiles: fewer than SMs
  EXPECT_EQ(d.grid[0], 8u);
  m.cluster = {4, 1, 1};
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 130, d, err));
  EXPECT_EQ(d.grid[0], 128u); // rounded down to whole clusters
  ASSERT_TRUE(computeLaunch(m, 128, 256 * 5, 130, d, err)); // 5 tiles -> 8
  EXPECT_EQ(d.grid[0], 8u);
  EXPECT_FALSE(computeLaunch(m, 128, 256, 3, d, err));
  EXPECT_EQ(err, "persistent scheduler: 3 SMs cannot hold one cluster of 4");
}

TEST(RuntimePlan, PersistentGridIsUnchanged) {
  // Still min(tiles, slots): one 128 x 256 tile is one CTA.
  Manifest m = makeManifest();
  m.scheduler = Scheduler::Persistent;
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 128, 128, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 1u);
  EXPECT_EQ(d.grid[0], 1u);
  ASSERT_TRUE(computeLaunch(m, 1000, 1000, 132, d, err)) << err; // 8 x 4 = 32 tiles
  EXPECT_EQ(d.grid[0], 32u);
  EXPECT_EQ(workspaceBytes(m, 132), 0u);
}

Manifest makeStreamK() {
  Manifest m = makeManifest(); // tile 128 x 256, cluster [1, 1, 1]
  m.scheduler = Scheduler::StreamK;
  m.workspaceBytesPerCta = 128 + 128 * 256 * 4;
  m.params.push_back(Param::Workspace);
  return m;
}

TEST(RuntimePlan, StreamKGridIsEverySlot) {
  Manifest m = makeStreamK();
  LaunchDims d;
  std::string err;
  // One tile, fewer than the slots: stream-K still uses all 132 CTAs.
  ASSERT_TRUE(computeLaunch(m, 128, 128, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 1u);
  EXPECT_EQ(d.grid[0], 132u);
  EXPECT_EQ(d.grid[1], 1u);
  EXPECT_EQ(d.grid[2], 1u);
  EXPECT_EQ(d.cluster[0], 1u);
  EXPECT_EQ(d.block[0], 256u);
  EXPECT_EQ(d.dynamicSmemBytes, 132096u);
  ASSERT_TRUE(computeLaunch(m, 1000, 1000, 132, d, err)) << err; // 32 tiles
  EXPECT_EQ(d.tiles, 32u);
  EXPECT_EQ(d.grid[0], 132u);
  // More tiles than slots: still the slots.
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 64u * 32u);
  EXPECT_EQ(d.grid[0], 132u);
  // Exactly as many tiles as slots (132 = 12 x 11 tiles).
  ASSERT_TRUE(computeLaunch(m, 12 * 128, 11 * 256, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 132u);
  EXPECT_EQ(d.grid[0], 132u);
  // The slot count follows the resident CTAs the runtime computes.
  ASSERT_TRUE(computeLaunch(m, 128, 128, 78, d, err)) << err;
  EXPECT_EQ(d.grid[0], 78u);
  EXPECT_FALSE(computeLaunch(m, 128, 128, 0, d, err));
  EXPECT_EQ(err, "stream_k scheduler: 0 SMs cannot hold one cluster of 1");
}

TEST(RuntimePlan, WorkspaceIsSlotsTimesBytesPerCta) {
  Manifest m = makeStreamK();
  EXPECT_EQ(residentSlots(m, 132), 132u);
  EXPECT_EQ(workspaceBytes(m, 132), 132u * 131200u);
  EXPECT_EQ(workspaceBytes(m, 0), 0u);
  // The largest stream-K grid fits the workspace exactly.
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 132, d, err)) << err;
  EXPECT_EQ(uint64_t(d.grid[0]) * uint64_t(m.workspaceBytesPerCta), workspaceBytes(m, 132));
  EXPECT_EQ(workspaceBytes(makeManifest(), 132), 0u); // no workspace
  Manifest p = makeManifest();
  p.cluster = {4, 1, 1};
  EXPECT_EQ(residentSlots(p, 130), 128u);
  EXPECT_EQ(residentSlots(p, 3), 0u);
}

// stream_k in a 2x1 cluster (sm_90a): every slot, in whole clusters (on the
// H200's 132 SMs, 66 clusters of 2, however few the tiles); the workspace has
// a slot a CTA (cluster x 2 + rank). With fewer resident CTAs (the driver's
// max active clusters x 2, Runtime.cpp) the grid and the workspace follow.
TEST(RuntimePlan, StreamKClusterGridAndWorkspace) {
  Manifest m = makeStreamK(); // tile 128 x 256
  m.cluster = {2, 1, 1};
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 132, d, err)) << err;
  EXPECT_EQ(d.tiles, 64u * 32u);
  EXPECT_EQ(d.grid[0], 132u);
  EXPECT_EQ(d.cluster, (std::array<uint32_t, 3>{2, 1, 1}));
  ASSERT_TRUE(computeLaunch(m, 256, 256, 132, d, err)) << err; // 2 tiles, one cluster tile
  EXPECT_EQ(d.tiles, 2u);
  EXPECT_EQ(d.grid[0], 132u);
  ASSERT_TRUE(computeLaunch(m, 4100, 4096, 132, d, err)) << err; // 33 tile rows (odd)
  EXPECT_EQ(d.tiles, 33u * 16u);
  EXPECT_EQ(d.grid[0], 132u);
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 131, d, err)) << err; // whole clusters
  EXPECT_EQ(d.grid[0], 130u);
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 120, d, err)) << err; // 60 clusters fit
  EXPECT_EQ(d.grid[0], 120u);
  EXPECT_EQ(residentSlots(m, 132), 132u);
  EXPECT_EQ(workspaceBytes(m, 132), 132u * 131200u);
  EXPECT_EQ(workspaceBytes(m, 131), 130u * 131200u);
  // The largest grid fits the workspace exactly.
  ASSERT_TRUE(computeLaunch(m, 8192, 8192, 132, d, err)) << err;
  EXPECT_EQ(uint64_t(d.grid[0]) * uint64_t(m.workspaceBytesPerCta), workspaceBytes(m, 132));
  EXPECT_FALSE(computeLaunch(m, 128, 128, 1, d, err));
  EXPECT_EQ(err, "stream_k scheduler: 1 SMs cannot hold one cluster of 2");
  EXPECT_EQ(workspaceBytes(m, 1), 0u);
}

TEST(RuntimePlan, EmptyProblemHasNoGrid) {
  LaunchDims d;
  std::string err;
  EXPECT_FALSE(computeLaunch(makeManifest(), 0, 10, 132, d, err));
}

} // namespace

namespace {
// makeManifest with a per-row bf16 bias and an aux output.
Manifest fusedManifest() {
  Manifest m = makeManifest();
  m.params.push_back(Param::Bias);
  m.params.push_back(Param::Aux);
  m.biasType = GEMMC_BF16;
  m.biasPerRow = true;
  return m;
}
gemmc_gemm_args fusedArgs() {
  gemmc_gemm_args a = makeArgs();
  a.bias = addr(0x40000000);
  a.bias_length = 1000;
  a.bias_type = GEMMC_BF16;
  a.aux = const_cast<void *>(addr(0x50000000));
  return a;
}
} // namespace

TEST(RuntimePlan, BiasAndAuxChecks) {
  EXPECT_EQ(check(fusedManifest(), fusedArgs()), "ok");
  gemmc_gemm_args a = fusedArgs();
  a.bias_length = 999;
  EXPECT_EQ(check(fusedManifest(), a), "bias_length = 999 but the bias is one value per row: M = 1000");
  a = fusedArgs();
  a.bias_type = GEMMC_F32;
  EXPECT_EQ(check(fusedManifest(), a), "bias_type = f32 but kernel 'k' reads a bf16 bias");
  a = fusedArgs();
  a.bias = addr(0x40000001);
  EXPECT_EQ(check(fusedManifest(), a),
            "bias = 1073741825 is not aligned to its 2-byte element (address % 2 = 1)");
  a = fusedArgs();
  a.bias = nullptr;
  EXPECT_EQ(check(fusedManifest(), a), "bias is a null pointer; kernel 'k' reads a bias");
  a = fusedArgs();
  a.aux = nullptr;
  EXPECT_EQ(check(fusedManifest(), a),
            "aux is a null pointer; kernel 'k' stores the pre-activation output there");
  a = fusedArgs();
  EXPECT_EQ(check(makeManifest(), a),
            "bias is set but kernel 'k' takes no bias; build it with epilogue bias: row or col");
  a = makeArgs();
  a.aux = const_cast<void *>(addr(0x50000000));
  EXPECT_EQ(check(makeManifest(), a),
            "aux is set but kernel 'k' stores no auxiliary output; build it with epilogue aux: true");
}

TEST(RuntimePlan, PdlFlagNeedsAWaitingKernel) {
  gemmc_gemm_args a = makeArgs();
  a.flags = GEMMC_LAUNCH_PDL;
  EXPECT_EQ(check(makeManifest(), a),
            "GEMMC_LAUNCH_PDL but kernel 'k' does not wait for the previous kernel (it would read A before "
            "that kernel's writes are visible); build it with pdl_wait: before_loads or launch without the flag");
  Manifest m = makeManifest();
  m.pdlWait = true;
  EXPECT_EQ(check(m, a), "ok");
  a.flags = 6;
  EXPECT_EQ(check(m, a), "flags = 6 has unknown bits; the only flag is GEMMC_LAUNCH_PDL (1)");
}

namespace {
/// specs/b200_f16_tn_persistent.yaml's manifest (test/unit/
/// RuntimeManifestTest.cpp parses the JSON).
Manifest makeB200() {
  Manifest m = makeManifest();
  m.kernel = "b200_f16_tn_persistent";
  m.arch = "sm_100a";
  m.archMajor = 10;
  m.block = {192, 1, 1};
  m.dynamicSmemBytes = 197736;
  m.a = {GEMMC_F16, GEMMC_ROW};
  m.b = {GEMMC_F16, GEMMC_COL};
  m.c = {GEMMC_F16, GEMMC_ROW};
  m.params.push_back(Param::Alpha);
  m.scheduler = Scheduler::Persistent;
  return m;
}
} // namespace

// The B200 (148 SMs): a persistent CTA per SM (its two 256-column
// accumulators fill tensor memory), seed 004's 4096^3 has 32 x 16 tiles;
// data-parallel launches them all; the CTA pair's 2x1 cluster keeps whole
// clusters (148 is even) and rounds a data-parallel grid up to them.
TEST(RuntimePlan, B200Grids) {
  Manifest m = makeB200();
  LaunchDims d;
  std::string err;
  ASSERT_TRUE(computeLaunch(m, 4096, 4096, 148, d, err)) << err;
  EXPECT_EQ(d.tiles, 512u);
  EXPECT_EQ(d.grid[0], 148u);
  EXPECT_EQ(d.block[0], 192u);
  EXPECT_EQ(d.dynamicSmemBytes, 197736u);
  // Llama 3 70B decode, M = 256: 2 x 32 tiles, fewer than the SMs.
  ASSERT_TRUE(computeLaunch(m, 256, 8192, 148, d, err)) << err;
  EXPECT_EQ(d.grid[0], 64u);
  m.scheduler = Scheduler::DataParallel;
  ASSERT_TRUE(computeLaunch(m, 4096, 4096, 148, d, err)) << err;
  EXPECT_EQ(d.grid[0], 512u);
  m.cluster = {2, 1, 1};
  ASSERT_TRUE(computeLaunch(m, 4096 - 128, 4096 - 256, 148, d, err)) << err; // 31 x 15 = 465
  EXPECT_EQ(d.grid[0], 466u);
  EXPECT_EQ(d.cluster[0], 2u);
  m.scheduler = Scheduler::Persistent;
  ASSERT_TRUE(computeLaunch(m, 4096, 4096, 148, d, err)) << err;
  EXPECT_EQ(d.grid[0], 148u);
  EXPECT_EQ(residentSlots(m, 147), 146u); // whole pairs only
}

TEST(RuntimePlan, L2PromotionFromEnvironment) {
  std::string error;
  EXPECT_EQ(parseL2Promotion(nullptr, error), 256);
  EXPECT_EQ(parseL2Promotion("", error), 256);
  EXPECT_EQ(parseL2Promotion("none", error), 0);
  EXPECT_EQ(parseL2Promotion("64", error), 64);
  EXPECT_EQ(parseL2Promotion("128", error), 128);
  EXPECT_EQ(parseL2Promotion("256", error), 256);
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(parseL2Promotion("512", error), -1);
  EXPECT_EQ(error, "GEMMC_TMA_L2_PROMOTION = '512': expected none, 64, 128 or 256 (bytes; unset: 256)");
  EXPECT_EQ(parseL2Promotion("0", error), -1);
}
