//===- Rules.cpp - Hardware rules a schedule must satisfy ----------------===//
//
// Each check appends Violations; checkSpec() runs them in the order of
// allRules(). Messages follow one pattern: what was asked, the numbers, the
// limit and where it comes from, then "; use ..." with a way out.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Spec/Rules.h"
#include "gemmc/Target/Sm80.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

using namespace gemmc;
using llvm::formatv;

std::string Violation::str() const {
  return ("[" + rule + "] ").str() + message;
}

static const RuleInfo kRules[] = {
    {"unknown-key", "every key is one the schema knows (with a did-you-mean); "
                    "checked by the parser"},
    {"yaml-syntax", "the spec is well-formed YAML with no empty list entries; "
                    "checked by the parser"},
    {"value-type", "integers are written unquoted; checked by the parser"},
    {"value-range", "every size is positive and below a sane bound; stages "
                    "is at least 1 (auto picks at least 2)"},
    {"schema-version", "schema_version is the version this gemmc reads"},
    {"device", "device names a known GPU of the spec's arch"},
    {"arch-features", "TMA, wgmma, warp specialization, clusters and FP8 "
                      "only where the arch has them"},
    {"dtype-combination", "operand, accumulator and output types that an MMA "
                          "instruction and the epilogue support together"},
    {"operand-layout", "layouts the MMA instruction can read (FP8 and TF32 "
                       "wgmma need both operands K-major)"},
    {"scale", "operand scales dequantize FP8 operands: a per tensor or per "
              "row, b per tensor or per column; c per tensor exactly on an "
              "FP8 output; block scaling (a and b together) on sm_90a and "
              "sm_100a with BLOCK_K = 128"},
    {"mma-shape", "the tile is a whole number of MMA instructions"},
    {"kernel-schedule", "the kernel schedule fits the tile, loads and tile "
                        "scheduler"},
    {"threads-per-block", "the CTA's thread count is legal and matches the "
                          "schedule"},
    {"tma-box", "TMA boxes are at most 256 per dimension and their inner row "
                "is a whole number of swizzle spans"},
    {"stride-alignment", "fixed leading dimensions are multiples of 16 bytes"},
    {"cluster-size", "a cluster has at most the portable number of CTAs"},
    {"multicast", "TMA multicast needs a cluster to multicast to"},
    {"smem-budget", "stages x (A tile + B tile) + epilogue fits a block's "
                    "shared memory; a TMA-store epilogue's ring of chunk "
                    "buffers (epilogue.buffers) divides a tile row's chunks"},
    {"register-budget", "the accumulators and overhead fit the registers a "
                        "thread may hold"},
    {"promotion", "a promotion interval is a number of K tiles >= 0, on "
                  "accumulators in registers (wgmma)"},
    {"epilogue-fusion", "a bias is bf16, f16 or f32; an auxiliary output "
                        "needs an activation to differ from the output"},
};

llvm::ArrayRef<RuleInfo> gemmc::allRules() { return kRules; }

std::string gemmc::formatBytes(int64_t bytes) {
  if (bytes % 1024 == 0)
    return formatv("{0} KiB", bytes / 1024).str();
  if (bytes > 1024)
    return formatv("{0:F1} KiB", bytes / 1024.0).str();
  return formatv("{0} B", bytes).str();
}

//===----------------------------------------------------------------------===//
// Derived figures
//===----------------------------------------------------------------------===//

static bool usesTma(const KernelSpec &s) { return s.mainloop.load == LoadKind::Tma; }

/// The shared memory one CTA may take: a block's opt-in limit, or with
/// ctas_per_sm > 1 its share of the SM's, less what the system reserves of
/// each resident block.
static int64_t smemPerCta(const KernelSpec &s) {
  const DeviceInfo &dev = s.deviceInfo();
  if (s.ctasPerSm <= 1)
    return dev.smemPerBlockBytes;
  return std::min<int64_t>(dev.smemPerBlockBytes,
                           dev.smemPerSmBytes / s.ctasPerSm - kSmemReservedPerCta);
}

static bool isWarpSpecialized(KernelSchedule k) {
  return k != KernelSchedule::Multistage;
}

int64_t gemmc::contiguousTileExtent(const KernelSpec &s, int operand) {
  if (operand == 0)
    return s.a.layout == Layout::Row ? s.blockK() : s.blockM();
  return s.b.layout == Layout::Col ? s.blockK() : s.blockN();
}

/// Largest swizzle span that divides both operands' contiguous tile rows.
static Swizzle widestCommonSwizzle(const KernelSpec &s) {
  int64_t aBytes = contiguousTileExtent(s, 0) * elementBytes(s.a.element);
  int64_t bBytes = contiguousTileExtent(s, 1) * elementBytes(s.b.element);
  for (Swizzle sw : {Swizzle::B128, Swizzle::B64, Swizzle::B32}) {
    int span = swizzleSpanBytes(sw);
    if (aBytes % span == 0 && bBytes % span == 0)
      return sw;
  }
  return Swizzle::None;
}

/// The accumulators an MMA thread holds at once: the MMA's, and with a
/// promotion interval or block scaling (which promotes every K tile) the
/// f32 sum it is added into.
static int64_t accumulatorCopies(const KernelSpec &s) {
  return s.mainloop.promotionInterval > 0 || s.blockScaled() ? 2 : 1;
}

/// Live parts of fold_columns beside the f32 sum: two (a part folded while
/// the next runs), one with fold_group: 1 (foldOnePart).
static int64_t foldLiveParts(const KernelSpec &s) { return foldOnePart(s) ? 1 : 2; }

/// Registers a thread's accumulators take: the MMA's and the f32 sum; with
/// mainloop.fold_columns, the MMA's is two parts (one with fold_group: 1)
/// of fold_columns columns instead of the whole tile.
static int64_t accumulatorRegs(const KernelSpec &s, int64_t accRegs) {
  if (s.blockScaled() && s.mainloop.foldColumns > 0 &&
      s.blockN() % s.mainloop.foldColumns == 0)
    return accRegs + foldLiveParts(s) * accRegs * s.mainloop.foldColumns / s.blockN();
  return accRegs * accumulatorCopies(s);
}

int64_t gemmc::registerOverhead(const KernelSpec &s) {
  bool foldConsumer = s.arch == Arch::SM90a && foldOnePart(s) &&
                      s.kernelSchedule != KernelSchedule::Multistage;
  return foldConsumer ? kFoldOnePartRegisterOverhead : kRegisterOverhead;
}

/// Threads and consumer warpgroups a schedule implies.
static void deriveThreads(const KernelSpec &s, CtaResources &r) {
  switch (s.arch) {
  case Arch::SM80:
    r.threads = s.threads ? s.threads : 256;
    r.consumerWarpgroups = 0;
    r.producerThreads = 0;
    return;
  case Arch::SM90a: {
    // One consumer warpgroup per wgmma M of the tile's rows.
    int64_t wgRows = isaFor(s.arch).warpgroupRows;
    switch (s.kernelSchedule) {
    case KernelSchedule::Multistage:
      r.consumerWarpgroups = std::max<int64_t>(1, s.blockM() / wgRows);
      r.producerThreads = 0;
      break;
    case KernelSchedule::WarpSpecialized:
      r.consumerWarpgroups = std::max<int64_t>(1, s.blockM() / wgRows);
      r.producerThreads = kWarpgroupSize;
      break;
    case KernelSchedule::WarpSpecializedCooperative:
    case KernelSchedule::WarpSpecializedPingpong:
      r.consumerWarpgroups = 2;
      r.producerThreads = kWarpgroupSize;
      break;
    }
    r.threads = r.consumerWarpgroups * kWarpgroupSize + r.producerThreads;
    return;
  }
  case Arch::SM100a:
    // One warp issues TMA, one issues tcgen05.mma, a warpgroup drains TMEM.
    r.consumerWarpgroups = 1;
    r.producerThreads = 2 * kWarpSize;
    r.threads = kWarpgroupSize + r.producerThreads;
    return;
  }
}

int64_t gemmc::minEpilogueBuffers(const KernelSpec &s, int64_t chunks) {
  // epilogue.buffers: the spec's own ring (checkSmemBudget refuses one that
  // does not divide the row's chunks).
  if (s.epilogue.buffers > 0)
    return s.epilogue.buffers;
  // Pingpong hides a warpgroup's epilogue under the other's mainloop, so
  // its ring may be a single buffer (and the stages get the room). The ring
  // must divide a tile row's chunks: chunk c of every tile uses buffer
  // c % ring, and the wait before it counts on that buffer's last store
  // being the oldest in flight.
  int64_t want = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong
                     ? 1
                     : kMinEpilogueBuffers;
  for (int64_t n = std::min(want, chunks); n > 1; --n)
    if (chunks % n == 0)
      return n;
  return 1;
}

