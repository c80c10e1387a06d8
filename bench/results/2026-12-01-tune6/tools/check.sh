#!/usr/bin/env bash
# The model's checks on the stored rows with this checkout's gemmc (build/bin), into OUT_DIR (from the repo root):
#   bench/results/2026-12-01-tune6/tools/check.sh OUT_DIR
# rerank-session3/-tune3-r1/-tune4-r1.txt: bench/rerank_sweep.py --errors (the measured best in the model's top 3:
# session 7's 44/47, 33/33, 17/17); anchors-error.txt and errors.txt: tune5's tools (the anchor suite within 10%,
# measured / predicted per stored set); miss-report.txt/.json: tune5's miss-report.sh on session 7's sweep with
# every measured run since (tune5 r2/r3, s7-final, s7-abl); SWEEP="A.json B.json" for another sweep run,
# EXTRA_MEASURED for more --measured / --anchors arguments (round 1: --measured r1/r1.json --anchors r1/r1-anchors.json).
set -u
out=$1
mkdir -p "$out"
R=bench/results
T5=$R/2026-12-01-tune5
dirs=(--spec-dir test/gpu/tune5 --spec-dir test/gpu/tune4 --spec-dir test/gpu/tune3 --spec-dir test/gpu/tune2
  --spec-dir test/gpu/small --spec-dir test/gpu/m256 --spec-dir specs --spec-dir test/gpu/specs --spec-dir bench/s7abl)
python3 bench/rerank_sweep.py --json $R/2026-11-30-session3/final/tune16.json+$R/2026-11-30-session3/final/tune16-sk.json \
  --json $R/2026-11-30-session3/m256.json --specs build/tune16/specs --spec-dir test/gpu/m256 --spec-dir specs --errors \
  --space >"$out/rerank-session3.txt" 2>&1 &
python3 bench/rerank_sweep.py --json $R/2026-12-01-tune3/r1/tune3.json --suite bench/suites/tune3.yaml "${dirs[@]}" \
  --errors >"$out/rerank-tune3-r1.txt" 2>&1
python3 bench/rerank_sweep.py --json $R/2026-12-01-tune4/r1/tune4.json --suite bench/suites/tune4.yaml "${dirs[@]}" \
  --errors >"$out/rerank-tune4-r1.txt" 2>&1
wait
export CACHE=$out/analyze-cache.json
rm -f "$CACHE"
python3 $T5/tools/errors.py >"$out/errors.txt" 2>&1
python3 $R/2026-12-01-tune4/tools/anchors_err.py >"$out/anchors-error.txt" 2>&1
S7=$R/2026-12-01-session7
SWEEP="${SWEEP:-$S7/s7-sweep/sweep-lo.json $S7/s7-sweep/sweep-hi.json}" $T5/miss-report.sh "$out/miss-report" \
  --measured $T5/r2/picks.json --measured $T5/r3/r3.json --measured $S7/s7-final/picks-s7.json \
  --measured $S7/s7-abl/abl.json ${EXTRA_MEASURED:-} >/dev/null
grep -h "measured best in the model's top 3" "$out"/rerank-*.txt
grep -c "measured / predicted 0.9\|measured / predicted 1.0" "$out/anchors-error.txt"
tail -n 3 "$out/miss-report.txt"
