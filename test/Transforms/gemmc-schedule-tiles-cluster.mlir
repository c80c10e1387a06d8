// RUN: gemmc-opt %s --split-input-file --allow-unregistered-dialect --gemmc-schedule-tiles --canonicalize --cse | FileCheck %s

// Clusters along N (issue 16): a tile number names a cluster tile of CX x
// CY tiles of 128 x 256; cluster rank r computes the one at (r % CX, r /
// CX) (KernelIR's clusterCoords).

// [1, 2]: cluster tiles are 128 rows by 512 columns; the rank is the
// column: n0 = 512 x column + 256 r, m0 is the cluster tile's.
// CHECK-LABEL: func.func @cluster_1x2(
// CHECK: %[[NR:.*]] = arith.addi %arg3, %c511_i32 : i32
// CHECK-NEXT: %[[TN:.*]] = arith.divui %[[NR]], %c512_i32 : i32
// CHECK-NEXT: %[[MR:.*]] = arith.addi %arg2, %c127_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MR]], %c128_i32 : i32
// CHECK-NEXT: %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]] : i32
// CHECK-NEXT: scf.for %{{.*}} = %arg0 to %[[TILES]] step %arg1
// CHECK: %[[M0:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %c512_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.muli %[[RANK]], %c256_i32 : i32
// CHECK-NEXT: %[[N0:.*]] = arith.addi %[[COLS]], %[[MINE]] : i32
// CHECK-NEXT: "test.use"(%[[M0]], %[[N0]]
func.func @cluster_1x2(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 2], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// [2, 2]: cluster tiles are 256 x 512; rank r adds 128 (r % 2) rows and
// 256 (r / 2) columns.
// CHECK-LABEL: func.func @cluster_2x2(
// CHECK: %[[NR:.*]] = arith.addi %arg3, %c511_i32 : i32
// CHECK-NEXT: %[[TN:.*]] = arith.divui %[[NR]], %c512_i32 : i32
// CHECK-NEXT: %[[MR:.*]] = arith.addi %arg2, %c255_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MR]], %c256_i32 : i32
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: %[[COLS:.*]] = arith.muli %{{.*}}, %c512_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[CM:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// CHECK-NEXT: %[[CN:.*]] = arith.divui %[[RANK]], %c2_i32 : i32
// CHECK-NEXT: %[[MROWS:.*]] = arith.muli %[[CM]], %c128_i32 : i32
// CHECK-NEXT: %[[M0:.*]] = arith.addi %[[ROWS]], %[[MROWS]] : i32
// CHECK-NEXT: %[[NCOLS:.*]] = arith.muli %[[CN]], %c256_i32 : i32
// CHECK-NEXT: %[[N0:.*]] = arith.addi %[[COLS]], %[[NCOLS]] : i32
// CHECK-NEXT: "test.use"(%[[M0]], %[[N0]]
func.func @cluster_2x2(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 2], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}
