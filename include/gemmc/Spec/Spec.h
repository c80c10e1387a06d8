//===- Spec.h - The schedule a user writes, as plain structs -------------===//
//
// A KernelSpec is what a spec.yaml says, with every `auto` still visible.
// resolveAuto() fills the automatic choices from the hardware database, and
// the rules in Rules.h check the result. Nothing here depends on MLIR.
//
// The enums and the structs' members are expanded from Schema.def, the one
// place the schema is written; docs/spec.md describes each field.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_SPEC_H
#define GEMMC_SPEC_SPEC_H

#include "gemmc/Target/Target.h"
#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <string>

namespace gemmc {

constexpr int kSchemaVersion = 1;

using I64x2 = std::array<int64_t, 2>;
using I64x3 = std::array<int64_t, 3>;

#define GEMMC_ENUM(TYPE, LOWER) enum class TYPE {
#define GEMMC_ENUM_VALUE(TYPE, ENUMERATOR, SPELLING) ENUMERATOR,
// clang-format off
#define GEMMC_ENUM_END(TYPE) };
// clang-format on
#include "gemmc/Spec/Schema.def"

/// A problem dimension: a compile-time integer or a run-time value.
struct Dim {
  static constexpr int64_t kDynamic = -1;
  int64_t value = kDynamic;
  bool isDynamic() const { return value == kDynamic; }
  bool operator==(const Dim &o) const { return value == o.value; }
};

// A row of Schema.def as a struct member; a Group row (a YAML grouping of
// members of the enclosing struct) has none.
#define GEMMC_SCHEMA_MEMBER_Value(TYPE, MEMBER, DEFAULT) TYPE MEMBER{DEFAULT};
#define GEMMC_SCHEMA_MEMBER_Int GEMMC_SCHEMA_MEMBER_Value
#define GEMMC_SCHEMA_MEMBER_AutoInt GEMMC_SCHEMA_MEMBER_Value
#define GEMMC_SCHEMA_MEMBER_List GEMMC_SCHEMA_MEMBER_Value
#define GEMMC_SCHEMA_MEMBER_Group(TYPE, MEMBER, DEFAULT)
#define GEMMC_SCHEMA_MEMBER(KEY, MEMBER, TYPE, DEFAULT, PRESENCE, READ)        \
  GEMMC_SCHEMA_MEMBER_##READ(TYPE, MEMBER, DEFAULT)

struct OperandSpec {
#define GEMMC_OPERAND GEMMC_SCHEMA_MEMBER
#include "gemmc/Spec/Schema.def"
};

/// stages 0 = auto.
struct MainloopSpec {
#define GEMMC_MAINLOOP GEMMC_SCHEMA_MEMBER
#include "gemmc/Spec/Schema.def"
};

struct TileSchedulerSpec {
#define GEMMC_TILE_SCHEDULER GEMMC_SCHEMA_MEMBER
#include "gemmc/Spec/Schema.def"
};

struct EpilogueSpec {
#define GEMMC_EPILOGUE GEMMC_SCHEMA_MEMBER
#include "gemmc/Spec/Schema.def"
};

struct KernelSpec {
#define GEMMC_TOP GEMMC_SCHEMA_MEMBER
#define GEMMC_OPERANDS GEMMC_SCHEMA_MEMBER
#define GEMMC_PROBLEM GEMMC_SCHEMA_MEMBER
#include "gemmc/Spec/Schema.def"

