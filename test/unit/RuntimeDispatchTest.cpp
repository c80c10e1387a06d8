// A bundle's dispatch table (runtime/lib/Dispatch.cpp): parsing and its
// checks, the first-match rule at the bucket edges, no match, the query.
#include "gemmc/runtime/Dispatch.h"

#include <gtest/gtest.h>

using namespace gemmc::rt;

namespace {

// Decode kernels for M <= 64, a mid kernel for M 65..1024 at N >= 4096, a
// large-tile kernel for the rest of M >= 65.
const char *kTable = R"({
  "gemmc_bundle": 1,
  "name": "llama_bf16",
  "rules": [
    {"kernel": "small", "cubin": "small.cubin", "m": [1, 64], "why": "one 64-row tile column"},
    {"kernel": "mid", "cubin": "mid.cubin", "m": [65, 1024], "n": [4096, null]},
    {"kernel": "large", "cubin": "large.cubin", "m": [65, null], "k": [64, 65536]}
  ]
})";

DispatchTable table() {
  DispatchTable t;
  std::string error;
  EXPECT_TRUE(parseDispatchTable(kTable, "dispatch.json", t, error)) << error;
  return t;
}

std::string parseError(const std::string &text) {
  DispatchTable t;
  std::string error;
  EXPECT_FALSE(parseDispatchTable(text, "d.json", t, error));
  return error;
}

TEST(RuntimeDispatch, ParsesRules) {
  DispatchTable t = table();
  EXPECT_EQ(t.name, "llama_bf16");
  ASSERT_EQ(t.rules.size(), 3u);
  EXPECT_EQ(t.rules[0].cubin, "small.cubin");
  EXPECT_EQ(t.rules[0].m.lo, 1);
  EXPECT_EQ(t.rules[0].m.hi, 64);
  EXPECT_EQ(t.rules[0].n.hi, DimRange::kUnbounded);
  EXPECT_EQ(t.rules[0].why, "one 64-row tile column");
  EXPECT_EQ(t.rules[2].k.hi, 65536);
}

TEST(RuntimeDispatch, BucketEdges) {
  DispatchTable t = table();
  EXPECT_EQ(selectRule(t, 1, 8192, 8192), 0);
  EXPECT_EQ(selectRule(t, 64, 8192, 8192), 0);
  EXPECT_EQ(selectRule(t, 65, 8192, 8192), 1);
  EXPECT_EQ(selectRule(t, 1024, 4096, 8192), 1);
  EXPECT_EQ(selectRule(t, 1025, 4096, 8192), 2);
  // N below the mid kernel's range falls through to the large one.
  EXPECT_EQ(selectRule(t, 512, 4095, 8192), 2);
  EXPECT_EQ(selectRule(t, 16384, 28672, 65536), 2);
}

TEST(RuntimeDispatch, NoMatch) {
  DispatchTable t = table();
  // M in the large kernel's range but K past its end, N below mid's.
  EXPECT_EQ(selectRule(t, 512, 1024, 65537), -1);
  EXPECT_EQ(explainSelection(t, 512, 1024, 65537),
            "bundle llama_bf16, shape 512x1024x65537: no rule matches; add a rule whose ranges hold it, "
            "or run the shape with a single kernel\n"
            "  rules[0] small: m = 512 is outside [1, 64]\n"
            "  rules[1] mid: n = 1024 is outside [4096, any]\n"
            "  rules[2] large: k = 65537 is outside [64, 65536]");
}

TEST(RuntimeDispatch, ExplainsThePick) {
  DispatchTable t = table();
  EXPECT_EQ(explainSelection(t, 16, 8192, 8192),
            "bundle llama_bf16, shape 16x8192x8192: rules[0] small (m [1, 64], n [1, any], k [1, any]): "
            "one 64-row tile column");
  EXPECT_EQ(explainSelection(t, 2048, 8192, 8192),
            "bundle llama_bf16, shape 2048x8192x8192: rules[2] large (m [65, any], n [1, any], k [64, 65536])\n"
            "  rules[0] small: m = 2048 is outside [1, 64]\n"
            "  rules[1] mid: m = 2048 is outside [65, 1024]");
}

TEST(RuntimeDispatch, RejectsShadowedRule) {
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "all", "cubin": "all.cubin"},
      {"kernel": "small", "cubin": "small.cubin", "m": [1, 64]}]})"),
            "d.json: rules[1] (small) is never picked: rules[0] (all) comes first and covers m [1, 64], "
            "n [1, any], k [1, any]; put the narrower rule first");
}

TEST(RuntimeDispatch, RejectsBadFields) {
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 2, "name": "b", "rules": []})"),
            "d.json: gemmc_bundle must be 1 (the format this runtime reads), got 2");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": []})"),
            "d.json: rules must be a non-empty array (one entry per kernel and shape range)");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "x", "cubin": "x.cubin", "m": [64, 1]}]})"),
            "d.json: rules[0].m: the range [64, 1] is empty or below 1; write [lo, hi] with 1 <= lo <= hi");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "x", "cubin": "../x.cubin"}]})"),
            "d.json: rules[0]: cubin must name a file inside the bundle (no directory), got '../x.cubin'");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "x", "cubin": "x.cubin", "batch": [1, 2]}]})"),
            "d.json: rules[0]: unknown key 'batch' (known: kernel, cubin, m, n, k, why, group, tile, slots, rate)");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "x", "cubin": "x.cubin", "n": 4096}]})"),
            "d.json: rules[0].n: expected [lo, hi] (integers; hi may be null for no upper end), got 4096");
}

} // namespace

