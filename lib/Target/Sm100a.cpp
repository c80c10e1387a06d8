//===- Sm100a.cpp - What the sm_100a lowering builds ---------------------===//
//
// The B200 kernels: TMA loads into a stage ring (shared with sm_90a;
// swizzled 128, 64 or 32 bytes, or unswizzled in 16-byte slabs of K),
// tcgen05.mma issued by one thread into tensor memory (one accumulator
// buffer, two under a persistent scheduler when they fit), an epilogue
// warpgroup that reads it back with tcgen05.ld and stores C from registers
// or through shared memory and TMA. warp_specialized: a TMA warp and an MMA
// warp; multistage: the MMA warp's thread loads too (one stage: loads and
// MMAs take turns). Operands f16, bf16, tf32 or FP8 (e4m3/e5m2, scales per
// tensor, or per row of A and column of B: the epilogue multiplies them
// in; or DeepSeek-V3's blocks: each K tile's MMAs write a partial in
// tensor memory that the epilogue warpgroup folds into an f32 sum there,
// gemmc.acc_fold_scales, gemmc.acc_fold); outputs bf16, f16, f32 or FP8 (e4m3/e5m2 with scale_d,
// converted in pairs). A 2x1 multicast
// cluster is a CTA pair: cta_group::2, each CTA loads its A rows and half of
// B, the leader issues the pair's MMAs; [1, 2] and [2, 2] multicast
// clusters are cta_group::1 CTAs that share A (and B) through multicast
// TMA. Everything else a valid sm_100a spec may ask is modelled (gemmc
// analyze) but refused here.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Isa.h"
#include "llvm/Support/FormatVariadic.h"

using namespace gemmc;
using llvm::formatv;

int64_t gemmc::mmaCtaGroup(const KernelSpec &s) {
  // A pair's MMA covers both CTAs' rows: BLOCK_M a CTA is the shape's M
  // per CTA, and the pair is the cluster's (along M, sharing B).
  for (const MmaMShape &shape : isaFor(s.arch).mma.shapes)
    if (shape.ctas > 1 && shape.mPerCta() == s.blockM() &&
        s.clusterShape[0] == shape.ctas && s.clusterShape[1] == 1 &&
        s.mainloop.multicast)
      return shape.ctas;
  return 1;
}

