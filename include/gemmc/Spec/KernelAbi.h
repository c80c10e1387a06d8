//===- KernelAbi.h - What a compiled kernel expects from its launcher ----===//
//
// One description of the kernel interface, read by the lowering (which
// issues the TMA loads with these boxes) and by the manifest writer (which
// tells the runtime how to encode the tensor maps and launch). docs/abi.md
// documents the format.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_SPEC_KERNELABI_H
#define GEMMC_SPEC_KERNELABI_H

#include "gemmc/Spec/Rules.h"
#include "gemmc/Spec/Spec.h"
#include <string>
#include <vector>

namespace gemmc {

/// How one operand's tiles are brought into shared memory by TMA.
struct TensorMapPlan {
  char operand = 'a';
  /// Box in elements, innermost (contiguous) dimension first.
  int64_t box[2] = {0, 0};
  int swizzleBytes = 0;
  /// TMA loads per stage: an operand whose contiguous tile row is wider than
  /// one swizzle span comes in slabs, one load each.
  int64_t loadsPerStage = 1;
  /// Shared-memory bytes between consecutive slabs.
  int64_t slabBytes = 0;
  /// Whether the contiguous dimension is K (wgmma "K-major").
  bool kMajor = true;
  /// CTAs of a cluster that share this operand's tile: each loads
  /// 1/multicast of it and TMA multicast writes it into every one of them.
  int64_t multicast = 1;
  /// Shared-memory bytes of the part one CTA loads (the whole tile when
  /// `multicast` is 1).
  int64_t partBytes = 0;
  /// mainloop.a_box_rows (K-major A, one slab): a stage's tile comes in
  /// this many boxes of box[1] rows each, box[1] x box[0] elements apart,
  /// and a tile over M's edge loads only those that start inside M.
  int64_t rowBoxes = 1;
};

struct KernelAbi {
  std::string kernelName;
  int64_t block[3] = {1, 1, 1};
  int64_t cluster[3] = {1, 1, 1};
  int64_t dynamicSmemBytes = 0;
  TensorMapPlan a, b;
  /// The store map of C (`epilogue.store: tma`): operand 'c', box one chunk
  /// of a warpgroup's rows; operand 0 when C is stored from registers.
  TensorMapPlan c;
  /// stream_k: global scratch per CTA of the grid (docs/abi.md), else 0.
  int64_t workspaceBytesPerCta = 0;
  /// Kernel parameters in order:
  /// tmap_a, tmap_b[, tmap_c], c, m, n, k, ldc[, alpha][, beta][, scale_a]
  /// [, scale_b][, workspace].
  std::vector<std::string> params;
};

/// A per-column B scale (`operands.b.scale: col`) is read a pair of columns
/// at a time with one 8-byte load (the epilogue's ld.global.nc.v2.f32), so
/// scale_b must be aligned to 8 bytes; the runtime refuses it otherwise
/// (runtime/lib/Plan.cpp, docs/abi.md; a unit test checks the two agree).
constexpr int64_t kColScaleAlignBytes = 8;

/// stream_k's workspace slot of one CTA: a flag line of kStreamKFlagBytes
/// (the partial's "written" flag), then BLOCK_M x BLOCK_N fp32 partial
/// accumulators.
constexpr int64_t kStreamKFlagBytes = 128;
int64_t streamKWorkspaceBytesPerCta(const KernelSpec &spec);

/// The interface of the kernel a resolved, valid spec compiles to.
KernelAbi describeKernelAbi(const KernelSpec &spec);

/// Where a kernel came from, for bug reports and build caches; each field
/// is written to the manifest when set (docs/abi.md).
struct ManifestProvenance {
  std::string gemmcVersion; ///< "0.1.0+<commit>"
  std::string specSha256;   ///< of the spec file's bytes, lowercase hex
  /// What the file holds besides the SASS: "compute_80" for a fatbinary
  /// with that PTX (the runtime JIT-compiles it on newer GPUs).
  std::string ptx;
};

/// A kernel parameter's name as the manifest gives it: the caller's. Under
/// swap_ab the kernel's A is the caller's B and its M the caller's N, so
/// tmap_a, a, lda and m trade names with their partners.
std::string callerParamName(llvm::StringRef kernelName, bool swapAb);

/// The manifest the runtime reads next to the cubin (`<cubin>.json`).
std::string kernelManifestJson(const KernelSpec &spec, const KernelAbi &abi,
                               const ManifestProvenance &provenance = {});

/// The columns of one slab of an N-major operand tile: one swizzle span.
inline int64_t slabColumns(const TensorMapPlan &plan, ElementType element) {
  return plan.swizzleBytes / elementBytes(element);
}

/// Whether the kernel stores C with TMA (and takes `tmap_c`).
inline bool storesWithTma(const KernelAbi &abi) { return abi.c.operand == 'c'; }

} // namespace gemmc

// checkLoweringSupport and wgmmaColumns moved to lib/Target (what each
// target's lowering builds). Included here, after the types it reads, until
// the passes include gemmc/Target/Backend.h themselves.
#include "gemmc/Target/Backend.h"

#endif // GEMMC_SPEC_KERNELABI_H
