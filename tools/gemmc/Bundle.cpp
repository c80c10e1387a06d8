//===- Bundle.cpp - `gemmc bundle`: kernels and a dispatch table ---------===//
//
//   gemmc bundle DISPATCH.yaml -o DIR
//
// A dispatch spec lists kernels (spec files, or `auto`: gemmc tune's best
// for the rule's shapes) and the (M, N, K) ranges each serves. gemmc bundle
// writes DIR/ with, per kernel, the spec it was built from (NAME.yaml), the
// cubin and its manifest (NAME.cubin, NAME.cubin.json), and dispatch.json,
// the table the runtime's gemmc_bundle_load reads. docs/tuning.md describes
// both files and the dispatch rule (first match wins).
//
// Each kernel is compiled by this gemmc in a child process
// (`gemmc NAME.yaml -o NAME.cubin`), exactly as a single spec is.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "gemmc/Model/Tune.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/runtime/Dispatch.h"
#include "gemmc/runtime/Manifest.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>
#include <map>

using namespace llvm;
using namespace gemmc;
using gemmc::tool::bundleCommand;
using gemmc::tool::gemmcOptions;

cl::SubCommand gemmc::tool::bundleCommand(
    "bundle", "Compile a dispatch spec's kernels and its dispatch table into "
              "one directory");

static cl::opt<std::string> dispatchPath(cl::Positional,
                                         cl::desc("<dispatch.yaml>"),
                                         cl::Required, cl::sub(bundleCommand),
                                         cl::cat(gemmcOptions));
static cl::opt<std::string> bundleOut("o", cl::desc("The bundle directory"),
                                      cl::value_desc("DIR"), cl::Required,
                                      cl::sub(bundleCommand),
                                      cl::cat(gemmcOptions));
static cl::opt<bool> noCompile(
    "no-compile",
    cl::desc("Write the specs and dispatch.json only (no cubins: a machine "
             "without ptxas, or a check of the table)"),
    cl::sub(bundleCommand), cl::cat(gemmcOptions));

namespace {
constexpr const char *kWho = "gemmc bundle";
/// The largest M an `auto` rule without an upper M tunes for.
constexpr int64_t kAutoMaxM = 16384;
/// The K of the whole-wave shape a `specs:` kernel's rate is predicted on:
/// the rate weighs tiles against each other, so one K for all of them (the
/// anchors' layers are 4096 to 28672 deep).
constexpr int64_t kWaveRateK = 8192;

struct AutoEntry {
  std::vector<int64_t> n, k; ///< representative N and K values
  /// One kernel per stretch of M where the model's best stays the same
  /// (splitAutoRange), instead of one kernel for the whole range.
  bool splitM = false;
};

struct KernelEntry {
  std::string spec;                 ///< path, relative to the dispatch spec
  std::vector<std::string> specs;   ///< several: the runtime chooses by waves
  std::vector<double> ratesTflops;  ///< measured rates for specs (default: the model's)
  std::optional<AutoEntry> autoTune;
  std::vector<std::string> m, n, k; ///< [lo, hi]; hi may be "any"
  std::string why;
};

struct DispatchSpec {
  std::string bundle;
  std::string device = "h200";
  std::string dtype = "bf16";
  std::string aLayout = "row", bLayout = "col";
  std::vector<KernelEntry> kernels;
};
} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(KernelEntry)

namespace llvm::yaml {
template <> struct MappingTraits<AutoEntry> {
  static void mapping(IO &io, AutoEntry &a) {
    io.mapRequired("n", a.n);
    io.mapRequired("k", a.k);
    io.mapOptional("split_m", a.splitM, false);
  }
};
template <> struct MappingTraits<KernelEntry> {
  static void mapping(IO &io, KernelEntry &e) {
    io.mapOptional("spec", e.spec);
    io.mapOptional("specs", e.specs);
    io.mapOptional("rates_tflops", e.ratesTflops);
    io.mapOptional("auto", e.autoTune);
    io.mapOptional("m", e.m);
    io.mapOptional("n", e.n);
    io.mapOptional("k", e.k);
    io.mapOptional("why", e.why);
  }
};
template <> struct MappingTraits<DispatchSpec> {
  static void mapping(IO &io, DispatchSpec &d) {
    io.mapRequired("bundle", d.bundle);
    io.mapOptional("device", d.device);
    io.mapOptional("dtype", d.dtype);
    io.mapOptional("a_layout", d.aLayout);
    io.mapOptional("b_layout", d.bLayout);
    io.mapRequired("kernels", d.kernels);
  }
};
} // namespace llvm::yaml

