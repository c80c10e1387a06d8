//===- GemmcPipeline.cpp - The staged K loops of a CTA's tiles -----------===//
//
// Expands gemmc.tile_matmul into a producer/consumer pipeline over a ring of
// shared-memory stages, running through all of the CTA's tiles:
//
//   full[s]  completes when the TMA bytes of stage s have landed (one
//            producer arrival + the transaction count);
//   empty[s] completes when every consumer warpgroup has released stage s
//            (its wgmma reading the stage is done: wgmma completes for the
//            whole warpgroup, so the group's first thread speaks for it).
//
// Loads and multiplies are numbered across tiles (g): load g goes to stage
// g % stages, waits for the release of load g - stages (empty parity
// (g / stages + 1) & 1) and is consumed with full parity (g / stages) & 1.
// A consumer keeps one wgmma group in flight (wgmma.wait_group 1) and
// releases the stage of the step before; after a tile's last step it waits
// for all groups, releases the last stage and runs the epilogue, while the
// producer is already loading the next tile.
//
// Clusters of 2 CTAs along M share B (multicast): each CTA loads half of
// the stage's B tile into both CTAs' shared memory, so a stage is free only
// when the consumers of both CTAs have released it: every consumer
// warpgroup arrives on the empty barrier of each CTA of the cluster, and a
// cluster barrier brackets the kernel (barriers initialized before any peer
// uses them; no CTA exits while a peer may still write to it).
//
// multistage: thread 0 is the producer and a consumer; it loads a tile's
// first `stages` steps before its K loop and refills a stage when it is
// released. warp_specialized(_cooperative): the last warpgroup produces
// (one thread issues TMA, after setmaxnreg lowers the group's registers) and
// the others consume (after setmaxnreg raises theirs).
//
// warp_specialized_pingpong: consumer warpgroup w takes the CTA's tiles w,
// w + 2, ... whole; a stage has one consumer; the mainloops take turns
// through two named barriers (buildPingpongConsumers).
//
// stream_k: the CTA's work is pieces (a tile's K range): whole tiles for all
// but the last full wave and the remainder, then an even share of the rest's
// K iterations; split tiles meet in the workspace (forEachPiece,
// planStreamK, finishPiece). All CTAs must be resident at once (the runtime
// launches one per SM): a finishing CTA waits for peers with higher indices.
//
//===----------------------------------------------------------------------===//
#include "KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Transforms/Passes.h"

#define DEBUG_TYPE "gemmc-pipeline"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCPIPELINE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

class PipelineBuilder {
public:
  PipelineBuilder(TileMatmulOp op, const KernelSpec &spec, OpBuilder &b)
      : op(op), s(spec), res(computeResources(spec)),
        layout(*op.getSmemLayout()), ir(b, op.getLoc()),
        abi(describeKernelAbi(spec)) {}

