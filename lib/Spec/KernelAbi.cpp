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
  // A swizzled box row is at most one span. Unswizzled, TMA writes the box
  // row-major, which the MMAs read as their core matrices (8 rows of 16
  // bytes) only when the row is one 16-byte unit: the tile comes in slabs
  // of one unit each (cp.async copies its own rows and takes the whole).
  int64_t span = p.swizzleBytes                      ? p.swizzleBytes / eb
                 : s.mainloop.load == LoadKind::Tma ? isa::kSwizzleUnitBytes / eb
                                                     : inner;
  p.box[0] = std::min(inner, span);
  p.box[1] = rows;
  p.loadsPerStage = inner / p.box[0];
  p.slabBytes = p.box[0] * rows * eb;
  p.partBytes = p.loadsPerStage * p.slabBytes;
  // With a cluster along M and multicast, the CTAs of the cluster share B:
  // each loads one part (a slice of the box rows when K-major, a share of
  // the slabs when N-major) into all of them.
  // Likewise along N the CTAs share A (clusterShape[1] of them).
  int64_t sharing = operand == 0 ? s.clusterShape[1] : s.clusterShape[0];
  if (s.mainloop.multicast && sharing > 1) {
    p.multicast = sharing;
    if (p.kMajor)
      p.box[1] = rows / p.multicast;
    else
      p.loadsPerStage /= p.multicast;
    p.partBytes /= p.multicast;
  }
  // A in boxes of a_box_rows rows (checkABoxRows: K-major, one slab, no
  // multicast): the same tile in the same place, a box at a time.
  if (operand == 0 && s.mainloop.aBoxRows > 0 && s.mainloop.aBoxRows < rows) {
    p.box[1] = s.mainloop.aBoxRows;
    p.rowBoxes = rows / s.mainloop.aBoxRows;
  }
  return p;
}

int64_t gemmc::streamKWorkspaceBytesPerCta(const KernelSpec &s) {
  // One flag line, then the fp32 accumulators of one tile.
  return kStreamKFlagBytes + s.blockM() * s.blockN() * elementBytes(ElementType::F32);
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
  // cp.async (sm_80) reads A and B through plain pointers and their
  // leading dimensions; TMA through tensor maps the launcher encodes.
  bool tensorMaps = s.mainloop.load == LoadKind::Tma;
  if (tensorMaps)
    abi.params = {"tmap_a", "tmap_b"};
  else
    abi.params = {"a", "b"};
  if (s.epilogue.store == StoreKind::Tma && mmaInstrShape(s.arch, s.a.element)) {
    abi.c = planStore(s);
    abi.params.push_back("tmap_c");
  }
  abi.params.insert(abi.params.end(), {"c", "m", "n", "k", "ldc"});
  if (!tensorMaps)
    abi.params.insert(abi.params.end(), {"lda", "ldb"});
  if (s.epilogue.alpha)
    abi.params.push_back("alpha");
  if (s.epilogue.beta)
    abi.params.push_back("beta");
  // Fused epilogue operands: a bias vector (M or N long) and the auxiliary
  // output (C's shape, element and ldc).
  if (s.epilogue.bias != Bias::None)
    abi.params.push_back("bias");
  if (s.epilogue.aux)
    abi.params.push_back("aux");
  // Per-tensor dequantization scales: pointers to one f32 each, read by the
  // kernel at each launch (docs/abi.md).
  if (s.a.scale != Scale::None)
    abi.params.push_back("scale_a");
  if (s.b.scale != Scale::None)
    abi.params.push_back("scale_b");
  // An FP8 output's scale (c scale: tensor): one f32, read by the epilogue.
  if (s.c.scale != Scale::None)
    abi.params.push_back("scale_d");
  if (s.tileScheduler.kind == TileSchedulerKind::StreamK) {
    abi.workspaceBytesPerCta = streamKWorkspaceBytesPerCta(s);
    abi.params.push_back("workspace");
  }
  return abi;
}

