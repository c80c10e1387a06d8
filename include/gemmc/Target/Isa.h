//===- Isa.h - What each target's instructions take and give -------------===//
//
// The instruction-set facts gemmc builds on, per target: MMA shapes and
// their accumulator fragments, barriers, the register allocation unit,
// swizzle atoms, TMA boxes, cp.async, ldmatrix and tensor memory. The rules
// (lib/Spec), the model (lib/Model) and the lowering read these numbers from
// here and nowhere else. Target.h holds the products (SM counts, bandwidths);
// this header holds what the PTX ISA says about each arch.
//
// Facts every gemmc target shares are written once below as constants; the
// per-target description (isaFor) says which of them an arch has. Sources:
// the PTX ISA 8.7 (sections on mma, wgmma, tcgen05, cp.async.bulk.tensor,
// mbarrier, setmaxnreg, ldmatrix) and the CUDA driver API's
// cuTensorMapEncodeTiled.
//
// LLVM Support only, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TARGET_ISA_H
#define GEMMC_TARGET_ISA_H

#include "gemmc/Target/Target.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace gemmc {

//===----------------------------------------------------------------------===//
// Facts shared by sm_80, sm_90a and sm_100a
//===----------------------------------------------------------------------===//
namespace isa {
/// One MMA instruction consumes 32 bytes of K per operand row on every
/// family: m16n8k8 / m64nNk8 tf32, k16 f16 and bf16, k32 fp8.
constexpr int kMmaKBytes = 32;
/// An mbarrier object is a 64-bit word in shared memory.
constexpr int kMbarrierBytes = 8;
/// A stage of a TMA ring has two: "full" (the loads landed) and "empty" (the
/// consumers released it).
constexpr int kMbarriersPerStage = 2;
constexpr int kStageBarrierBytes = kMbarrierBytes * kMbarriersPerStage;
/// bar.sync / barrier ids 0..15; 0 is __syncthreads.
constexpr int kNamedBarriers = 16;
/// ptxas gives a thread registers in units of 8 (256 per warp).
constexpr int kRegisterAllocUnit = 8;
/// A register holds 4 bytes (an MMA fragment's elements are packed into them).
constexpr int kRegisterBytes = 4;
/// setmaxnreg's operand: a multiple of the allocation unit in [24, 256].
constexpr int kSetmaxnregMin = 24;
constexpr int kSetmaxnregMax = 256;
/// Registers the producer warpgroup of a warp-specialized kernel keeps after
/// setmaxnreg.dec: a choice (issuing TMA loads needs few), not a limit.
constexpr int kProducerRegs = 40;
static_assert(kProducerRegs % kRegisterAllocUnit == 0 &&
                  kProducerRegs >= kSetmaxnregMin && kProducerRegs <= kSetmaxnregMax,
              "setmaxnreg takes multiples of 8 in [24, 256]");
/// The shared-memory swizzle patterns repeat every 8 rows of one span: the
/// atom of the 128-byte pattern is 8 x 128 = 1024 bytes, and a swizzled
/// tile must start on one.
constexpr int kSwizzleAtomRows = 8;
constexpr int kSwizzleSpans[] = {32, 64, 128};
constexpr int kWidestSwizzleSpan = 128;
constexpr int swizzleAtomBytes(int spanBytes) { return kSwizzleAtomRows * spanBytes; }
/// A swizzle permutes 16-byte units: in the 128-byte pattern, unit u of row
/// r lands at u ^ (r % 8).
constexpr int kSwizzleUnitBytes = 16;
/// A box has at most 256 elements per dimension; the global base address
/// and every stride are multiples of 16 bytes, and so is an unswizzled
/// box's inner row. A swizzled box's inner row is at most one span.
constexpr int kTmaMaxBoxDim = 256;
constexpr int kTmaGlobalAlignBytes = 16;
constexpr int kTmaMinInnerBoxBytes = 16;
/// cp.async.cg copies 16 bytes per thread and instruction (sm_80's loads).
constexpr int kCpAsyncBytes = 16;
/// ldmatrix .x4 loads four 8x8 matrices of 16-bit elements, one row address
/// per lane.
constexpr int kLdmatrixMatrices = 4;
constexpr int kLdmatrixRows = 8;
constexpr int kLdmatrixRowBytes = 16;
/// Tensor memory (sm_100a): 128 lanes x 512 columns of 32-bit cells per SM;
/// tcgen05.alloc takes a power of two of at least 32 columns.
constexpr int kTmemLanes = 128;
constexpr int kTmemColumns = 512;
constexpr int kTmemCellBytes = 4;
constexpr int kTmemMinAllocColumns = 32;
/// tcgen05.alloc writes the 32-bit base address to shared memory: an 8-byte
/// slot, so that the mbarriers after it stay 8-byte aligned.
constexpr int kTmemSlotBytes = 8;
/// A tensor-memory address: lane in bits 16-31, column in bits 0-15.
constexpr int kTmemLaneShift = 16;
/// tcgen05.ld .32x32b: each warp of a warpgroup reaches its own 32 lanes
/// (warp w % 4 lanes 32 (w % 4) ...); gemmc reads 32 columns per load (.x32).
constexpr int kTmemWarpLanes = 32;
constexpr int kTmemLoadColumns = 32;

/// wgmma's 64-bit shared-memory matrix descriptor (PTX ISA, "matrix
/// descriptor format"): the start address and the leading and stride byte
/// offsets in 16-byte units, 14 bits each, the base offset (3 bits) and the
/// swizzle mode.
namespace wgmma_desc {
constexpr int kUnitShift = 4;
constexpr uint64_t kFieldMask = 0x3FFF;
constexpr int kAddressBit = 0, kLeadingBit = 16, kStrideBit = 32,
              kBaseOffsetBit = 49, kSwizzleBit = 62;
/// A byte count as a descriptor field.
constexpr uint64_t field(int64_t bytes) {
  return (uint64_t(bytes) >> kUnitShift) & kFieldMask;
}
/// The mode of a swizzle span: 0 none, 1 128-byte, 2 64-byte, 3 32-byte.
constexpr uint64_t swizzleMode(int spanBytes) {
  return spanBytes == 128 ? 1 : spanBytes == 64 ? 2 : spanBytes == 32 ? 3 : 0;
}
/// The descriptor of a tile at shared address 0 (add field(address)).
constexpr uint64_t offsets(int64_t leadingBytes, int64_t strideBytes, int spanBytes) {
  return field(leadingBytes) << kLeadingBit | field(strideBytes) << kStrideBit |
         swizzleMode(spanBytes) << kSwizzleBit;
}
} // namespace wgmma_desc

/// tcgen05's 64-bit shared-memory matrix descriptor (PTX ISA, tcgen05
/// "shared memory descriptor"): as wgmma's (start address, leading and
/// stride byte offsets in 16-byte units, 14 bits each, base offset in bits
/// 49-51), plus the fixed version 0b001 in bits 46-48, the leading-offset
/// mode (bit 52, 0: relative) and a 3-bit swizzle mode in bits 61-63 with its
/// own numbering: 0 none, 1 128-byte with 32-byte atoms, 2 128-byte,
/// 4 64-byte, 6 32-byte.
namespace tcgen05_desc {
constexpr int kVersionBit = 46;
constexpr uint64_t kVersion = 1;
constexpr int kLeadingModeBit = 52;
constexpr int kSwizzleBit = 61;
constexpr uint64_t swizzleMode(int spanBytes) {
  return spanBytes == 128 ? 2 : spanBytes == 64 ? 4 : spanBytes == 32 ? 6 : 0;
}
/// The descriptor of a tile at shared address 0 (add wgmma_desc::field of
/// the address).
constexpr uint64_t offsets(int64_t leadingBytes, int64_t strideBytes, int spanBytes) {
  return wgmma_desc::field(leadingBytes) << wgmma_desc::kLeadingBit |
         wgmma_desc::field(strideBytes) << wgmma_desc::kStrideBit |
         kVersion << kVersionBit | swizzleMode(spanBytes) << kSwizzleBit;
}
/// The unswizzled ("interleaved") layout's core matrix: 8 rows of one
/// 16-byte unit, 128 contiguous bytes.
constexpr int kCoreMatrixBytes = kSwizzleAtomRows * kSwizzleUnitBytes;
/// The descriptor bits of a K-major tile at shared address 0 as TMA writes
/// it (PTX ISA, tcgen05 "shared memory matrix layouts", K-major canonical
/// layouts). Swizzled (`spanBytes` 32, 64, 128): rows of one span, 8-row
/// atoms one atom apart (stride), the leading offset unused (16 by
/// convention). Unswizzled (`spanBytes` 0): the tile comes in slabs one
/// 16-byte unit of K wide, `slabBytes` apart, each its rows' core matrices
/// back to back: the leading offset (along K) is `slabBytes`, the stride
/// (along M or N) one core matrix.
constexpr uint64_t kMajorOffsets(int spanBytes, int64_t slabBytes) {
  return spanBytes ? offsets(kSwizzleUnitBytes, swizzleAtomBytes(spanBytes), spanBytes)
                   : offsets(slabBytes, kCoreMatrixBytes, 0);
}
/// Bytes from a K-major tile's start to where k step `step` of
/// `kStepBytes` bytes of K starts: along the row when swizzled (the
/// hardware swizzles from the address bits), whole slabs when not.
constexpr int64_t kStepOffset(int spanBytes, int64_t slabBytes, int64_t kStepBytes,
                              int64_t step) {
  return spanBytes ? step * kStepBytes : step * kStepBytes / kSwizzleUnitBytes * slabBytes;
}
} // namespace tcgen05_desc

/// tcgen05.mma's 32-bit instruction descriptor for .kind::f16,
/// .kind::tf32 and .kind::f8f6f4 (PTX ISA, "instruction descriptor"): dense
/// (bits 0-2 zero), no saturation (bit 3), D's type in bits 4-5 (0 f16, 1
/// f32), A's and B's types in bits 7-9 and 10-12 (f16 0, bf16 1 under
/// kind::f16; tf32 2 under kind::tf32; e4m3 0, e5m2 1 under kind::f8f6f4,
/// each operand its own), negate A / B in bits 13 / 14 (0), transpose A / B in bits
/// 15 / 16 (0: K-major, 1: M- or N-major), N >> 3 in bits 17-22, M >> 4 in
/// bits 24-28, the .ws max shift in bits 30-31 (0).
namespace tcgen05_idesc {
constexpr int kDTypeBit = 4, kATypeBit = 7, kBTypeBit = 10, kTransposeABit = 15,
              kTransposeBBit = 16, kNBit = 17, kMBit = 24;
constexpr int kNShift = 3, kMShift = 4;
constexpr uint32_t kDTypeF16 = 0, kDTypeF32 = 1;
constexpr uint32_t kTypeF16 = 0, kTypeBF16 = 1, kTypeTF32 = 2;
constexpr uint32_t kTypeE4M3 = 0, kTypeE5M2 = 1; // kind::f8f6f4
constexpr uint32_t encode(uint32_t dType, uint32_t aType, uint32_t bType,
                          bool transposeA, bool transposeB, int m, int n) {
  return dType << kDTypeBit | aType << kATypeBit | bType << kBTypeBit |
         uint32_t(transposeA) << kTransposeABit |
         uint32_t(transposeB) << kTransposeBBit |
         uint32_t(n >> kNShift) << kNBit | uint32_t(m >> kMShift) << kMBit;
}
} // namespace tcgen05_idesc
} // namespace isa

