// Manifest parsing: the documented example parses; each kind of mistake the
// compiler side could make is reported with the field and the value.
#include "gemmc/runtime/Manifest.h"

#include <gtest/gtest.h>

using namespace gemmc::rt;

namespace {

const char *kExample = R"({
  "format": "gemmc-manifest", "version": 1,
  "kernel": "gemm_bf16_tn_128x128",
  "arch": "sm_90a",
  "block": [256, 1, 1],
  "cluster": [1, 1, 1],
  "dynamic_smem_bytes": 132096,
  "tile": [128, 128, 64],
  "problem": {"m": -1, "n": -1, "k": -1},
  "a": {"element": "bf16", "layout": "row"},
  "b": {"element": "bf16", "layout": "col"},
  "c": {"element": "bf16", "layout": "row"},
  "tensor_maps": [
    {"operand": "a", "box": [64, 128], "swizzle": 128},
    {"operand": "b", "box": [64, 128], "swizzle": 128}
  ],
  "grid": {"scheduler": "data_parallel", "raster": "along_m", "group": 8},
  "params": ["tmap_a", "tmap_b", "c", "m", "n", "k", "ldc", "alpha"]
})";

std::string replace(std::string s, const std::string &from, const std::string &to) {
  size_t p = s.find(from);
  EXPECT_NE(p, std::string::npos) << from;
  if (p != std::string::npos)
    s.replace(p, from.size(), to);
  return s;
}

std::string errorOf(const std::string &text) {
  Manifest m;
  std::string err;
  EXPECT_FALSE(parseManifest(text, "k.cubin.json", m, err));
  return err;
}

TEST(RuntimeManifest, ParsesTheDocumentedExample) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(kExample, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.kernel, "gemm_bf16_tn_128x128");
  EXPECT_EQ(m.archMajor, 9);
  EXPECT_EQ(m.archMinor, 0);
  EXPECT_TRUE(m.archSpecific);
  EXPECT_EQ(m.block[0], 256);
  EXPECT_EQ(m.dynamicSmemBytes, 132096);
  EXPECT_EQ(m.tile[2], 64);
  EXPECT_EQ(m.problem[0], -1);
  EXPECT_EQ(m.a.element, GEMMC_BF16);
  EXPECT_EQ(m.a.layout, GEMMC_ROW);
  EXPECT_EQ(m.b.layout, GEMMC_COL);
  EXPECT_EQ(m.tmap(Operand::B).box[1], 128u);
  EXPECT_EQ(m.tmap(Operand::A).swizzle, 128);
  EXPECT_EQ(m.scheduler, Scheduler::DataParallel);
  EXPECT_EQ(m.group, 8);
  EXPECT_TRUE(m.hasParam(Param::Alpha));
  EXPECT_FALSE(m.hasParam(Param::Beta));
  ASSERT_EQ(m.params.size(), 8u);
  EXPECT_EQ(m.params[7], Param::Alpha);
}

TEST(RuntimeManifest, TensorMapsInEitherOrderAndPersistent) {
  std::string t = replace(kExample, R"({"operand": "a", "box": [64, 128], "swizzle": 128},
    {"operand": "b", "box": [64, 128], "swizzle": 128})",
                          R"({"operand": "b", "box": [32, 64], "swizzle": 64},
    {"operand": "a", "box": [64, 128], "swizzle": 128})");
  t = replace(t, "\"data_parallel\"", "\"persistent\"");
  t = replace(t, "\"m\": -1", "\"m\": 4096");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.tmap(Operand::B).box[0], 32u);
  EXPECT_EQ(m.tmap(Operand::B).swizzle, 64);
  EXPECT_EQ(m.tmap(Operand::A).box[0], 64u);
  EXPECT_EQ(m.scheduler, Scheduler::Persistent);
  EXPECT_EQ(m.problem[0], 4096);
}

// Issue 16: a swap_ab kernel's manifest is in the caller's terms (its
// first tensor map is the caller's B, its m parameter the caller's N), as
// gemmc writes it for test/gpu/small/swab_tn_16x128_sk.yaml; split_k
// comes with stream_k only.
TEST(RuntimeManifest, SwapAbAndSplitK) {
  std::string swapped = replace(kExample, R"("params": ["tmap_a", "tmap_b", "c", "m", "n", "k", "ldc", "alpha"])",
                                R"("params": ["tmap_b", "tmap_a", "c", "n", "m", "k", "ldc", "alpha"], "swap_ab": true)");
  swapped = replace(swapped, R"({"operand": "a", "box": [64, 128], "swizzle": 128})",
                    R"({"operand": "a", "box": [64, 16], "swizzle": 128})");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(swapped, "k.cubin.json", m, err)) << err;
  EXPECT_TRUE(m.swapAb);
  EXPECT_EQ(m.splitK, 1);
  ASSERT_EQ(m.params.size(), 8u);
  EXPECT_EQ(m.params[0], Param::TmapB);
  EXPECT_EQ(m.params[1], Param::TmapA);
  EXPECT_EQ(m.params[3], Param::N);
  EXPECT_EQ(m.params[4], Param::M);
  EXPECT_EQ(m.tmap(Operand::A).box[1], 16u);
  EXPECT_EQ(errorOf(replace(kExample, R"("params")", R"("swap_ab": 1, "params")")),
            "k.cubin.json: field 'swap_ab': expected true or false, got 1");

  std::string split = replace(kExample, R"("scheduler": "data_parallel", "raster": "along_m", "group": 8)",
                              R"("scheduler": "stream_k", "raster": "along_m", "group": 8, "split_k": 4)");
  split = replace(split, R"("alpha"])", R"("alpha", "workspace"], "workspace_bytes_per_cta": 65664)");
  ASSERT_TRUE(parseManifest(split, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.splitK, 4);
  EXPECT_EQ(errorOf(replace(kExample, R"("group": 8)", R"("group": 8, "split_k": 2)")),
            "k.cubin.json: field 'grid.split_k': split_k 2 needs grid.scheduler stream_k (its workspace and fixup)");
}

