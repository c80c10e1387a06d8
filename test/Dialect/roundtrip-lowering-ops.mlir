// RUN: gemmc-opt %s | gemmc-opt | FileCheck %s

// The ops the lowering passes hand each other print and parse back.

// CHECK-LABEL: llvm.func @ops(
// CHECK: gemmc.tile_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}}) smem(%{{.*}}) {schedule = #gemmc.schedule<{{.*}}>, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
// CHECK: %[[R:.*]] = gemmc.mma_stage %{{.*}}, %{{.*}}, %{{.*}} {schedule = #gemmc.schedule<{{.*}}>} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
// CHECK: gemmc.epilogue %[[R]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}}) {schedule = #gemmc.schedule<{{.*}}>} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<1>
llvm.func @ops(%ta: !llvm.ptr, %tb: !llvm.ptr, %c: !llvm.ptr<1>, %i: i32, %alpha: f32, %s: !llvm.ptr<3>, %acc: !llvm.struct<(f32, f32, f32, f32)>) {
  gemmc.tile_matmul %ta, %tb, %c, %i, %i, %i, %i, %i, %i alpha(%alpha) smem(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
  %r = gemmc.mma_stage %acc, %s, %s {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
  gemmc.epilogue %r, %c, %i, %i, %i, %i, %i alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<1>
  llvm.return
}

// Programmatic dependent launch (issue 15): no operands.
// CHECK-LABEL: llvm.func @pdl(
// CHECK-NEXT: gemmc.wait_prior_grids
// CHECK-NEXT: gemmc.launch_dependents
// CHECK-NEXT: llvm.return
llvm.func @pdl() {
  gemmc.wait_prior_grids
  gemmc.launch_dependents
  llvm.return
}
