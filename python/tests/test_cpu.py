"""CPU tests of the gemmc Python package: every check a call makes, on
stand-in tensors (no torch, no GPU), and the C library's answer where there
is no CUDA driver. Run: python3 -m unittest discover -s python/tests
(GEMMC_RUNTIME_LIBRARY=build/lib/libgemmc_runtime.so for the library test)."""
import ctypes
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import gemmc  # noqa: E402
from gemmc import _capi  # noqa: E402


class Device:
    def __init__(self, name):
        self.type, _, index = name.partition(":")
        self.index = int(index) if index else None

    def __eq__(self, other):
        return str(self) == str(other)

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)


class Dtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return "torch." + self.name


class Tensor:
    """What Kernel.check reads of a torch.Tensor."""

    def __init__(self, shape, dtype="bfloat16", device="cuda:0", strides=None, ptr=0x7f0000000000):
        self.shape = tuple(shape)
        self.dtype = Dtype(dtype)
        self.device = Device(device)
        self._strides = strides or tuple(
            [self.shape[1], 1] if len(self.shape) == 2 else [1] * len(self.shape))
        self._ptr = ptr

    def dim(self):
        return len(self.shape)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


# The manifest of a bf16 kernel (what gemmc writes for examples/cmake/gemm.yaml
# with store: direct), A row-major, B column-major (the usual weight layout),
# C row-major, with alpha. Valid for the C runtime's parser too.
MANIFEST = {
    "format": "gemmc-manifest", "version": 1, "kernel": "gemm_tn", "arch": "sm_90a",
    "block": [256, 1, 1], "cluster": [1, 1, 1], "dynamic_smem_bytes": 230496, "tile": [128, 128, 64],
    "problem": {"m": -1, "n": -1, "k": -1},
    "a": {"element": "bf16", "layout": "row"}, "b": {"element": "bf16", "layout": "col"},
    "c": {"element": "bf16", "layout": "row"},
    "tensor_maps": [{"operand": "a", "box": [64, 128], "swizzle": 128},
                    {"operand": "b", "box": [64, 128], "swizzle": 128}],
    "grid": {"scheduler": "data_parallel", "raster": "along_m", "group": 8},
    "params": ["tmap_a", "tmap_b", "c", "m", "n", "k", "ldc", "alpha"],
}


def kernel(**changes):
    m = json.loads(json.dumps(MANIFEST))
    m.update(changes)
    return gemmc.load_data(b"\x7fELF", json.dumps(m))


def b_col(k, n, **kw):
    """B (K x N) column-major, as w.t() of an N x K weight."""
    kw.setdefault("strides", (1, k))
    return Tensor((k, n), **kw)


