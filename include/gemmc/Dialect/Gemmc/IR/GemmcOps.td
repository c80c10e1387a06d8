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
    swizzle atom) and the `smem_layout` attribute; then `gemmc-warp-specialize`
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
    Optional<I32>:$lda,
    Optional<I32>:$ldb,
    Gemmc_ScheduleAttr:$schedule,
    OptionalAttr<Gemmc_SmemLayoutAttr>:$smem_layout
  );
  let hasVerifier = 1;
  let assemblyFormat = [{
    $tmap_a `,` $tmap_b `,` $c `,` $first_tile `,` $tile_step `,` $m `,` $n `,` $k `,` $ldc
    (`ld` `(` $lda^ `,` $ldb `)`)?
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
    not waited for (`gemmc-warp-specialize` places the waits, as gemmc.mma_wait). The accumulator is
    the struct wgmma keeps in registers. Lowered by `convert-gemmc-to-nvvm`.

    Block scaling in parts (mainloop.fold_columns): `columns = [first,
    count]` multiplies only the B tile's columns first .. first + count - 1
    into an accumulator that many columns wide; `fresh` starts it from zero
    (the first k step ignores `acc`). With `a_frag` (mainloop.a_registers:
    gemmc.mma_a_fragment's result for `a_tile`), the MMAs take A from those
    registers instead of shared memory.

    Pingpong with BLOCK_M = 128 (two 64-row wgmma blocks a warpgroup): an
    `acc` of one row block's registers (BLOCK_N / 2) issues that block alone,
    A from `a_tile`, as a commit group of its own, so that a wait can sit
    between a K tile's row blocks (cuBLASLt OUTER_VEC's order).

    ```mlir
    %acc1 = gemmc.mma_stage %acc0, %a_tile, %b_tile {schedule = #gemmc.schedule<...>}
        : !llvm.struct<(f32, ...)>, !llvm.ptr<3>, !llvm.ptr<3>
    %part = gemmc.mma_stage %p0, %a_tile, %b_tile a_frag(%a : !llvm.struct<(i32, ...)>)
        {columns = array<i64: 0, 128>, fresh, schedule = ...} : ...
    ```
  }];
  let arguments = (ins AnyType:$acc, LLVM_AnyPointer:$a_tile,
                       LLVM_AnyPointer:$b_tile, Optional<AnyType>:$a_frag,
                       Gemmc_ScheduleAttr:$schedule,
                       OptionalAttr<DenseI64ArrayAttr>:$columns,
                       UnitAttr:$fresh);
  let results = (outs AnyType:$result);
  // The whole tile, accumulating into `acc` (every schedule but block
  // scaling's parts).
  let builders = [OpBuilder<(ins "Type":$result, "Value":$acc, "Value":$a_tile,
                                 "Value":$b_tile, "ScheduleAttr":$schedule), [{
    build($_builder, $_state, result, acc, a_tile, b_tile, /*a_frag=*/Value(),
          schedule, /*columns=*/nullptr, /*fresh=*/nullptr);
  }]>];
  let assemblyFormat = [{
    $acc `,` $a_tile `,` $b_tile (`a_frag` `(` $a_frag^ `:` qualified(type($a_frag)) `)`)?
    attr-dict `:` qualified(type($acc)) `,` qualified(type($a_tile)) `,` qualified(type($b_tile))
  }];
}

def Gemmc_MmaAFragmentOp : Gemmc_Op<"mma_a_fragment"> {
  let summary = "This warpgroup's A registers of a whole stage (wgmma's register form)";
  let description = [{
    mainloop.a_registers: this thread's share of wgmma's A fragment for
    every k step of the stage, read from the warpgroup's 64-row slice of
    the stage's A tile (`a_tile`, K-major, 128-byte swizzled rows of one
    K tile) with ldmatrix: 4 registers a k step, k step major. Valid
    between the stage's wait and its release; gemmc.mma_stage's `a_frag`.

    ```mlir
    %a = gemmc.mma_a_fragment %a_tile {schedule = ...}
           : !llvm.ptr<3> -> !llvm.struct<(i32, i32, ...)>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$a_tile, Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $a_tile attr-dict `:` qualified(type($a_tile)) `->` qualified(type($result))
  }];
}

def Gemmc_MmaFragmentsOp : Gemmc_Op<"mma_fragments"> {
  let summary = "This warp's A and B registers for k step `k_step` of a stage";
  let description = [{
    Reads, from the stage's A and B tiles, the operand registers this
    thread's warp gives the MMAs of k step `k_step` (sm_80: ldmatrix, or
    32-bit shared loads for an N-major tf32 B), as a struct of i32.
    `gemmc-warp-specialize` issues it one k step ahead of the gemmc.mma_step
    that takes it, across a stage boundary too, so that the shared-memory
    latency hides behind MMAs. It reads shared memory: it is not moved
    across a barrier. Lowered by `convert-gemmc-to-nvvm`.

    ```mlir
    %f = gemmc.mma_fragments %a_tile, %b_tile {k_step = 1, schedule = #gemmc.schedule<...>}
        : !llvm.ptr<3>, !llvm.ptr<3> -> !llvm.struct<(i32, ...)>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$a_tile, LLVM_AnyPointer:$b_tile,
                       I64Attr:$k_step, Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $a_tile `,` $b_tile attr-dict `:` qualified(type($a_tile)) `,` qualified(type($b_tile)) `->` qualified(type($result))
  }];
}

