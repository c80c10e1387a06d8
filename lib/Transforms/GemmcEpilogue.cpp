//===- GemmcEpilogue.cpp - Accumulators to C ------------------------------===//
//
// On a target with tensor memory (sm_100a) the accumulator is an address:
// storeFromTensorMemory and storeTensorMemoryThroughTma read it with
// gemmc.acc_load, one row per thread, and store as below. Otherwise:
//
// Lowers gemmc.epilogue: each thread scales its accumulators by alpha, adds
// beta x C and converts to C's type; then
//
// - store: direct — stores straight from registers, two adjacent columns at
//   a time, skipping what lies outside M x N;
// - store: tma — stages the warpgroup's 64 rows in chunks one 128-byte
//   swizzle span wide (64 bf16 / 32 f32 columns) through a ring of
//   shared-memory buffers (1 under pingpong, 2, or a whole tile row when the
//   stages leave room), written in the 128-byte swizzle pattern (so that
//   the writes are free of bank conflicts and TMA reads the layout its
//   tensor map names), and hands each chunk to one TMA store. TMA clips at
//   M x N, and the warpgroup goes on to its next tile while the stores
//   drain: a buffer is waited for (cp.async.bulk.wait_group.read) only when
//   the ring comes back to it. A pingpong warpgroup with per-column scales
//   hands its whole 128-row tile to one epilogue, stored chunk by chunk
//   over its two 64-row blocks (each chunk's column scales loaded once).
//
// Before (one warpgroup, bf16 C, BLOCK_N = 256):
//
//   gemmc.epilogue %acc, %c, %m0, %n0, %m, %n, %ldc
//       tma(%tmap_c, %buffer : !llvm.ptr, !llvm.ptr<3>) {schedule = ...}
//
// After, for each of the 4 chunks k (buffer k % 2):
//
//   [leader] nvvm.cp.async.bulk.wait_group 1 {read}
//   nvvm.barrier id = 1 + warpgroup, 128 threads
//   llvm.store %pair, %swizzled : vector<2xbf16>, !llvm.ptr<3>   (x 16)
//   nvvm.fence.proxy {kind = async.shared, space = cta}
//   nvvm.barrier id = 1 + warpgroup, 128 threads
//   [leader] nvvm.cp.async.bulk.tensor.global.shared.cta %tmap_c, %buf,
//                box[%n0 + 64 k, %m0 + 64 warpgroup]
//   [leader] nvvm.cp.async.bulk.commit.group
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/Utils/KernelIR.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Target/Isa.h"
#include "gemmc/Transforms/EpilogueMath.h"
#include "gemmc/Target/Sm80.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include <array>

#define DEBUG_TYPE "gemmc-epilogue"

namespace mlir::gemmc {
#define GEN_PASS_DEF_GEMMCEPILOGUE
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// storeMmaSyncStaged's plan: the warp's staging area and the 16-byte units
/// of C its lanes read back, round by round.
struct MmaSyncStagedStore {
  MmaSyncWarpGrid grid;
  MmaSyncStaging staging;
  /// C's values a 16-byte unit, units a row of the warp tile, rounds of
  /// the warp's units a chunk.
  int64_t unitValues = 0, rowUnits = 0, rounds = 0;
  /// ldc (64 bits, read in place); where the lane writes its fragments and
  /// reads round 0's unit; round 0's unit in C: its row, column and address.
  Value ldcHere, writeAt, readAt, row0, col0, addr0;

  /// Round i's unit lies rowStep(i) rows and unitStep(i) units from round
  /// 0's: constant offsets from one shared and one global address.
  int64_t rowStep(int64_t i) const {
    return rowUnits <= kWarpSize ? i * kWarpSize / rowUnits : i / (rowUnits / kWarpSize);
  }
  int64_t unitStep(int64_t i) const {
    return rowUnits <= kWarpSize ? 0 : i % (rowUnits / kWarpSize) * kWarpSize;
  }
};

/// FP8 column scales a thread holds for chunks [first, end), indexed by
/// the value's (j - first block, e).
struct HeldScales {
  SmallVector<Value> values;
  int64_t first = 0, end = 0;
  bool covers(int64_t f, int64_t e) const { return f >= first && e <= end; }
};

/// storeTensorMemoryThroughTma's plan (Epilogue::planTmemTmaStore says
/// why): the ring of chunk buffers, the thread's row in a chunk, and the
/// FP8 scales and biases a row takes once.
struct TmemTmaStore {
  int64_t chunkCols = 0, chunkBytes = 0, rowBytes = 0, unitValues = 0;
  int64_t buffers = 0, chunks = 0;
  Value leader, groupBarrier, rowInChunk, row, rowPhase, rowStart;
  VectorType unitType;
  bool scalesAhead = false;
  Value factor;
  int64_t pairLanes = 0;
  SmallVector<int64_t> pairOffsets;
  Value lanePair, rowBias;
};

/// One chunk's values from tensor memory, and its column scales and biases
/// spread over the warp.
struct TmemChunkValues {
  Value values;
  SmallVector<Value> spread, spreadBias;
};

/// storeThroughTma's plan (Epilogue::planTmaStore says why each part is as
/// it is): the swizzled chunk buffers, the rounds they are written in, and
/// the FP8 scales the values take.
struct TmaStore {
  int64_t chunkCols = 0, chunkBytes = 0, rowBytes = 0;
  /// The warpgroup's leader, its named barrier and thread count.
  Value leader, groupBarrier, groupThreads;
  /// A thread's swizzle phase: the 16-byte units of its rows go to u ^ phase.
  Value rowPhase;
  /// Buffers of the ring, chunks of a row block, row blocks, (chunk, row
  /// block) units, units a round.
  int64_t buffers = 0, chunks = 0, blocks = 0, units = 0, round = 0;
  /// Scale vectors: each row's alpha x scale_a, and the columns' scales
  /// (held for this round, next for the round after; spread over the warp).
  bool scalesAhead = false, prefetchScales = false, spreadScales = false;
  SmallVector<Value> rowFactor;
  int64_t blocksPerChunk = 0;
  SmallVector<Value> spread;
  Value quad;
  HeldScales held, next;
  /// stmatrix.x4 writes the units (pingpong, 16-bit C, per column scales).
  bool useStmatrix = false;

  /// The chunks [first, end) of the round that starts at unit u.
  std::pair<int64_t, int64_t> roundChunks(int64_t u) const {
    return {u / blocks, (u + round - 1) / blocks + 1};
  }
};

/// What every epilogue shares: where a thread's accumulators sit in the
/// tile, and alpha x acc (+ beta x C) in C's type.
struct Epilogue {
  Epilogue(EpilogueOp op, const KernelSpec &s, OpBuilder &b)
      : op(op), s(s), frag(isaFor(s.arch).mma.accumulator), b(b),
        ir(b, op.getLoc()), loc(op.getLoc()), math(fusedMath(op, s, ir)) {
    // The target's accumulator fragment (Isa.h): value (j halves + h) pair
    // + e of lane l in warp w sits at row warpRows w + l / lanesPerRow +
    // halfRows h, column blockColumns j + pair (l % lanesPerRow) + e. On
    // sm_90a (wgmma m64nN): 4j + 2h + e at row 16w + l/4 + 8h, column
    // 8j + 2(l%4) + e. The register stores take a value pair (e = 0, 1) at
    // a time (storePair, finishedPair); sm_100a's tensor-memory fragment
    // (pair 1) is drained by its own paths.
    Value tid = ir.threadId();
    lane = ir.remU(tid, ir.c32(kWarpSize));
    warp = ir.divU(ir.remU(tid, ir.c32(kWarpgroupSize)), ir.c32(kWarpSize));
    // Each warpgroup has 64 rows of the tile, except under pingpong, where
    // it has a tile of its own.
    int64_t warpgroupRows = mmaInstrShape(s.arch, s.a.element)->m;
    blockRowCount = warpgroupRows;
    groupRow = s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong
                   ? op.getM0()
                   : ir.add(op.getM0(), ir.mul(ir.warpgroupId(), ir.c32(warpgroupRows)));
    Value laneRow = ir.divU(lane, ir.c32(frag.lanesPerRow));
    rowInGroup = ir.add(ir.mul(warp, ir.c32(frag.warpRows)), laneRow);
    colInGroup = ir.mul(ir.remU(lane, ir.c32(frag.lanesPerRow)), ir.c32(frag.pair));
    // An FP8 output is stored as bytes: the values stay f32 until pair()
    // converts two at a time.
    fp8Out = isFP8(s.c.element);
    outType = fp8Out ? Type(b.getI8Type()) : storageType(b.getContext(), s.c.element);
    cb = elementBytes(s.c.element);
    alpha = op.getAlpha();
    // The output scale (operands.c.scale: tensor): D = scale_d x result,
    // multiplying as cuBLASLt's D_SCALE_POINTER does. Where the result is
    // linear in alpha, gemmc-tile has multiplied it into alpha; else it is
    // read here (an invariant load, once per tile) and applied after the
    // activation.
    if (!EpilogueMath::outScaleJoinsAlpha(s))
      if (Value scaleD = EpilogueMath::kernelParam(op, op.getSchedule().getAbi(), "scale_d"))
        outScale = LLVM::LoadOp::create(b, loc, ir.f32, scaleD, /*alignment=*/0,
                                        /*isVolatile=*/false, /*isNonTemporal=*/false,
                                        /*isInvariant=*/true);
    pairType = VectorType::get({2}, outType);
    ldc = ir.zext64(op.getLdc());
    // As in BLAS, C is not read when beta is 0 (it may hold anything, NaN
    // included).
    if (Value beta = op.getBeta())
      readC = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, beta,
                                    arith::ConstantFloatOp::create(
                                        b, loc, b.getF32Type(), APFloat(0.0f)));
  }

