#!/usr/bin/env python3
"""How many clusters of a gemmc cubin can run at once (the persistent grid
the runtime launches): cuOccupancyMaxActiveClusters through ctypes.

    python3 test/gpu/cluster_occupancy.py CUBIN...
"""
import ctypes
import json
import sys

import torch

cuda = ctypes.CDLL("libcuda.so.1")


class LaunchAttr(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_int), ("value", ctypes.c_uint8 * 64)]


class LaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint), ("gridDimZ", ctypes.c_uint),
                ("blockDimX", ctypes.c_uint), ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttr)), ("numAttrs", ctypes.c_uint)]


CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

torch.empty(1, device="cuda")
for path in sys.argv[1:]:
    m = json.load(open(path + ".json"))
    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    data = ctypes.create_string_buffer(open(path, "rb").read())
    assert cuda.cuModuleLoadData(ctypes.byref(mod), data) == 0
    assert cuda.cuModuleGetFunction(ctypes.byref(fn), mod, m["kernel"].encode()) == 0
    cuda.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, m["dynamic_smem_bytes"])
    attr = LaunchAttr()
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
    for i, v in enumerate(m["cluster"]):
        ctypes.c_uint.from_buffer(attr.value, 4 * i).value = v
    cfg = LaunchConfig(132, 1, 1, m["block"][0], 1, 1, m["dynamic_smem_bytes"], None,
                       ctypes.pointer(attr), 1)
    n = ctypes.c_int()
    rc = cuda.cuOccupancyMaxActiveClusters(ctypes.byref(n), fn, ctypes.byref(cfg))
    print(f"{path}: cluster {m['cluster']}, cuOccupancyMaxActiveClusters rc={rc} clusters={n.value}")
