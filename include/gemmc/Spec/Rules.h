//===- Rules.h - Hardware rules a schedule must satisfy ------------------===//
//
// Each rule is implemented once, here, and serves three clients: the spec
// validator (with YAML locations), the #gemmc.schedule attribute verifier
// (on IR) and the performance model (which reads the same resource figures).
// A violation names its rule, gives the numbers and says how to get out.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_RULES_H
#define GEMMC_SPEC_RULES_H

#include "gemmc/Spec/Spec.h"
#include "gemmc/Target/Isa.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>
#include <vector>

namespace gemmc {

/// One broken rule. `field` is the dotted spec path the error points at
/// ("mainloop.stages", "tile_shape"); the spec parser turns it into a
/// file:line:col.
struct Violation {
  llvm::StringRef rule;
  std::string field;
  std::string message;
  /// "[rule] message", the form every client prints.
  std::string str() const;
};

/// What a rule is for, for documentation and `gemmc --list-rules`.
struct RuleInfo {
  llvm::StringRef name;
  llvm::StringRef summary;
};
llvm::ArrayRef<RuleInfo> allRules();

/// Shared-memory, register and thread figures of one CTA: one derivation,
/// read by the rules, the model and the lowering.
struct CtaResources {
  int64_t aStageBytes = 0;     ///< one A tile: BLOCK_M x BLOCK_K
  int64_t bStageBytes = 0;     ///< one B tile: BLOCK_K x BLOCK_N
  int64_t stages = 0;
  int64_t epilogueBytes = 0;   ///< C staging buffers (TMA store), else 0
  int64_t epilogueChunks = 0;  ///< TMA store: chunks in a tile row
  int64_t epilogueBuffers = 0; ///< TMA store: the ring's chunk buffers
  int64_t barrierBytes = 0;    ///< mbarriers plus the swizzle alignment pad
  int64_t scaleBytes = 0;      ///< mainloop.stage_scales: a slot a stage (scaleSlotBytes), else 0
  int64_t smemBytes = 0;       ///< dynamic shared memory of one CTA
  int64_t threads = 0;
  int64_t consumerWarpgroups = 0;
  int64_t producerThreads = 0;  ///< threads set aside to issue loads
  int64_t accRegsPerThread = 0; ///< fp32 accumulators each MMA thread holds
  int64_t regsPerThread = 0;    ///< estimate: accumulators (twice with a promotion interval) + overhead
  int64_t regCapPerThread = 0;  ///< what the schedule lets a thread use
  /// sm_90a warp-specialized: the registers each thread starts with, its
  /// share of the launch pool that setmaxnreg moves registers within (the
  /// SM's file over ctas_per_sm x threads, rounded down); 0 elsewhere.
  int64_t launchRegsPerThread = 0;
  /// sm_90a warp-specialized: what the producer warpgroup keeps after
  /// setmaxnreg.dec (producerRegsFor); 0 elsewhere.
  int64_t producerRegs = 0;
  /// Tensor memory (sm_100a): accumulator buffers (2 lets a persistent
  /// CTA's epilogue of tile i overlap the MMAs of tile i + 1), and the
  /// columns tcgen05.alloc takes for them (a power of two, at least 32).
  /// With scale: block the accumulator buffers hold each K tile's partial
  /// (the MMA -> epilogue ring) and foldBuffers (1) the f32 sum the
  /// epilogue warpgroup folds them into, after them.
  int64_t accBuffers = 0;
  int64_t foldBuffers = 0;
  int64_t tmemColumns = 0;

