//===- Sm80Patterns.cpp - Instruction selection for sm_80 ----------------===//
//
// The A100 path (gemmc-warp-specialize's buildEveryThreadFills):
//
//   stage_fill    every thread cp.async.cg's its share of the stage's A and
//                 B tiles, 16 bytes at a time, with the src-size operand
//                 clipping at M, N and K (the rest of a copy is zero-filled,
//                 a copy wholly outside reads nothing); then one
//                 cp.async.commit_group, also for a load past the last K
//                 tile (all zeros), so that every wait counts alike;
//   stage_wait    cp.async.wait_group(stages - 2): the thread's copies of
//                 this load have landed (stages - 2 younger loads may be in
//                 flight), then bar.sync: everybody's have, and no warp still
//                 reads the stage the next fill overwrites;
//   stage_release cp.async.wait_group 0: the tile's trailing zero-fills are
//                 done before the ring takes the next tile;
//   mma_stage     per warp of the warp grid (lib/Target/Sm80.h): ldmatrix
//                 .x4 fragments of A and B (.trans for an N-major 16-bit B;
//                 scalar 32-bit shared loads for an N-major tf32 B, which
//                 ldmatrix cannot transpose), mma.sync m16n8k8 (tf32) or
//                 m16n8k16 (bf16, f16) into fp32 accumulators. The fragments
//                 of k step j + 1 are loaded before the mma.syncs of step j
//                 (two register buffers), so their latency hides behind them.
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
};

