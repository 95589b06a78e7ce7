// Calibration program: global and shared atomics and reductions of every
// type (int, unsigned long long, float, double, half2, bf16), CAS loops,
// system/block scopes, and results used or not (RED vs ATOM).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void reds(float *f, double *d, int *i, unsigned long long *u,
                     __half2 *h, __nv_bfloat162 *b, const float *x, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  float v = x[id] * 3.0f;
  atomicAdd(f, v);
  atomicAdd(d, double(v) * 0.5);
  atomicAdd(i, id);
  atomicMax(i + 1, id ^ 0x55);
  atomicMin(i + 2, -id);
  atomicAnd(i + 3, id | 0xf0);
  atomicOr(i + 4, 1 << (id & 31));
  atomicXor(i + 5, id * 7);
  atomicAdd(u, (unsigned long long)id << 20);
  atomicAdd(h, __floats2half2_rn(v, -v));
  atomicAdd(b, __floats2bfloat162_rn(v, v * 2));
  atomicAdd_system(f + 1, v);
  atomicAdd_block(f + 2, v);
  atomicInc((unsigned *)i + 6, 100);
  atomicDec((unsigned *)i + 7, 100);
}
__global__ void atoms(int *i, float *f, double *d, unsigned *out, int n) {
  __shared__ int sh[64];
  __shared__ float shf[64];
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 64) { sh[threadIdx.x] = 0; shf[threadIdx.x] = 0; }
  __syncthreads();
  int a = atomicAdd(&sh[id & 63], id);
  float b = atomicAdd(&shf[id & 63], 1.5f);
  int c = atomicCAS(i, id, id + 1);
  int e = atomicExch(i + 1, a + c);
  float g = atomicAdd(f, b);
  double dd = atomicAdd(d, (double)g);
  unsigned old = atomicMax((unsigned *)i + 2, (unsigned)e);
  // a float max by CAS loop
  float *fm = f + 1;
  int cur = __float_as_int(*fm);
  while (__int_as_float(cur) < g) {
    int prev = atomicCAS((int *)fm, cur, __float_as_int(g));
    if (prev == cur) break;
    cur = prev;
  }
  __syncthreads();
  out[id] = a + c + e + __float_as_uint(b) + old + (unsigned)dd + sh[(id * 7) & 63];
}
