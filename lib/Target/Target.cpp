//===- Target.cpp - The hardware database --------------------------------===//
//
// Sources: the vendors' datasheets and the CUDA programming guide's tables of
// compute capabilities. Peak rates are dense (no structured sparsity) at the
// boost clock. Where a datasheet rounds, the rounded figure is used.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Target.h"
#include "gemmc/Target/Isa.h"
#include "llvm/ADT/StringSwitch.h"

using namespace gemmc;

static constexpr int KiB = 1024;
static constexpr int64_t MiB = 1024 * 1024;

static const DeviceInfo kDevices[] = {
    // A100 80GB SXM: 164 KiB of the 192 KiB L1/shared array can be shared
    // memory; a block may opt in to 163 KiB.
    {"a100", "NVIDIA A100-SXM4-80GB", Arch::SM80,
     /*smCount=*/108, /*smemPerSmBytes=*/164 * KiB,
     /*smemPerBlockBytes=*/163 * KiB, /*regsPerSm=*/65536,
     /*maxRegsPerThread=*/255, /*maxThreadsPerSm=*/2048,
     /*maxThreadsPerBlock=*/1024, /*maxBlocksPerSm=*/32,
     /*l2Bytes=*/40 * MiB, /*hbmBytesPerSec=*/2.039e12,
     /*boostClockGHz=*/1.41,
     /*peakFlops=*/{19.5e12, 156e12, 312e12, 0},
     /*maxClusterPortable=*/1, /*maxClusterNonPortable=*/1},
    // H100 SXM5 80GB: 228 KiB shared memory per SM, 227 KiB per block.
    {"h100", "NVIDIA H100 80GB HBM3 (SXM5)", Arch::SM90a,
     /*smCount=*/132, /*smemPerSmBytes=*/228 * KiB,
     /*smemPerBlockBytes=*/227 * KiB, /*regsPerSm=*/65536,
     /*maxRegsPerThread=*/255, /*maxThreadsPerSm=*/2048,
     /*maxThreadsPerBlock=*/1024, /*maxBlocksPerSm=*/32,
     /*l2Bytes=*/50 * MiB, /*hbmBytesPerSec=*/3.35e12,
     /*boostClockGHz=*/1.98,
     /*peakFlops=*/{67e12, 494.7e12, 989.4e12, 1978.9e12},
     /*maxClusterPortable=*/8, /*maxClusterNonPortable=*/16},
    // H200 SXM 141GB: the H100's SMs with HBM3e.
    {"h200", "NVIDIA H200 (SXM, 141GB HBM3e)", Arch::SM90a,
     /*smCount=*/132, /*smemPerSmBytes=*/228 * KiB,
     /*smemPerBlockBytes=*/227 * KiB, /*regsPerSm=*/65536,
     /*maxRegsPerThread=*/255, /*maxThreadsPerSm=*/2048,
     /*maxThreadsPerBlock=*/1024, /*maxBlocksPerSm=*/32,
     /*l2Bytes=*/50 * MiB, /*hbmBytesPerSec=*/4.8e12,
     /*boostClockGHz=*/1.98,
     /*peakFlops=*/{67e12, 494.7e12, 989.4e12, 1978.9e12},
     /*maxClusterPortable=*/8, /*maxClusterNonPortable=*/16,
     /*l2Partitions=*/2,
     // Measured (docs/model.md 6e, 7, 7b, 7c, 7d): 16-bit GEMMs back to
     // back at the 700 W cap; the window that leaves cube8192 (1.34 ms)
     // unthrottled and prefill_mlp_up at 5.22 ms in one process; the launch,
     // the tiny kernels' K-sweep intercept above the model (3.8 us median),
     // with the efficiency that the stored rows then fit (0.88, with the
     // mainloop's overlap norm: 363 rows, rms log error 0.105 against 0.183
     // with 0.80, no launch and the max); the fills
     // of 128x64 and 64x64 tiles over M = 1-128 (0-64 rows past M a box);
     // f16 against bf16 at the cap, 1383 against 1457 MHz; FP8 (session 28)
     // the best FP8 row back to back at the cap, 1352 TFLOP/s; TF32 (session
     // 29) prefill_mlp_up back to back at the cap, 368 TFLOP/s; the least
     // time a TMA box takes (session 35) from 16-row boxes of A on an H100
     // (session 34, round k6).
     /*sustainedFlops=*/{0, 368e12, 697e12, 1352e12},
     /*powerWindowSec=*/1.36e-3,
     /*launchSec=*/3.8e-6,
     /*tmaFillBytesPerSec=*/16.5e12,
     /*tmaZeroRowSec=*/3.5e-9,
     /*tmaBoxSec=*/30e-9,
     /*efficiency=*/0.88,
     /*f16ClockRatio=*/0.95},
    // B200 (HGX, 1000 W): 148 SMs.
    {"b200", "NVIDIA B200", Arch::SM100a,
     /*smCount=*/148, /*smemPerSmBytes=*/228 * KiB,
     /*smemPerBlockBytes=*/227 * KiB, /*regsPerSm=*/65536,
     /*maxRegsPerThread=*/255, /*maxThreadsPerSm=*/2048,
     /*maxThreadsPerBlock=*/1024, /*maxBlocksPerSm=*/32,
     /*l2Bytes=*/126 * MiB, /*hbmBytesPerSec=*/8.0e12,
     /*boostClockGHz=*/1.965,
     /*peakFlops=*/{80e12, 1.1e15, 2.25e15, 4.5e15},
     /*maxClusterPortable=*/8, /*maxClusterNonPortable=*/16},
};