/// The shared address of byte `byteInUnit` of unit `unit` of row `row`.
Value unitAddress(KernelIR &ir, Value tile, const TileShape &t, Value row,
                  Value unit, Value byteInUnit = Value()) {
  int64_t mask = ::gemmc::sm80SwizzleMask(t.rowUnits, t.swizzled());
  Value placed = unit;
  if (mask) {
    Value phase = ir.andI(ir.mul(ir.divU(row, ir.c32(::gemmc::sm80RowsPerLine(t.rowUnits))),
                                 ir.c32(t.phaseStep)),
                          ir.c32(mask));
    placed = arith::XOrIOp::create(ir.b, ir.loc, unit, phase);
  }
  Value offset = ir.add(ir.mul(row, ir.c32(t.rowPitch())), ir.mul(placed, ir.c32(kUnit)));
  if (byteInUnit)
    offset = ir.add(offset, byteInUnit);
  return ir.sharedAt(tile, offset);
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

/// gemmc.stage_fill (with ld) -> this thread's cp.async copies + commit.
struct StageFillLowering : OpRewritePattern<StageFillOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StageFillOp op, PatternRewriter &rewriter) const override {
    if (!op.getLda() || !op.getM())
      return rewriter.notifyMatchFailure(op, "sm_80 fills need ld(...) and clip(...)");
    const KernelSpec &s = op.getSchedule().getSpec();
    KernelIR ir(rewriter, op.getLoc());
    int64_t threads = op.getSchedule().getResources().threads;
    Value tid = ir.threadId();
    Value base = stageBase(ir, op.getSmem(), op.getSmemLayout(), op.getLoad());
    Value k0 = ir.mul(op.getKTile(), ir.c32(s.blockK()));
    // Copy the tile whose row r, unit u holds global element
    // (rowOrigin + r, colOrigin + u * per) of `src` (leading dimension ld).
    auto copyTile = [&](Value tile, const TileShape &t, Value src, Value ld,
                        ::gemmc::ElementType element, Value rowOrigin, Value rowLimit,
                        Value colOrigin, Value colLimit) {
      int64_t eb = elementBytes(element);
      Type elemType = storageType(rewriter.getContext(), element);
      int64_t copies = t.rows * t.rowUnits;
      for (int64_t i = 0; i * threads < copies; ++i) {
        Value q = ir.add(tid, ir.c32(i * threads));
        // A tile smaller than a round of copies leaves the last threads out.
        OpBuilder::InsertionGuard guard(ir.b);
        if ((i + 1) * threads > copies) {
          auto partial = scf::IfOp::create(
              ir.b, ir.loc, ir.cmp(arith::CmpIPredicate::ult, q, ir.c32(copies)),
              /*withElseRegion=*/false);
          ir.b.setInsertionPointToStart(&partial.getThenRegion().front());
        }
        Value r = ir.divU(q, ir.c32(t.rowUnits)), u = ir.remU(q, ir.c32(t.rowUnits));
        Value row = ir.add(rowOrigin, r);
        Value col = ir.add(colOrigin, ir.mul(u, ir.c32(kUnit / eb)));
        // Bytes inside the matrix: 16, fewer at the right edge, 0 outside.
        Value inside = ir.andI(ir.cmp(arith::CmpIPredicate::ult, row, rowLimit),
                               ir.cmp(arith::CmpIPredicate::ult, col, colLimit));
        Value bytes = arith::SelectOp::create(
            ir.b, ir.loc, inside,
            ir.minU(ir.mul(ir.sub(colLimit, col), ir.c32(eb)), ir.c32(kUnit)),
            ir.c32(0));
        // A copy that reads nothing still gets an address inside the
        // matrix: its first element.
        Value offset = arith::SelectOp::create(
            ir.b, ir.loc, inside,
            arith::AddIOp::create(ir.b, ir.loc,
                                  arith::MulIOp::create(ir.b, ir.loc, ir.zext64(row),
                                                        ir.zext64(ld)),
                                  ir.zext64(col)),
            ir.c64(0));
        Value from = LLVM::GEPOp::create(ir.b, ir.loc, ir.globalPtr, elemType, src,
                                         ValueRange{offset});
        NVVM::CpAsyncOp::create(
            ir.b, ir.loc, unitAddress(ir, tile, t, r, u), from,
            ir.b.getI32IntegerAttr(kUnit),
            NVVM::LoadCacheModifierKindAttr::get(rewriter.getContext(),
                                                 NVVM::LoadCacheModifierKind::CG),
            bytes);
      }
    };
    // A is K-major: rows of M.
    copyTile(base, tileA(s), op.getA(), op.getLda(), s.a.element, op.getM0(),
             op.getM(), k0, op.getK());
    Value bTile = ir.sharedAt(base, op.getSmemLayout().getBOffset());
    if (s.b.layout == Layout::Col)
      copyTile(bTile, tileB(s), op.getB(), op.getLdb(), s.b.element, op.getN0(),
               op.getN(), k0, op.getK());
    else
      copyTile(bTile, tileB(s), op.getB(), op.getLdb(), s.b.element, k0,
               op.getK(), op.getN0(), op.getN());
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

/// gemmc.mma_stage -> ldmatrix + mma.sync over the stage's K steps.
struct MmaStageLowering : OpRewritePattern<MmaStageOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MmaStageOp op, PatternRewriter &rewriter) const override {
    const KernelSpec &s = op.getSchedule().getSpec();
    std::optional<MmaSyncWarpGrid> grid = ::gemmc::mmaSyncWarpGrid(s);
    if (!grid)
      return rewriter.notifyMatchFailure(op, "no mma.sync warp grid");
    MLIRContext *ctx = rewriter.getContext();
    KernelIR ir(rewriter, op.getLoc());
    Location loc = op.getLoc();
    const ::gemmc::MmaIsa &mma = ::gemmc::isaFor(s.arch).mma;
    const ::gemmc::AccumulatorLayout &frag = mma.accumulator;
    bool tf32 = s.a.element == ::gemmc::ElementType::TF32;
    bool f16 = s.a.element == ::gemmc::ElementType::F16;
    int64_t kInstr = mma.k(s.a.element);
    int64_t kSteps = s.blockK() / kInstr;
    int64_t unitsPerStep = isa::kMmaKBytes / kUnit;
    int64_t mf = grid->mFragments(), nf = grid->nFragments();
    int64_t fragRows = grid->warpRows / mf, fragCols = grid->warpCols / nf;
    TileShape ta = tileA(s), tb = tileB(s);

