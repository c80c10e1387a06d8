//===- Model.cpp - The analytical performance model ----------------------===//
//
// Each step below is one section of docs/model.md, in the same order:
// roofline, residency, grid, traffic, latency, overhead, prediction.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Model/Model.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Target/Backend.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

using namespace gemmc;
using namespace gemmc::model;

llvm::StringRef gemmc::bottleneckName(Bottleneck b) {
  switch (b) {
  case Bottleneck::Compute:
    return "compute";
  case Bottleneck::HbmBandwidth:
    return "hbm-bandwidth";
  case Bottleneck::WaveQuantization:
    return "wave-quantization";
  case Bottleneck::LoadLatency:
    return "load-latency";
  case Bottleneck::TileOverhead:
    return "tile-overhead";
  case Bottleneck::SharedMemory:
    return "shared-memory-bandwidth";
  case Bottleneck::MmaIssue:
    return "mma-issue";
  case Bottleneck::PowerCap:
    return "power-cap";
  case Bottleneck::TmaFill:
    return "tma-fill";
  }
  llvm_unreachable("unknown bottleneck");
}

TileCoord gemmc::tileCoordinate(const KernelSpec &spec, int64_t tilesM,
                                int64_t tilesN, int64_t id) {
  int64_t perSplit = tilesM * tilesN;
  int64_t split = id / perSplit;
  int64_t r = id % perSplit;
  // Raster along M with group g: g M-tiles are visited M-fastest, then the
  // next N column of the same g rows; a band of g rows is finished before
  // the next band (Triton's GROUP_SIZE_M). along_n mirrors it.
  bool alongM = spec.tileScheduler.raster == Raster::AlongM;
  int64_t fast = alongM ? tilesM : tilesN; // the dimension the band cuts
  int64_t slow = alongM ? tilesN : tilesM;
  int64_t g = std::min<int64_t>(spec.tileScheduler.group, fast);
  int64_t band = r / (g * slow);
  int64_t bandStart = band * g;
  int64_t height = std::min(g, fast - bandStart); // the last band may be short
  int64_t rr = r - band * g * slow;
  int64_t f = bandStart + rr % height;
  int64_t s = rr / height;
  return alongM ? TileCoord{f, s, split} : TileCoord{s, f, split};
}

namespace {
/// Bytes of the rows of one tile that lie inside the matrix.
double extent(int64_t index, int64_t block, int64_t total) {
  return static_cast<double>(std::min(block, total - index * block));
}

struct WaveTraffic {
  double unique = 0;  ///< the panels the wave touches, each once
  double reads = 0;   ///< their HBM reads: each panel min(sharers, copies) times
  double noReuse = 0; ///< every tile's panels
  int64_t rows = 0, cols = 0;
};

/// The panels a wave of consecutive tiles [first, first + count) reads. A
/// panel is one tile row of A (or column of B) over the split's K range. A
/// panel that s tiles of the wave share is read from HBM min(s, copies)
/// times: once when the sharers run in lockstep (copies = 1), once per L2
/// partition when they do not (docs/model.md 4b); an A row panel,
/// min(s, rowCopies) times (swap_ab's weight panels: once per sharer,
/// docs/model.md 4c).
WaveTraffic waveTraffic(const KernelSpec &spec, const ProblemShape &p,
                        int64_t tilesM, int64_t tilesN, double kPerSplit,
                        int64_t first, int64_t count, int64_t copies,
                        int64_t rowCopies) {
  double ea = elementBytes(spec.a.element), eb = elementBytes(spec.b.element);
  // Panel -> (bytes, tiles of the wave that read it).
  llvm::DenseMap<int64_t, std::pair<double, int64_t>> rows, cols;
  WaveTraffic w;
  for (int64_t id = first; id < first + count; ++id) {
    TileCoord t = tileCoordinate(spec, tilesM, tilesN, id);
    double aPanel = extent(t.m, spec.blockM(), p.m) * kPerSplit * ea;
    double bPanel = extent(t.n, spec.blockN(), p.n) * kPerSplit * eb;
    w.noReuse += aPanel + bPanel;
    auto &row = rows[t.split * tilesM + t.m];
    row = {aPanel, row.second + 1};
    auto &col = cols[t.split * tilesN + t.n];
    col = {bPanel, col.second + 1};
  }
  for (const auto &[panels, most] :
       {std::pair(&rows, rowCopies), std::pair(&cols, copies)})
    for (const auto &panel : *panels) {
      w.unique += panel.second.first;
      w.reads += panel.second.first *
                 double(std::min(panel.second.second, most));
    }
  w.rows = rows.size();
  w.cols = cols.size();
  return w;
}

/// Shared-memory bytes per FLOP of one K step of a tile, for an MMA that
/// reads both operands from shared memory (wgmma): the fill writes the A and
/// B tiles once, and each 64-row warpgroup slab (one wgmma M) reads its own
/// A rows and all of B. So B is read BM / 64 times, and a 64x64 tile needs
/// twice the bytes per FLOP of a 128x256 one (docs/model.md 6b). 0 for
/// mma.sync (ldmatrix once per warp, registers after)
/// and tcgen05 (one read of each operand per CTA): not modelled there.
double smemBytesPerFlop(const KernelSpec &spec) {
  std::optional<MmaInstrShape> instr = mmaInstrShape(spec.arch, spec.a.element);
  if (!instr || instr->family != MmaFamily::Wgmma)
    return 0;
  double bm = spec.blockM(), bn = spec.blockN(), bk = spec.blockK();
  double ea = elementBytes(spec.a.element), eb = elementBytes(spec.b.element);
  double slabs = std::ceil(bm / instr->m);
  double fill = (bm * ea + bn * eb) * bk;
  // Block scaling with fold_columns: each part's wgmmas read the
  // warpgroup's A rows again.
  double aReads = spec.blockScaled() && spec.mainloop.foldColumns > 0
                      ? bn / double(spec.mainloop.foldColumns)
                      : 1;
  double reads = (aReads * bm * ea + slabs * bn * eb) * bk;
  return (fill + reads) / (2.0 * bm * bn * bk);
}

/// Warpgroups issuing MMAs on one SM at the same time (docs/model.md 6d);
/// 0 for MMA families other than wgmma (mma.sync's warps and tcgen05's one
/// thread are not modelled). Each cooperative or warp_specialized consumer
/// warpgroup takes a 64-row slab (one wgmma M) and issues on its own; a
/// multistage CTA's warps also issue the loads and wait on each stage
/// together, so they count as one; pingpong's two warpgroups alternate
/// tiles, so the second issues only when the CTA has a second tile.
int64_t mmaIssuersPerSm(const KernelSpec &spec, int64_t concurrentCtas,
                        int64_t tilesOnSm) {
  std::optional<MmaInstrShape> instr = mmaInstrShape(spec.arch, spec.a.element);
  if (!instr || instr->family != MmaFamily::Wgmma)
    return 0;
  int64_t perCta = 1;
  switch (spec.kernelSchedule) {
  case KernelSchedule::Multistage:
    break;
  case KernelSchedule::WarpSpecializedPingpong:
    perCta = tilesOnSm > concurrentCtas ? 2 : 1;
    break;
  default:
    perCta = std::max<int64_t>(1, llvm::divideCeil(spec.blockM(), instr->m));
    break;
  }
  return perCta * std::max<int64_t>(1, concurrentCtas);
}

/// Reuse lost in proportion to how far the working set overflows L2: all of
/// it at working set >> L2, none at working set <= L2.
double pessimistic(const WaveTraffic &w, double l2) {
  if (w.reads <= l2)
    return w.reads;
  return w.reads + (w.noReuse - w.reads) * (1.0 - l2 / w.reads);
}
} // namespace