def Gemmc_MmaStepOp : Gemmc_Op<"mma_step", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc += one k step's MMAs on registers from gemmc.mma_fragments";
  let description = [{
    The warp's MMAs of one k step (sm_80: mma.sync) on `fragments`, into
    the accumulator struct. Lowered by `convert-gemmc-to-nvvm`.

    ```mlir
    %acc1 = gemmc.mma_step %acc0, %f {schedule = #gemmc.schedule<...>}
        : !llvm.struct<(f32, ...)>, !llvm.struct<(i32, ...)>
    ```
  }];
  let arguments = (ins AnyType:$acc, AnyType:$fragments, Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $acc `,` $fragments attr-dict `:` qualified(type($acc)) `,` qualified(type($fragments))
  }];
}

def Gemmc_EpilogueOp : Gemmc_Op<"epilogue", [AttrSizedOperandSegments]> {
  let summary = "Write one warpgroup's accumulators to C";
  let description = [{
    The warpgroup's 64 rows of the tile at (`m0`, `n0`) (a pingpong
    warpgroup's whole 128-row tile where `acc` holds both of its wgmma row
    blocks, block 1's rows at `m0` + 64): scale by `alpha`,
    add `beta` x C (read through `c`), convert to C's type and store what
    lies inside `m` x `n`: from registers through `c`, or, with
    `tma(%tmap_c, %buffer)`, chunk by chunk through the warpgroup's ring of
    shared-memory buffers at `buffer` and TMA stores of `tmap_c`. With
    `staging(%smem)` (sm_80's mma.sync fragments, Sm80.h's mmaSyncStaging),
    each warp stages its accumulators through its area of shared memory at
    `smem` and stores 16-byte units of C. Lowered by `gemmc-epilogue`.

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
                       Optional<LLVM_AnyPointer>:$staging,
                       Gemmc_ScheduleAttr:$schedule);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $acc `,` $c `,` $m0 `,` $n0 `,` $m `,` $n `,` $ldc
    (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    (`tma` `(` $tmap_c^ `,` $buffer `:` qualified(type($tmap_c)) `,` qualified(type($buffer)) `)`)?
    (`staging` `(` $staging^ `:` qualified(type($staging)) `)`)?
    attr-dict `:` qualified(type($acc)) `,` qualified(type($c))
  }];
}


//===----------------------------------------------------------------------===//
// Tile scheduling: which output tiles (and K ranges) a CTA computes
//===----------------------------------------------------------------------===//

def Gemmc_TileLoopOp : Gemmc_Op<"tile_loop", [
    SingleBlockImplicitTerminator<"YieldOp">, AttrSizedOperandSegments]> {
  let summary = "The CTA's pieces of work, in the schedule's tile order";
  let description = [{
    Runs its body once per piece of work of the CTA, in order: a piece is K
    tiles [k_begin, k_end) of the output tile `tile`, whose first row and
    column are (m0, n0). Every piece is a whole tile (k_begin = 0, k_end =
    `k_tiles`, the K tiles of the problem) except under stream_k, where the tiles from the
    plan's `split_first` on are shared out by K iterations; the split tiles
    of a CTA's share go last to first, so that each CTA's split work starts
    at k = 0. The CTA's tiles
    are first_tile, first_tile + tile_step, ... below the tile count (a
    tile number names a cluster tile, one per CTA by rank), numbered in the
    schedule's raster order and group. The body threads one i32 through the
    pieces (the stage ring's load count); the op returns its final value.
    Made by `gemmc-warp-specialize` (one per role), lowered to scf loops by
    `gemmc-schedule-tiles`.

    ```mlir
    %g = gemmc.tile_loop %first, %step, %m, %n, %k_tiles iter(%c0)
        {schedule = #gemmc.schedule<...>} {
    ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
      ...
      gemmc.yield %g1 : i32
    }
    ```
  }];
  let arguments = (ins I32:$first_tile, I32:$tile_step, I32:$m, I32:$n,
                       I32:$k_tiles, I32:$init, Optional<I32>:$split_first,
                       Optional<I64>:$split_iterations,
                       Gemmc_ScheduleAttr:$schedule);
  let results = (outs I32:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $first_tile `,` $tile_step `,` $m `,` $n `,` $k_tiles `iter` `(` $init `)`
    (`split` `(` $split_first^ `,` $split_iterations `)`)? attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

def Gemmc_YieldOp : Gemmc_Op<"yield", [Pure, Terminator,
    ParentOneOf<["TileLoopOp", "StreamKFixupOp"]>]> {
  let summary = "Ends a gemmc region with its values";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange{}); }]>];
}

