//===- Sm80Patterns.cpp - Instruction selection for sm_80 ----------------===//
//
// The A100 path (gemmc-warp-specialize's buildEveryThreadFills):
//
//   stage_fill    every thread cp.async.cg's its share of the stage's A and
//                 B tiles, 16 bytes at a time, with the src-size operand
//                 clipping at M, N and K (the rest of a copy is zero-filled,
//                 a copy wholly outside reads nothing); then one
//                 cp.async.commit_group, also for a load past the last K
//                 tile (all zeros), so that every wait counts alike (a
//                 fill in two parts: A, then B and the commit);
//   stage_wait    cp.async.wait_group(stages - 2): the thread's copies of
//                 this load have landed (stages - 2 younger loads may be in
//                 flight), then bar.sync: everybody's have, and no warp still
//                 reads the stage the next fill overwrites;
//   stage_release cp.async.wait_group 0: the tile's trailing zero-fills are
//                 done before the ring takes the next tile;
//   mma_fragments one k step's fragments of this warp (lib/Target/Sm80.h's
//                 warp grid): ldmatrix .x4 of A and B (.trans for an N-major
//                 16-bit B; 32-bit shared loads for an N-major tf32 B, which
//                 ldmatrix cannot transpose), as a struct of i32;
//   mma_step      that step's mma.sync m16n8k8 (tf32) or m16n8k16 (bf16,
//                 f16) into fp32 accumulators;
//   mma_stage     both over a whole stage, the fragments of k step j + 1
//                 loaded before the mma.syncs of step j (the sm_80 builder
//                 uses mma_fragments and mma_step, which also prefetch across
//                 the stage boundary).
//
// Tiles are rows of 16-byte units, XOR-swizzled or padded as Sm80.h says. tf32
// operands are fp32 in memory; mma.sync .tf32 reads their top 19 bits.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Conversion/GemmcToNVVM.h"
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Target/Isa.h"
#include "gemmc/Target/Sm80.h"

using namespace mlir;
using namespace mlir::gemmc;
using ::gemmc::MmaSyncWarpGrid;
namespace isa = ::gemmc::isa;

