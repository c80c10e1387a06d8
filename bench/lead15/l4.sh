#!/usr/bin/env bash
# session 15 lead, round l4 (DIR = build/cubins-l4: DIR/ptbundle and DIR/bsbundle, `gemmc bundle` of
# bench/bundles/h200_fp8_e4m3_tn.yaml and _blockscale_tn.yaml at the commit that ships their small-M rules;
# DIR/rc: old_rc_sk / old_rc_pp / old_rc_256 (main's gemmc) and b_ the same with branch rcpf's epilogue, the next
# round's column scales loaded before this round's wait; pt_sk; bench/lead13/fp8.yaml and bench/lead14/bundle_fp8.yaml
# + bench/lead15/mid_fp8.yaml in DIR). The suite on the b_ cubins; both bundles on the small-M, mid-M and goal
# shapes; old_ and b_ interleaved on the goal shapes in two gemmc-bench processes.
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-l4}
source scripts/gpu_common.sh
log=$OUT/logs.txt; : >"$log"
gpu_stage_build 150 || exit 1
ragged=1x1x16,129x130x1000,127x255x200,1000x1000x1000,300x520x4096,2048x2048x16384
gpu_stage_suite 50 "$ragged" "$dir"/rc/b_*.cubin
rc=$?
all=$(gpu_drop_failed "$rc" "$(cd "$dir/rc" && ls *.cubin | paste -sd,)" $(cd "$dir/rc" && ls b_*.cubin))
gpu_bench rc1 80 --cubin-dir "$dir/rc" --cubins "$all" --suite "$dir/rc/fp8.yaml"
gpu_bench ptbundle 60 --bundle "$dir/ptbundle" --suite "$dir/bundle_fp8.yaml"
gpu_bench ptmid 30 --bundle "$dir/ptbundle" --suite "$dir/mid_fp8.yaml"
gpu_bench bsbundle 60 --bundle "$dir/bsbundle" --suite "$dir/bundle_fp8.yaml"
gpu_bench rc2 80 --cubin-dir "$dir/rc" --cubins "$all" --suite "$dir/rc/fp8.yaml"
