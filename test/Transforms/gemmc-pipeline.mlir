// RUN: gemmc-opt %s --split-input-file --gemmc-pipeline --canonicalize --cse | FileCheck %s

// multistage, two stages of 24 KiB, B row-major in two 64-column slabs,
// one warpgroup (so an empty barrier waits for one release). Loads are numbered across the CTA's tiles (g): load g uses
// stage g % 2, waits for empty[g % 2] with parity (g / 2 + 1) & 1 once the
// ring has gone round, and is consumed with full parity (g / 2) & 1.

// CHECK-LABEL: llvm.func @multistage(
// CHECK-SAME: %[[TA:[a-z0-9]*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[TB:[a-z0-9]*]]: !llvm.ptr {
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[THREAD0:.*]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: scf.if %[[THREAD0]] {
// CHECK: %[[FULL0:.*]] = llvm.getelementptr %[[S]][49152] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.mbarrier.init %[[FULL0]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: %[[EMPTY0:.*]] = llvm.getelementptr %[[S]][49168] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.mbarrier.init %[[EMPTY0]], %c1_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// The CTA's tiles, numbered in grouped raster order (groups of 8 along M).
// CHECK: %[[TILES:.*]] = arith.muli
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES]] step %[[STEP]] iter_args(%[[G:.*]] = %c0_i32) -> (i32)
// CHECK: arith.divui %[[T]],
// CHECK: %[[M0:.*]] = arith.muli %{{.*}}, %c64_i32 : i32
// CHECK-NEXT: %[[N0:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// Thread 0 loads the tile's first two steps.
// CHECK: scf.if %[[THREAD0]] {
// CHECK: %[[ST:.*]] = arith.remui %[[G]], %c2_i32 : i32
// CHECK: %[[ROUND:.*]] = arith.cmpi uge, %[[G]], %c2_i32 : i32
// CHECK: scf.if %[[ROUND]] {
// CHECK: %[[Q:.*]] = arith.divui %[[G]], %c2_i32 : i32
// CHECK: %[[Q1:.*]] = arith.addi %[[Q]], %c1_i32 : i32
// CHECK: %[[EPAR:.*]] = arith.andi %[[Q1]], %c1_i32 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[EPAR]], %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %{{.*}}, box[%c0_i32, %[[M0]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %{{.*}}, box[%[[N0]], %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// CHECK: %[[N64:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TB]], %{{.*}}, box[%[[N64]], %c0_i32] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %{{.*}}, box[%c64_i32, %[[M0]]]
// The K loop.
// CHECK: scf.for %[[KT:.*]] = %c0_i32 to %[[KTILES:.*]] step %c1_i32 iter_args(%[[ACC:.*]] = %{{.*}}) -> (!llvm.struct<(f32,
// CHECK: %[[GK:.*]] = arith.addi %[[G]], %[[KT]] : i32
// CHECK: %[[GQ:.*]] = arith.divui %[[GK]], %c2_i32 : i32
// CHECK: %[[FPAR:.*]] = arith.andi %[[GQ]], %c1_i32 : i32
// CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[FPAR]], %c10000000_i32 : !llvm.ptr<3>, i32, i32
// CHECK: %[[NEXT:.*]] = gemmc.mma_stage %[[ACC]], %{{.*}}, %{{.*}} {schedule = #gemmc.schedule<{{.*}}>}
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// The warpgroup's first thread releases the previous step's stage.
// CHECK: %[[INWG:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK: %[[FIRSTOFWG:.*]] = arith.cmpi eq, %[[INWG]], %c0_i32 : i32
// CHECK: scf.if %[[FIRSTOFWG]] {
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32
// CHECK-COUNT-3: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.yield %[[NEXT]]
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The next tile starts at load g + K tiles; this tile's last stage is
// released before the epilogue.
// CHECK-NEXT: %[[GNEXT:.*]] = arith.addi %[[G]], %[[KTILES]] : i32
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: gemmc.epilogue %{{.*}}, %{{.*}}, %[[M0]], %[[N0]], %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}})
// CHECK-NEXT: scf.yield %[[GNEXT]] : i32
gpu.module @k1 {
  llvm.func @multistage(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// warp_specialized_cooperative, 128x256x64, four stages: warpgroups 0 and 1
// consume (empty barriers count their two releases) after raising their
// registers to 232; warpgroup 2 lowers its registers to 40 and its first
// thread (thread 256) issues every load.

// CHECK-LABEL: llvm.func @cooperative(
// CHECK: nvvm.mbarrier.init %{{.*}}, %c2_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.barrier0
// CHECK: %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID:.*]], %c256_i32 : i32
// CHECK: scf.if %[[PRODUCER]] {
// CHECK-NEXT: nvvm.setmaxregister decrease 40
// CHECK: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c256_i32 : i32
// CHECK: scf.if %[[ISSUER]] {
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: gemmc.mma_stage
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister increase 232
// CHECK: scf.for
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: gemmc.mma_stage
// CHECK-NOT: nvvm.cp.async.bulk.tensor
// CHECK: gemmc.epilogue
gpu.module @k2 {
  llvm.func @cooperative(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// A cluster of two CTAs along M sharing B: each empty barrier waits for the
// two consumer warpgroups of both CTAs (4 releases); a cluster barrier
// follows initialization and ends the kernel; each CTA loads its own A and
// half of B (128 of the 256 rows, at n0 + 128 x rank) multicast to both
// CTAs (mask 0b11), while the full barrier expects the whole stage; a
// warpgroup releases a stage on both CTAs' empty barriers (mapa to rank 0
// and 1), at CTA scope. The tile's rows depend on the CTA's rank.

// CHECK-LABEL: llvm.func @multicast(
// CHECK: nvvm.mbarrier.init %{{.*}}, %c4_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: arith.muli %[[RANK]], %c128_i32 : i32
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c49152_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}] multicast_mask = %c3_i16 : !llvm.ptr<7>, !llvm.ptr
// CHECK: gemmc.mma_stage
// CHECK: %[[R0:.*]] = nvvm.mapa %[[EMPTY:.*]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[R0]] : !llvm.ptr<7>
// CHECK-NEXT: %[[R1:.*]] = nvvm.mapa %[[EMPTY]], %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[R1]] : !llvm.ptr<7>
// CHECK: gemmc.epilogue
// CHECK: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: llvm.return
gpu.module @k3 {
  llvm.func @multicast(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
