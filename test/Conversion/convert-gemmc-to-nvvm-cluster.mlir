// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// Clusters along N (issue 16) fill a stage with A multicast: 128x256x64 bf16
// tiles, 4 stages of 49152 bytes (A 16384, B from 16384), full barriers
// from 196608. Every CTA still expects the whole stage (49152 bytes): its
// peers' multicast loads land on its own full barrier.

// [1, 2]: the pair shares A. Rank r (its column) loads A rows m0 + 64 r
// (half of the 128-row box) into offset 64 x 128 B x r of both CTAs (mask
// 0b11); B is its own, not multicast, at n0 (the scheduler's column).
// CHECK-LABEL: llvm.func @fill_1x2(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c49152_i32 : !llvm.ptr<3>, i32
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[KT]], %c64_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[ROWS:.*]] = arith.muli %[[RANK]], %c64_i32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[M0]], %[[ROWS]] : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[RANK]], %c8192_i32 : i32
// CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]]
// CHECK-NEXT: %[[DSTC:.*]] = llvm.addrspacecast %[[DST]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[TA]], %[[FULL]], box[%[[K0]], %[[ROW]]] multicast_mask = %c3_i16
// CHECK-NEXT: %[[BB:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-NEXT: %[[BBC:.*]] = llvm.addrspacecast %[[BB]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BBC]], %[[TB]], %[[FULL]], box[%[[K0]], %[[N0]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: llvm.return
gpu.module @fill_1x2 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fill_1x2(%g: i32, %m0: i32, %n0: i32, %kt: i32, %ta: !llvm.ptr, %tb: !llvm.ptr, %s: !llvm.ptr<3>) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 2], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// [2, 2], B col-major: rank r is at (r % 2, r / 2). A goes to its cluster
// row (ranks r % 2 and r % 2 + 2: mask 0b0101 << (r % 2)), rows m0 + 64 x
// (r / 2) at 8192 x (r / 2); B to its cluster column (ranks 2 (r / 2) and
// 2 (r / 2) + 1: mask 0b11 << 2 (r / 2)), rows n0 + 128 x (r % 2) of the
// 256-row box at 16384 + 16384 x (r % 2).
// CHECK-LABEL: llvm.func @fill_2x2(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL:.*]], %c49152_i32 : !llvm.ptr<3>, i32
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[S]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[KT]], %c64_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[CM:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK-NEXT: %[[CN:.*]] = arith.divui %[[RANK]], %c2_i32 : i32
// CHECK-NEXT: %[[AMASK:.*]] = arith.shli %c5_i32, %[[CM]] : i32
// CHECK-NEXT: %[[AMASK16:.*]] = arith.trunci %[[AMASK]] : i32 to i16
// CHECK-NEXT: %[[AROWS:.*]] = arith.muli %[[CN]], %c64_i32 : i32
// CHECK-NEXT: %[[AROW:.*]] = arith.addi %[[M0]], %[[AROWS]] : i32
// CHECK-NEXT: %[[AOFF:.*]] = arith.muli %[[CN]], %c8192_i32 : i32
// CHECK-NEXT: %[[ADST:.*]] = llvm.getelementptr %[[BASE]][%[[AOFF]]]
// CHECK-NEXT: %[[ADSTC:.*]] = llvm.addrspacecast %[[ADST]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[ADSTC]], %[[TA]], %[[FULL]], box[%[[K0]], %[[AROW]]] multicast_mask = %[[AMASK16]]
// CHECK-NEXT: %[[BB:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-NEXT: %[[SH:.*]] = arith.muli %[[CN]], %c2_i32 : i32
// CHECK-NEXT: %[[BMASK:.*]] = arith.shli %c3_i32, %[[SH]] : i32
// CHECK-NEXT: %[[BMASK16:.*]] = arith.trunci %[[BMASK]] : i32 to i16
// CHECK-NEXT: %[[BOFF:.*]] = arith.muli %[[CM]], %c16384_i32 : i32
// CHECK-NEXT: %[[BDST:.*]] = llvm.getelementptr %[[BB]][%[[BOFF]]]
// CHECK-NEXT: %[[BROWS:.*]] = arith.muli %[[CM]], %c128_i32 : i32
// CHECK-NEXT: %[[BROW:.*]] = arith.addi %[[N0]], %[[BROWS]] : i32
// CHECK-NEXT: %[[BDSTC:.*]] = llvm.addrspacecast %[[BDST]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BDSTC]], %[[TB]], %[[FULL]], box[%[[K0]], %[[BROW]]] multicast_mask = %[[BMASK16]]
// CHECK-NEXT: llvm.return
gpu.module @fill_2x2 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fill_2x2(%g: i32, %m0: i32, %n0: i32, %kt: i32, %ta: !llvm.ptr, %tb: !llvm.ptr, %s: !llvm.ptr<3>) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 2], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// [2, 2], B row-major: B comes in four 64-column slabs of 8192 bytes;
// rank r loads slabs 2 (r % 2) and 2 (r % 2) + 1 (columns n0 + 64 x slab)
// into its cluster column, at 16384 + 16384 x (r % 2) and 8192 further.
// CHECK-LABEL: llvm.func @fill_2x2_nn(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[K0:.*]] = arith.muli %[[KT]], %c64_i32 : i32
// CHECK: %[[CM:.*]] = arith.remui %{{.*}}, %c2_i32 : i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %[[FULL:.*]], box[%[[K0]], %{{.*}}] multicast_mask = %{{.*}}
// CHECK: %[[BMASK16:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK-NEXT: %[[BOFF:.*]] = arith.muli %[[CM]], %c16384_i32 : i32
// CHECK-NEXT: %[[BDST:.*]] = llvm.getelementptr %{{.*}}[%[[BOFF]]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[CM]], %c2_i32 : i32
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %[[CM]], %c128_i32 : i32
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[N0]], %[[COLS]] : i32
// CHECK-NEXT: %[[BDSTC:.*]] = llvm.addrspacecast %[[BDST]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BDSTC]], %[[TB]], %[[FULL]], box[%[[COL]], %[[K0]]] multicast_mask = %[[BMASK16]]
// CHECK-NEXT: %[[SECOND:.*]] = arith.addi %[[FIRST]], %c1_i32 : i32
// CHECK-NEXT: %[[COLS2:.*]] = arith.muli %[[SECOND]], %c64_i32 : i32
// CHECK-NEXT: %[[COL2:.*]] = arith.addi %[[N0]], %[[COLS2]] : i32
// CHECK-NEXT: %[[BDST2:.*]] = llvm.getelementptr %[[BDST]][8192]
// CHECK-NEXT: %[[BDST2C:.*]] = llvm.addrspacecast %[[BDST2]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BDST2C]], %[[TB]], %[[FULL]], box[%[[COL2]], %[[K0]]] multicast_mask = %[[BMASK16]]
// CHECK-NEXT: llvm.return
gpu.module @fill_2x2_nn [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fill_2x2_nn(%g: i32, %m0: i32, %n0: i32, %kt: i32, %ta: !llvm.ptr, %tb: !llvm.ptr, %s: !llvm.ptr<3>) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 2], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// sm_100a, seed 004's step 6 (a 2x2 multicast cluster of cta_group::1
// CTAs): the MMA thread releases stage load % 4 in all four CTAs (their
// producers write into it), one tcgen05.commit multicast with mask 0b1111
// on the empty barrier at 229376 + 4 x 8 + 8 x stage.
// CHECK-LABEL: llvm.func @release_2x2(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[ST:.*]] = arith.remui %[[G]], %c4_i32 : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[ST]], %c8_i32 : i32
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[OFF]], %c229408_i32 : i32
// CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %[[S]][%[[AT]]]
// CHECK-NEXT: nvvm.tcgen05.commit %[[EMPTY]], multicast_mask = %c15_i16 : !llvm.ptr<3>, i16
// CHECK-NEXT: llvm.return
gpu.module @release_2x2 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @release_2x2(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.stage_release %g, %s {cluster_size = 4 : i64, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 229376, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    llvm.return
  }
}
