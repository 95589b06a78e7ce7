import os
groups = [
 ('ISelFloatSeqDivA.cpp', 'seqDivA', ['div.rn.f32','div.rn.ftz.f32','div.rz.f32','div.rz.ftz.f32']),
 ('ISelFloatSeqDivB.cpp', 'seqDivB', ['div.rm.f32','div.rm.ftz.f32','div.rp.f32','div.rp.ftz.f32']),
 ('ISelFloatSeqRcp.cpp', 'seqRcp', [f'rcp.{r}{z}.f32' for r in ['rn','rz','rm','rp'] for z in ['','.ftz']]),
 ('ISelFloatSeqSqrt.cpp', 'seqSqrt', [f'sqrt.{r}{z}.f32' for r in ['rn','rz','rm','rp'] for z in ['','.ftz']] + ['rsqrt.approx.f64']),
 ('ISelFloatSeqDivF64.cpp', 'seqDivF64', [f'div.{r}.f64' for r in ['rn','rz','rm','rp']]),
 ('ISelFloatSeqRcpF64.cpp', 'seqRcpF64', [f'rcp.{r}.f64' for r in ['rn','rz','rm','rp']]),
 ('ISelFloatSeqSqrtF64.cpp', 'seqSqrtF64', [f'sqrt.{r}.f64' for r in ['rn','rz','rm','rp']]),
]
for fn, func, keys in groups:
    out = [f'//===- {fn} - ptxas\'s IEEE sequences (generated) ----------------===//'[:80],
           '//',
           '// Part of ptxas-alt, under the Apache License v2.0 with LLVM Exceptions.',
           '//',
           '//===----------------------------------------------------------------------===//',
           '//',
           '// The sequences ptxas 13 emits for these PTX forms (sm_75 spelling, valid',
           '// on every target), with the slow-path subroutine inlined at its call:',
           '// %a/%b are the sources (%a0/%a1 words of an f64), %d the result.',
           '// Written for emitSeq (ISelFloatSeq.cpp).',
           '//',
           '//===----------------------------------------------------------------------===//',
           '#include "ISelFloatUtil.h"', '',
           'using namespace ptxas::codegen;', '',
           f'llvm::StringRef fl::{func}(llvm::StringRef Key) {{']
    for k in keys:
        dsl = open(f'ref75/{k}.dsl').read().strip()
        out.append(f'  if (Key == "{k}")')
        out.append('    return R"(' + dsl + ')";')
    out.append('  return "";')
    out.append('}')
    open(os.path.join(os.environ.get('OUT', '.'), fn), 'w').write('\n'.join(out) + '\n')
    print(fn, len(out))
print('\n'.join(f'llvm::StringRef {g[1]}(llvm::StringRef Key);' for g in groups))
