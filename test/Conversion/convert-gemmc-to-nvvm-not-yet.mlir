// RUN: not gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm 2>&1 | FileCheck %s

// An op a target's patterns do not lower is refused with the target's name
// (common ops such as barriers still lower): sm_80 has no MMA groups to wait
// for (mma.sync is synchronous), and sm_100a no instruction selection yet.

// CHECK: error: 'gemmc.mma_wait' op [not-implemented] instruction selection for sm_80 is not implemented yet
gpu.module @k4 [#nvvm.target<chip = "sm_80">] {
  llvm.func @sm80(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.cta_sync
    gemmc.mma_wait 1
    llvm.return
  }
}

// -----

// CHECK: error: 'gemmc.mma_wait' op [not-implemented] instruction selection for sm_100a is not implemented yet
gpu.module @k5 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @sm100(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.mma_wait 0
    llvm.return
  }
}