/// Shared memory the system reserves of each resident block (sm_80 and
/// later): a CTA's share of the SM is its own bytes plus this.
constexpr int kSmemReservedPerCta = 1024;

/// Alignment the widest (128-byte) swizzle pattern needs for its
/// shared-memory base: one atom, 1024 bytes.
constexpr int kSwizzleAtomAlignBytes = isa::swizzleAtomBytes(isa::kWidestSwizzleSpan);

//===----------------------------------------------------------------------===//
// The accumulator fragment
//===----------------------------------------------------------------------===//

/// Where value i of lane l of warp w lies in an MMA's fp32 accumulator tile.
/// Every family's figure in the PTX ISA has one form: value i splits as
///   i = (j * halves + h) * pair + e      (e < pair, h < halves)
/// and lies at
///   row    = warpRows * w + l / lanesPerRow + halfRows * h
///   column = blockColumns * j + pair * (l % lanesPerRow) + e.
/// The lowering builds laneRow / laneColumn once from thread ids (they need
/// IR values) and adds valueRow / valueColumn, constants of the unrolled i.
struct AccumulatorLayout {
  int warpRows;     ///< rows between consecutive warps; 0: one tile per warp
  int lanesPerRow;  ///< lanes that share a row (a quad, or 1)
  int halfRows;     ///< rows between the halves h
  int halves;       ///< row halves per column block
  int pair;         ///< adjacent columns a lane holds (e)
  int blockColumns; ///< columns between column blocks j

