#include <cuda_runtime.h>
#define F1(fn) r += fn(x);
#define F2(fn) r += fn(x, y);
__global__ void mathf(float* d, int* ip) {
  int i = threadIdx.x; float x = d[i], y = d[i+1], z = d[i+2], r = 0;
  F1(sinf) F1(cosf) F1(tanf) F1(asinf) F1(acosf) F1(atanf) F1(sinhf) F1(coshf) F1(tanhf) F1(asinhf) F1(acoshf) F1(atanhf)
  F1(expf) F1(exp2f) F1(exp10f) F1(expm1f) F1(logf) F1(log2f) F1(log10f) F1(log1pf) F1(sqrtf) F1(rsqrtf) F1(cbrtf) F1(rcbrtf)
  F1(erff) F1(erfcf) F1(erfinvf) F1(erfcinvf) F1(erfcxf) F1(normcdff) F1(normcdfinvf) F1(lgammaf) F1(tgammaf) F1(j0f) F1(j1f) F1(y0f) F1(y1f)
  F1(cyl_bessel_i0f) F1(cyl_bessel_i1f) F1(ceilf) F1(floorf) F1(truncf) F1(roundf) F1(rintf) F1(nearbyintf) F1(fabsf) F1(logbf) F1(sinpif) F1(cospif)
  F2(powf) F2(atan2f) F2(fmodf) F2(remainderf) F2(hypotf) F2(fminf) F2(fmaxf) F2(fdimf) F2(copysignf) F2(nextafterf) F2(fdividef) F2(rhypotf)
  r += fmaf(x, y, z) + norm3df(x, y, z) + rnorm3df(x,y,z) + ldexpf(x, i) + scalbnf(x, i) + ilogbf(x) + (float)lrintf(x) + (float)llroundf(y);
  int e; r += frexpf(x, &e) + e; float ip2; r += modff(y, &ip2) + ip2; int q; r += remquof(x, y, &q) + q;
  float s, c; sincosf(x, &s, &c); r += s + c; sincospif(y, &s, &c); r += s + c;
  r += __sinf(x) + __cosf(x) + __tanf(x) + __expf(x) + __exp10f(x) + __logf(x) + __log2f(x) + __log10f(x) + __powf(x, y) + __fdividef(x, y);
  r += __fadd_rn(x, y) + __fadd_rz(x, y) + __fadd_ru(x, y) + __fadd_rd(x, y) + __fmul_rz(x, y) + __fmul_ru(x,y) + __fmaf_rd(x, y, z) + __fmaf_ru(x,y,z) + __fmaf_rz(x,y,z);
  r += __fdiv_rn(x, y) + __fdiv_rz(x, y) + __fdiv_ru(x,y) + __fdiv_rd(x,y) + __frcp_rn(x) + __frcp_rz(x) + __frcp_ru(x) + __frcp_rd(x) + __fsqrt_rn(x) + __fsqrt_rz(x) + __fsqrt_ru(x) + __fsqrt_rd(x) + __frsqrt_rn(x);
  r += __saturatef(x) + __fsub_rn(x,y) + __fsub_ru(x,y) + __fmaf_ieee_rn(x,y,z) + __fmul_rn(x,y);
  r += (float)isnan(x) + (float)isinf(y) + (float)isfinite(z) + (float)signbit(x);
  d[i] = r;
  ip[i] = __float2int_rn(x) + __float2int_rz(y) + __float2int_ru(z) + __float2int_rd(x) + __float2uint_rn(y) + __float2uint_rz(y) + __float_as_int(x) + (int)__float2ll_rd(x) + (int)__float2ull_ru(y);
  d[i+1] = __int2float_rz(ip[3]) + __uint2float_ru(ip[4]) + __ll2float_rd(ip[5]) + __ull2float_rn(ip[6]) + __int_as_float(ip[7]) + __int2float_rd(ip[8]);
}
__global__ void mathd(double* d, long long* ip) {
  int i = threadIdx.x; double x = d[i], y = d[i+1], z = d[i+2], r = 0;
  F1(sin) F1(cos) F1(tan) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(asinh) F1(acosh) F1(atanh)
  F1(exp) F1(exp2) F1(exp10) F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p) F1(sqrt) F1(rsqrt) F1(cbrt) F1(rcbrt)
  F1(erf) F1(erfc) F1(erfinv) F1(erfcinv) F1(erfcx) F1(normcdf) F1(normcdfinv) F1(lgamma) F1(tgamma) F1(j0) F1(j1) F1(y0) F1(y1)
  F1(cyl_bessel_i0) F1(ceil) F1(floor) F1(trunc) F1(round) F1(rint) F1(nearbyint) F1(fabs) F1(logb) F1(sinpi) F1(cospi)
  F2(pow) F2(atan2) F2(fmod) F2(remainder) F2(hypot) F2(fmin) F2(fmax) F2(fdim) F2(copysign) F2(nextafter) F2(rhypot)
  r += fma(x, y, z) + norm3d(x, y, z) + ldexp(x, i) + ilogb(x) + (double)lrint(x) + (double)llround(y) + jn(3, x) + yn(2, y);
  int e; r += frexp(x, &e) + e; double ip2; r += modf(y, &ip2) + ip2; int q; r += remquo(x, y, &q) + q;
  double s, c; sincos(x, &s, &c); r += s + c; sincospi(y, &s, &c); r += s + c;
  r += __dadd_rn(x, y) + __dadd_rz(x, y) + __dadd_ru(x, y) + __dadd_rd(x, y) + __dmul_rz(x, y) + __dmul_ru(x, y) + __fma_rd(x, y, z) + __fma_rz(x, y, z) + __fma_ru(x,y,z);
  r += __ddiv_rn(x, y) + __ddiv_rz(x, y) + __ddiv_ru(x, y) + __ddiv_rd(x, y) + __drcp_rn(x) + __drcp_rz(x) + __drcp_ru(x) + __drcp_rd(x) + __dsqrt_rn(x) + __dsqrt_rz(x) + __dsqrt_ru(x) + __dsqrt_rd(x);
  r += (double)isnan(x) + (double)isinf(y) + x / y + 1.0 / z + sqrt(z) * (x > y ? x : y) + __dsub_ru(x, y);
  d[i] = r;
  ip[i] = __double2int_rn(x) + __double2int_rz(y) + __double2uint_ru(z) + __double2ll_rd(x) + __double2ull_rn(y) + __double_as_longlong(x) + __double2hiint(x) + __double2loint(y);
  d[i+1] = __ll2double_rz(ip[3]) + __ull2double_ru(ip[4]) + __longlong_as_double(ip[5]) + __hiloint2double((int)ip[6], (int)ip[7]) + __int2double_rn((int)ip[8]) + (double)(float)x + (float)y;
}