/// A stage's A and B bytes (sm_80's padded rows, TMA's swizzle-atom
/// alignment), the stages, and the ring's mbarriers.
static void deriveStages(const KernelSpec &s, CtaResources &r) {
  r.aStageBytes = s.blockM() * s.blockK() * elementBytes(s.a.element);
  r.bStageBytes = s.blockK() * s.blockN() * elementBytes(s.b.element);
  if (s.arch == Arch::SM80 && s.mainloop.swizzle == Swizzle::None) {
    // Unswizzled sm_80 tiles are padded: one 16-byte unit per row.
    auto padded = [&](int operand, int64_t rows) {
      const OperandSpec &o = operand == 0 ? s.a : s.b;
      return rows * sm80RowPitch(contiguousTileExtent(s, operand) * elementBytes(o.element),
                                 s.mainloop.swizzle);
    };
    r.aStageBytes = padded(0, s.a.layout == Layout::Row ? s.blockM() : s.blockK());
    r.bStageBytes = padded(1, s.b.layout == Layout::Col ? s.blockN() : s.blockK());
  }
  if (usesTma(s) && s.mainloop.swizzle != Swizzle::None) {
    // Every swizzled tile starts on a swizzle-atom boundary.
    r.aStageBytes = llvm::alignTo(r.aStageBytes, kSwizzleAtomAlignBytes);
    r.bStageBytes = llvm::alignTo(r.bStageBytes, kSwizzleAtomAlignBytes);
  }
  r.stages = s.mainloop.stages;
  // mbarriers (full + empty per stage) and the pad that aligns the dynamic
  // shared-memory base to a swizzle atom.
  r.barrierBytes =
      usesTma(s) ? kSwizzleAtomAlignBytes + Isa::stageBarrierBytes(r.stages) : 0;
}

/// Tensor memory (sm_100a): the accumulator buffers, the block scales'
/// partials, the columns allocated and their barriers.
static void deriveTensorMemory(const KernelSpec &s, CtaResources &r) {
  if (!isaFor(s.arch).hasTmem)
    return;
  // One fp32 column per accumulator column. A CTA with several tiles
  // (persistent) double-buffers them when both fit in tensor memory.
  int64_t columns = isaFor(s.arch).tmemColumns();
  bool severalTiles = s.tileScheduler.kind != TileSchedulerKind::DataParallel;
  if (s.blockScaled()) {
    // The MMA writes each K tile's partial into a buffer of its own, and
    // the epilogue warpgroup folds it into the f32 sum (one more buffer)
    // with the tile's block scales: two partials let the MMAs of K tile
    // k + 1 run under the fold of k.
    r.foldBuffers = 1;
    r.accBuffers = (2 + r.foldBuffers) * s.blockN() <= columns ? 2 : 1;
  } else {
    r.accBuffers = severalTiles && 2 * s.blockN() <= columns ? 2 : 1;
  }
  r.tmemColumns = std::max<int64_t>(
      isa::kTmemMinAllocColumns,
      llvm::PowerOf2Ceil((r.accBuffers + r.foldBuffers) * s.blockN()));
  // Each buffer has a full and an empty mbarrier (MMA -> epilogue and
  // back), and tcgen05.alloc writes the base address to a shared word.
  r.barrierBytes += Isa::stageBarrierBytes(r.accBuffers) + isa::kTmemSlotBytes;
}

/// Shared memory past the stages: the TMA store's ring of chunk buffers
/// (grown into the room the stages leave) and the block scales' slots;
/// then the CTA's shared memory in all.
static void deriveEpilogueAndScales(const KernelSpec &s, CtaResources &r) {
  // TMA store: a ring of chunk buffers per tile row, the fewest that keep
  // TMA and the warpgroup overlapped, more (a divisor of the row's chunks,
  // so every tile uses the ring the same way) while the stages leave room.
  if (s.epilogue.store == StoreKind::Tma) {
    int64_t rowBytes = s.blockN() * elementBytes(s.c.element);
    r.epilogueChunks = std::max<int64_t>(1, rowBytes / kEpilogueChunkRowBytes);
    // Every tile row of every consumer warpgroup has its ring; pingpong's
    // warpgroups each hold a whole tile, which they store one wgmma row
    // block (the C box's rows) at a time.
    bool pingpong = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong;
    int64_t rows = pingpong ? r.consumerWarpgroups * isaFor(s.arch).warpgroupRows : s.blockM();
    int64_t bufferBytes = rows * kEpilogueChunkRowBytes;
    int64_t room = smemPerCta(s) - r.stages * r.stageBytes() - r.barrierBytes -
                   r.stages * scaleSlotBytes(s);
    r.epilogueBuffers = minEpilogueBuffers(s, r.epilogueChunks);
    // epilogue.buffers fixes the ring; auto grows it to the largest
    // divisor of the row's chunks the room holds.
    bool grow = s.epilogue.buffers <= 0;
    for (int64_t n = r.epilogueChunks; grow && n > r.epilogueBuffers; --n)
      if (r.epilogueChunks % n == 0 && n * bufferBytes <= room) {
        r.epilogueBuffers = n;
        break;
      }
    r.epilogueBytes = r.epilogueBuffers * bufferBytes;
  }
  r.scaleBytes = r.stages * scaleSlotBytes(s);
  r.smemBytes = r.stages * r.stageBytes() + r.epilogueBytes + r.scaleBytes + r.barrierBytes;
}

/// Registers a thread: the accumulators and overhead the estimate counts,
/// and the cap the launch (and, warp-specialized, setmaxnreg) allows.
static void deriveRegisters(const KernelSpec &s, CtaResources &r) {
  const DeviceInfo &dev = s.deviceInfo();
  int64_t mmaThreads = s.arch == Arch::SM80
                           ? r.threads
                           : r.consumerWarpgroups * kWarpgroupSize;
  if (s.arch == Arch::SM100a) {
    r.accRegsPerThread = 0; // accumulators live in tensor memory
  } else if (s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong) {
    r.accRegsPerThread = s.blockM() * s.blockN() / kWarpgroupSize;
  } else {
    r.accRegsPerThread =
        mmaThreads > 0 ? llvm::divideCeil(s.blockM() * s.blockN(), mmaThreads)
                       : 0;
  }
  // A promotion interval keeps a second copy (the f32 sum beside the MMA's
  // accumulator, whose struct stays accRegsPerThread wide).
  r.regsPerThread = accumulatorRegs(s, r.accRegsPerThread) + registerOverhead(s);
  int64_t maxRegs = Isa::roundDownToAllocUnit(dev.maxRegsPerThread);
  if (r.producerThreads > 0 && s.arch == Arch::SM90a) {
    // setmaxnreg only moves registers within the CTA's launch allocation:
    // every thread starts with what ptxas gives it under .maxntid threads
    // and .minnctapersm 1 (the SM's file over the threads, rounded down to
    // the allocation unit), the producer hands back down to kProducerRegs,
    // and setmaxnreg.inc waits until the pool holds what the consumers ask.
    // Asking more than the pool hangs every consumer warp: 640 threads
    // launch with 96 each (61440), and 512 consumers at 112 plus 128
    // producers at 40 need 62464. With 384 threads the pool is 64512 and
    // the cap 232, exactly the pool.
    // ctas_per_sm: the SM's file is shared by that many CTAs' pools.
    r.launchRegsPerThread = std::min(
        maxRegs, Isa::roundDownToAllocUnit(dev.regsPerSm / (r.threads * s.ctasPerSm)));
    r.producerRegs = producerRegsFor(r.consumerWarpgroups, r.accRegsPerThread);
    int64_t budget = (r.launchRegsPerThread * r.threads - r.producerThreads * r.producerRegs) /
                     std::max<int64_t>(1, mmaThreads);
    r.regCapPerThread = std::min(maxRegs, Isa::roundDownToAllocUnit(budget));
  } else {
    r.regCapPerThread = std::min(
        maxRegs, Isa::roundDownToAllocUnit(dev.regsPerSm / std::max<int64_t>(1, r.threads)));
  }
}

CtaResources gemmc::computeResources(const KernelSpec &s) {
  CtaResources r;
  deriveThreads(s, r);
  deriveStages(s, r);
  deriveTensorMemory(s, r);
  deriveEpilogueAndScales(s, r);
  deriveRegisters(s, r);
  return r;
}

/// One stage is a valid ring (seed 004's B200 step 1: a K loop whose
/// loads and MMAs take turns), but it leaves no buffer to load into while
/// the other is multiplied, so auto never picks it; a target that does not
/// build it refuses it in checkLoweringSupport ([not-implemented]).
static constexpr int64_t kMinStages = 1, kMinAutoStages = 2;

