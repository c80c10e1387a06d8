//===- Residency.h - How many CTAs of a schedule an SM holds -----*- C++ -*-===//
//
// One derivation for the model (gemmc analyze's residency section) and the
// lowering (gemmc-tile's .minnctapersm on targets without setmaxnreg, so that
// ptxas keeps to the register budget the schedule planned).
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_RESIDENCY_H
#define GEMMC_SPEC_RESIDENCY_H

#include "gemmc/Spec/Rules.h"
#include <string>

namespace gemmc {

/// The resource that caps how many CTAs an SM holds at once.
enum class OccupancyLimit { SharedMemory, Registers, Threads, Blocks, TensorMemory };
llvm::StringRef occupancyLimitName(OccupancyLimit limit);

struct Residency {
  int64_t regsPerThreadAllocated = 0; ///< what a thread is given at launch
  int64_t regsPerCta = 0;
  int64_t bySmem = 0, byRegs = 0, byThreads = 0, byBlocks = 0;
  /// sm_100a: CTAs whose tcgen05.alloc fits the SM's tensor-memory columns
  /// (a CTA beyond that would wait in tcgen05.alloc); else the block limit.
  int64_t byTmem = 0;
  int64_t resident = 0; ///< the smallest of the limits, at least 1
  /// The registers a thread may use with `resident` CTAs on the SM (the
  /// cap ptxas derives from .maxntid and .minnctapersm, which gemmc-tile
  /// sets from `resident` on targets without setmaxnreg).
  int64_t regCapPerThread = 0;
  OccupancyLimit binding = OccupancyLimit::SharedMemory;
  std::string alsoBinding; ///< other limits equal to the binding one, e.g. "registers"
};

/// sm_80 (computeResidency): what a thread needs besides its accumulators
/// and its stage's fragments: addresses and loop state.
constexpr int64_t kMmaSyncStateRegs = 16;

/// The CTAs of `spec` (whose resources are `r`) one SM of its device holds.
Residency computeResidency(const KernelSpec &spec, const CtaResources &r);

/// sm_80: what carrying the next stage's first fragments across a K tile's
/// barrier costs besides them (the stage's address, the fill's registers
/// beside the carried fragments): at no headroom ptxas -arch=sm_80 spilled
/// 48-52 bytes in the 8-warp 128-register kernels.
constexpr int64_t kMmaSyncPrefetchRegs = 16;

/// sm_80: whether the register cap ptxas is given (Residency's
/// regCapPerThread) leaves kMmaSyncPrefetchRegs above what
/// computeResidency counts, so that the mainloop may read the next stage's
/// fragments before this stage's last mma.syncs.
bool mmaSyncPrefetchFits(const KernelSpec &spec, const CtaResources &r);

} // namespace gemmc

#endif // GEMMC_SPEC_RESIDENCY_H
