//===- Spec.h - The schedule a user writes, as plain structs -------------===//
//
// A KernelSpec is what a spec.yaml says, with every `auto` still visible.
// resolveAuto() fills the automatic choices from the hardware database, and
// the rules in Rules.h check the result. Nothing here depends on MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_SPEC_H
#define GEMMC_SPEC_SPEC_H

#include "gemmc/Target/Target.h"
#include <array>
#include <cstdint>
#include <string>

namespace gemmc {

constexpr int kSchemaVersion = 1;

/// How an operand lies in memory. For A (M x K) and B (K x N) `row` means
/// the row index is the slow one: A row = K contiguous, B row = N contiguous,
/// B col = K contiguous. C is always row (N contiguous).
enum class Layout { Row, Col };

struct OperandSpec {
  ElementType element = ElementType::BF16;
  Layout layout = Layout::Row;
};

/// A problem dimension: a compile-time integer or a run-time value.
struct Dim {
  static constexpr int64_t kDynamic = -1;
  int64_t value = kDynamic;
  bool isDynamic() const { return value == kDynamic; }
  bool operator==(const Dim &o) const { return value == o.value; }
};

enum class KernelSchedule {
  Multistage,                 ///< every warp loads and multiplies
  WarpSpecialized,            ///< one producer warp, one consumer warpgroup per 64 rows
  WarpSpecializedCooperative, ///< two consumer warpgroups split one tile
  WarpSpecializedPingpong,    ///< two consumer warpgroups alternate tiles
};

enum class TileSchedulerKind { DataParallel, Persistent, StreamK };
enum class Raster { AlongM, AlongN };
enum class Swizzle { Auto, None, B32, B64, B128 };
enum class LoadKind { Auto, Tma, CpAsync };
enum class StoreKind { Auto, Tma, Direct };
enum class Activation { None, Relu, Gelu, Silu };
enum class Bias { None, Row, Col };

struct MainloopSpec {
  int64_t stages = 0; ///< 0 = auto
  LoadKind load = LoadKind::Auto;
  bool multicast = false;
  Swizzle swizzle = Swizzle::Auto;
};

struct TileSchedulerSpec {
  TileSchedulerKind kind = TileSchedulerKind::DataParallel;
  Raster raster = Raster::AlongM;
  int64_t group = 8;
  int64_t splitK = 1;
};

struct EpilogueSpec {
  StoreKind store = StoreKind::Auto;
  bool alpha = true;
  bool beta = false;
  Bias bias = Bias::None;
  Activation activation = Activation::None;
};

struct KernelSpec {
  int64_t schemaVersion = 0;
  std::string name;
  Arch arch = Arch::SM90a;
  std::string device; ///< empty = the arch's default device
  OperandSpec a, b, c;
  ElementType accumulator = ElementType::F32;
  Dim m, n, k;
  std::array<int64_t, 3> tileShape = {128, 128, 64}; ///< BLOCK_M, BLOCK_N, BLOCK_K
  std::array<int64_t, 2> clusterShape = {1, 1};      ///< along M, along N
  int64_t threads = 0; ///< 0 = auto (from kernel_schedule)
  MainloopSpec mainloop;
  KernelSchedule kernelSchedule = KernelSchedule::Multistage;
  TileSchedulerSpec tileScheduler;
  EpilogueSpec epilogue;

  int64_t blockM() const { return tileShape[0]; }
  int64_t blockN() const { return tileShape[1]; }
  int64_t blockK() const { return tileShape[2]; }
  int64_t clusterSize() const { return clusterShape[0] * clusterShape[1]; }
  const DeviceInfo &deviceInfo() const;
};

// Spellings shared by the YAML mapping, the IR attribute and the messages.
llvm::StringRef layoutName(Layout v);
llvm::StringRef kernelScheduleName(KernelSchedule v);
llvm::StringRef tileSchedulerKindName(TileSchedulerKind v);
llvm::StringRef rasterName(Raster v);
llvm::StringRef swizzleName(Swizzle v);
llvm::StringRef loadKindName(LoadKind v);
llvm::StringRef storeKindName(StoreKind v);
llvm::StringRef activationName(Activation v);
llvm::StringRef biasName(Bias v);
std::optional<Layout> parseLayout(llvm::StringRef s);
std::optional<KernelSchedule> parseKernelSchedule(llvm::StringRef s);
std::optional<TileSchedulerKind> parseTileSchedulerKind(llvm::StringRef s);
std::optional<Raster> parseRaster(llvm::StringRef s);
std::optional<Swizzle> parseSwizzle(llvm::StringRef s);
std::optional<LoadKind> parseLoadKind(llvm::StringRef s);
std::optional<StoreKind> parseStoreKind(llvm::StringRef s);
std::optional<Activation> parseActivation(llvm::StringRef s);
std::optional<Bias> parseBias(llvm::StringRef s);
/// Bytes of the swizzle pattern's row (0 for none).
int swizzleSpanBytes(Swizzle v);

} // namespace gemmc

#endif // GEMMC_SPEC_SPEC_H
