//===- GemmcScheduleTiles.cpp - Which tiles a CTA computes, in what order --===//
//
// The tile scheduler, target-neutral: lowers gemmc.tile_loop (the CTA's
// pieces of work), gemmc.tile_count, gemmc.tile_origin (a tile number to its
// first row and column by the raster order and group), and under stream_k
// gemmc.stream_k_plan and gemmc.stream_k_fixup (the K iterations shared out
// and the partial tiles handed over through the workspace).
//
// The grid is the runtime's choice (a CTA per tile, data_parallel; a CTA per
// SM, persistent and stream_k): cluster c takes cluster tiles c, c + step,
// ... . stream_k: the CTA's work is pieces (a tile's K range): whole tiles
// for all but the last full wave and the remainder, then an even share of
// the rest's K iterations; split tiles meet in the workspace. All CTAs must
// be resident at once (the runtime launches one per SM): a finishing CTA
// waits for peers with lower indices, which write their partials before
// they wait for anything. In a cluster (sm_90a's [2, 1]) the
// plan is over clusters and cluster tiles: both CTAs of cluster c take the
// same pieces, each writing its own slot (c x 2 + rank) and waiting on its
// own rank's slots in clusters ..., c - 1.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Transforms/Passes.h"
#include "gemmc/Transforms/StreamK.h"
#include "gemmc/Target/Backend.h"
#include "gemmc/Target/Isa.h"
#include "mlir/IR/IRMapping.h"

#define DEBUG_TYPE "gemmc-schedule-tiles"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCSCHEDULETILES
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// Rows of M and columns of N one cluster covers: its clusterShape [CX, CY]
/// CTAs lie CX along M by CY along N, one tile each.
int64_t clusterRows(const KernelSpec &s) { return s.blockM() * s.clusterShape[0]; }
int64_t clusterCols(const KernelSpec &s) { return s.blockN() * s.clusterShape[1]; }

Value tileCount(KernelIR &ir, const KernelSpec &s, Value m, Value n) {
  Value columns = ir.ceilDiv(n, clusterCols(s));
  return ir.mul(ir.ceilDiv(m, clusterRows(s)), columns);
}

/// A cluster along N (CY > 1): this CTA's tile within the cluster tile at
/// (m0, n0), at its cluster coordinates. (Clusters along M only keep the
/// older form below, unchanged.)
std::pair<Value, Value> clusterTileOrigin(KernelIR &ir, const KernelSpec &s,
                                          Value m0, Value n0) {
  ClusterCoords at = clusterCoords(ir, s);
  if (at.m)
    m0 = ir.add(m0, ir.mul(at.m, ir.c32(s.blockM())));
  return {m0, ir.add(n0, ir.mul(at.n, ir.c32(s.blockN())))};
}

/// First row and column of this CTA's tile in cluster tile number `tile`,
/// numbered in the schedule's raster order with its group: the group walks
/// `group` tiles along the raster dimension, then steps across, so that
/// CTAs running together share A and B tiles in L2. A cluster tile is the
/// CX x CY tiles that the CTAs of a cluster compute, one each (by rank,
/// clusterCoords).
std::pair<Value, Value> tileOrigin(KernelIR &ir, const KernelSpec &s, Value tile,
                                   Value m, Value n) {
  bool alongM = s.tileScheduler.raster == Raster::AlongM;
  Value tilesM = ir.ceilDiv(m, clusterRows(s));
  Value tilesN = ir.ceilDiv(n, clusterCols(s));
  Value major = alongM ? tilesM : tilesN;
  Value minor = alongM ? tilesN : tilesM;
  Value group = ir.c32(s.tileScheduler.group);
  Value perGroup = ir.mul(group, minor);
  Value first = ir.mul(ir.divU(tile, perGroup), group);
  Value groupSize = ir.minU(ir.sub(major, first), group);
  Value inGroup = ir.remU(tile, perGroup);
  Value majorIdx = ir.add(first, ir.remU(inGroup, groupSize));
  Value minorIdx = ir.divU(inGroup, groupSize);
  Value tm = alongM ? majorIdx : minorIdx;
  Value tn = alongM ? minorIdx : majorIdx;
  Value m0 = ir.mul(tm, ir.c32(clusterRows(s)));
  if (s.clusterShape[1] > 1)
    return clusterTileOrigin(ir, s, m0, ir.mul(tn, ir.c32(clusterCols(s))));
  if (s.clusterShape[0] > 1)
    m0 = ir.add(m0, ir.mul(NVVM::ClusterId::create(ir.b, ir.loc, ir.i32),
                           ir.c32(s.blockM())));
  return {m0, ir.mul(tn, ir.c32(s.blockN()))};
}