TEST(RuntimeManifest, InvalidJsonNamesFileAndPosition) {
  std::string e = errorOf("{\"format\": }");
  EXPECT_EQ(e, "k.cubin.json: not valid JSON: line 1, column 12: unexpected character '}', expected a value");
}

TEST(RuntimeManifest, MissingField) {
  std::string e = errorOf(replace(kExample, "\"dynamic_smem_bytes\": 132096,", ""));
  EXPECT_EQ(e, "k.cubin.json: missing required field 'dynamic_smem_bytes'");
}

TEST(RuntimeManifest, UnknownField) {
  std::string e = errorOf(replace(kExample, "\"version\": 1,", "\"version\": 1, \"stages\": 4,"));
  EXPECT_EQ(e, "k.cubin.json: field 'stages': unknown field (manifest version 1 has no such field)");
  e = errorOf(replace(kExample, "\"group\": 8", "\"group\": 8, \"stride\": 1"));
  EXPECT_EQ(e, "k.cubin.json: field 'grid.stride': unknown field (manifest version 1 has no such field)");
}

TEST(RuntimeManifest, ExtraIsAllowed) {
  Manifest m;
  std::string err;
  EXPECT_TRUE(parseManifest(replace(kExample, "\"version\": 1,", "\"version\": 1, \"extra\": {\"spec\": \"x.yaml\"},"),
                            "k", m, err))
      << err;
}

TEST(RuntimeManifest, DeviceIsAnOptionalString) {
  Manifest m;
  std::string err;
  EXPECT_TRUE(parseManifest(replace(kExample, "\"version\": 1,", "\"version\": 1, \"device\": \"h200\","), "k", m, err))
      << err;
  EXPECT_EQ(errorOf(replace(kExample, "\"version\": 1,", "\"version\": 1, \"device\": 200,")),
            "k.cubin.json: field 'device': expected a string (the device the kernel was tuned for), got 200");
}

TEST(RuntimeManifest, ProvenanceIsOptionalStrings) {
  Manifest m;
  std::string err;
  EXPECT_TRUE(parseManifest(replace(kExample, "\"version\": 1,",
                                    "\"version\": 1, \"gemmc_version\": \"0.1.0+3ff8ff3\", "
                                    "\"spec_sha256\": \"00ff\","),
                            "k", m, err))
      << err;
  EXPECT_EQ(errorOf(replace(kExample, "\"version\": 1,", "\"version\": 1, \"gemmc_version\": 1,")),
            "k.cubin.json: field 'gemmc_version': expected a string (the gemmc that compiled the kernel), got 1");
  EXPECT_EQ(errorOf(replace(kExample, "\"version\": 1,", "\"version\": 1, \"spec_sha256\": [],")),
            "k.cubin.json: field 'spec_sha256': expected a string (the SHA-256 of the spec file), got []");
}

TEST(RuntimeManifest, WrongFormatAndVersion) {
  EXPECT_EQ(errorOf(replace(kExample, "\"gemmc-manifest\"", "\"other\"")),
            "k.cubin.json: field 'format': expected \"gemmc-manifest\", got \"other\"");
  EXPECT_EQ(errorOf(replace(kExample, "\"version\": 1", "\"version\": 2")),
            "k.cubin.json: field 'version': this runtime reads manifest version 1, got 2");
}

TEST(RuntimeManifest, BadArch) {
  EXPECT_EQ(errorOf(replace(kExample, "\"sm_90a\"", "\"hopper\"")),
            "k.cubin.json: field 'arch': expected sm_<major><minor>[a] such as \"sm_90a\", got \"hopper\"");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(replace(kExample, "\"sm_90a\"", "\"sm_100a\""), "k", m, err)) << err;
  EXPECT_EQ(m.archMajor, 10);
  ASSERT_TRUE(parseManifest(replace(kExample, "\"sm_90a\"", "\"sm_80\""), "k", m, err)) << err;
  EXPECT_EQ(m.archMajor, 8);
  EXPECT_FALSE(m.archSpecific);
}

