//===- GemmcOps.cpp - Verifiers of the gemmc ops -------------------------===//
//
// The ops' own checks: operand shapes and types against their schedule, and
// the operands a schedule makes present or absent. The schedule's hardware
// rules are the attribute's (GemmcDialect.cpp).
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/Rules.h"

using namespace mlir;
using namespace mlir::gemmc;

//===----------------------------------------------------------------------===//
// gemmc.matmul
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  auto emit = [&]() { return emitOpError(); };
  FailureOr<KernelSpec> spec = specFromSchedule(getSchedule(), emit);
  if (failed(spec))
    return failure();
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
  FailureOr<KernelSpec> spec =
      specFromSchedule(getSchedule(), [&]() { return emitOpError(); });
  if (failed(spec))
    return failure();
  bool tma = spec->epilogue.store == StoreKind::Tma;
  if (tma != static_cast<bool>(getTmapC()))
    return emitOpError() << "the schedule says store = "
                         << storeKindName(spec->epilogue.store)
                         << "; tma(%tmap_c, %buffer) must be "
                         << (tma ? "present" : "absent");
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
      (specFromSchedule(getSchedule(), [&] { return emitOpError(); })
           ->tileScheduler.kind == TileSchedulerKind::StreamK))
    return emitOpError("takes split(%first, %iterations) exactly when the "
                       "schedule's tile scheduler is stream_k");
  return success();
}

#define GET_OP_CLASSES
#include "gemmc/Dialect/Gemmc/IR/GemmcOps.cpp.inc"