  /// Address of C[row][col].
  Value cAddress(Value row, Value col) {
    Value col64 = ir.zext64(col);
    Value offset =
        arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, ir.zext64(row), ldc), col64);
    return LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, op.getC(),
                               ValueRange{offset});
  }

  /// alpha x scale_a[row], the factor of a row's values when the spec has
  /// FP8 scale vectors (each value then takes one more multiply, by its
  /// column's scale): null when it has neither alpha nor a row scale.
  Value rowFactorAt(Value row) {
    Value factor = alpha;
    if (Value scale = math.rowScaleAt(row))
      factor = factor ? arith::MulFOp::create(b, loc, factor, scale).getResult() : scale;
    return factor;
  }

  /// Accumulator `index`, times alpha.
  Value scaled(int64_t index) {
    Value v = LLVM::ExtractValueOp::create(b, loc, op.getAcc(),
                                           ArrayRef<int64_t>{index});
    if (alpha)
      v = arith::MulFOp::create(b, loc, v, alpha);
    return v;
  }

  /// The bias, aux and activation of the spec (EpilogueMath), with the
  /// kernel's `bias` and `aux` parameters.
  static EpilogueMath fusedMath(EpilogueOp op, const KernelSpec &s, KernelIR &ir) {
    const KernelAbi &abi = op.getSchedule().getAbi();
    EpilogueMath math(ir, s, EpilogueMath::kernelParam(op, abi, "bias"),
                      EpilogueMath::kernelParam(op, abi, "aux"), op.getM(),
                      op.getN(), op.getLdc());
    math.readScaleVectors(op, abi);
    return math;
  }

  /// x (+ beta x C[at] when beta != 0 and `inside`, if given), then the
  /// fused math at C[row][col], in C's type (`scalesApplied`, `biasValue`:
  /// as EpilogueMath::apply).
  Value finish(Value x, function_ref<Value()> at, Value row, Value col,
               Value inside = Value(), bool scalesApplied = false,
               Value biasValue = Value()) {
    if (Value beta = op.getBeta()) {
      Value cond = inside ? arith::AndIOp::create(b, loc, readC, inside) : readC;
      auto ifRead = scf::IfOp::create(b, loc, TypeRange{ir.f32}, cond,
                                      /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&ifRead.getThenRegion().front());
      Value old = LLVM::LoadOp::create(b, loc, outType, at());
      if (outType != ir.f32)
        old = arith::ExtFOp::create(b, loc, ir.f32, old);
      scf::YieldOp::create(
          b, loc,
          ValueRange{arith::AddFOp::create(
              b, loc, x, arith::MulFOp::create(b, loc, old, beta))});
      b.setInsertionPointToStart(&ifRead.getElseRegion().front());
      scf::YieldOp::create(b, loc, ValueRange{x});
      x = ifRead.getResult(0);
    }
    x = math.apply(x, row, col, inside, scalesApplied, biasValue);
    if (outScale)
      x = arith::MulFOp::create(b, loc, x, outScale);
    // FP8: converted by pair() / single().
    return outType == ir.f32 || fp8Out ? x : arith::TruncFOp::create(b, loc, outType, x);
  }

  /// An FP8 output's pair (first at the lower address): one
  /// cvt.rn.satfinite.{e4m3,e5m2}x2.f32, which rounds to nearest and clamps
  /// to the largest finite value (cuBLASLt's saturation; NaN stays NaN).
  Value fp8Pair(Value first, Value second) {
    // The instruction puts its first source in the high byte.
    return NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, pairType, second, first, NVVM::FPRoundingMode::RN,
        NVVM::SaturationMode::SATFINITE, /*relu=*/false,
        storageType(b.getContext(), s.c.element));
  }

  /// A 16-byte unit of C's type from finish()'s results: inserted one by
  /// one, or for an FP8 output converted a pair at a time (fp8Pair) and
  /// inserted as 16-bit pairs into the unit's bytes.
  Value packUnit(ArrayRef<Value> xs, VectorType unitType) {
    if (!fp8Out) {
      Value v = LLVM::UndefOp::create(b, loc, unitType);
      for (auto [e, x] : llvm::enumerate(xs))
        v = LLVM::InsertElementOp::create(b, loc, v, x, ir.c32(e));
      return v;
    }
    auto pairsType = VectorType::get({int64_t(xs.size()) / 2}, b.getI16Type());
    Value v = LLVM::UndefOp::create(b, loc, pairsType);
    for (size_t e = 0; e + 1 < xs.size(); e += 2) {
      Value p = fp8Pair(xs[e], xs[e + 1]);
      Value bits = LLVM::BitcastOp::create(b, loc, b.getI16Type(), p);
      v = LLVM::InsertElementOp::create(b, loc, v, bits, ir.c32(e / 2));
    }
    return LLVM::BitcastOp::create(b, loc, unitType, v);
  }

  /// One value of C's type (finish()'s result), for a lone store.
  Value single(Value x) {
    if (!fp8Out)
      return x;
    return LLVM::ExtractElementOp::create(
        b, loc, fp8Pair(x, arith::ConstantFloatOp::create(b, loc, b.getF32Type(), APFloat(0.0f))),
        ir.c32(0));
  }

  Value pair(Value first, Value second) {
    if (fp8Out)
      return fp8Pair(first, second);
    Value v = LLVM::UndefOp::create(b, loc, pairType);
    v = LLVM::InsertElementOp::create(b, loc, v, first, ir.c32(0));
    return LLVM::InsertElementOp::create(b, loc, v, second, ir.c32(1));
  }

  /// Where a column pair lies against N's edge: `left` = N - colBase
  /// (signed: a thread's base may lie past N) and the pair's constant offset
  /// from colBase. A row's tests then take the offset as an immediate and
  /// keep one register live (`left`), where col + 1 < N kept each of a
  /// thread's column indices live across its rows (128x192 pingpong: 48,
  /// which ptxas spilled).
  struct ColumnsLeft {
    Value left;
    int64_t offset = 0;
  };
  Value colInside(Value col, int64_t plus, const ColumnsLeft *edge) {
    if (edge)
      return ir.cmp(arith::CmpIPredicate::sgt, edge->left, ir.c32(edge->offset + plus));
    return ir.cmp(arith::CmpIPredicate::ult, plus ? ir.add(col, ir.c32(plus)) : col, op.getN());
  }

  /// Columns col and col + 1 of a row at `addr` from registers: one paired
  /// store when both lie inside N (ldc and col are even, so the pair is
  /// aligned), else the first alone if it does.
  /// `scalesApplied`: v0 and v1 already carry the FP8 scale vectors
  /// (EpilogueMath::apply). `edge`: test against N as ColumnsLeft says.
  void storeTwoColumns(Value addr, Value row, Value col, Value v0, Value v1,
                       bool scalesApplied = false, const ColumnsLeft *edge = nullptr) {
    auto both = scf::IfOp::create(b, loc, colInside(col, 1, edge), /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&both.getThenRegion().front());
    Value second = LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, addr,
                                       ValueRange{ir.c32(1)});
    Value x1 = finish(v1, [&] { return second; }, row,
                      math.touchesMemory() ? ir.add(col, ir.c32(1)) : Value(), Value(),
                      scalesApplied);
    Value x0 = finish(v0, [&] { return addr; }, row, col, Value(), scalesApplied);
    LLVM::StoreOp::create(b, loc, pair(x0, x1), addr, /*alignment=*/2 * cb);
    b.setInsertionPointToStart(&both.getElseRegion().front());
    ir.ifThen(colInside(col, 0, edge), [&] {
      Value x0 = finish(v0, [&] { return addr; }, row, col, Value(), scalesApplied);
      LLVM::StoreOp::create(b, loc, single(x0), addr, /*alignment=*/cb);
    });
  }

  /// A chunk of the tensor-memory epilogue's columns: a constant where the
  /// chunks are unrolled, the loop's induction variable where they loop.
  struct Chunk {
    Value index;
    int64_t constant = 0;
    /// scale x chunk + offset (i32): a constant where unrolled, so that the
    /// unrolled IR is what it was before the loop existed.
    Value at(KernelIR &ir, int64_t scale, int64_t offset = 0) const {
      if (!index)
        return ir.c32(scale * constant + offset);
      Value v = ir.mul(index, ir.c32(scale));
      return offset ? ir.add(v, ir.c32(offset)) : v;
    }
  };
  /// body(chunk) for each of `count` chunks: unrolled, or where the fused
  /// math (bias, aux, activation) runs, one scf.for of one chunk's code. A
  /// tensor-memory thread holds a whole row of the tile (256 values at
  /// BLOCK_N = 256, twice a wgmma thread's), and unrolled, the activations'
  /// polynomials took 2-15 s to compile (bench/lead24/README.md).
  void forEachChunk(int64_t count, function_ref<void(const Chunk &)> body) {
    if (!EpilogueMath::fused(s) || count == 1) {
      for (int64_t c = 0; c < count; ++c)
        body(Chunk{Value(), c});
      return;
    }
    auto loop = scf::ForOp::create(b, loc, ir.c32(0), ir.c32(count), ir.c32(1));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    body(Chunk{loop.getInductionVar(), 0});
  }

  void storeDirect();
  /// swap_ab: the tile is of C^T (rows along the caller's N, columns along
  /// its M); stores each value at C[col][row] from registers.
  void storeTransposed();
  /// Stores the accumulators' pair `first`, `first` + 1 at C[row][col],
  /// C[row][col + 1], each where it lies inside N.
  void storePair(Value row, Value col, int64_t first, const ColumnsLeft *edge = nullptr);
  /// storeDirect for mma.sync's per-warp fragments (sm_80).
  void storeMmaSyncFragments();
  /// sm_80 with staging(...): each warp's fragments through its area of
  /// shared memory, then 16-byte units of C (Sm80.h's mmaSyncStaging).
  void storeMmaSyncStaged();
  MmaSyncStagedStore planMmaSyncStaged();
  /// Chunk `chunk` of the warp's fragments into its staging area.
  void stageMmaSyncChunk(const MmaSyncStagedStore &st, int64_t chunk);
  /// The staged chunk read back in 16-byte units of C and stored.
  void storeMmaSyncChunk(const MmaSyncStagedStore &st, int64_t chunk);
  /// One 16-byte unit of C at `addr` (C[row][col .. col + x.size() - 1],
  /// inside M x N) from its values alpha x acc (f32 `x`): + beta x C (one
  /// 16-byte load, when beta != 0), the fused math value by value
  /// (EpilogueMath::apply: bias, aux, activation), converted to C's type,
  /// one 16-byte store.
  void storeUnit(Value addr, ArrayRef<Value> x, Value row, Value col);
  /// sm_100a: the accumulator is a tensor-memory address; each warp reads
  /// its 32 rows in chunks of columns (one row per lane) and stores them.
  void storeFromTensorMemory();
  /// sm_100a, store: tma: each thread writes its row of a chunk into the
  /// swizzled chunk buffer, one thread stores the chunk with TMA.
  void storeTensorMemoryThroughTma();
  TmemTmaStore planTmemTmaStore();
  /// One chunk: its values and spread scales, the ring's drain, the
  /// thread's units, the fence and the TMA store.
  void storeTmemChunk(const TmemTmaStore &t, const Chunk &chunk);
  /// 16-byte unit `unit` of the thread's row: finished values, packed, into
  /// the swizzled buffer.
  void writeTmemUnit(const TmemTmaStore &t, const Chunk &chunk, const TmemChunkValues &v,
                     Value buffer, int64_t unit);
  /// store: tma on sm_90a: the tile's values, finished, into the swizzled
  /// chunk buffers in rounds; one thread of the warpgroup stores each
  /// chunk with TMA.
  void storeThroughTma();
  TmaStore planTmaStore();
  /// The round's column scales into t.held (and t.next ahead).
  void takeRoundScales(TmaStore &t, int64_t first);
  HeldScales shuffledColScales(const TmaStore &t, int64_t first, int64_t end);
  HeldScales loadColScales(const TmaStore &t, int64_t first, int64_t end);
  /// Value (j, h, e) of row block `block`, times its row and column scales.
  Value scaledAhead(const TmaStore &t, int64_t block, int64_t j, int64_t h, int64_t e);
  /// Value j's pair (h, e = 0, 1) of row block `block` at (row, col) and
  /// (row, col + 1), finished as the store takes it (scaled, beta read
  /// through `rowStart`, the activation, converted): both unit writers.
  std::array<Value, 2> finishedPair(const TmaStore &t, int64_t block, int64_t j, int64_t h,
                                    Value row, Value col, Value rowStart);
  /// Unit (chunk, block) into its swizzled buffer: 4-byte st.shared, or
  /// stmatrix.x4 (t.useStmatrix).
  void writeUnit(const TmaStore &t, int64_t chunk, int64_t block, Value buffer);
  void writeUnitStmatrix(const TmaStore &t, int64_t chunk, int64_t block, Value buffer);
  /// storeThroughTma, except for a tile whose right edge cuts a 16-byte unit
  /// of C's rows: it stores from registers.
  void storeTmaOrDirect();

  /// The index of value e of pair (j, h) in the fragment.
  int64_t valueIndex(int64_t j, int64_t h, int64_t e) const {
    return (j * frag.halves + h) * frag.pair + e;
  }

  /// sm_90a: the wgmma row blocks (64 rows each) in the op's accumulator,
  /// block b's fragment at values [b x blockValues(), (b + 1) x
  /// blockValues()). 1, except where a pingpong warpgroup stores its
  /// 128-row tile in one epilogue (GemmcWarpSpecialize.cpp,
  /// oneEpilogueATile): its two blocks share one load of the column scales.
  int64_t blockValues() const {
    return s.blockN() / frag.blockColumns * frag.halves * frag.pair;
  }
  int64_t rowBlocks() {
    int64_t values = cast<LLVM::LLVMStructType>(op.getAcc().getType()).getBody().size();
    assert(values % blockValues() == 0 && "whole row blocks");
    return values / blockValues();
  }
  /// The first row of row block `block` (64 x block rows under groupRow).
  Value blockRow(int64_t block) {
    return block == 0 ? groupRow : ir.add(groupRow, ir.c32(block * blockRowCount));
  }

  EpilogueOp op;
  const KernelSpec &s;
  const AccumulatorLayout &frag;
  OpBuilder &b;
  KernelIR ir;
  Location loc;
  Value lane, warp, groupRow, rowInGroup, colInGroup, ldc, readC;
  /// The rows of one MMA row block (wgmma: 64).
  int64_t blockRowCount = 0;
  /// alpha (x scale_d where it folds); the output scale where it does not.
  Value alpha, outScale;
  Type outType, pairType;
  int64_t cb = 0;
  bool fp8Out = false;
  /// storeThroughTma sees only tiles inside N (storeTmaOrDirect).
  bool colTilesInsideN = false;
  EpilogueMath math;
};

