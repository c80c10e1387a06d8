//===- Sm90a.cpp - What the sm_90a lowering builds -----------------------===//
//
// The sm_90a kernels: TMA loads into a 128-byte-swizzled stage ring,
// mbarriers, wgmma on 16-bit operands, one or two consumer warpgroups of
// isaFor(SM90a).warpgroupRows rows each, a TMA or direct store of C.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Isa.h"
#include "llvm/Support/FormatVariadic.h"

using namespace gemmc;
using llvm::formatv;

int64_t gemmc::wgmmaColumns(const KernelSpec &spec, const KernelAbi &abi,
                            int64_t requested, std::string &why) {
  auto instr = mmaInstrShape(spec.arch, spec.a.element);
  int64_t blockN = spec.blockN();
  if (!instr || instr->family != MmaFamily::Wgmma) {
    why = "wgmma columns apply to sm_90a only";
    return 0;
  }
  // An N-major B tile is read in slabs one swizzle span wide: a wgmma's
  // columns start on a slab.
  int64_t slab = abi.b.kMajor ? instr->nStep : slabColumns(abi.b, spec.b.element);
  auto fits = [&](int64_t n) {
    return n >= instr->nMin && n <= instr->nMax && n % instr->nStep == 0 &&
           n % slab == 0 && blockN % n == 0;
  };
  if (requested != 0) {
    if (fits(requested))
      return requested;
    why = llvm::formatv("wgmma-n {0} does not fit BLOCK_N {1}: it must divide it, be a "
                        "multiple of {2} between {3} and {4}{5}",
                        requested, blockN, instr->nStep, instr->nMin, instr->nMax,
                        abi.b.kMajor ? std::string()
                                     : llvm::formatv(" and a multiple of B's {0}-column slab", slab)
                                           .str())
              .str();
    return 0;
  }
  // Measured on the H200 (bench/RESULTS.md, 2026-11-29): a 128x256
  // cooperative tile as two interleaved 64x128 instructions per warpgroup and
  // k step ran within 0.7% of one 64x256, slower on three of four shapes; the
  // single instruction issues half as many wgmmas and reads A once.
  return blockN;
}

bool gemmc::sm90aLowersOperands(ElementType a, ElementType b) {
  // wgmma's 16-bit and tf32 forms multiply equal types; its FP8 form takes
  // any pair of e4m3 and e5m2.
  bool sixteenBit = a == ElementType::BF16 || a == ElementType::F16;
  return ((sixteenBit || a == ElementType::TF32) && b == a) ||
         (isFP8(a) && isFP8(b));
}

namespace {
/// The widest tile a pingpong warpgroup computes in two 64-row wgmma blocks
/// (BLOCK_M = 128): its accumulators and the K loop's registers fit the
/// consumers' 240.
constexpr int64_t kPingpongTwoBlockMaxN = 192;

/// Where a stream_k refusal applies besides its schedules: any cluster
/// shape, a cluster, or a cluster other than the [2, 1] pair.
enum class StreamKCluster { Any, Cluster, ClusterNotPair };

constexpr unsigned scheduleBit(KernelSchedule k) { return 1u << static_cast<unsigned>(k); }

/// One stream_k refusal on sm_90a: under the schedules of `schedules` (a
/// mask of scheduleBit), where `cluster` says, and (with `splitK`) only at
/// split_k != 1, `field` is refused with `text`. Within a chain the first
/// row that applies refuses and the others are passed over; the two chains
/// refuse independently (a spec may get one diagnostic from each).
struct StreamKRefusal {
  int chain;
  unsigned schedules;
  StreamKCluster cluster;
  bool splitK;
  const char *field;
  std::string (*text)(const KernelSpec &);