class CheckTest(unittest.TestCase):
    def assertFails(self, message, *args, **kwargs):
        k = kwargs.pop("kernel", None) or kernel()
        with self.assertRaises(gemmc.GemmcError) as cm:
            k.check(*args, **kwargs)
        self.assertEqual(str(cm.exception), message)
        self.assertEqual(cm.exception.status, "GEMMC_ERROR_INVALID_ARGUMENT")

    def test_good_call_gives_leading_dimensions(self):
        args = kernel().check(Tensor((1000, 200)), b_col(200, 300), alpha=2.0)
        self.assertEqual((args.m, args.n, args.k, args.lda, args.ldb, args.ldc), (1000, 300, 200, 200, 200, 300))
        self.assertEqual((args.a_type, args.a_layout, args.b_layout, args.c), (1, 1, 2, None))
        self.assertEqual(args.alpha, 2.0)

    def test_padded_rows_keep_their_stride(self):
        args = kernel().check(Tensor((64, 100), strides=(128, 1)), b_col(100, 8, strides=(1, 104)),
                              out=Tensor((64, 8), strides=(16, 1)))
        self.assertEqual((args.lda, args.ldb, args.ldc), (128, 104, 16))

    def test_one_row_takes_any_leading_stride(self):
        args = kernel().check(Tensor((1, 64), strides=(1, 1)), b_col(64, 8))
        self.assertEqual(args.lda, 64)

    def test_wrong_dtype(self):
        self.assertFails("kernel 'gemm_tn': a is float16; the kernel takes bf16 (torch.bfloat16)",
                         Tensor((8, 8), dtype="float16"), b_col(8, 8))
        self.assertFails("kernel 'gemm_tn': out is float32; the kernel takes bf16 (torch.bfloat16)",
                         Tensor((8, 8)), b_col(8, 8), out=Tensor((8, 8), dtype="float32"))

    def test_wrong_layout(self):
        self.assertFails("kernel 'gemm_tn': b has strides [8, 1]; the kernel's 'col' layout needs "
                         "stride(0) == 1, column-major (e.g. b.t().contiguous().t())",
                         Tensor((8, 8)), Tensor((8, 8)))
        self.assertFails("kernel 'gemm_tn': a has strides [1, 8]; the kernel's 'row' layout needs "
                         "stride(1) == 1, row-major (e.g. a.contiguous())",
                         Tensor((8, 8), strides=(1, 8)), b_col(8, 8))

    def test_shapes(self):
        self.assertFails("kernel 'gemm_tn': a is 8x16 and b is 8x8: a's columns (K) must equal b's rows",
                         Tensor((8, 16)), b_col(8, 8))
        self.assertFails("kernel 'gemm_tn': a must be a 2-D tensor, got 3 dimensions (shape [2, 8, 8])",
                         Tensor((2, 8, 8)), b_col(8, 8))
        self.assertFails("kernel 'gemm_tn': out is [8, 9]; it must be 8x8 (M x N)",
                         Tensor((8, 8)), b_col(8, 8), out=Tensor((8, 9)))

    def test_devices(self):
        self.assertFails("kernel 'gemm_tn': a is on cpu; gemmc kernels take CUDA tensors (move it with .cuda())",
                         Tensor((8, 8), device="cpu"), b_col(8, 8))
        self.assertFails("kernel 'gemm_tn': a, b and out must be on one device, got cuda:0, cuda:1",
                         Tensor((8, 8)), b_col(8, 8, device="cuda:1"))

    def test_pinned_problem(self):
        self.assertFails("kernel 'gemm_tn': N = 300, but the kernel is compiled for N = 256 only",
                         Tensor((8, 64)), b_col(64, 300), kernel=kernel(problem={"m": -1, "n": 256, "k": -1}))

    def test_alpha_and_beta(self):
        no_alpha = kernel(params=["tmap_a", "tmap_b", "c", "m", "n", "k", "ldc"])
        self.assertFails("kernel 'gemm_tn': alpha = 0.5, but the kernel has no alpha (epilogue.alpha: false); "
                         "alpha must be 1", Tensor((8, 8)), b_col(8, 8), alpha=0.5, kernel=no_alpha)
        self.assertFails("kernel 'gemm_tn': beta = 1, but the kernel has no beta (epilogue.beta: false); "
                         "beta must be 0", Tensor((8, 8)), b_col(8, 8), beta=1.0)
        with_beta = kernel(params=MANIFEST["params"] + ["beta"])
        self.assertFails("kernel 'gemm_tn': beta = 1 reads C: pass out=", Tensor((8, 8)), b_col(8, 8),
                         beta=1.0, kernel=with_beta)


def fused_kernel(bias=("col", "bf16"), aux=False, activation="gelu_tanh"):
    """MANIFEST with a fused epilogue (bias per `bias`[0] of element [1], or
    none; aux of C's element)."""
    params = MANIFEST["params"] + (["bias"] if bias else []) + (["aux"] if aux else [])
    extra = {"params": params, "activation": activation}
    if bias:
        extra["bias"] = {"element": bias[1], "per": bias[0]}
    if aux:
        extra["aux"] = {"element": "bf16"}
    return kernel(**extra)


