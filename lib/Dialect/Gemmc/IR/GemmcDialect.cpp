//===- GemmcDialect.cpp - The gemmc dialect, its attribute and op --------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/Rules.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSet.h"
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

//===----------------------------------------------------------------------===//
// #gemmc.schedule: keys, order and spellings from Schema.def's GEMMC_ATTR rows
//===----------------------------------------------------------------------===//

namespace {
template <typename T> void printValue(AsmPrinter &printer, const T &v) {
  if constexpr (std::is_enum_v<T>)
    printer << '"' << EnumTraits<T>::name(v) << '"';
  else
    printer << v;
}
void printValue(AsmPrinter &printer, const std::string &v) {
  printer.printString(v);
}
void printValue(AsmPrinter &printer, bool v) {
  printer << (v ? "true" : "false");
}
template <size_t N>
void printValue(AsmPrinter &printer, const std::array<int64_t, N> &v) {
  printI64List(printer, v);
}

template <typename T>
ParseResult parseValue(AsmParser &parser, StringRef key, T &out) {
  if constexpr (std::is_enum_v<T>) {
    SMLoc loc = parser.getCurrentLocation();
    std::string word;
    if (parser.parseString(&word))
      return failure();
    if (std::optional<T> v = EnumTraits<T>::parse(word)) {
      out = *v;
      return success();
    }
    return parser.emitError(loc)
           << "unknown " << key << " '" << word << "' (" << key
           << " takes one of " << llvm::join(EnumTraits<T>::choices(), ", ")
           << ")";
  } else {
    SMLoc loc = parser.getCurrentLocation();
    OptionalParseResult parsed = parser.parseOptionalInteger(out);
    if (!parsed.has_value())
      return parser.emitError(loc) << key << " takes an integer";
    return *parsed;
  }
}
ParseResult parseValue(AsmParser &parser, StringRef key, std::string &out) {
  return parser.parseString(&out);
}
ParseResult parseValue(AsmParser &parser, StringRef key, bool &out) {
  SMLoc loc = parser.getCurrentLocation();
  for (bool v : {true, false})
    if (succeeded(parser.parseOptionalKeyword(v ? "true" : "false"))) {
      out = v;
      return success();
    }
  return parser.emitError(loc) << key << " takes true or false";
}
template <size_t N>
ParseResult parseValue(AsmParser &parser, StringRef key,
                       std::array<int64_t, N> &out) {
  SMLoc loc = parser.getCurrentLocation();
  FailureOr<SmallVector<int64_t>> values = parseI64List(parser);
  if (failed(values))
    return failure();
  if (values->size() != N)
    return parser.emitError(loc) << key << " has " << values->size()
                                 << " values; it takes " << N;
  llvm::copy(*values, out.begin());
  return success();
}

/// The keys in the order the attribute prints them.
constexpr llvm::StringLiteral kScheduleKeys[] = {
#define GEMMC_ATTR(KEY, PATH, PRESENCE) #KEY,
#include "gemmc/Spec/Schema.def"
};
/// The keys a schedule on IR must give (the others default as in a spec).
constexpr llvm::StringLiteral kRequiredScheduleKeys[] = {
#define GEMMC_ATTR(KEY, PATH, PRESENCE) GEMMC_SCHEMA_REQUIRED_##PRESENCE(KEY)
#define GEMMC_SCHEMA_REQUIRED_Required(KEY) #KEY,
#define GEMMC_SCHEMA_REQUIRED_Optional(KEY)
#include "gemmc/Spec/Schema.def"
};
} // namespace

Attribute ScheduleAttr::parse(AsmParser &parser, Type) {
  SMLoc start = parser.getCurrentLocation();
  KernelSpec spec;
  llvm::StringSet<> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc keyLoc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(keyLoc)
             << "#gemmc.schedule gives '" << key << "' twice";
#define GEMMC_ATTR(KEY, PATH, PRESENCE)                                                  \
  if (key == #KEY)                                                             \
    return parseValue(parser, key, spec.PATH);
#include "gemmc/Spec/Schema.def"
    return parser.emitError(keyLoc)
           << "unknown key '" << key << "' in #gemmc.schedule (expected one of "
           << llvm::join(ArrayRef<llvm::StringLiteral>(kScheduleKeys), ", ")
           << ")";
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseEntry))
    return {};
  for (StringRef key : kRequiredScheduleKeys)
    if (!seen.contains(key)) {
      parser.emitError(start)
          << "#gemmc.schedule is missing '" << key << "'; it must give "
          << llvm::join(ArrayRef<llvm::StringLiteral>(kRequiredScheduleKeys),
                        ", ");
      return {};
    }
  return getChecked([&] { return parser.emitError(start); },
                    parser.getContext(), ::gemmc::Schedule(spec));
}

void ScheduleAttr::print(AsmPrinter &printer) const {
  const KernelSpec &s = getSpec();
  StringRef separator = "";
  printer << '<';
#define GEMMC_ATTR(KEY, PATH, PRESENCE)                                                  \
  printer << separator << #KEY " = ";                                          \
  printValue(printer, s.PATH);                                                 \
  separator = ", ";
#include "gemmc/Spec/Schema.def"
  printer << '>';
}

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ::gemmc::Schedule schedule) {
  for (const std::string &error : schedule.errors())
    emitError() << error;
  return success(schedule.valid());
}

ScheduleAttr mlir::gemmc::scheduleFromSpec(MLIRContext *ctx,
                                           const KernelSpec &s) {
  return ScheduleAttr::get(ctx, ::gemmc::Schedule(s));
}

FailureOr<KernelSpec>
mlir::gemmc::specFromSchedule(ScheduleAttr a,
                              function_ref<InFlightDiagnostic()> emitError) {
  if (!a.getResolved().valid()) {
    for (const std::string &error : a.getResolved().errors())
      emitError() << error;
    return failure();
  }
  return a.getSpec();
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

