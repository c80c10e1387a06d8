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

    it reports `[smem-budget] 7 stages x 48 KiB + 1.1 KiB barriers and
    alignment = 337.1 KiB exceeds the 227 KiB a block may use on sm_90a; use
    stages <= 4 or a smaller tile_shape`.
  }];
}

def GemmcTile : Pass<"gemmc-tile", "ModuleOp"> {
  let summary = "Turn each gemmc kernel function into a GPU kernel with "
                "gemmc's ABI and a tile scheduler";
  let description = [{
    Replaces every `func.func` marked `gemmc.kernel` by an `llvm.func`
    kernel in a `gpu.module` carrying an `#nvvm.target`, with gemmc's ABI
    (docs/abi.md), the parameters describeKernelAbi lists: the tensor maps
    of A and B (and of C when the epilogue stores with TMA) as by-value
    parameters (`llvm.byval`, `nvvm.grid_constant`), C as a global pointer,
    then `m, n, k, ldc`, `alpha`/`beta` when the epilogue uses them and the
    stream-K `workspace` last. It decides the tile scheduler: CTA (or
    cluster) i computes tiles i, i + gridDim.x, ... (per cluster: ctaid.x /
    size and nctaid.x / size), so one kernel serves a data-parallel grid
    (one tile each) and a persistent grid (a CTA per SM); under stream_k the
    two numbers are the CTA's index and the grid size, which gemmc-schedule-tiles
    turns into the CTA's share of the K iterations. The runtime sizes the
    grid from the manifest. A
    `gemmc.tile_matmul` stands for the CTA's tiles; gemmc-schedule-tiles turns a
    tile number into its first row and column by the schedule's raster
    order and group. Schedules the later passes cannot build yet are refused
    here with `[not-implemented]`.

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
    gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
      llvm.func @gemm(%tmap_a: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant, ...},
                      %tmap_b: !llvm.ptr {...}, %c: !llvm.ptr<1> {llvm.noalias},
                      %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32)
          attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32} {
        %first = nvvm.read.ptx.sreg.ctaid.x : i32
        %step = nvvm.read.ptx.sreg.nctaid.x : i32
        gemmc.tile_matmul %tmap_a, %tmap_b, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha)
            {schedule = #gemmc.schedule<...>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
        llvm.return
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"];
}

def GemmcSmemLayout : Pass<"gemmc-smem-layout", "ModuleOp"> {
  let summary = "Place each tile's shared-memory stages and barriers, aligned "
                "for the swizzle";
  let description = [{
    Gives every `gemmc.tile_matmul` its shared memory: one extern dynamic
    shared-memory array per kernel (`<kernel>_smem`), its address rounded
    up to a 1024-byte swizzle atom (the 128-byte swizzle pattern repeats
    every 8 rows of 128 bytes, and TMA and wgmma apply it from address
    bits), and a `#gemmc.smem_layout` with the offsets of the stage ring
    (A then B in each stage, each a whole number of atoms), of the
    TMA-store epilogue's chunk buffers after it (`epilogue`, absent with
    register stores) and of the full/empty barriers last. The sizes are
    those of the rule library's
    computeResources(), so the smem-budget rule, the model, the manifest's
    `dynamic_smem_bytes` and the kernel agree.

    Before:

    ```mlir
    gemmc.tile_matmul %ta, %tb, %c, %m0, %n0, %m, %n, %k, %ldc {schedule = #gemmc.schedule<...,
        tile_shape = [128, 256, 64], stages = 4, ...>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    ```

    After:

    ```mlir
    llvm.mlir.global external @gemm_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    ...
    %base = llvm.mlir.addressof @gemm_smem : !llvm.ptr<3>
    ... %aligned = %base rounded up to 1024 bytes ...
    gemmc.tile_matmul %ta, %tb, %c, %m0, %n0, %m, %n, %k, %ldc smem(%aligned)
        {schedule = #gemmc.schedule<...>, smem_layout = #gemmc.smem_layout<stages = 4,
        stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024,
        swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"];
}

def GemmcWarpSpecialize : Pass<"gemmc-warp-specialize", "ModuleOp"> {
  let summary = "Split a CTA's work into producer and consumer roles over a "
                "ring of shared-memory stages (target-neutral)";
  let description = [{
    Expands each `gemmc.tile_matmul` (after gemmc-smem-layout) into the
    warp roles of its kernel schedule and the stage ring they share, in
    target-neutral ops that convert-gemmc-to-nvvm lowers per target. One
    thread initializes the ring (`gemmc.ring_init`: a full barrier per stage
    armed by one producer, an empty barrier that counts one release per
    consumer warpgroup of every CTA of the cluster, one under pingpong),
    then the CTA (or cluster) meets (`gemmc.cta_sync`). Loads are numbered
    across the CTA's tiles (g): load g fills stage g % stages
    (`gemmc.stage_acquire` + `gemmc.stage_fill`), a consumer waits for it
    (`gemmc.stage_wait`), multiplies its rows of A (one MMA M per
    warpgroup) with `gemmc.mma_stage`, keeps that group in flight
    (`gemmc.mma_wait 1`) and releases the previous step's stage
    (`gemmc.stage_release`); after a tile's last step, `gemmc.mma_wait 0`,
    the last release and a `gemmc.epilogue`. Each role walks the CTA's tiles
    with a `gemmc.tile_loop` (gemmc-schedule-tiles decides which).

    multistage: thread 0 also loads, a tile's first `stages` steps before
    its K loop, then load g - 1 + stages (K tile kt - 1 + stages, while
    below the tile's K tiles) whenever a stage is released.
    warp_specialized(_cooperative): the last warpgroup gives registers back
    (`gemmc.set_max_registers 40`) and its first thread issues every load;
    the consumers raise theirs. warp_specialized_pingpong: consumer
    warpgroup w takes the CTA's tiles w, w + 2, ... whole (loads numbered
    from tile x K tiles), and the mainloops take turns through named
    barriers 3 + w (the other arrives once it has waited for its tile's
    last stage). stream_k: a `gemmc.stream_k_plan` at the start, and each
    consumer piece ends in a `gemmc.stream_k_fixup` whose body is the
    epilogue. Clusters end with a cluster-wide `gemmc.cta_sync`.

    Before:

    ```mlir
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%s) {...} : ...
    ```

    After (warp_specialized_cooperative):

    ```mlir
    scf.if %tid_is_0 { gemmc.ring_init %s {empty_arrivals = 2, full_arrivals = 1, ...} }
    gemmc.cta_sync
    scf.if %is_producer {
      gemmc.set_max_registers 40
      scf.if %tid_is_256 {
        %g = gemmc.tile_loop %first, %step, %m, %n, %k iter(%c0) {...} {
        ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
          scf.for %kt = %kb to %ke step %c1 {
            gemmc.stage_acquire %gk, %s ...
            gemmc.stage_fill %gk, %m0, %n0, %kt, %ta, %tb, %s ...
          }
          gemmc.yield %g1 : i32
        }
      }
    } else {
      gemmc.set_max_registers 232 {increase}
      %g = gemmc.tile_loop ... {
        %acc = scf.for ... {
          gemmc.stage_wait %gk, %s ...
          %base = gemmc.stage_base %gk, %s ...
          %acc1 = gemmc.mma_stage %acc0, %a_slice, %b_tile {...}
          gemmc.mma_wait 1
          scf.if %kt_gt_0 { gemmc.stage_release %gk_minus_1, %s ... }
        }
        gemmc.mma_wait 0
        gemmc.stage_release %glast, %s ...
        gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc ...
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::NVVM::NVVMDialect"];
}

def GemmcScheduleTiles : Pass<"gemmc-schedule-tiles", "ModuleOp"> {
  let summary = "Lower the tile scheduler: which tiles and K ranges a CTA "
                "computes, in raster order, persistent or stream-K";
  let description = [{
    Lowers `gemmc.tile_loop`, `gemmc.tile_count`, `gemmc.tile_origin`,
    `gemmc.stream_k_plan` and `gemmc.stream_k_fixup` to scf and arith.
    Cluster c computes cluster tiles c, c + step, ... below
    ceil(m / (BLOCK_M x cluster rows)) x ceil(n / BLOCK_N): one each on a
    data-parallel grid, a persistent loop on a grid of one CTA per SM. A
    tile number becomes its first row and column by the raster order and
    group: `group` tiles along the raster dimension, then across (with a
    cluster along M, plus rank x BLOCK_M).

    stream_k: with T tiles and P CTAs, the tiles before split_first =
    P x (waves - 1) (all of them when P divides T, none when T < P) go
    whole; the (T - split_first) x K-tiles iterations of the rest are shared
    out, CTA c taking [c x total / P, (c + 1) x total / P). The split loop
    visits the tiles that share touches, each with its K range. A fixup
    whose piece does not start its tile stores the fp32 partials to the
    CTA's workspace slot (a 128-byte flag line, then value i of consumer
    thread t at float i x threads + t) and raises the flag (release, GPU
    scope); the piece that starts it waits for the flags of CTAs c + 1 ..
    owner(last iteration of the tile), adds their partials, clears the
    flags and runs the epilogue.

    Before:

    ```mlir
    %g = gemmc.tile_loop %first, %step, %m, %n, %k iter(%c0) {...} {
    ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
      ...
    }
    ```

    After (data_parallel or persistent, raster along_m, group 8):

    ```mlir
    %tiles = arith.muli %tiles_m, %tiles_n : i32
    %g = scf.for %t = %first to %tiles step %step iter_args(%g0 = %c0) -> (i32) {
      %per_group = arith.muli %c8, %tiles_n
      ... %m0 = (first row of group + t % per_group % group size) x BLOCK_M,
          %n0 = (t % per_group / group size) x BLOCK_N ...
      ... the body with k range [0, ceil(k / BLOCK_K)) ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::NVVM::NVVMDialect"];
}

def GemmcEpilogue : Pass<"gemmc-epilogue", "ModuleOp"> {
  let summary = "Store each thread's accumulators to C: alpha, beta, "
                "conversion, clipped to M x N, from registers or through TMA";
  let description = [{
    Lowers `gemmc.epilogue`. As in BLAS, C is read only when beta is not 0.
    With `tma(%tmap_c, %buffer)` (store: tma) the values go to shared memory
    instead, in chunks one 128-byte swizzle span wide written in the swizzle
    pattern, through the warpgroup's ring of chunk buffers: the leader waits
    (`cp.async.bulk.wait_group.read`) until the ring's oldest store has read
    the buffer, the warpgroup meets at its named barrier, writes, fences
    (`fence.proxy.async.shared::cta`), meets again, and the leader issues a
    `cp.async.bulk.tensor` store and commits it; a ring that holds a whole
    tile row takes the chunks in one round. A tile whose right edge cuts a
    16-byte unit of C's row stores from registers as below (TMA would write
    the whole unit). test/Transforms/gemmc-epilogue.mlir has both forms.
    A thread of a warpgroup holds, after an m64nNk16
    wgmma, values 4j+2h+e at row 16w + l/4 + 8h and column 8j + 2(l%4) + e
    (warp w, lane l). Each pair of adjacent columns is scaled by alpha, gets
    beta x C added when the schedule asks, is converted to C's type and
    stored as one 2-element vector when both columns lie inside N (the
    column and ldc are even, so the pair is aligned), as one element when
    only the first does, and not at all below row M.

    Before:

    ```mlir
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) {schedule = ...}
        : !llvm.struct<(f32, ...)>, !llvm.ptr<1>
    ```

    After (per row half and 8-column chunk):

    ```mlir
    scf.if %row_in {
      %v0 = llvm.extractvalue %acc[0] ...  %s0 = arith.mulf %v0, %alpha : f32
      scf.if %both_in { ... llvm.store %pair, %p {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1> }
      else { scf.if %first_in { llvm.store %x, %p {alignment = 2 : i64} : bf16, !llvm.ptr<1> } }
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::math::MathDialect"];
}

def ConvertGemmcToNVVM : Pass<"convert-gemmc-to-nvvm", "ModuleOp"> {
  let summary = "Instruction selection: the target's NVVM ops for the stage "
                "ring, the MMA, the epilogue's stores and the roles";
  let description = [{
    Lowers every gemmc op the earlier passes leave with the patterns of the
    kernel's target (its gpu.module's #nvvm.target chip, or its schedule's
    arch): `populateSm90aPatterns` for sm_90a; sm_80 and sm_100a have no
    patterns yet and their ops are reported `[not-implemented]`. The
    patterns are listed in lib/Conversion/*Patterns.cpp, one per op.

    On sm_90a: `gemmc.ring_init` becomes an `mbarrier.init` per full and
    empty barrier (the layout's `barriers` offset, 8 bytes each, the empty
    ones after the full ones) and `fence.mbarrier_init`;
    `gemmc.stage_acquire` a `try_wait.parity` on empty[g % stages] with
    parity (g / stages + 1) & 1 once g >= stages; `gemmc.stage_fill` an
    `mbarrier.arrive.expect_tx` of the stage's bytes and the TMA loads of A
    and B (B multicast to the cluster, each CTA its part);
    `gemmc.stage_wait` a `try_wait.parity` on full[g % stages] with parity
    (g / stages) & 1; `gemmc.stage_release` an arrival on the stage's empty
    barrier by the warpgroup's first thread (on every CTA of a cluster,
    through `mapa`); `gemmc.mma_wait` `wgmma.wait_group`;
    `gemmc.store_tile`, `gemmc.store_drain` and `gemmc.shared_fence` the
    bulk tensor store + commit, `cp.async.bulk.wait_group(.read)` and
    `fence.proxy.async.shared::cta`; named barriers, CTA/cluster barriers
    and `gemmc.set_max_registers` the same on every target.

    A `gemmc.mma_stage` becomes
    `wgmma.fence`, the k steps of the stage (BLOCK_K / 16 for bf16 and f16)
    of `wgmma.mma_async`, and `wgmma.commit_group`.

    By default each k step is one instruction of BLOCK_N columns. The option
    `wgmma-n` (gemmc `--wgmma-n`) splits a warpgroup's BLOCK_N columns into
    BLOCK_N / N independent instructions of N columns, each on its own slice
    of the accumulator registers (columns [p*N, (p+1)*N) are registers
    [p*N/2, (p+1)*N/2) of the m64 fragment), issued interleaved: k step 0 of
    every part, then k step 1, and so on. An ablation, not a default: on the
    H200 a 128x256 cooperative tile as two 64x128 instructions ran within
    0.7% of one 64x256 (bench/RESULTS.md, 2026-11-29).

    Operands come through 64-bit shared-memory matrix descriptors: K-major
    tiles (A, and B when col-major) with the 128-byte swizzle, 8-row atoms
    1024 bytes apart, the start address moving 32 bytes along the row per k
    step; N-major B (row-major) in slabs one swizzle span of N wide, the
    leading byte offset being the slab size and a k step moving 16 rows down.
    A tile's 14-bit address field is computed once, in 32 bits; each k step
    and column part adds a constant to it. The wgmma layouts follow: A row;
    B col when K-major, row when N-major.

    Before:

    ```mlir
    %acc1 = gemmc.mma_stage %acc0, %a, %b {schedule = #gemmc.schedule<...,
        b_layout = "col", tile_shape = [128, 128, 64], ...>} : !llvm.struct<(f32, ...)>, !llvm.ptr<3>, !llvm.ptr<3>
    ```

    After:

    ```mlir
    %fa = arith.andi (arith.shrui (llvm.ptrtoint %a), 4), 0x3fff : i32
    %fb = ... the same of %b ...
    nvvm.wgmma.fence.aligned
    %da0 = arith.ori (arith.extui (arith.addi %fa, 65536)), 0x4000004000000000 : i64
    %db0 = ... the same from %fb ...
    %r0 = nvvm.wgmma.mma_async %da0, %db0, %acc0, <m = 64, n = 128, k = 16>, D[<f32>, <one>],
          A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : ... -> ...
    %da1 = ... arith.addi %fa, 65538 ...   (32 bytes further along K)
    ... three more k steps ...
    nvvm.wgmma.commit.group.sync.aligned
    ```

    With `wgmma-n=128` and BLOCK_N = 256, each k step is two such
    instructions, on registers 0-63 and 64-127 of the accumulator, the
    second one's B 128 rows (16384 bytes) further on.
  }];
  let options = [
    Option<"wgmmaN", "wgmma-n", "int64_t", /*default=*/"0",
           "Columns of each wgmma.mma_async (0: BLOCK_N, one per k step)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect", "::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // GEMMC_TRANSFORMS_PASSES
