// A stand-in for libcuda.so.1 (the CUDA driver), so that the runtime's driver
// layer (runtime/lib/Runtime.cpp: loading, argument checks, tensor maps,
// launch configuration and parameters) runs on a machine without a GPU. It
// implements the entry points the runtime looks up, as an H200 would answer
// them (sm_90, 132 SMs, 227 KiB of shared memory a block), keeps "device"
// allocations in host memory, and launches nothing: cuLaunchKernelEx hands
// what it was given to the hook a test sets (fakecuda_set_launch_hook), which
// reads the parameters while they are alive. Built as libcuda.so.1 in its own
// folder; a test puts that folder first on LD_LIBRARY_PATH (test/Runtime/*.test).
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

extern "C" {
/// Called by cuLaunchKernelEx with its arguments; returns the launch's result.
typedef CUresult (*fakecuda_launch_hook)(const CUlaunchConfig *config, void **params);
__attribute__((visibility("default"))) void fakecuda_set_launch_hook(fakecuda_launch_hook hook);
}

namespace {
fakecuda_launch_hook launchHook = nullptr;
CUcontext current = nullptr;
// Opaque handles: addresses of these objects, never dereferenced by the runtime.
char primaryContext, module, function, stream;
std::map<uintptr_t, size_t> &allocations() {
  static std::map<uintptr_t, size_t> a;
  return a;
}
} // namespace

void fakecuda_set_launch_hook(fakecuda_launch_hook hook) { launchHook = hook; }

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "the fake driver's error";
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = current;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *dev) {
  *dev = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxPushCurrent(CUcontext ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxPopCurrent(CUcontext *ctx) {
  if (ctx)
    *ctx = current;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *dev, int) {
  *dev = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  switch (attr) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 132; break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 232448; break;
  default: *value = 0;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int length, CUdevice) {
  std::snprintf(name, length, "fake H200 (test/fakecuda)");
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  *ctx = reinterpret_cast<CUcontext>(&primaryContext);
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }
CUresult cuModuleLoadData(CUmodule *m, const void *) {
  *m = reinterpret_cast<CUmodule>(&module);
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule, const char *) {
  *f = reinterpret_cast<CUfunction>(&function);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction) {
  *value = attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }
CUresult cuOccupancyMaxActiveClusters(int *clusters, CUfunction, const CUlaunchConfig *config) {
  unsigned ctas = 1;
  for (unsigned i = 0; i < config->numAttrs; ++i)
    if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      ctas = config->attrs[i].value.clusterDim.x * config->attrs[i].value.clusterDim.y *
             config->attrs[i].value.clusterDim.z;
  *clusters = static_cast<int>(132 / ctas);
  return CUDA_SUCCESS;
}
CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  void *p = std::calloc(bytes ? bytes : 1, 1);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  allocations()[reinterpret_cast<uintptr_t>(p)] = bytes;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr ptr) {
  auto it = allocations().find(static_cast<uintptr_t>(ptr));
  if (it == allocations().end())
    return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void *>(ptr));
  allocations().erase(it);
  return CUDA_SUCCESS;
}
CUresult cuMemGetAddressRange(CUdeviceptr *base, size_t *size, CUdeviceptr ptr) {
  auto it = allocations().upper_bound(static_cast<uintptr_t>(ptr));
  if (it == allocations().begin())
    return CUDA_ERROR_NOT_FOUND;
  --it;
  if (ptr >= it->first + it->second)
    return CUDA_ERROR_NOT_FOUND;
  *base = it->first;
  *size = it->second;
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr ptr, unsigned char value, size_t bytes, CUstream) {
  std::memset(reinterpret_cast<void *>(ptr), value, bytes);
  return CUDA_SUCCESS;
}
CUresult cuStreamCreate(CUstream *s, unsigned int) {
  *s = reinterpret_cast<CUstream>(&stream);
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }

/// Writes what the runtime asked for into the map's opaque bytes, so that a
/// launch hook can read it back: the data type, rank, global address, then
/// per dimension the global size, the stride (0 for the first) and the box,
/// then the swizzle, interleave, L2 promotion and fill, each a 64-bit word.
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType type, cuuint32_t rank, void *global,
                                const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                const cuuint32_t *elementStrides, CUtensorMapInterleave interleave,
                                CUtensorMapSwizzle swizzle, CUtensorMapL2promotion promotion,
                                CUtensorMapFloatOOBfill fill) {
  if (rank < 1 || rank > 3)
    return CUDA_ERROR_INVALID_VALUE;
  std::memset(map, 0, sizeof *map);
  uint64_t *w = reinterpret_cast<uint64_t *>(map->opaque);
  *w++ = type;
  *w++ = rank;
  *w++ = reinterpret_cast<uintptr_t>(global);
  for (cuuint32_t d = 0; d < rank; ++d) {
    *w++ = dims[d];
    *w++ = d ? strides[d - 1] : 0;
    *w++ = box[d];
    if (elementStrides[d] != 1)
      return CUDA_ERROR_INVALID_VALUE;
  }
  *w++ = swizzle;
  *w++ = interleave;
  *w++ = promotion;
  *w++ = fill;
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction, void **params, void **) {
  return launchHook ? launchHook(config, params) : CUDA_SUCCESS;
}
