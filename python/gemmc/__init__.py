"""gemmc for Python: load a gemmc kernel and call it on PyTorch tensors.

    import gemmc, torch
    gemm = gemmc.load("gemm.cubin")            # + gemm.cubin.json
    c = gemm(a, b)                             # a: M x K, b: K x N, on CUDA
    c = fp8(a8, b8, scale_a=sa, scale_b=sb)    # an FP8 kernel: its f32 scales on the device
    op = gemm.register_op("mylib::gemm")       # torch.library op for torch.compile
    bundle = gemmc.load_bundle("build/bundles/h200_bf16_tn")   # gemmc bundle's directory
    c = bundle(a, b)                           # the kernel its dispatch table picks for (M, N, K)
    op = bundle.register_op("mylib::gemm_any") # the same for a bundle

Pure Python over libgemmc_runtime's C API (ctypes); PyTorch is imported only
when a kernel is called. Every tensor is checked against the kernel's
manifest (dtype, shape, layout, strides, device; an FP8 kernel's scales)
before anything reaches the GPU; a failed check raises GemmcError naming
the operand, the value and the rule. Launches go to torch's current stream,
so they can be captured in a CUDA graph.
"""
import ctypes
import json
import os

from . import _capi

__all__ = ["Bundle", "GemmcError", "Kernel", "load", "load_bundle", "load_data"]


class GemmcError(RuntimeError):
    """A gemmc failure; `status` is the C API's status name."""

    def __init__(self, message, status="GEMMC_ERROR_INVALID_ARGUMENT"):
        super().__init__(message)
        self.status = status


