#!/usr/bin/env python3
"""Hostile PTX inputs: valid-looking modules that are huge or deep.

  bench/hostile/gen-hostile.py CASE N > out.ptx     one case of size N
  bench/hostile/gen-hostile.py --list                the cases

Each case scales with N (registers, instructions, kernels, nesting depth,
elements, blocks, characters). bench/hostile/run-hostile.py runs them
through ptxas-alt and ptxas and measures time and peak RSS; the table is in
docs/fuzzing.md ("Hostile input"). The small sizes are lit tests
(test/lit/hostile).
"""
import sys

HEAD = '.version 8.5\n.target sm_80\n.address_size 64\n\n'


def regrange(n):
    # One parameterized declaration of n registers, two of them used.
    return HEAD + f'''.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<{n}>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  add.s32 %r{n - 1}, %r1, 1;
  st.global.u32 [%rd1], %r{n - 1};
  ret;
}}
'''


def instrs(n):
    # n dependent integer adds in one block (straight-line code).
    body = '  add.s32 %r1, %r1, 3;\n' * n
    return HEAD + f'''.visible .entry k(.param .u64 p)
{{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
{body}  st.global.u32 [%rd1], %r1;
  ret;
}}
'''


def kernels(n):
    out = [HEAD]
    for i in range(n):
        out.append(f'.visible .entry k{i}(.param .u64 p)\n{{\n'
                   f'  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [p];\n'
                   f'  st.global.u32 [%rd1], {i};\n  ret;\n}}\n')
    return ''.join(out)


def initnest(n):
    # An initializer nested n braces deep (ptxas wants the braces to match
    # the array's dimensions; so does ptxas-alt).
    dims = '[1]' * n
    return HEAD + f'.global .u32 g{dims} = ' + '{' * n + '5' + '}' * n + ';\n'


def parennest(n):
    # A constant expression nested n parentheses deep.
    return HEAD + '.global .u32 g = ' + '(' * n + '5' + ')' * n + ';\n'


def bigarray(n):
    # An uninitialized .global array of n bytes.
    return HEAD + f'.global .align 4 .b8 g[{n}];\n' + '''.visible .entry k(.param .u64 p)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  mov.u64 %rd2, g;
  st.global.u64 [%rd1], %rd2;
  ret;
}
'''


def biginit(n):
    # A .global array with an initializer of n elements.
    vals = ', '.join(str(i & 0xffff) for i in range(n))
    return HEAD + f'.global .u32 g[{n}] = {{{vals}}};\n'


def blocks(n):
    # n basic blocks: a chain of data-dependent branches around adds.
    body = []
    for i in range(n):
        body.append(f'  setp.eq.u32 %p1, %r1, {i};\n  @%p1 bra L{i};\n'
                    f'  add.s32 %r1, %r1, 1;\nL{i}:\n')
    return HEAD + '''.visible .entry k(.param .u64 p)
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
''' + ''.join(body) + '''  st.global.u32 [%rd1], %r1;
  ret;
}
'''


def irreducible(n):
    # n irreducible loops in sequence: each has two entries (A and B), so
    # neither header dominates the other.
    body = []
    for i in range(n):
        body.append(f'''  setp.lt.u32 %p1, %r1, {i};
  @%p1 bra B{i};
A{i}:
  add.s32 %r1, %r1, 3;
  setp.gt.u32 %p2, %r1, 1000;
  @%p2 bra E{i};
B{i}:
  add.s32 %r1, %r1, 5;
  setp.lt.u32 %p2, %r1, 2000;
  @%p2 bra A{i};
E{i}:
''')
    return HEAD + '''.visible .entry k(.param .u64 p)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.global.u32 %r1, [%rd1];
''' + ''.join(body) + '''  st.global.u32 [%rd1], %r1;
  ret;
}
'''


def longident(n):
    # A kernel, a parameter and a label with n-character names.
    name = 'k' + 'x' * (n - 1)
    return HEAD + f'''.visible .entry {name}(.param .u64 {name}_p)
{{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [{name}_p];
  bra {name}_L;
{name}_L:
  st.global.u32 [%rd1], 1;
  ret;
}}
'''


def longline(n):
    # One statement line of n characters (spaces before the semicolon).
    return HEAD + '.visible .entry k()\n{\n  ret' + ' ' * n + ';\n}\n'


CASES = {
    'regrange': regrange, 'instrs': instrs, 'kernels': kernels,
    'initnest': initnest, 'parennest': parennest, 'bigarray': bigarray,
    'biginit': biginit, 'blocks': blocks, 'irreducible': irreducible,
    'longident': longident, 'longline': longline,
}


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--list':
        print('\n'.join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in CASES:
        sys.stderr.write(__doc__)
        return 2
    sys.stdout.write(CASES[sys.argv[1]](int(sys.argv[2])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
