// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue --canonicalize --cse | FileCheck %s

// sm_100a: the accumulator is a tensor-memory address. Each warp of the
// epilogue warpgroup reads its 32 rows (lane l: row m0 + 32 (warp % 4) + l)
// 32 columns at a time (BLOCK_N = 64: two loads, the second at column 32);
// every lane loads (the load is collective), only rows inside M store, two
// columns a store (one when the second lies at or past N).

// CHECK-LABEL: llvm.func @tmem_epilogue(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %[[C:[a-z0-9]*]]: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK-NEXT: %[[INWG:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[WARP:.*]] = arith.divui %[[INWG]], %c32_i32 : i32
// CHECK: %[[WROW:.*]] = arith.muli %[[WARP]], %c32_i32 : i32
// CHECK-NEXT: %[[R:.*]] = arith.addi %[[WROW]], %[[LANE]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[M0]], %[[R]] : i32
// CHECK-NEXT: %[[INSIDE:.*]] = arith.cmpi ult, %[[ROW]], %[[M]] : i32
// CHECK-NEXT: %[[V0:.*]] = gemmc.acc_load %[[ACC]] {count = 32 : i64} : vector<32xf32>
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK: %[[E0:.*]] = llvm.extractelement %[[V0]][%c0_i32 : i32] : vector<32xf32>
// CHECK-NEXT: %[[S0:.*]] = arith.mulf %[[E0]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[E1:.*]] = llvm.extractelement %[[V0]][%c1_i32 : i32] : vector<32xf32>
// CHECK-NEXT: %[[S1:.*]] = arith.mulf %[[E1]], %[[ALPHA]] : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 2 : i64} : f16, !llvm.ptr<1>
// CHECK-COUNT-15: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
// CHECK: %[[AT:.*]] = arith.addi %[[ACC]], %c32_i32 : i32
// CHECK-NEXT: %[[V1:.*]] = gemmc.acc_load %[[AT]] {count = 32 : i64} : vector<32xf32>
// CHECK-NEXT: scf.if %[[INSIDE]] {
// CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xf16>, !llvm.ptr<1>
// CHECK-NOT: gemmc.acc_load
gpu.module @k1 {
  llvm.func @tmem_epilogue(%acc: i32, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %alpha: f32) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 64, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : i32, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// sm_100a, store: tma, BLOCK_N = 64 (one 64-column chunk, one buffer of 128
// rows x 128 B): a tile over a ragged right edge (N not a multiple of 8
// halves) stores from registers as above; otherwise every thread loads its
// row's 64 columns, the leader waits for the buffer's last store, the
// warpgroup meets at barrier 1 + warpgroup, each thread writes its row's
// eight 16-byte units at unit u ^ (row % 8), and after the fence and the
// barrier the leader stores the chunk at (n0, m0).

// CHECK-LABEL: llvm.func @tmem_tma_epilogue(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %{{.*}}: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %{{.*}}: i32, %[[N:[a-z0-9]*]]: i32, %{{.*}}: i32, %{{.*}}: f32, %[[TMAP:[a-z0-9]*]]: !llvm.ptr, %[[BUF:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[RAGGED:.*]] = arith.andi
// CHECK-NEXT: scf.if %[[RAGGED]] {
// CHECK: gemmc.acc_load %[[ACC]] {count = 32 : i64} : vector<32xf32>
// CHECK: } else {
// CHECK: %[[V:.*]] = gemmc.acc_load %[[ACC]] {count = 64 : i64} : vector<64xf32>
// CHECK-NEXT: scf.if %[[LEADER:.*]] {
// CHECK-NEXT: gemmc.store_drain 0 {read}
// CHECK: gemmc.named_barrier %[[BAR:.*]], %c128_i32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK: arith.xori %[[PHASE:.*]], %c1_i32 : i32
// CHECK-COUNT-7: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NEXT: gemmc.shared_fence
// CHECK-NEXT: gemmc.named_barrier %[[BAR]], %c128_i32
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: gemmc.store_tile %[[TMAP]], %[[BUF]], %[[N0]], %[[M0]]
// CHECK-NOT: gemmc.acc_load
gpu.module @k2 {
  llvm.func @tmem_tma_epilogue(%acc: i32, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %alpha: f32, %tmap: !llvm.ptr, %buf: !llvm.ptr<3>) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) tma(%tmap, %buf : !llvm.ptr, !llvm.ptr<3>) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 64, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">} : i32, !llvm.ptr<1>
    llvm.return
  }
}