namespace {

constexpr int64_t kUnit = isa::kCpAsyncBytes;
static_assert(isa::kCpAsyncBytes == isa::kLdmatrixRowBytes,
              "a cp.async copy and an ldmatrix row are the same 16-byte unit");

/// One operand's tile in a stage: `rows` rows of `rowUnits` 16-byte units,
/// XOR-swizzled or padded as the spec's smem_swizzle says (Sm80.h).
struct TileShape {
  int64_t rows, rowUnits;
  Swizzle swizzle;
  /// Units a warp's reads of one row span: the swizzle phase of row r is
  /// (r / rows per line) x phaseStep, so that rows read together land on
  /// disjoint units. 1 for ldmatrix (one unit per row); 2 for the scalar
  /// 32-bit loads of an N-major tf32 B (8 lanes read 8 floats of a row).
  int64_t phaseStep = 1;
  bool swizzled() const { return swizzle != Swizzle::None; }
  int64_t rowPitch() const { return ::gemmc::sm80RowPitch(rowUnits * kUnit, swizzle); }
  int64_t mask() const { return ::gemmc::sm80SwizzleMask(rowUnits, swizzled()); }
  /// Rows after which the swizzle phases repeat.
  int64_t phasePeriod() const {
    return mask() ? ::gemmc::sm80RowsPerLine(rowUnits) * (mask() + 1) / phaseStep : 1;
  }
};

/// The shared address of byte `byteInUnit` of unit `unit` of row
/// `row` + `rowsBelow`. rowsBelow, a multiple of the phase period, leaves
/// the swizzle as at `row` and becomes a constant offset of the address,
/// so that a warp's fragment addresses share one register.
Value unitAddress(KernelIR &ir, Value tile, const TileShape &t, Value row,
                  Value unit, Value byteInUnit = Value(), int64_t rowsBelow = 0) {
  Value placed = unit;
  if (int64_t mask = t.mask()) {
    Value phase = ir.andI(ir.mul(ir.divU(row, ir.c32(::gemmc::sm80RowsPerLine(t.rowUnits))),
                                 ir.c32(t.phaseStep)),
                          ir.c32(mask));
    placed = arith::XOrIOp::create(ir.b, ir.loc, unit, phase);
  }
  Value unitOffset = ir.mul(placed, ir.c32(kUnit));
  Value offset = ir.add(ir.mul(row, ir.c32(t.rowPitch())), unitOffset);
  if (byteInUnit)
    offset = ir.add(offset, byteInUnit);
  Value at = ir.sharedAt(tile, offset);
  assert(rowsBelow % t.phasePeriod() == 0 && "a constant row offset must keep the swizzle phase");
  return rowsBelow ? ir.sharedAt(at, rowsBelow * t.rowPitch()) : at;
}

/// The stage tiles of A (rows of K) and B (rows of K when col-major, of N
/// when row-major).
TileShape tileA(const KernelSpec &s) {
  int64_t eb = elementBytes(s.a.element);
  return {s.blockM(), s.blockK() * eb / kUnit, s.mainloop.swizzle};
}
TileShape tileB(const KernelSpec &s) {
  int64_t eb = elementBytes(s.b.element);
  bool kMajor = s.b.layout == Layout::Col;
  int64_t phaseStep = !kMajor && s.b.element == ::gemmc::ElementType::TF32
                          ? 8 * eb / kUnit
                          : 1;
  return {kMajor ? s.blockN() : s.blockK(),
          (kMajor ? s.blockK() : s.blockN()) * eb / kUnit, s.mainloop.swizzle, phaseStep};
}

Value stageBase(KernelIR &ir, Value smem, SmemLayoutAttr layout, Value g) {
  Value stage = ir.remU(g, ir.c32(layout.getStages()));
  return ir.sharedAt(smem, ir.mul(stage, ir.c32(layout.getStageBytes())));
}

/// The global side of one operand's tile: the tile's row r, unit u holds
/// element (rowOrigin + r, colOrigin + u x the elements in 16 bytes) of `src`
/// (leading dimension `ld`), inside the matrix where row < rowLimit and
/// column < colLimit. rowsFixed: the rows do not move with the K tile (A, a
/// K-major B), the columns do.
struct TileSource {
  Value src, ld;
  ::gemmc::ElementType element;
  Value rowOrigin, rowLimit, colOrigin, colLimit;
  bool rowsFixed;
};

/// One thread's cp.async copies of a stage's tiles (16 bytes each).
/// Unclipped (no clip(...) on the fill), the builder vouches that every copy
/// lies inside the matrices (an interior tile's full K tiles): no zero-fill
/// operand, no select.
class StageCopies {
public:
  StageCopies(KernelIR &ir, int64_t threads, bool clipped)
      : ir(ir), threads(threads), clipped(clipped), tid(ir.threadId()) {}

