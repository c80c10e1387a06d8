//===- GemmcDialect.h - The gemmc dialect --------------------------------===//
#ifndef GEMMC_DIALECT_GEMMC_IR_GEMMCDIALECT_H
#define GEMMC_DIALECT_GEMMC_IR_GEMMCDIALECT_H

#include "gemmc/Spec/Schedule.h"
#include "gemmc/Spec/Spec.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::gemmc {
using namespace ::gemmc;

FailureOr<SmallVector<int64_t>> parseI64List(AsmParser &parser);
void printI64List(AsmPrinter &printer, ArrayRef<int64_t> values);
} // namespace mlir::gemmc

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "gemmc/Dialect/Gemmc/IR/GemmcAttrs.h.inc"

#define GET_OP_CLASSES
#include "gemmc/Dialect/Gemmc/IR/GemmcOps.h.inc"

namespace mlir::gemmc {
/// The schedule a resolved spec describes (Schedule::canonical(spec)); the
/// spec should be legal (ScheduleAttr::getChecked otherwise).
ScheduleAttr scheduleFromSpec(MLIRContext *ctx, const KernelSpec &spec);
/// The spec a schedule describes (problem sizes dynamic), or failure with its
/// errors when the schedule is not legal (built unchecked). New code reads
/// ScheduleAttr::getSpec() / getResources() / getAbi() instead.
FailureOr<KernelSpec> specFromSchedule(ScheduleAttr schedule,
                                       function_ref<InFlightDiagnostic()> emitError);
/// The MLIR element type that holds an operand of this type in memory.
Type storageType(MLIRContext *ctx, ElementType type);
} // namespace mlir::gemmc

#endif // GEMMC_DIALECT_GEMMC_IR_GEMMCDIALECT_H