TEST(RuntimeManifest, BadBlockAndCluster) {
  EXPECT_EQ(errorOf(replace(kExample, "[256, 1, 1]", "[256, 1]")),
            "k.cubin.json: field 'block': expected an array of 3 integers in 1..1024, got [256, 1]");
  EXPECT_EQ(errorOf(replace(kExample, "[256, 1, 1]", "[256, 0, 1]")),
            "k.cubin.json: field 'block[1]': expected an array of 3 integers in 1..1024, got 0");
  EXPECT_EQ(errorOf(replace(kExample, "[256, 1, 1]", "[512, 4, 1]")),
            "k.cubin.json: field 'block': block has 2048 threads; at most 1024");
  // A cluster along N is launched along x (launchCluster); z is not.
  EXPECT_EQ(errorOf(replace(kExample, "\"cluster\": [1, 1, 1]", "\"cluster\": [2, 2, 2]")),
            "k.cubin.json: field 'cluster': the grid is one-dimensional, so cluster[2] must be 1, got [2, 2, 2]");
  EXPECT_EQ(errorOf(replace(kExample, "\"cluster\": [1, 1, 1]", "\"cluster\": [32, 1, 1]")),
            "k.cubin.json: field 'cluster[0]': expected an array of 3 integers in 1..16, got 32");
}

TEST(RuntimeManifest, BadNumbersAreNotIntegers) {
  EXPECT_EQ(errorOf(replace(kExample, "132096", "1.5")),
            "k.cubin.json: field 'dynamic_smem_bytes': expected an integer in 0..16777216, got 1.5");
  EXPECT_EQ(errorOf(replace(kExample, "132096", "\"132096\"")),
            "k.cubin.json: field 'dynamic_smem_bytes': expected an integer in 0..16777216, got \"132096\"");
}

TEST(RuntimeManifest, BadProblem) {
  EXPECT_EQ(errorOf(replace(kExample, "\"k\": -1", "\"k\": 0")),
            "k.cubin.json: field 'problem.k': expected -1 (run-time) or a size in 1..2147483647, got 0");
  EXPECT_EQ(errorOf(replace(kExample, "\"k\": -1", "\"kk\": -1")),
            "k.cubin.json: field 'problem': missing required field 'k'");
}

TEST(RuntimeManifest, BadOperands) {
  EXPECT_EQ(errorOf(replace(kExample, "\"a\": {\"element\": \"bf16\"", "\"a\": {\"element\": \"fp8\"")),
            "k.cubin.json: field 'a.element': unknown element type \"fp8\" (expected bf16, f16, f32, tf32, e4m3 or e5m2)");
  EXPECT_EQ(errorOf(replace(kExample, "\"layout\": \"col\"", "\"layout\": \"column\"")),
            "k.cubin.json: field 'b.layout': expected \"row\" or \"col\", got \"column\"");
  EXPECT_EQ(errorOf(replace(kExample, "\"c\": {\"element\": \"bf16\", \"layout\": \"row\"}",
                            "\"c\": {\"element\": \"bf16\", \"layout\": \"col\"}")),
            "k.cubin.json: field 'c.layout': C must be row-major (\"row\") in manifest version 1");
  EXPECT_EQ(errorOf(replace(kExample, "\"a\": {\"element\": \"bf16\", \"layout\": \"row\"}", "\"a\": \"bf16\"")),
            "k.cubin.json: field 'a': expected an object, got a string");
}

TEST(RuntimeManifest, BadTensorMaps) {
  EXPECT_EQ(errorOf(replace(kExample, "{\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 128}")),
            "k.cubin.json: field 'tensor_maps[1].operand': a second tensor map for operand a");
  EXPECT_EQ(errorOf(replace(kExample, "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"a\", \"box\": [64, 512], \"swizzle\": 128}")),
            "k.cubin.json: field 'tensor_maps[0].box[1]': expected an array of 2 integers in 1..256 (elements, innermost first), got 512");
  EXPECT_EQ(errorOf(replace(kExample, "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 16}")),
            "k.cubin.json: field 'tensor_maps[0].swizzle': expected 0, 32, 64 or 128, got 16");
  // 128 bf16 = 256 bytes does not fit the 128-byte swizzle span.
  EXPECT_EQ(errorOf(replace(kExample, "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"a\", \"box\": [128, 128], \"swizzle\": 128}")),
            "k.cubin.json: field 'tensor_maps[0].box': the inner box row is 256 bytes, more than the 128-byte swizzle span");
  // 4 bf16 = 8 bytes is not a whole 16-byte TMA unit.
  EXPECT_EQ(errorOf(replace(kExample, "{\"operand\": \"a\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"a\", \"box\": [4, 128], \"swizzle\": 0}")),
            "k.cubin.json: field 'tensor_maps[0].box': the inner box row is 8 bytes; TMA needs a multiple of 16");
}

TEST(RuntimeManifest, OneTensorMapOnly) {
  std::string t = replace(kExample, ",\n    {\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128}", "");
  EXPECT_EQ(errorOf(t).rfind("k.cubin.json: field 'tensor_maps': expected an array of 2 tensor maps", 0), 0u)
      << errorOf(t);
}

// A kernel whose epilogue stores C with TMA: "tmap_c" after "tmap_b" and a
// third tensor map for operand c, box [128 / bytes(c), 64].
std::string withTmapC(std::string t) {
  t = replace(t, "{\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128}",
              "{\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128},\n"
              "    {\"operand\": \"c\", \"box\": [64, 64], \"swizzle\": 128}");
  return replace(t, "\"tmap_b\", \"c\"", "\"tmap_b\", \"tmap_c\", \"c\"");
}

