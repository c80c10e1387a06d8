// The driver layer of libgemmc_runtime: the C API, module loading, tensor-map
// encoding and caching, and the launch. Every rule that needs no GPU lives in
// Plan.cpp and Manifest.cpp.
#include "gemmc/runtime.h"
#include "gemmc/runtime/Dispatch.h"
#include "gemmc/runtime/Manifest.h"
#include "gemmc/runtime/Plan.h"

#include <algorithm>
#include <cuda.h>
#include <dlfcn.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

using namespace gemmc::rt;

namespace {

thread_local std::string tlsError;

gemmc_status fail(gemmc_status status, std::string message) {
  tlsError = std::move(message);
  return status;
}

// The CUDA driver is opened at the first load, not linked: a program that
// links gemmc_runtime builds and starts on a machine without the driver, and
// gemmc_kernel_load* answer GEMMC_ERROR_NO_DEVICE there (docs/runtime.md).
// Each entry point is looked up under the name cuda.h maps it to (e.g.
// cuMemAlloc -> cuMemAlloc_v2), so the signatures are cuda.h's own.
#define GEMMC_DRIVER_FUNCTIONS(X)                                                                  \
  X(cuInit) X(cuGetErrorName) X(cuGetErrorString) X(cuCtxGetCurrent) X(cuCtxSetCurrent)            \
  X(cuCtxGetDevice) X(cuCtxPushCurrent) X(cuCtxPopCurrent) X(cuDeviceGet) X(cuDeviceGetAttribute)   \
  X(cuDeviceGetName) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease) X(cuModuleLoadData)  \
  X(cuModuleGetFunction) X(cuModuleUnload) X(cuFuncGetAttribute) X(cuFuncSetAttribute)             \
  X(cuOccupancyMaxActiveClusters) X(cuMemAlloc) X(cuMemFree) X(cuMemGetAddressRange)               \
  X(cuMemsetD8Async) X(cuStreamCreate) X(cuStreamDestroy) X(cuStreamSynchronize)                   \
  X(cuTensorMapEncodeTiled) X(cuLaunchKernelEx)

#define GEMMC_STR(x) #x
#define GEMMC_XSTR(x) GEMMC_STR(x)

struct CudaDriver {
#define GEMMC_DRIVER_MEMBER(f) decltype(&::f) f = nullptr;
  GEMMC_DRIVER_FUNCTIONS(GEMMC_DRIVER_MEMBER)
#undef GEMMC_DRIVER_MEMBER
};

/// The driver's entry points, set once by openDriver; null until then. Every
/// call below goes through it, and only after a successful load.
const CudaDriver *cu = nullptr;

/// The soname the driver package installs (libcuda.so is only in -dev).
constexpr const char *kDriverLibrary = "libcuda.so.1";

/// Opens the driver once per process. On failure returns false and sets
/// `error` (the same text on every call).
bool openDriver(std::string &error) {
  static std::once_flag once;
  static CudaDriver table;
  static std::string openError;
  std::call_once(once, [] {
    void *lib = dlopen(kDriverLibrary, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      openError = std::string("the CUDA driver (") + kDriverLibrary + ") could not be opened: " +
                  (why ? why : "unknown reason") + "; gemmc kernels run only where an NVIDIA driver is installed";
      return;
    }
#define GEMMC_DRIVER_LOOKUP(f)                                                                     \
    table.f = reinterpret_cast<decltype(table.f)>(dlsym(lib, GEMMC_XSTR(f)));                      \
    if (!table.f && openError.empty())                                                             \
      openError = std::string(kDriverLibrary) + " has no " GEMMC_XSTR(f) "; the driver is older than the " \
                  "CUDA 12 API gemmc needs (tensor maps, cuLaunchKernelEx)";
    GEMMC_DRIVER_FUNCTIONS(GEMMC_DRIVER_LOOKUP)
#undef GEMMC_DRIVER_LOOKUP
    if (openError.empty())
      cu = &table;
  });
  error = openError;
  return cu != nullptr;
}

