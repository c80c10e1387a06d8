// gemmc-bench --epilogue / --chain (bench/FusedBench.cpp).
#ifndef GEMMC_BENCH_FUSEDBENCH_H
#define GEMMC_BENCH_FUSEDBENCH_H

namespace gemmc::bench {
/// argv[1] is "--epilogue" or "--chain"; returns the process's exit code.
int runFusedBench(int argc, char **argv);
} // namespace gemmc::bench

#endif // GEMMC_BENCH_FUSEDBENCH_H
