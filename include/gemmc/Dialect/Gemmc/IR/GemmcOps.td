//===- GemmcOps.td - gemmc operations -----------------------*- tablegen -*-===//
#ifndef GEMMC_OPS
#define GEMMC_OPS

include "gemmc/Dialect/Gemmc/IR/GemmcDialect.td"
include "gemmc/Dialect/Gemmc/IR/GemmcAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"

def Gemmc_MatmulOp : Gemmc_Op<"matmul", [AttrSizedOperandSegments]> {
  let summary = "C = alpha * A x B (+ beta * C), computed as its schedule says";
  let description = [{
    One GEMM on memrefs that hold the operands as they lie in memory: A is
    `M x K` when row-major and `K x M` when col-major, B is `N x K` when
    col-major (K contiguous) and `K x N` when row-major, C is `M x N`
    row-major. Dimensions may be dynamic. `alpha` is present exactly when the
    schedule says `alpha = true`, `beta` when it says `beta = true`.

    ```mlir
    gemmc.matmul %a, %b, %c alpha(%alpha) {schedule = #gemmc.schedule<...>}
        : memref<?x8192xbf16>, memref<8192x8192xbf16>, memref<?x8192xbf16>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A", [MemRead]>:$a,
    Arg<AnyMemRef, "B", [MemRead]>:$b,
    Arg<AnyMemRef, "C", [MemRead, MemWrite]>:$c,
    Optional<F32>:$alpha,
    Optional<F32>:$beta,
    Gemmc_ScheduleAttr:$schedule
  );
  let assemblyFormat = [{
    $a `,` $b `,` $c (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops of the lowering: one CTA's share of the matmul inside a kernel
//===----------------------------------------------------------------------===//

def Gemmc_TileMatmulOp : Gemmc_Op<"tile_matmul", [AttrSizedOperandSegments]> {
  let summary = "A CTA's share of the output tiles: their K loops and epilogues";
  let description = [{
    Made by `gemmc-tile` inside the kernel it builds: the CTA computes the
    output tiles `first_tile`, `first_tile + tile_step`, ... below the tile
    count of `m` x `n` (numbered in the schedule's raster order; with a
    cluster along M, a number names the cluster's tiles, one per CTA by
    rank), reading A
    and B through the tensor maps `tmap_a` and `tmap_b` and writing `c`
    (row-major, `ldc` elements a row) clipped to `m` x `n`: through the
    tensor map `tmap_c` when the schedule stores with TMA, else from
    registers. A stream_k schedule splits the K loops of all tiles evenly
    over the grid's CTAs (`first_tile` is then the CTA's index, `tile_step`
    the grid size) and passes partial accumulators through `workspace`.
    `gemmc-smem-layout` adds the shared-memory base `smem` (aligned to a
    swizzle atom) and the `smem_layout` attribute; then `gemmc-pipeline`
    expands the op.

    ```mlir
    gemmc.tile_matmul %tmap_a, %tmap_b, %c, %first, %step, %m, %n, %k, %ldc
        alpha(%alpha) smem(%base) {schedule = #gemmc.schedule<...>,
        smem_layout = #gemmc.smem_layout<...>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    ```
  }];
  let arguments = (ins
    LLVM_AnyPointer:$tmap_a,
    LLVM_AnyPointer:$tmap_b,
    Optional<LLVM_AnyPointer>:$tmap_c,
    LLVM_AnyPointer:$c,
    I32:$first_tile, I32:$tile_step, I32:$m, I32:$n, I32:$k, I32:$ldc,
    Optional<F32>:$alpha,
    Optional<F32>:$beta,
    Optional<LLVM_AnyPointer>:$workspace,
    Optional<LLVM_AnyPointer>:$smem,
    Gemmc_ScheduleAttr:$schedule,
    OptionalAttr<Gemmc_SmemLayoutAttr>:$smem_layout
  );
  let assemblyFormat = [{
    $tmap_a `,` $tmap_b `,` $c `,` $first_tile `,` $tile_step `,` $m `,` $n `,` $k `,` $ldc
    (`tmap_c` `(` $tmap_c^ `:` qualified(type($tmap_c)) `)`)?
    (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    (`workspace` `(` $workspace^ `:` qualified(type($workspace)) `)`)?
    (`smem` `(` $smem^ `)`)?
    attr-dict `:` qualified(type($tmap_a)) `,` qualified(type($tmap_b)) `,` qualified(type($c)) (`,` qualified(type($smem))^)?
  }];
}

def Gemmc_MmaStageOp : Gemmc_Op<"mma_stage", [AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc += the A and B tiles of one shared-memory stage";
  let description = [{
    One warpgroup multiplies the stage's A rows (starting at `a_tile`, its
    64-row slice already selected) by the stage's B tile into the
    accumulator; the instructions are issued and committed as one group but
    not waited for (`gemmc-pipeline` places the waits). The accumulator is
    the struct wgmma keeps in registers. Lowered by `convert-gemmc-to-nvvm`.

    ```mlir
    %acc1 = gemmc.mma_stage %acc0, %a_tile, %b_tile {schedule = #gemmc.schedule<...>}
        : !llvm.struct<(f32, ...)>, !llvm.ptr<3>, !llvm.ptr<3>
    ```
  }];
  let arguments = (ins AnyType:$acc, LLVM_AnyPointer:$a_tile,
                       LLVM_AnyPointer:$b_tile, Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $acc `,` $a_tile `,` $b_tile attr-dict `:` qualified(type($acc)) `,` qualified(type($a_tile)) `,` qualified(type($b_tile))
  }];
}

def Gemmc_EpilogueOp : Gemmc_Op<"epilogue", [AttrSizedOperandSegments]> {
  let summary = "Write one warpgroup's accumulators to C";
  let description = [{
    The warpgroup's 64 rows of the tile at (`m0`, `n0`): scale by `alpha`,
    add `beta` x C (read through `c`), convert to C's type and store what
    lies inside `m` x `n`: from registers through `c`, or, with
    `tma(%tmap_c, %buffer)`, chunk by chunk through the warpgroup's ring of
    shared-memory buffers at `buffer` and TMA stores of `tmap_c`. Lowered by
    `gemmc-epilogue`.

    ```mlir
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha)
        {schedule = #gemmc.schedule<...>} : !llvm.struct<(f32, ...)>, !llvm.ptr<1>
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc
        tma(%tmap_c, %buffer : !llvm.ptr, !llvm.ptr<3>)
        {schedule = #gemmc.schedule<...>} : !llvm.struct<(f32, ...)>, !llvm.ptr<1>
    ```
  }];
  let arguments = (ins AnyType:$acc, LLVM_AnyPointer:$c, I32:$m0, I32:$n0,
                       I32:$m, I32:$n, I32:$ldc, Optional<F32>:$alpha,
                       Optional<F32>:$beta, Optional<LLVM_AnyPointer>:$tmap_c,
                       Optional<LLVM_AnyPointer>:$buffer,
                       Gemmc_ScheduleAttr:$schedule);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $acc `,` $c `,` $m0 `,` $n0 `,` $m `,` $n `,` $ldc
    (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    (`tma` `(` $tmap_c^ `,` $buffer `:` qualified(type($tmap_c)) `,` qualified(type($buffer)) `)`)?
    attr-dict `:` qualified(type($acc)) `,` qualified(type($c))
  }];
}

#endif // GEMMC_OPS
