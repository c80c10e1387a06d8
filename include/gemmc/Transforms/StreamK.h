//===- StreamK.h - Stream-K's shares of the split iterations -*- C++ -*-===//
//
// Which K iterations of the split tiles each CTA takes under stream_k (and
// split_k), shared by gemmc-schedule-tiles (the tile loop and the fixup's
// peers) and gemmc-warp-specialize (the accumulator ring's piece numbering
// on sm_100a): one formula, written once.
//
//===----------------------------------------------------------------------===//
#ifndef GEMMC_TRANSFORMS_STREAMK_H
#define GEMMC_TRANSFORMS_STREAMK_H

#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::gemmc {

/// Stream-K shares: CTA c takes iterations [share(c), share(c + 1)) of the
/// `total` split ones (i64), c x total / P: equal to within one.
struct StreamKShares {
  KernelIR &ir;
  Value total, ctas;
  Value share(Value cta) {
    Value ctas64 = ir.zext64(ctas);
    return arith::DivUIOp::create(
        ir.b, ir.loc, arith::MulIOp::create(ir.b, ir.loc, ir.zext64(cta), total), ctas64);
  }
  /// The CTA whose share holds iteration x (i64): the largest c with
  /// share(c) <= x, c = ((x + 1) P - 1) / total.
  Value owner(Value x) {
    OpBuilder &b = ir.b;
    Location loc = ir.loc;
    Value ctas64 = ir.zext64(ctas);
    Value num = arith::SubIOp::create(
        b, loc, arith::MulIOp::create(b, loc, arith::AddIOp::create(b, loc, x, ir.c64(1)), ctas64),
        ir.c64(1));
    return arith::TruncIOp::create(b, loc, ir.i32,
                                   arith::DivUIOp::create(b, loc, num, total));
  }
  /// The split tiles that CTA `cta`'s share [begin, end) touches, numbered
  /// from the split (i64): [begin / kTiles, ceil(end / kTiles)), none when
  /// the share is empty (more CTAs than iterations). The tile loop
  /// (gemmc-schedule-tiles) walks them; streamKPieceCount counts them.
  struct SplitTiles {
    Value begin, end, kTiles64, first, past, empty;
  };
  SplitTiles splitTiles(Value cta, Value kTiles) {
    OpBuilder &b = ir.b;
    Location loc = ir.loc;
    SplitTiles t;
    t.begin = share(cta);
    t.end = share(ir.add(cta, ir.c32(1)));
    t.kTiles64 = ir.zext64(kTiles);
    t.first = arith::DivUIOp::create(b, loc, t.begin, t.kTiles64);
    Value kTilesLess1 = arith::SubIOp::create(b, loc, t.kTiles64, ir.c64(1));
    t.past = arith::DivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, t.end, kTilesLess1), t.kTiles64);
    t.empty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t.begin, t.end);
    return t;
  }
};

/// The ordinal of a piece among CTA `first`'s pieces (step CTAs; tiles
/// before `splitFirst` whole, then the split ones its share of the `total`
/// split iterations touches, kTiles each). Whole tile t: (t - first) / step;
/// a split tile: the CTA's whole tiles (splitFirst / step, as splitFirst is
/// a multiple of step and first < step) and the split tiles that
/// gemmc-schedule-tiles' split loop takes before it: aligned
/// (StreamKPolicy::splitAligned) those after it up to the share's last,
/// else those before it from the share's first.
inline Value streamKPiece(KernelIR &ir, Value first, Value step, Value splitFirst,
                          Value total, Value kTiles, Value tile, bool aligned) {
  Value whole = ir.divU(ir.sub(tile, first), step);
  StreamKShares::SplitTiles share = StreamKShares{ir, total, step}.splitTiles(first, kTiles);
  Value sinceSplit = ir.sub(tile, splitFirst);
  Value wholeTiles = ir.divU(splitFirst, step);
  Value before;
  if (aligned) {
    Value lastSplit = ir.sub(arith::TruncIOp::create(ir.b, ir.loc, ir.i32, share.past), ir.c32(1));
    before = ir.sub(lastSplit, sinceSplit);
  } else {
    Value firstSplit = arith::TruncIOp::create(ir.b, ir.loc, ir.i32, share.first);
    before = ir.sub(sinceSplit, firstSplit);
  }
  Value split = ir.add(wholeTiles, before);
  return arith::SelectOp::create(
      ir.b, ir.loc, ir.cmp(arith::CmpIPredicate::ult, tile, splitFirst), whole, split);
}

/// How many pieces CTA `first` has (streamKPiece's numbering): its whole
/// tiles below `splitFirst`, then the split tiles its share touches, none
/// when the share is empty (gemmc-schedule-tiles' split loop).
inline Value streamKPieceCount(KernelIR &ir, Value first, Value step, Value splitFirst,
                               Value total, Value kTiles) {
  OpBuilder &b = ir.b;
  Location loc = ir.loc;
  Value stepLess1 = ir.sub(step, ir.c32(1));
  Value left = ir.sub(splitFirst, first);
  Value wholeTiles = ir.divU(ir.add(left, stepLess1), step);
  Value hasWhole = ir.cmp(arith::CmpIPredicate::ult, first, splitFirst);
  Value whole = arith::SelectOp::create(b, loc, hasWhole, wholeTiles, ir.c32(0));
  StreamKShares::SplitTiles split = StreamKShares{ir, total, step}.splitTiles(first, kTiles);
  Value count = arith::TruncIOp::create(
      b, loc, ir.i32, arith::SubIOp::create(b, loc, split.past, split.first));
  return ir.add(whole, arith::SelectOp::create(b, loc, split.empty, ir.c32(0), count));
}

} // namespace mlir::gemmc

#endif // GEMMC_TRANSFORMS_STREAMK_H
