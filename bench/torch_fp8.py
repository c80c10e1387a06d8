"""gemmc's FP8 bundles from PyTorch beside torch._scaled_mm, PyTorch's own
FP8 GEMM (cuBLASLt, or CUTLASS for some of its row-wise cases), in one
process on the same tensors.

    python3 bench/torch_fp8.py BUNDLE_DIR [BUNDLE_DIR...] [--shapes MxNxK,...] [--runs N]

Each bundle (a `gemmc bundle` directory) is called through the gemmc Python
package with the scales its kernels take (per tensor, per row / column, or
1x128 / 128x128 blocks); torch._scaled_mm gets the same FP8 tensors and the
same scales in its own layouts, bf16 out, with fast accumulation where the
gemmc kernel accumulates without promotion (per tensor, per row / column;
gemmc-bench's cuBLASLt peer does the same) and without it for block scales
(the block-scaled sum is promoted every 128 of K). Timing: each side's call
captured 10 times in a CUDA graph (no Python in the timed span), the two
graphs replayed in alternating order `runs` times, CUDA events around each
replay; the median per call. Also given: an eager call each (Python's
checks included; the mean of 50 issued back to back, so the longer of the
host path and the kernel) and the largest difference between the two
outputs against the largest |output|. Prints one line per bundle and shape;
a torch build without the scaling mode prints why and goes on.
"""
import argparse
import os
import statistics
import sys
import time

import torch

try:  # the installed package (PYTHONPATH), else the source tree's
    import gemmc
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import gemmc

SHAPES = "16x8192x8192,128x8192x8192,4096x4096x4096,8192x8192x8192,8192x28672x8192"
REPS = 10


def operands(m, n, k):
    """A (M x K, row-major) and B = W.t() for an N x K weight W, e4m3 over
    much of its range."""
    a = (torch.randn(m, k, device="cuda") * 16).to(torch.float8_e4m3fn)
    w = (torch.randn(n, k, device="cuda") * 16).to(torch.float8_e4m3fn)
    return a, w.t()


def scales(kind, m, n, k):
    """(gemmc's scales, torch._scaled_mm's (scale_a, scale_b) candidates) for
    one kind, the same values in each side's layout; for block scales two
    orientations of B's grid are tried (torch versions differ), the first
    that runs and agrees with gemmc is timed."""
    rand = lambda *s: torch.rand(*s, device="cuda") + 0.5  # noqa: E731
    if kind == "tensor":
        sa, sb = rand(()), rand(())
        return {"scale_a": sa, "scale_b": sb}, [(sa, sb)]
    if kind == "rowcol":
        sa, sb = rand(m), rand(n)
        return {"scale_a": sa, "scale_b": sb}, [(sa[:, None], sb[None, :])]
    kb, nb = -(-k // 128), -(-n // 128)
    sa = rand(kb, m).t()                         # M x ceil(K/128), M contiguous
    sb = rand(nb, -(-kb // 4) * 4)[:, :kb]       # ceil(N/128) x ceil(K/128), rows align4 apart
    # torch: A's 1x128 scales M x K/128 outer-dim-major (as gemmc's); B's
    # 128x128 ones by (K block, N block) of the K x N operand, or as gemmc's.
    return {"scale_a": sa, "scale_b": sb}, [(sa, sb.t()), (sa, sb)]


def kind_of(bundle):
    s = bundle.kernels[0].scales
    return {"tensor": "tensor", "row": "rowcol", "block": "block"}[s["a"]]


def graph(fn):
    """fn() captured REPS times in a CUDA graph (after a warm call)."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(REPS):
            fn()
    torch.cuda.synchronize()
    return g


def timed(graphs, runs):
    """Median ms per call of each graph, replayed in alternating order."""
    times = [[] for _ in graphs]
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for r in range(runs):
        order = range(len(graphs)) if r % 2 == 0 else reversed(range(len(graphs)))
        for i in order:
            start.record()
            graphs[i].replay()
            end.record()
            end.synchronize()
            times[i].append(start.elapsed_time(end) / REPS)
    return [statistics.median(t) for t in times]


def eager_ms(fn, calls=50):
    """Mean wall time of `calls` eager calls issued back to back (one
    synchronize at the end): the host path or the kernel, whichever is
    longer."""
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / calls * 1e3


def row(bundle, m, n, k, runs):
    kind = kind_of(bundle)
    a, b = operands(m, n, k)
    ours, candidates = scales(kind, m, n, k)
    out = bundle.select(m, n, k)._new_c(a, m, n)
    fast = kind != "block"

    def gemmc_call():
        bundle(a, b, out=out, **ours)

    def torch_call():
        return torch._scaled_mm(a, b, scale_a=theirs[0], scale_b=theirs[1], out_dtype=torch.bfloat16,
                                use_fast_accum=fast)

    label = "%s %dx%dx%d (%s)" % (bundle.name, m, n, k, bundle.select(m, n, k).name)
    gemmc_call()
    torch.cuda.synchronize()
    why, diff = None, None
    for theirs in candidates:
        try:
            ref = torch_call()
        except (RuntimeError, TypeError, ValueError) as e:
            why = str(e).splitlines()[0]
            continue
        diff = (out.float() - ref.float()).abs().max().item() / max(ref.float().abs().max().item(), 1e-30)
        if diff < 0.05:
            break
    if diff is None or diff >= 0.05:
        ms = timed([graph(gemmc_call)], runs)[0]
        print("%s: gemmc %.1f TFLOP/s; torch._scaled_mm with %s scales: %s" % (
            label, 2 * m * n * k / ms / 1e9, kind,
            "not here (%s)" % why if diff is None else "disagrees, max |gemmc - torch| / max |torch| = %.2g" % diff),
            flush=True)
        return
    ms_g, ms_t = timed([graph(gemmc_call), graph(torch_call)], runs)
    eg, et = eager_ms(gemmc_call), eager_ms(torch_call)
    tf = lambda ms: 2 * m * n * k / ms / 1e9  # noqa: E731
    print("%s: gemmc %.1f TFLOP/s, torch._scaled_mm%s %.1f, ratio %.3f; eager calls %.1f / %.1f us; "
          "max |gemmc - torch| / max |torch| = %.2g"
          % (label, tf(ms_g), " (fast accumulation)" if fast else "", tf(ms_t), ms_t / ms_g, eg * 1e3, et * 1e3,
             diff), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("bundles", nargs="+")
    p.add_argument("--shapes", default=SHAPES)
    p.add_argument("--runs", type=int, default=30)
    args = p.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: skipped")
        return 0
    torch.manual_seed(0)
    print("torch %s (CUDA %s), %s; gemmc package %s" % (torch.__version__, torch.version.cuda,
                                                        torch.cuda.get_device_name(), gemmc.__file__))
    shapes = [tuple(int(x) for x in s.split("x")) for s in args.shapes.split(",")]
    for path in args.bundles:
        bundle = gemmc.load_bundle(path)
        bundle.load_on(torch.device("cuda", torch.cuda.current_device()))
        for m, n, k in shapes:
            row(bundle, m, n, k, args.runs)
            torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
