// RUN: gemmc-opt %s --split-input-file --allow-unregistered-dialect --gemmc-schedule-tiles --canonicalize --cse | FileCheck %s

// data_parallel/persistent, 64x128 tiles, raster along_m in groups of 8:
// the CTA's tiles first, first + step, ... below ceil(m / 64) x ceil(n /
// 128); tile t lies in group t / (8 x tiles_n), whose first tile row is 8 x
// that; within it, row first + t % per_group % size and column t % per_group
// / size, size = min(tiles_m - first, 8). Every piece is a whole tile: K
// tiles [0, kt).

// CHECK-LABEL: func.func @along_m(
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32)
// CHECK: %[[NR:.*]] = arith.addi %[[N]], %c127_i32 : i32
// CHECK-NEXT: %[[TN:.*]] = arith.divui %[[NR]], %c128_i32 : i32
// CHECK-NEXT: %[[MR:.*]] = arith.addi %[[M]], %c63_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MR]], %c64_i32 : i32
// CHECK-NEXT: %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]] : i32
// CHECK-NEXT: %{{.*}} = scf.for %[[T:.*]] = %[[FIRST]] to %[[TILES]] step %[[STEP]] iter_args(%[[G:.*]] = %c0_i32) -> (i32)
// CHECK-NEXT: %[[PER:.*]] = arith.muli %[[TN]], %c8_i32 : i32
// CHECK-NEXT: %[[GI:.*]] = arith.divui %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[GFIRST:.*]] = arith.muli %[[GI]], %c8_i32 : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TM]], %[[GFIRST]] : i32
// CHECK-NEXT: %[[SIZE:.*]] = arith.minui %[[LEFT]], %c8_i32 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.remui %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[IN]], %[[SIZE]] : i32
// CHECK-NEXT: %[[ROWT:.*]] = arith.addi %[[GFIRST]], %[[R]] : i32
// CHECK-NEXT: %[[COLT:.*]] = arith.divui %[[IN]], %[[SIZE]] : i32
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[ROWT]], %c64_i32 : i32
// CHECK-NEXT: %[[N0:.*]] = arith.muli %[[COLT]], %c128_i32 : i32
// CHECK-NEXT: "test.use"(%[[M0]], %[[N0]], %[[T]], %c0_i32, %[[KT]])
// CHECK-NEXT: %[[G1:.*]] = arith.addi %[[G]], %[[KT]] : i32
// CHECK-NEXT: scf.yield %[[G1]] : i32
func.func @along_m(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// raster along_n in groups of 4: the group walks along N, so the tile's
// column comes from the remainder and its row from the quotient.

// CHECK-LABEL: func.func @along_n(
// CHECK: %[[TN:.*]] = arith.divui %{{.*}}, %c128_i32 : i32
// CHECK: %[[TM:.*]] = arith.divui %{{.*}}, %c64_i32 : i32
// CHECK: scf.for %[[T:[a-z0-9]*]] =
// CHECK-NEXT: %[[PER:.*]] = arith.muli %[[TM]], %c4_i32 : i32
// CHECK-NEXT: %[[GI:.*]] = arith.divui %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[GFIRST:.*]] = arith.muli %[[GI]], %c4_i32 : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TN]], %[[GFIRST]] : i32
// CHECK-NEXT: %[[SIZE:.*]] = arith.minui %[[LEFT]], %c4_i32 : i32
// CHECK-NEXT: %[[IN:.*]] = arith.remui %[[T]], %[[PER]] : i32
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[IN]], %[[SIZE]] : i32
// CHECK-NEXT: %[[COLT:.*]] = arith.addi %[[GFIRST]], %[[R]] : i32
// CHECK-NEXT: %[[ROWT:.*]] = arith.divui %[[IN]], %[[SIZE]] : i32
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[ROWT]], %c64_i32 : i32
// CHECK-NEXT: %[[N0:.*]] = arith.muli %[[COLT]], %c128_i32 : i32
func.func @along_n(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "row", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_n", group = 4, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// A cluster of two CTAs along M: a tile number names a cluster tile of 2 x
// 128 rows; the CTA takes the rows of its rank.

// CHECK-LABEL: func.func @cluster(
// Tile rows are 256 rows of M (and tile columns 256 of N).
// CHECK: %[[MR:.*]] = arith.addi %arg2, %c255_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MR]], %c256_i32 : i32
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.muli %[[RANK]], %c128_i32 : i32
// CHECK-NEXT: %[[M0:.*]] = arith.addi %[[ROWS]], %[[MINE]] : i32
// CHECK-NEXT: %[[N0:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: "test.use"(%[[M0]], %[[N0]]
func.func @cluster(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// stream_k: T tiles on P CTAs; split_first = P x (T / P - 1) when P does
// not divide T, T >= P and the remainder T mod P is under three quarters of
// P (else P x T / P, or 0: sm_90a splits such a remainder alone); the
// (T - split_first) x kt iterations after it are shared: CTA c takes
// [c x total / P, (c + 1) x total / P). Whole tiles first, then the split
// tiles the share touches, last to first: the loop counts -(last - 1) ..
// -first and negates its index.

// CHECK-LABEL: func.func @stream_k(
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32)
// CHECK: %[[TILES:.*]] = arith.muli
// CHECK-NEXT: %[[WAVES:.*]] = arith.divui %[[TILES]], %[[STEP]] : i32
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[TILES]], %[[STEP]] : i32
// CHECK-NEXT: %[[W1:.*]] = arith.subi %[[WAVES]], %c1_i32 : i32
// CHECK-NEXT: %[[ANYW:.*]] = arith.cmpi ugt, %[[WAVES]], %c0_i32 : i32
// CHECK-NEXT: %[[W1OR0:.*]] = arith.select %[[ANYW]], %[[W1]], %c0_i32 : i32
// CHECK-NEXT: %[[EVEN:.*]] = arith.cmpi eq, %[[REST]], %c0_i32 : i32
// CHECK-NEXT: %[[REST4:.*]] = arith.muli %[[REST]], %c4_i32 : i32
// CHECK-NEXT: %[[P3:.*]] = arith.muli %[[STEP]], %c3_i32 : i32
// CHECK-NEXT: %[[BIGREST:.*]] = arith.cmpi uge, %[[REST4]], %[[P3]] : i32
// CHECK-NEXT: %[[ALLW:.*]] = arith.ori %[[EVEN]], %[[BIGREST]] : i1
// CHECK-NEXT: %[[WHOLEW:.*]] = arith.select %[[ALLW]], %[[WAVES]], %[[W1OR0]] : i32
// CHECK-NEXT: %[[SF:.*]] = arith.muli %[[WHOLEW]], %[[STEP]] : i32
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[SF]] : i32
// CHECK-NEXT: %[[LEFT64:.*]] = arith.extui %[[LEFT]] : i32 to i64
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[LEFT64]], %[[KT64]] : i64
// CHECK: %[[WHOLE:.*]] = scf.for %{{.*}} = %[[FIRST]] to %[[SF]] step %[[STEP]]
// CHECK: %[[P64:.*]] = arith.extui %[[STEP]] : i32 to i64
// CHECK-NEXT: %[[C64:.*]] = arith.extui %[[FIRST]] : i32 to i64
// CHECK-NEXT: %[[CT:.*]] = arith.muli %[[C64]], %[[TOTAL]] : i64
// CHECK-NEXT: %[[BEGIN:.*]] = arith.divui %[[CT]], %[[P64]] : i64
// CHECK-NEXT: %[[C1:.*]] = arith.addi %[[FIRST]], %c1_i32 : i32
// CHECK-NEXT: %[[C164:.*]] = arith.extui %[[C1]] : i32 to i64
// CHECK-NEXT: %[[C1T:.*]] = arith.muli %[[C164]], %[[TOTAL]] : i64
// CHECK-NEXT: %[[END:.*]] = arith.divui %[[C1T]], %[[P64]] : i64
// CHECK-NEXT: %[[FIRSTT:.*]] = arith.divui %[[BEGIN]], %[[KT64]] : i64
// CHECK: %[[PAST:.*]] = arith.divui %{{.*}}, %[[KT64]] : i64
// CHECK-NEXT: %[[EMPTY:.*]] = arith.cmpi eq, %[[BEGIN]], %[[END]] : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.select %[[EMPTY]], %[[FIRSTT]], %[[PAST]] : i64
// CHECK-NEXT: %[[LAST32:.*]] = arith.trunci %[[LAST]] : i64 to i32
// CHECK-NEXT: %[[FROM:.*]] = arith.subi %c1_i32, %[[LAST32]] : i32
// CHECK-NEXT: %[[FIRST32:.*]] = arith.trunci %[[FIRSTT]] : i64 to i32
// CHECK-NEXT: %[[TO:.*]] = arith.subi %c1_i32, %[[FIRST32]] : i32
// CHECK-NEXT: scf.for %[[IV:[a-z0-9]*]] = %[[FROM]] to %[[TO]] step %c1_i32 iter_args(%{{.*}} = %[[WHOLE]])
// CHECK-NEXT: %[[LOCAL:.*]] = arith.subi %c0_i32, %[[IV]] : i32
// CHECK: %[[TILE:.*]] = arith.addi %[[SF]], %[[LOCAL]] : i32
// CHECK: "test.use"(%{{.*}}, %{{.*}}, %[[TILE]],
func.func @stream_k(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %sf, %si = gemmc.stream_k_plan %step, %m, %n, %kt {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">}
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) split(%sf, %si) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}


