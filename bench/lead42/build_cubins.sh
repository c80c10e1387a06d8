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
  *) echo "unknown round $round" >&2; exit 2 ;;
esac
ls "$d"
