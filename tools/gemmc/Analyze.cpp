//===- Analyze.cpp - `gemmc analyze`: the performance model's report -----===//
//
//   gemmc analyze SPEC [--shape MxNxK ...] [--json] [--plot FILE.svg]
//
// One report per shape: every number next to the inputs of its formula, so a
// performance engineer can redo it by hand (docs/model.md has the formulas).
// --json prints the same figures under stable keys; --plot draws a roofline.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "gemmc/Model/Model.h"
#include "gemmc/Spec/SpecParser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace llvm;
using namespace gemmc;

cl::SubCommand gemmc::tool::analyzeCommand(
    "analyze", "Predict and explain a schedule's performance before it runs");

static cl::opt<std::string> specPath(cl::Positional, cl::desc("<spec.yaml>"),
                                     cl::Required,
                                     cl::sub(gemmc::tool::analyzeCommand),
    cl::cat(gemmc::tool::gemmcOptions));
static cl::list<std::string>
    shapeArgs("shape",
              cl::desc("Problem shape MxNxK (repeatable; default: the spec's "
                       "problem sizes)"),
              cl::value_desc("MxNxK"), cl::sub(gemmc::tool::analyzeCommand),
    cl::cat(gemmc::tool::gemmcOptions));
static cl::opt<bool> jsonOutput("json",
                                cl::desc("Print the figures as JSON"),
                                cl::sub(gemmc::tool::analyzeCommand),
    cl::cat(gemmc::tool::gemmcOptions));
static cl::opt<std::string>
    plotPath("plot", cl::desc("Write a log-log roofline as SVG"),
             cl::value_desc("file.svg"), cl::sub(gemmc::tool::analyzeCommand),
    cl::cat(gemmc::tool::gemmcOptions));

namespace {
//===----------------------------------------------------------------------===//
// Units. Bytes and rates are decimal (1 MB = 1e6 B, 1 TB/s = 1e12 B/s), as
// bandwidths are quoted; per-CTA shared memory is KiB, as the rules print it.
//===----------------------------------------------------------------------===//

std::string bytesStr(double b) {
  if (b >= 1e9)
    return formatv("{0:F2} GB", b / 1e9).str();
  if (b >= 1e6)
    return formatv("{0:F1} MB", b / 1e6).str();
  if (b >= 1e3)
    return formatv("{0:F1} KB", b / 1e3).str();
  return formatv("{0:F0} B", b).str();
}

std::string timeStr(double s) {
  if (s >= 1e-3)
    return formatv("{0:F3} ms", s * 1e3).str();
  if (s >= 1e-6)
    return formatv("{0:F1} us", s * 1e6).str();
  return formatv("{0:F0} ns", s * 1e9).str();
}

std::string flopStr(double f) {
  if (f >= 1e12)
    return formatv("{0:F3} TFLOP", f / 1e12).str();
  if (f >= 1e9)
    return formatv("{0:F1} GFLOP", f / 1e9).str();
  return formatv("{0:F1} MFLOP", f / 1e6).str();
}

std::string pct(double x) { return formatv("{0:F1}%", 100 * x).str(); }

std::string shapeName(const ProblemShape &p) {
  return formatv("{0}x{1}x{2}", p.m, p.n, p.k).str();
}

} // namespace