  void build();

private:
  Value barrierAt(int64_t first, Value stage) {
    return ir.sharedAt(op.getSmem(), ir.add(ir.c32(first),
                                            ir.mul(stage, ir.c32(kMbarrierBytes))));
  }
  Value fullBarrier(Value stage) { return barrierAt(layout.getBarriers(), stage); }
  Value emptyBarrier(Value stage) {
    return barrierAt(layout.getBarriers() + kMbarrierBytes * layout.getStages(),
                     stage);
  }
  Value stageOf(Value g) { return ir.remU(g, ir.c32(layout.getStages())); }
  /// Parity of the phase of full[g % stages] that load g completes.
  Value fullParity(Value g) {
    return ir.andI(ir.divU(g, ir.c32(layout.getStages())), ir.c32(1));
  }
  Value stageBase(Value stage) {
    return ir.sharedAt(op.getSmem(), ir.mul(stage, ir.c32(layout.getStageBytes())));
  }
  void waitParity(Value barrier, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(ir.b, ir.loc, barrier, parity,
                                          ir.c32(kMbarrierWaitHintNs));
  }
  void initBarriers();
  /// barrier.cluster.arrive + wait, by every thread of every CTA.
  void clusterSync();
  /// Load number `g`: wait until its stage is free, then bring A and B of
  /// K tile `kTile` of the tile at (m0, n0).
  void load(Value g, Value m0, Value n0, Value kTile);
  /// for each piece of work of the CTA: body(m0, n0, tile, kBegin, kEnd, g)
  /// -> next g. A piece is K tiles [kBegin, kEnd) of an output tile: whole
  /// tiles, except under stream_k.
  void forEachPiece(
      function_ref<Value(Value, Value, Value, Value, Value, Value)> body);
  /// stream_k: the tiles before `skFirstTile` go whole, a wave at a time
  /// (as persistent); the K iterations of the rest (skTotal, i64) are
  /// shared evenly: CTA c takes [share(c), share(c + 1)).
  void planStreamK();
  Value streamKShare(Value cta);
  /// The CTA whose share holds stream-K iteration x (i64).
  Value streamKOwner(Value x);
  /// stream_k, after a piece: write the partial (kBegin > 0), or add the
  /// other CTAs' partials of the tile and run the epilogue.
  void finishPiece(Value acc, Value m0, Value n0, Value tile, Value kBegin,
                   Value kEnd);
  Value slotOf(Value cta);
  void syncConsumers();
  /// The consumer side of one tile from load number g; returns the
  /// accumulators. `refill` (multistage) also refills released stages.
  Value consumeTile(Value g, Value m0, Value n0, bool refill,
                    function_ref<void()> afterLastWait = nullptr,
                    Value kBegin = Value(), Value kEnd = Value());
  void epilogue(Value acc, Value m0, Value n0);
  /// Consumers, after their last tile: wait for the epilogue's TMA stores.
  void drainStores();
  /// Stage `stage` is free again as far as this warpgroup is concerned.
  void release(Value stage);
  void buildMultistage();
  void buildWarpSpecialized();
  /// Pingpong consumers: the warpgroups take the CTA's tiles in turn.
  void buildPingpongConsumers();

  TileMatmulOp op;
  const KernelSpec &s;
  CtaResources res;
  SmemLayoutAttr layout;
  KernelIR ir;
  KernelAbi abi;
  Value tid, kTiles, isThread0;
  bool pingpong = false, streamK = false;
  Value skFirstTile, skTotal;
};

void PipelineBuilder::clusterSync() {
  NVVM::ClusterArriveOp::create(ir.b, ir.loc, /*aligned=*/nullptr);
  NVVM::ClusterWaitOp::create(ir.b, ir.loc, /*aligned=*/nullptr);
}

void PipelineBuilder::initBarriers() {
  // A stage is consumed by every consumer warpgroup of every CTA of the
  // cluster, except under pingpong, where one warpgroup per CTA takes it.
  int64_t consumers = (pingpong ? 1 : res.consumerWarpgroups) * s.clusterSize();
  ir.ifThen(isThread0, [&] {
    for (int64_t st = 0; st < layout.getStages(); ++st) {
      NVVM::MBarrierInitOp::create(ir.b, ir.loc, fullBarrier(ir.c32(st)),
                                   ir.c32(1), /*predicate=*/Value());
      NVVM::MBarrierInitOp::create(ir.b, ir.loc, emptyBarrier(ir.c32(st)),
                                   ir.c32(consumers), /*predicate=*/Value());
    }
    // Make the initialized barriers visible to the TMA unit (and to the
    // cluster's other CTAs).
    NVVM::FenceMbarrierInitOp::create(ir.b, ir.loc);
  });
  if (s.clusterSize() > 1)
    clusterSync();
  else
    NVVM::Barrier0Op::create(ir.b, ir.loc);
}

