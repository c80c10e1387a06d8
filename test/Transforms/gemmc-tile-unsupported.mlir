// RUN: gemmc-opt %s --split-input-file --gemmc-tile --verify-diagnostics

// A legal schedule the lowering does not build yet is refused with the
// rule's message, not lowered wrongly.
func.func @pingpong(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) attributes {gemmc.kernel} {
  // expected-error @+1 {{'gemmc.matmul' op [not-implemented] warp_specialized_pingpong with BLOCK_M = 192 is not implemented yet (each consumer warpgroup computes a whole tile in one or two 64-row wgmma blocks); use BLOCK_M = 64 or 128}}
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [192, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_pingpong", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// sm_80 lowers data-parallel, persistent and stream_k grids; split_k (stream_k
// with every tile split) is legal there (the model analyzes it) but not built yet.
func.func @ampere(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) attributes {gemmc.kernel} {
  // expected-error @+1 {{'gemmc.matmul' op [not-implemented] split_k > 1 is not implemented yet; use 1}}
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "row", c = "f32", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 2, threads = 256, load = "cp_async", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 2, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>
  return
}

// -----

// TMA stores C in chunks of 128 bytes of a row: a tile row of 320 bytes is not
// a whole number of them.
func.func @tma_store_odd_chunks(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) attributes {gemmc.kernel} {
  // expected-error @+1 {{'gemmc.matmul' op [not-implemented] store: tma with BLOCK_N = 160 (320 bytes of C per tile row) is not implemented yet: the epilogue stores chunks of 128 bytes; use BLOCK_N a multiple of 64 or store: direct}}
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 160, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

