// A kernel bundle's dispatch table (dispatch.json, docs/tuning.md): which
// kernel serves which (M, N, K). CUDA-free, so the rules are unit-tested
// without a GPU; gemmc_bundle_* in Runtime.cpp loads the kernels and
// launches the one selectRule picks.
#ifndef GEMMC_RUNTIME_DISPATCH_H
#define GEMMC_RUNTIME_DISPATCH_H

#include <cstdint>
#include <string>
#include <vector>

namespace gemmc::rt {

/// The dispatch table's format version ("gemmc_bundle" in dispatch.json).
constexpr int64_t kBundleFormatVersion = 1;

/// An inclusive range of one problem dimension; hi = kUnbounded: no upper end.
struct DimRange {
  static constexpr int64_t kUnbounded = INT64_MAX;
  int64_t lo = 1, hi = kUnbounded;
  bool contains(int64_t v) const { return v >= lo && v <= hi; }
  bool covers(const DimRange &o) const { return lo <= o.lo && hi >= o.hi; }
};

/// "[1, 64]", "[65, any]": a range as messages print it.
std::string rangeStr(const DimRange &r);

struct DispatchRule {
  std::string kernel; ///< the kernel's name (its manifest's)
  std::string cubin;  ///< file name inside the bundle; the manifest is cubin + ".json"
  DimRange m, n, k;
  std::string why;    ///< what the bundle's author (or gemmc tune) said about the choice
  /// A choice by waves: consecutive rules with the same group (>= 0) share
  /// their ranges, and the shape goes to the one whose tiles fill the GPU's
  /// slots best (pickInGroup). -1: a rule of its own.
  int64_t group = -1;
  int64_t tileM = 0, tileN = 0; ///< BLOCK_M x BLOCK_N of the kernel's output tile
  int64_t slots = 0;            ///< CTAs the device holds at once (SMs x CTAs per SM)
  double rate = 0;              ///< the model's FLOP/s for this kernel at whole waves
};

struct DispatchTable {
  std::string name;
  std::vector<DispatchRule> rules; ///< in order: the first that matches wins
};

/// Parses and checks dispatch.json: known keys only, ranges with
/// 1 <= lo <= hi, cubin names without a directory, no rule shadowed by an
/// earlier one (it could never be picked). On failure `error` names the rule
/// and the field.
bool parseDispatchTable(const std::string &text, const std::string &source,
                        DispatchTable &out, std::string &error);

/// The index of the first rule whose ranges hold (m, n, k), or -1; when that
/// rule opens a group, the group's rule with the least predictedWaveTime
/// (the first on a tie). Allocates nothing: it runs on every launch.
int selectRule(const DispatchTable &table, int64_t m, int64_t n, int64_t k);

/// A grouped rule's time for an m x n output in the model's units: the
/// waves its tiles take, each a whole wave of slots tiles at the kernel's
/// rate (seconds per unit of K x 2: K is the same for every kernel of the
/// group). A last wave that is a quarter full costs a whole wave; that is
/// what the choice weighs against a bigger tile's higher rate.
double predictedWaveTime(const DispatchRule &rule, int64_t m, int64_t n);
/// A grouped rule's output tiles for m x n, and the waves of `slots` they take.
int64_t tilesOf(const DispatchRule &rule, int64_t m, int64_t n);
int64_t wavesOf(const DispatchRule &rule, int64_t m, int64_t n);

/// Why (m, n, k) goes where it goes: the rule picked and the earlier rules
/// that did not match (with the dimension that ruled each out), or, when
/// none matches, every rule's miss and the way out.
std::string explainSelection(const DispatchTable &table, int64_t m, int64_t n,
                             int64_t k);

} // namespace gemmc::rt

#endif
