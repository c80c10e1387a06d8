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

def ConvertGemmcToNVVM : Pass<"convert-gemmc-to-nvvm", "ModuleOp"> {
  let summary = "Lower each gemmc kernel to an sm_90a kernel of TMA, mbarrier "
                "and wgmma in a gpu.module";
  let description = [{
    Replaces every `func.func` marked `gemmc.kernel` (one `gemmc.matmul`
    with its schedule) by an `llvm.func` kernel in a `gpu.module` that
    carries an `#nvvm.target`. The kernel follows gemmc's ABI
    (docs/pipeline.md): A and B arrive as CUtensorMap parameters passed by
    value (`llvm.byval`, `nvvm.grid_constant`), C as a global pointer, then
    `m, n, k, ldc` (i32) and `alpha`/`beta` (f32) when the epilogue uses
    them.

    The kernel is built in phases, each a function of the lowering:
    tile mapping (CTA id -> output tile, raster order and group), the shared
    memory plan (a ring of `stages` A/B buffers on 1024-byte swizzle-atom
    boundaries, then full/empty mbarriers), the TMA producer (one thread,
    `cp.async.bulk.tensor` completing on the full barrier), the wgmma
    mainloop (fence, BLOCK_K/16 `wgmma.mma_async` per warpgroup, commit,
    `wait_group 1`, release of the previous stage on its empty barrier) and
    the epilogue (alpha/beta, conversion, stores clipped to M x N).

    Before:

    ```mlir
    func.func @gemm(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>,
                    %c: memref<?x?xbf16>, %alpha: f32) attributes {gemmc.kernel} {
      gemmc.matmul %a, %b, %c alpha(%alpha) {schedule = #gemmc.schedule<...>} : ...
      return
    }
    ```

    After:

    ```mlir
    gpu.module @gemmc_kernels [#nvvm.target<chip = "sm_90a", features = "+ptx80">] {
      llvm.mlir.global external @gemmc_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
      llvm.func @gemm(%tmap_a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                      %tmap_b: !llvm.ptr {...}, %c: !llvm.ptr<1>, %m: i32, %n: i32,
                      %k: i32, %ldc: i32, %alpha: f32)
          attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>} {
        ... nvvm.cp.async.bulk.tensor.shared.cluster.global ...
        ... nvvm.mbarrier.try_wait.parity ...
        ... nvvm.wgmma.mma_async ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // GEMMC_TRANSFORMS_PASSES
