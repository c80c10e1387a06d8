// RUN: gemmc-opt %s --split-input-file --gemmc-verify-schedule --gemmc-tile --gemmc-smem-layout --gemmc-warp-specialize --gemmc-schedule-tiles --gemmc-epilogue --canonicalize --cse | FileCheck %s
// RUN: gemmc-opt %s --split-input-file --gemmc-verify-schedule --gemmc-tile --gemmc-smem-layout --gemmc-warp-specialize --gemmc-schedule-tiles --gemmc-epilogue | FileCheck %s --check-prefix=NOMATH
// RUN: gemmc-opt %s --split-input-file --gemmc-verify-schedule --gemmc-tile --gemmc-smem-layout --gemmc-warp-specialize --gemmc-schedule-tiles --gemmc-epilogue --convert-gemmc-to-nvvm | FileCheck %s --check-prefix=PTX-OPS

// A fused epilogue (issue 15) from gemmc.matmul to gemmc-epilogue's output:
// a per-column f16 bias, tanh GELU and an aux output, with programmatic
// dependent launch. The kernel takes `bias` and `aux` after alpha (the
// ABI's order); every thread waits for the previous grid after the ring's
// setup, before the first load; thread 0 (multistage) lets the next grid
// start after its last tile. Per value, after alpha: + bias[min(col, N-1)]
// (clamped: a column past N reads the vector's last element), the
// pre-activation value to aux (bf16, C's element and ldc), then
// x/2 (1 + tanh(0.7978846 (x + 0.044715 x^3))), computed as x/2 + x/2
// tanh(x (0.7978846 + 0.0356774 x^2)): two fmas, 6 operations where the
// formula as written takes 9. The bias load is invariant
// (it may move past the stores of C and aux); the output is bf16, so the tanh
// is marked afn and convert-gemmc-to-nvvm makes it tanh.approx.f32.

