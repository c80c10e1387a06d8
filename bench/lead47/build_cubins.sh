#!/usr/bin/env bash
# bench/lead47/build_cubins.sh ROUND: session 47's round ROUND kernels into build/cubins-ROUND by this tree's compiler
# (GEMMC, default build/bin/gemmc), each ptxas-checked (cubins_common.sh: no spill, no C75xx).
# x1: the block-scaled 192x128 and 128x256 kernels (bs192, bs256) and the per-tensor 128x192 pingpong (pt_pp192) for
# the K sweep (bench/lead47/x1.yaml).
# x2: the per-tensor and per-row/column 128x128 and 128x192 pingpong kernels and bs192 / bs256 on the large layers at
# M = 512-4096 and 16384 (bench/lead47/x2.yaml).
set -euo pipefail
round=${1:?round (x1, x2)}
. "$(dirname "$0")/../../scripts/session/cubins_common.sh"
round_out "$round" '*.yaml'

case $round in
  x1) kernels pt_pp192 bs192 bs256 ;;
  x2) kernels pt_pp128 pt_pp192 rc_pp128 rc_pp192 bs192 bs256 ;;
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
cp bench/lead47/$round.yaml "$out/"