int64_t gemmc::edgeZeroRowsA(int64_t m, int64_t blockM, int64_t boxRows) {
  int64_t inside = m - (llvm::divideCeil(m, blockM) - 1) * blockM;
  return llvm::divideCeil(inside, boxRows) * boxRows - inside;
}

bool gemmc::boxesSaveZeroRows(int64_t m, int64_t blockM, int64_t boxRows) {
  return edgeZeroRowsA(m, blockM, boxRows) < edgeZeroRowsA(m, blockM, blockM);
}

double gemmc::fusedEpilogueInstructionsPerValue(const KernelSpec &spec) {
  const EpilogueSpec &e = spec.epilogue;
  bool wide = elementBytes(spec.c.element) == 4;
  double n = 0;
  if (e.bias != Bias::None)
    n += 7;
  if (e.aux)
    n += 2;
  switch (e.activation) {
  case Activation::None:
  case Activation::Identity:
    break;
  case Activation::Relu:
    n += 2;
    break;
  case Activation::GeluTanh:
    n += wide ? 40 : 10;
    break;
  case Activation::Silu:
    n += wide ? 45 : 5;
    break;
  case Activation::Gelu:
    n += 67;
    break;
  }
  return n;
}

namespace {
/// What every step of the model reads: the spec, the shape in the kernel's
/// view, the device and the numbers derived from them once.
struct ModelInputs {
  ModelInputs(const KernelSpec &spec, ProblemShape p, const DeviceInfo &dev)
      : spec(spec), p(p), dev(dev), M(p.m), N(p.n), K(p.k),
        ea(elementBytes(spec.a.element)), eb(elementBytes(spec.b.element)),
        ec(elementBytes(spec.c.element)), bm(spec.blockM()), bn(spec.blockN()),
        bk(spec.blockK()), sms(dev.smCount),
        peakPerSm(dev.peak(mathUnitFor(spec.a.element)) / sms),
        bwPerSm(dev.hbmBytesPerSec / sms), kPerSplit(K / spec.tileScheduler.splitK) {}
  const KernelSpec &spec;
  ProblemShape p;
  const DeviceInfo &dev;
  double M, N, K;
  double ea, eb, ec;
  double bm, bn, bk;
  double sms;
  /// An SM's share of the math unit's peak and of HBM's bandwidth.
  double peakPerSm, bwPerSm;
  /// K of one split_k piece (K without split_k).
  double kPerSplit;
  bool persistent() const {
    return spec.tileScheduler.kind != TileSchedulerKind::DataParallel;
  }
  bool streamK() const {
    return spec.tileScheduler.kind == TileSchedulerKind::StreamK;
  }
};

/// The roofline: the fewest bytes and the floor (docs/model.md 1).
void roofline(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  double M = in.M, N = in.N, K = in.K;
  a.flops = 2.0 * M * N * K;
  a.aBytes = M * K * in.ea;
  a.bBytes = K * N * in.eb;
  a.cWriteBytes = M * N * in.ec;
  a.cReadBytes = spec.epilogue.beta ? M * N * in.ec : 0;
  a.biasBytes = spec.epilogue.bias == Bias::None
                    ? 0
                    : (spec.epilogue.bias == Bias::Row ? M : N) *
                          double(elementBytes(spec.epilogue.biasElement));
  a.auxBytes = spec.epilogue.aux ? M * N * in.ec : 0;
  if (spec.blockScaled()) {
    int64_t kBlocks = llvm::divideCeil(in.p.k, kScaleBlock);
    a.scaleBytes = 4.0 * (M * double(kBlocks) +
                          double(llvm::divideCeil(in.p.n, kScaleBlock)) *
                              double(llvm::alignTo(kBlocks, kScaleBlockKAlign)));
  }
  a.minBytes = a.aBytes + a.bBytes + a.cWriteBytes + a.cReadBytes +
               a.biasBytes + a.auxBytes + a.scaleBytes;
  a.intensity = a.flops / a.minBytes;
  a.ridgePoint = in.dev.ridgePoint(a.unit);
  a.computeFloorSec = a.flops / a.peakFlops;
  a.memoryFloorSec = a.minBytes / a.hbmBytesPerSec;
  a.computeBoundFloor = a.intensity >= a.ridgePoint;
}

/// Residency: the smallest of four limits (docs/model.md 2).
void residency(const ModelInputs &in, Analysis &a) {
  a.cta = computeResources(in.spec);
  // The same derivation sets the lowering's .minnctapersm (Residency.h).
  Residency res = computeResidency(in.spec, a.cta);
  a.regsPerThreadAllocated = res.regsPerThreadAllocated;
  a.regsPerCta = res.regsPerCta;
  a.bySmem = res.bySmem;
  a.byRegs = res.byRegs;
  a.byThreads = res.byThreads;
  a.byBlocks = res.byBlocks;
  a.byTmem = res.byTmem;
  a.residentCtas = res.resident;
  a.binding = res.binding;
  a.alsoBinding = res.alsoBinding;
  a.occupancy = double(a.residentCtas * a.cta.threads) / in.dev.maxThreadsPerSm;
}

/// The grid: tiles, waves, the tail, and how many HBM reads a panel shared
/// in a wave costs (docs/model.md 3, 4b, 4c).
llvm::Error grid(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  const DeviceInfo &dev = in.dev;
  const ProblemShape &p = in.p;
  a.tilesM = llvm::divideCeil(p.m, spec.blockM());
  a.tilesN = llvm::divideCeil(p.n, spec.blockN());
  a.splitK = spec.tileScheduler.splitK;
  int64_t tilesMN = 0;
  if (llvm::MulOverflow(a.tilesM, a.tilesN, tilesMN) ||
      llvm::MulOverflow(tilesMN, a.splitK, a.tiles))
    return llvm::createStringError(
        llvm::formatv("shape {0}x{1}x{2} has more than 2^63 tiles", p.m, p.n,
                      p.k)
            .str());
  a.slots = dev.smCount * a.residentCtas;
  // stream_k launches every slot (its CTAs share the tiles' K iterations);
  // with split_k, one CTA per piece while they fit (Plan.cpp's computeLaunch).
  bool everySlot = in.streamK() && spec.tileScheduler.splitK == 1;
  a.gridCtas = everySlot          ? a.slots
               : in.persistent() ? std::min(a.tiles, a.slots)
                                  : a.tiles;
  a.waves = double(a.tiles) / a.slots;
  a.wavesRounded = llvm::divideCeil(a.tiles, a.slots);
  int64_t lastWave = a.tiles - (a.wavesRounded - 1) * a.slots;
  a.lastWaveUtilization = double(lastWave) / a.slots;
  a.tilesOnBusiestSm = llvm::divideCeil(a.tiles, int64_t(dev.smCount));
  a.ctasPerSmConcurrent = std::min(a.residentCtas, a.tilesOnBusiestSm);
  a.mmaIssuersPerSm = mmaIssuersPerSm(spec, a.ctasPerSmConcurrent,
                                      a.tilesOnBusiestSm);
  // A panel shared in a wave: one HBM read, except in a one-wave grid whose
  // SMs each run one tile with a lone MMA warpgroup, where the measured rows
  // take the time of one read per L2 partition (docs/model.md 4b).
  a.l2PanelCopies = a.mmaIssuersPerSm == 1 && a.tilesOnBusiestSm == 1
                        ? dev.l2Partitions
                        : 1;
  // swap_ab: the weights are the swapped kernel's A, its row panels; the
  // activation tiles that share one are each charged a read from HBM
  // (docs/model.md 4c: two 8-row tiles measured 1.48-1.59x the one-read
  // prediction; a stand-in for the L2 traffic that doubles: ncu measured
  // the DRAM reads once, the L2 at its traffic ceiling).
  a.weightPanelPerActivationTile = spec.swapAb && a.tilesN > 1;
  return llvm::Error::success();
}

/// HBM traffic: no reuse, and L2-aware over sampled waves (docs/model.md 4).
void hbmTraffic(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  double M = in.M, N = in.N;
  int64_t rowCopies = a.weightPanelPerActivationTile
                          ? std::numeric_limits<int64_t>::max()
                          : a.l2PanelCopies;
  a.noReuseABytes = a.aBytes * a.tilesN;
  a.noReuseBBytes = a.bBytes * a.tilesM;
  // Split-K: each split writes an fp32 partial of C, a reduction reads them.
  a.splitKBytes = a.splitK > 1 ? 2.0 * a.splitK * M * N * 4 : 0;
  double cBytes = a.cWriteBytes + a.cReadBytes + a.splitKBytes + a.biasBytes +
                  a.auxBytes + a.scaleBytes;
  a.noReuseBytes = a.noReuseABytes + a.noReuseBBytes + cBytes;
  double l2 = in.dev.l2Bytes;
  WaveTraffic first = waveTraffic(spec, in.p, a.tilesM, a.tilesN, in.kPerSplit, 0,
                                  std::min(a.slots, a.tiles), a.l2PanelCopies,
                                  rowCopies);
  a.waveTilesM = first.rows;
  a.waveTilesN = first.cols;
  a.waveWorkingSetBytes = first.unique;
  // Concurrent tiles are those of one wave; consecutive waves in launch
  // order (persistent CTAs take tile cta + i * grid: the same sets).
  int64_t waves = a.wavesRounded;
  int64_t sampled = std::min(waves, kMaxSampledWaves);
  double reads = 0, pess = 0, noReuse = 0;
  for (int64_t i = 0; i < sampled; ++i) {
    // Evenly spaced waves; with waves <= kMaxSampledWaves, every wave.
    int64_t w = waves <= kMaxSampledWaves
                    ? i
                    : static_cast<int64_t>((double(i) + 0.5) * waves / sampled);
    int64_t firstTile = w * a.slots;
    int64_t count = std::min(a.slots, a.tiles - firstTile);
    WaveTraffic t = waveTraffic(spec, in.p, a.tilesM, a.tilesN, in.kPerSplit,
                                firstTile, count, a.l2PanelCopies, rowCopies);
    reads += t.reads;
    pess += pessimistic(t, l2);
    noReuse += t.noReuse;
  }
  double scale = double(waves) / sampled;
  // Scale the sampled waves to the exact no-reuse total so sampling only
  // changes the reuse ratio, never the amount of data.
  double operandNoReuse = a.noReuseABytes + a.noReuseBBytes;
  double ratio = operandNoReuse / (noReuse * scale);
  a.l2Bytes = reads * scale * ratio + cBytes;
  a.l2PessimisticBytes = pess * scale * ratio + cBytes;
  a.l2HitRate = 1.0 - reads / noReuse;
  a.amplificationNoReuse = a.noReuseBytes / a.minBytes;
  a.amplificationL2 = a.l2Bytes / a.minBytes;
}

/// Latency hiding: Little's law per SM (docs/model.md 5).
void latencyHiding(const ModelInputs &in, Analysis &a) {
  double bm = in.bm, bn = in.bn;
  a.bytesPerFlop = (bm * in.ea + bn * in.eb) / (2.0 * bm * bn);
  // What an SM can be fed: the SMs with a tile share HBM for their misses,
  // so a bandwidth-bound tile needs in flight only what that share takes,
  // not what the peak would.
  a.smsWithTiles = std::min<int64_t>(in.dev.smCount, a.tiles);
  a.fedBwPerSm = a.hbmBytesPerSec / double(a.smsWithTiles) /
                 std::max(1.0 - a.l2HitRate, kMinMissFraction);
  a.neededBwPerSm = std::min(a.bytesPerFlop * in.peakPerSm, a.fedBwPerSm);
  a.latencySec =
      a.l2HitRate * kL2HitLatencySec + (1.0 - a.l2HitRate) * kDramLatencySec;
  a.neededInFlightBytes = a.neededBwPerSm * a.latencySec;
  const CtaResources &r = a.cta;
  double concurrent = a.ctasPerSmConcurrent;
  a.inFlightBytes = concurrent * double(std::max<int64_t>(r.stages - 1, 0)) *
                    double(r.stageBytes());
  if (r.stages > 1) {
    a.latencyCoverage = std::min(1.0, a.inFlightBytes / a.neededInFlightBytes);
  } else {
    // One stage: load and compute alternate; other resident CTAs fill the
    // gaps. Compute of one K step at the SM's share for this CTA vs the wait.
    double stepSec = 2.0 * bm * bn * in.bk / in.peakPerSm;
    a.latencyCoverage =
        std::min(1.0, concurrent * stepSec / (stepSec + a.latencySec));
  }
}

/// Shared-memory bandwidth: what the SM's math can be fed (docs/model.md
/// 6b). The fills (TMA writes) and the MMA's operand reads share the SM's
/// kSmemBytesPerClock. Issue 16: without this the model ranked 64x64 tiles
/// above 128x256 on 8192^3, where they need about twice the bytes per FLOP.
void smemBandwidth(const ModelInputs &in, Analysis &a) {
  a.smemBytesPerFlop = smemBytesPerFlop(in.spec);
  a.smemFlopsPerSm =
      a.smemBytesPerFlop > 0
          ? kSmemBytesPerClock * in.dev.boostClockGHz * 1e9 / a.smemBytesPerFlop
          : in.peakPerSm;
  // f16 operands hold a lower SM clock than bf16 at the power limit
  // (docs/model.md 7d): the MMAs and their shared-memory reads both slow.
  a.clockRatio =
      in.spec.a.element == ElementType::F16 ? in.dev.f16ClockRatio : 1.0;
  a.mathFlopsPerSm = std::min(in.peakPerSm, a.smemFlopsPerSm) * a.clockRatio;
}

/// Per-tile overhead: the fill and the epilogue, and what of them the
/// schedule leaves exposed (docs/model.md 6).
void tileOverhead(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  const DeviceInfo &dev = in.dev;
  // All SMs fill and drain at about the same time, so each gets its share
  // of HBM bandwidth.
  a.prologueSec = a.latencySec + double(a.cta.stageBytes()) / in.bwPerSm;
  // The epilogue: read C with beta (at the SM's share of HBM), then write
  // the tile. store: tma only stages it in shared memory, and TMA writes it
  // out while the next tile computes (those bytes are in memorySec);
  // store: direct writes it from registers (kDirectStoreCost).
  double cTileBytes = in.bm * in.bn * in.ec;
  double cReadSec = spec.epilogue.beta ? cTileBytes / in.bwPerSm : 0;
  // The aux tile goes out from registers, like a direct store of C.
  double auxSec = spec.epilogue.aux ? kDirectStoreCost * cTileBytes / in.bwPerSm : 0;
  // The fused math runs on the threads that store, value by value
  // (EpilogueMath), at the SM's CUDA-core issue rate (one f32 FMA, 2 FLOP,
  // an instruction).
  a.fusedMathSec = in.bm * in.bn * fusedEpilogueInstructionsPerValue(spec) /
                   (kEpilogueIssueEfficiency * dev.peak(MathUnit::CudaCoreF32) / 2.0 / in.sms);
  a.epilogueSec =
      cReadSec + auxSec + a.fusedMathSec +
      (spec.epilogue.store == StoreKind::Tma
           ? cTileBytes / (kSmemBytesPerClock * dev.boostClockGHz * 1e9)
           : kDirectStoreCost * cTileBytes / in.bwPerSm);
  bool ws = spec.kernelSchedule != KernelSchedule::Multistage;
  double concurrent = a.ctasPerSmConcurrent;
  double firstFill = 0;
  if (in.persistent() && ws) {
    // The producer loads the next tile while the consumers run the
    // epilogue; pingpong's other consumer also hides the epilogue.
    a.exposedPerTileSec =
        spec.kernelSchedule == KernelSchedule::WarpSpecializedPingpong
            ? 0
            : a.epilogueSec / concurrent;
    firstFill = a.prologueSec;
  } else {
    // Other resident CTAs compute while one fills or drains.
    a.exposedPerTileSec = (a.prologueSec + a.epilogueSec) / concurrent;
  }
  a.overheadSec = a.tilesOnBusiestSm * a.exposedPerTileSec + firstFill;
}

/// stream_k / split_k hand-over (docs/model.md 6c). A CTA's share of K
/// iterations is cut into pieces at tile boundaries (gemmc-schedule-tiles'
/// stream_k_plan); a split tile's pieces but the finishing one are written
/// as fp32 partials to the workspace, and the finishing CTA (the tile's
/// last iteration on sm_90a and sm_100a, its first on sm_80: the CTA's last
/// piece either way) reads each after spinning on its flag
/// (lowerStreamKFixup). Each piece restarts the pipeline.
void streamKHandOver(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  int64_t kTiles = llvm::divideCeil(in.p.k, spec.blockK());
  double share = 0; // K iterations per CTA over the split part
  int64_t pieceIterations = kTiles;
  if (in.streamK() && a.splitK > 1) {
    // split_k: every tile is split_k pieces; one CTA per piece while they
    // fit, else even shares of all pieces' iterations, as stream_k's.
    a.streamKSplitTiles = a.tilesM * a.tilesN;
    a.streamKPiecesPerTile = a.splitK;
    pieceIterations = llvm::divideCeil(kTiles, a.splitK);
    share = a.tiles <= a.slots
                ? double(pieceIterations)
                : double(a.tiles) * pieceIterations / double(a.slots);
  } else if (in.streamK() && a.tiles % std::max<int64_t>(1, a.slots) != 0) {
    // The remainder is split, with the last full wave before it unless
    // the target splits it alone (StreamKPolicy::wholeWaves; all tiles
    // when there are fewer than slots); the waves before go whole.
    int64_t whole = backendFor(spec.arch).streamK.wholeWaves(a.tiles, a.slots);
    a.streamKSplitTiles = a.tiles - whole * a.slots;
    share = double(a.streamKSplitTiles) * kTiles / double(a.slots);
    // A share shorter than a tile: a tile meets up to ceil(kTiles /
    // share) + 1 CTAs; longer: at most 2.
    a.streamKPiecesPerTile =
        share < kTiles ? int64_t(std::ceil(kTiles / share)) + 1 : 2;
  }
  if (a.streamKPiecesPerTile <= 0)
    return;
  // A share not on piece boundaries starts inside one piece and ends inside
  // another: whole pieces between, two partial ends. A share of whole
  // pieces (split_k with pieces a multiple of the slots, or one piece per
  // CTA) is just those.
  a.streamKPiecesPerCta =
      std::fmod(share, double(pieceIterations)) == 0
          ? int64_t(share / pieceIterations)
          : int64_t(std::floor(share / pieceIterations)) + 2;
  a.streamKPartialBytes = double(a.streamKPiecesPerTile) * in.bm * in.bn * 4;
  a.streamKPartialSec = a.streamKPartialBytes / in.bwPerSm;
  a.streamKFlagSec =
      double(a.streamKPiecesPerTile - 1) * kStreamKFlagRoundTripSec;
  a.streamKFixupSec = a.streamKPartialSec + a.streamKFlagSec;
  a.overheadSec += a.streamKFixupSec;
  a.streamKRefillSec =
      double(a.streamKPiecesPerCta - 1) *
      (a.latencySec + double(a.cta.stages) * double(a.cta.stageBytes()) / in.bwPerSm);
}

/// The mainloop's parts that the bottleneck is chosen among.
struct MainloopParts {
  double fedSec = 0;      ///< the math, fed: latency, refills, issue gaps
  double smemLossSec = 0; ///< the part of the math that is shared memory's
};

/// Block scaling: after each K tile's MMAs the consumers fold the tile's
/// sum into the f32 accumulator, one FMA (2 FLOP) per accumulator, at the
/// SM's share of the CUDA cores' f32 peak, before the next tile's MMAs
/// (sm_90a: the consumers that issue them fold). With fold_columns every
/// fold but the last part's of each loop iteration (foldGroupTiles K tiles)
/// runs under the warpgroup's next part (their cost is the A re-reads, in
/// smemBytesPerFlop).
void blockScaleFold(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  double kTiles = std::ceil(in.kPerSplit / in.bk);
  double foldFlops =
      spec.mainloop.foldColumns > 0
          ? 2.0 * in.bm * spec.mainloop.foldColumns *
                std::ceil(kTiles / double(foldGroupTiles(spec)))
          : 2.0 * in.bm * in.bn * kTiles;
  // One part at a time (the whole tile, or fold_group 1) under
  // warp_specialized with three or more consumer warpgroups, which fold on
  // their own: each fold waits on the tensor cores over 1 / (W - 1) of its
  // length, the other warpgroups' parts running under the rest
  // (docs/model.md section 7; ncu, session 40: 0.45 of it on 192x128). Two
  // warpgroups keep the rule above: with or without turns they wait through
  // most of every part's fold (0.83-0.89), which the rule above counts as
  // half or all of it; counting that too misranked them in gemmc tune.
  bool onePart = spec.mainloop.foldColumns == 0 || spec.mainloop.foldGroup == 1;
  if (spec.arch == Arch::SM90a && onePart && a.cta.consumerWarpgroups >= 3 &&
      spec.kernelSchedule == KernelSchedule::WarpSpecialized)
    foldFlops = 2.0 * in.bm * in.bn * kTiles / double(a.cta.consumerWarpgroups - 1);
  a.blockScaleFoldSec = double(a.tilesOnBusiestSm) * foldFlops /
                        (in.dev.peak(MathUnit::CudaCoreF32) / in.sms);
  // sm_100a: the epilogue warpgroup folds from tensor memory while the
  // MMAs of the next K tile fill the other partial buffer, so the longer
  // of the two counts; with one partial buffer (BLOCK_N = 256) they take
  // turns. Not measured: no B200 here.
  a.blockScaleFoldOverlapped = a.cta.foldBuffers > 0 && a.cta.accBuffers > 1;
  if (a.blockScaleFoldOverlapped)
    a.mmaSec = std::max(a.mmaSec, a.blockScaleFoldSec);
  else
    a.mmaSec += a.blockScaleFoldSec;
}

/// The three parts of the mainloop overlap, but not perfectly: a pipeline
/// whose stages are all near full loses to their queues (docs/model.md 7e),
/// so the mainloop is their kOverlapNorm-norm, the max when one part
/// dominates.
double overlap(double x, double y, double z) {
  double m = std::max({x, y, z});
  if (m <= 0)
    return 0.0;
  double sum = 0;
  for (double v : {x, y, z})
    sum += std::pow(v / m, kOverlapNorm);
  return m * std::pow(sum, 1.0 / kOverlapNorm);
}

/// What a stage's boxes take at the SM's TMA unit beyond their bytes at its
/// share of the fill rate: a box takes at least `boxSec` (docs/model.md 6e),
/// which the small boxes of `a_box_rows: 16` (2 KB) showed and 32-row ones
/// (4 KB) did not.
double smallBoxSec(const KernelSpec &spec, double bytesPerSecPerSm, double boxSec) {
  if (boxSec <= 0)
    return 0.0;
  KernelAbi abi = describeKernelAbi(spec);
  double extra = 0;
  for (const auto &[plan, element] :
       {std::pair(&abi.a, spec.a.element), std::pair(&abi.b, spec.b.element)}) {
    double boxBytes = double(plan->box[0] * plan->box[1] * elementBytes(element));
    double loads = double(plan->loadsPerStage * plan->rowBoxes);
    extra += loads * std::max(0.0, boxSec - boxBytes / bytesPerSecPerSm);
  }
  return extra;
}

/// The mainloop: the math on the busiest SM, fed or not, against HBM and
/// the TMA fills (docs/model.md 6, 6d, 6e, 7e).
MainloopParts mainloop(const ModelInputs &in, Analysis &a) {
  const KernelSpec &spec = in.spec;
  const DeviceInfo &dev = in.dev;
  double tileFlops = 2.0 * in.bm * in.bn * in.kPerSplit; // partial tiles run padded
  // split_k launches one CTA per piece (while they fit), not one per SM:
  // the busiest SM's pieces, as for a persistent grid.
  bool balanced = in.streamK() && (a.splitK == 1 || a.tiles > a.slots);
  double tilesOnSm = balanced ? double(a.tiles) / in.sms : double(a.tilesOnBusiestSm);
  a.mmaSec = tilesOnSm * tileFlops / a.mathFlopsPerSm;
  // The issue path (docs/model.md 6d): a lone MMA warpgroup's per-K-step
  // round trip leaves the tensor cores idle; a second one fills it.
  a.kStepsOnBusiestSm = tilesOnSm * std::ceil(in.kPerSplit / in.bk);
  if (a.mmaIssuersPerSm == 1)
    a.issueGapSec = a.kStepsOnBusiestSm * kSingleIssuerStepSec;
  MainloopParts parts;
  // The part of the math time that is shared memory's, not the peak's (at
  // the clock the operands hold).
  parts.smemLossSec =
      a.mmaSec * (1.0 - std::min(in.peakPerSm, a.smemFlopsPerSm) / in.peakPerSm);
  if (spec.blockScaled())
    blockScaleFold(in, a);
  a.memorySec = a.l2Bytes / a.hbmBytesPerSec;
  // Stream-K's pipeline refills are the math side's: when HBM-bound, other
  // CTAs' loads use the bandwidth meanwhile.
  parts.fedSec =
      a.mmaSec / a.latencyCoverage + a.streamKRefillSec + a.issueGapSec;
  // TMA fills (docs/model.md 6e): the SMs with tiles share the device's
  // fill rate from L2, and each box row past the matrix (TMA writes it as
  // zeros) costs the SM's fill a fixed time. A floor under the mainloop:
  // hidden while the math or HBM takes longer.
  if (dev.tmaFillBytesPerSec > 0 && spec.mainloop.load == LoadKind::Tma) {
    int64_t aBox = spec.mainloop.aBoxRows > 0 ? spec.mainloop.aBoxRows : spec.blockM();
    a.zeroRowsPerStage = double(edgeZeroRowsA(in.p.m, spec.blockM(), aBox)) / double(a.tilesM) +
                         double(a.tilesN * spec.blockN() - in.p.n) / double(a.tilesN);
    double bytesPerSecPerSm = dev.tmaFillBytesPerSec / double(a.smsWithTiles);
    a.smallBoxSecPerStage = smallBoxSec(spec, bytesPerSecPerSm, dev.tmaBoxSec);
    double fillPerStepSec = double(a.cta.stageBytes()) / bytesPerSecPerSm +
                            a.zeroRowsPerStage * dev.tmaZeroRowSec + a.smallBoxSecPerStage;
    a.tmaFillSec = a.kStepsOnBusiestSm * fillPerStepSec;
  }
  a.mainloopSec = overlap(parts.fedSec, a.memorySec, a.tmaFillSec);
  return parts;
}

/// The prediction: efficiency, the power cap and the launch, with the range
/// (docs/model.md 7).
void prediction(const ModelInputs &in, const MainloopParts &parts, Analysis &a) {
  const DeviceInfo &dev = in.dev;
  a.modelSec = a.mainloopSec + a.overheadSec;
  a.pessimisticSec =
      overlap(parts.fedSec, a.l2PessimisticBytes / a.hbmBytesPerSec, a.tmaFillSec) +
      a.overheadSec;
  // The power cap (docs/model.md 7b): a kernel runs its first
  // powerWindowSec at the rate above; then the board is at its power limit
  // and the FLOPs left go at the device's sustained rate, when that is
  // slower. A device number measured once, not a per-shape factor.
  a.sustainedFlops =
      dev.sustainedFlops[static_cast<int>(a.unit)] * a.clockRatio;
  auto capped = [&](double sec) {
    if (a.sustainedFlops <= 0 || sec <= dev.powerWindowSec)
      return sec;
    double rest = a.flops * (1.0 - dev.powerWindowSec / sec);
    return std::max(sec, dev.powerWindowSec + rest / a.sustainedFlops);
  };
  // The launch (docs/model.md 7c): measured, so outside the efficiency,
  // which a device that has it measured has fitted with it.
  a.launchSec = dev.launchSec;
  a.efficiency = dev.efficiency > 0 ? dev.efficiency : kEfficiencyMid;
  a.uncappedSec = a.modelSec / a.efficiency;
  a.powerCapSec = capped(a.uncappedSec) - a.uncappedSec;
  a.predictedSec = a.uncappedSec + a.powerCapSec + a.launchSec;
  a.bestSec = capped(a.modelSec / kEfficiencyHigh) + a.launchSec;
  a.worstSec = capped(a.pessimisticSec / kEfficiencyLow) + a.launchSec;
  a.predictedTflops = a.flops / a.predictedSec / 1e12;
  a.bestTflops = a.flops / a.bestSec / 1e12;
  a.worstTflops = a.flops / a.worstSec / 1e12;
  a.fractionOfPeak = a.flops / a.predictedSec / a.peakFlops;
  a.bestFraction = a.flops / a.bestSec / a.peakFlops;
  a.worstFraction = a.flops / a.worstSec / a.peakFlops;
}

/// The bottleneck: HBM when traffic outlasts the fed math, else the largest
/// of the useful math and the three losses on top of it.
Bottleneck bottleneck(const MainloopParts &parts, const Analysis &a) {
  if (a.powerCapSec > 0)
    return Bottleneck::PowerCap;
  if (a.tmaFillSec > std::max(parts.fedSec, a.memorySec))
    return Bottleneck::TmaFill;
  if (a.memorySec > parts.fedSec)
    return Bottleneck::HbmBandwidth;
  // The compute floor at the clock the operands hold.
  double computeSec = a.computeFloorSec / a.clockRatio;
  std::pair<Bottleneck, double> candidates[] = {
      {Bottleneck::Compute, computeSec},
      {Bottleneck::WaveQuantization, a.mmaSec - parts.smemLossSec - computeSec},
      {Bottleneck::SharedMemory, parts.smemLossSec},
      {Bottleneck::LoadLatency,
       parts.fedSec - a.streamKRefillSec - a.issueGapSec - a.mmaSec},
      {Bottleneck::MmaIssue, a.issueGapSec},
      {Bottleneck::TileOverhead, a.overheadSec + a.streamKRefillSec}};
  return std::max_element(std::begin(candidates), std::end(candidates),
                          [](auto x, auto y) { return x.second < y.second; })
      ->first;
}
} // namespace

