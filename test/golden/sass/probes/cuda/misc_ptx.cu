#include <cuda_fp16.h>
#include <cuda_bf16.h>
#define A(...) asm volatile(__VA_ARGS__)
__global__ void misc_int(unsigned* o, unsigned long long* q, unsigned a, unsigned b, unsigned c, unsigned long long x, unsigned long long y) {
  unsigned r[32]; unsigned long long s[8];
  A("bfe.u32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(a), "r"(b), "r"(c));
  A("bfe.s32 %0, %1, 3, 7;" : "=r"(r[1]) : "r"(a));
  A("bfi.b32 %0, %1, %2, %3, 5;" : "=r"(r[2]) : "r"(a), "r"(b), "r"(c));
  A("bfind.u32 %0, %1;" : "=r"(r[3]) : "r"(a));
  A("bfind.shiftamt.s32 %0, %1;" : "=r"(r[4]) : "r"(b));
  A("bfind.u64 %0, %1;" : "=r"(r[5]) : "l"(x));
  A("clz.b64 %0, %1;" : "=r"(r[6]) : "l"(x));
  A("popc.b64 %0, %1;" : "=r"(r[7]) : "l"(y));
  A("fns.b32 %0, %1, %2, %3;" : "=r"(r[8]) : "r"(a), "r"(b), "r"(c));
  A("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r[9]) : "r"(a), "r"(b));
  A("szext.wrap.s32 %0, %1, %2;" : "=r"(r[10]) : "r"(a), "r"(b));
  A("szext.clamp.u32 %0, %1, %2;" : "=r"(r[11]) : "r"(a), "r"(b));
  A("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r[12]) : "r"(a), "r"(b), "r"(c));
  A("{.reg .u32 t; add.cc.u32 t, %1, %2; addc.cc.u32 t, t, %3; addc.u32 %0, t, 0;}" : "=r"(r[13]) : "r"(a), "r"(b), "r"(c));
  A("{.reg .u32 t; sub.cc.u32 t, %1, %2; subc.u32 %0, t, %3;}" : "=r"(r[14]) : "r"(a), "r"(b), "r"(c));
  A("{.reg .u32 t; mad.lo.cc.u32 t, %1, %2, %3; madc.hi.u32 %0, %1, %2, t;}" : "=r"(r[15]) : "r"(a), "r"(b), "r"(c));
  A("mul.wide.u32 %0, %1, %2;" : "=l"(s[0]) : "r"(a), "r"(b));
  A("mul.wide.s32 %0, %1, %2;" : "=l"(s[1]) : "r"(a), "r"(b));
  A("mad.wide.u32 %0, %1, %2, %3;" : "=l"(s[2]) : "r"(a), "r"(b), "l"(x));
  A("mul.hi.u64 %0, %1, %2;" : "=l"(s[3]) : "l"(x), "l"(y));
  A("mad.hi.s64 %0, %1, %2, %3;" : "=l"(s[4]) : "l"(x), "l"(y), "l"(x));
  A("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[16]) : "r"(a), "r"(b), "r"(c));
  A("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[17]) : "r"(a), "r"(b), "r"(c));
  A("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[18]) : "r"(a), "r"(b), "r"(c));
  A("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[19]) : "r"(a), "r"(b), "r"(c));
  A("dp2a.lo.s32.u32 %0, %1, %2, %3;" : "=r"(r[20]) : "r"(a), "r"(b), "r"(c));
  A("sad.u32 %0, %1, %2, %3;" : "=r"(r[21]) : "r"(a), "r"(b), "r"(c));
  A("{.reg .pred p; setp.lt.u64 p, %1, %2; selp.u32 %0, 1, 2, p;}" : "=r"(r[22]) : "l"(x), "l"(y));
  A("{.reg .pred p, q; setp.ne.and.b32 p|q, %1, %2, 1; selp.u32 %0, 1, 2, q;}" : "=r"(r[23]) : "r"(a), "r"(b));
#if __CUDA_ARCH__ >= 900
  A("min.u16x2 %0, %1, %2;" : "=r"(r[24]) : "r"(a), "r"(b));
  A("max.s16x2.relu %0, %1, %2;" : "=r"(r[25]) : "r"(a), "r"(b));
  A("add.s16x2 %0, %1, %2;" : "=r"(r[26]) : "r"(a), "r"(b));
#else
  r[24] = r[25] = r[26] = a;
#endif
  A("{.reg .u16 h; cvt.u16.u32 h, %1; mul.wide.u16 %0, h, h;}" : "=r"(r[27]) : "r"(a));
  A("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(r[28]) : "r"(a), "r"(b), "r"(c));
  A("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(r[29]) : "r"(a), "r"(b));
  A("{.reg .u64 t; cvt.u64.u32 t, %1; shr.s64 t, t, %2; cvt.u32.u64 %0, t;}" : "=r"(r[30]) : "r"(a), "r"(b));
  A("mov.b64 {%0, %1}, %2;" : "=r"(r[31]), "=r"(r[0]) : "l"(x));
  unsigned t = 0; for (int i = 0; i < 32; i++) t += r[i];
  o[threadIdx.x] = t; q[threadIdx.x] = s[0] + s[1] + s[2] + s[3] + s[4];
}
__global__ void misc_float(float* o, double* d, unsigned* h, float a, float b, float c, double x, double y) {
  float r[32]; double e[8]; unsigned u[16];
  A("tanh.approx.f32 %0, %1;" : "=f"(r[0]) : "f"(a));
  A("ex2.approx.ftz.f32 %0, %1;" : "=f"(r[1]) : "f"(a));
  A("lg2.approx.f32 %0, %1;" : "=f"(r[2]) : "f"(a));
  A("sin.approx.ftz.f32 %0, %1;" : "=f"(r[3]) : "f"(a));
  A("rcp.approx.ftz.f64 %0, %1;" : "=d"(e[0]) : "d"(x));
  A("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(e[1]) : "d"(x));
  A("sqrt.approx.f32 %0, %1;" : "=f"(r[4]) : "f"(a));
  A("{.reg .pred p; testp.subnormal.f32 p, %1; selp.f32 %0, 1.0, 2.0, p;}" : "=f"(r[5]) : "f"(a));
  A("{.reg .pred p; testp.notanumber.f64 p, %1; selp.f32 %0, 1.0, 2.0, p;}" : "=f"(r[6]) : "d"(x));
  A("copysign.f32 %0, %1, %2;" : "=f"(r[7]) : "f"(a), "f"(b));
#if __CUDA_ARCH__ >= 860
  A("min.xorsign.abs.f32 %0, %1, %2;" : "=f"(r[8]) : "f"(a), "f"(b));
  A("max.NaN.f32 %0, %1, %2;" : "=f"(r[9]) : "f"(a), "f"(b));
#else
  r[8] = r[9] = a;
#endif
  A("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(r[10]) : "f"(a), "f"(b), "f"(c));
  A("mul.rz.ftz.sat.f32 %0, %1, %2;" : "=f"(r[11]) : "f"(a), "f"(b));
  A("add.rm.ftz.f32 %0, %1, 0f3F800000;" : "=f"(r[12]) : "f"(a));
  A("div.full.f32 %0, %1, %2;" : "=f"(r[13]) : "f"(a), "f"(b));
  A("div.approx.ftz.f32 %0, %1, %2;" : "=f"(r[14]) : "f"(a), "f"(b));
  A("{.reg .pred p; setp.gtu.ftz.f32 p, %1, %2; selp.f32 %0, 1.0, 2.0, p;}" : "=f"(r[15]) : "f"(a), "f"(b));
  A("{.reg .pred p; setp.nan.f64 p, %1, %2; selp.f32 %0, 1.0, 2.0, p;}" : "=f"(r[16]) : "d"(x), "d"(y));
  A("set.ltu.f32.f32 %0, %1, %2;" : "=f"(r[17]) : "f"(a), "f"(b));
  A("set.eq.u32.f32 %0, %1, %2;" : "=r"(u[0]) : "f"(a), "f"(b));
#if __CUDA_ARCH__ >= 900
  A("cvt.rna.tf32.f32 %0, %1;" : "=r"(u[1]) : "f"(a));
  A("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(u[2]) : "f"(a), "f"(b));
  A("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(*(unsigned short*)&u[3]) : "f"(a), "f"(b));
  A("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(u[4]) : "h"((unsigned short)u[1]));
  A("ex2.approx.f16x2 %0, %1;" : "=r"(u[5]) : "r"(u[2]));
  A("tanh.approx.f16x2 %0, %1;" : "=r"(u[6]) : "r"(u[2]));
  A("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(u[7]) : "r"(u[2]), "r"(u[4]), "r"(u[6]));
  A("min.NaN.bf16x2 %0, %1, %2;" : "=r"(u[8]) : "r"(u[2]), "r"(u[4]));
  A("fma.rn.ftz.sat.f16x2 %0, %1, %2, %3;" : "=r"(u[9]) : "r"(u[2]), "r"(u[4]), "r"(u[6]));
  A("abs.bf16x2 %0, %1;" : "=r"(u[10]) : "r"(u[2]));
  A("neg.f16x2 %0, %1;" : "=r"(u[11]) : "r"(u[2]));
  A("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(u[12]) : "f"(a), "f"(b));
#else
  for (int k = 1; k < 13; k++) u[k] = k;
#endif
  A("cvt.rzi.ftz.sat.f32.f32 %0, %1;" : "=f"(r[18]) : "f"(a));
  A("cvt.rni.s64.f64 %0, %1;" : "=l"(*(long long*)&e[2]) : "d"(x));
  A("cvt.rpi.f32.f32 %0, %1;" : "=f"(r[19]) : "f"(a));
  A("cvt.rm.f32.f64 %0, %1;" : "=f"(r[20]) : "d"(x));
  A("cvt.rp.f64.s64 %0, %1;" : "=d"(e[3]) : "l"((long long)u[0]));
  A("cvt.rn.f16.f64 %0, %1;" : "=h"(*(unsigned short*)&u[13]) : "d"(x));
  A("cvt.rzi.s8.f32 %0, %1;" : "=r"(u[14]) : "f"(a));
  A("cvt.sat.u8.s32 %0, %1;" : "=r"(u[15]) : "r"(u[0]));
  A("abs.f64 %0, %1;" : "=d"(e[4]) : "d"(x));
  A("neg.f64 %0, %1;" : "=d"(e[5]) : "d"(y));
  A("min.f64 %0, %1, 0d7FF8000000000000;" : "=d"(e[6]) : "d"(x));
  A("fma.rp.f64 %0, %1, %2, 0d3FF0000000000000;" : "=d"(e[7]) : "d"(x), "d"(y));
  float t = 0; for (int i = 0; i < 21; i++) t += r[i];
  unsigned v = 0; for (int i = 0; i < 16; i++) v += u[i];
  o[threadIdx.x] = t; h[threadIdx.x] = v; d[threadIdx.x] = e[0] + e[1] + e[2] + e[3] + e[4] + e[5] + e[6] + e[7];
}
__global__ void misc_mem(int* g, int4* g4, const int* __restrict__ ro, int n, unsigned long long pol) {
  __shared__ int s[1024];
  int r[16];
  A("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(r[0]) : "l"(ro + n));
  A("ld.global.L1::evict_last.L2::256B.b32 %0, [%1];" : "=r"(r[1]) : "l"(g + n));
  A("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(r[2]) : "l"(g + 2 * n), "l"(pol));
  A("ld.global.lu.v2.b32 {%0, %1}, [%2];" : "=r"(r[3]), "=r"(r[4]) : "l"(g + 4 * n));
  A("ld.volatile.global.b32 %0, [%1];" : "=r"(r[5]) : "l"(g + 5));
  A("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(r[6]) : "l"(g + 6));
  A("ld.relaxed.cta.shared.b32 %0, [%1];" : "=r"(r[7]) : "r"((unsigned)__cvta_generic_to_shared(s + n)));
  A("st.global.wt.b32 [%0], %1;" :: "l"(g + 7), "r"(r[0]));
  A("st.global.L1::no_allocate.v4.b32 [%0], {%1, %2, %3, %4};" :: "l"(g4 + n), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]));
  A("st.release.sys.global.b32 [%0], %1;" :: "l"(g + 8), "r"(r[1]));
  A("st.global.L2::cache_hint.b32 [%0], %1, %2;" :: "l"(g + 9), "r"(r[1]), "l"(pol));
  A("prefetch.global.L2::evict_last [%0];" :: "l"(g + 64));
  A("prefetch.global.L1 [%0];" :: "l"(g + 128));
  A("prefetchu.L1 [%0];" :: "l"(g + 256));
  A("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(g + 512));
  A("discard.global.L2 [%0], 128;" :: "l"(g + 1024));
  unsigned long long p2; A("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p2));
  unsigned long long p3; A("createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %0, 0.5;" : "=l"(p3));
  A("st.global.L2::cache_hint.b32 [%0], %1, %2;" :: "l"(g + 10), "r"(r[2]), "l"(p2 ^ p3));
  A("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(g + 11), "r"(r[2]));
  A("red.relaxed.gpu.global.max.s64 [%0], %1;" :: "l"(g + 12), "l"((long long)r[2]));
  A("atom.global.inc.u32 %0, [%1], %2;" : "=r"(r[8]) : "l"(g + 13), "r"(17));
  A("atom.acq_rel.sys.global.exch.b64 %0, [%1], %2;" : "=l"(*(long long*)&r[10]) : "l"(g + 14), "l"(pol));
  A("atom.shared.cas.b64 %0, [%1], %2, %3;" : "=l"(*(long long*)&r[12]) : "r"((unsigned)__cvta_generic_to_shared(s + 2*n)), "l"(pol), "l"(p2));
  A("{.reg .pred p; setp.ne.u32 p, %1, 0; bar.red.popc.u32 %0, 0, p;}" : "=r"(r[14]) : "r"(n & 1));
  A("{.reg .pred p, q; setp.ne.u32 p, %1, 0; bar.red.or.pred q, 1, !p; selp.u32 %0, 1, 0, q;}" : "=r"(r[15]) : "r"(n));
  A("bar.arrive 2, 64;");
  A("barrier.sync.aligned 3, 64;");
  A("bar.warp.sync %0;" :: "r"(0xffffffffu));
  A("membar.gl;"); A("fence.sc.sys;"); A("fence.acq_rel.cta;");
  int t = 0; for (int i = 0; i < 16; i++) t += r[i];
  g[threadIdx.x] = t + s[n];
}
