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
            "d.json: rules[0]: unknown key 'batch' (known: kernel, cubin, m, n, k, why)");
  EXPECT_EQ(parseError(R"({"gemmc_bundle": 1, "name": "b", "rules": [
      {"kernel": "x", "cubin": "x.cubin", "n": 4096}]})"),
            "d.json: rules[0].n: expected [lo, hi] (integers; hi may be null for no upper end), got 4096");
}

} // namespace
