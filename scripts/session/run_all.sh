#!/usr/bin/env bash
# On the device: run_all.sh "branch:args" ...: cd build/stage/<branch>,
# run scripts/gpu_<branch>.sh args with OUT=$OUT/<branch>, tar it to
# $OUT/<branch>.tgz. LIMIT seconds per branch (default 170).
here=$(cd "$(dirname "$0")" && pwd)
for spec in "$@"; do
  b=${spec%%:*}; args=${spec#*:}; [ "$args" = "$spec" ] && args=
  echo "=== $b ($args) $(date -u +%T)"
  (cd "$here/$b" && GEMMC_GPU_BUILD=/tmp/gb-$b OUT=$OUT/$b timeout --kill-after=10 ${LIMIT:-170} bash scripts/gpu_$b.sh $args 2>&1 | tail -40)
  echo "=== $b rc=$? $(date -u +%T)"
  (cd "$OUT" && tar czf "$b.tgz" "$b" && rm -rf "$b")
done
