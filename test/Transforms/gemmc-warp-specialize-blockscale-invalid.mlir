// RUN: gemmc-opt %s --gemmc-warp-specialize --verify-diagnostics

// scale: block reads its scales from the kernel's scale_a and scale_b
// parameters (docs/abi.md); a function without the ABI's parameters (here:
// no scale pointers) is refused with a message, not a crash.
gpu.module @k1 {
  llvm.func @no_scales(%ta: !llvm.ptr, %tb: !llvm.ptr, %c: !llvm.ptr<1>, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) {
    // expected-error@+1 {{'gemmc.tile_matmul' op has scale: block but its function lacks the ABI's scale_a / scale_b pointer parameters (docs/abi.md); build the kernel with gemmc-tile}}
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", promotion_interval = 0, kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