std::optional<ProblemShape> gemmc::tool::parseShape(StringRef text,
                                                   std::string &why) {
  SmallVector<StringRef, 3> parts;
  text.split(parts, 'x', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  if (parts.size() != 3) {
    why = "expected three sizes MxNxK, e.g. 8192x8192x8192";
    return std::nullopt;
  }
  int64_t v[3];
  static const char *names[] = {"M", "N", "K"};
  for (int i = 0; i < 3; ++i) {
    StringRef s = parts[i];
    if (s.empty() || !llvm::all_of(s, [](char c) { return c >= '0' && c <= '9'; })) {
      why = formatv("{0} = '{1}' is not a positive decimal integer", names[i], s)
                .str();
      return std::nullopt;
    }
    uint64_t u;
    if (s.getAsInteger(10, u) || u > uint64_t(INT64_MAX)) {
      why = formatv("{0} = {1} is too large", names[i], s).str();
      return std::nullopt;
    }
    v[i] = static_cast<int64_t>(u);
  }
  return ProblemShape{v[0], v[1], v[2]};
}

namespace {

struct Row {
  std::string name;
  Analysis a;
};

//===----------------------------------------------------------------------===//
// The text report.
//===----------------------------------------------------------------------===//

void printHeader(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  os << formatv("kernel {0}: {1}, {2} on {3} ({4} SMs)\n", s.name,
                archName(s.arch), elementTypeName(s.a.element), d.productName,
                d.smCount);
  os << formatv("schedule: tile {0}x{1}x{2}{10}, {3} stages, {4}, {5} (raster "
                "{6}, group {7}, split_k {8}), {9} threads\n",
                s.blockM(), s.blockN(), s.blockK(), s.mainloop.stages,
                kernelScheduleName(s.kernelSchedule),
                tileSchedulerKindName(s.tileScheduler.kind),
                rasterName(s.tileScheduler.raster), s.tileScheduler.group,
                s.tileScheduler.splitK, a.cta.threads,
                // swap_ab: what follows is the swapped kernel's (Rules.h).
                s.swapAb ? " (swap_ab: the kernel of C^T = B^T A^T, its M "
                           "and N the shape's N and M)"
                         : "");
  os << formatv("unit: {0}, peak {1:F1} TFLOP/s; HBM {2:F3} TB/s; L2 {3} "
                "MiB\n",
                mathUnitName(a.unit), a.peakFlops / 1e12,
                a.hbmBytesPerSec / 1e12, d.l2Bytes / (1024 * 1024));
}

/// A way out of a fill bound by A's zero rows: the same schedule with A in
/// boxes of 32 rows (mainloop.a_box_rows), where the rules take it, when it
/// loads fewer zero rows and the model predicts it faster. Empty otherwise.
std::string aBoxRowsWayOut(const KernelSpec &s, const Analysis &a) {
  constexpr int64_t kRows = kABoxRows;
  const ProblemShape &p = a.shape;
  if (a.bottleneck != Bottleneck::TmaFill || s.mainloop.aBoxRows != 0 || s.swapAb ||
      s.blockM() <= kRows || !boxesSaveZeroRows(p.m, s.blockM(), kRows))
    return "";
  KernelSpec boxed = s;
  boxed.mainloop.aBoxRows = kRows;
  if (!checkSpec(boxed).empty())
    return "";
  Expected<Analysis> b = analyze(boxed, p);
  if (!b) {
    consumeError(b.takeError());
    return "";
  }
  if (b->predictedTflops <= a.predictedTflops)
    return "";
  int64_t before = edgeZeroRowsA(p.m, s.blockM(), s.blockM());
  int64_t after = edgeZeroRowsA(p.m, s.blockM(), kRows);
  return formatv("  way out          = mainloop.a_box_rows: {0} (A in boxes of {0} rows, none wholly "
                 "past M: {1} -> {2} zero rows a stage of the last row tile): {3:F1} TFLOP/s "
                 "({4:F2}x)\n",
                 kRows, before, after, b->predictedTflops,
                 b->predictedTflops / a.predictedTflops)
      .str();
}

/// The roofline: FLOPs, the fewest bytes, intensity against the ridge.
void printRoofline(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const ProblemShape &p = a.shape;
  int ea = elementBytes(s.a.element), eb = elementBytes(s.b.element), ec = elementBytes(s.c.element);
  os << "roofline\n";
  os << formatv("  flops            = 2 x {0} x {1} x {2} = {3}\n", p.m, p.n,
                p.k, flopStr(a.flops));
  os << formatv("  min bytes        = A {0}x{1}x{2} B + B {1}x{3}x{4} B + C "
                "{0}x{3}x{5} B{6} = {7}\n",
                p.m, p.k, ea, p.n, eb, ec,
                std::string(s.epilogue.beta ? " x 2 (beta reads C)" : "") +
                    (a.scaleBytes ? " + block scales " + bytesStr(a.scaleBytes)
                                  : std::string()),
                bytesStr(a.minBytes));
  os << formatv("  intensity        = {0:F1} FLOP/B; ridge = {1:F1} TFLOP/s / "
                "{2:F3} TB/s = {3:F1} FLOP/B -> {4}-bound\n",
                a.intensity, a.peakFlops / 1e12, a.hbmBytesPerSec / 1e12,
                a.ridgePoint, a.computeBoundFloor ? "compute" : "memory");
  os << formatv("  floor            = max(compute {0}, memory {1})\n",
                timeStr(a.computeFloorSec), timeStr(a.memoryFloorSec));
}

/// What one SM holds: shared memory, registers, threads, tensor memory.
void printResidency(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  const CtaResources &r = a.cta;
  os << "residency (per SM)\n";
  std::string smemSum = formatv("{0} stages x {1}", r.stages,
                                formatBytes(r.stageBytes())).str();
  if (r.epilogueBytes)
    smemSum += " + " + formatBytes(r.epilogueBytes) + " epilogue";
  if (r.scaleBytes)
    smemSum += " + " + formatBytes(r.scaleBytes) + " block scales";
  if (r.barrierBytes)
    smemSum += " + " + formatBytes(r.barrierBytes) + " barriers";
  os << formatv("  shared memory    = {0} = {1} per CTA -> {2} / {1} = {3}\n",
                smemSum, formatBytes(r.smemBytes),
                formatBytes(d.smemPerSmBytes), a.bySmem);
  os << formatv("  registers        = {0} per thread (estimate {1}, launched "
                "at a multiple of {2}) x {3} threads = {4} per CTA -> {5} / "
                "{4} = {6}\n",
                a.regsPerThreadAllocated, r.regsPerThread,
                model::kRegAllocUnit, r.threads, a.regsPerCta, d.regsPerSm,
                a.byRegs);
  os << formatv("  threads          = {0} / {1} = {2}; blocks limit {3}\n",
                d.maxThreadsPerSm, r.threads, a.byThreads, a.byBlocks);
  if (r.tmemColumns > 0)
    os << formatv("  tensor memory    = {0} {1}{2}{3} x {4} columns, "
                  "allocated as {5} per CTA -> {6} / {5} = {7}\n",
                  r.accBuffers, r.foldBuffers ? "K-tile partial" : "accumulator buffer",
                  r.accBuffers == 1 ? "" : "s",
                  r.foldBuffers ? formatv(" + {0} f32 sum", r.foldBuffers).str() : "",
                  s.blockN(), r.tmemColumns, isaFor(s.arch).tmemColumns(), a.byTmem);
  os << formatv("  resident CTAs    = {0}, bound by {1}{2}; occupancy {3} "
                "x {4} / {5} = {6}\n",
                a.residentCtas, occupancyLimitName(a.binding),
                a.alsoBinding.empty() ? ""
                                      : " (" + a.alsoBinding + " allow the same)",
                a.residentCtas, r.threads, d.maxThreadsPerSm, pct(a.occupancy));
}

/// Tiles, waves and the busiest SM.
void printGrid(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  const ProblemShape &p = a.shape;
  os << "grid\n";
  os << formatv("  tiles            = ceil({0}/{1}) x ceil({2}/{3}) x split_k "
                "{4} = {5} x {6} x {4} = {7}\n",
                p.m, s.blockM(), p.n, s.blockN(), a.splitK, a.tilesM, a.tilesN,
                a.tiles);
  os << formatv("  waves            = {0} tiles / ({1} SMs x {2} CTAs) = {3:F2} "
                "-> {4} waves, last wave {5} full\n",
                a.tiles, d.smCount, a.residentCtas, a.waves, a.wavesRounded,
                pct(a.lastWaveUtilization));
  os << formatv("  grid             = {0} CTAs{1}; busiest SM runs ceil({2} / "
                "{3}) = {4} tiles\n",
                a.gridCtas,
                s.tileScheduler.kind == TileSchedulerKind::DataParallel ? ""
                : a.gridCtas == a.slots && a.tiles < a.slots
                    ? formatv(" (stream_k: every slot, {0})", a.slots).str()
                    : formatv(" (persistent: min({0}, {1}))", a.tiles, a.slots)
                          .str(),
                a.tiles, d.smCount, a.tilesOnBusiestSm);
}

/// HBM bytes: without reuse, and with the wave's working set in L2.
void printTraffic(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  const ProblemShape &p = a.shape;
  int ea = elementBytes(s.a.element), eb = elementBytes(s.b.element);
  os << "HBM traffic\n";
  os << formatv("  no reuse         = A {0} x {1} + B {2} x {3} + C {4}{5} = "
                "{6} ({7:F1}x the minimum)\n",
                bytesStr(a.aBytes), a.tilesN, bytesStr(a.bBytes), a.tilesM,
                bytesStr(a.cWriteBytes + a.cReadBytes),
                (a.splitKBytes ? " + split-K partials " + bytesStr(a.splitKBytes)
                               : std::string()) +
                    (a.biasBytes ? " + bias " + bytesStr(a.biasBytes) : std::string()) +
                    (a.auxBytes ? " + aux " + bytesStr(a.auxBytes) : std::string()) +
                    (a.scaleBytes ? " + block scales " + bytesStr(a.scaleBytes) : std::string()),
                bytesStr(a.noReuseBytes), a.amplificationNoReuse);
  os << formatv("  A+B no reuse     = {0}\n",
                bytesStr(a.noReuseABytes + a.noReuseBBytes));
  os << formatv("  wave working set = {0} tile rows x {1} + {2} tile "
                "columns x {3} = {4} vs L2 {5}\n",
                a.waveTilesM, bytesStr(double(s.blockM()) * p.k / a.splitK * ea),
                a.waveTilesN, bytesStr(double(s.blockN()) * p.k / a.splitK * eb),
                bytesStr(a.waveWorkingSetBytes), bytesStr(double(d.l2Bytes)));
  if (a.l2PanelCopies > 1)
    os << formatv("  L2 partitions    = one tile an SM, 1 MMA warpgroup: a panel "
                  "shared in the wave is read once per L2 partition, up to {0}\n",
                  a.l2PanelCopies);
  os << formatv("  L2-aware         = {0} ({1:F2}x the minimum, L2 hit rate "
                "{2}); if reuse degrades with working set / L2: {3}\n",
                bytesStr(a.l2Bytes), a.amplificationL2, pct(a.l2HitRate),
                bytesStr(a.l2PessimisticBytes));
}

/// Little's law: the bytes in flight the latency needs against the stages'.
void printLatencyHiding(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  const CtaResources &r = a.cta;
  int ea = elementBytes(s.a.element), eb = elementBytes(s.b.element);
  os << "latency hiding (Little's law)\n";
  os << formatv("  latency          = {0} hit x {1} + {2} miss x {3} = {4}\n",
                pct(a.l2HitRate), timeStr(model::kL2HitLatencySec),
                pct(1 - a.l2HitRate), timeStr(model::kDramLatencySec),
                timeStr(a.latencySec));
  double peakBw = a.bytesPerFlop * a.peakFlops / d.smCount;
  os << formatv("  needed           = ({0} x {1} B + {2} x {3} B) / (2 x {0} x "
                "{2}) = {4:F4} B/FLOP x {5:F2} TFLOP/s per SM = {6:F1} GB/s",
                s.blockM(), ea, s.blockN(), eb, a.bytesPerFlop,
                a.peakFlops / d.smCount / 1e12, peakBw / 1e9);
  if (a.neededBwPerSm < peakBw)
    os << formatv(", more than HBM feeds: {0:F3} TB/s / {1} SMs with a tile / "
                  "{2} misses = {3:F1} GB/s",
                  a.hbmBytesPerSec / 1e12, a.smsWithTiles,
                  pct(1 - a.l2HitRate), a.fedBwPerSm / 1e9);
  os << formatv(" x {0} = {1}\n", timeStr(a.latencySec),
                bytesStr(a.neededInFlightBytes));
  os << formatv("  in flight        = {0} CTAs x ({1} - 1) stages x {2} = {3} "
                "-> {4}\n",
                a.ctasPerSmConcurrent, r.stages, formatBytes(r.stageBytes()),
                bytesStr(a.inFlightBytes),
                a.latencyCoverage >= 1
                    ? std::string("covered")
                    : "covers " + pct(a.latencyCoverage) + " of the latency");
}

/// The mainloop's parts: math, memory, stream-K, the issue path, TMA fills.
void printTimeParts(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  const ProblemShape &p = a.shape;
  os << "time\n";
  // Below the peak when shared memory cannot feed it (docs/model.md).
  std::string smemBound =
      a.smemFlopsPerSm < a.peakFlops / d.smCount
          ? formatv(" (shared memory: {0:F4} B/FLOP at {1} B/clock)",
                    a.smemBytesPerFlop, kSmemBytesPerClock)
                .str()
          : std::string();
  // f16 at the power limit holds a lower clock than bf16 (docs/model.md 7d).
  if (a.clockRatio != 1)
    smemBound += formatv(" (f16 clock x {0:F2})", a.clockRatio).str();
  os << formatv("  math             = {0} tiles x 2 x {1} x {2} x {3:F0} / "
                "{4:F2} TFLOP/s per SM{6}{7} = {5}\n",
                a.tilesOnBusiestSm, s.blockM(), s.blockN(),
                double(p.k) / a.splitK, a.mathFlopsPerSm / 1e12,
                timeStr(a.mmaSec), smemBound,
                a.blockScaleFoldSec == 0 ? std::string()
                : a.blockScaleFoldOverlapped
                    ? " overlapped with block-scale folds (CUDA cores, epilogue "
                      "warpgroup) " + timeStr(a.blockScaleFoldSec) + ", the longer"
                    : " + block-scale folds (CUDA cores) " + timeStr(a.blockScaleFoldSec));
  os << formatv("  memory           = {0} / {1:F3} TB/s = {2}\n",
                bytesStr(a.l2Bytes), a.hbmBytesPerSec / 1e12,
                timeStr(a.memorySec));
  if (a.streamKPiecesPerTile > 0)
    os << formatv("  stream-K         = {0} split tiles, {1} pieces per tile, {2} "
                  "per CTA: partials {3} x {4} B / {5:F1} GB/s per SM = {6} + "
                  "{7} x flag round trip {8} = {9} after the math; {10} x "
                  "refill (latency + {11} stages x {12}) = {13} on the math\n",
                  a.streamKSplitTiles, a.streamKPiecesPerTile,
                  a.streamKPiecesPerCta, a.streamKPiecesPerTile,
                  int64_t(a.streamKPartialBytes / a.streamKPiecesPerTile),
                  a.hbmBytesPerSec / d.smCount / 1e9,
                  timeStr(a.streamKPartialSec), a.streamKPiecesPerTile - 1,
                  timeStr(model::kStreamKFlagRoundTripSec),
                  timeStr(a.streamKFixupSec), a.streamKPiecesPerCta - 1,
                  a.cta.stages, bytesStr(a.cta.stageBytes()),
                  timeStr(a.streamKRefillSec));
  if (a.issueGapSec > 0)
    os << formatv("  issue path       = 1 MMA warpgroup on the SM: {0:F0} K steps x "
                  "{1} = {2} on the math\n",
                  a.kStepsOnBusiestSm, timeStr(model::kSingleIssuerStepSec),
                  timeStr(a.issueGapSec));
  if (a.tmaFillSec > 0)
    os << formatv("  TMA fills        = {0:F0} K steps x ({1} at {2:F1} GB/s per SM "
                  "+ {3:F1} zero rows x {4:F1} ns{6}) = {5}\n",
                  a.kStepsOnBusiestSm, bytesStr(a.cta.stageBytes()),
                  d.tmaFillBytesPerSec / double(a.smsWithTiles) / 1e9,
                  a.zeroRowsPerStage, d.tmaZeroRowSec * 1e9,
                  timeStr(a.tmaFillSec),
                  a.smallBoxSecPerStage > 0
                      ? formatv(" + small boxes {0} (each at least {1:F0} ns)",
                                timeStr(a.smallBoxSecPerStage), d.tmaBoxSec * 1e9)
                            .str()
                      : std::string());
}

/// The mainloop (the parts' overlap), the overhead and the model's time.
void printTimeTotals(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  // The parts' kOverlapNorm-norm (docs/model.md 7e), the max when one leads.
  os << formatv("  mainloop         = overlap(math / coverage {0}{3}{4}, memory {1}{5}) = "
                "{2}\n",
                timeStr(a.mmaSec / a.latencyCoverage), timeStr(a.memorySec),
                timeStr(a.mainloopSec),
                a.streamKRefillSec > 0
                    ? " + stream-K refills " + timeStr(a.streamKRefillSec)
                    : std::string(),
                a.issueGapSec > 0 ? " + issue path " + timeStr(a.issueGapSec)
                                  : std::string(),
                a.tmaFillSec > 0 ? ", TMA fills " + timeStr(a.tmaFillSec)
                                 : std::string());
  os << formatv("  overhead         = {0} tiles x {1} exposed (prologue {2}, "
                "epilogue {3}{7}){4}{5} = {6}\n",
                a.tilesOnBusiestSm, timeStr(a.exposedPerTileSec),
                timeStr(a.prologueSec), timeStr(a.epilogueSec),
                a.overheadSec - a.streamKFixupSec >
                        a.tilesOnBusiestSm * a.exposedPerTileSec
                    ? " + first fill"
                    : "",
                a.streamKFixupSec > 0
                    ? " + stream-K hand-over " + timeStr(a.streamKFixupSec)
                    : std::string(),
                timeStr(a.overheadSec),
                a.fusedMathSec > 0
                    ? formatv(" with fused math {0}: {1} instructions a value",
                              timeStr(a.fusedMathSec),
                              int64_t(fusedEpilogueInstructionsPerValue(s)))
                          .str()
                    : std::string());
  os << formatv("  model            = {0} at the datasheet roofs\n",
                timeStr(a.modelSec));
}

/// The prediction: efficiency, power cap and launch; the bottleneck.
void printPrediction(raw_ostream &os, const KernelSpec &s, const Analysis &a) {
  const DeviceInfo &d = *a.device;
  os << "prediction\n";
  if (a.powerCapSec > 0 || a.launchSec > 0)
    os << formatv("  time             = {0} / {1:F2} efficiency = {2}{3}{4} = {5} "
                  "(range {6} - {7})\n",
                  timeStr(a.modelSec), a.efficiency,
                  timeStr(a.uncappedSec),
                  a.powerCapSec > 0
                      ? formatv(" + power cap {0} (past {1} at {2:F0} "
                                "TFLOP/s)",
                                timeStr(a.powerCapSec),
                                timeStr(d.powerWindowSec),
                                a.sustainedFlops / 1e12)
                            .str()
                      : std::string(),
                  a.launchSec > 0 ? " + launch " + timeStr(a.launchSec)
                                  : std::string(),
                  timeStr(a.predictedSec), timeStr(a.bestSec),
                  timeStr(a.worstSec));
  else
    os << formatv("  time             = {0} / {1:F2} efficiency = {2} (range {3} "
                  "- {4})\n",
                  timeStr(a.modelSec), a.efficiency,
                  timeStr(a.predictedSec), timeStr(a.bestSec),
                  timeStr(a.worstSec));
  os << formatv("  throughput       = {0:F1} TFLOP/s (range {1:F1} - {2:F1})\n",
                a.predictedTflops, a.worstTflops, a.bestTflops);
  os << formatv("  of peak          = {0} (range {1} - {2})\n",
                pct(a.fractionOfPeak), pct(a.worstFraction),
                pct(a.bestFraction));
  os << formatv("  bottleneck       = {0}\n", bottleneckName(a.bottleneck));
}

void printReport(raw_ostream &os, const KernelSpec &s, const Row &row) {
  const Analysis &a = row.a;
  os << "\n== shape " << row.name << "\n";
  printRoofline(os, s, a);
  printResidency(os, s, a);
  printGrid(os, s, a);
  printTraffic(os, s, a);
  printLatencyHiding(os, s, a);
  printTimeParts(os, s, a);
  printTimeTotals(os, s, a);
  printPrediction(os, s, a);
  os << aBoxRowsWayOut(s, a);
}

//===----------------------------------------------------------------------===//
// JSON: stable keys, SI units named in the key.
//===----------------------------------------------------------------------===//

/// The shape, its roofline and floors.
void shapeJson(json::OStream &j, StringRef name, const Analysis &a) {
  j.attribute("name", name);
  j.attribute("m", a.shape.m);
  j.attribute("n", a.shape.n);
  j.attribute("k", a.shape.k);
  j.attribute("flops", a.flops);
  j.attribute("min_bytes", a.minBytes);
  j.attribute("intensity", a.intensity);
  j.attribute("ridge_point", a.ridgePoint);
  j.attribute("floor_bound", a.computeBoundFloor ? "compute" : "memory");
  j.attribute("compute_floor_s", a.computeFloorSec);
  j.attribute("memory_floor_s", a.memoryFloorSec);
}

/// What one SM holds and the grid it runs.
void residencyJson(json::OStream &j, const Analysis &a) {
  j.attributeObject("cta", [&] {
    j.attribute("smem_bytes", a.cta.smemBytes);
    j.attribute("stage_bytes", a.cta.stageBytes());
    j.attribute("stages", a.cta.stages);
    j.attribute("threads", a.cta.threads);
    j.attribute("regs_per_thread_estimate", a.cta.regsPerThread);
    j.attribute("regs_per_thread_allocated", a.regsPerThreadAllocated);
    j.attribute("regs_per_cta", a.regsPerCta);
  });
  j.attributeObject("resident_limits", [&] {
    j.attribute("shared_memory", a.bySmem);
    j.attribute("registers", a.byRegs);
    j.attribute("threads", a.byThreads);
    j.attribute("blocks", a.byBlocks);
    if (a.cta.tmemColumns > 0)
      j.attribute("tensor_memory", a.byTmem);
  });
  j.attribute("resident_ctas", a.residentCtas);
  j.attribute("binding_limit", occupancyLimitName(a.binding));
  j.attribute("occupancy", a.occupancy);
  j.attribute("mma_issuers_per_sm", a.mmaIssuersPerSm);
  j.attribute("tiles_m", a.tilesM);
  j.attribute("tiles_n", a.tilesN);
  j.attribute("split_k", a.splitK);
  j.attribute("tiles", a.tiles);
  j.attribute("slots", a.slots);
  j.attribute("grid_ctas", a.gridCtas);
  j.attribute("waves", a.waves);
  j.attribute("waves_rounded", a.wavesRounded);
  j.attribute("last_wave_utilization", a.lastWaveUtilization);
  j.attribute("tiles_on_busiest_sm", a.tilesOnBusiestSm);
}

/// HBM traffic and latency hiding.
void trafficJson(json::OStream &j, const Analysis &a) {
  j.attributeObject("traffic", [&] {
    j.attribute("no_reuse_a_bytes", a.noReuseABytes);
    j.attribute("no_reuse_b_bytes", a.noReuseBBytes);
    j.attribute("split_k_bytes", a.splitKBytes);
    j.attribute("no_reuse_bytes", a.noReuseBytes);
    j.attribute("wave_tiles_m", a.waveTilesM);
    j.attribute("wave_tiles_n", a.waveTilesN);
    j.attribute("wave_working_set_bytes", a.waveWorkingSetBytes);
    j.attribute("l2_panel_copies", a.l2PanelCopies);
    j.attribute("l2_aware_bytes", a.l2Bytes);
    j.attribute("l2_pessimistic_bytes", a.l2PessimisticBytes);
    j.attribute("amplification_no_reuse", a.amplificationNoReuse);
    j.attribute("amplification_l2_aware", a.amplificationL2);
    j.attribute("l2_hit_rate", a.l2HitRate);
  });
  j.attributeObject("latency", [&] {
    j.attribute("bytes_per_flop", a.bytesPerFlop);
    j.attribute("fed_bytes_per_s_per_sm", a.fedBwPerSm);
    j.attribute("needed_bytes_per_s_per_sm", a.neededBwPerSm);
    j.attribute("latency_s", a.latencySec);
    j.attribute("needed_in_flight_bytes", a.neededInFlightBytes);
    j.attribute("in_flight_bytes", a.inFlightBytes);
    j.attribute("coverage", a.latencyCoverage);
  });
}

/// Stream-K, the time's parts, the prediction and the bottleneck.
void timeJson(json::OStream &j, const Analysis &a) {
  j.attributeObject("stream_k", [&] {
    j.attribute("split_tiles", a.streamKSplitTiles);
    j.attribute("pieces_per_tile", a.streamKPiecesPerTile);
    j.attribute("pieces_per_cta", a.streamKPiecesPerCta);
    j.attribute("partial_bytes", a.streamKPartialBytes);
    j.attribute("partial_s", a.streamKPartialSec);
    j.attribute("flag_s", a.streamKFlagSec);
    j.attribute("flag_round_trip_s", model::kStreamKFlagRoundTripSec);
  });
  j.attributeObject("time_s", [&] {
    j.attribute("math", a.mmaSec);
    j.attribute("memory", a.memorySec);
    j.attribute("mainloop", a.mainloopSec);
    j.attribute("overhead", a.overheadSec);
    j.attribute("stream_k_fixup", a.streamKFixupSec);
    j.attribute("stream_k_refill", a.streamKRefillSec);
    j.attribute("issue_gap", a.issueGapSec);
    j.attribute("tma_fill", a.tmaFillSec);
    if (a.smallBoxSecPerStage > 0)
      j.attribute("tma_small_boxes_per_stage", a.smallBoxSecPerStage);
    if (a.blockScaleFoldSec > 0)
      j.attribute("block_scale_fold", a.blockScaleFoldSec);
    j.attribute("model", a.modelSec);
    j.attribute("power_cap", a.powerCapSec);
    j.attribute("launch", a.launchSec);
    j.attribute("predicted", a.predictedSec);
    j.attribute("best", a.bestSec);
    j.attribute("worst", a.worstSec);
  });
  j.attribute("predicted_tflops", a.predictedTflops);
  j.attributeArray("range_tflops", [&] {
    j.value(a.worstTflops);
    j.value(a.bestTflops);
  });
  j.attribute("fraction_of_peak", a.fractionOfPeak);
  j.attributeArray("range_fraction_of_peak", [&] {
    j.value(a.worstFraction);
    j.value(a.bestFraction);
  });
  j.attribute("bottleneck", bottleneckName(a.bottleneck));
}

void printJson(raw_ostream &os, const KernelSpec &s, ArrayRef<Row> rows) {
  json::OStream j(os, 2);
  const Analysis &first = rows.front().a;
  j.object([&] {
    j.attribute("spec", specPath.getValue());
    j.attribute("kernel", s.name);
    j.attribute("arch", archName(s.arch));
    j.attribute("device", first.device->name);
    j.attribute("unit", mathUnitName(first.unit));
    j.attribute("peak_flops", first.peakFlops);
    j.attribute("hbm_bytes_per_s", first.hbmBytesPerSec);
    j.attribute("l2_bytes", first.device->l2Bytes);
    j.attributeObject("assumptions", [&] {
      j.attribute("l2_hit_latency_s", model::kL2HitLatencySec);
      j.attribute("dram_latency_s", model::kDramLatencySec);
      j.attribute("reg_alloc_unit", model::kRegAllocUnit);
      j.attribute("efficiency_low", model::kEfficiencyLow);
      j.attribute("efficiency_mid", first.efficiency);
      j.attribute("efficiency_high", model::kEfficiencyHigh);
    });
    j.attributeArray("shapes", [&] {
      for (const Row &row : rows) {
        const Analysis &a = row.a;
        j.object([&] {
          shapeJson(j, row.name, a);
          residencyJson(j, a);
          trafficJson(j, a);
          timeJson(j, a);
        });
      }
    });
  });
  os << "\n";
}

//===----------------------------------------------------------------------===//
// The roofline plot, by hand: log-log axes, one ceiling per unit of the
// device, the HBM roof, each shape at its L2-aware intensity with its
// predicted range.
//===----------------------------------------------------------------------===//

std::string xmlEscape(StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string decadeLabel(int e) {
  if (e >= 0 && e <= 5) {
    std::string s = "1";
    s.append(e, '0');
    return s;
  }
  return formatv("1e{0}", e).str();
}

/// The roofline SVG of `gemmc analyze --plot`: log-log axes in whole
/// decades wide enough for every ridge and point, the HBM roof, one ceiling
/// a math unit (the spec's in bold), each shape's prediction and range, and
/// a legend.
class RooflinePlot {
public:
  RooflinePlot(const KernelSpec &s, ArrayRef<Row> rows)
      : s(s), rows(rows), first(rows.front().a), d(*first.device),
        bw(d.hbmBytesPerSec) {
    fitAxes();
  }

  void write(raw_ostream &os) const {
    writeFrame(os);
    os << "<g clip-path=\"url(#plot)\">\n";
    writeRoofs(os);
    writeShapes(os);
    os << "</g>\n";
    writeLegend(os);
    os << "</svg>\n";
  }

private:
  static constexpr double W = 900, H = 600, L = 80, R = 240, T = 50, B = 60;
  static constexpr double pw = W - L - R, ph = H - T - B;
  static constexpr const char *colors[] = {"#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
                                           "#e377c2", "#17becf", "#bcbd22", "#7f7f7f",
                                           "#1a55aa", "#aa1a55", "#55aa1a", "#000000"};

  /// Axis extents in decades, wide enough for every ridge and point.
  void fitAxes() {
    double xLo = 1e9, xHi = 0, yLo = 1e9, yHi = 0;
    for (int u = 0; u < int(MathUnit::Count); ++u) {
      double peak = d.peak(MathUnit(u));
      if (peak <= 0)
        continue;
      xLo = std::min(xLo, peak / bw);
      xHi = std::max(xHi, peak / bw);
      yHi = std::max(yHi, peak / 1e12);
      yLo = std::min(yLo, peak / 1e12);
    }
    for (const Row &r : rows) {
      double x = r.a.flops / r.a.l2Bytes;
      xLo = std::min({xLo, x, r.a.intensity});
      xHi = std::max({xHi, x, r.a.intensity});
      yLo = std::min(yLo, r.a.worstTflops);
    }
    ex0 = int(std::floor(std::log10(xLo))) - 1;
    ex1 = int(std::ceil(std::log10(xHi)));
    ey0 = int(std::floor(std::log10(yLo)));
    ey1 = int(std::ceil(std::log10(yHi * 1.5)));
    ey0 = std::min(ey0, ey1 - 2);
  }
  double px(double x) const { return L + (std::log10(x) - ex0) / (ex1 - ex0) * pw; }
  double py(double tflops) const {
    return T + ph - (std::log10(tflops) - ey0) / (ey1 - ey0) * ph;
  }

  /// The title, the grid and tick labels at every decade, the axes' names.
  void writeFrame(raw_ostream &os) const {
    os << formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" "
                  "height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
                  "font-family=\"sans-serif\" font-size=\"12\">\n",
                  W, H);
    os << formatv("<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n", W, H);
    os << formatv("<text x=\"{0}\" y=\"24\" font-size=\"15\" "
                  "font-weight=\"bold\">Roofline: {1} on {2}</text>\n",
                  L, xmlEscape(s.name), xmlEscape(d.productName));
    os << formatv("<clipPath id=\"plot\"><rect x=\"{0}\" y=\"{1}\" width=\"{2}\" "
                  "height=\"{3}\"/></clipPath>\n",
                  L, T, pw, ph);
    for (int e = ex0; e <= ex1; ++e) {
      double x = px(std::pow(10.0, e));
      os << formatv("<line x1=\"{0:F1}\" y1=\"{1}\" x2=\"{0:F1}\" y2=\"{2}\" "
                    "stroke=\"#ddd\"/>\n",
                    x, T, T + ph);
      os << formatv("<text x=\"{0:F1}\" y=\"{1}\" text-anchor=\"middle\">{2}"
                    "</text>\n",
                    x, T + ph + 18, decadeLabel(e));
    }
    for (int e = ey0; e <= ey1; ++e) {
      double y = py(std::pow(10.0, e));
      os << formatv("<line x1=\"{0}\" y1=\"{1:F1}\" x2=\"{2}\" y2=\"{1:F1}\" "
                    "stroke=\"#ddd\"/>\n",
                    L, y, L + pw);
      os << formatv("<text x=\"{0}\" y=\"{1:F1}\" text-anchor=\"end\">{2}"
                    "</text>\n",
                    L - 6, y + 4, decadeLabel(e));
    }
    os << formatv("<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" height=\"{3}\" "
                  "fill=\"none\" stroke=\"black\"/>\n",
                  L, T, pw, ph);
    os << formatv("<text x=\"{0:F1}\" y=\"{1}\" text-anchor=\"middle\">"
                  "arithmetic intensity (FLOP/byte of HBM traffic)</text>\n",
                  L + pw / 2, H - 18);
    os << formatv("<text transform=\"translate(22,{0:F1}) rotate(-90)\" "
                  "text-anchor=\"middle\">TFLOP/s</text>\n",
                  T + ph / 2);
  }

  /// The HBM roof (TFLOP/s = intensity x bandwidth), then one ceiling per
  /// unit from its ridge point on; the spec's unit is bold.
  void writeRoofs(raw_ostream &os) const {
    double xMin = std::pow(10.0, ex0), xMax = std::pow(10.0, ex1);
    double yMax = std::pow(10.0, ey1);
    double roofX1 = std::min(xMax, yMax * 1e12 / bw);
    os << formatv("<line x1=\"{0:F1}\" y1=\"{1:F1}\" x2=\"{2:F1}\" y2=\"{3:F1}\" "
                  "stroke=\"#1f77b4\" stroke-width=\"2\"/>\n",
                  px(xMin), py(xMin * bw / 1e12), px(roofX1),
                  py(roofX1 * bw / 1e12));
    for (int u = 0; u < int(MathUnit::Count); ++u) {
      double peak = d.peak(MathUnit(u));
      if (peak <= 0)
        continue;
      bool mine = MathUnit(u) == first.unit;
      double y = py(peak / 1e12);
      os << formatv("<line x1=\"{0:F1}\" y1=\"{1:F1}\" x2=\"{2:F1}\" "
                    "y2=\"{1:F1}\" stroke=\"{3}\" stroke-width=\"{4}\"/>\n",
                    px(peak / bw), y, L + pw, mine ? "#d62728" : "#888",
                    mine ? 2.5 : 1.2);
    }
  }

  /// Each shape: its predicted range as a bar, the prediction as a dot.
  void writeShapes(raw_ostream &os) const {
    for (auto [i, r] : llvm::enumerate(rows)) {
      const char *c = colors[i % std::size(colors)];
      double x = px(r.a.flops / r.a.l2Bytes);
      os << formatv("<line x1=\"{0:F1}\" y1=\"{1:F1}\" x2=\"{0:F1}\" "
                    "y2=\"{2:F1}\" stroke=\"{3}\" stroke-width=\"2\"/>\n",
                    x, py(r.a.worstTflops), py(r.a.bestTflops), c);
      os << formatv("<circle cx=\"{0:F1}\" cy=\"{1:F1}\" r=\"5\" fill=\"{2}\" "
                    "stroke=\"black\"/>\n",
                    x, py(r.a.predictedTflops), c);
      // A hollow square where the point would be with the minimum traffic.
      os << formatv("<rect x=\"{0:F1}\" y=\"{1:F1}\" width=\"8\" height=\"8\" "
                    "fill=\"none\" stroke=\"{2}\" stroke-width=\"1.5\"/>\n",
                    px(r.a.intensity) - 4, py(r.a.predictedTflops) - 4, c);
      // Labels of nearby points alternate sides and step down to stay apart.
      bool left = i % 2;
      os << formatv("<text x=\"{0:F1}\" y=\"{1:F1}\" fill=\"{2}\"{3}>{4}</text>\n",
                    left ? x - 8 : x + 8,
                    py(r.a.predictedTflops) + 4 + 11.0 * ((i / 2) % 3), c,
                    left ? " text-anchor=\"end\"" : "", xmlEscape(r.name));
    }
  }

  /// The ceilings with their values, then the shapes.
  void writeLegend(raw_ostream &os) const {
    double ly = T + 10;
    double lx = L + pw + 14;
    os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                  "stroke=\"#1f77b4\" stroke-width=\"2\"/>\n",
                  lx, ly, lx + 20);
    os << formatv("<text x=\"{0}\" y=\"{1}\">HBM {2:F2} TB/s</text>\n", lx + 26,
                  ly + 4, bw / 1e12);
    for (int u = 0; u < int(MathUnit::Count); ++u) {
      double peak = d.peak(MathUnit(u));
      if (peak <= 0)
        continue;
      bool mine = MathUnit(u) == first.unit;
      ly += 18;
      os << formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                    "stroke=\"{3}\" stroke-width=\"{4}\"/>\n",
                    lx, ly, lx + 20, mine ? "#d62728" : "#888", mine ? 2.5 : 1.2);
      os << formatv("<text x=\"{0}\" y=\"{1}\">{2} {3:F1}</text>\n", lx + 26,
                    ly + 4, xmlEscape(mathUnitName(MathUnit(u))), peak / 1e12);
    }
    for (auto [i, r] : llvm::enumerate(rows)) {
      ly += 18;
      const char *c = colors[i % std::size(colors)];
      os << formatv("<circle cx=\"{0}\" cy=\"{1}\" r=\"5\" fill=\"{2}\" "
                    "stroke=\"black\"/>\n",
                    lx + 10, ly, c);
      os << formatv("<text x=\"{0}\" y=\"{1}\">{2}: {3:F0} TFLOP/s</text>\n",
                    lx + 26, ly + 4, xmlEscape(r.name), r.a.predictedTflops);
    }
    ly += 26;
    os << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"10\">dot: prediction "
                  "at L2-aware traffic</text>\n",
                  lx, ly);
    os << formatv("<text x=\"{0}\" y=\"{1}\" font-size=\"10\">bar: range; "
                  "square: at minimum traffic</text>\n",
                  lx, ly + 14);
  }

  const KernelSpec &s;
  ArrayRef<Row> rows;
  const Analysis &first;
  const DeviceInfo &d;
  double bw;
  int ex0 = 0, ex1 = 0, ey0 = 0, ey1 = 0;
};

