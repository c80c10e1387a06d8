//===- SpecToIR.h - A checked spec to the gemmc dialect ------------------===//
#ifndef GEMMC_CONVERSION_SPECTOIR_H
#define GEMMC_CONVERSION_SPECTOIR_H

#include "gemmc/Spec/Spec.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::gemmc {
/// Builds the module that holds the kernel function of `spec` (resolved and
/// checked): one `func.func @<name>` with the operands as memrefs (static
/// where the spec pins a size), `alpha`/`beta` as f32 scalars when the
/// epilogue asks for them, and one `gemmc.matmul` carrying the schedule.
OwningOpRef<ModuleOp> buildKernelModule(MLIRContext *ctx,
                                        const ::gemmc::KernelSpec &spec,
                                        Location loc);
} // namespace mlir::gemmc

#endif // GEMMC_CONVERSION_SPECTOIR_H
