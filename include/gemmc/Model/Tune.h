//===- Tune.h - Enumerate the schedules of a problem family, rank them ----===//
//
// `gemmc tune`'s engine: for a problem family (element types, layouts, a
// device, a list of shapes) enumerate the schedules the spec language can
// say, keep those the validator accepts (checkSpec, on the family's every
// shape) and the lowering builds (checkLoweringSupport), rank them with the
// model (analyze) and write the best as spec YAML with the model's reasons.
//
// The enumeration proposes nothing the validator refuses: every candidate
// passes through the same two checks a spec file does.
//
// LLVM Support only, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_MODEL_TUNE_H
#define GEMMC_MODEL_TUNE_H

#include "gemmc/Model/Model.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <string>
#include <vector>

namespace gemmc {

/// What `gemmc tune` tunes for: one kernel's operand types and layouts on one
/// device, and the shapes it must serve.
struct TuneFamily {
  std::string device = "h200";
  ElementType a = ElementType::BF16, b = ElementType::BF16,
              c = ElementType::BF16;
  Layout aLayout = Layout::Row, bLayout = Layout::Col;
  /// The operands' scales (FP8: per tensor, per row of A / column of B, or
  /// block; C's for an FP8 output): part of the kernel's interface, so every
  /// candidate takes them as given (docs/spec.md, operands).
  Scale aScale = Scale::None, bScale = Scale::None, cScale = Scale::None;
  /// The epilogue's interface (alpha, beta, bias and its element,
  /// activation, aux) and where the kernel waits for the kernel before it
  /// (pdl_wait): every candidate takes them; the store is enumerated and
  /// buffers stay auto.
  EpilogueSpec epilogue;
  PdlWait pdlWait = PdlWait::None;
  std::vector<ProblemShape> shapes;
};

/// The values each schedule field is enumerated over. Fields not listed
/// (stages, threads, swizzle, load) stay `auto`: resolveAuto picks them as it
/// does for a spec file.
struct TuneSpace {
  std::vector<int64_t> blockM{64, 128, 256};
  /// 160 and 224 (issue 16): a wave that 128 or 256 columns miss, e.g.
  /// decode_qkv (M = 256, N = 10240): 160 tiles of 128x128 are 1.21 waves
  /// on 132 SMs, 128 tiles of 128x160 0.97; N = 28672: 256 tiles of 128x224
  /// are 1.94 waves where 128x256 gives 1.70 and 128x192 2.27. Their rows
  /// of C (320 and 448 bytes of bf16) are not whole 128-byte chunks, so only
  /// store: direct is built (checkLoweringSupport refuses tma).
  std::vector<int64_t> blockN{64, 128, 160, 192, 224, 256};
  std::vector<int64_t> blockK{32, 64, 128};
  std::vector<I64x2> clusters{{1, 1}, {2, 1}, {1, 2}};
  std::vector<int64_t> groups{1, 8};
  /// Small M (issue 16): families whose every M is at most swapAbMaxM also
  /// get swap_ab schedules, whose BLOCK_M (the swapped kernel's MMA N) takes
  /// these values, and split_k > 1.
  int64_t swapAbMaxM = 64;
  std::vector<int64_t> swapAbBlockM{8, 16, 32, 64};
  std::vector<int64_t> splitK{2, 4};
  /// split_k is enumerated for larger M too where every shape's C holds
  /// fewer splitKTile x splitKTile tiles than the device has SMs: narrow,
  /// deep layers at M = 128-255 ran 1.09-1.36x faster split in two
  /// (bench/lead39 round n10, e.g. 128x2560x8192 and 255x1536x7168).
  int64_t splitKTile = 128;
  /// Block-scaled families (scale: block on A and B) also vary the fold:
  /// the part width (fold_columns; 0 = the whole tile folded after its
  /// MMAs), the parts a wait (fold_group; 0 = auto) and stage_scales. The
  /// model does not weigh stage_scales (measured +2.4-3.4% on the 8192
  /// cubes, docs/history.md, session 8), so it is enumerated on first and
  /// wins the model's ties.
  std::vector<int64_t> foldColumns{0, 64, 128};
  std::vector<int64_t> foldGroups{0, 1};
  /// The free-running one-part loop (warp_specialized, fold_group 1, staged
  /// scales) is also enumerated waiting ahead and unrolled this many K tiles
  /// (mainloop.wait_ahead, mainloop.unroll; 1: not enumerated); neither is
  /// in the model, so the tie order is the measured one (Tune.cpp,
  /// loopForms).
  int64_t unroll = 2;
  /// A in boxes of these many rows (mainloop.a_box_rows), enumerated where
  /// a family's shape leaves the last row tile's boxes fewer zero rows:
  /// kABoxRows only, as 16-row boxes (2 KB) lost to 32-row ones at every M
  /// measured (0.77-0.85x, session 34 round k6), which the model's least
  /// time a box says too (docs/model.md 6e).
  std::vector<int64_t> aBoxRows{kABoxRows};
};

/// One shape's prediction for a candidate.
struct TuneShapeResult {
  Analysis analysis;
  /// predictedSec / the best candidate's predictedSec on this shape (>= 1).
  double relative = 1;
};

struct TuneCandidate {
  KernelSpec spec; ///< resolved (resolveAuto), problem sizes dynamic
  std::vector<TuneShapeResult> shapes;
  /// Geometric mean of `relative` over the family's shapes: 1.0 = the
  /// model's best schedule on every shape.
  double score = 0;
  size_t enumerationIndex = 0; ///< ties keep the enumeration order
};

struct TuneResult {
  size_t enumerated = 0;      ///< schedules the space spans
  size_t refusedByRules = 0;  ///< checkSpec refused (or a shape did)
  size_t refusedByLowering = 0; ///< valid, but the lowering cannot build it
  size_t duplicates = 0;      ///< equal to an earlier one after resolveAuto
  /// The rule that refused the most schedules (its first violation counted
  /// per schedule), one of its messages and its count: what an empty result
  /// reports, since one rule usually refuses the whole family (an FP8 output
  /// without its scale, a layout an element type does not take).
  std::string mostRefusedBy;
  size_t mostRefusedCount = 0;
  std::vector<TuneCandidate> ranked; ///< every survivor, best first
};

/// Progress callback: (schedules done, schedules in all).
using TuneProgress = llvm::function_ref<void(size_t, size_t)>;

/// Enumerates `space` for `family`, filters and ranks. Fails when the family
/// is unusable (no shape, unknown device) or the model cannot count a shape.
llvm::Expected<TuneResult> tune(const TuneFamily &family,
                                const TuneSpace &space = TuneSpace(),
                                TuneProgress progress = [](size_t, size_t) {});

/// `lo`, every power of two strictly between, `hi` (lo <= hi): the M values
/// a range of M is tuned at (`gemmc tune --m LO..HI`, a bundle's `auto`).
std::vector<int64_t> sampleRange(int64_t lo, int64_t hi);

/// The first `k` candidates of `result.ranked` the model tells apart: a
/// candidate whose predicted time is within kTwinTolerance, on every shape,
/// of that of one already picked is counted in `twins` of that one instead (the model
/// cannot rank it against its twin; a measurement can). Indices into ranked.
/// Predictions closer than this (relative, on every shape) are twins: the
/// model's terms are not that precise (its raster and group variants of one
/// tile often differ by 0.01%), so only a measurement can rank them.
constexpr double kTwinTolerance = 0.005;
struct TunePick {
  size_t index;
  size_t twins = 0;
};
std::vector<TunePick> pickDistinct(const TuneResult &result, size_t k);

/// `spec` as a spec file: every schedule field written out (stages `auto`),
/// preceded by `comment` lines as YAML comments.
std::string specToYaml(const KernelSpec &spec, llvm::ArrayRef<std::string> comment);

/// The model's reasons for a candidate, one line each (without '#'): its
/// rank, its score and, per shape, the prediction and what sets it.
std::vector<std::string> tuneReasons(const TuneCandidate &c, size_t rank,
                                     const TuneResult &result);

} // namespace gemmc

#endif // GEMMC_MODEL_TUNE_H
