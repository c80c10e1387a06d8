// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// gemmc.mma_fold on sm_90a (scale: block, 128x128): register r of the
// wgmma fragment (value 4j + 2h + e: row half h, one B block for the
// tile's 128 columns) gets sum + part x (scale_a[h] x scale_b), one FMA;
// the two factors are multiplied once, where first used.

// CHECK-LABEL: llvm.func @fold(
// CHECK-SAME: %[[SUM:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %[[PART:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %[[F:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32)>)
// CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[SUM]][0]
// CHECK-NEXT: %[[P0:.*]] = llvm.extractvalue %[[PART]][0]
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[F]][0]
// CHECK-NEXT: %[[B:.*]] = llvm.extractvalue %[[F]][2]
// CHECK-NEXT: %[[H0:.*]] = llvm.fmul %[[A0]], %[[B]] : f32
// CHECK-NEXT: %[[R0:.*]] = llvm.intr.fma(%[[P0]], %[[H0]], %[[S0]])
// CHECK-NEXT: llvm.insertvalue %[[R0]], %[[SUM]][0]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][1]
// CHECK-NEXT: llvm.extractvalue %[[PART]][1]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H0]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][2]
// CHECK-NEXT: llvm.extractvalue %[[PART]][2]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[F]][1]
// CHECK-NEXT: %[[H1:.*]] = llvm.fmul %[[A1]], %[[B]] : f32
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H1]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][3]
// CHECK-NEXT: llvm.extractvalue %[[PART]][3]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H1]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][4]
// CHECK-NEXT: llvm.extractvalue %[[PART]][4]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H0]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][5]
// CHECK-NEXT: llvm.extractvalue %[[PART]][5]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H0]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][6]
// CHECK-NEXT: llvm.extractvalue %[[PART]][6]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H1]], {{.*}})
// CHECK-NEXT: llvm.insertvalue
// CHECK-NEXT: llvm.extractvalue %[[SUM]][7]
// CHECK-NEXT: llvm.extractvalue %[[PART]][7]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H1]], {{.*}})
// CHECK-NEXT: %[[LAST:.*]] = llvm.insertvalue
// CHECK-NEXT: llvm.return %[[LAST]]
gpu.module @k1 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fold(%sum: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %part: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %f: !llvm.struct<(f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_fold %sum, %part, %f {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// gemmc.block_scales on sm_90a (128x128): thread t holds rows 16 (t / 32 %
// 4) + t % 32 / 4 and 8 below of its warpgroup's 64 from row0; A's scales
// are M-major (kt x M + row, the row clamped to M - 1), B's K-major with
// the K-block count rounded up to 4 (nb x align4(ceil(K / 128)) + kt, the
// block n0 / 128 clamped to the last); three invariant (read-only) loads.

// CHECK-LABEL: llvm.func @scales(
// CHECK-SAME: %[[SA:[a-z0-9]*]]: !llvm.ptr<1>, %[[SB:[a-z0-9]*]]: !llvm.ptr<1>, %[[ROW0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WARPS:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.remui %[[WARPS]], %c4_i32 : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WROW:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[QUAD:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[LROW:.*]] = arith.addi %[[WROW]], %[[QUAD]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[ROW0]], %[[LROW]] : i32
// CHECK-NEXT: %[[LASTROW:.*]] = arith.subi %[[M]], %c1_i32 : i32
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extui %[[M]] : i32 to i64
// CHECK-NEXT: %[[PLANE:.*]] = arith.muli %[[KT64]], %[[M64]] : i64
// CHECK-NEXT: %[[R0:.*]] = arith.minui %[[ROW]], %[[LASTROW]] : i32
// CHECK-NEXT: %[[R064:.*]] = arith.extui %[[R0]] : i32 to i64
// CHECK-NEXT: %[[I0:.*]] = arith.addi %[[PLANE]], %[[R064]] : i64
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[SA]][%[[I0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load %[[P0]] invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT: llvm.insertvalue {{.*}}[0]
// CHECK-NEXT: %[[ROW8:.*]] = arith.addi %[[ROW]], %c8_i32 : i32
// CHECK-NEXT: %[[R1:.*]] = arith.minui %[[ROW8]], %[[LASTROW]] : i32
// CHECK-NEXT: %[[R164:.*]] = arith.extui %[[R1]] : i32 to i64
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[PLANE]], %[[R164]] : i64
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[SA]][%[[I1]]]
// CHECK-NEXT: llvm.load %[[P1]] invariant
// CHECK-NEXT: llvm.insertvalue {{.*}}[1]
// CHECK-NEXT: %[[KUP:.*]] = arith.addi %[[K]], %c127_i32 : i32
// CHECK-NEXT: %[[KBLOCKS:.*]] = arith.divui %[[KUP]], %c128_i32 : i32
// CHECK-NEXT: %[[KUP4:.*]] = arith.addi %[[KBLOCKS]], %c3_i32 : i32
// CHECK-NEXT: %[[KGROUPS:.*]] = arith.divui %[[KUP4]], %c4_i32 : i32
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[KGROUPS]], %c4_i32 : i32
// CHECK-NEXT: %[[STRIDE64:.*]] = arith.extui %[[STRIDE]] : i32 to i64
// CHECK-NEXT: %[[NUP:.*]] = arith.addi %[[N]], %c127_i32 : i32
// CHECK-NEXT: %[[NBLOCKS:.*]] = arith.divui %[[NUP]], %c128_i32 : i32
// CHECK-NEXT: %[[LASTNB:.*]] = arith.subi %[[NBLOCKS]], %c1_i32 : i32
// CHECK-NEXT: %[[NB0:.*]] = arith.divui %[[N0]], %c128_i32 : i32
// CHECK-NEXT: %[[NB:.*]] = arith.minui %[[NB0]], %[[LASTNB]] : i32
// CHECK-NEXT: %[[NB64:.*]] = arith.extui %[[NB]] : i32 to i64
// CHECK-NEXT: %[[BPLANE:.*]] = arith.muli %[[NB64]], %[[STRIDE64]] : i64
// CHECK-NEXT: %[[IB:.*]] = arith.addi %[[BPLANE]], %[[KT64]] : i64
// CHECK-NEXT: %[[PB:.*]] = llvm.getelementptr %[[SB]][%[[IB]]]
// CHECK-NEXT: llvm.load %[[PB]] invariant
// CHECK-NEXT: %[[OUT:.*]] = llvm.insertvalue {{.*}}[2]
// CHECK-NEXT: llvm.return %[[OUT]]
gpu.module @k3 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @scales(%sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %row0: i32, %n0: i32, %kt: i32, %m: i32, %n: i32, %k: i32) -> !llvm.struct<(f32, f32, f32)> {
    %f = gemmc.block_scales %sa, %sb, %row0, %n0, %kt, %m, %n, %k {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none">} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.struct<(f32, f32, f32)>
    llvm.return %f : !llvm.struct<(f32, f32, f32)>
  }
}

// -----

// gemmc.mma_fold with `column` (fold_columns, 128x192: B scale slots of 64
// columns): the part's register r is the sum's register 56 / 8 x 4 + r =
// 28 + r; r = 0..3 lie in columns 56-63 (slot 0, field 2 of the scales),
// r = 4..7 in columns 64-71 (slot 1, field 3); rows alternate halves as
// before (fields 0 and 1). Four factors, each multiplied once.

// CHECK-LABEL: llvm.func @fold_part(
// CHECK-SAME: %[[SUM:[a-z0-9]*]]: !llvm.struct<({{.*}})>, %[[PART:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %[[F:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32, f32)>)
// CHECK-NEXT: %[[S28:.*]] = llvm.extractvalue %[[SUM]][28]
// CHECK-NEXT: %[[P0:.*]] = llvm.extractvalue %[[PART]][0]
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[F]][0]
// CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %[[F]][2]
// CHECK-NEXT: %[[H00:.*]] = llvm.fmul %[[A0]], %[[B0]] : f32
// CHECK-NEXT: %[[R28:.*]] = llvm.intr.fma(%[[P0]], %[[H00]], %[[S28]])
// CHECK-NEXT: llvm.insertvalue %[[R28]], %[[SUM]][28]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][29]
// CHECK-NEXT: llvm.extractvalue %[[PART]][1]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H00]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[29]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][30]
// CHECK-NEXT: llvm.extractvalue %[[PART]][2]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[F]][1]
// CHECK-NEXT: %[[H10:.*]] = llvm.fmul %[[A1]], %[[B0]] : f32
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H10]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[30]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][31]
// CHECK-NEXT: llvm.extractvalue %[[PART]][3]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H10]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[31]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][32]
// CHECK-NEXT: llvm.extractvalue %[[PART]][4]
// CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %[[F]][3]
// CHECK-NEXT: %[[H01:.*]] = llvm.fmul %[[A0]], %[[B1]] : f32
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H01]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[32]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][33]
// CHECK-NEXT: llvm.extractvalue %[[PART]][5]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H01]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[33]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][34]
// CHECK-NEXT: llvm.extractvalue %[[PART]][6]
// CHECK-NEXT: %[[H11:.*]] = llvm.fmul %[[A1]], %[[B1]] : f32
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H11]], {{.*}})
// CHECK-NEXT: llvm.insertvalue {{.*}}[34]
// CHECK-NEXT: llvm.extractvalue %[[SUM]][35]
// CHECK-NEXT: llvm.extractvalue %[[PART]][7]
// CHECK-NEXT: llvm.intr.fma({{.*}}, %[[H11]], {{.*}})
// CHECK-NEXT: %[[OUT:.*]] = llvm.insertvalue {{.*}}[35]
// CHECK-NEXT: llvm.return %[[OUT]]
gpu.module @k4 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @fold_part(%sum: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %part: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %f: !llvm.struct<(f32, f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_fold %sum, %part, %f {column = 56 : i64, schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 192, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", fold_columns = 96>} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(f32, f32, f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// gemmc.block_scales for 128x192 (a tile starts 0 or 64 columns into a B
// block): three B slots of 64 columns; slot 0 reads block n0 / 128, slot 1
// block (n0 + 64) / 128 (the same block or the next, by the tile), slot 2
// block n0 / 128 + 1, each clamped to the last block; A's two as before.

// CHECK-LABEL: llvm.func @scales192(
// CHECK-SAME: %[[SA:[a-z0-9]*]]: !llvm.ptr<1>, %[[SB:[a-z0-9]*]]: !llvm.ptr<1>, %{{[a-z0-9]*}}: i32, %[[N0:[a-z0-9]*]]: i32,
// CHECK: %[[KT64:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: llvm.insertvalue {{.*}}[1]
// CHECK: %[[STRIDE64:.*]] = arith.extui %{{.*}} : i32 to i64
// CHECK: %[[LASTNB:.*]] = arith.subi %{{.*}}, %c1_i32 : i32
// CHECK-NEXT: %[[NB0:.*]] = arith.divui %[[N0]], %c128_i32 : i32
// CHECK-NEXT: %[[C0:.*]] = arith.minui %[[NB0]], %[[LASTNB]] : i32
// CHECK: llvm.load
// CHECK-NEXT: llvm.insertvalue {{.*}}[2]
// CHECK-NEXT: %[[N64:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK-NEXT: %[[NB1:.*]] = arith.divui %[[N64]], %c128_i32 : i32
// CHECK-NEXT: %[[C1:.*]] = arith.minui %[[NB1]], %[[LASTNB]] : i32
// CHECK-NEXT: %[[C164:.*]] = arith.extui %[[C1]] : i32 to i64
// CHECK-NEXT: %[[PL1:.*]] = arith.muli %[[C164]], %[[STRIDE64]] : i64
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[PL1]], %[[KT64]] : i64
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[SB]][%[[I1]]]
// CHECK-NEXT: llvm.load %[[P1]] invariant
// CHECK-NEXT: llvm.insertvalue {{.*}}[3]
// CHECK-NEXT: %[[NB2:.*]] = arith.addi %[[NB0]], %c1_i32 : i32
// CHECK-NEXT: %[[C2:.*]] = arith.minui %[[NB2]], %[[LASTNB]] : i32
// CHECK: llvm.load
// CHECK-NEXT: %[[OUT:.*]] = llvm.insertvalue {{.*}}[4]
// CHECK-NEXT: llvm.return %[[OUT]]
gpu.module @k5 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @scales192(%sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %row0: i32, %n0: i32, %kt: i32, %m: i32, %n: i32, %k: i32) -> !llvm.struct<(f32, f32, f32, f32, f32)> {
    %f = gemmc.block_scales %sa, %sb, %row0, %n0, %kt, %m, %n, %k {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 192, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", fold_columns = 96>} : !llvm.ptr<1>, !llvm.ptr<1> -> !llvm.struct<(f32, f32, f32, f32, f32)>
    llvm.return %f : !llvm.struct<(f32, f32, f32, f32, f32)>
  }
}

// -----

// gemmc.mma_stage with columns = [96, 96] and fresh (fold_columns 96 of a
// 128x192 tile): one m64n96k32 a k step, B from column 96 (96 rows of 128
// bytes = 768 descriptor units on), the first k step with scale-d zero (its
// input ignored), the others accumulating; one commit group.

// CHECK-LABEL: llvm.func @stage_part(
// CHECK: %[[AF:.*]] = arith.andi %{{.*}}, %c16383_i32 : i32
// CHECK: %[[BF:.*]] = arith.andi %{{.*}}, %c16383_i32 : i32
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: arith.addi %[[AF]], %c65536_i32 : i32
// CHECK: arith.addi %[[BF]], %c66304_i32 : i32
// CHECK: %[[D0:.*]] = nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 96, k = 32>, D[<f32>, <zero>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK: arith.addi %[[BF]], %c66306_i32 : i32
// CHECK: %[[D1:.*]] = nvvm.wgmma.mma_async {{.*}}, %[[D0]], <m = 64, n = 96, k = 32>, D[<f32>, <one>]
// CHECK: arith.addi %[[BF]], %c66308_i32 : i32
// CHECK: %[[D2:.*]] = nvvm.wgmma.mma_async {{.*}}, %[[D1]], <m = 64, n = 96, k = 32>, D[<f32>, <one>]
// CHECK: arith.addi %[[BF]], %c66310_i32 : i32
// CHECK: %[[D3:.*]] = nvvm.wgmma.mma_async {{.*}}, %[[D2]], <m = 64, n = 96, k = 32>, D[<f32>, <one>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.return %[[D3]]
gpu.module @k6 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @stage_part(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %p = llvm.mlir.poison : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %r = gemmc.mma_stage %p, %a, %b {columns = array<i64: 96, 96>, fresh, schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 192, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", fold_columns = 96>} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// gemmc.stage_scales (stage_scales, 128x256, 3 stages of 48 KiB, 64 KiB of
// epilogue buffers): the stage's slot of 528 bytes (128 A scales + 2 B
// scales, in 16-byte units) lies at 3 x 48 KiB + 64 KiB + stage x 528;
// lane l copies A's scales of tile rows l, l + 32, l + 64, l + 96 (kt x M +
// m0 + row, the row clamped to M - 1) to slot word row, and lanes 0 and 1
// B's of their slot (block (n0 + 128 l) / 128 clamped to the last, K-block
// stride align4(ceil(K / 128))) to word 128 + l, each a 4-byte cp.async;
// then the lane's arrival on the stage's full barrier (at 214576) when its
// copies land, and a warp barrier.

// CHECK-LABEL: llvm.func @stage_scales(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SA:[a-z0-9]*]]: !llvm.ptr<1>, %[[SB:[a-z0-9]*]]: !llvm.ptr<1>, %[[SMEM:[a-z0-9]*]]: !llvm.ptr<3>, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32)
// CHECK: %[[STAGE:.*]] = arith.remui %[[G]], %c3_i32 : i32
// CHECK-NEXT: %[[SLOTOFF:.*]] = arith.muli %[[STAGE]], %c528_i32 : i32
// CHECK-NEXT: %[[SLOTAT:.*]] = arith.addi %[[SLOTOFF]], %c212992_i32 : i32
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%[[SLOTAT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[M64:.*]] = arith.extui %[[M]] : i32 to i64
// CHECK-NEXT: %[[PLANE:.*]] = arith.muli %[[KT64]], %[[M64]] : i64
// CHECK-NEXT: %[[LASTROW:.*]] = arith.subi %[[M]], %c1_i32 : i32
// CHECK-NEXT: %[[R0:.*]] = arith.addi %[[M0]], %[[LANE]] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.minui %[[R0]], %[[LASTROW]] : i32
// CHECK-NEXT: %[[C064:.*]] = arith.extui %[[C0]] : i32 to i64
// CHECK-NEXT: %[[I0:.*]] = arith.addi %[[PLANE]], %[[C064]] : i64
// CHECK-NEXT: %[[FROM0:.*]] = llvm.getelementptr %[[SA]][%[[I0]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[W0:.*]] = arith.muli %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[TO0:.*]] = llvm.getelementptr %[[SLOT]][%[[W0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.cp.async.shared.global %[[TO0]], %[[FROM0]], 4, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: %[[ROW1:.*]] = arith.addi %[[LANE]], %c32_i32 : i32
// CHECK-NEXT: %[[R1:.*]] = arith.addi %[[M0]], %[[ROW1]] : i32
// CHECK-NEXT: arith.minui %[[R1]], %[[LASTROW]] : i32
// CHECK: %[[W1:.*]] = arith.muli %[[ROW1]], %c4_i32 : i32
// CHECK-NEXT: %[[TO1:.*]] = llvm.getelementptr %[[SLOT]][%[[W1]]]
// CHECK-NEXT: nvvm.cp.async.shared.global %[[TO1]]
// CHECK-NEXT: %[[ROW2:.*]] = arith.addi %[[LANE]], %c64_i32 : i32
// CHECK: nvvm.cp.async.shared.global
// CHECK-NEXT: %[[ROW3:.*]] = arith.addi %[[LANE]], %c96_i32 : i32
// CHECK: nvvm.cp.async.shared.global
// CHECK-NEXT: %[[HASB:.*]] = arith.cmpi ult, %[[LANE]], %c2_i32 : i32
// CHECK-NEXT: scf.if %[[HASB]] {
// CHECK-NEXT: %[[COLOFF:.*]] = arith.muli %[[LANE]], %c128_i32 : i32
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[N0]], %[[COLOFF]] : i32
// CHECK-NEXT: %[[NB:.*]] = arith.divui %[[COL]], %c128_i32 : i32
// CHECK-NEXT: %[[NUP:.*]] = arith.addi %[[N]], %c127_i32 : i32
// CHECK-NEXT: %[[NBLOCKS:.*]] = arith.divui %[[NUP]], %c128_i32 : i32
// CHECK-NEXT: %[[LASTNB:.*]] = arith.subi %[[NBLOCKS]], %c1_i32 : i32
// CHECK-NEXT: %[[KUP:.*]] = arith.addi %[[K]], %c127_i32 : i32
// CHECK-NEXT: %[[KBLOCKS:.*]] = arith.divui %[[KUP]], %c128_i32 : i32
// CHECK-NEXT: %[[KUP4:.*]] = arith.addi %[[KBLOCKS]], %c3_i32 : i32
// CHECK-NEXT: %[[KGROUPS:.*]] = arith.divui %[[KUP4]], %c4_i32 : i32
// CHECK-NEXT: %[[STRIDE:.*]] = arith.muli %[[KGROUPS]], %c4_i32 : i32
// CHECK-NEXT: %[[STRIDE64:.*]] = arith.extui %[[STRIDE]] : i32 to i64
// CHECK-NEXT: %[[NBC:.*]] = arith.minui %[[NB]], %[[LASTNB]] : i32
// CHECK-NEXT: %[[NB64:.*]] = arith.extui %[[NBC]] : i32 to i64
// CHECK-NEXT: %[[BPLANE:.*]] = arith.muli %[[NB64]], %[[STRIDE64]] : i64
// CHECK-NEXT: %[[IB:.*]] = arith.addi %[[BPLANE]], %[[KT64]] : i64
// CHECK-NEXT: %[[WB:.*]] = arith.addi %[[LANE]], %c128_i32 : i32
// CHECK-NEXT: %[[FROMB:.*]] = llvm.getelementptr %[[SB]][%[[IB]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[WBB:.*]] = arith.muli %[[WB]], %c4_i32 : i32
// CHECK-NEXT: %[[TOB:.*]] = llvm.getelementptr %[[SLOT]][%[[WBB]]]
// CHECK-NEXT: nvvm.cp.async.shared.global %[[TOB]], %[[FROMB]], 4, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: }
// CHECK-NEXT: %[[FULLOFF:.*]] = arith.muli %[[STAGE]], %c8_i32 : i32
// CHECK-NEXT: %[[FULLAT:.*]] = arith.addi %[[FULLOFF]], %c214576_i32 : i32
// CHECK-NEXT: %[[FULL:.*]] = llvm.getelementptr %[[SMEM]][%[[FULLAT]]]
// CHECK-NEXT: nvvm.cp.async.mbarrier.arrive %[[FULL]] : !llvm.ptr<3>
// CHECK-NEXT: nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NEXT: llvm.return
gpu.module @k7 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @stage_scales(%g: i32, %m0: i32, %n0: i32, %kt: i32, %sa: !llvm.ptr<1>, %sb: !llvm.ptr<1>, %smem: !llvm.ptr<3>, %m: i32, %n: i32, %k: i32) {
    gemmc.stage_scales %g, %m0, %n0, %kt, %sa, %sb, %smem, %m, %n, %k {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 128, fold_group = 1, stage_scales = true>, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 49152, b_offset = 16384, barriers = 214576, align = 1024, swizzle = 128, epilogue = 147456>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// gemmc.staged_scales (the same kernel): the thread's fragment rows from
// tile row `row` (16 (t / 32 % 4) + t % 32 / 4 and 8 below) read from
// words row and row + 8 of the stage's slot, B's two slots from words 128
// and 129 (bytes 512 and 516); plain shared loads.

// CHECK-LABEL: llvm.func @staged_scales(
// CHECK-SAME: %[[G:[a-z0-9]*]]: i32, %[[SMEM:[a-z0-9]*]]: !llvm.ptr<3>, %[[ROW:[a-z0-9]*]]: i32)
// CHECK: %[[STAGE:.*]] = arith.remui %[[G]], %c3_i32 : i32
// CHECK-NEXT: %[[SLOTOFF:.*]] = arith.muli %[[STAGE]], %c528_i32 : i32
// CHECK-NEXT: %[[SLOTAT:.*]] = arith.addi %[[SLOTOFF]], %c212992_i32 : i32
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[SMEM]][%[[SLOTAT]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[WARPS:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.remui %[[WARPS]], %c4_i32 : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WROW:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[QUAD:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[LROW:.*]] = arith.addi %[[WROW]], %[[QUAD]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[ROW]], %[[LROW]] : i32
// CHECK-NEXT: %[[W0:.*]] = arith.muli %[[R]], %c4_i32 : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[SLOT]][%[[W0]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[A0:.*]] = llvm.load %[[P0]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F0:.*]] = llvm.insertvalue %[[A0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: %[[R8:.*]] = arith.addi %[[R]], %c8_i32 : i32
// CHECK-NEXT: %[[W1:.*]] = arith.muli %[[R8]], %c4_i32 : i32
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[SLOT]][%[[W1]]]
// CHECK-NEXT: %[[A1:.*]] = llvm.load %[[P1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F1:.*]] = llvm.insertvalue %[[A1]], %[[F0]][1]
// CHECK-NEXT: %[[PB0:.*]] = llvm.getelementptr %[[SLOT]][512] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[B0:.*]] = llvm.load %[[PB0]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F2:.*]] = llvm.insertvalue %[[B0]], %[[F1]][2]
// CHECK-NEXT: %[[PB1:.*]] = llvm.getelementptr %[[SLOT]][516] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[B1:.*]] = llvm.load %[[PB1]] {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NEXT: %[[F3:.*]] = llvm.insertvalue %[[B1]], %[[F2]][3]
// CHECK-NEXT: llvm.return %[[F3]]
gpu.module @k8 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @staged_scales(%g: i32, %smem: !llvm.ptr<3>, %row: i32) -> !llvm.struct<(f32, f32, f32, f32)> {
    %f = gemmc.staged_scales %g, %smem, %row {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 128, fold_group = 1, stage_scales = true>, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 49152, b_offset = 16384, barriers = 214576, align = 1024, swizzle = 128, epilogue = 147456>} : !llvm.ptr<3> -> !llvm.struct<(f32, f32, f32, f32)>
    llvm.return %f : !llvm.struct<(f32, f32, f32, f32)>
  }
}

// -----

// gemmc.mma_a_fragment (a_registers, 128x256, A's tile rows one 128-byte
// swizzle span): lane l of warp w reads row 16 w + l % 16 of the
// warpgroup's slice at unit (l / 16) ^ (l % 8) (the swizzle's phase is the
// row's % 8), k step j XORing 2 j units (32 j bytes) in; one ldmatrix .x4 a
// k step, its 4 registers the fragment's 4 j .. 4 j + 3.

// CHECK-LABEL: llvm.func @a_fragment(
// CHECK-SAME: %[[A:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WARPS:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.remui %[[WARPS]], %c4_i32 : i32
// CHECK-NEXT: %[[WROW:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[LROW:.*]] = arith.remui %[[LANE]], %c16_i32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[WROW]], %[[LROW]] : i32
// CHECK-NEXT: %[[HALF:.*]] = arith.divui %[[LANE]], %c16_i32 : i32
// CHECK-NEXT: %[[PHASE:.*]] = arith.remui %[[LANE]], %c8_i32 : i32
// CHECK-NEXT: %[[UNIT:.*]] = arith.xori %[[HALF]], %[[PHASE]] : i32
// CHECK-NEXT: %[[RB:.*]] = arith.muli %[[ROW]], %c128_i32 : i32
// CHECK-NEXT: %[[UB:.*]] = arith.muli %[[UNIT]], %c16_i32 : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[RB]], %[[UB]] : i32
// CHECK-NEXT: %[[P0:.*]] = llvm.getelementptr %[[A]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[X0:.*]] = nvvm.ldmatrix %[[P0]] {{.*}}num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT: %[[R0:.*]] = llvm.extractvalue %[[X0]][0]
// CHECK-NEXT: llvm.insertvalue %[[R0]], %{{.*}}[0]
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: %[[O1:.*]] = arith.xori %[[OFF]], %c32_i32 : i32
// CHECK-NEXT: %[[P1:.*]] = llvm.getelementptr %[[A]][%[[O1]]]
// CHECK-NEXT: nvvm.ldmatrix %[[P1]]
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: %[[O2:.*]] = arith.xori %[[OFF]], %c64_i32 : i32
// CHECK-NEXT: %[[P2:.*]] = llvm.getelementptr %[[A]][%[[O2]]]
// CHECK-NEXT: nvvm.ldmatrix %[[P2]]
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: %[[O3:.*]] = arith.xori %[[OFF]], %c96_i32 : i32
// CHECK-NEXT: %[[P3:.*]] = llvm.getelementptr %[[A]][%[[O3]]]
// CHECK-NEXT: nvvm.ldmatrix %[[P3]]
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: llvm.{{extract|insert}}value
// CHECK-NEXT: %[[LAST:.*]] = llvm.insertvalue %{{.*}}[15]
// CHECK-NEXT: llvm.return %[[LAST]]
gpu.module @k9 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @a_fragment(%a: !llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> {
    %f = gemmc.mma_a_fragment %a {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 128, fold_group = 1, stage_scales = true, a_registers = true>} : !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
    llvm.return %f : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  }
}

// -----

// gemmc.mma_stage with a_frag (a_registers) and columns = [128, 128],
// fresh: wgmma's register form as inline PTX, k step j taking A registers
// 4 j .. 4 j + 3 of the fragment and B's descriptor (column 128: 1024
// units on), the first k step with scale-d zero; no A descriptor.

// CHECK-LABEL: llvm.func @stage_registers(
// CHECK-SAME: %[[F:[a-z0-9]*]]: !llvm.struct<(i32, {{.*}})>)
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: %[[A0:.*]] = llvm.extractvalue %[[F]][0]
// CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %[[F]][1]
// CHECK-NEXT: %[[A2:.*]] = llvm.extractvalue %[[F]][2]
// CHECK-NEXT: %[[A3:.*]] = llvm.extractvalue %[[F]][3]
// CHECK-NEXT: %[[B0:.*]] = arith.addi %{{.*}}, %c66560_i32 : i32
// CHECK: %[[D0:.*]] = llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 0, 0;\0Awgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {$0, $1, {{.*}}, $63}, {$128, $129, $130, $131}, $132, p, 1, 1;\0A}\0A", "=f,{{.*}},=f,0,1,{{.*}},63,r,r,r,r,l" {{.*}}, %[[A0]], %[[A1]], %[[A2]], %[[A3]], %{{.*}} :
// CHECK: %[[A4:.*]] = llvm.extractvalue %[[F]][4]
// CHECK: arith.addi %{{.*}}, %c66562_i32 : i32
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;{{.*}}, %[[A4]], {{.*}}
// CHECK: llvm.extractvalue %[[F]][15]
// CHECK: llvm.inline_asm
// CHECK-NOT: llvm.inline_asm
// CHECK: nvvm.wgmma.commit.group.sync.aligned
gpu.module @k10 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @stage_registers(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>, %f: !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %a, %b a_frag(%f : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>) {columns = array<i64: 128, 128>, fresh, schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", swap_ab = false, tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 128, fold_group = 1, stage_scales = true, a_registers = true>} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}
