// A library for the ABI corners of separate compilation, compiled to PTX by
// nvcc and then -c by ptxas-alt or by ptxas (test/codegen/rdc-link.py), and
// linked (nvlink) with vendor.cu and rdc_library:
//  * calls through function pointers (a table of local and vendor
//    functions) from a kernel and from a -c function;
//  * arguments past R4..R15 (on the stack), aggregates passed in registers,
//    results returned in registers and in memory (over 48 bytes), in both
//    directions across the module boundary;
//  * alloca in a -c function (R1 moves and comes back).
struct Quad { float a, b, c, d; };
struct Big { double v[5]; };          // 40 bytes: R4..R13
struct Huge { float v[16]; };         // 64 bytes: returned in memory

extern __device__ float vendor_activation(float x, int kind);
extern __device__ float vendor_many(float a0, float a1, float a2, float a3,
                                    float a4, float a5, float a6, float a7,
                                    float a8, float a9, float a10, float a11,
                                    float a12, double a13, float a14);
extern __device__ Huge vendor_spread(Quad q, int n, Big b);

__device__ __noinline__ float lib_sq(float x, int k) { return x * x + k; }
__device__ __noinline__ float lib_half(float x, int k) { return x * 0.5f - k; }

typedef float (*unary_fn)(float, int);
__device__ unary_fn lib_table[3] = {lib_sq, lib_half, vendor_activation};

// A -c function that calls through a pointer, with values live across.
__device__ __noinline__ float lib_dispatch(int which, float x, float bias)
{
    unary_fn f = lib_table[which % 3];
    float a = x * bias, b = x + bias;
    float r = f(x, which & 7);
    return r * a + b;
}

__global__ void apply_table(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unary_fn f = lib_table[i % 3];
    // An address taken in code (relocated MOVs), not in data.
    unary_fn g = (i & 4) ? lib_half : vendor_activation;
    float v = x[i];
    y[i] = f(v, i & 7) + lib_dispatch(i + 1, v, 0.25f) + g(v * 0.5f, i & 3);
}

// Fifteen arguments: the last three (one a double) on the stack.
__device__ __noinline__ float lib_many(float a0, float a1, float a2, float a3,
                                       float a4, float a5, float a6, float a7,
                                       float a8, float a9, float a10, float a11,
                                       float a12, double a13, float a14)
{
    return a0 * a1 + a2 * a3 - a4 * a5 + a6 * a7 - a8 * a9 + a10 * a11 -
           a12 * (float)a13 + a14;
}

// Stack arguments in a function with a frame of its own (values live
// across its call are kept there): they lie above that frame.
__device__ __noinline__ float lib_many_call(float a0, float a1, float a2, float a3,
                                            float a4, float a5, float a6, float a7,
                                            float a8, float a9, float a10, float a11,
                                            float a12, double a13, float a14)
{
    float t = vendor_activation(a0 + a14, (int)a13 & 7);
    return t * a12 + a1 * a2 - a3 + a4 * a5 - a6 + a7 * a8 - a9 + a10 * a11 +
           (float)a13 * a14;
}

__device__ __noinline__ Quad lib_quad(Quad q, int k)
{
    Quad r = {q.a * k, q.b + k, q.c - k, q.d * q.a};
    return r;
}

__device__ __noinline__ double lib_bigsum(Big b, int n)
{
    double s = 0;
    for (int i = 0; i < n && i < 5; ++i) s += b.v[i] * (i + 1);
    return s;
}

__device__ __noinline__ Huge lib_huge(Quad q, int n, Big b)
{
    Huge h;
    for (int i = 0; i < 16; ++i)
        h.v[i] = q.a * i + q.b - (float)b.v[i % 5] * (n & 3) + q.c * q.d;
    return h;
}

// alloca of a dynamic size and a call while the block is live: the frame
// base survives the call in R2 (saved for the caller), and the caller's R1
// and R2 come back unchanged.
__device__ __noinline__ float lib_scratch(int n, float x)
{
    float* buf = (float*)alloca(sizeof(float) * (n + 1));
    for (int i = 0; i <= n; ++i) buf[i] = x * i + 1.0f;
    float t = vendor_activation(buf[n / 2], n & 7);
    float s = 0;
    for (int i = n; i >= 0; i -= 2) s += buf[i];
    return s + t;
}

__global__ void wide_calls(const float* x, const double* c, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[15];
    for (int k = 0; k < 15; ++k) v[k] = x[(i + k) % n];
    Quad q = {v[0], v[1], v[2], v[3]};
    Big b;
    for (int k = 0; k < 5; ++k) b.v[k] = c[k] * v[k + 4];
    float m = lib_many(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
                       v[9], v[10], v[11], v[12], c[i % 8], v[14]);
    float vm = vendor_many(v[14], v[13], v[12], v[11], v[10], v[9], v[8], v[7],
                           v[6], v[5], v[4], v[3], v[2], c[(i + 3) % 8], v[0]);
    Quad r = lib_quad(q, i & 3);
    double s = lib_bigsum(b, 5);
    Huge h = lib_huge(q, i, b);
    Huge g = vendor_spread(q, i, b);
    float acc = m + vm + r.a + r.b + r.c + r.d + (float)s +
                lib_scratch(i % 13, v[5]);
    for (int k = 0; k < 16; ++k) acc += h.v[k] * 0.5f + g.v[k] * 0.25f;
    y[i] = acc;
}
