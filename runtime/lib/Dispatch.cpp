// dispatch.json: reading, checking and the selection rule (docs/tuning.md).
#include "gemmc/runtime/Dispatch.h"
#include "gemmc/runtime/Json.h"

#include <sstream>

namespace gemmc::rt {

std::string rangeStr(const DimRange &r) {
  return "[" + std::to_string(r.lo) + ", " +
         (r.hi == DimRange::kUnbounded ? std::string("any") : std::to_string(r.hi)) + "]";
}

namespace {

const char *const kDimNames[3] = {"m", "n", "k"};

const DimRange &dimOf(const DispatchRule &r, int d) { return d == 0 ? r.m : d == 1 ? r.n : r.k; }
DimRange &dimOf(DispatchRule &r, int d) { return d == 0 ? r.m : d == 1 ? r.n : r.k; }

/// [lo, hi] with hi null for "no upper end".
bool parseRange(const JsonValue &v, const std::string &where, DimRange &out, std::string &error) {
  if (!v.isArray() || v.items().size() != 2 || !v.items()[0].isInteger() ||
      !(v.items()[1].isInteger() || v.items()[1].isNull())) {
    error = where + ": expected [lo, hi] (integers; hi may be null for no upper end), got " + v.dump();
    return false;
  }
  out.lo = v.items()[0].asInt();
  out.hi = v.items()[1].isNull() ? DimRange::kUnbounded : v.items()[1].asInt();
  if (out.lo < 1 || out.hi < out.lo) {
    error = where + ": the range " + v.dump() + " is empty or below 1; write [lo, hi] with 1 <= lo <= hi";
    return false;
  }
  return true;
}

/// A grouped rule carries what the choice needs, and its group is one run
/// of rules with the same ranges (selectRule scans it from its first rule).
bool checkGroup(const DispatchTable &table, const DispatchRule &rule, const std::string &where,
                std::string &error) {
  if (rule.group < 0) {
    if (rule.tileM || rule.slots || rule.rate > 0) {
      error = where + ": tile, slots and rate go with group (a choice by waves); add group or remove them";
      return false;
    }
    return true;
  }
  if (!rule.tileM || !rule.slots || !(rule.rate > 0)) {
    error = where + ": a rule of group " + std::to_string(rule.group) +
            " needs tile, slots and rate (what the choice by waves weighs)";
    return false;
  }
  for (size_t j = 0; j < table.rules.size(); ++j) {
    const DispatchRule &e = table.rules[j];
    if (e.group != rule.group)
      continue;
    if (j + 1 != table.rules.size() && table.rules[j + 1].group != rule.group) {
      error = where + ": group " + std::to_string(rule.group) + " is split by rules[" + std::to_string(j + 1) +
              "]; a group's rules must be consecutive";
      return false;
    }
    if (e.m.lo != rule.m.lo || e.m.hi != rule.m.hi || e.n.lo != rule.n.lo || e.n.hi != rule.n.hi ||
        e.k.lo != rule.k.lo || e.k.hi != rule.k.hi) {
      error = where + ": group " + std::to_string(rule.group) + " has rules[" + std::to_string(j) +
              "] with other ranges; the rules of a group share m, n and k";
      return false;
    }
  }
  return true;
}

bool isPlainFileName(const std::string &s) {
  return !s.empty() && s != "." && s != ".." && s.find('/') == std::string::npos &&
         s.find('\\') == std::string::npos;
}

} // namespace

bool parseDispatchTable(const std::string &text, const std::string &source, DispatchTable &out,
                        std::string &error) {
  JsonValue root;
  std::string jsonError;
  if (!parseJson(text, root, jsonError)) {
    error = source + ": " + jsonError;
    return false;
  }
  if (!root.isObject()) {
    error = source + ": expected an object with gemmc_bundle, name and rules";
    return false;
  }
  for (const auto &[key, value] : root.members())
    if (key != "gemmc_bundle" && key != "name" && key != "rules") {
      error = source + ": unknown key '" + key + "' (known: gemmc_bundle, name, rules)";
      return false;
    }
  const JsonValue *version = root.find("gemmc_bundle");
  if (!version || !version->isInteger() || version->asInt() != kBundleFormatVersion) {
    error = source + ": gemmc_bundle must be " + std::to_string(kBundleFormatVersion) +
            " (the format this runtime reads), got " + (version ? version->dump() : "nothing");
    return false;
  }
  const JsonValue *name = root.find("name");
  if (!name || !name->isString() || name->asString().empty()) {
    error = source + ": name must be a non-empty string";
    return false;
  }
  const JsonValue *rules = root.find("rules");
  if (!rules || !rules->isArray() || rules->items().empty()) {
    error = source + ": rules must be a non-empty array (one entry per kernel and shape range)";
    return false;
  }
  DispatchTable table;
  table.name = name->asString();
  for (size_t i = 0; i < rules->items().size(); ++i) {
    const JsonValue &r = rules->items()[i];
    std::string where = source + ": rules[" + std::to_string(i) + "]";
    if (!r.isObject()) {
      error = where + ": expected an object";
      return false;
    }
    DispatchRule rule;
    for (const auto &[key, value] : r.members()) {
      if (key == "group" || key == "slots") {
        if (!value.isInteger() || value.asInt() < (key == "group" ? 0 : 1)) {
          error = where + "." + key + ": expected an integer >= " + (key == "group" ? "0" : "1") + ", got " +
                  value.dump();
          return false;
        }
        (key == "group" ? rule.group : rule.slots) = value.asInt();
        continue;
      }
      if (key == "rate") {
        if (!value.isNumber() || !(value.asDouble() > 0)) {
          error = where + ".rate: expected a number > 0 (FLOP/s), got " + value.dump();
          return false;
        }
        rule.rate = value.asDouble();
        continue;
      }
      if (key == "tile") {
        if (!value.isArray() || value.items().size() != 2 || !value.items()[0].isInteger() ||
            !value.items()[1].isInteger() || value.items()[0].asInt() < 1 || value.items()[1].asInt() < 1) {
          error = where + ".tile: expected [BLOCK_M, BLOCK_N] (integers >= 1), got " + value.dump();
          return false;
        }
        rule.tileM = value.items()[0].asInt();
        rule.tileN = value.items()[1].asInt();
        continue;
      }
      if (key == "kernel" || key == "cubin" || key == "why") {
        if (!value.isString()) {
          error = where + "." + key + ": expected a string, got " + value.dump();
          return false;
        }
        (key == "kernel" ? rule.kernel : key == "cubin" ? rule.cubin : rule.why) = value.asString();
        continue;
      }
      int d = key == "m" ? 0 : key == "n" ? 1 : key == "k" ? 2 : -1;
      if (d < 0) {
        error = where + ": unknown key '" + key + "' (known: kernel, cubin, m, n, k, why, group, tile, slots, rate)";
        return false;
      }
      if (!parseRange(value, where + "." + key, dimOf(rule, d), error))
        return false;
    }
    if (rule.kernel.empty()) {
      error = where + ": kernel (the kernel's name) is missing";
      return false;
    }
    if (!isPlainFileName(rule.cubin)) {
      error = where + ": cubin must name a file inside the bundle (no directory), got '" + rule.cubin + "'";
      return false;
    }
    if (!checkGroup(table, rule, where, error))
      return false;
    // A rule an earlier one covers in every dimension is never picked: a
    // mistake in the table's order, not a choice (within a group the choice
    // is by waves).
    for (size_t j = 0; j < table.rules.size(); ++j) {
      const DispatchRule &e = table.rules[j];
      if (rule.group >= 0 && e.group == rule.group)
        continue;
      if (e.m.covers(rule.m) && e.n.covers(rule.n) && e.k.covers(rule.k)) {
        error = where + " (" + rule.kernel + ") is never picked: rules[" + std::to_string(j) + "] (" +
                e.kernel + ") comes first and covers m " + rangeStr(rule.m) + ", n " + rangeStr(rule.n) +
                ", k " + rangeStr(rule.k) + "; put the narrower rule first";
        return false;
      }
    }
    table.rules.push_back(std::move(rule));
  }
  out = std::move(table);
  return true;
}

int64_t tilesOf(const DispatchRule &rule, int64_t m, int64_t n) {
  return ((m + rule.tileM - 1) / rule.tileM) * ((n + rule.tileN - 1) / rule.tileN);
}

int64_t wavesOf(const DispatchRule &rule, int64_t m, int64_t n) {
  return (tilesOf(rule, m, n) + rule.slots - 1) / rule.slots;
}

double predictedWaveTime(const DispatchRule &rule, int64_t m, int64_t n) {
  int64_t waves = wavesOf(rule, m, n);
  return static_cast<double>(waves) * static_cast<double>(rule.slots) *
         static_cast<double>(rule.tileM * rule.tileN) / rule.rate;
}

int selectRule(const DispatchTable &table, int64_t m, int64_t n, int64_t k) {
  for (size_t i = 0; i < table.rules.size(); ++i) {
    const DispatchRule &r = table.rules[i];
    if (!(r.m.contains(m) && r.n.contains(n) && r.k.contains(k)))
      continue;
    if (r.group < 0)
      return static_cast<int>(i);
    size_t best = i;
    double bestTime = predictedWaveTime(r, m, n);
    for (size_t j = i + 1; j < table.rules.size() && table.rules[j].group == r.group; ++j) {
      double t = predictedWaveTime(table.rules[j], m, n);
      if (t < bestTime) {
        best = j;
        bestTime = t;
      }
    }
    return static_cast<int>(best);
  }
  return -1;
}

std::string explainSelection(const DispatchTable &table, int64_t m, int64_t n, int64_t k) {
  const int64_t v[3] = {m, n, k};
  std::ostringstream os;
  int picked = selectRule(table, m, n, k);
  os << "bundle " << table.name << ", shape " << m << "x" << n << "x" << k << ": ";
  if (picked >= 0) {
    const DispatchRule &r = table.rules[picked];
    os << "rules[" << picked << "] " << r.kernel << " (m " << rangeStr(r.m) << ", n " << rangeStr(r.n) << ", k "
       << rangeStr(r.k) << ")";
    if (!r.why.empty())
      os << ": " << r.why;
    if (r.group >= 0) {
      // The group's choice: each kernel's waves and predicted time, relative
      // to the pick.
      double pickedTime = predictedWaveTime(r, m, n);
      os << "\n  chosen by waves in group " << r.group << ":";
      for (const DispatchRule &g : table.rules) {
        if (g.group != r.group)
          continue;
        os << "\n    " << g.kernel << ": " << g.tileM << "x" << g.tileN << " tiles " << tilesOf(g, m, n)
           << ", waves " << wavesOf(g, m, n) << " of " << g.slots << ", rate " << g.rate / 1e12
           << " TFLOP/s, time x" << predictedWaveTime(g, m, n) / pickedTime;
      }
    }
  } else {
    os << "no rule matches; add a rule whose ranges hold it, or run the shape with a single kernel";
  }
  // The rules before the pick (or all of them): the first dimension that
  // ruled each out.
  size_t end = picked >= 0 ? static_cast<size_t>(picked) : table.rules.size();
  for (size_t i = 0; i < end; ++i) {
    const DispatchRule &r = table.rules[i];
    for (int d = 0; d < 3; ++d)
      if (!dimOf(r, d).contains(v[d])) {
        os << "\n  rules[" << i << "] " << r.kernel << ": " << kDimNames[d] << " = " << v[d] << " is outside "
           << rangeStr(dimOf(r, d));
        break;
      }
  }
  return os.str();
}

} // namespace gemmc::rt
