#!/usr/bin/env python3
"""Triton's standard tiled matmul (grouped raster, autotuned over six configs)
timed on a gemmc-bench suite: the peer column of bench/RESULTS.md.

    python3 bench/triton_matmul.py [--suite bench/suites/anchors.yaml]
        [--shapes a,b] [--b-layout row|col] [--iters 30] [--warmup 5] [--json OUT]

Same method as gemmc-bench and shared/anchors/anchors.py: bf16 operands, fp32
accumulation, random inputs, CUDA events, median of the timed runs. Checked
against torch (fp32) before timing. Writes {"rows": [{"shape", "tflops", ...}]}
which gemmc-bench --triton and bench/merge_results.py read.
"""
import argparse
import json
import os
import re
import statistics
import sys

import torch
import triton
import triton.language as tl


def read_suite(path):
    """The shapes of a suite file (bench/README.md's YAML subset)."""
    shapes = []
    for line in open(path):
        line = line.split("#", 1)[0]
        m = re.match(r"\s*-\s*\{(.*)\}\s*$", line)
        if not m:
            continue
        fields = dict(re.findall(r"(\w+):\s*([^,\[\]]+?)\s*(?:,|$)", m.group(1)))
        shapes.append((fields["name"].strip('"'), int(fields["m"]), int(fields["n"]), int(fields["k"])))
    return shapes


@triton.autotune(configs=[
    triton.Config({'BM': 128, 'BN': 256, 'BK': 64, 'G': 8}, num_stages=3, num_warps=8),
    triton.Config({'BM': 128, 'BN': 128, 'BK': 64, 'G': 8}, num_stages=4, num_warps=4),
    triton.Config({'BM': 128, 'BN': 128, 'BK': 64, 'G': 8}, num_stages=4, num_warps=8),
    triton.Config({'BM': 64, 'BN': 128, 'BK': 64, 'G': 8}, num_stages=4, num_warps=4),
    triton.Config({'BM': 64, 'BN': 256, 'BK': 64, 'G': 8}, num_stages=4, num_warps=4),
    triton.Config({'BM': 128, 'BN': 64, 'BK': 64, 'G': 8}, num_stages=4, num_warps=4),
], key=['M', 'N', 'K'])
@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, G: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    nig = G * npn
    gid = pid // nig
    fm = gid * G
    gs = min(npm - fm, G)
    pm = fm + ((pid % nig) % gs)
    pn = (pid % nig) // gs
    rm = (pm * BM + tl.arange(0, BM)) % M
    rn = (pn * BN + tl.arange(0, BN)) % N
    rk = tl.arange(0, BK)
    ap = a + rm[:, None] * sam + rk[None, :] * sak
    bp = b + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(ap, mask=rk[None, :] < K - k * BK, other=0.0)
        y = tl.load(bp, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        ap += BK * sak
        bp += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + cm[:, None] * scm + cn[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def triton_mm(a, b, c):
    M, K = a.shape
    _, N = b.shape
    grid = lambda meta: (triton.cdiv(M, meta['BM']) * triton.cdiv(N, meta['BN']),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))


def time_ms(fn, iters, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        s = torch.cuda.Event(enable_timing=True)
        e = torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(s.elapsed_time(e))
    return statistics.median(ts), ts


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--suite", default=os.path.join(root, "bench/suites/anchors.yaml"))
    ap.add_argument("--shapes", default="")
    ap.add_argument("--b-layout", choices=["row", "col"], default="row",
                    help="row: B is N contiguous (as in shared/anchors); col: K contiguous")
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", default=os.path.join(os.environ.get("OUT", "."), "triton.json"))
    args = ap.parse_args()
    only = set(filter(None, args.shapes.split(",")))
    rows = []
    print(f"triton_matmul: {torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}",
          flush=True)
    for name, M, N, K in read_suite(args.suite):
        if only and name not in only:
            continue
        torch.manual_seed(0)
        a = torch.randn(M, K, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(K, N, device="cuda", dtype=torch.bfloat16)
        if args.b_layout == "col":
            b = b.t().contiguous().t()
        c = torch.empty(M, N, device="cuda", dtype=torch.bfloat16)
        c.fill_(float("nan"))
        triton_mm(a, b, c)
        # cuBLAS bf16 as the reference: an fp32 product of the largest shapes
        # would take a minute; both sides err by ~2e-3, a wrong kernel by ~1.
        ref = (a @ b).float()
        err = ((c.float() - ref).norm() / ref.norm()).item()
        row = {"shape": name, "M": M, "N": N, "K": K, "b_layout": args.b_layout, "rel_err": err}
        if not (err < 1e-2):
            row.update(status="WRONG", tflops=None)
        else:
            ms, ts = time_ms(lambda: triton_mm(a, b, c), args.iters, args.warmup)
            row.update(status="ok", ms=ms, ms_min=min(ts), ms_max=max(ts), tflops=2.0 * M * N * K / ms / 1e9,
                       config=str(matmul_kernel.best_config))
        rows.append(row)
        print(f"  {name:17s} {M}x{N}x{K}: {row.get('tflops') or 0:.1f} TFLOP/s  err {err:.1e}  "
              f"{row.get('config', row['status'])}", flush=True)
        del a, b, c, ref
        torch.cuda.empty_cache()
    out = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "iters": args.iters, "warmup": args.warmup, "rows": rows}
    with open(args.json, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {args.json}")
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
