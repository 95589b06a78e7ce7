#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>
#include <cassert>
namespace cg = cooperative_groups;
__global__ void pipe_k(const float* g, float* o, int n) {
  __shared__ float s[2][256];
  auto blk = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_thread> p = cuda::make_pipeline();
  for (int st = 0; st < 2; ++st) {
    p.producer_acquire();
    cuda::memcpy_async(&s[st][threadIdx.x], &g[st * 256 + threadIdx.x], sizeof(float), p);
    p.producer_commit();
  }
  p.consumer_wait();
  o[threadIdx.x] = s[0][threadIdx.x];
  p.consumer_release();
  cuda::pipeline_consumer_wait_prior<0>(p);
  __shared__ float4 s4[256];
  cg::memcpy_async(blk, s4, (const float4*)g, sizeof(float4) * 256);
  cg::wait(blk);
  o[threadIdx.x + 256] = s4[threadIdx.x].y + s[1][threadIdx.x];
}
__global__ void barrier_k(const int4* g, int4* o) {
  __shared__ int4 s[512];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(cg::this_thread_block(), s, g, cuda::aligned_size_t<16>(sizeof(int4) * 512), bar);
  bar.arrive_and_wait();
  auto tok = bar.arrive();
  bar.wait(std::move(tok));
  o[threadIdx.x] = s[threadIdx.x];
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
__global__ void cpasync_raw(const int* g, int* o, int n) {
  __shared__ int s[1024];
  unsigned sa = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x * 4]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(sa), "l"(g + threadIdx.x));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(sa + 8), "l"(g + threadIdx.x * 2));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(sa), "l"(g + threadIdx.x * 4));
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;" :: "r"(sa), "l"(g + threadIdx.x * 4), "r"(n));
  asm volatile("cp.async.ca.shared.global.L2::64B [%0], [%1], 16;" :: "r"(sa), "l"(g + threadIdx.x * 4 + 64));
  asm volatile("cp.async.ca.shared.global.L2::256B [%0], [%1], 8, 4;" :: "r"(sa), "l"(g + threadIdx.x * 2 + 128));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 1;");
  asm volatile("cp.async.wait_all;");
  __shared__ unsigned long long mb;
  unsigned mba = (unsigned)__cvta_generic_to_shared(&mb);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(mba), "r"(blockDim.x));
  __syncthreads();
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" :: "r"(mba));
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" :: "r"(mba));
  unsigned long long st;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(st) : "r"(mba));
#if __CUDA_ARCH__ >= 900
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1], 3;" : "=l"(st) : "r"(mba));
#endif
  asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(st) : "r"(mba));
  asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], 2;" : "=l"(st) : "r"(mba));
  unsigned ok;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0,1,0,p; }" : "=r"(ok) : "r"(mba), "l"(st));
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], %2; selp.u32 %0,1,0,p; }" : "=r"(ok) : "r"(mba), "r"(n & 1));
  unsigned cnt; asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(cnt) : "l"(st));
  asm volatile("mbarrier.inval.shared.b64 [%0];" :: "r"(mba));
  __syncthreads();
  o[threadIdx.x] = s[threadIdx.x] + ok + cnt;
}
#endif
__global__ void sys_k(int* o, int n) {
  printf("hello %d %f %s\n", n, (double)n * 0.5, "x");
  int* m = (int*)malloc(n * sizeof(int));
  assert(m != nullptr);
  m[0] = n;
  o[0] = m[0];
  free(m);
  if (n == 42) __trap();
  if (n == 43) __brkpt();
  __prof_trigger(3);
}
