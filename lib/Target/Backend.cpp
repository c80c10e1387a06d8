//===- Backend.cpp - What gemmc's lowering builds for each target --------===//
#include "gemmc/Target/Backend.h"
#include "llvm/Support/FormatVariadic.h"

using namespace gemmc;

static const Backend kBackends[] = {
    {Arch::SM80, /*unsupported=*/nullptr},
    {Arch::SM90a, sm90aUnsupported},
    {Arch::SM100a, sm100aUnsupported},
};

llvm::StringRef gemmc::ptxFeatures(Arch arch) {
  // tcgen05 and sm_100a need PTX ISA 8.6; the others keep the 8.0 their
  // kernels were built with (sm_90a's PTX stays byte-identical).
  return arch == Arch::SM100a ? "+ptx86" : "+ptx80";
}

const Backend &gemmc::backendFor(Arch arch) {
  for (const Backend &b : kBackends)
    if (b.arch == arch)
      return b;
  llvm_unreachable("every arch has a backend entry");
}

std::vector<Violation> gemmc::checkLoweringSupport(const KernelSpec &s) {
  std::vector<Violation> out;
  const Backend &backend = backendFor(s.arch);
  if (backend.unsupported) {
    backend.unsupported(s, out);
    return out;
  }
  // The targets that lower, for the way out.
  std::string lowered;
  for (const Backend &b : kBackends)
    if (b.unsupported)
      lowered += (lowered.empty() ? "" : ", ") + archName(b.arch).str();
  out.push_back(Violation{
      "not-implemented", "arch",
      llvm::formatv("code generation for {0} is not implemented yet; gemmc "
                    "lowers {1} schedules (use gemmc analyze for {0})",
                    archName(s.arch), lowered)
          .str()});
  return out;
}
