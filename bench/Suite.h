// Benchmark suite files (bench/suites/*.yaml): a small YAML subset, described
// in bench/README.md:
//
//   # comment
//   cubins: ["*.cubin"]                  # default cubin globs (relative to --cubin-dir)
//   shapes:
//     - {name: cube4096, m: 4096, n: 4096, k: 4096}
//     - {name: decode_m16, m: 16, n: 8192, k: 8192, cubins: [decode*.cubin]}
//
// Top-level `key: value` lines, and under `shapes:` one flow mapping per
// `- {...}` line; values are integers, strings (bare or double-quoted) or
// flow sequences of strings. Anything else is an error with its line number.
#ifndef GEMMC_BENCH_SUITE_H
#define GEMMC_BENCH_SUITE_H

#include <cstdint>
#include <string>
#include <vector>

namespace gemmc::bench {

struct SuiteShape {
  std::string name;
  int64_t m = 0, n = 0, k = 0;
  std::vector<std::string> cubins; // globs; empty = the suite's default
};

struct Suite {
  std::vector<std::string> cubins{"*.cubin"};
  std::vector<SuiteShape> shapes;
};

bool parseSuite(const std::string &text, const std::string &source, Suite &out, std::string &error);

} // namespace gemmc::bench

#endif
