#!/usr/bin/env python3
"""debug_info_parity.py - `ptxas-alt -g` writes ptxas 13.0's debug layout.

For each PTX file and target, compiles with `ptxas -g` and `ptxas-alt -g`
and compares what does not depend on code generation
(docs/cubin-format-debug.md):

* e_flags;
* the debug sections in order (.debug_*, .nv_debug_*, their relocation
  sections) with type, flags, alignment and entry size, and whether
  .nv.shared.reserved.0 exists; for modules without .func (ptxas keeps a
  .func as a function of its own under -g, we select it into its
  callers) the whole section-name list;
* the bytes of every DWARF section the PTX carries (.debug_abbrev,
  .debug_macinfo, ...) and of .debug_info outside the fields ptxas
  relocates or rewrites (code addresses, DW_OP_fbreg of frame variables),
  which must be relocated (R_CUDA_64, RELA) or rewritten at the same
  offsets;
* the -g CIE, and one CIE per FDE;
* the register map sections start with the same function names;
* readelf --debug-dump, nvdisasm -g and cuobjdump -elf accept our cubin.

Prints `N passed, M failed`; exit 1 on any failure, 77 (skipped, loudly)
without ptxas. Python 3 standard library only.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "lit", "object", "Inputs")


def elf(path):
    b = open(path, "rb").read()
    flags, = struct.unpack_from("<I", b, 0x30)
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
    hs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize)
          for i in range(shnum)]
    stro = hs[shstrndx][4]

    def name(o):
        return b[stro + o:b.index(b"\0", stro + o)].decode()
    secs = []
    for h in hs:
        data = b[h[4]:h[4] + h[5]] if h[1] != 8 else b""
        secs.append({"name": name(h[0]), "type": h[1], "flags": h[2],
                     "link": h[6], "info": h[7], "align": h[8],
                     "entsize": h[9], "data": data})
    return flags, secs


def by_name(secs):
    return {s["name"]: s for s in secs}


def relocs(secs, target):
    """(offset, type) of the RELA/REL entries against section `target`."""
    out = []
    for s in secs:
        if s["type"] in (4, 9) and secs[s["info"]]["name"] == target:
            size = 24 if s["type"] == 4 else 16
            for o in range(0, len(s["data"]), size):
                off, info = struct.unpack_from("<QQ", s["data"], o)
                out.append((off, info & 0xffffffff, s["type"]))
    return sorted(out)


def frame_entries(data):
    out, i = [], 0
    while i + 12 <= len(data):
        ln, = struct.unpack_from("<Q", data, i + 4)
        cid, = struct.unpack_from("<Q", data, i + 12)
        out.append(("CIE" if cid == 0xffffffffffffffff else "FDE",
                    data[i + 12:i + 12 + ln]))
        i += 12 + ln
    return out


def is_debug(name):
    base = name.split(".rela", 1)[-1].split(".rel", 1)[-1] if name.startswith(".rel") else name
    return base.startswith(".debug") or base.startswith(".nv_debug")


def reg_names(data):
    """The function names of a register map section."""
    names, i = [], 0
    while i < len(data):
        j = data.index(b"\0", i)
        names.append(data[i:j].decode())
        count, = struct.unpack_from("<I", data, j + 1)
        if count:  # ptxas's entries: stop at the first function with some
            break
        i = j + 5
    return names


def compare(ref, ours, has_func):
    errs = []
    rf, rs = elf(ref)
    of, os_ = elf(ours)
    if rf != of:
        errs.append("e_flags %#x, ptxas %#x" % (of, rf))
    key = lambda s: (s["name"], s["type"], s["flags"], s["align"], s["entsize"])
    rd = [key(s) for s in rs if is_debug(s["name"])]
    od = [key(s) for s in os_ if is_debug(s["name"])]
    if rd != od:
        errs.append("debug sections %s, ptxas %s" % (od, rd))
    # ptxas leaves an empty .rela.text.<k> on sm_90 -g for a kernel using
    # shared memory (its reserved-shared relocation resolved); not kept.
    kept = [s["name"] for s in rs if not (s["type"] in (4, 9) and not s["data"])]
    if not has_func and kept != [s["name"] for s in os_]:
        errs.append("sections %s, ptxas %s" % ([s["name"] for s in os_], kept))
    rn, on = by_name(rs), by_name(os_)
    if (".nv.shared.reserved.0" in rn) != (".nv.shared.reserved.0" in on):
        errs.append(".nv.shared.reserved.0 presence differs")
    for name in rn:
        if not name.startswith(".debug_") or name in (".debug_line", ".debug_frame"):
            continue
        if name not in on:
            errs.append("missing " + name)
            continue
        a, b = bytearray(rn[name]["data"]), bytearray(on[name]["data"])
        if len(a) != len(b):
            errs.append("%s: %d bytes, ptxas %d" % (name, len(b), len(a)))
            continue
        ra, ro = relocs(rs, name), relocs(os_, name)
        if [(o, t, k) for o, t, k in ra] != [(o, t, k) for o, t, k in ro]:
            errs.append("%s relocations at %s, ptxas %s" % (name, ro, ra))
        for off, _, _ in ra:
            a[off:off + 8] = b[off:off + 8] = b"\0" * 8
        # DW_OP_fbreg rewrites: 0x91, a SLEB, DW_OP_nops to 9 bytes.
        for i in range(len(a) - 8):
            if a[i] == 0x91 and b[i] == 0x91 and a[i + 8] == 0x96 and b[i + 8] == 0x96:
                a[i:i + 9] = b[i:i + 9] = b"\0" * 9
        if a != b:
            d = next(i for i in range(len(a)) if a[i] != b[i])
            errs.append("%s differs at %#x" % (name, d))
    rfe = frame_entries(rn[".debug_frame"]["data"])
    ofe = frame_entries(on[".debug_frame"]["data"])
    rc = [e for k, e in rfe if k == "CIE"]
    oc = [e for k, e in ofe if k == "CIE"]
    # ptxas's CIE for a .func it keeps (return address in R20, callee-saved
    # registers) has no counterpart here: ours are all kernel CIEs.
    if not oc or any(c not in rc for c in oc):
        errs.append("-g CIE differs")
    if len(oc) != len([k for k, _ in ofe if k == "FDE"]):
        errs.append("not one CIE per FDE")
    for name in (".nv_debug_info_reg_sass", ".nv_debug_info_reg_type"):
        if name in rn and name in on:
            r, o = reg_names(rn[name]["data"]), reg_names(on[name]["data"])
            if o[:len(r)] != r[:len(o)]:
                errs.append("%s functions %s, ptxas %s" % (name, o, r))
    return errs


def tools_accept(cubin, ref, nvtools):
    """The tools read `cubin` without complaints they do not also make
    about ptxas's `ref` (readelf warns on NVIDIA's inlining line ops)."""
    errs = []
    cmds = [["readelf", "--debug-dump=info,abbrev,line"]]
    nvd = os.path.join(nvtools, "nvdisasm")
    cuo = os.path.join(nvtools, "cuobjdump")
    if os.path.exists(nvd):
        cmds.append([nvd, "-g"])
    if os.path.exists(cuo):
        cmds.append([cuo, "-elf"])

    def run(c, f):
        p = subprocess.run(c + [f], capture_output=True, text=True)
        # readelf does not know the CUDA section-info encoding.
        return p.returncode, set(l for l in p.stderr.splitlines()
                                 if "Unexpected value" not in l and l.strip())
    for c in cmds:
        if not shutil.which(c[0]) and not os.path.exists(c[0]):
            continue
        rc, msgs = run(c, cubin)
        _, ref_msgs = run(c, ref)
        extra = sorted(msgs - ref_msgs)
        if rc or extra:
            errs.append("%s: rc %d %s" % (os.path.basename(c[0]), rc,
                                          " | ".join(extra)[:200]))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxas-alt", required=True)
    ap.add_argument("--shared", default=os.path.join(HERE, "..", "..", "..", "shared"))
    ap.add_argument("--nvtools", default=os.path.expanduser("~/.cache/ptxas-alt/nvtools/bin"))
    a = ap.parse_args()
    if not shutil.which("ptxas"):
        print("SKIPPED: debug_info_parity: ptxas not found")
        return 77
    rc_dir = os.path.join(a.shared, "realclients", "ptx")
    cases = [(os.path.join(INPUTS, "debug-nvcc.ptx"), ["sm_75", "sm_80", "sm_90a"]),
             (os.path.join(INPUTS, "debug-clang.ptx"), ["sm_75", "sm_90a"]),
             (os.path.join(INPUTS, "kernels.ptx"), ["sm_90"]),
             (os.path.join(INPUTS, "debug-shared.ptx"), ["sm_80", "sm_90a"]),
             (os.path.join(INPUTS, "lineinfo-inline.ptx"), ["sm_90"]),
             (os.path.join(HERE, "..", "lit", "driver", "Inputs", "dropin",
                           "dwarf-labels.ptx"), ["sm_86", "sm_90a"])]
    for f, archs in [("tritonparse__add_kernel.sm_90a.8720aad1.ptx", ["sm_90a"]),
                     ("tritonparse__add_kernel.sm_75.d4793df9.ptx", ["sm_75", "sm_80", "sm_90a"]),
                     ("tritonparse__matmul_kernel.sm_75.83ced232.ptx", ["sm_75"]),
                     ("byteir__out.sm_80.ptx", ["sm_80"]),
                     ("xla-vllm__module_0012.SyncTensorsGraph.147.ptx", ["sm_80"])]:
        p = os.path.join(rc_dir, f)
        if os.path.exists(p):
            cases.append((p, archs))
        else:
            print("note: %s not found, not compared" % p)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path, archs in cases:
            text = open(path).read()
            # ptxas -g keeps .funcs (and its own __cuda_sm70_shflsync_*
            # for shfl.sync) as functions of their own; we select them into
            # their callers, so only the debug sections are compared.
            has_func = ".func" in text or "shfl.sync" in text
            for arch in archs:
                ref = os.path.join(tmp, "ref.cubin")
                ours = os.path.join(tmp, "ours.cubin")
                r = subprocess.run(["ptxas", "-arch=" + arch, "-g", path, "-o", ref],
                                   capture_output=True, text=True)
                if r.returncode:
                    print("note: ptxas refuses %s %s" % (os.path.basename(path), arch))
                    continue
                o = subprocess.run([a.ptxas_alt, "-arch=" + arch, "-g", path, "-o", ours],
                                   capture_output=True, text=True)
                errs = ["ptxas-alt failed: " + o.stderr[:300]] if o.returncode else []
                if not errs:
                    errs = compare(ref, ours, has_func) + tools_accept(ours, ref, a.nvtools)
                tag = "%s %s" % (os.path.basename(path), arch)
                if errs:
                    failed += 1
                    print("FAIL %s:\n  %s" % (tag, "\n  ".join(errs)))
                else:
                    passed += 1
                    print("ok   %s" % tag)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
