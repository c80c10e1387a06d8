//===- GemmcDialect.td - The gemmc dialect ------------------*- tablegen -*-===//
#ifndef GEMMC_DIALECT
#define GEMMC_DIALECT

include "mlir/IR/OpBase.td"

def Gemmc_Dialect : Dialect {
  let name = "gemmc";
  let cppNamespace = "::mlir::gemmc";
  let summary = "A GEMM with its tile schedule, before it is lowered";
  let description = [{
    The gemmc dialect holds one matrix multiplication per kernel function
    (`gemmc.matmul`) and the schedule a user wrote for it
    (`#gemmc.schedule`). The gemmc-* passes lower it step by step to the
    nvvm, llvm, scf and arith dialects; every hardware rule of the schedule is checked by the
    attribute's verifier with the same code the spec validator uses.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

class Gemmc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Gemmc_Dialect, mnemonic, traits>;

#endif // GEMMC_DIALECT