void gemmc::resolveAuto(KernelSpec &s) {
  bool hasTma = isaFor(s.arch).hasTma;
  if (s.mainloop.load == LoadKind::Auto)
    s.mainloop.load = hasTma ? LoadKind::Tma : LoadKind::CpAsync;
  // TMA stores where there is TMA and the tile row is whole 128-byte
  // chunks (the epilogue overlaps the next tile: +0.03 to +0.09 of cuBLAS
  // on the H200, docs/ablation.md), else from registers.
  // swap_ab stores C^T from registers (the transposed TMA store is not
  // built).
  if (s.epilogue.store == StoreKind::Auto)
    s.epilogue.store =
        hasTma && !s.swapAb && (s.blockN() * elementBytes(s.c.element)) % kEpilogueChunkRowBytes == 0
            ? StoreKind::Tma
            : StoreKind::Direct;
  if (s.mainloop.swizzle == Swizzle::Auto)
    s.mainloop.swizzle = widestCommonSwizzle(s);
  if (s.threads == 0) {
    CtaResources r;
    deriveThreads(s, r);
    s.threads = r.threads;
  }
  if (s.mainloop.stages == 0) {
    // The deepest ring that fits next to the epilogue buffer, capped where
    // deeper rings stop paying (latency is covered long before).
    KernelSpec probe = s;
    probe.mainloop.stages = 1;
    CtaResources one = computeResources(probe);
    // Stages first: the epilogue takes its smallest ring here, and more
    // buffers only from what the stages leave.
    int64_t minEpilogue =
        one.epilogueBuffers
            ? one.epilogueBytes / one.epilogueBuffers *
                  minEpilogueBuffers(s, one.epilogueChunks)
            : 0;
    // The probe's one stage of barriers is counted per stage instead.
    int64_t barriersPerStage = usesTma(s) ? Isa::stageBarrierBytes(1) : 0;
    int64_t fixed = minEpilogue + one.barrierBytes - barriersPerStage;
    int64_t perStage = one.stageBytes() + barriersPerStage + scaleSlotBytes(s);
    int64_t fit = (smemPerCta(s) - fixed) / perStage;
    int64_t cap = usesTma(s) ? 8 : 4;
    // Where two stages do not fit, smem-budget says so for two.
    s.mainloop.stages = std::clamp<int64_t>(fit, kMinAutoStages, cap);
  }
}

//===----------------------------------------------------------------------===//
// The rules
//===----------------------------------------------------------------------===//

