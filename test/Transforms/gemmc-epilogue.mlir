// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue --canonicalize --cse | FileCheck %s
// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue | grep -c "vector<2xbf16>, !llvm.ptr<1>" | FileCheck %s --check-prefix=PAIRS
// RUN: gemmc-opt %s --split-input-file --gemmc-epilogue | grep -c "vector<2xbf16>, !llvm.ptr<3>" | FileCheck %s --check-prefix=TMA-PAIRS

// A 64x128 bf16 tile with alpha: each thread owns rows 16w + l/4 (+ 8) and
// columns 8j + 2(l%4) (+ 1); 2 row halves x 16 column chunks = 32 paired
// stores, each clipped to M x N. (The store: tma case below has the same 32
// in its ragged-edge fallback.)
// PAIRS: 64

// CHECK-LABEL: llvm.func @alpha_bf16(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, {{.*}}>, %[[C:[a-z0-9]*]]: !llvm.ptr<1>, %[[M0:[a-z0-9]*]]: i32, %[[N0:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK: %[[INWG:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK: %[[WARP:.*]] = arith.divui %[[INWG]], %c32_i32 : i32
// The warpgroup's rows start 64 x warpgroup below m0.
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[WGROWS:.*]] = arith.muli %[[WG]], %c64_i32 : i32
// CHECK-NEXT: %[[GROUPROW:.*]] = arith.addi %[[M0]], %[[WGROWS]] : i32
// Row 16 w + l / 4 of the group, column n0 + 2 (l % 4).
// CHECK-NEXT: %[[L4:.*]] = arith.divui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[W16:.*]] = arith.muli %[[WARP]], %c16_i32 : i32
// CHECK-NEXT: %[[ROWIN:.*]] = arith.addi %[[W16]], %[[L4]] : i32
// CHECK-NEXT: %[[LM4:.*]] = arith.remui %[[LANE]], %c4_i32 : i32
// CHECK-NEXT: %[[COLIN:.*]] = arith.muli %[[LM4]], %c2_i32 : i32
// CHECK-NEXT: %[[LDC64:.*]] = arith.extui %[[LDC]] : i32 to i64
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[N0]], %[[COLIN]] : i32
// The columns left of N from the thread's first (ColumnsLeft): each pair
// tests it against its offset.
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[N]], %[[COL]] : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[GROUPROW]], %[[ROWIN]] : i32
// CHECK-NEXT: %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW]], %[[M]] : i32
// CHECK-NEXT: scf.if %[[ROWOK]] {
// CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT: %[[S0:.*]] = arith.mulf %[[V0]], %[[ALPHA]] : f32
// CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ACC]][1]
// CHECK-NEXT: %[[S1:.*]] = arith.mulf %[[V1]], %[[ALPHA]] : f32
// C[row][col] at row x ldc + col.
// CHECK-NEXT: %[[COL64:.*]] = arith.extui %[[COL]] : i32 to i64
// CHECK-NEXT: %[[ROW64:.*]] = arith.extui %[[ROW]] : i32 to i64
// CHECK-NEXT: %[[ROWOFF:.*]] = arith.muli %[[ROW64]], %[[LDC64]] : i64
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[ROWOFF]], %[[COL64]] : i64
// CHECK-NEXT: %[[P:.*]] = llvm.getelementptr %[[C]][%[[OFF]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// Both columns inside N (N - col > 1): one paired store; else the first
// alone if N - col > 0.
// CHECK-NEXT: %[[BOTH:.*]] = arith.cmpi sgt, %[[LEFT]], %c1_i32 : i32
// CHECK-NEXT: scf.if %[[BOTH]] {
// CHECK-NEXT: %[[T1:.*]] = arith.truncf %[[S1]] : f32 to bf16
// CHECK-NEXT: %[[T0:.*]] = arith.truncf %[[S0]] : f32 to bf16
// CHECK: llvm.store %{{.*}}, %[[P]] {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[FIRSTOK:.*]] = arith.cmpi sgt, %[[LEFT]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[FIRSTOK]] {
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[S0]] : f32 to bf16
// CHECK-NEXT: llvm.store %[[T]], %[[P]] {alignment = 2 : i64} : bf16, !llvm.ptr<1>
gpu.module @k1 {
  llvm.func @alpha_bf16(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %alpha: f32) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc alpha(%alpha) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// f32 output with beta and no alpha: C is read (only when beta is not 0, as
// in BLAS), scaled by beta and added.

// CHECK-LABEL: llvm.func @beta_f32(
// CHECK-SAME: %[[BETA:[a-z0-9]*]]: f32)
// CHECK: %[[READ:.*]] = arith.cmpf une, %[[BETA]], %{{.*}} : f32
// CHECK: scf.if
// CHECK: scf.if %[[READ]] -> (f32) {
// CHECK: %[[OLD:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: %[[SCALED:.*]] = arith.mulf %[[OLD]], %[[BETA]] : f32
// CHECK: arith.addf %{{.*}}, %[[SCALED]] : f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT: arith.truncf
gpu.module @k2 {
  llvm.func @beta_f32(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %beta: f32) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc beta(%beta) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h100", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = false, beta = true, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}

// -----

// store: tma, a 64x128 bf16 tile whose 2 chunks of 64 columns fit a
// whole-row ring (stages = 2 leave room): one round per tile. A tile whose
// right edge cuts a 16-byte unit of C's row (N % 8 != 0 and n0 + 128 > N)
// stores from registers instead; TMA would write the whole unit. The
// shared-memory pairs go to 16-byte unit (column bytes / 16) XOR (row % 8),
// row % 8 being lane / 4.
// TMA-PAIRS: 32

// CHECK-LABEL: llvm.func @tma_bf16(
// CHECK: %[[WG:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK-NEXT: %[[WGROWS:.*]] = arith.muli %[[WG]], %c64_i32 : i32
// CHECK-NEXT: %[[GROUPROW:.*]] = arith.addi %arg2, %[[WGROWS]] : i32
// CHECK: %[[PAST:.*]] = arith.cmpi ugt, %{{.*}}, %[[N:arg5]] : i32
// CHECK: %[[REM:.*]] = arith.remui %[[N]], %c8_i32 : i32
// CHECK: %[[CUT:.*]] = arith.cmpi ne, %[[REM]], %c0_i32 : i32
// CHECK: %[[RAGGED:.*]] = arith.andi %[[CUT]], %[[PAST]] : i1
// CHECK: scf.if %[[RAGGED]] {
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<1>
// CHECK: } else {
// CHECK: gemmc.store_drain 0 {read}
// CHECK: gemmc.named_barrier %[[BAR:.*]], %c128_i32{{$}}
// CHECK: arith.xori
// CHECK: %[[BUF1:.*]] = llvm.getelementptr %arg8[8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// CHECK: gemmc.shared_fence
// CHECK-NEXT: gemmc.named_barrier %[[BAR]], %c128_i32{{$}}
// The leader stores chunk 0 at (n0, the warpgroup's first row m0 + 64 x
// warpgroup) and chunk 1 64 columns further, from the ring's two buffers.
// CHECK: gemmc.store_tile %[[TMAP:arg7]], %[[BUF:arg8]], %[[N0:arg3]], %[[GROUPROW]]
// CHECK-NEXT: %[[X1:.*]] = arith.addi %[[N0]], %c64_i32 : i32
// CHECK-NEXT: gemmc.store_tile %[[TMAP]], %[[BUF1]], %[[X1]], %[[GROUPROW]]
gpu.module @k3 {
  llvm.func @tma_bf16(%acc: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %c: !llvm.ptr<1>, %m0: i32, %n0: i32, %m: i32, %n: i32, %ldc: i32, %tmap: !llvm.ptr, %buf: !llvm.ptr<3>) {
    gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc tma(%tmap, %buf : !llvm.ptr, !llvm.ptr<3>) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = false, beta = false, bias = "none", activation = "none">} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}