// -----

// stream_k fixup (sm_90a: the split tiles go last to first): a piece that
// does not end its tile (k_end < kt) writes its values to the CTA's slot (a
// 128-byte flag line, then value i of thread t at float i x 256 + t; a slot
// is 128 + 128 x 256 x 4 = 131200 bytes), meets the other consumers at
// named barrier 5 and thread 0 publishes the flag; the ending piece of a
// split tile (k_begin > 0) takes the partials of CTAs owner(first
// iteration) .. c - 1 and then runs the epilogue body on the sum.

// CHECK-LABEL: func.func @fixup(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, f32)>, %[[TILE:[a-z0-9]*]]: i32, %[[KB:[a-z0-9]*]]: i32, %[[KE:[a-z0-9]*]]: i32, %[[CTA:[a-z0-9]*]]: i32, %[[CTAS:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SF:[a-z0-9]*]]: i32, %[[SI:[a-z0-9]*]]: i64, %[[WS:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WRITER:.*]] = arith.cmpi ult, %[[KE]], %[[KT]] : i32
// CHECK-NEXT: scf.if %[[WRITER]] {
// CHECK-NEXT: %[[CTA64:.*]] = arith.extui %[[CTA]] : i32 to i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[CTA64]], %c131200_i64 : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[WS]][%[[OFF]]]
// CHECK-NEXT: %[[DATA:.*]] = llvm.getelementptr %[[SLOT]][128]
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %[[DATA]][%[[TID]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT: llvm.store %[[V0]], %[[AT0]]
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[TID]], %c256_i32 : i32
// CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[DATA]][%[[I1]]]
// CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ACC]][1]
// CHECK-NEXT: llvm.store %[[V1]], %[[AT1]]
// CHECK-NEXT: gemmc.named_barrier %c5_i32, %c256_i32{{$}}
// CHECK: llvm.store %c1_i32, %[[SLOT]] atomic syncscope("device") release
// CHECK: } else {
// CHECK-NEXT: %[[SPLIT:.*]] = arith.cmpi ugt, %[[KB]], %c0_i32 : i32
// CHECK-NEXT: %[[SUM:.*]] = scf.if %[[SPLIT]] -> (!llvm.struct<(f32, f32)>) {
// CHECK: %[[OWNER:.*]] = arith.divui %{{.*}}, %[[SI]] : i64
// CHECK-NEXT: %[[FIRSTP:.*]] = arith.trunci %[[OWNER]] : i64 to i32
// CHECK-NEXT: scf.for %[[PEER:[a-z0-9]*]] = %[[FIRSTP]] to %[[CTA]] step %c1_i32 iter_args(%{{[a-z0-9]*}} = %[[ACC]]) -> (!llvm.struct<(f32, f32)>)
// CHECK: %[[MINE:.*]] = arith.divui %{{.*}}, %{{.*}} : i64
// CHECK: %[[NEXT:.*]] = arith.divui %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: %[[BUSY:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i64
// CHECK-NEXT: scf.if %[[BUSY]]
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: "test.epilogue"(%[[SUM]])
func.func @fixup(%acc: !llvm.struct<(f32, f32)>, %tile: i32, %kb: i32, %ke: i32, %cta: i32, %ctas: i32, %kt: i32, %sf: i32, %si: i64, %ws: !llvm.ptr<1>) {
  gemmc.stream_k_fixup %acc, %tile, %kb, %ke, %cta, %ctas, %kt, %sf, %si, %ws attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, threads = 256 : i64} : !llvm.struct<(f32, f32)>, !llvm.ptr<1> {
  ^bb0(%total: !llvm.struct<(f32, f32)>):
    "test.epilogue"(%total) : (!llvm.struct<(f32, f32)>) -> ()
    gemmc.yield
  }
  return
}

