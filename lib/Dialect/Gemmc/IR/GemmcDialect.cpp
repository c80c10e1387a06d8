//===- GemmcDialect.cpp - The gemmc dialect, its attribute and op --------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/Rules.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gemmc;

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.cpp.inc"

void GemmcDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gemmc/Dialect/Gemmc/IR/GemmcAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "gemmc/Dialect/Gemmc/IR/GemmcOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Parameter syntax
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<int64_t>> mlir::gemmc::parseI64List(AsmParser &parser) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        int64_t v;
        if (parser.parseInteger(v))
          return failure();
        values.push_back(v);
        return success();
      }))
    return failure();
  return values;
}

void mlir::gemmc::printI64List(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

FailureOr<bool> mlir::gemmc::parseBoolKeyword(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(), "expected true or false");
}

//===----------------------------------------------------------------------===//
// #gemmc.schedule
//===----------------------------------------------------------------------===//

namespace {
/// The attribute's parameters, by name, for one conversion to a KernelSpec.
struct ScheduleParams {
  StringRef arch, device, a, aLayout, b, bLayout, c, accumulator;
  ArrayRef<int64_t> tileShape, clusterShape;
  int64_t stages, threads;
  StringRef load;
  bool multicast;
  StringRef swizzle, kernelSchedule, tileScheduler, raster;
  int64_t group, splitK;
  StringRef store;
  bool alpha, beta;
  StringRef bias, activation;
};
} // namespace

template <typename T>
static LogicalResult readEnum(StringRef what, StringRef value,
                              std::optional<T> (*parse)(StringRef), T &out,
                              function_ref<InFlightDiagnostic()> emitError) {
  if (auto v = parse(value)) {
    out = *v;
    return success();
  }
  return emitError() << "unknown " << what << " '" << value << "'";
}

static FailureOr<KernelSpec>
specFromParams(const ScheduleParams &p,
               function_ref<InFlightDiagnostic()> emitError) {
  KernelSpec s;
  s.schemaVersion = kSchemaVersion;
  s.name = "kernel";
  s.device = p.device.str();
  if (failed(readEnum("arch", p.arch, parseArch, s.arch, emitError)) ||
      failed(readEnum("element type", p.a, parseElementType, s.a.element, emitError)) ||
      failed(readEnum("layout", p.aLayout, parseLayout, s.a.layout, emitError)) ||
      failed(readEnum("element type", p.b, parseElementType, s.b.element, emitError)) ||
      failed(readEnum("layout", p.bLayout, parseLayout, s.b.layout, emitError)) ||
      failed(readEnum("element type", p.c, parseElementType, s.c.element, emitError)) ||
      failed(readEnum("element type", p.accumulator, parseElementType,
                      s.accumulator, emitError)) ||
      failed(readEnum("load", p.load, parseLoadKind, s.mainloop.load, emitError)) ||
      failed(readEnum("smem_swizzle", p.swizzle, parseSwizzle, s.mainloop.swizzle,
                      emitError)) ||
      failed(readEnum("kernel_schedule", p.kernelSchedule, parseKernelSchedule,
                      s.kernelSchedule, emitError)) ||
      failed(readEnum("tile_scheduler", p.tileScheduler, parseTileSchedulerKind,
                      s.tileScheduler.kind, emitError)) ||
      failed(readEnum("raster", p.raster, parseRaster, s.tileScheduler.raster,
                      emitError)) ||
      failed(readEnum("store", p.store, parseStoreKind, s.epilogue.store, emitError)) ||
      failed(readEnum("bias", p.bias, parseBias, s.epilogue.bias, emitError)) ||
      failed(readEnum("activation", p.activation, parseActivation,
                      s.epilogue.activation, emitError)))
    return failure();
  if (p.tileShape.size() != 3)
    return emitError() << "tile_shape has " << p.tileShape.size()
                       << " values; it takes 3";
  if (p.clusterShape.size() != 2)
    return emitError() << "cluster_shape has " << p.clusterShape.size()
                       << " values; it takes 2";
  llvm::copy(p.tileShape, s.tileShape.begin());
  llvm::copy(p.clusterShape, s.clusterShape.begin());
  s.mainloop.stages = p.stages;
  s.mainloop.multicast = p.multicast;
  s.threads = p.threads;
  s.tileScheduler.group = p.group;
  s.tileScheduler.splitK = p.splitK;
  s.epilogue.alpha = p.alpha;
  s.epilogue.beta = p.beta;
  // A schedule on IR is resolved: nothing is left for gemmc to choose.
  if (s.mainloop.stages < 1 || s.threads < 1 ||
      s.mainloop.load == LoadKind::Auto || s.mainloop.swizzle == Swizzle::Auto ||
      s.epilogue.store == StoreKind::Auto)
    return emitError() << "a schedule on IR has every value resolved: stages "
                          "and threads >= 1, load, smem_swizzle and store not "
                          "auto";
  return s;
}

