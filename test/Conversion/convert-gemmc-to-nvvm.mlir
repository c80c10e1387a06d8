// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// B row-major (N-major): four k16 steps of BLOCK_K = 64. A's descriptor
// moves 32 bytes along its 128-byte rows per step; B's moves 16 rows
// (2048 bytes) down its slabs. Descriptor constants: A and K-major B carry
// leading offset 16 B (1), stride 1024 B (64) and the 128-byte swizzle
// (1 << 62): 0x4000004000010000 = 4611686293305360384; N-major B carries
// leading offset 8192 B (512, the slab size): 0x4000004002000000 =
// 4611686293338849280.

// CHECK-LABEL: llvm.func @nn(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<{{.*}}>, %[[A:[a-z0-9]*]]: !llvm.ptr<3>, %[[B:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK-DAG: %[[DESCA:.*]] = arith.constant 4611686293305360384 : i64
// CHECK-DAG: %[[DESCB:.*]] = arith.constant 4611686293338849280 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[R0:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[ACC]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: llvm.getelementptr %[[A]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[B]][2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[R1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[R0]],
// CHECK: llvm.getelementptr %[[A]][64]
// CHECK: llvm.getelementptr %[[B]][4096]
// CHECK: %[[R2:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[R1]],
// CHECK: llvm.getelementptr %[[A]][96]
// CHECK: llvm.getelementptr %[[B]][6144]
// CHECK: %[[R3:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[R2]],
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: llvm.return %[[R3]]
gpu.module @k1 {
  llvm.func @nn(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %a, %b {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// f16, B col-major (K-major): B's descriptor is built like A's and wgmma
// reads B with layout col.

// CHECK-LABEL: llvm.func @tn(
// CHECK: arith.constant 4611686293305360384 : i64
// CHECK-NOT: 4611686293338849280
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
gpu.module @k2 {
  llvm.func @tn(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %a, %b {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}