// -----

// stream_k in a 2x1 cluster (sm_90a): the plan counts cluster tiles of 2 x
// 128 rows (tiles = ceil(m / 256) x ceil(n / 256)) and the CTAs it shares
// them over (%step) are clusters; both CTAs of a cluster take the same
// pieces (tile, k_begin, k_end), the CTA of rank r the rows m0 + r x 128.

// CHECK-LABEL: func.func @stream_k_cluster(
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32)
// CHECK: %[[NR:.*]] = arith.addi %[[N]], %c255_i32 : i32
// CHECK-NEXT: %[[TN:.*]] = arith.divui %[[NR]], %c256_i32 : i32
// CHECK-NEXT: %[[MR:.*]] = arith.addi %[[M]], %c255_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MR]], %c256_i32 : i32
// CHECK-NEXT: %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]] : i32
// CHECK-NEXT: %[[WAVES:.*]] = arith.divui %[[TILES]], %[[STEP]] : i32
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[TILES]], %[[STEP]] : i32
// CHECK: %[[SF:.*]] = arith.muli %{{.*}}, %[[STEP]] : i32
// CHECK: scf.for %[[WT:[a-z0-9]*]] = %[[FIRST]] to %[[SF]] step %[[STEP]]
// CHECK: %[[ROWS:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[MINE:.*]] = arith.muli %[[RANK]], %c128_i32 : i32
// CHECK-NEXT: %[[M0:.*]] = arith.addi %[[ROWS]], %[[MINE]] : i32
// CHECK-NEXT: %[[N0:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: "test.use"(%[[M0]], %[[N0]], %[[WT]], %c0_i32, %[[KT]])
// CHECK: %[[P64:.*]] = arith.extui %[[STEP]] : i32 to i64
// CHECK-NEXT: %[[C64:.*]] = arith.extui %[[FIRST]] : i32 to i64
// CHECK: scf.for %[[IV:[a-z0-9]*]] = %{{.*}} to %{{.*}} step %c1_i32
// CHECK-NEXT: %[[LOCAL:.*]] = arith.subi %c0_i32, %[[IV]] : i32
// CHECK: %[[KB:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[KE:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: %[[TILE:.*]] = arith.addi %[[SF]], %[[LOCAL]] : i32
// CHECK: %[[SROWS:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: %[[SRANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[SMINE:.*]] = arith.muli %[[SRANK]], %c128_i32 : i32
// CHECK-NEXT: %[[SM0:.*]] = arith.addi %[[SROWS]], %[[SMINE]] : i32
// CHECK-NEXT: %[[SN0:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT: "test.use"(%[[SM0]], %[[SN0]], %[[TILE]], %[[KB]], %[[KE]])
func.func @stream_k_cluster(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %sf, %si = gemmc.stream_k_plan %step, %m, %n, %kt {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">}
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) split(%sf, %si) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// The fixup in a 2x1 cluster (sm_90a): %cta and %ctas count clusters (both
// CTAs of a cluster take the same pieces), and each CTA has its own slot,
// cluster x 2 + rank: the writer's, and for each peer cluster p the slot
// p x 2 + rank (p from the owner of the tile's first iteration to c - 1)
// that the finisher waits on and reads (its own rank's half of the cluster
// tile).

// CHECK-LABEL: func.func @fixup_cluster(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, f32)>, %[[TILE:[a-z0-9]*]]: i32, %[[KB:[a-z0-9]*]]: i32, %[[KE:[a-z0-9]*]]: i32, %[[CTA:[a-z0-9]*]]: i32, %[[CTAS:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SF:[a-z0-9]*]]: i32, %[[SI:[a-z0-9]*]]: i64, %[[WS:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[WRITER:.*]] = arith.cmpi ult, %[[KE]], %[[KT]] : i32
// CHECK-NEXT: scf.if %[[WRITER]] {
// CHECK-NEXT: %[[C2:.*]] = arith.muli %[[CTA]], %c2_i32 : i32
// CHECK-NEXT: %[[MYSLOT:.*]] = arith.addi %[[C2]], %[[RANK]] : i32
// CHECK-NEXT: %[[MY64:.*]] = arith.extui %[[MYSLOT]] : i32 to i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[MY64]], %c131200_i64 : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[WS]][%[[OFF]]]
// CHECK-NEXT: %[[DATA:.*]] = llvm.getelementptr %[[SLOT]][128]
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %[[DATA]][%[[TID]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: gemmc.named_barrier %c5_i32, %c256_i32{{$}}
// CHECK: llvm.store %c1_i32, %[[SLOT]] atomic syncscope("device") release
// CHECK: } else {
// CHECK: %[[OWNER:.*]] = arith.divui %{{.*}}, %[[SI]] : i64
// CHECK-NEXT: %[[FIRSTPEER:.*]] = arith.trunci %[[OWNER]] : i64 to i32
// CHECK-NEXT: scf.for %[[PEER:[a-z0-9]*]] = %[[FIRSTPEER]] to %[[CTA]] step %c1_i32 iter_args(%{{[a-z0-9]*}} = %[[ACC]]) -> (!llvm.struct<(f32, f32)>)
// CHECK: scf.if %{{.*}} -> (!llvm.struct<(f32, f32)>) {
// CHECK-NEXT: %[[P2:.*]] = arith.muli %[[PEER]], %c2_i32 : i32
// CHECK-NEXT: %[[PSLOT:.*]] = arith.addi %[[P2]], %[[RANK]] : i32
// CHECK-NEXT: %[[P64:.*]] = arith.extui %[[PSLOT]] : i32 to i64
// CHECK-NEXT: %[[POFF:.*]] = arith.muli %[[P64]], %c131200_i64 : i64
// CHECK-NEXT: %[[PEERSLOT:.*]] = llvm.getelementptr %[[WS]][%[[POFF]]]
// CHECK: llvm.load %[[PEERSLOT]] atomic syncscope("device") acquire
// CHECK: llvm.store %c0_i32, %[[PEERSLOT]]
// CHECK: gemmc.named_barrier %c5_i32, %c256_i32{{$}}
// CHECK-NEXT: %[[PDATA:.*]] = llvm.getelementptr %[[PEERSLOT]][128]
// CHECK: "test.epilogue"(
func.func @fixup_cluster(%acc: !llvm.struct<(f32, f32)>, %tile: i32, %kb: i32, %ke: i32, %cta: i32, %ctas: i32, %kt: i32, %sf: i32, %si: i64, %ws: !llvm.ptr<1>) {
  gemmc.stream_k_fixup %acc, %tile, %kb, %ke, %cta, %ctas, %kt, %sf, %si, %ws attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 384, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, threads = 256 : i64} : !llvm.struct<(f32, f32)>, !llvm.ptr<1> {
  ^bb0(%total: !llvm.struct<(f32, f32)>):
    "test.epilogue"(%total) : (!llvm.struct<(f32, f32)>) -> ()
    gemmc.yield
  }
  return
}

// -----

// The fixup on sm_100a (issue 13): the accumulator is a tensor-memory
// address (i32), read a 32-column chunk at a time (gemmc.acc_load; BLOCK_N
// 32 here: one chunk). The writer stores value j of thread t at float
// j x 128 + t of its slot (16512 = 128 + 128 x 32 x 4 bytes), then the
// barrier and the flag; the finishing piece, per peer, waits for the flag,
// adds the peer's floats to the chunk and writes it back (gemmc.acc_store)
// before the epilogue body, which gets the address unchanged.

// CHECK-LABEL: func.func @fixup_tmem(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: i32, %[[TILE:[a-z0-9]*]]: i32, %[[KB:[a-z0-9]*]]: i32, %[[KE:[a-z0-9]*]]: i32, %[[CTA:[a-z0-9]*]]: i32, %[[CTAS:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SF:[a-z0-9]*]]: i32, %[[SI:[a-z0-9]*]]: i64, %[[WS:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WRITER:.*]] = arith.cmpi ult, %[[KE]], %[[KT]] : i32
// CHECK-NEXT: scf.if %[[WRITER]] {
// CHECK-NEXT: %[[CTA64:.*]] = arith.extui %[[CTA]] : i32 to i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[CTA64]], %c16512_i64 : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[WS]][%[[OFF]]]
// CHECK-NEXT: %[[CHUNK:.*]] = gemmc.acc_load %[[ACC]] {count = 32 : i64} : vector<32xf32>
// CHECK-NEXT: %[[DATA:.*]] = llvm.getelementptr %[[SLOT]][128]
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %[[DATA]][%[[TID]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V0:.*]] = llvm.extractelement %[[CHUNK]][%c0_i32 : i32]
// CHECK-NEXT: llvm.store %[[V0]], %[[AT0]]
// CHECK-NEXT: %[[I1:.*]] = arith.addi %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[DATA]][%[[I1]]]
// CHECK-NEXT: %[[V1:.*]] = llvm.extractelement %[[CHUNK]][%c1_i32 : i32]
// CHECK-NEXT: llvm.store %[[V1]], %[[AT1]]
// CHECK: %[[I31:.*]] = arith.addi %[[TID]], %c3968_i32 : i32
// CHECK-NEXT: %[[AT31:.*]] = llvm.getelementptr %[[DATA]][%[[I31]]]
// CHECK-NEXT: %[[V31:.*]] = llvm.extractelement %[[CHUNK]][%c31_i32 : i32]
// CHECK-NEXT: llvm.store %[[V31]], %[[AT31]]
// CHECK-NEXT: gemmc.named_barrier %c5_i32, %c128_i32{{$}}
// CHECK: llvm.store %c1_i32, %[[SLOT]] atomic syncscope("device") release
// CHECK: } else {
// CHECK-NEXT: %[[SPLIT:.*]] = arith.cmpi ugt, %[[KB]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[SPLIT]] {
// CHECK: scf.for %[[PEER:[a-z0-9]*]] = %{{.*}} to %[[CTA]] step %c1_i32 : i32 {
// CHECK: llvm.load %[[PSLOT:.*]] atomic syncscope("device") acquire
// CHECK: llvm.store %c0_i32, %[[PSLOT]]
// CHECK: gemmc.named_barrier %c5_i32, %c128_i32{{$}}
// CHECK-NEXT: %[[MINE:.*]] = gemmc.acc_load %[[ACC]] {count = 32 : i64} : vector<32xf32>
// CHECK-NEXT: %[[M0:.*]] = llvm.extractelement %[[MINE]][%c0_i32 : i32]
// CHECK-NEXT: %[[PDATA:.*]] = llvm.getelementptr %[[PSLOT]][128]
// CHECK-NEXT: %[[PAT0:.*]] = llvm.getelementptr %[[PDATA]][%[[TID]]]
// CHECK-NEXT: %[[T0:.*]] = llvm.load volatile %[[PAT0]]
// CHECK-NEXT: %[[S0:.*]] = arith.addf %[[M0]], %[[T0]] : f32
// CHECK-NEXT: %[[SUM0:.*]] = llvm.insertelement %[[S0]], %[[MINE]][%c0_i32 : i32]
// CHECK: %[[SUM:.*]] = llvm.insertelement %{{.*}}[%c31_i32 : i32] : vector<32xf32>
// CHECK-NEXT: gemmc.acc_store %[[ACC]], %[[SUM]] : vector<32xf32>
// CHECK: "test.epilogue"(%[[ACC]]) : (i32) -> ()
func.func @fixup_tmem(%acc: i32, %tile: i32, %kb: i32, %ke: i32, %cta: i32, %ctas: i32, %kt: i32, %sf: i32, %si: i64, %ws: !llvm.ptr<1>) {
  gemmc.stream_k_fixup %acc, %tile, %kb, %ke, %cta, %ctas, %kt, %sf, %si, %ws attributes {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 32, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, threads = 128 : i64} : i32, !llvm.ptr<1> {
  ^bb0(%at: i32):
    "test.epilogue"(%at) : (i32) -> ()
    gemmc.yield
  }
  return
}

// -----

// split_k 4 (issue 16): stream-K's plan with every tile split. No whole
// tiles (split_first = 0: the whole-tile loop is empty), and the split
// iterations are all of them, tiles x kTiles = ceil(m / 128) ceil(n / 128)
// kTiles; CTA c's share [c total / P, (c + 1) total / P) is then piece
// c % 4 of tile c / 4 when the runtime launches P = 4 x tiles CTAs.

// CHECK-LABEL: func.func @split_k(
// CHECK-SAME: %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32)
// No waves, no remainder: the plan is tiles x kTiles iterations, none whole.
// CHECK-NOT: arith.remui
// CHECK: %[[NP:.*]] = arith.addi %[[N]], %c127_i32 : i32
// CHECK-NEXT: %[[TN:.*]] = arith.divui %[[NP]], %c128_i32 : i32
// CHECK-NEXT: %[[MP:.*]] = arith.addi %[[M]], %c127_i32 : i32
// CHECK-NEXT: %[[TM:.*]] = arith.divui %[[MP]], %c128_i32 : i32
// CHECK-NEXT: %[[TILES:.*]] = arith.muli %[[TM]], %[[TN]] : i32
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[TILES64:.*]] = arith.extui %[[TILES]] : i32 to i64
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[TILES64]], %[[KT64]] : i64
// The whole-tile loop ends at split_first = 0.
// CHECK-NEXT: %[[WHOLE:.*]] = scf.for %{{.*}} = %[[FIRST]] to %c0_i32 step %[[STEP]]
// CTA c's share: [c total / P, (c + 1) total / P).
// CHECK: %[[P64:.*]] = arith.extui %[[STEP]] : i32 to i64
// CHECK-NEXT: %[[C64:.*]] = arith.extui %[[FIRST]] : i32 to i64
// CHECK-NEXT: %[[CT:.*]] = arith.muli %[[C64]], %[[TOTAL]] : i64
// CHECK-NEXT: %[[BEGIN:.*]] = arith.divui %[[CT]], %[[P64]] : i64
// CHECK-NEXT: %[[C1:.*]] = arith.addi %[[FIRST]], %c1_i32 : i32
// CHECK-NEXT: %[[C164:.*]] = arith.extui %[[C1]] : i32 to i64
// CHECK-NEXT: %[[C1T:.*]] = arith.muli %[[C164]], %[[TOTAL]] : i64
// CHECK-NEXT: %[[END:.*]] = arith.divui %[[C1T]], %[[P64]] : i64
// Its tiles, from tile 0 on (split_first + local), last to first: the
// loop's index negated.
// CHECK: scf.for %[[IV:[a-z0-9]*]] = %{{.*}} to %{{.*}} step %c1_i32 iter_args(%{{.*}} = %[[WHOLE]])
// CHECK-NEXT: %[[LOCAL:.*]] = arith.subi %c0_i32, %[[IV]] : i32
// CHECK: "test.use"(%{{.*}}, %{{.*}}, %[[LOCAL]],
func.func @split_k(%first: i32, %step: i32, %m: i32, %n: i32, %kt: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %sf, %si = gemmc.stream_k_plan %step, %m, %n, %kt {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 4, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">}
  %g = gemmc.tile_loop %first, %step, %m, %n, %kt iter(%c0) split(%sf, %si) attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 64], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_cooperative", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 4, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">} {
  ^bb0(%m0: i32, %n0: i32, %tile: i32, %kb: i32, %ke: i32, %g0: i32):
    "test.use"(%m0, %n0, %tile, %kb, %ke) : (i32, i32, i32, i32, i32) -> ()
    %g1 = arith.addi %g0, %ke : i32
    gemmc.yield %g1 : i32
  }
  return %g : i32
}

