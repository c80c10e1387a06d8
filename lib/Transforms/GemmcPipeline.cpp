//===- GemmcPipeline.cpp - The staged K loop of one tile -----------------===//
//
// Expands gemmc.tile_matmul into a producer/consumer pipeline over a ring of
// shared-memory stages:
//
//   full[s]  completes when the TMA bytes of stage s have landed (one
//            producer arrival + the transaction count);
//   empty[s] completes when every thread has released stage s (its wgmma
//            reading the stage is done).
//
// Thread 0 fills the ring, then refills a stage as soon as it is released.
// Every warpgroup waits on full[s] with the phase parity (kt / stages) & 1,
// issues its gemmc.mma_stage, keeps it in flight (wgmma.wait_group 1) and
// releases the previous step's stage. Two stages at least: with one, the
// refill would wait for a release that waits for the refill.
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
      : op(op), s(spec), layout(*op.getSmemLayout()), ir(b, op.getLoc()),
        abi(describeKernelAbi(spec)) {}

  void build();

private:
  Value fullBarrier(Value stage) {
    return ir.sharedAt(op.getSmem(), ir.add(ir.c32(layout.getBarriers()),
                                            ir.mul(stage, ir.c32(kMbarrierBytes))));
  }
  Value emptyBarrier(Value stage) {
    return ir.sharedAt(
        op.getSmem(),
        ir.add(ir.c32(layout.getBarriers() + kMbarrierBytes * layout.getStages()),
               ir.mul(stage, ir.c32(kMbarrierBytes))));
  }
  Value stageBase(Value stage) {
    return ir.sharedAt(op.getSmem(), ir.mul(stage, ir.c32(layout.getStageBytes())));
  }
  void initBarriers();
  void issueStageLoad(Value stage, Value kTile);
  void waitParity(Value barrier, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(ir.b, ir.loc, barrier, parity,
                                          ir.c32(kMbarrierWaitHintNs));
  }

  TileMatmulOp op;
  const KernelSpec &s;
  SmemLayoutAttr layout;
  KernelIR ir;
  KernelAbi abi;
  Value isProducer;
};

void PipelineBuilder::initBarriers() {
  int64_t threads = computeResources(s).threads;
  ir.ifThen(isProducer, [&] {
    for (int64_t st = 0; st < layout.getStages(); ++st) {
      NVVM::MBarrierInitOp::create(ir.b, ir.loc, fullBarrier(ir.c32(st)),
                                   ir.c32(1), /*predicate=*/Value());
      NVVM::MBarrierInitOp::create(ir.b, ir.loc, emptyBarrier(ir.c32(st)),
                                   ir.c32(threads), /*predicate=*/Value());
    }
    // Make the initialized barriers visible to the TMA unit.
    NVVM::FenceMbarrierInitOp::create(ir.b, ir.loc);
  });
  NVVM::Barrier0Op::create(ir.b, ir.loc);
}

void PipelineBuilder::issueStageLoad(Value stage, Value kTile) {
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
  auto load = [&](Value tmap, Value dst, Value x, Value y) {
    // The instruction writes a shared::cluster address; a CTA's own shared
    // memory lies in its cluster's window.
    dst = LLVM::AddrSpaceCastOp::create(ir.b, ir.loc, ir.sharedClusterPtr, dst);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        ir.b, ir.loc, dst, tmap, ValueRange{x, y}, full,
        /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        /*group=*/nullptr, /*predicate=*/Value());
  };
  // A is K-major: one box {BLOCK_K, BLOCK_M} at (k0, m0).
  load(op.getTmapA(), base, k0, op.getM0());
  Value bBase = ir.sharedAt(base, layout.getBOffset());
  if (abi.b.kMajor) {
    load(op.getTmapB(), bBase, k0, op.getN0());
    return;
  }
  // N-major B comes in slabs one swizzle span of N wide.
  for (int64_t slab = 0; slab < abi.b.loadsPerStage; ++slab)
    load(op.getTmapB(), ir.sharedAt(bBase, slab * abi.b.slabBytes),
         ir.add(op.getN0(), ir.c32(slab * abi.b.box[0])), k0);
}

void PipelineBuilder::build() {
  OpBuilder &b = ir.b;
  Value tid = ir.threadId();
  isProducer = ir.cmp(arith::CmpIPredicate::eq, tid, ir.c32(0));
  Value stages = ir.c32(layout.getStages());
  Value kTiles = ir.ceilDiv(op.getK(), s.blockK());
  initBarriers();

  // Prologue: fill the ring.
  ir.ifThen(isProducer, [&] {
    for (int64_t st = 0; st < layout.getStages(); ++st)
      ir.ifThen(ir.cmp(arith::CmpIPredicate::ult, ir.c32(st), kTiles),
                [&] { issueStageLoad(ir.c32(st), ir.c32(st)); });
  });

  Type accType = wgmmaAccumulatorType(b.getContext(), s);
  Value zero = LLVM::ZeroOp::create(b, ir.loc, accType);
  // Each warpgroup multiplies its own 64 rows of the A tile.
  int64_t aRowBytes = s.blockK() * elementBytes(s.a.element);
  Value aSlice = ir.mul(ir.warpgroupId(), ir.c32(64 * aRowBytes));

  auto loop = scf::ForOp::create(b, ir.loc, ir.c32(0), kTiles, ir.c32(1),
                                 ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kt = loop.getInductionVar();
    Value stage = ir.remU(kt, stages);
    waitParity(fullBarrier(stage), ir.andI(ir.divU(kt, stages), ir.c32(1)));
    Value base = stageBase(stage);
    Value acc = MmaStageOp::create(b, ir.loc, accType, loop.getRegionIterArgs()[0],
                                   ir.sharedAt(base, aSlice),
                                   ir.sharedAt(base, layout.getBOffset()),
                                   op.getSchedule());
    // Keep this step's wgmma in flight; the previous step's is complete
    // after this wait, so its stage can be released and refilled.
    NVVM::WgmmaWaitGroupSyncOp::create(b, ir.loc, 1);
    ir.ifThen(ir.cmp(arith::CmpIPredicate::ugt, kt, ir.c32(0)), [&] {
      Value prev = ir.sub(kt, ir.c32(1));
      Value prevStage = ir.remU(prev, stages);
      NVVM::MBarrierArriveOp::create(b, ir.loc, /*res=*/Type(),
                                     emptyBarrier(prevStage), /*count=*/Value());
      Value next = ir.add(prev, stages);
      ir.ifThen(ir.andI(isProducer,
                        ir.cmp(arith::CmpIPredicate::ult, next, kTiles)),
                [&] {
                  waitParity(emptyBarrier(prevStage),
                             ir.andI(ir.divU(prev, stages), ir.c32(1)));
                  issueStageLoad(prevStage, next);
                });
    });
    scf::YieldOp::create(b, ir.loc, acc);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, ir.loc, 0);
  EpilogueOp::create(b, ir.loc, loop.getResult(0), op.getC(), op.getM0(),
                     op.getN0(), op.getM(), op.getN(), op.getLdc(),
                     op.getAlpha(), op.getBeta(), op.getSchedule());
}

struct GemmcPipelinePass
    : mlir::gemmc::impl::GemmcPipelineBase<GemmcPipelinePass> {
  void runOnOperation() override {
    SmallVector<TileMatmulOp> ops;
    getOperation().walk([&](TileMatmulOp op) { ops.push_back(op); });
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
