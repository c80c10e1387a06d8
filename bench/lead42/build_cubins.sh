#!/usr/bin/env bash
# Session 42's rounds: build/cubins-<round> from earlier rounds' kernels (the cubins stay as built there; this script
# only gathers them, so a round reads the same bytes session 41 timed).
set -euo pipefail
round=${1:?round}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $round in
  q1)
    d=$root/build/cubins-q1; rm -rf "$d"; mkdir -p "$d"
    [ -f "$root/build/cubins-p3/bs256_ws_2x1_ns.cubin" ] || bash "$root/bench/lead41/build_cubins.sh" p3
    for c in bs128x192_ws_2x1_ns bs256_ws_2x1_ns; do cp "$root/build/cubins-p3/$c.cubin"* "$d/"; done
    cp "$root/build/cubins-p3/r2.yaml" "$d/"
    cp "$root/build/lead41/deepgemm_bs" "$d/" ;;
  q2)
    # main's kernels (session 41's builds, the compiler unchanged since) beside this tree's
    d=$root/build/cubins-q2; rm -rf "$d"; mkdir -p "$d/ptx"
    g=$root/build/bin/gemmc
    cp "$root"/build/cubins-p6/{bs192,pt_pp192}.cubin* "$root"/build/cubins-p3/{bs256_ws,bs128x192_ws_2x1}.cubin* "$d/"
    cp "$root/build/cubins-p6/r2.yaml" "$d/"
    for pair in "specs/h200_fp8_e4m3_blockscale_192x128_ws.yaml bs192_ah" "bench/lead41/bs256_ws.yaml bs256_ws_ah" \
                "bench/lead41/bs128x192_ws_2x1.yaml bs128x192_ws_2x1_ah"; do
      set -- $pair
      "$g" "$root/$1" -o "$d/$2.cubin" --ptxas-verbose 2>"$d/ptx/$2.ptxas.txt" || exit 1
      if grep -q "C75[0-9][0-9]" "$d/ptx/$2.ptxas.txt" || grep -Eq "[1-9][0-9]* bytes spill" "$d/ptx/$2.ptxas.txt"; then
        cat "$d/ptx/$2.ptxas.txt"; exit 1; fi
      "$g" "$root/$1" --emit=ptx -o "$d/ptx/$2.ptx"
    done ;;
  q3)
    # bs256_ws_2x1 by main's compiler is built beforehand (the lowering's one-line `ahead` change reverted) into
    # $d/bs256_ws_2x1.cubin; this tree's build beside it
    d=$root/build/cubins-q3; mkdir -p "$d/ptx"
    "$root/build/bin/gemmc" "$root/bench/lead41/bs256_ws_2x1.yaml" -o "$d/bs256_ws_2x1_ah.cubin" --ptxas-verbose \
      2>"$d/ptx/bs256_ws_2x1_ah.ptxas.txt" || exit 1
    cp "$root"/build/cubins-q2/{bs256_ws_ah,bs192,pt_pp192}.cubin* "$root"/build/cubins-p6/{pt_pp,bs256}.cubin* "$d/"
    cp "$root/build/cubins-p6/r2.yaml" "$root/build/lead41/deepgemm_bs" "$d/" ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
ls "$d"
