//===- Passes.td - gemmc passes ------------------------------*- tablegen -*-===//
#ifndef GEMMC_TRANSFORMS_PASSES
#define GEMMC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def GemmcVerifySchedule : Pass<"gemmc-verify-schedule", "ModuleOp"> {
  let summary = "Check every gemmc.matmul's schedule against the hardware rules";
  let description = [{
    Runs gemmc's rule library (the same code that validates spec.yaml) on
    each `gemmc.matmul`, with the problem sizes its operand shapes fix, and
    fails with the rule's message when one is broken. The attribute and op
    verifiers already do this when IR is parsed; this pass re-checks after
    passes that rewrite schedules, and is the first step of every pipeline.

    It changes nothing. On

    ```mlir
    gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<...,
        tile_shape = [128, 256, 64], stages = 7, ...>} : ...
    ```

    it reports `[smem-budget] 7 stages x 48 KiB + 1 KiB barriers and
    alignment = 337.1 KiB exceeds the 227 KiB a block may use on sm_90a; use
    stages <= 4 or a smaller tile_shape`.
  }];
}

#endif // GEMMC_TRANSFORMS_PASSES