class FusedEpilogueTest(unittest.TestCase):
    assertFails = CheckTest.assertFails

    def test_bias_is_passed_with_its_length_and_type(self):
        args = fused_kernel().check(Tensor((64, 32)), b_col(32, 48), bias=Tensor((48,), ptr=0x7f0000001000))
        self.assertEqual((args.bias, args.bias_length, args.bias_type, args.aux), (0x7f0000001000, 48, 1, None))
        args = fused_kernel(bias=("row", "f32")).check(Tensor((64, 32)), b_col(32, 48),
                                                        bias=Tensor((64,), dtype="float32"))
        self.assertEqual((args.bias_length, args.bias_type), (64, 3))

    def test_bias_checks(self):
        k = fused_kernel()
        self.assertFails("kernel 'gemm_tn': the kernel adds a bias (epilogue bias: col): pass bias=, a bfloat16 "
                         "tensor of 48 values, one a col of C", Tensor((64, 32)), b_col(32, 48), kernel=k)
        self.assertFails("kernel 'gemm_tn': bias is [64] with strides [1]; it must be a bfloat16 tensor of 48 "
                         "values, one a col of C, contiguous", Tensor((64, 32)), b_col(32, 48),
                         bias=Tensor((64,)), kernel=k)
        self.assertFails("kernel 'gemm_tn': bias is [48] with strides [2]; it must be a bfloat16 tensor of 48 "
                         "values, one a col of C, contiguous", Tensor((64, 32)), b_col(32, 48),
                         bias=Tensor((48,), strides=(2,)), kernel=k)
        self.assertFails("kernel 'gemm_tn': bias is float32; the kernel reads bf16 (torch.bfloat16)",
                         Tensor((64, 32)), b_col(32, 48), bias=Tensor((48,), dtype="float32"), kernel=k)
        self.assertFails("kernel 'gemm_tn': bias is on cuda:1; it must be on a's device, cuda:0",
                         Tensor((64, 32)), b_col(32, 48), bias=Tensor((48,), device="cuda:1"), kernel=k)
        self.assertFails("kernel 'gemm_tn': bias is given, but the kernel adds none (built with epilogue bias: "
                         "none)", Tensor((64, 32)), b_col(32, 48), bias=Tensor((48,)))

    def test_aux_checks(self):
        k = fused_kernel(aux=True)
        a, b, bias = Tensor((64, 32)), b_col(32, 48), Tensor((48,))
        args = k.check(a, b, bias=bias, aux=Tensor((64, 48), ptr=0x7f0000002000))
        self.assertEqual(args.aux, 0x7f0000002000)
        self.assertFails("kernel 'gemm_tn': the kernel stores the pre-activation value to aux (epilogue aux: "
                         "true): pass aux=, an 64x48 bfloat16 tensor with C's row stride", a, b, bias=bias,
                         kernel=k)
        self.assertFails("kernel 'gemm_tn': aux is [64, 40]; it must be 64x48 (M x N)", a, b, bias=bias,
                         aux=Tensor((64, 40)), kernel=k)
        self.assertFails("kernel 'gemm_tn': aux is float32; the kernel writes bf16 (torch.bfloat16)", a, b,
                         bias=bias, aux=Tensor((64, 48), dtype="float32"), kernel=k)
        self.assertFails("kernel 'gemm_tn': aux has strides [1, 64]; it must be row-major (stride(1) == 1)", a, b,
                         bias=bias, aux=Tensor((64, 48), strides=(1, 64)), kernel=k)
        self.assertFails("kernel 'gemm_tn': aux's row stride is 56 and out's 48; the kernel writes aux with C's "
                         "(ldc), so they must be equal", a, b, bias=bias, aux=Tensor((64, 48), strides=(56, 1)),
                         out=Tensor((64, 48)), kernel=k)
        self.assertFails("kernel 'gemm_tn': aux is given, but the kernel stores no auxiliary output (built with "
                         "epilogue aux: false)", a, b, bias=bias, aux=Tensor((64, 48)), kernel=fused_kernel())

    def test_register_op_refuses_aux(self):
        with self.assertRaises(gemmc.GemmcError) as cm:
            fused_kernel(aux=True).register_op("t::op")
        self.assertEqual(str(cm.exception), "kernel 'gemm_tn' stores an auxiliary output (epilogue aux: true), "
                         "which register_op's out-of-place op has no place for; call the kernel with aux= instead")


