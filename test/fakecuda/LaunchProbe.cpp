// gemmc-launch-probe FILE M N K [pdl]: loads FILE (a cubin or fatbinary and
// FILE.json) through the runtime's C API against the fake driver
// (test/fakecuda/FakeCuda.cpp, first on LD_LIBRARY_PATH), launches it once on
// M x N x K with buffers of the fake driver's, and prints what
// cuLaunchKernelEx received: the grid, block, shared memory and launch
// attributes, then each kernel parameter in the manifest's order, named, with
// the buffer it points into or its value (a tensor map: what the fake's
// cuTensorMapEncodeTiled was asked for). The lit tests in test/Runtime check
// those lines, so the launch ABI of docs/abi.md is checked without a GPU.
// gemmc-launch-probe --bundle DIR M N K: the same through gemmc_bundle_load
// and gemmc_bundle_launch, after a line naming the rule dispatch chose.
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
MemAlloc memAlloc = nullptr;
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

/// Opens the fake driver and sets the launch hook; false (with a message)
/// when libcuda.so.1 is another driver.
bool openFakeDriver(void *&driver) {
  driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  SetHook setHook = driver ? reinterpret_cast<SetHook>(dlsym(driver, "fakecuda_set_launch_hook")) : nullptr;
  memAlloc = driver ? reinterpret_cast<MemAlloc>(dlsym(driver, "cuMemAlloc_v2")) : nullptr;
  memRange = driver ? reinterpret_cast<MemRange>(dlsym(driver, "cuMemGetAddressRange_v2")) : nullptr;
  if (!setHook || !memAlloc || !memRange) {
    std::fprintf(stderr, "gemmc-launch-probe: libcuda.so.1 is not test/fakecuda's fake driver "
                         "(put its folder first on LD_LIBRARY_PATH)\n");
    return false;
  }
  setHook(onLaunch);
  return true;
}

void *alloc(const char *name, size_t bytes) {
  CUdeviceptr p = 0;
  memAlloc(&p, bytes);
  buffers.push_back({name, static_cast<uintptr_t>(p), bytes});
  return reinterpret_cast<void *>(p);
}

/// The kernel's arguments on M x N x K: packed operands in its layouts, each
/// buffer its own allocation; alpha 1.5 and beta 0.5 where it takes them; a
/// bias, aux and scales where it takes them, of the sizes docs/abi.md gives.
gemmc_gemm_args argsFor(const gemmc_kernel_info &info, char **mnk) {
  gemmc_gemm_args args;
  gemmc_gemm_args_init(&args);
  args.m = std::atoll(mnk[0]);
  args.n = std::atoll(mnk[1]);
  args.k = std::atoll(mnk[2]);
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
  auto scale = [&](const char *name, int32_t kind, bool ofA) -> const float * {
    int64_t kb = (args.k + 127) / 128;
    int64_t values = kind == GEMMC_SCALE_TENSOR ? 1
                     : kind == GEMMC_SCALE_ROW  ? args.m
                     : kind == GEMMC_SCALE_COL  ? args.n
                     : ofA                      ? args.m * kb
                                                : (args.n + 127) / 128 * ((kb + 3) / 4 * 4);
    return kind ? static_cast<const float *>(alloc(name, values * sizeof(float))) : nullptr;
  };
  args.scale_a = scale("scale_a", info.a_scale, true);
  args.scale_b = scale("scale_b", info.b_scale, false);
  args.scale_d = scale("scale_d", info.c_scale, false);
  return args;
}

bool readManifest(const std::string &path) {
  std::string text, error;
  if (readText(path, text) && parseManifest(text, path, manifest, error))
    return true;
  std::fprintf(stderr, "gemmc-launch-probe: %s: %s\n", path.c_str(), error.c_str());
  return false;
}

/// FILE M N K [pdl]: one kernel through gemmc_kernel_load and gemmc_launch.
int probeKernel(char **argv, int argc) {
  if (!readManifest(std::string(argv[1]) + ".json"))
    return 2;
  gemmc_kernel *kernel = nullptr;
  if (gemmc_kernel_load(argv[1], &kernel) != GEMMC_OK) {
    std::printf("load: %s\n", gemmc_last_error());
    return 1;
  }
  gemmc_kernel_info info;
  gemmc_kernel_get_info(kernel, &info);
  gemmc_gemm_args args = argsFor(info, argv + 2);
  if (argc > 5 && std::string(argv[5]) == "pdl")
    args.flags |= GEMMC_LAUNCH_PDL;
  gemmc_status st = gemmc_launch(kernel, &args, nullptr);
  if (st != GEMMC_OK)
    std::printf("launch: %s: %s\n", gemmc_status_name(st), gemmc_last_error());
  gemmc_kernel_unload(kernel);
  return st == GEMMC_OK ? 0 : 1;
}

/// --bundle DIR M N K: the kernel dispatch picks, through gemmc_bundle_load
/// and gemmc_bundle_launch (its manifest: the DIR/*.json naming it).
int probeBundle(char **argv) {
  gemmc_bundle *bundle = nullptr;
  if (gemmc_bundle_load(argv[2], &bundle) != GEMMC_OK) {
    std::printf("load: %s\n", gemmc_last_error());
    return 1;
  }
  int64_t m = std::atoll(argv[3]), n = std::atoll(argv[4]), k = std::atoll(argv[5]);
  int32_t index = gemmc_bundle_select(bundle, m, n, k);
  if (index < 0) {
    std::printf("select: %s\n", gemmc_last_error());
    gemmc_bundle_unload(bundle);
    return 1;
  }
  gemmc_kernel_info info;
  gemmc_kernel_get_info(gemmc_bundle_kernel(bundle, index), &info);
  std::printf("rule %d: %s\n", index, info.name);
  bool found = false;
  for (const char *suffix : {".cubin.json", ".fatbin.json"}) {
    std::string path = std::string(argv[2]) + "/" + info.name + suffix;
    if (!found && std::ifstream(path).good())
      found = readManifest(path);
  }
  if (!found) {
    std::fprintf(stderr, "gemmc-launch-probe: no manifest named %s in %s\n", info.name, argv[2]);
    return 2;
  }
  gemmc_gemm_args args = argsFor(info, argv + 3);
  gemmc_status st = gemmc_bundle_launch(bundle, &args, nullptr);
  if (st != GEMMC_OK)
    std::printf("launch: %s: %s\n", gemmc_status_name(st), gemmc_last_error());
  gemmc_bundle_unload(bundle);
  return st == GEMMC_OK ? 0 : 1;
}
} // namespace

int main(int argc, char **argv) {
  bool bundle = argc > 1 && std::string(argv[1]) == "--bundle";
  if (argc < (bundle ? 6 : 5)) {
    std::fprintf(stderr, "usage: gemmc-launch-probe FILE M N K [pdl] | --bundle DIR M N K\n");
    return 2;
  }
  void *driver = nullptr;
  if (!openFakeDriver(driver))
    return 2;
  int rc = bundle ? probeBundle(argv) : probeKernel(argv, argc);
  MemFree memFree = reinterpret_cast<MemFree>(dlsym(driver, "cuMemFree_v2"));
  for (const Buffer &b : buffers)
    memFree(static_cast<CUdeviceptr>(b.base));
  return rc;
}
