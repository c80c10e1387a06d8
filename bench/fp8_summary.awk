# The FP8 round scripts' ratio table (scripts/gpu_fp8f.sh, gpu_fp8g.sh), from
# gemmc-bench's per-run lines, which carry whole cubin names:
# "SHAPE CUBIN ok... X TFLOP/s (cuBLAS Y)". Each kernel's TFLOP/s; its
# cuBLASLt peer of the same line (per-tensor, OUTER_VEC or VEC128 x
# BLK128x128) and the ratio (goal >= 1.0); over the per-tensor kernel `t`
# of the same process (block-scaled goal >= 0.9); block-scaled kernels over
# the reference block-scaled kernel `ob`.
#   awk -v t=TENSOR_CUBIN -v ob=BLOCK_CUBIN -f bench/fp8_summary.awk BENCH.txt... | sort
/^shape /{next}
{ for (i = 3; i < NF; ++i) if ($i == "TFLOP/s" && $(i + 1) == "(cuBLAS") {
    x = $(i + 2); sub(/\)$/, "", x); v[$1, $2] = $(i - 1); peer[$1, $2] = x; seen[$1 SUBSEP $2] = 1 } }
function of(a, b) { return b > 0 ? sprintf("%.3f", a / b) : "-" }
END { for (key in seen) { split(key, k, SUBSEP); s = k[1]; n = k[2]; x = v[s, n]
    printf "%-16s %-56s %7.1f | peer %7s %6s | /128x256 %s | /main-block %s\n", s, n, x, peer[s, n],
      of(x, peer[s, n] + 0), of(x, v[s, t]), n ~ /blockscale/ ? of(x, v[s, ob]) : "-" } }
