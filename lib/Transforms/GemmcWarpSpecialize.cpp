//===- GemmcWarpSpecialize.cpp - Warp roles over a ring of stages --------===//
//
// Expands gemmc.tile_matmul into the roles that share the CTA's stage ring,
// in target-neutral ops: who loads (gemmc.stage_acquire + gemmc.stage_fill),
// who multiplies (gemmc.stage_wait, gemmc.mma_stage, gemmc.mma_wait,
// gemmc.stage_release) and who stores (gemmc.epilogue), each role walking
// the CTA's tiles with a gemmc.tile_loop. How a stage is filled and consumed
// (TMA + mbarrier + wgmma on sm_90a) is instruction selection, in
// lib/Conversion; which tiles a CTA takes is gemmc-schedule-tiles'.
//
// Loads and multiplies are numbered across tiles (g): load g goes to stage
// g % stages. A consumer keeps one MMA group in flight (mma_wait 1) and
// releases the stage of the step before; after a tile's last step it waits
// for all groups, releases the last stage and runs the epilogue, while the
// producer is already loading the next tile.
//
// multistage: thread 0 is the producer and a consumer; it loads a tile's
// first `stages` steps before its K loop and refills a stage when it is
// released. warp_specialized(_cooperative): the last warpgroup produces
// (one thread issues the loads, after the group gives registers back) and
// the others consume (after they take the registers the accumulators
// need). A stage is consumed by every consumer warpgroup of every CTA of the
// cluster (multicast writes it into all of them).
//
// warp_specialized_pingpong: consumer warpgroup w takes the CTA's tiles w,
// w + 2, ... whole; a stage has one consumer; the mainloops take turns
// through two named barriers (buildPingpongConsumers).
//
// stream_k: the consumers end each piece with a gemmc.stream_k_fixup, which
// runs the epilogue only where the tile is finished.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/Residency.h"
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Sm80.h"
#include "gemmc/Transforms/EpilogueMath.h"
#include "gemmc/Transforms/Passes.h"
#include "gemmc/Transforms/StreamK.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

#define DEBUG_TYPE "gemmc-warp-specialize"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCWARPSPECIALIZE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// With fold_group: 1, the K tiles ahead whose block scales a consumer has
/// in flight: ncu (session 7, cube8192) found the loads of main's kernel,
/// one K tile ahead, still outstanding at the fold (15.7% of its warp
/// samples on the first FMUL of the scales).
constexpr int64_t kScaleLead = 2;

/// The body of one piece of a gemmc.tile_loop: (m0, n0, tile, kBegin, kEnd,
/// g) -> the next g.
using PieceBody = function_ref<Value(Value, Value, Value, Value, Value, Value)>;

/// One piece's K loop in parts of fold_columns (foldInParts): the piece,
/// the parts and how its block scales arrive.
struct FoldPiece {
  Value g0, kBegin, steps, aSlice, row0, rowInTile, n0;
  Type accType;
  Type partType;       ///< one part's accumulators
  int64_t width = 0;   ///< columns of a part
  int64_t parts = 0;   ///< parts of a K tile
  Value ignored;       ///< what a fresh part's wgmma ignores (scale-d 0)
  Value last;          ///< the piece's last K tile
  bool staged = false; ///< stage_scales: scales from the stage, no queue
  int64_t lead = 0;    ///< K tiles of scales the loop carries ahead
};

/// What buildTensorMemoryRoles' MMA and epilogue roles share: the
/// accumulator ring in tensor memory and the CTA pair.
struct TensorMemoryRoles {
  SmemLayoutAttr accRing; ///< the accumulator buffers' barriers
  Value accBase;          ///< the tensor-memory address of buffer 0
  Value sumAcc;           ///< scale: block: the f32 sum after the buffers
  int64_t ctas = 1;       ///< the MMA's CTA group (2: a pair)
  int64_t epilogueThreads = 0;
  bool multistage = false;  ///< no TMA warp: the MMA thread loads too
  bool blockScaled = false; ///< the ring carries K steps' partials
};

class WarpSpecializer {
public:
  WarpSpecializer(TileMatmulOp op, OpBuilder &b)
      : op(op), s(op.getSchedule().getSpec()),
        res(op.getSchedule().getResources()), layout(*op.getSmemLayout()),
        ir(b, op.getLoc()), abi(op.getSchedule().getAbi()) {}

  void build();

private:
  void initRing();
  /// Load number `g`: wait until its stage is free, then fill it with K
  /// tile `kTile` of the tile at (m0, n0). Loads below `prefetched` had
  /// their stage armed and their weights loaded by prefetchWeights: only
  /// the activations remain.
  void load(Value g, Value m0, Value n0, Value kTile);
  /// gemmc.stage_fill of load `g` with TMA (whole, or one of its two parts).
  void fill(Value g, Value m0, Value n0, Value kTile, bool weightsOnly = false,
            bool activationsOnly = false);
  /// pdl_wait: before_a: the producer's first min(stages, K tiles) loads
  /// of the CTA's first tile, weights only, before griddepcontrol.wait;
  /// sets `prefetched` to their count (0 for a CTA without a tile).
  void prefetchWeights();
  /// A gemmc.tile_loop over the CTA's pieces from load number 0.
  void forEachPiece(PieceBody body);
  /// The producer thread of a warp-specialized kernel: every load of every
  /// piece, in the CTA's order.
  void produceAll();
  /// The consumer side of one tile from load number g; returns the
  /// accumulators. `refill` (multistage) also refills released stages.
  Value consumeTile(Value g, Value m0, Value n0, bool refill,
                    function_ref<void()> afterLastWait = nullptr,
                    Value kBegin = Value(), Value kEnd = Value());
  /// An scf.for over K steps 0 .. steps - 1 carrying the accumulators from
  /// `init`: `body(step, acc)` builds a step and returns the next ones.
  Value accumulate(Value steps, Value init, function_ref<Value(Value, Value)> body);
  /// Pingpong with BLOCK_M = 128: the K loop of one tile from load number
  /// g0, each wgmma row block issued as its own group (see the definition);
  /// returns the whole accumulator.
  Value accumulateByRowBlocks(Value g0, Value steps, Type accType);
  /// mainloop.promotion_interval = N: `accumulate` in rounds of N steps,
  /// each into a fresh MMA accumulator (from `zero`) that is then added
  /// into an f32 sum (gemmc.mma_promote); returns the sum.
  Value accumulatePromoted(Value steps, Value zero,
                           function_ref<Value(Value, Value)> body);
  /// scale: block: one round per K tile, each into a fresh MMA accumulator
  /// that is folded into the f32 sum with the tile's block scales
  /// (gemmc.mma_fold), whose loads run one K tile ahead; returns the sum.
  /// `row0`: the tile row of this warpgroup's first accumulator row.
  /// With stage_scales, `rowInTile` (row0 - m0) finds them in load
  /// g0 + step's slot.
  Value accumulateBlockScaled(Value steps, Value zero,
                              function_ref<Value(Value, Value)> body,
                              Value kBegin, Value row0, Value n0, Value g0,
                              Value rowInTile);
  /// scale: block with mainloop.fold_columns = W: each K tile's MMAs in
  /// parts of W columns, each its own group; after issuing a part the
  /// consumer waits for the one before (mma_wait 1) and folds it, so the
  /// fold runs under the warpgroup's next part (two parts' accumulators
  /// live), within a loop iteration (kFoldGroupParts). A stage is
  /// released once its last part is waited for. Returns the f32 sum with
  /// every MMA waited for; the caller releases the last stage.
  Value foldInParts(Value g0, Value kBegin, Value steps, Value aSlice,
                    Value row0, Value rowInTile, Value n0, Type accType);
  /// foldInParts' two loops: fold_group 1 (foldOnePart), one K tile an
  /// iteration, each part folded before the next is issued; otherwise
  /// groups of foldGroupTiles K tiles, each part folded under the next.
  Value foldEachPart(const FoldPiece &f);
  /// foldEachPart's loop unrolled by mainloop.unroll; its f32 sum.
  Value unrolled(scf::ForOp loop);
  /// mainloop.unroll's fold loop: each K tile releases its own stage after
  /// its fold, so the caller releases nothing after the loop.
  bool releasesInLoop() const { return s.mainloop.unroll > 1 && foldOnePart(s) && !foldTurns(s); }
  Value foldInGroups(const FoldPiece &f);
  /// gemmc.mma_fold of part `p` of a K tile into `sum`.
  Value foldPart(const FoldPiece &f, Value sum, Value part, Value scales, int64_t p);
  /// The block scales of the piece's K tile kBegin + step (its last past
  /// its end).
  Value pieceScalesAt(const FoldPiece &f, Value step);
  /// foldTurns: the cooperative warpgroups' turns to issue a part, on
  /// named barriers kOrderBarrier + warpgroup (pingpong's; this schedule
  /// has no other use for them): wait for ours, or hand it to the other
  /// warpgroup. Warpgroup 1 gives warpgroup 0 the first turn before its
  /// first tile and warpgroup 0 takes warpgroup 1's last hand-over after
  /// its last (both issue the same parts), so every arrival is waited for.
  void foldTurn(bool handOver) {
    Value wg = ir.warpgroupId();
    Value id = handOver ? ir.sub(ir.c32(kOrderBarrier + 1), wg)
                        : ir.add(ir.c32(kOrderBarrier), wg);
    namedBarrier(id, ir.c32(2 * kWarpgroupSize), handOver);
  }
  /// gemmc.block_scales of K tile `kTile` for the warpgroup's rows from
  /// `row0` and the tile's columns from `n0`.
  Value blockScales(Value kTile, Value row0, Value n0);
  /// stage_scales: the same factors from the scale slot of load `g`'s
  /// stage (after its wait), for the warpgroup's rows from tile row
  /// `rowInTile`.
  Value stagedScales(Value g, Value rowInTile);
  /// The struct of f32 factors gemmc.block_scales gives a thread.
  Type scalesType();
  /// a_registers: gemmc.mma_a_fragment's struct, a thread's share (32-bit
  /// registers) of the wgmma A fragment of every k step of a stage.
  Type aFragmentType();
  void release(Value g);
  /// `staging`: sm_80's shared-memory area for the epilogue (Sm80.h).
  void epilogue(Value acc, Value m0, Value n0, Value staging = Value());
  /// Consumers, after their last tile: wait for the epilogue's stores.
  void drainStores();
  /// Programmatic dependent launch, where the spec asks (pdl_wait,
  /// pdl_launch_dependents): no op otherwise.
  void waitPriorGrids();
  /// griddepcontrol.launch_dependents where pdl_launch_dependents names
  /// `point`: after_prologue (every thread, once the ring's barriers are
  /// set up) or after_mainloop (the last load issued).
  void launchDependentsAt(PdlLaunch point);
  void buildMultistage();
  /// cp.async (sm_80): every thread fills and multiplies; the ring is
  /// counted in commit groups.
  void buildEveryThreadFills();
  /// gemmc.stage_fill of load g, every thread's share: whole, or (part: 1
  /// A, 2 B and the commit) half of one; clipped to M, N and K
  /// (zero-fill) unless `inside` (every copy is).
  void everyThreadFill(Value g, Value m0, Value n0, Value kTile, int part = 0,
                       bool inside = false);
  /// gemmc.mma_fragments: a warp's fragments of k step kStep of load g.
  Value mmaFragments(Type fragType, Value g, int64_t kStep);
  /// mmaSyncPrefetchFits: the K loop of a piece with fragments read one k
  /// step ahead across stages, unchecked where the tile is inside M, N and
  /// whole K tiles, else clipped; returns the accumulators.
  Value prefetchedKLoop(Value m0, Value n0, Value kBegin, Value kEnd, Value g, Type accType,
                        Value zero);
  void buildWarpSpecialized();
  /// Pingpong consumers: the warpgroups take the CTA's tiles in turn.
  void buildPingpongConsumers();
  /// Pingpong under stream_k: the warpgroups take the CTA's pieces in
  /// turns; `storeTile` stores a warpgroup's finished tile.
  void buildPingpongPieces(Value wg, function_ref<void(Value, Value, Value)> storeTile);
  /// Accumulators in tensor memory (sm_100a): a TMA warp, an MMA warp and
  /// an epilogue warpgroup.
  void buildTensorMemoryRoles();
  /// A CTA pair's second CTA, its MMA thread: forwards each load's landing
  /// to the leader.
  void forwardLandings();
  /// The MMA thread: every piece's K steps into the accumulator ring.
  void issueTensorMemoryMmas(const TensorMemoryRoles &r);
  /// The epilogue warpgroup: every piece's accumulator (or folded
  /// partials) out of tensor memory, stored, its buffer handed back.
  void storeTensorMemoryTiles(const TensorMemoryRoles &r);
  /// The CTA's ordinal of the piece of tile `tile`: its accumulator buffer
  /// is the ordinal % accBuffers.
  Value tensorMemoryPiece(Value tile);
  /// The tensor-memory address of the accumulator buffer of ordinal `t`.
  Value tensorMemoryAcc(const TensorMemoryRoles &r, Value t);
  /// scale: block in tensor memory: the epilogue warpgroup's loop over a
  /// piece's K steps from load number g, each waiting for the step's
  /// partial (buffer g % accBuffers of the ring `partials`, from tensor
  /// memory address `accBase`), folding it into the f32 sum at `sum` with
  /// its factors (gemmc.acc_fold, gemmc.acc_fold_scales a step ahead) and
  /// handing the buffer back; returns `sum`.
  Value foldPartials(SmemLayoutAttr partials, Value accBase, Value sum, Value m0, Value n0,
                     Value kBegin, Value kEnd, Value g, int64_t ctas);
  void namedBarrier(Value id, Value threads, bool arrive) {
    NamedBarrierOp::create(ir.b, ir.loc, id, threads, arrive);
  }

