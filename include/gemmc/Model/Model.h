//===- Model.h - The analytical performance model ------------------------===//
//
// Seed 000's method as code: for one resolved, valid KernelSpec and one
// problem shape, compute the roofline floor, the CTA's residency, the grid's
// waves and tail, HBM traffic without and with L2 reuse, whether the stages
// in flight cover the load latency, and from those a predicted time with a
// range and a named bottleneck. docs/model.md gives every formula, its
// assumptions and where it is known to be wrong.
//
// Hardware numbers come from Target (DeviceInfo, Isa); per-CTA figures come from
// computeResources() in Spec/Rules.h. The constants below are the model's
// own assumptions, not properties of a device.
//
// LLVM Support only, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_MODEL_MODEL_H
#define GEMMC_MODEL_MODEL_H

#include "gemmc/Spec/Residency.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Spec/Spec.h"
#include "gemmc/Target/Isa.h"
#include "gemmc/Target/Target.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace gemmc {

/// The model's assumptions, in one place. docs/model.md explains each.
namespace model {
/// Latency of a global load that hits in L2, under load (~300 cycles at the
/// boost clocks of A100/H100; microbenchmarks report 200-300 cycles idle).
constexpr double kL2HitLatencySec = 200e-9;
/// Latency of a global load that goes to HBM, under load (idle HBM latency
/// is ~450-500 ns on A100/H100; queues under a streaming GEMM add more).
constexpr double kDramLatencySec = 600e-9;
/// Registers are allocated to a thread in units of this many (Isa.h's; the
/// unit the register-budget rule rounds its cap to). Named here for the
/// reports that print the model's inputs.
constexpr int64_t kRegAllocUnit = isa::kRegisterAllocUnit;
/// store: direct writes C from registers two adjacent elements at a time,
/// a fraction of each 32-byte sector per instruction: the epilogue is
/// modelled as this many times C's bytes at the SM's share of HBM. Fitted
/// on the H200 (docs/model.md: 128x256 coop, direct vs tma, 393962f).
constexpr double kDirectStoreCost = 2.0;
/// The fraction of the datasheet roofs (tensor-core peak, HBM bandwidth) a
/// well-built kernel sustains: clocks drop under load, issue and
/// synchronization are not free, bank conflicts happen. The point
/// prediction uses kEfficiencyMid (or the device's own, measured with its
/// launch cost apart: DeviceInfo::efficiency), the range spans low..high. Evidence:
/// cuBLAS bf16 8192^3 on the H200 reaches 0.74-0.80 of 989 TFLOP/s, a device
/// copy 0.86 of 4.8 TB/s; seed 000's best A100 kernel 0.85 of 156 TFLOP/s.
constexpr double kEfficiencyLow = 0.75;
constexpr double kEfficiencyMid = 0.80;
constexpr double kEfficiencyHigh = 0.95;
/// Stream-K's flag round trip, once per partial a finishing CTA takes: the
/// writer's device-scope release (its stores drain to L2 first) and the
/// finisher's acquire poll from another SM, one or two L2 round trips
/// (kL2HitLatencySec) each: 0.4-0.8 us. The value is the fit of
/// docs/model.md section 6c on the H200's measured stream_k / split_k pairs.
constexpr double kStreamKFlagRoundTripSec = 1.0e-6;
/// The issue path of wgmma (docs/model.md 6d): per K step a consumer
/// warpgroup waits on the stage's full barrier, issues its wgmma group,
/// waits for its previous group and releases the stage. When it is the only
/// warpgroup on the SM issuing MMAs at that moment (multistage, pingpong
/// with one tile a CTA, 64-row warp_specialized, one CTA per SM) the tensor
/// cores idle through that round trip; a second issuing warpgroup fills it
/// (the cooperative 128-row tiles, whose cost the efficiency constant
/// already holds). About 180 cycles at 1.83 GHz; the one value fitted on
/// the 277 measured H200 rows of bench/results/2026-11-30-session3 (tune16,
/// m256): rms log error 0.206 -> 0.151 (bench/model_fit.py).
constexpr double kSingleIssuerStepSec = 0.05e-6;
/// The mainloop's parts (the fed math, HBM, the TMA fills) overlap as their
/// p-norm with this p, not as their max (docs/model.md 7e): three equal
/// parts take 3^(1/12) = 1.10x one, two 1.06x, a part at 80% of the largest
/// adds 0.6%. What it stands for, measured (tune5 r1, ncu): 64x128 pingpong
/// streams the same 118 MB of weights at 3.62 TB/s with the HBM part alone
/// (M = 64) and at 3.38 TB/s with math, HBM and fills at 97-100% of each
/// other (M = 128). p fitted with the H200's efficiency on the 363 stored
/// rows of bench/results/2026-12-01-tune5 (the largest p that keeps the
/// top-3 rates: rms log error 0.107 -> 0.105, within 10% 293 -> 297).
constexpr double kOverlapNorm = 12;
/// The smallest miss fraction the fed bandwidth of Little's law divides by
/// (docs/model.md 5): an all-hit wave is fed by L2, not bounded by HBM.
constexpr double kMinMissFraction = 1e-3;
/// Waves whose L2 footprint is computed tile by tile; beyond this many the
/// footprint is averaged over this many evenly spaced waves.
constexpr int64_t kMaxSampledWaves = 256;
/// The fused epilogue's code (bias, aux, activation) issues at this fraction
/// of one instruction a clock on each of an SM's 4 schedulers (the CUDA
/// cores' f32 FMA rate): 2 warps a scheduler, the tanh on the MUFU pipe.
/// Fitted on the H200 (bench/lead26/README.md, round f3): sm_90a's 128x256
/// cooperative bias + tanh GELU kernel over its plain twin, 3.1-3.2 us a
/// tile on the 8192-K shapes, against 2.3 us for its ~17 instructions a
/// value at the full rate; 0.85 with the prediction's efficiency divisor
/// (kEfficiencyMid or the device's) applied after it.
constexpr double kEpilogueIssueEfficiency = 0.85;
} // namespace model

