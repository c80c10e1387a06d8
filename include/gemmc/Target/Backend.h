//===- Backend.h - What gemmc's lowering builds for each target ----------===//
//
// Isa.h says what a target's instructions can do; a Backend says which of
// the schedules a valid spec may ask for the lowering builds on it today.
// Each target's checks live in its own file (lib/Target/Sm80.cpp,
// Sm90a.cpp, Sm100a.cpp); a new target adds its file and its entry in
// lib/Target/Backend.cpp, with the numbers the shared passes take from it
// (StreamKPolicy).
//
// The spec rules (Rules.h) check what the hardware allows; these checks
// come after them and check what gemmc has implemented.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TARGET_BACKEND_H
#define GEMMC_TARGET_BACKEND_H

#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/Rules.h"
#include <string>
#include <vector>

namespace gemmc {

/// How a target runs the shared stream-K mechanism (gemmc-schedule-tiles:
/// gemmc.stream_k_plan and gemmc.stream_k_fixup); the mechanism is one for
/// every target, these are the numbers it takes from the target.
struct StreamKPolicy {
  /// Split the last waves' K loops only where a data-parallel last wave
  /// would leave at least this many K tiles a CTA idle ((P - T mod P) x
  /// kTiles / P); elsewhere every tile goes whole. 0: split whenever the
  /// tiles do not fill whole waves.
  int64_t minIdleKTiles = 0;
  /// The f32 partials a thread moves to and from the workspace with one
  /// access (1 or 4: 16-byte vectors), where its accumulator count allows.
  int64_t partialVector = 1;
  /// The finishing CTA's loop over its peers skips those with an empty
  /// share (more CTAs than split iterations). Where a thread holds at most
  /// this many accumulators, it tests without division (a test out of the
  /// loop and a 32-bit remainder it carries); else with two 64-bit
  /// divisions a peer, whose slow path is a call. 0: always the divisions.
  int64_t peerTestMaxValues = 0;
  /// The split phase walks K together: each CTA takes its split tiles last
  /// to first (its first piece the head of a tile, k from 0, beside every
  /// other CTA's), the piece with a tile's last iteration finishes it, and
  /// a remainder of three quarters of a wave or more is split alone
  /// (wholeWaves). Else first to last, the piece with a tile's first
  /// iteration finishing it, each CTA at its own K offset: the split
  /// tiles' whole K panels at once (TF32 128x256 on cube4096 read 3.6x the
  /// DRAM bytes and ran 0.66x; bench/RESULTS.md, session 18).
  bool splitAligned = true;

  /// Aligned, a remainder of at least kRestAloneNum / kRestAloneDen of a
  /// wave is split alone (each tile then over at most ~2 CTAs); half a wave
  /// alone put each 8192-cube tile over ~3 CTAs and cost the block-scaled
  /// 128x256 kernel 3% (session 18).
  static constexpr int64_t kRestAloneNum = 3, kRestAloneDen = 4;

  /// The waves of whole tiles before the split ones, T tiles on P CTAs:
  /// T / P when P divides T or, aligned, when the remainder is split alone;
  /// else max(T / P - 1, 0) (the last full wave is split with the
  /// remainder). gemmc-schedule-tiles builds this rule in IR
  /// (gemmc.stream_k_plan); the model reads it here. minIdleKTiles aside.
  int64_t wholeWaves(int64_t tiles, int64_t ctas) const {
    int64_t waves = tiles / ctas, rest = tiles % ctas;
    if (rest == 0 || (splitAligned && rest * kRestAloneDen >= ctas * kRestAloneNum))
      return waves;
    return waves > 0 ? waves - 1 : 0;
  }
};

struct Backend {
  Arch arch;
  /// Appends what a valid spec for this target asks that the lowering
  /// cannot build yet. Null: the target has no lowering at all.
  void (*unsupported)(const KernelSpec &spec, std::vector<Violation> &out);
  StreamKPolicy streamK;
};

/// The backend of `arch`.
const Backend &backendFor(Arch arch);

/// What a valid schedule asks for that the lowering cannot build yet, as
/// violations of the rule "not-implemented" (anchored at the field to change).
std::vector<Violation> checkLoweringSupport(const KernelSpec &spec);

/// The columns N of each wgmma.mma_async (sm_90a) a consumer warpgroup
/// issues per k step: its BLOCK_N columns go as BLOCK_N / N independent
/// instructions, each with its own accumulator registers, issued interleaved.
/// `requested` 0 is the default, one instruction of BLOCK_N columns.
/// Otherwise `requested` must divide BLOCK_N, be a multiple of 8 within
/// wgmma's range and, for an N-major B, of one swizzle slab; if not, `why`
/// says what is wrong and the result is 0.
int64_t wgmmaColumns(const KernelSpec &spec, const KernelAbi &abi, int64_t requested,
                     std::string &why);

/// CTAs that issue one MMA together: 2 for an sm_100a CTA pair (tcgen05
/// cta_group::2: a [2, 1] multicast cluster of BLOCK_M = 128 a CTA, each CTA
/// loading its A rows and half of B, the leader issuing the pair's
/// 256-row MMAs), else 1 (lib/Target/Sm100a.cpp).
int64_t mmaCtaGroup(const KernelSpec &spec);

/// Whether the sm_90a lowering multiplies A of type `a` by B of type `b`
/// (bf16, f16 and tf32 alike, or two FP8 types).
bool sm90aLowersOperands(ElementType a, ElementType b);
/// sm_90a's part of checkLoweringSupport (lib/Target/Sm90a.cpp).
void sm90aUnsupported(const KernelSpec &spec, std::vector<Violation> &out);
/// sm_100a's part of checkLoweringSupport (lib/Target/Sm100a.cpp).
void sm100aUnsupported(const KernelSpec &spec, std::vector<Violation> &out);

/// What sm_90a's and sm_100a's kernels share and do not build yet: split_k
/// > 1 without stream_k, a TMA store of tile rows that are not whole
/// 128-byte chunks, a bias, an
/// activation, a swizzle other than 128b, a BLOCK_K other than one 128-byte
/// span of K (the `mma` named in the message takes one span a stage), fewer
/// than 2 stages. With `everySwizzle` (sm_100a, whose lowering reads every
/// swizzle) the swizzle and BLOCK_K are left to the caller; with `oneStage`
/// (sm_100a) a ring of one stage is built (loads and MMAs take turns).
void refuseUnbuiltTmaKernel(const KernelSpec &spec, llvm::StringRef mma,
                            std::vector<Violation> &out, bool everySwizzle = false,
                            bool oneStage = false);

/// The PTX ISA version the kernels of `arch` are emitted for, as an
/// #nvvm.target features string.
llvm::StringRef ptxFeatures(Arch arch);

} // namespace gemmc

#endif // GEMMC_TARGET_BACKEND_H