  TileMatmulOp op;
  const KernelSpec &s;
  const CtaResources &res;
  SmemLayoutAttr layout;
  KernelIR ir;
  const KernelAbi &abi;
  Value tid, kTiles, isThread0;
  Value prefetched;
  bool pingpong = false, streamK = false;
  Value splitFirst, splitIterations;
};

void WarpSpecializer::initRing() {
  // A stage is consumed by every consumer warpgroup of every CTA of the
  // cluster, except under pingpong, where one warpgroup per CTA takes it.
  int64_t consumers = (pingpong ? 1 : res.consumerWarpgroups) * s.clusterSize();
  ir.ifThen(isThread0, [&] {
    RingInitOp::create(ir.b, ir.loc, op.getSmem(), /*full_arrivals=*/1,
                       /*empty_arrivals=*/consumers, layout);
  });
  // Barriers are initialized before any thread (or peer CTA) uses them.
  CtaSyncOp::create(ir.b, ir.loc, /*cluster=*/s.clusterSize() > 1);
}

void WarpSpecializer::fill(Value g, Value m0, Value n0, Value kTile,
                           bool weightsOnly, bool activationsOnly) {
  // A in boxes (mainloop.a_box_rows): the fill skips the boxes past M.
  bool clip = s.mainloop.aBoxRows > 0;
  StageFillOp::create(ir.b, ir.loc, g, m0, n0, kTile, op.getTmapA(),
                      op.getTmapB(), op.getSmem(), /*lda=*/Value(),
                      /*ldb=*/Value(), clip ? op.getM() : Value(),
                      clip ? op.getN() : Value(), clip ? op.getK() : Value(),
                      op.getSchedule(), layout, weightsOnly, activationsOnly);
}

void WarpSpecializer::load(Value g, Value m0, Value n0, Value kTile) {
  if (s.mainloop.stageScales) {
    // The producer warp: every lane waits for the stage and copies its
    // share of the scales (each lane's arrival pending on the full barrier
    // before the fill's: gemmc.stage_scales ends in a warp barrier); one
    // lane fills the stage (no pdl_wait: before_a here, the rule says).
    StageAcquireOp::create(ir.b, ir.loc, g, op.getSmem(), layout);
    StageScalesOp::create(ir.b, ir.loc, g, m0, n0, kTile,
                          EpilogueMath::kernelParam(op, abi, "scale_a"),
                          EpilogueMath::kernelParam(op, abi, "scale_b"), op.getSmem(),
                          op.getM(), op.getN(), op.getK(), op.getSchedule(), layout);
    int64_t consumerThreads = res.consumerWarpgroups * kWarpgroupSize;
    ir.ifThen(ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(consumerThreads)),
              [&] { fill(g, m0, n0, kTile); });
    return;
  }
  if (!prefetched) {
    StageAcquireOp::create(ir.b, ir.loc, g, op.getSmem(), layout);
    return fill(g, m0, n0, kTile);
  }
  auto early = scf::IfOp::create(ir.b, ir.loc,
                                 ir.cmp(arith::CmpIPredicate::ult, g, prefetched),
                                 /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(ir.b);
  ir.b.setInsertionPointToStart(&early.getThenRegion().front());
  fill(g, m0, n0, kTile, /*weightsOnly=*/false, /*activationsOnly=*/true);
  ir.b.setInsertionPointToStart(&early.getElseRegion().front());
  StageAcquireOp::create(ir.b, ir.loc, g, op.getSmem(), layout);
  fill(g, m0, n0, kTile);
}

void WarpSpecializer::prefetchWeights() {
  // The CTA's first tile is its first piece (no stream_k or split_k, the
  // rule says), loads 0 .. kTiles - 1, each in a stage of the first round:
  // no release to wait for.
  OpBuilder &b = ir.b;
  Value first = op.getFirstTile();
  Value tiles = TileCountOp::create(b, ir.loc, ir.i32, op.getM(), op.getN(), op.getSchedule());
  Value stages = ir.c32(layout.getStages());
  Value count = arith::SelectOp::create(b, ir.loc, ir.cmp(arith::CmpIPredicate::ult, kTiles, stages),
                                        kTiles, stages);
  Value hasTile = ir.cmp(arith::CmpIPredicate::ult, first, tiles);
  prefetched = arith::SelectOp::create(b, ir.loc, hasTile, count, ir.c32(0));
  auto origin = TileOriginOp::create(b, ir.loc, ir.i32, ir.i32, first, op.getM(), op.getN(),
                                     op.getSchedule());
  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), prefetched, ir.c32(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value g = loop.getInductionVar();
  StageAcquireOp::create(b, ir.loc, g, op.getSmem(), layout);
  fill(g, origin.getM0(), origin.getN0(), g, /*weightsOnly=*/true);
}

void WarpSpecializer::forEachPiece(PieceBody body) {
  auto loop = TileLoopOp::create(
      ir.b, ir.loc, ir.i32, op.getFirstTile(), op.getTileStep(), op.getM(),
      op.getN(), kTiles, /*init=*/ir.c32(0), splitFirst, splitIterations,
      op.getSchedule());
  OpBuilder::InsertionGuard guard(ir.b);
  Block *block = ir.b.createBlock(&loop.getBody(), {},
                                  SmallVector<Type>(6, ir.i32),
                                  SmallVector<Location>(6, ir.loc));
  auto a = block->getArguments();
  Value next = body(a[0], a[1], a[2], a[3], a[4], a[5]);
  YieldOp::create(ir.b, ir.loc, ValueRange{next});
}

void WarpSpecializer::produceAll() {
  OpBuilder &b = ir.b;
  forEachPiece([&](Value m0, Value n0, Value, Value kBegin, Value kEnd, Value g) {
    auto kLoop = scf::ForOp::create(b, ir.loc, kBegin, kEnd, ir.c32(1));
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value kt = kLoop.getInductionVar();
    load(ir.add(g, ir.sub(kt, kBegin)), m0, n0, kt);
    b.setInsertionPointAfter(kLoop);
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
}

Value WarpSpecializer::consumeTile(Value g0, Value m0, Value n0, bool refill,
                                   function_ref<void()> afterLastWait,
                                   Value kBegin, Value kEnd) {
  if (!kBegin) {
    kBegin = ir.c32(0);
    kEnd = kTiles;
  }
  OpBuilder &b = ir.b;
  Type accType = accumulatorType(op.getSchedule());
  Value zero = LLVM::ZeroOp::create(b, ir.loc, accType);
  // Each consumer warpgroup multiplies its own rows of the A tile (one MMA
  // M each; under pingpong, and with one consumer, the whole tile).
  int64_t warpgroupRows = mmaInstrShape(s.arch, s.a.element)->m;
  int64_t aRowBytes = s.blockK() * elementBytes(s.a.element);
  Value aSlice = pingpong || s.blockM() == warpgroupRows
                     ? ir.c32(0)
                     : ir.mul(ir.uniformWarpgroupId(),
                              ir.c32(warpgroupRows * aRowBytes));
  Value stages = ir.c32(layout.getStages());

  Value steps = ir.sub(kEnd, kBegin);
  auto stepBody = [&](Value step, Value accIn) {
    Value kt = ir.add(kBegin, step);
    Value g = ir.add(g0, step);
    StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout);
    Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g, op.getSmem(), layout);
    Value bTile = ir.sharedAt(base, layout.getBOffset());
    Value acc = MmaStageOp::create(b, ir.loc, accType, accIn, ir.sharedAt(base, aSlice), bTile,
                                   op.getSchedule());
    // Keep this step's MMAs in flight; the previous step's are complete
    // after this wait, so its stage can be released (and refilled).
    MmaWaitOp::create(b, ir.loc, /*pending=*/1);
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ugt, step, ir.c32(0)), [&] {
      Value prev = ir.sub(g, ir.c32(1));
      release(prev);
      if (!refill)
        return;
      // Load prev + stages brings K tile kt - 1 + stages into the stage
      // just released, if the tile has one.
      Value nextK = ir.add(ir.sub(kt, ir.c32(1)), stages);
      ir.ifThen(ir.andI(isThread0,
                        ir.cmp(arith::CmpIPredicate::ult, nextK, kEnd)),
                [&] { load(ir.add(prev, stages), m0, n0, nextK); });
    });
    return acc;
  };
  Value result;
  if (s.blockScaled()) {
    // The warpgroup's rows of the tile: aSlice in rows (no second
    // shuffle for the warpgroup id).
    Value rowInTile = ir.divU(aSlice, ir.c32(aRowBytes));
    Value row0 = ir.add(m0, rowInTile);
    result = s.mainloop.foldColumns > 0
                 ? foldInParts(g0, kBegin, steps, aSlice, row0, rowInTile, n0, accType)
                 : accumulateBlockScaled(steps, zero, stepBody, kBegin, row0, n0, g0,
                                         rowInTile);
  } else if (warpgroupRowBlocks(s) > 1 && s.mainloop.promotionInterval == 0) {
    assert(!refill && "two row blocks only under pingpong, which has a producer warp");
    result = accumulateByRowBlocks(g0, steps, accType);
  } else {
    result = s.mainloop.promotionInterval > 0
                 ? accumulatePromoted(steps, zero, stepBody)
                 : accumulate(steps, zero, stepBody);
  }
  if (afterLastWait)
    afterLastWait();
  MmaWaitOp::create(b, ir.loc, /*pending=*/0);
  // Release the tile's last stage too: the next tile's loads need it
  // (unless the loop released every stage it used: foldEachPart unrolled).
  if (!releasesInLoop())
    release(ir.sub(ir.add(g0, steps), ir.c32(1)));
  return result;
}

