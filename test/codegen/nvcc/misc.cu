// Local arrays with dynamic indexing, a switch, a struct passed and
// returned by value through a call, 64-bit division, and shared-memory
// atomics incl. the 64-bit CAS loop (test/codegen/nvcc-diff.py).
#include <cstdio>
struct P { float x, y, z; int id; };
__device__ __noinline__ P mix(P a, P b, int k) { P r; r.x = a.x * k + b.y; r.y = a.y - b.x; r.z = a.z * b.z; r.id = a.id ^ b.id; return r; }
__global__ void misck(const int* in, long long* out, int n, long long d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i >= n) return;
  int v = in[i];
  int loc[24];
  for (int k = 0; k < 24; ++k) loc[k] = v * k + (k ^ v);
  int idx = (v & 0x7fffffff) % 24;
  long long acc = loc[idx];
  switch (v & 7) {
    case 0: acc += 11; break; case 1: acc *= 3; break; case 2: acc -= v; break;
    case 3: acc ^= 0x5555; break; case 4: acc = acc / (d | 1); break; case 5: acc = acc % 977; break;
    case 6: acc <<= 3; break; default: acc = -acc; break;
  }
  P a{(float)v, 1.5f, 2.f, v}, b{0.5f, (float)i, 3.f, i};
  P r = mix(a, b, v & 3);
  long long q = (long long)v * 1000003LL / (long long)((i | 1) * 7);
  unsigned long long uq = (unsigned long long)(v + 5000000000LL) % 123456789ULL;
  out[i] = acc + (long long)(r.x + r.y + r.z) + r.id + q + (long long)uq;
}
__global__ void sharedk(const int* in, int* out, int n) {
  __shared__ int hist[64];
  __shared__ unsigned long long tot;
  int t = threadIdx.x;
  if (t < 64) hist[t] = 0;
  if (t == 0) tot = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  int v = i < n ? in[i] : 0;
  atomicAdd(&hist[v & 63], 1);
  atomicMin(&hist[(v >> 6) & 63], v);
  atomicAdd(&tot, (unsigned long long)v);
  __syncthreads();
  if (t < 64) out[blockIdx.x * 65 + t] = hist[t];
  if (t == 0) out[blockIdx.x * 65 + 64] = (int)(tot % 1000003);
}