void Epilogue::storeDirect() {
  // Column pairs outside, a thread's rows inside: what stays live across
  // the stores is the rows' tests (2 a row block) and N - colBase, not a
  // test a column pair (ptxas spilled the 24 of a 192-column tile).
  Value colBase = ir.add(op.getN0(), colInGroup);
  Value left = ir.sub(op.getN(), colBase);
  for (int64_t j = 0; j < s.blockN() / frag.blockColumns; ++j) {
    ColumnsLeft edge{left, frag.blockColumns * j};
    Value col = ir.add(colBase, ir.c32(edge.offset));
    for (int64_t block = 0; block < rowBlocks(); ++block)
      for (int64_t h = 0; h < frag.halves; ++h) {
        Value row = ir.add(ir.add(blockRow(block), rowInGroup), ir.c32(frag.halfRows * h));
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), [&] {
          storePair(row, col, block * blockValues() + valueIndex(j, h, 0), &edge);
        });
      }
  }
}

void Epilogue::storeTransposed() {
  // The kernel's M and N (op.getM(), op.getN()) are the caller's N and M,
  // and ldc is the caller's: C^T[row][col] lies at C + col x ldc + row. A
  // thread's column pair is two rows of C, so values go one at a time; the
  // 8 lanes of one column (lane / 4) write 8 adjacent elements.
  Value colBase = ir.add(op.getN0(), colInGroup);
  for (int64_t h = 0; h < frag.halves; ++h) {
    Value row = ir.add(ir.add(groupRow, rowInGroup), ir.c32(frag.halfRows * h));
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), [&] {
      for (int64_t j = 0; j < s.blockN() / frag.blockColumns; ++j)
        for (int64_t e = 0; e < frag.pair; ++e) {
          Value col = ir.add(colBase, ir.c32(frag.blockColumns * j + e));
          ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, col, op.getN()), [&] {
            Value addr = cAddress(col, row);
            // The fused math in the kernel's coordinates: its bias runs
            // along the swapped orientation (swapAbView); aux, a C-shaped
            // tensor, is refused with swap_ab (Backend.cpp).
            LLVM::StoreOp::create(
                b, loc, finish(scaled(valueIndex(j, h, e)), [&] { return addr; }, row, col),
                addr, /*alignment=*/cb);
          });
        }
    });
  }
}

void Epilogue::storePair(Value row, Value col, int64_t first, const ColumnsLeft *edge) {
  assert(frag.pair == 2 && "stores go in pairs of adjacent columns");
  Value v0 = scaled(first), v1 = scaled(first + 1);
  storeTwoColumns(cAddress(row, col), row, col, v0, v1, /*scalesApplied=*/false, edge);
}