void gemmc::sm100aUnsupported(const KernelSpec &s, std::vector<Violation> &out) {
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  const MmaMShape &cta = isaFor(Arch::SM100a).mma.defaultShape();
  if (s.blockM() != cta.m)
    no("tile_shape",
       formatv("BLOCK_M = {0} is not implemented on sm_100a yet (one "
               "tcgen05.mma cta_group::1 of M = {1} per CTA); use BLOCK_M = {1}",
               s.blockM(), cta.m)
           .str());
  // A cluster is a CTA pair, or a multicast cluster of cta_group::1 CTAs
  // sharing A along cluster rows and B along columns: seed 004's step 6
  // ([2, 2]) and [1, 2] (A only). gemmc.stage_release's `ctas` tells the
  // pair from the others.
  bool multicastCluster = s.mainloop.multicast && s.clusterShape[0] <= 2 &&
                          s.clusterShape[1] == 2;
  if (s.clusterSize() != 1 && mmaCtaGroup(s) == 1 && !multicastCluster)
    no("cluster_shape",
       formatv("cluster_shape [{0}, {1}]{2} is not implemented on sm_100a yet: "
               "a cluster is built as a CTA pair (cta_group::2: [2, 1] with "
               "multicast: true and BLOCK_M = {3} a CTA) or as a [1, 2] or 2x2 "
               "multicast cluster; use [2, 1], [1, 2] or [2, 2] with multicast: "
               "true, or [1, 1]",
               s.clusterShape[0], s.clusterShape[1],
               s.mainloop.multicast ? "" : " without multicast", cta.m)
           .str());
  else if (multicastCluster && swizzleSpanBytes(s.mainloop.swizzle) == 0)
    // The multicast parts of an unswizzled stage's 16-byte slabs would
    // need a part offset within each slab (TmaRing's fill has one part).
    no("mainloop.smem_swizzle",
       formatv("a {0}x{1} multicast cluster with smem_swizzle: none is not "
               "implemented on sm_100a yet; use smem_swizzle: 128b, 64b or 32b",
               s.clusterShape[0], s.clusterShape[1])
           .str());
  else if (s.clusterSize() != 1 && s.kernelSchedule == KernelSchedule::Multistage)
    no("kernel_schedule",
       formatv("a {0} with kernel_schedule: multistage is not implemented on "
               "sm_100a yet; use warp_specialized",
               mmaCtaGroup(s) > 1 ? "CTA pair" : "multicast cluster")
           .str());
  // The fused epilogue's math (EpilogueMath: bias, aux, activations) runs
  // in the tensor-memory epilogue as in the wgmma one; the sm_100a roles do
  // not place the PDL ops yet.
  if (s.pdlWait != PdlWait::None || s.pdlLaunch != PdlLaunch::None)
    no("pdl_wait", "programmatic dependent launch is not implemented on sm_100a "
                   "yet; use pdl_wait: none and pdl_launch_dependents: none");
  // stream_k in a cluster shares the K iterations by cluster tile and gives
  // each CTA of a cluster its own workspace slot: built for sm_90a's [2, 1]
  // cooperative kernel, not for sm_100a's clusters or its CTA pair (whose
  // two CTAs hold one accumulator).
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK && s.clusterSize() != 1)
    no("cluster_shape", "tile_scheduler kind stream_k with a cluster (or a CTA pair) "
                        "is not implemented on sm_100a yet; use cluster_shape [1, 1]");
  // kind::f16 (f16, bf16), kind::tf32, and kind::f8f6f4 on any pair of
  // e4m3 and e5m2 (each operand's format in the instruction descriptor).
  bool sameKind = (s.a.element == ElementType::BF16 || s.a.element == ElementType::F16 ||
                   s.a.element == ElementType::TF32) &&
                  s.b.element == s.a.element;
  if (!sameKind && !(isFP8(s.a.element) && isFP8(s.b.element)))
    no("operands.a.element",
       formatv("{0} x {1} operands are not implemented on sm_100a yet; use bf16, "
               "f16, tf32 or FP8 (e4m3, e5m2: tcgen05.mma kind::f16, kind::tf32 "
               "and kind::f8f6f4)",
               elementTypeName(s.a.element), elementTypeName(s.b.element))
           .str());
  if (s.a.layout != Layout::Row || s.b.layout != Layout::Col)
    no("operands.b.layout",
       "only K-major operands (A row-major, B col-major) are implemented on "
       "sm_100a yet; use a: {layout: row}, b: {layout: col}");
  if (s.mainloop.load != LoadKind::Tma)
    no("mainloop.load", "sm_100a fills stages with TMA only; use load: tma");
  // Every swizzle: a swizzled stage holds one span of K (the MMAs step
  // along it); an unswizzled one any whole number of 16-byte slabs of K.
  int span = swizzleSpanBytes(s.mainloop.swizzle);
  int64_t rowBytes = s.blockK() * elementBytes(s.a.element);
  if (span != 0 && rowBytes != span)
    no("tile_shape",
       formatv("BLOCK_K = {0} ({1} bytes of K per row) with smem_swizzle {2} is "
               "not implemented on sm_100a yet: a stage takes one {3}-byte "
               "swizzle span of K; use BLOCK_K = {4} or smem_swizzle: none",
               s.blockK(), rowBytes, swizzleName(s.mainloop.swizzle), span,
               span / elementBytes(s.a.element))
           .str());
  // One stage (seed 004's step 1) is built: the ring's barriers make the
  // loads and the MMAs take turns, with no overlap.
  refuseUnbuiltTmaKernel(s, "tcgen05", out, /*everySwizzle=*/true, /*oneStage=*/true);
}
