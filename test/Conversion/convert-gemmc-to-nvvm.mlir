// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s
// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm=wgmma-n=64 --canonicalize --cse | FileCheck %s --check-prefix=SPLIT
// RUN: not gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm=wgmma-n=96 2>&1 | FileCheck %s --check-prefix=BAD

// B row-major (N-major): four k16 steps of BLOCK_K = 64. Each tile's 14-bit
// address field (address >> 4) is computed once; a k step adds a constant
// to it: A moves 32 bytes along its 128-byte rows (2 units), B 16 rows
// (2048 bytes, 128 units) down its slabs. The low word also carries the
// leading byte offset in bits 16-29: 16 B (1 << 16 = 65536) for A, the slab
// size 8192 B (512 << 16 = 33554432) for N-major B. The upper word is the
// stride, 1024 B (64), and the 128-byte swizzle (1 << 62):
// 0x4000004000000000 = 4611686293305294848.

// CHECK-LABEL: llvm.func @nn(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<{{.*}}>, %[[A:[a-z0-9]*]]: !llvm.ptr<3>, %[[B:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK-DAG: %[[UP:.*]] = arith.constant 4611686293305294848 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 16383 : i32
// CHECK: %[[PA:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr<3> to i32
// CHECK: %[[SA:.*]] = arith.shrui %[[PA]]
// CHECK: %[[FA:.*]] = arith.andi %[[SA]], %[[MASK]] : i32
// CHECK: %[[PB:.*]] = llvm.ptrtoint %[[B]] : !llvm.ptr<3> to i32
// CHECK: %[[SB:.*]] = arith.shrui %[[PB]]
// CHECK: %[[FB:.*]] = arith.andi %[[SB]], %[[MASK]] : i32
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[LA0:.*]] = arith.addi %[[FA]], %c65536_i32 : i32
// CHECK: %[[XA0:.*]] = arith.extui %[[LA0]] : i32 to i64
// CHECK: %[[DA0:.*]] = arith.ori %[[XA0]], %[[UP]] : i64
// CHECK: %[[LB0:.*]] = arith.addi %[[FB]], %c33554432_i32 : i32
// CHECK: %[[XB0:.*]] = arith.extui %[[LB0]] : i32 to i64
// CHECK: %[[DB0:.*]] = arith.ori %[[XB0]], %[[UP]] : i64
// CHECK: %[[R0:.*]] = nvvm.wgmma.mma_async %[[DA0]], %[[DB0]], %[[ACC]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: arith.addi %[[FA]], %c65538_i32 : i32
// CHECK: arith.addi %[[FB]], %c33554560_i32 : i32
// CHECK: %[[R1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[R0]],
// CHECK: arith.addi %[[FA]], %c65540_i32 : i32
// CHECK: arith.addi %[[FB]], %c33554688_i32 : i32
// CHECK: %[[R2:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[R1]],
// CHECK: arith.addi %[[FA]], %c65542_i32 : i32
// CHECK: arith.addi %[[FB]], %c33554816_i32 : i32
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

// f16, B col-major (K-major): B's descriptor is built like A's (leading
// offset 16 B, 2 units a k step) and wgmma reads B with layout col.

// CHECK-LABEL: llvm.func @tn(
// CHECK-NOT: 33554432
// CHECK: %[[FB:.*]] = arith.andi %{{.*}}, %c16383_i32 : i32
// CHECK: arith.addi %[[FB]], %c65536_i32 : i32
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
gpu.module @k2 {
  llvm.func @tn(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %a, %b {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// BLOCK_N = 256: by default one 64x256 wgmma per k step. With wgmma-n=64
// (the SPLIT run; the 128-column tiles above become two parts too) each k
// step is four independent 64x64 wgmmas, on accumulator registers 0-31,
// 32-63, 64-95 and 96-127, issued in turn; part p's B starts 64p rows
// (8192p B, 512p units) further on. The parts are taken apart once before the
// first k step and put back together after the last.

// CHECK-LABEL: llvm.func @tn256(
// CHECK-NOT: llvm.extractvalue
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async

// SPLIT-LABEL: llvm.func @tn256(
// SPLIT-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<{{.*}}>, %[[A:[a-z0-9]*]]: !llvm.ptr<3>, %[[B:[a-z0-9]*]]: !llvm.ptr<3>)
// SPLIT: %[[FA:.*]] = arith.andi %{{.*}}, %c16383_i32 : i32
// SPLIT: %[[FB:.*]] = arith.andi %{{.*}}, %c16383_i32 : i32
// SPLIT: llvm.extractvalue %[[ACC]][31]
// SPLIT-NEXT: %[[P0:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] : !llvm.struct<
// SPLIT-NEXT: llvm.extractvalue %[[ACC]][32]
// SPLIT: %[[Q0:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[31] : !llvm.struct<
// SPLIT: arith.addi %[[FA]], %c65536_i32 : i32
// SPLIT: arith.addi %[[FB]], %c65536_i32 : i32
// SPLIT: %[[P1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[P0]], <m = 64, n = 64, k = 16>
// SPLIT: arith.addi %[[FB]], %c66048_i32 : i32
// SPLIT: %[[Q1:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[Q0]], <m = 64, n = 64, k = 16>
// SPLIT: arith.addi %[[FB]], %c66560_i32 : i32
// SPLIT: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// SPLIT: arith.addi %[[FB]], %c67072_i32 : i32
// SPLIT: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>
// SPLIT: %[[P2:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[P1]], <m = 64, n = 64, k = 16>
// SPLIT: arith.addi %[[FB]], %c66050_i32 : i32
// SPLIT: %[[Q2:.*]] = nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, %[[Q1]], <m = 64, n = 64, k = 16>
// SPLIT-COUNT-10: nvvm.wgmma.mma_async
// SPLIT-NEXT: nvvm.wgmma.commit.group.sync.aligned
// SPLIT-NEXT: llvm.extractvalue
// SPLIT: llvm.insertvalue %{{.*}}, %{{.*}}[127] : !llvm.struct<
// SPLIT-NEXT: llvm.return

// BAD: error: 'gemmc.mma_stage' op wgmma-n 96 does not fit BLOCK_N 256: it must divide it, be a multiple of 8 between 8 and 256
gpu.module @k3 {
  llvm.func @tn256(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %a: !llvm.ptr<3>, %b: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %a, %b {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}
