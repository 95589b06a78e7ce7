#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
__global__ void half_ops(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2, float* f) {
  int i = threadIdx.x;
  __half a = h[i], c = h[i+1], d = h[i+2];
  __half2 x = h2[i], y = h2[i+1], z = h2[i+2];
  __half r = __hadd(a, c) + __hsub(a, c) * __hmul(a, d) + __hfma(a, c, d) + __hdiv(a, c) + __hneg(a) + __habs(c) + __hadd_sat(a, c) + __hfma_relu(a, c, d) + __hmax(a, c) + __hmin_nan(a, d);
  r = r + hsqrt(a) + hrsqrt(c) + hrcp(d) + hexp(a) + hexp2(c) + hexp10(d) + hlog(a) + hlog2(c) + hlog10(d) + hsin(a) + hcos(c) + htrunc(a) + hceil(c) + hfloor(d) + hrint(a);
  __half2 r2 = __hadd2(x, y) + __hmul2(x, y) * __hsub2(y, z) + __hfma2(x, y, z) + __h2div(x, y) + __hneg2(x) + __habs2(y) + __hfma2_relu(x, y, z) + __hmax2(x, y) + __hmin2_nan(y, z) + __hcmadd(x, y, z);
  r2 = r2 + h2sqrt(x) + h2rsqrt(y) + h2rcp(z) + h2exp(x) + h2exp2(y) + h2log(z) + h2log2(x) + h2sin(y) + h2cos(z) + h2trunc(x) + h2floor(y) + h2ceil(z) + h2rint(x);
  bool cmp = __hlt(a, c) || __hge(c, d) || __hequ(a, d) || __hisnan(a) || __hbgt2(x, y) || __hbeq2(y, z) || __hisinf(c);
  __half2 m = __hlt2(x, y) + __hgeu2(y, z) + __hne2(x, z);
  unsigned mm = __heq2_mask(x, y) ^ __hltu2_mask(y, z);
  f[i] = __half2float(r) + __low2float(r2) + __high2float(m) + cmp + mm + __half2float(__float2half_rz(f[i+1])) + __half2float(__float2half_ru(f[i+3])) + __half2float(__float2half_rd(f[i+4]));
  f[i+1] = (float)__half2int_rn(a) + __half2uint_rz(c) + __half2short_rd(d) + __half2ll_ru(a) + __half2ushort_rn(c) + __half_as_short(d);
  h[i] = __int2half_rn(i) + __uint2half_rz(i) + __short2half_rd((short)i) + __ll2half_ru(i) + __double2half(f[5]);
  h2[i] = __floats2half2_rn(f[1], f[2]) + __float22half2_rn(make_float2(f[3], f[4])) + __halves2half2(a, c) + __lowhigh2highlow(x) + __low2half2(y) + __high2half2(z);
#if __CUDA_ARCH__ >= 800
  __nv_bfloat16 ba = b[i], bc = b[i+1], bd = b[i+2];
  __nv_bfloat162 bx = b2[i], by = b2[i+1], bz = b2[i+2];
  __nv_bfloat16 br = __hadd(ba, bc) + __hsub(ba, bc) * __hmul(ba, bd) + __hfma(ba, bc, bd) + __hdiv(ba, bc) + __hneg(ba) + __habs(bc) + __hfma_relu(ba, bc, bd) + __hmax(ba, bc) + __hmin_nan(ba, bd) + hsqrt(ba) + hexp(bc) + hlog2(bd) + hsin(ba) + hrint(bc);
  __nv_bfloat162 br2 = __hadd2(bx, by) + __hmul2(bx, by) + __hfma2(bx, by, bz) + __h2div(bx, by) + __hmax2(bx, by) + __hmin2(by, bz) + h2sqrt(bx) + h2exp(by) + __hcmadd(bx, by, bz) + __hfma2_relu(bx, by, bz);
  bool bcmp = __hlt(ba, bc) || __hisnan(bd) || __hbgt2(bx, by);
  f[i+2] = __bfloat162float(br) + __low2float(br2) + bcmp + __bfloat162float(__float2bfloat16_rz(f[6])) + __bfloat162float(__float2bfloat16_ru(f[7])) + __bfloat162int_rn(ba) + __bfloat162uint_rz(bc) + __bfloat162ll_rd(bd);
  b[i] = __int2bfloat16_rn(i) + __uint2bfloat16_rz(i) + __double2bfloat16(f[8]) + __short2bfloat16_rd((short)i) + __float2bfloat16(__half2float(a));
  b2[i] = __floats2bfloat162_rn(f[1], f[2]) + __float22bfloat162_rn(make_float2(f[3], f[4]));
#endif
}
__global__ void fp8_ops(float* f, __nv_fp8_e4m3* e4, __nv_fp8_e5m2* e5, __nv_fp8x2_e4m3* e42, __nv_fp8x4_e5m2* e54, __half* h, __nv_bfloat16* bb) {
  int i = threadIdx.x;
  e4[i] = __nv_fp8_e4m3(f[i]);
  e5[i] = __nv_fp8_e5m2(f[i + 1]);
  e42[i] = __nv_fp8x2_e4m3(make_float2(f[i], f[i+2]));
  e54[i] = __nv_fp8x4_e5m2(make_float4(f[i], f[i+1], f[i+2], f[i+3]));
  f[i] = float(e4[i+1]) + float(e5[i+2]) + float2(e42[i+3]).x + float4(e54[i+1]).y;
  __nv_fp8_storage_t s = __nv_cvt_float_to_fp8(f[i+5], __NV_SATFINITE, __NV_E4M3);
  __nv_fp8x2_storage_t s2 = __nv_cvt_halfraw2_to_fp8x2(*(__half2_raw*)&h[i], __NV_NOSAT, __NV_E5M2);
  __nv_fp8x2_storage_t s3 = __nv_cvt_bfloat16raw2_to_fp8x2(*(__nv_bfloat162_raw*)&bb[i], __NV_SATFINITE, __NV_E4M3);
  __nv_fp8x2_storage_t s4 = __nv_cvt_double2_to_fp8x2(make_double2(f[1], f[2]), __NV_SATFINITE, __NV_E5M2);
  __half_raw hr = __nv_cvt_fp8_to_halfraw(s, __NV_E4M3);
  __half2_raw hr2 = __nv_cvt_fp8x2_to_halfraw2(s2, __NV_E5M2);
  h[i] = __half(hr) + __half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)s3, __NV_E4M3)) + __low2half(__half2(hr2)) + __half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)s4, __NV_E5M2));
  h[i+1] = __half(e4[i]) + __half(e5[i]);
  bb[i] = __nv_bfloat16(e4[i+2]) + __nv_bfloat16(e5[i+3]);
}
