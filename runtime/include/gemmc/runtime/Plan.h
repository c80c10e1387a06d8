// Host-side launch planning, with no CUDA calls: argument checks, the grid,
// and the parameters of each tensor map. The driver layer (Runtime.cpp) only
// turns these into cuTensorMapEncodeTiled and cuLaunchKernelEx calls, so all
// of the rules here are unit-tested without a GPU.
#ifndef GEMMC_RUNTIME_PLAN_H
#define GEMMC_RUNTIME_PLAN_H

#include "gemmc/runtime/Manifest.h"

#include <array>
#include <cstdint>
#include <string>

namespace gemmc::rt {

/// Checks `args` against the manifest: dtypes and layouts, sizes (>= 1, equal
/// to pinned sizes, within int32 and TMA limits), 16-byte alignment of the
/// base pointers and of the leading dimensions in bytes, ld >= contiguous
/// extent, alpha/beta only if the kernel takes them, and C overlapping A or
/// B. Returns GEMMC_OK or GEMMC_ERROR_INVALID_ARGUMENT with `error` set.
gemmc_status checkArgs(const Manifest &m, const gemmc_gemm_args &args, std::string &error);

/// Storage of one operand as a 2-D row-major array: `rows` rows of `cols`
/// elements (cols = the contiguous extent), rows `ld` elements apart.
struct Storage {
  uint64_t rows = 0, cols = 0, ld = 0, elemBytes = 0;
  /// Bytes from the base pointer to one past the last element.
  uint64_t extentBytes() const { return rows == 0 ? 0 : ((rows - 1) * ld + cols) * elemBytes; }
};
Storage storageA(const gemmc_gemm_args &args);
Storage storageB(const gemmc_gemm_args &args);
Storage storageC(const gemmc_gemm_args &args);

/// A per-column scale_b must be aligned to 8 bytes: the kernel reads it a
/// pair of columns at a time, with one 8-byte load (docs/abi.md; the
/// compiler's gemmc::kColScaleAlignBytes, which a unit test holds equal).
/// Every other scale is aligned to its 4-byte f32.
constexpr uint64_t kColScaleAlignBytes = 8;

/// The scale pointer of `op` in `args` (scale_a, scale_b, scale_d) and the
/// bytes the kernel reads there: 4 per tensor, 4 x M per row of A, 4 x N per
/// column of B.
const float *scalePointer(const gemmc_gemm_args &args, Operand op);
uint64_t scaleBytes(gemmc_scale scale, Operand op, const gemmc_gemm_args &args);

/// What cuTensorMapEncodeTiled gets for one operand (rank 2, innermost first).
/// Operand::C is only meaningful for a manifest with a c tensor map (tmap_c):
/// dims {N, M}, stride ldc * bytes, base args.c.
struct TensorMapParams {
  gemmc_dtype dtype = GEMMC_DTYPE_UNSET;
  uint64_t base = 0;
  std::array<uint64_t, 2> dims{};
  uint64_t strideBytes = 0; // stride of dimension 1
  std::array<uint32_t, 2> box{};
  int swizzle = 0; // bytes
  bool operator==(const TensorMapParams &o) const {
    return dtype == o.dtype && base == o.base && dims == o.dims && strideBytes == o.strideBytes &&
           box == o.box && swizzle == o.swizzle;
  }
};
TensorMapParams tensorMapParams(const Manifest &m, Operand op, const gemmc_gemm_args &args);

/// GEMMC_TMA_L2_PROMOTION, the L2 promotion every tensor map of a kernel gets
/// (cuTensorMapEncodeTiled's l2Promotion): unset or empty is 256 (the default),
/// otherwise "none", "64", "128" or "256". Returns the bytes (0 for none), or
/// -1 with `error` naming the value and the accepted ones. An experiment's
/// knob: it changes how the L2 fetches a TMA box's lines, not what is loaded.
int parseL2Promotion(const char *env, std::string &error);

struct LaunchDims {
  std::array<uint32_t, 3> grid{};
  std::array<uint32_t, 3> block{};
  std::array<uint32_t, 3> cluster{};
  uint32_t dynamicSmemBytes = 0;
  uint64_t tiles = 0;
};
/// The grid for an M x N problem. data_parallel: grid.x = the tiles rounded
/// up to whole clusters; persistent: min(that, the slots); stream_k: the
/// slots, however few the tiles. `smCount` is the number of CTAs that can be
/// resident at once (persistent and stream_k only). Returns false (with
/// `error`) if the grid would be empty or too large.
bool computeLaunch(const Manifest &m, int64_t M, int64_t N, int smCount, LaunchDims &out,
                   std::string &error);

/// The cluster the kernel is launched with: the grid is one-dimensional, so
/// the manifest's cluster [CX, CY, 1] (CY > 1: CTAs along N too) is launched
/// as CX x CY CTAs along x; the kernel places them by cluster rank.
std::array<uint32_t, 3> launchCluster(const Manifest &m);

/// The CTA slots of a grid that must be co-resident: `smCount` (CTAs that
/// can be resident at once) rounded down to whole clusters; 0 if not even
/// one cluster fits.
uint64_t residentSlots(const Manifest &m, int smCount);

/// Bytes of the kernel's workspace: the most CTAs a grid can have (the
/// slots) x workspace_bytes_per_cta; 0 when the kernel takes no workspace.
uint64_t workspaceBytes(const Manifest &m, int smCount);

/// How a kernel file runs on a device of compute capability major.minor:
/// its SASS natively (same major, minor at least the SASS's, exactly it for
/// an "a" arch), else its PTX through the driver's JIT (a fatbinary with
/// "ptx": "compute_XY" and a device of X.Y or later), else not at all.
enum class ArchFit { Native, Jit, No };
ArchFit archFit(const Manifest &m, int major, int minor);

/// Why a kernel file does not run on a device of compute capability
/// major.minor (archFit: No) and what would: an "a" arch's SASS runs on that
/// architecture alone; an older arch's SASS runs on a newer device only as a
/// fatbinary with PTX; nothing runs on a device older than the file.
std::string archMismatch(const Manifest &m, int major, int minor, const std::string &deviceName);

} // namespace gemmc::rt

#endif
