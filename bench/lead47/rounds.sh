#!/usr/bin/env bash
# Session 47's lead rounds on the GPU machine: rounds.sh ROUND [DIR] (DIR = build/cubins-ROUND, from
# bench/lead47/build_cubins.sh ROUND), or staged as scripts/gpu_ROUND.sh (the round read from that name). Predictions
# and results in bench/lead47/README.md. X_PROCESSES (default "1 2") names the interleaved processes.
# x1: bs192, bs256 and pt_pp192 at 8192 x 8192 with K = 4096-32768 (x1.yaml), two interleaved processes, then bs192
#     and pt_pp192 at the power cap at K = 8192 and 32768: a tile's fixed cost or the K loop's folds.
# x2: the per-tensor and per-row/column 128x128 and 128x192 pingpong kernels and bs192 / bs256 at M = 512-4096 and
#     16384 on 8192- and 28672-wide layers and at K = 24576-32768 on cube8192 (x2.yaml), two interleaved processes,
#     then bs192 and bs256 at the power cap at 8192 x 8192 x 28672 and 32768.
OUT=${OUT:-./out}; mkdir -p "$OUT"
base=$(basename "$0" .sh)
round=${1:-${base#gpu_}}
[ "$round" = rounds ] && { echo "usage: rounds.sh ROUND [DIR]"; exit 2; }
dir=${2:-build/cubins-$round}
source scripts/gpu_common.sh
case $round in
  x1) limit=240 per=60 cubins='bs192*.cubin,pt_pp192.cubin' shapes=k8192,k32768 ;;
  x2) limit=330 per=120 cubins='bs*.cubin' shapes=k28672,k32768 ;;
  *) echo "unknown round $round"; exit 2 ;;
esac
gpu_round_begin bench/lead47/rounds.sh "$round" "$dir" "$limit"
gpu_stage_build 150 || exit 1
for i in ${X_PROCESSES:-1 2}; do gpu_bench "k-$i" "$per" --cubin-dir "$dir" --suite "$dir/$round.yaml"; done
gpu_sustain sus 60 --cubin-dir "$dir" --suite "$dir/$round.yaml" --cubins "$cubins" --shapes "$shapes"