TEST(RuntimeManifest, TmapCParses) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(withTmapC(kExample), "k.cubin.json", m, err)) << err;
  EXPECT_TRUE(m.hasParam(Param::TmapC));
  ASSERT_EQ(m.params.size(), 9u);
  EXPECT_EQ(m.params[0], Param::TmapA);
  EXPECT_EQ(m.params[1], Param::TmapB);
  EXPECT_EQ(m.params[2], Param::TmapC);
  EXPECT_EQ(m.params[3], Param::C);
  EXPECT_EQ(m.params[8], Param::Alpha);
  EXPECT_EQ(m.tmap(Operand::C).operand, Operand::C);
  EXPECT_EQ(m.tmap(Operand::C).box[0], 64u);
  EXPECT_EQ(m.tmap(Operand::C).box[1], 64u);
  EXPECT_EQ(m.tmap(Operand::C).swizzle, 128);
  EXPECT_EQ(m.operand(Operand::C).element, GEMMC_BF16);
  // A and B are unchanged by the third map.
  EXPECT_EQ(m.tmap(Operand::A).box[0], 64u);
  EXPECT_EQ(m.tmap(Operand::B).box[1], 128u);
  EXPECT_STREQ(paramName(Param::TmapC), "tmap_c");
  // Without tmap_c (the documented example) there is no C map parameter.
  ASSERT_TRUE(parseManifest(kExample, "k.cubin.json", m, err)) << err;
  EXPECT_FALSE(m.hasParam(Param::TmapC));
}

TEST(RuntimeManifest, TmapCF32AndAnyMapOrder) {
  // f32 C: 128 bytes = 32 elements. The c map may come first.
  std::string t = replace(kExample, "\"c\": {\"element\": \"bf16\"", "\"c\": {\"element\": \"f32\"");
  t = replace(t, "\"tensor_maps\": [", "\"tensor_maps\": [{\"operand\": \"c\", \"box\": [32, 64], \"swizzle\": 128},");
  t = replace(t, "\"tmap_b\", \"c\"", "\"tmap_b\", \"tmap_c\", \"c\"");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.c.element, GEMMC_F32);
  EXPECT_EQ(m.tmap(Operand::C).box[0], 32u);
  EXPECT_EQ(m.tmap(Operand::C).box[1], 64u);
  EXPECT_EQ(m.tmap(Operand::C).swizzle, 128);
  EXPECT_EQ(m.tmap(Operand::A).box[1], 128u);
  // 64 f32 = 256 bytes: more than the swizzle span, checked with c's element size.
  EXPECT_EQ(errorOf(replace(t, "\"box\": [32, 64]", "\"box\": [64, 64]")),
            "k.cubin.json: field 'tensor_maps[0].box': the inner box row is 256 bytes, more than the 128-byte swizzle span");
}

TEST(RuntimeManifest, TmapCWithoutCMap) {
  std::string t = replace(kExample, "\"tmap_b\", \"c\"", "\"tmap_b\", \"tmap_c\", \"c\"");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'tensor_maps': params has \"tmap_c\" but there is no tensor map for operand c");
}

TEST(RuntimeManifest, CMapWithoutTmapC) {
  std::string t = replace(withTmapC(kExample), "\"tmap_c\", ", "");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'params': missing the parameter \"tmap_c\" (tensor_maps has a map for operand c)");
}

TEST(RuntimeManifest, BadCTensorMaps) {
  std::string t = withTmapC(kExample);
  // Two maps, a and c: b has none.
  EXPECT_EQ(errorOf(replace(t, "{\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128},\n", "")),
            "k.cubin.json: field 'tensor_maps': no tensor map for operand b");
  EXPECT_EQ(errorOf(replace(t, "{\"operand\": \"b\", \"box\": [64, 128], \"swizzle\": 128}",
                            "{\"operand\": \"c\", \"box\": [64, 128], \"swizzle\": 128}")),
            "k.cubin.json: field 'tensor_maps[2].operand': a second tensor map for operand c");
  EXPECT_EQ(errorOf(replace(t, "{\"operand\": \"c\", \"box\": [64, 64]", "{\"operand\": \"d\", \"box\": [64, 64]")),
            "k.cubin.json: field 'tensor_maps[2].operand': expected \"a\", \"b\" or \"c\", got \"d\"");
  EXPECT_EQ(errorOf(replace(t, "\"box\": [64, 64]", "\"box\": [64, 0]")),
            "k.cubin.json: field 'tensor_maps[2].box[1]': expected an array of 2 integers in 1..256 (elements, innermost first), got 0");
  EXPECT_EQ(errorOf(replace(t, "\"box\": [64, 64]", "\"box\": [64, 257]")),
            "k.cubin.json: field 'tensor_maps[2].box[1]': expected an array of 2 integers in 1..256 (elements, innermost first), got 257");
  EXPECT_EQ(errorOf(replace(t, "\"tmap_c\", \"c\"", "\"tmap_c\", \"tmap_c\", \"c\"")),
            "k.cubin.json: field 'params[3]': parameter \"tmap_c\" listed twice");
  // Four maps.
  EXPECT_EQ(errorOf(replace(t, "{\"operand\": \"c\", \"box\": [64, 64], \"swizzle\": 128}",
                            "{\"operand\": \"c\", \"box\": [64, 64], \"swizzle\": 128}, {}"))
                .rfind("k.cubin.json: field 'tensor_maps': expected an array of 2 tensor maps (one for a, one for b) or 3 "
                       "(and one for c, with the parameter tmap_c), got [",
                       0),
            0u);
}

