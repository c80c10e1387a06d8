//===- Passes.h - gemmc passes -------------------------------------------===//
#ifndef GEMMC_TRANSFORMS_PASSES_H
#define GEMMC_TRANSFORMS_PASSES_H

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::gemmc {
#define GEN_PASS_DECL
#include "gemmc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

#endif // GEMMC_TRANSFORMS_PASSES_H
