"""Rounds t2-t3: the host time of one call from Python (t1's eager calls on
16x8192x8192 took 145-190 us for gemmc against a ~20 us kernel).

    python3 bench/lead23/host_overhead.py CUBIN BUNDLE_DIR [MxNxK]

Each row: the mean wall time of 500 calls issued back to back (one
synchronize at the end; the kernels are short, so the host path is what is
timed), for the whole call and for its parts."""
import ctypes
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "..", "python"), os.path.join(here, "..")]
import gemmc  # noqa: E402
from gemmc import _capi  # noqa: E402
from torch_fp8 import eager_ms  # noqa: E402  (bench/torch_fp8.py: the mean of calls issued back to back)

N = 500


def per_call(label, fn):
    print("%-58s %8.1f us" % (label, eager_ms(fn, N) * 1e3), flush=True)


def main():
    kernel, bundle = gemmc.load(sys.argv[1]), gemmc.load_bundle(sys.argv[2])
    m, n, k = (int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "16x8192x8192").split("x"))
    a = (torch.randn(m, k, device="cuda") * 16).to(torch.float8_e4m3fn)
    b = (torch.randn(n, k, device="cuda") * 16).to(torch.float8_e4m3fn).t()
    sa, sb = torch.rand((), device="cuda") + 0.5, torch.rand((), device="cuda") + 0.5
    out = kernel._new_c(a, m, n)
    dev = a.device
    print("torch %s, %s, %dx%dx%d e4m3 per-tensor" % (torch.__version__, torch.cuda.get_device_name(), m, n, k))
    per_call("torch._scaled_mm (fast accumulation)", lambda: torch._scaled_mm(
        a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16, use_fast_accum=True))
    per_call("gemmc Bundle call (out given)", lambda: bundle(a, b, out=out, scale_a=sa, scale_b=sb))
    per_call("gemmc Kernel call (out given)", lambda: kernel(a, b, out=out, scale_a=sa, scale_b=sb))
    per_call("gemmc Kernel call (C allocated)", lambda: kernel(a, b, scale_a=sa, scale_b=sb))
    per_call("  Kernel.check", lambda: kernel.check(a, b, out, 1.0, 0.0, sa, sb))
    args = kernel.check(a, b, out, 1.0, 0.0, sa, sb)
    stream = torch.cuda.current_stream(dev).cuda_stream
    lib = _capi.library()
    per_call("  gemmc_launch through ctypes (args built)", lambda: lib.gemmc_launch(
        kernel._handle, ctypes.byref(args), ctypes.c_void_p(stream)))
    os.environ["GEMMC_NO_BOUNDS_CHECK"] = "1"  # read at load
    unchecked = gemmc.load(sys.argv[1])
    unchecked.load_on(dev)
    del os.environ["GEMMC_NO_BOUNDS_CHECK"]
    per_call("  gemmc_launch, loaded with GEMMC_NO_BOUNDS_CHECK=1", lambda: lib.gemmc_launch(
        unchecked._handle, ctypes.byref(args), ctypes.c_void_p(stream)))
    per_call("  torch.cuda.current_stream(dev).cuda_stream", lambda: torch.cuda.current_stream(dev).cuda_stream)

    def ctx():
        with torch.cuda.device(dev):
            pass
    per_call("  with torch.cuda.device(dev)", ctx)
    per_call("  bundle.select", lambda: bundle.select(m, n, k))


if __name__ == "__main__":
    main()