  /// Copies the tile `t` at shared address `tile` from `from`; a tile smaller
  /// than a round of copies leaves the last threads out.
  void copyTile(Value tile, const TileShape &t, const TileSource &from) {
    int64_t copies = t.rows * t.rowUnits;
    for (int64_t i = 0; i * threads < copies; ++i) {
      Value q = ir.add(tid, ir.c32(i * threads));
      OpBuilder::InsertionGuard guard(ir.b);
      if ((i + 1) * threads > copies) {
        auto partial = scf::IfOp::create(
            ir.b, ir.loc, ir.cmp(arith::CmpIPredicate::ult, q, ir.c32(copies)),
            /*withElseRegion=*/false);
        ir.b.setInsertionPointToStart(&partial.getThenRegion().front());
      }
      copyRound(tile, t, from, q, i);
    }
  }

private:
  /// Round i's copy of this thread, whose unit of the tile is number q.
  void copyRound(Value tile, const TileShape &t, const TileSource &from, Value q, int64_t i) {
    int64_t eb = elementBytes(from.element);
    Value r = ir.divU(q, ir.c32(t.rowUnits)), u = ir.remU(q, ir.c32(t.rowUnits));
    // When a round of copies covers whole rows, a multiple of the swizzle
    // period, round i writes round 0's units i x roundRows rows lower: one
    // shared address register for all rounds (a constant offset each).
    int64_t roundRows = threads / t.rowUnits;
    bool sameUnits = threads % t.rowUnits == 0 && roundRows % t.phasePeriod() == 0;
    Value r0 = r;
    if (sameUnits) {
      r0 = ir.divU(tid, ir.c32(t.rowUnits));
      u = ir.remU(tid, ir.c32(t.rowUnits));
    }
    Value dst = unitAddress(ir, tile, t, r0, u, Value(), sameUnits ? i * roundRows : 0);
    Value row = ir.add(from.rowOrigin, r);
    Value col = ir.add(from.colOrigin, ir.mul(u, ir.c32(kUnit / eb)));
    Value ld64 = ir.zext64(from.ld);
    Value rowOffset = arith::MulIOp::create(ir.b, ir.loc, ir.zext64(row), ld64);
    if (!clipped) {
      Value col64 = ir.zext64(col);
      copy(dst,
           from.rowsFixed
               ? gep(from, gep(from, from.src, rowOffset), col64)
               : gep(from, from.src, arith::AddIOp::create(ir.b, ir.loc, rowOffset, col64)),
           Value());
      return;
    }
    // Bytes inside the matrix: 16, fewer at the right edge, 0 outside.
    Value rowInside = ir.cmp(arith::CmpIPredicate::ult, row, from.rowLimit);
    Value colInside = ir.cmp(arith::CmpIPredicate::ult, col, from.colLimit);
    Value bytesLeft = ir.minU(ir.mul(ir.sub(from.colLimit, col), ir.c32(eb)), ir.c32(kUnit));
    Value bytes = arith::SelectOp::create(ir.b, ir.loc, ir.andI(rowInside, colInside),
                                          bytesLeft, ir.c32(0));
    // A copy that reads nothing still gets an address inside the matrix: row
    // 0 for a row outside it, column 0 for a column outside. Where the rows
    // are K-independent (A, a K-major B), the row's pointer stays out of the
    // K loop and a copy costs one 32-bit select and one 64-bit add; an
    // N-major B's rows are K's, its offset is selected whole (its row
    // pointers held across the loop would spill in tf32 128x256x32).
    if (from.rowsFixed) {
      Value rowTerm = arith::SelectOp::create(ir.b, ir.loc, rowInside, rowOffset, ir.c64(0));
      Value colTerm = ir.zext64(arith::SelectOp::create(ir.b, ir.loc, colInside, col, ir.c32(0)));
      copy(dst, gep(from, gep(from, from.src, rowTerm), colTerm), bytes);
    } else {
      Value inside = arith::AddIOp::create(ir.b, ir.loc, rowOffset, ir.zext64(col));
      Value offset = arith::SelectOp::create(ir.b, ir.loc, ir.andI(rowInside, colInside),
                                             inside, ir.c64(0));
      copy(dst, gep(from, from.src, offset), bytes);
    }
  }

  Value gep(const TileSource &from, Value base, Value offset) {
    Type elemType = storageType(ir.b.getContext(), from.element);
    return LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, elemType, base, ValueRange{offset});
  }

  /// cp.async.cg of 16 bytes, `bytes` of them read (all when null).
  void copy(Value dst, Value fromAddress, Value bytes) {
    NVVM::CpAsyncOp::create(
        ir.b, ir.loc, dst, fromAddress, ir.b.getI32IntegerAttr(kUnit),
        NVVM::LoadCacheModifierKindAttr::get(ir.b.getContext(), NVVM::LoadCacheModifierKind::CG),
        bytes);
  }

  KernelIR &ir;
  int64_t threads;
  bool clipped;
  Value tid;
};

