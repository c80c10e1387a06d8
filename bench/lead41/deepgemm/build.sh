#!/usr/bin/env bash
# Build build/lead41/deepgemm_bs: DeepGEMM's sm90_fp8_gemm_1d2d kernel (block-scaled
# FP8, DeepSeek-V3 scaling) in a standalone runner. See README.md.
#
#   bench/lead41/deepgemm/build.sh            # all configs
#   JOBS=4 bench/lead41/deepgemm/build.sh     # parallel nvcc jobs (default: nproc)
#
# Sources come from the read-only git mirrors, extracted (once per commit) to /tmp:
#   DG_MIRROR      (default /work/.mirror/deepseek-ai+DeepGEMM/repo)  -> $DG_SRC
#   CUTLASS_MIRROR (default /work/.mirror/NVIDIA+cutlass/repo)        -> $CUTLASS_SRC
# Only deep_gemm/include and CUTLASS include/ are extracted (CUTLASS's full archive
# fails on a blob missing from the mirror under media/; the headers are complete).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=$ROOT/build/lead41
OBJ=$OUT/deepgemm_obj
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
NVCC=$CUDA_HOME/bin/nvcc
DG_MIRROR=${DG_MIRROR:-/work/.mirror/deepseek-ai+DeepGEMM/repo}
CUTLASS_MIRROR=${CUTLASS_MIRROR:-/work/.mirror/NVIDIA+cutlass/repo}
DG_SRC=${DG_SRC:-/tmp/lead41_deepgemm_src}
CUTLASS_SRC=${CUTLASS_SRC:-/tmp/lead41_cutlass_src}
JOBS=${JOBS:-$(nproc)}
NUM_SMS=${NUM_SMS:-132}   # kNumSMs: H100 SXM / H200 have 132 SMs

extract() {  # mirror dest path
    local mirror=$1 dest=$2 path=$3 commit
    commit=$(git -C "$mirror" rev-parse HEAD)
    if [[ -f $dest/.commit && $(cat "$dest/.commit") == "$commit" && -d $dest/$path ]]; then
        return
    fi
    echo "extracting $mirror ($commit) $path -> $dest"
    rm -rf "$dest"
    mkdir -p "$dest"
    # (git may print "invalid object" for an unrelated blob missing from the mirror;
    #  the file count check below is what matters)
    git -C "$mirror" archive "$commit" "$path" 2>"$dest.archive.err" | tar -x -C "$dest"
    local want have
    want=$(git -C "$mirror" ls-tree -r "$commit" "$path" | wc -l)
    have=$(find "$dest/$path" -type f | wc -l)
    if [[ $want != "$have" ]]; then
        cat "$dest.archive.err" >&2
        echo "extraction of $path from $mirror incomplete: $have of $want files" >&2
        exit 1
    fi
    echo "$commit" > "$dest/.commit"
}
extract "$DG_MIRROR" "$DG_SRC" deep_gemm/include
extract "$CUTLASS_MIRROR" "$CUTLASS_SRC" include
DG_COMMIT=$(cat "$DG_SRC/.commit")
CUTLASS_COMMIT=$(cat "$CUTLASS_SRC/.commit")

mkdir -p "$OUT" "$OBJ"

# Flags: what DeepGEMM's JIT (csrc/jit/compiler.hpp, NVCCCompiler) passes, as an offline build.
COMMON=(-O3 -std=c++20 -gencode arch=compute_90a,code=sm_90a
        --expt-relaxed-constexpr --expt-extended-lambda
        --diag-suppress=39,161,174,177,186,940
        -Xptxas --register-usage-level=10 -Xptxas -v
        -Xcompiler -O3,-Wno-deprecated-declarations,-Wno-abi
        -I"$DG_SRC/deep_gemm/include" -I"$CUTLASS_SRC/include" -I"$HERE")