def fp8_kernel(a_scale, b_scale, c="bf16"):
    """An FP8 kernel's manifest: e4m3 A (row) and B (col) with the given
    scales; an FP8 C has a per-tensor scale (scale_d)."""
    params = MANIFEST["params"] + ["scale_a", "scale_b"] + (["scale_d"] if c != "bf16" else [])
    cm = {"element": c, "layout": "row"}
    if c != "bf16":
        cm["scale"] = "tensor"
    return kernel(kernel="gemm_fp8", a={"element": "e4m3", "layout": "row", "scale": a_scale},
                  b={"element": "e4m3", "layout": "col", "scale": b_scale}, c=cm, params=params)


def f32(shape, **kw):
    return Tensor(shape, dtype="float32", **kw)


class ScaleTest(unittest.TestCase):
    """An FP8 kernel's scales (docs/abi.md): one per scaled operand, float32
    on a's device, in the layout the manifest's scale names."""

    def operands(self, m=300, n=200, k=520):
        return Tensor((m, k), dtype="float8_e4m3fn"), b_col(k, n, dtype="float8_e4m3fn")

    def assertFails(self, message, k, *args, **kwargs):
        with self.assertRaises(gemmc.GemmcError) as cm:
            k.check(*args, **kwargs)
        self.assertEqual(str(cm.exception), message)

    def test_per_tensor(self):
        k = fp8_kernel("tensor", "tensor")
        a, b = self.operands()
        args = k.check(a, b, scale_a=f32((), ptr=0x1000), scale_b=f32((1,), ptr=0x2004))
        self.assertEqual((args.scale_a, args.scale_b, args.scale_d), (0x1000, 0x2004, None))
        self.assertFails("kernel 'gemm_fp8': scale_a is required: the kernel's A is e4m3; pass A's per-tensor "
                         "scale: one f32 value (shape () or (1,))", k, a, b, scale_b=f32(()))
        self.assertFails("kernel 'gemm_fp8': scale_b has shape [2]; it must be B's per-tensor scale: one f32 "
                         "value (shape () or (1,))", k, a, b, scale_a=f32(()), scale_b=f32((2,)))
        self.assertFails("kernel 'gemm_fp8': scale_a is float16; scales are float32 (torch.float32)",
                         k, a, b, scale_a=Tensor((), dtype="float16"), scale_b=f32(()))
        self.assertFails("kernel 'gemm_fp8': scale_b is on cuda:1; the kernel reads it on cuda:0, a's device",
                         k, a, b, scale_a=f32(()), scale_b=f32((), device="cuda:1"))
        self.assertFails("kernel 'gemm_fp8': scale_d given, but the kernel's C (bf16) has no scale",
                         k, a, b, scale_a=f32(()), scale_b=f32(()), scale_d=f32(()))

    def test_fp8_output_takes_scale_d(self):
        k = fp8_kernel("tensor", "tensor", c="e4m3")
        a, b = self.operands()
        self.assertFails("kernel 'gemm_fp8': scale_d is required: the kernel's C is e4m3; pass C's per-tensor "
                         "scale: one f32 value (shape () or (1,))", k, a, b, scale_a=f32(()), scale_b=f32(()))
        args = k.check(a, b, scale_a=f32(()), scale_b=f32(()), scale_d=f32((1, 1), ptr=0x3000))
        self.assertEqual(args.scale_d, 0x3000)

    def test_per_row_and_column(self):
        k = fp8_kernel("row", "col")
        a, b = self.operands(m=300, n=200)
        k.check(a, b, scale_a=f32((300,)), scale_b=f32((200,)))
        k.check(a, b, scale_a=f32((300, 1), strides=(1, 1)), scale_b=f32((1, 200), strides=(200, 1)))
        self.assertFails("kernel 'gemm_fp8': scale_a has shape [1, 300]; it must be A's per-row scale: M = 300 "
                         "f32 values (shape (300,) or (300, 1))", k, a, b, scale_a=f32((1, 300)), scale_b=f32((200,)))
        self.assertFails("kernel 'gemm_fp8': scale_a has strides [2, 1]; it must be A's per-row scale: M = 300 "
                         "f32 values (shape (300,) or (300, 1))", k, a, b,
                         scale_a=f32((300, 1), strides=(2, 1)), scale_b=f32((200,)))
        self.assertFails("kernel 'gemm_fp8': scale_b starts at 0x7f0000000004, not 8-byte aligned (the kernel "
                         "reads two columns a load); it must be B's per-column scale: N = 200 f32 values (shape "
                         "(200,) or (1, 200)), 8-byte aligned", k, a, b,
                         scale_a=f32((300,)), scale_b=f32((200,), ptr=0x7f0000000004))

    def test_blocks(self):
        k = fp8_kernel("block", "block")
        a, b = self.operands(m=300, n=200, k=520)  # ceil(K/128) = 5 blocks of K, ceil(N/128) = 2
        args = k.check(a, b, scale_a=f32((300, 5), strides=(1, 300), ptr=0x1000),
                       scale_b=f32((2, 5), strides=(8, 1), ptr=0x2000))
        self.assertEqual((args.scale_a, args.scale_b), (0x1000, 0x2000))
        self.assertFails("kernel 'gemm_fp8': scale_a has strides [5, 1]; it must be A's 1x128 block scales: "
                         "M x ceil(K/128) = 300x5 f32 values with M contiguous (strides (1, 300): e.g. "
                         "s.t().contiguous().t())", k, a, b, scale_a=f32((300, 5)),
                         scale_b=f32((2, 5), strides=(8, 1)))
        self.assertFails("kernel 'gemm_fp8': scale_b has strides [5, 1]; it must be B's 128x128 block scales: "
                         "ceil(N/128) x ceil(K/128) = 2x5 f32 values, rows 8 apart (strides (8, 1): e.g. "
                         "torch.empty(2, 8)[:, :5])", k, a, b, scale_a=f32((300, 5), strides=(1, 300)),
                         scale_b=f32((2, 5)))
        self.assertFails("kernel 'gemm_fp8': scale_b has shape [5, 2]; it must be B's 128x128 block scales: "
                         "ceil(N/128) x ceil(K/128) = 2x5 f32 values, rows 8 apart (strides (8, 1): e.g. "
                         "torch.empty(2, 8)[:, :5])", k, a, b, scale_a=f32((300, 5), strides=(1, 300)),
                         scale_b=f32((5, 2)))
        self.assertEqual(k.scale_layouts(1, 128, 128), {
            "scale_a": "A's 1x128 block scales: M x ceil(K/128) = 1x1 f32 values with M contiguous (strides (1, 1): "
                       "e.g. s.t().contiguous().t())",
            "scale_b": "B's 128x128 block scales: ceil(N/128) x ceil(K/128) = 1x1 f32 values, rows 4 apart "
                       "(strides (4, 1): e.g. torch.empty(1, 4)[:, :1])"})

    def test_unscaled_kernel_refuses_scales(self):
        self.assertFails("kernel 'gemm_tn': scale_a given, but the kernel's A (bf16) has no scale",
                         kernel(), Tensor((8, 8)), b_col(8, 8), scale_a=f32(()))
        self.assertEqual(kernel().scale_layouts(8, 8, 8), {})

    def test_repr_names_the_scales(self):
        self.assertEqual(repr(fp8_kernel("row", "col", c="e4m3")),
                         "gemmc.Kernel('gemm_fp8': e4m3 row (row scale) x e4m3 col (col scale) -> e4m3 "
                         "(tensor scale), tile (128, 128, 64))")