    Value tid = ir.threadId();
    Value warp = ir.divU(tid, ir.c32(kWarpSize));
    Value lane = ir.remU(tid, ir.c32(kWarpSize));
    Value warpRow = ir.mul(ir.divU(warp, ir.c32(grid->warpsN)), ir.c32(grid->warpRows));
    Value warpCol = ir.mul(ir.remU(warp, ir.c32(grid->warpsN)), ir.c32(grid->warpCols));
    // ldmatrix .x4: lane l gives the row address of matrix l / 8, row l % 8.
    Value matrix = ir.divU(lane, ir.c32(isa::kLdmatrixRows));
    Value rowInMatrix = ir.remU(lane, ir.c32(isa::kLdmatrixRows));
    Value lowBit = ir.remU(matrix, ir.c32(2)), highBit = ir.divU(matrix, ir.c32(2));

    Type i32 = ir.i32;
    Type x4 = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, i32));
    auto ldmatrix = [&](Value addr, bool trans) {
      Value v = NVVM::LdMatrixOp::create(
          ir.b, loc, x4, addr, /*num=*/isa::kLdmatrixMatrices,
          trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(ctx, isa::kLdmatrixRows, isa::kLdmatrixRows),
          NVVM::LdStMatrixEltType::B16);
      SmallVector<Value, 4> regs;
      for (int64_t i = 0; i < 4; ++i)
        regs.push_back(LLVM::ExtractValueOp::create(ir.b, loc, v, ArrayRef<int64_t>{i}));
      return regs;
    };
    // mma.sync operand registers: i32 (tf32, bf16) or f16 pairs.
    Type f16x2 = VectorType::get({2}, rewriter.getF16Type());
    auto operandReg = [&](Value r) {
      return f16 ? LLVM::BitcastOp::create(ir.b, loc, f16x2, r).getResult() : r;
    };

    // Fragments of one k step: A[mi] (4 registers), B[ni] (2 registers).
    struct Fragments {
      SmallVector<SmallVector<Value, 4>> a, b;
    };
    auto loadStep = [&](int64_t kk) {
      Fragments f;
      // A: matrices (rows 0-7, 8-15) x (first, second 16 bytes of the step).
      for (int64_t mi = 0; mi < mf; ++mi) {
        Value row = ir.add(ir.add(warpRow, ir.c32(mi * fragRows)),
                           ir.add(rowInMatrix, ir.mul(lowBit, ir.c32(8))));
        Value unit = ir.add(ir.c32(kk * unitsPerStep), highBit);
        f.a.push_back(ldmatrix(unitAddress(ir, op.getATile(), ta, row, unit), false));
      }
      f.b.resize(nf);
      if (s.b.layout == Layout::Col) {
        // K-major B: matrices (n 0-7: k bytes 0-15, 16-31), (n 8-15: ...).
        for (int64_t np = 0; np < nf / 2; ++np) {
          Value row = ir.add(ir.add(warpCol, ir.c32(np * 2 * fragCols)),
                             ir.add(rowInMatrix, ir.mul(highBit, ir.c32(8))));
          Value unit = ir.add(ir.c32(kk * unitsPerStep), lowBit);
          auto r = ldmatrix(unitAddress(ir, op.getBTile(), tb, row, unit), false);
          f.b[2 * np] = {r[0], r[1]};
          f.b[2 * np + 1] = {r[2], r[3]};
        }
      } else if (!tf32) {
        // N-major 16-bit B, transposed: matrices (k 0-7, 8-15) x (n 0-7, 8-15).
        int64_t unitCols = kUnit / elementBytes(s.b.element);
        for (int64_t np = 0; np < nf / 2; ++np) {
          Value row = ir.add(ir.c32(kk * kInstr),
                             ir.add(rowInMatrix, ir.mul(lowBit, ir.c32(8))));
          Value unit = ir.add(ir.divU(ir.add(warpCol, ir.c32(np * 2 * fragCols)),
                                      ir.c32(unitCols)),
                              highBit);
          auto r = ldmatrix(unitAddress(ir, op.getBTile(), tb, row, unit), true);
          f.b[2 * np] = {r[0], r[1]};
          f.b[2 * np + 1] = {r[2], r[3]};
        }
      } else {
        // N-major tf32 B: b0 = B[k = l % 4][n = l / 4], b1 = B[k + 4][n].
        Value g = ir.divU(lane, ir.c32(frag.lanesPerRow));
        Value t = ir.remU(lane, ir.c32(frag.lanesPerRow));
        int64_t eb = elementBytes(s.b.element);
        for (int64_t ni = 0; ni < nf; ++ni) {
          Value n = ir.add(ir.add(warpCol, ir.c32(ni * fragCols)), g);
          Value byte = ir.mul(n, ir.c32(eb));
          Value unit = ir.divU(byte, ir.c32(kUnit)), within = ir.remU(byte, ir.c32(kUnit));
          for (int64_t half = 0; half < 2; ++half) {
            Value k = ir.add(t, ir.c32(kk * kInstr + half * kInstr / 2));
            Value addr = unitAddress(ir, op.getBTile(), tb, k, unit, within);
            f.b[ni].push_back(LLVM::LoadOp::create(ir.b, loc, i32, addr, /*alignment=*/4));
          }
        }
      }
      return f;
    };

    // The accumulators as values: fragment (mi, ni) holds 4 consecutive.
    int64_t perFragment = frag.valuesPerBlock();
    SmallVector<Value> acc;
    auto accType = cast<LLVM::LLVMStructType>(op.getAcc().getType());
    for (int64_t i = 0, e = accType.getBody().size(); i < e; ++i)
      acc.push_back(LLVM::ExtractValueOp::create(ir.b, loc, op.getAcc(), ArrayRef<int64_t>{i}));
    Type f32x4 = LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, ir.f32));
    NVVM::MMATypes ptxType = tf32 ? NVVM::MMATypes::tf32
                             : f16 ? NVVM::MMATypes::f16
                                   : NVVM::MMATypes::bf16;

    Fragments cur = loadStep(0);
    for (int64_t kk = 0; kk < kSteps; ++kk) {
      Fragments next;
      if (kk + 1 < kSteps)
        next = loadStep(kk + 1);
      for (int64_t mi = 0; mi < mf; ++mi)
        for (int64_t ni = 0; ni < nf; ++ni) {
          int64_t first = (mi * nf + ni) * perFragment;
          SmallVector<Value> a, b, c;
          for (Value r : cur.a[mi])
            a.push_back(operandReg(r));
          for (Value r : cur.b[ni])
            b.push_back(operandReg(r));
          for (int64_t i = 0; i < perFragment; ++i)
            c.push_back(acc[first + i]);
          std::array<int64_t, 3> shape = {mma.defaultShape().m,
                                          mma.defaultShape().nMin, kInstr};
          auto d = NVVM::MmaOp::create(
              ir.b, loc, f32x4, a, b, c, shape, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptxType, ptxType},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
          for (int64_t i = 0; i < perFragment; ++i)
            acc[first + i] = LLVM::ExtractValueOp::create(ir.b, loc, d, ArrayRef<int64_t>{i});
        }
      cur = std::move(next);
    }
    Value result = LLVM::UndefOp::create(ir.b, loc, accType);
    for (auto [i, v] : llvm::enumerate(acc))
      result = LLVM::InsertValueOp::create(ir.b, loc, result, v, ArrayRef<int64_t>{int64_t(i)});
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::gemmc::populateSm80Patterns(RewritePatternSet &patterns,
                                       const InstructionOptions &) {
  patterns.add<StageFillLowering,                                     // gemmc.stage_fill (cp.async)
               DirectLowering<StageWaitOp, lowerStageWait>,           // gemmc.stage_wait
               DirectLowering<StageReleaseOp, lowerStageRelease>,     // gemmc.stage_release
               DirectLowering<StageBaseOp, lowerStageBase>,           // gemmc.stage_base
               MmaStageLowering>(                                     // gemmc.mma_stage
      patterns.getContext());
}
