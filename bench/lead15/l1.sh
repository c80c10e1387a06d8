#!/usr/bin/env bash
# session 15 lead, round l1 (DIR = build/cubins-l1: scripts/build_cubins.sh --check DIR with bench/lead15/{bs,bs_g16,
# bs_sk_g16,pt_sk,pt_pp,pt_coop,rc_pp,rc_sk}.yaml; bench/lead15/fp8.yaml copied into DIR). On the device (cuobjdump):
# bench/lead15/sass_yield.py writes the block-scaled cubins with their fold's FFMA runs yielding (y_: chain rule,
# a_: every reused FFMA) and the per-row/column ones with their epilogue's FMUL runs yielding (y_rc_*); the suite
# on every patched cubin; then two gemmc-bench processes (each kernel interleaved with its cuBLASLt peer).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l1}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
patch() { # SRC DST ARGS...
  local src=$1 dst=$2; shift 2
  python3 bench/lead15/sass_yield.py "$dir/$src.cubin" "$dir/$dst.cubin" --stats "$OUT/yield.txt" "$@" &&
    cp "$dir/$src.cubin.json" "$dir/$dst.cubin.json" || { echo "patch $dst: failed ($?)"; rm -f "$dir/$dst.cubin"; }
}
for c in bs bs_g16 bs_sk_g16; do patch $c y_$c; done
patch bs a_bs --mode all
for c in rc_pp rc_sk; do patch $c y_$c --ops FMUL; done
cuobjdump -sass "$dir/bs.cubin" | gzip > "$OUT/bs.sass.gz"
cuobjdump -sass "$dir/rc_pp.cubin" | gzip > "$OUT/rc_pp.sass.gz"
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 60 "$ragged" $(ls "$dir"/y_*.cubin "$dir"/a_*.cubin 2>/dev/null)
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir" && ls *.cubin | paste -sd,)" $(cd "$dir" && ls y_*.cubin a_*.cubin 2>/dev/null))
gpu_bench bench1 150 --cubin-dir "$dir" --cubins "$all" --suite "$dir/fp8.yaml"
key=$(echo "$all" | tr , '\n' | grep -E '^(y_|a_)?(bs|bs_g16|pt_coop|pt_sk|rc_pp)\.cubin$' | paste -sd,)
gpu_bench bench2 100 --cubin-dir "$dir" --cubins "$key" --suite "$dir/fp8.yaml"