void Epilogue::storeMmaSyncFragments() {
  // Warp w holds the (warpRows / 16) x (warpCols / 8) mma.sync fragments
  // of its block of the warp grid (Sm80.h); a fragment's values lie as
  // Isa.h's kMmaSyncAccumulator says, value pairs in adjacent columns.
  const AccumulatorLayout &frag = kMmaSyncAccumulator;
  MmaSyncWarpGrid grid = *mmaSyncWarpGrid(s);
  Value warpId = ir.divU(ir.threadId(), ir.c32(kWarpSize));
  Value laneRow = ir.divU(lane, ir.c32(frag.lanesPerRow));
  Value rowBase = ir.add(
      ir.add(op.getM0(), ir.mul(ir.divU(warpId, ir.c32(grid.warpsN)),
                                ir.c32(grid.warpRows))),
      laneRow);
  Value laneCol = ir.mul(ir.remU(lane, ir.c32(frag.lanesPerRow)), ir.c32(frag.pair));
  Value colBase = ir.add(
      ir.add(op.getN0(), ir.mul(ir.remU(warpId, ir.c32(grid.warpsN)),
                                ir.c32(grid.warpCols))),
      laneCol);
  int64_t perFragment = frag.valuesPerBlock();
  int64_t fragmentRows = grid.warpRows / grid.mFragments();
  for (int64_t mi = 0; mi < grid.mFragments(); ++mi) {
    for (int64_t h = 0; h < frag.halves; ++h) {
      int64_t inFragment = h * frag.pair;
      Value row = ir.add(rowBase, ir.c32(mi * fragmentRows + frag.valueRow(inFragment)));
      ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), [&] {
        for (int64_t ni = 0; ni < grid.nFragments(); ++ni) {
          Value col = ir.add(colBase, ir.c32(ni * frag.blockColumns));
          storePair(row, col, (mi * grid.nFragments() + ni) * perFragment + inFragment);
        }
      });
    }
  }
}

MmaSyncStagedStore Epilogue::planMmaSyncStaged() {
  const AccumulatorLayout &frag = kMmaSyncAccumulator;
  MmaSyncStagedStore st{*mmaSyncWarpGrid(s), *mmaSyncStaging(s, op.getSchedule().getResources())};
  const MmaSyncWarpGrid &grid = st.grid;
  const MmaSyncStaging &staging = st.staging;
  int64_t pitch = staging.pitchBytes, chunkRows = staging.chunkRows;
  // The thread's index and ldc, read here through asm with side effects:
  // addresses derived from nvvm.read.ptx.sreg.tid.x or from ldc alone depend
  // on nothing in the tile loop, so LLVM's LICM would compute them before it
  // and keep them (64-bit addresses, ldc x each round's rows) live through
  // the mainloop: 16 bytes of spills in a100_tf32_128x128x32_w4 at 255
  // registers, 7 64-bit row offsets in a100_bf16_128x128x32's prologue.
  auto readHere = [&](StringRef text, ValueRange in) {
    return LLVM::InlineAsmOp::create(b, loc, ir.i32, in, text, in.empty() ? "=r" : "=r,r",
                                     /*has_side_effects=*/true, /*is_align_stack=*/false,
                                     LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                                     /*operand_attrs=*/nullptr)
        .getResult(0);
  };
  Value tid = readHere("mov.u32 $0, %tid.x;", {});
  Value ldcHere = ir.zext64(readHere("mov.u32 $0, $1;", op.getLdc()));
  Value lane = ir.remU(tid, ir.c32(kWarpSize));
  Value warpId = ir.divU(tid, ir.c32(kWarpSize));
  Value area = ir.sharedAt(op.getStaging(), ir.mul(warpId, ir.c32(staging.warpBytes())));
  Value tileRow = ir.add(op.getM0(), ir.mul(ir.divU(warpId, ir.c32(grid.warpsN)),
                                            ir.c32(grid.warpRows)));
  Value tileCol = ir.add(op.getN0(), ir.mul(ir.remU(warpId, ir.c32(grid.warpsN)),
                                            ir.c32(grid.warpCols)));
  constexpr int64_t f32Bytes = isa::kRegisterBytes;
  Value laneColBytes =
      ir.mul(ir.remU(lane, ir.c32(frag.lanesPerRow)), ir.c32(frag.pair * f32Bytes));
  Value writeAt = ir.sharedAt(
      area, ir.add(ir.mul(ir.divU(lane, ir.c32(frag.lanesPerRow)), ir.c32(pitch)), laneColBytes));
  // The 16-byte units of a chunk, lane + 32 i: a lane's unit column stays
  // the same from round to round when a row has at most 32 units (its row
  // moves on by 32 / rowUnits), its row when a row has more.
  int64_t unitValues = isa::kCpAsyncBytes / cb;
  int64_t rowUnits = grid.warpCols / unitValues;
  assert((rowUnits % 2 == 0) && (kWarpSize % rowUnits == 0 || rowUnits % kWarpSize == 0) &&
         "a chunk's units are whole rounds of the warp");
  int64_t rounds = chunkRows * rowUnits / kWarpSize;
  // Round 0 of chunk 0: lane l reads unit l % rowUnits of row l / rowUnits
  // (a row of more than 32 units: unit l of row 0).
  Value rowInChunk0 = rowUnits <= kWarpSize ? ir.divU(lane, ir.c32(rowUnits)) : ir.c32(0);
  Value unit0 = rowUnits <= kWarpSize ? ir.remU(lane, ir.c32(rowUnits)) : lane;
  Value unit0Bytes = ir.mul(unit0, ir.c32(unitValues * f32Bytes));
  Value readAt = ir.sharedAt(area, ir.add(ir.mul(rowInChunk0, ir.c32(pitch)), unit0Bytes));
  Value row0 = ir.add(tileRow, rowInChunk0);
  Value col0 = ir.add(tileCol, ir.mul(unit0, ir.c32(unitValues)));
  Value col064 = ir.zext64(col0);
  Value addr0 = LLVM::GEPOp::create(
      b, loc, ir.globalPtr, outType, op.getC(),
      ValueRange{arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, ir.zext64(row0), ldcHere), col064)});
  st.unitValues = unitValues;
  st.rowUnits = rowUnits;
  st.rounds = rounds;
  st.ldcHere = ldcHere;
  st.writeAt = writeAt;
  st.readAt = readAt;
  st.row0 = row0;
  st.col0 = col0;
  st.addr0 = addr0;
  return st;
}

void Epilogue::stageMmaSyncChunk(const MmaSyncStagedStore &st, int64_t chunk) {
  const AccumulatorLayout &frag = kMmaSyncAccumulator;
  const MmaSyncWarpGrid &grid = st.grid;
  int64_t pitch = st.staging.pitchBytes;
  constexpr int64_t f32Bytes = isa::kRegisterBytes;
  auto pairType = VectorType::get({frag.pair}, ir.f32);
  int64_t slabsPerChunk = st.staging.chunkRows / frag.halfRows;
  int64_t perFragment = frag.valuesPerBlock();
  Value writeAt = st.writeAt;
  // Rows 8 slab .. 8 slab + 7 of the warp tile are fragment slab / 2's
  // half slab % 2.
  for (int64_t k = 0; k < slabsPerChunk; ++k) {
    int64_t slab = chunk * slabsPerChunk + k;
    int64_t mi = slab / frag.halves, h = slab % frag.halves;
    for (int64_t ni = 0; ni < grid.nFragments(); ++ni) {
      int64_t first = (mi * grid.nFragments() + ni) * perFragment + h * frag.pair;
      Value v = LLVM::UndefOp::create(b, loc, pairType);
      for (int64_t e = 0; e < frag.pair; ++e)
        v = LLVM::InsertElementOp::create(
            b, loc, v,
            LLVM::ExtractValueOp::create(b, loc, op.getAcc(), ArrayRef<int64_t>{first + e}),
            ir.c32(e));
      Value at = ir.sharedAt(writeAt, k * frag.halfRows * pitch +
                                          ni * frag.blockColumns * f32Bytes);
      LLVM::StoreOp::create(b, loc, v, at, /*alignment=*/frag.pair * f32Bytes);
    }
  }
}

