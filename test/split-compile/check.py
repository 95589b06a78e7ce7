#!/usr/bin/env python3
"""check.py - --split-compile N gives the same cubin for every N.

For each PTX file: compiles it with --split-compile 1, 2 and 0 (one thread
per CPU) and compares the cubins section by section (name, type, flags,
link/info, alignment and contents) and the ELF and program headers. The
one section allowed to differ is .note.nv.tkinfo: like ptxas 13.0, ptxas-alt
records the option there ("-split-compile 2 "), which also moves the file
offsets of what follows it. The plain compile (no option) must match too;
a file that fails must fail alike (status, diagnostics in order). The
listing options go through the same path: stdout must match as well.

Usage: check.py PTXAS_ALT ARCH FILE... (exit 0 same, 1 differs)
"""
import os
import struct
import subprocess
import sys
import tempfile


def sections(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{path}: not an ELF64 file")
    (e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags,
     e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
     e_shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
    head = (data[:16], e_type, e_machine, e_version, e_entry, e_flags,
            e_phnum, e_shnum, e_shstrndx)
    shdrs = [struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize)
             for i in range(e_shnum)]
    strtab = shdrs[e_shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]

    def name(off):
        return names[off:names.index(b"\0", off)].decode()
    out = []
    for sh in shdrs:
        nm, typ, flags, addr, off, size, link, info, align, entsize = sh
        body = b"" if typ == 8 else data[off:off + size]  # SHT_NOBITS
        out.append((name(nm), typ, flags, addr, size if typ == 8 else None,
                    link, info, align, entsize, body))
    phdrs = [struct.unpack_from("<IIQQQQQQ", data, e_phoff + i * e_phentsize)
             for i in range(e_phnum)]
    # Program header offsets and sizes follow the file layout; keep types,
    # flags and alignment.
    return head, out, [(p[0], p[1], p[7]) for p in phdrs]


def comparable(path):
    head, secs, phdrs = sections(path)
    secs = [s for s in secs if s[0] != ".note.nv.tkinfo"]
    return head, secs, phdrs


def main():
    exe, arch, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    missing = [f for f in files if not os.path.exists(f)]
    if missing or not os.path.exists(exe):
        print(f"SKIPPED: {(missing or [exe])[0]} is missing; the "
              "--split-compile comparison was NOT run")
        return 77
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            extra = ["-c"] if os.path.basename(f).startswith("rdc_") else []
            ref = None
            for n in (None, "1", "2", "0"):
                out = os.path.join(tmp, f"n{n}.cubin")
                if os.path.exists(out):
                    os.unlink(out)
                opt = [] if n is None else ["--split-compile", n]
                r = subprocess.run([exe, f"-arch={arch}"] + extra + opt +
                                   [f, "-o", out], capture_output=True,
                                   text=True)
                # A file we cannot compile must fail alike: same status,
                # same diagnostics in the same order, no output file.
                got = (r.returncode, r.stdout, r.stderr,
                       comparable(out) if r.returncode == 0 else
                       os.path.exists(out))
                if ref is None:
                    ref = got
                    continue
                if got != ref:
                    which = "exit status" if got[0] != ref[0] else \
                        "stdout" if got[1] != ref[1] else \
                        "diagnostics" if got[2] != ref[2] else "headers"
                    if ref[0] == 0 and got[0] == 0:
                        for a, b in zip(ref[3][1], got[3][1]):
                            if a != b:
                                which = f"section {a[0]}"
                                break
                    print(f"DIFF {f} ({arch}): --split-compile {n} differs "
                          f"from the plain compile ({which})")
                    bad += 1
                    break
            else:
                what = (f"{len(ref[3][1])} sections" if ref[0] == 0 else
                        f"fails alike, exit {ref[0]}")
                print(f"ok   {arch} {os.path.basename(f)} ({what})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