/// The body of `loop` for one piece, cloned at the builder's insertion
/// point; returns the value it yields.
Value cloneBody(TileLoopOp loop, OpBuilder &b, ValueRange args) {
  IRMapping map;
  Block &body = loop.getBody().front();
  map.map(body.getArguments(), args);
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  return map.lookupOrDefault(cast<YieldOp>(body.getTerminator()).getValues()[0]);
}

/// gemmc.tile_loop -> scf.for over whole tiles, then (stream_k) over the
/// split tiles the CTA's share of iterations touches.
void lowerTileLoop(TileLoopOp op, const KernelSpec &s) {
  OpBuilder b(op);
  KernelIR ir(b, op.getLoc());
  Location loc = ir.loc;
  Value kTiles = op.getKTiles();
  bool streamK = static_cast<bool>(op.getSplitFirst());
  // Whole tiles: all of them, or under stream_k those before the split.
  Value wholeEnd = streamK ? op.getSplitFirst()
                           : tileCount(ir, s, op.getM(), op.getN());
  auto whole = scf::ForOp::create(b, loc, op.getFirstTile(), wholeEnd,
                                  op.getTileStep(), ValueRange{op.getInit()});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(whole.getBody());
    Value tile = whole.getInductionVar();
    auto [m0, n0] = tileOrigin(ir, s, tile, op.getM(), op.getN());
    scf::YieldOp::create(
        b, loc,
        ValueRange{cloneBody(op, b, {m0, n0, tile, ir.c32(0), kTiles,
                                     whole.getRegionIterArgs()[0]})});
  }
  if (!streamK) {
    op.getResult().replaceAllUsesWith(whole.getResult(0));
    op.erase();
    return;
  }
  // The stream-K tiles that the CTA's share [begin, end) touches:
  // [begin / kTiles, ceil(end / kTiles)) after the split; none when the
  // share is empty (more CTAs than iterations). Aligned
  // (StreamKPolicy::splitAligned), last to first (streamKPiece): the head
  // of the share's last tile (k from 0) first, the tail of its first tile
  // last, so that the CTAs start their split work at k = 0 together and
  // walk K nearly together, as in the whole waves before. First to last,
  // each CTA starts at its own k, and the split phase reads the whole K
  // panels of every tile in flight (TF32 on cube4096: 3.6x the DRAM bytes,
  // 0.66x; bench/RESULTS.md, session 18).
  StreamKShares shares{ir, op.getSplitIterations(), op.getTileStep()};
  auto [begin, end, kT64, first, past, empty] = shares.splitTiles(op.getFirstTile(), kTiles);
  auto to32 = [&](Value x) { return arith::TruncIOp::create(b, loc, ir.i32, x); };
  Value last32 = to32(arith::SelectOp::create(b, loc, empty, first, past));
  bool aligned = backendFor(s.arch).streamK.splitAligned;
  // Last to first, the loop counts -(last - 1) .. -first (signed) and
  // negates it: no value but its bound lives beside the K loop inside (a
  // count up from 0 and last - 1 - i spilled 8 bytes at 112 registers).
  Value from = aligned ? ir.sub(ir.c32(1), last32) : to32(first);
  Value to = aligned ? ir.sub(ir.c32(1), to32(first)) : last32;
  auto split = scf::ForOp::create(b, loc, from, to, ir.c32(1), ValueRange{whole.getResult(0)});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(split.getBody());
    Value iv = split.getInductionVar();
    Value local = aligned ? ir.sub(ir.c32(0), iv) : iv;
    Value start = arith::MulIOp::create(b, loc, ir.zext64(local), kT64);
    // kBegin = max(begin - start, 0), kEnd = min(end - start, kTiles).
    Value sinceStart = arith::SubIOp::create(b, loc, begin, start);
    Value kBegin = to32(arith::SelectOp::create(
        b, loc, arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, begin, start),
        sinceStart, ir.c64(0)));
    Value kEnd = to32(arith::MinUIOp::create(
        b, loc, arith::SubIOp::create(b, loc, end, start), kT64));
    Value tile = ir.add(op.getSplitFirst(), local);
    auto [m0, n0] = tileOrigin(ir, s, tile, op.getM(), op.getN());
    scf::YieldOp::create(
        b, loc,
        ValueRange{cloneBody(op, b, {m0, n0, tile, kBegin, kEnd,
                                     split.getRegionIterArgs()[0]})});
  }
  op.getResult().replaceAllUsesWith(split.getResult(0));
  op.erase();
}