void Epilogue::storeMmaSyncChunk(const MmaSyncStagedStore &st, int64_t chunk) {
  int64_t pitch = st.staging.pitchBytes, chunkRows = st.staging.chunkRows;
  int64_t unitValues = st.unitValues, rounds = st.rounds;
  constexpr int64_t f32Bytes = isa::kRegisterBytes;
  Type f32x4 = VectorType::get({4}, ir.f32);
  Value readAt = st.readAt, row0 = st.row0, col0 = st.col0, addr0 = st.addr0;
  Value ldcHere = st.ldcHere;
  // Every round's shared loads first, so that their latencies overlap:
  // volatile, which LLVM does not sink into the stores' branches below.
  SmallVector<SmallVector<Value>> values(rounds);
  for (int64_t i = 0; i < rounds; ++i) {
    Value from =
        ir.sharedAt(readAt, st.rowStep(i) * pitch + st.unitStep(i) * unitValues * f32Bytes);
    for (int64_t q = 0; q < unitValues / 4; ++q) {
      Value v = LLVM::LoadOp::create(b, loc, f32x4, ir.sharedAt(from, q * 4 * f32Bytes),
                                     /*alignment=*/isa::kCpAsyncBytes, /*isVolatile=*/true);
      for (int64_t e = 0; e < 4; ++e)
        values[i].push_back(LLVM::ExtractElementOp::create(b, loc, v, ir.c32(e)));
    }
  }
  for (int64_t i = 0; i < rounds; ++i) {
    SmallVector<Value> x;
    for (Value xe : values[i])
      x.push_back(alpha ? arith::MulFOp::create(b, loc, xe, alpha).getResult() : xe);
    int64_t rowsDown = chunk * chunkRows + st.rowStep(i);
    Value row = ir.add(row0, ir.c32(rowsDown));
    Value col = ir.add(col0, ir.c32(st.unitStep(i) * unitValues));
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), [&] {
      Value offset = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, ldcHere, ir.c64(rowsDown)),
          ir.c64(st.unitStep(i) * unitValues));
      Value addr = LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, addr0,
                                       ValueRange{offset});
      auto whole = scf::IfOp::create(
          b, loc,
          ir.cmp(arith::CmpIPredicate::ule, ir.add(col, ir.c32(unitValues)), op.getN()),
          /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&whole.getThenRegion().front());
      storeUnit(addr, x, row, col);
      // The right edge of N: the unit's values inside N, one at a time.
      b.setInsertionPointToStart(&whole.getElseRegion().front());
      for (int64_t e = 0; e < unitValues; ++e) {
        Value colE = ir.add(col, ir.c32(e));
        ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, colE, op.getN()), [&] {
          Value at = LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, addr,
                                         ValueRange{ir.c32(e)});
          LLVM::StoreOp::create(b, loc, finish(x[e], [&] { return at; }, row, colE), at,
                                /*alignment=*/cb);
        });
      }
    });
  }
}

void Epilogue::storeMmaSyncStaged() {
  // Warp w's area holds chunkRows rows of its warp tile, pitchBytes apart:
  // lane l writes each fragment's value pairs at row 8 h + l / 4 of the
  // chunk, column 8 ni + 2 (l % 4) (kMmaSyncAccumulator, 8-byte stores,
  // free of bank conflicts by the pitch), the warp syncs, and each lane
  // reads back whole 16-byte units of C's row (16 / bytes(C) values, one
  // or two 16-byte shared loads) and stores them with one 16-byte global
  // store; at the right edge of N a unit's values inside N go one by one.
  // The runtime checks that C and ldc x bytes(C) are 16-byte aligned
  // (docs/runtime.md), so every unit is. The warp syncs again before the
  // next chunk overwrites its area.
  // The fused math (bias, aux, activation) runs per value in storeUnit and
  // at N's edge in finish(); sm_80 has no FP8, so no output scale.
  assert(!outScale && !fp8Out && "no FP8 output on sm_80");
  MmaSyncStagedStore st = planMmaSyncStaged();
  auto syncWarp = [&] { NVVM::SyncWarpOp::create(b, loc, ir.c32(-1)); };
  for (int64_t chunk = 0; chunk < st.grid.warpRows / st.staging.chunkRows; ++chunk) {
    if (chunk > 0)
      syncWarp();
    stageMmaSyncChunk(st, chunk);
    syncWarp();
    storeMmaSyncChunk(st, chunk);
  }
}

void Epilogue::storeUnit(Value addr, ArrayRef<Value> x, Value row, Value col) {
  int64_t count = x.size();
  auto unitType = VectorType::get({count}, outType);
  SmallVector<Value> out(x.begin(), x.end());
  if (Value beta = op.getBeta()) {
    // C is read (one 16-byte load) only when beta != 0.
    auto ifRead = scf::IfOp::create(b, loc, SmallVector<Type>(count, ir.f32), readC,
                                    /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifRead.getThenRegion().front());
    Value old = LLVM::LoadOp::create(b, loc, unitType, addr, /*alignment=*/isa::kCpAsyncBytes);
    SmallVector<Value> sum;
    for (int64_t e = 0; e < count; ++e) {
      Value c = LLVM::ExtractElementOp::create(b, loc, old, ir.c32(e));
      if (outType != ir.f32)
        c = arith::ExtFOp::create(b, loc, ir.f32, c);
      sum.push_back(arith::AddFOp::create(b, loc, x[e], arith::MulFOp::create(b, loc, c, beta)));
    }
    scf::YieldOp::create(b, loc, sum);
    b.setInsertionPointToStart(&ifRead.getElseRegion().front());
    scf::YieldOp::create(b, loc, x);
    out.assign(ifRead.getResults().begin(), ifRead.getResults().end());
  }
  // The unit lies inside M x N: apply() needs no `inside` for its aux
  // store, and the bias needs no clamp: a per-column bias is the run at
  // col (one address, constant offsets), a per-row one a load a unit.
  if (EpilogueMath::fused(s)) {
    SmallVector<Value> colBias = math.colBiasRun(col, count);
    Value rowBias = math.rowBiasAt(row);
    for (int64_t e = 0; e < count; ++e)
      out[e] = math.apply(out[e], row, e == 0 ? col : ir.add(col, ir.c32(e)), Value(),
                          /*scalesApplied=*/false, colBias.empty() ? rowBias : colBias[e]);
  }
  Value v = LLVM::UndefOp::create(b, loc, unitType);
  for (int64_t e = 0; e < count; ++e) {
    Value y = outType == ir.f32 ? out[e] : arith::TruncFOp::create(b, loc, outType, out[e]);
    v = LLVM::InsertElementOp::create(b, loc, v, y, ir.c32(e));
  }
  LLVM::StoreOp::create(b, loc, v, addr, /*alignment=*/isa::kCpAsyncBytes);
}

void Epilogue::storeFromTensorMemory() {
  // tcgen05.ld .32x32b gives lane l of warp w (of the epilogue warpgroup)
  // row 32 w + l, columns c .. c + 31 of the chunk as values 0 .. 31
  // (Isa.h, kTcgen05Ld32x32bAccumulator). Each thread stores its row's
  // columns two at a time, as the wgmma epilogue does.
  //
  // FP8 scale vectors: a thread's row is one row of A, so its scale_a
  // joins alpha once (rowFactorAt); each value's column scale is loaded
  // with the column clamped to N (this path takes the tiles over N's edge),
  // the same address in every lane: one transaction a warp. Each value: 2
  // multiplies.
  int64_t chunkCols = std::min<int64_t>(isa::kTmemLoadColumns, s.blockN());
  auto vecType = VectorType::get({chunkCols}, ir.f32);
  Value row = ir.add(op.getM0(), ir.add(ir.mul(warp, ir.c32(frag.warpRows)), lane));
  Value rowInside = ir.cmp(arith::CmpIPredicate::ult, row, op.getM());
  bool scalesAhead = math.hasScaleVectors();
  Value factor = scalesAhead ? rowFactorAt(row) : alpha;
  forEachChunk(s.blockN() / chunkCols, [&](const Chunk &chunk) {
    // Every lane loads (the load is collective over the warp); only rows
    // inside M store.
    Value values = AccLoadOp::create(b, loc, vecType,
                                     ir.add(op.getAcc(), chunk.at(ir, chunkCols)), chunkCols);
    auto value = [&](int64_t i) {
      Value v = LLVM::ExtractElementOp::create(b, loc, values, ir.c32(i));
      if (factor)
        v = arith::MulFOp::create(b, loc, v, factor);
      if (Value scale =
              math.colScaleAt(ir.add(op.getN0(), chunk.at(ir, chunkCols, frag.valueColumn(i)))))
        v = arith::MulFOp::create(b, loc, v, scale);
      return v;
    };
    ir.ifThen(rowInside, [&] {
      for (int64_t i = 0; i < chunkCols; i += 2) {
        Value col = ir.add(op.getN0(), chunk.at(ir, chunkCols, frag.valueColumn(i)));
        Value addr = cAddress(row, col);
        Value v0 = value(i), v1 = value(i + 1);
        storeTwoColumns(addr, row, col, v0, v1, scalesAhead);
      }
    });
  });
}

