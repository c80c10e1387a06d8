//===- Passes.h - gemmc passes -------------------------------------------===//
#ifndef GEMMC_TRANSFORMS_PASSES_H
#define GEMMC_TRANSFORMS_PASSES_H

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemmc {
#define GEN_PASS_DECL
#include "gemmc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

#endif // GEMMC_TRANSFORMS_PASSES_H