/// gemmc.stream_k_plan: with T tiles and P CTAs, T mod P tiles would make a
/// last, partial wave. Stream-K takes that remainder and one full wave
/// before it (so each CTA gets at least one tile's worth and a tile is
/// split at most a few ways); the waves before go whole, keeping the
/// grouped raster's L2 locality. T a multiple of P: all whole. T < P: all
/// stream-K. A target whose StreamKPolicy sets minIdleKTiles (sm_80) splits
/// only where the idle slots of a data-parallel last wave pay for the
/// hand-over; else all go whole.
void lowerSplitKPlan(StreamKPlanOp op, const KernelSpec &s);

void lowerStreamKPlan(StreamKPlanOp op, const KernelSpec &s) {
  if (s.tileScheduler.splitK > 1)
    return lowerSplitKPlan(op, s);
  OpBuilder b(op);
  KernelIR ir(b, op.getLoc());
  Value kTiles = op.getKTiles();
  Value tiles = tileCount(ir, s, op.getM(), op.getN());
  Value ctas = op.getTileStep();
  Value waves = ir.divU(tiles, ctas);
  Value rest = ir.remU(tiles, ctas);
  Value wavesBefore = ir.sub(waves, ir.c32(1));
  Value fewerWaves = arith::SelectOp::create(
      b, ir.loc, ir.cmp(arith::CmpIPredicate::ugt, waves, ir.c32(0)), wavesBefore, ir.c32(0));
  // StreamKPolicy::wholeWaves's rule: aligned, a remainder of three
  // quarters of a wave or more is split alone (a CTA's share is then under
  // one tile, two pieces at most, whose head starts at k = 0 beside every
  // other CTA's); a smaller one takes the wave before it too, so that no
  // tile is split more than a few ways.
  Value everyWaveWhole = ir.cmp(arith::CmpIPredicate::eq, rest, ir.c32(0));
  if (backendFor(s.arch).streamK.splitAligned) {
    Value restScaled = ir.mul(rest, ir.c32(StreamKPolicy::kRestAloneDen));
    Value ctasScaled = ir.mul(ctas, ir.c32(StreamKPolicy::kRestAloneNum));
    everyWaveWhole =
        ir.orI(everyWaveWhole, ir.cmp(arith::CmpIPredicate::uge, restScaled, ctasScaled));
  }
  Value wholeWaves = arith::SelectOp::create(b, ir.loc, everyWaveWhole, waves, fewerWaves);
  Value splitFirst = ir.mul(wholeWaves, ctas);
  Value kTiles64 = ir.zext64(kTiles);
  if (int64_t minIdle = backendFor(s.arch).streamK.minIdleKTiles) {
    // Split only where a data-parallel last wave would leave enough idle:
    // (P - rest) x kTiles >= the minimum x P; else all go whole.
    Value idle = arith::MulIOp::create(b, ir.loc, ir.zext64(ir.sub(ctas, rest)), kTiles64);
    Value needed = arith::MulIOp::create(b, ir.loc, ir.zext64(ctas), ir.c64(minIdle));
    Value enoughIdle =
        arith::CmpIOp::create(b, ir.loc, arith::CmpIPredicate::uge, idle, needed);
    Value worth = ir.andI(ir.cmp(arith::CmpIPredicate::ne, rest, ir.c32(0)), enoughIdle);
    splitFirst = arith::SelectOp::create(b, ir.loc, worth, splitFirst, tiles);
  }
  Value total =
      arith::MulIOp::create(b, ir.loc, ir.zext64(ir.sub(tiles, splitFirst)), kTiles64);
  op.getSplitFirst().replaceAllUsesWith(splitFirst);
  op.getSplitIterations().replaceAllUsesWith(total);
  op.erase();
}

