//===- Commands.h - gemmc's verbs ----------------------------------------===//
#ifndef GEMMC_TOOLS_COMMANDS_H
#define GEMMC_TOOLS_COMMANDS_H

#include "gemmc/Model/Model.h"
#include "llvm/Support/CommandLine.h"
#include <optional>
#include <string>

namespace gemmc::tool {
/// gemmc's own options: `--help` lists these only (LLVM's and MLIR's stay
/// usable and appear under --help-hidden).
extern llvm::cl::OptionCategory gemmcOptions;
/// `gemmc analyze SPEC [--shape MxNxK ...] [--json] [--plot FILE.svg]`
extern llvm::cl::SubCommand analyzeCommand;
int runAnalyze();
/// `gemmc tune --shape MxNxK ... | --m LO..HI --n N --k K [-o DIR]`
extern llvm::cl::SubCommand tuneCommand;
int runTune();
/// `gemmc bundle DISPATCH.yaml -o DIR`
extern llvm::cl::SubCommand bundleCommand;
int runBundle();
/// Writes `text` to `path`; on failure prints "WHO: error: cannot write
/// PATH: why" and returns false.
bool writeTextFile(llvm::StringRef who, const std::string &path,
                   llvm::StringRef text);
/// "MxNxK" with three decimal integers (ranges are the rules' to check);
/// on failure `why` says what is wrong.
std::optional<ProblemShape> parseShape(llvm::StringRef text, std::string &why);
/// Flushes standard output; a write error there becomes a diagnostic and a
/// failing exit code instead of LLVM's fatal error at exit.
int finishStdout(int rc);
} // namespace gemmc::tool

#endif // GEMMC_TOOLS_COMMANDS_H
