/* Writes the cubin and the manifest that gemmc --emit=c embedded under the
 * symbol prefix `gemm` to argv[1] and argv[2], for comparison with what
 * gemmc -o FILE.cubin writes. */
#include <stdio.h>
#include <string.h>

#include "embedded.h"

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  FILE *cubin = fopen(argv[1], "wb"), *manifest = fopen(argv[2], "wb");
  if (!cubin || !manifest)
    return 1;
  fwrite(gemm_cubin, 1, gemm_cubin_size, cubin);
  fwrite(gemm_manifest, 1, strlen(gemm_manifest), manifest);
  return fclose(cubin) || fclose(manifest);
}
