/*
 * gemmc runtime: load a gemmc cubin with its manifest, check a GEMM's
 * arguments against it, and launch it on the caller's stream.
 *
 *   C (M x N, row-major, ldc) = alpha * A (M x K) * B (K x N) [+ beta * C]
 *
 * The kernel ABI (manifest fields, tensor maps, parameter order, grid) is
 * described in docs/runtime.md. The library uses the CUDA driver API only and
 * works in whatever CUDA context is current on the calling thread when a
 * kernel is loaded (the device's primary context if none is current). It
 * opens the driver (libcuda.so.1) at the first load, so linking it needs no
 * CUDA library; where there is no driver, the loads return
 * GEMMC_ERROR_NO_DEVICE.
 *
 * Every function returns a gemmc_status; on failure gemmc_last_error() gives
 * a message for the calling thread that names the argument, the value and
 * the rule. Bad arguments are rejected before anything reaches the GPU.
 */
#ifndef GEMMC_RUNTIME_H
#define GEMMC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUstream and cudaStream_t are both `struct CUstream_st *`; NULL is the
 * legacy default stream. */
struct CUstream_st;
typedef struct CUstream_st *gemmc_stream;

typedef enum gemmc_status {
  GEMMC_OK = 0,
  GEMMC_ERROR_INVALID_ARGUMENT = 1, /* the call's arguments break a rule */
  GEMMC_ERROR_MANIFEST = 2,         /* manifest missing, malformed or inconsistent */
  GEMMC_ERROR_IO = 3,               /* a file could not be read */
  GEMMC_ERROR_CUDA = 4,             /* a CUDA driver call failed */
  GEMMC_ERROR_NO_DEVICE = 5,        /* no CUDA driver or device */
  GEMMC_ERROR_UNSUPPORTED = 6       /* the device cannot run this cubin */
} gemmc_status;

/* Element types. 0 is "unset" so that a zero-initialized struct is rejected
 * rather than silently read as some type. */
typedef enum gemmc_dtype {
  GEMMC_DTYPE_UNSET = 0,
  GEMMC_BF16 = 1,
  GEMMC_F16 = 2,
  GEMMC_F32 = 3,
  GEMMC_TF32 = 4, /* stored as f32 */
  GEMMC_E4M3 = 5,
  GEMMC_E5M2 = 6
} gemmc_dtype;

/* A (M x K): ROW = K contiguous, COL = M contiguous.
 * B (K x N): COL = K contiguous, ROW = N contiguous. C is always ROW. */
typedef enum gemmc_layout {
  GEMMC_LAYOUT_UNSET = 0,
  GEMMC_ROW = 1,
  GEMMC_COL = 2
} gemmc_layout;

/* An operand's dequantization scale (the manifest's operands' "scale"). */
typedef enum gemmc_scale {
  GEMMC_SCALE_NONE = 0,
  GEMMC_SCALE_TENSOR = 1, /* one f32 */
  GEMMC_SCALE_ROW = 2,    /* A: one f32 per row, M of them */
  GEMMC_SCALE_COL = 3,    /* B: one f32 per column, N of them */
  GEMMC_SCALE_BLOCK = 4   /* A: per row per 128 of K; B: per 128x128 block
                           * (cuBLASLt's VEC128_32F / BLK128x128_32F;
                           * docs/abi.md) */
} gemmc_scale;

typedef struct gemmc_kernel gemmc_kernel;

