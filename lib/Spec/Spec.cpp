//===- Spec.cpp - Spellings of the spec language's enums ----------------===//
//
// Expanded from Schema.def: each enum's name switch, its parser and its
// lists of values and spellings.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Spec/Spec.h"
#include "llvm/ADT/StringSwitch.h"
#include <vector>

using namespace gemmc;
using llvm::StringRef;

const DeviceInfo &KernelSpec::deviceInfo() const {
  if (!device.empty())
    if (const DeviceInfo *d = lookupDevice(device))
      return *d;
  return defaultDevice(arch);
}

// name(): a switch over the enumerators.
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  StringRef gemmc::LOWER##Name(TYPE v) {                                       \
    switch (v) {
#define GEMMC_ENUM_VALUE(TYPE, ENUMERATOR, SPELLING)                           \
  case TYPE::ENUMERATOR:                                                       \
    return SPELLING;
#define GEMMC_ENUM_END(TYPE)                                                   \
  }                                                                            \
  llvm_unreachable("unknown " #TYPE);                                          \
  }
#include "gemmc/Spec/Schema.def"

// parse(): a StringSwitch over the spellings.
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  std::optional<TYPE> gemmc::parse##TYPE(StringRef s) {                        \
    return llvm::StringSwitch<std::optional<TYPE>>(s)
#define GEMMC_ENUM_VALUE(TYPE, ENUMERATOR, SPELLING)                           \
  .Case(SPELLING, TYPE::ENUMERATOR)
#define GEMMC_ENUM_END(TYPE)                                                   \
  .Default(std::nullopt);                                                      \
  }
#include "gemmc/Spec/Schema.def"

// values(): the enumerators in order; an external enum's too.
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  llvm::ArrayRef<TYPE> gemmc::EnumTraits<TYPE>::values() {                     \
    static const TYPE all[] = {
#define GEMMC_EXTERNAL_ENUM GEMMC_ENUM
#define GEMMC_ENUM_VALUE(TYPE, ENUMERATOR, SPELLING) TYPE::ENUMERATOR,
#define GEMMC_EXTERNAL_VALUE(TYPE, ENUMERATOR) TYPE::ENUMERATOR,
#define GEMMC_ENUM_END(TYPE)                                                   \
  }                                                                            \
  ;                                                                            \
  return all;                                                                  \
  }
#define GEMMC_EXTERNAL_END GEMMC_ENUM_END
#include "gemmc/Spec/Schema.def"

// choices(): the values' spellings, from name() (an external enum is spelt
// by its own functions).
#define GEMMC_ENUM(TYPE, LOWER)                                                \
  llvm::ArrayRef<StringRef> gemmc::EnumTraits<TYPE>::choices() {               \
    static const std::vector<StringRef> spellings = [] {                       \
      std::vector<StringRef> out;                                              \
      for (TYPE v : values())                                                  \
        out.push_back(name(v));                                                \
      return out;                                                              \
    }();                                                                       \
    return spellings;                                                          \
  }
#define GEMMC_EXTERNAL_ENUM GEMMC_ENUM
#include "gemmc/Spec/Schema.def"

int gemmc::swizzleSpanBytes(Swizzle v) {
  switch (v) {
  case Swizzle::B32:
    return 32;
  case Swizzle::B64:
    return 64;
  case Swizzle::B128:
    return 128;
  case Swizzle::Auto:
  case Swizzle::None:
    return 0;
  }
  llvm_unreachable("unknown swizzle");
}