/// gemmc.stage_fill (with ld) -> this thread's cp.async copies + commit.
struct StageFillLowering : OpRewritePattern<StageFillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageFillOp op, PatternRewriter &rewriter) const override {
    if (!op.getLda())
      return rewriter.notifyMatchFailure(op, "sm_80 fills need ld(...)");
    const KernelSpec &s = op.getSchedule().getSpec();
    KernelIR ir(rewriter, op.getLoc());
    StageCopies copies(ir, op.getSchedule().getResources().threads,
                       /*clipped=*/static_cast<bool>(op.getM()));
    Value base = stageBase(ir, op.getSmem(), op.getSmemLayout(), op.getLoad());
    Value k0 = ir.mul(op.getKTile(), ir.c32(s.blockK()));
    // A is K-major: rows of M. A fill in two parts copies A in the first
    // (activations_only) and B in the second (weights_only), which commits.
    if (!op.getWeightsOnly())
      copies.copyTile(base, tileA(s),
                      {op.getA(), op.getLda(), s.a.element, op.getM0(), op.getM(), k0,
                       op.getK(), /*rowsFixed=*/true});
    if (op.getActivationsOnly()) {
      rewriter.eraseOp(op);
      return success();
    }
    Value bTile = ir.sharedAt(base, op.getSmemLayout().getBOffset());
    if (s.b.layout == Layout::Col)
      copies.copyTile(bTile, tileB(s),
                      {op.getB(), op.getLdb(), s.b.element, op.getN0(), op.getN(), k0,
                       op.getK(), /*rowsFixed=*/true});
    else
      copies.copyTile(bTile, tileB(s),
                      {op.getB(), op.getLdb(), s.b.element, k0, op.getK(), op.getN0(),
                       op.getN(), /*rowsFixed=*/false});
    NVVM::CpAsyncCommitGroupOp::create(ir.b, ir.loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The ring ops that lower to a fixed few instructions, one function each.
template <typename OpT, void (*lower)(OpT, PatternRewriter &)>
struct DirectLowering : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    lower(op, rewriter);
    return success();
  }
};

/// gemmc.stage_wait -> cp.async.wait_group(stages - 2), bar.sync.
void lowerStageWait(StageWaitOp op, PatternRewriter &rewriter) {
  NVVM::CpAsyncWaitGroupOp::create(rewriter, op.getLoc(), op.getSmemLayout().getStages() - 2);
  rewriter.replaceOpWithNewOp<NVVM::Barrier0Op>(op);
}

/// gemmc.stage_release -> cp.async.wait_group 0.
void lowerStageRelease(StageReleaseOp op, PatternRewriter &rewriter) {
  rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, 0);
}

/// gemmc.stage_base -> the stage's address.
void lowerStageBase(StageBaseOp op, PatternRewriter &rewriter) {
  KernelIR ir(rewriter, op.getLoc());
  rewriter.replaceOp(op, stageBase(ir, op.getSmem(), op.getSmemLayout(), op.getLoad()));
}

/// One warp's share of a stage's mma.syncs: where its fragments lie in the
/// stage's tiles (ldmatrix .x4, .trans for an N-major 16-bit B; 32-bit
/// shared loads for an N-major tf32 B) and how its mma.syncs take them. A
/// k step's fragments are one flat list of i32: A[mi] (4 registers each),
/// then B[ni] (2 each), mmaSyncStepFragmentRegs in all.
class WarpMma {
public:
  WarpMma(KernelIR &ir, const KernelSpec &s, const MmaSyncWarpGrid &grid)
      : ir(ir), s(s), mma(::gemmc::isaFor(s.arch).mma), tf32(s.a.element == ::gemmc::ElementType::TF32),
        f16(s.a.element == ::gemmc::ElementType::F16), kInstr(mma.k(s.a.element)),
        mf(grid.mFragments()), nf(grid.nFragments()), fragRows(grid.warpRows / mf),
        fragCols(grid.warpCols / nf), ta(tileA(s)), tb(tileB(s)) {
    Value tid = ir.threadId();
    Value warp = ir.divU(tid, ir.c32(kWarpSize));
    lane = ir.remU(tid, ir.c32(kWarpSize));
    warpRow = ir.mul(ir.divU(warp, ir.c32(grid.warpsN)), ir.c32(grid.warpRows));
    warpCol = ir.mul(ir.remU(warp, ir.c32(grid.warpsN)), ir.c32(grid.warpCols));
    // ldmatrix .x4: lane l gives the row address of matrix l / 8, row l % 8.
    Value matrix = ir.divU(lane, ir.c32(isa::kLdmatrixRows));
    rowInMatrix = ir.remU(lane, ir.c32(isa::kLdmatrixRows));
    lowBit = ir.remU(matrix, ir.c32(2));
    highBit = ir.divU(matrix, ir.c32(2));
  }

