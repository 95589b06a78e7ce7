#include <cub/cub.cuh>
#include <cuda/std/complex>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <typename T>
__global__ void seg(T* d, T* o, int n) {
  using BR = cub::BlockReduce<T, 128>;
  using BS = cub::BlockScan<T, 128>;
  using WS = cub::WarpScan<T>;
  __shared__ typename BR::TempStorage r;
  __shared__ typename BS::TempStorage s;
  __shared__ typename WS::TempStorage w[4];
  T v = d[threadIdx.x + blockIdx.x * 128];
  T a = BR(r).Reduce(v, [] __device__ (T x, T y) { return x < y ? y : x; });
  T b; BS(s).InclusiveScan(v, b, [] __device__ (T x, T y) { return x + y; });
  T c; WS(w[threadIdx.x / 32]).ExclusiveScan(v, c, [] __device__ (T x, T y) { return x < y ? x : y; });
  o[threadIdx.x] = a + b + c;
  o[n + threadIdx.x] = (T)(v / (T)3) + (T)(v % (T)5 == 0);
}
template __global__ void seg<signed char>(signed char*, signed char*, int);
template __global__ void seg<unsigned short>(unsigned short*, unsigned short*, int);
template __global__ void seg<short>(short*, short*, int);
template __global__ void seg<unsigned char>(unsigned char*, unsigned char*, int);
template __global__ void seg<long long>(long long*, long long*, int);
template __global__ void seg<unsigned long long>(unsigned long long*, unsigned long long*, int);
__global__ void cplx(cuda::std::complex<float>* f, cuda::std::complex<double>* d, int n) {
  int i = threadIdx.x;
  auto a = f[i], b = f[i + 1];
  f[i] = a * b + a / b + cuda::std::exp(a) + cuda::std::sqrt(b) + cuda::std::log(a) + cuda::std::pow(a, b) + cuda::std::sin(b) + cuda::std::tanh(a);
  auto x = d[i], y = d[i + 1];
  d[i] = x * y + x / y + cuda::std::exp(x) + cuda::std::sqrt(y) + cuda::std::log(x) + cuda::std::abs(x) + cuda::std::arg(y) + cuda::std::polar(1.0, x.real());
}
__global__ void hvec(__half2* h, __nv_bfloat162* b, float4* f, int n) {
  int i = threadIdx.x;
  __half2 a = h[i], c = h[i + n];
  for (int k = 0; k < 4; k++) { a = __hfma2(a, c, __float2half2_rn(0.5f * k)); c = __hmul2_sat(c, a); }
  h[i] = __hmax2_nan(a, c) + __habs2(a) + __hadd2_sat(a, c);
  __nv_bfloat162 x = b[i], y = b[i + n];
  for (int k = 0; k < 4; k++) { x = __hfma2(x, y, __float2bfloat162_rn(0.25f * k)); y = __hmul2(y, x); }
  b[i] = __hmax2(x, y) + __hsub2(x, y) + __habs2(x);
  float4 v = f[i];
  f[i] = make_float4(__half2float(__low2half(a)), __bfloat162float(__high2bfloat16(x)), v.z * v.w, fmaxf(v.x, v.y));
}
