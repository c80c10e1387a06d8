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

// -----

// gemmc.acc_store (the stream-K fixup's sum written back, issue 13): the
// warp's lanes (32 (warp % 4), 2097152 = 32 << 16 in the address's lane
// field) at the given column, tcgen05.st .32x32b of the f32 bits, then
// tcgen05.wait::st so the thread's next tcgen05.ld sees it.

// CHECK-LABEL: llvm.func @acc_store(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %[[VALUES:[a-z0-9]*]]: vector<32xf32>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32
// CHECK-NEXT: %[[Q:.*]] = arith.remui %[[WARP]], %c4_i32
// CHECK-NEXT: %[[LANES:.*]] = arith.muli %[[Q]], %c2097152_i32
// CHECK-NEXT: %[[BITS:.*]] = llvm.bitcast %[[VALUES]] : vector<32xf32> to vector<32xi32>
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[ACC]], %[[LANES]]
// CHECK-NEXT: %[[TP:.*]] = llvm.inttoptr %[[AT]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.st %[[TP]], %[[BITS]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: llvm.return
gpu.module @kst [#nvvm.target<chip = "sm_100a">] {
  llvm.func @acc_store(%acc: i32, %values: vector<32xf32>) {
    gemmc.acc_store %acc, %values : vector<32xf32>
    llvm.return
  }
}

// -----

// Unswizzled (seed 004's step 3, 128x256x16 f16): one tcgen05.mma a stage
// (K = 16 is the whole BLOCK_K). The tiles come in 16-byte slabs of K, so
// the descriptors' leading offset is the slab distance and the stride one
// 128-byte core matrix, mode 0 (Isa.h tcgen05_desc::kMajorOffsets): A
// 0x4008'0080'0000 = 70403112304640 (slabs of 2048 B), B 0x4008'0100'0000 =
// 70403120693248 (4096 B).

// CHECK-LABEL: llvm.func @mma_unswizzled(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %[[A:[a-z0-9]*]]: !llvm.ptr<3>, %[[B:[a-z0-9]*]]: !llvm.ptr<3>, %[[FIRST:[a-z0-9]*]]: i1)
// CHECK-DAG: %[[UPA:.*]] = arith.constant 70403112304640 : i64
// CHECK-DAG: %[[UPB:.*]] = arith.constant 70403120693248 : i64
// CHECK-DAG: %[[IDESC:.*]] = arith.constant 138412048 : i32
// CHECK: %[[AF:.*]] = arith.andi %{{.*}}, %c16383_i32
// CHECK: %[[BF:.*]] = arith.andi %{{.*}}, %c16383_i32
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[D:.*]] = llvm.inttoptr %[[ACC]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[B0:.*]] = arith.extui %[[BF]] : i32 to i64
// CHECK-NEXT: %[[DB:.*]] = arith.ori %[[B0]], %[[UPB]]
// CHECK-NEXT: %[[A0:.*]] = arith.extui %[[AF]] : i32 to i64
// CHECK-NEXT: %[[DA:.*]] = arith.ori %[[A0]], %[[UPA]]
// CHECK-NEXT: nvvm.tcgen05.mma %[[D]], %[[DA]], %[[DB]], %[[IDESC]], %[[FIRST]] {ctaGroup = #nvvm.cta_group<cta_1>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-NOT: nvvm.tcgen05.mma
gpu.module @k4 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @mma_unswizzled(%acc: i32, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>, %first: i1) {
    gemmc.mma_issue %acc, %a, %b, %first {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 16], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "none", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// The unswizzled stage's fill (the shared TMA ring): 12288 bytes expected
// (128 x 16 + 256 x 16 f16), then each operand's two slabs, box {8, rows}:
// A's at (8 kt, m0) and (8 kt + 8, m0) into the stage and 2048 bytes on, B's
// at (8 kt, n0) and (8 kt + 8, n0) into the stage + 4096 and 4096 further.

// CHECK-LABEL: llvm.func @fill_unswizzled(
// CHECK-SAME: %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[FULL:.*]] = llvm.getelementptr %[[S]][%{{.*}}]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %c12288_i32
// CHECK: %[[BASE:.*]] = llvm.getelementptr %[[S]][%{{.*}}]
// CHECK-NEXT: %[[K0:.*]] = arith.muli %[[KT]], %c16_i32
// CHECK-NEXT: %[[A0:.*]] = llvm.addrspacecast %[[BASE]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[A0]], %[[TA]], %[[FULL]], box[%[[K0]], %[[M0]]]
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[K0]], %c8_i32
// CHECK-NEXT: %[[A1P:.*]] = llvm.getelementptr %[[BASE]][2048]
// CHECK-NEXT: %[[A1:.*]] = llvm.addrspacecast %[[A1P]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[A1]], %[[TA]], %[[FULL]], box[%[[K1]], %[[M0]]]
// CHECK-NEXT: %[[BP:.*]] = llvm.getelementptr %[[BASE]][4096]
// CHECK-NEXT: %[[B0:.*]] = llvm.addrspacecast %[[BP]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[B0]], %[[TB]], %[[FULL]], box[%[[K0]], %[[N0]]]
// CHECK-NEXT: %[[B1P:.*]] = llvm.getelementptr %[[BP]][4096]
// CHECK-NEXT: %[[B1:.*]] = llvm.addrspacecast %[[B1P]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[B1]], %[[TB]], %[[FULL]], box[%[[K1]], %[[N0]]]
// CHECK-NOT: nvvm.cp.async.bulk.tensor
gpu.module @k5 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @fill_unswizzled(%ta: !llvm.ptr, %tb: !llvm.ptr, %g: i32, %m0: i32, %n0: i32, %kt: i32, %s: !llvm.ptr<3>) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 16], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "none", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 12288, b_offset = 4096, barriers = 49152, align = 1024, swizzle = 0>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// A CTA pair (seed 004's step 7: cluster [2, 1], multicast, 128 rows a CTA):
// every tcgen05 instruction takes .cta_group::2 (ptxas refuses a mix). Both
// CTAs' MMA warps allocate together. Each CTA expects its own bytes, 128 x
// 64 of A and half of B, 32768, and loads B's rows n0 + 128 rank into its
// own B tile (no multicast). The second CTA forwards the landing: an
// arrival at cluster scope on the leader's (mapa rank 0) full barrier. The
// leader issues the M = 256 MMAs (instruction descriptor 0x10400010 =
// 272629776: M >> 4 = 16 at bit 24) and commits to both CTAs' barriers
// (multicast mask 0b11): the stage's empty one, the accumulator's full one.
// Each epilogue thread releases the leader's accumulator empty barrier.

