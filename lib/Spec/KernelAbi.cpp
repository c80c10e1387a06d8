//===- KernelAbi.cpp - What a compiled kernel expects from its launcher --===//
#include "gemmc/Spec/KernelAbi.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace gemmc;
using llvm::formatv;

static TensorMapPlan planOperand(const KernelSpec &s, int operand) {
  TensorMapPlan p;
  const OperandSpec &op = operand == 0 ? s.a : s.b;
  p.operand = operand == 0 ? 'a' : 'b';
  p.kMajor = operand == 0 ? op.layout == Layout::Row : op.layout == Layout::Col;
  int eb = elementBytes(op.element);
  p.swizzleBytes = swizzleSpanBytes(s.mainloop.swizzle);
  int64_t inner = contiguousTileExtent(s, operand);
  // The other tile dimension: rows of the box.
  int64_t rows = operand == 0 ? (p.kMajor ? s.blockM() : s.blockK())
                              : (p.kMajor ? s.blockN() : s.blockK());
  int64_t span = p.swizzleBytes ? p.swizzleBytes / eb : inner;
  p.box[0] = std::min(inner, span);
  p.box[1] = rows;
  p.loadsPerStage = inner / p.box[0];
  p.slabBytes = p.box[0] * rows * eb;
  p.partBytes = p.loadsPerStage * p.slabBytes;
  // With a cluster along M and multicast, the CTAs of the cluster share B:
  // each loads one part (a slice of the box rows when K-major, a share of
  // the slabs when N-major) into all of them.
  if (operand == 1 && s.mainloop.multicast && s.clusterShape[0] > 1) {
    p.multicast = s.clusterShape[0];
    if (p.kMajor)
      p.box[1] = rows / p.multicast;
    else
      p.loadsPerStage /= p.multicast;
    p.partBytes /= p.multicast;
  }
  return p;
}

int64_t gemmc::streamKWorkspaceBytesPerCta(const KernelSpec &s) {
  // One flag line, then the fp32 accumulators of one tile.
  return kStreamKFlagBytes + s.blockM() * s.blockN() * 4;
}

/// The TMA store of C: a warpgroup's rows (one wgmma M) by one 128-byte
/// swizzle span of columns, the chunk the epilogue stages in shared memory.
static TensorMapPlan planStore(const KernelSpec &s) {
  TensorMapPlan p;
  p.operand = 'c';
  p.swizzleBytes = kEpilogueChunkRowBytes;
  p.box[0] = kEpilogueChunkRowBytes / elementBytes(s.c.element);
  p.box[1] = mmaInstrShape(s.arch, s.a.element)->m;
  // One chunk buffer; computeResources counts the chunks of a tile row.
  p.partBytes = p.box[0] * p.box[1] * elementBytes(s.c.element);
  return p;
}

KernelAbi gemmc::describeKernelAbi(const KernelSpec &s) {
  KernelAbi abi;
  CtaResources r = computeResources(s);
  abi.kernelName = s.name;
  abi.block[0] = r.threads;
  abi.cluster[0] = s.clusterShape[0];
  abi.cluster[1] = s.clusterShape[1];
  abi.dynamicSmemBytes = r.smemBytes;
  abi.a = planOperand(s, 0);
  abi.b = planOperand(s, 1);
  abi.params = {"tmap_a", "tmap_b"};
  if (s.epilogue.store == StoreKind::Tma && mmaInstrShape(s.arch, s.a.element)) {
    abi.c = planStore(s);
    abi.params.push_back("tmap_c");
  }
  abi.params.insert(abi.params.end(), {"c", "m", "n", "k", "ldc"});
  if (s.epilogue.alpha)
    abi.params.push_back("alpha");
  if (s.epilogue.beta)
    abi.params.push_back("beta");
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK) {
    abi.workspaceBytesPerCta = streamKWorkspaceBytesPerCta(s);
    abi.params.push_back("workspace");
  }
  return abi;
}

std::string gemmc::kernelManifestJson(const KernelSpec &s, const KernelAbi &abi,
                                      const ManifestProvenance &provenance) {
  using llvm::json::Array;
  using llvm::json::Object;
  auto operand = [](const OperandSpec &op) {
    return Object{{"element", elementTypeName(op.element)},
                  {"layout", layoutName(op.layout)}};
  };
  auto tmap = [](const TensorMapPlan &p) {
    return Object{{"operand", std::string(1, p.operand)},
                  {"box", Array{p.box[0], p.box[1]}},
                  {"swizzle", p.swizzleBytes}};
  };
  Array params;
  for (const std::string &p : abi.params)
    params.push_back(p);
  Object root{
      {"format", "gemmc-manifest"},
      {"version", 1},
      {"kernel", abi.kernelName},
      {"arch", archName(s.arch)},
      {"device", s.deviceInfo().name},
      {"block", Array{abi.block[0], abi.block[1], abi.block[2]}},
      {"cluster", Array{abi.cluster[0], abi.cluster[1], abi.cluster[2]}},
      {"dynamic_smem_bytes", abi.dynamicSmemBytes},
      {"tile", Array{s.blockM(), s.blockN(), s.blockK()}},
      {"problem", Object{{"m", s.m.value}, {"n", s.n.value}, {"k", s.k.value}}},
      {"a", operand(s.a)},
      {"b", operand(s.b)},
      {"c", operand(s.c)},
      {"tensor_maps", storesWithTma(abi)
                          ? Array{tmap(abi.a), tmap(abi.b), tmap(abi.c)}
                          : Array{tmap(abi.a), tmap(abi.b)}},
      {"grid", Object{{"scheduler", tileSchedulerKindName(s.tileScheduler.kind)},
                      {"raster", rasterName(s.tileScheduler.raster)},
                      {"group", s.tileScheduler.group}}},
      {"params", std::move(params)},
  };
  if (abi.workspaceBytesPerCta)
    root["workspace_bytes_per_cta"] = abi.workspaceBytesPerCta;
  if (!provenance.gemmcVersion.empty())
    root["gemmc_version"] = provenance.gemmcVersion;
  if (!provenance.specSha256.empty())
    root["spec_sha256"] = provenance.specSha256;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return out;
}

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