/// The fused epilogue's instructions a value of C (0 without bias, aux or
/// activation), counted in sm_90a's PTX of a 64x128 multistage kernel with
/// and without each (session 26): a per-row or per-column bias (its clamped
/// address, load, widening and add) 7; aux (convert and store) 2; relu 2;
/// with a 16-bit output gelu_tanh 10 and silu 5 (tanh.approx), with an f32
/// output their f32 polynomials 40 and 45; gelu (the erf polynomial) 67.
double fusedEpilogueInstructionsPerValue(const KernelSpec &spec);

/// A's box rows past M in one stage of the last row tile (TMA writes them as
/// zeros: docs/model.md 6e), when A comes in boxes of `boxRows` (BLOCK_M:
/// one box; mainloop.a_box_rows) and only those that start inside M load.
int64_t edgeZeroRowsA(int64_t m, int64_t blockM, int64_t boxRows);

/// Whether A in boxes of `boxRows` loads fewer zero rows at M = m than one
/// box of BLOCK_M rows: the test `gemmc tune` and analyze's way out take
/// boxes by.
bool boxesSaveZeroRows(int64_t m, int64_t blockM, int64_t boxRows);

/// The a_box_rows that `gemmc analyze`'s way out names and `gemmc tune`
/// tries: 16-row boxes (2 KB of 128-byte rows) lost to 32-row ones at every
/// M measured (session 34, round k6; tmaBoxSec).
constexpr int64_t kABoxRows = 32;

struct ProblemShape {
  int64_t m = 0, n = 0, k = 0;
};


/// What sets the predicted time.
enum class Bottleneck {
  Compute,          ///< the math unit's peak, the useful FLOPs alone
  HbmBandwidth,     ///< HBM traffic (after L2 reuse) takes longer than the math
  WaveQuantization, ///< padded partial tiles and the last wave's idle SMs
  LoadLatency,      ///< too few bytes in flight to cover the load latency
  TileOverhead,     ///< prologue and epilogue not hidden behind other work
  SharedMemory,     ///< the MMA's operand reads and the fills outrun shared memory
  MmaIssue,         ///< one MMA warpgroup on the SM: its per-K-step round trip is exposed
  PowerCap,         ///< the math outlasts the power window: the board's sustained rate sets the time
  TmaFill,          ///< the TMA fills (L2 to shared memory, rows past the edge as zeros) outlast the math and HBM
};
llvm::StringRef bottleneckName(Bottleneck b);

