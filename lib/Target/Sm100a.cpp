//===- Sm100a.cpp - What the sm_100a lowering builds ---------------------===//
//
// The B200 kernels: TMA loads into a 128-byte-swizzled stage ring (shared
// with sm_90a), tcgen05.mma cta_group::1 issued by one thread of an MMA warp
// into tensor memory (one accumulator buffer, two under a persistent
// scheduler when they fit), an epilogue warpgroup that reads it back with
// tcgen05.ld and stores C from registers or through shared memory and TMA.
// Everything else a valid sm_100a spec may ask is modelled (gemmc analyze)
// but refused here.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Isa.h"
#include "llvm/Support/FormatVariadic.h"

using namespace gemmc;
using llvm::formatv;

void gemmc::sm100aUnsupported(const KernelSpec &s, std::vector<Violation> &out) {
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  const MmaMShape &cta = isaFor(Arch::SM100a).mma.defaultShape();
  if (s.kernelSchedule != KernelSchedule::WarpSpecialized)
    no("kernel_schedule",
       formatv("kernel_schedule: {0} is not implemented on sm_100a yet; use "
               "warp_specialized (a TMA warp, an MMA warp, an epilogue warpgroup)",
               kernelScheduleName(s.kernelSchedule))
           .str());
  if (s.blockM() != cta.m)
    no("tile_shape",
       formatv("BLOCK_M = {0} is not implemented on sm_100a yet (one "
               "tcgen05.mma cta_group::1 of M = {1} per CTA); use BLOCK_M = {1}",
               s.blockM(), cta.m)
           .str());
  if (s.clusterSize() != 1)
    no("cluster_shape",
       formatv("cluster_shape [{0}, {1}] (TMA multicast, cta_group::2 CTA pairs) "
               "is not implemented on sm_100a yet; use [1, 1]",
               s.clusterShape[0], s.clusterShape[1])
           .str());
  // The fused epilogue's math (EpilogueMath) is target-neutral, but the
  // tensor-memory epilogue does not call it yet, nor do the sm_100a roles
  // place the PDL ops.
  if (s.epilogue.bias != Bias::None)
    no("epilogue.bias", "a bias is not implemented on sm_100a yet; use bias: none");
  if (s.epilogue.activation != Activation::None)
    no("epilogue.activation",
       "activations are not implemented on sm_100a yet; use activation: none");
  if (s.pdlWait != PdlWait::None || s.pdlLaunch != PdlLaunch::None)
    no("pdl_wait", "programmatic dependent launch is not implemented on sm_100a "
                   "yet; use pdl_wait: none and pdl_launch_dependents: none");
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK || s.tileScheduler.splitK != 1)
    no("tile_scheduler.kind", "stream_k and split_k are not implemented on sm_100a "
                              "yet; use data_parallel or persistent");
  bool kinds = (s.a.element == ElementType::BF16 || s.a.element == ElementType::F16 ||
                s.a.element == ElementType::TF32) &&
               s.b.element == s.a.element;
  if (!kinds)
    no("operands.a.element",
       formatv("{0} x {1} operands are not implemented on sm_100a yet; use bf16, "
               "f16 or tf32 (tcgen05.mma kind::f16 and kind::tf32)",
               elementTypeName(s.a.element), elementTypeName(s.b.element))
           .str());
  if (s.a.layout != Layout::Row || s.b.layout != Layout::Col)
    no("operands.b.layout",
       "only K-major operands (A row-major, B col-major) are implemented on "
       "sm_100a yet; use a: {layout: row}, b: {layout: col}");
  if (s.mainloop.load != LoadKind::Tma)
    no("mainloop.load", "sm_100a fills stages with TMA only; use load: tma");
  refuseUnbuiltTmaKernel(s, "tcgen05", out);
}