Value WarpSpecializer::accumulate(Value steps, Value init,
                                  function_ref<Value(Value, Value)> body) {
  auto loop = scf::ForOp::create(ir.b, ir.loc, ir.c32(0), steps, ir.c32(1),
                                 ValueRange{init});
  OpBuilder::InsertionGuard guard(ir.b);
  ir.b.setInsertionPointToStart(loop.getBody());
  Value next = body(loop.getInductionVar(), loop.getRegionIterArgs()[0]);
  scf::YieldOp::create(ir.b, ir.loc, next);
  return loop.getResult(0);
}

Value WarpSpecializer::accumulateByRowBlocks(Value g0, Value steps, Type accType) {
  // cuBLASLt OUTER_VEC's order (its SASS, session 10): a K tile's first row
  // block is issued and committed, then the wait for all but that group
  // (wgmma.wait_group 1: the K tile before, whose stage goes back), then the
  // other row blocks, each committed. The wait sits under one row block's
  // MMAs and the next row block follows it at once. (Session 10 tried the
  // first row block uncommitted with wait_group 0: ptxas then waited for it
  // too, -10%.) The first K tile is peeled and issued with scale-d 0
  // (`fresh`): no zeroing of the 128 accumulator registers between the
  // turn's hand-over and the tile's first wgmma, and the loop needs no
  // "step > 0" test before its release. A tile has at least one K tile (the
  // runtime rejects K = 0, and consumeTile's last release assumes it).
  OpBuilder &b = ir.b;
  int64_t rowBlocks = warpgroupRowBlocks(s);
  int64_t blockRegs = cast<LLVM::LLVMStructType>(accType).getBody().size() / rowBlocks;
  // One row block's accumulator: gemmc.mma_stage then issues that block
  // alone, A from the a_tile it is given.
  Type blockType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), SmallVector<Type>(blockRegs, ir.f32));
  int64_t aBlockBytes =
      mmaInstrShape(s.arch, s.a.element)->m * s.blockK() * elementBytes(s.a.element);
  auto issue = [&](Value acc, Value base, int64_t block, bool fresh) -> Value {
    Value aTile = ir.sharedAt(base, block * aBlockBytes);
    Value bTile = ir.sharedAt(base, layout.getBOffset());
    return MmaStageOp::create(b, ir.loc, blockType, acc, aTile, bTile, /*a_frag=*/Value(),
                              op.getSchedule(), /*columns=*/nullptr, fresh);
  };
  // The next K tile's stage is tested (gemmc.stage_ready, not blocking)
  // before the last row block is issued, and the loop carries the answer:
  // its blocking wait runs only when the stage had not landed, so the test's
  // latency lies under the row block's MMAs (OUTER_VEC's TRYWAIT there).
  StageWaitOp::create(b, ir.loc, g0, op.getSmem(), layout);
  Value base0 = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g0, op.getSmem(), layout);
  Value ignored = LLVM::PoisonOp::create(b, ir.loc, blockType);
  SmallVector<Value> init;
  Value ready1;
  for (int64_t block = 0; block < rowBlocks; ++block) {
    if (block + 1 == rowBlocks) {
      Value g1 = ir.add(g0, ir.c32(1));
      ready1 = StageReadyOp::create(b, ir.loc, b.getI1Type(), g1, op.getSmem(), layout);
    }
    init.push_back(issue(ignored, base0, block, /*fresh=*/true));
  }
  init.push_back(ready1);
  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(1), steps, ir.c32(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value g = ir.add(g0, loop.getInductionVar());
    Value ready = loop.getRegionIterArgs().back();
    Value no = arith::ConstantOp::create(b, ir.loc, b.getBoolAttr(false));
    Value notReady = ir.cmp(arith::CmpIPredicate::eq, ready, no);
    ir.ifThen(notReady, [&] { StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout); });
    Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g, op.getSmem(), layout);
    SmallVector<Value> next(loop.getRegionIterArgs().drop_back());
    next[0] = issue(next[0], base, 0, /*fresh=*/false);
    MmaWaitOp::create(b, ir.loc, /*pending=*/1);
    // The leader's arrival predicated, not branched around: a branch here
    // makes the warp reconverge right before the next row block's wgmmas
    // (session 11: round 1's hand-made loop with the arrival predicated ran
    // 1.3% faster than main's, this loop with the branch and without the
    // stage test 1.3-1.7% slower in round 2; OUTER_VEC predicates it).
    Value prev = ir.sub(g, ir.c32(1));
    StageReleaseOp::create(b, ir.loc, prev, op.getSmem(), s.clusterSize(), layout,
                           /*ctas=*/IntegerAttr(), /*predicated=*/true);
    // Past the tile's last K tile this tests a load of the other
    // warpgroup's tile; the loop ends and the answer goes unused.
    Value gNext = ir.add(g, ir.c32(1));
    Value nextReady = StageReadyOp::create(b, ir.loc, b.getI1Type(), gNext, op.getSmem(), layout);
    for (int64_t block = 1; block < rowBlocks; ++block)
      next[block] = issue(next[block], base, block, /*fresh=*/false);
    next.push_back(nextReady);
    scf::YieldOp::create(b, ir.loc, next);
  }
  SmallVector<Value> blocks(loop.getResults().take_front(rowBlocks));
  return joinStructFields(ir, accType, blocks);
}

Value WarpSpecializer::accumulatePromoted(
    Value steps, Value zero, function_ref<Value(Value, Value)> body) {
  // Rounds of `interval` steps: each starts the MMA's accumulator at zero,
  // waits for all its MMAs at the end and adds it into the f32 sum, which
  // the rounds carry.
  int64_t n = s.mainloop.promotionInterval;
  Value interval = ir.c32(n);
  Value rounds = ir.ceilDiv(steps, n);
  auto loop = scf::ForOp::create(ir.b, ir.loc, ir.c32(0), rounds, ir.c32(1),
                                 ValueRange{zero});
  OpBuilder::InsertionGuard guard(ir.b);
  ir.b.setInsertionPointToStart(loop.getBody());
  Value first = ir.mul(loop.getInductionVar(), interval);
  Value count = arith::MinUIOp::create(ir.b, ir.loc, interval, ir.sub(steps, first));
  Value part = accumulate(count, zero, [&](Value step, Value accIn) {
    return body(ir.add(first, step), accIn);
  });
  MmaWaitOp::create(ir.b, ir.loc, /*pending=*/0);
  Value sum = MmaPromoteOp::create(ir.b, ir.loc, part.getType(),
                                   loop.getRegionIterArgs()[0], part);
  scf::YieldOp::create(ir.b, ir.loc, sum);
  return loop.getResult(0);
}

Type WarpSpecializer::scalesType() {
  // The factors: one per row a thread holds in a column block of its
  // fragment (the target's accumulator layout), then one per B scale slot
  // of the tile's columns.
  int64_t rows = isaFor(s.arch).mma.accumulator.halves;
  return LLVM::LLVMStructType::getLiteral(
      ir.b.getContext(), SmallVector<Type>(rows + scaleSlots(s), ir.f32));
}

Type WarpSpecializer::aFragmentType() {
  std::optional<MmaInstrShape> instr = mmaInstrShape(s.arch, s.a.element);
  int64_t stepBytes = int64_t(instr->m) * instr->k * elementBytes(s.a.element);
  int64_t regs = s.blockK() / instr->k * stepBytes / (kWarpgroupSize * 4);
  return LLVM::LLVMStructType::getLiteral(ir.b.getContext(),
                                          SmallVector<Type>(regs, ir.i32));
}

Value WarpSpecializer::blockScales(Value kTile, Value row0, Value n0) {
  Type type = scalesType();
  Value scaleA = EpilogueMath::kernelParam(op, abi, "scale_a");
  Value scaleB = EpilogueMath::kernelParam(op, abi, "scale_b");
  return BlockScalesOp::create(ir.b, ir.loc, type, scaleA, scaleB, row0,
                               n0, kTile, op.getM(), op.getN(), op.getK(),
                               op.getSchedule())
      .getResult();
}

Value WarpSpecializer::stagedScales(Value g, Value rowInTile) {
  return StagedScalesOp::create(ir.b, ir.loc, scalesType(), g, op.getSmem(), rowInTile,
                                op.getSchedule(), layout)
      .getResult();
}

Value WarpSpecializer::foldInParts(Value g0, Value kBegin, Value steps,
                                   Value aSlice, Value row0, Value rowInTile,
                                   Value n0, Type accType) {
  OpBuilder &b = ir.b;
  FoldPiece f{g0, kBegin, steps, aSlice, row0, rowInTile, n0, accType};
  f.width = s.mainloop.foldColumns;
  f.parts = s.blockN() / f.width;
  int64_t accRegs = cast<LLVM::LLVMStructType>(accType).getBody().size();
  f.partType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(accRegs * f.width / s.blockN(), ir.f32));
  f.ignored = LLVM::PoisonOp::create(b, ir.loc, f.partType);
  f.last = ir.sub(ir.add(kBegin, steps), ir.c32(1));
  // The scales load kScaleLead K tiles ahead (the piece's last tile's again
  // past its end), through a queue the K loop carries: ncu (session 7) found
  // a load one K tile ahead still waited for at its fold.
  // With stage_scales the producer staged them with the operands: each K
  // tile's are read from its stage after the stage's wait, and the loop
  // carries no queue (lead 0; one part at a time with turns reads them one
  // K tile ahead, foldEachPart).
  f.staged = s.mainloop.stageScales;
  f.lead = f.staged ? 0 : kScaleLead;
  return foldOnePart(s) ? foldEachPart(f) : foldInGroups(f);
}

Value WarpSpecializer::foldPart(const FoldPiece &f, Value sum, Value part, Value scales,
                                int64_t p) {
  return MmaFoldOp::create(ir.b, ir.loc, f.accType, sum, part, scales, op.getSchedule(),
                           ir.b.getI64IntegerAttr(p * f.width))
      .getResult();
}

Value WarpSpecializer::pieceScalesAt(const FoldPiece &f, Value step) {
  return blockScales(ir.minU(ir.add(f.kBegin, step), f.last), f.row0, f.n0);
}

