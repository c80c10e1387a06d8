// The manifest that comes with every gemmc cubin (<cubin>.json): what the
// runtime needs to launch the kernel without the user restating anything.
// Parsing is strict: a missing, mistyped, unknown or inconsistent field is an
// error that names the field, the value found and what was expected.
#ifndef GEMMC_RUNTIME_MANIFEST_H
#define GEMMC_RUNTIME_MANIFEST_H

#include "gemmc/runtime.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gemmc::rt {

enum class Operand { A = 0, B = 1, C = 2 };
// StreamK: one CTA per resident slot, splitting the tiles' K loops over all
// of them (grid.x = the slot count even for one tile); in a cluster (sm_90a's
// [2, 1]) the slots are whole clusters, and split_k > 1 takes none.
enum class Scheduler { DataParallel, Persistent, StreamK };
enum class Raster { AlongM, AlongN };
// TmapC: the C tensor map of a kernel whose epilogue stores C with TMA
// (optional; present if and only if tensor_maps has a map for operand c).
// Workspace: the global scratch buffer the runtime allocates per kernel
// (present if and only if workspace_bytes_per_cta > 0; the last parameter).
// Bias / Aux: the fused epilogue's bias vector and auxiliary output
// (present if and only if the manifest has "bias" / "aux"). A, B, Lda, Ldb:
// a kernel that reads A and B with cp.async (sm_80) takes pointers and
// leading dimensions where a TMA kernel takes tensor maps. ScaleA, ScaleB,
// ScaleD: pointers to the FP8 dequantization scales (present if and only if
// the operand's "scale" is set).
enum class Param { TmapA, TmapB, TmapC, C, M, N, K, Ldc, Alpha, Beta, Bias, Aux, Workspace, A, B, Lda, Ldb,
                   ScaleA, ScaleB, ScaleD };
/// How many kinds of parameter there are: a manifest lists each at most once.
constexpr int kParamCount = static_cast<int>(Param::ScaleD) + 1;

struct TensorMapSpec {
  Operand operand = Operand::A;
  std::array<uint32_t, 2> box{}; // elements, innermost first
  int swizzle = 0;               // bytes: 0, 32, 64 or 128
};

struct OperandSpec {
  gemmc_dtype element = GEMMC_DTYPE_UNSET;
  gemmc_layout layout = GEMMC_LAYOUT_UNSET;
  gemmc_scale scale = GEMMC_SCALE_NONE; ///< "scale" (absent: none)
};

struct Manifest {
  int version = 0;
  std::string kernel;
  std::string arch;
  int archMajor = 0, archMinor = 0;
  bool archSpecific = false; // the "a" suffix: runs only on exactly that arch
  /// "ptx": "compute_XY" (a fatbinary holding PTX next to the SASS): the
  /// driver can JIT-compile the file for any device of compute capability
  /// X.Y or later. 0 when the file holds SASS only.
  int ptxMajor = 0, ptxMinor = 0;
  std::array<int32_t, 3> block{};
  std::array<int32_t, 3> cluster{};
  int32_t dynamicSmemBytes = 0;
  std::array<int32_t, 3> tile{};
  std::array<int64_t, 3> problem{-1, -1, -1};
  OperandSpec a, b, c;
  TensorMapSpec tmaps[3]; // indexed by Operand; tmaps[C] only when hasParam(Param::TmapC)
  Scheduler scheduler = Scheduler::DataParallel;
  Raster raster = Raster::AlongM;
  int32_t group = 1;
  /// stream_k with split_k > 1: each tile's K split in this many pieces.
  int32_t splitK = 1;
  std::vector<Param> params;
  /// Global scratch per CTA of the grid (stream_k); 0 = none (field absent).
  int64_t workspaceBytesPerCta = 0;
  /// "bias": {"per": "row" | "col", "element": ...}; UNSET = no bias.
  gemmc_dtype biasType = GEMMC_DTYPE_UNSET;
  bool biasPerRow = false;
  /// "activation" (informational: the kernel applies it); "none" if absent.
  std::string activation = "none";
  /// "pdl".wait is not "none": the kernel executes griddepcontrol.wait
  /// before its first load, so it may be launched with GEMMC_LAUNCH_PDL.
  bool pdlWait = false;
  /// The kernel computes C^T = B^T A^T (issue 16's small-M kernels).
  bool swapAb = false;

  bool hasParam(Param p) const;
  /// Whether A and B go to the kernel as tensor maps (else as pointers).
  bool hasTensorMaps() const { return hasParam(Param::TmapA); }
  const TensorMapSpec &tmap(Operand op) const { return tmaps[static_cast<int>(op)]; }
  const OperandSpec &operand(Operand op) const {
    return op == Operand::A ? a : op == Operand::B ? b : c;
  }
};

/// Parses and validates a manifest. `source` names the file in messages.
/// Returns false with `error` set on any problem.
bool parseManifest(const std::string &text, const std::string &source, Manifest &out,
                   std::string &error);

/// "bf16" -> GEMMC_BF16 ...; GEMMC_DTYPE_UNSET when unknown.
gemmc_dtype dtypeFromName(const std::string &name);
size_t dtypeBytes(gemmc_dtype dtype);
const char *dtypeName(gemmc_dtype dtype);
const char *layoutName(gemmc_layout layout);
const char *paramName(Param p);
/// The parameter that carries `op`'s scale (ScaleA, ScaleB, ScaleD for C).
Param scaleParam(Operand op);
/// "none", "tensor", "row", "col" (as in the manifest).
const char *scaleName(gemmc_scale s);
/// "data_parallel", "persistent", "stream_k" (as in the manifest).
const char *schedulerName(Scheduler s);

/// How `other`'s interface differs from `first`'s as a caller sees it: the
/// element types, layouts and scales of A, B and C, alpha, beta, the bias,
/// aux and PDL wait (what gemmc_check holds gemmc_gemm_args to) and the
/// activation (what the kernel computes). Each difference as "WHAT: X here,
/// Y in <first's kernel>", joined by "; "; empty when the same arguments
/// launch either and get the same result. A bundle's kernels must agree
/// (gemmc bundle and gemmc_bundle_load check it): the caller's arguments do
/// not depend on which rule the shape picks.
std::string interfaceDifference(const Manifest &first, const Manifest &other);

} // namespace gemmc::rt

#endif
