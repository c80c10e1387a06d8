// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// sm_80 (load: cp_async), two stages: no ring barriers; every thread fills.
// A tile's one prologue load (stages - 1), the wait for it, then the first
// k step's fragments. The piece is K tiles [kBegin, kEnd) of the tile
// (all of them but under stream_k); the loop runs over the K tile j, load
// g - kBegin + j. Each K tile j refills with that load + 1 (K tile j + 1),
// reads k step 1's fragments, multiplies k step 0 with the carried ones,
// waits for the next load and reads its k step 0 (carried to the next
// tile j), then multiplies k step 1. A tile inside M and N (m0 + 64 <= M,
// n0 + 64 <= N) whose K is whole K tiles (K % 16 == 0) runs the loop
// with unchecked fills (no clip), their K tile at most the piece's last
// (kEnd - 1: the refill past it copies it again); any other tile runs it
// with clipped fills, zero-filled past K. After the loop the trailing groups are
// released and the CTA meets (the last step read the next stage), then the
// epilogue, staged through the ring's space (mmaSyncStaging: 16 warps x 8
// rows of 96 bytes fit the 16 KiB ring); one tile a CTA, so no barrier
// after it.

// CHECK-LABEL: llvm.func @sm80_tf32_tn_64x64x16(
// CHECK-SAME: %[[A:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[B:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[C:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[LDA:[a-z0-9]*]]: i32, %[[LDB:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32)
// CHECK-NOT: gemmc.ring_init
// CHECK-NOT: gemmc.cta_sync
// CHECK: %[[KT:.*]] = arith.divui %{{.*}}, %c16_i32 : i32
// CHECK: gemmc.tile_loop %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[KT]] iter(%c0_i32)
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: gemmc.stage_fill %[[G]], %[[M0]], %[[N0]], %[[KB]], %[[A]], %[[B]], %[[S:.*]] ld(%[[LDA]], %[[LDB]]) clip(%[[M]], %[[N]], %[[K]])
// CHECK-NEXT: gemmc.stage_wait %[[G]], %[[S]]
// CHECK-NEXT: %[[BASE0:.*]] = gemmc.stage_base %[[G]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 8192, b_offset = 4096, barriers = 16384, align = 16, swizzle = 64>}
// CHECK-NEXT: %[[BT0:.*]] = llvm.getelementptr %[[BASE0]][4096]
// CHECK-NEXT: %[[F0:.*]] = gemmc.mma_fragments %[[BASE0]], %[[BT0]] {k_step = 0 : i64, {{.*}}} : !llvm.ptr<3>, !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32)>
// CHECK-NEXT: %[[KR:.*]] = arith.remui %[[K]], %c16_i32 : i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.cmpi eq, %[[KR]], %c0_i32 : i32
// CHECK-NEXT: %[[NE:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK-NEXT: %[[NIN:.*]] = arith.cmpi ule, %[[NE]], %[[N]] : i32
// CHECK-NEXT: %[[ME:.*]] = arith.addi %[[M0]], %c64_i32 : i32
// CHECK-NEXT: %[[MIN:.*]] = arith.cmpi ule, %[[ME]], %[[M]] : i32
// CHECK-NEXT: %[[IN:.*]] = arith.andi %[[MIN]], %[[NIN]] : i1
// CHECK-NEXT: %[[UNCHECKED:.*]] = arith.andi %[[IN]], %[[WHOLE]] : i1
// CHECK-NEXT: %[[R:.*]] = scf.if %[[UNCHECKED]] -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>) {
// CHECK-NEXT: %[[LASTK:.*]] = arith.subi %[[KE]], %c1_i32 : i32
// CHECK-NEXT: %[[GB:.*]] = arith.subi %[[G]], %[[KB]] : i32
// CHECK-NEXT: %{{.*}}:2 = scf.for %[[J:.*]] = %[[KB]] to %[[KE]] step %c1_i32 iter_args(%[[A0:.*]] = %[[ZERO:[^,]*]], %[[F:.*]] = %[[F0]])
// CHECK-NEXT: %[[GJ:.*]] = arith.addi %[[GB]], %[[J]] : i32
// CHECK-NEXT: %[[GN:.*]] = arith.addi %[[GJ]], %c1_i32 : i32
// CHECK-NEXT: %[[KN:.*]] = arith.addi %[[J]], %c1_i32 : i32
// CHECK-NEXT: %[[KC:.*]] = arith.minui %[[KN]], %[[LASTK]] : i32
// CHECK-NEXT: gemmc.stage_fill %[[GN]], %[[M0]], %[[N0]], %[[KC]], %[[A]], %[[B]], %[[S]] ld(%[[LDA]], %[[LDB]]) {
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GJ]], %[[S]]
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[BASE]][4096]
// CHECK-NEXT: %[[F1:.*]] = gemmc.mma_fragments %[[BASE]], %[[BT]] {k_step = 1 : i64,
// CHECK-NEXT: %[[ACC1:.*]] = gemmc.mma_step %[[A0]], %[[F]] {
// CHECK-NEXT: gemmc.stage_wait %[[GN]], %[[S]]
// CHECK-NEXT: %[[BASEN:.*]] = gemmc.stage_base %[[GN]], %[[S]]
// CHECK-NEXT: %[[BTN:.*]] = llvm.getelementptr %[[BASEN]][4096]
// CHECK-NEXT: %[[FN:.*]] = gemmc.mma_fragments %[[BASEN]], %[[BTN]] {k_step = 0 : i64,
// CHECK-NEXT: %[[ACC2:.*]] = gemmc.mma_step %[[ACC1]], %[[F1]] {
// CHECK-NEXT: scf.yield %[[ACC2]], %[[FN]]
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[GB2:.*]] = arith.subi %[[G]], %[[KB]] : i32
// CHECK-NEXT: %{{.*}}:2 = scf.for %[[J2:.*]] = %[[KB]] to %[[KE]] step %c1_i32 iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[F0]])
// CHECK-NEXT: %[[GJ2:.*]] = arith.addi %[[GB2]], %[[J2]] : i32
// CHECK-NEXT: %[[GN2:.*]] = arith.addi %[[GJ2]], %c1_i32 : i32
// CHECK-NEXT: %[[KN2:.*]] = arith.addi %[[J2]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_fill %[[GN2]], %[[M0]], %[[N0]], %[[KN2]], %[[A]], %[[B]], %[[S]] ld(%[[LDA]], %[[LDB]]) clip(%[[M]], %[[N]], %[[K]])
// CHECK-COUNT-2: gemmc.mma_step
// CHECK: scf.yield
// CHECK-NOT: gemmc.mma_wait
// CHECK: %[[GE:.*]] = arith.addi %[[G]], %[[STEPS]] : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[GE]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[LAST]], %[[S]]
// CHECK-NEXT: gemmc.cta_sync
// CHECK-NEXT: gemmc.epilogue %[[R]], %[[C]], %[[M0]], %[[N0]], %[[M]], %[[N]], %[[LDC]] alpha(%[[ALPHA]]) staging(%[[S]] : !llvm.ptr<3>)
// CHECK-NEXT: gemmc.yield %[[GE]] : i32

