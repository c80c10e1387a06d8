// gemmc-launch-probe FILE M N K [pdl]: loads FILE (a cubin or fatbinary and
// FILE.json) through the runtime's C API against the fake driver
// (test/fakecuda/FakeCuda.cpp, first on LD_LIBRARY_PATH), launches it once on
// M x N x K with buffers of the fake driver's, and prints what
// cuLaunchKernelEx received: the grid, block, shared memory and launch
// attributes, then each kernel parameter in the manifest's order, named, with
// the buffer it points into or its value (a tensor map: what the fake's
// cuTensorMapEncodeTiled was asked for). The lit tests in test/Runtime check
// those lines, so the launch ABI of docs/abi.md is checked without a GPU.
#include "gemmc/runtime.h"
#include "gemmc/runtime/Manifest.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace gemmc::rt;

namespace {
typedef CUresult (*LaunchHook)(const CUlaunchConfig *, void **);
typedef void (*SetHook)(LaunchHook);
typedef CUresult (*MemAlloc)(CUdeviceptr *, size_t);
typedef CUresult (*MemRange)(CUdeviceptr *, size_t *, CUdeviceptr);
typedef CUresult (*MemFree)(CUdeviceptr);
MemRange memRange = nullptr;

Manifest manifest;
struct Buffer {
  const char *name;
  uintptr_t base;
  size_t bytes;
};
std::vector<Buffer> buffers;

/// "A+0x40": the buffer `p` points into and the offset; for an allocation of
/// the runtime's (a stream-K workspace) its size; else the raw value.
std::string where(uintptr_t p) {
  if (!p)
    return "null";
  for (const Buffer &b : buffers)
    if (p >= b.base && p < b.base + b.bytes) {
      std::ostringstream os;
      os << b.name;
      if (p != b.base)
        os << "+0x" << std::hex << (p - b.base);
      return os.str();
    }
  CUdeviceptr base = 0;
  size_t size = 0;
  std::ostringstream os;
  if (memRange(&base, &size, p) == CUDA_SUCCESS && base == p)
    os << "an allocation of the runtime's, " << size << " bytes";
  else
    os << "0x" << std::hex << p << " (in no allocation)";
  return os.str();
}

void printTensorMap(const CUtensorMap &map) {
  const uint64_t *w = reinterpret_cast<const uint64_t *>(map.opaque);
  uint64_t rank = w[1];
  std::printf("tensor map of %s, type %llu, dims", where(w[2]).c_str(), (unsigned long long)w[0]);
  for (uint64_t d = 0; d < rank; ++d)
    std::printf(" %llu", (unsigned long long)w[3 + 3 * d]);
  std::printf(", strides");
  for (uint64_t d = 1; d < rank; ++d)
    std::printf(" %llu", (unsigned long long)w[4 + 3 * d]);
  std::printf(", box");
  for (uint64_t d = 0; d < rank; ++d)
    std::printf(" %llu", (unsigned long long)w[5 + 3 * d]);
  const uint64_t *tail = w + 3 + 3 * rank;
  std::printf(", swizzle %llu, l2 promotion %llu, fill %llu\n", (unsigned long long)tail[0],
              (unsigned long long)tail[2], (unsigned long long)tail[3]);
}

CUresult onLaunch(const CUlaunchConfig *c, void **params) {
  std::printf("grid %u %u %u, block %u %u %u, dynamic shared memory %u\n", c->gridDimX, c->gridDimY,
              c->gridDimZ, c->blockDimX, c->blockDimY, c->blockDimZ, c->sharedMemBytes);
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    const CUlaunchAttribute &a = c->attrs[i];
    if (a.id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      std::printf("attribute cluster %u %u %u\n", a.value.clusterDim.x, a.value.clusterDim.y,
                  a.value.clusterDim.z);
    else if (a.id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      std::printf("attribute programmatic stream serialization %d\n",
                  a.value.programmaticStreamSerializationAllowed);
    else
      std::printf("attribute %d\n", int(a.id));
  }
  for (size_t i = 0; i < manifest.params.size(); ++i) {
    Param p = manifest.params[i];
    std::printf("param %zu %s: ", i, paramName(p));
    switch (p) {
    case Param::TmapA:
    case Param::TmapB:
    case Param::TmapC:
      printTensorMap(*static_cast<const CUtensorMap *>(params[i]));
      break;
    case Param::M:
    case Param::N:
    case Param::K:
    case Param::Ldc:
    case Param::Lda:
    case Param::Ldb:
      std::printf("%d\n", *static_cast<const int32_t *>(params[i]));
      break;
    case Param::Alpha:
    case Param::Beta:
      std::printf("%g\n", *static_cast<const float *>(params[i]));
      break;
    default:
      std::printf("%s\n", where(*static_cast<const CUdeviceptr *>(params[i])).c_str());
    }
  }
  return CUDA_SUCCESS;
}

bool readText(const std::string &path, std::string &out) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return static_cast<bool>(in);
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: gemmc-launch-probe FILE M N K [pdl]\n");
    return 2;
  }
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  SetHook setHook = driver ? reinterpret_cast<SetHook>(dlsym(driver, "fakecuda_set_launch_hook")) : nullptr;
  MemAlloc memAlloc = driver ? reinterpret_cast<MemAlloc>(dlsym(driver, "cuMemAlloc_v2")) : nullptr;
  memRange = driver ? reinterpret_cast<MemRange>(dlsym(driver, "cuMemGetAddressRange_v2")) : nullptr;
  if (!setHook || !memAlloc || !memRange) {
    std::fprintf(stderr, "gemmc-launch-probe: libcuda.so.1 is not test/fakecuda's fake driver "
                         "(put its folder first on LD_LIBRARY_PATH)\n");
    return 2;
  }
  setHook(onLaunch);
  std::string text, error;
  if (!readText(std::string(argv[1]) + ".json", text) || !parseManifest(text, argv[1], manifest, error)) {
    std::fprintf(stderr, "gemmc-launch-probe: %s.json: %s\n", argv[1], error.c_str());
    return 2;
  }
  gemmc_kernel *kernel = nullptr;
  if (gemmc_kernel_load(argv[1], &kernel) != GEMMC_OK) {
    std::printf("load: %s\n", gemmc_last_error());
    return 1;
  }
  gemmc_kernel_info info;
  gemmc_kernel_get_info(kernel, &info);
  gemmc_gemm_args args;
  gemmc_gemm_args_init(&args);
  args.m = std::atoll(argv[2]);
  args.n = std::atoll(argv[3]);
  args.k = std::atoll(argv[4]);
  if (argc > 5 && std::string(argv[5]) == "pdl")
    args.flags |= GEMMC_LAUNCH_PDL;
  // Packed operands in the kernel's layouts; each buffer its own allocation.
  auto alloc = [&](const char *name, size_t bytes) {
    CUdeviceptr p = 0;
    memAlloc(&p, bytes);
    buffers.push_back({name, static_cast<uintptr_t>(p), bytes});
    return reinterpret_cast<void *>(p);
  };
  args.a_type = info.a_type, args.b_type = info.b_type, args.c_type = info.c_type;
  args.a_layout = info.a_layout, args.b_layout = info.b_layout;
  args.lda = info.a_layout == GEMMC_ROW ? args.k : args.m;
  args.ldb = info.b_layout == GEMMC_ROW ? args.n : args.k;
  args.ldc = args.n;
  args.a = alloc("A", args.m * args.k * gemmc_dtype_bytes(info.a_type));
  args.b = alloc("B", args.k * args.n * gemmc_dtype_bytes(info.b_type));
  args.c = alloc("C", args.m * args.n * gemmc_dtype_bytes(info.c_type));
  if (info.has_beta)
    args.beta = 0.5f;
  if (info.has_alpha)
    args.alpha = 1.5f;
  if (info.bias) {
    args.bias_type = info.bias_type;
    args.bias_length = info.bias == 1 ? args.m : args.n;
    args.bias = alloc("bias", args.bias_length * gemmc_dtype_bytes(info.bias_type));
  }
  if (info.has_aux)
    args.aux = alloc("aux", args.m * args.n * gemmc_dtype_bytes(info.c_type));
  auto scale = [&](const char *name, int32_t kind, int64_t rows, int64_t cols) -> const float * {
    int64_t kb = (args.k + 127) / 128;
    int64_t values = kind == GEMMC_SCALE_TENSOR ? 1
                     : kind == GEMMC_SCALE_ROW ? rows
                     : kind == GEMMC_SCALE_COL ? cols
                     : rows == args.m ? args.m * kb
                                      : (args.n + 127) / 128 * ((kb + 3) / 4 * 4);
    return kind ? static_cast<const float *>(alloc(name, values * sizeof(float))) : nullptr;
  };
  args.scale_a = scale("scale_a", info.a_scale, args.m, 0);
  args.scale_b = scale("scale_b", info.b_scale, 0, args.n);
  args.scale_d = scale("scale_d", info.c_scale, 1, 1);
  gemmc_status st = gemmc_launch(kernel, &args, nullptr);
  if (st != GEMMC_OK)
    std::printf("launch: %s: %s\n", gemmc_status_name(st), gemmc_last_error());
  gemmc_kernel_unload(kernel);
  MemFree memFree = reinterpret_cast<MemFree>(dlsym(driver, "cuMemFree_v2"));
  for (const Buffer &b : buffers)
    memFree(static_cast<CUdeviceptr>(b.base));
  return st == GEMMC_OK ? 0 : 1;
}
