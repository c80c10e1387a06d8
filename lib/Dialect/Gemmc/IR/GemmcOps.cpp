//===- GemmcOps.cpp - Verifiers of the gemmc ops -------------------------===//
//
// The ops' own checks: operand shapes and types against their schedule, and
// the operands a schedule makes present or absent. The schedule's hardware
// rules are the attribute's (GemmcDialect.cpp).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Dialect/Gemmc/IR/SmemLayout.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Target/Isa.h"

using namespace mlir;
using namespace mlir::gemmc;

//===----------------------------------------------------------------------===//
// gemmc.matmul
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  // A copy: the problem sizes the operands fix are added below.
  KernelSpec resolved = getSchedule().getSpec();
  KernelSpec *spec = &resolved;
  MLIRContext *ctx = getContext();
  struct Operand {
    const char *name;
    MemRefType type;
    ElementType element;
    // Which problem dims the memref's two dims are.
    char dims[2];
  };
  bool aRow = spec->a.layout == Layout::Row, bCol = spec->b.layout == Layout::Col;
  Operand operands[] = {
      {"A", getA().getType(), spec->a.element, {aRow ? 'm' : 'k', aRow ? 'k' : 'm'}},
      {"B", getB().getType(), spec->b.element, {bCol ? 'n' : 'k', bCol ? 'k' : 'n'}},
      {"C", getC().getType(), spec->c.element, {'m', 'n'}},
  };
  llvm::SmallDenseMap<char, std::pair<int64_t, const char *>> sizes;
  for (const Operand &op : operands) {
    if (op.type.getRank() != 2)
      return emitOpError() << op.name << " must be a 2-d memref, got "
                           << op.type;
    Type want = storageType(ctx, op.element);
    if (op.type.getElementType() != want)
      return emitOpError() << op.name << " holds " << op.type.getElementType()
                           << " but the schedule says "
                           << elementTypeName(op.element) << " (stored as "
                           << want << ")";
    for (int i = 0; i < 2; ++i) {
      int64_t size = op.type.getDimSize(i);
      if (ShapedType::isDynamic(size))
        continue;
      auto [it, inserted] = sizes.try_emplace(op.dims[i], size, op.name);
      if (!inserted && it->second.first != size)
        return emitOpError() << "problem size " << op.dims[i] << " is "
                             << it->second.first << " in " << it->second.second
                             << " but " << size << " in " << op.name;
    }
  }
  if (spec->epilogue.alpha != static_cast<bool>(getAlpha()))
    return emitOpError() << "the schedule says alpha = "
                         << (spec->epilogue.alpha ? "true" : "false")
                         << "; the alpha operand must be "
                         << (spec->epilogue.alpha ? "present" : "absent");
  if (spec->epilogue.beta != static_cast<bool>(getBeta()))
    return emitOpError() << "the schedule says beta = "
                         << (spec->epilogue.beta ? "true" : "false")
                         << "; the beta operand must be "
                         << (spec->epilogue.beta ? "present" : "absent");
  // Static sizes bring in the rules that depend on them (stride alignment).
  for (auto [dim, field] : {std::pair{'m', &spec->m}, std::pair{'n', &spec->n},
                            std::pair{'k', &spec->k}})
    if (auto it = sizes.find(dim); it != sizes.end())
      field->value = it->second.first;
  std::vector<Violation> violations = checkSpec(*spec);
  for (const Violation &v : violations)
    emitOpError() << v.str();
  return success(violations.empty());
}

//===----------------------------------------------------------------------===//
// gemmc.epilogue
//===----------------------------------------------------------------------===//

LogicalResult EpilogueOp::verify() {
  const KernelSpec *spec = &getSchedule().getSpec();
  bool tma = spec->epilogue.store == StoreKind::Tma;
  if (tma != static_cast<bool>(getTmapC()))
    return emitOpError() << "the schedule says store = "
                         << storeKindName(spec->epilogue.store)
                         << "; tma(%tmap_c, %buffer) must be "
                         << (tma ? "present" : "absent");
  if (getStaging() && (tma || isaFor(spec->arch).mma.family != MmaFamily::MmaSync))
    return emitOpError() << "has staging(...), which only an mma.sync target's "
                            "register-fragment epilogue takes (sm_80, store = direct); "
                            "the schedule is "
                         << archName(spec->arch) << " with store = "
                         << storeKindName(spec->epilogue.store) << "; drop staging(...)";
  return success();
}

//===----------------------------------------------------------------------===//
// gemmc.stage_fill
//===----------------------------------------------------------------------===//

LogicalResult StageFillOp::verify() {
  if (getWeightsOnly() && getActivationsOnly())
    return emitOpError("is weights_only or activations_only, not both (the "
                       "two parts of a fill are two ops)");
  return success();
}

//===----------------------------------------------------------------------===//
// gemmc.tile_loop
//===----------------------------------------------------------------------===//

