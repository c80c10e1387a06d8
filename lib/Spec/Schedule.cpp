//===- Schedule.cpp - A resolved schedule and what follows from it -------===//
#include "gemmc/Spec/Schedule.h"
#include "gemmc/Target/Target.h"
#include <cassert>

using namespace gemmc;

KernelSpec Schedule::canonical(const KernelSpec &in) {
  KernelSpec out;
  out.schemaVersion = kSchemaVersion;
  out.name = "kernel";
#define GEMMC_ATTR(KEY, PATH, PRESENCE) out.PATH = in.PATH;
#include "gemmc/Spec/Schema.def"
  // c's scale is not a parameter of #gemmc.schedule: an FP8 output always
  // has one and no other output has (rule scale), so c's element says it.
  out.c.scale = isFP8(out.c.element) ? Scale::Tensor : Scale::None;
  // The device by name; an unknown one stays, for the device rule to report.
  if (out.device.empty())
    out.device = in.deviceInfo().name.str();
  return out;
}

std::string gemmc::unresolvedValues(const KernelSpec &s) {
  if (s.mainloop.stages < 1 || s.threads < 1 ||
      s.mainloop.load == LoadKind::Auto ||
      s.mainloop.swizzle == Swizzle::Auto ||
      s.epilogue.store == StoreKind::Auto)
    return "a schedule on IR has every value resolved: stages and threads >= "
           "1, load, smem_swizzle and store not auto";
  return "";
}

Schedule::Schedule(const KernelSpec &spec) : spec_(canonical(spec)) {
  errors_.clear();
  if (std::string unresolved = unresolvedValues(spec_); !unresolved.empty()) {
    errors_.push_back(std::move(unresolved));
    return;
  }
  for (const Violation &v : checkSpec(spec_))
    errors_.push_back(v.str());
  if (!errors_.empty())
    return;
  resources_ = computeResources(spec_);
  abi_ = describeKernelAbi(spec_);
}

const CtaResources &Schedule::resources() const {
  assert(valid() && "the resources of an illegal schedule");
  return resources_;
}

const KernelAbi &Schedule::abi() const {
  assert(valid() && "the ABI of an illegal schedule");
  return abi_;
}

bool Schedule::operator==(const Schedule &o) const {
  bool same = true;
#define GEMMC_ATTR(KEY, PATH, PRESENCE)                                        \
  same = same && spec_.PATH == o.spec_.PATH;
#include "gemmc/Spec/Schema.def"
  return same;
}

namespace {
template <typename T> llvm::hash_code hashField(const T &v) {
  return llvm::hash_value(v);
}
template <typename T, size_t N>
llvm::hash_code hashField(const std::array<T, N> &v) {
  return llvm::hash_combine_range(v.begin(), v.end());
}
} // namespace

llvm::hash_code gemmc::hash_value(const Schedule &schedule) {
  const KernelSpec &s = schedule.spec();
  llvm::hash_code h = llvm::hash_value(kSchemaVersion);
#define GEMMC_ATTR(KEY, PATH, PRESENCE)                                        \
  h = llvm::hash_combine(h, hashField(s.PATH));
#include "gemmc/Spec/Schema.def"
  return h;
}