std::string cuErrorText(CUresult r) {
  const char *name = nullptr, *text = nullptr;
  cu->cuGetErrorName(r, &name);
  cu->cuGetErrorString(r, &text);
  std::string s = name ? name : ("CUresult " + std::to_string(int(r)));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

gemmc_status cuFail(CUresult r, const std::string &what) {
  gemmc_status st = (r == CUDA_ERROR_NO_DEVICE || r == CUDA_ERROR_NOT_INITIALIZED ||
                     r == CUDA_ERROR_STUB_LIBRARY || r == CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)
                        ? GEMMC_ERROR_NO_DEVICE
                        : GEMMC_ERROR_CUDA;
  return fail(st, what + ": " + cuErrorText(r));
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool readFile(const std::string &path, std::string &out) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  out = ss.str();
  return static_cast<bool>(f) || f.eof();
}

CUtensorMapDataType tmapType(gemmc_dtype d) {
  switch (d) {
  case GEMMC_BF16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case GEMMC_F16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  // tf32 operands are stored as f32; the MMA reads the tf32 bits itself.
  case GEMMC_F32:
  case GEMMC_TF32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  default: return CU_TENSOR_MAP_DATA_TYPE_UINT8; // fp8: raw bytes
  }
}

CUtensorMapSwizzle tmapSwizzle(int bytes) {
  switch (bytes) {
  case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

CUtensorMapL2promotion tmapL2Promotion(int bytes) {
  switch (bytes) {
  case 0: return CU_TENSOR_MAP_L2_PROMOTION_NONE;
  case 64: return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
  case 128: return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
  default: return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  }
}

} // namespace

struct gemmc_kernel {
  Manifest manifest;
  CUcontext ctx = nullptr;
  CUdevice device = 0;
  bool retainedPrimary = false;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  int smCount = 0;
  int ccMajor = 0; // GEMMC_LAUNCH_PDL needs 9 or more
  /// CTAs that can run at once (one per SM, fewer when clusters must share
  /// a GPC): the persistent grid's bound and the stream-K grid's size.
  int residentCtas = 0;
  bool boundsCheck = true;
  /// GEMMC_TMA_L2_PROMOTION at load (parseL2Promotion): 0, 64, 128 or 256.
  int l2Promotion = 256;
  /// The driver JIT-compiled the file's PTX (no SASS for this device).
  bool jitCompiled = false;
  /// The stream-K workspace (workspace_bytes_per_cta > 0): slots x bytes per
  /// CTA, allocated and zeroed at load, freed at unload. The kernel leaves it
  /// zeroed after every launch, so the runtime never clears it again.
  CUdeviceptr workspace = 0;
  uint64_t workspaceBytes = 0;

  // Tensor-map cache: fixed size, so a warm launch allocates nothing.
  static constexpr int kCacheSize = 16;
  struct Entry {
    CUtensorMap map;
    TensorMapParams key;
    bool valid = false;
  };
  std::mutex mutex;
  Entry cache[3][kCacheSize]; // indexed by Operand; [C] only for kernels with tmap_c
  int nextSlot[3] = {0, 0, 0};
};

struct gemmc_bundle {
  DispatchTable table;
  std::vector<gemmc_kernel *> kernels; ///< one per rule, in the table's order
};

namespace {

/// Loads `image` (a cubin or fatbinary) as the kernel `manifest` (parsed from
/// `source`) describes, into the current context or device 0's primary one.
gemmc_status loadParsed(const void *image, Manifest manifest, const std::string &source,
                        gemmc_kernel **out) {
  *out = nullptr;
  if (std::string why; !openDriver(why))
    return fail(GEMMC_ERROR_NO_DEVICE, why);
  CUresult r = cu->cuInit(0);
  if (r != CUDA_SUCCESS)
    return cuFail(r, "cuInit (is there a CUDA driver and a GPU?)");

  auto k = std::make_unique<gemmc_kernel>();
  k->manifest = std::move(manifest);
  const Manifest &m = k->manifest;
  if ((r = cu->cuCtxGetCurrent(&k->ctx)) != CUDA_SUCCESS)
    return cuFail(r, "cuCtxGetCurrent");
  if (!k->ctx) {
    // No context on this thread: use device 0's primary context, as the CUDA
    // runtime API (and so cuBLAS and PyTorch) would.
    CUdevice dev;
    if ((r = cu->cuDeviceGet(&dev, 0)) != CUDA_SUCCESS)
      return cuFail(r, "cu->cuDeviceGet(0)");
    if ((r = cu->cuDevicePrimaryCtxRetain(&k->ctx, dev)) != CUDA_SUCCESS)
      return cuFail(r, "cuDevicePrimaryCtxRetain");
    k->retainedPrimary = true;
    k->device = dev;
    if ((r = cu->cuCtxSetCurrent(k->ctx)) != CUDA_SUCCESS) {
      cu->cuDevicePrimaryCtxRelease(dev);
      return cuFail(r, "cuCtxSetCurrent");
    }
  }
  auto cleanup = [&]() {
    if (k->workspace)
      cu->cuMemFree(k->workspace);
    if (k->module)
      cu->cuModuleUnload(k->module);
    if (k->retainedPrimary)
      cu->cuDevicePrimaryCtxRelease(k->device);
  };
  if ((r = cu->cuCtxGetDevice(&k->device)) != CUDA_SUCCESS) {
    cleanup();
    return cuFail(r, "cuCtxGetDevice");
  }
  int major = 0, minor = 0, optin = 0;
  cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, k->device);
  cu->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, k->device);
  cu->cuDeviceGetAttribute(&k->smCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, k->device);
  k->residentCtas = k->smCount;
  k->ccMajor = major;
  cu->cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, k->device);
  char devName[256] = {0};
  cu->cuDeviceGetName(devName, sizeof devName - 1, k->device);
  ArchFit fit = archFit(m, major, minor);
  if (fit == ArchFit::No) {
    cleanup();
    return fail(GEMMC_ERROR_UNSUPPORTED, source + ": " + archMismatch(m, major, minor, devName));
  }
  // The driver picks the SASS when it fits, else JIT-compiles the PTX.
  k->jitCompiled = fit == ArchFit::Jit;
  if (k->jitCompiled && std::getenv("GEMMC_VERBOSE"))
    std::fprintf(stderr,
                 "gemmc: %s: kernel '%s' is %s SASS; the driver JIT-compiles its compute_%d%d PTX for %s "
                 "(sm_%d%d)\n",
                 source.c_str(), m.kernel.c_str(), m.arch.c_str(), m.ptxMajor, m.ptxMinor, devName, major, minor);
  if ((r = cu->cuModuleLoadData(&k->module, image)) != CUDA_SUCCESS) {
    k->module = nullptr;
    cleanup();
    return cuFail(r, source + (k->jitCompiled ? ": cuModuleLoadData (JIT-compiling the file's PTX for sm_" +
                                                    std::to_string(major) + std::to_string(minor) + ")"
                                              : ": cuModuleLoadData (is the file a cubin for " + m.arch + "?)"));
  }
  if ((r = cu->cuModuleGetFunction(&k->function, k->module, m.kernel.c_str())) != CUDA_SUCCESS) {
    cleanup();
    return cuFail(r, source + ": the cubin has no kernel named '" + m.kernel + "' (manifest field 'kernel')");
  }
  int maxThreads = 0, staticSmem = 0;
  cu->cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->function);
  cu->cuFuncGetAttribute(&staticSmem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->function);
  int threads = m.block[0] * m.block[1] * m.block[2];
  if (threads > maxThreads) {
    cleanup();
    return fail(GEMMC_ERROR_MANIFEST, source + ": manifest block has " + std::to_string(threads) +
                                          " threads but kernel '" + m.kernel + "' allows at most " +
                                          std::to_string(maxThreads));
  }
  if (staticSmem + m.dynamicSmemBytes > optin) {
    cleanup();
    return fail(GEMMC_ERROR_UNSUPPORTED,
                source + ": kernel '" + m.kernel + "' needs " + std::to_string(staticSmem) + " static + " +
                    std::to_string(m.dynamicSmemBytes) + " dynamic bytes of shared memory; the device allows " +
                    std::to_string(optin) + " per block");
  }
  if (m.dynamicSmemBytes > 48 * 1024) {
    r = cu->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, m.dynamicSmemBytes);
    if (r != CUDA_SUCCESS) {
      cleanup();
      return cuFail(r, source + ": setting the dynamic shared memory limit to " +
                           std::to_string(m.dynamicSmemBytes) + " bytes");
    }
  }
  if (m.cluster[0] * m.cluster[1] * m.cluster[2] > 8) {
    r = cu->cuFuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
    if (r != CUDA_SUCCESS) {
      cleanup();
      return cuFail(r, source + ": allowing a non-portable cluster size");
    }
  }
  // A persistent grid must be co-resident. With clusters, the CTAs of a
  // cluster must share a GPC, so fewer than SM-count CTAs may fit: ask the
  // driver how many clusters can run at once.
  int clusterCtas = m.cluster[0] * m.cluster[1] * m.cluster[2];
  if (clusterCtas > 1) {
    CUlaunchConfig cfg = {};
    cfg.gridDimX = static_cast<unsigned>(k->smCount / clusterCtas * clusterCtas);
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = m.block[0];
    cfg.blockDimY = m.block[1];
    cfg.blockDimZ = m.block[2];
    cfg.sharedMemBytes = m.dynamicSmemBytes;
    CUlaunchAttribute attr = {};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    std::array<uint32_t, 3> launched = launchCluster(m);
    attr.value.clusterDim.x = launched[0];
    attr.value.clusterDim.y = launched[1];
    attr.value.clusterDim.z = launched[2];
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    if (cu->cuOccupancyMaxActiveClusters(&clusters, k->function, &cfg) == CUDA_SUCCESS &&
        clusters > 0)
      k->residentCtas = std::min(k->smCount, clusters * clusterCtas);
  }
  // The stream-K workspace: allocated here, where the slot count is known,
  // so that no launch allocates (and graph capture of a launch just works).
  if (m.workspaceBytesPerCta > 0) {
    uint64_t slots = residentSlots(m, k->residentCtas);
    uint64_t bytes = workspaceBytes(m, k->residentCtas);
    std::string what = source + ": kernel '" + m.kernel + "': the " + std::string(schedulerName(m.scheduler)) +
                       " workspace of " + std::to_string(bytes) + " bytes (" + std::to_string(slots) +
                       " CTAs x workspace_bytes_per_cta " + std::to_string(m.workspaceBytesPerCta) + ")";
    if (bytes == 0) {
      cleanup();
      return fail(GEMMC_ERROR_UNSUPPORTED, what + ": the device (" + devName + ", " +
                                               std::to_string(k->residentCtas) +
                                               " resident CTAs) cannot hold one cluster of " +
                                               std::to_string(launchCluster(m)[0]));
    }
    if ((r = cu->cuMemAlloc(&k->workspace, bytes)) != CUDA_SUCCESS) {
      k->workspace = 0;
      cleanup();
      return cuFail(r, what + ": cuMemAlloc failed");
    }
    // Zero it on a private stream and wait: visible to every later launch on
    // any stream, without waiting for the caller's work in the context.
    CUstream zs = nullptr;
    if ((r = cu->cuStreamCreate(&zs, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS) {
      cleanup();
      return cuFail(r, what + ": cuStreamCreate for zeroing it failed");
    }
    r = cu->cuMemsetD8Async(k->workspace, 0, bytes, zs);
    CUresult rs = r == CUDA_SUCCESS ? cu->cuStreamSynchronize(zs) : r;
    cu->cuStreamDestroy(zs);
    if (rs != CUDA_SUCCESS) {
      cleanup();
      return cuFail(rs, what + ": zeroing it failed (" + (r != CUDA_SUCCESS ? "cuMemsetD8Async" : "cuStreamSynchronize") + ")");
    }
    k->workspaceBytes = bytes;
  }
  const char *env = std::getenv("GEMMC_NO_BOUNDS_CHECK");
  k->boundsCheck = !(env && *env && std::strcmp(env, "0") != 0);
  std::string promotionError;
  k->l2Promotion = parseL2Promotion(std::getenv("GEMMC_TMA_L2_PROMOTION"), promotionError);
  if (k->l2Promotion < 0) {
    cleanup();
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "kernel '" + k->manifest.kernel + "': " + promotionError);
  }
  *out = k.release();
  return GEMMC_OK;
}

