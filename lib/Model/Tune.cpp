//===- Tune.cpp - Enumerate, filter and rank a family's schedules ---------===//
#include "gemmc/Model/Tune.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Target/Backend.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cmath>
#include <optional>

using namespace gemmc;
using llvm::formatv;

namespace {

/// The free-running one-part loop's forms (mainloop.wait_ahead with
/// mainloop.unroll, or neither) to enumerate for `s`, in tie order: the
/// model weighs neither, so the measured better form comes first. Both were
/// measured together only on warp_specialized with staged scales: 1.02-1.03x
/// with two consumer warpgroups (the 128x256 kernel), 0.91-0.96x with three
/// (192x128: its loads are what it waits for), bench/lead43/README.md. The
/// consumer warpgroups are the resources' (one a 64-row block).
std::vector<std::pair<bool, int64_t>> loopForms(const KernelSpec &s, const TuneSpace &space) {
  bool oneFreePart = s.kernelSchedule == KernelSchedule::WarpSpecialized && foldOnePart(s) &&
                     s.mainloop.stageScales && space.unroll > 1;
  if (!oneFreePart)
    return {{false, 1}};
  if (computeResources(s).consumerWarpgroups == 2)
    return {{true, space.unroll}, {false, 1}};
  return {{false, 1}, {true, space.unroll}};
}

/// Each of `schedules` once per fold of `space` (block scales): fold_group
/// only with parts, stage_scales on before off, and the free-running loop's
/// forms (loopForms).
std::vector<KernelSpec> withFoldVariants(const std::vector<KernelSpec> &schedules,
                                         const TuneSpace &space) {
  std::vector<KernelSpec> out;
  for (const KernelSpec &base : schedules)
    for (int64_t columns : space.foldColumns)
      for (int64_t group : space.foldGroups) {
        if (columns == 0 && group != 0)
          continue;
        for (bool stage : {true, false}) {
          KernelSpec s = base;
          s.mainloop.foldColumns = columns;
          s.mainloop.foldGroup = group;
          s.mainloop.stageScales = stage;
          for (auto [ahead, unroll] : loopForms(s, space)) {
            KernelSpec form = s;
            form.mainloop.waitAhead = ahead;
            form.mainloop.unroll = unroll;
            out.push_back(std::move(form));
          }
        }
      }
  return out;
}

/// `base` with A in boxes of each of `space.aBoxRows` rows
/// (mainloop.a_box_rows) where that loads fewer zero rows on the last row
/// tile of one of the family's shapes (docs/model.md 6e). tune() asks for
/// them only of a schedule the screen passed, and ranks each right after its
/// one-box twin, which wins the model's ties. None for swap_ab (its A is the
/// caller's B).
std::vector<KernelSpec> boxVariants(const KernelSpec &base, const TuneFamily &family,
                                    const TuneSpace &space) {
  std::vector<KernelSpec> out;
  if (base.swapAb)
    return out;
  int64_t bm = base.tileShape[0];
  for (int64_t rows : space.aBoxRows) {
    bool fewer = llvm::any_of(family.shapes, [&](const ProblemShape &p) {
      return boxesSaveZeroRows(p.m, bm, rows);
    });
    if (rows >= bm || !fewer)
      continue;
    KernelSpec s = base;
    s.mainloop.aBoxRows = rows;
    out.push_back(std::move(s));
  }
  return out;
}

/// Every schedule of `space` for `family`, in a fixed order (the order ties
/// are broken in). Values of the enums come from Schema.def through
/// EnumTraits, so a schedule the schema gains is enumerated without an edit
/// here.
std::vector<KernelSpec> enumerate(const TuneFamily &family,
                                  const DeviceInfo &device,
                                  const TuneSpace &space) {
  KernelSpec base;
  base.schemaVersion = kSchemaVersion;
  base.name = "candidate";
  base.arch = device.arch;
  base.device = device.name.str();
  base.a = {family.a, family.aLayout, family.aScale};
  base.b = {family.b, family.bLayout, family.bScale};
  base.c = {family.c, Layout::Row, family.cScale};
  base.epilogue = family.epilogue;
  base.pdlWait = family.pdlWait;
  base.m = base.n = base.k = Dim{};
  std::vector<KernelSpec> out;
  // Small M: swap_ab and split_k schedules too (issue 16); split_k also
  // where every shape's C is under a wave of splitKTile tiles (session 39).
  bool smallM = llvm::all_of(family.shapes, [&](const ProblemShape &p) {
    return p.m <= space.swapAbMaxM;
  });
  int64_t t = space.splitKTile;
  bool underAWave = llvm::all_of(family.shapes, [&](const ProblemShape &p) {
    return llvm::divideCeilSigned(p.m, t) * llvm::divideCeilSigned(p.n, t) < device.smCount;
  });
  std::vector<bool> swaps{false};
  std::vector<int64_t> splits{1};
  if (smallM)
    swaps.push_back(true);
  if (smallM || underAWave)
    splits.insert(splits.end(), space.splitK.begin(), space.splitK.end());
  for (bool swap : swaps)
  for (int64_t split : splits)
  for (int64_t bm : swap ? space.swapAbBlockM : space.blockM)
    for (int64_t bn : space.blockN)
      for (int64_t bk : space.blockK)
        for (KernelSchedule ks : EnumTraits<KernelSchedule>::values())
          for (const I64x2 &cluster : space.clusters)
            for (bool multicast : {false, true}) {
              // A 1x1 cluster has no one to multicast to: one spelling only.
              if (multicast && cluster[0] * cluster[1] == 1)
                continue;
              for (TileSchedulerKind kind :
                   EnumTraits<TileSchedulerKind>::values())
                for (Raster raster : EnumTraits<Raster>::values())
                  for (int64_t group : space.groups)
                    for (StoreKind store : EnumTraits<StoreKind>::values()) {
                      if (store == StoreKind::Auto)
                        continue;
                      KernelSpec s = base;
                      s.tileShape = {bm, bn, bk};
                      s.kernelSchedule = ks;
                      s.clusterShape = cluster;
                      s.mainloop.multicast = multicast;
                      s.tileScheduler.kind = kind;
                      s.tileScheduler.raster = raster;
                      s.tileScheduler.group = group;
                      s.epilogue.store = store;
                      s.swapAb = swap;
                      s.tileScheduler.splitK = split;
                      out.push_back(std::move(s));
                    }
            }
  if (family.aScale == Scale::Block && family.bScale == Scale::Block)
    out = withFoldVariants(out, space);
  return out;
}

/// A mainloop value as a spec file spells it.
std::string scalarText(bool v) { return v ? "true" : "false"; }
std::string scalarText(int64_t v) { return std::to_string(v); }
template <typename T> std::string scalarText(T v) {
  return EnumTraits<T>::name(v).str();
}

/// One section of a spec file as a flow map, its fields in Schema.def's
/// order: those in `always`, then any other whose value is not its
/// Schema.def default (the block-scale fold, a_box_rows, a bias's element),
/// so that a field the schema gains is written without an edit here.
struct FlowMap {
  llvm::ArrayRef<llvm::StringRef> always;
  std::vector<std::string> parts;
  template <typename T>
  void field(llvm::StringRef key, const T &value, const T &byDefault) {
    if (llvm::is_contained(always, key) || value != byDefault)
      parts.push_back((key + ": " + scalarText(value)).str());
  }
  std::string text() const { return "{" + llvm::join(parts, ", ") + "}"; }
};

/// stages stays `auto`: the spec then follows the hardware database's
/// shared-memory figure as a hand-written one does.
std::string mainloopText(const MainloopSpec &m) {
  static constexpr llvm::StringRef always[] = {"load", "multicast", "smem_swizzle"};
  FlowMap map{always, {"stages: auto"}};
#define GEMMC_MAINLOOP(KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)             \
  if (llvm::StringRef(#KEY) != "stages")                                       \
    map.field(#KEY, m.MEMBER, TYPE{DEFAULT});
#include "gemmc/Spec/Schema.def"
  return map.text();
}

std::string epilogueText(const EpilogueSpec &e) {
  static constexpr llvm::StringRef always[] = {"store", "alpha", "beta", "bias",
                                               "activation"};
  FlowMap map{always, {}};
#define GEMMC_EPILOGUE(KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)             \
  map.field(#KEY, e.MEMBER, TYPE{DEFAULT});
#include "gemmc/Spec/Schema.def"
  return map.text();
}

std::string tileStr(const KernelSpec &s) {
  return formatv("{0}x{1}x{2}", s.blockM(), s.blockN(), s.blockK()).str();
}

/// What a schedule must pass before the model ranks it: the rules (those
/// resolveAuto needs first, then every rule, as SpecFile does), the
/// lowering, every shape of the family (alignment, ranges), and one
/// spelling a schedule. Counts each refusal in the result, with the first
/// message of each rule.
class Screen {
public:
  Screen(const TuneFamily &family, TuneResult &result)
      : family(family), result(result) {}

  /// The schedule as the kernel holds it (resolved; swap_ab's kernel view),
  /// or none when refused.
  std::optional<KernelSpec> pass(KernelSpec s) {
    if (std::vector<Violation> v = checkValues(s); !v.empty())
      return refuse(v);
    if (s.swapAb)
      s = swapAbView(s); // the kernel's view, as SpecFile holds it
    resolveAuto(s);
    if (std::vector<Violation> v = checkSpec(s); !v.empty())
      return refuse(v);
    if (!checkLoweringSupport(s).empty()) {
      ++result.refusedByLowering;
      return std::nullopt;
    }
    for (const ProblemShape &p : family.shapes)
      if (std::vector<Violation> v = checkSpec(specAtShape(s, p)); !v.empty())
        return refuse(v);
    // Two spellings that resolve to the same schedule are one candidate.
    std::string key = specToYaml(s, {}) + "stages " + std::to_string(s.mainloop.stages);
    if (!seen.insert(key).second) {
      ++result.duplicates;
      return std::nullopt;
    }
    return s;
  }

  /// The rule that refused the most schedules, into the result.
  void finish() {
    for (const auto &r : refusals)
      if (r.second.first > result.mostRefusedCount ||
          (r.second.first == result.mostRefusedCount &&
           r.second.second < result.mostRefusedBy)) {
        result.mostRefusedCount = r.second.first;
        result.mostRefusedBy = r.second.second;
      }
  }

private:
  std::nullopt_t refuse(const std::vector<Violation> &v) {
    ++result.refusedByRules;
    auto &[count, message] = refusals[v.front().rule];
    if (count++ == 0)
      message = v.front().str();
    return std::nullopt;
  }

  const TuneFamily &family;
  TuneResult &result;
  llvm::StringSet<> seen;
  // Per rule: the schedules it refused, and its first message.
  llvm::StringMap<std::pair<size_t, std::string>> refusals;
};

} // namespace

std::string gemmc::specToYaml(const KernelSpec &kernel,
                              llvm::ArrayRef<std::string> comment) {
  // A file holds the caller's view (swap_ab specs are held swapped).
  const KernelSpec s = kernel.swapAb ? swapAbView(kernel) : kernel;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (const std::string &line : comment)
    os << (line.empty() ? "#" : "# " + line) << "\n";
  auto dim = [](const Dim &d) {
    return d.isDynamic() ? std::string("dynamic") : std::to_string(d.value);
  };
  auto operand = [](const OperandSpec &o) {
    return formatv("{element: {0}, layout: {1}{2}}", elementTypeName(o.element),
                   layoutName(o.layout),
                   o.scale == Scale::None ? std::string()
                                          : ", scale: " + scaleName(o.scale).str())
        .str();
  };
  os << "schema_version: " << s.schemaVersion << "\n";
  os << "name: " << s.name << "\n";
  os << "arch: " << archName(s.arch) << "\n";
  if (!s.device.empty())
    os << "device: " << s.device << "\n";
  os << "operands:\n";
  os << "  a: " << operand(s.a) << "\n";
  os << "  b: " << operand(s.b) << "\n";
  os << "  c: " << operand(s.c) << "\n";
  os << "  accumulator: " << elementTypeName(s.accumulator) << "\n";
  os << formatv("problem: {m: {0}, n: {1}, k: {2}}\n", dim(s.m), dim(s.n),
                dim(s.k));
  os << formatv("tile_shape: [{0}, {1}, {2}]\n", s.blockM(), s.blockN(),
                s.blockK());
  os << formatv("cluster_shape: [{0}, {1}]\n", s.clusterShape[0],
                s.clusterShape[1]);
  os << "mainloop: " << mainloopText(s.mainloop) << "\n";
  os << "kernel_schedule: " << kernelScheduleName(s.kernelSchedule) << "\n";
  if (s.swapAb)
    os << "swap_ab: true\n";
  if (s.pdlWait != PdlWait::None)
    os << "pdl_wait: " << pdlWaitName(s.pdlWait) << "\n";
  if (s.pdlLaunch != PdlLaunch::None)
    os << "pdl_launch_dependents: " << pdlLaunchName(s.pdlLaunch) << "\n";
  os << formatv("tile_scheduler: {kind: {0}, raster: {1}, group: {2}, "
                "split_k: {3}}\n",
                tileSchedulerKindName(s.tileScheduler.kind),
                rasterName(s.tileScheduler.raster), s.tileScheduler.group,
                s.tileScheduler.splitK);
  os << "epilogue: " << epilogueText(s.epilogue) << "\n";
  return text;
}

llvm::Expected<TuneResult> gemmc::tune(const TuneFamily &family,
                                       const TuneSpace &space,
                                       TuneProgress progress) {
  if (family.shapes.empty())
    return llvm::createStringError("the family has no shape; give at least one");
  const DeviceInfo *device = lookupDevice(family.device);
  if (!device) {
    std::string known;
    for (const DeviceInfo &d : allDevices())
      known += (known.empty() ? "" : ", ") + d.name.str();
    return llvm::createStringError(
        formatv("unknown device '{0}'; known: {1}", family.device, known).str());
  }

  TuneResult result;
  std::vector<KernelSpec> all = enumerate(family, *device, space);
  result.enumerated = all.size();
  Screen screen(family, result);
  std::vector<TuneCandidate> kept;
  auto keep = [&](const KernelSpec &s, size_t index) -> llvm::Error {
    TuneCandidate c;
    c.spec = s;
    c.enumerationIndex = index;
    for (const ProblemShape &p : family.shapes) {
      llvm::Expected<Analysis> a = analyze(specAtShape(s, p), p);
      if (!a)
        return a.takeError();
      c.shapes.push_back({std::move(*a), 1.0});
    }
    kept.push_back(std::move(c));
    return llvm::Error::success();
  };
  for (size_t i = 0; i < all.size(); ++i) {
    if (i % 256 == 0)
      progress(i, all.size());
    std::optional<KernelSpec> s = screen.pass(all[i]);
    if (!s)
      continue;
    if (llvm::Error e = keep(*s, i))
      return std::move(e);
    // A in boxes, only of a schedule that passed: counted as enumerated.
    for (const KernelSpec &variant : boxVariants(all[i], family, space)) {
      ++result.enumerated;
      if (std::optional<KernelSpec> v = screen.pass(variant))
        if (llvm::Error e = keep(*v, i))
          return std::move(e);
    }
  }
  progress(all.size(), all.size());
  screen.finish();

  // Score: how far from the model's best schedule for each shape, averaged
  // geometrically so that no one shape's absolute time dominates.
  for (size_t j = 0; j < family.shapes.size(); ++j) {
    double best = HUGE_VAL;
    for (const TuneCandidate &c : kept)
      best = std::min(best, c.shapes[j].analysis.predictedSec);
    for (TuneCandidate &c : kept)
      c.shapes[j].relative = c.shapes[j].analysis.predictedSec / best;
  }
  for (TuneCandidate &c : kept) {
    double logSum = 0;
    for (const TuneShapeResult &r : c.shapes)
      logSum += std::log(r.relative);
    c.score = std::exp(logSum / c.shapes.size());
  }
  // Equal scores (schedules the model cannot tell apart, e.g. two rasters
  // of a grid that fits in one wave): the one that moves fewer HBM bytes
  // first, as it leaves more headroom where the model's bandwidth is
  // optimistic; then the enumeration order.
  auto traffic = [](const TuneCandidate &c) {
    double bytes = 0;
    for (const TuneShapeResult &r : c.shapes)
      bytes += r.analysis.l2Bytes;
    return bytes;
  };
  std::stable_sort(kept.begin(), kept.end(),
                   [&](const TuneCandidate &x, const TuneCandidate &y) {
                     if (x.score != y.score)
                       return x.score < y.score;
                     return traffic(x) < traffic(y);
                   });
  result.ranked = std::move(kept);
  return result;
}

std::vector<std::string> gemmc::tuneReasons(const TuneCandidate &c,
                                            size_t rank,
                                            const TuneResult &result) {
  // The caller's view (swap_ab candidates are held swapped).
  const KernelSpec s = c.spec.swapAb ? swapAbView(c.spec) : c.spec;
  std::vector<std::string> out;
  out.push_back(formatv("gemmc tune: rank {0} of {1} schedules the validator "
                        "accepts and the lowering builds ({2} enumerated, {3} "
                        "refused by the rules, {4} not implemented, {5} "
                        "duplicates)",
                        rank, result.ranked.size(), result.enumerated,
                        result.refusedByRules, result.refusedByLowering,
                        result.duplicates)
                    .str());
  out.push_back(formatv("score {0:F3}: the geometric mean over the family's "
                        "shapes of this schedule's predicted time / the best "
                        "predicted time",
                        c.score)
                    .str());
  out.push_back(formatv("schedule: tile {0}{11}{13}, {1}, cluster {2}x{3}{4}, {5} "
                        "(raster {6}, group {7}{12}), store {8}, {9} stages, {10} "
                        "threads",
                        tileStr(s), kernelScheduleName(s.kernelSchedule),
                        s.clusterShape[0], s.clusterShape[1],
                        s.mainloop.multicast ? " multicast" : "",
                        tileSchedulerKindName(s.tileScheduler.kind),
                        rasterName(s.tileScheduler.raster),
                        s.tileScheduler.group, storeKindName(s.epilogue.store),
                        s.mainloop.stages, s.threads,
                        s.swapAb ? " swap_ab" : "",
                        s.tileScheduler.splitK > 1
                            ? formatv(", split_k {0}", s.tileScheduler.splitK).str()
                            : std::string(),
                        s.mainloop.aBoxRows > 0
                            ? formatv(" (A in boxes of {0} rows)", s.mainloop.aBoxRows).str()
                            : std::string())
                    .str());
  for (const TuneShapeResult &r : c.shapes) {
    const Analysis &a = r.analysis;
    const ProblemShape p = callerShape(c.spec, a);
    out.push_back(
        formatv("{0}x{1}x{2}: {3:F1} TFLOP/s ({4:F1}% of peak), {5:F2}x the "
                "best; bottleneck {6}; {7} tiles, {8:F2} waves, last wave "
                "{9:F0}% full; L2 hit {10:F0}%; latency covered {11:F0}%",
                p.m, p.n, p.k, a.predictedTflops,
                100 * a.fractionOfPeak, r.relative,
                bottleneckName(a.bottleneck), a.tiles, a.waves,
                100 * a.lastWaveUtilization, 100 * a.l2HitRate,
                100 * a.latencyCoverage)
            .str());
  }
  return out;
}

std::vector<int64_t> gemmc::sampleRange(int64_t lo, int64_t hi) {
  std::vector<int64_t> out{lo};
  for (int64_t p = 1; p < hi && p > 0; p *= 2)
    if (p > lo)
      out.push_back(p);
  if (hi != lo)
    out.push_back(hi);
  return out;
}

std::vector<TunePick> gemmc::pickDistinct(const TuneResult &result, size_t k) {
  std::vector<TunePick> picks;
  auto same = [](const TuneCandidate &x, const TuneCandidate &y) {
    for (size_t j = 0; j < x.shapes.size(); ++j) {
      double tx = x.shapes[j].analysis.predictedSec, ty = y.shapes[j].analysis.predictedSec;
      if (std::abs(tx - ty) > kTwinTolerance * std::min(tx, ty))
        return false;
    }
    return true;
  };
  for (size_t i = 0; i < result.ranked.size(); ++i) {
    auto twin = llvm::find_if(picks, [&](const TunePick &p) {
      return same(result.ranked[p.index], result.ranked[i]);
    });
    if (twin != picks.end())
      ++twin->twins;
    else if (picks.size() < k)
      picks.push_back({i, 0});
  }
  return picks;
}