/// gemmc.stream_k_plan under split_k: every tile is split, none goes
/// whole. The runtime launches tiles x split_k CTAs while they fit the
/// resident slots, so that CTA c's even share of the tiles x kTiles
/// iterations is piece c % split_k of tile c / split_k (shares start on tile
/// boundaries: c x kTiles / split_k with c a multiple of split_k); with more
/// pieces than slots the shares straddle tiles, as stream_k's do.
void lowerSplitKPlan(StreamKPlanOp op, const KernelSpec &s) {
  OpBuilder b(op);
  KernelIR ir(b, op.getLoc());
  Value tiles = tileCount(ir, s, op.getM(), op.getN());
  op.getSplitFirst().replaceAllUsesWith(ir.c32(0));
  Value kTiles64 = ir.zext64(op.getKTiles());
  op.getSplitIterations().replaceAllUsesWith(
      arith::MulIOp::create(b, ir.loc, ir.zext64(tiles), kTiles64));
  op.erase();
}

/// A CTA's stream-K partials in its workspace slot (after the flag). Each
/// consumer thread keeps its own values: value i of thread t at float
/// i x threads + t of the slot's data (each warp access is 128 contiguous
/// bytes). A target whose StreamKPolicy sets partialVector = 4 (sm_80)
/// moves them `vec` = 4 at a time: values 4j .. 4j + 3 at float
/// (j x threads + t) x 4, 16-byte accesses of 512 contiguous bytes a warp,
/// a quarter of the instructions and of the addresses live at once. With
/// vec = 1 an access is one f32 (not a one-element vector, which would move
/// the PTX of every other target). Tensor memory's chunks (sm_100a) go one
/// float an access.
struct StreamKPartials {
  KernelIR &ir;
  int64_t threads, vec;
  Value tid;
  /// The thread's own address first (data + tid), then value i's constant
  /// offset from it: under pingpong, whose tid (mod 128) LLVM ORs into
  /// i x threads, each value's address was a register of its own (ptxas
  /// spilled 512 bytes).
  bool threadBase = false;

  Type unit() const {
    return vec == 1 ? Type(ir.f32) : Type(VectorType::get({vec}, ir.f32));
  }
  /// Where value i (a multiple of vec) of this thread is in `slot`.
  Value at(Value slot, int64_t i) const {
    OpBuilder &b = ir.b;
    if (threadBase) {
      Value data = LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, b.getI8Type(), slot,
                                       ValueRange{ir.c32(kStreamKFlagBytes)});
      Value mine = LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, unit(), data, ValueRange{tid});
      return LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, unit(), mine,
                                 ValueRange{ir.c32(i / vec * threads)});
    }
    Value index = ir.add(ir.c32(i / vec * threads), tid);
    Value data = LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, b.getI8Type(), slot,
                                     ValueRange{ir.c32(kStreamKFlagBytes)});
    return LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, unit(), data, ValueRange{index});
  }
  /// Values i .. i + vec - 1 of the register accumulator `acc`, as one unit.
  Value pack(Value acc, int64_t i) const {
    auto value = [&](int64_t k) {
      return LLVM::ExtractValueOp::create(ir.b, ir.loc, acc, ArrayRef<int64_t>{k});
    };
    if (vec == 1)
      return value(i);
    Value v = LLVM::UndefOp::create(ir.b, ir.loc, unit());
    for (int64_t j = 0; j < vec; ++j)
      v = LLVM::InsertElementOp::create(ir.b, ir.loc, v, value(i + j), ir.c32(j));
    return v;
  }
  /// Element j of a unit read back.
  Value unpack(Value v, int64_t j) const {
    return vec == 1 ? v : Value(LLVM::ExtractElementOp::create(ir.b, ir.loc, v, ir.c32(j)));
  }
  /// Writes the register accumulator's `values` values to `slot`.
  void store(Value slot, Value acc, int64_t values) const {
    for (int64_t i = 0; i < values; i += vec) {
      Value at = this->at(slot, i);
      LLVM::StoreOp::create(ir.b, ir.loc, pack(acc, i), at, /*alignment=*/vec * 4);
    }
  }
  /// `sum` (a register accumulator) plus the partial in `slot`, read past L1.
  Value addInto(Value sum, Value slot, int64_t values) const {
    OpBuilder &b = ir.b;
    for (int64_t i = 0; i < values; i += vec) {
      Value v = LLVM::LoadOp::create(b, ir.loc, unit(), at(slot, i), /*alignment=*/vec * 4,
                                     /*isVolatile=*/true);
      for (int64_t j = 0; j < vec; ++j) {
        Value mine = LLVM::ExtractValueOp::create(b, ir.loc, sum, ArrayRef<int64_t>{i + j});
        sum = LLVM::InsertValueOp::create(b, ir.loc, sum,
                                          arith::AddFOp::create(b, ir.loc, mine, unpack(v, j)),
                                          ArrayRef<int64_t>{i + j});
      }
    }
    return sum;
  }
};