TEST(RuntimeManifest, BadGrid) {
  EXPECT_EQ(errorOf(replace(kExample, "\"data_parallel\"", "\"split_k\"")),
            "k.cubin.json: field 'grid.scheduler': expected \"data_parallel\", \"persistent\" or \"stream_k\", got \"split_k\"");
  EXPECT_EQ(errorOf(replace(kExample, "\"along_m\"", "\"along_k\"")),
            "k.cubin.json: field 'grid.raster': expected \"along_m\" or \"along_n\", got \"along_k\"");
  EXPECT_EQ(errorOf(replace(kExample, "\"group\": 8", "\"group\": 0")),
            "k.cubin.json: field 'grid.group': expected an integer in 1..65536, got 0");
}

TEST(RuntimeManifest, BadParams) {
  EXPECT_EQ(errorOf(replace(kExample, "\"ldc\", \"alpha\"", "\"ldc\", \"gamma\"")),
            "k.cubin.json: field 'params[7]': unknown parameter \"gamma\" (known: tmap_a, tmap_b, tmap_c, c, m, n, k, ldc, alpha, beta, bias, aux, workspace, a, b, lda, ldb, scale_a, scale_b, scale_d)");
  EXPECT_EQ(errorOf(replace(kExample, "\"ldc\", \"alpha\"", "\"ldc\", \"ldc\"")),
            "k.cubin.json: field 'params[7]': parameter \"ldc\" listed twice");
  EXPECT_EQ(errorOf(replace(kExample, "\"k\", \"ldc\", \"alpha\"", "\"k\", \"alpha\"")),
            "k.cubin.json: field 'params': missing the required parameter \"ldc\"");
}

// A stream-K kernel (tile_scheduler: stream_k, as the compiler writes it):
// scheduler stream_k, workspace_bytes_per_cta = 128 flag bytes + 128 x 128
// fp32 partials, and "workspace" as the last parameter.
std::string streamK(std::string t) {
  t = replace(t, "\"data_parallel\"", "\"stream_k\"");
  t = replace(t, "\"ldc\", \"alpha\"]", "\"ldc\", \"alpha\", \"workspace\"]");
  return replace(t, "\"dynamic_smem_bytes\": 132096,", "\"dynamic_smem_bytes\": 132096,\n  \"workspace_bytes_per_cta\": 65664,");
}

TEST(RuntimeManifest, StreamKWithWorkspaceParses) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(streamK(kExample), "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.scheduler, Scheduler::StreamK);
  EXPECT_STREQ(schedulerName(m.scheduler), "stream_k");
  EXPECT_EQ(m.raster, Raster::AlongM);
  EXPECT_EQ(m.group, 8);
  EXPECT_EQ(m.cluster[0], 1);
  EXPECT_EQ(m.workspaceBytesPerCta, 65664);
  EXPECT_TRUE(m.hasParam(Param::Workspace));
  ASSERT_EQ(m.params.size(), 9u);
  EXPECT_EQ(m.params[0], Param::TmapA);
  EXPECT_EQ(m.params[1], Param::TmapB);
  EXPECT_EQ(m.params[2], Param::C);
  EXPECT_EQ(m.params[6], Param::Ldc);
  EXPECT_EQ(m.params[7], Param::Alpha);
  EXPECT_EQ(m.params[8], Param::Workspace);
  EXPECT_STREQ(paramName(Param::Workspace), "workspace");

  // With tmap_c and beta too: workspace still comes last, after beta.
  std::string t = replace(withTmapC(streamK(kExample)), "\"alpha\", \"workspace\"", "\"alpha\", \"beta\", \"workspace\"");
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  ASSERT_EQ(m.params.size(), 11u);
  EXPECT_EQ(m.params[2], Param::TmapC);
  EXPECT_EQ(m.params[9], Param::Beta);
  EXPECT_EQ(m.params[10], Param::Workspace);
}

TEST(RuntimeManifest, TodaysManifestsHaveNoWorkspace) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(kExample, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.workspaceBytesPerCta, 0);
  EXPECT_FALSE(m.hasParam(Param::Workspace));
  ASSERT_TRUE(parseManifest(replace(kExample, "\"data_parallel\"", "\"persistent\""), "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.scheduler, Scheduler::Persistent);
  EXPECT_EQ(m.workspaceBytesPerCta, 0);
  // An explicit 0 is the same as absent.
  ASSERT_TRUE(parseManifest(replace(kExample, "\"version\": 1,", "\"version\": 1, \"workspace_bytes_per_cta\": 0,"),
                            "k.cubin.json", m, err))
      << err;
  EXPECT_EQ(m.workspaceBytesPerCta, 0);
  // stream_k without a workspace is accepted (the field and the parameter
  // agree); the runtime then passes none.
  ASSERT_TRUE(parseManifest(replace(kExample, "\"data_parallel\"", "\"stream_k\""), "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.scheduler, Scheduler::StreamK);
  EXPECT_EQ(m.workspaceBytesPerCta, 0);
}

TEST(RuntimeManifest, WorkspaceParamWithoutBytes) {
  std::string t = replace(streamK(kExample), "\n  \"workspace_bytes_per_cta\": 65664,", "");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'workspace_bytes_per_cta': params has \"workspace\" but "
                        "workspace_bytes_per_cta is absent; it must be > 0 (the bytes of workspace each CTA needs)");
  t = replace(streamK(kExample), "\"workspace_bytes_per_cta\": 65664", "\"workspace_bytes_per_cta\": 0");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'workspace_bytes_per_cta': params has \"workspace\" but "
                        "workspace_bytes_per_cta is 0; it must be > 0 (the bytes of workspace each CTA needs)");
}

TEST(RuntimeManifest, WorkspaceBytesWithoutParam) {
  std::string t = replace(streamK(kExample), ", \"workspace\"]", "]");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'params': missing the parameter \"workspace\" (workspace_bytes_per_cta is 65664)");
}