/// A, B and C must lie inside one device allocation each: a pointer into the
/// wrong allocation or host memory would otherwise fault on the GPU.
gemmc_status checkBounds(const char *name, const void *ptr, uint64_t bytes) {
  CUdeviceptr base = 0;
  size_t size = 0;
  CUresult r = cu->cuMemGetAddressRange(&base, &size, reinterpret_cast<CUdeviceptr>(ptr));
  if (r != CUDA_SUCCESS)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT,
                std::string(name) + " = " + hex(reinterpret_cast<uintptr_t>(ptr)) +
                    " is not in a device allocation of the current CUDA context (cuMemGetAddressRange: " +
                    cuErrorText(r) + ")");
  uint64_t p = reinterpret_cast<uintptr_t>(ptr);
  if (p + bytes > base + size)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT,
                std::string(name) + " needs " + std::to_string(bytes) + " bytes from " + hex(p) +
                    " (sizes and leading dimension), but its allocation (" + std::to_string(size) +
                    " bytes at " + hex(base) + ") ends " + std::to_string(base + size - p) + " bytes after it");
  return GEMMC_OK;
}

gemmc_status checkAll(const gemmc_kernel *k, const gemmc_gemm_args *args) {
  if (!k)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "kernel is null");
  if (!args)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "args is null");
  std::string error;
  gemmc_status st = checkArgs(k->manifest, *args, error);
  if (st != GEMMC_OK)
    return fail(st, "kernel '" + k->manifest.kernel + "': " + error);
  CUcontext cur = nullptr;
  cu->cuCtxGetCurrent(&cur);
  if (cur != k->ctx)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT,
                "kernel '" + k->manifest.kernel + "' was loaded in CUDA context " +
                    hex(reinterpret_cast<uintptr_t>(k->ctx)) + " but the current context is " +
                    hex(reinterpret_cast<uintptr_t>(cur)) + "; make its context current (cuCtxSetCurrent)");
  if (k->boundsCheck) {
    if ((st = checkBounds("A", args->a, storageA(*args).extentBytes())) != GEMMC_OK ||
        (st = checkBounds("B", args->b, storageB(*args).extentBytes())) != GEMMC_OK ||
        (st = checkBounds("C", args->c, storageC(*args).extentBytes())) != GEMMC_OK ||
        (args->bias &&
         (st = checkBounds("bias", args->bias, uint64_t(args->bias_length) * dtypeBytes(args->bias_type))) !=
             GEMMC_OK) ||
        (args->aux && (st = checkBounds("aux", args->aux, storageC(*args).extentBytes())) != GEMMC_OK)) {
      tlsError = "kernel '" + k->manifest.kernel + "': " + tlsError;
      return st;
    }
    for (Operand op : {Operand::A, Operand::B, Operand::C}) {
      gemmc_scale scale = k->manifest.operand(op).scale;
      if (scale != GEMMC_SCALE_NONE &&
          (st = checkBounds(paramName(scaleParam(op)), scalePointer(*args, op), scaleBytes(scale, op, *args))) !=
              GEMMC_OK) {
        tlsError = "kernel '" + k->manifest.kernel + "': " + tlsError;
        return st;
      }
    }
  }
  return GEMMC_OK;
}

