//===- SmemLayout.h - A schedule's shared-memory layout ------------------===//
//
// The one derivation of #gemmc.smem_layout from a schedule, shared by the
// gemmc-smem-layout pass (which writes it) and gemmc.tile_matmul's verifier
// (which refuses any other).
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_DIALECT_GEMMC_IR_SMEMLAYOUT_H
#define GEMMC_DIALECT_GEMMC_IR_SMEMLAYOUT_H

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"

namespace mlir::gemmc {
/// The layout gemmc-smem-layout gives a kernel of this schedule.
SmemLayoutAttr smemLayoutFor(ScheduleAttr schedule);
} // namespace mlir::gemmc

#endif // GEMMC_DIALECT_GEMMC_IR_SMEMLAYOUT_H