struct Analysis {
  ProblemShape shape;
  const DeviceInfo *device = nullptr;
  MathUnit unit = MathUnit::TensorF16;
  double peakFlops = 0;    ///< the unit's dense peak, FLOP/s
  double hbmBytesPerSec = 0;

  // Roofline: the fewest bytes and the floor time.
  double flops = 0;        ///< 2 M N K
  double aBytes = 0, bBytes = 0, cWriteBytes = 0, cReadBytes = 0;
  /// The fused epilogue's extra traffic: the bias vector read (M or N
  /// elements) and the auxiliary output written (M x N of C's element).
  double biasBytes = 0, auxBytes = 0;
  /// Block scaling (scale: block): the f32 block scales, A's M x
  /// ceil(K/128) and B's ceil(N/128) x align4(ceil(K/128)); 0 otherwise.
  double scaleBytes = 0;
  double minBytes = 0;     ///< A + B + C written (+ C read when beta) + bias + aux
  double intensity = 0;    ///< flops / minBytes
  double ridgePoint = 0;   ///< peakFlops / hbmBytesPerSec
  double computeFloorSec = 0, memoryFloorSec = 0;
  bool computeBoundFloor = true;

  // One CTA and how many fit on an SM.
  CtaResources cta;
  int64_t regsPerThreadAllocated = 0; ///< what a thread is given at launch
  int64_t regsPerCta = 0;
  int64_t bySmem = 0, byRegs = 0, byThreads = 0, byBlocks = 0;
  /// sm_100a: CTAs whose tcgen05.alloc fits the SM's tensor-memory columns
  /// (a CTA beyond that would wait in tcgen05.alloc); 0 without it.
  int64_t byTmem = 0;
  int64_t residentCtas = 0;
  OccupancyLimit binding = OccupancyLimit::SharedMemory;
  std::string alsoBinding; ///< other limits equal to the binding one, e.g. "registers"
  double occupancy = 0;    ///< resident threads / max threads per SM

  // The grid.
  int64_t tilesM = 0, tilesN = 0, splitK = 1;
  int64_t tiles = 0;       ///< tilesM x tilesN x splitK
  int64_t slots = 0;       ///< SMs x resident CTAs
  int64_t gridCtas = 0;    ///< tiles; min(tiles, slots) when persistent; slots under stream_k (split_k 1)
  double waves = 0;        ///< tiles / slots
  int64_t wavesRounded = 0;
  double lastWaveUtilization = 0; ///< tiles in the last wave / slots
  int64_t tilesOnBusiestSm = 0;   ///< ceil(tiles / SMs)
  int64_t ctasPerSmConcurrent = 0; ///< min(resident, tilesOnBusiestSm)

  // HBM traffic.
  double noReuseABytes = 0; ///< A read once per N-tile column: A x tilesN
  double noReuseBBytes = 0; ///< B read once per M-tile row:    B x tilesM
  double splitKBytes = 0;   ///< fp32 partials written and read back (split_k > 1)
  double noReuseBytes = 0;  ///< no-reuse A + B + C (+ split-K partials)
  int64_t waveTilesM = 0, waveTilesN = 0; ///< distinct tile rows/columns of the first wave
  double waveWorkingSetBytes = 0; ///< A and B panels the first wave touches
  /// HBM reads of a panel that several tiles of a wave share, at most: the
  /// device's L2 partitions when each SM runs one tile with one MMA
  /// warpgroup (mmaIssuersPerSm == 1, tilesOnBusiestSm == 1), else 1
  /// (docs/model.md 4b).
  int64_t l2PanelCopies = 1;
  /// swap_ab: each activation tile is charged a read of the whole weight
  /// panel (the swapped kernel's A row panels) from HBM: measured
  /// 1.48-1.59x the one-read prediction with two 8-row tiles. A stand-in
  /// for the L2 traffic that doubles (DRAM measured once; docs/model.md
  /// 4c). The activation panels keep the rule above.
  bool weightPanelPerActivationTile = false;
  double l2Bytes = 0;        ///< the L2-aware estimate (waves in lockstep)
  double l2PessimisticBytes = 0; ///< reuse lost in proportion to working set / L2
  double amplificationNoReuse = 0, amplificationL2 = 0; ///< over minBytes
  double l2HitRate = 0;      ///< 1 - L2-aware operand bytes / no-reuse operand bytes