  int64_t kSteps() const { return s.blockK() / kInstr; }

  /// The fragments of k step `kk` of the stage whose tiles start at aTile
  /// and bTile.
  SmallVector<Value> load(Value aTile, Value bTile, int64_t kk) {
    int64_t unitsPerStep = isa::kMmaKBytes / kUnit;
    SmallVector<Value> a, b(2 * nf);
    // A: matrices (rows 0-7, 8-15) x (first, second 16 bytes of the step).
    Value aRow = ir.add(warpRow, ir.add(rowInMatrix, ir.mul(lowBit, ir.c32(8))));
    Value aUnit = ir.add(ir.c32(kk * unitsPerStep), highBit);
    for (int64_t mi = 0; mi < mf; ++mi)
      llvm::append_range(
          a, ldmatrix(unitAddress(ir, aTile, ta, aRow, aUnit, Value(), mi * fragRows), false));
    if (s.b.layout == Layout::Col) {
      // K-major B: matrices (n 0-7: k bytes 0-15, 16-31), (n 8-15: ...).
      Value row = ir.add(warpCol, ir.add(rowInMatrix, ir.mul(highBit, ir.c32(8))));
      Value unit = ir.add(ir.c32(kk * unitsPerStep), lowBit);
      for (int64_t np = 0; np < nf / 2; ++np) {
        auto r = ldmatrix(unitAddress(ir, bTile, tb, row, unit, Value(), np * 2 * fragCols), false);
        std::copy(r.begin(), r.end(), b.begin() + 4 * np);
      }
    } else if (!tf32) {
      // N-major 16-bit B, transposed: matrices (k 0-7, 8-15) x (n 0-7, 8-15).
      int64_t unitCols = kUnit / elementBytes(s.b.element);
      Value row = ir.add(rowInMatrix, ir.mul(lowBit, ir.c32(8)));
      for (int64_t np = 0; np < nf / 2; ++np) {
        Value unit = ir.add(ir.divU(ir.add(warpCol, ir.c32(np * 2 * fragCols)), ir.c32(unitCols)),
                            highBit);
        auto r = ldmatrix(unitAddress(ir, bTile, tb, row, unit, Value(), kk * kInstr), true);
        std::copy(r.begin(), r.end(), b.begin() + 4 * np);
      }
    } else {
      // N-major tf32 B: b0 = B[k = l % 4][n = l / 4], b1 = B[k + 4][n].
      const ::gemmc::AccumulatorLayout &frag = mma.accumulator;
      Value g = ir.divU(lane, ir.c32(frag.lanesPerRow));
      Value t = ir.remU(lane, ir.c32(frag.lanesPerRow));
      int64_t eb = elementBytes(s.b.element);
      for (int64_t ni = 0; ni < nf; ++ni) {
        Value n = ir.add(ir.add(warpCol, ir.c32(ni * fragCols)), g);
        Value byte = ir.mul(n, ir.c32(eb));
        Value unit = ir.divU(byte, ir.c32(kUnit)), within = ir.remU(byte, ir.c32(kUnit));
        Value rowT = unitAddress(ir, bTile, tb, t, unit, within);
        for (int64_t half = 0; half < 2; ++half) {
          // Row t + kk x 8 + half x 4: the swizzle phase of row t, a
          // constant offset, written into the instruction. As asm with side
          // effects: a plain load would be folded by LLVM's instcombine from
          // the end of a K tile (the next stage's fragments) into the top of
          // the next one (a phi of two loads becomes a load of the phi),
          // where the MMA waits for it.
          int64_t rows = kk * kInstr + half * kInstr / 2;
          assert(rows % tb.phasePeriod() == 0 && "the row offset must keep the swizzle phase");
          std::string asmText =
              "ld.shared.b32 $0, [$1+" + std::to_string(rows * tb.rowPitch()) + "];";
          b[2 * ni + half] =
              LLVM::InlineAsmOp::create(ir.b, ir.loc, ir.i32, ValueRange{rowT}, asmText, "=r,l",
                                        /*has_side_effects=*/true, /*is_align_stack=*/false,
                                        LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                                        /*operand_attrs=*/nullptr)
                  .getResult(0);
        }
      }
    }
    llvm::append_range(a, b);
    return a;
  }