Value WarpSpecializer::foldEachPart(const FoldPiece &f) {
  // fold_group: 1 (foldOnePart): each part is waited for and folded
  // before the next is issued, one K tile a loop iteration. Every part
  // takes the one before as its (ignored: scale-d 0) input, so they share
  // one block of registers, as wgmma's accumulator must be (contiguous in
  // SASS): with a fresh value each, ptxas spilled at 128x256. With the
  // cooperative warpgroups (foldTurns), a warpgroup waits for its turn,
  // issues the part and hands the turn over before waiting for it, so the
  // tensor cores run one warpgroup's part while the other folds.
  OpBuilder &b = ir.b;
  bool turns = foldTurns(s);
  // With stage_scales and turns, a warpgroup waits for the next K tile's
  // stage and reads its scales while its last part runs (it would
  // otherwise only wait for the part), not after folding the part: the
  // fold is all that should lie between a warpgroup's last part and its
  // next K tile's first, which the tensor cores need before the other
  // warpgroup's part is done (session 9: an ldmatrix added there cost
  // 4-6%). The loop carries the K tile's scales (read before the loop for
  // the first). Pingpong (no turns: the other warpgroup is in its
  // epilogue) reads them after the stage's wait: 4 more registers
  // carried spilled there.
  // Measured and not kept (bench/RESULTS.md, session 13, fp8r): the ring
  // position (stage, parity) carried instead of the load number divided
  // by the stage count (0.995-0.998x: the selects took as many SASS
  // instructions as the division); with it, the first part's turn taken
  // under the K tile before's last part, so that no barrier lies between
  // the last fold and the next first wgmma (0.992-1.005x in three
  // processes; ncu: the tensor pipe's idle unchanged); and the next stage
  // only tested under the last part and waited for after its fold, the
  // scales read under the first part (0.86-0.88x: the scales' read then
  // waited for the second part's turn, in front of the first fold).
  // Free-running warpgroups (warp_specialized) wait ahead with
  // mainloop.wait_ahead (session 42, bench/lead42/README.md): ncu's
  // per-instruction samples put the free-running 128x192 K tile's 34% more
  // cycles than DeepGEMM's in the instructions between the fold and the
  // next first wgmma (ptxas does not move them across the loop's back
  // edge); ahead, the 128x256 free-running kernel ran 1.05-1.06x. Not the
  // default: the three warpgroups of 192x128 wait for their loads (the
  // stage's wait then delays the fold: 0.96x).
  bool ahead = f.staged && (turns || s.mainloop.waitAhead);
  auto stagedScalesIf = [&](Value cond, Value g) -> Value {
    Type type = scalesType();
    auto read = scf::IfOp::create(b, ir.loc, TypeRange{type}, cond,
                                  /*addThenBlock=*/true, /*addElseBlock=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(read.thenBlock());
    StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout);
    Value scales = stagedScales(g, f.rowInTile);
    scf::YieldOp::create(b, ir.loc, scales);
    b.setInsertionPointToStart(read.elseBlock());
    Value none = LLVM::PoisonOp::create(b, ir.loc, type);
    scf::YieldOp::create(b, ir.loc, none);
    return read.getResult(0);
  };
  SmallVector<Value> init{LLVM::ZeroOp::create(b, ir.loc, f.accType), f.ignored};
  // With `ahead`, the loop also carries the next K tile's stage base,
  // computed under the last part with its wait: the loop top then holds
  // only the release and the turn before the first part is issued.
  if (ahead) {
    init.push_back(stagedScalesIf(ir.cmp(arith::CmpIPredicate::ugt, f.steps, ir.c32(0)), f.g0));
    init.push_back(StageBaseOp::create(b, ir.loc, ir.sharedPtr, f.g0, op.getSmem(), layout));
  }
  for (int64_t i = 0; i < f.lead; ++i)
    init.push_back(pieceScalesAt(f, ir.c32(i)));
  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), f.steps, ir.c32(1), init);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  auto carried = loop.getRegionIterArgs();
  // This K tile's scales: the queue's front, or read ahead.
  bool carriesScales = !f.staged || ahead;
  Value sum = carried[0], part = carried[1];
  Value scales = carriesScales ? carried[2] : Value();
  // With `ahead`, this K tile's stage base, after its scales.
  Value carriedBase = ahead ? Value(carried[3]) : Value();
  int64_t fixedCarried = 2 + (carriesScales ? 1 : 0) + (ahead ? 1 : 0);
  // The K tile before: all its MMAs were waited for. Measured elsewhere
  // (bench/RESULTS.md, session 12, fp8p and lead rounds p4-p5): released
  // after this K tile's first part is issued and handed over, predicated
  // -1.7..-2.5%, branched +1% on cube4096 but -0.4% on the 8192 cubes;
  // here with the arrival predicated -3.2% (the form that gained 2%
  // between the pingpong loop's row blocks).
  // Unrolled (mainloop.unroll), each K tile releases its own stage after
  // its fold, the leader's arrival predicated: no branch then lies between
  // a fold and the next K tile's wgmmas, and the caller releases nothing
  // after the loop.
  bool releaseAtEnd = releasesInLoop();
  if (!releaseAtEnd)
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ugt, step, ir.c32(0)),
              [&] { release(ir.sub(ir.add(f.g0, step), ir.c32(1))); });
  SmallVector<Value> queue(carried.begin() + fixedCarried, carried.end());
  if (!f.staged)
    queue.push_back(pieceScalesAt(f, ir.add(step, ir.c32(kScaleLead))));
  // The first part's turn is taken before the stage's wait (with
  // `ahead`, done under the last K tile's last part).
  if (turns)
    foldTurn(/*handOver=*/false);
  // Without `ahead`, this K tile's load is waited for and addressed here.
  Value g, base = carriedBase;
  if (!ahead) {
    g = ir.add(f.g0, step);
    StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout);
    base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g, op.getSmem(), layout);
  }
  Value aTile = ir.sharedAt(base, f.aSlice);
  Value bTile = ir.sharedAt(base, layout.getBOffset());
  if (f.staged && !ahead)
    scales = stagedScales(g, f.rowInTile);
  // a_registers: the warpgroup's A slice is read from shared memory once
  // a K tile, not once a part (wgmma's register form).
  Value aFrag;
  if (s.mainloop.aRegisters)
    aFrag = MmaAFragmentOp::create(b, ir.loc, aFragmentType(), aTile, op.getSchedule());
  for (int64_t p = 0; p < f.parts; ++p) {
    part = MmaStageOp::create(b, ir.loc, f.partType, part, aTile, bTile, aFrag, op.getSchedule(),
                              b.getDenseI64ArrayAttr({p * f.width, f.width}), b.getUnitAttr());
    // The next part's turn is waited for while this one runs, not after
    // its fold (the other warpgroup hands it over when it has issued its
    // own part, which the fold does not wait for): the same order of
    // waits and hand-overs, off the path between a part finishing and the
    // next being issued.
    if (turns)
      foldTurn(/*handOver=*/true);
    if (turns && p + 1 < f.parts)
      foldTurn(/*handOver=*/false);
    if (ahead && p + 1 == f.parts) {
      // Past the piece's last K tile, its own stage again (waited for,
      // not yet released): no branch, which would let LLVM sink the
      // first part's fold below the second part's wgmmas (both parts
      // live: ptxas spilled 588 bytes).
      Value nextStep = ir.add(step, ir.c32(1));
      Value lastStep = ir.sub(f.steps, ir.c32(1));
      Value inPiece = ir.minU(nextStep, lastStep);
      Value nextG = ir.add(f.g0, inPiece);
      StageWaitOp::create(b, ir.loc, nextG, op.getSmem(), layout);
      queue.push_back(stagedScales(nextG, f.rowInTile));
      queue.push_back(StageBaseOp::create(b, ir.loc, ir.sharedPtr, nextG, op.getSmem(), layout));
    }
    MmaWaitOp::create(b, ir.loc, /*pending=*/0);
    sum = foldPart(f, sum, part, scales, p);
  }
  if (releaseAtEnd) {
    StageReleaseOp::create(b, ir.loc, ir.add(f.g0, step), op.getSmem(), s.clusterSize(), layout,
                           /*ctas=*/IntegerAttr(), /*predicated=*/true);
  }
  SmallVector<Value> next{sum, part};
  next.append(queue);
  scf::YieldOp::create(b, ir.loc, next);
  return unrolled(loop);
}

Value WarpSpecializer::unrolled(scf::ForOp loop) {
  // mainloop.unroll (free-running warpgroups only, rule fold): the K loop
  // unrolled, its remainder in a loop after it, so that the next K tile's
  // loop top (release, stage wait, scale reads, descriptors) lies in one
  // basic block with the fold before it and ptxas may schedule one among
  // the other (session 42, bench/lead42/README.md: DeepGEMM's loop, 8x
  // unrolled, keeps 35 instructions there where gemmc's keeps 92).
  int64_t factor = s.mainloop.unroll;
  if (factor <= 1)
    return loop.getResult(0);
  FailureOr<UnrolledLoopInfo> info = loopUnrollByFactor(loop, factor);
  assert(succeeded(info) && "a loop of positive bounds and step unrolls");
  scf::ForOp last = info->epilogueLoopOp ? *info->epilogueLoopOp : loop;
  return last.getResult(0);
}

Value WarpSpecializer::foldInGroups(const FoldPiece &f) {
  OpBuilder &b = ir.b;
  // K tiles `step` .. step + tiles - 1 of the piece as one group: every part
  // but the first folds the one before after mma_wait 1; the last is folded
  // after mma_wait 0. Carries the sum, the two register blocks the parts
  // take in turn (each part's ignored input is the block's last part, so
  // that ptxas keeps each block in one place: with a fresh value each it
  // spilled at fold_group 8 and at 128x192 in groups of four) and the
  // scales of the next kScaleLead K tiles.
  // (With stage_scales on the cooperative schedule, the warpgroups taking
  // turns a K tile here as with fold_group 1, each issuing all of its K
  // tile's parts in its turn, measured 0.97-1.00x on 128x192 in parts of 96
  // and 128x256 in parts of 64: bench/RESULTS.md, session 12, fp8p.)
  auto group = [&](Value step, int64_t tiles, ValueRange in) -> SmallVector<Value> {
    Value sum = in[0];
    Value blocks[2] = {in[1], in[2]};
    SmallVector<Value> queue(in.begin() + 3, in.end());
    int64_t issued = 0;
    // The previous group's last stage: its MMAs were all waited for.
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ugt, step, ir.c32(0)),
              [&] { release(ir.sub(ir.add(f.g0, step), ir.c32(1))); });
    Value previous, previousScales;
    int64_t previousPart = 0;
    for (int64_t t = 0; t < tiles; ++t) {
      Value kStep = ir.add(step, ir.c32(t));
      Value g = ir.add(f.g0, kStep);
      Value scales;
      if (!f.staged) {
        scales = queue.front();
        queue.erase(queue.begin());
      }
      StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout);
      Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g, op.getSmem(), layout);
      Value aTile = ir.sharedAt(base, f.aSlice);
      Value bTile = ir.sharedAt(base, layout.getBOffset());
      if (f.staged)
        scales = stagedScales(g, f.rowInTile);
      for (int64_t p = 0; p < f.parts; ++p) {
        Value &block = blocks[issued++ % 2];
        Value part = MmaStageOp::create(
            b, ir.loc, f.partType, block, aTile, bTile, /*a_frag=*/Value(), op.getSchedule(),
            b.getDenseI64ArrayAttr({p * f.width, f.width}), b.getUnitAttr());
        block = part;
        if (previous) {
          MmaWaitOp::create(b, ir.loc, /*pending=*/1);
          // The previous K tile's last part is done: no MMA reads its stage.
          if (p == 0)
            release(ir.sub(g, ir.c32(1)));
          sum = foldPart(f, sum, previous, previousScales, previousPart);
        }
        previous = part;
        previousScales = scales;
        previousPart = p;
      }
      // The scales kScaleLead K tiles on load under this tile's last part.
      if (!f.staged)
        queue.push_back(pieceScalesAt(f, ir.add(kStep, ir.c32(kScaleLead))));
    }
    MmaWaitOp::create(b, ir.loc, /*pending=*/0);
    SmallVector<Value> out{foldPart(f, sum, previous, previousScales, previousPart),
                           blocks[0], blocks[1]};
    out.append(queue);
    return out;
  };
  auto loopOver = [&](Value from, Value to, int64_t tiles,
                      ValueRange init) -> SmallVector<Value> {
    auto loop = scf::ForOp::create(b, ir.loc, from, to, ir.c32(tiles), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    scf::YieldOp::create(b, ir.loc, group(loop.getInductionVar(), tiles, loop.getRegionIterArgs()));
    return llvm::to_vector_of<Value>(loop.getResults());
  };
  SmallVector<Value> carried{LLVM::ZeroOp::create(b, ir.loc, f.accType), f.ignored, f.ignored};
  for (int64_t i = 0; i < f.lead; ++i)
    carried.push_back(pieceScalesAt(f, ir.c32(i)));
  // Groups of whole K tiles, kFoldGroupParts parts or more (Spec.h: each
  // starts with no MMA in flight); the K tiles that do not fill a group go
  // first, one a group.
  int64_t tiles = foldGroupTiles(s);
  Value start = ir.c32(0);
  if (tiles > 1) {
    start = ir.remU(f.steps, ir.c32(tiles));
    carried = loopOver(ir.c32(0), start, 1, carried);
  }
  return loopOver(start, f.steps, tiles, carried)[0];
}

