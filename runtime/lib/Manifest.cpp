#include "gemmc/runtime/Manifest.h"

#include "gemmc/runtime/Json.h"

#include <cctype>
#include <climits>
#include <set>

namespace gemmc::rt {

gemmc_dtype dtypeFromName(const std::string &name) {
  if (name == "bf16") return GEMMC_BF16;
  if (name == "f16") return GEMMC_F16;
  if (name == "f32") return GEMMC_F32;
  if (name == "tf32") return GEMMC_TF32;
  if (name == "e4m3") return GEMMC_E4M3;
  if (name == "e5m2") return GEMMC_E5M2;
  return GEMMC_DTYPE_UNSET;
}

size_t dtypeBytes(gemmc_dtype dtype) {
  switch (dtype) {
  case GEMMC_BF16:
  case GEMMC_F16: return 2;
  case GEMMC_F32:
  case GEMMC_TF32: return 4;
  case GEMMC_E4M3:
  case GEMMC_E5M2: return 1;
  default: return 0;
  }
}

const char *dtypeName(gemmc_dtype dtype) {
  switch (dtype) {
  case GEMMC_BF16: return "bf16";
  case GEMMC_F16: return "f16";
  case GEMMC_F32: return "f32";
  case GEMMC_TF32: return "tf32";
  case GEMMC_E4M3: return "e4m3";
  case GEMMC_E5M2: return "e5m2";
  case GEMMC_DTYPE_UNSET: return "unset";
  }
  return "invalid";
}

const char *layoutName(gemmc_layout layout) {
  switch (layout) {
  case GEMMC_ROW: return "row";
  case GEMMC_COL: return "col";
  case GEMMC_LAYOUT_UNSET: return "unset";
  }
  return "invalid";
}

static const std::pair<const char *, Param> kParamNames[] = {
    {"tmap_a", Param::TmapA}, {"tmap_b", Param::TmapB}, {"tmap_c", Param::TmapC},
    {"c", Param::C},          {"m", Param::M},          {"n", Param::N},
    {"k", Param::K},          {"ldc", Param::Ldc},      {"alpha", Param::Alpha},
    {"beta", Param::Beta},    {"bias", Param::Bias},    {"aux", Param::Aux},
    {"workspace", Param::Workspace},
    {"a", Param::A},          {"b", Param::B},          {"lda", Param::Lda},
    {"ldb", Param::Ldb},      {"scale_a", Param::ScaleA}, {"scale_b", Param::ScaleB},
    {"scale_d", Param::ScaleD},
};
static_assert(sizeof kParamNames / sizeof kParamNames[0] == kParamCount, "a name for every Param");

const char *paramName(Param p) {
  for (const auto &e : kParamNames)
    if (e.second == p)
      return e.first;
  return "?";
}

Param scaleParam(Operand op) {
  return op == Operand::A ? Param::ScaleA : op == Operand::B ? Param::ScaleB : Param::ScaleD;
}

const char *scaleName(gemmc_scale s) {
  switch (s) {
  case GEMMC_SCALE_NONE: return "none";
  case GEMMC_SCALE_TENSOR: return "tensor";
  case GEMMC_SCALE_ROW: return "row";
  case GEMMC_SCALE_COL: return "col";
  case GEMMC_SCALE_BLOCK: return "block";
  }
  return "?";
}

const char *schedulerName(Scheduler s) {
  switch (s) {
  case Scheduler::DataParallel: return "data_parallel";
  case Scheduler::Persistent: return "persistent";
  case Scheduler::StreamK: return "stream_k";
  }
  return "?";
}

bool Manifest::hasParam(Param p) const {
  for (Param q : params)
    if (q == p)
      return true;
  return false;
}

std::string interfaceDifference(const Manifest &first, const Manifest &other) {
  std::string out;
  auto differ = [&](const std::string &what, const std::string &here, const std::string &there) {
    if (here != there)
      out += (out.empty() ? "" : "; ") + what + ": " + here + " here, " + there + " in " + first.kernel;
  };
  auto flag = [](bool on) { return std::string(on ? "yes" : "no"); };
  auto bias = [](const Manifest &m) {
    return m.biasType == GEMMC_DTYPE_UNSET
               ? std::string("none")
               : std::string(m.biasPerRow ? "per row, " : "per column, ") + dtypeName(m.biasType);
  };
  for (Operand op : {Operand::A, Operand::B, Operand::C}) {
    const std::string name(1, "ABC"[static_cast<int>(op)]);
    const OperandSpec &x = other.operand(op), &y = first.operand(op);
    differ(name + "'s element", dtypeName(x.element), dtypeName(y.element));
    if (op != Operand::C)
      differ(name + "'s layout", layoutName(x.layout), layoutName(y.layout));
    differ(name + "'s scale", scaleName(x.scale), scaleName(y.scale));
  }
  differ("alpha", flag(other.hasParam(Param::Alpha)), flag(first.hasParam(Param::Alpha)));
  differ("beta", flag(other.hasParam(Param::Beta)), flag(first.hasParam(Param::Beta)));
  differ("bias", bias(other), bias(first));
  differ("activation", other.activation, first.activation);
  differ("aux", flag(other.hasParam(Param::Aux)), flag(first.hasParam(Param::Aux)));
  differ("PDL wait", flag(other.pdlWait), flag(first.pdlWait));
  return out;
}

namespace {

/// Field-by-field reader; the first problem found wins and is reported with
/// the field's path.
class Reader {
public:
  explicit Reader(const std::string &source) : source_(source) {}
  std::string error;

