#!/usr/bin/env bash
# Session 47's lead rounds on the GPU machine: rounds.sh ROUND [DIR] (DIR = build/cubins-ROUND, from
# bench/lead47/build_cubins.sh ROUND), or staged as scripts/gpu_ROUND.sh (the round read from that name). Predictions
# and results in bench/lead47/README.md. X_PROCESSES (default "1 2") names the interleaved processes; X_SHAPES (a
# --shapes list) narrows the interleaved processes' shapes (default: the round's own list, or the whole suite).
# x1: bs192, bs256 and pt_pp192 at 8192 x 8192 with K = 4096-32768 (x1.yaml), two interleaved processes, then bs192
#     and pt_pp192 at the power cap at K = 8192 and 32768: a tile's fixed cost or the K loop's folds.
# x2: the per-tensor and per-row/column 128x128 and 128x192 pingpong kernels and bs192 / bs256 at M = 512-4096 and
#     16384 on 8192- and 28672-wide layers and at K = 24576-32768 on cube8192 (x2.yaml), two interleaved processes,
#     then bs192 and bs256 at the power cap at 8192 x 8192 x 28672 and 32768.
# x2b: the rows of x2.yaml that session 48's x2 processes (120 s each) did not reach: m16384_n28672 and the K sweep
#     (K = 24576-32768), two interleaved processes on build/cubins-x2 (no cap stage: x2's ran).
OUT=${OUT:-./out}; mkdir -p "$OUT"
base=$(basename "$0" .sh)
round=${1:-${base#gpu_}}
[ "$round" = rounds ] && { echo "usage: rounds.sh ROUND [DIR]"; exit 2; }
source scripts/gpu_common.sh
suite=$round only=
case $round in
  x1) limit=240 per=60 cubins='bs192*.cubin,pt_pp192.cubin' shapes=k8192,k32768 ;;
  x2) limit=330 per=120 cubins='bs*.cubin' shapes=k28672,k32768 ;;
  x2b) suite=x2 limit=200 per=90 cubins='' only=m16384_n28672,k24576,k28672,k32768 ;;
  *) echo "unknown round $round"; exit 2 ;;
esac
only=${X_SHAPES:-$only}
dir=${2:-build/cubins-$suite}
gpu_round_begin bench/lead47/rounds.sh "$round" "$dir" "$limit"
gpu_stage_build 150 || exit 1
for i in ${X_PROCESSES:-1 2}; do
  gpu_bench "k-$i" "$per" --cubin-dir "$dir" --suite "$dir/$suite.yaml" ${only:+--shapes "$only"}
done
# x2b has no cap stage (empty cubins); an `if`, so that the script still exits 0 there.
if [ -n "$cubins" ]; then
  gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/$suite.yaml" --cubins "$cubins" --shapes "$shapes"
fi