void PipelineBuilder::load(Value g, Value m0, Value n0, Value kTile) {
  Value stage = stageOf(g);
  // The ring's first round finds every stage free.
  ir.ifThen(ir.cmp(arith::CmpIPredicate::uge, g, ir.c32(layout.getStages())),
            [&] {
              waitParity(emptyBarrier(stage),
                         ir.andI(ir.add(ir.divU(g, ir.c32(layout.getStages())),
                                        ir.c32(1)),
                                 ir.c32(1)));
            });
  Value full = fullBarrier(stage);
  // The bytes TMA delivers: whole boxes, out-of-bounds parts zero-filled.
  int64_t bytes = (s.blockM() * elementBytes(s.a.element) +
                   s.blockN() * elementBytes(s.b.element)) *
                  s.blockK();
  NVVM::MBarrierArriveExpectTxOp::create(ir.b, ir.loc, /*res=*/Type(), full,
                                         ir.c32(bytes), NVVM::MemScopeKind::CTA,
                                         /*relaxed=*/false, /*predicate=*/Value());
  Value base = stageBase(stage);
  Value k0 = ir.mul(kTile, ir.c32(s.blockK()));
  auto copy = [&](Value tmap, Value dst, Value x, Value y, Value mask) {
    // The instruction writes a shared::cluster address; a CTA's own shared
    // memory lies in its cluster's window.
    dst = LLVM::AddrSpaceCastOp::create(ir.b, ir.loc, ir.sharedClusterPtr, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        ir.b, ir.loc, dst, tmap, ValueRange{x, y}, full,
        /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/mask,
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        /*group=*/nullptr, /*predicate=*/Value());
  };
  // A is K-major: one box {BLOCK_K, BLOCK_M} at (k0, m0).
  copy(op.getTmapA(), base, k0, m0, /*mask=*/Value());
  Value bBase = ir.sharedAt(base, layout.getBOffset());
  // With multicast this CTA loads part `rank` of B into every CTA.
  Value mask, rank;
  if (abi.b.multicast > 1) {
    mask = arith::ConstantIntOp::create(ir.b, ir.loc, ir.b.getI16Type(),
                                        (1 << abi.b.multicast) - 1);
    rank = NVVM::ClusterId::create(ir.b, ir.loc, ir.i32);
    bBase = ir.sharedAt(bBase, ir.mul(rank, ir.c32(abi.b.partBytes)));
  }
  if (abi.b.kMajor) {
    Value n = rank ? ir.add(n0, ir.mul(rank, ir.c32(abi.b.box[1]))) : n0;
    copy(op.getTmapB(), bBase, k0, n, mask);
    return;
  }
  // N-major B comes in slabs one swizzle span of N wide.
  Value firstSlab = rank ? ir.mul(rank, ir.c32(abi.b.loadsPerStage)) : ir.c32(0);
  for (int64_t slab = 0; slab < abi.b.loadsPerStage; ++slab) {
    Value column = ir.mul(ir.add(firstSlab, ir.c32(slab)), ir.c32(abi.b.box[0]));
    copy(op.getTmapB(), ir.sharedAt(bBase, slab * abi.b.slabBytes),
         ir.add(n0, column), k0, mask);
  }
}

Value PipelineBuilder::consumeTile(Value g0, Value m0, Value n0, bool refill,
                                   function_ref<void()> afterLastWait,
                                   Value kBegin, Value kEnd) {
  if (!kBegin) {
    kBegin = ir.c32(0);
    kEnd = kTiles;
  }
  OpBuilder &b = ir.b;
  Type accType = wgmmaAccumulatorType(b.getContext(), s);
  Value zero = LLVM::ZeroOp::create(b, ir.loc, accType);
  // Each consumer warpgroup multiplies its own 64 rows of the A tile (under
  // pingpong, the whole 64-row tile).
  int64_t aRowBytes = s.blockK() * elementBytes(s.a.element);
  Value aSlice = pingpong || s.blockM() == 64
                     ? ir.c32(0)
                     : ir.mul(ir.uniformWarpgroupId(), ir.c32(64 * aRowBytes));
  Value stages = ir.c32(layout.getStages());

  Value steps = ir.sub(kEnd, kBegin);
  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), steps, ir.c32(1),
                                 ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value step = loop.getInductionVar();
    Value kt = ir.add(kBegin, step);
    Value g = ir.add(g0, step);
    Value stage = stageOf(g);
    waitParity(fullBarrier(stage), fullParity(g));
    Value base = stageBase(stage);
    Value acc = MmaStageOp::create(b, ir.loc, accType, loop.getRegionIterArgs()[0],
                                   ir.sharedAt(base, aSlice),
                                   ir.sharedAt(base, layout.getBOffset()),
                                   op.getSchedule());
    // Keep this step's wgmma in flight; the previous step's is complete
    // after this wait, so its stage can be released (and refilled).
    NVVM::WgmmaWaitGroupSyncOp::create(b, ir.loc, 1);
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ugt, step, ir.c32(0)), [&] {
      Value prev = ir.sub(g, ir.c32(1));
      release(stageOf(prev));
      if (!refill)
        return;
      Value nextK = ir.add(ir.sub(kt, ir.c32(1)), stages);
      ir.ifThen(ir.andI(isThread0,
                        ir.cmp(arith::CmpIPredicate::ult, nextK, kEnd)),
                [&] { load(ir.add(prev, stages), m0, n0, nextK); });
    });
    scf::YieldOp::create(b, ir.loc, acc);
  }
  if (afterLastWait)
    afterLastWait();
  NVVM::WgmmaWaitGroupSyncOp::create(b, ir.loc, 0);
  // Release the tile's last stage too: the next tile's loads need it.
  release(stageOf(ir.sub(ir.add(g0, steps), ir.c32(1))));
  return loop.getResult(0);
}

