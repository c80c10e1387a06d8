// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm --canonicalize --cse | FileCheck %s

// sm_80's ring: a wait is the thread's cp.async groups but stages - 2 (here
// 3 - 2 = 1), then the CTA barrier; a release drains every group; a stage's
// base is smem + (g mod stages) x stage bytes.

// CHECK-LABEL: llvm.func @ring(
// CHECK-SAME: %[[G:.*]]: i32, %[[S:.*]]: !llvm.ptr<3>)
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: nvvm.barrier0
// CHECK-NEXT: nvvm.cp.async.wait.group 0
// CHECK: %[[ST:.*]] = arith.remui %[[G]], %c3_i32 : i32
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[ST]], %c16384_i32 : i32
// CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %[[S]][%[[OFF]]]
// CHECK-NEXT: llvm.return %[[BASE]]
gpu.module @k1 [#nvvm.target<chip = "sm_80">] {
  llvm.func @ring(%g: i32, %s: !llvm.ptr<3>) -> !llvm.ptr<3> {
    gemmc.stage_wait %g, %s {smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 16384, b_offset = 8192, barriers = 49152, align = 16, swizzle = 64>} : !llvm.ptr<3>
    gemmc.stage_release %g, %s {cluster_size = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 16384, b_offset = 8192, barriers = 49152, align = 16, swizzle = 64>} : !llvm.ptr<3>
    %b = gemmc.stage_base %g, %s {smem_layout = #gemmc.smem_layout<stages = 3, stage_bytes = 16384, b_offset = 8192, barriers = 49152, align = 16, swizzle = 64>} : !llvm.ptr<3> -> !llvm.ptr<3>
    llvm.return %b : !llvm.ptr<3>
  }
}

// -----

// A fill of the 64x64x16 tf32 tile by 512 threads: A and B are 256 copies
// of 16 bytes each, so threads 256 and up copy nothing (but commit, like
// everyone: one group per load). Each copy is cp.async.cg of 16 bytes with
// the bytes inside the matrix as src-size.

// CHECK-LABEL: llvm.func @fill(
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[SOME:.*]] = arith.cmpi ult, %[[TID]], %c256_i32 : i32
// CHECK: scf.if %[[SOME]] {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: scf.if %[[SOME]] {
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: llvm.return
gpu.module @k2 [#nvvm.target<chip = "sm_80">] {
  llvm.func @fill(%g: i32, %m0: i32, %n0: i32, %kt: i32, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %s: !llvm.ptr<3>, %lda: i32, %ldb: i32, %m: i32, %n: i32, %k: i32) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %a, %b, %s ld(%lda, %ldb) clip(%m, %n, %k) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 8192, b_offset = 4096, barriers = 16384, align = 16, swizzle = 64>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// The MMA of a 64x64x16 tf32 stage: 16 warps of 16 x 16, two k steps of 8.
// Per step one ldmatrix.x4 of A and one of the K-major B (two n8 fragments),
// then two m16n8k8 tf32 mma.syncs; step 1's loads come before step 0's MMAs.

// CHECK-LABEL: llvm.func @mma(
// CHECK-COUNT-2: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK-COUNT-2: nvvm.ldmatrix
// CHECK-COUNT-2: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK-COUNT-2: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
gpu.module @k3 [#nvvm.target<chip = "sm_80">] {
  llvm.func @mma(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %at: !llvm.ptr<3>, %bt: !llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> {
    %r = gemmc.mma_stage %acc, %at, %bt {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return %r : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  }
}

// -----

// An N-major f16 B goes through ldmatrix .trans (mma_layout<col>), and the
// MMA is m16n8k16 on f16 pairs (the type is inferred from vector<2xf16>).

// CHECK-LABEL: llvm.func @mma_nn(
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32
// CHECK: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
gpu.module @k4 [#nvvm.target<chip = "sm_80">] {
  llvm.func @mma_nn(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %at: !llvm.ptr<3>, %bt: !llvm.ptr<3>) {
    %r = gemmc.mma_stage %acc, %at, %bt {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "f16", a_layout = "row", b = "f16", b_layout = "row", c = "f32", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 3, threads = 256, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<3>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// gemmc.mma_fragments (k step 1) and gemmc.mma_step of bf16 128x128x32 on 4
// warps of 64 x 64: 4 ldmatrix.x4 of A at one address + 0, 1024, 2048, 3072
// (16 rows of 64 bytes apart: the swizzle phase repeats every 8 rows, so
// one address register serves the warp's 4 m16 fragments), 4 of the
// K-major B likewise (the B tile's rows are N), then 4 x 8 m16n8k16 bf16
// mma.syncs, A fragment 0 with B fragments 0, 1, ... in turn.

// CHECK-LABEL: llvm.func @fragments_step(
// CHECK: %[[AT:.*]] = llvm.getelementptr %arg1[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.ldmatrix %[[AT]] {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}
// CHECK: llvm.getelementptr %[[AT]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[AT]][2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[AT]][3072] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: %[[BT:.*]] = llvm.getelementptr %arg2[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.ldmatrix %[[BT]]
// CHECK: llvm.getelementptr %[[BT]][1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[BT]][2048] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.getelementptr %[[BT]][3072] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: nvvm.ldmatrix
// CHECK-NOT: nvvm.ldmatrix
// CHECK: nvvm.mma.sync A[%[[A0:[0-9]+]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%[[B0:[0-9]+]], %{{.*}}]  C[{{.*}}]  {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// CHECK-NEXT: nvvm.mma.sync A[%[[A0]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]
// CHECK-COUNT-30: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
gpu.module @k5 [#nvvm.target<chip = "sm_80">] {
  llvm.func @fragments_step(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %at: !llvm.ptr<3>, %bt: !llvm.ptr<3>) {
    %f = gemmc.mma_fragments %at, %bt {k_step = 1 : i64, schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 4, threads = 128, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = true, bias = "none", activation = "none">} : !llvm.ptr<3>, !llvm.ptr<3> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
    %r = gemmc.mma_step %acc, %f {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 32], cluster_shape = [1, 1], stages = 4, threads = 128, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
    llvm.return
  }
}

// -----

// Without clip(...) (an interior tile's whole K tiles) every copy is 16
// bytes with no src-size operand and its address is not selected: the same
// fill as @fill but unchecked; the threads past the tile's 256 copies still
// copy nothing.

// CHECK-LABEL: llvm.func @fill_unchecked(
// CHECK: scf.if
// CHECK-NOT: arith.select
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: scf.if
// CHECK-NOT: arith.select
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK: llvm.return
gpu.module @k7 [#nvvm.target<chip = "sm_80">] {
  llvm.func @fill_unchecked(%g: i32, %m0: i32, %n0: i32, %kt: i32, %a: !llvm.ptr<1>, %b: !llvm.ptr<1>, %s: !llvm.ptr<3>, %lda: i32, %ldb: i32) {
    gemmc.stage_fill %g, %m0, %n0, %kt, %a, %b, %s ld(%lda, %ldb) {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "tf32", a_layout = "row", b = "tf32", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 64, 16], cluster_shape = [1, 1], stages = 2, threads = 512, load = "cp_async", multicast = false, smem_swizzle = "64b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 8192, b_offset = 4096, barriers = 16384, align = 16, swizzle = 64>} : !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