Value WarpSpecializer::accumulateBlockScaled(
    Value steps, Value zero, function_ref<Value(Value, Value)> body,
    Value kBegin, Value row0, Value n0, Value g0, Value rowInTile) {
  OpBuilder &b = ir.b;
  if (s.mainloop.stageScales) {
    // The K tile's scales from its stage, after the wait in `body`; the
    // stage is released in the next step's body, after this fold.
    auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), steps, ir.c32(1), ValueRange{zero});
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value part = body(step, zero);
    Value scales = stagedScales(ir.add(g0, step), rowInTile);
    MmaWaitOp::create(b, ir.loc, /*pending=*/0);
    Value sum = MmaFoldOp::create(b, ir.loc, part.getType(), loop.getRegionIterArgs()[0], part,
                                  scales, op.getSchedule(), /*column=*/nullptr);
    scf::YieldOp::create(b, ir.loc, ValueRange{sum});
    return loop.getResult(0);
  }
  auto scalesOf = [&](Value kTile) { return blockScales(kTile, row0, n0); };
  Value end = ir.add(kBegin, steps);
  Value last = ir.sub(end, ir.c32(1));
  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), steps, ir.c32(1),
                                 ValueRange{zero, scalesOf(kBegin)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  Value part = body(step, zero);
  // The next K tile's scales load while this tile's MMAs run (the last
  // round loads its own again rather than past the piece).
  Value kTile = ir.add(kBegin, step);
  Value kNext = ir.add(kTile, ir.c32(1));
  Value next = scalesOf(ir.minU(kNext, last));
  MmaWaitOp::create(b, ir.loc, /*pending=*/0);
  Value sum = MmaFoldOp::create(b, ir.loc, part.getType(),
                                loop.getRegionIterArgs()[0], part,
                                loop.getRegionIterArgs()[1], op.getSchedule(),
                                /*column=*/nullptr);
  scf::YieldOp::create(b, ir.loc, ValueRange{sum, next});
  return loop.getResult(0);
}

void WarpSpecializer::release(Value g) {
  StageReleaseOp::create(ir.b, ir.loc, g, op.getSmem(), s.clusterSize(), layout,
                         /*ctas=*/IntegerAttr());
}

void WarpSpecializer::epilogue(Value acc, Value m0, Value n0, Value staging) {
  // A TMA-store epilogue gets its warpgroup's ring of chunk buffers.
  Value buffer;
  if (op.getTmapC()) {
    int64_t ringBytes = res.epilogueBuffers * abi.c.partBytes;
    buffer = ir.sharedAt(op.getSmem(),
                         ir.add(ir.c32(layout.getEpilogue()),
                                ir.mul(ir.warpgroupId(), ir.c32(ringBytes))));
  }
  EpilogueOp::create(ir.b, ir.loc, acc, op.getC(), m0, n0, op.getM(), op.getN(),
                     op.getLdc(), op.getAlpha(), op.getBeta(), op.getTmapC(),
                     buffer, staging, op.getSchedule());
}

void WarpSpecializer::drainStores() {
  // The epilogue's last stores still read shared memory (and write C):
  // the warpgroup's leader, which issued them, waits before the CTA exits.
  if (op.getTmapC())
    ir.ifThen(ir.isWarpgroupLeader(), [&] {
      StoreDrainOp::create(ir.b, ir.loc, /*pending=*/0, /*read=*/false);
    });
}

void WarpSpecializer::buildMultistage() {
  forEachPiece([&](Value m0, Value n0, Value, Value, Value, Value g) {
    // Thread 0 loads the tile's first steps; the K loop refills the rest.
    ir.ifThen(isThread0, [&] {
      for (int64_t st = 0; st < layout.getStages(); ++st)
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, ir.c32(st), kTiles),
                  [&] { load(ir.add(g, ir.c32(st)), m0, n0, ir.c32(st)); });
    });
    epilogue(consumeTile(g, m0, n0, /*refill=*/true), m0, n0);
    return ir.add(g, kTiles);
  });
  // Multistage has no producer to finish early: after the CTA's last tile.
  launchDependentsAt(PdlLaunch::AfterMainloop);
  drainStores();
}

void WarpSpecializer::everyThreadFill(Value g, Value m0, Value n0, Value kTile, int part,
                                      bool inside) {
  OpBuilder &b = ir.b;
  Value lda = op.getLda(), ldb = op.getLdb();
  StageFillOp::create(b, ir.loc, g, m0, n0, kTile, op.getTmapA(), op.getTmapB(),
                      op.getSmem(), lda, ldb, inside ? Value() : op.getM(),
                      inside ? Value() : op.getN(), inside ? Value() : op.getK(),
                      op.getSchedule(), layout, /*weights_only=*/part == 2,
                      /*activations_only=*/part == 1);
}

Value WarpSpecializer::mmaFragments(Type fragType, Value g, int64_t kStep) {
  OpBuilder &b = ir.b;
  Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, g, op.getSmem(), layout);
  return MmaFragmentsOp::create(b, ir.loc, fragType, base,
                                ir.sharedAt(base, layout.getBOffset()),
                                b.getI64IntegerAttr(kStep), op.getSchedule())
      .getResult();
}

Value WarpSpecializer::prefetchedKLoop(Value m0, Value n0, Value kBegin, Value kEnd, Value g,
                                       Type accType, Value zero) {
  OpBuilder &b = ir.b;
  int64_t stages = layout.getStages();
  Value ahead = ir.c32(stages - 1);
  bool spread = sm80SpreadsFills(s);
  std::optional<MmaSyncWarpGrid> grid = mmaSyncWarpGrid(s);
  assert(grid && "checkLoweringSupport refuses an sm_80 tile without a warp grid");
  int64_t kSteps = s.blockK() / isaFor(s.arch).mma.k(s.a.element);
  Type fragType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(mmaSyncStepFragmentRegs(*grid), ir.i32));
  StageWaitOp::create(b, ir.loc, g, op.getSmem(), layout);
  // The K loop, its refills clipped or `inside` (their K tile at most
  // lastTile).
  auto kLoop = [&](ValueRange init, bool inside, Value lastTile = Value()) {
    // Over the K tile kt itself, load g - kBegin + kt: a stream-K
    // piece keeps no step count beside kt live (registers: 255).
    Value gBase = ir.sub(g, kBegin);
    auto loop = scf::ForOp::create(b, ir.loc, kBegin, kEnd, ir.c32(1), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value accIn = loop.getRegionIterArgs()[0], cur = loop.getRegionIterArgs()[1];
    Value gj = ir.add(gBase, kt), gNext = ir.add(gj, ir.c32(1));
    Value refill = ir.add(gj, ahead), refillTile = ir.add(kt, ahead);
    if (lastTile)
      refillTile = ir.minU(refillTile, lastTile);
    if (!spread)
      everyThreadFill(refill, m0, n0, refillTile, /*part=*/0, inside);
    for (int64_t kk = 0; kk < kSteps; ++kk) {
      // Spread: B's copies commit the group before the wait below
      // counts it.
      if (spread && kk == kSteps / 2)
        everyThreadFill(refill, m0, n0, refillTile, /*part=*/2, inside);
      Value next;
      if (kk + 1 < kSteps) {
        next = mmaFragments(fragType, gj, kk + 1);
      } else {
        StageWaitOp::create(b, ir.loc, gNext, op.getSmem(), layout);
        next = mmaFragments(fragType, gNext, 0);
      }
      if (spread && kk == 0)
        everyThreadFill(refill, m0, n0, refillTile, /*part=*/1, inside);
      accIn = MmaStepOp::create(b, ir.loc, accType, accIn, cur, op.getSchedule());
      cur = next;
    }
    scf::YieldOp::create(b, ir.loc, ValueRange{accIn, cur});
    return loop.getResults();
  };
  // The zero-fill's selects and src-size cost the K loop a third of its
  // instructions (a100_bf16_128x256x32: 166 SASS instructions a K tile
  // against 124 without; 0.87x the speed: bench/RESULTS.md, sm80e). A
  // tile inside M and N whose K is whole K tiles runs its K loop with
  // fills that copy 16 bytes each unchecked; the refills past the last
  // K tile, never multiplied, copy it again instead of zeros. Any other
  // tile runs the clipped loop. Two loops in the branches of one if:
  // one after the other, each holding its own row pointers and the
  // accumulators, ptxas spills 16-152 bytes at 12 copies a thread.
  SmallVector<Value> head{zero, mmaFragments(fragType, g, 0)};
  Value wholeK = ir.cmp(arith::CmpIPredicate::eq, ir.remU(op.getK(), ir.c32(s.blockK())),
                        ir.c32(0));
  Value insideN =
      ir.cmp(arith::CmpIPredicate::ule, ir.add(n0, ir.c32(s.blockN())), op.getN());
  Value unchecked = ir.andI(
      ir.andI(ir.cmp(arith::CmpIPredicate::ule, ir.add(m0, ir.c32(s.blockM())), op.getM()),
              insideN),
      wholeK);
  auto branch = scf::IfOp::create(b, ir.loc, TypeRange{accType}, unchecked,
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&branch.getThenRegion().front());
    scf::YieldOp::create(
        b, ir.loc,
        kLoop(head, /*inside=*/true, /*lastTile=*/ir.sub(kEnd, ir.c32(1)))[0]);
    b.setInsertionPointToStart(&branch.getElseRegion().front());
    scf::YieldOp::create(b, ir.loc, kLoop(head, /*inside=*/false)[0]);
  }
  return branch.getResult(0);
}