void PipelineBuilder::release(Value stage) {
  ir.ifThen(ir.isWarpgroupLeader(), [&] {
    Value barrier = emptyBarrier(stage);
    if (s.clusterSize() == 1) {
      NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), barrier,
                                     /*count=*/Value());
      return;
    }
    // Every CTA of the cluster writes this stage of ours (multicast), so
    // every CTA's producer waits for our release. CTA scope suffices (the
    // consumers wrote nothing a peer reads); cluster scope would make each
    // release a cluster-wide fence.
    for (int64_t peer = 0; peer < s.clusterSize(); ++peer) {
      Value remote = NVVM::MapaOp::create(ir.b, ir.loc, ir.sharedClusterPtr,
                                          barrier, ir.c32(peer));
      NVVM::MBarrierArriveOp::create(ir.b, ir.loc, /*res=*/Type(), remote,
                                     /*count=*/Value(), NVVM::MemScopeKind::CTA);
    }
  });
}

void PipelineBuilder::epilogue(Value acc, Value m0, Value n0) {
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
                     buffer, op.getSchedule());
}

void PipelineBuilder::drainStores() {
  // The epilogue's last TMA stores still read shared memory (and write C):
  // wait for them before the CTA exits.
  if (op.getTmapC())
    ir.ifThen(ir.isWarpgroupLeader(), [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(ir.b, ir.loc, 0, /*read=*/nullptr);
    });
}

void PipelineBuilder::buildMultistage() {
  // Whole tiles only (stream_k is not built for multistage).
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
  drainStores();
}

void PipelineBuilder::buildWarpSpecialized() {
  OpBuilder &b = ir.b;
  int64_t consumerThreads = res.consumerWarpgroups * kWarpgroupSize;
  Value isProducer =
      ir.cmp(arith::CmpIPredicate::uge, tid, ir.c32(consumerThreads));
  auto roles = scf::IfOp::create(b, ir.loc, isProducer, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  // Producer warpgroup: give registers back, one thread issues every load.
  b.setInsertionPointToStart(&roles.getThenRegion().front());
  NVVM::SetMaxRegisterOp::create(b, ir.loc, kProducerRegs,
                                 NVVM::SetMaxRegisterAction::decrease);
  ir.ifThen(ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(consumerThreads)), [&] {
    forEachPiece([&](Value m0, Value n0, Value, Value kBegin, Value kEnd,
                     Value g) {
      auto kLoop = scf::ForOp::create(b, ir.loc, kBegin, kEnd, ir.c32(1));
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(kLoop.getBody());
      Value kt = kLoop.getInductionVar();
      load(ir.add(g, ir.sub(kt, kBegin)), m0, n0, kt);
      b.setInsertionPointAfter(kLoop);
      return ir.add(g, ir.sub(kEnd, kBegin));
    });
  });
  // Consumer warpgroups: take the registers the accumulators need.
  b.setInsertionPointToStart(&roles.getElseRegion().front());
  NVVM::SetMaxRegisterOp::create(b, ir.loc, res.regCapPerThread,
                                 NVVM::SetMaxRegisterAction::increase);
  if (pingpong)
    return buildPingpongConsumers();
  forEachPiece([&](Value m0, Value n0, Value tile, Value kBegin, Value kEnd,
                   Value g) {
    Value acc = consumeTile(g, m0, n0, /*refill=*/false, nullptr, kBegin, kEnd);
    if (streamK)
      finishPiece(acc, m0, n0, tile, kBegin, kEnd);
    else
      epilogue(acc, m0, n0);
    return ir.add(g, ir.sub(kEnd, kBegin));
  });
  drainStores();
}