  bool fail(const std::string &field, const std::string &what) {
    if (error.empty())
      error = source_ + ": field '" + field + "': " + what;
    return false;
  }
  bool failTop(const std::string &what) {
    if (error.empty())
      error = source_ + ": " + what;
    return false;
  }

  static std::string got(const JsonValue &v) {
    std::string d = v.dump();
    if (d.size() > 60)
      d = d.substr(0, 57) + "...";
    return ", got " + d;
  }

  /// Only the listed keys may appear; all of `required` must.
  bool keys(const JsonValue &obj, const std::string &path, std::initializer_list<const char *> required,
            std::initializer_list<const char *> optional = {}) {
    for (const char *k : required)
      if (!obj.find(k))
        return path.empty() ? failTop(std::string("missing required field '") + k + "'")
                            : fail(path, std::string("missing required field '") + k + "'");
    for (const auto &m : obj.members()) {
      bool known = false;
      for (const char *k : required)
        known |= m.first == k;
      for (const char *k : optional)
        known |= m.first == k;
      if (!known) {
        std::string where = path.empty() ? m.first : path + "." + m.first;
        return fail(where, "unknown field (manifest version 1 has no such field)");
      }
    }
    return true;
  }

  bool object(const JsonValue *v, const std::string &path) {
    if (!v->isObject())
      return fail(path, std::string("expected an object, got ") + jsonKindName(v->kind()));
    return true;
  }

  bool string(const JsonValue &obj, const std::string &key, const std::string &path,
              std::string &out) {
    const JsonValue *v = obj.find(key);
    if (!v->isString())
      return fail(path, "expected a string" + got(*v));
    out = v->asString();
    return true;
  }

  bool integer(const JsonValue &v, const std::string &path, int64_t lo, int64_t hi, int64_t &out,
               const char *expect = nullptr) {
    if (!v.isInteger() || v.asInt() < lo || v.asInt() > hi) {
      std::string e = expect ? expect
                             : "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
      return fail(path, "expected " + e + got(v));
    }
    out = v.asInt();
    return true;
  }

  bool triple(const JsonValue &obj, const std::string &key, int64_t lo, int64_t hi,
              std::array<int32_t, 3> &out) {
    const JsonValue *v = obj.find(key);
    std::string expect = "an array of 3 integers in " + std::to_string(lo) + ".." + std::to_string(hi);
    if (!v->isArray() || v->items().size() != 3)
      return fail(key, "expected " + expect + got(*v));
    for (int i = 0; i < 3; ++i) {
      int64_t x;
      if (!integer(v->items()[i], key + "[" + std::to_string(i) + "]", lo, hi, x, expect.c_str()))
        return false;
      out[i] = static_cast<int32_t>(x);
    }
    return true;
  }