# Config table: base name, BM, BN, stages, cluster, multicast-on-A, N, K.
# Which config DeepGEMM's heuristic picks for which shape and why: see README.md and the
# comment block below.
#
# DeepGEMM heuristics/sm90.hpp (get_best_config<SM90ArchSpec>) for a normal 1D2D GEMM,
# e4m3 A/B, bf16 D, 132 SMs, candidates BM in {64,128,256}, BN in 16..192 step 16 minus
# {176} (1D2D unroll rule), not both > 128, stages = (232448 - extras) / per-stage >= 3,
# cluster 1 or 2 (cluster_n = 2 -> multicast A, cluster_m = 2 -> multicast B); the modeled
# max(L1, L2) cycles / wave efficiency is minimised; multicast is barred when there is
# only one wave. Picks (num_cycles of the top 3, from a replica of that code):
#   cube4096       4096x4096x4096:   256x128 cl_n=2 (mcA) 3 st  102399 | 256x128 mcB 118098 | 256x112 mcA 122239
#   cube8192       8192x8192x8192:   256x128 cl_n=2 (mcA) 3 st  802815 | 256x112 mcA 863999 | 128x192 mcB 876287
#   prefill_mlp_up 8192x28672x8192:  256x128 cl_n=2 (mcA) 3 st 2759679 | 256x112 mcA 3023999 | 128x192 mcB 3046143
# Neighbours (compiled for the same three N/K pairs):
#   256x112x3xA2  BN 112 (unaligned to 128: two SFB rows per tile, 32B D swizzle), #2 for the 8192 shapes
#   128x192x4xB2  BM 128 / BN 192 (two SFB rows, 3 unrolled former-iter variants), multicast B, #3
#   256x128x3x1   the pick without multicast (cluster 1)
# Other shapes: add "n k" to SHAPES_NK (DeepGEMM compiles N and K into the kernel by default,
# compiled_dims="nk"). A runtime-N/K build (compiled_dims="", N=K=0 below) of 256x128x3xA2 was
# tried and spills 36 bytes with this nvcc (0 with N/K compiled in), so it is not built.
SHAPES_NK=("4096 4096" "8192 8192" "28672 8192")
CONFIGS=()
for nk in "${SHAPES_NK[@]}"; do
    read -r n k <<< "$nk"
    CONFIGS+=("256x128x3xA2 256 128 3 2 1 $n $k")   # heuristic pick
    CONFIGS+=("256x112x3xA2 256 112 3 2 1 $n $k")
    CONFIGS+=("128x192x4xB2 128 192 4 2 0 $n $k")
    CONFIGS+=("256x128x3x1  256 128 3 1 0 $n $k")
done

# Rebuild an object only when it is older than its inputs (FORCE=1 rebuilds all; use it
# after changing COMMON flags: an object's name encodes its config, not the flags).
up_to_date() {  # obj
    [[ ${FORCE:-0} == 0 && -f $1 && $1 -nt $HERE/instance.cu && $1 -nt $HERE/dg_bench.h
       && $1 -nt $DG_SRC/.commit && $1 -nt $CUTLASS_SRC/.commit ]]
}

compile_instance() {
    local base=$1 bm=$2 bn=$3 st=$4 cl=$5 mca=$6 n=$7 k=$8 name tag
    if [[ $n == 0 && $k == 0 ]]; then name="$base:dyn"; else name="$base:n${n}k${k}"; fi
    tag=$(echo "$name" | tr ':' '_')
    if up_to_date "$OBJ/$tag.o"; then echo "  up to date $name"; return 0; fi
    "$NVCC" "${COMMON[@]}" \
        -DDGB_NAME="\"$name\"" -DDGB_BASE="\"$base\"" \
        -DDGB_BM="$bm" -DDGB_BN="$bn" -DDGB_STAGES="$st" -DDGB_CLUSTER="$cl" -DDGB_MC_ON_A="$mca" \
        -DDGB_SHAPE_N="$n" -DDGB_SHAPE_K="$k" -DDGB_NUM_SMS="$NUM_SMS" \
        -c "$HERE/instance.cu" -o "$OBJ/$tag.o" > "$OBJ/$tag.log" 2>&1 || {
            cat "$OBJ/$tag.log" >&2; echo "FAILED: $name" >&2; return 1; }
    echo "  built $name"
}