module attributes {gemmc.arch = "sm_80", gpu.container_module} {
  gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] {
    llvm.mlir.global external @sm80_tf32_tn_64x64x16_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @sm80_tf32_tn_64x64x16(%arg0: !llvm.ptr<1> {llvm.noalias}, %arg1: !llvm.ptr<1> {llvm.noalias}, %arg2: !llvm.ptr<1> {llvm.noalias}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 512, 1, 1>, nvvm.minctasm = 1 : i32} {
      %c15_i32 = arith.constant 15 : i32
      %c-16_i32 = arith.constant -16 : i32
      %0 = llvm.mlir.addressof @sm80_tf32_tn_64x64x16_smem : !llvm.ptr<3>
      %1 = nvvm.read.ptx.sreg.ctaid.x : i32
      %2 = nvvm.read.ptx.sreg.nctaid.x : i32
      %3 = llvm.ptrtoint %0 : !llvm.ptr<3> to i32
      %4 = arith.addi %3, %c15_i32 : i32
      %5 = arith.andi %4, %c-16_i32 : i32
      %6 = arith.subi %5, %3 : i32
      %7 = llvm.getelementptr %0[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      gemmc.tile_matmul %arg0, %arg1, %arg2, %1, %2, %arg3, %arg4, %arg5, %arg6 ld(%arg7, %arg8) alpha(%arg9) smem(%7) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 8192, b_offset = 4096, barriers = 16384, align = 16, swizzle = 64>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
      llvm.return
    }
  }
}

