// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// A 64x128x64 tile, B row-major (N contiguous): one warpgroup, two stages,
// B loaded in two 64-column slabs. Checks the kernel's ABI, the barrier
// plan, the TMA boxes and the wgmma shape and layouts.

// CHECK-LABEL: gpu.module @gemmc_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @gemm_nn_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @gemm_nn(%[[TMA:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[TMB:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %[[C:.*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[K:.*]]: i32, %[[LDC:.*]]: i32, %[[ALPHA:.*]]: f32) attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 1 : i32}
// Two stages: full barriers count the producer's arrival, empty barriers
// every thread's release.
// CHECK-COUNT-2: nvvm.mbarrier.init %{{.*}}, %c1_i32 : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// A tile 64x64 + B tile 64x128, bf16: 24576 bytes a stage.
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c24576_i32
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TMA]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %[[TMB]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// Four k16 steps of BLOCK_K = 64; B is N-major, so its layout is row.
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue scales by alpha and stores bf16 pairs.
// CHECK: arith.mulf %{{.*}}, %[[ALPHA]] : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK-NOT: func.func
module {
  func.func @gemm_nn(%a: memref<?x?xbf16>, %b: memref<?x?xbf16>, %c: memref<?x?xbf16>, %alpha: f32) attributes {gemmc.kernel} {
    gemmc.matmul %a, %b, %c alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
    return
  }
}

// -----

// B col-major (K contiguous): one TMA load for B, and wgmma reads B K-major
// (layout col). No alpha: the kernel takes no scalar.

// CHECK-LABEL: llvm.func @gemm_tn(
// CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32) attributes
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK-COUNT-2: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK-NOT: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c32768_i32
// CHECK: scf.for
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
module {
  func.func @gemm_tn(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>) attributes {gemmc.kernel} {
    gemmc.matmul %a, %b, %c {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} : memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>
    return
  }
}
