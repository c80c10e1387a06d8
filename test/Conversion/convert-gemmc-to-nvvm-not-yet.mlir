// RUN: not gemmc-opt %s --split-input-file --convert-gemmc-to-nvvm 2>&1 | FileCheck %s

// sm_80 has no instruction selection yet: its ring ops are refused with the
// target's name (common ops such as barriers still lower). sm_100a has one,
// without gemmc.mma_wait: its MMAs complete through tcgen05.commit on
// mbarriers, so an op that no pattern takes "could not be lowered".

// CHECK: error: 'gemmc.stage_wait' op [not-implemented] instruction selection for sm_80 is not implemented yet
gpu.module @k4 [#nvvm.target<chip = "sm_80">] {
  llvm.func @sm80(%g: i32, %s: !llvm.ptr<3>) {
    gemmc.cta_sync
    gemmc.stage_wait %g, %s {smem_layout = #gemmc.smem_layout<stages = 2, stage_bytes = 24576, b_offset = 8192, barriers = 49152, align = 1024, swizzle = 128>} : !llvm.ptr<3>
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
