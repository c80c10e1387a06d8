//===- SpecToIR.cpp - A checked spec to the gemmc dialect ----------------===//
#include "gemmc/Conversion/SpecToIR.h"
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::gemmc;

static int64_t mlirDim(Dim d) {
  return d.isDynamic() ? ShapedType::kDynamic : d.value;
}

OwningOpRef<ModuleOp> mlir::gemmc::buildKernelModule(MLIRContext *ctx,
                                                     const KernelSpec &s,
                                                     Location loc) {
  ctx->loadDialect<GemmcDialect, func::FuncDialect, memref::MemRefDialect>();
  OpBuilder b(ctx);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  module->getOperation()->setAttr("gemmc.arch", b.getStringAttr(archName(s.arch)));
  b.setInsertionPointToEnd(module->getBody());

  int64_t m = mlirDim(s.m), n = mlirDim(s.n), k = mlirDim(s.k);
  // Memrefs hold the operands as they lie in memory (see gemmc.matmul).
  auto memref = [&](int64_t rows, int64_t cols, ElementType t) {
    return MemRefType::get({rows, cols}, storageType(ctx, t));
  };
  MemRefType aType = s.a.layout == Layout::Row ? memref(m, k, s.a.element)
                                               : memref(k, m, s.a.element);
  MemRefType bType = s.b.layout == Layout::Col ? memref(n, k, s.b.element)
                                               : memref(k, n, s.b.element);
  MemRefType cType = memref(m, n, s.c.element);
  SmallVector<Type> args = {aType, bType, cType};
  if (s.epilogue.alpha)
    args.push_back(b.getF32Type());
  if (s.epilogue.beta)
    args.push_back(b.getF32Type());

  auto func = func::FuncOp::create(b, loc, s.name, b.getFunctionType(args, {}));
  func->setAttr("gemmc.kernel", b.getUnitAttr());
  static const char *argNames[] = {"a", "b", "c"};
  for (int i = 0; i < 3; ++i)
    func.setArgAttr(i, "gemmc.operand", b.getStringAttr(argNames[i]));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  unsigned next = 3;
  Value alpha = s.epilogue.alpha ? entry->getArgument(next++) : Value();
  Value beta = s.epilogue.beta ? entry->getArgument(next++) : Value();
  MatmulOp::create(b, loc, entry->getArgument(0), entry->getArgument(1),
                   entry->getArgument(2), alpha, beta, scheduleFromSpec(ctx, s));
  func::ReturnOp::create(b, loc);
  return module;
}
