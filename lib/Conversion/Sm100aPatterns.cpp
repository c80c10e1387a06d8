//===- Sm100aPatterns.cpp - Instruction selection for sm_100a ------------===//
//
// The B200 path: stages filled with TMA (multicast, CTA pairs), tcgen05.mma
// issued by one thread into tensor memory, tcgen05.commit on the stage's
// empty barrier, an epilogue of tcgen05.ld and TMA stores. Not built yet
// (issue 9): no pattern, so convert-gemmc-to-nvvm reports every gemmc op of
// an sm_100a kernel as [not-implemented], and gemmc-tile refuses sm_100a
// schedules before that.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Conversion/GemmcToNVVM.h"

void mlir::gemmc::populateSm100aPatterns(RewritePatternSet &,
                                         const InstructionOptions &) {}