namespace {
bool fail(const Twine &msg) {
  errs() << kWho << ": error: " << msg << "\n";
  return false;
}

struct Range {
  int64_t lo = 1;
  std::optional<int64_t> hi; ///< none: no upper end
};

bool parseRange(ArrayRef<std::string> v, StringRef where, Range &out) {
  if (v.empty())
    return true;
  int64_t lo = 0, hi = 0;
  if (v.size() != 2 || StringRef(v[0]).getAsInteger(10, lo) || lo < 1 ||
      (v[1] != "any" && (StringRef(v[1]).getAsInteger(10, hi) || hi < lo)))
    return fail(formatv("[bundle-range] {0}: expected [lo, hi] with 1 <= lo "
                        "<= hi, hi an integer or any; got [{1}]",
                        where, join(v, ", ")));
  out.lo = lo;
  if (v[1] != "any")
    out.hi = hi;
  return true;
}

json::Value rangeJson(const Range &r) {
  return json::Array{r.lo, r.hi ? json::Value(*r.hi) : json::Value(nullptr)};
}

/// The largest M an `auto` rule tunes at: its range's upper end, or
/// kAutoMaxM for an open range (lo where lo is above it).
int64_t tunedHi(const Range &m) { return m.hi.value_or(std::max(m.lo, kAutoMaxM)); }

/// The family an `auto` rule tunes: the bundle's types and layouts, the
/// interface of its first spec file, no shapes yet; nullopt after an error.
std::optional<TuneFamily> autoFamily(const DispatchSpec &d, const std::string &where,
                                     const KernelSpec *interface) {
  TuneFamily f;
  f.device = d.device;
  auto elem = parseElementType(d.dtype);
  auto al = EnumTraits<Layout>::parse(d.aLayout);
  auto bl = EnumTraits<Layout>::parse(d.bLayout);
  if (!elem || !al || !bl) {
    fail(formatv("[bundle-auto] {0}: dtype '{1}', a_layout '{2}', b_layout "
                 "'{3}': one is not a spec value",
                 where, d.dtype, d.aLayout, d.bLayout));
    return std::nullopt;
  }
  f.a = f.b = f.c = *elem;
  f.aLayout = *al;
  f.bLayout = *bl;
  // The bundle's one interface (BundleWriter::checkInterfaces): B's and C's elements,
  // the scales, the epilogue's operands and the PDL wait as its first spec
  // file's kernel takes them, e.g. an FP8 bundle's bf16 C and per-tensor
  // scales, or a bias and GELU; the store stays tune's to choose.
  if (interface) {
    const KernelSpec v = interface->swapAb ? swapAbView(*interface) : *interface;
    f.b = v.b.element;
    f.c = v.c.element;
    f.aScale = v.a.scale;
    f.bScale = v.b.scale;
    f.cScale = v.c.scale;
    f.epilogue = v.epilogue;
    f.epilogue.store = EpilogueSpec{}.store;
    f.epilogue.buffers = EpilogueSpec{}.buffers;
    f.pdlWait = v.pdlWait;
  }
  return f;
}

/// gemmc tune on `f` at each of `ms` times the listed N and K; an error
/// where tune fails or ranks no schedule.
Expected<TuneResult> tuneAt(TuneFamily f, const AutoEntry &a, ArrayRef<int64_t> ms) {
  for (int64_t mv : ms)
    for (int64_t nv : a.n)
      for (int64_t kv : a.k)
        f.shapes.push_back({mv, nv, kv});
  Expected<TuneResult> r = gemmc::tune(f);
  if (r && r->ranked.empty())
    return createStringError("gemmc tune found no schedule the rules and the "
                             "lowering accept for these shapes");
  return r;
}

/// An unsplit `auto` rule's kernel predicted this much slower than the best
/// schedule on one of its shapes gets a warning naming split_m: one kernel
/// for M = 1-64 that wins at M = 1-16 can run 1.5-1.9x the best at 33-64
/// (the swap_ab 32x64 pick of session 38: measured 0.68-0.88 of cuBLAS there
/// against 0.95-1.04 for the kernel it replaced; bench/lead38 round n7).
constexpr double kAutoSpreadWarning = 1.25;

/// Warn when `best`, one kernel for a whole unsplit range, is predicted
/// kAutoSpreadWarning or more over the best schedule on a shape.
void warnSpread(const TuneCandidate &best, const std::string &where) {
  const TuneShapeResult *worst = nullptr;
  size_t over = 0;
  for (const TuneShapeResult &sh : best.shapes) {
    over += sh.relative >= kAutoSpreadWarning;
    if (!worst || sh.relative > worst->relative)
      worst = &sh;
  }
  if (!over)
    return;
  ProblemShape p = callerShape(best.spec, worst->analysis);
  errs() << formatv("gemmc bundle: warning: [bundle-auto] {0}: one kernel for the "
                    "whole M range is predicted {1:F2}x the best schedule at "
                    "{2}x{3}x{4} ({5} of its {6} shapes at {7:F2}x or more); "
                    "split_m: true gives each stretch of M its own kernel\n",
                    where, worst->relative, p.m, p.n, p.k, over,
                    best.shapes.size(), kAutoSpreadWarning);
}

/// The tuned spec for `auto`: gemmc tune's best over `ms` (the rule's M
/// range sampled: its ends and the powers of two between, or one stretch of
/// splitAutoRange) times the listed N and K; `whole` (an unsplit rule)
/// warns where that one kernel is far from the best on a shape.
std::optional<std::string> autoSpec(const TuneFamily &f, const AutoEntry &a,
                                    ArrayRef<int64_t> ms, const std::string &name,
                                    const std::string &where, bool whole) {
  Expected<TuneResult> r = tuneAt(f, a, ms);
  if (!r) {
    fail(formatv("[bundle-auto] {0}: {1}", where, toString(r.takeError())));
    return std::nullopt;
  }
  TuneCandidate best = r->ranked.front();
  if (whole)
    warnSpread(best, where);
  best.spec.name = name;
  return specToYaml(best.spec, tuneReasons(best, 1, *r));
}

/// The M values a `split_m` rule is tuned at: every multiple of 16 up to
/// 256, of 32 up to 512, and so on (the step doubling at 256, 512, ...,
/// 1024 apart from 8192), inside [lo, hi], and hi. Up to M = 1024 the step
/// is at most the least BLOCK_M tune enumerates there (16 for swap_ab's
/// tiles at M <= 64, then 64), so every M in (s, s'] of two neighbours has
/// the row tiles of s' in every tile; above, in every tile of at least the
/// step's rows.
std::vector<int64_t> splitSamples(int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  int64_t step = 16;
  for (int64_t v = step; v < hi; v += step) {
    if (v >= 16 * step && step < 1024)
      step *= 2;
    if (v >= lo)
      out.push_back(v);
  }
  out.push_back(hi);
  return out;
}

/// A split stretch: M in [lo, hi] (hi none: no upper end) and the samples
/// it was tuned at.
struct AutoStretch {
  Range m;
  std::vector<int64_t> samples;
};

/// What a split keeps of one sample's tune: its best schedule and score, and
/// each shape's best predicted time (a whole TuneResult holds every ranked
/// schedule's analyses: too much to keep for 64 samples at once).
struct SampleBest {
  KernelSpec spec;
  double score = 0;
  std::vector<std::pair<ProblemShape, double>> bestSec; ///< per (caller's) shape
  std::string error; ///< the tune's failure, reported in sample order
};

SampleBest sampleBest(const TuneFamily &f, const AutoEntry &a, int64_t m) {
  SampleBest out;
  Expected<TuneResult> r = tuneAt(f, a, {m});
  if (!r) {
    out.error = toString(r.takeError());
    return out;
  }
  const TuneCandidate &best = r->ranked.front();
  out.spec = best.spec;
  out.score = best.score;
  for (const TuneShapeResult &sh : best.shapes)
    out.bestSec.push_back({callerShape(best.spec, sh.analysis), sh.analysis.predictedSec / sh.relative});
  return out;
}

/// The model's score for `spec` on a sample's shapes: the geometric mean of
/// its predicted time over each shape's best (TuneCandidate::score for a
/// schedule the enumeration may not have offered there, e.g. A in boxes at
/// an M they save no row of); nullopt where the model cannot count it.
std::optional<double> scoreOn(const KernelSpec &spec, const SampleBest &b) {
  double logSum = 0;
  for (const auto &[shape, best] : b.bestSec) {
    Expected<Analysis> a = analyze(spec, shape);
    if (!a) {
      consumeError(a.takeError());
      return std::nullopt;
    }
    logSum += std::log(a->predictedSec / best);
  }
  return std::exp(logSum / b.bestSec.size());
}

/// A `split_m` rule's stretches of M: each sample of splitSamples stands for
/// the M above the sample before it, and a stretch keeps its kernel while
/// the model's score for it (scoreOn) stays within kAutoSplitTolerance of the
/// next sample's best score, so near-ties do not cut the range into one rule
/// per sample. The samples are tuned in parallel (one tune each, on every
/// core: 76 s -> 59 s for h200_bf16_tn_autosplit on 2 cores), then
/// walked in order.
constexpr double kAutoSplitTolerance = 0.03;
std::optional<std::vector<AutoStretch>> splitAutoRange(const TuneFamily &f,
                                                       const AutoEntry &a,
                                                       const Range &m,
                                                       const std::string &where) {
  std::vector<int64_t> samples = splitSamples(m.lo, tunedHi(m));
  std::vector<SampleBest> best(samples.size());
  {
    DefaultThreadPool pool(hardware_concurrency());
    for (size_t i = 0; i < samples.size(); ++i)
      pool.async([&, i] { best[i] = sampleBest(f, a, samples[i]); });
    pool.wait();
  }
  std::vector<AutoStretch> out;
  const KernelSpec *kept = nullptr; ///< the current stretch's schedule
  for (size_t i = 0; i < samples.size(); ++i) {
    if (!best[i].error.empty()) {
      fail(formatv("[bundle-auto] {0}: {1}", where, best[i].error));
      return std::nullopt;
    }
    std::optional<double> keptScore = kept ? scoreOn(*kept, best[i]) : std::nullopt;
    if (keptScore && *keptScore <= best[i].score * (1 + kAutoSplitTolerance)) {
      out.back().m.hi = samples[i];
      out.back().samples.push_back(samples[i]);
      continue;
    }
    int64_t from = out.empty() ? m.lo : *out.back().m.hi + 1;
    out.push_back({{from, samples[i]}, {samples[i]}});
    kept = &best[i].spec;
  }
  out.back().m.hi = m.hi;
  return out;
}

/// What a rule of a `specs:` group carries for the runtime's choice by
/// waves (rt::predictedWaveTime): the output tile, the CTAs the device holds
/// at once, and the kernel's FLOP/s at whole waves, which carries what a
/// bigger tile gains per tile and leaves the last wave's loss to the
/// runtime. The rate is the measured one the dispatch spec gives
/// (rates_tflops, `measured` > 0), else the model's on a shape of whole
/// waves (one row of tiles, slots tiles along N, K = kWaveRateK).
bool addWaveChoice(const KernelSpec &spec, int64_t group, double measured,
                   StringRef where, json::Object &rule) {
  if (spec.swapAb || spec.tileScheduler.kind == TileSchedulerKind::StreamK ||
      spec.tileScheduler.splitK != 1)
    return fail(formatv("[bundle-spec] {0}: {1} splits K or swaps A and B; a "
                        "choice by waves weighs whole tiles of C only, so give "
                        "it a rule of its own (spec:)",
                        where, spec.name));
  // The slots as the model counts them (Analysis::slots).
  int64_t slots = spec.deviceInfo().smCount *
                  computeResidency(spec, computeResources(spec)).resident;
  Expected<Analysis> a =
      analyze(spec, {spec.blockM(), spec.blockN() * slots, kWaveRateK});
  if (!a)
    return fail(formatv("[bundle-spec] {0}: {1}", where, toString(a.takeError())));
  rule["group"] = group;
  rule["tile"] = json::Array{spec.blockM(), spec.blockN()};
  rule["slots"] = a->slots;
  rule["rate"] = (measured > 0 ? measured : a->predictedTflops) * 1e12;
  return true;
}
/// The interface of the kernel `spec` compiles to: its manifest as gemmc
/// writes it, read back by the runtime's reader, so that the bundle compares
/// what gemmc_bundle_load will (rt::interfaceDifference).
bool manifestOf(const KernelSpec &spec, StringRef where, rt::Manifest &out) {
  std::string why;
  if (!rt::parseManifest(kernelManifestJson(spec, describeKernelAbi(spec), {}),
                         spec.name, out, why))
    return fail(formatv("[bundle-spec] {0}: {1}", where, why));
  return true;
}
} // namespace

