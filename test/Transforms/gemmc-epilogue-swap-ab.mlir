// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue --canonicalize --cse | FileCheck %s
// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue | grep -c "llvm.store" | FileCheck %s --check-prefix=STORES

// swap_ab (issue 16): the kernel computes C^T = B^T A^T, a 64x16 tile of it
// (64 of the caller's N by 16 of its M, wgmma m64n16). The epilogue stores
// value (j, h, e) of lane l in warp w, C^T[m0 + 16w + l/4 + 8h][n0 + 8j +
// 2(l%4) + e], at C + (n0 + ...) x ldc + (m0 + ...): one element at a time
// (a thread's two adjacent columns are two rows of C), each clipped to the
// kernel's M (the caller's N) and N (the caller's M). 2 halves x 2 column
// blocks x 2 = 8 scalar stores per thread in each of the two cases.
// STORES: 16

// CHECK-LABEL: llvm.func @swap_ab_bf16(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, {{.*}}>, %[[C:[a-z0-9]*]]: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[INWG:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[INWG]], %c32_i32 : i32
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[WGROWS:.*]] = arith.muli %[[WG]], %c64_i32 : i32
// CHECK-NEXT: %[[GROUPROW:.*]] = arith.addi %[[M0]], %[[WGROWS]] : i32
// CHECK-NEXT: %[[L4:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[ROWIN:.*]] = arith.addi %[[W16]], %[[L4]] : i32
// CHECK-NEXT: %[[LM4:.*]] = arith.remui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[COLIN:.*]] = arith.muli %[[LM4]], %c2_i32 : i32
// CHECK-NEXT: %[[LDC64:.*]] = arith.extui %[[LDC]] : i32 to i64
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[N0]], %[[COLIN]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[GROUPROW]], %[[ROWIN]] : i32
// The row (a column of C) inside the kernel's M, the caller's N.
// CHECK-NEXT: %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW]], %[[M]] : i32
// CHECK-NEXT: scf.if %[[ROWOK]] {
// Value 0 (j = 0, h = 0, e = 0): C^T[row][col] = C[col][row] at col x ldc + row.
// CHECK-NEXT: %[[COLOK:.*]] = arith.cmpi ult, %[[COL]], %[[N]] : i32
// CHECK-NEXT: scf.if %[[COLOK]] {
// CHECK-NEXT: %[[ROW64:.*]] = arith.extui %[[ROW]] : i32 to i64
// CHECK-NEXT: %[[COL64:.*]] = arith.extui %[[COL]] : i32 to i64
// CHECK-NEXT: %[[COLOFF:.*]] = arith.muli %[[COL64]], %[[LDC64]] : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[COLOFF]], %[[ROW64]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT: %[[S0:.*]] = arith.mulf %[[V0]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[T0:.*]] = arith.truncf %[[S0]] : f32 to bf16
// CHECK-NEXT: llvm.store %[[T0]], %[[P]] {alignment = 2 : i64} : bf16, !llvm.ptr<1>
// CHECK-NEXT: }
// Value 1 (e = 1): the next row of C, col + 1.
// CHECK-NEXT: %[[COL1:.*]] = arith.addi %[[COL]], %c1_i32 : i32
// CHECK-NEXT: %[[COL1OK:.*]] = arith.cmpi ult, %[[COL1]], %[[N]] : i32
// CHECK-NEXT: scf.if %[[COL1OK]] {
// CHECK: llvm.extractvalue %[[ACC]][1]
// Value 4 (j = 1): col + 8; value 5: col + 9.
// CHECK: %[[COL8:.*]] = arith.addi %[[COL]], %c8_i32 : i32
// CHECK: llvm.extractvalue %[[ACC]][4]
// CHECK: %[[COL9:.*]] = arith.addi %[[COL]], %c9_i32 : i32
// CHECK: llvm.extractvalue %[[ACC]][5]
// The second half (h = 1): row + 8, values 2, 3, 6, 7.
// CHECK: %[[ROW8:.*]] = arith.addi %[[ROW]], %c8_i32 : i32
// CHECK-NEXT: %[[ROW8OK:.*]] = arith.cmpi ult, %[[ROW8]], %[[M]] : i32
// CHECK-NEXT: scf.if %[[ROW8OK]] {
// CHECK: llvm.extractvalue %[[ACC]][2]
// CHECK: llvm.extractvalue %[[ACC]][3]
// CHECK: llvm.extractvalue %[[ACC]][6]
// CHECK: llvm.extractvalue %[[ACC]][7]
// CHECK-NOT: vector<2x
gpu.module @k1 {
  llvm.func @swap_ab_bf16(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %alpha: f32) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [64, 16, 64], cluster_shape = [1, 1], stages = 4, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", swap_ab = true, tile_scheduler = "data_parallel", raster = "along_n", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// f32 C with beta: C[col][row] is read back (only when beta != 0) at the
// address it is stored to.

// CHECK-LABEL: llvm.func @swap_ab_beta_f32(
// CHECK-SAME: %[[C:[a-z0-9]*]]: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[LDC:[a-z0-9]*]]: i32, %[[BETA:[a-z0-9]*]]: f32)
// CHECK: %[[READ:.*]] = arith.cmpf une, %[[BETA]], %{{.*}} : f32
// CHECK: %[[OFF:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V:.*]] = llvm.extractvalue %{{.*}}[0]
// CHECK-NEXT: %[[X:.*]] = scf.if %[[READ]] -> (f32) {
// CHECK-NEXT: %[[OLD:.*]] = llvm.load %[[P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[OLD]], %[[BETA]] : f32
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[V]], %[[SCALED]] : f32
// CHECK-NEXT: scf.yield %[[SUM]] : f32
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[V]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: llvm.store %[[X]], %[[P]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
gpu.module @k2 {
  llvm.func @swap_ab_beta_f32(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %beta: f32) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc beta(%beta) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 16, 64], cluster_shape = [1, 1], stages = 4, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", swap_ab = true, tile_scheduler = "data_parallel", raster = "along_n", group = 8, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}
