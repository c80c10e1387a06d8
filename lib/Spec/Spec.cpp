//===- Spec.cpp - Spellings of the spec language's enums ----------------===//
#include "gemmc/Spec/Spec.h"
#include "llvm/ADT/StringSwitch.h"

using namespace gemmc;
using llvm::StringRef;
using llvm::StringSwitch;

const DeviceInfo &KernelSpec::deviceInfo() const {
  if (!device.empty())
    if (const DeviceInfo *d = lookupDevice(device))
      return *d;
  return defaultDevice(arch);
}

StringRef gemmc::layoutName(Layout v) { return v == Layout::Row ? "row" : "col"; }

StringRef gemmc::kernelScheduleName(KernelSchedule v) {
  switch (v) {
  case KernelSchedule::Multistage:
    return "multistage";
  case KernelSchedule::WarpSpecialized:
    return "warp_specialized";
  case KernelSchedule::WarpSpecializedCooperative:
    return "warp_specialized_cooperative";
  case KernelSchedule::WarpSpecializedPingpong:
    return "warp_specialized_pingpong";
  }
  llvm_unreachable("unknown kernel schedule");
}

StringRef gemmc::tileSchedulerKindName(TileSchedulerKind v) {
  switch (v) {
  case TileSchedulerKind::DataParallel:
    return "data_parallel";
  case TileSchedulerKind::Persistent:
    return "persistent";
  case TileSchedulerKind::StreamK:
    return "stream_k";
  }
  llvm_unreachable("unknown tile scheduler");
}

StringRef gemmc::rasterName(Raster v) {
  return v == Raster::AlongM ? "along_m" : "along_n";
}

StringRef gemmc::swizzleName(Swizzle v) {
  switch (v) {
  case Swizzle::Auto:
    return "auto";
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32b";
  case Swizzle::B64:
    return "64b";
  case Swizzle::B128:
    return "128b";
  }
  llvm_unreachable("unknown swizzle");
}

StringRef gemmc::loadKindName(LoadKind v) {
  switch (v) {
  case LoadKind::Auto:
    return "auto";
  case LoadKind::Tma:
    return "tma";
  case LoadKind::CpAsync:
    return "cp_async";
  }
  llvm_unreachable("unknown load kind");
}

StringRef gemmc::storeKindName(StoreKind v) {
  switch (v) {
  case StoreKind::Auto:
    return "auto";
  case StoreKind::Tma:
    return "tma";
  case StoreKind::Direct:
    return "direct";
  }
  llvm_unreachable("unknown store kind");
}

StringRef gemmc::activationName(Activation v) {
  switch (v) {
  case Activation::None:
    return "none";
  case Activation::Relu:
    return "relu";
  case Activation::Gelu:
    return "gelu";
  case Activation::Silu:
    return "silu";
  }
  llvm_unreachable("unknown activation");
}

StringRef gemmc::biasName(Bias v) {
  switch (v) {
  case Bias::None:
    return "none";
  case Bias::Row:
    return "row";
  case Bias::Col:
    return "col";
  }
  llvm_unreachable("unknown bias");
}

std::optional<Layout> gemmc::parseLayout(StringRef s) {
  return StringSwitch<std::optional<Layout>>(s)
      .Case("row", Layout::Row)
      .Case("col", Layout::Col)
      .Default(std::nullopt);
}

std::optional<KernelSchedule> gemmc::parseKernelSchedule(StringRef s) {
  return StringSwitch<std::optional<KernelSchedule>>(s)
      .Case("multistage", KernelSchedule::Multistage)
      .Case("warp_specialized", KernelSchedule::WarpSpecialized)
      .Case("warp_specialized_cooperative",
            KernelSchedule::WarpSpecializedCooperative)
      .Case("warp_specialized_pingpong", KernelSchedule::WarpSpecializedPingpong)
      .Default(std::nullopt);
}

std::optional<TileSchedulerKind> gemmc::parseTileSchedulerKind(StringRef s) {
  return StringSwitch<std::optional<TileSchedulerKind>>(s)
      .Case("data_parallel", TileSchedulerKind::DataParallel)
      .Case("persistent", TileSchedulerKind::Persistent)
      .Case("stream_k", TileSchedulerKind::StreamK)
      .Default(std::nullopt);
}

std::optional<Raster> gemmc::parseRaster(StringRef s) {
  return StringSwitch<std::optional<Raster>>(s)
      .Case("along_m", Raster::AlongM)
      .Case("along_n", Raster::AlongN)
      .Default(std::nullopt);
}

std::optional<Swizzle> gemmc::parseSwizzle(StringRef s) {
  return StringSwitch<std::optional<Swizzle>>(s)
      .Case("auto", Swizzle::Auto)
      .Case("none", Swizzle::None)
      .Case("32b", Swizzle::B32)
      .Case("64b", Swizzle::B64)
      .Case("128b", Swizzle::B128)
      .Default(std::nullopt);
}

std::optional<LoadKind> gemmc::parseLoadKind(StringRef s) {
  return StringSwitch<std::optional<LoadKind>>(s)
      .Case("auto", LoadKind::Auto)
      .Case("tma", LoadKind::Tma)
      .Case("cp_async", LoadKind::CpAsync)
      .Default(std::nullopt);
}

std::optional<StoreKind> gemmc::parseStoreKind(StringRef s) {
  return StringSwitch<std::optional<StoreKind>>(s)
      .Case("auto", StoreKind::Auto)
      .Case("tma", StoreKind::Tma)
      .Case("direct", StoreKind::Direct)
      .Default(std::nullopt);
}

std::optional<Activation> gemmc::parseActivation(StringRef s) {
  return StringSwitch<std::optional<Activation>>(s)
      .Case("none", Activation::None)
      .Case("relu", Activation::Relu)
      .Case("gelu", Activation::Gelu)
      .Case("silu", Activation::Silu)
      .Default(std::nullopt);
}

std::optional<Bias> gemmc::parseBias(StringRef s) {
  return StringSwitch<std::optional<Bias>>(s)
      .Case("none", Bias::None)
      .Case("row", Bias::Row)
      .Case("col", Bias::Col)
      .Default(std::nullopt);
}

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