echo "compiling ${#CONFIGS[@]} DeepGEMM instances with $JOBS jobs"
start=$(date +%s)
pids=()
fail=0
for cfg in "${CONFIGS[@]}"; do
    # shellcheck disable=SC2086
    compile_instance $cfg &
    pids+=($!)
    while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n || fail=1; done
done
for p in "${pids[@]}"; do wait "$p" || fail=1; done
(( fail == 0 )) || { echo "instance compilation failed" >&2; exit 1; }

echo "compiling runner"
"$NVCC" "${COMMON[@]}" -DDGB_DEEPGEMM_COMMIT="\"$DG_COMMIT\"" -DDGB_CUTLASS_COMMIT="\"$CUTLASS_COMMIT\"" \
    -c "$HERE/runner.cu" -o "$OBJ/runner.o" > "$OBJ/runner.log" 2>&1 || { cat "$OBJ/runner.log" >&2; exit 1; }

objs=()
for cfg in "${CONFIGS[@]}"; do
    read -r base _ _ _ _ _ n k <<< "$cfg"
    if [[ $n == 0 && $k == 0 ]]; then name="$base:dyn"; else name="$base:n${n}k${k}"; fi
    objs+=("$OBJ/$(echo "$name" | tr ':' '_').o")
done
"$NVCC" -gencode arch=compute_90a,code=sm_90a -cudart static "$OBJ/runner.o" "${objs[@]}" -o "$OUT/deepgemm_bs"
echo "linked $OUT/deepgemm_bs in $(( $(date +%s) - start )) s"

# ptxas report: one section per object, then a summary line per kernel
PTX=$OUT/deepgemm_ptxas.txt
{
    echo "# deepgemm_bs ptxas -v (nvcc $("$NVCC" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), DeepGEMM $DG_COMMIT, CUTLASS $CUTLASS_COMMIT)"
    echo "# note: the 1D2D kernel sets per-warpgroup register budgets with setmaxnreg (TMA 40, math 232/248);"
    echo "#       'Used N registers' is the launch-time budget (65536 / threads, rounded down to 8)."
    echo "# summary (object: registers, stack, spill stores, spill loads):"
    for f in "$OBJ"/*.log; do
        awk -v obj="$(basename "$f" .log)" '
            /Compiling entry function/ { fn = $0; sub(/.*function ./, "", fn); sub(/. for .*/, "", fn) }
            /bytes stack frame/ { st = $1; ss = $5; sl = $9 }
            /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i+1);
                if (obj != "runner" || fn ~ /ref_gemm|compare|sumsq|gen_/) {
                    short = fn; if (length(short) > 40) short = substr(short, 1, 40) "...";
                    printf "#   %-28s %-44s regs %3s stack %s spill st %s ld %s\n", obj, (obj == "runner" ? short : "sm90_fp8_gemm_1d2d_impl"), r, st, ss, sl } }' "$f"
    done
    for f in "$OBJ"/*.log; do
        echo
        echo "## $(basename "$f" .log)"
        cat "$f"
    done
} > "$PTX"
echo "ptxas report: $PTX"

spills=$(grep -E 'bytes spill (stores|loads)' "$PTX" | grep -vE ' 0 bytes spill stores, 0 bytes spill loads' || true)
stack=$(grep -E 'bytes stack frame' "$PTX" | grep -vE '^\s*0 bytes stack frame' || true)
if [[ -n $spills ]]; then
    echo "ERROR: register spills:" >&2; echo "$spills" >&2; exit 1
fi
if [[ -n $stack ]]; then
    echo "note: non-zero stack frames:"; echo "$stack"
fi
echo "no spills"
