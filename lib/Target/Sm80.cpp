//===- Sm80.cpp - What the sm_80 lowering builds -------------------------===//
//
// The sm_80 kernels: every thread fills the stage ring with cp.async
// (16-byte copies, zero-filled at the tile edges), warps read their
// fragments with ldmatrix (scalar shared loads for an N-major tf32 B, which
// ldmatrix cannot transpose) and multiply with mma.sync m16n8k8 (tf32) or
// m16n8k16 (bf16, f16) into fp32 accumulators, and store C through shared
// memory (the ring's space) with 16-byte global stores (mmaSyncStaging).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Sm80.h"
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Isa.h"
#include "llvm/Support/FormatVariadic.h"
#include <cassert>
#include <cstdlib>

using namespace gemmc;
using llvm::formatv;

/// One mma.sync's rows, and the columns ldmatrix .x4 reads of B at once
/// (two n8 fragments).
static constexpr int64_t kFragmentRows = 16;
static constexpr int64_t kWarpColumnStep = 16;

int64_t MmaSyncWarpGrid::mFragments() const { return warpRows / kFragmentRows; }
int64_t MmaSyncWarpGrid::nFragments() const {
  return warpCols / isaFor(Arch::SM80).mma.defaultShape().nMin;
}

std::optional<MmaSyncWarpGrid> gemmc::mmaSyncWarpGrid(const KernelSpec &s) {
  return mmaSyncWarpGrid(s, computeResources(s).threads);
}

std::optional<MmaSyncWarpGrid> gemmc::mmaSyncWarpGrid(const KernelSpec &s,
                                                      int64_t threads) {
  int64_t warps = threads / kWarpSize;
  std::optional<MmaSyncWarpGrid> best;
  for (int64_t wm = 1; wm <= warps; ++wm) {
    if (warps % wm != 0)
      continue;
    int64_t wn = warps / wm;
    if (s.blockM() % (wm * kFragmentRows) != 0 ||
        s.blockN() % (wn * kWarpColumnStep) != 0)
      continue;
    MmaSyncWarpGrid g{wm, wn, s.blockM() / wm, s.blockN() / wn};
    // Squarest warp tile: the fewest fragment loads per mma.sync.
    auto skew = [](const MmaSyncWarpGrid &x) {
      return std::abs(x.warpRows - x.warpCols);
    };
    if (!best || skew(g) < skew(*best))
      best = g;
  }
  return best;
}

int64_t gemmc::mmaSyncStepFragmentRegs(const MmaSyncWarpGrid &g) {
  return (g.warpRows + g.warpCols) * isa::kMmaKBytes / (kWarpSize * isa::kRegisterBytes);
}

std::optional<MmaSyncStaging> gemmc::mmaSyncStaging(const KernelSpec &s,
                                                   const CtaResources &r) {
  std::optional<MmaSyncWarpGrid> grid = mmaSyncWarpGrid(s, r.threads);
  if (!grid)
    return std::nullopt;
  // A quad of lanes writes 8 bytes each (a fragment's value pair) into one
  // row: 32 bytes. With the row pitch an odd multiple of 32 bytes modulo a
  // 128-byte line of banks, the 4 rows one half-warp writes fall on 4
  // different 32-byte groups of banks: no conflict. Rows of whole 64-byte
  // multiples (warpCols is a multiple of 16 f32) get one such span more.
  const AccumulatorLayout &frag = kMmaSyncAccumulator;
  int64_t quadBytes = frag.lanesPerRow * frag.pair * isa::kRegisterBytes;
  int64_t pitch = grid->warpCols * isa::kRegisterBytes + quadBytes;
  assert((pitch / quadBytes) % 2 == 1 && pitch % isa::kCpAsyncBytes == 0 &&
         "an odd number of quad spans, 16-byte units aligned");
  int64_t warps = r.threads / kWarpSize;
  int64_t ring = r.stages * r.stageBytes();
  int64_t fragmentRows = grid->warpRows / grid->mFragments();
  // Each lane reads back and stores whole 16-byte units of C's row, the
  // warp's 32 lanes a chunk's units in whole rounds.
  int64_t rowUnits = grid->warpCols * elementBytes(s.c.element) / isa::kCpAsyncBytes;
  for (int64_t rows : {fragmentRows, int64_t(frag.halfRows)})
    if (warps * rows * pitch <= ring && rows * rowUnits % kWarpSize == 0 &&
        (rowUnits <= kWarpSize ? kWarpSize % rowUnits : rowUnits % kWarpSize) == 0)
      return MmaSyncStaging{rows, pitch};
  return std::nullopt;
}