bool writePlot(StringRef path, const KernelSpec &s, ArrayRef<Row> rows) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_Text);
  if (ec) {
    errs() << "gemmc analyze: error: cannot write " << path << ": "
           << ec.message() << "\n";
    return false;
  }
  RooflinePlot(s, rows).write(os);
  // A failed write (a full disk) is reported here, not by LLVM's fatal error
  // from the stream's destructor.
  os.close();
  if (std::error_code ec = os.error()) {
    os.clear_error();
    errs() << "gemmc analyze: error: cannot write " << path << ": "
           << ec.message() << "\n";
    return false;
  }
  return true;
}
} // namespace

int gemmc::tool::runAnalyze() {
  std::unique_ptr<SpecFile> file = SpecFile::open(specPath, errs());
  if (!file)
    return 1;
  if (!file->parse())
    return 1;
  const KernelSpec &spec = file->spec();
  StringRef who = file->bufferName();

  // swap_ab: the parsed spec holds the swapped kernel's M and N (the
  // caller's N and M); shapes and messages are the caller's.
  const char *mName = spec.swapAb ? "n" : "m", *nName = spec.swapAb ? "m" : "n";
  SmallVector<ProblemShape> shapes;
  if (shapeArgs.empty()) {
    for (auto [name, d] : {std::pair{mName, spec.m}, std::pair{nName, spec.n},
                           std::pair{"k", spec.k}})
      if (d.isDynamic()) {
        errs() << who << ": error: problem " << name
               << " is dynamic, so the spec has no shape to analyze; give one "
                  "with --shape MxNxK\n";
        return 1;
      }
    shapes.push_back(callerShape(spec, ProblemShape{spec.m.value, spec.n.value, spec.k.value}));
  }
  for (const std::string &arg : shapeArgs) {
    std::string why;
    std::optional<ProblemShape> p = gemmc::tool::parseShape(arg, why);
    if (!p) {
      errs() << "gemmc analyze: error: --shape '" << arg << "': " << why
             << "\n";
      return 1;
    }
    shapes.push_back(*p);
  }

  std::vector<Row> rows;
  for (const ProblemShape &p : shapes) {
    // The shape must be one the kernel could run: the same rules that check
    // fixed problem sizes (range, stride alignment) check it.
    KernelSpec s = specAtShape(spec, p);
    for (auto [name, fixed, v] :
         {std::tuple{mName, &spec.m, s.m.value}, std::tuple{nName, &spec.n, s.n.value},
          std::tuple{"k", &spec.k, s.k.value}})
      if (!fixed->isDynamic() && fixed->value != v)
        errs() << formatv("{0}: warning: the spec fixes {1} = {2}; analyzing "
                          "{1} = {3} as if it were dynamic\n",
                          who, name, fixed->value, v);
    std::vector<Violation> bad = checkSpec(s);
    if (!bad.empty()) {
      for (const Violation &v : bad)
        errs() << "gemmc analyze: error: shape " << shapeName(p) << ": "
               << v.str() << "\n";
      return 1;
    }
    Expected<Analysis> a = gemmc::analyze(s, p);
    if (!a) {
      errs() << "gemmc analyze: error: " << toString(a.takeError()) << "\n";
      return 1;
    }
    rows.push_back({shapeName(p), std::move(*a)});
  }

  if (jsonOutput) {
    printJson(outs(), spec, rows);
  } else {
    outs() << "gemmc analyze " << who << "\n";
    printHeader(outs(), spec, rows.front().a);
    for (const Row &r : rows)
      printReport(outs(), spec, r);
    if (rows.size() > 1) {
      outs() << "\n== summary\n";
      outs() << formatv("{0,-22} {1,12} {2,16} {3,9} {4}\n", "shape",
                        "TFLOP/s", "range", "of peak", "bottleneck");
      for (const Row &r : rows)
        outs() << formatv("{0,-22} {1,12:F1} {2,16} {3,9} {4}\n", r.name,
                          r.a.predictedTflops,
                          formatv("{0:F0}-{1:F0}", r.a.worstTflops,
                                  r.a.bestTflops)
                              .str(),
                          pct(r.a.fractionOfPeak),
                          bottleneckName(r.a.bottleneck));
    }
  }
  if (!plotPath.empty() && !writePlot(plotPath, spec, rows))
    return 1;
  return 0;
}
