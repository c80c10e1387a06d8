"""GPU test of the gemmc Python package against torch.matmul (the lead runs
it on the GPU machine through scripts/gpu_tutorial.sh).

    python3 python/tests/gpu_torch.py CUBIN [CUBIN...]

For each kernel (a cubin with its .json manifest): shapes that are and are
not multiples of the tile, the result against torch.matmul in fp32; a call
on a non-default stream; capture and replay in a CUDA graph; and, where
torch.library.custom_op exists, the op under torch.compile. Prints one line
per check and "N passed, M failed"; exit 1 on any failure.
"""
import os
import sys

import torch  # noqa: E402

try:  # the installed package (PYTHONPATH), else the source tree's
    import gemmc
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import gemmc

# A shape per case: tile multiples and ragged edges in M, N and K.
SHAPES = [(128, 128, 64), (256, 512, 256), (1000, 1000, 1000), (129, 257, 72), (1, 4096, 4096),
          (4096, 8, 4096), (333, 4095, 600), (2048, 2048, 8192)]

passed = failed = 0


def report(ok, what):
    global passed, failed
    passed, failed = passed + ok, failed + (not ok)
    print("%s %s" % ("PASS" if ok else "FAIL", what), flush=True)


def padded(rows, cols, dtype):
    """A rows x cols row-major tensor whose rows start 16 bytes apart (what
    TMA needs): a view of a wider buffer when cols x bytes is not a multiple
    of 16."""
    per = max(16 // torch.empty((), dtype=dtype).element_size(), 1)
    ld = -(-cols // per) * per
    return torch.randn(rows, ld, device="cuda").to(dtype)[:, :cols]


def operands(kernel, m, n, k):
    ta = getattr(torch, gemmc._TORCH_DTYPES[kernel.a_type])
    tb = getattr(torch, gemmc._TORCH_DTYPES[kernel.b_type])
    # A (M x K): row = K contiguous. B (K x N): col = K contiguous, the
    # transpose of an N x K weight.
    a = padded(m, k, ta) if kernel.a_layout == "row" else padded(k, m, ta).t()
    b = padded(k, n, tb) if kernel.b_layout == "row" else padded(n, k, tb).t()
    return a, b


def close(c, a, b, alpha=1.0):
    ref = alpha * (a.float() @ b.float())
    err = (c.float() - ref).abs().max().item()
    # bf16/f16 output: relative error of the output type, over K products.
    tol = 2e-2 * max(ref.abs().max().item(), 1.0)
    return err <= tol, "max |c - torch.matmul| = %.4g (tolerance %.4g)" % (err, tol)


def check_kernel(path):
    kernel = gemmc.load(path)
    name = os.path.basename(path)
    for m, n, k in SHAPES:
        if any(p not in (-1, v) for p, v in zip(kernel.problem, (m, n, k))):
            continue
        a, b = operands(kernel, m, n, k)
        try:
            c = kernel(a, b)
            torch.cuda.synchronize()
            ok, how = close(c, a, b)
        except gemmc.GemmcError as e:
            ok, how = False, str(e)
        report(ok, "%s %dx%dx%d: %s" % (name, m, n, k, how))

    m, n, k = 129, 257, 72
    a, b = operands(kernel, m, n, k)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        c = kernel(a, b)
    s.synchronize()
    ok, how = close(c, a, b)
    report(ok, "%s on a side stream: %s" % (name, how))

    out = padded(m, n, getattr(torch, kernel.c_dtype_name))
    kernel(a, b, out=out)  # warm: tensor maps cached, nothing allocated in the capture
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        out.zero_()
        with torch.cuda.graph(g, stream=s):
            kernel(a, b, out=out)
    out.zero_()
    g.replay()
    torch.cuda.synchronize()
    ok, how = close(out, a, b)
    report(ok, "%s in a CUDA graph: %s" % (name, how))

    bad = a.float()
    try:
        kernel(bad, b)
        report(False, "%s: a float32 A was accepted" % name)
    except gemmc.GemmcError as e:
        report("the kernel takes" in str(e), "%s rejects a float32 A: %s" % (name, e))

    if hasattr(torch.library, "custom_op"):
        op = kernel.register_op("gemmc_test::" + kernel.name)
        f = torch.compile(lambda x, y: op(x, y) * 2, fullgraph=True)
        try:
            c = f(a, b)
            torch.cuda.synchronize()
            ok, how = close(c, a, b, alpha=2.0)
        except Exception as e:  # torch.compile's failures are of many types
            ok, how = False, "%s: %s" % (type(e).__name__, e)
        report(ok, "%s as a torch.library op under torch.compile: %s" % (name, how))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    if not torch.cuda.is_available():
        print("no CUDA device: skipped")
        return 0
    torch.manual_seed(0)
    print("gemmc package %s, torch %s, %s" % (gemmc.__file__, torch.__version__, torch.cuda.get_device_name()))
    for path in sys.argv[1:]:
        try:
            check_kernel(path)
        except gemmc.GemmcError as e:
            report(False, "%s: %s" % (path, e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