  bool operandSpec(const JsonValue &root, const char *name, OperandSpec &out) {
    const JsonValue *v = root.find(name);
    if (!object(v, name) || !keys(*v, name, {"element", "layout"}, {"scale"}))
      return false;
    std::string elem, layout;
    if (!string(*v, "element", std::string(name) + ".element", elem) ||
        !string(*v, "layout", std::string(name) + ".layout", layout))
      return false;
    out.element = dtypeFromName(elem);
    if (out.element == GEMMC_DTYPE_UNSET)
      return fail(std::string(name) + ".element",
                  "unknown element type \"" + elem + "\" (expected bf16, f16, f32, tf32, e4m3 or e5m2)");
    if (layout == "row")
      out.layout = GEMMC_ROW;
    else if (layout == "col")
      out.layout = GEMMC_COL;
    else
      return fail(std::string(name) + ".layout", "expected \"row\" or \"col\", got \"" + layout + "\"");
    if (v->find("scale")) {
      // A scales per row (M), B per column (N), A and B per block, C per
      // tensor only.
      std::string scale;
      if (!string(*v, "scale", std::string(name) + ".scale", scale))
        return false;
      const char *along = name[0] == 'a' ? "row" : name[0] == 'b' ? "col" : nullptr;
      if (scale == "tensor")
        out.scale = GEMMC_SCALE_TENSOR;
      else if (along && scale == along)
        out.scale = name[0] == 'a' ? GEMMC_SCALE_ROW : GEMMC_SCALE_COL;
      else if (along && scale == "block")
        out.scale = GEMMC_SCALE_BLOCK;
      else
        return fail(std::string(name) + ".scale", "expected \"tensor\"" +
                                                      (along ? std::string(", \"") + along + "\" or \"block\""
                                                             : std::string()) +
                                                      ", got \"" + scale + "\"");
    }
    return true;
  }

private:
  std::string source_;
};

bool parseArch(const std::string &arch, Manifest &m) {
  // sm_<digits>[a]
  if (arch.size() < 5 || arch.compare(0, 3, "sm_") != 0)
    return false;
  size_t i = 3;
  int num = 0, digits = 0;
  while (i < arch.size() && std::isdigit(static_cast<unsigned char>(arch[i])) && digits < 4) {
    num = num * 10 + (arch[i] - '0');
    ++i;
    ++digits;
  }
  if (digits < 2)
    return false;
  bool specific = false;
  if (i < arch.size() && arch[i] == 'a') {
    specific = true;
    ++i;
  }
  if (i != arch.size())
    return false;
  m.archMajor = num / 10;
  m.archMinor = num % 10;
  m.archSpecific = specific;
  return true;
}

} // namespace

bool parseManifest(const std::string &text, const std::string &source, Manifest &out,
                   std::string &error) {
  JsonValue root;
  std::string jsonError;
  if (!parseJson(text, root, jsonError)) {
    error = source + ": not valid JSON: " + jsonError;
    return false;
  }
  Reader r(source);
  Manifest m;
  auto done = [&](bool ok) {
    if (!ok) {
      error = r.error.empty() ? source + ": invalid manifest" : r.error;
      return false;
    }
    out = std::move(m);
    return true;
  };
  if (!root.isObject())
    return done(r.failTop(std::string("expected a JSON object at the top level, got ") +
                          jsonKindName(root.kind())));
  if (!r.keys(root, "",
              {"format", "version", "kernel", "arch", "block", "cluster", "dynamic_smem_bytes", "tile",
               "problem", "a", "b", "c", "tensor_maps", "grid", "params"},
              {"device", "extra", "workspace_bytes_per_cta", "gemmc_version", "spec_sha256", "ptx",
               "bias", "activation", "aux", "pdl", "swap_ab"}))
    return done(false);
  // Informational strings: checked for type only, not kept.
  for (auto [field, what] : {std::pair<const char *, const char *>{"device", "the device the kernel was tuned for"},
                             {"gemmc_version", "the gemmc that compiled the kernel"},
                             {"spec_sha256", "the SHA-256 of the spec file"}})
    if (const JsonValue *v = root.find(field); v && !v->isString())
      return done(r.fail(field, std::string("expected a string (") + what + ")" + Reader::got(*v)));

  std::string format;
  if (!r.string(root, "format", "format", format))
    return done(false);
  if (format != "gemmc-manifest")
    return done(r.fail("format", "expected \"gemmc-manifest\", got \"" + format + "\""));
  int64_t version;
  if (!r.integer(*root.find("version"), "version", INT32_MIN, INT32_MAX, version))
    return done(false);
  if (version != 1)
    return done(r.fail("version", "this runtime reads manifest version 1, got " + std::to_string(version)));
  m.version = 1;

  if (!r.string(root, "kernel", "kernel", m.kernel))
    return done(false);
  if (m.kernel.empty())
    return done(r.fail("kernel", "the kernel name is empty"));
  for (char ch : m.kernel)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$' || ch == '.'))
      return done(r.fail("kernel", "\"" + m.kernel + "\" is not a kernel symbol name"));

  if (!r.string(root, "arch", "arch", m.arch))
    return done(false);
  if (!parseArch(m.arch, m))
    return done(r.fail("arch", "expected sm_<major><minor>[a] such as \"sm_90a\", got \"" + m.arch + "\""));

  if (const JsonValue *ptx = root.find("ptx")) {
    // The PTX a fatbinary carries next to its SASS: "compute_XY", at most
    // the SASS's own arch (the driver JIT-compiles it for newer devices).
    Manifest probe;
    const char *expect = "expected \"compute_<major><minor>\" such as \"compute_80\"";
    if (!ptx->isString() || ptx->asString().compare(0, 8, "compute_") != 0 ||
        !parseArch("sm_" + ptx->asString().substr(8), probe) || probe.archSpecific)
      return done(r.fail("ptx", expect + Reader::got(*ptx)));
    if (probe.archMajor * 10 + probe.archMinor > m.archMajor * 10 + m.archMinor)
      return done(r.fail("ptx", "the PTX (" + ptx->asString() + ") is for a newer arch than the SASS (" +
                                    m.arch + ")"));
    m.ptxMajor = probe.archMajor;
    m.ptxMinor = probe.archMinor;
  }

  if (!r.triple(root, "block", 1, 1024, m.block))
    return done(false);
  if (int64_t(m.block[0]) * m.block[1] * m.block[2] > 1024)
    return done(r.fail("block", "block has " + std::to_string(int64_t(m.block[0]) * m.block[1] * m.block[2]) +
                                    " threads; at most 1024"));
  if (!r.triple(root, "cluster", 1, 16, m.cluster))
    return done(false);
  if (m.cluster[2] != 1)
    return done(r.fail("cluster", "the grid is one-dimensional, so cluster[2] must be 1, got [" +
                                      std::to_string(m.cluster[0]) + ", " + std::to_string(m.cluster[1]) + ", " +
                                      std::to_string(m.cluster[2]) + "]"));
  int64_t smem;
  if (!r.integer(*root.find("dynamic_smem_bytes"), "dynamic_smem_bytes", 0, 1 << 24, smem))
    return done(false);
  m.dynamicSmemBytes = static_cast<int32_t>(smem);
  if (!r.triple(root, "tile", 1, 1024, m.tile))
    return done(false);

  const JsonValue *problem = root.find("problem");
  if (!r.object(problem, "problem") || !r.keys(*problem, "problem", {"m", "n", "k"}))
    return done(false);
  const char *pnames[3] = {"m", "n", "k"};
  for (int i = 0; i < 3; ++i) {
    const JsonValue &v = *problem->find(pnames[i]);
    std::string path = std::string("problem.") + pnames[i];
    if (!v.isInteger() || (v.asInt() != -1 && (v.asInt() < 1 || v.asInt() > INT32_MAX)))
      return done(r.fail(path, "expected -1 (run-time) or a size in 1..2147483647" + Reader::got(v)));
    m.problem[i] = v.asInt();
  }

  if (!r.operandSpec(root, "a", m.a) || !r.operandSpec(root, "b", m.b) || !r.operandSpec(root, "c", m.c))
    return done(false);
  if (m.c.layout != GEMMC_ROW)
    return done(r.fail("c.layout", "C must be row-major (\"row\") in manifest version 1"));

  const JsonValue *tmaps = root.find("tensor_maps");
  // A cp.async kernel (params "a" and "b") has none.
  bool pointers = false;
  if (const JsonValue *params = root.find("params"); params->isArray())
    for (const JsonValue &p : params->items())
      pointers |= p.isString() && p.asString() == "a";
  if (pointers && (!tmaps->isArray() || !tmaps->items().empty()))
    return done(r.fail("tensor_maps", "expected [] for a kernel that takes A and B as pointers (params "
                                      "\"a\", \"b\")" + Reader::got(*tmaps)));
  if (!pointers && (!tmaps->isArray() || tmaps->items().size() < 2 || tmaps->items().size() > 3))
    return done(r.fail("tensor_maps", "expected an array of 2 tensor maps (one for a, one for b) or 3 "
                                      "(and one for c, with the parameter tmap_c)" +
                                          Reader::got(*tmaps)));
  const char *operandNames[3] = {"a", "b", "c"};
  bool seen[3] = {false, false, false};
  for (size_t i = 0; i < tmaps->items().size(); ++i) {
    const JsonValue &t = tmaps->items()[i];
    std::string path = "tensor_maps[" + std::to_string(i) + "]";
    if (!r.object(&t, path) || !r.keys(t, path, {"operand", "box", "swizzle"}))
      return done(false);
    std::string operand;
    if (!r.string(t, "operand", path + ".operand", operand))
      return done(false);
    if (operand != "a" && operand != "b" && operand != "c")
      return done(r.fail(path + ".operand", "expected \"a\", \"b\" or \"c\", got \"" + operand + "\""));
    int idx = operand == "a" ? 0 : operand == "b" ? 1 : 2;
    if (seen[idx])
      return done(r.fail(path + ".operand", "a second tensor map for operand " + operand));
    seen[idx] = true;
    TensorMapSpec &spec = m.tmaps[idx];
    spec.operand = static_cast<Operand>(idx);
    const JsonValue *box = t.find("box");
    const char *boxExpect = "an array of 2 integers in 1..256 (elements, innermost first)";
    if (!box->isArray() || box->items().size() != 2)
      return done(r.fail(path + ".box", std::string("expected ") + boxExpect + Reader::got(*box)));
    for (int j = 0; j < 2; ++j) {
      int64_t x;
      if (!r.integer(box->items()[j], path + ".box[" + std::to_string(j) + "]", 1, 256, x, boxExpect))
        return done(false);
      spec.box[j] = static_cast<uint32_t>(x);
    }
    int64_t sw;
    if (!r.integer(*t.find("swizzle"), path + ".swizzle", 0, 128, sw, "0, 32, 64 or 128") ||
        (sw != 0 && sw != 32 && sw != 64 && sw != 128))
      return done(r.fail(path + ".swizzle", "expected 0, 32, 64 or 128" + Reader::got(*t.find("swizzle"))));
    spec.swizzle = static_cast<int>(sw);
    size_t bytes = dtypeBytes(m.operand(static_cast<Operand>(idx)).element);
    uint64_t innerBytes = uint64_t(spec.box[0]) * bytes;
    if (innerBytes % 16 != 0)
      return done(r.fail(path + ".box", "the inner box row is " + std::to_string(innerBytes) +
                                            " bytes; TMA needs a multiple of 16"));
    if (spec.swizzle != 0 && innerBytes > uint64_t(spec.swizzle))
      return done(r.fail(path + ".box", "the inner box row is " + std::to_string(innerBytes) +
                                            " bytes, more than the " + std::to_string(spec.swizzle) +
                                            "-byte swizzle span"));
  }
  // Two maps may be a and c: then b has none.
  for (int idx = 0; idx < 2 && !pointers; ++idx)
    if (!seen[idx])
      return done(r.fail("tensor_maps", std::string("no tensor map for operand ") + operandNames[idx]));

  const JsonValue *grid = root.find("grid");
  if (!r.object(grid, "grid") || !r.keys(*grid, "grid", {"scheduler", "raster", "group"}, {"split_k"}))
    return done(false);
  std::string sched, raster;
  if (!r.string(*grid, "scheduler", "grid.scheduler", sched) || !r.string(*grid, "raster", "grid.raster", raster))
    return done(false);
  if (sched == "data_parallel")
    m.scheduler = Scheduler::DataParallel;
  else if (sched == "persistent")
    m.scheduler = Scheduler::Persistent;
  else if (sched == "stream_k")
    m.scheduler = Scheduler::StreamK;
  else
    return done(r.fail("grid.scheduler", "expected \"data_parallel\", \"persistent\" or \"stream_k\", got \"" +
                                             sched + "\""));
  if (raster == "along_m")
    m.raster = Raster::AlongM;
  else if (raster == "along_n")
    m.raster = Raster::AlongN;
  else
    return done(r.fail("grid.raster", "expected \"along_m\" or \"along_n\", got \"" + raster + "\""));
  int64_t group;
  if (!r.integer(*grid->find("group"), "grid.group", 1, 1 << 16, group))
    return done(false);
  m.group = static_cast<int32_t>(group);
  // split_k (stream_k only): each tile's K in that many pieces, one CTA
  // each while they fit the resident slots (Plan.cpp's computeLaunch).
  if (const JsonValue *split = grid->find("split_k")) {
    int64_t s;
    if (!r.integer(*split, "grid.split_k", 1, 1024, s))
      return done(false);
    if (s > 1 && m.scheduler != Scheduler::StreamK)
      return done(r.fail("grid.split_k", "split_k " + std::to_string(s) +
                                             " needs grid.scheduler stream_k (its workspace and fixup)"));
    // Its grid is one CTA a piece, not whole clusters.
    if (s > 1 && m.cluster[0] * m.cluster[1] != 1)
      return done(r.fail("grid.split_k", "split_k " + std::to_string(s) + " takes cluster [1, 1, 1], got [" +
                                             std::to_string(m.cluster[0]) + ", " +
                                             std::to_string(m.cluster[1]) + ", 1]"));
    m.splitK = static_cast<int32_t>(s);
  }

  const JsonValue *params = root.find("params");
  if (!params->isArray())
    return done(r.fail("params", "expected an array of parameter names" + Reader::got(*params)));
  std::set<std::string> seenParams;
  for (size_t i = 0; i < params->items().size(); ++i) {
    const JsonValue &p = params->items()[i];
    std::string path = "params[" + std::to_string(i) + "]";
    if (!p.isString())
      return done(r.fail(path, "expected a parameter name" + Reader::got(p)));
    bool found = false;
    for (const auto &e : kParamNames)
      if (p.asString() == e.first) {
        m.params.push_back(e.second);
        found = true;
      }
    if (!found) {
      std::string known;
      for (const auto &e : kParamNames)
        known += (known.empty() ? "" : ", ") + std::string(e.first);
      return done(r.fail(path, "unknown parameter \"" + p.asString() + "\" (known: " + known + ")"));
    }
    if (!seenParams.insert(p.asString()).second)
      return done(r.fail(path, "parameter \"" + p.asString() + "\" listed twice"));
  }
  for (Param req : {Param::C, Param::M, Param::N, Param::K, Param::Ldc})
    if (!m.hasParam(req))
      return done(r.fail("params", std::string("missing the required parameter \"") + paramName(req) + "\""));
  // A and B: tensor maps, or pointers with their leading dimensions; not both.
  const std::vector<Param> required = pointers ? std::vector<Param>{Param::A, Param::B, Param::Lda, Param::Ldb}
                                               : std::vector<Param>{Param::TmapA, Param::TmapB};
  const std::vector<Param> excluded = pointers ? std::vector<Param>{Param::TmapA, Param::TmapB, Param::TmapC}
                                               : std::vector<Param>{Param::B, Param::Lda, Param::Ldb};
  for (Param req : required)
    if (!m.hasParam(req))
      return done(r.fail("params", std::string("missing the required parameter \"") + paramName(req) + "\""));
  for (Param no : excluded)
    if (m.hasParam(no))
      return done(r.fail("params", std::string("parameter \"") + paramName(no) + "\" does not go with " +
                                       (pointers ? "\"a\" (A and B as pointers)" : "tensor maps for A and B")));
  // An operand's scale and its pointer parameter come together.
  for (Operand op : {Operand::A, Operand::B, Operand::C}) {
    const char *name = op == Operand::A ? "a" : op == Operand::B ? "b" : "c";
    bool scaled = m.operand(op).scale != GEMMC_SCALE_NONE;
    if (scaled != m.hasParam(scaleParam(op)))
      return done(r.fail(scaled ? "params" : std::string(name) + ".scale",
                         scaled ? std::string("missing the parameter \"") + paramName(scaleParam(op)) + "\" (" +
                                      name + ".scale is \"" + scaleName(m.operand(op).scale) + "\")"
                                : std::string("absent, but params has \"") + paramName(scaleParam(op)) + "\""));
  }
  // The C tensor map and its parameter come together (epilogue store: tma).
  if (m.hasParam(Param::TmapC) && !seen[2])
    return done(r.fail("tensor_maps", "params has \"tmap_c\" but there is no tensor map for operand c"));
  if (!m.hasParam(Param::TmapC) && seen[2])
    return done(r.fail("params", "missing the parameter \"tmap_c\" (tensor_maps has a map for operand c)"));
  // swap_ab: the kernel computes C^T = B^T A^T; the tile, operands, tensor
  // maps and params are written in the caller's terms (docs/abi.md), so the
  // launch needs nothing else. Kept for the explain query.
  if (const JsonValue *swap = root.find("swap_ab")) {
    if (!swap->isBool())
      return done(r.fail("swap_ab", "expected true or false" + Reader::got(*swap)));
    m.swapAb = swap->asBool();
  }
  // The workspace parameter and its size come together (tile_scheduler: stream_k).
  if (const JsonValue *ws = root.find("workspace_bytes_per_cta")) {
    if (!r.integer(*ws, "workspace_bytes_per_cta", 0, INT32_MAX, m.workspaceBytesPerCta))
      return done(false);
  }
  if (m.hasParam(Param::Workspace) && m.workspaceBytesPerCta == 0)
    return done(r.fail("workspace_bytes_per_cta",
                       std::string("params has \"workspace\" but workspace_bytes_per_cta is ") +
                           (root.find("workspace_bytes_per_cta") ? "0" : "absent") +
                           "; it must be > 0 (the bytes of workspace each CTA needs)"));
  // The runtime sizes the workspace by the resident CTA slots, which bound
  // only a persistent or stream_k grid.
  if (m.workspaceBytesPerCta > 0 && m.scheduler == Scheduler::DataParallel)
    return done(r.fail("workspace_bytes_per_cta",
                       "a workspace is sized by the CTAs that can be resident at once, so it needs "
                       "grid.scheduler stream_k or persistent, got data_parallel"));
  if (!m.hasParam(Param::Workspace) && m.workspaceBytesPerCta > 0)
    return done(r.fail("params", "missing the parameter \"workspace\" (workspace_bytes_per_cta is " +
                                     std::to_string(m.workspaceBytesPerCta) + ")"));
  // The fused epilogue's operands and their parameters come together.
  if (const JsonValue *bias = root.find("bias")) {
    std::string per, element;
    if (!r.object(bias, "bias") || !r.keys(*bias, "bias", {"per", "element"}) ||
        !r.string(*bias, "per", "bias.per", per) || !r.string(*bias, "element", "bias.element", element))
      return done(false);
    if (per != "row" && per != "col")
      return done(r.fail("bias.per", "expected \"row\" or \"col\", got \"" + per + "\""));
    m.biasPerRow = per == "row";
    m.biasType = dtypeFromName(element);
    if (m.biasType != GEMMC_BF16 && m.biasType != GEMMC_F16 && m.biasType != GEMMC_F32)
      return done(r.fail("bias.element", "expected bf16, f16 or f32, got \"" + element + "\""));
  }
  if ((m.biasType != GEMMC_DTYPE_UNSET) != m.hasParam(Param::Bias))
    return done(r.fail("params", m.hasParam(Param::Bias) ? "params has \"bias\" but there is no \"bias\" object"
                                                         : "missing the parameter \"bias\" (the manifest has \"bias\")"));
  if ((root.find("aux") != nullptr) != m.hasParam(Param::Aux))
    return done(r.fail("params", m.hasParam(Param::Aux) ? "params has \"aux\" but there is no \"aux\" object"
                                                        : "missing the parameter \"aux\" (the manifest has \"aux\")"));
  if (const JsonValue *activation = root.find("activation")) {
    if (!activation->isString())
      return done(r.fail("activation", "expected a string" + Reader::got(*activation)));
    m.activation = activation->asString();
  }
  if (const JsonValue *pdl = root.find("pdl")) {
    std::string wait, launch;
    if (!r.object(pdl, "pdl") || !r.keys(*pdl, "pdl", {"wait", "launch_dependents"}) ||
        !r.string(*pdl, "wait", "pdl.wait", wait) ||
        !r.string(*pdl, "launch_dependents", "pdl.launch_dependents", launch))
      return done(false);
    m.pdlWait = wait != "none";
  }
  return done(true);
}

} // namespace gemmc::rt

extern "C" const char *gemmc_dtype_name(gemmc_dtype dtype) { return gemmc::rt::dtypeName(dtype); }
extern "C" size_t gemmc_dtype_bytes(gemmc_dtype dtype) { return gemmc::rt::dtypeBytes(dtype); }
