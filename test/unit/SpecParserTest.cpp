//===- SpecParserTest.cpp - spec.yaml to a KernelSpec, with diagnostics ---===//
#include "gemmc/Spec/SpecParser.h"
#include <gtest/gtest.h>

using namespace gemmc;

namespace {
const char *kMinimal = "schema_version: 1\n"
                       "name: k\n"
                       "arch: sm_90a\n"
                       "operands:\n"
                       "  a: {element: bf16}\n"
                       "  b: {element: bf16, layout: col}\n"
                       "  c: {element: bf16}\n"
                       "tile_shape: [128, 128, 64]\n";

struct Parsed {
  bool ok;
  std::string diags;
  KernelSpec spec, written;
};
Parsed parse(const std::string &text) {
  std::string diags;
  llvm::raw_string_ostream os(diags);
  auto file = SpecFile::fromString(text, "t.yaml", os);
  bool ok = file->parse();
  return {ok, diags, file->spec(), file->specAsWritten()};
}
/// The first line of the diagnostics: "file:line:col: error: message".
std::string firstLine(const std::string &diags) {
  return diags.substr(0, diags.find('\n'));
}
} // namespace

TEST(SpecParser, Defaults) {
  Parsed p = parse(kMinimal);
  ASSERT_TRUE(p.ok) << p.diags;
  EXPECT_EQ(p.diags, "");
  const KernelSpec &w = p.written;
  EXPECT_EQ(w.a.layout, Layout::Row);
  EXPECT_EQ(w.accumulator, ElementType::F32);
  EXPECT_TRUE(w.m.isDynamic() && w.n.isDynamic() && w.k.isDynamic());
  EXPECT_EQ(w.clusterShape, (std::array<int64_t, 2>{1, 1}));
  EXPECT_EQ(w.threads, 0);
  EXPECT_EQ(w.mainloop.stages, 0);
  EXPECT_EQ(w.mainloop.load, LoadKind::Auto);
  EXPECT_EQ(w.mainloop.swizzle, Swizzle::Auto);
  EXPECT_FALSE(w.mainloop.multicast);
  EXPECT_EQ(w.kernelSchedule, KernelSchedule::Multistage);
  EXPECT_EQ(w.tileScheduler.kind, TileSchedulerKind::DataParallel);
  EXPECT_EQ(w.tileScheduler.raster, Raster::AlongM);
  EXPECT_EQ(w.tileScheduler.group, 8);
  EXPECT_EQ(w.tileScheduler.splitK, 1);
  EXPECT_EQ(w.epilogue.store, StoreKind::Auto);
  EXPECT_TRUE(w.epilogue.alpha);
  EXPECT_FALSE(w.epilogue.beta);
  EXPECT_EQ(w.epilogue.bias, Bias::None);
  EXPECT_EQ(w.epilogue.activation, Activation::None);
  // Resolved: the arch's default device and its choices.
  EXPECT_EQ(p.spec.deviceInfo().name, "h100");
  EXPECT_EQ(p.spec.epilogue.store, StoreKind::Tma);
  EXPECT_EQ(p.spec.mainloop.stages, 6); // next to the 32 KiB store ring
  EXPECT_EQ(p.spec.threads, 256);
}