  bool applies(const KernelSpec &s) const {
    bool inCluster = s.clusterSize() != 1;
    bool pair = s.clusterShape[0] == 2 && s.clusterShape[1] == 1;
    if (!(schedules & scheduleBit(s.kernelSchedule)))
      return false;
    if (cluster == StreamKCluster::Cluster && !inCluster)
      return false;
    if (cluster == StreamKCluster::ClusterNotPair && (!inCluster || pair))
      return false;
    return !splitK || s.tileScheduler.splitK != 1;
  }
};

constexpr unsigned kAnySchedule =
    scheduleBit(KernelSchedule::Multistage) | scheduleBit(KernelSchedule::WarpSpecialized) |
    scheduleBit(KernelSchedule::WarpSpecializedCooperative) |
    scheduleBit(KernelSchedule::WarpSpecializedPingpong);

const StreamKRefusal kStreamKRefusals[] = {
    // Chain 0, by schedule. Multistage has no stream_k.
    {0, scheduleBit(KernelSchedule::Multistage), StreamKCluster::Any, false, "kernel_schedule",
     [](const KernelSpec &s) {
       return formatv("tile_scheduler kind stream_k with kernel_schedule: {0} is not "
                      "implemented yet; use warp_specialized_cooperative",
                      kernelScheduleName(s.kernelSchedule))
           .str();
     }},
    // stream_k under pingpong: built for one CTA (no cluster) and split_k 1,
    // the warpgroups taking the CTA's pieces in turns
    // (buildPingpongConsumers).
    {0, scheduleBit(KernelSchedule::WarpSpecializedPingpong), StreamKCluster::Cluster, false,
     "cluster_shape",
     [](const KernelSpec &s) {
       return formatv("tile_scheduler kind stream_k with warp_specialized_pingpong and "
                      "cluster_shape [{0}, {1}] is not implemented yet; use cluster_shape "
                      "[1, 1] or warp_specialized_cooperative",
                      s.clusterShape[0], s.clusterShape[1])
           .str();
     }},
    {0, scheduleBit(KernelSchedule::WarpSpecializedPingpong), StreamKCluster::Any, true,
     "tile_scheduler.split_k",
     [](const KernelSpec &s) {
       return formatv("split_k {0} with warp_specialized_pingpong is not implemented "
                      "yet; use split_k: 1 (stream_k) or warp_specialized_cooperative",
                      s.tileScheduler.splitK)
           .str();
     }},
    // Chain 1, in a cluster: built for the [2, 1] pair (B multicast) of the
    // cooperative kernel, whose work unit is the cluster tile: both CTAs
    // take the same pieces (the same K ranges, each its own M half), and
    // each has its own workspace slot (cluster x 2 + rank). split_k's
    // one-CTA-a-piece grid is not built for clusters. (A [2, 1] without
    // multicast: the cluster check after this table; multistage, and
    // pingpong in a cluster: chain 0.)
    {1, kAnySchedule & ~scheduleBit(KernelSchedule::WarpSpecializedPingpong),
     StreamKCluster::ClusterNotPair, false, "cluster_shape",
     [](const KernelSpec &s) {
       return formatv("tile_scheduler kind stream_k with cluster_shape [{0}, {1}] is not "
                      "implemented yet; use cluster_shape [2, 1] (with multicast: true) or "
                      "[1, 1]",
                      s.clusterShape[0], s.clusterShape[1])
           .str();
     }},
    {1, scheduleBit(KernelSchedule::WarpSpecialized), StreamKCluster::Cluster, false,
     "kernel_schedule",
     [](const KernelSpec &s) {
       return formatv("tile_scheduler kind stream_k in a cluster with kernel_schedule: {0} is "
                      "not implemented yet; use warp_specialized_cooperative or cluster_shape "
                      "[1, 1]",
                      kernelScheduleName(s.kernelSchedule))
           .str();
     }},
    {1, kAnySchedule, StreamKCluster::Cluster, true, "tile_scheduler.split_k",
     [](const KernelSpec &s) {
       return formatv("split_k {0} with a cluster is not implemented yet; use split_k: 1 "
                      "(stream_k) or cluster_shape [1, 1]",
                      s.tileScheduler.splitK)
           .str();
     }},
};

/// Adds one `not-implemented` refusal of a field.
using Refuse = llvm::function_ref<void(llvm::StringRef, std::string)>;

/// The tile shapes each warp-specialized schedule builds.
void refuseTiles(const KernelSpec &s, Refuse no) {
  // The rows of one consumer warpgroup's wgmma.
  const int64_t wgRows = isaFor(Arch::SM90a).warpgroupRows;
  // Pingpong: each consumer warpgroup computes whole tiles of one or two
  // wgmma row blocks (BLOCK_M = 128 is cuBLASLt OUTER_VEC's 128x128 FP8
  // kernel). Two row blocks take the plain K loop (no block-scale folds)
  // and C in its own orientation (no swap_ab).
  bool pingpong = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong;
  if (pingpong && s.blockM() != wgRows && s.blockM() != 2 * wgRows)
    no("tile_shape",
       formatv("warp_specialized_pingpong with BLOCK_M = {0} is not "
               "implemented yet (each consumer warpgroup computes a whole "
               "tile in one or two {1}-row wgmma blocks); use BLOCK_M = {1} "
               "or {2}",
               s.blockM(), wgRows, 2 * wgRows)
           .str());
  else if (pingpong && s.blockM() == 2 * wgRows && s.blockN() > kPingpongTwoBlockMaxN)
    // 128 x BLOCK_N / 128 accumulators a thread: 128x128 is cuBLASLt's
    // tile; 128x192 (192 of the 240 registers the producer's floor leaves)
    // fills the 8192 cubes' last wave (20.8 waves of 128x192 against 31.03
    // of 128x128).
    no("tile_shape",
       formatv("warp_specialized_pingpong with BLOCK_M = {0} and BLOCK_N = "
               "{1} is not implemented yet ({1} accumulators a thread; two "
               "row blocks a warpgroup are built up to BLOCK_N = {3}); use "
               "BLOCK_N <= {3} or BLOCK_M = {2}",
               s.blockM(), s.blockN(), wgRows, kPingpongTwoBlockMaxN)
           .str());
  else if (pingpong && s.blockM() == 2 * wgRows && s.blockScaled())
    no("operands.a.scale",
       formatv("warp_specialized_pingpong with BLOCK_M = {0} and scale: "
               "block is not implemented yet (two row blocks a warpgroup are "
               "built for the plain K loop, not the block scales' folds); use "
               "BLOCK_M = {1}",
               s.blockM(), wgRows)
           .str());
  else if (pingpong && s.blockM() == 2 * wgRows && s.swapAb)
    // The swapped kernel's BLOCK_M is the spec's BLOCK_N.
    no("swap_ab",
       formatv("swap_ab with warp_specialized_pingpong and BLOCK_N = {0} is "
               "not implemented yet (the swapped kernel's {0}-row tile is two "
               "row blocks a warpgroup, whose transposed stores are not "
               "built); use BLOCK_N = {1} or swap_ab: false",
               s.blockM(), wgRows)
           .str());
  if (s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative &&
      s.blockM() != 2 * wgRows)
    no("tile_shape",
       formatv("warp_specialized_cooperative with BLOCK_M = {0} is not "
               "implemented yet (each consumer warpgroup takes {1} rows); use "
               "BLOCK_M = {2}",
               s.blockM(), wgRows, 2 * wgRows)
           .str());
}

/// Clusters: the shapes, schedules and multicast layouts built.
void refuseClusters(const KernelSpec &s, Refuse no) {
  // The 128-byte swizzle span the slabs of an N-major B are cut in.
  const int64_t span = isa::kWidestSwizzleSpan;
  // Clusters of up to 2 CTAs each way, with multicast: a pair along M
  // shares B, a pair along N shares A, [2, 2] both.
  bool built = s.clusterShape[0] <= 2 && s.clusterShape[1] <= 2;
  bool pairAlongM = s.clusterShape[0] == 2;
  int64_t bSlab = span / elementBytes(s.b.element);
  if (s.clusterSize() != 1 && !(built && s.mainloop.multicast))
    no("cluster_shape",
       formatv("cluster_shape [{0}, {1}]{2} is not implemented yet; use [2, "
               "1] (B shared along M), [1, 2] (A shared along N) or [2, 2] "
               "with multicast: true, or [1, 1]",
               s.clusterShape[0], s.clusterShape[1],
               s.mainloop.multicast ? "" : " without multicast")
           .str());
  else if (s.clusterSize() != 1 && s.kernelSchedule == KernelSchedule::Multistage)
    no("kernel_schedule", "clusters with kernel_schedule: multistage are not "
                          "implemented yet; use warp_specialized_cooperative");
  else if (pairAlongM && s.b.layout == Layout::Row &&
           (s.blockN() / bSlab) % 2 != 0)
    // Each CTA of the pair multicasts half of B's slabs.
    no("tile_shape", formatv("multicasting a row-major B of BLOCK_N = {0} "
                             "(an odd number of {1}-column slabs) is not "
                             "implemented yet; use BLOCK_N a multiple of {2}",
                             s.blockN(), bSlab, 2 * bSlab)
                         .str());
}

/// Programmatic dependent launch: what may come before the wait.
void refusePdl(const KernelSpec &s, Refuse no) {
  // The scales are read at kernel entry, before griddepcontrol.wait: a
  // previous kernel that writes them would race with that read.
  if (s.pdlWait != PdlWait::None &&
      (s.a.scale != Scale::None || s.b.scale != Scale::None))
    no("pdl_wait", "pdl_wait with FP8 scales is not implemented yet (the "
                   "kernel reads the scales at entry, before the wait); use "
                   "pdl_wait: none");
  // before_a: the producer loads the first tile's weights before the wait.
  // Built where there is one producer thread and the CTA's first piece is
  // a whole tile whose stages only this CTA fills.
  if (s.pdlWait == PdlWait::BeforeA) {
    const char *why = nullptr;
    if (s.kernelSchedule == KernelSchedule::Multistage)
      why = "kernel_schedule: multistage (no producer warp)";
    else if (s.tileScheduler.kind == TileSchedulerKind::StreamK || s.tileScheduler.splitK != 1)
      why = "stream_k or split_k (the first piece may start inside a tile)";
    else if (s.clusterSize() > 1)
      why = "a cluster (peers write into this CTA's stages)";
    if (why)
      no("pdl_wait", formatv("pdl_wait: before_a with {0} is not implemented "
                             "yet; use pdl_wait: before_loads",
                             why)
                         .str());
  }
}
} // namespace

