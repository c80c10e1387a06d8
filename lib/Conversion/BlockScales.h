//===- BlockScales.h - Where block scales lie, shared by sm_90a/sm_100a ---===//
//
// Block scaling (`scale: block`, DeepSeek-V3's 1x128 A and 128x128 B
// scales) in cuBLASLt's layouts (docs/abi.md): A's M-major, one f32 per row
// and K block, scale_a[kb * M + row]; B's K-major, one f32 per 128x128
// block, with the K-block count rounded up to kScaleBlockKAlign,
// scale_b[nb * align4(ceil(K / 128)) + kb]. Rows past M and blocks past N
// read the last row or block (their results are never stored). sm_90a's
// folds (Sm90aBlockScalePatterns.cpp) and sm_100a's (Sm100aPatterns.cpp,
// gemmc.acc_fold) index them through these.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_LIB_CONVERSION_BLOCKSCALES_H
#define GEMMC_LIB_CONVERSION_BLOCKSCALES_H

#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"

namespace mlir::gemmc {

/// One f32 of a scale array, `index` (i64) elements in. Invariant: the
/// scales do not change while the kernel runs, so the load takes the
/// read-only path (ld.global.nc) and may move above the mainloop's waits.
Value loadScale(KernelIR &ir, Value base, Value index);

/// B's K-block stride (i64): the K-block count rounded up to
/// kScaleBlockKAlign.
Value bScaleStride(KernelIR &ir, Value k);

/// The last of B's scale blocks along N.
Value lastScaleBlock(KernelIR &ir, Value n);

/// A's scale of row `row` (clamped to `lastRow`, M - 1) of the K tile whose
/// plane of M row scales starts at `aPlane` (i64: K tile x M).
Value aScaleIndex(KernelIR &ir, Value aPlane, Value row, Value lastRow);

/// B's scale block of the tile's column `offset` (a scale slot's first,
/// scaleSlotColumns): a slot on a block boundary is a whole block past
/// `firstBlock` (n0 / kScaleBlock); another (a tile that is not whole
/// blocks) starts inside the block of its first column.
Value scaleSlotBlock(KernelIR &ir, Value n0, Value firstBlock, int64_t offset);

/// B's scale of N block `block` (clamped to `lastBlock`) and K tile `kt64`
/// (i64), the blocks `bStride64` (bScaleStride) apart.
Value bScaleIndex(KernelIR &ir, Value block, Value lastBlock, Value bStride64, Value kt64);

} // namespace mlir::gemmc

#endif // GEMMC_LIB_CONVERSION_BLOCKSCALES_H
