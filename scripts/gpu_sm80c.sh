#!/usr/bin/env bash
# Session 4's sm_80 script (branch sm80c; bench/RESULTS.md cites it), now
# scripts/gpu_sm80d.sh with the same arguments: MODE (run, profile, or all)
# NEW_DIR OLD_DIR. Its header says what to build and carry.
exec "$(dirname "$0")/gpu_sm80d.sh" "${1:-run}" "${2:-build/cubins-sm80c}" "${3:-build/cubins-sm80c-main}"
