//===- Sm80.h - How the sm_80 lowering lays a tile over warps ------------===//
//
// The numbers both halves of the sm_80 lowering need: the mainloop's
// instruction selection (lib/Conversion/Sm80Patterns.cpp: cp.async,
// ldmatrix, mma.sync) and the epilogue (lib/Transforms/GemmcEpilogue.cpp),
// which walks the mma.sync fragments each warp holds. Written once here.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TARGET_SM80_H
#define GEMMC_TARGET_SM80_H

#include "gemmc/Spec/Rules.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace gemmc {

/// stream_k on sm_80 (its StreamKPolicy, Backend.cpp) splits the last waves'
/// K loops only where the slots a
/// data-parallel last wave leaves idle come to at least this many K tiles a
/// CTA ((P - T mod P) x kTiles / P); elsewhere every tile goes whole. Round 1
/// of branch sm80g (bench/RESULTS.md, session 8; a100_bf16_128x256x64 and
/// a100_tf32_128x256x32_tn on the H200): the hand-over of the split tiles'
/// f32 partials (128 KiB a CTA, written, then read back by the finisher)
/// costs ~10.5 K-tile times at K = 1024 and ~14 at cube4096, and the split
/// phase's CTAs, each at its own K offset, lose the L2 reuse a wave's tiles
/// share (tf32 at cube4096: 0.91x with 15.5 K tiles saved); cube8192 saves
/// 62 (bf16) and 124 (tf32) and ran 1.02-1.03x / 1.08x faster. Round 2: bf16
/// at 8192x8192x2048 (15.5 idle, kept whole) would gain 1.017x split; the
/// L2 loss grows with the operands' bytes, which this count does not see.
constexpr int64_t kSm80StreamKMinIdleKTiles = 24;

/// sm_80 moves stream-K's f32 partials 4 at a time (16-byte stores and
/// loads): its 128x256 kernels sit at 255 registers, and the scalar form of
/// the fixup spilled 16 bytes there (a100_bf16_128x256x64_sk, session 8).
constexpr int64_t kSm80StreamKPartialVector = 4;

/// The most accumulators a thread holds for the peer loop's division-free
/// share test (StreamKPolicy::peerTestMaxValues): the 64x64 and 64x128
/// kernels (8 and 32); not the 128x256 ones (128 at 255 registers, where
/// ptxas spills 8 bytes with the test's carried remainder or with no test).
constexpr int64_t kSm80StreamKPeerTestMaxValues = 64;

/// sm_80 splits first to last (StreamKPolicy::splitAligned false): the
/// aligned split's fixup (the tile's last piece finishing it) costs the
/// a100_bf16_128x256x64_sk kernel 8 bytes of spill in ptxas for sm_90 (the
/// H200's JIT) at 255 registers, and sm_80 splits only where a whole last
/// wave would idle (kSm80StreamKMinIdleKTiles), never cube4096.
constexpr bool kSm80StreamKAligned = false;

/// The CTA's warps as a warpsM x warpsN grid over the tile; warp w takes
/// row block w / warpsN and column block w % warpsN, warpRows x warpCols
/// of the tile, as (warpRows / 16) x (warpCols / 8) mma.sync fragments.
struct MmaSyncWarpGrid {
  int64_t warpsM = 0, warpsN = 0;
  int64_t warpRows = 0, warpCols = 0;
  int64_t mFragments() const;
  int64_t nFragments() const;
};

/// The warp grid of an sm_80 schedule: warp tiles whole 16 x 16 blocks
/// (ldmatrix .x4 reads B for two n8 fragments), as square as the warp count
/// allows; nullopt when none exists.
std::optional<MmaSyncWarpGrid> mmaSyncWarpGrid(const KernelSpec &spec);
/// The same for a CTA of `threads` (computeResources, which derives them).
std::optional<MmaSyncWarpGrid> mmaSyncWarpGrid(const KernelSpec &spec, int64_t threads);

/// The 4-byte registers a thread holds for its warp's A and B fragments of
/// one mma.sync k step (isa::kMmaKBytes of K): the lowering keeps two k
/// steps' worth live, the step being multiplied and the next one.
int64_t mmaSyncStepFragmentRegs(const MmaSyncWarpGrid &grid);

/// The sm_80 epilogue through shared memory (lib/Transforms/GemmcEpilogue.cpp,
/// storeMmaSyncStaged): after the mainloop, each warp writes chunkRows rows
/// of its warp tile's f32 accumulators at a time into an area of its own in
/// the stage ring's space (warp w's at w x warpBytes()), rows pitchBytes
/// apart, reads them back as 16-byte units of C's rows and stores each unit
/// with one 16-byte global store.
struct MmaSyncStaging {
  int64_t chunkRows = 0, pitchBytes = 0;
  int64_t warpBytes() const { return chunkRows * pitchBytes; }
};

/// The staging of an sm_80 schedule whose resources are `r`: chunks of one
/// mma.sync fragment's rows (16), or of half of them (8) where the CTA's
/// warps' 16-row areas exceed the ring; nullopt (the epilogue stores from
/// registers) where not even 8 rows fit or a chunk's 16-byte units of C
/// are not whole rounds of the warp's 32 lanes.
std::optional<MmaSyncStaging> mmaSyncStaging(const KernelSpec &spec, const CtaResources &r);

/// Whether the mainloop spreads each K tile's refill over its k steps: A's
/// copies after k step 0's fragment reads, B's (and the commit) after
/// k step kSteps / 2's, rather than all of them at the tile's top (where
/// they meet the first fragment reads in the shared-memory queue). Only
/// where B's k step is not the last one, whose wait and barrier they would
/// delay (4 k steps a tile or more), and the ring has 3 stages or more (with
/// 2 the refill is the next tile's load, which would wait for it).
bool sm80SpreadsFills(const KernelSpec &spec);

/// sm_80 shared-memory tiles are rows of 16-byte units (cp.async's copy,
/// ldmatrix's row). With a swizzle, unit u of row r is stored at unit
/// u ^ phase(r): the 8 rows one ldmatrix reads then fall on 8 different
/// 16-byte bank groups. With smem_swizzle: none, units stay in place and
/// each row is padded by one unit (sm80RowPitch), which spreads the 8 rows
/// over the bank groups as well, for shared memory.
int64_t sm80SwizzleMask(int64_t rowUnits, bool swizzled);
/// The phase of row r: rows sharing a 128-byte line get different phases.
/// phase(r) = (r / linesPerRow) & mask, where a 128-byte line holds
/// max(1, 8 / rowUnits) rows.
int64_t sm80RowsPerLine(int64_t rowUnits);

/// The bytes between consecutive rows of a `rowBytes`-wide tile: one
/// 16-byte unit more when the tile is padded rather than swizzled.
int64_t sm80RowPitch(int64_t rowBytes, Swizzle swizzle);

/// sm_80's part of checkLoweringSupport (lib/Target/Sm80.cpp).
void sm80Unsupported(const KernelSpec &spec, std::vector<Violation> &out);

} // namespace gemmc

#endif // GEMMC_TARGET_SM80_H
