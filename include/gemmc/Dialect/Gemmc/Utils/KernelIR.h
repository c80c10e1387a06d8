//===- KernelIR.h - Building blocks shared by the lowering passes --------===//
//
// The gemmc lowering writes kernels with the llvm, nvvm, scf and arith
// dialects. This header holds what the passes of lib/Transforms and the
// instruction selection of lib/Conversion both need: i32 arithmetic in a
// few words, shared-memory addressing, the thread's place in its warpgroup,
// and the kernel's fixed numbers. Values are i32 unless named otherwise:
// every index inside a tile fits, and 32-bit integer arithmetic is what the
// SM does natively.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_DIALECT_GEMMC_UTILS_KERNELIR_H
#define GEMMC_DIALECT_GEMMC_UTILS_KERNELIR_H

#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Target/Isa.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::gemmc {

/// Address spaces of the NVPTX backend.
constexpr unsigned kGlobalSpace = 1;
constexpr unsigned kSharedSpace = 3;
constexpr unsigned kSharedClusterSpace = 7;
/// Bytes of a CUtensorMap, and its required alignment.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlign = 64;
/// Named barriers (bar.sync ids): the hardware has 16 a CTA, 0 is
/// __syncthreads. Every other id is one of these bases plus at most a
/// consumer warpgroup number (consumers are warpgroups 0 .. n-1, the
/// producer after them):
///  - kEpilogueBarrier + warpgroup: the epilogue's per-warpgroup sync
///    (TMA store of C); 1, 2 with the two consumer warpgroups of
///    cooperative and pingpong, 1 on sm_100a (one drain warpgroup), up to
///    1 .. 4 under warp_specialized or multistage with BLOCK_M = 256,
///    which use no turn barriers;
///  - kOrderBarrier + warpgroup (3, 4): pingpong's mainloop turns, and
///    cooperative's turns to issue a block-scale fold part (foldTurn);
///  - kConsumersBarrier (5): all consumer warpgroups, stream_k's partial
///    hand-over (every schedule but pingpong's);
///  - kPingpongFixupBarrier + warpgroup (6, 7): pingpong's stream_k
///    hand-over, one consumer warpgroup's piece at a time.
constexpr int64_t kNamedBarriers = 16;
constexpr int64_t kEpilogueBarrier = 1;
constexpr int64_t kOrderBarrier = 3;
/// All consumer warpgroups (stream_k's partial hand-over).
constexpr int64_t kConsumersBarrier = 5;
/// One pingpong consumer warpgroup's stream_k hand-over.
constexpr int64_t kPingpongFixupBarrier = 6;
/// The ranges above with two consumer warpgroups (cooperative, pingpong)
/// do not overlap and stay below the hardware's 16; warp_specialized's and
/// multistage's up to four epilogue barriers stay below kConsumersBarrier.
static_assert(kEpilogueBarrier >= 1 && kEpilogueBarrier + 2 <= kOrderBarrier &&
                  kOrderBarrier + 2 <= kConsumersBarrier &&
                  kConsumersBarrier + 1 <= kPingpongFixupBarrier &&
                  kPingpongFixupBarrier + 2 <= kNamedBarriers,
              "named-barrier ranges overlap or pass the hardware's 16");
static_assert(kEpilogueBarrier + 4 <= kConsumersBarrier,
              "four warpgroups' epilogue barriers reach kConsumersBarrier");
/// Suspend-time hint of mbarrier waits, in nanoseconds.
constexpr int64_t kMbarrierWaitHintNs = 10000000;

/// An OpBuilder with i32 arithmetic and the pointer types of a kernel.
/// Each call creates its op at once, so never pass two calls that build IR
/// as arguments of one call: their order would be the host compiler's
/// (docs/architecture.md, "Building IR"; scripts/check_eval_order.py).
class KernelIR {
public:
  KernelIR(OpBuilder &b, Location loc);

  Value c32(int64_t v);
  Value c64(int64_t v);
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divU(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remU(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value ceilDiv(Value x, int64_t d) { return divU(add(x, c32(d - 1)), c32(d)); }
  Value zext64(Value x) { return arith::ExtUIOp::create(b, loc, i64, x); }
  /// `base + offset` bytes, in shared memory.
  Value sharedAt(Value base, Value offset);
  Value sharedAt(Value base, int64_t offset) { return sharedAt(base, c32(offset)); }
  /// Runs `body` in an scf.if on `cond`, without results.
  void ifThen(Value cond, function_ref<void()> body);
  /// threadIdx.x, and the warpgroup it belongs to.
  Value threadId();
  Value warpgroupId() { return divU(threadId(), c32(kWarpgroupSize)); }
  /// `v` (i32 or f32) from lane `fromLane` of the warp: shfl.sync.idx over
  /// all 32 lanes, which must be converged.
  Value shuffleIdx(Value v, Value fromLane);
  /// The warpgroup index broadcast from lane 0 (shfl.sync.idx), so that
  /// ptxas knows it is warp-uniform: the wgmma descriptors of a warpgroup's
  /// rows of A, built from it, then stay in uniform registers instead of
  /// being moved over with R2UR before every wgmma. Only where all 32 lanes
  /// are converged, and not next to wgmmas in flight (a shuffle there made
  /// ptxas serialize a multistage kernel's wgmmas, C7511).
  Value uniformWarpgroupId();
  /// Whether this is its warpgroup's first thread, which speaks for the
  /// group: it releases stages and issues the epilogue's TMA stores.
  Value isWarpgroupLeader() {
    return cmp(arith::CmpIPredicate::eq, remU(threadId(), c32(kWarpgroupSize)),
               c32(0));
  }

  OpBuilder &b;
  Location loc;
  Type i32, i64, f32, ptr, sharedPtr, sharedClusterPtr, globalPtr;
};

/// Fields [first, first + count) of the struct `whole`, as a struct of their
/// own: an accumulator's column part or row block.
Value structFields(KernelIR &ir, Value whole, int64_t first, int64_t count);
/// structFields' inverse: a struct of type `whole` whose fields are those of
/// `parts` in order (each part's fields, then the next part's).
Value joinStructFields(KernelIR &ir, Type whole, ArrayRef<Value> parts);

/// The struct of fp32 accumulators each MMA thread holds for one tile
/// (CtaResources::accRegsPerThread of them).
Type accumulatorType(ScheduleAttr schedule);

/// This CTA's place in its cluster of clusterShape = [CX, CY] CTAs, which
/// the runtime launches as a one-dimensional cluster of CX x CY: cluster
/// rank r computes the tile CX-major at (r % CX, r / CX) of the cluster's
/// CX x CY tiles. Each coordinate is null where its extent is 1 (no
/// instruction is emitted for it); with one extent 1 the other is the rank.
struct ClusterCoords {
  Value m, n;
};
ClusterCoords clusterCoords(KernelIR &ir, const KernelSpec &s);


} // namespace mlir::gemmc

#endif // GEMMC_DIALECT_GEMMC_UTILS_KERNELIR_H