/// Finds or encodes the tensor map for `op`; copies it to `out`. Caller holds
/// the kernel's mutex.
gemmc_status tensorMap(gemmc_kernel *k, Operand op, const gemmc_gemm_args &args, CUtensorMap &out) {
  TensorMapParams p = tensorMapParams(k->manifest, op, args);
  int o = static_cast<int>(op);
  for (auto &e : k->cache[o])
    if (e.valid && e.key == p) {
      out = e.map;
      return GEMMC_OK;
    }
  gemmc_kernel::Entry &e = k->cache[o][k->nextSlot[o]];
  k->nextSlot[o] = (k->nextSlot[o] + 1) % gemmc_kernel::kCacheSize;
  cuuint64_t dims[2] = {p.dims[0], p.dims[1]};
  cuuint64_t strides[1] = {p.strideBytes};
  cuuint32_t box[2] = {p.box[0], p.box[1]};
  cuuint32_t elementStrides[2] = {1, 1};
  e.valid = false;
  CUresult r = cu->cuTensorMapEncodeTiled(&e.map, tmapType(p.dtype), 2, reinterpret_cast<void *>(p.base), dims,
                                      strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                      tmapSwizzle(p.swizzle), tmapL2Promotion(k->l2Promotion),
                                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return cuFail(r, "kernel '" + k->manifest.kernel + "': cuTensorMapEncodeTiled for " +
                         (op == Operand::A ? "A" : op == Operand::B ? "B" : "C") + " (dims " + std::to_string(p.dims[0]) + " x " +
                         std::to_string(p.dims[1]) + ", stride " + std::to_string(p.strideBytes) +
                         " bytes, box " + std::to_string(p.box[0]) + " x " + std::to_string(p.box[1]) +
                         ", swizzle " + std::to_string(p.swizzle) + ")");
  e.key = p;
  e.valid = true;
  out = e.map;
  return GEMMC_OK;
}

gemmc_status loadImpl(const void *image, const std::string &manifestText, const std::string &source,
                      gemmc_kernel **out) {
  if (!out)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_kernel_load: out is null");
  *out = nullptr;
  Manifest manifest;
  std::string error;
  if (!parseManifest(manifestText, source, manifest, error))
    return fail(GEMMC_ERROR_MANIFEST, error);
  return loadParsed(image, std::move(manifest), source, out);
}

/// Reads the file at `cubin_path`, a cubin (an ELF image) or the fatbinary
/// `gemmc -o FILE.fatbin` writes (SASS + PTX, magic 0xBA55ED50
/// little-endian), which the driver loads the same way.
gemmc_status readImage(const char *cubin_path, std::string &image) {
  if (!readFile(cubin_path, image))
    return fail(GEMMC_ERROR_IO, std::string("cannot read cubin '") + cubin_path + "': " + std::strerror(errno));
  bool elf = image.size() >= 4 && image.compare(0, 4, "\x7f" "ELF") == 0;
  bool fatbin = image.size() >= 4 && image.compare(0, 4, "\x50\xED\x55\xBA") == 0;
  if (!elf && !fatbin)
    return fail(GEMMC_ERROR_IO, std::string("'") + cubin_path +
                                    "' is neither a cubin (no ELF header) nor a fatbinary");
  return GEMMC_OK;
}

} // namespace