TmemTmaStore Epilogue::planTmemTmaStore() {
  // A chunk is the epilogue warpgroup's 128 rows (the C box, abi.c) by one
  // 128-byte swizzle span of columns. Thread t of the warpgroup holds row t
  // (tcgen05.ld .32x32b): it reads the chunk's columns, writes its row's
  // 16-byte units at unit u ^ (t % 8) (the 128-byte swizzle), and, after
  // the fence and the warpgroup's named barrier, thread 0 hands the chunk
  // to one TMA store. The ring of chunk buffers works as on sm_90a
  // (storeThroughTma): a buffer is waited for when the ring comes back.
  TmemTmaStore t;
  const TensorMapPlan &plan = op.getSchedule().getAbi().c;
  t.chunkCols = plan.box[0];
  t.chunkBytes = plan.partBytes;
  t.rowBytes = plan.swizzleBytes;
  t.unitValues = isa::kSwizzleUnitBytes / cb;
  const CtaResources &res = op.getSchedule().getResources();
  t.buffers = res.epilogueBuffers;
  t.chunks = res.epilogueChunks;
  t.leader = ir.isWarpgroupLeader();
  t.groupBarrier = ir.add(ir.warpgroupId(), ir.c32(kEpilogueBarrier));
  t.rowInChunk = ir.add(ir.mul(warp, ir.c32(frag.warpRows)), lane);
  t.row = ir.add(op.getM0(), t.rowInChunk);
  t.rowPhase = ir.remU(t.rowInChunk, ir.c32(isa::kSwizzleAtomRows));
  if (op.getBeta())
    t.rowStart = cAddress(t.row, op.getN0());
  t.unitType = VectorType::get({t.unitValues}, outType);
  // FP8 scale vectors, as storeFromTensorMemory: the row's scale joins
  // alpha once. A chunk's column scales are the same for every lane: they
  // are spread over the warp, lane L loading pair L of the chunk (L mod
  // the chunk's pairs where it has fewer than 32, and L + 32 .. where it
  // has more; one 8-byte load each, no clamp: a tile here lies inside N,
  // storeTmaOrDirect) ahead of the chunk's tcgen05.ld, drain and barrier,
  // and each value takes its column's from the lane that holds it
  // (shfl.sync.idx). Every lane loading the whole chunk instead let ptxas
  // hoist all of a tile's loads (read-only, so free to move) ahead of the
  // first chunk: 253 registers on the 128x256 tile where this takes 150.
  t.scalesAhead = math.hasScaleVectors();
  t.factor = t.scalesAhead ? rowFactorAt(t.row) : alpha;
  int64_t chunkPairs = t.chunkCols / 2;
  t.pairLanes = std::min<int64_t>(chunkPairs, kWarpSize);
  for (int64_t p = 0; p < chunkPairs; p += t.pairLanes)
    t.pairOffsets.push_back(2 * p);
  t.lanePair = t.pairLanes == kWarpSize ? lane : ir.remU(lane, ir.c32(t.pairLanes));
  // A bias the same way: a row's once a tile; a chunk's columns spread over
  // the warp (lane L loads columns L, L + 32, .., clamped to N: a tile here
  // may cross N's edge, which TMA clips) and each value takes its column's
  // by shfl.sync.idx: one instruction a value where a clamped address and
  // load a value took four.
  t.rowBias = math.rowBiasAt(t.row);
  return t;
}

void Epilogue::storeTensorMemoryThroughTma() {
  TmemTmaStore t = planTmemTmaStore();
  forEachChunk(t.chunks, [&](const Chunk &chunk) { storeTmemChunk(t, chunk); });
}

void Epilogue::storeTmemChunk(const TmemTmaStore &t, const Chunk &chunk) {
  auto syncGroup = [&] {
    NamedBarrierOp::create(b, loc, t.groupBarrier, ir.c32(kWarpgroupSize), /*arrive=*/false);
  };
  Value buffer = ir.sharedAt(op.getBuffer(),
                             chunk.index ? ir.mul(ir.remU(chunk.index, ir.c32(t.buffers)),
                                                  ir.c32(t.chunkBytes))
                                         : ir.c32((chunk.constant % t.buffers) * t.chunkBytes));
  TmemChunkValues v;
  v.spread = math.colScalePairsAt(
      ir.add(op.getN0(), ir.add(chunk.at(ir, t.chunkCols), ir.mul(t.lanePair, ir.c32(2)))),
      t.pairOffsets);
  if (math.hasColBias())
    for (int64_t first = 0; first < t.chunkCols; first += kWarpSize)
      v.spreadBias.push_back(
          math.colBiasAt(ir.add(op.getN0(), ir.add(chunk.at(ir, t.chunkCols, first), lane))));
  v.values = AccLoadOp::create(b, loc, VectorType::get({t.chunkCols}, ir.f32),
                               ir.add(op.getAcc(), chunk.at(ir, t.chunkCols)), t.chunkCols);
  // The stores that last read this buffer (`buffers` chunks ago) are done.
  ir.ifThen(t.leader, [&] {
    StoreDrainOp::create(b, loc, /*pending=*/t.buffers - 1, /*read=*/true);
  });
  syncGroup();
  for (int64_t unit = 0; unit < t.rowBytes / isa::kSwizzleUnitBytes; ++unit)
    writeTmemUnit(t, chunk, v, buffer, unit);
  SharedFenceOp::create(b, loc);
  syncGroup();
  ir.ifThen(t.leader, [&] {
    StoreTileOp::create(b, loc, op.getTmapC(), buffer, ir.add(op.getN0(), chunk.at(ir, t.chunkCols)),
                        op.getM0());
  });
}

void Epilogue::writeTmemUnit(const TmemTmaStore &t, const Chunk &chunk, const TmemChunkValues &v,
                             Value buffer, int64_t unit) {
  auto colScale = [&](int64_t i) {
    int64_t pair = i / 2;
    return ir.shuffleIdx(v.spread[2 * (pair / t.pairLanes) + i % 2], ir.c32(pair % t.pairLanes));
  };
  auto biasOf = [&](int64_t i) {
    if (!v.spreadBias.empty())
      return ir.shuffleIdx(v.spreadBias[i / kWarpSize], ir.c32(i % kWarpSize));
    return t.rowBias;
  };
  SmallVector<Value> xs;
  for (int64_t e = 0; e < t.unitValues; ++e) {
    int64_t i = unit * t.unitValues + e;
    Value x = LLVM::ExtractElementOp::create(b, loc, v.values, ir.c32(frag.valueColumn(i)));
    if (t.factor)
      x = arith::MulFOp::create(b, loc, x, t.factor);
    if (!v.spread.empty())
      x = arith::MulFOp::create(b, loc, x, colScale(i));
    Value colInTile = chunk.at(ir, t.chunkCols, i);
    Value inside, col;
    if (op.getBeta() || math.touchesMemory()) {
      col = ir.add(op.getN0(), colInTile);
      Value colInside = ir.cmp(arith::CmpIPredicate::ult, col, op.getN());
      inside = ir.andI(ir.cmp(arith::CmpIPredicate::ult, t.row, op.getM()), colInside);
    }
    x = finish(x,
               [&] {
                 return LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, t.rowStart,
                                            ValueRange{colInTile});
               },
               t.row, col, inside, t.scalesAhead, biasOf(i));
    xs.push_back(x);
  }
  Value packed = packUnit(xs, t.unitType);
  Value swizzled = ir.mul(arith::XOrIOp::create(b, loc, ir.c32(unit), t.rowPhase),
                          ir.c32(isa::kSwizzleUnitBytes));
  Value at = ir.sharedAt(buffer, ir.add(ir.mul(t.rowInChunk, ir.c32(t.rowBytes)), swizzled));
  LLVM::StoreOp::create(b, loc, packed, at, /*alignment=*/isa::kSwizzleUnitBytes);
}

void Epilogue::storeTmaOrDirect() {
  // TMA writes the last 16-byte unit of a row whole, even where N ends
  // inside it: a tile over such an edge would write C's padding between N
  // and ldc, which may belong to another tensor. Those tiles (only the last
  // column of tiles, only when N x bytes is not a multiple of 16) store
  // from registers.
  //
  // A kernel with per-column scales (sm_90a since fp8s, sm_100a since
  // session 24) sends every tile over N's edge there: the TMA path then
  // sees only tiles inside N, whose
  // column scales load from one address and constant offsets, no clamp
  // (colScalePairsAt). Only the last column of tiles, and only
  // when N is not a multiple of the tile, pays the register stores.
  Value n = op.getN();
  bool tmem = isaFor(s.arch).hasTmem;
  Value overEdge = ir.cmp(arith::CmpIPredicate::ugt, ir.add(op.getN0(), ir.c32(s.blockN())), n);
  colTilesInsideN = math.hasColScale();
  Value ragged =
      colTilesInsideN
          ? overEdge
          : ir.andI(ir.cmp(arith::CmpIPredicate::ne,
                           ir.remU(n, ir.c32(isa::kTmaGlobalAlignBytes / cb)), ir.c32(0)),
                    overEdge);
  auto edge = scf::IfOp::create(b, loc, ragged, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&edge.getThenRegion().front());
  tmem ? storeFromTensorMemory() : storeDirect();
  b.setInsertionPointToStart(&edge.getElseRegion().front());
  tmem ? storeTensorMemoryThroughTma() : storeThroughTma();
}