namespace {
/// Reads and checks the dispatch spec's form; nullopt after an error.
std::optional<DispatchSpec> readDispatchSpec(const std::string &path) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer) {
    fail("cannot read " + path + ": " + buffer.getError().message());
    return std::nullopt;
  }
  DispatchSpec d;
  yaml::Input in((*buffer)->getBuffer());
  in >> d;
  if (in.error()) {
    fail("[bundle-spec] " + path +
         " is not a dispatch spec (bundle, kernels; docs/tuning.md)");
    return std::nullopt;
  }
  if (d.kernels.empty()) {
    fail("[bundle-spec] " + path + ": kernels is empty");
    return std::nullopt;
  }
  return d;
}

/// The fields of one kernels[] entry that must agree: one source of kernels,
/// one rate per spec of a choice by waves, two specs or more in such a choice.
bool checkEntry(const KernelEntry &e, StringRef where) {
  if (int(!e.spec.empty()) + int(!e.specs.empty()) + int(e.autoTune.has_value()) != 1)
    return fail(formatv("[bundle-spec] {0}: give exactly one of spec: FILE, "
                        "specs: [FILE, ...] or auto: {{n: [...], k: [...]}",
                        where));
  if (!e.ratesTflops.empty() &&
      (e.ratesTflops.size() != e.specs.size() ||
       llvm::any_of(e.ratesTflops, [](double r) { return !(r > 0); })))
    return fail(formatv("[bundle-spec] {0}: rates_tflops has {1} value(s) for "
                        "{2} specs; give one rate > 0 per spec, in the same "
                        "order, or leave it out for the model's",
                        where, e.ratesTflops.size(), e.specs.size()));
  if (e.specs.size() == 1)
    return fail(formatv("[bundle-spec] {0}: specs: lists one file; a choice by "
                        "waves needs two or more (or write spec: {1})",
                        where, e.specs[0]));
  return true;
}

