//===- Analyze.cpp - `gemmc analyze`: the performance model's report -----===//
#include "Commands.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

cl::SubCommand gemmc::tool::analyzeCommand(
    "analyze", "Predict and explain a schedule's performance before it runs");

static cl::opt<std::string> specPath(cl::Positional, cl::desc("<spec.yaml>"),
                                     cl::Required,
                                     cl::sub(gemmc::tool::analyzeCommand));

int gemmc::tool::runAnalyze() {
  errs() << "gemmc analyze: error: the performance model is not built yet\n";
  return 1;
}
