#!/usr/bin/env python3
"""Prints the option string of a cubin's .note.nv.tkinfo (the word after
the "Build ..." string), quoted: usage: tkinfo-options.py FILE.cubin"""
import struct
import sys


def option_string(path):
    d = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    count, strndx = struct.unpack_from("<HH", d, 0x3c)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + 64 * i) for i in range(count)]
    names = secs[strndx][4]
    for s in secs:
        name = d[names + s[0]:d.index(b"\0", names + s[0])]
        if name == b".note.nv.tkinfo":
            words = d[s[4] + 24:s[4] + s[5]].split(b"\0")
            build = next(i for i, w in enumerate(words) if w.startswith(b"Build"))
            return words[build + 1].decode()
    return None


print(repr(option_string(sys.argv[1])))
