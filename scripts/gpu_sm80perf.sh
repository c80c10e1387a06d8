#!/usr/bin/env bash
# Session 3's sm_80 side-by-side run (bench/RESULTS.md cites it), now
# scripts/gpu_sm80c.sh run: main's and a branch's sm_80 fatbinaries in one
# gemmc-bench process, the suite, the mma.sync peak and mix. Build as
# gpu_sm80c.sh's header says, into these two folders:
#   scripts/gpu_sm80perf.sh [NEW_DIR] [OLD_DIR]
#     (default build/cubins-sm80perf build/cubins-sm80-main)
exec "$(dirname "$0")/gpu_sm80c.sh" run "${1:-build/cubins-sm80perf}" "${2:-build/cubins-sm80-main}"
