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
#include "gemmc/Pipelines/Pipelines.h"
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

llvm::cl::OptionCategory gemmc::tool::gemmcOptions("gemmc options");

namespace {
enum class Emit { Mlir, Llvm, Ptx, Cubin };
using gemmc::tool::gemmcOptions;

cl::opt<std::string> specPath(cl::Positional, cl::desc("<spec.yaml>"),
                              cl::cat(gemmcOptions));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' = stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(gemmcOptions));
cl::opt<Emit> emitKind(
    "emit", cl::desc("What to produce"), cl::init(Emit::Cubin),
    cl::values(clEnumValN(Emit::Mlir, "mlir", "the gemmc dialect, checked"),
               clEnumValN(Emit::Llvm, "llvm", "the LLVM dialect of the kernel"),
               clEnumValN(Emit::Ptx, "ptx", "PTX assembly"),
               clEnumValN(Emit::Cubin, "cubin", "a cubin (the default)")),
    cl::cat(gemmcOptions));
cl::opt<std::string> cudaRoot(
    "cuda-root", cl::desc("CUDA toolkit whose ptxas assembles the cubin"),
    cl::value_desc("dir"), cl::init("/usr/local/cuda"), cl::cat(gemmcOptions));
cl::opt<bool> ptxasVerbose("ptxas-verbose",
                           cl::desc("Print ptxas -v's report (registers, shared "
                                    "memory, spills)"),
                           cl::cat(gemmcOptions));
cl::opt<bool> listRules("list-rules",
                        cl::desc("Print the hardware rules a spec must satisfy"),
                        cl::cat(gemmcOptions));
cl::opt<int64_t> wgmmaN(
    "wgmma-n",
    cl::desc("sm_90a: columns of each wgmma instruction, a divisor of BLOCK_N "
             "(0 = BLOCK_N; for ablations, docs/pipeline.md)"),
    cl::value_desc("N"), cl::init(0), cl::cat(gemmcOptions));
} // namespace

/// Writes `text` to `path` ('-' = stdout). A failed write (a full disk,
/// /dev/full) is a diagnostic naming the file, not LLVM's fatal error from
/// the stream's destructor; the partial file is removed.
static bool writeOutput(StringRef path, StringRef text) {
  std::string error;
  auto out = mlir::openOutputFile(path, &error);
  if (!out) {
    errs() << "gemmc: error: " << error << "\n";
    return false;
  }
  out->os() << text;
  out->os().flush();
  if (std::error_code ec = out->os().error()) {
    out->os().clear_error();
    errs() << "gemmc: error: cannot write "
           << (path == "-" ? StringRef("standard output") : path) << ": "
           << ec.message() << "\n";
    return false;
  }
  out->keep();
  return true;
}

/// Standard output's write error, if any, as a diagnostic (its destructor
/// would otherwise end the process with LLVM's fatal error).
int gemmc::tool::finishStdout(int rc) {
  outs().flush();
  if (std::error_code ec = outs().error()) {
    outs().clear_error();
    errs() << "gemmc: error: cannot write standard output: " << ec.message()
           << "\n";
    return rc ? rc : 1;
  }
  return rc;
}

/// ptxas -v lines that are performance bugs: spills and C75xx warnings.
static bool reportHasProblems(StringRef report) {
  for (StringRef line : llvm::split(report, '\n')) {
    if (line.contains("warning") && line.contains("C75"))
      return true;
    size_t at = line.find(" bytes spill stores");
    if (at != StringRef::npos && !line.contains(" 0 bytes spill stores"))
      return true;
  }
  return false;
}