TEST(RuntimeManifest, BadWorkspaceBytes) {
  EXPECT_EQ(errorOf(replace(streamK(kExample), "65664", "-1")),
            "k.cubin.json: field 'workspace_bytes_per_cta': expected an integer in 0..2147483647, got -1");
  EXPECT_EQ(errorOf(replace(streamK(kExample), "65664", "1.5")),
            "k.cubin.json: field 'workspace_bytes_per_cta': expected an integer in 0..2147483647, got 1.5");
  EXPECT_EQ(errorOf(replace(streamK(kExample), "65664", "\"65664\"")),
            "k.cubin.json: field 'workspace_bytes_per_cta': expected an integer in 0..2147483647, got \"65664\"");
  EXPECT_EQ(errorOf(replace(streamK(kExample), "65664", "2147483648")),
            "k.cubin.json: field 'workspace_bytes_per_cta': expected an integer in 0..2147483647, got 2147483648");
  EXPECT_EQ(errorOf(replace(streamK(kExample), "\"workspace\"]", "\"workspace\", \"workspace\"]")),
            "k.cubin.json: field 'params[9]': parameter \"workspace\" listed twice");
}

TEST(RuntimeManifest, WorkspaceNeedsABoundedGrid) {
  // A data_parallel grid has one CTA per tile: no bound to size a workspace by.
  std::string t = replace(streamK(kExample), "\"stream_k\"", "\"data_parallel\"");
  EXPECT_EQ(errorOf(t), "k.cubin.json: field 'workspace_bytes_per_cta': a workspace is sized by the CTAs that can be "
                        "resident at once, so it needs grid.scheduler stream_k or persistent, got data_parallel");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(replace(streamK(kExample), "\"stream_k\"", "\"persistent\""), "k.cubin.json", m, err))
      << err;
  EXPECT_EQ(m.workspaceBytesPerCta, 65664);
}

// stream_k in a cluster (sm_90a's [2, 1]: the shares by cluster, a slot a
// CTA) parses; split_k > 1, one CTA a piece, takes no cluster.
TEST(RuntimeManifest, StreamKTakesAClusterSplitKNone) {
  std::string t = replace(streamK(kExample), "\"cluster\": [1, 1, 1]", "\"cluster\": [2, 1, 1]");
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.scheduler, Scheduler::StreamK);
  EXPECT_EQ(m.cluster, (std::array<int32_t, 3>{2, 1, 1}));
  EXPECT_EQ(m.workspaceBytesPerCta, 65664);
  EXPECT_EQ(errorOf(replace(t, R"("group": 8)", R"("group": 8, "split_k": 2)")),
            "k.cubin.json: field 'grid.split_k': split_k 2 takes cluster [1, 1, 1], got [2, 1, 1]");
}

TEST(RuntimeManifest, BadKernelName) {
  EXPECT_EQ(errorOf(replace(kExample, "\"gemm_bf16_tn_128x128\"", "\"\"")),
            "k.cubin.json: field 'kernel': the kernel name is empty");
  EXPECT_EQ(errorOf(replace(kExample, "\"gemm_bf16_tn_128x128\"", "\"gemm kernel\"")),
            "k.cubin.json: field 'kernel': \"gemm kernel\" is not a kernel symbol name");
}

TEST(RuntimeManifest, TopLevelMustBeObject) {
  EXPECT_EQ(errorOf("[]"), "k.cubin.json: expected a JSON object at the top level, got an array");
}

TEST(RuntimeManifest, DtypeNamesAndSizes) {
  EXPECT_EQ(dtypeFromName("e4m3"), GEMMC_E4M3);
  EXPECT_EQ(dtypeFromName("float"), GEMMC_DTYPE_UNSET);
  EXPECT_EQ(dtypeBytes(GEMMC_TF32), 4u);
  EXPECT_EQ(dtypeBytes(GEMMC_E5M2), 1u);
  EXPECT_EQ(dtypeBytes(GEMMC_F16), 2u);
  EXPECT_STREQ(gemmc_dtype_name(GEMMC_BF16), "bf16");
  EXPECT_EQ(gemmc_dtype_bytes(GEMMC_F32), 4u);
}

} // namespace