extern "C" {

gemmc_status gemmc_kernel_load(const char *cubin_path, gemmc_kernel **out) {
  if (!cubin_path)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_kernel_load: cubin_path is null");
  return gemmc_kernel_load_file(cubin_path, (std::string(cubin_path) + ".json").c_str(), out);
}

gemmc_status gemmc_kernel_load_file(const char *cubin_path, const char *manifest_path, gemmc_kernel **out) {
  if (!cubin_path || !manifest_path)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_kernel_load_file: a path is null");
  std::string image, manifest;
  if (!readFile(manifest_path, manifest))
    return fail(GEMMC_ERROR_IO, std::string("cannot read manifest '") + manifest_path + "': " +
                                    std::strerror(errno) + " (every cubin needs <cubin>.json beside it)");
  if (gemmc_status st = readImage(cubin_path, image); st != GEMMC_OK)
    return st;
  return loadImpl(image.data(), manifest, manifest_path, out);
}

gemmc_status gemmc_kernel_load_data(const void *cubin, size_t cubin_size, const char *manifest_json,
                                    gemmc_kernel **out) {
  if (!cubin || cubin_size < 4 || !manifest_json)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_kernel_load_data: cubin or manifest missing");
  std::string image(static_cast<const char *>(cubin), cubin_size);
  return loadImpl(image.data(), manifest_json, "<manifest>", out);
}

void gemmc_kernel_unload(gemmc_kernel *kernel) {
  if (!kernel)
    return;
  if (kernel->workspace) {
    // Free it in the context it was allocated in, whatever is current here.
    bool pushed = cu->cuCtxPushCurrent(kernel->ctx) == CUDA_SUCCESS;
    cu->cuMemFree(kernel->workspace);
    if (pushed) {
      CUcontext popped;
      cu->cuCtxPopCurrent(&popped);
    }
  }
  if (kernel->module)
    cu->cuModuleUnload(kernel->module);
  if (kernel->retainedPrimary)
    cu->cuDevicePrimaryCtxRelease(kernel->device);
  delete kernel;
}

gemmc_status gemmc_kernel_get_info(const gemmc_kernel *k, gemmc_kernel_info *info) {
  if (!k || !info)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_kernel_get_info: null argument");
  const Manifest &m = k->manifest;
  std::memset(info, 0, sizeof *info);
  info->name = m.kernel.c_str();
  info->arch = m.arch.c_str();
  info->a_type = m.a.element;
  info->b_type = m.b.element;
  info->c_type = m.c.element;
  info->a_layout = m.a.layout;
  info->b_layout = m.b.layout;
  for (int i = 0; i < 3; ++i) {
    info->tile[i] = m.tile[i];
    info->block[i] = m.block[i];
    info->cluster[i] = m.cluster[i];
    info->problem[i] = m.problem[i];
  }
  info->dynamic_smem_bytes = m.dynamicSmemBytes;
  info->persistent = m.scheduler == Scheduler::Persistent;
  info->scheduler = schedulerName(m.scheduler);
  info->workspace_bytes = k->workspaceBytes;
  info->has_alpha = m.hasParam(Param::Alpha);
  info->has_beta = m.hasParam(Param::Beta);
  info->bias = m.biasType == GEMMC_DTYPE_UNSET ? 0 : m.biasPerRow ? 1 : 2;
  info->bias_type = m.biasType;
  info->activation = m.activation.c_str();
  info->has_aux = m.hasParam(Param::Aux);
  info->pdl_wait = m.pdlWait;
  info->jit_compiled = k->jitCompiled;
  info->a_scale = m.a.scale;
  info->b_scale = m.b.scale;
  info->c_scale = m.c.scale;
  return GEMMC_OK;
}

gemmc_status gemmc_check(const gemmc_kernel *kernel, const gemmc_gemm_args *args) {
  return checkAll(kernel, args);
}

gemmc_status gemmc_launch_grid(const gemmc_kernel *k, int64_t m, int64_t n, uint32_t grid[3]) {
  if (!k || !grid)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_launch_grid: null argument");
  LaunchDims dims;
  std::string error;
  if (!computeLaunch(k->manifest, m, n, k->residentCtas, dims, error))
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, error);
  for (int i = 0; i < 3; ++i)
    grid[i] = dims.grid[i];
  return GEMMC_OK;
}