LogicalResult ScheduleAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringRef arch,
    StringRef device, StringRef a, StringRef aLayout, StringRef b,
    StringRef bLayout, StringRef c, StringRef accumulator,
    ArrayRef<int64_t> tileShape, ArrayRef<int64_t> clusterShape, int64_t stages,
    int64_t threads, StringRef load, bool multicast, StringRef swizzle,
    StringRef kernelSchedule, StringRef tileScheduler, StringRef raster,
    int64_t group, int64_t splitK, StringRef store, bool alpha, bool beta,
    StringRef bias, StringRef activation) {
  ScheduleParams p{arch,      device,       a,      aLayout,        b,
                   bLayout,   c,            accumulator, tileShape,  clusterShape,
                   stages,    threads,      load,   multicast,      swizzle,
                   kernelSchedule, tileScheduler, raster, group,     splitK,
                   store,     alpha,        beta,   bias,           activation};
  FailureOr<KernelSpec> spec = specFromParams(p, emitError);
  if (failed(spec))
    return failure();
  std::vector<Violation> violations = checkSpec(*spec);
  for (const Violation &v : violations)
    emitError() << v.str();
  return success(violations.empty());
}

ScheduleAttr mlir::gemmc::scheduleFromSpec(MLIRContext *ctx,
                                           const KernelSpec &s) {
  return ScheduleAttr::get(
      ctx, archName(s.arch), s.deviceInfo().name, elementTypeName(s.a.element),
      layoutName(s.a.layout), elementTypeName(s.b.element),
      layoutName(s.b.layout), elementTypeName(s.c.element),
      elementTypeName(s.accumulator), s.tileShape, s.clusterShape,
      s.mainloop.stages, s.threads, loadKindName(s.mainloop.load),
      s.mainloop.multicast, swizzleName(s.mainloop.swizzle),
      kernelScheduleName(s.kernelSchedule),
      tileSchedulerKindName(s.tileScheduler.kind),
      rasterName(s.tileScheduler.raster), s.tileScheduler.group,
      s.tileScheduler.splitK, storeKindName(s.epilogue.store), s.epilogue.alpha,
      s.epilogue.beta, biasName(s.epilogue.bias),
      activationName(s.epilogue.activation));
}

FailureOr<KernelSpec>
mlir::gemmc::specFromSchedule(ScheduleAttr a,
                              function_ref<InFlightDiagnostic()> emitError) {
  ScheduleParams p{a.getArch(),          a.getDevice(),     a.getA(),
                   a.getALayout(),       a.getB(),          a.getBLayout(),
                   a.getC(),             a.getAccumulator(), a.getTileShape(),
                   a.getClusterShape(),  a.getStages(),     a.getThreads(),
                   a.getLoad(),          a.getMulticast(),  a.getSmemSwizzle(),
                   a.getKernelSchedule(), a.getTileScheduler(), a.getRaster(),
                   a.getGroup(),         a.getSplitK(),     a.getStore(),
                   a.getAlpha(),         a.getBeta(),       a.getBias(),
                   a.getActivation()};
  return specFromParams(p, emitError);
}

Type mlir::gemmc::storageType(MLIRContext *ctx, ElementType type) {
  Builder b(ctx);
  switch (type) {
  case ElementType::F32:
  case ElementType::TF32:
    return b.getF32Type();
  case ElementType::F16:
    return b.getF16Type();
  case ElementType::BF16:
    return b.getBF16Type();
  case ElementType::E4M3:
    return b.getType<Float8E4M3FNType>();
  case ElementType::E5M2:
    return b.getType<Float8E5M2Type>();
  }
  llvm_unreachable("unknown element type");
}

#define GET_ATTRDEF_CLASSES
#include "gemmc/Dialect/Gemmc/IR/GemmcAttrs.cpp.inc"