/// Builds a bundle from a dispatch spec: the rules of dispatch.json and each
/// distinct kernel's spec file in the output folder, then the cubins.
class BundleWriter {
public:
  explicit BundleWriter(DispatchSpec d) : d(std::move(d)), base(dispatchPath) {
    sys::path::remove_filename(base);
  }

  /// Reads the first spec file (the interface of `auto` kernels), then adds
  /// each entry's rules and writes their specs.
  bool addRules() {
    for (const KernelEntry &e : d.kernels) {
      std::string file = !e.spec.empty() ? e.spec : e.specs.empty() ? "" : e.specs[0];
      if (file.empty())
        continue;
      interface = readSpec(file);
      if (!interface)
        return false;
      break;
    }
    for (auto [i, e] : llvm::enumerate(d.kernels))
      if (!addEntry(i, e))
        return false;
    return true;
  }

  /// The table, one rule a line (so that it reads and diffs as a list),
  /// checked by the runtime's reader (ranges, shadowed rules) so that a
  /// bundle that builds is one that loads.
  std::optional<std::string> table() const {
    std::string text =
        formatv("{\n  \"gemmc_bundle\": 1,\n  \"name\": {0},\n  \"rules\": [\n",
                json::Value(d.bundle))
            .str();
    for (auto [i, rule] : llvm::enumerate(rules))
      text += formatv("    {0}{1}\n", rule, i + 1 < rules.size() ? "," : "").str();
    text += "  ]\n}\n";
    rt::DispatchTable parsed;
    std::string why;
    if (!rt::parseDispatchTable(text, "dispatch.json", parsed, why)) {
      fail("[bundle-table] " + why);
      return std::nullopt;
    }
    return text;
  }