void PipelineBuilder::forEachPiece(
    function_ref<Value(Value, Value, Value, Value, Value, Value)> body) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  // Whole tiles: all of them, or under stream_k those before skFirstTile.
  Value wholeEnd =
      streamK ? skFirstTile : tileCount(ir, s, op.getM(), op.getN());
  auto whole = scf::ForOp::create(b, loc, op.getFirstTile(), wholeEnd,
                                  op.getTileStep(), ValueRange{ir.c32(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(whole.getBody());
    Value tile = whole.getInductionVar();
    auto [m0, n0] = tileOrigin(ir, s, tile, op.getM(), op.getN());
    scf::YieldOp::create(b, loc,
                         ValueRange{body(m0, n0, tile, ir.c32(0), kTiles,
                                         whole.getRegionIterArgs()[0])});
  }
  if (!streamK)
    return;
  // The stream-K tiles that the CTA's share [begin, end) touches:
  // [begin / kTiles, ceil(end / kTiles)) after skFirstTile; none when the
  // share is empty (more CTAs than iterations).
  Value begin = streamKShare(op.getFirstTile());
  Value end = streamKShare(ir.add(op.getFirstTile(), ir.c32(1)));
  Value kT64 = ir.zext64(kTiles);
  auto to32 = [&](Value x) { return arith::TruncIOp::create(b, loc, ir.i32, x); };
  Value first = arith::DivUIOp::create(b, loc, begin, kT64);
  Value last = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, end, arith::SubIOp::create(b, loc, kT64, ir.c64(1))),
      kT64);
  Value empty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, begin, end);
  last = arith::SelectOp::create(b, loc, empty, first, last);
  auto split = scf::ForOp::create(b, loc, to32(first), to32(last), ir.c32(1),
                                  ValueRange{whole.getResult(0)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(split.getBody());
  Value local = split.getInductionVar();
  Value start = arith::MulIOp::create(b, loc, ir.zext64(local), kT64);
  // kBegin = max(begin - start, 0), kEnd = min(end - start, kTiles).
  Value kBegin = to32(arith::SelectOp::create(
      b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, begin, start),
      arith::SubIOp::create(b, loc, begin, start), ir.c64(0)));
  Value kEnd = to32(arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, end, start), kT64));
  Value tile = ir.add(skFirstTile, local);
  auto [m0, n0] = tileOrigin(ir, s, tile, op.getM(), op.getN());
  scf::YieldOp::create(b, loc,
                       ValueRange{body(m0, n0, tile, kBegin, kEnd,
                                       split.getRegionIterArgs()[0])});
}

void PipelineBuilder::planStreamK() {
  // With T tiles and P CTAs, T mod P tiles would make a last, partial wave.
  // Stream-K takes that remainder and one full wave before it (so each CTA
  // gets at least one tile's worth and a tile is split at most a few ways);
  // the waves before go whole, keeping the grouped raster's L2 locality.
  // T a multiple of P: all whole. T < P: all stream-K.
  Value tiles = tileCount(ir, s, op.getM(), op.getN());
  Value ctas = op.getTileStep();
  Value waves = ir.divU(tiles, ctas);
  Value rest = ir.remU(tiles, ctas);
  Value wholeWaves = arith::SelectOp::create(
      ir.b, ir.loc, ir.cmp(arith::CmpIPredicate::eq, rest, ir.c32(0)), waves,
      arith::SelectOp::create(ir.b, ir.loc,
                              ir.cmp(arith::CmpIPredicate::ugt, waves, ir.c32(0)),
                              ir.sub(waves, ir.c32(1)), ir.c32(0)));
  skFirstTile = ir.mul(wholeWaves, ctas);
  skTotal = arith::MulIOp::create(ir.b, ir.loc, ir.zext64(ir.sub(tiles, skFirstTile)),
                                  ir.zext64(kTiles));
}

