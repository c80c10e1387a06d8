//===- Tune.cpp - `gemmc tune`: the model's best schedules for a family --===//
//
//   gemmc tune [--device h200] [--dtype bf16] [--a-layout row] [--b-layout col]
//              [--c-type T] [--a-scale S] [--b-scale S] [--c-scale S]
//              (--shape MxNxK ... | --m LO..HI|M,M,... --n N --k K)
//              [--top 5] [--name PREFIX] [-o DIR] [--measure]
//
// Enumerates the schedules of the family (lib/Model/Tune.cpp), keeps those
// the validator and the lowering accept, ranks them with the model and
// prints the top ones; with -o writes each as DIR/NAME.yaml with the model's
// reasons as comments. docs/tuning.md describes the family and the ranking.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "gemmc/Model/Tune.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace gemmc;
using gemmc::tool::gemmcOptions;
using gemmc::tool::tuneCommand;

cl::SubCommand gemmc::tool::tuneCommand(
    "tune", "Enumerate a problem family's schedules and rank them with the "
            "model");

static cl::opt<std::string> deviceOpt("device", cl::desc("Target GPU"),
                                      cl::init("h200"), cl::sub(tuneCommand),
                                      cl::cat(gemmcOptions));
static cl::opt<std::string>
    dtypeOpt("dtype", cl::desc("Element type of A, B and C"), cl::init("bf16"),
             cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<std::string>
    cTypeOpt("c-type", cl::desc("Element type of C (default: --dtype)"),
             cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<std::string> aLayoutOpt("a-layout", cl::desc("row or col"),
                                       cl::init("row"), cl::sub(tuneCommand),
                                       cl::cat(gemmcOptions));
static cl::opt<std::string> bLayoutOpt("b-layout", cl::desc("row or col"),
                                       cl::init("col"), cl::sub(tuneCommand),
                                       cl::cat(gemmcOptions));
static cl::opt<std::string>
    aScaleOpt("a-scale",
              cl::desc("A's scale: none, tensor, row or block (FP8)"),
              cl::init("none"), cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<std::string>
    bScaleOpt("b-scale",
              cl::desc("B's scale: none, tensor, col or block (FP8)"),
              cl::init("none"), cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<std::string> cScaleOpt(
    "c-scale", cl::desc("C's scale: none, or tensor for an FP8 output"),
    cl::init("none"), cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::list<std::string>
    shapeOpt("shape", cl::desc("A shape of the family (repeatable)"),
             cl::value_desc("MxNxK"), cl::sub(tuneCommand),
             cl::cat(gemmcOptions));
static cl::opt<std::string>
    mOpt("m",
         cl::desc("M values with --n and --k: LO..HI (LO, the powers of two "
                  "between, HI) or a list M,M,..."),
         cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<int64_t> nOpt("n", cl::desc("N with --m"), cl::init(0),
                             cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<int64_t> kOpt("k", cl::desc("K with --m"), cl::init(0),
                             cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<unsigned> topOpt("top", cl::desc("How many specs to keep"),
                                cl::init(5), cl::sub(tuneCommand),
                                cl::cat(gemmcOptions));
static cl::opt<std::string>
    nameOpt("name",
            cl::desc("Kernel name prefix (default tune_DTYPE_BA, e.g. "
                     "tune_bf16_tn: B col-major, A row-major)"),
            cl::sub(tuneCommand), cl::cat(gemmcOptions));
static cl::opt<std::string> outDirOpt("o",
                                      cl::desc("Write the specs into DIR"),
                                      cl::value_desc("DIR"),
                                      cl::sub(tuneCommand),
                                      cl::cat(gemmcOptions));
static cl::opt<bool> measureOpt(
    "measure",
    cl::desc("Print the commands that measure the written specs on a GPU "
             "machine (measuring in-process is not implemented yet)"),
    cl::sub(tuneCommand), cl::cat(gemmcOptions));

namespace {
constexpr const char *kWho = "gemmc tune";

bool fail(const Twine &msg) {
  errs() << kWho << ": error: " << msg << "\n";
  return false;
}

/// "LO..HI": LO, every power of two strictly between, HI. "A,B,C": those.
bool parseMValues(StringRef text, std::vector<int64_t> &out) {
  auto number = [&](StringRef s, int64_t &v) {
    if (s.getAsInteger(10, v) || v < 1)
      return fail(formatv("[tune-family] --m: '{0}' is not a positive integer; "
                          "write --m 1..256 or --m 1,16,64",
                          s));
    return true;
  };
  auto [lo, hi] = text.split("..");
  if (text.contains("..")) {
    int64_t a, b;
    if (!number(lo, a) || !number(hi, b))
      return false;
    if (a > b)
      return fail(formatv("[tune-family] --m {0}: the range is empty ({1} > "
                          "{2}); write LO..HI with LO <= HI",
                          text, a, b));
    out = sampleRange(a, b);
    return true;
  }
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  for (StringRef s : parts) {
    int64_t v;
    if (!number(s.trim(), v))
      return false;
    out.push_back(v);
  }
  return true;
}

template <typename T>
bool parseEnum(StringRef option, StringRef text, T &out) {
  if (std::optional<T> v = EnumTraits<T>::parse(text)) {
    out = *v;
    return true;
  }
  return fail(formatv("[tune-family] --{0} '{1}': expected one of {2}", option,
                      text, join(EnumTraits<T>::choices(), ", ")));
}

bool parseElement(StringRef option, StringRef text, ElementType &out) {
  if (std::optional<ElementType> v = parseElementType(text)) {
    out = *v;
    return true;
  }
  return fail(formatv("[tune-family] --{0} '{1}' is not an element type "
                      "(bf16, f16, tf32, f32, e4m3, e5m2)",
                      option, text));
}

bool readFamily(TuneFamily &f) {
  f.device = deviceOpt;
  if (!parseElement("dtype", dtypeOpt, f.a))
    return false;
  f.b = f.c = f.a;
  if (!cTypeOpt.empty() && !parseElement("c-type", cTypeOpt, f.c))
    return false;
  if (!parseEnum("a-layout", aLayoutOpt, f.aLayout) ||
      !parseEnum("b-layout", bLayoutOpt, f.bLayout) ||
      !parseEnum("a-scale", aScaleOpt, f.aScale) ||
      !parseEnum("b-scale", bScaleOpt, f.bScale) ||
      !parseEnum("c-scale", cScaleOpt, f.cScale))
    return false;
  for (const std::string &arg : shapeOpt) {
    std::string why;
    std::optional<ProblemShape> p = gemmc::tool::parseShape(arg, why);
    if (!p)
      return fail(formatv("[tune-family] --shape '{0}': {1}", arg, why));
    f.shapes.push_back(*p);
  }
  if (!mOpt.empty()) {
    if (nOpt < 1 || kOpt < 1)
      return fail("[tune-family] --m needs --n and --k (positive integers), "
                  "e.g. --m 1..256 --n 8192 --k 8192");
    std::vector<int64_t> ms;
    if (!parseMValues(mOpt, ms))
      return false;
    for (int64_t m : ms)
      f.shapes.push_back({m, nOpt, kOpt});
  }
  if (f.shapes.empty())
    return fail("[tune-family] no shape given; use --shape MxNxK (repeatable) "
                "or --m LO..HI --n N --k K");
  return true;
}

std::string defaultPrefix(const TuneFamily &f) {
  // The specs' spelling (h200_bf16_tn: A row-major, B col-major): cuBLAS's
  // column-major call for C^T = B^T A^T, B's letter first, row-major = n.
  auto letter = [](Layout l) { return l == Layout::Row ? 'n' : 't'; };
  return formatv("tune_{0}_{1}{2}", elementTypeName(f.a), letter(f.bLayout),
                 letter(f.aLayout))
      .str();
}

} // namespace

bool gemmc::tool::writeTextFile(StringRef who, const std::string &path,
                                StringRef text) {
  std::error_code ec;
  raw_fd_ostream os(path, ec, sys::fs::OF_Text);
  if (!ec) {
    os << text;
    os.close();
    ec = os.error();
    // A failed write (a full disk) is reported here, not by LLVM's fatal
    // error from the stream's destructor.
    os.clear_error();
  }
  if (ec)
    errs() << who << ": error: cannot write " << path << ": " << ec.message()
           << "\n";
  return !ec;
}

namespace {
/// One picked schedule: its table row and per-shape reasons on stdout, and
/// with -o its spec, named `name`, with the reasons as comments.
bool reportPick(const TuneResult &r, const TunePick &pick, const std::string &name,
                size_t rank) {
  TuneCandidate c = r.ranked[pick.index];
  c.spec.name = name;
  // The caller's view (a swap_ab spec is held swapped): its tile, marked
  // "swap", or "aR" with A in boxes of R rows; split_k after the scheduler.
  const KernelSpec s = c.spec.swapAb ? swapAbView(c.spec) : c.spec;
  outs() << formatv("{0,-4} {1,-22} {2,-14} {3,-29} {4,-13} {5,-7} {6,-6} "
                    "{7:F3}\n",
                    rank, s.name,
                    formatv("{0}x{1}x{2}{3}", s.blockM(), s.blockN(), s.blockK(),
                            s.swapAb                ? std::string(" swap")
                            : s.mainloop.aBoxRows > 0 ? formatv(" a{0}", s.mainloop.aBoxRows).str()
                                                      : std::string()),
                    kernelScheduleName(s.kernelSchedule),
                    s.tileScheduler.splitK > 1
                        ? formatv("{0}/{1}", tileSchedulerKindName(s.tileScheduler.kind),
                                  s.tileScheduler.splitK)
                              .str()
                        : tileSchedulerKindName(s.tileScheduler.kind).str(),
                    formatv("{0}x{1}{2}", s.clusterShape[0], s.clusterShape[1],
                            s.mainloop.multicast ? "mc" : ""),
                    storeKindName(s.epilogue.store), c.score);
  std::vector<std::string> reasons = tuneReasons(c, pick.index + 1, r);
  if (pick.twins)
    reasons.push_back(formatv("{0} other schedule(s) are predicted within "
                              "{1}% on every shape (rasters, stores or groups "
                              "the model cannot tell apart); --measure "
                              "separates them",
                              pick.twins, 100 * kTwinTolerance)
                          .str());
  // The per-shape lines (after the three summary lines) on stdout too.
  for (size_t l = 3; l < reasons.size(); ++l)
    outs() << "       " << reasons[l] << "\n";
  if (outDirOpt.empty())
    return true;
  if (std::error_code ec = sys::fs::create_directories(outDirOpt))
    return fail("cannot create " + outDirOpt + ": " + ec.message());
  SmallString<128> path(outDirOpt);
  sys::path::append(path, s.name + ".yaml");
  return gemmc::tool::writeTextFile(kWho, std::string(path), specToYaml(c.spec, reasons));
}

/// The family as a gemmc-bench suite in the -o folder, so that --measure's
/// commands (and the lead's GPU run) time the specs on exactly the shapes
/// they were ranked for.
bool writeSuite(const TuneFamily &family, size_t written) {
  std::string suite = "# gemmc tune's family: the shapes its specs were "
                      "ranked on (bench/README.md's format).\n"
                      "cubins: [\"*.cubin\"]\nshapes:\n";
  for (const ProblemShape &p : family.shapes)
    suite += formatv("  - {name: m{0}_n{1}_k{2}, m: {0}, n: {1}, k: {2}}\n",
                     p.m, p.n, p.k)
                 .str();
  SmallString<128> path(outDirOpt);
  sys::path::append(path, "suite.yaml");
  if (!gemmc::tool::writeTextFile(kWho, std::string(path), suite))
    return false;
  outs() << formatv("wrote {0} spec(s) and suite.yaml to {1}\n", written,
                    outDirOpt);
  return true;
}
} // namespace

int gemmc::tool::runTune() {
  TuneFamily family;
  if (!readFamily(family))
    return 1;
  if (topOpt < 1) {
    fail("[tune-family] --top 0 keeps nothing; give 1 or more");
    return 1;
  }
  // Progress on a terminal only, so that logs and tests see the result alone.
  bool showProgress = errs().is_displayed();
  Expected<TuneResult> r = gemmc::tune(
      family, TuneSpace(), [&](size_t done, size_t all) {
        if (showProgress)
          errs() << formatv("\r{0}: {1}/{2} schedules checked", kWho, done,
                            all)
                 << (done == all ? "\n" : "");
      });
  if (!r) {
    fail(toString(r.takeError()));
    return 1;
  }
  if (r->ranked.empty()) {
    fail(formatv("[tune-empty] none of the {0} schedules enumerated for this "
                 "family is accepted by the rules ({1} refused) and built by "
                 "the lowering ({2} not implemented){3}; check the element "
                 "types, layouts and scales against docs/spec.md",
                 r->enumerated, r->refusedByRules, r->refusedByLowering,
                 r->mostRefusedCount
                     ? formatv("; {0} were refused by {1}", r->mostRefusedCount,
                               r->mostRefusedBy)
                           .str()
                     : std::string()));
    return 1;
  }
  std::string prefix = nameOpt.empty() ? defaultPrefix(family) : nameOpt;
  std::vector<TunePick> picks = pickDistinct(*r, topOpt);
  size_t top = picks.size();

  auto scaled = [](Scale s) {
    return s == Scale::None ? std::string()
                            : formatv(" (scale {0})", scaleName(s)).str();
  };
  outs() << formatv("gemmc tune: {0}, A {1}{2}, B {3}{4}{5} on {6}, {7} "
                    "shape(s)\n",
                    elementTypeName(family.a), layoutName(family.aLayout),
                    scaled(family.aScale), layoutName(family.bLayout),
                    scaled(family.bScale),
                    family.c == family.a && family.cScale == Scale::None
                        ? std::string()
                        : " -> " + elementTypeName(family.c).str() +
                              scaled(family.cScale),
                    family.device, family.shapes.size());
  outs() << formatv("schedules: {0} enumerated, {1} refused by the rules, {2} "
                    "not implemented by the lowering, {3} duplicates, {4} "
                    "ranked\n",
                    r->enumerated, r->refusedByRules, r->refusedByLowering,
                    r->duplicates, r->ranked.size());
  outs() << formatv("{0,-4} {1,-22} {2,-14} {3,-29} {4,-13} {5,-7} {6,-6} "
                    "{7}\n",
                    "rank", "name", "tile", "kernel_schedule", "scheduler",
                    "cluster", "store", "score");
  for (size_t i = 0; i < top; ++i)
    if (!reportPick(*r, picks[i], formatv("{0}_{1}", prefix, i + 1).str(), i + 1))
      return 1;
  if (!outDirOpt.empty() && !writeSuite(family, top))
    return 1;
  if (measureOpt) {
    // The stub: what to run where there is a GPU (docs/tuning.md).
    StringRef dir = outDirOpt.empty() ? StringRef("DIR") : StringRef(outDirOpt);
    outs() << "measure (not run here; on the GPU machine):\n";
    outs() << formatv("  for s in {0}/{1}_*.yaml; do build/bin/gemmc \"$s\" -o "
                      "\"${{s%.yaml}.cubin\"; done\n",
                      dir, prefix);
    outs() << formatv("  gemmc-bench --cubin-dir {0} --suite {0}/suite.yaml "
                      "--graph\n",
                      dir);
  }
  return 0;
}
