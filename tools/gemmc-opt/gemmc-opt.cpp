//===- gemmc-opt.cpp - mlir-opt with every gemmc dialect and pass --------===//
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Pipelines/Pipelines.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::gemmc::registerGemmcPasses();
  mlir::gemmc::registerGemmcPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::gemmc::GemmcDialect>();
  mlir::gemmc::registerPipelineDependencies(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gemmc optimizer driver: every gemmc and upstream pass\n",
      registry));
}