Value PipelineBuilder::streamKShare(Value cta) {
  // share(c) = c x total / P: equal shares to within one iteration.
  return arith::DivUIOp::create(
      ir.b, ir.loc, arith::MulIOp::create(ir.b, ir.loc, ir.zext64(cta), skTotal),
      ir.zext64(op.getTileStep()));
}

Value PipelineBuilder::streamKOwner(Value x) {
  // The largest c with share(c) <= x: c = ((x + 1) P - 1) / total.
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  Value num = arith::SubIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, x, ir.c64(1)),
                            ir.zext64(op.getTileStep())),
      ir.c64(1));
  return arith::TruncIOp::create(b, loc, ir.i32,
                                 arith::DivUIOp::create(b, loc, num, skTotal));
}

Value PipelineBuilder::slotOf(Value cta) {
  Value offset = arith::MulIOp::create(ir.b, ir.loc, ir.zext64(cta),
                                       ir.c64(streamKWorkspaceBytesPerCta(s)));
  return LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, ir.b.getI8Type(),
                             op.getWorkspace(), ValueRange{offset});
}

void PipelineBuilder::syncConsumers() {
  NVVM::BarrierOp::create(ir.b, ir.loc, /*res=*/Type(), ir.c32(kConsumersBarrier),
                          ir.c32(res.consumerWarpgroups * kWarpgroupSize),
                          /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
}

void PipelineBuilder::finishPiece(Value acc, Value m0, Value n0, Value tile,
                                  Value kBegin, Value kEnd) {
  // A tile split over CTAs: the CTA with its first K iteration (kBegin = 0,
  // the last piece of that CTA's range) finishes it; the others (whose
  // first piece it is) leave their partial accumulators in their workspace
  // slot and raise its flag. Each thread keeps its own values: value i of
  // consumer thread t at float i x threads + t of the slot's data (each
  // warp access is 128 contiguous bytes).
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  Type accType = acc.getType();
  int64_t values = cast<LLVM::LLVMStructType>(accType).getBody().size();
  int64_t threads = res.consumerWarpgroups * kWarpgroupSize;
  auto valueAt = [&](Value slot, int64_t i) {
    Value index = ir.add(ir.c32(i * threads), tid);
    Value data = LLVM::GEPOp::create(b, loc, ir.globalPtr, b.getI8Type(), slot,
                                     ValueRange{ir.c32(kStreamKFlagBytes)});
    return LLVM::GEPOp::create(b, loc, ir.globalPtr, ir.f32, data, ValueRange{index});
  };
  auto writer = scf::IfOp::create(
      b, loc, ir.cmp(arith::CmpIPredicate::ugt, kBegin, ir.c32(0)),
      /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&writer.getThenRegion().front());
    Value slot = slotOf(op.getFirstTile());
    for (int64_t i = 0; i < values; ++i)
      LLVM::StoreOp::create(b, loc,
                            LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{i}),
                            valueAt(slot, i), /*alignment=*/4);
    // Every consumer's values are written (the barrier), then one thread
    // publishes them at GPU scope.
    syncConsumers();
    ir.ifThen(isThread0, [&] {
      LLVM::StoreOp::create(b, loc, ir.c32(1), slot, /*alignment=*/4,
                            /*isVolatile=*/false, /*isNonTemporal=*/false,
                            /*isInvariantGroup=*/false, LLVM::AtomicOrdering::release,
                            StringRef("device"));
    });
  }
  b.setInsertionPointToStart(&writer.getElseRegion().front());
  // kBegin = 0: a whole tile, or the finishing piece of a split one, whose
  // other pieces are CTAs c + 1 .. owner(last iteration of the tile).
  Value split = ir.cmp(arith::CmpIPredicate::ult, kEnd, kTiles);
  auto fix = scf::IfOp::create(b, loc, TypeRange{accType}, split,
                               /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fix.getThenRegion().front());
    Value local = ir.sub(tile, skFirstTile);
    Value lastIteration = arith::SubIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, ir.zext64(ir.add(local, ir.c32(1))),
                              ir.zext64(kTiles)),
        ir.c64(1));
    Value lastCta = streamKOwner(lastIteration);
    auto peers = scf::ForOp::create(b, loc, ir.add(op.getFirstTile(), ir.c32(1)),
                                    ir.add(lastCta, ir.c32(1)), ir.c32(1),
                                    ValueRange{acc});
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(peers.getBody());
      Value peer = peers.getInductionVar();
      // A peer with an empty share (more CTAs than iterations) wrote nothing.
      Value busy = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, streamKShare(peer),
          streamKShare(ir.add(peer, ir.c32(1))));
      auto take = scf::IfOp::create(b, loc, TypeRange{accType}, busy,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(&take.getThenRegion().front());
      Value slot = slotOf(peer);
      // One thread waits for the peer's flag (and clears it for the next
      // launch), then all read the partial, past L1.
      ir.ifThen(isThread0, [&] {
        auto spin = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
        Block *before = b.createBlock(&spin.getBefore());
        b.setInsertionPointToStart(before);
        Value flag = LLVM::LoadOp::create(b, loc, ir.i32, slot, /*alignment=*/4,
                                          /*isVolatile=*/false, /*isNonTemporal=*/false,
                                          /*isInvariant=*/false,
                                          /*isInvariantGroup=*/false,
                                          LLVM::AtomicOrdering::acquire,
                                          StringRef("device"));
        scf::ConditionOp::create(b, loc, ir.cmp(arith::CmpIPredicate::ne, flag,
                                                ir.c32(1)),
                                 ValueRange{});
        Block *after = b.createBlock(&spin.getAfter());
        b.setInsertionPointToStart(after);
        scf::YieldOp::create(b, loc, ValueRange{});
        b.setInsertionPointAfter(spin);
        LLVM::StoreOp::create(b, loc, ir.c32(0), slot, /*alignment=*/4);
      });
      syncConsumers();
      Value sum = peers.getRegionIterArgs()[0];
      for (int64_t i = 0; i < values; ++i) {
        Value mine = LLVM::ExtractValueOp::create(b, loc, sum, ArrayRef<int64_t>{i});
        Value theirs = LLVM::LoadOp::create(b, loc, ir.f32, valueAt(slot, i),
                                            /*alignment=*/4, /*isVolatile=*/true);
        sum = LLVM::InsertValueOp::create(
            b, loc, sum, arith::AddFOp::create(b, loc, mine, theirs),
            ArrayRef<int64_t>{i});
      }
      scf::YieldOp::create(b, loc, ValueRange{sum});
      b.setInsertionPointToStart(&take.getElseRegion().front());
      scf::YieldOp::create(b, loc, ValueRange{peers.getRegionIterArgs()[0]});
      b.setInsertionPointAfter(take);
      Value taken = take.getResult(0);
      scf::YieldOp::create(b, loc, ValueRange{taken});
    }
    scf::YieldOp::create(b, loc, peers.getResults());
    b.setInsertionPointToStart(&fix.getElseRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{acc});
  }
  epilogue(fix.getResult(0), m0, n0);
  b.setInsertionPointAfter(writer);
}