namespace {
/// One launch's kernel parameters by value, where cuLaunchKernelEx reads
/// them. The tensor maps are filled by the caller, and only for a kernel
/// that takes them (mapC only where the epilogue stores C with TMA); the
/// cp.async kernels (sm_80) take A and B as pointers and their leading
/// dimensions in elements (checkAll bounds them to int32).
struct LaunchParams {
  CUtensorMap mapA, mapB, mapC;
  CUdeviceptr c, a, b, bias, aux, scaleA, scaleB, scaleD, workspace;
  int32_t m, n, k, ldc, lda, ldb;
  float alpha, beta;

  LaunchParams(const gemmc_gemm_args &args, CUdeviceptr workspace)
      : c(ptr(args.c)), a(ptr(args.a)), b(ptr(args.b)), bias(ptr(args.bias)), aux(ptr(args.aux)),
        scaleA(ptr(args.scale_a)), scaleB(ptr(args.scale_b)), scaleD(ptr(args.scale_d)),
        workspace(workspace), m(static_cast<int32_t>(args.m)), n(static_cast<int32_t>(args.n)),
        k(static_cast<int32_t>(args.k)), ldc(static_cast<int32_t>(args.ldc)),
        lda(static_cast<int32_t>(args.lda)), ldb(static_cast<int32_t>(args.ldb)), alpha(args.alpha),
        beta(args.beta) {}

  /// The parameters' addresses in the manifest's order (each Param at most
  /// once, so `out` holds kParamCount).
  void addresses(const Manifest &manifest, void *out[kParamCount]) {
    size_t np = 0;
    for (Param p : manifest.params)
      out[np++] = address(p);
  }

private:
  static CUdeviceptr ptr(const void *p) { return reinterpret_cast<CUdeviceptr>(p); }