/// Tensor memory's form of StreamKPartials::store and addInto (sm_100a):
/// each thread owns one row of `values` columns, read (and written back)
/// a chunk of columns at a time by gemmc.acc_load and acc_store; the
/// accumulator's address `acc` is unchanged.
void storeTmemPartial(const StreamKPartials &p, Value slot, Value acc, int64_t values,
                      int64_t chunkCols) {
  KernelIR &ir = p.ir;
  auto chunkType = VectorType::get({chunkCols}, ir.f32);
  for (int64_t chunk = 0; chunk < values / chunkCols; ++chunk) {
    Value v = AccLoadOp::create(ir.b, ir.loc, chunkType, ir.add(acc, ir.c32(chunk * chunkCols)),
                                chunkCols);
    for (int64_t j = 0; j < chunkCols; ++j) {
      Value at = p.at(slot, chunk * chunkCols + j);
      LLVM::StoreOp::create(ir.b, ir.loc,
                            LLVM::ExtractElementOp::create(ir.b, ir.loc, v, ir.c32(j)), at,
                            /*alignment=*/4);
    }
  }
}
void addTmemPartial(const StreamKPartials &p, Value acc, Value slot, int64_t values,
                    int64_t chunkCols) {
  KernelIR &ir = p.ir;
  OpBuilder &b = ir.b;
  auto chunkType = VectorType::get({chunkCols}, ir.f32);
  for (int64_t chunk = 0; chunk < values / chunkCols; ++chunk) {
    Value at = ir.add(acc, ir.c32(chunk * chunkCols));
    Value v = AccLoadOp::create(b, ir.loc, chunkType, at, chunkCols);
    for (int64_t j = 0; j < chunkCols; ++j) {
      Value mine = LLVM::ExtractElementOp::create(b, ir.loc, v, ir.c32(j));
      Value theirs = LLVM::LoadOp::create(b, ir.loc, ir.f32, p.at(slot, chunk * chunkCols + j),
                                          /*alignment=*/4, /*isVolatile=*/true);
      v = LLVM::InsertElementOp::create(b, ir.loc, v, arith::AddFOp::create(b, ir.loc, mine, theirs),
                                        ir.c32(j));
    }
    AccStoreOp::create(b, ir.loc, at, v);
  }
}

/// One thread spins on the flag at `slot` until its peer has published
/// (acquire, GPU scope), then clears it for the next launch.
void waitForPeerFlag(KernelIR &ir, Value slot) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  auto spin = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
  Block *before = b.createBlock(&spin.getBefore());
  b.setInsertionPointToStart(before);
  Value flag = LLVM::LoadOp::create(b, loc, ir.i32, slot, /*alignment=*/4,
                                    /*isVolatile=*/false, /*isNonTemporal=*/false,
                                    /*isInvariant=*/false,
                                    /*isInvariantGroup=*/false, LLVM::AtomicOrdering::acquire,
                                    StringRef("device"));
  scf::ConditionOp::create(b, loc, ir.cmp(arith::CmpIPredicate::ne, flag, ir.c32(1)),
                           ValueRange{});
  Block *after = b.createBlock(&spin.getAfter());
  b.setInsertionPointToStart(after);
  scf::YieldOp::create(b, loc, ValueRange{});
  b.setInsertionPointAfter(spin);
  LLVM::StoreOp::create(b, loc, ir.c32(0), slot, /*alignment=*/4);
}

