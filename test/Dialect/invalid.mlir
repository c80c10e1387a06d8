// The attribute and op verifiers hold IR to the same rules as a spec.
// RUN: %gemmc-opt %s --split-input-file --verify-diagnostics

// The arch is spelt as in a spec: sm_90a, not sm90a.
func.func @bad_arch(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{unknown arch 'sm90a'}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A is f16 in memory but the schedule says bf16.
func.func @element_type(%a: memref<?x?xf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{'gemmc.matmul' op A holds 'f16' but the schedule says bf16 (stored as 'bf16')}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A (row-major, M x K) says M = 4096, C says M = 2048.
func.func @static_sizes(%a: memref<4096x64xbf16>, %b: memref<?x?xbf16>, %c: memref<2048x?xbf16>, %s: f32) {
  // expected-error @+1 {{'gemmc.matmul' op problem size m is 4096 in A but 2048 in C}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<4096x64xbf16>, memref<?x?xbf16>, memref<2048x?xbf16>
  return
}

// -----

// alpha = true in the schedule, but no alpha operand.
func.func @alpha_absent(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) {
  // expected-error @+1 {{'gemmc.matmul' op the schedule says alpha = true; the alpha operand must be present}}
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// alpha = false in the schedule, but an alpha operand.
func.func @alpha_present(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{'gemmc.matmul' op the schedule says alpha = false; the alpha operand must be absent}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A rule on IR: 7 stages of a 128x256x64 bf16 tile do not fit.
func.func @smem_budget(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{[smem-budget] 7 stages x 48 KiB + 1.1 KiB barriers and alignment = 337.1 KiB exceeds the 227 KiB a block may use on sm_90a; use stages <= 4 or a smaller tile_shape}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 7, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// Static K = 4100 bf16 makes the rows of A and B 8200 B: not 16-byte aligned.
func.func @stride_alignment(%a: memref<?x4100xbf16>, %b: memref<?x4100xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+2 {{'gemmc.matmul' op [stride-alignment] a's row stride is k = 4100 x 2 B = 8200 B, not a multiple of 16 B; pad k to 4104 or make it dynamic and pad at run time}}
  // expected-error @+1 {{'gemmc.matmul' op [stride-alignment] b's row stride is k = 4100 x 2 B = 8200 B, not a multiple of 16 B; pad k to 4104 or make it dynamic and pad at run time}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x4100xbf16>, memref<?x4100xbf16>, memref<?x?xbf16>
  return
}

// -----

// A schedule on IR has every auto resolved.
func.func @unresolved(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{a schedule on IR has every value resolved: stages and threads >= 1, load, smem_swizzle and store not auto}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 0, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// staging(...) (sm_80's epilogue through shared memory) walks mma.sync
// fragments: a wgmma schedule's epilogue does not take it.
llvm.func @staging_on_sm90a(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %i: i32, %smem: !llvm.ptr<3>) {
  // expected-error @+1 {{'gemmc.epilogue' op has staging(...), which only an mma.sync target's register-fragment epilogue takes (sm_80, store = direct); the schedule is sm_90a with store = direct; drop staging(...)}}
  gemmc.epilogue %acc, %c, %i, %i, %i, %i, %i staging(%smem : !llvm.ptr<3>) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
  llvm.return
}

// -----

// A store: tma schedule needs the tensor map and the chunk buffers.
llvm.func @epilogue_without_tma(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %i: i32) {
  // expected-error @+1 {{'gemmc.epilogue' op the schedule says store = tma; tma(%tmap_c, %buffer) must be present}}
  gemmc.epilogue %acc, %c, %i, %i, %i, %i, %i {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = false, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
  llvm.return
}

// -----

// An unknown value names its key and lists the values the key takes.
func.func @unknown_swizzle(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{unknown smem_swizzle '129b' (smem_swizzle takes one of auto, none, 32b, 64b, 128b)}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "129b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// An element type spelt as in MLIR, not as in a spec.
func.func @unknown_element(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{unknown accumulator 'fp32' (accumulator takes one of f32, tf32, f16, bf16, e4m3, e5m2)}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "fp32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A key the schedule does not have.
func.func @unknown_key(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{unknown key 'swizzle' in #gemmc.schedule (expected one of arch, device, a, a_layout, a_scale, b, b_layout, b_scale, c, accumulator, tile_shape, cluster_shape, stages, threads, load, multicast, smem_swizzle, promotion_interval, kernel_schedule, swap_ab, tile_scheduler, raster, group, split_k, store, alpha, beta, bias, bias_element, activation, aux, pdl_wait, pdl_launch_dependents, ctas_per_sm, fold_columns, fold_group, stage_scales, a_registers, wait_ahead, unroll, a_box_rows, epilogue_buffers)}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = false, swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A key given twice.
func.func @twice(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{#gemmc.schedule gives 'stages' twice}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A key a spec must give (or gemmc resolves) has no default on IR.
func.func @missing(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{#gemmc.schedule is missing 'threads'; it must give arch, a, b, c, tile_shape, stages, threads, load, smem_swizzle, store}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", a = "bf16", b = "bf16", b_layout = "col", c = "bf16", tile_shape = [128, 128, 64], stages = 4, load = "tma", smem_swizzle = "128b", store = "direct">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A flag takes true or false, a count an integer: the message names the key.
func.func @bad_bool(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{multicast takes true or false}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 256, load = "tma", multicast = 1, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

func.func @bad_int(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %s: f32) {
  // expected-error @+1 {{stages takes an integer}}
  gemmc.matmul %a, %b, %c alpha(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = "4", threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
