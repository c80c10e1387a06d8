//===- AnalyzeShapeFuzzer.cpp - libFuzzer target: analyze's --shape -------===//
//
// The first byte picks one of the specs in specs/, the rest is the text of
// --shape MxNxK. A shape that parses goes through the same rules and model
// as `gemmc analyze`, and both reports are printed (to nowhere).
//
// Analyze.cpp is included whole: its shape parser and printers are private
// to it, and the fuzzer must test them, not a copy.
//
//===----------------------------------------------------------------------===//
#include "../../tools/gemmc/Analyze.cpp"

#include "llvm/Support/Path.h"

llvm::cl::OptionCategory gemmc::tool::gemmcOptions("gemmc options");

static std::vector<KernelSpec> loadSpecs() {
  std::vector<KernelSpec> specs;
  std::error_code ec;
  for (sys::fs::directory_iterator it(GEMMC_SOURCE_DIR "/specs", ec), end;
       it != end && !ec; it.increment(ec)) {
    if (sys::path::extension(it->path()) != ".yaml")
      continue;
    raw_null_ostream diagnostics;
    auto file = SpecFile::open(it->path(), diagnostics);
    if (file && file->parse())
      specs.push_back(file->spec());
  }
  if (specs.empty()) {
    errs() << "AnalyzeShapeFuzzer: no spec parsed in " GEMMC_SOURCE_DIR "/specs\n";
    std::abort();
  }
  return specs;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const std::vector<KernelSpec> specs = loadSpecs();
  if (size == 0)
    return 0;
  KernelSpec s = specs[data[0] % specs.size()];
  std::string why;
  std::optional<ProblemShape> p =
      gemmc::tool::parseShape(StringRef(reinterpret_cast<const char *>(data) + 1, size - 1), why);
  if (!p)
    return 0;
  s.m.value = p->m;
  s.n.value = p->n;
  s.k.value = p->k;
  if (!checkSpec(s).empty())
    return 0;
  Expected<Analysis> a = gemmc::analyze(s, *p);
  if (!a) {
    consumeError(a.takeError());
    return 0;
  }
  std::vector<Row> rows;
  rows.push_back({shapeName(*p), std::move(*a)});
  raw_null_ostream os;
  printJson(os, s, rows);
  printHeader(os, s, rows.front().a);
  printReport(os, s, rows.front());
  return 0;
}
