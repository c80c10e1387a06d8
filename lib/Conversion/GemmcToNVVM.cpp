//===- GemmcToNVVM.cpp - gemmc kernels to sm_90a NVVM kernels ------------===//
//
// Builds, for each kernel function, the sm_90a kernel its schedule describes:
// TMA loads into a ring of swizzled shared-memory stages guarded by full and
// empty mbarriers, wgmma on those stages, and an epilogue that stores the
// accumulators straight from registers. The kernel is written with the
// llvm, nvvm, scf and arith dialects; scf/arith are lowered by the
// pipeline's later passes.
//
// Phases (one builder method each): tile mapping, shared-memory plan, TMA
// producer, wgmma mainloop, epilogue.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/Rules.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

#define DEBUG_TYPE "convert-gemmc-to-nvvm"

namespace mlir::gemmc {
#define GEN_PASS_DEF_CONVERTGEMMCTONVVM
#include "gemmc/Transforms/Passes.h.inc"
} // namespace mlir::gemmc

using namespace mlir;
using namespace mlir::gemmc;

namespace {

/// Address spaces of the NVPTX backend.
constexpr unsigned kGlobalSpace = 1;
constexpr unsigned kSharedSpace = 3;
constexpr unsigned kSharedClusterSpace = 7;
/// Bytes of a CUtensorMap, and its required alignment.
constexpr int64_t kTensorMapBytes = 128;
constexpr int64_t kTensorMapAlign = 64;
/// Rows of a swizzle atom: 8 rows of the 128-byte span.
constexpr int64_t kSwizzleAtomRows = 8;

/// Builds one kernel. Values are i32 unless named otherwise: every index in
/// a tile fits, and 32-bit arithmetic is what the SM does natively.
class HopperKernelBuilder {
public:
  HopperKernelBuilder(OpBuilder &b, Location loc, const KernelSpec &spec)
      : b(b), loc(loc), s(spec), res(computeResources(spec)),
        abi(describeKernelAbi(spec)) {
    MLIRContext *ctx = b.getContext();
    i1 = b.getI1Type();
    i16 = b.getI16Type();
    i32 = b.getI32Type();
    i64 = b.getI64Type();
    f32 = b.getF32Type();
    ptr = LLVM::LLVMPointerType::get(ctx);
    sharedPtr = LLVM::LLVMPointerType::get(ctx, kSharedSpace);
    globalPtr = LLVM::LLVMPointerType::get(ctx, kGlobalSpace);
    sharedClusterPtr = LLVM::LLVMPointerType::get(ctx, kSharedClusterSpace);
    numWarpgroups = res.consumerWarpgroups;
    kSteps = s.blockK() / mmaInstrShape(s.arch, s.a.element)->k;
  }