// CHECK-LABEL: llvm.func @pair(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %{{[a-z0-9]*}}: !llvm.ptr<3>, %{{[a-z0-9]*}}: !llvm.ptr<3>, %[[FIRST:[a-z0-9]*]]: i1, %[[G:[a-z0-9]*]]: i32, %[[T:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>, %[[SLOT:[a-z0-9]*]]: !llvm.ptr<3>, %[[TA:[a-z0-9]*]]: !llvm.ptr, %[[TB:[a-z0-9]*]]: !llvm.ptr, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32
// CHECK-DAG: %[[MASK:.*]] = arith.constant 3 : i16
// CHECK-DAG: %[[IDESC:.*]] = arith.constant 272629776 : i32
// CHECK: nvvm.tcgen05.alloc %[[SLOT]], %c256_i32 {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
// CHECK-NEXT: nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
// CHECK: %[[FULL:.*]] = llvm.getelementptr %[[S]][%{{.*}}]
// CHECK-NEXT: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %c32768_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TA]], %[[FULL]], box[%[[K0:.*]], %[[M0]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %{{.*}}[16384]
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[HALF:.*]] = arith.muli %[[RANK]], %c128_i32
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[N0]], %[[HALF]]
// CHECK-NEXT: %[[BD:.*]] = llvm.addrspacecast %[[BT]]
// CHECK-NEXT: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[BD]], %[[TB]], %[[FULL]], box[%[[K0]], %[[N]]] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT: %[[LFULL:.*]] = nvvm.mapa %[[FULL]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[LFULL]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK: nvvm.tcgen05.mma %[[D:.*]], %{{.*}}, %{{.*}}, %[[IDESC]], %[[FIRST]] {ctaGroup = #nvvm.cta_group<cta_2>, kind = #nvvm.tcgen05_mma_kind<f16>}
// CHECK-COUNT-3: nvvm.tcgen05.mma %[[D]], %{{.*}}, %{{.*}}, %[[IDESC]], %true {ctaGroup = #nvvm.cta_group<cta_2>,
// CHECK: %[[EMPTY:.*]] = llvm.getelementptr %[[S]][%{{.*}}]
// CHECK-NEXT: nvvm.tcgen05.commit %[[EMPTY]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NEXT: %[[AFULL:.*]] = llvm.getelementptr %[[S]][229440]
// CHECK-NEXT: nvvm.tcgen05.commit %[[AFULL]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NEXT: nvvm.tcgen05.fence <before>
// CHECK-NEXT: %[[AEMPTY:.*]] = llvm.getelementptr %[[S]][229448]
// CHECK-NEXT: %[[LEMPTY:.*]] = nvvm.mapa %[[AEMPTY]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: nvvm.mbarrier.arrive %[[LEMPTY]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: nvvm.tcgen05.dealloc %[[D]], %c256_i32 {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
gpu.module @k6 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @pair(%acc: i32, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>, %first: i1, %g: i32, %t: i32, %s: !llvm.ptr<3>, %slot: !llvm.ptr<3>, %ta: !llvm.ptr, %tb: !llvm.ptr, %m0: i32, %n0: i32, %kt: i32) {
    gemmc.acc_alloc %slot {columns = 256 : i64, ctas = 2 : i64} : !llvm.ptr<3>
    gemmc.stage_fill %g, %m0, %n0, %kt, %ta, %tb, %s {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 192, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 229376, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<3>
    gemmc.stage_forward %g, %s {smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 229376, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    gemmc.mma_issue %acc, %a, %b, %first {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 192, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr<3>, !llvm.ptr<3>
    gemmc.stage_release %g, %s {cluster_size = 2 : i64, ctas = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 229376, align = 1024, swizzle = 128>} : !llvm.ptr<3>
    gemmc.acc_ready %t, %s {ctas = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 1, stage_bytes = 0, b_offset = 0, barriers = 229440, align = 1024, swizzle = 0>} : !llvm.ptr<3>
    gemmc.acc_release %t, %s {ctas = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 1, stage_bytes = 0, b_offset = 0, barriers = 229440, align = 1024, swizzle = 0>} : !llvm.ptr<3>
    gemmc.acc_free %acc {columns = 256 : i64, ctas = 2 : i64}
    llvm.return
  }
}

// -----

// Block scaling (gemmc.acc_fold_scales, gemmc.acc_fold). The factors of a
// 128x192 tile's thread: its row is m0 + 32 (warp % 4) + lane; A's scale of
// it (clamped to M - 1) in K tile kt's plane (kt x M); three B scale slots
// of 64 columns: n0 / 128, (n0 + 64) / 128 (inside a block: its own
// division), n0 / 128 + 1, each clamped to the last block and read at
// block x align4(ceil(K / 128)) + kt; each slot's factor sa x sb.

// CHECK-LABEL: llvm.func @fold_scales(
// CHECK-SAME: %[[SA:[a-z0-9]*]]: !llvm.ptr<1>, %[[SB:[a-z0-9]*]]: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[W:.*]] = arith.divui %[[TID]], %c32_i32
// CHECK-NEXT: %[[Q:.*]] = arith.remui %[[W]], %c4_i32
// CHECK-NEXT: %[[L:.*]] = arith.remui %[[TID]], %c32_i32
// CHECK-NEXT: %[[QR:.*]] = arith.muli %[[Q]], %c32_i32
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[QR]], %[[L]]
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[M0]], %[[R]]
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extui %[[M]] : i32 to i64
// CHECK-NEXT: %[[PLANE:.*]] = arith.muli %[[KT64]], %[[M64]] : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[M]], %c1_i32
// CHECK-NEXT: %[[CR:.*]] = arith.minui %[[ROW]], %[[LAST]]
// CHECK-NEXT: %[[CR64:.*]] = arith.extui %[[CR]] : i32 to i64
// CHECK-NEXT: %[[AI:.*]] = arith.addi %[[PLANE]], %[[CR64]] : i64
// CHECK-NEXT: %[[AP:.*]] = llvm.getelementptr %[[SA]][%[[AI]]]
// CHECK-NEXT: %[[SAV:.*]] = llvm.load %[[AP]] invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[KR:.*]] = arith.addi %[[K]], %c127_i32
// CHECK-NEXT: %[[KB:.*]] = arith.divui %[[KR]], %c128_i32
// CHECK-NEXT: %[[KR4:.*]] = arith.addi %[[KB]], %c3_i32
// CHECK-NEXT: %[[KG:.*]] = arith.divui %[[KR4]], %c4_i32
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[KG]], %c4_i32
// CHECK-NEXT: %[[STRIDE64:.*]] = arith.extui %[[STRIDE]] : i32 to i64
// CHECK-NEXT: %[[NR:.*]] = arith.addi %[[N]], %c127_i32
// CHECK-NEXT: %[[NBS:.*]] = arith.divui %[[NR]], %c128_i32
// CHECK-NEXT: %[[LASTB:.*]] = arith.subi %[[NBS]], %c1_i32
// CHECK-NEXT: %[[NB:.*]] = arith.divui %[[N0]], %c128_i32
// CHECK-NEXT: %[[CB:.*]] = arith.minui %[[NB]], %[[LASTB]]
// CHECK-NEXT: %[[CB64:.*]] = arith.extui %[[CB]] : i32 to i64
// CHECK-NEXT: %[[BPL:.*]] = arith.muli %[[CB64]], %[[STRIDE64]] : i64
// CHECK-NEXT: %[[BI:.*]] = arith.addi %[[BPL]], %[[KT64]] : i64
// CHECK-NEXT: %[[BP:.*]] = llvm.getelementptr %[[SB]][%[[BI]]]
// CHECK-NEXT: %[[SB0:.*]] = llvm.load %[[BP]] invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[F0:.*]] = llvm.fmul %[[SAV]], %[[SB0]] : f32
// CHECK-NEXT: %[[S0:.*]] = llvm.insertvalue %[[F0]], %{{.*}}[0]
// CHECK-NEXT: %[[C1:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK-NEXT: %[[B1:.*]] = arith.divui %[[C1]], %c128_i32 : i32
// CHECK-NEXT: %[[CB1:.*]] = arith.minui %[[B1]], %[[LASTB]]
// CHECK: %[[SB1:.*]] = llvm.load
// CHECK-NEXT: %[[F1:.*]] = llvm.fmul %[[SAV]], %[[SB1]] : f32
// CHECK-NEXT: %[[S1:.*]] = llvm.insertvalue %[[F1]], %[[S0]][1]
// CHECK-NEXT: %[[B2:.*]] = arith.addi %[[NB]], %c1_i32 : i32
// CHECK-NEXT: %[[CB2:.*]] = arith.minui %[[B2]], %[[LASTB]]
// CHECK: %[[SB2:.*]] = llvm.load
// CHECK-NEXT: %[[F2:.*]] = llvm.fmul %[[SAV]], %[[SB2]] : f32
// CHECK-NEXT: %[[S2:.*]] = llvm.insertvalue %[[F2]], %[[S1]][2]
// CHECK-NEXT: llvm.return %[[S2]]