std::vector<Violation> gemmc::checkLoweringSupport(const KernelSpec &s) {
  std::vector<Violation> out;
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  if (s.arch != Arch::SM90a) {
    no("arch", formatv("code generation for {0} is not implemented yet; "
                       "gemmc lowers sm_90a schedules (use gemmc analyze for "
                       "{0})",
                       archName(s.arch))
                   .str());
    return out;
  }
  if (s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong &&
      s.blockM() != 64)
    no("tile_shape",
       formatv("warp_specialized_pingpong with BLOCK_M = {0} is not "
               "implemented yet (each consumer warpgroup computes a whole "
               "tile with one 64-row wgmma); use BLOCK_M = 64",
               s.blockM())
           .str());
  if (s.kernelSchedule == KernelSchedule::WarpSpecializedCooperative &&
      s.blockM() != 128)
    no("tile_shape",
       formatv("warp_specialized_cooperative with BLOCK_M = {0} is not "
               "implemented yet (each consumer warpgroup takes 64 rows); use "
               "BLOCK_M = 128",
               s.blockM())
           .str());
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK &&
      (s.kernelSchedule == KernelSchedule::Multistage ||
       s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong))
    no("kernel_schedule",
       formatv("tile_scheduler kind stream_k with kernel_schedule: {0} is not "
               "implemented yet; use warp_specialized_cooperative",
               kernelScheduleName(s.kernelSchedule))
           .str());
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK && s.clusterSize() != 1)
    no("cluster_shape", "tile_scheduler kind stream_k with a cluster is not "
                        "implemented yet; use cluster_shape [1, 1]");
  if (s.tileScheduler.splitK != 1)
    no("tile_scheduler.split_k", "split_k > 1 is not implemented yet; use 1");
  bool pairAlongM = s.clusterShape[0] == 2 && s.clusterShape[1] == 1;
  if (s.clusterSize() != 1 && !(pairAlongM && s.mainloop.multicast))
    no("cluster_shape",
       formatv("cluster_shape [{0}, {1}]{2} is not implemented yet; use [2, "
               "1] with multicast: true (B shared along M) or [1, 1]",
               s.clusterShape[0], s.clusterShape[1],
               s.mainloop.multicast ? "" : " without multicast")
           .str());
  else if (s.clusterSize() != 1 && s.kernelSchedule == KernelSchedule::Multistage)
    no("kernel_schedule", "clusters with kernel_schedule: multistage are not "
                          "implemented yet; use warp_specialized_cooperative");
  else if (s.clusterSize() != 1 && s.b.layout == Layout::Row &&
           (s.blockN() / 64) % 2 != 0)
    no("tile_shape", formatv("multicasting a row-major B of BLOCK_N = {0} "
                             "(an odd number of 64-column slabs) is not "
                             "implemented yet; use BLOCK_N a multiple of 128",
                             s.blockN())
                         .str());
  if (s.epilogue.store == StoreKind::Tma &&
      (s.blockN() * elementBytes(s.c.element)) % kEpilogueChunkRowBytes != 0)
    no("tile_shape",
       formatv("store: tma with BLOCK_N = {0} ({1} bytes of C per tile row) "
               "is not implemented yet: the epilogue stores chunks of {2} "
               "bytes; use BLOCK_N a multiple of {3} or store: direct",
               s.blockN(), s.blockN() * elementBytes(s.c.element),
               kEpilogueChunkRowBytes,
               kEpilogueChunkRowBytes / elementBytes(s.c.element))
           .str());
  if (s.epilogue.bias != Bias::None)
    no("epilogue.bias", "a bias is not implemented yet; use bias: none");
  if (s.epilogue.activation != Activation::None)
    no("epilogue.activation",
       "activations are not implemented yet; use activation: none");
  bool sixteenBit = (s.a.element == ElementType::BF16 ||
                     s.a.element == ElementType::F16) &&
                    s.b.element == s.a.element;
  if (!sixteenBit)
    no("operands.a.element",
       formatv("{0} x {1} operands are not implemented yet; use bf16 or f16",
               elementTypeName(s.a.element), elementTypeName(s.b.element))
           .str());
  if (s.a.layout != Layout::Row)
    no("operands.a.layout",
       "a col-major A (M contiguous) is not implemented yet; use layout: row");
  if (s.mainloop.swizzle != Swizzle::B128)
    no("mainloop.smem_swizzle",
       formatv("smem_swizzle {0} is not implemented yet; use 128b (a tile "
               "whose K row is 128 bytes)",
               swizzleName(s.mainloop.swizzle))
           .str());
  else if (s.blockK() * elementBytes(s.a.element) != 128)
    no("tile_shape",
       formatv("BLOCK_K = {0} ({1} bytes of K per row) is not implemented "
               "yet; the wgmma mainloop takes one 128-byte swizzle span of K "
               "per stage: use BLOCK_K = {2}",
               s.blockK(), s.blockK() * elementBytes(s.a.element),
               128 / elementBytes(s.a.element))
           .str());
  if (s.mainloop.stages < 2)
    no("mainloop.stages", "stages = 1 leaves no buffer to load while the "
                          "other is multiplied; use stages >= 2");
  return out;
}