void WarpSpecializer::buildEveryThreadFills() {
  // Every thread copies its share of each stage (one commit group per
  // load) and every warp multiplies. Load g goes to stage g % stages. The
  // tile's first stages - 1 loads go before its K loop; K tile j (load
  // gj = g + j) refills stage gj - 1 with load gj + stages - 1, then
  // multiplies stage gj. The waits (stage_wait: this thread's groups but
  // stages - 2 younger ones, then a CTA barrier, after which no warp reads
  // the stage before any more) count every load alike: loads past the last
  // K tile are zero-filled but committed, and stage_release drains them.
  //
  // Where the registers allow (mmaSyncPrefetchFits), each warp reads its
  // fragments one k step ahead of its MMAs across the stage boundary too
  // (gemmc.mma_fragments, gemmc.mma_step): tile j waits for load gj + 1
  // before its last k step's MMAs, whose fragments are already in
  // registers, then reads load gj + 1's first fragments and carries them to
  // tile j + 1, so the barrier never stands between a fragment read and the
  // MMA that waits for it; a CTA barrier after the loop keeps the next
  // tile's first fills off the stage that last read touched. Otherwise tile
  // j waits for load gj at its top and gemmc.mma_stage multiplies the stage
  // (fragments one k step ahead within it).
  //
  // The epilogue stages the accumulators through the ring's space where
  // mmaSyncStaging says they fit: after the last tile's release (every
  // thread's copies, the trailing zero-fills included, have landed) a CTA
  // barrier lets no warp write there while another still reads a stage or
  // a copy may land; with several tiles a CTA, a second one after the
  // epilogue keeps the next tile's fills off the areas still being read.
  OpBuilder &b = ir.b;
  int64_t stages = layout.getStages();
  bool prefetch = mmaSyncPrefetchFits(s, res);
  bool staged = mmaSyncStaging(s, res).has_value();
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd, Value g) {
    // A piece is K tiles [kBegin, kEnd) of its tile: the whole K loop but
    // under stream_k. Its loads are numbered from g by the piece's step.
    Value steps = ir.sub(kEnd, kBegin);
    Value ahead = ir.c32(stages - 1);
    for (int64_t st = 0; st + 1 < stages; ++st) {
      Value k = ir.add(kBegin, ir.c32(st));
      everyThreadFill(ir.add(g, ir.c32(st)), m0, n0, k);
    }
    Type accType = accumulatorType(op.getSchedule());
    Value zero = LLVM::ZeroOp::create(b, ir.loc, accType);
    Value acc;
    if (!prefetch) {
      acc = accumulate(steps, zero, [&](Value step, Value accIn) {
        Value gj = ir.add(g, step);
        StageWaitOp::create(b, ir.loc, gj, op.getSmem(), layout);
        Value kAhead = ir.add(ir.add(kBegin, step), ahead);
        everyThreadFill(ir.add(gj, ahead), m0, n0, kAhead);
        Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, gj, op.getSmem(), layout);
        return MmaStageOp::create(b, ir.loc, accType, accIn, base,
                                  ir.sharedAt(base, layout.getBOffset()), op.getSchedule())
            .getResult();
      });
    } else {
      acc = prefetchedKLoop(m0, n0, kBegin, kEnd, g, accType, zero);
    }
    release(ir.sub(ir.add(g, steps), ir.c32(1)));
    if (prefetch || staged)
      CtaSyncOp::create(b, ir.loc, /*cluster=*/false);
    Value staging = staged ? op.getSmem() : Value();
    if (!streamK) {
      epilogue(acc, m0, n0, staging);
    } else {
      // Every thread multiplies, so every thread takes part in the fixup;
      // the piece that finishes the tile stores it.
      auto fixup = StreamKFixupOp::create(
          b, ir.loc, acc, tile, kBegin, kEnd, op.getFirstTile(), op.getTileStep(),
          kTiles, splitFirst, splitIterations, op.getWorkspace(), res.threads,
          op.getSchedule());
      OpBuilder::InsertionGuard inner(b);
      Block *body = b.createBlock(&fixup.getBody(), {}, {acc.getType()}, {ir.loc});
      epilogue(body->getArgument(0), m0, n0, staging);
      YieldOp::create(b, ir.loc);
    }
    if (staged && s.tileScheduler.kind != TileSchedulerKind::DataParallel)
      CtaSyncOp::create(b, ir.loc, /*cluster=*/false);
    return ir.add(g, steps);
  });
}

void WarpSpecializer::buildWarpSpecialized() {
  OpBuilder &b = ir.b;
  int64_t consumerThreads = res.consumerWarpgroups * kWarpgroupSize;
  Value isProducer =
      ir.cmp(arith::CmpIPredicate::uge, tid, ir.c32(consumerThreads));
  auto roles = scf::IfOp::create(b, ir.loc, isProducer, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  // Producer warpgroup: give registers back, one thread issues every load.
  b.setInsertionPointToStart(&roles.getThenRegion().front());
  SetMaxRegistersOp::create(b, ir.loc, res.producerRegs, /*increase=*/false);
  // stage_scales: the producer's first warp copies the block scales, one of
  // its lanes the operands (load).
  Value producer = s.mainloop.stageScales
                       ? ir.cmp(arith::CmpIPredicate::ult, tid, ir.c32(consumerThreads + kWarpSize))
                       : ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(consumerThreads));
  ir.ifThen(producer, [&] {
    if (s.pdlWait == PdlWait::BeforeA) {
      // The weights do not depend on the previous kernel: the first stages'
      // B loads go out before the wait, the rest after it.
      prefetchWeights();
      WaitPriorGridsOp::create(b, ir.loc);
    }
    produceAll();
    // The producer has issued the CTA's last load: its mainloop is over.
    launchDependentsAt(PdlLaunch::AfterMainloop);
  });
  // Consumer warpgroups: take the registers the accumulators need.
  b.setInsertionPointToStart(&roles.getElseRegion().front());
  SetMaxRegistersOp::create(b, ir.loc, res.regCapPerThread, /*increase=*/true);
  // pdl_wait: before_a: the consumers read C (beta) only in the epilogue,
  // but they wait here, as every thread of the kernel does before the
  // first read of anything the previous kernel may write.
  if (s.pdlWait == PdlWait::BeforeA)
    WaitPriorGridsOp::create(b, ir.loc);
  if (pingpong)
    return buildPingpongConsumers();
  if (foldTurns(s))
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ne, ir.warpgroupId(), ir.c32(0)),
              [&] { foldTurn(/*handOver=*/true); });
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd,
                   Value g) {
    Value acc = consumeTile(g, m0, n0, /*refill=*/false, nullptr, kBegin, kEnd);
    if (!streamK) {
      epilogue(acc, m0, n0);
    } else {
      // The tile is stored by the piece that finishes it.
      auto fixup = StreamKFixupOp::create(
          b, ir.loc, acc, tile, kBegin, kEnd, op.getFirstTile(),
          op.getTileStep(), kTiles, splitFirst, splitIterations,
          op.getWorkspace(), consumerThreads, op.getSchedule());
      OpBuilder::InsertionGuard inner(b);
      Block *body = b.createBlock(&fixup.getBody(), {}, {acc.getType()}, {ir.loc});
      epilogue(body->getArgument(0), m0, n0);
      YieldOp::create(b, ir.loc);
    }
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
  if (foldTurns(s))
    ir.ifThen(ir.cmp(arith::CmpIPredicate::eq, ir.warpgroupId(), ir.c32(0)),
              [&] { foldTurn(/*handOver=*/false); });
  drainStores();
}

void WarpSpecializer::buildPingpongConsumers() {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  // Warpgroup w computes the CTA's tiles w, w + 2, ... (local numbering),
  // whose loads are numbered from tile * kTiles as the producer issues them.
  // Their mainloops take turns, handing over through two named barriers:
  // "warpgroup w may start" is barrier kOrderBarrier + w, arrived at by the
  // other warpgroup once it has waited for all loads of its tile. Besides
  // putting one warpgroup's epilogue under the other's mainloop, the turns
  // keep each full-barrier wait at most one phase ahead of its barrier (a
  // parity wait two phases ahead would pass at once).
  //
  // The warpgroup id comes from a shuffle of lane 0's, which ptxas knows is
  // the same in every lane: the load numbers, stage indices and wgmma
  // descriptors derived from it then live in uniform registers, as the
  // cooperative schedule's do. From tid / 128 they were vector values moved
  // into uniform registers (R2UR) before every wgmma, on the path one
  // warpgroup alone issues from (ncu, session 10: the 128x128 pingpong
  // kernel's K loop ran 5% slower per K tile than the cooperative one's).
  Value wg = ir.uniformWarpgroupId();
  // Two wgmma row blocks (BLOCK_M = 128): each is stored as a 64-row
  // tile of its own (the epilogue's fragment and C's TMA box), the
  // second at m0 + 64. With per-column scales through a TMA store both
  // go to one epilogue, which stores them chunk by chunk, each chunk's
  // column scales loaded once for both blocks (one epilogue a block
  // loaded them twice). Measured (fp8q, with the 8-byte loads): LSU
  // instructions 2.23 -> 1.44 M on cube8192, +0.2% (bench/RESULTS.md).
  auto storeTile = [&](Value acc, Value m0, Value n0) {
    int64_t rowBlocks = warpgroupRowBlocks(s), blockRows = s.blockM() / rowBlocks;
    bool oneEpilogueATile = s.b.scale == Scale::Col && op.getTmapC();
    int64_t blockRegs = cast<LLVM::LLVMStructType>(acc.getType()).getBody().size() / rowBlocks;
    if (oneEpilogueATile)
      epilogue(acc, m0, n0);
    else
      for (int64_t block = 0; block < rowBlocks; ++block) {
        Value part = rowBlocks == 1 ? acc : structFields(ir, acc, block * blockRegs, blockRegs);
        epilogue(part, block == 0 ? m0 : ir.add(m0, ir.c32(block * blockRows)), n0);
      }
  };
  if (streamK)
    return buildPingpongPieces(wg, storeTile);
  Value isFirst = ir.cmp(arith::CmpIPredicate::eq, wg, ir.c32(0));
  Value tiles = TileCountOp::create(b, loc, ir.i32, op.getM(), op.getN(), op.getSchedule());
  Value first = op.getFirstTile(), step = op.getTileStep();
  Value hasAny = ir.cmp(arith::CmpIPredicate::ult, first, tiles);
  Value stepLess1 = ir.sub(step, ir.c32(1));
  Value mine = arith::SelectOp::create(
      b, loc, hasAny, ir.divU(ir.add(ir.sub(tiles, first), stepLess1), step), ir.c32(0));
  Value turns = ir.divU(ir.add(mine, ir.c32(1)), ir.c32(2));
  Value myTurn = ir.add(ir.c32(kOrderBarrier), wg);
  Value otherTurn = ir.add(ir.c32(kOrderBarrier), ir.sub(ir.c32(1), wg));
  Value pair = ir.c32(2 * kWarpgroupSize);
  auto waitTurn = [&] { namedBarrier(myTurn, pair, /*arrive=*/false); };
  auto handOver = [&] { namedBarrier(otherTurn, pair, /*arrive=*/true); };

  // Turn t's tile is the CTA's tile 2t + wg (local numbering). Its origin
  // (two integer divisions) is computed a turn ahead and carried by the
  // loop, so that it lies off the path from the other warpgroup's hand-over
  // to this one's first wgmma: computed inside the turn, before the wait,
  // the machine sinking put it after the wait again. Past the last tile it
  // is computed and not used.
  auto localOf = [&](Value turn) { return ir.add(ir.mul(turn, ir.c32(2)), wg); };
  auto tileOf = [&](Value turn) {
    Value local = localOf(turn);
    return ir.add(first, ir.mul(local, step));
  };
  auto originOf = [&](Value turn) -> SmallVector<Value> {
    Value tile = tileOf(turn);
    auto origin = TileOriginOp::create(b, loc, ir.i32, ir.i32, tile, op.getM(), op.getN(),
                                       op.getSchedule());
    return {origin.getM0(), origin.getN0()};
  };
  SmallVector<Value> firstOrigin = originOf(ir.c32(0));
  auto loop = scf::ForOp::create(b, loc, ir.c32(0), turns, ir.c32(1), firstOrigin);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value turn = loop.getInductionVar();
    Value local = localOf(turn);
    Value tile = tileOf(turn);
    Value m0 = loop.getRegionIterArgs()[0], n0 = loop.getRegionIterArgs()[1];
    // Warpgroup 0 starts the first tile without waiting.
    Value notFirstGroup = ir.cmp(arith::CmpIPredicate::ne, wg, ir.c32(0));
    ir.ifThen(ir.orI(ir.cmp(arith::CmpIPredicate::ugt, turn, ir.c32(0)), notFirstGroup),
              waitTurn);
    auto has = scf::IfOp::create(b, loc, ir.cmp(arith::CmpIPredicate::ult, tile, tiles),
                                 /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(&has.getThenRegion().front());
      Value acc = consumeTile(ir.mul(local, kTiles), m0, n0, /*refill=*/false, handOver);
      storeTile(acc, m0, n0);
      // An odd tile count leaves warpgroup 1 a turn without a tile: it
      // hands over all the same, so both keep count.
      b.setInsertionPointToStart(&has.getElseRegion().front());
      handOver();
    }
    Value nextTurn = ir.add(turn, ir.c32(1));
    scf::YieldOp::create(b, loc, originOf(nextTurn));
  }
  // Warpgroup 0 takes warpgroup 1's last hand-over.
  ir.ifThen(ir.andI(isFirst, ir.cmp(arith::CmpIPredicate::ugt, turns, ir.c32(0))),
            waitTurn);
  drainStores();
}

