#!/usr/bin/env bash
# Installs what gemmc needs to build on Debian 12 (apt only) and configures
# the build directory. Safe to run again: it installs only what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}

packages=(cmake ninja-build g++ llvm-22-dev libmlir-22-dev mlir-22-tools libgtest-dev)
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

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build"