// -----

// The fixup on sm_80: values move 4 at a time, values 4j .. 4j + 3 of
// thread t at float (j x 256 + t) x 4 of the slot (a 16-byte vector; one
// here: 4 values), written as one vector and read back volatile as one.
// 4 accumulators (<= StreamKPolicy::peerTestMaxValues): the peer loop tests
// for an empty share without division: all busy when the split iterations
// T >= P CTAs, else the loop carries r = (peer x T) mod P (from one 32-bit
// remainder at cta + 1) and peer p is busy when r + T >= P.

// CHECK-LABEL: func.func @fixup_sm80(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32, f32)>, %[[TILE:[a-z0-9]*]]: i32, %[[KB:[a-z0-9]*]]: i32, %[[KE:[a-z0-9]*]]: i32, %[[CTA:[a-z0-9]*]]: i32, %[[CTAS:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SF:[a-z0-9]*]]: i32, %[[SI:[a-z0-9]*]]: i64, %[[WS:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK: %[[U:.*]] = llvm.mlir.undef : vector<4xf32>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WRITER:.*]] = arith.cmpi ugt, %[[KB]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[WRITER]] {
// CHECK-NEXT: %[[CTA64:.*]] = arith.extui %[[CTA]] : i32 to i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[CTA64]], %c65664_i64 : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[WS]][%[[OFF]]]
// CHECK-NEXT: %[[DATA:.*]] = llvm.getelementptr %[[SLOT]][128]
// CHECK-NEXT: %[[AT:.*]] = llvm.getelementptr %[[DATA]][%[[TID]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, vector<4xf32>
// CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT: %[[W0:.*]] = llvm.insertelement %[[V0]], %[[U]][%c0_i32 : i32] : vector<4xf32>
// CHECK: %[[V3:.*]] = llvm.extractvalue %[[ACC]][3]
// CHECK-NEXT: %[[W3:.*]] = llvm.insertelement %[[V3]], %{{.*}}[%c3_i32 : i32] : vector<4xf32>
// CHECK-NEXT: llvm.store %[[W3]], %[[AT]] {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NEXT: gemmc.named_barrier %c5_i32, %c256_i32{{$}}
// CHECK: } else {
// CHECK: %[[OWNER:.*]] = arith.divui %{{.*}}, %[[SI]] : i64
// CHECK-NEXT: %[[LAST:.*]] = arith.trunci %[[OWNER]] : i64 to i32
// CHECK-NEXT: %[[PEERS_END:.*]] = arith.addi %[[LAST]], %c1_i32 : i32
// CHECK-NEXT: %[[FIRST:.*]] = arith.addi %[[CTA]], %c1_i32 : i32
// CHECK-NEXT: %[[ALL:.*]] = arith.cmpi uge, %[[SI]], %{{.*}} : i64
// CHECK-NEXT: %[[T32:.*]] = arith.trunci %[[SI]] : i64 to i32
// CHECK-NEXT: %[[FT:.*]] = arith.muli %[[FIRST]], %[[T32]] : i32
// CHECK-NEXT: %[[R0:.*]] = arith.remui %[[FT]], %[[CTAS]] : i32
// CHECK-NEXT: %{{.*}}:2 = scf.for %{{.*}} = %[[FIRST]] to %[[PEERS_END]] step %c1_i32 iter_args(%{{.*}} = %[[ACC]], %[[R:.*]] = %[[R0]])
// CHECK-NEXT: %[[RT:.*]] = arith.addi %[[R]], %[[T32]] : i32
// CHECK-NEXT: %[[WRAPS:.*]] = arith.cmpi uge, %[[RT]], %[[CTAS]] : i32
// CHECK-NEXT: %[[BUSY:.*]] = arith.ori %[[ALL]], %[[WRAPS]] : i1
// CHECK-NEXT: %[[RP:.*]] = arith.subi %[[RT]], %[[CTAS]] : i32
// CHECK-NEXT: %[[NEXT:.*]] = arith.select %[[WRAPS]], %[[RP]], %[[RT]] : i32
// CHECK-NEXT: %{{.*}} = scf.if %[[BUSY]] -> (!llvm.struct<(f32, f32, f32, f32)>) {
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: %[[THEIRS:.*]] = llvm.load volatile %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK: scf.yield %{{.*}}, %[[NEXT]] : !llvm.struct<(f32, f32, f32, f32)>, i32
// CHECK: "test.epilogue"(
func.func @fixup_sm80(%acc: !llvm.struct<(f32, f32, f32, f32)>, %tile: i32, %kb: i32, %ke: i32, %cta: i32, %ctas: i32, %kt: i32, %sf: i32, %si: i64, %ws: !llvm.ptr<1>) {
  gemmc.stream_k_fixup %acc, %tile, %kb, %ke, %cta, %ctas, %kt, %sf, %si, %ws attributes {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [64, 256, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "cp_async", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, threads = 256 : i64} : !llvm.struct<(f32, f32, f32, f32)>, !llvm.ptr<1> {
  ^bb0(%total: !llvm.struct<(f32, f32, f32, f32)>):
    "test.epilogue"(%total) : (!llvm.struct<(f32, f32, f32, f32)>) -> ()
    gemmc.yield
  }
  return
}

// -----

// stream_k's plan on sm_80: the same whole waves and split tiles, kept only
// where a data-parallel last wave would leave (P - rest) x kTiles >= 24 x P
// iterations of slots idle (kSm80StreamKMinIdleKTiles); otherwise the first
// split tile is past the last (every tile whole) and nothing is shared out.

// CHECK-LABEL: func.func @plan_sm80(
// CHECK-SAME: %[[P:[a-z0-9]*]]: i32, %{{[a-z0-9]*}}: i32, %{{[a-z0-9]*}}: i32, %[[KT:[a-z0-9]*]]: i32)
// CHECK: %[[TILES:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[WAVES:.*]] = arith.divui %[[TILES]], %[[P]] : i32
// CHECK-NEXT: %[[REST:.*]] = arith.remui %[[TILES]], %[[P]] : i32
// CHECK: %[[SF:.*]] = arith.muli %{{.*}}, %[[P]] : i32
// CHECK-NEXT: %[[KT64:.*]] = arith.extui %[[KT]] : i32 to i64
// CHECK-NEXT: %[[FREE:.*]] = arith.subi %[[P]], %[[REST]] : i32
// CHECK-NEXT: %[[FREE64:.*]] = arith.extui %[[FREE]] : i32 to i64
// CHECK-NEXT: %[[IDLE:.*]] = arith.muli %[[FREE64]], %[[KT64]] : i64
// CHECK-NEXT: %[[P64:.*]] = arith.extui %[[P]] : i32 to i64
// CHECK-NEXT: %[[NEEDED:.*]] = arith.muli %[[P64]], %c24_i64 : i64
// CHECK-NEXT: %[[ENOUGH:.*]] = arith.cmpi uge, %[[IDLE]], %[[NEEDED]] : i64
// CHECK-NEXT: %[[PARTIAL:.*]] = arith.cmpi ne, %[[REST]], %c0_i32 : i32
// CHECK-NEXT: %[[WORTH:.*]] = arith.andi %[[PARTIAL]], %[[ENOUGH]] : i1
// CHECK-NEXT: %[[FIRST:.*]] = arith.select %[[WORTH]], %[[SF]], %[[TILES]] : i32
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[TILES]], %[[FIRST]] : i32
// CHECK-NEXT: %[[LEFT64:.*]] = arith.extui %[[LEFT]] : i32 to i64
// CHECK-NEXT: %[[TOTAL:.*]] = arith.muli %[[LEFT64]], %[[KT64]] : i64
// CHECK-NEXT: "test.use"(%[[FIRST]], %[[TOTAL]]) : (i32, i64) -> ()
func.func @plan_sm80(%step: i32, %m: i32, %n: i32, %kt: i32) {
  %sf, %si = gemmc.stream_k_plan %step, %m, %n, %kt {schedule = #gemmc.schedule<arch = "sm_80", device = "a100", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 3, threads = 256, load = "cp_async", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">}
  "test.use"(%sf, %si) : (i32, i64) -> ()
  return
}

// -----

// stream_k fixup under pingpong: a piece is one consumer warpgroup's
// (threads = 128), the other warpgroup running its own piece meanwhile. Its
// threads are tid mod 128 (thread 0 the warpgroup's first), each thread's
// address is taken once and value i is at a constant offset from it
// (i x 128 floats), and the warpgroup meets on its own named barrier
// 6 + tid / 128. A slot holds one 128x128 tile: 128 + 128 x 128 x 4 = 65664
// bytes.

// CHECK-LABEL: func.func @fixup_pingpong(
// CHECK-SAME: %[[ACC:[a-z0-9]*]]: !llvm.struct<(f32, f32)>, %[[TILE:[a-z0-9]*]]: i32, %[[KB:[a-z0-9]*]]: i32, %[[KE:[a-z0-9]*]]: i32, %[[CTA:[a-z0-9]*]]: i32, %[[CTAS:[a-z0-9]*]]: i32, %[[KT:[a-z0-9]*]]: i32, %[[SF:[a-z0-9]*]]: i32, %[[SI:[a-z0-9]*]]: i64, %[[WS:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT: %[[T:.*]] = arith.remui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[T0:.*]] = arith.cmpi eq, %[[T]], %c0_i32 : i32
// CHECK-NEXT: %[[WRITER:.*]] = arith.cmpi ult, %[[KE]], %[[KT]] : i32
// CHECK-NEXT: scf.if %[[WRITER]] {
// CHECK-NEXT: %[[CTA64:.*]] = arith.extui %[[CTA]] : i32 to i64
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[CTA64]], %c65664_i64 : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.getelementptr %[[WS]][%[[OFF]]]
// CHECK-NEXT: %[[DATA:.*]] = llvm.getelementptr %[[SLOT]][128]
// CHECK-NEXT: %[[AT0:.*]] = llvm.getelementptr %[[DATA]][%[[T]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V0:.*]] = llvm.extractvalue %[[ACC]][0]
// CHECK-NEXT: llvm.store %[[V0]], %[[AT0]]
// CHECK-NEXT: %[[AT1:.*]] = llvm.getelementptr %[[AT0]][128] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-NEXT: %[[V1:.*]] = llvm.extractvalue %[[ACC]][1]
// CHECK-NEXT: llvm.store %[[V1]], %[[AT1]]
// CHECK-NEXT: %[[WG:.*]] = arith.divui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[BAR:.*]] = arith.addi %[[WG]], %c6_i32 : i32
// CHECK-NEXT: gemmc.named_barrier %[[BAR]], %c128_i32{{$}}
// CHECK-NEXT: scf.if %[[T0]] {
// CHECK-NEXT: llvm.store %c1_i32, %[[SLOT]] atomic syncscope("device") release
// CHECK: } else {
// CHECK-NEXT: %[[SPLIT:.*]] = arith.cmpi ugt, %[[KB]], %c0_i32 : i32
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: scf.while
// CHECK: llvm.load %{{.*}} atomic syncscope("device") acquire
// CHECK: %[[WG2:.*]] = arith.divui %[[TID]], %c128_i32 : i32
// CHECK-NEXT: %[[BAR2:.*]] = arith.addi %[[WG2]], %c6_i32 : i32
// CHECK-NEXT: gemmc.named_barrier %[[BAR2]], %c128_i32{{$}}
// CHECK-NEXT: %[[DATA2:.*]] = llvm.getelementptr %{{.*}}[128]
// CHECK-NEXT: %[[AT2:.*]] = llvm.getelementptr %[[DATA2]][%[[T]]] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load volatile %[[AT2]]
// CHECK: %[[AT3:.*]] = llvm.getelementptr %[[AT2]][128] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
// CHECK-NEXT: llvm.load volatile %[[AT3]]
func.func @fixup_pingpong(%acc: !llvm.struct<(f32, f32)>, %tile: i32, %kb: i32, %ke: i32, %cta: i32, %ctas: i32, %kt: i32, %sf: i32, %si: i64, %ws: !llvm.ptr<1>) {
  gemmc.stream_k_fixup %acc, %tile, %kb, %ke, %cta, %ctas, %kt, %sf, %si, %ws attributes {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "e4m3", a_layout = "row", b = "e4m3", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 384, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized_pingpong", tile_scheduler = "stream_k", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, threads = 128 : i64} : !llvm.struct<(f32, f32)>, !llvm.ptr<1> {
  ^bb0(%total: !llvm.struct<(f32, f32)>):
    "test.epilogue"(%total) : (!llvm.struct<(f32, f32)>) -> ()
    gemmc.yield
  }
  return
}
