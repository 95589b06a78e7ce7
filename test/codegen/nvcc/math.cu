// CUDA math, integer intrinsics and 128-bit arithmetic as nvcc lowers them
// (libdevice sequences, div.approx by constants, carry chains): PTX that is
// not in the corpus. test/codegen/nvcc-diff.py compiles it with nvcc, then
// with ptxas and ptxas-alt, and runs the specs here on both.
__global__ void fmath(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  float v = x[i];
  y[i] = erff(v) + lgammaf(v) + tgammaf(v * 0.1f) + j0f(v) + y0f(fabsf(v) + 1.f) + normcdff(v) + cbrtf(v) + hypotf(v, 2.f)
       + fmodf(v, 1.3f) + remainderf(v, 0.7f) + rnorm3df(v, 1.f, 2.f) + erfinvf(v * 0.1f) + atan2f(v, 1.5f) + sinhf(v) + acoshf(fabsf(v) + 1.f)
       + powf(fabsf(v), 1.7f) + expm1f(v) + log1pf(fabsf(v)) + __fdividef(v, 3.f) + __saturatef(v) + nextafterf(v, 0.f) + frexpf(v, &n) + ldexpf(v, 3)
       + logbf(v) + (float)ilogbf(v) + rintf(v) + nearbyintf(v) + truncf(v) + roundf(v);
}
__global__ void dmath(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  double v = x[i];
  y[i] = erf(v) + lgamma(v) + tgamma(v * 0.1) + j1(v) + cbrt(v) + hypot(v, 2.0) + fmod(v, 1.3) + remainder(v, 0.7) + atan2(v, 1.5)
       + sinh(v) + pow(fabs(v), 1.7) + expm1(v) + log1p(fabs(v)) + rsqrt(fabs(v) + 1) + erfcinv(0.5 + 0.1 * tanh(v)) + normcdfinv(0.3) + sin(v) * cospi(v);
}
__global__ void imath(const long long* x, unsigned long long* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  long long v = x[i]; unsigned u = (unsigned)v;
  unsigned __int128 w = (unsigned __int128)v * (unsigned __int128)(v + 7);
  y[i] = __brevll(v) + __funnelshift_l(u, u >> 3, 5) + __byte_perm(u, ~u, 0x3715) + __sad(u, 3u, 7u) + __usad(u, 5u, 1u)
       + __vabsdiffu4(u, ~u) + __vadd2(u, u) + __vmaxs4(u, 7) + __umul64hi(v, v + 1) + __mul24((int)u, 7) + __popcll(v) + __clzll(v)
       + __ffsll(v) + (unsigned long long)(w >> 64) + (unsigned long long)(w / 12345) + v / (u | 1) + (v % 977) + __dp4a((int)u, (int)u, 3);
}