bool gemmc::sm80SpreadsFills(const KernelSpec &s) {
  // Measured on the H200 (bench/RESULTS.md, session 5): with 4 k steps a
  // tile (tf32 at BLOCK_K 32) B's copies land in k step 2, away from the
  // tile's wait and barrier: a100_tf32_128x256x32 1.04x; session 7, against
  // the whole refill at the tile's top: a100_bf16_128x256x64 1.04x,
  // a100_tf32_128x256x32_tn 1.04-1.08x. With 2 (bf16 at
  // BLOCK_K 32) they sit right before the wait, and the barrier waits for
  // every warp's copies: a100_bf16_128x256x32 0.90x, _128x128x32_w4 0.95x.
  // With 2 stages the refill is the next tile's load, waited for one tile
  // later: delayed, it is waited for (seed 000's 16-warp tf32 128x128x32
  // 0.93x, padded 0.89x); 3 stages or more leave a tile of slack.
  int64_t kSteps = s.blockK() / isaFor(s.arch).mma.k(s.a.element);
  return kSteps / 2 + 1 < kSteps && s.mainloop.stages >= 3;
}

int64_t gemmc::sm80RowsPerLine(int64_t rowUnits) {
  constexpr int64_t lineUnits = isa::kWidestSwizzleSpan / isa::kSwizzleUnitBytes;
  return rowUnits >= lineUnits ? 1 : lineUnits / rowUnits;
}

int64_t gemmc::sm80SwizzleMask(int64_t rowUnits, bool swizzled) {
  constexpr int64_t lineUnits = isa::kWidestSwizzleSpan / isa::kSwizzleUnitBytes;
  return swizzled ? std::min(rowUnits, lineUnits) - 1 : 0;
}

int64_t gemmc::sm80RowPitch(int64_t rowBytes, Swizzle swizzle) {
  return rowBytes + (swizzle == Swizzle::None ? isa::kCpAsyncBytes : 0);
}

void gemmc::sm80Unsupported(const KernelSpec &s, std::vector<Violation> &out) {
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  if (s.kernelSchedule != KernelSchedule::Multistage)
    no("kernel_schedule",
       formatv("kernel_schedule: {0} is not implemented on sm_80 yet; use "
               "multistage (every warp loads and multiplies)",
               kernelScheduleName(s.kernelSchedule))
           .str());
  if (s.tileScheduler.splitK != 1)
    no("tile_scheduler.split_k", "split_k > 1 is not implemented yet; use 1");
  if (s.mainloop.load != LoadKind::CpAsync)
    no("mainloop.load", "sm_80 fills stages with cp.async only; use load: cp_async");
  if (s.epilogue.store == StoreKind::Tma)
    no("epilogue.store", "sm_80 has no TMA; use store: direct");
  bool sixteenBit = (s.a.element == ElementType::BF16 ||
                     s.a.element == ElementType::F16) &&
                    s.b.element == s.a.element;
  bool tf32 = s.a.element == ElementType::TF32 && s.b.element == ElementType::TF32;
  if (!sixteenBit && !tf32)
    no("operands.a.element",
       formatv("{0} x {1} operands are not implemented on sm_80 yet; use tf32, "
               "bf16 or f16 for both",
               elementTypeName(s.a.element), elementTypeName(s.b.element))
           .str());
  if (s.a.layout != Layout::Row)
    no("operands.a.layout",
       "a col-major A (M contiguous) is not implemented yet; use layout: row");
  if (s.mainloop.stages < 2)
    no("mainloop.stages", "stages = 1 leaves no buffer to load while the "
                          "other is multiplied; use stages >= 2");
  // Every thread copies whole 16-byte units of each operand's stage tile.
  int64_t threads = computeResources(s).threads;
  for (int operand = 0; operand < 2; ++operand) {
    const OperandSpec &o = operand == 0 ? s.a : s.b;
    int64_t inner = contiguousTileExtent(s, operand) * elementBytes(o.element);
    if (inner % isa::kCpAsyncBytes != 0)
      no("tile_shape",
         formatv("operand {0}'s tile rows are {1} bytes, not whole {2}-byte "
                 "cp.async copies; make the contiguous tile extent a multiple "
                 "of {3} elements",
                 operand == 0 ? 'a' : 'b', inner, isa::kCpAsyncBytes,
                 isa::kCpAsyncBytes / elementBytes(o.element))
             .str());
  }
  if (!mmaSyncWarpGrid(s))
    no("tile_shape",
       formatv("no grid of {0} warps cuts the {1}x{2} tile into warp tiles of "
               "whole 16 x 16 blocks; use fewer threads or a larger tile",
               threads / kWarpSize, s.blockM(), s.blockN())
           .str());
}
