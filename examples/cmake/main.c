/* Loads the kernel embedded by gemmc_add_kernel(... EMBED) and prints what
 * the runtime knows of it. Exit 0 on a GPU; 77 (skip) where there is no CUDA
 * driver or device, after printing the runtime's message. */
#include <gemmc/runtime.h>
#include <stdio.h>

#include "gemm_kernel.h"

int main(void) {
  gemmc_kernel *kernel;
  gemmc_status st = gemmc_kernel_load_data(gemm_kernel_cubin, gemm_kernel_cubin_size,
                                           gemm_kernel_manifest, &kernel);
  if (st != GEMMC_OK) {
    fprintf(stderr, "gemm_example: %s: %s\n", gemmc_status_name(st), gemmc_last_error());
    return st == GEMMC_ERROR_NO_DEVICE ? 77 : 1;
  }
  gemmc_kernel_info info;
  uint32_t grid[3];
  if (gemmc_kernel_get_info(kernel, &info) != GEMMC_OK ||
      gemmc_launch_grid(kernel, 1000, 1000, grid) != GEMMC_OK) {
    fprintf(stderr, "gemm_example: %s\n", gemmc_last_error());
    gemmc_kernel_unload(kernel);
    return 1;
  }
  printf("loaded %s for %s: tile %dx%dx%d, %d threads, %d bytes of shared memory; "
         "a 1000x1000 C takes %u CTAs\n",
         info.name, info.arch, info.tile[0], info.tile[1], info.tile[2], info.block[0],
         info.dynamic_smem_bytes, grid[0]);
  gemmc_kernel_unload(kernel);
  return 0;
}