// The fold of a 128x64 tile (one slot), two chunks of 32 columns (the lane
// field 32 (warp % 4) << 16 = 2097152 a warp): the first K tile (`first`)
// reads only the partial and writes part x factor; the others read the
// partial's and the sum's chunk with one wait, and write fma(part, factor,
// sum). One wait::st at the end.

// CHECK-LABEL: llvm.func @fold_first(
// CHECK-SAME: %[[SUM:[a-z0-9]*]]: i32, %[[PART:[a-z0-9]*]]: i32, %[[FS:[a-z0-9]*]]: !llvm.struct<(f32)>)
// CHECK: %[[Q:.*]] = arith.remui %{{.*}}, %c4_i32
// CHECK-NEXT: %[[LANES:.*]] = arith.muli %[[Q]], %c2097152_i32
// CHECK-NEXT: %[[F:.*]] = llvm.extractvalue %[[FS]][0]
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[P0A:.*]] = arith.addi %[[PART]], %[[LANES]]
// CHECK-NEXT: %[[P0P:.*]] = llvm.inttoptr %[[P0A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[P0:.*]] = nvvm.tcgen05.ld %[[P0P]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[P0F:.*]] = llvm.bitcast %[[P0]] : vector<32xi32> to vector<32xf32>
// CHECK-NEXT: %[[X0:.*]] = llvm.extractelement %[[P0F]][%c0_i32 : i32] : vector<32xf32>
// CHECK-NEXT: %[[Y0:.*]] = llvm.fmul %[[X0]], %[[F]] : f32
// CHECK-NEXT: llvm.insertelement %[[Y0]]
// CHECK-COUNT-31: llvm.fmul %{{.*}}, %[[F]] : f32
// CHECK: %[[S0A:.*]] = arith.addi %[[SUM]], %[[LANES]]
// CHECK-NEXT: %[[S0P:.*]] = llvm.inttoptr %[[S0A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.st %[[S0P]], %{{.*}} {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
// CHECK-NEXT: %[[P1C:.*]] = arith.addi %[[PART]], %c32_i32
// CHECK-NEXT: %[[S1C:.*]] = arith.addi %[[SUM]], %c32_i32
// CHECK-NEXT: %[[P1A:.*]] = arith.addi %[[P1C]], %[[LANES]]
// CHECK-NEXT: %[[P1P:.*]] = llvm.inttoptr %[[P1A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.ld %[[P1P]]
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-32: llvm.fmul %{{.*}}, %[[F]] : f32
// CHECK: %[[S1A:.*]] = arith.addi %[[S1C]], %[[LANES]]
// CHECK-NEXT: %[[S1P:.*]] = llvm.inttoptr %[[S1A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: nvvm.tcgen05.st %[[S1P]]
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: llvm.return