TmaStore Epilogue::planTmaStore() {
  TmaStore t;
  const KernelAbi &abi = op.getSchedule().getAbi();
  const TensorMapPlan &plan = abi.c;
  t.chunkCols = plan.box[0];
  t.chunkBytes = plan.partBytes;
  t.rowBytes = plan.swizzleBytes;
  assert(t.chunkBytes == plan.box[1] * t.rowBytes && "a chunk is whole swizzle rows");
  t.leader = ir.isWarpgroupLeader();
  // A named barrier per warpgroup.
  t.groupBarrier = ir.add(ir.warpgroupId(), ir.c32(kEpilogueBarrier));
  t.groupThreads = ir.c32(kWarpgroupSize);
  // 128-byte swizzle: 16-byte unit u of row r lies at unit u ^ (r % 8). A
  // thread's rows are rowInGroup and rowInGroup + 8, both = lane / 4 mod 8.
  static_assert(kWgmmaAccumulator.halfRows == isa::kSwizzleAtomRows &&
                    kWgmmaAccumulator.warpRows % isa::kSwizzleAtomRows == 0,
                "a thread's rows share one swizzle phase, lane / lanesPerRow");
  t.rowPhase = ir.divU(lane, ir.c32(frag.lanesPerRow));
  const CtaResources &res = op.getSchedule().getResources();
  t.buffers = res.epilogueBuffers;
  t.chunks = res.epilogueChunks;
  // The units stored are (chunk, row block) pairs, chunk by chunk: with two
  // row blocks (a pingpong warpgroup's 128-row tile in one epilogue) the
  // blocks of a chunk follow each other, so they share its column scales.
  t.blocks = rowBlocks();
  t.units = t.chunks * t.blocks;
  // Units go in rounds: a ring of the whole tile row takes them in one
  // (one wait, two barriers and one fence per tile), a smaller ring one at
  // a time. (With two row blocks a round of `chunks` units is one chunk of
  // both blocks where chunks is 2.)
  t.round = t.buffers == t.chunks ? t.chunks : 1;
  // Scale vectors: each thread loads its rows' scales once per tile and its
  // columns' once per chunk (2 x chunk columns / 8, for every row block),
  // before the wait for the round's buffers, so their latency overlaps the
  // wait and the barrier rather than stalling the first stores after it.
  // (All of a tile's 64 columns at once would not fit beside the
  // accumulators in the kernel's 168 registers.) Each value is multiplied
  // by (alpha x scale_a[row]) x scale_b[col]: 2 multiplies, not 3.
  t.scalesAhead = math.hasScaleVectors();
  if (t.scalesAhead)
    for (int64_t block = 0; block < t.blocks; ++block)
      for (int64_t h = 0; h < frag.halves; ++h) {
        Value row = ir.add(ir.add(blockRow(block), rowInGroup), ir.c32(frag.halfRows * h));
        t.rowFactor.push_back(rowFactorAt(row));
      }
  t.blocksPerChunk = t.chunkCols / frag.blockColumns;
  // The column scales of chunks first .. end - 1 (held), indexed by the
  // value's (j - first block, e): one 8-byte load a pair at a constant
  // offset, no clamp: with a column scale, a tile here lies inside N
  // (storeTmaOrDirect). A cooperative kernel that does not spread them
  // (below) also holds the next round's (next), loaded before this round's wait and barrier so that their
  // latency runs under this round's stores rather than ahead of the next
  // round's first store. Measured (session 15, lead round l4, two
  // processes, same cubins otherwise): +1.7% on the per-row/column 128x256
  // stream_k kernel at cube4096, +0.0..+0.7% on the 8192 cubes for it and
  // the persistent 128x256; the pingpong 128x128, whose epilogue runs
  // beside the other warpgroup's mainloop, lost 0.1-0.7%, so it loads each
  // round's scales in the round.
  assert((!math.hasColScale() || colTilesInsideN) && "column scales inside N");
  t.prefetchScales = s.kernelSchedule != KernelSchedule::WarpSpecializedPingpong;
  // A cooperative or warp_specialized kernel with a 16-bit C (64-column
  // chunks: a lane's pair in each) and more than one round spreads the
  // tile's column scales over the warp instead (session 20): lane L loads
  // columns 2L, 2L + 1 of every chunk, one 8-byte load a chunk, all before
  // the first round (2 x chunks values: 8 registers at BLOCK_N = 256); a
  // round takes the pairs its thread needs, column 8j + 2(l % 4) of the
  // chunk from lane 4j + l % 4, by shfl.sync.idx. Loading one round ahead
  // (held and next, 32 registers) left part of an L2 round trip before each
  // round's first multiply: a round is shorter than the latency. Measured
  // (bench/lead20 rounds p2-p3, five processes, against the same kernels
  // with held / next): rc_sk +1.0..+1.5% on cube4096 and +0.2..+0.4% on
  // cube8192, the persistent 128x256 +0.3..+1.1% / 0.0%. Not built in: the
  // spread loads placed before the accumulator's last wait (bench/lead20/
  // early.patch: rc_sk's active cycles -1.8% under ncu, but 0.5-2% slower
  // in gemmc-bench at a lower clock); the spread under pingpong, whose
  // epilogue runs beside the other warpgroup's mainloop (0.996-1.003,
  // spread_pp.patch); a one-round epilogue (BLOCK_N = 64: -0.1..-1.3%).
  // (Lane L holds chunk columns pair x L; a block's columns are its quad's,
  // so block jj's pair of lane l is at lane (blockColumns / pair) jj + l % 4.)
  t.spreadScales = t.prefetchScales && math.hasColScale() && t.units > t.round &&
                   t.chunkCols == kWarpSize * frag.pair &&
                   frag.blockColumns == frag.lanesPerRow * frag.pair;
  if (t.spreadScales) {
    SmallVector<int64_t> offsets;
    for (int64_t chunk = 0; chunk < t.chunks; ++chunk)
      offsets.push_back(chunk * t.chunkCols);
    Value laneCol = ir.mul(lane, ir.c32(frag.pair));
    t.spread = math.colScalePairsAt(ir.add(op.getN0(), laneCol), offsets);
    t.quad = ir.remU(lane, ir.c32(frag.lanesPerRow));
  }
  // A per-column kernel with a 16-bit C (fp8s): the unit's values go to
  // shared memory with stmatrix.x4, four 8x8 matrices of 16-bit pairs a
  // warp, whose per-thread layout is the accumulator fragment's: matrices
  // (jj, h = 0), (jj, h = 1), (jj + 1, 0), (jj + 1, 1) of two 8-column
  // blocks; lanes 8q..8q+7 give the addresses of matrix q's rows, row r of
  // block u at 16-byte unit u ^ (r % 8) of its 128-byte swizzled row. 4
  // instructions a warp and unit instead of 16 4-byte st.shared (f54f58b,
  // backed out for the bf16 cooperative kernel, where it gained nothing).
  // Pingpong only, where the epilogue runs beside the other warpgroup's
  // mainloop: measured (fp8s round 1, H200, one process, over the same
  // kernel with st.shared) +0.1-0.7% on the per-row/column 128x128 pp, but
  // -0.9-0% on the 128x256 cooperative stream_k kernel (rc_sk), so a
  // cooperative kernel keeps the 4-byte st.shared.
  t.useStmatrix = colTilesInsideN &&
                  s.kernelSchedule == KernelSchedule::WarpSpecializedPingpong && cb == 2 &&
                  frag.halves == 2 && frag.blockColumns == isa::kSwizzleAtomRows &&
                  (t.chunkCols / frag.blockColumns) % 2 == 0;
  return t;
}

HeldScales Epilogue::shuffledColScales(const TmaStore &t, int64_t first, int64_t end) {
  HeldScales h{{}, first, end};
  for (int64_t chunk = first; chunk < end; ++chunk)
    for (int64_t jj = 0; jj < t.blocksPerChunk; ++jj) {
      Value from = ir.add(t.quad, ir.c32(frag.lanesPerRow * jj));
      for (int64_t e = 0; e < frag.pair; ++e)
        h.values.push_back(ir.shuffleIdx(t.spread[chunk * frag.pair + e], from));
    }
  return h;
}

HeldScales Epilogue::loadColScales(const TmaStore &t, int64_t first, int64_t end) {
  SmallVector<int64_t> offsets;
  for (int64_t j = first * t.blocksPerChunk; j < end * t.blocksPerChunk; ++j)
    offsets.push_back(frag.blockColumns * j);
  return HeldScales{math.colScalePairsAt(ir.add(op.getN0(), colInGroup), offsets), first, end};
}

void Epilogue::takeRoundScales(TmaStore &t, int64_t first) {
  // The round's chunks; a round that starts inside a chunk's row blocks
  // has its scales already.
  auto [firstChunk, endChunk] = t.roundChunks(first);
  if (t.spreadScales && !t.held.covers(firstChunk, endChunk))
    t.held = shuffledColScales(t, firstChunk, endChunk);
  if (t.scalesAhead && !t.held.covers(firstChunk, endChunk))
    t.held = t.next.covers(firstChunk, endChunk) ? t.next
                                                 : loadColScales(t, firstChunk, endChunk);
  if (t.scalesAhead && t.prefetchScales && !t.spreadScales && first + t.round < t.units) {
    auto [nextFirst, nextEnd] = t.roundChunks(first + t.round);
    if (!t.held.covers(nextFirst, nextEnd))
      t.next = loadColScales(t, nextFirst, nextEnd);
  }
}

