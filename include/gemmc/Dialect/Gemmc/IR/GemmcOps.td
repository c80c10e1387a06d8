//===- GemmcOps.td - gemmc operations -----------------------*- tablegen -*-===//
#ifndef GEMMC_OPS
#define GEMMC_OPS

include "gemmc/Dialect/Gemmc/IR/GemmcDialect.td"
include "gemmc/Dialect/Gemmc/IR/GemmcAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Gemmc_MatmulOp : Gemmc_Op<"matmul", [AttrSizedOperandSegments]> {
  let summary = "C = alpha * A x B (+ beta * C), computed as its schedule says";
  let description = [{
    One GEMM on memrefs that hold the operands as they lie in memory: A is
    `M x K` when row-major and `K x M` when col-major, B is `N x K` when
    col-major (K contiguous) and `K x N` when row-major, C is `M x N`
    row-major. Dimensions may be dynamic. `alpha` is present exactly when the
    schedule says `alpha = true`, `beta` when it says `beta = true`.

    ```mlir
    gemmc.matmul %a, %b, %c alpha(%alpha) {schedule = #gemmc.schedule<...>}
        : memref<?x8192xbf16>, memref<8192x8192xbf16>, memref<?x8192xbf16>
    ```
  }];
  let arguments = (ins
    Arg<AnyMemRef, "A", [MemRead]>:$a,
    Arg<AnyMemRef, "B", [MemRead]>:$b,
    Arg<AnyMemRef, "C", [MemRead, MemWrite]>:$c,
    Optional<F32>:$alpha,
    Optional<F32>:$beta,
    Gemmc_ScheduleAttr:$schedule
  );
  let assemblyFormat = [{
    $a `,` $b `,` $c (`alpha` `(` $alpha^ `)`)? (`beta` `(` $beta^ `)`)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

#endif // GEMMC_OPS
