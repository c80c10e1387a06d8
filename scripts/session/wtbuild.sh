#!/usr/bin/env bash
# wtbuild.sh WORKTREE: configure (once) and build WORKTREE/build with ccache.
set -e
wt=$1
export CCACHE_BASEDIR=/work CCACHE_DIR=/work/.ccache CCACHE_NOHASHDIR=1
[ -f "$wt/build/build.ninja" ] || cmake -G Ninja -S "$wt" -B "$wt/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build "$wt/build" "${@:2}"