  constexpr int valuesPerBlock() const { return halves * pair; }
  constexpr int laneRow(int warp, int lane) const {
    return warpRows * warp + lane / lanesPerRow;
  }
  constexpr int laneColumn(int lane) const { return pair * (lane % lanesPerRow); }
  constexpr int valueRow(int i) const { return halfRows * (i / pair % halves); }
  constexpr int valueColumn(int i) const {
    return blockColumns * (i / valuesPerBlock()) + i % pair;
  }
  constexpr int rowOf(int warp, int lane, int i) const {
    return laneRow(warp, lane) + valueRow(i);
  }
  constexpr int columnOf(int lane, int i) const {
    return laneColumn(lane) + valueColumn(i);
  }
};

/// mma.sync m16n8 (f32 accumulators), per warp: value 2h + e at row
/// l/4 + 8h, column 2(l%4) + e.
constexpr AccumulatorLayout kMmaSyncAccumulator{/*warpRows=*/0, /*lanesPerRow=*/4,
                                                /*halfRows=*/8, /*halves=*/2,
                                                /*pair=*/2, /*blockColumns=*/8};
/// wgmma m64nN (f32), warp w of the warpgroup: value 4j + 2h + e at row
/// 16w + l/4 + 8h, column 8j + 2(l%4) + e.
constexpr AccumulatorLayout kWgmmaAccumulator{/*warpRows=*/16, /*lanesPerRow=*/4,
                                              /*halfRows=*/8, /*halves=*/2,
                                              /*pair=*/2, /*blockColumns=*/8};
