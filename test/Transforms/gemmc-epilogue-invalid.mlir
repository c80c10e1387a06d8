// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue --verify-diagnostics

// A bias comes from the kernel's `bias` parameter: an epilogue in a function
// without the kernel's parameters (describeKernelAbi's list) is an error,
// not a silently dropped bias.
gpu.module @k1 {
  llvm.func @alpha_bf16(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %alpha: f32) {
    // expected-error @+1 {{reads the kernel parameter 'bias', but its function does not have the kernel's parameters (docs/abi.md; gemmc-tile builds them)}}
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "col", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}
