// gemmc-verify-schedule re-runs the rule library on every gemmc.matmul and
// changes nothing when the schedules hold. (IR that breaks a rule cannot be
// parsed at all, see test/Dialect/invalid.mlir, so only a pass that rewrites
// a schedule can hand this pass a violation.)
// RUN: %gemmc-opt %s --split-input-file --gemmc-verify-schedule | FileCheck %s

// A legal schedule passes through unchanged.
// CHECK-LABEL: func.func @legal
// CHECK: gemmc.matmul %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}}) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", a_scale = "none", b = "bf16", b_layout = "col", b_scale = "none", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "multistage", swap_ab = false, tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 0, fold_group = 0, stage_scales = false, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
// CHECK-NEXT: return
func.func @legal(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// Several kernels in one module, static sizes that are 16-byte aligned.
// CHECK-LABEL: func.func @first
// CHECK: gemmc.matmul {{.*}} : memref<4096x8192xbf16>, memref<1024x8192xbf16>, memref<4096x1024xbf16>
// CHECK-LABEL: func.func @second
// CHECK: gemmc.matmul {{.*}} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
func.func @first(%a: memref<4096x8192xbf16>, %b: memref<1024x8192xbf16>, %c: memref<4096x1024xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<4096x8192xbf16>, memref<1024x8192xbf16>, memref<4096x1024xbf16>
  return
}
func.func @second(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
