#!/usr/bin/env bash
# go.sh "H200 rounds" "other rounds": each round "name:limit"; runs the first list on an H200, the second elsewhere.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "GPU: $gpu"
here=$(cd "$(dirname "$0")" && pwd)
case "$gpu" in *H200*) rounds=$1 ;; *) rounds=$2 ;; esac
for r in $rounds; do LIMIT=${r#*:} bash "$here/run_all.sh" "${r%%:*}:"; done
