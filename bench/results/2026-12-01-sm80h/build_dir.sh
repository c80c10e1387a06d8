#!/usr/bin/env bash
# Builds a round's carried folder of branch sm80h (bench/results/2026-12-01-sm80h/README.md):
#   bench/results/2026-12-01-sm80h/build_dir.sh DIR PREFIX ENV SPEC...
# PREFIX- files (none when PREFIX is "-") of each SPEC built by gemmc with ENV
# (VAR=VALUE ..., or "-" for none) set: NAME.fatbin (+ .json, .ptxas.txt with the
# --check verdict) and sass/NAME.sm90.cubin (ptxas -arch=sm_90 of its PTX, the
# SASS the driver's JIT builds on the H200; in a subfolder, where gemmc-bench's
# globs do not take it for a kernel), ptxas -v of that in sass/NAME.sm90.ptxas.txt;
# the PTX in DIR.ptx/ (not carried).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
dir=$1 prefix=$2 env=$3
shift 3
tmp=$(mktemp -d)
envs=()
[ "$env" != - ] && read -ra envs <<<"$env"
env "${envs[@]}" "$root/scripts/build_cubins.sh" --check "$tmp" "$@"
mkdir -p "$dir/sass"
for spec in "$@"; do
  n=$(basename "$spec" .yaml)
  out=$n
  [ "$prefix" != - ] && out=$prefix-$n
  cp "$tmp/$n.fatbin" "$dir/$out.fatbin"
  cp "$tmp/$n.fatbin.json" "$dir/$out.fatbin.json"
  cp "$tmp/$n.ptxas.txt" "$dir/$out.ptxas.txt"
  mkdir -p "$dir.ptx" && cp "$tmp/$n.ptx" "$dir.ptx/$out.ptx"
  /usr/local/cuda/bin/ptxas -arch=sm_90 -v "$tmp/$n.ptx" -o "$dir/sass/$out.sm90.cubin" 2>"$dir/sass/$out.sm90.ptxas.txt"
  grep -E "registers|spill" "$dir/sass/$out.sm90.ptxas.txt" | tr -s ' ' | sed "s|^|$out sm_90: |"
done
rm -rf "$tmp"