  /// Emits the shared-memory symbol and the kernel into `module`.
  LLVM::LLVMFuncOp build(gpu::GPUModuleOp module);

private:
  // Small value helpers.
  Value c32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  }
  Value c64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v).getResult();
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divU(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remU(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value ceilDiv(Value x, int64_t d) { return divU(add(x, c32(d - 1)), c32(d)); }
  /// `base + offset` bytes, in shared memory.
  Value sharedAt(Value base, Value offset) {
    return LLVM::GEPOp::create(b, loc, sharedPtr, b.getI8Type(), base,
                               ValueRange{offset});
  }
  Value sharedAt(Value base, int64_t offset) { return sharedAt(base, c32(offset)); }
  /// Runs `body` in an scf.if on `cond` (no results).
  void ifThen(Value cond, function_ref<void()> body) {
    auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    body();
  }

  // Phases.
  void mapTile(Value m, Value n);
  void planSharedMemory(LLVM::GlobalOp smem);
  void initBarriers();
  void issueStageLoad(Value stage, Value kTile);
  Value buildMainloop(Value kTiles);
  void buildEpilogue(Value acc, Value cPtr, Value m, Value n, Value ldc,
                     Value alpha, Value beta);

  Value fullBarrier(Value stage) {
    return sharedAt(barriers, mul(stage, c32(8)));
  }
  Value emptyBarrier(Value stage) {
    return sharedAt(barriers, add(c32(8 * res.stages), mul(stage, c32(8))));
  }
  Value stageBase(Value stage) {
    return sharedAt(ring, mul(stage, c32(res.stageBytes())));
  }
  /// The 64-bit wgmma shared-memory descriptor of a tile at `addr`.
  Value matrixDescriptor(Value addr, int64_t leadingBytes, int64_t strideBytes);
  Type accumulatorType();

  OpBuilder &b;
  Location loc;
  const KernelSpec &s;
  CtaResources res;
  KernelAbi abi;
  Type i1, i16, i32, i64, f32, ptr, sharedPtr, globalPtr, sharedClusterPtr;
  int64_t numWarpgroups = 1;
  int64_t kSteps = 1;

  // Values shared by the phases.
  Value tid, warpgroup, tmapA, tmapB;
  Value tileM0, tileN0; // first row / column of this CTA's output tile
  Value ring;           // shared memory: the stage buffers
  Value barriers;       // shared memory: full[stages], empty[stages]
  Value isProducer;     // thread 0 issues TMA
};

void HopperKernelBuilder::mapTile(Value m, Value n) {
  // Grouped raster (as Triton's grouped ordering): consecutive CTAs walk
  // `group` tiles along the raster dimension, then step across, so that a
  // wave of CTAs shares A and B tiles in L2.
  bool alongM = s.tileScheduler.raster == Raster::AlongM;
  Value tilesM = ceilDiv(m, s.blockM());
  Value tilesN = ceilDiv(n, s.blockN());
  Value major = alongM ? tilesM : tilesN;
  Value minor = alongM ? tilesN : tilesM;
  Value pid = NVVM::BlockIdXOp::create(b, loc, i32);
  Value group = c32(s.tileScheduler.group);
  Value perGroup = mul(group, minor);
  Value groupId = divU(pid, perGroup);
  Value first = mul(groupId, group);
  Value groupSize = minU(sub(major, first), group);
  Value inGroup = remU(pid, perGroup);
  Value majorIdx = add(first, remU(inGroup, groupSize));
  Value minorIdx = divU(inGroup, groupSize);
  Value tm = alongM ? majorIdx : minorIdx;
  Value tn = alongM ? minorIdx : majorIdx;
  tileM0 = mul(tm, c32(s.blockM()));
  tileN0 = mul(tn, c32(s.blockN()));
}

void HopperKernelBuilder::planSharedMemory(LLVM::GlobalOp smem) {
  // The dynamic shared-memory base is only guaranteed 16-byte aligned;
  // round it up to a swizzle atom (the manifest's size includes the pad).
  Value base = LLVM::AddressOfOp::create(b, loc, sharedPtr, smem.getSymName());
  Value addr = LLVM::PtrToIntOp::create(b, loc, i32, base);
  Value aligned = arith::AndIOp::create(
      b, loc, add(addr, c32(kSwizzleAtomAlignBytes - 1)),
      c32(~int64_t(kSwizzleAtomAlignBytes - 1)));
  ring = sharedAt(base, sub(aligned, addr));
  barriers = sharedAt(ring, res.stages * res.stageBytes());
}

void HopperKernelBuilder::initBarriers() {
  ifThen(isProducer, [&] {
    for (int64_t st = 0; st < res.stages; ++st) {
      // full: the producer's arrive plus the TMA bytes complete a phase.
      NVVM::MBarrierInitOp::create(b, loc, fullBarrier(c32(st)), c32(1),
                                   /*predicate=*/Value());
      // empty: every consumer thread releases the stage once.
      NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(c32(st)),
                                   c32(res.threads), /*predicate=*/Value());
    }
    // Make the initialized barriers visible to the TMA unit.
    NVVM::FenceMbarrierInitOp::create(b, loc);
  });
  NVVM::Barrier0Op::create(b, loc);
}