LogicalResult TileLoopOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != 6 ||
      !llvm::all_of(body.getArgumentTypes(),
                    [](Type t) { return t.isInteger(32); }))
    return emitOpError("body takes (m0, n0, tile, k_begin, k_end, load) as "
                       "six i32 arguments");
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 || !yield.getValues()[0].getType().isInteger(32))
    return emitOpError("body yields the next load number, one i32");
  if (static_cast<bool>(getSplitFirst()) !=
      (getSchedule().getSpec().tileScheduler.kind == TileSchedulerKind::StreamK))
    return emitOpError("takes split(%first, %iterations) exactly when the "
                       "schedule's tile scheduler is stream_k");
  return success();
}

//===----------------------------------------------------------------------===//
// #gemmc.smem_layout and gemmc.tile_matmul
//===----------------------------------------------------------------------===//

/// More shared memory than any CTA of any target has (sm_100a: 227 KiB).
static constexpr int64_t kMaxSharedBytes = 256 * 1024;

LogicalResult SmemLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                     int64_t stages, int64_t stageBytes,
                                     int64_t bOffset, int64_t barriers,
                                     int64_t align, int64_t swizzle,
                                     int64_t epilogue) {
  if (stages < 1 || stages > kMaxStages)
    return emitError() << "[smem-layout] stages = " << stages
                       << " is outside 1.." << kMaxStages;
  // 0: a ring of barriers alone (sm_100a's accumulator buffers live in
  // tensor memory).
  if (stageBytes < 0 || stageBytes > kMaxSharedBytes)
    return emitError() << "[smem-layout] stage_bytes = " << stageBytes
                       << " is outside 0.." << kMaxSharedBytes;
  if (align < 16 || align > kMaxSharedBytes || !llvm::isPowerOf2_64(align))
    return emitError() << "[smem-layout] align = " << align
                       << " is not a power of two from 16 to " << kMaxSharedBytes;
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "[smem-layout] swizzle = " << swizzle
                       << " is not 0, 32, 64 or 128 (bytes of the pattern's row)";
  if (bOffset < 0 || (stageBytes ? bOffset >= stageBytes : bOffset != 0) ||
      bOffset % 16 != 0)
    return emitError() << "[smem-layout] b_offset = " << bOffset
                       << " must be a multiple of 16 inside the stage's "
                       << stageBytes << " bytes";
  int64_t ring = stages * stageBytes;
  if (ring > kMaxSharedBytes)
    return emitError() << "[smem-layout] " << stages << " stages x "
                       << stageBytes << " bytes = " << ring
                       << " exceed any CTA's shared memory (" << kMaxSharedBytes
                       << ")";
  if (epilogue != 0 && (epilogue < ring || epilogue > barriers))
    return emitError() << "[smem-layout] epilogue = " << epilogue
                       << " must lie between the stages' end (" << ring
                       << ") and the barriers (" << barriers << ")";
  int64_t barrierEnd = barriers + ::gemmc::isa::kMbarriersPerStage *
                                      ::gemmc::isa::kMbarrierBytes * stages;
  if (barriers < ring || barriers % ::gemmc::isa::kMbarrierBytes != 0 ||
      barrierEnd > kMaxSharedBytes)
    return emitError() << "[smem-layout] barriers = " << barriers
                       << " must be 8-byte aligned, after the stages (" << ring
                       << ") and end within " << kMaxSharedBytes << " bytes";
  return success();
}

SmemLayoutAttr mlir::gemmc::smemLayoutFor(ScheduleAttr schedule) {
  MLIRContext *ctx = schedule.getContext();
  const KernelSpec &spec = schedule.getSpec();
  const CtaResources &res = schedule.getResources();
  return SmemLayoutAttr::get(
      ctx, res.stages, res.stageBytes(),
      /*b_offset=*/res.aStageBytes,
      // stage_scales: the slots of block scales lie between the epilogue's
      // buffers and the barriers (Ring::scaleSlot).
      /*barriers=*/res.stages * res.stageBytes() + res.epilogueBytes + res.scaleBytes,
      /*align=*/spec.mainloop.load == LoadKind::Tma ? kSwizzleAtomAlignBytes
                                                     : ::gemmc::isa::kCpAsyncBytes,
      /*swizzle=*/swizzleSpanBytes(spec.mainloop.swizzle),
      /*epilogue=*/res.epilogueBytes ? res.stages * res.stageBytes() : 0);
}

LogicalResult TileMatmulOp::verify() {
  SmemLayoutAttr layout = getSmemLayoutAttr();
  if (static_cast<bool>(layout) != static_cast<bool>(getSmem()))
    return emitOpError("takes smem(%base) and smem_layout together");
  if (!layout)
    return success();
  SmemLayoutAttr expected = smemLayoutFor(getSchedule());
  if (layout != expected)
    return emitOpError() << "[smem-layout] the schedule places its shared "
                            "memory as "
                         << expected << ", not " << layout
                         << "; let gemmc-smem-layout write it";
  return success();
}

#define GET_OP_CLASSES
#include "gemmc/Dialect/Gemmc/IR/GemmcOps.cpp.inc"