class LoadTest(unittest.TestCase):
    def test_missing_file(self):
        with self.assertRaises(gemmc.GemmcError) as cm:
            gemmc.load("/nonexistent/gemm.cubin")
        self.assertEqual(str(cm.exception), "/nonexistent/gemm.cubin: cannot read it: No such file or directory")
        self.assertEqual(cm.exception.status, "GEMMC_ERROR_IO")

    def test_manifest_next_to_cubin(self):
        with tempfile.TemporaryDirectory() as d:
            cubin = os.path.join(d, "k.cubin")
            with open(cubin, "wb") as f:
                f.write(b"\x7fELF")
            with self.assertRaises(gemmc.GemmcError) as cm:
                gemmc.load(cubin)
            self.assertEqual(str(cm.exception), cubin + ".json: cannot read it: No such file or directory")
            with open(cubin + ".json", "w") as f:
                f.write('{"kernel": "x"}')
            with self.assertRaises(gemmc.GemmcError) as cm:
                gemmc.load(cubin)
            self.assertEqual(str(cm.exception), cubin + ": not a gemmc manifest (KeyError: 'a'); "
                             "the runtime's full check is in docs/abi.md")
            self.assertEqual(cm.exception.status, "GEMMC_ERROR_MANIFEST")

    def test_repr(self):
        self.assertEqual(repr(kernel()), "gemmc.Kernel('gemm_tn': bf16 row x bf16 col -> bf16, tile (128, 128, 64))")