void HopperKernelBuilder::issueStageLoad(Value stage, Value kTile) {
  Value full = fullBarrier(stage);
  // The bytes TMA delivers: whole boxes, out-of-bounds parts zero-filled.
  int64_t bytes = (s.blockM() * elementBytes(s.a.element) +
                   s.blockN() * elementBytes(s.b.element)) *
                  s.blockK();
  NVVM::MBarrierArriveExpectTxOp::create(b, loc, /*res=*/Type(), full,
                                         c32(bytes),
                                         NVVM::MemScopeKind::CTA,
                                         /*relaxed=*/false, /*predicate=*/Value());
  Value base = stageBase(stage);
  Value k0 = mul(kTile, c32(s.blockK()));
  auto load = [&](Value tmap, Value dst, Value x, Value y) {
    // The instruction's destination is a shared::cluster address; a CTA's
    // own shared memory is part of its (one-CTA) cluster's window.
    dst = LLVM::AddrSpaceCastOp::create(b, loc, sharedClusterPtr, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, dst, tmap, ValueRange{x, y}, full, /*im2colOffsets=*/ValueRange{},
        /*multicastMask=*/Value(), /*l2CacheHint=*/Value(),
        NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, /*group=*/nullptr,
        /*predicate=*/Value());
  };
  // A is K-major: the box is {BLOCK_K, BLOCK_M} at (k0, m0).
  load(tmapA, base, k0, tileM0);
  Value bBase = sharedAt(base, res.aStageBytes);
  if (abi.b.kMajor) {
    load(tmapB, bBase, k0, tileN0);
    return;
  }
  // N-major B comes in slabs of one swizzle span of N each.
  for (int64_t slab = 0; slab < abi.b.loadsPerStage; ++slab)
    load(tmapB, sharedAt(bBase, slab * abi.b.slabBytes),
         add(tileN0, c32(slab * abi.b.box[0])), k0);
}

Value HopperKernelBuilder::matrixDescriptor(Value addr, int64_t leadingBytes,
                                            int64_t strideBytes) {
  // Bits 0-13: address >> 4; 16-29: leading byte offset >> 4; 32-45: stride
  // byte offset >> 4; 62-63: swizzle mode (1 = 128-byte). Base offset 0:
  // every stage starts on a swizzle atom.
  Value a64 = arith::ExtUIOp::create(
      b, loc, i64, LLVM::PtrToIntOp::create(b, loc, i32, addr));
  Value lo = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, a64, c64(4)),
                                   c64(0x3FFF));
  uint64_t fixed = (uint64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                   (uint64_t((strideBytes >> 4) & 0x3FFF) << 32) |
                   (uint64_t(1) << 62);
  return arith::OrIOp::create(b, loc, lo, c64(static_cast<int64_t>(fixed)));
}

Type HopperKernelBuilder::accumulatorType() {
  // One m64nNk16 wgmma leaves N/2 fp32 values in each thread.
  SmallVector<Type> fields(s.blockN() / 2, f32);
  return LLVM::LLVMStructType::getLiteral(b.getContext(), fields);
}