  /// Every kernel takes the dispatch spec's A element and layouts and the
  /// first kernel's interface: a caller's arguments must launch whichever
  /// rule a shape picks (gemmc_bundle_load refuses a bundle that breaks this).
  bool checkInterfaces() const {
    const rt::Manifest &first = builds.front().manifest;
    std::string a = rt::dtypeName(first.a.element), al = rt::layoutName(first.a.layout),
                bl = rt::layoutName(first.b.layout);
    if (a != d.dtype || al != d.aLayout || bl != d.bLayout)
      return fail(formatv("[bundle-abi] {0}: kernel {1} takes A {2} {3}, B "
                          "{4}; the bundle says dtype {5}, a_layout {6}, "
                          "b_layout {7} (defaults bf16, row, col): correct "
                          "the bundle's fields or the spec",
                          builds.front().where, first.kernel, a, al, bl, d.dtype,
                          d.aLayout, d.bLayout));
    for (const Build &b : builds) {
      std::string differs = rt::interfaceDifference(first, b.manifest);
      if (!differs.empty())
        return fail(formatv("[bundle-abi] {0}: kernel {1} takes other arguments "
                            "than {2} ({3}); a bundle's kernels share one "
                            "interface, so build this one into a bundle of its own",
                            b.where, b.manifest.kernel, first.kernel, differs));
    }
    return true;
  }

