//===- Sm80Patterns.cpp - Instruction selection for sm_80 ----------------===//
//
// The A100 path: stages filled with cp.async (16-byte copies, zero-fill at
// the edges, commit/wait groups), operands read with ldmatrix, mma.sync
// m16n8k8 (tf32) / m16n8k16 (16-bit), an epilogue through shared memory.
// Not built yet (issue 8): no pattern, so convert-gemmc-to-nvvm reports
// every gemmc op of an sm_80 kernel as [not-implemented], and gemmc-tile
// refuses sm_80 schedules before that.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Conversion/GemmcToNVVM.h"

void mlir::gemmc::populateSm80Patterns(RewritePatternSet &,
                                       const InstructionOptions &) {}
