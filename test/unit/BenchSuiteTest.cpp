// gemmc-bench's suite-file reader (bench/Suite.cpp): the YAML subset and its errors.
#include "Suite.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using gemmc::bench::parseSuite;
using gemmc::bench::Suite;

namespace {

std::string errorOf(const std::string &text) {
  Suite s;
  std::string err;
  EXPECT_FALSE(parseSuite(text, "s.yaml", s, err));
  return err;
}

TEST(BenchSuite, ParsesShapesAndCubins) {
  Suite s;
  std::string err;
  ASSERT_TRUE(parseSuite("# c\ncubins: [\"a*.cubin\", b.cubin]  # default\nshapes:\n"
                         "  - {name: cube, m: 4096, n: 4096, k: 4096}\n"
                         "  - {name: \"d#1\", m: 16, n: 8192, k: 8192, cubins: [decode.cubin]}\n",
                         "s.yaml", s, err))
      << err;
  ASSERT_EQ(s.cubins.size(), 2u);
  EXPECT_EQ(s.cubins[0], "a*.cubin");
  EXPECT_EQ(s.cubins[1], "b.cubin");
  ASSERT_EQ(s.shapes.size(), 2u);
  EXPECT_EQ(s.shapes[0].name, "cube");
  EXPECT_EQ(s.shapes[0].k, 4096);
  EXPECT_TRUE(s.shapes[0].cubins.empty());
  EXPECT_EQ(s.shapes[1].name, "d#1");
  EXPECT_EQ(s.shapes[1].m, 16);
  ASSERT_EQ(s.shapes[1].cubins.size(), 1u);
}

TEST(BenchSuite, Errors) {
  EXPECT_EQ(errorOf("shapes:\n  - {name: a, m: 0, n: 1, k: 1}\n"), "s.yaml:2: 'm' must be a positive integer, got '0'");
  EXPECT_EQ(errorOf("shapes:\n  - {name: a, m: 1, n: 1}\n"), "s.yaml:2: a shape needs name, m, n and k");
  EXPECT_EQ(errorOf("shapes:\n  - {name: a, m: 1, n: 1, k: 1, tile: 3}\n"),
            "s.yaml:2: unknown or mistyped key 'tile' (expected name, m, n, k, cubins: [...])");
  EXPECT_EQ(errorOf("shapes:\n  - {name: a, m: 1, n: 1, k: 1}\n  - {name: a, m: 2, n: 1, k: 1}\n"),
            "s.yaml:3: shape 'a' listed twice");
  EXPECT_EQ(errorOf("  - {name: a, m: 1, n: 1, k: 1}\n"), "s.yaml:1: a list item outside 'shapes:'");
  EXPECT_EQ(errorOf("shapes:\n  - {name: a, m: 1, n: 1, k: 1\n"), "s.yaml:2: expected ',' or '}' in a mapping");
  EXPECT_EQ(errorOf("suite: x\n"), "s.yaml:1: unknown key 'suite' (expected cubins or shapes)");
  EXPECT_EQ(errorOf("cubins: a.cubin\nshapes:\n  - {name: a, m: 1, n: 1, k: 1}\n"),
            "s.yaml:1: 'cubins' must be a list [glob, ...]");
  EXPECT_EQ(errorOf("# nothing\n"), "s.yaml: no shapes");
}

TEST(BenchSuite, AnchorsSuiteHasTheElevenAnchorShapes) {
  std::ifstream f(GEMMC_SOURCE_DIR "/bench/suites/anchors.yaml");
  ASSERT_TRUE(f);
  std::stringstream ss;
  ss << f.rdbuf();
  Suite s;
  std::string err;
  ASSERT_TRUE(parseSuite(ss.str(), "anchors.yaml", s, err)) << err;
  ASSERT_EQ(s.shapes.size(), 11u);
  EXPECT_EQ(s.shapes[3].name, "prefill_mlp_up");
  EXPECT_EQ(s.shapes[3].n, 28672);
  EXPECT_EQ(s.shapes[7].name, "decode_mlp_down");
  EXPECT_EQ(s.shapes[7].k, 28672);
  EXPECT_EQ(s.shapes[9].m, 16);
}

} // namespace