llvm::ArrayRef<DeviceInfo> gemmc::allDevices() { return kDevices; }

const DeviceInfo *gemmc::lookupDevice(llvm::StringRef name) {
  for (const DeviceInfo &d : kDevices)
    if (d.name == name)
      return &d;
  return nullptr;
}

const DeviceInfo &gemmc::defaultDevice(Arch arch) {
  switch (arch) {
  case Arch::SM80:
    return *lookupDevice("a100");
  case Arch::SM90a:
    return *lookupDevice("h100");
  case Arch::SM100a:
    return *lookupDevice("b200");
  }
  llvm_unreachable("unknown arch");
}

std::optional<Arch> gemmc::parseArch(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Arch>>(name)
      .Case("sm_80", Arch::SM80)
      .Case("sm_90a", Arch::SM90a)
      .Case("sm_100a", Arch::SM100a)
      .Default(std::nullopt);
}

llvm::StringRef gemmc::archName(Arch arch) {
  switch (arch) {
  case Arch::SM80:
    return "sm_80";
  case Arch::SM90a:
    return "sm_90a";
  case Arch::SM100a:
    return "sm_100a";
  }
  llvm_unreachable("unknown arch");
}

std::optional<ElementType> gemmc::parseElementType(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<ElementType>>(name)
      .Case("f32", ElementType::F32)
      .Case("tf32", ElementType::TF32)
      .Case("f16", ElementType::F16)
      .Case("bf16", ElementType::BF16)
      .Case("e4m3", ElementType::E4M3)
      .Case("e5m2", ElementType::E5M2)
      .Default(std::nullopt);
}

llvm::StringRef gemmc::elementTypeName(ElementType type) {
  switch (type) {
  case ElementType::F32:
    return "f32";
  case ElementType::TF32:
    return "tf32";
  case ElementType::F16:
    return "f16";
  case ElementType::BF16:
    return "bf16";
  case ElementType::E4M3:
    return "e4m3";
  case ElementType::E5M2:
    return "e5m2";
  }
  llvm_unreachable("unknown element type");
}

int gemmc::elementBytes(ElementType type) {
  switch (type) {
  case ElementType::F32:
  case ElementType::TF32:
    return 4;
  case ElementType::F16:
  case ElementType::BF16:
    return 2;
  case ElementType::E4M3:
  case ElementType::E5M2:
    return 1;
  }
  llvm_unreachable("unknown element type");
}

bool gemmc::isFP8(ElementType type) {
  return type == ElementType::E4M3 || type == ElementType::E5M2;
}

llvm::StringRef gemmc::mathUnitName(MathUnit unit) {
  switch (unit) {
  case MathUnit::CudaCoreF32:
    return "FP32 CUDA cores";
  case MathUnit::TensorTF32:
    return "TF32 tensor cores";
  case MathUnit::TensorF16:
    return "FP16/BF16 tensor cores";
  case MathUnit::TensorFP8:
    return "FP8 tensor cores";
  case MathUnit::Count:
    break;
  }
  llvm_unreachable("unknown math unit");
}

MathUnit gemmc::mathUnitFor(ElementType operandType) {
  switch (operandType) {
  case ElementType::F32:
    return MathUnit::CudaCoreF32;
  case ElementType::TF32:
    return MathUnit::TensorTF32;
  case ElementType::F16:
  case ElementType::BF16:
    return MathUnit::TensorF16;
  case ElementType::E4M3:
  case ElementType::E5M2:
    return MathUnit::TensorFP8;
  }
  llvm_unreachable("unknown element type");
}

std::optional<MmaInstrShape> gemmc::mmaInstrShape(Arch arch,
                                                  ElementType operandType) {
  if (operandType == ElementType::F32)
    return std::nullopt; // CUDA cores: no tensor-core instruction
  const MmaIsa &mma = isaFor(arch).mma;
  if (isFP8(operandType) && !mma.fp8)
    return std::nullopt;
  const MmaMShape &shape = mma.defaultShape();
  return MmaInstrShape{mma.family,  mma.mnemonic, shape.m,
                       shape.nMin,  shape.nMax,   shape.nStep,
                       mma.k(operandType)};
}

TmaLimits gemmc::tmaLimits(Arch arch) {
  if (!isaFor(arch).hasTma)
    return TmaLimits{};
  return TmaLimits{isa::kTmaMaxBoxDim, isa::kTmaMinInnerBoxBytes,
                   isa::kTmaGlobalAlignBytes};
}