  // Latency hiding (Little's law).
  double bytesPerFlop = 0;       ///< operand bytes a tile loads per FLOP
  int64_t smsWithTiles = 0;      ///< min(SMs, tiles): the SMs sharing HBM
  /// HBM / smsWithTiles / miss fraction: the bandwidth an SM's loads get
  /// when every SM with a tile streams its misses from HBM.
  double fedBwPerSm = 0;
  double neededBwPerSm = 0;      ///< min(bytesPerFlop x peak / SMs, fedBwPerSm)
  double latencySec = 0;         ///< hit-weighted L2 / HBM latency
  double neededInFlightBytes = 0;///< neededBwPerSm x latency
  double inFlightBytes = 0;      ///< CTAs x (stages - 1) x stage bytes
  double latencyCoverage = 0;    ///< inFlight / needed, capped at 1

  // Per-tile overhead.
  double prologueSec = 0, epilogueSec = 0, exposedPerTileSec = 0;
  double overheadSec = 0;
  /// stream_k / split_k hand-over (docs/model.md 6c), 0 when no tile is
  /// split. The busiest CTA's pieces (its share of K iterations cut at tile
  /// boundaries) and a split tile's pieces (its finisher reads the others').
  int64_t streamKSplitTiles = 0; ///< tiles whose K range is split over CTAs
  int64_t streamKPiecesPerCta = 0;
  int64_t streamKPiecesPerTile = 0;
  /// fp32 partial bytes on the busiest CTA's path: it writes one partial and
  /// reads pieces-per-tile - 1: pieces-per-tile x BM x BN x 4.
  double streamKPartialBytes = 0;
  double streamKPartialSec = 0; ///< those bytes at the SM's share of HBM
  double streamKFlagSec = 0;    ///< (pieces per tile - 1) flag round trips
  /// partials + flags, in overheadSec (after the math: the finisher's
  /// piece is its CTA's last).
  double streamKFixupSec = 0;
  /// Each piece after the CTA's first restarts the pipeline: the ring
  /// (stages x stage bytes) refills at the SM's share of HBM after the load
  /// latency. On the math side of the mainloop (hidden when HBM-bound).
  double streamKRefillSec = 0;
  /// Block scaling: the busiest SM's CUDA-core folds (one FMA per
  /// accumulator per K tile), in mmaSec; 0 otherwise. Added to the MMAs
  /// (sm_90a: the consumers that issue them fold), or with
  /// blockScaleFoldOverlapped the longer of the two counts (sm_100a with two
  /// partial buffers: the epilogue warpgroup folds under the next MMAs).
  double blockScaleFoldSec = 0;
  bool blockScaleFoldOverlapped = false;
  /// The fused epilogue's math a tile (fusedEpilogueInstructionsPerValue at
  /// kEpilogueIssueEfficiency of the SM's CUDA-core issue rate), in
  /// epilogueSec; 0 without bias, aux or activation.
  double fusedMathSec = 0;

  // Shared-memory bandwidth of the mainloop (wgmma reads both operands from
  // shared memory; 0 bytes for MMA families that do not).
  double smemBytesPerFlop = 0; ///< fills + MMA operand reads per FLOP
  double smemFlopsPerSm = 0;   ///< FLOP/s per SM shared memory can feed
  /// The SM clock the operands' MMAs hold at the power limit against bf16's:
  /// the device's f16ClockRatio for f16, else 1 (docs/model.md 7d).
  double clockRatio = 1;
  double mathFlopsPerSm = 0;   ///< min(peak per SM, smemFlopsPerSm) x clockRatio

  // The issue path (docs/model.md 6d; wgmma only, 0 otherwise).
  /// Warpgroups issuing MMAs on one SM at the same time: concurrent CTAs x
  /// (BLOCK_M / 64 for cooperative and warp_specialized consumers, one for
  /// multistage, whose warps also load and wait together, and for pingpong
  /// unless each CTA has two tiles, so that both warpgroups have one).
  int64_t mmaIssuersPerSm = 0;
  double kStepsOnBusiestSm = 0; ///< K steps the busiest SM's issuers run
  /// kStepsOnBusiestSm x kSingleIssuerStepSec when one warpgroup issues; on
  /// the math side of the mainloop (hidden when HBM-bound).
  double issueGapSec = 0;