// CHECK-LABEL: llvm.func @fused(
// CHECK-SAME: %[[N:[a-z0-9]*]]: i32, %{{[a-z0-9]*}}: i32, %[[LDC:[a-z0-9]*]]: i32, %[[ALPHA:[a-z0-9]*]]: f32, %[[BIAS:[a-z0-9]*]]: !llvm.ptr<1>, %[[AUX:[a-z0-9]*]]: !llvm.ptr<1>)
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[K1:.*]] = arith.constant 0.0356774069 : f32
// CHECK-DAG: %[[K0:.*]] = arith.constant 0.797884583 : f32
// CHECK: gemmc.wait_prior_grids
// CHECK: gemmc.stage_fill
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %c1_i32 : i32
// CHECK-NEXT: %[[IDX:.*]] = arith.minui %{{.*}}, %[[LAST]] : i32
// CHECK-NEXT: %[[IDX64:.*]] = arith.extui %[[IDX]] : i32 to i64
// CHECK-NEXT: %[[BP:.*]] = llvm.getelementptr %[[BIAS]][%[[IDX64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f16
// CHECK-NEXT: %[[B:.*]] = llvm.load %[[BP]] invariant : !llvm.ptr<1> -> f16
// CHECK-NEXT: %[[BF:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT: %[[PRE:.*]] = arith.addf %{{.*}}, %[[BF]] : f32
// CHECK: %[[AP:.*]] = llvm.getelementptr %[[AUX]][%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
// CHECK-NEXT: %[[PRE16:.*]] = arith.truncf %[[PRE]] : f32 to bf16
// CHECK-NEXT: llvm.store %[[PRE16]], %[[AP]] : bf16, !llvm.ptr<1>
// CHECK-NEXT: %[[X2:.*]] = arith.mulf %[[PRE]], %[[PRE]] : f32
// CHECK-NEXT: %[[P:.*]] = math.fma %[[X2]], %[[K1]], %[[K0]] : f32
// CHECK-NEXT: %[[U:.*]] = arith.mulf %[[PRE]], %[[P]] : f32
// CHECK-NEXT: %[[TANH:.*]] = math.tanh %[[U]] fastmath<afn> : f32
// CHECK-NEXT: %[[HALFX:.*]] = arith.mulf %[[PRE]], %[[HALF]] : f32
// CHECK-NEXT: %[[Y:.*]] = math.fma %[[HALFX]], %[[TANH]], %[[HALFX]] : f32
// CHECK-NEXT: arith.truncf %[[Y]] : f32 to bf16
// CHECK: gemmc.launch_dependents
// NOMATH-NOT: math.erf
// NOMATH-NOT: math.exp
// PTX-OPS: nvvm.griddepcontrol wait
// PTX-OPS: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %{{.*}} : (f32) -> f32
// PTX-OPS-NOT: math.tanh
// PTX-OPS: nvvm.griddepcontrol launch_dependents
// PTX-OPS-NOT: gemmc.
func.func @fused(%arg0: memref<?x?xbf16> {gemmc.operand = "a"}, %arg1: memref<?x?xbf16> {gemmc.operand = "b"}, %arg2: memref<?x?xbf16> {gemmc.operand = "c"}, %arg3: f32) attributes {gemmc.kernel} {
  gemmc.matmul %arg0, %arg1, %arg2 alpha(%arg3) {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = true, beta = false, bias = "col", bias_element = "f16", activation = "gelu_tanh", aux = true, pdl_wait = "before_loads", pdl_launch_dependents = "after_mainloop">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}

// -----

// An f32 output keeps 24 bits: silu's tanh is not marked afn, so gemmc-epilogue
// expands it into the polynomial (a division, no math op left) and no
// tanh.approx is emitted. x sigmoid(x) is written x/2 (1 + tanh(x/2)) only
// for 16-bit outputs; here it is x / (1 + e^-x).

// CHECK-LABEL: llvm.func @silu_f32(
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: arith.divf
// CHECK: llvm.store %{{.*}} : vector<2xf32>, !llvm.ptr<1>
// NOMATH-LABEL: llvm.func @silu_f32(
// NOMATH-NOT: math.tanh
// NOMATH-NOT: math.exp
// PTX-OPS-LABEL: llvm.func @silu_f32(
// PTX-OPS-NOT: tanh.approx
func.func @silu_f32(%arg0: memref<?x?xbf16> {gemmc.operand = "a"}, %arg1: memref<?x?xbf16> {gemmc.operand = "b"}, %arg2: memref<?x?xf32> {gemmc.operand = "c"}) attributes {gemmc.kernel} {
  gemmc.matmul %arg0, %arg1, %arg2 {schedule = #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "f32", accumulator = "f32", tile_shape = [64, 128, 64], cluster_shape = [1, 1], stages = 2, threads = 128, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "multistage", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "none", bias_element = "f32", activation = "silu", aux = false, pdl_wait = "none", pdl_launch_dependents = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xf32>
  return
}

// -----

// sm_100a's tensor-memory epilogue with a fused epilogue (session 26): the
// chunks of a thread's row (BLOCK_N = 64: two of 32 columns) are one
// scf.for, not unrolled (a thread holds a whole row of the tile, and the
// activations' code times the chunk count took 2-15 s to compile at BLOCK_N
// = 256). Each value: + bias[min(col, N - 1)] (an invariant f32 load), relu.

// CHECK-LABEL: llvm.func @tmem_fused(
// CHECK: %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %arg3 : i32
// CHECK-NEXT: scf.for %[[CH:.*]] = %c0_i32 to %c2_i32 step %c1_i32  : i32 {
// CHECK-NEXT: %[[COL0:.*]] = arith.muli %[[CH]], %c32_i32 : i32
// CHECK-NEXT: %[[AT:.*]] = arith.addi %{{.*}}, %[[COL0]] : i32
// CHECK-NEXT: %[[V:.*]] = gemmc.acc_load %[[AT]] {count = 32 : i64} : vector<32xf32>
// CHECK-NEXT: scf.if %[[ROWIN]] {
// CHECK: %[[B:.*]] = llvm.load %{{.*}} invariant : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[X:.*]] = arith.addf %{{.*}}, %[[B]] : f32
// CHECK-NEXT: arith.maximumf %[[X]], %{{.*}} : f32
// CHECK-NOT: gemmc.acc_load
func.func @tmem_fused(%arg0: memref<?x?xbf16> {gemmc.operand = "a"}, %arg1: memref<?x?xbf16> {gemmc.operand = "b"}, %arg2: memref<?x?xbf16> {gemmc.operand = "c"}) attributes {gemmc.kernel} {
  gemmc.matmul %arg0, %arg1, %arg2 {schedule = #gemmc.schedule<arch = "sm_100a", device = "b200", a = "bf16", a_layout = "row", b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32", tile_shape = [128, 64, 64], cluster_shape = [1, 1], stages = 4, threads = 192, load = "tma", multicast = false, smem_swizzle = "128b", kernel_schedule = "warp_specialized", tile_scheduler = "data_parallel", raster = "along_m", group = 8, split_k = 1, store = "direct", alpha = false, beta = false, bias = "col", bias_element = "f32", activation = "relu", aux = false, pdl_wait = "none", pdl_launch_dependents = "none">} : memref<?x?xbf16>, memref<?x?xbf16>, memref<?x?xbf16>
  return
}
