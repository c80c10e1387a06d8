// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue --canonicalize --cse | FileCheck %s

// sm_80, 64x64 tile over 16 warps (4 x 4 of 16 x 16): warp w's fragments
// start at row m0 + 16 (w / 4), column n0 + 16 (w % 4); lane l holds rows
// l / 4 and l / 4 + 8, columns 2 (l % 4) + {0, 1} of each n8 fragment.
// Fragment j's values are 4j .. 4j + 3: (0, 1) and (4, 5) on the first row
// at columns c and c + 8, (2, 3) and (6, 7) eight rows down. A pair is one
// 8-byte store when both columns are inside N, else the first alone.

// CHECK-LABEL: llvm.func @ep(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %[[C:[a-z0-9]*]]: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[G:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK: %[[WM:.*]] = arith.divui %[[WARP]], %c4_i32 : i32
// CHECK: %[[WROW:.*]] = arith.muli %[[WM]], %c16_i32 : i32
// CHECK: %[[R0:.*]] = arith.addi %[[M0]], %[[WROW]] : i32
// CHECK: %[[ROW:.*]] = arith.addi %[[R0]], %[[G]] : i32
// CHECK: %[[T:.*]] = arith.remui %[[LANE]], %c4_i32 : i32
// CHECK: %[[T2:.*]] = arith.muli %[[T]], %c2_i32 : i32
// CHECK: %[[WN:.*]] = arith.remui %[[WARP]], %c4_i32 : i32
// CHECK: %[[WCOL:.*]] = arith.muli %[[WN]], %c16_i32 : i32
// CHECK: %[[C0:.*]] = arith.addi %[[N0]], %[[WCOL]] : i32
// CHECK: %[[COL:.*]] = arith.addi %[[C0]], %[[T2]] : i32
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %[[M]] : i32
// CHECK: scf.if %[[IN]] {
// CHECK: llvm.extractvalue %[[ACC]][0]
// CHECK: llvm.extractvalue %[[ACC]][1]
// CHECK: llvm.store %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK: %[[COL8:.*]] = arith.addi %[[COL]], %c8_i32 : i32
// CHECK: llvm.extractvalue %[[ACC]][4]
// CHECK: llvm.extractvalue %[[ACC]][5]
// CHECK: %[[ROW8:.*]] = arith.addi %[[ROW]], %c8_i32 : i32
// CHECK: %[[IN8:.*]] = arith.cmpi ult, %[[ROW8]], %[[M]] : i32
// CHECK: scf.if %[[IN8]] {
// CHECK: llvm.extractvalue %[[ACC]][2]
// CHECK: llvm.extractvalue %[[ACC]][3]
// CHECK: llvm.extractvalue %[[ACC]][6]
// CHECK: llvm.extractvalue %[[ACC]][7]
llvm.func @ep(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32) {
  gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
  llvm.return
}
