//===- Commands.h - gemmc's verbs ----------------------------------------===//
#ifndef GEMMC_TOOLS_COMMANDS_H
#define GEMMC_TOOLS_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace gemmc::tool {
/// `gemmc analyze SPEC [--shape MxNxK ...] [--json] [--plot FILE.svg]`
extern llvm::cl::SubCommand analyzeCommand;
int runAnalyze();
} // namespace gemmc::tool

#endif // GEMMC_TOOLS_COMMANDS_H
