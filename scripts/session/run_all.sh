#!/usr/bin/env bash
# On the device: run_all.sh "branch:args" ...: run each branch's
# scripts/gpu_<branch>.sh args with OUT=$OUT/<branch>, tar it to
# $OUT/<branch>.tgz. LIMIT seconds per branch (default 170).
#
# Every branch runs from the same folder (/tmp/stage-work) with the same
# build folder (/tmp/gb-shared): sync_tree copies only the files whose bytes
# differ from the last branch's (with a fresh mtime) and removes the rest, so
# the runtime and benchmarks, which the branches share, are built once a call
# instead of once a branch (60-90 s of device time each).
here=$(cd "$(dirname "$0")" && pwd)
work=/tmp/stage-work
sync_tree() {
  python3 - "$1" "$2" <<'PY'
import filecmp, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
keep = set()
for root, dirs, files in os.walk(src):
    rel = os.path.relpath(root, src)
    os.makedirs(os.path.join(dst, rel), exist_ok=True)
    for f in files:
        s, d = os.path.join(root, f), os.path.join(dst, rel, f)
        keep.add(os.path.normpath(d))
        if not (os.path.isfile(d) and filecmp.cmp(s, d, shallow=False)):
            shutil.copyfile(s, d)
            shutil.copymode(s, d)
for root, dirs, files in os.walk(dst):
    for f in files:
        d = os.path.normpath(os.path.join(root, f))
        if d not in keep:
            os.remove(d)
PY
}
for spec in "$@"; do
  b=${spec%%:*}; args=${spec#*:}; [ "$args" = "$spec" ] && args=
  echo "=== $b ($args) $(date -u +%T)"
  sync_tree "$here/$b" "$work"
  (cd "$work" && GEMMC_GPU_BUILD=/tmp/gb-shared OUT=$OUT/$b timeout --kill-after=10 ${LIMIT:-170} bash scripts/gpu_$b.sh $args 2>&1 | tail -40)
  echo "=== $b rc=$? $(date -u +%T)"
  (cd "$OUT" && tar czf "$b.tgz" "$b" && rm -rf "$b")
done