namespace {
// The example with a per-column f16 bias, an aux output and PDL.
std::string fusedExample() {
  std::string t = replace(kExample, R"("ldc", "alpha"])", R"("ldc", "alpha", "bias", "aux"])");
  return replace(t, "\"version\": 1,",
                 "\"version\": 1, \"bias\": {\"per\": \"col\", \"element\": \"f16\"}, \"activation\": "
                 "\"gelu\", \"aux\": {\"element\": \"bf16\"}, \"pdl\": {\"wait\": \"before_loads\", "
                 "\"launch_dependents\": \"after_mainloop\"},");
}
} // namespace

TEST(RuntimeManifest, FusedEpilogueAndPdl) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(fusedExample(), "k", m, err)) << err;
  EXPECT_EQ(m.biasType, GEMMC_F16);
  EXPECT_FALSE(m.biasPerRow);
  EXPECT_TRUE(m.hasParam(Param::Bias));
  EXPECT_TRUE(m.hasParam(Param::Aux));
  EXPECT_TRUE(m.pdlWait);
  EXPECT_EQ(m.activation, "gelu");
  Manifest plain;
  ASSERT_TRUE(parseManifest(kExample, "k", plain, err)) << err;
  EXPECT_EQ(plain.biasType, GEMMC_DTYPE_UNSET);
  EXPECT_FALSE(plain.pdlWait);
}

TEST(RuntimeManifest, FusedEpilogueMismatches) {
  EXPECT_EQ(errorOf(replace(fusedExample(), R"("per": "col")", R"("per": "both")")),
            "k.cubin.json: field 'bias.per': expected \"row\" or \"col\", got \"both\"");
  EXPECT_EQ(errorOf(replace(fusedExample(), R"("element": "f16")", R"("element": "e4m3")")),
            "k.cubin.json: field 'bias.element': expected bf16, f16 or f32, got \"e4m3\"");
  EXPECT_EQ(errorOf(replace(fusedExample(), R"("alpha", "bias", "aux"])", R"("alpha", "aux"])")),
            "k.cubin.json: field 'params': missing the parameter \"bias\" (the manifest has \"bias\")");
  EXPECT_EQ(errorOf(replace(kExample, R"("ldc", "alpha"])", R"("ldc", "alpha", "aux"])")),
            "k.cubin.json: field 'params': params has \"aux\" but there is no \"aux\" object");
}

// The manifest of specs/b200_f16_tn_persistent.yaml as gemmc writes it
// (sm_100a: 192 threads, tensor memory allocated by the kernel itself, so
// no field of its own), and the CTA pair of seed 004's ladder (a 2x1
// cluster).
const char *kB200 = R"({"a": {"element": "f16", "layout": "row"}, "arch": "sm_100a",
  "b": {"element": "f16", "layout": "col"}, "block": [192, 1, 1],
  "c": {"element": "f16", "layout": "row"}, "cluster": [1, 1, 1], "device": "b200",
  "dynamic_smem_bytes": 197736, "format": "gemmc-manifest",
  "grid": {"group": 8, "raster": "along_m", "scheduler": "persistent"},
  "kernel": "b200_f16_tn_persistent",
  "params": ["tmap_a", "tmap_b", "c", "m", "n", "k", "ldc", "alpha"],
  "problem": {"k": -1, "m": -1, "n": -1},
  "tensor_maps": [{"box": [64, 128], "operand": "a", "swizzle": 128},
                  {"box": [64, 256], "operand": "b", "swizzle": 128}],
  "tile": [128, 256, 64], "version": 1})";

TEST(RuntimeManifest, Sm100aParses) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(kB200, "b200.cubin.json", m, err)) << err;
  EXPECT_EQ(m.arch, "sm_100a");
  EXPECT_EQ(m.archMajor, 10);
  EXPECT_EQ(m.archMinor, 0);
  EXPECT_TRUE(m.archSpecific);
  EXPECT_EQ(m.block[0], 192);
  EXPECT_EQ(m.dynamicSmemBytes, 197736);
  EXPECT_EQ(m.scheduler, Scheduler::Persistent);
  EXPECT_EQ(m.tmap(Operand::B).box[1], 256u);
  EXPECT_FALSE(m.hasParam(Param::TmapC));
  // The pair: a 2x1 cluster parses the same way.
  ASSERT_TRUE(parseManifest(replace(kB200, "\"cluster\": [1, 1, 1]", "\"cluster\": [2, 1, 1]"),
                            "pair.cubin.json", m, err))
      << err;
  EXPECT_EQ(m.cluster[0], 2);
  EXPECT_EQ(m.cluster[1], 1);
}

