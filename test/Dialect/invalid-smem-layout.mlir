// #gemmc.smem_layout's verifier, and gemmc.tile_matmul's: a layout must fit a
// CTA and be the one its schedule gives (issue 18's stages = -1 and
// stages = 100000 used to pass and then hang the pipeline).
// RUN: %gemmc-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics

// A negative stage count.
func.func @negative_stages() {
  // expected-error @+1 {{[smem-layout] stages = -1 is outside 1..32}}
  "test.op"() {l = #gemmc.smem_layout<stages = -1, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : () -> ()
  return
}

// -----

// A stage count no schedule may ask for.
func.func @huge_stages() {
  // expected-error @+1 {{[smem-layout] stages = 100000 is outside 1..32}}
  "test.op"() {l = #gemmc.smem_layout<stages = 100000, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : () -> ()
  return
}

// -----

// An alignment that is not a power of two.
func.func @align() {
  // expected-error @+1 {{[smem-layout] align = 3 is not a power of two from 16 to 262144}}
  "test.op"() {l = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 3, swizzle = 128>} : () -> ()
  return
}

// -----

// A swizzle that is no pattern.
func.func @swizzle() {
  // expected-error @+1 {{[smem-layout] swizzle = 7 is not 0, 32, 64 or 128 (bytes of the pattern's row)}}
  "test.op"() {l = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 7>} : () -> ()
  return
}

// -----

// B outside its stage.
func.func @b_offset() {
  // expected-error @+1 {{[smem-layout] b_offset = 24576 must be a multiple of 16 inside the stage's 24576 bytes}}
  "test.op"() {l = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 24576, barriers = 49152, align = 1024, swizzle = 128>} : () -> ()
  return
}

// -----

// Barriers inside the stage ring.
func.func @barriers() {
  // expected-error @+1 {{[smem-layout] barriers = 40000 must be 8-byte aligned, after the stages (49152) and end within 262144 bytes}}
  "test.op"() {l = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 40000, align = 1024, swizzle = 128>} : () -> ()
  return
}

// -----

// A well-formed layout that contradicts its schedule (3 stages where the
// schedule says 2).
llvm.func @contradicts(%ta: !llvm.ptr, %tb: !llvm.ptr, %c: !llvm.ptr<1>, %i: i32, %alpha: f32, %s: !llvm.ptr<3>) {
  // expected-error @+1 {{'gemmc.tile_matmul' op [smem-layout] the schedule places its shared memory as #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>, not #gemmc.smem_layout<stages = 3, stage_bytes = 24576, b_offset = 8192, barriers = 73728, align = 1024, swizzle = 128>; let gemmc-smem-layout write it}}
  gemmc.tile_matmul %ta, %tb, %c, %i, %i, %i, %i, %i, %i alpha(%alpha) smem(%s) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 24576, b_offset = 8192, barriers = 73728, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
  llvm.return
}