typedef struct gemmc_gemm_args {
  int64_t m, n, k;
  const void *a; int64_t lda; gemmc_dtype a_type; gemmc_layout a_layout;
  const void *b; int64_t ldb; gemmc_dtype b_type; gemmc_layout b_layout;
  void *c;       int64_t ldc; gemmc_dtype c_type;
  float alpha; /* must be 1 unless the kernel takes alpha */
  float beta;  /* must be 0 unless the kernel takes beta */
  /* Fused epilogue (docs/abi.md): the bias vector, bias_length elements of
   * bias_type (M for a per-row bias, N per column), aligned to its element;
   * NULL unless the kernel takes a bias. aux: the pre-activation output, C's
   * shape, type and ldc; NULL unless the kernel stores one. */
  const void *bias; int64_t bias_length; gemmc_dtype bias_type;
  void *aux;
  uint32_t flags; /* GEMMC_LAUNCH_* */
  /* Dequantization scales of an FP8 kernel (docs/abi.md), device pointers to
   * f32, read by the kernel at each launch: C = alpha x scale_a x scale_b x
   * (A x B). One value per tensor; for a per-row A scale M values, for a
   * per-column B scale N values; block scales (scaled inside the sum):
   * A M x ceil(K/128) values, M-major (scale_a[kb * M + row]), B
   * ceil(N/128) x align4(ceil(K/128)), K-major (scale_b[nb * align4(ceil(K /
   * 128)) + kb]). A per-column scale_b must be 8-byte aligned (the kernel
   * reads two columns with one load). Each must be set exactly when the kernel
   * takes it (gemmc_kernel_info's a_scale, b_scale) and NULL otherwise;
   * scale_d, an FP8 output's scale (one value: D = satfinite(scale_d x C)),
   * exactly when c_scale says the kernel takes it. */
  const float *scale_a, *scale_b, *scale_d;
} gemmc_gemm_args;

/* Launch with programmatic stream serialization (PDL): the kernel may start
 * while the previous kernel on the stream is finishing. Only for kernels
 * built with pdl_wait (they wait for it before reading A and C); refused on
 * devices before sm_90 (GEMMC_ERROR_UNSUPPORTED). */
#define GEMMC_LAUNCH_PDL 1u

typedef struct gemmc_kernel_info {
  const char *name;      /* kernel symbol; valid while the kernel is loaded */
  const char *arch;      /* e.g. "sm_90a" */
  gemmc_dtype a_type, b_type, c_type;
  gemmc_layout a_layout, b_layout;
  int32_t tile[3];       /* BLOCK_M, BLOCK_N, BLOCK_K */
  int32_t block[3];
  int32_t cluster[3];
  int32_t dynamic_smem_bytes;
  int64_t problem[3];    /* pinned M, N, K; -1 = run-time */
  int32_t persistent;    /* 1 for the persistent tile scheduler (0 for stream_k) */
  int32_t has_alpha, has_beta;
  const char *scheduler; /* grid.scheduler: "data_parallel", "persistent" or "stream_k" */
  uint64_t workspace_bytes; /* the kernel's workspace, allocated at load (stream_k); 0 = none */
  int32_t bias;          /* 0 none, 1 per row (M long), 2 per column (N long) */
  gemmc_dtype bias_type; /* GEMMC_DTYPE_UNSET without a bias */
  const char *activation; /* "none", "relu", "gelu", "gelu_tanh", "silu", "identity" */
  int32_t has_aux;       /* stores the pre-activation output to args.aux */
  int32_t pdl_wait;      /* may be launched with GEMMC_LAUNCH_PDL */
  int32_t jit_compiled;  /* 1 when the driver JIT-compiled the file's PTX (an sm_80 fatbinary on a
                            newer device; GEMMC_VERBOSE=1 also says so on stderr at load) */
  int32_t a_scale, b_scale; /* GEMMC_SCALE_*: what args.scale_a / scale_b point to */
  int32_t c_scale;          /* GEMMC_SCALE_TENSOR: an FP8 output's scale (args.scale_d) */
} gemmc_kernel_info;

/* Zero everything, alpha = 1, beta = 0. */
void gemmc_gemm_args_init(gemmc_gemm_args *args);

/* Loads `cubin_path` and its manifest `cubin_path`.json. A kernel with a
 * workspace (stream_k: workspace_bytes_per_cta > 0) gets it here: resident
 * CTAs x workspace_bytes_per_cta bytes of device memory, zeroed, freed by
 * gemmc_kernel_unload. */