static int compile() {
  std::unique_ptr<gemmc::SpecFile> file = gemmc::SpecFile::open(specPath, errs());
  if (!file)
    return 1;
  if (!file->parse())
    return 1;
  const gemmc::KernelSpec &spec = file->spec();
  if (emitKind == Emit::Cubin && outputPath == "-") {
    errs() << "gemmc: error: a cubin is binary; name a file with -o (the "
              "manifest goes next to it, as FILE.json)\n";
    return 1;
  }
  if (emitKind != Emit::Mlir) {
    std::vector<gemmc::Violation> missing = gemmc::checkLoweringSupport(spec);
    for (const gemmc::Violation &v : missing)
      file->report(v);
    if (!missing.empty())
      return 1;
    std::string why;
    if (wgmmaN != 0 &&
        gemmc::wgmmaColumns(spec, gemmc::describeKernelAbi(spec), wgmmaN, why) == 0) {
      errs() << "gemmc: error: --" << why << "\n";
      return 1;
    }
  }

  mlir::DialectRegistry registry;
  mlir::gemmc::registerPipelineDependencies(registry);
  mlir::MLIRContext ctx(registry);
  // Diagnostics from passes print as file:line:col: error: ..., like the
  // spec's own.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagHandler(sourceMgr, &ctx);
  ctx.loadDialect<mlir::gemmc::GemmcDialect, mlir::func::FuncDialect>();
  auto loc = mlir::FileLineColLoc::get(&ctx, file->bufferName(), 1, 1);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::gemmc::buildKernelModule(&ctx, spec, loc);

  mlir::PassManager pm(&ctx);
  if (failed(mlir::applyPassManagerCLOptions(pm)))
    return 1;
  if (emitKind == Emit::Mlir)
    pm.addPass(mlir::gemmc::createGemmcVerifySchedule());
  else
    mlir::gemmc::buildLowerToNVVMPipeline(pm, {wgmmaN});
  if (failed(pm.run(*module)))
    return 1;

  if (emitKind == Emit::Mlir || emitKind == Emit::Llvm) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    os << "\n";
    return writeOutput(outputPath, text) ? 0 : 1;
  }
  FailureOr<std::string> ptx = mlir::gemmc::serializeToPtx(*module);
  if (failed(ptx))
    return 1;
  if (emitKind == Emit::Ptx)
    return writeOutput(outputPath, *ptx) ? 0 : 1;

  FailureOr<mlir::gemmc::PtxasResult> assembled = failure();
  {
    // A missing or failing ptxas is the toolkit's problem, not the spec's:
    // a plain diagnostic, not one under the spec's first line.
    mlir::ScopedDiagnosticHandler plain(&ctx, [](mlir::Diagnostic &d) {
      errs() << "gemmc: error: " << d.str() << "\n";
      return success();
    });
    assembled = mlir::gemmc::assembleWithPtxas(
        loc, *ptx, gemmc::archName(spec.arch), cudaRoot);
  }
  if (failed(assembled))
    return 1;
  if (ptxasVerbose)
    errs() << assembled->report;
  if (reportHasProblems(assembled->report))
    errs() << file->bufferName()
           << ": warning: ptxas reports spills or C75xx warnings (a "
              "performance bug); rerun with --ptxas-verbose:\n"
           << assembled->report;
  gemmc::KernelAbi abi = gemmc::describeKernelAbi(spec);
  if (!writeOutput(outputPath, assembled->cubin) ||
      !writeOutput(outputPath + ".json", gemmc::kernelManifestJson(spec, abi)))
    return 1;
  return 0;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::gemmc::registerGemmcPasses();
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions);
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions,
                           gemmc::tool::analyzeCommand);
  cl::ParseCommandLineOptions(argc, argv,
                              "gemmc: a GEMM kernel compiler\n\n"
                              "  gemmc SPEC -o gemm.cubin\n"
                              "  gemmc analyze SPEC --shape 8192x8192x8192\n");
  if (gemmc::tool::analyzeCommand)
    return gemmc::tool::finishStdout(gemmc::tool::runAnalyze());
  if (listRules) {
    for (const gemmc::RuleInfo &r : gemmc::allRules())
      outs() << formatv("{0,-20} {1}\n", r.name, r.summary);
    return gemmc::tool::finishStdout(0);
  }
  if (specPath.empty()) {
    errs() << "gemmc: error: no spec given; usage: gemmc SPEC -o FILE "
              "(see gemmc --help)\n";
    return 1;
  }
  return gemmc::tool::finishStdout(compile());
}