/// gemmc.stream_k_fixup. A tile split over CTAs: the CTA with its last K
/// iteration (kEnd = kTiles: the first tile of that CTA's share, its last
/// piece as the tile loop goes) finishes it; the others (whose last tile in
/// share order it is, their first piece) leave their partial accumulators
/// in their workspace slot (StreamKPartials) and raise its flag.
/// gemmc.stream_k_fixup's two sides (lowerStreamKFixup): what a piece
/// that does not finish its tile writes, and how the finishing piece adds
/// its peers' partials.
struct StreamKFixup {
  StreamKFixupOp op;
  const KernelSpec &s;
  KernelIR &ir;
  /// The accumulators in tensor memory (sm_100a: an i32 address), else in
  /// registers (an !llvm.struct of f32 per thread).
  bool tmem;
  int64_t chunkCols, values, threads;
  /// The CTA's thread index, and whether this is the piece's thread 0
  /// (under pingpong: its warpgroup's first).
  Value ctaTid, isThread0;
  bool pingpong;
  /// The CTA's rank in its cluster (none without one).
  Value rank;
  const StreamKPartials &partials;

  /// Every consumer thread of the piece meets (under pingpong: on its
  /// warpgroup's barrier kPingpongFixupBarrier + warpgroup).
  void syncConsumers() {
    Value id = pingpong ? ir.add(ir.c32(kPingpongFixupBarrier),
                                 ir.divU(ctaTid, ir.c32(kWarpgroupSize)))
                        : ir.c32(kConsumersBarrier);
    NamedBarrierOp::create(ir.b, ir.loc, id, ir.c32(threads), /*arrive=*/false);
  }
  /// The workspace slot of CTA (cluster) `cta`: the shares are by cluster
  /// (`cta` and `ctas` count clusters: both CTAs of a cluster take the same
  /// pieces, each its own tile of the cluster tile); a CTA's slot is
  /// cluster x size + rank, and a finisher reads the slots of its own rank
  /// in the peer clusters.
  Value slotOf(Value cta) {
    OpBuilder &b = ir.b;
    if (rank)
      cta = ir.add(ir.mul(cta, ir.c32(s.clusterSize())), rank);
    Value offset = arith::MulIOp::create(b, ir.loc, ir.zext64(cta),
                                         ir.c64(streamKWorkspaceBytesPerCta(s)));
    return LLVM::GEPOp::create(b, ir.loc, ir.globalPtr, b.getI8Type(),
                               op.getWorkspace(), ValueRange{offset});
  }
  /// A piece that does not finish its tile: its partial into its slot,
  /// then its flag.
  void writePartial() {
    OpBuilder &b = ir.b;
    Location loc = ir.loc;
    Value acc = op.getAcc();
    Value slot = slotOf(op.getCta());
    if (tmem)
      storeTmemPartial(partials, slot, acc, values, chunkCols);
    else
      partials.store(slot, acc, values);
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
  /// The finishing piece of a split tile: its accumulators plus every peer's
  /// partial, the peers being CTAs owner(first iteration of the tile) .. c -
  /// 1 (aligned), else c + 1 .. owner(last iteration of the tile).
  Value addPeerPartials(StreamKShares &shares, bool aligned) {
    OpBuilder &b = ir.b;
    Location loc = ir.loc;
    Value acc = op.getAcc();
    Type accType = acc.getType();
    Value kTiles = op.getKTiles();
    Value local = ir.sub(op.getTile(), op.getSplitFirst());
    Value kTiles64 = ir.zext64(kTiles);
    Value firstPeer, peersEnd;
    if (aligned) {
      Value local64 = ir.zext64(local);
      firstPeer = shares.owner(arith::MulIOp::create(b, loc, local64, kTiles64));
      peersEnd = op.getCta();
    } else {
      Value tilesThrough = ir.zext64(ir.add(local, ir.c32(1)));
      Value lastIteration = arith::SubIOp::create(
          b, loc, arith::MulIOp::create(b, loc, tilesThrough, kTiles64), ir.c64(1));
      peersEnd = ir.add(shares.owner(lastIteration), ir.c32(1));
      firstPeer = ir.add(op.getCta(), ir.c32(1));
    }
    // A peer with an empty share (more CTAs than iterations) wrote nothing:
    // share(p) = share(p + 1), two 64-bit divisions a peer, whose slow path
    // is a call. Where a thread holds at most StreamKPolicy::
    // peerTestMaxValues accumulators, without them: with T split iterations
    // and P CTAs, every share holds one when T >= P; else share(p) = p T / P
    // grows at p unless ((p T) mod P) + T < P, and the loop carries r =
    // (peer x T) mod P from one remainder (32 bits: (cta + 1) T < P^2, P
    // at most the SM count).
    bool rest32 = !tmem && values <= backendFor(s.arch).streamK.peerTestMaxValues;
    SmallVector<Value> init{acc};
    Value everyShareBusy, total32;
    if (rest32) {
      everyShareBusy = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             op.getSplitIterations(), ir.zext64(op.getCtas()));
      total32 = arith::TruncIOp::create(b, loc, ir.i32, op.getSplitIterations());
      init.push_back(ir.remU(ir.mul(firstPeer, total32), op.getCtas()));
    }
    auto peers = scf::ForOp::create(b, loc, firstPeer, peersEnd, ir.c32(1), init);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(peers.getBody());
      Value peer = peers.getInductionVar();
      Value busy, nextRest;
      if (rest32) {
        Value rest = ir.add(peers.getRegionIterArgs()[1], total32);
        Value wraps = ir.cmp(arith::CmpIPredicate::uge, rest, op.getCtas());
        busy = ir.orI(everyShareBusy, wraps);
        nextRest = arith::SelectOp::create(b, loc, wraps, ir.sub(rest, op.getCtas()), rest);
      } else {
        Value nextShare = shares.share(ir.add(peer, ir.c32(1)));
        busy = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, shares.share(peer),
                                     nextShare);
      }
      auto take = scf::IfOp::create(b, loc, TypeRange{accType}, busy,
                                    /*withElseRegion=*/true);
      b.setInsertionPointToStart(&take.getThenRegion().front());
      Value slot = slotOf(peer);
      // One thread waits for the peer's flag, then all read the partial.
      ir.ifThen(isThread0, [&] { waitForPeerFlag(ir, slot); });
      syncConsumers();
      Value sum = peers.getRegionIterArgs()[0];
      if (tmem)
        addTmemPartial(partials, sum, slot, values, chunkCols);
      else
        sum = partials.addInto(sum, slot, values);
      scf::YieldOp::create(b, loc, ValueRange{sum});
      b.setInsertionPointToStart(&take.getElseRegion().front());
      scf::YieldOp::create(b, loc, ValueRange{peers.getRegionIterArgs()[0]});
      b.setInsertionPointAfter(take);
      SmallVector<Value> next{take.getResult(0)};
      if (rest32)
        next.push_back(nextRest);
      scf::YieldOp::create(b, loc, next);
    }
    return peers.getResult(0);
  }
};