// -----

// Three stages, f16 128x128x32 on 8 warps of 64 x 32 with two CTAs planned
// (ptxas caps a thread at 128 registers): 64 accumulators + 2 x 24
// fragment registers + 16 leave no kMmaSyncPrefetchRegs for carrying the
// next stage's fragments (mmaSyncPrefetchFits), so each K tile waits at its
// top, refills two loads ahead and multiplies the stage with mma_stage.
// After the loop a CTA barrier all the same: the epilogue stages through
// the ring, which no warp may still read and no copy may still write; the
// grid is persistent, so a second barrier after the epilogue keeps the next
// tile's fills off the staging areas.

// CHECK-LABEL: llvm.func @sm80_f16_nn_128x128x32_f32out(
// CHECK: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: gemmc.stage_fill %[[G]], %[[M0]], %[[N0]], %[[KB]],
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[KB]], %c1_i32 : i32
// CHECK-NEXT: %[[G1:.*]] = arith.addi %[[G]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_fill %[[G1]], %[[M0]], %[[N0]], %[[K1]],
// CHECK-NEXT: scf.for %[[J:.*]] = %c0_i32 to %[[STEPS]]
// CHECK-NEXT: %[[GJ:.*]] = arith.addi %[[G]], %[[J]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GJ]]
// CHECK-NEXT: %[[KJ:.*]] = arith.addi %[[KB]], %[[J]] : i32
// CHECK-NEXT: %[[KN:.*]] = arith.addi %[[KJ]], %c2_i32 : i32
// CHECK-NEXT: %[[GN:.*]] = arith.addi %[[GJ]], %c2_i32 : i32
// CHECK-NEXT: gemmc.stage_fill %[[GN]], %[[M0]], %[[N0]], %[[KN]],
// CHECK-NOT: gemmc.mma_fragments
// CHECK: gemmc.mma_stage
// CHECK: gemmc.stage_release %{{.*}}, %[[S:[0-9]+]]
// CHECK-NEXT: gemmc.cta_sync
// CHECK-NEXT: gemmc.epilogue {{.*}} beta(%{{.*}}) staging(%[[S]] : !llvm.ptr<3>)
// CHECK-NEXT: gemmc.cta_sync
// CHECK-NEXT: gemmc.yield

module attributes {gemmc.arch = "sm_80", gpu.container_module} {
  gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] {
    llvm.mlir.global external @sm80_f16_nn_128x128x32_f32out_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @sm80_f16_nn_128x128x32_f32out(%arg0: !llvm.ptr<1> {llvm.noalias}, %arg1: !llvm.ptr<1> {llvm.noalias}, %arg2: !llvm.ptr<1> {llvm.noalias}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32, %arg10: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32} {
      %c15_i32 = arith.constant 15 : i32
      %c-16_i32 = arith.constant -16 : i32
      %0 = llvm.mlir.addressof @sm80_f16_nn_128x128x32_f32out_smem : !llvm.ptr<3>
      %1 = nvvm.read.ptx.sreg.ctaid.x : i32
      %2 = nvvm.read.ptx.sreg.nctaid.x : i32
      %3 = llvm.ptrtoint %0 : !llvm.ptr<3> to i32
      %4 = arith.addi %3, %c15_i32 : i32
      %5 = arith.andi %4, %c-16_i32 : i32
      %6 = arith.subi %5, %3 : i32
      %7 = llvm.getelementptr %0[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      gemmc.tile_matmul %arg0, %arg1, %arg2, %1, %2, %arg3, %arg4, %arg5, %arg6 ld(%arg7, %arg8) alpha(%arg9) beta(%arg10) smem(%7) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "f16", a_layout = "row", b = "f16", b_layout = "row", c = "f32", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 3, threads = 256, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = true, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 16384, b_offset = 8192, barriers = 49152, align = 16, swizzle = 64>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
      llvm.return
    }
  }
}