gemmc_status gemmc_kernel_load(const char *cubin_path, gemmc_kernel **out);
/* Loads with an explicit manifest path. */
gemmc_status gemmc_kernel_load_file(const char *cubin_path, const char *manifest_path,
                                    gemmc_kernel **out);
/* Loads from memory (cubin image and manifest text; both are copied), e.g.
 * a kernel embedded with gemmc --emit=c: (NAME_cubin, NAME_cubin_size,
 * NAME_manifest). */
gemmc_status gemmc_kernel_load_data(const void *cubin, size_t cubin_size,
                                    const char *manifest_json, gemmc_kernel **out);
void gemmc_kernel_unload(gemmc_kernel *kernel);

gemmc_status gemmc_kernel_get_info(const gemmc_kernel *kernel, gemmc_kernel_info *info);

/* Every check gemmc_launch does, without launching. */
gemmc_status gemmc_check(const gemmc_kernel *kernel, const gemmc_gemm_args *args);

/* Checks, then launches on `stream`. Allocates nothing once the tensor maps
 * for these pointers and shapes are cached, so it can be captured in a CUDA
 * graph. Thread-safe; but a kernel with a workspace (stream_k) must not run
 * concurrently with itself (two streams, or two graphs replayed at once):
 * its launches share the workspace. Load it twice for that. */
gemmc_status gemmc_launch(gemmc_kernel *kernel, const gemmc_gemm_args *args,
                          gemmc_stream stream);

/* The grid gemmc_launch would use for an M x N problem. */
gemmc_status gemmc_launch_grid(const gemmc_kernel *kernel, int64_t m, int64_t n,
                               uint32_t grid[3]);

/* Kernel bundles (docs/tuning.md): a directory written by `gemmc bundle`
 * holding dispatch.json and, per kernel, NAME.cubin and NAME.cubin.json.
 * One launch call picks the kernel for (M, N, K) by the table's first
 * matching rule. */
typedef struct gemmc_bundle gemmc_bundle;

/* Reads DIR/dispatch.json and loads every kernel it names. */
gemmc_status gemmc_bundle_load(const char *dir, gemmc_bundle **out);
void gemmc_bundle_unload(gemmc_bundle *bundle);

/* The number of kernels (rules) and the i-th, for gemmc_kernel_get_info. */
int32_t gemmc_bundle_kernel_count(const gemmc_bundle *bundle);
const gemmc_kernel *gemmc_bundle_kernel(const gemmc_bundle *bundle, int32_t index);

/* The rule (index into the kernels) that serves M x N x K; -1 when none
 * does (then gemmc_last_error says why). Allocates nothing. */
int32_t gemmc_bundle_select(const gemmc_bundle *bundle, int64_t m, int64_t n, int64_t k);

/* Why M x N x K goes to the kernel it goes to (or to none): the rule picked
 * and the dimension that ruled out each earlier one. Writes at most `size`
 * bytes with the terminating NUL into `buf` and returns the length the full
 * text needs (as snprintf). */
size_t gemmc_bundle_explain(const gemmc_bundle *bundle, int64_t m, int64_t n, int64_t k, char *buf,
                            size_t size);

/* Selects with gemmc_bundle_select and launches the kernel with
 * gemmc_launch: no allocation and no driver call besides the launch's own
 * once that kernel's tensor maps for these pointers are cached, so it can
 * be captured in a CUDA graph. No matching rule: GEMMC_ERROR_INVALID_ARGUMENT
 * with gemmc_bundle_explain's text. */
gemmc_status gemmc_bundle_launch(gemmc_bundle *bundle, const gemmc_gemm_args *args, gemmc_stream stream);

/* Message for the last failure on this thread ("" if none). */
const char *gemmc_last_error(void);
const char *gemmc_status_name(gemmc_status status);
const char *gemmc_dtype_name(gemmc_dtype dtype);
size_t gemmc_dtype_bytes(gemmc_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* GEMMC_RUNTIME_H */