void lowerStreamKFixup(StreamKFixupOp op, const KernelSpec &s) {
  OpBuilder b(op);
  KernelIR ir(b, op.getLoc());
  Location loc = ir.loc;
  Value acc = op.getAcc();
  Type accType = acc.getType();
  // In registers (an !llvm.struct of f32 per thread), or in tensor memory
  // (sm_100a: an i32 address).
  bool tmem = accType.isInteger(32);
  int64_t chunkCols = std::min<int64_t>(isa::kTmemLoadColumns, s.blockN());
  int64_t values = tmem ? s.blockN() : cast<LLVM::LLVMStructType>(accType).getBody().size();
  int64_t threads = op.getThreads();
  Value tid = ir.threadId();
  // Under pingpong each piece is one consumer warpgroup's (threads = 128):
  // its threads are tid mod 128, its thread 0 the warpgroup's first, and it
  // meets on its own barrier kPingpongFixupBarrier + warpgroup while the
  // other warpgroup runs its own piece.
  bool pingpong = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong;
  Value ctaTid = tid;
  if (pingpong) {
    assert(threads == kWarpgroupSize && "a pingpong piece is one warpgroup's");
    tid = ir.remU(tid, ir.c32(kWarpgroupSize));
  }
  Value isThread0 = ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(0));
  Value kTiles = op.getKTiles();
  StreamKShares shares{ir, op.getSplitIterations(), op.getCtas()};
  // The shares are by cluster (StreamKFixup::slotOf).
  Value rank = s.clusterSize() > 1 ? NVVM::ClusterId::create(b, loc, ir.i32) : Value();
  int64_t policyVec = backendFor(s.arch).streamK.partialVector;
  StreamKPartials partials{ir, threads, !tmem && values % policyVec == 0 ? policyVec : 1, tid,
                           /*threadBase=*/pingpong};
  StreamKFixup fixup{op, s, ir, tmem, chunkCols, values, threads,
                     ctaTid, isThread0, pingpong, rank, partials};
  // Aligned (StreamKPolicy::splitAligned), the piece with the tile's last
  // iteration finishes it: the others do not end it (kEnd < kTiles). Else
  // the one with its first: the others do not start it (kBegin > 0).
  bool aligned = backendFor(s.arch).streamK.splitAligned;
  auto startsLater = [&] { return ir.cmp(arith::CmpIPredicate::ugt, op.getKBegin(), ir.c32(0)); };
  auto endsEarlier = [&] { return ir.cmp(arith::CmpIPredicate::ult, op.getKEnd(), kTiles); };
  auto writer = scf::IfOp::create(b, loc, aligned ? endsEarlier() : startsLater(),
                                  /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&writer.getThenRegion().front());
    fixup.writePartial();
  }
  b.setInsertionPointToStart(&writer.getElseRegion().front());
  // A whole tile, or the finishing piece of a split one, which adds its
  // peers' partials.
  Value split = aligned ? startsLater() : endsEarlier();
  auto fix = scf::IfOp::create(b, loc, TypeRange{accType}, split,
                               /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&fix.getThenRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{fixup.addPeerPartials(shares, aligned)});
    b.setInsertionPointToStart(&fix.getElseRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{acc});
  }
  // The finished tile goes to the body (the epilogue).
  IRMapping map;
  Block &body = op.getBody().front();
  map.map(body.getArgument(0), fix.getResult(0));
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  op.erase();
}

