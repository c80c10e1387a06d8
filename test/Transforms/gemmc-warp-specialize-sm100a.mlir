// RUN: gemmc-opt %s --split-input-file --gemmc-warp-specialize --canonicalize --cse | FileCheck %s

// sm_100a (a target with tensor memory), persistent 128x256x64, 4 stages:
// thread 0 makes the stage ring (full: TMA's one arrival; empty: one
// tcgen05.commit) and the accumulator ring right after its barriers (two
// buffers, 2 x 256 columns: full by the MMA thread's commit, empty by the
// 128 epilogue threads); warp 5 allocates 512 columns into the slot after
// both rings' barriers (196608 + 64 + 32 = 196704); after the CTA barrier
// everyone reads the base. Then three roles: warp 4's lane 0 loads every K
// tile; warp 5's lane 0 takes the tile's accumulator buffer (t = (tile -
// first) / step, buffer t % 2 at base + 256 (t % 2)), and per K step waits
// for the stage, issues its MMAs (accumulating after the first step) and
// releases the stage, then marks the accumulator ready; warpgroup 0 waits
// for it, stores it and releases it. After a last CTA barrier warp 5 frees
// the columns.

// CHECK-LABEL: llvm.func @tmem_roles(
// CHECK-SAME: %[[C:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32, %[[FIRST:[a-z0-9]*]]: i32, %[[STEP:[a-z0-9]*]]: i32, %[[S:[a-z0-9]*]]: !llvm.ptr<3>)
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %c0_i32 : i32
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[S]][196704]
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %c32_i32 : i32
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]], %c32_i32 : i32
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0_i32 : i32
// CHECK: scf.if %[[T0]] {
// CHECK-NEXT: gemmc.ring_init %[[S]] {empty_arrivals = 1 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>}
// CHECK-NEXT: gemmc.ring_init %[[S]] {empty_arrivals = 128 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 196672, align = 1024, swizzle = 0>}
// CHECK: %[[W5:.*]] = arith.cmpi eq, %[[WARP]], %c5_i32 : i32
// CHECK-NEXT: scf.if %[[W5]] {
// CHECK-NEXT: gemmc.acc_alloc %[[SLOT]] {columns = 512 : i64}
// CHECK: gemmc.cta_sync{{$}}
// CHECK-NEXT: %[[BASE:.*]] = gemmc.acc_base %[[SLOT]]
// CHECK-NEXT: %[[W4:.*]] = arith.cmpi eq, %[[WARP]], %c4_i32 : i32
// CHECK-NEXT: %[[PRODUCER:.*]] = arith.andi %[[LANE0]], %[[W4]] : i1
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK: gemmc.stage_acquire
// CHECK-NEXT: gemmc.stage_fill
// CHECK: } else {
// CHECK-NEXT: %[[MMA:.*]] = arith.andi %[[LANE0]], %[[W5]] : i1
// CHECK-NEXT: scf.if %[[MMA]] {
// CHECK-NEXT: gemmc.tile_loop %[[FIRST]], %[[STEP]], %[[M]], %[[N]], %{{.*}} iter(%c0_i32)
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %[[TILE:.*]]: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: %[[REL:.*]] = arith.subi %[[TILE]], %[[FIRST]] : i32
// CHECK-NEXT: %[[T:.*]] = arith.divui %[[REL]], %[[STEP]] : i32
// CHECK-NEXT: gemmc.stage_acquire %[[T]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 196672,
// CHECK-NEXT: %[[BUF:.*]] = arith.remui %[[T]], %c2_i32 : i32
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[BUF]], %c256_i32 : i32
// CHECK-NEXT: %[[ACC:.*]] = arith.addi %[[BASE]], %[[COL]] : i32
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: scf.for %[[KS:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 : i32 {
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[KS]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: %[[STAGE:.*]] = gemmc.stage_base %[[GS]], %[[S]]
// CHECK-NEXT: %[[ACCUM:.*]] = arith.cmpi ugt, %[[KS]], %c0_i32 : i32
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[STAGE]][16384]
// CHECK-NEXT: gemmc.mma_issue %[[ACC]], %[[STAGE]], %[[BT]], %[[ACCUM]]
// CHECK-NEXT: gemmc.stage_release %[[GS]], %[[S]] {cluster_size = 1 : i64, smem_layout{{.*}}
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gemmc.acc_ready %[[T]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK: } else {
// CHECK-NEXT: %[[EPI:.*]] = arith.cmpi ult, %[[TID]], %c128_i32 : i32
// CHECK-NEXT: scf.if %[[EPI]] {
// CHECK: gemmc.stage_wait %[[ET:.*]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK: %[[EACC:.*]] = arith.addi %[[BASE]], %{{.*}} : i32
// CHECK-NEXT: gemmc.epilogue %[[EACC]], %[[C]], %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[LDC]] alpha(%[[ALPHA]]) {{.*}} : i32, !llvm.ptr<1>
// CHECK-NEXT: gemmc.acc_release %[[ET]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK: gemmc.cta_sync{{$}}
// CHECK-NEXT: scf.if %[[W5]] {
// CHECK-NEXT: gemmc.acc_free %[[BASE]] {columns = 512 : i64}
gpu.module @k1 {
  llvm.func @tmem_roles(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// data_parallel: one accumulator buffer (256 columns; the slot at 196608 +
// 64 + 16 = 196688), so tile t waits for the epilogue of tile t - 1.

// CHECK-LABEL: llvm.func @tmem_one_buffer(
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[196688]
// CHECK: gemmc.ring_init %{{.*}} {empty_arrivals = 128 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 1, stage_bytes = 0, b_offset = 0, barriers = 196672,
// CHECK: gemmc.acc_alloc %[[SLOT]] {columns = 256 : i64}
// CHECK-NOT: arith.remui %{{.*}}, %c2_i32
// CHECK: gemmc.acc_free %{{.*}} {columns = 256 : i64}
gpu.module @k2 {
  llvm.func @tmem_one_buffer(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// multistage (seed 004's step 2, 128x256x16, no swizzle): no TMA warp (warp
// 4 has no role); warp 5's lane 0 loads the tile's first 4 K steps (each
// only if the tile has it), takes the accumulator, and per K step waits,
// issues the MMAs, releases the stage, then loads step + 4 into it (its
// stage_acquire waits for those MMAs to complete), if the tile has it.

// CHECK-LABEL: llvm.func @tmem_multistage(
// CHECK: %[[W5:.*]] = arith.cmpi eq, %{{.*}}, %c5_i32 : i32
// CHECK-NEXT: scf.if %[[W5]] {
// CHECK-NEXT: gemmc.acc_alloc %{{.*}} {columns = 256 : i64}
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: } else {
// CHECK: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %[[TILE:.*]]: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: %[[HAS0:.*]] = arith.cmpi ugt, %[[STEPS]], %c0_i32 : i32
// CHECK-NEXT: scf.if %[[HAS0]] {
// CHECK-NEXT: gemmc.stage_acquire %[[G]], %{{.*}} {smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 12288,
// CHECK-NEXT: gemmc.stage_fill %[[G]], %[[M0]], %[[N0]], %[[KB]],
// CHECK: arith.cmpi ugt, %[[STEPS]], %c1_i32 : i32
// CHECK: arith.cmpi ugt, %[[STEPS]], %c2_i32 : i32
// CHECK: %[[HAS3:.*]] = arith.cmpi ugt, %[[STEPS]], %c3_i32 : i32
// CHECK-NEXT: scf.if %[[HAS3]] {
// CHECK-NEXT: %[[K3:.*]] = arith.addi %[[KB]], %c3_i32 : i32
// CHECK-NEXT: %[[G3:.*]] = arith.addi %[[G]], %c3_i32 : i32
// CHECK-NEXT: gemmc.stage_acquire %[[G3]]
// CHECK-NEXT: gemmc.stage_fill %[[G3]], %[[M0]], %[[N0]], %[[K3]],
// CHECK: gemmc.stage_acquire %{{.*}} {smem_layout = #gemmc.smem_layout<stages = 1, stage_bytes = 0,
// CHECK-NEXT: scf.for %[[KS:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 : i32 {
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[KS]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[GS]]
// CHECK: gemmc.mma_issue
// CHECK-NEXT: gemmc.stage_release %[[GS]], %{{.*}} {cluster_size = 1 : i64,
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[KS]], %c4_i32 : i32
// CHECK-NEXT: %[[HAS:.*]] = arith.cmpi ult, %[[AHEAD]], %[[STEPS]] : i32
// CHECK-NEXT: scf.if %[[HAS]] {
// CHECK-NEXT: %[[KA:.*]] = arith.addi %[[KB]], %[[AHEAD]] : i32
// CHECK-NEXT: %[[GA:.*]] = arith.addi %[[G]], %[[AHEAD]] : i32
// CHECK-NEXT: gemmc.stage_acquire %[[GA]]
// CHECK-NEXT: gemmc.stage_fill %[[GA]], %[[M0]], %[[N0]], %[[KA]],
// CHECK: gemmc.acc_ready
gpu.module @k3 {
  llvm.func @tmem_multistage(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 16], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "none", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 12288, b_offset = 4096, barriers = 49152, align = 1024, swizzle = 0>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// A CTA pair (cluster [2, 1], multicast, 128 rows a CTA: cta_group::2).
// Thread 0 of the leader (cluster rank 0) counts two arrivals on a stage's
// full barrier (its producer's and the second CTA's forwarded one) and 256
// on the accumulator's empty barrier (both epilogues); the second CTA's,
// one and 128. Both MMA warps allocate (ctas = 2); the CTAs meet at a
// cluster barrier. Both TMA warps load; the leader's MMA thread issues the
// MMAs, releases stages and marks accumulators ready for both CTAs; the
// second CTA's MMA thread waits for each of its loads and forwards it.
// Both epilogues release with ctas = 2. A cluster barrier before the free.

// CHECK-LABEL: llvm.func @tmem_pair(
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT: %[[LEADER:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: gemmc.ring_init %{{.*}} {empty_arrivals = 1 : i64, full_arrivals = 2 : i64, smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: gemmc.ring_init %{{.*}} {empty_arrivals = 256 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 1,
// CHECK-NEXT: } else {
// CHECK-NEXT: gemmc.ring_init %{{.*}} {empty_arrivals = 1 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: gemmc.ring_init %{{.*}} {empty_arrivals = 128 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 1,
// CHECK: gemmc.acc_alloc %{{.*}} {columns = 256 : i64, ctas = 2 : i64}
// CHECK: gemmc.cta_sync {cluster}
// CHECK: gemmc.stage_fill
// CHECK: scf.if %[[LEADER]] {
// CHECK: gemmc.mma_issue
// CHECK-NEXT: gemmc.stage_release %{{.*}}, %{{.*}} {cluster_size = 2 : i64, ctas = 2 : i64,
// CHECK: gemmc.acc_ready %{{.*}}, %{{.*}} {ctas = 2 : i64,
// CHECK: } else {
// CHECK: scf.for
// CHECK-NEXT: %[[GS:.*]] = arith.addi
// CHECK-NEXT: gemmc.stage_wait %[[GS]], %{{.*}} {smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: gemmc.stage_forward %[[GS]], %{{.*}} {smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK: gemmc.epilogue
// CHECK-NEXT: gemmc.acc_release %{{.*}}, %{{.*}} {ctas = 2 : i64,
// CHECK: gemmc.cta_sync {cluster}
// CHECK-NEXT: scf.if
// CHECK-NEXT: gemmc.acc_free %{{.*}} {columns = 256 : i64, ctas = 2 : i64}
gpu.module @k4 {
  llvm.func @tmem_pair(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %alpha: f32, %first: i32, %step: i32, %smem: !llvm.ptr<3>) attributes {nvvm.kernel} {
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc alpha(%alpha) smem(%smem) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "f16", a_layout = "row", b = "f16", b_layout = "col", c = "f16", accumulator = "f32", tile_shape = [128, 256, 64], cluster_shape = [2, 1], stages = 4, threads = 192, load = "tma", multicast = true, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384, barriers = 196608, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}

// -----

// scale: block (128x128x128 e4m3, persistent): the accumulator ring carries
// K steps. Two partial buffers and the f32 sum after them (3 x 128 columns,
// 512 allocated; the sum at base + 256). The MMA thread, per K step gs:
// waits for partial buffer gs % 2, issues the stage's MMAs into it fresh
// (accumulate false), releases the stage and marks the partial full. The
// epilogue warpgroup loads each K step's factors a step ahead (before the
// wait for the partial before it; the piece's last K tile clamps), folds
// the piece's first step with `first` (writing the sum), the others into
// it, each after waiting for its partial and before handing it back; then
// stores the sum.

// CHECK-LABEL: llvm.func @tmem_block_scaled(
// CHECK-SAME: %[[C:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[M:[a-z0-9]*]]: i32, %[[N:[a-z0-9]*]]: i32, %[[K:[a-z0-9]*]]: i32, %[[LDC:[a-z0-9]*]]: i32, %[[SA:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias}, %[[SB:[a-z0-9]*]]: !llvm.ptr<1> {llvm.noalias})
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %{{.*}}[131168]
// CHECK: gemmc.ring_init %[[S:.*]] {empty_arrivals = 128 : i64, full_arrivals = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 131136,
// CHECK: gemmc.acc_alloc %[[SLOT]] {columns = 512 : i64}
// CHECK: %[[BASE:.*]] = gemmc.acc_base %[[SLOT]]
// CHECK-NEXT: %[[SUM:.*]] = arith.addi %[[BASE]], %c256_i32 : i32
// CHECK: } else {
// CHECK: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %[[KB:.*]]: i32, %[[KE:.*]]: i32, %[[G:.*]]: i32):
// CHECK-NEXT: %[[STEPS:.*]] = arith.subi %[[KE]], %[[KB]] : i32
// CHECK-NEXT: scf.for %[[KS:.*]] = %c0_i32 to %[[STEPS]] step %c1_i32 : i32 {
// CHECK-NEXT: %[[GS:.*]] = arith.addi %[[G]], %[[KS]] : i32
// CHECK-NEXT: gemmc.stage_acquire %[[GS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 0, b_offset = 0, barriers = 131136,
// CHECK-NEXT: gemmc.stage_wait %[[GS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: %[[STAGE:.*]] = gemmc.stage_base %[[GS]]
// CHECK-NEXT: %[[BT:.*]] = llvm.getelementptr %[[STAGE]][16384]
// CHECK-NEXT: %[[BUF:.*]] = arith.remui %[[GS]], %c2_i32 : i32
// CHECK-NEXT: %[[COL:.*]] = arith.muli %[[BUF]], %c128_i32 : i32
// CHECK-NEXT: %[[PART:.*]] = arith.addi %[[BASE]], %[[COL]] : i32
// CHECK-NEXT: gemmc.mma_issue %[[PART]], %[[STAGE]], %[[BT]], %[[FALSE]]
// CHECK-NEXT: gemmc.stage_release %[[GS]], %[[S]] {cluster_size = 1 : i64, smem_layout = #gemmc.smem_layout<stages = 4,
// CHECK-NEXT: gemmc.acc_ready %[[GS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK-NEXT: {{^ *}}}
// CHECK-NOT: gemmc.acc_ready
// CHECK: gemmc.tile_loop
// CHECK-NEXT: ^bb0(%[[M0:.*]]: i32, %[[N0:.*]]: i32, %{{.*}}: i32, %[[EKB:.*]]: i32, %[[EKE:.*]]: i32, %[[EG:.*]]: i32):
// CHECK-NEXT: %[[KLAST:.*]] = arith.subi %[[EKE]], %c1_i32 : i32
// CHECK-NEXT: %[[KT0:.*]] = arith.minui %[[EKB]], %[[KLAST]] : i32
// CHECK-NEXT: %[[F0:.*]] = gemmc.acc_fold_scales %[[SA]], %[[SB]], %[[M0]], %[[N0]], %[[KT0]], %[[M]], %[[N]], %[[K]] {schedule =
// CHECK-NEXT: %[[K1:.*]] = arith.addi %[[EKB]], %c1_i32 : i32
// CHECK-NEXT: %[[KT1:.*]] = arith.minui %[[K1]], %[[KLAST]] : i32
// CHECK-NEXT: %[[F1:.*]] = gemmc.acc_fold_scales %[[SA]], %[[SB]], %[[M0]], %[[N0]], %[[KT1]], %[[M]], %[[N]], %[[K]] {schedule =
// CHECK-NEXT: gemmc.stage_wait %[[EG]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK-NEXT: %[[B0:.*]] = arith.remui %[[EG]], %c2_i32 : i32
// CHECK-NEXT: %[[C0:.*]] = arith.muli %[[B0]], %c128_i32 : i32
// CHECK-NEXT: %[[P0:.*]] = arith.addi %[[BASE]], %[[C0]] : i32
// CHECK-NEXT: gemmc.acc_fold %[[SUM]], %[[P0]], %[[F0]] {first,
// CHECK-NEXT: gemmc.acc_release %[[EG]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK-NEXT: %[[ESTEPS:.*]] = arith.subi %[[EKE]], %[[EKB]] : i32
// CHECK-NEXT: scf.for %[[EKS:.*]] = %c1_i32 to %[[ESTEPS]] step %c1_i32 iter_args(%[[F:.*]] = %[[F1]]) -> (!llvm.struct<(f32)>) : i32 {
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[EKS]], %c1_i32 : i32
// CHECK-NEXT: %[[KN:.*]] = arith.addi %[[EKB]], %[[NEXT]] : i32
// CHECK-NEXT: %[[KTN:.*]] = arith.minui %[[KN]], %[[KLAST]] : i32
// CHECK-NEXT: %[[FN:.*]] = gemmc.acc_fold_scales %[[SA]], %[[SB]], %[[M0]], %[[N0]], %[[KTN]], %[[M]], %[[N]], %[[K]] {schedule =
// CHECK-NEXT: %[[EGS:.*]] = arith.addi %[[EG]], %[[EKS]] : i32
// CHECK-NEXT: gemmc.stage_wait %[[EGS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK-NEXT: %[[B1:.*]] = arith.remui %[[EGS]], %c2_i32 : i32
// CHECK-NEXT: %[[C1:.*]] = arith.muli %[[B1]], %c128_i32 : i32
// CHECK-NEXT: %[[P1:.*]] = arith.addi %[[BASE]], %[[C1]] : i32
// CHECK-NEXT: gemmc.acc_fold %[[SUM]], %[[P1]], %[[F]] {schedule =
// CHECK-NEXT: gemmc.acc_release %[[EGS]], %[[S]] {smem_layout = #gemmc.smem_layout<stages = 2,
// CHECK-NEXT: scf.yield %[[FN]] : !llvm.struct<(f32)>
// CHECK-NEXT: {{^ *}}}
// CHECK-NEXT: gemmc.epilogue %[[SUM]], %[[C]], %[[M0]], %[[N0]], %[[M]], %[[N]], %[[LDC]] {schedule =
// CHECK-NOT: gemmc.acc_release
// CHECK: gemmc.acc_free %[[BASE]] {columns = 512 : i64}
gpu.module @k4 {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.func @tmem_block_scaled(%ta: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %tb: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %c: !llvm.ptr<1> {llvm.noalias}, %m: i32, %n: i32, %k: i32, %ldc: i32, %sa: !llvm.ptr<1> {llvm.noalias}, %sb: !llvm.ptr<1> {llvm.noalias}) attributes {nvvm.kernel} {
    %first = nvvm.read.ptx.sreg.ctaid.x : i32
    %step = nvvm.read.ptx.sreg.nctaid.x : i32
    %smem = llvm.mlir.addressof @smem : !llvm.ptr<3>
    gemmc.tile_matmul %ta, %tb, %c, %first, %step, %m, %n, %k, %ldc smem(%smem) {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "e4m3", a_layout = "row", a_scale = "block", b = "e4m3", b_layout = "col", b_scale = "block", c = "f32", accumulator = "f32", tile_shape = [128, 128, 128], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "persistent", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", activation = "none">, smem_layout = #gemmc.smem_layout<stages = 4, stage_bytes = 32768, b_offset = 16384, barriers = 131072, align = 1024, swizzle = 128>} : !llvm.ptr, !llvm.ptr, !llvm.ptr<1>, !llvm.ptr<3>
    llvm.return
  }
}