namespace {
using Sink = std::vector<Violation>;

void add(Sink &out, llvm::StringRef rule, llvm::StringRef field,
         std::string message) {
  out.push_back(Violation{rule, field.str(), std::move(message)});
}

constexpr int64_t kMaxTileDim = 1024;
constexpr int64_t kMaxClusterDim = 16;
constexpr int64_t kMaxProblemDim = (int64_t{1} << 31) - 1;
/// ctas_per_sm: one CTA beside another (PDL's next kernel, or a second of
/// this one); more would halve the register pool again.
constexpr int64_t kMaxCtasPerSm = 2;

void checkValueRange(const KernelSpec &s, Sink &out) {
  static const char *tileNames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K"};
  for (int i = 0; i < 3; ++i)
    if (s.tileShape[i] < 1 || s.tileShape[i] > kMaxTileDim)
      add(out, "value-range", "tile_shape",
          formatv("tile_shape {0} = {1} is outside [1, {2}]", tileNames[i],
                  s.tileShape[i], kMaxTileDim));
  for (int i = 0; i < 2; ++i)
    if (s.clusterShape[i] < 1 || s.clusterShape[i] > kMaxClusterDim)
      add(out, "value-range", "cluster_shape",
          formatv("cluster_shape[{0}] = {1} is outside [1, {2}]", i,
                  s.clusterShape[i], kMaxClusterDim));
  // 0 is `auto`, which resolveAuto replaces.
  if (s.mainloop.stages < 0 ||
      (s.mainloop.stages > 0 && s.mainloop.stages < kMinStages) ||
      s.mainloop.stages > kMaxStages)
    add(out, "value-range", "mainloop.stages",
        formatv("stages = {0} is outside [{1}, {2}]; use auto or a value "
                "in range",
                s.mainloop.stages, kMinStages, kMaxStages));
  // 0 is `auto`; checkSmemBudget bounds a ring by the tile row's chunks.
  if (s.epilogue.buffers < 0)
    add(out, "value-range", "epilogue.buffers",
        formatv("buffers = {0} is negative; use auto or a divisor of a tile "
                "row's chunks",
                s.epilogue.buffers));
  if (s.ctasPerSm < 1 || s.ctasPerSm > kMaxCtasPerSm)
    add(out, "value-range", "ctas_per_sm",
        formatv("ctas_per_sm = {0} is outside [1, {1}]", s.ctasPerSm,
                kMaxCtasPerSm));
  const std::pair<const char *, Dim> dims[] = {{"m", s.m}, {"n", s.n}, {"k", s.k}};
  for (auto [name, d] : dims)
    if (!d.isDynamic() && (d.value < 1 || d.value > kMaxProblemDim))
      add(out, "value-range", (llvm::Twine("problem.") + name).str(),
          formatv("problem {0} = {1} is outside [1, {2}]; use dynamic or a "
                  "value in range",
                  name, d.value, kMaxProblemDim));
  if (s.threads < 0 || s.threads > 4096)
    add(out, "value-range", "threads",
        formatv("threads = {0} is outside [1, 4096]", s.threads));
  if (s.tileScheduler.group < 1 || s.tileScheduler.group > 65535)
    add(out, "value-range", "tile_scheduler.group",
        formatv("group = {0} is outside [1, 65535]", s.tileScheduler.group));
  if (s.tileScheduler.splitK < 1 || s.tileScheduler.splitK > 1024)
    add(out, "value-range", "tile_scheduler.split_k",
        formatv("split_k = {0} is outside [1, 1024]", s.tileScheduler.splitK));
}

void checkSchemaVersion(const KernelSpec &s, Sink &out) {
  if (s.schemaVersion != kSchemaVersion)
    add(out, "schema-version", "schema_version",
        formatv("schema_version {0} is not supported; this gemmc reads "
                "schema_version {1}",
                s.schemaVersion, kSchemaVersion));
}

void checkDevice(const KernelSpec &s, Sink &out) {
  if (s.device.empty())
    return;
  const DeviceInfo *d = lookupDevice(s.device);
  if (!d) {
    std::string known;
    for (const DeviceInfo &x : allDevices())
      known += (known.empty() ? "" : ", ") + x.name.str();
    add(out, "device", "device",
        formatv("unknown device '{0}'; use one of {1}", s.device, known));
    return;
  }
  if (d->arch != s.arch)
    add(out, "device", "device",
        formatv("device {0} is {1}, but the spec's arch is {2}; use arch: {1} "
                "or another device",
                s.device, archName(d->arch), archName(s.arch)));
}

void checkArchFeatures(const KernelSpec &s, Sink &out) {
  const DeviceInfo &dev = s.deviceInfo();
  bool hasTma = isaFor(s.arch).hasTma;
  llvm::StringRef arch = archName(s.arch);
  if (s.mainloop.load == LoadKind::Tma && !hasTma)
    add(out, "arch-features", "mainloop.load",
        formatv("load: tma needs the Tensor Memory Accelerator, which {0} "
                "does not have; use load: cp_async",
                arch));
  if (s.mainloop.load == LoadKind::CpAsync && hasTma)
    add(out, "arch-features", "mainloop.load",
        formatv("load: cp_async is the sm_80 path; on {0} gemmc loads with "
                "TMA; use load: tma",
                arch));
  if (s.epilogue.store == StoreKind::Tma && !hasTma)
    add(out, "arch-features", "epilogue.store",
        formatv("store: tma needs the Tensor Memory Accelerator, which {0} "
                "does not have; use store: direct",
                arch));
  if (isWarpSpecialized(s.kernelSchedule) && s.arch == Arch::SM80)
    add(out, "arch-features", "kernel_schedule",
        formatv("kernel_schedule: {0} needs TMA and mbarriers, which sm_80 "
                "does not have; use multistage",
                kernelScheduleName(s.kernelSchedule)));
  if (s.clusterSize() > 1 && dev.maxClusterPortable <= 1)
    add(out, "arch-features", "cluster_shape",
        formatv("cluster_shape [{0}, {1}] needs thread-block clusters, which "
                "{2} does not have; use [1, 1]",
                s.clusterShape[0], s.clusterShape[1], arch));
  for (auto [name, op] : {std::pair{"a", s.a}, std::pair{"b", s.b}})
    if (!mmaInstrShape(s.arch, op.element) && op.element != ElementType::F32)
      add(out, "arch-features", (llvm::Twine("operands.") + name + ".element").str(),
          formatv("{0} operands have no tensor-core instruction on {1}; use "
                  "bf16 or f16",
                  elementTypeName(op.element), arch));
  if ((s.pdlWait != PdlWait::None || s.pdlLaunch != PdlLaunch::None) &&
      s.arch == Arch::SM80)
    add(out, "arch-features",
        s.pdlWait != PdlWait::None ? "pdl_wait" : "pdl_launch_dependents",
        "programmatic dependent launch (griddepcontrol) needs sm_90 or "
        "later, which sm_80 is not; use pdl_wait: none and "
        "pdl_launch_dependents: none");
}

void checkEpilogueFusion(const KernelSpec &s, Sink &out) {
  ElementType be = s.epilogue.biasElement;
  if (s.epilogue.bias != Bias::None && be != ElementType::BF16 &&
      be != ElementType::F16 && be != ElementType::F32)
    add(out, "epilogue-fusion", "epilogue.bias_element",
        formatv("a bias of {0} is not supported; use bias_element bf16, f16 "
                "or f32",
                elementTypeName(be)));
  if (s.epilogue.aux && (s.epilogue.activation == Activation::None ||
                         s.epilogue.activation == Activation::Identity))
    add(out, "epilogue-fusion", "epilogue.aux",
        formatv("aux: true stores the pre-activation value, which with "
                "activation: {0} is the output itself; use an activation "
                "(relu, gelu, gelu_tanh, silu) or aux: false",
                activationName(s.epilogue.activation)));
}

/// An FP8 output (issue 14): the epilogue converts f32 pairs with
/// cvt.rn.satfinite.{e4m3,e5m2}x2.f32, built in the register and TMA
/// stores of sm_90a's epilogue and sm_100a's tensor-memory one (sm_80 has
/// no such convert).
void checkFP8Output(const KernelSpec &s, Sink &out) {
  std::string c = elementTypeName(s.c.element).str();
  auto notYet = [&](const char *field, std::string why) {
    out.push_back(Violation{"not-implemented", field, std::move(why)});
  };
  if (s.arch == Arch::SM80)
    notYet("operands.c.element",
           formatv("an {0} output is implemented on sm_90a and sm_100a only; use bf16, "
                   "f16 or f32 on {1}",
                   c, archName(s.arch))
               .str());
  else if (s.epilogue.beta)
    notYet("epilogue.beta",
           formatv("beta with an {0} output is not implemented yet (C would "
                   "be read back in {0} and need a scale of its own); use "
                   "beta: false, or a bf16, f16 or f32 output",
                   c)
               .str());
  else if (s.epilogue.aux)
    notYet("epilogue.aux",
           formatv("aux with an {0} output is not implemented yet (the "
                   "auxiliary output has C's element); use aux: false",
                   c)
               .str());
  else if (s.swapAb)
    notYet("swap_ab",
           formatv("swap_ab with an {0} output is not implemented yet (its "
                   "transposed stores go one value at a time); use swap_ab: "
                   "false",
                   c)
               .str());
}

void checkDtypeCombination(const KernelSpec &s, Sink &out) {
  if (s.a.element == ElementType::F32 || s.b.element == ElementType::F32)
    add(out, "dtype-combination",
        s.a.element == ElementType::F32 ? "operands.a.element" : "operands.b.element",
        "f32 operands would run on CUDA cores, which gemmc does not target; "
        "use tf32 (f32 in memory, TF32 tensor cores)");
  bool bothFP8 = isFP8(s.a.element) && isFP8(s.b.element);
  if (s.a.element != s.b.element && !bothFP8)
    add(out, "dtype-combination", "operands.b.element",
        formatv("a is {0} but b is {1}; an MMA instruction multiplies equal "
                "types (or two FP8 types); use the same element for both",
                elementTypeName(s.a.element), elementTypeName(s.b.element)));
  if (s.accumulator != ElementType::F32)
    add(out, "dtype-combination", "operands.accumulator",
        formatv("accumulator {0} is not supported; gemmc accumulates in f32; "
                "use accumulator: f32",
                elementTypeName(s.accumulator)));
  if (s.c.element == ElementType::TF32)
    add(out, "dtype-combination", "operands.c.element",
        formatv("output element {0} is not supported; use f32, bf16, f16, "
                "e4m3 or e5m2",
                elementTypeName(s.c.element)));
  if (isFP8(s.c.element))
    checkFP8Output(s, out);
}

void checkOperandLayout(const KernelSpec &s, Sink &out) {
  if (s.c.layout != Layout::Row)
    add(out, "operand-layout", "operands.c.layout",
        "c must be row-major (N contiguous); to get C^T, swap a and b and "
        "their layouts");
  if (s.arch == Arch::SM90a) {
    for (auto [name, op, kMajor] :
         {std::tuple{"a", s.a, Layout::Row}, std::tuple{"b", s.b, Layout::Col}}) {
      bool needsKMajor = isFP8(op.element) || op.element == ElementType::TF32;
      if (needsKMajor && op.layout != kMajor)
        add(out, "operand-layout", (llvm::Twine("operands.") + name + ".layout").str(),
            formatv("wgmma reads {0} operands only K-major; {1} is {2}; use "
                    "layout: {3} (transpose {1} beforehand)",
                    elementTypeName(op.element), name, layoutName(op.layout),
                    layoutName(kMajor)));
    }
  }
}

/// Block scaling: the consumer adds each K tile's MMA sum into the f32
/// accumulator times A's scale of the row and B's of the column block, so a
/// K tile is one scale block (a tile's columns may meet parts of B blocks:
/// scaleSlotColumns).
void checkBlockScale(const KernelSpec &s, Sink &out) {
  bool a = s.a.scale == Scale::Block, b = s.b.scale == Scale::Block;
  if (!a && !b)
    return;
  if (a != b) {
    add(out, "scale", a ? "operands.b.scale" : "operands.a.scale",
        formatv("block scaling takes a (1x{0} blocks) and b ({0}x{0} "
                "blocks) together, but {1}.scale is {2}; use scale: block on "
                "both",
                kScaleBlock, a ? "b" : "a", scaleName(a ? s.b.scale : s.a.scale)));
    return;
  }
  if (!isFP8(s.a.element) || !isFP8(s.b.element))
    return; // reported above
  // The fold runs on the MMA's accumulator of each K tile: sm_90a's wgmma
  // fragment in registers, sm_100a's partial in tensor memory (read by the
  // epilogue warpgroup). sm_80 has no FP8 MMA (arch-features).
  if (s.blockK() != kScaleBlock)
    add(out, "scale", "tile_shape",
        formatv("scale: block folds one K tile per scale block of {0}, but "
                "BLOCK_K = {1}; use tile_shape [{2}, {3}, {0}]",
                kScaleBlock, s.blockK(), s.blockM(), s.blockN()));
  if (s.mainloop.promotionInterval > 1)
    add(out, "scale", "mainloop.promotion_interval",
        formatv("scale: block promotes every K tile (each with its own "
                "scales), but promotion_interval is {0}; use "
                "promotion_interval: 0 or 1",
                s.mainloop.promotionInterval));
}

void checkScale(const KernelSpec &s, Sink &out) {
  // The epilogue multiplies the f32 accumulator of (row, column) by A's
  // scale of the row and B's of the column; a scale along K would have to
  // be applied before the sum, inside the mainloop.
  for (auto [name, op, along] : {std::tuple{"a", s.a, Scale::Row},
                                 std::tuple{"b", s.b, Scale::Col}}) {
    if (op.scale == Scale::None)
      continue;
    std::string field = (llvm::Twine("operands.") + name + ".scale").str();
    if (!isFP8(op.element))
      add(out, "scale", field,
          formatv("{0} scale: {1} dequantizes an FP8 operand, but {0} is {2}; "
                  "use scale: none (and epilogue alpha for a scalar factor)",
                  name, scaleName(op.scale), elementTypeName(op.element)));
    else if (op.scale == Scale::Block)
      continue; // checkBlockScale
    else if (op.scale != Scale::Tensor && op.scale != along)
      add(out, "scale", field,
          formatv("{0} scale: {1} would scale along K, which the epilogue "
                  "cannot undo after the sum; use scale: tensor or {2}",
                  name, scaleName(op.scale), scaleName(along)));
  }
  checkBlockScale(s, out);
  // swap_ab runs C^T = B^T A^T: per-tensor scales commute, and per-row /
  // per-column vectors go with their operands (swapAbView: A's per-row scale
  // is the swapped kernel's per-column one; the manifest binds the caller's
  // scale_b to the kernel's scale_a, callerParamName). Block scales do not
  // swap: A's are 1 x 128 and B's 128 x 128, so the kernel would read each
  // operand's blocks in the other's layout.
  for (const OperandSpec *op : {&s.a, &s.b})
    if (s.swapAb && op->scale == Scale::Block) {
      out.push_back(Violation{
          "not-implemented", "swap_ab",
          "swap_ab with scale: block is not implemented (A's 1 x 128 and B's "
          "128 x 128 blocks do not swap: the kernel would read each operand's "
          "blocks in the other's layout); use swap_ab: false"});
      break;
    }
  // The output scale: one f32 (scale_d) that multiplies the result before
  // the convert to an FP8 output.
  if (s.c.scale != Scale::None && s.c.scale != Scale::Tensor)
    add(out, "scale", "operands.c.scale",
        formatv("c scale: {0} is not supported; an FP8 output takes one "
                "scale for the tensor; use scale: tensor or none",
                scaleName(s.c.scale)));
  else if (s.c.scale == Scale::None && isFP8(s.c.element))
    add(out, "scale", "operands.c.element",
        formatv("an {0} output takes its scale (scale_d: D = scale_d x the "
                "result, as cuBLASLt's D_SCALE_POINTER); use c scale: tensor "
                "(with a scale of 1 for none)",
                elementTypeName(s.c.element)));
  else if (s.c.scale == Scale::Tensor && !isFP8(s.c.element))
    add(out, "scale", "operands.c.scale",
        formatv("c scale: tensor scales an FP8 output, but c is {0}; use "
                "scale: none (and epilogue alpha for a scalar factor)",
                elementTypeName(s.c.element)));
}

void checkMmaShape(const KernelSpec &s, const CtaResources &r, Sink &out) {
  auto instr = mmaInstrShape(s.arch, s.a.element);
  if (!instr)
    return; // reported by arch-features / dtype-combination
  auto tile = formatv("{0}x{1}x{2}", s.blockM(), s.blockN(), s.blockK()).str();
  if (s.blockK() % instr->k != 0)
    add(out, "mma-shape", "tile_shape",
        formatv("BLOCK_K = {0} is not a multiple of the K = {1} of one {2} on "
                "{3} operands; use BLOCK_K = {4}",
                s.blockK(), instr->k, instr->mnemonic,
                elementTypeName(s.a.element),
                llvm::alignTo(std::max<int64_t>(s.blockK(), instr->k), instr->k)));
  switch (instr->family) {
  case MmaFamily::MmaSync: {
    auto fragment = formatv("m{0}n{1}", instr->m, instr->nMin).str();
    if (s.blockM() % instr->m != 0 || s.blockN() % instr->nMin != 0) {
      add(out, "mma-shape", "tile_shape",
          formatv("tile {0} is not a whole number of {1} mma.sync "
                  "fragments; use BLOCK_M a multiple of {2} and BLOCK_N a "
                  "multiple of {3}",
                  tile, fragment, instr->m, instr->nMin));
      return;
    }
    int64_t warps = r.threads / kWarpSize;
    int64_t frags = (s.blockM() / instr->m) * (s.blockN() / instr->nMin);
    if (warps > 0 && frags % warps != 0)
      add(out, "mma-shape", "tile_shape",
          formatv("{0} {1} fragments of tile {2} do not divide among {3} "
                  "warps; use fewer threads or a larger tile",
                  frags, fragment, tile, warps));
    return;
  }
  case MmaFamily::Wgmma: {
    int64_t rowsPerWg =
        s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative
            ? s.blockM() / 2
            : (s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong
                   ? s.blockM()
                   : instr->m);
    if (s.blockM() % instr->m != 0 ||
        (rowsPerWg > 0 && rowsPerWg % instr->m != 0))
      add(out, "mma-shape", "tile_shape",
          formatv("BLOCK_M = {0} is not a whole number of the M = {1} rows "
                  "one warpgroup's wgmma covers{2}; use BLOCK_M = {3}",
                  s.blockM(), instr->m,
                  s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative
                      ? " (cooperative: each of 2 warpgroups takes BLOCK_M/2)"
                      : "",
                  s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative
                      ? 2 * instr->m
                      : instr->m));
    if (s.blockN() < instr->nMin || s.blockN() > instr->nMax ||
        s.blockN() % instr->nStep != 0)
      add(out, "mma-shape", "tile_shape",
          formatv("BLOCK_N = {0} is not a legal wgmma N (a multiple of {1} "
                  "from {2} to {3}); use BLOCK_N = {4}",
                  s.blockN(), instr->nStep, instr->nMin, instr->nMax,
                  std::clamp<int64_t>(s.blockN() / instr->nStep * instr->nStep,
                                      instr->nMin, instr->nMax)));
    return;
  }
  case MmaFamily::Tcgen05: {
    // A cluster of CTA pairs along M may issue across the pair; otherwise
    // each CTA issues its own.
    const MmaIsa &mma = isaFor(s.arch).mma;
    const int pairCtas = 2;
    const MmaMShape *shape = nullptr;
    if (s.clusterShape[0] == pairCtas)
      shape = mma.shape(s.blockM(), pairCtas);
    if (!shape)
      shape = mma.shape(s.blockM(), 1);
    if (!shape) {
      llvm::SmallVector<int> perCta, perPair;
      for (const MmaMShape &m : mma.shapes)
        (m.ctas == 1 ? perCta : perPair).push_back(m.m);
      llvm::sort(perCta);
      std::string legal;
      for (int m : perCta)
        legal += (legal.empty() ? "" : " or ") + std::to_string(m);
      add(out, "mma-shape", "tile_shape",
          formatv("BLOCK_M = {0} is not a tcgen05.mma M: {1} per CTA, or {2} "
                  "across a CTA pair (cluster_shape [{3}, 1]); use BLOCK_M = {4}",
                  s.blockM(), legal, perPair.front(), pairCtas,
                  mma.defaultShape().m));
    }
    // An illegal M still gets its N checked, against the default shape's.
    int64_t mPerCta = shape ? shape->mPerCta() : s.blockM();
    const MmaMShape &n = shape ? *shape : mma.defaultShape();
    if (s.blockN() < n.nMin || s.blockN() > n.nMax || s.blockN() % n.nStep != 0)
      add(out, "mma-shape", "tile_shape",
          formatv("BLOCK_N = {0} is not a legal tcgen05.mma N for M = {1} (a "
                  "multiple of {2} from {3} to {4}); use BLOCK_N = {5}",
                  s.blockN(), mPerCta, n.nStep, n.nMin, n.nMax,
                  std::clamp<int64_t>(s.blockN() / n.nStep * n.nStep, n.nMin,
                                      n.nMax)));
    return;
  }
  }
}

void checkKernelSchedule(const KernelSpec &s, Sink &out) {
  if (s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong &&
      s.tileScheduler.kind == TileSchedulerKind::DataParallel)
    add(out, "kernel-schedule", "kernel_schedule",
        "warp_specialized_pingpong alternates tiles between two consumer "
        "warpgroups, so each CTA needs several tiles; use tile_scheduler: "
        "{kind: persistent}");
  if (s.arch == Arch::SM100a && s.kernelSchedule != KernelSchedule::WarpSpecialized &&
      s.kernelSchedule != KernelSchedule::Multistage)
    add(out, "kernel-schedule", "kernel_schedule",
        formatv("kernel_schedule: {0} is a Hopper schedule; on sm_100a use "
                "warp_specialized (one TMA warp, one MMA warp, an epilogue "
                "warpgroup)",
                kernelScheduleName(s.kernelSchedule)));
}

void checkThreads(const KernelSpec &s, const CtaResources &r, Sink &out) {
  const DeviceInfo &dev = s.deviceInfo();
  if (s.threads != 0 && s.threads != r.threads)
    add(out, "threads-per-block", "threads",
        formatv("threads = {0}, but kernel_schedule: {1} with BLOCK_M = {2} "
                "on {3} runs {4} threads per block; use threads: auto",
                s.threads, kernelScheduleName(s.kernelSchedule), s.blockM(),
                archName(s.arch), r.threads));
  else if (r.threads % kWarpSize != 0)
    add(out, "threads-per-block", "threads",
        formatv("threads = {0} is not a whole number of {1}-thread warps; use "
                "a multiple of {1}",
                r.threads, kWarpSize));
  if (r.threads > dev.maxThreadsPerBlock)
    add(out, "threads-per-block", "threads",
        formatv("{0} threads per block exceeds the {1} a block may have on "
                "{2}; use a smaller tile or fewer consumer warpgroups",
                r.threads, dev.maxThreadsPerBlock, archName(s.arch)));
}

void checkTmaBox(const KernelSpec &s, Sink &out) {
  TmaLimits lim = tmaLimits(s.arch);
  // Without TMA on the arch, arch-features has said so; box limits are moot.
  if (s.mainloop.load != LoadKind::Tma || lim.maxBoxDim == 0)
    return;
  int span = swizzleSpanBytes(s.mainloop.swizzle);
  for (int operand = 0; operand < 2; ++operand) {
    const OperandSpec &op = operand == 0 ? s.a : s.b;
    const char *name = operand == 0 ? "a" : "b";
    int eb = elementBytes(op.element);
    int64_t inner = contiguousTileExtent(s, operand);
    int64_t outer = operand == 0 ? (inner == s.blockK() ? s.blockM() : s.blockK())
                                 : (inner == s.blockK() ? s.blockN() : s.blockK());
    int64_t innerBytes = inner * eb;
    if (span > 0 && innerBytes % span != 0) {
      add(out, "tma-box", "mainloop.smem_swizzle",
          formatv("the {0} tile's contiguous row is {1} elements x {2} B = {3} "
                  "B, not a whole number of the {4} B swizzle span; use "
                  "smem_swizzle: auto or a tile whose row is a multiple of {4} B",
                  name, inner, eb, innerBytes, span));
      continue;
    }
    if (span == 0 && (innerBytes % lim.minInnerBoxBytes != 0 || inner > lim.maxBoxDim))
      add(out, "tma-box", "tile_shape",
          formatv("the {0} tile's contiguous row is {1} B; an unswizzled TMA "
                  "box row must be a multiple of {2} B and at most {3} "
                  "elements; use a swizzle or another tile",
                  name, innerBytes, lim.minInnerBoxBytes, lim.maxBoxDim));
    if (outer > lim.maxBoxDim)
      add(out, "tma-box", "tile_shape",
          formatv("the {0} tile's box is {1} rows, more than the {2} a TMA box "
                  "may have per dimension; use a tile dimension <= {2}",
                  name, outer, lim.maxBoxDim));
  }
}

void checkStrideAlignment(const KernelSpec &s, Sink &out) {
  // TMA's global alignment, else that of cp.async's 16-byte copies.
  int align = isaFor(s.arch).hasTma ? tmaLimits(s.arch).globalAlignBytes
                                    : isa::kCpAsyncBytes;
  struct Lead {
    const char *operand;
    const char *dimName;
    Dim dim;
    ElementType type;
  };
  // The leading dimension of a row-major matrix is its column count. The
  // swapped kernel (swap_ab) writes its C^T column by column into the
  // caller's row-major C, whose rows are the swapped M long.
  Lead leads[] = {
      {"a", s.a.layout == Layout::Row ? "k" : "m",
       s.a.layout == Layout::Row ? s.k : s.m, s.a.element},
      {"b", s.b.layout == Layout::Col ? "k" : "n",
       s.b.layout == Layout::Col ? s.k : s.n, s.b.element},
      {"c", s.swapAb ? "m" : "n", s.swapAb ? s.m : s.n, s.c.element},
  };
  for (const Lead &l : leads) {
    if (l.dim.isDynamic())
      continue;
    int eb = elementBytes(l.type);
    if ((l.dim.value * eb) % align != 0)
      add(out, "stride-alignment", (llvm::Twine("problem.") + l.dimName).str(),
          formatv("{0}'s row stride is {1} = {2} x {3} B = {4} B, not a "
                  "multiple of {5} B; pad {1} to {6} or make it dynamic and pad "
                  "at run time",
                  l.operand, l.dimName, l.dim.value, eb, l.dim.value * eb,
                  align, llvm::alignTo(l.dim.value, align / eb)));
  }
}

void checkClusterSize(const KernelSpec &s, Sink &out) {
  const DeviceInfo &dev = s.deviceInfo();
  if (dev.maxClusterPortable <= 1)
    return; // arch-features says it
  if (s.clusterSize() > dev.maxClusterPortable)
    add(out, "cluster-size", "cluster_shape",
        formatv("cluster_shape [{0}, {1}] = {2} CTAs exceeds the {3} a "
                "portable cluster may have on {4} (non-portable sizes up to "
                "{5} are not emitted by gemmc); use at most {3} CTAs",
                s.clusterShape[0], s.clusterShape[1], s.clusterSize(),
                dev.maxClusterPortable, archName(s.arch),
                dev.maxClusterNonPortable));
}

void checkMulticast(const KernelSpec &s, Sink &out) {
  if (s.mainloop.multicast && s.clusterSize() == 1)
    add(out, "multicast", "mainloop.multicast",
        "multicast: true needs a cluster of more than one CTA to multicast "
        "to; use cluster_shape [2, 1] (or [1, 2]) or multicast: false");
  if (s.mainloop.multicast && s.mainloop.load != LoadKind::Tma)
    add(out, "multicast", "mainloop.multicast",
        "multicast is a TMA feature; use load: tma or multicast: false");
}

void checkSmemBudget(const KernelSpec &s, const CtaResources &r, Sink &out) {
  const DeviceInfo &dev = s.deviceInfo();
  // epilogue.buffers: chunk c of every tile goes through buffer c % ring,
  // and the wait before it counts on that buffer's last store being the
  // oldest in flight, so the ring divides a tile row's chunks.
  if (int64_t n = s.epilogue.buffers) {
    if (s.epilogue.store != StoreKind::Tma) {
      add(out, "smem-budget", "epilogue.buffers",
          formatv("buffers: {0} is the ring of a TMA-store epilogue, but the "
                  "epilogue stores from registers; use store: tma or buffers: auto",
                  n));
      return;
    }
    if (r.epilogueChunks % n != 0) {
      std::string divisors;
      for (int64_t d = 1; d <= r.epilogueChunks; ++d)
        if (r.epilogueChunks % d == 0)
          divisors += (divisors.empty() ? "" : ", ") + std::to_string(d);
      add(out, "smem-budget", "epilogue.buffers",
          formatv("buffers: {0} does not divide a tile row's {1} chunks of {2} "
                  "bytes; use buffers: auto or one of {3}",
                  n, r.epilogueChunks, kEpilogueChunkRowBytes, divisors));
      return;
    }
  }
  int64_t budget = smemPerCta(s);
  if (r.smemBytes <= budget)
    return;
  std::string sum =
      formatv("{0} stages x {1}", r.stages, formatBytes(r.stageBytes())).str();
  if (r.epilogueBytes)
    sum += " + " + formatBytes(r.epilogueBytes) + " epilogue";
  if (r.scaleBytes)
    sum += " + " + formatBytes(r.scaleBytes) + " block scales";
  if (r.barrierBytes)
    sum += " + " + formatBytes(r.barrierBytes) + " barriers and alignment";
  int64_t room = budget - r.epilogueBytes - r.barrierBytes;
  // A stage's bytes, with its slot of block scales (stage_scales).
  int64_t perStage = r.stageBytes() + scaleSlotBytes(s);
  int64_t fit = r.stageBytes() > 0 ? room / perStage : 0;
  std::string wayOut = fit >= 2 ? formatv("use stages <= {0} or a smaller tile_shape", fit).str()
                                : std::string("use a smaller tile_shape");
  if (fit >= 2 && r.barrierBytes)
    wayOut = formatv("use stages <= {0} or a smaller tile_shape",
                     (room + Isa::stageBarrierBytes(r.stages)) /
                         (perStage + Isa::stageBarrierBytes(1)))
                 .str();
  std::string limit =
      s.ctasPerSm > 1
          ? formatv("the {0} a CTA may use with ctas_per_sm: {1} on {2} ({3} "
                    "an SM / {1} - {4} the system reserves a block)",
                    formatBytes(budget), s.ctasPerSm, dev.name,
                    formatBytes(dev.smemPerSmBytes),
                    formatBytes(kSmemReservedPerCta))
                .str()
          : formatv("the {0} a block may use on {1}", formatBytes(budget),
                    archName(s.arch))
                .str();
  if (s.ctasPerSm > 1)
    wayOut += " or ctas_per_sm: 1";
  add(out, "smem-budget", "mainloop.stages",
      formatv("{0} = {1} exceeds {2}; {3}", sum, formatBytes(r.smemBytes),
              limit, wayOut));
}

/// The widest fold_columns (BLOCK_N / 2, / 4, ...) whose live parts (two;
/// one with fold_group: 1) fit beside the f32 sum; 0 if none does.
static int64_t fittingFoldColumns(const KernelSpec &s, const CtaResources &r) {
  for (int64_t w = s.blockN() / 2; w >= 8 && w % 8 == 0; w /= 2)
    if (r.accRegsPerThread + foldLiveParts(s) * (r.accRegsPerThread * w / s.blockN()) +
            registerOverhead(s) <=
        r.regCapPerThread)
      return w;
  return 0;
}

/// register-budget with a promotion interval: both accumulators count; the
/// way out names the widest BLOCK_N (halving) whose two copies fit.
void checkPromotionRegisters(const KernelSpec &s, const CtaResources &r,
                             llvm::StringRef who, Sink &out) {
  if (s.blockScaled() && s.mainloop.foldColumns > 0) {
    int64_t partRegs = r.accRegsPerThread * s.mainloop.foldColumns / s.blockN();
    int64_t fitW = fittingFoldColumns(s, r);
    int64_t live = foldLiveParts(s);
    add(out, "register-budget", "mainloop.fold_columns",
        formatv("{0}x{1} fp32 accumulators over {2} with {3} of "
                "fold_columns: {4} (the f32 sum and {5} MMA "
                "accumulators) = {6} + {7} x {8} per thread + {9} overhead = {10} "
                "registers exceeds the {11} a thread may use here; use {12}a "
                "smaller tile_shape",
                s.blockM(), s.blockN(), who, live == 1 ? "one part" : "two parts",
                s.mainloop.foldColumns, live == 1 ? "one part's" : "two parts'",
                r.accRegsPerThread, live, partRegs, registerOverhead(s),
                r.regsPerThread, r.regCapPerThread,
                fitW ? formatv("fold_columns: {0} or ", fitW).str() : ""));
    return;
  }
  int64_t copies = accumulatorCopies(s);
  int64_t fitN = s.blockN();
  while (fitN > 8 && copies * (fitN * r.accRegsPerThread / s.blockN()) +
                             registerOverhead(s) >
                         r.regCapPerThread)
    fitN /= 2;
  std::string wayOut =
      formatv("use tile_shape [{0}, {1}, {2}]{3}", s.blockM(), fitN, s.blockK(),
              s.blockScaled() ? "" : " or promotion_interval: 0")
          .str();
  // Block scaling may instead keep the tile and run its MMAs in parts
  // (fold_columns): the widest half, quarter, ... whose two parts fit.
  int64_t fitW = fittingFoldColumns(s, r);
  if (s.blockScaled() && s.kernelSchedule != KernelSchedule::Multistage && fitW)
    wayOut += formatv(" or mainloop.fold_columns: {0}", fitW).str();
  std::string why =
      s.blockScaled()
          ? std::string("scale: block")
          : formatv("mainloop.promotion_interval: {0}", s.mainloop.promotionInterval)
                .str();
  add(out, "register-budget", "tile_shape",
      formatv("{0}x{1} fp32 accumulators over {2}, twice with {3} (the "
              "MMA's and the f32 sum), = {4} per thread + {5} overhead = {6} "
              "registers exceeds the {7} a thread may use here; {8}",
              s.blockM(), s.blockN(), who, why, copies * r.accRegsPerThread,
              registerOverhead(s), r.regsPerThread, r.regCapPerThread, wayOut));
}

/// fold_columns: the K tile's MMAs of block scaling in parts that two
/// accumulators take in turn, each part one wgmma wide.
void checkFoldColumns(const KernelSpec &s, Sink &out) {
  int64_t w = s.mainloop.foldColumns;
  if (s.mainloop.foldGroup < 0 || (s.mainloop.foldGroup > 0 && w == 0))
    add(out, "fold", "mainloop.fold_group",
        formatv("fold_group: {0} {1}; use fold_group: 0 (auto){2}",
                s.mainloop.foldGroup,
                s.mainloop.foldGroup < 0
                    ? "is negative"
                    : "counts the parts of fold_columns, which is 0",
                s.mainloop.foldGroup < 0 ? "" : " or set fold_columns")
            .str());
  if (w == 0)
    return;
  auto fail = [&](const std::string &why, const std::string &wayOut) {
    add(out, "fold", "mainloop.fold_columns",
        formatv("fold_columns: {0} {1}; use {2}", w, why, wayOut));
  };
  if (w < 0)
    return fail("is negative", "0 (fold the whole K tile) or a number of columns");
  if (!s.blockScaled())
    return fail("splits the MMAs of a block-scaled K tile, but the operands "
                "are not scale: block",
                "fold_columns: 0");
  if (s.arch != Arch::SM90a)
    return fail(formatv("splits a K tile's wgmma MMAs into parts that sm_90a's "
                        "consumers fold from registers; {0} folds each K tile's "
                        "whole partial from tensor memory",
                        archName(s.arch))
                    .str(),
                "fold_columns: 0");
  if (s.kernelSchedule == KernelSchedule::Multistage)
    return fail("needs a consumer warpgroup that does not also refill the "
                "stages (multistage does)",
                "kernel_schedule: warp_specialized_cooperative or fold_columns: 0");
  auto instr = mmaInstrShape(s.arch, s.a.element);
  if (!instr)
    return; // reported by checkMmaShape
  // Each part is one wgmma a k step, on columns of its own.
  bool isWgmmaN = w >= instr->nMin && w <= instr->nMax && w % instr->nStep == 0;
  if (!isWgmmaN || s.blockN() % w != 0)
    fail(formatv("must be a wgmma N ({0}..{1} in steps of {2}) that divides "
                 "BLOCK_N = {3}",
                 instr->nMin, instr->nMax, instr->nStep, s.blockN())
             .str(),
         formatv("fold_columns: {0}", s.blockN() / 2).str());
}

/// stage_scales: the producer warp copies the block scales beside the TMA
/// loads of a warp-specialized sm_90a kernel (one lane each of BLOCK_M / 32
/// rows), arriving on the stage's full barrier.
void checkStageScales(const KernelSpec &s, Sink &out) {
  if (!s.mainloop.stageScales)
    return;
  auto fail = [&](const std::string &why, llvm::StringRef wayOut) {
    add(out, "scale", "mainloop.stage_scales",
        formatv("stage_scales: true {0}; use {1}", why, wayOut));
  };
  bool warpSpecialized = s.kernelSchedule != KernelSchedule::Multistage;
  if (!s.blockScaled())
    fail("stages block scales, but the operands are not scale: block", "stage_scales: false");
  else if (s.arch != Arch::SM90a || !warpSpecialized || s.mainloop.load != LoadKind::Tma)
    fail("needs an sm_90a producer warp beside TMA loads (a warp-specialized kernel)",
         "kernel_schedule: warp_specialized_cooperative or stage_scales: false");
  else if (s.pdlWait == PdlWait::BeforeA)
    fail("is not built with pdl_wait: before_a (whose first loads are the weights alone)",
         "pdl_wait: before_loads or stage_scales: false");
  else if (s.blockM() % kWarpSize != 0)
    fail(formatv("copies BLOCK_M / {0} row scales a lane, but BLOCK_M = {1}", kWarpSize,
                 s.blockM())
             .str(),
         "stage_scales: false");
}

/// wait_ahead: the free-running (warp_specialized) consumers of a block-scaled
/// kernel, one part at a time with staged scales, wait for the next K tile's
/// stage under this K tile's part, as the cooperative turns do (session 42).
/// Not under pingpong, where the two carried values spilled (session 9).
void checkWaitAhead(const KernelSpec &s, Sink &out) {
  if (!s.mainloop.waitAhead)
    return;
  auto fail = [&](const std::string &why, llvm::StringRef wayOut) {
    add(out, "fold", "mainloop.wait_ahead",
        formatv("wait_ahead: true {0}; use {1}", why, wayOut));
  };
  if (!foldOnePart(s) || s.arch != Arch::SM90a)
    fail("is built for sm_90a block scaling one part at a time (fold_columns and fold_group: 1)",
         "wait_ahead: false");
  else if (!s.mainloop.stageScales)
    fail("reads the next K tile's staged scales under its part, but stage_scales is false",
         "stage_scales: true or wait_ahead: false");
  else if (s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong)
    fail("is not built under pingpong (the two values it carries spilled there)",
         "kernel_schedule: warp_specialized or wait_ahead: false");
}

/// unroll: the free-running block-scaled one-part K loop unrolled (session 42);
/// the cooperative loop's turns and the other loops are not.
void checkUnroll(const KernelSpec &s, Sink &out) {
  int64_t u = s.mainloop.unroll;
  if (u == 1)
    return;
  if (u < 1 || u > kMaxUnroll) {
    add(out, "value-range", "mainloop.unroll",
        formatv("unroll: {0} must lie in [1, {1}]; use unroll: 1 (not unrolled)", u, kMaxUnroll));
    return;
  }
  if (!foldOnePart(s) || s.arch != Arch::SM90a ||
      s.kernelSchedule != KernelSchedule::WarpSpecialized)
    add(out, "fold", "mainloop.unroll",
        formatv("unroll: {0} is built for the sm_90a block-scaled loop of free-running warpgroups "
                "(warp_specialized, fold_columns and fold_group: 1); use unroll: 1",
                u));
}

/// a_registers: each consumer warpgroup loads its 64 rows of A's stage tile
/// into wgmma's A fragment with ldmatrix once a K tile, and every part's
/// wgmma reads A from there (the register form): built for one part at a
/// time (fold_group: 1) of an FP8 A whose K-major tile row is one 128-byte
/// swizzle span, the one layout ldmatrix's 16-byte rows and wgmma's 8-bit A
/// fragment agree on without a shuffle.
void checkARegisters(const KernelSpec &s, Sink &out) {
  if (!s.mainloop.aRegisters)
    return;
  auto fail = [&](const std::string &why) {
    add(out, "fold", "mainloop.a_registers",
        formatv("a_registers: true {0}; use a_registers: false", why));
  };
  if (!foldOnePart(s) || s.arch != Arch::SM90a)
    fail("is built for sm_90a block scaling one part at a time (fold_columns and fold_group: 1)");
  else if (elementBytes(s.a.element) != 1 || s.a.layout != Layout::Row)
    fail("needs a K-major (row) FP8 A");
  else if (s.blockK() != 128 ||
           (s.mainloop.swizzle != Swizzle::B128 && s.mainloop.swizzle != Swizzle::Auto))
    fail(formatv("needs A's tile rows to be one 128-byte swizzle span (BLOCK_K = 128, "
                 "smem_swizzle: 128b), not BLOCK_K = {0}",
                 s.blockK())
             .str());
}

/// a_box_rows: A's TMA box is this many rows of the stage's tile, the
/// tile BLOCK_M / a_box_rows boxes one below the other, so that a tile over
/// M's edge skips the boxes wholly past M. Built where A's tile is one
/// swizzled slab (a box row is the tile row) and one CTA loads it.
void checkABoxRows(const KernelSpec &s, Sink &out) {
  int64_t rows = s.mainloop.aBoxRows;
  if (rows == 0)
    return;
  auto fail = [&](const char *rule, const std::string &why, const std::string &wayOut) {
    add(out, rule, "mainloop.a_box_rows",
        formatv("a_box_rows: {0} {1}; use {2}", rows, why, wayOut));
  };
  if (rows % 8 != 0 || rows < 8 || s.blockM() % rows != 0)
    return fail("tma-box",
                formatv("does not divide BLOCK_M = {0} into boxes of whole 8-row swizzle "
                        "atoms", s.blockM()).str(),
                "a multiple of 8 that divides BLOCK_M, or 0 (one box)");
  auto notYet = [&](const std::string &why) {
    out.push_back(Violation{"not-implemented", "mainloop.a_box_rows",
                            formatv("a_box_rows is built {0}; use a_box_rows: 0", why)});
  };
  int span = swizzleSpanBytes(s.mainloop.swizzle);
  if (s.arch != Arch::SM90a || s.mainloop.load != LoadKind::Tma)
    notYet("for sm_90a's TMA loads");
  else if (s.swapAb)
    notYet("without swap_ab (the swapped kernel's A is the caller's B)");
  else if (s.a.layout != Layout::Row || span <= 0 ||
           contiguousTileExtent(s, 0) * elementBytes(s.a.element) != span)
    notYet(formatv("where A's tile row is one swizzle span (K-major A, BLOCK_K x {0} B = "
                   "the smem_swizzle span)", elementBytes(s.a.element)).str());
  else if (s.mainloop.multicast && s.clusterShape[1] > 1)
    notYet("where one CTA loads A (not with A multicast along a cluster row)");
}

void checkPromotion(const KernelSpec &s, Sink &out) {
  int64_t n = s.mainloop.promotionInterval;
  if (n < 0)
    add(out, "promotion", "mainloop.promotion_interval",
        formatv("promotion_interval: {0} is negative; use 0 (no promotion) "
                "or a number of K tiles >= 1",
                n));
  // The second accumulator is added on the CUDA cores from the wgmma
  // fragment in registers; mma.sync (sm_80) sums in full f32 anyway and
  // tcgen05 (sm_100a) keeps its accumulator in tensor memory.
  else if (n > 0 && s.arch != Arch::SM90a)
    out.push_back(Violation{
        "not-implemented", "mainloop.promotion_interval",
        formatv("promotion_interval: {0} is not implemented on {1} ({2}); use "
                "promotion_interval: 0",
                n, archName(s.arch),
                isaFor(s.arch).hasTmem
                    ? "tcgen05.mma accumulates FP8 in full f32 in tensor "
                      "memory, so there is nothing to promote"
                    : "only sm_90a's wgmma accumulates FP8 with fewer bits "
                      "than f32 in registers")
            .str()});
}

/// register-budget with ctas_per_sm > 1: the arithmetic of the smaller
/// launch pool that computeResources derived the cap from.
void checkSharedPoolRegisters(const KernelSpec &s, const CtaResources &r,
                              llvm::StringRef who, Sink &out) {
  const DeviceInfo &dev = s.deviceInfo();
  int64_t consumers = r.threads - r.producerThreads;
  add(out, "register-budget", "ctas_per_sm",
      formatv("ctas_per_sm: {0} leaves each of the {1} threads {2} registers "
              "at launch ({3} an SM / ({0} x {1}), rounded down to {4}); less "
              "the {5} producer threads' {6}, the {7} consumer threads may "
              "grow to {8}, but {9}x{10} fp32 accumulators over {11} need {12} "
              "+ {13} overhead = {14}; use ctas_per_sm: 1 or a smaller "
              "tile_shape",
              s.ctasPerSm, r.threads, r.launchRegsPerThread, dev.regsPerSm,
              isa::kRegisterAllocUnit, r.producerThreads, r.producerRegs,
              consumers, r.regCapPerThread, s.blockM(), s.blockN(), who,
              r.accRegsPerThread, registerOverhead(s), r.regsPerThread));
}

/// ctas_per_sm: built where setmaxnreg moves registers within a launch pool
/// that gemmc-tile sizes with .minnctapersm (sm_90a, warp-specialized);
/// the threads of the CTAs an SM holds fit its thread limit.
void checkCtasPerSm(const KernelSpec &s, const CtaResources &r, Sink &out) {
  if (s.ctasPerSm == 1)
    return;
  if (s.arch != Arch::SM90a || r.producerThreads == 0) {
    out.push_back(Violation{
        "not-implemented", "ctas_per_sm",
        formatv("ctas_per_sm: {0} is built for sm_90a's warp-specialized "
                "kernels only (this is {1} with kernel_schedule: {2}); use "
                "ctas_per_sm: 1",
                s.ctasPerSm, archName(s.arch),
                kernelScheduleName(s.kernelSchedule))
            .str()});
    return;
  }
  const DeviceInfo &dev = s.deviceInfo();
  if (s.ctasPerSm * r.threads > dev.maxThreadsPerSm)
    add(out, "threads-per-block", "ctas_per_sm",
        formatv("ctas_per_sm: {0} x {1} threads = {2} exceeds the {3} threads "
                "an SM holds; use ctas_per_sm: 1",
                s.ctasPerSm, r.threads, s.ctasPerSm * r.threads,
                dev.maxThreadsPerSm));
}

void checkRegisterBudget(const KernelSpec &s, const CtaResources &r, Sink &out) {
  if (isaFor(s.arch).hasTmem) {
    // fp32 accumulators in tensor memory: one column per output column, a
    // lane per row.
    int64_t columns = r.tmemColumns;
    int64_t available = isaFor(s.arch).tmemColumns();
    if (columns > available)
      add(out, "register-budget", "tile_shape",
          formatv("BLOCK_N = {0} fp32 accumulator columns take {1} "
                  "tensor-memory columns (a power of two), more than the {2} "
                  "of an SM; use BLOCK_N <= {2}",
                  s.blockN(), columns, available));
    return;
  }
  if (r.regsPerThread <= r.regCapPerThread)
    return;
  std::string who =
      s.arch == Arch::SM80
          ? formatv("{0} threads", r.threads).str()
      : s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong
          // Each consumer warpgroup holds a whole tile of its own.
          ? std::string("one consumer warpgroup (pingpong gives each its own "
                        "tile)")
          : formatv("{0} consumer warpgroup{1}", r.consumerWarpgroups,
                    r.consumerWarpgroups == 1 ? "" : "s")
                .str();
  if (accumulatorCopies(s) > 1)
    return checkPromotionRegisters(s, r, who, out);
  if (s.ctasPerSm > 1)
    return checkSharedPoolRegisters(s, r, who, out);
  add(out, "register-budget", "tile_shape",
      formatv("{0}x{1} fp32 accumulators over {2} = {3} per thread + {4} "
              "overhead = {5} registers exceeds the {6} a thread may use "
              "here; use a smaller tile_shape{7}",
              s.blockM(), s.blockN(), who, r.accRegsPerThread,
              registerOverhead(s), r.regsPerThread, r.regCapPerThread,
              s.arch == Arch::SM90a &&
                      s.kernelSchedule != KernelSchedule::WarpSpecializedCooperative
                  ? " or kernel_schedule: warp_specialized_cooperative"
                  : ""));
}
} // namespace