  int64_t blockM() const { return tileShape[0]; }
  int64_t blockN() const { return tileShape[1]; }
  int64_t blockK() const { return tileShape[2]; }
  int64_t clusterSize() const { return clusterShape[0] * clusterShape[1]; }
  /// Block scaling (DeepSeek-V3's; docs/abi.md): A scaled per row per
  /// kScaleBlock of K, B per kScaleBlock x kScaleBlock block.
  bool blockScaled() const {
    return a.scale == Scale::Block && b.scale == Scale::Block;
  }
  const DeviceInfo &deviceInfo() const;
};

/// The edge of a block scale: A's are 1 x kScaleBlock, B's kScaleBlock x
/// kScaleBlock (cuBLASLt's VEC128_32F and BLK128x128_32F).
constexpr int64_t kScaleBlock = 128;
/// B's block scales are stored K-major with the K-block count rounded up to
/// a multiple of this (cuBLASLt's BLK128x128_32F column stride).
constexpr int64_t kScaleBlockKAlign = 4;
/// Columns of a block-scaled tile that share one B scale (a "slot"): a tile
/// starts at a multiple of BLOCK_N, so at a multiple of gcd(BLOCK_N,
/// kScaleBlock) into a scale block, and that many columns from there lie in
/// one block. Whole blocks: kScaleBlock; a divisor of the block: the tile;
/// BLOCK_N = 192: 64, three slots over two blocks.
inline int64_t scaleSlotColumns(const KernelSpec &s) {
  return std::gcd(s.blockN(), kScaleBlock);
}
inline int64_t scaleSlots(const KernelSpec &s) {
  return s.blockN() / scaleSlotColumns(s);
}
/// mainloop.stage_scales: the bytes of one stage's slot of block scales,
/// A's BLOCK_M row scales then B's scaleSlots, f32, in 16-byte units; 0
/// without stage_scales. The slots lie after the epilogue's buffers, one a
/// stage, and the slot of load g is stage g % stages's.
inline int64_t scaleSlotBytes(const KernelSpec &s) {
  if (!s.mainloop.stageScales)
    return 0;
  int64_t bytes = (s.blockM() + scaleSlots(s)) * 4;
  return (bytes + 15) / 16 * 16;
}
/// The MMA row blocks (the MMA instruction's M rows each, 64 for wgmma) one
/// consumer warpgroup's accumulator holds, in block order: a pingpong
/// warpgroup computes a whole tile (BLOCK_M / 64: 1 or 2, the limit
/// sm90aUnsupported sets); every other schedule gives a warpgroup one block.
/// The mainloop's MMA and the pingpong epilogue walk the same blocks.
inline int64_t warpgroupRowBlocks(const KernelSpec &s) {
  if (s.kernelSchedule != KernelSchedule::WarpSpecializedPingpong)
    return 1;
  std::optional<MmaInstrShape> instr = mmaInstrShape(s.arch, s.a.element);
  return instr ? s.blockM() / instr->m : 1;
}
/// mainloop.fold_columns: the parts a consumer warpgroup issues between two
/// waits for all of its MMAs (a loop iteration of whole K tiles, at least
/// this many parts). ptxas cannot follow a wgmma group across a loop
/// back-edge (an accumulator read after wait_group 1 in the next iteration
/// makes it serialize every wgmma of the kernel, C7514), so each iteration
/// starts with nothing in flight and folds its last part after
/// wait_group 0. Longer iterations expose that fold more rarely but keep
/// more registers live (ptxas spills at 232 with four parts of 128x192,
/// not of 128x128): mainloop.fold_group chooses, this is its auto.
constexpr int64_t kFoldGroupParts = 2;
/// mainloop.unroll's bound: DeepGEMM unrolls its block-scaled loop 8x
/// (session 42); more only grows the code.
constexpr int64_t kMaxUnroll = 8;
/// fold_group: 1, one part at a time: each part is waited for
/// (wait_group 0) and folded before the next is issued, so only one part's
/// accumulator is live beside the f32 sum (128x256 in halves: 128 + 64
/// registers, where two parts need 128 + 2 x 64). With the two consumer
/// warpgroups of the cooperative schedule, which share each stage, they
/// take turns issuing their parts (foldTurns), so that one folds while the
/// other's wgmmas run. warp_specialized's warpgroups (one a 64-row block)
/// take no turns: three of them on 192x128 each fold under the other two's
/// K tiles, and turns in warpgroup order there measured 0.965x
/// (bench/RESULTS.md, session 16, lead rounds l1-l2).
inline bool foldOnePart(const KernelSpec &s) {
  return s.blockScaled() && s.mainloop.foldColumns > 0 && s.mainloop.foldGroup == 1;
}
inline bool foldTurns(const KernelSpec &s) {
  return foldOnePart(s) && s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative;
}
inline int64_t foldGroupTiles(const KernelSpec &s) {
  int64_t parts = s.blockN() / s.mainloop.foldColumns;
  int64_t group = s.mainloop.foldGroup > 0 ? s.mainloop.foldGroup : kFoldGroupParts;
  return std::max<int64_t>(1, group / parts);
}
#undef GEMMC_SCHEMA_MEMBER_Value
#undef GEMMC_SCHEMA_MEMBER_Int
#undef GEMMC_SCHEMA_MEMBER_AutoInt
#undef GEMMC_SCHEMA_MEMBER_List
#undef GEMMC_SCHEMA_MEMBER_Group
#undef GEMMC_SCHEMA_MEMBER

/// The spellings of an enum of the spec language, shared by the YAML mapping,
/// the IR attribute and the messages: EnumTraits<T>::name(v), parse(s),
/// values() (in declaration order) and choices() (their spellings, in the
/// same order, for did-you-mean and "expected one of" messages).
template <typename T> struct EnumTraits;

#define GEMMC_SCHEMA_ENUM_DECLS(TYPE, LOWER)                                   \
  llvm::StringRef LOWER##Name(TYPE v);                                         \
  std::optional<TYPE> parse##TYPE(llvm::StringRef s);
#define GEMMC_SCHEMA_ENUM_TRAITS(TYPE, LOWER)                                  \
  template <> struct EnumTraits<TYPE> {                                        \
    static llvm::StringRef name(TYPE v) { return LOWER##Name(v); }             \
    static std::optional<TYPE> parse(llvm::StringRef s) {                      \
      return parse##TYPE(s);                                                   \
    }                                                                          \
    static llvm::ArrayRef<TYPE> values();                                      \
    static llvm::ArrayRef<llvm::StringRef> choices();                          \
  };
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  GEMMC_SCHEMA_ENUM_DECLS(TYPE, LOWER) GEMMC_SCHEMA_ENUM_TRAITS(TYPE, LOWER)
#define GEMMC_EXTERNAL_ENUM GEMMC_SCHEMA_ENUM_TRAITS
#include "gemmc/Spec/Schema.def"
#undef GEMMC_SCHEMA_ENUM_DECLS
#undef GEMMC_SCHEMA_ENUM_TRAITS

/// Bytes of the swizzle pattern's row (0 for none).
int swizzleSpanBytes(Swizzle v);

} // namespace gemmc

#endif // GEMMC_SPEC_SPEC_H
