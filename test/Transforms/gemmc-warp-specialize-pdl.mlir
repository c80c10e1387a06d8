// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// pdl_launch_dependents: after_prologue (multistage, pdl_wait: before_loads):
// every thread lets the next kernel launch right after the ring's barriers
// are set up (ring_init, cta_sync), before its own wait and its first load,
// and nowhere else (not after the mainloop too).

// CHECK-LABEL: llvm.func @after_prologue(
// CHECK: gemmc.ring_init
// CHECK: gemmc.cta_sync{{$}}
// CHECK-NEXT: gemmc.launch_dependents{{$}}
// CHECK-NEXT: gemmc.wait_prior_grids{{$}}
// CHECK-NEXT: %{{.*}} = gemmc.tile_loop
// CHECK-NOT: gemmc.launch_dependents
// CHECK: llvm.return
gpu.module @k1 {
  llvm.func @after_prologue(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none", pdl_wait = "before_loads", pdl_launch_dependents = "after_prologue">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// pdl_launch_dependents: after_mainloop (multistage): the CTA's last tile
// first, then launch_dependents; none after the barrier setup.

// CHECK-LABEL: llvm.func @after_mainloop(
// CHECK: gemmc.cta_sync{{$}}
// CHECK-NEXT: gemmc.wait_prior_grids{{$}}
// CHECK-NEXT: %{{.*}} = gemmc.tile_loop
// CHECK: gemmc.yield
// CHECK-NEXT: }
// CHECK-NEXT: gemmc.launch_dependents{{$}}
// CHECK-NEXT: llvm.return
gpu.module @k2 {
  llvm.func @after_mainloop(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none", pdl_wait = "before_loads", pdl_launch_dependents = "after_mainloop">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
