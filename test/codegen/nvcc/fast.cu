// nvcc-flags: -use_fast_math
// Fast-math float code (MUFU sequences, div.approx) and a double kernel
// with more live values than registers (spills), as nvcc writes them.
__global__ void fastk(const float* x, float* y, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  float v = x[i];
  float acc = 0.f;
  #pragma unroll 4
  for (int k = 0; k < 16; ++k) acc += sinf(v * k) * expf(-v * 0.1f * k) / (1.f + k) + sqrtf(fabsf(v) + k) / s;
  y[i] = acc + powf(fabsf(v) + 1.f, 0.3f) + logf(fabsf(v) + 2.f) + tanf(v * 0.1f) + 1.f / v + rsqrtf(fabsf(v) + 1.f);
}
__global__ void pressure(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  double a[40];
  for (int k = 0; k < 40; ++k) a[k] = x[(i + k) % n] * (k + 1);
  double s = 0;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 40; ++k) s = s * 0.5 + a[k] * a[(k * 7 + r) % 40];
  long long q = (long long)(s * 1000.0);
  y[i] = s + (double)(q / 7 + q % 13) + (double)((unsigned long long)q / 11ull);
}