  /// acc (fragment (mi, ni) holds 4 consecutive values) += the mma.syncs of
  /// one k step on `regs` (as load returns them).
  void multiply(SmallVectorImpl<Value> &acc, ArrayRef<Value> regs) {
    MLIRContext *ctx = ir.b.getContext();
    int64_t perFragment = mma.accumulator.valuesPerBlock();
    Type f32x4 = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, ir.f32));
    NVVM::MMATypes ptxType = tf32 ? NVVM::MMATypes::tf32
                             : f16 ? NVVM::MMATypes::f16
                                   : NVVM::MMATypes::bf16;
    // mma.sync operand registers: i32 (tf32, bf16) or f16 pairs.
    Type f16x2 = VectorType::get({2}, ir.b.getF16Type());
    auto operand = [&](Value r) {
      return f16 ? LLVM::BitcastOp::create(ir.b, ir.loc, f16x2, r).getResult() : r;
    };
    std::array<int64_t, 3> shape = {mma.defaultShape().m, mma.defaultShape().nMin, kInstr};
    for (int64_t mi = 0; mi < mf; ++mi)
      for (int64_t ni = 0; ni < nf; ++ni) {
        int64_t first = (mi * nf + ni) * perFragment;
        SmallVector<Value> a, b, c;
        for (int64_t i = 0; i < 4; ++i)
          a.push_back(operand(regs[4 * mi + i]));
        for (int64_t i = 0; i < 2; ++i)
          b.push_back(operand(regs[4 * mf + 2 * ni + i]));
        for (int64_t i = 0; i < perFragment; ++i)
          c.push_back(acc[first + i]);
        auto d = NVVM::MmaOp::create(
            ir.b, ir.loc, f32x4, a, b, c, shape, std::nullopt, std::nullopt,
            std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
            std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
        for (int64_t i = 0; i < perFragment; ++i)
          acc[first + i] = LLVM::ExtractValueOp::create(ir.b, ir.loc, d, ArrayRef<int64_t>{i});
      }
  }

private:
  SmallVector<Value, 4> ldmatrix(Value addr, bool trans) {
    MLIRContext *ctx = ir.b.getContext();
    Type x4 = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, ir.i32));
    Value v = NVVM::LdMatrixOp::create(
        ir.b, ir.loc, x4, addr, /*num=*/isa::kLdmatrixMatrices,
        trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(ctx, isa::kLdmatrixRows, isa::kLdmatrixRows),
        NVVM::LdStMatrixEltType::B16);
    SmallVector<Value, 4> regs;
    for (int64_t i = 0; i < 4; ++i)
      regs.push_back(LLVM::ExtractValueOp::create(ir.b, ir.loc, v, ArrayRef<int64_t>{i}));
    return regs;
  }

  KernelIR &ir;
  const KernelSpec &s;
  const ::gemmc::MmaIsa &mma;
  bool tf32, f16;
  int64_t kInstr, mf, nf, fragRows, fragCols;
  TileShape ta, tb;
  Value lane, warpRow, warpCol, rowInMatrix, lowBit, highBit;
};