std::vector<Violation> gemmc::checkValues(const KernelSpec &s) {
  Sink out;
  checkValueRange(s, out);
  checkSchemaVersion(s, out);
  checkDevice(s, out);
  return out;
}

std::vector<Violation> gemmc::checkSpec(const KernelSpec &s) {
  // Later rules do arithmetic on these values and read the device table.
  Sink out = checkValues(s);
  if (!out.empty())
    return out;
  checkArchFeatures(s, out);
  checkDtypeCombination(s, out);
  checkEpilogueFusion(s, out);
  checkOperandLayout(s, out);
  checkScale(s, out);
  CtaResources r = computeResources(s);
  checkMmaShape(s, r, out);
  checkKernelSchedule(s, out);
  checkThreads(s, r, out);
  checkTmaBox(s, out);
  checkStrideAlignment(s, out);
  checkClusterSize(s, out);
  checkMulticast(s, out);
  checkSmemBudget(s, r, out);
  checkPromotion(s, out);
  checkFoldColumns(s, out);
  checkStageScales(s, out);
  checkARegisters(s, out);
  checkWaitAhead(s, out);
  checkUnroll(s, out);
  checkABoxRows(s, out);
  checkRegisterBudget(s, r, out);
  checkCtasPerSm(s, r, out);
  return out;
}

