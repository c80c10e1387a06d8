// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// promotion_interval = 4, e4m3 128x128x128 cooperative: a consumer's K
// steps (k_end - k_begin) run in ceil(steps / 4) rounds carrying the f32
// sum, from the zero accumulator; round r runs min(4, steps - 4r) steps of
// the usual body (global step 4r + j: stage wait, mma_stage, mma_wait 1,
// release of the step before) into a fresh accumulator that also starts
// at zero, then waits for every MMA group and adds it into the sum
// (gemmc.mma_promote). The epilogue stores the sum.

// CHECK-LABEL: llvm.func @promoted(
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: %[[UP:.*]] = arith.addi %[[STEPS]], %c3_i32 : i32
// CHECK-NEXT: %[[ROUNDS:.*]] = arith.divui %[[UP]], %c4_i32 : i32
// CHECK-NEXT: %[[SUM:.*]] = scf.for %[[R:.*]] = %c0_i32 to %[[ROUNDS]] step %c1_i32 iter_args(%[[SUMIN:.*]] = %[[ZERO]])
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[R]], %c4_i32 : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[STEPS]], %[[FIRST]] : i32
// CHECK-NEXT: %[[COUNT:.*]] = arith.minui %[[LEFT]], %c4_i32 : i32
// CHECK-NEXT: %[[PART:.*]] = scf.for %[[J:.*]] = %c0_i32 to %[[COUNT]] step %c1_i32 iter_args(%[[ACC:.*]] = %[[ZERO]])
// CHECK-NEXT: %[[STEP:.*]] = arith.addi %[[FIRST]], %[[J]] : i32
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[STEP]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]]
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GS]]
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%{{.*}}]
// CHECK-NEXT: %[[NEXT:.*]] = gemmc.mma_stage %[[ACC]], %[[AT]], %[[BT]]
// CHECK-NEXT: gemmc.mma_wait 1
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ugt, %[[STEP]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[GS]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[PREV]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: scf.yield %[[NEXT]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[SUMOUT:.*]] = gemmc.mma_promote %[[SUMIN]], %[[PART]] : !llvm.struct<(f32,
// CHECK-NEXT: scf.yield %[[SUMOUT]]
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[GEND:.*]] = arith.addi %[[G]], %[[STEPS]] : i32
// CHECK-NEXT: %[[GLAST:.*]] = arith.subi %[[GEND]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GLAST]]
// CHECK-NEXT: gemmc.epilogue %[[SUM]],
// CHECK-NOT: gemmc.mma_promote
// CHECK: llvm.return
gpu.module @k1 {
  llvm.func @promoted(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", b = "e4m3", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 4, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