struct GemmcScheduleTilesPass
    : mlir::gemmc::impl::GemmcScheduleTilesBase<GemmcScheduleTilesPass> {
  void runOnOperation() override {
    // Loops first: their bodies, fixups included, are cloned per loop.
    SmallVector<TileLoopOp> loops;
    getOperation().walk([&](TileLoopOp op) { loops.push_back(op); });
    for (TileLoopOp loop : loops) {
      lowerTileLoop(loop, loop.getSchedule().getSpec());
    }
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (llvm::isa<StreamKFixupOp, StreamKPlanOp, TileCountOp, TileOriginOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      const KernelSpec *spec =
          &op->getAttrOfType<ScheduleAttr>("schedule").getSpec();
      OpBuilder b(op);
      KernelIR ir(b, op->getLoc());
      if (auto plan = dyn_cast<StreamKPlanOp>(op)) {
        lowerStreamKPlan(plan, *spec);
      } else if (auto fixup = dyn_cast<StreamKFixupOp>(op)) {
        lowerStreamKFixup(fixup, *spec);
      } else if (auto count = dyn_cast<TileCountOp>(op)) {
        count.getResult().replaceAllUsesWith(
            tileCount(ir, *spec, count.getM(), count.getN()));
        count.erase();
      } else if (auto origin = cast<TileOriginOp>(op)) {
        auto [m0, n0] = tileOrigin(ir, *spec, origin.getTile(), origin.getM(),
                                   origin.getN());
        origin.getM0().replaceAllUsesWith(m0);
        origin.getN0().replaceAllUsesWith(n0);
        origin.erase();
      }
    }
  }
};
} // namespace