  /// Each kernel as `gemmc NAME.yaml -o NAME.cubin` would build it, by this
  /// gemmc in a child process.
  bool compile() const {
    std::string self = sys::fs::getMainExecutable(nullptr, nullptr);
    for (const Build &b : builds) {
      std::string err;
      int rc = sys::ExecuteAndWait(self, {self, b.spec, "-o", b.cubin},
                                   std::nullopt, {}, 0, 0, &err);
      if (rc != 0)
        return fail(formatv("{0}: compiling {1} failed ({2}){3}", b.where,
                            b.spec, rc, err.empty() ? "" : ": " + err));
    }
    return true;
  }

  size_t kernels() const { return builds.size(); }

private:
  struct Build {
    std::string where, spec, cubin;
    rt::Manifest manifest; ///< what a caller passes (checkInterfaces)
  };

  /// The spec file, opened and parsed once however many rules name it (the
  /// first is also the `auto` kernels' interface); null after its
  /// diagnostic.
  std::shared_ptr<SpecFile> readSpec(StringRef file) {
    std::string path = specPath(file);
    auto [it, fresh] = parsed.try_emplace(path);
    if (fresh) {
      std::unique_ptr<SpecFile> spec = SpecFile::open(path, errs());
      if (spec && spec->parse())
        it->second = std::move(spec);
    }
    return it->second;
  }

  /// Relative to the dispatch spec's folder; an absolute path as given.
  std::string specPath(StringRef file) const {
    SmallString<256> path(sys::path::is_absolute(file) ? StringRef() : StringRef(base));
    sys::path::append(path, file);
    return std::string(path);
  }

  /// One rule per kernel: a single spec, or each of specs: (a group the
  /// runtime chooses in by waves), or auto's tuned kernel(s).
  bool addEntry(size_t i, const KernelEntry &e) {
    std::string where = formatv("{0}: kernels[{1}]", dispatchPath, i).str();
    Range m, n, k;
    if (!parseRange(e.m, where + ".m", m) || !parseRange(e.n, where + ".n", n) ||
        !parseRange(e.k, where + ".k", k) || !checkEntry(e, where))
      return false;
    if (e.autoTune)
      return addAuto(i, e, m, n, k, where);
    std::vector<std::string> files = e.specs;
    if (!e.spec.empty())
      files.push_back(e.spec);
    for (auto [f, file] : llvm::enumerate(files)) {
      std::shared_ptr<SpecFile> spec = readSpec(file);
      if (!spec)
        return false;
      json::Object rule;
      double measured = f < e.ratesTflops.size() ? e.ratesTflops[f] : 0;
      if (!e.specs.empty() && !addWaveChoice(spec->spec(), i, measured, where, rule))
        return false;
      if (!addRule(*spec, where, m, n, k, e.why, std::move(rule)))
        return false;
    }
    return true;
  }

