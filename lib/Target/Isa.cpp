//===- Isa.cpp - What each target's instructions take and give -----------===//
//
// The three targets' descriptions. Shapes are the PTX ISA's: mma.sync
// m16n8k{8,16} (sm_80 has no FP8 mma.sync; m16n8k32 e4m3 is sm_89), wgmma
// m64nNk{8,16,32} with N = 8..256 in steps of 8, and tcgen05.mma with
// M = 64 (N = 8..256 step 8) or 128 (N = 16..256 step 16) per CTA, or 256
// across a CTA pair (cta_group::2, N = 16..256 step 16).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Isa.h"
#include "llvm/Support/ErrorHandling.h"

using namespace gemmc;

const MmaMShape *MmaIsa::shape(int64_t m, int ctas) const {
  for (const MmaMShape &s : shapes)
    if (s.m == m && s.ctas == ctas)
      return &s;
  return nullptr;
}

static const MmaMShape kMmaSyncShapes[] = {
    {/*m=*/16, /*ctas=*/1, /*nMin=*/8, /*nMax=*/8, /*nStep=*/8}};
static const MmaMShape kWgmmaShapes[] = {
    {/*m=*/64, /*ctas=*/1, /*nMin=*/8, /*nMax=*/256, /*nStep=*/8}};
// M = 128 first: the shape a CTA uses alone by default.
static const MmaMShape kTcgen05Shapes[] = {
    {/*m=*/128, /*ctas=*/1, /*nMin=*/16, /*nMax=*/256, /*nStep=*/16},
    {/*m=*/64, /*ctas=*/1, /*nMin=*/8, /*nMax=*/256, /*nStep=*/8},
    {/*m=*/256, /*ctas=*/2, /*nMin=*/16, /*nMax=*/256, /*nStep=*/16}};

static const Isa kSm80{
    Arch::SM80,
    MmaIsa{MmaFamily::MmaSync, "mma.sync", kMmaSyncShapes, /*fp8=*/false,
           kMmaSyncAccumulator},
    // Each warp issues its own m16n8 fragments.
    /*warpgroupRows=*/0,
    /*hasTma=*/false, /*hasSetmaxnreg=*/false, /*hasTmem=*/false};

static const Isa kSm90a{
    Arch::SM90a,
    MmaIsa{MmaFamily::Wgmma, "wgmma.mma_async", kWgmmaShapes, /*fp8=*/true,
           kWgmmaAccumulator},
    /*warpgroupRows=*/kWgmmaShapes[0].m,
    /*hasTma=*/true, /*hasSetmaxnreg=*/true, /*hasTmem=*/false};

static const Isa kSm100a{
    Arch::SM100a,
    MmaIsa{MmaFamily::Tcgen05, "tcgen05.mma", kTcgen05Shapes, /*fp8=*/true,
           kTcgen05Ld32x32bAccumulator},
    // One thread issues tcgen05.mma for the CTA; a warpgroup drains it.
    /*warpgroupRows=*/0,
    /*hasTma=*/true, /*hasSetmaxnreg=*/true, /*hasTmem=*/true};

const Isa &gemmc::isaFor(Arch arch) {
  switch (arch) {
  case Arch::SM80:
    return kSm80;
  case Arch::SM90a:
    return kSm90a;
  case Arch::SM100a:
    return kSm100a;
  }
  llvm_unreachable("unknown arch");
}