def Gemmc_TileCountOp : Gemmc_Op<"tile_count", [Pure]> {
  let summary = "The number of (cluster) tiles of m x n";
  let description = [{
    `ceil(m / (BLOCK_M x cluster rows)) x ceil(n / BLOCK_N)`. Lowered by
    `gemmc-schedule-tiles`.
  }];
  let arguments = (ins I32:$m, I32:$n, Gemmc_ScheduleAttr:$schedule);
  let results = (outs I32:$result);
  let assemblyFormat = "$m `,` $n attr-dict";
}

def Gemmc_TileOriginOp : Gemmc_Op<"tile_origin", [Pure]> {
  let summary = "First row and column of this CTA's tile in tile number `tile`";
  let description = [{
    The schedule's raster order with its group (groups of `group` tiles along
    the raster dimension, then across), plus the CTA's rank times BLOCK_M in
    a cluster along M. Lowered by `gemmc-schedule-tiles`.
  }];
  let arguments = (ins I32:$tile, I32:$m, I32:$n, Gemmc_ScheduleAttr:$schedule);
  let results = (outs I32:$m0, I32:$n0);
  let assemblyFormat = "$tile `,` $m `,` $n attr-dict";
}

def Gemmc_StreamKPlanOp : Gemmc_Op<"stream_k_plan", [Pure]> {
  let summary = "stream_k: the first split tile and the K iterations shared out";
  let description = [{
    With T tiles and P CTAs (`tile_step`), the tiles before `split_first`
    go whole, a wave at a time; the K iterations of the rest
    (`split_iterations`, i64) are shared evenly over the CTAs. Lowered by
    `gemmc-schedule-tiles`.
  }];
  let arguments = (ins I32:$tile_step, I32:$m, I32:$n, I32:$k_tiles,
                       Gemmc_ScheduleAttr:$schedule);
  let results = (outs I32:$split_first, I64:$split_iterations);
  let assemblyFormat = "$tile_step `,` $m `,` $n `,` $k_tiles attr-dict";
}

def Gemmc_StreamKFixupOp : Gemmc_Op<"stream_k_fixup", [
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "stream_k: hand a split tile's partials over, or finish the tile";
  let description = [{
    After a piece: a piece that does not end its tile (k_end < k_tiles)
    writes its fp32 accumulators to the CTA's workspace slot and raises the
    slot's flag; the piece with the tile's last iteration adds the partials
    of the peers that hold the tile's other iterations (waiting for their
    flags) and runs the body, the epilogue, on the sum. Lowered by
    `gemmc-schedule-tiles`.
  }];
  let arguments = (ins AnyType:$acc, I32:$tile, I32:$k_begin, I32:$k_end,
                       I32:$cta, I32:$ctas, I32:$k_tiles, I32:$split_first,
                       I64:$split_iterations, LLVM_AnyPointer:$workspace,
                       I64Attr:$threads, Gemmc_ScheduleAttr:$schedule);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $acc `,` $tile `,` $k_begin `,` $k_end `,` $cta `,` $ctas `,` $k_tiles `,`
    $split_first `,` $split_iterations `,` $workspace attr-dict-with-keyword
    `:` type($acc) `,` qualified(type($workspace)) $body
  }];
}

//===----------------------------------------------------------------------===//
// Warp roles and the stage ring (target-neutral; lowered per target)
//===----------------------------------------------------------------------===//

