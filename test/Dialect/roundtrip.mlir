// gemmc.matmul and #gemmc.schedule print in a form that parses back to the
// same IR: print, parse, print again and compare.
// RUN: %gemmc-opt %s --split-input-file > %t.1.mlir
// RUN: %gemmc-opt %t.1.mlir --split-input-file > %t.2.mlir
// RUN: diff %t.1.mlir %t.2.mlir
// RUN: FileCheck %s --input-file=%t.1.mlir

// Dynamic sizes, alpha only (the default epilogue).
// CHECK-LABEL: func.func @dynamic_alpha
// CHECK: gemmc.matmul %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}}) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", a_scale = "none", b = "bf16", b_layout = "col", b_scale = "none", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "multistage", swap_ab = false, tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 0, fold_group = 0, stage_scales = false, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
func.func @dynamic_alpha(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// Static sizes, alpha and beta, a bias and an activation.
// CHECK-LABEL: func.func @static_alpha_beta
// CHECK: gemmc.matmul %{{.*}}, %{{.*}}, %{{.*}} alpha(%{{.*}}) beta(%{{.*}}) {schedule = #gemmc.schedule<{{.*}}alpha = true, beta = true, bias = "row", bias_element = "f32", activation = "gelu", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 0, fold_group = 0, stage_scales = false, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>} : memref<4096x8192xbf16>, memref<1024x8192xbf16>, memref<4096x1024xbf16>
func.func @static_alpha_beta(%a: memref<4096x8192xbf16>, %b: memref<1024x8192xbf16>, %c: memref<4096x1024xbf16>, %s: f32, %t: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) beta(%t) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = true, bias = "row", activation = "gelu">} : memref<4096x8192xbf16>, memref<1024x8192xbf16>, memref<4096x1024xbf16>
  return
}

// -----

// Neither alpha nor beta.
// CHECK-LABEL: func.func @no_scalars
// CHECK: gemmc.matmul %{{.*}}, %{{.*}}, %{{.*}} {schedule = #gemmc.schedule<{{.*}}alpha = false, beta = false
func.func @no_scalars(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// sm_100a with tcgen05: 192 threads, persistent tiles.
// CHECK-LABEL: func.func @blackwell
// CHECK: #gemmc.schedule<arch = "sm_100a", device = "b200"{{.*}}tile_shape = [128, 256, 64]{{.*}}threads = 192{{.*}}kernel_schedule = "warp_specialized", swap_ab = false, tile_scheduler = "persistent"
func.func @blackwell(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// sm_80 tf32: f32 memrefs, cp_async, fixed sizes.
// CHECK-LABEL: func.func @ampere
// CHECK: #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32"{{.*}}load = "cp_async"
func.func @ampere(%a: memref<4096x4096xf32>, %b: memref<4096x4096xf32>, %c: memref<4096x4096xf32>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "row", c = "f32", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<4096x4096xf32>, memref<4096x4096xf32>, memref<4096x4096xf32>
  return
}

// -----

// Keys a spec may leave out may be left out on IR too: they take the spec
// language's defaults (device: the arch's default device) and print.
// CHECK-LABEL: func.func @defaults
// CHECK: {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "bf16", a_layout = "row", a_scale = "none", b = "bf16", b_layout = "col", b_scale = "none", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "multistage", swap_ab = false, tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", bias_element = "f32", activation = "none", aux = false, pdl_wait = "none", pdl_launch_dependents = "none", ctas_per_sm = 1, fold_columns = 0, fold_group = 0, stage_scales = false, a_registers = false, wait_ahead = false, unroll = 1, a_box_rows = 0, epilogue_buffers = 0>}
func.func @defaults(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", a = "bf16", b = "bf16", b_layout = "col", c = "bf16", tile_shape = [128, 128, 64], stages = 4, threads = 256, load = "tma", smem_swizzle = "128b", store = "direct">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
