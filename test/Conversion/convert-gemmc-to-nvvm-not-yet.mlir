// RUN: not gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm 2>&1 | FileCheck %s

// An op that no pattern of the kernel's target takes is refused with the
// target's name (common ops such as barriers still lower): sm_80 has no MMA
// groups to wait for (mma.sync is synchronous), and sm_100a's MMAs complete
// through tcgen05.commit on mbarriers, not gemmc.mma_wait.

// CHECK: error: 'gemmc.mma_wait' op could not be lowered to sm_80
gpu.module @k4 [#nvvm.target<chip = "sm_80">] {
  llvm.func @sm80(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.cta_sync
    gemmc.mma_wait 1
    llvm.return
  }
}

// -----

// CHECK: error: 'gemmc.mma_wait' op could not be lowered to sm_100a
gpu.module @k5 [#nvvm.target<chip = "sm_100a">] {
  llvm.func @sm100(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.mma_wait 0
    llvm.return
  }
}