def Gemmc_RingInitOp : Gemmc_Op<"ring_init"> {
  let summary = "Make the stage ring's barriers: one full and one empty per stage";
  let description = [{
    A stage's "full" barrier completes when `full_arrivals` producers have
    filled it (and its bytes have landed); its "empty" barrier when
    `empty_arrivals` consumers (of every CTA that writes into this one) have
    released it. Run by one thread. Lowered per target (sm_90a: mbarrier.init
    at the layout's barrier offsets, then fence.mbarrier_init).
  }];
  let arguments = (ins LLVM_AnyPointer:$smem, I64Attr:$full_arrivals,
                       I64Attr:$empty_arrivals, Gemmc_SmemLayoutAttr:$smem_layout);
  let assemblyFormat = "$smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_CtaSyncOp : Gemmc_Op<"cta_sync"> {
  let summary = "Every thread of the CTA (or of the whole cluster) meets";
  let arguments = (ins UnitAttr:$cluster);
  let assemblyFormat = "attr-dict";
}

def Gemmc_NamedBarrierOp : Gemmc_Op<"named_barrier"> {
  let summary = "`threads` threads meet at named barrier `id` (or only arrive)";
  let description = [{
    A barrier over part of the CTA: warpgroups of a role, a pingpong turn,
    an epilogue's warpgroup. With `arrive`, the thread signals without
    waiting.
  }];
  let arguments = (ins I32:$id, I32:$threads, UnitAttr:$arrive);
  let assemblyFormat = "$id `,` $threads attr-dict";
}

def Gemmc_SetMaxRegistersOp : Gemmc_Op<"set_max_registers"> {
  let summary = "A role's register share: the warpgroup lowers or raises its cap";
  let arguments = (ins I64Attr:$count, UnitAttr:$increase);
  let assemblyFormat = "$count attr-dict";
}

def Gemmc_StageAcquireOp : Gemmc_Op<"stage_acquire"> {
  let summary = "Producer: wait until the stage of load `load` is free";
  let description = [{
    Load g goes to stage g % stages; from the ring's second round on it
    waits for the release of load g - stages (empty parity
    (g / stages + 1) & 1).
  }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let assemblyFormat = "$load `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_StageFillOp : Gemmc_Op<"stage_fill", [AttrSizedOperandSegments]> {
  let summary = "Producer: bring K tile `k_tile` of the tile at (m0, n0) into the stage of load `load`";
  let description = [{
    Fills the stage's A and B tiles from the operands `a` and `b` (tensor
    maps on sm_90a) and arms the stage's full barrier with the bytes it
    expects. In a cluster with multicast, this CTA loads its part of B into
    every CTA of the cluster. With `ld(%lda, %ldb)` (cp.async, sm_80), `a`
    and `b` are global pointers with those leading dimensions, every
    thread copies its share and the fill is one commit group; the problem
    sizes `m`, `n`, `k` clip it (zero-fill). A TMA fill with A in boxes
    (mainloop.a_box_rows) takes `clip` too: it loads only the boxes of A
    that start inside `m` and arms the barrier with their bytes.

    A fill may come in two parts (pdl_wait: before_a): `weights_only` arms
    the barrier with the whole stage's bytes and loads the weights (B, or A
    under swap_ab) before griddepcontrol.wait; `activations_only` later
    loads the other operand onto the same, already armed, barrier. A
    cp.async fill in two parts (sm80SpreadsFills) is still one commit
    group: `activations_only` copies A and leaves the group open,
    `weights_only` then copies B and commits it.
  }];
  let arguments = (ins I32:$load, I32:$m0, I32:$n0, I32:$k_tile,
                       LLVM_AnyPointer:$a, LLVM_AnyPointer:$b,
                       LLVM_AnyPointer:$smem, Optional<I32>:$lda,
                       Optional<I32>:$ldb, Optional<I32>:$m, Optional<I32>:$n,
                       Optional<I32>:$k, Gemmc_ScheduleAttr:$schedule,
                       Gemmc_SmemLayoutAttr:$smem_layout,
                       UnitAttr:$weights_only, UnitAttr:$activations_only);
  let hasVerifier = 1;
  let assemblyFormat = [{
    $load `,` $m0 `,` $n0 `,` $k_tile `,` $a `,` $b `,` $smem
    (`ld` `(` $lda^ `,` $ldb `)`)? (`clip` `(` $m^ `,` $n `,` $k `)`)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($smem))
  }];
}

