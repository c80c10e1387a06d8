// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// multistage, 64x128x64, two stages: thread 0 initializes the ring (one
// producer arrival fills a stage, one consumer warpgroup empties it), loads
// a tile's first two K tiles (each only if the tile has it), and refills
// the stage a consumer step releases with load g + 1 = (g - 1) + stages,
// K tile kt + 1 = (kt - 1) + stages, while that is below the K tiles.

// CHECK-LABEL: llvm.func @multistage(
// CHECK-SAME: %[[TA:[a-z0-9]*]]: !llvm.ptr {{{.*}}}, %[[TB:[a-z0-9]*]]: !llvm.ptr {{{.*}}}, %[[C:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32, %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: %[[KR:.*]] = arith.addi %[[K]], %c63_i32 : i32
// CHECK: %[[KT:.*]] = arith.divui %[[KR]], %c64_i32 : i32
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: gemmc.ring_init %[[S]] {empty_arrivals = 1 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK: gemmc.cta_sync{{$}}
// CHECK: %{{.*}} = gemmc.tile_loop %[[FIRST]], %[[STEP]], %[[M]], %[[N]], %[[KT]] iter(%c0_i32) attributes
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[G:.*]]: i32):
// CHECK: scf.if %[[T0]] {
// CHECK: %[[HAS0:.*]] = arith.cmpi ugt, %[[KT]], %c0_i32 : i32
// CHECK: scf.if %[[HAS0]] {
// CHECK-NEXT: gemmc.stage_acquire %[[G]], %[[S]]
// CHECK-NEXT: gemmc.stage_fill %[[G]], %[[M0]], %[[N0]], %c0_i32, %[[TA]], %[[TB]], %[[S]]
// CHECK: %[[HAS1:.*]] = arith.cmpi ugt, %[[KT]], %c1_i32 : i32
// CHECK: scf.if %[[HAS1]] {
// CHECK-NEXT: %[[G1:.*]] = arith.addi %[[G]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_acquire %[[G1]], %[[S]]
// CHECK-NEXT: gemmc.stage_fill %[[G1]], %[[M0]], %[[N0]], %c1_i32, %[[TA]], %[[TB]], %[[S]]
// CHECK: %[[ACC:.*]] = scf.for %[[STEPK:.*]] = %c0_i32 to %[[KT]] step %c1_i32 iter_args(%[[A0:.*]] = %{{.*}}) -> (!llvm.struct<(f32,
// CHECK-NEXT: %[[GK:.*]] = arith.addi %[[G]], %[[STEPK]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GK]], %[[S]]
// CHECK-NEXT: %[[BASE:.*]] = gemmc.stage_base %[[GK]], %[[S]]
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[BASE]][8192] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %[[NEXT:.*]] = gemmc.mma_stage %[[A0]], %[[BASE]], %[[BT]]
// CHECK-NEXT: gemmc.mma_wait 1
// CHECK-NEXT: %[[NOTFIRST:.*]] = arith.cmpi ugt, %[[STEPK]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[NOTFIRST]] {
// CHECK-NEXT: %[[PREV:.*]] = arith.subi %[[GK]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[PREV]], %[[S]] {cluster_size = 1 : i64
// CHECK-NEXT: %[[NEXTK:.*]] = arith.addi %[[STEPK]], %c1_i32 : i32
// CHECK-NEXT: %[[INK:.*]] = arith.cmpi ult, %[[NEXTK]], %[[KT]] : i32
// CHECK-NEXT: %[[REFILL:.*]] = arith.andi %[[T0]], %[[INK]] : i1
// CHECK-NEXT: scf.if %[[REFILL]] {
// CHECK-NEXT: %[[GR:.*]] = arith.addi %[[GK]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_acquire %[[GR]], %[[S]]
// CHECK-NEXT: gemmc.stage_fill %[[GR]], %[[M0]], %[[N0]], %[[NEXTK]], %[[TA]], %[[TB]], %[[S]]
// CHECK: scf.yield %[[NEXT]]
// CHECK: gemmc.mma_wait 0
// CHECK-NEXT: %[[GEND:.*]] = arith.addi %[[G]], %[[KT]] : i32
// CHECK-NEXT: %[[GLAST:.*]] = arith.subi %[[GEND]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GLAST]], %[[S]]
// CHECK-NEXT: gemmc.epilogue %[[ACC]], %[[C]], %[[M0]], %[[N0]], %[[M]], %[[N]], %[[LDC]] alpha(%[[ALPHA]])
// CHECK-NEXT: gemmc.yield %[[GEND]] : i32
// CHECK-NOT: gemmc.cta_sync
// CHECK: llvm.return
gpu.module @k1 {
  llvm.func @multistage(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// warp_specialized_cooperative, 128x256x64, four stages: warpgroups 0 and 1
// consume (an empty barrier counts their two releases) after raising their
// registers to 232; warpgroup 2 lowers its registers to 40 and its first
// thread (thread 256) issues every load, load g + (kt - k_begin) for K tile
// kt. Consumer warpgroup w multiplies rows 64w.. of the A tile: 64 rows x
// 128 bytes = 8192 bytes further on; B follows A's 16 KiB.

// CHECK-LABEL: llvm.func @cooperative(
// CHECK-SAME: %[[TA:[a-z0-9]*]]: !llvm.ptr {{{.*}}}, %[[TB:[a-z0-9]*]]: !llvm.ptr {{{.*}}}, %[[C:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}
// CHECK-SAME: %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: gemmc.ring_init %[[S]] {empty_arrivals = 2 : i64, full_arrivals = 1 : i64,
// CHECK: gemmc.cta_sync{{$}}
// CHECK: %[[PRODUCER:.*]] = arith.cmpi uge, %[[TID:.*]], %c256_i32 : i32
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK-NEXT: gemmc.set_max_registers 40{{$}}
// CHECK-NEXT: %[[ISSUER:.*]] = arith.cmpi eq, %[[TID]], %c256_i32 : i32
// CHECK-NEXT: scf.if %[[ISSUER]] {
// CHECK-NEXT: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: scf.for %[[KTILE:.*]] = %[[KB]] to %[[KE]] step %c1_i32
// CHECK-NEXT: %[[OFF:.*]] = arith.subi %[[KTILE]], %[[KB]] : i32
// CHECK-NEXT: %[[GL:.*]] = arith.addi %[[G]], %[[OFF]] : i32
// CHECK-NEXT: gemmc.stage_acquire %[[GL]], %[[S]]
// CHECK-NEXT: gemmc.stage_fill %[[GL]], %[[M0]], %[[N0]], %[[KTILE]], %[[TA]], %[[TB]], %[[S]]
// CHECK: } else {
// CHECK-NEXT: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: gemmc.tile_loop
// CHECK: %[[WG:.*]] = arith.divui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[UWG:.*]] = nvvm.shfl.sync  idx %c-1_i32, %[[WG]], %c0_i32, %c31_i32 : i32 -> i32
// CHECK-NEXT: %[[SLICE:.*]] = arith.muli %[[UWG]], %c8192_i32 : i32
// CHECK: %[[BASE:.*]] = gemmc.stage_base
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[BASE]][16384]
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[BASE]][%[[SLICE]]]
// CHECK-NEXT: gemmc.mma_stage %{{.*}}, %[[AT]], %[[BT]]
// CHECK: gemmc.stage_release %{{.*}}, %[[S]] {cluster_size = 1 : i64
// CHECK: gemmc.epilogue
// CHECK-NOT: gemmc.cta_sync
// CHECK: llvm.return
gpu.module @k2 {
  llvm.func @cooperative(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// A cluster of two CTAs along M sharing B (multicast): an empty barrier
// waits for the two consumer warpgroups of both CTAs (4 releases), a stage
// is released on both CTAs (cluster_size 2), and cluster-wide barriers
// follow initialization and end the kernel.

// CHECK-LABEL: llvm.func @multicast(
// CHECK: gemmc.ring_init %{{.*}} {empty_arrivals = 4 : i64, full_arrivals = 1 : i64,
// CHECK: gemmc.cta_sync {cluster}
// CHECK: gemmc.stage_release %{{.*}} {cluster_size = 2 : i64
// CHECK: gemmc.stage_release %{{.*}} {cluster_size = 2 : i64
// CHECK: gemmc.cta_sync {cluster}
// CHECK-NEXT: llvm.return
gpu.module @k3 {
  llvm.func @multicast(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// warp_specialized_pingpong, 64x256: one consumer warpgroup takes a stage
// (empty_arrivals 1). Warpgroup w computes the CTA's local tiles w, w + 2,
// ... (ceil(mine / 2) turns), tile first + local x step (its origin computed
// a turn ahead, before the wait), its loads numbered from local x K tiles; it waits at named barrier 3 + w for its turn (not
// warpgroup 0's first) and, after its last stage wait, arrives at 3 + (1 - w)
// = 4 - w; a turn without a tile still hands over. Warpgroup 0 takes the
// last hand-over; the leaders drain their TMA stores. The warpgroup id is
// lane 0's, shuffled (uniform: its load numbers and descriptors stay in
// uniform registers).

// CHECK-LABEL: llvm.func @pingpong(
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: gemmc.ring_init %[[S]] {empty_arrivals = 1 : i64, full_arrivals = 1 : i64,
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: %[[WGT:.*]] = arith.divui %[[TID:.*]], %c128_i32 : i32
// CHECK-NEXT: %[[WG:.*]] = nvvm.shfl.sync idx %c-1_i32, %[[WGT]], %c0_i32, %c31_i32 : i32 -> i32
// CHECK-NEXT: %[[ISWG0:.*]] = arith.cmpi eq, %[[WG]], %c0_i32 : i32
// CHECK-NEXT: %[[TILES:.*]] = gemmc.tile_count
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi ult, %[[FIRST]], %[[TILES]] : i32
// CHECK-NEXT: %[[STEP1:.*]] = arith.subi %[[STEP]], %c1_i32 : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[FIRST]] : i32
// CHECK-NEXT: %[[LEFTR:.*]] = arith.addi %[[LEFT]], %[[STEP1]] : i32
// CHECK-NEXT: %[[MINE0:.*]] = arith.divui %[[LEFTR]], %[[STEP]] : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.select %[[ANY]], %[[MINE0]], %c0_i32 : i32
// CHECK-NEXT: %[[MINE1:.*]] = arith.addi %[[MINE]], %c1_i32 : i32
// CHECK-NEXT: %[[TURNS:.*]] = arith.divui %[[MINE1]], %c2_i32 : i32
// CHECK-NEXT: %[[MYTURN:.*]] = arith.addi %[[WG]], %c3_i32 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c4_i32, %[[WG]] : i32
// CHECK-NEXT: %[[LS0:.*]] = arith.muli %[[WG]], %[[STEP]] : i32
// CHECK-NEXT: %[[TILE0:.*]] = arith.addi %[[FIRST]], %[[LS0]] : i32
// CHECK-NEXT: %[[M00:.*]], %[[N00:.*]] = gemmc.tile_origin %[[TILE0]]
// CHECK-NEXT: scf.for %[[TURN:.*]] = %c0_i32 to %[[TURNS]] step %c1_i32 iter_args(%[[M0:.*]] = %[[M00]], %[[N0:.*]] = %[[N00]]) -> (i32, i32)
// CHECK-NEXT: %[[T2:.*]] = arith.muli %[[TURN]], %c2_i32 : i32
// CHECK-NEXT: %[[LOCAL:.*]] = arith.addi %[[T2]], %[[WG]] : i32
// CHECK-NEXT: %[[LS:.*]] = arith.muli %[[LOCAL]], %[[STEP]] : i32
// CHECK-NEXT: %[[TILE:.*]] = arith.addi %[[FIRST]], %[[LS]] : i32
// CHECK-NEXT: %[[NOTWG0:.*]] = arith.cmpi ne, %[[WG]], %c0_i32 : i32
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ugt, %[[TURN]], %c0_i32 : i32
// CHECK-NEXT: %[[WAIT:.*]] = arith.ori %[[LATER]], %[[NOTWG0]] : i1
// CHECK-NEXT: scf.if %[[WAIT]] {
// CHECK-NEXT: gemmc.named_barrier %[[MYTURN]], %c256_i32{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi ult, %[[TILE]], %[[TILES]] : i32
// CHECK-NEXT: scf.if %[[HAS]] {
// CHECK-NEXT: %[[G0:.*]] = arith.muli %[[LOCAL]], %[[KT:.*]] : i32
// CHECK: gemmc.mma_stage
// CHECK: gemmc.named_barrier %[[OTHER]], %c256_i32 {arrive}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK: gemmc.epilogue %{{.*}}, %{{.*}}, %[[M0]], %[[N0]]
// CHECK-NEXT: } else {
// CHECK-NEXT: gemmc.named_barrier %[[OTHER]], %c256_i32 {arrive}
// CHECK-NEXT: }
// The next turn's tile origin, carried: off the path from the hand-over to
// the first wgmma.
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[TURN]], %c1_i32 : i32
// CHECK-NEXT: %[[NT2:.*]] = arith.muli %[[NEXT]], %c2_i32 : i32
// CHECK-NEXT: %[[NLOCAL:.*]] = arith.addi %[[NT2]], %[[WG]] : i32
// CHECK-NEXT: %[[NLS:.*]] = arith.muli %[[NLOCAL]], %[[STEP]] : i32
// CHECK-NEXT: %[[NTILE:.*]] = arith.addi %[[FIRST]], %[[NLS]] : i32
// CHECK-NEXT: %[[NM0:.*]], %[[NN0:.*]] = gemmc.tile_origin %[[NTILE]]
// CHECK-NEXT: scf.yield %[[NM0]], %[[NN0]] : i32, i32
// CHECK: %[[ANYTURN:.*]] = arith.cmpi ugt, %[[TURNS]], %c0_i32 : i32
// CHECK-NEXT: %[[LASTWAIT:.*]] = arith.andi %[[ISWG0]], %[[ANYTURN]] : i1
// CHECK-NEXT: scf.if %[[LASTWAIT]] {
// CHECK-NEXT: gemmc.named_barrier %[[MYTURN]], %c256_i32{{$}}
// CHECK: gemmc.store_drain 0{{$}}
gpu.module @pingpong {
  llvm.func @pingpong(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr<1>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %arg0, %arg1, %arg3, %first, %step, %arg4, %arg5, %arg6, %arg7 tmap_c(%arg2 : !llvm.ptr) alpha(%arg8) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [64, 256, 64], cluster_shape = [1, 1], stages = 5, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_pingpong", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 5, stage_bytes = 40960, b_offset = 8192, barriers = 221184, align = 1024, swizzle = 128, epilogue = 204800>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// stream_k, cooperative 128x256: the plan is made once (from the K tiles),
// both roles walk the same pieces (tile_loop with split), and each consumer
// piece ends in a fixup over the 256 consumer threads whose body stores the
// finished tile.

// CHECK-LABEL: llvm.func @stream_k(
// CHECK-SAME: %[[WS:arg9]]: !llvm.ptr<1>, %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[KT:.*]] = arith.divui
// CHECK-NEXT: %[[SF:.*]], %[[SI:.*]] = gemmc.stream_k_plan %[[STEP]], %arg4, %arg5, %[[KT]]
// CHECK: gemmc.tile_loop %[[FIRST]], %[[STEP]], %arg4, %arg5, %[[KT]] iter(%c0_i32) split(%[[SF]], %[[SI]])
// CHECK: gemmc.tile_loop %[[FIRST]], %[[STEP]], %arg4, %arg5, %[[KT]] iter(%c0_i32) split(%[[SF]], %[[SI]])
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %[[TILE:.*]]: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %{{.*}}: i32):
// CHECK: gemmc.stream_k_fixup %[[ACC:.*]], %[[TILE]], %[[KB]], %[[KE]], %[[FIRST]], %[[STEP]], %[[KT]], %[[SF]], %[[SI]], %[[WS]] attributes {schedule = {{.*}}, threads = 256 : i64}
// CHECK-NEXT: ^bb0(%[[TOTAL:.*]]: !llvm.struct
// CHECK: gemmc.epilogue %[[TOTAL]], %{{.*}}, %[[M0]], %[[N0]]
gpu.module @stream_k {
  llvm.func @stream_k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr<1>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: f32, %arg9: !llvm.ptr<1>, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %arg0, %arg1, %arg3, %first, %step, %arg4, %arg5, %arg6, %arg7 tmap_c(%arg2 : !llvm.ptr) alpha(%arg8) workspace(%arg9 : !llvm.ptr<1>) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 229376, align = 1024, swizzle = 128, epilogue = 196608>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// stream_k, pingpong 64x256: both consumer warpgroups walk the producer's
// pieces (the same tile_loop with split, carrying its load number), each
// acting on the pieces of its parity (streamKPiece's ordinal: whole tiles
// (tile - first) / step, then the split ones after them, last to first:
// whole tiles + (the share's last split tile - (tile - split_first))). A piece waits for
// its turn (not piece 0), runs its K loop from the producer's load number,
// hands over after its last full-barrier wait, then ends in a fixup over its
// own warpgroup's 128 threads. After the loop the warpgroup of the piece
// after the last (the count's parity) takes the last hand-over.

// CHECK-LABEL: llvm.func @pingpong_stream_k(
// CHECK-SAME: %[[WS:arg9]]: !llvm.ptr<1>, %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[KT:.*]] = arith.divui
// CHECK-NEXT: %[[SF:.*]], %[[SI:.*]] = gemmc.stream_k_plan %[[STEP]], %arg4, %arg5, %[[KT]]
// CHECK: gemmc.tile_loop %[[FIRST]], %[[STEP]], %arg4, %arg5, %[[KT]] iter(%c0_i32) split(%[[SF]], %[[SI]])
// CHECK: gemmc.set_max_registers 232 {increase}
// CHECK-NEXT: %[[WGT:.*]] = arith.divui %[[TID:.*]], %c128_i32 : i32
// CHECK-NEXT: %[[WG:.*]] = nvvm.shfl.sync idx %c-1_i32, %[[WGT]], %c0_i32, %c31_i32 : i32 -> i32
// CHECK-NEXT: %[[MYTURN:.*]] = arith.addi %[[WG]], %c3_i32 : i32
// CHECK-NEXT: %[[OTHER:.*]] = arith.subi %c4_i32, %[[WG]] : i32
// CHECK-NEXT: gemmc.tile_loop %[[FIRST]], %[[STEP]], %arg4, %arg5, %[[KT]] iter(%c0_i32) split(%[[SF]], %[[SI]])
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %[[TILE:.*]]: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: %[[SINCE:.*]] = arith.subi %[[TILE]], %[[FIRST]] : i32
// CHECK-NEXT: %[[WHOLE:.*]] = arith.divui %[[SINCE]], %[[STEP]] : i32
// CHECK: %[[AFTER:.*]] = arith.subi %[[TILE]], %[[SF]] : i32
// CHECK-NEXT: %[[WHOLES:.*]] = arith.divui %[[SF]], %[[STEP]] : i32
// CHECK-NEXT: %[[PAST:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: %[[LASTSPLIT:.*]] = arith.subi %[[PAST]], %c1_i32 : i32
// CHECK-NEXT: %[[BEFORE:.*]] = arith.subi %[[LASTSPLIT]], %[[AFTER]] : i32
// CHECK-NEXT: %[[SPLIT:.*]] = arith.addi %[[WHOLES]], %[[BEFORE]] : i32
// CHECK-NEXT: %[[ISWHOLE:.*]] = arith.cmpi ult, %[[TILE]], %[[SF]] : i32
// CHECK-NEXT: %[[PIECE:.*]] = arith.select %[[ISWHOLE]], %[[WHOLE]], %[[SPLIT]] : i32
// CHECK-NEXT: %[[PARITY:.*]] = arith.remui %[[PIECE]], %c2_i32 : i32
// CHECK-NEXT: %[[OURS:.*]] = arith.cmpi eq, %[[PARITY]], %[[WG]] : i32
// CHECK-NEXT: scf.if %[[OURS]] {
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ne, %[[PIECE]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[LATER]] {
// CHECK-NEXT: gemmc.named_barrier %[[MYTURN]], %c256_i32{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: %[[ACC:.*]] = scf.for %{{.*}} = %c0_i32 to %[[STEPS]] step %c1_i32
// CHECK: gemmc.mma_stage
// CHECK: gemmc.named_barrier %[[OTHER]], %c256_i32 {arrive}
// CHECK-NEXT: gemmc.mma_wait 0
// CHECK-NEXT: %[[GEND:.*]] = arith.addi %[[G]], %[[STEPS]] : i32
// CHECK-NEXT: %[[GLAST:.*]] = arith.subi %[[GEND]], %c1_i32 : i32
// CHECK-NEXT: gemmc.stage_release %[[GLAST]], %[[S]]
// CHECK-NEXT: gemmc.stream_k_fixup %[[ACC]], %[[TILE]], %[[KB]], %[[KE]], %[[FIRST]], %[[STEP]], %[[KT]], %[[SF]], %[[SI]], %[[WS]] attributes {schedule = {{.*}}, threads = 128 : i64}
// CHECK-NEXT: ^bb0(%[[TOTAL:.*]]: !llvm.struct
// CHECK: gemmc.epilogue %[[TOTAL]], %{{.*}}, %[[M0]], %[[N0]]
// CHECK: gemmc.yield
// CHECK: %[[EMPTY:.*]] = arith.select %{{.*}}, %c0_i32, %{{.*}} : i32
// CHECK-NEXT: %[[PIECES:.*]] = arith.addi %{{.*}}, %[[EMPTY]] : i32
// CHECK-NEXT: %[[LPARITY:.*]] = arith.remui %[[PIECES]], %c2_i32 : i32
// CHECK-NEXT: %[[NEXTOURS:.*]] = arith.cmpi eq, %[[LPARITY]], %[[WG]] : i32
// CHECK-NEXT: %[[ANY:.*]] = arith.cmpi ugt, %[[PIECES]], %c0_i32 : i32
// CHECK-NEXT: %[[LASTWAIT:.*]] = arith.andi %[[ANY]], %[[NEXTOURS]] : i1
// CHECK-NEXT: scf.if %[[LASTWAIT]] {
// CHECK-NEXT: gemmc.named_barrier %[[MYTURN]], %c256_i32{{$}}
// CHECK: gemmc.store_drain 0{{$}}
gpu.module @pingpong_stream_k {
  llvm.func @pingpong_stream_k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr<1>, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: f32, %arg9: !llvm.ptr<1>, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %arg0, %arg1, %arg3, %first, %step, %arg4, %arg5, %arg6, %arg7 tmap_c(%arg2 : !llvm.ptr) alpha(%arg8) workspace(%arg9 : !llvm.ptr<1>) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [64, 256, 64], cluster_shape = [1, 1], stages = 5, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_pingpong", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "tma", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 5, stage_bytes = 40960, b_offset = 8192, barriers = 221184, align = 1024, swizzle = 128, epilogue = 204800>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