/// tcgen05.ld 32x32b from a 128-lane accumulator, warp w of the draining
/// warpgroup: lane l holds tensor-memory lane (tile row) 32w + l, value i is
/// column i.
constexpr AccumulatorLayout kTcgen05Ld32x32bAccumulator{
    /*warpRows=*/32, /*lanesPerRow=*/1, /*halfRows=*/0, /*halves=*/1,
    /*pair=*/1, /*blockColumns=*/1};

//===----------------------------------------------------------------------===//
// One target
//===----------------------------------------------------------------------===//

/// One legal M of an MMA family and the N that go with it.
struct MmaMShape {
  int m;    ///< rows of one issue: per warp, warpgroup, or CTA (group)
  int ctas; ///< CTAs that issue it together (tcgen05 cta_group::2: 2)
  int nMin, nMax, nStep;
  /// The rows one CTA holds.
  int mPerCta() const { return m / ctas; }
};

/// The MMA instructions a target's tensor-core path issues.
struct MmaIsa {
  MmaFamily family;
  llvm::StringRef mnemonic; ///< for messages
  /// The Ms the family allows; the first is the one gemmc uses by default.
  llvm::ArrayRef<MmaMShape> shapes;
  bool fp8;                 ///< takes e4m3 / e5m2 operands
  AccumulatorLayout accumulator;

  const MmaMShape &defaultShape() const { return shapes.front(); }
  /// The shape issued by `ctas` CTAs together with M = `m`, or null.
  const MmaMShape *shape(int64_t m, int ctas) const;
  /// K of one instruction on operands of `type`.
  int k(ElementType type) const { return isa::kMmaKBytes / elementBytes(type); }
};

struct Isa {
  Arch arch;
  MmaIsa mma;
  /// The tile rows one consumer warpgroup's MMA covers (wgmma: its M); 0
  /// where MMAs are not issued per warpgroup.
  int warpgroupRows;
  bool hasTma;
  bool hasSetmaxnreg;
  bool hasTmem;

  /// Shared-memory bytes of a TMA stage ring's barriers.
  static int64_t stageBarrierBytes(int64_t stages) {
    return stages * isa::kStageBarrierBytes;
  }
  /// `regs` rounded down to what ptxas and setmaxnreg can give.
  static int64_t roundDownToAllocUnit(int64_t regs) {
    return regs / isa::kRegisterAllocUnit * isa::kRegisterAllocUnit;
  }
  /// Tensor-memory bytes per SM (0 without tensor memory).
  int64_t tmemBytes() const {
    return hasTmem ? int64_t(isa::kTmemLanes) * isa::kTmemColumns * isa::kTmemCellBytes
                   : 0;
  }
  /// fp32 accumulator columns tensor memory holds for a 128-row tile.
  int tmemColumns() const { return hasTmem ? isa::kTmemColumns : 0; }
};

/// The description of `arch`.
const Isa &isaFor(Arch arch);

} // namespace gemmc

#endif // GEMMC_TARGET_ISA_H