Value HopperKernelBuilder::buildMainloop(Value kTiles) {
  MLIRContext *ctx = b.getContext();
  Value stages = c32(res.stages);
  // Prologue: fill the ring.
  ifThen(isProducer, [&] {
    for (int64_t st = 0; st < res.stages; ++st)
      ifThen(cmp(arith::CmpIPredicate::ult, c32(st), kTiles),
             [&] { issueStageLoad(c32(st), c32(st)); });
  });

  Type accType = accumulatorType();
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  NVVM::WGMMATypes wgType = s.a.element == ElementType::BF16
                                ? NVVM::WGMMATypes::bf16
                                : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(ctx, /*m=*/64, s.blockN(),
                                       mmaInstrShape(s.arch, s.a.element)->k);
  int64_t eb = elementBytes(s.a.element);
  int64_t spanBytes = abi.a.swizzleBytes;
  int64_t atomBytes = kSwizzleAtomRows * spanBytes;
  int64_t kBytesPerStep = mmaInstrShape(s.arch, s.a.element)->k * eb;

  auto loop = scf::ForOp::create(b, loc, c32(0), kTiles, c32(1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value acc = loop.getRegionIterArgs()[0];
    Value stage = remU(kt, stages);
    Value phase = arith::AndIOp::create(b, loc, divU(kt, stages), c32(1));
    NVVM::MBarrierTryWaitParityOp::create(b, loc, fullBarrier(stage), phase,
                                          c32(0x989680));
    Value aTile = sharedAt(stageBase(stage),
                           mul(warpgroup, c32(64 * spanBytes)));
    Value bTile = sharedAt(stageBase(stage), res.aStageBytes);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    for (int64_t step = 0; step < kSteps; ++step) {
      // A: K-major, 128-byte rows; a step of K moves the start address along
      // the row, and the swizzle is applied by the hardware from the
      // absolute address (atoms are 1024-byte aligned).
      Value descA = matrixDescriptor(sharedAt(aTile, step * kBytesPerStep),
                                     /*leadingBytes=*/16, atomBytes);
      Value descB;
      if (abi.b.kMajor)
        descB = matrixDescriptor(sharedAt(bTile, step * kBytesPerStep),
                                 /*leadingBytes=*/16, atomBytes);
      else
        // N-major: a step of K moves down 16 rows of the slab; slabs of one
        // swizzle span of N are `slabBytes` apart (the leading offset).
        descB = matrixDescriptor(
            sharedAt(bTile, step * mmaInstrShape(s.arch, s.a.element)->k *
                                 spanBytes),
            /*leadingBytes=*/abi.b.slabBytes, atomBytes);
      acc = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, accType, acc, descA, descB, shape,
          NVVM::WGMMATypesAttr::get(ctx, wgType),
          NVVM::WGMMATypesAttr::get(ctx, wgType),
          NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32),
          NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
          NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
          NVVM::MMALayoutAttr::get(ctx, abi.b.kMajor ? NVVM::MMALayout::col
                                                     : NVVM::MMALayout::row),
          /*satfinite=*/nullptr);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    // Keep this step's wgmma in flight; the previous step's is complete
    // after this, so its stage can be released and refilled.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    ifThen(cmp(arith::CmpIPredicate::ugt, kt, c32(0)), [&] {
      Value prev = sub(kt, c32(1));
      Value prevStage = remU(prev, stages);
      NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(),
                                     emptyBarrier(prevStage), /*count=*/Value());
      Value next = add(prev, stages);
      Value refill = arith::AndIOp::create(
          b, loc, isProducer, cmp(arith::CmpIPredicate::ult, next, kTiles));
      ifThen(refill, [&] {
        Value parity =
            arith::AndIOp::create(b, loc, divU(prev, stages), c32(1));
        NVVM::MBarrierTryWaitParityOp::create(b, loc, emptyBarrier(prevStage),
                                              parity, c32(0x989680));
        issueStageLoad(prevStage, next);
      });
    });
    scf::YieldOp::create(b, loc, acc);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  return loop.getResult(0);
}

