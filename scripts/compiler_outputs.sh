#!/bin/bash
# compiler_outputs.sh OUTDIR: what the compiler and the model produce for every kernel spec in the tree, for a
# restructuring's before / after check (no GPU): run it before and after the change, then `diff -r BEFORE AFTER`
# (nothing may differ but what the change means to move).
#
# Per spec (every *.yaml with `arch:` under specs/, test/, bench/, examples/, bundles' dispatch files left out):
#   KEY.ptx   `gemmc --emit=ptx` (KEY.err: its messages and exit status, so a refused spec's diagnostic is compared too)
#   KEY.an    `gemmc analyze` text at 4096^3 and 1000x28672x4000
#   KEY.json  `gemmc analyze --json` (full precision) at 4096^3, 1000x28672x4000 and 8x8192x8192
# and `gemmc tune`'s ranking for bf16, f16, e4m3 (C bf16) and tf32 (C f32) on two families (tune_*.txt, tune_*/).
# About 4 minutes on 2 cores. GEMMC: the gemmc binary (default build/bin/gemmc).
set -u
out=${1:?usage: compiler_outputs.sh OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
export GEMMC=${GEMMC:-$root/build/bin/gemmc}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$root"
find specs test bench examples -name '*.yaml' 2>/dev/null | grep -v '/bundles/' | sort |
  while read -r f; do grep -q '^arch:' "$f" && echo "$f"; done > "$out/list"
one() {
  f=$1 out=$2 key=$(echo "$1" | tr '/' '_')
  timeout 120 "$GEMMC" "$f" --emit=ptx -o "$out/$key.ptx" > "$out/$key.err" 2>&1; echo "rc=$?" >> "$out/$key.err"
  { timeout 60 "$GEMMC" analyze "$f" --shape 4096x4096x4096
    timeout 60 "$GEMMC" analyze "$f" --shape 1000x28672x4000; } > "$out/$key.an" 2>&1
  timeout 60 "$GEMMC" analyze "$f" --json --shape 4096x4096x4096 --shape 1000x28672x4000 \
    --shape 8x8192x8192 > "$out/$key.json" 2>&1
}
export -f one
xargs -P2 -I{} bash -c 'one "$@"' _ {} "$out" < "$out/list"
for d in "bf16 --c-type=bf16" "f16 --c-type=f16" "e4m3 --c-type=bf16" "tf32 --c-type=f32"; do
  for fam in "--m 1..512 --n 28672 --k 8192" "--shape 4096x4096x4096 --shape 8192x8192x8192"; do
    k=$(echo "$d $fam" | tr ' .=' '___')
    # shellcheck disable=SC2086
    timeout 300 "$GEMMC" tune --dtype=$d $fam --top=10 -o "$out/tune_$k" 2>&1 | grep -v '^wrote' > "$out/tune_$k.txt"
  done
done
echo "$(wc -l < "$out/list") specs -> $out"
