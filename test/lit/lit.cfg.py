# -*- Python -*-
# lit configuration for ptxas-alt. Substitutions point at the build's tools.
import os
import shutil

import lit.formats

config.name = "ptxas-alt"
config.test_format = lit.formats.ShTest(not config.is_windows if hasattr(config, "is_windows") else True)
config.suffixes = [".ptx", ".test", ".s", ".txt"]
config.excludes = ["README.md", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ptxas_alt_obj_root, "test", "lit")

# --param ptxas_alt_bin_dir=DIR runs the suite on other tools (test/mutation).
bindir = lit_config.params.get("ptxas_alt_bin_dir", config.ptxas_alt_bin_dir)
llvm_tools = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join([bindir, llvm_tools, config.environment.get("PATH", "")])

for tool in ["ptxas-alt", "sass-mc", "sass-dis", "sass-hazards", "sass-run",
             "cubin-info", "sass-reuse"]:
    config.substitutions.append(("%" + tool, os.path.join(bindir, tool)))
config.substitutions.append(("%shared", config.shared_dir))

# Tests that need NVIDIA's tools say `REQUIRES: ptxas` / `REQUIRES: nvdisasm`.
if shutil.which("ptxas"):
    config.available_features.add("ptxas")
if shutil.which("nvlink"):
    config.available_features.add("nvlink")
nvdisasm = os.environ.get("NVDISASM") or os.path.expanduser("~/.cache/ptxas-alt/nvtools/bin/nvdisasm")
if os.path.exists(nvdisasm):
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))
