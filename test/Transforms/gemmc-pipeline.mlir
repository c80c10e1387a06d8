// RUN: gemmc-opt %s --gemmc-pipeline --canonicalize --cse | FileCheck %s

// Two stages of 24 KiB, B row-major in two 64-column slabs, one warpgroup:
// barrier initialization, the prologue, and the K loop's wait / multiply /
// release / refill, then the epilogue.

// CHECK-LABEL: llvm.func @gemm_nn(
// CHECK-SAME: %[[TA:[a-z0-9]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[TB:[a-z0-9]*]]: !llvm.ptr {
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[PRODUCER:.*]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: scf.if %[[PRODUCER]] {
// CHECK: %[[FULL0:.*]] = llvm.getelementptr %[[S:.*]][49152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.mbarrier.init %[[FULL0]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: %[[EMPTY0:.*]] = llvm.getelementptr %[[S]][49168] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.mbarrier.init %[[EMPTY0]], %c128_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// Prologue, stage 0: A at (k0 = 0, m0), then B's two slabs at (n0, 0) and (n0 + 64, 0).
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %{{.*}}, box[%c0_i32, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %{{.*}}, box[%[[N0:.*]], %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[N64:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %{{.*}}, box[%[[N64]], %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// Prologue, stage 1: K offset 64.
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %{{.*}}, box[%c64_i32, %{{.*}}]
// CHECK: scf.for %[[KT:.*]] = %c0_i32 to %{{.*}} step %c1_i32 iter_args(%[[ACC:.*]] = %{{.*}}) -> (!llvm.struct<(f32,
// CHECK: %[[STAGE:.*]] = arith.remui %[[KT]], %c2_i32 : i32
// CHECK: %[[ROUND:.*]] = arith.divui %[[KT]], %c2_i32 : i32
// CHECK: %[[PARITY:.*]] = arith.andi %[[ROUND]], %c1_i32 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK: %[[NEXT:.*]] = gemmc.mma_stage %[[ACC]], %{{.*}}, %{{.*}} {schedule = #gemmc.schedule<{{.*}}>}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.yield %[[NEXT]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gemmc.epilogue %{{.*}}, %{{.*}}, %{{.*}}, %[[N0]], %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}})
gpu.module @k {
  llvm.func @gemm_nn(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    %m0 = arith.constant 0 : i32
    %n0 = llvm.mlir.poison : i32
    gemmc.tile_matmul %ta, %tb, %c, %m0, %n0, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
