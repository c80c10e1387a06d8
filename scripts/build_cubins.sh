#!/usr/bin/env bash
# Compiles specs to cubins + manifests in one folder, for the GPU machine
# (which has no MLIR). Prints each spec's compile time and ptxas's verdict.
#   scripts/build_cubins.sh [--check] [OUT_DIR] [SPEC...]
# Defaults: build/cubins, every sm_90a and sm_80 spec in specs/ and
# test/gpu/specs/. An sm_90a spec becomes NAME.cubin; an sm_80 spec becomes
# NAME.fatbin (sm_80 SASS + compute_80 PTX, which the driver JIT-compiles on
# the H200), each with its manifest FILE.json.
# --check: also fail when the PTX lacks the target's instructions (sm_90a:
# wgmma.mma_async, cp.async.bulk.tensor, mbarrier.try_wait; sm_80:
# cp.async.cg.shared.global, ldmatrix, mma.sync.aligned; sm_100a: tcgen05.mma,
# cp.async.bulk.tensor, tcgen05.ld), or when ptxas
# reports a spill or a C75xx warning. An sm_80 spec's PTX is also assembled
# with `ptxas -arch=sm_90 -v` (into NAME.sm90.ptxas.txt): that is the code
# the driver JIT-compiles on the H200, and ptxas allocates registers for
# sm_90 differently (a spill there that sm_80 does not have), so a spill or
# a C75xx warning there fails the check too.
set -euo pipefail
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=${GEMMC_BUILD_DIR:-$root/build}
out=${1:-$build/cubins}
shift || true
specs=("$@")
if ((${#specs[@]} == 0)); then
  for f in "$root"/specs/*.yaml "$root"/test/gpu/specs/*.yaml; do
    grep -Eq "^arch: sm_(90a|80)$" "$f" && specs+=("$f")
  done
fi
mkdir -p "$out"
status=0
# The ptxas gemmc assembles with: under its default --cuda-root, else PATH.
ptxas=/usr/local/cuda/bin/ptxas
[ -x "$ptxas" ] || ptxas=$(command -v ptxas || echo ptxas)
# spilled LOG NAME WHAT: fail (status 1) when LOG has a spill or a C75xx.
spilled() {
  if grep -q "C75[0-9][0-9]" "$1" || grep -Eq "[1-9][0-9]* bytes spill (stores|loads)" "$1"; then
    echo "$2: FAILED: ptxas$3 reports a spill or a C75xx warning:"; cat "$1"; status=1
  fi
}
for spec in "${specs[@]}"; do
  name=$(basename "$spec" .yaml)
  if grep -q "^arch: sm_80$" "$spec"; then
    file=$name.fatbin
    insns=(cp.async.cg.shared.global ldmatrix mma.sync.aligned)
  elif grep -q "^arch: sm_100a$" "$spec"; then
    file=$name.cubin
    insns=(tcgen05.mma cp.async.bulk.tensor tcgen05.ld)
  else
    file=$name.cubin
    insns=(wgmma.mma_async cp.async.bulk.tensor mbarrier.try_wait)
  fi
  start=$(date +%s%N)
  if "$build/bin/gemmc" "$spec" -o "$out/$file" --ptxas-verbose 2> "$out/$name.ptxas.txt"; then
    end=$(date +%s%N)
    regs=$(grep -o "Used [0-9]* registers" "$out/$name.ptxas.txt" | head -1)
    spill=$(grep -o "[0-9]* bytes spill stores" "$out/$name.ptxas.txt" | head -1)
    printf '%-40s %5d ms  %s, %s\n' "$name" $(( (end - start) / 1000000 )) "$regs" "$spill"
    if ((check)); then
      "$build/bin/gemmc" "$spec" --emit=ptx -o "$out/$name.ptx"
      for insn in "${insns[@]}"; do
        grep -q "$insn" "$out/$name.ptx" || { echo "$name: FAILED: no $insn in the PTX"; status=1; }
      done
      spilled "$out/$name.ptxas.txt" "$name" ""
      if [ "$file" = "$name.fatbin" ]; then
        if "$ptxas" -arch=sm_90 -O3 -v "$out/$name.ptx" -o /dev/null > "$out/$name.sm90.ptxas.txt" 2>&1; then
          spilled "$out/$name.sm90.ptxas.txt" "$name" " -arch=sm_90 (the H200's JIT)"
        else
          echo "$name: FAILED: ptxas -arch=sm_90:"; cat "$out/$name.sm90.ptxas.txt"; status=1
        fi
      fi
    fi
  elif grep -q "\[not-implemented\]" "$out/$name.ptxas.txt"; then
    printf '%-40s skipped: asks for what the lowering does not build yet\n' "$name"
    rm -f "$out/$name.ptxas.txt"
  else
    echo "$name: FAILED"; cat "$out/$name.ptxas.txt"; status=1
  fi
done
# The model's predictions for these cubins, for gemmc-bench's predicted column.
"$root/scripts/predictions.sh" "$out" >/dev/null || status=1
exit $status
