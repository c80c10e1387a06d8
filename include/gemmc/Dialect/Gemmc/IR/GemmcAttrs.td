//===- GemmcAttrs.td - gemmc attributes ---------------------*- tablegen -*-===//
#ifndef GEMMC_ATTRS
#define GEMMC_ATTRS

include "gemmc/Dialect/Gemmc/IR/GemmcDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Gemmc_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Gemmc_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// The resolved schedule (gemmc::Schedule): its spec, checked once, with the
/// CTA's resources and the kernel ABI computed once when the attribute is
/// made. Its syntax comes from Schema.def (GemmcDialect.cpp).
def Gemmc_ScheduleParameter : AttrParameter<"::gemmc::Schedule",
                                            "a resolved schedule"> {
  let cppAccessorType = "const ::gemmc::Schedule &";
}

def Gemmc_ScheduleAttr : Gemmc_Attr<"Schedule", "schedule"> {
  let summary = "The tile schedule of one GEMM, with every `auto` resolved";
  let description = [{
    Everything a spec.yaml says about how to compute the GEMM, except the
    problem sizes (those are the operands' shapes). Values are spelled as in
    the spec language (docs/spec.md); the keys, their order and the values'
    spellings come from include/gemmc/Spec/Schema.def (its GEMMC_ATTR rows).
    The verifier runs every hardware rule of gemmc's rule library, so IR
    written by hand is held to the same rules as a spec. The attribute holds
    a gemmc::Schedule: the passes read the spec, the CTA's resources and the
    kernel ABI from it (getSpec, getResources, getAbi), computed once.

    ```mlir
    #gemmc.schedule<arch = "sm_90a", device = "h200", a = "bf16", a_layout = "row",
      b = "bf16", b_layout = "col", c = "bf16", accumulator = "f32",
      tile_shape = [128, 256, 64], cluster_shape = [1, 1], stages = 4,
      threads = 384, load = "tma", multicast = false, smem_swizzle = "128b",
      kernel_schedule = "warp_specialized_cooperative",
      tile_scheduler = "persistent", raster = "along_m", group = 8,
      split_k = 1, store = "direct", alpha = true, beta = false,
      bias = "none", activation = "none">
    ```
  }];
  let parameters = (ins Gemmc_ScheduleParameter:$resolved);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The resolved spec (name "kernel", problem sizes dynamic).
    const ::gemmc::KernelSpec &getSpec() const { return getResolved().spec(); }
    /// The CTA's figures and the kernel interface (the ABI's kernel name is
    /// "kernel"); the attribute is verified, so both are there.
    const ::gemmc::CtaResources &getResources() const {
      return getResolved().resources();
    }
    const ::gemmc::KernelAbi &getAbi() const { return getResolved().abi(); }
  }];
}

def Gemmc_SmemLayoutAttr : Gemmc_Attr<"SmemLayout", "smem_layout"> {
  let summary = "Where a CTA's shared-memory buffers lie";
  let description = [{
    Byte offsets from the CTA's aligned shared-memory base: `stages` stages
    of `stage_bytes` each (A at offset 0 of the stage, B at `b_offset`),
    then `stages` full barriers and `stages` empty barriers of 8 bytes from
    `barriers`. `align` is the base's alignment (a swizzle atom) and
    `swizzle` the pattern every tile is stored in. With a TMA-store
    epilogue, its chunk buffers start at `epilogue` (after the stages,
    before the barriers; absent, 0, when C is stored from registers).
    Written by `gemmc-smem-layout` (from the same computeResources() figures
    the smem-budget rule, the model and the manifest use), read by
    `gemmc-warp-specialize` and `convert-gemmc-to-nvvm`. The verifier holds
    every number to a CTA's shared memory (stages 1..32, offsets ordered and
    inside 256 KiB, a power-of-two alignment, a swizzle of 0, 32, 64 or 128
    bytes); `gemmc.tile_matmul` further requires the layout its schedule
    gives.

    ```mlir
    #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384,
                       barriers = 196608, align = 1024, swizzle = 128>
    #gemmc.smem_layout<stages = 4, stage_bytes = 49152, b_offset = 16384,
                       barriers = 229376, align = 1024, swizzle = 128,
                       epilogue = 196608>
    ```
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$stage_bytes,
                        "int64_t":$b_offset, "int64_t":$barriers,
                        "int64_t":$align, "int64_t":$swizzle,
                        DefaultValuedParameter<"int64_t", "0">:$epilogue);
  let assemblyFormat = "`<` struct(params) `>`";
  // Every offset lies inside one CTA's shared memory and the pieces do not
  // overlap; an op that carries the layout with its schedule must carry the
  // one gemmc-smem-layout derives (smemLayoutFor), so hand-written IR cannot
  // contradict the schedule.
  let genVerifyDecl = 1;
}

#endif // GEMMC_ATTRS