Value Epilogue::scaledAhead(const TmaStore &t, int64_t block, int64_t j, int64_t h, int64_t e) {
  Value v = LLVM::ExtractValueOp::create(
      b, loc, op.getAcc(), ArrayRef<int64_t>{block * blockValues() + valueIndex(j, h, e)});
  if (Value factor = t.rowFactor[block * frag.halves + h])
    v = arith::MulFOp::create(b, loc, v, factor);
  if (!t.held.values.empty())
    v = arith::MulFOp::create(b, loc, v,
                              t.held.values[(j - t.held.first * t.blocksPerChunk) * frag.pair + e]);
  return v;
}

std::array<Value, 2> Epilogue::finishedPair(const TmaStore &t, int64_t block, int64_t j,
                                            int64_t h, Value row, Value col, Value rowStart) {
  assert(frag.pair == 2 && "stores go in pairs of adjacent columns");
  std::array<Value, 2> v;
  for (int64_t e = 0; e < 2; ++e) {
    Value colE = ir.add(col, ir.c32(e));
    Value inside;
    if (op.getBeta() || math.touchesMemory()) {
      Value colInside = ir.cmp(arith::CmpIPredicate::ult, colE, op.getN());
      inside = ir.andI(ir.cmp(arith::CmpIPredicate::ult, row, op.getM()), colInside);
    }
    v[e] = finish(t.scalesAhead ? scaledAhead(t, block, j, h, e)
                                : scaled(block * blockValues() + valueIndex(j, h, e)),
                  [&] {
                    return LLVM::GEPOp::create(b, loc, ir.globalPtr, outType, rowStart,
                                               ValueRange{ir.sub(colE, op.getN0())});
                  },
                  row, colE, inside, t.scalesAhead);
  }
  return v;
}

void Epilogue::writeUnitStmatrix(const TmaStore &t, int64_t chunk, int64_t block, Value buffer) {
  int64_t chunkCols = t.chunkCols;
  Value q = ir.divU(lane, ir.c32(8)), r8 = ir.remU(lane, ir.c32(8));
  Value warpRow = ir.mul(warp, ir.c32(frag.warpRows));
  Value halfRow = ir.mul(ir.remU(q, ir.c32(2)), ir.c32(frag.halfRows));
  Value matrixRow = ir.add(ir.add(warpRow, halfRow), r8);
  Value rowAt = ir.mul(matrixRow, ir.c32(t.rowBytes));
  Value unitOffset = ir.divU(q, ir.c32(2));
  // Row h of the thread's fragment in the block (rowInGroup + 8h) and, with
  // beta, its 64-bit start in C.
  auto rowOf = [&](int64_t h) {
    Value first = blockRow(block);
    return ir.add(first, ir.add(rowInGroup, ir.c32(frag.halfRows * h)));
  };
  Value rowStart[2];
  for (int64_t h = 0; h < frag.halves; ++h)
    if (op.getBeta())
      rowStart[h] = cAddress(rowOf(h), op.getN0());
  for (int64_t jj = 0; jj < chunkCols / frag.blockColumns; jj += 2) {
    SmallVector<Value, 4> regs;
    for (int64_t dj = 0; dj < 2; ++dj)
      for (int64_t h = 0; h < frag.halves; ++h) {
        int64_t j = chunk * chunkCols / frag.blockColumns + jj + dj;
        Value row = rowOf(h);
        Value chunkCol = ir.add(op.getN0(), ir.c32(chunk * chunkCols));
        Value col = ir.add(chunkCol, ir.add(colInGroup, ir.c32(frag.blockColumns * (jj + dj))));
        std::array<Value, 2> v = finishedPair(t, block, j, h, row, col, rowStart[h]);
        regs.push_back(LLVM::BitcastOp::create(b, loc, ir.i32, pair(v[0], v[1])));
      }
    Value unit = ir.add(unitOffset, ir.c32(jj));
    Value swizzled = ir.mul(arith::XOrIOp::create(b, loc, unit, r8),
                            ir.c32(isa::kSwizzleUnitBytes));
    NVVM::StMatrixOp::create(b, loc, ir.sharedAt(buffer, ir.add(rowAt, swizzled)), regs,
                             NVVM::MMALayout::row,
                             NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
                             NVVM::LdStMatrixEltType::B16);
  }
}

void Epilogue::writeUnit(const TmaStore &t, int64_t chunk, int64_t block, Value buffer) {
  if (t.useStmatrix)
    return writeUnitStmatrix(t, chunk, block, buffer);
  int64_t chunkCols = t.chunkCols;
  for (int64_t h = 0; h < frag.halves; ++h) {
    Value rowInChunk = ir.add(rowInGroup, ir.c32(frag.halfRows * h));
    Value row = ir.add(blockRow(block), rowInChunk);
    // With beta: one 64-bit row address, columns as 32-bit offsets (fewer
    // live 64-bit values while the reads of C are in flight).
    Value rowStart;
    if (op.getBeta())
      rowStart = cAddress(row, op.getN0());
    for (int64_t jj = 0; jj < chunkCols / frag.blockColumns; ++jj) {
      int64_t j = chunk * chunkCols / frag.blockColumns + jj;
      Value colInChunk = ir.add(colInGroup, ir.c32(frag.blockColumns * jj));
      Value col = ir.add(ir.add(op.getN0(), ir.c32(chunk * chunkCols)), colInChunk);
      std::array<Value, 2> v = finishedPair(t, block, j, h, row, col, rowStart);
      Value byte = ir.mul(colInChunk, ir.c32(cb));
      Value unitBytes = ir.c32(isa::kSwizzleUnitBytes);
      Value unit = ir.divU(byte, unitBytes);
      Value inUnit = ir.remU(byte, unitBytes);
      Value swizzled =
          ir.add(ir.mul(arith::XOrIOp::create(b, loc, unit, t.rowPhase), unitBytes), inUnit);
      Value at = ir.sharedAt(buffer,
                             ir.add(ir.mul(rowInChunk, ir.c32(t.rowBytes)), swizzled));
      LLVM::StoreOp::create(b, loc, pair(v[0], v[1]), at, /*alignment=*/2 * cb);
    }
  }
}

void Epilogue::storeThroughTma() {
  TmaStore t = planTmaStore();
  auto syncGroup = [&] {
    NamedBarrierOp::create(b, loc, t.groupBarrier, t.groupThreads, /*arrive=*/false);
  };
  auto bufferOf = [&](int64_t unit) {
    return ir.sharedAt(op.getBuffer(), (unit % t.buffers) * t.chunkBytes);
  };
  for (int64_t first = 0; first < t.units; first += t.round) {
    takeRoundScales(t, first);
    // The stores that last read these buffers (`buffers` units ago) must be
    // done with them; the ring's other buffers may still be in flight.
    ir.ifThen(t.leader, [&] {
      StoreDrainOp::create(b, loc, /*pending=*/t.buffers - t.round, /*read=*/true);
    });
    syncGroup();
    for (int64_t unit = first; unit < first + t.round; ++unit)
      writeUnit(t, unit / t.blocks, unit % t.blocks, bufferOf(unit));
    // Make the generic-proxy writes visible to TMA, then let one thread
    // store the units, one bulk group each.
    SharedFenceOp::create(b, loc);
    syncGroup();
    ir.ifThen(t.leader, [&] {
      for (int64_t unit = first; unit < first + t.round; ++unit) {
        Value x = ir.add(op.getN0(), ir.c32(unit / t.blocks * t.chunkCols));
        Value y = blockRow(unit % t.blocks);
        Value buffer = bufferOf(unit);
        StoreTileOp::create(b, loc, op.getTmapC(), buffer, x, y);
      }
    });
  }
}

struct GemmcEpiloguePass
    : mlir::gemmc::impl::GemmcEpilogueBase<GemmcEpiloguePass> {
  void runOnOperation() override {
    SmallVector<EpilogueOp> ops;
    getOperation().walk([&](EpilogueOp op) { ops.push_back(op); });
    for (EpilogueOp op : ops) {
      OpBuilder b(op);
      const KernelSpec &spec = op.getSchedule().getSpec();
      const KernelAbi &abi = op.getSchedule().getAbi();
      for (StringRef param : {"bias", "aux"})
        if (llvm::is_contained(abi.params, param.str()) &&
            !EpilogueMath::kernelParam(op, abi, param)) {
          op.emitOpError() << "reads the kernel parameter '" << param
                           << "', but its function does not have the kernel's "
                              "parameters (docs/abi.md; gemmc-tile builds them)";
          return signalPassFailure();
        }
      Epilogue epilogue(op, spec, b);
      // The accumulator fragments each target's MMA leaves (Isa.h).
      if (isaFor(spec.arch).mma.family == MmaFamily::MmaSync)
        op.getStaging() ? epilogue.storeMmaSyncStaged() : epilogue.storeMmaSyncFragments();
      else if (op.getTmapC())
        epilogue.storeTmaOrDirect();
      else if (isaFor(spec.arch).hasTmem)
        epilogue.storeFromTensorMemory();
      else if (spec.swapAb)
        epilogue.storeTransposed();
      else
        epilogue.storeDirect();
      op.erase();
    }
    if (failed(EpilogueMath::expandMath(getOperation())))
      return signalPassFailure();
  }
};
} // namespace
