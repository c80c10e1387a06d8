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
# reports a spill or a C75xx warning.
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
      if grep -q "C75[0-9][0-9]" "$out/$name.ptxas.txt" ||
         grep -Eq "[1-9][0-9]* bytes spill (stores|loads)" "$out/$name.ptxas.txt"; then
        echo "$name: FAILED: ptxas reports a spill or a C75xx warning:"; cat "$out/$name.ptxas.txt"; status=1
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
