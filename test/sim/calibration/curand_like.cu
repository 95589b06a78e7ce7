// Calibration program: curand initialization and generation (XORWOW with
// skip-ahead, Philox, normal/uniform/poisson), plus hand-written integer
// hashing. Compiled only (sass-hazards), never run.
#include <curand_kernel.h>

__global__ void init_xorwow(curandState *s, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &s[id]);
}
__global__ void gen_xorwow(curandState *s, float *out, unsigned *bits, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState l = s[id];
  float acc = 0;
  unsigned b = 0;
  for (int i = 0; i < n; ++i) {
    acc += curand_uniform(&l) + curand_normal(&l);
    b ^= curand(&l);
  }
  s[id] = l;
  out[id] = acc;
  bits[id] = b + curand_poisson(&l, 4.5);
}
__global__ void philox(unsigned long long seed, float4 *out, uint4 *raw) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t st;
  curand_init(seed, id, 17, &st);
  out[id] = curand_normal4(&st);
  raw[id] = curand4(&st);
}
__device__ unsigned mix(unsigned h) {
  h ^= h >> 16; h *= 0x7feb352d; h ^= h >> 15; h *= 0x846ca68b; h ^= h >> 16;
  return h;
}
__global__ void hashes(const unsigned *in, unsigned long long *out, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  unsigned long long h = 0xcbf29ce484222325ull;
  unsigned v = in[id];
  for (int i = 0; i < 16; ++i) {
    v = mix(v + i);
    h = (h ^ v) * 0x100000001b3ull;
    h = __funnelshift_l(unsigned(h), unsigned(h >> 32), v & 31) ^ __umul64hi(h, v);
  }
  out[id] = h + __popcll(h) + __clzll(h) + __brevll(h);
}
