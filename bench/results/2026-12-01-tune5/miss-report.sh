#!/usr/bin/env bash
# The miss report with this checkout's model on the stored runs (session 6's s6 report's inputs, plus tune4 r2's
# large goal rows recovered from goal-large.txt as the latest anchor run, tune3 r1 and tune5 r1 as --measured; gemmc
# from build/bin). From the repo root:
#   bench/results/2026-12-01-tune5/miss-report.sh OUT_PREFIX [--measured EXTRA.json | --anchors LATER.json ...]
# SWEEP="A.json B.json" replaces tune4 r2's sweep (round 3: the fresh bundle run).
set -eu
R=bench/results
out=$1; shift
sweeps=()
for f in ${SWEEP:-$R/2026-12-01-tune4/r2/sweep-only.json}; do sweeps+=(--sweep "$f"); done
python3 bench/miss_report.py "${sweeps[@]}" \
  --anchors $R/2026-11-30-6813b10-side-by-side/side_by_side.json --anchors $R/2026-11-30-session3/waves-m256.json \
  --anchors $R/2026-12-01-tune3/main-r1/bench-cubins-all.json --anchors $R/2026-12-01-tune4/r1/tune4.json \
  --anchors $R/2026-12-01-tune4/r2/goal.json --anchors $R/2026-12-01-tune5/goal-large-r2.json \
  --measured $R/2026-12-01-tune4/r1/tune4.json --measured $R/2026-12-01-tune4/r2/picks.json \
  --measured $R/2026-12-01-tune4/s6/picks-s6.json --measured $R/2026-12-01-tune3/r1/tune3.json \
  --measured $R/2026-12-01-tune5/r1/short.json --measured $R/2026-12-01-tune5/r1/large.json "$@" --json "$out.json" >"$out.txt"
tail -n 3 "$out.txt"