  int64_t stageBytes() const { return aStageBytes + bStageBytes; }
};

/// Registers an MMA thread needs beyond its accumulators (addresses, loop
/// state, fragments). A rough constant; docs/model.md says where it is wrong.
constexpr int64_t kRegisterOverhead = 40;
/// The same for a consumer warpgroup of block scaling one part at a time
/// (fold_group: 1) on sm_90a's warp-specialized schedules: its operands and
/// scales are read from shared memory that a producer warpgroup fills, and
/// ptxas keeps the descriptors and addresses in uniform registers. ptxas
/// fits the three-warpgroup 192x128 kernel (64 f32 sums + a 64-register
/// part) in 160 with no spill (bench/RESULTS.md, session 16), which
/// kRegisterOverhead would refuse (168). Not wider: with 32 for every
/// sm_90a kernel, multistage 256x160 and 256x192 spilled and a 640-thread
/// warp_specialized 256x160 failed in ptxas (C7602).
constexpr int64_t kFoldOnePartRegisterOverhead = 32;
/// kFoldOnePartRegisterOverhead where it applies, else kRegisterOverhead.
int64_t registerOverhead(const KernelSpec &spec);
/// The most stages a schedule may have: the value-range rule's bound, and
/// #gemmc.smem_layout's verifier's.
constexpr int64_t kMaxStages = 32;
/// The TMA-store epilogue stages C through shared memory in chunks one
/// 128-byte swizzle span wide (64 bf16 or 32 f32 columns) and as tall as a
/// warpgroup's rows, through a ring of chunk buffers per warpgroup: at least
/// kMinEpilogueBuffers (one filled while TMA stores the other; see
/// minEpilogueBuffers), and as many
/// as the shared memory left by the stages holds, up to a whole tile row
/// (then a warpgroup waits once a tile, for the previous tile's stores).
constexpr int64_t kMinEpilogueBuffers = 2;
constexpr int64_t kEpilogueChunkRowBytes = isa::kWidestSwizzleSpan;
/// The smallest ring a schedule's TMA-store epilogue takes for tile rows of
/// `chunks` chunks: kMinEpilogueBuffers (1 for pingpong, whose other
/// warpgroup computes while one stores), lowered to a divisor of `chunks`.
/// Any ring divides `chunks`.
int64_t minEpilogueBuffers(const KernelSpec &spec, int64_t chunks);

/// Registers the producer warpgroup of a warp-specialized kernel keeps after
/// `setmaxnreg.dec` (Isa.h's; this name for the passes that use it).
constexpr int64_t kProducerRegs = isa::kProducerRegs;
/// The most accumulators a consumer thread holds beside a producer at
/// kProducerRegs (128x256 cooperative, 128x128 pingpong: 128).
constexpr int64_t kAccRegsBesideProducerRegs = 128;
/// The producer's registers beside `consumerWarpgroups` consumers holding
/// `accRegsPerThread` accumulators each: three or more consumers share a
/// 512-thread launch pool of 128 registers a thread, where kProducerRegs
/// would leave each consumer 152, and two pingpong consumers with 192
/// accumulators (128x192) need every register of the 384-thread pool;
/// setmaxnreg's floor leaves them 160 and 240 (the producer issues TMA and
/// copies scales: session 7 found every producer fits in 24).
constexpr int64_t producerRegsFor(int64_t consumerWarpgroups, int64_t accRegsPerThread) {
  return consumerWarpgroups >= 3 || accRegsPerThread > kAccRegsBesideProducerRegs
             ? int64_t(isa::kSetmaxnregMin)
             : kProducerRegs;
}

/// Fill every `auto` (threads, stages, swizzle, load, store) from the
/// hardware database. Idempotent. Rules may still fail afterwards.
void resolveAuto(KernelSpec &spec);

/// Contiguous extent, in elements, of operand A (0) or B (1) inside one tile:
/// BLOCK_K for K-major operands, BLOCK_M / BLOCK_N otherwise.
int64_t contiguousTileExtent(const KernelSpec &spec, int operand);

/// The CTA's figures for a resolved spec.
CtaResources computeResources(const KernelSpec &spec);

/// The rules that make a spec safe to compute with: sizes in range, a known
/// schema version and device. resolveAuto() needs these to hold.
std::vector<Violation> checkValues(const KernelSpec &spec);

/// Every rule, in the order of allRules(). Empty = the schedule is legal.
/// The spec should be resolved (resolveAuto) first.
std::vector<Violation> checkSpec(const KernelSpec &spec);

/// swap_ab's other view of a spec: A and B exchanged (each layout flipped,
/// since B^T of a K-contiguous B is a K-contiguous A), M and N, BLOCK_M and
/// BLOCK_N, the raster's direction and the bias's orientation exchanged.
/// Its own inverse: it turns a file's (user's) view into the kernel's and
/// back. swapAb itself stays set in both.
KernelSpec swapAbView(const KernelSpec &spec);

/// "48 KiB", "1.5 KiB", "300 B": sizes as the messages print them.
std::string formatBytes(int64_t bytes);

} // namespace gemmc

#endif // GEMMC_SPEC_RULES_H