  void *address(Param p) {
    switch (p) {
    case Param::TmapA: return &mapA;
    case Param::TmapB: return &mapB;
    case Param::TmapC: return &mapC;
    case Param::C: return &c;
    case Param::M: return &m;
    case Param::N: return &n;
    case Param::K: return &k;
    case Param::Ldc: return &ldc;
    case Param::Alpha: return &alpha;
    case Param::Beta: return &beta;
    case Param::Bias: return &bias;
    case Param::Aux: return &aux;
    case Param::Workspace: return &workspace;
    case Param::A: return &a;
    case Param::B: return &b;
    case Param::Lda: return &lda;
    case Param::Ldb: return &ldb;
    case Param::ScaleA: return &scaleA;
    case Param::ScaleB: return &scaleB;
    case Param::ScaleD: return &scaleD;
    }
    return nullptr;
  }
};

/// cuLaunchKernelEx's configuration for `dims` on `stream`, with the
/// cluster attribute where the cluster has more than one CTA and the
/// programmatic-serialization one (PDL) where asked, in `attrs`.
CUlaunchConfig launchConfig(const LaunchDims &dims, gemmc_stream stream, bool pdl,
                            CUlaunchAttribute (&attrs)[2]) {
  CUlaunchConfig cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.gridDimX = dims.grid[0];
  cfg.gridDimY = dims.grid[1];
  cfg.gridDimZ = dims.grid[2];
  cfg.blockDimX = dims.block[0];
  cfg.blockDimY = dims.block[1];
  cfg.blockDimZ = dims.block[2];
  cfg.sharedMemBytes = dims.dynamicSmemBytes;
  cfg.hStream = reinterpret_cast<CUstream>(stream);
  std::memset(attrs, 0, sizeof attrs);
  if (dims.cluster[0] * dims.cluster[1] * dims.cluster[2] > 1) {
    attrs[cfg.numAttrs].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attrs[cfg.numAttrs].value.clusterDim.x = dims.cluster[0];
    attrs[cfg.numAttrs].value.clusterDim.y = dims.cluster[1];
    attrs[cfg.numAttrs].value.clusterDim.z = dims.cluster[2];
    ++cfg.numAttrs;
  }
  if (pdl) {
    attrs[cfg.numAttrs].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    attrs[cfg.numAttrs].value.programmaticStreamSerializationAllowed = 1;
    ++cfg.numAttrs;
  }
  if (cfg.numAttrs)
    cfg.attrs = attrs;
  return cfg;
}
} // namespace

gemmc_status gemmc_launch(gemmc_kernel *k, const gemmc_gemm_args *args, gemmc_stream stream) {
  gemmc_status st = checkAll(k, args);
  if (st != GEMMC_OK)
    return st;
  const Manifest &m = k->manifest;
  LaunchDims dims;
  std::string error;
  if (!computeLaunch(m, args->m, args->n, k->residentCtas, dims, error))
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "kernel '" + m.kernel + "': " + error);

  LaunchParams p(*args, k->workspace);
  if (m.hasTensorMaps()) {
    std::lock_guard<std::mutex> lock(k->mutex);
    if ((st = tensorMap(k, Operand::A, *args, p.mapA)) != GEMMC_OK ||
        (st = tensorMap(k, Operand::B, *args, p.mapB)) != GEMMC_OK ||
        (m.hasParam(Param::TmapC) && (st = tensorMap(k, Operand::C, *args, p.mapC)) != GEMMC_OK))
      return st;
  }
  bool pdl = args->flags & GEMMC_LAUNCH_PDL;
  if (pdl && k->ccMajor < 9)
    return fail(GEMMC_ERROR_UNSUPPORTED, "kernel '" + m.kernel + "': GEMMC_LAUNCH_PDL needs programmatic "
                                         "stream serialization (sm_90 or later); the device is sm_" +
                                             std::to_string(k->ccMajor) + "x; launch without the flag");
  uint64_t workspaceBytes = uint64_t(dims.grid[0]) * uint64_t(m.workspaceBytesPerCta);
  if (m.hasParam(Param::Workspace) && workspaceBytes > k->workspaceBytes)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT,
                "kernel '" + m.kernel + "': a grid of " + std::to_string(dims.grid[0]) + " CTAs needs " +
                    std::to_string(workspaceBytes) + " bytes of workspace, more than the " +
                    std::to_string(k->workspaceBytes) + " allocated at load");
  void *params[kParamCount];
  p.addresses(m, params);
  CUlaunchAttribute attrs[2];
  CUlaunchConfig cfg = launchConfig(dims, stream, pdl, attrs);
  CUresult r = cu->cuLaunchKernelEx(&cfg, k->function, params, nullptr);
  if (r != CUDA_SUCCESS)
    return cuFail(r, "kernel '" + m.kernel + "': cuLaunchKernelEx (grid " + std::to_string(dims.grid[0]) +
                         ", block " + std::to_string(dims.block[0]) + "x" + std::to_string(dims.block[1]) + "x" +
                         std::to_string(dims.block[2]) + ", cluster " + std::to_string(dims.cluster[0]) +
                         ", " + std::to_string(dims.dynamicSmemBytes) + " bytes of dynamic shared memory)");
  return GEMMC_OK;
}

