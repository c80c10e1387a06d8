"""GPU test of the gemmc Python package against torch.matmul (the lead runs
it on the GPU machine through scripts/gpu_tutorial.sh).

    python3 python/tests/gpu_torch.py CUBIN|BUNDLE_DIR [...]

For each kernel (a cubin with its .json manifest): shapes that are and are
not multiples of the tile, the result against torch.matmul in fp32; a call
on a non-default stream; capture and replay in a CUDA graph; and, where
torch.library.custom_op exists, the op under torch.compile. An FP8 kernel
gets FP8 operands over a good part of the type's range and random f32
scales of the granularity its manifest names (per tensor, row / column,
1x128 / 128x128 blocks; scale_d for an FP8 C), and the reference is
torch.matmul of the dequantized operands in fp32. A bundle (a `gemmc bundle`
directory) is called on the shapes and through its register_op under
torch.compile, each call served by the kernel its table picks. A kernel
with a fused epilogue (bias, aux, activation) gets a random bias and, with
aux, an aux tensor, against act(a @ b + bias) and a @ b + bias in fp32, and
its register_op op with a bias. Prints one
line per check and "N passed, M failed"; exit 1 on any failure.
"""
import math
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


def is_fp8(dtype):
    return dtype in (torch.float8_e4m3fn, torch.float8_e5m2)