  /// auto: gemmc tune's best over the rule's M range as one kernel
  /// (BUNDLE_autoI), or with split_m one kernel a stretch of M
  /// (BUNDLE_autoI_J, splitAutoRange).
  bool addAuto(size_t i, const KernelEntry &e, const Range &m, const Range &n,
               const Range &k, const std::string &where) {
    std::optional<TuneFamily> f =
        autoFamily(d, where, interface ? &interface->spec() : nullptr);
    if (!f)
      return false;
    std::vector<AutoStretch> stretches;
    if (e.autoTune->splitM) {
      std::optional<std::vector<AutoStretch>> s = splitAutoRange(*f, *e.autoTune, m, where);
      if (!s)
        return false;
      stretches = std::move(*s);
    } else {
      stretches.push_back({m, sampleRange(m.lo, tunedHi(m))});
    }
    for (auto [j, stretch] : llvm::enumerate(stretches)) {
      std::string name = formatv("{0}_auto{1}", d.bundle, i).str();
      if (e.autoTune->splitM)
        name += formatv("_{0}", j).str();
      std::optional<std::string> y =
          autoSpec(*f, *e.autoTune, stretch.samples, name, where,
                   !e.autoTune->splitM);
      if (!y)
        return false;
      // Read back as the file the bundle writes: what is compiled.
      std::shared_ptr<SpecFile> spec = SpecFile::fromString(*y, name + ".yaml", errs());
      if (!spec->parse())
        return false;
      std::string why = e.why;
      why += (why.empty() ? "" : "; ") +
             std::string("gemmc tune's best for these shapes (reasons in ") +
             name + ".yaml)";
      if (!addRule(*spec, where, stretch.m, n, k, why, {}))
        return false;
    }
    return true;
  }

  /// The rule for one kernel (its spec written and its build queued by
  /// addKernel); `rule` may already hold a choice by waves' fields.
  bool addRule(const SpecFile &spec, const std::string &where, const Range &m,
               const Range &n, const Range &k, const std::string &why,
               json::Object rule) {
    const std::string name = spec.spec().name;
    if (!addKernel(spec, where))
      return false;
    rule["kernel"] = name;
    rule["cubin"] = name + ".cubin";
    rule["m"] = rangeJson(m);
    rule["n"] = rangeJson(n);
    rule["k"] = rangeJson(k);
    if (!why.empty())
      rule["why"] = why;
    rules.push_back(std::move(rule));
    return true;
  }

  /// One kernel may serve several rules (the same spec twice: built once);
  /// two different specs may not share a name (one file each).
  bool addKernel(const SpecFile &spec, StringRef where) {
    const std::string &name = spec.spec().name, text = spec.text().str();
    auto seen = specTexts.find(name);
    if (seen != specTexts.end())
      return seen->second == text ||
             fail(formatv("[bundle-spec] {0}: a second kernel named {1} from a "
                          "different spec; a bundle's kernels need distinct "
                          "names (rename one spec)",
                          where, name));
    specTexts[name] = text;
    SmallString<256> specOut(bundleOut), cubinOut(bundleOut);
    sys::path::append(specOut, name + ".yaml");
    sys::path::append(cubinOut, name + ".cubin");
    rt::Manifest manifest;
    if (!manifestOf(spec.spec(), where, manifest) ||
        !gemmc::tool::writeTextFile(kWho, std::string(specOut), text))
      return false;
    builds.push_back({where.str(), std::string(specOut), std::string(cubinOut),
                      std::move(manifest)});
    return true;
  }

  DispatchSpec d;
  SmallString<256> base; ///< the dispatch spec's folder
  std::map<std::string, std::shared_ptr<SpecFile>> parsed; ///< by path; null: refused
  std::shared_ptr<SpecFile> interface;
  json::Array rules;
  std::map<std::string, std::string> specTexts; ///< kernel name -> its spec
  std::vector<Build> builds;
};
} // namespace

int gemmc::tool::runBundle() {
  std::optional<DispatchSpec> d = readDispatchSpec(dispatchPath);
  if (!d)
    return 1;
  if (std::error_code ec = sys::fs::create_directories(bundleOut)) {
    fail("cannot create " + bundleOut + ": " + ec.message());
    return 1;
  }
  std::string name = d->bundle;
  BundleWriter writer(std::move(*d));
  if (!writer.addRules())
    return 1;
  std::optional<std::string> table = writer.table();
  if (!table || !writer.checkInterfaces() || (!noCompile && !writer.compile()))
    return 1;
  SmallString<256> tablePath(bundleOut);
  sys::path::append(tablePath, "dispatch.json");
  if (!gemmc::tool::writeTextFile(kWho, std::string(tablePath), *table))
    return 1;
  outs() << formatv("gemmc bundle: {0}: {1} kernel(s){2} and dispatch.json "
                    "in {3}\n",
                    name, writer.kernels(),
                    noCompile ? " (specs only, --no-compile)" : "", bundleOut);
  return 0;
}
