//===- ManifestFuzzer.cpp - libFuzzer target: the runtime's JSON reader ---===//
//
// Any bytes as a manifest: the JSON parser, then the manifest's checks, and
// the launch planning every accepted manifest feeds.
//
//===----------------------------------------------------------------------===//
#include "gemmc/runtime/Json.h"
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  gemmc::rt::JsonValue json;
  (void)gemmc::rt::parseJson(text, json, error);
  gemmc::rt::Manifest m;
  if (!gemmc::rt::parseManifest(text, "fuzz.cubin.json", m, error))
    return 0;
  for (int sms : {1, 132}) {
    gemmc::rt::LaunchDims dims;
    (void)gemmc::rt::computeLaunch(m, 8192, 8192, sms, dims, error);
    (void)gemmc::rt::workspaceBytes(m, sms);
  }
  return 0;
}
