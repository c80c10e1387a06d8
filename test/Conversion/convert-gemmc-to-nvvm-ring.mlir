// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// sm_90a ring: two stages, barriers at 49152: full[0] 49152, full[1] 49160,
// empty[0] 49168, empty[1] 49176. Each full barrier is armed by one
// producer, each empty one by `empty_arrivals` = 2 releases.

// CHECK-LABEL: llvm.func @ring_init(
// CHECK-SAME: %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[S]][49152]
// CHECK-NEXT: nvvm.mbarrier.init %[[F0]], %c1_i32
// CHECK-NEXT: %[[E0:.*]] = llvm.getelementptr %[[S]][49168]
// CHECK-NEXT: nvvm.mbarrier.init %[[E0]], %c2_i32
// CHECK-NEXT: %[[F1:.*]] = llvm.getelementptr %[[S]][49160]
// CHECK-NEXT: nvvm.mbarrier.init %[[F1]], %c1_i32
// CHECK-NEXT: %[[E1:.*]] = llvm.getelementptr %[[S]][49176]
// CHECK-NEXT: nvvm.mbarrier.init %[[E1]], %c2_i32
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
gpu.module @k1 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @ring_init(%s: !llvm.ptr<3>) {
    gemmc.ring_init %s {full_arrivals = 1 : i64, empty_arrivals = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    gemmc.cta_sync
    gemmc.cta_sync {cluster}
    llvm.return
  }
}

// -----

// Load g: stage g % 2; the producer waits (from g >= 2 on) for empty parity
// (g / 2 + 1) & 1, the consumer for full parity (g / 2) & 1; the stage's
// base is g % 2 x 24576. A release is one arrival per warpgroup (its thread
// 0), on every CTA of a cluster of 2 through mapa, at CTA scope.

// CHECK-LABEL: llvm.func @stage_sync(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[ST:.*]] = arith.remui %[[G]], %c2_i32 : i32
// CHECK-NEXT: %[[ROUND:.*]] = arith.cmpi uge, %[[G]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[ROUND]] {
// CHECK-NEXT: %[[Q:.*]] = arith.divui %[[G]], %c2_i32 : i32
// CHECK-NEXT: %[[Q1:.*]] = arith.addi %[[Q]], %c1_i32 : i32
// CHECK-NEXT: %[[EP:.*]] = arith.andi %[[Q1]], %c1_i32 : i32
// CHECK-NEXT: %[[EOFF0:.*]] = arith.muli %[[ST]], %c8_i32 : i32
// CHECK-NEXT: %[[EOFF:.*]] = arith.addi %[[EOFF0]], %c49168_i32 : i32
// CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %[[S]][%[[EOFF]]]
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[EMPTY]], %[[EP]], %c10000000_i32
// CHECK: }
// CHECK-NEXT: %[[FQ:.*]] = arith.divui %[[G]], %c2_i32 : i32
// CHECK-NEXT: %[[FP:.*]] = arith.andi %[[FQ]], %c1_i32 : i32
// CHECK-NEXT: %[[FOFF0:.*]] = arith.muli %[[ST]], %c8_i32 : i32
// CHECK-NEXT: %[[FOFF:.*]] = arith.addi %[[FOFF0]], %c49152_i32 : i32
// CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[S]][%[[FOFF]]]
// CHECK-NEXT: nvvm.mbarrier.try_wait.parity %[[FULL]], %[[FP]], %c10000000_i32
// CHECK-NEXT: %[[BOFF:.*]] = arith.muli %[[ST]], %c24576_i32 : i32
// CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %[[S]][%[[BOFF]]]
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[INWG:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[INWG]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: %[[EOFF1:.*]] = arith.addi %[[FOFF0]], %c49168_i32 : i32
// CHECK-NEXT: %[[E:.*]] = llvm.getelementptr %[[S]][%[[EOFF1]]]
// CHECK-NEXT: %[[R0:.*]] = nvvm.mapa %[[E]], %c0_i32
// CHECK-NEXT: nvvm.mbarrier.arrive %[[R0]] : !llvm.ptr<7>
// CHECK-NEXT: %[[R1:.*]] = nvvm.mapa %[[E]], %c1_i32
// CHECK-NEXT: nvvm.mbarrier.arrive %[[R1]] : !llvm.ptr<7>
// CHECK: llvm.return %[[BASE]]
gpu.module @k2 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @stage_sync(%g: i32, %s: !llvm.ptr<3>) -> !llvm.ptr<3> {
    gemmc.stage_acquire %g, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    gemmc.stage_wait %g, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    %b = gemmc.stage_base %g, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3> -> !llvm.ptr<3>
    gemmc.stage_release %g, %s {cluster_size = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    llvm.return %b : !llvm.ptr<3>
  }
}

// -----

// The epilogue's asynchronous stores, role registers and named barriers.

// CHECK-LABEL: llvm.func @stores(
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.global.shared.cta %arg0, %arg1, box[%arg2, %arg3]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0{{$}}
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK-NEXT: nvvm.barrier id = %arg2 number_of_threads = %arg3
// CHECK-NEXT: nvvm.barrier.arrive id = %arg2 number_of_threads = %arg3
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
gpu.module @k3 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @stores(%tmap: !llvm.ptr, %buf: !llvm.ptr<3>, %x: i32, %y: i32) {
    gemmc.store_drain 1 {read}
    gemmc.shared_fence
    gemmc.store_tile %tmap, %buf, %x, %y : !llvm.ptr, !llvm.ptr<3>
    gemmc.store_drain 0
    gemmc.set_max_registers 40
    gemmc.set_max_registers 232 {increase}
    gemmc.named_barrier %x, %y
    gemmc.named_barrier %x, %y {arrive}
    gemmc.mma_wait 1
    llvm.return
  }
}

// -----

// A stage's fill on sm_90a: the full barrier of stage g % 2 expects the
// stage's bytes, (64 x 2 + 128 x 2) x 64 = 24576 (A 64x64 and B 64x128
// bf16; TMA delivers whole boxes), then A's box at (k0, m0) = (64 kt, m0)
// and B's two 64-column slabs at (n0, k0) and (n0 + 64, k0), into B's
// place 8192 bytes into the stage.

// CHECK-LABEL: llvm.func @fill(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c24576_i32 : !llvm.ptr<3>, i32
// CHECK: %[[K0:.*]] = arith.muli %[[KT]], %c64_i32 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %[[FULL]], box[%[[K0]], %[[M0]]]
// CHECK: llvm.getelementptr %{{.*}}[8192]
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %[[FULL]], box[%[[N0]], %[[K0]]]
// CHECK: %[[N64:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %[[FULL]], box[%[[N64]], %[[K0]]]
gpu.module @k4 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fill(%g: i32, %m0: i32, %n0: i32, %kt: i32, %ta: !llvm.ptr, %tb: !llvm.ptr, %s: !llvm.ptr<3>) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}
