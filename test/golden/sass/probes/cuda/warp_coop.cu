#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void coop(int* d, float* f, double* g) {
  auto blk = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(blk);
  auto t16 = cg::tiled_partition<16>(blk);
  auto t4 = cg::tiled_partition<4>(tile);
  int v = d[blk.thread_rank()];
  int s = cg::reduce(tile, v, cg::plus<int>());
  int m = cg::reduce(t16, v, cg::greater<int>());
  int mi = cg::reduce(t4, v, cg::less<int>());
  int x = cg::reduce(tile, (unsigned)v, cg::bit_xor<unsigned>());
  int a = cg::reduce(tile, (unsigned)v, cg::bit_and<unsigned>());
  int o = cg::reduce(tile, (unsigned)v, cg::bit_or<unsigned>());
  float fs = cg::reduce(tile, f[blk.thread_rank()], cg::plus<float>());
  double ds = cg::reduce(t16, g[blk.thread_rank()], cg::plus<double>());
  int sc = cg::inclusive_scan(tile, v);
  int esc = cg::exclusive_scan(t16, v, cg::bit_xor<int>());
  auto act = cg::coalesced_threads();
  int ar = act.thread_rank();
  auto lbl = cg::labeled_partition(tile, v & 3);
  int lr = lbl.thread_rank() + lbl.num_threads();
  blk.sync(); tile.sync();
  d[blk.thread_rank()] = s + m + mi + x + a + o + sc + esc + ar + lr + (int)fs + (int)ds + tile.shfl(v, 3) + tile.shfl_down(v, 1) + t4.shfl_xor(v, 2) + tile.shfl_up(v, 5) + tile.any(v) + tile.all(v) + tile.ballot(v > 2) + tile.match_any(v) ;
  int pred; unsigned ma = tile.match_all(v, pred);
  d[1000 + blk.thread_rank()] = ma + pred;
}
__global__ void grid_sync_k(int* d) {
  auto g = cg::this_grid();
  d[g.thread_rank()] += 1;
  g.sync();
  d[g.thread_rank()] += d[(g.thread_rank() + 1) % g.size()];
}
__global__ void warp_intr(int* d, float* f, double* dd, long long* q, unsigned m) {
  int i = threadIdx.x;
  int v = d[i];
  unsigned b = __ballot_sync(m, v > 0);
  int any = __any_sync(m, v), all = __all_sync(m, v), uni = __uni_sync(m, v);
  unsigned mk = __activemask();
  int s0 = __shfl_sync(m, v, 7, 16), s1 = __shfl_up_sync(m, v, 3, 8), s2 = __shfl_down_sync(m, v, 2), s3 = __shfl_xor_sync(m, v, 9, 32);
  float fs = __shfl_sync(m, f[i], v);
  double ds = __shfl_xor_sync(m, dd[i], 1);
  long long qs = __shfl_down_sync(m, q[i], v & 7);
  unsigned mt = __match_any_sync(m, v);
  unsigned mq = __match_any_sync(m, q[i]);
  int p; unsigned ma = __match_all_sync(m, v, &p);
#if __CUDA_ARCH__ >= 800
  unsigned ra = __reduce_add_sync(m, (unsigned)v), rmin = __reduce_min_sync(m, (unsigned)v), rmax = __reduce_max_sync(m, v);
  int rsmin = __reduce_min_sync(m, v);
  unsigned ro = __reduce_or_sync(m, (unsigned)v), rx = __reduce_xor_sync(m, (unsigned)v), rn = __reduce_and_sync(m, (unsigned)v);
#else
  unsigned ra = 0, rmin = 1, rmax = 2, ro = 3, rx = 4, rn = 5; int rsmin = 6;
#endif
  __syncwarp(m);
  int lane; asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  unsigned lt; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  unsigned gt; asm("mov.u32 %0, %%lanemask_ge;" : "=r"(gt));
  unsigned sm; asm("mov.u32 %0, %%smid;" : "=r"(sm));
  unsigned ws; asm("mov.u32 %0, %%nwarpid;" : "=r"(ws));
  unsigned long long ck; asm volatile("mov.u64 %0, %%clock64;" : "=l"(ck));
  unsigned long long gt64; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt64));
  unsigned c32 = clock();
  __nanosleep(100); __nanosleep(v);
  d[i] = b + any + all + uni + mk + s0 + s1 + s2 + s3 + (int)fs + (int)ds + (int)qs + mt + mq + ma + p + ra + rmin + rmax + rsmin + ro + rx + rn + lane + lt + gt + sm + ws + (int)ck + (int)gt64 + c32;
}
