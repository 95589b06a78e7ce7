// A vendor library for the corpus file rdc_library.cu and for
// abi_library.cu, compiled by nvcc and linked (nvlink) with them compiled
// -c by ptxas-alt or by ptxas (test/codegen/rdc-link.py). Its functions use many registers across the
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

// For abi_library.cu: arguments on the stack, aggregates, a result in memory.
struct Quad { float a, b, c, d; };
struct Big { double v[5]; };
struct Huge { float v[16]; };
__device__ __noinline__ float vendor_many(float a0, float a1, float a2, float a3,
                                          float a4, float a5, float a6, float a7,
                                          float a8, float a9, float a10, float a11,
                                          float a12, double a13, float a14)
{
    return (a0 - a1) * a2 + (a3 - a4) * a5 + (a6 - a7) * a8 + (a9 - a10) * a11 +
           a12 * (float)a13 - a14;
}
__device__ __noinline__ Huge vendor_spread(Quad q, int n, Big b)
{
    Huge h;
    for (int i = 0; i < 16; ++i)
        h.v[i] = (q.a + q.b * i) * (float)b.v[(i + n) % 5] - q.c + q.d * (n & 7);
    return h;
}
extern __device__ float lib_many(float a0, float a1, float a2, float a3,
                                 float a4, float a5, float a6, float a7,
                                 float a8, float a9, float a10, float a11,
                                 float a12, double a13, float a14);
extern __device__ Quad lib_quad(Quad q, int k);
extern __device__ double lib_bigsum(Big b, int n);
extern __device__ Huge lib_huge(Quad q, int n, Big b);
extern __device__ float lib_dispatch(int which, float x, float bias);
extern __device__ float lib_scratch(int n, float x);
extern __device__ float lib_many_call(float a0, float a1, float a2, float a3,
                                      float a4, float a5, float a6, float a7,
                                      float a8, float a9, float a10, float a11,
                                      float a12, double a13, float a14);
// Calls the library's -c functions with every kind of argument placement.
__global__ void vendor_wide(const float* x, const double* c, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[16];
    for (int k = 0; k < 16; ++k) v[k] = x[(i + 2 * k) % n];
    Quad q = {v[1], v[3], v[5], v[7]};
    Big b;
    for (int k = 0; k < 5; ++k) b.v[k] = c[k] + v[k + 8];
    float m = lib_many(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
                       v[9], v[10], v[11], v[12], c[i % 8], v[14]);
    Quad r = lib_quad(q, i & 3);
    double s = lib_bigsum(b, (i & 3) + 2);
    Huge h = lib_huge(q, i, b);
    float d = lib_dispatch(i, v[15], 0.5f);
    float mc = lib_many_call(v[15], v[14], v[13], v[12], v[11], v[10], v[9],
                             v[8], v[7], v[6], v[5], v[4], v[3], c[(i + 5) % 8],
                             v[1]);
    float acc = m + r.a - r.b + r.c - r.d + (float)s + d + mc +
                lib_scratch((i * 7) % 11, v[2]);
    for (int k = 0; k < 16; ++k) acc += h.v[k] * (k + 1) + v[k];
    y[i] = acc;
}