/// The manifest speaks the caller's terms: the runtime binds parameters
/// and tensor maps by these names.
std::string gemmc::callerParamName(llvm::StringRef kernelName, bool swapAb) {
  static const std::pair<llvm::StringRef, llvm::StringRef> partners[] = {
      {"tmap_a", "tmap_b"}, {"a", "b"}, {"lda", "ldb"}, {"m", "n"}, {"scale_a", "scale_b"}};
  if (swapAb)
    for (auto [x, y] : partners) {
      if (kernelName == x)
        return y.str();
      if (kernelName == y)
        return x.str();
    }
  return kernelName.str();
}

std::string gemmc::kernelManifestJson(const KernelSpec &kernel, const KernelAbi &abi,
                                      const ManifestProvenance &provenance) {
  using llvm::json::Array;
  using llvm::json::Object;
  // The caller's view: `kernel` with swap_ab holds the swapped kernel's.
  const KernelSpec s = kernel.swapAb ? swapAbView(kernel) : kernel;
  auto operand = [](const OperandSpec &op) {
    Object o{{"element", elementTypeName(op.element)},
             {"layout", layoutName(op.layout)}};
    // Written only when set, so unscaled kernels' manifests keep their form.
    if (op.scale != Scale::None)
      o["scale"] = scaleName(op.scale);
    return o;
  };
  auto tmap = [&](const TensorMapPlan &p) {
    return Object{{"operand", callerParamName(std::string(1, p.operand), s.swapAb)},
                  {"box", Array{p.box[0], p.box[1]}},
                  {"swizzle", p.swizzleBytes}};
  };
  Array params;
  for (const std::string &p : abi.params)
    params.push_back(callerParamName(p, s.swapAb));
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
      {"tensor_maps", s.mainloop.load != LoadKind::Tma ? Array{}
                      : storesWithTma(abi)
                          ? Array{tmap(abi.a), tmap(abi.b), tmap(abi.c)}
                      : s.swapAb ? Array{tmap(abi.b), tmap(abi.a)} // caller's a first
                                 : Array{tmap(abi.a), tmap(abi.b)}},
      {"grid", Object{{"scheduler", tileSchedulerKindName(s.tileScheduler.kind)},
                      {"raster", rasterName(s.tileScheduler.raster)},
                      {"group", s.tileScheduler.group}}},
      {"params", std::move(params)},
  };
  if (s.swapAb)
    root["swap_ab"] = true;
  if (s.tileScheduler.splitK > 1)
    root.getObject("grid")->try_emplace("split_k", s.tileScheduler.splitK);
  if (abi.workspaceBytesPerCta)
    root["workspace_bytes_per_cta"] = abi.workspaceBytesPerCta;
  // Only kernels that use them carry these keys, so older manifests and
  // kernels without a fused epilogue or PDL read as before.
  if (s.epilogue.bias != Bias::None)
    root["bias"] = Object{{"per", biasName(s.epilogue.bias)},
                          {"element", elementTypeName(s.epilogue.biasElement)}};
  if (s.epilogue.activation != Activation::None)
    root["activation"] = activationName(s.epilogue.activation);
  if (s.epilogue.aux)
    root["aux"] = Object{{"element", elementTypeName(s.c.element)}};
  if (s.pdlWait != PdlWait::None || s.pdlLaunch != PdlLaunch::None)
    root["pdl"] = Object{{"wait", pdlWaitName(s.pdlWait)},
                         {"launch_dependents", pdlLaunchName(s.pdlLaunch)}};
  if (!provenance.gemmcVersion.empty())
    root["gemmc_version"] = provenance.gemmcVersion;
  if (!provenance.specSha256.empty())
    root["spec_sha256"] = provenance.specSha256;
  if (!provenance.ptx.empty())
    root["ptx"] = provenance.ptx;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return out;
}
