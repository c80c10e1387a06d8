// RUN: gemmc-opt %s --split-input-file --gemmc-smem-layout | FileCheck %s

// bf16 64x128x64, two stages: A 8 KiB + B 16 KiB = 24 KiB a stage, the
// barriers after the ring at 48 KiB; the base rounded up to 1024 bytes.

// CHECK-LABEL: gpu.module @k1
// CHECK: llvm.mlir.global external @gemm_nn_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @gemm_nn_smem : !llvm.ptr<3>
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[BASE]] : !llvm.ptr<3> to i32
// CHECK-DAG: %[[C1023:.*]] = arith.constant 1023 : i32
// CHECK-DAG: %[[MASK:.*]] = arith.constant -1024 : i32
// CHECK: %[[UP:.*]] = arith.addi %[[ADDR]], %[[C1023]] : i32
// CHECK: %[[ALIGNED:.*]] = arith.andi %[[UP]], %[[MASK]] : i32
// CHECK: %[[PAD:.*]] = arith.subi %[[ALIGNED]], %[[ADDR]] : i32
// CHECK: %[[SMEM:.*]] = llvm.getelementptr %[[BASE]][%[[PAD]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK: gemmc.tile_matmul {{.*}} alpha(%{{.*}}) smem(%[[SMEM]]) {schedule = #gemmc.schedule<{{.*}}>, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
gpu.module @k1 {
  llvm.func @gemm_nn(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32) attributes {nvvm.kernel} {
    %z = arith.constant 0 : i32
    gemmc.tile_matmul %ta, %tb, %c, %z, %z, %m, %n, %k, %ldc alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// f16 128x128x64, three stages of 32 KiB.

// CHECK-LABEL: gpu.module @k2
// CHECK: smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 32768, b_offset = 16384, barriers = 98304, align = 1024, swizzle = 128>
gpu.module @k2 {
  llvm.func @gemm_tn(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %beta: f32) attributes {nvvm.kernel} {
    %z = arith.constant 0 : i32
    gemmc.tile_matmul %ta, %tb, %c, %z, %z, %m, %n, %k, %ldc beta(%beta) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// store: tma on the same 64x128 tile: 2 stages leave room for a ring of both
// chunk buffers of a tile row (2 x 64 rows x 128 B = 16 KiB) after the
// stages; the barriers move behind it.

// CHECK-LABEL: gpu.module @k9
// CHECK: smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 65536, align = 1024, swizzle = 128, epilogue = 49152>
gpu.module @k9 {
  llvm.func @gemm_tma(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tc: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32) attributes {nvvm.kernel} {
    %z = arith.constant 0 : i32
    gemmc.tile_matmul %ta, %tb, %c, %z, %z, %m, %n, %k, %ldc tmap_c(%tc : !llvm.ptr) alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// epilogue.buffers: 1 on the block-scaled e4m3 128x256x128 g1 kernel
// (stage_scales): 4 stages of 48 KiB end at 196608; the ring of one chunk
// buffer (128 rows x 128 B = 16 KiB) follows, then the 4 scale slots of
// (128 + 2) x 4 = 520 -> 528 bytes (2112), then the barriers at
// 196608 + 16384 + 2112 = 215104. With the 2-buffer ring the barriers
// would end 128 bytes past the 227 KiB a block may use.

// CHECK-LABEL: gpu.module @k10
// CHECK: smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 215104, align = 1024, swizzle = 128, epilogue = 196608>
gpu.module @k10 {
  llvm.func @gemm_bs(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tc: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32) attributes {nvvm.kernel} {
    %z = arith.constant 0 : i32
    gemmc.tile_matmul %ta, %tb, %c, %z, %z, %m, %n, %k, %ldc tmap_c(%tc : !llvm.ptr) alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none", fold_columns = 128, fold_group = 1, stage_scales = true, epilogue_buffers = 1>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>
    llvm.return
  }
}