def padded(rows, cols, dtype):
    """A rows x cols row-major tensor whose rows start 16 bytes apart (what
    TMA needs): a view of a wider buffer when cols x bytes is not a multiple
    of 16. FP8 values spread over much of the type's range (|x| up to ~64)."""
    per = max(16 // torch.empty((), dtype=dtype).element_size(), 1)
    ld = -(-cols // per) * per
    spread = 16.0 if is_fp8(dtype) else 1.0
    return (torch.randn(rows, ld, device="cuda") * spread).to(dtype)[:, :cols]


def poison(t):
    """NaN in every element (0x7f is e4m3's NaN and e5m2's too)."""
    if is_fp8(t.dtype):
        t.view(torch.uint8).fill_(0x7f)
    else:
        t.fill_(float("nan"))


def scales(kernel, m, n, k):
    """Random f32 scales in [0.5, 1.5) / 16 for each FP8 operand (the
    dequantization scales of values spread x 16), in the layouts of
    docs/abi.md (kernel.scale_layouts says them): C's values then have a
    standard deviation of about sqrt(K), inside f16's and bf16's range."""
    kb, nb = -(-k // 128), -(-n // 128)
    rand = lambda *shape: (torch.rand(*shape, device="cuda") + 0.5) / 16  # noqa: E731
    out = {}
    for op, kind in kernel.scales.items():
        arg = "scale_" + ("d" if op == "c" else op)
        if kind == "tensor":
            # scale_d keeps an FP8 C's values (std ~24) inside e4m3's 448.
            out[arg] = rand(()) if op != "c" else torch.full((), 24.0 / math.sqrt(k), device="cuda")
        elif kind == "row":
            out[arg] = rand(m)
        elif kind == "col":
            out[arg] = rand(n)
        elif kind == "block" and op == "a":
            out[arg] = rand(kb, m).t()  # M x ceil(K/128), M contiguous
        elif kind == "block":
            out[arg] = rand(nb, -(-kb // 4) * 4)[:, :kb]  # rows align4(ceil(K/128)) apart
    return out


def dequantized(a, b, s):
    """A and B in fp32 with their scales applied (A: M x K, B: K x N)."""
    m, k = a.shape
    n = b.shape[1]
    a, b = a.float(), b.float()
    sa, sb = s.get("scale_a"), s.get("scale_b")
    if sa is not None:
        a = a * (sa if sa.dim() == 0 else sa[:, None] if sa.dim() == 1 else
                 sa.repeat_interleave(128, 1)[:, :k])
    if sb is not None:
        b = b * (sb if sb.dim() == 0 else sb[None, :] if sb.dim() == 1 else
                 sb.repeat_interleave(128, 0)[:n].repeat_interleave(128, 1)[:, :k].t())
    return a, b


def operands(kernel, m, n, k):
    ta = getattr(torch, gemmc._TORCH_DTYPES[kernel.a_type])
    tb = getattr(torch, gemmc._TORCH_DTYPES[kernel.b_type])
    # A (M x K): row = K contiguous. B (K x N): col = K contiguous, the
    # transpose of an N x K weight.
    a = padded(m, k, ta) if kernel.a_layout == "row" else padded(k, m, ta).t()
    b = padded(k, n, tb) if kernel.b_layout == "row" else padded(n, k, tb).t()
    return a, b


def close(c, a, b, alpha=1.0, s=None, c_dtype=None):
    """c against alpha x (dequantized a @ b) [x scale_d]; c_dtype is the
    kernel's C type (c may be a float copy of it)."""
    s = s or {}
    da, db = dequantized(a, b, s)
    ref = alpha * (da @ db)
    if "scale_d" in s:
        ref = ref * s["scale_d"]
    diff = (c.float() - ref).abs()
    err, top = diff.max().item(), max(ref.abs().max().item(), 1.0)
    half_ulp = {torch.float8_e4m3fn: 2.0 ** -4, torch.float8_e5m2: 2.0 ** -3}.get(c_dtype or c.dtype)
    if half_ulp is None:
        # bf16/f16 output: relative error of the output type, over K products.
        tol = 2e-2 * top
        return err <= tol, "max |c - torch.matmul| = %.4g (tolerance %.4g)" % (err, tol)
    # An FP8 output rounds each value to 3 (e4m3) or 2 (e5m2) mantissa bits:
    # half an ulp of |ref|, plus 1% of the largest |ref| for the sum's error.
    excess = (diff - (half_ulp * ref.abs() + 1e-2 * top)).max().item()
    return excess <= 0, "max |c - torch.matmul| = %.4g (tolerance %g |ref| + %.4g; worst margin %.4g)" % (
        err, half_ulp, 1e-2 * top, -excess)


ACTIVATIONS = {
    "none": lambda x: x, "identity": lambda x: x, "relu": torch.relu,
    "gelu": lambda x: torch.nn.functional.gelu(x), "gelu_tanh": lambda x: torch.nn.functional.gelu(x, approximate="tanh"),
    "silu": torch.nn.functional.silu,
}


def random_bias(kernel, m, n):
    """A random bias of the kernel's kind (M or N values of its element), or None."""
    if not kernel.bias:
        return None
    per, element = kernel.bias
    return torch.randn(m if per == "row" else n, device="cuda").to(getattr(torch, gemmc._TORCH_DTYPES[element]))


def fused_reference(kernel, a, b, bias):
    """(act(a @ b + bias), a @ b + bias) in fp32."""
    pre = a.float() @ b.float()
    if bias is not None:
        pre = pre + (bias.float()[:, None] if kernel.bias[0] == "row" else bias.float()[None, :])
    return ACTIVATIONS[kernel.activation](pre), pre


def check_fused(kernel, name):
    """A kernel with a fused epilogue (bias, aux, activation): C against
    act(a @ b + bias) in fp32 and aux against a @ b + bias, on every shape;
    the register_op op with a bias (kernels without aux); the checks of a
    call without its bias / aux."""
    per = kernel.bias[0] if kernel.bias else None
    for m, n, k in SHAPES:
        if any(p not in (-1, v) for p, v in zip(kernel.problem, (m, n, k))):
            continue
        a, b = operands(kernel, m, n, k)
        bias = random_bias(kernel, m, n)
        c = kernel._new_c(a, m, n)
        poison(c)
        aux = None
        if kernel.has_aux:
            aux = torch.empty_strided(tuple(c.shape), c.stride(), dtype=c.dtype, device=c.device)
            poison(aux)
        try:
            kernel(a, b, out=c, bias=bias, aux=aux)
            torch.cuda.synchronize()
            ref, pre = fused_reference(kernel, a, b, bias)
            top = max(ref.abs().max().item(), 1.0)
            err = (c.float() - ref).abs().max().item()
            ok, how = err <= 2e-2 * top, "max |c - act(a @ b + bias)| = %.4g (tolerance %.4g)" % (err, 2e-2 * top)
            if aux is not None:
                aerr, atop = (aux.float() - pre).abs().max().item(), max(pre.abs().max().item(), 1.0)
                ok = ok and aerr <= 2e-2 * atop
                how += ", max |aux - (a @ b + bias)| = %.4g" % aerr
        except gemmc.GemmcError as e:
            ok, how = False, str(e)
        report(ok, "%s %dx%dx%d (bias %s, %s%s): %s" % (name, m, n, k, per or "none", kernel.activation,
                                                         ", aux" if aux is not None else "", how))
    m, n, k = 129, 257, 72
    a, b = operands(kernel, m, n, k)
    if per:
        try:
            kernel(a, b, aux=torch.empty(m, n, device="cuda").to(getattr(torch, kernel.c_dtype_name))
                   if kernel.has_aux else None)
            report(False, "%s: a call without its bias was accepted" % name)
        except gemmc.GemmcError as e:
            report("pass bias=" in str(e), "%s refuses a call without its bias: %s" % (name, e))
    if not kernel.has_aux and hasattr(torch.library, "custom_op"):
        bias = random_bias(kernel, m, n)
        op = kernel.register_op("gemmc_test::" + kernel.name)
        c = op(a, b, bias=bias)
        torch.cuda.synchronize()
        ref, _ = fused_reference(kernel, a, b, bias)
        err, top = (c.float() - ref).abs().max().item(), max(ref.abs().max().item(), 1.0)
        report(err <= 2e-2 * top, "%s through register_op with bias=: max |c - ref| = %.4g" % (name, err))


def check_kernel(path):
    kernel = gemmc.load(path)
    name = os.path.basename(path)
    if kernel.bias or kernel.has_aux or kernel.activation not in ("none", "identity"):
        return check_fused(kernel, name)
    for m, n, k in SHAPES:
        if any(p not in (-1, v) for p, v in zip(kernel.problem, (m, n, k))):
            continue
        a, b = operands(kernel, m, n, k)
        sc = scales(kernel, m, n, k)
        try:
            c = kernel._new_c(a, m, n)  # what a call allocates, poisoned: every element must be written
            poison(c)
            kernel(a, b, out=c, **sc)
            torch.cuda.synchronize()
            ok, how = close(c, a, b, s=sc)
        except gemmc.GemmcError as e:
            ok, how = False, str(e)
        report(ok, "%s %dx%dx%d%s: %s" % (name, m, n, k, " (%s)" % ", ".join(
            "%s %s" % (kernel.scales[op], "scale_" + ("d" if op == "c" else op))
            for op in "abc" if kernel.scales[op]) if sc else "", how))

    m, n, k = 129, 257, 72
    a, b = operands(kernel, m, n, k)
    sc = scales(kernel, m, n, k)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())  # the operands and scales are written on the default stream
    with torch.cuda.stream(s):
        c = kernel(a, b, **sc)
    s.synchronize()
    ok, how = close(c, a, b, s=sc)
    report(ok, "%s on a side stream: %s" % (name, how))

    out = padded(m, n, getattr(torch, kernel.c_dtype_name))
    kernel(a, b, out=out, **sc)  # warm: tensor maps cached, nothing allocated in the capture
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        poison(out)
        with torch.cuda.graph(g, stream=s):
            kernel(a, b, out=out, **sc)
    poison(out)
    if "scale_a" in sc:  # the kernel reads the scales at each replay
        sc["scale_a"].mul_(2)
    g.replay()
    torch.cuda.synchronize()
    ok, how = close(out, a, b, s=sc)
    report(ok, "%s in a CUDA graph%s: %s" % (name, ", scales changed before the replay" if sc else "", how))

    if sc:
        try:
            kernel(a, b, **dict(list(sc.items())[1:]))
            report(False, "%s: a call without %s was accepted" % (name, list(sc)[0]))
        except gemmc.GemmcError as e:
            report("is required" in str(e), "%s refuses a call without %s: %s" % (name, list(sc)[0], e))

    bad = a.float()
    try:
        kernel(bad, b)
        report(False, "%s: a float32 A was accepted" % name)
    except gemmc.GemmcError as e:
        report("the kernel takes" in str(e), "%s rejects a float32 A: %s" % (name, e))

    if hasattr(torch.library, "custom_op"):
        f = compiled(kernel.register_op("gemmc_test::" + kernel.name))
        check_compiled(f, kernel, a, b, sc, name)


def compiled(op):
    """op (a register_op op) times 2 in float, through torch.compile. Dynamo
    caches by code object, and every op shares this lambda's: its cache is
    reset so the ops of many kernels stay under its recompile limit (8)."""
    torch._dynamo.reset()
    return torch.compile(lambda x, y, **kw: op(x, y, **kw).float() * 2, fullgraph=True)


def check_compiled(f, kernel, a, b, sc, label):
    try:
        c = f(a, b, **sc)
        torch.cuda.synchronize()
        ok, how = close(c, a, b, alpha=2.0, s=sc, c_dtype=getattr(torch, kernel.c_dtype_name))
    except Exception as e:  # torch.compile's failures are of many types
        ok, how = False, "%s: %s" % (type(e).__name__, e)
    report(ok, "%s as a torch.library op under torch.compile: %s" % (label, how))


def check_bundle(path):
    bundle = gemmc.load_bundle(path)
    kernel = bundle.kernels[0]  # the operands' and scales' kinds: a bundle's kernels share them
    name = os.path.basename(path.rstrip("/"))
    for m, n, k in SHAPES:
        a, b = operands(kernel, m, n, k)
        sc = scales(kernel, m, n, k)
        try:
            bundle.load_on(a.device)
            c = bundle.select(m, n, k)._new_c(a, m, n)  # what a call allocates, poisoned
            poison(c)
            bundle(a, b, out=c, **sc)
            torch.cuda.synchronize()
            ok, how = close(c, a, b, s=sc)
            how += " (%s)" % bundle.select(m, n, k).name
        except gemmc.GemmcError as e:
            ok, how = False, str(e)
        report(ok, "bundle %s %dx%dx%d: %s" % (name, m, n, k, how))
    if hasattr(torch.library, "custom_op"):
        f = compiled(bundle.register_op("gemmc_test::bundle_" + bundle.name))
        for m, n, k in ((16, 4096, 4096), (333, 4095, 600)):
            a, b = operands(kernel, m, n, k)
            check_compiled(f, kernel, a, b, scales(kernel, m, n, k), "bundle %s %dx%dx%d" % (name, m, n, k))


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
            (check_bundle if os.path.isdir(path) else check_kernel)(path)
        except gemmc.GemmcError as e:
            report(False, "%s: %s" % (path, e))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
