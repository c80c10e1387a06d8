//===- GemmcVerifySchedule.cpp - Rule check on IR ------------------------===//
#include "gemmc/Spec/Rules.h"
#include "gemmc/Transforms/Passes.h"

#define DEBUG_TYPE "gemmc-verify-schedule"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCVERIFYSCHEDULE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {
struct GemmcVerifySchedulePass
    : mlir::gemmc::impl::GemmcVerifyScheduleBase<GemmcVerifySchedulePass> {
  void runOnOperation() override {
    WalkResult result = getOperation().walk([](MatmulOp op) {
      // The op verifier holds the rule check (with the operand shapes); run
      // it again here because passes may have rewritten the schedule.
      return failed(op.verify()) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