namespace {

// An FP8 kernel with per-tensor scales (operands.X.scale: tensor, as the
// compiler writes it): each operand says "scale" and the scale pointers
// follow alpha.
std::string scaled(std::string t) {
  t = replace(t, "\"a\": {\"element\": \"bf16\", \"layout\": \"row\"}",
              "\"a\": {\"element\": \"e4m3\", \"layout\": \"row\", \"scale\": \"tensor\"}");
  t = replace(t, "\"b\": {\"element\": \"bf16\", \"layout\": \"col\"}",
              "\"b\": {\"element\": \"e5m2\", \"layout\": \"col\", \"scale\": \"tensor\"}");
  return replace(t, "\"alpha\"]", "\"alpha\", \"scale_a\", \"scale_b\"]");
}

TEST(RuntimeManifest, ScalesParse) {
  Manifest m;
  std::string err;
  ASSERT_TRUE(parseManifest(scaled(kExample), "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.a.element, GEMMC_E4M3);
  EXPECT_EQ(m.b.element, GEMMC_E5M2);
  EXPECT_EQ(m.a.scale, GEMMC_SCALE_TENSOR);
  EXPECT_EQ(m.b.scale, GEMMC_SCALE_TENSOR);
  EXPECT_EQ(m.c.scale, GEMMC_SCALE_NONE);
  ASSERT_EQ(m.params.size(), 10u);
  EXPECT_EQ(m.params[8], Param::ScaleA);
  EXPECT_EQ(m.params[9], Param::ScaleB);
  EXPECT_EQ(scaleParam(Operand::B), Param::ScaleB);
  EXPECT_STREQ(paramName(Param::ScaleD), "scale_d");
  // Per row of A, per column of B.
  std::string t = replace(replace(scaled(kExample), "\"row\", \"scale\": \"tensor\"", "\"row\", \"scale\": \"row\""),
                          "\"col\", \"scale\": \"tensor\"", "\"col\", \"scale\": \"col\"");
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.a.scale, GEMMC_SCALE_ROW);
  EXPECT_EQ(m.b.scale, GEMMC_SCALE_COL);
  // Block scales on both (scale: block).
  t = replace(replace(scaled(kExample), "\"row\", \"scale\": \"tensor\"", "\"row\", \"scale\": \"block\""),
              "\"col\", \"scale\": \"tensor\"", "\"col\", \"scale\": \"block\"");
  ASSERT_TRUE(parseManifest(t, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.a.scale, GEMMC_SCALE_BLOCK);
  EXPECT_EQ(m.b.scale, GEMMC_SCALE_BLOCK);
  EXPECT_STREQ(scaleName(m.b.scale), "block");
  // Unscaled kernels' operands have no "scale".
  ASSERT_TRUE(parseManifest(kExample, "k.cubin.json", m, err)) << err;
  EXPECT_EQ(m.a.scale, GEMMC_SCALE_NONE);
}

TEST(RuntimeManifest, BadScales) {
  EXPECT_EQ(errorOf(replace(scaled(kExample), "\"row\", \"scale\": \"tensor\"", "\"row\", \"scale\": \"col\"")),
            "k.cubin.json: field 'a.scale': expected \"tensor\", \"row\" or \"block\", got \"col\"");
  EXPECT_EQ(errorOf(replace(scaled(kExample), ", \"scale_b\"]", "]")),
            "k.cubin.json: field 'params': missing the parameter \"scale_b\" (b.scale is \"tensor\")");
  EXPECT_EQ(errorOf(replace(kExample, "\"alpha\"]", "\"alpha\", \"scale_a\"]")),
            "k.cubin.json: field 'a.scale': absent, but params has \"scale_a\"");
  EXPECT_EQ(errorOf(replace(kExample, "\"alpha\"]", "\"alpha\", \"scale_d\"]")),
            "k.cubin.json: field 'c.scale': absent, but params has \"scale_d\"");
}

} // namespace

// A bundle's kernels share one interface (gemmc bundle, gemmc_bundle_load):
// what differs is named with both values; schedule fields (tile, grid) do not
// count.
TEST(RuntimeManifest, InterfaceDifference) {
  Manifest first, other;
  std::string err;
  ASSERT_TRUE(parseManifest(kExample, "k", first, err)) << err;
  std::string retiled = replace(replace(kExample, "\"tile\": [128, 128, 64]", "\"tile\": [128, 256, 64]"),
                                "\"data_parallel\"", "\"persistent\"");
  ASSERT_TRUE(parseManifest(retiled, "k", other, err)) << err;
  EXPECT_EQ(interfaceDifference(first, other), "");
  ASSERT_TRUE(parseManifest(scaled(kExample), "k", other, err)) << err;
  EXPECT_EQ(interfaceDifference(first, other),
            "A's element: e4m3 here, bf16 in gemm_bf16_tn_128x128; A's scale: tensor here, none in "
            "gemm_bf16_tn_128x128; B's element: e5m2 here, bf16 in gemm_bf16_tn_128x128; B's scale: tensor "
            "here, none in gemm_bf16_tn_128x128");
  ASSERT_TRUE(parseManifest(fusedExample(), "k", other, err)) << err;
  EXPECT_EQ(interfaceDifference(first, other),
            "bias: per column, f16 here, none in gemm_bf16_tn_128x128; activation: gelu here, none in "
            "gemm_bf16_tn_128x128; aux: yes here, no in gemm_bf16_tn_128x128; PDL wait: yes here, no in "
            "gemm_bf16_tn_128x128");
  std::string beta = replace(replace(kExample, "\"alpha\"]", "\"alpha\", \"beta\"]"), "\"layout\": \"col\"",
                             "\"layout\": \"row\"");
  ASSERT_TRUE(parseManifest(beta, "k", other, err)) << err;
  EXPECT_EQ(interfaceDifference(first, other),
            "B's layout: row here, col in gemm_bf16_tn_128x128; beta: yes here, no in gemm_bf16_tn_128x128");
}
