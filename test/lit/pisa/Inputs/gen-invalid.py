#!/usr/bin/env python3
"""Writes test/lit/pisa/invalid/*.pisa: one lit test per error rule, each
checking the diagnostic's exact line:column and that no cubin is written.
Edit the table and rerun (python3 gen-invalid.py) to add a rule."""
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "invalid")
# (file, description, lines, (line index, marker substring), message regex)
cases = [
 ("private-at-module-scope", "'.private' only inside kernels and functions (2.4)",
  [".private @P[1];"], (0, ".private"), "'.private' variables must be declared inside a kernel or function"),
 ("shared-at-module-scope", "'.shared' only inside kernels and functions (2.4)",
  [".shared .align 4 @S[16];"], (0, ".shared"), "'.shared' variables must be declared inside a kernel or function"),
 ("global-in-kernel", "'.global' only at module scope (2.4)",
  [".kernel @k() {", "   .global @G[8];", "}"], (1, ".global"), "'.global' variables must be declared at module scope"),
 ("global-in-function", "'.global' only at module scope (2.4)",
  [".function void @f() {", "   .global @G[8] = { .zero 8 };", "}"], (1, ".global"), "'.global' variables must be declared at module scope"),
 ("const-without-initializer", "initializer is mandatory for .const (2.5.1)",
  [".const .align 4 @C[4];"], (0, "@C"), "a '.const' variable must have an initializer"),
 ("const-in-kernel-without-initializer", "initializer is mandatory for .const, inside a kernel too (2.5.1)",
  [".kernel @k() {", "   .const @C[4];", "}"], (1, "@C"), "a '.const' variable must have an initializer"),
 ("import-with-initializer", "imported variables do not support initializers (2.5.2)",
  [".import .global .align 4 @A[4] = { .zero 4 };"], (0, "="), "an imported variable cannot have an initializer"),
 ("declared-twice-export-import", "a variable must not be declared more than once, regardless of linkage (2.5.2)",
  [".export .global .align 4 @A[4] = { .zero 4 };", ".import .global .align 4 @A[4];"], (1, "@A"), "'@A' is already declared in this module"),
 ("declared-twice-internal", "declared twice with the same linkage (2.5.2)",
  [".global @A[4];", ".const @A[4] = { .zero 4 };"], (1, "@A"), "'@A' is already declared in this module"),
 ("declared-twice-variable-function", "variables and functions share the module's names (2.5.2)",
  [".global @f[4];", ".function void @f() {", "}"], (1, "@f"), "'@f' is already declared in this module"),
 ("declared-twice-local-and-global", "a kernel's memory variable cannot reuse a module-scope name, declared later or earlier (2.5.2)",
  [".kernel @k() {", "   .shared @S[4];", "}", ".global @S[4];"], (1, "@S"), "'@S' is already declared in this module"),
 ("initializer-too-short", "number of bytes in initializer must match the declaration (2.5.1)",
  [".global .align 4 @G[8] = { .32b 1 };"], (0, "{"), r"number of bytes in initializer (4) does not match the size of '@G' (8)"),
 ("initializer-too-long", "number of bytes in initializer must match the declaration (2.5.1)",
  [".global @G[2] = { .16b 1, .zero 1 };"], (0, "{ .16b"), r"number of bytes in initializer (3) does not match the size of '@G' (2)"),
 ("align-not-power-of-two", "alignment must be a power of two (2.4.1)",
  [".kernel @k() {", "   .private .align 3 @A[16];", "}"], (1, "3 @"), r"alignment value must be a power of two (got 3)"),
 ("align-zero", "alignment must be a power of two (2.4.1)",
  [".global .align 0 @A[4];"], (0, "0 @"), r"alignment value must be a power of two (got 0)"),
 ("initializer-element-size", "immediate size must be .8b, .16b, .32b or .64b (2.5.1)",
  [".global @G[16] = { .128b 0 };"], (0, ".128b"), "size of an immediate must be one of .8b, .16b, .32b or .64b"),
 ("initializer-nested", "nested initializer values are not permitted (2.5.1)",
  [".global @G[4] = { { .32b 0 } };"], (0, "{ .32b"), "nested initializer values are not permitted"),
 ("initializer-float", "a floating-point immediate must be converted to hexadecimal (2.5.1)",
  [".global @G[4] = { .32b 1.0 };"], (0, "1.0"), "a floating-point immediate must be converted to hexadecimal"),
 ("initializer-unknown-symbol", "symbol initializers name module-scope symbols (2.5.1.2)",
  [".const .align 8 @P = { .64b @nothing };"], (0, ".64b"), "'@nothing' is not a function or global variable of this module"),
 ("initializer-symbol-not-64", "a symbol initializer is a 64-bit address (2.5.1.2)",
  [".global @D[4];", ".const @P[4] = { .32b @D };"], (1, "@D"), "a symbol initializer is a 64-bit address"),
 ("initializer-value-too-wide", "initializer literals are 64-bit values (2.5.1)",
  [".global @G[8] = { .64b 0x1FFFFFFFFFFFFFFFF };"], (0, "0x1"), "immediate value '0x1FFFFFFFFFFFFFFFF' does not fit in 64 bits"),
 ("missing-size", "a memory variable's size is given in [] (2.4)",
  [".global @G;"], (0, "@G"), "missing size"),
 ("register-range-empty", "a half-open range <Start~End> needs End > Start (2.2)",
  [".kernel @k() {", "   .reg .16b %h<5~5>;", "}"], (1, "<"), "empty register range"),
 ("register-at-module-scope", "registers are declared inside a function or a kernel (2.2)",
  [".reg .32b %r0;"], (0, ".reg"), "'.reg' variables can be declared only inside a kernel or function"),
 ("register-name-without-percent", "register names start with % (2.2)",
  [".kernel @k() {", "   .reg .32b @r0;", "}"], (1, "@r0"), "the name of a register must start with '%'"),
 ("memory-name-without-at", "memory variable names start with @ (2.4)",
  [".global %G[4];"], (0, "%G"), "the name of a memory variable must start with '@'"),
 ("predicate-with-bitwidth", "predicates have no bit width (2.3)",
  [".kernel @k() {", "   .pred .32b %p0;", "}"], (1, ".32b"), "a predicate declaration has no bit width"),
 ("register-declared-twice", "a register name is declared once (2.2)",
  [".kernel @k() {", "   .reg .32b %h2;", "   .reg .16b %h<0~5>;", "}"], (2, "%h"), "register '%h2' is already declared"),
 ("export-on-local", "linkage applies to global variables (2.5.2)",
  [".kernel @k() {", "   .export .shared @S[4];", "}"], (1, ".export"), "'.export' and '.import' apply only to global variables"),
 ("host-access-on-local", "attributes apply to global variables (2.5.3)",
  [".function void @f() {", "   .private .host_access(\"x\") @P[4];", "}"], (1, ".host_access"), "'.section' and '.host_access' apply only to global variables"),
 ("initializer-on-shared", "only global variables have initializers (2.5.1)",
  [".kernel @k() {", "   .shared @S[4] = { .zero 4 };", "}"], (1, "="), "only global variables"),
 ("host-access-name-twice", "two variables cannot be found under one host name (2.5.3)",
  [".global .host_access(\"g\") @A[4];", ".global .host_access(\"g\") @B[4];"], (1, "@B"), "host access name 'g' is used twice"),
 ("immediate-out-of-range", "instruction immediates must fit the operand size (Operands 3.2)",
  [".kernel @k() {", "   .reg .16b %d, %s;", "   iadd.16b %d, %s, 0x10000;", "}"], (2, "0x10000"), "immediate value 65536 does not fit in 16 bits"),
]
for name, desc, lines, (li, marker), msg in cases:
    header = ["// RUN: rm -f %t.cubin",
              "// RUN: not %ptxas-alt -arch=sm_80 %s -o %t.cubin 2>&1 | FileCheck %s",
              "// RUN: not test -e %t.cubin",
              "// Rule: " + desc, ""]
    body = []
    for i, l in enumerate(lines):
        if i == li:
            col = l.index(marker) + 1
            body.append("// CHECK: :[[@LINE+1]]:%d: error: %s" % (col, msg))
        body.append(l)
    open(os.path.join(OUT, name + ".pisa"), "w").write("\n".join(header + body) + "\n")
print(len(cases))
