//===- Schedule.h - A resolved schedule and what follows from it ---------===//
//
// The value of `#gemmc.schedule`: a resolved KernelSpec as IR carries it,
// checked by every rule once, with the CTA's figures (computeResources) and
// the kernel's interface (describeKernelAbi) computed once when the schedule
// is made, so the passes read them instead of deriving them again. Nothing
// here depends on MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_SCHEDULE_H
#define GEMMC_SPEC_SCHEDULE_H

#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Spec/Spec.h"
#include "llvm/ADT/Hashing.h"
#include <string>
#include <vector>

namespace gemmc {

class Schedule {
public:
  /// The part of `spec` a schedule on IR holds: Schema.def's GEMMC_ATTR rows,
  /// with the device resolved to its name; the rest as IR has it (schema
  /// version kSchemaVersion, name "kernel", problem sizes dynamic, C row).
  static KernelSpec canonical(const KernelSpec &spec);

  Schedule() = default;
  /// Checks `spec` (canonical(spec) is what is kept) and, when it is a legal
  /// resolved schedule, computes its resources and ABI.
  explicit Schedule(const KernelSpec &spec);

  const KernelSpec &spec() const { return spec_; }
  /// Why the schedule is not legal, in the order found; empty when it is.
  /// An unresolved value (auto) is reported alone; otherwise every rule's
  /// violation as "[rule] message".
  const std::vector<std::string> &errors() const { return errors_; }
  bool valid() const { return errors_.empty(); }
  /// The CTA's figures and the kernel interface; only for a valid schedule.
  /// The ABI's kernel name is the canonical spec's ("kernel"): a pass that
  /// emits a kernel names it after its function.
  const CtaResources &resources() const;
  const KernelAbi &abi() const;

  /// Equal when every GEMMC_ATTR field is equal (what follows from them is
  /// then equal too).
  bool operator==(const Schedule &other) const;
  bool operator!=(const Schedule &other) const { return !(*this == other); }

private:
  KernelSpec spec_;
  std::vector<std::string> errors_{"an empty schedule"};
  CtaResources resources_;
  KernelAbi abi_;
};

/// A hash over the same fields as operator==.
llvm::hash_code hash_value(const Schedule &schedule);

/// The message of a schedule on IR that still holds an `auto`, or empty.
std::string unresolvedValues(const KernelSpec &spec);

} // namespace gemmc

#endif // GEMMC_SPEC_SCHEDULE_H
