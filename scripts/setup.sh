#!/usr/bin/env bash
# Installs what gemmc needs to build on Debian 12 (apt only) and configures
# the build directory. Safe to run again: it installs only what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}

# --sanitize: the robustness step of scripts/test.sh (scripts/sanitize.sh)
# instead: clang with its sanitizers and libFuzzer, and a clang build with
# GEMMC_SANITIZE and GEMMC_FUZZ in build-san.
sanitize=0
[ "${1:-}" = "--sanitize" ] && sanitize=1

packages=(cmake ninja-build g++ llvm-22-dev libmlir-22-dev mlir-22-tools libgtest-dev)
((sanitize)) && packages+=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gemmc setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ ! -x /usr/local/cuda/bin/ptxas ]; then
  echo "gemmc setup: warning: /usr/local/cuda/bin/ptxas not found; cubin output and ptxas checks need the CUDA toolkit" >&2
fi

if ((sanitize)); then
  build=${GEMMC_SANITIZE_BUILD_DIR:-$root/build-san}
  # -O1: the sanitizers' usual level, and quicker to compile than -O3.
  # Without NDEBUG: gemmc's assertions (and those of LLVM's and MLIR's
  # headers inlined into it) run with the sanitizers; the release build
  # compiles them out, and an assertion that fired on every sm_100a spec went
  # unseen until session 35.
  if [ ! -f "$build/build.ninja" ] || grep -q "^CMAKE_CXX_FLAGS_RELEASE:STRING=-O1 -DNDEBUG" "$build/CMakeCache.txt"; then
    CC=clang-22 CXX=clang++-22 cmake -G Ninja -S "$root" -B "$build" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1" \
      -DCMAKE_C_FLAGS_RELEASE="-O1" -DGEMMC_SANITIZE=ON -DGEMMC_FUZZ=ON >/dev/null
  fi
  cmake --build "$build" --target gemmc gemmc-opt gemmc-launch-probe gemmc-unittests gemmc-fuzzers
  exit 0
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build"
