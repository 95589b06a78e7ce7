// Calibration program built by clang (not nvcc): a small ray tracer --
// spheres, shading with sqrt/rsqrt/pow, a bounce loop, float4 stores.
// clang's PTX differs from nvcc's (its own register use and control flow),
// which is what ptxas then schedules. Build (clang 14, no CUDA headers):
//   clang++ -x cuda --cuda-gpu-arch=sm_XX --cuda-device-only -nocudainc \
//     -nocudalib -O3 -S raytrace_clang.cu -o raytrace_clang.ptx
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
struct float4 { float x, y, z, w; };
__device__ inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
__device__ inline float sqrtf(float x) { return __builtin_sqrtf(x); }
__device__ inline float rsqrtf(float x) { return __nvvm_rsqrt_approx_f(x); }
__device__ inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
__device__ inline float __powf(float a, float b) {
  return __nvvm_ex2_approx_f(b * __nvvm_lg2_approx_f(a));
}
#define TID(d) __nvvm_read_ptx_sreg_tid_##d()
#define CTAID(d) __nvvm_read_ptx_sreg_ctaid_##d()
#define NTID(d) __nvvm_read_ptx_sreg_ntid_##d()
struct V3 { float x, y, z; };
__device__ inline V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ inline V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
__device__ inline V3 operator*(V3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
__device__ inline float dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ inline V3 norm(V3 a) { return a * rsqrtf(dot(a, a)); }
struct Sphere { V3 c; float r; V3 col; float refl; };

__device__ bool hit(const Sphere *s, int n, V3 o, V3 d, float &t, int &id) {
  t = 1e30f; id = -1;
  for (int i = 0; i < n; ++i) {
    V3 oc = o - s[i].c;
    float b = dot(oc, d), c = dot(oc, oc) - s[i].r * s[i].r, h = b * b - c;
    if (h < 0) continue;
    h = sqrtf(h);
    float t0 = -b - h;
    if (t0 > 1e-3f && t0 < t) { t = t0; id = i; }
  }
  return id >= 0;
}

__global__ void render(const Sphere *s, int n, float4 *img, int w, int h, int bounces) {
  int x = CTAID(x) * NTID(x) + TID(x), y = CTAID(y) * NTID(y) + TID(y);
  if (x >= w || y >= h) return;
  V3 o = {0, 0, -5}, d = norm(V3{(x - w * 0.5f) / h, (y - h * 0.5f) / h, 1.f});
  V3 acc = {0, 0, 0};
  float k = 1.f;
  for (int b = 0; b < bounces; ++b) {
    float t; int id;
    if (!hit(s, n, o, d, t, id)) { acc = acc + V3{0.2f, 0.3f, 0.5f} * k; break; }
    V3 p = o + d * t, nn = norm(p - s[id].c), l = norm(V3{1, 1, -1});
    float diff = fmaxf(dot(nn, l), 0.f), spec = __powf(fmaxf(dot(d - nn * (2 * dot(d, nn)), l), 0.f), 32.f);
    acc = acc + s[id].col * (diff * k) + V3{spec, spec, spec} * k;
    k *= s[id].refl;
    o = p; d = d - nn * (2 * dot(d, nn));
  }
  img[y * w + x] = make_float4(acc.x, acc.y, acc.z, 1.f);
}
