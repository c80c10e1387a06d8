// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// scale: block, e4m3 128x128x128 cooperative: a consumer's K steps run one
// round each, carrying the f32 sum and this thread's scales of the round's
// K tile. The scales of the piece's first K tile load before the loop; a
// round runs the usual step (stage wait, mma_stage from the zero
// accumulator, mma_wait 1, release of the step before), then loads the
// next K tile's scales (the piece's last tile again in the last round)
// while the wgmmas run, waits for every MMA group and folds the round's
// accumulator into the sum with its scales (gemmc.mma_fold). The scales
// are the kernel's scale_a and scale_b; the warpgroup's rows start at m0
// plus its slice of A in rows (8192 bytes / 128). The epilogue stores the
// sum.

// CHECK-LABEL: llvm.func @block_scaled(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: !llvm.ptr<1> {llvm.noalias}, %[[SB:[a-z0-9]+]]: !llvm.ptr<1> {llvm.noalias})
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: %[[ASLICE:.*]] = arith.muli %{{.*}}, %c8192_i32 : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.divui %[[ASLICE]], %c128_i32 : i32
// CHECK-NEXT: %[[ROW0:.*]] = arith.addi %[[M0]], %[[ROWS]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[KE]], %c1_i32 : i32
// CHECK-NEXT: %[[F0:.*]] = gemmc.block_scales %[[SA]], %[[SB]], %[[ROW0]], %[[N0]], %[[KB]], %{{.*}} -> !llvm.struct<(f32, f32, f32)>
// CHECK-NEXT: %[[SUM:.*]]:2 = scf.for %[[R:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 iter_args(%[[SUMIN:.*]] = %[[ZERO]], %[[FIN:.*]] = %[[F0]])
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[R]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]]
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GS]]
// The two operand addresses come from arguments of one builder call, whose
// order is the host compiler's (GCC and clang differ): either order.
// CHECK-DAG: %[[BT:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-DAG: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%[[ASLICE]]]
// CHECK: %[[PART:.*]] = gemmc.mma_stage %[[ZERO]], %[[AT]], %[[BT]]
// CHECK-NEXT: gemmc.mma_wait 1
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ugt, %[[R]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[GS]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[PREV]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: %[[KT:.*]] = arith.addi %[[KB]], %[[R]] : i32
// CHECK-NEXT: %[[KNEXT:.*]] = arith.addi %[[KT]], %c1_i32 : i32
// CHECK-NEXT: %[[KLOAD:.*]] = arith.minui %[[KNEXT]], %[[LAST]] : i32
// CHECK-NEXT: %[[FNEXT:.*]] = gemmc.block_scales %[[SA]], %[[SB]], %[[ROW0]], %[[N0]], %[[KLOAD]], %{{.*}} -> !llvm.struct<(f32, f32, f32)>
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[SUMOUT:.*]] = gemmc.mma_fold %[[SUMIN]], %[[PART]], %[[FIN]] {{.*}} : !llvm.struct<(f32,
// CHECK-NEXT: scf.yield %[[SUMOUT]], %[[FNEXT]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[GEND:.*]] = arith.addi %[[G]], %[[STEPS]] : i32
// CHECK-NEXT: %[[GLAST:.*]] = arith.subi %[[GEND]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GLAST]]
// CHECK-NEXT: gemmc.epilogue %[[SUM]]#0,
// CHECK-NOT: gemmc.mma_promote
// CHECK: llvm.return
gpu.module @k1 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @block_scaled(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// mainloop.fold_columns = 64 on the same tile: each K tile's wgmmas go in
// two halves of 64 columns (mma_stage with columns [0, 64] and [64, 64],
// fresh: no zeroed accumulator), each its own group and each into its own
// register block, whose last part it takes as its (ignored) input, so
// that ptxas keeps the block in place; mma_wait 1 waits for the first half
// only, which is folded (column 0) while the second runs; the scales of the
// K tile two on load (kScaleLead: the loop carries this tile's and the
// next one's, loaded before the loop); mma_wait 0 and the second half's
// fold (column 64). A loop iteration starts with nothing in flight (ptxas
// cannot follow a wgmma group across the back-edge) and releases the
// previous K tile's stage; the piece's last stage is released after the
// loop, as before.

// CHECK-LABEL: llvm.func @fold_halves(
// CHECK: %[[IGNORED:.*]] = llvm.mlir.poison : !llvm.struct<(f32,
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[KE]], %c1_i32 : i32
// CHECK-NEXT: %[[K0:.*]] = arith.minui %[[KB]], %[[LAST]] : i32
// CHECK-NEXT: %[[F0:.*]] = gemmc.block_scales %{{.*}}, %[[K0]], %{{.*}} -> !llvm.struct<(f32, f32, f32)>
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[KB]], %c1_i32 : i32
// CHECK-NEXT: %[[K1C:.*]] = arith.minui %[[K1]], %[[LAST]] : i32
// CHECK-NEXT: %[[F1:.*]] = gemmc.block_scales %{{.*}}, %[[K1C]], %{{.*}} -> !llvm.struct<(f32, f32, f32)>
// CHECK-NEXT: %[[SUM:.*]]:5 = scf.for %[[R:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 iter_args(%[[SUMIN:.*]] = %[[ZERO]], %[[B0:.*]] = %[[IGNORED]], %[[B1:.*]] = %[[IGNORED]], %[[FIN:.*]] = %[[F0]], %[[FIN1:.*]] = %[[F1]])
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ugt, %[[R]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[GR:.*]] = arith.addi %[[G]], %[[R]] : i32
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[GR]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[PREV]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[R]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]]
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GS]]
// CHECK-DAG: %[[BT:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-DAG: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}]
// CHECK: %[[H0:.*]] = gemmc.mma_stage %[[B0]], %[[AT]], %[[BT]] {columns = array<i64: 0, 64>, fresh, {{.*}} : !llvm.struct<([[PART:(f32, ){31}f32]])>,
// CHECK-NEXT: %[[H1:.*]] = gemmc.mma_stage %[[B1]], %[[AT]], %[[BT]] {columns = array<i64: 64, 64>, fresh, {{.*}} : !llvm.struct<([[PART]])>,
// CHECK-NEXT: gemmc.mma_wait 1
// CHECK-NEXT: %[[SUM0:.*]] = gemmc.mma_fold %[[SUMIN]], %[[H0]], %[[FIN]] {column = 0 : i64,
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[R]], %c2_i32 : i32
// CHECK-NEXT: %[[KT:.*]] = arith.addi %[[KB]], %[[AHEAD]] : i32
// CHECK-NEXT: %[[KLOAD:.*]] = arith.minui %[[KT]], %[[LAST]] : i32
// CHECK-NEXT: %[[FNEXT:.*]] = gemmc.block_scales %{{.*}}, %[[KLOAD]], %{{.*}} -> !llvm.struct<(f32, f32, f32)>
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[SUM1:.*]] = gemmc.mma_fold %[[SUM0]], %[[H1]], %[[FIN]] {column = 64 : i64,
// CHECK-NEXT: scf.yield %[[SUM1]], %[[H0]], %[[H1]], %[[FIN1]], %[[FNEXT]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[GEND:.*]] = arith.addi %[[G]], %[[STEPS]] : i32
// CHECK-NEXT: %[[GLAST:.*]] = arith.subi %[[GEND]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GLAST]]
// CHECK-NEXT: gemmc.epilogue %[[SUM]]#0,
// CHECK: llvm.return
gpu.module @k2 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @fold_halves(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none", fold_columns = 64>, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// fold_columns = BLOCK_N = 128: one part a K tile, so a loop iteration
// (nothing in flight at its start) takes two K tiles: the second tile's
// wgmmas are issued before the first's fold (mma_wait 1, then the first
// tile's stage released), the second is folded after mma_wait 0. The
// two K tiles' parts go into the two register blocks the loop carries.
// The piece's odd K tile goes first, alone (steps % 2 iterations: wgmmas
// into the first block, mma_wait 0, fold). Each K tile loads the scales of
// the one two on, under its MMAs.

// CHECK-LABEL: llvm.func @fold_alternate(
// CHECK: %[[IGNORED:.*]] = llvm.mlir.poison : !llvm.struct<(f32,
// CHECK: %[[STEPS:.*]] = arith.subi %[[KE:.*]], %[[KB:.*]] : i32
// CHECK: gemmc.block_scales
// CHECK: %[[F1:.*]] = gemmc.block_scales
// CHECK-NEXT: %[[ODD:.*]] = arith.remui %[[STEPS]], %c2_i32 : i32
// CHECK-NEXT: %[[FIRST:.*]]:4 = scf.for %{{.*}} = %c0_i32 to %[[ODD]] step %c1_i32 iter_args(%[[S0:.*]] = %{{.*}}, %[[BA:.*]] = %[[IGNORED]], %[[F:.*]] = %{{.*}}, %[[FN1:.*]] = %[[F1]])
// CHECK: %[[P:.*]] = gemmc.mma_stage %[[BA]], %{{.*}} {columns = array<i64: 0, 128>, fresh,
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.minui
// CHECK-NEXT: %[[FN:.*]] = gemmc.block_scales
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[S1:.*]] = gemmc.mma_fold %[[S0]], %[[P]], %[[F]] {column = 0 : i64,
// CHECK-NEXT: scf.yield %[[S1]], %[[P]], %[[FN1]], %[[FN]]
// CHECK: %[[PAIRS:.*]]:5 = scf.for %[[R:.*]] = %[[ODD]] to %[[STEPS]] step %c2_i32 iter_args(%[[T0:.*]] = %[[FIRST]]#0, %[[BLK0:.*]] = %[[FIRST]]#1, %[[BLK1:.*]] = %[[IGNORED]], %[[G0:.*]] = %[[FIRST]]#2, %[[G1:.*]] = %[[FIRST]]#3)
// CHECK: gemmc.stage_wait
// CHECK: %[[A:.*]] = gemmc.mma_stage %[[BLK0]], %{{.*}} {columns = array<i64: 0, 128>, fresh,
// CHECK: %[[GA:.*]] = gemmc.block_scales
// CHECK: gemmc.stage_wait %[[GB:.*]], %
// CHECK: %[[B:.*]] = gemmc.mma_stage %[[BLK1]], %{{.*}} {columns = array<i64: 0, 128>, fresh,
// CHECK-NEXT: gemmc.mma_wait 1
// CHECK-NEXT: %[[GPREV:.*]] = arith.subi %[[GB]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GPREV]]
// CHECK-NEXT: %[[T1:.*]] = gemmc.mma_fold %[[T0]], %[[A]], %[[G0]] {column = 0 : i64,
// CHECK: %[[GB2:.*]] = gemmc.block_scales
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[T2:.*]] = gemmc.mma_fold %[[T1]], %[[B]], %[[G1]] {column = 0 : i64,
// CHECK-NEXT: scf.yield %[[T2]], %[[A]], %[[B]], %[[GA]], %[[GB2]]
// CHECK: gemmc.epilogue %[[PAIRS]]#0,
gpu.module @k3 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @fold_alternate(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none", fold_columns = 128>, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// fold_group = 1 (one part at a time) on 128x256 in halves (fold_columns =
// 128): a K tile a loop iteration, carrying the sum, the part's
// accumulator, which every part takes as its (ignored, fresh) input so that
// all parts share one register block, and the scales of this K tile and the
// next (loaded before the loop). The two cooperative warpgroups take turns:
// warpgroup 1 gives warpgroup 0 the first turn (an arrival on barrier
// 3 + 0 = 4 - 1). An iteration releases the K tile before, loads the
// scales of the K tile two on, waits for its turn on barrier 3 + wg (the
// first part's before the stage's wait), issues the part, hands the turn
// over on barrier 4 - wg, waits for the next part's turn (if the K tile has
// one), then for the part (mma_wait 0) and folds it at its column. After the last piece warpgroup 0 takes warpgroup 1's last
// hand-over.

// CHECK-LABEL: llvm.func @fold_turns(
// CHECK: %[[POISON:.*]] = llvm.mlir.poison : !llvm.struct<(f32,
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: %[[WG:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[WG]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[GIVE:.*]] = arith.subi %c4_i32, %[[WG]] : i32
// CHECK-NEXT: gemmc.named_barrier %[[GIVE]], %c256_i32 {arrive}
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[KE]], %c1_i32 : i32
// CHECK: %[[F0:.*]] = gemmc.block_scales
// CHECK: %[[F1:.*]] = gemmc.block_scales
// CHECK-NEXT: %[[LOOP:.*]]:4 = scf.for %[[R:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 iter_args(%[[SUMIN:.*]] = %[[ZERO]], %[[PARTIN:.*]] = %[[POISON]], %[[F:.*]] = %[[F0]], %[[FN1:.*]] = %[[F1]])
// CHECK-NEXT: %[[NOTFIRSTK:.*]] = arith.cmpi ugt, %[[R]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRSTK]] {
// CHECK-NEXT: %[[GR:.*]] = arith.addi %[[G]], %[[R]] : i32
// CHECK-NEXT: %[[GPREV:.*]] = arith.subi %[[GR]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GPREV]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[R]], %c2_i32 : i32
// CHECK-NEXT: %[[KT:.*]] = arith.addi %[[KB]], %[[AHEAD]] : i32
// CHECK-NEXT: %[[KLOAD:.*]] = arith.minui %[[KT]], %[[LAST]] : i32
// CHECK-NEXT: %[[FN2:.*]] = gemmc.block_scales %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[KLOAD]], %{{.*}} -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[MINE:.*]] = arith.addi %[[WG]], %c3_i32 : i32
// CHECK-NEXT: gemmc.named_barrier %[[MINE]], %c256_i32{{$}}
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[R]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]]
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GS]]
// CHECK-DAG: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}]
// CHECK-DAG: %[[BT:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK: %[[P0:.*]] = gemmc.mma_stage %[[PARTIN]], %[[AT]], %[[BT]] {columns = array<i64: 0, 128>, fresh,
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c4_i32, %[[WG]] : i32
// CHECK-NEXT: gemmc.named_barrier %[[OTHER]], %c256_i32 {arrive}
// CHECK-NEXT: gemmc.named_barrier %[[MINE]], %c256_i32{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[S0:.*]] = gemmc.mma_fold %[[SUMIN]], %[[P0]], %[[F]] {column = 0 : i64,
// CHECK-NEXT: %[[P1:.*]] = gemmc.mma_stage %[[P0]], %[[AT]], %[[BT]] {columns = array<i64: 128, 128>, fresh,
// CHECK-NEXT: gemmc.named_barrier %[[OTHER]], %c256_i32 {arrive}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[S1:.*]] = gemmc.mma_fold %[[S0]], %[[P1]], %[[F]] {column = 128 : i64,
// CHECK-NEXT: scf.yield %[[S1]], %[[P1]], %[[FN1]], %[[FN2]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK: gemmc.epilogue %[[LOOP]]#0,
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[WG]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[LASTTURN:.*]] = arith.addi %[[WG]], %c3_i32 : i32
// CHECK-NEXT: gemmc.named_barrier %[[LASTTURN]], %c256_i32{{$}}
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK: llvm.return
gpu.module @k4 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @fold_turns(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none", fold_columns = 128, fold_group = 1>, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// stage_scales: true on the same kernel (3 stages; the scale slots before
// the barriers): the producer's first warp (threads 256 .. 287) runs the
// loads; each load waits for its stage (every lane), copies its K tile's
// block scales into the stage's slot (gemmc.stage_scales: every lane, the
// kernel's scale_a and scale_b, the tile's m0 and n0), then thread 256
// alone fills the stage. The consumers (cooperative, taking turns) read a
// K tile's scales from its stage (gemmc.staged_scales, the warpgroup's first
// row in the tile: its slice of A in rows) one K tile ahead: the first K
// tile's after its stage's wait before the loop (if the piece has K tiles),
// each next one's after its stage's wait right after the last part is
// issued, while it runs (past the piece's last K tile, its own stage
// again); the loop carries them, and both parts fold with them. It carries
// that stage's base too (gemmc.stage_base under the last part), so that
// the loop top holds only the release and the turn before the first part.

// CHECK-LABEL: llvm.func @staged(
// CHECK-SAME: %[[SA:[a-z0-9]+]]: !llvm.ptr<1> {llvm.noalias}, %[[SB:[a-z0-9]+]]: !llvm.ptr<1> {llvm.noalias})
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: gemmc.set_max_registers 40
// CHECK-NEXT: %[[WARP0:.*]] = arith.cmpi ult, %[[TID]], %c288_i32 : i32
// CHECK-NEXT: scf.if %[[WARP0]] {
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %{{.*}}: i32, %[[G:.*]]: i32):
// CHECK-NEXT: scf.for %[[KT:.*]] = %[[KB]] to
// CHECK-NEXT: %[[STEP:.*]] = arith.subi %[[KT]], %[[KB]] : i32
// CHECK-NEXT: %[[GL:.*]] = arith.addi %[[G]], %[[STEP]] : i32
// CHECK-NEXT: gemmc.stage_acquire %[[GL]], %[[SMEM:[^ ]*]]
// CHECK-NEXT: gemmc.stage_scales %[[GL]], %[[M0]], %[[N0]], %[[KT]], %[[SA]], %[[SB]], %[[SMEM]], %{{.*}}, %{{.*}}, %{{.*}} {schedule = {{.*}}stage_scales = true, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 49152, b_offset = 16384, barriers = 149040, align = 1024, swizzle = 128>}
// CHECK-NEXT: %[[FILLER:.*]] = arith.cmpi eq, %[[TID]], %c256_i32 : i32
// CHECK-NEXT: scf.if %[[FILLER]] {
// CHECK-NEXT: gemmc.stage_fill %[[GL]], %[[M0]], %[[N0]], %[[KT]]
// CHECK-NEXT: {{^ +[}]$}}
// CHECK-NEXT: {{^ +[}]$}}
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK: %[[ASLICE:.*]] = arith.muli %{{.*}}, %c8192_i32 : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi
// CHECK-NEXT: %[[ROWS:.*]] = arith.divui %[[ASLICE]], %c128_i32 : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi ugt, %[[STEPS]], %c0_i32 : i32
// CHECK-NEXT: %[[F0:.*]] = scf.if %[[ANY]] -> (!llvm.struct<(f32, f32, f32, f32)>) {
// CHECK-NEXT: gemmc.stage_wait %[[G0:[^,]*]],
// CHECK-NEXT: %[[S0:.*]] = gemmc.staged_scales %[[G0]], %{{.*}}, %[[ROWS]] {{.*}} -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: scf.yield %[[S0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}} : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: }
// CHECK-NEXT: %[[BASE0:.*]] = gemmc.stage_base %[[G0]]
// CHECK-NEXT: %{{[0-9]+}}:4 = scf.for %[[STEP:[a-z0-9]+]] = %c0_i32 to %[[STEPS]] step %c1_i32 iter_args(%[[SUMIN:[a-z0-9]+]] = %{{[0-9]+}}, %[[PARTIN:[a-z0-9]+]] = %{{[0-9]+}}, %[[F:[a-z0-9]+]] = %[[F0]], %[[BASE:[a-z0-9]+]] = %[[BASE0]]) -> (
// CHECK: gemmc.stage_release
// CHECK: gemmc.named_barrier
// CHECK-NEXT: llvm.getelementptr %[[BASE]]
// CHECK-NEXT: llvm.getelementptr %[[BASE]]
// CHECK-NEXT: %[[P0:.*]] = gemmc.mma_stage %[[PARTIN]], {{.*}}columns = array<i64: 0, 128>
// CHECK-NEXT: arith.subi
// CHECK-NEXT: gemmc.named_barrier %{{.*}}, %c256_i32 {arrive}
// CHECK-NEXT: gemmc.named_barrier %{{.*}}, %c256_i32{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[SUM0:.*]] = gemmc.mma_fold %[[SUMIN]], %[[P0]], %[[F]] {column = 0 : i64
// CHECK-NEXT: %[[P1:.*]] = gemmc.mma_stage %[[P0]], {{.*}}columns = array<i64: 128, 128>
// CHECK-NEXT: gemmc.named_barrier %{{.*}}, %c256_i32 {arrive}
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[STEP]], %c1_i32 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[STEPS]], %c1_i32 : i32
// CHECK-NEXT: %[[AHEAD:.*]] = arith.minui %[[NEXT]], %[[LAST]] : i32
// CHECK-NEXT: %[[GN:.*]] = arith.addi %[[G0]], %[[AHEAD]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GN]],
// CHECK-NEXT: %[[FN:.*]] = gemmc.staged_scales %[[GN]], %{{.*}}, %[[ROWS]]
// CHECK-NEXT: %[[BASEN:.*]] = gemmc.stage_base %[[GN]]
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[SUM1:.*]] = gemmc.mma_fold %[[SUM0]], %[[P1]], %[[F]] {column = 128 : i64
// CHECK-NEXT: scf.yield %[[SUM1]], %[[P1]], %[[FN]], %[[BASEN]] :
gpu.module @k5 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @staged(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none", fold_columns = 128, fold_group = 1, stage_scales = true>, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 49152, b_offset = 16384, barriers = 149040, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// a_registers: true on the same kernel: after the stage's wait each
// consumer reads its A slice of the stage once (gemmc.mma_a_fragment: 16
// registers, 4 a k step of 32) and both parts' wgmmas take A from there.

// CHECK-LABEL: llvm.func @a_registers(
// CHECK: scf.for {{.*}}, %[[BASE:[a-z0-9]+]] = %{{[0-9]+}}) -> (
// CHECK: %[[AT:.*]] = llvm.getelementptr %[[BASE]]
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[BASE]]
// CHECK-NEXT: %[[A:.*]] = gemmc.mma_a_fragment %[[AT]] {schedule = {{.*}}a_registers = true, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>} : !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK-NEXT: %[[P0:.*]] = gemmc.mma_stage %{{.*}}, %[[AT]], %[[BT]] a_frag(%[[A]] : !llvm.struct<(i32, {{.*}})>) {columns = array<i64: 0, 128>
// CHECK: gemmc.mma_fold %{{.*}}, %[[P0]], %[[F:[a-z0-9]+]] {column = 0 : i64
// CHECK: %[[P1:.*]] = gemmc.mma_stage %[[P0]], %[[AT]], %[[BT]] a_frag(%[[A]] : !llvm.struct<(i32, {{.*}})>) {columns = array<i64: 128, 128>
// CHECK: gemmc.mma_fold %{{.*}}, %[[P1]], %[[F]] {column = 128 : i64
gpu.module @k6 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @a_registers(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none", fold_columns = 128, fold_group = 1, stage_scales = true, a_registers = true>, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 49152, b_offset = 16384, barriers = 149040, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
