#!/usr/bin/env bash
# stage.sh BRANCH WORKTREE [BUILD_SUBDIR...]: put BRANCH's committed tree
# (without bench/results, docs, lib, tools, test/lit) and WORKTREE's
# build/<BUILD_SUBDIR> folders under /work/main/build/stage/BRANCH, for a
# device call carrying build/stage.
set -euo pipefail
b=$1 wt=$2; shift 2
dst=/work/main/build/stage/$b
rm -rf "$dst"; mkdir -p "$dst"
git -C "$wt" archive "${REF:-$b}" | tar -x -C "$dst"
rm -rf "$dst"/bench/results "$dst"/docs "$dst"/lib "$dst"/tools "$dst"/test/lit
for d in "$@"; do mkdir -p "$dst/build"; cp -r "$wt/build/$d" "$dst/build/$d"; done
du -sh "$dst"