/// An LLVM struct's fields as values, and back.
SmallVector<Value> unpack(KernelIR &ir, Value v) {
  SmallVector<Value> out;
  auto type = cast<LLVM::LLVMStructType>(v.getType());
  for (int64_t i = 0, e = type.getBody().size(); i < e; ++i)
    out.push_back(LLVM::ExtractValueOp::create(ir.b, ir.loc, v, ArrayRef<int64_t>{i}));
  return out;
}
Value pack(KernelIR &ir, Type type, ArrayRef<Value> fields) {
  Value v = LLVM::UndefOp::create(ir.b, ir.loc, type);
  for (auto [i, f] : llvm::enumerate(fields))
    v = LLVM::InsertValueOp::create(ir.b, ir.loc, v, f, ArrayRef<int64_t>{int64_t(i)});
  return v;
}

/// An op lowered through its warp's WarpMma: `lower` returns its
/// replacement.
template <typename OpT, Value (*lower)(OpT, KernelIR &, WarpMma &)>
struct WarpMmaLowering : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    std::optional<MmaSyncWarpGrid> grid = ::gemmc::mmaSyncWarpGrid(s);
    if (!grid)
      return rewriter.notifyMatchFailure(op, "no mma.sync warp grid");
    KernelIR ir(rewriter, op.getLoc());
    WarpMma warp(ir, s, *grid);
    rewriter.replaceOp(op, lower(op, ir, warp));
    return success();
  }
};

/// gemmc.mma_stage -> ldmatrix + mma.sync over the stage's K steps, the
/// fragments of step j + 1 loaded before the mma.syncs of step j (two
/// register buffers), so their latency hides behind them.
Value lowerMmaStage(MmaStageOp op, KernelIR &ir, WarpMma &warp) {
  SmallVector<Value> acc = unpack(ir, op.getAcc());
  SmallVector<Value> cur = warp.load(op.getATile(), op.getBTile(), 0);
  for (int64_t kk = 0; kk < warp.kSteps(); ++kk) {
    SmallVector<Value> next;
    if (kk + 1 < warp.kSteps())
      next = warp.load(op.getATile(), op.getBTile(), kk + 1);
    warp.multiply(acc, cur);
    cur = std::move(next);
  }
  return pack(ir, op.getAcc().getType(), acc);
}

/// gemmc.mma_fragments -> one k step's ldmatrix (or shared loads).
Value lowerMmaFragments(MmaFragmentsOp op, KernelIR &ir, WarpMma &warp) {
  return pack(ir, op.getType(), warp.load(op.getATile(), op.getBTile(), op.getKStep()));
}

/// gemmc.mma_step -> one k step's mma.syncs.
Value lowerMmaStep(MmaStepOp op, KernelIR &ir, WarpMma &warp) {
  SmallVector<Value> acc = unpack(ir, op.getAcc());
  warp.multiply(acc, unpack(ir, op.getFragments()));
  return pack(ir, op.getAcc().getType(), acc);
}

} // namespace

void mlir::gemmc::populateSm80Patterns(RewritePatternSet &patterns,
                                       const InstructionOptions &) {
  patterns.add<StageFillLowering,                                     // gemmc.stage_fill (cp.async)
               DirectLowering<StageWaitOp, lowerStageWait>,           // gemmc.stage_wait
               DirectLowering<StageReleaseOp, lowerStageRelease>,     // gemmc.stage_release
               DirectLowering<StageBaseOp, lowerStageBase>,           // gemmc.stage_base
               WarpMmaLowering<MmaStageOp, lowerMmaStage>,            // gemmc.mma_stage
               WarpMmaLowering<MmaFragmentsOp, lowerMmaFragments>,    // gemmc.mma_fragments
               WarpMmaLowering<MmaStepOp, lowerMmaStep>>(             // gemmc.mma_step
      patterns.getContext());
}
