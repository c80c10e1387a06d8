"""Round t2 probe: where the e4m3 x e5m2 kernel's bf16 output holds inf in
python/tests/gpu_torch.py (t1: 1x4096x4096 and 2048x2048x8192 failed with
max |c - ref| = inf; K <= 1000 and 4096x8x4096 passed).

    python3 bench/lead23/probe_e5m2.py CUBIN

For each case: inf / NaN counts in C and in the fp32 reference, the first
inf's (row, column), the largest finite |C| and |ref|, the largest error on
finite elements, and torch._scaled_mm's result on the same tensors (mixed
e4m3 x e5m2, bf16 out) where torch has it."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import gemmc  # noqa: E402


def case(kernel, m, n, k, spread_a, spread_b, label):
    a = (torch.randn(m, k, device="cuda") * spread_a).to(torch.float8_e4m3fn)
    b = (torch.randn(n, k, device="cuda") * spread_b).to(torch.float8_e5m2).t()
    one = torch.ones((), device="cuda")
    c = kernel(a, b, scale_a=one, scale_b=one)
    torch.cuda.synchronize()
    ref = a.float() @ b.float()
    cf = c.float()
    inf = torch.isinf(cf)
    where = inf.nonzero()[:3].tolist()
    fin = torch.isfinite(cf)
    err = (cf[fin] - ref[fin]).abs().max().item() if fin.any() else float("nan")
    line = ("%s %dx%dx%d a x%g b x%g: C inf %d nan %d (first %s), ref inf %d; max|C| finite %.4g, max|ref| %.4g, "
            "max err finite %.4g" % (label, m, n, k, spread_a, spread_b, inf.sum().item(), torch.isnan(cf).sum().item(),
                                    where, torch.isinf(ref).sum().item(), cf[fin].abs().max().item() if fin.any() else 0,
                                    ref.abs().max().item(), err))
    try:
        t = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16, use_fast_accum=True).float()
        line += "; torch._scaled_mm inf %d, max err %.4g" % (torch.isinf(t).sum().item(), (t - ref).abs().max().item())
    except (RuntimeError, TypeError) as e:
        line += "; torch._scaled_mm: %s" % str(e).splitlines()[0]
    print(line, flush=True)


def main():
    kernel = gemmc.load(sys.argv[1])
    torch.manual_seed(0)
    for k in (1024, 2048, 3072, 4096, 8192):
        case(kernel, 2048, 2048, k, 16, 16, "K sweep")
    case(kernel, 1, 4096, 4096, 16, 16, "t1 shape")
    case(kernel, 2048, 2048, 8192, 16, 1024, "b larger")
    case(kernel, 2048, 2048, 8192, 1, 1, "both small")
    case(kernel, 2048, 2048, 8192, 16, 0.0625, "b small")
    case(kernel, 256, 256, 8192, 16, 16, "one tile row")


if __name__ == "__main__":
    main()
