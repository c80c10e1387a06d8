//===- Residency.cpp - How many CTAs of a schedule an SM holds ------------===//
#include "gemmc/Spec/Residency.h"
#include "gemmc/Target/Isa.h"
#include "gemmc/Target/Sm80.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>

using namespace gemmc;

llvm::StringRef gemmc::occupancyLimitName(OccupancyLimit limit) {
  switch (limit) {
  case OccupancyLimit::SharedMemory:
    return "shared memory";
  case OccupancyLimit::Registers:
    return "registers";
  case OccupancyLimit::Threads:
    return "threads";
  case OccupancyLimit::Blocks:
    return "blocks per SM";
  case OccupancyLimit::TensorMemory:
    return "tensor memory";
  }
  llvm_unreachable("unknown occupancy limit");
}

/// sm_80: the registers a thread holds (0 elsewhere or without a warp
/// grid): see computeResidency.
static int64_t mmaSyncHeldRegs(const KernelSpec &spec, const CtaResources &r) {
  if (spec.arch != Arch::SM80)
    return 0;
  std::optional<MmaSyncWarpGrid> grid = mmaSyncWarpGrid(spec, r.threads);
  return grid ? r.accRegsPerThread + 2 * mmaSyncStepFragmentRegs(*grid) + kMmaSyncStateRegs : 0;
}

bool gemmc::mmaSyncPrefetchFits(const KernelSpec &spec, const CtaResources &r) {
  return mmaSyncHeldRegs(spec, r) + kMmaSyncPrefetchRegs <=
         computeResidency(spec, r).regCapPerThread;
}

Residency gemmc::computeResidency(const KernelSpec &spec, const CtaResources &r) {
  const DeviceInfo &dev = spec.deviceInfo();
  Residency a;
  // A warp-specialized kernel launches every thread with one register count
  // and then moves registers from the producer to the consumers
  // (setmaxnreg): the launch count must cover the average.
  int64_t mmaThreads = r.consumerWarpgroups * kWarpgroupSize;
  int64_t launchRegs = r.regsPerThread;
  if (r.producerThreads > 0 && spec.arch == Arch::SM90a)
    launchRegs = llvm::divideCeil(mmaThreads * r.regsPerThread +
                                      r.producerThreads * r.producerRegs,
                                  r.threads);
  a.regsPerThreadAllocated = llvm::alignTo(launchRegs, isa::kRegisterAllocUnit);
  a.regsPerCta = a.regsPerThreadAllocated * r.threads;
  a.bySmem = r.smemBytes > 0 ? dev.smemPerSmBytes / r.smemBytes
                             : dev.maxBlocksPerSm;
  a.byRegs = dev.regsPerSm / a.regsPerCta;
  // sm_80: each thread also holds its warp's A and B fragments of two
  // mma.sync k steps (the lowering loads step j + 1, across a stage
  // boundary too, before the mma.syncs of step j) and what
  // kMmaSyncStateRegs counts. A second CTA is planned only when those fit:
  // bf16 128x128x32 on 8 warps needs 64 + 2 x 24 + 16 = 128 (ptxas: 128,
  // no spill at 2 CTAs); tf32 on 8 warps 64 + 2 x 24 + 16 = 128 as well.
  if (int64_t held = mmaSyncHeldRegs(spec, r))
    a.byRegs = std::max<int64_t>(1, std::min(a.byRegs, dev.regsPerSm / (held * r.threads)));
  a.byThreads = dev.maxThreadsPerSm / r.threads;
  a.byBlocks = dev.maxBlocksPerSm;
  // Each resident CTA holds its accumulators' tensor-memory columns.
  a.byTmem = r.tmemColumns > 0 ? isaFor(spec.arch).tmemColumns() / r.tmemColumns
                               : dev.maxBlocksPerSm;
  // Ties name the first in this order; the others go to alsoBinding.
  std::pair<OccupancyLimit, int64_t> limits[] = {
      {OccupancyLimit::SharedMemory, a.bySmem},
      {OccupancyLimit::Registers, a.byRegs},
      {OccupancyLimit::Threads, a.byThreads},
      {OccupancyLimit::Blocks, a.byBlocks},
      {OccupancyLimit::TensorMemory, a.byTmem}};
  a.resident = a.bySmem;
  for (auto [which, n] : limits)
    if (n < a.resident || (n == a.resident && which == limits[0].first)) {
      a.resident = n;
      a.binding = which;
    }
  for (auto [which, n] : limits)
    if (which != a.binding && n == a.resident)
      a.alsoBinding += (a.alsoBinding.empty() ? "" : ", ") +
                       occupancyLimitName(which).str();
  // Valid specs always fit one CTA (the smem, register and thread rules);
  // keep what depends on it finite if one slips through.
  a.resident = std::max<int64_t>(a.resident, 1);
  a.regCapPerThread = std::min<int64_t>(dev.maxRegsPerThread,
                                        dev.regsPerSm / (a.resident * r.threads));
  return a;
}
