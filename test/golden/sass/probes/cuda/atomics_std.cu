#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
template <cuda::thread_scope S, typename T>
__device__ void ops(T* p, T v, T* out) {
  cuda::atomic_ref<T, S> a(*p);
  T r = 0;
  r += a.load(cuda::std::memory_order_relaxed);
  r += a.load(cuda::std::memory_order_acquire);
  r += a.load(cuda::std::memory_order_seq_cst);
  a.store(v, cuda::std::memory_order_relaxed);
  a.store(v, cuda::std::memory_order_release);
  a.store(v, cuda::std::memory_order_seq_cst);
  r += a.exchange(v, cuda::std::memory_order_acq_rel);
  r += a.fetch_add(v, cuda::std::memory_order_relaxed);
  r += a.fetch_add(v, cuda::std::memory_order_acquire);
  r += a.fetch_add(v, cuda::std::memory_order_release);
  r += a.fetch_add(v, cuda::std::memory_order_seq_cst);
  r += a.fetch_sub(v, cuda::std::memory_order_acq_rel);
  r += a.fetch_min(v, cuda::std::memory_order_relaxed);
  r += a.fetch_max(v, cuda::std::memory_order_release);
  T e = v;
  a.compare_exchange_strong(e, r, cuda::std::memory_order_acq_rel);
  a.compare_exchange_weak(e, r, cuda::std::memory_order_relaxed);
  a.compare_exchange_strong(e, r, cuda::std::memory_order_seq_cst);
  *out = r + e;
}
template <cuda::thread_scope S, typename T>
__device__ void bitops(T* p, T v, T* out) {
  cuda::atomic_ref<T, S> a(*p);
  T r = a.fetch_and(v, cuda::std::memory_order_relaxed);
  r ^= a.fetch_or(v, cuda::std::memory_order_acquire);
  r ^= a.fetch_xor(v, cuda::std::memory_order_seq_cst);
  *out = r;
}
#define INST(S, T) \
  __global__ void k_##S##_##T(T* p, T v, T* o) { ops<cuda::S, T>(p, v, o); } \
  __global__ void ks_##S##_##T(T v, T* o) { __shared__ T s[32]; s[threadIdx.x%32]=v; __syncthreads(); ops<cuda::S, T>(&s[threadIdx.x%7], v, o); }
#define INSTB(S, T) \
  __global__ void b_##S##_##T(T* p, T v, T* o) { bitops<cuda::S, T>(p, v, o); } \
  __global__ void bs_##S##_##T(T v, T* o) { __shared__ T s[32]; s[threadIdx.x%32]=v; __syncthreads(); bitops<cuda::S, T>(&s[threadIdx.x%7], v, o); }
typedef unsigned long long ull; typedef long long ll; typedef unsigned uns;
INST(thread_scope_system, int) INST(thread_scope_device, int) INST(thread_scope_block, int) INST(thread_scope_thread, int)
INST(thread_scope_system, ull) INST(thread_scope_device, ll) INST(thread_scope_block, ull)
INST(thread_scope_system, float) INST(thread_scope_device, float) INST(thread_scope_block, double) INST(thread_scope_device, double)
INSTB(thread_scope_system, uns) INSTB(thread_scope_device, ull) INSTB(thread_scope_block, uns)
__global__ void fences(int* p) {
  cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_system);
  p[0] = 1;
  cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
  p[1] = 2;
  cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_block);
  p[2] = 3;
  cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_system);
  __threadfence(); __threadfence_block(); __threadfence_system();
  p[3] = 4;
}
__global__ void legacy_atom(int* p, unsigned* u, float* f, double* d, __half2* h, __nv_bfloat162* b, __half* h1, __nv_bfloat16* b1, ull* q) {
  int i = threadIdx.x;
  atomicAdd(p, i); atomicSub(p + 1, i); atomicExch(p + 2, i); atomicMin(p + 3, i); atomicMax(p + 4, i);
  atomicInc(u, 17u); atomicDec(u + 1, 17u); atomicCAS(p + 5, i, 3); atomicAnd(p + 6, i); atomicOr(p + 7, i); atomicXor(p + 8, i);
  atomicAdd(f, 1.5f); atomicAdd(d, 2.5); atomicAdd(h, __floats2half2_rn(1.f, 2.f)); atomicAdd(b, __floats2bfloat162_rn(1.f, 2.f));
  atomicAdd(h1, __float2half(1.f)); atomicAdd(b1, __float2bfloat16(1.f));
  atomicMin(q, (ull)i); atomicMax(q + 1, (ull)i); atomicAnd(q + 2, (ull)i); atomicExch(q + 3, (ull)i);
  atomicAdd_block(p + 9, 1); atomicAdd_system(p + 10, 1); atomicCAS_system(q + 4, 1ull, 2ull);
  atomicMin((ll*)q + 5, (ll)i); atomicMax((ll*)q + 6, -(ll)i);
  float old = atomicExch(f + 1, 3.f); p[20] = (int)old;
  int r = atomicAdd(p + 11, 5); p[21] = r;
}
__global__ void shared_atom(int* o, float v) {
  __shared__ int s[64]; __shared__ float sf[64]; __shared__ ull sq[64]; __shared__ double sd[64];
  __shared__ __half2 sh[64];
  int i = threadIdx.x;
  s[i % 64] = 0; sf[i % 64] = 0; sq[i%64] = 0; sd[i%64]=0; __syncthreads();
  atomicAdd(&s[i % 7], i); atomicMin(&s[i % 5], i); atomicMax(&s[i % 3], -i); atomicInc((unsigned*)&s[1], 9u);
  atomicCAS(&s[2], i, 7); atomicExch(&s[3], i); atomicAnd(&s[4], i); atomicOr(&s[5], i); atomicXor(&s[6], i);
  atomicAdd(&sf[i % 9], v); atomicAdd(&sq[i % 9], (ull)i); atomicCAS(&sq[3], 1ull, (ull)i); atomicAdd(&sd[i%4], (double)v);
  atomicMin(&sq[i%5], (ull)i); atomicAdd(&sh[i%3], __floats2half2_rn(v, v)); atomicExch(&sf[2], v);
  __syncthreads(); o[i] = s[i % 64] + (int)sf[i % 64] + (int)sq[i%64] + (int)sd[i%64] + (int)__low2float(sh[i%64]);
}