void PipelineBuilder::buildPingpongConsumers() {
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
  Value wg = ir.warpgroupId();
  Value isFirst = ir.cmp(arith::CmpIPredicate::eq, wg, ir.c32(0));
  Value tiles = tileCount(ir, s, op.getM(), op.getN());
  Value first = op.getFirstTile(), step = op.getTileStep();
  Value hasAny = ir.cmp(arith::CmpIPredicate::ult, first, tiles);
  Value mine = arith::SelectOp::create(
      b, loc, hasAny,
      ir.divU(ir.add(ir.sub(tiles, first), ir.sub(step, ir.c32(1))), step),
      ir.c32(0));
  Value turns = ir.divU(ir.add(mine, ir.c32(1)), ir.c32(2));
  Value myTurn = ir.add(ir.c32(kOrderBarrier), wg);
  Value otherTurn = ir.add(ir.c32(kOrderBarrier), ir.sub(ir.c32(1), wg));
  Value pair = ir.c32(2 * kWarpgroupSize);
  auto waitTurn = [&] {
    NVVM::BarrierOp::create(b, loc, /*res=*/Type(), myTurn, pair,
                            /*reductionOp=*/nullptr, /*reductionPredicate=*/Value());
  };
  auto handOver = [&] { NVVM::BarrierArriveOp::create(b, loc, otherTurn, pair); };

  auto loop = scf::ForOp::create(b, loc, ir.c32(0), turns, ir.c32(1));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value turn = loop.getInductionVar();
    Value local = ir.add(ir.mul(turn, ir.c32(2)), wg);
    // Warpgroup 0 starts the first tile without waiting.
    ir.ifThen(arith::OrIOp::create(
                  b, loc, ir.cmp(arith::CmpIPredicate::ugt, turn, ir.c32(0)),
                  ir.cmp(arith::CmpIPredicate::ne, wg, ir.c32(0))),
              waitTurn);
    Value tile = ir.add(first, ir.mul(local, step));
    auto has = scf::IfOp::create(b, loc, ir.cmp(arith::CmpIPredicate::ult, tile, tiles),
                                 /*withElseRegion=*/true);
    b.setInsertionPointToStart(&has.getThenRegion().front());
    auto [m0, n0] = tileOrigin(ir, s, tile, op.getM(), op.getN());
    Value acc = consumeTile(ir.mul(local, kTiles), m0, n0, /*refill=*/false, handOver);
    epilogue(acc, m0, n0);
    // An odd tile count leaves warpgroup 1 a turn without a tile: it hands
    // over all the same, so both keep count.
    b.setInsertionPointToStart(&has.getElseRegion().front());
    handOver();
  }
  // Warpgroup 0 takes warpgroup 1's last hand-over.
  ir.ifThen(ir.andI(isFirst, ir.cmp(arith::CmpIPredicate::ugt, turns, ir.c32(0))),
            waitTurn);
  drainStores();
}