void WarpSpecializer::buildPingpongPieces(Value wg,
                                          function_ref<void(Value, Value, Value)> storeTile) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  // stream_k: the CTA's work is pieces (whole tiles, then split ones:
  // docs/pipeline.md), and warpgroup w takes pieces w, w + 2, ... in the
  // turns of buildPingpongConsumers (piece i waits for the hand-over of
  // piece i - 1). Both warpgroups walk the producer's tile loop, so that a
  // piece's first load number is the producer's (the K tiles of every
  // earlier piece of the CTA, both warpgroups'), and act on their own
  // pieces only. A piece hands over after its last full-barrier wait,
  // before its fixup: a finishing piece (the CTA's last) may spin on its
  // peers' flags while the other warpgroup runs. Each piece's fixup is its
  // warpgroup's alone (threads = 128, its own barrier: lowerStreamKFixup);
  // a CTA writes at most one partial (its first split piece as the loop
  // goes, the only one with k_end < k_tiles), so one workspace slot a CTA
  // holds it.
  Value turn = ir.add(ir.c32(kOrderBarrier), wg);
  Value otherTurn = ir.add(ir.c32(kOrderBarrier), ir.sub(ir.c32(1), wg));
  Value pair = ir.c32(2 * kWarpgroupSize);
  auto waitTurn = [&] { namedBarrier(turn, pair, /*arrive=*/false); };
  auto handOver = [&] { namedBarrier(otherTurn, pair, /*arrive=*/true); };
  Value first = op.getFirstTile(), step = op.getTileStep();
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd, Value g) {
    Value piece = streamKPiece(ir, first, step, splitFirst, splitIterations, kTiles, tile,
                               backendFor(s.arch).streamK.splitAligned);
    Value ours = ir.cmp(arith::CmpIPredicate::eq, ir.remU(piece, ir.c32(2)), wg);
    ir.ifThen(ours, [&] {
      // Warpgroup 0 starts the first piece without waiting.
      ir.ifThen(ir.cmp(arith::CmpIPredicate::ne, piece, ir.c32(0)), waitTurn);
      Value acc = consumeTile(g, m0, n0, /*refill=*/false, handOver, kBegin, kEnd);
      auto fixup = StreamKFixupOp::create(
          b, loc, acc, tile, kBegin, kEnd, first, step, kTiles, splitFirst, splitIterations,
          op.getWorkspace(), kWarpgroupSize, op.getSchedule());
      OpBuilder::InsertionGuard inner(b);
      Block *body = b.createBlock(&fixup.getBody(), {}, {acc.getType()}, {loc});
      storeTile(body->getArgument(0), m0, n0);
      YieldOp::create(b, loc);
    });
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
  // The last piece's hand-over goes to the warpgroup of the piece after it
  // (there is none), which takes it: every arrival is waited for.
  Value pieces = streamKPieceCount(ir, first, step, splitFirst, splitIterations, kTiles);
  Value nextIsOurs = ir.cmp(arith::CmpIPredicate::eq, ir.remU(pieces, ir.c32(2)), wg);
  Value any = ir.cmp(arith::CmpIPredicate::ugt, pieces, ir.c32(0));
  ir.ifThen(ir.andI(any, nextIsOurs), waitTurn);
  drainStores();
}

void WarpSpecializer::waitPriorGrids() {
  // Programmatic dependent launch: the barrier setup (and the tensor-map
  // prefetch before it) overlaps the previous kernel; every thread waits
  // before it reads A, B or C, which that kernel may write.
  if (s.pdlWait == PdlWait::BeforeLoads)
    WaitPriorGridsOp::create(ir.b, ir.loc);
}

void WarpSpecializer::launchDependentsAt(PdlLaunch point) {
  // after_prologue: the next kernel's CTAs may then take the SMs this grid
  // leaves free (and those its CTAs free), set up and load their weights
  // while this grid runs; their griddepcontrol.wait still waits for this
  // grid to complete and its memory to be flushed, so the hint moves no
  // result. Every thread executes it: the CTA counts as triggered whichever
  // thread the hardware looks for.
  if (s.pdlLaunch == point)
    LaunchDependentsOp::create(ir.b, ir.loc);
}

/// Arrivals a tensor-memory stage's empty barrier takes per round: one
/// commit, or in a multicast cluster that is not a CTA pair ([1, 2], [2, 2])
/// one from each CTA of the cluster (whose producers write into this CTA's
/// stages).
static int64_t clusterReleases(const KernelSpec &s) {
  return mmaCtaGroup(s) == 1 && s.clusterSize() > 1 ? s.clusterSize() : 1;
}

Value WarpSpecializer::tensorMemoryPiece(Value tile) {
  // The CTA's t-th piece: tile first + t * step, or under stream_k (and
  // split_k) the pieces' ordinal, whose split tiles are not spaced by the
  // grid.
  if (streamK)
    return streamKPiece(ir, op.getFirstTile(), op.getTileStep(), splitFirst, splitIterations,
                        kTiles, tile, backendFor(s.arch).streamK.splitAligned);
  return ir.divU(ir.sub(tile, op.getFirstTile()), op.getTileStep());
}

Value WarpSpecializer::tensorMemoryAcc(const TensorMemoryRoles &r, Value t) {
  return ir.add(r.accBase, ir.mul(ir.remU(t, ir.c32(res.accBuffers)), ir.c32(s.blockN())));
}

void WarpSpecializer::buildTensorMemoryRoles() {
  // The MMA's accumulators live in tensor memory, so no thread holds them:
  // warpgroup 0 is the epilogue (tcgen05.ld gives warp w the rows 32 (w % 4)
  // .. + 31, so the four warps of a warpgroup read all 128), the next warp
  // issues the TMA loads and the last the MMAs, one thread each. The MMA
  // warp also owns the tensor memory (alloc and free are per warp).
  //
  // Two rings: the stages (full: TMA landed; empty: the MMAs that read the
  // stage are done, tcgen05.commit arrives once) and the accumulator
  // buffers (full: the tile's MMAs are done, commit; empty: every epilogue
  // thread has read it). Tile t (the CTA's t-th) uses buffer t % buffers;
  // with two, the epilogue of tile t overlaps the MMAs of tile t + 1.
  //
  // multistage: no TMA warp; the MMA thread loads too. A CTA pair: see
  // below.
  //
  // scale: block (res.foldBuffers): the accumulator ring carries K steps,
  // not tiles: step gs's MMAs write a fresh partial into buffer
  // gs % buffers, and the epilogue warpgroup folds each into the tile's f32
  // sum (a buffer of its own, after the ring's) with the K tile's block
  // scales, hands the buffer back, and after the tile's last step stores
  // the sum. Two partials let the MMAs of step gs + 1 run under the fold
  // of gs.
  OpBuilder &b = ir.b;
  MLIRContext *ctx = b.getContext();
  bool multistage = s.kernelSchedule == KernelSchedule::Multistage;
  int64_t epilogueThreads = res.consumerWarpgroups * kWarpgroupSize;
  int64_t producerWarp = epilogueThreads / kWarpSize, mmaWarp = producerWarp + 1;
  int64_t accBarriers = layout.getBarriers() + Isa::stageBarrierBytes(layout.getStages());
  auto accRing = SmemLayoutAttr::get(ctx, res.accBuffers, /*stage_bytes=*/0,
                                     /*b_offset=*/0, accBarriers, layout.getAlign(),
                                     /*swizzle=*/0, /*epilogue=*/0);
  Value slot = ir.sharedAt(op.getSmem(),
                           accBarriers + Isa::stageBarrierBytes(res.accBuffers));
  Value warp = ir.divU(tid, ir.c32(kWarpSize));
  Value isLane0 = ir.cmp(arith::CmpIPredicate::eq, ir.remU(tid, ir.c32(kWarpSize)), ir.c32(0));
  auto isWarp = [&](int64_t w) { return ir.cmp(arith::CmpIPredicate::eq, warp, ir.c32(w)); };
  // A CTA pair (cta_group::2): the leader (cluster rank 0) issues the
  // MMAs of both CTAs, so its stage full barriers also count the second
  // CTA's forwarded landing and its accumulator empty barriers both
  // epilogues; the leader's commits reach both CTAs' barriers.
  int64_t ctas = mmaCtaGroup(s);
  bool pair = ctas > 1;
  Value isLeader;
  if (pair)
    isLeader = ir.cmp(arith::CmpIPredicate::eq, NVVM::ClusterId::create(b, ir.loc, ir.i32),
                      ir.c32(0));
  // A multicast cluster that is not a pair (2x2): every CTA's MMA thread
  // releases each stage in all of them (clusterReleases).
  int64_t stageReleases = clusterReleases(s);
  bool clustered = s.clusterSize() > 1;
  auto initRings = [&](int64_t fullArrivals, int64_t accEmptyArrivals) {
    RingInitOp::create(b, ir.loc, op.getSmem(), fullArrivals,
                       /*empty_arrivals=*/stageReleases, layout);
    RingInitOp::create(b, ir.loc, op.getSmem(), /*full_arrivals=*/1,
                       accEmptyArrivals, accRing);
  };
  ir.ifThen(isThread0, [&] {
    if (!pair)
      return initRings(1, epilogueThreads);
    auto leader = scf::IfOp::create(b, ir.loc, isLeader, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&leader.getThenRegion().front());
    // Its own producer's arrival and each other CTA's forwarded one.
    initRings(/*fullArrivals=*/ctas, ctas * epilogueThreads);
    b.setInsertionPointToStart(&leader.getElseRegion().front());
    initRings(1, epilogueThreads);
  });
  ir.ifThen(isWarp(mmaWarp), [&] {
    AccAllocOp::create(b, ir.loc, slot, res.tmemColumns, ctas);
  });
  // A cluster's barriers are used across it from here on.
  CtaSyncOp::create(b, ir.loc, /*cluster=*/clustered);
  Value accBase = AccBaseOp::create(b, ir.loc, ir.i32, slot);
  // scale: block: the f32 sum after the partials' buffers.
  bool blockScaled = res.foldBuffers > 0;
  Value sumAcc;
  if (blockScaled)
    sumAcc = ir.add(accBase, ir.c32(res.accBuffers * s.blockN()));
  TensorMemoryRoles roles{accRing, accBase, sumAcc, ctas, epilogueThreads, multistage,
                          blockScaled};
  auto producer = scf::IfOp::create(b, ir.loc, ir.andI(isLane0, isWarp(producerWarp)),
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    // TMA warp, one thread: every load of every tile (multistage: none).
    b.setInsertionPointToStart(&producer.getThenRegion().front());
    if (!multistage)
      produceAll();
    b.setInsertionPointToStart(&producer.getElseRegion().front());
    auto mmaOrEpilogue = scf::IfOp::create(
        b, ir.loc, ir.andI(isLane0, isWarp(mmaWarp)), /*withElseRegion=*/true);
    // MMA warp, one thread: wait for a free accumulator, then for each K
    // step wait for the stage, issue its MMAs and let their completion
    // release the stage; the tile's last commit marks the accumulator full.
    // multistage: the same thread loads too, the tile's first `stages`
    // steps before its K loop, and after step j's MMAs step j + stages
    // into the stage they read (waiting for them to complete).
    b.setInsertionPointToStart(&mmaOrEpilogue.getThenRegion().front());
    if (pair) {
      // The second CTA's MMA thread forwards each load's landing to the
      // leader, whose thread issues the pair's MMAs.
      auto leader = scf::IfOp::create(b, ir.loc, isLeader, /*withElseRegion=*/true);
      b.setInsertionPointToStart(&leader.getElseRegion().front());
      forwardLandings();
      b.setInsertionPointToStart(&leader.getThenRegion().front());
    }
    issueTensorMemoryMmas(roles);
    // Epilogue warpgroup: wait for the tile's accumulator, store it, and
    // hand the buffer back.
    b.setInsertionPointToStart(&mmaOrEpilogue.getElseRegion().front());
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, tid, ir.c32(epilogueThreads)), [&] {
      storeTensorMemoryTiles(roles);
    });
  }
  // Every tcgen05.ld is done before the MMA warp frees the tensor memory
  // (in a pair: both CTAs' loads and the leader's MMAs; and no CTA exits
  // while its peer may still arrive on its barriers or write into it).
  CtaSyncOp::create(b, ir.loc, /*cluster=*/clustered);
  ir.ifThen(isWarp(mmaWarp), [&] {
    AccFreeOp::create(b, ir.loc, accBase, res.tmemColumns, ctas);
  });
}

