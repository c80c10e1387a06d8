//===- TargetTest.cpp - The hardware database ----------------------------===//
#include "gemmc/Target/Target.h"
#include <gtest/gtest.h>

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