void HopperKernelBuilder::buildEpilogue(Value acc, Value cPtr, Value m, Value n,
                                        Value ldc, Value alpha, Value beta) {
  // Accumulator layout of wgmma m64nNk16 (f32): in warp w, lane l, value
  // 4j + 2h + e sits at row 16w + l/4 + 8h, column 8j + 2(l%4) + e.
  Value lane = remU(tid, c32(kWarpSize));
  Value warp = divU(remU(tid, c32(kWarpgroupSize)), c32(kWarpSize));
  Value rowBase = add(add(tileM0, mul(warpgroup, c32(64))),
                      add(mul(warp, c32(16)), divU(lane, c32(4))));
  Value colBase = add(tileN0, mul(remU(lane, c32(4)), c32(2)));
  Type outType = storageType(b.getContext(), s.c.element);
  int64_t cb = elementBytes(s.c.element);
  auto pairType = VectorType::get({2}, outType);
  Value ldc64 = arith::ExtUIOp::create(b, loc, i64, ldc);

  for (int64_t h = 0; h < 2; ++h) {
    Value row = add(rowBase, c32(8 * h));
    ifThen(cmp(arith::CmpIPredicate::ult, row, m), [&] {
      Value rowOffset = mul(arith::ExtUIOp::create(b, loc, i64, row), ldc64);
      for (int64_t j = 0; j < s.blockN() / 8; ++j) {
        Value col = add(colBase, c32(8 * j));
        Value v[2];
        for (int64_t e = 0; e < 2; ++e) {
          v[e] = LLVM::ExtractValueOp::create(b, loc, acc,
                                              ArrayRef<int64_t>{4 * j + 2 * h + e});
          if (alpha)
            v[e] = arith::MulFOp::create(b, loc, v[e], alpha);
        }
        Value offset = add(rowOffset, arith::ExtUIOp::create(b, loc, i64, col));
        Value addr = LLVM::GEPOp::create(b, loc, globalPtr, outType, cPtr,
                                         ValueRange{offset});
        auto finish = [&](Value x, Value at) -> Value {
          if (beta) {
            Value old = LLVM::LoadOp::create(b, loc, outType, at);
            if (outType != f32)
              old = arith::ExtFOp::create(b, loc, f32, old);
            x = arith::AddFOp::create(b, loc, x,
                                      arith::MulFOp::create(b, loc, old, beta));
          }
          return outType == f32 ? x : arith::TruncFOp::create(b, loc, outType, x);
        };
        Value colPlusOne = add(col, c32(1));
        // Both columns inside: one paired store (ldc and the column are even,
        // so the pair is aligned). Otherwise only the first may be.
        auto both = scf::IfOp::create(b, loc, cmp(arith::CmpIPredicate::ult,
                                                  colPlusOne, n),
                                      /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&both.getThenRegion().front());
          Value pair = LLVM::UndefOp::create(b, loc, pairType);
          if (beta) {
            Value second = LLVM::GEPOp::create(b, loc, globalPtr, outType, addr,
                                               ValueRange{c32(1)});
            pair = LLVM::InsertElementOp::create(b, loc, pair, finish(v[0], addr),
                                                 c32(0));
            pair = LLVM::InsertElementOp::create(b, loc, pair,
                                                 finish(v[1], second), c32(1));
          } else {
            pair = LLVM::InsertElementOp::create(b, loc, pair, finish(v[0], addr),
                                                 c32(0));
            pair = LLVM::InsertElementOp::create(b, loc, pair, finish(v[1], addr),
                                                 c32(1));
          }
          LLVM::StoreOp::create(b, loc, pair, addr, /*alignment=*/2 * cb);
          b.setInsertionPointToStart(&both.getElseRegion().front());
          ifThen(cmp(arith::CmpIPredicate::ult, col, n), [&] {
            LLVM::StoreOp::create(b, loc, finish(v[0], addr), addr,
                                  /*alignment=*/cb);
          });
        }
      }
    });
  }
}