  // TMA fills (docs/model.md 6e; 0 without TMA loads or a measured rate).
  /// Box rows past the matrix in one stage of an average tile: A's past M,
  /// B's past N (the swapped kernel's under swap_ab).
  double zeroRowsPerStage = 0;
  /// What a stage's boxes smaller than tmaBoxSec's worth of bytes take
  /// beyond their bytes: each at least tmaBoxSec.
  double smallBoxSecPerStage = 0;
  /// The busiest SM's K steps x (stage bytes at its share of the fill rate
  /// + zero rows x tmaZeroRowSec + smallBoxSecPerStage); a floor of the
  /// mainloop.
  double tmaFillSec = 0;

  // Time.
  double mmaSec = 0;    ///< busiest SM's padded tiles at mathFlopsPerSm
  double memorySec = 0; ///< l2Bytes / HBM bandwidth
  double mainloopSec = 0; ///< the kOverlapNorm-norm of (mmaSec / coverage + streamKRefillSec + issueGapSec, memorySec, tmaFillSec)
  double modelSec = 0;  ///< mainloop + overhead at the datasheet roofs
  double pessimisticSec = 0; ///< the same with l2PessimisticBytes
  /// The efficiency of the prediction: the device's measured one, else
  /// kEfficiencyMid (docs/model.md 7).
  double efficiency = 0;
  /// The prediction before the power cap and the launch: modelSec /
  /// efficiency (docs/model.md 7).
  double uncappedSec = 0;
  /// The device's sustained rate at its power limit for this math unit, at
  /// the clock the operands hold (x clockRatio); 0 = no cap measured.
  double sustainedFlops = 0;
  /// What the power cap adds to the prediction (docs/model.md 7b): past the
  /// device's powerWindowSec the FLOPs left run at its sustained rate; 0 when
  /// the kernel is short or slower than that rate anyway.
  double powerCapSec = 0;
  /// The device's launchSec, on every prediction (docs/model.md 7c).
  double launchSec = 0;
  double predictedSec = 0, bestSec = 0, worstSec = 0;
  double predictedTflops = 0, bestTflops = 0, worstTflops = 0;
  double fractionOfPeak = 0, bestFraction = 0, worstFraction = 0;
  Bottleneck bottleneck = Bottleneck::Compute;
};

/// Analyzes `spec` (resolved by resolveAuto and free of rule violations) on
/// `shape`. Fails only when the shape is outside what the model can count
/// (a dimension < 1, or a tile count that overflows 64 bits).
llvm::Expected<Analysis> analyze(const KernelSpec &spec, ProblemShape shape);

/// The caller's M x N x K of `kernel`, a problem in `spec`'s own view: a
/// swap_ab spec's kernel solves C^T = B^T A^T, its M the caller's N.
inline ProblemShape callerShape(const KernelSpec &spec, const ProblemShape &kernel) {
  return spec.swapAb ? ProblemShape{kernel.n, kernel.m, kernel.k} : kernel;
}

/// The caller's M x N x K of `a`, an analysis of `spec`: for swap_ab,
/// Analysis::shape is the swapped kernel's problem (N x M x K), and analyze()
/// takes the caller's.
inline ProblemShape callerShape(const KernelSpec &spec, const Analysis &a) {
  return callerShape(spec, a.shape);
}

/// `spec` with the problem sizes of `p`, a caller's shape: the form the rules
/// check a shape in (gemmc analyze --shape, gemmc tune). A swap_ab spec holds
/// the swapped kernel's view, so its M is p's N and its N p's M.
inline KernelSpec specAtShape(KernelSpec spec, const ProblemShape &p) {
  spec.m.value = spec.swapAb ? p.n : p.m;
  spec.n.value = spec.swapAb ? p.m : p.n;
  spec.k.value = p.k;
  return spec;
}

/// Where tile `id` (in launch order, 0 <= id < tiles) lies: the raster
/// order and group of the spec's tile scheduler, split index slowest.
struct TileCoord {
  int64_t m, n, split;
};
TileCoord tileCoordinate(const KernelSpec &spec, int64_t tilesM, int64_t tilesN,
                         int64_t id);

} // namespace gemmc

#endif // GEMMC_MODEL_MODEL_H
