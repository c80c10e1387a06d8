# The gemmc lit suite: spec, dialect, pass and pipeline tests on the CPU.
import os
import shutil

import lit.formats

config.name = "gemmc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".yaml", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt",
                   "Inputs", "unit", "gpu", "fakecuda"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gemmc_obj_root, "test")

# Every FileCheck run scopes variables to their CHECK-LABEL block.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

bin_dir = os.path.join(config.gemmc_obj_root, "bin")
config.environment["PATH"] = os.pathsep.join(
    [bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%gemmc-opt", os.path.join(bin_dir, "gemmc-opt")))
config.substitutions.append(("%gemmc", os.path.join(bin_dir, "gemmc")))
config.substitutions.append(("%srcroot", config.gemmc_src_root))
config.substitutions.append(("%objroot", config.gemmc_obj_root))
config.substitutions.append(("%specs", os.path.join(config.gemmc_src_root, "specs")))
# test/fakecuda's fake libcuda.so.1, for gemmc-launch-probe (test/Runtime).
config.substitutions.append(("%fakecuda", os.path.join(config.gemmc_obj_root, "fakecuda")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Spec", "Inputs")))

ptxas = os.path.join(config.cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
