//===- gemmc.cpp - The gemmc command line --------------------------------===//
//
//   gemmc SPEC [-o FILE] [--emit=mlir|llvm|ptx|cubin|c|c-header]
//                                                       compile a spec
//   gemmc analyze SPEC [--shape MxNxK ...]              explain its cost
//   gemmc tune --shape MxNxK ... [-o DIR]               rank a family's schedules
//   gemmc bundle DISPATCH.yaml -o DIR                   kernels + dispatch table
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
#include "gemmc/Version.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

llvm::cl::OptionCategory gemmc::tool::gemmcOptions("gemmc options");

namespace {
enum class Emit { Mlir, Llvm, Ptx, Cubin, Fatbin, C, CHeader };
using gemmc::tool::gemmcOptions;

/// cl's enum parser, except that a wrong value is answered with the valid
/// ones (cl's own message names only the bad value).
struct EmitParser : cl::parser<Emit> {
  using cl::parser<Emit>::parser;
  bool parse(cl::Option &o, StringRef argName, StringRef arg, Emit &value) {
    if (findOption(arg) != getNumOptions())
      return cl::parser<Emit>::parse(o, argName, arg, value);
    std::string valid;
    for (unsigned i = 0, e = getNumOptions(); i != e; ++i)
      valid += (i ? ", " : "") + getOption(i).str();
    return o.error("'" + arg + "' is not something gemmc emits; valid values: " + valid);
  }
};

cl::opt<std::string> specPath(cl::Positional, cl::desc("<spec.yaml>"),
                              cl::cat(gemmcOptions));
cl::opt<std::string> outputPath("o", cl::desc("Output file ('-' = stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::cat(gemmcOptions));
cl::opt<Emit, false, EmitParser> emitKind(
    "emit", cl::desc("What to produce"), cl::init(Emit::Cubin),
    cl::values(clEnumValN(Emit::Mlir, "mlir", "the gemmc dialect, checked"),
               clEnumValN(Emit::Llvm, "llvm", "the LLVM dialect of the kernel"),
               clEnumValN(Emit::Ptx, "ptx", "PTX assembly"),
               clEnumValN(Emit::Cubin, "cubin",
                          "a cubin and FILE.json, its manifest (the default)"),
               clEnumValN(Emit::Fatbin, "fatbin",
                          "a fatbinary of the SASS and its compute_XY PTX (the "
                          "driver JIT-compiles the PTX on newer GPUs) and "
                          "FILE.json; the default for -o FILE.fatbin"),
               clEnumValN(Emit::C, "c",
                          "a C source defining the cubin and its manifest "
                          "(--symbol; for gemmc_kernel_load_data)"),
               clEnumValN(Emit::CHeader, "c-header",
                          "the declarations of --emit=c's symbols")),
    cl::cat(gemmcOptions));
cl::opt<std::string> symbolName(
    "symbol",
    cl::desc("--emit=c/c-header: prefix of the symbols NAME_cubin, "
             "NAME_cubin_size, NAME_manifest (default: the spec's name)"),
    cl::value_desc("NAME"), cl::cat(gemmcOptions));
cl::opt<std::string> manifestPath(
    "manifest",
    cl::desc("Where the cubin's manifest goes (default: the output file + "
             ".json; needed with -o -)"),
    cl::value_desc("file"), cl::cat(gemmcOptions));
// Not an option: the target is the spec's `arch` field. Without this entry
// cl would answer --arch=sm_90a with "did you mean '--emit=sm_90a'?".
cl::opt<std::string> archOption("arch", cl::Hidden, cl::ValueOptional,
                                cl::cat(gemmcOptions));
cl::opt<std::string> cudaRoot(
    "cuda-root", cl::desc("CUDA toolkit whose ptxas assembles the cubin"),
    cl::value_desc("dir"), cl::init("/usr/local/cuda"), cl::cat(gemmcOptions));
cl::opt<bool> ptxasVerbose("ptxas-verbose",
                           cl::desc("Print ptxas -v's report (registers, shared "
                                    "memory, spills)"),
                           cl::cat(gemmcOptions));
cl::opt<bool> listRules(
    "list-rules",
    cl::desc("Print the hardware rules a spec must satisfy (gemmc "
             "--list-rules RULE: that rule only)"),
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

/// The ptxas a cubin is assembled with: the one under --cuda-root, else
/// (the default root only) the one on PATH, as assembleWithPtxas finds it.
static std::optional<std::string> findPtxas() {
  SmallString<128> ptxas(cudaRoot);
  sys::path::append(ptxas, "bin", "ptxas");
  if (sys::fs::can_execute(ptxas))
    return std::string(ptxas);
  if (cudaRoot.getNumOccurrences())
    return std::nullopt;
  if (ErrorOr<std::string> found = sys::findProgramByName("ptxas"))
    return *found;
  return std::nullopt;
}

/// `gemmc --version`: gemmc's release and commit, the LLVM it is built on
/// and the CUDA whose ptxas it would use (the default --cuda-root unless
/// --cuda-root comes before --version).
static void printVersion(raw_ostream &os) {
  os << "gemmc " << GEMMC_VERSION << " (git " << GEMMC_GIT_COMMIT << ")\n"
     << "  LLVM and MLIR " << LLVM_VERSION_STRING << "\n";
  std::optional<std::string> ptxas = findPtxas();
  std::string release;
  SmallString<128> log;
  if (ptxas && !sys::fs::createTemporaryFile("gemmc", "version", log)) {
    std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
    if (sys::ExecuteAndWait(*ptxas, {*ptxas, "--version"}, std::nullopt, redirects, 30) == 0)
      if (auto buf = MemoryBuffer::getFile(log))
        for (StringRef line : split((*buf)->getBuffer(), '\n'))
          if (size_t at = line.find("release "); at != StringRef::npos)
            release = line.substr(at).trim().str(); // "release 13.0, V13.0.88"
    sys::fs::remove(log);
  }
  if (!ptxas)
    os << "  CUDA: no ptxas under " << cudaRoot << "/bin"
       << (cudaRoot.getNumOccurrences() ? "" : " nor on PATH")
       << " (cubins need one; --cuda-root=DIR)\n";
  else
    os << "  CUDA " << (release.empty() ? "of unknown release" : release)
       << " (" << *ptxas << ")\n";
}

static bool isCIdentifier(StringRef name) {
  if (name.empty() || isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

/// The declarations of --emit=c's symbols: the whole of --emit=c-header,
/// and the start of --emit=c (so that the definitions have C linkage in C++).
static std::string embedDeclarations(StringRef sym) {
  return formatv("#include <stddef.h>\n"
                 "#ifdef __cplusplus\n"
                 "extern \"C\" {{\n"
                 "#endif\n"
                 "extern const unsigned char {0}_cubin[];\n"
                 "extern const size_t {0}_cubin_size;\n"
                 "extern const char {0}_manifest[];\n"
                 "#ifdef __cplusplus\n"
                 "}\n"
                 "#endif\n",
                 sym);
}

/// The comment both embedding forms start with. Nothing in it depends on
/// where gemmc runs, so the output stays byte-for-byte reproducible.
static std::string embedBanner(StringRef sym, StringRef specName) {
  return formatv("/* gemmc kernel '{1}', generated by gemmc {2}; do not edit.\n"
                 " * Load it with\n"
                 " *   gemmc_kernel_load_data({0}_cubin, {0}_cubin_size, {0}_manifest, &kernel);\n"
                 " */\n",
                 sym, specName, GEMMC_VERSION);
}

/// --emit=c: the cubin as a byte array and the manifest as a string.
static std::string embedSource(StringRef sym, StringRef specName, StringRef cubin,
                               StringRef manifest) {
  std::string out;
  raw_string_ostream os(out);
  os << embedBanner(sym, specName) << embedDeclarations(sym) << "\n"
     << "const unsigned char " << sym << "_cubin[" << cubin.size() << "] = {";
  for (size_t i = 0; i < cubin.size(); ++i)
    os << (i % 16 ? " " : "\n  ") << formatv("{0:x2},", uint8_t(cubin[i]));
  os << "\n};\nconst size_t " << sym << "_cubin_size = " << cubin.size() << ";\n"
     << "const char " << sym << "_manifest[] =";
  for (StringRef line : split(manifest.rtrim('\n'), '\n')) {
    os << "\n  \"";
    os.write_escaped(line);
    os << "\\n\"";
  }
  os << ";\n";
  return out;
}

/// The fatbinary tool next to the ptxas gemmc uses.
static std::optional<std::string> findFatbinary() {
  std::optional<std::string> ptxas = findPtxas();
  if (!ptxas)
    return std::nullopt;
  SmallString<128> tool(sys::path::parent_path(*ptxas));
  sys::path::append(tool, "fatbinary");
  if (sys::fs::can_execute(tool))
    return std::string(tool);
  return std::nullopt;
}

/// The fatbinary holding `cubin` (SASS for sm_XY) and `ptx` (compute_XY),
/// or an error message in `error`.
static std::optional<std::string> packFatbinary(StringRef cubin, StringRef ptx,
                                                StringRef arch, std::string &error) {
  std::optional<std::string> tool = findFatbinary();
  if (!tool) {
    error = "no fatbinary next to ptxas (it ships with the CUDA toolkit; pass "
            "--cuda-root=DIR)";
    return std::nullopt;
  }
  SmallString<128> cubinFile, ptxFile, outFile, logFile;
  if (sys::fs::createTemporaryFile("gemmc", "cubin", cubinFile) ||
      sys::fs::createTemporaryFile("gemmc", "ptx", ptxFile) ||
      sys::fs::createTemporaryFile("gemmc", "fatbin", outFile) ||
      sys::fs::createTemporaryFile("gemmc", "log", logFile)) {
    error = "cannot create temporary files for fatbinary";
    return std::nullopt;
  }
  auto cleanup = llvm::scope_exit([&] {
    for (StringRef f : {cubinFile.str(), ptxFile.str(), outFile.str(), logFile.str()})
      sys::fs::remove(f);
  });
  if (!writeOutput(cubinFile.str().str(), cubin) || !writeOutput(ptxFile.str().str(), ptx)) {
    error = "cannot write fatbinary's inputs";
    return std::nullopt;
  }
  // sm_80 -> 80: the SASS image and the PTX image of the same arch.
  std::string sm = arch.drop_front(3).str();
  std::string create = ("--create=" + outFile).str();
  std::string elf = "--image3=kind=elf,sm=" + sm + ",file=" + cubinFile.str().str();
  std::string ptxImage = "--image3=kind=ptx,sm=" + sm + ",file=" + ptxFile.str().str();
  SmallVector<StringRef> argv = {*tool, create, elf, ptxImage};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile), StringRef(logFile)};
  std::string why;
  if (sys::ExecuteAndWait(*tool, argv, std::nullopt, redirects, 120, 0, &why) != 0) {
    auto log = MemoryBuffer::getFile(logFile);
    error = "fatbinary failed" + (why.empty() ? "" : " (" + why + ")") + ": " +
            (log ? (*log)->getBuffer().str() : "");
    return std::nullopt;
  }
  auto out = MemoryBuffer::getFile(outFile, /*IsText=*/false);
  if (!out) {
    error = "fatbinary wrote no file";
    return std::nullopt;
  }
  return (*out)->getBuffer().str();
}

/// The output options alone, before the spec is read: --emit from -o's
/// extension, --cuda-root, and a binary bound for a terminal.
static bool checkOutputOptions() {
  // -o FILE.fatbin without --emit asks for a fatbinary; -o FILE.cubin stays
  // a cubin.
  if (!emitKind.getNumOccurrences() && StringRef(outputPath).ends_with(".fatbin"))
    emitKind = Emit::Fatbin;
  if (cudaRoot.getNumOccurrences() && !findPtxas() &&
      (emitKind == Emit::Cubin || emitKind == Emit::Fatbin || emitKind == Emit::C)) {
    errs() << "gemmc: error: [cuda-root] no executable " << cudaRoot
           << "/bin/ptxas; pass the CUDA toolkit's directory (the one "
              "holding bin/ptxas), or leave --cuda-root out to use "
           << cudaRoot.getDefault().getValue() << " or ptxas on PATH\n";
    return false;
  }
  if ((emitKind == Emit::Cubin || emitKind == Emit::Fatbin) && outputPath == "-" &&
      sys::Process::StandardOutIsDisplayed()) {
    errs() << "gemmc: error: a cubin is binary; name a file with -o (the "
              "manifest goes next to it, as FILE.json), or pipe -o - into "
              "a program\n";
    return false;
  }
  return true;
}

/// What the output asks of a valid spec: a fatbinary's portable PTX, a C
/// identifier for embedding, and (past --emit=mlir) the lowering's support
/// and --wgmma-n.
static bool checkSpecForOutput(gemmc::SpecFile &file, StringRef symbol) {
  const gemmc::KernelSpec &spec = file.spec();
  // An arch-specific target's PTX (compute_90a) runs on that arch only:
  // nothing for the JIT to carry to another GPU.
  if (emitKind == Emit::Fatbin && gemmc::archName(spec.arch).ends_with("a")) {
    errs() << file.bufferName() << ": error: [fatbin] " << gemmc::archName(spec.arch)
           << " is arch-specific: its PTX runs only on " << gemmc::archName(spec.arch)
           << ", so a fatbinary adds nothing; use -o FILE.cubin\n";
    return false;
  }
  if ((emitKind == Emit::C || emitKind == Emit::CHeader) && !isCIdentifier(symbol)) {
    errs() << "gemmc: error: [symbol] '" << symbol
           << "' is not a C identifier, so it cannot prefix the embedded "
              "kernel's symbols; pass --symbol=NAME (letters, digits, _)\n";
    return false;
  }
  if (emitKind == Emit::Mlir || emitKind == Emit::CHeader)
    return true;
  std::vector<gemmc::Violation> missing = gemmc::checkLoweringSupport(spec);
  for (const gemmc::Violation &v : missing)
    file.report(v);
  if (!missing.empty())
    return false;
  std::string why;
  if (wgmmaN != 0 &&
      gemmc::wgmmaColumns(spec, gemmc::describeKernelAbi(spec), wgmmaN, why) == 0) {
    errs() << "gemmc: error: --" << why << "\n";
    return false;
  }
  return true;
}

/// ptxas on the kernel's PTX, then the image (a cubin, or a fatbinary with
/// the PTX) and its manifest, or the embedding C source.
static int assembleAndWrite(mlir::MLIRContext &ctx, mlir::Location loc,
                            const gemmc::SpecFile &file, const std::string &ptx,
                            StringRef symbol) {
  const gemmc::KernelSpec &spec = file.spec();
  FailureOr<mlir::gemmc::PtxasResult> assembled = failure();
  {
    // A missing or failing ptxas is the toolkit's problem, not the spec's:
    // a plain diagnostic, not one under the spec's first line.
    mlir::ScopedDiagnosticHandler plain(&ctx, [](mlir::Diagnostic &d) {
      errs() << "gemmc: error: " << d.str() << "\n";
      return success();
    });
    assembled = mlir::gemmc::assembleWithPtxas(
        loc, ptx, gemmc::archName(spec.arch), cudaRoot);
  }
  if (failed(assembled))
    return 1;
  if (ptxasVerbose)
    errs() << assembled->report;
  if (reportHasProblems(assembled->report))
    errs() << file.bufferName()
           << ": warning: ptxas reports spills or C75xx warnings (a "
              "performance bug); rerun with --ptxas-verbose:\n"
           << assembled->report;
  gemmc::KernelAbi abi = gemmc::describeKernelAbi(spec);
  gemmc::ManifestProvenance provenance;
  provenance.gemmcVersion = std::string(GEMMC_VERSION) + "+" + GEMMC_GIT_COMMIT;
  provenance.specSha256 = toHex(SHA256::hash(arrayRefFromStringRef(file.text())),
                                /*LowerCase=*/true);
  std::string image = assembled->cubin;
  if (emitKind == Emit::Fatbin) {
    std::string why;
    std::optional<std::string> fat =
        packFatbinary(assembled->cubin, ptx, gemmc::archName(spec.arch), why);
    if (!fat) {
      errs() << "gemmc: error: [fatbin] " << why << "\n";
      return 1;
    }
    image = std::move(*fat);
    provenance.ptx = "compute_" + gemmc::archName(spec.arch).drop_front(3).str();
  }
  std::string manifest = gemmc::kernelManifestJson(spec, abi, provenance);
  if (emitKind == Emit::C)
    return writeOutput(outputPath, embedSource(symbol, spec.name, assembled->cubin, manifest)) ? 0 : 1;
  std::string manifestFile = manifestPath.getNumOccurrences() ? manifestPath.getValue()
                             : outputPath == "-"             ? ""
                                                             : outputPath + ".json";
  if (manifestFile.empty())
    errs() << "gemmc: warning: the cubin went to stdout without its manifest; "
              "pass --manifest=FILE to keep it (the runtime needs both)\n";
  if (!writeOutput(outputPath, image) ||
      (!manifestFile.empty() && !writeOutput(manifestFile, manifest)))
    return 1;
  return 0;
}

static int compile() {
  if (!checkOutputOptions())
    return 1;
  // SpecFile::open reads at most the size limit + 1 byte; the manifest's
  // spec hash covers the bytes it read.
  std::unique_ptr<gemmc::SpecFile> file = gemmc::SpecFile::open(specPath, errs());
  if (!file || !file->parse())
    return 1;
  const gemmc::KernelSpec &spec = file->spec();
  std::string symbol = symbolName.empty() ? spec.name : symbolName.getValue();
  if (!checkSpecForOutput(*file, symbol))
    return 1;
  if (emitKind == Emit::CHeader) {
    std::string guard = StringRef(symbol).upper() + "_GEMMC_KERNEL_H";
    return writeOutput(outputPath, embedBanner(symbol, spec.name) + "#ifndef " +
                                       guard + "\n#define " + guard + "\n" +
                                       embedDeclarations(symbol) + "#endif\n")
               ? 0
               : 1;
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
  return assembleAndWrite(ctx, loc, *file, *ptx, symbol);
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  mlir::registerPassManagerCLOptions();
  mlir::gemmc::registerGemmcPasses();
  // The IR dumps are the way to debug a lowering: --help lists them with
  // gemmc's options (MLIR's other options stay under --help-hidden).
  for (const char *name : {"mlir-print-ir-before-all", "mlir-print-ir-after-all",
                           "mlir-print-ir-after-failure"})
    if (cl::Option *o = cl::getRegisteredOptions().lookup(name))
      o->addCategory(gemmc::tool::gemmcOptions);
  cl::SetVersionPrinter(printVersion);
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions);
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions,
                           gemmc::tool::analyzeCommand);
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions,
                           gemmc::tool::tuneCommand);
  cl::HideUnrelatedOptions(gemmc::tool::gemmcOptions,
                           gemmc::tool::bundleCommand);
  cl::ParseCommandLineOptions(argc, argv,
                              "gemmc: a GEMM kernel compiler\n\n"
                              "  gemmc SPEC -o gemm.cubin\n"
                              "  gemmc analyze SPEC --shape 8192x8192x8192\n"
                              "  gemmc tune --m 1..256 --n 8192 --k 8192 -o DIR\n"
                              "  gemmc bundle DISPATCH.yaml -o DIR\n");
  if (gemmc::tool::analyzeCommand)
    return gemmc::tool::finishStdout(gemmc::tool::runAnalyze());
  if (gemmc::tool::tuneCommand)
    return gemmc::tool::finishStdout(gemmc::tool::runTune());
  if (gemmc::tool::bundleCommand)
    return gemmc::tool::finishStdout(gemmc::tool::runBundle());
  if (archOption.getNumOccurrences()) {
    errs() << "gemmc: error: [arch-option] gemmc has no --arch: the target is "
              "the spec's 'arch' field; write 'arch: "
           << (archOption.empty() ? "sm_90a" : archOption.getValue())
           << "' in the spec (docs/spec.md lists the targets)\n";
    return 1;
  }
  if (listRules) {
    // gemmc --list-rules [RULE]: the positional names a rule here.
    bool found = false;
    for (const gemmc::RuleInfo &r : gemmc::allRules())
      if (specPath.empty() || specPath == r.name) {
        outs() << formatv("{0,-20} {1}\n", r.name, r.summary);
        found = true;
      }
    if (!found) {
      errs() << "gemmc: error: [list-rules] no rule named '" << specPath
             << "'; gemmc --list-rules lists them all\n";
      return 1;
    }
    return gemmc::tool::finishStdout(0);
  }
  if (specPath.empty()) {
    errs() << "gemmc: error: no spec given; usage: gemmc SPEC -o FILE "
              "(see gemmc --help)\n";
    return 1;
  }
  return gemmc::tool::finishStdout(compile());
}
