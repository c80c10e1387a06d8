#!/usr/bin/env bash
# Writes the model's predictions for every cubin (and sm_80 fatbinary) in a folder on the anchor
# shapes, as gemmc-bench reads them: { "<cubin stem>:<shape>": {"predicted_tflops": T} }.
#   scripts/predictions.sh [CUBIN_DIR]      (default build/cubins)
# Each cubin's spec is found by name in specs/ and test/gpu/specs/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}
dir=${1:-$build/cubins}
shapes=(cube4096:4096x4096x4096 cube8192:8192x8192x8192 prefill_attn_out:8192x8192x8192
        prefill_mlp_up:8192x28672x8192 decode_attn_out:256x8192x8192 decode_qkv:256x10240x8192
        decode_mlp_up:256x28672x8192 decode_mlp_down:256x8192x28672 decode_m64:64x8192x8192
        decode_m16:16x8192x8192 skinny_seed1:1024x8192x4096)
args=()
for s in "${shapes[@]}"; do args+=(--shape "${s#*:}"); done
out=$dir/predictions.json
echo "{" > "$out.tmp"
first=1
for cubin in "$dir"/*.cubin "$dir"/*.fatbin; do
  [ -f "$cubin" ] || continue
  name=$(basename "$cubin"); name=${name%.*}
  spec=""
  for d in "$root/specs" "$root/test/gpu/specs"; do
    [ -f "$d/$name.yaml" ] && spec=$d/$name.yaml
  done
  [ -n "$spec" ] || continue
  json=$("$build/bin/gemmc" analyze "$spec" "${args[@]}" --json)
  i=0
  # One predicted TFLOP/s per shape, in the order the shapes were given.
  for t in $(printf '%s\n' "$json" | grep -o '"predicted_tflops": [0-9.e+-]*' | awk '{print $2}'); do
    s=${shapes[$i]}; i=$((i + 1))
    ((first)) || echo "," >> "$out.tmp"
    first=0
    printf '  "%s:%s": {"predicted_tflops": %s}' "$name" "${s%%:*}" "$t" >> "$out.tmp"
  done
done
printf '\n}\n' >> "$out.tmp"
mv "$out.tmp" "$out"
echo "wrote $out"