def Gemmc_StageWaitOp : Gemmc_Op<"stage_wait"> {
  let summary = "Consumer: wait until the stage of load `load` is full";
  let description = [{ Full parity (g / stages) & 1 of stage g % stages. }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let assemblyFormat = "$load `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_StageReadyOp : Gemmc_Op<"stage_ready"> {
  let summary = "Consumer: whether the stage of load `load` is full, without waiting";
  let description = [{
    gemmc.stage_wait's test (full parity (g / stages) & 1 of stage
    g % stages), answered at once: `ready` is true when the stage has landed.
    Issued early (under a K tile's MMAs), it lets the next K tile skip its
    blocking wait.
  }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let results = (outs I1:$ready);
  let assemblyFormat = "$load `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_StageReleaseOp : Gemmc_Op<"stage_release"> {
  let summary = "Consumer: this warpgroup is done with the stage of load `load`";
  let description = [{
    One arrival per consumer warpgroup on the stage's empty barrier, in every
    CTA of a cluster of `cluster_size` (whose producers all write into this
    CTA's stage under multicast). `ctas` (sm_100a) is the MMA's CTA group:
    2 when a CTA pair's leader releases the stage of both; absent or 1
    when each CTA releases its own (and, in a cluster, its peers').
    `predicated` (sm_90a): the leader's arrivals are predicated
    instructions instead of a branch around them, so the warp does not
    diverge where it must be converged next (between a K tile's wgmma row
    blocks, as cuBLASLt OUTER_VEC's `@P SYNCS.ARRIVE`).
  }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem, I64Attr:$cluster_size,
                       Gemmc_SmemLayoutAttr:$smem_layout,
                       OptionalAttr<I64Attr>:$ctas, UnitAttr:$predicated);
  let assemblyFormat = "$load `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_StageBaseOp : Gemmc_Op<"stage_base", [Pure]> {
  let summary = "The shared-memory address of the stage of load `load`";
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let results = (outs LLVM_AnyPointer:$result);
  let assemblyFormat = [{
    $load `,` $smem attr-dict `:` qualified(type($smem)) `->` qualified(type($result))
  }];
}

def Gemmc_MmaWaitOp : Gemmc_Op<"mma_wait"> {
  let summary = "Wait until at most `pending` committed MMA groups are in flight";
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
}

def Gemmc_MmaPromoteOp : Gemmc_Op<"mma_promote",
    [Pure, AllTypesMatch<["sum", "part", "result"]>]> {
  let summary = "sum + part, register by register, on the CUDA cores";
  let description = [{
    The promotion of a mainloop with `mainloop.promotion_interval`: `part`
    is the MMA's accumulator of the last interval's K tiles (its MMAs
    waited for), `sum` the f32 accumulator it is added into. Both are the
    accumulator struct the MMA keeps in registers. Lowered by
    `convert-gemmc-to-nvvm`.

    ```mlir
    %sum1 = gemmc.mma_promote %sum0, %part : !llvm.struct<(f32, ...)>
    ```
  }];
  let arguments = (ins AnyType:$sum, AnyType:$part);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $sum `,` $part attr-dict `:` qualified(type($sum))
  }];
}

def Gemmc_BlockScalesOp : Gemmc_Op<"block_scales"> {
  let summary = "Load this thread's block scales of K tile `k_tile`";
  let description = [{
    Block scaling (`scale: block` on A and B, docs/abi.md): the f32 factors
    the MMA's sum of K tile `k_tile` is folded with (gemmc.mma_fold) for
    the accumulator rows this thread holds (A's scales of the rows of the
    accumulator fragment that starts at tile row `row0`) and the B scale
    blocks of the tile's columns from `n0`. The result is a struct of f32:
    first one per row a thread holds in a fragment's column block (the
    target's accumulator layout), then one per B scale block the tile
    covers. Rows past `m` and blocks past `n` read the last row or block
    (their results are never stored). `k` gives B's K-block stride.

    ```mlir
    %f = gemmc.block_scales %sa, %sb, %row0, %n0, %kt, %m, %n, %k
           {schedule = ...} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.struct<(f32, f32, f32)>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$scale_a, LLVM_AnyPointer:$scale_b,
                       I32:$row0, I32:$n0, I32:$k_tile, I32:$m, I32:$n,
                       I32:$k, Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $scale_a `,` $scale_b `,` $row0 `,` $n0 `,` $k_tile `,` $m `,` $n `,` $k
    attr-dict `:` qualified(type($scale_a)) `,` qualified(type($scale_b))
    `->` qualified(type($result))
  }];
}

def Gemmc_StageScalesOp : Gemmc_Op<"stage_scales"> {
  let summary = "Producer warp: copy K tile `k_tile`'s block scales into the stage of load `load`";
  let description = [{
    mainloop.stage_scales: every lane of the producer warp copies its share
    of the block scales of K tile `k_tile` of the tile at (m0, n0) (A's
    scales of the tile's BLOCK_M rows, then B's of its scale slots; rows
    past `m` and blocks past `n` copy the last row or block) into the
    stage's slot of shared memory, asynchronously, and has the stage's full
    barrier wait for its copies (an arrival when they land, counted before
    the producer's own). The warp is synchronized after it, so that the
    stage's fill (its one arrival) comes after every lane's.

    ```mlir
    gemmc.stage_scales %g, %m0, %n0, %kt, %sa, %sb, %smem, %m, %n, %k
      {schedule = ..., smem_layout = ...} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
    ```
  }];
  let arguments = (ins I32:$load, I32:$m0, I32:$n0, I32:$k_tile,
                       LLVM_AnyPointer:$scale_a, LLVM_AnyPointer:$scale_b,
                       LLVM_AnyPointer:$smem, I32:$m, I32:$n, I32:$k,
                       Gemmc_ScheduleAttr:$schedule,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let assemblyFormat = [{
    $load `,` $m0 `,` $n0 `,` $k_tile `,` $scale_a `,` $scale_b `,` $smem `,`
    $m `,` $n `,` $k attr-dict `:` qualified(type($scale_a)) `,`
    qualified(type($scale_b)) `,` qualified(type($smem))
  }];
}

def Gemmc_StagedScalesOp : Gemmc_Op<"staged_scales"> {
  let summary = "Consumer: this thread's block scales from the stage of load `load`";
  let description = [{
    mainloop.stage_scales: gemmc.block_scales's result (the factors of the
    rows this thread holds in the accumulator fragment that starts at tile
    row `row`, counted from the tile's first row, then the tile's B scale
    slots), read from the scale slot of the stage of load `load`, which
    gemmc.stage_scales filled. Valid between the stage's wait and its
    release.

    ```mlir
    %f = gemmc.staged_scales %g, %smem, %row {schedule = ..., smem_layout = ...}
           : !llvm.ptr<3> -> !llvm.struct<(f32, f32, f32, f32)>
    ```
  }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem, I32:$row,
                       Gemmc_ScheduleAttr:$schedule,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $load `,` $smem `,` $row attr-dict `:` qualified(type($smem)) `->`
    qualified(type($result))
  }];
}

def Gemmc_MmaFoldOp : Gemmc_Op<"mma_fold",
    [Pure, AllTypesMatch<["sum", "result"]>]> {
  let summary = "sum + part x (A's row scale x B's block scale), on the CUDA cores";
  let description = [{
    The promotion of a block-scaled mainloop, after every K tile: `part`
    is the MMA's accumulator of one K tile (its MMAs waited for), `scales`
    that tile's factors (gemmc.block_scales), `sum` the f32 accumulator.
    Register r of the fragment gets A's scale of its row times B's of its
    column block. With `column`, `part` holds only the tile's columns from
    `column` (as many as its registers cover: mainloop.fold_columns) and is
    added into those registers of `sum`. Lowered by `convert-gemmc-to-nvvm`.

    ```mlir
    %sum1 = gemmc.mma_fold %sum0, %part, %f {schedule = ...}
              : !llvm.struct<(f32, ...)>, !llvm.struct<(f32, ...)>,
                !llvm.struct<(f32, f32, f32)>
    ```
  }];
  let arguments = (ins AnyType:$sum, AnyType:$part, AnyType:$scales,
                       Gemmc_ScheduleAttr:$schedule,
                       OptionalAttr<I64Attr>:$column);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $sum `,` $part `,` $scales attr-dict `:` qualified(type($sum)) `,`
    qualified(type($part)) `,` qualified(type($scales))
  }];
}

def Gemmc_StoreDrainOp : Gemmc_Op<"store_drain"> {
  let summary = "Wait until the epilogue's asynchronous stores are done";
  let description = [{
    Before a CTA exits (its shared memory goes away), and before an
    epilogue buffer is reused: at most `pending` bulk store groups may still
    be in flight; with `read`, only their reads of shared memory must be
    done. Issued by one thread of the warpgroup that committed them.
  }];
  let arguments = (ins I64Attr:$pending, UnitAttr:$read);
  let assemblyFormat = "$pending attr-dict";
}

def Gemmc_StoreTileOp : Gemmc_Op<"store_tile"> {
  let summary = "Store one staged chunk of C from shared memory at (x, y) and commit it";
  let description = [{
    One asynchronous bulk store of the shared-memory chunk `buffer` to the
    C box at column `x`, row `y` of `tmap_c` (clipped by the hardware at
    M x N), committed as one group.
  }];
  let arguments = (ins LLVM_AnyPointer:$tmap_c, LLVM_AnyPointer:$buffer,
                       I32:$x, I32:$y);
  let assemblyFormat = [{
    $tmap_c `,` $buffer `,` $x `,` $y attr-dict `:` qualified(type($tmap_c)) `,` qualified(type($buffer))
  }];
}

def Gemmc_SharedFenceOp : Gemmc_Op<"shared_fence"> {
  let summary = "Make this thread's shared-memory writes visible to asynchronous copies";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Programmatic dependent launch: the kernel's side of a launch that lets the
// next kernel on the stream start before this one ends (docs/abi.md).
//===----------------------------------------------------------------------===//

def Gemmc_WaitPriorGridsOp : Gemmc_Op<"wait_prior_grids"> {
  let summary = "Wait until the grids this one depends on are done and their writes visible";
  let description = [{
    Every thread that reads what a previous kernel on the stream writes (A,
    and C when beta is read) executes this first. A no-op when the kernel
    was launched without programmatic stream serialization.
  }];
  let assemblyFormat = "attr-dict";
}

def Gemmc_LaunchDependentsOp : Gemmc_Op<"launch_dependents"> {
  let summary = "Let the next kernel on the stream start (its prologue overlaps this tail)";
  let description = [{
    The dependent grid is scheduled once every CTA of this grid has executed
    this or exited; it still waits (wait_prior_grids) for this grid's writes.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Accumulators in memory (sm_100a's tensor memory; lowered per target)
//===----------------------------------------------------------------------===//

def Gemmc_AccAllocOp : Gemmc_Op<"acc_alloc"> {
  let summary = "One warp allocates `columns` columns of accumulator memory";
  let description = [{
    Run by every thread of one warp: allocates the accumulators (sm_100a:
    tensor memory, a power of two of at least 32 columns), writes their base
    address to the shared-memory word `slot`, and gives up the right to
    allocate more, so that another CTA on the SM may. The other threads read
    the base with gemmc.acc_base after a gemmc.cta_sync. With `ctas` = 2 (a
    CTA pair, sm_100a's cta_group::2) one warp of each CTA of the pair runs
    it, and the pair allocates together.
  }];
  let arguments = (ins LLVM_AnyPointer:$slot, I64Attr:$columns,
                       DefaultValuedAttr<I64Attr, "1">:$ctas);
  let assemblyFormat = "$slot attr-dict `:` qualified(type($slot))";
}

def Gemmc_AccBaseOp : Gemmc_Op<"acc_base"> {
  let summary = "The accumulators' base address, as gemmc.acc_alloc wrote it";
  let arguments = (ins LLVM_AnyPointer:$slot);
  let results = (outs I32:$result);
  let assemblyFormat = "$slot attr-dict `:` qualified(type($slot))";
}

def Gemmc_AccFreeOp : Gemmc_Op<"acc_free"> {
  let summary = "The warp that allocated them frees the accumulators";
  let description = [{
    With `ctas` = 2, one warp of each CTA of the pair, after a cluster
    barrier (no tensor-memory access of either CTA is still in flight).
  }];
  let arguments = (ins I32:$base, I64Attr:$columns,
                       DefaultValuedAttr<I64Attr, "1">:$ctas);
  let assemblyFormat = "$base attr-dict";
}

def Gemmc_MmaIssueOp : Gemmc_Op<"mma_issue"> {
  let summary = "One thread: the accumulator at `acc` (+)= the A and B tiles of one stage";
  let description = [{
    Issues the MMAs of one stage (BLOCK_K / k instructions) into the
    accumulator at address `acc`, without waiting for them. The first
    instruction overwrites the accumulator unless `accumulate`; the others
    add. Completion is tracked by gemmc.stage_release (the stage may be
    refilled) and gemmc.acc_ready (the tile's accumulator is complete).
  }];
  let arguments = (ins I32:$acc, LLVM_AnyPointer:$a_tile, LLVM_AnyPointer:$b_tile,
                       I1:$accumulate, Gemmc_ScheduleAttr:$schedule);
  let assemblyFormat = [{
    $acc `,` $a_tile `,` $b_tile `,` $accumulate attr-dict `:` qualified(type($a_tile)) `,` qualified(type($b_tile))
  }];
}

def Gemmc_AccReadyOp : Gemmc_Op<"acc_ready"> {
  let summary = "The MMA thread: accumulator `tile` is complete when its MMAs are";
  let description = [{
    The accumulators form a ring of `stages` buffers (#gemmc.smem_layout:
    its barriers only): tile t uses buffer t % stages. This arrives on the
    buffer's full barrier once every MMA the thread has issued is done;
    with `ctas` = 2 (a CTA pair, whose leader issues the MMAs), on the
    buffer's full barrier of both CTAs.
  }];
  let arguments = (ins I32:$tile, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout,
                       DefaultValuedAttr<I64Attr, "1">:$ctas);
  let assemblyFormat = "$tile `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_AccReleaseOp : Gemmc_Op<"acc_release"> {
  let summary = "Each epilogue thread: done reading accumulator `tile`";
  let description = [{
    One arrival per thread on the empty barrier of buffer tile % stages of
    the accumulator ring: the MMAs of tile t + stages may overwrite it.
    With `ctas` = 2 (a CTA pair), on the empty barrier of the pair's leader
    (cluster rank 0), whose thread issues the MMAs for both CTAs.
  }];
  let arguments = (ins I32:$tile, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout,
                       DefaultValuedAttr<I64Attr, "1">:$ctas);
  let assemblyFormat = "$tile `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_StageForwardOp : Gemmc_Op<"stage_forward"> {
  let summary = "A CTA pair's second CTA: its part of load `load` has landed";
  let description = [{
    Run by one thread of the pair's second CTA after gemmc.stage_wait on
    load `load`: one arrival, at cluster scope, on the full barrier of the
    same stage in the pair's leader (cluster rank 0), whose MMAs read both
    CTAs' shared memory. The leader's full barriers count this arrival and
    their own producer's.
  }];
  let arguments = (ins I32:$load, LLVM_AnyPointer:$smem,
                       Gemmc_SmemLayoutAttr:$smem_layout);
  let assemblyFormat = "$load `,` $smem attr-dict `:` qualified(type($smem))";
}

def Gemmc_AccLoadOp : Gemmc_Op<"acc_load"> {
  let summary = "A warp reads its rows of the accumulator: `count` columns from `acc`";
  let description = [{
    Collective over the warp: lane l gets row 32 (warp % 4) + l of the
    accumulator at address `acc` (a column already added), columns
    0 .. count - 1 as the f32 fields of the result, waited for.
  }];
  let arguments = (ins I32:$acc, I64Attr:$count);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$acc attr-dict `:` qualified(type($result))";
}

def Gemmc_AccStoreOp : Gemmc_Op<"acc_store"> {
  let summary = "A warp writes its rows of the accumulator: `values` from column `acc`";
  let description = [{
    The inverse of `gemmc.acc_load`, collective over the warp: lane l writes
    the f32 fields of `values` to row 32 (warp % 4) + l of the accumulator
    at address `acc` (a column already added), waited for. The stream-K
    fixup on tensor memory writes the sum of a tile's partials back before
    the epilogue reads it.
  }];
  let arguments = (ins I32:$acc, AnyType:$values);
  let assemblyFormat = "$acc `,` $values attr-dict `:` qualified(type($values))";
}

def Gemmc_AccFoldScalesOp : Gemmc_Op<"acc_fold_scales"> {
  let summary = "Each epilogue thread: its row's block-scale factors of K tile `k_tile`";
  let description = [{
    Block scaling with the accumulators in tensor memory (sm_100a): lane l
    of warp w holds row 32 (w % 4) + l of the tile (gemmc.acc_load's
    rows). The result is a struct of one f32 per B scale slot of the tile
    (scaleSlots, Spec.h): A's scale of tile row m0 + that row times B's
    scale of the slot's 128-column block from `n0`, for K tile `k_tile`.
    Rows past `m` and blocks past `n` read the last row or block (their
    results are never stored); `k` gives B's K-block stride
    (BlockScales.h). Invariant loads: issued ahead of the partial they
    scale (gemmc-warp-specialize loads a K tile's factors before waiting
    for the previous K tile's partial).

    ```mlir
    %f = gemmc.acc_fold_scales %sa, %sb, %m0, %n0, %kt, %m, %n, %k
           {schedule = ...} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.struct<(f32)>
    ```
  }];
  let arguments = (ins LLVM_AnyPointer:$scale_a, LLVM_AnyPointer:$scale_b,
                       I32:$m0, I32:$n0, I32:$k_tile, I32:$m, I32:$n, I32:$k,
                       Gemmc_ScheduleAttr:$schedule);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $scale_a `,` $scale_b `,` $m0 `,` $n0 `,` $k_tile `,` $m `,` $n `,` $k
    attr-dict `:` qualified(type($scale_a)) `,` qualified(type($scale_b))
    `->` qualified(type($result))
  }];
}

def Gemmc_AccFoldOp : Gemmc_Op<"acc_fold"> {
  let summary = "Each epilogue thread: its row of the f32 sum += a K tile's partial x its factors";
  let description = [{
    Block scaling with the accumulators in tensor memory (sm_100a): `part`
    holds the MMA's accumulator of one K tile alone, `factors` that K
    tile's gemmc.acc_fold_scales. Collective over the warp like
    gemmc.acc_load: lane l of warp w reads row 32 (w % 4) + l of `part`,
    multiplies each column by its scale slot's factor, and adds it into the
    same row of the f32 sum at `sum` (with `first`, the sum's first K tile,
    writes it there instead: the sum is not read); the stores are waited
    for, so the thread's next acc_load or acc_fold of `sum` sees them.

    ```mlir
    gemmc.acc_fold %sum, %part, %f {first, schedule = ...} : !llvm.struct<(f32)>
    ```
  }];
  let arguments = (ins I32:$sum, I32:$part, AnyType:$factors,
                       Gemmc_ScheduleAttr:$schedule, UnitAttr:$first);
  let assemblyFormat = [{
    $sum `,` $part `,` $factors attr-dict `:` qualified(type($factors))
  }];
}

#endif // GEMMC_OPS
