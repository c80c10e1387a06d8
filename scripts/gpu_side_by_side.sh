#!/usr/bin/env bash
# Old and new cubins of the same specs in one gemmc-bench process on the
# anchor shapes, each interleaved with cuBLAS on the same buffers: the
# restructuring check of issue 11 (new/old >= 0.99 for every spec and shape).
#
#   scripts/gpu_side_by_side.sh OLD_DIR NEW_DIR [--iters N]
#
# OLD_DIR's cubins are renamed old-<name>.cubin on the way (the bench tells
# cubins apart by file name). Prints the new/old table; $OUT/side_by_side.json
# and $OUT/side_by_side.md come back.
source "$(dirname "$0")/gpu_common.sh"
old=$1 new=$2
shift 2
iters=20
[ "${1:-}" = "--iters" ] && iters=$2
both=$OUT/side-cubins
rm -rf "$both"; mkdir -p "$both/old" "$both/new"
for f in "$old"/*.cubin; do
  n=$(basename "$f")
  [ -f "$new/$n" ] || continue
  cp "$f" "$both/old/old-$n"; cp "$f.json" "$both/old/old-$n.json"
  cp "$new/$n" "$both/new/$n"; cp "$new/$n.json" "$both/new/$n.json"
done
echo "== side by side: $(ls "$both/new" | grep -c 'cubin$') specs, iters $iters"
gpu_build_bench >"$OUT/side_build.log" 2>&1 || { tail -30 "$OUT/side_build.log"; exit 1; }
timeout 420 "$build/bin/gemmc-bench" --cubin-dir "$both/old" --cubin-dir "$both/new" \
  --suite bench/suites/anchors.yaml --iters "$iters" --warmup 5 \
  --json "$OUT/side_by_side.json" >"$OUT/side_bench.txt" 2>&1
echo "gemmc-bench exit $?"
python3 bench/side_by_side.py "$OUT/side_by_side.json" | tee "$OUT/side_by_side.md"