KernelSpec gemmc::swapAbView(const KernelSpec &in) {
  KernelSpec s = in;
  auto flip = [](Layout l) { return l == Layout::Row ? Layout::Col : Layout::Row; };
  // B^T (N x K) is K-contiguous exactly when B is (col), which for an A
  // operand is spelt row; A^T likewise becomes a B operand.
  // FP8 scales go with their operands: A's per-row scale is the swapped
  // B's per-column one (checkScale refuses what the swap cannot run).
  auto swapScale = [](Scale x) {
    return x == Scale::Row ? Scale::Col : x == Scale::Col ? Scale::Row : x;
  };
  s.a = {in.b.element, flip(in.b.layout), swapScale(in.b.scale)};
  s.b = {in.a.element, flip(in.a.layout), swapScale(in.a.scale)};
  s.m = in.n;
  s.n = in.m;
  s.tileShape = {in.tileShape[1], in.tileShape[0], in.tileShape[2]};
  s.clusterShape = {in.clusterShape[1], in.clusterShape[0]};
  s.tileScheduler.raster =
      in.tileScheduler.raster == Raster::AlongM ? Raster::AlongN : Raster::AlongM;
  if (in.epilogue.bias != Bias::None)
    s.epilogue.bias = in.epilogue.bias == Bias::Row ? Bias::Col : Bias::Row;
  return s;
}