def write_bundle(d, kernels, table=None, changes=None):
    """A bundle directory as gemmc bundle writes it, with stand-in cubins; `changes` maps a kernel's name to fields
    its manifest takes in place of MANIFEST's."""
    rules = []
    for name in kernels:
        with open(os.path.join(d, name + ".cubin"), "wb") as f:
            f.write(b"\x7fELF")
        m = json.loads(json.dumps(MANIFEST))
        m["kernel"] = name
        m.update((changes or {}).get(name, {}))
        with open(os.path.join(d, name + ".cubin.json"), "w") as f:
            json.dump(m, f)
        rules.append({"kernel": name, "cubin": name + ".cubin"})
    with open(os.path.join(d, "dispatch.json"), "w") as f:
        f.write(table if table is not None else json.dumps({"gemmc_bundle": 1, "name": "b", "rules": rules}))


class BundleTest(unittest.TestCase):
    def test_loads_the_table_and_every_kernel(self):
        with tempfile.TemporaryDirectory() as d:
            write_bundle(d, ["small", "large"])
            b = gemmc.load_bundle(d)
            self.assertEqual([k.name for k in b.kernels], ["small", "large"])
            self.assertEqual(repr(b), "gemmc.Bundle('b': small, large)")
            # Selection is the runtime's: it needs the bundle loaded.
            with self.assertRaises(gemmc.GemmcError) as cm:
                b.select(16, 8192, 8192)
            self.assertEqual(str(cm.exception),
                             "bundle 'b' is not loaded yet: call it once or load_on(device) first")

    def test_register_op_needs_one_c_type(self):
        with tempfile.TemporaryDirectory() as d:
            write_bundle(d, ["small", "large"])
            with open(os.path.join(d, "large.cubin.json")) as f:
                m = json.load(f)
            m["c"]["element"] = "f32"
            with open(os.path.join(d, "large.cubin.json"), "w") as f:
                json.dump(m, f)
            with self.assertRaises(gemmc.GemmcError) as cm:
                gemmc.load_bundle(d).register_op("x::y")
            self.assertEqual(str(cm.exception), "bundle 'b': its kernels' C types differ (bf16, f32); register_op "
                             "needs one, the op's output type")

    def test_bad_table(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(gemmc.GemmcError) as cm:
                gemmc.load_bundle(d)
            self.assertEqual(str(cm.exception), os.path.join(d, "dispatch.json") +
                             ": cannot read it: No such file or directory")
            self.assertEqual(cm.exception.status, "GEMMC_ERROR_IO")
            write_bundle(d, [], table='{"gemmc_bundle": 1, "rules": []}')
            with self.assertRaises(gemmc.GemmcError) as cm:
                gemmc.load_bundle(d)
            self.assertEqual(str(cm.exception), os.path.join(d, "dispatch.json") +
                             ": not a gemmc dispatch table (KeyError: 'name'); docs/tuning.md gives the format")
            self.assertEqual(cm.exception.status, "GEMMC_ERROR_MANIFEST")


@unittest.skipUnless(os.environ.get("GEMMC_RUNTIME_LIBRARY"), "GEMMC_RUNTIME_LIBRARY not set")
class LibraryTest(unittest.TestCase):
    """The C library through the package's own ctypes declarations."""

    def test_no_driver_is_no_device(self):
        if os.path.exists("/dev/nvidiactl"):
            self.skipTest("a GPU driver is installed here")
        lib = _capi.library()
        handle = ctypes.c_void_p()
        manifest = json.dumps(MANIFEST).encode()
        status = lib.gemmc_kernel_load_data(b"\x7fELF", 4, manifest, ctypes.byref(handle))
        self.assertEqual(lib.gemmc_status_name(status).decode(), "GEMMC_ERROR_NO_DEVICE")
        self.assertTrue(lib.gemmc_last_error().decode().startswith(
            "the CUDA driver (libcuda.so.1) could not be opened: libcuda.so.1: cannot open shared object file"),
            lib.gemmc_last_error())
        self.assertIsNone(handle.value)

    def test_args_struct_matches_the_header(self):
        # gemmc_gemm_args_init sets alpha = 1, beta = 0 and zeroes the rest:
        # the fields land where ctypes expects them only if the layouts agree.
        lib = _capi.library()
        args = _capi.GemmArgs()
        ctypes.memset(ctypes.byref(args), 0xff, ctypes.sizeof(args))
        lib.gemmc_gemm_args_init(ctypes.byref(args))
        self.assertEqual((args.alpha, args.beta, args.m, args.c_type, args.ldc, args.b_layout), (1.0, 0.0, 0, 0, 0, 0))
        self.assertEqual(ctypes.sizeof(args), 168)  # sizeof(gemmc_gemm_args) on x86-64

    def test_bundle_without_a_driver(self):
        if os.path.exists("/dev/nvidiactl"):
            self.skipTest("a GPU driver is installed here")
        lib = _capi.library()
        with tempfile.TemporaryDirectory() as d:
            write_bundle(d, ["small"])
            handle = ctypes.c_void_p()
            status = lib.gemmc_bundle_load(d.encode(), ctypes.byref(handle))
            self.assertEqual(lib.gemmc_status_name(status).decode(), "GEMMC_ERROR_NO_DEVICE")
            self.assertTrue(lib.gemmc_last_error().decode().startswith("bundle b, kernel small: the CUDA driver"),
                            lib.gemmc_last_error())
            self.assertIsNone(handle.value)

    def test_bundle_of_two_interfaces_is_refused_before_the_driver(self):
        # An f16 kernel beside a bf16 one: one gemmc_gemm_args cannot launch both, so gemmc_bundle_load refuses the
        # bundle from the manifests, before it loads a module (this machine may have no driver).
        lib = _capi.library()
        with tempfile.TemporaryDirectory() as d:
            f16 = {"a": {"element": "f16", "layout": "row"}, "b": {"element": "f16", "layout": "col"}}
            table = json.dumps({"gemmc_bundle": 1, "name": "b", "rules": [
                {"kernel": "small", "cubin": "small.cubin", "m": [1, 64]},
                {"kernel": "large", "cubin": "large.cubin", "m": [65, None]}]})
            write_bundle(d, ["small", "large"], table=table, changes={"large": f16})
            handle = ctypes.c_void_p()
            status = lib.gemmc_bundle_load(d.encode(), ctypes.byref(handle))
            self.assertEqual(lib.gemmc_status_name(status).decode(), "GEMMC_ERROR_MANIFEST")
            self.assertEqual(lib.gemmc_last_error().decode(),
                             "bundle b: kernel large takes other arguments than small (A's element: f16 here, bf16 "
                             "in small; B's element: f16 here, bf16 in small); a bundle's kernels share one interface")
            self.assertIsNone(handle.value)

    def test_bundle_cubin_of_another_kernel_is_refused_before_the_driver(self):
        lib = _capi.library()
        with tempfile.TemporaryDirectory() as d:
            write_bundle(d, ["small"], changes={"small": {"kernel": "other"}})
            handle = ctypes.c_void_p()
            status = lib.gemmc_bundle_load(d.encode(), ctypes.byref(handle))
            self.assertEqual(lib.gemmc_status_name(status).decode(), "GEMMC_ERROR_MANIFEST")
            self.assertEqual(lib.gemmc_last_error().decode(),
                             "bundle b: small.cubin holds kernel other, dispatch.json says small")
            self.assertIsNone(handle.value)

    def test_bad_manifest_is_reported_before_the_driver(self):
        lib = _capi.library()
        handle = ctypes.c_void_p()
        status = lib.gemmc_kernel_load_data(b"\x7fELF", 4, b"{}", ctypes.byref(handle))
        self.assertEqual(lib.gemmc_status_name(status).decode(), "GEMMC_ERROR_MANIFEST")


if __name__ == "__main__":
    unittest.main()
