#!/usr/bin/env python3
"""Launch gemmc cubins straight from Python (ctypes + the CUDA driver API)
and check them against an fp32 reference computed by torch.

For the device machine, which has torch but no MLIR: the cubins are built
on the CPU machine (scripts/build_cubins.sh) and carried over.

    python3 test/gpu/smoke.py CUBIN_DIR [--time]

Each cubin is run on a list of shapes with random inputs, C poisoned with
NaN before every launch; a case passes when the relative Frobenius error is
below 1e-2 and no NaN is left. With --time it also times gemmc against
torch.matmul (cuBLAS) on the same buffers.
"""
import ctypes
import glob
import json
import math
import os
import sys

import torch

CU_TENSOR_MAP_DATA_TYPE = {"f16": 6, "f32": 7, "bf16": 9, "tf32": 7}
SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
TORCH_DTYPE = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

cuda = ctypes.CDLL("libcuda.so.1")


def use_torch_context():
    """Make torch's (the primary) context current for driver API calls."""
    torch.empty(1, device="cuda")
    torch.cuda.synchronize()
    ctx = ctypes.c_void_p()
    check(cuda.cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    if not ctx.value:
        dev = ctypes.c_int()
        check(cuda.cuDeviceGet(ctypes.byref(dev), torch.cuda.current_device()), "cuDeviceGet")
        check(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
        check(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")


def check(rc, what):
    if rc != 0:
        name = ctypes.c_char_p()
        cuda.cuGetErrorName(rc, ctypes.byref(name))
        raise RuntimeError(f"{what} failed: {name.value.decode() if name.value else rc}")


class Kernel:
    def __init__(self, cubin_path):
        with open(cubin_path + ".json") as f:
            self.m = json.load(f)
        self.module = ctypes.c_void_p()
        data = open(cubin_path, "rb").read()
        self._data = ctypes.create_string_buffer(data)
        check(cuda.cuModuleLoadData(ctypes.byref(self.module), self._data), "cuModuleLoadData")
        self.func = ctypes.c_void_p()
        check(cuda.cuModuleGetFunction(ctypes.byref(self.func), self.module,
                                       self.m["kernel"].encode()), "cuModuleGetFunction")
        check(cuda.cuFuncSetAttribute(self.func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      ctypes.c_int(self.m["dynamic_smem_bytes"])), "cuFuncSetAttribute")

    def tensor_map(self, t, plan, element):
        """2-D map over t's storage (rows x cols, cols contiguous)."""
        rows, cols = t.shape
        tmap = (ctypes.c_uint8 * 128)()
        dims = (ctypes.c_uint64 * 2)(cols, rows)
        strides = (ctypes.c_uint64 * 1)(t.stride(0) * t.element_size())
        box = (ctypes.c_uint32 * 2)(*plan["box"])
        estr = (ctypes.c_uint32 * 2)(1, 1)
        check(cuda.cuTensorMapEncodeTiled(
            ctypes.byref(tmap), CU_TENSOR_MAP_DATA_TYPE[element], 2,
            ctypes.c_void_p(t.data_ptr()), dims, strides, box, estr,
            0, SWIZZLE[plan["swizzle"]], 3, 0), "cuTensorMapEncodeTiled")
        return tmap

    def launch(self, a_store, b_store, c, M, N, K, alpha=1.0, beta=0.0):
        m = self.m
        maps = {p["operand"]: p for p in m["tensor_maps"]}
        ta = self.tensor_map(a_store, maps["a"], m["a"]["element"])
        tb = self.tensor_map(b_store, maps["b"], m["b"]["element"])
        bm, bn = m["tile"][0], m["tile"][1]
        if m["cluster"][0] * m["cluster"][1] > 1:
            raise RuntimeError("clusters need a cluster launch; use gemmc-gpu-tests (the runtime)")
        grid = math.ceil(M / bm) * math.ceil(N / bn)
        sms = torch.cuda.get_device_properties(0).multi_processor_count
        if m["grid"]["scheduler"] == "persistent":
            grid = min(grid, sms)
        elif m["grid"]["scheduler"] == "stream_k":
            grid = sms  # every CTA takes a share of the K iterations
        vals = {
            "tmap_a": ta, "tmap_b": tb,
            "c": ctypes.c_uint64(c.data_ptr()),
            "m": ctypes.c_uint32(M), "n": ctypes.c_uint32(N), "k": ctypes.c_uint32(K),
            "ldc": ctypes.c_uint32(c.stride(0)),
            "alpha": ctypes.c_float(alpha), "beta": ctypes.c_float(beta),
        }
        if "tmap_c" in m["params"]:  # the TMA-store epilogue's map of C
            vals["tmap_c"] = self.tensor_map(c, maps["c"], m["c"]["element"])
        if "workspace" in m["params"]:  # stream_k: zeroed once, left zeroed by the kernel
            need = sms * m["workspace_bytes_per_cta"]
            if getattr(self, "workspace", None) is None or self.workspace.numel() < need:
                self.workspace = torch.zeros(need, dtype=torch.uint8, device="cuda")
            vals["workspace"] = ctypes.c_uint64(self.workspace.data_ptr())
        args = [vals[p] for p in m["params"]]
        ptrs = (ctypes.c_void_p * len(args))(*[ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in args])
        stream = torch.cuda.current_stream().cuda_stream
        check(cuda.cuLaunchKernel(self.func, grid, 1, 1, m["block"][0], 1, 1,
                                  m["dynamic_smem_bytes"], ctypes.c_void_p(stream), ptrs, None),
              "cuLaunchKernel")
        return args  # keep the parameter buffers alive until the launch is enqueued


def padded(rows, cols, dtype, elem_align=8):
    """rows x cols view of a buffer whose row stride is a multiple of 16 bytes."""
    ld = (cols + elem_align - 1) // elem_align * elem_align
    buf = torch.empty(rows, ld, dtype=dtype, device="cuda")
    return buf[:, :cols]


def run_case(kern, M, N, K, gen, timing=False):
    m = kern.m
    ea, eb, ec = (TORCH_DTYPE[m[x]["element"]] for x in "abc")
    a = padded(M, K, ea).copy_(torch.randn(M, K, generator=gen, device="cuda"))
    b_col = m["b"]["layout"] == "col"
    if b_col:
        b_store = padded(N, K, eb).copy_(torch.randn(N, K, generator=gen, device="cuda"))
        b = b_store.t()
    else:
        b_store = padded(K, N, eb).copy_(torch.randn(K, N, generator=gen, device="cuda"))
        b = b_store
    use_beta = "beta" in m["params"]
    c = padded(M, N, ec)
    c0 = torch.randn(M, N, generator=gen, device="cuda").to(ec) if use_beta else None
    if use_beta:
        c.copy_(c0)
    else:
        c.fill_(float("nan"))
    alpha, beta = 1.5, (0.5 if use_beta else 0.0)
    ref = alpha * (a.float() @ b.float())
    if use_beta:
        ref += beta * c0.float()
    keep = kern.launch(a, b_store, c, M, N, K, alpha, beta)
    torch.cuda.synchronize()
    del keep
    out = c.float()
    nan_left = torch.isnan(out).sum().item()
    err = ((out - ref).norm() / ref.norm()).item() if nan_left == 0 else float("nan")
    ok = nan_left == 0 and err < 1e-2
    result = {"shape": f"{M}x{N}x{K}", "err": err, "nan": nan_left, "ok": ok}
    if timing and ok:
        def t(fn, reps=30):
            for _ in range(5):
                fn()
            ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(reps)]
            for s, e in ev:
                s.record(); fn(); e.record()
            torch.cuda.synchronize()
            return sorted(s.elapsed_time(e) for s, e in ev)[reps // 2]
        ms_g = t(lambda: kern.launch(a, b_store, c, M, N, K, alpha, beta))
        # cuBLAS in the input type (for an f32-output kernel too: the work
        # that matters is the same bf16/f16 product).
        cc = torch.empty(M, N, dtype=ea, device="cuda")
        ms_c = t(lambda: torch.matmul(a, b, out=cc))
        flops = 2.0 * M * N * K
        result.update(gemmc_ms=ms_g, cublas_ms=ms_c, gemmc_tflops=flops / ms_g / 1e9,
                      cublas_tflops=flops / ms_c / 1e9, ratio=ms_c / ms_g)
    return result


def main():
    cubin_dir = sys.argv[1]
    timing = "--time" in sys.argv
    shapes = [(1, 1, 16), (64, 64, 64), (127, 255, 72), (1000, 1000, 1000), (4096, 4096, 4096),
              (256, 8192, 8192), (16, 8192, 8192)]
    big = [(8192, 8192, 8192), (8192, 28672, 8192)]
    use_torch_context()
    gen = torch.Generator(device="cuda")
    gen.manual_seed(0)
    failures = 0
    if "--no-header" not in sys.argv:
        print(f"{'cubin':34} {'shape':>18} {'rel err':>10} {'result':>6} {'gemmc TF/s':>11} {'cuBLAS TF/s':>11} {'ratio':>6}")
    paths = [cubin_dir] if cubin_dir.endswith(".cubin") else sorted(glob.glob(os.path.join(cubin_dir, "*.cubin")))
    for path in paths:
        try:
            kern = Kernel(path)
        except RuntimeError as e:
            print(f"{os.path.basename(path):34} load error: {e}")
            failures += 1
            continue
        for (M, N, K) in shapes + (big if timing else []):
            try:
                r = run_case(kern, M, N, K, gen, timing=timing and M * N * K >= 2**30)
            except RuntimeError as e:
                print(f"{os.path.basename(path):34} {M}x{N}x{K}: {e}")
                failures += 1
                break
            failures += 0 if r["ok"] else 1
            extra = ""
            if "ratio" in r:
                extra = f" {r['gemmc_tflops']:11.1f} {r['cublas_tflops']:11.1f} {r['ratio']:6.3f}"
            print(f"{os.path.basename(path):34} {r['shape']:>18} {r['err']:10.2e} {'ok' if r['ok'] else 'FAIL':>6}{extra}", flush=True)
    print(f"smoke: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