TEST(SpecParser, EverySpelling) {
  std::string text = std::string(kMinimal) +
                     "problem: {m: dynamic, n: 4096, k: 8192}\n"
                     "cluster_shape: [2, 1]\n"
                     "threads: auto\n"
                     "mainloop: {stages: 3, load: tma, multicast: true, "
                     "smem_swizzle: 64b}\n"
                     "kernel_schedule: warp_specialized_pingpong\n"
                     "tile_scheduler: {kind: stream_k, raster: along_n, "
                     "group: 4, split_k: 2}\n"
                     "epilogue: {store: tma, alpha: false, beta: true, bias: "
                     "col, activation: silu}\n";
  Parsed p = parse(text);
  const KernelSpec &w = p.written;
  EXPECT_TRUE(w.m.isDynamic());
  EXPECT_EQ(w.n.value, 4096);
  EXPECT_EQ(w.k.value, 8192);
  EXPECT_EQ(w.clusterShape, (std::array<int64_t, 2>{2, 1}));
  EXPECT_EQ(w.mainloop.stages, 3);
  EXPECT_EQ(w.mainloop.load, LoadKind::Tma);
  EXPECT_TRUE(w.mainloop.multicast);
  EXPECT_EQ(w.mainloop.swizzle, Swizzle::B64);
  EXPECT_EQ(w.kernelSchedule, KernelSchedule::WarpSpecializedPingpong);
  EXPECT_EQ(w.tileScheduler.kind, TileSchedulerKind::StreamK);
  EXPECT_EQ(w.tileScheduler.raster, Raster::AlongN);
  EXPECT_EQ(w.tileScheduler.group, 4);
  EXPECT_EQ(w.tileScheduler.splitK, 2);
  EXPECT_EQ(w.epilogue.store, StoreKind::Tma);
  EXPECT_FALSE(w.epilogue.alpha);
  EXPECT_TRUE(w.epilogue.beta);
  EXPECT_EQ(w.epilogue.bias, Bias::Col);
  EXPECT_EQ(w.epilogue.activation, Activation::Silu);
  // Every enum spelling maps back to itself.
  for (auto s : {"multistage", "warp_specialized", "warp_specialized_cooperative",
                 "warp_specialized_pingpong"})
    EXPECT_EQ(kernelScheduleName(*parseKernelSchedule(s)), s);
  for (auto s : {"data_parallel", "persistent", "stream_k"})
    EXPECT_EQ(tileSchedulerKindName(*parseTileSchedulerKind(s)), s);
  for (auto s : {"auto", "none", "32b", "64b", "128b"})
    EXPECT_EQ(swizzleName(*parseSwizzle(s)), s);
  for (auto s : {"auto", "tma", "cp_async"})
    EXPECT_EQ(loadKindName(*parseLoadKind(s)), s);
  for (auto s : {"auto", "tma", "direct"})
    EXPECT_EQ(storeKindName(*parseStoreKind(s)), s);
  for (auto s : {"none", "relu", "gelu", "silu"})
    EXPECT_EQ(activationName(*parseActivation(s)), s);
  for (auto s : {"none", "row", "col"})
    EXPECT_EQ(biasName(*parseBias(s)), s);
  for (auto s : {"along_m", "along_n"})
    EXPECT_EQ(rasterName(*parseRaster(s)), s);
}

TEST(SpecParser, RuleViolationAtItsField) {
  Parsed p = parse(std::string(kMinimal) + "mainloop: {stages: 33}\n");
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(firstLine(p.diags),
            "t.yaml:9:20: error: [value-range] stages = 33 is outside [1, "
            "32]; use auto or a value in range");
}

TEST(SpecParser, UnknownKeyDidYouMean) {
  Parsed p = parse(std::string(kMinimal) + "epilog: {alpha: true}\n");
  EXPECT_EQ(firstLine(p.diags),
            "t.yaml:9:1: error: [unknown-key] unknown key 'epilog' at the top "
            "level; did you mean 'epilogue'?");
}

TEST(SpecParser, UnknownEnumDidYouMean) {
  std::string text = kMinimal;
  text.replace(text.find("sm_90a"), 6, "sm_90");
  Parsed p = parse(text);
  EXPECT_EQ(firstLine(p.diags),
            "t.yaml:3:7: error: unknown value 'sm_90'; did you mean 'sm_90a'? "
            "(expected one of sm_80, sm_90a, sm_100a)");
}

TEST(SpecParser, MalformedInputs) {
  EXPECT_EQ(firstLine(parse("").diags),
            "t.yaml:1:1: error: the spec is empty; a spec is a YAML mapping "
            "starting with 'schema_version: 1' (see docs/spec.md)");
  EXPECT_EQ(firstLine(parse("- a\n- b\n").diags),
            "t.yaml:1:1: error: a spec is a YAML mapping of 'key: value' lines "
            "starting with 'schema_version: 1'");
  EXPECT_EQ(firstLine(parse(std::string("a: 1\n\0", 6)).diags),
            "t.yaml:2:1: error: the file contains a NUL byte; a spec is a YAML "
            "text file");
  std::string huge = kMinimal;
  huge.replace(huge.find("[128,"), 5, "[99999999999999999999,");
  EXPECT_EQ(firstLine(parse(huge).diags),
            "t.yaml:8:14: error: '99999999999999999999' is outside the 64-bit "
            "integer range");
  EXPECT_EQ(firstLine(parse(std::string(kMinimal) + "mainloop: {stages: {a: 1}}\n").diags),
            "t.yaml:9:21: error: mainloop.stages takes a single value, not a "
            "mapping");
  EXPECT_EQ(firstLine(parse(std::string(1 << 20 | 1, '#')).diags),
            "t.yaml:1:1: error: the file is 1048577 bytes; a spec is a small "
            "YAML file of at most 1048576 bytes");
}

TEST(SpecParser, DecimalIntegersOnly) {
  std::string text = kMinimal;
  text.replace(text.find("[128, 128, 64]"), 14, "[0128, 128, 64]");
  Parsed p = parse(text);
  EXPECT_TRUE(p.ok) << p.diags; // 0128 is 128, not an octal error
  EXPECT_EQ(p.written.blockM(), 128);
}
