// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// sm_100a releases a stage by tcgen05.commit on its empty barrier: the
// barrier completes when the MMAs issued so far (those reading the stage)
// are done. Four stages, empty barriers from 196640.

// CHECK-LABEL: llvm.func @release(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[ST:.*]] = arith.remui %[[G]], %c4_i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[ST]], %c8_i32
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[OFF]], %c196640_i32
// CHECK-NEXT: %[[BAR:.*]] = llvm.getelementptr %[[S]][%[[AT]]]
// CHECK-NEXT: nvvm.tcgen05.commit %[[BAR]] : !llvm.ptr<3>
// CHECK-NOT: mbarrier.arrive
gpu.module @k1 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @release(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.stage_release %g, %s {cluster_size = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    llvm.return
  }
}

// -----

// One stage of a 128x256x64 f16 tile: four tcgen05.mma of K = 16, the
// descriptors' address fields 32 bytes (2 units) apart, the upper bits
// 0x4000404000010000 (Isa.h tcgen05_desc: leading 16 B, stride 1024 B,
// version 1, 128-byte swizzle mode 2), the instruction descriptor
// 0x08400010 = 138412048 (f32 D, f16 A and B, K-major, N = 256, M = 128).
// Only the first takes the caller's accumulate flag; the others add.

// CHECK-LABEL: llvm.func @mma(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %[[A:[a-z0-9]*]]: !llvm.ptr<3>, %[[B:[a-z0-9]*]]: !llvm.ptr<3>, %[[FIRST:[a-z0-9]*]]: i1)
// CHECK-DAG: %[[UPPER:.*]] = arith.constant 4611756662049538048 : i64
// CHECK-DAG: %[[IDESC:.*]] = arith.constant 138412048 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr<3> to i32
// CHECK-NEXT: %[[AS:.*]] = arith.shrui %[[AI]], %c4_i32
// CHECK-NEXT: %[[AF:.*]] = arith.andi %[[AS]], %c16383_i32
// CHECK: %[[BF:.*]] = arith.andi %{{.*}}, %c16383_i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[D:.*]] = llvm.inttoptr %[[ACC]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[B0:.*]] = arith.extui %[[BF]] : i32 to i64
// CHECK-NEXT: %[[DB0:.*]] = arith.ori %[[B0]], %[[UPPER]]
// CHECK-NEXT: %[[A0:.*]] = arith.extui %[[AF]] : i32 to i64
// CHECK-NEXT: %[[DA0:.*]] = arith.ori %[[A0]], %[[UPPER]]
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[DA0]], %[[DB0]], %[[IDESC]], %[[FIRST]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-NEXT: %[[B1:.*]] = arith.addi %[[BF]], %c2_i32
// CHECK: %[[A1:.*]] = arith.addi %[[AF]], %c2_i32
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]]
// CHECK: arith.addi %[[BF]], %c4_i32
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]]
// CHECK: arith.addi %[[BF]], %c6_i32
// CHECK: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[TRUE]]
// CHECK-NOT: nvvm.tcgen05.mma
gpu.module @k2 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @mma(%acc: i32, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>, %first: i1) {
    gemmc.mma_issue %acc, %a, %b, %first {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// Tensor memory and the accumulator ring (two buffers, barriers at 196672:
// full 196672 + 8 t%2, empty 196688 + 8 t%2): alloc + relinquish, then the
// base read after the CTA barrier (fences on both sides); the MMA thread
// commits to the full barrier; an epilogue thread fences and arrives on the
// empty one; tcgen05.ld of 32 columns at the warp's 32 lanes (lane field
// 32 (warp % 4) << 16 = 2097152 per warp) and its wait; dealloc.

// CHECK-LABEL: llvm.func @accs(
// CHECK-SAME: %[[T:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: nvvm.tcgen05.alloc %[[SLOT]], %c512_i32 : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[BASE:.*]] = llvm.load %[[SLOT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
// CHECK-NEXT: %[[BUF:.*]] = arith.remui %[[T]], %c2_i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[BUF]], %c8_i32
// CHECK-NEXT: %[[FA:.*]] = arith.addi %[[OFF]], %c196672_i32
// CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[S]][%[[FA]]]
// CHECK-NEXT: nvvm.tcgen05.commit %[[FULL]] : !llvm.ptr<3>
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: %[[EA:.*]] = arith.addi %[[OFF]], %c196688_i32
// CHECK-NEXT: %[[EMPTY:.*]] = llvm.getelementptr %[[S]][%[[EA]]]
// CHECK-NEXT: nvvm.mbarrier.arrive %[[EMPTY]] : !llvm.ptr<3>
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32
// CHECK-NEXT: %[[Q:.*]] = arith.remui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[LANES:.*]] = arith.muli %[[Q]], %c2097152_i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[BASE]], %[[LANES]]
// CHECK-NEXT: %[[TP:.*]] = llvm.inttoptr %[[AT]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[RAW:.*]] = nvvm.tcgen05.ld %[[TP]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[V:.*]] = llvm.bitcast %[[RAW]] : vector<32xi32> to vector<32xf32>
// CHECK-NEXT: llvm.store %[[V]]
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[FP:.*]] = llvm.inttoptr %[[BASE]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.dealloc %[[FP]], %c512_i32 : !llvm.ptr<6>, i32
gpu.module @k3 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @accs(%t: i32, %s: !llvm.ptr<3>, %slot: !llvm.ptr<3>) {
    gemmc.acc_alloc %slot {columns = 512 : i64} : !llvm.ptr<3>
    %base = gemmc.acc_base %slot : !llvm.ptr<3>
    gemmc.acc_ready %t, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 196672, align = 1024, swizzle = 0>} : !llvm.ptr<3>
    gemmc.acc_release %t, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 196672, align = 1024, swizzle = 0>} : !llvm.ptr<3>
    %v = gemmc.acc_load %base {count = 32 : i64} : vector<32xf32>
    %out = llvm.mlir.addressof @out : !llvm.ptr<3>
    llvm.store %v, %out : vector<32xf32>, !llvm.ptr<3>
    gemmc.acc_free %base {columns = 512 : i64}
    llvm.return
  }
  llvm.mlir.global internal @out() {addr_space = 3 : i32} : vector<32xf32>
}
