//===- gemmc.cpp - The gemmc command line --------------------------------===//
//
//   gemmc SPEC [-o FILE] [--emit=mlir|llvm|ptx|cubin]   compile a spec
//   gemmc analyze SPEC [--shape MxNxK ...]              explain its cost
//   gemmc --list-rules                                  the hardware rules
//
// Exit codes: 0 success, 1 the spec or the request is wrong (a diagnostic
// says why), 2 an internal failure.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "gemmc/Conversion/SpecToIR.h"
#include "gemmc/Dialect/Gemmc/IR/GemmcDialect.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
enum class Emit { Mlir, Llvm, Ptx, Cubin };

cl::opt<std::string> specPath(cl::Positional, cl::desc("<spec.yaml>"));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' = stdout)"),
                                cl::value_desc("file"), cl::init("-"));
cl::opt<Emit> emitKind(
    "emit", cl::desc("What to produce"), cl::init(Emit::Cubin),
    cl::values(clEnumValN(Emit::Mlir, "mlir", "the gemmc dialect, checked"),
               clEnumValN(Emit::Llvm, "llvm", "the LLVM dialect of the kernel"),
               clEnumValN(Emit::Ptx, "ptx", "PTX assembly"),
               clEnumValN(Emit::Cubin, "cubin", "a cubin (the default)")));
cl::opt<bool> listRules("list-rules",
                        cl::desc("Print the hardware rules a spec must satisfy"));
} // namespace

static int compile() {
  std::unique_ptr<gemmc::SpecFile> file = gemmc::SpecFile::open(specPath, errs());
  if (!file)
    return 1;
  if (!file->parse())
    return 1;

  mlir::MLIRContext ctx;
  ctx.loadDialect<mlir::gemmc::GemmcDialect, mlir::func::FuncDialect>();
  auto loc = mlir::FileLineColLoc::get(&ctx, file->bufferName(), 1, 1);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::gemmc::buildKernelModule(&ctx, file->spec(), loc);

  mlir::PassManager pm(&ctx);
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  pm.addPass(mlir::gemmc::createGemmcVerifySchedule());
  if (failed(pm.run(*module)))
    return 1;

  if (emitKind != Emit::Mlir) {
    errs() << file->bufferName()
           << ": error: --emit=" << (emitKind == Emit::Llvm  ? "llvm"
                                     : emitKind == Emit::Ptx ? "ptx"
                                                             : "cubin")
           << " is not available yet: this gemmc checks the spec and builds "
              "the gemmc dialect, but does not lower it to "
           << gemmc::archName(file->spec().arch)
           << " code; use --emit=mlir\n";
    return 1;
  }
  std::string error;
  auto out = mlir::openOutputFile(outputPath, &error);
  if (!out) {
    errs() << "gemmc: error: " << error << "\n";
    return 1;
  }
  module->print(out->os());
  out->os() << "\n";
  out->keep();
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::gemmc::registerGemmcPasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "gemmc: a GEMM kernel compiler\n\n"
                              "  gemmc SPEC -o gemm.cubin\n"
                              "  gemmc analyze SPEC --shape 8192x8192x8192\n");
  if (gemmc::tool::analyzeCommand)
    return gemmc::tool::runAnalyze();
  if (listRules) {
    for (const gemmc::RuleInfo &r : gemmc::allRules())
      outs() << formatv("{0,-20} {1}\n", r.name, r.summary);
    return 0;
  }
  if (specPath.empty()) {
    errs() << "gemmc: error: no spec given; usage: gemmc SPEC -o FILE "
              "(see gemmc --help)\n";
    return 1;
  }
  return compile();
}
