// Calibration program: warp collectives with full and partial masks,
// cooperative groups, named barriers, nanosleep and clock reads.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void colls(const int *in, int *out, unsigned long long *t) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[id];
  unsigned m = __match_any_sync(0xffffffff, v & 7);
#if __CUDA_ARCH__ >= 800
  int s = __reduce_add_sync(m, v);
  int mn = __reduce_min_sync(0xffffffff, v);
#else
  int s = __popc(m), mn = v;
#endif
  unsigned b = __ballot_sync(m, v > 10);
  int x = __shfl_xor_sync(0xffffffff, v, 1) + __shfl_up_sync(0xffff, v, 2, 16) +
          __shfl_down_sync(m, v, 1) + __shfl_sync(0xffffffff, v, v & 31);
  bool all = __all_sync(m, v > 0), any = __any_sync(0xffffffff, v < 0);
  int pred;
  unsigned ma = __match_all_sync(0xffffffff, v >> 4, &pred);
  __syncwarp(m);
  unsigned long long c0 = clock64();
  __nanosleep(v & 255);
  auto blk = cg::this_thread_block();
  auto tile = cg::tiled_partition<8>(blk);
  int r = cg::reduce(tile, v, cg::plus<int>());
  int sc = cg::inclusive_scan(tile, v, cg::plus<int>());
  blk.sync();
  if (threadIdx.x < 64)
    asm volatile("bar.sync 1, 64;");
  else
    asm volatile("bar.arrive 1, 64;");
  unsigned long long c1 = clock64();
  t[id] = c1 - c0 + __activemask();
  out[id] = s + mn + b + x + all + any + ma + pred + r + sc;
}
__global__ void vote_reduce(const float *in, float *out, int n) {
  __shared__ float part[32];
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  float v = id < n ? in[id] : 0.f;
  for (int o = 16; o; o >>= 1)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  int cnt = __syncthreads_count(v > 0.f);
  int an = __syncthreads_and(v > -100.f);
  int orr = __syncthreads_or(v > 100.f);
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0.f;
    for (int o = 16; o; o >>= 1)
      v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v + cnt + an + orr;
  }
}
