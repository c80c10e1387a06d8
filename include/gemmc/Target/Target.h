//===- Target.h - The hardware database ----------------------------------===//
//
// The one place that knows the numbers of the GPUs gemmc targets: SM counts,
// memory sizes, bandwidths and peak rates per unit. What each arch's
// instructions take (MMA shapes, fragments, barriers, TMA, tensor memory) is
// in Isa.h; mmaInstrShape and tmaLimits below are views of it. The spec
// rules, the model and the lowering read them from here; nothing else in the
// project repeats them as literals.
//
// This library depends on LLVM Support only (no MLIR), so the model and the
// unit tests can use it without the compiler.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TARGET_TARGET_H
#define GEMMC_TARGET_TARGET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace gemmc {

enum class Arch { SM80, SM90a, SM100a };

/// Element types of operands and accumulators. TF32 is an operand type that
/// is stored as f32 in memory and multiplied on the TF32 tensor-core path.
enum class ElementType { F32, TF32, F16, BF16, E4M3, E5M2 };

/// The unit that executes the multiply-adds: its peak rate sets the compute
/// ceiling of the roofline.
enum class MathUnit { CudaCoreF32, TensorTF32, TensorF16, TensorFP8, Count };

/// The MMA instruction family an arch uses for a tensor-core GEMM.
enum class MmaFamily { MmaSync, Wgmma, Tcgen05 };

std::optional<Arch> parseArch(llvm::StringRef name);
llvm::StringRef archName(Arch arch);
std::optional<ElementType> parseElementType(llvm::StringRef name);
llvm::StringRef elementTypeName(ElementType type);
/// Bytes one element occupies in global and shared memory.
int elementBytes(ElementType type);
bool isFP8(ElementType type);
llvm::StringRef mathUnitName(MathUnit unit);
/// The unit that multiplies operands of this type.
MathUnit mathUnitFor(ElementType operandType);

/// The legal shapes of one MMA instruction for one operand type on one arch.
struct MmaInstrShape {
  MmaFamily family;
  llvm::StringRef mnemonic; ///< e.g. "wgmma.mma_async", for messages.
  /// M rows covered by one instruction issue (per warp for mma.sync, per
  /// warpgroup for wgmma, per CTA for tcgen05).
  int m;
  int nMin, nMax, nStep;
  int k;
};

/// Limits of the Tensor Memory Accelerator (sm_90a and later).
struct TmaLimits {
  int maxBoxDim = 0;         ///< elements per box dimension
  int minInnerBoxBytes = 0;  ///< the box's contiguous row, in bytes
  int globalAlignBytes = 0;  ///< base address and every stride
};

/// One device: an arch plus the numbers of one product built on it.
struct DeviceInfo {
  llvm::StringRef name;        ///< spec value, e.g. "h200"
  llvm::StringRef productName; ///< for reports
  Arch arch;
  int smCount;
  int smemPerSmBytes;          ///< shared memory an SM can give its blocks
  int smemPerBlockBytes;       ///< the most one block may opt in to
  int regsPerSm;
  int maxRegsPerThread;
  int maxThreadsPerSm;
  int maxThreadsPerBlock;
  int maxBlocksPerSm;
  int64_t l2Bytes;
  double hbmBytesPerSec;
  double boostClockGHz;
  /// Dense peak rates in FLOP/s, indexed by MathUnit; 0 = unit absent.
  double peakFlops[static_cast<int>(MathUnit::Count)];
  int maxClusterPortable;      ///< 1 = no clusters
  int maxClusterNonPortable;
  /// L2 partitions: each caches the lines its own SMs read, so a line two
  /// SMs on different partitions read can be fetched from HBM once per
  /// partition (A100, H100/H200: two; B200: one per die, two).
  int l2Partitions = 2;
  /// The dense rate of each MathUnit that a GEMM holds once the board runs at
  /// its power limit (FLOP/s, indexed by MathUnit): the best sustained rate
  /// measured on the device (gemmc-bench --sustain). 0 = not measured, no
  /// power term (docs/model.md 7b).
  double sustainedFlops[static_cast<int>(MathUnit::Count)] = {};
  /// How long a kernel runs at full load, after the short idle gaps between
  /// timed launches, before the power limit slows its clock to the sustained
  /// rate (docs/model.md 7b); measured by a K sweep.
  double powerWindowSec = 0;
  /// What one launch costs whatever its work, as CUDA events around it time
  /// it: the launch, the grid's start and drain (docs/model.md 7c). Outside
  /// the efficiency: a device with it measured has its efficiency fitted
  /// with it. 0 = not measured.
  double launchSec = 0;
  /// TMA fills (docs/model.md 6e): the rate at which all SMs together can
  /// have boxes written into shared memory from L2 (bytes/s, at the model's
  /// roofs: the measured rate over kEfficiencyMid), and what each box row
  /// past the tensor's edge (written as zeros) costs the SM's fill. 0 = not
  /// measured, no fill term.
  double tmaFillBytesPerSec = 0;
  double tmaZeroRowSec = 0;
  /// The least time the SM's TMA unit takes for one box, whatever its bytes
  /// (docs/model.md 6e): small boxes cost it, not their bytes. 0 = not
  /// measured.
  double tmaBoxSec = 0;
  /// The fraction of the roofs a well-built kernel sustains on this device
  /// once launchSec is counted apart (docs/model.md 7, 7c). 0 = not
  /// measured: model::kEfficiencyMid.
  double efficiency = 0;
  /// The SM clock an f16 MMA load holds against a bf16 one of the same
  /// work at the board's power limit (docs/model.md 7d): f16's multipliers
  /// switch more bits a FLOP, so the same power buys fewer cycles. Scales
  /// the math rate of f16 operands and their sustained rate; 1 = not
  /// measured.
  double f16ClockRatio = 1;

  double peak(MathUnit unit) const {
    return peakFlops[static_cast<int>(unit)];
  }
  /// FLOP per byte at which the unit's roof meets the HBM roof.
  double ridgePoint(MathUnit unit) const { return peak(unit) / hbmBytesPerSec; }
};

/// All known devices, in a stable order.
llvm::ArrayRef<DeviceInfo> allDevices();
/// The device called `name` ("a100", "h100", "h200", "b200"), or null.
const DeviceInfo *lookupDevice(llvm::StringRef name);
/// The device a spec gets when it names only the arch.
const DeviceInfo &defaultDevice(Arch arch);

/// The MMA instruction for `operandType` on `arch` (isaFor(arch).mma's
/// default shape), or nullopt when the arch has no tensor-core path for
/// that type.
std::optional<MmaInstrShape> mmaInstrShape(Arch arch, ElementType operandType);
/// TMA limits (Isa.h's); maxBoxDim == 0 on archs without TMA.
TmaLimits tmaLimits(Arch arch);

/// Threads in a warp and in a warpgroup.
constexpr int kWarpSize = 32;
constexpr int kWarpgroupSize = 128;
/// Shared-memory bandwidth of one SM, bytes per clock (sm_80, sm_90, sm_100).
constexpr int kSmemBytesPerClock = 128;

} // namespace gemmc

#endif // GEMMC_TARGET_TARGET_H