# The manifest's element names and torch's dtype names (str(torch.bfloat16)
# is "torch.bfloat16"); tf32 operands are stored as f32.
_TORCH_DTYPES = {"bf16": "bfloat16", "f16": "float16", "f32": "float32", "tf32": "float32",
                 "e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}


_DTYPE_NAMES = {}


def _dtype_name(dtype):
    """torch.bfloat16 -> "bfloat16" (memoized: a call checks up to six)."""
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = str(dtype).replace("torch.", "")
    return name


def _align4(x):
    return -(-x // 4) * 4


def _scale_layout(op, kind, m, n, k):
    """The f32 tensor that an operand's `kind` of scale is for an M x N x K
    call (docs/abi.md, "scale_a"): (shapes accepted, strides wanted). The
    kernel reads value i at data_ptr + 4 i; strides None (a vector) asks
    stride 1 of the dimension that holds the values."""
    if kind == "tensor":
        return ((), (1,), (1, 1)), None
    if kind == "row":
        return ((m,), (m, 1)), None
    if kind == "col":
        return ((n,), (1, n)), None
    kb = -(-k // 128)
    if op == "a":  # 1 x 128 blocks, one a row a 128 of K, M contiguous: scale_a[kb * M + row]
        return ((m, kb),), (1, m)
    # B's 128 x 128 blocks: the N x K weight's block grid, K contiguous, rows
    # align4(ceil(K/128)) apart: scale_b[nb * align4(kb) + kb].
    return ((-(-n // 128), kb),), (_align4(kb), 1)


def _scale_text(op, kind, m, n, k):
    """_scale_layout in words, for the messages."""
    kb, nb, kp = -(-k // 128), -(-n // 128), _align4(-(-k // 128))
    if kind == "tensor":
        return "%s's per-tensor scale: one f32 value (shape () or (1,))" % op.upper()
    if kind == "row":
        return "A's per-row scale: M = %d f32 values (shape (%d,) or (%d, 1))" % (m, m, m)
    if kind == "col":
        return "B's per-column scale: N = %d f32 values (shape (%d,) or (1, %d)), 8-byte aligned" % (n, n, n)
    if op == "a":
        return ("A's 1x128 block scales: M x ceil(K/128) = %dx%d f32 values with M contiguous (strides (1, %d): "
                "e.g. s.t().contiguous().t())" % (m, kb, m))
    return ("B's 128x128 block scales: ceil(N/128) x ceil(K/128) = %dx%d f32 values, rows %d apart (strides (%d, 1): "
            "e.g. torch.empty(%d, %d)[:, :%d])" % (nb, kb, kp, kp, nb, kp, kb))


def _check_scale(fail, op, kind, element, t, device, m, n, k):
    """Checks the scale passed for operand `op` (a, b or c) against the
    manifest's `kind` of scale (None: the kernel takes none)."""
    if kind is None:
        if t is not None:
            fail("scale_%s given, but the kernel's %s (%s) has no scale" % ("d" if op == "c" else op, op.upper(), element))
        return
    arg = "scale_" + ("d" if op == "c" else op)
    if t is None:
        fail("%s is required: the kernel's %s is %s; pass %s" % (arg, op.upper(), element,
                                                                 _scale_text(op, kind, m, n, k)))
    if t.device != device or t.device.type != "cuda":
        fail("%s is on %s; the kernel reads it on %s, a's device" % (arg, t.device, device))
    if _dtype_name(t.dtype) != "float32":
        fail("%s is %s; scales are float32 (torch.float32)" % (arg, _dtype_name(t.dtype)))
    shapes, strides = _scale_layout(op, kind, m, n, k)
    shape = tuple(t.shape)
    if shape not in shapes:
        fail("%s has shape %s; it must be %s" % (arg, list(shape), _scale_text(op, kind, m, n, k)))
    stride = t.stride()
    # torch gives a dimension of size 1 any stride.
    if any(size > 1 and got != (want if strides else 1)
           for size, got, want in zip(shape, stride, strides or shape)):
        fail("%s has strides %s; it must be %s" % (arg, list(stride), _scale_text(op, kind, m, n, k)))
    if kind == "col" and t.data_ptr() % 8:
        fail("%s starts at 0x%x, not 8-byte aligned (the kernel reads two columns a load); it must be %s"
             % (arg, t.data_ptr(), _scale_text(op, kind, m, n, k)))


def load(cubin_path, manifest_path=None):
    """A kernel from a cubin and its manifest (default: cubin_path + ".json")."""
    manifest_path = manifest_path or cubin_path + ".json"
    try:
        with open(cubin_path, "rb") as f:
            cubin = f.read()
        with open(manifest_path, "r", encoding="utf-8") as f:
            manifest = f.read()
    except OSError as e:
        raise GemmcError("%s: cannot read it: %s" % (e.filename, e.strerror), status="GEMMC_ERROR_IO") from None
    return Kernel(cubin, manifest, source=cubin_path)


def load_data(cubin, manifest_json):
    """A kernel from a cubin image (bytes) and its manifest text."""
    return Kernel(bytes(cubin), manifest_json, source="<data>")


class Kernel:
    """One gemmc kernel. The cubin is loaded into the device of the first
    call's tensors (the CUDA context current there), and a kernel stays on
    that device."""

    def __init__(self, cubin, manifest_json, source="<data>"):
        self._source = source
        try:
            m = json.loads(manifest_json)
            self.name = m["kernel"]
            self.a_type, self.a_layout = m["a"]["element"], m["a"]["layout"]
            self.b_type, self.b_layout = m["b"]["element"], m["b"]["layout"]
            self.c_type = m["c"]["element"]
            # An FP8 operand's dequantization scale: None, "tensor", "row"
            # (A), "col" (B) or "block" (docs/abi.md), in the caller's terms
            # (a swap_ab kernel's manifest too).
            self.scales = {op: m[op].get("scale") for op in "abc"}
            self.problem = tuple(m["problem"][d] for d in "mnk")
            self.tile = tuple(m["tile"])
            self.has_alpha = "alpha" in m["params"]
            self.has_beta = "beta" in m["params"]
            # The fused epilogue (docs/spec.md, epilogue.bias / aux): the
            # bias as (per, element), per "row" or "col", or None; whether
            # the kernel stores the pre-activation value to aux.
            bias = m.get("bias")
            self.bias = (bias["per"], bias["element"]) if bias else None
            self.has_aux = "aux" in m
            self.activation = m.get("activation", "none")
        except (ValueError, KeyError, TypeError) as e:
            raise GemmcError("%s: not a gemmc manifest (%s: %s); the runtime's full check is in docs/abi.md"
                             % (source, type(e).__name__, e), status="GEMMC_ERROR_MANIFEST") from None
        self._cubin = cubin
        self._manifest = manifest_json.encode("utf-8")
        self._handle = None
        self._device = None
        self._c_alloc = None

    def __repr__(self):
        def scaled(op):
            return " (%s scale)" % self.scales[op] if self.scales[op] else ""
        return "gemmc.Kernel(%r: %s %s%s x %s %s%s -> %s%s, tile %s)" % (
            self.name, self.a_type, self.a_layout, scaled("a"), self.b_type, self.b_layout, scaled("b"),
            self.c_type, scaled("c"), self.tile)

    def __del__(self):
        if getattr(self, "_handle", None) is not None and _capi._lib is not None:
            _capi._lib.gemmc_kernel_unload(self._handle)
            self._handle = None

    @property
    def c_dtype_name(self):
        """The torch dtype name of C, e.g. "bfloat16"."""
        return _TORCH_DTYPES[self.c_type]

    def check(self, a, b, out=None, alpha=1.0, beta=0.0, scale_a=None, scale_b=None, scale_d=None,
              bias=None, aux=None):
        """Every check of a call, without launching. Returns the C API's
        argument struct (pointers from the tensors' data_ptr)."""
        def fail(message):
            raise GemmcError("kernel '%s': %s" % (self.name, message))

        device, apart = a.device, False
        for what, t in (("a", a), ("b", b)) + ((("out", out),) if out is not None else ()):
            if t.dim() != 2:
                fail("%s must be a 2-D tensor, got %d dimensions (shape %s)" % (what, t.dim(), list(t.shape)))
            on = t.device
            if on.type != "cuda":
                fail("%s is on %s; gemmc kernels take CUDA tensors (move it with .cuda())" % (what, on))
            apart = apart or on != device
        if apart:
            fail("a, b and out must be on one device, got %s" % ", ".join(
                str(t.device) for t in (a, b, out) if t is not None))
        m, k = a.shape
        kb, n = b.shape
        if kb != k:
            fail("a is %dx%d and b is %dx%d: a's columns (K) must equal b's rows" % (m, k, kb, n))
        for what, want, got in (("a", self.a_type, a.dtype), ("b", self.b_type, b.dtype)) + (
                (("out", self.c_type, out.dtype),) if out is not None else ()):
            if _dtype_name(got) != _TORCH_DTYPES[want]:
                fail("%s is %s; the kernel takes %s (torch.%s)" % (what, _dtype_name(got), want, _TORCH_DTYPES[want]))
        for dim, pinned, got in zip("MNK", self.problem, (m, n, k)):
            if pinned != -1 and pinned != got:
                fail("%s = %d, but the kernel is compiled for %s = %d only" % (dim, got, dim, pinned))

        def leading(what, t, layout):
            """The leading dimension of a 2-D tensor stored in `layout`
            (row: the second index is contiguous; col: the first)."""
            (rows, cols), (s0, s1) = t.shape, t.stride()
            inner, ld, extent, outer = (s1, s0, cols, rows) if layout == "row" else (s0, s1, rows, cols)
            if inner != 1 and extent > 1:
                want, fix = (("stride(1) == 1, row-major", ".contiguous()") if layout == "row" else
                             ("stride(0) == 1, column-major", ".t().contiguous().t()"))
                fail("%s has strides %s; the kernel's '%s' layout needs %s (e.g. %s%s)"
                     % (what, list(t.stride()), layout, want, what, fix))
            # torch gives a dimension of size 1 any stride.
            return max(ld, extent) if outer <= 1 else ld

        # A (M x K): row = K contiguous. B (K x N): col = K contiguous. C row.
        if out is not None and tuple(out.shape) != (m, n):
            fail("out is %s; it must be %dx%d (M x N)" % (list(out.shape), m, n))
        lda = leading("a", a, self.a_layout)
        ldb = leading("b", b, self.b_layout)
        ldc = leading("out", out, "row") if out is not None else n
        if alpha != 1.0 and not self.has_alpha:
            fail("alpha = %g, but the kernel has no alpha (epilogue.alpha: false); alpha must be 1" % alpha)
        if beta != 0.0 and not self.has_beta:
            fail("beta = %g, but the kernel has no beta (epilogue.beta: false); beta must be 0" % beta)
        if beta != 0.0 and out is None:
            fail("beta = %g reads C: pass out=" % beta)
        for op, t, element in (("a", scale_a, self.a_type), ("b", scale_b, self.b_type), ("c", scale_d, self.c_type)):
            if t is not None or self.scales[op] is not None:
                _check_scale(fail, op, self.scales[op], element, t, device, m, n, k)
        self._check_fused(fail, bias, aux, out, device, m, n)

        args = _capi.GemmArgs()
        args.m, args.n, args.k = m, n, k
        args.a, args.lda = a.data_ptr(), lda
        args.a_type, args.a_layout = _capi.DTYPES[self.a_type], _capi.LAYOUTS[self.a_layout]
        args.b, args.ldb = b.data_ptr(), ldb
        args.b_type, args.b_layout = _capi.DTYPES[self.b_type], _capi.LAYOUTS[self.b_layout]
        args.c, args.ldc = (out.data_ptr() if out is not None else None), ldc
        args.c_type = _capi.DTYPES[self.c_type]
        args.alpha, args.beta = alpha, beta
        args.scale_a, args.scale_b, args.scale_d = (t.data_ptr() if t is not None else None
                                                    for t in (scale_a, scale_b, scale_d))
        if bias is not None:
            args.bias, args.bias_length = bias.data_ptr(), bias.shape[0]
            args.bias_type = _capi.DTYPES[self.bias[1]]
        if aux is not None:
            args.aux = aux.data_ptr()
        return args

    def _check_fused(self, fail, bias, aux, out, device, m, n):
        """The fused epilogue's tensors: `bias`, one value a row (M) or a
        column (N) of the manifest's element, contiguous; `aux`, M x N of
        C's type and row stride (the kernel writes it with C's ldc)."""
        if self.bias is None:
            if bias is not None:
                fail("bias is given, but the kernel adds none (built with epilogue bias: none)")
        else:
            per, element = self.bias
            length = m if per == "row" else n
            want = "a %s tensor of %d values, one a %s of C" % (_TORCH_DTYPES[element], length, per)
            if bias is None:
                fail("the kernel adds a bias (epilogue bias: %s): pass bias=, %s" % (per, want))
            if tuple(bias.shape) != (length,) or (length > 1 and bias.stride()[0] != 1):
                fail("bias is %s with strides %s; it must be %s, contiguous"
                     % (list(bias.shape), list(bias.stride()), want))
            if _dtype_name(bias.dtype) != _TORCH_DTYPES[element]:
                fail("bias is %s; the kernel reads %s (torch.%s)" % (_dtype_name(bias.dtype), element,
                                                                     _TORCH_DTYPES[element]))
            if bias.device != device:
                fail("bias is on %s; it must be on a's device, %s" % (bias.device, device))
        if not self.has_aux:
            if aux is not None:
                fail("aux is given, but the kernel stores no auxiliary output (built with epilogue aux: false)")
            return
        if aux is None:
            fail("the kernel stores the pre-activation value to aux (epilogue aux: true): pass aux=, an %dx%d "
                 "%s tensor with C's row stride" % (m, n, _TORCH_DTYPES[self.c_type]))
        if aux.dim() != 2 or tuple(aux.shape) != (m, n):
            fail("aux is %s; it must be %dx%d (M x N)" % (list(aux.shape), m, n))
        if _dtype_name(aux.dtype) != _TORCH_DTYPES[self.c_type]:
            fail("aux is %s; the kernel writes %s (torch.%s)" % (_dtype_name(aux.dtype), self.c_type,
                                                                 _TORCH_DTYPES[self.c_type]))
        if aux.device != device:
            fail("aux is on %s; it must be on a's device, %s" % (aux.device, device))
        if n > 1 and aux.stride()[1] != 1:
            fail("aux has strides %s; it must be row-major (stride(1) == 1)" % list(aux.stride()))
        if out is not None and m > 1 and aux.stride()[0] != out.stride()[0]:
            fail("aux's row stride is %d and out's %d; the kernel writes aux with C's (ldc), so they must be "
                 "equal" % (aux.stride()[0], out.stride()[0]))

    def _new_c(self, like, m, n):
        """An M x N C on `like`'s device. The runtime needs C's rows 16-byte
        aligned: where N is not a multiple of that, C is a view of a padded
        buffer (the fake implementation of register_op gives the same
        strides)."""
        if self._c_alloc is None:  # once: a CPU tensor a call would cost ~10 us
            import torch
            dtype = getattr(torch, self.c_dtype_name)
            self._c_alloc = dtype, max(16 // torch.empty((), dtype=dtype).element_size(), 1)
        dtype, per_16_bytes = self._c_alloc
        ldc = -(-n // per_16_bytes) * per_16_bytes
        c = like.new_empty((m, ldc), dtype=dtype)
        return c if ldc == n else c[:, :n]

    def _raise(self, status):
        lib = _capi.library()
        raise GemmcError("%s: %s" % (self._source, lib.gemmc_last_error().decode()),
                         status=lib.gemmc_status_name(status).decode())

    def load_on(self, device):
        """Loads the cubin into `device`'s primary context (a call does this
        itself on the first launch)."""
        _load_on(self, "kernel", device, lambda lib, handle: lib.gemmc_kernel_load_data(
            self._cubin, len(self._cubin), self._manifest, handle))

    def __call__(self, a, b, out=None, alpha=1.0, beta=0.0, scale_a=None, scale_b=None, scale_d=None,
                 bias=None, aux=None):
        """C = alpha * a @ b [+ beta * out], on torch's current stream of
        a's device. Returns out (allocated when not given, rows padded to
        16 bytes: a view when N x bytes(C) is not a multiple of 16). Each
        operand's rows must be 16-byte aligned (the runtime's check says so
        otherwise). An FP8 kernel takes its operands' scales as float32
        tensors on a's device (scale_a, scale_b; scale_d for an FP8 C):
        C = alpha * (scale_a * a) @ (b * scale_b), D = scale_d * C; each
        scale's shape is the one its manifest names (scale_layouts). A
        kernel with a fused epilogue takes its bias (bias=: M or N values of
        the manifest's element) and, with aux, the M x N tensor the
        pre-activation value goes to (aux=, C's type; without out=, C is
        allocated with aux's strides): C = act(alpha * a @ b [+ beta * out]
        + bias)."""
        return _call(self, self, lambda *args: _capi.library().gemmc_launch(*args), a, b, out, alpha, beta,
                     (scale_a, scale_b, scale_d), bias, aux)

    def scale_layouts(self, m, n, k):
        """What each scale of an M x N x K call must be: {"scale_a": text,
        ...}, one entry a scale the kernel takes (none for bf16 kernels)."""
        return {"scale_" + ("d" if op == "c" else op): _scale_text(op, self.scales[op], m, n, k)
                for op in "abc" if self.scales[op]}

    def register_op(self, qualname):
        """Registers the kernel as the torch.library custom op `qualname`
        ("namespace::name"), out-of-place (a, b[, alpha, scale_a, scale_b,
        scale_d, bias]) -> c, with a fake implementation so torch.compile can
        trace it. A kernel with aux (a second output) is not registered: call
        it directly. Returns the op."""
        return _register_op(qualname, self, self)


def _register_op(qualname, call, kernel):
    """The custom op `qualname` calling `call` (a Kernel or a Bundle); its
    fake C is `kernel`'s (a bundle's kernels share C's type)."""
    if kernel.has_aux:
        raise GemmcError("kernel '%s' stores an auxiliary output (epilogue aux: true), which register_op's "
                         "out-of-place op has no place for; call the kernel with aux= instead" % kernel.name)
    import torch
    from typing import Optional

    @torch.library.custom_op(qualname, mutates_args=())
    def op(a: torch.Tensor, b: torch.Tensor, alpha: float = 1.0, scale_a: Optional[torch.Tensor] = None,
           scale_b: Optional[torch.Tensor] = None, scale_d: Optional[torch.Tensor] = None,
           bias: Optional[torch.Tensor] = None) -> torch.Tensor:
        return call(a, b, alpha=alpha, scale_a=scale_a, scale_b=scale_b, scale_d=scale_d, bias=bias)

    @op.register_fake
    def _(a, b, alpha=1.0, scale_a=None, scale_b=None, scale_d=None, bias=None):
        return kernel._new_c(a, a.shape[0], b.shape[1])

    return op


def _load_on(owner, what, device, load):
    """Loads `owner` (a Kernel or a Bundle) into `device`'s primary context
    with load(lib, handle_pointer) -> status, once; a later device is an
    error."""
    if owner._handle is not None:
        if device != owner._device:
            raise GemmcError("%s '%s' was loaded on %s, the tensors are on %s; load one per device"
                             % (what, owner.name, owner._device, device))
        return
    import torch
    lib = _capi.library()
    handle = ctypes.c_void_p()
    # cudaSetDevice (torch.cuda.device) makes the device's primary context
    # current, the one torch allocates in; the kernel is bound to it.
    with torch.cuda.device(device):
        torch.cuda.init()
        status = load(lib, ctypes.byref(handle))
    if status != _capi.OK:
        owner._raise(status)
    owner._handle, owner._device = handle, device


def _current_stream(torch, device):
    """torch's current stream on `device` as a CUstream: torch's raw getter
    where it has one (inductor's generated code calls it too), else
    torch.cuda.current_stream, which builds a Stream object (~3 us a call
    on the H200's host, bench/lead23/host_overhead.py)."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw(device.index) if raw is not None else torch.cuda.current_stream(device).cuda_stream


def _call(kernel, owner, launch, a, b, out, alpha, beta, scales, bias=None, aux=None):
    """Checks a call against `kernel`, allocates C if needed (with aux's
    strides where the kernel writes aux: one ldc serves both) and launches
    with launch(owner's handle, args, stream) on torch's current stream."""
    args = kernel.check(a, b, out, alpha, beta, *scales, bias=bias, aux=aux)
    import torch
    if out is None:
        out = (kernel._new_c(a, args.m, args.n) if aux is None else
               torch.empty_strided(tuple(aux.shape), aux.stride(), dtype=aux.dtype, device=aux.device))
        args.c, args.ldc = out.data_ptr(), out.stride(0)
    device = a.device
    owner.load_on(device)
    stream = _current_stream(torch, device)
    # The runtime launches in the context current on this thread: the
    # tensors' device's, whatever torch's current device is.
    with torch.cuda.device(device):
        status = launch(owner._handle, ctypes.byref(args), ctypes.c_void_p(stream))
    if status != _capi.OK:
        owner._raise(status)
    return out


def load_bundle(path):
    """A kernel bundle: the directory `gemmc bundle` writes (docs/tuning.md)."""
    return Bundle(path)


class Bundle:
    """Several kernels and the dispatch table that picks one per (M, N, K).
    The runtime picks (gemmc_bundle_select / gemmc_bundle_launch), so the
    rules are the C library's; each kernel's manifest checks the tensors as
    a Kernel's does. Loaded into the device of the first call's tensors."""

    def __init__(self, path):
        self._source = os.path.join(path, "dispatch.json")
        try:
            with open(self._source, "r", encoding="utf-8") as f:
                table = json.load(f)
            self.name = table["name"]
            cubins = [rule["cubin"] for rule in table["rules"]]
        except OSError as e:
            raise GemmcError("%s: cannot read it: %s" % (e.filename, e.strerror), status="GEMMC_ERROR_IO") from None
        except (ValueError, KeyError, TypeError) as e:
            raise GemmcError("%s: not a gemmc dispatch table (%s: %s); docs/tuning.md gives the format"
                             % (self._source, type(e).__name__, e), status="GEMMC_ERROR_MANIFEST") from None
        self._path = path
        self.kernels = [load(os.path.join(path, c)) for c in cubins]
        self._handle = None
        self._device = None

    def __repr__(self):
        return "gemmc.Bundle(%r: %s)" % (self.name, ", ".join(k.name for k in self.kernels))

    def __del__(self):
        if getattr(self, "_handle", None) is not None and _capi._lib is not None:
            _capi._lib.gemmc_bundle_unload(self._handle)
            self._handle = None

    def _raise(self, status):
        Kernel._raise(self, status)

    def load_on(self, device):
        """Loads every kernel into `device`'s primary context (a call does
        this itself on the first launch)."""
        _load_on(self, "bundle", device, lambda lib, handle: lib.gemmc_bundle_load(self._path.encode(), handle))

    def _loaded(self):
        if self._handle is None:
            raise GemmcError("bundle '%s' is not loaded yet: call it once or load_on(device) first" % self.name)
        return _capi.library()

    def explain(self, m, n, k):
        """Which kernel serves M x N x K and why (the runtime's words)."""
        lib = self._loaded()
        size = lib.gemmc_bundle_explain(self._handle, m, n, k, None, 0) + 1
        buf = ctypes.create_string_buffer(size)
        lib.gemmc_bundle_explain(self._handle, m, n, k, buf, size)
        return buf.value.decode()

    def select(self, m, n, k):
        """The Kernel that serves M x N x K; GemmcError when none does."""
        index = self._loaded().gemmc_bundle_select(self._handle, m, n, k)
        if index < 0:
            raise GemmcError("%s: %s" % (self._source, self.explain(m, n, k)))
        return self.kernels[index]

    def register_op(self, qualname):
        """As Kernel.register_op: the op calls the bundle, which picks the
        kernel for each call's shape. The fake C is the first kernel's, so
        the kernels must share C's type."""
        types = sorted({k.c_type for k in self.kernels})
        if len(types) > 1:
            raise GemmcError("bundle '%s': its kernels' C types differ (%s); register_op needs one, the op's "
                             "output type" % (self.name, ", ".join(types)))
        return _register_op(qualname, self, self.kernels[0])

    def __call__(self, a, b, out=None, alpha=1.0, beta=0.0, scale_a=None, scale_b=None, scale_d=None,
                 bias=None, aux=None):
        """As Kernel.__call__, with the kernel the table picks for
        a.shape[0] x b.shape[1] x a.shape[1]."""
        scales = (scale_a, scale_b, scale_d)
        if a.dim() != 2 or b.dim() != 2:
            self.kernels[0].check(a, b, out, alpha, beta, *scales, bias=bias, aux=aux)  # says what is wrong
        self.load_on(a.device)
        kernel = self.select(a.shape[0], b.shape[1], a.shape[1])
        return _call(kernel, self, lambda *args: _capi.library().gemmc_bundle_launch(*args), a, b, out, alpha, beta,
                     scales, bias, aux)
