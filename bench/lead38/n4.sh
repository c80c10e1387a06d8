#!/usr/bin/env bash
# lead round n4 (DIR = build/cubins-n3: bench/lead37/build_cubins.sh n3): what round n3 (session 38, on an H100) ran
# out of time for. n3's candidate benches reached 5 of its 14 shapes in their 70 s and its suite 11 of its 62
# cubins in 80 s; here the 9 other shapes in two processes, then the suite on each shape's tune picks 1 and 2
# not yet checked (the first five shapes' picks first: they are the ones read).
OUT=${OUT:-./out}; mkdir -p "$OUT"
dir=${1:-build/cubins-n3}
source scripts/gpu_common.sh
gpu_round_begin bench/lead38/n4.sh n4 "$dir" 500
gpu_stage_build 150 || exit 1
rest=qwen25_7b_qkv_m128,qwen25_7b_qkv_m1024,qwen25_7b_down_m777,dsv3_q_a_m100,dsv3_q_a_m255,dsv3_q_a_m512
rest+=,dsv3_o_m777,dsv3_expert_down_m3,dsv3_dense_up_m255
for i in 1 2; do gpu_bench "cand$i" 140 --cubin-dir "$dir" --suite "$dir/shapes.yaml" --shapes "$rest"; done
picks=()
for s in llama3_70b_qkv_m256 llama3_70b_qkv_m512 mistral_7b_qkv_m777 llama3_8b_o_m3 qwen25_7b_qkv_m3 ${rest//,/ }; do
  for i in 1 2; do
    [ "$s" = dsv3_dense_up_m255 ] || [ "$s$i" = dsv3_expert_down_m31 ] || picks+=("$dir/tune__${s}_$i.cubin")
  done
done
gpu_stage_suite 150 "$gpu_suite_shapes" "${picks[@]}"
