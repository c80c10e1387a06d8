//===- SpecFuzzer.cpp - libFuzzer target: spec parser and validator -------===//
//
// Any bytes as a spec: parse, resolve auto, check every rule. A spec that
// passes and lowers must also give a manifest the runtime accepts, since
// gemmc writes that manifest next to every cubin.
//
//===----------------------------------------------------------------------===//
#include "gemmc/Spec/KernelAbi.h"
#include "gemmc/Spec/SpecParser.h"
#include "gemmc/runtime/Manifest.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  llvm::raw_null_ostream diagnostics;
  auto file = gemmc::SpecFile::fromString(text, "fuzz.yaml", diagnostics);
  if (!file->parse() || !gemmc::checkLoweringSupport(file->spec()).empty())
    return 0;
  const gemmc::KernelSpec &spec = file->spec();
  std::string json = gemmc::kernelManifestJson(spec, gemmc::describeKernelAbi(spec));
  gemmc::rt::Manifest manifest;
  std::string error;
  if (!gemmc::rt::parseManifest(json, "fuzz.cubin.json", manifest, error)) {
    // A finding, not a crash of the code under test: say what and stop.
    std::fprintf(stderr, "spec accepted but its manifest is refused: %s\n%s\n",
                 error.c_str(), json.c_str());
    std::abort();
  }
  return 0;
}