// -----

// stream_k on sm_80: the plan gives the first split tile and the iterations
// shared out; each piece runs the K loop over its K tiles [kBegin, kEnd)
// and ends in gemmc.stream_k_fixup with every thread of the CTA (512: all
// of them multiply), whose body is the staged epilogue; the grid is not
// data-parallel, so a CTA barrier follows the fixup.

// CHECK-LABEL: llvm.func @sm80_tf32_tn_64x64x16_sk(
// CHECK: %[[KT:.*]] = arith.divui %{{.*}}, %c16_i32 : i32
// CHECK-NEXT: %[[SF:.*]], %[[SI:.*]] = gemmc.stream_k_plan %[[STEP:[0-9]+]], %arg3, %arg4, %[[KT]]
// CHECK: gemmc.tile_loop %[[FIRST:[0-9]+]], %[[STEP]], %arg3, %arg4, %[[KT]] iter(%c0_i32) split(%[[SF]], %[[SI]])
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %[[TILE:.*]]: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: scf.for %{{.*}} = %[[KB]] to %[[KE]] step %c1_i32
// CHECK: scf.for %{{.*}} = %[[KB]] to %[[KE]] step %c1_i32
// CHECK: gemmc.stage_release
// CHECK-NEXT: gemmc.cta_sync
// CHECK-NEXT: gemmc.stream_k_fixup %[[R:[0-9]+]], %[[TILE]], %[[KB]], %[[KE]], %[[FIRST]], %[[STEP]], %[[KT]], %[[SF]], %[[SI]], %arg10 attributes {{{.*}}threads = 512 : i64} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1> {
// CHECK-NEXT: ^bb0(%[[SUM:.*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>):
// CHECK-NEXT: gemmc.epilogue %[[SUM]], %arg2, %[[M0]], %[[N0]], %arg3, %arg4, %arg6 alpha(%arg9) staging(%{{[0-9]+}} : !llvm.ptr<3>)
// CHECK-NEXT: {{^ *[}]$}}
// CHECK-NEXT: gemmc.cta_sync
// CHECK-NEXT: gemmc.yield %[[GE:[0-9]+]] : i32

module attributes {gemmc.arch = "sm_80", gpu.container_module} {
  gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">] {
    llvm.mlir.global external @sm80_tf32_tn_64x64x16_sk_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    llvm.func @sm80_tf32_tn_64x64x16_sk(%arg0: !llvm.ptr<1> {llvm.noalias}, %arg1: !llvm.ptr<1> {llvm.noalias}, %arg2: !llvm.ptr<1> {llvm.noalias}, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32, %arg10: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 512, 1, 1>, nvvm.minctasm = 1 : i32} {
      %c15_i32 = arith.constant 15 : i32
      %c-16_i32 = arith.constant -16 : i32
      %0 = llvm.mlir.addressof @sm80_tf32_tn_64x64x16_sk_smem : !llvm.ptr<3>
      %1 = nvvm.read.ptx.sreg.ctaid.x : i32
      %2 = nvvm.read.ptx.sreg.nctaid.x : i32
      %3 = llvm.ptrtoint %0 : !llvm.ptr<3> to i32
      %4 = arith.addi %3, %c15_i32 : i32
      %5 = arith.andi %4, %c-16_i32 : i32
      %6 = arith.subi %5, %3 : i32
      %7 = llvm.getelementptr %0[%6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      gemmc.tile_matmul %arg0, %arg1, %arg2, %1, %2, %arg3, %arg4, %arg5, %arg6 ld(%arg7, %arg8) alpha(%arg9) workspace(%arg10 : !llvm.ptr<1>) smem(%7) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 8192, b_offset = 4096, barriers = 16384, align = 16, swizzle = 64>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
      llvm.return
    }
  }
}
