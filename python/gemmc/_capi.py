"""ctypes declarations of runtime/include/gemmc/runtime.h (the C API).

Only what the Python package calls. The enums' values are the header's; the
structs mirror its field order exactly.
"""
import ctypes
import ctypes.util
import os

# gemmc_status
OK = 0
ERROR_INVALID_ARGUMENT = 1
ERROR_NO_DEVICE = 5

# gemmc_dtype and gemmc_layout, by the names the manifest uses.
DTYPES = {"bf16": 1, "f16": 2, "f32": 3, "tf32": 4, "e4m3": 5, "e5m2": 6}
LAYOUTS = {"row": 1, "col": 2}


class GemmArgs(ctypes.Structure):
    _fields_ = [
        ("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64),
        ("a", ctypes.c_void_p), ("lda", ctypes.c_int64), ("a_type", ctypes.c_int), ("a_layout", ctypes.c_int),
        ("b", ctypes.c_void_p), ("ldb", ctypes.c_int64), ("b_type", ctypes.c_int), ("b_layout", ctypes.c_int),
        ("c", ctypes.c_void_p), ("ldc", ctypes.c_int64), ("c_type", ctypes.c_int),
        ("alpha", ctypes.c_float), ("beta", ctypes.c_float),
        # The fused epilogue's operands (Kernel.check: the bias and aux
        # tensors' data_ptr where the manifest names them) and the launch
        # flags (issue 15), which the package leaves zero.
        ("bias", ctypes.c_void_p), ("bias_length", ctypes.c_int64), ("bias_type", ctypes.c_int),
        ("aux", ctypes.c_void_p), ("flags", ctypes.c_uint32),
        # FP8 dequantization scales (issue 14): the scale tensors' data_ptr
        # where the kernel's manifest names a scale (Kernel.check), else NULL.
        ("scale_a", ctypes.c_void_p), ("scale_b", ctypes.c_void_p), ("scale_d", ctypes.c_void_p),
    ]


def _library_candidates():
    """Where libgemmc_runtime.so may be, in the order tried."""
    env = os.environ.get("GEMMC_RUNTIME_LIBRARY")
    if env:
        yield env
        return
    # Installed layout: <prefix>/<libdir>/gemmc/python/gemmc/_capi.py next to
    # <prefix>/<libdir>/libgemmc_runtime.so.
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.normpath(os.path.join(here, "..", "..", "..", "libgemmc_runtime.so"))
    found = ctypes.util.find_library("gemmc_runtime")
    if found:
        yield found


_lib = None


def library():
    """The runtime library, loaded once; raises GemmcError if none is found."""
    global _lib
    if _lib is not None:
        return _lib
    from . import GemmcError
    tried = []
    for path in _library_candidates():
        tried.append(path)
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        lib.gemmc_kernel_load_data.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p,
                                               ctypes.POINTER(ctypes.c_void_p)]
        lib.gemmc_kernel_load_data.restype = ctypes.c_int
        lib.gemmc_kernel_unload.argtypes = [ctypes.c_void_p]
        lib.gemmc_kernel_unload.restype = None
        lib.gemmc_gemm_args_init.argtypes = [ctypes.POINTER(GemmArgs)]
        lib.gemmc_gemm_args_init.restype = None
        lib.gemmc_launch.argtypes = [ctypes.c_void_p, ctypes.POINTER(GemmArgs), ctypes.c_void_p]
        lib.gemmc_launch.restype = ctypes.c_int
        lib.gemmc_bundle_load.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.gemmc_bundle_load.restype = ctypes.c_int
        lib.gemmc_bundle_unload.argtypes = [ctypes.c_void_p]
        lib.gemmc_bundle_unload.restype = None
        lib.gemmc_bundle_select.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
        lib.gemmc_bundle_select.restype = ctypes.c_int32
        lib.gemmc_bundle_explain.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                                             ctypes.c_char_p, ctypes.c_size_t]
        lib.gemmc_bundle_explain.restype = ctypes.c_size_t
        lib.gemmc_bundle_launch.argtypes = [ctypes.c_void_p, ctypes.POINTER(GemmArgs), ctypes.c_void_p]
        lib.gemmc_bundle_launch.restype = ctypes.c_int
        lib.gemmc_last_error.argtypes = []
        lib.gemmc_last_error.restype = ctypes.c_char_p
        lib.gemmc_status_name.argtypes = [ctypes.c_int]
        lib.gemmc_status_name.restype = ctypes.c_char_p
        _lib = lib
        return lib
    raise GemmcError("libgemmc_runtime.so not found (tried: %s); set GEMMC_RUNTIME_LIBRARY to its path"
                     % (", ".join(tried) or "nothing"), status="GEMMC_ERROR_IO")