LLVM::LLVMFuncOp HopperKernelBuilder::build(gpu::GPUModuleOp module) {
  MLIRContext *ctx = b.getContext();
  b.setInsertionPointToEnd(module.getBody());
  auto smemType = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
  std::string smemName = s.name + "_smem";
  auto smem = LLVM::GlobalOp::create(
      b, loc, smemType, /*isConstant=*/false, LLVM::Linkage::External, smemName,
      /*value=*/Attribute(), /*alignment=*/kSwizzleAtomAlignBytes, kSharedSpace);

  SmallVector<Type> args = {ptr, ptr, globalPtr, i32, i32, i32, i32};
  if (s.epilogue.alpha)
    args.push_back(f32);
  if (s.epilogue.beta)
    args.push_back(f32);
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), args);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, s.name, fnType);
  fn->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  fn->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(),
              b.getDenseI32ArrayAttr({static_cast<int32_t>(res.threads), 1, 1}));
  // A register cap at entry (.minnctapersm 1) lets later setmaxnreg take
  // effect and tells ptxas one CTA per SM is the goal.
  fn->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(), b.getI32IntegerAttr(1));
  for (int i = 0; i < 2; ++i) {
    fn.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(),
                  TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(),
                                                         kTensorMapBytes)));
    fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                  b.getI64IntegerAttr(kTensorMapAlign));
    fn.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                  b.getUnitAttr());
  }
  fn.setArgAttr(2, LLVM::LLVMDialect::getNoAliasAttrName(), b.getUnitAttr());

  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  tmapA = entry->getArgument(0);
  tmapB = entry->getArgument(1);
  Value cPtr = entry->getArgument(2);
  Value m = entry->getArgument(3), n = entry->getArgument(4),
        k = entry->getArgument(5), ldc = entry->getArgument(6);
  unsigned next = 7;
  Value alpha = s.epilogue.alpha ? entry->getArgument(next++) : Value();
  Value beta = s.epilogue.beta ? entry->getArgument(next++) : Value();

  tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  warpgroup = divU(tid, c32(kWarpgroupSize));
  isProducer = cmp(arith::CmpIPredicate::eq, tid, c32(0));
  mapTile(m, n);
  planSharedMemory(smem);
  initBarriers();
  Value acc = buildMainloop(ceilDiv(k, s.blockK()));
  buildEpilogue(acc, cPtr, m, n, ldc, alpha, beta);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return fn;
}

struct ConvertGemmcToNVVMPass
    : mlir::gemmc::impl::ConvertGemmcToNVVMBase<ConvertGemmcToNVVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels;
    module.walk([&](func::FuncOp f) {
      if (f->hasAttr("gemmc.kernel"))
        kernels.push_back(f);
    });
    if (kernels.empty())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(), b.getUnitAttr());
    b.setInsertionPointToEnd(module.getBody());
    gpu::GPUModuleOp gpuModule;

    for (func::FuncOp f : kernels) {
      auto matmuls = llvm::to_vector(f.getOps<MatmulOp>());
      if (matmuls.size() != 1) {
        f.emitError() << "a gemmc kernel holds exactly one gemmc.matmul, found "
                      << matmuls.size();
        return signalPassFailure();
      }
      MatmulOp op = matmuls.front();
      FailureOr<KernelSpec> spec =
          specFromSchedule(op.getSchedule(), [&] { return op.emitOpError(); });
      if (failed(spec))
        return signalPassFailure();
      spec->name = f.getSymName().str();
      // Static sizes live in the operand types; the kernel reads run-time
      // sizes either way, so only the checks need them.
      bool ok = true;
      for (const Violation &v : checkLoweringSupport(*spec)) {
        op.emitOpError() << v.str();
        ok = false;
      }
      if (!ok)
        return signalPassFailure();
      if (!gpuModule) {
        auto target = NVVM::NVVMTargetAttr::get(
            ctx, /*optLevel=*/3, /*triple=*/"nvptx64-nvidia-cuda",
            /*chip=*/archName(spec->arch), /*features=*/"+ptx80");
        b.setInsertionPointToEnd(module.getBody());
        gpuModule = gpu::GPUModuleOp::create(b, f.getLoc(), "gemmc_kernels",
                                             b.getArrayAttr({target}));
      }
      HopperKernelBuilder builder(b, f.getLoc(), *spec);
      builder.build(gpuModule);
      f.erase();
    }
  }
};
} // namespace
