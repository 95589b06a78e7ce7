// A vendor library for the corpus file rdc_library.cu, compiled by nvcc and
// linked (nvlink) with rdc_library compiled -c by ptxas-alt or by ptxas
// (test/codegen/rdc-link.py). Its functions use many registers across the
// ABI, and its kernel calls into the library with many values live, so a
// wrong register convention on either side changes the results.
__device__ int vendor_counter = 0;
__constant__ float vendor_table[64] = {
  1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f, 1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f,
  1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f, 1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f,
  1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f, 1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f,
  1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f, 1.0f, 0.5f, 0.25f, 2.0f, 1.5f, 0.75f, 1.25f, 0.125f};
__device__ __noinline__ float vendor_activation(float x, int kind)
{
    float a = x, b = x * 0.5f, c = x * x, d = x - 1.f, e = x + 2.f, f = x * 3.f, g = x / 7.f, h = x * x * x;
    for (int k = 0; k < (kind & 3) + 1; ++k) { a = a * b + c; b = b * c - d; c = c * d + e; d = d * e - f; e = e * f + g; f = f * g - h; g = g * h + a; h = h * a - b; }
    float r = (a + b + c + d + e + f + g + h) * 1e-3f;
    return kind & 4 ? tanhf(r) : r / (1.f + fabsf(r));
}
__device__ __noinline__ void vendor_log_event(int code, const float* payload, int len)
{
    if (len > 0 && payload[0] != payload[0]) atomicAdd(&vendor_counter, code);
}
extern __device__ float lib_smoothstep(float e0, float e1, float x);
extern __device__ double lib_horner(const double* c, int n, double x);
// Calls into the library with many values live across the calls, held in
// the registers the ABI says a callee preserves.
__global__ void vendor_kernel(const float* x, const double* c, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[24];
    for (int k = 0; k < 24; ++k) v[k] = x[(i + k) % n] * (k + 1);
    float s = lib_smoothstep(-2.f, 2.f, v[0]);
    double h = lib_horner(c, 5, (double)v[1]);
    float acc = 0.f;
    for (int k = 0; k < 24; ++k) acc = acc * 0.5f + v[k];
    y[i] = acc + s + (float)h;
}