void gemmc::sm90aUnsupported(const KernelSpec &s, std::vector<Violation> &out) {
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  refuseTiles(s, no);
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK) {
    bool refused[2] = {false, false};
    for (const StreamKRefusal &r : kStreamKRefusals)
      if (!refused[r.chain] && r.applies(s)) {
        refused[r.chain] = true;
        no(r.field, r.text(s));
      }
  }
  refuseClusters(s, no);
  if (!sm90aLowersOperands(s.a.element, s.b.element))
    no("operands.a.element",
       formatv("{0} x {1} operands are not implemented yet; use bf16, f16, "
               "tf32 or FP8 (e4m3, e5m2)",
               elementTypeName(s.a.element), elementTypeName(s.b.element))
           .str());
  refusePdl(s, no);
  // Scale vectors multiply the sum in the fused epilogue's math, which comes
  // after beta x C is added.
  bool vectors = s.a.scale == Scale::Row || s.b.scale == Scale::Col;
  if (vectors && s.epilogue.beta)
    no("epilogue.beta", "beta with a scale per row or column is not "
                        "implemented yet (the epilogue would scale beta x C "
                        "too); use beta: false or scale: tensor");
  if (s.a.layout != Layout::Row)
    no("operands.a.layout",
       "a col-major A (M contiguous) is not implemented yet; use layout: row");
  refuseUnbuiltTmaKernel(s, "wgmma", out);
}