void PipelineBuilder::build() {
  pingpong = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong;
  streamK = s.tileScheduler.kind == TileSchedulerKind::StreamK;
  tid = ir.threadId();
  isThread0 = ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(0));
  kTiles = ir.ceilDiv(op.getK(), s.blockK());
  if (streamK)
    planStreamK();
  initBarriers();
  if (res.producerThreads > 0)
    buildWarpSpecialized();
  else
    buildMultistage();
  if (s.clusterSize() > 1)
    clusterSync();
}

struct GemmcPipelinePass
    : mlir::gemmc::impl::GemmcPipelineBase<GemmcPipelinePass> {
  void runOnOperation() override {
    SmallVector<TileMatmulOp> ops;
    getOperation().walk([&](TileMatmulOp op) { ops.push_back(op); });
    // Run on its own after `gemmc --emit=mlir`, the pass would find only
    // gemmc.matmul and change nothing without a word.
    if (ops.empty())
      getOperation().walk([&](MatmulOp op) {
        op.emitWarning("gemmc-pipeline pipelines gemmc.tile_matmul, and there is none yet; run "
                       "gemmc-tile and gemmc-smem-layout first (gemmc-lower-to-nvvm runs every pass)");
      });
    for (TileMatmulOp op : ops) {
      if (!op.getSmem() || !op.getSmemLayout()) {
        op.emitOpError("has no shared memory yet; run gemmc-smem-layout first");
        return signalPassFailure();
      }
      FailureOr<KernelSpec> spec = specOf(op, op.getSchedule());
      if (failed(spec))
        return signalPassFailure();
      OpBuilder b(op);
      PipelineBuilder(op, *spec, b).build();
      op.erase();
    }
  }
};
} // namespace
