// RUN: gemmc-opt %s --split-input-file --gemmc-tile --canonicalize --cse | FileCheck %s

// The kernel gets gemmc's ABI; CTA i takes tiles i, i + gridDim.x, ...
// (one tile when the grid has a CTA per tile).

// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.func @gemm_nn(%[[TA:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[TB:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[C:.*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[K:.*]]: i32, %[[LDC:.*]]: i32, %[[ALPHA:.*]]: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK-NEXT: %[[FIRST:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT: %[[STEP:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT: gemmc.tile_matmul %[[TA]], %[[TB]], %[[C]], %[[FIRST]], %[[STEP]], %[[M]], %[[N]], %[[K]], %[[LDC]] alpha(%[[ALPHA]]) {schedule = #gemmc.schedule<{{.*}}tile_shape = [64, 128, 64]{{.*}}>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
// CHECK-NEXT: llvm.return
// CHECK-NOT: func.func
func.func @gemm_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %alpha: f32) attributes {gemmc.kernel} {
  gemmc.matmul %a, %b, %c alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// A warp-specialized schedule has a producer warpgroup: 384 threads.
// No alpha, but beta: the kernel's last scalar is beta.

// CHECK-LABEL: llvm.func @gemm_tn(
// CHECK-SAME: %[[LDC:[a-z0-9]*]]: i32, %[[BETA:[a-z0-9]*]]: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK: gemmc.tile_matmul {{.*}}, %[[LDC]] beta(%[[BETA]])
func.func @gemm_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %beta: f32) attributes {gemmc.kernel} {
  gemmc.matmul %a, %b, %c beta(%beta) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
  return
}

// -----

// Clusters of two CTAs along M: tiles are numbered per cluster, so cluster
// c = ctaid.x / 2 starts at cluster tile c and steps by nctaid.x / 2.

// CHECK-LABEL: llvm.func @gemm_mc(
// CHECK-DAG: %[[CTA:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-DAG: %[[GRID:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-DAG: %[[FIRST:.*]] = arith.divui %[[CTA]], %c2_i32 : i32
// CHECK-DAG: %[[STEP:.*]] = arith.divui %[[GRID]], %c2_i32 : i32
// CHECK: gemmc.tile_matmul %{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]], %[[STEP]],
func.func @gemm_mc(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>) attributes {gemmc.kernel} {
  gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
