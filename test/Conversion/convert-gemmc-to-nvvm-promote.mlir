// RUN: gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm | FileCheck %s

// gemmc.mma_promote on sm_90a: the wgmma accumulator struct is added into
// the f32 sum register by register, on the CUDA cores (one llvm.fadd per
// f32 of the struct, in order; nothing else).

// CHECK-LABEL: llvm.func @promote(
// CHECK-SAME: %[[SUM:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32)>, %[[PART:[a-z0-9]*]]: !llvm.struct<(f32, f32, f32)>)
// CHECK-NEXT: %[[S0:.*]] = llvm.extractvalue %[[SUM]][0]
// CHECK-NEXT: %[[P0:.*]] = llvm.extractvalue %[[PART]][0]
// CHECK-NEXT: %[[A0:.*]] = llvm.fadd %[[S0]], %[[P0]] : f32
// CHECK-NEXT: %[[R0:.*]] = llvm.insertvalue %[[A0]], %[[SUM]][0]
// CHECK-NEXT: %[[S1:.*]] = llvm.extractvalue %[[R0]][1]
// CHECK-NEXT: %[[P1:.*]] = llvm.extractvalue %[[PART]][1]
// CHECK-NEXT: %[[A1:.*]] = llvm.fadd %[[S1]], %[[P1]] : f32
// CHECK-NEXT: %[[R1:.*]] = llvm.insertvalue %[[A1]], %[[R0]][1]
// CHECK-NEXT: %[[S2:.*]] = llvm.extractvalue %[[R1]][2]
// CHECK-NEXT: %[[P2:.*]] = llvm.extractvalue %[[PART]][2]
// CHECK-NEXT: %[[A2:.*]] = llvm.fadd %[[S2]], %[[P2]] : f32
// CHECK-NEXT: %[[R2:.*]] = llvm.insertvalue %[[A2]], %[[R1]][2]
// CHECK-NEXT: llvm.return %[[R2]]
gpu.module @k1 [#nvvm.target<chip = "sm_90a">] {
  llvm.func @promote(%sum: !llvm.struct<(f32, f32, f32)>, %part: !llvm.struct<(f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32)> {
    %r = gemmc.mma_promote %sum, %part : !llvm.struct<(f32, f32, f32)>
    llvm.return %r : !llvm.struct<(f32, f32, f32)>
  }
}
