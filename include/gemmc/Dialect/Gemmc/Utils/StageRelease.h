//===- StageRelease.h - gemmc.stage_release's branch-free form -*- C++ -*-===//
#ifndef GEMMC_DIALECT_GEMMC_UTILS_STAGERELEASE_H
#define GEMMC_DIALECT_GEMMC_UTILS_STAGERELEASE_H

#include "llvm/ADT/StringRef.h"

namespace mlir::gemmc {

/// A discardable unit attribute on gemmc.stage_release (sm_90a, no
/// cluster): the warpgroup leader's arrival is one predicated instruction
/// instead of a branch around it, so that LLVM keeps the pure values
/// computed before the release (the block-scaled mainloop's fold) before the
/// wgmmas that follow it.
inline constexpr llvm::StringLiteral kBranchFreeReleaseAttr = "gemmc.branch_free";

} // namespace mlir::gemmc

#endif