// A choice by waves (issue 16): rules of one group share their ranges and
// the shape goes to the kernel whose waves cost least at its rate, on 132
// slots. decode_qkv, 256 x 10240: 128x128 makes 2 x 80 = 160 tiles, 2
// waves, 2 x 132 x 16384 / 726 = 5958 (units of 1e12 / 2K); 128x160 makes
// 2 x 64 = 128 tiles, 1 wave, 132 x 20480 / 698 = 3873; 128x256 makes 80
// tiles, 1 wave, 132 x 32768 / 841 = 5143. 128x160 wins. decode_attn_out,
// 256 x 8192: 128 tiles of 128x128 in 1 wave, 132 x 16384 / 726 = 2979,
// under 128x160's 104 tiles (3873) and 128x256's 64 (5143).
const char *kWaves = R"({
  "gemmc_bundle": 1,
  "name": "waves",
  "rules": [
    {"kernel": "small", "cubin": "small.cubin", "m": [1, 64]},
    {"kernel": "t128", "cubin": "t128.cubin", "m": [65, null], "group": 1, "tile": [128, 128], "slots": 132, "rate": 726e12},
    {"kernel": "t160", "cubin": "t160.cubin", "m": [65, null], "group": 1, "tile": [128, 160], "slots": 132, "rate": 698e12},
    {"kernel": "t256", "cubin": "t256.cubin", "m": [65, null], "group": 1, "tile": [128, 256], "slots": 132, "rate": 841e12}
  ]
})";

TEST(RuntimeDispatch, ChoiceByWaves) {
  DispatchTable t;
  std::string error;
  ASSERT_TRUE(parseDispatchTable(kWaves, "d.json", t, error)) << error;
  EXPECT_EQ(t.rules[1].group, 1);
  EXPECT_EQ(t.rules[2].tileN, 160);
  EXPECT_EQ(t.rules[3].slots, 132);
  EXPECT_DOUBLE_EQ(t.rules[3].rate, 841e12);
  EXPECT_EQ(selectRule(t, 16, 10240, 8192), 0);
  EXPECT_EQ(selectRule(t, 256, 10240, 8192), 2); // 128x160: one wave
  EXPECT_EQ(selectRule(t, 256, 8192, 8192), 1);  // 128x128: one wave
  // 8192 x 4096: 128x256 makes 1024 tiles, 8 waves (8 x 132 x 32768 / 841
  // = 41146); 128x128 2048 tiles, 16 waves (47662); 128x160 1664, 13
  // waves (50348).
  EXPECT_EQ(selectRule(t, 8192, 4096, 4096), 3);
  EXPECT_NEAR(predictedWaveTime(t.rules[2], 256, 10240) * 1e12, 132.0 * 20480 / 698, 1e-9);
  std::string why = explainSelection(t, 256, 10240, 8192);
  EXPECT_NE(why.find("rules[2] t160"), std::string::npos) << why;
  EXPECT_NE(why.find("chosen by waves in group 1:"), std::string::npos) << why;
  EXPECT_NE(why.find("t128: 128x128 tiles 160, waves 2 of 132"), std::string::npos) << why;
  EXPECT_NE(why.find("t160: 128x160 tiles 128, waves 1 of 132"), std::string::npos) << why;
}

TEST(RuntimeDispatch, GroupErrors) {
  std::string head = R"({"gemmc_bundle": 1, "name": "w", "rules": [)";
  auto rule = [](const std::string &name, const std::string &extra) {
    return R"({"kernel": ")" + name + R"(", "cubin": ")" + name + R"(.cubin")" + extra + "}";
  };
  std::string g = R"(, "m": [65, null], "group": 0, "tile": [128, 128], "slots": 132, "rate": 1e14)";
  EXPECT_EQ(parseError(head + rule("a", R"(, "group": 0, "tile": [128, 128])") + "]}"),
            "d.json: rules[0]: a rule of group 0 needs tile, slots and rate (what the choice by waves weighs)");
  EXPECT_EQ(parseError(head + rule("a", R"(, "tile": [128, 128], "slots": 132, "rate": 1e14)") + "]}"),
            "d.json: rules[0]: tile, slots and rate go with group (a choice by waves); add group or remove them");
  EXPECT_EQ(parseError(head + rule("a", g) + "," + rule("b", R"(, "m": [1, 64])") + "," + rule("c", g) + "]}"),
            "d.json: rules[2]: group 0 is split by rules[1]; a group's rules must be consecutive");
  EXPECT_EQ(parseError(head + rule("a", g) + "," + rule("b", R"(, "m": [65, 99], "group": 0, "tile": [128, 128], "slots": 132, "rate": 1e14)") + "]}"),
            "d.json: rules[1]: group 0 has rules[0] with other ranges; the rules of a group share m, n and k");
  EXPECT_EQ(parseError(head + rule("a", R"(, "group": 0, "tile": [128, 128], "slots": 132, "rate": 0)") + "]}"),
            "d.json: rules[0].rate: expected a number > 0 (FLOP/s), got 0");
  EXPECT_EQ(parseError(head + rule("a", R"(, "group": 0, "tile": [128], "slots": 132, "rate": 1)") + "]}"),
            "d.json: rules[0].tile: expected [BLOCK_M, BLOCK_N] (integers >= 1), got [128]");
}