void WarpSpecializer::forwardLandings() {
  OpBuilder &b = ir.b;
  forEachPiece([&](Value, Value, Value, Value kBegin, Value kEnd, Value g) {
    auto kLoop = scf::ForOp::create(b, ir.loc, ir.c32(0), ir.sub(kEnd, kBegin), ir.c32(1));
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(kLoop.getBody());
    Value gs = ir.add(g, kLoop.getInductionVar());
    StageWaitOp::create(b, ir.loc, gs, op.getSmem(), layout);
    StageForwardOp::create(b, ir.loc, gs, op.getSmem(), layout);
    b.setInsertionPointAfter(kLoop);
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
}

void WarpSpecializer::issueTensorMemoryMmas(const TensorMemoryRoles &r) {
  OpBuilder &b = ir.b;
  bool multistage = r.multistage, blockScaled = r.blockScaled, pair = r.ctas > 1;
  int64_t ctas = r.ctas;
  SmemLayoutAttr accRing = r.accRing;
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd, Value g) {
    Value t = tensorMemoryPiece(tile);
    Value steps = multistage ? ir.sub(kEnd, kBegin) : Value();
    auto loadStep = [&](Value step) {
      Value kStep = ir.add(kBegin, step);
      load(ir.add(g, step), m0, n0, kStep);
    };
    if (multistage)
      for (int64_t st = 0; st < layout.getStages(); ++st)
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, ir.c32(st), steps),
                  [&] { loadStep(ir.c32(st)); });
    // scale: block: each K step's MMAs go to a partial buffer of their
    // own (the ring's load gs), which the epilogue folds.
    Value acc;
    if (!blockScaled) {
      StageAcquireOp::create(b, ir.loc, t, op.getSmem(), accRing);
      acc = tensorMemoryAcc(r, t);
    }
    auto kLoop = scf::ForOp::create(b, ir.loc, ir.c32(0), ir.sub(kEnd, kBegin), ir.c32(1));
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value step = kLoop.getInductionVar();
      Value gs = ir.add(g, step);
      if (blockScaled)
        StageAcquireOp::create(b, ir.loc, gs, op.getSmem(), accRing);
      StageWaitOp::create(b, ir.loc, gs, op.getSmem(), layout);
      Value base = StageBaseOp::create(b, ir.loc, ir.sharedPtr, gs, op.getSmem(), layout);
      Value intoAcc = blockScaled
                          ? arith::ConstantIntOp::create(b, ir.loc, /*value=*/0, /*width=*/1)
                          : ir.cmp(arith::CmpIPredicate::ugt, step, ir.c32(0));
      Value bTile = ir.sharedAt(base, layout.getBOffset());
      Value into = blockScaled ? tensorMemoryAcc(r, gs) : acc;
      MmaIssueOp::create(b, ir.loc, into, base, bTile, intoAcc, op.getSchedule());
      // The MMAs' completion releases the stage: a pair's leader for both
      // CTAs (ctas 2), else each CTA in every CTA of its cluster.
      StageReleaseOp::create(b, ir.loc, gs, op.getSmem(), s.clusterSize(), layout,
                             pair ? b.getI64IntegerAttr(ctas) : IntegerAttr());
      if (blockScaled)
        AccReadyOp::create(b, ir.loc, gs, op.getSmem(), accRing, ctas);
      if (multistage) {
        Value ahead = ir.add(step, ir.c32(layout.getStages()));
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, ahead, steps),
                  [&] { loadStep(ahead); });
      }
    }
    if (!blockScaled)
      AccReadyOp::create(b, ir.loc, t, op.getSmem(), accRing, ctas);
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
}

void WarpSpecializer::storeTensorMemoryTiles(const TensorMemoryRoles &r) {
  OpBuilder &b = ir.b;
  bool blockScaled = r.blockScaled;
  int64_t ctas = r.ctas, epilogueThreads = r.epilogueThreads;
  SmemLayoutAttr accRing = r.accRing;
  Value accBase = r.accBase, sumAcc = r.sumAcc;
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd, Value g) {
    Value t = tensorMemoryPiece(tile);
    if (!blockScaled)
      StageWaitOp::create(b, ir.loc, t, op.getSmem(), accRing);
    Value acc = blockScaled ? foldPartials(accRing, accBase, sumAcc, m0, n0, kBegin, kEnd, g,
                                           ctas)
                            : tensorMemoryAcc(r, t);
    if (!streamK) {
      epilogue(acc, m0, n0);
    } else {
      // The tile is stored by the piece that finishes it; the others
      // leave their partials in the workspace (gemmc.stream_k_fixup on
      // the accumulator's tensor-memory address).
      auto fixup = StreamKFixupOp::create(
          b, ir.loc, acc, tile, kBegin, kEnd, op.getFirstTile(), op.getTileStep(),
          kTiles, splitFirst, splitIterations, op.getWorkspace(), epilogueThreads,
          op.getSchedule());
      OpBuilder::InsertionGuard inner(b);
      Block *body = b.createBlock(&fixup.getBody(), {}, {acc.getType()}, {ir.loc});
      epilogue(body->getArgument(0), m0, n0);
      YieldOp::create(b, ir.loc);
    }
    if (!blockScaled)
      AccReleaseOp::create(b, ir.loc, t, op.getSmem(), accRing, ctas);
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
  drainStores();
}

Value WarpSpecializer::foldPartials(SmemLayoutAttr partials, Value accBase, Value sum,
                                    Value m0, Value n0, Value kBegin, Value kEnd, Value g,
                                    int64_t ctas) {
  OpBuilder &b = ir.b;
  Value scaleA = EpilogueMath::kernelParam(op, abi, "scale_a");
  Value scaleB = EpilogueMath::kernelParam(op, abi, "scale_b");
  Type factorsType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(scaleSlots(s), ir.f32));
  // A K tile's factors are loaded a step ahead, before the wait for the
  // partial before it (clamped to the piece's last K tile), so their
  // latency runs under that wait and fold, not before this one.
  Value kLast = ir.sub(kEnd, ir.c32(1));
  auto factorsOf = [&](Value step) {
    Value kTile = ir.minU(ir.add(kBegin, step), kLast);
    return AccFoldScalesOp::create(b, ir.loc, factorsType, scaleA, scaleB, m0, n0, kTile,
                                   op.getM(), op.getN(), op.getK(), op.getSchedule())
        .getResult();
  };
  // The first step writes the sum (no read of the last tile's), the others
  // add into it: the first is peeled (every piece has a K step).
  auto foldStep = [&](Value step, Value factors, bool first) {
    Value gs = ir.add(g, step);
    StageWaitOp::create(b, ir.loc, gs, op.getSmem(), partials);
    Value buffer = ir.remU(gs, ir.c32(res.accBuffers));
    Value part = ir.add(accBase, ir.mul(buffer, ir.c32(s.blockN())));
    auto fold = AccFoldOp::create(b, ir.loc, sum, part, factors, op.getSchedule());
    fold.setFirst(first);
    AccReleaseOp::create(b, ir.loc, gs, op.getSmem(), partials, ctas);
  };
  Value first = factorsOf(ir.c32(0));
  Value second = factorsOf(ir.c32(1));
  foldStep(ir.c32(0), first, /*first=*/true);
  auto kLoop = scf::ForOp::create(b, ir.loc, ir.c32(1), ir.sub(kEnd, kBegin), ir.c32(1),
                                  ValueRange{second});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value step = kLoop.getInductionVar();
  Value ahead = factorsOf(ir.add(step, ir.c32(1)));
  foldStep(step, kLoop.getRegionIterArg(0), /*first=*/false);
  scf::YieldOp::create(b, ir.loc, ahead);
  return sum;
}

void WarpSpecializer::build() {
  pingpong = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong;
  streamK = s.tileScheduler.kind == TileSchedulerKind::StreamK;
  tid = ir.threadId();
  isThread0 = ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(0));
  kTiles = ir.ceilDiv(op.getK(), s.blockK());
  if (streamK) {
    auto plan = StreamKPlanOp::create(ir.b, ir.loc, ir.i32, ir.i64, op.getTileStep(), op.getM(),
                                      op.getN(), kTiles, op.getSchedule());
    splitFirst = plan.getSplitFirst();
    splitIterations = plan.getSplitIterations();
  }
  if (s.mainloop.load == LoadKind::CpAsync)
    return buildEveryThreadFills();
  if (isaFor(s.arch).hasTmem)
    return buildTensorMemoryRoles();
  initRing();
  launchDependentsAt(PdlLaunch::AfterPrologue);
  waitPriorGrids();
  if (res.producerThreads > 0)
    buildWarpSpecialized();
  else
    buildMultistage();
  // No CTA exits while a peer may still write into it (multicast) or
  // arrive on its barriers.
  if (s.clusterSize() > 1)
    CtaSyncOp::create(ir.b, ir.loc, /*cluster=*/true);
}

struct GemmcWarpSpecializePass
    : mlir::gemmc::impl::GemmcWarpSpecializeBase<GemmcWarpSpecializePass> {
  void runOnOperation() override {
    SmallVector<TileMatmulOp> ops;
    getOperation().walk([&](TileMatmulOp op) { ops.push_back(op); });
    // Run on its own after `gemmc --emit=mlir`, the pass would find only
    // gemmc.matmul and change nothing without a word.
    if (ops.empty())
      getOperation().walk([&](MatmulOp op) {
        op.emitWarning("gemmc-warp-specialize expands gemmc.tile_matmul, and "
                       "there is none yet; run gemmc-tile and gemmc-smem-layout "
                       "first (gemmc-lower-to-nvvm runs every pass)");
      });
    for (TileMatmulOp op : ops) {
      if (!op.getSmem() || !op.getSmemLayout()) {
        op.emitOpError("has no shared memory yet; run gemmc-smem-layout first");
        return signalPassFailure();
      }
      // Block scales are read in the mainloop, from the kernel's scale_a and
      // scale_b (only a kernel with the ABI's parameters has them).
      const KernelAbi &abi = op.getSchedule().getAbi();
      if (op.getSchedule().getSpec().blockScaled() &&
          (!EpilogueMath::kernelParam(op, abi, "scale_a") ||
           !EpilogueMath::kernelParam(op, abi, "scale_b"))) {
        op.emitOpError("has scale: block but its function lacks the ABI's "
                       "scale_a / scale_b pointer parameters (docs/abi.md); "
                       "build the kernel with gemmc-tile");
        return signalPassFailure();
      }
      OpBuilder b(op);
      WarpSpecializer(op, b).build();
      op.erase();
    }
  }
};
} // namespace
