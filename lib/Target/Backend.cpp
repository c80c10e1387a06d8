//===- Backend.cpp - What gemmc's lowering builds for each target --------===//
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Sm80.h"
#include "gemmc/Target/Isa.h"
#include "llvm/Support/FormatVariadic.h"

using namespace gemmc;

static const Backend kBackends[] = {
    // sm_80: stream-K's hand-over is dear next to a cp.async tile
    // (Sm80.h), and its 128x256 kernels sit at 255 registers, where the
    // scalar partials spill. The H200's JIT (ptxas for sm_90) spills around
    // the peer loop's 64-bit divisions (a call) in the 8-accumulator
    // sm80_tf32_tn_64x64x16_sk; the 128-accumulator kernels, at 255
    // registers, spill 8 bytes without them (bench/RESULTS.md, sm80i), and
    // 8 bytes with the aligned split's fixup (session 18), so sm_80 keeps
    // the first-to-last split (kSm80StreamKAligned).
    {Arch::SM80, sm80Unsupported,
     StreamKPolicy{kSm80StreamKMinIdleKTiles, kSm80StreamKPartialVector,
                   kSm80StreamKPeerTestMaxValues, kSm80StreamKAligned}},
    // sm_90a and sm_100a split every partial last wave, one float an access.
    {Arch::SM90a, sm90aUnsupported, StreamKPolicy{}},
    {Arch::SM100a, sm100aUnsupported, StreamKPolicy{}},
};

void gemmc::refuseUnbuiltTmaKernel(const KernelSpec &s, llvm::StringRef mma,
                                   std::vector<Violation> &out, bool everySwizzle,
                                   bool oneStage) {
  const int64_t span = isa::kWidestSwizzleSpan;
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  if (s.epilogue.store == StoreKind::Tma &&
      (s.blockN() * elementBytes(s.c.element)) % kEpilogueChunkRowBytes != 0)
    no("tile_shape",
       llvm::formatv("store: tma with BLOCK_N = {0} ({1} bytes of C per tile row) "
                     "is not implemented yet: the epilogue stores chunks of {2} "
                     "bytes; use BLOCK_N a multiple of {3} or store: direct",
                     s.blockN(), s.blockN() * elementBytes(s.c.element),
                     kEpilogueChunkRowBytes,
                     kEpilogueChunkRowBytes / elementBytes(s.c.element))
           .str());
  // split_k is stream_k's plan with every tile split (issue 16).
  if (s.tileScheduler.splitK != 1 && s.tileScheduler.kind != TileSchedulerKind::StreamK)
    no("tile_scheduler.split_k",
       llvm::formatv("split_k > 1 with tile_scheduler kind {0} is not implemented "
                     "yet; use kind: stream_k (its workspace hands the pieces over) "
                     "or split_k: 1",
                     tileSchedulerKindName(s.tileScheduler.kind))
           .str());
  if (everySwizzle) {
    // The target checks its own swizzles and BLOCK_K.
  } else if (s.mainloop.swizzle != Swizzle::B128)
    no("mainloop.smem_swizzle",
       llvm::formatv("smem_swizzle {0} is not implemented yet; use {1} (a tile "
                     "whose K row is {2} bytes)",
                     swizzleName(s.mainloop.swizzle), swizzleName(Swizzle::B128), span)
           .str());
  else if (s.blockK() * elementBytes(s.a.element) != span)
    no("tile_shape",
       llvm::formatv("BLOCK_K = {0} ({1} bytes of K per row) is not implemented "
                     "yet; the {4} mainloop takes one {2}-byte swizzle span of K "
                     "per stage: use BLOCK_K = {3}",
                     s.blockK(), s.blockK() * elementBytes(s.a.element), span,
                     span / elementBytes(s.a.element), mma)
           .str());
  // The validator takes one stage (seed 004's B200 step 1); a target that
  // does not build that ring says so here.
  if (s.mainloop.stages < 2 && !oneStage)
    no("mainloop.stages",
       llvm::formatv("stages = 1 is not implemented on {0} (one buffer leaves "
                     "none to load into while it is multiplied, so loads and "
                     "MMAs would only take turns); use stages >= 2",
                     archName(s.arch))
           .str());
}

llvm::StringRef gemmc::ptxFeatures(Arch arch) {
  // tcgen05 and sm_100a need PTX ISA 8.6; the others keep the 8.0 their
  // kernels were built with (sm_90a's PTX stays byte-identical).
  return arch == Arch::SM100a ? "+ptx86" : "+ptx80";
}

const Backend &gemmc::backendFor(Arch arch) {
  for (const Backend &b : kBackends)
    if (b.arch == arch)
      return b;
  llvm_unreachable("every arch has a backend entry");
}

/// swap_ab (issue 16): what its kernels do not build yet, on every target.
/// The swapped kernel is an ordinary one except for its epilogue, which
/// stores the wgmma fragment transposed from registers.
static void smallMUnsupported(const KernelSpec &s, std::vector<Violation> &out) {
  if (!s.swapAb)
    return;
  auto no = [&](llvm::StringRef field, std::string what) {
    out.push_back(Violation{"not-implemented", field.str(), std::move(what)});
  };
  if (isaFor(s.arch).mma.family != MmaFamily::Wgmma)
    no("swap_ab", llvm::formatv("swap_ab on {0} is not implemented yet (the "
                                "transposed store walks wgmma's accumulator "
                                "fragment); use swap_ab: false",
                                archName(s.arch))
                      .str());
  // The swapped kernel's A is the caller's B^T: K-major only when B is.
  // (Fields are the kernel's: SpecFile::report names the caller's.)
  if (s.a.layout != Layout::Row)
    no("operands.a.layout", "swap_ab with a row-major B (N contiguous) is not "
                            "implemented yet (the swapped kernel's A would be "
                            "M-major); use B col-major or swap_ab: false");
  if (s.epilogue.store == StoreKind::Tma)
    no("epilogue.store", "store: tma with swap_ab is not implemented yet (C^T "
                         "would need a transposed store box); use store: direct");
  if (s.epilogue.aux)
    no("epilogue.aux", "aux with swap_ab is not implemented yet (the epilogue "
                       "would write it transposed); use aux: false");
  if (s.clusterSize() != 1)
    no("cluster_shape",
       llvm::formatv("cluster_shape [{0}, {1}] with swap_ab is not implemented "
                     "yet; use [1, 1]",
                     s.clusterShape[1], s.clusterShape[0])
           .str());
}

std::vector<Violation> gemmc::checkLoweringSupport(const KernelSpec &s) {
  std::vector<Violation> out;
  const Backend &backend = backendFor(s.arch);
  if (backend.unsupported) {
    backend.unsupported(s, out);
    smallMUnsupported(s, out);
    return out;
  }
  // The targets that lower, for the way out.
  std::string lowered;
  for (const Backend &b : kBackends)
    if (b.unsupported)
      lowered += (lowered.empty() ? "" : ", ") + archName(b.arch).str();
  out.push_back(Violation{
      "not-implemented", "arch",
      llvm::formatv("code generation for {0} is not implemented yet; gemmc "
                    "lowers {1} schedules (use gemmc analyze for {0})",
                    archName(s.arch), lowered)
          .str()});
  return out;
}