// CHECK-LABEL: llvm.func @fold(
// CHECK-SAME: %[[SUM:[a-z0-9]*]]: i32, %[[PART:[a-z0-9]*]]: i32, %[[FS:[a-z0-9]*]]: !llvm.struct<(f32)>)
// CHECK: %[[F:.*]] = llvm.extractvalue %[[FS]][0]
// CHECK-NEXT: nvvm.tcgen05.fence <after>
// CHECK-NEXT: %[[P0A:.*]] = arith.addi %[[PART]], %[[LANES:.*]] : i32
// CHECK-NEXT: %[[P0P:.*]] = llvm.inttoptr %[[P0A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[P0:.*]] = nvvm.tcgen05.ld %[[P0P]]
// CHECK-NEXT: %[[S0A:.*]] = arith.addi %[[SUM]], %[[LANES]] : i32
// CHECK-NEXT: %[[S0P:.*]] = llvm.inttoptr %[[S0A]] : i32 to !llvm.ptr<6>
// CHECK-NEXT: %[[S0:.*]] = nvvm.tcgen05.ld %[[S0P]]
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-NEXT: %[[P0F:.*]] = llvm.bitcast %[[P0]] : vector<32xi32> to vector<32xf32>
// CHECK-NEXT: %[[S0F:.*]] = llvm.bitcast %[[S0]] : vector<32xi32> to vector<32xf32>
// CHECK-NEXT: %[[X0:.*]] = llvm.extractelement %[[P0F]][%c0_i32 : i32]
// CHECK-NEXT: %[[O0:.*]] = llvm.extractelement %[[S0F]][%c0_i32 : i32]
// CHECK-NEXT: llvm.intr.fma(%[[X0]], %[[F]], %[[O0]]) : (f32, f32, f32) -> f32
// CHECK-COUNT-31: llvm.intr.fma(%{{.*}}, %[[F]], %{{.*}})
// CHECK: nvvm.tcgen05.st %[[S0P]]
// CHECK-COUNT-2: nvvm.tcgen05.ld
// CHECK-NEXT: nvvm.tcgen05.wait <load>
// CHECK-COUNT-32: llvm.intr.fma(%{{.*}}, %[[F]], %{{.*}})
// CHECK: nvvm.tcgen05.st
// CHECK-NEXT: nvvm.tcgen05.wait <store>
// CHECK-NEXT: llvm.return
gpu.module @kfold [#nvvm.target<chip = "sm_100a">] {
  llvm.func @fold_scales(%sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %m0: i32, %n0: i32, %kt: i32, %m: i32, %n: i32, %k: i32) -> !llvm.struct<(f32, f32, f32)> {
    %f = gemmc.acc_fold_scales %sa, %sb, %m0, %n0, %kt, %m, %n, %k {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 192, 128], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.struct<(f32, f32, f32)>
    llvm.return %f : !llvm.struct<(f32, f32, f32)>
  }
  llvm.func @fold_first(%sum: i32, %part: i32, %f: !llvm.struct<(f32)>) {
    gemmc.acc_fold %sum, %part, %f {first, schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 64, 128], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32)>
    llvm.return
  }
  llvm.func @fold(%sum: i32, %part: i32, %f: !llvm.struct<(f32)>) {
    gemmc.acc_fold %sum, %part, %f {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 64, 128], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32)>
    llvm.return
  }
}