gemmc_status gemmc_bundle_load(const char *dir, gemmc_bundle **out) {
  if (!dir || !out)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_bundle_load: dir or out is null");
  *out = nullptr;
  std::string root(dir), text;
  std::string tablePath = root + "/dispatch.json";
  if (!readFile(tablePath, text))
    return fail(GEMMC_ERROR_IO, "cannot read '" + tablePath + "': " + std::strerror(errno) +
                                    " (a bundle is a directory written by gemmc bundle)");
  auto bundle = std::make_unique<gemmc_bundle>();
  std::string error;
  if (!parseDispatchTable(text, tablePath, bundle->table, error))
    return fail(GEMMC_ERROR_MANIFEST, error);
  // The manifests first, before any module loads (no driver needed): each
  // names its rule's kernel, and one set of arguments must launch whichever
  // rule a shape picks.
  std::vector<Manifest> manifests(bundle->table.rules.size());
  for (size_t i = 0; i < bundle->table.rules.size(); ++i) {
    const DispatchRule &rule = bundle->table.rules[i];
    std::string path = root + "/" + rule.cubin + ".json", manifestText;
    Manifest &m = manifests[i];
    if (!readFile(path, manifestText))
      return fail(GEMMC_ERROR_IO, "bundle " + bundle->table.name + ": cannot read '" + path + "': " +
                                      std::strerror(errno));
    if (!parseManifest(manifestText, path, m, error))
      return fail(GEMMC_ERROR_MANIFEST, "bundle " + bundle->table.name + ": " + error);
    if (m.kernel != rule.kernel)
      return fail(GEMMC_ERROR_MANIFEST, "bundle " + bundle->table.name + ": " + rule.cubin + " holds kernel " +
                                            m.kernel + ", dispatch.json says " + rule.kernel);
    if (i == 0)
      continue;
    const Manifest &first = manifests.front();
    std::string differs = interfaceDifference(first, m);
    if (!differs.empty())
      return fail(GEMMC_ERROR_MANIFEST, "bundle " + bundle->table.name + ": kernel " + m.kernel +
                                            " takes other arguments than " + first.kernel + " (" + differs +
                                            "); a bundle's kernels share one interface");
  }
  // Then each module, with the manifest the pass above read.
  for (size_t i = 0; i < bundle->table.rules.size(); ++i) {
    const DispatchRule &rule = bundle->table.rules[i];
    std::string cubin = root + "/" + rule.cubin, image;
    gemmc_kernel *k = nullptr;
    gemmc_status st = readImage(cubin.c_str(), image);
    if (st == GEMMC_OK)
      st = loadParsed(image.data(), std::move(manifests[i]), cubin + ".json", &k);
    if (st != GEMMC_OK) {
      for (gemmc_kernel *loaded : bundle->kernels)
        gemmc_kernel_unload(loaded);
      return fail(st, "bundle " + bundle->table.name + ", kernel " + rule.kernel + ": " + tlsError);
    }
    bundle->kernels.push_back(k);
  }
  *out = bundle.release();
  return GEMMC_OK;
}

void gemmc_bundle_unload(gemmc_bundle *bundle) {
  if (!bundle)
    return;
  for (gemmc_kernel *k : bundle->kernels)
    gemmc_kernel_unload(k);
  delete bundle;
}

int32_t gemmc_bundle_kernel_count(const gemmc_bundle *bundle) {
  return bundle ? static_cast<int32_t>(bundle->kernels.size()) : 0;
}

const gemmc_kernel *gemmc_bundle_kernel(const gemmc_bundle *bundle, int32_t index) {
  if (!bundle || index < 0 || index >= static_cast<int32_t>(bundle->kernels.size()))
    return nullptr;
  return bundle->kernels[index];
}

int32_t gemmc_bundle_select(const gemmc_bundle *bundle, int64_t m, int64_t n, int64_t k) {
  if (!bundle)
    return -1;
  int picked = selectRule(bundle->table, m, n, k);
  if (picked < 0)
    fail(GEMMC_ERROR_INVALID_ARGUMENT, explainSelection(bundle->table, m, n, k));
  return picked;
}

size_t gemmc_bundle_explain(const gemmc_bundle *bundle, int64_t m, int64_t n, int64_t k, char *buf,
                            size_t size) {
  std::string text = bundle ? explainSelection(bundle->table, m, n, k) : "gemmc_bundle_explain: bundle is null";
  if (buf && size) {
    size_t len = std::min(size - 1, text.size());
    std::memcpy(buf, text.data(), len);
    buf[len] = '\0';
  }
  return text.size();
}

gemmc_status gemmc_bundle_launch(gemmc_bundle *bundle, const gemmc_gemm_args *args, gemmc_stream stream) {
  if (!bundle || !args)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, "gemmc_bundle_launch: bundle or args is null");
  int picked = selectRule(bundle->table, args->m, args->n, args->k);
  if (picked < 0)
    return fail(GEMMC_ERROR_INVALID_ARGUMENT, explainSelection(bundle->table, args->m, args->n, args->k));
  return gemmc_launch(bundle->kernels[picked], args, stream);
}

const char *gemmc_last_error(void) { return tlsError.c_str(); }

const char *gemmc_status_name(gemmc_status status) {
  switch (status) {
  case GEMMC_OK: return "GEMMC_OK";
  case GEMMC_ERROR_INVALID_ARGUMENT: return "GEMMC_ERROR_INVALID_ARGUMENT";
  case GEMMC_ERROR_MANIFEST: return "GEMMC_ERROR_MANIFEST";
  case GEMMC_ERROR_IO: return "GEMMC_ERROR_IO";
  case GEMMC_ERROR_CUDA: return "GEMMC_ERROR_CUDA";
  case GEMMC_ERROR_NO_DEVICE: return "GEMMC_ERROR_NO_DEVICE";
  case GEMMC_ERROR_UNSUPPORTED: return "GEMMC_ERROR_UNSUPPORTED";
  }
  return "GEMMC_ERROR_UNKNOWN";
}

} // extern "C"