llvm::Expected<Analysis> gemmc::analyze(const KernelSpec &spec,
                                        ProblemShape p) {
  if (p.m < 1 || p.n < 1 || p.k < 1)
    return llvm::createStringError(
        llvm::formatv("shape {0}x{1}x{2}: every dimension must be at least 1",
                      p.m, p.n, p.k)
            .str());
  // swap_ab: the kernel runs C^T = B^T A^T; everything below is its view
  // (the spec in memory is already swapped, Rules.h's swapAbView).
  if (spec.swapAb)
    std::swap(p.m, p.n);
  Analysis a;
  a.shape = p;
  const DeviceInfo &dev = spec.deviceInfo();
  a.device = &dev;
  a.unit = mathUnitFor(spec.a.element);
  a.peakFlops = dev.peak(a.unit);
  a.hbmBytesPerSec = dev.hbmBytesPerSec;
  ModelInputs in(spec, p, dev);
  // The steps of docs/model.md, in its order; each fills its part of `a`
  // from the spec and the parts before it.
  roofline(in, a);
  residency(in, a);
  if (llvm::Error err = grid(in, a))
    return std::move(err);
  hbmTraffic(in, a);
  latencyHiding(in, a);
  smemBandwidth(in, a);
  tileOverhead(in, a);
  streamKHandOver(in, a);
  MainloopParts parts = mainloop(in, a);
  prediction(in, parts, a);
  a.bottleneck = bottleneck(parts, a);
  return a;
}
